//! The ruleset language as a library: property tests that the loader and the expression parser
//! never panic, always explain a rejection with a located error, and print what they parse.
//!
//! - `load`: random bytes, mutated bundled rulesets, and extreme inputs through
//!   `yaku::ruleset::load_str`.
//! - `expr`: random expression trees printed with `Display` parse back to the same tree.
//!
//! Case counts are kept modest (a few hundred) so the suite stays quick on two cores; raise
//! them locally with `PROPTEST_CASES=10000 cargo test --test lib language`.

mod expr;
mod load;

/// A proptest configuration running `cases` cases, or `PROPTEST_CASES` when it is set.
fn config(cases: u32) -> proptest::test_runner::Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    proptest::test_runner::Config {
        cases,
        // Failing cases are kept beside the test (`expr.rs` -> `expr.regressions`) and replayed first.
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("regressions"),
        )),
        ..proptest::test_runner::Config::default()
    }
}
