//! The game families, and the one registry that knows them: each family is a module that
//! implements [`crate::core::Game`] for one kind of game, configured entirely by its rulesets,
//! and one [`Family`] entry in [`FAMILIES`]. Everything above (the command line, simulations,
//! records) reaches a family through its entry, never by its name.
//!
//! ```
//! let ruleset = yaku::ruleset::load("kolyesi").value.unwrap();
//! assert_eq!(yaku::families::of(&ruleset).name(), "banker");
//! let seats = yaku::families::seat_range(&ruleset);
//! assert!(seats.allows(seats.default));
//! ```

pub mod banker;
pub mod climbing;
pub mod matching;
pub mod position;
pub mod tricks;

use crate::agent::{AgentError, generic_agent};
use crate::core::record::{Record, RecordError, RecordErrorKind};
use crate::core::{Agent, Game, StartError, StartOptions};
use crate::ruleset::Ruleset;
use rand::rngs::Xoshiro256PlusPlus;
use std::sync::Arc;

/// The seat counts a ruleset allows, and the one it seats when no count is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatRange {
    /// The fewest seats.
    pub min: usize,
    /// The seats of a game started without a count.
    pub default: usize,
    /// The most seats.
    pub max: usize,
}

impl SeatRange {
    /// True when a table of `seats` may play.
    pub fn allows(&self, seats: usize) -> bool {
        self.as_range().contains(&seats)
    }

    /// `min..=max`.
    pub fn as_range(&self) -> std::ops::RangeInclusive<usize> {
        self.min..=self.max
    }
}

/// What the rest of yaku needs of a game family: its one registration.
pub trait Family: Sync {
    /// The family's name, as [`crate::ruleset::Flow::family`] gives it for its rulesets.
    fn name(&self) -> &'static str;
    /// What rule text calls the cards a seat has at a hand's end, after the card word
    /// (`cards captured`, `tiles in hand`, `cards won`).
    fn pile_word(&self) -> &'static str;
    /// The seat counts `ruleset` allows.
    fn seats(&self, ruleset: &Ruleset) -> SeatRange;
    /// The most hands a game of `ruleset` plays (deals prepared ahead by simulations).
    fn most_hands(&self, ruleset: &Ruleset) -> u32;
    /// Starts a game of `ruleset`.
    fn start(
        &self,
        ruleset: Arc<Ruleset>,
        options: StartOptions,
    ) -> Result<Box<dyn Game>, StartError>;
    /// Starts a game and plays it to its end with `agents`, one per seat: the play loop of
    /// [`crate::core::play_out`] compiled for the family's own type, so that simulations make
    /// no virtual call per move. `finished` reads the finished game where it was played.
    fn play_to_end(
        &self,
        ruleset: Arc<Ruleset>,
        options: StartOptions,
        agents: &mut [Box<dyn Agent>],
        rng: &mut Xoshiro256PlusPlus,
        finished: &mut dyn FnMut(&dyn Game),
    ) -> Result<(), StartError>;
    /// A bot of the family by name, beyond the generic ones (strategy tables of banker
    /// games). `Err` says why the name is not a bot here.
    fn bot(&self, name: &str, _ruleset: &Ruleset) -> Result<Box<dyn Agent>, String> {
        Err(format!("unknown bot `{name}`"))
    }
    /// The family's own bot names, for help texts.
    fn bot_names(&self, _ruleset: &Ruleset) -> Vec<&'static str> {
        Vec::new()
    }
    /// Whether bots that play from the family's analysis ([`Game::heuristic`], exact odds)
    /// can play `ruleset` in bounded time; `Err` says why not.
    fn check_bot_work(&self, _ruleset: &Ruleset) -> Result<(), String> {
        Ok(())
    }
    /// Does the analysis those bots play from ahead of play (once per ruleset; a no-op when
    /// they need none), calling `progress(done, total)` as it goes: a long computation then
    /// shows as progress before the first game, not as a first move that never comes.
    fn prepare_bot_work(&self, _ruleset: &Ruleset, _progress: &mut dyn FnMut(u64, u64)) {}
}

/// Plays a game of family type `G` to its end: the body of each family's
/// [`Family::play_to_end`].
pub(crate) fn run_to_end<G: Game>(
    mut game: G,
    agents: &mut [Box<dyn Agent>],
    rng: &mut Xoshiro256PlusPlus,
    finished: &mut dyn FnMut(&dyn Game),
) -> Result<(), StartError> {
    crate::core::play_out(&mut game, agents, rng).map_err(StartError::Script)?;
    finished(&game);
    Ok(())
}

