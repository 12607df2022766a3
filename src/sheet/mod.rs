//! Rule sheets: the condensed sheet of rules players look up during play (source 004's memory
//! aid), generated from a loaded ruleset so that every ruleset, house rules included, has one.
//! `build` gathers the sheet; `render` prints it as text, Markdown or a self-contained HTML page.
//!
//! ```
//! let ruleset = yaku::ruleset::load("koikoi").value.unwrap();
//! let text = yaku::sheet::text_sheet(&ruleset);
//! assert!(text.contains("Tsukimi-zake (moon viewing)"));
//! ```

mod climbing;
mod flow;
mod render;
mod trick_order;

pub use render::{Format, render, render_text, text_section};

use crate::deck::CardSet;
use crate::expr::{Lexicon, SetWords, words};
use crate::ruleset::Ruleset;

/// A rule sheet: a title, a summary, and sections of rules.
#[derive(Clone, Debug)]
pub struct Sheet {
    /// The ruleset's name.
    pub title: String,
    /// What it is, in a sentence.
    pub summary: String,
    /// The ruleset this one changes, when it is a house rule.
    pub base: Option<String>,
    /// The sections, in reading order.
    pub sections: Vec<Section>,
    /// The deck by suit (month), each card as the HTML sheet draws it: a crib sheet.
    pub deck_tiles: Vec<(String, Vec<Tile>)>,
    /// Each yaku's cards, by the yaku's name: the cards its condition reads, and how many of
    /// them it needs at least (0 when no bound is known).
    pub yaku_tiles: Vec<(String, Vec<Tile>, u32)>,
}

/// A card as the HTML sheet draws it, from the deck's data: its face drawn as the browser's
/// table draws it ([`crate::deck::face::svg`]), its name and kinds on hover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tile {
    /// The suit's short name (`Jan`).
    pub suit: String,
    /// The card's face (`Light`).
    pub face: String,
    /// The card's name, for a tooltip (`Crane and Sun`).
    pub name: String,
    /// Its first kind (`bright`), named on hover; empty for none.
    pub kind: String,
    /// Its face as an SVG element, the same as the browser's table shows.
    pub svg: String,
}

/// One section of a sheet: a heading and its rules.
#[derive(Clone, Debug)]
pub struct Section {
    /// The heading (`Yaku`).
    pub heading: String,
    /// The rules, one a line.
    pub rules: Vec<Rule>,
}

/// One rule of a sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The rule's name, when it has one (a yaku's).
    pub name: Option<String>,
    /// The rule in words.
    pub text: String,
    /// How it differs from the base ruleset's sheet, when the sheet has a base.
    pub mark: Mark,
    /// Whether the rule belongs to the rule before it, the one whose sentence ends with a
    /// colon (a declaration among the choices it lists, a scoring step): shown indented under
    /// it.
    pub under: bool,
}

/// How a rule of a house rule's sheet differs from its base's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mark {
    /// As in the base (or the sheet has no base).
    #[default]
    Same,
    /// The base has a rule of that name (or, unnamed, of those opening words) that reads
    /// otherwise.
    Changed,
    /// The base has no such rule.
    New,
    /// A rule of the base that no longer applies.
    Removed,
}

impl Mark {
    /// The mark a sheet prints before the rule, if any.
    pub fn label(self) -> Option<&'static str> {
        match self {
            Mark::Same => None,
            Mark::Changed => Some("[changed]"),
            Mark::New => Some("[new]"),
            Mark::Removed => Some("[removed]"),
        }
    }
}

impl Rule {
    fn plain(text: impl Into<String>) -> Rule {
        Rule {
            name: None,
            text: text.into(),
            mark: Mark::Same,
            under: false,
        }
    }

    fn named(name: impl Into<String>, text: impl Into<String>) -> Rule {
        Rule {
            name: Some(name.into()),
            text: text.into(),
            mark: Mark::Same,
            under: false,
        }
    }

    /// The rule shown under the rule before it.
    fn under(self) -> Rule {
        Rule {
            under: true,
            ..self
        }
    }
}

/// The heading of the sources and notes, which are about the sheet rather than rules of play.
const ABOUT: &str = "Sources and notes";

/// The rule sources a sheet may cite, by the id their file names start with. Players see the
/// description, never the file id.
const SOURCES: &[(&str, &str)] = &[
    ("000", "the Kol-ye-si rules page"),
    ("001", "the classic players' rule page"),
    ("002", "the bomb-defusal module's manual"),
    ("003", "the encyclopedia article"),
    ("004", "the games blog"),
];

