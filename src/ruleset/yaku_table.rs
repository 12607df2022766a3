//! The yaku table: each yaku's condition and point formula, exclusivity groups, and the fast
//! evaluation of a pile (only the yaku a changed card can affect are evaluated again).

use crate::deck::CardSet;
use crate::expr::{Context, Program};

/// One yaku: a named combination with a condition and a point formula.
#[derive(Clone, Debug)]
pub struct Yaku {
    /// The yaku's id (`goko`).
    pub id: String,
    /// The display name (`Gokō (five brights)`).
    pub name: String,
    /// What it takes, in words.
    pub description: String,
    /// When the pile holds it.
    pub when: Program,
    /// Its points when held.
    pub points: Program,
    /// The text of `when`, as written (for rule listings).
    pub when_source: String,
    /// The text of `points`, as written.
    pub points_source: String,
    /// Its exclusivity group: within a group only the highest-scoring yaku counts.
    pub group: Option<usize>,
}

/// The most yaku a table may hold (they are tracked in a 64-bit mask).
pub const MAX_YAKU: usize = 64;

/// The yaku of a ruleset and their exclusivity groups. The yaku must not change once the table
/// has been evaluated (a loaded ruleset's never do): an index of them is kept.
#[derive(Clone, Debug, Default)]
pub struct YakuTable {
    /// The yaku, in ruleset order.
    pub yaku: Vec<Yaku>,
    /// The names of the groups.
    pub groups: Vec<String>,
    /// What evaluation needs to know of the yaku, built on first use.
    plan: std::sync::OnceLock<Box<Plan>>,
}

/// Which yaku a change can affect, for evaluating only those (see [`YakuTable::update`]).
#[derive(Clone, Debug, PartialEq)]
struct Plan {
    /// For each card, the yaku reading it ([`Program::cards_read`]), with every yaku of their
    /// groups.
    by_card: [u64; CardSet::CAPACITY],
    /// The cards some yaku reads (those whose `by_card` is not empty): a pile's other cards
    /// touch no yaku, and most piles hold many of them (Scopa's one yaku reads one card).
    read: CardSet,
    /// The yaku that read a fact, with every yaku of their groups.
    by_facts: u64,
    /// The facts some yaku reads: bit `i` for fact `i`.
    facts_read: u64,
    /// Each yaku's group.
    groups: Groups,
    /// The other yaku evaluated on the empty pile: they need no facts.
    empty: YakuScore,
}

/// Each yaku's group, as evaluation reads it: the yaku a group rule weighs it against, and a
/// bound that rules the whole group out at once (most evaluations find that no member holds).
#[derive(Clone, Debug, PartialEq)]
struct Groups {
    /// For each yaku, every yaku of its group (itself alone when it has none).
    rivals: [u64; MAX_YAKU],
    /// For each yaku, `(set, n)`: a pile on which some yaku of its group holds has at least `n`
    /// cards of `set` (from [`Program::needs`]; `n` is 0 when some member has no such bound).
    gates: [(CardSet, u32); MAX_YAKU],
}

impl Groups {
    /// True when `pile` misses the bound of yaku `i`'s group: no yaku of the group holds on it.
    #[inline]
    fn misses(&self, i: usize, pile: CardSet) -> bool {
        let (set, n) = self.gates[i];
        (set & pile).len() < n
    }
}

/// The yaku a pile holds, after the group rule: a mask over the table and each one's points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct YakuScore {
    /// Bit `i` set when yaku `i` counts.
    pub mask: u64,
    /// Points of each yaku that counts (0 elsewhere).
    pub points: [i32; MAX_YAKU],
}

impl Default for YakuScore {
    fn default() -> Self {
        YakuScore {
            mask: 0,
            points: [0; MAX_YAKU],
        }
    }
}

/// The indices of the bits set in `mask` (yaku of a table), lowest first.
#[inline]
pub(crate) fn ones(mask: u64) -> impl Iterator<Item = usize> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            i
        })
    })
}

impl YakuScore {
    /// The sum of the points of the yaku that count.
    pub fn base(&self) -> i64 {
        self.iter().map(|i| i64::from(self.points[i])).sum()
    }

    /// The indices of the yaku that count, in table order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        ones(self.mask)
    }

    /// True when some yaku is new or scores more than in `before` (the koi-koi decision point).
    pub fn improves_on(&self, before: &YakuScore) -> bool {
        self.iter().any(|i| self.points[i] > before.points[i])
    }

    /// Back to no yaku, as [`YakuScore::default`]. Points are 0 outside the mask (every writer
    /// keeps that), so only the yaku that count are written: a fresh score is a 264-byte
    /// `memset` at every deal, for each seat.
    #[inline]
    pub fn clear(&mut self) {
        debug_assert!(
            ones(!self.mask).all(|i| self.points[i] == 0),
            "points outside the mask: {self:?}"
        );
        for i in ones(self.mask) {
            self.points[i % MAX_YAKU] = 0;
        }
        self.mask = 0;
    }
}

