//! The seat protocol through the binary: the guide's Python bot plays whole games in `yaku sim`
//! and `yaku play` against yaku's bots, and a program that fails loses its seat without the
//! game being lost; a program that does not read its input loses it too (issue 41, fault 5),
//! and a program's process group ends with its seat or with yaku (fault 6).

use crate::common::{TempDir, Yaku, bin, kill_if_alive, process_alive, root, wait_for_pid_file};
use std::time::Duration;

/// `python3`, or `None` where it is missing (then the tests that need it are skipped, except
/// under CI, which installs it).
pub(crate) fn python() -> Option<&'static str> {
    let found = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found || std::env::var_os("CI").is_none(),
        "CI is set but python3 is not installed (apt-get install python3)"
    );
    if !found {
        eprintln!("SKIPPED the protocol bot tests: python3 is not installed");
    }
    found.then_some("python3")
}

fn bot() -> String {
    format!(
        "cmd:python3 {}",
        root().join("examples/protocol_bot.py").display()
    )
}

#[test]
fn the_guides_python_bot_plays_whole_games_in_sim() {
    if python().is_none() {
        return;
    }
    for (ruleset, others) in [
        ("koikoi", "random"),
        ("gostop", "random,random"),
        ("scopa", "greedy"),
    ] {
        let players = format!("{},{others}", bot());
        let out = Yaku::new(["sim", ruleset, "--games", "4", "--players", &players]).expect(0);
        assert!(out.stdout.contains("4 games"), "{ruleset}: {}", out.stdout);
        assert!(
            out.stdout.contains("cmd:python3"),
            "{ruleset}: {}",
            out.stdout
        );
    }
    // It beats random play at Koi-Koi: it takes what it can.
    let players = format!("{},random", bot());
    let out = Yaku::new([
        "sim",
        "koikoi",
        "--games",
        "40",
        "--players",
        &players,
        "--json",
    ])
    .expect(0);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let wins = json["seats"][0]["wins"].as_u64();
    assert!(wins.is_some_and(|w| w > 20), "{}", out.stdout);
}

#[test]
fn the_guides_python_bot_plays_a_game_at_the_table() {
    if python().is_none() {
        return;
    }
    let dir = TempDir::new("protocol-play");
    let players = format!("{},greedy", bot());
    let out = Yaku::new([
        "play",
        "koikoi",
        "--seed",
        "4",
        "--rounds",
        "2",
        "--players",
        &players,
    ])
    .current_dir(&dir)
    .expect(0);
    assert!(out.stdout.contains("game over"), "{}", out.stdout);
    assert!(!out.stdout.contains("lost its seat"), "{}", out.stdout);
}

