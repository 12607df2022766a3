//! The functions that tell poker hands apart, as data a `[[flow.hand_rank]]` reads: a run of
//! consecutive values (`run`, `suited_run`), a flush counting wild cards (`suits_with(N, WILD)`)
//! and the order within a class (`tiebreak`).
//!
//! They exist so that a ranking of five-card hands (Pai Gow Poker's, or any poker game's) is
//! written in the ruleset, not in the engine: which attribute the values come from decides
//! whether an ace is high or low (a deck may carry both, `rank` with the Ace 1 and `high` with
//! the Ace 14), and which cards are wild is an argument (a joker completing a straight or a
//! flush). Each is one node of a compiled expression, [`HandFn`], evaluated over the pile's
//! cards without allocating.

use crate::deck::CardSet;

/// The largest attribute value `run` and `tiebreak` accept: values are bits of a 64-bit mask.
pub const MAX_VALUE: i64 = 63;

/// A hand function with its arguments compiled.
#[derive(Clone, Debug)]
pub(super) enum HandFn<N> {
    /// `run(ATTR, N[, WILD])`, or `suited_run` when `suits` is given: the highest value that
    /// ends `n` consecutive values among the pile's cards (of one suit), the cards of `wild`
    /// standing for any value; 0 when there is none.
    Run {
        values: Box<[i64]>,
        suits: Option<Box<[CardSet]>>,
        n: u32,
        wild: N,
        /// The least and greatest value a card of the deck has: runs stay within them.
        lo: i64,
        hi: i64,
    },
    /// `suits_with(N, WILD)`: how many suits the pile holds `n` or more cards of, the pile's
    /// cards of `wild` counting in every suit (and not in their own).
    SuitsWild {
        suits: Box<[CardSet]>,
        n: N,
        wild: N,
    },
    /// `tiebreak(ATTR, N)`: the pile's values, the values held most often first and higher
    /// first among those held as often, one digit a card in base `base`, the first `n` digits
    /// (0 for a card the pile lacks).
    Tiebreak {
        values: Box<[i64]>,
        n: u32,
        base: i64,
    },
}

impl<N> HandFn<N> {
    /// The least and greatest value, the sub-expressions' bounds checked by `check`.
    pub(super) fn bounds(&self) -> (i128, i128) {
        match self {
            HandFn::Run { hi, .. } => (0, i128::from(*hi).max(0)),
            HandFn::SuitsWild { suits, .. } => (0, suits.len() as i128),
            HandFn::Tiebreak { n, base, .. } => (0, i128::from(*base).pow(*n) - 1),
        }
    }

    /// The sub-expressions (for bounds, facts read and cards read).
    pub(super) fn children(&self) -> Vec<&N> {
        match self {
            HandFn::Run { wild, .. } => vec![wild],
            HandFn::SuitsWild { n, wild, .. } => vec![n, wild],
            HandFn::Tiebreak { .. } => Vec::new(),
        }
    }

    /// The value for `pile`; `int` and `set` evaluate the sub-expressions.
    pub(super) fn int(
        &self,
        pile: CardSet,
        int: impl Fn(&N) -> i64,
        set: impl Fn(&N) -> CardSet,
    ) -> i64 {
        match self {
            HandFn::Run {
                values,
                suits,
                n,
                wild,
                lo,
                hi,
            } => {
                let wild = set(wild) & pile;
                let plain = pile - wild;
                let w = wild.len();
                match suits {
                    None => run_top(values, plain, w, *n, *lo, *hi),
                    Some(suits) => suits
                        .iter()
                        .map(|s| run_top(values, plain & *s, w, *n, *lo, *hi))
                        .max()
                        .unwrap_or(0),
                }
            }
            HandFn::SuitsWild { suits, n, wild } => {
                let wild = set(wild) & pile;
                let plain = pile - wild;
                let (n, w) = (int(n), i64::from(wild.len()));
                suits
                    .iter()
                    .filter(|s| i64::from((**s & plain).len()) + w >= n)
                    .count() as i64
            }
            HandFn::Tiebreak { values, n, base } => tiebreak(values, pile, *n, *base),
        }
    }
}

