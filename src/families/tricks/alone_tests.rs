//! A seat that sits out (Issue 42, wall 5), on the test ruleset tests/rulesets/alone.toml:
//! Euchre's going alone and Five Hundred's misère played alone, the declarer's partner laying
//! its cards down unplayed (pagat.com, as the ruleset cites).

use super::test_support::*;
use super::*;
use crate::agent::{Agent, GreedyAgent, RandomAgent, agent_rng};
use crate::core::{Event, StartOptions};
use crate::deck::CardSet;
use std::sync::Arc;

const ALONE: &str = "tests/rulesets/alone.toml";

/// Seat 1 (forehand) holds both red Jacks and the top hearts; seat 3, its partner, the black
/// suits' high cards.
const DEAL: [&[&str]; 4] = [
    &[
        "clubs-ten",
        "clubs-nine",
        "spades-ten",
        "spades-nine",
        "diamonds-ten",
        "diamonds-nine",
    ],
    &[
        "hearts-jack",
        "diamonds-jack",
        "hearts-ace",
        "hearts-king",
        "hearts-queen",
        "clubs-ace",
    ],
    &[
        "hearts-ten",
        "hearts-nine",
        "clubs-king",
        "clubs-queen",
        "spades-ace",
        "diamonds-ace",
    ],
    &[
        "spades-king",
        "spades-queen",
        "spades-jack",
        "diamonds-king",
        "diamonds-queen",
        "clubs-jack",
    ],
];

