//! Quitting and the end of input save the game; `--resume` continues it to the same end as a
//! game played without a break.

use super::run::{game_over, ones, temp_dir, yaku};

#[test]
fn end_of_input_saves_and_resume_reaches_the_same_end() {
    let dir = temp_dir("resume");
    let args = ["play", "koikoi", "--seed", "21", "--rounds", "3"];
    let whole = yaku(&[&args[..], &["--record", "whole.json"]].concat())
        .current_dir(&dir)
        .stdin(ones(400))
        .expect(0);
    let end = game_over(&whole.stdout).to_string();

    for cut in [1, 6, 13] {
        let save = format!("cut{cut}.json");
        let first = yaku(&[&args[..], &["--save", &save]].concat())
            .current_dir(&dir)
            .stdin(ones(cut))
            .expect(0);
        assert!(first.stdout.contains("(end of input)"), "{}", first.stdout);
        assert!(
            first.stdout.contains(&format!(
                "game saved to {save}; resume it with: yaku play --resume {save}"
            )),
            "{}",
            first.stdout
        );
        assert!(!first.stdout.contains("=== game over"));
        let record = format!("resumed{cut}.json");
        let rest = yaku(&["play", "--resume", &save, "--record", &record])
            .current_dir(&dir)
            .stdin(ones(400))
            .expect(0);
        assert!(rest.stdout.contains("resumed from"), "{}", rest.stdout);
        assert_eq!(game_over(&rest.stdout), end);
        // The resumed game's record is the uninterrupted game's record.
        let a: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("whole.json")).unwrap())
                .unwrap();
        let b: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(&record)).unwrap()).unwrap();
        assert_eq!(a["actions"], b["actions"]);
        assert_eq!(a["deals"], b["deals"]);
        assert_eq!(b["finished"], true);
    }
}

#[test]
fn quit_saves_a_record_with_the_actions_so_far() {
    let dir = temp_dir("quit");
    let out = yaku(&["play", "koikoi", "--seed", "4", "--save", "q.json"])
        .current_dir(&dir)
        .stdin("1\nquit\n")
        .expect(0);
    assert!(out.stdout.contains("game saved to q.json"));
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("q.json")).unwrap()).unwrap();
    assert_eq!(saved["format"], "yaku-record");
    assert_eq!(saved["seed"], 4);
    assert_eq!(saved["finished"], false);
    assert_eq!(saved["players"], serde_json::json!(["human", "greedy"]));
    assert!(!saved["actions"].as_array().unwrap().is_empty());
}

#[test]
fn resume_refuses_changed_rules_without_force() {
    let dir = temp_dir("resume-hash");
    yaku(&["play", "koikoi", "--seed", "4", "--save", "q.json"])
        .current_dir(&dir)
        .stdin("1\n")
        .expect(0);
    let path = dir.join("q.json");
    let mut saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    saved["ruleset"]["content_hash"] = "0123456789abcdef".into();
    std::fs::write(&path, saved.to_string()).unwrap();
    let out = yaku(&["play", "--resume", "q.json"])
        .current_dir(&dir)
        .expect(1);
    assert!(
        out.stderr.contains("changed since the record was written"),
        "{}",
        out.stderr
    );
    let out = yaku(&["play", "--resume", "q.json", "--force"])
        .current_dir(&dir)
        .stdin(ones(400))
        .expect(0);
    game_over(&out.stdout);
}

#[test]
fn resuming_a_finished_game_says_so() {
    let dir = temp_dir("resume-finished");
    yaku(&[
        "play",
        "koikoi",
        "--players",
        "greedy,random",
        "--seed",
        "2",
        "--rounds",
        "1",
        "--record",
        "done.json",
    ])
    .current_dir(&dir)
    .expect(0);
    let out = yaku(&["play", "--resume", "done.json"])
        .current_dir(&dir)
        .expect(0);
    assert!(
        out.stdout.contains("is already over: greedy"),
        "{}",
        out.stdout
    );
}

