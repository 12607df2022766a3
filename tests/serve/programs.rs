//! Outside programs in rooms: only those the operator named (`yaku serve --bot NAME=PROGRAM`)
//! are seated, by name; the guide's Python bot plays whole games in a room against a client
//! playing a person's seat over the WebSocket; a program's process group ends with its seat
//! or with the server.

use super::Served;
use crate::common::{
    TempDir, kill_if_alive, process_alive, root, unreaped_children, wait_for_pid_file,
};
use std::process::Stdio;
use std::time::Duration;
use tungstenite::Message;

/// Plays the person's seat of a new room to the end of its game with the first legal move;
/// the number of moves made.
fn play_room(served: &Served, body: &str) -> usize {
    play_room_until(served, body, || false)
}

/// Plays new rooms made from `body` until `started` holds once a room is over, or at once
/// when `early`: a program is started at its seat's first turn, and a Koi-Koi hand can end at
/// its deal (four cards of a month in a hand) before that seat is asked anything.
fn play_rooms_until(served: &Served, body: &str, early: bool, started: impl Fn() -> bool) {
    for _ in 0..20 {
        if early {
            play_room_until(served, body, &started);
        } else {
            play_room(served, body);
        }
        if started() {
            return;
        }
    }
    panic!("no room of {body} reached the program's seat in 20 games");
}

