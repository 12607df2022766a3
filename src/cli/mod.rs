//! The `yaku` command line: argument parsing and the commands. The only place that prints.
//!
//! Each command lives in its own file; `run` maps every outcome to an exit code: 0 success,
//! 1 a finding or failure the user must fix, 2 a usage error.
//!
//! ```
//! // The command line's definition, as completions and man pages read it.
//! let command = yaku::cli::command();
//! assert!(command.get_subcommands().any(|c| c.get_name() == "rules"));
//! ```

mod analyze;
mod list;
mod play;
mod position;
mod record;
mod replay;
mod rules;
mod schema;
mod score;
mod serve;
mod shell;
mod sim;
mod validate;

use clap::{Parser, Subcommand};

/// yaku: a rules-as-data engine for card and tile games.
#[derive(Parser, Debug)]
#[command(name = "yaku", version = env!("YAKU_VERSION"), about, long_about = None, after_help = EXIT_CODES_HELP)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check rule files and decks: syntax, keys, expressions, references, scripts.
    Validate(validate::ValidateArgs),
    /// Score a hand that ends with a given capture pile.
    Score(Box<score::ScoreArgs>),
    /// Exact expected value of a banker-game strategy, and the best strategies.
    Analyze(analyze::AnalyzeArgs),
    /// Play a game in the terminal: against a bot, hot seat, or bot against bot.
    Play(play::PlayArgs),
    /// Step through a game record, or print its outcomes as JSON.
    Replay(replay::ReplayArgs),
    /// One position of a game: where the cards lie, each move with what it takes or scores, a
    /// bot's choice, the position after a move.
    Position(position::PositionArgs),
    /// A first game: one hand against a bot, each decision explained from the rules.
    Learn(play::LearnArgs),
    /// Bot-vs-bot games on all cores, with statistics.
    Sim(sim::SimArgs),
    /// Print a ruleset's rule sheet: deck, deal, play, every yaku in words, scoring, sources.
    Rules(rules::RulesArgs),
    /// Print the JSON Schema of ruleset, deck and strategy files (for Taplo / Even Better TOML).
    Schema(schema::SchemaArgs),
    /// Run the language server for rule files on standard input and output (for editors).
    Lsp,
    /// Serve the table in a browser: play against bots or with friends over a network.
    Serve(serve::ServeArgs),
    /// List the bundled rulesets, house rules, decks and strategies.
    List(list::ListArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(shell::CompletionsArgs),
    /// Print the man page (roff), e.g. `yaku man > yaku.1`; `--dir` writes every page.
    Man(shell::ManArgs),
}

/// House rules and option settings applied on top of a command's ruleset; they make the spec
/// `RULESET+HOUSE+...+NAME=VALUE` that the loader reads (and records keep).
#[derive(clap::Args, Debug, Default, Clone)]
pub(crate) struct HouseArgs {
    /// House rules applied on top of the ruleset, in order: bundled names or paths, separated by
    /// commas (`--with house/no-seven-doubling,mine.toml`)
    #[arg(long = "with", value_name = "RULESET,...", value_delimiter = ',')]
    with: Vec<String>,
    /// Set an option of the ruleset (`--set seven_doubling=false`) or a key of its rule file
    /// (`--set flow.rounds=6`), or remove a key (`--set flow.rounds=unset`); repeat for several
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
}

