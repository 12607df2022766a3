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

    /// Chooses without looking at the game, for an agent that needs no view (`random`); `None`
    /// for one that does. [`play_out`] asks this first and builds a [`View`] only on `None`, so an
    /// answer must be the action `choose` would give, drawing the same from `rng`.
    fn choose_blind(&mut self, _legal: &[Action], _rng: &mut Xoshiro256PlusPlus) -> Option<Action> {
        None
    }
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
        let agent = &mut agents[seat];
        let action = match agent.choose_blind(&legal, rng) {
            Some(action) => action,
            None => agent.choose(&game.view(seat), &legal, rng),
        };
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

    /// An agent that chooses blind chooses as it would with the view, drawing the same.
    #[test]
    fn blind_choices_are_the_choices() {
        let ruleset = std::sync::Arc::new(crate::ruleset::load("koikoi").value.unwrap());
        let game = Game::new(ruleset, crate::engine::GameOptions::default()).unwrap();
        let legal = game.legal();
        for name in AGENT_NAMES {
            let mut agent = agent_by_name(name).unwrap();
            let (mut a, mut b) = (agent_rng(3), agent_rng(3));
            for _ in 0..20 {
                if let Some(blind) = agent.choose_blind(&legal, &mut a) {
                    assert_eq!(blind, agent.choose(&game.view(0), &legal, &mut b), "{name}");
                    assert_eq!(a, b, "{name}");
                }
            }
        }
        assert!(
            RandomAgent
                .choose_blind(&legal, &mut agent_rng(0))
                .is_some()
        );
    }

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
