//! Rooms: one game each, its seats held by people (each with an unguessable token) or bots, and
//! watched by spectators. The room is the authority: it checks every move, plays the bots, tells
//! each seat only what that seat may see ([`protocol::state`]), and stores every move
//! ([`super::store`]) before anyone is told of it.

use super::gate::{Gate, HUMAN, Seating};
use super::store::{Store, StoreError, StoredRoom};
use crate::agent::Agent;
use crate::cli::SeatTable;
use crate::core::protocol;
use crate::core::record::{Record, Step};
use crate::core::{Game, Seat, agent_rng};
use crate::families::{seat_range, start_record};
use crate::ruleset::Ruleset;
use rand::RngExt;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The most rooms a server holds at once.
pub const MAX_ROOMS: usize = 1_000;
/// The most hands a room's game may be asked to play.
pub const MAX_HANDS: u32 = 100;
/// How long a seat must have been away before the room's creator may hand it to a bot.
pub const AWAY_BEFORE_HAND_OVER: Duration = Duration::from_secs(120);

/// Who holds a seat.
enum Holder {
    /// A person, who connects with this token.
    Person { token: String },
    /// A bot.
    Bot(Box<dyn Agent>),
}

/// Who is connected: a seat, or a spectator, who is sent only what every seat sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The player of this seat.
    Seat(Seat),
    /// A spectator.
    Spectator,
}

/// One game and its seats.
pub struct Room {
    code: String,
    ruleset: Arc<Ruleset>,
    game: Box<dyn Game>,
    holders: Vec<Holder>,
    /// Each seat's holder by name (`human` or a bot), as the record writes them.
    names: Vec<String>,
    seed: u64,
    rounds: Option<u32>,
    /// The ruleset's content hash when the room was made, as records write it.
    content_hash: String,
    /// Every move, as the record writes them.
    moves: Vec<Step>,
    /// The spectators' token.
    watch: String,
    /// The creator's token: the first person's.
    creator: Option<String>,
    /// Each seat's open connections, and since when it has had none.
    present: Vec<(u32, Instant)>,
    store: Option<Arc<Store>>,
    /// Bumped after every move; each connection waits on it to send its seat the new state.
    changed: watch::Sender<u64>,
    /// Each person's table (none for a bot's seat): what the page draws, and the move log.
    tables: Vec<Option<SeatTable>>,
    /// Who may sit: every bot the room makes passes it.
    gate: Arc<Gate>,
}

/// Why a seat is not handed to a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandOverError {
    /// The seat is a bot's already, or there is no such seat.
    NoPerson {
        /// The seat asked for.
        seat: Seat,
    },
    /// The token is neither the seat's nor the creator's.
    NotYours,
    /// The creator asked for a seat that is connected or left too recently.
    Here {
        /// The seat asked for.
        seat: Seat,
        /// How long it must be away.
        away: Duration,
    },
    /// No such bot for this game.
    Bot(String),
    /// The store failed.
    Failed(String),
}

impl std::fmt::Display for HandOverError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Seats are counted from 1 here, as the page and the terminal name them (the API's
        // `seat` counts from 0).
        match self {
            HandOverError::NoPerson { seat } => {
                write!(f, "seat {} is not held by a person", seat + 1)
            }
            HandOverError::NotYours => {
                write!(
                    f,
                    "only the seat itself or the room's creator hands a seat to a bot"
                )
            }
            HandOverError::Here { seat, away } => write!(
                f,
                "seat {} is connected or left less than {} seconds ago",
                seat + 1,
                away.as_secs()
            ),
            HandOverError::Bot(why) | HandOverError::Failed(why) => f.write_str(why),
        }
    }
}

/// What a new room answers: its code, each person's seat and token, and the spectators'
/// token.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Created {
    /// The room's code (128 random bits, hex).
    pub room: String,
    /// Each seat held by a person: `(seat, token)`, the first for the creator.
    pub people: Vec<(Seat, String)>,
    /// The token that watches the room as a spectator.
    pub watch: String,
}

/// A move as the record writes it.
fn step(seat: Seat, action: crate::core::Action, ruleset: &Ruleset) -> Step {
    Step {
        seat: Some(seat),
        action: crate::core::record::StepAction::from_action(action, ruleset),
    }
}

/// A fresh 128-bit value from the system's randomness, as 32 hex digits.
fn secret() -> String {
    format!("{:032x}", rand::rng().random::<u128>())
}

/// The record of a game of `ruleset` started with `seed`, before its first move: rooms start
/// their games from it, so a stored room rebuilds exactly as a record replays.
fn empty_record(ruleset: &Ruleset, seed: u64, names: &[String], rounds: Option<u32>) -> Record {
    Record::new(ruleset, &ruleset.id, Some(seed), names, rounds)
}