#[test]
fn a_program_that_fails_loses_its_seat_and_the_game_goes_on() {
    let dir = TempDir::new("protocol-fail");
    let script = dir.write("bad.sh", "read line; read line; echo 'this is not json'\n");
    let players = format!("cmd:sh {},greedy", script.display());
    let out = Yaku::new([
        "play",
        "koikoi",
        "--seed",
        "4",
        "--rounds",
        "1",
        "--players",
        &players,
    ])
    .current_dir(&dir)
    .expect(0);
    assert!(
        out.stdout
            .contains("lost its seat: the answer is not a protocol answer")
            && out.stdout.contains("greedy plays it from here"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("game over"), "{}", out.stdout);
    // In a simulation the failure stops the run: a bot in its place would change the figures.
    let out = Yaku::new(["sim", "koikoi", "--games", "2", "--players", &players]).expect(1);
    assert!(out.stderr.contains("lost its seat"), "{}", out.stderr);
    // A program that exits at once: writing to it is an error, not the end of yaku (SIGPIPE).
    let out = Yaku::new([
        "play",
        "koikoi",
        "--seed",
        "4",
        "--rounds",
        "1",
        "--players",
        "cmd:false,greedy",
    ])
    .expect(0);
    assert!(
        out.stdout.contains("`cmd:false` lost its seat") && out.stdout.contains("game over"),
        "{}",
        out.stdout
    );
    let out = Yaku::new([
        "sim",
        "koikoi",
        "--games",
        "2",
        "--players",
        "cmd:false,greedy",
    ]);
    assert!(out.expect(1).stderr.contains("`cmd:false` lost its seat"));
    // A program that cannot start is refused with the reason.
    let out = Yaku::new([
        "sim",
        "koikoi",
        "--games",
        "2",
        "--players",
        "cmd:/no/such/bot,greedy",
    ])
    .expect(1);
    assert!(
        out.stderr.contains("cannot start `/no/such/bot`"),
        "{}",
        out.stderr
    );
}

/// Issue 41, fault 5: a program that answers but never reads its input (`yes`) filled the pipe
/// and yaku waited for ever on the write; now a write has the answer time too, and the program
/// loses its seat when it does not take a message in time.
#[test]
fn a_program_that_never_reads_its_input_loses_its_seat() {
    let players = r#"cmd:yes {"choose":0},greedy"#;
    let (sim, play) = std::thread::scope(|s| {
        let sim = s.spawn(|| {
            Yaku::new(["sim", "koikoi", "--games", "1", "--players", players])
                .within(Duration::from_secs(120))
                .expect(1)
        });
        let play = s.spawn(|| {
            let dir = TempDir::new("protocol-no-reading");
            Yaku::new([
                "play",
                "koikoi",
                "--seed",
                "4",
                "--players",
                players,
                "--line",
            ])
            .current_dir(&dir)
            .within(Duration::from_secs(120))
            .expect(0)
        });
        (sim.join().unwrap(), play.join().unwrap())
    });
    let why = "lost its seat: it did not take its input within 10 s";
    assert!(sim.stderr.contains(why), "{}", sim.stderr);
    assert!(
        play.stdout.contains(why) && play.stdout.contains("game over"),
        "{}",
        play.stdout
    );
}

/// A seat program that starts a child (the `sleep` it writes the id of to `pid`), then answers
/// each turn after `delay`, or fails at its first turn with an answer that is no protocol
/// answer when `fails`.
fn parent_bot(dir: &TempDir, delay: &str, fails: bool) -> String {
    let answer = if fails {
        "read line; read line; echo 'this is not json'; sleep 300\n".to_string()
    } else {
        format!("while read line; do sleep {delay}; echo '{{\"choose\":0}}'; done\n")
    };
    let script = dir.write(
        "parent.sh",
        format!(
            "sleep 301 &\necho $! > '{}'\n{answer}",
            dir.join("pid").display()
        ),
    );
    format!("cmd:sh {}", script.display())
}

/// Issue 41, fault 6: a program that fails loses its seat with its whole process group (the
/// child it started too), in `play` and in `sim`; yaku does not wait on the pipe the child
/// still holds.
#[test]
fn a_program_that_fails_is_ended_with_its_children() {
    for command in ["play", "sim"] {
        let dir = TempDir::new(&format!("protocol-group-{command}"));
        let players = format!("{},greedy", parent_bot(&dir, "0", true));
        let args: Vec<&str> = match command {
            "play" => vec!["play", "koikoi", "--seed", "4", "--rounds", "1", "--line"],
            _ => vec!["sim", "koikoi", "--games", "1"],
        };
        let out = Yaku::new(args)
            .arg("--players")
            .arg(&players)
            .current_dir(&dir)
            .within(Duration::from_secs(60))
            .run();
        assert!(
            format!("{}{}", out.stdout, out.stderr).contains("lost its seat"),
            "{command}: {out:?}"
        );
        let child = wait_for_pid_file(&dir.join("pid"), Duration::from_secs(5));
        // The group is killed before yaku goes on: its child is gone (or going) at once.
        std::thread::sleep(Duration::from_millis(200));
        assert!(
            !kill_if_alive(child),
            "{command}: the program's child still runs"
        );
    }
}

/// Issue 41, fault 6: a program still playing when yaku is interrupted (SIGTERM, SIGINT) is
/// ended with its whole process group, which the terminal's Ctrl-C no longer reaches.
#[test]
fn an_interrupt_ends_the_programs_and_their_children() {
    for (command, signal) in [("play", libc::SIGTERM), ("sim", libc::SIGINT)] {
        let dir = TempDir::new(&format!("protocol-interrupt-{command}"));
        let players = format!("{},greedy", parent_bot(&dir, "0.05", false));
        let args: Vec<&str> = match command {
            "play" => vec!["play", "koikoi", "--seed", "4", "--line"],
            _ => vec!["sim", "koikoi", "--games", "1000"],
        };
        let mut yaku = std::process::Command::new(bin())
            .args(args)
            .args(["--players", &players])
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let child = wait_for_pid_file(&dir.join("pid"), Duration::from_secs(30));
        assert!(process_alive(child), "{command}: the program's child runs");
        // SAFETY: a signal to our own child process.
        unsafe {
            libc::kill(yaku.id() as i32, signal);
        }
        let status = yaku.wait().unwrap();
        assert_eq!(status.code(), Some(128 + signal), "{command}");
        std::thread::sleep(Duration::from_millis(200));
        assert!(
            !kill_if_alive(child),
            "{command}: the program's child still runs"
        );
    }
}

/// A program that logs every message it is sent, answers each `turn` with its first move and,
/// given `quiet`, asks not to be sent forced moves.
fn logging_bot(dir: &TempDir, log: &std::path::Path, quiet: bool) -> String {
    let script = dir.write(
        "logging_bot.py",
        format!(
            r#"import json, sys
log = open({log:?}, "w")
for line in sys.stdin:
    log.write(line)
    log.flush()
    message = json.loads(line)
    if message["type"] == "hello" and {quiet}:
        print(json.dumps({{"options": {{"forced": False}}}}), flush=True)
    if message["type"] == "turn":
        print(json.dumps({{"choose": 0}}), flush=True)
log.write("closed\n")
"#,
            log = log.display().to_string(),
            quiet = if quiet { "True" } else { "False" },
        ),
    );
    format!("cmd:python3 {}", script.display())
}

/// Protocol 2: a program's own answers and the `moves` of its turns and of `game_over` are,
/// in order, every move of the game's record (a card it may not see named as `hidden`); the
/// last message is `game_over`, after which its input is closed; a program that asked not to
/// be sent forced moves is never sent a turn of one move, and is told them instead.
#[test]
fn a_program_is_told_every_move_and_the_end_of_the_game() {
    if python().is_none() {
        return;
    }
    let dir = TempDir::new("protocol-v2");
    for (ruleset, others, quiet) in [
        ("koikoi", "greedy", true),
        ("koikoi", "greedy", false),
        ("schnapsen", "greedy", true),
        ("pinochle", "greedy,greedy,greedy", false),
        // The banker's seat makes no choice here: the program sits second.
        ("oicho-kabu", "greedy", true),
    ] {
        let log = dir.join(format!("{ruleset}-{quiet}.log"));
        let record = dir.join(format!("{ruleset}-{quiet}.json"));
        let program = logging_bot(&dir, &log, quiet);
        let players = if ruleset == "oicho-kabu" {
            format!("{others},{program}")
        } else {
            format!("{program},{others}")
        };
        Yaku::new(["play", ruleset, "--seed", "5", "--rounds", "2", "--players"])
            .arg(&players)
            .arg("--record")
            .arg(record.to_str().unwrap())
            .current_dir(&dir)
            .expect(0);
        let text = std::fs::read_to_string(&log).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines.pop(),
            Some("closed"),
            "{ruleset}: the input is closed"
        );
        let messages: Vec<serde_json::Value> = lines
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(messages[0]["protocol"], 2, "{ruleset}");
        let last = messages.last().unwrap();
        assert_eq!(last["type"], "game_over", "{ruleset}: {last}");
        let recorded: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
        let replayed = Yaku::new(["replay", "--json"])
            .arg(record.to_str().unwrap())
            .expect(0);
        let outcome: serde_json::Value = serde_json::from_str(&replayed.stdout).unwrap();
        assert_eq!(last["scores"], outcome["final_scores"], "{ruleset}");
        let mut told = Vec::new();
        for message in &messages {
            told.extend(message["moves"].as_array().into_iter().flatten().cloned());
            if message["type"] == "turn" {
                let legal = message["legal"].as_array().unwrap();
                assert!(
                    !(quiet && legal.len() == 1),
                    "{ruleset}: a forced move was sent: {message}"
                );
                let mut own = legal[0].clone();
                own["seat"] = message["seat"].clone();
                told.push(own);
            }
        }
        let actions = recorded["actions"].as_array().unwrap();
        assert_eq!(told.len(), actions.len(), "{ruleset}: {told:?}");
        for (i, (told, action)) in told.iter().zip(actions).enumerate() {
            if told["hidden"] == true {
                assert_eq!(told["seat"], action["seat"], "{ruleset} move {i}");
                assert_eq!(told["action"], action["action"], "{ruleset} move {i}");
            } else {
                assert_eq!(told, action, "{ruleset} move {i}");
            }
        }
    }
}

/// The guide's bot in its second language (`examples/protocol_bot.rs`, built with the tests)
/// plays whole games of every family, asks not to be sent forced moves, and is told the end.
#[test]
fn the_guides_rust_bot_plays_whole_games_and_hears_the_end() {
    let bot = std::path::Path::new(bin())
        .parent()
        .unwrap()
        .join("examples/protocol_bot");
    assert!(
        bot.exists(),
        "{} is built by `cargo test` (or `cargo build --examples`)",
        bot.display()
    );
    for (ruleset, others) in [
        ("koikoi", "random"),
        ("scopa", "greedy"),
        ("schnapsen", "greedy"),
        ("oicho-kabu", "greedy"),
    ] {
        let players = format!("cmd:{},{others}", bot.display());
        let out = Yaku::new(["sim", ruleset, "--games", "3", "--players", &players]).expect(0);
        assert!(out.stdout.contains("3 games"), "{ruleset}: {}", out.stdout);
        assert_eq!(
            out.stderr.matches("protocol_bot: game over").count(),
            3,
            "{ruleset}: {}",
            out.stderr
        );
    }
}
