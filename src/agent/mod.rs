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

    /// Chooses the index of one of `count` legal actions without looking at the game or the
    /// actions (`random`); `None` for an agent that needs them. [`play_out`] asks this first and
    /// lists the actions and builds a [`View`] only on `None`, so an answer must be the index of
    /// the action `choose` would give, drawing the same from `rng`.
    fn choose_blind(&mut self, _count: usize, _rng: &mut Xoshiro256PlusPlus) -> Option<usize> {
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
        let agent = &mut agents[seat];
        let action = match agent.choose_blind(game.legal_count(), rng) {
            Some(index) => game
                .legal_action(index)
                .expect("agents choose among the legal actions"),
            None => {
                game.legal_actions(&mut legal);
                agent.choose(&game.view(seat), &legal, rng)
            }
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

    /// An agent that chooses blind chooses as it would with the view, drawing the same; the
    /// game's count and indexed actions are its list's, at every decision of random games.
    #[test]
    fn blind_choices_are_the_choices() {
        for name in ["koikoi", "koikoi-ktane", "koikoi-classic"] {
            let ruleset = std::sync::Arc::new(crate::ruleset::load(name).value.unwrap());
            for seed in 0..10 {
                let options = crate::engine::GameOptions {
                    seed,
                    ..Default::default()
                };
                let mut game = Game::new(std::sync::Arc::clone(&ruleset), options).unwrap();
                let mut rng = agent_rng(seed);
                while let Some(seat) = game.to_act() {
                    let legal = game.legal();
                    assert_eq!(game.legal_count(), legal.len());
                    for (i, action) in legal.iter().enumerate() {
                        assert_eq!(game.legal_action(i), Some(*action));
                    }
                    assert_eq!(game.legal_action(legal.len()), None);
                    for bot in AGENT_NAMES {
                        let mut agent = agent_by_name(bot).unwrap();
                        let (mut a, mut b) = (rng.clone(), rng.clone());
                        if let Some(i) = agent.choose_blind(legal.len(), &mut a) {
                            assert_eq!(legal[i], agent.choose(&game.view(seat), &legal, &mut b));
                            assert_eq!(a, b, "{bot}");
                        }
                    }
                    let i = RandomAgent.choose_blind(legal.len(), &mut rng).unwrap();
                    game.apply(legal[i]).unwrap();
                }
                assert_eq!(game.legal_count(), 0);
            }
        }
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
