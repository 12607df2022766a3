//! Builds (`[flow.build]`, Cassino): piles a player makes on the table with a declared value,
//! owned by the player who built them last, captured whole and only by a card of their value.
//! What a played card may capture with builds on the table, and which builds it may make or
//! change, is found here for the game, the bots and the play screen alike.

use super::capture;
use crate::core::Seat;
use crate::deck::{CardId, CardSet};
use crate::ruleset::{BuildRaise, BuildRule, MatchingFlow};

/// The most builds offered for one card.
pub const MAX_BUILDS: usize = 64;

/// Sets looked at, at most, while the builds one card may make are found (a bound whatever the
/// table, as the capture searches have).
const MAX_VISITS: u32 = 1 << 14;

/// A build on the table: its cards (they stay on the table, taken only together), its value and
/// its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Build {
    /// The table cards it holds.
    pub cards: CardSet,
    /// The declared value: only a card of this value captures it.
    pub value: u8,
    /// The seat that built it last.
    pub owner: u8,
    /// It holds several sets of its value (a multiple build is never raised).
    pub multiple: bool,
}

/// A build a card played from the hand may make: laid on `cards` (loose table cards and whole
/// builds), the pile is worth `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BuildMove {
    /// The table cards the played card is laid on.
    pub cards: CardSet,
    /// The value declared.
    pub value: u8,
}

/// Every card held in builds.
#[inline]
pub fn in_builds(builds: &[Build]) -> CardSet {
    builds.iter().fold(CardSet::EMPTY, |all, b| all | b.cards)
}

/// The captures `card` may make from `table` with `builds` on it (into `out`, cleared first):
/// the capture rules' groups among the loose cards, and each build of the card's value as one
/// group, joined as `capture_groups` says. Without builds, [`capture::options`].
pub fn capture_options(
    flow: &MatchingFlow,
    table: CardSet,
    builds: &[Build],
    card: CardId,
    from_hand: bool,
    out: &mut Vec<CardSet>,
) {
    let Some(rule) = flow.build.as_ref().filter(|_| !builds.is_empty()) else {
        capture::options(flow, table, card, from_hand, out);
        return;
    };
    let v = rule.value(card);
    let mut taken_whole = [CardSet::EMPTY; 16];
    let mut n = 0;
    for b in builds {
        if i64::from(b.value) == v && n < taken_whole.len() {
            taken_whole[n] = b.cards;
            n += 1;
        }
    }
    capture::options_with(
        flow,
        table - in_builds(builds),
        &taken_whole[..n],
        card,
        from_hand,
        out,
    );
}

/// The builds `card`, played from `hand` (which held it) by `seat`, may make on `table` with
/// `builds` on it, into `out` (cleared first), by value, then by size and card order; none
/// without `[flow.build]`. A build's value is one the player holds another card of; the card is
/// laid on loose cards that make the value with it, or (`raise`) on a single build, and
/// (`multiple`) more sets of the value (loose cards, sums, builds of the value) may join.
pub fn build_options(
    flow: &MatchingFlow,
    table: CardSet,
    builds: &[Build],
    hand: CardSet,
    seat: Seat,
    card: CardId,
    out: &mut Vec<BuildMove>,
) {
    out.clear();
    let Some(rule) = flow.build.as_ref() else {
        return;
    };
    let vc = rule.value(card);
    if vc <= 0 || vc > rule.most || table.is_empty() {
        return;
    }
    let loose = table - in_builds(builds);
    // The values the player could take a build of: another card in hand.
    let mut values = 0u64;
    for h in (hand - CardSet::single(card)).iter() {
        let v = rule.value(h);
        if v >= vc && v <= rule.most && v < 64 {
            values |= 1 << v;
        }
    }
    let mut visits = 0u32;
    let mut mine = Vec::new();
    let mut groups = Vec::new();
    while values != 0 && out.len() < MAX_BUILDS {
        let target = i64::from(values.trailing_zeros());
        values &= values - 1;
        // The played card's own set: loose cards that make the value with it, itself alone, or
        // a single build it raises.
        mine.clear();
        if target == vc {
            mine.push(CardSet::EMPTY);
        } else {
            subsets(rule, loose, target - vc, &mut visits, &mut mine);
        }
        for b in builds {
            let may_raise = match rule.raise {
                BuildRaise::Never => false,
                BuildRaise::Others => usize::from(b.owner) != seat,
                BuildRaise::Any => true,
            };
            if may_raise && !b.multiple && i64::from(b.value) + vc == target {
                mine.push(b.cards);
            }
        }
        if mine.is_empty() {
            continue;
        }
        // The other sets of the value that may join (a multiple build).
        groups.clear();
        if rule.multiple {
            subsets(rule, loose, target, &mut visits, &mut groups);
            groups.extend(
                builds
                    .iter()
                    .filter(|b| i64::from(b.value) == target)
                    .map(|b| b.cards),
            );
        }
        for &own in &mine {
            if !own.is_empty() {
                push(out, own, target);
            }
            joined(&groups, 0, own, target, &mut visits, out);
        }
    }
    // One build of a value on the table (pagat): a build of a value some build has takes it in.
    out.retain(|m| {
        builds
            .iter()
            .all(|b| i64::from(b.value) != i64::from(m.value) || (b.cards & m.cards) == b.cards)
    });
    out.sort_by_key(|m| (m.value, m.cards.len(), m.cards.0));
}

