//! `yaku play RULESET`: a game in the terminal, human against bot, hot seat, or bot against bot.
//!
//! Humans answer prompts on standard input (so whole games can be piped in); bots see only
//! their seat's view. Quitting, or the end of input, saves the game as a record that
//! `--resume` replays and continues. The screen is in [`screen`], the prompts in [`prompt`].

mod banker;
mod prompt;
pub(crate) mod screen;

use super::load_ruleset;
use crate::agent::{AGENT_NAMES, Agent, agent_by_name, agent_rng};
use crate::engine::{Action, Event, Game, GameOptions};
use crate::record::{HashCheck, Record};
use crate::ruleset::Ruleset;
use prompt::{HELP, Input};
use screen::Style;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The player name that means a person at the keyboard.
pub const HUMAN: &str = "human";

/// Arguments of `yaku play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The ruleset: a bundled name (`koikoi`) or a path. Not needed with `--resume`.
    #[arg(required_unless_present = "resume")]
    ruleset: Option<String>,
    /// Who plays: `human` or a bot, seat 1 first. Matching games: two of `random`, `greedy`,
    /// `expert`, `expert:N` (default `human,greedy`). Banker games: one to five of `seed`,
    /// `always-one`, `always-two`, `best-fixed`, `best`, `random` or a strategy file (default
    /// `human,seed,seed`).
    #[arg(long, value_delimiter = ',', value_name = "A,B,...")]
    players: Option<Vec<String>>,
    /// Banker games: `human` to sit as the banker and watch each hand (the banker makes no
    /// choices in these rules); otherwise the computer banks.
    #[arg(long, value_name = "WHO")]
    banker: Option<String>,
    /// Banker games: the smallest bet (defaults to the ruleset's).
    #[arg(long, value_name = "A")]
    min_bet: Option<i64>,
    /// Banker games: the largest bet (defaults to the ruleset's).
    #[arg(long, value_name = "B")]
    max_bet: Option<i64>,
    /// The game's seed (default: from the clock, and printed so the game can be played again).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Hands to play instead of the ruleset's length, 1 to 1000.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    rounds: Option<u32>,
    /// Write the game's record (JSON, docs/records.md) to FILE: at the start (so a path that
    /// cannot be written is found before play), after each hand, at the end and when saving.
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
    /// No colours, even on a terminal.
    #[arg(long)]
    no_color: bool,
}

/// A game being played, with its record and who sits where.
struct Session {
    game: Game,
    record: Record,
    bots: [Option<Box<dyn Agent>>; 2],
    style: Style,
    seed: u64,
    save: PathBuf,
    record_path: Option<PathBuf>,
    /// A write of the record during play failed (reported once; the game goes on).
    record_failed: bool,
}

/// Runs the command.
pub fn run(args: &PlayArgs) -> i32 {
    let color = !args.no_color && std::io::stdout().is_terminal();
    // Loaded once here, so its diagnostics are printed once.
    let loaded = match (&args.resume, args.ruleset.as_deref()) {
        (None, Some(spec)) => match load_ruleset(spec) {
            Some(ruleset) => Some(ruleset),
            None => return super::EXIT_FAILURE,
        },
        _ => None,
    };
    if let Some(ruleset) = loaded.clone()
        && ruleset.banker().is_some()
    {
        let human_banker = args.banker.as_deref() == Some(HUMAN);
        // By default a human sits at the first seat; a human banker plays against two bots.
        let default_players: &[&str] = if human_banker {
            &["seed", "seed"]
        } else {
            &[HUMAN, "seed", "seed"]
        };
        let players = match &args.players {
            Some(p) => p.iter().map(|p| p.trim().to_string()).collect(),
            None => default_players.iter().map(|p| p.to_string()).collect(),
        };
        let setup = banker::BankerSetup {
            players,
            human_banker,
            seed: args.seed.unwrap_or_else(clock_seed),
            hands: args.rounds,
            limits: (args.min_bet, args.max_bet),
        };
        return banker::run(ruleset, setup);
    }
    let session = match &args.resume {
        Some(path) => resume(args, path, color),
        None => start(args, loaded, color),
    };
    match session {
        Ok(mut s) => s.play(),
        Err(code) => code,
    }
}

