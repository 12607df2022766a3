//! Game records of every family: the JSON file `yaku play --record` and saved games write, and
//! `yaku replay` and `yaku play --resume` read (format: `docs/records.md`).
//!
//! A record names its ruleset (id, how to load it, and its content hash), the seed, the players
//! (one per seat), every deal's deck order and every action, with cards as their ids and
//! declarations by their ruleset ids. Replaying deals from the recorded orders, so a record
//! written by another program needs no seed. Nothing here prints.

use super::{Action, DeclId, Game, Seat, StartOptions};
use crate::deck::{CardId, CardSet, Deck};
use crate::ruleset::Ruleset;
use serde::{Deserialize, Serialize};

/// The `format` field of every record.
pub const FORMAT: &str = crate::fsio::RECORD_FORMAT;
/// The version this program writes.
pub const VERSION: u32 = 2;
/// The oldest version this program reads: version 1 records (two-player matching games, with
/// their calls as actions of their own) are read as version 2.
pub const OLDEST_VERSION: u32 = 1;

/// The most packs a recorded deal may hold (a shoe of a banker game: `shoe_packs`).
const MOST_PACKS: usize = 64;

/// The most rule files (rulesets, decks, scripts) a record embeds.
pub const MAX_EMBEDDED_FILES: usize = 64;
/// The most text, in bytes, a record embeds in all (each file's text as JSON writes it, quotes
/// and escapes included, which is never less than the text itself).
pub const MAX_EMBEDDED_SIZE: usize = 4 * 1024 * 1024;

/// A game record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Always [`FORMAT`].
    pub format: String,
    /// The format version, [`VERSION`].
    pub version: u32,
    /// The ruleset played.
    pub ruleset: RulesetRef,
    /// The seed the game was started with (absent in records from other programs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Who sat at each seat: `human`, or a bot name.
    pub players: Vec<String>,
    /// Hands played instead of the ruleset's length, if overridden.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// The first hand's dealer (a seat); absent: the ruleset's rule with the seed decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_dealer: Option<usize>,
    /// The smallest bet, when the table limits were set on the command line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_bet: Option<i64>,
    /// The largest bet, when the table limits were set on the command line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_bet: Option<i64>,
    /// The deck order of every deal (redeals included), card ids, first dealt first.
    pub deals: Vec<Vec<String>>,
    /// Every action, in order.
    pub actions: Vec<Step>,
    /// True when the game was played to its end.
    #[serde(default)]
    pub finished: bool,
    /// Moves a player took back (undo against bots), each where it was taken back: kept for
    /// the record, never replayed (`actions` is the game as played on).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub undone: Vec<Undone>,
    /// What happened, the automatic steps included (deals, cards drawn and what they took,
    /// tricks won, yaku formed, hands ended), each after the action it followed: so that a
    /// program can follow the game without yaku. Written by yaku, never read back (a replay
    /// computes them again), so that no record is refused for them.
    #[serde(default, skip_deserializing, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<RecordedEvent>,
}

/// One event of [`Record::events`]: `after` actions had been made when it happened (0: before
/// the first, at the first deal), and the event as the table tells it, cards by id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedEvent {
    /// How many of the record's actions came before it.
    pub after: usize,
    /// `event` (its kind) and its fields.
    #[serde(flatten)]
    pub event: serde_json::Map<String, serde_json::Value>,
}

impl RecordedEvent {
    /// `event`, after the first `after` actions, with its cards by id and a declaration by its
    /// id.
    pub fn new(after: usize, event: &super::Event, ruleset: &Ruleset) -> RecordedEvent {
        let deck = &ruleset.deck;
        let mut map = match serde_json::to_value(event) {
            Ok(serde_json::Value::Object(map)) => map,
            _ => serde_json::Map::new(),
        };
        let id = |v: &serde_json::Value| {
            v.as_u64()
                .and_then(|n| u8::try_from(n).ok())
                .filter(|&n| usize::from(n) < deck.cards.len())
                .map_or(serde_json::Value::Null, |n| {
                    deck.id_of(CardId(n)).to_string().into()
                })
        };
        for (key, value) in map.iter_mut() {
            match (key.as_str(), value) {
                ("card", v) if v.is_u64() => *v = id(v),
                ("cards" | "captured", serde_json::Value::Array(items)) => {
                    items.iter_mut().for_each(|v| *v = id(v));
                }
                _ => {}
            }
        }
        if let super::Event::Declared { decl, .. } = event
            && let Some(d) = ruleset.declarations.get(usize::from(decl.0))
        {
            map.insert("id".to_string(), d.id.clone().into());
        }
        RecordedEvent { after, event: map }
    }
}

