//! Rulesets as data: loading TOML rule files (bundled or on disk), following `extends`, checking
//! everything at once with located diagnostics, and building the [`Ruleset`] the core plays.
//!
//! Pipeline: `toml_tree` (text → located tree), `load` (files, `extends` merging), `deck_file`
//! and `build` (tree → checked model), `model` (what the rest of yaku uses); `keys` defines every
//! key of the formats, which the readers are held to and `schema` prints as JSON Schema.

mod build;
pub mod bundled;
mod deck_file;
pub mod keys;
mod load;
mod model;
mod points;
mod reach;
mod reader;
mod schema;
mod toml_tree;

#[cfg(test)]
mod house_tests;
pub use load::{Loaded, is_deck_file, is_strategy_file, load, load_deck, load_recorded, load_str};
pub use model::*;
pub use schema::{FileKind, json_schema, kind_schema};
