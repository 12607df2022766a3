//! `yaku play RULESET`: a game of any family in the terminal, humans against bots, hot seat, or
//! bots only.
//!
//! One play loop serves every family through the core interface; what is shown and how a typed
//! line is read are the family's [`table::Table`] (matching: [`screen`] and [`prompt`]; banker:
//! [`banker`]). Humans answer on standard input (so whole games can be piped in); bots see only
//! their seat's view. Quitting, or the end of input, saves the game as a record that
//! `--resume` replays and continues.

mod editor;
mod records;
mod tui;

pub(super) use records::read_record;
use records::*;

use crate::agent::{AGENT_NAMES, Agent, AgentError, agent_rng};
use crate::core::record::{HashCheck, Record, hash_hex};
use crate::core::{Action, Game, Seat, StartOptions};
use crate::families::agent_by_name;
use crate::front::prompt::{self, Input};
use crate::front::table::Table;
use crate::ruleset::Ruleset;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::front::HUMAN;

/// Arguments of `yaku play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The ruleset: a bundled name (`koikoi`) or a path. Not needed with `--resume`.
    #[arg(required_unless_present = "resume")]
    pub(crate) ruleset: Option<String>,
    #[command(flatten)]
    pub(crate) house: crate::cli::HouseArgs,
    /// Who plays: `human` or a bot, seat 1 first, one per seat. Every game: `random`, `greedy`,
    /// `expert`, `expert:N`, `expert@T` (`expert@2s`), or `cmd:PROGRAM ARGS` for a program of
    /// your own that plays over the seat protocol (matching default `human,greedy`). Banker
    /// games also: `seed`, `always-one`, `always-two`, `best-fixed`, `best` or a strategy file
    /// (default `human,seed,seed`).
    #[arg(long, value_delimiter = ',', value_name = "A,B,...")]
    players: Option<Vec<String>>,
    /// Banker games: `human` to sit as the banker and watch each hand (the banker makes no
    /// choices in these rules); otherwise the computer banks.
    #[arg(long, value_name = "WHO")]
    banker: Option<String>,
    /// Banker games: the smallest bet (defaults to the ruleset's).
    #[arg(long, value_name = "A", value_parser = clap::value_parser!(i64).range(1..=crate::ruleset::MAX_BET))]
    min_bet: Option<i64>,
    /// Banker games: the largest bet (defaults to the ruleset's).
    #[arg(long, value_name = "B", value_parser = clap::value_parser!(i64).range(1..=crate::ruleset::MAX_BET))]
    max_bet: Option<i64>,
    /// The game's seed (default: from the clock, and printed so the game can be played again).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Hands to play instead of the ruleset's length, 1 to 1000.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    rounds: Option<u32>,
    /// Write the game's record (JSON, docs/records.md) to FILE: at the start (so a path that
    /// cannot be written is found before play), after each hand (at most once a second with bots
    /// alone), at the end and when saving.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Where `quit` and the end of input save the game (default: yaku-save-SEED.json).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Continue a saved game (its ruleset, seed and players come from the file).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["ruleset", "seed", "rounds"])]
    resume: Option<PathBuf>,
    /// Resume even when the ruleset changed since the game was saved.
    #[arg(long)]
    force: bool,
    /// No colours, even on a terminal (so does the `NO_COLOR` environment variable).
    #[arg(long)]
    no_color: bool,
    /// The text screen and typed answers even on a terminal, instead of the full-screen table
    /// (pipes and scripts always get it).
    #[arg(long)]
    line: bool,
    /// The pause after each move made without you (a bot's, or one forced): `instant`, `fast`,
    /// `normal`, `slow` or milliseconds; a key skips it. Default `normal` with a person at the
    /// table; a game of bots only is shown full screen when this is given.
    #[arg(long, value_name = "SPEED", value_parser = parse_speed)]
    speed: Option<u64>,
}

/// Arguments of `yaku learn`.
#[derive(clap::Args, Debug)]
pub struct LearnArgs {
    /// The ruleset: a bundled name (`koikoi`) or a path.
    ruleset: String,
    #[command(flatten)]
    house: crate::cli::HouseArgs,
    /// The deal (default 1: the same lesson every time).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// No colours, even on a terminal (so does the `NO_COLOR` environment variable).
    #[arg(long)]
    no_color: bool,
    /// The text screen and typed answers even on a terminal (pipes always get it).
    #[arg(long)]
    line: bool,
}

/// `yaku learn RULESET`: one hand against the usual bots, with a lesson before each of the
/// person's decisions (what is asked, what the rule sheet says about it, the move a bot would
/// make and why); Enter takes the suggested move.
pub fn learn(args: &LearnArgs) -> i32 {
    let play = PlayArgs {
        ruleset: Some(args.house.spec(&args.ruleset)),
        house: crate::cli::HouseArgs::default(),
        players: None,
        banker: None,
        min_bet: None,
        max_bet: None,
        seed: Some(args.seed.unwrap_or(1)),
        rounds: Some(1),
        record: None,
        save: None,
        resume: None,
        force: false,
        no_color: args.no_color,
        line: args.line,
        speed: None,
    };
    let code = run_with(&play, true);
    if code == super::EXIT_OK {
        println!(
            "\nthat was one hand. A whole game: yaku play {spec}; the rules: yaku rules {spec}",
            spec = args.house.spec(&args.ruleset)
        );
    }
    code
}

/// `--speed`: a word or milliseconds.
fn parse_speed(text: &str) -> Result<u64, String> {
    match text {
        "instant" => Ok(0),
        "fast" => Ok(250),
        "normal" => Ok(700),
        "slow" => Ok(1500),
        n => n
            .parse::<u64>()
            .ok()
            .filter(|ms| *ms <= 60_000)
            .ok_or_else(|| {
                "give `instant`, `fast`, `normal`, `slow` or milliseconds up to 60000".to_string()
            }),
    }
}

/// A game being played, with its record and who sits where.
/// How often a game of bots alone brings its record up to date during play.
const BOTS_RECORD_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

