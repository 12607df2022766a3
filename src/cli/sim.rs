//! `yaku sim RULESET`: bot-vs-bot games on all cores, and their statistics as text or JSON.

use super::{load_ruleset, load_ruleset_read};
use crate::front::plural;
use crate::sim::stats::{Comparison, Proportion, Report};
use crate::sim::{self, SimConfig};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::sync::Arc;

/// Arguments of `yaku sim`.
#[derive(clap::Args, Debug)]
pub struct SimArgs {
    /// The ruleset: a bundled name (`koikoi`) or a path.
    pub(crate) ruleset: String,
    #[command(flatten)]
    pub(crate) house: super::HouseArgs,
    /// How many games.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    games: usize,
    /// The bots, one per seat (they rotate seats from game to game): `random`, `greedy`,
    /// `expert`, `expert:N`, `expert@T` in every game, or `cmd:PROGRAM ARGS` for a program of
    /// your own that plays over the seat protocol; banker games also take strategies (`seed`,
    /// `always-one`, `always-two`, `best-fixed`, `best`, or a strategy file).
    /// Default: `greedy` in the first seat and `random` in every other seat the ruleset has.
    #[arg(long, value_delimiter = ',', value_name = "A,B")]
    players: Vec<String>,
    /// The run's seed; game i is seeded from (seed, i) only.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,
    /// Worker threads (default: one per core; at most four per core and one per game). Results
    /// do not depend on it.
    #[arg(long, default_value_t = 0, value_name = "T")]
    threads: usize,
    /// Hands per game instead of the ruleset's length, 1 to 1000.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    rounds: Option<u32>,
    /// The smallest bet, for banker games (defaults to the ruleset's).
    #[arg(long, value_name = "A", value_parser = clap::value_parser!(i64).range(1..=crate::ruleset::MAX_BET))]
    min_bet: Option<i64>,
    /// The largest bet, for banker games (defaults to the ruleset's).
    #[arg(long, value_name = "B", value_parser = clap::value_parser!(i64).range(1..=crate::ruleset::MAX_BET))]
    max_bet: Option<i64>,
    /// Also play this ruleset on the same seeds and report the differences.
    #[arg(long, value_name = "OTHER_RULESET")]
    compare: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Also write every hand as one JSON line to FILE (JSON Lines: the game, its seed, the
    /// hand, the players by seat, each seat's points, how it ended, the winner, the dealer, the
    /// winner's yaku), in game order, as the run goes; the file is put in place when the run
    /// ends.
    #[arg(long, value_name = "FILE", conflicts_with = "compare")]
    out: Option<std::path::PathBuf>,
}

/// Threads for `games` games when `asked` were asked for (0: one per core): never more than
/// four per core, nor more than the games, since each thread has its own stack and caches
/// (`--games 4 --threads 2000` took 8 s and 350 MB starting threads with nothing to do).
fn thread_count(asked: usize, games: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let most = cores.saturating_mul(4);
    if asked > most {
        eprintln!(
            "note: `--threads {asked}` is more than four per core; using {most} (results do not depend on it)"
        );
    }
    let wanted = if asked == 0 { cores } else { asked.min(most) };
    wanted.clamp(1, games.max(1))
}

/// Runs the command.
pub fn run(args: &SimArgs) -> i32 {
    if args.games == 0 {
        eprintln!("error: `--games` must be at least 1");
        return super::EXIT_USAGE;
    }
    let Some((ruleset, mut inputs)) = load_ruleset_read(&args.ruleset) else {
        return super::EXIT_FAILURE;
    };
    // From here on (the command runs in this build), an interrupt ends the seat programs and
    // removes the unfinished `--out`; a plain run's first Ctrl-C instead stops it early and
    // reports the games played.
    let interruptible = args.out.is_none() && args.compare.is_none();
    let stop = if interruptible {
        Some(super::stop_on_interrupt())
    } else {
        super::exit_on_signals();
        None
    };
    let threads = thread_count(args.threads, args.games);
    let mut players: Vec<String> = args.players.iter().map(|p| p.trim().to_string()).collect();
    if players.is_empty() {
        let seats = crate::families::seat_range(&ruleset).default;
        players = std::iter::once("greedy".to_string())
            .chain(std::iter::repeat_n(
                "random".to_string(),
                seats.saturating_sub(1),
            ))
            .collect();
    }
    if let Err(e) = sim::check_players(&ruleset, &players) {
        eprintln!("error: {e}");
        return super::EXIT_USAGE;
    }
    inputs.extend(super::player_inputs(&players));
    let other = match &args.compare {
        Some(spec) => match load_ruleset(spec) {
            Some(r) => Some(r),
            None => return super::EXIT_FAILURE,
        },
        None => None,
    };
    let config = |r: &Arc<crate::ruleset::Ruleset>| SimConfig {
        ruleset: Arc::clone(r),
        players: players.clone(),
        games: args.games,
        seed: args.seed,
        rounds: args.rounds,
        bet_limits: (args.min_bet, args.max_bet),
        shared_deals: other.is_some(),
    };
    // The odds the bots play from, before the first game: with a bar on a terminal, since a
    // game that draws until 17 takes seconds of them (the bound was checked with the players).
    for r in std::iter::once(&ruleset).chain(other.as_ref()) {
        prepare_bots(r, &players);
    }
    let runs = 1 + usize::from(other.is_some());
    let bar = progress_bar((args.games * runs) as u64);
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let fail = |e: sim::SimError| {
        eprintln!("error: {e}");
        match e {
            sim::SimError::Script { .. }
            | sim::SimError::Program { .. }
            | sim::SimError::Threads { .. }
            | sim::SimError::Output { .. } => super::EXIT_FAILURE,
            _ => super::EXIT_USAGE,
        }
    };
    // The hands' file is started before any game, so a path that cannot be written is found
    // at once.
    let mut out = match &args.out {
        Some(path) => match crate::fsio::AtomicFile::create(path, &inputs) {
            Ok(f) => Some(f),
            Err(e) => {
                eprintln!("error: cannot write `{}`: {e}", path.display());
                return super::EXIT_FAILURE;
            }
        },
        None => None,
    };
    let out_path = args.out.clone().unwrap_or_default();
    let mut write_line = |line: &str| match &mut out {
        Some(f) => f.line(line).map_err(|e| {
            std::io::Error::other(format!("cannot write `{}`: {e}", out_path.display()))
        }),
        None => Ok(()),
    };
    let sink: Option<sim::HandSink<'_>> = args.out.as_ref().map(|_| &mut write_line as _);
    let mut interrupted = false;
    let text = match &other {
        None => {
            let run = match &stop {
                Some(stop) => sim::simulate_until(&config(&ruleset), threads, &tick, stop),
                None => sim::simulate_to(&config(&ruleset), threads, &tick, sink),
            };
            match run {
                Ok(report) if args.json => {
                    serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
                }
                Ok(report) => {
                    let mut text = render_report(&report);
                    if report.games < args.games as u64 {
                        interrupted = true;
                        text = format!(
                            "interrupted after {} of {}: the figures are those of the games played (which ones depends on the threads)\n{text}",
                            report.games,
                            plural(args.games as u64, "game")
                        );
                    }
                    text
                }
                Err(e) => return fail(e),
            }
        }
        Some(other) => {
            if let Err(e) = sim::check_players(other, &players) {
                eprintln!("error: {e}");
                return super::EXIT_USAGE;
            }
            match sim::compare(&config(&ruleset), &config(other), threads, &tick) {
                Ok(c) if args.json => serde_json::to_string_pretty(&c).unwrap_or_default() + "\n",
                Ok(c) => render_comparison(&c),
                Err(e) => return fail(e),
            }
        }
    };
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let (Some(f), Some(path)) = (out, &args.out)
        && let Err(e) = f.finish()
    {
        eprintln!("error: cannot write `{}`: {e}", path.display());
        return super::EXIT_FAILURE;
    }
    print!("{text}");
    if interrupted {
        // As a shell reports a command ended by Ctrl-C.
        return 128 + signal_hook::consts::SIGINT;
    }
    super::EXIT_OK
}

/// Works out the analysis the bots `players` play from before play (`yaku sim`, `yaku play`),
/// with a progress bar on a terminal.
pub(super) fn prepare_bots(ruleset: &crate::ruleset::Ruleset, players: &[String]) {
    let bar = analysis_bar();
    crate::families::prepare_bots(ruleset, players, &mut |done, total| {
        if let Some(b) = &bar {
            b.set_length(total);
            b.set_position(done);
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

/// The bar of the bots' analysis before play, on a terminal.
fn analysis_bar() -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(0);
    if let Ok(style) = ProgressStyle::with_template(
        "{wide_bar} {pos}/{len} · working out the odds the bots play from · ETA {eta}",
    ) {
        bar.set_style(style);
    }
    Some(bar)
}

fn progress_bar(len: u64) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) =
        ProgressStyle::with_template("{wide_bar} {pos}/{len} games · {rate} · ETA {eta}")
    {
        bar.set_style(style.with_key("rate", rate));
    }
    Some(bar)
}

/// Games a second, in whole games, so that the figure keeps its width as it changes
/// (indicatif's own `{per_sec}` shows from none to four decimals).
fn rate(state: &indicatif::ProgressState, out: &mut dyn std::fmt::Write) {
    let _ = write!(out, "{} games/s", games_per_second(state.per_sec()));
}

/// A rate as a whole number of games, thousands grouped: `12,345`.
fn games_per_second(per_sec: f64) -> String {
    let whole = if per_sec.is_finite() && per_sec > 0.0 {
        per_sec.round() as u64
    } else {
        0
    };
    let digits = whole.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn pct(p: &Proportion) -> String {
    format!(
        "{:5.1}% [{:.1}%, {:.1}%]",
        100.0 * p.rate,
        100.0 * p.low,
        100.0 * p.high
    )
}

/// The text report of one run.
pub fn render_report(r: &Report) -> String {
    let mut out = String::new();
    let unit = if r.by_hand {
        "chips per hand (95% CI)"
    } else {
        "points per round (95% CI)"
    };
    let _ = writeln!(
        out,
        "{}: {}, {}, seed {} (players rotate seats; game i is seeded from (seed, i))",
        r.ruleset,
        plural(r.games, "game"),
        plural(r.rounds, "round"),
        r.seed
    );
    let rows = r.seats.iter().enumerate().map(|(i, s)| SeatRow {
        label: format!("{} {}", i + 1, s.player),
        counts: [s.wins, s.losses, s.draws],
        rate: Some(&s.win_rate),
        mean: format!(
            "{:+.3} ± {:.3}",
            s.points_per_round.mean, s.points_per_round.ci95
        ),
    });
    let house = r.house.map(|h| SeatRow {
        label: "house (banker)".into(),
        counts: [0; 3],
        rate: None,
        mean: format!("{:+.3} ± {:.3}", h.mean, h.ci95),
    });
    let headers = if r.by_hand {
        [
            "player",
            "hands won",
            "lost",
            "pushed",
            "hands won [95% CI]",
            unit,
        ]
    } else {
        [
            "player",
            "wins",
            "losses",
            "draws",
            "win rate [95% CI]",
            unit,
        ]
    };
    seat_table(&mut out, headers, rows.chain(house));
    if r.by_hand {
        let banks: Vec<String> = r
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                format!(
                    "player {} {:.1} ± {:.1}",
                    i + 1,
                    s.score_per_game.mean,
                    s.score_per_game.ci95
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "\n  bankroll at the end of a game (mean, 95% CI): {}",
            banks.join("; ")
        );
    }
    if let (Some(adv), Some(wins)) = (&r.dealer_advantage, &r.dealer_wins) {
        let _ = writeln!(
            out,
            "\n  dealer's advantage: {:+.3} ± {:.3} points per round (dealer minus the others' average); the dealer won {} of rounds",
            adv.mean,
            adv.ci95,
            pct(wins).trim_start()
        );
    }
    let ends: Vec<String> = r
        .ends
        .iter()
        .map(|e| format!("{} {}", e.end, pct(&e.share).trim_start()))
        .collect();
    let _ = writeln!(out, "  how rounds ended: {}", ends.join("; "));
    if let Some(outs) = &r.stake_outs {
        let _ = writeln!(
            out,
            "  games ended by a stake running out: {} (the scores are the final stakes)",
            pct(outs).trim_start()
        );
    }
    for (i, s) in r.seats.iter().enumerate() {
        if s.calls > 0 {
            let _ = writeln!(
                out,
                "  calls to play on, player {} ({}): {} in {}; the caller won {} of those hands",
                i + 1,
                s.player,
                plural(s.calls, "call"),
                plural(s.call_hands, "hand"),
                pct(&s.calls_paid_off).trim_start()
            );
        }
    }
    if !r.yaku.is_empty() {
        let _ = writeln!(out, "\n  yaku in the winning hand (share of all rounds):");
        for y in &r.yaku {
            let _ = writeln!(
                out,
                "    {:<24} {:>7} {:6.2}%",
                y.id,
                y.share.count,
                100.0 * y.share.rate
            );
        }
    }
    out
}

/// The text report of a comparison.
pub fn render_comparison(c: &Comparison) -> String {
    let mut out = render_report(&c.a);
    out.push('\n');
    out.push_str(&render_report(&c.b));
    let _ = writeln!(
        out,
        "\n{} vs {}: same seeds and shuffles, paired game by game (difference = second - first)",
        c.a.ruleset, c.b.ruleset
    );
    let _ = writeln!(
        out,
        "  {:<40} {:>10} {:>10} {:>22}",
        "measure", c.a.ruleset, c.b.ruleset, "difference (95% CI)"
    );
    for d in &c.differences {
        let _ = writeln!(
            out,
            "  {:<40} {:>10.3} {:>10.3} {:>+12.3} ± {:<8.3}",
            d.measure, d.a, d.b, d.diff.mean, d.diff.ci95
        );
    }
    out
}

/// One line of a report's table of seats.
struct SeatRow<'a> {
    label: String,
    /// Wins, losses, draws (not shown without a rate).
    counts: [u64; 3],
    rate: Option<&'a Proportion>,
    mean: String,
}

/// The table of seats shared by the matching and banker reports: a header, then one row a seat.
fn seat_table<'a>(out: &mut String, header: [&str; 6], rows: impl Iterator<Item = SeatRow<'a>>) {
    let [who, a, b, c, rate, mean] = header;
    let _ = writeln!(out, "\n  {who:<20} {a:>6} {b:>6} {c:>6}  {rate:<24} {mean}");
    for row in rows {
        let (counts, rate) = match row.rate {
            Some(p) => (row.counts.map(|n| n.to_string()), pct(p)),
            None => (Default::default(), String::new()),
        };
        let [w, l, d] = counts;
        let _ = writeln!(
            out,
            "  {:<20} {w:>6} {l:>6} {d:>6}  {rate:<24} {}",
            row.label, row.mean
        );
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_rate_is_whole_games_with_thousands_grouped() {
        assert_eq!(super::games_per_second(1234.5678), "1,235");
        assert_eq!(super::games_per_second(12.4), "12");
        assert_eq!(super::games_per_second(1_000_000.0), "1,000,000");
        assert_eq!(super::games_per_second(f64::NAN), "0");
    }
}