impl YakuTable {
    /// Evaluates every yaku on `pile`, applying the group rule. Allocation-free.
    ///
    /// Only the yaku that read a fact or a card of `pile` are evaluated: the others hold what
    /// they hold on the empty pile, which is known in advance.
    pub fn evaluate(&self, pile: CardSet, facts: &[i64]) -> YakuScore {
        let mut score = YakuScore::default();
        self.refresh(&mut score, pile, facts);
        score
    }

    /// Replaces `score` with [`YakuTable::evaluate`] of `pile`, in place: only the yaku whose
    /// value changes are written, where a fresh score is a 264-byte copy. Returns true when the
    /// new score improves on the one it replaces ([`YakuScore::improves_on`]).
    pub fn refresh(&self, score: &mut YakuScore, pile: CardSet, facts: &[i64]) -> bool {
        let plan = self.plan();
        let dirty = plan.by_facts | plan.touched(pile);
        // The others take their value on the empty pile (whole groups, as `dirty` is).
        let others = self.all() & !dirty;
        let empty = &plan.empty;
        let mut rose = 0u64;
        let mut rest = (score.mask | empty.mask) & others;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if empty.points[i] > score.points[i] {
                rose |= 1 << i;
            }
            score.points[i] = empty.points[i];
        }
        score.mask = score.mask & !others | empty.mask & others;
        let improved = self.reevaluate(&plan.groups, score, dirty, pile, facts);
        improved || score.mask & rose != 0
    }

    /// Brings `score`, the yaku of some earlier pile under the same `facts`, up to date for
    /// `pile`, where the two piles differ in the cards `changed`: only the yaku that read a changed
    /// card ([`Program::cards_read`]) are evaluated again, with every yaku of their groups. The
    /// result is what [`YakuTable::evaluate`] gives on `pile`. Returns true when it improves on
    /// the earlier score ([`YakuScore::improves_on`]).
    pub fn update(
        &self,
        score: &mut YakuScore,
        changed: CardSet,
        pile: CardSet,
        facts: &[i64],
    ) -> bool {
        let plan = self.plan();
        let dirty = plan.touched(changed);
        self.reevaluate(&plan.groups, score, dirty, pile, facts)
    }

    /// [`YakuTable::update`] with the yaku to evaluate again already found
    /// ([`YakuTable::touched`] of the changed cards), for a caller that needs them itself.
    #[inline]
    pub fn update_touched(
        &self,
        score: &mut YakuScore,
        touched: u64,
        pile: CardSet,
        facts: &[i64],
    ) -> bool {
        self.reevaluate(&self.plan().groups, score, touched, pile, facts)
    }

    /// False when no yaku of `touched` (whole groups) can hold on `pile`: each of their groups
    /// misses the bound every pile holding one of its yaku meets. Updating a score of a smaller
    /// pile for them then changes nothing (none of them held there either).
    #[inline]
    pub fn may_hold(&self, touched: u64, pile: CardSet) -> bool {
        let groups = &self.plan().groups;
        let mut rest = touched;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize % MAX_YAKU;
            if !groups.misses(i, pile) {
                return true;
            }
            rest &= !groups.rivals[i] & (rest - 1);
        }
        false
    }

    /// The yaku [`YakuTable::update`] evaluates again when `cards` change (with every yaku of
    /// their groups).
    #[inline]
    pub fn touched(&self, cards: CardSet) -> u64 {
        self.plan().touched(cards)
    }

    /// True when a yaku reads a fact (`round`, `calls`, a card choice, ...): a change of facts
    /// in the middle of a hand can change what the pile scores.
    pub fn reads_facts(&self) -> bool {
        self.plan().by_facts != 0
    }

    /// `facts` with those no yaku reads set to 0: every yaku scores every pile the same under
    /// both, so they may share what is computed from the table under facts (a bot's probes).
    pub fn narrow_facts(&self, facts: super::YakuFacts) -> super::YakuFacts {
        let read = self.plan().facts_read;
        let mut narrowed = facts;
        for (i, f) in narrowed.iter_mut().enumerate() {
            if i < 64 && read >> i & 1 == 0 {
                *f = 0;
            }
        }
        narrowed
    }

    fn plan(&self) -> &Plan {
        let plan = self.plan.get_or_init(|| Box::new(self.make_plan()));
        debug_assert!(
            **plan == self.make_plan(),
            "the yaku changed after the table was used"
        );
        plan
    }

    fn make_plan(&self) -> Plan {
        let mut members = vec![0u64; self.groups.len().max(MAX_YAKU)];
        for (i, y) in self.yaku.iter().enumerate() {
            if let Some(g) = y.group {
                members[g] |= 1 << i;
            }
        }
        let mut by_card = [0u64; CardSet::CAPACITY];
        let mut by_facts = 0;
        let mut facts_read = 0;
        let mut groups = Groups {
            rivals: [0; MAX_YAKU],
            gates: [(CardSet::EMPTY, 0); MAX_YAKU],
        };
        for (i, y) in self.yaku.iter().enumerate() {
            let closed = y.group.map_or(1 << i, |g| members[g]);
            groups.rivals[i] = closed;
            // Some member holds only where its bound is met: where the union of their sets
            // holds the least of their counts.
            let mut gate = (CardSet::EMPTY, u32::MAX);
            for j in (0..self.yaku.len()).filter(|j| closed >> j & 1 == 1) {
                let (set, n) = self.yaku[j].when.needs();
                gate = (gate.0 | set, gate.1.min(n));
            }
            groups.gates[i] = gate;
            for card in (y.when.cards_read() | y.points.cards_read()).iter() {
                by_card[card.index()] |= closed;
            }
            if y.when.reads_facts() || y.points.reads_facts() {
                by_facts |= closed;
            }
            facts_read |= y.when.facts_read() | y.points.facts_read();
        }
        let mut empty = YakuScore::default();
        let dirty = self.all() & !by_facts;
        self.reevaluate(&groups, &mut empty, dirty, CardSet::EMPTY, &[]);
        let read = (0..CardSet::CAPACITY)
            .filter(|&c| by_card[c] != 0)
            .map(|c| crate::deck::CardId(c as u8))
            .collect();
        Plan {
            by_card,
            read,
            by_facts,
            facts_read,
            groups,
            empty,
        }
    }

    /// A mask of every yaku of the table.
    fn all(&self) -> u64 {
        match self.yaku.len() {
            MAX_YAKU => u64::MAX,
            n => (1 << n) - 1,
        }
    }

    /// Evaluates the yaku in `dirty` (whole groups) on `pile` into `score`, keeping the others.
    /// Returns true when one of them is new or scores more than before.
    fn reevaluate(
        &self,
        groups: &Groups,
        score: &mut YakuScore,
        dirty: u64,
        pile: CardSet,
        facts: &[i64],
    ) -> bool {
        let cx = Context { pile, facts };
        // Yaku that hold with more points than `score` gave them (0 when they did not count).
        let mut rose = 0u64;
        // Points are 0 outside the mask: only these have points to clear.
        let held_before = score.mask & dirty;
        score.mask &= !dirty;
        let mut rest = dirty;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            // The first of its group met here (groups are whole in `dirty`): when the pile
            // misses the group's bound, no member holds and the group is done at once.
            if groups.misses(i, pile) {
                let group = groups.rivals[i];
                rest &= !group;
                let mut cleared = held_before & group;
                while cleared != 0 {
                    score.points[cleared.trailing_zeros() as usize] = 0;
                    cleared &= cleared - 1;
                }
                continue;
            }
            rest &= rest - 1;
            let y = &self.yaku[i];
            let before = std::mem::take(&mut score.points[i]);
            if !y.when.truth(&cx) {
                continue;
            }
            let points = y
                .points
                .int(&cx)
                .clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
            if points > before {
                rose |= 1 << i;
            }
            // The group's best so far, if one of it holds (a yaku without a group has no
            // rival, and its own bit was cleared above): only the highest-scoring counts.
            let best = score.mask & groups.rivals[i];
            if best != 0 {
                let b = best.trailing_zeros() as usize;
                if points <= score.points[b] {
                    continue;
                }
                score.points[b] = 0;
                score.mask &= !best;
            }
            score.mask |= 1 << i;
            score.points[i] = points;
        }
        score.mask & rose != 0
    }
}

