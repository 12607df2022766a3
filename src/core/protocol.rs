//! The seat protocol: what one seat is told and what it answers, as JSON lines, so that a
//! program outside yaku can take a seat. A seat is shown only what it may see
//! ([`Game::unseen`] gives the rest as counts); the messages are built here, once, for every
//! front that speaks the protocol.
//!
//! yaku sends `hello` once, then `turn` whenever the seat must act; the seat answers each
//! `turn` with `{"choose": N}` (an index into `legal`) or `{"action": {...}}` (one of `legal`).

use super::Action;
use super::game::Game;
use super::record::{StepAction, Unknown};
use super::seat::Seat;
use crate::ruleset::Ruleset;
use serde::{Deserialize, Serialize};

/// The protocol's version: a program may check it in `hello`.
pub const VERSION: u32 = 1;

/// One card of the deck, as `hello` describes it.
#[derive(Clone, Debug, Serialize)]
pub struct CardInfo {
    /// The card's id, as the other messages name it.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// Its suit's id (the month of a hanafuda card).
    pub suit: String,
    /// The kinds it belongs to (`bright`, `ribbon`, ...).
    pub kinds: Vec<String>,
    /// Its numeric attributes by name (`points`, `pips`, ...).
    pub values: serde_json::Map<String, serde_json::Value>,
}

/// The first message: the game, the seat and the deck.
#[derive(Clone, Debug, Serialize)]
pub struct Hello {
    /// Always `"hello"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// [`VERSION`].
    pub protocol: u32,
    /// The ruleset's id.
    pub ruleset: String,
    /// The ruleset's display name.
    pub name: String,
    /// The seat this program plays, 0-based; absent for a spectator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// Seats at the table.
    pub seats: usize,
    /// The ruleset's declarations by id, with their names, as `declare` actions name them.
    pub declarations: Vec<(String, String)>,
    /// Every card of the deck.
    pub cards: Vec<CardInfo>,
}

/// A zone of the game as one seat sees it: the cards it may see, and how many it may not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Zone {
    /// The zone's name (`table`, `stock`, `hand 1`, `captured 0`, ...).
    pub name: String,
    /// The cards the seat sees, by id.
    pub cards: Vec<String>,
    /// How many of the zone's cards the seat does not see.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hidden: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A decision asked of the seat.
#[derive(Clone, Debug, Serialize)]
pub struct Turn {
    /// `"turn"` (a decision asked) or `"state"` (the game after a move).
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The seat told; absent for a spectator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// The hand, 1-based.
    pub hand: u32,
    /// Hands in the game (0 when it is played to a target).
    pub hands: u32,
    /// The dealer's seat, where the game has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dealer: Option<Seat>,
    /// Every seat's score.
    pub scores: Vec<i64>,
    /// Every zone, as this seat sees it.
    pub zones: Vec<Zone>,
    /// The moves allowed, as records write them (empty in a `state` for a seat that does not
    /// act).
    pub legal: Vec<StepAction>,
    /// The seat that acts now, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_act: Option<Seat>,
    /// True once the game is over (`scores` are the final scores).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub over: bool,
}

/// What a seat answers to a `turn`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// The index of the move chosen in `legal`.
    #[serde(default)]
    pub choose: Option<usize>,
    /// The move chosen, as `legal` writes it.
    #[serde(default)]
    pub action: Option<StepAction>,
}

/// The `hello` message for `seat` of a game of `ruleset` with `seats` seats.
pub fn hello(ruleset: &Ruleset, seat: Seat, seats: usize) -> Hello {
    hello_to(ruleset, Some(seat), seats)
}

/// The `hello` message for a spectator, who watches and holds no seat.
pub fn hello_spectator(ruleset: &Ruleset, seats: usize) -> Hello {
    hello_to(ruleset, None, seats)
}

fn hello_to(ruleset: &Ruleset, seat: Option<Seat>, seats: usize) -> Hello {
    let deck = &ruleset.deck;
    let cards = deck
        .all()
        .iter()
        .map(|c| {
            let card = deck.card(c);
            CardInfo {
                id: card.id.clone(),
                name: card.name.clone(),
                suit: deck.suit_of(c).id.clone(),
                kinds: deck
                    .kinds
                    .iter()
                    .filter(|k| k.cards.contains(c))
                    .map(|k| k.id.clone())
                    .collect(),
                values: deck
                    .attributes
                    .iter()
                    .map(|a| {
                        let v = a.values.get(c.index()).copied().unwrap_or(0);
                        (a.id.clone(), serde_json::Value::from(v))
                    })
                    .collect(),
            }
        })
        .collect();
    Hello {
        kind: "hello",
        protocol: VERSION,
        ruleset: ruleset.id.clone(),
        name: ruleset.name.clone(),
        seat,
        seats,
        declarations: ruleset
            .declarations
            .iter()
            .map(|d| (d.id.clone(), d.name.clone()))
            .collect(),
        cards,
    }
}

