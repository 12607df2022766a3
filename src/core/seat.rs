//! Seats are numbers: `0..n` in turn order, for any `n` a family allows. [`PerSeat`] holds one
//! value per seat inline (no allocation, `Copy` when the values are), so a game state with a
//! hand per seat stays cheap to copy for searching bots.

use serde::Serialize;
use std::ops::{Deref, DerefMut};

/// A seat at the table: `0..seats`, in turn order.
pub type Seat = usize;

pub use crate::ruleset::MAX_SEATS;

/// The seat after `seat` in turn order, at a table of `seats`.
pub fn next_seat(seat: Seat, seats: usize) -> Seat {
    if seat + 1 >= seats { 0 } else { seat + 1 }
}

/// One value per seat of a table, stored inline.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PerSeat<T: Copy> {
    len: u8,
    items: [T; MAX_SEATS],
}

impl<T: Copy + Default> PerSeat<T> {
    /// `seats` default values. Seat counts above [`MAX_SEATS`] are cut to it (rulesets are
    /// checked against it when they load).
    pub fn new(seats: usize) -> PerSeat<T> {
        PerSeat::filled(seats, T::default())
    }
}

impl<T: Copy> PerSeat<T> {
    /// `seats` copies of `value`.
    pub fn filled(seats: usize, value: T) -> PerSeat<T> {
        PerSeat {
            len: seats.min(MAX_SEATS) as u8,
            items: [value; MAX_SEATS],
        }
    }

    /// The values of a slice (at most [`MAX_SEATS`] are kept).
    pub fn from_slice(values: &[T]) -> PerSeat<T>
    where
        T: Default,
    {
        let mut p = PerSeat::new(values.len());
        let n = p.len();
        p.copy_from_slice(&values[..n]);
        p
    }

    /// Sets every seat's value. The whole array is written, seats beyond those in use too (as
    /// [`PerSeat::filled`] makes them): a store of a known size, where writing only the seats
    /// in use took a call to `memset` for each fill.
    #[inline]
    pub fn fill(&mut self, value: T) {
        self.items = [value; MAX_SEATS];
    }
}

/// No seats.
impl<T: Copy + Default> Default for PerSeat<T> {
    fn default() -> PerSeat<T> {
        PerSeat::new(0)
    }
}

impl<T: Copy> Deref for PerSeat<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        &self.items[..self.len as usize]
    }
}

impl<T: Copy> DerefMut for PerSeat<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..self.len as usize]
    }
}

// Direct indexing: a bounds check against the constant capacity, without building a slice (the
// game cores index seats on every move).
impl<T: Copy> std::ops::Index<usize> for PerSeat<T> {
    type Output = T;
    #[inline]
    fn index(&self, seat: usize) -> &T {
        debug_assert!(seat < self.len as usize, "seat {seat} of {}", self.len);
        &self.items[seat]
    }
}

impl<T: Copy> std::ops::IndexMut<usize> for PerSeat<T> {
    #[inline]
    fn index_mut(&mut self, seat: usize) -> &mut T {
        debug_assert!(seat < self.len as usize, "seat {seat} of {}", self.len);
        &mut self.items[seat]
    }
}

impl<T: Copy + std::fmt::Debug> std::fmt::Debug for PerSeat<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy + Serialize> Serialize for PerSeat<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_order_wraps() {
        assert_eq!(next_seat(0, 2), 1);
        assert_eq!(next_seat(1, 2), 0);
        assert_eq!(next_seat(2, 3), 0);
        assert_eq!(next_seat(0, 1), 0);
    }

    #[test]
    fn per_seat_is_a_slice_of_its_length() {
        let mut p: PerSeat<i64> = PerSeat::new(3);
        p[2] = 5;
        assert_eq!(&*p, &[0, 0, 5]);
        assert_eq!(p.iter().sum::<i64>(), 5);
        assert_eq!(format!("{p:?}"), "[0, 0, 5]");
        assert_eq!(serde_json::to_string(&p).unwrap(), "[0,0,5]");
        assert_eq!(&*PerSeat::from_slice(&[1u32, 2]), &[1, 2]);
    }
}
