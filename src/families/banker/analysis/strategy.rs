//! Betting-and-drawing strategies for banker games, written as small TOML tables: for the first
//! tile, how much to bet and how many more tiles to take.
//!
//! ```toml
//! [strategy]
//! name = "seed"
//! deck = "gupai"     # the deck whose tiles it names
//! bet = "min"        # "min", "max", "best" (max when favourable, else min), or chips
//! draw = 1           # a number of tiles, or "best"
//! [[strategy.tile]]  # exceptions, by tile name (`[6:5]`), suit id or card id
//! tile = "[6:5]"
//! bet = "max"
//! ```

use super::FirstHandOdds;
use crate::deck::Deck;
use crate::ruleset::Ruleset;
use crate::ruleset::bundled;
use serde::Deserialize;
use toml::Spanned;

/// How much to bet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BetChoice {
    /// The table minimum.
    Min,
    /// The table maximum.
    Max,
    /// The maximum when the hand is favourable to the player, else the minimum.
    Best,
    /// A number of chips (held within the limits).
    Chips(i64),
}

/// What to do with one first tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrategyEntry {
    /// The bet.
    pub bet: BetChoice,
    /// More tiles to take; `None` for the best number.
    pub draw: Option<u32>,
}

/// A strategy: a default entry and exceptions, each for the cards it names: a tile or card
/// (with the tiles identical to it) or a whole suit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// Its name.
    pub name: String,
    /// What it does, in words.
    pub description: String,
    /// The entry for tiles without an exception.
    pub default: StrategyEntry,
    /// `(cards, entry)` exceptions: the entry of a first hand whose first tile is among
    /// `cards`; the first that matches counts.
    pub by_suit: Vec<(crate::deck::CardSet, StrategyEntry)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    strategy: Header,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    name: String,
    deck: Spanned<String>,
    #[serde(default)]
    description: String,
    bet: Spanned<toml::Value>,
    draw: Spanned<toml::Value>,
    #[serde(default)]
    tile: Vec<TileEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TileEntry {
    tile: Spanned<String>,
    bet: Option<Spanned<toml::Value>>,
    draw: Option<Spanned<toml::Value>>,
}

/// A strategy file read on its own: its name, its text, and the strategy or its mistakes.
pub type Checked = (String, String, Result<Strategy, Vec<StrategyError>>);

/// A mistake in a strategy file, located by byte range when the file says where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrategyError {
    /// What is wrong.
    pub message: String,
    /// Where, in bytes of the file's text.
    pub span: Option<std::ops::Range<usize>>,
    /// A suggestion.
    pub help: Option<String>,
}

impl StrategyError {
    fn at(message: impl Into<String>, span: std::ops::Range<usize>) -> StrategyError {
        StrategyError {
            message: message.into(),
            span: Some(span),
            help: None,
        }
    }
}

/// The names of the bundled strategies.
pub fn bundled_names() -> impl Iterator<Item = &'static str> {
    bundled::FILES
        .iter()
        .filter_map(|(p, _)| p.strip_prefix("strategies/")?.strip_suffix(".toml"))
}

/// A strategy file's name and text: a bundled name, or a path.
pub fn read(spec: &str) -> Result<(String, String), String> {
    if let Some(text) = bundled::file(&format!("strategies/{spec}.toml")) {
        return Ok((
            format!("<bundled>/strategies/{spec}.toml"),
            text.to_string(),
        ));
    }
    crate::fsio::read_text_limited(std::path::Path::new(spec), crate::fsio::MAX_RULE_FILE_SIZE)
        .map(|t| (spec.to_string(), t))
        .map_err(|e| {
            let names: Vec<&str> = bundled_names().collect();
            let hint = crate::diag::did_you_mean(spec, names.iter().copied())
                .unwrap_or_else(|| format!("bundled strategies: {}", names.join(", ")));
            format!("no strategy named `{spec}` ({e}); {hint}")
        })
}

