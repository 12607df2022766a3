//! Finding and reading rule files: bundled names or paths, `extends` chains merged onto their
//! bases, decks and scripts resolved relative to the file that names them.

use super::build;
use super::bundled;
use super::model::Ruleset;
use super::toml_tree::{self, Item, Table, Value};
use crate::deck::Deck;
use crate::diag::{Diagnostic, FileId, Loc, SourceMap, did_you_mean};
use std::path::{Path, PathBuf};

/// Largest rule file read, in bytes.
pub const MAX_FILE_SIZE: u64 = crate::fsio::MAX_RULE_FILE_SIZE;

/// How much of a file is read to tell a deck, strategy or ruleset apart by its table header.
const SNIFF_PREFIX: u64 = 64 * 1024;
/// Longest `extends` chain.
pub const MAX_EXTENDS: usize = 16;

/// The result of loading: the ruleset when valid, every finding, and the texts they quote.
#[derive(Debug)]
pub struct Loaded<T = Ruleset> {
    /// The ruleset (or deck), when there are no errors.
    pub value: Option<T>,
    /// Every error and warning found.
    pub diagnostics: Vec<Diagnostic>,
    /// Every text read, for rendering the diagnostics.
    pub sources: SourceMap,
}

/// Where a file came from, so that references inside it resolve next to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Origin {
    /// A bundled file, by its path under `rulesets/`.
    Bundled(String),
    /// A file on disk.
    Disk(PathBuf),
    /// Text given directly (tests, the command line).
    Inline,
}

/// What a reference names, which decides where to look for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RefKind {
    Ruleset,
    Deck,
    Script,
}

impl RefKind {
    /// The extension of a file of this kind.
    fn extension(self) -> &'static str {
        match self {
            RefKind::Ruleset | RefKind::Deck => "toml",
            RefKind::Script => "rhai",
        }
    }

    /// What a file of this kind must be, for messages about one that is not.
    fn must_be(self) -> &'static str {
        match self {
            RefKind::Ruleset => "a ruleset must be a `.toml` rule file",
            RefKind::Deck => "a deck must be a `.toml` deck file",
            RefKind::Script => "a scoring script must be a `.rhai` text file",
        }
    }
}

/// The state of one load: texts read and their origins.
pub(super) struct Loader {
    pub sources: SourceMap,
    origins: Vec<Origin>,
}

/// Loads a ruleset by bundled name (`koikoi`) or path.
pub fn load(spec: &str) -> Loaded {
    let mut loader = Loader::new();
    let mut errors = Vec::new();
    let value = loader.open_top(spec, &mut errors).and_then(|file| {
        let tree = loader.ruleset_tree(file, &mut Vec::new(), &mut errors)?;
        build::ruleset(&mut loader, &tree, &mut errors)
    });
    finish(loader, value, errors)
}

/// Loads the ruleset a game record names in `ruleset.spec`: a bundled name, or a path read only
/// when it is a `.toml` rule file (see [`Loader::read_disk`]), since a tampered record may name
/// any file. A spec that cannot be opened is reported against `<command line>`, the spec itself.
pub fn load_recorded(spec: &str) -> Loaded {
    let mut loader = Loader::new();
    let mut errors = Vec::new();
    let value = loader
        .open_spec(spec, Some(RefKind::Ruleset), &mut errors)
        .and_then(|file| {
            let tree = loader.ruleset_tree(file, &mut Vec::new(), &mut errors)?;
            build::ruleset(&mut loader, &tree, &mut errors)
        });
    finish(loader, value, errors)
}

/// Loads a ruleset from text, as if it were a file called `name` in the current directory.
pub fn load_str(name: &str, text: &str) -> Loaded {
    let mut loader = Loader::new();
    let mut errors = Vec::new();
    let file = loader.add(name, text.to_string(), Origin::Inline);
    let value = loader
        .ruleset_tree(file, &mut Vec::new(), &mut errors)
        .and_then(|tree| build::ruleset(&mut loader, &tree, &mut errors));
    finish(loader, value, errors)
}

