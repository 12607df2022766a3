//! Batch bot runs of every family: many games on all cores, each from a seed derived from the
//! run's seed and the game's index only, folded into running statistics in game order, so the
//! report does not depend on the number of threads and memory does not grow with the number
//! of games. Nothing here prints.
//!
//! Players rotate seats: in game `i` the player named `p`-th sits at seat `(p + i) % seats`.
//! Results are kept per player, not per seat.

pub mod stats;

use crate::agent::{Agent, agent_by_name, agent_rng};
use crate::core::{HandEnd, HandResult, PerSeat, StartOptions};
use crate::deck::CardId;
use crate::ruleset::{GameLength, Ruleset};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt};
use rayon::prelude::*;
use std::sync::Arc;

pub use stats::{Comparison, Report, Stats};

/// Games played in parallel before their results are folded into the statistics.
const CHUNK: usize = 4096;

/// What to run.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// The ruleset.
    pub ruleset: Arc<Ruleset>,
    /// The players' bot names, one per seat, first player first.
    pub players: Vec<String>,
    /// How many games.
    pub games: usize,
    /// The run's seed.
    pub seed: u64,
    /// Hands per game instead of the ruleset's length.
    pub rounds: Option<u32>,
    /// Table limits on bets instead of the ruleset's.
    pub bet_limits: (Option<i64>, Option<i64>),
    /// Deal from orders drawn from each game's seed, and fix the first dealer from it, so that
    /// two rulesets with the same deck get the same shuffles (`--compare`).
    pub shared_deals: bool,
}

/// Why a run failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    /// A player name that is not a bot of this ruleset.
    UnknownBot {
        /// Why.
        message: String,
    },
    /// The game could not start with these options (a seat count, table limits).
    Options {
        /// Why.
        message: String,
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
            SimError::UnknownBot { message } | SimError::Options { message } => {
                f.write_str(message)
            }
            SimError::Script { game, message } => write!(f, "game {game}: {message}"),
            SimError::Threads { message } => write!(f, "cannot start threads: {message}"),
        }
    }
}

impl std::error::Error for SimError {}

impl From<crate::agent::AgentError> for SimError {
    fn from(e: crate::agent::AgentError) -> SimError {
        match e {
            crate::agent::AgentError::Unknown(message) => SimError::UnknownBot { message },
            crate::agent::AgentError::TooMuchWork(message) => SimError::Options { message },
        }
    }
}

/// One hand of a simulated game, by player (not seat).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundResult {
    /// The player who dealt (none when a house deals).
    pub dealer: Option<usize>,
    /// The player who won, if one did.
    pub winner: Option<usize>,
    /// How the hand ended.
    pub end: HandEnd,
    /// The yaku of the ruleset's table the winner scored (bit `i` for yaku `i`).
    pub yaku_mask: u64,
    /// An instant win's or special outcome's id, when the hand ended by one.
    pub special: Option<String>,
    /// Points for each player (inline: a simulation makes one of these every hand).
    pub points: PerSeat<i64>,
    /// Calls to play on by each player.
    pub calls: PerSeat<u32>,
    /// What the house won.
    pub house: i64,
}

/// One simulated game, by player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The seat of each player.
    pub seat_of: Vec<usize>,
    /// Final scores of each player.
    pub scores: Vec<i64>,
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

/// Checks that every player is a bot of the ruleset and the table seats them.
pub fn check_players(ruleset: &Ruleset, players: &[String]) -> Result<(), SimError> {
    let (min, _, max) = crate::families::seat_range(ruleset);
    if !(min..=max).contains(&players.len()) {
        return Err(SimError::Options {
            message: format!(
                "`{}` seats {min} to {max} players; `--players` gave {}",
                ruleset.id,
                players.len()
            ),
        });
    }
    for p in players {
        agent_by_name(p, ruleset)?;
    }
    Ok(())
}