impl Strategy {
    /// A bundled strategy by name, or a strategy file by path, for a banker game of `ruleset`.
    pub fn load(spec: &str, ruleset: &Ruleset) -> Result<Strategy, String> {
        let (name, text) = read(spec)?;
        let describe = |errors: Vec<StrategyError>| {
            let lines: Vec<String> = errors
                .iter()
                .map(|e| {
                    let at = e.span.as_ref().map_or(String::new(), |s| {
                        let (line, col) = line_col(&text, s.start);
                        format!(":{line}:{col}")
                    });
                    let help = e.help.as_ref().map_or(String::new(), |h| format!(" ({h})"));
                    format!("{name}{at}: {}{help}", e.message)
                })
                .collect();
            lines.join("\n")
        };
        let strategy = Strategy::parse(&text, &ruleset.deck).map_err(describe)?;
        if let Some(flow) = ruleset.banker() {
            let entries =
                std::iter::once(&strategy.default).chain(strategy.by_suit.iter().map(|(_, e)| e));
            for e in entries {
                if let Some(d) = e.draw
                    && !flow.draw_options.contains(&d)
                {
                    let options: Vec<String> =
                        flow.draw_options.iter().map(u32::to_string).collect();
                    return Err(format!(
                        "{name}: strategy `{}` takes {d} more tile(s), but `{}` allows {}",
                        strategy.name,
                        ruleset.id,
                        options.join(" or ")
                    ));
                }
            }
        }
        Ok(strategy)
    }

    /// Checks a strategy file on its own, against the deck it names (for `yaku validate`).
    /// Returns the file's name and text with the result, so errors can be shown in place.
    pub fn check(spec: &str) -> Result<Checked, String> {
        let (name, text) = read(spec)?;
        Ok(Strategy::check_text(name, text))
    }

    /// [`Strategy::check`] on text already read (an editor's buffer), named `name`.
    pub fn check_text(name: String, text: String) -> Checked {
        #[derive(Deserialize)]
        struct DeckOnly {
            strategy: DeckName,
        }
        #[derive(Deserialize)]
        struct DeckName {
            deck: Spanned<String>,
        }
        let result = match toml::from_str::<DeckOnly>(&text) {
            // The full parse reports what is wrong with the file.
            Err(_) => Strategy::parse(&text, &empty_deck()),
            Ok(named) => match crate::ruleset::load_deck(named.strategy.deck.get_ref()).value {
                Some(deck) => Strategy::parse(&text, &deck),
                None => {
                    let wanted = named.strategy.deck.get_ref();
                    let decks: Vec<&str> = bundled::deck_names().collect();
                    Err(vec![StrategyError {
                        message: format!("no deck named `{wanted}`"),
                        span: Some(named.strategy.deck.span()),
                        help: crate::diag::did_you_mean(wanted, decks.iter().copied())
                            .or_else(|| Some(format!("bundled decks: {}", decks.join(", ")))),
                    }])
                }
            },
        };
        (name, text, result)
    }

    /// Parses a strategy file: the strategy, or every mistake in it.
    pub fn parse(text: &str, deck: &Deck) -> Result<Strategy, Vec<StrategyError>> {
        let file: File = toml::from_str(text).map_err(|e| {
            vec![StrategyError {
                message: e.message().trim().to_string(),
                span: e.span(),
                help: None,
            }]
        })?;
        let h = file.strategy;
        let mut errors = Vec::new();
        // A strategy that names no tile plays on any deck.
        if !deck.id.is_empty() && !h.tile.is_empty() && h.deck.get_ref() != &deck.id {
            errors.push(StrategyError::at(
                format!(
                    "strategy `{}` is for the deck `{}`, not `{}`",
                    h.name,
                    h.deck.get_ref(),
                    deck.id
                ),
                h.deck.span(),
            ));
        }
        let mut read_bet = |v: &Spanned<toml::Value>| {
            bet(v.get_ref())
                .map_err(|m| errors.push(StrategyError::at(m, v.span())))
                .ok()
        };
        let default_bet = read_bet(&h.bet);
        let tile_bets: Vec<Option<BetChoice>> = h
            .tile
            .iter()
            .map(|t| t.bet.as_ref().and_then(&mut read_bet))
            .collect();
        let mut read_draw = |v: &Spanned<toml::Value>| {
            draw(v.get_ref())
                .map_err(|m| errors.push(StrategyError::at(m, v.span())))
                .ok()
        };
        let default_draw = read_draw(&h.draw);
        let tile_draws: Vec<Option<Option<u32>>> = h
            .tile
            .iter()
            .map(|t| t.draw.as_ref().and_then(&mut read_draw))
            .collect();
        let default = StrategyEntry {
            bet: default_bet.unwrap_or(BetChoice::Min),
            draw: default_draw.unwrap_or(None),
        };
        let mut by_suit: Vec<(crate::deck::CardSet, StrategyEntry)> = Vec::new();
        let mut first_at: Vec<(crate::deck::CardSet, std::ops::Range<usize>)> = Vec::new();
        for (i, t) in h.tile.iter().enumerate() {
            let cards = match cards_of(deck, t.tile.get_ref()) {
                Ok(s) => s,
                Err((message, help)) => {
                    if !deck.id.is_empty() {
                        errors.push(StrategyError {
                            message,
                            span: Some(t.tile.span()),
                            help,
                        });
                    }
                    continue;
                }
            };
            // An entry whose tiles all have earlier entries would never be used.
            let covered = first_at
                .iter()
                .fold(crate::deck::CardSet::EMPTY, |acc, (c, _)| acc | *c);
            if let Some((_, earlier)) = first_at
                .iter()
                .find(|(c, _)| (cards - covered).is_empty() && !(*c & cards).is_empty())
            {
                let (line, _) = line_col(text, earlier.start);
                errors.push(StrategyError {
                    message: format!(
                        "`{}` already has an entry (line {line}); this one would never be used",
                        t.tile.get_ref()
                    ),
                    span: Some(t.tile.span()),
                    help: Some(
                        "identical tiles share an entry, and a suit's entry covers its tiles; keep one"
                            .into(),
                    ),
                });
                continue;
            }
            first_at.push((cards, t.tile.span()));
            let entry = StrategyEntry {
                bet: tile_bets[i].unwrap_or(default.bet),
                draw: tile_draws[i].unwrap_or(default.draw),
            };
            by_suit.push((cards, entry));
        }
        if !errors.is_empty() {
            errors.sort_by_key(|e| e.span.as_ref().map_or(0, |s| s.start));
            return Err(errors);
        }
        Ok(Strategy {
            // Printed by `analyze`, `play` and errors: escaped for the terminal where they enter.
            name: crate::diag::escape_control(&h.name).into_owned(),
            description: crate::diag::escape_control(&h.description).into_owned(),
            default,
            by_suit,
        })
    }

