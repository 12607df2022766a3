//! The keys of what a deal gives (`[[flow.deal_bonus]]`): a deal check whose effect is a
//! capture and a turn event for a seat. Apart from the deal checks' keys in `mod.rs` by size.

use super::*;

/// `[[flow.deal_bonus]]`.
pub static DEAL_BONUS: TableDef = table(
    "a deal bonus",
    "A deal check read on the dealt table whose effect is to capture table cards for a seat and/or count a turn event (a sweep) for it.",
    &[
        ID,
        ITS_NAME,
        key(
            "description",
            String,
            "What the table must hold, in words, for the rule sheet (a noun phrase: `four cards of one month`); without it the sheet words `when`, or shows it as written.",
        ),
        required(
            "when",
            Expr,
            "When the dealt table qualifies (the pile is the table; the table's facts and carried values).",
        ),
        key(
            "take",
            Expr,
            "The table cards the seat captures, a set read on the dealt table (`pile` takes the whole table); none without it.",
        ),
        choice(
            "to",
            &["dealer", "first_player", "holder"],
            "The seat that receives it: the dealer (the default), the seat that plays first, or the seat whose dealt hand holds `holder` (nobody, when no hand holds it).",
        ),
        key(
            "holder",
            String,
            "With `to = \"holder\"`: the card (its id) whose holder receives it.",
        ),
        key(
            "event",
            String,
            "A `[[flow.turn_event]]`'s id counted for the seat, as if its turn had fired it (its points at the hand's end; its `take` and `wins` act only on a turn).",
        ),
        key(
            "times",
            Int,
            "How many times `event` is counted (1 to 100; default 1).",
        ),
    ],
);
