//! `yaku replay FILE`: steps through a game record in the terminal, or prints each round's
//! outcome and the final scores as JSON.

use super::play::read_record;
use crate::core::Game;
use crate::core::record::{Record, RecordError, RecordErrorKind};
use crate::front::screen::{self, Style};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// Arguments of `yaku replay`.
#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// The record (JSON, docs/records.md).
    file: PathBuf,
    /// Print the whole game at once instead of waiting for Enter after each action.
    #[arg(long)]
    to_end: bool,
    /// Print each round's outcome and the final scores as one JSON object.
    #[arg(long)]
    json: bool,
    /// Replay even when the ruleset changed since the record was written.
    #[arg(long)]
    force: bool,
    /// Replay with this rule file instead of the rules the record holds (or names), saying
    /// whether they differ and whether every recorded action is legal under it.
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    /// No colours, even on a terminal.
    #[arg(long)]
    no_color: bool,
    /// Print the position after the first N actions (the deal of the hand then in play and the
    /// hand's moves so far), for `yaku position`; 0 is the first deal.
    #[arg(long, value_name = "N")]
    position_at: Option<usize>,
    /// Step in lines of text even on a terminal, instead of the full-screen table (pipes and
    /// scripts always get lines).
    #[arg(long)]
    line: bool,
}

/// Runs the command.
pub fn run(args: &ReplayArgs) -> i32 {
    let Ok((mut record, ruleset, played)) =
        read_record(&args.file, args.force, args.rules.as_deref())
    else {
        return super::EXIT_FAILURE;
    };
    if let Some(rules) = &args.rules {
        let played = played.map(|p| (record.clone(), p));
        record.ruleset.id.clone_from(&ruleset.id);
        if let Err(code) = check_rules(&args.file, rules, &record, &ruleset, played) {
            return code;
        }
    }
    let fail = |e: RecordError| {
        eprintln!(
            "error: `{}`: {}",
            args.file.display(),
            super::record::record_error(&record, &e)
        );
        super::EXIT_FAILURE
    };
    if let Some(at) = args.position_at {
        let spec = args
            .rules
            .as_ref()
            .map_or_else(|| record.ruleset.spec.clone(), |r| r.display().to_string());
        return position_at(&record, ruleset, &spec, at).unwrap_or_else(fail);
    }
    if args.json {
        return match crate::families::replay(&record, ruleset) {
            Ok(game) => {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&outcomes(&record, &*game)).unwrap_or_default()
                );
                super::EXIT_OK
            }
            Err(e) => fail(e),
        };
    }
    let color = !args.no_color
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::io::stdout().is_terminal();
    if !args.to_end
        && !args.line
        && let Some(code) =
            super::play::replay_on_table(&args.file, &record, Arc::clone(&ruleset), color)
    {
        return code;
    }
    let players = record.players.clone();
    let style = Style::for_players(&players, !args.no_color && std::io::stdout().is_terminal());
    let watch = crate::front::fronts::of(&ruleset).watch;
    let mut game = match crate::families::start_record(&record, ruleset, true) {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let stdin = std::io::stdin();
    let mut step = !args.to_end && stdin.is_terminal();
    let mut lines = stdin.lock().lines();
    println!(
        "replaying `{}`: {} · {} · {}",
        args.file.display(),
        game.ruleset().name,
        players.join(" vs "),
        crate::front::plural(record.actions.len(), "action")
    );
    // Families without events (banker games) are narrated by their finished hands.
    let mut hands_shown = 0;
    let mut narrate = |game: &mut dyn Game| {
        let events = game.drain_events();
        print!("{}", screen::narrate(&style, game, &events));
        if events.is_empty() {
            for h in &game.history()[hands_shown..] {
                print!("{}", screen::hand_result(&style, Some(game.ruleset()), h));
            }
        }
        hands_shown = game.history().len();
    };
    for i in 0..record.actions.len() {
        narrate(&mut *game);
        if step {
            print!("{}", (watch)(&style, &*game));
            print!(
                "[action {}/{}] Enter for the next, `q` to stop: ",
                i + 1,
                record.actions.len()
            );
            let _ = std::io::stdout().flush();
            match lines.next() {
                Some(Ok(l)) if l.trim() == "q" => return super::EXIT_OK,
                Some(Ok(_)) => {}
                _ => step = false,
            }
        }
        if let Err(e) = record.apply(&mut *game, i) {
            narrate(&mut *game);
            return fail(e);
        }
    }
    narrate(&mut *game);
    if !game.is_over() {
        println!("(the record ends here: the game was not finished)");
    }
    super::EXIT_OK
}

