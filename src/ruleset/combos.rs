//! Combinations of several cards as data (`[[flow.combination]]`): how a set of cards is
//! recognised as a class (a pair, a straight, a full house), how two plays of one class
//! compare, which classes beat which, and every play of a class a hand holds. Cards are ranked
//! by a [`CardOrder`] the ruleset gives (ranks and suits in order, twos high and diamonds low
//! in Big Two); no game is named here, so any family that plays or compares combinations (a
//! climbing game, a hand set against a banker's) reads the same table.

use crate::deck::{CardId, CardSet};

/// How two plays of one class compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareBy {
    /// By the highest card: its rank, then its suit (a run by its top rank in the run order).
    Highest,
    /// By the rank of the largest group (a full house by its triple), then that group's highest
    /// suit.
    Group,
    /// Card by card from the highest (a flush: the highest cards, then the next).
    Cards,
}

/// One class of combination (`[[flow.combination]]`).
#[derive(Clone, Debug)]
pub struct Combination {
    /// Its id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// How many cards it takes.
    pub size: u32,
    /// The sizes of its groups of one rank, largest first (`[3, 2]`: a full house); empty for a
    /// class that asks no ranks alike (a flush).
    pub groups: Vec<u32>,
    /// The groups' ranks follow one another in the run order (a straight; consecutive pairs).
    pub run: bool,
    /// Every card of one suit.
    pub suited: bool,
    /// How two plays of the class compare.
    pub compare: CompareBy,
    /// The other classes a play of this class beats whatever their cards (by index): in Big
    /// Two a full house beats any straight or flush.
    pub beats: Vec<u16>,
}

/// How cards rank for combinations: each card's rank and suit position (0 the lowest), and its
/// rank's place in the run order.
#[derive(Clone, Debug, Default)]
pub struct CardOrder {
    /// Each card's rank position, by card index.
    pub rank: Vec<u8>,
    /// Each card's suit position, by card index.
    pub suit: Vec<u8>,
    /// The cards of each rank position, lowest first.
    pub ranks: Vec<CardSet>,
    /// The cards of each suit position, lowest first.
    pub suits: Vec<CardSet>,
    /// The rank positions in the order runs follow (a rank absent cannot sit in a run).
    pub run: Vec<u8>,
}

impl CardOrder {
    /// A card's value for comparing single cards: its rank, then its suit.
    #[inline]
    pub fn value(&self, card: CardId) -> u32 {
        u32::from(self.rank[card.index()]) * self.suits.len() as u32
            + u32::from(self.suit[card.index()])
    }

    /// The highest card of `cards` by rank then suit.
    #[inline]
    pub fn highest(&self, cards: CardSet) -> Option<CardId> {
        cards.iter().max_by_key(|&c| self.value(c))
    }

    /// The card of `cards` whose value `by` ranks highest (`Reverse`: the lowest card).
    pub fn highest_by<K: Ord>(&self, cards: CardSet, by: impl Fn(u32) -> K) -> Option<CardId> {
        cards.iter().max_by_key(|&c| by(self.value(c)))
    }

    /// The ranks `cards` hold, as a mask of rank positions, and each rank's count.
    fn rank_counts(&self, cards: CardSet) -> (u64, [u8; 16], usize) {
        // Counts of each distinct rank held, in rank order (at most 16 distinct ranks in one
        // play: no class is larger).
        let mut mask = 0u64;
        let mut counts = [0u8; 16];
        let mut n = 0;
        for (r, &set) in self.ranks.iter().enumerate() {
            let c = (cards & set).len();
            if c > 0 {
                mask |= 1 << r;
                if n < 16 {
                    counts[n] = c as u8;
                }
                n += 1;
            }
        }
        (mask, counts, n)
    }
}

/// A play recognised: its class and its key within the class (the higher beats the lower).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Play {
    /// The class's index in the ruleset's list.
    pub class: u16,
    /// Its strength within the class.
    pub key: u64,
}

/// The most cards one combination takes.
pub const MAX_SIZE: u32 = 13;