/// Moves taken back during play: `actions` had been made after the first `at` actions of the
/// record, and were taken back there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Undone {
    /// How many of the record's actions stood when the moves were taken back.
    pub at: usize,
    /// The moves taken back, in the order they were made.
    pub actions: Vec<Step>,
}

/// How a record names its ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesetRef {
    /// The ruleset's id.
    pub id: String,
    /// What to load: a bundled name or a path.
    pub spec: String,
    /// `Ruleset::content_hash` as 16 hex digits; absent when unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_hash: Option<String>,
    /// The text of every rule file, deck and script the ruleset was loaded from that is not
    /// bundled with yaku, by its path relative to the record's folder (as `spec` names them):
    /// replay loads the ruleset from these, never from the disk. Empty for bundled rulesets and
    /// in records written before records embedded their rules.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub files: std::collections::BTreeMap<String, String>,
}

/// One recorded action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The seat that acted (checked on replay when present).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<usize>,
    /// What it did.
    #[serde(flatten)]
    pub action: StepAction,
}

/// A recorded action, with cards and declarations as ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum StepAction {
    /// Play a hand card.
    Play {
        /// The card's id.
        card: String,
    },
    /// Take this table card with the card being resolved (a choice between matches).
    Capture {
        /// The table card's id.
        card: String,
    },
    /// Take these table cards together with the card being resolved (a capture of several).
    CaptureSet {
        /// The table cards' ids, in deck order.
        cards: Vec<String>,
    },
    /// Play these hand cards together as one combination (climbing games).
    PlaySet {
        /// The cards' ids, in deck order.
        cards: Vec<String>,
    },
    /// Lay the card being resolved on these table cards as a build of `value`.
    Build {
        /// The table cards' ids, in deck order.
        cards: Vec<String>,
        /// The value declared.
        value: u8,
    },
    /// Make a declaration of the ruleset.
    Declare {
        /// The declaration's id.
        id: String,
        /// The card shown with it, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<String>,
    },
    /// Bet chips.
    Bet {
        /// The chips.
        amount: i64,
    },
    /// Take more tiles or cards.
    Draw {
        /// How many.
        tiles: u32,
    },
}

/// Why a record cannot be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// What went wrong.
    pub kind: RecordErrorKind,
}

/// The kinds of [`RecordError`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordErrorKind {
    /// The file is not JSON of the record's shape.
    Syntax {
        /// The parser's message.
        message: String,
    },
    /// The record was written for another ruleset than the one loaded for it.
    OtherRuleset {
        /// The id the record gives.
        recorded: String,
        /// The loaded ruleset's id.
        loaded: String,
    },
    /// A field's value does not fit the game.
    BadField {
        /// The field.
        field: &'static str,
        /// Why.
        reason: String,
    },
    /// The `format` or `version` is not one this program reads.
    Format {
        /// What the file says.
        found: String,
    },
    /// A deal is not an order of the whole deck.
    BadDeal {
        /// The deal's index, 0-based.
        deal: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// An action names a declaration the ruleset does not have.
    UnknownDeclaration {
        /// The action's index, 0-based.
        index: usize,
        /// The id given.
        id: String,
    },
    /// An action names a card the deck does not have.
    UnknownCard {
        /// The action's index, 0-based.
        index: usize,
        /// The id given.
        card: String,
    },
    /// An action was recorded for the wrong seat.
    WrongSeat {
        /// The action's index.
        index: usize,
        /// The seat the record gives.
        recorded: usize,
        /// The seat that was to act (none when the game was over).
        to_act: Option<usize>,
    },
    /// An action the game refuses.
    Illegal {
        /// The action's index.
        index: usize,
        /// The game's reason.
        reason: String,
    },
    /// The ruleset's scoring script failed while replaying.
    Script {
        /// The script's error.
        message: String,
    },
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            RecordErrorKind::Syntax { message } => write!(f, "not a game record: {message}"),
            RecordErrorKind::Format { found } => write!(
                f,
                "unsupported record format `{found}` (this program reads `{FORMAT}` versions {OLDEST_VERSION} to {VERSION})"
            ),
            RecordErrorKind::OtherRuleset { recorded, loaded } => write!(
                f,
                "the record is of ruleset `{recorded}`, but its spec loads `{loaded}`"
            ),
            RecordErrorKind::BadField { field, reason } => write!(f, "`{field}`: {reason}"),
            RecordErrorKind::UnknownDeclaration { index, id } => {
                write!(f, "action {index}: unknown declaration `{id}`")
            }
            RecordErrorKind::BadDeal { deal, reason } => {
                write!(f, "deal {deal} is not an order of the deck: {reason}")
            }
            RecordErrorKind::UnknownCard { index, card } => {
                write!(f, "action {index}: unknown card `{card}`")
            }
            RecordErrorKind::WrongSeat {
                index,
                recorded,
                to_act,
            } => match to_act {
                Some(s) => write!(
                    f,
                    "action {index}: recorded for seat {recorded}, but seat {s} was to act"
                ),
                None => write!(f, "action {index}: the game was already over"),
            },
            RecordErrorKind::Illegal { index, reason } => {
                write!(f, "action {index} is illegal: {reason}")
            }
            RecordErrorKind::Script { message } => write!(f, "scoring script failed: {message}"),
        }
    }
}