impl Plan {
    /// The yaku a change of `cards` can affect.
    #[inline]
    fn touched(&self, cards: CardSet) -> u64 {
        (cards & self.read)
            .iter()
            .fold(0, |d, card| d | self.by_card[card.index()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Yaku tables to check: the bundled ones and one with awkward shapes (points that fall to
    /// zero (negative points are a load error), groups whose members read different cards, facts, the pile as a set, yaku held
    /// on the empty pile).
    fn tables() -> &'static [YakuTable] {
        static TABLES: std::sync::OnceLock<Vec<YakuTable>> = std::sync::OnceLock::new();
        TABLES.get_or_init(load_tables)
    }

    fn load_tables() -> Vec<YakuTable> {
        let awkward = r#"
[ruleset]
id = "awkward"
extends = "koikoi"

[[yaku]]
id = "minus"
when = "count(plain) >= 2"
points = "max(0, 3 - count(plain))"
group = "odd"

[[yaku]]
id = "zero"
when = "any(animal)"
points = "0"
group = "odd"

[[yaku]]
id = "crane-or-month"
when = "has(pine-crane) or count(month(round)) >= 2"
points = "if is_dealer == 1 then 2 else round"
group = "odd"

[[yaku]]
id = "whole-pile"
when = "count(pile) > 7"
points = "max(0, count(pile & ribbon) - 1)"

[[yaku]]
id = "zero-alone"
when = "any(rain)"
points = "0"

[[yaku]]
id = "bare"
when = "count(ribbon) < 1"
points = "2"

[[yaku]]
id = "bare-in-group"
when = "not any(bright)"
points = "1"
group = "odd"
"#;
        let mut tables: Vec<YakuTable> = ["koikoi", "koikoi-ktane", "koikoi-classic"]
            .iter()
            .map(|n| crate::ruleset::load(n).value.unwrap().yaku)
            .collect();
        let loaded = crate::ruleset::load_str("awkward.toml", awkward);
        let messages: Vec<_> = loaded.diagnostics.iter().map(|d| &d.message).collect();
        tables.push(loaded.value.unwrap_or_else(|| panic!("{messages:?}")).yaku);
        tables
    }

    /// Every yaku evaluated in table order with the group rule: the plain meaning of a table.
    fn reference(table: &YakuTable, pile: CardSet, facts: &[i64]) -> YakuScore {
        let cx = Context { pile, facts };
        let mut score = YakuScore::default();
        let mut best = [usize::MAX; MAX_YAKU];
        for (i, y) in table.yaku.iter().enumerate() {
            if !y.when.truth(&cx) {
                continue;
            }
            let points = y.points.int(&cx).clamp(i32::MIN.into(), i32::MAX.into()) as i32;
            match y.group {
                None => {
                    score.mask |= 1 << i;
                    score.points[i] = points;
                }
                Some(g) if best[g] == usize::MAX || points > score.points[best[g]] => {
                    if best[g] != usize::MAX {
                        score.mask &= !(1 << best[g]);
                        score.points[best[g]] = 0;
                    }
                    best[g] = i;
                    score.mask |= 1 << i;
                    score.points[i] = points;
                }
                Some(_) => {}
            }
        }
        score
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Evaluating a pile, refreshing an earlier score and updating it card by card all give
        /// the plain meaning, and a refresh or an update says when the new score improves on the
        /// one before.
        #[test]
        fn update_is_evaluate(
            seed in any::<u64>(),
            round in 1i64..=12,
            rounds in prop::sample::select(vec![0i64, 3, 12]),
            dealer in 0i64..=1,
        ) {
            use rand::{RngExt, SeedableRng};
            let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
            let facts = [round, rounds, dealer];
            for table in tables() {
                let mut pile = CardSet::EMPTY;
                let mut score = reference(table, pile, &facts);
                for _ in 0..24 {
                    let before = pile;
                    // Mostly a few cards gained, as in play; sometimes an unrelated pile.
                    if rng.random_range(0..8) == 0 {
                        pile = CardSet::low(rng.random::<u64>()) & CardSet::first(48);
                    } else {
                        for _ in 0..rng.random_range(0..4) {
                            pile.insert(crate::deck::CardId(rng.random_range(0..48)));
                        }
                    }
                    let fresh = reference(table, pile, &facts);
                    prop_assert_eq!(table.evaluate(pile, &facts), fresh);
                    // A group said unable to hold holds nowhere on the pile.
                    let changed = (pile - before) | (before - pile);
                    let touched = table.touched(changed);
                    if !table.may_hold(touched, pile) {
                        prop_assert_eq!(fresh.mask & touched, 0);
                    }
                    let improved = fresh.improves_on(&score);
                    let mut refreshed = score;
                    prop_assert_eq!(table.refresh(&mut refreshed, pile, &facts), improved);
                    prop_assert_eq!(refreshed, fresh);
                    prop_assert_eq!(table.update(&mut score, changed, pile, &facts), improved);
                    prop_assert_eq!(score, fresh);
                }
            }
        }
    }
}