/// A ruleset's combinations and card order.
#[derive(Clone, Debug, Default)]
pub struct CombinationTable {
    /// How cards rank.
    pub order: CardOrder,
    /// The classes, in the order they are tried: a play is the first class it fits.
    pub classes: Vec<Combination>,
    /// For each class, the earlier classes a set of its cards may also fit (of its size, and
    /// not told apart by their groups alone): the only ones [`CombinationTable::each`] asks.
    shadows: Vec<Vec<u16>>,
}

impl CombinationTable {
    /// The table of `classes` over `order`.
    pub fn new(order: CardOrder, classes: Vec<Combination>) -> CombinationTable {
        let shadows = (0..classes.len())
            .map(|k| {
                let c = &classes[k];
                (0..k)
                    .filter(|&j| {
                        let e = &classes[j];
                        e.size == c.size
                            && (e.groups.is_empty() || c.groups.is_empty() || e.groups == c.groups)
                    })
                    .map(|j| j as u16)
                    .collect()
            })
            .collect();
        CombinationTable {
            order,
            classes,
            shadows,
        }
    }

    /// The class `cards` form and their key, or `None` when they form none.
    pub fn classify(&self, cards: CardSet) -> Option<Play> {
        (0..self.classes.len()).find_map(|k| {
            self.key_if_fits(k, cards).map(|key| Play {
                class: k as u16,
                key,
            })
        })
    }

    /// True when `play` beats `led`: a higher key of the same class, or a class that beats
    /// `led`'s.
    #[inline]
    pub fn beats(&self, play: Play, led: Play) -> bool {
        if play.class == led.class {
            play.key > led.key
        } else {
            self.classes[play.class as usize].beats.contains(&led.class)
        }
    }

    /// The key of `cards` as a play of class `k`, when they fit it (not asking whether an
    /// earlier class fits them too).
    pub fn key_if_fits(&self, k: usize, cards: CardSet) -> Option<u64> {
        let c = &self.classes[k];
        let o = &self.order;
        if cards.len() != c.size {
            return None;
        }
        if c.suited && !o.suits.iter().any(|&s| s.contains_all(cards)) {
            return None;
        }
        let mut top_run = None;
        if !c.groups.is_empty() {
            let (mask, counts, n) = o.rank_counts(cards);
            if n != c.groups.len() {
                return None;
            }
            let mut counts = counts;
            counts[..n].sort_unstable_by(|a, b| b.cmp(a));
            if counts[..n]
                .iter()
                .zip(&c.groups)
                .any(|(&a, &b)| u32::from(a) != b)
            {
                return None;
            }
            if c.run {
                top_run = Some(self.run_top(mask, n)?);
            }
        }
        Some(self.key(c, cards, top_run))
    }

    /// The run position of the top of the run `mask` (rank positions) makes, `n` ranks long.
    fn run_top(&self, mask: u64, n: usize) -> Option<usize> {
        let run = &self.order.run;
        // The highest window of the run order that holds exactly these ranks.
        (0..=run.len().checked_sub(n)?)
            .rev()
            .find(|&p| {
                run[p..p + n].iter().fold(0u64, |m, &r| m | 1 << r) == mask
                    && run[p..p + n].iter().all(|&r| mask >> r & 1 == 1)
            })
            .map(|p| p + n - 1)
    }

