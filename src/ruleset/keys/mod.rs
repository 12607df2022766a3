//! Every key of the rule-file formats (ruleset, deck, strategy) with its type, description and
//! allowed values: the one definition `yaku schema` prints as JSON Schema and the loader's
//! readers are held to (reading a key not defined here fails in debug builds), so the two
//! cannot drift.

/// What a key holds.
#[derive(Clone, Copy, Debug)]
pub enum KeyType {
    /// A string; with `values`, one of them.
    String,
    /// An expression in the expression language, as a string.
    Expr,
    /// An integer.
    Int,
    /// An integer or one of the `values` strings.
    IntOrWord,
    /// `true` or `false`.
    Bool,
    /// An integer, or `true` or `false`.
    IntOrBool,
    /// A list of strings (one of `values` each, when given).
    Strings,
    /// A list of integers.
    Ints,
    /// An integer, or a list of integers.
    IntOrInts,
    /// A list of lists of integers (`teams = [[0, 2], [1, 3]]`).
    IntLists,
    /// A table with these keys.
    Table(&'static TableDef),
    /// A list of tables with these keys (`[[yaku]]`).
    Tables(&'static TableDef),
    /// A table whose keys are free (card ids) and whose values are lists of strings.
    MapOfStrings,
}

/// One key of a table.
#[derive(Clone, Copy, Debug)]
pub struct KeyDef {
    /// The key as written.
    pub name: &'static str,
    /// What it holds.
    pub ty: KeyType,
    /// Whether the table must have it.
    pub required: bool,
    /// What it means, for hover docs.
    pub description: &'static str,
    /// Allowed words, when the value is a choice.
    pub values: &'static [&'static str],
}

/// The keys of one table.
#[derive(Clone, Copy, Debug)]
pub struct TableDef {
    /// The table's name in descriptions (`[flow]`).
    pub name: &'static str,
    /// What the table is for.
    pub description: &'static str,
    /// Its keys.
    pub keys: &'static [KeyDef],
    /// What keys not listed here may be.
    pub extra: Extra,
}

/// Keys a table allows beyond its listed ones, named by the author.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    /// None.
    None,
    /// Integers (a card's numeric attributes).
    Ints,
    /// Options: an integer or a boolean, or a table with `default` and `description`.
    Options,
    /// Expressions (named sub-expressions of `[define]`).
    Exprs,
}

impl TableDef {
    /// The definition of `key`.
    pub fn key(&self, key: &str) -> Option<&KeyDef> {
        self.keys.iter().find(|k| k.name == key)
    }
}

const fn key(name: &'static str, ty: KeyType, description: &'static str) -> KeyDef {
    KeyDef {
        name,
        ty,
        required: false,
        description,
        values: &[],
    }
}

const fn required(name: &'static str, ty: KeyType, description: &'static str) -> KeyDef {
    KeyDef {
        required: true,
        ..key(name, ty, description)
    }
}

const fn choice(
    name: &'static str,
    values: &'static [&'static str],
    description: &'static str,
) -> KeyDef {
    KeyDef {
        values,
        ..key(name, KeyType::String, description)
    }
}

const fn table(name: &'static str, description: &'static str, keys: &'static [KeyDef]) -> TableDef {
    TableDef {
        name,
        description,
        keys,
        extra: Extra::None,
    }
}

use KeyType::*;

mod announcements;
mod deals;
mod files;
mod leftovers;
pub use announcements::*;
pub use deals::*;
pub use files::*;
pub use leftovers::*;

// Keys many tables share, written once.
/// An entry's id.
const ID: KeyDef = required("id", String, "Its id.");
/// An entry's display name.
const ITS_NAME: KeyDef = key("name", String, "Its display name.");
/// A file's or a section's display name.
const DISPLAY_NAME: KeyDef = key("name", String, "The display name.");
/// What an option or a definition means, for the rule sheet.
const MEANING: KeyDef = key("description", String, "What it means, for the rule sheet.");
/// A script file.
const SCRIPT_FILE: KeyDef = key(
    "script",
    String,
    "A rhai script file, relative to this file.",
);
/// A script written inline.
const SCRIPT_SOURCE: KeyDef = key("source", String, "The script inline.");

/// A ruleset file: the top level.
pub static RULESET_FILE: TableDef = table(
    "a ruleset file",
    "A yaku ruleset: deck, yaku table, flow and scoring.",
    &[
        key(
            "ruleset",
            Table(&RULESET),
            "The ruleset's identity, deck and base.",
        ),
        key(
            "remove_yaku",
            Strings,
            "Ids of yaku of the base ruleset to drop (a top-level key, before the first table).",
        ),
        key(
            "remove_declaration",
            Strings,
            "Ids of declarations of the base ruleset to drop (a top-level key).",
        ),
        key(
            "remove_instant_win",
            Strings,
            "Ids of the base's `[[flow.instant_win]]` to drop (a top-level key).",
        ),
        key(
            "remove_redeal",
            Strings,
            "Ids of the base's `[[flow.redeal]]` to drop (a top-level key).",
        ),
        key(
            "remove_banker_win",
            Strings,
            "Ids of the base's `[[flow.banker_win]]` to drop (a top-level key).",
        ),
        key(
            "remove_adjust",
            Strings,
            "Ids of the base's `[[scoring.adjust]]` to drop (a top-level key).",
        ),
        key(
            "declaration",
            Tables(&DECLARATION),
            "Declarations players can make: calls to play on or stop, swaps, marriages, ...",
        ),
        key(
            "new_kinds",
            Strings,
            "Kinds the ruleset adds to its deck (a top-level key), given to cards by `[card_kinds]`.",
        ),
        key(
            "card_kinds",
            MapOfStrings,
            "Changes to card kinds: a card id and the kinds it belongs to in this ruleset.",
        ),
        key("yaku", Tables(&YAKU), "The yaku: scoring combinations."),
        key(
            "meld",
            Tables(&MELD),
            "Trick-taking games: melds, combinations shown before the first lead and scored from the table.",
        ),
        key("flow", Table(&FLOW), "How a game flows."),
        key(
            "options",
            Table(&OPTIONS),
            "Named options of the rules (a penalty's threshold, a doubling on or off), read by name in expressions and as `hand.options` by the scoring script; a house rule or `--set` changes one in a line.",
        ),
        key(
            "define",
            Table(&DEFINE),
            "Named sub-expressions, usable by name in every expression of the ruleset.",
        ),
        key(
            "tally",
            Tables(&TALLY),
            "Numbers counted on every pile (the junk cards, counting doubles twice): usable by id in yaku, shown beside each pile, given to the scoring script.",
        ),
        key("scoring", Table(&SCORING), "The scoring script."),
        key(
            "carry",
            Tables(&CARRY),
            "Values carried from one hand to the next: written by the scoring script's `carry` or at the deal (`deal`), read by the next deal's table count and redeals by id and by the script as `hand.carry`.",
        ),
    ],
);

/// `[flow.auction]`.
pub static AUCTION: TableDef = table(
    "[flow.auction]",
    "An auction before a trick-taking hand: bids in turn from the seat after the dealer, each a pass (a `pass` declaration), a value or a named contract; a player who passed bids no more, and the auction ends when all but one have passed.",
    &[
        key(
            "minimum",
            Int,
            "The lowest bid (required with value bids, unless `bids` lists them).",
        ),
        key(
            "bids",
            Ints,
            "The value bids allowed, from the lowest (Skat's `[18, 20, 22, 23, 24, 27, 30]`), in place of `minimum`, `step` and `maximum`: each bid is one of them higher than the last bid; at most 200.",
        ),
        key(
            "step",
            Int,
            "Bids rise by at least this, in steps of it (1).",
        ),
        key(
            "maximum",
            Int,
            "The highest bid offered: 60 steps above `minimum` unless given, and at most 200 steps above it (every bid up to it is offered at once).",
        ),
        key(
            "values",
            Bool,
            "Whether value bids are made (`false`: only named contracts).",
        ),
        choice(
            "passed_out",
            &["dealer", "redeal", "forehand"],
            "When everyone passes: the dealer takes the contract at `minimum` (a forced bid), the hand ends unplayed (end `passed_out`) and the deal passes on, or the seat after the dealer (`forehand`) takes the contract at `minimum`.",
        ),
        choice(
            "sides",
            &["teams", "declarer-alone"],
            "Who plays together: the partnerships of `[flow] teams` (the default), or the declarer alone against every other seat, partners for the hand (`declarer-alone`).",
        ),
        choice(
            "first_lead",
            &["after-dealer", "declarer"],
            "Who leads the first trick: the seat after the dealer, or the declarer.",
        ),
        key(
            "turned_up",
            Bool,
            "Bidding on a turned-up card (Euchre's; with `[flow] deal = \"talon\"` and `trump = \"declarer\"`): the first card left after the deal is turned up. In a first round, from the seat after the dealer, each seat may pass or order up the turned card's suit as trumps (an `order_up` declaration); the dealer then takes the turned card and discards one card face down. If all pass the card is turned down, and in a second round each may pass or name any other suit (the `trump` declaration). If all pass again, the hand is redealt (`passed_out = \"redeal\"`), or the dealer may not pass and must name a suit (`passed_out = \"dealer\"`, stick the dealer). The seat that orders up or names is the declarer, bidding the first contract.",
        ),
        key(
            "search_reads_bids",
            Bool,
            "Whether the `expert` bot's search deals the cards it cannot see to agree with the bids and passes it saw, as the family's bidding estimate reads a hand (true, the default), or by the cards seen alone (`false`, to measure what reading the bidding is worth). Not a rule of play.",
        ),
        key(
            "contract",
            Tables(&CONTRACT),
            "Named contracts, each bid at its `bid` value.",
        ),
    ],
);

