//! Batch bot runs of every family: many games on all cores, each from a seed derived from the
//! run's seed and the game's index only, folded into exact running statistics on the worker
//! that played it, so the report does not depend on the number of threads and memory does not
//! grow with the number of games. Nothing here prints.
//!
//! Players rotate seats: in game `i` the player named `p`-th sits at seat `(p + i) % seats`.
//! Results are kept per player, not per seat.
//!
//! ```
//! use yaku::sim::{SimConfig, simulate};
//! let config = SimConfig {
//!     ruleset: std::sync::Arc::new(yaku::ruleset::load("koikoi").value.unwrap()),
//!     players: vec!["random".into(), "greedy".into()],
//!     games: 4,
//!     seed: 1,
//!     rounds: Some(1),
//!     bet_limits: (None, None),
//!     shared_deals: false,
//! };
//! let report = simulate(&config, 1, &|| {}).unwrap();
//! assert_eq!(report.games, 4);
//! ```

pub mod stats;

use crate::agent::{Agent, agent_rng};
use crate::core::{Game, HandResult, PerSeat, Seat, StartOptions};
use crate::deck::CardId;
use crate::families::agent_by_name;
use crate::ruleset::Ruleset;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt};
use rayon::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

pub use stats::{Comparison, Report, Stats};

/// Games of a comparison played in parallel before they are paired.
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
    /// A program playing a seat (`cmd:`) failed: in a simulation it stops the run, as a bot
    /// taking its place would change what is measured.
    Program {
        /// The game's index.
        game: usize,
        /// Why.
        message: String,
    },
    /// The thread pool could not be built.
    Threads {
        /// Why.
        message: String,
    },
    /// The hands could not be written (`--out`).
    Output {
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
            SimError::Script { game, message } | SimError::Program { game, message } => {
                write!(f, "game {game}: {message}")
            }
            SimError::Threads { message } => write!(f, "cannot start threads: {message}"),
            SimError::Output { message } => f.write_str(message),
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

/// One simulated game as the game recorded it, by seat, and where each player sat (for a
/// comparison, whose paired measures are folded in game order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The seat of each player.
    pub seat_of: Vec<Seat>,
    /// Final scores, by seat.
    pub scores: Vec<i64>,
    /// Every hand, by seat.
    pub hands: Vec<HandResult>,
    /// The partnerships at the table (each seat its own without them).
    pub teams: crate::ruleset::Teams,
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
    let crate::families::SeatRange { min, max, .. } = crate::families::seat_range(ruleset);
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
    let hands = rounds.unwrap_or_else(|| crate::families::of(ruleset).most_hands(ruleset));
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

/// Plays game `index` of a run and returns what `finished` reads of the finished game, given
/// the seat of each player.
pub fn play_game<R>(
    config: &SimConfig,
    index: usize,
    finished: impl FnOnce(&dyn Game, &[Seat]) -> R,
) -> Result<R, SimError> {
    let seed = game_seed(config.seed, index);
    let n = config.players.len();
    // Player p sits at seat (p + index) % n. Inline, not vectors: a small calloc costs about
    // 400 instructions a game.
    let mut seat_of: PerSeat<Seat> = PerSeat::new(n);
    let mut player_at: PerSeat<usize> = PerSeat::new(n);
    for p in 0..n {
        seat_of[p] = (p + index) % n;
        player_at[seat_of[p]] = p;
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
    let result = crate::families::play_to_end(
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
            first_hand: 0,
            carried: None,
        },
        &mut agents,
        &mut agent_rng(seed),
        |game| finished(game, &seat_of),
    )
    .map_err(|e| match e {
        crate::core::StartError::Options { message } => SimError::Options { message },
        crate::core::StartError::Script(e) => SimError::Script {
            game: index,
            message: e.to_string(),
        },
    });
    if let Some(message) = agents.iter_mut().find_map(|a| a.notice()) {
        return Err(SimError::Program {
            game: index,
            message: message.replace("; greedy plays it from here", ""),
        });
    }
    result
}

/// Game `index` of a run, as the game recorded it.
pub fn game_result(config: &SimConfig, index: usize) -> Result<GameResult, SimError> {
    play_game(config, index, |game, seat_of| GameResult {
        seat_of: seat_of.to_vec(),
        scores: game.scores().to_vec(),
        hands: game.history().to_vec(),
        teams: game.ruleset().teams(),
    })
}

/// A pool of `threads` threads (0: one per core).
fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, SimError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SimError::Threads {
            message: e.to_string(),
        })
}

/// One worker's share of a run: the statistics of the games it played, the first error among
/// them, and with `--out` each hand's line. The statistics are boxed: the share is moved at
/// every game it folds.
struct Share {
    stats: Box<Stats>,
    error: Option<(usize, SimError)>,
    /// Each hand as a JSON line, with its game's index (kept only when asked for).
    lines: Vec<(usize, String)>,
}

