//! Typed reading of a located TOML table against a schema, collecting every error: wrong types,
//! missing required keys, and unknown keys with a did-you-mean suggestion.

use super::toml_tree::{Item, Table, Value};
use crate::diag::{Diagnostic, Loc, did_you_mean};

/// The key that removes inherited keys from a table: `unset = ["group"]`.
pub(super) const UNSET: &str = "unset";

/// Reads one table; call [`TableReader::finish`] to report the keys nobody asked for.
pub struct TableReader<'a> {
    table: &'a Table,
    /// Where the table is (for "missing key" errors).
    loc: Loc,
    /// What the table is called in messages (`[flow]`, `yaku `goko``).
    what: String,
    known: Vec<String>,
    /// The definition the table's keys must come from ([`super::keys`]).
    def: Option<&'static super::keys::TableDef>,
}

impl<'a> TableReader<'a> {
    /// Starts reading `table`, found at `loc`, described as `what`.
    pub fn new(table: &'a Table, loc: Loc, what: impl Into<String>) -> TableReader<'a> {
        TableReader {
            table,
            loc,
            what: what.into(),
            known: Vec::new(),
            def: None,
        }
    }

    /// Holds the reader to a table definition of [`super::keys`]: reading a key it does not
    /// define is a bug (the schema would reject what the loader accepts), caught in debug builds.
    pub fn defined_by(mut self, def: &'static super::keys::TableDef) -> TableReader<'a> {
        self.def = Some(def);
        self
    }

    /// Reads an item of any type.
    pub fn item(&mut self, key: &str) -> Option<&'a Item> {
        debug_assert!(
            self.def
                .is_none_or(|d| d.extra != super::keys::Extra::None || d.key(key).is_some()),
            "`{key}` is read from {} but not defined in ruleset/keys/",
            self.what
        );
        self.known.push(key.to_string());
        self.table.get(key)
    }

    /// Checks, in debug builds, that the definition gives `key` a type `fits` accepts.
    fn typed(&self, key: &str, fits: fn(super::keys::KeyType) -> bool) {
        debug_assert!(
            self.def.and_then(|d| d.key(key)).is_none_or(|k| fits(k.ty)),
            "`{key}` of {} is read with another type than ruleset/keys/ gives it",
            self.what
        );
    }

    /// Reports a missing key.
    pub fn missing(&self, key: &str, errors: &mut Vec<Diagnostic>) {
        errors.push(
            Diagnostic::error(
                format!("{} is missing the key `{key}`", self.what),
                self.loc.clone(),
            )
            .with_label(format!("`{key}` is required here")),
        );
    }

    /// Reads an optional string.
    pub fn string(&mut self, key: &str, errors: &mut Vec<Diagnostic>) -> Option<Str<'a>> {
        use super::keys::KeyType;
        self.typed(key, |t| matches!(t, KeyType::String | KeyType::Expr));
        let item = self.item(key)?;
        as_str(item, key, errors)
    }

