//! Betting-and-drawing strategies for banker games, written as small TOML tables: how much to
//! bet and how many more tiles to take, by default and for the hands that entries name: by the
//! first tile, by the hand's total, or by the whole hand.
//!
//! ```toml
//! [strategy]
//! name = "seed"
//! deck = "gupai"     # the deck whose tiles it names (a bundled name, or a file next to this one)
//! bet = "min"        # "min", "max", "best" (max when favourable, else min), or chips
//! draw = 1           # a number of tiles, or "best"
//! [[strategy.tile]]  # by the first tile: a tile name (`[6:5]`), suit id or card id
//! tile = "[6:5]"
//! bet = "max"
//! [[strategy.total]] # by the hand's value (the ruleset's `value`): one total or a list
//! total = [8, 9]
//! draw = 1
//! [[strategy.hand]]  # by the whole hand: its tiles, each named as `tile` names one
//! tiles = ["[6:6]", "[1:1]"]
//! draw = 2
//! ```
//!
//! The first entry in the file that holds for the hand counts; the default otherwise.

use super::FirstHandOdds;
use crate::deck::{CardId, CardSet, Deck};
use crate::families::banker::value::hand_value;
use crate::ruleset::bundled;
use crate::ruleset::{BankerFlow, Ruleset};
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

/// What to do with one hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrategyEntry {
    /// The bet.
    pub bet: BetChoice,
    /// More tiles to take; `None` for the best number.
    pub draw: Option<u32>,
}

/// The hands an entry of a strategy is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StrategyKey {
    /// Hands whose first tile (the lowest card of the deck's order) is among these cards.
    FirstTile(CardSet),
    /// Hands whose value, by the ruleset's `value`, is one of these.
    Total(Vec<i64>),
    /// Hands of exactly these tiles: one among the cards of each element.
    Hand(Vec<CardSet>),
}

impl StrategyKey {
    /// True when the entry holds for `tiles`; `total` gives the hand's value when needed.
    fn holds(&self, tiles: CardSet, total: &mut impl FnMut() -> i64) -> bool {
        match self {
            StrategyKey::FirstTile(cards) => tiles.first_card().is_some_and(|c| cards.contains(c)),
            StrategyKey::Total(values) => values.contains(&total()),
            StrategyKey::Hand(parts) => {
                let held: Vec<CardId> = tiles.iter().collect();
                held.len() == parts.len() && assign(&held, parts, 0)
            }
        }
    }
}

/// True when each of `held` can be given a distinct element of `parts` that holds it (`used`:
/// the elements given so far, by bit).
fn assign(held: &[CardId], parts: &[CardSet], used: u64) -> bool {
    let Some((&card, rest)) = held.split_first() else {
        return true;
    };
    parts.iter().enumerate().any(|(i, p)| {
        used & (1 << i) == 0 && p.contains(card) && assign(rest, parts, used | (1 << i))
    })
}

/// A strategy: a default entry and exceptions, each for the hands its key names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// Its name.
    pub name: String,
    /// What it does, in words.
    pub description: String,
    /// The entry for hands without an exception.
    pub default: StrategyEntry,
    /// `(key, entry)` exceptions in the file's order: the first whose key holds counts.
    pub entries: Vec<(StrategyKey, StrategyEntry)>,
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
    #[serde(default)]
    total: Vec<TotalEntry>,
    #[serde(default)]
    hand: Vec<HandEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TileEntry {
    tile: Spanned<String>,
    bet: Option<Spanned<toml::Value>>,
    draw: Option<Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TotalEntry {
    total: Spanned<toml::Value>,
    bet: Option<Spanned<toml::Value>>,
    draw: Option<Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HandEntry {
    tiles: Spanned<Vec<Spanned<String>>>,
    bet: Option<Spanned<toml::Value>>,
    draw: Option<Spanned<toml::Value>>,
}

/// The most tiles a `[[strategy.hand]]` entry names.
const MAX_HAND_TILES: usize = 16;

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

/// Where the first `draw = n` of a strategy's text starts, if it is written so.
fn draw_offset(text: &str, n: u32) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(value) = trimmed.strip_prefix("draw")
            && let Some(value) = value.trim_start().strip_prefix('=')
            && value.split('#').next().unwrap_or("").trim() == n.to_string()
        {
            return Some(offset + line.len() - trimmed.len());
        }
        offset += line.len();
    }
    None
}