struct Session {
    game: Box<dyn Game>,
    record: Record,
    /// The record as JSON when a person was last asked (or a hand last ended), and where to
    /// save it: what an interrupt saves. Bots' moves after it replay the same from their seeds.
    snapshot: Snapshot,
    bots: Vec<Option<Box<dyn Agent>>>,
    table: Box<dyn Table>,
    seed: u64,
    save: PathBuf,
    record_path: Option<PathBuf>,
    /// The files the command reads (rule files, strategies, programs): never written.
    inputs: Vec<PathBuf>,
    /// A write of the record during play failed (reported once; the game goes on).
    record_failed: bool,
    /// A write of the save during play failed (reported once; `quit` reports it again and asks
    /// for another file).
    save_failed: bool,
    /// The save file did not exist before this game: written at every decision of a person
    /// (so it is current whenever play stops) and removed when the game ends, since there is
    /// nothing left to resume.
    save_is_new: bool,
    /// The game as it stood at each decision of the one person against bots, newest last, with
    /// the record's length then and the hands seen: what `undo` goes back to.
    undo: Vec<(Box<dyn Game>, usize, usize)>,
    /// `yaku learn`: the lessons given so far.
    teacher: Option<crate::front::lesson::Teacher>,
    /// When a record or save was last written.
    record_written: Option<std::time::Instant>,
    /// The record's events, told as the table drains them (a record written during play
    /// holds them without replaying the game).
    event_log: crate::families::EventLog,
}

/// What an interrupt saves, and where: the record as JSON when a person was last asked; and
/// the files the command reads, which a save must not replace.
type Snapshot = Arc<std::sync::Mutex<(PathBuf, String, Vec<PathBuf>)>>;

/// Runs the command.
pub fn run(args: &PlayArgs) -> i32 {
    run_with(args, false)
}

/// Plays, with a lesson before each of the person's decisions when `teach`.
fn run_with(args: &PlayArgs, teach: bool) -> i32 {
    let color = !args.no_color
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::io::stdout().is_terminal();
    // The handler is installed before anything is shown, so a signal at any moment from the
    // banner on saves the game (before there is a game it only ends the program).
    let snapshot: Snapshot = Arc::default();
    save_on_signals(&snapshot);
    let session = match &args.resume {
        Some(path) => resume(args, path, color, snapshot),
        None => start(args, color, snapshot),
    };
    match session {
        Ok(mut s) => {
            if teach {
                s.teacher = Some(crate::front::lesson::Teacher::default());
            }
            let humans: Vec<bool> = s.bots.iter().map(Option::is_none).collect();
            let someone = humans.iter().any(|h| *h);
            if !args.line && tui::available() && (someone || args.speed.is_some()) {
                let delay = std::time::Duration::from_millis(args.speed.unwrap_or(700));
                match tui::FullScreen::new(humans, color, delay) {
                    Ok(mut front) => {
                        s.table.style_mut().color = false;
                        s.table.style_mut().brief = true;
                        // The seed, printed before the table took the screen, is the log's
                        // first line.
                        front.note(&format!(
                            "seed {} (play this game again with --seed {})",
                            s.seed, s.seed
                        ));
                        return s.play(&mut front);
                    }
                    Err(e) => eprintln!(
                        "note: the full-screen table is not available ({e}); playing in lines"
                    ),
                }
            }
            let hot_seat = s.bots.len() > 1 && s.bots.iter().all(Option::is_none);
            s.play(&mut LineFrontend::new(hot_seat))
        }
        Err(code) => code,
    }
}

/// `yaku replay` on the full-screen table: the record read through first (an illegal action is
/// reported before the terminal is taken), then stepped forward and back with every hand face
/// up. `None` when the full-screen table cannot be used here (the caller replays in lines).
pub(super) fn replay_on_table(
    path: &Path,
    record: &Record,
    ruleset: Arc<Ruleset>,
    color: bool,
) -> Option<i32> {
    if !tui::available() {
        return None;
    }
    let fail = |e: crate::core::record::RecordError| {
        eprintln!(
            "error: `{}`: {}",
            path.display(),
            super::record::record_error(record, &e)
        );
        super::EXIT_FAILURE
    };
    let mut table = crate::front::fronts::for_ruleset(
        &ruleset,
        &record.players,
        record.players.clone(),
        false,
        false,
    );
    table.style_mut().brief = true;
    let game = match crate::families::start_record(record, ruleset, true) {
        Ok(g) => g,
        Err(e) => return Some(fail(e)),
    };
    let seats = game.seats();
    let replay = match tui::Replay::read(&mut *table, game, record) {
        Ok(r) => r,
        Err(e) => return Some(fail(e)),
    };
    match tui::FullScreen::new(vec![false; seats], color, std::time::Duration::ZERO) {
        Ok(mut front) => {
            front.replay(&*table, &replay);
            front.leave();
            Some(super::EXIT_OK)
        }
        Err(e) => {
            eprintln!("note: the full-screen table is not available ({e}); replaying in lines");
            None
        }
    }
}

/// The players when `--players` is not given: a person against the family's usual bots.
fn default_players(ruleset: &Ruleset, watcher: bool) -> Vec<String> {
    let seats = crate::families::seat_range(ruleset).default;
    // A banker game's usual bot is the `seed` strategy where its deck fits (Kol-ye-si's tiles),
    // else `best`, which plays any banker game from its exact odds.
    let bot = if ruleset.banker().is_none() {
        "greedy"
    } else if agent_by_name("seed", ruleset).is_ok() {
        "seed"
    } else {
        "best"
    };
    // The ruleset's `players` seats (a person in the first), in every family: a banker game's
    // table once seated a person and two bots whatever it said (Blackjack's one player at
    // the house's table had two bots beside them).
    let mut players = vec![bot.to_string(); seats.max(1)];
    if !watcher {
        players[0] = HUMAN.to_string();
    }
    players
}

