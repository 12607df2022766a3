//! The expression language of rulesets: conditions and point formulas, parsed and checked once
//! when a ruleset loads and compiled to a tree over bitset card sets.
//!
//! Pipeline: `parser` (text → [`Expr`]), `check` (names and types → [`Program`]), `eval` (run);
//! `words` describes a tree in words for rule sheets.
//!
//! ```
//! use yaku::expr::{Context, Names, Type, compile_str};
//! let ruleset = yaku::ruleset::load("koikoi").value.unwrap();
//! let deck = &ruleset.deck;
//! let program = compile_str("count(bright) >= 3", Type::Bool, &Names::of(deck, &[])).unwrap();
//! let pile = deck.kind("bright").unwrap().cards;
//! assert!(program.truth(&Context { pile, facts: &[] }));
//! ```

mod ast;
mod check;
mod eval;
mod hand;
mod parser;
mod words;

pub use ast::{BinaryOp, Expr, ExprKind, UnaryOp};
pub use check::{FUNCTIONS, Names, check, compile};
pub use eval::{Context, Program};
pub use parser::{MAX_DEPTH, MAX_LEN, MAX_OPERATORS, parse};
pub use words::{Lexicon, SetWords, number_word, words};

use std::ops::Range;

/// The type of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    /// A whole number.
    Int,
    /// True or false.
    Bool,
    /// A set of cards.
    Set,
}

impl Type {
    /// The type's name in messages.
    pub fn describe(self) -> &'static str {
        match self {
            Type::Int => "a number",
            Type::Bool => "a condition",
            Type::Set => "a card set",
        }
    }
}

/// An error in an expression, located relative to the expression text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    /// What is wrong.
    pub message: String,
    /// Where, in bytes from the start of the expression.
    pub span: Range<usize>,
    /// A suggestion.
    pub help: Option<String>,
}

impl ExprError {
    fn new(message: impl Into<String>, span: Range<usize>) -> ExprError {
        ExprError {
            message: message.into(),
            span,
            help: None,
        }
    }

    fn with_help(mut self, help: Option<String>) -> ExprError {
        self.help = help;
        self
    }
}

/// Parses and compiles `text` as an expression of type `want`.
pub fn compile_str(text: &str, want: Type, names: &Names) -> Result<Program, Vec<ExprError>> {
    let expr = parse(text).map_err(|e| vec![e])?;
    compile(&expr, want, names)
}
