//! `yaku validate FILE_OR_NAME...`: every finding in every file, located, as text or JSON.

use crate::diag::{Diagnostic, SourceMap, has_errors, render_json};
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
        let (diagnostics, sources, summary) = check(spec);
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
                    super::plural(errors, "error")
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

/// Loads one ruleset or deck and returns its findings and a one-line summary.
fn check(spec: &str) -> (Vec<Diagnostic>, SourceMap, String) {
    if spec == "-" {
        let mut sources = SourceMap::new();
        // With the bound of any rule file: `validate - < /dev/zero` must not take all memory.
        let read =
            crate::fsio::read_limited_from(std::io::stdin(), crate::fsio::MAX_RULE_FILE_SIZE)
                .and_then(|bytes| {
                    String::from_utf8(bytes).map_err(|_| {
                        std::io::Error::new(
                            std::io::ErrorKind::InvalidData,
                            "the input is not UTF-8 text",
                        )
                    })
                });
        let text = match read {
            Ok(text) => text,
            Err(e) => {
                let file = sources.add("<stdin>", "");
                let d = Diagnostic::error(
                    format!("cannot read standard input: {e}"),
                    crate::diag::Loc::new(file, 0..0),
                );
                return (vec![d], sources, String::new());
            }
        };
        let loaded = ruleset::load_str("<stdin>", &text);
        return (
            loaded.diagnostics,
            loaded.sources,
            summary(loaded.value.as_ref()),
        );
    }
    if spec.ends_with(".rhai") {
        return check_script(spec);
    }
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
        let summary = summary(loaded.value.as_ref());
        (loaded.diagnostics, loaded.sources, summary)
    }
}

/// What `yaku validate` finds in an editor's buffer: `text` checked as the file at `path` would
/// be (a ruleset, house rule, deck, strategy or script, told apart as on disk), with references
/// resolved next to it. The language server's diagnostics; the buffer is the first source.
pub fn check_buffer(path: &std::path::Path, text: &str) -> (Vec<Diagnostic>, SourceMap) {
    let name = path.display().to_string();
    let header = |wanted: &str| {
        text.lines().any(|l| {
            let line: String = l
                .split('#')
                .next()
                .unwrap_or("")
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            line == wanted
        })
    };
    let (diagnostics, sources, _) = if path.extension().is_some_and(|e| e == "rhai") {
        script_findings(SourceMap::new(), &name, text.to_string())
    } else if header("[strategy]") {
        strategy_findings(crate::families::banker::analysis::Strategy::check_text(
            name,
            text.to_string(),
        ))
    } else if header("[deck]") {
        let loaded = ruleset::load_deck_buffer(path, text);
        (loaded.diagnostics, loaded.sources, String::new())
    } else {
        let loaded = ruleset::load_buffer(path, text);
        (loaded.diagnostics, loaded.sources, String::new())
    };
    (diagnostics, sources)
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

/// The one-line summary of a valid ruleset.
pub(crate) fn summary(ruleset: Option<&ruleset::Ruleset>) -> String {
    ruleset.map_or_else(String::new, |r| {
        format!(
            "ruleset `{}`: {} yaku, deck `{}`",
            r.id,
            r.yaku.yaku.len(),
            r.deck.id
        )
    })
}

/// A scoring script on its own: compiled, and checked to define `fn score(hand)`. Running it on
/// a sample hand needs its ruleset's yaku, so the help says to validate the rule file too.
fn check_script(spec: &str) -> (Vec<Diagnostic>, SourceMap, String) {
    let mut sources = SourceMap::new();
    // Read only as a regular file of at most a rule file's size (a FIFO named `x.rhai` would
    // wait, `/dev/zero` would never end).
    let read = match crate::fsio::named_file_problem(std::path::Path::new(spec), "rhai") {
        Some(problem) => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            problem,
        )),
        None => crate::fsio::read_text_limited(
            std::path::Path::new(spec),
            crate::fsio::MAX_RULE_FILE_SIZE,
        ),
    };
    let text = match read {
        Ok(t) => t,
        Err(e) => {
            let file = sources.add("<command line>", spec);
            let d = Diagnostic::error(
                format!("cannot read `{spec}`: {e}"),
                crate::diag::Loc::new(file, 0..spec.len()),
            );
            return (vec![d], sources, String::new());
        }
    };
    script_findings(sources, spec, text)
}