/// The `deck` a strategy file names, with its place, when the file says it.
fn deck_reference(text: &str) -> Option<Spanned<String>> {
    #[derive(Deserialize)]
    struct DeckOnly {
        strategy: DeckName,
    }
    #[derive(Deserialize)]
    struct DeckName {
        deck: Spanned<String>,
    }
    toml::from_str::<DeckOnly>(text)
        .ok()
        .map(|named| named.strategy.deck)
}

/// True when a strategy's `deck` reference names `deck`: its id, or a file of that name.
fn names_deck(reference: &str, deck: &Deck) -> bool {
    reference == deck.id
        || std::path::Path::new(reference)
            .file_stem()
            .is_some_and(|stem| stem.to_str() == Some(deck.id.as_str()))
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
        // A deck file next to the strategy whose id is the game's deck is the game's deck,
        // whatever the file is called.
        let resolved = deck_reference(&text).is_some_and(|r| {
            !names_deck(r.get_ref(), &ruleset.deck)
                && crate::ruleset::load_deck_named_in(&name, &text, r.get_ref(), r.span())
                    .value
                    .is_some_and(|d| d.id == ruleset.deck.id)
        });
        let strategy = Strategy::parse_with(&text, &ruleset.deck, resolved).map_err(describe)?;
        if let Some(flow) = ruleset.banker() {
            for e in strategy.all_entries() {
                if let Some(d) = e.draw
                    && !flow.draw_options.contains(&d)
                {
                    let options: Vec<String> =
                        flow.draw_options.iter().map(u32::to_string).collect();
                    // The `draw = d` that says it, for the file's line and column.
                    let at = draw_offset(&text, d).map_or(String::new(), |offset| {
                        let (line, col) = line_col(&text, offset);
                        format!(":{line}:{col}")
                    });
                    return Err(format!(
                        "{name}{at}: strategy `{}` takes {d} more tile(s), but `{}` allows {}",
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

    /// [`Strategy::check`] on text already read (an editor's buffer), named `name`. The deck
    /// is found as a ruleset's is: a file next to this one (`my-deck` or `my-deck.toml`), then
    /// a bundled deck.
    pub fn check_text(name: String, text: String) -> Checked {
        let result = match deck_reference(&text) {
            // The full parse reports what is wrong with the file.
            None => Strategy::parse(&text, &empty_deck()),
            Some(named) => {
                let loaded =
                    crate::ruleset::load_deck_named_in(&name, &text, named.get_ref(), named.span());
                match loaded.value {
                    Some(deck) => Strategy::parse_with(&text, &deck, true),
                    None => Err(vec![deck_error(&named, &loaded)]),
                }
            }
        };
        (name, text, result)
    }

    /// Parses a strategy file for `deck`: the strategy, or every mistake in it. A strategy
    /// that names tiles must name `deck` (by its id or a file of that name).
    pub fn parse(text: &str, deck: &Deck) -> Result<Strategy, Vec<StrategyError>> {
        Strategy::parse_with(text, deck, false)
    }

    /// [`Strategy::parse`]; `deck_resolved` when the caller found `deck` from the file's own
    /// `deck`, so the names need not agree.
    fn parse_with(
        text: &str,
        deck: &Deck,
        deck_resolved: bool,
    ) -> Result<Strategy, Vec<StrategyError>> {
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
        let names_tiles = !h.tile.is_empty() || !h.hand.is_empty();
        if !deck.id.is_empty()
            && names_tiles
            && !deck_resolved
            && !names_deck(h.deck.get_ref(), deck)
        {
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
        let default = StrategyEntry {
            bet: read_value(&h.bet, bet, &mut errors).unwrap_or(BetChoice::Min),
            draw: read_value(&h.draw, draw, &mut errors).unwrap_or(None),
        };
        // Every entry with its place, in the file's order.
        struct Raw<'a> {
            at: usize,
            key: Option<StrategyKey>,
            bet: Option<&'a Spanned<toml::Value>>,
            draw: Option<&'a Spanned<toml::Value>>,
            span: std::ops::Range<usize>,
            what: String,
        }
        let mut raws: Vec<Raw> = Vec::new();
        let unknown_deck = deck.id.is_empty();
        let name_cards = |name: &Spanned<String>, errors: &mut Vec<StrategyError>| match cards_of(
            deck,
            name.get_ref(),
        ) {
            Ok(s) => Some(s),
            Err((message, help)) => {
                if !unknown_deck {
                    errors.push(StrategyError {
                        message,
                        span: Some(name.span()),
                        help,
                    });
                }
                None
            }
        };
        for t in &h.tile {
            raws.push(Raw {
                at: t.tile.span().start,
                key: name_cards(&t.tile, &mut errors).map(StrategyKey::FirstTile),
                bet: t.bet.as_ref(),
                draw: t.draw.as_ref(),
                span: t.tile.span(),
                what: format!("`{}`", t.tile.get_ref()),
            });
        }
        for t in &h.total {
            let key = totals(t.total.get_ref())
                .map_err(|m| errors.push(StrategyError::at(m, t.total.span())))
                .ok()
                .map(StrategyKey::Total);
            raws.push(Raw {
                at: t.total.span().start,
                key,
                bet: t.bet.as_ref(),
                draw: t.draw.as_ref(),
                span: t.total.span(),
                what: "the total".into(),
            });
        }
        for t in &h.hand {
            let named = t.tiles.get_ref();
            let key = if named.is_empty() || named.len() > MAX_HAND_TILES {
                errors.push(StrategyError::at(
                    format!(
                        "`tiles` must name 1 to {MAX_HAND_TILES} tiles, not {}",
                        named.len()
                    ),
                    t.tiles.span(),
                ));
                None
            } else {
                let parts: Vec<Option<CardSet>> =
                    named.iter().map(|n| name_cards(n, &mut errors)).collect();
                parts
                    .into_iter()
                    .collect::<Option<Vec<CardSet>>>()
                    .map(StrategyKey::Hand)
            };
            let names: Vec<&str> = named.iter().map(|n| n.get_ref().as_str()).collect();
            raws.push(Raw {
                at: t.tiles.span().start,
                key,
                bet: t.bet.as_ref(),
                draw: t.draw.as_ref(),
                span: t.tiles.span(),
                what: format!("the hand {}", names.join(" ")),
            });
        }
        raws.sort_by_key(|r| r.at);
        let mut entries: Vec<(StrategyKey, StrategyEntry)> = Vec::new();
        let mut places: Vec<std::ops::Range<usize>> = Vec::new();
        for raw in &raws {
            let bet = raw.bet.and_then(|v| read_value(v, bet, &mut errors));
            let draw = raw.draw.and_then(|v| read_value(v, draw, &mut errors));
            let Some(key) = &raw.key else {
                continue;
            };
            if let Some(earlier) = never_used(key, &entries) {
                let (line, _) = line_col(text, places[earlier].start);
                errors.push(StrategyError {
                    message: format!(
                        "{} already has an entry (line {line}); this one would never be used",
                        raw.what
                    ),
                    span: Some(raw.span.clone()),
                    help: Some(
                        match key {
                            StrategyKey::FirstTile(_) => {
                                "identical tiles share an entry, and a suit's entry covers its tiles; keep one"
                            }
                            StrategyKey::Total(_) => "each total counts once; keep one",
                            StrategyKey::Hand(_) => "keep one",
                        }
                        .into(),
                    ),
                });
                continue;
            }
            let entry = StrategyEntry {
                bet: bet.unwrap_or(default.bet),
                draw: draw.unwrap_or(default.draw),
            };
            entries.push((key.clone(), entry));
            places.push(raw.span.clone());
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
            entries,
        })
    }

    /// The default entry and every exception's.
    pub fn all_entries(&self) -> impl Iterator<Item = &StrategyEntry> {
        std::iter::once(&self.default).chain(self.entries.iter().map(|(_, e)| e))
    }

    /// The entry for a hand of `tiles` in a game of `flow`: the first exception that holds,
    /// else the default.
    pub fn entry(&self, flow: &BankerFlow, tiles: CardSet) -> StrategyEntry {
        let mut total = None;
        let mut value = || *total.get_or_insert_with(|| hand_value(flow, tiles));
        self.entries
            .iter()
            .find(|(key, _)| key.holds(tiles, &mut value))
            .map_or(self.default, |(_, e)| *e)
    }

    /// The bet and the tiles to take for a hand with known odds.
    pub fn decide(
        &self,
        flow: &BankerFlow,
        odds: &FirstHandOdds,
        limits: (i64, i64),
    ) -> (i64, u32) {
        let entry = self.entry(flow, odds.tiles);
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

    /// True when some entry needs the exact odds (`best` bets or draws).
    pub fn needs_odds(&self) -> bool {
        self.all_entries()
            .any(|e| e.draw.is_none() || e.bet == BetChoice::Best)
    }
}

/// The index of an earlier entry that makes an entry for `key` never used: for first tiles,
/// when earlier entries hold all its cards; for totals, all its totals; for a hand, the same
/// hand.
fn never_used(key: &StrategyKey, earlier: &[(StrategyKey, StrategyEntry)]) -> Option<usize> {
    match key {
        StrategyKey::FirstTile(cards) => {
            let covered = earlier.iter().fold(CardSet::EMPTY, |acc, (k, _)| match k {
                StrategyKey::FirstTile(c) => acc | *c,
                _ => acc,
            });
            if !(*cards - covered).is_empty() {
                return None;
            }
            earlier.iter().position(|(k, _)| match k {
                StrategyKey::FirstTile(c) => !(*c & *cards).is_empty(),
                _ => false,
            })
        }
        StrategyKey::Total(values) => {
            let covered = |v: &i64| {
                earlier
                    .iter()
                    .any(|(k, _)| matches!(k, StrategyKey::Total(t) if t.contains(v)))
            };
            if !values.iter().all(covered) {
                return None;
            }
            earlier
                .iter()
                .position(|(k, _)| matches!(k, StrategyKey::Total(t) if t.contains(&values[0])))
        }
        StrategyKey::Hand(parts) => {
            let mut sorted = parts.clone();
            sorted.sort_by_key(|c| c.0);
            earlier.iter().position(|(k, _)| match k {
                StrategyKey::Hand(p) => {
                    let mut other = p.clone();
                    other.sort_by_key(|c| c.0);
                    other == sorted
                }
                _ => false,
            })
        }
    }
}

/// A value read with `read`, or its mistake recorded at its place.
fn read_value<T>(
    v: &Spanned<toml::Value>,
    read: fn(&toml::Value) -> Result<T, String>,
    errors: &mut Vec<StrategyError>,
) -> Option<T> {
    read(v.get_ref())
        .map_err(|m| errors.push(StrategyError::at(m, v.span())))
        .ok()
}

/// The mistake of a strategy whose deck could not be loaded: where the strategy names it.
fn deck_error(named: &Spanned<String>, loaded: &crate::ruleset::Loaded<Deck>) -> StrategyError {
    let first = loaded
        .diagnostics
        .iter()
        .find(|d| d.severity == crate::diag::Severity::Error);
    match first {
        // Not found: the loader's words, with where it looked.
        Some(d) if d.loc.file.0 == 0 => StrategyError {
            message: d.message.clone(),
            span: Some(named.span()),
            help: d.help.clone(),
        },
        // Found, with mistakes of its own.
        Some(d) => StrategyError {
            message: format!(
                "the deck `{}` has errors: {} ({})",
                named.get_ref(),
                d.message,
                loaded.sources.get(d.loc.file).name
            ),
            span: Some(named.span()),
            help: Some("`yaku validate` on the deck file shows them all".into()),
        },
        None => StrategyError::at(format!("no deck named `{}`", named.get_ref()), named.span()),
    }
}

/// The totals a `[[strategy.total]]` entry names: one integer or a list of them.
fn totals(v: &toml::Value) -> Result<Vec<i64>, String> {
    let wrong = || format!("`total` must be a hand's total or a list of totals, not {v}");
    match v {
        toml::Value::Integer(n) => Ok(vec![*n]),
        toml::Value::Array(items) if !items.is_empty() => items
            .iter()
            .map(|i| i.as_integer().ok_or_else(wrong))
            .collect(),
        _ => Err(wrong()),
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
fn cards_of(deck: &Deck, name: &str) -> Result<CardSet, (String, Option<String>)> {
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
        let game = crate::ruleset::load("baccarat")
            .value
            .expect("a game on that deck");
        let flow = game.banker().expect("banker");
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
        assert_eq!(s.entry(flow, hand(&deck, "hearts-ace")).bet, BetChoice::Max);
        assert_eq!(
            s.entry(flow, hand(&deck, "hearts-two")).bet,
            BetChoice::Chips(5)
        );
        assert_eq!(
            s.entry(flow, hand(&deck, "hearts-three")).bet,
            BetChoice::Min
        );
        assert_eq!(s.entry(flow, hand(&deck, "spades-king")).draw, Some(0));
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

    fn oicho() -> Ruleset {
        crate::ruleset::load("oicho-kabu")
            .value
            .expect("bundled ruleset")
    }

    fn held(r: &Ruleset, ids: &[&str]) -> CardSet {
        ids.iter()
            .map(|i| r.deck.card_by_id(i).expect("card id"))
            .collect()
    }

    const BY_TOTAL: &str = r#"
[strategy]
deck = "kabufuda"
name = "by-total"
bet = "min"
draw = 1
[[strategy.hand]]
tiles = ["nine", "four"]
draw = 1
[[strategy.total]]
total = [5, 6]
draw = 0
[[strategy.tile]]
tile = "three"
bet = "max"
draw = 0
"#;

    #[test]
    fn entries_keyed_on_the_total_or_the_whole_hand_first_in_the_file_counts() {
        let r = oicho();
        let flow = r.banker().expect("banker");
        let s = Strategy::parse(BY_TOTAL, &r.deck).expect("parses");
        let draw = |ids: &[&str]| s.entry(flow, held(&r, ids)).draw;
        // 2 + 3 = 5, 2 + 4 = 6: the total's entry, before the first tile's (a three).
        assert_eq!(draw(&["two-a", "three-a"]), Some(0));
        assert_eq!(draw(&["two-a", "four-b"]), Some(0));
        // 9 + 4 = 13, a total of 3: the whole hand's entry, in either order of the deck.
        assert_eq!(draw(&["four-a", "nine-c"]), Some(1));
        // 9 + 6 = 15, also 5, but not the hand named: the total's entry.
        assert_eq!(draw(&["nine-a", "six-a"]), Some(0));
        // The first tile's entry: 3 + 1 = 4.
        assert_eq!(
            draw(&["one-a", "three-a"]),
            Some(1),
            "the first tile is the one"
        );
        assert_eq!(
            s.entry(flow, held(&r, &["three-a", "ten-a"])).bet,
            BetChoice::Max
        );
        // A hand of three holding the two named tiles is another hand: its total (3 + 4 + 9 =
        // 16, 6) counts.
        assert_eq!(draw(&["three-b", "four-a", "nine-c"]), Some(0));
        // Nothing holds: the default.
        assert_eq!(draw(&["seven-a", "ten-a"]), Some(1));
    }

    #[test]
    fn a_total_or_a_hand_that_already_has_an_entry_is_refused() {
        let r = oicho();
        let text = format!(
            "{BY_TOTAL}[[strategy.total]]\ntotal = 6\n[[strategy.hand]]\ntiles = [\"four\", \"nine\"]\n[[strategy.total]]\ntotal = \"five\"\n"
        );
        let errors = Strategy::parse(&text, &r.deck).expect_err("never used, and a wrong total");
        let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert!(
            messages[0].starts_with("the total already has an entry (line 11)"),
            "{messages:?}"
        );
        assert!(messages[1].starts_with("the hand four nine already has an entry (line 8)"));
        assert!(messages[2].contains("`total` must be a hand's total or a list of totals"));
    }

    #[test]
    fn a_strategy_naming_totals_only_plays_on_any_deck() {
        // Totals name no tile: the file's deck is not checked.
        let text = BY_TOTAL
            .replace(
                "[[strategy.hand]]\ntiles = [\"nine\", \"four\"]\ndraw = 1\n",
                "",
            )
            .replace(
                "[[strategy.tile]]\ntile = \"three\"\nbet = \"max\"\ndraw = 0\n",
                "",
            );
        assert!(Strategy::parse(&text, &french()).is_ok());
        for name in ["best", "best-fixed", "always-one", "always-two"] {
            for game in ["oicho-kabu", "baccarat", "seotda", "kolyesi"] {
                let r = crate::ruleset::load(game).value.expect("bundled ruleset");
                let (_, text) = read(name).expect("bundled");
                assert!(Strategy::parse(&text, &r.deck).is_ok(), "{name} on {game}");
            }
        }
    }

    #[test]
    fn a_strategy_for_a_deck_of_ones_own_validates_on_its_own_and_plays() {
        let dir = std::env::temp_dir().join(format!("yaku-strategy-deck-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary folder");
        let deck = crate::ruleset::bundled::file("decks/french-20.toml")
            .expect("bundled deck")
            .replace("id = \"french-20\"", "id = \"my-deck\"");
        std::fs::write(dir.join("custom.toml"), deck).expect("deck written");
        let strategy = "[strategy]\nname = \"mine\"\ndeck = \"custom\"\nbet = \"min\"\ndraw = 1\n\
                        [[strategy.tile]]\ntile = \"hearts-ace\"\nbet = \"max\"\n\
                        [[strategy.hand]]\ntiles = [\"spades-king\"]\nbet = 3\n";
        let path = dir.join("mine.toml");
        std::fs::write(&path, strategy).expect("strategy written");
        // Alone: the deck is found next to the strategy, whatever folder this runs in.
        let (_, _, checked) = Strategy::check(path.to_str().expect("path")).expect("read");
        let s = checked.expect("validates against its own deck");
        assert_eq!(s.entries.len(), 2);
        // A ruleset on that deck, in another folder, plays it.
        let game = dir.join("game");
        std::fs::create_dir_all(&game).expect("folder");
        std::fs::write(
            game.join("g.toml"),
            "[ruleset]\nid = \"g\"\nname = \"G\"\ndescription = \"d\"\ndeck = \"../custom\"\n\
             [flow]\nstyle = \"banker\"\nplayers = 1\nfirst_tiles = 1\nbanker_tiles = 2\n\
             draw_options = [1, 2]\nmin_bet = 1\nmax_bet = 10\nbankroll = 100\nhands = 1\n\
             value = \"sum(points) % 10\"\n",
        )
        .expect("ruleset written");
        let r = crate::ruleset::load(game.join("g.toml").to_str().expect("path"));
        let r = r.value.unwrap_or_else(|| panic!("{:?}", r.diagnostics));
        let loaded = Strategy::load(path.to_str().expect("path"), &r).expect("loads for the game");
        let flow = r.banker().expect("banker");
        let ace = CardSet::single(r.deck.card_by_id("hearts-ace").expect("card"));
        assert_eq!(loaded.entry(flow, ace).bet, BetChoice::Max);
        // A deck it cannot find is an error at its `deck`, saying where it looked.
        std::fs::write(&path, strategy.replace("\"custom\"", "\"missing\"")).expect("written");
        let (_, _, checked) = Strategy::check(path.to_str().expect("path")).expect("read");
        let errors = checked.expect_err("no such deck");
        assert_eq!(errors[0].message, "no deck named `missing`");
        assert_eq!(errors[0].span, Some(32..41));
        assert!(
            errors[0]
                .help
                .as_deref()
                .is_some_and(|h| h.contains("next to the file"))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
