//! Trumps as a set of cards and orders that depend on the contract (Issue 42), on the test
//! rulesets tests/rulesets/queens-and-jacks.toml (Schafkopf's trumps: every Queen, Jack and
//! the trump suit; a Wenz of the Jacks alone; a Null without trumps and with the Ten low) and
//! tests/rulesets/left-bower.toml (Euchre's bowers: the Jack of the trump suit's colour joins
//! the trumps). Sources are the rulesets' (pagat.com).

use super::test_support::*;
use super::*;
use crate::agent::{Agent, RandomAgent, agent_rng};
use crate::core::{Action, StartOptions};
use crate::deck::CardId;
use std::sync::Arc;

/// The hand's trumps, highest first (cards of equal strength in deck order).
fn trumps_high_to_low(g: &TricksGame) -> Vec<String> {
    let order = g.trick_order();
    let mut cards: Vec<CardId> = order.trumps.iter().collect();
    cards.sort_by_key(|&c| std::cmp::Reverse(order.strength[c.index()]));
    cards
        .iter()
        .map(|&c| g.ruleset().deck.id_of(c).to_string())
        .collect()
}

/// The card that takes a trick of `cards` (the first led).
fn winner(g: &TricksGame, cards: &[&str]) -> String {
    let r = g.ruleset();
    let mut best = card(r, cards[0]);
    for id in &cards[1..] {
        let c = card(r, id);
        if g.beats(c, best) {
            best = c;
        }
    }
    r.deck.id_of(best).to_string()
}

/// Schafkopf's deal for the worked hands: seat 1 (forehand) holds the top Queens.
const SCHAFKOPF: [[&str; 6]; 4] = [
    [
        "hearts-ace",
        "hearts-ten",
        "clubs-ace",
        "clubs-nine",
        "spades-nine",
        "diamonds-nine",
    ],
    [
        "clubs-queen",
        "spades-queen",
        "hearts-queen",
        "clubs-jack",
        "hearts-king",
        "spades-ace",
    ],
    [
        "diamonds-queen",
        "spades-jack",
        "clubs-ten",
        "clubs-king",
        "diamonds-ace",
        "diamonds-ten",
    ],
    [
        "hearts-jack",
        "diamonds-jack",
        "hearts-nine",
        "spades-ten",
        "spades-king",
        "diamonds-king",
    ],
];

/// The normal game: every Queen and Jack and the Hearts are trumps, in the order of
/// pagat.com/schafkopf/schafkopf.html (Queens, then Jacks, each Clubs, Spades, Hearts,
/// Diamonds; then the Hearts Ace, Ten, King, Nine).
#[test]
fn the_normal_game_trumps_queens_jacks_and_hearts() {
    let r = load("tests/rulesets/queens-and-jacks.toml");
    let mut g = deal4(&r, &SCHAFKOPF);
    for m in ["bid 1", "pass", "pass", "pass"] {
        act(&mut g, m);
    }
    assert_eq!(g.contract().map(|c| c.id.as_str()), Some("game"));
    assert_eq!(
        g.trump_suit(),
        0,
        "the contract fixes Hearts: no suit is named"
    );
    assert_eq!(
        trumps_high_to_low(&g),
        [
            "clubs-queen",
            "spades-queen",
            "hearts-queen",
            "diamonds-queen",
            "clubs-jack",
            "spades-jack",
            "hearts-jack",
            "diamonds-jack",
            "hearts-ace",
            "hearts-ten",
            "hearts-king",
            "hearts-nine",
        ]
    );
    // A worked trick: the Ace of Hearts led, the Jack of Diamonds (the lowest Unter) takes it;
    // the Queen of Clubs over everything.
    assert_eq!(
        winner(
            &g,
            &["hearts-ace", "hearts-nine", "diamonds-jack", "hearts-ten"]
        ),
        "diamonds-jack"
    );
    assert_eq!(
        winner(
            &g,
            &[
                "diamonds-jack",
                "spades-queen",
                "clubs-queen",
                "hearts-queen"
            ]
        ),
        "clubs-queen"
    );
    // A Queen trumps a plain Club, and is not a Club for following.
    assert_eq!(
        winner(
            &g,
            &["clubs-ace", "clubs-ten", "diamonds-queen", "clubs-king"]
        ),
        "diamonds-queen"
    );
    // Forehand (seat 1) leads the Jack of Clubs, a trump. Seat 2's trumps are the Queen of
    // Diamonds and the Jack of Spades: it must play one of them, not a Club.
    act(&mut g, "clubs-jack");
    assert_eq!(g.to_act(), Some(2));
    assert_eq!(
        ids(&r, g.playable(2)),
        ["diamonds-queen", "spades-jack"],
        "a trump led is followed with any trump"
    );
    let refused = g
        .apply(Action::Play {
            card: card(&r, "clubs-ten"),
        })
        .unwrap_err();
    assert!(
        refused.to_string().contains("follow trumps with a trump"),
        "{refused}"
    );
}

