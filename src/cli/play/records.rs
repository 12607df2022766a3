//! How a game's record keeps and finds its rules: reading a record with the rule files it
//! embeds (or, for an older record, those it names beside it), replaying against other rules
//! and saying what differs, and writing a record with its files named from where it lies.

use super::*;

/// Reads a record and loads its ruleset, refusing one whose rules changed unless `force`: from
/// the rule files the record embeds, or for an older record from the files it names beside it;
/// or, with `rules`, from that file the user names (see [`other_rules`]; the third value is
/// then the ruleset the record was played with, when it embeds its files). A record that embeds
/// its files comes back with their names (and its spec's) from the current folder, as `yaku
/// play` keeps them. Errors are printed; the `Err` is the exit code.
#[allow(clippy::type_complexity)]
pub(in crate::cli) fn read_record(
    path: &Path,
    force: bool,
    rules: Option<&Path>,
) -> Result<(Record, Arc<Ruleset>, Option<Arc<Ruleset>>), i32> {
    let text = crate::fsio::read_text_limited(path, crate::fsio::MAX_RECORD_SIZE).map_err(|e| {
        eprintln!("error: cannot read `{}`: {e}", path.display());
        crate::cli::EXIT_FAILURE
    })?;
    let mut record = Record::from_json(&text).map_err(|e| {
        eprintln!(
            "error: `{}`: {}",
            path.display(),
            crate::diag::escape_control(&e.to_string())
        );
        crate::cli::EXIT_FAILURE
    })?;
    escape_record_text(&mut record);
    if let Some(rules) = rules {
        return other_rules(path, record, rules);
    }
    let embedded = !record.ruleset.files.is_empty();
    let ruleset = if embedded {
        embedded_ruleset(path, &record)?
    } else {
        record_ruleset(path, &record.ruleset.spec)?
    };
    // The embedded text is the text played: only a bundled file it builds on can have changed.
    let what = if embedded {
        format!(
            "the rules `{}` embedded in the record build on bundled files that",
            record.ruleset.spec
        )
    } else {
        format!("the rules of `{}`", record.ruleset.spec)
    };
    match record.check_hash(&ruleset) {
        HashCheck::Same => {}
        HashCheck::Unrecorded => eprintln!(
            "note: the record gives no ruleset hash; it is replayed with `{}` as it is now",
            record.ruleset.spec
        ),
        HashCheck::Differs { recorded, actual } if force => eprintln!(
            "warning: {what} changed since the record was written (hash {recorded}, now {actual}); going on because of --force"
        ),
        HashCheck::Differs { recorded, actual } => {
            eprintln!(
                "error: {what} changed since the record was written (hash {recorded}, now {actual})\n  = help: the game may not replay the same way; add --force to try anyway"
            );
            return Err(crate::cli::EXIT_FAILURE);
        }
    }
    if embedded {
        let dir = record_folder(path);
        rename_files(&mut record, |name| {
            lexical_absolute(&dir.join(name)).display().to_string()
        });
    }
    Ok((record, ruleset, None))
}

/// The ruleset a record embeds, loaded from its text alone. Its errors are the record's own
/// text, shown by the first one's message (escaped: a record is a file anyone may have written).
fn embedded_ruleset(path: &Path, record: &Record) -> Result<Arc<Ruleset>, i32> {
    let loaded = load_embedded(record);
    crate::cli::hand_over_to_wider(&loaded.diagnostics);
    loaded.value.map(Arc::new).ok_or_else(|| {
        let errors: Vec<_> = loaded
            .diagnostics
            .iter()
            .filter(|d| d.severity == crate::diag::Severity::Error)
            .collect();
        eprintln!(
            "error: `{}` embeds the rules `{}`, which have {}; the first: {}",
            path.display(),
            record.ruleset.spec,
            crate::front::plural(errors.len(), "error"),
            errors.first().map_or_else(String::new, |d| {
                crate::diag::escape_control(&d.message).into_owned()
            })
        );
        crate::cli::EXIT_FAILURE
    })
}

fn load_embedded(record: &Record) -> crate::ruleset::Loaded {
    let files: Vec<(String, String)> = record
        .ruleset
        .files
        .iter()
        .map(|(n, t)| (n.clone(), t.clone()))
        .collect();
    crate::ruleset::load_embedded(&record.ruleset.spec, &files)
}