/// Loads a deck file by bundled name (`hanafuda`) or path.
pub fn load_deck(spec: &str) -> Loaded<Deck> {
    let mut loader = Loader::new();
    let mut errors = Vec::new();
    let value = loader
        .open_top(spec, &mut errors)
        .and_then(|file| loader.deck_in(file, &mut errors));
    finish(loader, value, errors)
}

/// True when the file at `spec` (name or path) is a deck file rather than a ruleset.
pub fn is_deck_file(spec: &str) -> bool {
    has_header(spec, "decks", "[deck]")
}

/// True when the file at `spec` (name or path) is a banker-game strategy table.
pub fn is_strategy_file(spec: &str) -> bool {
    has_header(spec, "strategies", "[strategy]")
}

/// True when the file at `spec`, or the bundled `FOLDER/spec.toml` when no ruleset has that name,
/// has the table header `header`.
fn has_header(spec: &str, folder: &str, header: &str) -> bool {
    let text = if Path::new(spec).is_file() {
        // The header is near the top: read only a prefix, not a file of any size.
        crate::fsio::read_prefix(Path::new(spec), SNIFF_PREFIX)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    } else {
        bundled::file(&format!("{folder}/{spec}.toml"))
            .filter(|_| bundled::file(&format!("{spec}.toml")).is_none())
            .map(str::to_string)
            .unwrap_or_default()
    };
    // The header, allowing what TOML allows around it: spaces and a comment.
    text.lines().any(|l| {
        let line_header: String = l
            .split('#')
            .next()
            .unwrap_or("")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        line_header == header
    })
}

fn finish<T>(loader: Loader, value: Option<T>, mut errors: Vec<Diagnostic>) -> Loaded<T> {
    // Order findings by file and position, so output reads top to bottom.
    errors.sort_by_key(|d| (d.loc.file.0, d.loc.span.start));
    errors.dedup_by(|a, b| a.loc == b.loc && a.message == b.message);
    let value = if crate::diag::has_errors(&errors) {
        None
    } else {
        value
    };
    Loaded {
        value,
        diagnostics: errors,
        sources: loader.sources,
    }
}

impl Loader {
    fn new() -> Loader {
        Loader {
            sources: SourceMap::new(),
            origins: Vec::new(),
        }
    }

    /// The file the caller asked for: the first one added (bases, decks and scripts come after).
    pub(super) fn entry_file(&self) -> FileId {
        FileId(0)
    }

    pub(super) fn add(&mut self, name: &str, text: String, origin: Origin) -> FileId {
        self.origins.push(origin);
        self.sources.add(name, text)
    }

    /// Opens the file named on the command line.
    fn open_top(&mut self, spec: &str, errors: &mut Vec<Diagnostic>) -> Option<FileId> {
        self.open_spec(spec, None, errors)
    }

    /// Opens a file by bundled name or path; `named_as` when something other than the user
    /// named it (see [`Loader::read_disk`]).
    fn open_spec(
        &mut self,
        spec: &str,
        named_as: Option<RefKind>,
        errors: &mut Vec<Diagnostic>,
    ) -> Option<FileId> {
        let path = Path::new(spec);
        // A named file is checked for anything there, even a loop of links; the user's own
        // argument only for a path that leads somewhere.
        let there = match named_as {
            Some(_) => path.symlink_metadata().is_ok(),
            None => path.exists(),
        };
        if there {
            return self.read_disk(path, None, named_as, errors);
        }
        let stem = spec.trim_end_matches(".toml");
        for bundled_path in [format!("{stem}.toml"), format!("decks/{stem}.toml")] {
            if let Some(text) = bundled::file(&bundled_path) {
                return Some(self.add(
                    &format!("<bundled>/{bundled_path}"),
                    text.to_string(),
                    Origin::Bundled(bundled_path),
                ));
            }
        }
        let cli = self.add("<command line>", spec.to_string(), Origin::Inline);
        let names = bundled::ruleset_names().chain(bundled::deck_names());
        let help = did_you_mean(spec, names).or_else(|| {
            Some(format!(
                "bundled rulesets: {}",
                bundled::ruleset_names().collect::<Vec<_>>().join(", ")
            ))
        });
        errors.push(
            Diagnostic::error(
                format!("no file or bundled ruleset named `{spec}`"),
                Loc::new(cli, 0..spec.len()),
            )
            .with_help(help),
        );
        None
    }

