//! Bidding on a turned-up card (Issue 42), on the test ruleset tests/rulesets/turned-up.toml
//! (Euchre's bidding, pagat.com/euchre/euchre.html): ordered up in the first round with the
//! dealer's discard, a suit named in the second, the dealer stuck, and the redeal.

use super::*;
use crate::agent::{Agent, GreedyAgent, RandomAgent, agent_rng};
use crate::core::{Action, DeclId, Event, Game, StartOptions};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{self, Ruleset};
use std::sync::Arc;

const PATH: &str = "tests/rulesets/turned-up.toml";

fn load_text(text: &str) -> Arc<Ruleset> {
    let loaded = ruleset::load_str("turned-up.toml", text);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

fn load() -> Arc<Ruleset> {
    load_text(&std::fs::read_to_string(PATH).unwrap())
}

fn card(r: &Ruleset, id: &str) -> CardId {
    r.deck
        .card_by_id(id)
        .unwrap_or_else(|| panic!("no card `{id}`"))
}

fn decl(r: &Ruleset, effect: &str) -> DeclId {
    DeclId(
        r.declarations
            .iter()
            .position(|d| d.effect == effect)
            .expect("the ruleset has the declaration") as u8,
    )
}

/// The worked deal, seat 0 dealing: five cards each, then the talon, its first card (the King
/// of Hearts) turned up. Seat 1 holds both bowers and the Ace of Hearts; seat 2 four Spades
/// with the left bower; the dealer and seat 3 little.
const HANDS: [[&str; 5]; 4] = [
    [
        "hearts-nine",
        "clubs-ace",
        "clubs-king",
        "spades-nine",
        "diamonds-ten",
    ],
    [
        "hearts-jack",
        "diamonds-jack",
        "hearts-ace",
        "clubs-nine",
        "spades-ace",
    ],
    [
        "spades-jack",
        "spades-king",
        "spades-queen",
        "clubs-jack",
        "diamonds-ace",
    ],
    [
        "clubs-queen",
        "clubs-ten",
        "diamonds-king",
        "diamonds-queen",
        "spades-ten",
    ],
];
const TALON: [&str; 4] = ["hearts-king", "hearts-queen", "hearts-ten", "diamonds-nine"];

fn deal(r: &Arc<Ruleset>) -> TricksGame {
    let mut order = Vec::new();
    let mut taken = 0;
    for k in [3, 2] {
        for seat in [1, 2, 3, 0] {
            order.extend(HANDS[seat][taken..taken + k].iter().map(|i| card(r, i)));
        }
        taken += k;
    }
    order.extend(TALON.iter().map(|i| card(r, i)));
    let all: CardSet = order.iter().copied().collect();
    assert_eq!(all, r.deck.all(), "the worked deal holds every card once");
    start(
        Arc::clone(r),
        StartOptions {
            seed: 1,
            rounds: Some(1),
            first_dealer: Some(0),
            deck_orders: vec![order],
            log_events: true,
            ..StartOptions::default()
        },
    )
    .unwrap()
}

/// A move: `pass`, `order` (up the turned card), `name SUIT`, or a card id to play or discard.
fn action(g: &TricksGame, m: &str) -> Action {
    let r = g.ruleset();
    let (verb, rest) = m.split_once(' ').unwrap_or((m, ""));
    match verb {
        "pass" => Action::declare(decl(r, "pass")),
        "order" => Action::Declare {
            decl: decl(r, "order_up"),
            card: g.turned().map(|(c, _)| c),
        },
        "name" => {
            let suit = r.deck.suits.iter().position(|s| s.id == rest).unwrap();
            Action::Declare {
                decl: decl(r, "trump"),
                card: r.deck.suits[suit].cards.first_card(),
            }
        }
        _ => Action::Play {
            card: card(r, verb),
        },
    }
}

fn act(g: &mut TricksGame, m: &str) {
    let a = action(g, m);
    g.apply(a).unwrap_or_else(|e| panic!("{m}: {}", e.reason));
}

fn refused(g: &mut TricksGame, m: &str) -> String {
    let a = action(g, m);
    g.apply(a).expect_err(m).reason
}

/// The legal moves in words: the declaration's id with the card it shows.
fn moves(g: &TricksGame) -> Vec<String> {
    let r = g.ruleset();
    g.legal()
        .iter()
        .map(|a| match a {
            Action::Declare { decl, card } => {
                let id = &r.declarations[decl.0 as usize].id;
                card.map_or(id.clone(), |c| format!("{id} {}", r.deck.id_of(c)))
            }
            Action::Play { card } => r.deck.id_of(*card).to_string(),
            other => format!("{other:?}"),
        })
        .collect()
}

/// The first round: seat 1 (the dealer's left) may pass or order up the King of Hearts; it
/// orders up, the dealer takes the King into the hand and discards the Nine of Spades face
/// down; Hearts are trumps with both bowers, seat 1 is the maker, and seat 1 leads.
#[test]
fn ordered_up_in_the_first_round_the_dealer_takes_the_card_and_discards() {
    let r = load();
    let mut g = deal(&r);
    assert_eq!(g.turned(), Some((card(&r, "hearts-king"), false)));
    assert_eq!(g.to_act(), Some(1));
    assert_eq!(moves(&g), ["pass", "order-up hearts-king"]);
    assert_eq!(
        refused(&mut g, "name spades"),
        "the first round may only order up the turned card's suit (Hearts), or pass"
    );
    act(&mut g, "order");
    assert_eq!(g.phase(), Phase::Discard);
    assert_eq!(g.to_act(), Some(0));
    assert!(g.hand(0).contains(card(&r, "hearts-king")));
    assert_eq!(g.hand(0).len(), 6);
    assert_eq!(
        refused(&mut g, "pass"),
        "you took the turned card: discard 1 more card (play a card from your hand)"
    );
    act(&mut g, "spades-nine");
    assert_eq!(g.hand(0).len(), 5);
    // The discard lies face down with the three cards left of the talon.
    let talon: CardSet = ["hearts-queen", "hearts-ten", "diamonds-nine", "spades-nine"]
        .iter()
        .map(|i| card(&r, i))
        .collect();
    assert_eq!(g.talon(), talon);
    assert_eq!(g.declarer(), Some(1));
    assert_eq!(g.high_bid(), Some((1, 1)));
    assert_eq!(
        g.trump_suit(),
        r.deck.suits.iter().position(|s| s.id == "hearts").unwrap()
    );
    assert!(g.trick_order().trumps.contains(card(&r, "diamonds-jack")));
    assert_eq!(g.phase(), Phase::Lead);
    assert_eq!(g.to_act(), Some(1));
}

/// All four pass: the King of Hearts is turned down. In the second round seat 1 passes and
/// seat 2 names Spades (any suit but Hearts); ordering up and naming Hearts are refused.
#[test]
fn named_in_the_second_round_any_suit_but_the_turned_card() {
    let r = load();
    let mut g = deal(&r);
    for m in ["pass", "pass", "pass", "pass"] {
        act(&mut g, m);
    }
    assert_eq!(g.turned(), Some((card(&r, "hearts-king"), true)));
    assert_eq!(g.to_act(), Some(1));
    assert_eq!(
        moves(&g),
        [
            "pass",
            "trump diamonds-jack",
            "trump clubs-nine",
            "trump spades-ace"
        ]
    );
    assert!(!moves(&g).iter().any(|m| m.contains("hearts")));
    assert_eq!(
        refused(&mut g, "order"),
        "the Hearts were turned down: name another suit as trumps, or pass"
    );
    assert_eq!(
        refused(&mut g, "name hearts"),
        "the Hearts were turned down: name another suit"
    );
    act(&mut g, "pass");
    act(&mut g, "name spades");
    assert_eq!(g.declarer(), Some(2));
    assert_eq!(
        g.trump_suit(),
        r.deck.suits.iter().position(|s| s.id == "spades").unwrap()
    );
    assert!(g.trick_order().trumps.contains(card(&r, "clubs-jack")));
    // The turned card stays turned down, in no hand.
    assert!((0..4).all(|s| !g.hand(s).contains(card(&r, "hearts-king"))));
    assert_eq!(g.phase(), Phase::Lead);
    assert_eq!(g.to_act(), Some(1));
}

/// All pass twice round to the dealer: stuck, the dealer may not pass and names Clubs.
#[test]
fn stick_the_dealer() {
    let r = load();
    let mut g = deal(&r);
    for m in ["pass", "pass", "pass", "pass", "pass", "pass", "pass"] {
        act(&mut g, m);
    }
    assert_eq!(g.to_act(), Some(0));
    assert!(!moves(&g).contains(&"pass".to_string()));
    assert_eq!(moves(&g).len(), 3);
    assert_eq!(
        refused(&mut g, "pass"),
        "every other seat passed twice: the dealer is stuck and must name a suit"
    );
    act(&mut g, "name clubs");
    assert_eq!(g.declarer(), Some(0));
    assert_eq!(
        g.trump_suit(),
        r.deck.suits.iter().position(|s| s.id == "clubs").unwrap()
    );
    assert_eq!(g.phase(), Phase::Lead);
}

/// With `passed_out = "redeal"`, all passing twice throws the hand in unplayed.
#[test]
fn all_pass_twice_redeals() {
    let text = std::fs::read_to_string(PATH)
        .unwrap()
        .replace("passed_out = \"dealer\"", "passed_out = \"redeal\"");
    let r = load_text(&text);
    let mut g = deal(&r);
    for _ in 0..8 {
        act(&mut g, "pass");
    }
    let ended = g
        .drain_events()
        .into_iter()
        .any(|e| matches!(e, Event::HandEnded { end, .. } if end.0 == "passed_out"));
    assert!(ended, "the hand ends passed out");
}

/// A whole hand on the worked deal with greedy players: seat 1, holding both bowers and the
/// Ace of Hearts, orders up; the bidding, the discard and the tricks.
#[test]
fn a_whole_hand_greedy() {
    use std::fmt::Write as _;
    let r = load();
    let mut g = deal(&r);
    let mut rng = agent_rng(1);
    let mut out = String::new();
    while let Some(seat) = g.to_act() {
        let legal = g.legal();
        let a = GreedyAgent.choose(&g, seat, &legal, &mut rng);
        if matches!(g.phase(), Phase::Bid | Phase::Discard) {
            let _ = writeln!(out, "seat {seat}: {}", {
                let r = g.ruleset();
                match a {
                    Action::Declare { decl, card } => format!(
                        "{}{}",
                        r.declarations[decl.0 as usize].id,
                        card.map_or(String::new(), |c| format!(" {}", r.deck.id_of(c)))
                    ),
                    Action::Play { card } => format!("discards {}", r.deck.id_of(card)),
                    other => format!("{other:?}"),
                }
            });
        }
        g.apply(a).unwrap();
    }
    for e in g.drain_events() {
        match e {
            Event::TrickWon { player, cards } => {
                let cards: Vec<&str> = cards.iter().map(|&c| r.deck.id_of(c)).collect();
                let _ = writeln!(out, "seat {player} takes [{}]", cards.join(", "));
            }
            Event::HandEnded { end, points, .. } => {
                let _ = writeln!(out, "hand ends: {}, game points {points:?}", end.0);
            }
            _ => {}
        }
    }
    insta::assert_snapshot!(out);
}

/// Random and greedy play keep every card in one place (the hands, the tricks won, the talon
/// and the turned card) and end every hand.
#[test]
fn random_games_keep_every_card() {
    let r = load();
    for seed in 1..=60u64 {
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                rounds: Some(3),
                ..StartOptions::default()
            },
        )
        .unwrap();
        let mut rng = agent_rng(seed);
        let mut moves = 0;
        while let Some(seat) = g.to_act() {
            let mut all = CardSet::EMPTY;
            let mut count = 0;
            for (_, z) in Game::zones(&g) {
                count += z.len();
                all |= z;
            }
            if g.phase() != Phase::Follow && g.trick().is_empty() {
                assert_eq!((count, all), (24, r.deck.all()), "seed {seed}");
            }
            let legal = g.legal();
            let a = if seed % 2 == 0 {
                RandomAgent.choose(&g, seat, &legal, &mut rng)
            } else {
                GreedyAgent.choose(&g, seat, &legal, &mut rng)
            };
            g.apply(a).unwrap();
            moves += 1;
            assert!(moves < 1000, "the game ends");
        }
    }
}