/// Where a source's rules can be read, by its id, where the source itself says: its Source line
/// links there (the others are named by their description alone).
const SOURCE_LINKS: &[(&str, &str)] = &[(
    "000",
    "Stewart Culin's record, https://healthy.uwaterloo.ca/museum/Archives/Culin/Dice1893/kolyesi.html",
)];

/// A Source line: the source's description, and where to read it when known.
fn source_line(source: &str) -> String {
    let link = SOURCE_LINKS
        .iter()
        .find(|(id, _)| source.starts_with(id))
        .map(|(_, link)| format!(" ({link})"))
        .unwrap_or_default();
    format!("{}{link}", cite(source))
}

/// `text` for players: every source file id replaced by the source's description.
pub fn without_source_ids(text: &str) -> String {
    cite(text)
}

/// Replaces every source file id in `text` (`003_08b1...txt`, `003`) by the source's description.
fn cite(text: &str) -> String {
    let mut out = text.to_string();
    for (id, title) in SOURCES {
        while let Some(at) = out.find(&format!("{id}_")) {
            let end = out[at..]
                .find(".txt")
                .map_or(at + id.len(), |e| at + e + ".txt".len());
            out.replace_range(at..end, id);
        }
        out = replace_number(&out, id, title);
    }
    out
}

/// `text` with `id` replaced by `title` where it stands alone, not inside a number: "1000" and
/// "1,000" keep their zeros.
fn replace_number(text: &str, id: &str, title: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (at, _) in text.match_indices(id) {
        if at < last {
            continue;
        }
        let end = at + id.len();
        let digit = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
        let before = at.checked_sub(1);
        let in_number = before.is_some_and(digit)
            || before.is_some_and(|b| {
                matches!(bytes[b], b',' | b'.') && b.checked_sub(1).is_some_and(digit)
            })
            || digit(end);
        if in_number {
            continue;
        }
        out.push_str(&text[last..at]);
        out.push_str(title);
        last = end;
    }
    out.push_str(&text[last..]);
    out
}

/// The text sheet of a ruleset, as `yaku rules RULESET` prints it (for the play screen's
/// `rules` prompt).
pub fn text_sheet(ruleset: &Ruleset) -> String {
    render(&build(ruleset, None), Format::Text)
}

/// [`text_sheet`] wrapped to `width` columns ([`render_text`]): for a screen narrower than the
/// sheet's usual width.
pub fn text_sheet_width(ruleset: &Ruleset, width: usize) -> String {
    render_text(&build(ruleset, None), width)
}

/// Gathers the sheet of `ruleset`; with `base`, the rules that differ from the base's are marked
/// and the base's rules that are gone are listed.
pub fn build(ruleset: &Ruleset, base: Option<&Ruleset>) -> Sheet {
    let mut sheet = gather(ruleset);
    if let Some(base) = base {
        let before = gather(base);
        sheet.base = Some(base.name.clone());
        let mut removed = Vec::new();
        for section in &mut sheet.sections {
            if section.heading == ABOUT {
                continue;
            }
            let old = before
                .sections
                .iter()
                .find(|s| s.heading == section.heading);
            // An unnamed rule whose words changed in place (`A game is 6 hands`, `Hwatu: 51
            // cards`) is known by what comes before its colon, or else its opening words.
            fn opening(text: &str) -> Vec<&str> {
                match text.split_once(": ") {
                    Some((head, _)) if head.len() <= 40 => vec![head],
                    _ => text.split(' ').take(3).collect(),
                }
            }
            let before_rules = old.map_or(&[][..], |o| &o.rules[..]);
            for rule in &mut section.rules {
                rule.mark = if before_rules.contains(rule) {
                    Mark::Same
                } else if before_rules.iter().any(|b| match (&b.name, &rule.name) {
                    (Some(a), Some(b)) => a == b,
                    (None, None) => opening(&b.text) == opening(&rule.text),
                    _ => false,
                }) {
                    Mark::Changed
                } else {
                    Mark::New
                };
            }
            // A base rule is gone when no rule of the same name (or, unnamed, the same text)
            // is left.
            for rule in old.map_or(&[][..], |o| &o.rules[..]) {
                let kept = section.rules.iter().any(|r| match &rule.name {
                    Some(name) => r.name.as_ref() == Some(name),
                    None => r.name.is_none() && r.text == rule.text,
                });
                // An unnamed rule whose words changed in place is shown once, as changed, not
                // also as gone.
                let replaced = rule.name.is_none()
                    && section.rules.iter().any(|r| {
                        r.name.is_none()
                            && r.mark == Mark::Changed
                            && opening(&r.text) == opening(&rule.text)
                    });
                if !kept && !replaced {
                    removed.push(Rule {
                        mark: Mark::Removed,
                        ..rule.clone()
                    });
                }
            }
        }
        if !removed.is_empty() {
            sheet.sections.push(Section {
                heading: format!("Rules of {} that no longer apply", base.name),
                rules: removed,
            });
        }
    }
    sheet
}

