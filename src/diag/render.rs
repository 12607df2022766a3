//! Rendering of diagnostics: rustc-style text (via codespan-reporting) and JSON.

use super::{Diagnostic, Severity, SourceMap};
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, Chars, Config};

/// Renders diagnostics as text: `error: message`, `--> file:line:column`, the source line and a
/// caret under the span, then the help line.
pub fn render_text(sources: &SourceMap, diagnostics: &[Diagnostic]) -> String {
    // Quoted lines show control characters as `?`, byte for byte, so spans still point at the
    // right columns and no escape sequence from a file reaches the terminal.
    let shown: Vec<String> = sources
        .files
        .iter()
        .map(|f| mask_control(&f.text))
        .collect();
    let mut files = SimpleFiles::new();
    for (f, text) in sources.files.iter().zip(&shown) {
        files.add(f.name.as_str(), text.as_str());
    }
    let config = Config {
        chars: Chars::ascii(),
        ..Config::default()
    };
    let mut out = String::new();
    for d in diagnostics {
        let text = &sources.get(d.loc.file).text;
        let span = clamp_span(text, d.loc.span.clone());
        let mut label = Label::primary(d.loc.file.0, span.clone());
        if let Some(l) = &d.label {
            label = label.with_message(l);
        }
        let base = match d.severity {
            Severity::Error => CsDiagnostic::error(),
            Severity::Warning => CsDiagnostic::warning(),
        };
        let mut labels = vec![label];
        for (loc, text) in &d.related {
            let span = clamp_span(&sources.get(loc.file).text, loc.span.clone());
            labels.push(Label::secondary(loc.file.0, span).with_message(text));
        }
        let mut cs = base.with_message(&d.message).with_labels(labels);
        if let Some(help) = &d.help {
            cs = cs.with_notes(vec![format!("help: {help}")]);
        }
        let line = line_around(text, span.start);
        if line.len() > MAX_LINE {
            // codespan quotes whole lines: a 10 MB one-line file would print 10 MB twice.
            out.push_str(&render_long_line(sources, d, line, span));
        } else {
            match term::emit_into_string(&config, &files, &cs) {
                Ok(s) => out.push_str(&s),
                Err(_) => out.push_str(&format!(
                    "{}: {}\n  --> {}\n",
                    severity_word(d.severity),
                    d.message,
                    sources.describe(&d.loc)
                )),
            }
        }
        // One blank line after each diagnostic (codespan already ends with one).
        while !out.ends_with("\n\n") {
            out.push('\n');
        }
    }
    // Messages quote names and ids from files: escape what control characters remain.
    escape_control(&out).into_owned()
}

