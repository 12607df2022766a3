//! Positions: a hand written as where its cards lie when dealt, then the moves played since, in
//! a small TOML file a person can write. yaku works out the deck order that deals the cards
//! where they are written, for every family, by dealing once and seeing where each place of
//! the deck order lands; so no one works out a family's dealing order by hand.

use crate::core::record::{Record, StepAction, Unknown};
use crate::core::{Carried, Game, Seat, StartOptions};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{CARRY_LIMIT, Ruleset};
use crate::script::CarriedValue;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;
use toml::Spanned;

/// Deals tried to see where each place of the deck order lands: a deal that the rules deal
/// again, or that ends the hand at once, shows nothing, so another is tried.
const PROBES: u64 = 64;

/// Deals that play on compared to find where a deal usually puts each place.
const SAMPLES: usize = 8;

/// A position file: a ruleset, where the hand's cards lie when dealt, the moves since.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// The ruleset: a bundled name, or a rule file (a path relative to the position's file).
    pub ruleset: Spanned<String>,
    /// The seed of every card not written (placed at random) and of later deals.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub seed: u64,
    /// Seats at the table, when not the ruleset's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<usize>,
    /// The hand's number in its game (1 unless given): rules that read it (a deal by hand
    /// number, passing directions in turn) play as in that hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<u32>,
    /// Hands in the game, when not the ruleset's length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hands: Option<u32>,
    /// The seat that deals this hand, when not the ruleset's rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dealer: Option<Seat>,
    /// Each seat's score (points or chips) as the hand is dealt, when not the start's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Spanned<Vec<i64>>>,
    /// The values carried into the hand (`[[carry]]` ids), when not each one's `initial`: one
    /// number for a value of the table, a list of one number per seat for a value carried per
    /// seat. The deal reads them, as it reads what the last hand left; a value the deal sets
    /// (`deal`) is counted again from them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub carried: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    /// Where cards lie when the hand is dealt: a zone's name (as [`Game::zones`] names it:
    /// `hand 0`, `table`, `stock`, ...) and its cards by id, a list or one string with spaces;
    /// a stock is listed in the order it is drawn. Cards not written are dealt at random.
    #[serde(default)]
    pub deal: BTreeMap<Spanned<String>, Spanned<Cards>>,
    /// Instead of `deal`: the whole deck order the hand is dealt from, first dealt first, as a
    /// record holds it (for a deal whose rules move cards by what they are).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<Spanned<Cards>>,
    /// The moves played since the deal, in a record's form (`{action = "play", card = "..."}`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<Spanned<StepAction>>,
    /// The text read, to point at one card of a list.
    #[serde(skip)]
    source: String,
}

impl Position {
    /// Where `id` is written within `span` of the position's text (the whole span when it
    /// cannot be found: a position made by yaku, not read).
    fn place_of(&self, span: Range<usize>, id: &str) -> Range<usize> {
        let within = self.source.get(span.clone()).unwrap_or("");
        let bounded = |at: &usize| {
            let before = within[..*at].chars().next_back();
            let after = within[at + id.len()..].chars().next();
            let apart = |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '-'));
            apart(before) && apart(after)
        };
        within
            .match_indices(id)
            .map(|(at, _)| at)
            .find(bounded)
            .map_or(span.clone(), |at| {
                span.start + at..span.start + at + id.len()
            })
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A zone's cards as written: a list of ids, or one string of ids separated by spaces.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Cards {
    /// `["jan-crane", "mar-curtain"]`.
    List(Vec<String>),
    /// `"jan-crane mar-curtain"`.
    Text(String),
}

impl Cards {
    /// The ids in the order written.
    pub fn ids(&self) -> Vec<&str> {
        match self {
            Cards::List(ids) => ids.iter().map(String::as_str).collect(),
            Cards::Text(text) => text.split_whitespace().collect(),
        }
    }
}

