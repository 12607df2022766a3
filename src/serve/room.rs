//! A room: one game, its seats held by people (each with an unguessable token) or bots, and
//! watched by spectators. The room is the authority: it checks every move, plays the bots, tells
//! each seat only what that seat may see ([`protocol::state`]), and stores every move
//! ([`super::store`]) before anyone is told of it. The server holds each room behind its own
//! lock ([`super::rooms`]).

use super::gate::{Gate, HUMAN, Seating};
use super::store::{Store, StoredRoom};
use crate::agent::Agent;
use crate::core::protocol;
use crate::core::record::{Record, Step};
use crate::core::{Game, Seat, agent_rng};
use crate::families::{seat_range, start_record};
use crate::front::seat::SeatTable;
use crate::ruleset::Ruleset;
use rand::RngExt;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;

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
    pub(super) code: String,
    ruleset: Arc<Ruleset>,
    pub(super) game: Box<dyn Game>,
    holders: Vec<Holder>,
    /// Each seat's holder by name (`human` or a bot), as the record writes them.
    names: Vec<String>,
    seed: u64,
    rounds: Option<u32>,
    /// The ruleset's content hash when the room was made, as records write it.
    content_hash: String,
    /// The text of the pasted rule file the room plays, which its record embeds.
    rules: Option<String>,
    /// Every move, as the record writes them.
    pub(super) moves: Vec<Step>,
    /// The spectators' token.
    pub(super) watch: String,
    /// The creator's token: the first person's.
    creator: Option<String>,
    pub(super) store: Option<Arc<Store>>,
    /// Bumped after every move; each connection waits on it to send its seat the new state.
    changed: watch::Sender<u64>,
    /// True once the room's creator closed it: nobody moves in it again.
    closed: bool,
    /// Each person's table (none for a bot's seat): what the page draws, and the move log.
    tables: Vec<Option<SeatTable>>,
    /// Who may sit: every bot the room makes passes it.
    gate: Arc<Gate>,
    /// The last hint worked out: for which seat, at which move, and the message; asked again
    /// at the same move, it is sent again rather than worked out again.
    hinted: Option<(Seat, usize, String)>,
}

/// The name a record gives the pasted rule file it embeds.
pub const PASTED_FILE: &str = "pasted.toml";

/// What a room's seats are told once its creator closed it.
pub const CLOSED: &str = "the room's creator closed it";

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
pub(super) fn step(seat: Seat, action: crate::core::Action, ruleset: &Ruleset) -> Step {
    Step {
        seat: Some(seat),
        action: crate::core::record::StepAction::from_action(action, ruleset),
    }
}

/// A fresh 128-bit value from the system's randomness, as 32 hex digits.
pub(super) fn secret() -> String {
    format!("{:032x}", rand::rng().random::<u128>())
}

/// The record of a game of `ruleset` started with `seed`, before its first move: rooms start
/// their games from it, so a stored room rebuilds exactly as a record replays.
pub(super) fn empty_record(
    ruleset: &Ruleset,
    seed: u64,
    names: &[String],
    rounds: Option<u32>,
) -> Record {
    Record::new(ruleset, &ruleset.id, Some(seed), names, rounds)
}

