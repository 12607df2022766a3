//! `CardSet`: a set of cards of one deck as a bitset of [`CardBits`]: 64 bits, or 128 with the
//! `wide-decks` feature (decks of up to 128 cards: two 52-card packs).
//!
//! Every pile in the game (hands, table, captures, kinds, suits) is a `CardSet`, so the
//! set algebra of the expression language and the yaku table are single machine instructions.

use std::fmt;

/// The index of a card in its deck (0-based, in deck file order). A deck holds at most
/// [`CardSet::CAPACITY`] cards.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct CardId(pub u8);

impl CardId {
    /// Every card id of the largest deck, in index order (a deck's cards are the first of them).
    pub const ALL: [CardId; CardSet::CAPACITY] = {
        let mut all = [CardId(0); CardSet::CAPACITY];
        let mut i = 0;
        while i < CardSet::CAPACITY {
            all[i] = CardId(i as u8);
            i += 1;
        }
        all
    };

    /// The position of this card in its deck.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of cards of one deck, one bit per card.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub CardBits);

/// The bits of a [`CardSet`]: one per card of the largest deck. 64 by default: a 128-bit set
/// made a random Koi-Koi hand 35% dearer (9,276 to 12,568 instructions, `benches/callgrind.sh`),
/// so decks of more than 64 cards are a build option (`--features wide-decks`) until the game
/// types are generic over the width. Every use of the width goes through this type and
/// [`CardSet::CAPACITY`].
#[cfg(not(feature = "wide-decks"))]
pub type CardBits = u64;
/// The bits of a [`CardSet`]: one per card of the largest deck (128 with `wide-decks`).
#[cfg(feature = "wide-decks")]
pub type CardBits = u128;

impl CardSet {
    /// The largest number of cards a deck may hold.
    pub const CAPACITY: usize = CardBits::BITS as usize;
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);

    /// The set holding one card.
    pub fn single(card: CardId) -> CardSet {
        CardSet(1 << card.0)
    }

    /// The set of the first `n` cards (the whole deck when `n` is its size).
    pub fn first(n: usize) -> CardSet {
        if n >= Self::CAPACITY {
            CardSet(CardBits::MAX)
        } else {
            CardSet((1 << n) - 1)
        }
    }

    /// How many cards are in the set.
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set holds no card.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when `card` is in the set.
    pub fn contains(self, card: CardId) -> bool {
        self.0 >> card.0 & 1 == 1
    }

    /// True when every card of `other` is in `self`.
    pub fn contains_all(self, other: CardSet) -> bool {
        self.0 & other.0 == other.0
    }

    /// Adds one card.
    pub fn insert(&mut self, card: CardId) {
        self.0 |= 1 << card.0;
    }

    /// Removes one card.
    pub fn remove(&mut self, card: CardId) {
        self.0 &= !(1 << card.0);
    }

    /// Cards in either set.
    pub fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// Cards in both sets.
    pub fn intersection(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// Cards in `self` and not in `other`.
    pub fn difference(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// The card with the lowest index, if any.
    pub fn first_card(self) -> Option<CardId> {
        if self.0 == 0 {
            None
        } else {
            Some(CardId(self.0.trailing_zeros() as u8))
        }
    }

    /// The cards in increasing index order.
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }

    /// The set of the first 64 cards whose bits `bits` sets: random piles in tests, the same in
    /// either width.
    #[cfg(test)]
    #[allow(clippy::useless_conversion)] // The same type in the 64-bit build.
    pub(crate) fn low(bits: u64) -> CardSet {
        CardSet(bits.into())
    }

    /// The `n`-th card of the set in index order (0-based).
    pub fn nth(self, n: usize) -> Option<CardId> {
        self.iter().nth(n)
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|c| c.0)).finish()
    }
}

impl FromIterator<CardId> for CardSet {
    fn from_iter<I: IntoIterator<Item = CardId>>(iter: I) -> Self {
        let mut set = CardSet::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

impl std::ops::BitOr for CardSet {
    type Output = CardSet;
    fn bitor(self, rhs: CardSet) -> CardSet {
        self.union(rhs)
    }
}

impl std::ops::BitAnd for CardSet {
    type Output = CardSet;
    fn bitand(self, rhs: CardSet) -> CardSet {
        self.intersection(rhs)
    }
}

impl std::ops::Sub for CardSet {
    type Output = CardSet;
    fn sub(self, rhs: CardSet) -> CardSet {
        self.difference(rhs)
    }
}

impl std::ops::BitOrAssign for CardSet {
    fn bitor_assign(&mut self, rhs: CardSet) {
        self.0 |= rhs.0;
    }
}

/// Iterator over the cards of a [`CardSet`], lowest index first.
pub struct CardSetIter(CardBits);

impl Iterator for CardSetIter {
    type Item = CardId;
    fn next(&mut self) -> Option<CardId> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(CardId(bit as u8))
    }

    /// Skips `n` cards by clearing the lowest bits, the end tested once (by the count) rather
    /// than at each.
    fn nth(&mut self, n: usize) -> Option<CardId> {
        if n >= self.0.count_ones() as usize {
            self.0 = 0;
            return None;
        }
        for _ in 0..n {
            self.0 &= self.0 - 1;
        }
        self.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algebra_and_iteration() {
        let a: CardSet = [CardId(0), CardId(5), CardId(63)].into_iter().collect();
        let b = CardSet::single(CardId(5));
        assert_eq!(a.len(), 3);
        assert!(a.contains(CardId(63)));
        assert!(!a.contains(CardId(1)));
        assert_eq!((a - b).len(), 2);
        assert_eq!(a & b, b);
        assert!(a.contains_all(b));
        assert!(!b.contains_all(a));
        assert_eq!(a.iter().map(|c| c.0).collect::<Vec<_>>(), vec![0, 5, 63]);
        assert_eq!(a.nth(1), Some(CardId(5)));
        assert_eq!(a.nth(3), None);
        // An index far past the end (a wrapped `0 - 1`) is none, at once.
        assert_eq!(a.nth(usize::MAX), None);
        let mut rest = a.iter();
        assert_eq!(rest.nth(5), None);
        assert_eq!(rest.next(), None);
        assert_eq!(CardSet::first(48).len(), 48);
        assert_eq!(CardSet::first(64).len(), 64);
    }
}