/// Checks the players: two, each `human` or a bot.
fn bots(players: &[String]) -> Result<[Option<Box<dyn Agent>>; 2], i32> {
    let [a, b] = players else {
        eprintln!("error: `--players` takes two players separated by a comma, e.g. `human,greedy`");
        return Err(super::EXIT_USAGE);
    };
    let bot = |p: &String| -> Result<Option<Box<dyn Agent>>, i32> {
        if p == HUMAN {
            return Ok(None);
        }
        agent_by_name(p).map(Some).ok_or_else(|| {
            eprintln!(
                "error: unknown player `{p}` (players: {HUMAN}, {}, expert:N)",
                AGENT_NAMES.join(", ")
            );
            super::EXIT_USAGE
        })
    };
    Ok([bot(a)?, bot(b)?])
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000_000)
}

fn start(args: &PlayArgs, loaded: Option<Arc<Ruleset>>, color: bool) -> Result<Session, i32> {
    let players: Vec<String> = match &args.players {
        Some(p) => p.iter().map(|p| p.trim().to_string()).collect(),
        None => vec![HUMAN.to_string(), "greedy".to_string()],
    };
    let bots = bots(&players)?;
    let spec = args.ruleset.as_deref().unwrap_or_default();
    let ruleset = match loaded {
        Some(ruleset) => ruleset,
        None => load_ruleset(spec).ok_or(super::EXIT_FAILURE)?,
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    let players = [players[0].clone(), players[1].clone()];
    let record = Record::new(&ruleset, spec, Some(seed), &players, args.rounds);
    let game = Game::new(
        Arc::clone(&ruleset),
        GameOptions {
            seed,
            rounds: args.rounds,
            log_events: true,
            ..GameOptions::default()
        },
    )
    .map_err(|e| {
        eprintln!("error: {e}");
        super::EXIT_FAILURE
    })?;
    let mut session = Session {
        game,
        record,
        bots,
        style: Style::for_players(&players, color),
        seed,
        save: save_path(args, seed),
        record_path: args.record.clone(),
        record_failed: false,
    };
    session.check_files()?;
    println!(
        "{} · seed {seed} (play this game again with --seed {seed}) · {} vs {}",
        ruleset.name, players[0], players[1]
    );
    Ok(session)
}

fn save_path(args: &PlayArgs, seed: u64) -> PathBuf {
    args.save
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("yaku-save-{seed}.json")))
}

/// Reads a record and loads its ruleset, refusing one whose rules changed unless `force`.
/// Errors are printed; the `Err` is the exit code.
pub(super) fn read_record(path: &Path, force: bool) -> Result<(Record, Arc<Ruleset>), i32> {
    let text = crate::fsio::read_text_limited(path, crate::fsio::MAX_RECORD_SIZE).map_err(|e| {
        eprintln!("error: cannot read `{}`: {e}", path.display());
        super::EXIT_FAILURE
    })?;
    let record = Record::from_json(&text).map_err(|e| {
        eprintln!("error: `{}`: {e}", path.display());
        super::EXIT_FAILURE
    })?;
    let ruleset = record_ruleset(path, &record.ruleset.spec)?;
    match record.check_hash(&ruleset) {
        HashCheck::Same => {}
        HashCheck::Unrecorded => eprintln!(
            "note: the record gives no ruleset hash; it is replayed with `{}` as it is now",
            record.ruleset.spec
        ),
        HashCheck::Differs { recorded, actual } if force => eprintln!(
            "warning: the rules of `{}` changed since the record was written (hash {recorded}, now {actual}); going on because of --force",
            record.ruleset.spec
        ),
        HashCheck::Differs { recorded, actual } => {
            eprintln!(
                "error: the rules of `{}` changed since the record was written (hash {recorded}, now {actual})\n  = help: the game may not replay the same way; add --force to try anyway",
                record.ruleset.spec
            );
            return Err(super::EXIT_FAILURE);
        }
    }
    Ok((record, ruleset))
}

