//! The rooms of a server, by code. Each room ([`Room`]) sits in a [`RoomCell`] behind an async
//! lock: a request for a busy room (its bots thinking) waits without holding one of the
//! runtime's threads, or is told the room is busy once [`Limits::room_queue`] requests wait, and
//! every game step and database call runs on the bounded pool of game threads. Rooms nobody
//! joins expire, finished and idle ones leave memory (they stay stored and come back when
//! asked for), and rooms of bots only play in the background, a few at a time.

use super::config::Limits;
use super::gate::{Gate, Seating};
pub use super::room::{Created, HandOverError, Room, Viewer};
use super::store::{Kept, Store, StoreError, StoredRoom};
use crate::core::record::Record;
use crate::ruleset::Ruleset;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedMutexGuard, OwnedSemaphorePermit, Semaphore};

/// How long a room of bots only plays before it lets the next room of bots have its turn (and
/// its spectators are told).
const BOTS_SLICE: Duration = Duration::from_millis(50);
/// How long a room nobody joined is kept in memory, once the rooms fill it, before it makes
/// way for a new one (it stays stored until it expires).
const UNJOINED_GRACE: Duration = Duration::from_secs(60);
/// How long a room nobody moves in is kept in memory, once the rooms fill it, before it makes
/// way for a new one (it stays stored).
const IDLE_GRACE: Duration = Duration::from_secs(10 * 60);

/// Milliseconds since the server's clock started: what the rooms' atomics hold.
fn clock() -> u64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_millis() as u64
}

/// Why a room could not be worked on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoomBusy {
    /// As many requests as the limit allows wait for the room already.
    Busy {
        /// How many may wait.
        queue: usize,
    },
    /// The room's work failed (the room is left as it was).
    Failed,
}

impl std::fmt::Display for RoomBusy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RoomBusy::Busy { queue } => write!(
                f,
                "the room is busy: {queue} requests wait for it already; try again in a moment"
            ),
            RoomBusy::Failed => f.write_str("the room failed"),
        }
    }
}

/// Why a room was not made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotMade {
    /// True when the server holds as many rooms as it may (try again later); false when the
    /// request was wrong (the seats, the hands).
    pub full: bool,
    /// Why, in words.
    pub reason: String,
}

impl From<String> for NotMade {
    fn from(reason: String) -> NotMade {
        NotMade {
            full: false,
            reason,
        }
    }
}

/// One seat's connections: how many are open, and when the last one closed.
#[derive(Default)]
struct Attendance {
    connections: AtomicU32,
    /// [`clock`] when the seat's last connection closed.
    left: AtomicU64,
}

/// A room as the server holds it: its game behind an async lock, a bound on the requests waiting
/// to work on it (moves, records, hand-overs; a connection's reads wait apart), and what the
/// limits and the sweeper read without the lock.
pub struct RoomCell {
    code: String,
    ruleset: Arc<Ruleset>,
    room: Arc<tokio::sync::Mutex<Room>>,
    waiting: Arc<Semaphore>,
    queue: usize,
    over: AtomicBool,
    /// True when a person holds one of its seats.
    people: bool,
    /// True once a person has connected to one of its seats (a room of bots only is joined).
    joined: AtomicBool,
    /// True once the server no longer holds it (expired, or made way for another).
    gone: AtomicBool,
    made: Instant,
    /// [`clock`] at its last move.
    touched: AtomicU64,
    seats: Box<[Attendance]>,
    store: Option<Arc<Store>>,
}

impl super::limits::CountedRoom for RoomCell {
    fn counts(&self) -> bool {
        RoomCell::counts(self)
    }
}

impl RoomCell {
    /// `room`, made at `made`, with `queue` requests allowed to wait for it.
    fn new(room: Room, made: Instant, joined: bool, queue: usize) -> RoomCell {
        let people = !room.bots_only();
        RoomCell {
            code: room.code.clone(),
            ruleset: Arc::clone(room.ruleset()),
            over: AtomicBool::new(room.is_over()),
            people,
            joined: AtomicBool::new(joined || !people),
            gone: AtomicBool::new(false),
            made,
            touched: AtomicU64::new(clock()),
            seats: (0..room.game.seats())
                .map(|_| Attendance::default())
                .collect(),
            store: room.store.clone(),
            waiting: Arc::new(Semaphore::new(queue.max(1))),
            queue,
            room: Arc::new(tokio::sync::Mutex::new(room)),
        }
    }

