//! A game record's errors as the commands that read records (`replay`, `play --resume`) report
//! them.

use crate::core::record::{Record, RecordError, RecordErrorKind, StepAction};

/// A record's error as a replay reports it. The engine words an illegal action for the player at
/// the keyboard (`not in your hand`); here there is no "you", so the action is named with its
/// seat and player, and the reason speaks of "that player".
/// Control characters from the record (card ids, declaration ids) are escaped.
pub(super) fn record_error(record: &Record, e: &RecordError) -> String {
    crate::diag::escape_control(&record_error_text(record, e)).into_owned()
}

fn record_error_text(record: &Record, e: &RecordError) -> String {
    let RecordErrorKind::Illegal { index, reason } = &e.kind else {
        return e.to_string();
    };
    let Some(step) = record.actions.get(*index) else {
        return e.to_string();
    };
    let what = match &step.action {
        StepAction::Play { card } => format!("play {card}"),
        StepAction::Capture { card } => format!("capture {card}"),
        StepAction::CaptureSet { cards } => format!("capture {}", cards.join(" + ")),
        StepAction::PlaySet { cards } => format!("play {}", cards.join(" + ")),
        StepAction::Build { cards, value } => format!("build {value} on {}", cards.join(" + ")),
        StepAction::Declare { id, card: None } => format!("declare {id}"),
        StepAction::Declare { id, card: Some(c) } => format!("declare {id} with {c}"),
        StepAction::Bet { amount } => format!("bet {amount}"),
        StepAction::Draw { tiles } => format!("take {tiles} more"),
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
