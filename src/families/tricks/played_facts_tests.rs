//! The scoring script's `tricks_played` and `trump_suit` (Issue 42, wall 10): each trick as it
//! was played (leader, winner, cards and who played them, card points) and the hand's trumps,
//! on the test ruleset tests/rulesets/spades-fixed.toml with a script that reads them.

use super::*;
use crate::agent::{Agent, RandomAgent, agent_rng};
use crate::core::StartOptions;
use crate::ruleset;
use std::sync::Arc;

/// spades-fixed with a script that scores each seat a point a trick it won by `tricks_played`,
/// 5 for taking the Ace of Spades from another seat, and throws where the list disagrees with
/// itself (a trick's seats from its leader round the table, 13 tricks, 26 card points) or the
/// trumps are not spades.
fn ruleset() -> Arc<crate::ruleset::Ruleset> {
    let text = std::fs::read_to_string("tests/rulesets/spades-fixed.toml").unwrap();
    let at = text.find("[scoring]").unwrap();
    let script = r#"[scoring]
source = """
fn score(hand) {
    // `yaku validate`'s sample hands list no tricks.
    let played = hand.tricks_played.len() > 0;
    if played && hand.trump_suit != "spades" { throw "trumps: " + hand.trump_suit; }
    let seats = [0, 0, 0, 0];
    let points = 0;
    for t in hand.tricks_played {
        if t.cards.len() != 4 || t.seats[0] != t.leader { throw "a trick's seats"; }
        if t.seats[1] != (t.leader + 1) % 4 { throw "turn order"; }
        seats[t.winner] += 1;
        points += t.points;
        for i in 0..4 {
            if t.cards[i] == "spades-ace" && t.seats[i] != t.winner { seats[t.winner] += 5; }
        }
    }
    if played && (hand.tricks_played.len() != 13 || points != 26) { throw "the hand's tricks"; }
    let steps = [];
    for s in 0..4 { steps.push(#{ reason: `seat ${s + 1}`, total: seats[s] }); }
    #{ seats: seats, steps: steps }
}
"""
"#;
    let text = format!("{}{script}", &text[..at]);
    let loaded = ruleset::load_str("played.toml", &text);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

#[test]
fn the_script_reads_each_trick_as_played_and_the_trumps() {
    let r = ruleset();
    let spade_ace = r.deck.card_by_id("spades-ace").unwrap();
    for seed in 1..=8u64 {
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
        let mut legal = Vec::new();
        let mut ace_by = None;
        while let Some(seat) = g.to_act() {
            g.legal_actions(&mut legal);
            let a = RandomAgent.choose(&g, seat, &legal, &mut rng);
            g.apply(a).unwrap();
            for e in g.drain_events() {
                if let crate::core::Event::Played { player, card, .. } = e
                    && card == spade_ace
                {
                    ace_by = Some(player);
                }
            }
        }
        let points = &g.history()[0].points;
        for s in 0..4 {
            // A trick is four cards: a seat's tricks by the list are its captured cards over 4,
            // and 5 more to the seat that took the Ace of Spades from another.
            let ace = g.won(s).contains(spade_ace) && ace_by != Some(s);
            let expected = i64::from(g.won(s).len() / 4) + if ace { 5 } else { 0 };
            assert_eq!(points[s], expected, "seed {seed} seat {s}: {points:?}");
        }
    }
}

/// The log is kept only where the script reads it: the bundled Hearts script does not.
#[test]
fn the_tricks_are_kept_only_for_a_script_that_reads_them() {
    let hearts = Arc::new(ruleset::load("hearts").value.unwrap());
    let g = start(hearts, StartOptions::default()).unwrap();
    assert!(g.trick_log.is_none());
    let g = start(ruleset(), StartOptions::default()).unwrap();
    assert!(g.trick_log.is_some());
}
