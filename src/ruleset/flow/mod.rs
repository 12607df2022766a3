//! Each family's reading of `[flow]`: one file a family (`matching.rs`, `banker.rs`,
//! `tricks.rs`) and one line of [`READERS`], the registry that `style` picks from. What more
//! than one family reads (teams, the game's length, the checks of a deal, which declarations a
//! family takes) is here; what every reader of a ruleset shares (the expression vocabulary,
//! choices and counts) is in `vocab`, below both this and the shared builder (`build`), which
//! calls [`flow_options`] once it has read the deck, options, definitions, declarations and
//! yaku.
//!
//! The readers live in `ruleset` rather than beside the families' games: `ruleset` is a layer
//! below `families` (src/layers.rs), and the model each reader builds ([`Flow`]) is what the
//! loader hands to everything above. A new family adds its flow's model beside the others
//! (`model/NAME.rs`, a variant of [`Flow`]), its keys to `keys.rs`, its reader here and one
//! line to [`READERS`]; see the architecture page.

mod announcements;
mod banker;
mod climbing;
mod deal_bonus;
mod goal;
mod leftovers;
mod matching;
mod partners;
mod trick_order;
mod tricks;

pub(super) use tricks::tricks_sample_facts;

use crate::diag::{Diagnostic, Loc, did_you_mean};
use crate::expr::{Names, Type};
use crate::ruleset::keys;
use crate::ruleset::model::*;
use crate::ruleset::reader::TableReader;
use crate::ruleset::toml_tree::{Item, Table, Value};
use crate::ruleset::vocab::*;

/// A family's reader of `[flow]`: it takes the table's reader (with `style` read), the table
/// and where it is, the ruleset's vocabulary and the sections a family accepts or refuses.
type ReadFlow =
    fn(TableReader, &Table, &Loc, &Vocab, &Sections, &mut Vec<Diagnostic>) -> Option<Flow>;

/// Every family's reader of `[flow]`, by the `style` that picks it; the first reads a `[flow]`
/// without one. A new family is a file beside this one and a line here.
const READERS: &[(&str, ReadFlow)] = &[
    ("matching", matching::flow),
    ("banker", banker::flow),
    ("tricks", tricks::flow),
    ("climbing", climbing::flow),
];

/// Reads `[flow]` with the reader of its `style`.
pub(super) fn flow_options(
    t: &Table,
    loc: &Loc,
    vocab: &Vocab,
    sections: &Sections,
    errors: &mut Vec<Diagnostic>,
) -> Option<Flow> {
    let mut r = TableReader::new(t, loc.clone(), "`[flow]`").defined_by(&keys::FLOW);
    // The family of game: it decides which options the table takes.
    let read = choice(&mut r, "style", READERS, errors).unwrap_or(READERS[0].1);
    read(r, t, loc, vocab, sections, errors)
}

/// The declarations of `sections` whose effect is one of `effects`, by index; an effect the
/// family does not have is an error.
pub(super) fn family_declarations(
    sections: &Sections,
    family: &str,
    effects: &[&str],
    errors: &mut Vec<Diagnostic>,
) {
    for (d, loc, _) in sections.declarations {
        if !effects.contains(&d.effect.as_str()) {
            let help = if effects.is_empty() {
                Some(format!("a {family} game has no declarations; remove it"))
            } else {
                did_you_mean(&d.effect, effects.iter().copied()).or_else(|| {
                    let list: Vec<String> = effects.iter().map(|e| format!("`{e}`")).collect();
                    Some(format!("a {family} game's effects are {}", list.join(", ")))
                })
            };
            errors.push(
                Diagnostic::error(
                    format!("unknown effect `{}` for a {family} game", d.effect),
                    loc.clone(),
                )
                .with_help(help),
            );
        }
    }
}

/// The indices of the declarations with one of `effects`, in ruleset order.
pub(super) fn declared(sections: &Sections, effects: &[&str]) -> Vec<DeclId> {
    sections
        .declarations
        .iter()
        .enumerate()
        .filter(|(_, (d, ..))| effects.contains(&d.effect.as_str()))
        .map(|(i, _)| DeclId(i as u8))
        .collect()
}

