//! `expert`: determinized Monte Carlo search over the rest of the hand, for every family.
//!
//! For each decision with a choice, the bot asks the family for a game in the state its seat
//! sees with the hidden cards placed at random ([`Game::determinize`]), tries every legal action
//! on it and plays the hand out with the family's rule-reading policy ([`Game::heuristic`], the
//! `greedy` bot) for every seat. Each deal is shared by all actions (common random numbers).
//! The policy's own choice is the default: another action replaces it only when its point
//! difference over the hand beats the default's by more than two standard errors, paired deal
//! by deal, so the search overrides the heuristic where it is sure. `expert:N` spends N
//! playouts a decision; `expert@50ms` deals again until 50 ms have passed (at least two deals),
//! which compares strength per second across versions and machines but is not reproducible:
//! the same seed may give other games, so `expert:N` is the form for replays and tests.

use super::{Agent, agent_rng};
use crate::core::{Action, Game, Seat};
use rand::Rng;
use rand::rngs::Xoshiro256PlusPlus;

/// Playouts per decision of the plain `expert`.
pub const DEFAULT_BUDGET: usize = 48;

/// The most playouts per decision `expert:N` may ask for.
pub const MAX_BUDGET: usize = 1_000_000;

/// The most time per decision `expert@T` may ask for.
pub const MAX_TIME: std::time::Duration = std::time::Duration::from_secs(60);

/// The determinized Monte Carlo bot.
#[derive(Clone, Debug)]
pub struct ExpertAgent {
    budget: usize,
    /// A time per decision instead of a number of playouts (`expert@50ms`).
    time: Option<std::time::Duration>,
    name: String,
    worlds: Worlds,
}

/// The games a search plays on, kept from decision to decision so that their storage serves
/// again: the deal, made again in place for each round of playouts, and a spare game each
/// action's playout copies the deal into (where the family can do either in place). Nothing of
/// a decision's games is read by the next: each deal and copy replaces the whole game.
#[derive(Default)]
struct Worlds {
    deal: Option<Box<dyn Game>>,
    spare: Option<Box<dyn Game>>,
}

/// A copied bot starts with no games of its own.
impl Clone for Worlds {
    fn clone(&self) -> Worlds {
        Worlds::default()
    }
}

impl std::fmt::Debug for Worlds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Worlds")
    }
}

impl ExpertAgent {
    /// An expert spending `budget` playouts per decision (at least two per legal action).
    pub fn new(budget: usize) -> ExpertAgent {
        let name = if budget == DEFAULT_BUDGET {
            "expert".to_string()
        } else {
            format!("expert:{budget}")
        };
        ExpertAgent {
            budget,
            time: None,
            name,
            worlds: Worlds::default(),
        }
    }

    /// An expert dealing again until `time` has passed on each decision (at least two deals);
    /// `name` is how it was asked for (`expert@50ms`).
    pub fn timed(time: std::time::Duration, name: &str) -> ExpertAgent {
        ExpertAgent {
            budget: 0,
            time: Some(time),
            name: name.to_string(),
            worlds: Worlds::default(),
        }
    }

    /// The search of one decision with a choice: the policy's action (the default), its
    /// index among `legal`, and each action's playout results on the shared deals (`None` when
    /// the family deals no worlds).
    fn search(
        &mut self,
        game: &dyn Game,
        seat: Seat,
        legal: &[Action],
        rng: &mut Xoshiro256PlusPlus,
    ) -> (Action, usize, Option<Vec<Vec<f64>>>) {
        // The policy's choice is the default; another action must beat it, deal by deal.
        let default = game.heuristic(seat, legal, rng);
        let base = legal.iter().position(|&a| a == default).unwrap_or(0);
        let deals = (self.budget / legal.len()).max(2);
        let mut results = vec![Vec::with_capacity(deals); legal.len()];
        // The search has its own stream, seeded from the caller's, so that the playouts do not
        // change what the caller's RNG yields next.
        let mut search = agent_rng(rng.next_u64());
        // The playouts' legal moves, one buffer for the whole search.
        let mut moves = Vec::with_capacity(16);
        let Worlds { deal, spare } = &mut self.worlds;
        let started = std::time::Instant::now();
        for dealt in 0.. {
            let more = match self.time {
                None => dealt < deals,
                Some(t) => dealt < 2 || started.elapsed() < t,
            };
            if !more {
                break;
            }
            let redealt = deal
                .as_mut()
                .is_some_and(|w| w.determinize_from(game, seat, &mut search));
            let world = if redealt {
                deal.as_mut()
            } else {
                game.determinize(seat, &mut search)
                    .map(|fresh| deal.insert(fresh))
            };
            let Some(world) = world else {
                return (default, base, None);
            };
            // Each action plays on its own copy of the deal (copied into the same spare game
            // where the family can); the last takes the deal itself.
            let (last, others) = legal.split_last().unwrap_or((&legal[0], &[]));
            for (k, &a) in others.iter().enumerate() {
                if !spare.as_mut().is_some_and(|w| w.copy_from(&**world)) {
                    *spare = None;
                }
                let w = spare.get_or_insert_with(|| world.clone());
                results[k].push(Self::playout(&mut **w, seat, a, &mut search, &mut moves));
            }
            let outcome = Self::playout(&mut **world, seat, *last, &mut search, &mut moves);
            results[others.len()].push(outcome);
        }
        (default, base, Some(results))
    }

