//! Exact analysis of banker games: the expected result per hand of a betting-and-drawing strategy,
//! by enumerating every deal, as an exact fraction.
//!
//! A player's result depends only on their own tiles and the banker's; the other players' tiles
//! are a uniformly random subset of the rest, so they do not change the odds and the enumeration
//! covers (first tiles, banker tiles, extra tiles) alone, for any number of players.
//!
//! ```
//! use yaku::families::banker::analysis::combinations;
//! use yaku::deck::CardSet;
//! // Every way to take two of four cards.
//! let mut seen = 0;
//! combinations(CardSet::first(4), 2, |_| seen += 1);
//! assert_eq!(seen, 6);
//! ```

pub mod play;
pub mod ranks;
mod rational;
pub mod seat_work;
pub mod seats;
pub mod strategy;
pub mod table;

pub use rational::Rational;
pub use strategy::{BetChoice, Strategy, StrategyEntry};

use crate::deck::CardSet;
use crate::families::banker::ranking::{against_banker, worth};
use crate::families::banker::{banker_instant_win, hand_value};
use crate::ruleset::{BankerFlow, Ruleset};

/// The exact odds of one first hand: for each number of extra tiles, the expected result of a
/// one-chip bet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstHandOdds {
    /// The first tiles.
    pub tiles: CardSet,
    /// The suit of the first tile (strategies name tiles by suit).
    pub suit: Option<usize>,
    /// `(extra tiles, expected result of one chip)` for each draw option.
    pub by_draw: Vec<(u32, Rational)>,
}

impl FirstHandOdds {
    /// The draw option with the best expected result (the first one on ties).
    pub fn best(&self) -> (u32, Rational) {
        let mut best = &self.by_draw[0];
        for entry in &self.by_draw[1..] {
            if entry.1 > best.1 {
                best = entry;
            }
        }
        best.clone()
    }

    /// The expected result of one chip when taking `draw` more tiles.
    pub fn with_draw(&self, draw: u32) -> Option<Rational> {
        self.by_draw
            .iter()
            .find(|(d, _)| *d == draw)
            .map(|(_, r)| r.clone())
    }
}

/// Every combination of `k` cards from `from`, in increasing order.
pub fn combinations(from: CardSet, k: u32, mut visit: impl FnMut(CardSet)) {
    fn go(
        cards: &[crate::deck::CardId],
        k: u32,
        start: usize,
        acc: CardSet,
        visit: &mut impl FnMut(CardSet),
    ) {
        if k == 0 {
            visit(acc);
            return;
        }
        for i in start..cards.len() {
            if cards.len() - i < k as usize {
                break;
            }
            let mut next = acc;
            next.insert(cards[i]);
            go(cards, k - 1, i + 1, next, visit);
        }
    }
    let cards: Vec<_> = from.iter().collect();
    go(&cards, k, 0, CardSet::EMPTY, &mut visit);
}

/// `n` choose `k`, saturating at `u128::MAX`.
fn choose(n: usize, k: u32) -> u128 {
    let k = k as usize;
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    // Exact at every step: the product of `i + 1` consecutive numbers is divisible by `(i + 1)!`.
    (0..k).fold(1u128, |acc, i| {
        acc.checked_mul((n - i) as u128)
            .map_or(u128::MAX, |v| v / (i as u128 + 1))
    })
}

/// How many deals [`first_hand_odds`] goes through for a deck of `cards` cards: every first
/// hand, every banker hand from the rest, and for each draw option every set of extra tiles
/// from what is left. The work grows with this number, so callers can refuse an enumeration too
/// large to finish (Kol-ye-si's is 6,472,800; with four first tiles and four banker tiles,
/// 220,884,300,000).
pub fn deal_count(cards: usize, flow: &BankerFlow) -> u128 {
    let first = choose(cards, flow.first_tiles);
    let left = cards.saturating_sub((flow.first_tiles + flow.banker_tiles) as usize);
    let banker = choose(
        cards.saturating_sub(flow.first_tiles as usize),
        flow.banker_tiles,
    );
    let extras = flow
        .draw_options
        .iter()
        .fold(0u128, |sum, &d| sum.saturating_add(choose(left, d)));
    first.saturating_mul(banker).saturating_mul(extras)
}

/// The largest enumeration run without asking: well under a minute in a release build
/// (Kol-ye-si's 6,472,800 deals take about a tenth of a second). `yaku analyze --max-deals`
/// raises it; bots that play from the odds never go beyond it.
pub const DEFAULT_MAX_DEALS: u64 = 1_000_000_000;

/// The largest analysis of hands per seat run without asking, in banker's hands played out
/// ([`seat_work::SeatWork::total`]): a game that draws until 17 from a 52-card pack plays out
/// under 10,000,000 (seconds in a release build). `yaku analyze --max-deals` raises it; bots
/// that play from the odds never go beyond it.
pub const DEFAULT_MAX_HANDS_PLAYED: u64 = 100_000_000;

/// What the enumeration of [`deal_count`] goes through, in words: `4 first tiles and 4 for the
/// banker from 32 tiles, then draws of [1, 2]`.
pub fn enumeration_words(cards: usize, flow: &BankerFlow) -> String {
    let plural = |n: usize, noun: &str| {
        if n == 1 {
            format!("1 {noun}")
        } else {
            format!("{n} {noun}s")
        }
    };
    format!(
        "{} and {} for the banker from {}, then draws of {:?}",
        plural(flow.first_tiles as usize, "first tile"),
        flow.banker_tiles,
        plural(cards, "tile"),
        flow.draw_options
    )
}

