//! The corpus of broken rule files: each `broken/*.toml` holds one kind of mistake (said in its
//! first line) and its rendered diagnostics are kept as a snapshot in `snapshots/`.
//!
//! The real binary runs inside `broken/` with a relative file name, so the paths it prints are
//! the same on every machine. Review a changed snapshot by eye: every error of the file must be
//! there, located on the right line and column, with a help line where one helps.

use crate::common::Yaku;
use std::path::{Path, PathBuf};

/// The corpus folder.
fn corpus_dir() -> PathBuf {
    crate::common::root().join("tests/validate/broken")
}

/// The corpus entries: the `.toml` files directly in `broken/` (subfolders hold their bases).
fn entries() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("the corpus folder exists")
        .map(|e| e.expect("readable corpus entry").path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

/// The first line of a corpus file: `# what the mistake is`.
fn description(path: &Path) -> String {
    let bytes = std::fs::read(path).expect("readable corpus file");
    String::from_utf8_lossy(&bytes)
        .lines()
        .next()
        .unwrap_or("")
        .to_string()
}

/// Validates one corpus file the way a user would, from its folder.
fn validate(path: &Path) -> crate::common::Output {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .expect("file name");
    Yaku::new(["validate", name])
        .current_dir(path.parent().expect("corpus file has a folder"))
        .run()
}

#[test]
fn snapshots_of_every_broken_file() {
    insta::glob!("broken/*.toml", |path| {
        let out = validate(path);
        let what = description(path);
        insta::with_settings!({
            description => what,
            omit_expression => true,
            prepend_module_to_snapshot => false,
        }, {
            // Findings are on standard error, a good file's verdict on standard output.
            insta::assert_snapshot!("broken", format!("exit code: {}\n\n{}{}", out.code, out.stderr, out.stdout));
        });
    });
}

#[test]
fn the_corpus_has_thirty_distinct_described_mistakes() {
    let files = entries();
    assert!(files.len() >= 30, "only {} corpus files", files.len());
    let mut seen = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        if bytes.is_empty() {
            // `empty.toml` is the mistake of an empty file: it cannot say so.
            continue;
        }
        let what = description(f);
        assert!(
            what.starts_with("# ") && what.len() > 10,
            "{}: the first line must be a `# ` comment saying what the mistake is",
            f.display()
        );
        assert!(
            !seen.contains(&what),
            "{}: the same mistake twice: {what}",
            f.display()
        );
        seen.push(what);
    }
}

#[test]
fn every_broken_file_fails_with_located_errors() {
    for f in entries() {
        let out = validate(&f);
        let shown = f.display();
        assert_eq!(out.code, 1, "{shown}: exit code\n{}", out.stderr);
        assert!(out.stdout.is_empty(), "{shown}: stdout: {}", out.stdout);
        let errors =
            out.stderr.matches("\nerror: ").count() + out.stderr.starts_with("error: ") as usize;
        assert!(errors >= 1, "{shown}: no error printed\n{}", out.stderr);
        // Every error is located: `--> file:line:column`, never on the command line.
        let arrows: Vec<&str> = out
            .stderr
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("--> "))
            .collect();
        // (A related place in another file, "declared here", adds an arrow of its own.)
        assert!(
            arrows.len() >= errors,
            "{shown}: an error without a location\n{}",
            out.stderr
        );
        for a in arrows {
            let mut parts = a.rsplitn(3, ':');
            let (col, line) = (parts.next().unwrap(), parts.next().unwrap());
            assert!(
                col.parse::<usize>().is_ok_and(|c| c >= 1)
                    && line.parse::<usize>().is_ok_and(|l| l >= 1),
                "{shown}: bad location `{a}`"
            );
            assert!(
                !a.starts_with("<command line>"),
                "{shown}: located on the command line"
            );
        }
        // The summary line counts them.
        let name = f.file_name().unwrap().to_str().unwrap();
        let summary = format!(
            "{name}: {errors} error{}",
            if errors == 1 { "" } else { "s" }
        );
        assert!(
            out.stderr.ends_with(&format!("{summary}\n")),
            "{shown}: summary\n{}",
            out.stderr
        );
    }
}

/// The corpus of files that validate with warnings: `warned/*.toml`, each saying in its first
/// line what it shows.
fn warned_entries() -> Vec<PathBuf> {
    let dir = crate::common::root().join("tests/validate/warned");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the warned corpus folder exists")
        .map(|e| e.expect("readable corpus entry").path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

#[test]
fn snapshots_of_every_warned_file() {
    insta::glob!("warned/*.toml", |path| {
        let out = validate(path);
        let what = description(path);
        insta::with_settings!({
            description => what,
            omit_expression => true,
            prepend_module_to_snapshot => false,
        }, {
            insta::assert_snapshot!("warned", format!("exit code: {}\n\n{}{}", out.code, out.stderr, out.stdout));
        });
    });
}

#[test]
fn every_warned_file_validates_with_located_warnings() {
    for f in warned_entries() {
        let out = validate(&f);
        let shown = f.display();
        assert_eq!(out.code, 0, "{shown}: exit code\n{}", out.stderr);
        assert!(description(&f).starts_with("# "), "{shown}: describe it");
        let warnings = out.stderr.matches("warning: ").count();
        assert!(warnings >= 1, "{shown}: no warning\n{}", out.stderr);
        assert!(!out.stderr.contains("error: "), "{shown}\n{}", out.stderr);
        assert!(out.stdout.contains(": ok ("), "{shown}: {}", out.stdout);
    }
}
