//! The game core: one interface every family implements ([`Game`]), seats as numbers, one move
//! vocabulary, the driver that lets bots play any family, and records for every family.
//!
//! The families themselves live in [`crate::families`]; nothing here knows any of them.

mod action;
mod carry;
mod driver;
mod game;
mod ledger;
pub mod record;
mod seat;
#[cfg(test)]
pub(crate) mod tests;

pub use action::{Action, DeclId, Event, HandEnd, IllegalAction};
pub use carry::Carried;
pub use driver::{Agent, agent_rng, play_out};
pub use game::{Game, HandResult, StartError, StartOptions, same_family, share, uniform_index};
pub use ledger::{Ledger, SeatSettlement};
pub use seat::{MAX_SEATS, PerSeat, Seat, next_seat};
