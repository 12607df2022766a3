//! The keys of an announcement of a trick-taking game (`[[flow.announcement]]`): who makes it,
//! in which window of play, after which other, and what it does to the stake and the target.
//! Apart from `mod.rs` by size.

use super::*;

/// `[[flow.announcement]]`.
pub static ANNOUNCEMENT: TableDef = table(
    "[[flow.announcement]]",
    "An announcement that raises the stake or sets a target (a double, a redouble, schneider announced): made with the `[[declaration]]` of the same id (`effect = \"announce\"`) by a seat of `by` on its turn during play, once a hand. The hand's settlement is multiplied by the `factor` of each announcement made; the scoring script reads them as `hand.announcements` (each `#{ id, seat, side, factor, reached }`, `side` being `\"self\"` or `\"opponent\"`) and their product as `hand.stake`.",
    &[
        required(
            "id",
            String,
            "Its id: the id of its `[[declaration]]` (`effect = \"announce\"`), whose name and prompt it is offered with.",
        ),
        choice(
            "by",
            &["declarer", "defenders", "any"],
            "Who may make it: the declarer's side (the declarer and its partners, a called one included), the defenders (the seats against it), or any seat (`any`, the default). `declarer` and `defenders` need a `[flow.auction]`.",
        ),
        key(
            "until_card",
            Int,
            "Its window: it may be made on the announcer's turn while it has played fewer cards than this to tricks this hand (1, the default: before its first card; 1 to 64).",
        ),
        key(
            "after",
            String,
            "The id of another announcement that must have been made first this hand (a redouble after the double).",
        ),
        key(
            "factor",
            Int,
            "What the hand's settlement is multiplied by once it is made (2: a double; 1, the default: it only sets a target; 1 to 100).",
        ),
        key(
            "points",
            Int,
            "Target: the card points (with counted marriages) the announcing side must take; the script reads `reached`.",
        ),
        KeyDef {
            values: &["all"],
            ..key(
                "min_tricks",
                IntOrWord,
                "Target: the tricks the announcing side must take at least, or `\"all\"` (schwarz).",
            )
        },
        key(
            "max_tricks",
            Int,
            "Target: the tricks the announcing side may take at most.",
        ),
    ],
);