    /// The room's code.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// The ruleset the room plays (a pasted one too).
    pub fn ruleset(&self) -> &Arc<Ruleset> {
        &self.ruleset
    }

    /// True once the room's game is over.
    pub fn is_over(&self) -> bool {
        self.over.load(Ordering::Relaxed)
    }

    /// True while the room counts against its maker: the server holds it and its game is not
    /// over.
    pub fn counts(&self) -> bool {
        !self.is_over() && !self.gone.load(Ordering::Relaxed)
    }

    /// The room, for code that may block (tests, the game threads).
    pub fn blocking_lock(&self) -> tokio::sync::MutexGuard<'_, Room> {
        self.room.blocking_lock()
    }

    /// `work` on the room on the calling thread, which may block (a game thread, a test).
    pub fn work_blocking<T>(&self, work: impl FnOnce(&mut Room) -> T) -> T {
        let mut room = self.room.blocking_lock();
        let moves = room.moves.len();
        let out = work(&mut room);
        self.over.store(room.is_over(), Ordering::Relaxed);
        if room.moves.len() != moves {
            self.touched.store(clock(), Ordering::Relaxed);
        }
        out
    }

    /// A place in the room's queue, then the room: waited for without holding a thread.
    async fn enter(&self) -> Result<(OwnedSemaphorePermit, OwnedMutexGuard<Room>), RoomBusy> {
        let place = Arc::clone(&self.waiting)
            .try_acquire_owned()
            .map_err(|_| RoomBusy::Busy { queue: self.queue })?;
        let room = Arc::clone(&self.room).lock_owned().await;
        Ok((place, room))
    }

    /// `read` of the room, on the calling thread: for what takes microseconds (a seat's view).
    /// A read waits for the room without a place in its queue: each connection has at most
    /// one read waiting, and connections are bounded already.
    pub async fn read<T>(&self, read: impl FnOnce(&Room) -> T) -> Result<T, RoomBusy> {
        let room = self.room.lock().await;
        Ok(read(&room))
    }

    /// `work` on the room on a game thread (a move, the bots' replies, a store write): on the
    /// quick lane when every bot of the room is quick ([`Room::quick`]), else on the pool of
    /// game threads.
    pub async fn work<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Room) -> T + Send + 'static,
    ) -> Result<T, RoomBusy> {
        let entered = self.enter().await?;
        self.work_entered(entered, Lane::AsTheRoom, work).await
    }

    /// [`RoomCell::work`] always on the pool of game threads: work that may seat a slow bot
    /// and let it play (a hand-over).
    pub async fn work_apart<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Room) -> T + Send + 'static,
    ) -> Result<T, RoomBusy> {
        let entered = self.enter().await?;
        self.work_entered(entered, Lane::Games, work).await
    }

    async fn work_entered<T: Send + 'static>(
        &self,
        (place, mut room): (OwnedSemaphorePermit, OwnedMutexGuard<Room>),
        lane: Lane,
        work: impl FnOnce(&mut Room) -> T + Send + 'static,
    ) -> Result<T, RoomBusy> {
        let quick = lane == Lane::AsTheRoom && room.quick();
        let job = move || {
            let moves = room.moves.len();
            let out = work(&mut room);
            let _place = place;
            (out, room.is_over(), room.moves.len() != moves)
        };
        let (out, over, moved) = if quick {
            super::quick::run(job).await.ok_or(RoomBusy::Failed)?
        } else {
            tokio::task::spawn_blocking(job)
                .await
                .map_err(|_| RoomBusy::Failed)?
        };
        self.over.store(over, Ordering::Relaxed);
        if moved {
            self.touched.store(clock(), Ordering::Relaxed);
        }
        Ok(out)
    }

    /// Counts a connection of `viewer` until the returned guard is dropped; a person's first
    /// connection marks the room joined (it no longer expires).
    pub fn attend(self: &Arc<Self>, viewer: Viewer) -> Attending {
        if let Viewer::Seat(seat) = viewer {
            if let Some(a) = self.seats.get(seat) {
                a.connections.fetch_add(1, Ordering::Relaxed);
            }
            if !self.joined.swap(true, Ordering::Relaxed)
                && let Some(store) = self.store.clone()
            {
                let code = self.code.clone();
                let noted = move || {
                    if let Err(e) = store.joined(&code) {
                        eprintln!("room {code}: {e}");
                    }
                };
                match tokio::runtime::Handle::try_current() {
                    Ok(runtime) => drop(runtime.spawn_blocking(noted)),
                    Err(_) => noted(),
                }
            }
        }
        Attending {
            cell: Arc::clone(self),
            viewer,
        }
    }

    /// How long `seat` has been away: `None` while it is connected.
    pub fn away_for(&self, seat: usize) -> Option<Duration> {
        let a = self.seats.get(seat)?;
        if a.connections.load(Ordering::Relaxed) > 0 {
            return None;
        }
        let left = a.left.load(Ordering::Relaxed);
        let since = if left == 0 {
            self.made.elapsed().as_millis() as u64
        } else {
            clock().saturating_sub(left)
        };
        Some(Duration::from_millis(since))
    }

    /// True when no request holds the room (only the server's map does), so it may leave
    /// memory without a second copy being made of it.
    fn unheld(self: &Arc<Self>) -> bool {
        Arc::strong_count(self) == 1
    }

    /// True when nobody joined it within `grace` of its making.
    fn unjoined_for(&self, grace: Duration) -> bool {
        self.people && !self.joined.load(Ordering::Relaxed) && self.made.elapsed() >= grace
    }

    /// True when nobody moved in it for `grace`.
    fn idle_for(&self, grace: Duration) -> bool {
        clock().saturating_sub(self.touched.load(Ordering::Relaxed)) >= grace.as_millis() as u64
    }
}

