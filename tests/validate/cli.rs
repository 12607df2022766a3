//! `yaku validate` as a command: exit codes, bundled files, `--json`.

use crate::common::{TempDir, Yaku, root};
use yaku::ruleset::bundled;

/// A corpus file with exactly three mistakes, on lines 5, 9 and 10.
const THREE_MISTAKES: &str = "tests/validate/broken/three-mistakes.toml";

#[test]
fn every_bundled_ruleset_and_deck_validates_clean_by_name() {
    let names: Vec<&str> = bundled::ruleset_names()
        .chain(bundled::deck_names())
        .collect();
    assert!(
        names.contains(&"koikoi") && names.contains(&"hanafuda"),
        "{names:?}"
    );
    for name in names {
        let out = Yaku::new(["validate", name]).run();
        out.expect_code(0);
        // One line, no warnings: `koikoi: ok (ruleset `koikoi`: 13 yaku, deck `hanafuda`)`.
        assert!(
            out.stdout.starts_with(&format!("{name}: ok (")) && out.stdout.lines().count() == 1,
            "{name}: {}",
            out.stdout
        );
    }
}

#[test]
fn every_bundled_file_validates_clean_from_disk_too() {
    // The same files by path, so references inside them resolve on disk as they do bundled.
    let mut checked = 0;
    for (path, _) in bundled::FILES {
        if !path.ends_with(".toml") {
            continue;
        }
        let on_disk = format!("rulesets/{path}");
        let out = Yaku::new(["validate", on_disk.as_str()]).run();
        out.expect_code(0);
        assert!(
            out.stdout.starts_with(&format!("{on_disk}: ok (")),
            "{}",
            out.stdout
        );
        checked += 1;
    }
    assert!(checked >= 9, "only {checked} bundled rule files");
}

#[test]
fn all_names_in_one_run_exit_zero_and_one_bad_file_makes_it_one() {
    let mut args = vec!["validate".to_string()];
    args.extend(bundled::ruleset_names().map(String::from));
    Yaku::new(&args).run().expect_code(0);
    args.push(THREE_MISTAKES.to_string());
    let out = Yaku::new(&args).run();
    out.expect_code(1);
    assert!(out.stdout.contains("koikoi: ok ("), "{}", out.stdout);
    assert!(
        out.stderr
            .ends_with(&format!("{THREE_MISTAKES}: 3 errors\n")),
        "{}",
        out.stderr
    );
}

#[test]
fn three_mistakes_give_three_located_errors() {
    let out = Yaku::new(["validate", THREE_MISTAKES]).run();
    out.expect_code(1);
    let errors: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("error: "))
        .collect();
    assert_eq!(
        errors,
        [
            "error: unknown key `nmae` in `[ruleset]`",
            "error: unknown name `brigth`",
            "error: unknown function `cuont`",
        ]
    );
    let locations: Vec<&str> = out
        .stderr
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("--> "))
        .collect();
    assert_eq!(
        locations,
        [
            format!("{THREE_MISTAKES}:5:1"),
            format!("{THREE_MISTAKES}:9:15"),
            format!("{THREE_MISTAKES}:10:11"),
        ]
    );
    assert_eq!(
        out.stderr.matches("= help: did you mean").count(),
        3,
        "{}",
        out.stderr
    );
}

#[test]
fn json_output_parses_and_locates_each_error() {
    let out = Yaku::new(["validate", "--json", THREE_MISTAKES]).run();
    out.expect_code(1);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("--json is not JSON ({e}):\n{}", out.stdout));
    assert_eq!(doc["valid"], false);
    let file = &doc["files"][0];
    assert_eq!(file["file"], THREE_MISTAKES);
    assert_eq!(file["valid"], false);
    let found: Vec<(String, u64, u64, u64, u64, String)> = file["diagnostics"]
        .as_array()
        .expect("diagnostics is an array")
        .iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
                d["end_line"].as_u64().unwrap(),
                d["end_column"].as_u64().unwrap(),
                d["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let at = |line, column, end_column| {
        (
            THREE_MISTAKES.to_string(),
            line,
            column,
            line,
            end_column,
            "error".to_string(),
        )
    };
    assert_eq!(found, [at(5, 1, 5), at(9, 15, 21), at(10, 11, 16)]);
    assert_eq!(file["diagnostics"][1]["message"], "unknown name `brigth`");
    assert_eq!(file["diagnostics"][1]["help"], "did you mean `bright`?");
}