/// The move log of a hand played to its end by greedy bots, tricks and score.
fn played_out(g: &mut TricksGame) -> String {
    use std::fmt::Write as _;
    let r = Arc::clone(g.ruleset());
    let mut rng = agent_rng(1);
    while let Some(seat) = g.to_act() {
        assert_eq!(
            g.sitting_out() >> seat & 1,
            0,
            "a seat that sits out never plays"
        );
        let legal = g.legal();
        let a = GreedyAgent.choose(g, seat, &legal, &mut rng);
        g.apply(a).unwrap();
    }
    let mut out = String::new();
    for e in g.drain_events() {
        match e {
            Event::SatOut { player } => {
                let _ = writeln!(out, "seat {player} sits out");
            }
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
    out
}

/// pagat.com/euchre/euchre.html, going alone: the partner's cards are laid down and take no
/// part; each trick has three cards. Seat 1 goes alone in hearts with both bowers and the Ace,
/// King and Queen: it takes all six tricks, worth 4 to its side; seat 3 keeps its six cards.
#[test]
fn a_lone_hand_is_played_by_three() {
    let r = load(ALONE);
    let mut g = deal4(&r, &DEAL);
    for m in ["bid 2", "pass", "pass", "pass", "trump hearts"] {
        act(&mut g, m);
    }
    assert_eq!(g.sitting_out(), 1 << 3, "the declarer's partner sits out");
    assert_eq!(g.to_act(), Some(1), "forehand leads");
    act(&mut g, "hearts-jack");
    act(&mut g, "hearts-nine");
    assert_eq!(
        g.to_act(),
        Some(0),
        "the turn passes over the seat sitting out"
    );
    act(&mut g, "clubs-nine");
    assert_eq!(g.tricks(1), 1, "three cards make the trick");
    assert_eq!(g.to_act(), Some(1));
    let log = played_out(&mut g);
    assert_eq!(g.hand(3).len(), 6, "the partner's cards stay laid down");
    assert_eq!(
        (0..4).fold(CardSet::EMPTY, |a, s| a | g.won(s) | g.hand(s)),
        r.deck.all(),
        "every card is won or laid down"
    );
    insta::assert_snapshot!(log, @r"
    seat 3 sits out
      seat 1 takes [hearts-jack, hearts-nine, clubs-nine]
      seat 1 takes [hearts-ace, hearts-ten, diamonds-nine]
      seat 1 takes [clubs-ace, clubs-queen, clubs-ten]
      seat 1 takes [hearts-king, clubs-king, spades-nine]
      seat 1 takes [hearts-queen, diamonds-ace, diamonds-ten]
      seat 1 takes [diamonds-jack, spades-ace, spades-ten]
    hand ends: made, game points [-4, 4, -4, 4]
    ");
}

/// pagat.com/euchre/500.html, misère: played alone without trumps, the bidder must take no
/// trick. Seat 2 bids it with Tens and Nines of hearts; its partner, seat 0, sits out; the hand
/// ends, set, at the first trick seat 2 takes.
#[test]
fn a_misere_played_alone_is_set_at_its_first_trick() {
    let r = load(ALONE);
    let mut g = deal4(&r, &DEAL);
    for m in ["pass", "bid 3", "pass", "pass"] {
        act(&mut g, m);
    }
    assert_eq!(
        g.sitting_out(),
        1,
        "seat 0, the declarer's partner, sits out"
    );
    assert!(g.trick_order().trumps.is_empty(), "no trumps");
    // Seat 1 leads; seat 2 must follow hearts and its Ten beats nothing: the Ace wins.
    act(&mut g, "hearts-ace");
    act(&mut g, "hearts-ten");
    act(&mut g, "spades-king");
    assert_eq!(g.tricks(1), 1);
    // Seat 1 leads the Ace of Clubs; seat 2 must play a club; seat 3 plays its Jack.
    act(&mut g, "clubs-ace");
    act(&mut g, "clubs-king");
    act(&mut g, "clubs-jack");
    // Seat 1 leads the Queen of Hearts; seat 2's Nine is under it.
    act(&mut g, "hearts-queen");
    act(&mut g, "hearts-nine");
    act(&mut g, "spades-queen");
    // Seat 1 leads the Jack of Diamonds: seat 2 must play its Ace, and takes the trick.
    act(&mut g, "diamonds-jack");
    act(&mut g, "diamonds-ace");
    act(&mut g, "diamonds-king");
    assert_eq!(g.to_act(), None, "the misère is set at once");
    let ended = g
        .drain_events()
        .into_iter()
        .find_map(|e| match e {
            Event::HandEnded { end, points, .. } => Some((end.0, points)),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        ended,
        ("set", vec![-2, 2, -2, 2]),
        "the defenders, seats 1 and 3, score 2"
    );
}

/// Random hands keep every card (won, or laid down by a seat that sits out), a seat that sits
/// out never acts, every trick has one card for each seat in play, and the script's
/// `tricks_played` names only the seats in play.
#[test]
fn random_hands_leave_the_seat_that_sits_out_alone() {
    let r = load(ALONE);
    let mut alone = 0;
    for seed in 1..=150u64 {
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                rounds: Some(1),
                log_events: true,
                ..StartOptions::default()
            },
        )
        .unwrap();
        let mut rng = agent_rng(seed);
        let mut moves = 0;
        while let Some(seat) = g.to_act() {
            assert_eq!(g.sitting_out() >> seat & 1, 0, "seed {seed}");
            let legal = g.legal();
            let a = RandomAgent.choose(&g, seat, &legal, &mut rng);
            g.apply(a).unwrap();
            moves += 1;
            assert!(moves < 500, "seed {seed}: the hand ends");
        }
        let out = g.sitting_out();
        alone += usize::from(out != 0);
        let size = 4 - out.count_ones() as usize;
        for e in g.drain_events() {
            if let Event::TrickWon { cards, .. } = e {
                assert_eq!(cards.len(), size, "seed {seed}: a trick of {size}");
            }
        }
        let held = (0..4).fold(CardSet::EMPTY, |a, s| a | g.won(s) | g.hand(s));
        assert_eq!(held, r.deck.all(), "seed {seed}: every card is somewhere");
        for s in (0..4).filter(|s| out >> s & 1 != 0) {
            assert_eq!(g.hand(s).len(), 6, "seed {seed}: seat {s} kept its cards");
        }
    }
    assert!(
        alone > 10,
        "contracts played alone come up ({alone} of 150)"
    );
}

/// A contract played alone needs partners, every card dealt, and no called partner; each is
/// refused where `alone` is written.
#[test]
fn alone_is_refused_where_it_cannot_apply() {
    let with = |flow: &str| {
        errors_of(&format!(
            "[ruleset]\nid = \"bad\"\nextends = \"pinochle\"\n[flow]\n{flow}\n[[flow.auction.contract]]\nid = \"lone\"\nbid = 405\nalone = true\n"
        ))
    };
    insta::assert_snapshot!(
        with("deal = \"stock\"\ndeal_packets = [5]"),
        @"bad.toml:10:9 contract `lone`: `alone` needs every card dealt (`deal = \"all\"`): a seat that sits out draws no card"
    );
    insta::assert_snapshot!(
        with("unset = [\"teams\"]"),
        @"bad.toml:9:9 contract `lone`: `alone` needs partnerships (`[flow] teams`): the declarer's partners sit out"
    );
    insta::assert_snapshot!(
        with("[flow.auction]\nsides = \"declarer-alone\""),
        @"bad.toml:10:9 contract `lone`: with `sides = \"declarer-alone\"` every declarer plays alone already: no partner sits out"
    );
}