    /// Reads a file from disk; `named_at` is where a rule file named it, if one did.
    ///
    /// A file named by another file (`named_as` gives what it must be) is read only when it is
    /// a regular file with that kind's extension holding text: a rule file naming `/etc/shadow`,
    /// `/proc/self/environ`, a directory or a named pipe gets an error at the name, and nothing
    /// of the other file is quoted. A file the user names on the command line is read as given.
    fn read_disk(
        &mut self,
        path: &Path,
        named_at: Option<&Loc>,
        named_as: Option<RefKind>,
        errors: &mut Vec<Diagnostic>,
    ) -> Option<FileId> {
        let shown = path.display().to_string();
        let fail = |this: &mut Loader, errors: &mut Vec<Diagnostic>, message: String| {
            let loc = match named_at {
                Some(l) => l.clone(),
                None => {
                    let f = this.add("<command line>", shown.clone(), Origin::Inline);
                    Loc::new(f, 0..shown.len())
                }
            };
            errors.push(Diagnostic::error(message, loc));
            None
        };
        if let Some(kind) = named_as
            && let Some(problem) = crate::fsio::named_file_problem(path, kind.extension())
        {
            return fail(
                self,
                errors,
                format!("`{shown}` {problem}; {}", kind.must_be()),
            );
        }
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => return fail(self, errors, format!("`{shown}` is a directory")),
            Ok(m) if m.len() > MAX_FILE_SIZE => {
                return fail(
                    self,
                    errors,
                    format!(
                        "`{shown}` is too large ({} bytes, at most {MAX_FILE_SIZE})",
                        m.len()
                    ),
                );
            }
            Err(e) => return fail(self, errors, format!("cannot read `{shown}`: {e}")),
            Ok(_) => {}
        }
        let bytes = match crate::fsio::read_limited(path, MAX_FILE_SIZE) {
            Ok(b) => b,
            Err(e) => return fail(self, errors, format!("cannot read `{shown}`: {e}")),
        };
        if let Some(kind) = named_as
            && let Some(problem) = crate::fsio::text_problem(&bytes)
        {
            return fail(
                self,
                errors,
                format!("`{shown}` {problem}; {}", kind.must_be()),
            );
        }
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        match String::from_utf8(bytes) {
            Ok(text) => Some(self.add(&shown, text, Origin::Disk(dir))),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let file = self.add(&shown, text, Origin::Disk(dir));
                let start = String::from_utf8_lossy(&e.as_bytes()[..at]).len();
                errors.push(
                    Diagnostic::error(
                        "the file is not UTF-8 text",
                        Loc::new(file, start..start + 1),
                    )
                    .with_label("this byte is not UTF-8")
                    .with_help(Some("save the file as UTF-8".into())),
                );
                None
            }
        }
    }

    /// Resolves a reference written in `from` (an `extends`, `deck` or `script` value).
    pub(super) fn open_ref(
        &mut self,
        from: FileId,
        reference: &str,
        kind: RefKind,
        at: &Loc,
        errors: &mut Vec<Diagnostic>,
    ) -> Option<FileId> {
        let with_ext = match kind {
            RefKind::Script => reference.to_string(),
            _ if reference.ends_with(".toml") => reference.to_string(),
            _ => format!("{reference}.toml"),
        };
        let fallback = match kind {
            RefKind::Ruleset => Some(with_ext.clone()),
            RefKind::Deck => Some(format!("decks/{with_ext}")),
            RefKind::Script => None,
        };
        match self.origins[from.0].clone() {
            Origin::Disk(dir) => {
                let path = dir.join(&with_ext);
                // Anything there, even a directory or a loop of links: say what it is.
                if path.symlink_metadata().is_ok() {
                    return self.read_disk(&path, Some(at), Some(kind), errors);
                }
            }
            Origin::Bundled(path) => {
                let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
                let joined = normalize(&format!("{dir}/{with_ext}"));
                if let Some(text) = bundled::file(&joined) {
                    return Some(self.add(
                        &format!("<bundled>/{joined}"),
                        text.to_string(),
                        Origin::Bundled(joined),
                    ));
                }
            }
            Origin::Inline => {
                if Path::new(&with_ext).symlink_metadata().is_ok() {
                    return self.read_disk(Path::new(&with_ext), Some(at), Some(kind), errors);
                }
            }
        }
        if let Some(b) = fallback
            .as_deref()
            .and_then(|p| bundled::file(p).map(|t| (p, t)))
        {
            return Some(self.add(
                &format!("<bundled>/{}", b.0),
                b.1.to_string(),
                Origin::Bundled(b.0.to_string()),
            ));
        }
        let (what, names): (&str, Vec<&str>) = match kind {
            RefKind::Ruleset => ("ruleset", bundled::ruleset_names().collect()),
            RefKind::Deck => ("deck", bundled::deck_names().collect()),
            RefKind::Script => ("script", Vec::new()),
        };
        // Where it was looked for, so a wrong directory shows at once.
        let looked_at = match &self.origins[from.0] {
            Origin::Disk(dir) => format!(
                "{}`, next to the file that names it",
                dir.join(&with_ext).display()
            ),
            Origin::Bundled(path) => {
                let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
                format!("<bundled>/{}`", normalize(&format!("{dir}/{with_ext}")))
            }
            Origin::Inline => format!("{with_ext}` in the current directory"),
        };
        let help = did_you_mean(reference, names.iter().copied()).or_else(|| {
            Some(if names.is_empty() {
                format!("looked for `{looked_at}")
            } else {
                format!(
                    "looked for `{looked_at}; bundled {what}s: {}",
                    names.join(", ")
                )
            })
        });
        errors.push(
            Diagnostic::error(format!("no {what} named `{reference}`"), at.clone()).with_help(help),
        );
        None
    }

    /// The identity of a file, for cycle detection.
    fn identity(&self, file: FileId) -> String {
        match &self.origins[file.0] {
            Origin::Bundled(p) => format!("bundled:{p}"),
            _ => {
                let name = &self.sources.get(file).name;
                std::fs::canonicalize(name)
                    .map_or_else(|_| name.clone(), |p| p.display().to_string())
            }
        }
    }

    /// Parses a ruleset file and, following `extends`, merges it onto its bases. `chain` holds the
    /// files being extended, as (identity, name shown in diagnostics), for cycle detection.
    pub(super) fn ruleset_tree(
        &mut self,
        file: FileId,
        chain: &mut Vec<(String, String)>,
        errors: &mut Vec<Diagnostic>,
    ) -> Option<Table> {
        let identity = self.identity(file);
        let text = self.sources.get(file).text.clone();
        let mut tree = match toml_tree::parse(file, &text) {
            Ok(t) => t,
            Err(e) => {
                errors.extend(e);
                return None;
            }
        };
        chain.push((identity, self.sources.get(file).name.clone()));
        let extends = take_extends(&mut tree, errors);
        let result = match extends {
            None => Some(tree),
            Some((base_name, at)) => {
                if chain.len() > MAX_EXTENDS {
                    errors.push(Diagnostic::error(
                        format!("`extends` chain is longer than {MAX_EXTENDS} files"),
                        at,
                    ));
                    None
                } else {
                    let base_file =
                        self.open_ref(file, &base_name, RefKind::Ruleset, &at, errors)?;
                    let base_id = self.identity(base_file);
                    if chain.iter().any(|(id, _)| *id == base_id) {
                        // Names as the user wrote them, not canonical paths: the same on every
                        // machine, and the cycle reads from the file given back to itself.
                        let names: Vec<&str> = chain
                            .iter()
                            .map(|(_, name)| name.as_str())
                            .chain([self.sources.get(base_file).name.as_str()])
                            .collect();
                        errors.push(
                            Diagnostic::error(
                                format!("`extends` cycle: `{base_name}` extends this file again"),
                                at,
                            )
                            .with_help(Some(format!("the chain: {}", names.join(" -> ")))),
                        );
                        None
                    } else {
                        let mut base = self.ruleset_tree(base_file, chain, errors)?;
                        merge_ruleset(&mut base, tree, errors);
                        Some(base)
                    }
                }
            }
        };
        chain.pop();
        result
    }

    /// Parses and reads a deck file.
    pub(super) fn deck_in(&mut self, file: FileId, errors: &mut Vec<Diagnostic>) -> Option<Deck> {
        let text = self.sources.get(file).text.clone();
        let tree = match toml_tree::parse(file, &text) {
            Ok(t) => t,
            Err(e) => {
                errors.extend(e);
                return None;
            }
        };
        super::deck_file::read_deck(&tree, Loc::new(file, 0..0), errors)
    }
}

