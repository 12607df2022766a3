//! The per-seat showdown by `[[flow.hand_rank]]` (issue 47, fault 1: with ranks declared, each
//! player's hand was compared with the banker's by raw value, so a bust 28 beat the banker's 19),
//! on `tests/rulesets/draw-to-17.toml`: both hands draw while below 17, over 21 busts and ranks
//! below every other hand, two busts are equal.

use super::tests::order;
use super::*;
use crate::core::{Action, StartOptions};
use crate::deck::CardId;
use crate::families::banker::analysis::seat_work::seat_work;
use crate::families::banker::analysis::{Rational, seats::seat_odds_with_progress};
use crate::ruleset::{self, Ruleset};
use std::fmt::Write as _;
use std::sync::Arc;

fn rules() -> Arc<Ruleset> {
    Arc::new(
        ruleset::load("tests/rulesets/draw-to-17.toml")
            .value
            .expect("the test ruleset loads"),
    )
}

/// One hand of one player betting 4, dealt from `ids`: the player's two cards, the banker's two,
/// then the cards the drawing rules take (the player's first).
fn hand(ids: &[&str]) -> String {
    let r = rules();
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            seats: Some(1),
            rounds: Some(1),
            deck_orders: vec![order(&r, ids)],
            ..StartOptions::default()
        },
    )
    .unwrap();
    g.apply(Action::Bet { amount: 4 }).unwrap();
    assert!(g.is_over(), "the drawing rules play the whole hand");
    let h = &g.hands_played()[0];
    let names = |ts: &[CardId]| {
        ts.iter()
            .map(|&t| r.deck.card(t).name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let p = &h.players[0];
    let mut s = String::new();
    let _ = writeln!(
        s,
        "banker {} = {:?} {:?}",
        names(&h.banker_tiles),
        h.banker_value,
        h.banker_hand
    );
    let _ = writeln!(
        s,
        "player {} = {:?} {:?}, bet {}: {:+}",
        names(&p.tiles),
        p.value,
        p.hand,
        p.bet,
        p.result
    );
    s
}

#[test]
fn a_bust_loses_to_the_bankers_19_whatever_its_total() {
    // The player's Ten and Six of Hearts, 16, draw the Queen: 26,
    // a bust. The banker's Ten and Nine of Clubs are 19 and stand. By value 26 would beat 19;
    // by rank the bust is last: the player loses the bet of 4.
    insta::assert_snapshot!(hand(&[
        "hearts-ten",
        "hearts-six",
        "clubs-ten",
        "clubs-nine",
        "hearts-queen",
    ]));
}

#[test]
fn a_standing_18_beats_a_banker_who_busts_and_two_busts_are_equal() {
    // The player's Ten and Eight stand on 18; the banker's Ten and Six draw the King: 26.
    insta::assert_snapshot!(hand(&[
        "hearts-ten",
        "hearts-eight",
        "clubs-ten",
        "clubs-six",
        "hearts-king",
    ]));
    // Both draw to a bust: the player's 16 takes the Queen (26), the banker's 15 the King (25).
    insta::assert_snapshot!(hand(&[
        "hearts-ten",
        "hearts-six",
        "clubs-ten",
        "clubs-five",
        "hearts-queen",
        "spades-king",
    ]));
}

#[test]
fn the_exact_analysis_ranks_the_showdown_too() {
    let r = rules();
    let flow = r.banker().unwrap();
    // The work is counted before it starts (issue 47, fault 2): every player's hand stood on is
    // one step of the progress, and the banker's hands played out stay within the count.
    let work = seat_work(&r, flow, u128::MAX);
    assert!(!work.more);
    let mut steps = 0;
    let odds = seat_odds_with_progress(&r, flow, &mut |n| steps += n).unwrap();
    assert_eq!(steps, work.player_hands);
    assert!(
        u128::from(odds.work) <= work.total(),
        "{work:?} {}",
        odds.work
    );
    let of = |ids: &[&str]| {
        let tiles = ids.iter().map(|i| r.deck.card_by_id(i).unwrap()).collect();
        odds.first
            .iter()
            .find(|o| o.tiles == tiles)
            .unwrap()
            .by_draw[0]
            .1
            .clone()
    };
    // A standing 20 beats every banker's bust as well as 17 to 19: well over half a chip a hand.
    // By value it would lose to every bust, and be worth less than nothing.
    assert!(of(&["hearts-ten", "spades-king"]) > Rational::new(1, 2));
    // Both hands play the same rule from the same pack and two busts are equal: the game is
    // fair.
    assert_eq!(odds.player, Rational::ZERO);
}
