//! The matching family (Koi-Koi, Go-Stop and their relatives): players match cards from hand
//! and stock with the table by suit, capture piles form yaku, and declarations after a yaku or
//! after the deal (play on, stop, swap) are the ruleset's.

mod game;
mod greedy;
mod view;

pub use game::{MatchingGame, Phase, ends, start};
pub use greedy::{chooses, matches};
pub use view::View;

#[cfg(test)]
mod gostop_tests;
#[cfg(test)]
mod house_tests;
#[cfg(test)]
mod scoring_tests;
#[cfg(test)]
mod tests;
