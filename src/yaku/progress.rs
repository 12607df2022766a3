//! How near a capture pile is to each yaku of a ruleset, measured without knowing the game.
//!
//! Each yaku's condition is probed once per ruleset and set of facts: random piles that satisfy
//! it are shrunk card by card to minimal ones. The cards of those minimal piles are the yaku's
//! *relevant* cards, and the smallest size is how many it *needs*. A pile holding `have` relevant
//! cards is then `need - have` cards away, and the yaku is out of reach when too few relevant
//! cards are left to be won. For count thresholds (`count(ribbon) >= 5`) and named cards
//! (`has(a, b, c)`) this is exact; for other conditions it is an estimate. Bots use it to value
//! captures; the play screen uses it to say how close a player is to the next yaku.

use crate::deck::{CardBits, CardId, CardSet};
use crate::expr::Context;
use crate::ruleset::{Ruleset, YakuScore};
use crate::yaku::{MAX_YAKU, ones};
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

/// A pile's worth is counted in millionths of a point, in integers: sums are exact in any
/// order, so the change of a pile's worth is found from the yaku a change touches alone.
pub const UNITS_PER_POINT: i64 = 1_000_000;

/// The probe of a whole yaku table under one set of facts, with what valuing a pile needs laid
/// out flat (bitsets, counts and the credit for each count of cards held).
#[derive(Debug)]
pub struct Progress {
    /// One entry per yaku, in table order.
    pub yaku: Vec<YakuReach>,
    facts: crate::ruleset::YakuFacts,
    /// Per yaku, in table order, then inert terms up to [`MAX_YAKU`] (so that a yaku's index,
    /// taken from a 64-bit mask, needs no bounds check).
    terms: Box<[Term; MAX_YAKU]>,
    /// Partial credit, in units of [`UNITS_PER_POINT`] per point of the yaku, for holding
    /// `have` of `need` relevant cards: `credit[term.credit + have]` (0 from `need` on, up to
    /// every relevant card).
    credit: Vec<i64>,
    /// For each card, the yaku whose relevant cards hold it.
    by_card: [u64; CardSet::CAPACITY],
    /// The yaku the probe found a pile for (`need > 0`): the only ones that can earn credit.
    live: u64,
    /// The exclusivity groups' members.
    members: Vec<u64>,
}

/// One yaku as [`Progress::worth`] reads it.
#[derive(Clone, Copy, Debug)]
struct Term {
    relevant: CardBits,
    need: u32,
    /// The yaku's group, or `NO_GROUP`.
    group: u32,
    points: i64,
    /// Where the yaku's credits start in [`Progress::credit`].
    credit: u32,
}

const NO_GROUP: u32 = u32::MAX;

/// A term no pile earns credit from (needs nothing: never live), for the slots past the table.
const INERT: Term = Term {
    relevant: 0,
    need: 0,
    group: NO_GROUP,
    points: 0,
    credit: 0,
};

/// Groups whose held points [`Progress::change`] keeps on the stack; a table with more takes
/// the general path (two whole valuations).
const SMALL_GROUPS: usize = 8;

/// True when `a` and `b` hold the same yaku of `of`, with the same points.
#[inline]
fn same_yaku(a: &YakuScore, b: &YakuScore, of: u64) -> bool {
    if (a.mask ^ b.mask) & of != 0 {
        return false;
    }
    ones(a.mask & of).all(|i| a.points[i % MAX_YAKU] == b.points[i % MAX_YAKU])
}

/// A [`PileState`] as the credit of a yaku reads it: the pile, the pile with its reach, and the
/// yaku held, as bits.
#[derive(Clone, Copy)]
struct Bits {
    pile: CardBits,
    open: CardBits,
    held: u64,
}

impl Bits {
    fn of(state: PileState) -> Bits {
        Bits {
            pile: state.pile.0,
            open: (state.pile | state.reach).0,
            held: state.held.mask,
        }
    }
}

/// A pile as a valuation reads it: its cards, every card its player may still win (the pile
/// included) and the yaku it holds.
#[derive(Clone, Copy, Debug)]
pub struct PileState<'a> {
    /// The cards captured.
    pub pile: CardSet,
    /// The cards the player may still win, the pile included.
    pub reach: CardSet,
    /// The yaku `pile` holds.
    pub held: &'a YakuScore,
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

/// The probe of the fact-free table asked for last, with its ruleset's hash and table length.
type LastFactFree = ((u64, usize), Rc<Progress>);

