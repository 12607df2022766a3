//! The rules over a seat's meld history after play (`[flow] meld_reuse`, `meld_new_card`), on
//! the test ruleset `tests/rulesets/meld-growth.toml` (two-handed Pinochle's melds, Hearts
//! trumps): what a meld may use given the melds the seat showed before, by the table alone.

use crate::core::DeclId;
use crate::deck::{CardId, CardSet};
use crate::ruleset::melds::{MeldTable, Melded, Shown};
use crate::ruleset::{self, MeldMoment, MeldNewCard, MeldReuse, MeldRules, Ruleset};

const RULESET: &str = "tests/rulesets/meld-growth.toml";
const HEARTS: usize = 0;

fn load() -> Ruleset {
    let loaded = ruleset::load(RULESET);
    loaded
        .value
        .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics))
}

fn cards(r: &Ruleset, ids: &str) -> CardSet {
    ids.split(',')
        .map(|id| {
            r.deck
                .card_by_id(id.trim())
                .unwrap_or_else(|| panic!("no card `{id}`"))
        })
        .collect()
}

fn card(r: &Ruleset, id: &str) -> CardId {
    r.deck.card_by_id(id).unwrap()
}

fn decl(r: &Ruleset, id: &str) -> DeclId {
    DeclId(r.declarations.iter().position(|d| d.id == id).unwrap() as u8)
}

/// The meld `decl` shows with `named` from `hand` after `history`, under `rules`: its id and
/// cards (in deck order), or `None`.
fn shown(
    r: &Ruleset,
    rules: MeldRules,
    history: &[Melded],
    hand: &str,
    decl_id: &str,
    named: &str,
) -> Option<(String, String)> {
    let flow = r.tricks().unwrap();
    let table: MeldTable = flow.meld_table.clone().with_rules(rules);
    let s: Option<Shown> = table.shown(
        &flow.melds,
        decl(r, decl_id),
        MeldMoment::WonTrick,
        HEARTS,
        cards(r, hand),
        card(r, named),
        |m| table.reuse(&flow.melds, m, history.iter()),
    );
    s.map(|s| {
        let ids: Vec<&str> = s.melded.cards.iter().map(|c| r.deck.id_of(c)).collect();
        (flow.melds[s.melded.meld as usize].id.clone(), ids.join(","))
    })
}

fn melded(r: &Ruleset, id: &str, ids: &str) -> Melded {
    let flow = r.tricks().unwrap();
    Melded {
        meld: flow.melds.iter().position(|m| m.id == id).unwrap() as u16,
        cards: cards(r, ids),
    }
}

const GROW: MeldRules = MeldRules {
    reuse: MeldReuse::Grow,
    new_card: MeldNewCard::FromHand,
};

const FLUSH: &str = "hearts-ace,hearts-ten,hearts-king,hearts-queen,hearts-jack";

/// pokerwiner: "if hearts are trumps a player may meld ♥ K, Q and score for the royal marriage,
/// and later he may add ♥ A, 10, J and score for the sequence": the flush uses the marriage's
/// King and Queen again (before its other copies); the royal marriage is refused after the
/// flush from the same cards (never the lower after the higher), but not from the other copies.
#[test]
fn a_royal_marriage_grows_into_the_flush_never_back() {
    let r = load();
    let marriage = melded(&r, "royal-marriage", "hearts-king,hearts-queen");
    let hand = format!("{FLUSH},hearts-king-p2,hearts-queen-p2");
    assert_eq!(
        shown(&r, GROW, &[marriage], &hand, "meld", "hearts-ten"),
        Some(("flush".into(), FLUSH.into()))
    );
    let flush = melded(&r, "flush", FLUSH);
    // From the flush's King and Queen: refused, whichever is named.
    assert_eq!(
        shown(
            &r,
            GROW,
            &[marriage, flush],
            &hand,
            "marriage",
            "hearts-king"
        ),
        None
    );
    // From the other copies (never shown): a royal marriage of its own.
    assert_eq!(
        shown(
            &r,
            GROW,
            &[marriage, flush],
            &hand,
            "marriage",
            "hearts-king-p2"
        ),
        Some((
            "royal-marriage".into(),
            "hearts-king-p2,hearts-queen-p2".into()
        ))
    );
    // With the flush shown first, no royal marriage of its King and Queen.
    assert_eq!(
        shown(&r, GROW, &[flush], FLUSH, "marriage", "hearts-queen"),
        None
    );
    // Under `other-class` (the default) the flush after the marriage is refused: its King and
    // Queen were shown in the class.
    let other = MeldRules::default();
    assert_eq!(
        shown(&r, other, &[marriage], FLUSH, "meld", "hearts-ten"),
        None
    );
}

