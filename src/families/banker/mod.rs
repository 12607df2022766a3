//! The banker family (Kol-ye-si and its relatives): players bet against a banker who is not a
//! seat, take more tiles, and compare hand values at a showdown; bankrolls carry over.

pub mod analysis;
pub mod arrange;
mod bots;
mod game;
mod greedy;
mod odds;
pub mod ranking;
mod value;
mod view;

pub use bots::{StrategyAgent, bot};
pub use game::{
    BankerGame, BankerHand, BankerPhase, BankerView, BetResult, HandArranged, HandPlayed,
    PlayerResult, PotState, SeatHand, ends, hand_outcome, is_soft, outcome_of, play_facts,
    rule_for, settle_hand, showdown_facts, start,
};
pub use greedy::best_choice;
pub use odds::{check_odds_work, has_seat_rules, prepare_odds, shared_odds};
pub use value::{banker_instant_win, cards_value, hand_value};

use crate::core::{Agent, Game, StartError, StartOptions};
use crate::families::SeatRange;
use crate::ruleset::Ruleset;
use rand::rngs::Xoshiro256PlusPlus;
use std::sync::Arc;

/// The banker family's registration.
pub struct Banker;

impl crate::families::Family for Banker {
    fn name(&self) -> &'static str {
        "banker"
    }

    fn pile_word(&self) -> &'static str {
        "in hand"
    }

    fn seats(&self, ruleset: &Ruleset) -> SeatRange {
        let f = ruleset.banker().expect("a banker ruleset");
        SeatRange {
            min: if f.bank.is_some() || f.pot.is_some() {
                2
            } else {
                1
            },
            default: f.players as usize,
            max: f.max_players as usize,
        }
    }

    fn most_hands(&self, ruleset: &Ruleset) -> u32 {
        ruleset.banker().map_or(0, |f| f.hands)
    }

    fn bot(&self, name: &str, ruleset: &Ruleset) -> Result<Box<dyn Agent>, String> {
        bots::bot(name, ruleset)
    }

    fn bot_names(&self, _ruleset: &Ruleset) -> Vec<&'static str> {
        analysis::strategy::bundled_names().collect()
    }

    fn check_bot_work(&self, ruleset: &Ruleset) -> Result<(), String> {
        odds::check_odds_work(ruleset)
    }

    fn prepare_bot_work(&self, ruleset: &Ruleset, progress: &mut dyn FnMut(u64, u64)) {
        odds::prepare_odds(ruleset, progress);
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
mod arrange_tests;
#[cfg(test)]
mod baccarat_tests;
#[cfg(test)]
mod bank_tests;
#[cfg(test)]
mod commission_tests;
#[cfg(test)]
mod oicho_tests;
#[cfg(test)]
mod pai_gow_frequency_tests;
#[cfg(test)]
mod pai_gow_tests;
#[cfg(test)]
mod play_tests;
#[cfg(test)]
mod poker_tests;
#[cfg(test)]
mod rank_showdown_tests;
#[cfg(test)]
mod seat_rules_tests;
#[cfg(test)]
mod seotda_tests;
#[cfg(test)]
mod tests;