/// The findings of a scoring script already read.
fn script_findings(
    mut sources: SourceMap,
    name: &str,
    text: String,
) -> (Vec<Diagnostic>, SourceMap, String) {
    let file = sources.add(name, text);
    let mut errors = Vec::new();
    let at = crate::diag::Loc::new(file, 0..0);
    let script = crate::script::ScoringScript::compile(&sources, file, &at, &[], &[], &mut errors);
    let summary = script.map_or_else(String::new, |_| {
        "script: compiles and defines `fn score(hand)`; validate the rule file that names it to \
         run it on sample hands"
            .to_string()
    });
    (errors, sources, summary)
}

/// A strategy table: parsed against the deck it names, every mistake located in the file.
fn check_strategy(spec: &str) -> (Vec<Diagnostic>, SourceMap, String) {
    match crate::families::banker::analysis::Strategy::check(spec) {
        Ok(checked) => strategy_findings(checked),
        Err(message) => {
            let mut sources = SourceMap::new();
            let file = sources.add("<command line>", spec);
            let d = Diagnostic::error(message, crate::diag::Loc::new(file, 0..spec.len()));
            (vec![d], sources, String::new())
        }
    }
}

/// The findings of a strategy table already read and parsed.
fn strategy_findings(
    checked: crate::families::banker::analysis::strategy::Checked,
) -> (Vec<Diagnostic>, SourceMap, String) {
    let mut sources = SourceMap::new();
    match checked {
        (name, text, Ok(s)) => {
            let file = sources.add(name, text);
            let diagnostics = draws_against_rulesets(&s, &sources, file);
            (diagnostics, sources, format!("strategy `{}`", s.name))
        }
        (name, text, Err(errors)) => {
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
    }
}

/// A strategy's draw counts checked against the bundled banker rulesets of its deck: a count no
/// such ruleset allows is an error at the `draw` that gives it.
fn draws_against_rulesets(
    strategy: &crate::families::banker::analysis::Strategy,
    sources: &SourceMap,
    file: crate::diag::FileId,
) -> Vec<Diagnostic> {
    let text = &sources.get(file).text;
    let deck = text
        .parse::<toml::Table>()
        .ok()
        .and_then(|t| t.get("strategy")?.get("deck")?.as_str().map(str::to_string));
    let Some(deck) = deck else {
        return Vec::new();
    };
    let rulesets: Vec<(String, Vec<u32>)> = ruleset::bundled::ruleset_names()
        .filter_map(|name| {
            let r = ruleset::load(name).value?;
            let flow = r.banker()?;
            (r.deck.id == deck).then(|| (name.to_string(), flow.draw_options.clone()))
        })
        .collect();
    if rulesets.is_empty() {
        return Vec::new();
    }
    let draws = strategy.all_entries().filter_map(|e| e.draw);
    let mut out: Vec<Diagnostic> = Vec::new();
    for n in draws {
        if rulesets.iter().any(|(_, options)| options.contains(&n)) {
            continue;
        }
        // The `draw = n` that says it, for the location.
        let mut offset = 0;
        let mut span = 0..0;
        for line in text.split_inclusive('\n') {
            let trimmed = line.trim_start();
            if let Some(value) = trimmed.strip_prefix("draw")
                && let Some(value) = value.trim_start().strip_prefix('=')
                && value.split('#').next().unwrap_or("").trim() == n.to_string()
            {
                let at = offset + line.len() - trimmed.len();
                span = at..at + trimmed.trim_end().len();
                break;
            }
            offset += line.len();
        }
        if out.iter().any(|d| d.loc.span == span) {
            continue;
        }
        let allowed: Vec<String> = rulesets
            .iter()
            .map(|(name, options)| {
                let options: Vec<String> = options.iter().map(u32::to_string).collect();
                format!("`{name}` allows {}", options.join(" or "))
            })
            .collect();
        out.push(
            Diagnostic::error(
                format!(
                    "no ruleset of deck `{deck}` lets a player take {}",
                    super::plural(n, "more tile")
                ),
                crate::diag::Loc::new(file, span),
            )
            .with_help(Some(allowed.join("; "))),
        );
    }
    out
}
