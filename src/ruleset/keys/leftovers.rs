//! The keys of where the table's leftover cards go by rule (`[[flow.leftover_to]]`), apart
//! from `mod.rs` by size.

use super::*;

/// `[[flow.leftover_to]]`.
pub static LEFTOVER_TO: TableDef = table(
    "a leftover rule",
    "Where the table's leftover cards of a set go when the hands are played out, before the rest follow `leftover`.",
    &[
        required(
            "cards",
            Expr,
            "The cards it gives (a set: `rain`, `coins`), those of them left on the table.",
        ),
        choice(
            "to",
            &["holder", "last_capturer", "dealer"],
            "Who takes them: the seat whose captured pile holds `holder` (the default; nobody when no pile does, and they follow `leftover`), the seat that captured last, or the dealer.",
        ),
        key(
            "holder",
            String,
            "With `to = \"holder\"` (the default): the card (its id) whose captor takes them.",
        ),
    ],
);