fn gather(ruleset: &Ruleset) -> Sheet {
    let lex = lexicon(ruleset);
    let mut sections = vec![deck_section(ruleset)];
    sections.extend(flow::sections(ruleset, &lex));
    if !ruleset.yaku.yaku.is_empty() {
        sections.push(yaku_section(ruleset, &lex));
    }
    if !ruleset.tallies.is_empty() {
        let mut rules = vec![Rule::plain(
            "Counted on every pile and shown beside it during play; yaku and the scoring use them \
             by name:",
        )];
        rules.extend(
            ruleset
                .tallies
                .iter()
                .map(|t| Rule::named(&t.name, format!("{}.", in_words(&t.source, &lex)))),
        );
        sections.push(Section {
            heading: "Tallies".to_string(),
            rules,
        });
    }
    if let Some(script) = &ruleset.scoring {
        let mut rules = vec![Rule::plain(if ruleset.yaku.yaku.is_empty() {
            "A won hand's game points, from the scoring script:"
        } else {
            "A hand scores the points of its yaku; then, in order:"
        })];
        rules.extend(script.steps().iter().map(|s| Rule::plain(cite(s)).under()));
        if script.steps().is_empty() {
            rules = vec![Rule::plain(
                "A scoring script decides the hand's points from its yaku.",
            )];
        }
        if script.is_zero_sum() {
            rules.push(Rule::plain(
                "Every hand is zero-sum: what one player wins, the others lose.",
            ));
        }
        sections.push(Section {
            heading: "Scoring".to_string(),
            rules,
        });
    }
    if !ruleset.carry.is_empty() {
        let rules = ruleset
            .carry
            .iter()
            .map(|c| {
                let whose = if c.per_seat {
                    "each player's"
                } else {
                    "the table's"
                };
                let set_at_deal = c
                    .deal_source
                    .as_ref()
                    .map(|d| {
                        // A rule too long for words is left to the value's description, when
                        // it has one, rather than shown as written.
                        let worded = crate::expr::parse(d).ok().and_then(|e| words(&e, &lex));
                        let to = match worded {
                            Some(value) => format!(" to {value}"),
                            None if !c.description.is_empty() => " anew".to_string(),
                            None => format!(" to {}", in_words(d, &lex)),
                        };
                        format!(
                            "; each deal sets it{to}, counted on the table just dealt, and the hand and the next deal read it"
                        )
                    })
                    .unwrap_or_default();
                let text = format!(
                    "{whose}, {} at the start{set_at_deal}{}{}",
                    c.initial,
                    if c.description.is_empty() { "" } else { ". " },
                    c.description
                );
                Rule::named(c.name.clone(), text)
            })
            .collect();
        sections.push(Section {
            heading: "Carried from one hand to the next".to_string(),
            rules,
        });
    }
    if !ruleset.options.is_empty() {
        let rules = ruleset
            .options
            .iter()
            .map(|o| {
                let value = match o.value {
                    crate::ruleset::OptionValue::Bool(true) => "on".to_string(),
                    crate::ruleset::OptionValue::Bool(false) => "off".to_string(),
                    crate::ruleset::OptionValue::Int(n) => n.to_string(),
                };
                let text = if o.description.is_empty() {
                    value
                } else {
                    format!("{value}. {}", o.description)
                };
                Rule::named(format!("`{}`", o.id), text)
            })
            .collect();
        sections.push(Section {
            heading: "Options (`--set NAME=VALUE`)".to_string(),
            rules,
        });
    }
    let mut about: Vec<Rule> = ruleset
        .sources
        .iter()
        .map(|s| Rule::named("Source", source_line(s)))
        .collect();
    about.extend(ruleset.notes.iter().map(|n| Rule::named("Note", cite(n))));
    if !about.is_empty() {
        sections.push(Section {
            heading: ABOUT.to_string(),
            rules: about,
        });
    }
    let tile = |card: crate::deck::CardId| {
        let c = ruleset.deck.card(card);
        Tile {
            suit: ruleset.deck.suit_of(card).short.clone(),
            face: c.face.clone(),
            name: c.name.clone(),
            kind: c.kinds.first().cloned().unwrap_or_default(),
            svg: crate::deck::face::svg(&ruleset.deck, card),
        }
    };
    let deck_tiles = ruleset
        .deck
        .suits
        .iter()
        .map(|s| {
            (
                format!("{} {}", s.number, s.name),
                s.cards.iter().map(tile).collect(),
            )
        })
        .collect();
    let all = ruleset.deck.all();
    let yaku_tiles = ruleset
        .yaku
        .yaku
        .iter()
        .filter_map(|y| {
            // The cards the condition reads: a whole deck (`count(pile)`) or a large kind says
            // nothing a player looks up.
            let read = y.when.cards_read().intersection(all);
            if read.is_empty() || read.len() > 12 {
                return None;
            }
            let (needs_set, n) = y.when.needs();
            let n = if needs_set == read && n < read.len() {
                n
            } else {
                0
            };
            Some((y.name.clone(), read.iter().map(tile).collect(), n))
        })
        .collect();
    Sheet {
        title: ruleset.name.clone(),
        summary: ruleset.description.clone(),
        base: None,
        sections,
        deck_tiles,
        yaku_tiles,
    }
}

