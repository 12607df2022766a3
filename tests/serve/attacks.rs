//! `yaku serve` as an attacker tries it, over loopback only: each test is one of the faults of
//! the threat model in the guide ("Running a server"), and fails on a server that has it. Every
//! loop is bounded, and no address but 127.0.0.1 is used.

use super::Served;
use crate::common::TempDir;
use serde_json::{Value, json};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// A new room of `players` (as a client names them) playing `ruleset`; its creation answer.
fn create(served: &Served, ruleset: &str, players: &[&str]) -> Value {
    let body = json!({ "ruleset": ruleset, "players": players, "hands": 1 }).to_string();
    let (status, answer) = served.request("POST", "/api/rooms", &body);
    assert_eq!(status, 200, "{answer}");
    serde_json::from_str(&answer).unwrap()
}

/// Asks for `seat` of `room` to be handed to `bot` with `token`: the status and the answer.
fn hand_over(served: &Served, room: &Value, token: &str, seat: usize, bot: &str) -> (u16, String) {
    let path = format!("/api/rooms/{}/bot", room["room"].as_str().unwrap());
    let body = json!({ "token": token, "seat": seat, "bot": bot }).to_string();
    served.request("POST", &path, &body)
}

/// Waits a moment for `path` to appear (a program started in the background would make it).
fn appears(path: &std::path::Path) -> bool {
    let until = Instant::now() + Duration::from_millis(1_500);
    while Instant::now() < until {
        if path.exists() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// Fault 1: a hand-over named a program (`cmd:`), which the server ran.
#[test]
fn a_hand_over_never_runs_a_program() {
    let dir = TempDir::new("attack-cmd");
    let owned = dir.join("owned");
    let served = Served::start();
    let room = create(&served, "koikoi", &["human", "human"]);
    let token = room["people"][0][1].as_str().unwrap().to_string();
    for bot in [
        format!("cmd:/usr/bin/touch {}", owned.display()),
        format!("cmd:sh -c 'touch {}'", owned.display()),
    ] {
        for seat in [0, 1] {
            let (status, answer) = hand_over(&served, &room, &token, seat, &bot);
            assert!(status == 400 || status == 409, "{status} {answer}");
        }
    }
    assert!(!appears(&owned), "a client's program ran on the server");
    // At creation too, by any spelling.
    for players in [
        json!(["human", format!("cmd:/usr/bin/touch {}", owned.display())]),
        json!(["human", format!(" cmd:/usr/bin/touch {}", owned.display())]),
    ] {
        let body = json!({ "ruleset": "koikoi", "players": players }).to_string();
        let (status, _) = served.request("POST", "/api/rooms", &body);
        assert_eq!(status, 400);
    }
    assert!(!appears(&owned), "a client's program ran on the server");
}

/// Fault 1, after a restart: a stored room's program that the operator no longer lists is not
/// started again, and the server says so.
#[test]
fn a_stored_program_the_operator_no_longer_lists_is_not_started() {
    let dir = TempDir::new("attack-stored-cmd");
    let db = dir.join("rooms.sqlite");
    let starts = dir.join("starts");
    // The program notes each start, then plays the first legal move every turn.
    let bot = dir.write(
        "bot.sh",
        format!(
            "echo started >> {}\nwhile read line; do echo '{{\"choose\":0}}'; done\n",
            starts.display()
        ),
    );
    let program = format!("noted=sh {}", bot.display());
    let db_arg = db.to_str().unwrap();
    let room = {
        let served = Served::start_with(&["--db", db_arg, "--bot", &program], Stdio::null());
        let room = create(&served, "gostop", &["human", "noted", "greedy"]);
        // Killed at once: the room is stored with its program's seat.
        drop(served);
        room
    };
    let started_before = std::fs::read_to_string(&starts).unwrap_or_default().len();
    let log = dir.join("stderr");
    let served = Served::start_with(
        &["--db", db_arg],
        std::fs::File::create(&log).unwrap().into(),
    );
    // The person plays the game out: the seat the program held is greedy's now.
    let code = room["room"].as_str().unwrap();
    let token = room["people"][0][1].as_str().unwrap();
    let mut socket = served.connect(code, token);
    let mut moves = 0;
    loop {
        let text = socket.read().expect("the game goes on");
        let Ok(v) = serde_json::from_str::<Value>(text.to_text().unwrap_or("")) else {
            continue;
        };
        if v["over"] == true {
            break;
        }
        if v["type"] == "state" && v["legal"].as_array().is_some_and(|l| !l.is_empty()) {
            socket.send(r#"{"choose": 0}"#.into()).unwrap();
            moves += 1;
            assert!(moves < 500);
        }
    }
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(
        said.contains("seat 2: `cmd:sh") && said.contains("is not started again"),
        "{said}"
    );
    let started_after = std::fs::read_to_string(&starts).unwrap_or_default().len();
    assert_eq!(started_before, started_after, "the program started again");
    let (_, record) = served.request("GET", &format!("/api/rooms/{code}/record"), "");
    let record: Value = serde_json::from_str(&record).unwrap();
    assert_eq!(record["players"][1], "greedy", "{record}");
}

/// Fault 2: a player's name was read as a path on the server (a banker game's strategy file):
/// the answer told whether the path exists and quoted its contents, and a FIFO or a terminal
/// blocked a game thread for ever.
#[test]
fn a_players_name_is_never_read_as_a_path() {
    let dir = TempDir::new("attack-path");
    let toml = dir.write("secret.toml", "password = \"hunter2\"\n");
    let broken = dir.write("broken.toml", "[[[\n");
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    // The server's standard input is a pipe nobody writes to.
    let served = Served::start_with(&[], Stdio::inherit());
    let mut names = vec![
        "/dev/stdin".to_string(),
        "/nonexistent/strategy.toml".to_string(),
        toml.display().to_string(),
        broken.display().to_string(),
        "/etc/passwd".to_string(),
    ];
    if made {
        names.push(fifo.display().to_string());
    }
    for ruleset in ["oicho-kabu", "baccarat", "seotda"] {
        for name in &names {
            let body = json!({ "ruleset": ruleset, "players": ["human", name] }).to_string();
            let asked = Instant::now();
            let (status, answer) = served.request("POST", "/api/rooms", &body);
            assert!(asked.elapsed() < Duration::from_secs(5), "{ruleset} {name}");
            assert_eq!(status, 400, "{ruleset} {name}: {answer}");
            for leak in [
                "No such file",
                "password",
                "hunter2",
                "line 1",
                "directory",
                "expected",
            ] {
                assert!(!answer.contains(leak), "{ruleset} {name}: {answer}");
            }
        }
    }
    // A hand-over is held to the same names.
    let room = create(&served, "oicho-kabu", &["human", "human"]);
    let token = room["people"][0][1].as_str().unwrap().to_string();
    for name in &names {
        let (status, answer) = hand_over(&served, &room, &token, 1, name);
        assert!(status == 400 || status == 409, "{name}: {status} {answer}");
        assert!(!answer.contains("No such file"), "{answer}");
    }
    // The server still answers at once.
    let (status, _) = served.request("GET", "/api/rulesets", "");
    assert_eq!(status, 200);
}

/// Fault 4: the hand-over skipped the bounds on a room's bots.
#[test]
fn a_hand_over_holds_bots_to_the_rooms_bounds() {
    let served = Served::start();
    let room = create(&served, "koikoi", &["human", "human"]);
    let token = room["people"][0][1].as_str().unwrap().to_string();
    for bot in ["expert:1000000", "expert@60s", "expert@2000ms", "expert:0"] {
        let (status, answer) = hand_over(&served, &room, &token, 0, bot);
        assert_eq!(status, 400, "{bot}: {answer}");
        assert!(answer.contains("a room's expert spends"), "{bot}: {answer}");
    }
    let (status, answer) = hand_over(&served, &room, &token, 0, "expert:100");
    assert_eq!(status, 200, "{answer}");
}
