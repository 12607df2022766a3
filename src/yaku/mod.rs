//! The yaku table and settlement: which scoring combinations a pile holds (evaluated only where
//! a changed card can matter), and what a won hand scores once the ruleset's scoring script has
//! applied its multipliers. Every family with yaku, and `yaku score`, settle hands here.
//!
//! ```
//! let ruleset = yaku::ruleset::load("koikoi").value.unwrap();
//! let deck = &ruleset.deck;
//! let pile = deck.kind("bright").unwrap().cards; // all five brights
//! let found = ruleset.yaku.evaluate(pile, &[1, 12, 0]);
//! assert_eq!(found.base(), 10); // goko
//! ```

mod progress;
mod settle;

pub use progress::{PileState, Progress, UNITS_PER_POINT, YakuReach};
pub use settle::*;
// The table itself is part of the checked ruleset (`ruleset/yaku_table.rs`): settlement and
// progress stand on it.
pub(crate) use crate::ruleset::ones;
pub use crate::ruleset::{MAX_YAKU, Yaku, YakuScore, YakuTable};
