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
