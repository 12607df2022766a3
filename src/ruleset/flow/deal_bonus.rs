//! `[[flow.deal_bonus]]`: a deal check (the keys every deal check reads, by the same reader as
//! instant wins and redeals) whose effect is a capture of table cards and a turn event for one
//! seat. Some games give the dealer a table dealt to the target as a sweep (Cirulla: "if the
//! four cards on the table add up to 15 the dealer takes them and scores a scopa"), or a
//! dealt four of a month (Matgo house rules); a carried value could count these at the deal,
//! but nothing took the cards or scored the sweep.

use super::*;
use crate::deck::Deck;
use crate::expr::{Names, Program, Type};

/// The most times a deal bonus counts its event.
const MAX_TIMES: i64 = 100;

/// The deal bonuses of `tables`, their `when` and `take` read on the dealt table (`table`, the
/// names of redeals and the table count), their `event` among `turn_events`.
pub(super) fn deal_bonuses(
    tables: Vec<(&Table, &Loc)>,
    table: &Names,
    deck: &Deck,
    turn_events: &[TurnEvent],
    errors: &mut Vec<Diagnostic>,
) -> Vec<DealBonus> {
    let (checks, _) = deal_checks_with(
        tables,
        ("a `[[flow.deal_bonus]]`", &keys::DEAL_BONUS),
        false,
        false,
        table,
        errors,
        |r, loc, errors| effect(r, loc, (table, deck, turn_events), errors),
    );
    checks
        .into_iter()
        .map(|(check, (take, take_source, to, event))| DealBonus {
            check,
            take,
            take_source,
            to,
            event,
        })
        .collect()
}

/// What one deal bonus does: `take`, `to` (with `holder`), `event` and `times`; `None` when a
/// key is wrong (reported).
#[allow(clippy::type_complexity)]
fn effect(
    r: &mut TableReader,
    loc: &Loc,
    (table, deck, turn_events): (&Names, &Deck, &[TurnEvent]),
    errors: &mut Vec<Diagnostic>,
) -> Option<(
    Option<Program>,
    Option<String>,
    DealSeat,
    Option<(usize, u16)>,
)> {
    let mut ok = true;
    let take_source = r.string("take", errors);
    let take = match &take_source {
        Some(s) => {
            let p = compile_expr(s, Type::Set, table, errors);
            ok &= p.is_some();
            p
        }
        None => None,
    };
    let to = choice(
        r,
        "to",
        &[("dealer", 0u8), ("first_player", 1), ("holder", 2)],
        errors,
    );
    let holder = r.string("holder", errors);
    let times = r.int("times", errors);
    let event = r.string("event", errors);
    let to = match (to, &holder) {
        (Some(2), Some(h)) => match deck.card_by_id(h.text) {
            Some(card) => DealSeat::Holder(card),
            None => {
                errors.push(
                    Diagnostic::error(format!("unknown card `{}`", h.text), h.loc.clone())
                        .with_help(did_you_mean(h.text, deck.card_ids())),
                );
                return None;
            }
        },
        (Some(2), None) => {
            errors.push(
                Diagnostic::error("`to = \"holder\"` needs `holder`", loc.clone()).with_help(Some(
                    "add `holder = \"...\"`: the card whose holder receives it".into(),
                )),
            );
            return None;
        }
        (_, Some(h)) => {
            errors.push(
                Diagnostic::error(
                    "`holder` is read only with `to = \"holder\"`",
                    h.loc.clone(),
                )
                .with_help(Some("add `to = \"holder\"`, or remove `holder`".into())),
            );
            return None;
        }
        (Some(1), None) => DealSeat::FirstPlayer,
        _ => DealSeat::Dealer,
    };
    let times = match times {
        Some((n, _)) if (1..=MAX_TIMES).contains(&n) => Some(n as u16),
        Some((n, at)) => {
            errors.push(Diagnostic::error(
                format!("`times` must be between 1 and {MAX_TIMES}, found {n}"),
                at.clone(),
            ));
            return None;
        }
        None => None,
    };
    let event = match event {
        Some(e) => match turn_events.iter().position(|t| t.id == e.text) {
            Some(i) => Some((i, times.unwrap_or(1))),
            None => {
                let help = did_you_mean(e.text, turn_events.iter().map(|t| t.id.as_str()))
                    .or_else(|| {
                        Some(if turn_events.is_empty() {
                            "`[flow]` has no `[[flow.turn_event]]`: add the event it counts (a sweep: `on = \"sweep\"`)".to_string()
                        } else {
                            "`event` names a `[[flow.turn_event]]` by its id".to_string()
                        })
                    });
                errors.push(
                    Diagnostic::error(format!("unknown turn event `{}`", e.text), e.loc.clone())
                        .with_help(help),
                );
                return None;
            }
        },
        None => {
            if times.is_some() {
                errors.push(
                    Diagnostic::error("`times` counts an `event`, and there is none", loc.clone())
                        .with_help(Some(
                            "add `event = \"...\"`, a `[[flow.turn_event]]`'s id".into(),
                        )),
                );
                return None;
            }
            None
        }
    };
    if take_source.is_none() && event.is_none() {
        errors.push(
            Diagnostic::error("a deal bonus does nothing without `take` or `event`", loc.clone())
                .with_help(Some(
                    "add `take = \"pile\"` (the dealt table's cards) and/or `event = \"...\"` (a turn event counted)"
                        .into(),
                )),
        );
        return None;
    }
    ok.then(|| (take, take_source.map(|s| s.text.to_string()), to, event))
}