/// Adds to `out` every union of `so_far` with groups from `from` on, disjoint from it and each
/// other (bounded by `visits`).
fn joined(
    groups: &[CardSet],
    from: usize,
    so_far: CardSet,
    value: i64,
    visits: &mut u32,
    out: &mut Vec<BuildMove>,
) {
    for (i, &g) in groups.iter().enumerate().skip(from) {
        *visits += 1;
        if *visits > MAX_VISITS || out.len() >= MAX_BUILDS {
            return;
        }
        if !(g & so_far).is_empty() {
            continue;
        }
        let with = so_far | g;
        push(out, with, value);
        joined(groups, i + 1, with, value, visits, out);
    }
}

fn push(out: &mut Vec<BuildMove>, cards: CardSet, value: i64) {
    let m = BuildMove {
        cards,
        value: value.clamp(0, 255) as u8,
    };
    if out.len() < MAX_BUILDS && !out.contains(&m) {
        out.push(m);
    }
}

/// The sets of one or more of `cards` whose values (each above zero) add up to `target`,
/// appended to `out` (bounded by `visits`).
fn subsets(
    rule: &BuildRule,
    cards: CardSet,
    target: i64,
    visits: &mut u32,
    out: &mut Vec<CardSet>,
) {
    let mut fits = CardSet::EMPTY;
    for c in cards.iter() {
        let v = rule.value(c);
        if v > 0 && v <= target {
            fits.insert(c);
        }
    }
    choose(rule, fits, target, 0, CardSet::EMPTY, visits, out);
}

fn choose(
    rule: &BuildRule,
    rest: CardSet,
    target: i64,
    sum: i64,
    set: CardSet,
    visits: &mut u32,
    out: &mut Vec<CardSet>,
) {
    let mut left = rest;
    while let Some(card) = left.first_card() {
        left.remove(card);
        let with_sum = sum + rule.value(card);
        *visits += 1;
        if with_sum > target || *visits > MAX_VISITS {
            continue;
        }
        let mut with = set;
        with.insert(card);
        if with_sum == target {
            if out.len() < capture::MAX_OPTIONS {
                out.push(with);
            }
        } else if !left.is_empty() {
            choose(rule, left, target, with_sum, with, visits, out);
        }
    }
}

/// How many sets of its value a pile of `cards` worth `value` holds (its values added up,
/// divided by the value): two or more is a multiple build.
pub fn sets_in(rule: &BuildRule, cards: CardSet, value: u8) -> i64 {
    let sum: i64 = cards.iter().map(|c| rule.value(c)).sum();
    sum / i64::from(value.max(1))
}

/// True when `seat`, playing `card` from `hand` in a move that takes or builds on `used`,
/// keeps a card of the value of each build it owns that the move leaves on the table (a
/// build binds its owner to take it: Cassino).
pub fn keeps_its_cards(
    rule: &BuildRule,
    builds: &[Build],
    hand: CardSet,
    seat: Seat,
    card: CardId,
    used: CardSet,
) -> bool {
    let rest = hand - CardSet::single(card);
    builds.iter().all(|b| {
        usize::from(b.owner) != seat
            || (b.cards & used) == b.cards
            || !rule.of_value(rest, b.value).is_empty()
    })
}

/// True when `seat` owns a build and may not lay a card on the table without capturing or
/// building (`[flow.build] owner_trails = false`).
#[inline]
pub fn bound(flow: &MatchingFlow, builds: &[Build], seat: Seat) -> bool {
    !builds.is_empty()
        && flow.build.as_ref().is_some_and(|r| !r.owner_trails)
        && builds.iter().any(|b| usize::from(b.owner) == seat)
}
