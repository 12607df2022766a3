//! Hands the seats arrange (`[flow.arrange]`, Pai Gow's high and low hands): the legal
//! arrangements of a dealt hand, the banker's by the house way, and the settlement of each
//! hand against the banker's of the same name.
//!
//! An arrangement is named by its first hand's cards (the rest make the second), so a move is
//! `PlaySet` of those cards. Hands compare as at any per-seat showdown
//! ([`against_banker`]: by `[[flow.hand_rank]]`, else by `value`), which also orders a seat's
//! two hands.

use super::analysis::combinations;
use super::ranking::against_banker;
use crate::deck::CardSet;
use crate::expr::Context;
use crate::ruleset::{Arrange, BankerFlow};
use std::cmp::Ordering;

/// The hand `i` of the arrangement of `dealt` whose first hand is `first`.
pub fn hand_of(first: CardSet, dealt: CardSet, i: usize) -> CardSet {
    if i == 0 { first } else { dealt - first }
}

/// The first hands a seat may make of `dealt`, in card order: every set of the first hand's
/// size whose hand ranks at least as high as the rest (above it, with `order = "above"`); every
/// set when none does, so a seat always has a move.
pub fn arrangements(flow: &BankerFlow, arrange: &Arrange, dealt: CardSet) -> Vec<CardSet> {
    let mut all = Vec::new();
    combinations(dealt, arrange.hands[0].cards, |s| all.push(s));
    let legal: Vec<CardSet> = all
        .iter()
        .copied()
        .filter(|&s| {
            let o = against_banker(flow, s, dealt - s);
            if arrange.strictly_above {
                o == Ordering::Greater
            } else {
                o != Ordering::Less
            }
        })
        .collect();
    if legal.is_empty() { all } else { legal }
}

/// The banker's arrangement of `dealt` by the house way: the first rule whose `when` holds on
/// the cards dealt names the hand to make strongest (without one, the first hand); among the
/// legal arrangements (those whose other hand meets the rule's `keep`, when any does), the one whose named hand is best, the other hand breaking ties, then the
/// earliest. Greedy bots arrange their own hands the same way.
pub fn house_way(flow: &BankerFlow, arrange: &Arrange, dealt: CardSet) -> CardSet {
    let points = dealt.iter().map(|c| flow.card_points[c.index()]).sum();
    let facts = [points, i64::from(dealt.len())];
    let cx = Context {
        pile: dealt,
        facts: &facts,
    };
    let rule = arrange
        .house_way
        .iter()
        .find(|w| w.when.as_ref().is_none_or(|p| p.truth(&cx)));
    let first = rule.map_or(0, |w| w.maximise);
    let order = [first, 1 - first];
    let mut options = arrangements(flow, arrange, dealt);
    // `keep`: the other hand meets the rule's condition, when some arrangement lets it.
    if let Some(keep) = rule.and_then(|w| w.keep.as_ref()) {
        let kept: Vec<CardSet> = options
            .iter()
            .copied()
            .filter(|&o| {
                let other = hand_of(o, dealt, 1 - first);
                let points = other.iter().map(|c| flow.card_points[c.index()]).sum();
                let facts = [points, i64::from(other.len())];
                keep.truth(&Context {
                    pile: other,
                    facts: &facts,
                })
            })
            .collect();
        if !kept.is_empty() {
            options = kept;
        }
    }
    let mut best = options[0];
    for &o in &options[1..] {
        let better = order
            .iter()
            .map(|&i| against_banker(flow, hand_of(o, dealt, i), hand_of(best, dealt, i)))
            .find(|&c| c != Ordering::Equal);
        if better == Some(Ordering::Greater) {
            best = o;
        }
    }
    best
}

/// Each of a player's arranged hands against the banker's of the same name (`Greater`: the
/// player's wins); a copy is the banker's with `copies = "banker"`.
pub fn outcomes(
    flow: &BankerFlow,
    arrange: &Arrange,
    player: (CardSet, CardSet),
    banker: (CardSet, CardSet),
) -> Vec<Ordering> {
    (0..arrange.hands.len())
        .map(|i| {
            let o = against_banker(
                flow,
                hand_of(player.0, player.1, i),
                hand_of(banker.0, banker.1, i),
            );
            if o == Ordering::Equal && arrange.copies_to_banker {
                Ordering::Less
            } else {
                o
            }
        })
        .collect()
}

/// What a bet of `bet` brings on `outcomes`: winning every hand pays `pays`, losing every hand
/// loses the bet, anything else is a push.
pub fn settle(arrange: &Arrange, outcomes: &[Ordering], bet: i64) -> i64 {
    use crate::ruleset::PayResult;
    if outcomes.iter().all(|&o| o == Ordering::Greater) {
        PayResult::Win.chips(arrange.pays, bet)
    } else if outcomes.iter().all(|&o| o == Ordering::Less) {
        -bet
    } else {
        0
    }
}

/// The move of a seat that arranges by the house way (the greedy and strategy bots), when the
/// seat is arranging: its house-way arrangement, or the first legal one.
pub fn house_way_move(
    view: &super::BankerView,
    legal: &[crate::core::Action],
) -> Option<crate::core::Action> {
    let flow = view.ruleset.banker()?;
    let arrange = flow.arrange.as_ref()?;
    if !matches!(view.phase, super::BankerPhase::Arrange { .. }) {
        return None;
    }
    let wanted = crate::core::Action::PlaySet {
        cards: house_way(flow, arrange, view.tiles),
    };
    Some(if legal.contains(&wanted) {
        wanted
    } else {
        *legal.first()?
    })
}