/// Checks the players: one per seat the ruleset allows, each `human` or a bot. Returns the
/// bots by seat and each seat's label (a bot's own name, such as a strategy file's).
#[allow(clippy::type_complexity)]
fn bots(
    players: &[String],
    ruleset: &Ruleset,
) -> Result<(Vec<Option<Box<dyn Agent>>>, Vec<String>), i32> {
    let crate::families::SeatRange { min, max, .. } = crate::families::seat_range(ruleset);
    if !(min..=max).contains(&players.len()) {
        if min == 2 && max == 2 {
            eprintln!(
                "error: `--players` takes two players separated by a comma, e.g. `human,greedy`"
            );
        } else {
            eprintln!(
                "error: this table seats {min} to {max} players; `--players` gave {}",
                players.len()
            );
        }
        return Err(super::EXIT_USAGE);
    }
    let mut bots = Vec::new();
    let mut labels = Vec::new();
    for p in players {
        if p == HUMAN {
            bots.push(None);
            labels.push(HUMAN.to_string());
            continue;
        }
        match agent_by_name(p, ruleset) {
            Ok(b) => {
                labels.push(b.name().to_string());
                bots.push(Some(b));
            }
            Err(AgentError::TooMuchWork(e)) => {
                eprintln!("error: {e}");
                return Err(super::EXIT_USAGE);
            }
            Err(AgentError::Unknown(e)) => {
                let mut names: Vec<&str> = vec![HUMAN];
                names.extend(AGENT_NAMES);
                names.push("expert:N");
                names.extend(crate::families::bot_names(ruleset));
                eprintln!(
                    "error: unknown player `{p}`: {e}\n  = help: players: {}",
                    names.join(", ")
                );
                return Err(super::EXIT_USAGE);
            }
        }
    }
    // The odds the bots play from, before the first move (seconds in a game that draws until
    // 17), with a progress bar on a terminal.
    super::sim::prepare_bots(ruleset, players);
    Ok((bots, labels))
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000_000)
}

fn start(args: &PlayArgs, color: bool, snapshot: Snapshot) -> Result<Session, i32> {
    let spec = args.ruleset.as_deref().unwrap_or_default();
    let (ruleset, mut inputs, texts) =
        super::load_ruleset_texts(spec).ok_or(super::EXIT_FAILURE)?;
    let watcher = args.banker.as_deref() == Some(HUMAN);
    if ruleset.banker().is_none()
        && (args.banker.is_some() || args.min_bet.is_some() || args.max_bet.is_some())
    {
        eprintln!(
            "error: `--banker`, `--min-bet` and `--max-bet` are for banker games; `{}` is a {} game",
            ruleset.id,
            ruleset.flow.family()
        );
        return Err(super::EXIT_USAGE);
    }
    let players: Vec<String> = match &args.players {
        Some(p) => p.iter().map(|p| p.trim().to_string()).collect(),
        None => default_players(&ruleset, watcher),
    };
    let (bots, labels) = bots(&players, &ruleset)?;
    inputs.extend(super::player_inputs(&players));
    let seed = args.seed.unwrap_or_else(clock_seed);
    let mut record = Record::new(&ruleset, spec, Some(seed), &players, args.rounds);
    record.ruleset.files = embedded_files(texts);
    (record.min_bet, record.max_bet) = (args.min_bet, args.max_bet);
    let game = crate::families::start(
        Arc::clone(&ruleset),
        StartOptions {
            seed,
            seats: Some(players.len()),
            rounds: args.rounds,
            log_events: true,
            bet_limits: (args.min_bet, args.max_bet),
            ..StartOptions::default()
        },
    )
    .map_err(|e| {
        eprintln!("error: {e}");
        match e {
            crate::core::StartError::Options { .. } => super::EXIT_USAGE,
            crate::core::StartError::Script(_) => super::EXIT_FAILURE,
        }
    })?;
    if let Some(flow) = ruleset.banker() {
        let min = args.min_bet.unwrap_or(flow.min_bet);
        if min > flow.bankroll {
            eprintln!(
                "error: the minimum bet ({min}) is more than a player's starting chips ({}); nobody could play a hand",
                flow.bankroll
            );
            return Err(super::EXIT_USAGE);
        }
    }
    let table = crate::front::fronts::for_ruleset(&ruleset, &players, labels, color, watcher);
    let wanted_save = save_path(args, seed);
    let mut session = Session {
        game,
        record,
        snapshot,
        bots,
        table,
        seed,
        save: free_save_path(wanted_save.clone()),
        record_path: args.record.clone(),
        inputs,
        record_failed: false,
        save_failed: false,
        save_is_new: true,
        undo: Vec::new(),
        teacher: None,
        event_log: crate::families::EventLog::default(),
        record_written: None,
    };
    session.check_files()?;
    // Saved before the banner: a signal from the first line shown on finds the game.
    session.refresh_snapshot();
    println!("{}", header(&ruleset, &*session.game, seed, &players));
    if session.save != wanted_save {
        println!(
            "note: `{}` holds another game; this one saves to `{}`",
            wanted_save.display(),
            session.save.display()
        );
    }
    Ok(session)
}

/// The first line of a game: the rules, the seed to play it again, who plays.
fn header(ruleset: &Ruleset, game: &dyn Game, seed: u64, players: &[String]) -> String {
    match ruleset.banker() {
        Some(_) => {
            let g = game
                .as_any()
                .downcast_ref::<crate::families::banker::BankerGame>()
                .expect("a banker ruleset plays a banker game");
            let (min, max) = g.limits();
            format!(
                "{} · seed {seed} (play this session again with --seed {seed}) · {} · bets {min} to {max} chips · {}",
                ruleset.name,
                crate::front::banker::table_words(g),
                crate::front::plural(g.hands_total(), "hand")
            )
        }
        None => format!(
            "{} · seed {seed} (play this game again with --seed {seed}) · {}",
            ruleset.name,
            players.join(" vs ")
        ),
    }
}

