//! Hands compared by a ranking the ruleset defines (`[[flow.hand_rank]]`, `[[flow.special]]`):
//! named ranks best first, an order within a rank, and special hands that beat only certain
//! ranks above their own (or call for a redeal in a pot game).
//!
//! A hand's rank is the first `[[flow.hand_rank]]` whose `when` holds; two hands compare by rank,
//! then by `within` (higher better); a special hand also beats the ranks its `beats` names,
//! whatever their place. Among several hands (a pot's showdown) the best by rank and `within`
//! wins, unless a special hand beats the rank of that best hand: then the special hand wins.

use super::value::hand_value;
use crate::deck::CardSet;
use crate::expr::Context;
use crate::ruleset::BankerFlow;
use std::cmp::Ordering;

/// A hand placed in the ruleset's ranking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ranked {
    /// The rank's index in `ranks` (0 is the best); `ranks.len()` when no rank holds.
    pub rank: usize,
    /// The order within the rank (higher better).
    pub within: i64,
    /// The special hand it is, if any (an index in `specials`).
    pub special: Option<usize>,
}

/// The facts of [`crate::ruleset::scope::HAND`] for `pile`.
fn hand_facts(flow: &BankerFlow, pile: CardSet) -> [i64; 2] {
    let points = pile.iter().map(|c| flow.card_points[c.index()]).sum();
    [points, i64::from(pile.len())]
}

/// Where the hand `cx` reads (its pile and facts) stands in the ruleset's ranking: the first
/// rank whose condition holds, its `within` value, and the first special hand.
#[inline]
fn ranked(flow: &BankerFlow, cx: &Context) -> Ranked {
    let rank = flow
        .ranks
        .iter()
        .position(|r| r.when.truth(cx))
        .unwrap_or(flow.ranks.len());
    let within = match flow.ranks.get(rank).and_then(|r| r.within.as_ref()) {
        Some(w) => w.int(cx),
        None => 0,
    };
    let special = flow.specials.iter().position(|s| s.when.truth(cx));
    Ranked {
        rank,
        within,
        special,
    }
}

/// Where `pile` stands in the ruleset's ranking.
pub fn rank_hand(flow: &BankerFlow, pile: CardSet) -> Ranked {
    let facts = hand_facts(flow, pile);
    let cx = Context {
        pile,
        facts: &facts,
    };
    ranked(flow, &cx)
}

/// Where a hand that may hold a card twice (from a shoe of several packs) stands in the
/// ruleset's ranking: as [`rank_hand`], `hand_points` and `hand_cards` counting every copy.
pub fn rank_cards(flow: &BankerFlow, cards: &[crate::deck::CardId]) -> Ranked {
    let pile: CardSet = cards.iter().copied().collect();
    let points = cards.iter().map(|c| flow.card_points[c.index()]).sum();
    let facts = [points, cards.len() as i64];
    let cx = Context {
        pile,
        facts: &facts,
    };
    ranked(flow, &cx)
}

/// The ordinary order of two hands, by rank then `within` (`Greater`: `a` is better).
pub fn ordinary(a: &Ranked, b: &Ranked) -> Ordering {
    b.rank.cmp(&a.rank).then(a.within.cmp(&b.within))
}

/// True when `a`'s special hand beats `b`'s rank (and `b` ranks above `a`).
pub fn special_beats(flow: &BankerFlow, a: &Ranked, b: &Ranked) -> bool {
    a.special
        .is_some_and(|s| flow.specials[s].beats.contains(&b.rank) && b.rank < a.rank)
}

/// Two hands compared (`Greater`: `a` wins): a special hand beats the ranks it names, else the
/// ordinary order.
pub fn compare(flow: &BankerFlow, a: &Ranked, b: &Ranked) -> Ordering {
    match (special_beats(flow, a, b), special_beats(flow, b, a)) {
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => ordinary(a, b),
    }
}

/// A player's hand against the banker's at a per-seat showdown (`Greater`: the player wins): by
/// the ranks and special hands when the ruleset declares `[[flow.hand_rank]]`, else by `value`,
/// the higher winning. The game, the exact analysis and the bots that play from it all settle a
/// hand this way.
pub fn against_banker(flow: &BankerFlow, player: CardSet, banker: CardSet) -> Ordering {
    if flow.ranks.is_empty() {
        return hand_value(flow, player).cmp(&hand_value(flow, banker));
    }
    compare(flow, &rank_hand(flow, player), &rank_hand(flow, banker))
}

/// What a one-chip bet brings at a per-seat showdown that ends `ord` for the player, in
/// `flow.commission.1`-ths of a chip: a win less the commission (exact, not rounded to whole
/// chips as the table pays it), a loss the whole chip. Without a commission: 1, 0, -1.
pub fn worth(flow: &BankerFlow, ord: Ordering) -> i64 {
    let (cn, cd) = flow.commission;
    match ord {
        Ordering::Greater => cd - cn,
        Ordering::Equal => 0,
        Ordering::Less => -cd,
    }
}

/// The winners among `hands` (`(seat, hand)` in turn order): the best by rank and `within`
/// (several when equal), unless a special hand beats the rank of the best: then the best of
/// those special hands.
pub fn winners(flow: &BankerFlow, hands: &[(usize, Ranked)]) -> Vec<usize> {
    let best_of = |set: &[&(usize, Ranked)]| -> Vec<usize> {
        let Some(top) = set.iter().map(|(_, h)| *h).max_by(ordinary) else {
            return Vec::new();
        };
        set.iter()
            .filter(|(_, h)| ordinary(h, &top) == Ordering::Equal)
            .map(|(s, _)| *s)
            .collect()
    };
    let all: Vec<&(usize, Ranked)> = hands.iter().collect();
    let best = best_of(&all);
    let Some(top) = hands
        .iter()
        .find(|(s, _)| Some(s) == best.first())
        .map(|(_, h)| *h)
    else {
        return best;
    };
    let catchers: Vec<&(usize, Ranked)> = hands
        .iter()
        .filter(|(_, h)| special_beats(flow, h, &top))
        .collect();
    if catchers.is_empty() {
        best
    } else {
        best_of(&catchers)
    }
}

/// The special hand among `hands` that calls for a redeal, if any: one whose `redeal_below`
/// rank is above every other hand's rank (the first in turn order).
pub fn redeal(flow: &BankerFlow, hands: &[(usize, Ranked)]) -> Option<(usize, usize)> {
    hands.iter().find_map(|(seat, h)| {
        let s = h.special?;
        let below = flow.specials[s].redeal_below?;
        hands
            .iter()
            .filter(|(other, _)| other != seat)
            .all(|(_, o)| o.rank > below)
            .then_some((*seat, s))
    })
}

/// A hand in words: its rank's name (`9-ttaeng`), with its special hand's name first when it is
/// one (`Amhaeng-eosa (1 kkeut)`); `None` without ranks.
pub fn words(flow: &BankerFlow, h: &Ranked) -> Option<String> {
    if flow.ranks.is_empty() {
        return None;
    }
    let rank = match flow.ranks.get(h.rank) {
        Some(r) => r.words(h.within),
        None => "no rank".to_string(),
    };
    Some(match h.special {
        Some(s) => format!("{} ({rank})", flow.specials[s].name),
        None => rank,
    })
}
