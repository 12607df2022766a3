//! `yaku sim RULESET`: bot-vs-bot games on all cores, and their statistics as text or JSON.

use super::{load_ruleset, plural};
use crate::sim::banker::{BankerReport, BankerSimConfig};
use crate::sim::stats::{self, Comparison, Proportion, Report};
use crate::sim::{self, SimConfig};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::sync::Arc;

/// Arguments of `yaku sim`.
#[derive(clap::Args, Debug)]
pub struct SimArgs {
    /// The ruleset: a bundled name (`koikoi`) or a path.
    ruleset: String,
    /// How many games.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    games: usize,
    /// The bots: two for a matching game (`random`, `greedy`, `expert`, `expert:N`; they
    /// alternate seats), one per player seat for a banker game (`seed`, `always-one`,
    /// `always-two`, `best-fixed`, `best`, `random`, or a strategy file).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "greedy,random",
        value_name = "A,B"
    )]
    players: Vec<String>,
    /// The run's seed; game i is seeded from (seed, i) only.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long, default_value_t = 0, value_name = "T")]
    threads: usize,
    /// Hands per game instead of the ruleset's length, 1 to 1000.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    rounds: Option<u32>,
    /// The smallest bet, for banker games (defaults to the ruleset's).
    #[arg(long, value_name = "A")]
    min_bet: Option<i64>,
    /// The largest bet, for banker games (defaults to the ruleset's).
    #[arg(long, value_name = "B")]
    max_bet: Option<i64>,
    /// Also play this ruleset on the same seeds and report the differences.
    #[arg(long, value_name = "OTHER_RULESET")]
    compare: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: &SimArgs) -> i32 {
    if args.games == 0 {
        eprintln!("error: `--games` must be at least 1");
        return super::EXIT_USAGE;
    }
    let Some(ruleset) = load_ruleset(&args.ruleset) else {
        return super::EXIT_FAILURE;
    };
    if ruleset.banker().is_some() {
        return run_banker(args, ruleset);
    }
    let [a, b] = args.players.as_slice() else {
        eprintln!("error: `--players` takes two bots separated by a comma, e.g. `greedy,random`");
        return super::EXIT_USAGE;
    };
    let players = [a.trim().to_string(), b.trim().to_string()];
    if let Err(e) = sim::check_players(&players) {
        eprintln!("error: {e}");
        return super::EXIT_USAGE;
    }
    let other = match &args.compare {
        Some(spec) => match load_ruleset(spec) {
            Some(r) => Some(r),
            None => return super::EXIT_FAILURE,
        },
        None => None,
    };
    let shared_deals = other.is_some();
    let config = |r: &Arc<crate::ruleset::Ruleset>| SimConfig {
        ruleset: Arc::clone(r),
        players: players.clone(),
        games: args.games,
        seed: args.seed,
        rounds: args.rounds,
        shared_deals,
    };
    let runs = 1 + usize::from(other.is_some());
    let bar = progress_bar((args.games * runs) as u64);
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let results_a = match sim::run(&config(&ruleset), args.threads, &tick) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return super::EXIT_FAILURE;
        }
    };
    let report_a = stats::summarize(&ruleset.id, args.seed, &players, &results_a);
    let Some(other) = other else {
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        if args.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&report_a).unwrap_or_default()
            );
        } else {
            print!("{}", render_report(&report_a));
        }
        return super::EXIT_OK;
    };
    let results_b = match sim::run(&config(&other), args.threads, &tick) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return super::EXIT_FAILURE;
        }
    };
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let report_b = stats::summarize(&other.id, args.seed, &players, &results_b);
    let comparison = stats::compare(report_a, report_b, &results_a, &results_b);
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&comparison).unwrap_or_default()
        );
    } else {
        print!("{}", render_comparison(&comparison));
    }
    super::EXIT_OK
}

/// A progress bar on stderr when it is a terminal.
fn progress_bar(len: u64) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40} {pos}/{len} games  {per_sec}  ETA {eta}  elapsed {elapsed}",
    ) {
        bar.set_style(style);
    }
    Some(bar)
}

fn pct(p: &Proportion) -> String {
    format!(
        "{:5.1}% [{:.1}%, {:.1}%]",
        100.0 * p.rate,
        100.0 * p.lo,
        100.0 * p.hi
    )
}

