//! Loading rule files, the ruleset module's entry points: a bundled name or a path, a text, a
//! buffer, a record's ruleset, a deck. Each starts a [`Loader`] (files read, references
//! resolved, `extends` chains merged; `loader`), hands the merged tree to the builder
//! (`build`) and sorts what was found.

use super::build;
use super::bundled;
pub use super::loader::normalize_relative;
use super::loader::{Layers, Loader, Origin, RefKind};
use super::model::Ruleset;
use super::toml_tree::Table;
use crate::deck::Deck;
use crate::diag::{Diagnostic, FileId, Loc, SourceMap};
use std::path::Path;

/// How much of a file is read to tell a deck, strategy or ruleset apart by its table header.
const SNIFF_PREFIX: u64 = 64 * 1024;

/// The result of loading: the ruleset when valid, every finding, and the texts they quote.
#[derive(Debug)]
pub struct Loaded<T = Ruleset> {
    /// The ruleset (or deck), when there are no errors.
    pub value: Option<T>,
    /// Every error and warning found.
    pub diagnostics: Vec<Diagnostic>,
    /// Every text read, for rendering the diagnostics.
    pub sources: SourceMap,
    /// The files of `sources` read from disk (or, for [`load_embedded`], from the record's
    /// text), in the order read: what a game record embeds.
    pub read: Vec<FileId>,
}

/// Loads a ruleset by bundled name (`koikoi`) or path.
pub fn load(spec: &str) -> Loaded {
    let mut loader = Loader::new();
    let mut errors = Vec::new();
    let value = loader
        .spec_tree(spec, None, &mut errors)
        .and_then(|(tree, combined)| build_combined(&mut loader, &tree, combined, &mut errors));
    finish(loader, value, errors)
}

/// Loads the ruleset a game record names in `ruleset.spec`: a bundled name, or a path read only
/// when it is a `.toml` rule file (see `Loader::read_disk`), since a tampered record may name
/// any file. A spec that cannot be opened is reported against `<command line>`, the spec itself.
pub fn load_recorded(spec: &str) -> Loaded {
    let mut loader = Loader::new();
    let mut errors = Vec::new();
    let value = loader
        .spec_tree(spec, Some(RefKind::Ruleset), &mut errors)
        .and_then(|(tree, combined)| build_combined(&mut loader, &tree, combined, &mut errors));
    finish(loader, value, errors)
}

/// Loads the ruleset a game record was played with from the rule files it embeds: `spec` as
/// `load` reads it, its paths and every `extends`, `deck` and `script` found among `files`
/// (name, text; names relative to one folder, `..` allowed), then among the bundled files. The
/// disk is never read, whatever the names say: a record is a file anyone may have written.
pub fn load_embedded(spec: &str, files: &[(String, String)]) -> Loaded {
    let mut loader = Loader::new();
    loader.embedded = Some(
        files
            .iter()
            .map(|(name, text)| (normalize_relative(name), text.clone()))
            .collect(),
    );
    let mut errors = Vec::new();
    let value = loader
        .spec_tree(spec, Some(RefKind::Ruleset), &mut errors)
        .and_then(|(tree, combined)| build_combined(&mut loader, &tree, combined, &mut errors));
    finish(loader, value, errors)
}

/// Loads a ruleset from text, as if it were a file called `name` in the current directory.
pub fn load_str(name: &str, text: &str) -> Loaded {
    let mut loader = Loader::new();
    let mut errors = Vec::new();
    let file = loader.add(name, text.to_string(), Origin::Inline);
    let mut layers = Layers::default();
    let value = loader
        .layer(file, &mut layers, &mut Vec::new(), None, &mut errors)
        .then_some(layers.tree)
        .flatten()
        .and_then(|tree| build::ruleset(&mut loader, &tree, &mut errors));
    finish(loader, value, errors)
}

/// Loads a ruleset sent to a server (pasted or uploaded on `yaku serve`'s page): `text` as if it
/// were a bundled file called `name` at the top of `rulesets/`, so that `extends`, `deck` and
/// `script` reach the bundled rulesets, decks and scripts and nothing on the server's disk. The
/// findings are those `yaku validate` prints for the same file.
pub fn load_pasted(name: &str, text: &str) -> Loaded {
    let mut loader = Loader::new();
    let mut errors = Vec::new();
    let file = loader.add(name, text.to_string(), Origin::Pasted);
    let mut layers = Layers::default();
    let value = loader
        .layer(file, &mut layers, &mut Vec::new(), None, &mut errors)
        .then_some(layers.tree)
        .flatten()
        .and_then(|tree| build::ruleset(&mut loader, &tree, &mut errors));
    finish(loader, value, errors)
}

/// Loads a ruleset from an editor's buffer: `text` as if it were the file at `path`, so that
/// `extends`, `deck` and `script` resolve next to that file (the language server's diagnostics).
pub fn load_buffer(path: &Path, text: &str) -> Loaded {
    let mut loader = Loader::new();
    let mut errors = Vec::new();
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let file = loader.add(
        &path.display().to_string(),
        text.to_string(),
        Origin::Disk(dir),
    );
    let mut layers = Layers::default();
    let value = loader
        .layer(file, &mut layers, &mut Vec::new(), None, &mut errors)
        .then_some(layers.tree)
        .flatten()
        .and_then(|tree| build::ruleset(&mut loader, &tree, &mut errors));
    finish(loader, value, errors)
}