impl std::error::Error for RecordError {}

fn err(kind: RecordErrorKind) -> RecordError {
    RecordError { kind }
}

/// A ruleset's content hash as records write it.
pub fn hash_hex(hash: u64) -> String {
    format!("{hash:016x}")
}

/// Whether a record's ruleset hash matches the ruleset loaded for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HashCheck {
    /// The same rules.
    Same,
    /// The rules changed since the record was written.
    Differs {
        /// The record's hash.
        recorded: String,
        /// The loaded ruleset's hash.
        actual: String,
    },
    /// The record gives no hash.
    Unrecorded,
}

impl StepAction {
    /// The record form of an action.
    pub fn from_action(action: Action, ruleset: &Ruleset) -> StepAction {
        let deck = &ruleset.deck;
        let id = |card: CardId| deck.id_of(card).to_string();
        match action {
            Action::Play { card } => StepAction::Play { card: id(card) },
            Action::Take { card } => StepAction::Capture { card: id(card) },
            Action::TakeSet { cards } => StepAction::CaptureSet {
                cards: cards.iter().map(id).collect(),
            },
            Action::PlaySet { cards } => StepAction::PlaySet {
                cards: cards.iter().map(id).collect(),
            },
            Action::Build { cards, value } => StepAction::Build {
                cards: cards.iter().map(id).collect(),
                value,
            },
            Action::Declare { decl, card } => StepAction::Declare {
                id: ruleset
                    .declarations
                    .get(decl.0 as usize)
                    .map_or_else(|| decl.0.to_string(), |d| d.id.clone()),
                card: card.map(id),
            },
            Action::Bet { amount } => StepAction::Bet { amount },
            Action::Draw { count } => StepAction::Draw { tiles: count },
        }
    }

    /// The action this step names; `Err` holds the unknown card or declaration.
    pub fn to_action(&self, ruleset: &Ruleset) -> Result<Action, Unknown> {
        let deck = &ruleset.deck;
        let card = |id: &str| {
            deck.card_by_id(id)
                .ok_or_else(|| Unknown::Card(id.to_string()))
        };
        Ok(match self {
            StepAction::Play { card: id } => Action::Play { card: card(id)? },
            StepAction::Capture { card: id } => Action::Take { card: card(id)? },
            StepAction::CaptureSet { cards } => Action::TakeSet {
                cards: cards
                    .iter()
                    .map(|id| card(id))
                    .collect::<Result<CardSet, Unknown>>()?,
            },
            StepAction::PlaySet { cards } => Action::PlaySet {
                cards: cards
                    .iter()
                    .map(|id| card(id))
                    .collect::<Result<CardSet, Unknown>>()?,
            },
            StepAction::Build { cards, value } => Action::Build {
                cards: cards
                    .iter()
                    .map(|id| card(id))
                    .collect::<Result<CardSet, Unknown>>()?,
                value: *value,
            },
            StepAction::Declare { id, card: shown } => Action::Declare {
                decl: declaration(ruleset, id).ok_or_else(|| Unknown::Declaration(id.clone()))?,
                card: shown.as_deref().map(card).transpose()?,
            },
            StepAction::Bet { amount } => Action::Bet { amount: *amount },
            StepAction::Draw { tiles } => Action::Draw { count: *tiles },
        })
    }
}

