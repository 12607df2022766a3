//! Where `yaku serve` keeps its rooms: every room, its seats and every move, written to an SQLite
//! database as they are played, so that a server stopped at any moment comes back with each
//! game where it was (a game is rebuilt from its seed and moves, as a record replays).
//!
//! rusqlite with its `bundled` feature: SQLite is the well-kept embedded database whose
//! transactions survive a process killed mid-write, and the bundled build compiles it into yaku,
//! so there is nothing to install and every machine runs the same SQLite.

use crate::core::record::Step;
use rusqlite::{Connection, OptionalExtension, params};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The schema this program writes, kept in SQLite's `user_version`: 2 added whether a room
/// seats a person (`people`), whether one has joined it (`joined`), and the `server` table; 3
/// whether its creator closed it (`closed`).
const SCHEMA_VERSION: i64 = 3;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    rules TEXT,
    content_hash TEXT NOT NULL,
    seed INTEGER NOT NULL,
    rounds INTEGER,
    watch TEXT NOT NULL,
    creator TEXT,
    created INTEGER NOT NULL,
    touched INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    people INTEGER NOT NULL DEFAULT 1,
    joined INTEGER NOT NULL DEFAULT 1,
    closed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS rooms_by_age ON rooms (finished, touched);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    holder TEXT NOT NULL,
    token TEXT,
    PRIMARY KEY (code, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS moves (
    code TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    step TEXT NOT NULL,
    PRIMARY KEY (code, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS server (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rooms_by_kind ON rooms (finished, people, touched);
";

/// What schema 1 lacks: its rooms are taken as joined, and as seating a person when one of
/// their seats is a person's.
const FROM_SCHEMA_1: &str = "
ALTER TABLE rooms ADD COLUMN people INTEGER NOT NULL DEFAULT 1;
ALTER TABLE rooms ADD COLUMN joined INTEGER NOT NULL DEFAULT 1;
UPDATE rooms SET people = EXISTS (SELECT 1 FROM seats s WHERE s.code = rooms.code AND s.holder = 'human');
";

/// What schema 2 lacks: no room was closed.
const FROM_SCHEMA_2: &str = "ALTER TABLE rooms ADD COLUMN closed INTEGER NOT NULL DEFAULT 0;";

/// Why the store cannot be opened, read or written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// The path names something that is not a regular file (a directory, a device, a pipe).
    NotAFile {
        /// The path given.
        path: PathBuf,
        /// What it is instead.
        reason: String,
    },
    /// The folder the database would be made in does not exist.
    NoFolder {
        /// The path given.
        path: PathBuf,
    },
    /// The file is an SQLite database of another program, or of a newer yaku.
    Foreign {
        /// The path given.
        path: PathBuf,
        /// What it holds.
        reason: String,
    },
    /// SQLite refused: the file is not a database, the disk is full, ...
    Sqlite {
        /// SQLite's message.
        message: String,
    },
    /// The rules of a stored room changed since it was made: it plays on with the rules as
    /// they are now (a warning).
    RulesChanged {
        /// The room's code.
        code: String,
        /// The ruleset's spec.
        ruleset: String,
    },
    /// A stored room's seat is held by another than it was: its holder no longer passes the
    /// server's gate (a warning; the room plays on).
    Seat {
        /// The room's code.
        code: String,
        /// Which seat, which holder, and why.
        notice: String,
    },
    /// Another server serves from the database.
    InUse {
        /// The path given.
        path: PathBuf,
        /// Who holds it, as that server noted (its process and address).
        by: String,
    },
    /// A stored room does not fit this program (its ruleset changed or is gone).
    Room {
        /// The room's code.
        code: String,
        /// Why.
        reason: String,
    },
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::NotAFile { path, reason } => {
                write!(f, "the rooms database `{}`: {reason}", path.display())
            }
            StoreError::NoFolder { path } => write!(
                f,
                "the rooms database `{}`: its folder does not exist",
                path.display()
            ),
            StoreError::Foreign { path, reason } => {
                write!(
                    f,
                    "`{}` is not a yaku rooms database: {reason}",
                    path.display()
                )
            }
            StoreError::Sqlite { message } => write!(f, "the rooms database failed: {message}"),
            StoreError::InUse { path, by } => write!(
                f,
                "the rooms database `{}` is in use by another `yaku serve` ({by}): stop it first, or give this one another --db",
                path.display()
            ),
            StoreError::RulesChanged { code, ruleset } => write!(
                f,
                "room {code}: the rules of `{ruleset}` changed since it was made; its game plays on with the rules as they are now"
            ),
            StoreError::Seat { code, notice } => write!(f, "room {code}: {notice}"),
            StoreError::Room { code, reason } => {
                write!(f, "room {code} cannot be rebuilt: {reason}")
            }
        }
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Sqlite {
            message: e.to_string(),
        }
    }
}

/// A room as stored: what starts its game again, who holds each seat, and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredRoom {
    /// The room's code.
    pub code: String,
    /// The ruleset's spec (a bundled name).
    pub ruleset: String,
    /// The text of a rule file pasted on the page, for a room that plays one (the ruleset is
    /// then loaded from it, not by its spec).
    pub rules: Option<String>,
    /// The ruleset's content hash when the room was made, as records write it.
    pub content_hash: String,
    /// The game's seed.
    pub seed: u64,
    /// Hands asked for, if not the ruleset's length.
    pub rounds: Option<u32>,
    /// The spectators' token.
    pub watch: String,
    /// The creator's token (the first person's), who may hand an absent seat to a bot.
    pub creator: Option<String>,
    /// Each seat's holder: `human` or a bot's name.
    pub holders: Vec<String>,
    /// Each seat's token, for the seats people hold.
    pub tokens: Vec<Option<String>>,
    /// Every move, in order.
    pub moves: Vec<Step>,
    /// True once the game is over.
    pub finished: bool,
    /// True once a person has connected to one of its seats (a room of bots only is joined).
    pub joined: bool,
    /// When it was made, in seconds since 1970 (written by [`Store::insert`]).
    pub created: i64,
    /// True once its creator closed it (it is then finished too).
    pub closed: bool,
}

