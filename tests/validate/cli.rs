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