/// `path`, or when a file there already holds a game record (another game: this one is new), the
/// first free `NAME-2.json`, `NAME-3.json`, ... beside it, so no game is overwritten unasked.
fn free_save_path(path: PathBuf) -> PathBuf {
    let holds_record =
        |p: &Path| p.is_file() && crate::fsio::check_replaceable_by_record(p, &[]).is_ok();
    if !holds_record(&path) {
        return path;
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    (2..1000)
        .map(|n| path.with_file_name(format!("{stem}-{n}{ext}")))
        .find(|p| !p.exists())
        .unwrap_or(path)
}

fn save_path(args: &PlayArgs, seed: u64) -> PathBuf {
    args.save
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("yaku-save-{seed}.json")))
}

fn resume(args: &PlayArgs, path: &Path, color: bool, snapshot: Snapshot) -> Result<Session, i32> {
    let (record, ruleset, _) = read_record(path, args.force, None)?;
    // The seats come from the record, not the command line: say so when they do not fit.
    let crate::families::SeatRange { min, max, .. } = crate::families::seat_range(&ruleset);
    if !(min..=max).contains(&record.players.len()) {
        eprintln!(
            "error: `{}` names {} in `players`; `{}` seats {min} to {max}",
            path.display(),
            crate::front::plural(record.players.len(), "player"),
            ruleset.id
        );
        return Err(super::EXIT_FAILURE);
    }
    let (bots, labels) = bots(&record.players, &ruleset)?;
    let mut game =
        crate::families::start_record(&record, Arc::clone(&ruleset), true).map_err(|e| {
            eprintln!(
                "error: `{}`: {}",
                path.display(),
                super::record::record_error(&record, &e)
            );
            super::EXIT_FAILURE
        })?;
    for i in 0..record.actions.len() {
        record.apply(&mut *game, i).map_err(|e| {
            eprintln!(
                "error: `{}`: {}",
                path.display(),
                super::record::record_error(&record, &e)
            );
            super::EXIT_FAILURE
        })?;
    }
    game.drain_events();
    // The events so far, from one replay; the log goes on from them as the game is played.
    let told = crate::families::record_events(&record, Arc::clone(&ruleset)).unwrap_or_default();
    let event_log = crate::families::EventLog::resumed(told, &*game);
    let seed = record.seed.unwrap_or(0);
    let players = record.players.clone();
    // The rule files the record names, beside it (the record itself is the game to go on
    // with, saved over by default).
    let mut inputs: Vec<PathBuf> = beside_record(path, &record.ruleset.spec)
        .map(|spec| spec.split('+').map(PathBuf::from).collect())
        .unwrap_or_default();
    inputs.extend(super::player_inputs(&players));
    let table = crate::front::fronts::for_ruleset(&ruleset, &players, labels, color, false);
    let mut session = Session {
        game,
        record,
        snapshot,
        bots,
        table,
        seed,
        // A resumed game saves where it came from unless told otherwise: the file stays current.
        save: args.save.clone().unwrap_or_else(|| path.to_path_buf()),
        record_path: args.record.clone(),
        inputs,
        record_failed: false,
        save_failed: false,
        save_is_new: false,
        undo: Vec::new(),
        teacher: None,
        event_log,
        record_written: None,
    };
    session.save_is_new = !session.save.exists();
    session.check_files()?;
    session.refresh_snapshot();
    let (game, record) = (&session.game, &session.record);
    if game.is_over() {
        println!(
            "the game in `{}` is already over: {}",
            path.display(),
            session.table.style().each(game.scores())
        );
    }
    println!(
        "{} · seed {seed} · {} · resumed from `{}` after {}",
        ruleset.name,
        players.join(" vs "),
        path.display(),
        crate::front::plural(record.actions.len(), "action")
    );
    Ok(session)
}

/// On SIGINT, SIGTERM or SIGHUP: end the seat programs, save the last snapshot where `quit`
/// would, say how to resume, and end the process (exit code 128 + the signal's number; see
/// [`super::exit`]). Before a game is set up there is nothing to save, and the process just
/// ends. A command handed to the wider build leaves the signal to that build's handler.
fn save_on_signals(snapshot: &Snapshot) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    let snapshot = Arc::clone(snapshot);
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            if super::handed_over() {
                return;
            }
            tui::restore();
            crate::agent::end_programs();
            // Waits for a save in progress; the lock is never given back, as the process ends.
            let guard = snapshot
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let (save, json, inputs) = guard.clone();
            std::mem::forget(guard);
            let code = 128 + signal;
            if json.is_empty() {
                super::exit(code);
            }
            // The same checks as any save: a path that became a device or another file is
            // left alone.
            let written = crate::fsio::check_replaceable_by_record(&save, &inputs).and_then(|()| {
                crate::fsio::write_atomic_before_exit(&save, json.as_bytes())
                    .map_err(|e| e.to_string())
            });
            match written {
                Ok(()) => println!(
                    "\ninterrupted: game saved to {}; resume it with: yaku play --resume {}",
                    save.display(),
                    save.display()
                ),
                Err(e) => eprintln!(
                    "\nerror: interrupted, and the game could not be saved to `{}`: {e}",
                    save.display()
                ),
            }
            super::exit(code);
        }
    });
}

/// Why `path` cannot be written, in words, from the error writing it.
fn write_problem(path: &Path, e: &std::io::Error) -> String {
    if path.is_dir() {
        return format!(
            "it is a directory (give a file name, e.g. `{}`)",
            path.join("game.json").display()
        );
    }
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => {
            format!("the directory `{}` does not exist", dir.display())
        }
        _ => e.to_string(),
    }
}

/// Checks that a file can be written at `path` without changing it (and that it is no other
/// kind of file, such as the rules being played): opens it for appending and removes it again
/// when it did not exist.
fn probe_writable(path: &Path, inputs: &[PathBuf]) -> Result<(), String> {
    crate::fsio::check_replaceable_by_record(path, inputs)?;
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| write_problem(path, &e))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