/// Every family yaku plays: a new family is a module above and one line here.
pub static FAMILIES: [&dyn Family; 4] = [
    &matching::Matching,
    &banker::Banker,
    &tricks::Tricks,
    &climbing::Climbing,
];

/// The family that plays `ruleset`.
pub fn of(ruleset: &Ruleset) -> &'static dyn Family {
    let name = ruleset.flow.family();
    FAMILIES
        .iter()
        .copied()
        .find(|f| f.name() == name)
        .unwrap_or_else(|| unreachable!("flow family `{name}` is registered"))
}

/// Starts a game of the family `ruleset` describes.
pub fn start(ruleset: Arc<Ruleset>, options: StartOptions) -> Result<Box<dyn Game>, StartError> {
    of(&ruleset).start(ruleset, options)
}

/// Starts a game of the family `ruleset` describes and plays it to its end with `agents`
/// ([`Family::play_to_end`]); returns what `finished` reads of the finished game.
pub fn play_to_end<R>(
    ruleset: Arc<Ruleset>,
    options: StartOptions,
    agents: &mut [Box<dyn Agent>],
    rng: &mut Xoshiro256PlusPlus,
    finished: impl FnOnce(&dyn Game) -> R,
) -> Result<R, StartError> {
    let mut finished = Some(finished);
    let mut out = None;
    of(&ruleset).play_to_end(ruleset, options, agents, rng, &mut |g| {
        if let Some(f) = finished.take() {
            out = Some(f(g));
        }
    })?;
    Ok(out.expect("a game played to its end is read once"))
}

/// The seat counts `ruleset` allows.
pub fn seat_range(ruleset: &Ruleset) -> SeatRange {
    of(ruleset).seats(ruleset)
}

/// The family's own bot names, for help texts.
pub fn bot_names(ruleset: &Ruleset) -> Vec<&'static str> {
    of(ruleset).bot_names(ruleset)
}

/// A bot by name for a game of `ruleset`: a generic bot, or one of the ruleset's family. A bot
/// whose policy would first run for hours on this ruleset is refused, not started.
pub fn agent_by_name(name: &str, ruleset: &Ruleset) -> Result<Box<dyn Agent>, AgentError> {
    let family = of(ruleset);
    let agent = match generic_agent(name).map_err(AgentError::Unknown)? {
        Some(a) => a,
        None => family.bot(name, ruleset).map_err(|why| {
            // A misspelt bot name: the nearest of the names this game knows.
            let names = ["human", "random", "greedy", "expert"]
                .into_iter()
                .chain(family.bot_names(ruleset));
            match crate::diag::did_you_mean(name, names) {
                Some(hint) => AgentError::Unknown(format!("{why} ({hint})")),
                None => AgentError::Unknown(why),
            }
        })?,
    };
    if agent.uses_family_analysis() {
        family
            .check_bot_work(ruleset)
            .map_err(|why| AgentError::TooMuchWork(format!("bot `{name}` cannot play: {why}")))?;
    }
    Ok(agent)
}

/// Does the analysis the bots `players` play from ahead of play, when any of them plays from
/// the family's analysis ([`Family::prepare_bot_work`]); `progress(done, total)` as it goes.
pub fn prepare_bots(ruleset: &Ruleset, players: &[String], progress: &mut dyn FnMut(u64, u64)) {
    let analysed = players
        .iter()
        .any(|p| agent_by_name(p, ruleset).is_ok_and(|a| a.uses_family_analysis()));
    if analysed {
        of(ruleset).prepare_bot_work(ruleset, progress);
    }
}

/// The game a record starts from: its deals, seed, seats, rounds, dealer and table limits,
/// every field checked against the ruleset ([`Record::start_options`]).
pub fn start_record(
    record: &Record,
    ruleset: Arc<Ruleset>,
    log_events: bool,
) -> Result<Box<dyn Game>, RecordError> {
    let options = record.start_options(&ruleset, seat_range(&ruleset).as_range(), log_events)?;
    start(ruleset, options).map_err(|e| match e {
        StartError::Options { message } => RecordError::new(RecordErrorKind::BadField {
            field: "players",
            reason: message,
        }),
        StartError::Script(e) => RecordError::new(RecordErrorKind::Script {
            message: e.to_string(),
        }),
    })
}

