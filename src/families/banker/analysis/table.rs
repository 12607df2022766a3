//! The exact odds of a table hand (`[flow] table_hand = true`, as in punto banco): every way the
//! shoe can deal the two hands and their draws, each weighed by its probability, gives the
//! chance of every outcome and each bet's expected result per chip staked.
//!
//! The drawing rules, bets and value read a hand's `hand_points` and card counts, not its cards
//! by name, so cards of equal `card_value` are alike: the enumeration deals value classes
//! (Baccarat's 10 classes: 0 to 9) with their counts in the shoe, without replacement. A deal
//! of `d` cards with counts `c1, c2, ..., cd` at each step has the probability
//! `c1 · c2 · ... · cd / (N · (N-1) · ... · (N-d+1))`; the sums are kept as whole numbers per
//! number of cards dealt and brought to one common denominator at the end, so the figures are
//! exact fractions.

use super::Rational;
use crate::deck::{CardId, Deck};
use crate::expr::Context;
use crate::families::banker::{rule_for, showdown_facts};
use crate::ruleset::{BankerFlow, DrawAction};

/// The most cards the two hands may take together in an analysis.
pub const MOST_CARDS: usize = 16;

/// The odds of one bet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetOdds {
    /// The bet's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The chance it wins.
    pub win: Rational,
    /// The chance its stake comes back.
    pub push: Rational,
    /// The chance it loses.
    pub lose: Rational,
    /// Its expected result per chip staked, with the commission exact (not rounded to chips).
    pub ev: Rational,
}

/// The odds of a table hand dealt from a full shoe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableOdds {
    /// Packs in the shoe.
    pub packs: u32,
    /// Cards in the shoe.
    pub cards: u64,
    /// The chance the player's hand is worth more than the banker's.
    pub player: Rational,
    /// The chance the banker's hand is worth more.
    pub banker: Rational,
    /// The chance they are worth the same.
    pub tie: Rational,
    /// Every bet of the ruleset.
    pub bets: Vec<BetOdds>,
}

struct Walk<'a> {
    flow: &'a BankerFlow,
    /// A card of each value class, and how many of the class are left in the shoe.
    reps: Vec<CardId>,
    counts: Vec<u64>,
    left: u64,
    punto: Vec<CardId>,
    banco: Vec<CardId>,
    /// `sums[category][cards dealt]`: player higher, banker higher, equal, then each bet's win
    /// and push.
    sums: Vec<Vec<u128>>,
    too_deep: bool,
}

impl Walk<'_> {
    fn depth(&self) -> usize {
        self.punto.len() + self.banco.len()
    }

    /// Deals one card of each class in turn to the player (`banker` false) or the banker and
    /// goes on with `next`.
    fn deal(&mut self, banker: bool, weight: u128, next: &mut dyn FnMut(&mut Self, u128)) {
        // Once one deal is too deep the analysis is refused: the walk stops at once rather than
        // go through every deal that deep (10^16 for a rule that always draws).
        if self.too_deep || self.depth() >= MOST_CARDS {
            self.too_deep = true;
            return;
        }
        for c in 0..self.reps.len() {
            let n = self.counts[c];
            if n == 0 {
                continue;
            }
            self.counts[c] -= 1;
            self.left -= 1;
            let card = self.reps[c];
            if banker {
                self.banco.push(card);
            } else {
                self.punto.push(card);
            }
            next(self, weight * u128::from(n));
            if banker {
                self.banco.pop();
            } else {
                self.punto.pop();
            }
            self.counts[c] += 1;
            self.left += 1;
        }
    }

    /// The first cards, in the order the game deals them (player, banker, player, banker).
    fn first_cards(&mut self, targets: &[bool], weight: u128) {
        match targets.split_first() {
            Some((&banker, rest)) => {
                self.deal(banker, weight, &mut |w, x| w.first_cards(rest, x));
            }
            None => self.draws(false, weight),
        }
    }

    /// The drawing rules of the player's hand, then the banker's.
    fn draws(&mut self, banker: bool, weight: u128) {
        let rules = if banker {
            &self.flow.banker_draw
        } else {
            &self.flow.player_draw
        };
        let facts = showdown_facts(self.flow, &self.punto, &self.banco);
        let draw = rule_for(rules, &facts).is_some_and(|r| r.action == DrawAction::Draw);
        if draw {
            self.deal(banker, weight, &mut |w, x| w.draws(banker, x));
        } else if !banker {
            self.draws(true, weight);
        } else {
            self.leaf(&facts, weight);
        }
    }

    fn leaf(&mut self, facts: &[i64; 6], weight: u128) {
        let d = self.depth();
        let (p, b) = (facts[0], facts[3]);
        let category = match p.cmp(&b) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => 2,
        };
        self.sums[category][d] += weight;
        let cx = Context {
            pile: crate::deck::CardSet::EMPTY,
            facts,
        };
        for (i, bet) in self.flow.bets.iter().enumerate() {
            if bet.wins.truth(&cx) {
                self.sums[3 + 2 * i][d] += weight;
            } else if bet.pushes.as_ref().is_some_and(|p| p.truth(&cx)) {
                self.sums[4 + 2 * i][d] += weight;
            }
        }
    }
}