impl Room {
    /// The room `stored` describes: its game started from the seed and moves by every stored
    /// move (as a record replays), each seat held by its person's token or, where `gate` is
    /// given, its bot named in `names` as the gate makes it ([`Gate::agent`]). Without a gate no
    /// bot is made: the room only rebuilds the game and its record (an export).
    pub(super) fn build(
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
        let mut room = Room {
            code: stored.code.clone(),
            ruleset,
            game,
            holders,
            names: names.clone(),
            seed: stored.seed,
            rounds: stored.rounds,
            content_hash: stored.content_hash.clone(),
            rules: stored.rules.clone(),
            moves: record.actions,
            watch: stored.watch.clone(),
            creator: stored.creator.clone(),
            store,
            changed: watch::channel(0).0,
            closed: stored.closed,
            tables: Vec::new(),
            gate: gate.unwrap_or_default(),
            hinted: None,
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
    pub(super) fn start(
        ruleset: Arc<Ruleset>,
        rules: Option<String>,
        seating: Seating,
        hands: Option<u32>,
        most_hands: u32,
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
            && !(1..=most_hands).contains(&h)
        {
            return Err(format!(
                "a room plays 1 to {most_hands} hands; {h} were asked"
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
            joined: false,
            created: 0,
            closed: false,
        };
        let mut room = Room::build(&stored, seating.holders(), ruleset, None, Some(gate))?;
        // A room of bots only plays in the background ([`super::rooms`]), not here.
        if !seating.bots_only() {
            room.play_bots();
        }
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
    pub(super) fn play_bots(&mut self) {
        self.play_bots_until(None);
    }

    /// [`Room::play_bots`], stopping after the first move made past `deadline` (a room of bots
    /// only plays in slices, between which other rooms move and spectators are told); true
    /// when a bot is still to move.
    pub(super) fn play_bots_until(&mut self, deadline: Option<Instant>) -> bool {
        if self.closed {
            return false;
        }
        let mut legal = Vec::new();
        while let Some(seat) = self.game.to_act() {
            let Some(Holder::Bot(bot)) = self.holders.get_mut(seat) else {
                return false;
            };
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return true;
            }
            self.game.legal_actions(&mut legal);
            let mut rng = agent_rng(self.seed.wrapping_add(self.moves.len() as u64));
            let action = bot.choose(&*self.game, seat, &legal, &mut rng);
            if let Some(notice) = bot.notice() {
                eprintln!("room: {notice}");
            }
            self.announce(seat, action);
            if self.game.apply(action).is_err() {
                return false;
            }
            self.tell_bots(seat, action);
            self.narrate();
            self.moves.push(step(seat, action, &self.ruleset));
        }
        false
    }

    /// True when every bot of the room is quick ([`Agent::quick`]): its work takes
    /// microseconds and is made on the quick lane (`serve::quick`).
    pub fn quick(&self) -> bool {
        self.holders.iter().all(|h| match h {
            Holder::Person { .. } => true,
            Holder::Bot(bot) => bot.quick(),
        })
    }

    /// True when no seat is held by a person: the game plays itself.
    pub fn bots_only(&self) -> bool {
        self.holders.iter().all(|h| matches!(h, Holder::Bot(_)))
    }

    /// Stores the moves made since move `from` in one transaction, then tells every
    /// connection. When the store fails, the room goes back to move `from`.
    pub(super) fn commit(&mut self, from: usize) -> Result<(), String> {
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
            // A finished game's programs are told so and stopped (dropping their agents ends
            // what is left of them).
            for holder in &mut self.holders {
                if let Holder::Bot(bot) = holder
                    && bot.name().starts_with("cmd:")
                {
                    bot.game_over(&*self.game);
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

    /// Tells each bot that watches the game (a seat program) `seat`'s move, just made.
    fn tell_bots(&mut self, seat: Seat, action: crate::core::Action) {
        for (watcher, holder) in self.holders.iter_mut().enumerate() {
            if let Holder::Bot(bot) = holder
                && bot.watches()
            {
                bot.saw(&*self.game, watcher, seat, action);
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
    pub(super) fn note(&mut self, notice: &str) {
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

    /// The first message of a connection: the game, the seat (none for a spectator), the deck
    /// with each card's face drawn (the page shows these faces; a program seat's hello has none).
    pub fn hello(&self, viewer: Viewer) -> String {
        let mut hello = match viewer {
            Viewer::Seat(seat) => protocol::hello(self.game.ruleset(), seat, self.game.seats()),
            Viewer::Spectator => protocol::hello_spectator(self.game.ruleset(), self.game.seats()),
        };
        let deck = &self.game.ruleset().deck;
        for (card, info) in deck.all().iter().zip(&mut hello.cards) {
            info.svg = Some(crate::deck::face::svg(deck, card));
        }
        serde_json::to_string(&hello).unwrap_or_default()
    }

    /// The game as `viewer` sees it now: a person's seat with its table as the page draws it.
    pub fn state(&self, viewer: Viewer) -> String {
        self.state_since(viewer, 0).0
    }

    /// [`Room::state`] with only the lines of the seat's log said after its first `since` (a
    /// connection sends each line once), and how many lines have been said, the next `since`.
    pub fn state_since(&self, viewer: Viewer, since: u64) -> (String, u64) {
        let (state, said) = match viewer {
            Viewer::Seat(seat) => match self.tables.get(seat) {
                Some(Some(table)) => (table.state_since(&*self.game, since), table.said()),
                _ => (protocol::state(&*self.game, seat), 0),
            },
            Viewer::Spectator => (protocol::watched(&*self.game), 0),
        };
        (serde_json::to_string(&state).unwrap_or_default(), said)
    }

    /// A person's answer: the move is checked, made and stored, and the bots move after it.
    pub fn answer(&mut self, viewer: Viewer, text: &str) -> Result<(), String> {
        let seat = self.person_to_act(viewer)?;
        let mut legal = Vec::new();
        self.game.legal_actions(&mut legal);
        let action = protocol::answered(text, &legal, self.game.ruleset())?;
        let from = self.moves.len();
        self.announce(seat, action);
        self.game.apply(action).map_err(|e| e.to_string())?;
        self.tell_bots(seat, action);
        self.narrate();
        self.moves.push(step(seat, action, &self.ruleset));
        self.play_bots();
        self.commit(from)
    }

    /// `viewer`'s seat when it is a person's seat whose turn it is in an open room; else why
    /// it may not move or ask what to move.
    fn person_to_act(&self, viewer: Viewer) -> Result<Seat, String> {
        let Viewer::Seat(seat) = viewer else {
            return Err("a spectator does not play".to_string());
        };
        if self.closed {
            return Err(CLOSED.to_string());
        }
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
        Ok(seat)
    }

    /// The hint for the seat to act, asked by its player (`front::hint`): the move a
    /// bot would make and why, as `{"type": "hint", "text", "choose", "lesson"}` (`choose`:
    /// the move's index in the seat's legal moves; `lesson`: the parts of a lesson, as
    /// `front::lesson::parts` gives them, for a page in Learn mode). The bots are the gate's; a hint is worked out once a
    /// move, so asking again costs nothing.
    pub fn hint(&mut self, viewer: Viewer) -> Result<String, String> {
        let seat = self.person_to_act(viewer)?;
        let at = self.moves.len();
        if let Some((s, m, text)) = &self.hinted
            && *s == seat
            && *m == at
        {
            return Ok(text.clone());
        }
        let Some(Some(table)) = self.tables.get(seat) else {
            return Err("this seat was handed to a bot".to_string());
        };
        let mut legal = Vec::new();
        self.game.legal_actions(&mut legal);
        let gate = Arc::clone(&self.gate);
        let (text, action) = crate::front::hint::hint(
            table.table(),
            &*self.game,
            seat,
            &legal,
            &|name, ruleset| gate.agent(name, ruleset).ok(),
        );
        let choose = action.and_then(|a| legal.iter().position(|&l| l == a));
        // The lesson's parts for a page that is learning: it shows each part once.
        let lesson = crate::front::lesson::parts(table.table(), &*self.game, &legal);
        let message = serde_json::json!({
            "type": "hint",
            "text": text,
            "choose": choose,
            "lesson": lesson,
        })
        .to_string();
        self.hinted = Some((seat, at, message.clone()));
        Ok(message)
    }

    /// Hands `seat` to the bot `bot`, asked by the holder of `token`: the seat's own token at
    /// any time, the creator's once the seat has been away for `away` (`gone`: how long the
    /// seat has been away, `None` while it is connected). The bot plays on at once.
    pub fn hand_over(
        &mut self,
        token: &str,
        seat: Seat,
        bot: &str,
        away: Duration,
        gone: Option<Duration>,
    ) -> Result<(), HandOverError> {
        let Some(Holder::Person { token: held }) = self.holders.get(seat) else {
            return Err(HandOverError::NoPerson { seat });
        };
        if held != token {
            if self.creator.as_deref() != Some(token) {
                return Err(HandOverError::NotYours);
            }
            if gone.is_none_or(|gone| gone < away) {
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

    /// The game's record so far, in yaku's record format (`yaku replay` reads it). A room of
    /// pasted rules embeds their text, as [`PASTED_FILE`], so that the record replays anywhere.
    pub fn record(&self) -> Record {
        let mut record = empty_record(&self.ruleset, self.seed, &self.names, self.rounds);
        record.ruleset.content_hash = Some(self.content_hash.clone());
        if let Some(text) = &self.rules {
            record.ruleset.spec = PASTED_FILE.to_string();
            record.ruleset.files = [(PASTED_FILE.to_string(), text.clone())].into();
        }
        record.actions = self.moves.clone();
        record.sync(&*self.game);
        if let Ok(events) = crate::families::record_events(&record, Arc::clone(&self.ruleset)) {
            record.events = events;
        }
        record
    }

    /// True once the game is over.
    pub fn is_over(&self) -> bool {
        self.game.is_over() || self.closed
    }

    /// True once the room's creator closed it.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Closes the room, asked by the holder of `token`, which must be its creator's: nobody
    /// moves in it again, every connection is told, and its record stays (as the game stood).
    pub fn close(&mut self, token: &str) -> Result<(), String> {
        if self.creator.as_deref() != Some(token) {
            return Err("only the room's creator closes it".to_string());
        }
        if self.closed {
            return Ok(());
        }
        if let Some(store) = &self.store {
            store.close(&self.code).map_err(|e| e.to_string())?;
        }
        self.closed = true;
        // Its programs are stopped (dropping their agents ends them).
        for holder in &mut self.holders {
            if matches!(holder, Holder::Bot(b) if b.name().starts_with("cmd:")) {
                *holder = Holder::Bot(Box::new(crate::agent::GreedyAgent));
            }
        }
        self.changed.send_modify(|v| *v += 1);
        Ok(())
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