/// `teams = [[0, 2], [1, 3]]`: partnerships, every seat of a table of exactly `players` in
/// one of them; the table must then seat that many (`min_players = max_players = players`).
pub(super) fn teams(
    r: &mut TableReader,
    seats: (u32, u32, u32),
    loc: &Loc,
    errors: &mut Vec<Diagnostic>,
) -> Teams {
    let Some(item) = r.item("teams") else {
        return Teams::default();
    };
    let (players, min_players, max_players) = seats;
    let Value::Array(groups) = &item.value else {
        errors.push(Diagnostic::error(
            format!(
                "`teams` must be an array of teams, each an array of seats (`[[0, 2], [1, 3]]`), found {}",
                item.value.describe()
            ),
            item.loc.clone(),
        ));
        return Teams::default();
    };
    let mut found: Vec<Vec<usize>> = Vec::new();
    let mut seen = vec![false; players as usize];
    let mut bad = false;
    for g in groups {
        let Value::Array(members) = &g.value else {
            errors.push(Diagnostic::error(
                format!("a team is an array of seats, found {}", g.value.describe()),
                g.loc.clone(),
            ));
            bad = true;
            continue;
        };
        if members.is_empty() {
            errors.push(Diagnostic::error(
                "a team needs at least one seat",
                g.loc.clone(),
            ));
            bad = true;
        }
        let mut team = Vec::new();
        for m in members {
            match m.value {
                Value::Int(n) if (0..i64::from(players)).contains(&n) => {
                    let s = n as usize;
                    if seen[s] {
                        errors.push(Diagnostic::error(
                            format!("seat {s} is in two teams"),
                            m.loc.clone(),
                        ));
                        bad = true;
                    }
                    seen[s] = true;
                    team.push(s);
                }
                _ => {
                    errors.push(
                        Diagnostic::error(
                            format!(
                                "a team's seats are numbers from 0 to {} (the table seats {players})",
                                players.saturating_sub(1)
                            ),
                            m.loc.clone(),
                        )
                        .with_help(Some("seats are numbered from 0 in turn order".into())),
                    );
                    bad = true;
                }
            }
        }
        found.push(team);
    }
    if let Some(s) = seen.iter().position(|&x| !x)
        && !bad
    {
        errors.push(Diagnostic::error(
            format!("seat {s} is in no team: every seat of the table plays in one"),
            item.loc.clone(),
        ));
        bad = true;
    }
    if min_players != players || max_players != players {
        errors.push(
            Diagnostic::error(
                format!(
                    "partnerships need a fixed table: `players` ({players}), `min_players` ({min_players}) and `max_players` ({max_players}) must be equal"
                ),
                loc.clone(),
            )
            .with_help(Some(format!(
                "set `min_players = {players}` and `max_players = {players}`"
            ))),
        );
        bad = true;
    }
    if bad {
        Teams::default()
    } else {
        Teams::of(&found)
    }
}

/// `rounds`, or `target_score` with `max_rounds`: how long a game lasts.
pub(super) fn game_length(
    r: &mut TableReader,
    t: &Table,
    errors: &mut Vec<Diagnostic>,
) -> Option<GameLength> {
    let rounds = r.int("rounds", errors);
    let target = r.int("target_score", errors);
    let max_rounds = r.int("max_rounds", errors);
    // `rounds = 0` means no fixed number of hands, so a file extending a 12-hand ruleset can
    // play to `target_score` instead.
    let rounds = rounds.filter(|(n, _)| *n != 0);
    match (rounds, target) {
        (Some((n, l)), None) => {
            if !(1..=1000).contains(&n) {
                errors.push(Diagnostic::error(
                    format!("`rounds` must be between 1 and 1000, found {n}"),
                    l.clone(),
                ));
            }
            Some(GameLength::Rounds(n.clamp(1, 1000) as u32))
        }
        (None, Some((n, l))) => {
            if n < 1 {
                errors.push(Diagnostic::error(
                    format!("`target_score` must be positive, found {n}"),
                    l.clone(),
                ));
            }
            Some(GameLength::Target {
                score: n,
                max_rounds: max_rounds.map_or(100, |(m, _)| m.clamp(1, 10_000) as u32),
            })
        }
        (Some(_), Some((_, l))) => {
            errors.push(
                Diagnostic::error("give `rounds` or `target_score`, not both", l.clone())
                    .with_help(Some(
                        "a game lasts a number of hands or until a score; to play to a score in \
                         a file that extends a ruleset with `rounds`, write `rounds = 0` (on the \
                         command line, `--set flow.rounds=unset`)"
                            .into(),
                    )),
            );
            None
        }
        (None, None) => {
            match (t.get("rounds"), t.get("target_score")) {
                (None, None) => r.missing("rounds", errors),
                (
                    Some(Item {
                        value: Value::Int(0),
                        loc,
                    }),
                    None,
                ) => errors.push(
                    Diagnostic::error("`rounds = 0` needs a `target_score`", loc.clone())
                        .with_help(Some("or give the number of hands, 1 to 1000".into())),
                ),
                // A value of the wrong type, reported by `int` already.
                _ => {}
            }
            None
        }
    }
}