impl Session {
    /// Undo is for one person against bots: with other people at the table, a move taken back
    /// would be one they saw.
    fn undo_allowed(&self) -> bool {
        let people = self.bots.iter().filter(|b| b.is_none()).count();
        // A seat program has been told the moves: they cannot be taken back from it.
        let watched = self.bots.iter().flatten().any(|b| b.watches());
        people == 1 && self.bots.len() > 1 && !watched
    }

    /// Goes back to the person's decision before this one: the game as it stood then, the
    /// moves since kept in the record as taken back. `Ok` with the hands seen then; `Err` says
    /// why nothing was taken back.
    fn take_back(&mut self) -> Result<usize, String> {
        if !self.undo_allowed() {
            return Err("undo is for a game of one person against bots".to_string());
        }
        // The newest point is the decision being asked now; the one before it is where to go.
        if self.undo.len() < 2 {
            return Err("there is no move of yours to take back yet".to_string());
        }
        self.undo.pop();
        let (game, len, seen) = self.undo.pop().expect("two points were there");
        self.game = game;
        self.record.undo_to(len);
        self.event_log.take_back(&*self.game, len);
        self.refresh_snapshot();
        self.update_record();
        Ok(seen)
    }

    fn apply(&mut self, seat: usize, action: Action) {
        self.game
            .apply(action)
            .expect("the action is one of the legal actions");
        self.record.push(seat, action, self.game.ruleset());
        for (watcher, bot) in self.bots.iter_mut().enumerate() {
            if let Some(bot) = bot.as_mut().filter(|b| b.watches()) {
                bot.saw(&*self.game, watcher, seat, action);
            }
        }
    }

    /// Writes the record as the game stands to `path` (atomically: a kill at any moment
    /// leaves the previous file whole); `Err` says why it cannot be.
    fn try_write_record(&mut self, path: &Path) -> Result<(), String> {
        self.record.sync(&*self.game);
        // Every event, the automatic ones included, for programs that read the record.
        self.record.events = self.event_log.events().to_vec();
        let json = json_at(&self.record, path);
        // Never write a record that `replay` and `--resume` would refuse as too large.
        if json.len() as u64 > crate::fsio::MAX_RECORD_SIZE {
            return Err(format!(
                "the record would be {} bytes, more than the {} that yaku reads back, so it is not written",
                json.len(),
                crate::fsio::MAX_RECORD_SIZE
            ));
        }
        crate::fsio::write_atomic(path, json.as_bytes()).map_err(|e| write_problem(path, &e))?;
        self.record_written = Some(std::time::Instant::now());
        Ok(())
    }

    /// Takes what an interrupt would save now, and where (the path the player chose last), and
    /// brings the save file up to date (a failure here is silent: `quit` reports it and asks for
    /// another file).
    fn refresh_snapshot(&mut self) {
        self.record.sync(&*self.game);
        let json = json_at(&self.record, &self.save);
        let person = self.bots.iter().any(Option::is_none);
        // The snapshot is taken, and the file written, under the snapshot's lock, which the
        // signal handler takes too: an interrupt never writes an older game over a newer one.
        let mut snapshot = self
            .snapshot
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        (snapshot.0, snapshot.1) = (self.save.clone(), json);
        snapshot.2.clone_from(&self.inputs);
        if person
            && crate::fsio::check_replaceable_by_record(&self.save, &self.inputs).is_ok()
            && let Err(e) = crate::fsio::write_atomic(&self.save, snapshot.1.as_bytes())
            && !self.save_failed
        {
            // A full disk or a file-size limit: said once, and the game goes on.
            self.save_failed = true;
            eprintln!(
                "warning: cannot keep the save `{}` current: {}; the game goes on (`quit` asks for another file)",
                self.save.display(),
                write_problem(&self.save, &e)
            );
        }
    }

    fn write_record(&mut self, path: &Path) -> Result<(), i32> {
        self.try_write_record(path).map_err(|why| {
            eprintln!("error: cannot write `{}`: {why}", path.display());
            super::EXIT_FAILURE
        })
    }

    /// Before any play: writes the record file, if asked for, and checks that the game can be
    /// saved where `quit` would save it (when someone at the keyboard could quit). Errors are
    /// printed; the `Err` is the exit code.
    fn check_files(&mut self) -> Result<(), i32> {
        let person = self.bots.iter().any(Option::is_none);
        let save = person.then_some(&self.save);
        // A record that embeds its rule files needs none beside it.
        let named = self.record.ruleset.files.is_empty();
        for path in self.record_path.iter().chain(save).filter(|_| named) {
            for outside in spec_at(&self.record.ruleset.spec, path).1 {
                eprintln!(
                    "warning: `{outside}` is not in the folder of `{}` or below it, so `yaku replay` and `--resume` will not read it from there (a record names only rule files beside it); keep the rule file beside the record",
                    path.display()
                );
            }
        }
        if let Some(path) = self.record_path.clone()
            && let Err(why) = crate::fsio::check_replaceable_by_record(&path, &self.inputs)
                .and_then(|()| self.check_not_another_game(&path))
                .and_then(|()| self.try_write_record(&path))
        {
            eprintln!(
                "error: cannot write the record to `{}`: {why}\n  = note: the game was not started",
                path.display()
            );
            return Err(super::EXIT_FAILURE);
        }
        if self.bots.iter().any(Option::is_none)
            && let Err(why) = self
                .check_not_another_game(&self.save)
                .and_then(|()| probe_writable(&self.save, &self.inputs))
        {
            eprintln!(
                "error: cannot save the game to `{}`: {why}\n  = help: `--save FILE` chooses where `quit` and the end of input save the game\n  = note: the game was not started",
                self.save.display()
            );
            return Err(super::EXIT_FAILURE);
        }
        Ok(())
    }

