//! The integration tests of `yaku`: one test binary, one module per area.
//!
//! Cargo builds every top-level `tests/*.rs` file as its own test crate, which costs a link per
//! file; so this is the only top-level file, and each area is a module in a folder of its own
//! (`tests/<area>/mod.rs`). To add an area, create the folder and declare it below with a comment
//! saying what goes there. Helpers shared by all areas live in `common`.

/// Shared helpers: [`common::Yaku`], a builder that runs the real `yaku` binary.
mod common;

/// `yaku validate` and the ruleset language: the corpus of broken rule files with snapshots of
/// their rendered diagnostics, bundled rulesets and decks validating clean, `--json`, exit codes.
mod validate;

/// The ruleset language as a library (`load_str`, `expr::parse`): property tests that hostile
/// input never panics and always gets a located error, and that expressions print and parse
/// back to the same tree.
mod language;

/// `yaku score` and `yaku analyze`: documented examples, JSON shapes, errors, and hands played
/// through the core scoring the same through the binary.
mod score;

/// `yaku play`, `yaku replay` and `yaku sim` end to end: scripted games through piped input with
/// every prompt's error path, save and resume, records and replay, the full-screen table in a pseudo-terminal,
/// simulation determinism and JSON shape.
mod play;

/// The seat protocol through the binary: the guide's Python bot in `sim` and `play`, and a
/// program that fails losing its seat.
mod protocol;

/// `yaku serve` through the binary and headless Chromium: whole games in the browser table,
/// one browser against bots and two in one room; the abuse limits over real connections, the
/// operator's programs (the guide's Python bot) in rooms, and a short run of the load test.
mod serve;

/// Kol-ye-si through the binary: a human session from piped input, bot sessions, `sim` against
/// `analyze`, command-line table limits.
mod banker;

/// `yaku rules`: rule sheets of every bundled ruleset (snapshots), the HTML sheet measured in
/// headless Chromium, house-rule marks.
mod sheet;

/// Shell conventions: completions, man page, `yaku list`, exit codes in `--help`, colour.
mod shell;

/// Hostile and mistaken input: endless and huge files refused at a limit under `ulimit`, scripts
/// that cannot wait, `--record`/`--save` refusing the rules file, messages printed once.
mod limits;

/// Mutation fuzzing for a fixed time on the stable toolchain: the rule-file loader, the
/// expression parser and the record reader, from a seed corpus of the bundled files and short
/// games' records (`YAKU_FUZZ_SECS` for a longer run).
mod fuzz;

/// Issue 34, through the binary: writes only to regular files, atomically and never over an
/// input or another game; signals and file-size limits during play; terminal escapes and
/// leaks from records; bounded work on hostile files and input.
mod harm;

/// The guide under `docs/` and the README: every command in them runs, relative links resolve,
/// the summary lists every chapter, the key reference matches the key table.
mod docs;

/// `yaku lsp` over its standard streams: diagnostics as `validate` gives them, completion, hover
/// and go-to-definition across `extends`.
mod lsp;

/// Scoring compared with implementations no one here wrote, run from vendored copies: Scopa's
/// end-of-hand points against goblindegook/scopa (Node).
mod peers;
