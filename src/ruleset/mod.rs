//! Rulesets as data: loading TOML rule files (bundled or on disk), following `extends`, checking
//! everything at once with located diagnostics, and building the [`Ruleset`] the core plays.
//!
//! Pipeline: `toml_tree` (text → located tree), `load` (files, `extends` merging), `deck_file`
//! and `build` (tree → checked model), with each family's `[flow]` read by its own file under
//! `flow` (picked by `style` from one registry) on the vocabulary of `vocab`; `model` (what the
//! rest of yaku uses), `yaku_table` (the checked yaku table and the evaluation of a pile against
//! it, which [`crate::yaku`] builds settlement on); `keys` defines every key of the formats,
//! which the readers are held to and `schema` prints as JSON Schema.
//!
//! ```
//! // A house rule on top of a bundled ruleset, as `yaku play koikoi --with mine.toml` reads it.
//! let text = "[ruleset]\nid = \"mine\"\nextends = \"koikoi\"\n[flow]\nrounds = 6\n";
//! let loaded = yaku::ruleset::load_str("mine.toml", text);
//! assert!(loaded.diagnostics.is_empty());
//! assert_eq!(loaded.value.unwrap().id, "mine");
//!
//! // A mistake is located in its file.
//! let loaded = yaku::ruleset::load_str("bad.toml", "[ruleset]\nid = \"bad\"\nextends = \"koikoi\"\n[flow]\nroundz = 6\n");
//! assert!(loaded.value.is_none());
//! ```

mod build;
pub mod bundled;
pub mod combos;
mod deck_file;
mod fingerprint;
mod flow;
pub mod keys;
mod load;
mod loader;
mod model;
mod points;
mod reach;
mod reader;
mod schema;
mod toml_tree;
mod vocab;
mod yaku_table;

#[cfg(test)]
mod house_tests;
pub use load::{
    Loaded, is_deck_file, is_strategy_file, load, load_buffer, load_deck, load_deck_buffer,
    load_deck_named_in, load_embedded, load_pasted, load_recorded, load_str, normalize_relative,
};
pub use model::*;
pub use schema::{FileKind, json_schema, key_reference_markdown, kind_schema};
pub(crate) use yaku_table::ones;
pub use yaku_table::{MAX_YAKU, Yaku, YakuScore, YakuTable};