/// A Spade led in the normal game: the Jack of Spades is a trump, so a seat whose only Spade is
/// that Jack is void in Spades and may play any card.
#[test]
fn a_queen_is_no_longer_a_card_of_its_printed_suit() {
    let r = load("tests/rulesets/queens-and-jacks.toml");
    let mut g = deal4(&r, &SCHAFKOPF);
    for m in ["bid 1", "pass", "pass", "pass"] {
        act(&mut g, m);
    }
    // Seat 1 leads the Ace of Spades; seat 2 has no Spade but the Jack (a trump): any card.
    act(&mut g, "spades-ace");
    assert_eq!(
        g.playable(2),
        g.hand(2),
        "void in Spades: the Jack of Spades is a trump"
    );
    act(&mut g, "clubs-king");
    // Seat 3 holds the Ten and King of Spades: it must play one of them.
    assert_eq!(ids(&r, g.playable(3)), ["spades-ten", "spades-king"]);
}

/// The Wenz: only the Jacks are trumps (Clubs, Spades, Hearts, Diamonds); the Queens are
/// cards of their suits again and must follow them (pagat.com/schafkopf/schafkopf.html "Wenz").
#[test]
fn the_wenz_trumps_the_jacks_alone() {
    let r = load("tests/rulesets/queens-and-jacks.toml");
    let mut g = deal4(&r, &SCHAFKOPF);
    for m in ["bid 2", "pass", "pass", "pass"] {
        act(&mut g, m);
    }
    assert_eq!(g.contract().map(|c| c.id.as_str()), Some("wenz"));
    assert!(g.has_trumps(), "the Jacks are trumps without a trump suit");
    assert_eq!(
        trumps_high_to_low(&g),
        ["clubs-jack", "spades-jack", "hearts-jack", "diamonds-jack"]
    );
    // The Queen of Clubs is a Club under the Ace and Ten; the Jack of Diamonds trumps the Ace.
    assert_eq!(
        winner(&g, &["clubs-queen", "clubs-ace", "clubs-ten", "clubs-king"]),
        "clubs-ace"
    );
    assert_eq!(
        winner(
            &g,
            &["clubs-ace", "diamonds-jack", "clubs-queen", "clubs-ten"]
        ),
        "diamonds-jack"
    );
    // Seat 1 leads the King of Hearts; seat 2 holds no Heart: any card.
    act(&mut g, "hearts-king");
    assert_eq!(g.playable(2), g.hand(2));
    act(&mut g, "clubs-ten");
    // Seat 3 holds the Nine of Hearts and the Jack of Hearts (a trump): only the Nine.
    assert_eq!(ids(&r, g.playable(3)), ["hearts-nine"]);
}

/// The Null: no trumps, and Ace, King, Queen, Jack, Ten, Nine in every suit (the Ten below the
/// Jack, as in Skat's Null: pagat.com/schafkopf/skat.html).
#[test]
fn the_null_has_no_trumps_and_its_own_order() {
    let r = load("tests/rulesets/queens-and-jacks.toml");
    let mut g = deal4(&r, &SCHAFKOPF);
    for m in ["bid 4", "pass", "pass", "pass"] {
        act(&mut g, m);
    }
    assert_eq!(g.contract().map(|c| c.id.as_str()), Some("null"));
    assert!(!g.has_trumps());
    assert_eq!(
        winner(&g, &["clubs-ten", "clubs-jack", "clubs-nine", "clubs-king"]),
        "clubs-king"
    );
    assert_eq!(
        winner(&g, &["clubs-ten", "clubs-jack", "clubs-nine", "hearts-ace"]),
        "clubs-jack"
    );
    // The Jacks are cards of their suits: a Spade led, seat 2 must play its Jack of Spades.
    act(&mut g, "spades-ace");
    assert_eq!(ids(&r, g.playable(2)), ["spades-jack"]);
}

