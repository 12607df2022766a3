//! Every limit of `yaku serve`, with its default and its meaning in one table ([`KEYS`]), so that
//! an operator can change any of them (`--limit KEY=VALUE`, or a `[limits]` table in a
//! `--config` file) and the guide lists them all. The rest of the server reads [`Limits`].

use std::time::Duration;

/// The limits a server holds its clients, its rooms and its store to. [`Limits::default`] is what
/// `yaku serve` uses; [`KEYS`] names and explains each field.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// The longest message (and WebSocket frame) a seat may send, in bytes.
    pub message_bytes: usize,
    /// Refused messages a second a seat's connection may send (answers that are no legal move
    /// now, and messages that are no answer), on average over [`Limits::message_burst`].
    pub messages_per_second: f64,
    /// Refused messages a seat's connection may send at once before the rate applies.
    pub message_burst: f64,
    /// HTTP requests a second one client address may make (WebSocket upgrades included).
    pub requests_per_second: f64,
    /// Requests one client address may make at once before the rate applies.
    pub request_burst: f64,
    /// The largest HTTP request body, in bytes (a pasted rule file has its own bound).
    pub body_bytes: usize,
    /// The largest rule file pasted on the page, in bytes.
    pub pasted_bytes: usize,
    /// Pasted rule files checked at once (each costs up to a few hundred times its size while
    /// it is parsed); more are told to try again.
    pub pasted_checks: usize,
    /// Rooms held in memory that play a pasted rule file (each holds its own loaded rules,
    /// about a megabyte), over all clients.
    pub pasted_rooms: usize,
    /// Rooms whose game is not over that one client address may have opened.
    pub rooms_per_address: usize,
    /// Rooms being set up at once (their bots' first moves), over all clients.
    pub rooms_starting: usize,
    /// Rooms whose game is not over holding a program the operator named (`--bot`), over all
    /// clients: each runs a process per such seat.
    pub program_rooms: usize,
    /// Rooms held in memory at once (finished, idle and unjoined ones make way for new ones).
    pub rooms: usize,
    /// Rooms of bots only whose games play at once, in the background; more wait their turn.
    pub bot_rooms_playing: usize,
    /// How long a room with a person's seat may wait for any person to join before it expires.
    pub unjoined_time: Duration,
    /// How long an unfinished room nobody moves in is kept in the database.
    pub abandoned_time: Duration,
    /// Finished games with a person's seat kept in the database (the oldest go first).
    pub finished_rooms: usize,
    /// Finished games of bots only kept in the database, apart from people's.
    pub finished_bot_rooms: usize,
    /// Requests (moves, connections, records) that may wait for one busy room; more are told
    /// the room is busy.
    pub room_queue: usize,
    /// The most hands a room's game may play.
    pub hands: u32,
    /// How long a seat must have been away before the room's creator may hand it to a bot.
    pub hand_over_after: Duration,
    /// Connections (HTTP and seats) one client address may hold open.
    pub connections_per_address: usize,
    /// Connections the server holds open.
    pub connections: usize,
    /// Client addresses followed at once (each with its request rate and its rooms).
    pub addresses: usize,
    /// How long a client may take to send a request's head (its first line and headers).
    pub header_time: Duration,
    /// How long a connection may stay silent (no request, no byte of a body, no WebSocket
    /// message or pong) before it is closed.
    pub idle_time: Duration,
    /// How often a seat's WebSocket is pinged (its pong keeps it open past `idle_time`).
    pub ping_every: Duration,
    /// How long one message to a seat may take to be sent before the seat is dropped.
    pub send_time: Duration,
    /// Threads that make moves (a seat's answer and the bots' replies, a room's first moves);
    /// more moves wait their turn. Each thread keeps caches of its own (the scoring scripts'
    /// results), so a bound on threads is one on memory.
    pub game_threads: usize,
    /// The most playouts a room's `expert:N` may spend on a decision ([`super::gate`]).
    pub bot_playouts: usize,
    /// The most time a room's `expert@T` may spend on a decision.
    pub bot_time: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            message_bytes: 64 * 1024,
            messages_per_second: 20.0,
            message_burst: 40.0,
            requests_per_second: 20.0,
            request_burst: 100.0,
            body_bytes: 64 * 1024,
            pasted_bytes: 256 * 1024,
            pasted_checks: 2,
            pasted_rooms: 50,
            rooms_per_address: 20,
            rooms_starting: 16,
            program_rooms: 8,
            rooms: 1_000,
            bot_rooms_playing: 1,
            unjoined_time: Duration::from_secs(10 * 60),
            abandoned_time: Duration::from_secs(7 * 24 * 60 * 60),
            finished_rooms: 10_000,
            finished_bot_rooms: 1_000,
            room_queue: 16,
            hands: 100,
            hand_over_after: Duration::from_secs(120),
            connections_per_address: 64,
            connections: 4_096,
            addresses: 65_536,
            header_time: Duration::from_secs(10),
            idle_time: Duration::from_secs(60),
            ping_every: Duration::from_secs(20),
            send_time: Duration::from_secs(10),
            game_threads: 32,
            bot_playouts: 4 * crate::agent::DEFAULT_BUDGET,
            bot_time: Duration::from_secs(1),
        }
    }
}