/// Removes `[ruleset] extends` from a tree and returns it.
fn take_extends(tree: &mut Table, errors: &mut Vec<Diagnostic>) -> Option<(String, Loc)> {
    let Some(Item {
        value: Value::Table(header),
        loc: header_loc,
    }) = tree
        .entries
        .iter_mut()
        .find(|(k, _, _)| k == "ruleset")
        .map(|(_, _, v)| v)
    else {
        return None;
    };
    let item = header.remove("extends")?;
    // Without its own id, a house rule would pass as its base: records, saves and `--compare`
    // would name the base for a game played under other rules.
    if header.get("id").is_none() {
        errors.push(
            Diagnostic::error(
                "a ruleset that extends another needs its own `id`",
                header_loc.clone(),
            )
            .with_label("add `id = \"...\"` here")
            .with_help(Some(
                "without one it would be taken for the ruleset it extends".to_string(),
            )),
        );
    }
    match item.value {
        Value::Str(s, raw) => {
            let loc = match raw {
                Some(off) => item.loc.sub(off, s.len().max(1)),
                None => item.loc,
            };
            Some((s, loc))
        }
        other => {
            errors.push(Diagnostic::error(
                format!("`extends` must be a string, found {}", other.describe()),
                item.loc,
            ));
            None
        }
    }
}

