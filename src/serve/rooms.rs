//! Rooms: one game each, its seats held by people (each with an unguessable token) or bots.
//! The room is the authority: it checks every move, plays the bots, and tells each seat only
//! what that seat may see ([`protocol::state`]).

use crate::agent::Agent;
use crate::core::protocol;
use crate::core::{Game, Seat, StartOptions, agent_rng};
use crate::families::{agent_by_name, seat_range, start};
use crate::ruleset::Ruleset;
use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// The most rooms a server holds at once.
pub const MAX_ROOMS: usize = 1_000;
/// The most hands a room's game may be asked to play.
pub const MAX_HANDS: u32 = 100;

/// Who holds a seat.
enum Holder {
    /// A person, who connects with this token.
    Person { token: String },
    /// A bot.
    Bot(Box<dyn Agent>),
}

/// One game and its seats.
pub struct Room {
    game: Box<dyn Game>,
    holders: Vec<Holder>,
    rng: Xoshiro256PlusPlus,
    /// Bumped after every move; each connection waits on it to send its seat the new state.
    changed: watch::Sender<u64>,
}

/// What a new room answers: its code, and each person's seat and token.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Created {
    /// The room's code (128 random bits, hex).
    pub room: String,
    /// Each seat held by a person: `(seat, token)`, the first for the creator.
    pub people: Vec<(Seat, String)>,
}

/// A fresh 128-bit value from the system's randomness, as 32 hex digits.
fn secret() -> String {
    format!("{:032x}", rand::rng().random::<u128>())
}

impl Room {
    fn start(
        ruleset: Arc<Ruleset>,
        players: &[String],
        hands: Option<u32>,
    ) -> Result<(Room, Vec<(Seat, String)>), String> {
        let range = seat_range(&ruleset);
        if !range.allows(players.len()) {
            return Err(format!(
                "`{}` seats {} to {} players; {} were given",
                ruleset.id,
                range.min,
                range.max,
                players.len()
            ));
        }
        if let Some(h) = hands
            && !(1..=MAX_HANDS).contains(&h)
        {
            return Err(format!(
                "a room plays 1 to {MAX_HANDS} hands; {h} were asked"
            ));
        }
        let mut holders = Vec::with_capacity(players.len());
        let mut people = Vec::new();
        for (seat, name) in players.iter().enumerate() {
            if name == "human" {
                let token = secret();
                people.push((seat, token.clone()));
                holders.push(Holder::Person { token });
            } else {
                holders.push(Holder::Bot(
                    agent_by_name(name, &ruleset).map_err(|e| e.to_string())?,
                ));
            }
        }
        let seed = rand::rng().random::<u64>();
        let game = start(
            Arc::clone(&ruleset),
            StartOptions {
                seed,
                seats: Some(players.len()),
                rounds: hands,
                ..StartOptions::default()
            },
        )
        .map_err(|e| e.to_string())?;
        let mut room = Room {
            game,
            holders,
            rng: agent_rng(seed),
            changed: watch::channel(0).0,
        };
        room.play_bots();
        Ok((room, people))
    }

    /// Bots move until a person must act or the game is over.
    fn play_bots(&mut self) {
        let mut legal = Vec::new();
        while let Some(seat) = self.game.to_act() {
            let Some(Holder::Bot(bot)) = self.holders.get_mut(seat) else {
                break;
            };
            self.game.legal_actions(&mut legal);
            let action = bot.choose(&*self.game, seat, &legal, &mut self.rng);
            if let Some(notice) = bot.notice() {
                eprintln!("room: {notice}");
            }
            if self.game.apply(action).is_err() {
                break;
            }
        }
        if self.game.is_over() {
            // A finished game's programs are stopped (dropping their agents ends them).
            for holder in &mut self.holders {
                if matches!(holder, Holder::Bot(b) if b.name().starts_with("cmd:")) {
                    *holder = Holder::Bot(Box::new(crate::agent::GreedyAgent));
                }
            }
        }
        self.changed.send_modify(|v| *v += 1);
    }

    /// True once the room's game is over.
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The seat `token` holds.
    pub fn seat_of(&self, token: &str) -> Option<Seat> {
        self.holders
            .iter()
            .position(|h| matches!(h, Holder::Person { token: t } if t == token))
    }

    /// The first message of a connection: the game, the seat, the deck.
    pub fn hello(&self, seat: Seat) -> String {
        let hello = protocol::hello(self.game.ruleset(), seat, self.game.seats());
        serde_json::to_string(&hello).unwrap_or_default()
    }

    /// The game as `seat` sees it now.
    pub fn state(&self, seat: Seat) -> String {
        serde_json::to_string(&protocol::state(&*self.game, seat)).unwrap_or_default()
    }