/// One limit as the operator names it.
pub struct Key {
    /// Its name in `--limit NAME=VALUE` and a config file's `[limits]`.
    pub name: &'static str,
    /// What it bounds, and what a client over it is told or what happens, in words.
    pub meaning: &'static str,
    /// Its field.
    field: Field,
}

enum Field {
    Count(fn(&mut Limits) -> &mut usize),
    Hands(fn(&mut Limits) -> &mut u32),
    Rate(fn(&mut Limits) -> &mut f64),
    Time(fn(&mut Limits) -> &mut Duration),
}

macro_rules! key {
    ($name:ident, $kind:ident, $meaning:expr) => {
        Key {
            name: stringify!($name),
            meaning: $meaning,
            field: Field::$kind(|l| &mut l.$name),
        }
    };
}

/// Every limit, in the order the guide lists them.
pub const KEYS: &[Key] = &[
    key!(
        requests_per_second,
        Rate,
        "HTTP requests a second from one client address (page files, the API, seat connections); over it: `429`, and the connection is closed"
    ),
    key!(
        request_burst,
        Rate,
        "requests one address may make at once before the rate applies"
    ),
    key!(
        body_bytes,
        Count,
        "a request's body, in bytes; over it: `413`"
    ),
    key!(
        pasted_bytes,
        Count,
        "a rule file pasted on the page, in bytes; over it: `413`, in words"
    ),
    key!(
        pasted_checks,
        Count,
        "pasted rule files checked at once (each costs up to a few hundred times its size while it is parsed); more: `503`"
    ),
    key!(
        pasted_rooms,
        Count,
        "rooms with a game in progress playing a pasted rule file (each holds its own loaded rules, about a megabyte); more: `503`"
    ),
    key!(
        rooms_per_address,
        Count,
        "rooms with a game in progress made from one address (a finished or expired one no longer counts; rooms of bots only count too); over it: `429`"
    ),
    key!(
        rooms_starting,
        Count,
        "rooms being set up at once (their bots' first moves), from all addresses; over it: `503`"
    ),
    key!(
        program_rooms,
        Count,
        "rooms with a game in progress seating an operator's program (a process a seat); over it: `503`"
    ),
    key!(
        rooms,
        Count,
        "rooms held in memory; when full, finished rooms, rooms nobody joined within a minute and rooms idle for ten minutes make way (idle ones stay stored and come back when asked for); else `503`"
    ),
    key!(
        bot_rooms_playing,
        Count,
        "rooms of bots only whose games play at once, in the background; more wait their turn"
    ),
    key!(
        unjoined_time,
        Time,
        "how long a room with a person's seat waits for a person to join before it expires (deleted, its code no longer answers)"
    ),
    key!(
        abandoned_time,
        Time,
        "how long an unfinished room nobody moves in is kept in the database"
    ),
    key!(
        finished_rooms,
        Count,
        "finished games with a person's seat kept in the database (the oldest go first)"
    ),
    key!(
        finished_bot_rooms,
        Count,
        "finished games of bots only kept in the database, apart from people's: they never push a person's game out"
    ),
    key!(
        room_queue,
        Count,
        "requests that may wait for one busy room (its bots thinking); more are told `503`, the room is busy"
    ),
    key!(
        hands,
        Hands,
        "hands a room's game may play; more asked: `400`"
    ),
    key!(
        hand_over_after,
        Time,
        "how long a seat must be away before the room's creator may hand it to a bot"
    ),
    key!(
        bot_playouts,
        Count,
        "playouts a room's `expert:N` may spend on a decision; more asked: `400`"
    ),
    key!(
        bot_time,
        Time,
        "time a room's `expert@T` may spend on a decision; more asked: `400`"
    ),
    key!(
        connections_per_address,
        Count,
        "connections open (HTTP and seats) from one address; over it: `429`, and the connection is closed"
    ),
    key!(
        connections,
        Count,
        "connections open on the server; over it: `503`"
    ),
    key!(
        addresses,
        Count,
        "client addresses followed at once, each with its rate and rooms (idle ones are forgotten); over it: `503`"
    ),
    key!(
        header_time,
        Time,
        "time a client may take to send a request's head; then the connection is closed"
    ),
    key!(
        idle_time,
        Time,
        "time a connection may stay silent (no request, no byte of a body, no WebSocket message or pong); then it is closed"
    ),
    key!(
        ping_every,
        Time,
        "how often a seat's WebSocket is pinged: its pong keeps it open"
    ),
    key!(
        message_bytes,
        Count,
        "a seat's message (and WebSocket frame), in bytes; over it: an `error`, then the connection closes"
    ),
    key!(
        messages_per_second,
        Rate,
        "a seat's refused messages a second (answers that are no legal move now, messages that are no answer); over it: an `error`, then a close (code 1008)"
    ),
    key!(
        message_burst,
        Rate,
        "refused messages a seat may send at once before the rate applies"
    ),
    key!(
        send_time,
        Time,
        "time to send a message to a seat that does not read; then the seat's connection is dropped"
    ),
    key!(
        game_threads,
        Count,
        "threads that make moves; more moves at once wait their turn"
    ),
];

