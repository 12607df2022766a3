//! The trick-taking family (Schnapsen and its relatives): two players, a trump suit turned up
//! under the stock, tricks, follow rules once the stock is gone or closed, and declarations on
//! one's lead (marriage, exchange, close, claim); game points from the scoring script.

mod game;
mod greedy;
mod view;

pub use game::{Phase, TricksGame, ends, start};
pub use view::TricksView;

use crate::core::{Agent, Game, StartError, StartOptions};
use crate::families::SeatRange;
use crate::ruleset::Ruleset;
use rand::rngs::Xoshiro256PlusPlus;
use std::sync::Arc;

/// The trick-taking family's registration.
pub struct Tricks;

impl crate::families::Family for Tricks {
    fn name(&self) -> &'static str {
        "tricks"
    }

    fn seats(&self, ruleset: &Ruleset) -> SeatRange {
        let players = ruleset.tricks().map_or(2, |f| f.players as usize);
        SeatRange {
            min: players,
            default: players,
            max: players,
        }
    }

    fn most_hands(&self, ruleset: &Ruleset) -> u32 {
        ruleset.tricks().map_or(0, |f| f.length.most_hands())
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
mod tests;