/// A connection of a seat or spectator, counted by its room until dropped.
pub struct Attending {
    cell: Arc<RoomCell>,
    viewer: Viewer,
}

impl Drop for Attending {
    fn drop(&mut self) {
        if let Viewer::Seat(seat) = self.viewer
            && let Some(a) = self.cell.seats.get(seat)
        {
            a.left.store(clock().max(1), Ordering::Relaxed);
            a.connections.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// Where a room's work runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lane {
    /// The quick lane when every bot of the room is quick, else the game threads.
    AsTheRoom,
    /// The game threads (work of many moves, or that may seat a slow bot).
    Games,
}

/// Plays a room of bots only to its end in slices, each on a game thread once one of the
/// background places is free.
async fn play_in_background(cell: Arc<RoomCell>, places: Arc<Semaphore>) {
    loop {
        let Ok(_place) = places.acquire().await else {
            return;
        };
        let Ok(entered) = cell.enter_unbounded().await else {
            return;
        };
        let more = cell
            .work_entered(entered, Lane::Games, |room| {
                let from = room.moves.len();
                let more = room.play_bots_until(Some(Instant::now() + BOTS_SLICE));
                match room.commit(from) {
                    Ok(()) => more,
                    Err(why) => {
                        room.note(&format!("the game stopped: {why}"));
                        false
                    }
                }
            })
            .await;
        if !matches!(more, Ok(true)) {
            return;
        }
    }
}

impl RoomCell {
    /// [`RoomCell::enter`] outside the queue's bound: the room's own background play.
    async fn enter_unbounded(
        &self,
    ) -> Result<(OwnedSemaphorePermit, OwnedMutexGuard<Room>), RoomBusy> {
        let place = Arc::new(Semaphore::new(1))
            .try_acquire_owned()
            .map_err(|_| RoomBusy::Failed)?;
        Ok((place, Arc::clone(&self.room).lock_owned().await))
    }
}

/// Every room of a server, by code, and the store that keeps them.
pub struct Rooms {
    rooms: Mutex<HashMap<String, Arc<RoomCell>>>,
    store: Option<Arc<Store>>,
    /// Who may sit, for every room.
    gate: Arc<Gate>,
    limits: Limits,
    /// The places of the rooms of bots only playing at once.
    bot_places: Arc<Semaphore>,
}

impl Default for Rooms {
    /// Rooms in memory only, with the default gate and limits.
    fn default() -> Rooms {
        Rooms::new(Gate::default(), Limits::default())
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
    /// Rooms in memory only, seated through `gate`, held to `limits`.
    pub fn new(gate: Gate, limits: Limits) -> Rooms {
        Rooms {
            rooms: Mutex::default(),
            store: None,
            gate: Arc::new(gate),
            bot_places: Arc::new(Semaphore::new(limits.bot_rooms_playing.max(1))),
            limits,
        }
    }

    /// The rooms kept in `store`: every unfinished game is rebuilt from its seed and moves and
    /// waits where it was (finished ones are read when asked for). Rooms nobody moved in for
    /// the limits' `abandoned_time`, and rooms nobody joined within `unjoined_time`, are deleted
    /// first. Rooms that cannot be rebuilt (their ruleset is gone, or changed so that a move is
    /// no longer legal) stay stored and are listed with why, as are rooms whose rules changed
    /// but which play on. Every seat passes `gate` again: a holder it no longer lets in is
    /// played by greedy, with a warning among the problems. Rooms of bots only play on once
    /// the server runs ([`Rooms::resume`]).
    pub fn open(
        store: Store,
        gate: Gate,
        limits: Limits,
    ) -> Result<(Rooms, Vec<StoreError>), StoreError> {
        let store = Arc::new(
            store
                .keeping(Kept {
                    people: limits.finished_rooms,
                    bots: limits.finished_bot_rooms,
                })
                .touching_every(limits.abandoned_time / 8),
        );
        let gate = Arc::new(gate);
        let now = super::store::now();
        let secs = |t: Duration| t.as_secs().min(i64::MAX as u64) as i64;
        store.delete_abandoned(
            now.saturating_sub(secs(limits.abandoned_time)),
            now.saturating_sub(secs(limits.unjoined_time)),
        )?;
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
                    if !room.ruleset().same_rules(&stored.content_hash) {
                        problems.push(StoreError::RulesChanged {
                            code: code.clone(),
                            ruleset: stored.ruleset.clone(),
                        });
                    }
                    // A seat handed to a bot just before a stop: the bot plays on (a room of
                    // bots only plays on in the background).
                    if !room.bots_only() {
                        let from = room.moves.len();
                        room.play_bots();
                        if let Err(why) = room.commit(from) {
                            problems.push(StoreError::Room { code, reason: why });
                            continue;
                        }
                    }
                    let made = made_at(stored.created);
                    let cell = RoomCell::new(room, made, stored.joined, limits.room_queue);
                    rooms.insert(code, Arc::new(cell));
                }
                Err(e) => problems.push(e),
            }
        }
        let rooms = Rooms {
            rooms: Mutex::new(rooms),
            store: Some(store),
            gate,
            bot_places: Arc::new(Semaphore::new(limits.bot_rooms_playing.max(1))),
            limits,
        };
        Ok((rooms, problems))
    }

