//! What a person's seat is told in a room: the table laid out, the move log, the moves in
//! words, for every bundled ruleset, and never a card the seat may not see.

use super::rooms::{Rooms, Viewer};
use crate::core::protocol::cards_named;
use crate::deck::CardSet;
use std::sync::Arc;

/// Every bundled ruleset with its default seats.
fn bundled() -> Vec<Arc<crate::ruleset::Ruleset>> {
    crate::ruleset::bundled::ruleset_names()
        .filter(|n| !n.contains('/'))
        .map(|n| Arc::new(crate::ruleset::load(n).value.unwrap()))
        .collect()
}

/// A room's whole game with a person in seat 0 (answering with the first legal move) and
/// greedy bots: every `state` the person is sent, with the cards hidden from it then.
fn states_of(r: &Arc<crate::ruleset::Ruleset>) -> Vec<(serde_json::Value, CardSet, String)> {
    let seats = crate::families::seat_range(r).default;
    let mut players = vec!["human".to_string()];
    players.extend((1..seats).map(|_| "greedy".to_string()));
    let rooms = Rooms::default();
    let created = rooms.create(Arc::clone(r), &players, Some(1)).unwrap();
    let room = rooms.get(&created.room).unwrap();
    let mut room = room.blocking_lock();
    let mut out = Vec::new();
    for _ in 0..2_000 {
        let text = room.state(Viewer::Seat(0));
        let state: serde_json::Value = serde_json::from_str(&text).unwrap();
        out.push((state.clone(), room.game().unseen(0), text));
        if state["over"] == true || state["legal"].as_array().is_none_or(Vec::is_empty) {
            break;
        }
        room.answer(Viewer::Seat(0), r#"{"choose": 0}"#).unwrap();
    }
    out
}

#[test]
fn a_person_is_shown_the_table_the_log_and_the_moves_in_words() {
    for r in bundled() {
        let states = states_of(&r);
        let (last, _, _) = states.last().unwrap();
        assert_eq!(last["over"], true, "{}: the game ends", r.id);
        for (state, _, _) in &states {
            let table = &state["table"];
            assert!(
                table["panels"].as_array().is_some_and(|p| !p.is_empty()),
                "{}",
                r.id
            );
            assert_eq!(
                table["panels"][0]["seat"], 0,
                "{}: the viewer's panel first",
                r.id
            );
            let legal = state["legal"].as_array().unwrap().len();
            assert_eq!(
                state["described"].as_array().map_or(0, Vec::len),
                legal,
                "{}",
                r.id
            );
            assert_eq!(
                state["reaches"].as_array().map_or(0, Vec::len),
                legal,
                "{}",
                r.id
            );
        }
        assert!(
            last["log"].as_array().is_some_and(|l| !l.is_empty()),
            "{}: a move log",
            r.id
        );
        assert!(
            last["history"].as_array().is_some_and(|h| h.len() == 1),
            "{}: the hand's points: {}",
            r.id,
            last["history"]
        );
    }
}

/// Cards are named by id in the table, the zones, the moves and what they reach: none of them
/// is a card the seat may not see (the stock, another seat's hand), at any moment of a whole
/// game of every bundled ruleset.
#[test]
fn a_person_is_told_no_hidden_card() {
    for r in bundled() {
        for (state, unseen, text) in states_of(&r) {
            if state["over"] == true {
                continue;
            }
            let named = cards_named(&text, &r.deck);
            // A trick game's trumps are named by a card of each suit: one the seat holds, or
            // for a suit it holds none of, the suit's first card, which then stands for the
            // suit and tells nothing of where the card is.
            let for_a_suit: CardSet = state["legal"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|m| m["action"] == "declare")
                .filter_map(|m| m["card"].as_str())
                .filter_map(|id| r.deck.card_by_id(id))
                .filter(|&c| {
                    let suit = r.deck.suit_of(c);
                    suit.cards.first_card() == Some(c) && (suit.cards - unseen).is_empty()
                })
                .collect();
            let leaked = (named - for_a_suit) & unseen;
            assert!(
                leaked.is_empty(),
                "{}: the seat is told {:?}, which it may not see",
                r.id,
                r.deck.ids(leaked)
            );
        }
    }
}

/// A connection is sent each line of the move log once: the states since a first full one,
/// appended as their `log_from` says, hold the same log as a full state at the end (the last
/// `MAX_LOG` lines).
#[test]
fn a_connection_is_sent_each_line_of_the_log_once() {
    let r = Arc::new(crate::ruleset::load("koikoi").value.unwrap());
    let rooms = Rooms::default();
    let players = ["human".to_string(), "greedy".to_string()];
    let created = rooms.create(Arc::clone(&r), &players, Some(12)).unwrap();
    let room = rooms.get(&created.room).unwrap();
    let mut room = room.blocking_lock();
    let (mut held, mut said) = (Vec::<String>::new(), 0);
    let mut sent = 0;
    for _ in 0..2_000 {
        let (text, now) = room.state_since(Viewer::Seat(0), said);
        let state: serde_json::Value = serde_json::from_str(&text).unwrap();
        let log: Vec<String> = serde_json::from_value(state["log"].clone()).unwrap_or_default();
        assert_eq!(
            state["log_from"].as_u64(),
            Some(said.max(now - now.min(200)))
        );
        sent += log.len();
        held.extend(log);
        said = now;
        if state["over"] == true || state["legal"].as_array().is_none_or(Vec::is_empty) {
            break;
        }
        room.answer(Viewer::Seat(0), r#"{"choose": 0}"#).unwrap();
    }
    let whole: serde_json::Value = serde_json::from_str(&room.state(Viewer::Seat(0))).unwrap();
    let whole: Vec<String> = serde_json::from_value(whole["log"].clone()).unwrap();
    assert_eq!(sent as u64, said, "each line once");
    assert!(said > 200, "a game longer than the log kept: {said} lines");
    assert_eq!(held[held.len() - whole.len()..], whole[..]);
}

/// Where a seat may stop with a yaku or play on, the move offered first is to stop: the page
/// lists it first and gives it the focus, so that a stray Enter takes no risk; the state says
/// what stopping takes and what the other seat is close to, and only at such a decision.
#[test]
fn a_decision_to_stop_or_play_on_offers_stopping_first() {
    let r = Arc::new(crate::ruleset::load("koikoi").value.unwrap());
    let rooms = Rooms::default();
    let players = ["human".to_string(), "greedy".to_string()];
    let created = rooms.create(Arc::clone(&r), &players, Some(12)).unwrap();
    let room = rooms.get(&created.room).unwrap();
    let mut room = room.blocking_lock();
    let mut states = Vec::new();
    for _ in 0..2_000 {
        let state: serde_json::Value = serde_json::from_str(&room.state(Viewer::Seat(0))).unwrap();
        let over = state["over"] == true || state["legal"].as_array().is_none_or(Vec::is_empty);
        states.push(state);
        if over {
            break;
        }
        // Play on where offered (the last move), so that decisions come again.
        let last = states.last().unwrap()["legal"].as_array().unwrap().len() - 1;
        let choice = format!(r#"{{"choose": {last}}}"#);
        room.answer(Viewer::Seat(0), &choice).unwrap();
    }
    let mut decisions = 0;
    for state in states {
        let legal = state["legal"].as_array().unwrap();
        if legal.is_empty() {
            assert!(state["default"].is_null(), "{state}");
            continue;
        }
        let default = state["default"].as_u64().expect("a default move") as usize;
        let stop = legal
            .iter()
            .position(|m| m["action"] == "declare" && m["id"] == "stop");
        if let Some(stop) = stop {
            decisions += 1;
            assert_eq!(default, stop, "{}", state["described"]);
            let stakes = state["stakes"].as_str().unwrap_or_default();
            assert!(stakes.starts_with("stopping takes "), "{state}");
            assert!(stakes.contains(" point"), "{stakes}");
        } else {
            assert!(state["stakes"].is_null(), "{state}");
        }
    }
    assert!(decisions > 0, "the game offers a stop-or-play-on decision");
}
