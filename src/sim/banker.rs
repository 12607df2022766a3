//! Batch runs of banker games (Kol-ye-si): sessions of bot players against the banker on all
//! cores, and each seat's result per hand in chips with its interval. Session i is seeded from
//! (seed, i) only, so results do not depend on the thread count.

use super::game_seed;
use super::stats::{Mean, Proportion};
use crate::agent::agent_rng;
use crate::agent::banker::{BankerAgent, banker_agent_by_name, play_banker};
use crate::engine::{BankerGame, BankerOptions};
use crate::ruleset::Ruleset;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::Arc;

/// A batch of banker-game sessions.
#[derive(Clone, Debug)]
pub struct BankerSimConfig {
    /// The ruleset (a banker game).
    pub ruleset: Arc<Ruleset>,
    /// The bot at each player seat, in seat order.
    pub players: Vec<String>,
    /// Sessions to play.
    pub games: usize,
    /// The run's seed.
    pub seed: u64,
    /// Hands per session instead of the ruleset's.
    pub hands: Option<u32>,
    /// Table limits instead of the ruleset's.
    pub limits: (Option<i64>, Option<i64>),
}

/// One session's outcome: every hand's result for each seat (none when the seat sat out), and
/// the banker's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionResult {
    /// `per_hand[h][seat]`: chips won or lost by a seat in hand h.
    pub per_hand: Vec<Vec<Option<i64>>>,
    /// The banker's chips per hand.
    pub banker: Vec<i64>,
    /// Each seat's chips at the end, minus its chips at the start.
    pub net: Vec<i64>,
}

/// One seat's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BankerSeatStats {
    /// The bot's name.
    pub player: String,
    /// Sessions the seat ended ahead.
    pub wins: u64,
    /// Sessions it ended behind.
    pub losses: u64,
    /// Sessions it ended even.
    pub draws: u64,
    /// The share of sessions ended ahead.
    pub win_rate: Proportion,
    /// Hands the seat played.
    pub hands: u64,
    /// Its mean result per hand, in chips.
    pub mean_points_per_round: f64,
    /// Half-width of that mean's 95% interval (hands as independent observations).
    pub ci95: f64,
}

/// A run's report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BankerReport {
    /// The ruleset's id.
    pub ruleset: String,
    /// The run's seed.
    pub seed: u64,
    /// Sessions played.
    pub games: usize,
    /// Hands played in all.
    pub rounds: u64,
    /// The table limits.
    pub limits: (i64, i64),
    /// Each player seat.
    pub seats: Vec<BankerSeatStats>,
    /// The banker's mean result per hand, in chips, with its interval.
    pub banker: Mean,
}

/// Plays session `index`.
pub fn play_session(config: &BankerSimConfig, index: usize) -> Result<SessionResult, String> {
    let seed = game_seed(config.seed, index);
    let mut game = BankerGame::new(
        Arc::clone(&config.ruleset),
        BankerOptions {
            seed,
            players: Some(config.players.len()),
            hands: config.hands,
            min_bet: config.limits.0,
            max_bet: config.limits.1,
            deck_orders: Vec::new(),
        },
    )?;
    let mut agents: Vec<Box<dyn BankerAgent>> = config
        .players
        .iter()
        .map(|p| banker_agent_by_name(p, &config.ruleset))
        .collect::<Result<_, _>>()?;
    let start: Vec<i64> = game.bankrolls().to_vec();
    play_banker(&mut game, &mut agents, &mut agent_rng(seed));
    let per_hand = game
        .history()
        .iter()
        .map(|h| {
            let mut row = vec![None; config.players.len()];
            for p in &h.players {
                row[p.seat] = Some(p.result);
            }
            row
        })
        .collect();
    Ok(SessionResult {
        per_hand,
        banker: game.history().iter().map(|h| h.banker_result).collect(),
        net: game
            .bankrolls()
            .iter()
            .zip(&start)
            .map(|(b, s)| b - s)
            .collect(),
    })
}

