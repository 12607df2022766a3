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

/// The probe of a whole yaku table under one set of facts, with what valuing a pile needs laid
/// out flat (bitsets, counts and the credit for each count of cards held).
#[derive(Debug)]
pub struct Progress {
    /// One entry per yaku, in table order.
    pub yaku: Vec<YakuReach>,
    facts: crate::ruleset::YakuFacts,
    /// Per yaku, in table order.
    terms: Vec<Term>,
    /// Partial credit for holding `have` of `need` relevant cards: `credit[term.credit + have]`.
    credit: Vec<f64>,
    /// For each card, the yaku whose relevant cards hold it.
    by_card: [u64; 64],
    /// The yaku the probe found a pile for (`need > 0`): the only ones that can earn credit.
    live: u64,
    /// The exclusivity groups' members.
    members: Vec<u64>,
}

/// One yaku as [`Progress::value_with`] reads it.
#[derive(Clone, Copy, Debug)]
struct Term {
    relevant: u64,
    need: u32,
    /// The yaku's group, or `NO_GROUP`.
    group: u32,
    points: i64,
    /// Where the yaku's credits start in [`Progress::credit`].
    credit: u32,
}

const NO_GROUP: u32 = u32::MAX;

/// Groups whose prospects are summed on the stack; a table with more takes the general path.
const SMALL_GROUPS: usize = 8;

/// Yaku whose credits a [`Valuation`] keeps (a small copy per move weighed); a table with more
/// takes the general path.
const SMALL_TABLE: usize = 24;

/// A pile's worth taken apart yaku by yaku ([`Progress::valuation`]), so that the worth of the
/// pile after a small change is found by valuing again only the yaku the change can affect
/// ([`Progress::value_after`]).
#[derive(Clone, Debug)]
pub struct Valuation {
    /// Each yaku's partial credit (0 when held, out of reach or complete).
    terms: [f64; SMALL_TABLE],
    /// The yaku whose credit is not 0: the only terms of the sum (adding a credit of +0.0 changes
    /// no bit of it, so they are skipped).
    credited: u64,
    /// The worth: what [`Progress::value_with`] gives.
    pub value: f64,
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

/// The probes of the yaku that read no fact, by ruleset: shared by every set of facts.
type FactFree = HashMap<(u64, usize), Rc<Vec<YakuReach>>, std::hash::BuildHasherDefault<KeyHasher>>;

/// `a == b`, compared inline field by field (the derived comparison of the facts calls
/// `memcmp`, which costs more than the comparison on every decision of a bot).
#[inline]
fn same_key(a: &CacheKey, b: &CacheKey) -> bool {
    a.0 == b.0 && a.1 == b.1 && a.2.iter().zip(&b.2).all(|(x, y)| x == y)
}

/// The probes used last, looked at before the cache (a bot asks for the same two or three on
/// every move).
const RECENT: usize = 4;

type Recent = [Option<(CacheKey, Rc<Progress>)>; RECENT];

impl Progress {
    /// The probe of `ruleset` under `facts`, computed once per thread and kept: each worker of a
    /// simulation has its own (the probe is deterministic, so every thread gets the same), and
    /// no lock is taken on a bot's move.
    pub fn of(ruleset: &Ruleset, facts: crate::ruleset::YakuFacts) -> Rc<Progress> {
        thread_local! {
            static CACHE: RefCell<Cache> = RefCell::default();
            static FACT_FREE: RefCell<FactFree> = RefCell::default();
            static RECENT_USED: RefCell<Recent> = RefCell::default();
        }
        let key = (ruleset.content_hash, ruleset.yaku.yaku.len(), facts);
        let recent = RECENT_USED.with(|r| {
            r.borrow()
                .iter()
                .flatten()
                .find(|(k, _)| same_key(k, &key))
                .map(|(_, p)| Rc::clone(p))
        });
        if let Some(p) = recent {
            return p;
        }
        let p = Progress::cached(ruleset, key, &CACHE, &FACT_FREE);
        RECENT_USED.with(|r| {
            let mut r = r.borrow_mut();
            r.rotate_right(1);
            r[0] = Some((key, Rc::clone(&p)));
        });
        p
    }