impl HouseArgs {
    /// `ruleset` with the house rules and settings joined on.
    pub(crate) fn spec(&self, ruleset: &str) -> String {
        std::iter::once(ruleset)
            .chain(self.with.iter().map(String::as_str))
            .chain(self.set.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join("+")
    }

    /// True when neither is given.
    pub(crate) fn is_empty(&self) -> bool {
        self.with.is_empty() && self.set.is_empty()
    }
}

/// Exit code: success.
pub const EXIT_OK: i32 = 0;
/// Exit code: the input has errors, or the command failed.
pub const EXIT_FAILURE: i32 = 1;
/// Exit code: the command line is wrong.
pub const EXIT_USAGE: i32 = 2;

/// The exit codes, as `--help` shows them (README.md lists the same).
const EXIT_CODES_HELP: &str = "Exit codes:
  0  success
  1  the input has errors (a rule file, a record, a strategy), or the command failed
  2  the command line is wrong (unknown option, missing argument)";

/// The definition of the command line, for completions and the man page.
pub fn command() -> clap::Command {
    <Args as clap::CommandFactory>::command()
}

/// Diagnostics printed as text at most, as clang's `-ferror-limit` does: a file broken in a
/// million places would otherwise print hundreds of megabytes (`--json` gives them all).
const MAX_SHOWN: usize = 1000;

/// Prints diagnostics to standard error (the first [`MAX_SHOWN`]), coloured when standard error
/// is a terminal (and `NO_COLOR` is unset, or `CLICOLOR_FORCE` is set).
pub(crate) fn print_diagnostics(
    sources: &crate::diag::SourceMap,
    diagnostics: &[crate::diag::Diagnostic],
) {
    use std::io::Write;
    let shown = &diagnostics[..diagnostics.len().min(MAX_SHOWN)];
    let text = crate::diag::render_text_styled(sources, shown);
    let mut stderr = anstream::stderr();
    let _ = write!(stderr, "{text}");
    if diagnostics.len() > shown.len() {
        let _ = writeln!(
            stderr,
            "note: {} not shown (the first {MAX_SHOWN} are; `yaku validate --json` lists every one)\n",
            crate::front::plural(diagnostics.len() - shown.len(), "more diagnostic")
        );
    }
}

/// Writes a command's output to `path`, or to standard output without one.
pub(crate) fn write_output(path: Option<&std::path::Path>, text: &str) -> i32 {
    write_output_from(path, text, &[])
}

/// Writes a command's output to `path` (atomically, and only to a regular file or a new name:
/// a full disk or a file-size limit leaves the previous file whole), or to standard output
/// without one. An output that is one of `inputs` (the files the command read, under any
/// spelling or link) is refused, so `yaku rules mine.toml -o mine.toml` cannot replace the rule
/// file with its sheet (see [`crate::fsio::output_problem`], the check every writer asks).
pub(crate) fn write_output_from(
    path: Option<&std::path::Path>,
    text: &str,
    inputs: &[std::path::PathBuf],
) -> i32 {
    use std::io::Write;
    match path {
        Some(path) => {
            let written = match crate::fsio::output_problem(path, inputs) {
                Some(why) => Err(why),
                None => crate::fsio::write_atomic(path, text.as_bytes()).map_err(|e| e.to_string()),
            };
            match written {
                Ok(()) => EXIT_OK,
                Err(why) => {
                    eprintln!(
                        "error: cannot write {}: {why}",
                        crate::diag::escape_control(&path.display().to_string())
                    );
                    EXIT_FAILURE
                }
            }
        }
        None => {
            let _ = anstream::stdout().write_all(text.as_bytes());
            EXIT_OK
        }
    }
}

/// Every file read to load the ruleset `spec`: the parts of the spec and each file the loader
/// opened (bases, decks, scripts); bundled files have names that are no path here and match
/// nothing. What an output must not be ([`crate::fsio::output_problem`]).
pub(crate) fn ruleset_inputs(
    spec: &str,
    sources: &crate::diag::SourceMap,
) -> Vec<std::path::PathBuf> {
    spec.split('+')
        .map(std::path::PathBuf::from)
        .chain(sources.files().iter().map(|f| f.name.clone().into()))
        .collect()
}

/// The files that players named on the command line read: strategy files, and the words of a
/// `cmd:` program (its script, say), each taken as a path; names that are no file match
/// nothing. What an output must not be ([`crate::fsio::output_problem`]).
pub(crate) fn player_inputs(players: &[String]) -> Vec<std::path::PathBuf> {
    players
        .iter()
        .flat_map(|p| match p.strip_prefix("cmd:") {
            Some(program) => program.split_whitespace().map(str::to_string).collect(),
            None => vec![p.clone()],
        })
        .map(std::path::PathBuf::from)
        .collect()
}

/// Ends the process with `code`, after [`before_exit`]: every way out of a command but the
/// return from `main`.
pub(crate) fn exit(code: i32) -> ! {
    before_exit();
    let _ = std::io::Write::flush(&mut std::io::stdout());
    std::process::exit(code)
}

/// What must happen before the process exits, however it exits (the end of a command, a
/// signal): the seat programs' process groups are killed ([`crate::agent::end_programs`]), and
/// a file being written is finished and no other started, the temporary file of an output
/// written as a run goes removed ([`crate::fsio::end_writes`]). Nothing is written after.
pub fn before_exit() {
    crate::agent::end_programs();
    crate::fsio::end_writes();
}

/// On SIGINT, SIGTERM or SIGHUP: ends the process as [`exit`] does, with 128 + the signal's
/// number. For the commands that run seat programs (their process groups do not get the
/// terminal's Ctrl-C) or write an output as they go; `play` has a handler of its own, which
/// saves the game first.
pub(crate) fn exit_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            exit(128 + signal);
        }
    });
}

