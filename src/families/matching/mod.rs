//! The matching family (Koi-Koi, Go-Stop and their relatives): players match cards from hand
//! and stock with the table by suit, capture piles form yaku, and declarations after a yaku or
//! after the deal (play on, stop, swap) are the ruleset's.

pub mod build;
pub mod capture;
mod game;
mod greedy;
mod phase;
mod view;

pub use game::{MatchingGame, ends, start};
pub use greedy::{chooses, matches};
pub use phase::Phase;
pub use view::View;

use crate::core::{Agent, Game, StartError, StartOptions};
use crate::families::SeatRange;
use crate::ruleset::Ruleset;
use rand::rngs::Xoshiro256PlusPlus;
use std::sync::Arc;

/// The matching family's registration.
pub struct Matching;

impl crate::families::Family for Matching {
    fn name(&self) -> &'static str {
        "matching"
    }

    fn pile_word(&self) -> &'static str {
        "captured"
    }

    fn seats(&self, ruleset: &Ruleset) -> SeatRange {
        let f = ruleset.matching().expect("a matching ruleset");
        SeatRange {
            min: f.min_players as usize,
            default: f.players as usize,
            max: f.max_players as usize,
        }
    }

    fn most_hands(&self, ruleset: &Ruleset) -> u32 {
        ruleset.matching().map_or(0, |f| f.length.most_hands())
    }

    fn start(
        &self,
        ruleset: Arc<Ruleset>,
        options: StartOptions,
    ) -> Result<Box<dyn Game>, StartError> {
        Ok(Box::new(start(ruleset, options)?))
    }

    fn play_to_end(
        &self,
        ruleset: Arc<Ruleset>,
        options: StartOptions,
        agents: &mut [Box<dyn Agent>],
        rng: &mut Xoshiro256PlusPlus,
        finished: &mut dyn FnMut(&dyn Game),
    ) -> Result<(), StartError> {
        crate::families::run_to_end(start(ruleset, options)?, agents, rng, finished)
    }
}

#[cfg(test)]
mod build_tests;
#[cfg(test)]
mod capture_tests;
#[cfg(test)]
mod count_out_tests;
#[cfg(test)]
mod deal_tests;
#[cfg(test)]
mod declared_tests;
#[cfg(test)]
mod gostop_tests;
#[cfg(test)]
mod hachihachi_tests;
#[cfg(test)]
mod house_tests;
#[cfg(test)]
mod leftover_tests;
#[cfg(test)]
mod scopa_tests;
#[cfg(test)]
mod scoring_tests;
#[cfg(test)]
mod settle_tests;
#[cfg(test)]
mod tests;
