//! `yaku serve` keeps its rooms in a database: a server killed in the middle of a game
//! (SIGKILL) and started again on the same file goes on from the same position with the same
//! seat token, and the game's record, from the server or from the command line, replays with
//! `yaku replay`. Also spectators, and seats handed to bots. No browser: the tests speak the
//! seat protocol over the WebSocket themselves.

use super::http;
use crate::common::{TempDir, Yaku, bin};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use super::Socket;

/// A running `yaku serve` (on `--db FILE`, or `--in-memory`), killed with SIGKILL when dropped.
struct Server {
    child: Child,
    host: String,
}

impl Server {
    fn start(db: Option<&Path>) -> Server {
        let mut command = Command::new(bin());
        command.args(["serve", "--no-open"]);
        match db {
            Some(db) => command.arg("--db").arg(db),
            None => command.arg("--in-memory"),
        };
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("yaku serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let host = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches('/')
            .to_string();
        Server { child, host }
    }

    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        http(&self.host, method, path, "", body).expect("the server answers")
    }

    /// A new room: its code, each person's `(seat, token)`, and the spectators' token.
    fn create(&self, ruleset: &str, players: &[&str]) -> (String, Vec<(usize, String)>, String) {
        self.create_hands(ruleset, players, 1)
    }

    /// A room of `hands` hands.
    fn create_hands(
        &self,
        ruleset: &str,
        players: &[&str],
        hands: u32,
    ) -> (String, Vec<(usize, String)>, String) {
        let body = json!({ "ruleset": ruleset, "players": players, "hands": hands }).to_string();
        let (status, body) = self.request("POST", "/api/rooms", &body);
        assert_eq!(status, 200, "{body}");
        let created: Value = serde_json::from_str(&body).unwrap();
        let people = created["people"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p[0].as_u64().unwrap() as usize,
                    p[1].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let text = |v: &Value| v.as_str().unwrap().to_string();
        (text(&created["room"]), people, text(&created["watch"]))
    }

    fn connect(&self, room: &str, token: &str) -> Socket {
        super::connect(&self.host, room, token)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // `Child::kill` is SIGKILL: nothing is flushed or closed in good order.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The next message the server sends.
fn next(socket: &mut Socket) -> Value {
    loop {
        let message = socket.read().expect("the server sends");
        if let Ok(text) = message.to_text()
            && !text.is_empty()
        {
            return serde_json::from_str(text).unwrap();
        }
    }
}

/// The states sent until the seat must act or the game is over; the last one.
fn wait_for_turn(socket: &mut Socket) -> Value {
    loop {
        let state = next(socket);
        assert_ne!(state["type"], "error", "{state}");
        if state["type"] == "state"
            && (state["over"] == true || !state["legal"].as_array().unwrap().is_empty())
        {
            return state;
        }
    }
}

/// From `state` (the seat's turn, or the game over), plays the first legal move whenever the
/// seat acts, `moves` times or to the end; the state last sent.
fn play(socket: &mut Socket, mut state: Value, moves: usize) -> Value {
    for _ in 0..moves {
        if state["over"] == true {
            break;
        }
        socket.send(r#"{"choose": 0}"#.into()).unwrap();
        state = wait_for_turn(socket);
    }
    state
}

#[test]
fn a_killed_server_restarts_every_game_where_it_was() {
    let dir = TempDir::new("serve-restart");
    let db = dir.join("rooms.sqlite");
    let (room, people, before) = {
        let server = Server::start(Some(&db));
        // Three hands, so that the game is still on after a few moves whatever the deal (a
        // hand may end at its deal or after a few moves; the room's seed is random).
        let (room, people, _) = server.create_hands("koikoi", &["human", "expert"], 3);
        let mut seat = server.connect(&room, &people[0].1);
        assert_eq!(next(&mut seat)["type"], "hello");
        let first = wait_for_turn(&mut seat);
        let before = play(&mut seat, first, 2);
        assert_ne!(
            before["over"], true,
            "two moves do not end three hands: {before}"
        );
        // The position as a new connection is first told it (a connection's later states
        // carry only the new lines of the move log).
        let mut again = server.connect(&room, &people[0].1);
        assert_eq!(next(&mut again)["type"], "hello");
        let whole = wait_for_turn(&mut again);
        // A state with no new lines leaves `log` out.
        let lines = |state: &Value| state["log"].as_array().cloned().unwrap_or_default();
        let (whole_log, log) = (lines(&whole), lines(&before));
        assert!(
            !whole_log.is_empty(),
            "a first state tells the log: {whole}"
        );
        assert!(whole_log.ends_with(&log), "{whole_log:?} ends with {log:?}");
        let before = whole;
        // Killed with the seat connected and its move awaited.
        (room, people, before)
    };
    let server = Server::start(Some(&db));
    let mut seat = server.connect(&room, &people[0].1);
    let hello = next(&mut seat);
    assert_eq!(hello["seat"], people[0].0);
    let again = wait_for_turn(&mut seat);
    assert_eq!(again, before, "the same position");
    let (status, body) = server.request("GET", &format!("/api/rooms/{room}/record"), "");
    assert_eq!(status, 409, "no record of a game in progress: {body}");
    let end = play(&mut seat, again, 1_000);
    assert_eq!(end["over"], true);
    let (status, record) = server.request("GET", &format!("/api/rooms/{room}/record"), "");
    assert_eq!(status, 200, "{record}");
    let from_server = dir.write("from-server.json", &record);
    let exported = dir.join("exported.json");
    Yaku::new(["serve", "--db"])
        .arg(db.to_str().unwrap())
        .arg("--export")
        .arg(&room)
        .arg("-o")
        .arg(exported.to_str().unwrap())
        .expect(0);
    assert_eq!(std::fs::read_to_string(&exported).unwrap(), record);
    let listed = Yaku::new(["serve", "--rooms", "--db"])
        .arg(db.to_str().unwrap())
        .expect(0);
    assert!(
        listed.stdout.contains(&room) && listed.stdout.contains("finished"),
        "{}",
        listed.stdout
    );
    let replayed = Yaku::new(["replay", "--json"])
        .arg(from_server.to_str().unwrap())
        .expect(0);
    let outcome: Value = serde_json::from_str(&replayed.stdout).unwrap();
    assert_eq!(outcome["finished"], true, "{}", replayed.stdout);
    assert_eq!(outcome["final_scores"], end["scores"]);
}

/// The cards of each zone a message names, as sets.
fn zone_cards(state: &Value) -> Vec<std::collections::BTreeSet<String>> {
    state["zones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|z| {
            let cards = z["cards"].as_array().unwrap();
            cards
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect()
        })
        .collect()
}

/// Every seat is a person the test plays, and a spectator watches: after every move, the
/// spectator is sent of each zone exactly the cards every seat sees, never one a seat does not
/// see (another's hand, the stock), and it is offered no move.
#[test]
fn a_spectator_is_sent_only_what_every_seat_sees() {
    let server = Server::start(None);
    for (ruleset, seats) in [("koikoi", 2), ("gostop", 3), ("schnapsen", 2)] {
        let (room, people, watch) = server.create(ruleset, &vec!["human"; seats]);
        let mut spectator = server.connect(&room, &watch);
        let hello = next(&mut spectator);
        assert!(hello.get("seat").is_none(), "{hello}");
        let mut sockets: Vec<Socket> = people
            .iter()
            .map(|(_, token)| server.connect(&room, token))
            .collect();
        sockets
            .iter_mut()
            .for_each(|s| assert_eq!(next(s)["type"], "hello"));
        let mut moves = 0;
        loop {
            let states: Vec<Value> = sockets.iter_mut().map(next).collect();
            let watched = next(&mut spectator);
            assert!(watched.get("seat").is_none(), "{watched}");
            assert_eq!(watched["legal"], json!([]), "{watched}");
            let mut public = zone_cards(&states[0]);
            for state in &states[1..] {
                for (seen, theirs) in public.iter_mut().zip(zone_cards(state)) {
                    seen.retain(|c| theirs.contains(c));
                }
            }
            assert_eq!(zone_cards(&watched), public, "{ruleset}: {watched}");
            if watched["over"] == true {
                break;
            }
            let to_act = watched["to_act"].as_u64().unwrap() as usize;
            sockets[to_act].send(r#"{"choose": 0}"#.into()).unwrap();
            moves += 1;
            assert!(moves < 1_000, "{ruleset}");
        }
        spectator.send(r#"{"choose": 0}"#.into()).unwrap();
        assert_eq!(next(&mut spectator)["message"], "a spectator does not play");
    }
}

#[test]
fn a_seat_handed_to_a_bot_finishes_the_game() {
    let server = Server::start(None);
    let (room, people, watch) = server.create("koikoi", &["human", "greedy"]);
    let (seat, token) = &people[0];
    let mut player = server.connect(&room, token);
    next(&mut player);
    let first = wait_for_turn(&mut player);
    play(&mut player, first, 2);
    let path = format!("/api/rooms/{room}/bot");
    let ask = |token: &str| json!({ "token": token, "seat": seat, "bot": "greedy" }).to_string();
    let (status, body) = server.request("POST", &path, &ask(&watch));
    assert_eq!(status, 403, "{body}");
    let (status, body) = server.request("POST", &path, &ask(token));
    assert_eq!(status, 200, "{body}");
    let handed: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(handed["watch"], json!(watch), "the page watches on with it");
    let end = wait_for_turn(&mut player);
    assert_eq!(end["over"], true, "{end}");
    let (status, record) = server.request("GET", &format!("/api/rooms/{room}/record"), "");
    assert_eq!(status, 200, "{record}");
    let record: Value = serde_json::from_str(&record).unwrap();
    assert_eq!(record["finished"], true);
    assert_eq!(record["players"], json!(["greedy", "greedy"]));
}

#[test]
fn the_database_must_be_a_regular_file() {
    let dir = TempDir::new("serve-db");
    let out = Yaku::new(["serve", "--no-open", "--db"])
        .arg(dir.to_str().unwrap())
        .expect(1);
    assert!(out.stderr.contains("it is a directory"), "{}", out.stderr);
    let nowhere = dir.join("missing/rooms.sqlite");
    let out = Yaku::new(["serve", "--no-open", "--db"])
        .arg(nowhere.to_str().unwrap())
        .expect(1);
    assert!(
        out.stderr.contains("folder does not exist"),
        "{}",
        out.stderr
    );
    let text = dir.write("notes.txt", "notes, not a database\n".repeat(100));
    let out = Yaku::new(["serve", "--no-open", "--db"])
        .arg(text.to_str().unwrap())
        .expect(1);
    assert!(
        out.stderr.contains("not a yaku rooms database"),
        "{}",
        out.stderr
    );
    let db = dir.join("rooms.sqlite");
    let out = Yaku::new(["serve", "--db"])
        .arg(db.to_str().unwrap())
        .arg("--export")
        .arg("0123")
        .expect(1);
    assert!(out.stderr.contains("no room `0123`"), "{}", out.stderr);
    // Without --db, the rooms are kept in the user's data folder.
    let data = dir.join("data");
    Yaku::new(["serve", "--rooms"])
        .env("XDG_DATA_HOME", data.to_str().unwrap())
        .expect(0);
    assert!(data.join("yaku/serve.sqlite").is_file());
}

/// A room of pasted rules keeps their text in its record, from the server and from the command
/// line's export alike: the record replays in a folder that holds no rule file.
#[test]
fn a_pasted_rooms_record_embeds_its_rules() {
    let dir = TempDir::new("serve-pasted-record");
    let db = dir.join("rooms.sqlite");
    let rules = "# A house rule, pasted\n[ruleset]\nid = \"pasted-house\"\nextends = \"koikoi\"\n[flow]\nrounds = 1\n";
    let room = {
        let server = Server::start(Some(&db));
        let body = json!({ "ruleset": "koikoi", "rules": rules, "players": ["random", "random"] });
        let (status, body) = server.request("POST", "/api/rooms", &body.to_string());
        assert_eq!(status, 200, "{body}");
        let room = serde_json::from_str::<Value>(&body).unwrap()["room"]
            .as_str()
            .unwrap()
            .to_string();
        // A room of bots plays in the background: its record is there once it is over.
        let record = (0..200)
            .find_map(|_| {
                let (status, record) =
                    server.request("GET", &format!("/api/rooms/{room}/record"), "");
                if status == 200 {
                    return Some(record);
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
                None
            })
            .expect("the bots finish a hand");
        let served: Value = serde_json::from_str(&record).unwrap();
        assert_eq!(served["ruleset"]["files"]["pasted.toml"], rules, "{record}");
        dir.write("served.json", &record);
        room
    };
    Yaku::new(["serve", "--db"])
        .arg(db.to_str().unwrap())
        .arg("--export")
        .arg(&room)
        .arg("-o")
        .arg(dir.join("exported.json").to_str().unwrap())
        .expect(0);
    for file in ["served.json", "exported.json"] {
        let out = Yaku::new(["replay", "--json", file])
            .current_dir(&dir)
            .expect(0);
        let outcome: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(outcome["finished"], true, "{file}: {}", out.stdout);
        assert_eq!(outcome["ruleset"], "pasted-house", "{file}: {}", out.stdout);
    }
}
