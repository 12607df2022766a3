//! The state of one load: the texts read and where each came from, references (bases, decks,
//! scripts) resolved next to the file that names them, and `extends` chains merged onto their
//! bases. The entry points (`load`) hand the merged tree to the builder (`build`), which opens
//! the deck and scripts through the same [`Loader`].

use super::bundled;
use super::reader::UNSET;
use super::toml_tree::{self, Item, Table, Value};
use crate::deck::Deck;
use crate::diag::{Diagnostic, FileId, Loc, SourceMap, did_you_mean};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Largest rule file read, in bytes.
pub const MAX_FILE_SIZE: u64 = crate::fsio::MAX_RULE_FILE_SIZE;
/// Longest `extends` chain.
pub const MAX_EXTENDS: usize = 16;

/// Where a file came from, so that references inside it resolve next to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Origin {
    /// A bundled file, by its path under `rulesets/`.
    Bundled(String),
    /// A file on disk.
    Disk(PathBuf),
    /// Text given directly (tests, the command line).
    Inline,
    /// Text a user sent to a server: its references reach only the bundled files, never the
    /// server's disk.
    Pasted,
    /// A file a game record embeds, by its name there: its references reach the record's other
    /// files and the bundled ones, never the disk.
    Embedded(String),
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
    /// The entries house rules removed, in order (see [`Removed`]).
    pub removed: Vec<Removed>,
    /// Each file read, by `disk:CANONICAL PATH` or `bundled:PATH`: a file named twice is read once.
    opened: HashMap<String, FileId>,
    /// Bounds the did-you-mean work of this load, however many names are wrong.
    _suggestions: crate::diag::WorkBudget,
    /// The files read from disk (or a record's text), in order.
    pub(super) read: Vec<FileId>,
    /// For [`load_embedded`]: the record's files by name ([`normalize_relative`]); the disk is
    /// then never read.
    pub(super) embedded: Option<HashMap<String, String>>,
}