/// The zones of `game` as `seat` sees them: each zone's cards outside [`Game::unseen`], and the
/// count of the rest.
pub fn zones_seen(game: &dyn Game, seat: Seat) -> Vec<Zone> {
    zones_hiding(game, game.unseen(seat))
}

fn zones_hiding(game: &dyn Game, unseen: crate::deck::CardSet) -> Vec<Zone> {
    let deck = &game.ruleset().deck;
    game.zones()
        .into_iter()
        .map(|(name, cards)| Zone {
            name,
            cards: deck
                .ids(cards - unseen)
                .into_iter()
                .map(str::to_string)
                .collect(),
            hidden: (cards & unseen).len(),
        })
        .collect()
}

/// The zones of `game` as a spectator sees them: only the cards every seat sees (a card
/// any seat may not see, such as a hand's or the stock's, is counted, not named).
pub fn zones_public(game: &dyn Game) -> Vec<Zone> {
    let unseen = (0..game.seats()).fold(crate::deck::CardSet::EMPTY, |u, s| u | game.unseen(s));
    zones_hiding(game, unseen)
}

/// The `state` message for a spectator: the public zones, and no legal moves.
pub fn watched(game: &dyn Game) -> Turn {
    message("state", game, None, &[])
}

/// The `turn` message asking `seat` to choose among `legal`.
pub fn turn(game: &dyn Game, seat: Seat, legal: &[Action]) -> Turn {
    message("turn", game, Some(seat), legal)
}

/// The `state` message: the game as `seat` sees it after any move, with the seat's legal moves
/// when it is the one to act (a table in a browser redraws from it).
pub fn state(game: &dyn Game, seat: Seat) -> Turn {
    let mut legal = Vec::new();
    if game.to_act() == Some(seat) {
        game.legal_actions(&mut legal);
    }
    message("state", game, Some(seat), &legal)
}

/// A message to `seat`, or to a spectator (`None`).
fn message(kind: &'static str, game: &dyn Game, seat: Option<Seat>, legal: &[Action]) -> Turn {
    let ruleset = game.ruleset();
    Turn {
        kind,
        seat,
        hand: game.round(),
        hands: game.rounds(),
        dealer: game.dealer(),
        scores: game.scores().to_vec(),
        zones: seat.map_or_else(|| zones_public(game), |seat| zones_seen(game, seat)),
        legal: legal
            .iter()
            .map(|&a| StepAction::from_action(a, ruleset))
            .collect(),
        to_act: game.to_act(),
        over: game.is_over(),
    }
}

/// The move an answer names among `legal`, or why it names none.
pub fn answered(text: &str, legal: &[Action], ruleset: &Ruleset) -> Result<Action, String> {
    let answer: Answer = serde_json::from_str(text.trim())
        .map_err(|e| format!("the answer is not a protocol answer ({e})"))?;
    match (answer.choose, answer.action) {
        (Some(i), None) => legal.get(i).copied().ok_or_else(|| {
            format!(
                "`choose` is {i}, and the legal moves are numbered 0 to {}",
                legal.len().saturating_sub(1)
            )
        }),
        (None, Some(step)) => {
            let action = step.to_action(ruleset).map_err(|e| match e {
                Unknown::Card(id) => format!("the action names an unknown card `{id}`"),
                Unknown::Declaration(id) => {
                    format!("the action names an unknown declaration `{id}`")
                }
            })?;
            if legal.contains(&action) {
                Ok(action)
            } else {
                Err(format!(
                    "{} is not a legal move now",
                    serde_json::json!(step)
                ))
            }
        }
        _ => Err("an answer holds one of `choose` and `action`".to_string()),
    }
}

/// Every card id a message names, for the tests that check what a seat is told.
#[cfg(test)]
pub(crate) fn cards_named(message: &str, deck: &crate::deck::Deck) -> crate::deck::CardSet {
    use crate::deck::CardSet;
    fn walk(v: &serde_json::Value, deck: &crate::deck::Deck, out: &mut CardSet) {
        match v {
            serde_json::Value::String(s) => {
                if let Some(c) = deck.card_by_id(s) {
                    out.insert(c);
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|v| walk(v, deck, out)),
            serde_json::Value::Object(m) => m.values().for_each(|v| walk(v, deck, out)),
            _ => {}
        }
    }
    let mut out = CardSet::EMPTY;
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(message) {
        walk(&v, deck, &mut out);
    }
    out
}
