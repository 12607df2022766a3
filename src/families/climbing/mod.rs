//! The climbing family (Big Two and its relatives): the whole deck dealt, each turn a
//! combination of one or several cards (`[[flow.combination]]`) that beats the last play, or a
//! pass; the trick goes to the last unbeaten play once every other seat has passed, and its
//! player leads again; the first seat to empty its hand wins the hand, and the others pay the
//! ruleset's penalty for the cards they hold.

mod game;
mod greedy;

pub use game::{ClimbingGame, OUT, play_action, start};

use crate::core::{Agent, Game, StartError, StartOptions};
use crate::families::SeatRange;
use crate::ruleset::Ruleset;
use rand::rngs::Xoshiro256PlusPlus;
use std::sync::Arc;

/// The climbing family's registration.
pub struct Climbing;

impl crate::families::Family for Climbing {
    fn name(&self) -> &'static str {
        "climbing"
    }

    fn pile_word(&self) -> &'static str {
        "left in hand"
    }

    fn seats(&self, ruleset: &Ruleset) -> SeatRange {
        ruleset.climbing().map_or(
            SeatRange {
                min: 4,
                default: 4,
                max: 4,
            },
            |f| SeatRange {
                min: f.min_players as usize,
                default: f.players as usize,
                max: f.max_players as usize,
            },
        )
    }

    fn most_hands(&self, ruleset: &Ruleset) -> u32 {
        ruleset.climbing().map_or(0, |f| f.length.most_hands())
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
mod small_table_tests;
#[cfg(test)]
mod tests;