impl Loader {
    pub(super) fn new() -> Loader {
        Loader {
            sources: SourceMap::new(),
            origins: Vec::new(),
            removed: Vec::new(),
            opened: HashMap::new(),
            _suggestions: crate::diag::WorkBudget::begin(),
            read: Vec::new(),
            embedded: None,
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

    /// A bundled file, added once however often it is named.
    fn add_bundled(&mut self, path: String, text: &str) -> FileId {
        let key = format!("bundled:{path}");
        if let Some(&file) = self.opened.get(&key) {
            return file;
        }
        let file = self.add(
            &format!("<bundled>/{path}"),
            text.to_string(),
            Origin::Bundled(path),
        );
        self.opened.insert(key, file);
        file
    }

    /// The record's file `name` ([`normalize_relative`]), added once however often it is named;
    /// `None` when the record has no such file.
    fn open_embedded(&mut self, name: &str) -> Option<FileId> {
        let key = format!("embedded:{name}");
        if let Some(&file) = self.opened.get(&key) {
            return Some(file);
        }
        let text = self.embedded.as_ref()?.get(name)?.clone();
        let file = self.add(name, text, Origin::Embedded(name.to_string()));
        self.opened.insert(key, file);
        self.read.push(file);
        Some(file)
    }

    /// Opens the file named on the command line.
    pub(super) fn open_top(&mut self, spec: &str, errors: &mut Vec<Diagnostic>) -> Option<FileId> {
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
        if self.embedded.is_some() {
            if let Some(file) = self.open_embedded(&normalize_relative(spec)) {
                return Some(file);
            }
        } else {
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
        // A file named again (a diamond of `extends`) is the file already read: each is read,
        // parsed and checked once, and its errors reported once.
        let key = std::fs::canonicalize(path).map(|c| format!("disk:{}", c.display()));
        if let Some(&file) = key.as_ref().ok().and_then(|k| self.opened.get(k)) {
            return Some(file);
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
            Ok(text) => {
                let file = self.add(&shown, text, Origin::Disk(dir));
                if let Ok(key) = key {
                    self.opened.insert(key, file);
                }
                self.read.push(file);
                Some(file)
            }
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
        let origin = match self.origins[from.0].clone() {
            // In a record's rules, text given directly (`--set` keys) names files as the
            // record's top folder does.
            Origin::Inline if self.embedded.is_some() => Origin::Embedded(String::new()),
            o => o,
        };
        match origin {
            Origin::Embedded(name) => {
                let dir = name.rsplit_once('/').map_or("", |(d, _)| d);
                let joined = normalize_relative(&format!("{dir}/{with_ext}"));
                if let Some(file) = self.open_embedded(&joined) {
                    return Some(file);
                }
            }
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
                    return Some(self.add_bundled(joined, text));
                }
            }
            Origin::Inline => {
                if Path::new(&with_ext).symlink_metadata().is_ok() {
                    return self.read_disk(Path::new(&with_ext), Some(at), Some(kind), errors);
                }
            }
            Origin::Pasted => {
                if let Some(text) = bundled::file(&normalize(&with_ext)) {
                    return Some(self.add_bundled(normalize(&with_ext), text));
                }
            }
        }
        if let Some(b) = fallback
            .as_deref()
            .and_then(|p| bundled::file(p).map(|t| (p, t)))
        {
            return Some(self.add_bundled(b.0.to_string(), b.1));
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
            Origin::Inline if self.embedded.is_some() => {
                format!(
                    "{}` among the record's files",
                    normalize_relative(&with_ext)
                )
            }
            Origin::Embedded(name) => {
                let dir = name.rsplit_once('/').map_or("", |(d, _)| d);
                format!(
                    "{}` among the record's files",
                    normalize_relative(&format!("{dir}/{with_ext}"))
                )
            }
            Origin::Inline => format!("{with_ext}` in the current directory"),
            Origin::Pasted => format!(
                "<bundled>/{}` (a pasted file reaches only the bundled files)",
                normalize(&with_ext)
            ),
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
            Origin::Embedded(name) => format!("embedded:{name}"),
            _ => {
                let name = &self.sources.get(file).name;
                std::fs::canonicalize(name)
                    .map_or_else(|_| name.clone(), |p| p.display().to_string())
            }
        }
    }

    /// Reads the ruleset a spec names: one file (`koikoi`, `mine.toml`), or a base and house
    /// rules applied in order with option settings, joined by `+`
    /// (`koikoi+house/no-seven-doubling+rounds=6`; what `--with` and `--set` build). A spec that
    /// names an existing file or bundled ruleset whole is that file, `+` or not. Returns the
    /// merged tree and, for a combination, the combined id and name.
    pub(super) fn spec_tree(
        &mut self,
        spec: &str,
        named_as: Option<RefKind>,
        errors: &mut Vec<Diagnostic>,
    ) -> Option<(Table, Option<(String, String)>)> {
        let here = match &self.embedded {
            Some(files) => files.contains_key(&normalize_relative(spec)),
            None => Path::new(spec).exists(),
        };
        let whole =
            here || bundled::file(&format!("{}.toml", spec.trim_end_matches(".toml"))).is_some();
        if whole || !spec.contains('+') && !spec.contains('=') {
            let file = self.open_spec(spec, named_as, errors)?;
            let mut layers = Layers::default();
            return self
                .layer(file, &mut layers, &mut Vec::new(), None, errors)
                .then_some(layers.tree)
                .flatten()
                .map(|t| (t, None));
        }
        let cli = self.add("<command line>", spec.to_string(), Origin::Inline);
        let mut layers = Layers::default();
        let mut ok = true;
        let (mut ids, mut names) = (Vec::new(), Vec::new());
        let (mut settings, mut paths) = (String::new(), String::new());
        // `flow.target_score=unset`: keys a setting removes, by the table that holds them.
        let mut unsets: Vec<(String, Vec<String>)> = Vec::new();
        let mut offset = 0;
        for part in spec.split('+') {
            let at = Loc::new(cli, offset..offset + part.len());
            offset += part.len() + 1;
            if let Some((name, value)) = part.split_once('=')
                && value.trim() == UNSET
            {
                let name = name.trim();
                match name.rsplit_once('.') {
                    Some((table, key)) if setting_line(name, "0").is_ok() => {
                        match unsets.iter_mut().find(|(t, _)| t == table) {
                            Some((_, keys)) => keys.push(key.to_string()),
                            None => unsets.push((table.to_string(), vec![key.to_string()])),
                        }
                        ids.push(format!("{name}={UNSET}"));
                    }
                    _ => {
                        errors.push(
                            Diagnostic::error(
                                format!("`{name}={UNSET}`: only a key of the rule file can be removed (`flow.target_score={UNSET}`)"),
                                at,
                            )
                            .with_help(Some(
                                "an option keeps a value: set it to its default instead".into(),
                            )),
                        );
                        ok = false;
                    }
                }
                continue;
            }
            if let Some((name, value)) = part.split_once('=') {
                match setting_line(name.trim(), value.trim()) {
                    Ok(line) => {
                        // `flow.rounds=3` sets a key of the rule file; a plain name, an option.
                        if name.contains('.') {
                            paths.push_str(&line);
                        } else {
                            settings.push_str(&line);
                        }
                        ids.push(format!("{}={}", name.trim(), value.trim()));
                    }
                    Err(message) => {
                        errors.push(Diagnostic::error(message, at));
                        ok = false;
                    }
                }
                continue;
            }
            if !settings.is_empty() || !paths.is_empty() || layers.tree.is_none() && !ids.is_empty()
            {
                errors.push(
                    Diagnostic::error("a ruleset comes before the option settings", at).with_help(
                        Some(
                            "write the base, then its house rules, then `NAME=VALUE` settings"
                                .into(),
                        ),
                    ),
                );
                ok = false;
                continue;
            }
            let Some(file) = self.open_spec(part, named_as, errors) else {
                ok = false;
                continue;
            };
            if self.layer(file, &mut layers, &mut Vec::new(), Some(&at), errors) {
                if let Some((id, name)) = layers.tree.as_ref().and_then(header_id_name) {
                    ids.push(id);
                    names.push(name);
                }
            } else {
                ok = false;
            }
        }
        let mut tree = layers.tree.filter(|_| ok)?;
        for (table, keys) in &unsets {
            let keys: Vec<String> = keys.iter().map(|k| format!("\"{k}\"")).collect();
            paths.push_str(&format!("{table}.{UNSET} = [{}]\n", keys.join(", ")));
        }
        if !settings.is_empty() || !paths.is_empty() {
            let text = if settings.is_empty() {
                paths
            } else {
                format!("{paths}[options]\n{settings}")
            };
            let file = self.add("<--set>", text.clone(), Origin::Inline);
            match toml_tree::parse(file, &text) {
                Ok(child) => merge_layer(&mut tree, child, &|_| true, &mut self.removed, errors),
                Err(e) => {
                    errors.extend(e);
                    return None;
                }
            }
        }
        let name = match names.split_first() {
            Some((base, [])) => base.clone(),
            Some((base, rest)) => format!("{base} with {}", rest.join(", ")),
            None => String::new(),
        };
        let name = match ids
            .iter()
            .filter(|i| i.contains('='))
            .map(String::as_str)
            .collect::<Vec<_>>()
        {
            set if set.is_empty() => name,
            set => format!("{name} ({})", set.join(", ")),
        };
        Some((tree, Some((ids.join("+"), name))))
    }

    /// Merges `file` onto `layers`: its bases first (each once, in order: a base already
    /// merged is not merged again), then the file itself. A file without a base starts the
    /// tree; a second one is an error, since two whole rulesets do not combine. `chain` holds
    /// the files being extended, as (identity, name shown in diagnostics), for cycle detection;
    /// `named_at` is where the file was named. Returns false after an error.
    pub(super) fn layer(
        &mut self,
        file: FileId,
        layers: &mut Layers,
        chain: &mut Vec<(String, String)>,
        named_at: Option<&Loc>,
        errors: &mut Vec<Diagnostic>,
    ) -> bool {
        let identity = self.identity(file);
        if layers.included.contains(&identity) {
            return true;
        }
        // A file that failed is not tried again from another path of a diamond: its errors
        // were reported once (34 house rules in diamonds printed one error 2^16 times).
        if layers.failed.contains(&identity) {
            return false;
        }
        let ok = self.layer_once(file, identity.clone(), layers, chain, named_at, errors);
        if !ok {
            layers.failed.insert(identity);
        }
        ok
    }

    /// [`Loader::layer`] for a file not yet merged nor failed.
    fn layer_once(
        &mut self,
        file: FileId,
        identity: String,
        layers: &mut Layers,
        chain: &mut Vec<(String, String)>,
        named_at: Option<&Loc>,
        errors: &mut Vec<Diagnostic>,
    ) -> bool {
        if chain.iter().any(|(id, _)| *id == identity) {
            // Names as the user wrote them, not canonical paths: the same on every machine, and
            // the cycle reads from the file given back to itself.
            let names: Vec<&str> = chain
                .iter()
                .map(|(_, name)| name.as_str())
                .chain([self.sources.get(file).name.as_str()])
                .collect();
            if let Some(at) = named_at {
                errors.push(
                    Diagnostic::error(
                        format!(
                            "`extends` cycle: `{}` extends this file again",
                            at_text(self, at)
                        ),
                        at.clone(),
                    )
                    .with_help(Some(format!("the chain: {}", names.join(" -> ")))),
                );
            }
            return false;
        }
        let text = self.sources.get(file).text.clone();
        let mut tree = match toml_tree::parse(file, &text) {
            Ok(t) => t,
            Err(e) => {
                errors.extend(e);
                return false;
            }
        };
        let Some(bases) = take_extends(&mut tree, errors) else {
            return false;
        };
        if bases.is_empty() {
            if let Some(acc) = &layers.tree {
                let base = header_id_name(acc).map_or_else(String::new, |(id, _)| id);
                let this = header_id_name(&tree)
                    .map_or_else(|| self.sources.get(file).name.clone(), |(id, _)| id);
                let at = named_at.cloned().unwrap_or_else(|| Loc::new(file, 0..0));
                errors.push(
                    Diagnostic::error(
                        format!("`{this}` is a whole ruleset, not a house rule of `{base}`"),
                        at,
                    )
                    .with_help(Some(
                        "only house rules (files with `extends`) apply on top of a ruleset; \
                         each must build on a ruleset already in the list"
                            .into(),
                    )),
                );
                return false;
            }
            stray_unsets(&tree, errors);
            layers.tree = Some(tree);
            layers.closure.push(vec![identity.clone()]);
            layers.included.push(identity);
            return true;
        }
        if chain.len() >= MAX_EXTENDS {
            errors.push(Diagnostic::error(
                format!("`extends` chain is longer than {MAX_EXTENDS} files"),
                bases[0].1.clone(),
            ));
            return false;
        }
        chain.push((identity.clone(), self.sources.get(file).name.clone()));
        let mut ok = true;
        let mut closure = vec![identity.clone()];
        for (base_name, at) in &bases {
            let Some(base_file) = self.open_ref(file, base_name, RefKind::Ruleset, at, errors)
            else {
                ok = false;
                continue;
            };
            ok &= self.layer(base_file, layers, chain, Some(at), errors);
            let base_id = self.identity(base_file);
            if let Some(i) = layers.included.iter().position(|b| *b == base_id) {
                closure.extend(layers.closure[i].iter().cloned());
            }
        }
        chain.pop();
        let Some(acc) = layers.tree.as_mut().filter(|_| ok) else {
            return false;
        };
        let ids: Vec<String> = (0..self.sources.files().len())
            .map(|i| self.identity(FileId(i)))
            .collect();
        let own = |f: FileId| ids.get(f.0).is_some_and(|id| closure.contains(id));
        merge_layer(acc, tree, &own, &mut self.removed, errors);
        layers.closure.push(closure);
        layers.included.push(identity);
        true
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

/// The files merged so far into one ruleset tree.
#[derive(Default)]
pub(super) struct Layers {
    /// The merged tree, once a whole ruleset started it.
    pub(super) tree: Option<Table>,
    /// The identities of the files merged, in order.
    included: Vec<String>,
    /// The identities of the files that could not be merged (their errors already reported).
    failed: HashSet<String>,
    /// For each file of `included`, the files it builds on (itself included): values those
    /// files set, it may change without a conflict.
    closure: Vec<Vec<String>>,
}

/// The text a location points at.
fn at_text(loader: &Loader, at: &Loc) -> String {
    loader
        .sources
        .get(at.file)
        .text
        .get(at.span.clone())
        .unwrap_or_default()
        .to_string()
}

/// The `[ruleset]` id of a tree and its name (the id when it has none).
fn header_id_name(tree: &Table) -> Option<(String, String)> {
    let Some(Value::Table(header)) = tree.get("ruleset").map(|i| &i.value) else {
        return None;
    };
    let text = |key: &str| match header.get(key).map(|i| &i.value) {
        Some(Value::Str(s, _)) => Some(s.clone()),
        _ => None,
    };
    let id = text("id")?;
    let name = text("name").unwrap_or_else(|| id.clone());
    Some((id, name))
}

/// One `NAME=VALUE` of a spec as a TOML line of `[options]`, or why it is not one.
fn setting_line(name: &str, value: &str) -> Result<String, String> {
    let ident = |name: &str| {
        name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if !name.split('.').all(ident) {
        return Err(format!(
            "`{name}` is neither an option name (letters, digits and `_`, starting with a \
             letter) nor a key of the rule file (`flow.rounds`)"
        ));
    }
    let number = value.strip_prefix('-').unwrap_or(value);
    if value == "true"
        || value == "false"
        || (!number.is_empty() && number.len() <= 18 && number.bytes().all(|b| b.is_ascii_digit()))
    {
        Ok(format!("{name} = {value}\n"))
    } else {
        Err(format!(
            "option `{name}`: `{value}` is not a value; an option is `true`, `false` or a whole number"
        ))
    }
}

/// Removes `[ruleset] extends` from a tree and returns the bases it names, in order (a string
/// or an array of strings); `None` after an error.
fn take_extends(tree: &mut Table, errors: &mut Vec<Diagnostic>) -> Option<Vec<(String, Loc)>> {
    let Some(Item {
        value: Value::Table(header),
        loc: header_loc,
    }) = tree
        .entries
        .iter_mut()
        .find(|(k, _, _)| k == "ruleset")
        .map(|(_, _, v)| v)
    else {
        return Some(Vec::new());
    };
    let Some(item) = header.remove("extends") else {
        return Some(Vec::new());
    };
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
    let one = |item: Item, errors: &mut Vec<Diagnostic>| match item.value {
        Value::Str(s, raw) => {
            let loc = match raw {
                Some(off) => item.loc.sub(off, s.len().max(1)),
                None => item.loc,
            };
            Some((s, loc))
        }
        other => {
            errors.push(Diagnostic::error(
                format!(
                    "`extends` names rulesets by strings, found {}",
                    other.describe()
                ),
                item.loc,
            ));
            None
        }
    };
    match item.value {
        Value::Array(items) if !items.is_empty() => {
            let n = items.len();
            let bases: Vec<(String, Loc)> =
                items.into_iter().filter_map(|i| one(i, errors)).collect();
            (bases.len() == n).then_some(bases)
        }
        Value::Array(_) => {
            errors.push(Diagnostic::error("`extends` names no ruleset", item.loc));
            None
        }
        _ => one(item, errors).map(|b| vec![b]),
    }
}

/// Reports every `unset` in a file that extends nothing: there is nothing to unset.
fn stray_unsets(table: &Table, errors: &mut Vec<Diagnostic>) {
    for (key, key_loc, item) in &table.entries {
        if key == UNSET {
            errors.push(
                Diagnostic::error(format!("`{UNSET}` without a base ruleset"), key_loc.clone())
                    .with_help(Some(
                        "`unset` removes keys a base ruleset gave (`extends`); leave the keys out instead"
                            .into(),
                    )),
            );
        }
        match &item.value {
            Value::Table(t) => stray_unsets(t, errors),
            Value::Array(items) => {
                for i in items {
                    if let Value::Table(t) = &i.value {
                        stray_unsets(t, errors);
                    }
                }
            }
            _ => {}
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
    (
        "remove_adjust",
        &["scoring", "adjust"],
        "scoring adjustment",
    ),
];

/// Merges a child ruleset onto its base: tables merge key by key, arrays of tables with `id`
/// merge entry by entry (a child entry with a known id changes only the fields it gives), other
/// values replace; a `script` or `source` in `[scoring]` replaces the base's either way.
/// The child's `remove_*` lists drop entries of the
/// base first, so an entry removed and given again in the same file is the new one. A value the
/// child replaces that a file it does not build on set (`own` is false for that file: two house
/// rules of one base both changing `flow.rounds`) is reported as a conflict; the child's value
/// applies. A child without a `name` is named by its `id`, not its base's name.
fn merge_layer(
    base: &mut Table,
    mut child: Table,
    own: &dyn Fn(FileId) -> bool,
    removed: &mut Vec<Removed>,
    errors: &mut Vec<Diagnostic>,
) {
    // Two entries of one id in the child would merge into one and the first would be lost.
    duplicate_ids(&child, errors);
    for (key, path, noun) in REMOVALS {
        if let Some(removals) = child.remove(key) {
            remove_entries(base, removals, key, path, noun, removed, errors);
        }
    }
    if let Some(Item {
        value: Value::Table(header),
        ..
    }) = child
        .entries
        .iter_mut()
        .find(|(k, _, _)| k == "ruleset")
        .map(|(_, _, v)| v)
        && header.get("name").is_none()
        && let Some(id) = header.get("id").cloned()
    {
        header.set("name".into(), id.loc.clone(), id);
    }
    let mut merge = Merge {
        own,
        removed,
        errors,
    };
    merge.tables(base, child, "");
}

/// The keys every entry of a removable list must have (`when` and `points` of a yaku, `when` of
/// an instant win or a redeal, `effect` of a declaration): an entry of a removed id without
/// them only changes it, and there is nothing left to change. (One with them adds it back.)
const REQUIRED: &[&str] = &["when", "points", "effect"];

/// An entry a house rule removed (`remove_yaku = [...]`), for the messages of a later house rule
/// that changes it, or of a script that reads it.
#[derive(Clone, Debug)]
pub(super) struct Removed {
    /// Where its list is in the tree (`yaku`, `flow.redeal`).
    pub path: String,
    /// Its id.
    pub id: String,
    /// Where the removal names it.
    pub loc: Loc,
    /// The keys the removed entry had.
    pub keys: Vec<String>,
}

/// The state of one merge: which files the child builds on, and where conflicts go.
struct Merge<'a> {
    own: &'a dyn Fn(FileId) -> bool,
    removed: &'a mut Vec<Removed>,
    errors: &'a mut Vec<Diagnostic>,
}

impl Merge<'_> {
    fn tables(&mut self, base: &mut Table, mut child: Table, path: &str) {
        if let Some(unset) = child.remove(UNSET) {
            self.unset(base, unset, path);
        }
        // The options the base declares, before this file adds its own.
        let base_options: Vec<String> = if path == "options" {
            base.entries.iter().map(|(k, _, _)| k.clone()).collect()
        } else {
            Vec::new()
        };
        let known: Vec<&str> = base_options.iter().map(String::as_str).collect();
        // Where each key is in `base`: a child with many keys is merged in linear time.
        let mut index: HashMap<String, usize> = HashMap::new();
        for (i, (k, _, _)) in base.entries.iter().enumerate() {
            index.entry(k.clone()).or_insert(i);
        }
        for (key, key_loc, item) in child.entries {
            let here = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            // Options a base does not declare are checked one by one.
            if here == "options" && !index.contains_key(&key) {
                index.insert(key.clone(), base.entries.len());
                base.entries.push((
                    key.clone(),
                    key_loc.clone(),
                    Item {
                        value: Value::Table(Table::default()),
                        loc: item.loc.clone(),
                    },
                ));
            }
            let existing = index.get(&key).map(|&i| &mut base.entries[i]);
            // A value of the wrong kind is reported and left out, so that the option's readers
            // are not blamed for it.
            if path == "options"
                && let Some((_, _, old)) = &existing
                && !self.same_option_kind(&key, old, &item)
            {
                continue;
            }
            match existing {
                Some((_, _, old)) => {
                    // A script given replaces the base's, written either way; its
                    // adjustments stay (by id).
                    if here == "scoring"
                        && let (Value::Table(a), Value::Table(b)) = (&mut old.value, &item.value)
                        && let Some(new) = b.get("script").or_else(|| b.get("source"))
                    {
                        let new = new.clone();
                        for old in [a.remove("script"), a.remove("source")]
                            .into_iter()
                            .flatten()
                        {
                            self.conflict("scoring.script", &old, &new);
                        }
                    }
                    match (&mut old.value, item.value) {
                        (Value::Table(a), Value::Table(b)) => self.tables(a, b, &here),
                        (Value::Array(a), Value::Array(b)) if is_id_array(a) && is_id_array(&b) => {
                            self.by_id(a, b, &here);
                        }
                        // A value given for an option declared as a table sets its default.
                        (Value::Table(a), value)
                            if path == "options" && a.get("default").is_some() =>
                        {
                            let new = Item {
                                value,
                                loc: item.loc,
                            };
                            let old_default = a.get("default").cloned();
                            if let Some(old_default) = old_default {
                                self.conflict(&here, &old_default, &new);
                            }
                            a.set("default".into(), key_loc, new);
                        }
                        (_, value) => {
                            let new = Item {
                                value,
                                loc: item.loc,
                            };
                            self.conflict(&here, old, &new);
                            *old = new;
                        }
                    }
                }
                None => {
                    if path == "options" && !matches!(item.value, Value::Table(_)) {
                        let help = did_you_mean(&key, known.iter().copied()).or_else(|| {
                            Some(if known.is_empty() {
                                "the base declares no options; a new option is a table: \
                                 `name = { default = ..., description = \"...\" }`"
                                    .to_string()
                            } else {
                                format!(
                                    "the base's options: {}; a new option is a table: \
                                     `name = {{ default = ..., description = \"...\" }}`",
                                    known.join(", ")
                                )
                            })
                        });
                        self.errors.push(
                            Diagnostic::error(format!("unknown option `{key}`"), key_loc.clone())
                                .with_help(help),
                        );
                    }
                    index.insert(key.clone(), base.entries.len());
                    base.entries.push((key, key_loc, item));
                }
            }
        }
    }

    /// `unset = ["group"]`: removes keys the base gave this table.
    fn unset(&mut self, base: &mut Table, unset: Item, path: &str) {
        let keys: Vec<Item> = match unset.value {
            Value::Array(items) => items,
            other => {
                self.errors.push(Diagnostic::error(
                    format!(
                        "`{UNSET}` must be an array of key names, found {}",
                        other.describe()
                    ),
                    unset.loc,
                ));
                return;
            }
        };
        let table = if path.is_empty() {
            "the top level".to_string()
        } else {
            format!("`{path}`")
        };
        let known: Vec<String> = base.entries.iter().map(|(k, _, _)| k.clone()).collect();
        let known: Vec<&str> = known.iter().map(String::as_str).collect();
        for key in keys {
            let Value::Str(name, _) = &key.value else {
                self.errors.push(Diagnostic::error(
                    format!(
                        "`{UNSET}` names keys by strings, found {}",
                        key.value.describe()
                    ),
                    key.loc,
                ));
                continue;
            };
            if base.remove(name).is_none() {
                self.errors.push(
                    Diagnostic::error(
                        format!("cannot unset `{name}`: the base gives {table} no `{name}`"),
                        key.loc.clone(),
                    )
                    .with_help(
                        did_you_mean(name, known.iter().copied()).or_else(|| {
                            Some(if known.is_empty() {
                                format!("the base gives {table} no keys")
                            } else {
                                format!("the base gives {table}: {}", known.join(", "))
                            })
                        }),
                    ),
                );
            }
        }
    }

    /// A house rule that changes what a yaku needs (`when`) and keeps the description it
    /// inherits is warned: the words players read may no longer say what scores ("Ten plain
    /// cards" for a yaku that now needs twelve). Giving a `description`, the same words if they
    /// still hold, says they were checked.
    fn stale_description(&mut self, base: &Table, child: &Table, id: &str) {
        let (
            Some(when),
            None,
            Some(Item {
                value: Value::Str(words, _),
                ..
            }),
        ) = (
            child.get("when"),
            child.get("description"),
            base.get("description"),
        )
        else {
            return;
        };
        let text = |item: &Item| match &item.value {
            Value::Str(t, _) => Some(t.clone()),
            _ => None,
        };
        if base.get("when").and_then(text) == text(when) {
            return;
        }
        self.errors.push(
            Diagnostic::warning(
                format!(
                    "the condition of `{id}` changes here, and it keeps the description it inherits: \"{words}\""
                ),
                when.loc.clone(),
            )
            .with_help(Some(
                "give the yaku a `description` of what it now needs (the same words if they still hold)"
                    .to_string(),
            )),
        );
    }

    fn by_id(&mut self, base: &mut Vec<Item>, child: Vec<Item>, path: &str) {
        // Where each id is in `base` (the first entry of an id, as a search from the start finds).
        let mut index: HashMap<String, usize> = HashMap::new();
        for (i, b) in base.iter().enumerate() {
            if let Some(id) = id_of(b) {
                index.entry(id.to_string()).or_insert(i);
            }
        }
        for entry in child {
            let id = id_of(&entry).map(str::to_string);
            match id
                .as_ref()
                .and_then(|id| index.get(id))
                .map(|&i| &mut base[i])
            {
                Some(old) => {
                    if let (Value::Table(a), Value::Table(b)) = (&mut old.value, entry.value) {
                        if path == "yaku" {
                            self.stale_description(a, &b, id.as_deref().unwrap_or_default());
                        }
                        let here = format!("{path}.{}", id.unwrap_or_default());
                        self.tables(a, b, &here);
                    }
                }
                None => {
                    let mut entry = entry;
                    // An entry an earlier house rule removed, changed here as if it were still
                    // there (some keys only): say so, rather than "missing the key ...".
                    if let (Some(id), Value::Table(t)) = (&id, &entry.value)
                        && let Some(gone) =
                            self.removed.iter().find(|r| r.path == path && r.id == *id)
                        && let Some(lacking) = gone
                            .keys
                            .iter()
                            .filter(|k| REQUIRED.contains(&k.as_str()))
                            .find(|k| t.get(k).is_none())
                    {
                        self.errors.push(
                            Diagnostic::error(
                                format!(
                                    "`{id}` was removed by an earlier house rule, so there is nothing here to change"
                                ),
                                entry.loc.clone(),
                            )
                            .with_related(gone.loc.clone(), "removed here")
                            .with_help(Some(format!(
                                "to add it back, give the whole entry (this one has no `{lacking}`); or keep it in the earlier house rule"
                            ))),
                        );
                        continue;
                    }
                    if let Value::Table(t) = &mut entry.value
                        && let Some(i) = t.entries.iter().position(|(k, _, _)| k == UNSET)
                    {
                        let (_, at, _) = t.entries.remove(i);
                        self.errors.push(
                            Diagnostic::error(
                                format!(
                                    "`{UNSET}` in a new entry: the base has no `{}` in `{path}`",
                                    id.as_deref().unwrap_or_default()
                                ),
                                at.clone(),
                            )
                            .with_help(Some(
                                "`unset` removes keys of an entry the base gives; check the id"
                                    .into(),
                            )),
                        );
                    }
                    if let Some(id) = id {
                        index.entry(id).or_insert(base.len());
                    }
                    base.push(entry);
                }
            }
        }
    }

    /// Reports a new value of an option of another kind than the option's (a number for a
    /// switch).
    fn same_option_kind(&mut self, key: &str, old: &Item, new: &Item) -> bool {
        let kind = |item: &Item| {
            let value = match &item.value {
                Value::Table(t) => t.get("default").map(|d| d.value.clone()),
                v => Some(v.clone()),
            };
            match value {
                Some(Value::Int(_)) => Some("a number"),
                Some(Value::Bool(_)) => Some("a switch (`true` or `false`)"),
                _ => None,
            }
        };
        if let (Some(was), Some(is)) = (kind(old), kind(new))
            && was != is
        {
            self.errors.push(
                Diagnostic::error(
                    format!(
                        "option `{key}` is {was}, not {}",
                        is.trim_end_matches(" (`true` or `false`)")
                    ),
                    new.loc.clone(),
                )
                .with_related(old.loc.clone(), "declared here"),
            );
            return false;
        }
        true
    }

    /// Reports `new` replacing `old` when a file the child does not build on set `old` to
    /// something else.
    fn conflict(&mut self, path: &str, old: &Item, new: &Item) {
        // What each file says about itself is not a rule.
        let about_itself = ["id", "name", "description", "sources", "notes"]
            .iter()
            .any(|k| path.strip_prefix("ruleset.") == Some(k));
        if about_itself || (self.own)(old.loc.file) || same_value(&old.value, &new.value) {
            return;
        }
        self.errors.push(
            Diagnostic::warning(
                format!("two house rules set `{path}`: this one applies"),
                new.loc.clone(),
            )
            .with_related(old.loc.clone(), "also set here, by a rule listed earlier")
            .with_help(Some(
                "rules apply in the order listed; drop one, or list the one that should win last"
                    .into(),
            )),
        );
    }
}

/// Two TOML values that say the same (scalars and arrays of scalars).
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Str(x, _), Value::Str(y, _)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_value(&x.value, &y.value))
        }
        _ => false,
    }
}

/// Removes the entries `removals` names (ids) from the list at `path` in `base`.
fn remove_entries(
    base: &mut Table,
    removals: Item,
    key: &str,
    path: &[&str],
    noun: &str,
    removed_before: &mut Vec<Removed>,
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
                // One pass over the list, however many ids are removed; an id named twice is
                // unknown the second time.
                let listed: HashSet<&str> = list.iter().filter_map(id_of).collect();
                let mut removed: HashSet<&str> = HashSet::new();
                let unknown: Vec<&(String, Loc)> = ids
                    .iter()
                    .filter(|(id, _)| !(listed.contains(id.as_str()) && removed.insert(id)))
                    .collect();
                let removed: HashSet<String> = removed.into_iter().map(str::to_string).collect();
                for entry in list
                    .iter()
                    .filter(|y| id_of(y).is_some_and(|i| removed.contains(i)))
                {
                    let id = id_of(entry).unwrap_or_default().to_string();
                    let Some((_, loc)) = ids.iter().find(|(i, _)| *i == id) else {
                        continue;
                    };
                    let keys = match &entry.value {
                        Value::Table(t) => t.entries.iter().map(|(k, _, _)| k.clone()).collect(),
                        _ => Vec::new(),
                    };
                    removed_before.push(Removed {
                        path: path.join("."),
                        id,
                        loc: loc.clone(),
                        keys,
                    });
                }
                list.retain(|y| id_of(y).is_none_or(|i| !removed.contains(i)));
                let known: Vec<&str> = list.iter().filter_map(id_of).collect();
                for (id, loc) in unknown {
                    errors.push(
                        Diagnostic::error(
                            format!("cannot remove unknown {noun} `{id}`"),
                            loc.clone(),
                        )
                        .with_help(did_you_mean(id, known.iter().copied())),
                    );
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
                let mut seen: HashMap<&str, &Loc> = HashMap::new();
                for entry in items {
                    let (Some(id), Value::Table(t)) = (id_of(entry), &entry.value) else {
                        continue;
                    };
                    let loc = t.get("id").map_or(&entry.loc, |i| &i.loc);
                    match seen.get(id) {
                        Some(first) => errors.push(
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
                        None => {
                            seen.insert(id, loc);
                        }
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

fn is_id_array(items: &[Item]) -> bool {
    !items.is_empty() && items.iter().all(|i| id_of(i).is_some())
}

/// Resolves `.` and `..` in a relative path written with `/`, keeping the `..` that lead above
/// its start (`a/../../b` is `../b`): the names of a record's files.
pub fn normalize_relative(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
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
