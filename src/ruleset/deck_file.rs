//! Reading a deck file (`rulesets/decks/*.toml`) into a [`Deck`], with every consistency error.

use super::keys;
use super::reader::{Str, TableReader};
use super::toml_tree::Table;
use crate::deck::{ArtStyle, Attribute, Card, CardId, CardSet, Deck, Kind, Suit, TILE_WIDTH};
use crate::diag::{Diagnostic, Loc, did_you_mean};
use crate::expr::FUNCTIONS;
use std::collections::HashMap;

/// The largest value a card attribute may have, either way: 64 cards of it sum far inside
/// 64 bits, however a game adds them.
pub const MAX_CARD_VALUE: i64 = 1_000_000;

/// Words that cannot be names of cards, suits or kinds, because expressions use them.
const RESERVED: &[&str] = &[
    "and", "or", "not", "if", "then", "else", "true", "false", "pile",
];

/// A line of a card's tile: the text given (at most [`TILE_WIDTH`] characters, else an error),
/// or the start of `default`.
fn tile_text(
    given: Option<&Str>,
    default: Option<&String>,
    errors: &mut Vec<Diagnostic>,
) -> String {
    match given {
        Some(t) if t.text.chars().count() > TILE_WIDTH || t.text.chars().any(char::is_control) => {
            errors.push(Diagnostic::error(
                format!(
                    "`{}` does not fit on a card's tile: at most {TILE_WIDTH} characters, no control characters",
                    crate::diag::escape_control(t.text)
                ),
                t.loc.clone(),
            ));
            String::new()
        }
        Some(t) => t.text.to_string(),
        None => default.map_or_else(String::new, |d| d.chars().take(TILE_WIDTH).collect()),
    }
}