/// What is wrong with a position, and where in its file (a byte range) when it has a place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// What is wrong.
    pub message: String,
    /// Where, in the position's text.
    pub span: Option<Range<usize>>,
    /// How to put it right, when there is a likely way.
    pub help: Option<String>,
}

impl PositionError {
    fn at(message: impl Into<String>, span: Range<usize>) -> PositionError {
        PositionError {
            message: message.into(),
            span: Some(span),
            help: None,
        }
    }

    fn help(mut self, help: impl Into<String>) -> PositionError {
        self.help = Some(help.into());
        self
    }
}

impl Position {
    /// Reads a position from its text.
    pub fn parse(text: &str) -> Result<Position, PositionError> {
        let mut position: Position = toml::from_str(text).map_err(|e| PositionError {
            message: e.message().trim().to_string(),
            span: e.span(),
            help: None,
        })?;
        position.source = text.to_string();
        Ok(position)
    }

    /// The position as text, as [`Position::parse`] reads it: the moves one to a line, before
    /// the `[deal]` table.
    pub fn to_text(&self) -> String {
        // A position has only strings, numbers, lists and one table of lists: always writable.
        let without_moves = Position {
            moves: Vec::new(),
            ..self.clone()
        };
        let text = toml::to_string(&without_moves).unwrap_or_default();
        let moves = toml::to_string(&Moves {
            moves: self.moves.iter().map(|m| m.get_ref().clone()).collect(),
        })
        .unwrap_or_default();
        if self.moves.is_empty() {
            return text;
        }
        // The moves are a value of the top table: before the first table's header.
        let tables = if text.starts_with('[') {
            Some(0)
        } else {
            text.find("\n[").map(|at| at + 1)
        };
        match tables {
            Some(at) => format!("{}{}\n{}", &text[..at], inline_moves(&moves), &text[at..]),
            None => format!("{text}{}", inline_moves(&moves)),
        }
    }
}

/// The moves alone, to be written as a list of inline tables.
#[derive(Serialize)]
struct Moves {
    moves: Vec<StepAction>,
}

/// `[[moves]]` tables written as one list of inline tables, a move to a line.
fn inline_moves(tables: &str) -> String {
    let mut out = String::from("moves = [\n");
    for block in tables.split("[[moves]]").skip(1) {
        let fields: Vec<&str> = block
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        out.push_str(&format!("    {{ {} }},\n", fields.join(", ")));
    }
    out.push_str("]\n");
    out
}

