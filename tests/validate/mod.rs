//! `yaku validate`: what a rule author sees for good and broken rule files.
//!
//! - `corpus`: every file in `broken/*.toml` (one mistake each, said in its first line) is
//!   validated by the real binary and its output snapshot in `snapshots/`.
//! - `cli`: bundled rulesets and decks validate clean, `--json`, exit codes.
//!
//! Files under subfolders of `broken/` are not corpus entries: they are bases and scripts that
//! the entries refer to.

mod cli;
mod corpus;
