//! How near a capture pile is to each yaku of a ruleset, measured without knowing the game.
//!
//! Each yaku's condition is probed once per ruleset and set of facts: random piles that satisfy
//! it are shrunk card by card to minimal ones. The cards of those minimal piles are the yaku's
//! *relevant* cards, and the smallest size is how many it *needs*. A pile holding `have` relevant
//! cards is then `need - have` cards away, and the yaku is out of reach when too few relevant
//! cards are left to be won. For count thresholds (`count(ribbon) >= 5`) and named cards
//! (`has(a, b, c)`) this is exact; for other conditions it is an estimate. Bots use it to value
//! captures; the play screen uses it to say how close a player is to the next yaku.

use crate::deck::{CardId, CardSet};
use crate::expr::Context;
use crate::ruleset::{Ruleset, YakuScore};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Random piles tried per yaku when looking for ones that satisfy it.
const PROBES: usize = 80;
/// Satisfying piles shrunk to minimal ones per yaku.
const SHRINKS: usize = 16;

/// What the probe found about one yaku.
#[derive(Clone, Debug, PartialEq)]
pub struct YakuReach {
    /// Cards that appear in some minimal pile holding the yaku.
    pub relevant: CardSet,
    /// The fewest cards a pile holding the yaku needs (0 when never found: unreachable).
    pub need: u32,
    /// The yaku's points on its smallest pile found.
    pub points: i64,
}

/// The probe of a whole yaku table under one set of facts.
#[derive(Debug)]
pub struct Progress {
    /// One entry per yaku, in table order.
    pub yaku: Vec<YakuReach>,
    facts: crate::ruleset::YakuFacts,
}

type CacheKey = (u64, usize, crate::ruleset::YakuFacts);

