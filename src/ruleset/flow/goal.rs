//! A goal's keys, as a trick contract writes them and an announcement's target does
//! (`points`, `min_tricks`, `max_tricks`, and a contract's `by_trick`): read in one place, below
//! both readers.

use crate::diag::{Diagnostic, Loc};
use crate::ruleset::model::{ContractGoal, TrickCount};
use crate::ruleset::reader::TableReader;
use crate::ruleset::toml_tree::Value;

/// A goal's keys: `points`, `min_tricks` (a number or `"all"`), `max_tricks`, and where
/// `with_by_trick` (a contract's, not an announcement's target) `by_trick`.
pub(super) fn goal(
    c: &mut TableReader,
    with_by_trick: bool,
    loc: &Loc,
    errors: &mut Vec<Diagnostic>,
) -> ContractGoal {
    let count = |n: i64, at: &Loc, key: &str, errors: &mut Vec<Diagnostic>| {
        if (0..=64).contains(&n) {
            Some(n as u32)
        } else {
            errors.push(Diagnostic::error(
                format!("`{key}` must be from 0 to 64 tricks, found {n}"),
                at.clone(),
            ));
            None
        }
    };
    let points = c.int("points", errors).map(|(n, _)| n);
    let by_trick = with_by_trick
        .then(|| c.int("by_trick", errors))
        .flatten()
        .and_then(|(n, at)| count(n, at, "by_trick", errors))
        .filter(|&n| n > 0);
    let max_tricks = c
        .int("max_tricks", errors)
        .and_then(|(n, at)| count(n, at, "max_tricks", errors));
    let min_tricks = match c.item("min_tricks") {
        None => None,
        Some(item) => match &item.value {
            Value::Int(n) => count(*n, &item.loc, "min_tricks", errors).map(TrickCount::Count),
            Value::Str(w, _) if w == "all" => Some(TrickCount::All),
            _ => {
                errors.push(Diagnostic::error(
                    "`min_tricks` takes a number of tricks or \"all\"",
                    item.loc.clone(),
                ));
                None
            }
        },
    };
    if by_trick.is_some() && points.is_none() {
        errors.push(Diagnostic::error(
            "a contract's `by_trick` needs `points`: the points to reach by that trick",
            loc.clone(),
        ));
    }
    ContractGoal {
        points,
        by_trick,
        min_tricks,
        max_tricks,
    }
}