/// The exact odds of every possible first hand, in deck order.
pub fn first_hand_odds(ruleset: &Ruleset, flow: &BankerFlow) -> Vec<FirstHandOdds> {
    first_hand_odds_with_progress(ruleset, flow, |_| {})
}

/// [`first_hand_odds`], calling `progress` with the number of deals done after each banker
/// hand; the numbers add up to [`deal_count`].
pub fn first_hand_odds_with_progress(
    ruleset: &Ruleset,
    flow: &BankerFlow,
    mut progress: impl FnMut(u64),
) -> Vec<FirstHandOdds> {
    let all = ruleset.deck.all();
    let left_after = all
        .len()
        .saturating_sub(flow.first_tiles + flow.banker_tiles) as usize;
    let per_banker_hand = flow.draw_options.iter().fold(0u64, |sum, &d| {
        sum.saturating_add(u64::try_from(choose(left_after, d)).unwrap_or(u64::MAX))
    });
    let mut out = Vec::new();
    combinations(all, flow.first_tiles, |first| {
        // sums[d] = Σ over banker hands (weighted to a common denominator) of the mean result.
        let rest = all - first;
        let mut banker_hands: u64 = 0;
        let mut totals: Vec<(u32, Rational)> = flow
            .draw_options
            .iter()
            .map(|&d| (d, Rational::ZERO))
            .collect();
        combinations(rest, flow.banker_tiles, |banker| {
            banker_hands += 1;
            let instant = banker_instant_win(flow, banker).is_some();
            let banker_value = hand_value(flow, banker);
            let left = rest - banker;
            for (d, total) in &mut totals {
                if instant {
                    *total -= Rational::ONE;
                    continue;
                }
                let (mut wins, mut count) = (0i64, 0i64);
                combinations(left, *d, |extra| {
                    count += 1;
                    let ord = if flow.ranks.is_empty() {
                        hand_value(flow, first | extra).cmp(&banker_value)
                    } else {
                        against_banker(flow, first | extra, banker)
                    };
                    wins += worth(flow, ord);
                });
                // `worth` counts in `commission.1`-ths of a chip.
                *total += Rational::new(
                    i128::from(wins),
                    i128::from(count.max(1)) * i128::from(flow.commission.1),
                );
            }
            progress(per_banker_hand);
        });
        let by_draw = totals
            .into_iter()
            .map(|(d, t)| (d, t / Rational::from(banker_hands as i128)))
            .collect();
        let suit = first.first_card().map(|c| ruleset.deck.card(c).suit);
        out.push(FirstHandOdds {
            tiles: first,
            suit,
            by_draw,
        });
    });
    out
}

/// The exact expected result per hand, in chips, of `strategy` with the table limits given.
pub fn expected_value(
    flow: &BankerFlow,
    odds: &[FirstHandOdds],
    strategy: &Strategy,
    limits: (i64, i64),
) -> Rational {
    let mut sum = Rational::ZERO;
    for o in odds {
        let (bet, draw) = strategy.decide(flow, o, limits);
        let per_chip = o.with_draw(draw).unwrap_or_else(|| o.best().1);
        sum += per_chip * Rational::from(i128::from(bet));
    }
    sum / Rational::from(odds.len() as i128)
}

/// The exact expected results per hand of the best strategies, for any deck: with a fixed bet
/// (the smallest, and the best number of tiles for each first hand), and with the bet limits
/// (the largest bet on a favourable first hand, the smallest otherwise).
pub fn best_values(odds: &[FirstHandOdds], limits: (i64, i64)) -> (Rational, Rational) {
    let (mut fixed, mut limited) = (Rational::ZERO, Rational::ZERO);
    for o in odds {
        let (_, per_chip) = o.best();
        fixed += &per_chip * Rational::from(i128::from(limits.0));
        let bet = if per_chip > Rational::ZERO {
            limits.1
        } else {
            limits.0
        };
        limited += per_chip * Rational::from(i128::from(bet));
    }
    let n = Rational::from(odds.len().max(1) as i128);
    (fixed / &n, limited / n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_count() {
        let mut n = 0;
        combinations(CardSet::first(32), 2, |_| n += 1);
        assert_eq!(n, 496);
        let mut n = 0;
        combinations(CardSet::first(5), 0, |s| {
            assert!(s.is_empty());
            n += 1
        });
        assert_eq!(n, 1);
    }

    #[test]
    fn the_deal_count_is_what_the_enumeration_goes_through() {
        assert_eq!(choose(32, 2), 496);
        assert_eq!(choose(5, 0), 1);
        assert_eq!(choose(3, 4), 0);
        assert_eq!(choose(64, 32), 1_832_624_140_942_590_534);
        let ruleset = crate::ruleset::load("kolyesi").value.unwrap();
        let flow = ruleset.banker().unwrap();
        let count = deal_count(ruleset.deck.cards.len(), flow);
        assert_eq!(count, 6_472_800);
        let mut done = 0u128;
        let odds = first_hand_odds_with_progress(&ruleset, flow, |n| done += u128::from(n));
        assert_eq!(done, count);
        assert_eq!(odds, first_hand_odds(&ruleset, flow));
        let mut four = (**flow).clone();
        (four.first_tiles, four.banker_tiles) = (4, 4);
        assert_eq!(deal_count(32, &four), 220_884_300_000);
    }
}
