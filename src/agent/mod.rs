//! Agents: bots that choose actions from what their seat may see, for any ruleset.
//!
//! An agent gets a [`View`] and the legal actions, never the game itself, so it cannot see the
//! other hand or the stock. Its randomness comes from the game's seed through the caller's RNG.

pub mod banker;
mod expert;
mod greedy;
pub mod progress;
mod random;

pub use expert::{DEFAULT_BUDGET, ExpertAgent};
pub use greedy::GreedyAgent;
pub use random::RandomAgent;

use crate::engine::{Action, Game, View};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// A player that is not a human.
pub trait Agent: Send {
    /// The agent's name (`random`, `greedy`, ...).
    fn name(&self) -> &str;
    /// Chooses one of `legal` (never empty).
    fn choose(&mut self, view: &View, legal: &[Action], rng: &mut Xoshiro256PlusPlus) -> Action;
}

/// The RNG agents draw from in a game played with `seed` (separate from the deal's stream).
pub fn agent_rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15)
}

/// Plays a game to its end with one agent per seat. Returns the script error that stopped it
/// early, if any.
pub fn play_out(
    game: &mut Game,
    agents: &mut [Box<dyn Agent>; 2],
    rng: &mut Xoshiro256PlusPlus,
) -> Result<(), crate::script::ScriptError> {
    let mut legal = Vec::with_capacity(16);
    while let Some(seat) = game.to_act() {
        game.legal_actions(&mut legal);
        let action = agents[seat].choose(&game.view(seat), &legal, rng);
        game.apply(action)
            .expect("agents choose among the legal actions");
    }
    match game.script_error() {
        Some(e) => Err(e.clone()),
        None => Ok(()),
    }
}

/// The names of the bots `agent_by_name` knows (`expert:N` also sets the expert's playouts).
pub const AGENT_NAMES: &[&str] = &["random", "greedy", "expert"];

/// A bot by name: `random`, `greedy`, `expert`, or `expert:N` for N playouts per decision.
pub fn agent_by_name(name: &str) -> Option<Box<dyn Agent>> {
    match name {
        "random" => Some(Box::new(RandomAgent)),
        "greedy" => Some(Box::new(GreedyAgent)),
        "expert" => Some(Box::new(ExpertAgent::new(DEFAULT_BUDGET))),
        _ => {
            let budget: usize = name.strip_prefix("expert:")?.parse().ok()?;
            (1..=1_000_000)
                .contains(&budget)
                .then(|| Box::new(ExpertAgent::new(budget)) as Box<dyn Agent>)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_by_name() {
        for name in AGENT_NAMES {
            assert_eq!(agent_by_name(name).unwrap().name(), *name);
        }
        assert_eq!(agent_by_name("expert:12").unwrap().name(), "expert:12");
        assert!(agent_by_name("expert:0").is_none());
        assert!(agent_by_name("expert:x").is_none());
        assert!(agent_by_name("human").is_none());
    }
}