#[test]
fn json_output_of_clean_files() {
    let out = Yaku::new(["validate", "--json", "koikoi", "hanafuda"]).run();
    out.expect_code(0);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(doc["valid"], true);
    let files = doc["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    for f in files {
        assert_eq!(f["valid"], true, "{f}");
        assert_eq!(f["diagnostics"], serde_json::json!([]), "{f}");
    }
}

#[test]
fn a_name_that_is_neither_file_nor_bundled_fails_with_a_suggestion() {
    let out = Yaku::new(["validate", "koikio"]).run();
    out.expect_code(1);
    assert!(
        out.stderr
            .starts_with("error: no file or bundled ruleset named `koikio`"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("= help: did you mean `koikoi`?"),
        "{}",
        out.stderr
    );
}

#[test]
fn no_file_is_a_usage_error() {
    let out = Yaku::new(["validate"]).run();
    out.expect_code(2);
    assert!(out.stderr.contains("FILE_OR_NAME"), "{}", out.stderr);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
}

#[test]
fn unknown_option_is_a_usage_error() {
    let out = Yaku::new(["validate", "--jsno", "koikoi"]).run();
    out.expect_code(2);
    assert!(out.stderr.contains("--jsno"), "{}", out.stderr);
}

#[test]
fn a_group_of_one_in_the_file_is_a_warning_not_an_error() {
    let out = Yaku::new(["validate", "lone-group.toml"])
        .current_dir(root().join("tests/validate/good"))
        .run();
    out.expect_code(0);
    assert!(
        out.stderr.starts_with(
            "warning: group `specials` has only one yaku\n   --> lone-group.toml:10:9"
        ),
        "{}",
        out.stderr
    );
    assert!(
        out.stdout
            .ends_with("lone-group.toml: ok (ruleset `lone-group`: 14 yaku, deck `hanafuda`)\n"),
        "{}",
        out.stdout
    );
}

/// The first ```toml block under "## Writing a house rule" in README.md.
fn readme_house_rule() -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme
        .split("## Writing a house rule")
        .nth(1)
        .expect("README.md has a section on house rules");
    let block = section
        .split("```toml\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the section has a ```toml block");
    block.to_string()
}

#[test]
fn the_readme_house_rule_example_validates() {
    let dir = TempDir::new("readme");
    std::fs::write(dir.join("my-koikoi.toml"), readme_house_rule()).unwrap();
    let out = Yaku::new(["validate", "my-koikoi.toml"])
        .current_dir(&dir)
        .run();
    out.expect_code(0);
    assert_eq!(
        out.stdout,
        "my-koikoi.toml: ok (ruleset `my-koikoi`: 13 yaku, deck `hanafuda`)\n"
    );
}

#[test]
fn a_deck_header_with_spaces_and_a_comment_is_still_a_deck() {
    let out = Yaku::new(["validate", "deck-header-comment.toml"])
        .current_dir(root().join("tests/validate/good"))
        .run();
    out.expect_code(0);
    assert_eq!(
        out.stdout,
        "deck-header-comment.toml: ok (deck `tiny`: 4 cards in 2 suits)\n"
    );
}

#[test]
fn a_dash_reads_a_ruleset_from_standard_input() {
    let out = Yaku::new(["validate", "-"])
        .stdin("[ruleset]\nid = \"piped\"\nextends = \"koikoi\"\n")
        .run();
    out.expect_code(0);
    assert_eq!(
        out.stdout,
        "-: ok (ruleset `piped`: 13 yaku, deck `hanafuda`)\n"
    );
    let out = Yaku::new(["validate", "-"])
        .stdin("[ruleset]\nid = \"piped\"\nextends = \"koikoi\"\nnmae = \"x\"\n")
        .run();
    out.expect_code(1);
    assert!(out.stderr.contains("--> <stdin>:4:1"), "{}", out.stderr);
}

#[test]
fn a_directory_validates_every_rule_file_in_it() {
    let out = Yaku::new(["validate", "rulesets"]).run();
    out.expect_code(0);
    for file in [
        "rulesets/koikoi.toml",
        "rulesets/house/lightning-wild.toml",
        "rulesets/decks/gupai.toml",
        "rulesets/strategies/seed.toml",
    ] {
        assert!(
            out.stdout.contains(&format!("{file}: ok (")),
            "{}",
            out.stdout
        );
    }
    // Scripts are checked through the rule files that name them.
    assert!(!out.stdout.contains(".rhai"), "{}", out.stdout);
}

