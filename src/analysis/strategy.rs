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
use crate::ruleset::bundled;
use serde::Deserialize;

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

/// A strategy: a default entry and exceptions by suit (identical tiles share a suit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// Its name.
    pub name: String,
    /// What it does, in words.
    pub description: String,
    /// The entry for tiles without an exception.
    pub default: StrategyEntry,
    /// `(suit index, entry)` exceptions.
    pub by_suit: Vec<(usize, StrategyEntry)>,
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
    deck: String,
    #[serde(default)]
    description: String,
    bet: toml::Value,
    draw: toml::Value,
    #[serde(default)]
    tile: Vec<TileEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TileEntry {
    tile: String,
    bet: Option<toml::Value>,
    draw: Option<toml::Value>,
}

/// The names of the bundled strategies.
pub fn bundled_names() -> impl Iterator<Item = &'static str> {
    bundled::FILES
        .iter()
        .filter_map(|(p, _)| p.strip_prefix("strategies/")?.strip_suffix(".toml"))
}

impl Strategy {
    /// A bundled strategy by name, or a strategy file by path.
    pub fn load(spec: &str, deck: &Deck) -> Result<Strategy, String> {
        let (name, text) = match bundled::file(&format!("strategies/{spec}.toml")) {
            Some(text) => (
                format!("<bundled>/strategies/{spec}.toml"),
                text.to_string(),
            ),
            None => match std::fs::read_to_string(spec) {
                Ok(text) => (spec.to_string(), text),
                Err(e) => {
                    let names: Vec<&str> = bundled_names().collect();
                    let hint = crate::diag::did_you_mean(spec, names.iter().copied())
                        .unwrap_or_else(|| format!("bundled strategies: {}", names.join(", ")));
                    return Err(format!("no strategy named `{spec}` ({e}); {hint}"));
                }
            },
        };
        Strategy::parse(&text, deck).map_err(|e| format!("{name}: {e}"))
    }

    /// Checks a strategy file on its own, against the deck it names (for `yaku validate`).
    pub fn check(spec: &str) -> Result<Strategy, String> {
        let text = match bundled::file(&format!("strategies/{spec}.toml")) {
            Some(t) => t.to_string(),
            None => {
                std::fs::read_to_string(spec).map_err(|e| format!("cannot read `{spec}`: {e}"))?
            }
        };
        #[derive(Deserialize)]
        struct DeckOnly {
            strategy: DeckName,
        }
        #[derive(Deserialize)]
        struct DeckName {
            deck: String,
        }
        let named: DeckOnly =
            toml::from_str(&text).map_err(|e| e.to_string().trim().to_string())?;
        let loaded = crate::ruleset::load_deck(&named.strategy.deck);
        let deck = loaded.value.ok_or_else(|| {
            format!(
                "the strategy's deck `{}` does not load",
                named.strategy.deck
            )
        })?;
        Strategy::parse(&text, &deck)
    }

    /// Parses a strategy file.
    pub fn parse(text: &str, deck: &Deck) -> Result<Strategy, String> {
        let file: File = toml::from_str(text).map_err(|e| e.to_string().trim().to_string())?;
        let h = file.strategy;
        if h.deck != deck.id {
            return Err(format!(
                "strategy `{}` is for the deck `{}`, not `{}`",
                h.name, h.deck, deck.id
            ));
        }
        let default = StrategyEntry {
            bet: bet(&h.bet)?,
            draw: draw(&h.draw)?,
        };
        let mut by_suit = Vec::new();
        for t in &h.tile {
            let suit = suit_of(deck, &t.tile)?;
            let entry = StrategyEntry {
                bet: t.bet.as_ref().map(bet).transpose()?.unwrap_or(default.bet),
                draw: t
                    .draw
                    .as_ref()
                    .map(draw)
                    .transpose()?
                    .unwrap_or(default.draw),
            };
            by_suit.push((suit, entry));
        }
        Ok(Strategy {
            name: h.name,
            description: h.description,
            default,
            by_suit,
        })
    }

    /// The entry for a first hand (by the suit of its first tile).
    pub fn entry(&self, deck: &Deck, tiles: crate::deck::CardSet) -> StrategyEntry {
        let suit = tiles.first_card().map(|c| deck.card(c).suit);
        self.by_suit
            .iter()
            .find(|(s, _)| Some(*s) == suit)
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
        // Odds carry no deck; exceptions are matched by suit index, set when the odds are built.
        self.by_suit
            .iter()
            .find(|(s, _)| Some(*s) == odds.suit)
            .map_or(self.default, |(_, e)| *e)
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
        toml::Value::Integer(n) if *n >= 1 => Ok(BetChoice::Chips(*n)),
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

/// The suit a strategy names: a suit id, a card id, or a tile's display name (`[6:5]`).
fn suit_of(deck: &Deck, name: &str) -> Result<usize, String> {
    if let Some(i) = deck.suits.iter().position(|s| s.id == name) {
        return Ok(i);
    }
    if let Some(c) = deck.card_by_id(name) {
        return Ok(deck.card(c).suit);
    }
    let suits: Vec<usize> = deck
        .cards
        .iter()
        .filter(|c| c.name.eq_ignore_ascii_case(name))
        .map(|c| c.suit)
        .collect();
    match suits.first() {
        Some(&s) if suits.iter().all(|&x| x == s) => Ok(s),
        Some(_) => Err(format!(
            "`{name}` names tiles of several suits; use a suit id"
        )),
        None => {
            let hint = crate::diag::did_you_mean(name, deck.suits.iter().map(|s| s.id.as_str()))
                .map_or_else(String::new, |h| format!("; {h}"));
            Err(format!("no tile or suit named `{name}`{hint}"))
        }
    }
}
