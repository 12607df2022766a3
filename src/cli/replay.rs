//! `yaku replay FILE`: steps through a game record in the terminal, or prints each round's
//! outcome and the final scores as JSON.

use super::play::read_record;
use super::play::screen::{self, Style};
use crate::record::{Record, RecordError, RecordErrorKind, StepAction};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

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
    /// No colours, even on a terminal.
    #[arg(long)]
    no_color: bool,
}

/// Runs the command.
pub fn run(args: &ReplayArgs) -> i32 {
    let Ok((record, ruleset)) = read_record(&args.file, args.force) else {
        return super::EXIT_FAILURE;
    };
    let fail = |e: RecordError| {
        eprintln!(
            "error: `{}`: {}",
            args.file.display(),
            record_error(&record, &e)
        );
        super::EXIT_FAILURE
    };
    if args.json {
        return match record.replay(ruleset) {
            Ok(game) => {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&outcomes(&record, &game)).unwrap_or_default()
                );
                super::EXIT_OK
            }
            Err(e) => fail(e),
        };
    }
    let players: [String; 2] = match record.players.as_slice() {
        [a, b] => [a.clone(), b.clone()],
        _ => ["player 1".into(), "player 2".into()],
    };
    let style = Style::for_players(&players, !args.no_color && std::io::stdout().is_terminal());
    let mut game = match record.start(ruleset, true) {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let stdin = std::io::stdin();
    let mut step = !args.to_end && stdin.is_terminal();
    let mut lines = stdin.lock().lines();
    println!(
        "replaying `{}`: {} · {} vs {} · {}",
        args.file.display(),
        game.ruleset().name,
        players[0],
        players[1],
        super::plural(record.actions.len(), "action")
    );
    for i in 0..record.actions.len() {
        let events = game.drain_events();
        print!("{}", screen::narrate(&style, &game, &events));
        if step {
            print!("{}", screen::screen(&style, &game, None));
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
        if let Err(e) = record.apply(&mut game, i) {
            let events = game.drain_events();
            print!("{}", screen::narrate(&style, &game, &events));
            return fail(e);
        }
    }
    let events = game.drain_events();
    print!("{}", screen::narrate(&style, &game, &events));
    if !game.is_over() {
        println!("(the record ends here: the game was not finished)");
    }
    super::EXIT_OK
}

/// A record's error as a replay reports it. The engine words an illegal action for the player at
/// the keyboard (`not in your hand`); here there is no "you", so the action is named with its
/// seat and player, and the reason speaks of "that player".
pub(super) fn record_error(record: &Record, e: &RecordError) -> String {
    let RecordErrorKind::Illegal { index, reason } = &e.kind else {
        return e.to_string();
    };
    let Some(step) = record.actions.get(*index) else {
        return e.to_string();
    };
    let what = match &step.action {
        StepAction::Play { card } => format!("play {card}"),
        StepAction::Capture { card } => format!("capture {card}"),
        StepAction::KoiKoi => "koi-koi".to_string(),
        StepAction::Stop => "stop".to_string(),
        StepAction::SwapHands { swap: true } => "take the dealer's hand".to_string(),
        StepAction::SwapHands { swap: false } => "keep the hand".to_string(),
    };
    let who = match step.seat {
        Some(seat) => match record.players.get(seat) {
            Some(player) => format!("seat {seat}, {player}: "),
            None => format!("seat {seat}: "),
        },
        None => String::new(),
    };
    let reason = reason.replace("your hand", "that player's hand");
    format!("action {index} ({who}{what}) is illegal: {reason}")
}

/// Each round's outcome and the final scores.
fn outcomes(record: &Record, game: &crate::engine::Game) -> serde_json::Value {
    let rounds: Vec<serde_json::Value> = game
        .history()
        .iter()
        .map(|h| {
            let o = h.outcome.as_ref();
            serde_json::json!({
                "round": h.round,
                "dealer": h.dealer,
                "winner": h.winner,
                "end": h.end,
                "yaku": o.map_or_else(Vec::new, |o| o.yaku.clone()),
                "base": o.map_or(0, |o| o.base),
                "multipliers": o.map_or_else(Vec::new, |o| o.steps.clone()),
                "points": h.points,
                "koikoi": h.koikoi,
            })
        })
        .collect();
    serde_json::json!({
        "ruleset": record.ruleset.id,
        "players": record.players,
        "actions": record.actions.len(),
        "finished": game.is_over(),
        "rounds": rounds,
        "final_scores": game.scores(),
    })
}
