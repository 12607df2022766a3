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

/// Carried values written wrong are refused at their place: a name the ruleset does not carry
/// (with the one meant), a value that is no whole number or out of range, and any in a
/// ruleset that carries nothing.
#[test]
fn carried_values_written_wrong_are_refused_at_their_place() {
    let error = |text: &str| {
        let (position, ruleset) = load(text);
        let e = start(&position, ruleset, false).err().unwrap();
        (e.message, e.span.map(|s| text[s].to_string()), e.help)
    };
    let (message, place, help) = error("ruleset = \"hachihachi\"\ncarried = { feild = 2 }\n");
    assert_eq!(message, "`feild` is no value `hachihachi` carries");
    assert_eq!(place.as_deref(), Some("feild"));
    assert_eq!(help.as_deref(), Some("did you mean `field`?"));
    let (message, place, _) = error("ruleset = \"hachihachi\"\ncarried = { field = [2, 2, 2] }\n");
    assert_eq!(
        message,
        "`field` is carried for the table: one whole number between -1000000000 and 1000000000"
    );
    assert_eq!(place.as_deref(), Some("[2, 2, 2]"));
    let (_, place, _) = error("ruleset = \"hachihachi\"\ncarried = { field = 1000000001 }\n");
    assert_eq!(place.as_deref(), Some("1000000001"));
    let (message, _, help) = error("ruleset = \"koikoi\"\ncarried = { field = 2 }\n");
    assert_eq!(message, "`field` is no value `koikoi` carries");
    assert_eq!(
        help.as_deref(),
        Some("`koikoi` has no `[[carry]]`: remove `carried`")
    );
}

/// Values carried into the hand are read by its deal: Hachi-Hachi's large field carried from
/// the last month makes this month's field large with no bright on the table; written, they
/// read back.
#[test]
fn carried_values_are_read_by_the_deal_and_read_back() {
    let text = r#"
        ruleset = "hachihachi"
        dealer = 0
        carried = { field_next = 2 }
        [deal]
        table = "pine-1 plum-1 cherry-1 wisteria-2 iris-2 peony-2"
    "#;
    let g = game(text);
    assert_eq!(g.carried().get("field"), Some(&[2][..]));
    assert_eq!(g.carried().get("field_next"), Some(&[1][..]));
    let (position, _) = load(text);
    let again = Position::parse(&position.to_text()).unwrap();
    assert_eq!(again.carried.len(), 1);
    let regame = start(&again, Arc::clone(g.ruleset()), false).unwrap();
    assert_eq!(regame.carried(), g.carried());
    assert_eq!(regame.zones(), g.zones());
}

/// A record's position in a month that a large field was carried into writes that value, and
/// deals again into the record's game, its field included (seeds tried in turn until the
/// first month deals two brights to the table).
#[test]
fn a_records_position_writes_the_values_carried_into_its_hand() {
    let r = Arc::new(ruleset::load("hachihachi").value.unwrap());
    let players = vec!["random".to_string(); 3];
    let found = (0..400).find_map(|seed| {
        let mut record = Record::new(&r, "hachihachi", Some(seed), &players, Some(2));
        let mut game = super::start(
            Arc::clone(&r),
            StartOptions {
                seed,
                seats: Some(3),
                rounds: Some(2),
                ..StartOptions::default()
            },
        )
        .unwrap();
        let (mut rng, mut legal) = (agent_rng(seed), Vec::new());
        let mut second = None;
        while let Some(seat) = game.to_act() {
            if second.is_none() && game.round() == 2 {
                second = Some(record.actions.len());
            }
            game.legal_actions(&mut legal);
            let a = RandomAgent.choose(&*game, seat, &legal, &mut rng);
            record.push(seat, a, &r);
            game.apply(a).unwrap();
        }
        record.sync(&*game);
        let carried = game.history().first()?.carried.get("field_next")? == [2];
        carried.then_some((record, second?))
    });
    let (record, at) = found.expect("a seed whose first month carries a large field");
    let (position, same) = of_record(&record, Arc::clone(&r), "hachihachi", at).unwrap();
    assert!(same, "{}", position.to_text());
    let text = position.to_text();
    let carried = text.split("[carried]\n").nth(1).unwrap_or_default();
    assert!(carried.contains("\nfield_next = 2\n"), "{text}");
    let again = start(&Position::parse(&text).unwrap(), Arc::clone(&r), false).unwrap();
    assert!(again.carried().get("field").unwrap()[0] >= 2, "{text}");
}

/// A value carried per seat is written as one number per seat, and refused otherwise.
#[test]
fn a_value_carried_per_seat_is_a_list_of_one_number_a_seat() {
    let loaded = ruleset::load_str(
        "streak.toml",
        "[ruleset]\nid = \"streak\"\nextends = \"koikoi\"\nname = \"Streak\"\n[[carry]]\nid = \"streak\"\nname = \"Streak\"\nper_seat = true\n",
    );
    let r = Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    );
    let at = |carried: &str| {
        let text = format!("ruleset = \"streak.toml\"\ncarried = {{ streak = {carried} }}\n");
        let position = Position::parse(&text).unwrap();
        start(&position, Arc::clone(&r), false)
            .map(|g| g.carried().get("streak").unwrap().to_vec())
            .map_err(|e| (e.message, text[e.span.unwrap()].to_string()))
    };
    assert_eq!(at("[2, 0]"), Ok(vec![2, 0]));
    let refused = Err((
        "`streak` is carried per seat: a list of 2 whole numbers, each between -1000000000 and 1000000000".to_string(),
        "2".to_string(),
    ));
    assert_eq!(at("2"), refused);
    assert!(at("[1, 2, 3]").is_err());
    assert!(at("[1, \"x\"]").is_err());
}