/// Which files differ between the rules a record embeds and those `rules` read (`texts`), each
/// named from the folder of its ruleset's top file (the record's spec, the file given): those
/// whose text changed, those the record does not hold, those of the record not read. None when
/// the record's spec is not one embedded file.
fn file_differences(
    path: &Path,
    record: &Record,
    rules: &Path,
    texts: &crate::cli::RuleTexts,
) -> Vec<String> {
    let files = &record.ruleset.files;
    if !files.contains_key(&record.ruleset.spec) {
        return Vec::new();
    }
    let record_dir = record_folder(path);
    let top = |p: &Path| lexical_absolute(p.parent().unwrap_or(Path::new("")));
    let (played_top, given_top) = (top(&record_dir.join(&record.ruleset.spec)), top(rules));
    let played: std::collections::BTreeMap<String, &String> = files
        .iter()
        .map(|(n, t)| {
            let abs = lexical_absolute(&record_dir.join(n));
            (relative_name(&played_top, &abs), t)
        })
        .collect();
    // The two top files are compared with each other, whatever their names.
    let played_name = relative_name(
        &played_top,
        &lexical_absolute(&record_dir.join(&record.ruleset.spec)),
    );
    let given_name = relative_name(&given_top, &lexical_absolute(rules));
    let given: std::collections::BTreeMap<String, &String> = texts
        .iter()
        .map(|(n, t)| {
            let name = relative_name(&given_top, &lexical_absolute(Path::new(n)));
            (
                if name == given_name {
                    played_name.clone()
                } else {
                    name
                },
                t,
            )
        })
        .collect();
    let escaped = |n: &str| crate::diag::escape_control(n).into_owned();
    let list = |names: Vec<&String>| {
        names
            .iter()
            .map(|n| {
                if **n == played_name && played_name != given_name {
                    format!("`{}` (the record's `{}`)", escaped(&given_name), escaped(n))
                } else {
                    format!("`{}`", escaped(n))
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let changed: Vec<&String> = given
        .iter()
        .filter(|(n, t)| played.get(*n).is_some_and(|p| p != *t))
        .map(|(n, _)| n)
        .collect();
    let new: Vec<&String> = given.keys().filter(|n| !played.contains_key(*n)).collect();
    let gone: Vec<&String> = played.keys().filter(|n| !given.contains_key(*n)).collect();
    let mut lines = Vec::new();
    if !changed.is_empty() {
        lines.push(format!("text changed: {}", list(changed)));
    }
    if !new.is_empty() {
        lines.push(format!("read, but not in the record: {}", list(new)));
    }
    if !gone.is_empty() {
        lines.push(format!("in the record, but not read: {}", list(gone)));
    }
    if lines.is_empty() {
        lines
            .push("the same files with the same text: a bundled file they build on differs".into());
    }
    lines
}

/// `yaku replay --rules FILE`: the ruleset of `rules` (a file the user names, read and reported
/// as any command's rule file) in place of the record's, and a note on what differs: whether
/// its rules are those the record was played with (by the embedded rules, or else the recorded
/// hash) and whether its id is the record's. Returns the ruleset the record was played with too,
/// when the record embeds it.
#[allow(clippy::type_complexity)]
fn other_rules(
    path: &Path,
    record: Record,
    rules: &Path,
) -> Result<(Record, Arc<Ruleset>, Option<Arc<Ruleset>>), i32> {
    let spec = rules.display().to_string();
    let (ruleset, _, texts) =
        crate::cli::load_ruleset_texts(&spec).ok_or(crate::cli::EXIT_FAILURE)?;
    let recorded = (!record.ruleset.files.is_empty())
        .then(|| {
            let loaded = load_embedded(&record);
            crate::cli::hand_over_to_wider(&loaded.diagnostics);
            loaded.value.map(Arc::new)
        })
        .flatten();
    let played = match &recorded {
        Some(r) => Some(hash_hex(r.content_hash)),
        None => record.ruleset.content_hash.clone(),
    };
    let now = hash_hex(ruleset.content_hash);
    let same = played.as_deref().is_some_and(|h| ruleset.same_rules(h));
    match &played {
        Some(_) if same => eprintln!(
            "note: `{spec}` holds the rules `{}` was played with",
            path.display()
        ),
        Some(h) => eprintln!(
            "note: the rules of `{spec}` differ from those `{}` was played with (hash {h}, `{spec}` {now}); replaying with `{spec}`",
            path.display()
        ),
        None => eprintln!(
            "note: the record gives no ruleset hash, so whether `{spec}` holds the rules it was played with is not known; replaying with `{spec}`"
        ),
    }
    if played.is_some() && !same {
        for line in file_differences(path, &record, rules, &texts) {
            eprintln!("  = note: {line}");
        }
    }
    if record.ruleset.id != ruleset.id {
        eprintln!(
            "note: the record is of ruleset `{}`, and `{spec}` is `{}`",
            record.ruleset.id,
            crate::diag::escape_control(&ruleset.id)
        );
    }
    Ok((record, ruleset, recorded))
}

/// Escapes control characters in a record's free text, which play and replay print (the players
/// as seat labels, the ruleset's id and spec in messages): a record is a file anyone may have
/// written, and a raw escape sequence in it could clear the screen or set the clipboard.
fn escape_record_text(record: &mut Record) {
    let escape = |s: &mut String| {
        if let std::borrow::Cow::Owned(e) = crate::diag::escape_control(s) {
            *s = e;
        }
    };
    record.players.iter_mut().for_each(escape);
    escape(&mut record.ruleset.id);
    escape(&mut record.ruleset.spec);
}

/// The rule files a record embeds (names from the current folder, as the loader read them), or
/// none, with a warning, when they are more than a record holds.
pub(super) fn embedded_files(
    texts: crate::cli::RuleTexts,
) -> std::collections::BTreeMap<String, String> {
    use crate::core::record::{MAX_EMBEDDED_FILES, MAX_EMBEDDED_SIZE};
    // As JSON writes them: escapes make a text longer, never shorter.
    let size: usize = texts
        .iter()
        .map(|(name, text)| {
            serde_json::to_string(name).map_or(0, |n| n.len())
                + serde_json::to_string(text).map_or(0, |t| t.len())
        })
        .sum();
    if texts.len() > MAX_EMBEDDED_FILES || size > MAX_EMBEDDED_SIZE {
        eprintln!(
            "warning: the rule files are too large to embed in the record ({} of {size} bytes; at most {MAX_EMBEDDED_FILES} files of {MAX_EMBEDDED_SIZE} bytes); it names them instead, so keep them beside it",
            crate::front::plural(texts.len(), "file")
        );
        return std::collections::BTreeMap::new();
    }
    texts.into_iter().collect()
}

/// `path` from the current folder (or absolute) as an absolute path, `.` and `..` resolved by
/// the words alone (no link followed, nothing read): the names of a record's embedded files.
fn lexical_absolute(path: &Path) -> PathBuf {
    let joined = std::env::current_dir().unwrap_or_default().join(path);
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// The absolute file `to` from the absolute folder `from`, with `..` where needed and `/`
/// between the parts.
fn relative_name(from: &Path, to: &Path) -> String {
    let (from, to): (Vec<_>, Vec<_>) = (from.components().collect(), to.components().collect());
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    std::iter::repeat_n("..".to_string(), from.len() - common)
        .chain(
            to[common..]
                .iter()
                .map(|c| c.as_os_str().to_string_lossy().into_owned()),
        )
        .collect::<Vec<_>>()
        .join("/")
}

/// The folder of a record at `path`, absolute ([`lexical_absolute`]).
fn record_folder(path: &Path) -> PathBuf {
    lexical_absolute(path.parent().unwrap_or(Path::new("")))
}

/// A record's embedded files and the spec's paths renamed by `rename`; bundled names and
/// settings in the spec are kept.
fn rename_files(record: &mut Record, rename: impl Fn(&str) -> String) {
    let files = std::mem::take(&mut record.ruleset.files);
    let spec = &record.ruleset.spec;
    record.ruleset.spec = if files.contains_key(spec) {
        rename(spec)
    } else {
        spec.split('+')
            .map(|part| {
                if files.contains_key(part) {
                    rename(part)
                } else {
                    part.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("+")
    };
    record.ruleset.files = files
        .into_iter()
        .map(|(name, text)| (rename(&name), text))
        .collect();
}

/// `record` as JSON to be written at `path`: the rule files its spec names (paths from the
/// current folder, as typed) made relative to `path`'s folder, which is where `replay` and
/// `--resume` read them from. A record that embeds its files names them, and the spec's paths,
/// from its folder too, with `..` where a file lies outside it (only names: replay reads the
/// embedded text).
pub(super) fn json_at(record: &Record, path: &Path) -> String {
    if !record.ruleset.files.is_empty() {
        return embedding_at(record, path).to_json() + "\n";
    }
    let spec = spec_at(&record.ruleset.spec, path).0;
    if spec == record.ruleset.spec {
        return record.to_json() + "\n";
    }
    let mut moved = record.clone();
    moved.ruleset.spec = spec;
    moved.to_json() + "\n"
}

/// A record that embeds its rule files as written at `path`: their names, and the spec's, from
/// `path`'s folder.
fn embedding_at(record: &Record, path: &Path) -> Record {
    let dir = record_folder(path);
    let mut moved = record.clone();
    rename_files(&mut moved, |name| {
        relative_name(&dir, &lexical_absolute(Path::new(name)))
    });
    moved
}

/// The spec of `record` as written at `path` ([`json_at`]).
pub(super) fn spec_written_at(record: &Record, path: &Path) -> String {
    if record.ruleset.files.is_empty() {
        spec_at(&record.ruleset.spec, path).0
    } else {
        embedding_at(record, path).ruleset.spec
    }
}

/// `spec` (rule files as paths from the current folder) with each rule file made relative to the
/// folder of a record written at `path`; and the rule files outside that folder, left as they are
/// (a record may not name them: see [`beside_record`]).
pub(super) fn spec_at(spec: &str, path: &Path) -> (String, Vec<String>) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Ok(dir) = dir.canonicalize() else {
        return (spec.to_string(), Vec::new());
    };
    let mut outside = Vec::new();
    let mut relative = |part: &str| -> String {
        let file = Path::new(part);
        if part.contains('=') || !file.is_file() {
            return part.to_string();
        }
        match file
            .canonicalize()
            .ok()
            .and_then(|f| f.strip_prefix(&dir).ok().map(Path::to_path_buf))
        {
            Some(rel) => rel.display().to_string(),
            None => {
                outside.push(part.to_string());
                part.to_string()
            }
        }
    };
    let spec = if !spec.contains('=') && Path::new(spec).is_file() {
        relative(spec)
    } else {
        spec.split('+')
            .map(&mut relative)
            .collect::<Vec<_>>()
            .join("+")
    };
    (spec, outside)
}

/// A record's spec with each rule file it names made to point beside the record: a record and
/// its rule file moved together load from any directory. A record is a file anyone may have
/// written, so it may name only bundled rulesets (and settings) and rule files in its own folder
/// or below: an absolute path or a `..` would let it read files of the replayer's machine.
/// `Err` says which part is refused, in words.
pub(super) fn beside_record(record: &Path, spec: &str) -> Result<String, String> {
    // A record in the current folder names its files as they are.
    let dir = record.parent().unwrap_or(Path::new(""));
    let beside = |part: &str| -> Result<String, String> {
        if part.contains('=') {
            return Ok(part.to_string());
        }
        let p = Path::new(part);
        let escapes = p.components().any(|c| {
            !matches!(
                c,
                std::path::Component::Normal(_) | std::path::Component::CurDir
            )
        });
        // A rule file beside the record first (it may share a bundled ruleset's name).
        if !escapes && dir.join(p).is_file() {
            return Ok(dir.join(p).display().to_string());
        }
        let bundled = part.strip_suffix(".toml").unwrap_or(part);
        if crate::ruleset::bundled::ruleset_names().any(|n| n == bundled) {
            return Ok(part.to_string());
        }
        if escapes {
            return Err(format!(
                "it names `{part}`, and a record may name only bundled rulesets and rule files in its own folder (no absolute path, no `..`)"
            ));
        }
        Ok(dir.join(p).display().to_string())
    };
    if !spec.contains('=') && dir.join(spec).is_file() {
        return beside(spec);
    }
    spec.split('+')
        .map(beside)
        .collect::<Result<Vec<_>, _>>()
        .map(|parts| parts.join("+"))
}

/// Loads the ruleset a record names. One that cannot be found is reported against the record (the
/// spec is not something the user typed); one with errors is reported without quoting the file
/// (a record from someone else must not make yaku print the replayer's files), with the command
/// that shows them. Errors are printed; the `Err` is the exit code.
fn record_ruleset(path: &Path, spec: &str) -> Result<Arc<Ruleset>, i32> {
    let beside = beside_record(path, spec).map_err(|why| {
        eprintln!(
            "error: `{}` was recorded with the ruleset `{spec}`, which is not loaded: {why}",
            path.display()
        );
        crate::cli::EXIT_FAILURE
    })?;
    let loaded = crate::ruleset::load_recorded(&beside);
    crate::cli::hand_over_to_wider(&loaded.diagnostics);
    let errors: Vec<&crate::diag::Diagnostic> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == crate::diag::Severity::Error)
        .collect();
    // The loader reports a spec it cannot open against the spec itself, not a file's text.
    let unopened = !errors.is_empty()
        && errors
            .iter()
            .all(|d| loaded.sources.get(d.loc.file).name == "<command line>");
    if unopened {
        eprintln!(
            "error: `{}` was recorded with the ruleset `{spec}`, which cannot be loaded: {}",
            path.display(),
            crate::diag::escape_control(&errors[0].message)
        );
        if let Some(help) = &errors[0].help {
            eprintln!("  = help: {}", crate::diag::escape_control(help));
        }
        eprintln!(
            "  = note: a record names its ruleset in `ruleset.spec` as it was given to `yaku play`; a path is read from the record's folder"
        );
        eprintln!(
            "  = help: `yaku replay {} --rules FILE` replays it with a rule file you name",
            path.display()
        );
        return Err(crate::cli::EXIT_FAILURE);
    }
    loaded.value.map(Arc::new).ok_or_else(|| {
        eprintln!(
            "error: the ruleset `{spec}` that `{}` was recorded with has {} (not shown here; `yaku validate {}` shows them)",
            path.display(),
            crate::front::plural(errors.len(), "error"),
            crate::diag::escape_control(&beside)
        );
        crate::cli::EXIT_FAILURE
    })
}
