//! Positions written by hand give the moves of their worked examples (a capture by sum, a
//! trick's winner, a marriage to meld, a banker game's draws), and every bundled game's record
//! gives, at any action, a position that deals again into the record's game.

use super::position::{Position, of_record, start};
use crate::agent::RandomAgent;
use crate::core::record::{Record, StepAction};
use crate::core::{Agent, Game, StartOptions, agent_rng};
use crate::deck::CardSet;
use crate::ruleset::{self, Ruleset};
use std::sync::Arc;

fn load(text: &str) -> (Position, Arc<Ruleset>) {
    let position = Position::parse(text).unwrap();
    let ruleset = Arc::new(ruleset::load(position.ruleset.get_ref()).value.unwrap());
    (position, ruleset)
}

fn game(text: &str) -> Box<dyn Game> {
    let (position, ruleset) = load(text);
    start(&position, ruleset, true).unwrap()
}

/// The legal moves as a record writes them.
fn moves(game: &dyn Game) -> Vec<StepAction> {
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    legal
        .iter()
        .map(|&a| StepAction::from_action(a, game.ruleset()))
        .collect()
}

fn zone(game: &dyn Game, name: &str) -> Vec<String> {
    let cards = game
        .zones()
        .into_iter()
        .find(|(n, _)| n == name)
        .map_or(CardSet::EMPTY, |(_, c)| c);
    game.ruleset()
        .deck
        .ids(cards)
        .into_iter()
        .map(str::to_string)
        .collect()
}

fn step(game: &mut dyn Game, step: StepAction) {
    let action = step.to_action(game.ruleset()).unwrap();
    game.apply(action).unwrap();
}

fn play(card: &str) -> StepAction {
    StepAction::Play { card: card.into() }
}

/// Scopa: a Five onto Ace, Two, Three and Four captures by sum, Ace and Four or Two and
/// Three, the player's choice; a King (10) takes all four, a sweep.
#[test]
fn a_scopa_table_offers_each_capture_by_sum() {
    let text = r#"
        ruleset = "scopa"
        dealer = 0
        [deal]
        "hand 1" = "coins-5 cups-king swords-7"
        table = "cups-2 batons-3 swords-4 coins-ace"
    "#;
    let mut g = game(text);
    assert_eq!(g.to_act(), Some(1), "the dealer's opponent plays first");
    assert_eq!(zone(&*g, "hand 1"), ["coins-5", "cups-king", "swords-7"]);
    step(&mut *g, play("coins-5"));
    let set = |cards: &[&str]| StepAction::CaptureSet {
        cards: cards.iter().map(|c| c.to_string()).collect(),
    };
    assert_eq!(
        moves(&*g),
        [
            set(&["coins-ace", "swords-4"]),
            set(&["cups-2", "batons-3"])
        ]
    );
    let mut g = game(text);
    step(&mut *g, play("cups-king"));
    assert_eq!(zone(&*g, "table"), Vec::<String>::new());
    assert_eq!(zone(&*g, "captured 1").len(), 5);
}

/// Schnapsen, diamonds trumps (the Ten turned): to the Ace of Hearts led, the Jack of Diamonds
/// trumps and wins the trick, and its winner draws the stock's first card, the King of Clubs.
#[test]
fn a_schnapsen_trick_is_won_by_the_trump() {
    let mut g = game(
        r#"
        ruleset = "schnapsen"
        dealer = 0
        moves = [{ action = "play", card = "hearts-ace" }]
        [deal]
        "hand 0" = "diamonds-jack hearts-jack clubs-ace clubs-ten spades-jack"
        "hand 1" = "hearts-ace hearts-king hearts-queen spades-ace spades-ten"
        trump = "diamonds-ten"
        stock = "clubs-king diamonds-ace"
    "#,
    );
    assert_eq!(g.to_act(), Some(0));
    assert_eq!(zone(&*g, "trick"), ["hearts-ace"]);
    step(&mut *g, play("diamonds-jack"));
    assert_eq!(zone(&*g, "won 0"), ["hearts-ace", "diamonds-jack"]);
    assert_eq!(g.to_act(), Some(0), "the trick's winner leads");
    assert!(zone(&*g, "hand 0").contains(&"clubs-king".to_string()));
    assert!(zone(&*g, "hand 1").contains(&"diamonds-ace".to_string()));
}

/// Schnapsen: a leader holding the King and Queen of Hearts is offered the marriage, shown
/// with either card.
#[test]
fn a_schnapsen_leader_is_offered_the_marriage_held() {
    let g = game(
        r#"
        ruleset = "schnapsen"
        dealer = 0
        [deal]
        "hand 1" = "hearts-ace hearts-king hearts-queen spades-ace spades-ten"
        trump = "diamonds-ten"
    "#,
    );
    let marriage = |card: &str| StepAction::Declare {
        id: "marriage".into(),
        card: Some(card.into()),
    };
    let offered = moves(&*g);
    assert!(offered.contains(&marriage("hearts-king")), "{offered:?}");
    assert!(offered.contains(&marriage("hearts-queen")), "{offered:?}");
    assert!(!offered.contains(&marriage("spades-ace")), "{offered:?}");
}