/// `[flow.pass]`.
pub static PASS: TableDef = table(
    "[flow.pass]",
    "Passing cards before play: each seat in turn, from the seat after the dealer, sets aside `cards` cards of its dealt hand; once every seat has, they are passed on in the hand's direction.",
    &[
        key(
            "cards",
            Int,
            "Cards each seat passes (1 to the hand's size).",
        ),
        KeyDef {
            values: &["left", "right", "across", "none"],
            ..key(
                "directions",
                Strings,
                "Where each hand's cards go, taken in turn by hand number (hand 1 the first, then round again): `left` (the next seat in the order of play), `right` (the seat before), `across` (half the table on; tables of an even size), `none` (no passing that hand).",
            )
        },
    ],
);

/// `[[flow.auction.contract]]`.
pub static CONTRACT: TableDef = table(
    "[[flow.auction.contract]]",
    "A contract bid by name: it stands in the bidding at its `bid` value and may change the follow rules, trumps, the talon and the first lead; its goal (`points`, `by_trick`, `min_tricks`, `max_tricks`) ends the hand as soon as it is made or set (ends `made` and `set`); the scoring script sees its id as `hand.contract` and its worth as `hand.value`.",
    &[
        required("id", String, "Its id, as the scoring script sees it."),
        DISPLAY_NAME,
        MEANING,
        required(
            "bid",
            Int,
            "Its place in the bidding: it outranks every bid below this value.",
        ),
        choice(
            "follow",
            &["free", "follow-trump", "head", "win"],
            "The follow rules while it is played, instead of `[flow] follow`.",
        ),
        KeyDef {
            values: &["suit", "head", "trump", "overtrump"],
            ..key(
                "follow_rules",
                Strings,
                "The follow rules as flags while it is played.",
            )
        },
        key(
            "trumps",
            Bool,
            "Whether the declarer names trumps (`false`: played without trumps, or with its own `trump_cards` alone).",
        ),
        key(
            "trump_suit",
            String,
            "The trump suit the contract fixes (a suit's id): the declarer names none.",
        ),
        key(
            "trump_cards",
            Expr,
            "The cards that are trumps while it is played, instead of `[flow] trump_cards` (`jack`: only the jacks, with `trumps = false`).",
        ),
        key(
            "trump_order",
            Strings,
            "The top trumps while it is played, highest first, instead of `[flow] trump_order` (which a contract with its own `trump_cards` does not take).",
        ),
        key(
            "card_order",
            Strings,
            "The order within a suit while it is played, highest first, instead of `[flow] card_order` or `rank`.",
        ),
        key(
            "value",
            Int,
            "The game points it is worth (its `bid` unless given); the scoring script sees them as `hand.value`.",
        ),
        key(
            "points",
            Int,
            "Goal: the card points (with counted marriages) the declarer's side must reach.",
        ),
        key(
            "by_trick",
            Int,
            "Goal: ... by the end of this trick (1 is the first): a contract decided on the first tricks.",
        ),
        KeyDef {
            values: &["all"],
            ..key(
                "min_tricks",
                IntOrWord,
                "Goal: the tricks the declarer's side must take at least, or `\"all\"`.",
            )
        },
        key(
            "max_tricks",
            Int,
            "Goal: the tricks the declarer's side may take at most (0: it must take none).",
        ),
        key(
            "talon",
            Bool,
            "The declarer takes the talon (`deal = \"talon\"`) and discards as many cards, face down, counted for no one.",
        ),
        choice(
            "first_lead",
            &["after-dealer", "declarer"],
            "Who leads the first trick under this contract, instead of the auction's `first_lead`.",
        ),
        key(
            "call",
            Expr,
            "The declarer calls a partner (Schafkopf's Rufspiel; with `[flow] deal = \"all\"` and a `call` declaration): once trumps are known it names a card of this set (`ace`) that is no trump and not in its hand, and whoever holds it is its partner, the two against the rest. The partnership is known to the table once the called card is played; until then only its holder knows it. A bid of the contract is offered only to a seat with a card to call.",
        ),
        key(
            "alone",
            Bool,
            "The declarer plays alone (needs `[flow] teams` and `deal = \"all\"`): its partners, the other seats of its team, sit out the hand with their cards laid down face down, unplayed, and each trick has one card fewer for each; the side still scores as one (Five Hundred's misère played alone, Euchre's going alone).",
        ),
        key(
            "call_needs_suit",
            Bool,
            "With `call`: the declarer may call only a card of a suit it holds a card of, trumps apart (true, the default).",
        ),
        key(
            "call_answer",
            Bool,
            "With `call`: when the called card's suit is led, its holder must play the called card (false unless set).",
        ),
    ],
);

/// `[[meld]]`.
pub static MELD: TableDef = table(
    "[[meld]]",
    "A meld of a trick-taking game: a combination shown from the hand at its `moment` (before the first lead once trumps are known, on one's lead, or on winning a trick) and scored from the table; a card serves in melds of different classes but once within a class.",
    &[
        ID,
        DISPLAY_NAME,
        key(
            "class",
            String,
            "Its class (its id unless given): melds of one class share no card, and the combinations worth most count.",
        ),
        choice(
            "suit",
            &["trump", "plain", "any", "each"],
            "With `kinds`: all in trumps, all in one suit other than trumps, all in one suit (each suit a meld of its own), or one of each kind in every suit (an around). With `alike`: where the cards come from (any suits, copies counting, unless given; `each`: at least one of each suit). With `run`: the run's suit (`any` unless given; not `each`).",
        ),
        key(
            "kinds",
            Strings,
            "The kinds it needs, one card of each (with `suit`). With `alike` or `run`: only cards of these kinds serve.",
        ),
        key(
            "alike",
            Int,
            "A pattern: this many cards of one rank (the rank tricks follow, `[flow] rank`), 2 to 64, each rank a meld of its own (`alike = 4, kinds = [\"king\"]`: four Kings of any suits; with `suit = \"any\"`, `alike = 2` is both copies of a card in a double pack). Instead of `cards`; no `copies`.",
        ),
        key(
            "run",
            Int,
            "A pattern: this many cards of one suit whose ranks follow one another (`[flow] rank`), 2 to 64, each run and suit a meld of its own (`run = 3, suit = \"any\"`: every three in a row). Instead of `cards`; `copies` of each card.",
        ),
        key(
            "ranks",
            Ints,
            "With `alike` or `run`: only cards of these ranks (values of `[flow] rank`) serve.",
        ),
        key(
            "cards",
            Strings,
            "Exactly these cards, whatever the trumps (instead of `kinds` and `suit`).",
        ),
        key(
            "copies",
            Int,
            "Copies of each card it needs in a double pack (2: a double meld).",
        ),
        required("points", Int, "Its points."),
        choice(
            "moment",
            &["before-play", "lead", "won-trick"],
            "When it is shown (`before-play` unless given): every seat's melds once trumps are known and before the first lead; one meld by the player on lead; or one meld by the winner of a trick before the draw (while a stock is left; without a stock, after every trick but the last). After play it is shown with a `meld` declaration, and a card shown once serves again as `[flow] meld_reuse` says (by default in another class only).",
        ),
        choice(
            "lead",
            &["its-card", "any"],
            "Shown on one's lead: `its-card` (showing it leads one of its cards, the others stay shown) or `any` (it is shown first, then any card is led; `any` unless given).",
        ),
        choice(
            "counts",
            &["at-once", "after-first-trick"],
            "When its points count: at once (unless given) or once its holder has won a trick (points shown before stay pending).",
        ),
        choice(
            "adds_to",
            &["melds", "points"],
            "Where its points go: the meld points (`melds` unless given: the script's `melds_self`) or the card points (`points`: the target, a contract's goal, `points_self`).",
        ),
        key(
            "declaration",
            String,
            "Shown after play: the id of the `meld` declaration that shows it (the first `meld` declaration unless given).",
        ),
    ],
);

