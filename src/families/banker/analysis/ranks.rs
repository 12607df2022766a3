//! A pot game's hands by rank: the exact probability of each rank, with its `within` value, and
//! of each special hand, over every hand of the cards one seat is dealt.

use super::{Rational, combinations};
use crate::deck::CardSet;
use crate::families::banker::ranking::rank_hand;
use crate::ruleset::{BankerFlow, Ruleset};

/// One line of the table: a rank (`9-ttaeng`) or a special hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankRow {
    /// The hand's name.
    pub name: String,
    /// True for a special hand (counted besides its rank).
    pub special: bool,
    /// Hands that have it.
    pub count: u64,
    /// Their share of every hand.
    pub probability: Rational,
}

/// Every rank's probability.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankOdds {
    /// Cards in a hand.
    pub cards: u32,
    /// Hands of that many cards.
    pub total: u64,
    /// The ranks best first (each `within` value its own line, highest first), then the
    /// special hands.
    pub rows: Vec<RankRow>,
}

/// Counts every hand of the cards a pot game deals one seat.
pub fn rank_odds(ruleset: &Ruleset, flow: &BankerFlow) -> RankOdds {
    let cards: u32 = flow.pot.as_ref().map_or(2, |p| p.rounds.iter().sum());
    let deck = CardSet::first(ruleset.deck.cards.len());
    // (rank, within) -> count, and special -> count.
    let mut by_rank: Vec<((usize, i64), u64)> = Vec::new();
    let mut specials = vec![0u64; flow.specials.len()];
    let mut total = 0u64;
    combinations(deck, cards, |hand| {
        let h = rank_hand(flow, hand);
        total += 1;
        match by_rank.iter_mut().find(|(k, _)| *k == (h.rank, h.within)) {
            Some((_, n)) => *n += 1,
            None => by_rank.push(((h.rank, h.within), 1)),
        }
        if let Some(s) = h.special {
            specials[s] += 1;
        }
    });
    by_rank.sort_by(|a, b| a.0.0.cmp(&b.0.0).then(b.0.1.cmp(&a.0.1)));
    let share = |n: u64| Rational::new(n as i128, total.max(1) as i128);
    let mut rows: Vec<RankRow> = by_rank
        .into_iter()
        .map(|((rank, within), count)| RankRow {
            name: flow
                .ranks
                .get(rank)
                .map_or_else(|| "no rank".to_string(), |r| r.words(within)),
            special: false,
            count,
            probability: share(count),
        })
        .collect();
    for (s, &count) in specials.iter().enumerate() {
        rows.push(RankRow {
            name: flow.specials[s].name.clone(),
            special: true,
            count,
            probability: share(count),
        });
    }
    RankOdds { cards, total, rows }
}