    /// Reads a required string.
    pub fn required_string(&mut self, key: &str, errors: &mut Vec<Diagnostic>) -> Option<Str<'a>> {
        if self.table.get(key).is_none() {
            self.missing(key, errors);
        }
        self.string(key, errors)
    }

    /// Reads an optional integer.
    pub fn int(&mut self, key: &str, errors: &mut Vec<Diagnostic>) -> Option<(i64, &'a Loc)> {
        self.typed(key, |t| matches!(t, super::keys::KeyType::Int));
        let item = self.item(key)?;
        match item.value {
            Value::Int(n) => Some((n, &item.loc)),
            _ => {
                errors.push(wrong_type(item, key, "an integer"));
                None
            }
        }
    }

    /// Reads an optional boolean.
    #[allow(
        dead_code,
        reason = "no option of the bundled families is a boolean since declarations replaced them; kept for the next"
    )]
    pub fn boolean(&mut self, key: &str, errors: &mut Vec<Diagnostic>) -> Option<(bool, &'a Loc)> {
        self.typed(key, |t| matches!(t, super::keys::KeyType::Bool));
        let item = self.item(key)?;
        match item.value {
            Value::Bool(b) => Some((b, &item.loc)),
            _ => {
                errors.push(wrong_type(item, key, "true or false"));
                None
            }
        }
    }

    /// Reads an optional array of strings (a single string is accepted as a one-element array).
    pub fn strings(&mut self, key: &str, errors: &mut Vec<Diagnostic>) -> Vec<Str<'a>> {
        self.typed(key, |t| matches!(t, super::keys::KeyType::Strings));
        let Some(item) = self.item(key) else {
            return Vec::new();
        };
        match &item.value {
            Value::Str(..) => as_str(item, key, errors).into_iter().collect(),
            Value::Array(items) => items
                .iter()
                .filter_map(|i| as_str(i, key, errors))
                .collect(),
            _ => {
                errors.push(wrong_type(item, key, "an array of strings"));
                Vec::new()
            }
        }
    }

    /// Reads an optional sub-table.
    pub fn table(
        &mut self,
        key: &str,
        errors: &mut Vec<Diagnostic>,
    ) -> Option<(&'a Table, &'a Loc)> {
        let item = self.item(key)?;
        match &item.value {
            Value::Table(t) => Some((t, &item.loc)),
            _ => {
                errors.push(wrong_type(item, key, "a table"));
                None
            }
        }
    }

    /// Reads an optional array of tables (`[[key]]`).
    pub fn tables(&mut self, key: &str, errors: &mut Vec<Diagnostic>) -> Vec<(&'a Table, &'a Loc)> {
        let Some(item) = self.item(key) else {
            return Vec::new();
        };
        match &item.value {
            Value::Array(items) => items
                .iter()
                .filter_map(|i| match &i.value {
                    Value::Table(t) => Some((t, &i.loc)),
                    _ => {
                        errors.push(wrong_type(i, key, "a table"));
                        None
                    }
                })
                .collect(),
            _ => {
                errors.push(wrong_type(
                    item,
                    key,
                    &format!("an array of tables (`[[{key}]]`)"),
                ));
                Vec::new()
            }
        }
    }

    /// Reports every key that was not read, with a suggestion among the known keys.
    pub fn finish(self, errors: &mut Vec<Diagnostic>) {
        for (key, key_loc, _) in &self.table.entries {
            // `unset` is consumed by merging onto a base; one left is reported by the loader.
            if key == UNSET {
                continue;
            }
            if !self.known.iter().any(|k| k == key) {
                let misplaced = TOP_LEVEL_ONLY.contains(&key.as_str()).then(|| {
                    format!(
                        "`{key}` belongs at the top of the file: a key written after a `[table]` \
                         header is part of that table, so move it above the first header"
                    )
                });
                let help = misplaced
                    .or_else(|| did_you_mean(key, self.known.iter().map(String::as_str)))
                    .or_else(|| {
                        Some(format!(
                            "{} takes: {}",
                            self.what,
                            self.known
                                .iter()
                                .map(|k| format!("`{k}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                    });
                errors.push(
                    Diagnostic::error(
                        format!("unknown key `{key}` in {}", self.what),
                        key_loc.clone(),
                    )
                    .with_help(help),
                );
            }
        }
    }
}

/// Keys a rule file takes only at its top level, outside every table; written after a table
/// header they land in that table, which deserves its own explanation.
const TOP_LEVEL_ONLY: &[&str] = &["remove_yaku", "new_kinds"];

/// A string value with its location and, when it is written verbatim, where its content starts.
#[derive(Clone, Copy, Debug)]
pub struct Str<'a> {
    /// The content.
    pub text: &'a str,
    /// The location of the whole string literal, quotes included.
    pub loc: &'a Loc,
    /// Offset of the content inside the literal, when the content is written verbatim.
    pub raw_offset: Option<usize>,
}

impl Str<'_> {
    /// The location of a byte range of the content; the whole literal when it has escapes.
    pub fn inner(&self, range: std::ops::Range<usize>) -> Loc {
        match self.raw_offset {
            Some(off) => {
                let len = (range.end.max(range.start + 1)).saturating_sub(range.start);
                self.loc.sub(off + range.start, len)
            }
            None => self.loc.clone(),
        }
    }
}

fn as_str<'a>(item: &'a Item, key: &str, errors: &mut Vec<Diagnostic>) -> Option<Str<'a>> {
    match &item.value {
        Value::Str(s, raw) => Some(Str {
            text: s,
            loc: &item.loc,
            raw_offset: *raw,
        }),
        _ => {
            errors.push(wrong_type(item, key, "a string"));
            None
        }
    }
}

/// `key` holds the wrong type of value.
pub fn wrong_type(item: &Item, key: &str, want: &str) -> Diagnostic {
    Diagnostic::error(
        format!("`{key}` must be {want}, found {}", item.value.describe()),
        item.loc.clone(),
    )
}
