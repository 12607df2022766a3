//! The seat protocol through the binary: the guide's Python bot plays whole games in `yaku sim`
//! and `yaku play` against yaku's bots, and a program that fails loses its seat without the
//! game being lost.

use crate::common::{TempDir, Yaku, root};

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