/// `[[flow.deal_size]]`.
pub static DEAL_SIZE: TableDef = table(
    "[[flow.deal_size]]",
    "The deal at a table of one size.",
    &[
        required("players", Int, "The seat count it applies to."),
        required("hand_size", Int, "Cards in each hand."),
        required("table_size", Int, "Cards face up on the table."),
    ],
);

/// `[flow.drop_out]`.
pub static DROP_OUT: TableDef = table(
    "[flow.drop_out]",
    "After the deal, each seat in turn order decides to play the hand (a `play` declaration) or drop out (a `drop` declaration, which may have a `when`) until `players` seats play; the seats still to decide play when no more may drop, and sit out once enough play. A dropped hand goes under the stock, in the order the seats dropped; a seat sitting out takes no turn and is not settled, except for what dropping pays.",
    &[
        required(
            "players",
            Int,
            "The seats that play each hand (fewer than the table's seats; with exactly this many nobody decides).",
        ),
        choice(
            "first",
            &["dealer", "after_dealer"],
            "Who decides first (`dealer` unless given); the others follow in turn order.",
        ),
        key(
            "pays",
            Int,
            "Points a seat that drops pays each seat that plays (negative: each seat that plays pays it), times the table count under `table_multiplies` (0 unless given).",
        ),
    ],
);

/// `[[carry]]`.
pub static CARRY: TableDef = table(
    "[[carry]]",
    "A value carried from one hand to the next (a field multiplier, who holds the bank, a streak).",
    &[
        required(
            "id",
            String,
            "Its id: a name in the table count and redeals, and a key of the script's `hand.carry` and `carry`.",
        ),
        DISPLAY_NAME,
        MEANING,
        key(
            "per_seat",
            Bool,
            "One value per seat (an array in the script) rather than one for the table.",
        ),
        key(
            "initial",
            Int,
            "Its value before the first hand (0 when not given).",
        ),
        key(
            "deal",
            String,
            "Matching games: an expression that sets the value at each deal, counted on the table just dealt (after any redeal, before the table count) and reading the carried values by id, those above it already set by this deal; the hand and the next deal read the value it sets. Table values only.",
        ),
    ],
);

/// `[ruleset]`.
pub static RULESET: TableDef = table(
    "[ruleset]",
    "The ruleset's identity.",
    &[
        required(
            "id",
            String,
            "The ruleset's id: the name `extends` and `yaku play` use.",
        ),
        DISPLAY_NAME,
        key(
            "description",
            String,
            "What it is, in a sentence, for players.",
        ),
        key("sources", Strings, "The rule sources it follows."),
        key(
            "notes",
            Strings,
            "Notes on interpretation and open questions.",
        ),
        key(
            "deck",
            String,
            "The deck: a bundled deck's id (`yaku list` shows them) or a path relative to this file (required \
             unless the ruleset extends another).",
        ),
        key(
            "extends",
            String,
            "A base ruleset this file changes: a bundled name or a path relative to this file.",
        ),
        key(
            "optional_cards",
            Strings,
            "The deck's optional cards (bonus cards) this ruleset plays with; the others are left out.",
        ),
    ],
);

/// `[[yaku]]`.
pub static YAKU: TableDef = table(
    "[[yaku]]",
    "A yaku: a named combination with a condition and a point formula.",
    &[
        required(
            "id",
            String,
            "The yaku's id; an id of the base changes that yaku.",
        ),
        DISPLAY_NAME,
        key("description", String, "What it takes, in words."),
        key(
            "when",
            Expr,
            "The condition (`count(bright) == 5`); required for a new yaku.",
        ),
        key(
            "points",
            Expr,
            "The points when held (`count(animal) - 4`); required for a new yaku.",
        ),
        key(
            "group",
            String,
            "An exclusivity group: within a group only the highest-scoring yaku counts.",
        ),
    ],
);

/// Every effect a declaration may have: the matching family's, then the trick-taking family's,
/// then the banker family's (the actions of hands played by actions, `[flow.play]`).
const EFFECTS: &[&str] = &[
    "continue",
    "stop",
    "swap",
    "keep",
    "reveal",
    "play_suit",
    "count_as",
    "play",
    "drop",
    "meld",
    "marriage",
    "exchange",
    "close",
    "claim",
    "pass",
    "trump",
    "order_up",
    "call",
    "announce",
    "hit",
    "stand",
    "double",
    "split",
    "surrender",
];

/// The effects of a matching game's declarations.
pub(crate) const MATCHING_EFFECTS: &[&str] = EFFECTS.split_at(9).0;

/// The effects of a trick-taking game's declarations.
pub(crate) const TRICKS_EFFECTS: &[&str] = EFFECTS.split_at(9).1.split_at(10).0;

/// The effects of a banker game's declarations: the actions of a hand played by actions.
pub(crate) const BANKER_EFFECTS: &[&str] = EFFECTS.split_at(19).1;

/// The effects of a climbing game's declarations.
pub(crate) const CLIMBING_EFFECTS: &[&str] = &["pass"];

/// `[[declaration]]`.
pub static DECLARATION: TableDef = table(
    "[[declaration]]",
    "A declaration a player can make: its id, name and prompt are the ruleset's; its effect is a mechanism of the family.",
    &[
        required("id", String, "Its id, as records and the prompt name it."),
        DISPLAY_NAME,
        key("prompt", String, "What it does, in words, for the prompt."),
        choice(
            "effect",
            EFFECTS,
            "The mechanism: matching games `continue` (play on, a call), `stop`, `swap`, `keep`, `reveal` (show `count` cards of a suit before playing), `play_suit` (play `count` cards of a suit at once onto the table's card of the suit), `count_as` (how the captured `card` counts), `play` and `drop` (play the hand or drop out, `[flow.drop_out]`); trick-taking games `meld` (show a `[[meld]]` of moment `lead` or `won-trick`, naming one of its cards), `marriage` (the shorthand of a marriage meld shown on one's lead, with `[flow] marriage`), `exchange`, `close`, `claim`, `pass` (in an auction: bid no more; after winning a trick: show no meld; in a climbing game: play nothing to the trick) `trump` (the declarer names trumps with a card of the suit) and `order_up` (bidding on a turned-up card, `[flow.auction] turned_up`: make the turned card's suit trumps) and `call` (the declarer of a contract with `call` names the card whose holder is its partner) and `announce` (a `[[flow.announcement]]` of the same id: raise the stake or announce a target during play); banker games (hands played by actions) `hit` (take one card), `stand` (take no more), `double` (stake as much again, take one card and stand), `split` (a pair becomes two hands, each with the stake, each dealt a second card) and `surrender` (give up the hand and half the stake).",
        ),
        key(
            "when",
            Expr,
            "When it may be made (facts: round, rounds, is_dealer, hand_cards, calls, base, last_base, other_calls, game_score, best_other_score, target_score; in a banker game those of a hand played by actions: `player_total`, `player_cards`, `player_soft`, `player_pair`, `player_first`, `player_split`, `player_hands`, `banker_up`, ...).",
        ),
        key(
            "card",
            String,
            "`count_as`: the card whose holder chooses how it counts.",
        ),
        key(
            "count",
            Int,
            "`reveal`, `play_suit`: the cards of one suit the player must hold (2 to 8).",
        ),
        key(
            "points",
            Int,
            "`reveal`, `play_suit`: the points the declaration earns the declarer each time it is made, in a hand settled seat by seat without a script (a script reads the times made as `declared`).",
        ),
        key(
            "blocks",
            Bool,
            "`reveal`, `play_suit`: for the rest of the hand, the suit shown may be captured by the declarer alone; another player's card of the suit, played or drawn, takes none of them and stays on the table.",
        ),
    ],
);