/// The greedy bot counts the trumps it would hold, bowers included: seat 3 (no suit with three)
/// passes in the first round; the stuck dealer names Clubs, where it holds two (the Ace and King),
/// the most of the suits it may name, and says why.
#[test]
fn greedy_counts_trumps_and_the_stuck_dealer_names_its_best_suit() {
    use super::greedy::{Why, choose_why};
    let r = load();
    let mut g = deal(&r);
    act(&mut g, "pass");
    act(&mut g, "pass");
    let (a, why) = choose_why(&g.view(3), &g.legal());
    assert_eq!(a, action(&g, "pass"));
    assert_eq!(
        why,
        Why::TurnedUp {
            suit: None,
            trumps: 0,
            forced: false
        }
    );
    for _ in 0..5 {
        act(&mut g, "pass");
    }
    assert_eq!(g.to_act(), Some(0));
    let (a, why) = choose_why(&g.view(0), &g.legal());
    assert_eq!(a, action(&g, "name clubs"));
    let clubs = r.deck.suits.iter().position(|s| s.id == "clubs").unwrap();
    assert_eq!(
        why,
        Why::TurnedUp {
            suit: Some(clubs),
            trumps: 2,
            forced: true
        }
    );
    assert_eq!(
        why.words(&g.view(0)),
        "it holds 2 trumps with Clubs (Acorns) as trumps, the most of any suit it may name (the dealer is stuck)"
    );
}