/// `replay --position-at N`: prints the position after `at` actions
/// ([`crate::families::position::of_record`]), and says when it does not deal again into the
/// record's game.
fn position_at(
    record: &Record,
    ruleset: Arc<crate::ruleset::Ruleset>,
    spec: &str,
    at: usize,
) -> Result<i32, RecordError> {
    if at > record.actions.len() {
        eprintln!(
            "error: `--position-at {at}`: the record holds {}",
            crate::front::plural(record.actions.len(), "action")
        );
        return Ok(super::EXIT_USAGE);
    }
    let (position, same) = crate::families::position::of_record(record, ruleset, spec, at)?;
    print!("{}", position.to_text());
    if !same {
        eprintln!(
            "warning: this position does not deal again into the record's game after {at} actions: a later hand may depend on the hands before it in ways a position does not hold"
        );
    }
    Ok(super::EXIT_OK)
}

/// `replay --rules FILE`: whether every recorded action is legal under `ruleset` (the first that
/// is not is the error), and, when the record holds the rules it was played with (`played`),
/// whether the final scores are the same under both. Notes are printed; the `Err` is the exit
/// code.
fn check_rules(
    file: &std::path::Path,
    rules: &std::path::Path,
    record: &Record,
    ruleset: &Arc<crate::ruleset::Ruleset>,
    played: Option<(Record, Arc<crate::ruleset::Ruleset>)>,
) -> Result<(), i32> {
    let game = crate::families::replay(record, Arc::clone(ruleset)).map_err(|e| {
        eprintln!(
            "error: `{}` under `{}`: {}",
            file.display(),
            rules.display(),
            super::record::record_error(record, &e)
        );
        if let RecordErrorKind::Illegal { index, .. }
        | RecordErrorKind::WrongSeat { index, .. }
        | RecordErrorKind::UnknownCard { index, .. }
        | RecordErrorKind::UnknownDeclaration { index, .. } = e.kind
        {
            eprintln!(
                "  = note: it is the first recorded action that is not legal under `{}` ({} before it are)",
                rules.display(),
                crate::front::plural(index, "action")
            );
        }
        super::EXIT_FAILURE
    })?;
    eprintln!(
        "note: every recorded action is legal under `{}` ({})",
        rules.display(),
        crate::front::plural(record.actions.len(), "action")
    );
    if let Some((played_record, played)) = played
        && let Ok(before) = crate::families::replay(&played_record, played)
    {
        if before.scores() == game.scores() {
            eprintln!("note: the final scores are the same: {:?}", game.scores());
        } else {
            eprintln!(
                "note: the final scores differ: {:?} as played, {:?} under `{}`",
                before.scores(),
                game.scores(),
                rules.display()
            );
        }
    }
    Ok(())
}

/// Each round's outcome and the final scores.
fn outcomes(record: &Record, game: &dyn Game) -> serde_json::Value {
    let rounds: Vec<serde_json::Value> = game
        .history()
        .iter()
        .map(|h| {
            let o = h.outcome.as_ref();
            let mut round = serde_json::json!({
                "round": h.round,
                "dealer": h.dealer,
                "winner": h.winner,
                "end": h.end,
                "yaku": o.map_or_else(Vec::new, |o| o.yaku.clone()),
                "base": o.map_or(0, |o| o.base),
                "multipliers": o.map_or_else(Vec::new, |o| o.steps.clone()),
                "points": h.points,
                "calls": h.calls,
                "house": h.house,
            });
            // The values the hand left for the next (`[[carry]]`), by id: one number for the
            // table, one a seat.
            if !h.carried.is_empty() {
                round["carried"] = serde_json::json!(h.carried);
            }
            round
        })
        .collect();
    let mut doc = serde_json::json!({
        "ruleset": record.ruleset.id,
        "players": record.players,
        "actions": record.actions.len(),
        "finished": game.is_over(),
        "rounds": rounds,
        "final_scores": game.scores(),
    });
    // With stakes the scores are the stakes: say whether one ran out and ended the game.
    if game.ruleset().matching().is_some_and(|f| f.stake.is_some()) {
        doc["stake_out"] = serde_json::json!(game.scores().iter().any(|&s| s <= 0));
    }
    doc
}