/// Reads a whole deck file.
pub fn read_deck(doc: &Table, doc_loc: Loc, errors: &mut Vec<Diagnostic>) -> Option<Deck> {
    let before = errors.len();
    let mut top =
        TableReader::new(doc, doc_loc.clone(), "the deck file").defined_by(&keys::DECK_FILE);
    let header = top.table("deck", errors);
    let suits = top.tables("suit", errors);
    top.finish(errors);
    let Some((header, header_loc)) = header else {
        top_missing(doc_loc, "deck", errors);
        return None;
    };
    let mut h = TableReader::new(header, header_loc.clone(), "`[deck]`").defined_by(&keys::DECK);
    let id = h.required_string("id", errors);
    let name = h.string("name", errors);
    let _description = h.string("description", errors);
    let per_suit = h.int("cards_per_suit", errors);
    let suit_word = h.string("suit_word", errors);
    let kind_names = h.strings("kinds", errors);
    let attr_names = h.strings("attributes", errors);
    let packs = h.int("packs", errors);
    let art = h.string("art", errors);
    h.finish(errors);
    let art = art.and_then(|a| {
        let found = ArtStyle::ALL
            .iter()
            .find(|(n, _)| *n == a.text)
            .map(|(_, s)| *s);
        if found.is_none() {
            let all: Vec<&str> = ArtStyle::ALL.iter().map(|(n, _)| *n).collect();
            errors.push(
                Diagnostic::error(
                    format!(
                        "`{}` is not a style of card faces",
                        crate::diag::escape_control(a.text)
                    ),
                    a.loc.clone(),
                )
                .with_help(Some(format!("`art` is one of: {}", all.join(", ")))),
            );
        }
        found
    });
    // How many identical packs the deck is made of: each suit holds its listed cards, then their
    // copies pack by pack (ids `<id>-p2`, `<id>-p3`, ...; same name, suit, kinds and attributes).
    let copies = match packs {
        None => 1,
        Some((n, _)) if (1..=i64::from(MAX_PACKS)).contains(&n) => n as u32,
        Some((n, loc)) => {
            errors.push(Diagnostic::error(
                format!("`packs` is {n}: a deck is 1 to {MAX_PACKS} packs"),
                loc.clone(),
            ));
            1
        }
    };
    // The cards the file asks for, and where the first that does not fit was asked for: one
    // error for a deck that is too large, not one per card.
    let mut wanted = 0usize;
    let mut too_many: Option<Loc> = None;

    let mut names = NameRegistry::default();
    if let Some(w) = suit_word {
        check_ident(&w, errors);
        if FUNCTIONS.iter().any(|(f, _)| *f == w.text) {
            errors.push(Diagnostic::error(
                format!(
                    "`suit_word` `{}` is already a function of the expression language",
                    w.text
                ),
                w.loc.clone(),
            ));
        }
    }
    let mut kinds: Vec<Kind> = Vec::new();
    for k in &kind_names {
        if names.claim(k, "kind", errors) {
            kinds.push(Kind {
                id: k.text.to_string(),
                cards: CardSet::EMPTY,
            });
        }
    }
    let mut attributes: Vec<Attribute> = Vec::new();
    for a in &attr_names {
        if names.claim(a, "attribute", errors) {
            attributes.push(Attribute {
                id: a.text.to_string(),
                values: Vec::new(),
            });
        }
    }
    if suits.is_empty() {
        errors.push(Diagnostic::error(
            "the deck has no `[[suit]]`",
            doc_loc.clone(),
        ));
    }

    let mut deck_suits = Vec::new();
    let mut cards: Vec<Card> = Vec::new();
    let mut optional_cards = CardSet::EMPTY;
    for (suit_table, suit_loc) in suits {
        let mut s =
            TableReader::new(suit_table, suit_loc.clone(), "a `[[suit]]`").defined_by(&keys::SUIT);
        let sid = s.required_string("id", errors);
        let sname = s.string("name", errors);
        let short = s.string("short", errors);
        let colour = s.string("colour", errors);
        let four_colour = s.string("four_colour", errors);
        let size = s.int("size", errors);
        let aliases = s.strings("aliases", errors);
        let suit_mark = s.string("mark", errors);
        let card_items = s.tables("cards", errors);
        if suit_table.get("cards").is_none() {
            s.missing("cards", errors);
        }
        s.finish(errors);
        let Some(sid) = sid else { continue };
        names.claim(&sid, "suit", errors);
        let suit_index = deck_suits.len();
        let mut suit_cards = CardSet::EMPTY;
        for (card_table, card_loc) in &card_items {
            let what = format!("a card of suit `{}`", sid.text);
            let mut c =
                TableReader::new(card_table, (*card_loc).clone(), what).defined_by(&keys::CARD);
            let cid = c.required_string("id", errors);
            let cname = c.string("name", errors);
            let ckinds = c.strings("kinds", errors);
            let face = c.string("face", errors);
            let optional = c.boolean("optional", errors).is_some_and(|(b, _)| b);
            let card_mark = c.string("mark", errors);
            let mut values = Vec::new();
            for (i, a) in attributes.iter().enumerate() {
                let key = a.id.as_str();
                match c.int(key, errors) {
                    // Sums of values over a pile must stay far inside 64 bits (a card worth
                    // 2^63-1 made a trick worth a negative number of points).
                    Some((v, at)) if v.unsigned_abs() > MAX_CARD_VALUE.unsigned_abs() => errors.push(
                        Diagnostic::error(
                            format!(
                                "`{key}` is {v}; a card's value is at most {MAX_CARD_VALUE} either way"
                            ),
                            at.clone(),
                        ),
                    ),
                    Some((v, _)) => values.push((i, v)),
                    None if card_table.get(key).is_none() => c.missing(key, errors),
                    None => {}
                }
            }
            c.finish(errors);
            let Some(cid) = cid else { continue };
            if !names.claim(&cid, "card", errors) {
                continue;
            }
            wanted += 1;
            if cards.len() >= CardSet::CAPACITY {
                too_many.get_or_insert_with(|| cid.loc.clone());
                continue;
            }
            let card = CardId(cards.len() as u8);
            suit_cards.insert(card);
            if optional {
                optional_cards.insert(card);
            }
            let mut card_kinds = Vec::new();
            for k in &ckinds {
                match kinds.iter_mut().find(|x| x.id == k.text) {
                    Some(kind) => {
                        kind.cards.insert(card);
                        card_kinds.push(k.text.to_string());
                    }
                    None => errors.push(unknown_kind(k, &kinds)),
                }
            }
            for (i, v) in values {
                let a = &mut attributes[i];
                a.values.resize(card.index(), 0);
                a.values.push(v);
            }
            cards.push(Card {
                face: tile_text(face.as_ref(), card_kinds.first(), errors),
                id: cid.text.to_string(),
                name: cname.map_or_else(|| cid.text.to_string(), |n| n.text.to_string()),
                suit: suit_index,
                kinds: card_kinds,
                mark: art_mark(
                    card_mark.as_ref(),
                    art,
                    "card",
                    ArtStyle::card_marks,
                    errors,
                ),
            });
        }
        // The other packs' copies of this suit's cards, after its listed ones.
        let listed = suit_cards.iter().collect::<Vec<_>>();
        wanted += card_items.len() * (copies as usize - 1);
        for pack in 2..=copies {
            for &original in &listed {
                if cards.len() >= CardSet::CAPACITY {
                    if let Some((_, loc)) = packs {
                        too_many.get_or_insert_with(|| loc.clone());
                    }
                    continue;
                }
                let card = CardId(cards.len() as u8);
                let mut copy = cards[original.index()].clone();
                copy.id = format!("{}-p{pack}", copy.id);
                names.claim_copy(&copy.id, &sid, errors);
                suit_cards.insert(card);
                if optional_cards.contains(original) {
                    optional_cards.insert(card);
                }
                for kind in kinds.iter_mut().filter(|k| k.cards.contains(original)) {
                    kind.cards.insert(card);
                }
                for a in &mut attributes {
                    let v = a.values.get(original.index()).copied().unwrap_or(0);
                    a.values.resize(card.index(), 0);
                    a.values.push(v);
                }
                cards.push(copy);
            }
        }
        let expected = match (size, per_suit) {
            (Some((n, _)), _) => Some((n, "this suit's `size`")),
            (None, Some((n, _))) => Some((n, "the deck's `cards_per_suit`")),
            (None, None) => None,
        };
        // Count the cards as written: a card rejected for another error (a duplicate or invalid
        // id) is still one of the suit's cards, and counting it avoids a second, misleading error.
        let count = card_items.len();
        if let Some((n, key)) = expected
            && i64::try_from(count).ok() != Some(n)
        {
            errors.push(Diagnostic::error(
                format!(
                    "suit `{}` has {count} card{}, but {key} is {n}",
                    sid.text,
                    if count == 1 { "" } else { "s" }
                ),
                sid.loc.clone(),
            ));
        }
        for a in &aliases {
            names.claim(a, "suit alias", errors);
        }
        let colour = suit_colour(colour, errors);
        let four_colour = suit_colour(four_colour, errors);
        deck_suits.push(Suit {
            colour,
            four_colour,
            short: tile_text(short.as_ref(), Some(&sid.text.to_string()), errors),
            aliases: aliases.iter().map(|a| a.text.to_string()).collect(),
            id: sid.text.to_string(),
            name: sname.map_or_else(|| sid.text.to_string(), |n| n.text.to_string()),
            number: suit_index as u32 + 1,
            cards: suit_cards,
            mark: art_mark(
                suit_mark.as_ref(),
                art,
                "suit",
                ArtStyle::suit_marks,
                errors,
            ),
        });
    }
    for a in &mut attributes {
        a.values.resize(cards.len(), 0);
    }
    if let Some(loc) = too_many {
        let mut finding = Diagnostic::error(
            format!(
                "the deck has {wanted} cards, but a deck holds at most {}",
                CardSet::CAPACITY
            ),
            loc,
        )
        .with_label("the first card past the limit");
        if CardSet::CAPACITY < 128 {
            // The `yaku` command hands such a deck to its 128-bit build (`cli::run_with_wider`),
            // which plays it or says its own limit; a program using this library alone builds it
            // with `--features wide-decks`.
            finding = finding
                .with_code(crate::diag::DiagnosticCode::DeckNeedsWiderSets)
                .with_help((wanted <= 128).then(|| {
                    "the library built with `--features wide-decks` holds decks of up to 128 cards"
                        .to_string()
                }));
        }
        errors.push(finding);
    }
    if errors.len() > before {
        return None;
    }
    Some(
        Deck {
            id: id?.text.to_string(),
            name: name.map_or_else(String::new, |n| n.text.to_string()),
            cards,
            suits: deck_suits,
            kinds,
            attributes,
            suit_word: suit_word.map(|w| w.text.to_string()),
            optional: optional_cards,
            art,
            suit_cards: Vec::new(),
        }
        .with_suit_cards(),
    )
}