/// The deck order that deals `position`'s cards where it writes them, and the game dealt from
/// it with its moves played: events logged when `log`.
pub fn start(
    position: &Position,
    ruleset: Arc<Ruleset>,
    log: bool,
) -> Result<Box<dyn Game>, PositionError> {
    let seats = position
        .seats
        .unwrap_or_else(|| super::seat_range(&ruleset).default);
    let carried = carried_of(position, &ruleset, seats)?;
    let options = |orders: Vec<Vec<CardId>>| StartOptions {
        carried: carried.clone(),
        seed: position.seed,
        seats: position.seats,
        rounds: position.hands,
        deck_orders: orders,
        log_events: log,
        first_dealer: position.dealer,
        first_hand: position.hand.unwrap_or(1),
        ..StartOptions::default()
    };
    let start_error = |e: crate::core::StartError| PositionError {
        message: e.to_string(),
        span: None,
        help: None,
    };
    let deck = &ruleset.deck;
    let n = deck.cards.len();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(position.seed);
    if let Some(order) = &position.order {
        if !position.deal.is_empty() {
            return Err(PositionError::at(
                "give `order` or `deal`, not both",
                order.span(),
            ));
        }
        let mut cards = Vec::with_capacity(n);
        let mut seen = CardSet::EMPTY;
        for id in order.get_ref().ids() {
            let card = deck.card_by_id(id).or_else(|| deck.parse_card(id));
            match card {
                Some(c) if !seen.contains(c) => {
                    seen.insert(c);
                    cards.push(c);
                }
                Some(_) => {
                    return Err(PositionError::at(
                        format!("`{id}` is written twice"),
                        position.place_of(order.span(), id),
                    ));
                }
                None => {
                    return Err(PositionError::at(
                        format!("no card `{id}` in the deck of `{}`", ruleset.id),
                        position.place_of(order.span(), id),
                    ));
                }
            }
        }
        if cards.len() != n {
            return Err(PositionError::at(
                format!(
                    "an order names every card of the deck once: {n}, not {}",
                    cards.len()
                ),
                order.span(),
            ));
        }
        let game = super::start(Arc::clone(&ruleset), options(vec![cards])).map_err(start_error)?;
        return play_moves(position, game, &ruleset);
    }
    // Where each place of the deck order lands, from deals that play on: the most usual of a
    // few, since a deal may move cards by what they are (a bonus card on the table replaced).
    let mut seen: Vec<(Vec<usize>, Vec<String>, usize)> = Vec::new();
    for _ in 0..PROBES {
        if seen.iter().map(|s| s.2).sum::<usize>() >= SAMPLES {
            break;
        }
        let mut probe: Vec<CardId> = deck.all().iter().collect();
        crate::deck::shuffle_slice(&mut probe, &mut rng);
        let game = super::start(Arc::clone(&ruleset), options(vec![probe.clone()]))
            .map_err(start_error)?;
        if game.dealt_orders().len() != 1 || !game.history().is_empty() || game.is_over() {
            continue;
        }
        let zones = game.zones();
        let sizes: Vec<usize> = zones.iter().map(|(_, c)| c.len() as usize).collect();
        if let Some(same) = seen.iter_mut().find(|s| s.0 == sizes) {
            same.2 += 1;
            continue;
        }
        let mut zone_of = vec![String::new(); n];
        for (name, cards) in zones {
            for card in cards.iter() {
                if let Some(place) = probe.iter().position(|&c| c == card) {
                    zone_of[place].clone_from(&name);
                }
            }
        }
        seen.push((sizes, zone_of, 1));
    }
    // The first of the most usual (`max_by_key` would take the last).
    let most = seen.iter().map(|s| s.2).max().unwrap_or(0);
    let landing = seen.into_iter().find(|s| s.2 == most).map(|s| s.1);
    let Some(landing) = landing else {
        return Err(PositionError {
            message: format!(
                "no deal of `{}` plays on in {PROBES} tries: every one was dealt again or ended the hand",
                ruleset.id
            ),
            span: None,
            help: None,
        });
    };
    let zones: Vec<&str> = {
        let mut z: Vec<&str> = landing.iter().map(String::as_str).collect();
        z.sort_unstable();
        z.dedup();
        z
    };
    // The written cards, checked: known zones, known cards, each once, as many as the zone.
    let mut written: BTreeMap<&str, Vec<CardId>> = BTreeMap::new();
    let mut placed = CardSet::EMPTY;
    for (zone, cards) in &position.deal {
        let name = zone.get_ref().as_str();
        if !zones.contains(&name) {
            let help =
                crate::diag::did_you_mean(name, zones.iter().copied()).unwrap_or_else(|| {
                    format!("a deal of `{}` fills: {}", ruleset.id, zones.join(", "))
                });
            return Err(PositionError::at(
                format!("`{name}` is no place a deal of `{}` puts cards", ruleset.id),
                zone.span(),
            )
            .help(help));
        }
        let mut list = Vec::new();
        for id in cards.get_ref().ids() {
            let Some(card) = deck.card_by_id(id).or_else(|| deck.parse_card(id)) else {
                let help = crate::diag::did_you_mean(id, deck.card_ids())
                    .unwrap_or_else(|| "card ids are listed by `yaku rules`".to_string());
                return Err(PositionError::at(
                    format!("no card `{id}` in the deck of `{}`", ruleset.id),
                    position.place_of(cards.span(), id),
                )
                .help(help));
            };
            if placed.contains(card) {
                return Err(PositionError::at(
                    format!("`{}` is written twice", deck.id_of(card)),
                    position.place_of(cards.span(), id),
                ));
            }
            placed.insert(card);
            list.push(card);
        }
        let room = landing.iter().filter(|z| z.as_str() == name).count();
        if list.len() > room {
            return Err(PositionError::at(
                format!(
                    "`{name}` holds {room} card(s) when `{}` is dealt, not {}",
                    ruleset.id,
                    list.len()
                ),
                cards.span(),
            ));
        }
        written.insert(name, list);
    }
    // The order: each zone's places in turn take its written cards, first written first; the
    // cards not written fill the other places at random.
    let mut rest: Vec<CardId> = (deck.all() - placed).iter().collect();
    crate::deck::shuffle_slice(&mut rest, &mut rng);
    let mut rest = rest.into_iter();
    let mut next: BTreeMap<&str, usize> = BTreeMap::new();
    let order: Vec<CardId> = landing
        .iter()
        .map(|zone| {
            let taken = next.entry(zone.as_str()).or_default();
            let card = written.get(zone.as_str()).and_then(|w| w.get(*taken));
            *taken += 1;
            match card {
                Some(&c) => c,
                None => rest.next().expect("as many cards left as places"),
            }
        })
        .collect();
    let game = super::start(Arc::clone(&ruleset), options(vec![order])).map_err(start_error)?;
    if game.dealt_orders().len() > 1 {
        return Err(PositionError {
            message: "the rules deal this hand again (a deal they refuse)".into(),
            span: None,
            help: Some(
                "write a deal the rules keep; the cards not written are placed from `seed`, and another seed places them otherwise"
                    .into(),
            ),
        });
    }
    if game.history().is_empty() {
        let now = game.zones();
        // A deal bonus (`[[flow.deal_bonus]]`) captures table cards as the rules deal: the
        // table written is the table dealt, and its cards a seat took at the deal are kept.
        let taken_at_deal = if ruleset
            .matching()
            .is_some_and(|f| !f.deal_bonuses.is_empty())
        {
            now.iter()
                .filter(|(n, _)| n.starts_with("captured "))
                .fold(CardSet::EMPTY, |u, (_, c)| u | *c)
        } else {
            CardSet::EMPTY
        };
        for (zone, cards) in &position.deal {
            let name = zone.get_ref().as_str();
            let there = now
                .iter()
                .find(|(n, _)| n == name)
                .map_or(CardSet::EMPTY, |(_, c)| *c);
            let wanted: CardSet = written[name].iter().copied().collect();
            let there = if name == "table" {
                there | taken_at_deal
            } else {
                there
            };
            if !(wanted - there).is_empty() {
                return Err(PositionError::at(
                    format!(
                        "the deal does not leave {} in `{name}`: the rules move it as they deal",
                        deck.ids(wanted - there).join(", ")
                    ),
                    cards.span(),
                ));
            }
        }
    }
    play_moves(position, game, &ruleset)
}