impl Key {
    /// The value of this limit in `limits`, as the operator writes it.
    pub fn show(&self, limits: &Limits) -> String {
        let mut limits = limits.clone();
        match self.field {
            Field::Count(f) => f(&mut limits).to_string(),
            Field::Hands(f) => f(&mut limits).to_string(),
            Field::Rate(f) => f(&mut limits).to_string(),
            Field::Time(f) => show_time(*f(&mut limits)),
        }
    }
}

impl Limits {
    /// Sets the limit `name` to `value` (a count, a rate, or a time such as `10s`, `500ms`,
    /// `10m`, `7d`); `Err` says why not.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let Some(key) = KEYS.iter().find(|k| k.name == name) else {
            let hint = crate::diag::did_you_mean(name, KEYS.iter().map(|k| k.name))
                .map_or(String::new(), |h| format!(" ({h})"));
            return Err(format!(
                "`{name}` is no limit of `yaku serve`{hint}; `yaku serve --limits` lists them"
            ));
        };
        let value = value.trim();
        let bad = |what: &str| format!("`{name}` takes {what}, not `{value}`");
        match key.field {
            Field::Count(f) => {
                *f(self) = value
                    .replace('_', "")
                    .parse::<usize>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| bad("a whole number of at least 1"))?;
            }
            Field::Hands(f) => {
                *f(self) = value
                    .parse::<u32>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| bad("a whole number of at least 1"))?;
            }
            Field::Rate(f) => {
                *f(self) = value
                    .parse::<f64>()
                    .ok()
                    .filter(|r| r.is_finite() && *r > 0.0)
                    .ok_or_else(|| bad("a number above 0"))?;
            }
            Field::Time(f) => {
                *f(self) = parse_time(value)
                    .filter(|t| !t.is_zero())
                    .ok_or_else(|| bad("a time such as `500ms`, `10s`, `10m`, `2h` or `7d`"))?;
            }
        }
        Ok(())
    }

    /// The limits of a config file's text: a `[limits]` table of `name = value` (numbers, or
    /// times as strings), each as [`Limits::set`] takes it, over the defaults.
    pub fn from_config(text: &str) -> Result<Limits, String> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| e.to_string())?;
        let mut limits = Limits::default();
        for (section, value) in &table {
            if section != "limits" {
                return Err(format!(
                    "`{section}`: a config file of `yaku serve` has one table, `[limits]`"
                ));
            }
            let Some(entries) = value.as_table() else {
                return Err("`limits` is a table: `[limits]`, then `name = value` lines".into());
            };
            for (name, value) in entries {
                let value = match value {
                    toml::Value::String(s) => s.clone(),
                    toml::Value::Integer(n) => n.to_string(),
                    toml::Value::Float(x) => x.to_string(),
                    other => {
                        return Err(format!(
                            "`{name}` takes a number or a time, not {}",
                            other.type_str()
                        ));
                    }
                };
                limits.set(name, &value)?;
            }
        }
        Ok(limits)
    }

    /// Every limit as a config file writes it, with its meaning as a comment.
    pub fn to_config(&self) -> String {
        let mut out = String::from("[limits]\n");
        for key in KEYS {
            let value = key.show(self);
            let value = match key.field {
                Field::Time(_) => format!("\"{value}\""),
                _ => value,
            };
            out.push_str(&format!("# {}\n{} = {value}\n", key.meaning, key.name));
        }
        out
    }
}