/// A yaku's line of the sheet, by the yaku's id: `Name: condition — points (description).` (an
/// editor's hover).
pub fn yaku_text(ruleset: &Ruleset, id: &str) -> Option<String> {
    let y = ruleset.yaku.yaku.iter().find(|y| y.id == id)?;
    let lex = lexicon(ruleset);
    let section = yaku_section(ruleset, &lex);
    let rule = section
        .rules
        .iter()
        .find(|r| r.name.as_deref() == Some(y.name.as_str()))?;
    Some(format!("{}: {}", y.name, rule.text))
}

/// A card of the ruleset's deck in words, by its id: `Moon (8 Pampas Grass): bright; 20` (an
/// editor's hover).
pub fn card_text(ruleset: &Ruleset, id: &str) -> Option<String> {
    let deck = &ruleset.deck;
    let card = deck.card_by_id(id)?;
    let c = deck.card(card);
    let suit = deck.suit_of(card);
    let attrs: Vec<String> = deck
        .attributes
        .iter()
        .map(|a| format!("{} {}", a.id, a.values[card.index()]))
        .collect();
    let mut text = format!("{} ({} {})", c.name, suit.number, suit.name);
    if !c.kinds.is_empty() {
        text += &format!(": {}", c.kinds.join(", "));
    }
    if !attrs.is_empty() {
        text += &format!("; {}", attrs.join(", "));
    }
    Some(text)
}

/// The word for one card of the ruleset's deck.
fn card_word(ruleset: &Ruleset) -> &'static str {
    if ruleset.deck.name.to_lowercase().contains("pai") || ruleset.deck.id.contains("tile") {
        "tile"
    } else {
        "card"
    }
}

/// The words for every set name of the ruleset's deck.
pub fn lexicon(ruleset: &Ruleset) -> Lexicon {
    let deck = &ruleset.deck;
    let card = card_word(ruleset);
    // A kind or suit of one card reads as that card (`the Rain Man`), others as a plural.
    let set = |id: &str, noun: &str, cards: CardSet| SetWords {
        name: id.to_string(),
        words: match cards.iter().next() {
            Some(only) if cards.len() == 1 => format!("the {}", deck.card(only).name),
            _ => format!("{noun} {card}s"),
        },
        size: cards.len() as usize,
        is_card: cards.len() == 1,
    };
    let mut sets: Vec<SetWords> = deck
        .kinds
        .iter()
        .map(|k| set(&k.id, &k.id, k.cards))
        .chain(deck.suits.iter().map(|s| set(&s.id, &s.name, s.cards)))
        .collect();
    for c in &deck.cards {
        sets.push(SetWords {
            name: c.id.clone(),
            words: format!("the {}", c.name),
            size: 1,
            is_card: true,
        });
    }
    let literal = |kind| crate::expr::Expr { kind, span: 0..0 };
    let substitutions =
        ruleset
            .options
            .iter()
            .map(|o| {
                let value = match o.value {
                    crate::ruleset::OptionValue::Int(n) => crate::expr::ExprKind::Number(n),
                    crate::ruleset::OptionValue::Bool(b) => crate::expr::ExprKind::Bool(b),
                };
                (o.id.clone(), literal(value))
            })
            .chain(ruleset.defines.iter().filter_map(|(name, source)| {
                Some((name.clone(), crate::expr::parse(source).ok()?))
            }))
            .collect();
    Lexicon {
        substitutions,
        pile_words: format!("{card}s {}", crate::families::of(ruleset).pile_word()),
        card_word: card.to_string(),
        suit_word: deck.suit_word.clone().unwrap_or_else(|| "suit".to_string()),
        sets,
        suits: deck.suits.iter().map(|s| s.id.clone()).collect(),
        values: ruleset
            .carry
            .iter()
            .map(|c| {
                let mut words = c.name.clone();
                if let Some(first) = words.get(..1) {
                    words.replace_range(..1, &first.to_lowercase());
                }
                (c.id.clone(), format!("the {words}"))
            })
            .collect(),
    }
}