/// Like [`exit_on_signals`], except that a first SIGINT (Ctrl-C) only sets the flag returned,
/// and says so on standard error: a command that can stop early and report what it did
/// (`yaku sim`) checks it. A second SIGINT, or SIGTERM or SIGHUP, ends the process.
pub(crate) fn stop_on_interrupt() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return stop;
    };
    let flag = std::sync::Arc::clone(&stop);
    std::thread::spawn(move || {
        for signal in signals.forever() {
            if signal == SIGINT && !flag.swap(true, std::sync::atomic::Ordering::SeqCst) {
                eprintln!(
                    "\ninterrupted: the games in play finish and the report covers the games played (Ctrl-C again to quit at once)"
                );
                continue;
            }
            exit(128 + signal);
        }
    });
    stop
}

/// Runs the command line and returns the process exit code.
pub fn run() -> i32 {
    run_from(std::env::args().collect())
}

/// The command line of this run, as [`hand_over_to_wider`] gives it to the wider build.
static ARGV: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();

/// The same command line built with 128-bit card sets, when this build's are narrower.
static WIDER: std::sync::OnceLock<fn(Vec<String>) -> i32> = std::sync::OnceLock::new();

/// Runs the command line as [`run`] does, with `wider` (the command line of the library built
/// with `--features wide-decks`, given the same arguments) taking over a command whose deck has
/// more cards than this build's card sets hold. A 128-bit set makes every 48-card game about a
/// third dearer than a 64-bit one, so the `yaku` binary holds both builds and uses the wider
/// only where a deck needs it.
///
/// For the binary's `main`: the process is made ready to exit before the code is returned
/// ([`before_exit`]), so `wider` should do the same for its build.
pub fn run_with_wider(wider: fn(Vec<String>) -> i32) -> i32 {
    if crate::deck::CardSet::CAPACITY < 128 {
        let _ = WIDER.set(wider);
    }
    let code = run();
    before_exit();
    code
}

/// The wider build, when the binary has one and `diagnostics` say the deck needs its card sets.
fn wider_for(diagnostics: &[crate::diag::Diagnostic]) -> Option<fn(Vec<String>) -> i32> {
    let needs = diagnostics
        .iter()
        .any(|d| d.code == Some(crate::diag::DiagnosticCode::DeckNeedsWiderSets));
    WIDER.get().copied().filter(|_| needs)
}

/// When `diagnostics` say the deck needs wider card sets and the binary has a build with them,
/// runs the whole command line there and ends the process with its exit code; otherwise returns.
/// Called before a command prints anything of its ruleset's findings, so the output is the wider
/// build's alone.
pub(crate) fn hand_over_to_wider(diagnostics: &[crate::diag::Diagnostic]) {
    if let (Some(wider), Some(argv)) = (wider_for(diagnostics), ARGV.get()) {
        let _ = std::io::Write::flush(&mut std::io::stdout());
        HANDED_OVER.store(true, std::sync::atomic::Ordering::SeqCst);
        exit(wider(argv.clone()));
    }
}

/// Set when this build has handed its command to the wider one, whose own signal handlers then
/// answer signals (this build's stand aside: see [`handed_over`]).
static HANDED_OVER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// True once the command runs in the wider build: this build's signal handler leaves a signal
/// to the wider build's, which holds the game.
pub(crate) fn handed_over() -> bool {
    HANDED_OVER.load(std::sync::atomic::Ordering::SeqCst)
}