/// The removals a child ruleset may make from its base: the key, where the list is in the
/// tree, and what its entries are called.
pub(super) const REMOVALS: &[(&str, &[&str], &str)] = &[
    ("remove_yaku", &["yaku"], "yaku"),
    ("remove_declaration", &["declaration"], "declaration"),
    (
        "remove_instant_win",
        &["flow", "instant_win"],
        "instant win",
    ),
    ("remove_redeal", &["flow", "redeal"], "redeal"),
    ("remove_banker_win", &["flow", "banker_win"], "banker win"),
];

/// Merges a child ruleset onto its base: tables merge key by key, arrays of tables with `id`
/// merge entry by entry (a child entry with a known id changes only the fields it gives), other
/// values replace; `[scoring]` replaces whole. The child's `remove_*` lists drop entries of the
/// base first, so an entry removed and given again in the same file is the new one.
fn merge_ruleset(base: &mut Table, mut child: Table, errors: &mut Vec<Diagnostic>) {
    // Two entries of one id in the child would merge into one and the first would be lost.
    duplicate_ids(&child, errors);
    for (key, path, noun) in REMOVALS {
        if let Some(removals) = child.remove(key) {
            remove_entries(base, removals, key, path, noun, errors);
        }
    }
    merge_tables(base, child);
}

