//! `yaku rules`: the rule sheet of every bundled ruleset as text and Markdown (snapshots), the
//! HTML page rendered and measured in a real headless browser, house rules marking what they
//! change, and errors.

mod browser;

use crate::common::{TempDir, Yaku};

/// Every bundled ruleset by the name users type.
fn bundled() -> Vec<&'static str> {
    yaku::ruleset::bundled::ruleset_names().collect()
}

#[test]
fn text_and_markdown_sheets_of_every_bundled_ruleset() {
    for name in bundled() {
        for format in ["text", "markdown"] {
            let out = Yaku::new(["rules", name, "--format", format]).expect(0);
            assert!(out.stderr.is_empty(), "{name}: {}", out.stderr);
            let snapshot = format!("{}-{format}", name.replace('/', "-"));
            insta::with_settings!({ omit_expression => true, prepend_module_to_snapshot => false }, {
                insta::assert_snapshot!(snapshot, out.stdout);
            });
        }
    }
}

#[test]
fn no_sheet_shows_a_source_file_id() {
    for name in bundled() {
        for format in ["text", "markdown", "html"] {
            let out = Yaku::new(["rules", name, "--format", format]).expect(0);
            for id in ["000", "001", "002", "003", "004"] {
                // The id as a word of its own (`003 Play`, `003_08b1...`), not inside `1000`.
                let shown = out.stdout.match_indices(id).any(|(at, _)| {
                    let before = out.stdout[..at].chars().next_back();
                    let after = out.stdout[at + id.len()..].chars().next();
                    !before.is_some_and(|c| c.is_ascii_digit())
                        && !after.is_some_and(|c| c.is_ascii_digit())
                });
                assert!(!shown, "{name} ({format}) shows {id}");
            }
        }
    }
}

#[test]
fn a_house_rule_marks_what_it_changes_and_what_it_drops() {
    let out = Yaku::new(["rules", "house/lightning-wild"]).expect(0);
    assert!(
        out.stdout.contains("Based on Koi-Koi (standard)"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("[changed] Wild: the Lightning matches any card."),
        "{}",
        out.stdout
    );
    let out = Yaku::new(["rules", "house/three-rounds"]).expect(0);
    let dropped = out
        .stdout
        .split("that no longer apply")
        .nth(1)
        .expect("a section of dropped rules");
    assert!(dropped.contains("A game is 12 hands"), "{}", out.stdout);
    // An option the house rule switches off is marked where the options are listed.
    let out = Yaku::new(["rules", "house/no-seven-doubling"]).expect(0);
    assert!(
        out.stdout.contains("- [changed] `seven_doubling`: off."),
        "{}",
        out.stdout
    );
    // The standard rules are no house rule: nothing is marked.
    let out = Yaku::new(["rules", "koikoi"]).expect(0);
    assert!(!out.stdout.contains("[changed]"));
}

#[test]
fn output_goes_to_a_file_and_an_unknown_ruleset_is_an_error() {
    let dir = TempDir::new("sheet");
    let file = dir.join("koikoi.md");
    let out = Yaku::new(["rules", "koikoi", "--format", "markdown", "--output"])
        .arg(file.display().to_string())
        .expect(0);
    assert!(out.stdout.is_empty());
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.starts_with("# Koi-Koi (standard)"), "{written}");

    let out = Yaku::new(["rules", "koikoy"]).expect(1);
    assert!(out.stderr.contains("error"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
    Yaku::new(["rules", "koikoi", "--format", "pdf"]).expect(2);
}