/// Loads the ruleset a record names. One that cannot be found is reported against the record (the
/// spec is not something the user typed); one with errors gets its diagnostics, then a line
/// naming the record. Errors are printed; the `Err` is the exit code.
fn record_ruleset(path: &Path, spec: &str) -> Result<Arc<Ruleset>, i32> {
    let loaded = crate::ruleset::load(spec);
    let errors: Vec<&crate::diag::Diagnostic> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == crate::diag::Severity::Error)
        .collect();
    // The loader reports a spec it cannot open against the spec itself, not a file's text.
    let unopened = !errors.is_empty()
        && errors
            .iter()
            .all(|d| loaded.sources.get(d.loc.file).name == "<command line>");
    if unopened {
        eprintln!(
            "error: `{}` was recorded with the ruleset `{spec}`, which cannot be loaded: {}",
            path.display(),
            errors[0].message
        );
        if let Some(help) = &errors[0].help {
            eprintln!("  = help: {help}");
        }
        eprintln!(
            "  = note: a record names its ruleset in `ruleset.spec` as it was given to `yaku play`; a path is read from the current directory"
        );
        return Err(super::EXIT_FAILURE);
    }
    if !loaded.diagnostics.is_empty() {
        eprint!(
            "{}",
            crate::diag::render_text(&loaded.sources, &loaded.diagnostics)
        );
    }
    loaded.value.map(Arc::new).ok_or_else(|| {
        eprintln!(
            "error: the ruleset `{spec}` that `{}` was recorded with has errors (above)",
            path.display()
        );
        super::EXIT_FAILURE
    })
}

