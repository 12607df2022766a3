//! `random`: uniform over the legal actions.

use super::Agent;
use crate::engine::{Action, View};
use rand::RngExt;
use rand::distr::uniform::{UniformSampler, UniformUsize};
use rand::rngs::Xoshiro256PlusPlus;

/// Picks a legal action uniformly at random.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl Agent for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, _view: &View, legal: &[Action], rng: &mut Xoshiro256PlusPlus) -> Action {
        legal[rng.random_range(0..legal.len())]
    }

    fn choose_blind(&mut self, legal: &[Action], rng: &mut Xoshiro256PlusPlus) -> Option<Action> {
        // `rng.random_range(0..legal.len())`, called through the sampler it uses so that it
        // inlines (`random_range` is not `#[inline]`): the same draw.
        let i = UniformUsize::sample_single(0, legal.len(), rng).expect("legal is not empty");
        Some(legal[i])
    }
}