/// `yaku validate SPEC` run by the wider build, when `diagnostics` (this build's findings in
/// `spec`) say the deck needs wider card sets and the binary has that build: `Some(true)` when
/// it found errors. `out` is flushed first, so the verdicts stay in order.
pub(crate) fn check_in_wider(
    spec: &str,
    diagnostics: &[crate::diag::Diagnostic],
    out: &mut impl std::io::Write,
) -> std::io::Result<Option<bool>> {
    let Some(wider) = wider_for(diagnostics) else {
        return Ok(None);
    };
    out.flush()?;
    let argv = ["yaku", "validate", spec].map(String::from).to_vec();
    Ok(Some(wider(argv) != EXIT_OK))
}

/// Runs the command line `argv` (the program's name first) and returns the exit code.
pub fn run_from(argv: Vec<String>) -> i32 {
    restore_sigpipe();
    ignore_sigxfsz();
    report_output_failures();
    let _ = ARGV.set(argv.clone());
    let (argv, declared) = declaration_flags(argv);
    let args = match Args::try_parse_from(argv) {
        Ok(a) => a,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let _ = e.print();
            return code;
        }
    };
    let code = match args.command {
        Command::Validate(a) => validate::run(&a),
        Command::Score(mut a) => {
            a.declared = declared;
            a.ruleset = a.house.spec(&a.ruleset);
            score::run(&a)
        }
        Command::Analyze(mut a) => {
            a.ruleset = a.house.spec(&a.ruleset);
            analyze::run(&a)
        }
        Command::Play(mut a) => {
            if !a.house.is_empty() && a.ruleset.is_none() {
                eprintln!(
                    "error: `--with` and `--set` change a new game's rules; a resumed game keeps its own"
                );
                return EXIT_USAGE;
            }
            a.ruleset = a.ruleset.map(|r| a.house.spec(&r));
            play::run(&a)
        }
        Command::Replay(a) => replay::run(&a),
        Command::Position(a) => position::run(&a),
        Command::Learn(a) => play::learn(&a),
        Command::Sim(mut a) => {
            a.ruleset = a.house.spec(&a.ruleset);
            sim::run(&a)
        }
        Command::Rules(mut a) => {
            a.ruleset = a.house.spec(&a.ruleset);
            rules::run(&a)
        }
        Command::List(a) => list::run(&a),
        Command::Schema(a) => schema::run(&a),
        // An editor's rule files may have any deck the command plays: the language server runs
        // in the wider build where the binary has one (checking a buffer costs the same).
        Command::Lsp => match (WIDER.get(), ARGV.get()) {
            (Some(wider), Some(argv)) => wider(argv.clone()),
            _ => crate::lsp::run_stdio(),
        },
        Command::Serve(a) => serve::run(&a),
        Command::Completions(a) => shell::completions(&a),
        Command::Man(a) => shell::man(&a),
    };
    // Output still buffered must reach its file too, or the command failed.
    match std::io::Write::flush(&mut std::io::stdout()) {
        Ok(()) => code,
        Err(e) => output_failed(&e),
    }
}

/// `yaku score` takes flags named after the ruleset's declarations (`--koikoi 1` for a ruleset
/// whose call to play on is `koikoi`), which clap cannot know before the ruleset is loaded: the
/// `--NAME VALUE` pairs of `score` that are not its own flags are taken out here, for the
/// command to check against the ruleset.
fn declaration_flags(argv: Vec<String>) -> (Vec<String>, Vec<(String, String)>) {
    use clap::CommandFactory;
    if argv.get(1).map(String::as_str) != Some("score") {
        return (argv, Vec::new());
    }
    let command = Args::command();
    let Some(score) = command.find_subcommand("score") else {
        return (argv, Vec::new());
    };
    let known: Vec<String> = score
        .get_arguments()
        .flat_map(|a| {
            let aliases = a.get_all_aliases().unwrap_or_default();
            (a.get_long().into_iter().chain(aliases)).map(str::to_string)
        })
        .chain(["help".to_string()])
        .collect();
    let (mut kept, mut declared) = (Vec::new(), Vec::new());
    let mut rest = argv.into_iter();
    while let Some(arg) = rest.next() {
        let Some(flag) = arg.strip_prefix("--").filter(|f| !f.is_empty()) else {
            kept.push(arg);
            continue;
        };
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (flag.to_string(), None),
        };
        if known.contains(&name) {
            kept.push(arg);
            continue;
        }
        let value = inline.or_else(|| rest.next()).unwrap_or_default();
        declared.push((name, value));
    }
    (kept, declared)
}