    /// The key of `cards`, a play of class `c` (`top_run`: the run position of its top rank).
    fn key(&self, c: &Combination, cards: CardSet, top_run: Option<usize>) -> u64 {
        let o = &self.order;
        let suits = o.suits.len() as u64;
        if let Some(top) = top_run {
            let rank = o.run[top] as usize;
            let suit = o
                .highest(cards & o.ranks[rank])
                .map_or(0, |h| o.suit[h.index()]);
            return top as u64 * suits + u64::from(suit);
        }
        match c.compare {
            CompareBy::Highest => o.highest(cards).map_or(0, |h| u64::from(o.value(h))),
            CompareBy::Group => {
                // The rank with the most cards (the highest such rank).
                let mut best = (0u32, 0usize);
                for (r, &set) in o.ranks.iter().enumerate() {
                    let n = (cards & set).len();
                    if n > 0 && n >= best.0 {
                        best = (n, r);
                    }
                }
                o.highest(cards & o.ranks[best.1])
                    .map_or(0, |h| u64::from(o.value(h)))
            }
            CompareBy::Cards => {
                let mut values: Vec<u32> = cards.iter().map(|c| o.value(c)).collect();
                values.sort_unstable_by(|a, b| b.cmp(a));
                values
                    .iter()
                    .take(8)
                    .fold(0u64, |k, &v| k << 8 | u64::from(v.min(255)))
                    << (8 * (8 - values.len().min(8)))
            }
        }
    }

    /// At most how many plays of class `k` a hand of `hand` cards can hold (an upper bound,
    /// not an exact count): what [`CombinationTable::each`] may list on one lead. Validation
    /// refuses classes whose bound is too large to list at every move.
    pub fn most_plays(&self, k: usize, hand: u32) -> f64 {
        // No class holds more plays than the hand has sets of its size.
        self.class_plays(k, hand)
            .min(choose(hand, self.classes[k].size))
    }

    /// [`CombinationTable::most_plays`] from the class's shape alone.
    fn class_plays(&self, k: usize, hand: u32) -> f64 {
        let c = &self.classes[k];
        let o = &self.order;
        if c.groups.is_empty() {
            // A flush: the class's size from one suit.
            return o
                .suits
                .iter()
                .map(|s| choose(s.len().min(hand), c.size))
                .sum();
        }
        let copies: Vec<u32> = o.ranks.iter().map(|s| s.len()).collect();
        if c.run {
            let n = c.groups.len();
            return (0..=o.run.len().saturating_sub(n))
                .map(|p| {
                    let caps: Vec<u32> = o.run[p..p + n]
                        .iter()
                        .map(|&r| copies[r as usize])
                        .collect();
                    most_product(&c.groups, &caps, hand)
                })
                .sum();
        }
        // Distinct ranks for the groups (groups of one size in rising rank: each set of ranks
        // once), each the best a hand of `hand` cards could hold of the commonest ranks.
        let ranks = copies.len() as f64;
        let mut ways = 1.0;
        let mut same = 1.0;
        for (i, &g) in c.groups.iter().enumerate() {
            ways *= (ranks - i as f64).max(0.0);
            same = if i > 0 && c.groups[i - 1] == g {
                same + 1.0
            } else {
                1.0
            };
            ways /= same;
        }
        let most = copies.iter().copied().max().unwrap_or(0);
        ways * most_product(&c.groups, &vec![most; c.groups.len()], hand)
    }

    /// Calls `f` with every play of class `k` that `hand` holds and that beats `led` (every
    /// play of the class without one), as a set of cards and its key. A set that an earlier
    /// class fits is that class's, not this one's.
    pub fn each(
        &self,
        hand: CardSet,
        k: usize,
        led: Option<Play>,
        f: &mut dyn FnMut(CardSet, Play),
    ) {
        if let Some(led) = led
            && !(led.class as usize == k || self.classes[k].beats.contains(&led.class))
        {
            return;
        }
        let c = &self.classes[k];
        if c.size > hand.len() {
            return;
        }
        let shadows = &self.shadows[k];
        // `top`: the run position of a run's top rank, known from the window it was made in.
        let mut take = |cards: CardSet, top: Option<usize>| {
            if c.suited && !self.order.suits.iter().any(|&s| s.contains_all(cards)) {
                return;
            }
            if shadows
                .iter()
                .any(|&j| self.key_if_fits(j as usize, cards).is_some())
            {
                return;
            }
            let play = Play {
                class: k as u16,
                key: self.key(c, cards, top),
            };
            if led.is_none_or(|led| self.beats(play, led)) {
                f(cards, play);
            }
        };
        let o = &self.order;
        if c.groups.is_empty() {
            // Only `suited` binds (validation asks for `groups` or `suited`): the class's size
            // from each suit.
            for &suit in &o.suits {
                subsets(hand & suit, c.size, CardSet::EMPTY, &mut |cards| {
                    take(cards, None)
                });
            }
        } else if c.run {
            let g = c.groups[0];
            let n = c.groups.len();
            for p in 0..=o.run.len().saturating_sub(n) {
                let window = &o.run[p..p + n];
                if window
                    .iter()
                    .all(|&r| (hand & o.ranks[r as usize]).len() >= g)
                {
                    let top = Some(p + n - 1);
                    product(hand, &o.ranks, window, g, CardSet::EMPTY, &mut |cards| {
                        take(cards, top)
                    });
                }
            }
        } else {
            groups(
                hand,
                &o.ranks,
                &c.groups,
                0,
                u64::MAX,
                CardSet::EMPTY,
                &mut |cards| take(cards, None),
            );
        }
    }
}

