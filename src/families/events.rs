//! A record's events ([`Record::events`]): the game its actions play, followed step by step with
//! the table's events logged, and where every card went. Kept by a writer that writes a record
//! again and again as a game goes on, so each write follows only the actions since the last.

use super::start_record;
use crate::core::Game;
use crate::core::record::{Record, RecordError, RecordedEvent};
use crate::deck::CardSet;
use crate::ruleset::Ruleset;
use std::sync::Arc;

/// The events of a record's game so far, and the game that gave them.
pub struct EventLog {
    ruleset: Arc<Ruleset>,
    game: Box<dyn Game>,
    /// The record's actions followed.
    followed: usize,
    /// Every zone after the last step followed.
    zones: Vec<(String, CardSet)>,
    events: Vec<RecordedEvent>,
}

impl EventLog {
    /// The log of `record`'s game before its first action: the start told whole.
    pub fn start(record: &Record, ruleset: Arc<Ruleset>) -> Result<EventLog, RecordError> {
        let game = start_record(record, Arc::clone(&ruleset), true)?;
        let mut log = EventLog {
            ruleset,
            game,
            followed: 0,
            zones: Vec::new(),
            events: Vec::new(),
        };
        log.tell(0);
        Ok(log)
    }

    /// Follows the actions of `record` not yet followed (`record` being the one the log started
    /// from, grown since); the events so far.
    pub fn follow(&mut self, record: &Record) -> Result<&mut Vec<RecordedEvent>, RecordError> {
        for i in self.followed..record.actions.len() {
            record.apply(self.game.as_mut(), i)?;
            self.followed = i + 1;
            self.tell(i + 1);
        }
        Ok(&mut self.events)
    }

    /// The step that made `after` actions: its events, then where cards went. After a deal
    /// every zone (`dealt`), otherwise the zones the step changed (`moved`), so that a reader
    /// follows every card without knowing the family's deal or draws.
    fn tell(&mut self, after: usize) {
        let ruleset = &self.ruleset;
        let deck = &ruleset.deck;
        let ids = |cards: CardSet| serde_json::Value::from(deck.ids(cards));
        let drained = self.game.drain_events();
        self.events.extend(
            drained
                .iter()
                .map(|e| RecordedEvent::new(after, e, ruleset)),
        );
        let now = self.game.zones();
        // The start is told whole, in families whose deals are events and in the others.
        let dealt = after == 0
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
}

/// Every event of the game `record` holds, the automatic steps included, each after the
/// action it followed ([`Record::events`]): the record replayed from its deals with the
/// table's events logged.
pub fn record_events(
    record: &Record,
    ruleset: Arc<Ruleset>,
) -> Result<Vec<RecordedEvent>, RecordError> {
    let mut log = EventLog::start(record, ruleset)?;
    Ok(std::mem::take(log.follow(record)?))
}