/// Removes the entries `removals` names (ids) from the list at `path` in `base`.
fn remove_entries(
    base: &mut Table,
    removals: Item,
    key: &str,
    path: &[&str],
    noun: &str,
    errors: &mut Vec<Diagnostic>,
) {
    let ids: Vec<(String, Loc)> = match removals.value {
        Value::Array(items) => items
            .into_iter()
            .filter_map(|i| match i.value {
                Value::Str(s, _) => Some((s, i.loc)),
                other => {
                    errors.push(Diagnostic::error(
                        format!(
                            "`{key}` entries must be {noun} ids, found {}",
                            other.describe()
                        ),
                        i.loc,
                    ));
                    None
                }
            })
            .collect(),
        other => {
            errors.push(Diagnostic::error(
                format!(
                    "`{key}` must be an array of {noun} ids, found {}",
                    other.describe()
                ),
                removals.loc,
            ));
            return;
        }
    };
    let mut table = Some(base);
    for (k, part) in path.iter().enumerate() {
        let last = k + 1 == path.len();
        let found = table
            .take()
            .and_then(|t| t.entries.iter_mut().find(|(name, _, _)| name == part))
            .map(|(_, _, v)| v);
        match (found, last) {
            (
                Some(Item {
                    value: Value::Array(list),
                    ..
                }),
                true,
            ) => {
                for (id, loc) in &ids {
                    let before = list.len();
                    list.retain(|y| id_of(y) != Some(id.as_str()));
                    if list.len() == before {
                        let known: Vec<&str> = list.iter().filter_map(id_of).collect();
                        errors.push(
                            Diagnostic::error(
                                format!("cannot remove unknown {noun} `{id}`"),
                                loc.clone(),
                            )
                            .with_help(did_you_mean(id, known.iter().copied())),
                        );
                    }
                }
                return;
            }
            (
                Some(Item {
                    value: Value::Table(t),
                    ..
                }),
                false,
            ) => table = Some(t),
            _ => break,
        }
    }
    for (id, loc) in ids {
        errors.push(Diagnostic::error(
            format!("cannot remove {noun} `{id}`: the base has no {noun}"),
            loc,
        ));
    }
}

/// Reports entries of an array of tables (`[[yaku]]`, `[[flow.instant_win]]`) that repeat an
/// id of the same file, pointing at both.
fn duplicate_ids(table: &Table, errors: &mut Vec<Diagnostic>) {
    for (key, _, item) in &table.entries {
        match &item.value {
            Value::Table(t) => duplicate_ids(t, errors),
            Value::Array(items) if is_id_array(items) => {
                let mut seen: Vec<(&str, &Loc)> = Vec::new();
                for entry in items {
                    let (Some(id), Value::Table(t)) = (id_of(entry), &entry.value) else {
                        continue;
                    };
                    let loc = t.get("id").map_or(&entry.loc, |i| &i.loc);
                    match seen.iter().find(|(i, _)| *i == id) {
                        Some((_, first)) => errors.push(
                            Diagnostic::error(
                                format!("duplicate {} id `{id}`", key.replace('_', " ")),
                                loc.clone(),
                            )
                            .with_label("defined again here")
                            .with_related((*first).clone(), "first defined here")
                            .with_help(Some(
                                "an id of the base changes that entry; give each change once"
                                    .to_string(),
                            )),
                        ),
                        None => seen.push((id, loc)),
                    }
                }
            }
            _ => {}
        }
    }
}

fn id_of(item: &Item) -> Option<&str> {
    match &item.value {
        Value::Table(t) => match t.get("id").map(|i| &i.value) {
            Some(Value::Str(s, _)) => Some(s),
            _ => None,
        },
        _ => None,
    }
}

/// Keys whose table is replaced whole by a child rather than merged.
const REPLACED_WHOLE: &[&str] = &["scoring"];

fn merge_tables(base: &mut Table, child: Table) {
    for (key, key_loc, item) in child.entries {
        let existing = base.entries.iter_mut().find(|(k, _, _)| *k == key);
        match existing {
            Some((_, _, old)) if !REPLACED_WHOLE.contains(&key.as_str()) => {
                match (&mut old.value, item.value) {
                    (Value::Table(a), Value::Table(b)) => merge_tables(a, b),
                    (Value::Array(a), Value::Array(b)) if is_id_array(a) && is_id_array(&b) => {
                        merge_by_id(a, b)
                    }
                    (_, value) => {
                        *old = Item {
                            value,
                            loc: item.loc,
                        };
                    }
                }
            }
            _ => base.set(key, key_loc, item),
        }
    }
}

fn is_id_array(items: &[Item]) -> bool {
    !items.is_empty() && items.iter().all(|i| id_of(i).is_some())
}

fn merge_by_id(base: &mut Vec<Item>, child: Vec<Item>) {
    for entry in child {
        let id = id_of(&entry).map(str::to_string);
        match base.iter_mut().find(|b| id_of(b) == id.as_deref()) {
            Some(old) => {
                if let (Value::Table(a), Value::Table(b)) = (&mut old.value, entry.value) {
                    merge_tables(a, b);
                }
            }
            None => base.push(entry),
        }
    }
}

/// Resolves `.` and `..` in a bundled path.
fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}
