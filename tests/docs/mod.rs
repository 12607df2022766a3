//! The guide (`docs/`, an mdBook) and the README cannot drift from the program: every `yaku`
//! command in a `sh` block runs, every relative link resolves, `SUMMARY.md` lists every chapter,
//! the key reference is the one `yaku schema --format markdown` generates, and `.ci/run` runs the
//! README's test command.
//!
//! `.ci/run` also builds the book with mdBook (`mdbook build docs`), which it installs from
//! crates.io where it is missing.

use crate::common::{TempDir, Yaku, root};
use std::path::{Path, PathBuf};

/// Every Markdown file of the guide, and the README and changelog.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md"), root().join("CHANGELOG.md")];
    let mut dirs = vec![root().join("docs/src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The targets of the Markdown links `[text](target)` outside code, with their line numbers.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Inline code spans are not links.
        let outside_code: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = outside_code.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            found.push((n + 1, after[..end].to_string()));
            rest = &after[end..];
        }
    }
    found
}

#[test]
fn relative_links_resolve() {
    let mut broken = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") || target.starts_with('#') {
                continue;
            }
            let file = target.split('#').next().unwrap();
            let path = doc.parent().unwrap().join(file);
            if !path.exists() {
                broken.push(format!("{}:{line}: {target}", relative(&doc)));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_summary_lists_every_chapter() {
    let src = root().join("docs/src");
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).unwrap();
    let listed: Vec<String> = links(&summary).into_iter().map(|(_, t)| t).collect();
    for target in &listed {
        assert!(
            src.join(target).is_file(),
            "SUMMARY.md lists a missing {target}"
        );
    }
    for doc in documents() {
        let Ok(chapter) = doc.strip_prefix(&src) else {
            continue;
        };
        let chapter = chapter.display().to_string();
        assert!(
            chapter == "SUMMARY.md" || listed.contains(&chapter),
            "SUMMARY.md does not list {chapter}"
        );
    }
    assert!(root().join("docs/book.toml").is_file());
}

#[test]
fn the_key_reference_is_generated_from_the_key_table() {
    let page = root().join("docs/src/authors/keys.md");
    let written = std::fs::read_to_string(&page).unwrap();
    let generated = Yaku::new(["schema", "--format", "markdown"])
        .expect(0)
        .stdout;
    assert!(
        written == generated,
        "docs/src/authors/keys.md has drifted from src/ruleset/keys.rs; regenerate it with\n  \
         cargo run -- schema --format markdown -o docs/src/authors/keys.md"
    );
}

/// The server's page lists every limit of `yaku serve --limits` with its default.
#[test]
fn the_server_page_lists_every_limit_with_its_default() {
    let page = std::fs::read_to_string(root().join("docs/src/players/server.md")).unwrap();
    let limits = Yaku::new(["serve", "--limits"]).expect(0).stdout;
    let mut listed = 0;
    for line in limits.lines().filter(|l| l.contains(" = ")) {
        let (name, value) = line.split_once(" = ").unwrap();
        let row = format!("| `{name}` | {} |", value.trim_matches('"'));
        assert!(
            page.contains(&row),
            "docs/src/players/server.md does not list `{row}`"
        );
        listed += 1;
    }
    assert!(listed > 20, "{limits}");
}

#[test]
fn ci_runs_the_readme_test_command() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let setup = readme
        .split("## Set up")
        .nth(1)
        .expect("README.md has a set-up section");
    let block = setup
        .split("```sh\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let commands: Vec<&str> = block
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .collect();
    assert_eq!(commands.len(), 2, "two set-up commands: {commands:?}");
    assert_eq!(commands[0], "cargo run --release -- play koikoi");
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(
        ci.lines().any(|l| l.trim() == commands[1]),
        ".ci/run does not run the README's test command `{}`",
        commands[1]
    );
}

/// A command of a `sh` block: where it is, and its words.
struct Example {
    place: String,
    words: Vec<String>,
}