/// `[options]`: any key with an integer value.
pub static OPTIONS: TableDef = TableDef {
    extra: Extra::Options,
    ..table(
        "[options]",
        "Named options of the rules: a number or `true`/`false`, or a table `{ default = ..., description = \"...\" }`. Expressions read them by name, the scoring script as `hand.options.NAME`; a house rule or `--set NAME=VALUE` changes one.",
        &[],
    )
};

/// An option declared as a table in `[options]`.
pub static OPTION: TableDef = table(
    "an option",
    "A named option: its default value and what it does.",
    &[
        required(
            "default",
            IntOrBool,
            "Its value unless a house rule or `--set` changes it: a whole number or `true`/`false`.",
        ),
        key(
            "description",
            String,
            "What it does, for the rule sheet and `yaku rules`.",
        ),
    ],
);

/// `[define]`.
pub static DEFINE: TableDef = TableDef {
    extra: Extra::Exprs,
    ..table(
        "[define]",
        "Named sub-expressions: `name = \"expression\"`, usable by name in every expression of the ruleset.",
        &[],
    )
};

/// `[[tally]]`.
pub static TALLY: TableDef = table(
    "[[tally]]",
    "A number counted on a pile, usable by its id in yaku expressions.",
    &[
        required("id", String, "Its id: a name in yaku expressions."),
        DISPLAY_NAME,
        required(
            "count",
            Expr,
            "The count (`sum(pi_value)`), with the yaku's facts and the tallies before it.",
        ),
        key(
            "most",
            Int,
            "Points for the one seat (or partnership) with the highest count at the end of a hand settled seat by seat; nobody scores them on a tie (Scopa's most cards).",
        ),
        key(
            "par",
            Int,
            "Every seat scores its count minus this par at the end of a hand settled seat by seat (Hachi-Hachi's 88).",
        ),
    ],
);

/// `[[flow.capture]]`.
pub static CAPTURE: TableDef = table(
    "[[flow.capture]]",
    "One way a played or drawn card captures in a matching game; the list is in precedence order.",
    &[
        choice(
            "kind",
            &["equal", "sum"],
            "`equal`: one table card equal to the played card in `by`; `sum`: a set of table cards whose `by` values add up to `total`.",
        ),
        key(
            "by",
            String,
            "What is compared or added: `suit` (the default) or a deck attribute (`value`).",
        ),
        key(
            "total",
            Expr,
            "A sum capture's total, from the played card's value `played` (default `played`; `15 - played` for Escoba).",
        ),
        key(
            "min_cards",
            Int,
            "The fewest table cards a sum capture takes (default 2).",
        ),
        key(
            "fallback",
            Bool,
            "Offered only when the captures listed before it take nothing (Scopa: an equal card must be taken before a sum).",
        ),
    ],
);

/// `[flow.build]`.
pub static BUILD: TableDef = table(
    "[flow.build]",
    "Builds in a matching game with `[[flow.capture]]` (Cassino): a card played from the hand may be laid on table cards that with it make a value the player holds another card of; the pile, owned by the player who built it last, is then captured whole, only by a card of its value.",
    &[
        key(
            "by",
            String,
            "The deck attribute a build's value is counted in (default the `by` of the first `sum` capture rule).",
        ),
        key(
            "most",
            Int,
            "The highest value a build may have (default the highest of `by` in the deck; 10 in Cassino, so court cards never build).",
        ),
        choice(
            "raise",
            &["any", "others", "never"],
            "Who may raise a single build by laying a card on it (a new value, the raiser its owner): anyone (default), only a player who does not own it, or nobody.",
        ),
        key(
            "multiple",
            Bool,
            "A build may hold several sets of its value, made at once or added later (default true); a multiple build is never raised.",
        ),
        key(
            "owner_trails",
            Bool,
            "The owner of a build may lay a card on the table without capturing or building (default false: a build binds its owner to take it or build).",
        ),
    ],
);

/// `[[flow.turn_event]]`.
pub static TURN_EVENT: TableDef = table(
    "[[flow.turn_event]]",
    "What a turn pattern earns in a matching game: cards from each other player's pile, or the hand.",
    &[
        ID,
        ITS_NAME,
        choice(
            "on",
            &[
                "kiss",
                "stack",
                "stack_taken",
                "own_stack_taken",
                "four_taken",
                "sweep",
                "suit_played",
                "last_laid_taken",
            ],
            "The pattern: `kiss` (the drawn card takes the hand card that matched nothing), `stack` (three of a suit left on the table), `stack_taken`, `own_stack_taken`, `four_taken` (hand and drawn card take a suit's four), `sweep` (the table left empty), `suit_played` (a `play_suit` declaration), `last_laid_taken` (the card the player before laid on the table from the hand, taking nothing, is captured).",
        ),
        key(
            "take",
            Int,
            "Cards each other player hands over from their pile (`[flow] give` says which).",
        ),
        key(
            "when",
            Expr,
            "When it fires (facts: round, rounds, is_dealer, hand_cards, stacks, turn, cards_left, game_score, best_other_score, target_score).",
        ),
        key(
            "wins",
            Int,
            "Points that end the hand at once, won by the player.",
        ),
        key(
            "points",
            Int,
            "Points each firing is worth to the player at the end of a hand settled seat by seat (a sweep in Scopa).",
        ),
    ],
);

/// A deal check: `[[flow.instant_win]]`, `[[flow.redeal]]`, `[[flow.banker_win]]`.
pub static DEAL_CHECK: TableDef = table(
    "a deal check",
    "A condition checked on a dealt hand or table.",
    &[
        ID,
        ITS_NAME,
        key(
            "description",
            String,
            "What the hand (or table) must hold, in words, for the rule sheet (a noun phrase: `three cards of one month`); without it the sheet words `when`, or shows it as written.",
        ),
        key(
            "when",
            Expr,
            "When the hand (or table) qualifies; required for a new one.",
        ),
        key(
            "points",
            Int,
            "Points awarded (instant wins only, where it is required).",
        ),
        choice(
            "on",
            &["table", "hands", "any"],
            "Redeals only: the dealt piles `when` is read on: the table (the default), each hand, or both.",
        ),
        key(
            "ends",
            Bool,
            "Instant wins only: `false` scores the combination at the hand's end and plays the hand on (a teyaku); a hand holds the one with the most points.",
        ),
    ],
);

