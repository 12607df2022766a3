//! `random`: uniform over the legal actions, in every family.

use super::Agent;
use crate::core::{Action, Game, Seat, uniform_index};
use rand::rngs::Xoshiro256PlusPlus;

/// Picks a legal action uniformly at random.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl Agent for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(
        &mut self,
        _game: &dyn Game,
        _seat: Seat,
        legal: &[Action],
        rng: &mut Xoshiro256PlusPlus,
    ) -> Action {
        legal[uniform_index(legal.len(), rng)]
    }

    fn plays_uniformly(&self) -> bool {
        true
    }

    fn quick(&self) -> bool {
        true
    }

    fn uses_family_analysis(&self) -> bool {
        false
    }
}