/// Plays every session on `threads` threads (0: one per core), in session order.
pub fn run(
    config: &BankerSimConfig,
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<SessionResult>, String> {
    // Fail early, once, on an unknown bot or bad limits.
    for p in &config.players {
        banker_agent_by_name(p, &config.ruleset)?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    pool.install(|| {
        (0..config.games)
            .into_par_iter()
            .map(|i| {
                let r = play_session(config, i);
                tick();
                r
            })
            .collect()
    })
}

/// Sums up a run.
pub fn summarize(config: &BankerSimConfig, results: &[SessionResult]) -> BankerReport {
    let flow = config
        .ruleset
        .banker()
        .expect("banker simulations run banker games");
    let limits = (
        config.limits.0.unwrap_or(flow.min_bet),
        config.limits.1.unwrap_or(flow.max_bet),
    );
    let seats = config
        .players
        .iter()
        .enumerate()
        .map(|(seat, player)| {
            let per_hand = Mean::of(
                results
                    .iter()
                    .flat_map(|r| r.per_hand.iter().filter_map(move |h| h[seat]))
                    .map(|c| c as f64),
            );
            let count =
                |f: fn(i64) -> bool| results.iter().filter(|r| f(r.net[seat])).count() as u64;
            let wins = count(|n| n > 0);
            BankerSeatStats {
                player: player.clone(),
                wins,
                losses: count(|n| n < 0),
                draws: count(|n| n == 0),
                win_rate: Proportion::new(wins, results.len() as u64),
                hands: per_hand.n,
                mean_points_per_round: per_hand.mean,
                ci95: per_hand.ci95,
            }
        })
        .collect();
    BankerReport {
        ruleset: config.ruleset.id.clone(),
        seed: config.seed,
        games: results.len(),
        rounds: results.iter().map(|r| r.banker.len() as u64).sum(),
        limits,
        seats,
        banker: Mean::of(
            results
                .iter()
                .flat_map(|r| r.banker.iter().map(|&c| c as f64)),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{self, Strategy};
    use crate::ruleset;

    fn config(players: &[&str], games: usize) -> BankerSimConfig {
        BankerSimConfig {
            ruleset: Arc::new(ruleset::load("kolyesi").value.unwrap()),
            players: players.iter().map(|p| p.to_string()).collect(),
            games,
            seed: 7,
            hands: None,
            limits: (None, None),
        }
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        let c = config(&["seed", "random", "always-two"], 16);
        assert_eq!(run(&c, 1, &|| {}).unwrap(), run(&c, 2, &|| {}).unwrap());
    }

    #[test]
    fn the_banker_wins_what_the_players_lose() {
        let c = config(&["seed", "random"], 8);
        let results = run(&c, 1, &|| {}).unwrap();
        for r in &results {
            for (h, row) in r.per_hand.iter().enumerate() {
                assert_eq!(r.banker[h], -row.iter().flatten().sum::<i64>());
            }
        }
        let report = summarize(&c, &results);
        assert_eq!(report.seats.len(), 2);
        assert_eq!(report.rounds, 8 * 20);
    }

    /// The Monte Carlo estimate and the exact enumeration agree: the exact expected value lies
    /// within the simulation's 95% interval, for two strategies.
    #[test]
    fn monte_carlo_agrees_with_the_exact_expected_value() {
        let c = config(&["seed", "always-two", "seed"], 400);
        let report = summarize(&c, &run(&c, 0, &|| {}).unwrap());
        let flow = c.ruleset.banker().unwrap();
        let odds = analysis::first_hand_odds(&c.ruleset, flow);
        for seat in [0, 1] {
            let strategy = Strategy::load(&c.players[seat], &c.ruleset).unwrap();
            let exact =
                analysis::expected_value(&odds, &strategy, (flow.min_bet, flow.max_bet)).to_f64();
            let s = &report.seats[seat];
            let half = s.ci95;
            assert!(
                (s.mean_points_per_round - exact).abs() <= half,
                "{}: simulated {:.4} ± {:.4}, exact {exact:.4}",
                s.player,
                s.mean_points_per_round,
                half
            );
        }
    }
}
