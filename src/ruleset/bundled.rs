//! The rulesets, decks and scripts shipped in the binary, so a bundled ruleset plays from any directory.
//!
//! They form a small read-only file tree rooted at `rulesets/`; relative references inside bundled
//! files resolve within it exactly as they do on disk.

/// `(path under rulesets/, contents)` of every bundled file, in path order (listed by
/// `build.rs` from the `rulesets/` folder).
pub const FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/bundled_files.rs"));

/// The contents of a bundled file.
pub fn file(path: &str) -> Option<&'static str> {
    FILES
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, text)| *text)
}

/// The names of the bundled rulesets (`koikoi`, `house/sake-two-plains`, ...).
pub fn ruleset_names() -> impl Iterator<Item = &'static str> {
    FILES.iter().filter_map(|(p, _)| {
        let name = p.strip_suffix(".toml")?;
        (!name.starts_with("decks/") && !name.starts_with("strategies/")).then_some(name)
    })
}

/// The names of the bundled decks.
pub fn deck_names() -> impl Iterator<Item = &'static str> {
    FILES
        .iter()
        .filter_map(|(p, _)| p.strip_prefix("decks/")?.strip_suffix(".toml"))
}