impl Room {
    /// The room `stored` describes: its game started from the seed and moves by every stored
    /// move (as a record replays), each seat held by its person's token or, where `gate` is
    /// given, its bot named in `names` as the gate makes it ([`Gate::agent`]). Without a gate no
    /// bot is made: the room only rebuilds the game and its record (an export).
    fn build(
        stored: &StoredRoom,
        names: &[String],
        ruleset: Arc<Ruleset>,
        store: Option<Arc<Store>>,
        gate: Option<Arc<Gate>>,
    ) -> Result<Room, String> {
        if stored.tokens.len() != names.len() {
            return Err("its seats are not all stored".to_string());
        }
        let mut holders = Vec::with_capacity(names.len());
        for (name, token) in names.iter().zip(&stored.tokens) {
            holders.push(match (name.as_str(), token, &gate) {
                (HUMAN, Some(token), _) => Holder::Person {
                    token: token.clone(),
                },
                (HUMAN, None, _) => return Err("a person's seat has no token".to_string()),
                (bot, _, Some(gate)) => Holder::Bot(gate.agent(bot, &ruleset)?),
                (_, _, None) => Holder::Bot(Box::new(crate::agent::GreedyAgent)),
            });
        }
        let names = &names.to_vec();
        let mut record = empty_record(&ruleset, stored.seed, names, stored.rounds);
        let mut game =
            start_record(&record, Arc::clone(&ruleset), true).map_err(|e| e.to_string())?;
        record.actions = stored.moves.clone();
        for i in 0..record.actions.len() {
            record
                .apply(&mut *game, i)
                .map_err(|e| format!("move {i}: {e}"))?;
        }
        let now = Instant::now();
        let mut room = Room {
            code: stored.code.clone(),
            ruleset,
            game,
            holders,
            names: names.clone(),
            seed: stored.seed,
            rounds: stored.rounds,
            content_hash: stored.content_hash.clone(),
            moves: record.actions,
            watch: stored.watch.clone(),
            creator: stored.creator.clone(),
            present: vec![(0, now); names.len()],
            store,
            changed: watch::channel(0).0,
            tables: Vec::new(),
            gate: gate.unwrap_or_default(),
        };
        room.fresh_tables();
        Ok(room)
    }

    /// Each person's table made again and told everything that happened so far (the events
    /// of the game as rebuilt).
    fn fresh_tables(&mut self) {
        let names = &self.names;
        self.tables = (0..names.len())
            .map(|s| (names[s] == HUMAN).then(|| SeatTable::new(&self.ruleset, names, s)))
            .collect();
        self.narrate();
    }

    /// A new room's game: checked, started, moved by its bots until a person must act, and
    /// stored (with `rules`, the text of a pasted rule file it plays).
    fn start(
        ruleset: Arc<Ruleset>,
        rules: Option<String>,
        seating: Seating,
        hands: Option<u32>,
        store: Option<Arc<Store>>,
        gate: Arc<Gate>,
    ) -> Result<(Room, Vec<(Seat, String)>), String> {
        let players = seating.holders();
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
        let tokens: Vec<Option<String>> =
            players.iter().map(|p| (p == HUMAN).then(secret)).collect();
        let people: Vec<(Seat, String)> = tokens
            .iter()
            .enumerate()
            .filter_map(|(seat, t)| Some((seat, t.clone()?)))
            .collect();
        let stored = StoredRoom {
            code: secret(),
            ruleset: ruleset.id.clone(),
            rules,
            content_hash: crate::core::record::hash_hex(ruleset.content_hash),
            seed: new_seed(),
            rounds: hands,
            watch: secret(),
            creator: people.first().map(|(_, t)| t.clone()),
            holders: players.to_vec(),
            tokens,
            moves: Vec::new(),
            finished: false,
        };
        let mut room = Room::build(&stored, seating.holders(), ruleset, None, Some(gate))?;
        room.play_bots();
        if let Some(store) = &store {
            let stored = StoredRoom {
                moves: room.moves.clone(),
                finished: room.game.is_over(),
                ..stored
            };
            store.insert(&stored).map_err(|e| e.to_string())?;
        }
        room.store = store;
        Ok((room, people))
    }

    /// Bots move until a person must act or the game is over. Each bot move draws from its
    /// own stream of the game's seed (the seed and the move's number), so a room rebuilt after
    /// a restart plays on as it would have.
    fn play_bots(&mut self) {
        let mut legal = Vec::new();
        while let Some(seat) = self.game.to_act() {
            let Some(Holder::Bot(bot)) = self.holders.get_mut(seat) else {
                break;
            };
            self.game.legal_actions(&mut legal);
            let mut rng = agent_rng(self.seed.wrapping_add(self.moves.len() as u64));
            let action = bot.choose(&*self.game, seat, &legal, &mut rng);
            if let Some(notice) = bot.notice() {
                eprintln!("room: {notice}");
            }
            self.announce(seat, action);
            if self.game.apply(action).is_err() {
                break;
            }
            self.narrate();
            self.moves.push(step(seat, action, &self.ruleset));
        }
    }