/// [`play_room`], stopping early once `done` holds after a message.
fn play_room_until(served: &Served, body: &str, done: impl Fn() -> bool) -> usize {
    let (status, answer) = served.request("POST", "/api/rooms", body);
    assert_eq!(status, 200, "{answer}");
    let created: serde_json::Value = serde_json::from_str(&answer).unwrap();
    let room = created["room"].as_str().unwrap();
    let token = created["people"][0][1].as_str().unwrap();
    let mut socket = served.connect(room, token);
    let mut moves = 0;
    loop {
        let Message::Text(text) = socket.read().expect("a message") else {
            continue;
        };
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_ne!(v["type"], "error", "{text}");
        if v["over"] == true || done() {
            return moves;
        }
        if v["type"] == "state" && v["legal"].as_array().is_some_and(|l| !l.is_empty()) {
            socket
                .send(Message::Text(r#"{"choose": 0}"#.into()))
                .unwrap();
            moves += 1;
            assert!(moves < 2_000, "the game ends");
        }
    }
}

#[test]
fn a_room_seats_only_the_programs_the_operator_named() {
    let served = Served::start_with(&["--bot", "first=sh -c true"], Stdio::inherit());
    let (status, body) = served.request("GET", "/api/bots", "");
    assert_eq!((status, body.as_str()), (200, r#"["first"]"#));
    let (status, body) = served.request(
        "POST",
        "/api/rooms",
        r#"{"ruleset":"koikoi","players":["human","cmd:sh -c 'touch /tmp/owned'"]}"#,
    );
    assert_eq!(status, 400);
    assert_eq!(
        body,
        "a client cannot name a program: a room seats only the programs the server's operator lists, by their names: first"
    );
}

#[test]
fn the_guides_python_bot_plays_whole_games_in_a_room() {
    if crate::protocol::python().is_none() {
        return;
    }
    let dir = TempDir::new("serve-programs");
    let log = dir.join("stderr");
    let bot = format!(
        "pybot=python3 {}",
        root().join("examples/protocol_bot.py").display()
    );
    // `false` exits at once: it loses its seat to greedy (its pipe closed, or its output), and
    // the server says so and goes on.
    let served = Served::start_with(
        &["--bot", &bot, "--bot", "broken=false"],
        std::fs::File::create(&log).unwrap().into(),
    );
    for body in [
        r#"{"ruleset":"koikoi","players":["human","pybot"],"hands":3}"#,
        r#"{"ruleset":"gostop","players":["pybot","human","greedy"],"hands":1}"#,
        r#"{"ruleset":"scopa","players":["human","pybot"]}"#,
    ] {
        assert!(play_room(&served, body) > 0, "{body}");
    }
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(!said.contains("lost its seat"), "{said}");
    play_rooms_until(
        &served,
        r#"{"ruleset":"koikoi","players":["human","broken"],"hands":1}"#,
        false,
        || std::fs::read_to_string(&log).is_ok_and(|said| said.contains("lost its seat")),
    );
    drop(served);
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(
        said.contains("`cmd:false` lost its seat") && said.contains("greedy plays it from here"),
        "{said}"
    );
}

#[test]
fn the_page_offers_the_operators_programs_for_the_seats_after_the_first() {
    let Some(browser) = super::browser() else {
        return;
    };
    let served = Served::start_with(&["--bot", "pybot=python3 bot.py"], Stdio::inherit());
    let dir = TempDir::new("serve-page-programs");
    let mut page = super::Browser::open(&browser, &dir.join("lobby"), &served.url);
    // Koi-Koi chosen (the first game listed may seat one player), then each seat's choices.
    let choices = "(() => { const r = document.getElementById('ruleset'); \
                   if (r.value !== 'koikoi') { r.value = 'koikoi'; r.dispatchEvent(new Event('change')); } \
                   return JSON.stringify([...document.querySelectorAll('#seats select')]\
                   .map((s) => [...s.options].map((o) => o.value))); })()";
    let mut seats = serde_json::Value::Null;
    for _ in 0..300 {
        seats = page.eval(choices);
        if seats.as_str().is_some_and(|s| s.contains("greedy")) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let seats: Vec<Vec<String>> = serde_json::from_str(seats.as_str().unwrap()).unwrap();
    assert_eq!(seats[0], ["human"]);
    assert!(seats[1].contains(&"pybot".to_string()), "{seats:?}");
}

/// A program for `--bot` that starts a child (a `sleep` whose id it writes to `DIR/NAME.pid`),
/// then plays the first legal move, or fails at its first turn when `fails`.
fn parent_bot(dir: &TempDir, name: &str, fails: bool) -> String {
    let answer = if fails {
        "read line; read line; echo 'this is not json'; sleep 300\n"
    } else {
        "while read line; do echo '{\"choose\":0}'; done\n"
    };
    let script = dir.write(
        &format!("{name}.sh"),
        format!(
            "sleep 302 &\necho $! > '{}'\n{answer}",
            dir.join(format!("{name}.pid")).display()
        ),
    );
    format!("{name}=sh {}", script.display())
}

/// Issue 41, fault 6: in a room, a program that fails is ended with the child it started (its
/// whole process group) and reaped while the server goes on; a program still seated when the
/// server is stopped by SIGTERM is ended with it.
#[test]
fn a_rooms_program_is_ended_with_its_children() {
    let dir = TempDir::new("serve-program-group");
    let log = dir.join("stderr");
    let (failing, playing) = (
        parent_bot(&dir, "failing", true),
        parent_bot(&dir, "playing", false),
    );
    let mut served = Served::start_with(
        &["--bot", &failing, "--bot", &playing],
        std::fs::File::create(&log).unwrap().into(),
    );
    let body = r#"{"ruleset":"koikoi","players":["human","failing"],"hands":1}"#;
    let failing_pid = dir.join("failing.pid");
    play_rooms_until(&served, body, false, || failing_pid.exists());
    let child = wait_for_pid_file(&failing_pid, Duration::from_secs(5));
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        !kill_if_alive(child),
        "the failed program's child still runs"
    );
    let server = served.child.id() as i32;
    assert_eq!(unreaped_children(server), Vec::<i32>::new(), "reaped");
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(
        said.contains("`cmd:sh") && said.contains("lost its seat"),
        "{said}"
    );

    let pid = dir.join("playing.pid");
    let body = r#"{"ruleset":"koikoi","players":["human","playing"],"hands":1}"#;
    play_rooms_until(&served, body, true, || pid.exists());
    let child = wait_for_pid_file(&pid, Duration::from_secs(5));
    assert!(process_alive(child), "the seated program's child runs");
    // SAFETY: a signal to our own child process.
    unsafe {
        libc::kill(server, libc::SIGTERM);
    }
    let status = served.child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + libc::SIGTERM));
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        !kill_if_alive(child),
        "the seated program's child still runs"
    );
}