/// `[flow]`.
pub static FLOW: TableDef = table(
    "[flow]",
    "How a game flows: the matching family (Koi-Koi), the banker family (Kol-ye-si), the trick-taking family (Schnapsen) or the climbing family (Big Two).",
    &[
        choice(
            "style",
            &["matching", "banker", "tricks", "climbing"],
            "The family of game.",
        ),
        key(
            "hand_size",
            Int,
            "Cards in each hand after the deal. Climbing games: the rest of the deck is set aside unseen (the whole deck is dealt when it is left out).",
        ),
        choice(
            "odd_cards",
            &["dealt", "opening_holder"],
            "Climbing games dealing the whole deck: where the cards left over go when the deck does not deal evenly (52 cards to three players): round the table as dealt (`dealt`, the first seats after the dealer hold one more), or to the holder of the opening card, the holder of the lowest card dealt where the opening card is itself left over (`opening_holder`). Without it the deck must deal evenly.",
        ),
        key(
            "table_size",
            Int,
            "Cards face up on the table after the deal.",
        ),
        key("deal_packet", Int, "Cards dealt at a time."),
        KeyDef {
            values: &["dealer", "opponent", "others", "table"],
            ..key(
                "deal_order",
                Strings,
                "The order packets go in, naming each that receives cards (not `table` when `table_size = 0`).",
            )
        },
        key("rounds", Int, "Hands in a game (or use target_score)."),
        key("target_score", Int, "The score that ends a game."),
        key(
            "max_rounds",
            Int,
            "Hands after which a game to a target ends anyway.",
        ),
        choice("first_dealer", &["first", "random"], "Who deals first."),
        choice(
            "next_dealer",
            &["winner", "same", "alternate"],
            "Who deals after a won hand.",
        ),
        choice(
            "draw_dealer",
            &["winner", "same", "alternate"],
            "Who deals after a drawn hand.",
        ),
        key(
            "wild",
            Expr,
            "Cards that match any card: a card set (`willow-lightning`).",
        ),
        choice(
            "wild_from",
            &["anywhere", "hand"],
            "Where a `wild` card is wild: `anywhere` (played from the hand or turned from the stock; the default), or `hand` (turned from the stock it is a plain card of its suit).",
        ),
        key(
            "deal_size",
            Tables(&DEAL_SIZE),
            "Deal sizes for particular seat counts, instead of `hand_size` and `table_size` (Go-Stop: ten each and eight on the table with two players).",
        ),
        key(
            "teams",
            IntLists,
            "Partnerships: an array of teams, each an array of seats (`[[0, 2], [1, 3]]`). Every seat plays in one; a hand's points are pooled by team, so partners share one score, and the scoring script sees each seat's `team` and each team's pile (`hand.teams`).",
        ),
        choice(
            "exhausted",
            &["draw", "dealer_scores", "settle"],
            "What happens when the hands run out with nobody stopping: a draw, the dealer scores `exhausted_points`, or the scoring script settles every seat (`settle`).",
        ),
        key(
            "exhausted_points",
            Int,
            "Points the dealer scores when hands run out (with `dealer_scores`).",
        ),
        choice(
            "both_instant",
            &["draw", "dealer", "play"],
            "What happens when two hands hold an instant win: a draw, the dealer's counts (or the first holder's after the dealer), or neither counts and the hand is played.",
        ),
        key(
            "instant_win",
            Tables(&DEAL_CHECK),
            "Instant wins checked on each dealt hand.",
        ),
        key(
            "redeal",
            Tables(&DEAL_CHECK),
            "Redeals checked on the dealt table (or the hands, with `on`).",
        ),
        key(
            "announcement",
            Tables(&ANNOUNCEMENT),
            "Trick-taking games: announcements that raise the stake (a double, a redouble) or set a target (schneider, schwarz), made during play.",
        ),
        key(
            "deal_bonus",
            Tables(&DEAL_BONUS),
            "Matching games: what a dealt table gives a seat (table cards captured, a turn event counted), checked once the table is dealt.",
        ),
        choice(
            "deal_checks",
            &["first", "every"],
            "Matching games: the dealt combinations (`[[flow.instant_win]]` with `ends = false`) are checked on the first deal of a hand (`first`, the default) or on every deal, the refills of `refill` too (`every`).",
        ),
        key(
            "table_count",
            Expr,
            "Counted on the table at the deal and given to the scoring script.",
        ),
        key(
            "table_multiplies",
            Bool,
            "Every point of a hand settled without a script (seat by seat, or a stop) is multiplied by `table_count` (Hachi-Hachi's field: x1, x2, x4).",
        ),
        key(
            "count_at_once",
            Bool,
            "Matching games to a `target_score` settled seat by seat without a script: points count when they are made (counting out). After each turn, a side whose score with this hand's points so far (its yaku, turn events, and each `most` tally it has won for certain: more than any other side could still reach) reaches the target ends the game at once; `game_score` and `best_other_score` then read the scores with those points.",
        ),
        choice(
            "turn_events_combine",
            &["all", "best"],
            "When one turn fires several `[[flow.turn_event]]`s: each counts (`all`, the default), or only the one worth most (`best`: one that wins the hand, else the most points, else the most cards taken; the first listed of equals).",
        ),
        choice(
            "yaku_paid_by",
            &["none", "others"],
            "In a hand settled seat by seat without a script: a side's yaku, dealt combinations and turn events are its own points (`none`), or every other side pays them to it (`others`), so the hand sums to zero.",
        ),
        key(
            "bonus",
            Expr,
            "Matching games: bonus cards (a set), taken at once when played, drawn or dealt to the table; the player takes another card.",
        ),
        key(
            "run_capture",
            String,
            "Matching games: after a card from the hand captures, the player also takes the table cards that continue an unbroken ascending run of this card attribute from the played card's value, one card a step (a deck attribute's id).",
        ),
        key(
            "stacks",
            Bool,
            "Matching games: a drawn card of the suit of the pair the hand card just took leaves the three on the table as a stack.",
        ),
        key(
            "give",
            Strings,
            "Matching games: the sets a player hands over from when a turn event takes from them, in order.",
        ),
        key(
            "stake",
            Int,
            "Matching games: each seat's starting stake; a hand's winner takes its points from each loser (who pays what it has), and the game ends when a stake runs out.",
        ),
        key(
            "turn_event",
            Tables(&TURN_EVENT),
            "Matching games: what turn patterns (kiss, stack, sweep, ...) earn.",
        ),
        key(
            "capture",
            Tables(&CAPTURE),
            "Matching games: how a card captures, in precedence order (without it, a card takes a table card of its suit, the fourth of a suit all three).",
        ),
        key(
            "build",
            Table(&BUILD),
            "Matching games with `[[flow.capture]]`: piles a player builds on the table with a declared value, owned until taken (Cassino).",
        ),
        key(
            "drop_out",
            Table(&DROP_OUT),
            "Matching games: a table larger than the hand needs: after the deal, seats decide in turn to play or drop out (the `play` and `drop` declarations) until the hand's players are found; the others sit the hand out.",
        ),
        choice(
            "capture_choice",
            &["player", "most_cards"],
            "Matching games: which captures the player chooses among: every one the rules allow, or those taking the most cards.",
        ),
        choice(
            "capture_groups",
            &["one", "maximal", "any"],
            "Matching games with `[[flow.capture]]`: what one capture takes: `one` group (the default: an equal card, or a set adding up), every union of disjoint groups no other group can join (`maximal`), or every union of one or more disjoint groups (`any`, Cassino). Wild cards take one card.",
        ),
        choice(
            "must_capture",
            &["always", "equal", "never"],
            "Matching games with `[[flow.capture]]`: when a card played from the hand that can capture must (default `always`); `never`: the player may instead lay it on the table (trail), `equal`: only when no `equal` rule finds it a table card. A drawn card always captures.",
        ),
        key(
            "draw",
            Bool,
            "Matching games: a card is drawn from the stock after the hand card (default true; false in Scopa).",
        ),
        key(
            "refill",
            Bool,
            "Matching games: when every hand is empty, the hands are dealt again from the stock while it lasts.",
        ),
        choice(
            "first_player",
            &["dealer", "after_dealer"],
            "Matching games: who plays first in a hand.",
        ),
        choice(
            "leftover",
            &["stay", "last_capturer"],
            "Matching games: where the table's cards go when the hands are played out.",
        ),
        key(
            "leftover_to",
            Tables(&LEFTOVER_TO),
            "Matching games: leftover cards of a set that go to a seat by rule when the hands are played out (the seat that took a card, the last capturer, the dealer), before the rest follow `leftover`.",
        ),
        choice(
            "target_tie",
            &["end", "play_on"],
            "Games to a target: when the leaders are tied at the end, the game ends, or goes on until one leads alone.",
        ),
        key(
            "players",
            Int,
            "Seats at the table when the command line does not say.",
        ),
        key(
            "min_players",
            Int,
            "Matching and trick-taking games: the fewest seats.",
        ),
        key("max_players", Int, "The most seats a table has."),
        key(
            "deal_packets",
            Ints,
            "Trick-taking games: the packets each hand is dealt in (`[3, 2]`).",
        ),
        key(
            "rank",
            String,
            "Trick-taking games: the deck attribute that orders a suit (higher wins). Climbing games: the attribute `rank_order` lists the values of.",
        ),
        key(
            "card_points",
            String,
            "Trick-taking games: the deck attribute that gives a card's points.",
        ),
        key(
            "target",
            Int,
            "Trick-taking games: the card points that win a hand (66).",
        ),
        choice(
            "follow",
            &["free", "follow-trump", "head", "win"],
            "Trick-taking games: what must be played once the stock is gone or closed (from the first trick without a stock): nothing, follow suit or trump, also head the trick, also overtrump (`win`).",
        ),
        KeyDef {
            values: &["suit", "head", "trump", "overtrump"],
            ..key(
                "follow_rules",
                Strings,
                "Trick-taking games: the follow rules as flags, instead of `follow`: `suit` (follow the suit led), `head` (following suit, beat the trick's best card when able), `trump` (void, play a trump), `overtrump` (trumping, beat a trump already played when able).",
            )
        },
        choice(
            "equal_cards",
            &["first", "last"],
            "Trick-taking games with a double pack: which of two alike cards wins a trick they are the best of (`first` played, the default).",
        ),
        key(
            "equal_cards_last",
            Expr,
            "Trick-taking games with a double pack: a card set (`hearts-ten`) of which, of two alike cards that are the best of a trick, the later played wins (its copies in the other packs included), while the other cards keep `equal_cards = \"first\"`.",
        ),
        choice(
            "deal",
            &["stock", "all", "talon"],
            "Trick-taking games: `hand_size` cards each with the rest a stock (the default), the whole deck dealt evenly with no stock (`all`), or `hand_size` cards each with the rest a face-down talon that a contract may give the declarer (`talon`).",
        ),
        key(
            "trump",
            String,
            "Trick-taking games: trumps from the card turned up under the stock (`turned-up`), named by the auction's winner (`declarer`, with `[flow.auction]`), none at all (`none`: the best card of the suit led wins), or a suit's id (trumps fixed by the rules, with no auction needed); the last two need `deal = \"all\"` or `\"talon\"`.",
        ),
        key(
            "trump_cards",
            Expr,
            "Trick-taking games: the cards that are trumps, a card set that may name the hand's trump suit `trump_suit` and its partner `partner_suit` (`queen + jack + trump_suit`; `trump_suit + (jack & partner_suit)` for a jack joining its partner's trumps); the trump suit's cards unless given. Every trump follows as the trump suit, whatever its printed suit.",
        ),
        key(
            "trump_order",
            Strings,
            "Trick-taking games: the top trumps, highest first, each entry a card set within `trump_cards` (`[\"clubs-queen\", \"jack & trump_suit\"]`; the cards of one entry rank alike); the other trumps rank below them by the order within a suit.",
        ),
        key(
            "card_order",
            Strings,
            "Trick-taking games: the order within a suit, highest first, each entry a card set (`[\"ace\", \"king\", \"queen\", \"jack\", \"ten\", \"nine\"]`), every card in one entry; instead of the `rank` attribute.",
        ),
        key(
            "partner_suits",
            Strings,
            "Trick-taking games: the suits in pairs, each the other's partner (`[\"hearts\", \"diamonds\", \"clubs\", \"spades\"]`): `partner_suit` in `trump_cards` and `trump_order` names the trump suit's partner.",
        ),
        key(
            "partner_cards",
            Expr,
            "Trick-taking games: partnerships fixed by the deal (with `deal = \"all\"`, without `teams` or an auction): the seats holding a card of this set (`clubs & queen`) play together against the others, and the scoring script sees the holders' side as its own. A seat holding every card of the set plays alone against the rest. Who holds one is known to the table once it is played.",
        ),
        key(
            "opening_lead",
            String,
            "Trick-taking games: the card that must lead the first trick (`clubs-two`); its holder leads it (where it was not dealt, the seat after the dealer leads as usual). Climbing games: likewise, the first play of a hand (see `opening_must_include`, `opening_hands`).",
        ),
        key(
            "opening_lead_from",
            Expr,
            "Trick-taking games: a card set (`ace`) the first trick's leader must lead one of when holding any; a leader holding none leads freely.",
        ),
        key(
            "not_on_first_trick",
            Expr,
            "Trick-taking games: a card set (`hearts + spades-queen`) that may not be played to the first trick, led or followed, unless the player holds nothing else it may play.",
        ),
        key(
            "lead_when_broken",
            Expr,
            "Trick-taking games: a card set (`hearts`) that may not be led until a card of `broken_by` has been played to a trick (broken), unless the leader holds nothing else.",
        ),
        key(
            "broken_by",
            Expr,
            "Trick-taking games: the card set whose play breaks `lead_when_broken` (`hearts + spades-queen`; the `lead_when_broken` cards unless given).",
        ),
        key(
            "pass",
            Table(&PASS),
            "Trick-taking games: passing cards before play (and before an auction).",
        ),
        key(
            "lowest_wins",
            Bool,
            "Trick-taking games: the lowest total wins the game (a game to `target_score` ends when a total reaches it); the bots take card points as penalties.",
        ),
        key(
            "auction",
            Table(&AUCTION),
            "Trick-taking games: an auction before play; its winner is the declarer.",
        ),
        choice(
            "claim",
            &["declare", "automatic", "none"],
            "Trick-taking games: whether the target is claimed, ends the hand at once, or there is none and every trick is played (`none`).",
        ),
        key(
            "marriage",
            Strings,
            "Trick-taking games, the marriage shorthand (with a declaration of `effect = \"marriage\"`): the kinds whose cards of one suit form a marriage, shown on one's lead by leading one of them (`king`, `queen` unless given). It stands for two `[[meld]]`s, `marriage` and `trump-marriage`, of `moment = \"lead\"`, `lead = \"its-card\"`, `adds_to = \"points\"`.",
        ),
        key(
            "marriage_points",
            Int,
            "Trick-taking games, the marriage shorthand: a marriage's points in a plain suit (20 unless given).",
        ),
        key(
            "trump_marriage_points",
            Int,
            "Trick-taking games, the marriage shorthand: a marriage's points in trumps (40 unless given).",
        ),
        choice(
            "marriage_counts",
            &["after-first-trick", "at-once"],
            "Trick-taking games, the marriage shorthand: when marriage points count (`after-first-trick` unless given).",
        ),
        choice(
            "exchange",
            &["any-lead", "after-first-trick"],
            "Trick-taking games: when the lowest trump may be exchanged.",
        ),
        key(
            "last_trick_points",
            Int,
            "Trick-taking games: card points for the last trick.",
        ),
        choice(
            "meld_reuse",
            &["other-class", "grow", "none"],
            "Trick-taking games, melds shown after play: how a card a seat has shown in a meld serves again in its later melds: in melds of another class only (`other-class`, the default), also in its own class in a meld worth more than every meld of the class it served in, never twice in one meld (`grow`: a royal marriage grows into a flush, a pinochle into a double pinochle, never the lower after the higher), or never (`none`).",
        ),
        choice(
            "meld_new_card",
            &["none", "class", "hand"],
            "Trick-taking games, melds shown after play: what each meld must hold that the seat has not shown before: nothing (`none`, the default), a card not shown in a meld of its class (`class`), or a card not shown in any meld, laid out from the hand (`hand`).",
        ),
        choice(
            "look_at_own_tricks",
            &["yes", "no"],
            "Trick-taking games: whether a player may look at the tricks they have won.",
        ),
        key(
            "first_tiles",
            Int,
            "Banker games: tiles each player receives before betting.",
        ),
        key(
            "banker_tiles",
            Int,
            "Banker games: tiles the banker draws after the bets.",
        ),
        key(
            "draw_options",
            Ints,
            "Banker games: how many more tiles a player may take (e.g. [1, 2]).",
        ),
        key("min_bet", Int, "Banker games: the smallest bet."),
        key("max_bet", Int, "Banker games: the largest bet."),
        key(
            "bankroll",
            Int,
            "Banker games: chips each player starts with.",
        ),
        key(
            "banker_bankroll",
            Int,
            "Banker games: chips the banker starts with (unlimited without it).",
        ),
        key(
            "table_limit",
            Int,
            "Banker games, hands per seat: the most all the players' bets of one hand may add up to; a player left less than the smallest bet bets nothing that hand.",
        ),
        key("hands", Int, "Banker games: hands in a session."),
        key(
            "banker_win",
            Tables(&DEAL_CHECK),
            "Banker games: conditions on the banker's tiles that win every bet.",
        ),
        key(
            "value",
            Expr,
            "Banker games: a hand's value at the showdown (`sum(pips) % 10`); facts `hand_points` and `hand_cards`.",
        ),
        key(
            "card_value",
            Expr,
            "Banker games: what one card adds to `hand_points`, read on the card alone (`sum(pips)`).",
        ),
        key(
            "table_hand",
            Bool,
            "Banker games: one player hand for the table (punto banco); the seats only bet, on `[[flow.bet]]`.",
        ),
        key(
            "shoe_packs",
            Int,
            "Banker games: packs of the deck shuffled together into a shoe dealt across hands.",
        ),
        key(
            "cut_card",
            Int,
            "Banker games with a shoe: a hand starting with fewer cards left starts a new shoe.",
        ),
        key(
            "player_draw",
            Tables(&DRAW_RULE),
            "Banker games: when a player's hand draws, stands or leaves the choice to the player, the first rule that holds deciding.",
        ),
        key(
            "banker_draw",
            Tables(&DRAW_RULE),
            "Banker games: when the banker's hand draws or stands.",
        ),
        key(
            "hand_name",
            Tables(&HAND_NAME),
            "Banker games: a name for a hand's value, shown instead of its points (`value = 9`, `name = \"Kabu\"`).",
        ),
        key(
            "bet",
            Tables(&BET),
            "Banker games with a table hand: the bets a seat may place, each with its own stake.",
        ),
        key(
            "bank",
            Table(&BANK),
            "Banker games: the bank is one of the seats (not the house): how the first banker (or, in a pot game, the first dealer) is chosen and how the bank passes.",
        ),
        key(
            "hand_rank",
            Tables(&RANK),
            "Banker games: hands compared by named ranks, best first (the first whose `when` holds names a hand), instead of by `value` alone.",
        ),
        key(
            "special",
            Tables(&SPECIAL),
            "Banker games with `[[flow.hand_rank]]`: hands that beat only certain ranks above their own, or call for a redeal in a pot game.",
        ),
        key(
            "pot",
            Table(&POT),
            "Banker games: a pot game (a showdown among the seats, no banker's hand): antes, cards dealt before each betting round, and raises.",
        ),
        key(
            "arrange",
            Table(&ARRANGE),
            "Banker games: each player splits the cards dealt into named hands settled one by one against the banker's (Pai Gow's high and low hands); the banker arranges by the house way.",
        ),
        key(
            "commission",
            Ints,
            "Banker games, hands per seat: the share of a player's win against the banker the house keeps, as [numerator, denominator] ([5, 100] is 5%); the win less it is rounded down to whole chips (default none).",
        ),
        key(
            "banker_commission",
            Ints,
            "Banker games with `[flow.bank]`: the share of the banker seat's net win of a hand the house keeps, rounded as `commission` (default none).",
        ),
        key(
            "soft",
            Expr,
            "Banker games: when a hand is soft (facts `hand_points`, `hand_cards`, as in `value`), read as `player_soft` and `banker_soft` by the drawing rules, actions and payouts (0 without it).",
        ),
        key(
            "play",
            Table(&PLAY),
            "Banker games: each seat's hand is played by actions (`[[declaration]]` with effects `hit`, `stand`, `double`, `split`, `surrender`), the banker's shown card seen: how many hands a split may make and when the banker looks for a hand that ends the deal at once.",
        ),
        key(
            "insurance",
            Table(&INSURANCE),
            "Banker games with `[flow.play]`: a side bet of up to half the stake, offered before the seats act, on the banker's hand.",
        ),
        key(
            "payout",
            Tables(&PAYOUT),
            "Banker games with `[flow.play]`: what a hand brings at the showdown, the first whose `when` holds deciding; with none holding, the hands compare (by rank or value): a win pays 1 to 1, equal hands push.",
        ),
        key(
            "rank_order",
            Ints,
            "Climbing games: the values of the `rank` attribute from the lowest rank to the highest (Big Two: `[3, 4, ..., 13, 1, 2]`, twos high); every card's rank must be listed.",
        ),
        key(
            "suit_order",
            Strings,
            "Climbing games: the suits' ids from the lowest to the highest, which decides between cards of one rank (Big Two: diamonds, clubs, hearts, spades).",
        ),
        key(
            "run_order",
            Ints,
            "Climbing games: the `rank` values in the order a run (`run = true`) follows them, lowest first; a rank left out cannot sit in a run. Without it, runs follow `rank_order`.",
        ),
        key(
            "opening_must_include",
            Bool,
            "Climbing games: the first play of a hand must hold the `opening_lead` card (default false: its holder leads any play).",
        ),
        choice(
            "opening_hands",
            &["every", "first"],
            "Climbing games: the `opening_lead` card leads every hand (`every`, the default) or only the game's first, the last hand's winner leading the others (`first`).",
        ),
        choice(
            "after_pass",
            &["again", "out"],
            "Climbing games: a player who passed may play again when the turn comes back (`again`, the default; the trick ends when every other seat has passed in a row), or is out of the trick until it ends (`out`).",
        ),
        key(
            "penalty",
            Expr,
            "Climbing games: what a player pays for the cards left in hand when another goes out, with the hand as the pile (`count(pile)`); options may be read (`if double_at_ten and count(pile) >= 10 then 2 * count(pile) else count(pile)`).",
        ),
        choice(
            "penalty_to",
            &["winner", "none"],
            "Climbing games: the player who went out takes what the others pay (`winner`, the default), or the others only lose it (`none`).",
        ),
        key(
            "combination",
            Tables(&COMBINATION),
            "Climbing games: the classes of play (a single, a pair, a straight), tried in order: a set of cards is the first class it fits.",
        ),
    ],
);