impl StoredRoom {
    /// True when a person holds one of its seats.
    pub fn seats_people(&self) -> bool {
        self.holders.iter().any(|h| h == super::gate::HUMAN)
    }
}

/// How many finished games the store keeps of each kind: past it the oldest are deleted with
/// their moves, each kind apart, so that games of bots only never push a person's game out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kept {
    /// Finished games with a person's seat.
    pub people: usize,
    /// Finished games of bots only.
    pub bots: usize,
}

/// A line of [`Store::list`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The room's code.
    pub code: String,
    /// The ruleset's spec.
    pub ruleset: String,
    /// Each seat's holder.
    pub holders: Vec<String>,
    /// Moves made.
    pub moves: usize,
    /// True once the game is over.
    pub finished: bool,
    /// When it was last moved in, in seconds since 1970.
    pub touched: i64,
}

/// The rooms database. Every call blocks on SQLite: the server makes them on its game threads,
/// never on the async ones.
pub struct Store {
    db: Mutex<Connection>,
    kept: Kept,
    /// How stale, in seconds, a room's stored last move may be before a move writes it again
    /// ([`Store::touching_every`]).
    touch_every: i64,
    /// The database's file, for [`Store::hold`].
    path: Option<PathBuf>,
    /// The file held locked while a server serves from it.
    _held: Option<std::fs::File>,
}

/// The most a room's stored time of last move lags behind its moves, in seconds.
pub const TOUCH_EVERY: i64 = 60;

