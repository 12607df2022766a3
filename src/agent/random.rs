//! `random`: uniform over the legal actions, in every family.

use super::Agent;
use crate::core::{Action, Game, Seat};
use rand::RngExt;
use rand::distr::uniform::{UniformInt, UniformSampler};
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
        legal[rng.random_range(0..legal.len())]
    }

    fn choose_blind(&mut self, count: usize, rng: &mut Xoshiro256PlusPlus) -> Option<usize> {
        // `rng.random_range(0..count)`, called through the sampler it uses for a range within
        // 32 bits so that it inlines (`random_range` is not `#[inline]`): the same draw as
        // `choose`.
        let count = u32::try_from(count).expect("fewer than 2^32 legal actions");
        let index = UniformInt::<u32>::sample_single(0, count, rng).expect("some action is legal");
        Some(index as usize)
    }

    fn uses_family_analysis(&self) -> bool {
        false
    }
}