/// `[[flow.combination]]`.
pub static COMBINATION: TableDef = table(
    "[[flow.combination]]",
    "A class of play in a climbing game: how many cards, how it is recognised (groups of one rank, a run, one suit), how two plays of it compare and which other classes it beats.",
    &[
        ID,
        ITS_NAME,
        required("cards", Int, "How many cards it takes (1 to 13)."),
        key(
            "groups",
            Ints,
            "The sizes of its groups of cards of one rank, in any order: `[2]` a pair, `[3, 2]` a full house, `[4, 1]` four of a kind with a single, `[1, 1, 1, 1, 1]` five ranks (a straight with `run`). They add up to `cards`.",
        ),
        key(
            "run",
            Bool,
            "The groups' ranks follow one another in `run_order` (a straight; with groups of 2, consecutive pairs). Needs `groups`, all of one size.",
        ),
        key("suited", Bool, "Every card of one suit (a flush)."),
        choice(
            "compare",
            &["highest", "group", "cards"],
            "How two plays of the class compare: by the highest card, rank then suit (`highest`, the default; a run by its top rank in the run order, then that card's suit), by the rank of the largest group (`group`: a full house by its triple), or card by card from the highest (`cards`).",
        ),
        key(
            "beats",
            Strings,
            "The ids of the other classes a play of this class beats whatever their cards (Big Two: a flush beats any straight). A play otherwise beats only a higher play of its own class.",
        ),
    ],
);