/// A Solo: the suit the declarer names joins the Queens and Jacks.
#[test]
fn the_solo_trumps_the_named_suit() {
    let r = load("tests/rulesets/queens-and-jacks.toml");
    let mut g = deal4(&r, &SCHAFKOPF);
    for m in ["bid 3", "pass", "pass", "pass", "trump spades"] {
        act(&mut g, m);
    }
    let top: Vec<String> = trumps_high_to_low(&g);
    assert_eq!(top.len(), 12);
    assert_eq!(
        &top[8..],
        ["spades-ace", "spades-ten", "spades-king", "spades-nine"]
    );
    assert_eq!(
        winner(
            &g,
            &["hearts-ace", "hearts-ten", "spades-nine", "hearts-king"]
        ),
        "spades-nine"
    );
}

/// The deal of the bowers: seat 1 holds the Jack of Diamonds, seat 2 the Jack of Hearts.
const EUCHRE: [[&str; 6]; 4] = [
    [
        "hearts-ace",
        "hearts-nine",
        "clubs-ace",
        "clubs-nine",
        "spades-nine",
        "spades-king",
    ],
    [
        "diamonds-jack",
        "diamonds-ace",
        "diamonds-nine",
        "clubs-king",
        "spades-ace",
        "spades-queen",
    ],
    [
        "hearts-jack",
        "hearts-king",
        "diamonds-king",
        "clubs-ten",
        "clubs-queen",
        "spades-ten",
    ],
    [
        "hearts-queen",
        "hearts-ten",
        "diamonds-queen",
        "diamonds-ten",
        "clubs-jack",
        "spades-jack",
    ],
];

/// Hearts named: the Jack of Hearts (right bower), the Jack of Diamonds (left bower), then the
/// Hearts Ace, King, Queen, Ten, Nine; the left bower follows as a trump, not as a Diamond.
#[test]
fn the_left_bower_joins_the_trumps_for_following_and_winning() {
    let r = load("tests/rulesets/left-bower.toml");
    let mut g = deal4(&r, &EUCHRE);
    for m in ["bid 1", "pass", "pass", "pass", "trump hearts"] {
        act(&mut g, m);
    }
    assert_eq!(
        trumps_high_to_low(&g),
        [
            "hearts-jack",
            "diamonds-jack",
            "hearts-ace",
            "hearts-king",
            "hearts-queen",
            "hearts-ten",
            "hearts-nine",
        ]
    );
    assert_eq!(
        winner(
            &g,
            &["hearts-ace", "diamonds-jack", "hearts-king", "hearts-ten"]
        ),
        "diamonds-jack"
    );
    assert_eq!(
        winner(
            &g,
            &["diamonds-jack", "hearts-jack", "hearts-ace", "diamonds-ace"]
        ),
        "hearts-jack"
    );
    // A Diamond led: the Jack of Diamonds does not win it as a Diamond, it trumps it.
    assert_eq!(
        winner(
            &g,
            &[
                "diamonds-ace",
                "diamonds-king",
                "diamonds-jack",
                "diamonds-ten"
            ]
        ),
        "diamonds-jack"
    );
    // The other Jacks keep their suits, ranked between the Queen and the Ten.
    assert_eq!(
        winner(
            &g,
            &["clubs-ten", "clubs-jack", "clubs-nine", "clubs-queen"]
        ),
        "clubs-queen"
    );
    // Seat 1 (forehand, the declarer) leads the Ace of Diamonds: seat 2 must play its King of
    // Diamonds.
    assert_eq!(g.to_act(), Some(1));
    act(&mut g, "diamonds-ace");
    assert_eq!(ids(&r, g.playable(2)), ["diamonds-king"]);
}

/// A trump led: the left bower must follow it, and may not be played as a Diamond.
#[test]
fn the_left_bower_must_follow_a_trump_lead() {
    let r = load("tests/rulesets/left-bower.toml");
    let mut g = deal4(&r, &EUCHRE);
    for m in ["bid 1", "pass", "pass", "pass", "trump hearts"] {
        act(&mut g, m);
    }
    // Seat 1 leads the left bower, a trump: seat 2 must follow with a trump (the right bower
    // or the King of Hearts), seat 3 with a Heart, not a Diamond.
    act(&mut g, "diamonds-jack");
    assert_eq!(ids(&r, g.playable(2)), ["hearts-king", "hearts-jack"]);
    act(&mut g, "hearts-king");
    assert_eq!(ids(&r, g.playable(3)), ["hearts-ten", "hearts-queen"]);
    let refused = g
        .apply(Action::Play {
            card: card(&r, "diamonds-queen"),
        })
        .unwrap_err();
    assert!(
        refused.to_string().contains("follow trumps with a trump"),
        "{refused}"
    );
    act(&mut g, "hearts-ten");
    act(&mut g, "hearts-ace");
    // The left bower took the trick: seat 1 leads again.
    assert_eq!(g.to_act(), Some(1));
    // Seat 1 leads the Ace of Diamonds; seat 3 must follow with a Diamond.
    act(&mut g, "diamonds-ace");
    act(&mut g, "diamonds-king");
    assert_eq!(ids(&r, g.playable(3)), ["diamonds-ten", "diamonds-queen"]);
}