/// Loads a deck from an editor's buffer, as if it were the file at `path`.
pub fn load_deck_buffer(path: &Path, text: &str) -> Loaded<Deck> {
    let mut loader = Loader::new();
    let mut errors = Vec::new();
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let file = loader.add(
        &path.display().to_string(),
        text.to_string(),
        Origin::Disk(dir),
    );
    let value = loader.deck_in(file, &mut errors);
    finish(loader, value, errors)
}

/// Builds a merged tree; a combination of rulesets takes the combined id and name.
fn build_combined(
    loader: &mut Loader,
    tree: &Table,
    combined: Option<(String, String)>,
    errors: &mut Vec<Diagnostic>,
) -> Option<Ruleset> {
    let mut ruleset = build::ruleset(loader, tree, errors)?;
    if let Some((id, name)) = combined {
        ruleset.id = id;
        ruleset.name = name;
    }
    Some(ruleset)
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

/// Loads the deck that another file (a strategy table) names as `reference`, found as a
/// ruleset's `deck` is: next to that file (`name`, a path or `<bundled>/…`, with `text`), then
/// among the bundled decks. A failure is located at `span` of that file.
pub fn load_deck_named_in(
    name: &str,
    text: &str,
    reference: &str,
    span: std::ops::Range<usize>,
) -> Loaded<Deck> {
    let mut loader = Loader::new();
    let mut errors = Vec::new();
    let origin = match name.strip_prefix("<bundled>/") {
        Some(path) => Origin::Bundled(path.to_string()),
        None => Origin::Disk(
            Path::new(name)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default(),
        ),
    };
    let from = loader.add(name, text.to_string(), origin);
    let at = Loc::new(from, span);
    let value = loader
        .open_ref(from, reference, RefKind::Deck, &at, &mut errors)
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
        read: loader.read,
    }
}

#[cfg(test)]
mod embedded_tests {
    use super::{load, load_embedded, normalize_relative};

    #[test]
    fn relative_names_keep_the_dots_that_lead_above_their_start() {
        assert_eq!(normalize_relative("a/./b/../c.toml"), "a/c.toml");
        assert_eq!(normalize_relative("a/../../b.toml"), "../b.toml");
        assert_eq!(normalize_relative("../rules/./x.toml"), "../rules/x.toml");
        assert_eq!(normalize_relative("/etc/passwd"), "etc/passwd");
    }

    /// A record's files load as the same files on disk do: `extends` between them, a deck and a
    /// script beside them, bundled bases; the content hash is the same.
    #[test]
    fn embedded_files_load_as_on_disk_and_hash_the_same() {
        let mine = "[ruleset]\nid = \"mine\"\nextends = \"house/base.toml\"\n";
        let base = "[ruleset]\nid = \"base\"\nextends = \"koikoi\"\n[flow]\nrounds = 2\n";
        let files = [
            ("../rules/mine.toml".to_string(), mine.to_string()),
            ("../rules/house/base.toml".to_string(), base.to_string()),
        ];
        let loaded = load_embedded("../rules/mine.toml", &files);
        assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
        let r = loaded.value.unwrap();
        assert_eq!(r.id, "mine");
        assert_eq!(loaded.read.len(), 2);

        let dir = std::env::temp_dir().join(format!("yaku-embedded-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("house")).unwrap();
        std::fs::write(dir.join("mine.toml"), mine).unwrap();
        std::fs::write(dir.join("house/base.toml"), base).unwrap();
        let on_disk = load(&dir.join("mine.toml").display().to_string());
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(on_disk.read.len(), 2);
        assert_eq!(on_disk.value.unwrap().content_hash, r.content_hash);

        // A combination with settings, whose keys name files as the record's top folder does.
        let loaded = load_embedded("koikoi+../rules/mine.toml+rounds=3", &files);
        assert!(loaded.value.is_none(), "mine is a whole ruleset on koikoi");
        let loaded = load_embedded("../rules/mine.toml+flow.rounds=3", &files);
        let set = loaded.value.unwrap();
        assert_eq!(set.id, "mine+flow.rounds=3");
        assert_ne!(set.content_hash, r.content_hash);
    }

    /// Nothing but the record's files and the bundled ones: not a file beside the current
    /// folder, nor one a `..` or an absolute path names.
    #[test]
    fn embedded_files_never_reach_the_disk() {
        let here = std::env::current_dir().unwrap().join("Cargo.toml");
        for spec in ["Cargo.toml", here.to_str().unwrap(), "../Cargo.toml"] {
            let loaded = load_embedded(spec, &[("x.toml".into(), "".into())]);
            assert!(loaded.value.is_none());
            assert!(
                loaded.diagnostics[0]
                    .message
                    .contains("no file or bundled ruleset named"),
                "{:?}",
                loaded.diagnostics
            );
        }
        let text = "[ruleset]\nid = \"x\"\nextends = \"Cargo.toml\"\n";
        let loaded = load_embedded("x.toml", &[("x.toml".into(), text.into())]);
        assert!(loaded.value.is_none());
        assert!(
            loaded.diagnostics[0]
                .help
                .as_deref()
                .unwrap_or("")
                .contains("among the record's files"),
            "{:?}",
            loaded.diagnostics
        );
    }
}
