//! What every reader of a ruleset's tables shares: the names an expression may use
//! ([`Vocab`]) and compiling one, the sections a family's `[flow]` reader accepts or refuses,
//! and the small readers of choices, counts and deck attributes. The shared builder
//! (`build`) and each family's `[flow]` reader (`flow`) stand on it.

use crate::deck::Deck;
use crate::diag::{Diagnostic, Loc, did_you_mean};
use crate::expr::{self, Names, Program, Type};
use crate::ruleset::model::*;
use crate::ruleset::reader::{Str, TableReader};
use crate::ruleset::toml_tree::{Table, Value};

/// Compiles an expression string, mapping its errors into the rule file.
pub(super) fn compile_expr(
    s: &Str,
    want: Type,
    names: &Names,
    errors: &mut Vec<Diagnostic>,
) -> Option<Program> {
    match expr::compile_str(s.text, want, names) {
        Ok(p) => Some(p),
        Err(list) => {
            for e in list {
                errors.push(Diagnostic::error(e.message, s.inner(e.span)).with_help(e.help));
            }
            None
        }
    }
}

/// An optional condition (`when`, in the scope of `names`): its source and its program; `Err`
/// when it is written but does not compile (the error is reported).
pub(super) fn condition(
    when: Option<&Str>,
    names: &Names,
    errors: &mut Vec<Diagnostic>,
) -> Result<(Option<String>, Option<Program>), ()> {
    let source = when.map(|w| w.text.to_string());
    match when {
        Some(w) => match compile_expr(w, Type::Bool, names, errors) {
            Some(p) => Ok((source, Some(p))),
            None => Err(()),
        },
        None => Ok((source, None)),
    }
}

/// Reads a string option among fixed choices.
pub(super) fn choice<T: Copy>(
    r: &mut TableReader,
    key: &str,
    options: &[(&str, T)],
    errors: &mut Vec<Diagnostic>,
) -> Option<T> {
    let s = r.string(key, errors)?;
    match options.iter().find(|(n, _)| *n == s.text) {
        Some((_, v)) => Some(*v),
        None => {
            let list: Vec<String> = options.iter().map(|(n, _)| format!("`{n}`")).collect();
            let help = did_you_mean(s.text, options.iter().map(|(n, _)| *n))
                .or_else(|| Some(format!("`{key}` takes {}", list.join(", "))));
            errors.push(
                Diagnostic::error(
                    format!("unknown value `{}` for `{key}`", s.text),
                    s.loc.clone(),
                )
                .with_help(help),
            );
            None
        }
    }
}

/// `table_size`: 0 to 64 cards face up after the deal (Scopone scientifico deals none).
pub(super) fn table_cards(r: &mut TableReader, default: u32, errors: &mut Vec<Diagnostic>) -> u32 {
    match r.int("table_size", errors) {
        Some((n, _)) if (0..=64).contains(&n) => n as u32,
        Some((n, loc)) => {
            errors.push(Diagnostic::error(
                format!("`table_size` must be between 0 and 64, found {n}"),
                loc.clone(),
            ));
            default
        }
        None => default,
    }
}

pub(super) fn positive(
    r: &mut TableReader,
    key: &str,
    default: u32,
    errors: &mut Vec<Diagnostic>,
) -> u32 {
    match r.int(key, errors) {
        Some((n, _)) if (1..=64).contains(&n) => n as u32,
        Some((n, loc)) => {
            errors.push(Diagnostic::error(
                format!("`{key}` must be between 1 and 64, found {n}"),
                loc.clone(),
            ));
            default
        }
        None => default,
    }
}

/// The sections of a ruleset besides `[flow]` that only some families use, for the family to
/// accept or refuse.
pub(super) struct Sections<'a> {
    /// Where the first `[[yaku]]` is, if any.
    pub yaku: Option<Loc>,
    /// Where `[scoring]` is, if any.
    pub scoring: Option<Loc>,
    /// The declarations, each with where its `effect` and its `when` are written.
    pub declarations: &'a [(Declaration, Loc, Option<Loc>)],
    /// The `[[meld]]` tables (trick-taking games only).
    pub melds: &'a [(&'a Table, &'a Loc)],
}