/// What a recorded action names that the game does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unknown {
    /// A card id.
    Card(String),
    /// A declaration id.
    Declaration(String),
}

/// The declaration `id` names: by id; a version 1 record's action name (`@effect` for its hand
/// swap, or an id written with `_` between words) by effect or by id without separators.
fn declaration(ruleset: &Ruleset, id: &str) -> Option<DeclId> {
    let plain = |s: &str| s.replace(['_', '-'], "");
    let found = match id.strip_prefix('@') {
        Some(effect) => ruleset.declarations.iter().position(|d| d.effect == effect),
        None => ruleset
            .declarations
            .iter()
            .position(|d| d.id == id)
            .or_else(|| {
                ruleset
                    .declarations
                    .iter()
                    .position(|d| plain(&d.id) == plain(id))
            }),
    };
    found.map(|i| DeclId(i as u8))
}

/// A version 1 record's actions in version 2's form: its calls were actions of their own
/// (named after the call), its hand swap an action with a flag.
fn upgrade_v1(value: &mut serde_json::Value) {
    let Some(actions) = value.get_mut("actions").and_then(|a| a.as_array_mut()) else {
        return;
    };
    for step in actions {
        let Some(obj) = step.as_object_mut() else {
            continue;
        };
        let Some(name) = obj
            .get("action")
            .and_then(|a| a.as_str())
            .map(str::to_string)
        else {
            continue;
        };
        let id = match name.as_str() {
            "play" | "capture" => continue,
            "swap_hands" => {
                let swap = obj.get("swap").and_then(|s| s.as_bool()).unwrap_or(false);
                obj.remove("swap");
                if swap { "@swap" } else { "@keep" }.to_string()
            }
            other => other.to_string(),
        };
        obj.insert("action".into(), "declare".into());
        obj.insert("id".into(), id.into());
    }
}

impl Record {
    /// An empty record of a game about to be played.
    pub fn new(
        ruleset: &Ruleset,
        spec: &str,
        seed: Option<u64>,
        players: &[String],
        rounds: Option<u32>,
    ) -> Record {
        Record {
            format: FORMAT.to_string(),
            version: VERSION,
            ruleset: RulesetRef {
                id: ruleset.id.clone(),
                spec: spec.to_string(),
                content_hash: Some(hash_hex(ruleset.content_hash)),
                files: std::collections::BTreeMap::new(),
            },
            seed,
            players: players.to_vec(),
            rounds,
            first_dealer: None,
            min_bet: None,
            max_bet: None,
            deals: Vec::new(),
            actions: Vec::new(),
            finished: false,
            undone: Vec::new(),
            events: Vec::new(),
        }
    }

