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

/// The test ruleset of melds at every moment: the sheet says when each meld is shown (before
/// leading, by leading one of its cards, by the winner of a trick before the draw), where its
/// points go, and that a card shown in a class does not count again in it.
#[test]
fn the_sheet_says_each_melds_moment() {
    let path = crate::common::root().join("tests/rulesets/meld-moments.toml");
    let out = Yaku::new(["rules", path.to_str().unwrap()]).expect(0);
    let play = out
        .stdout
        .split("\nPlay\n----\n")
        .nth(1)
        .and_then(|s| s.split("\nScoring\n").next())
        .expect("a Play section");
    insta::with_settings!({ omit_expression => true, prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("meld-moments-play-text", play);
    });
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
    // A rule the base does not have is new.
    assert!(
        out.stdout
            .contains("[new] Wild: the Lightning matches any card."),
        "{}",
        out.stdout
    );
    // A rule of the base the house rule replaces is new, and the base's is removed.
    let out = Yaku::new(["rules", "house/pinochle-declarer-leads"]).expect(0);
    assert!(
        out.stdout.contains("[new] The declarer leads first."),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("[removed] The player after the dealer leads first."),
        "{}",
        out.stdout
    );
    let out = Yaku::new(["rules", "house/three-rounds"]).expect(0);
    let dropped = out
        .stdout
        .split("that no longer apply")
        .nth(1)
        .unwrap_or_default();
    // A rule whose words changed in place is shown once, as changed, not also as dropped.
    assert!(
        out.stdout.contains("[changed] A game is 3 hands"),
        "{}",
        out.stdout
    );
    assert!(!dropped.contains("A game is 12 hands"), "{}", out.stdout);
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
    assert!(!out.stdout.contains("[new]") && !out.stdout.contains("[removed]"));
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

/// The words the text sheet must hold for each mechanism a ruleset uses: every yaku, tally,
/// declaration, turn event, instant win, redeal and option by its name, and stacks, bonus
/// cards, wild cards and the table count by their headings.
fn mechanism_names(r: &yaku::ruleset::Ruleset) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    names.extend(r.yaku.yaku.iter().map(|y| y.name.clone()));
    names.extend(r.tallies.iter().map(|t| t.name.clone()));
    names.extend(r.declarations.iter().map(|d| d.name.clone()));
    names.extend(r.options.iter().map(|o| format!("`{}`", o.id)));
    if let Some(flow) = r.matching() {
        names.extend(flow.turn_events.iter().map(|e| e.name.clone()));
        names.extend(flow.instant_wins.iter().map(|c| c.name.clone()));
        names.extend(flow.redeals.iter().map(|c| c.name.clone()));
        if flow.stacks {
            names.push("Stacks:".into());
        }
        if !flow.bonus.is_empty() {
            names.push("Bonus cards:".into());
        }
        if !flow.wild.is_empty() {
            names.push("Wild:".into());
        }
        if flow.table_count.is_some() {
            names.push("Table count:".into());
        }
        if !flow.give.is_empty() && flow.turn_events.iter().any(|e| e.take > 0) {
            names.push("Giving cards:".into());
        }
    }
    if let Some(flow) = r.banker() {
        names.extend(flow.banker_wins.iter().map(|c| c.name.clone()));
    }
    names
}

#[test]
fn every_sheet_describes_every_mechanism_its_ruleset_uses() {
    let mut missing = Vec::new();
    for name in bundled() {
        let r = yaku::ruleset::load(name).value.unwrap();
        // Unwrapped, so that a name split over two lines is found.
        let sheet = yaku::sheet::text_sheet(&r)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for mechanism in mechanism_names(&r) {
            let wanted = mechanism.split_whitespace().collect::<Vec<_>>().join(" ");
            if !sheet.contains(&wanted) {
                missing.push(format!("{name}: {mechanism}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "sheets leave out:\n{}",
        missing.join("\n")
    );
}

#[test]
fn wording_fits_any_table_and_any_rule() {
    let sheet = |spec: &str| Yaku::new(["rules", spec]).expect(0).stdout;
    // Three players: no "both hands".
    let gostop = sheet("gostop");
    assert!(!gostop.contains("both hands"), "{gostop}");
    assert!(gostop.contains("every hand runs out"), "{gostop}");
    for word in ["Jjok", "Ppeok", "Sseul", "Tallies", "Junk (pi)"] {
        assert!(gostop.contains(word), "{word}: {gostop}");
    }
    // One hand, not "1 hands".
    let one = sheet("koikoi+flow.rounds=1");
    assert!(one.contains("A game is one hand;"), "{one}");
    // Schnapsen without closing: the stock is only ever gone.
    let dir = crate::common::TempDir::new("sheet-wording");
    dir.write(
        "no-close.toml",
        "remove_declaration = [\"close\"]\n[ruleset]\nid = \"no-close\"\nextends = \"schnapsen\"\n",
    );
    let no_close = Yaku::new(["rules", "no-close.toml"])
        .current_dir(&dir)
        .expect(0)
        .stdout;
    assert!(!no_close.contains("gone or closed"), "{no_close}");
    assert!(no_close.contains("once it is gone,"), "{no_close}");
    // A yaku without a description has no empty brackets.
    dir.write(
        "bare.toml",
        "[ruleset]\nid = \"bare\"\nextends = \"koikoi\"\n[[yaku]]\nid = \"moon\"\nname = \"Moon alone\"\nwhen = \"has(pampas-moon)\"\npoints = \"50\"\n",
    );
    let bare = Yaku::new(["rules", "bare.toml"])
        .current_dir(&dir)
        .expect(0)
        .stdout;
    assert!(bare.contains("Moon alone: the Moon — 50 points."), "{bare}");
    assert!(!bare.contains("()"), "{bare}");
    // Packets of one are dealt "one at a time".
    let schnapsen = sheet("schnapsen");
    assert!(!schnapsen.contains("then one then"), "{schnapsen}");
}
