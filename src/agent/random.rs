//! `random`: uniform over the legal actions.

use super::Agent;
use crate::engine::{Action, View};
use rand::RngExt;
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
        Some(legal[rng.random_range(0..legal.len())])
    }
}