/// The lines of `sh` blocks that start with `yaku ` (continued lines joined, comments dropped).
fn examples(doc: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(doc).unwrap();
    let mut found = Vec::new();
    let mut in_sh = false;
    let mut pending: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_sh = !in_sh && trimmed == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let (start, mut command) = match pending.take() {
            Some((start, so_far)) => (start, so_far + " " + trimmed),
            None if trimmed.starts_with("yaku ") => (n + 1, trimmed.to_string()),
            None => continue,
        };
        if let Some(stripped) = command.strip_suffix('\\') {
            pending = Some((start, stripped.trim_end().to_string()));
            continue;
        }
        if let Some(at) = command.find(" #") {
            command.truncate(at);
        }
        found.push(Example {
            place: format!("{}:{start}", relative(doc)),
            words: command
                .split_whitespace()
                .skip(1)
                .map(String::from)
                .collect(),
        });
    }
    found
}

/// Why an example is not run as written, if it is not: the allow-list.
///
/// - `yaku play` with a person at a seat (the default seats one) waits for that person: not run.
/// - `yaku play` with bots only is run for one hand (`--rounds 1`), and `yaku sim` for two games
///   of one hand (`--games 2 --rounds 1`): the debug build would take minutes for the figures
///   the guide quotes.
/// - `yaku replay FILE` steps on each Enter: run with `--to-end`.
/// - `yaku serve` runs until stopped: not run.
/// - `yaku learn` seats a person: not run (tests/play/learn.rs plays it).
fn adapt(example: &mut Example) -> Option<&'static str> {
    let words = &mut example.words;
    match words.first().map(String::as_str) {
        Some("learn") => return Some("interactive"),
        Some("play") => {
            let players = words
                .iter()
                .position(|w| w == "--players")
                .and_then(|i| words.get(i + 1));
            if players.is_none_or(|p| p.split(',').any(|p| p == "human")) {
                return Some("interactive");
            }
            words.extend(["--rounds".into(), "1".into()]);
        }
        Some("sim") => {
            match words.iter().position(|w| w == "--games") {
                Some(i) => words[i + 1] = "2".into(),
                None => words.extend(["--games".into(), "2".into()]),
            }
            words.extend(["--rounds".into(), "1".into()]);
        }
        // A server runs until it is stopped (tests/serve drives it).
        Some("serve") => return Some("a server"),
        Some("replay") if !words.iter().any(|w| w == "--json" || w == "--to-end") => {
            words.push("--to-end".into());
        }
        _ => {}
    }
    None
}

#[test]
fn every_command_in_the_guide_runs() {
    let dir = TempDir::new("docs-examples");
    // The README's house rule, which its commands use.
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let house = readme
        .split("## Writing a house rule")
        .nth(1)
        .and_then(|s| s.split("```toml\n").nth(1))
        .and_then(|b| b.split("```").next())
        .expect("README shows a house rule");
    dir.write("my-koikoi.toml", house);
    // The test rulesets and positions the guide shows (`tests/rulesets/`, `tests/positions/`),
    // at the same paths.
    // Their folders too (a test ruleset's scripts).
    let mut folders = vec!["tests/rulesets".to_string(), "tests/positions".to_string()];
    while let Some(folder) = folders.pop() {
        std::fs::create_dir_all(dir.join(&folder)).unwrap();
        for entry in std::fs::read_dir(root().join(&folder)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                folders.push(format!("{folder}/{name}"));
            } else {
                dir.write(&format!("{folder}/{name}"), std::fs::read(&path).unwrap());
            }
        }
    }
    let (mut ran, mut skipped) = (0, Vec::new());
    for doc in documents() {
        for mut example in examples(&doc) {
            if let Some(why) = adapt(&mut example) {
                skipped.push(format!("{} ({why})", example.place));
                continue;
            }
            let out = Yaku::new(example.words.iter().map(String::as_str))
                .current_dir(&dir)
                .run();
            assert_eq!(
                out.code,
                0,
                "{}: `yaku {}` failed:\n{}{}",
                example.place,
                example.words.join(" "),
                out.stdout,
                out.stderr
            );
            ran += 1;
        }
    }
    assert!(ran >= 20, "only {ran} commands found");
    eprintln!("ran {ran} commands; not run: {}", skipped.join(", "));
}