/// Hands played by actions: `[flow.play]`.
pub static PLAY: TableDef = table(
    "[flow.play]",
    "Each seat's hand is played by actions (the `[[declaration]]`s with banker effects), one hand at a time, after the banker's first card is shown.",
    &[
        key(
            "split_hands",
            Int,
            "The most hands one seat may hold by splitting (2 to 8, default 4: three splits).",
        ),
        key(
            "peek",
            Expr,
            "Read on the banker's whole first hand after the deal (and insurance): when it holds, the seats do not act and the hands are settled at once, each on its first cards (facts as in a payout).",
        ),
        key(
            "banker_shown",
            Int,
            "The banker's cards the seats see while they act (default 1, the up card).",
        ),
    ],
);

/// Hands the seats arrange: `[flow.arrange]`.
pub static ARRANGE: TableDef = table(
    "[flow.arrange]",
    "Each player splits the cards dealt into named hands (Pai Gow's high and low), the first ranking at least as high as the second; the banker arranges by the house way; each hand is compared with the banker's of the same name.",
    &[
        key(
            "hand",
            Tables(&ARRANGED_HAND),
            "The hands, strongest first: two, whose cards add up to `first_tiles` (and `banker_tiles`).",
        ),
        choice(
            "order",
            &["not-below", "above"],
            "The first hand must rank at least as high as the second (`not-below`, the default) or above it (`above`), by `[[flow.hand_rank]]` or else by `value`; with no such arrangement every one is allowed.",
        ),
        choice(
            "copies",
            &["banker", "push"],
            "A player's hand equal to the banker's of the same name goes to the banker (`banker`, the default) or to neither (`push`).",
        ),
        key(
            "pays",
            Ints,
            "What winning every hand pays, [numerator, denominator] of the bet (default [1, 1]); losing every hand loses the bet, anything else is a push.",
        ),
        key(
            "house_way",
            Tables(&HOUSE_WAY),
            "How the banker arranges, the first whose `when` holds deciding; none holding (or none given): the arrangement whose first hand is strongest.",
        ),
    ],
);

/// One of the hands of `[flow.arrange]`: `[[flow.arrange.hand]]`.
pub static ARRANGED_HAND: TableDef = table(
    "an arranged hand",
    "One of the hands a seat arranges its cards into.",
    &[
        ID,
        key("name", String, "Its display name (default: its id)."),
        required("cards", Int, "Cards in it (at least 1)."),
    ],
);

