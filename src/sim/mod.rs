//! Batch bot-vs-bot runs: many games on all cores, each from a seed derived from the run's seed
//! and the game's index only, gathered in game order so the results do not depend on the
//! number of threads. Statistics over the results are in [`stats`]. Nothing here prints.
//!
//! Players alternate seats: in even games the first player named sits at seat 0, in odd games
//! at seat 1. Results are kept per player, not per seat.

pub mod banker;
pub mod stats;

use crate::agent::{Agent, agent_by_name, agent_rng, play_out};
use crate::deck::CardId;
use crate::engine::{Game, GameOptions, HandEnd};
use crate::ruleset::{GameLength, Ruleset};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt};
use rayon::prelude::*;
use std::sync::Arc;

pub use stats::{Comparison, Report};

/// What to run.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// The ruleset.
    pub ruleset: Arc<Ruleset>,
    /// The two players' bot names, first player first.
    pub players: [String; 2],
    /// How many games.
    pub games: usize,
    /// The run's seed.
    pub seed: u64,
    /// Hands per game instead of the ruleset's length.
    pub rounds: Option<u32>,
    /// Deal from orders drawn from each game's seed, and fix the first dealer from it, so that
    /// two rulesets with the same deck get the same shuffles (`--compare`).
    pub shared_deals: bool,
}

/// Why a run failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    /// A player name that is not a bot.
    UnknownBot {
        /// The name.
        name: String,
    },
    /// A game stopped on a scoring-script error.
    Script {
        /// The game's index.
        game: usize,
        /// The script's error.
        message: String,
    },
    /// The thread pool could not be built.
    Threads {
        /// Why.
        message: String,
    },
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::UnknownBot { name } => write!(
                f,
                "unknown bot `{name}` (bots: {})",
                crate::agent::AGENT_NAMES.join(", ")
            ),
            SimError::Script { game, message } => write!(f, "game {game}: {message}"),
            SimError::Threads { message } => write!(f, "cannot start threads: {message}"),
        }
    }
}

impl std::error::Error for SimError {}

/// One hand of a simulated game, by player (not seat).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundResult {
    /// The player who dealt.
    pub dealer: usize,
    /// The player who won, if any.
    pub winner: Option<usize>,
    /// How the hand ended.
    pub end: HandEnd,
    /// The ids of the yaku (or instant wins) the winner scored.
    pub yaku: Vec<String>,
    /// Points for each player.
    pub points: [i64; 2],
    /// Koi-koi calls by each player.
    pub koikoi: [u32; 2],
}

/// One simulated game, by player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The seat of each player.
    pub seat_of: [usize; 2],
    /// Final scores of each player.
    pub scores: [i64; 2],
    /// Every hand.
    pub rounds: Vec<RoundResult>,
}

/// The seed of game `index` of a run seeded with `seed` (SplitMix64 of the pair).
pub fn game_seed(seed: u64, index: usize) -> u64 {
    let mut z = seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Checks that every player is a bot.
pub fn check_players(players: &[String; 2]) -> Result<(), SimError> {
    for p in players {
        if agent_by_name(p).is_none() {
            return Err(SimError::UnknownBot { name: p.clone() });
        }
    }
    Ok(())
}

/// Deck orders for a game seeded with `seed`, enough for every hand of the longest game plus
/// some redeals.
fn shared_orders(ruleset: &Ruleset, rounds: Option<u32>, seed: u64) -> Vec<Vec<CardId>> {
    let hands = rounds.unwrap_or(match ruleset.matching().map(|f| f.length) {
        Some(GameLength::Rounds(n)) => n,
        Some(GameLength::Target { max_rounds, .. }) => max_rounds,
        None => 0,
    });
    let n = ruleset.deck.cards.len();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0xdea1_5eed);
    (0..hands + 8)
        .map(|_| {
            let mut o: Vec<CardId> = (0..n as u8).map(CardId).collect();
            for i in (1..n).rev() {
                o.swap(i, rng.random_range(0..=i));
            }
            o
        })
        .collect()
}