impl Share {
    /// Plays game `index` into the statistics (and its hands into `lines` when `keep`), unless
    /// an earlier game of this share failed (a later one cannot be the run's first error).
    fn play(mut self, config: &SimConfig, index: usize, keep: bool) -> Share {
        if self.error.is_some() {
            return self;
        }
        let lines = &mut self.lines;
        let stats = &mut self.stats;
        if let Err(e) = play_game(config, index, |game, seat_of| {
            stats.add_game(game, seat_of);
            if keep {
                hand_lines(config, index, game, seat_of, lines);
            }
        }) {
            self.error = Some((index, e));
        }
        self
    }

    /// Both shares: the statistics merged, and the error of the lower game.
    fn merge(mut self, other: Share) -> Share {
        self.stats.merge(&other.stats);
        self.lines.extend(other.lines);
        self.error = match (self.error, other.error) {
            (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
            (a, b) => a.or(b),
        };
        self
    }
}

/// Each hand of a finished game `index` as one JSON line (`sim --out`): the game and its seed,
/// the hand, the players by seat, each seat's points, how the hand ended, the winner, the
/// dealer, the winner's yaku, and against a house what the house won.
fn hand_lines(
    config: &SimConfig,
    index: usize,
    game: &dyn Game,
    seat_of: &[Seat],
    lines: &mut Vec<(usize, String)>,
) {
    let seed = game_seed(config.seed, index);
    let mut seats = vec![String::new(); seat_of.len()];
    for (p, &s) in seat_of.iter().enumerate() {
        if let Some(slot) = seats.get_mut(s) {
            slot.clone_from(&config.players[p]);
        }
    }
    let yaku = &config.ruleset.yaku.yaku;
    let house = config.ruleset.banker().is_some();
    for (k, h) in game.history().iter().enumerate() {
        let won: Vec<&str> = (0..yaku.len().min(64))
            .filter(|i| h.yaku_mask >> i & 1 == 1)
            .map(|i| yaku[i].id.as_str())
            .collect();
        let line = HandLine {
            game: index,
            seed,
            hand: k + 1,
            seats: &seats,
            points: &h.points,
            end: h.end.0,
            winner: h.winner,
            dealer: h.dealer,
            yaku: won,
            house: house.then_some(h.house),
        };
        lines.push((index, serde_json::to_string(&line).unwrap_or_default()));
    }
}

/// One line of `sim --out`, its fields in this order.
#[derive(serde::Serialize)]
struct HandLine<'a> {
    game: usize,
    seed: u64,
    hand: usize,
    seats: &'a [String],
    points: &'a [i64],
    end: &'a str,
    winner: Option<Seat>,
    dealer: Option<Seat>,
    yaku: Vec<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    house: Option<i64>,
}