/// SIGINT, SIGTERM and SIGHUP during play save the game as `quit` does (atomically, where
/// `--save` says), say how to resume, and end with 128 + the signal's number; the saved game
/// resumes to the same end as a game played without a break.
#[test]
fn signals_save_the_game_and_it_resumes() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let dir = temp_dir("signals");
    let args = ["play", "koikoi", "--seed", "21", "--rounds", "3"];
    let whole = yaku(&args).current_dir(&dir).stdin(ones(400)).expect(0);
    let end = game_over(&whole.stdout).to_string();
    for (signal, name) in [
        (libc::SIGINT, "int"),
        (libc::SIGTERM, "term"),
        (libc::SIGHUP, "hup"),
    ] {
        let save = format!("{name}.json");
        let mut child = Command::new(super::run::bin())
            .args(args)
            .args(["--save", &save])
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // A watchdog: a game that never reaches the prompts ends the test instead of hanging it.
        let pid = child.id() as i32;
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs(60));
            // SAFETY: killing our own child process, if it is still running.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        });
        let mut stdin = child.stdin.take().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        // Answer three prompts, then wait at the fourth and interrupt.
        let mut prompts = 0;
        let mut line = String::new();
        while prompts < 4 {
            line.clear();
            if out.read_line(&mut line).unwrap() == 0 {
                panic!("the game ended before the prompt");
            }
            if line.starts_with("play a card")
                || line.starts_with("you made a yaku")
                || line.contains("capture which?")
            {
                prompts += 1;
                if prompts < 4 {
                    stdin.write_all(b"1\n").unwrap();
                    stdin.flush().unwrap();
                }
            }
        }
        // The prompt `> ` has no newline: give the process a moment to wait for input.
        std::thread::sleep(std::time::Duration::from_millis(200));
        // SAFETY: sending a signal to our own child process.
        unsafe {
            libc::kill(child.id() as i32, signal);
        }
        let status = child.wait().unwrap();
        let mut rest = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut rest);
        assert_eq!(status.code(), Some(128 + signal), "{name}: {rest}");
        assert!(
            rest.contains(&format!(
                "game saved to {save}; resume it with: yaku play --resume {save}"
            )),
            "{name}: {rest}"
        );
        let resumed = yaku(&["play", "--resume", &save])
            .current_dir(&dir)
            .stdin(ones(400))
            .expect(0);
        assert_eq!(game_over(&resumed.stdout), end, "{name}");
    }
}

#[test]
fn a_new_game_never_overwrites_another_games_save() {
    let dir = temp_dir("save-other-game");
    yaku(&["play", "koikoi", "--seed", "8"])
        .current_dir(&dir)
        .stdin("quit\n")
        .expect(0);
    let first = std::fs::read_to_string(dir.join("yaku-save-8.json")).unwrap();
    let out = yaku(&["play", "koikoi", "--seed", "8"])
        .current_dir(&dir)
        .stdin("1\nquit\n")
        .expect(0);
    assert!(
        out.stdout.contains(
            "note: `yaku-save-8.json` holds another game; this one saves to `yaku-save-8-2.json`"
        ),
        "{}",
        out.stdout
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("yaku-save-8.json")).unwrap(),
        first
    );
    assert!(dir.join("yaku-save-8-2.json").exists());
}

/// Issue 46: a saved game embeds its rule files; it resumes after they are deleted, from another
/// folder, and the record it goes on into (in a third folder) names them from there.
#[test]
fn a_saved_game_resumes_from_its_embedded_rules() {
    let dir = temp_dir("resume-embedded");
    for sub in ["rules", "saves", "games"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let mine = "[ruleset]\nid = \"my\"\nextends = \"koikoi\"\n[flow]\nrounds = 2\n";
    std::fs::write(dir.join("rules/my.toml"), mine).unwrap();
    let args = ["play", "rules/my.toml", "--seed", "21"];
    let whole = yaku(&[&args[..], &["--record", "games/whole.json"]].concat())
        .current_dir(&dir)
        .stdin(ones(400))
        .expect(0);
    let end = game_over(&whole.stdout).to_string();
    yaku(&[&args[..], &["--save", "saves/cut.json"]].concat())
        .current_dir(&dir)
        .stdin(ones(5))
        .expect(0);
    std::fs::remove_dir_all(dir.join("rules")).unwrap();
    let rest = yaku(&[
        "play",
        "--resume",
        "cut.json",
        "--record",
        "../games/b.json",
    ])
    .current_dir(dir.join("saves"))
    .stdin(ones(400))
    .expect(0);
    assert_eq!(game_over(&rest.stdout), end);
    let b: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("games/b.json")).unwrap()).unwrap();
    assert_eq!(b["ruleset"]["spec"], "../rules/my.toml");
    assert_eq!(b["ruleset"]["files"]["../rules/my.toml"], mine);
    let out = yaku(&["replay", "games/b.json", "--json"])
        .current_dir(&dir)
        .expect(0);
    assert!(out.stdout.contains("\"finished\": true"), "{}", out.stdout);
}