/// `text` with each control character other than newline and tab replaced by as many `?` as
/// it has bytes: the same length, so byte spans into `text` stay valid.
fn mask_control(text: &str) -> String {
    text.chars()
        .map(|c| {
            if is_unsafe_control(c) {
                "?".repeat(c.len_utf8())
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// True for characters a terminal may act on or that reorder what is shown: C0 and C1 controls
/// and DEL, except newline and tab, and the bidirectional formatting characters (the embeddings
/// and overrides U+202A to U+202E, the isolates U+2066 to U+2069, the marks U+200E, U+200F and
/// U+061C), with which a name can make a line read as something else ("Trojan Source").
fn is_unsafe_control(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}')
}

/// `text` with every control character other than newline and tab, and every bidirectional
/// formatting character, written as an escape (`\u{1b}`, `\u{202e}`), so text from a file
/// printed to a terminal or a pipe cannot clear the screen, set the clipboard, move the cursor
/// or reverse a line. Use it wherever text from a file is printed.
pub fn escape_control(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_unsafe_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe_control(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The text of [`render_text`] with styles for a terminal: the severity word and the message in
/// bold colour, the location arrow and the help line coloured, as cargo does. The caller's
/// stream (anstream) drops the styles where colour is off (not a terminal, `NO_COLOR`).
pub fn render_text_styled(sources: &SourceMap, diagnostics: &[Diagnostic]) -> String {
    use anstyle::{AnsiColor, Style};
    let bold = Style::new().bold();
    let error = AnsiColor::Red.on_default().bold();
    let warning = AnsiColor::Yellow.on_default().bold();
    let blue = AnsiColor::Blue.on_default().bold();
    let text = render_text(sources, diagnostics);
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    for line in text.split_inclusive('\n') {
        let (body, end) = line.strip_suffix('\n').map_or((line, ""), |b| (b, "\n"));
        let head = [("error", error), ("warning", warning)]
            .into_iter()
            .find_map(|(word, style)| {
                let rest = body.strip_prefix(word)?;
                rest.starts_with(':').then_some((word, style, rest))
            });
        if let Some((word, style, rest)) = head {
            out.push_str(&format!("{style}{word}{style:#}{bold}{rest}{bold:#}"));
        } else if let Some(rest) = body.trim_start().strip_prefix("= help:") {
            let indent = &body[..body.len() - body.trim_start().len()];
            out.push_str(&format!("{indent}{blue}= help:{blue:#}{rest}"));
        } else if let Some(rest) = body.trim_start().strip_prefix("-->") {
            let indent = &body[..body.len() - body.trim_start().len()];
            out.push_str(&format!("{indent}{blue}-->{blue:#}{rest}"));
        } else {
            out.push_str(body);
        }
        out.push_str(end);
    }
    out
}

/// Longest source line quoted whole, in bytes; longer ones are quoted around the span.
const MAX_LINE: usize = 400;
/// Characters quoted before and after the start of the span on a long line.
const CONTEXT: usize = 40;

fn severity_word(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// The byte range of the line holding `offset`, without its line break.
fn line_around(text: &str, offset: usize) -> std::ops::Range<usize> {
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    start..end
}

/// The codespan layout for a diagnostic on a very long line, quoting only a window of the line
/// (`...` marks what is left out) with the caret under the span's start.
fn render_long_line(
    sources: &SourceMap,
    d: &Diagnostic,
    line: std::ops::Range<usize>,
    span: std::ops::Range<usize>,
) -> String {
    let text = &sources.get(d.loc.file).text;
    let (line_number, _) = sources.line_col(d.loc.file, span.start);
    let before: Vec<char> = text[line.start..span.start].chars().collect();
    let skipped = before.len().saturating_sub(CONTEXT);
    let shown_before: String = before[skipped..].iter().collect();
    let shown_after: String = text[span.start..line.end].chars().take(CONTEXT).collect();
    let span_chars = text[span.start..span.end.min(line.end)].chars().count();
    let carets = span_chars.clamp(1, CONTEXT);
    let cut_before = if skipped > 0 { "..." } else { "" };
    let cut_after = if shown_after.len() < line.end - span.start {
        "..."
    } else {
        ""
    };
    let gutter = line_number.to_string();
    let pad = " ".repeat(gutter.len());
    let mut out = format!(
        "{}: {}\n{pad} --> {}\n{pad} |\n{gutter} | {cut_before}{shown_before}{shown_after}{cut_after}\n",
        severity_word(d.severity),
        d.message,
        sources.describe(&d.loc),
    );
    let indent = " ".repeat(cut_before.len() + shown_before.chars().count());
    out.push_str(&format!("{pad} | {indent}{}", "^".repeat(carets)));
    if let Some(label) = &d.label {
        out.push_str(&format!(" {label}"));
    }
    out.push('\n');
    if let Some(help) = &d.help {
        out.push_str(&format!("{pad} |\n{pad} = help: {help}\n"));
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
            let mut item = serde_json::json!({
                "severity": match d.severity { Severity::Error => "error", Severity::Warning => "warning" },
                "message": d.message,
                "file": sources.get(d.loc.file).name,
                "line": line,
                "column": column,
                "end_line": end_line,
                "end_column": end_column,
                "label": d.label,
                "help": d.help,
            });
            if !d.related.is_empty() {
                item["related"] = d
                    .related
                    .iter()
                    .map(|(loc, label)| {
                        let (line, column) = sources.line_col(loc.file, loc.span.start);
                        serde_json::json!({
                            "file": sources.get(loc.file).name,
                            "line": line,
                            "column": column,
                            "label": label,
                        })
                    })
                    .collect();
            }
            item
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Loc;

    #[test]
    fn long_lines_are_quoted_around_the_span() {
        let mut sources = SourceMap::new();
        let text = format!("a = 1\n{}=oops{}\n", "x".repeat(5000), "y".repeat(5000));
        let file = sources.add("long.toml", text);
        let d = Diagnostic::error("bad", Loc::new(file, 5006..5010))
            .with_label("here")
            .with_help(Some("fix it".into()));
        let out = render_text(&sources, &[d]);
        let expected = format!(
            "error: bad\n  --> long.toml:2:5001\n  |\n2 | ...{x}=oops{y}...\n  | {sp}^^^^ here\n  |\n  = help: fix it\n\n",
            x = "x".repeat(CONTEXT),
            y = "y".repeat(CONTEXT - 5),
            sp = " ".repeat(3 + CONTEXT),
        );
        assert_eq!(out, expected);
    }

    #[test]
    fn short_lines_are_quoted_whole() {
        let mut sources = SourceMap::new();
        let file = sources.add("short.toml", "id = \"x\"\n");
        let out = render_text(&sources, &[Diagnostic::warning("hm", Loc::new(file, 5..8))]);
        assert_eq!(
            out,
            "warning: hm\n  --> short.toml:1:6\n  |\n1 | id = \"x\"\n  |      ^^^\n\n"
        );
    }
}
