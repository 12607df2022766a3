//! Located diagnostics: every error a ruleset author can cause carries a file and a byte span.
//!
//! Phases collect `Diagnostic`s into a `Vec` (never stopping at the first); `render` turns them into
//! rustc-style text with a caret excerpt, or JSON for editors and CI. Only the CLI prints them.
//!
//! ```
//! use yaku::diag::{Diagnostic, Loc, SourceMap, render_text};
//! let mut sources = SourceMap::new();
//! let file = sources.add("mine.toml", "[flow]\nroundz = 6\n");
//! let found = Diagnostic::error("unknown key `roundz`", Loc::new(file, 7..13));
//! let text = render_text(&sources, &[found]);
//! assert!(text.contains("mine.toml:2:1"));
//! ```

mod render;
mod suggest;

pub use render::{escape_control, render_json, render_text, render_text_styled};
pub use suggest::{WorkBudget, did_you_mean, suggest, suggestion_work};

use std::ops::Range;

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FileId(pub usize);

/// A place in a source file: the file and a byte range in it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Loc {
    /// The file.
    pub file: FileId,
    /// The byte range within the file's text.
    pub span: Range<usize>,
}

impl Loc {
    /// A location in `file` covering `span`.
    pub fn new(file: FileId, span: Range<usize>) -> Loc {
        Loc { file, span }
    }

    /// A sub-range of this location, `offset..offset+len` relative to its start.
    pub fn sub(&self, offset: usize, len: usize) -> Loc {
        let start = self.span.start + offset;
        Loc::new(self.file, start..start + len)
    }
}

/// One source text: a rule file, a deck, a script, or a bundled ruleset.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name shown in diagnostics (a path, or `<bundled>/koikoi.toml`).
    pub name: String,
    /// The whole text.
    pub text: String,
    /// Where each line starts, computed at the first lookup: thousands of diagnostics in a
    /// large file each find their line by a binary search, not by counting from the start.
    line_starts: std::sync::OnceLock<Vec<usize>>,
}

/// Every source text read while loading, so that diagnostics can quote them.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile {
            name: name.into(),
            text: text.into(),
            line_starts: std::sync::OnceLock::new(),
        });
        FileId(self.files.len() - 1)
    }

    /// The file with this id.
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0]
    }

    /// Every file, in the order added.
    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// The 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, id: FileId, offset: usize) -> (usize, usize) {
        let file = self.get(id);
        let text = &file.text;
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let starts = file.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        });
        // The last line start at or before `offset` (the first is 0).
        let line = starts.partition_point(|&s| s <= offset);
        let line_start = starts[line - 1];
        let col = text[line_start..offset].chars().count() + 1;
        (line, col)
    }

    /// `file:line:column` of a location.
    pub fn describe(&self, loc: &Loc) -> String {
        let (line, col) = self.line_col(loc.file, loc.span.start);
        format!("{}:{}:{}", self.get(loc.file).name, line, col)
    }
}

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The ruleset cannot be used.
    Error,
    /// The ruleset works but something looks wrong.
    Warning,
}

/// One finding, located in a source file.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, lowercase, names in backticks.
    pub message: String,
    /// Where.
    pub loc: Loc,
    /// A short label under the caret.
    pub label: Option<String>,
    /// A suggestion (`did you mean ...`).
    pub help: Option<String>,
    /// Other places that explain it, each with its label (`first defined here`).
    pub related: Vec<(Loc, String)>,
    /// What kind of finding it is, for a program that acts on one kind (none for most).
    pub code: Option<DiagnosticCode>,
}

/// Kinds of finding that a program acts on, rather than only shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagnosticCode {
    /// The deck has more cards than this build's 64-bit card sets hold: the `yaku` command
    /// hands the command to its 128-bit build, which plays the deck or says its own limit.
    DeckNeedsWiderSets,
}

impl Diagnostic {
    /// An error at `loc`.
    pub fn error(message: impl Into<String>, loc: Loc) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            loc,
            label: None,
            help: None,
            related: Vec::new(),
            code: None,
        }
    }

    /// A warning at `loc`.
    pub fn warning(message: impl Into<String>, loc: Loc) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(message, loc)
        }
    }

    /// Adds a label under the caret.
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = Some(label.into());
        self
    }

    /// Points at another place too, with a label (`first defined here`).
    pub fn with_related(mut self, loc: Loc, label: impl Into<String>) -> Diagnostic {
        self.related.push((loc, label.into()));
        self
    }

    /// Names the kind of finding.
    pub fn with_code(mut self, code: DiagnosticCode) -> Diagnostic {
        self.code = Some(code);
        self
    }

    /// Adds a help line.
    pub fn with_help(mut self, help: Option<String>) -> Diagnostic {
        self.help = help;
        self
    }
}

/// True when any diagnostic is an error.
pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| d.severity == Severity::Error)
}