/// Oicho-Kabu: after the bet the banker draws its two tiles first from the stock as written,
/// then the player its second; the player's third, when it draws, is the next.
#[test]
fn oicho_kabu_draws_come_from_the_stock_in_the_order_written() {
    let mut g = game(
        r#"
        ruleset = "oicho-kabu"
        seats = 2
        dealer = 1
        [deal]
        "tiles 0" = "four-a"
        stock = "two-a five-a one-a three-a six-a"
    "#,
    );
    assert_eq!(moves(&*g)[0], StepAction::Bet { amount: 1 });
    step(&mut *g, StepAction::Bet { amount: 1 });
    // Four and One make 5: the player chooses whether to draw.
    assert_eq!(zone(&*g, "banker"), ["two-a", "five-a"]);
    assert_eq!(zone(&*g, "tiles 0"), ["one-a", "four-a"]);
    assert_eq!(
        moves(&*g),
        [StepAction::Draw { tiles: 0 }, StepAction::Draw { tiles: 1 }]
    );
    step(&mut *g, StepAction::Draw { tiles: 1 });
    assert_eq!(g.history().len(), 1);
}

/// What is wrong in a position is said at its place.
#[test]
fn a_wrong_position_is_refused_at_its_place() {
    let error = |text: &str| {
        let (position, ruleset) = load(text);
        let e = start(&position, ruleset, false).err().unwrap();
        (e.message, e.span.map(|s| text[s].to_string()))
    };
    let head = "ruleset = \"koikoi\"\n[deal]\n";
    assert_eq!(
        error(&format!("{head}\"hand 0\" = \"pine-1 pine-9\"\n")),
        (
            "no card `pine-9` in the deck of `koikoi`".to_string(),
            Some("pine-9".to_string())
        )
    );
    assert_eq!(
        error(&format!(
            "{head}\"hand 0\" = \"pine-1\"\ntable = [\"pine-1\"]\n"
        ))
        .0,
        "`pine-1` is written twice"
    );
    let (message, place) = error(&format!("{head}hands = \"pine-1\"\n"));
    assert_eq!(message, "`hands` is no place a deal of `koikoi` puts cards");
    assert_eq!(place.as_deref(), Some("hands"));
    assert_eq!(
        error(&format!(
            "{head}table = \"pine-1 pine-2 pine-crane pine-poetry plum-1 plum-2 plum-warbler plum-poetry cherry-1\"\n"
        ))
        .0,
        "`table` holds 8 card(s) when `koikoi` is dealt, not 9"
    );
    let (message, _) = error(
        "ruleset = \"koikoi\"\nseed = 3\nmoves = [{ action = \"play\", card = \"pine-1\" }]\n[deal]\n\"hand 1\" = \"pine-1\"\n",
    );
    assert!(message.starts_with("move 1: "), "{message}");
    assert!(
        Position::parse("ruleset = \"koikoi\"\nsorts = 1\n")
            .err()
            .unwrap()
            .message
            .contains("unknown field `sorts`")
    );
}

/// A position printed is read back as the same position.
#[test]
fn a_position_reads_back_as_written() {
    let mut g = game(
        r#"
        ruleset = "koikoi"
        dealer = 0
        [deal]
        "hand 0" = "cherry-curtain pine-1 plum-1"
        table = ["cherry-poetry", "cherry-1", "pine-crane"]
    "#,
    );
    step(&mut *g, play("cherry-curtain"));
    let record = {
        let mut r = Record::new(g.ruleset(), "koikoi", Some(0), &[], None);
        r.deals = g
            .dealt_orders()
            .iter()
            .map(|o| {
                o.iter()
                    .map(|&c| g.ruleset().deck.id_of(c).to_string())
                    .collect()
            })
            .collect();
        r.players = vec!["human".into(); 2];
        r.first_dealer = Some(0);
        r.actions = vec![crate::core::record::Step {
            seat: Some(0),
            action: play("cherry-curtain"),
        }];
        r
    };
    let (position, same) = of_record(&record, Arc::clone(g.ruleset()), "koikoi", 1).unwrap();
    assert!(same);
    let again = Position::parse(&position.to_text()).unwrap();
    let regame = start(&again, Arc::clone(g.ruleset()), false).unwrap();
    assert_eq!(regame.zones(), g.zones());
    assert_eq!(regame.to_act(), g.to_act());
}

/// Every bundled game: a random game's record gives, after any number of its actions, a
/// position that deals again into the record's game (the zones, whose turn, the scores).
#[test]
fn every_bundled_games_record_gives_positions_that_deal_again() {
    for name in ruleset::bundled::ruleset_names() {
        let r = Arc::new(ruleset::load(name).value.unwrap());
        let seats = super::seat_range(&r).default;
        let players: Vec<String> = (0..seats).map(|_| "random".to_string()).collect();
        let mut record = Record::new(&r, name, Some(4), &players, Some(3));
        let mut game = super::start(
            Arc::clone(&r),
            StartOptions {
                seed: 4,
                seats: Some(seats),
                rounds: Some(3),
                ..StartOptions::default()
            },
        )
        .unwrap();
        let (mut rng, mut legal) = (agent_rng(4), Vec::new());
        while let Some(seat) = game.to_act() {
            game.legal_actions(&mut legal);
            let a = RandomAgent.choose(&*game, seat, &legal, &mut rng);
            record.push(seat, a, &r);
            game.apply(a).unwrap();
        }
        record.sync(&*game);
        let n = record.actions.len();
        for at in [0, 1, n / 3, n / 2, n - 1, n] {
            let (position, same) = of_record(&record, Arc::clone(&r), name, at).unwrap();
            assert!(same, "{name} after {at} actions:\n{}", position.to_text());
            let again = Position::parse(&position.to_text()).unwrap();
            assert!(start(&again, Arc::clone(&r), false).is_ok(), "{name} {at}");
        }
    }
}
