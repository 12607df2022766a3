//! `yaku validate`: what a rule author sees for good and broken rule files.
//!
//! - `corpus`: every file in `broken/*.toml` (one mistake each, said in its first line) is
//!   validated by the real binary and its output snapshot in `snapshots/`.
//! - `cli`: bundled rulesets and decks validate clean, `--json`, exit codes, the README example,
//!   and the valid-but-unusual files in `good/`.
//! - `schema`: `yaku schema` accepts every bundled file and rejects what the loader rejects.
//!
//! Files under subfolders of `broken/` are not corpus entries: they are bases and scripts that
//! the entries refer to. To add a mistake, add `broken/<what>.toml` starting with a `# ` comment,
//! run `cargo insta test --review` (or `INSTA_UPDATE=always cargo test`), and read the new
//! snapshot: every error located, with a help line where one helps.

mod cli;
mod corpus;
mod schema;
