//! Game records: the JSON file `yaku play --record` and saved games write, and `yaku replay`
//! and `yaku play --resume` read (format: `docs/records.md`).
//!
//! A record names its ruleset (id, how to load it, and its content hash), the seed, the players,
//! every deal's deck order and every action, with cards as their ids. Replaying deals from the
//! recorded orders, so a record written by another program needs no seed. Nothing here prints.

use crate::deck::{CardId, Deck};
use crate::engine::{Action, Game, GameOptions};
use crate::ruleset::Ruleset;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The `format` field of every record.
pub const FORMAT: &str = "yaku-record";
/// The version this program writes and reads.
pub const VERSION: u32 = 1;

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
    /// The first hand's dealer (0 or 1); absent: the ruleset's rule with the seed decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_dealer: Option<usize>,
    /// The deck order of every deal (redeals included), card ids, first dealt first.
    pub deals: Vec<Vec<String>>,
    /// Every action, in order.
    pub actions: Vec<Step>,
    /// True when the game was played to its end.
    #[serde(default)]
    pub finished: bool,
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

/// A recorded action, with cards as ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum StepAction {
    /// Play a hand card.
    Play {
        /// The card's id.
        card: String,
    },
    /// Capture this table card (when the card played or drawn matches two).
    Capture {
        /// The table card's id.
        card: String,
    },
    /// Call koi-koi.
    KoiKoi,
    /// Stop and score.
    Stop,
    /// The non-dealer takes the dealer's hand, or keeps its own.
    SwapHands {
        /// True to take it.
        swap: bool,
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
                "unsupported record format `{found}` (this program reads `{FORMAT}` version {VERSION})"
            ),
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
    pub fn from_action(action: Action, deck: &Deck) -> StepAction {
        match action {
            Action::Play { card } => StepAction::Play {
                card: deck.id_of(card).to_string(),
            },
            Action::Capture { card } => StepAction::Capture {
                card: deck.id_of(card).to_string(),
            },
            Action::KoiKoi => StepAction::KoiKoi,
            Action::Stop => StepAction::Stop,
            Action::SwapHands { swap } => StepAction::SwapHands { swap },
        }
    }

    /// The action this step names; `Err` holds an unknown card id.
    pub fn to_action(&self, deck: &Deck) -> Result<Action, String> {
        let card = |id: &str| deck.card_by_id(id).ok_or_else(|| id.to_string());
        Ok(match self {
            StepAction::Play { card: id } => Action::Play { card: card(id)? },
            StepAction::Capture { card: id } => Action::Capture { card: card(id)? },
            StepAction::KoiKoi => Action::KoiKoi,
            StepAction::Stop => Action::Stop,
            StepAction::SwapHands { swap } => Action::SwapHands { swap: *swap },
        })
    }
}

impl Record {
    /// An empty record of a game about to be played.
    pub fn new(
        ruleset: &Ruleset,
        spec: &str,
        seed: Option<u64>,
        players: &[String; 2],
        rounds: Option<u32>,
    ) -> Record {
        Record {
            format: FORMAT.to_string(),
            version: VERSION,
            ruleset: RulesetRef {
                id: ruleset.id.clone(),
                spec: spec.to_string(),
                content_hash: Some(hash_hex(ruleset.content_hash)),
            },
            seed,
            players: players.to_vec(),
            rounds,
            first_dealer: None,
            deals: Vec::new(),
            actions: Vec::new(),
            finished: false,
        }
    }

