//! An owned TOML tree whose every key and value keeps its file and byte span, so that errors found
//! after `extends` merging still point into the file that wrote the value.

use crate::diag::{Diagnostic, FileId, Loc};
use toml::de::{DeTable, DeValue};

/// A TOML value with its location.
#[derive(Clone, Debug)]
pub struct Item {
    /// The value.
    pub value: Value,
    /// Where it was written.
    pub loc: Loc,
}

/// A TOML value.
#[derive(Clone, Debug)]
pub enum Value {
    /// A string; `raw_offset` is where its content starts relative to the item's span, when the
    /// content appears in the file unchanged (no escapes), so expression errors can point inside it.
    Str(String, Option<usize>),
    /// An integer.
    Int(i64),
    /// A float.
    Float,
    /// A boolean.
    Bool(bool),
    /// A date or time (never valid in a ruleset, kept for a clear message).
    Datetime,
    /// An array.
    Array(Vec<Item>),
    /// A table, in file order.
    Table(Table),
}

/// A TOML table: entries in file order, each key with its own location.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// `(key, key location, value)` in file order.
    pub entries: Vec<(String, Loc, Item)>,
}

impl Table {
    /// The value of a key.
    pub fn get(&self, key: &str) -> Option<&Item> {
        self.entries
            .iter()
            .find(|(k, _, _)| k == key)
            .map(|(_, _, v)| v)
    }

    /// Sets a key, replacing an existing entry in place or appending.
    pub fn set(&mut self, key: String, key_loc: Loc, item: Item) {
        match self.entries.iter_mut().find(|(k, _, _)| *k == key) {
            Some(entry) => *entry = (key, key_loc, item),
            None => self.entries.push((key, key_loc, item)),
        }
    }

    /// Removes a key and returns its value.
    pub fn remove(&mut self, key: &str) -> Option<Item> {
        let i = self.entries.iter().position(|(k, _, _)| k == key)?;
        Some(self.entries.remove(i).2)
    }
}

impl Value {
    /// The kind of value, for messages.
    pub fn describe(&self) -> &'static str {
        match self {
            Value::Str(..) => "a string",
            Value::Int(_) => "an integer",
            Value::Float => "a float",
            Value::Bool(_) => "a boolean",
            Value::Datetime => "a date",
            Value::Array(_) => "an array",
            Value::Table(_) => "a table",
        }
    }
}

/// Parses a TOML document. Syntax errors are all returned, each located.
pub fn parse(file: FileId, text: &str) -> Result<Table, Vec<Diagnostic>> {
    let (doc, errors) = DeTable::parse_recoverable(text);
    if !errors.is_empty() {
        return Err(errors
            .into_iter()
            .map(|e| {
                let span = e.span().unwrap_or(0..0);
                let message = e.message().trim().to_string();
                let message = message.lines().next().unwrap_or("invalid TOML").to_string();
                if message == "duplicate key"
                    && let Some(first) = first_definition(text, span.clone())
                {
                    let key = text.get(span.clone()).unwrap_or("").trim();
                    return Diagnostic::error(
                        format!("duplicate key `{key}`"),
                        Loc::new(file, span),
                    )
                    .with_label("defined again here")
                    .with_related(Loc::new(file, first), "first defined here");
                }
                Diagnostic::error(format!("TOML syntax: {message}"), Loc::new(file, span))
            })
            .collect());
    }
    let mut cx = Convert {
        file,
        text,
        errors: Vec::new(),
    };
    let table = cx.table(doc.get_ref());
    if cx.errors.is_empty() {
        Ok(table)
    } else {
        Err(cx.errors)
    }
}

/// Where the key repeated at `again` was first written: the same `key =` earlier in the same
/// table, or the same `[header]` line earlier in the file.
fn first_definition(text: &str, again: std::ops::Range<usize>) -> Option<std::ops::Range<usize>> {
    let key = text.get(again.clone())?.trim();
    let line_start = text[..again.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[again.start..]
        .find('\n')
        .map_or(text.len(), |i| again.start + i);
    let this_line = text[line_start..line_end].trim();
    let header = this_line.starts_with('[');
    let mut end = line_start;
    for line in text[..line_start].lines().rev() {
        // Offsets of this line: it ends just before the newline that precedes `end`.
        let start = end.saturating_sub(1).saturating_sub(line.len());
        end = start;
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if header {
            if trimmed.trim_end() == this_line {
                return Some(start + indent..start + indent + trimmed.trim_end().len());
            }
        } else if trimmed.starts_with('[') {
            return None;
        } else if let Some(rest) = trimmed.strip_prefix(key)
            && rest.trim_start().starts_with('=')
        {
            return Some(start + indent..start + indent + key.len());
        }
    }
    None
}

struct Convert<'t> {
    file: FileId,
    text: &'t str,
    errors: Vec<Diagnostic>,
}

impl Convert<'_> {
    fn table(&mut self, t: &DeTable) -> Table {
        let entries = t
            .iter()
            .map(|(k, v)| {
                let key_loc = Loc::new(self.file, k.span());
                (
                    crate::diag::escape_control(k.get_ref()).into_owned(),
                    key_loc,
                    self.item(v),
                )
            })
            .collect();
        Table { entries }
    }

    fn item(&mut self, v: &toml::Spanned<DeValue>) -> Item {
        let loc = Loc::new(self.file, v.span());
        let value = match v.get_ref() {
            // Text from a rule file reaches the play screen, replays, rule sheets and reports:
            // control characters (only written in TOML as escapes such as `\u001b`) and the
            // bidirectional overrides (which may be verbatim) are kept as the visible escape
            // `\u{1b}`, so no name can clear a screen, set a clipboard or reverse a line
            // wherever it is printed. Keys are escaped alike.
            DeValue::String(s) => match crate::diag::escape_control(s) {
                std::borrow::Cow::Borrowed(s) => {
                    Value::Str(s.to_string(), self.raw_offset(&loc, s))
                }
                // Escaped text no longer matches the file, so nothing points inside it.
                std::borrow::Cow::Owned(e) => Value::Str(e, None),
            },
            DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
                Ok(n) => Value::Int(n),
                Err(_) => {
                    self.errors
                        .push(Diagnostic::error("integer is out of range", loc.clone()));
                    Value::Int(0)
                }
            },
            DeValue::Float(_) => Value::Float,
            DeValue::Boolean(b) => Value::Bool(*b),
            DeValue::Datetime(_) => Value::Datetime,
            DeValue::Array(a) => Value::Array(a.iter().map(|x| self.item(x)).collect()),
            DeValue::Table(t) => Value::Table(self.table(t)),
        };
        Item { value, loc }
    }

    /// Where a string's content starts inside its quotes, if the content is written verbatim.
    fn raw_offset(&self, loc: &Loc, content: &str) -> Option<usize> {
        let raw = self.text.get(loc.span.clone())?;
        let (open, rest) = if raw.starts_with("'''") || raw.starts_with("\"\"\"") {
            let mut open = 3;
            if raw[3..].starts_with("\r\n") {
                open += 2;
            } else if raw[3..].starts_with('\n') {
                open += 1;
            }
            (open, &raw[open..])
        } else {
            (1, raw.get(1..)?)
        };
        rest.starts_with(content).then_some(open)
    }
}