/// A condition or formula in words, or as written when too complex.
fn in_words(source: &str, lex: &Lexicon) -> String {
    crate::expr::parse(source)
        .ok()
        .and_then(|e| words(&e, lex))
        .unwrap_or_else(|| {
            let one_line: Vec<&str> = source.split_whitespace().collect();
            format!("`{}`", one_line.join(" "))
        })
}

fn deck_section(ruleset: &Ruleset) -> Section {
    let deck = &ruleset.deck;
    let card = card_word(ruleset);
    let suit_word = deck.suit_word.as_deref().unwrap_or("suit");
    let mut rules = vec![Rule::plain(format!(
        "{}: {} {card}s in {} {suit_word}s.",
        deck.name,
        deck.cards.len(),
        deck.suits.len()
    ))];
    for suit in &deck.suits {
        let cards: Vec<String> = suit
            .cards
            .iter()
            .map(|c| {
                let c = deck.card(c);
                let attrs: Vec<String> = deck
                    .attributes
                    .iter()
                    .map(|a| {
                        let i = deck.card_by_id(&c.id).map_or(0, |i| i.index());
                        a.values[i].to_string()
                    })
                    .collect();
                let mut tags = c.kinds.join(", ");
                if !attrs.is_empty() {
                    if !tags.is_empty() {
                        tags.push_str("; ");
                    }
                    tags.push_str(&attrs.join(", "));
                }
                if tags.is_empty() {
                    c.name.clone()
                } else {
                    format!("{} ({tags})", c.name)
                }
            })
            .collect();
        // Identical copies (a double pack, the paired tiles of Gu Pai) once, with their number.
        let mut counted: Vec<(String, usize)> = Vec::new();
        for c in cards {
            match counted.iter_mut().find(|(seen, _)| *seen == c) {
                Some((_, n)) => *n += 1,
                None => counted.push((c, 1)),
            }
        }
        let cards: Vec<String> = counted
            .into_iter()
            .map(|(c, n)| if n == 1 { c } else { format!("{n} × {c}") })
            .collect();
        rules.push(Rule::named(
            format!("{} {}", suit.number, suit.name),
            cards.join(", "),
        ));
    }
    if !deck.attributes.is_empty() {
        let names: Vec<&str> = deck.attributes.iter().map(|a| a.id.as_str()).collect();
        rules.push(Rule::plain(format!(
            "Numbers after the kinds: {}.",
            names.join(", ")
        )));
    }
    Section {
        heading: "Deck".to_string(),
        rules,
    }
}

fn yaku_section(ruleset: &Ruleset, lex: &Lexicon) -> Section {
    let table = &ruleset.yaku;
    let mut rules: Vec<Rule> = table
        .yaku
        .iter()
        .map(|y| {
            let points = in_words(&y.points_source, lex);
            let unit = if points.chars().all(|c| c.is_ascii_digit()) {
                if points == "1" { " point" } else { " points" }
            } else {
                ""
            };
            let when = in_words(&y.when_source, lex);
            // The author's description, unless it only says what the condition says.
            let said = |d: &str| d.trim_end_matches('.').eq_ignore_ascii_case(&when);
            let description = if y.description.trim().is_empty() || said(&y.description) {
                String::new()
            } else {
                format!(" ({})", y.description.trim_end_matches('.'))
            };
            Rule::named(&y.name, format!("{when} — {points}{unit}{description}."))
        })
        .collect();
    for (g, group) in table.groups.iter().enumerate() {
        let members: Vec<&str> = table
            .yaku
            .iter()
            .filter(|y| y.group == Some(g))
            .map(|y| y.name.as_str())
            .collect();
        if members.len() > 1 {
            rules.push(Rule::plain(format!(
                "Only the highest of the {group} counts: {}.",
                members.join(", ")
            )));
        }
    }
    Section {
        heading: "Yaku".to_string(),
        rules,
    }
}