#[test]
fn a_script_file_is_compiled_as_a_script_not_read_as_toml() {
    let out = Yaku::new(["validate", "rulesets/scripts/koikoi.rhai"]).run();
    out.expect_code(0);
    assert!(
        out.stdout.contains("compiles and defines `fn score(hand)`"),
        "{}",
        out.stdout
    );
    let out = Yaku::new(["validate", "broken.rhai"])
        .current_dir(root().join("tests/validate/broken/scripts"))
        .run();
    out.expect_code(1);
    assert!(
        out.stderr.contains("scoring script does not compile"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("TOML"), "{}", out.stderr);
}

#[test]
fn a_deal_order_that_leaves_out_a_target_is_an_error() {
    // Dealing such an order never finishes: the player left out never receives a card.
    let dir = TempDir::new("deal-order");
    std::fs::write(
        dir.join("no-opponent.toml"),
        "[ruleset]\nid = \"no-opponent\"\nextends = \"koikoi\"\n\n[flow]\ndeal_order = [\"dealer\", \"table\"]\n",
    )
    .unwrap();
    let out = Yaku::new(["validate", "no-opponent.toml"])
        .current_dir(&dir)
        .run();
    out.expect_code(1);
    assert!(
        out.stderr
            .contains("error: `deal_order` leaves out `opponent`, which must receive cards"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("no-opponent.toml:6:15"),
        "{}",
        out.stderr
    );
    // With `table_size = 0` the table receives nothing: the order need not name it (issue 47),
    // and a game of bots deals each hand its ten cards.
    std::fs::write(
        dir.join("no-table.toml"),
        "[ruleset]\nid = \"no-table\"\nextends = \"scopone\"\n\n[flow]\ndeal_order = [\"dealer\", \"others\"]\n",
    )
    .unwrap();
    Yaku::new(["validate", "no-table.toml"])
        .current_dir(&dir)
        .run()
        .expect_code(0);
    Yaku::new([
        "sim",
        "no-table.toml",
        "--players",
        "random,random,random,random",
        "--games",
        "2",
    ])
    .current_dir(&dir)
    .run()
    .expect_code(0);
    // A table that is dealt cards must still be named.
    std::fs::write(
        dir.join("no-table-koikoi.toml"),
        "[ruleset]\nid = \"no-table-koikoi\"\nextends = \"koikoi\"\n\n[flow]\ndeal_order = [\"dealer\", \"opponent\"]\n",
    )
    .unwrap();
    let out = Yaku::new(["validate", "no-table-koikoi.toml"])
        .current_dir(&dir)
        .run();
    out.expect_code(1);
    assert!(out.stderr.contains("leaves out `table`"), "{}", out.stderr);
}

/// `--json` names each valid ruleset by id and content hash, as a game record does.
#[test]
fn json_gives_each_ruleset_s_id_and_content_hash() {
    let out = Yaku::new(["validate", "--json", "koikoi", "koikoi+house/three-rounds"]).run();
    out.expect_code(0);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let files = doc["files"].as_array().unwrap();
    assert_eq!(files[0]["ruleset"]["id"], "koikoi");
    assert_eq!(files[1]["ruleset"]["id"], "koikoi+koikoi-three-rounds");
    let hashes: Vec<&str> = files
        .iter()
        .map(|f| f["ruleset"]["content_hash"].as_str().unwrap())
        .collect();
    assert!(hashes.iter().all(|h| h.len() == 16), "{hashes:?}");
    assert_ne!(hashes[0], hashes[1]);
}

/// `--set NAME=unset` removes a key of the rule file, as `unset` does in a house rule: Koi-Koi's
/// twelve hands give way to a target score (issue 47); an option cannot be removed.
#[test]
fn set_unset_removes_a_key_of_the_rule_file() {
    let both = Yaku::new(["rules", "koikoi", "--set", "flow.target_score=30"]).run();
    both.expect_code(1);
    assert!(
        both.stderr.contains("`--set flow.rounds=unset`"),
        "{}",
        both.stderr
    );
    let out = Yaku::new([
        "sim",
        "koikoi",
        "--set",
        "flow.rounds=unset",
        "--set",
        "flow.target_score=30",
        "--games",
        "2",
        "--json",
    ])
    .run();
    out.expect_code(0);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(report["games"], 2);
    let option = Yaku::new(["rules", "koikoi", "--set", "seven_doubling=unset"]).run();
    option.expect_code(1);
    assert!(
        option
            .stderr
            .contains("only a key of the rule file can be removed"),
        "{}",
        option.stderr
    );
}
