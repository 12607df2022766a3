//! The game core: one interface every family implements ([`Game`]), seats as numbers, one move
//! vocabulary, the driver that lets bots play any family, and records for every family.
//!
//! The families themselves live in [`crate::families`]; nothing here knows any of them.
//!
//! ```
//! use yaku::core::{Game, StartOptions};
//! let ruleset = std::sync::Arc::new(yaku::ruleset::load("koikoi").value.unwrap());
//! let options = StartOptions { seed: 1, ..Default::default() };
//! let game = yaku::families::start(ruleset, options).unwrap();
//! assert_eq!(game.seats(), 2);
//! assert!(game.legal_count() > 0); // the first player chooses a card
//! ```

mod action;
mod game;
pub mod record;
mod seat;
#[cfg(test)]
pub(crate) mod tests;

pub use action::{Action, DeclId, Event, HandEnd, IllegalAction};
pub use game::{Game, HandResult, StartError, StartOptions, same_family, share, uniform_index};
pub use seat::{MAX_SEATS, PerSeat, Seat, next_seat};

use crate::agent::Agent;
use rand::rngs::Xoshiro256PlusPlus;

/// Plays a game to its end with one agent per seat. Returns the script error that stopped it
/// early, if any. Generic so that a simulation of one family calls the family's methods
/// directly.
pub fn play_out<G: Game + ?Sized>(
    game: &mut G,
    agents: &mut [Box<dyn Agent>],
    rng: &mut Xoshiro256PlusPlus,
) -> Result<(), crate::script::ScriptError> {
    // Asked once: an agent that plays uniformly lets the game draw its move, without the
    // actions listed.
    let uniform = agents
        .iter()
        .enumerate()
        .fold(0u64, |m, (s, a)| m | u64::from(a.plays_uniformly()) << s);
    // Allocated at the first agent that reads the actions: a random agent never does.
    let mut legal = Vec::new();
    while let Some(seat) = game.to_act() {
        let applied = if uniform >> seat & 1 != 0 {
            game.play_uniform(uniform, rng)
        } else {
            game.legal_actions(&mut legal);
            let action = agents[seat].choose(game.as_dyn(), seat, &legal, rng);
            game.apply(action)
        };
        // An agent that chose outside the legal actions is a bug in the agent: the game stops
        // rather than loop.
        if applied.is_err() {
            break;
        }
    }
    match game.error() {
        Some(e) => Err(e.clone()),
        None => Ok(()),
    }
}