/// The top of the highest run of `n` consecutive values among `plain`'s cards, `wild` cards
/// filling the gaps, the run within `lo..=hi`; 0 when there is none.
fn run_top(values: &[i64], plain: CardSet, wild: u32, n: u32, lo: i64, hi: i64) -> i64 {
    let mut held = 0u64;
    for c in plain.iter() {
        if let Some(&v) = values.get(c.index())
            && (0..=MAX_VALUE).contains(&v)
        {
            held |= 1 << v;
        }
    }
    let n = i64::from(n);
    if n < 1 {
        return 0;
    }
    let mut top = hi;
    while top - n + 1 >= lo {
        let bottom = top - n + 1;
        let window = (u64::MAX >> (64 - n)) << bottom;
        if i64::from((held & window).count_ones()) + i64::from(wild) >= n {
            return top;
        }
        top -= 1;
    }
    0
}

/// The pile's values as one number ordered as poker orders hands of one class: see
/// [`HandFn::Tiebreak`].
fn tiebreak(values: &[i64], pile: CardSet, n: u32, base: i64) -> i64 {
    let mut counts = [0u8; (MAX_VALUE + 1) as usize];
    for c in pile.iter() {
        if let Some(&v) = values.get(c.index())
            && let Ok(v) = usize::try_from(v)
            && v < counts.len()
        {
            counts[v] = counts[v].saturating_add(1);
        }
    }
    let most = counts.iter().copied().max().unwrap_or(0);
    let mut key = 0i64;
    let mut digits = 0;
    // The values by how often they are held, then by value: most often and highest first.
    for times in (1..=most).rev() {
        for v in (0..counts.len()).rev() {
            if counts[v] != times {
                continue;
            }
            for _ in 0..times {
                if digits == n {
                    return key;
                }
                key = key * base + v as i64;
                digits += 1;
            }
        }
    }
    while digits < n {
        key *= base;
        digits += 1;
    }
    key
}

#[cfg(test)]
mod tests {
    use crate::expr::{Context, Names, Type, compile_str};

    /// The value of `text` over the cards `ids` of the 53-card pack.
    fn value(text: &str, ids: &[&str]) -> i64 {
        let deck = crate::ruleset::load_deck("french-53")
            .value
            .expect("the 53-card pack loads");
        let names = Names::of(&deck, &[]);
        let p = compile_str(text, Type::Int, &names).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        let pile = ids
            .iter()
            .map(|id| deck.card_by_id(id).unwrap_or_else(|| panic!("{id}")))
            .collect();
        p.int(&Context { pile, facts: &[] })
    }

    /// A run's top, aces high with `high` and low with `rank`; the joker fills a gap, at the
    /// top when it can.
    #[test]
    fn a_run_is_found_with_aces_high_or_low_and_a_wild_card() {
        let broadway = [
            "spades-ten",
            "hearts-jack",
            "spades-queen",
            "clubs-king",
            "diamonds-ace",
        ];
        assert_eq!(value("run(high, 5)", &broadway), 14);
        assert_eq!(value("run(rank, 5)", &broadway), 0, "an ace is 1 in `rank`");
        let wheel = [
            "spades-ace",
            "hearts-two",
            "spades-three",
            "clubs-four",
            "diamonds-five",
        ];
        assert_eq!(value("run(high, 5)", &wheel), 0);
        assert_eq!(value("run(rank, 5)", &wheel), 5);
        // 9-10-J-Q and the joker: the joker is the King, not the Eight.
        let open = [
            "spades-nine",
            "hearts-ten",
            "spades-jack",
            "clubs-queen",
            "joker",
        ];
        assert_eq!(value("run(high, 5, joker)", &open), 13);
        assert_eq!(
            value("run(high, 5)", &open),
            0,
            "without the wild card, no run"
        );
        // 2-3-4-6 and the joker: the joker is the Five.
        let gap = [
            "spades-two",
            "hearts-three",
            "spades-four",
            "clubs-six",
            "joker",
        ];
        assert_eq!(value("run(high, 5, joker)", &gap), 6);
        // A-2-3-4 and the joker: a wheel in `rank`, nothing in `high`.
        let low = [
            "spades-ace",
            "hearts-two",
            "spades-three",
            "clubs-four",
            "joker",
        ];
        assert_eq!(value("run(rank, 5, joker)", &low), 5);
        assert_eq!(value("run(high, 5, joker)", &low), 0);
        // A pair is not a run: 2-3-3-4-5.
        let pair = [
            "spades-two",
            "hearts-three",
            "spades-three",
            "clubs-four",
            "clubs-five",
        ];
        assert_eq!(value("run(high, 5)", &pair), 0);
    }