/// Clubs named: the Jack of Spades becomes the left bower and the Jack of Diamonds is a
/// Diamond again: the bower is the partner of the suit named, whichever it is.
#[test]
fn the_left_bower_follows_the_suit_named() {
    let r = load("tests/rulesets/left-bower.toml");
    let mut g = deal4(&r, &EUCHRE);
    for m in ["bid 1", "pass", "pass", "pass", "trump clubs"] {
        act(&mut g, m);
    }
    assert_eq!(
        &trumps_high_to_low(&g)[..3],
        ["clubs-jack", "spades-jack", "clubs-ace"]
    );
    act(&mut g, "diamonds-ace");
    // Seat 2 must play its King of Diamonds; the Jack of Diamonds is a Diamond again.
    assert_eq!(ids(&r, g.playable(2)), ["diamonds-king"]);
    assert_eq!(
        winner(
            &g,
            &[
                "diamonds-ace",
                "diamonds-jack",
                "spades-jack",
                "diamonds-ten"
            ]
        ),
        "spades-jack"
    );
}

/// Random play of both rulesets keeps every card and ends every hand: each trick's cards are
/// the seats' and each play obeys the follow rules (the game refuses any other).
#[test]
fn random_games_keep_every_card() {
    for path in [
        "tests/rulesets/queens-and-jacks.toml",
        "tests/rulesets/left-bower.toml",
    ] {
        let r = load(path);
        for seed in 1..=40u64 {
            let mut g = start(
                Arc::clone(&r),
                StartOptions {
                    seed,
                    rounds: Some(2),
                    ..StartOptions::default()
                },
            )
            .unwrap();
            let mut rng = agent_rng(seed);
            let mut moves = 0;
            while let Some(seat) = g.to_act() {
                let legal = g.legal();
                if let Some(Action::Play { .. }) = legal.first()
                    && g.phase() == Phase::Follow
                {
                    let playable = g.playable(seat);
                    assert!(!playable.is_empty() && (playable - g.hand(seat)).is_empty());
                }
                let a = RandomAgent.choose(&g, seat, &legal, &mut rng);
                g.apply(a).unwrap();
                moves += 1;
                assert!(moves < 1000, "{path}: the game ends");
            }
            let history = g.history();
            assert!(!history.is_empty(), "{path} seed {seed}");
        }
    }
}

/// A whole hand of each contract on the worked deal, greedy players: the tricks with their
/// winners, so that a change in how cards take tricks shows here.
#[test]
fn whole_hands_of_each_contract() {
    use crate::agent::GreedyAgent;
    use crate::core::Event;
    use std::fmt::Write as _;
    let r = load("tests/rulesets/queens-and-jacks.toml");
    let mut out = String::new();
    for (bid, name) in [(1, "game"), (2, "wenz"), (3, "solo"), (4, "null")] {
        let mut g = deal4(&r, &SCHAFKOPF);
        act(&mut g, &format!("bid {bid}"));
        for _ in 0..3 {
            act(&mut g, "pass");
        }
        let mut rng = agent_rng(1);
        while let Some(seat) = g.to_act() {
            let legal = g.legal();
            let a = GreedyAgent.choose(&g, seat, &legal, &mut rng);
            g.apply(a).unwrap();
        }
        let _ = writeln!(out, "# {name} (trump suit {})", g.trump_suit());
        for e in g.drain_events() {
            match e {
                Event::TrickWon { player, cards } => {
                    let cards: Vec<&str> = cards.iter().map(|&c| r.deck.id_of(c)).collect();
                    let _ = writeln!(out, "  seat {player} takes [{}]", cards.join(", "));
                }
                Event::HandEnded { end, points, .. } => {
                    let _ = writeln!(out, "hand ends: {}, game points {points:?}", end.0);
                }
                _ => {}
            }
        }
    }
    insta::assert_snapshot!(out);
}
