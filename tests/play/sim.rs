//! `yaku sim`: the same output whatever the thread count, and the JSON report's shape.

use super::run::yaku;
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
        assert!(s["mean_points_per_round"].is_f64());
        assert!(s["ci95"].as_f64().unwrap() >= 0.0);
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