/// A suit's or a card's `mark`: one of the marks the deck's `art` style draws for a `what`
/// (`suit`, `card`), else an error (a mark without `art` too: nothing would draw it).
/// A suit's `colour` (or `four_colour`): one of the names every table can show, else an error
/// at it with the names.
fn suit_colour(colour: Option<Str<'_>>, errors: &mut Vec<Diagnostic>) -> Option<&'static str> {
    let c = colour?;
    let found = crate::deck::SUIT_COLOURS
        .iter()
        .copied()
        .find(|&known| known == c.text);
    if found.is_none() {
        errors.push(
            Diagnostic::error(
                format!(
                    "`{}` is not a suit colour",
                    crate::diag::escape_control(c.text)
                ),
                c.loc.clone(),
            )
            .with_help(Some(format!(
                "a suit's colour is one of: {}",
                crate::deck::SUIT_COLOURS.join(", ")
            ))),
        );
    }
    found
}

fn art_mark(
    given: Option<&Str>,
    art: Option<ArtStyle>,
    what: &str,
    marks: fn(ArtStyle) -> &'static [&'static str],
    errors: &mut Vec<Diagnostic>,
) -> Option<String> {
    let given = given?;
    let known = art.map_or(&[][..], marks);
    if known.contains(&given.text) {
        return Some(given.text.to_string());
    }
    let help = match art {
        None => "a `mark` needs the deck's `art`, the style that draws it".to_string(),
        Some(style) if known.is_empty() => {
            format!("`{}` faces draw no {what} marks", style.name())
        }
        Some(style) => format!(
            "a {what}'s mark in `{}` faces is one of: {}",
            style.name(),
            known.join(", ")
        ),
    };
    errors.push(
        Diagnostic::error(
            format!(
                "`{}` is not a {what} mark",
                crate::diag::escape_control(given.text)
            ),
            given.loc.clone(),
        )
        .with_help(Some(help)),
    );
    None
}

