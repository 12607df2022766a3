//! The game core: one interface every family implements ([`Game`]), seats as numbers, one move
//! vocabulary, the driver that lets bots play any family, and records for every family.
//!
//! The families stand on it, in the layer above (`families`); nothing here knows any of them.
//!
//! ```
//! use yaku::core::{Game, StartOptions};
//! let ruleset = std::sync::Arc::new(yaku::ruleset::load("koikoi").value.unwrap());
//! let options = StartOptions { seed: 1, ..Default::default() };
//! let game = yaku::families::start(ruleset, options).unwrap();
//! assert_eq!(game.seats(), 2);
//! assert!(game.legal_count() > 0); // the first player chooses a card
//! ```

mod action;
mod carry;
mod driver;
mod game;
mod ledger;
pub mod protocol;
pub mod record;
mod seat;

pub use action::{Action, DealBonusGiven, DeclId, Event, HandEnd, IllegalAction};
pub use carry::Carried;
pub use driver::{Agent, Evaluation, agent_rng, play_out};
pub use game::{Game, StartError, StartOptions, same_family, share, uniform_index};
pub use ledger::{HandResult, Ledger, SeatSettlement};
pub use seat::{MAX_SEATS, PerSeat, Seat, next_seat};
