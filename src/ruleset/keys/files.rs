//! The keys of the two rule files beside a ruleset: a deck file (its deck, suits and cards)
//! and a banker game's strategy file.

use super::*;

/// A deck file: the top level.
pub static DECK_FILE: TableDef = table(
    "a deck file",
    "A deck: suits of cards with kinds and numeric attributes.",
    &[
        required(
            "deck",
            Table(&DECK),
            "The deck's identity, kinds and attributes.",
        ),
        required("suit", Tables(&SUIT), "The suits, in order."),
    ],
);

/// `[deck]`.
pub static DECK: TableDef = table(
    "[deck]",
    "The deck's identity, kinds and attributes.",
    &[
        required(
            "id",
            String,
            "The deck's id: the name a ruleset's `deck` uses.",
        ),
        DISPLAY_NAME,
        key("description", String, "What it is."),
        key(
            "cards_per_suit",
            Int,
            "Cards in every suit (each suit may say `size` instead).",
        ),
        key(
            "suit_word",
            String,
            "Another name for `suit(n)` in expressions (`month`).",
        ),
        key("kinds", Strings, "The kinds cards may belong to."),
        key(
            "attributes",
            Strings,
            "Numeric attributes every card has (`points`, `pips`).",
        ),
        key(
            "packs",
            Int,
            "Identical packs the deck is made of, 1 to 8 (default 1): the cards listed are one pack; each suit holds them, then their copies (ids `<id>-p2`, `<id>-p3`, ..., alike in everything else).",
        ),
        KeyDef {
            values: &["hanafuda", "french", "italian", "kabufuda", "domino"],
            ..key(
                "art",
                String,
                "How the browser and the HTML rule sheet draw its card faces (display only): `hanafuda` (flower cards: the suit's plant, the card's mark), `french` and `italian` (the suit's pips, the rank from the card's `face`), `kabufuda` (the numeral from `face`), `domino` (two halves of pips from the suit's `short`, `6:6`). Without it, a face shows the suit's `short` and the card's `face` as text.",
            )
        },
    ],
);

/// `[[suit]]`.
pub static SUIT: TableDef = table(
    "[[suit]]",
    "A suit: a month of a flower deck, a tile face, a French suit.",
    &[
        required(
            "id",
            String,
            "The suit's id, usable as a card set in expressions.",
        ),
        DISPLAY_NAME,
        key(
            "short",
            String,
            "The suit on a card's tile, up to 6 characters (`Jan`, `6:6`, `♥`).",
        ),
        key(
            "colour",
            String,
            "The colour the suit's mark is drawn in, at the table and on card faces: `red`, `black`, `blue`, `green`, `gold` or `purple` (display only; French hearts and diamonds `red`).",
        ),
        key(
            "four_colour",
            String,
            "The colour the suit's mark is drawn in by a four-colour pack, which a player may choose at the browser's table (display only; French diamonds `blue` and clubs `green`, hearts and spades as `colour`). One of the names `colour` takes.",
        ),
        key("size", Int, "Cards in this suit."),
        key(
            "mark",
            String,
            "What the deck's `art` draws for this suit (display only): in `hanafuda` its plant (`pine`, `plum`, `cherry`, `wisteria`, `iris`, `peony`, `clover`, `pampas`, `chrysanthemum`, `maple`, `willow`, `paulownia`) or `bonus`; in `french` `hearts`, `diamonds`, `spades` or `clubs`; in `italian` `coins`, `cups`, `swords` or `batons`.",
        ),
        key(
            "aliases",
            Strings,
            "Other names of the suit accepted as input (`bells` for diamonds).",
        ),
        required("cards", Tables(&CARD), "The suit's cards."),
    ],
);

/// A card of a suit.
pub static CARD: TableDef = TableDef {
    extra: Extra::Ints,
    ..table(
        "a card",
        "A card: its id, name, kinds and a value for each attribute of the deck.",
        &[
            required("id", String, "The canonical id users type (`pampas-moon`)."),
            DISPLAY_NAME,
            key("kinds", Strings, "The kinds it belongs to."),
            key(
                "face",
                String,
                "The card on its tile under the suit, up to 6 characters (`Light`, `A`); default: its first kind.",
            ),
            key(
                "optional",
                Bool,
                "An optional card (a bonus card): in play only when a ruleset's `optional_cards` names it.",
            ),
            key(
                "mark",
                String,
                "What the deck's `hanafuda` art draws on the card (display only): `bright` (a red sun), `rain` (the Rain Man's bright), `animal`, `poem` (a red ribbon with writing), `blue` (a blue ribbon), `ribbon` (a plain red ribbon), `plain`, `double` or `triple` (a junk card counted two or three times). Default: `plain`.",
            ),
        ],
    )
};

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