    /// The probe for `key` from the thread's cache, made when missing.
    fn cached(
        ruleset: &Ruleset,
        key: CacheKey,
        cache: &'static std::thread::LocalKey<RefCell<Cache>>,
        fact_free: &'static std::thread::LocalKey<RefCell<FactFree>>,
    ) -> Rc<Progress> {
        let facts = key.2;
        if let Some(p) = cache.with(|c| c.borrow().get(&key).cloned()) {
            return p;
        }
        let table = &ruleset.yaku.yaku;
        let reads_facts = |y: &crate::yaku::Yaku| y.when.reads_facts() || y.points.reads_facts();
        let free = fact_free.with(|c| {
            let free_key = (ruleset.content_hash, table.len());
            let mut c = c.borrow_mut();
            Rc::clone(c.entry(free_key).or_insert_with(|| {
                Rc::new(
                    (0..table.len())
                        .map(|i| probe_yaku(ruleset, i, &crate::ruleset::YakuFacts::default()))
                        .collect(),
                )
            }))
        });
        let yaku = (0..table.len())
            .map(|i| {
                if reads_facts(&table[i]) {
                    probe_yaku(ruleset, i, &facts)
                } else {
                    free[i].clone()
                }
            })
            .collect();
        let p = Rc::new(Progress::new(ruleset, yaku, facts));
        cache.with(|c| c.borrow_mut().insert(key, Rc::clone(&p)));
        p
    }

    /// Probes every yaku of `ruleset` (deterministic: each yaku from a fixed seed of its own,
    /// so that a yaku's probe does not depend on the others').
    pub fn probe(ruleset: &Ruleset, facts: crate::ruleset::YakuFacts) -> Progress {
        let yaku = (0..ruleset.yaku.yaku.len())
            .map(|i| probe_yaku(ruleset, i, &facts))
            .collect();
        Progress::new(ruleset, yaku, facts)
    }

    /// The probe's findings laid out for valuing piles.
    fn new(ruleset: &Ruleset, yaku: Vec<YakuReach>, facts: crate::ruleset::YakuFacts) -> Progress {
        let mut credit = Vec::new();
        let mut by_card = [0u64; 64];
        let mut live = 0u64;
        let mut members = vec![0u64; ruleset.yaku.groups.len()];
        let terms = yaku
            .iter()
            .zip(&ruleset.yaku.yaku)
            .enumerate()
            .map(|(i, (r, y))| {
                for c in r.relevant.iter() {
                    by_card[c.index()] |= 1 << i;
                }
                if let Some(g) = y.group {
                    members[g] |= 1 << i;
                }
                if r.need > 0 {
                    live |= 1 << i;
                }
                let at = credit.len() as u32;
                credit.extend((0..r.need).map(|have| {
                    let share = f64::from(have) / f64::from(r.need);
                    0.6 * share * share
                }));
                Term {
                    relevant: r.relevant.0,
                    need: r.need,
                    group: y.group.map_or(NO_GROUP, |g| g as u32),
                    points: r.points,
                    credit: at,
                }
            })
            .collect();
        Progress {
            yaku,
            facts,
            terms,
            credit,
            by_card,
            live,
            members,
        }
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
        _ruleset: &Ruleset,
        pile: CardSet,
        reach: CardSet,
        held: &YakuScore,
    ) -> f64 {
        self.valuation(pile, reach, held).value
    }

    /// [`Progress::value_with`], taken apart yaku by yaku for [`Progress::value_after`].
    pub fn valuation(&self, pile: CardSet, reach: CardSet, held: &YakuScore) -> Valuation {
        let mut terms = [0.0; SMALL_TABLE];
        if self.general() {
            let value = self.sum_general(pile, reach, held);
            return Valuation {
                terms,
                credited: 0,
                value,
            };
        }
        let best = self.group_best(held);
        let open = (pile | reach).0;
        let mut credited = 0;
        let mut rest = self.live & !held.mask;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let credit = self.open_credit(i, pile.0, open, &best);
            if credit != 0.0 {
                terms[i] = credit;
                credited |= 1 << i;
            }
        }
        let value = self.total(held, credited, |i| terms[i]);
        Valuation {
            terms,
            credited,
            value,
        }
    }