    /// Who may sit.
    pub fn gate(&self) -> &Gate {
        &self.gate
    }

    /// The store that keeps the rooms, if any.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_deref()
    }

    /// The limits the rooms are held to.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// How many rooms are in memory now.
    pub fn len(&self) -> usize {
        self.rooms.lock().map_or(0, |r| r.len())
    }

    /// True when no room is in memory.
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
            .map(|(created, _)| created)
            .map_err(|e| e.reason)
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
            .map(|(created, _)| created)
            .map_err(|e| e.reason)
    }

    /// Opens a room with seats the gate let in (`rules`: the pasted rule file's text, if any),
    /// on the calling thread (it may block: a game thread); the room as the server holds it. A
    /// room of bots only plays in the background within a runtime, and here without one.
    pub fn create_seated(
        &self,
        ruleset: Arc<Ruleset>,
        rules: Option<String>,
        seating: Seating,
        hands: Option<u32>,
    ) -> Result<(Created, Arc<RoomCell>), NotMade> {
        self.make_place()
            .map_err(|reason| NotMade { full: true, reason })?;
        // The bots' first moves are made with no lock held: every other room goes on meanwhile.
        let gate = Arc::clone(&self.gate);
        let bots_only = seating.bots_only();
        let (mut room, people) = Room::start(
            ruleset,
            rules,
            seating,
            hands,
            self.limits.hands,
            self.store.clone(),
            gate,
        )?;
        let runtime = tokio::runtime::Handle::try_current().ok();
        if bots_only && runtime.is_none() {
            let from = room.moves.len();
            room.play_bots();
            room.commit(from)?;
        }
        let created = Created {
            room: room.code.clone(),
            people,
            watch: room.watch.clone(),
        };
        let cell = Arc::new(RoomCell::new(
            room,
            Instant::now(),
            false,
            self.limits.room_queue,
        ));
        self.rooms
            .lock()
            .map_err(|_| "the server is stopping".to_string())?
            .insert(created.room.clone(), Arc::clone(&cell));
        if let Some(runtime) = runtime
            && bots_only
        {
            runtime.spawn(play_in_background(
                Arc::clone(&cell),
                Arc::clone(&self.bot_places),
            ));
        }
        Ok((created, cell))
    }

    /// Plays on every room of bots only whose game is not over (after a restart).
    pub fn resume(&self) {
        let cells: Vec<Arc<RoomCell>> = self.rooms.lock().map_or(Vec::new(), |rooms| {
            rooms
                .values()
                .filter(|c| !c.people && !c.is_over())
                .cloned()
                .collect()
        });
        for cell in cells {
            tokio::spawn(play_in_background(cell, Arc::clone(&self.bot_places)));
        }
    }

    /// Makes a place for a new room when the rooms in memory reach the limit: unheld rooms
    /// leave memory, finished ones first, then those nobody joined within a minute (oldest
    /// first), then those nobody moved in for ten minutes (longest idle first). They stay
    /// stored, and come back when asked for.
    fn make_place(&self) -> Result<(), String> {
        let mut rooms = self
            .rooms
            .lock()
            .map_err(|_| "the server is stopping".to_string())?;
        let most = self.limits.rooms;
        if rooms.len() < most {
            return Ok(());
        }
        // A room leaves memory only while no request holds it, so that no second copy of it is
        // ever loaded from the store.
        let leave = |rooms: &mut HashMap<String, Arc<RoomCell>>, code: &str| {
            if let Some(cell) = rooms.remove(code) {
                cell.gone.store(true, Ordering::Relaxed);
            }
        };
        let finished: Vec<String> = rooms
            .iter()
            .filter(|(_, c)| c.is_over() && c.unheld())
            .map(|(code, _)| code.clone())
            .collect();
        for code in finished {
            leave(&mut rooms, &code);
        }
        let mut candidates: Vec<(u8, u64, String)> = rooms
            .iter()
            .filter(|(_, c)| c.unheld() && c.store.is_some())
            .filter_map(|(code, c)| {
                if c.unjoined_for(UNJOINED_GRACE.min(self.limits.unjoined_time / 2)) {
                    Some((0, c.made.elapsed().as_millis() as u64, code.clone()))
                } else if c.idle_for(IDLE_GRACE) {
                    let idle = clock().saturating_sub(c.touched.load(Ordering::Relaxed));
                    Some((1, idle, code.clone()))
                } else {
                    None
                }
            })
            .collect();
        // Unjoined before idle; within each, the oldest or longest idle first.
        candidates.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        for (_, _, code) in candidates {
            if rooms.len() < most {
                break;
            }
            leave(&mut rooms, &code);
        }
        if rooms.len() >= most {
            return Err(format!(
                "the server holds {most} rooms with games in play already; try again later"
            ));
        }
        Ok(())
    }

    /// Deletes what has expired: rooms nobody joined within the limits' `unjoined_time` (from
    /// memory and the store: their codes no longer answer), rooms nobody moved in for
    /// `abandoned_time` (from the store), and lets finished rooms nobody holds leave memory.
    /// Blocks on the store: the server runs it on a game thread, every half minute.
    pub fn sweep(&self) {
        let mut expired = Vec::new();
        match self.rooms.lock() {
            Ok(mut rooms) => rooms.retain(|code, c| {
                let unjoined = c.unjoined_for(self.limits.unjoined_time);
                let leaves = c.unheld() && (c.is_over() || unjoined);
                if leaves {
                    c.gone.store(true, Ordering::Relaxed);
                    if unjoined {
                        expired.push(code.clone());
                    }
                }
                !leaves
            }),
            Err(_) => return,
        }
        let Some(store) = &self.store else {
            return;
        };
        for code in &expired {
            if let Err(e) = store.delete(code) {
                eprintln!("room {code}: {e}");
            }
        }
        let now = super::store::now();
        let secs = |t: Duration| t.as_secs().min(i64::MAX as u64) as i64;
        let deleted = store.delete_abandoned(
            now.saturating_sub(secs(self.limits.abandoned_time)),
            now.saturating_sub(secs(self.limits.unjoined_time)),
        );
        match deleted {
            Ok(codes) => {
                if let Ok(mut rooms) = self.rooms.lock() {
                    for code in codes {
                        if let Some(cell) = rooms.remove(&code) {
                            cell.gone.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
            Err(e) => eprintln!("the rooms database: {e}"),
        }
    }

    /// The room with this code, in memory only: what an async handler may ask without waiting.
    pub fn held(&self, code: &str) -> Option<Arc<RoomCell>> {
        self.rooms.lock().ok()?.get(code).cloned()
    }

    /// The room with this code: in memory, or read from the store (a finished game, or one that
    /// left memory). Blocks on the store: a game thread's call ([`Rooms::find`] on the async
    /// ones).
    pub fn get(&self, code: &str) -> Option<Arc<RoomCell>> {
        if let Some(cell) = self.held(code) {
            return Some(cell);
        }
        let store = self.store.as_ref()?;
        let stored = store.load(code).ok()??;
        let gate = Some(Arc::clone(&self.gate));
        let (room, _) = rebuild(&stored, Some(Arc::clone(store)), gate).ok()?;
        let over = room.is_over();
        let cell = Arc::new(RoomCell::new(
            room,
            made_at(stored.created),
            stored.joined,
            self.limits.room_queue,
        ));
        if over || self.make_place().is_err() {
            // A finished game is only read: it needs no place. A game in progress with no place
            // free is not served until one is.
            return over.then_some(cell);
        }
        let mut rooms = self.rooms.lock().ok()?;
        Some(Arc::clone(rooms.entry(code.to_string()).or_insert(cell)))
    }

    /// [`Rooms::get`] from an async handler: the store is read on a game thread.
    pub async fn find(self: &Arc<Self>, code: &str) -> Option<Arc<RoomCell>> {
        if let Some(cell) = self.held(code) {
            return Some(cell);
        }
        self.store.as_ref()?;
        let (rooms, code) = (Arc::clone(self), code.to_string());
        tokio::task::spawn_blocking(move || rooms.get(&code))
            .await
            .ok()
            .flatten()
    }
}

/// The instant a room stored at `created` (seconds since 1970) was made.
fn made_at(created: i64) -> Instant {
    let age = super::store::now().saturating_sub(created).max(0) as u64;
    Instant::now()
        .checked_sub(Duration::from_secs(age))
        .unwrap_or_else(Instant::now)
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
    // Pasted rules are embedded, as a rebuilt room's record embeds them.
    let (spec, files) = match stored.rules {
        Some(text) => {
            let name = super::room::PASTED_FILE.to_string();
            (name.clone(), [(name, text)].into())
        }
        None => (stored.ruleset.clone(), Default::default()),
    };
    Ok(Some(Record {
        format: crate::core::record::FORMAT.to_string(),
        version: crate::core::record::VERSION,
        ruleset: crate::core::record::RulesetRef {
            id: stored.ruleset.clone(),
            spec,
            content_hash: Some(stored.content_hash),
            files,
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
        events: Vec::new(),
    }))
}

#[cfg(test)]
mod tests {
    use super::super::room::{empty_record, secret, step};
    use super::*;
    use crate::core::Seat;
    use crate::core::record::Step;
    use crate::families::start_record;

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
        let mut room = room.blocking_lock();
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
    fn a_seat_asks_for_a_hint_with_its_reason_worked_out_once_a_move() {
        let rooms = Rooms::default();
        let players = ["human".to_string(), "greedy".to_string()];
        let created = rooms.create(koikoi(), &players, Some(1)).unwrap();
        let (seat, _) = created.people[0].clone();
        let room = rooms.get(&created.room).unwrap();
        let mut room = room.blocking_lock();
        // Play to the person's turn (the bot may deal and lead).
        while room.game.to_act() != Some(seat) {
            room.answer(Viewer::Seat(seat), r#"{"choose": 0}"#).unwrap();
        }
        let text = room.hint(Viewer::Seat(seat)).unwrap();
        let hint: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(hint["type"], "hint");
        let words = hint["text"].as_str().unwrap();
        assert!(words.starts_with("hint: the greedy bot would "), "{words}");
        assert!(words.contains("): "), "a reason: {words}");
        let state: serde_json::Value =
            serde_json::from_str(&room.state(Viewer::Seat(seat))).unwrap();
        let legal = state["legal"].as_array().unwrap().len() as u64;
        assert!(hint["choose"].as_u64().is_some_and(|i| i < legal), "{text}");
        // Asked again at the same move: the same answer.
        assert_eq!(room.hint(Viewer::Seat(seat)).unwrap(), text);
        assert_eq!(
            room.hint(Viewer::Spectator).unwrap_err(),
            "a spectator does not play"
        );
        // The suggested move is legal and taken like any answer.
        let choose = hint["choose"].as_u64().unwrap();
        room.answer(Viewer::Seat(seat), &format!(r#"{{"choose": {choose}}}"#))
            .unwrap();
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
        let mut room = room.blocking_lock();
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
        let (rooms, problems) = Rooms::open(
            Store::open(&path).unwrap(),
            Gate::default(),
            Limits::default(),
        )
        .unwrap();
        assert!(problems.is_empty());
        let players = ["human".to_string(), "expert".to_string()];
        let created = rooms.create(koikoi(), &players, Some(2)).unwrap();
        let (seat, token) = created.people[0].clone();
        let before = {
            let room = rooms.get(&created.room).unwrap();
            let mut room = room.blocking_lock();
            play(&mut room, seat, 5);
            (room.state(Viewer::Seat(seat)), room.moves.clone())
        };
        // The same game played on without a stop, to compare with.
        let whole = {
            let room = rooms.get(&created.room).unwrap();
            let mut room = room.blocking_lock();
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
            joined: true,
            created: 0,
            closed: false,
        };
        store.insert(&stored).unwrap();
        drop(store);
        let (rooms, problems) = Rooms::open(
            Store::open(&path).unwrap(),
            Gate::default(),
            Limits::default(),
        )
        .unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(rooms.len(), 1);
        let room = rooms.get(&created.room).unwrap();
        let mut room = room.blocking_lock();
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
        let (rooms, _) = Rooms::open(
            Store::open(&path).unwrap(),
            Gate::default(),
            Limits::default(),
        )
        .unwrap();
        assert_eq!(rooms.len(), 0);
        let room = rooms.get(&created.room).unwrap();
        assert_eq!(room.blocking_lock().record(), whole);
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
        let (rooms, _) = Rooms::open(
            Store::open(&path).unwrap(),
            Gate::default(),
            Limits::default(),
        )
        .unwrap();
        let text = "[ruleset]\nid = \"short\"\nextends = \"koikoi\"\nname = \"Short\"\n\n[flow]\nrounds = 1\n";
        let loaded = crate::ruleset::load_pasted(super::super::pasted::PASTED_NAME, text);
        let ruleset = Arc::new(loaded.value.unwrap());
        let players = ["human".to_string(), "greedy".to_string()];
        let created = (rooms.create_pasted(ruleset, text.to_string(), &players, None)).unwrap();
        let (seat, _) = created.people[0].clone();
        let before = {
            let room = rooms.get(&created.room).unwrap();
            let mut room = room.blocking_lock();
            play(&mut room, seat, 3);
            room.state(Viewer::Seat(seat))
        };
        drop(rooms);
        let (rooms, problems) = Rooms::open(
            Store::open(&path).unwrap(),
            Gate::default(),
            Limits::default(),
        )
        .unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        let room = rooms.get(&created.room).unwrap();
        let room = room.blocking_lock();
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
            joined: true,
            created: super::super::store::now(),
            closed: false,
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
        let (rooms, problems) = Rooms::open(store, Gate::default(), Limits::default()).unwrap();
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
        let record = room.blocking_lock().record();
        assert_eq!(
            record.ruleset.content_hash.as_deref(),
            Some("0000000000000000")
        );
    }

    #[test]
    fn a_move_that_cannot_be_stored_is_not_made() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("serve.sqlite")).unwrap();
        let (rooms, _) = Rooms::open(store, Gate::default(), Limits::default()).unwrap();
        let players = ["human".to_string(), "greedy".to_string()];
        let created = rooms.create(koikoi(), &players, Some(1)).unwrap();
        let (seat, _) = created.people[0];
        // The room's row is gone: its moves break the database's foreign key.
        rooms.store.as_ref().unwrap().delete(&created.room).unwrap();
        let room = rooms.get(&created.room).unwrap();
        let mut room = room.blocking_lock();
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
        let cell = rooms.get(&created.room).unwrap();
        let mut room = cell.blocking_lock();
        let long = Duration::from_secs(3600);
        let gone = |seat| cell.away_for(seat);
        // Seat 1 hands itself over; the creator (seat 0) may hand seat 2 only once it is away.
        assert_eq!(
            room.hand_over(&tokens[2], 1, "greedy", long, gone(1)),
            Err(HandOverError::NotYours)
        );
        assert_eq!(
            room.hand_over(&created.watch, 1, "greedy", long, gone(1)),
            Err(HandOverError::NotYours)
        );
        assert!(matches!(
            room.hand_over(&tokens[1], 1, "grredy", long, gone(1)),
            Err(HandOverError::Bot(_))
        ));
        room.hand_over(&tokens[1], 1, "greedy", long, gone(1))
            .unwrap();
        assert_eq!(room.viewer_of(&tokens[1]), None);
        assert_eq!(
            room.hand_over(&tokens[1], 1, "greedy", long, gone(1)),
            Err(HandOverError::NoPerson { seat: 1 })
        );
        assert!(matches!(
            room.hand_over(&tokens[0], 2, "greedy", long, gone(2)),
            Err(HandOverError::Here { seat: 2, .. })
        ));
        let connected = cell.attend(Viewer::Seat(2));
        assert_eq!(gone(2), None);
        assert!(matches!(
            room.hand_over(&tokens[0], 2, "greedy", Duration::ZERO, gone(2)),
            Err(HandOverError::Here { seat: 2, .. })
        ));
        drop(connected);
        assert!(gone(2).is_some());
        room.hand_over(&tokens[0], 2, "random", Duration::ZERO, gone(2))
            .unwrap();
        assert_eq!(room.record().players, ["human", "greedy", "random"]);
        assert_eq!(
            room.answer(Viewer::Seat(2), r#"{"choose": 0}"#)
                .unwrap_err(),
            "this seat was handed to a bot"
        );
        play(&mut room, 0, 200);
        assert!(room.is_over());
        room.hand_over(&tokens[0], 0, "greedy", long, gone(0))
            .unwrap();
    }

    #[test]
    fn a_spectator_sees_what_every_seat_sees_and_plays_nothing() {
        let rooms = Rooms::default();
        let players = ["human".to_string(), "greedy".to_string()];
        let created = rooms.create(koikoi(), &players, Some(1)).unwrap();
        let room = rooms.get(&created.room).unwrap();
        let mut room = room.blocking_lock();
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
