//! A score that reads the hand as dealt (Issue 42, wall 10): `dealt_hands` and `dealt_talon`, on
//! tests/rulesets/laufende.toml (Schafkopf's runners, counted over the side's dealt cards,
//! pagat.com as the ruleset cites).

use super::test_support::*;
use crate::agent::{Agent, GreedyAgent, agent_rng};
use crate::core::Game;
use rand::SeedableRng;

/// Seat 1 holds the Queens of Clubs and Spades; seat 2, whose Ace of Clubs seat 1 calls, the
/// Queen of Hearts; seat 3 the Queen of Diamonds: the declarer's side holds the top three
/// trumps, three runners "with".
const DEAL: [[&str; 6]; 4] = [
    [
        "hearts-jack",
        "diamonds-jack",
        "hearts-king",
        "hearts-nine",
        "clubs-king",
        "diamonds-ten",
    ],
    [
        "clubs-queen",
        "spades-queen",
        "clubs-jack",
        "hearts-ace",
        "clubs-nine",
        "spades-king",
    ],
    [
        "clubs-ace",
        "clubs-ten",
        "hearts-ten",
        "hearts-queen",
        "diamonds-nine",
        "diamonds-king",
    ],
    [
        "spades-jack",
        "diamonds-queen",
        "spades-ace",
        "spades-ten",
        "diamonds-ace",
        "spades-nine",
    ],
];

/// The runners count over the side's cards as dealt, whoever won them in play: the declarer's
/// side held the Queens of Clubs, Spades and Hearts, so its tariff of 1 rises by 3.
#[test]
fn runners_count_the_sides_dealt_cards() {
    let r = load("tests/rulesets/laufende.toml");
    let mut g = deal4(&r, &DEAL);
    for m in ["bid 1", "pass", "pass", "pass", "call clubs-ace"] {
        act(&mut g, m);
    }
    let mut rng = agent_rng(1);
    while let Some(seat) = g.to_act() {
        let legal = g.legal();
        let a = GreedyAgent.choose(&g, seat, &legal, &mut rng);
        g.apply(a).unwrap();
    }
    let outcome = g.history()[0].outcome.clone().expect("the hand is scored");
    let steps: Vec<String> = outcome
        .steps
        .iter()
        .map(|s| format!("{}: {}", s.reason, s.total))
        .collect();
    insta::assert_snapshot!(
        format!("{steps:?} {:?}", outcome.seats),
        @r#"["made: 1", "with 3 runners: 4"] [-4, 4, 4, -4]"#
    );
}

/// A search's imagined deal gives the scoring script dealt hands of the world's own cards (what
/// each other seat holds and has played there), never the real deal's hidden cards.
#[test]
fn an_imagined_deal_never_shows_the_real_dealt_hands() {
    let r = load("tests/rulesets/laufende.toml");
    let mut g = deal4(&r, &DEAL);
    for m in [
        "bid 1",
        "pass",
        "pass",
        "pass",
        "call clubs-ace",
        "clubs-nine",
    ] {
        act(&mut g, m);
    }
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(7);
    for _ in 0..20 {
        let world = g.determinized(1, &mut rng);
        let dealt = world
            .dealt
            .as_deref()
            .expect("the script reads the dealt hands");
        let real = g.dealt.as_deref().unwrap();
        assert_eq!(dealt.hands[1], real.hands[1], "the viewer knows its own");
        // Only seat 1 has played (the Nine of Clubs): the others' dealt hands are their
        // world hands.
        for s in [0, 2, 3] {
            assert_eq!(dealt.hands[s], world.hand(s));
        }
    }
}
