//! The rulesets, decks and scripts shipped in the binary, so `yaku play koikoi` works anywhere.
//!
//! They form a small read-only file tree rooted at `rulesets/`; relative references inside bundled
//! files resolve within it exactly as they do on disk.

/// `(path under rulesets/, contents)` of every bundled file.
pub const FILES: &[(&str, &str)] = &[
    (
        "decks/french-20.toml",
        include_str!("../../rulesets/decks/french-20.toml"),
    ),
    (
        "decks/french-24.toml",
        include_str!("../../rulesets/decks/french-24.toml"),
    ),
    (
        "decks/gupai.toml",
        include_str!("../../rulesets/decks/gupai.toml"),
    ),
    (
        "decks/hanafuda.toml",
        include_str!("../../rulesets/decks/hanafuda.toml"),
    ),
    (
        "house/dealer-privilege.toml",
        include_str!("../../rulesets/house/dealer-privilege.toml"),
    ),
    (
        "house/kolyesi-wild-supreme.toml",
        include_str!("../../rulesets/house/kolyesi-wild-supreme.toml"),
    ),
    (
        "house/lightning-wild.toml",
        include_str!("../../rulesets/house/lightning-wild.toml"),
    ),
    (
        "house/no-seven-doubling.toml",
        include_str!("../../rulesets/house/no-seven-doubling.toml"),
    ),
    (
        "house/sake-two-plains.toml",
        include_str!("../../rulesets/house/sake-two-plains.toml"),
    ),
    (
        "house/schnapsen-must-head.toml",
        include_str!("../../rulesets/house/schnapsen-must-head.toml"),
    ),
    (
        "house/sechsundsechzig.toml",
        include_str!("../../rulesets/house/sechsundsechzig.toml"),
    ),
    (
        "koikoi-classic.toml",
        include_str!("../../rulesets/koikoi-classic.toml"),
    ),
    (
        "koikoi-ktane.toml",
        include_str!("../../rulesets/koikoi-ktane.toml"),
    ),
    ("koikoi.toml", include_str!("../../rulesets/koikoi.toml")),
    ("kolyesi.toml", include_str!("../../rulesets/kolyesi.toml")),
    (
        "schnapsen.toml",
        include_str!("../../rulesets/schnapsen.toml"),
    ),
    (
        "scripts/koikoi-classic.rhai",
        include_str!("../../rulesets/scripts/koikoi-classic.rhai"),
    ),
    (
        "scripts/koikoi-ktane.rhai",
        include_str!("../../rulesets/scripts/koikoi-ktane.rhai"),
    ),
    (
        "scripts/koikoi.rhai",
        include_str!("../../rulesets/scripts/koikoi.rhai"),
    ),
    (
        "scripts/schnapsen.rhai",
        include_str!("../../rulesets/scripts/schnapsen.rhai"),
    ),
    (
        "strategies/always-one.toml",
        include_str!("../../rulesets/strategies/always-one.toml"),
    ),
    (
        "strategies/always-two.toml",
        include_str!("../../rulesets/strategies/always-two.toml"),
    ),
    (
        "strategies/best-fixed.toml",
        include_str!("../../rulesets/strategies/best-fixed.toml"),
    ),
    (
        "strategies/best.toml",
        include_str!("../../rulesets/strategies/best.toml"),
    ),
    (
        "strategies/seed.toml",
        include_str!("../../rulesets/strategies/seed.toml"),
    ),
];

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