    /// Reads a record from JSON text.
    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        let mut value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            err(RecordErrorKind::Syntax {
                message: e.to_string(),
            })
        })?;
        let format = value.get("format").and_then(|f| f.as_str());
        let version = value.get("version").and_then(|v| v.as_u64());
        let readable = u64::from(OLDEST_VERSION)..=u64::from(VERSION);
        if format != Some(FORMAT) || !version.is_some_and(|v| readable.contains(&v)) {
            return Err(err(RecordErrorKind::Format {
                found: format!(
                    "{} version {}",
                    format.unwrap_or("(none)"),
                    version.map_or_else(|| "(none)".to_string(), |v| v.to_string())
                ),
            }));
        }
        // Counted before anything is read into a list: a record with 100,000 players is
        // refused at once, not checked seat by seat.
        if let Some(players) = value.get("players").and_then(|p| p.as_array())
            && players.len() > crate::core::MAX_SEATS
        {
            return Err(err(RecordErrorKind::BadField {
                field: "players",
                reason: format!(
                    "{} players; no table seats more than {}",
                    players.len(),
                    crate::core::MAX_SEATS
                ),
            }));
        }
        // The embedded rule files are loaded on replay: bounded before anything is read.
        if let Some(files) = value.pointer("/ruleset/files").and_then(|f| f.as_object()) {
            let size: usize = files
                .iter()
                .map(|(name, text)| name.len() + text.as_str().map_or(0, str::len))
                .sum();
            if files.len() > MAX_EMBEDDED_FILES || size > MAX_EMBEDDED_SIZE {
                return Err(err(RecordErrorKind::BadField {
                    field: "ruleset.files",
                    reason: format!(
                        "{} files of {size} bytes; a record embeds at most {MAX_EMBEDDED_FILES} files of {MAX_EMBEDDED_SIZE} bytes in all",
                        files.len()
                    ),
                }));
            }
        }
        if version == Some(1) {
            upgrade_v1(&mut value);
        }
        let mut record: Record = serde_json::from_value(value).map_err(|e| {
            err(RecordErrorKind::Syntax {
                message: e.to_string(),
            })
        })?;
        record.version = VERSION;
        Ok(record)
    }

    /// The record as JSON: pretty-printed at the top, with each deal and each action on one
    /// line (as docs/records.md shows). One card id a line made a long game's record several
    /// times larger, past what yaku reads back ([`crate::fsio::MAX_RECORD_SIZE`]).
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut out, LineFormatter::default());
        self.serialize(&mut ser)
            .expect("a record always serializes");
        String::from_utf8(out).expect("JSON is UTF-8")
    }

    /// Compares the record's ruleset hash with a loaded ruleset's.
    pub fn check_hash(&self, ruleset: &Ruleset) -> HashCheck {
        let actual = hash_hex(ruleset.content_hash);
        match &self.ruleset.content_hash {
            None => HashCheck::Unrecorded,
            Some(h) if ruleset.same_rules(h) => HashCheck::Same,
            Some(h) => HashCheck::Differs {
                recorded: h.clone(),
                actual,
            },
        }
    }

    /// Appends an action taken by `seat`.
    pub fn push(&mut self, seat: Seat, action: Action, ruleset: &Ruleset) {
        self.actions.push(Step {
            seat: Some(seat),
            action: StepAction::from_action(action, ruleset),
        });
    }

    /// Takes back every action after the first `at`, keeping them in [`Record::undone`].
    pub fn undo_to(&mut self, at: usize) {
        if at < self.actions.len() {
            let actions = self.actions.split_off(at);
            self.undone.push(Undone { at, actions });
        }
    }

    /// Copies the deals and the first dealer from a game played (or replayed) so far.
    pub fn sync(&mut self, game: &dyn Game) {
        let deck = &game.ruleset().deck;
        self.deals = game
            .dealt_orders()
            .iter()
            .map(|o| o.iter().map(|&c| deck.id_of(c).to_string()).collect())
            .collect();
        self.first_dealer = game.first_dealer();
        self.finished = game.is_over();
    }

    /// The recorded deals as card ids of `deck`.
    fn deck_orders(&self, deck: &Deck) -> Result<Vec<Vec<CardId>>, RecordError> {
        self.deals
            .iter()
            .enumerate()
            .map(|(i, deal)| {
                let bad = |reason: String| err(RecordErrorKind::BadDeal { deal: i, reason });
                // A deal is the deck in some order, or a shoe of `packs` copies of it (a banker
                // game's shoe), every card as many times as there are packs.
                let n = deck.cards.len();
                let packs = deal.len() / n.max(1);
                if n == 0 || deal.len() % n != 0 || !(1..=MOST_PACKS).contains(&packs) {
                    return Err(bad(format!("{} cards for a deck of {n}", deal.len())));
                }
                let mut seen = vec![0usize; n];
                deal.iter()
                    .map(|id| {
                        let c = deck
                            .card_by_id(id)
                            .ok_or_else(|| bad(format!("unknown card `{id}`")))?;
                        seen[c.index()] += 1;
                        if seen[c.index()] > packs {
                            return Err(bad(if packs == 1 {
                                format!("`{id}` appears twice")
                            } else {
                                format!("`{id}` appears more than {packs} times in a shoe of {packs} packs")
                            }));
                        }
                        Ok(c)
                    })
                    .collect()
            })
            .collect()
    }

    /// The options that start the game as it stood before the first action: recorded deals,
    /// seed, seats, rounds, dealer and table limits, every field checked against the ruleset
    /// and the seat counts its family allows (the family registry starts the game from them).
    pub fn start_options(
        &self,
        ruleset: &Ruleset,
        seats_allowed: std::ops::RangeInclusive<usize>,
        log_events: bool,
    ) -> Result<StartOptions, RecordError> {
        if self.ruleset.id != ruleset.id {
            return Err(err(RecordErrorKind::OtherRuleset {
                recorded: self.ruleset.id.clone(),
                loaded: ruleset.id.clone(),
            }));
        }
        let (min, max) = (*seats_allowed.start(), *seats_allowed.end());
        let seats = self.players.len();
        if !(min..=max).contains(&seats) {
            return Err(err(RecordErrorKind::BadField {
                field: "players",
                reason: format!("{seats} players, but `{}` seats {min} to {max}", ruleset.id),
            }));
        }
        if let Some(d) = self.first_dealer.filter(|&d| d >= seats) {
            return Err(err(RecordErrorKind::BadField {
                field: "first_dealer",
                reason: format!("seat {d} at a table of {seats}"),
            }));
        }
        if let Some(r) = self.rounds.filter(|r| !(1..=1000).contains(r)) {
            return Err(err(RecordErrorKind::BadField {
                field: "rounds",
                reason: format!("{r} hands; a game has 1 to 1000"),
            }));
        }
        let deck_orders = self.deck_orders(&ruleset.deck)?;
        Ok(StartOptions {
            seed: self.seed.unwrap_or(0),
            seats: Some(seats),
            rounds: self.rounds,
            deck_orders,
            log_events,
            simulation: false,
            first_dealer: self.first_dealer,
            bet_limits: (self.min_bet, self.max_bet),
            first_hand: 0,
            carried: None,
        })
    }

    /// Applies recorded action `index` to `game`.
    pub fn apply(&self, game: &mut dyn Game, index: usize) -> Result<Action, RecordError> {
        let step = &self.actions[index];
        let action = step.action.to_action(game.ruleset()).map_err(|u| {
            err(match u {
                Unknown::Card(card) => RecordErrorKind::UnknownCard { index, card },
                Unknown::Declaration(id) => RecordErrorKind::UnknownDeclaration { index, id },
            })
        })?;
        let to_act = game.to_act();
        if let Some(recorded) = step.seat
            && Some(recorded) != to_act
        {
            return Err(err(RecordErrorKind::WrongSeat {
                index,
                recorded,
                to_act,
            }));
        }
        game.apply(action).map_err(|e| {
            err(RecordErrorKind::Illegal {
                index,
                reason: e.reason,
            })
        })?;
        if let Some(e) = game.error() {
            return Err(err(RecordErrorKind::Script {
                message: e.to_string(),
            }));
        }
        Ok(action)
    }
}

impl RecordError {
    /// An error of this kind.
    pub fn new(kind: RecordErrorKind) -> RecordError {
        err(kind)
    }
}

/// A JSON formatter that indents the first two levels (the record's fields and the items of its
/// lists) and writes anything deeper on one line: `["pine-crane", "maple-deer"]`,
/// `{"seat": 1, "action": "play", "card": "maple-1"}`.
#[derive(Default)]
struct LineFormatter {
    depth: usize,
    /// The current container holds a value (a newline and indent close it at the top levels).
    has_value: bool,
}

impl LineFormatter {
    /// Containers this deep or deeper are written on one line.
    const FLAT: usize = 3;

    fn indent<W: ?Sized + std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        for _ in 0..self.depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }
}

impl serde_json::ser::Formatter for LineFormatter {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.depth -= 1;
        if self.depth + 1 < Self::FLAT && self.has_value {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        self.has_value = true;
        w.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if self.depth < Self::FLAT {
            w.write_all(if first { b"\n" } else { b",\n" })?;
            self.indent(w)
        } else if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.depth -= 1;
        if self.depth + 1 < Self::FLAT && self.has_value {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        self.has_value = true;
        w.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.begin_array_value(w, first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}