/// `500ms`, `10s`, `10m`, `2h` or `7d` as a duration.
fn parse_time(text: &str) -> Option<Duration> {
    let split = text.find(|c: char| !c.is_ascii_digit())?;
    let (number, unit) = text.split_at(split);
    let n: u64 = number.parse().ok()?;
    let seconds = match unit.trim() {
        "ms" => return Some(Duration::from_millis(n)),
        "s" => 1,
        "m" | "min" => 60,
        "h" => 3_600,
        "d" => 86_400,
        _ => return None,
    };
    n.checked_mul(seconds).map(Duration::from_secs)
}

/// A duration in the largest unit that writes it whole.
fn show_time(time: Duration) -> String {
    let ms = time.as_millis();
    if !ms.is_multiple_of(1_000) {
        return format!("{ms}ms");
    }
    let s = ms / 1_000;
    for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60)] {
        if s >= size && s.is_multiple_of(size) {
            return format!("{}{unit}", s / size);
        }
    }
    format!("{s}s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_limit_is_set_by_its_name_and_written_back() {
        let mut limits = Limits::default();
        limits.set("rooms_per_address", "50").unwrap();
        limits.set("unjoined_time", "2m").unwrap();
        limits.set("requests_per_second", "2.5").unwrap();
        limits.set("bot_time", "500ms").unwrap();
        assert_eq!(limits.rooms_per_address, 50);
        assert_eq!(limits.unjoined_time, Duration::from_secs(120));
        assert_eq!(limits.requests_per_second, 2.5);
        assert_eq!(limits.bot_time, Duration::from_millis(500));
        for (name, value, why) in [
            ("rooms_per_adress", "5", "did you mean `rooms_per_address`"),
            ("rooms", "0", "at least 1"),
            ("rooms", "-3", "at least 1"),
            ("idle_time", "10", "a time such as"),
            ("idle_time", "0s", "a time such as"),
            ("requests_per_second", "inf", "above 0"),
        ] {
            let e = limits.set(name, value).unwrap_err();
            assert!(e.contains(why), "{name}={value}: {e}");
        }
        // Every field is named once, and a config file of every limit reads back the same.
        let names: std::collections::BTreeSet<_> = KEYS.iter().map(|k| k.name).collect();
        assert_eq!(names.len(), KEYS.len());
        let written = limits.to_config();
        assert_eq!(Limits::from_config(&written).unwrap(), limits);
        assert_eq!(Limits::from_config("").unwrap(), Limits::default());
        // Every field has its key (the fields are counted in the debug text, `name: value`).
        let fields = format!("{:?}", Limits::default()).matches(": ").count();
        assert_eq!(fields, KEYS.len());
        for key in KEYS {
            let mut changed = Limits::default();
            let value = match key.field {
                Field::Time(_) => "3d",
                _ => "7",
            };
            changed.set(key.name, value).unwrap();
            assert_ne!(changed, Limits::default(), "{}", key.name);
        }
        let e = Limits::from_config("[server]\nport = 1\n").unwrap_err();
        assert!(e.contains("one table"), "{e}");
        let e = Limits::from_config("[limits]\nrooms = true\n").unwrap_err();
        assert!(e.contains("not boolean"), "{e}");
    }

    #[test]
    fn times_are_written_in_the_largest_whole_unit() {
        for (text, time) in [
            ("500ms", Duration::from_millis(500)),
            ("10s", Duration::from_secs(10)),
            ("10m", Duration::from_secs(600)),
            ("2h", Duration::from_secs(7_200)),
            ("7d", Duration::from_secs(7 * 86_400)),
        ] {
            assert_eq!(parse_time(text), Some(time));
            assert_eq!(show_time(time), text);
        }
        assert_eq!(parse_time("99999999999999999999d"), None);
        assert_eq!(parse_time("5 weeks"), None);
    }
}
