//! `yaku`: a rules-as-data engine for matching card and tile games.
//!
//! A game is a TOML ruleset (deck, yaku table, flow options) with conditions and point formulas
//! in a small expression language and variant scoring in a sandboxed rhai script; one generic
//! core plays every ruleset.
//!
//! ```
//! let loaded = yaku::ruleset::load("koikoi");
//! let ruleset = loaded.value.expect("the bundled ruleset is valid");
//! let pile = ["pampas-moon", "chrysanthemum-sake"]
//!     .iter()
//!     .map(|id| ruleset.deck.card_by_id(id).unwrap())
//!     .collect();
//! let found = ruleset.yaku.evaluate(pile, &[1, 12, 0]);
//! assert_eq!(found.base(), 5); // tsukimi-zake
//! ```
//!
//! | module | what it owns |
//! |---|---|
//! | [`deck`] | cards, suits, kinds, and the `CardSet` bitset |
//! | [`expr`] | the expression language: parse, check, evaluate |
//! | [`fsio`] | bounded reads and atomic writes of files |
//! | [`ruleset`] | rule files: load, `extends`, validate, the checked model |
//! | [`yaku`] | the yaku table, distance to a yaku, and settlement of a won hand |
//! | [`script`] | the sandboxed rhai scoring scripts |
//! | [`core`] | the one game interface, seats, moves, the agent interface and driver, records of every family |
//! | [`families`] | the game families behind that interface (matching, banker, tricks), their one registry, and the banker family's exact analysis |
//! | [`agent`] | bots that choose from what their seat may see: `random`, `greedy`, `expert` |
//! | [`sim`] | batch bot runs of every family and their statistics |
//! | [`diag`] | located diagnostics and their rendering |
//! | [`sheet`] | rule sheets: a ruleset in words, as text, Markdown or HTML |
//! | [`front`] | what the front ends share: each family's table, seat tables, the validator's findings |
//! | [`lsp`] | the language server for rule files (`yaku lsp`) |
//! | [`serve`] | the browser table and its rooms (`yaku serve`) |
//! | [`cli`] | the `yaku` command line: the only place that prints |

#![deny(missing_docs)]

pub mod agent;
pub mod cli;
pub mod core;
pub mod deck;
pub mod diag;
pub mod expr;
pub mod families;
pub mod front;
pub mod fsio;
pub mod lsp;
pub mod ruleset;
pub mod script;
pub mod serve;
pub mod sheet;
pub mod sim;
pub mod yaku;

#[cfg(test)]
mod cycles;
#[cfg(test)]
mod layers;
#[cfg(test)]
mod sizes;
