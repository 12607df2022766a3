//! `yaku sim`: the same output whatever the thread count, and the JSON report's shape.

use super::run::{temp_dir, yaku};
use crate::common::TempDir;
use serde_json::Value;

#[test]
fn output_does_not_depend_on_threads() {
    let run = |threads: &str| {
        yaku(&[
            "sim",
            "koikoi",
            "--games",
            "24",
            "--rounds",
            "2",
            "--seed",
            "9",
            "--threads",
            threads,
            "--json",
        ])
        .expect(0)
        .stdout
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let text = |threads: &str| {
        yaku(&[
            "sim",
            "koikoi",
            "--games",
            "24",
            "--rounds",
            "2",
            "--seed",
            "9",
            "--threads",
            threads,
        ])
        .expect(0)
        .stdout
    };
    assert_eq!(text("1"), text("2"));
}

#[test]
fn json_report_shape() {
    let out = yaku(&[
        "sim",
        "koikoi-ktane",
        "--games",
        "10",
        "--players",
        "greedy,random",
        "--json",
    ])
    .expect(0);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["format"], 2);
    assert_eq!(v["games"], 10);
    assert!(v["rounds"].as_u64().unwrap() >= 10);
    let seats = v["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2);
    assert_eq!(seats[0]["player"], "greedy");
    assert_eq!(seats[1]["player"], "random");
    for s in seats {
        for key in ["wins", "losses", "draws"] {
            assert!(s[key].is_u64(), "{key}: {s}");
        }
        // One shape for every mean and every interval.
        for key in ["points_per_round", "score_per_game"] {
            assert_mean(&s[key]);
        }
        for key in ["win_rate", "calls_paid_off"] {
            assert_interval(&s[key]);
        }
    }
    assert_mean(&v["dealer_advantage"]);
    assert_interval(&v["dealer_wins"]);
    for e in v["ends"].as_array().unwrap() {
        assert_interval(&e["share"]);
    }
    for y in v["yaku"].as_array().unwrap() {
        assert_interval(&y["share"]);
    }
    let games: u64 = ["wins", "losses", "draws"]
        .iter()
        .map(|k| seats[0][*k].as_u64().unwrap())
        .sum();
    assert_eq!(games, 10);
    assert_eq!(seats[0]["wins"], seats[1]["losses"]);
    assert!(v["dealer_advantage"]["ci95"].is_f64());
    assert!(v["yaku"].is_array());
}

#[test]
fn compare_reports_paired_differences() {
    let out = yaku(&[
        "sim",
        "koikoi",
        "--compare",
        "house/no-seven-doubling",
        "--games",
        "8",
        "--rounds",
        "2",
        "--json",
    ])
    .expect(0);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["a"]["ruleset"], "koikoi");
    assert_eq!(v["b"]["ruleset"], "koikoi-no-seven-doubling");
    let diffs = v["differences"].as_array().unwrap();
    let rounds = diffs
        .iter()
        .find(|d| d["measure"] == "rounds per game")
        .unwrap();
    assert_eq!(rounds["diff"]["mean"], 0.0);
    // Same shuffles and the same bots: the house rule only ever lowers the points.
    let points = diffs
        .iter()
        .find(|d| d["measure"] == "points per round, all players")
        .unwrap();
    assert!(points["diff"]["mean"].as_f64().unwrap() <= 0.0, "{points}");
    let text = yaku(&[
        "sim",
        "koikoi",
        "--compare",
        "koikoi-ktane",
        "--games",
        "4",
        "--rounds",
        "1",
    ])
    .expect(0);
    assert!(
        text.stdout
            .contains("koikoi vs koikoi-ktane: same seeds and shuffles")
    );
}

#[test]
fn bad_arguments() {
    let out = yaku(&["sim", "koikoi", "--players", "greedy,wizard"]).expect(2);
    assert!(
        out.stderr.contains("unknown bot `wizard`"),
        "{}",
        out.stderr
    );
    // A misspelt bot gets the nearest name.
    let out = yaku(&["sim", "koikoi", "--players", "greedy,grredy"]).expect(2);
    assert!(
        out.stderr
            .contains("unknown bot `grredy` (did you mean `greedy`?)"),
        "{}",
        out.stderr
    );
    let out = yaku(&["sim", "koikoi", "--games", "0"]).expect(2);
    assert!(out.stderr.contains("at least 1"));
}

/// A ruleset with stakes: the report counts the games a stake ended, and the scores are the
/// final stakes (transfers: every game's stakes add up to the seats' starting stakes).
#[test]
fn stakes_are_reported() {
    let dir = TempDir::new("sim-stakes");
    let path = dir.join("stakes.toml");
    std::fs::write(
        &path,
        "[ruleset]\nid = \"stakes\"\nextends = \"koikoi\"\n\n[flow]\nstake = 10\nrounds = 30\n",
    )
    .unwrap();
    let out = yaku(&[
        "sim",
        path.to_str().unwrap(),
        "--games",
        "10",
        "--players",
        "greedy,random",
        "--json",
    ])
    .expect(0);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["stake_outs"]["n"], 10);
    assert!(v["stake_outs"]["count"].as_u64().unwrap() > 0);
    let total: f64 = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["score_per_game"]["mean"].as_f64().unwrap())
        .sum();
    assert!(
        (total - 20.0).abs() < 1e-9,
        "stakes add up to 2 x 10: {total}"
    );
    let text = yaku(&["sim", path.to_str().unwrap(), "--games", "4"]).expect(0);
    assert!(text.stdout.contains("games ended by a stake running out"));
    let koikoi = yaku(&["sim", "koikoi", "--games", "2", "--json"]).expect(0);
    assert!(!koikoi.stdout.contains("stake_outs"), "no stakes, no count");
}