    /// `seat`'s points minus the other seats' average for the hand in progress after
    /// `action`, played out by the family's policy on `world`.
    fn playout(
        world: &mut dyn Game,
        seat: Seat,
        action: Action,
        rng: &mut Xoshiro256PlusPlus,
        legal: &mut Vec<Action>,
    ) -> f64 {
        let hands = world.history().len();
        if world.apply(action).is_err() {
            return f64::MIN / 4.0;
        }
        while world.history().len() == hands {
            let Some(s) = world.to_act() else { break };
            world.legal_actions(legal);
            let a = world.heuristic(s, legal, rng);
            if world.apply(a).is_err() {
                break;
            }
        }
        // Where the lowest total wins, fewer points are better.
        let sign = if world.ruleset().lowest_wins() {
            -1.0
        } else {
            1.0
        };
        world.history().get(hands).map_or(0.0, |h| {
            let n = h.points.len();
            let others: i64 = h.points.iter().sum::<i64>() - h.points[seat];
            sign * (h.points[seat] as f64 - others as f64 / (n.max(2) - 1) as f64)
        })
    }
}

impl Agent for ExpertAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(
        &mut self,
        game: &dyn Game,
        seat: Seat,
        legal: &[Action],
        rng: &mut Xoshiro256PlusPlus,
    ) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        match self.search(game, seat, legal, rng) {
            (default, _, None) => default,
            (_, base, Some(results)) => legal[pick(&results, base)],
        }
    }

    fn evaluate(
        &mut self,
        game: &dyn Game,
        seat: Seat,
        legal: &[Action],
        rng: &mut Xoshiro256PlusPlus,
    ) -> Option<Vec<crate::core::Evaluation>> {
        if legal.len() < 2 {
            return None;
        }
        let (_, _, results) = self.search(game, seat, legal, rng);
        results.map(|results| {
            results
                .iter()
                .map(|r| {
                    let n = r.len() as f64;
                    let mean = r.iter().sum::<f64>() / n;
                    let var =
                        r.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0).max(1.0);
                    crate::core::Evaluation {
                        mean,
                        error: (var / n).sqrt(),
                        playouts: r.len(),
                    }
                })
                .collect()
        })
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
    use crate::agent::RandomAgent;
    use crate::core::{StartOptions, play_out};
    use crate::ruleset;
    use std::sync::Arc;

    #[test]
    fn expert_plays_legal_moves_in_every_bundled_ruleset() {
        for name in ruleset::bundled::ruleset_names() {
            let r = ruleset::load(name).value.unwrap();
            let mut game = crate::families::start(
                Arc::new(r),
                StartOptions {
                    seed: 5,
                    rounds: Some(1),
                    ..StartOptions::default()
                },
            )
            .unwrap();
            let mut agents: Vec<Box<dyn Agent>> = (0..game.seats())
                .map(|s| {
                    if s == 0 {
                        Box::new(ExpertAgent::new(4)) as Box<dyn Agent>
                    } else {
                        Box::new(RandomAgent)
                    }
                })
                .collect();
            play_out(&mut *game, &mut agents, &mut agent_rng(5)).unwrap();
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