/// Plays game `index` of a run.
pub fn play_game(config: &SimConfig, index: usize) -> Result<GameResult, SimError> {
    let seed = game_seed(config.seed, index);
    // Player p sits at seat (p + index) % 2.
    let seat_of = [index % 2, (index + 1) % 2];
    let player_at = |seat: usize| if seat_of[0] == seat { 0 } else { 1 };
    let agent = |p: usize| {
        agent_by_name(&config.players[p]).ok_or_else(|| SimError::UnknownBot {
            name: config.players[p].clone(),
        })
    };
    let mut agents: [Box<dyn Agent>; 2] = [agent(player_at(0))?, agent(player_at(1))?];
    let (deck_orders, first_dealer) = if config.shared_deals {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        (
            shared_orders(&config.ruleset, config.rounds, seed),
            Some((rng.next_u32() % 2) as usize),
        )
    } else {
        (Vec::new(), None)
    };
    let script = |e: &dyn std::fmt::Display| SimError::Script {
        game: index,
        message: e.to_string(),
    };
    let mut game = Game::new(
        Arc::clone(&config.ruleset),
        GameOptions {
            seed,
            rounds: config.rounds,
            deck_orders,
            log_events: false,
            simulation: true,
            first_dealer,
        },
    )
    .map_err(|e| script(&e))?;
    play_out(&mut game, &mut agents, &mut agent_rng(seed)).map_err(|e| script(&e))?;
    let by_player = |a: [i64; 2]| [a[seat_of[0]], a[seat_of[1]]];
    let rounds = game
        .history()
        .iter()
        .map(|h| RoundResult {
            dealer: player_at(h.dealer),
            winner: h.winner.map(player_at),
            end: h.end,
            // Simulations keep no explanation for ordinary stops, only the yaku mask; instant
            // wins and house-rule exhaustion keep theirs.
            yaku: match &h.outcome {
                Some(o) => o.yaku.iter().map(|y| y.id.clone()).collect(),
                None => (0..config.ruleset.yaku.yaku.len())
                    .filter(|i| h.yaku_mask >> i & 1 == 1)
                    .map(|i| config.ruleset.yaku.yaku[i].id.clone())
                    .collect(),
            },
            points: by_player(h.points),
            koikoi: [h.koikoi[seat_of[0]], h.koikoi[seat_of[1]]],
        })
        .collect();
    Ok(GameResult {
        seat_of,
        scores: by_player(game.scores()),
        rounds,
    })
}

/// Plays every game of a run on `threads` threads (0: one per core), calling `tick` after each
/// game. Results are in game order whatever the thread count.
pub fn run(
    config: &SimConfig,
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<GameResult>, SimError> {
    check_players(&config.players)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SimError::Threads {
            message: e.to_string(),
        })?;
    pool.install(|| {
        (0..config.games)
            .into_par_iter()
            .map(|i| {
                let r = play_game(config, i);
                tick();
                r
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset;

    fn config(name: &str, games: usize) -> SimConfig {
        SimConfig {
            ruleset: Arc::new(ruleset::load(name).value.unwrap()),
            players: ["greedy".into(), "random".into()],
            games,
            seed: 42,
            rounds: Some(3),
            shared_deals: false,
        }
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        let c = config("koikoi", 12);
        let one = run(&c, 1, &|| {}).unwrap();
        let two = run(&c, 2, &|| {}).unwrap();
        assert_eq!(one, two);
        assert_eq!(one.len(), 12);
        assert_eq!(one[0].seat_of, [0, 1]);
        assert_eq!(one[1].seat_of, [1, 0]);
        for g in &one {
            let sum = g
                .rounds
                .iter()
                .fold([0, 0], |a, r| [a[0] + r.points[0], a[1] + r.points[1]]);
            assert_eq!(sum, g.scores);
        }
    }

    #[test]
    fn shared_deals_give_the_same_first_deal_to_two_rulesets() {
        let mut a = config("koikoi", 1);
        a.shared_deals = true;
        let mut b = config("koikoi-ktane", 1);
        b.shared_deals = true;
        let orders_a = shared_orders(&a.ruleset, a.rounds, 9);
        let orders_b = shared_orders(&b.ruleset, b.rounds, 9);
        assert_eq!(orders_a[0], orders_b[0]);
        let ra = play_game(&a, 0).unwrap();
        let rb = play_game(&b, 0).unwrap();
        assert_eq!(ra.rounds[0].dealer, rb.rounds[0].dealer);
    }

    /// Regression: simulations keep no outcome for ordinary stops, and the yaku that ended them
    /// went missing from the statistics (only instant wins were counted).
    #[test]
    fn ordinary_yaku_are_counted_in_simulations() {
        let c = config("koikoi", 12);
        let results = run(&c, 1, &|| {}).unwrap();
        let stops: Vec<&RoundResult> = results
            .iter()
            .flat_map(|g| &g.rounds)
            .filter(|r| r.end == HandEnd::Stop)
            .collect();
        assert!(!stops.is_empty());
        assert!(stops.iter().all(|r| !r.yaku.is_empty()));
        let known: Vec<&str> = c.ruleset.yaku.yaku.iter().map(|y| y.id.as_str()).collect();
        assert!(
            stops
                .iter()
                .flat_map(|r| &r.yaku)
                .all(|y| known.contains(&y.as_str()))
        );
    }

    #[test]
    fn unknown_bots_are_refused() {
        let mut c = config("koikoi", 1);
        c.players[1] = "wizard".into();
        assert_eq!(
            run(&c, 1, &|| {}).unwrap_err(),
            SimError::UnknownBot {
                name: "wizard".into()
            }
        );
    }
}