/// Runs `config` on `threads` threads (0: one per core) and summarizes it, calling `tick` after
/// each game. Each worker folds the games it plays into statistics of its own, merged at the
/// end: the sums are exact, so the report does not depend on the number of threads, and
/// nothing is kept per game. A failed game stops the run with the lowest failing game's error.
pub fn simulate(
    config: &SimConfig,
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> Result<Report, SimError> {
    simulate_to(config, threads, tick, None)
}

/// [`simulate`], stopping early once `stop` is set (an interrupt): the games not yet begun are
/// not played, those in play finish, and the report is of the games finished. Which games
/// those are depends on the threads; a run not stopped is the same as [`simulate`]'s.
pub fn simulate_until(
    config: &SimConfig,
    threads: usize,
    tick: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<Report, SimError> {
    run(config, threads, tick, None, Some(stop))
}

/// Where [`simulate_to`] writes each hand's line, in game order.
pub type HandSink<'a> = &'a mut dyn FnMut(&str) -> std::io::Result<()>;

/// [`simulate`], writing every hand as one JSON line to `out` when given: the games are then
/// played 4,096 at a time and each chunk's lines written in game order before the next is
/// played, so memory does not grow with the games and the file is the same for any number of
/// threads. The statistics are exact sums, the same as without `out`.
pub fn simulate_to(
    config: &SimConfig,
    threads: usize,
    tick: &(dyn Fn() + Sync),
    out: Option<HandSink<'_>>,
) -> Result<Report, SimError> {
    run(config, threads, tick, out, None)
}

/// [`simulate_to`], stopping early once `stop` is set ([`simulate_until`]).
fn run(
    config: &SimConfig,
    threads: usize,
    tick: &(dyn Fn() + Sync),
    mut out: Option<HandSink<'_>>,
    stop: Option<&AtomicBool>,
) -> Result<Report, SimError> {
    let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    check_players(&config.ruleset, &config.players)?;
    let keep = out.is_some();
    let empty = || Share {
        stats: Box::new(Stats::new(&config.ruleset, &config.players)),
        error: None,
        lines: Vec::new(),
    };
    let pool = thread_pool(threads)?;
    let step = if keep { CHUNK } else { config.games.max(1) };
    let mut total = empty();
    let mut start = 0;
    while start < config.games {
        let end = (start + step).min(config.games);
        let mut share = pool.install(|| {
            (start..end)
                .into_par_iter()
                .fold(empty, |share, i| {
                    if stopped() {
                        return share;
                    }
                    let share = share.play(config, i, keep);
                    tick();
                    share
                })
                .reduce(empty, Share::merge)
        });
        if let Some((_, e)) = share.error.take() {
            return Err(e);
        }
        if let Some(out) = out.as_mut() {
            // A game's hands are in order within its share; the sort is stable.
            share.lines.sort_by_key(|(i, _)| *i);
            for (_, line) in share.lines.drain(..) {
                out(&line).map_err(|e| SimError::Output {
                    message: e.to_string(),
                })?;
            }
        }
        total = total.merge(share);
        if stopped() {
            break;
        }
        start = end;
    }
    Ok(total.stats.report(config.seed))
}

/// Runs two rulesets on the same seeds (with shared deals) and compares them game by game.
pub fn compare(
    a: &SimConfig,
    b: &SimConfig,
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> Result<Comparison, SimError> {
    check_players(&a.ruleset, &a.players)?;
    check_players(&b.ruleset, &b.players)?;
    let pool = thread_pool(threads)?;
    let mut sa = Stats::new(&a.ruleset, &a.players);
    let mut sb = Stats::new(&b.ruleset, &b.players);
    let mut paired = stats::Paired::new(&a.players);
    // Both runs advance chunk by chunk together, so the pairing needs no stored games.
    let mut start = 0;
    while start < a.games {
        let end = (start + CHUNK).min(a.games);
        let first = results(a, start..end, &pool, tick)?;
        let second = results(b, start..end, &pool, tick)?;
        for (x, y) in first.iter().zip(&second) {
            sa.add(x);
            sb.add(y);
            paired.add(x, y);
        }
        start = end;
    }
    Ok(paired.finish(sa.report(a.seed), sb.report(b.seed)))
}

/// Games `games` of a run, in order; the first failing game's error.
fn results(
    config: &SimConfig,
    games: std::ops::Range<usize>,
    pool: &rayon::ThreadPool,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<GameResult>, SimError> {
    let played: Vec<Result<GameResult, SimError>> = pool.install(|| {
        games
            .into_par_iter()
            .map(|i| {
                let r = game_result(config, i);
                tick();
                r
            })
            .collect()
    });
    played.into_iter().collect()
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

    fn played(c: &SimConfig, threads: usize) -> Vec<GameResult> {
        let pool = thread_pool(threads).unwrap();
        results(c, 0..c.games, &pool, &|| {}).unwrap()
    }

    /// The statistics of games folded one by one, of shares of them merged in any order, and
    /// of a simulation on any number of threads are the same.
    #[test]
    fn statistics_merged_are_the_statistics_folded_in_order() {
        for (name, players) in [
            ("koikoi", &["greedy", "random"][..]),
            ("kolyesi", &["seed", "random", "best"][..]),
            ("gostop", &["random", "greedy", "random"][..]),
        ] {
            let c = config(name, players, 12);
            let games = played(&c, 1);
            let fold = |games: &[GameResult]| {
                let mut stats = Stats::new(&c.ruleset, &c.players);
                for g in games {
                    stats.add(g);
                }
                stats
            };
            let in_order = fold(&games).report(c.seed);
            let (mut late, early) = (fold(&games[7..]), fold(&games[..7]));
            late.merge(&early);
            assert_eq!(late.report(c.seed), in_order, "{name}");
            for threads in [1, 2, 3] {
                assert_eq!(simulate(&c, threads, &|| {}).unwrap(), in_order, "{name}");
            }
            assert_eq!(in_order.games, 12);
            assert_eq!(
                in_order.rounds,
                games.iter().map(|g| g.hands.len() as u64).sum::<u64>()
            );
        }
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        for (name, players) in [
            ("koikoi", &["greedy", "random"][..]),
            ("kolyesi", &["seed", "random", "best"][..]),
        ] {
            let c = config(name, players, 12);
            let one = played(&c, 1);
            let two = played(&c, 2);
            assert_eq!(one, two);
            assert_eq!(one.len(), 12);
            assert_eq!(one[1].seat_of[0], 1);
            for g in &one {
                let mut sum = vec![0; players.len()];
                for h in &g.hands {
                    for (s, p) in sum.iter_mut().zip(h.points.iter()) {
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
        let ra = game_result(&a, 0).unwrap();
        let rb = game_result(&b, 0).unwrap();
        assert_eq!(ra.hands[0].dealer, rb.hands[0].dealer);
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
        let stops = played(&c, 1)
            .iter()
            .flat_map(|g| g.hands.clone())
            .filter(|r| r.end == crate::families::matching::ends::STOP)
            .collect::<Vec<_>>();
        assert!(!stops.is_empty());
        assert!(stops.iter().all(|r| r.yaku_mask != 0));
    }

    #[test]
    fn unknown_bots_and_seat_counts_are_refused() {
        let c = config("koikoi", &["greedy", "wizard"], 1);
        assert!(matches!(
            simulate(&c, 1, &|| {}).unwrap_err(),
            SimError::UnknownBot { .. }
        ));
        let c = config("koikoi", &["greedy"], 1);
        assert!(matches!(
            simulate(&c, 1, &|| {}).unwrap_err(),
            SimError::Options { .. }
        ));
    }
}