    /// Refuses to write over a record of another game that is not over (a save to resume):
    /// only a finished game, or this same game (its recorded moves the start of this one's, as
    /// when a game is resumed with `--record` naming its own file), may be replaced.
    fn check_not_another_game(&self, path: &Path) -> Result<(), String> {
        // Only a regular file is opened: opening a named pipe would wait for ever (what is not
        // a regular file is refused by `check_replaceable_by_record`).
        if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
            return Ok(());
        }
        let Ok(text) = crate::fsio::read_text_limited(path, crate::fsio::MAX_RECORD_SIZE) else {
            return Ok(()); // nothing there, or empty: checked by `check_replaceable_by_record`
        };
        let Ok(there) = Record::from_json(&text) else {
            return Ok(());
        };
        let ours = &self.record;
        let same_game = there.seed == ours.seed
            && there.ruleset.spec == spec_written_at(ours, path)
            && there.players == ours.players
            && there.actions.len() <= ours.actions.len()
            && there.actions.iter().zip(&ours.actions).all(|(a, b)| a == b);
        if there.finished || same_game {
            return Ok(());
        }
        Err(format!(
            "it holds another game that is not over ({} made), so it is left alone (resume it with `yaku play --resume {}`, or choose another file)",
            crate::front::plural(there.actions.len(), "move"),
            path.display()
        ))
    }

    /// Brings the record file up to date during play; a failure is reported once and the game
    /// goes on (the final write reports it again and fails).
    fn update_record(&mut self) {
        let Some(path) = self.record_path.clone() else {
            return;
        };
        // Bots alone play hundreds of hands a second, and each write is the whole game so far:
        // their record is brought up to date at most every [`BOTS_RECORD_EVERY`] (and at the end).
        let person = self.bots.iter().any(Option::is_none);
        if !person
            && self
                .record_written
                .is_some_and(|t| t.elapsed() < BOTS_RECORD_EVERY)
        {
            return;
        }
        if let Err(why) = self.try_write_record(&path)
            && !self.record_failed
        {
            self.record_failed = true;
            eprintln!(
                "warning: cannot write the record to `{}`: {why}; trying again at the end",
                path.display()
            );
        }
    }

    /// Saves the game and says how to resume it: `Some(exit code)` to end the program, `None`
    /// to go back to the game. A save that fails does not lose the game: with a front end (a
    /// person typed `quit`) it says so and asks for another file, and an empty answer goes back
    /// to the game; without (the input ended, so nobody can answer) it says the game was not
    /// saved.
    fn save_and_leave(&mut self, mut front: Option<&mut dyn Frontend>) -> Option<i32> {
        loop {
            let save = self.save.clone();
            let saved = crate::fsio::check_replaceable_by_record(&save, &self.inputs)
                .and_then(|()| self.try_write_record(&save));
            match (saved, front.as_mut()) {
                (Ok(()), _) => break,
                (Err(why), None) => {
                    eprintln!(
                        "error: cannot save the game to `{}`: {why}\n  = note: the input ended, so the game could not go on and is not saved",
                        save.display()
                    );
                    return Some(super::EXIT_FAILURE);
                }
                (Err(why), Some(front)) => {
                    let problem = format!("cannot save the game to `{}`: {why}", save.display());
                    match front.ask_path(&problem).map(|l| l.trim().to_string()) {
                        Some(path) if !path.is_empty() => {
                            // Another game's save is not replaced by this one.
                            if let Err(why) = self.check_not_another_game(Path::new(&path)) {
                                front.say(&format!("cannot save the game to `{path}`: {why}"));
                                continue;
                            }
                            self.save = PathBuf::from(path);
                            self.save_is_new = !self.save.exists();
                            self.save_failed = false;
                            self.refresh_snapshot();
                        }
                        Some(_) => {
                            front.say("back to the game (`quit` tries to save again)");
                            return None;
                        }
                        None => {
                            front.leave();
                            eprintln!("error: the input ended; the game is not saved");
                            return Some(super::EXIT_FAILURE);
                        }
                    }
                }
            }
        }
        if let Some(front) = front {
            front.leave();
        }
        let save = self.save.clone();
        if let Some(path) = self.record_path.clone()
            && let Err(code) = self.write_record(&path)
        {
            return Some(code);
        }
        print!("{}", self.table.stopped(&*self.game));
        println!(
            "\ngame saved to {}; resume it with: yaku play --resume {}",
            save.display(),
            save.display()
        );
        Some(super::EXIT_OK)
    }

    /// Plays the game to its end (or until a player leaves) through `front`; the exit code.
    fn play(&mut self, front: &mut dyn Frontend) -> i32 {
        self.refresh_snapshot();
        let mut hands_seen = self.game.history().len();
        let mut fresh = true;
        loop {
            let events = self.game.drain_events();
            self.event_log
                .tell(&*self.game, &events, self.record.actions.len());
            let text = self.table.narrate(&*self.game, &events);
            let hand_ended = self.game.history().len() > hands_seen;
            front.events(&*self.table, &*self.game, &text, hand_ended);
            if let Some(e) = self.game.error() {
                front.leave();
                eprintln!("error: {e}");
                return super::EXIT_FAILURE;
            }
            let Some(seat) = self.game.to_act() else {
                break;
            };
            if hand_ended {
                hands_seen = self.game.history().len();
                self.update_record();
            }
            if let Some(question) = self.table.pause(&*self.game) {
                loop {
                    match front.pause(&*self.table, &*self.game, &question) {
                        Reply::Go | Reply::Act(_) | Reply::Undo => break,
                        Reply::Quit => {
                            if let Some(code) = self.save_and_leave(Some(&mut *front)) {
                                return code;
                            }
                        }
                        Reply::Ended => {
                            front.leave();
                            return self.save_and_leave(None).unwrap_or(super::EXIT_FAILURE);
                        }
                    }
                }
            }
            let mut legal = Vec::new();
            self.game.legal_actions(&mut legal);
            if let Some(bot) = &mut self.bots[seat] {
                let index = self.record.actions.len();
                let mut rng = agent_rng(crate::sim::game_seed(self.seed, index));
                let action = bot.choose(&*self.game, seat, &legal, &mut rng);
                if let Some(notice) = bot.notice() {
                    front.say(&notice);
                }
                let line = self.table.announce(&*self.game, seat, action);
                front.bot_move(line.as_deref());
                self.apply(seat, action);
                fresh = true;
                continue;
            }
            // A person may take a while, or close the terminal: keep the record and the save
            // current.
            self.update_record();
            self.refresh_snapshot();
            if let Some(only) = self.table.forced(&*self.game, &legal) {
                let what = self.table.describe(&*self.game, only);
                // The move itself is narrated next ("you play ..."): the note does not name it
                // a second time.
                let note = if legal.len() == 1 {
                    "only one move is possible; it is made for you".to_string()
                } else {
                    format!("the choices are alike: {what}; it is made for you")
                };
                front.forced(&*self.table, &*self.game, seat, &note);
                self.apply(seat, only);
                fresh = true;
                continue;
            }
            if fresh && self.undo_allowed() {
                let len = self.record.actions.len();
                if self.undo.last().is_none_or(|(_, l, _)| *l != len) {
                    self.undo.push((self.game.box_clone(), len, hands_seen));
                }
            }
            if fresh && let Some(teacher) = &mut self.teacher {
                let (text, suggested) =
                    teacher.lesson(&*self.table, &*self.game, seat, &legal, &|name, ruleset| {
                        agent_by_name(name, ruleset).ok()
                    });
                front.teach(&*self.table, &*self.game, &text, suggested);
            }
            match front.decide(&*self.table, &*self.game, seat, &legal, fresh) {
                Reply::Undo => {
                    match self.take_back() {
                        Ok(seen) => {
                            // A move made in a hand that has ended since takes its end back
                            // too: say so, the scores having changed back.
                            if seen < hands_seen {
                                front.say(&format!(
                                    "your last move is taken back: it was made in hand {}, so the end of that hand is taken back too and the scores are as they were",
                                    seen + 1
                                ));
                            } else {
                                front.say("your last move is taken back");
                            }
                            hands_seen = seen;
                            fresh = true;
                        }
                        Err(why) => {
                            front.say(&why);
                            fresh = false;
                        }
                    }
                    continue;
                }
                Reply::Act(action) => {
                    self.apply(seat, action);
                    fresh = true;
                }
                Reply::Go => fresh = false,
                Reply::Quit => {
                    if let Some(code) = self.save_and_leave(Some(&mut *front)) {
                        return code;
                    }
                    fresh = false;
                }
                Reply::Ended => {
                    front.leave();
                    return self.save_and_leave(None).unwrap_or(super::EXIT_FAILURE);
                }
            }
        }
        for bot in self.bots.iter_mut().flatten() {
            bot.game_over(&*self.game);
        }
        front.finished(&*self.table, &*self.game);
        if self.save_is_new {
            let _ = std::fs::remove_file(&self.save);
        }
        print!("{}", self.table.finished(&*self.game));
        if let Some(path) = self.record_path.clone() {
            if let Err(code) = self.write_record(&path) {
                return code;
            }
            println!("record written to {}", path.display());
        }
        super::EXIT_OK
    }
}

