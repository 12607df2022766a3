//! `[[flow.announcement]]` of a trick-taking game: announcements that raise the stake (a
//! double, a redouble) or set a target the announcing side must reach (schneider, schwarz),
//! each made with a `[[declaration]]` of `effect = "announce"` and the same id. Read apart from
//! the rest of `[flow]` because they are checked against the declarations and the auction.

use super::*;
use crate::ruleset::model::*;
use crate::ruleset::reader::TableReader;
use crate::ruleset::toml_tree::Table;
use crate::ruleset::vocab::*;

/// The most a single announcement multiplies the stake by.
const MAX_FACTOR: i64 = 100;

/// Reads the announcements of `tables`; `auction`: the flow has one (the declarer's side and
/// the defenders need it). Every `announce` declaration must have its announcement, and each
/// announcement its declaration.
pub(super) fn announcements(
    tables: Vec<(&Table, &Loc)>,
    auction: bool,
    sections: &Sections,
    loc: &Loc,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Announcement> {
    let mut out: Vec<Announcement> = Vec::new();
    // Each announcement's `after`, as written, resolved once all are read.
    let mut afters: Vec<Option<crate::ruleset::reader::Str>> = Vec::new();
    for (t, at) in tables {
        let mut r = TableReader::new(t, at.clone(), "a `[[flow.announcement]]`")
            .defined_by(&keys::ANNOUNCEMENT);
        let id = r.required_string("id", errors);
        let by_at = r.item("by").map(|i| i.loc.clone());
        let by = choice(
            &mut r,
            "by",
            &[
                ("declarer", AnnounceBy::Declarer),
                ("defenders", AnnounceBy::Defenders),
                ("any", AnnounceBy::Any),
            ],
            errors,
        )
        .unwrap_or(AnnounceBy::Any);
        // A wrong number is reported, and the default stands in for it (so that the
        // announcement is still known to the others' `after`).
        let until_card = match r.int("until_card", errors) {
            None => 1,
            Some((n, _)) if (1..=64).contains(&n) => n as u32,
            Some((n, at)) => {
                errors.push(
                    Diagnostic::error(
                        format!("`until_card` must be from 1 to 64 cards, found {n}"),
                        at.clone(),
                    )
                    .with_help(Some(
                        "1: before the announcer's first card; 2: before its second".into(),
                    )),
                );
                1
            }
        };
        let after = r.string("after", errors);
        let factor = match r.int("factor", errors) {
            None => 1,
            Some((n, _)) if (1..=MAX_FACTOR).contains(&n) => n,
            Some((n, at)) => {
                errors.push(
                    Diagnostic::error(
                        format!("`factor` must be from 1 to {MAX_FACTOR}, found {n}"),
                        at.clone(),
                    )
                    .with_help(Some(
                        "2 doubles the stake; 1 (the default) leaves it as it is and only sets a target".into(),
                    )),
                );
                1
            }
        };
        // The keys of a contract's goal but `by_trick`.
        let target = super::goal::goal(&mut r, false, at, errors);
        r.finish(errors);
        let Some(id) = id else {
            continue;
        };
        if let Some(at) = by_at.filter(|_| !auction && by != AnnounceBy::Any) {
            errors.push(
                Diagnostic::error(
                    format!(
                        "announcement `{}` is made by a side of the declarer, and there is no `[flow.auction]`",
                        id.text
                    ),
                    at,
                )
                .with_help(Some(
                    "`by = \"declarer\"` and `\"defenders\"` need a declarer, the auction's winner: write `by = \"any\"`, or add a `[flow.auction]`".into(),
                )),
            );
        }
        if out.iter().any(|a| a.id == id.text) {
            errors.push(Diagnostic::error(
                format!("announcement `{}` is given twice", id.text),
                id.loc.clone(),
            ));
            continue;
        }
        let decl = declared(sections, &["announce"])
            .into_iter()
            .find(|d| sections.declarations[d.0 as usize].0.id == id.text);
        let Some(decl) = decl else {
            errors.push(
                Diagnostic::error(
                    format!(
                        "announcement `{}` has no `[[declaration]]` of its id with `effect = \"announce\"`",
                        id.text
                    ),
                    id.loc.clone(),
                )
                .with_help(Some(format!(
                    "add `[[declaration]]` with `id = \"{}\"` and `effect = \"announce\"`: the move that makes it, with its name and prompt",
                    id.text
                ))),
            );
            continue;
        };
        afters.push(after);
        out.push(Announcement {
            id: id.text.to_string(),
            name: sections.declarations[decl.0 as usize].0.name.clone(),
            decl,
            by,
            until_card,
            after: None,
            factor,
            target,
        });
    }
    for i in 0..out.len() {
        let Some(after) = &afters[i] else { continue };
        match out.iter().position(|a| a.id == after.text) {
            Some(j) if j != i => out[i].after = Some(j),
            Some(_) => errors.push(Diagnostic::error(
                format!("announcement `{}` comes after itself", out[i].id),
                after.loc.clone(),
            )),
            None => errors.push(
                Diagnostic::error(
                    format!("`after = \"{}\"` names no announcement", after.text),
                    after.loc.clone(),
                )
                .with_help(crate::diag::did_you_mean(
                    after.text,
                    out.iter().map(|a| a.id.as_str()),
                )),
            ),
        }
    }
    // A chain of `after`s that comes back to where it began can never be made.
    for i in 0..out.len() {
        let mut at = out[i].after;
        for _ in 0..out.len() {
            match at {
                Some(j) if j == i => {
                    let written = afters[i].as_ref().map_or(loc, |s| s.loc);
                    errors.push(Diagnostic::error(
                        format!(
                            "announcement `{}` waits for itself through `after`: it can never be made",
                            out[i].id
                        ),
                        written.clone(),
                    ));
                    break;
                }
                Some(j) => at = out[j].after,
                None => break,
            }
        }
    }
    for d in declared(sections, &["announce"]) {
        let (decl, at, _) = &sections.declarations[d.0 as usize];
        if !out.iter().any(|a| a.decl == d) {
            errors.push(
                Diagnostic::error(
                    format!(
                        "declaration `{}` has `effect = \"announce\"`, and no `[[flow.announcement]]` has its id",
                        decl.id
                    ),
                    at.clone(),
                )
                .with_help(Some(format!(
                    "add `[[flow.announcement]]` with `id = \"{}\"` (who makes it, when, and its `factor`), or remove the declaration",
                    decl.id
                ))),
            );
        }
    }
    out
}