/// A hasher for the cache's small integer keys (SipHash's resistance to chosen keys is not
/// needed for keys the program makes itself, and costs more than the lookup's work).
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_i64(&mut self, n: i64) {
        self.write_u64(n as u64);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

type Cache = HashMap<CacheKey, Rc<Progress>, std::hash::BuildHasherDefault<KeyHasher>>;

impl Progress {
    /// The probe of `ruleset` under `facts`, computed once per thread and kept: each worker of a
    /// simulation has its own (the probe is deterministic, so every thread gets the same), and
    /// no lock is taken on a bot's move.
    pub fn of(ruleset: &Ruleset, facts: crate::ruleset::YakuFacts) -> Rc<Progress> {
        thread_local! {
            static CACHE: RefCell<Cache> = RefCell::default();
        }
        let key = (ruleset.content_hash, ruleset.yaku.yaku.len(), facts);
        CACHE.with(|c| {
            if let Some(p) = c.borrow().get(&key) {
                return Rc::clone(p);
            }
            let p = Rc::new(Progress::probe(ruleset, facts));
            c.borrow_mut().insert(key, Rc::clone(&p));
            p
        })
    }

    /// Probes every yaku of `ruleset` (deterministic: a fixed seed).
    pub fn probe(ruleset: &Ruleset, facts: crate::ruleset::YakuFacts) -> Progress {
        let all = ruleset.deck.all();
        let n = ruleset.deck.cards.len();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5eed_f00d);
        let yaku = ruleset
            .yaku
            .yaku
            .iter()
            .map(|y| {
                let holds = |pile: CardSet| {
                    y.when.truth(&Context {
                        pile,
                        facts: &facts,
                    })
                };
                let mut found = Vec::new();
                if holds(all) {
                    found.push(all);
                }
                for k in 0..PROBES {
                    if found.len() >= SHRINKS {
                        break;
                    }
                    let density = [0.15, 0.3, 0.5, 0.7, 0.85][k % 5];
                    let pile: CardSet = (0..n)
                        .filter(|_| rng.random_bool(density))
                        .map(|i| CardId(i as u8))
                        .collect();
                    if holds(pile) {
                        found.push(pile);
                    }
                }
                let mut relevant = CardSet::EMPTY;
                let mut best: Option<CardSet> = None;
                for pile in found {
                    let mut cards: Vec<CardId> = pile.iter().collect();
                    for i in (1..cards.len()).rev() {
                        cards.swap(i, rng.random_range(0..=i));
                    }
                    let mut min = pile;
                    for c in cards {
                        let mut smaller = min;
                        smaller.remove(c);
                        if holds(smaller) {
                            min = smaller;
                        }
                    }
                    relevant |= min;
                    if best.is_none_or(|b| min.len() < b.len()) {
                        best = Some(min);
                    }
                }
                YakuReach {
                    relevant,
                    need: best.map_or(0, |b| b.len()),
                    points: best.map_or(0, |pile| {
                        y.points.int(&Context {
                            pile,
                            facts: &facts,
                        })
                    }),
                }
            })
            .collect();
        Progress { yaku, facts }
    }

    /// The facts the probe was made under (`round`, `rounds`, `is_dealer`).
    pub fn facts(&self) -> &crate::ruleset::YakuFacts {
        &self.facts
    }

    /// How many more cards yaku `i` needs when the pile is `pile` and `reach` holds every card
    /// the player may still win (the pile included); `None` when it is out of reach.
    pub fn distance(&self, i: usize, pile: CardSet, reach: CardSet) -> Option<u32> {
        let r = &self.yaku[i];
        if r.need == 0 || ((pile | reach) & r.relevant).len() < r.need {
            return None;
        }
        Some(r.need.saturating_sub((pile & r.relevant).len()))
    }

    /// The cards of `reach` that would complete yaku `i` if added to `pile` alone.
    pub fn completing_cards(
        &self,
        ruleset: &Ruleset,
        i: usize,
        pile: CardSet,
        reach: CardSet,
    ) -> CardSet {
        let y = &ruleset.yaku.yaku[i];
        ((reach - pile) & self.yaku[i].relevant)
            .iter()
            .filter(|&c| {
                let mut p = pile;
                p.insert(c);
                y.when.truth(&Context {
                    pile: p,
                    facts: &self.facts,
                })
            })
            .collect()
    }

    /// A pile's worth: the points of the yaku it holds, plus partial credit for each yaku still
    /// in reach, growing with the share of its cards already held. Within an exclusivity group
    /// only the best prospect counts, and only for what it adds over the group's held yaku.
    pub fn value(&self, ruleset: &Ruleset, pile: CardSet, reach: CardSet) -> f64 {
        let held = ruleset.yaku.evaluate(pile, &self.facts);
        self.value_with(ruleset, pile, reach, &held)
    }

    /// [`Progress::value`] with the pile's yaku already evaluated.
    pub fn value_with(
        &self,
        ruleset: &Ruleset,
        pile: CardSet,
        reach: CardSet,
        held: &YakuScore,
    ) -> f64 {
        let mut total = held.base() as f64;
        let groups = ruleset.yaku.groups.len();
        // Per-group sums on the stack for the usual few groups (this runs for every move a bot
        // weighs).
        let (mut small_held, mut small_prospect) = ([0i64; 8], [0f64; 8]);
        let (mut big_held, mut big_prospect);
        let (group_held, group_prospect): (&mut [i64], &mut [f64]) = if groups <= 8 {
            (&mut small_held[..groups], &mut small_prospect[..groups])
        } else {
            big_held = vec![0i64; groups];
            big_prospect = vec![0f64; groups];
            (&mut big_held, &mut big_prospect)
        };
        for i in held.iter() {
            if let Some(g) = ruleset.yaku.yaku[i].group {
                group_held[g] = group_held[g].max(i64::from(held.points[i]));
            }
        }
        for (i, r) in self.yaku.iter().enumerate() {
            if held.mask >> i & 1 == 1 {
                continue;
            }
            let Some(d) = self.distance(i, pile, reach) else {
                continue;
            };
            if d == 0 {
                continue;
            }
            let share = f64::from(r.need - d) / f64::from(r.need);
            let credit = 0.6 * share * share;
            match ruleset.yaku.yaku[i].group {
                None => total += credit * r.points as f64,
                Some(g) => {
                    let gain = (r.points - group_held[g]).max(0) as f64;
                    group_prospect[g] = group_prospect[g].max(credit * gain);
                }
            }
        }
        total + group_prospect.iter().sum::<f64>()
    }

    /// The fewest cards any yaku not yet held is away, for a pile and its reach.
    pub fn nearest(&self, pile: CardSet, reach: CardSet, held: &YakuScore) -> Option<u32> {
        (0..self.yaku.len())
            .filter(|&i| held.mask >> i & 1 == 0)
            .filter_map(|i| self.distance(i, pile, reach))
            .filter(|&d| d > 0)
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset;

    fn koikoi() -> Ruleset {
        ruleset::load("koikoi").value.unwrap()
    }

    fn set(r: &Ruleset, ids: &[&str]) -> CardSet {
        ids.iter()
            .map(|id| r.deck.card_by_id(id).unwrap())
            .collect()
    }

    fn index(r: &Ruleset, id: &str) -> usize {
        r.yaku.yaku.iter().position(|y| y.id == id).unwrap()
    }

    #[test]
    fn named_cards_and_thresholds_are_found_exactly() {
        let r = koikoi();
        let p = Progress::probe(&r, [1, 12, 0, 0, 0, 0, 0, 0]);
        let ino = &p.yaku[index(&r, "inoshikacho")];
        assert_eq!(
            ino.relevant,
            set(&r, &["clover-boar", "maple-deer", "peony-butterflies"])
        );
        assert_eq!(ino.need, 3);
        assert_eq!(ino.points, 5);
        let tan = &p.yaku[index(&r, "tan")];
        assert_eq!(tan.need, 5);
        assert_eq!(tan.relevant, r.deck.kind("ribbon").unwrap().cards);
        let kasu = &p.yaku[index(&r, "kasu")];
        assert_eq!(kasu.need, 10);
        assert_eq!(kasu.points, 1);
    }

    #[test]
    fn distance_counts_missing_cards_and_sees_what_is_out_of_reach() {
        let r = koikoi();
        let p = Progress::probe(&r, [1, 12, 0, 0, 0, 0, 0, 0]);
        let i = index(&r, "inoshikacho");
        let pile = set(&r, &["clover-boar", "maple-deer"]);
        assert_eq!(p.distance(i, pile, r.deck.all()), Some(1));
        let gone = r.deck.all() - set(&r, &["peony-butterflies"]);
        assert_eq!(p.distance(i, pile, gone), None);
        assert_eq!(
            p.completing_cards(&r, i, pile, r.deck.all()),
            set(&r, &["peony-butterflies"])
        );
        // Closer piles are worth more; a held yaku is worth its points.
        let none = p.value(&r, CardSet::EMPTY, r.deck.all());
        let two = p.value(&r, pile, r.deck.all());
        let three = p.value(&r, pile | set(&r, &["peony-butterflies"]), r.deck.all());
        assert!(none < two && two < three, "{none} {two} {three}");
        assert!(three >= 5.0);
    }

    #[test]
    fn every_bundled_yaku_is_reachable() {
        for name in ruleset::bundled::ruleset_names() {
            let Some(r) = ruleset::load(name).value else {
                continue;
            };
            let p = Progress::of(&r, [1, 12, 1, 0, 0, 0, 0, 0]);
            for (y, reach) in r.yaku.yaku.iter().zip(&p.yaku) {
                // Month yaku need the round's month; every other yaku must be found.
                assert!(reach.need > 0, "{name}: `{}` never found", y.id);
            }
        }
    }
}