/// Every event of the game `record` holds, the automatic steps included, each after the
/// action it followed ([`Record::events`]): the record replayed from its deals with the
/// table's events logged.
pub fn record_events(
    record: &Record,
    ruleset: Arc<Ruleset>,
) -> Result<Vec<crate::core::record::RecordedEvent>, RecordError> {
    let mut game = start_record(record, ruleset, true)?;
    let mut log = EventLog::default();
    let drained = game.drain_events();
    log.tell(&*game, &drained, 0);
    for i in 0..record.actions.len() {
        record.apply(game.as_mut(), i)?;
        let drained = game.drain_events();
        log.tell(&*game, &drained, i + 1);
    }
    Ok(log.events)
}

/// A record's events ([`Record::events`]) as a game is played: each step's events as the
/// table drains them, then where cards went (after a deal every zone, `dealt`; otherwise the
/// zones the step changed, `moved`), so that a reader follows every card without knowing the
/// family's deal or draws. A game being played keeps one and tells it what it drains, rather
/// than replaying the whole record at every write.
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    events: Vec<crate::core::record::RecordedEvent>,
    /// Every zone after the last step told.
    zones: Vec<(String, crate::deck::CardSet)>,
}

impl EventLog {
    /// The events so far.
    pub fn events(&self) -> &[crate::core::record::RecordedEvent] {
        &self.events
    }

    /// A log that goes on from `events` (a resumed game's, from [`record_events`]) with `game`
    /// as it stands now.
    pub fn resumed(events: Vec<crate::core::record::RecordedEvent>, game: &dyn Game) -> EventLog {
        EventLog {
            events,
            zones: game.zones(),
        }
    }

    /// Tells the log the events `drained` from `game` after its first `after` actions.
    pub fn tell(&mut self, game: &dyn Game, drained: &[crate::core::Event], after: usize) {
        use crate::core::record::RecordedEvent;
        use crate::deck::CardSet;
        let ruleset = game.ruleset();
        let deck = &ruleset.deck;
        let ids = |cards: CardSet| serde_json::Value::from(deck.ids(cards));
        self.events.extend(
            drained
                .iter()
                .map(|e| RecordedEvent::new(after, e, ruleset)),
        );
        let now = game.zones();
        // The start is told whole, in families whose deals are events and in the others.
        let dealt = (after == 0 && self.zones.is_empty())
            || drained
                .iter()
                .any(|e| matches!(e, crate::core::Event::Deal { .. }));
        let zones = &self.zones;
        let changed: Vec<serde_json::Value> = now
            .iter()
            .filter_map(|(name, cards)| {
                if dealt {
                    return Some(serde_json::json!({"name": name, "cards": ids(*cards)}));
                }
                let before = zones
                    .iter()
                    .find(|(n, _)| n == name)
                    .map_or(CardSet::EMPTY, |(_, c)| *c);
                (before != *cards).then(|| {
                    serde_json::json!({
                        "name": name,
                        "added": ids(*cards - before),
                        "removed": ids(before - *cards),
                    })
                })
            })
            .chain(
                // A zone that is gone (a trick taken) is emptied.
                zones
                    .iter()
                    .filter(|(name, cards)| {
                        !dealt && !cards.is_empty() && now.iter().all(|(n, _)| n != name)
                    })
                    .map(|(name, cards)| {
                        serde_json::json!({"name": name, "added": [], "removed": ids(*cards)})
                    }),
            )
            .collect();
        if !changed.is_empty() {
            let mut event = serde_json::Map::new();
            let kind = if dealt { "dealt" } else { "moved" };
            event.insert("event".to_string(), kind.into());
            event.insert("zones".to_string(), changed.into());
            self.events.push(RecordedEvent { after, event });
        }
        self.zones = now;
    }

    /// Goes back to `game`, the game after its first `actions` actions (a move taken back):
    /// the events after them are let go of.
    pub fn take_back(&mut self, game: &dyn Game, actions: usize) {
        self.events.retain(|e| e.after <= actions);
        self.zones = game.zones();
    }
}

/// The game after every recorded action: [`start_record`], then each action applied.
pub fn replay(record: &Record, ruleset: Arc<Ruleset>) -> Result<Box<dyn Game>, RecordError> {
    let mut game = start_record(record, ruleset, false)?;
    for i in 0..record.actions.len() {
        record.apply(game.as_mut(), i)?;
    }
    Ok(game)
}

#[cfg(test)]
pub(crate) mod every_family_tests;
#[cfg(test)]
mod position_tests;
#[cfg(test)]
mod tests;