/// Seconds since 1970.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Where rooms are kept when `--db` does not say: `$XDG_DATA_HOME/yaku/serve.sqlite`, or
/// `~/.local/share/yaku/serve.sqlite`; `None` when neither variable is set.
pub fn default_path() -> Option<PathBuf> {
    // A relative (or empty) XDG_DATA_HOME is ignored, as the XDG base directory spec says.
    let set = |v: &str| {
        std::env::var_os(v)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let data = set("XDG_DATA_HOME").or_else(|| set("HOME").map(|h| h.join(".local/share")))?;
    Some(data.join("yaku").join("serve.sqlite"))
}

impl Store {
    /// Opens (or makes) the database at `path`, which must be a regular file or name nothing
    /// yet in a folder that exists. A directory, a device or a pipe is refused before SQLite
    /// opens anything.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        if let Some(reason) = crate::fsio::write_target_problem(path) {
            return Err(StoreError::NotAFile {
                path: path.to_path_buf(),
                reason,
            });
        }
        let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
        if folder.is_some_and(|f| !f.is_dir()) {
            return Err(StoreError::NoFolder {
                path: path.to_path_buf(),
            });
        }
        // Made readable by its owner only: it holds the seat tokens, and the seed of every game
        // in progress (its deals). SQLite gives its WAL files the same mode.
        if std::fs::symlink_metadata(path).is_err() {
            use std::os::unix::fs::OpenOptionsExt;
            let made = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(path);
            if let Err(e) = made
                && e.kind() != std::io::ErrorKind::AlreadyExists
            {
                return Err(StoreError::Sqlite {
                    message: format!("cannot make `{}`: {e}", path.display()),
                });
            }
        }
        let db = Connection::open(path)?;
        let mut store = Store::set_up(db, Some(path))?;
        store.path = Some(path.to_path_buf());
        Ok(store)
    }

    /// Takes the database for this process alone, as long as the store lives: a second server
    /// on the same file is refused with who holds it, rather than serving its own copy of each
    /// room. Readers (`--rooms`, `--export`) need no hold. A store in memory is held already.
    pub fn hold(&mut self) -> Result<(), StoreError> {
        use std::os::fd::AsRawFd;
        let Some(path) = self.path.clone() else {
            return Ok(());
        };
        let file = std::fs::File::open(&path).map_err(|e| StoreError::Sqlite {
            message: format!("cannot open `{}`: {e}", path.display()),
        })?;
        // SAFETY: flock on a descriptor this function owns; the lock is released when the file
        // is closed (the store dropped, or the process gone).
        let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if locked != 0 {
            let by = self.noted("pid").map_or_else(
                || "whose process is unknown".to_string(),
                |pid| {
                    let url = self.noted("url").unwrap_or_default();
                    format!("process {pid}, serving {url}")
                },
            );
            return Err(StoreError::InUse { path, by });
        }
        self._held = Some(file);
        Ok(())
    }

    /// Notes who serves from the database (this process, at `url`, listening on `listen`), for
    /// a second server's refusal and for the next start's address.
    pub fn note_server(&self, url: &str, listen: std::net::SocketAddr) -> Result<(), StoreError> {
        let db = self.db()?;
        for (key, value) in [
            ("pid", std::process::id().to_string()),
            ("url", url.to_string()),
            ("listen", listen.to_string()),
        ] {
            db.execute(
                "INSERT INTO server (key, value) VALUES (?1, ?2)
                 ON CONFLICT (key) DO UPDATE SET value = ?2",
                params![key, value],
            )?;
        }
        Ok(())
    }

    /// What the last server noted under `key` (`pid`, `url`, `listen`).
    pub fn noted(&self, key: &str) -> Option<String> {
        self.db()
            .ok()?
            .query_row("SELECT value FROM server WHERE key = ?1", [key], |r| {
                r.get(0)
            })
            .optional()
            .ok()?
    }

    /// A database in memory, gone when the store is dropped (for tests).
    pub fn in_memory() -> Result<Store, StoreError> {
        Store::set_up(Connection::open_in_memory()?, None)
    }

    fn set_up(db: Connection, path: Option<&Path>) -> Result<Store, StoreError> {
        let foreign = |reason: String| StoreError::Foreign {
            path: path.map(Path::to_path_buf).unwrap_or_default(),
            reason,
        };
        // A file that is not SQLite fails here, at its first read.
        let version: i64 = db
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| foreign(e.to_string()))?;
        if version > SCHEMA_VERSION {
            return Err(foreign(format!(
                "it was written by a newer yaku (schema {version}; this one reads {SCHEMA_VERSION})"
            )));
        }
        if version == 0 {
            let tables: i64 = db.query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table'",
                [],
                |r| r.get(0),
            )?;
            if tables > 0 {
                return Err(foreign(
                    "it is an SQLite database of another program".to_string(),
                ));
            }
        }
        // The write-ahead log keeps every committed move through a killed process; NORMAL
        // syncs it at checkpoints, so a power cut may lose the last moves but never breaks a
        // game. A second process (an export) reads while the server writes.
        db.pragma_update(None, "journal_mode", "WAL")?;
        db.pragma_update(None, "synchronous", "NORMAL")?;
        db.pragma_update(None, "foreign_keys", true)?;
        db.busy_timeout(std::time::Duration::from_secs(5))?;
        if version == 1 {
            db.execute_batch(FROM_SCHEMA_1)?;
        }
        if (1..=2).contains(&version) {
            db.execute_batch(FROM_SCHEMA_2)?;
        }
        db.execute_batch(SCHEMA)?;
        db.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        let limits = super::config::Limits::default();
        let kept = Kept {
            people: limits.finished_rooms,
            bots: limits.finished_bot_rooms,
        };
        Ok(Store {
            db: Mutex::new(db),
            kept,
            touch_every: TOUCH_EVERY,
            path: None,
            _held: None,
        })
    }

    /// The same store keeping `kept` finished games of each kind.
    pub fn keeping(mut self, kept: Kept) -> Store {
        self.kept = kept;
        self
    }

    /// The same store writing a room's time of last move only when the stored one is older
    /// than `every` (at most [`TOUCH_EVERY`]): a move then writes its own row and no page of
    /// the rooms table or its indexes, which halved a move's cost to the server. Rooms are
    /// judged abandoned by that time, so `every` is a small part of the time they are kept.
    pub fn touching_every(mut self, every: std::time::Duration) -> Store {
        self.touch_every = (every.as_secs() as i64).min(TOUCH_EVERY);
        self
    }

    fn db(&self) -> Result<std::sync::MutexGuard<'_, Connection>, StoreError> {
        self.db.lock().map_err(|_| StoreError::Sqlite {
            message: "a write failed midway".to_string(),
        })
    }

    /// Stores a new room with its first moves (the bots' before a person acts), at once.
    pub fn insert(&self, room: &StoredRoom) -> Result<(), StoreError> {
        let mut db = self.db()?;
        let tx = db.transaction()?;
        let now = now();
        tx.execute(
            "INSERT INTO rooms (code, ruleset, content_hash, seed, rounds, watch, creator, created, touched, finished, rules, people, joined)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9, ?10, ?11, ?12)",
            params![
                room.code,
                room.ruleset,
                room.content_hash,
                room.seed as i64,
                room.rounds,
                room.watch,
                room.creator,
                now,
                room.finished,
                room.rules,
                room.seats_people(),
                room.joined || !room.seats_people()
            ],
        )?;
        for (seat, (holder, token)) in room.holders.iter().zip(&room.tokens).enumerate() {
            tx.execute(
                "INSERT INTO seats (code, seat, holder, token) VALUES (?1, ?2, ?3, ?4)",
                params![room.code, seat as i64, holder, token],
            )?;
        }
        insert_moves(&tx, &room.code, 0, &room.moves)?;
        tx.commit()?;
        drop(db);
        if room.finished {
            self.prune()?;
        }
        Ok(())
    }

    /// Appends moves to a room (the first of them is move `from`, 0-based), at once.
    pub fn append(
        &self,
        code: &str,
        from: usize,
        moves: &[Step],
        finished: bool,
    ) -> Result<(), StoreError> {
        let mut db = self.db()?;
        let tx = db.transaction()?;
        insert_moves(&tx, code, from, moves)?;
        tx.prepare_cached(
            "UPDATE rooms SET touched = ?2, finished = ?3
             WHERE code = ?1 AND (finished != ?3 OR touched <= ?2 - ?4)",
        )?
        .execute(params![code, now(), finished, self.touch_every])?;
        tx.commit()?;
        drop(db);
        if finished {
            self.prune()?;
        }
        Ok(())
    }

    /// Closes room `code`, as its creator asked: finished, and closed.
    pub fn close(&self, code: &str) -> Result<(), StoreError> {
        self.db()?.execute(
            "UPDATE rooms SET finished = 1, closed = 1, touched = ?2 WHERE code = ?1",
            params![code, now()],
        )?;
        drop(self.prune());
        Ok(())
    }

    /// Notes that a person has connected to a seat of room `code`: it no longer expires
    /// unjoined.
    pub fn joined(&self, code: &str) -> Result<(), StoreError> {
        self.db()?
            .execute("UPDATE rooms SET joined = 1 WHERE code = ?1", [code])?;
        Ok(())
    }

    /// Gives `seat` of a room to the bot `bot`: its token no longer holds it.
    pub fn hand_over(&self, code: &str, seat: usize, bot: &str) -> Result<(), StoreError> {
        self.db()?.execute(
            "UPDATE seats SET holder = ?3, token = NULL WHERE code = ?1 AND seat = ?2",
            params![code, seat as i64, bot],
        )?;
        Ok(())
    }

    /// The room with this code, if stored.
    pub fn load(&self, code: &str) -> Result<Option<StoredRoom>, StoreError> {
        let db = self.db()?;
        let head = db
            .query_row(
                "SELECT ruleset, content_hash, seed, rounds, watch, creator, finished, rules, joined, created, closed
                 FROM rooms WHERE code = ?1",
                [code],
                |r| {
                    Ok(StoredRoom {
                        code: code.to_string(),
                        ruleset: r.get(0)?,
                        content_hash: r.get(1)?,
                        seed: r.get::<_, i64>(2)? as u64,
                        rounds: r.get(3)?,
                        watch: r.get(4)?,
                        creator: r.get(5)?,
                        holders: Vec::new(),
                        tokens: Vec::new(),
                        moves: Vec::new(),
                        finished: r.get(6)?,
                        rules: r.get(7)?,
                        joined: r.get(8)?,
                        created: r.get(9)?,
                        closed: r.get(10)?,
                    })
                },
            )
            .optional()?;
        let Some(mut room) = head else {
            return Ok(None);
        };
        let mut seats =
            db.prepare("SELECT holder, token FROM seats WHERE code = ?1 ORDER BY seat")?;
        for seat in seats.query_map([code], |r| Ok((r.get(0)?, r.get(1)?)))? {
            let (holder, token) = seat?;
            room.holders.push(holder);
            room.tokens.push(token);
        }
        let mut moves = db.prepare("SELECT n, step FROM moves WHERE code = ?1 ORDER BY n")?;
        for (i, step) in moves
            .query_map([code], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
            })?
            .enumerate()
        {
            let (n, step) = step?;
            let bad = |reason: String| StoreError::Room {
                code: code.to_string(),
                reason,
            };
            if n != i as i64 {
                return Err(bad(format!("move {i} is missing")));
            }
            room.moves
                .push(serde_json::from_str(&step).map_err(|e| bad(format!("move {i}: {e}")))?);
        }
        Ok(Some(room))
    }

    /// The codes of the unfinished rooms, oldest first.
    pub fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        let db = self.db()?;
        let mut query = db.prepare("SELECT code FROM rooms WHERE finished = 0 ORDER BY created")?;
        let codes = query
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(codes)
    }

    /// Every stored room, the last moved in first.
    pub fn list(&self) -> Result<Vec<Listed>, StoreError> {
        let db = self.db()?;
        let mut query = db.prepare(
            "SELECT r.code, r.ruleset, r.finished, r.touched,
                    (SELECT group_concat(holder, ',') FROM (SELECT holder FROM seats s WHERE s.code = r.code ORDER BY seat)),
                    (SELECT count(*) FROM moves m WHERE m.code = r.code)
             FROM rooms r ORDER BY r.touched DESC",
        )?;
        let listed = query
            .query_map([], |r| {
                let holders: Option<String> = r.get(4)?;
                Ok(Listed {
                    code: r.get(0)?,
                    ruleset: r.get(1)?,
                    finished: r.get(2)?,
                    touched: r.get(3)?,
                    holders: holders
                        .unwrap_or_default()
                        .split(',')
                        .map(str::to_string)
                        .collect(),
                    moves: r.get::<_, i64>(5)? as usize,
                })
            })?
            .collect::<Result<_, _>>()?;
        Ok(listed)
    }

    /// Deletes a room and its moves.
    pub fn delete(&self, code: &str) -> Result<(), StoreError> {
        self.db()?
            .execute("DELETE FROM rooms WHERE code = ?1", [code])?;
        Ok(())
    }

    /// Deletes the unfinished rooms nobody has moved in since `before` (seconds since 1970),
    /// and those no person joined that were made before `unjoined`; their codes.
    pub fn delete_abandoned(&self, before: i64, unjoined: i64) -> Result<Vec<String>, StoreError> {
        const GONE: &str = "finished = 0 AND (touched < ?1 OR (joined = 0 AND created < ?2))";
        let mut db = self.db()?;
        let tx = db.transaction()?;
        let codes: Vec<String> = tx
            .prepare(&format!("SELECT code FROM rooms WHERE {GONE}"))?
            .query_map([before, unjoined], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        tx.execute(
            &format!("DELETE FROM rooms WHERE {GONE}"),
            [before, unjoined],
        )?;
        tx.commit()?;
        Ok(codes)
    }

    /// Keeps the newest finished rooms of each kind, as many as [`Kept`] says.
    fn prune(&self) -> Result<(), StoreError> {
        let db = self.db()?;
        for (people, keep) in [(true, self.kept.people), (false, self.kept.bots)] {
            db.execute(
                "DELETE FROM rooms WHERE code IN (SELECT code FROM rooms WHERE finished = 1
                 AND people = ?1 ORDER BY touched DESC LIMIT -1 OFFSET ?2)",
                params![people, keep as i64],
            )?;
        }
        Ok(())
    }
}