    /// Stores the moves made since move `from` in one transaction, then tells every
    /// connection. When the store fails, the room goes back to move `from`.
    fn commit(&mut self, from: usize) -> Result<(), String> {
        if let Some(store) = &self.store
            && from < self.moves.len()
        {
            let stored = store.append(&self.code, from, &self.moves[from..], self.game.is_over());
            if let Err(e) = stored {
                self.rewind(from);
                return Err(format!("{e}; the move was not made"));
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
        Ok(())
    }

    /// The game again as it stood after its first `to` moves.
    fn rewind(&mut self, to: usize) {
        self.moves.truncate(to);
        let mut record = empty_record(&self.ruleset, self.seed, &self.names, self.rounds);
        record.actions = self.moves.clone();
        if let Ok(mut game) = start_record(&record, Arc::clone(&self.ruleset), true)
            && (0..to).all(|i| record.apply(&mut *game, i).is_ok())
        {
            self.game = game;
            self.fresh_tables();
        }
    }

    /// Who `token` connects as: the seat it holds, or a spectator.
    pub fn viewer_of(&self, token: &str) -> Option<Viewer> {
        if token == self.watch {
            return Some(Viewer::Spectator);
        }
        self.holders
            .iter()
            .position(|h| matches!(h, Holder::Person { token: t } if t == token))
            .map(Viewer::Seat)
    }

    /// Tells each other person's table of `seat`'s move before it is made.
    fn announce(&mut self, seat: Seat, action: crate::core::Action) {
        for (s, table) in self.tables.iter_mut().enumerate() {
            if let Some(table) = table.as_mut().filter(|_| s != seat) {
                table.announce(&*self.game, seat, action);
            }
        }
    }

    /// Tells each person's table what the last move did (the events are public).
    fn narrate(&mut self) {
        let events = self.game.drain_events();
        for table in self.tables.iter_mut().flatten() {
            table.narrate(&*self.game, &events);
        }
    }

    /// Tells every person's table `notice` (in its move log), and the operator.
    fn note(&mut self, notice: &str) {
        eprintln!("room {}: {notice}", self.code);
        for table in self.tables.iter_mut().flatten() {
            table.note(notice);
        }
    }

    /// The spectators' token, given to whoever hands a seat over so that they watch on.
    pub fn watch_token(&self) -> &str {
        &self.watch
    }

    /// The ruleset the room plays.
    pub fn ruleset(&self) -> &Arc<Ruleset> {
        self.game.ruleset()
    }

    /// The seat `token` holds.
    pub fn seat_of(&self, token: &str) -> Option<Seat> {
        match self.viewer_of(token)? {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        }
    }

    /// The first message of a connection: the game, the seat (none for a spectator), the deck.
    pub fn hello(&self, viewer: Viewer) -> String {
        let hello = match viewer {
            Viewer::Seat(seat) => protocol::hello(self.game.ruleset(), seat, self.game.seats()),
            Viewer::Spectator => protocol::hello_spectator(self.game.ruleset(), self.game.seats()),
        };
        serde_json::to_string(&hello).unwrap_or_default()
    }

    /// The game as `viewer` sees it now: a person's seat with its table as the page draws it.
    pub fn state(&self, viewer: Viewer) -> String {
        let state = match viewer {
            Viewer::Seat(seat) => match self.tables.get(seat) {
                Some(Some(table)) => table.state(&*self.game),
                _ => protocol::state(&*self.game, seat),
            },
            Viewer::Spectator => protocol::watched(&*self.game),
        };
        serde_json::to_string(&state).unwrap_or_default()
    }

    /// A person's answer: the move is checked, made and stored, and the bots move after it.
    pub fn answer(&mut self, viewer: Viewer, text: &str) -> Result<(), String> {
        let Viewer::Seat(seat) = viewer else {
            return Err("a spectator does not play".to_string());
        };
        if matches!(self.holders.get(seat), Some(Holder::Bot(_))) {
            return Err("this seat was handed to a bot".to_string());
        }
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
        let from = self.moves.len();
        self.announce(seat, action);
        self.game.apply(action).map_err(|e| e.to_string())?;
        self.narrate();
        self.moves.push(step(seat, action, &self.ruleset));
        self.play_bots();
        self.commit(from)
    }

    /// Hands `seat` to the bot `bot`, asked by the holder of `token`: the seat's own token at
    /// any time, the creator's once the seat has been away for `away`
    /// ([`AWAY_BEFORE_HAND_OVER`] on a server). The bot plays on at once.
    pub fn hand_over(
        &mut self,
        token: &str,
        seat: Seat,
        bot: &str,
        away: Duration,
    ) -> Result<(), HandOverError> {
        let Some(Holder::Person { token: held }) = self.holders.get(seat) else {
            return Err(HandOverError::NoPerson { seat });
        };
        if held != token {
            if self.creator.as_deref() != Some(token) {
                return Err(HandOverError::NotYours);
            }
            let (connections, since) = self.present[seat];
            if connections > 0 || since.elapsed() < away {
                return Err(HandOverError::Here { seat, away });
            }
        }
        let bot = self
            .gate
            .hand_over(bot, &self.ruleset)
            .map_err(HandOverError::Bot)?;
        let agent = self
            .gate
            .agent(&bot, &self.ruleset)
            .map_err(HandOverError::Bot)?;
        if let Some(store) = &self.store {
            store
                .hand_over(&self.code, seat, &bot)
                .map_err(|e| HandOverError::Failed(e.to_string()))?;
        }
        self.holders[seat] = Holder::Bot(agent);
        self.names[seat] = bot;
        let from = self.moves.len();
        self.play_bots();
        self.commit(from).map_err(HandOverError::Failed)
    }

    /// A connection of `viewer` opened (`true`) or closed: the room knows how long a seat has
    /// been away.
    pub fn attend(&mut self, viewer: Viewer, open: bool) {
        if let Viewer::Seat(seat) = viewer
            && let Some((connections, since)) = self.present.get_mut(seat)
        {
            if open {
                *connections += 1;
            } else {
                *connections = connections.saturating_sub(1);
                if *connections == 0 {
                    *since = Instant::now();
                }
            }
        }
    }

    /// The game's record so far, in yaku's record format (`yaku replay` reads it).
    pub fn record(&self) -> Record {
        let mut record = empty_record(&self.ruleset, self.seed, &self.names, self.rounds);
        record.ruleset.content_hash = Some(self.content_hash.clone());
        record.actions = self.moves.clone();
        record.sync(&*self.game);
        record
    }

    /// True once the game is over.
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The game, for tests that check what a seat is told against it.
    #[cfg(test)]
    pub(crate) fn game(&self) -> &dyn Game {
        &*self.game
    }

    /// A receiver told of every move.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }
}

/// A seat's connection, counted by its room while it is open.
pub struct Presence {
    room: Arc<Mutex<Room>>,
    viewer: Viewer,
}

impl Presence {
    /// Counts a connection of `viewer` to `room` until the presence is dropped.
    pub fn new(room: &Arc<Mutex<Room>>, viewer: Viewer) -> Presence {
        if let Ok(mut r) = room.lock() {
            r.attend(viewer, true);
        }
        Presence {
            room: Arc::clone(room),
            viewer,
        }
    }
}

impl Drop for Presence {
    fn drop(&mut self) {
        if let Ok(mut r) = self.room.lock() {
            r.attend(self.viewer, false);
        }
    }
}

/// Every room of a server, by code, and the store that keeps them.
pub struct Rooms {
    rooms: Mutex<HashMap<String, Arc<Mutex<Room>>>>,
    store: Option<Arc<Store>>,
    /// Who may sit, for every room.
    gate: Arc<Gate>,
    /// How long a seat must be away before the creator may hand it to a bot.
    pub away_before_hand_over: Duration,
}

impl Default for Rooms {
    /// Rooms in memory only: stopping the server ends their games.
    fn default() -> Rooms {
        Rooms::new(Gate::default())
    }
}

/// The ruleset a stored room plays: its pasted rule file's, or a bundled one by its spec.
fn stored_ruleset(stored: &StoredRoom) -> Result<Arc<Ruleset>, String> {
    if let Some(text) = &stored.rules {
        let loaded = crate::ruleset::load_pasted(super::pasted::PASTED_NAME, text);
        let errors = crate::diag::has_errors(&loaded.diagnostics);
        return match loaded.value {
            Some(r) if !errors => Ok(Arc::new(r)),
            _ => Err("its pasted rule file no longer loads".to_string()),
        };
    }
    let known = crate::ruleset::bundled::ruleset_names().any(|n| n == stored.ruleset);
    let ruleset = known
        .then(|| crate::ruleset::load(&stored.ruleset).value)
        .flatten()
        .ok_or_else(|| format!("yaku has no ruleset `{}` now", stored.ruleset))?;
    Ok(Arc::new(ruleset))
}

/// A stored room, rebuilt: with a `gate`, its seats checked again ([`Gate::reseat`]; a seat
/// whose holder no longer passes is played by greedy, stored so, and the notices say why), and
/// without one, as stored with no bot made (an export).
fn rebuild(
    stored: &StoredRoom,
    store: Option<Arc<Store>>,
    gate: Option<Arc<Gate>>,
) -> Result<(Room, Vec<String>), StoreError> {
    let bad = |reason: String| StoreError::Room {
        code: stored.code.clone(),
        reason,
    };
    let ruleset = stored_ruleset(stored).map_err(bad)?;
    let Some(gate) = gate else {
        let room = Room::build(stored, &stored.holders, ruleset, store, None).map_err(bad)?;
        return Ok((room, Vec::new()));
    };
    let (seating, notices) = gate.reseat(&stored.holders, &ruleset);
    if let Some(store) = &store {
        for (seat, (was, now)) in stored.holders.iter().zip(seating.holders()).enumerate() {
            if was != now {
                store
                    .hand_over(&stored.code, seat, now)
                    .map_err(|e| bad(e.to_string()))?;
            }
        }
    }
    let mut room =
        Room::build(stored, seating.holders(), ruleset, store, Some(gate)).map_err(bad)?;
    for notice in &notices {
        room.note(notice);
    }
    Ok((room, notices))
}

impl Rooms {
    /// The rooms kept in `store`: every unfinished game is rebuilt from its seed and moves and
    /// waits where it was (finished ones are read when asked for). Rooms that cannot be
    /// rebuilt (their ruleset is gone, or changed so that a move is no longer legal) stay
    /// stored and are listed with why, as are rooms whose rules changed but which play on.
    /// Every seat passes `gate` again: a holder it no longer lets in is played by greedy, with
    /// a warning among the problems.
    pub fn open(store: Store, gate: Gate) -> Result<(Rooms, Vec<StoreError>), StoreError> {
        let store = Arc::new(store);
        let gate = Arc::new(gate);
        let mut rooms = HashMap::new();
        let mut problems = Vec::new();
        for code in store.unfinished()? {
            let Some(stored) = store.load(&code)? else {
                continue;
            };
            match rebuild(&stored, Some(Arc::clone(&store)), Some(Arc::clone(&gate))) {
                Ok((mut room, notices)) => {
                    problems.extend(notices.into_iter().map(|notice| StoreError::Seat {
                        code: code.clone(),
                        notice,
                    }));
                    let now = crate::core::record::hash_hex(room.ruleset.content_hash);
                    if now != stored.content_hash {
                        problems.push(StoreError::RulesChanged {
                            code: code.clone(),
                            ruleset: stored.ruleset.clone(),
                        });
                    }
                    // A seat handed to a bot just before a stop: the bot plays on.
                    let from = room.moves.len();
                    room.play_bots();
                    if let Err(why) = room.commit(from) {
                        problems.push(StoreError::Room { code, reason: why });
                        continue;
                    }
                    rooms.insert(code, Arc::new(Mutex::new(room)));
                }
                Err(e) => problems.push(e),
            }
        }
        let rooms = Rooms {
            rooms: Mutex::new(rooms),
            store: Some(store),
            gate,
            away_before_hand_over: AWAY_BEFORE_HAND_OVER,
        };
        Ok((rooms, problems))
    }

    /// Rooms in memory only, seated through `gate`.
    pub fn new(gate: Gate) -> Rooms {
        Rooms {
            rooms: Mutex::default(),
            store: None,
            gate: Arc::new(gate),
            away_before_hand_over: AWAY_BEFORE_HAND_OVER,
        }
    }

    /// Who may sit.
    pub fn gate(&self) -> &Gate {
        &self.gate
    }

    /// How many rooms are open now.
    pub fn len(&self) -> usize {
        self.rooms.lock().map_or(0, |r| r.len())
    }

    /// True when no room is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Opens a room playing `ruleset` with `players` as a client names them (`human` or a bot,
    /// one per seat), each let in by the gate ([`Gate::seat`]).
    pub fn create(
        &self,
        ruleset: Arc<Ruleset>,
        players: &[String],
        hands: Option<u32>,
    ) -> Result<Created, String> {
        let seating = self.gate.seat(players, &ruleset)?;
        self.create_seated(ruleset, None, seating, hands)
    }

    /// [`Rooms::create`] for a rule file pasted on the page, `ruleset` loaded from `rules`: the
    /// text is stored with the room, which a restart loads again from it.
    pub fn create_pasted(
        &self,
        ruleset: Arc<Ruleset>,
        rules: String,
        players: &[String],
        hands: Option<u32>,
    ) -> Result<Created, String> {
        let seating = self.gate.seat(players, &ruleset)?;
        self.create_seated(ruleset, Some(rules), seating, hands)
    }

    /// Opens a room with seats the gate let in (`rules`: the pasted rule file's text, if any).
    pub fn create_seated(
        &self,
        ruleset: Arc<Ruleset>,
        rules: Option<String>,
        seating: Seating,
        hands: Option<u32>,
    ) -> Result<Created, String> {
        let stopping = |_| "the server is stopping".to_string();
        let store = self.store.clone();
        let full = |rooms: &mut HashMap<String, Arc<Mutex<Room>>>| -> Result<(), String> {
            if rooms.len() >= MAX_ROOMS {
                // Finished games make room for new ones (they stay stored; a room busy with a
                // move is in play), then abandoned ones.
                rooms.retain(|_, r| match r.try_lock() {
                    Ok(r) => !r.game.is_over(),
                    Err(e) => matches!(e, std::sync::TryLockError::WouldBlock),
                });
                if rooms.len() >= MAX_ROOMS
                    && let Some(store) = &store
                {
                    let before = super::store::now() - super::store::ABANDONED_SECS;
                    for code in store.delete_abandoned(before).map_err(|e| e.to_string())? {
                        rooms.remove(&code);
                    }
                }
            }
            if rooms.len() >= MAX_ROOMS {
                return Err(format!("the server holds {MAX_ROOMS} rooms already"));
            }
            Ok(())
        };
        full(&mut *self.rooms.lock().map_err(stopping)?)?;
        // The bots' first moves are made with no lock held: every other room goes on meanwhile.
        let gate = Arc::clone(&self.gate);
        let (room, people) = Room::start(ruleset, rules, seating, hands, self.store.clone(), gate)?;
        let mut rooms = self.rooms.lock().map_err(stopping)?;
        full(&mut rooms)?;
        let created = Created {
            room: room.code.clone(),
            people,
            watch: room.watch.clone(),
        };
        rooms.insert(room.code.clone(), Arc::new(Mutex::new(room)));
        Ok(created)
    }

    /// The room with this code: open, or read from the store (a finished game).
    pub fn get(&self, code: &str) -> Option<Arc<Mutex<Room>>> {
        if let Some(room) = self.rooms.lock().ok()?.get(code) {
            return Some(Arc::clone(room));
        }
        let store = self.store.as_ref()?;
        let stored = store.load(code).ok()??;
        let gate = Some(Arc::clone(&self.gate));
        let (room, _) = rebuild(&stored, Some(Arc::clone(store)), gate).ok()?;
        let room = Arc::new(Mutex::new(room));
        let mut rooms = self.rooms.lock().ok()?;
        if rooms.len() >= MAX_ROOMS {
            rooms.retain(|_, r| r.lock().is_ok_and(|r| !r.game.is_over()));
        }
        if rooms.len() >= MAX_ROOMS {
            return Some(room);
        }
        Some(Arc::clone(rooms.entry(code.to_string()).or_insert(room)))
    }
}

/// The record of the room `code` in `store` (the command line's export; a server's room is
/// read with [`Room::record`]): rebuilt from its moves, with its deals; a room that no longer
/// rebuilds is written as stored (seed and moves, no deals), for `yaku replay` to show how far
/// it goes.
pub fn stored_record(store: &Store, code: &str) -> Result<Option<Record>, StoreError> {
    let Some(stored) = store.load(code)? else {
        return Ok(None);
    };
    if let Ok((room, _)) = rebuild(&stored, None, None) {
        return Ok(Some(room.record()));
    }
    Ok(Some(Record {
        format: crate::core::record::FORMAT.to_string(),
        version: crate::core::record::VERSION,
        ruleset: crate::core::record::RulesetRef {
            id: stored.ruleset.clone(),
            spec: stored.ruleset,
            content_hash: Some(stored.content_hash),
        },
        seed: Some(stored.seed),
        players: stored.holders,
        rounds: stored.rounds,
        first_dealer: None,
        min_bet: None,
        max_bet: None,
        deals: Vec::new(),
        actions: stored.moves,
        finished: stored.finished,
        undone: Vec::new(),
    }))
}

/// A new room's seed: random, so that every room deals anew. A test's rooms are seeded 1, 2, 3,
/// ... in the order the test makes them (each test runs on a thread of its own), so a test sees
/// the same deals every run rather than, now and then, a dealt hand that ends the game at once.
fn new_seed() -> u64 {
    #[cfg(test)]
    {
        thread_local!(static NEXT: std::cell::Cell<u64> = const { std::cell::Cell::new(1) });
        NEXT.with(|next| next.replace(next.get() + 1))
    }
    #[cfg(not(test))]
    rand::rng().random::<u64>()
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
            let state: serde_json::Value =
                serde_json::from_str(&room.state(Viewer::Seat(seat))).unwrap();
            assert_eq!(state["type"], "state");
            let legal = state["legal"].as_array().unwrap();
            assert!(!legal.is_empty(), "the person acts whenever the game waits");
            room.answer(Viewer::Seat(seat), r#"{"choose": 0}"#).unwrap();
            moves += 1;
            assert!(moves < 200);
        }
        let end: serde_json::Value = serde_json::from_str(&room.state(Viewer::Seat(seat))).unwrap();
        assert_eq!(end["over"], true);
        assert_eq!(
            room.answer(Viewer::Seat(seat), r#"{"choose": 0}"#)
                .unwrap_err(),
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
            room.answer(Viewer::Seat(other), r#"{"choose": 0}"#)
                .unwrap_err(),
            "it is not your turn"
        );
    }

    /// Plays `seat`'s first legal move whenever it acts, `moves` times or until the game ends.
    fn play(room: &mut Room, seat: Seat, moves: usize) {
        for _ in 0..moves {
            if room.game.is_over() {
                return;
            }
            room.answer(Viewer::Seat(seat), r#"{"choose": 0}"#).unwrap();
        }
    }

    #[test]
    fn a_stored_room_comes_back_where_it_was_with_its_tokens() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("serve.sqlite");
        let (rooms, problems) = Rooms::open(Store::open(&path).unwrap(), Gate::default()).unwrap();
        assert!(problems.is_empty());
        let players = ["human".to_string(), "expert".to_string()];
        let created = rooms.create(koikoi(), &players, Some(2)).unwrap();
        let (seat, token) = created.people[0].clone();
        let before = {
            let room = rooms.get(&created.room).unwrap();
            let mut room = room.lock().unwrap();
            play(&mut room, seat, 5);
            (room.state(Viewer::Seat(seat)), room.moves.clone())
        };
        // The same game played on without a stop, to compare with.
        let whole = {
            let room = rooms.get(&created.room).unwrap();
            let mut room = room.lock().unwrap();
            play(&mut room, seat, 200);
            room.record()
        };
        drop(rooms);
        // Again from the store as it stood after five moves: the moves after them are cut.
        let store = Store::open(&path).unwrap();
        store.delete(&created.room).unwrap();
        let stored = StoredRoom {
            code: created.room.clone(),
            ruleset: "koikoi".to_string(),
            rules: None,
            content_hash: whole.ruleset.content_hash.clone().unwrap(),
            seed: whole.seed.unwrap(),
            rounds: Some(2),
            watch: created.watch.clone(),
            creator: Some(token.clone()),
            holders: players.to_vec(),
            tokens: vec![Some(token.clone()), None],
            moves: before.1.clone(),
            finished: false,
        };
        store.insert(&stored).unwrap();
        drop(store);
        let (rooms, problems) = Rooms::open(Store::open(&path).unwrap(), Gate::default()).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(rooms.len(), 1);
        let room = rooms.get(&created.room).unwrap();
        let mut room = room.lock().unwrap();
        assert_eq!(room.viewer_of(&token), Some(Viewer::Seat(seat)));
        assert_eq!(room.viewer_of(&created.watch), Some(Viewer::Spectator));
        assert_eq!(room.state(Viewer::Seat(seat)), before.0);
        // The bots draw from the seed and the move's number: the game plays on as it would
        // have without the stop.
        play(&mut room, seat, 200);
        assert!(room.is_over());
        assert_eq!(room.record(), whole);
        drop(room);
        // A finished room is read back from the store when asked for.
        drop(rooms);
        let (rooms, _) = Rooms::open(Store::open(&path).unwrap(), Gate::default()).unwrap();
        assert_eq!(rooms.len(), 0);
        let room = rooms.get(&created.room).unwrap();
        assert_eq!(room.lock().unwrap().record(), whole);
        let exported = stored_record(&Store::open(&path).unwrap(), &created.room).unwrap();
        assert_eq!(exported, Some(whole.clone()));
        let replayed = crate::families::replay(&whole, koikoi()).unwrap();
        assert!(replayed.is_over());
    }

    /// A room playing a rule file pasted on the page keeps the file's text, and a restart
    /// loads its ruleset again from it.
    #[test]
    fn a_room_of_pasted_rules_comes_back_after_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("serve.sqlite");
        let (rooms, _) = Rooms::open(Store::open(&path).unwrap(), Gate::default()).unwrap();
        let text = "[ruleset]\nid = \"short\"\nextends = \"koikoi\"\nname = \"Short\"\n\n[flow]\nrounds = 1\n";
        let loaded = crate::ruleset::load_pasted(super::super::pasted::PASTED_NAME, text);
        let ruleset = Arc::new(loaded.value.unwrap());
        let players = ["human".to_string(), "greedy".to_string()];
        let created = (rooms.create_pasted(ruleset, text.to_string(), &players, None)).unwrap();
        let (seat, _) = created.people[0].clone();
        let before = {
            let room = rooms.get(&created.room).unwrap();
            let mut room = room.lock().unwrap();
            play(&mut room, seat, 3);
            room.state(Viewer::Seat(seat))
        };
        drop(rooms);
        let (rooms, problems) = Rooms::open(Store::open(&path).unwrap(), Gate::default()).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        let room = rooms.get(&created.room).unwrap();
        let room = room.lock().unwrap();
        assert_eq!(room.ruleset().name, "Short");
        assert_eq!(room.state(Viewer::Seat(seat)), before);
    }

    #[test]
    fn rooms_whose_rules_changed_are_told_of() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("serve.sqlite");
        let store = Store::open(&path).unwrap();
        let stored = |code: &str, hash: &str, card: &str| StoredRoom {
            code: code.to_string(),
            ruleset: "koikoi".to_string(),
            rules: None,
            content_hash: hash.to_string(),
            seed: 7,
            rounds: Some(1),
            watch: secret(),
            creator: None,
            holders: vec!["greedy".to_string(), "human".to_string()],
            tokens: vec![None, Some(secret())],
            moves: vec![Step {
                seat: Some(0),
                action: crate::core::record::StepAction::Play {
                    card: card.to_string(),
                },
            }],
            finished: false,
        };
        // Seed 7's first move, as the game would make it, under other rules' hash; and a move
        // no longer legal.
        let game = start_record(
            &empty_record(&koikoi(), 7, &["greedy".into(), "human".into()], Some(1)),
            koikoi(),
            false,
        )
        .unwrap();
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        let first = step(0, legal[0], &koikoi());
        let crate::core::record::StepAction::Play { card } = &first.action else {
            panic!("{first:?}")
        };
        store
            .insert(&stored("changed", "0000000000000000", card))
            .unwrap();
        store
            .insert(&stored("broken", "0000000000000000", "no-such-card"))
            .unwrap();
        let (rooms, problems) = Rooms::open(store, Gate::default()).unwrap();
        let told: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(told.len(), 2, "{told:?}");
        assert!(
            told.iter()
                .any(|t| t.contains("room changed: the rules of `koikoi` changed"))
        );
        assert!(
            told.iter()
                .any(|t| t.contains("room broken cannot be rebuilt"))
        );
        assert_eq!(rooms.len(), 1);
        let room = rooms.get("changed").unwrap();
        let record = room.lock().unwrap().record();
        assert_eq!(
            record.ruleset.content_hash.as_deref(),
            Some("0000000000000000")
        );
    }

    #[test]
    fn a_move_that_cannot_be_stored_is_not_made() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("serve.sqlite")).unwrap();
        let (rooms, _) = Rooms::open(store, Gate::default()).unwrap();
        let players = ["human".to_string(), "greedy".to_string()];
        let created = rooms.create(koikoi(), &players, Some(1)).unwrap();
        let (seat, _) = created.people[0];
        // The room's row is gone: its moves break the database's foreign key.
        rooms.store.as_ref().unwrap().delete(&created.room).unwrap();
        let room = rooms.get(&created.room).unwrap();
        let mut room = room.lock().unwrap();
        let (state, moves) = (room.state(Viewer::Seat(seat)), room.moves.len());
        let refused = room.answer(Viewer::Seat(seat), r#"{"choose": 0}"#);
        assert!(refused.unwrap_err().contains("the move was not made"));
        assert_eq!(room.state(Viewer::Seat(seat)), state);
        assert_eq!(room.moves.len(), moves);
    }