/// The text report of one run.
pub fn render_report(r: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {}, {}, seed {} (players alternate seats; game i is seeded from (seed, i))",
        r.ruleset,
        plural(r.games, "game"),
        plural(r.rounds, "round"),
        r.seed
    );
    seat_table(
        &mut out,
        [
            "player",
            "wins",
            "losses",
            "draws",
            "win rate [95% CI]",
            "points per round (95% CI)",
        ],
        r.seats.iter().enumerate().map(|(i, s)| SeatRow {
            label: format!("{} {}", i + 1, s.player),
            counts: [s.wins, s.losses, s.draws],
            rate: Some(&s.win_rate),
            mean: format!("{:.3} ± {:.3}", s.mean_points_per_round, s.ci95),
        }),
    );
    let _ = writeln!(
        out,
        "\n  dealer's advantage: {:+.3} ± {:.3} points per round (dealer minus the other player); the dealer won {} of rounds",
        r.dealer_advantage.mean,
        r.dealer_advantage.ci95,
        pct(&r.dealer_wins).trim_start()
    );
    let _ = writeln!(
        out,
        "  rounds ended with the hands exhausted: {}; by an instant win at the deal: {}",
        pct(&r.exhausted).trim_start(),
        pct(&r.instant).trim_start()
    );
    for (i, s) in r.seats.iter().enumerate() {
        let _ = writeln!(
            out,
            "  koi-koi, player {} ({}): {} in {}; the caller won {} of those hands",
            i + 1,
            s.player,
            plural(s.koikoi_calls, "call"),
            plural(s.koikoi_hands, "hand"),
            pct(&s.koikoi_paid_off).trim_start()
        );
    }
    if !r.yaku.is_empty() {
        let _ = writeln!(out, "\n  yaku in the winning hand (share of all rounds):");
        for y in &r.yaku {
            let _ = writeln!(
                out,
                "    {:<24} {:>7} {:6.2}%",
                y.id,
                y.rounds,
                100.0 * y.share
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

/// `yaku sim` on a banker game: sessions of bot players against the banker.
fn run_banker(args: &SimArgs, ruleset: Arc<crate::ruleset::Ruleset>) -> i32 {
    if args.compare.is_some() {
        eprintln!("error: `--compare` works on matching games only");
        return super::EXIT_USAGE;
    }
    let flow = ruleset.banker().expect("checked by the caller");
    let players: Vec<String> = args.players.iter().map(|p| p.trim().to_string()).collect();
    if players.is_empty() || players.len() > flow.max_players as usize {
        eprintln!(
            "error: this table seats 1 to {} players; `--players` gave {}",
            flow.max_players,
            players.len()
        );
        return super::EXIT_USAGE;
    }
    let config = BankerSimConfig {
        ruleset: Arc::clone(&ruleset),
        players,
        games: args.games,
        seed: args.seed,
        hands: args.rounds,
        limits: (args.min_bet, args.max_bet),
    };
    let bar = progress_bar(args.games as u64);
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let results = match crate::sim::banker::run(&config, args.threads, &tick) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return super::EXIT_USAGE;
        }
    };
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let report = crate::sim::banker::summarize(&config, &results);
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        print!("{}", render_banker_report(&report));
    }
    super::EXIT_OK
}

/// The text report of a banker-game run.
pub fn render_banker_report(r: &BankerReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {}, {}, table limits {} to {} chips, seed {} (session i is seeded from (seed, i))",
        r.ruleset,
        plural(r.games, "session"),
        plural(r.rounds, "hand"),
        r.limits.0,
        r.limits.1,
        r.seed
    );
    let rows = r.seats.iter().enumerate().map(|(i, s)| SeatRow {
        label: format!("{} {}", i + 1, s.player),
        counts: [s.wins, s.losses, s.draws],
        rate: Some(&s.win_rate),
        mean: format!("{:+.4} ± {:.4}", s.mean_points_per_round, s.ci95),
    });
    let banker = SeatRow {
        label: "banker".into(),
        counts: [0; 3],
        rate: None,
        mean: format!("{:+.4} ± {:.4}", r.banker.mean, r.banker.ci95),
    };
    seat_table(
        &mut out,
        [
            "player",
            "ahead",
            "behind",
            "even",
            "sessions ahead [95% CI]",
            "chips per hand (95% CI)",
        ],
        rows.chain([banker]),
    );
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