    /// A flush and a straight flush count the joker in every suit.
    #[test]
    fn a_flush_counts_the_wild_card_in_every_suit() {
        let four = [
            "hearts-two",
            "hearts-seven",
            "hearts-nine",
            "hearts-king",
            "joker",
        ];
        assert_eq!(value("suits_with(5)", &four), 0);
        assert_eq!(value("suits_with(5, joker)", &four), 1);
        let sf = [
            "hearts-five",
            "hearts-six",
            "hearts-seven",
            "hearts-eight",
            "joker",
        ];
        assert_eq!(value("suited_run(high, 5, joker)", &sf), 9);
        let mixed = [
            "hearts-five",
            "hearts-six",
            "clubs-seven",
            "hearts-eight",
            "joker",
        ];
        assert_eq!(value("suited_run(high, 5, joker)", &mixed), 0);
        assert_eq!(value("run(high, 5, joker)", &mixed), 9);
    }

    /// Two pair by the higher pair, then the lower, then the kicker; a two-card hand against
    /// the first two cards of a five-card one.
    #[test]
    fn the_tiebreak_orders_by_groups_then_values() {
        let kings_fives = [
            "spades-king",
            "hearts-king",
            "spades-five",
            "clubs-five",
            "clubs-nine",
        ];
        let queens_jacks = [
            "spades-queen",
            "hearts-queen",
            "spades-jack",
            "clubs-jack",
            "clubs-ace",
        ];
        let (a, b) = (
            value("tiebreak(high, 5)", &kings_fives),
            value("tiebreak(high, 5)", &queens_jacks),
        );
        assert!(a > b, "{a} {b}");
        // K K 5 5 9 in base 15.
        assert_eq!(a, (((13 * 15 + 13) * 15 + 5) * 15 + 5) * 15 + 9);
        // A-K in two cards is above A-9-7-4-3 in five.
        let two = value("tiebreak(high, 5)", &["spades-ace", "hearts-king"]);
        let five = value(
            "tiebreak(high, 5)",
            &[
                "clubs-ace",
                "hearts-nine",
                "hearts-seven",
                "clubs-four",
                "clubs-three",
            ],
        );
        assert!(two > five);
        // The joker counts as an ace here (its `high` is 14): with an ace, a pair of aces.
        let bug = value("tiebreak(high, 2)", &["spades-ace", "joker"]);
        assert_eq!(bug, 14 * 15 + 14);
    }

    /// Bad arguments are refused when the expression is read.
    #[test]
    fn bad_arguments_are_refused() {
        let deck = crate::ruleset::load_deck("french-53")
            .value
            .expect("the 53-card pack loads");
        let names = Names::of(&deck, &[]);
        for (text, says) in [
            ("run(rank, count(pile))", "a number written out"),
            ("run(rank, 0)", "1 to"),
            ("tiebreak(rank, 20)", "1 to"),
            ("run(rank, 5, 3)", "card set"),
            ("run(colour, 5)", "unknown card attribute"),
        ] {
            let err = compile_str(text, Type::Int, &names).unwrap_err();
            assert!(
                err.iter().any(|e| e.message.contains(says)),
                "{text}: {err:?}"
            );
        }
    }
}
