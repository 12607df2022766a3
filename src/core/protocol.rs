//! The seat protocol: what one seat is told and what it answers, as JSON lines, so that a
//! program outside yaku can take a seat. A seat is shown only what it may see
//! ([`Game::unseen`] gives the rest as counts); the messages are built here, once, for every
//! front that speaks the protocol.
//!
//! yaku sends `hello` once, then `turn` whenever the seat must act (with the moves made since
//! the seat's last turn), and `game_over` at the end; the seat answers each `turn` with
//! `{"choose": N}` (an index into `legal`) or `{"action": {...}}` (one of `legal`), and may
//! send `{"options": {...}}` on a line of its own before an answer.

use super::Action;
use super::game::Game;
use super::record::{StepAction, Unknown};
use super::seat::Seat;
use crate::deck::CardSet;
use crate::ruleset::Ruleset;
use serde::{Deserialize, Serialize};

/// The protocol's version: a program may check it in `hello`. Version 2 added `moves` to
/// `turn`, `game_over`, and `options`; a program written for version 1 reads it unchanged.
pub const VERSION: u32 = 2;

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
    /// Its suit's display name (`Pine`, `Hearts`).
    pub suit_name: String,
    /// Its suit's number, 1-based, in deck order (the month of a hanafuda card).
    pub suit_number: u32,
    /// What a tile shows of its suit: the deck file's `short` (`Jan`, `♥`).
    pub short: String,
    /// What a tile shows under the suit: the deck file's `face` (`Light`, `A`).
    pub face: String,
    /// The colour its suit's mark is drawn in (the deck file's `colour`: `red` for hearts),
    /// where the deck gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<&'static str>,
    /// Its colour: the position of its first kind among the deck's kinds, so that brights,
    /// animals, ribbons and plains differ (the terminal tables colour tiles the same way).
    pub tone: usize,
    /// Its face drawn as an SVG element ([`crate::deck::face::svg`]): sent to the browser's
    /// table, absent for a program seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
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
    /// The deck's kinds by id, in deck order (what a card's `tone` counts).
    pub kinds: Vec<String>,
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
    /// The score that ends the game, when it is played to a target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<i64>,
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
    /// Every hand played out so far, the first first (absent before the first hand ends).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<HandPoints>,
    /// For each move of `legal`, the cards it would take or reach (a played card's matches on
    /// the table), by id; sent by `yaku serve` only.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reaches: Vec<Vec<String>>,
    /// Each move of `legal` in the game's words (`play Crane`, `bid 21`); sent by `yaku serve`
    /// only.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub described: Vec<String>,
    /// The table laid out as the seat's screen shows it (seats, piles by kind, yaku held and
    /// near, notes); sent by `yaku serve` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<TableView>,
    /// What happened, in words, the latest last; sent by `yaku serve` only. A connection's
    /// first `state` carries the last [`MAX_LOG`] lines, each later one only the lines said
    /// since the state before it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<String>,
    /// The move of `legal` a table offers first: the safe one where there is one (stop with a
    /// yaku rather than play on), else the first; sent by `yaku serve` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<usize>,
    /// What rides on the decision, in words (what the safe choice takes now, what the other
    /// seats are close to), where the table can say; sent by `yaku serve` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stakes: Option<String>,
    /// How many lines of the seat's log came before the first of `log`, so that a client
    /// appends `log` to what it holds (keeping the last [`MAX_LOG`]); sent by `yaku serve`
    /// only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_from: Option<u64>,
    /// The moves made since the seat's last `turn` (since the game began, at the first), the
    /// first first: every seat's, the seat's own forced moves included; sent to seat
    /// programs only.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<Moved>,
    /// How many moves made since the last `turn` are left out of `moves`, which holds the
    /// last [`MAX_MOVES`].
    #[serde(skip_serializing_if = "is_zero_usize")]
    pub moves_dropped: usize,
}

/// The most moves a `turn` or `game_over` lists.
pub const MAX_MOVES: usize = 4096;

/// A move as a seat is told it: the seat that made it and the move as records write it, with
/// the cards the seat may not see left out (`hidden`: a card laid face down).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Moved {
    /// The seat that moved.
    pub seat: Seat,
    /// The move: `action` and its fields, as `legal` writes them.
    #[serde(flatten)]
    pub action: serde_json::Map<String, serde_json::Value>,
}

/// The last message: the game is over. The program's input is closed after it.
#[derive(Clone, Debug, Serialize)]
pub struct GameOver {
    /// Always `"game_over"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The seat told.
    pub seat: Seat,
    /// Every seat's final score.
    pub scores: Vec<i64>,
    /// Every hand played out, the first first.
    pub history: Vec<HandPoints>,
    /// Every zone as the game ended, as this seat sees it.
    pub zones: Vec<Zone>,
    /// The moves made since the seat's last `turn`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<Moved>,
    /// How many of those are left out of `moves`.
    #[serde(skip_serializing_if = "is_zero_usize")]
    pub moves_dropped: usize,
}

/// Settings a seat program may send, on a line of its own before any answer:
/// `{"options": {"forced": false}}`. They hold from the next `turn` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// `false`: the seat is not sent a `turn` when only one move is legal; the move is made
    /// for it and listed in the next message's `moves`. `true` by default.
    #[serde(default = "yes")]
    pub forced: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { forced: true }
    }
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionsLine {
    options: Options,
}

/// The options a line of a seat program sets, if it is an options line (`Err` for an options
/// line that names an unknown option); `None` for any other line.
pub fn options_in(text: &str) -> Option<Result<Options, String>> {
    let value: serde_json::Value = serde_json::from_str(text.trim()).ok()?;
    value.get("options")?;
    Some(
        serde_json::from_value::<OptionsLine>(value)
            .map(|line| line.options)
            .map_err(|e| format!("the options line is not one this protocol reads ({e})")),
    )
}