    /// The entry for a first hand (by its first tile).
    pub fn entry(&self, _deck: &Deck, tiles: crate::deck::CardSet) -> StrategyEntry {
        self.entry_for_tiles(tiles)
    }

    fn entry_for_tiles(&self, tiles: crate::deck::CardSet) -> StrategyEntry {
        let Some(first) = tiles.first_card() else {
            return self.default;
        };
        self.by_suit
            .iter()
            .find(|(cards, _)| cards.contains(first))
            .map_or(self.default, |(_, e)| *e)
    }

    /// The bet and the tiles to take for a first hand with known odds.
    pub fn decide(&self, odds: &FirstHandOdds, limits: (i64, i64)) -> (i64, u32) {
        let entry = self.entry_for_odds(odds);
        let (draw, per_chip) = match entry.draw {
            Some(d) => (d, odds.with_draw(d).unwrap_or(super::Rational::ZERO)),
            None => odds.best(),
        };
        let bet = match entry.bet {
            BetChoice::Min => limits.0,
            BetChoice::Max => limits.1,
            BetChoice::Chips(n) => n.clamp(limits.0, limits.1),
            BetChoice::Best if per_chip > super::Rational::ZERO => limits.1,
            BetChoice::Best => limits.0,
        };
        (bet, draw)
    }

    fn entry_for_odds(&self, odds: &FirstHandOdds) -> StrategyEntry {
        self.entry_for_tiles(odds.tiles)
    }

    /// True when some entry needs the exact odds (`best` bets or draws).
    pub fn needs_odds(&self) -> bool {
        let needs = |e: &StrategyEntry| e.draw.is_none() || e.bet == BetChoice::Best;
        needs(&self.default) || self.by_suit.iter().any(|(_, e)| needs(e))
    }
}

fn bet(v: &toml::Value) -> Result<BetChoice, String> {
    match v {
        toml::Value::String(s) if s == "min" => Ok(BetChoice::Min),
        toml::Value::String(s) if s == "max" => Ok(BetChoice::Max),
        toml::Value::String(s) if s == "best" => Ok(BetChoice::Best),
        toml::Value::Integer(n) if (1..=crate::ruleset::MAX_BET).contains(n) => {
            Ok(BetChoice::Chips(*n))
        }
        // A bet no table allows would be cut to the table's maximum without a word.
        toml::Value::Integer(n) if *n >= 1 => Err(format!(
            "`bet` is {n} chips; no table takes more than {} (use \"max\" for the table's largest bet)",
            crate::ruleset::MAX_BET
        )),
        other => Err(format!(
            "`bet` must be \"min\", \"max\", \"best\" or a number of chips, not {other}"
        )),
    }
}