/// Deck orders for a game seeded with `seed`, enough for every hand of the longest game plus
/// some redeals.
fn shared_orders(ruleset: &Ruleset, rounds: Option<u32>, seed: u64) -> Vec<Vec<CardId>> {
    let hands = rounds.unwrap_or(match ruleset.matching().map(|f| f.length) {
        Some(GameLength::Rounds(n)) => n,
        Some(GameLength::Target { max_rounds, .. }) => max_rounds,
        None => ruleset.banker().map_or(0, |f| f.hands),
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

/// Seat values `a` by player, where player `p` sits at `seat_of[p]`.
fn per_player<T: Copy + Default>(seat_of: &[usize], a: &[T]) -> PerSeat<T> {
    let mut by = PerSeat::new(seat_of.len());
    for (p, &s) in seat_of.iter().enumerate() {
        by[p] = a[s];
    }
    by
}

/// Plays game `index` of a run.
pub fn play_game(config: &SimConfig, index: usize) -> Result<GameResult, SimError> {
    let seed = game_seed(config.seed, index);
    let n = config.players.len();
    // Player p sits at seat (p + index) % n.
    let seat_of: Vec<usize> = (0..n).map(|p| (p + index) % n).collect();
    // Inline, not a zeroed vector: a small calloc costs about 400 instructions a game.
    let mut player_at: PerSeat<usize> = PerSeat::new(n);
    for (p, &s) in seat_of.iter().enumerate() {
        player_at[s] = p;
    }
    let mut agents: Vec<Box<dyn Agent>> = Vec::with_capacity(n);
    for &p in player_at.iter() {
        agents.push(agent_by_name(&config.players[p], &config.ruleset)?);
    }
    let (deck_orders, first_dealer) = if config.shared_deals {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        (
            shared_orders(&config.ruleset, config.rounds, seed),
            Some(rng.next_u32() as usize % n),
        )
    } else {
        (Vec::new(), None)
    };
    let summarize = |game: &dyn crate::core::Game| {
        let rounds = game
            .history()
            .iter()
            .map(|h: &HandResult| RoundResult {
                dealer: h.dealer.map(|d| player_at[d]),
                winner: h.winner.map(|w| player_at[w]),
                end: h.end,
                yaku_mask: h.yaku_mask,
                // Simulations keep no explanation for ordinary stops, only the yaku mask;
                // instant wins and house-rule exhaustion keep theirs.
                special: h
                    .outcome
                    .as_ref()
                    .filter(|_| h.yaku_mask == 0)
                    .and_then(|o| o.yaku.first())
                    .map(|y| y.id.clone()),
                points: per_player(&seat_of, &h.points),
                calls: per_player(&seat_of, &h.calls),
                house: h.house,
            })
            .collect();
        GameResult {
            scores: per_player(&seat_of, game.scores()).to_vec(),
            seat_of: seat_of.clone(),
            rounds,
        }
    };
    crate::families::play_to_end(
        Arc::clone(&config.ruleset),
        StartOptions {
            seed,
            seats: Some(n),
            rounds: config.rounds,
            deck_orders,
            log_events: false,
            simulation: true,
            first_dealer,
            bet_limits: config.bet_limits,
        },
        &mut agents,
        &mut agent_rng(seed),
        summarize,
    )
    .map_err(|e| match e {
        crate::core::StartError::Options { message } => SimError::Options { message },
        crate::core::StartError::Script(e) => SimError::Script {
            game: index,
            message: e.to_string(),
        },
    })
}

/// Plays every game of a run on `threads` threads (0: one per core), calling `visit` with each
/// game's result in game order and `tick` after each game. Games are played in chunks, so
/// memory does not grow with the number of games.
pub fn run(
    config: &SimConfig,
    threads: usize,
    tick: &(dyn Fn() + Sync),
    visit: impl FnMut(usize, &GameResult),
) -> Result<(), SimError> {
    run_in_chunks(config, threads, CHUNK, tick, visit)
}

/// [`run`], `chunk` games at a time. While the workers play a chunk, the calling thread folds
/// the one before it, so visiting the results in order keeps no worker waiting.
fn run_in_chunks(
    config: &SimConfig,
    threads: usize,
    chunk: usize,
    tick: &(dyn Fn() + Sync),
    mut visit: impl FnMut(usize, &GameResult),
) -> Result<(), SimError> {
    check_players(&config.ruleset, &config.players)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SimError::Threads {
            message: e.to_string(),
        })?;
    let play = |games: std::ops::Range<usize>| -> Vec<Result<GameResult, SimError>> {
        games
            .into_par_iter()
            .map(|i| {
                let r = play_game(config, i);
                tick();
                r
            })
            .collect()
    };
    // The chunk played last, waiting to be folded, and where it starts.
    let mut played: Option<(usize, Vec<Result<GameResult, SimError>>)> = None;
    let mut start = 0;
    while start < config.games || played.is_some() {
        let end = (start + chunk).min(config.games);
        let mut next = Vec::new();
        let folded: Result<(), SimError> = pool.in_place_scope(|s| {
            if start < end {
                s.spawn(|_| next = play(start..end));
            }
            let Some((at, results)) = played.take() else {
                return Ok(());
            };
            for (k, r) in results.into_iter().enumerate() {
                visit(at + k, &r?);
            }
            Ok(())
        });
        folded?;
        if start < end {
            played = Some((start, next));
        }
        start = end;
    }
    Ok(())
}

/// Runs `config` and summarizes it.
pub fn simulate(
    config: &SimConfig,
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> Result<Report, SimError> {
    let mut stats = Stats::new(&config.ruleset, &config.players);
    run(config, threads, tick, |_, g| stats.add(g))?;
    Ok(stats.report(config.seed))
}

/// Runs two rulesets on the same seeds (with shared deals) and compares them game by game.
pub fn compare(
    a: &SimConfig,
    b: &SimConfig,
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> Result<Comparison, SimError> {
    let mut sa = Stats::new(&a.ruleset, &a.players);
    let mut sb = Stats::new(&b.ruleset, &b.players);
    let mut paired = stats::Paired::new(&a.players);
    // Both runs advance chunk by chunk together, so the pairing needs no stored games.
    let mut start = 0;
    while start < a.games {
        let end = (start + CHUNK).min(a.games);
        let slice = |c: &SimConfig| SimConfig {
            games: end,
            ..c.clone()
        };
        let mut first = Vec::new();
        run_range(&slice(a), start, threads, tick, |g| first.push(g))?;
        let mut k = 0;
        run_range(&slice(b), start, threads, tick, |g| {
            sa.add(&first[k]);
            sb.add(&g);
            paired.add(&first[k], &g);
            k += 1;
        })?;
        start = end;
    }
    Ok(paired.finish(sa.report(a.seed), sb.report(b.seed)))
}

/// Games `start..config.games` of a run, in order.
fn run_range(
    config: &SimConfig,
    start: usize,
    threads: usize,
    tick: &(dyn Fn() + Sync),
    mut visit: impl FnMut(GameResult),
) -> Result<(), SimError> {
    check_players(&config.ruleset, &config.players)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SimError::Threads {
            message: e.to_string(),
        })?;
    let chunk: Vec<Result<GameResult, SimError>> = pool.install(|| {
        (start..config.games)
            .into_par_iter()
            .map(|i| {
                let r = play_game(config, i);
                tick();
                r
            })
            .collect()
    });
    for r in chunk {
        visit(r?);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset;

    fn config(name: &str, players: &[&str], games: usize) -> SimConfig {
        SimConfig {
            ruleset: Arc::new(ruleset::load(name).value.unwrap()),
            players: players.iter().map(|p| p.to_string()).collect(),
            games,
            seed: 42,
            rounds: Some(3),
            bet_limits: (None, None),
            shared_deals: false,
        }
    }

    fn results(c: &SimConfig, threads: usize) -> Vec<GameResult> {
        let mut v = Vec::new();
        run(c, threads, &|| {}, |_, g| v.push(g.clone())).unwrap();
        v
    }

    #[test]
    fn results_come_in_game_order_whatever_the_chunks() {
        let c = config("koikoi", &["random", "random"], 12);
        let mut order = Vec::new();
        let mut chunked = Vec::new();
        run_in_chunks(&c, 2, 5, &|| {}, |i, g| {
            order.push(i);
            chunked.push(g.clone());
        })
        .unwrap();
        assert_eq!(order, (0..12).collect::<Vec<_>>());
        assert_eq!(chunked, results(&c, 1));
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        for (name, players) in [
            ("koikoi", &["greedy", "random"][..]),
            ("kolyesi", &["seed", "random", "best"][..]),
        ] {
            let c = config(name, players, 12);
            let one = results(&c, 1);
            let two = results(&c, 2);
            assert_eq!(one, two);
            assert_eq!(one.len(), 12);
            assert_eq!(one[1].seat_of[0], 1);
            for g in &one {
                let mut sum = vec![0; players.len()];
                for r in &g.rounds {
                    for (s, p) in sum.iter_mut().zip(r.points.iter()) {
                        *s += p;
                    }
                }
                if name == "koikoi" {
                    assert_eq!(sum, g.scores);
                }
            }
            assert_eq!(
                simulate(&c, 1, &|| {}).unwrap(),
                simulate(&c, 2, &|| {}).unwrap()
            );
        }
    }

    #[test]
    fn shared_deals_give_the_same_first_deal_to_two_rulesets() {
        let mut a = config("koikoi", &["greedy", "random"], 1);
        a.shared_deals = true;
        let mut b = config("koikoi-ktane", &["greedy", "random"], 1);
        b.shared_deals = true;
        let orders_a = shared_orders(&a.ruleset, a.rounds, 9);
        let orders_b = shared_orders(&b.ruleset, b.rounds, 9);
        assert_eq!(orders_a[0], orders_b[0]);
        let ra = play_game(&a, 0).unwrap();
        let rb = play_game(&b, 0).unwrap();
        assert_eq!(ra.rounds[0].dealer, rb.rounds[0].dealer);
        let c = compare(&a, &b, 1, &|| {}).unwrap();
        assert_eq!(c.a.games, 1);
    }

    /// Regression: simulations keep no outcome for ordinary stops, and the yaku that ended them
    /// went missing from the statistics (only instant wins were counted).
    #[test]
    fn ordinary_yaku_are_counted_in_simulations() {
        let c = config("koikoi", &["greedy", "random"], 12);
        let report = simulate(&c, 1, &|| {}).unwrap();
        let known: Vec<&str> = c.ruleset.yaku.yaku.iter().map(|y| y.id.as_str()).collect();
        assert!(report.yaku.iter().any(|y| known.contains(&y.id.as_str())));
        let stops = results(&c, 1)
            .iter()
            .flat_map(|g| g.rounds.clone())
            .filter(|r| r.end == crate::families::matching::ends::STOP)
            .collect::<Vec<_>>();
        assert!(!stops.is_empty());
        assert!(stops.iter().all(|r| r.yaku_mask != 0));
    }

    #[test]
    fn unknown_bots_and_seat_counts_are_refused() {
        let c = config("koikoi", &["greedy", "wizard"], 1);
        assert!(matches!(
            run(&c, 1, &|| {}, |_, _| {}).unwrap_err(),
            SimError::UnknownBot { .. }
        ));
        let c = config("koikoi", &["greedy"], 1);
        assert!(matches!(
            run(&c, 1, &|| {}, |_, _| {}).unwrap_err(),
            SimError::Options { .. }
        ));
    }
}