/// The values `position` carries into its hand, checked against the ruleset's `[[carry]]`
/// for a table of `seats`; `None` when it writes none (each starts at its `initial`).
fn carried_of(
    position: &Position,
    ruleset: &Ruleset,
    seats: usize,
) -> Result<Option<Carried>, PositionError> {
    if position.carried.is_empty() {
        return Ok(None);
    }
    let defs = &ruleset.carry;
    let mut writes = Vec::with_capacity(position.carried.len());
    for (name, value) in &position.carried {
        let id = name.get_ref().as_str();
        let Some(def) = defs.iter().find(|d| d.id == id) else {
            let ids: Vec<&str> = defs.iter().map(|d| d.id.as_str()).collect();
            let help = crate::diag::did_you_mean(id, ids.iter().copied()).unwrap_or_else(|| {
                if ids.is_empty() {
                    format!("`{}` has no `[[carry]]`: remove `carried`", ruleset.id)
                } else {
                    format!("`{}` carries: {}", ruleset.id, ids.join(", "))
                }
            });
            return Err(PositionError::at(
                format!("`{id}` is no value `{}` carries", ruleset.id),
                name.span(),
            )
            .help(help));
        };
        let number = |v: &toml::Value| v.as_integer().filter(|n| n.abs() <= CARRY_LIMIT);
        let range = format!("between -{CARRY_LIMIT} and {CARRY_LIMIT}");
        let written = if def.per_seat {
            let list = value.get_ref().as_array().filter(|l| l.len() == seats);
            match list.map(|l| l.iter().map(number).collect::<Option<Vec<i64>>>()) {
                Some(Some(list)) => CarriedValue::PerSeat(list),
                _ => {
                    return Err(PositionError::at(
                        format!(
                            "`{id}` is carried per seat: a list of {seats} whole numbers, each {range}"
                        ),
                        value.span(),
                    ));
                }
            }
        } else {
            match number(value.get_ref()) {
                Some(n) => CarriedValue::One(n),
                None => {
                    return Err(PositionError::at(
                        format!("`{id}` is carried for the table: one whole number {range}"),
                        value.span(),
                    ));
                }
            }
        };
        writes.push((def.id.clone(), written));
    }
    let mut carried = Carried::new(defs, seats);
    carried.apply(defs, &writes).map_err(|why| {
        PositionError::at(
            why,
            position.carried.keys().next().map_or(0..0, Spanned::span),
        )
    })?;
    Ok(Some(carried))
}

