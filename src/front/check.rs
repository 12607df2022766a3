//! What `yaku validate` finds in a file or an editor's buffer, for every front end: the
//! command line's `validate`, the language server's diagnostics and the pasted rule files of
//! `yaku serve` (their one-line summary). A ruleset, house rule, deck, strategy table or
//! scoring script is told apart as on disk; nothing here prints.

use crate::diag::{Diagnostic, SourceMap};
use crate::ruleset;

/// Loads one ruleset or deck and returns its findings and a one-line summary.
pub(crate) fn check(spec: &str) -> (Vec<Diagnostic>, SourceMap, String) {
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