impl Progress {
    /// The probe of `ruleset` under `facts`, computed once per thread and kept: each worker of a
    /// simulation has its own (the probe is deterministic, so every thread gets the same), and
    /// no lock is taken on a bot's move.
    pub fn of(ruleset: &Ruleset, facts: crate::ruleset::YakuFacts) -> Rc<Progress> {
        thread_local! {
            static CACHE: RefCell<Cache> = RefCell::default();
            static FACT_FREE: RefCell<FactFree> = RefCell::default();
            static RECENT_USED: RefCell<Recent> = RefCell::default();
            static LAST_FACT_FREE: RefCell<Option<LastFactFree>> = const { RefCell::new(None) };
        }
        let table = (ruleset.content_hash, ruleset.yaku.yaku.len());
        // A table no yaku of which reads a fact has one probe for every set of facts: the last
        // one asked for is kept apart, looked at without building a key.
        let reads_facts = ruleset.yaku.reads_facts();
        if !reads_facts {
            let last = LAST_FACT_FREE.with(|l| {
                l.borrow()
                    .as_ref()
                    .filter(|(k, _)| *k == table)
                    .map(|(_, p)| Rc::clone(p))
            });
            if let Some(p) = last {
                return p;
            }
        }
        // Facts no yaku reads are left out: probes under facts that differ only there are the
        // same (Matgo's yaku read the sake cup's choice, not the round or the dealer).
        let facts = if reads_facts {
            ruleset.yaku.narrow_facts(facts)
        } else {
            crate::ruleset::YakuFacts::default()
        };
        let key = (table.0, table.1, facts);
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
        if !reads_facts {
            LAST_FACT_FREE.with(|l| *l.borrow_mut() = Some((table, Rc::clone(&p))));
            return p;
        }
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
        let mut by_card = [0u64; CardSet::CAPACITY];
        let mut live = 0u64;
        let mut members = vec![0u64; ruleset.yaku.groups.len()];
        let mut terms = Box::new([INERT; MAX_YAKU]);
        for (i, (r, y)) in yaku.iter().zip(&ruleset.yaku.yaku).enumerate() {
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
                (0.6 * share * share * UNITS_PER_POINT as f64).round() as i64
            }));
            // A complete yaku earns no credit, however many of its relevant cards are held.
            credit.extend((r.need..=r.relevant.len()).map(|_| 0));
            terms[i] = Term {
                relevant: r.relevant.0,
                need: r.need,
                group: y.group.map_or(NO_GROUP, |g| g as u32),
                points: r.points,
                credit: at,
            };
        }
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

    /// The facts the probe was made under (`round`, `rounds`, `is_dealer`; all 0 for a table
    /// that reads none).
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

    /// A pile's worth in points: the points of the yaku it holds, plus partial credit for each
    /// yaku still in reach, growing with the share of its cards already held. Within an
    /// exclusivity group only the best prospect counts, and only for what it adds over the
    /// group's held yaku.
    pub fn value(&self, ruleset: &Ruleset, pile: CardSet, reach: CardSet) -> f64 {
        let held = ruleset.yaku.evaluate(pile, &self.facts);
        self.worth(PileState {
            pile,
            reach,
            held: &held,
        }) as f64
            / UNITS_PER_POINT as f64
    }

    /// [`Progress::value`] in units of [`UNITS_PER_POINT`], with the pile's yaku evaluated.
    pub fn worth(&self, state: PileState) -> i64 {
        let mut best = vec![0i64; self.members.len()];
        self.fill_group_best(state.held, &mut best);
        let bits = Bits::of(state);
        let mut total = state.held.base() * UNITS_PER_POINT;
        let mut prospect = vec![0i64; self.members.len()];
        for (i, t) in self.terms[..self.yaku.len()].iter().enumerate() {
            let credit = self.credit_in(i, bits, &best);
            if t.group == NO_GROUP {
                total += credit;
            } else {
                let g = t.group as usize;
                prospect[g] = prospect[g].max(credit);
            }
        }
        total + prospect.iter().sum::<i64>()
    }

    /// How much a pile's worth ([`Progress::worth`], units) changes from `before` to `after`,
    /// where `moved` holds every card that entered or left the pile or the reach, and
    /// `rescored` the yaku evaluated again for the change ([`crate::yaku::YakuTable::touched`],
    /// whole groups; 0 when the yaku held are the same). Only the yaku they can affect are
    /// valued, so a bot weighs a move at the cost of the few yaku it touches; the result is the
    /// difference of the two whole valuations, exactly.
    #[inline]
    pub fn change(
        &self,
        before: PileState,
        after: PileState,
        moved: CardSet,
        rescored: u64,
    ) -> i64 {
        if self.members.len() > SMALL_GROUPS {
            return self.worth(after) - self.worth(before);
        }
        // Yaku evaluated again but held as before (the usual capture) change nothing by
        // themselves: only the yaku the moved cards are relevant to are valued then.
        let rescored = if same_yaku(before.held, after.held, rescored) {
            0
        } else {
            rescored
        };
        let dirty = moved.iter().fold(rescored, |d, c| {
            d | self.by_card[c.index() % CardSet::CAPACITY]
        }) & self.live;
        let mut change = if rescored == 0 {
            0
        } else {
            (after.held.base() - before.held.base()) * UNITS_PER_POINT
        };
        if dirty == 0 {
            return change;
        }
        let (before_bits, after_bits) = (Bits::of(before), Bits::of(after));
        if rescored == 0 {
            return self.held_change(dirty, before_bits, after_bits, before.held);
        }
        let mut groups = 0u32;
        let mut rest = dirty;
        let no_best = [0; SMALL_GROUPS];
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            match self.terms[i % MAX_YAKU].group {
                NO_GROUP => {
                    change += self.credit_in(i, after_bits, &no_best)
                        - self.credit_in(i, before_bits, &no_best)
                }
                g => groups |= 1 << g,
            }
        }
        if groups != 0 {
            let best_before = self.group_best(before.held);
            let best_after = if rescored == 0 {
                best_before
            } else {
                self.group_best(after.held)
            };
            while groups != 0 {
                let g = groups.trailing_zeros() as usize;
                groups &= groups - 1;
                let (mut was, mut is) = (0, 0);
                for i in ones(self.members[g] & self.live) {
                    was = was.max(self.credit_in(i, before_bits, &best_before));
                    is = is.max(self.credit_in(i, after_bits, &best_after));
                }
                change += is - was;
            }
        }
        change
    }

    /// [`Progress::change`] of the yaku `dirty` when the yaku held are as before (a capture, a
    /// card given): a yaku's credit is 0 on both sides when held, and what each of its points
    /// is worth is the same on both, as is its reach when the reach did not change.
    fn held_change(&self, dirty: u64, before: Bits, after: Bits, held: &YakuScore) -> i64 {
        let mut change = 0;
        let mut groups = 0u32;
        for i in ones(dirty & !before.held) {
            let t = &self.terms[i % MAX_YAKU];
            if t.group == NO_GROUP {
                let (was, is) = self.credits(i, before, after, t.points);
                change += is - was;
            } else {
                groups |= 1 << t.group;
            }
        }
        if groups != 0 {
            let best = self.group_best(held);
            for g in ones(u64::from(groups)) {
                let (mut was, mut is) = (0, 0);
                for i in ones(self.members[g] & self.live & !before.held) {
                    let scale = (self.terms[i % MAX_YAKU].points - best[g % SMALL_GROUPS]).max(0);
                    let (before, after) = self.credits(i, before, after, scale);
                    was = was.max(before);
                    is = is.max(after);
                }
                change += is - was;
            }
        }
        change
    }

    /// Yaku `i`'s credit (units), not held, for the piles `before` and `after`, each of its
    /// points worth `scale` (its points less its group's held best).
    #[inline]
    fn credits(&self, i: usize, before: Bits, after: Bits, scale: i64) -> (i64, i64) {
        let t = &self.terms[i % MAX_YAKU];
        let in_reach = |open: CardBits| (open & t.relevant).count_ones() >= t.need;
        let was_in_reach = in_reach(before.open);
        let is_in_reach = if after.open == before.open {
            was_in_reach
        } else {
            in_reach(after.open)
        };
        // The credits run on past `need` with zeros, up to every relevant card held.
        let at =
            |pile: CardBits| self.credit[(t.credit + (pile & t.relevant).count_ones()) as usize];
        (
            if was_in_reach {
                at(before.pile) * scale
            } else {
                0
            },
            if is_in_reach {
                at(after.pile) * scale
            } else {
                0
            },
        )
    }

    /// How much a pile's worth ([`Progress::worth`], units) falls when the cards `gone` leave its
    /// reach, the pile and its yaku unchanged (another player's capture). A yaku's credit then
    /// changes only where the yaku falls out of reach, so only those are valued: equal to
    /// [`Progress::change`] to the smaller reach, negated, at a fraction of its cost.
    #[inline]
    pub fn loss(&self, state: PileState, gone: CardSet) -> i64 {
        // Only the cards that were in reach change anything.
        let gone = gone & state.reach;
        let after = PileState {
            reach: state.reach - gone,
            ..state
        };
        if self.members.len() > SMALL_GROUPS {
            return self.worth(state) - self.worth(after);
        }
        let (before, after) = (Bits::of(state), Bits::of(after));
        let touched = gone
            .iter()
            .fold(0, |d, c| d | self.by_card[c.index() % CardSet::CAPACITY])
            & self.live
            & !before.held;
        // The yaku in reach before and not after.
        let mut out = 0u64;
        for i in ones(touched) {
            let t = &self.terms[i % MAX_YAKU];
            if (after.open & t.relevant).count_ones() < t.need
                && (before.open & t.relevant).count_ones() >= t.need
            {
                out |= 1 << i;
            }
        }
        if out == 0 {
            return 0;
        }
        let mut loss = 0;
        let mut groups = 0u32;
        for i in ones(out) {
            match self.terms[i % MAX_YAKU].group {
                NO_GROUP => loss += self.credit_in(i, before, &[0; SMALL_GROUPS]),
                g => groups |= 1 << g,
            }
        }
        if groups != 0 {
            let best = self.group_best(state.held);
            while groups != 0 {
                let g = groups.trailing_zeros() as usize;
                groups &= groups - 1;
                // The group's best prospect before, and without the yaku now out of reach.
                let (mut was, mut is) = (0, 0);
                for i in ones(self.members[g] & self.live) {
                    let credit = self.credit_in(i, before, &best);
                    was = was.max(credit);
                    if out >> i & 1 == 0 {
                        is = is.max(credit);
                    }
                }
                loss += was - is;
            }
        }
        loss
    }

    /// Yaku `i`'s credit (units) for the pile `state`: 0 when held, out of reach or complete.
    #[inline]
    fn credit_in(&self, i: usize, state: Bits, best: &[i64]) -> i64 {
        if state.held >> i & 1 == 1 {
            return 0;
        }
        self.open_credit(i, state.pile, state.open, best)
    }

    /// The best points held in each group (a table of at most `SMALL_GROUPS`).
    #[inline]
    fn group_best(&self, held: &YakuScore) -> [i64; SMALL_GROUPS] {
        let mut best = [0i64; SMALL_GROUPS];
        self.fill_group_best(held, &mut best);
        best
    }

    /// Raises `best[g]` to the points of each yaku of group `g` that `held` holds (groups past
    /// `best`'s length are left out).
    #[inline]
    fn fill_group_best(&self, held: &YakuScore, best: &mut [i64]) {
        let mut rest = held.mask;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize % MAX_YAKU;
            rest &= rest - 1;
            if let Some(b) = best.get_mut(self.terms[i].group as usize) {
                *b = (*b).max(i64::from(held.points[i]));
            }
        }
    }

    /// Yaku `i`'s partial credit (units) when it is not held: 0 when out of reach or complete
    /// (or never found: `need` 0). Within a group, only what it would add over the group's best
    /// held yaku (`best`).
    #[inline]
    fn open_credit(&self, i: usize, pile: CardBits, open: CardBits, best: &[i64]) -> i64 {
        let t = &self.terms[i % MAX_YAKU];
        if (open & t.relevant).count_ones() < t.need {
            return 0;
        }
        let have = (pile & t.relevant).count_ones();
        if have >= t.need {
            return 0;
        }
        let credit = self.credit[(t.credit + have) as usize];
        if t.group == NO_GROUP {
            credit * t.points
        } else {
            credit * (t.points - best[t.group as usize]).max(0)
        }
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

    /// Valuing only the yaku a change can affect gives the difference of the whole valuations,
    /// on random piles and changes of every bundled ruleset with yaku: cards won from the reach
    /// (a capture), cards leaving the reach (the other player's capture, also valued by
    /// [`Progress::loss`]), and any two unrelated piles.
    #[test]
    fn change_is_the_difference_of_whole_valuations() {
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
            for k in 0..300 {
                let pile = random_set(0.2);
                let reach = random_set(0.5) - pile;
                let held = r.yaku.evaluate(pile, p.facts());
                let moved = random_set(0.05);
                let (pile2, reach2) = match k % 3 {
                    0 => (pile | (moved & reach), reach - moved),
                    1 => (pile, reach - moved),
                    _ => {
                        let pile2 = random_set(0.2);
                        (pile2, random_set(0.5) - pile2)
                    }
                };
                let diff = |a: CardSet, b: CardSet| (a - b) | (b - a);
                let changed = diff(pile, pile2) | diff(reach, reach2);
                let mut held2 = held;
                r.yaku
                    .update(&mut held2, diff(pile, pile2), pile2, p.facts());
                let rescored = r.yaku.touched(diff(pile, pile2));
                let before = PileState {
                    pile,
                    reach,
                    held: &held,
                };
                let after = PileState {
                    pile: pile2,
                    reach: reach2,
                    held: &held2,
                };
                let change = p.change(before, after, changed, rescored);
                assert_eq!(change, p.worth(after) - p.worth(before), "{name}");
                if k % 3 == 1 {
                    assert_eq!(p.loss(before, moved), -change, "{name}");
                }
            }
        }
    }
}
