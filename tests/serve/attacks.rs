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

/// A program that answers every turn with the first legal move after `seconds` seconds.
fn slow_bot(dir: &TempDir, seconds: u32) -> String {
    let script = dir.write(
        "slow.sh",
        format!(
            "while read line; do case \"$line\" in *'\"turn\"'*) sleep {seconds}; echo '{{\"choose\":0}}';; esac; done\n"
        ),
    );
    format!("slow=sh {}", script.display())
}

/// Plays the person's seat with the first legal move until the room's program must answer:
/// the socket, the move having just been sent (false when the game ended first).
fn move_before_the_bot(served: &Served, room: &Value) -> (super::Socket, bool) {
    let code = room["room"].as_str().unwrap();
    let token = room["people"][0][1].as_str().unwrap();
    let mut socket = served.connect(code, token);
    loop {
        let message = socket.read().expect("the server sends");
        let Ok(v) = serde_json::from_str::<Value>(message.to_text().unwrap_or("")) else {
            continue;
        };
        if v["over"] == true {
            return (socket, false);
        }
        if v["type"] == "state" && v["legal"].as_array().is_some_and(|l| !l.is_empty()) {
            socket.send(r#"{"choose": 0}"#.into()).unwrap();
            return (socket, true);
        }
    }
}

/// Fault 3: while one room's bot thought, requests naming that room held every thread of the
/// server's runtime, and the lobby waited with them.
#[test]
fn one_busy_room_does_not_stall_the_server() {
    let dir = TempDir::new("attack-busy");
    let served = Served::start_with(
        &["--bot", &slow_bot(&dir, 4), "--limit", "room_queue=4"],
        Stdio::inherit(),
    );
    // A dealt hand may end the game before the bot's turn: another room is made then.
    let (room, _socket) = (0..5)
        .find_map(|_| {
            let room = create(&served, "koikoi", &["human", "slow"]);
            let (socket, moved) = move_before_the_bot(&served, &room);
            moved.then_some((room, socket))
        })
        .expect("a room whose bot must answer");
    let code = room["room"].as_str().unwrap().to_string();
    let token = room["people"][0][1].as_str().unwrap().to_string();
    // Twenty requests naming the busy room at once: its rule sheet, its record, a hand-over.
    // Those past the room's queue are told it is busy, at once.
    let host = served.host();
    let waiting: Vec<_> = (0..20)
        .map(|i| {
            let (host, code, token) = (host.clone(), code.clone(), token.clone());
            std::thread::spawn(move || {
                let asked = Instant::now();
                let answer = match i % 3 {
                    0 => super::http(&host, "GET", &format!("/api/rooms/{code}/rules"), "", ""),
                    1 => super::http(&host, "GET", &format!("/api/rooms/{code}/record"), "", ""),
                    _ => {
                        let ask = json!({ "token": token, "seat": 0, "bot": "greedy" });
                        let path = format!("/api/rooms/{code}/bot");
                        super::http(&host, "POST", &path, "", &ask.to_string())
                    }
                };
                (answer.map(|(status, _)| status), asked.elapsed())
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    // The lobby and another room answer at once meanwhile.
    for _ in 0..3 {
        let asked = Instant::now();
        let (status, _) = served.request("GET", "/api/rulesets", "");
        assert_eq!(status, 200);
        assert!(
            asked.elapsed() < Duration::from_millis(1_000),
            "the lobby took {:?} while a room was busy",
            asked.elapsed()
        );
        let asked = Instant::now();
        create(&served, "koikoi", &["human", "greedy"]);
        assert!(asked.elapsed() < Duration::from_millis(2_000));
    }
    let answers: Vec<_> = waiting.into_iter().map(|t| t.join().unwrap()).collect();
    let busy = answers
        .iter()
        .filter(|(status, elapsed)| *status == Some(503) && *elapsed < Duration::from_secs(1))
        .count();
    assert!(
        busy >= 5,
        "the requests past the queue are told at once: {answers:?}"
    );
}

/// The status of `GET path` until it is `want` (at most `seconds`): true when it was.
fn becomes(served: &Served, path: &str, want: u16, seconds: u64) -> bool {
    let until = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < until {
        if served.request("GET", path, "").0 == want {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

/// Fault 10: a room of bots only was played inside the request that made it, and did not count
/// against its maker: one client kept the server's room-setup places busy.
#[test]
fn a_room_of_bots_plays_in_the_background_and_counts_against_its_maker() {
    let served = Served::start_with(&["--limit", "rooms_per_address=2"], Stdio::inherit());
    for _ in 0..2 {
        let asked = Instant::now();
        let body =
            json!({ "ruleset": "gostop", "players": ["expert", "expert", "expert"], "hands": 100 });
        let (status, answer) = served.request("POST", "/api/rooms", &body.to_string());
        assert_eq!(status, 200, "{answer}");
        assert!(
            asked.elapsed() < Duration::from_secs(2),
            "the room was played inside the request: {:?}",
            asked.elapsed()
        );
    }
    let body = json!({ "ruleset": "koikoi", "players": ["random", "random"], "hands": 1 });
    let (status, answer) = served.request("POST", "/api/rooms", &body.to_string());
    assert_eq!(status, 429, "{answer}");
    assert!(
        answer.contains("2 rooms with a game in progress"),
        "{answer}"
    );
    // Meanwhile the server answers at once.
    let asked = Instant::now();
    assert_eq!(served.request("GET", "/api/rulesets", "").0, 200);
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
}

/// A room of bots only plays to its end in the background: its record comes.
#[test]
fn a_room_of_bots_finishes_in_the_background() {
    let served = Served::start();
    let room = create(&served, "koikoi", &["greedy", "random"]);
    let code = room["room"].as_str().unwrap();
    assert!(becomes(
        &served,
        &format!("/api/rooms/{code}/record"),
        200,
        60
    ));
}

/// A position holds its hand's deal, the cards no seat may see yet: like the record, it is given
/// to nobody while the game is in progress, and to anyone once it is over, after any of its
/// actions; `yaku position` reads it.
#[test]
fn a_rooms_position_is_given_only_once_the_game_is_over() {
    let served = Served::start();
    let playing = create(&served, "koikoi", &["human", "greedy"]);
    let code = playing["room"].as_str().unwrap();
    let (status, said) = served.request("GET", &format!("/api/rooms/{code}/position"), "");
    assert_eq!(status, 409, "{said}");
    assert!(said.contains("the game is in progress"), "{said}");
    // Two hands: a hand may end at its deal with no move made (a hand's yaku dealt), so a game
    // of one hand may hold no action at all; the position asked for is one the record holds.
    let body = json!({ "ruleset": "koikoi", "players": ["greedy", "random"], "hands": 2 });
    let (status, bots) = served.request("POST", "/api/rooms", &body.to_string());
    assert_eq!(status, 200, "{bots}");
    let bots: Value = serde_json::from_str(&bots).unwrap();
    let code = bots["room"].as_str().unwrap();
    let path = format!("/api/rooms/{code}/position");
    // The bots play in the background: asked gently until their game is over (a loaded
    // machine's polling may also meet the address's request allowance, 429, or a busy room,
    // 503: asked again).
    let get = |path: &str| {
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            let (status, said) = served.request("GET", path, "");
            if !matches!(status, 409 | 429 | 503) || Instant::now() > until {
                return (status, said);
            }
            std::thread::sleep(Duration::from_millis(300));
        }
    };
    // Without `at`, the position after every action, and how many the record holds.
    let (status, last) = get(&path);
    assert_eq!(status, 200, "{last}");
    let last: Value = serde_json::from_str(&last).unwrap();
    let actions = last["actions"].as_u64().unwrap();
    assert_eq!(last["at"], actions, "{last}");
    let at = actions.saturating_sub(1).min(5);
    let (status, answer) = get(&format!("{path}?at={at}"));
    assert_eq!(status, 200, "{answer}");
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["at"], at, "{answer}");
    let text = answer["position"].as_str().unwrap();
    assert!(
        text.starts_with(&format!(
            "# A finished game of Koi-Koi (standard), after {at} of its {actions} actions"
        )),
        "{text}"
    );
    if at < actions {
        // A position before the game's last action has a seat to move.
        let dir = TempDir::new("room-position");
        let file = dir.write("at.toml", text);
        let shown = crate::common::Yaku::new(["position", file.to_str().unwrap()]).expect(0);
        assert!(shown.stdout.contains(" to move; "), "{}", shown.stdout);
    }
    let (status, said) = get(&format!("{path}?at={}", actions + 1));
    assert_eq!(status, 400, "{said}");
    assert!(
        said.contains(&format!("a position is after 0 to {actions}")),
        "{said}"
    );
}

/// Fault 11: finished rooms of bots only pushed people's finished games out of the database.
#[test]
fn rooms_of_bots_never_push_a_persons_game_out() {
    let dir = TempDir::new("attack-push");
    let db = dir.join("rooms.sqlite");
    let served = Served::start_with(
        &[
            "--db",
            db.to_str().unwrap(),
            "--limit",
            "finished_bot_rooms=3",
            "--limit",
            "finished_rooms=2",
        ],
        Stdio::null(),
    );
    // A person's game, played to its end.
    let room = create(&served, "koikoi", &["human", "greedy"]);
    let code = room["room"].as_str().unwrap().to_string();
    let token = room["people"][0][1].as_str().unwrap();
    let mut socket = served.connect(&code, token);
    loop {
        let message = socket.read().expect("the game goes on");
        let Ok(v) = serde_json::from_str::<Value>(message.to_text().unwrap_or("")) else {
            continue;
        };
        if v["over"] == true {
            break;
        }
        if v["type"] == "state" && v["legal"].as_array().is_some_and(|l| !l.is_empty()) {
            socket.send(r#"{"choose": 0}"#.into()).unwrap();
        }
    }
    let record = format!("/api/rooms/{code}/record");
    assert!(becomes(&served, &record, 200, 10));
    // Ten games of bots only, each finished.
    let mut last = String::new();
    for _ in 0..10 {
        let bots = create(&served, "koikoi", &["random", "random"]);
        last = bots["room"].as_str().unwrap().to_string();
        assert!(becomes(
            &served,
            &format!("/api/rooms/{last}/record"),
            200,
            30
        ));
    }
    drop(served);
    // The person's game is kept; of the bots', the newest three.
    let listed = crate::common::Yaku::new(["serve", "--rooms", "--db"])
        .arg(db.to_str().unwrap())
        .expect(0)
        .stdout;
    assert!(listed.contains(&code), "{listed}");
    assert!(listed.contains(&last), "{listed}");
    assert_eq!(listed.lines().count(), 4, "{listed}");
}

/// Fault 8: rooms nobody joined counted against their maker, and held the server's places, for a
/// week, through a restart.
#[test]
fn rooms_nobody_joins_expire() {
    let dir = TempDir::new("attack-unjoined");
    let db = dir.join("rooms.sqlite");
    let args = [
        "--db",
        db.to_str().unwrap(),
        "--limit",
        "unjoined_time=2s",
        "--limit",
        "rooms_per_address=3",
    ];
    let served = Served::start_with(&args, Stdio::null());
    let rooms: Vec<Value> = (0..3)
        .map(|_| create(&served, "koikoi", &["human", "human"]))
        .collect();
    let body = json!({ "ruleset": "koikoi", "players": ["human", "human"] }).to_string();
    assert_eq!(served.request("POST", "/api/rooms", &body).0, 429);
    // A room a person joined does not expire.
    let code = |room: &Value| room["room"].as_str().unwrap().to_string();
    let joined = served.connect(&code(&rooms[0]), rooms[0]["people"][0][1].as_str().unwrap());
    drop(joined);
    // Within a few seconds the rooms nobody joined are gone, and new ones may be made.
    for room in &rooms[1..] {
        let path = format!("/api/rooms/{}/rules", code(room));
        assert!(becomes(&served, &path, 404, 10), "{room}");
    }
    let path = format!("/api/rooms/{}/rules", code(&rooms[0]));
    assert_eq!(served.request("GET", &path, "").0, 200);
    assert_eq!(served.request("POST", "/api/rooms", &body).0, 200);
    drop(served);
    // A room made just before a stop expires after the restart too.
    let served = Served::start_with(&args, Stdio::null());
    let late = create(&served, "koikoi", &["human", "greedy"]);
    drop(served);
    std::thread::sleep(Duration::from_secs(3));
    let served = Served::start_with(&args, Stdio::null());
    let code = late["room"].as_str().unwrap();
    // Gone at the start, or by the first sweep on a slow machine.
    let path = format!("/api/rooms/{code}/rules");
    assert!(becomes(&served, &path, 404, 10), "{late}");
    for _ in 0..3 {
        create(&served, "koikoi", &["human", "human"]);
    }
}

/// True when the server closes `stream` within `within` (its answer, if any, read and dropped).
fn closed_within(stream: &mut std::net::TcpStream, within: Duration) -> bool {
    use std::io::Read;
    let until = Instant::now() + within;
    let mut sink = [0u8; 4096];
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        stream.set_read_timeout(Some(left)).unwrap();
        match stream.read(&mut sink) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false;
            }
            Err(_) => return true,
        }
    }
}

/// Fault 7: idle connections were never closed (nothing sent, half a request, idle after a
/// request), so a few addresses could hold every connection the server allows.
#[test]
fn silent_connections_are_closed() {
    use std::io::Write;
    let served = Served::start_with(
        &[
            "--limit",
            "header_time=1s",
            "--limit",
            "idle_time=2s",
            "--limit",
            "ping_every=500ms",
        ],
        Stdio::inherit(),
    );
    let open = || std::net::TcpStream::connect(served.host()).unwrap();
    let within = Duration::from_secs(6);
    // Nothing sent.
    let mut silent = open();
    // Half a request's head.
    let mut half_head = open();
    half_head
        .write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
        .unwrap();
    // A whole request, then nothing (kept alive).
    let mut kept = open();
    kept.write_all(b"GET /api/rulesets HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .unwrap();
    // Half a body.
    let mut half_body = open();
    half_body
        .write_all(
            b"POST /api/validate HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n[ruleset]",
        )
        .unwrap();
    for (what, stream) in [
        ("nothing sent", &mut silent),
        ("half a head", &mut half_head),
        ("idle after a request", &mut kept),
        ("half a body", &mut half_body),
    ] {
        assert!(closed_within(stream, within), "{what}: still open");
    }
    // A seat that answers the server's pings stays connected past the idle time; one that
    // never reads is closed.
    let room = create(&served, "koikoi", &["human", "human"]);
    let code = room["room"].as_str().unwrap();
    let mut reading = served.connect(code, room["people"][0][1].as_str().unwrap());
    let mut deaf = served.connect(code, room["people"][1][1].as_str().unwrap());
    let until = Instant::now() + Duration::from_secs(4);
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = reading.get_ref() {
        s.set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
    }
    while Instant::now() < until {
        match reading.read() {
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => panic!("a seat that answers pings was dropped: {e}"),
        }
    }
    let tungstenite::stream::MaybeTlsStream::Plain(deaf) = deaf.get_mut() else {
        panic!("a plain stream")
    };
    assert!(
        closed_within(deaf, within),
        "a seat that never reads is still open"
    );
}

/// The head of an answer to `GET path` with `headers` (each line ending in `\r\n`): its status
/// line and headers, lowercased.
fn head_of(served: &Served, path: &str, headers: &str) -> String {
    use std::io::{BufRead, BufReader, Write};
    let mut stream = std::net::TcpStream::connect(served.host()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\n{headers}Connection: close\r\n\r\n"
    )
    .unwrap();
    let mut head = String::new();
    let mut reader = BufReader::new(stream);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            return head.to_lowercase();
        }
        head.push_str(&line);
    }
}

/// Fault 12: any Host and any WebSocket Origin were accepted, so a page whose DNS name was
/// turned to the server's address (DNS rebinding) could drive a server on 127.0.0.1 as its own;
/// and the page carried no security headers while seat tokens travelled in its address.
#[test]
fn only_the_servers_own_names_and_page_are_answered() {
    let served = Served::start_with(
        &["--public-url", "https://table.example.org"],
        Stdio::inherit(),
    );
    let host = served.host();
    // Another site's name for this address is refused; the server's own names are answered.
    let rebound = head_of(&served, "/api/rulesets", "Host: attacker.example\r\n");
    assert!(rebound.starts_with("http/1.1 421"), "{rebound}");
    for name in [host.as_str(), "localhost", "table.example.org"] {
        let answered = head_of(&served, "/api/rulesets", &format!("Host: {name}\r\n"));
        assert!(answered.starts_with("http/1.1 200"), "{name}: {answered}");
    }
    // A WebSocket or a change from another site's page is refused; from the server's own
    // page, answered.
    let upgrade = "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
                   Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    let room = create(&served, "koikoi", &["human", "greedy"]);
    let path = format!("/api/rooms/{}/ws", room["room"].as_str().unwrap());
    let evil = format!("Host: {host}\r\n{upgrade}Origin: http://evil.example\r\n");
    let refused = head_of(&served, &path, &evil);
    assert!(refused.starts_with("http/1.1 403"), "{refused}");
    let own = format!("Host: {host}\r\n{upgrade}Origin: http://{host}\r\n");
    let accepted = head_of(&served, &path, &own);
    assert!(accepted.starts_with("http/1.1 101"), "{accepted}");
    let body = json!({ "ruleset": "koikoi", "players": ["human", "greedy"] }).to_string();
    let (status, answer) = served.request_with(
        "POST",
        "/api/rooms",
        "Origin: http://evil.example\r\n",
        &body,
    );
    assert_eq!(status, 403, "{answer}");
    // The page keeps out of other sites' frames and its address out of referrers.
    let page = head_of(&served, "/", &format!("Host: {host}\r\n"));
    for header in [
        "content-security-policy: default-src 'self'",
        "frame-ancestors 'none'",
        "referrer-policy: no-referrer",
        "x-content-type-options: nosniff",
        "x-frame-options: deny",
    ] {
        assert!(page.contains(header), "{header}: {page}");
    }
    // A rule sheet may be framed by the server's own page only, and runs no script.
    let sheet = head_of(&served, "/api/rules/koikoi", &format!("Host: {host}\r\n"));
    assert!(sheet.contains("frame-ancestors 'self'"), "{sheet}");
    assert!(!sheet.contains("script-src"), "{sheet}");
    // A token in a WebSocket's address opens nothing: the first message must carry it.
    let token = room["people"][0][1].as_str().unwrap();
    let url = format!("ws://{host}{path}?token={token}");
    let (mut socket, _) = tungstenite::connect(url).unwrap();
    socket.send(r#"{"hello": 1}"#.into()).unwrap();
    let said: Value = serde_json::from_str(socket.read().unwrap().to_text().unwrap()).unwrap();
    assert_eq!(said["code"], "token", "{said}");
}

/// Behind a reverse proxy every client had the proxy's address: a trusted proxy's
/// `X-Forwarded-For` names the client, and nobody else's is believed.
#[test]
fn a_trusted_proxy_names_each_client() {
    let body = json!({ "ruleset": "koikoi", "players": ["human", "human"] }).to_string();
    let from = |served: &Served, client: &str| {
        let header = format!("X-Forwarded-For: {client}\r\n");
        served.request_with("POST", "/api/rooms", &header, &body).0
    };
    let proxied = Served::start_with(
        &[
            "--trusted-proxy",
            "127.0.0.1",
            "--limit",
            "rooms_per_address=1",
        ],
        Stdio::inherit(),
    );
    assert_eq!(from(&proxied, "203.0.113.1"), 200);
    assert_eq!(from(&proxied, "203.0.113.1"), 429);
    assert_eq!(from(&proxied, "203.0.113.2"), 200);
    let direct = Served::start_with(&["--limit", "rooms_per_address=1"], Stdio::inherit());
    assert_eq!(from(&direct, "203.0.113.1"), 200);
    assert_eq!(from(&direct, "203.0.113.2"), 429);
}

/// Fault 13: two servers on one database both served, each with its own copy of a room. Also:
/// a server started again without `--listen` serves on its last port, so that links sent
/// before the restart still work.
#[test]
fn one_database_serves_one_server_on_its_last_port() {
    let dir = TempDir::new("attack-two-servers");
    let db = dir.join("rooms.sqlite");
    let db = db.to_str().unwrap();
    let first = Served::start_with(&["--db", db], Stdio::null());
    let second = crate::common::Yaku::new(["serve", "--no-open", "--db", db])
        .within(Duration::from_secs(30))
        .expect(1);
    let pid = first.child.id().to_string();
    assert!(
        second.stderr.contains("is in use by another `yaku serve`")
            && second.stderr.contains(&pid)
            && second.stderr.contains(&first.url),
        "{}",
        second.stderr
    );
    let port = first.url.clone();
    drop(first);
    let again = Served::start_with(&["--db", db], Stdio::null());
    assert_eq!(again.url, port, "the last port is served again");
}

/// The most memory the server process has held (its `VmHWM`), in KiB.
fn peak_kib(served: &Served) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", served.child.id())).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// Fault 9: a 15.7 MB pasted rule file cost 772 MB of the server's memory, and twelve at once
/// took it past 6 GB. A pasted file is held to 256 KiB, and only a few are parsed at once.
#[test]
fn pasted_rule_files_are_bounded_in_size_and_memory() {
    let served = Served::start();
    // The lobby loaded: the memory measured from here is the checks'.
    assert_eq!(served.request("GET", "/api/rulesets", "").0, 200);
    let before = peak_kib(&served);
    // As many small values as fit in 256 KiB: the costliest file to parse for its size.
    let values = vec!["1"; 87_000].join(",");
    let heavy = format!("[ruleset]\nid = \"heavy\"\nname = \"Heavy\"\n\n[flow]\nxs = [{values}]\n");
    assert!(heavy.len() <= 256 * 1024, "{}", heavy.len());
    let host = served.host();
    let checks: Vec<_> = (0..12)
        .map(|_| {
            let (host, heavy) = (host.clone(), heavy.clone());
            std::thread::spawn(move || super::http(&host, "POST", "/api/validate", "", &heavy))
        })
        .collect();
    let statuses: Vec<u16> = checks
        .into_iter()
        .map(|t| t.join().unwrap().map_or(0, |(status, _)| status))
        .collect();
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 503),
        "{statuses:?}"
    );
    assert!(statuses.contains(&200), "{statuses:?}");
    let grown = peak_kib(&served).saturating_sub(before);
    assert!(
        grown < 250 * 1024,
        "twelve pasted files at once took {} MiB: {statuses:?}",
        grown / 1024
    );
    // A larger file is refused at once, in words.
    let large = format!("{heavy}# {}\n", "x".repeat(300 * 1024));
    let asked = Instant::now();
    let (status, answer) = served.request("POST", "/api/validate", &large);
    assert_eq!(status, 413, "{answer}");
    assert!(asked.elapsed() < Duration::from_secs(2));
    // 16 MB: refused before it is read whole (written on a thread of its own, since the server
    // answers before reading it).
    let mut stream = std::net::TcpStream::connect(served.host()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut writer = stream.try_clone().unwrap();
    std::thread::spawn(move || {
        use std::io::Write;
        let huge = 16 * 1024 * 1024;
        let _ = write!(
            writer,
            "POST /api/rooms HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
             Content-Length: {huge}\r\n\r\n{}",
            " ".repeat(huge)
        );
    });
    let mut answer = [0; 12];
    std::io::Read::read_exact(&mut stream, &mut answer).unwrap();
    assert_eq!(&answer, b"HTTP/1.1 413");
    let body = json!({ "ruleset": "koikoi", "rules": large, "players": ["human", "greedy"] });
    let (status, answer) = served.request("POST", "/api/rooms", &body.to_string());
    assert_eq!(status, 413, "{answer}");
    assert!(answer.contains("256 KiB at most"), "{answer}");
}

/// A room's creator closes it: nobody moves in it again, every connection is told, the room no
/// longer counts against its maker, and its record stays.
#[test]
fn the_creator_closes_a_room() {
    let served = Served::start_with(&["--limit", "rooms_per_address=1"], Stdio::inherit());
    let room = create(&served, "koikoi", &["human", "human"]);
    let code = room["room"].as_str().unwrap();
    let (creator, other) = (
        room["people"][0][1].as_str().unwrap(),
        room["people"][1][1].as_str().unwrap(),
    );
    let body = json!({ "ruleset": "koikoi", "players": ["human", "human"] }).to_string();
    assert_eq!(served.request("POST", "/api/rooms", &body).0, 429);
    let mut seat = served.connect(code, other);
    let close = format!("/api/rooms/{code}/close");
    let ask = |token: &str| json!({ "token": token }).to_string();
    let (status, answer) = served.request("POST", &close, &ask(other));
    assert_eq!(status, 403, "{answer}");
    let (status, answer) = served.request("POST", &close, &ask(creator));
    assert_eq!(status, 200, "{answer}");
    loop {
        let message = seat.read().expect("the seat is told");
        let Ok(v) = serde_json::from_str::<Value>(message.to_text().unwrap_or("")) else {
            continue;
        };
        if v["type"] == "closed" {
            assert!(v["message"].as_str().unwrap().contains("closed"), "{v}");
            break;
        }
    }
    let (status, _) = served.request("GET", &format!("/api/rooms/{code}/record"), "");
    assert_eq!(status, 200);
    assert_eq!(served.request("POST", "/api/rooms", &body).0, 200);
}
