//! `expert`: determinized Monte Carlo search over the rest of the hand.
//!
//! For each decision with a choice, the bot deals the cards it cannot see (the other hand and
//! the stock) at random, consistently with its view, builds that game with
//! [`Game::from_view`], tries every legal action on it and plays the hand out with `greedy` on
//! both sides. Each deal is shared by all actions (common random numbers), and the action with
//! the best mean point difference over the hand wins. `expert:N` spends N playouts a decision.

use super::greedy::GreedyAgent;
use super::{Agent, agent_rng};
use crate::deck::{CardId, CardSet};
use crate::engine::{Action, Game, View};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt};

/// Playouts per decision of the plain `expert`.
pub const DEFAULT_BUDGET: usize = 48;

/// The determinized Monte Carlo bot.
#[derive(Clone, Debug)]
pub struct ExpertAgent {
    budget: usize,
    name: String,
}

impl ExpertAgent {
    /// An expert spending `budget` playouts per decision (at least one per legal action).
    pub fn new(budget: usize) -> ExpertAgent {
        let name = if budget == DEFAULT_BUDGET {
            "expert".to_string()
        } else {
            format!("expert:{budget}")
        };
        ExpertAgent { budget, name }
    }

    /// The point difference (me minus the other player) of the hand after `action`, played
    /// out by greedy on a deal of the hidden cards.
    fn playout(
        view: &View,
        opponent_hand: CardSet,
        stock: &[CardId],
        action: Action,
        rng: &mut Xoshiro256PlusPlus,
    ) -> i64 {
        let Ok(mut game) = Game::from_view(view, opponent_hand, stock.to_vec(), rng.next_u64())
        else {
            return 0;
        };
        if game.apply(action).is_err() {
            return i64::MIN / 4;
        }
        let mut legal = Vec::with_capacity(16);
        let mut greedy = GreedyAgent;
        while game.history().is_empty() {
            let Some(seat) = game.to_act() else { break };
            game.legal_actions(&mut legal);
            let a = greedy.choose(&game.view(seat), &legal, rng);
            if game.apply(a).is_err() {
                break;
            }
        }
        game.history()
            .first()
            .map_or(0, |h| h.points[view.seat] - h.points[1 - view.seat])
    }
}

impl Agent for ExpertAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, view: &View, legal: &[Action], rng: &mut Xoshiro256PlusPlus) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let deals = (self.budget / legal.len()).max(1);
        let mut totals = vec![0i64; legal.len()];
        let hidden: Vec<CardId> = view.unseen.iter().collect();
        let mut shuffled = hidden.clone();
        // The search has its own stream, seeded from the caller's, so that greedy's rollouts
        // do not change what the caller's RNG yields next.
        let mut search = agent_rng(rng.next_u64());
        for _ in 0..deals {
            for i in (1..shuffled.len()).rev() {
                shuffled.swap(i, search.random_range(0..=i));
            }
            let (theirs, stock) = shuffled.split_at(view.opponent_hand_size);
            let theirs: CardSet = theirs.iter().copied().collect();
            for (k, &a) in legal.iter().enumerate() {
                totals[k] += Self::playout(view, theirs, stock, a, &mut search);
            }
        }
        let best = (0..legal.len())
            .max_by_key(|&k| (totals[k], std::cmp::Reverse(k)))
            .unwrap_or(0);
        legal[best]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::{RandomAgent, play_out};
    use crate::engine::GameOptions;
    use crate::ruleset;
    use std::sync::Arc;

    #[test]
    fn expert_plays_legal_moves_in_every_bundled_ruleset() {
        for name in ruleset::bundled::ruleset_names() {
            let Some(r) = ruleset::load(name).value else {
                continue;
            };
            let mut game = Game::new(
                Arc::new(r),
                GameOptions {
                    seed: 5,
                    rounds: Some(1),
                    ..GameOptions::default()
                },
            )
            .unwrap();
            let mut agents: [Box<dyn Agent>; 2] =
                [Box::new(ExpertAgent::new(4)), Box::new(RandomAgent)];
            play_out(&mut game, &mut agents, &mut agent_rng(5)).unwrap();
            assert!(game.is_over(), "{name}");
        }
    }

    #[test]
    fn names_carry_the_budget() {
        assert_eq!(ExpertAgent::new(DEFAULT_BUDGET).name(), "expert");
        assert_eq!(ExpertAgent::new(200).name(), "expert:200");
    }
}