pub(super) fn unknown_kind(k: &Str, kinds: &[Kind]) -> Diagnostic {
    let help = did_you_mean(k.text, kinds.iter().map(|k| k.id.as_str())).or_else(|| {
        let all: Vec<&str> = kinds.iter().map(|k| k.id.as_str()).collect();
        Some(format!("the deck's kinds: {}", all.join(", ")))
    });
    Diagnostic::error(format!("unknown kind `{}`", k.text), k.loc.clone()).with_help(help)
}

fn top_missing(loc: Loc, key: &str, errors: &mut Vec<Diagnostic>) {
    errors.push(
        Diagnostic::error(
            format!("the deck file has no `[{key}]` table"),
            Loc::new(loc.file, 0..0),
        )
        .with_label(format!("add a `[{key}]` table")),
    );
}

/// Checks that a name can be written in expressions.
pub(super) fn check_ident(s: &Str, errors: &mut Vec<Diagnostic>) -> bool {
    let t = s.text;
    let mut words = t.split('-');
    let first_ok = words.next().is_some_and(|w| {
        w.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    });
    let rest_ok =
        words.all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    if !(first_ok && rest_ok) {
        // What is wrong, in so many words: a digit first is the usual slip (`2h`, `9lives`).
        let word_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        let why = match t.chars().next() {
            None => "a name cannot be empty".to_string(),
            Some(c) if !c.is_ascii_alphabetic() => {
                format!("a name must start with a letter, not `{c}`")
            }
            _ => match t.chars().find(|&c| !word_char(c)) {
                Some(c) => format!("`{c}` cannot be part of a name"),
                None => "a `-` goes only between two words".to_string(),
            },
        };
        errors.push(
            Diagnostic::error(format!("`{t}` is not a valid name: {why}"), s.loc.clone())
                .with_help(Some(
                    "names start with a letter and hold letters, digits, `_`, and single `-` between words (`two-hearts`, `h2`)".into(),
                )),
        );
        return false;
    }
    if RESERVED.contains(&t) {
        errors.push(Diagnostic::error(
            format!("`{t}` is a reserved word of the expression language"),
            s.loc.clone(),
        ));
        return false;
    }
    true
}

/// The most packs a deck file may ask for (`packs`).
pub const MAX_PACKS: u32 = 8;

/// Every name in a deck means one thing: a kind, an attribute, a suit or a card.
#[derive(Default)]
struct NameRegistry {
    seen: HashMap<String, (&'static str, Loc)>,
}

impl NameRegistry {
    fn claim(&mut self, s: &Str, what: &'static str, errors: &mut Vec<Diagnostic>) -> bool {
        if !check_ident(s, errors) {
            return false;
        }
        if let Some((other, _)) = self.seen.get(s.text) {
            let (message, help) = if *other == what {
                (format!("duplicate {what} id `{}`", s.text), None)
            } else {
                (
                    format!("`{}` is already the name of a {other}", s.text),
                    Some(format!(
                        "every name in a deck means one thing in expressions; rename the {what} \
                         or the {other}"
                    )),
                )
            };
            errors.push(Diagnostic::error(message, s.loc.clone()).with_help(help));
            return false;
        }
        self.seen.insert(s.text.to_string(), (what, s.loc.clone()));
        true
    }

    /// Claims the id of another pack's copy of a card, made from the file's own id (so always a
    /// valid name); a clash with a name the file gives is an error at the copied card's suit.
    fn claim_copy(&mut self, id: &str, suit: &Str, errors: &mut Vec<Diagnostic>) {
        if let Some((other, _)) = self.seen.get(id) {
            errors.push(Diagnostic::error(
                format!(
                    "`{id}`, the id of a card's copy in another pack, is already the name of a {other}"
                ),
                suit.loc.clone(),
            ));
            return;
        }
        self.seen.insert(id.to_string(), ("card", suit.loc.clone()));
    }
}
