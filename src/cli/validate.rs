//! `yaku validate FILE_OR_NAME...`: every finding in every file, located, as text or JSON.

use crate::diag::{Diagnostic, SourceMap, has_errors, render_json, render_text};
use crate::ruleset;
use std::io::Write;

/// Arguments of `yaku validate`.
#[derive(clap::Args, Debug)]
pub struct ValidateArgs {
    /// Rule files or decks: paths, or bundled names such as `koikoi`.
    #[arg(required = true, value_name = "FILE_OR_NAME")]
    files: Vec<String>,
    /// Print the findings as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: &ValidateArgs) -> i32 {
    let stdout = std::io::stdout();
    match report(args, &mut stdout.lock()) {
        Ok(true) => super::EXIT_FAILURE,
        Ok(false) => super::EXIT_OK,
        Err(e) => super::output_failed(&e),
    }
}

/// Writes the findings of every file to `out`; `Ok(true)` when any file has errors.
fn report(args: &ValidateArgs, out: &mut impl Write) -> std::io::Result<bool> {
    let mut any_errors = false;
    let mut json_files = Vec::new();
    for spec in &args.files {
        let (diagnostics, sources, summary) = check(spec);
        let failed = has_errors(&diagnostics);
        any_errors |= failed;
        if args.json {
            json_files.push(serde_json::json!({
                "file": spec,
                "valid": !failed,
                "diagnostics": render_json(&sources, &diagnostics),
            }));
        } else {
            let text = render_text(&sources, &diagnostics);
            write!(out, "{text}")?;
            let errors = diagnostics
                .iter()
                .filter(|d| d.severity == crate::diag::Severity::Error)
                .count();
            if failed {
                writeln!(
                    out,
                    "{spec}: {errors} error{}",
                    if errors == 1 { "" } else { "s" }
                )?;
            } else {
                writeln!(out, "{spec}: ok ({summary})")?;
            }
        }
    }
    if args.json {
        let doc = serde_json::json!({ "valid": !any_errors, "files": json_files });
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        )?;
    }
    out.flush()?;
    Ok(any_errors)
}

/// Loads one ruleset or deck and returns its findings and a one-line summary.
fn check(spec: &str) -> (Vec<Diagnostic>, SourceMap, String) {
    if ruleset::is_strategy_file(spec) {
        return check_strategy(spec);
    }
    if ruleset::is_deck_file(spec) {
        let loaded = ruleset::load_deck(spec);
        let summary = loaded.value.as_ref().map_or_else(String::new, |d| {
            format!(
                "deck `{}`: {} cards in {} suits",
                d.id,
                d.cards.len(),
                d.suits.len()
            )
        });
        (loaded.diagnostics, loaded.sources, summary)
    } else {
        let loaded = ruleset::load(spec);
        let summary = loaded.value.as_ref().map_or_else(String::new, |r| {
            format!(
                "ruleset `{}`: {} yaku, deck `{}`",
                r.id,
                r.yaku.yaku.len(),
                r.deck.id
            )
        });
        (loaded.diagnostics, loaded.sources, summary)
    }
}

/// A strategy table: parsed against the deck it names, every mistake located in the file.
fn check_strategy(spec: &str) -> (Vec<Diagnostic>, SourceMap, String) {
    let mut sources = SourceMap::new();
    match crate::analysis::Strategy::check(spec) {
        Ok((_, _, Ok(s))) => (Vec::new(), sources, format!("strategy `{}`", s.name)),
        Ok((name, text, Err(errors))) => {
            let file = sources.add(name, text);
            let diagnostics = errors
                .into_iter()
                .map(|e| {
                    Diagnostic::error(
                        e.message,
                        crate::diag::Loc::new(file, e.span.unwrap_or(0..0)),
                    )
                    .with_help(e.help)
                })
                .collect();
            (diagnostics, sources, String::new())
        }
        Err(message) => {
            let file = sources.add("<command line>", spec);
            let d = Diagnostic::error(message, crate::diag::Loc::new(file, 0..spec.len()));
            (vec![d], sources, String::new())
        }
    }
}