/// The scores and moves of `position` played on `game`, just dealt.
fn play_moves(
    position: &Position,
    mut game: Box<dyn Game>,
    ruleset: &Ruleset,
) -> Result<Box<dyn Game>, PositionError> {
    if let Some(scores) = &position.scores {
        if scores.get_ref().len() != game.seats() {
            return Err(PositionError::at(
                format!(
                    "{} score(s) for {} seats",
                    scores.get_ref().len(),
                    game.seats()
                ),
                scores.span(),
            ));
        }
        game.ledger_mut().scores.copy_from_slice(scores.get_ref());
    }
    for (index, step) in position.moves.iter().enumerate() {
        let action = step.get_ref().to_action(ruleset).map_err(|u| {
            PositionError::at(
                match u {
                    Unknown::Card(c) => format!("move {}: no card `{c}`", index + 1),
                    Unknown::Declaration(d) => format!("move {}: no declaration `{d}`", index + 1),
                },
                step.span(),
            )
        })?;
        if game.to_act().is_none() {
            return Err(PositionError::at(
                format!("move {}: the game is over", index + 1),
                step.span(),
            ));
        }
        game.apply(action).map_err(|e| {
            PositionError::at(format!("move {}: {}", index + 1, e.reason), step.span())
        })?;
    }
    Ok(game)
}