/// Reports output that could not be written (a full disk, a closed file) and returns the exit
/// code of a failed command.
pub(crate) fn output_failed(e: &std::io::Error) -> i32 {
    eprintln!("error: cannot write the output: {e}");
    EXIT_FAILURE
}

/// Makes a failed print end the command with an error instead of a panic.
///
/// The commands print with `println!`, which panics when standard output cannot be written
/// (`yaku sim > /dev/full`). Rather than thread an `io::Result` through every print, this one
/// hook turns exactly that panic into `error: cannot write the output: ...` and exit code 1;
/// any other panic keeps the default report.
fn report_output_failures() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(why) = message.strip_prefix("failed printing to stdout: ") {
            eprintln!("error: cannot write the output: {why}");
            std::process::exit(EXIT_FAILURE);
        }
        default(info);
    }));
}

/// Loads a ruleset for a command, printing its diagnostics; `None` when it has errors.
pub(crate) fn load_ruleset(spec: &str) -> Option<std::sync::Arc<crate::ruleset::Ruleset>> {
    load_ruleset_read(spec).map(|(ruleset, _)| ruleset)
}

/// [`load_ruleset`], with the files read ([`ruleset_inputs`]).
pub(crate) fn load_ruleset_read(
    spec: &str,
) -> Option<(
    std::sync::Arc<crate::ruleset::Ruleset>,
    Vec<std::path::PathBuf>,
)> {
    load_ruleset_texts(spec).map(|(ruleset, inputs, _)| (ruleset, inputs))
}

/// The rule files a ruleset was read from on disk: each one's name as the loader gave it (a
/// path from the current folder, or absolute) and its text, in the order read.
pub(crate) type RuleTexts = Vec<(String, String)>;

/// [`load_ruleset_read`], with the text of every file read from disk (what a record embeds).
pub(crate) fn load_ruleset_texts(
    spec: &str,
) -> Option<(
    std::sync::Arc<crate::ruleset::Ruleset>,
    Vec<std::path::PathBuf>,
    RuleTexts,
)> {
    let loaded = crate::ruleset::load(spec);
    hand_over_to_wider(&loaded.diagnostics);
    if !loaded.diagnostics.is_empty() {
        print_diagnostics(&loaded.sources, &loaded.diagnostics);
    }
    let inputs = ruleset_inputs(spec, &loaded.sources);
    let texts = loaded
        .read
        .iter()
        .map(|&f| {
            let file = loaded.sources.get(f);
            (file.name.clone(), file.text.clone())
        })
        .collect();
    loaded
        .value
        .map(|r| (std::sync::Arc::new(r), inputs, texts))
}

/// Lets a closed pipe (`yaku replay game.json | head`) end the process quietly, as it does for
/// other command-line tools, instead of making every later print fail.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting SIGPIPE's disposition to the default at start-up, before any thread or
    // output exists, has no other effect on the program.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Makes a write past the file-size limit (`ulimit -f`) fail with an error (`EFBIG`) that the
/// write reports, instead of killing the process by SIGXFSZ with no message, a lost game and a
/// truncated temporary file: a save that fails is reported and the game goes on.
fn ignore_sigxfsz() {
    #[cfg(unix)]
    // SAFETY: ignoring SIGXFSZ at start-up, before any thread exists; writes then return EFBIG.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// The columns of the terminal standard output goes to, or `usize::MAX` when it goes to none (a
/// pipe, a file): for text wrapped to fit.
pub(crate) fn terminal_width() -> usize {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return usize::MAX;
    }
    ratatui::crossterm::terminal::size().map_or(usize::MAX, |(columns, _)| usize::from(columns))
}