/// The move the greedy bot would make for `seat` now, and why (`front::hint`), with
/// the bots the command line may run.
fn hint(table: &dyn Table, game: &dyn Game, seat: Seat, legal: &[Action]) -> String {
    hint_for(table, game, seat, legal).0
}

/// The hint, and the move it names.
fn hint_for(
    table: &dyn Table,
    game: &dyn Game,
    seat: Seat,
    legal: &[Action],
) -> (String, Option<Action>) {
    crate::front::hint::hint(table, game, seat, legal, &|name, ruleset| {
        agent_by_name(name, ruleset).ok()
    })
}

/// What a front end answers when asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reply {
    /// Take this action.
    Act(Action),
    /// Go on (after a pause), or ask again (after a command that showed something).
    Go,
    /// Save the game and leave.
    Quit,
    /// The input ended: nobody can answer any more.
    Ended,
    /// Take back the moves since the person's last decision.
    Undo,
}

/// Where a game is shown and answered: lines on standard input and output (pipes, scripts,
/// `--line`), or the full-screen table on a terminal ([`tui`]). The play loop in
/// [`Session::play`] is the same for both.
trait Frontend {
    /// What happened since the last call, narrated (`text`); `hand_ended` when a hand ended.
    fn events(&mut self, table: &dyn Table, game: &dyn Game, text: &str, hand_ended: bool);
    /// A pause the table asks for (a watching banker deals with Enter).
    fn pause(&mut self, table: &dyn Table, game: &dyn Game, question: &str) -> Reply;
    /// A bot's move, announced before it is made (for tables that announce moves).
    fn bot_move(&mut self, announce: Option<&str>);
    /// A move made for a person because it was the only one.
    fn forced(&mut self, table: &dyn Table, game: &dyn Game, seat: Seat, note: &str);
    /// A person's decision at `seat` among `legal` (`fresh`: the first time this decision is
    /// asked, so the table is shown).
    fn decide(
        &mut self,
        table: &dyn Table,
        game: &dyn Game,
        seat: Seat,
        legal: &[Action],
        fresh: bool,
    ) -> Reply;
    /// After a failed save (`problem`): another file to save to, `Some("")` to go back to the
    /// game, `None` at the end of input.
    fn ask_path(&mut self, problem: &str) -> Option<String>;
    /// A message to the player.
    fn say(&mut self, text: &str);
    /// `yaku learn`: the lesson before a decision, and the move it suggests (taken by Enter at
    /// the decision that follows).
    fn teach(&mut self, table: &dyn Table, game: &dyn Game, text: &str, suggested: Option<Action>);
    /// The game is over: show its end before the program prints its summary.
    fn finished(&mut self, _table: &dyn Table, _game: &dyn Game) {}
    /// Gives the terminal back (before the program's last messages).
    fn leave(&mut self) {}
}

/// The line front end: the table as text, answers as typed lines (so whole games can be
/// piped in; each answer read from a pipe is echoed after its prompt).
struct LineFrontend {
    input: std::io::StdinLock<'static>,
    echo: bool,
    /// Every seat is a person (hot seat): each screen says whose turn it is.
    hot_seat: bool,
    /// Line editing when standard input is a terminal.
    editor: Option<editor::LineEditor>,
    /// The move an empty answer takes (`yaku learn`'s suggestion), at the next decision.
    suggested: Option<Action>,
    /// The lesson shown under the table at the next decision (`yaku learn`).
    lesson: Option<String>,
}

