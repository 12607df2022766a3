//! The loaded, checked form of a ruleset: what the game core, agents and CLI work with.

use crate::deck::{CardSet, Deck};
use crate::expr::{Context, Program};
use crate::script::ScoringScript;

/// The facts the core provides to yaku expressions, in this order.
pub const YAKU_FACTS: &[&str] = &["round", "rounds", "is_dealer"];

/// A loaded, valid ruleset.
#[derive(Clone, Debug)]
pub struct Ruleset {
    /// The ruleset's id (`koikoi`).
    pub id: String,
    /// The display name.
    pub name: String,
    /// What it is, for players.
    pub description: String,
    /// The rule sources it follows.
    pub sources: Vec<String>,
    /// Notes on interpretation and open questions.
    pub notes: Vec<String>,
    /// The deck, with the ruleset's changes to card kinds applied.
    pub deck: Deck,
    /// The yaku table.
    pub yaku: YakuTable,
    /// How a game flows.
    pub flow: Flow,
    /// The scoring script, if any; without one a hand scores its base points.
    pub scoring: Option<ScoringScript>,
    /// A hash of every source text the ruleset was built from (for game records).
    pub content_hash: u64,
}

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
    by_card: [u64; 64],
    /// The yaku that read a fact, with every yaku of their groups.
    by_facts: u64,
    /// The other yaku evaluated on the empty pile: they need no facts.
    empty: YakuScore,
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

impl YakuScore {
    /// The sum of the points of the yaku that count.
    pub fn base(&self) -> i64 {
        self.iter().map(|i| i64::from(self.points[i])).sum()
    }

    /// The indices of the yaku that count, in table order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        let mut rest = self.mask;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                i
            })
        })
    }

    /// True when some yaku is new or scores more than in `before` (the koi-koi decision point).
    pub fn improves_on(&self, before: &YakuScore) -> bool {
        self.iter().any(|i| self.points[i] > before.points[i])
    }
}

impl YakuTable {
    /// Evaluates every yaku on `pile`, applying the group rule. Allocation-free.
    ///
    /// Only the yaku that read a fact or a card of `pile` are evaluated: the others hold what
    /// they hold on the empty pile, which is known in advance.
    pub fn evaluate(&self, pile: CardSet, facts: &[i64]) -> YakuScore {
        let plan = self.plan();
        let mut score = plan.empty;
        let dirty = plan.by_facts | plan.touched(pile);
        self.reevaluate(&mut score, dirty, pile, facts);
        score
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
        let dirty = self.plan().touched(changed);
        self.reevaluate(score, dirty, pile, facts)
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
        let mut by_card = [0u64; 64];
        let mut by_facts = 0;
        for (i, y) in self.yaku.iter().enumerate() {
            let closed = y.group.map_or(1 << i, |g| members[g]);
            for card in (y.when.cards_read() | y.points.cards_read()).iter() {
                by_card[card.index()] |= closed;
            }
            if y.when.reads_facts() || y.points.reads_facts() {
                by_facts |= closed;
            }
        }
        let mut empty = YakuScore::default();
        self.reevaluate(&mut empty, self.all() & !by_facts, CardSet::EMPTY, &[]);
        Plan {
            by_card,
            by_facts,
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
    fn reevaluate(&self, score: &mut YakuScore, dirty: u64, pile: CardSet, facts: &[i64]) -> bool {
        let cx = Context { pile, facts };
        // Yaku that hold with more points than `score` gave them (0 when they did not count).
        let mut rose = 0u64;
        score.mask &= !dirty;
        // best[g] = index of the best yaku so far in group g.
        let mut best = [u8::MAX; MAX_YAKU];
        let mut rest = dirty;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
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
            match y.group {
                None => {
                    score.mask |= 1 << i;
                    score.points[i] = points;
                }
                Some(g) => {
                    let b = best[g] as usize;
                    if b == usize::from(u8::MAX) || points > score.points[b] {
                        if b != usize::from(u8::MAX) {
                            score.mask &= !(1 << b);
                            score.points[b] = 0;
                        }
                        best[g] = i as u8;
                        score.mask |= 1 << i;
                        score.points[i] = points;
                    }
                }
            }
        }
        score.mask & rose != 0
    }
}

impl Plan {
    /// The yaku a change of `cards` can affect.
    fn touched(&self, cards: CardSet) -> u64 {
        cards
            .iter()
            .fold(0, |d, card| d | self.by_card[card.index()])
    }
}

/// A check on a dealt hand or table: an instant win, or a redeal.
#[derive(Clone, Debug)]
pub struct DealCheck {
    /// Its id (`teshi`).
    pub id: String,
    /// Its display name.
    pub name: String,
    /// When the hand (or table) qualifies.
    pub when: Program,
    /// The text of `when`, as written (for rule sheets).
    pub when_source: String,
    /// Points awarded (instant wins).
    pub points: i64,
}

/// Who deals the next hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextDealer {
    /// The winner of the hand deals.
    Winner,
    /// The same dealer deals again.
    Same,
    /// The deal passes to the other player.
    Alternate,
}

/// How long a game lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameLength {
    /// A fixed number of hands.
    Rounds(u32),
    /// Until a player reaches a score (with a cap on hands so a game always ends).
    Target {
        /// The score that ends the game.
        score: i64,
        /// Hands after which the game ends anyway.
        max_rounds: u32,
    },
}