fn resume(args: &PlayArgs, path: &Path, color: bool) -> Result<Session, i32> {
    let (record, ruleset) = read_record(path, args.force)?;
    if record.players.len() != 2 {
        eprintln!(
            "error: `{}` names {} in `players`; a game has two",
            path.display(),
            super::plural(record.players.len(), "player")
        );
        return Err(super::EXIT_FAILURE);
    }
    let bots = bots(&record.players)?;
    let mut game = record.start(Arc::clone(&ruleset), true).map_err(|e| {
        eprintln!("error: `{}`: {e}", path.display());
        super::EXIT_FAILURE
    })?;
    for i in 0..record.actions.len() {
        record.apply(&mut game, i).map_err(|e| {
            eprintln!(
                "error: `{}`: {}",
                path.display(),
                super::replay::record_error(&record, &e)
            );
            super::EXIT_FAILURE
        })?;
    }
    game.drain_events();
    let seed = record.seed.unwrap_or(0);
    let players = [record.players[0].clone(), record.players[1].clone()];
    let mut session = Session {
        game,
        record,
        bots,
        style: Style::for_players(&players, color),
        seed,
        save: save_path(args, seed),
        record_path: args.record.clone(),
        record_failed: false,
    };
    session.check_files()?;
    let (game, record) = (&session.game, &session.record);
    if game.is_over() {
        let s = game.scores();
        println!(
            "the game in `{}` is already over: {} {}, {} {}",
            path.display(),
            record.players.first().map_or("", String::as_str),
            s[0],
            record.players.get(1).map_or("", String::as_str),
            s[1]
        );
    }
    println!(
        "{} · seed {seed} · {} vs {} · resumed from `{}` after {}",
        ruleset.name,
        players[0],
        players[1],
        path.display(),
        super::plural(record.actions.len(), "action")
    );
    Ok(session)
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
fn probe_writable(path: &Path) -> Result<(), String> {
    crate::fsio::check_replaceable_by_record(path)?;
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

/// An action in words, for "only one move" notes.
fn describe(game: &Game, style: &Style, action: Action) -> String {
    let deck = &game.ruleset().deck;
    match action {
        Action::Play { card } => format!("play {}", style.card(deck, card)),
        Action::Capture { card } => format!("capture {}", style.card(deck, card)),
        Action::KoiKoi => "koi-koi".into(),
        Action::Stop => "stop and score".into(),
        Action::SwapHands { swap: true } => "take the dealer's hand".into(),
        Action::SwapHands { swap: false } => "keep your hand".into(),
    }
}

impl Session {
    fn apply(&mut self, seat: usize, action: Action) {
        self.game
            .apply(action)
            .expect("the action is one of the legal actions");
        self.record.push(seat, action, &self.game.ruleset().deck);
    }

    /// Writes the record as the game stands to `path`; `Err` says why it cannot be.
    fn try_write_record(&mut self, path: &Path) -> Result<(), String> {
        self.record.sync(&self.game);
        crate::fsio::write_atomic(path, (self.record.to_json() + "\n").as_bytes())
            .map_err(|e| write_problem(path, &e))
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
        if let Some(path) = self.record_path.clone()
            && let Err(why) = crate::fsio::check_replaceable_by_record(&path)
                .and_then(|()| self.try_write_record(&path))
        {
            eprintln!(
                "error: cannot write the record to `{}`: {why}\n  = note: the game was not started",
                path.display()
            );
            return Err(super::EXIT_FAILURE);
        }
        if self.bots.iter().any(Option::is_none)
            && let Err(why) = probe_writable(&self.save)
        {
            eprintln!(
                "error: cannot save the game to `{}`: {why}\n  = help: `--save FILE` chooses where `quit` and the end of input save the game\n  = note: the game was not started",
                self.save.display()
            );
            return Err(super::EXIT_FAILURE);
        }
        Ok(())
    }

    /// Brings the record file up to date during play; a failure is reported once and the game
    /// goes on (the final write reports it again and fails).
    fn update_record(&mut self) {
        let Some(path) = self.record_path.clone() else {
            return;
        };
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

    /// Saves the game and says how to resume it.
    fn save_and_leave(&mut self) -> i32 {
        let save = self.save.clone();
        if let Err(code) = self.write_record(&save) {
            return code;
        }
        if let Some(path) = self.record_path.clone()
            && let Err(code) = self.write_record(&path)
        {
            return code;
        }
        println!(
            "\ngame saved to {}; resume it with: yaku play --resume {}",
            save.display(),
            save.display()
        );
        super::EXIT_OK
    }

    fn play(&mut self) -> i32 {
        let stdin = std::io::stdin();
        let echo = !stdin.is_terminal();
        let mut lines = stdin.lock().lines();
        let mut legal = Vec::new();
        let mut stdout = std::io::stdout();
        loop {
            let events = self.game.drain_events();
            print!("{}", screen::narrate(&self.style, &self.game, &events));
            if let Some(e) = self.game.script_error() {
                eprintln!("error: {e}");
                return super::EXIT_FAILURE;
            }
            let Some(seat) = self.game.to_act() else {
                break;
            };
            if events.iter().any(|e| matches!(e, Event::HandEnded { .. })) {
                self.update_record();
            }
            self.game.legal_actions(&mut legal);
            if let Some(bot) = &mut self.bots[seat] {
                let index = self.record.actions.len();
                let mut rng = agent_rng(crate::sim::game_seed(self.seed, index));
                let action = bot.choose(&self.game.view(seat), &legal, &mut rng);
                self.apply(seat, action);
                continue;
            }
            // A person may take a while, or close the terminal: keep the record current.
            self.update_record();
            print!("{}", screen::screen(&self.style, &self.game, Some(seat)));
            if self.bots.iter().all(Option::is_none) {
                println!("({} to act)", self.style.who(seat));
            }
            if let [only] = legal.as_slice() {
                println!(
                    "only one move is possible: {}; it is made for you",
                    describe(&self.game, &self.style, *only)
                );
                self.apply(seat, *only);
                continue;
            }
            loop {
                println!("{}", prompt::question(&self.style, &self.game, &legal));
                print!("> ");
                let _ = stdout.flush();
                let line = match lines.next() {
                    Some(Ok(line)) => line,
                    Some(Err(e)) => {
                        eprintln!("error: cannot read the input: {e}");
                        return self.save_and_leave();
                    }
                    None => {
                        println!("\n(end of input)");
                        return self.save_and_leave();
                    }
                };
                if echo {
                    println!("{}", line.trim_end());
                }
                match prompt::parse(&line, &self.game, &legal) {
                    Ok(Input::Act(action)) => {
                        self.apply(seat, action);
                        break;
                    }
                    Ok(Input::Help) => println!("{HELP}"),
                    Ok(Input::Rules) => print!("{}", screen::rules(self.game.ruleset())),
                    Ok(Input::Score) => print!("{}", screen::score(&self.style, &self.game)),
                    Ok(Input::Quit) => return self.save_and_leave(),
                    Err(reason) => println!("error: {reason}"),
                }
            }
        }
        if let Some(path) = self.record_path.clone() {
            if let Err(code) = self.write_record(&path) {
                return code;
            }
            println!("record written to {}", path.display());
        }
        super::EXIT_OK
    }
}