/// `n · (n-1) · ... · (n-k+1)`, or `None` past `i128`.
fn falling(n: u64, k: usize) -> Option<i128> {
    (0..k as u64).try_fold(1i128, |acc, i| {
        acc.checked_mul(i128::from(n.checked_sub(i)?))
    })
}

/// The exact odds of a table hand from a full shoe of `packs` packs of `deck`.
///
/// `Err` says why not: the ruleset has no table hand, its value reads cards by name (so cards of
/// equal value are not alike), the rules draw more than [`MOST_CARDS`] cards, or the fractions
/// outgrow 128 bits.
pub fn table_odds(flow: &BankerFlow, deck: &Deck, packs: u32) -> Result<TableOdds, String> {
    if !flow.table_hand {
        return Err("the ruleset deals no table hand (`table_hand = true`)".into());
    }
    if !flow.value.cards_read().is_empty() {
        return Err(
            "`value` reads cards by name: the exact analysis deals cards by `card_value` and needs a value computed from `hand_points` and `hand_cards`".into(),
        );
    }
    let mut reps: Vec<CardId> = Vec::new();
    let mut counts: Vec<u64> = Vec::new();
    let mut values: Vec<i64> = Vec::new();
    for (i, &v) in flow.card_points.iter().enumerate().take(deck.cards.len()) {
        match values.iter().position(|&x| x == v) {
            Some(c) => counts[c] += u64::from(packs),
            None => {
                values.push(v);
                reps.push(CardId(i as u8));
                counts.push(u64::from(packs));
            }
        }
    }
    let cards: u64 = counts.iter().sum();
    let categories = 3 + 2 * flow.bets.len();
    let mut walk = Walk {
        flow,
        reps,
        counts,
        left: cards,
        punto: Vec::new(),
        banco: Vec::new(),
        sums: vec![vec![0; MOST_CARDS + 1]; categories],
        too_deep: false,
    };
    let mut targets = Vec::new();
    for i in 0..flow.first_tiles.max(flow.banker_tiles) {
        if i < flow.first_tiles {
            targets.push(false);
        }
        if i < flow.banker_tiles {
            targets.push(true);
        }
    }
    walk.first_cards(&targets, 1);
    if walk.too_deep {
        return Err(format!(
            "the drawing rules deal more than {MOST_CARDS} cards to the two hands"
        ));
    }
    let deepest = (0..=MOST_CARDS)
        .rev()
        .find(|&d| walk.sums.iter().any(|s| s[d] != 0))
        .unwrap_or(0);
    let overflow = || "the exact fractions outgrow 128 bits for this shoe".to_string();
    let denominator = falling(cards, deepest).ok_or_else(overflow)?;
    // Each category's chance as a whole number over `denominator`.
    let mut totals: Vec<i128> = Vec::new();
    for sums in &walk.sums {
        let mut total: i128 = 0;
        for (d, &s) in sums.iter().enumerate().take(deepest + 1) {
            if s == 0 {
                continue;
            }
            let rest = falling(cards - d as u64, deepest - d).ok_or_else(overflow)?;
            let term = i128::try_from(s)
                .ok()
                .and_then(|s| s.checked_mul(rest))
                .ok_or_else(overflow)?;
            total = total.checked_add(term).ok_or_else(overflow)?;
        }
        totals.push(total);
    }
    let chance = |t: i128| Rational::new(t, denominator);
    let mut bets = Vec::new();
    for (i, bet) in flow.bets.iter().enumerate() {
        let (win, push) = (totals[3 + 2 * i], totals[4 + 2 * i]);
        let lose = denominator - win - push;
        let (pn, pd) = (i128::from(bet.pays.0), i128::from(bet.pays.1));
        let (cn, cd) = (i128::from(bet.commission.0), i128::from(bet.commission.1));
        let per = pd * cd;
        let gain = win
            .checked_mul(pn * (cd - cn))
            .and_then(|g| g.checked_sub(lose.checked_mul(per)?))
            .ok_or_else(overflow)?;
        let ev = Rational::new(gain, denominator.checked_mul(per).ok_or_else(overflow)?);
        bets.push(BetOdds {
            id: bet.id.clone(),
            name: bet.name.clone(),
            win: chance(win),
            push: chance(push),
            lose: chance(lose),
            ev,
        });
    }
    Ok(TableOdds {
        packs,
        cards,
        player: chance(totals[0]),
        banker: chance(totals[1]),
        tie: chance(totals[2]),
        bets,
    })
}