/// What happens when both hands run out with no one stopping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exhausted {
    /// No points; the hand is a draw.
    Draw,
    /// The dealer scores these points (oya-ken, the dealer's privilege).
    DealerScores(i64),
}

/// What happens when both players hold an instant win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BothInstant {
    /// The hand is a draw.
    Draw,
    /// The dealer's instant win counts.
    Dealer,
}

/// Who deals first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstDealer {
    /// The first seat.
    First,
    /// Drawn by the seed.
    Random,
}

/// The flow of a matching game (Koi-Koi and its relatives).
#[derive(Clone, Debug)]
pub struct MatchingFlow {
    /// Cards in each hand after the deal.
    pub hand_size: u32,
    /// Cards face up on the table after the deal.
    pub table_size: u32,
    /// Cards dealt at a time.
    pub deal_packet: u32,
    /// The order packets go in.
    pub deal_order: Vec<DealTarget>,
    /// How long a game lasts.
    pub length: GameLength,
    /// Who deals first.
    pub first_dealer: FirstDealer,
    /// Who deals after a won hand.
    pub next_dealer: NextDealer,
    /// Who deals after a drawn hand.
    pub draw_dealer: NextDealer,
    /// Whether a player may call koi-koi at all.
    pub koikoi: bool,
    /// Whether a player with an empty hand may call koi-koi.
    pub koikoi_on_empty_hand: bool,
    /// Whether the non-dealer may take the dealer's hand after the deal.
    pub dealer_hand_swap: bool,
    /// Cards that match any card when played or drawn.
    pub wild: CardSet,
    /// What happens when both hands run out.
    pub exhausted: Exhausted,
    /// Instant wins checked on each hand after the deal.
    pub instant_wins: Vec<DealCheck>,
    /// What happens when both hands hold an instant win.
    pub both_instant: BothInstant,
    /// Redeal conditions checked on the table after the deal.
    pub redeals: Vec<DealCheck>,
    /// Counted on the table at the deal and given to the scoring script as `table_count`.
    pub table_count: Option<Program>,
}

/// Where a packet of the deal goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DealTarget {
    /// The dealer's hand.
    Dealer,
    /// The other player's hand.
    Opponent,
    /// Face up on the table.
    Table,
}

/// The flow of a banker game (Kol-ye-si and its relatives): players bet against a banker,
/// draw more tiles, and compare hand values at a showdown.
#[derive(Clone, Debug)]
pub struct BankerFlow {
    /// Players against the banker when the command line does not say.
    pub players: u32,
    /// The most players a table seats.
    pub max_players: u32,
    /// Tiles each player receives before betting.
    pub first_tiles: u32,
    /// Tiles the banker draws after the bets.
    pub banker_tiles: u32,
    /// How many more tiles a player may choose to take (e.g. 1 or 2).
    pub draw_options: Vec<u32>,
    /// The smallest bet.
    pub min_bet: i64,
    /// The largest bet.
    pub max_bet: i64,
    /// Chips each player starts with.
    pub bankroll: i64,
    /// Chips the banker starts with (`None`: the banker's purse is unlimited).
    pub banker_bankroll: Option<i64>,
    /// Hands in a session.
    pub hands: u32,
    /// Conditions on the banker's first tiles that win every bet at once.
    pub banker_wins: Vec<DealCheck>,
    /// A hand's value at the showdown; the higher value wins, equal values draw.
    pub value: Program,
    /// The value's formula as written, for rule listings.
    pub value_source: String,
}

/// How a game flows: the family of game the core plays.
#[derive(Clone, Debug)]
pub enum Flow {
    /// Players match cards from hand and stock with the table (Koi-Koi).
    Matching(std::sync::Arc<MatchingFlow>),
    /// Players bet against a banker and compare hands at a showdown (Kol-ye-si).
    Banker(std::sync::Arc<BankerFlow>),
}

impl Ruleset {
    /// The matching-game flow, when this is a matching game.
    pub fn matching(&self) -> Option<&std::sync::Arc<MatchingFlow>> {
        match &self.flow {
            Flow::Matching(f) => Some(f),
            Flow::Banker(_) => None,
        }
    }

    /// The banker-game flow, when this is a banker game.
    pub fn banker(&self) -> Option<&std::sync::Arc<BankerFlow>> {
        match &self.flow {
            Flow::Banker(f) => Some(f),
            Flow::Matching(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Yaku tables to check: the bundled ones and one with awkward shapes (negative and zero
    /// points, groups whose members read different cards, facts, the pile as a set, yaku held
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
points = "3 - count(plain)"
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
points = "count(pile & ribbon) - 1"

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
        /// Evaluating a pile and updating a score card by card both give the plain meaning, and
        /// an update says when the new score improves on the one before.
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
                        pile = CardSet(rng.random::<u64>()) & CardSet::first(48);
                    } else {
                        for _ in 0..rng.random_range(0..4) {
                            pile.insert(crate::deck::CardId(rng.random_range(0..48)));
                        }
                    }
                    let fresh = reference(table, pile, &facts);
                    prop_assert_eq!(table.evaluate(pile, &facts), fresh);
                    let improved = fresh.improves_on(&score);
                    let changed = (pile - before) | (before - pile);
                    prop_assert_eq!(table.update(&mut score, changed, pile, &facts), improved);
                    prop_assert_eq!(score, fresh);
                }
            }
        }
    }
}
