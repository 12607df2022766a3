//! The trick-taking family (Schnapsen, Pinochle and their relatives): any number of seats the
//! rules allow, partnerships, a trump suit turned up under the stock or named by the winner of
//! an auction, melds (before play, on one's lead, on winning a trick), tricks of one card a seat
//! (double packs too), follow rules as data, and declarations on one's lead (exchange, close,
//! claim); game points from the scoring script.

mod game;
mod greedy;
pub mod melds;
mod phase;
mod view;

pub use game::{Announced, SeatFacts, TrickFacts, TricksGame, ends, staked, start};
pub use greedy::hand_worth;
pub use phase::Phase;
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

    fn pile_word(&self) -> &'static str {
        "won"
    }

    fn seats(&self, ruleset: &Ruleset) -> SeatRange {
        ruleset.tricks().map_or(
            SeatRange {
                min: 2,
                default: 2,
                max: 2,
            },
            |f| SeatRange {
                min: f.min_players as usize,
                default: f.players as usize,
                max: f.max_players as usize,
            },
        )
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
mod alone_tests;
#[cfg(test)]
mod announce_tests;
#[cfg(test)]
mod dealt_facts_tests;
#[cfg(test)]
mod dreier_tests;
#[cfg(test)]
mod equal_cards_tests;
#[cfg(test)]
mod growth_tests;
#[cfg(test)]
mod hearts_tests;
#[cfg(test)]
mod listed_bids_tests;
#[cfg(test)]
mod many_melds_tests;
#[cfg(test)]
mod moments_tests;
#[cfg(test)]
mod partners_tests;
#[cfg(test)]
mod pattern_tests;
#[cfg(test)]
mod pinochle_tests;
#[cfg(test)]
mod played_facts_tests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod trump_cards_tests;
#[cfg(test)]
mod turned_up_tests;
#[cfg(test)]
mod two_handed_tests;