    /// Reads a record from JSON text.
    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            err(RecordErrorKind::Syntax {
                message: e.to_string(),
            })
        })?;
        let format = value.get("format").and_then(|f| f.as_str());
        let version = value.get("version").and_then(|v| v.as_u64());
        if format != Some(FORMAT) || version != Some(u64::from(VERSION)) {
            return Err(err(RecordErrorKind::Format {
                found: format!(
                    "{} version {}",
                    format.unwrap_or("(none)"),
                    version.map_or_else(|| "(none)".to_string(), |v| v.to_string())
                ),
            }));
        }
        serde_json::from_value(value).map_err(|e| {
            err(RecordErrorKind::Syntax {
                message: e.to_string(),
            })
        })
    }

    /// The record as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record always serializes")
    }

    /// Compares the record's ruleset hash with a loaded ruleset's.
    pub fn check_hash(&self, ruleset: &Ruleset) -> HashCheck {
        let actual = hash_hex(ruleset.content_hash);
        match &self.ruleset.content_hash {
            None => HashCheck::Unrecorded,
            Some(h) if h.eq_ignore_ascii_case(&actual) => HashCheck::Same,
            Some(h) => HashCheck::Differs {
                recorded: h.clone(),
                actual,
            },
        }
    }

    /// Appends an action taken by `seat`.
    pub fn push(&mut self, seat: usize, action: Action, deck: &Deck) {
        self.actions.push(Step {
            seat: Some(seat),
            action: StepAction::from_action(action, deck),
        });
    }

    /// Copies the deals and the first dealer from a game played (or replayed) so far.
    pub fn sync(&mut self, game: &Game) {
        let deck = &game.ruleset().deck;
        self.deals = game
            .dealt_orders
            .iter()
            .map(|o| o.iter().map(|&c| deck.id_of(c).to_string()).collect())
            .collect();
        self.first_dealer = Some(game.history().first().map_or(game.dealer(), |h| h.dealer));
        self.finished = game.is_over();
    }

    /// The recorded deals as card ids of `deck`.
    fn deck_orders(&self, deck: &Deck) -> Result<Vec<Vec<CardId>>, RecordError> {
        self.deals
            .iter()
            .enumerate()
            .map(|(i, deal)| {
                let bad = |reason: String| err(RecordErrorKind::BadDeal { deal: i, reason });
                if deal.len() != deck.cards.len() {
                    return Err(bad(format!(
                        "{} cards for a deck of {}",
                        deal.len(),
                        deck.cards.len()
                    )));
                }
                let mut seen = crate::deck::CardSet::EMPTY;
                deal.iter()
                    .map(|id| {
                        let c = deck
                            .card_by_id(id)
                            .ok_or_else(|| bad(format!("unknown card `{id}`")))?;
                        if seen.contains(c) {
                            return Err(bad(format!("`{id}` appears twice")));
                        }
                        seen.insert(c);
                        Ok(c)
                    })
                    .collect()
            })
            .collect()
    }

    /// The game as it stood before the first action: recorded deals, seed, rounds and dealer.
    pub fn start(&self, ruleset: Arc<Ruleset>, log_events: bool) -> Result<Game, RecordError> {
        let deck_orders = self.deck_orders(&ruleset.deck)?;
        Game::new(
            ruleset,
            GameOptions {
                seed: self.seed.unwrap_or(0),
                rounds: self.rounds,
                deck_orders,
                log_events,
                simulation: false,
                first_dealer: self.first_dealer,
            },
        )
        .map_err(|e| {
            err(RecordErrorKind::Script {
                message: e.to_string(),
            })
        })
    }

    /// Applies recorded action `index` to `game`.
    pub fn apply(&self, game: &mut Game, index: usize) -> Result<Action, RecordError> {
        let step = &self.actions[index];
        let action = step
            .action
            .to_action(&game.ruleset().deck)
            .map_err(|card| err(RecordErrorKind::UnknownCard { index, card }))?;
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
        if let Some(e) = game.script_error() {
            return Err(err(RecordErrorKind::Script {
                message: e.to_string(),
            }));
        }
        Ok(action)
    }

    /// Replays every action; the game as the record leaves it.
    pub fn replay(&self, ruleset: Arc<Ruleset>) -> Result<Game, RecordError> {
        let mut game = self.start(ruleset, false)?;
        for i in 0..self.actions.len() {
            self.apply(&mut game, i)?;
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::{Agent, GreedyAgent, RandomAgent, agent_rng};
    use crate::ruleset;

    fn played(name: &str, seed: u64) -> (Arc<Ruleset>, Record, Game) {
        let r = Arc::new(ruleset::load(name).value.unwrap());
        let players = ["greedy".to_string(), "random".to_string()];
        let mut record = Record::new(&r, name, Some(seed), &players, None);
        let mut game = Game::new(
            Arc::clone(&r),
            GameOptions {
                seed,
                ..GameOptions::default()
            },
        )
        .unwrap();
        let mut agents: [Box<dyn Agent>; 2] = [Box::new(GreedyAgent), Box::new(RandomAgent)];
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        while let Some(seat) = game.to_act() {
            game.legal_actions(&mut legal);
            let a = agents[seat].choose(&game.view(seat), &legal, &mut rng);
            record.push(seat, a, &r.deck);
            game.apply(a).unwrap();
        }
        record.sync(&game);
        (r, record, game)
    }

    #[test]
    fn a_record_replays_to_the_same_outcomes_through_json() {
        for name in ["koikoi", "koikoi-classic", "koikoi-ktane"] {
            let (r, record, game) = played(name, 11);
            let back = Record::from_json(&record.to_json()).unwrap();
            assert_eq!(back, record);
            assert!(back.finished);
            let replayed = back.replay(Arc::clone(&r)).unwrap();
            assert_eq!(replayed.history(), game.history());
            assert_eq!(replayed.scores(), game.scores());
            // Without the seed, the recorded deals and first dealer are enough.
            let mut seedless = back.clone();
            seedless.seed = None;
            let replayed = seedless.replay(r).unwrap();
            assert_eq!(replayed.history(), game.history());
        }
    }

    #[test]
    fn errors_name_the_action_and_the_reason() {
        let (r, mut record, _) = played("koikoi", 3);
        record.actions[5].action = StepAction::Play {
            card: "no-such-card".into(),
        };
        let e = record.replay(Arc::clone(&r)).unwrap_err();
        assert_eq!(e.to_string(), "action 5: unknown card `no-such-card`");
        record.actions[5].action = StepAction::KoiKoi;
        let e = record.replay(Arc::clone(&r)).unwrap_err();
        assert!(
            matches!(e.kind, RecordErrorKind::Illegal { index: 5, .. }),
            "{e}"
        );
        let mut bad = record.clone();
        bad.deals[0].pop();
        let e = bad.replay(r).unwrap_err();
        assert!(matches!(e.kind, RecordErrorKind::BadDeal { deal: 0, .. }));
        assert!(matches!(
            Record::from_json("{\"format\":\"other\"}")
                .unwrap_err()
                .kind,
            RecordErrorKind::Format { .. }
        ));
    }

    #[test]
    fn hash_check() {
        let (r, mut record, _) = played("koikoi", 1);
        assert_eq!(record.check_hash(&r), HashCheck::Same);
        record.ruleset.content_hash = Some("0000000000000000".into());
        assert!(matches!(record.check_hash(&r), HashCheck::Differs { .. }));
        record.ruleset.content_hash = None;
        assert_eq!(record.check_hash(&r), HashCheck::Unrecorded);
    }
}