fn insert_moves(
    tx: &rusqlite::Transaction<'_>,
    code: &str,
    from: usize,
    moves: &[Step],
) -> Result<(), StoreError> {
    let mut insert = tx.prepare_cached("INSERT INTO moves (code, n, step) VALUES (?1, ?2, ?3)")?;
    for (i, step) in moves.iter().enumerate() {
        let json = serde_json::to_string(step).map_err(|e| StoreError::Sqlite {
            message: e.to_string(),
        })?;
        insert.execute(params![code, (from + i) as i64, json])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::record::StepAction;

    fn room(code: &str, finished: bool) -> StoredRoom {
        StoredRoom {
            rules: None,
            code: code.to_string(),
            ruleset: "koikoi".to_string(),
            content_hash: "0123456789abcdef".to_string(),
            seed: u64::MAX - 7,
            rounds: Some(2),
            watch: "w".to_string(),
            creator: Some("t0".to_string()),
            holders: vec!["human".to_string(), "greedy".to_string()],
            tokens: vec![Some("t0".to_string()), None],
            moves: vec![Step {
                seat: Some(0),
                action: StepAction::Play {
                    card: "pine-crane".to_string(),
                },
            }],
            finished,
            joined: false,
            created: 0,
            closed: false,
        }
    }

    /// A move writes the room's time of last move only when the stored one is older than the
    /// store's step; finishing the game always writes it.
    #[test]
    fn a_move_writes_the_time_of_last_move_only_when_it_is_stale() {
        let touched = |store: &Store| -> i64 {
            let db = store.db().unwrap();
            db.query_row("SELECT touched FROM rooms WHERE code = 'a'", [], |r| {
                r.get(0)
            })
            .unwrap()
        };
        let step = |n: usize| {
            vec![Step {
                seat: Some(n % 2),
                action: StepAction::Play {
                    card: format!("c{n}"),
                },
            }]
        };
        let store = Store::in_memory().unwrap();
        store.insert(&room("a", false)).unwrap();
        let set = |t: i64| {
            let db = store.db().unwrap();
            db.execute("UPDATE rooms SET touched = ?1", [t]).unwrap();
        };
        let fresh = now() - 30;
        set(fresh);
        store.append("a", 1, &step(1), false).unwrap();
        assert_eq!(touched(&store), fresh, "fresh enough: not written");
        set(now() - TOUCH_EVERY - 1);
        store.append("a", 2, &step(2), false).unwrap();
        assert!(touched(&store) >= now() - 1, "stale: written");
        set(now() - 30);
        store.append("a", 3, &step(3), true).unwrap();
        assert!(touched(&store) >= now() - 1, "finished: written");
        let store = Store::in_memory()
            .unwrap()
            .touching_every(std::time::Duration::ZERO);
        store.insert(&room("a", false)).unwrap();
        let db_set = |t: i64| {
            let db = store.db().unwrap();
            db.execute("UPDATE rooms SET touched = ?1", [t]).unwrap();
        };
        let before = now() - 1;
        db_set(before);
        store.append("a", 1, &step(1), false).unwrap();
        assert!(touched(&store) > before, "every move writes it");
    }

    #[test]
    fn a_room_comes_back_as_it_was_stored() {
        let store = Store::in_memory().unwrap();
        let mut stored = room("a", false);
        store.insert(&stored).unwrap();
        let more = vec![Step {
            seat: Some(1),
            action: StepAction::Declare {
                id: "koikoi".to_string(),
                card: None,
            },
        }];
        store.append("a", 1, &more, true).unwrap();
        store.hand_over("a", 0, "expert").unwrap();
        stored.moves.extend(more);
        stored.finished = true;
        stored.holders[0] = "expert".to_string();
        stored.tokens[0] = None;
        let loaded = store.load("a").unwrap().unwrap();
        assert!(loaded.created >= now() - 60);
        stored.created = loaded.created;
        assert_eq!(loaded, stored);
        store.joined("a").unwrap();
        assert!(store.load("a").unwrap().unwrap().joined);
        assert_eq!(store.load("b").unwrap(), None);
        assert!(store.unfinished().unwrap().is_empty());
        let listed = store.list().unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!((listed[0].moves, listed[0].finished), (2, true));
        assert_eq!(listed[0].holders, ["expert", "greedy"]);
        // A move stored twice is refused, and the transaction leaves nothing of it.
        assert!(store.append("a", 1, &[], false).is_ok());
        let twice = store.load("a").unwrap().unwrap().moves;
        assert!(store.append("a", 0, &twice, false).is_err());
        assert_eq!(store.load("a").unwrap().unwrap().moves, twice);
        store.delete("a").unwrap();
        assert_eq!(store.load("a").unwrap(), None);
    }

    #[test]
    fn abandoned_unjoined_and_old_finished_rooms_go() {
        let store = Store::in_memory().unwrap();
        store.insert(&room("old", false)).unwrap();
        let (past, future) = (now() - 60, now() + 60);
        assert!(store.delete_abandoned(past, past).unwrap().is_empty());
        // Not joined: it goes once made before the time given.
        assert_eq!(store.delete_abandoned(past, future).unwrap(), ["old"]);
        store.insert(&room("joined", false)).unwrap();
        store.joined("joined").unwrap();
        assert!(store.delete_abandoned(past, future).unwrap().is_empty());
        assert_eq!(store.delete_abandoned(future, past).unwrap(), ["joined"]);
        assert!(store.list().unwrap().is_empty());
        // Finished games of each kind are kept apart: games of bots only never push out a
        // person's.
        let store = store.keeping(Kept { people: 2, bots: 1 });
        let bots = |code: &str| StoredRoom {
            holders: vec!["greedy".to_string(), "random".to_string()],
            tokens: vec![None, None],
            creator: None,
            ..room(code, true)
        };
        for code in ["p1", "p2"] {
            store.insert(&room(code, true)).unwrap();
        }
        for code in ["b1", "b2", "b3"] {
            store.insert(&bots(code)).unwrap();
        }
        let mut kept: Vec<String> = store.list().unwrap().into_iter().map(|l| l.code).collect();
        kept.sort();
        assert_eq!(kept.len(), 3, "{kept:?}");
        assert_eq!(kept.iter().filter(|c| c.starts_with('b')).count(), 1);
        assert!(kept.contains(&"p1".to_string()) && kept.contains(&"p2".to_string()));
        store.insert(&room("p3", true)).unwrap();
        assert_eq!(store.list().unwrap().len(), 3);
    }

    #[test]
    fn a_schema_1_database_is_upgraded_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite");
        {
            let db = Connection::open(&path).unwrap();
            db.execute_batch(
                "CREATE TABLE rooms (code TEXT PRIMARY KEY, ruleset TEXT NOT NULL, rules TEXT,
                 content_hash TEXT NOT NULL, seed INTEGER NOT NULL, rounds INTEGER,
                 watch TEXT NOT NULL, creator TEXT, created INTEGER NOT NULL,
                 touched INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0);
                 CREATE TABLE seats (code TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
                 seat INTEGER NOT NULL, holder TEXT NOT NULL, token TEXT, PRIMARY KEY (code, seat))
                 WITHOUT ROWID;
                 CREATE TABLE moves (code TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
                 n INTEGER NOT NULL, step TEXT NOT NULL, PRIMARY KEY (code, n)) WITHOUT ROWID;
                 INSERT INTO rooms VALUES ('p', 'koikoi', NULL, 'h', 1, 1, 'w', 't', 5, 5, 1);
                 INSERT INTO seats VALUES ('p', 0, 'human', 't'), ('p', 1, 'greedy', NULL);
                 INSERT INTO rooms VALUES ('b', 'koikoi', NULL, 'h', 1, 1, 'w', NULL, 5, 5, 1);
                 INSERT INTO seats VALUES ('b', 0, 'random', NULL), ('b', 1, 'greedy', NULL);
                 PRAGMA user_version = 1;",
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let kinds: Vec<(String, bool, bool)> = store
            .db()
            .unwrap()
            .prepare("SELECT code, people, joined FROM rooms ORDER BY code")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(
            kinds,
            [
                ("b".to_string(), false, true),
                ("p".to_string(), true, true)
            ]
        );
        assert!(store.load("p").unwrap().unwrap().joined);
        drop(store);
        // Opened again, it is the newest schema already.
        assert!(Store::open(&path).is_ok());
    }

    #[test]
    fn only_a_regular_file_or_a_new_name_is_opened() {
        let dir = tempfile::tempdir().unwrap();
        let err = Store::open(dir.path()).err().unwrap();
        assert!(matches!(err, StoreError::NotAFile { .. }), "{err}");
        assert!(err.to_string().contains("directory"), "{err}");
        let nowhere = dir.path().join("no/such/folder.sqlite");
        let err = Store::open(&nowhere).err().unwrap();
        assert!(err.to_string().contains("folder does not exist"), "{err}");
        let text = dir.path().join("notes.txt");
        std::fs::write(
            &text,
            "not a database, but long enough to be read as one: ".repeat(40),
        )
        .unwrap();
        let err = Store::open(&text).err().unwrap();
        assert!(matches!(err, StoreError::Foreign { .. }), "{err}");
        let path = dir.path().join("serve.sqlite");
        Store::open(&path)
            .unwrap()
            .insert(&room("a", false))
            .unwrap();
        assert_eq!(Store::open(&path).unwrap().unfinished().unwrap(), ["a"]);
        let other = dir.path().join("other.sqlite");
        Connection::open(&other)
            .unwrap()
            .execute_batch("CREATE TABLE t (x)")
            .unwrap();
        let err = Store::open(&other).err().unwrap();
        assert!(err.to_string().contains("another program"), "{err}");
    }
}
