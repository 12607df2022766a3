//! Mutation fuzzing on the stable toolchain, for a fixed time: the rule-file loader, the
//! expression parser and compiler, the record reader, positions, a seat's answers and the server's HTTP
//! API, each fed its seed corpus (the bundled rulesets, decks and scripts; every `when` of them;
//! records of short games; a turn, answers and options lines; requests to every route) and mutations of
//! it (bytes changed, ranges cut, copied or spliced from another seed, hostile tokens put in).
//!
//! Each input must end without a panic and within [`SLOW`]; after each request to the server
//! its lobby must still answer within [`SLOW`]. A failing input is written to
//! `target/fuzz-failures/` and named in the failure, to be replayed by hand.
//!
//! In CI each target runs for two seconds (`cargo test --test lib fuzz`). A longer run, on as
//! many cores as there are targets:
//!
//! ```text
//! YAKU_FUZZ_SECS=600 YAKU_FUZZ_SEED=$RANDOM cargo test --release --test lib fuzz -- --nocapture
//! ```
//!
//! `YAKU_FUZZ_SECS` is each target's time, `YAKU_FUZZ_SEED` the first seed (the default is
//! fixed, so CI runs are repeatable). cargo-fuzz needs a nightly toolchain; this needs none.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

/// The longest one input may take (a debug build on a busy two-core machine): more is a
/// blow-up to fix, as the `[define]` bomb was.
const SLOW: Duration = Duration::from_secs(10);

/// Tokens that have broken parsers before: numeric limits, escapes, bidi overrides, table
/// headers, references and the syntax of each language.
const TOKENS: &[&str] = &[
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "0",
    "-1",
    "\u{1b}[2J",
    "\u{202e}",
    "\u{0}",
    "\"",
    "'''",
    "[define]\n",
    "[[yaku]]\n",
    "[flow]\n",
    "extends = \"koikoi\"\n",
    "extends = [\"koikoi\", \"koikoi\"]\n",
    "remove_yaku = [\"goko\"]\n",
    "when = \"",
    "count(pile)",
    "if true then 1 else 2",
    " and ",
    " + ",
    "((((((((",
    "))))",
    "\"players\": [",
    "\"actions\": [",
    "\"deals\": [[",
    "{\"seat\": 0, \"action\": \"play\", \"card\": \"pine-1\"}",
    "null",
    "1e999",
    "fn score(hand) { loop {} }",
];

