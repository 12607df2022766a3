//! Rendering of diagnostics: rustc-style text (via codespan-reporting) and JSON.

use super::{Diagnostic, Severity, SourceMap};
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, Chars, Config};

/// Renders diagnostics as text: `error: message`, `--> file:line:column`, the source line and a
/// caret under the span, then the help line.
pub fn render_text(sources: &SourceMap, diagnostics: &[Diagnostic]) -> String {
    let mut files = SimpleFiles::new();
    for i in 0..sources.files.len() {
        let f = &sources.files[i];
        files.add(f.name.as_str(), f.text.as_str());
    }
    let config = Config {
        chars: Chars::ascii(),
        ..Config::default()
    };
    let mut out = String::new();
    for d in diagnostics {
        let text = &sources.get(d.loc.file).text;
        let span = clamp_span(text, d.loc.span.clone());
        let mut label = Label::primary(d.loc.file.0, span);
        if let Some(l) = &d.label {
            label = label.with_message(l);
        }
        let base = match d.severity {
            Severity::Error => CsDiagnostic::error(),
            Severity::Warning => CsDiagnostic::warning(),
        };
        let mut cs = base.with_message(&d.message).with_labels(vec![label]);
        if let Some(help) = &d.help {
            cs = cs.with_notes(vec![format!("help: {help}")]);
        }
        match term::emit_into_string(&config, &files, &cs) {
            Ok(s) => out.push_str(&s),
            Err(_) => out.push_str(&format!(
                "error: {}\n  --> {}\n",
                d.message,
                sources.describe(&d.loc)
            )),
        }
        // One blank line after each diagnostic (codespan already ends with one).
        while !out.ends_with("\n\n") {
            out.push('\n');
        }
    }
    out
}

/// Renders diagnostics as a JSON array of objects with `severity`, `message`, `file`, `line`,
/// `column`, `end_line`, `end_column`, `label` and `help`.
pub fn render_json(sources: &SourceMap, diagnostics: &[Diagnostic]) -> serde_json::Value {
    let items: Vec<serde_json::Value> = diagnostics
        .iter()
        .map(|d| {
            let (line, column) = sources.line_col(d.loc.file, d.loc.span.start);
            let (end_line, end_column) = sources.line_col(d.loc.file, d.loc.span.end);
            serde_json::json!({
                "severity": match d.severity { Severity::Error => "error", Severity::Warning => "warning" },
                "message": d.message,
                "file": sources.get(d.loc.file).name,
                "line": line,
                "column": column,
                "end_line": end_line,
                "end_column": end_column,
                "label": d.label,
                "help": d.help,
            })
        })
        .collect();
    serde_json::Value::Array(items)
}

/// Keeps a span inside the text and on character boundaries, so rendering never fails.
fn clamp_span(text: &str, span: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let fix = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = fix(span.start);
    let end = fix(span.end).max(start);
    start..end
}