impl LineFrontend {
    fn new(hot_seat: bool) -> LineFrontend {
        let stdin = std::io::stdin();
        let terminal = stdin.is_terminal();
        LineFrontend {
            hot_seat,
            editor: if terminal {
                editor::LineEditor::new()
            } else {
                None
            },
            echo: !terminal,
            input: stdin.lock(),
            suggested: None,
            lesson: None,
        }
    }

    /// One prompt, with a line read (Tab completing `words` on a terminal): `None` at the end
    /// of input (or a read error, reported). Ctrl-C while editing a line reads as `quit`.
    fn read(&mut self, words: Vec<Vec<String>>) -> Option<String> {
        if let Some(editor) = &mut self.editor {
            return match editor.read("> ", words) {
                editor::Read::Line(line) => Some(line),
                editor::Read::Interrupted => Some("quit".to_string()),
                editor::Read::Ended => {
                    println!("\n(end of input)");
                    None
                }
            };
        }
        print!("> ");
        let _ = std::io::stdout().flush();
        match read_line_bounded(&mut self.input, MAX_INPUT_LINE) {
            Ok(Some(line)) => {
                if self.echo {
                    println!("{}", crate::diag::escape_control(line.trim_end()));
                }
                Some(line)
            }
            Err(e) => {
                eprintln!("error: cannot read the input: {e}");
                None
            }
            Ok(None) => {
                println!("\n(end of input)");
                None
            }
        }
    }
}

/// The longest answer read from standard input, in bytes: no answer is longer than a few
/// words, and a line with no end (`play < /dev/zero`) must not take all memory.
const MAX_INPUT_LINE: usize = 4096;

/// The next line of `input` without its newline, `None` at the end of input. A line longer than
/// `max` bytes is an error (the input is not read further: what follows is no answer), as are
/// bytes that are not UTF-8.
fn read_line_bounded<R: BufRead>(input: &mut R, max: usize) -> std::io::Result<Option<String>> {
    let mut line = Vec::new();
    let mut limited = std::io::Read::take(&mut *input, max as u64 + 1);
    let n = limited.read_until(b'\n', &mut line)?;
    if n == 0 {
        return Ok(None);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
    } else if line.len() > max {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("a line is longer than {max} bytes, so the input is read no further"),
        ));
    }
    String::from_utf8(line).map(Some).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )
    })
}

impl Frontend for LineFrontend {
    fn events(&mut self, _table: &dyn Table, _game: &dyn Game, text: &str, _hand_ended: bool) {
        print!("{text}");
    }

    fn pause(&mut self, table: &dyn Table, game: &dyn Game, question: &str) -> Reply {
        loop {
            println!("{question}");
            let Some(line) = self.read(Vec::new()) else {
                return Reply::Ended;
            };
            match line.trim() {
                "" => return Reply::Go,
                "quit" | "q" => return Reply::Quit,
                "score" => print!("{}", table.score(game)),
                "help" => println!("{}", table.help()),
                other => println!("`{other}` is not a command here; press Enter to deal"),
            }
        }
    }

    fn bot_move(&mut self, announce: Option<&str>) {
        if let Some(line) = announce {
            println!("{line}");
        }
    }

    fn forced(&mut self, table: &dyn Table, game: &dyn Game, seat: Seat, note: &str) {
        self.show(table, game, seat);
        println!("{note}");
    }

    fn decide(
        &mut self,
        table: &dyn Table,
        game: &dyn Game,
        seat: Seat,
        legal: &[Action],
        fresh: bool,
    ) -> Reply {
        if fresh {
            self.show(table, game, seat);
        }
        if let Some(lesson) = self.lesson.take() {
            // Wrapped once, to the terminal's width (a pipe takes it unwrapped).
            let width = super::terminal_width();
            let lesson = if width == usize::MAX {
                lesson
            } else {
                crate::front::wrap(&lesson, width.saturating_sub(1)).join("\n")
            };
            println!("\n{lesson}\n");
        }
        loop {
            println!("{}", table.question(game, legal));
            let words = prompt::completion_words(game, legal);
            let Some(line) = self.read(words) else {
                return Reply::Ended;
            };
            if line.trim().is_empty()
                && let Some(a) = self.suggested.take()
            {
                return Reply::Act(a);
            }
            match table.parse(&line, game, legal) {
                Ok(Input::Act(action)) => return Reply::Act(action),
                Ok(Input::Help) => println!("{}", table.help()),
                Ok(Input::Rules) => print!("{}", table.rules(game, super::terminal_width())),
                Ok(Input::Score) => print!("{}", table.score(game)),
                Ok(Input::Quit) => return Reply::Quit,
                Ok(Input::Undo) => return Reply::Undo,
                Ok(Input::Hint) => println!("{}", hint(table, game, seat, legal)),
                Err(reason) => println!("{}", table.refusal(&reason)),
            }
        }
    }

    fn ask_path(&mut self, problem: &str) -> Option<String> {
        eprintln!("error: {problem}");
        println!(
            "the game is kept: type another file to save it to, or press Enter to go back to the game"
        );
        self.read(Vec::new())
    }

    fn say(&mut self, text: &str) {
        println!("{text}");
    }

    fn teach(&mut self, table: &dyn Table, game: &dyn Game, text: &str, suggested: Option<Action>) {
        let _ = (table, game);
        self.lesson = Some(text.to_string());
        self.suggested = suggested;
    }
}

impl LineFrontend {
    /// The table before `seat` decides, and whose turn it is when everyone is a person.
    fn show(&mut self, table: &dyn Table, game: &dyn Game, seat: Seat) {
        print!("{}", table.screen(game, seat));
        if self.hot_seat {
            println!("({} to act)", table.style().who(seat));
        }
    }
}
