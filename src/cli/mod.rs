//! The `yaku` command line: argument parsing and the commands. The only place that prints.
//!
//! Each command lives in its own file; `run` maps every outcome to an exit code: 0 success,
//! 1 a finding or failure the user must fix, 2 a usage error.

mod analyze;
mod play;
mod replay;
mod score;
mod sim;
mod validate;

use clap::{Parser, Subcommand};

/// yaku: a rules-as-data engine for hanafuda and tile games.
#[derive(Parser, Debug)]
#[command(name = "yaku", version, about, long_about = None)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check rule files and decks: syntax, keys, expressions, references, scripts.
    Validate(validate::ValidateArgs),
    /// Score a hand that ends with a given capture pile.
    Score(score::ScoreArgs),
    /// Exact expected value of a banker-game strategy, and the best strategies.
    Analyze(analyze::AnalyzeArgs),
    /// Play a game in the terminal: against a bot, hot seat, or bot against bot.
    Play(play::PlayArgs),
    /// Step through a game record, or print its outcomes as JSON.
    Replay(replay::ReplayArgs),
    /// Bot-vs-bot games on all cores, with statistics.
    Sim(sim::SimArgs),
}

/// Exit code: success.
pub const EXIT_OK: i32 = 0;
/// Exit code: the input has errors, or the command failed.
pub const EXIT_FAILURE: i32 = 1;
/// Exit code: the command line is wrong.
pub const EXIT_USAGE: i32 = 2;

/// Runs the command line and returns the process exit code.
pub fn run() -> i32 {
    restore_sigpipe();
    report_output_failures();
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let _ = e.print();
            return code;
        }
    };
    let code = match args.command {
        Command::Validate(a) => validate::run(&a),
        Command::Score(a) => score::run(&a),
        Command::Analyze(a) => analyze::run(&a),
        Command::Play(a) => play::run(&a),
        Command::Replay(a) => replay::run(&a),
        Command::Sim(a) => sim::run(&a),
    };
    // Output still buffered must reach its file too, or the command failed.
    match std::io::Write::flush(&mut std::io::stdout()) {
        Ok(()) => code,
        Err(e) => output_failed(&e),
    }
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

/// A count and a regular noun, singular only for one: `1 point`, `2 points`, `0 cards`.
pub(crate) fn plural(n: impl std::fmt::Display, noun: &str) -> String {
    let n = n.to_string();
    if n == "1" {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Loads a ruleset for a command, printing its diagnostics; `None` when it has errors.
pub(crate) fn load_ruleset(spec: &str) -> Option<std::sync::Arc<crate::ruleset::Ruleset>> {
    let loaded = crate::ruleset::load(spec);
    if !loaded.diagnostics.is_empty() {
        eprint!(
            "{}",
            crate::diag::render_text(&loaded.sources, &loaded.diagnostics)
        );
    }
    loaded.value.map(std::sync::Arc::new)
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

#[cfg(test)]
mod tests {
    #[test]
    fn plural_is_singular_only_for_one() {
        assert_eq!(super::plural(1, "point"), "1 point");
        assert_eq!(super::plural(0, "card"), "0 cards");
        assert_eq!(super::plural(2usize, "call"), "2 calls");
        assert_eq!(super::plural(-1, "point"), "-1 points");
    }
}
