//! The game families: each a module that implements [`crate::core::Game`] for one kind of game,
//! configured entirely by its rulesets. A new family adds its module here and an arm in
//! [`start`] (and its bots in [`bot`], its screen in the command line's table).
//!
//! ```
//! let ruleset = yaku::ruleset::load("kolyesi").value.unwrap();
//! assert_eq!(yaku::families::family_name(&ruleset), "banker");
//! let (fewest, seats, most) = yaku::families::seat_range(&ruleset);
//! assert!(fewest <= seats && seats <= most);
//! ```

pub mod banker;
pub mod matching;
pub mod tricks;

use crate::agent::Agent;
use crate::core::{Game, StartError, StartOptions};
use crate::ruleset::{Flow, Ruleset};
use std::sync::Arc;

/// Starts a game of the family `ruleset` describes.
pub fn start(ruleset: Arc<Ruleset>, options: StartOptions) -> Result<Box<dyn Game>, StartError> {
    Ok(match &ruleset.flow {
        Flow::Matching(_) => Box::new(matching::start(ruleset, options)?),
        Flow::Banker(_) => Box::new(banker::start(ruleset, options)?),
        Flow::Tricks(_) => Box::new(tricks::start(ruleset, options)?),
    })
}

/// Starts a game of the family `ruleset` describes and plays it to its end with `agents`, one
/// per seat: the play loop of [`crate::core::play_out`] compiled for each family's own type, so
/// that simulations make no virtual call per move. `finished` reads what it needs of the
/// finished game, which is then dropped where it was played (no copy to the heap).
pub fn play_to_end<R>(
    ruleset: Arc<Ruleset>,
    options: StartOptions,
    agents: &mut [Box<dyn Agent>],
    rng: &mut rand::rngs::Xoshiro256PlusPlus,
    finished: impl FnOnce(&dyn Game) -> R,
) -> Result<R, StartError> {
    fn run<G: Game, R>(
        mut game: G,
        agents: &mut [Box<dyn Agent>],
        rng: &mut rand::rngs::Xoshiro256PlusPlus,
        finished: impl FnOnce(&dyn Game) -> R,
    ) -> Result<R, StartError> {
        crate::core::play_out(&mut game, agents, rng).map_err(StartError::Script)?;
        Ok(finished(&game))
    }
    match &ruleset.flow {
        Flow::Matching(_) => run(matching::start(ruleset, options)?, agents, rng, finished),
        Flow::Banker(_) => run(banker::start(ruleset, options)?, agents, rng, finished),
        Flow::Tricks(_) => run(tricks::start(ruleset, options)?, agents, rng, finished),
    }
}

/// The family's name, for messages and records (`matching`, `banker`, `tricks`).
pub fn family_name(ruleset: &Ruleset) -> &'static str {
    match &ruleset.flow {
        Flow::Matching(_) => "matching",
        Flow::Banker(_) => "banker",
        Flow::Tricks(_) => "tricks",
    }
}

/// A bot of the family by name (strategy tables of banker games), when the generic bots do not
/// know the name. `Err` says why the name is not a bot here.
pub fn bot(name: &str, ruleset: &Ruleset) -> Result<Box<dyn Agent>, String> {
    match &ruleset.flow {
        Flow::Banker(_) => banker::bot(name, ruleset),
        Flow::Matching(_) | Flow::Tricks(_) => Err(format!("unknown bot `{name}`")),
    }
}

/// Whether bots that play from the family's analysis ([`crate::core::Game::heuristic`], exact
/// odds) can play `ruleset` in bounded time; `Err` says why not.
pub fn check_bot_work(ruleset: &Ruleset) -> Result<(), String> {
    match &ruleset.flow {
        Flow::Banker(_) => banker::check_odds_work(ruleset),
        Flow::Matching(_) | Flow::Tricks(_) => Ok(()),
    }
}

/// The family's own bot names, for help texts.
pub fn bot_names(ruleset: &Ruleset) -> Vec<&'static str> {
    match &ruleset.flow {
        Flow::Banker(_) => crate::analysis::strategy::bundled_names().collect(),
        Flow::Matching(_) | Flow::Tricks(_) => Vec::new(),
    }
}

/// The seat counts the family allows for `ruleset`, and the default.
pub fn seat_range(ruleset: &Ruleset) -> (usize, usize, usize) {
    match &ruleset.flow {
        Flow::Matching(f) => (
            f.min_players as usize,
            f.players as usize,
            f.max_players as usize,
        ),
        Flow::Banker(f) => (1, f.players as usize, f.max_players as usize),
        Flow::Tricks(f) => (f.players as usize, f.players as usize, f.players as usize),
    }
}
