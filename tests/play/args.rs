//! Command-line checks that must fail before any play: `--rounds` out of range, `--record` and
//! `--save` paths that cannot be written.

use super::run::{bin, temp_dir, yaku};
use std::io::{Read, Write};
use std::process::Stdio;

#[test]
fn rounds_outside_1_to_1000_is_a_usage_error() {
    for rounds in ["0", "1001", "999999999"] {
        for command in [
            &[
                "play",
                "koikoi",
                "--players",
                "greedy,greedy",
                "--seed",
                "1",
            ][..],
            &["sim", "koikoi", "--games", "3"][..],
        ] {
            let out = yaku(&[command, &["--rounds", rounds]].concat()).expect(2);
            assert!(
                out.stderr
                    .contains(&format!("invalid value '{rounds}' for '--rounds <N>'")),
                "{}",
                out.stderr
            );
            assert!(out.stderr.contains("1..=1000"), "{}", out.stderr);
            assert!(out.stdout.is_empty(), "nothing was played: {}", out.stdout);
        }
    }
    // The bounds themselves are accepted.
    let out = yaku(&["sim", "koikoi", "--games", "1", "--rounds", "1"]).expect(0);
    assert!(out.stdout.contains("1 game, 1 round,"), "{}", out.stdout);
    let dir = temp_dir("rounds");
    let out = yaku(&["play", "koikoi", "--seed", "1", "--rounds", "1000"])
        .current_dir(&dir)
        .expect(0);
    assert!(out.stdout.contains("round 1 of 1000"), "{}", out.stdout);
}

#[test]
fn a_record_path_that_cannot_be_written_fails_before_play() {
    let dir = temp_dir("record-path");
    let bots = [
        "play",
        "koikoi",
        "--players",
        "greedy,greedy",
        "--rounds",
        "1",
    ];
    let missing = dir.join("no-such-dir").join("x.json");
    for (path, why) in [
        (dir.to_path_buf(), "it is a directory".to_string()),
        (
            missing.clone(),
            format!(
                "the directory `{}` does not exist",
                dir.join("no-such-dir").display()
            ),
        ),
    ] {
        let path = path.display().to_string();
        let out = yaku(&[&bots[..], &["--record", &path]].concat()).expect(1);
        assert!(
            out.stderr.contains(&format!(
                "error: cannot write the record to `{path}`: {why}"
            )),
            "{}",
            out.stderr
        );
        assert!(out.stderr.contains("the game was not started"));
        assert!(out.stdout.is_empty(), "nothing was played: {}", out.stdout);
    }
}

#[test]
fn the_record_is_written_at_the_start_and_kept_current() {
    let dir = temp_dir("record-start");
    // A human game, read prompt by prompt: at each prompt the record on disk is the game so far.
    let mut child = std::process::Command::new(bin())
        .args(["play", "koikoi", "--seed", "7", "--record", "r.json"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut to_prompt = || {
        let mut seen = Vec::new();
        let mut byte = [0u8];
        while !seen.ends_with(b"\n> ") {
            assert_eq!(stdout.read(&mut byte).unwrap(), 1, "the game ended early");
            seen.push(byte[0]);
        }
    };
    let on_disk = || -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap()
    };
    to_prompt();
    let first = on_disk();
    assert_eq!(first["finished"], false);
    assert!(!first["deals"].as_array().unwrap().is_empty());
    let before = first["actions"].as_array().unwrap().len();
    stdin.write_all(b"1\n").unwrap();
    to_prompt();
    let after = on_disk()["actions"].as_array().unwrap().len();
    assert!(after > before, "{before} actions, then {after}");
    drop(stdin);
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert!(rest.contains("(end of input)"), "{rest}");
    assert!(child.wait().unwrap().success());
    // Another game is not recorded over this unfinished one (it can still be resumed).
    let unfinished = std::fs::read(dir.join("r.json")).unwrap();
    let game = |record: &str| {
        yaku(&[
            "play",
            "koikoi",
            "--players",
            "greedy,random",
            "--seed",
            "5",
            "--rounds",
            "2",
            "--record",
            record,
        ])
        .current_dir(&dir)
    };
    let out = game("r.json").expect(1);
    assert!(
        out.stderr.contains("holds another game that is not over"),
        "{}",
        out.stderr
    );
    assert_eq!(std::fs::read(dir.join("r.json")).unwrap(), unfinished);
    // The record of a finished game is replayable, as before, and a finished game's record
    // may be replaced.
    game("r2.json").expect(0);
    game("r2.json").expect(0);
    let out = yaku(&["replay", "r2.json", "--json"])
        .current_dir(&dir)
        .expect(0);
    let outcome: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(outcome["finished"], true);
    assert_eq!(outcome["rounds"].as_array().unwrap().len(), 2);
}

#[test]
fn a_save_path_that_cannot_be_written_fails_before_play() {
    let dir = temp_dir("save-path");
    let missing = dir.join("no-such-dir").join("s.json").display().to_string();
    let out = yaku(&["play", "koikoi", "--seed", "5", "--save", &missing])
        .stdin("1\nquit\n")
        .expect(1);
    assert!(
        out.stderr
            .contains(&format!("error: cannot save the game to `{missing}`")),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty(), "nothing was played: {}", out.stdout);
    // The check leaves no file behind (`a_whole_game_against_greedy_from_piped_input` finds
    // the directory empty after a finished game).
    // Bots never save, so a bot game does not check the save path.
    yaku(&[
        "play",
        "koikoi",
        "--players",
        "greedy,greedy",
        "--rounds",
        "1",
        "--save",
        &missing,
    ])
    .expect(0);
}

#[test]
fn a_misspelt_player_gets_a_did_you_mean_and_the_list_of_players() {
    let out = yaku(&["play", "koikoi", "--players", "greedy,grredy", "--line"]).expect(2);
    assert!(
        out.stderr
            .contains("unknown player `grredy`: unknown bot `grredy` (did you mean `greedy`?)"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("= help: players: human, random, greedy, expert, expert:N"),
        "{}",
        out.stderr
    );
    let out = yaku(&["play", "koikoi", "--players", "humna,greedy", "--line"]).expect(2);
    assert!(
        out.stderr.contains("(did you mean `human`?)"),
        "{}",
        out.stderr
    );
}
