//! `expert`: determinized Monte Carlo search over the rest of the hand.
//!
//! For each decision with a choice, the bot deals the cards it cannot see (the other hand and
//! the stock) at random, consistently with its view, builds that game with
//! [`Game::from_view`], tries every legal action on it and plays the hand out with `greedy` on
//! both sides. Each deal is shared by all actions (common random numbers). Greedy's own choice
//! is the default: another action replaces it only when its point difference over the hand
//! beats the default's by more than two standard errors, paired deal by deal, so the search
//! overrides the heuristic where it is sure. `expert:N` spends N playouts a decision.

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
        // Greedy's choice is the default; another action must beat it, deal by deal.
        let default = GreedyAgent.choose(view, legal, rng);
        let base = legal.iter().position(|&a| a == default).unwrap_or(0);
        let deals = (self.budget / legal.len()).max(2);
        let mut results = vec![Vec::with_capacity(deals); legal.len()];
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
                results[k].push(Self::playout(view, theirs, stock, a, &mut search) as f64);
            }
        }
        legal[pick(&results, base)]
    }
}

/// The action to take given each action's playout results on shared deals: the one with the
/// best mean among those that beat the default by more than two standard errors of the paired
/// difference, else the default.
fn pick(results: &[Vec<f64>], base: usize) -> usize {
    let n = results[base].len() as f64;
    let mut best = (0.0, base);
    for (k, r) in results.iter().enumerate() {
        if k == base {
            continue;
        }
        let diffs: Vec<f64> = r.iter().zip(&results[base]).map(|(a, b)| a - b).collect();
        let mean = diffs.iter().sum::<f64>() / n;
        let var = diffs.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / (n - 1.0).max(1.0);
        let se = (var / n).sqrt();
        if mean > 2.0 * se && mean > best.0 {
            best = (mean, k);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::{RandomAgent, play_out};
    use crate::engine::GameOptions;
    use crate::ruleset;
    use std::sync::Arc;

    #[test]
    fn expert_plays_legal_moves_in_every_bundled_matching_ruleset() {
        for name in ruleset::bundled::ruleset_names() {
            let Some(r) = ruleset::load(name).value.filter(|r| r.matching().is_some()) else {
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
    fn the_default_stands_unless_another_action_is_clearly_better() {
        let base = vec![1.0, 0.0, 2.0, 1.0];
        // Better on average but not on every deal: noise, keep the default.
        assert_eq!(pick(&[base.clone(), vec![3.0, 0.0, 0.0, 3.0]], 0), 0);
        // Better by two points on every deal: take it.
        let better: Vec<f64> = base.iter().map(|x| x + 2.0).collect();
        assert_eq!(pick(&[base.clone(), better.clone()], 0), 1);
        // The best of several clear improvements.
        let best: Vec<f64> = base.iter().map(|x| x + 3.0).collect();
        assert_eq!(pick(&[base, better, best], 0), 2);
    }

    #[test]
    fn names_carry_the_budget() {
        assert_eq!(ExpertAgent::new(DEFAULT_BUDGET).name(), "expert");
        assert_eq!(ExpertAgent::new(200).name(), "expert:200");
    }
}
