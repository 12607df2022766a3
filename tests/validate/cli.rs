//! `yaku validate` as a command: exit codes, bundled files, `--json`.

use crate::common::Yaku;

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
        .current_dir(crate::common::root().join("tests/validate/good"))
        .run();
    out.expect_code(0);
    assert!(
        out.stdout.starts_with(
            "warning: group `specials` has only one yaku\n   --> lone-group.toml:10:9"
        ),
        "{}",
        out.stdout
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
    let readme = std::fs::read_to_string(crate::common::root().join("README.md")).unwrap();
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
    let dir = std::env::temp_dir().join(format!("yaku-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("my-koikoi.toml"), readme_house_rule()).unwrap();
    let out = Yaku::new(["validate", "my-koikoi.toml"])
        .current_dir(&dir)
        .run();
    let _ = std::fs::remove_dir_all(&dir);
    out.expect_code(0);
    assert_eq!(
        out.stdout,
        "my-koikoi.toml: ok (ruleset `my-koikoi`: 13 yaku, deck `hanafuda`)\n"
    );
}