/// A single pinochle grows into a double pinochle with the second Queen and Jack (both new);
/// the double shown first leaves no single pinochle of its cards; a second single pinochle is
/// never made with a card of the first (a card never twice in one meld).
#[test]
fn a_pinochle_grows_into_a_double() {
    let r = load();
    let single = melded(&r, "pinochle", "spades-queen,diamonds-jack");
    let double_hand = "diamonds-jack,diamonds-jack-p2,spades-queen,spades-queen-p2";
    assert_eq!(
        shown(&r, GROW, &[single], double_hand, "meld", "spades-queen"),
        Some(("double-pinochle".into(), double_hand.into()))
    );
    let double = melded(&r, "double-pinochle", double_hand);
    assert_eq!(
        shown(&r, GROW, &[double], double_hand, "marriage", "spades-queen"),
        None
    );
    // A second single pinochle: the first Queen with the second Jack is refused (the Queen was
    // shown in a pinochle), the second Queen with it is a pinochle of its own.
    let hand = "spades-queen,diamonds-jack,diamonds-jack-p2";
    assert_eq!(
        shown(&r, GROW, &[single], hand, "marriage", "spades-queen"),
        None
    );
    let hand = "spades-queen,spades-queen-p2,diamonds-jack,diamonds-jack-p2";
    assert_eq!(
        shown(&r, GROW, &[single], hand, "marriage", "spades-queen-p2"),
        Some(("pinochle".into(), "diamonds-jack-p2,spades-queen-p2".into()))
    );
}

/// The Queen of Spades shown in a marriage serves again in a pinochle and in queens around
/// (other classes), each time with a card new to the table; a pinochle of a Queen shown in a
/// marriage and a Jack shown in jacks around lays out no new card and is refused under
/// `meld_new_card = "hand"`, allowed under `"class"` (both are new to its class) and `"none"`.
#[test]
fn a_queen_serves_again_across_classes() {
    let r = load();
    let marriage = melded(&r, "marriage", "spades-king,spades-queen");
    let hand = "spades-king,spades-queen,diamonds-jack";
    assert_eq!(
        shown(&r, GROW, &[marriage], hand, "marriage", "diamonds-jack"),
        Some(("pinochle".into(), "diamonds-jack,spades-queen".into()))
    );
    let pinochle = melded(&r, "pinochle", "spades-queen,diamonds-jack");
    let hand = "spades-king,spades-queen,diamonds-jack,hearts-queen,clubs-queen,diamonds-queen";
    assert_eq!(
        shown(&r, GROW, &[marriage, pinochle], hand, "meld", "clubs-queen"),
        Some((
            "queens-around".into(),
            "hearts-queen,diamonds-queen,clubs-queen,spades-queen".into()
        ))
    );
    let jacks = melded(
        &r,
        "jacks-around",
        "hearts-jack,diamonds-jack,clubs-jack,spades-jack",
    );
    let hand = "spades-king,spades-queen,hearts-jack,diamonds-jack,clubs-jack,spades-jack";
    let history = [marriage, jacks];
    assert_eq!(
        shown(&r, GROW, &history, hand, "marriage", "diamonds-jack"),
        None
    );
    let in_class = MeldRules {
        new_card: MeldNewCard::InClass,
        ..GROW
    };
    let pinochle = Some(("pinochle".into(), "diamonds-jack,spades-queen".into()));
    assert_eq!(
        shown(&r, in_class, &history, hand, "marriage", "diamonds-jack"),
        pinochle
    );
    assert_eq!(
        shown(
            &r,
            MeldRules::default(),
            &history,
            hand,
            "marriage",
            "diamonds-jack"
        ),
        pinochle
    );
    // `none`: a card shown once serves in no other meld.
    let never = MeldRules {
        reuse: MeldReuse::Never,
        new_card: MeldNewCard::Nothing,
    };
    assert_eq!(
        shown(&r, never, &history, hand, "marriage", "diamonds-jack"),
        None
    );
}

/// `meld_reuse` and `meld_new_card` are refused, where written, on a ruleset that shows every
/// meld before play, and an unknown value names the choices.
#[test]
fn meld_rules_without_melds_after_play_are_refused() {
    let text = std::fs::read_to_string("rulesets/pinochle.toml")
        .unwrap()
        .replace(
            "first_dealer = \"random\"",
            "first_dealer = \"random\"\nmeld_reuse = \"grow\"\nmeld_new_card = \"hand\"",
        )
        .replace(
            "script = \"scripts/pinochle.rhai\"",
            "source = \"fn score(hand) { 1 }\"",
        );
    let loaded = ruleset::load_str("rulesets/grow.toml", &text);
    assert!(loaded.value.is_none());
    insta::assert_snapshot!(
        "meld_rules_refused",
        crate::diag::render_text(&loaded.sources, &loaded.diagnostics)
    );
    let text = std::fs::read_to_string(RULESET)
        .unwrap()
        .replace("meld_reuse = \"grow\"", "meld_reuse = \"higher\"");
    let loaded = ruleset::load_str("tests/rulesets/meld-growth.toml", &text);
    assert!(loaded.value.is_none());
    insta::assert_snapshot!(
        "meld_reuse_unknown",
        crate::diag::render_text(&loaded.sources, &loaded.diagnostics)
    );
}