#[test]
fn a_failing_script_stops_the_run_at_its_first_failing_game_on_any_threads() {
    // Workers fold the games they play on their own; the run still reports the lowest game
    // whose settlement failed, whatever the thread count. This script fails on some hands
    // deep into a game (the load's sample hands do not reach it): game 39 of this run.
    let dir = TempDir::new("sim-fails");
    std::fs::write(
        dir.join("fails.toml"),
        "[ruleset]\nid = \"fails\"\nextends = \"koikoi\"\n\n[scoring]\nscript = \"fails.rhai\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("fails.rhai"),
        "fn score(hand) {\n    if hand.round == 7 && hand.base == 4 && !hand.dealer { throw \"round seven\"; }\n    hand.base\n}\n",
    )
    .unwrap();
    let run = |games: &str, threads: &str| {
        yaku(&[
            "sim",
            "fails.toml",
            "--games",
            games,
            "--threads",
            threads,
            "--seed",
            "3",
            "--players",
            "random,random",
        ])
        .current_dir(&dir)
    };
    for threads in ["1", "2", "3"] {
        let out = run("200", threads).expect(1);
        assert_eq!(
            out.stderr.trim(),
            "error: game 39: fails.rhai:2: scoring script failed: Runtime error: round seven",
            "{threads} threads"
        );
    }
    // The games before it play.
    run("39", "2").expect(0);
}

/// A mean as `sim --json` gives every one: `n`, `mean`, `ci95`, nothing else.
fn assert_mean(v: &Value) {
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys.len(), 3, "{v}");
    assert!(
        v["n"].is_u64() && v["mean"].is_number() && v["ci95"].as_f64().unwrap() >= 0.0,
        "{v}"
    );
}

/// An interval as `sim --json` gives every one: `count`, `n`, `rate`, `low`, `high`.
fn assert_interval(v: &Value) {
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys.len(), 5, "{v}");
    let (low, rate, high) = (
        v["low"].as_f64().unwrap(),
        v["rate"].as_f64().unwrap(),
        v["high"].as_f64().unwrap(),
    );
    assert!(v["count"].is_u64() && v["n"].is_u64(), "{v}");
    assert!(low <= rate && rate <= high, "{v}");
}

#[test]
fn out_writes_every_hand_as_a_json_line_the_same_on_any_threads() {
    let dir = temp_dir("sim-out");
    let run = |threads: &str, file: &str| {
        let out = yaku(&[
            "sim",
            "gostop",
            "--games",
            "9",
            "--rounds",
            "2",
            "--threads",
            threads,
            "--out",
            file,
            "--json",
        ])
        .current_dir(&dir)
        .expect(0);
        let v: Value = serde_json::from_str(&out.stdout).unwrap();
        (v, std::fs::read_to_string(dir.join(file)).unwrap())
    };
    let (report, one) = run("1", "a.jsonl");
    let (_, three) = run("3", "b.jsonl");
    assert_eq!(one, three);
    let lines: Vec<Value> = one
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len() as u64, report["rounds"].as_u64().unwrap());
    let first = &lines[0];
    assert_eq!(first["game"], 0);
    assert_eq!(first["hand"], 1);
    assert!(first["seed"].is_u64());
    assert_eq!(first["seats"].as_array().unwrap().len(), 3);
    assert_eq!(first["points"].as_array().unwrap().len(), 3);
    assert!(first["end"].is_string());
    // Games in order, each game's hands in order.
    let order: Vec<(u64, u64)> = lines
        .iter()
        .map(|l| (l["game"].as_u64().unwrap(), l["hand"].as_u64().unwrap()))
        .collect();
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert_eq!(order, sorted);
    // The points of the lines add up to the report's.
    let total: i64 = lines
        .iter()
        .map(|l| {
            l["points"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_i64().unwrap())
                .sum::<i64>()
        })
        .sum();
    let mean_sum: f64 = report["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["points_per_round"]["mean"].as_f64().unwrap())
        .sum();
    let rounds = report["rounds"].as_f64().unwrap();
    assert!(
        (total as f64 - mean_sum * rounds).abs() < 1e-6,
        "{total} vs {mean_sum} x {rounds}"
    );
    // A path that cannot be written is refused before any game, and nothing is left behind.
    let out = yaku(&[
        "sim",
        "koikoi",
        "--games",
        "2",
        "--out",
        "no-such-dir/x.jsonl",
    ])
    .current_dir(&dir)
    .run();
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("the directory `no-such-dir` does not exist"),
        "{}",
        out.stderr
    );
    let out = yaku(&["sim", "koikoi", "--games", "2", "--out", "/dev/null"]).run();
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("not a regular file"), "{}", out.stderr);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
}