/// `seat`'s move `action` as `observer` is told it, from `game` just after it: a card the
/// observer may not see ([`Game::unseen`]) is not named, and the move says `"hidden": true`.
pub fn moved(game: &dyn Game, observer: Seat, seat: Seat, action: Action) -> Moved {
    let step = StepAction::from_action(action, game.ruleset());
    let mut map = match serde_json::to_value(&step) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    // The cards the move names: a card played, taken or shown, or the cards taken together.
    let named = action
        .taken()
        .unwrap_or_else(|| action.card().map_or(CardSet::EMPTY, CardSet::single));
    let hidden = !(named & game.unseen(observer)).is_empty();
    if hidden {
        map.remove("card");
        map.remove("cards");
        map.insert("hidden".to_string(), serde_json::Value::Bool(true));
    }
    Moved { seat, action: map }
}

/// The `game_over` message for `seat`, with the moves it has not been told.
pub fn game_over(game: &dyn Game, seat: Seat, moves: Vec<Moved>, dropped: usize) -> GameOver {
    GameOver {
        kind: "game_over",
        seat,
        scores: game.scores().to_vec(),
        history: history(game),
        zones: zones_seen(game, seat),
        moves,
        moves_dropped: dropped,
    }
}

/// The most lines of `log` a `state` carries.
pub const MAX_LOG: usize = 200;

/// One hand played out, as every seat may know it once it is over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandPoints {
    /// The hand, 1-based.
    pub hand: u32,
    /// The seat that won it, if one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Seat>,
    /// Each seat's points from it.
    pub points: Vec<i64>,
    /// The names of the yaku the winner scored.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub yaku: Vec<String>,
}

/// A row of cards on a seat's screen: the table, a hand, a trick.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RowView {
    /// What the row is (`table (8) · stock 24`).
    pub title: String,
    /// The face-up cards, by id.
    pub cards: Vec<String>,
    /// How many face-down cards follow them.
    #[serde(skip_serializing_if = "is_zero_usize")]
    pub hidden: usize,
    /// Cards set apart under a label of their own (the trump turned up beside the trick).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aside: Option<(String, Vec<String>)>,
    /// Piles on the table taken only whole (builds), each under its label (value and owner);
    /// their cards are not among `cards`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub piles: Vec<GroupView>,
}

fn is_zero_usize(n: &usize) -> bool {
    *n == 0
}

/// A group of a seat's cards (its captures of one kind, its tricks).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GroupView {
    /// The group's name with its count (`bright 2`).
    pub label: String,
    /// The cards, by id.
    pub cards: Vec<String>,
}

/// One seat on a seat's screen.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PanelView {
    /// The seat, 0-based.
    pub seat: Seat,
    /// Its label (`you`, `greedy`, `friend`).
    pub name: String,
    /// Score, cards in hand, chips.
    pub summary: String,
    /// How many of its cards lie face down.
    #[serde(skip_serializing_if = "is_zero_usize")]
    pub hidden: usize,
    /// Its cards in groups.
    pub groups: Vec<GroupView>,
    /// Lines about it: yaku held and near, declarations, tallies.
    pub lines: Vec<String>,
}

/// The table as one seat's screen lays it out, in no family's words: what the terminal table
/// shows the same seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TableView {
    /// The top line: ruleset, hand, dealer.
    pub title: String,
    /// The cards in the middle.
    pub center: RowView,
    /// Lines about the whole table (stock, calls, multipliers in force).
    pub notes: Vec<String>,
    /// Every seat, the viewer's own first, then the others in turn order.
    pub panels: Vec<PanelView>,
    /// The viewer's hand.
    pub hand: RowView,
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
                suit_name: deck.suit_of(c).name.clone(),
                suit_number: deck.suit_of(c).number,
                short: deck.suit_of(c).short.clone(),
                face: card.face.clone(),
                colour: deck.suit_of(c).colour,
                tone: card
                    .kinds
                    .first()
                    .and_then(|k| deck.kinds.iter().position(|d| &d.id == k))
                    .unwrap_or(0),
                svg: None,
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
        kinds: deck.kinds.iter().map(|k| k.id.clone()).collect(),
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
        // A game to a target counts no hands: its cap is not a length to show.
        hands: if ruleset.target_score().is_some() {
            0
        } else {
            game.rounds()
        },
        target: ruleset.target_score(),
        dealer: game.dealer(),
        scores: game.scores().to_vec(),
        zones: seat.map_or_else(|| zones_public(game), |seat| zones_seen(game, seat)),
        legal: legal
            .iter()
            .map(|&a| StepAction::from_action(a, ruleset))
            .collect(),
        to_act: game.to_act(),
        over: game.is_over(),
        history: history(game),
        reaches: Vec::new(),
        described: Vec::new(),
        stakes: None,
        table: None,
        log: Vec::new(),
        default: None,
        log_from: None,
        moves: Vec::new(),
        moves_dropped: 0,
    }
}

/// The hands played out so far: each seat's points and the winner's yaku.
pub fn history(game: &dyn Game) -> Vec<HandPoints> {
    let yaku = &game.ruleset().yaku.yaku;
    game.history()
        .iter()
        .map(|h| HandPoints {
            hand: h.round,
            winner: h.winner,
            points: h.points.to_vec(),
            yaku: (0..yaku.len().min(64))
                .filter(|i| h.yaku_mask >> i & 1 == 1)
                .map(|i| yaku[i].name.clone())
                .collect(),
        })
        .collect()
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
