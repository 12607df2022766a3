//! The yaku table and settlement: which scoring combinations a pile holds (evaluated only where
//! a changed card can matter), and what a won hand scores once the ruleset's scoring script has
//! applied its multipliers. Every family with yaku, and `yaku score`, settle hands here.

mod progress;
mod settle;
mod table;

pub use progress::{PileState, Progress, UNITS_PER_POINT, YakuReach};
pub use settle::*;
pub use table::*;
