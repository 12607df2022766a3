//! `yaku validate FILE_OR_NAME...`: every finding in every file, located, as text or JSON.

use crate::diag::{has_errors, render_json};
use crate::ruleset;
use std::io::Write;

/// Arguments of `yaku validate`.
#[derive(clap::Args, Debug)]
pub struct ValidateArgs {
    /// Rule files, decks, strategies or scripts: paths, bundled names such as `koikoi`, a
    /// directory (every `.toml` file in it and its subdirectories), or `-` for a ruleset on
    /// standard input.
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
    for spec in &expand(&args.files) {
        let (diagnostics, sources, summary) = crate::front::check(spec);
        if args.json {
            // Nothing is written before the document: the wider build can check every file.
            super::hand_over_to_wider(&diagnostics);
        } else if let Some(failed) = super::check_in_wider(spec, &diagnostics, out)? {
            // A deck too large for this build's card sets: that file alone is checked (and its
            // verdict written) by the wider build.
            any_errors |= failed;
            continue;
        }
        let failed = has_errors(&diagnostics);
        any_errors |= failed;
        if args.json {
            let mut entry = serde_json::json!({
                "file": spec,
                "valid": !failed,
                "diagnostics": render_json(&sources, &diagnostics),
            });
            // What a game record names the ruleset by: its id and the hash of its texts.
            if !failed && let Some((id, hash)) = identity(spec) {
                entry["ruleset"] = serde_json::json!({ "id": id, "content_hash": hash });
            }
            json_files.push(entry);
        } else {
            // Findings go to standard error, as cargo's do; the verdict of a good file is the
            // command's output.
            super::print_diagnostics(&sources, &diagnostics);
            let errors = diagnostics
                .iter()
                .filter(|d| d.severity == crate::diag::Severity::Error)
                .count();
            if failed {
                let _ = writeln!(
                    anstream::stderr(),
                    "{spec}: {}",
                    crate::front::plural(errors, "error")
                );
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

/// The files to check: each argument, with a directory replaced by the `.toml` files under it
/// (sorted, subdirectories included). Only regular files are taken (a named pipe in the folder
/// would wait for ever), links to folders are not followed (a link to the parent validated one
/// file 41 times; two never ended), and a file reached twice (through a link) is checked once.
fn expand(specs: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for spec in specs {
        let path = std::path::Path::new(spec);
        if spec != "-" && path.is_dir() {
            let mut found = Vec::new();
            let mut seen = std::collections::HashSet::new();
            let mut dirs = vec![path.to_path_buf()];
            while let Some(dir) = dirs.pop() {
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                for entry in entries.flatten() {
                    let p = entry.path();
                    // The entry's own type: a symbolic link is not followed here.
                    let Ok(kind) = entry.file_type() else {
                        continue;
                    };
                    if kind.is_dir() {
                        dirs.push(p);
                        continue;
                    }
                    let regular = kind.is_file()
                        || kind.is_symlink() && std::fs::metadata(&p).is_ok_and(|m| m.is_file());
                    if !regular || p.extension().is_none_or(|e| e != "toml") {
                        continue;
                    }
                    let identity = std::fs::canonicalize(&p).unwrap_or_else(|_| p.clone());
                    if seen.insert(identity) {
                        found.push(p.display().to_string());
                    }
                }
            }
            found.sort();
            out.extend(found);
        } else {
            out.push(spec.clone());
        }
    }
    out
}

/// A valid ruleset's id and content hash (16 hex digits, as records keep it); `None` for decks,
/// strategies, scripts and standard input.
fn identity(spec: &str) -> Option<(String, String)> {
    if spec == "-"
        || spec.ends_with(".rhai")
        || ruleset::is_strategy_file(spec)
        || ruleset::is_deck_file(spec)
    {
        return None;
    }
    let r = ruleset::load(spec).value?;
    Some((r.id, format!("{:016x}", r.content_hash)))
}