    #[test]
    fn a_seat_handed_to_a_bot_plays_on() {
        let rooms = Rooms::default();
        let three = [
            "human".to_string(),
            "human".to_string(),
            "human".to_string(),
        ];
        let gostop = Arc::new(crate::ruleset::load("gostop").value.unwrap());
        let created = rooms.create(gostop, &three, Some(1)).unwrap();
        let tokens: Vec<String> = created.people.iter().map(|p| p.1.clone()).collect();
        let room = rooms.get(&created.room).unwrap();
        let mut room = room.lock().unwrap();
        let long = Duration::from_secs(3600);
        // Seat 1 hands itself over; the creator (seat 0) may hand seat 2 only once it is away.
        assert_eq!(
            room.hand_over(&tokens[2], 1, "greedy", long),
            Err(HandOverError::NotYours)
        );
        assert_eq!(
            room.hand_over(&created.watch, 1, "greedy", long),
            Err(HandOverError::NotYours)
        );
        assert!(matches!(
            room.hand_over(&tokens[1], 1, "grredy", long),
            Err(HandOverError::Bot(_))
        ));
        room.hand_over(&tokens[1], 1, "greedy", long).unwrap();
        assert_eq!(room.viewer_of(&tokens[1]), None);
        assert_eq!(
            room.hand_over(&tokens[1], 1, "greedy", long),
            Err(HandOverError::NoPerson { seat: 1 })
        );
        assert!(matches!(
            room.hand_over(&tokens[0], 2, "greedy", long),
            Err(HandOverError::Here { seat: 2, .. })
        ));
        room.attend(Viewer::Seat(2), true);
        assert!(matches!(
            room.hand_over(&tokens[0], 2, "greedy", Duration::ZERO),
            Err(HandOverError::Here { seat: 2, .. })
        ));
        room.attend(Viewer::Seat(2), false);
        room.hand_over(&tokens[0], 2, "random", Duration::ZERO)
            .unwrap();
        assert_eq!(room.record().players, ["human", "greedy", "random"]);
        assert_eq!(
            room.answer(Viewer::Seat(2), r#"{"choose": 0}"#)
                .unwrap_err(),
            "this seat was handed to a bot"
        );
        play(&mut room, 0, 200);
        assert!(room.is_over());
        room.hand_over(&tokens[0], 0, "greedy", long).unwrap();
    }

    #[test]
    fn a_spectator_sees_what_every_seat_sees_and_plays_nothing() {
        let rooms = Rooms::default();
        let players = ["human".to_string(), "greedy".to_string()];
        let created = rooms.create(koikoi(), &players, Some(1)).unwrap();
        let room = rooms.get(&created.room).unwrap();
        let mut room = room.lock().unwrap();
        let hello: serde_json::Value =
            serde_json::from_str(&room.hello(Viewer::Spectator)).unwrap();
        assert_eq!(hello["type"], "hello");
        assert!(hello.get("seat").is_none(), "{hello}");
        let state: serde_json::Value =
            serde_json::from_str(&room.state(Viewer::Spectator)).unwrap();
        assert!(state.get("seat").is_none(), "{state}");
        assert_eq!(state["legal"], serde_json::json!([]));
        for zone in state["zones"].as_array().unwrap() {
            let name = zone["name"].as_str().unwrap();
            if name.starts_with("hand") || name == "stock" {
                assert_eq!(zone["cards"], serde_json::json!([]), "{state}");
                assert!(zone["hidden"].as_u64().unwrap() > 0, "{state}");
            }
        }
        assert_eq!(
            room.answer(Viewer::Spectator, r#"{"choose": 0}"#)
                .unwrap_err(),
            "a spectator does not play"
        );
    }
}
