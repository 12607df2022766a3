//! The keys of a strategy file (a banker game's bets and draws): split from `keys` by size.

use super::*;

/// A strategy file: the top level.
pub static STRATEGY_FILE: TableDef = table(
    "a strategy file",
    "A banker-game strategy: bets and draws, with exceptions by first tile, total or whole hand.",
    &[required("strategy", Table(&STRATEGY), "The strategy.")],
);

/// Bet words of a strategy.
const BETS: &[&str] = &["min", "max", "best"];

/// An exception's bet: chips or a word.
const EXCEPTION_BET: KeyDef = KeyDef {
    values: BETS,
    ..key("bet", IntOrWord, "Chips, or \"min\", \"max\", \"best\".")
};

/// An exception's draw: tiles or `best`.
const EXCEPTION_DRAW: KeyDef = KeyDef {
    values: &["best"],
    ..key("draw", IntOrWord, "Tiles to take, or \"best\".")
};

/// `[strategy]`.
pub static STRATEGY: TableDef = table(
    "[strategy]",
    "A banker-game strategy.",
    &[
        required("name", String, "The strategy's name."),
        required(
            "deck",
            String,
            "The deck its tile names come from: a bundled deck (`gupai`) or a deck file next to the strategy (`my-deck`).",
        ),
        key("description", String, "What it does."),
        KeyDef {
            values: BETS,
            ..required("bet", IntOrWord, "Chips, or \"min\", \"max\", \"best\".")
        },
        KeyDef {
            values: &["best"],
            ..required("draw", IntOrWord, "Tiles to take, or \"best\".")
        },
        key(
            "tile",
            Tables(&STRATEGY_TILE),
            "Exceptions by the first tile: a tile name, suit id or card id.",
        ),
        key(
            "total",
            Tables(&STRATEGY_TOTAL),
            "Exceptions by the hand's total (the ruleset's `value`).",
        ),
        key(
            "hand",
            Tables(&STRATEGY_HAND),
            "Exceptions by the whole hand: its tiles.",
        ),
    ],
);

/// `[[strategy.total]]`.
pub static STRATEGY_TOTAL: TableDef = table(
    "[[strategy.total]]",
    "An exception for the hands of some totals (the ruleset's `value` of the hand held when deciding); the first exception in the file that holds counts.",
    &[
        required(
            "total",
            IntOrInts,
            "A total, or a list of totals (`[5, 6]`).",
        ),
        EXCEPTION_BET,
        EXCEPTION_DRAW,
    ],
);

/// `[[strategy.hand]]`.
pub static STRATEGY_HAND: TableDef = table(
    "[[strategy.hand]]",
    "An exception for one whole hand: exactly the tiles named, in any order; the first exception in the file that holds counts.",
    &[
        required(
            "tiles",
            Strings,
            "The hand's tiles, each a tile name (`[6:5]`), suit id or card id.",
        ),
        EXCEPTION_BET,
        EXCEPTION_DRAW,
    ],
);

/// `[[strategy.tile]]`.
pub static STRATEGY_TILE: TableDef = table(
    "[[strategy.tile]]",
    "An exception for the hands whose first tile (in the deck's order) is the one named; the first exception in the file that holds counts.",
    &[
        required("tile", String, "A tile name (`[6:5]`), suit id or card id."),
        EXCEPTION_BET,
        EXCEPTION_DRAW,
    ],
);