    /// A person's answer: the move is checked and made, and the bots move after it.
    pub fn answer(&mut self, seat: Seat, text: &str) -> Result<(), String> {
        if self.game.to_act() != Some(seat) {
            return Err(if self.game.is_over() {
                "the game is over".to_string()
            } else {
                "it is not your turn".to_string()
            });
        }
        let mut legal = Vec::new();
        self.game.legal_actions(&mut legal);
        let action = protocol::answered(text, &legal, self.game.ruleset())?;
        self.game.apply(action).map_err(|e| e.to_string())?;
        self.play_bots();
        Ok(())
    }

    /// A receiver told of every move.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }
}

/// Every room of a server, by code.
#[derive(Default)]
pub struct Rooms {
    rooms: Mutex<HashMap<String, Arc<Mutex<Room>>>>,
}

impl Rooms {
    /// Opens a room playing `ruleset` with `players` (`human` or a bot name, one per seat;
    /// `cmd:PROGRAM` runs a program, so the server passes only its operator's, see
    /// [`super::programs`]).
    pub fn create(
        &self,
        ruleset: Arc<Ruleset>,
        players: &[String],
        hands: Option<u32>,
    ) -> Result<Created, String> {
        let stopping = |_| "the server is stopping".to_string();
        let full = |rooms: &mut HashMap<String, Arc<Mutex<Room>>>| {
            if rooms.len() >= MAX_ROOMS {
                // Finished games make room for new ones; a room busy with a move is in play.
                rooms.retain(|_, r| match r.try_lock() {
                    Ok(r) => !r.game.is_over(),
                    Err(e) => matches!(e, std::sync::TryLockError::WouldBlock),
                });
            }
            (rooms.len() >= MAX_ROOMS)
                .then(|| format!("the server holds {MAX_ROOMS} rooms already"))
        };
        if let Some(why) = full(&mut *self.rooms.lock().map_err(stopping)?) {
            return Err(why);
        }
        // The bots' first moves are made with no lock held: every other room goes on meanwhile.
        let (room, people) = Room::start(ruleset, players, hands)?;
        let mut rooms = self.rooms.lock().map_err(stopping)?;
        if let Some(why) = full(&mut rooms) {
            return Err(why);
        }
        let code = secret();
        rooms.insert(code.clone(), Arc::new(Mutex::new(room)));
        Ok(Created { room: code, people })
    }

    /// The room with this code.
    pub fn get(&self, code: &str) -> Option<Arc<Mutex<Room>>> {
        self.rooms.lock().ok()?.get(code).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn koikoi() -> Arc<Ruleset> {
        Arc::new(crate::ruleset::load("koikoi").value.unwrap())
    }

    #[test]
    fn a_person_plays_a_hand_against_a_bot_through_a_room() {
        let rooms = Rooms::default();
        let players = ["human".to_string(), "greedy".to_string()];
        let created = rooms.create(koikoi(), &players, Some(1)).unwrap();
        assert_eq!(created.room.len(), 32);
        let (seat, token) = created.people[0].clone();
        let room = rooms.get(&created.room).unwrap();
        let mut room = room.lock().unwrap();
        assert_eq!(room.seat_of(&token), Some(seat));
        assert_eq!(room.seat_of("guess"), None);
        let mut moves = 0;
        while !room.game.is_over() {
            let state: serde_json::Value = serde_json::from_str(&room.state(seat)).unwrap();
            assert_eq!(state["type"], "state");
            let legal = state["legal"].as_array().unwrap();
            assert!(!legal.is_empty(), "the person acts whenever the game waits");
            room.answer(seat, r#"{"choose": 0}"#).unwrap();
            moves += 1;
            assert!(moves < 200);
        }
        let end: serde_json::Value = serde_json::from_str(&room.state(seat)).unwrap();
        assert_eq!(end["over"], true);
        assert_eq!(
            room.answer(seat, r#"{"choose": 0}"#).unwrap_err(),
            "the game is over"
        );
    }

    #[test]
    fn rooms_refuse_what_they_cannot_seat() {
        let rooms = Rooms::default();
        let many: Vec<String> = (0..5).map(|_| "human".to_string()).collect();
        assert!(
            rooms
                .create(koikoi(), &many, None)
                .unwrap_err()
                .contains("seats 2 to 2")
        );
        let bad = ["human".to_string(), "grredy".to_string()];
        assert!(
            rooms
                .create(koikoi(), &bad, None)
                .unwrap_err()
                .contains("greedy")
        );
        let two = ["human".to_string(), "human".to_string()];
        let created = rooms.create(koikoi(), &two, Some(500));
        assert!(created.unwrap_err().contains("1 to 100 hands"));
        let created = rooms.create(koikoi(), &two, Some(1)).unwrap();
        assert_ne!(created.people[0].1, created.people[1].1);
        let room = rooms.get(&created.room).unwrap();
        let mut room = room.lock().unwrap();
        let waiting = room.game.to_act().unwrap();
        let other = 1 - waiting;
        assert_eq!(
            room.answer(other, r#"{"choose": 0}"#).unwrap_err(),
            "it is not your turn"
        );
    }
}