/// The first seed of a run.
fn first_seed() -> u64 {
    std::env::var("YAKU_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_0034)
}

/// Each target's time.
fn budget() -> Duration {
    let secs = std::env::var("YAKU_FUZZ_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2.0_f64);
    Duration::from_secs_f64(secs)
}

/// A mutation of one of `corpus`: one to four edits.
fn mutate(corpus: &[String], rng: &mut Xoshiro256PlusPlus) -> String {
    let mut bytes = corpus[rng.random_range(0..corpus.len())]
        .as_bytes()
        .to_vec();
    for _ in 0..rng.random_range(1..=4) {
        let len = bytes.len();
        let at = if len == 0 {
            0
        } else {
            rng.random_range(0..=len)
        };
        match rng.random_range(0..6) {
            0 if len > 0 => {
                let i = rng.random_range(0..len);
                bytes[i] = b"\"[]=\n+(),{}:-9a_. #'\\"[rng.random_range(0..21)];
            }
            1 if len > 0 => {
                let end = (at + rng.random_range(1..64)).min(len);
                bytes.drain(at.min(end)..end);
            }
            2 => {
                let token = TOKENS[rng.random_range(0..TOKENS.len())];
                bytes.splice(at..at, token.bytes());
            }
            3 if len > 0 => {
                // A range copied in place, up to 32 times (repeated structures).
                let start = rng.random_range(0..len);
                let end = (start + rng.random_range(1..128)).min(len);
                let piece = bytes[start..end].repeat(rng.random_range(1..=32));
                bytes.splice(at..at, piece);
            }
            4 => {
                // A piece of another seed.
                let other = corpus[rng.random_range(0..corpus.len())].as_bytes();
                if !other.is_empty() {
                    let start = rng.random_range(0..other.len());
                    let end = (start + rng.random_range(1..256)).min(other.len());
                    bytes.splice(at..at, other[start..end].iter().copied());
                }
            }
            _ => bytes.truncate(at),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Runs `target` on the seeds, then on mutations until the budget is spent. A panic or a slow
/// input is saved and fails the test.
fn fuzz(name: &str, corpus: &[String], target: impl Fn(&str)) {
    assert!(!corpus.is_empty(), "{name}: no seeds");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(first_seed() ^ name.len() as u64);
    let deadline = Instant::now() + budget();
    let mut runs = 0usize;
    let mut next = 0usize;
    while next < corpus.len() || Instant::now() < deadline {
        let input = if next < corpus.len() {
            next += 1;
            corpus[next - 1].clone()
        } else {
            mutate(corpus, &mut rng)
        };
        let started = Instant::now();
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| target(&input)));
        let took = started.elapsed();
        runs += 1;
        let problem = match outcome {
            Err(_) => Some("panicked".to_string()),
            Ok(()) if took > SLOW => Some(format!("took {took:?}")),
            Ok(()) => None,
        };
        if let Some(problem) = problem {
            let dir = crate::common::root().join("target").join("fuzz-failures");
            std::fs::create_dir_all(&dir).unwrap();
            let file = dir.join(format!("{name}-{runs}.txt"));
            std::fs::write(&file, &input).unwrap();
            panic!(
                "fuzz target `{name}` {problem} on input {runs}, saved to {}",
                file.display()
            );
        }
    }
    eprintln!("fuzz {name}: {runs} inputs");
}

/// The bundled files whose path ends with `ext`.
fn bundled(ext: &str) -> Vec<String> {
    yaku::ruleset::bundled::FILES
        .iter()
        .filter(|(p, _)| p.ends_with(ext))
        .map(|(_, text)| text.to_string())
        .collect()
}

#[test]
fn rule_file_loader() {
    let mut corpus = bundled(".toml");
    corpus.extend(bundled(".rhai").into_iter().map(|script| {
        format!(
            "[ruleset]\nid = \"s\"\nextends = \"koikoi\"\n[scoring]\nsource = '''\n{script}\n'''\n"
        )
    }));
    fuzz("loader", &corpus, |text| {
        let loaded = yaku::ruleset::load_str("fuzz.toml", text);
        // Rendering is part of reading a file: it must not panic either.
        let _ = yaku::diag::render_text(&loaded.sources, &loaded.diagnostics);
    });
}

#[test]
fn expression_parser() {
    // Every `when`, `count` and `value` text of the bundled rulesets.
    let mut corpus: Vec<String> = bundled(".toml")
        .iter()
        .flat_map(|text| {
            text.lines()
                .filter_map(|l| {
                    let (key, value) = l.split_once(" = \"")?;
                    let key = key.trim();
                    (key == "when" || key == "count" || key == "value" || key == "points")
                        .then(|| value.trim_end().trim_end_matches('"').to_string())
                })
                .collect::<Vec<_>>()
        })
        .collect();
    corpus.push("count(brights) >= 3 and not has(rain-man)".into());
    let ruleset = yaku::ruleset::load("koikoi").value.expect("koikoi loads");
    let facts = ["round", "rounds"];
    fuzz("expr", &corpus, |text| {
        if let Ok(tree) = yaku::expr::parse(text) {
            // Printing what parsed must not panic (parsing it back is `language::expr`'s).
            let _ = yaku::expr::parse(&tree.to_string());
            for want in [
                yaku::expr::Type::Bool,
                yaku::expr::Type::Int,
                yaku::expr::Type::Set,
            ] {
                let names = yaku::expr::Names::of(&ruleset.deck, &facts);
                if let Ok(program) = yaku::expr::compile(&tree, want, &names) {
                    let cx = yaku::expr::Context {
                        pile: ruleset.deck.all(),
                        facts: &[1, 12],
                    };
                    match want {
                        yaku::expr::Type::Bool => {
                            program.truth(&cx);
                        }
                        yaku::expr::Type::Int => {
                            program.int(&cx);
                        }
                        yaku::expr::Type::Set => {
                            program.set(&cx);
                        }
                    }
                }
            }
        }
    });
}

/// Plays one hand of each `(ruleset, players)` through the binary with seed 7, recording it
/// in `dir`; the records' file names.
fn record_games(dir: &crate::common::TempDir, games: &[(&str, &str)]) -> Vec<String> {
    games
        .iter()
        .map(|(ruleset, players)| {
            let file = format!("{ruleset}.json");
            crate::common::Yaku::new([
                "play",
                ruleset,
                "--players",
                players,
                "--rounds",
                "1",
                "--seed",
                "7",
                "--record",
                &file,
            ])
            .current_dir(dir)
            .expect(0);
            file
        })
        .collect()
}

#[test]
fn record_reader() {
    // Records of short games of each family, written by the binary.
    let dir = crate::common::TempDir::new("fuzz-records");
    let corpus: Vec<String> = record_games(
        &dir,
        &[
            ("koikoi", "greedy,random"),
            ("schnapsen", "greedy,random"),
            ("kolyesi", "seed,seed"),
            ("gostop", "greedy,random,random"),
        ],
    )
    .iter()
    .map(|file| std::fs::read_to_string(dir.join(file)).unwrap())
    .collect();
    let rulesets: Vec<std::sync::Arc<yaku::ruleset::Ruleset>> =
        ["koikoi", "schnapsen", "kolyesi", "gostop"]
            .iter()
            .map(|r| std::sync::Arc::new(yaku::ruleset::load(r).value.expect("bundled loads")))
            .collect();
    fuzz("record", &corpus, |text| {
        let Ok(record) = yaku::core::record::Record::from_json(text) else {
            return;
        };
        if let Some(ruleset) = rulesets.iter().find(|r| r.id == record.ruleset.id) {
            let _ = yaku::families::replay(&record, std::sync::Arc::clone(ruleset));
        }
        let _ = record.to_json();
    });
}

#[test]
fn positions() {
    // Positions of short games of each family printed by `replay --position-at`, and one
    // written by hand; the library reads and deals them, and plays every move on offer.
    let dir = crate::common::TempDir::new("fuzz-positions");
    let mut corpus = vec![
        "ruleset = \"koikoi\"\ndealer = 0\nmoves = [{ action = \"play\", card = \"cherry-curtain\" }]\n[deal]\n\"hand 0\" = \"cherry-curtain pine-1\"\ntable = [\"cherry-poetry\", \"cherry-1\"]\nstock = \"pine-2\"\n".to_string(),
    ];
    let names = ["koikoi", "schnapsen", "oicho-kabu", "gostop", "scopa"];
    let files = record_games(
        &dir,
        &[
            ("koikoi", "greedy,random"),
            ("schnapsen", "greedy,random"),
            ("oicho-kabu", "greedy,greedy"),
            ("gostop", "greedy,random,random"),
            ("scopa", "greedy,random"),
        ],
    );
    for file in &files {
        for at in ["0", "3", "8"] {
            let out = crate::common::Yaku::new(["replay", file, "--position-at", at])
                .current_dir(&dir)
                .run();
            if out.code == 0 {
                corpus.push(out.stdout);
            }
        }
    }
    let rulesets: Vec<std::sync::Arc<yaku::ruleset::Ruleset>> = names
        .iter()
        .map(|r| std::sync::Arc::new(yaku::ruleset::load(r).value.expect("bundled loads")))
        .collect();
    fuzz("position", &corpus, |text| {
        use yaku::families::position::{Position, start};
        let Ok(position) = Position::parse(text) else {
            return;
        };
        // Only the rulesets loaded above: a fuzzed name is never read from the disk.
        let Some(ruleset) = rulesets
            .iter()
            .find(|r| r.id == *position.ruleset.get_ref())
        else {
            return;
        };
        let _ = position.to_text();
        let Ok(game) = start(&position, std::sync::Arc::clone(ruleset), true) else {
            return;
        };
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        for &action in &legal {
            let mut next = game.box_clone();
            let _ = next.apply(action);
        }
    });
}

#[test]
fn seat_messages() {
    // A seat's answers, as programs and pages send them, and what a protocol program is sent.
    let ruleset = std::sync::Arc::new(yaku::ruleset::load("koikoi").value.expect("koikoi loads"));
    let options = yaku::core::StartOptions {
        seed: 3,
        rounds: Some(1),
        ..Default::default()
    };
    let game = yaku::families::start(std::sync::Arc::clone(&ruleset), options).unwrap();
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let seat = game.to_act().unwrap();
    let mut corpus: Vec<String> = vec![
        r#"{"choose": 0}"#.into(),
        r#"{"choose": 18446744073709551615}"#.into(),
        r#"{"action": {"action": "play", "card": "pine-crane"}}"#.into(),
        r#"{"action": {"action": "capture_set", "card": "pine-crane", "cards": ["pine-1"]}}"#
            .into(),
        r#"{"action": {"action": "declare", "id": "koikoi"}}"#.into(),
        r#"{"action": {"action": "bet", "amount": -1}}"#.into(),
        r#"{"token": "00"}"#.into(),
        r#"{"options": {"forced": false}}"#.into(),
        r#"{"options": {}}"#.into(),
    ];
    corpus.push(serde_json::to_string(&yaku::core::protocol::turn(&*game, seat, &legal)).unwrap());
    fuzz("seat", &corpus, |text| {
        // As a program's line is read: an options line, else an answer.
        if yaku::core::protocol::options_in(text).is_none() {
            let _ = yaku::core::protocol::answered(text, &legal, &ruleset);
        }
    });
}

/// A `yaku serve` for the API fuzzer: rooms in memory, every per-address limit lifted (the fuzzer
/// is one address), killed when dropped.
struct FuzzedServer {
    /// The server process, killed when dropped.
    _served: crate::serve::Served,
    host: String,
}

impl FuzzedServer {
    fn start() -> FuzzedServer {
        let served = crate::serve::Served::start_with(
            &[
                "--limit",
                "requests_per_second=1000000",
                "--limit",
                "request_burst=1000000",
                "--limit",
                "rooms_per_address=100000",
                "--limit",
                "rooms=100000",
                "--limit",
                "connections_per_address=4000",
                "--limit",
                "messages_per_second=1000000",
                "--limit",
                "message_burst=1000000",
                "--limit",
                "header_time=2s",
                "--limit",
                "idle_time=2s",
            ],
            std::process::Stdio::null(),
        );
        let host = served.host();
        FuzzedServer {
            _served: served,
            host,
        }
    }

    /// Sends `bytes` on a new connection and reads what comes back (at most a few seconds);
    /// `hang_up` closes the sending half at once (hyper then may drop the answer: the fuzzed
    /// requests need no answer, only an end).
    fn send(&self, bytes: &[u8], hang_up: bool) -> Vec<u8> {
        self.send_within(bytes, hang_up, Duration::from_secs(3))
    }

    /// [`FuzzedServer::send`], waiting up to `patience` for the answer (the test's own setup,
    /// which a loaded machine may answer slowly: it is not a fuzzed input).
    fn send_within(&self, bytes: &[u8], hang_up: bool, patience: Duration) -> Vec<u8> {
        use std::io::{Read, Write};
        let Ok(mut stream) = std::net::TcpStream::connect(&self.host) else {
            return Vec::new();
        };
        let _ = stream.set_read_timeout(Some(patience));
        let _ = stream.write_all(bytes);
        if hang_up {
            let _ = stream.shutdown(std::net::Shutdown::Write);
        }
        let mut answer = Vec::new();
        let _ = stream.take(1 << 20).read_to_end(&mut answer);
        answer
    }

    /// True when the server still answers its lobby at once.
    fn answers(&self) -> bool {
        let asked = Instant::now();
        let answer = self.send_within(
            b"GET /api/rulesets HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
            false,
            SLOW,
        );
        answer.starts_with(b"HTTP/1.1 200") && asked.elapsed() < SLOW
    }
}

#[test]
fn http_api() {
    let server = FuzzedServer::start();
    let post = |path: &str, body: &str| {
        format!(
            "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    };
    // A room to name, with its tokens.
    let made = server.send_within(
        post(
            "/api/rooms",
            r#"{"ruleset":"koikoi","players":["human","human"],"hands":1}"#,
        )
        .as_bytes(),
        false,
        Duration::from_secs(60),
    );
    let made = String::from_utf8_lossy(&made).to_string();
    let json = made.split("\r\n\r\n").nth(1).unwrap_or_default();
    let room: serde_json::Value = serde_json::from_str(json).expect("a room is made");
    let code = room["room"].as_str().expect("its code").to_string();
    let token = room["people"][0][1]
        .as_str()
        .expect("a seat's token")
        .to_string();
    let get =
        |path: &str| format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    let corpus = vec![
        get("/"),
        get("/api/rulesets"),
        get("/api/rules/koikoi"),
        get(&format!("/api/rooms/{code}/rules")),
        get(&format!("/api/rooms/{code}/record")),
        get("/api/house-rules"),
        get("/api/bots"),
        post("/api/rooms", r#"{"ruleset":"gostop","players":["human","greedy","random"],"hands":1}"#),
        post("/api/rooms", r#"{"rules":"[ruleset]\nid = \"x\"\nextends = \"koikoi\"\n","players":["human","greedy"]}"#),
        post("/api/validate", "[ruleset]\nid = \"x\"\nextends = \"koikoi\"\n"),
        post("/api/rules", "[ruleset]\nid = \"x\"\nextends = \"koikoi\"\n"),
        post(&format!("/api/rooms/{code}/bot"), &format!(r#"{{"token":"{token}","seat":1,"bot":"greedy"}}"#)),
        post(&format!("/api/rooms/{code}/close"), r#"{"token":"00"}"#),
        format!(
            "GET /api/rooms/{code}/ws HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n\
             \u{81}\u{10}{{\"token\":\"{}\"}}",
            &token[..token.len().min(3)]
        ),
        "GET / HTTP/1.0\r\n\r\n".to_string(),
        "POST /api/rooms HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n0\r\n\r\n".to_string(),
    ];
    fuzz("http", &corpus, |request| {
        let _ = server.send(request.as_bytes(), true);
        assert!(
            server.answers(),
            "the server stopped answering after {request:?}"
        );
    });
}