/// `one hand`, `12 hands`.
pub(super) fn hands(n: u32) -> String {
    if n == 1 {
        "one hand".to_string()
    } else {
        format!("{n} hands")
    }
}

/// `a`, `a and b`, `a, b and c`.
pub(super) fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `word` with its first letter in capitals.
pub(super) fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

#[cfg(test)]
mod tests {
    /// A dealt combination that costs points says who pays whom: under `yaku_paid_by =
    /// "others"` its holder pays each other player, where it read "-50 points ... from each
    /// other player".
    #[test]
    fn a_penalty_says_who_pays_whom() {
        let text = "[ruleset]\nid = \"pen\"\nextends = \"hachihachi\"\nname = \"Penalty (test)\"\n\n\
                    [[flow.instant_win]]\nid = \"all-plain\"\nname = \"All plain\"\n\
                    when = \"count(plain) == 7\"\npoints = -50\nends = false\n";
        let r = crate::ruleset::load_str("pen.toml", text).value.unwrap();
        let sheet = super::text_sheet_width(&r, 200);
        let line = sheet
            .lines()
            .find(|l| l.contains("All plain"))
            .unwrap_or_else(|| panic!("{sheet}"));
        assert!(
            line.contains("the player pays each other player 50 points at the hand's end"),
            "{line}"
        );
        assert!(!line.contains("-50"), "{line}");
    }

    /// A source id is replaced where it stands alone, never inside a number.
    #[test]
    fn source_ids_are_replaced_but_not_inside_numbers() {
        assert_eq!(
            super::cite("a game is 1000 points, or 1,000; see 004 and 003_ab.txt"),
            "a game is 1000 points, or 1,000; see the games blog and the encyclopedia article"
        );
        assert_eq!(super::cite("000."), "the Kol-ye-si rules page.");
    }

    /// A sheet wrapped to a width has no longer line, in every family, so that a box of that
    /// width shows it without wrapping it again.
    #[test]
    fn a_sheet_wrapped_to_a_width_fits_it() {
        for name in ["koikoi", "schnapsen", "oicho-kabu"] {
            let r = crate::ruleset::load(name).value.unwrap();
            for width in [40, 60, 75] {
                let text = super::text_sheet_width(&r, width);
                let long: Vec<&str> = text.lines().filter(|l| l.chars().count() > width).collect();
                assert!(long.is_empty(), "{name} at {width}: {long:?}");
            }
        }
    }

    use super::*;

    fn koikoi() -> Ruleset {
        crate::ruleset::load("koikoi").value.unwrap()
    }

    #[test]
    fn conditions_and_formulas_read_as_words() {
        let lex = lexicon(&koikoi());
        let cases = [
            ("count(bright) == 5", "all five bright cards"),
            ("count(animal) >= 5", "five or more animal cards"),
            (
                "count(bright) == 4 and all(rain)",
                "exactly four bright cards and the Rain Man",
            ),
            (
                "count(bright - rain) == 3",
                "exactly three bright cards other than the Rain Man",
            ),
            (
                "5 + count(animal) - 3",
                "5, +1 for each animal card beyond three",
            ),
            ("count(plain) - 9", "1 for each plain card beyond nine"),
            (
                "has(pampas-moon, chrysanthemum-sake)",
                "the Moon and the Sake Cup",
            ),
            (
                "suits_with(4) >= 1",
                "one or more months with four or more cards",
            ),
            // One card of a suit, in the singular.
            ("count(pine) == 1", "exactly one Pine (January) card"),
            ("hand_cards > 0", "the player still holds cards"),
            ("base >= 7", "the player's yaku score seven or more points"),
        ];
        for (source, expected) in cases {
            assert_eq!(in_words(source, &lex), expected, "{source}");
        }
    }

    #[test]
    fn too_complex_a_condition_is_shown_as_written() {
        let lex = lexicon(&koikoi());
        let long = "count(bright) * count(animal) * count(ribbon) * count(plain) >= count(pine) * count(plum) * count(cherry) * count(iris)";
        assert_eq!(in_words(long, &lex), format!("`{long}`"));
    }

    #[test]
    fn source_ids_never_reach_players() {
        let text = cite("x2 (003 Play; 004); 003_08b1d9c4349f5191.txt");
        assert!(!text.contains("003") && !text.contains("004"), "{text}");
    }
}