/// The position of a record's game after its first `at` actions: the deal of the hand then in
/// play, as every zone held it, the scores and dealer at that deal, and the hand's moves so far;
/// `spec` names the ruleset as the position will. The position is dealt again and compared with
/// the record's game: where the zones as dealt do not give it (the rules moved cards as they
/// dealt), the deal's deck order is written instead; the flag says whether the position, dealt
/// again, is the record's game (a later hand may depend on earlier ones in ways it does not hold).
pub fn of_record(
    record: &Record,
    ruleset: Arc<Ruleset>,
    spec: &str,
    at: usize,
) -> Result<(Position, bool), crate::core::record::RecordError> {
    let at = at.min(record.actions.len());
    let mut game = super::start_record(record, Arc::clone(&ruleset), false)?;
    let mut hand = HandStart::of(&*game, 0);
    let first_scores = hand.scores.clone();
    for index in 0..at {
        let deals = game.dealt_orders().len();
        record.apply(&mut *game, index)?;
        if game.dealt_orders().len() > deals {
            hand = HandStart::of(&*game, index + 1);
        }
    }
    let deck = &ruleset.deck;
    let order = game.dealt_orders().last().cloned().unwrap_or_default();
    let place = |card: CardId| order.iter().position(|&c| c == card).unwrap_or(usize::MAX);
    let text = |cards: &[CardId]| {
        Spanned::new(
            0..0,
            Cards::Text(
                cards
                    .iter()
                    .map(|&c| deck.id_of(c))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
        )
    };
    let mut deal = BTreeMap::new();
    for (name, cards) in &hand.zones {
        if cards.is_empty() {
            continue;
        }
        let mut list: Vec<CardId> = cards.iter().collect();
        list.sort_by_key(|&c| place(c));
        deal.insert(Spanned::new(0..0, name.clone()), text(&list));
    }
    let mut position = Position {
        ruleset: Spanned::new(0..0, spec.to_string()),
        seed: record.seed.unwrap_or(0),
        seats: Some(game.seats()),
        hand: (hand.round > 1).then_some(hand.round),
        hands: record.rounds,
        dealer: hand.dealer,
        scores: (hand.scores != first_scores).then(|| Spanned::new(0..0, hand.scores.clone())),
        carried: carried_written(hand.carried.as_ref(), &ruleset, game.seats()),
        deal,
        order: None,
        moves: record.actions[hand.first_action..at]
            .iter()
            .map(|s| Spanned::new(0..0, s.action.clone()))
            .collect(),
        source: String::new(),
    };
    let same = |position: &Position| {
        start(position, Arc::clone(&ruleset), false).is_ok_and(|g| {
            g.zones() == game.zones()
                && g.to_act() == game.to_act()
                && g.scores() == game.scores()
                && g.carried() == game.carried()
        })
    };
    if same(&position) {
        return Ok((position, true));
    }
    let by_zones = std::mem::take(&mut position.deal);
    position.order = Some(text(&order));
    if same(&position) {
        return Ok((position, true));
    }
    position.order = None;
    position.deal = by_zones;
    Ok((position, false))
}

/// The values `carried` into a hand as a position writes them: those not at their `initial`.
fn carried_written(
    carried: Option<&Carried>,
    ruleset: &Ruleset,
    seats: usize,
) -> BTreeMap<Spanned<String>, Spanned<toml::Value>> {
    let initial = Carried::new(&ruleset.carry, seats);
    let Some(carried) = carried else {
        return BTreeMap::new();
    };
    carried
        .iter()
        .filter(|(id, values)| initial.get(id) != Some(*values))
        .filter_map(|(id, values)| {
            let def = ruleset.carry.iter().find(|d| d.id == id)?;
            let value = if def.per_seat {
                toml::Value::Array(values.iter().map(|&v| toml::Value::Integer(v)).collect())
            } else {
                toml::Value::Integer(values.first().copied()?)
            };
            Some((
                Spanned::new(0..0, id.to_string()),
                Spanned::new(0..0, value),
            ))
        })
        .collect()
}

/// What a hand's position starts from: its zones as dealt, its round, dealer and the scores
/// then, and the record's first action in it.
struct HandStart {
    zones: Vec<(String, CardSet)>,
    round: u32,
    dealer: Option<Seat>,
    scores: Vec<i64>,
    /// The values carried into the hand, as the last hand left them (none for the game's
    /// first: each its `initial`).
    carried: Option<Carried>,
    first_action: usize,
}

impl HandStart {
    fn of(game: &dyn Game, first_action: usize) -> HandStart {
        HandStart {
            zones: game.zones(),
            round: game.round(),
            dealer: game.dealer(),
            scores: game.scores().to_vec(),
            carried: game.history().last().map(|h| h.carried.clone()),
            first_action,
        }
    }
}