/// The binomial coefficient `n` choose `k`, as a float (0 when `k > n`).
fn choose(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
}

/// The most ways a hand of `hand` cards can choose `groups[i]` cards from a rank of at most
/// `caps[i]` cards, for every `i` at once: the product of binomials, the hand's cards shared
/// out among the ranks as best they can be.
fn most_product(groups: &[u32], caps: &[u32], hand: u32) -> f64 {
    let budget = hand as usize;
    // best[b]: the largest product over the groups so far using at most b cards.
    let mut best = vec![1.0f64; budget + 1];
    for (&g, &cap) in groups.iter().zip(caps) {
        let mut next = vec![0.0f64; budget + 1];
        for (b, slot) in next.iter_mut().enumerate() {
            for held in g..=cap.min(b as u32) {
                let v = best[b - held as usize] * choose(held, g);
                if v > *slot {
                    *slot = v;
                }
            }
        }
        best = next;
    }
    best[budget]
}

/// Every subset of `from` of `n` cards, each with `with` added.
fn subsets(from: CardSet, n: u32, with: CardSet, f: &mut dyn FnMut(CardSet)) {
    if n == 0 {
        return f(with);
    }
    if from.len() < n {
        return;
    }
    let Some(first) = from.first_card() else {
        return;
    };
    let rest = from - CardSet::single(first);
    subsets(rest, n - 1, with | CardSet::single(first), f);
    subsets(rest, n, with, f);
}

/// Every choice of `g` cards of each rank of `window` from `hand`, each with `with` added.
fn product(
    hand: CardSet,
    ranks: &[CardSet],
    window: &[u8],
    g: u32,
    with: CardSet,
    f: &mut dyn FnMut(CardSet),
) {
    let Some((&r, rest)) = window.split_first() else {
        return f(with);
    };
    subsets(hand & ranks[r as usize], g, CardSet::EMPTY, &mut |chosen| {
        product(hand, ranks, rest, g, with | chosen, f)
    });
}

/// Every choice of distinct ranks for `sizes[i..]` (groups of one size in rising rank, so that
/// two pairs come once), each group's cards from `hand`, each with `with` added; `used` holds
/// the ranks taken and `below` bounds the rank of a group as large as the one before.
fn groups(
    hand: CardSet,
    ranks: &[CardSet],
    sizes: &[u32],
    i: usize,
    below: u64,
    with: CardSet,
    f: &mut dyn FnMut(CardSet),
) {
    let Some(&g) = sizes.get(i) else {
        return f(with);
    };
    let same_as_before = i > 0 && sizes[i - 1] == g;
    for (r, &set) in ranks.iter().enumerate() {
        if !(with & set).is_empty() {
            continue;
        }
        if same_as_before && (r as u64) <= below {
            continue;
        }
        let cards = hand & set;
        if cards.len() < g {
            continue;
        }
        subsets(cards, g, CardSet::EMPTY, &mut |chosen| {
            groups(hand, ranks, sizes, i + 1, r as u64, with | chosen, f)
        });
    }
}