impl Sections<'_> {
    /// Reports `[[meld]]` in a family that has no melds.
    pub fn no_melds(&self, family: &str, errors: &mut Vec<Diagnostic>) {
        if let Some((_, at)) = self.melds.first() {
            errors.push(
                Diagnostic::error(
                    format!("a {family} game does not use `[[meld]]`"),
                    (*at).clone(),
                )
                .with_help(Some(
                    "melds are shown in trick-taking games; remove this section".into(),
                )),
            );
        }
    }
}

pub(super) fn int_list(
    r: &mut TableReader,
    key: &str,
    range: std::ops::RangeInclusive<i64>,
    errors: &mut Vec<Diagnostic>,
) -> Result<Option<Vec<u32>>, ()> {
    let Some(item) = r.item(key) else {
        return Ok(None);
    };
    match &item.value {
        Value::Array(items) => Ok(Some(
            items
                .iter()
                .filter_map(|i| match i.value {
                    Value::Int(n) if range.contains(&n) => Some(n as u32),
                    _ => {
                        errors.push(Diagnostic::error(
                            format!(
                                "`{key}` entries must be whole numbers from {} to {}",
                                range.start(),
                                range.end()
                            ),
                            i.loc.clone(),
                        ));
                        None
                    }
                })
                .collect(),
        )),
        other => {
            errors.push(Diagnostic::error(
                format!(
                    "`{key}` must be an array of numbers, found {}",
                    other.describe()
                ),
                item.loc.clone(),
            ));
            Err(())
        }
    }
}

/// What expressions may name besides the pile and the facts of their place: the deck, the
/// ruleset's options (constants) and its definitions (`[define]`).
pub(super) struct Vocab<'a> {
    pub deck: &'a Deck,
    pub options: Vec<(String, Program)>,
    pub defines: Vec<(String, expr::Expr)>,
    /// The ids of the values carried for the table (`[[carry]]` without `per_seat`): facts
    /// of the deal's expressions.
    pub carried: Vec<String>,
}

impl Vocab<'_> {
    /// The names of a place with `facts`.
    pub fn names<'b>(&'b self, facts: &'b [&'b str]) -> Names<'b> {
        Names {
            deck: self.deck,
            facts,
            defs: &self.options,
            macros: &self.defines,
            carried: &self.carried,
        }
    }

    /// True when `name` is an option or a definition.
    pub fn knows(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name) || self.defines.iter().any(|(n, _)| n == name)
    }
}

/// A number read from a rule file for points or a par, kept within the bound of card values.
pub(super) fn bounded(n: i64, at: &Loc, key: &str, errors: &mut Vec<Diagnostic>) -> Option<i64> {
    let most = crate::ruleset::deck_file::MAX_CARD_VALUE;
    if (-most..=most).contains(&n) {
        return Some(n);
    }
    errors.push(Diagnostic::error(
        format!("`{key}` must be between -{most} and {most}, found {n}"),
        at.clone(),
    ));
    None
}

/// True when the deck has the `needed` cards `what` takes; otherwise reports it at `loc`.
pub(super) fn deck_holds(
    deck: &Deck,
    needed: u32,
    what: &str,
    loc: &Loc,
    errors: &mut Vec<Diagnostic>,
) -> bool {
    if needed as usize <= deck.cards.len() {
        return true;
    }
    errors.push(Diagnostic::error(
        format!(
            "{what} needs {needed} cards but the deck has {}",
            deck.cards.len()
        ),
        loc.clone(),
    ));
    false
}

/// An attribute of the deck named by `key` (default `default`), by index.
pub(super) fn attribute(
    r: &mut TableReader,
    key: &str,
    default: &str,
    deck: &Deck,
    loc: &Loc,
    errors: &mut Vec<Diagnostic>,
) -> Option<usize> {
    let named = r.string(key, errors);
    let (name, at) = match &named {
        Some(s) => (s.text, s.loc.clone()),
        None => (default, loc.clone()),
    };
    let found = deck.attributes.iter().position(|a| a.id == name);
    if found.is_none() {
        errors.push(
            Diagnostic::error(
                format!(
                    "the deck `{}` has no attribute `{name}` for `{key}`",
                    deck.id
                ),
                at,
            )
            .with_help(
                did_you_mean(name, deck.attributes.iter().map(|a| a.id.as_str())).or_else(|| {
                    let list: Vec<String> = deck
                        .attributes
                        .iter()
                        .map(|a| format!("`{}`", a.id))
                        .collect();
                    Some(format!("its attributes: {}", list.join(", ")))
                }),
            ),
        );
    }
    found
}