/// A rule of the house way: `[[flow.arrange.house_way]]`.
pub static HOUSE_WAY: TableDef = table(
    "a house way rule",
    "How the banker arranges its cards when `when` holds: the legal arrangement whose hand `maximise` is strongest.",
    &[
        ID,
        key("name", String, "Its display name (default: its id)."),
        key(
            "when",
            Expr,
            "When it applies, read on all the cards dealt (facts `hand_points`, `hand_cards`, as in `value`); always when absent.",
        ),
        required(
            "maximise",
            String,
            "The id of the hand the arrangement makes strongest; the other hand breaks ties, then the earliest arrangement in card order.",
        ),
        key(
            "keep",
            Expr,
            "A condition the other hand must meet, read on that hand as `value` is (a straight kept in the high hand while the low hand is made strongest); when no allowed arrangement meets it, every allowed one is weighed.",
        ),
    ],
);

/// Insurance: `[flow.insurance]`.
pub static INSURANCE: TableDef = table(
    "[flow.insurance]",
    "A side bet each seat may place before acting, of up to half its stake, that wins on the banker's hand.",
    &[
        required(
            "when",
            Expr,
            "When it is offered, on the seat's first hand and the banker's shown cards (`banker_up == 1`).",
        ),
        required(
            "wins",
            Expr,
            "When it wins, on the banker's whole first hand (`banker_total == 21 and banker_cards == 2`).",
        ),
        key(
            "pays",
            Ints,
            "What a won insurance pays, [numerator, denominator] (default [2, 1]).",
        ),
    ],
);

/// A payout: `[[flow.payout]]`.
pub static PAYOUT: TableDef = table(
    "a payout",
    "What a hand played by actions brings at the showdown, on both hands.",
    &[
        ID,
        ITS_NAME,
        required(
            "when",
            Expr,
            "When it applies: the facts of an action, the banker's whole hand read (`player_total > 21`).",
        ),
        choice(
            "result",
            &["win", "push", "lose"],
            "The hand wins, pushes (the stake comes back) or loses (default `win`).",
        ),
        key(
            "pays",
            Ints,
            "What a win brings (or a loss costs), [numerator, denominator] of the stake, a doubled stake counted whole (default [1, 1]; [3, 2] is 3 to 2).",
        ),
    ],
);

/// The bank as a seat: `[flow.bank]`.
pub static BANK: TableDef = table(
    "[flow.bank]",
    "The seat that banks (or deals, in a pot game): how the first is chosen and how the bank passes.",
    &[
        choice(
            "first",
            &["first-seat", "high-card", "low-card"],
            "How the first banker is chosen: the first seat, or the seat shown the card of highest (lowest) `value` when each seat in turn is shown one card of a shuffled pack (ties to the earlier seat).",
        ),
        key(
            "pass_when",
            Expr,
            "When the bank passes after a showdown, read for each player in turn after the banker (facts as in a drawing rule): the first player it holds for becomes the banker.",
        ),
        key(
            "pass_every",
            Int,
            "The bank passes to the next seat in turn after this many hands with one banker (0, the default: only by `pass_when`).",
        ),
        key(
            "pass_to_winner",
            Bool,
            "The hand's winner banks (deals) next: a pot's winner, or the player who beat the banker by most (`winner_by`); a hand no player wins leaves the bank where it is.",
        ),
        choice(
            "winner_by",
            &["chips", "hand"],
            "With `pass_to_winner`, hands per seat: the player who beat the banker by most is the one who won the most chips from it (`chips`, the default) or whose winning hand is best (`hand`).",
        ),
        choice(
            "winner_ties",
            &["banker-keeps", "first-in-turn"],
            "With `pass_to_winner`: when winners tie (a split pot), the banker keeps the bank (`banker-keeps`, the default) or the first of them in turn after the banker takes it.",
        ),
    ],
);

/// A named rank: `[[flow.hand_rank]]`.
pub static RANK: TableDef = table(
    "a hand rank",
    "A named rank of a banker game's hands; ranks are listed best first.",
    &[
        ID,
        required(
            "name",
            String,
            "Its display name; `{}` in it is replaced by the hand's `within` value (`{}-ttaeng`).",
        ),
        required(
            "when",
            Expr,
            "When a hand has this rank (facts `hand_points`, `hand_cards`, as in `value`).",
        ),
        key(
            "within",
            Expr,
            "Orders the hands of this rank, higher better (default: none, every hand of the rank is equal).",
        ),
    ],
);

/// A special hand: `[[flow.special]]`.
pub static SPECIAL: TableDef = table(
    "a special hand",
    "A hand that plays as its rank but also beats certain ranks above it, or calls for a redeal.",
    &[
        ID,
        ITS_NAME,
        required(
            "when",
            Expr,
            "When a hand is this special hand (facts as in `value`).",
        ),
        key(
            "beats",
            Strings,
            "The ranks (ids of `[[flow.hand_rank]]`) it beats, whatever their place; against every other hand it plays as its own rank.",
        ),
        key(
            "redeal_below",
            String,
            "Pot games: at the showdown, when every other hand still in ranks below this rank (an id of `[[flow.hand_rank]]`), the hand is dealt again among the seats still in, the pot kept.",
        ),
    ],
);

/// A pot game: `[flow.pot]`.
pub static POT: TableDef = table(
    "[flow.pot]",
    "A pot game: each seat antes, cards are dealt before each betting round, and the best hand still in at the showdown takes the pot.",
    &[
        key(
            "ante",
            Int,
            "Chips each seat puts in the pot before the deal (default 1).",
        ),
        required(
            "rounds",
            Ints,
            "Cards dealt to each seat before each betting round, in order (`[1, 1]`: one card, a round, a second card, a round).",
        ),
        key(
            "raises",
            Int,
            "The most raises in one betting round (default 3); a raise is `min_bet` to `max_bet` more than the bet to call.",
        ),
    ],
);

/// A hand's name by its value: `[[flow.hand_name]]`.
pub static HAND_NAME: TableDef = table(
    "a hand's name",
    "What a banker game calls a hand of one value.",
    &[
        required("value", Int, "The hand's value (what `value` gives)."),
        required("name", String, "Its name (`Kabu`)."),
    ],
);

/// A drawing rule: `[[flow.player_draw]]`, `[[flow.banker_draw]]`.
pub static DRAW_RULE: TableDef = table(
    "a drawing rule",
    "When a banker game's hand takes another card.",
    &[
        ID,
        ITS_NAME,
        required(
            "when",
            Expr,
            "When it applies: facts `player_total`, `player_cards`, `player_drew`, `banker_total`, `banker_cards`, `banker_drew` (with `[flow.play]`, those of an action too: `banker_soft`, ...).",
        ),
        choice(
            "action",
            &["draw", "stand", "choose"],
            "What the hand does: take a card (then the rules are read again), stand, or (a player's hand per seat) let the player choose from `draw_options`.",
        ),
    ],
);

/// A bet on a table hand: `[[flow.bet]]`.
pub static BET: TableDef = table(
    "a bet",
    "A bet a seat may place on the outcome of a banker game's table hand.",
    &[
        ID,
        ITS_NAME,
        required(
            "wins",
            Expr,
            "When it wins: facts as in a drawing rule (`banker_total > player_total`).",
        ),
        key(
            "pushes",
            Expr,
            "When the stake comes back, neither won nor lost.",
        ),
        key(
            "pays",
            Ints,
            "What a won stake pays, as [numerator, denominator]: [8, 1] is 8 to 1 (default [1, 1]).",
        ),
        key(
            "commission",
            Ints,
            "The share of a win the house keeps, as [numerator, denominator]: [5, 100] is 5% (default none).",
        ),
    ],
);

/// `[scoring]`.
pub static SCORING: TableDef = table(
    "[scoring]",
    "The rhai scoring script: `script` (a file) or `source` (inline), defining fn score(hand).",
    &[
        SCRIPT_FILE,
        SCRIPT_SOURCE,
        key(
            "zero_sum",
            Bool,
            "Every hand's points add up to zero across the seats (what one seat wins the others lose): checked on every hand the script settles, naming the seats when it does not.",
        ),
        key(
            "adjust",
            Tables(&ADJUST),
            "House rules' adjustments of the script's outcome, run in order after it.",
        ),
    ],
);

/// `[[scoring.adjust]]`.
pub static ADJUST: TableDef = table(
    "[[scoring.adjust]]",
    "A change to the scoring script's outcome: a rhai script defining fn adjust(hand, result), given the outcome so far and returning the new one.",
    &[
        required(
            "id",
            String,
            "Its id (a house rule of a house rule changes or removes it by id).",
        ),
        SCRIPT_FILE,
        SCRIPT_SOURCE,
    ],
);
