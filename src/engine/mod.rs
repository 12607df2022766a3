//! The game core: plays any matching game or banker game a ruleset describes, one action at a
//! time.
//!
//! Agents and the command line drive it through a narrow API: `legal_actions`, `apply`, the
//! public state getters, and events for display. Scoring is shared with `yaku score`.

mod action;
pub mod banker;
mod game;
pub mod scoring;
mod view;

pub use action::{Action, Event, HandEnd, IllegalAction, Phase};
pub use banker::{BankerAction, BankerGame, BankerOptions, BankerPhase, BankerView};
pub use game::{Game, GameOptions, HandRecord, StartError};
pub use scoring::{Circumstances, FoundYaku, HandOutcome};
pub use view::View;

#[cfg(test)]
mod scoring_tests;
#[cfg(test)]
mod tests;

#[cfg(test)]
mod banker_tests;