pub(super) fn deal_checks(
    tables: Vec<(&Table, &Loc)>,
    what: &str,
    with_points: bool,
    redeal: bool,
    names: &Names,
    errors: &mut Vec<Diagnostic>,
) -> (Vec<DealCheck>, Vec<Loc>) {
    let (checks, locs) = deal_checks_with(
        tables,
        (what, &keys::DEAL_CHECK),
        with_points,
        redeal,
        names,
        errors,
        |_, _, _| Some(()),
    );
    (checks.into_iter().map(|(c, ())| c).collect(), locs)
}

/// The deal checks of `tables`, each with what `more` reads of its own keys (a deal bonus's
/// effect), defined by `def`: a check is kept when both its common keys and `more` read.
/// `with_points` reads an instant win's `points` and `ends`, `redeal` a redeal's `on`; with
/// neither (a deal bonus), the check reads the dealt table and takes none of them.
pub(super) fn deal_checks_with<X>(
    tables: Vec<(&Table, &Loc)>,
    (what, def): (&str, &'static keys::TableDef),
    with_points: bool,
    redeal: bool,
    names: &Names,
    errors: &mut Vec<Diagnostic>,
    mut more: impl FnMut(&mut TableReader, &Loc, &mut Vec<Diagnostic>) -> Option<X>,
) -> (Vec<(DealCheck, X)>, Vec<Loc>) {
    let mut out = Vec::new();
    let mut locs = Vec::new();
    for (t, loc) in tables {
        let mut r = TableReader::new(t, loc.clone(), what).defined_by(def);
        let id = r.required_string("id", errors);
        let name = r.string("name", errors);
        let description = r.string("description", errors);
        let when = r.required_string("when", errors);
        let points = if with_points {
            if t.get("points").is_none() {
                r.missing("points", errors);
            }
            r.int("points", errors).map(|(p, _)| p)
        } else {
            Some(0)
        };
        let on = if redeal {
            let places = [
                ("table", DealOn::Table),
                ("hands", DealOn::Hands),
                ("any", DealOn::Any),
            ];
            choice(&mut r, "on", &places, errors).unwrap_or(DealOn::Table)
        } else if !with_points {
            // A deal bonus reads the dealt table, and has no `on` or `ends` to read.
            DealOn::Table
        } else {
            if let Some(on) = r.string("on", errors) {
                errors.push(
                    Diagnostic::error(format!("{what} takes no `on`"), on.loc.clone()).with_help(
                        Some(
                            "`on` says where a `[[flow.redeal]]` looks (`table`, `hands`, `any`); \
                             this check always reads each dealt hand"
                                .into(),
                        ),
                    ),
                );
            }
            DealOn::Table
        };
        let ends = if with_points {
            r.boolean("ends", errors).is_none_or(|(b, _)| b)
        } else if !redeal {
            true
        } else {
            if let Some((_, l)) = r.boolean("ends", errors) {
                errors.push(Diagnostic::error(
                    format!("{what} takes no `ends`: only an instant win may be played on"),
                    l.clone(),
                ));
            }
            true
        };
        let extra = more(&mut r, loc, errors);
        r.finish(errors);
        let when_source = when.as_ref().map(|w| w.text.to_string());
        let when = when.and_then(|w| compile_expr(&w, Type::Bool, names, errors));
        if let (Some(id), Some(when), Some(points), Some(when_source), Some(extra)) =
            (id, when, points, when_source, extra)
        {
            locs.push(id.loc.clone());
            let check = DealCheck {
                id: id.text.to_string(),
                name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
                description: description.map(|d| d.text.to_string()),
                when,
                when_source,
                points,
                on,
                ends,
            };
            out.push((check, extra));
        }
    }
    (out, locs)
}