    /// The worth of a pile valued as `before` after a change: the pile is now `pile`, the cards
    /// it may still win `reach` and its yaku `held`; `moved` holds every card that entered or
    /// left the pile or the reach, and `rescored` the yaku `held` was evaluated again for
    /// ([`crate::yaku::YakuTable::touched`]). Only the yaku they can affect are valued again;
    /// the result is what [`Progress::value_with`] gives on the changed pile, bit for bit.
    pub fn value_after(
        &self,
        before: &Valuation,
        moved: CardSet,
        rescored: u64,
        (pile, reach, held): (CardSet, CardSet, &YakuScore),
    ) -> f64 {
        if self.general() {
            return self.sum_general(pile, reach, held);
        }
        let dirty = moved
            .iter()
            .fold(rescored, |d, c| d | self.by_card[c.index()]);
        if dirty == 0 {
            // Nothing the sum reads has changed (`held` neither: `rescored` is empty).
            return before.value;
        }
        let best = self.group_best(held);
        let open = (pile | reach).0;
        let mut fresh = [0.0; SMALL_TABLE];
        let mut credited = before.credited & !dirty;
        let mut rest = dirty & self.live & !held.mask;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let credit = self.open_credit(i, pile.0, open, &best);
            if credit != 0.0 {
                fresh[i] = credit;
                credited |= 1 << i;
            }
        }
        self.total(held, credited, |i| {
            if dirty >> i & 1 == 1 {
                fresh[i]
            } else {
                before.terms[i]
            }
        })
    }

    /// True for a table too large for the fast path (more than `SMALL_TABLE` yaku or
    /// `SMALL_GROUPS` groups).
    #[inline]
    fn general(&self) -> bool {
        self.terms.len() > SMALL_TABLE || self.members.len() > SMALL_GROUPS
    }

    /// The best points held in each group (a table of at most `SMALL_GROUPS`).
    #[inline]
    fn group_best(&self, held: &YakuScore) -> [i64; SMALL_GROUPS] {
        let mut best = [0i64; SMALL_GROUPS];
        let mut rest = held.mask;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if let Some(t) = self.terms.get(i)
                && t.group != NO_GROUP
            {
                let g = t.group as usize;
                best[g] = best[g].max(i64::from(held.points[i]));
            }
        }
        best
    }

    /// The held points plus each yaku's credit, in table order (only the best prospect of each
    /// group counts), so that every path gives the same bits. `credited` holds the yaku whose
    /// credit (`credit(i)`) is not 0: adding a zero changes no bit of the sum.
    #[inline]
    fn total(&self, held: &YakuScore, credited: u64, credit: impl Fn(usize) -> f64) -> f64 {
        let mut total = held.base() as f64;
        let mut prospect = [0f64; SMALL_GROUPS];
        let mut rest = credited;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let (t, c) = (&self.terms[i], credit(i));
            if t.group == NO_GROUP {
                total += c;
            } else if c > prospect[t.group as usize] {
                prospect[t.group as usize] = c;
            }
        }
        total + prospect[..self.members.len()].iter().sum::<f64>()
    }

    /// Yaku `i`'s partial credit: 0 when held, out of reach or complete. Within a group, only
    /// what it would add over the group's best held yaku (`best`).
    #[inline]
    fn credit_of(&self, i: usize, pile: u64, open: u64, held: &YakuScore, best: &[i64]) -> f64 {
        let t = &self.terms[i];
        if held.mask >> i & 1 == 1 || t.need == 0 {
            return 0.0;
        }
        self.open_credit(i, pile, open, best)
    }

    /// [`Progress::credit_of`] for a yaku not held with `need > 0`.
    #[inline]
    fn open_credit(&self, i: usize, pile: u64, open: u64, best: &[i64]) -> f64 {
        let t = &self.terms[i];
        if (open & t.relevant).count_ones() < t.need {
            return 0.0;
        }
        let have = (pile & t.relevant).count_ones();
        if have >= t.need {
            return 0.0;
        }
        let credit = self.credit[(t.credit + have) as usize];
        if t.group == NO_GROUP {
            credit * t.points as f64
        } else {
            credit * (t.points - best[t.group as usize]).max(0) as f64
        }
    }

    /// [`Progress::value_with`] for a table of many groups (their sums on the heap).
    fn sum_general(&self, pile: CardSet, reach: CardSet, held: &YakuScore) -> f64 {
        let open = (pile | reach).0;
        let mut best = vec![0i64; self.members.len()];
        for i in held.iter() {
            if let Some(t) = self.terms.get(i)
                && t.group != NO_GROUP
            {
                let g = t.group as usize;
                best[g] = best[g].max(i64::from(held.points[i]));
            }
        }
        let mut total = held.base() as f64;
        let mut prospect = vec![0f64; self.members.len()];
        for (i, t) in self.terms.iter().enumerate() {
            let credit = self.credit_of(i, pile.0, open, held, &best);
            if t.group == NO_GROUP {
                total += credit;
            } else {
                let g = t.group as usize;
                prospect[g] = prospect[g].max(credit);
            }
        }
        total + prospect.iter().sum::<f64>()
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

/// Probes yaku `i` of `ruleset` under `facts`: random piles that hold it, shrunk card by card
/// to minimal ones.
fn probe_yaku(ruleset: &Ruleset, i: usize, facts: &crate::ruleset::YakuFacts) -> YakuReach {
    let y = &ruleset.yaku.yaku[i];
    let all = ruleset.deck.all();
    let n = ruleset.deck.cards.len();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5eed_f00d ^ (i as u64) << 32);
    let holds = |pile: CardSet| y.when.truth(&Context { pile, facts });
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
    if found.is_empty() {
        // A condition that some cards spoil (`not any(rain)`) holds on the deck without them:
        // try it without each kind and each suit.
        let deck = &ruleset.deck;
        found.extend(
            deck.kinds
                .iter()
                .map(|k| all - k.cards)
                .chain(deck.suits.iter().map(|s| all - s.cards))
                .filter(|&p| holds(p))
                .take(SHRINKS),
        );
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
        points: best.map_or(0, |pile| y.points.int(&Context { pile, facts })),
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
                // A yaku an option switches off is never found, and that is right.
                if y.when.constant_truth() == Some(false) {
                    continue;
                }
                // Month yaku need the round's month; every other yaku must be found.
                assert!(reach.need > 0, "{name}: `{}` never found", y.id);
            }
        }
    }

    /// Valuing only the yaku a change can affect gives the whole valuation's bits, on random
    /// piles and changes of every bundled ruleset with yaku.
    #[test]
    fn value_after_is_value_with() {
        use rand::RngExt;
        for name in ruleset::bundled::ruleset_names() {
            let r = ruleset::load(name).value.unwrap();
            if r.yaku.yaku.is_empty() {
                continue;
            }
            let n = r.deck.cards.len() as u8;
            let p = Progress::of(&r, [3, 12, 1, 0, 0, 0, 0, 0]);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
            let mut random_set = |density: f64| -> CardSet {
                (0..n)
                    .filter(|_| rng.random_bool(density))
                    .map(CardId)
                    .collect()
            };
            for _ in 0..300 {
                let pile = random_set(0.2);
                let reach = random_set(0.5) - pile;
                let held = r.yaku.evaluate(pile, p.facts());
                let before = p.valuation(pile, reach, &held);
                assert_eq!(before.value, p.value_with(&r, pile, reach, &held));
                let moved = random_set(0.05);
                let (pile2, reach2) = (pile | (moved & reach), reach - moved);
                let mut held2 = held;
                r.yaku.update(&mut held2, moved & reach, pile2, p.facts());
                let after = p.value_after(
                    &before,
                    moved,
                    r.yaku.touched(moved),
                    (pile2, reach2, &held2),
                );
                let fresh = p.value_with(&r, pile2, reach2, &held2);
                assert_eq!(after.to_bits(), fresh.to_bits(), "{name}");
            }
        }
    }
}