fn draw(v: &toml::Value) -> Result<Option<u32>, String> {
    match v {
        toml::Value::String(s) if s == "best" => Ok(None),
        toml::Value::Integer(n) if (0..=8).contains(n) => Ok(Some(*n as u32)),
        other => Err(format!(
            "`draw` must be a number of tiles or \"best\", not {other}"
        )),
    }
}

/// The cards a strategy entry names: a suit id (its cards), a card id (the card and the tiles
/// identical to it), or a tile's display name (`[6:5]`: every tile so named).
fn cards_of(deck: &Deck, name: &str) -> Result<crate::deck::CardSet, (String, Option<String>)> {
    use crate::deck::{CardId, CardSet};
    let all = (0..deck.cards.len()).map(|i| CardId(i as u8));
    if let Some(i) = deck.suits.iter().position(|s| s.id == name) {
        return Ok(all.filter(|&c| deck.card(c).suit == i).collect());
    }
    if let Some(c) = deck.card_by_id(name) {
        return Ok(all.filter(|&o| o == c || deck.alike(o, c)).collect());
    }
    let named: CardSet = all
        .filter(|&c| deck.card(c).name.eq_ignore_ascii_case(name))
        .collect();
    match named.is_empty() {
        false => Ok(named),
        true => {
            let candidates = deck
                .suits
                .iter()
                .map(|s| s.id.as_str())
                .chain(deck.cards.iter().map(|c| c.name.as_str()));
            Err((
                format!("no tile or suit named `{name}`"),
                crate::diag::did_you_mean(name, candidates),
            ))
        }
    }
}

/// A deck with no cards: for reading a strategy whose own deck is unknown (only the file's shape
/// is checked then).
fn empty_deck() -> Deck {
    Deck::empty()
}

/// 1-based line and column of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deck::CardSet;

    fn french() -> Deck {
        crate::ruleset::load_deck("french-52")
            .value
            .expect("bundled deck")
    }

    fn hand(deck: &Deck, id: &str) -> CardSet {
        CardSet::single(deck.card_by_id(id).expect("card id"))
    }

    #[test]
    fn two_different_cards_of_one_suit_have_entries_of_their_own() {
        // Issue 29: entries were keyed by suit, so `hearts-two` was refused after `hearts-ace`.
        let deck = french();
        let s = Strategy::parse(
            r#"
[strategy]
deck = "french-52"
name = "by-card"
bet = "min"
draw = 1
[[strategy.tile]]
tile = "hearts-ace"
bet = "max"
[[strategy.tile]]
tile = "hearts-two"
bet = 5
[[strategy.tile]]
tile = "spades"
draw = 0
"#,
            &deck,
        )
        .expect("parses");
        assert_eq!(
            s.entry(&deck, hand(&deck, "hearts-ace")).bet,
            BetChoice::Max
        );
        assert_eq!(
            s.entry(&deck, hand(&deck, "hearts-two")).bet,
            BetChoice::Chips(5)
        );
        assert_eq!(
            s.entry(&deck, hand(&deck, "hearts-three")).bet,
            BetChoice::Min
        );
        assert_eq!(s.entry(&deck, hand(&deck, "spades-king")).draw, Some(0));
    }

    #[test]
    fn an_entry_whose_cards_all_have_entries_is_refused() {
        let deck = french();
        let errors = Strategy::parse(
            r#"
[strategy]
deck = "french-52"
name = "twice"
bet = "min"
draw = 1
[[strategy.tile]]
tile = "hearts"
[[strategy.tile]]
tile = "hearts-ace"
"#,
            &deck,
        )
        .expect_err("the second entry is never used");
        assert_eq!(errors.len(), 1);
        assert!(errors[0].message.contains("already has an entry (line 8)"));
    }

    #[test]
    fn a_strategy_naming_no_tile_plays_on_any_deck() {
        let deck = french();
        for name in ["best", "always-one", "best-fixed"] {
            let (_, text) = read(name).expect("bundled");
            let parsed = Strategy::parse(&text, &deck);
            assert!(parsed.is_ok(), "{name}: {:?}", parsed.err());
        }
        let (_, text) = read("seed").expect("bundled");
        assert!(Strategy::parse(&text, &deck).is_err(), "seed names [6:5]");
    }
}
