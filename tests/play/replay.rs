//! `yaku replay`: recorded games replay to the same outcomes; changed rules and illegal actions
//! are reported.

use super::run::{game_over, temp_dir, yaku};
use serde_json::Value;

fn read(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Plays a bot game with `--record` and returns its transcript.
fn record(dir: &std::path::Path, ruleset: &str, seed: u64, file: &str) -> String {
    yaku(&[
        "play",
        ruleset,
        "--players",
        "greedy,random",
        "--seed",
        &seed.to_string(),
        "--record",
        file,
    ])
    .current_dir(dir)
    .expect(0)
    .stdout
}

#[test]
fn recorded_games_replay_to_the_same_outcomes() {
    let dir = temp_dir("replay");
    for (i, ruleset) in [
        "koikoi",
        "koikoi-classic",
        "koikoi-ktane",
        "house/lightning-wild",
    ]
    .iter()
    .enumerate()
    {
        let file = format!("game{i}.json");
        let played = record(&dir, ruleset, 100 + i as u64, &file);
        let rec = read(&dir.join(&file));
        assert_eq!(rec["format"], "yaku-record");
        assert_eq!(rec["version"], 2);
        assert_eq!(rec["ruleset"]["spec"], *ruleset);
        assert_eq!(rec["ruleset"]["content_hash"].as_str().unwrap().len(), 16);
        assert_eq!(rec["finished"], true);
        assert!(rec["deals"][0].as_array().unwrap().len() == 48);

        let json = yaku(&["replay", &file, "--json"])
            .current_dir(&dir)
            .expect(0);
        let outcome: Value = serde_json::from_str(&json.stdout).unwrap();
        assert_eq!(outcome["finished"], true);
        let scores = outcome["final_scores"].as_array().unwrap();
        let expected = format!("=== game over: greedy {}, random {}", scores[0], scores[1]);
        assert!(
            game_over(&played).starts_with(&expected),
            "{expected} vs {}",
            game_over(&played)
        );
        let rounds = outcome["rounds"].as_array().unwrap();
        assert!(!rounds.is_empty());
        for key in [
            "round",
            "dealer",
            "winner",
            "end",
            "yaku",
            "base",
            "multipliers",
            "points",
        ] {
            assert!(rounds[0].get(key).is_some(), "no `{key}` in {}", rounds[0]);
        }
        let total: i64 = rounds
            .iter()
            .map(|r| r["points"][0].as_i64().unwrap())
            .sum();
        assert_eq!(Value::from(total), scores[0]);

        // Without the seed, the recorded deals are enough.
        let mut seedless = rec.clone();
        seedless.as_object_mut().unwrap().remove("seed");
        std::fs::write(dir.join("seedless.json"), seedless.to_string()).unwrap();
        let again = yaku(&["replay", "seedless.json", "--json"])
            .current_dir(&dir)
            .expect(0);
        assert_eq!(again.stdout, json.stdout);

        let text = yaku(&["replay", &file, "--to-end"])
            .current_dir(&dir)
            .expect(0);
        assert_eq!(game_over(&text.stdout), game_over(&played));
    }
}

#[test]
fn replay_with_piped_input_runs_to_the_end() {
    let dir = temp_dir("replay-piped");
    record(&dir, "koikoi", 5, "g.json");
    // Piped stdin is not a terminal, so the replay does not wait (terminal.rs tests stepping).
    let out = yaku(&["replay", "g.json"])
        .current_dir(&dir)
        .stdin("q\n")
        .expect(0);
    game_over(&out.stdout);
}

#[test]
fn a_changed_ruleset_is_refused_unless_forced() {
    let dir = temp_dir("replay-hash");
    record(&dir, "koikoi", 6, "g.json");
    let mut rec = read(&dir.join("g.json"));
    rec["ruleset"]["content_hash"] = "00000000deadbeef".into();
    std::fs::write(dir.join("g.json"), rec.to_string()).unwrap();
    let out = yaku(&["replay", "g.json", "--json"])
        .current_dir(&dir)
        .expect(1);
    assert!(
        out.stderr.contains(
            "the rules of `koikoi` changed since the record was written (hash 00000000deadbeef"
        ),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("--force"));
    let out = yaku(&["replay", "g.json", "--json", "--force"])
        .current_dir(&dir)
        .expect(0);
    assert!(out.stderr.contains("warning"));
}

#[test]
fn an_illegal_action_is_reported_with_its_index() {
    let dir = temp_dir("replay-illegal");
    record(&dir, "koikoi", 8, "g.json");
    let mut rec = read(&dir.join("g.json"));
    let seat = rec["actions"][3]["seat"].as_u64().unwrap();
    rec["actions"][3] = serde_json::json!({ "seat": seat, "action": "declare", "id": "koikoi" });
    std::fs::write(dir.join("bad.json"), rec.to_string()).unwrap();
    let out = yaku(&["replay", "bad.json", "--json"])
        .current_dir(&dir)
        .expect(1);
    let player = rec["players"][seat as usize].as_str().unwrap();
    let expected = format!(
        "action 3 (seat {seat}, {player}: declare koikoi) is illegal: Koi-koi is not possible now: a card must be played from the hand"
    );
    assert!(out.stderr.contains(&expected), "{}", out.stderr);
    let out = yaku(&["replay", "bad.json", "--to-end"])
        .current_dir(&dir)
        .expect(1);
    assert!(out.stderr.contains(&expected), "{}", out.stderr);

    rec["actions"][2] = serde_json::json!({ "action": "play", "card": "pine-cranes" });
    std::fs::write(dir.join("bad.json"), rec.to_string()).unwrap();
    let out = yaku(&["replay", "bad.json", "--json"])
        .current_dir(&dir)
        .expect(1);
    assert!(
        out.stderr.contains("action 2: unknown card `pine-cranes`"),
        "{}",
        out.stderr
    );

    std::fs::write(dir.join("junk.json"), "{\"format\": \"other\"}").unwrap();
    let out = yaku(&["replay", "junk.json"]).current_dir(&dir).expect(1);
    assert!(
        out.stderr.contains("unsupported record format"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_card_not_in_the_hand_is_reported_for_that_seat_not_for_you() {
    let dir = temp_dir("replay-not-in-hand");
    record(&dir, "koikoi", 8, "g.json");
    let mut rec = read(&dir.join("g.json"));
    // Make a later play repeat the first card played: that card is in no hand any more.
    let actions = rec["actions"].as_array().unwrap().clone();
    let plays: Vec<usize> = (0..actions.len())
        .filter(|&i| actions[i]["action"] == "play")
        .collect();
    let card = actions[plays[0]]["card"].as_str().unwrap().to_string();
    let index = plays[1];
    rec["actions"][index]["card"] = card.clone().into();
    let seat = actions[index]["seat"].as_u64().unwrap();
    let player = rec["players"][seat as usize].as_str().unwrap().to_string();
    std::fs::write(dir.join("bad.json"), rec.to_string()).unwrap();
    let expected = format!(
        "error: `bad.json`: action {index} (seat {seat}, {player}: play {card}) is illegal: \
         `{card}` is not in that player's hand"
    );
    for mode in ["--json", "--to-end"] {
        let out = yaku(&["replay", "bad.json", mode])
            .current_dir(&dir)
            .expect(1);
        assert!(out.stderr.contains(&expected), "{}", out.stderr);
        assert!(!out.stderr.contains("your hand"), "{}", out.stderr);
    }
    // Resuming the same record says the same.
    let out = yaku(&["play", "--resume", "bad.json"])
        .current_dir(&dir)
        .expect(1);
    assert!(out.stderr.contains(&expected), "{}", out.stderr);
}

#[test]
fn a_record_whose_ruleset_is_missing_says_so() {
    let dir = temp_dir("replay-missing-ruleset");
    record(&dir, "koikoi", 9, "g.json");
    let mut rec = read(&dir.join("g.json"));
    rec["ruleset"]["spec"] = "nonexistent".into();
    std::fs::write(dir.join("missing.json"), rec.to_string()).unwrap();
    for args in [
        &["replay", "missing.json"][..],
        &["replay", "missing.json", "--json"][..],
        &["play", "--resume", "missing.json"][..],
    ] {
        let out = yaku(args).current_dir(&dir).expect(1);
        assert!(
            out.stderr.contains(
                "error: `missing.json` was recorded with the ruleset `nonexistent`, which cannot \
                 be loaded: no file or bundled ruleset named `nonexistent`"
            ),
            "{}",
            out.stderr
        );
        assert!(out.stderr.contains("bundled rulesets: "), "{}", out.stderr);
        // Not the bare source snippet of a spec the user never typed.
        assert!(!out.stderr.contains("| nonexistent"), "{}", out.stderr);
        assert!(out.stdout.is_empty());
    }
    // A ruleset file with errors: the record it was needed for and how to see them, without
    // quoting the file (issue 34: a record from someone else must not print the replayer's
    // files).
    std::fs::write(
        dir.join("broken.toml"),
        "[ruleset]\nid = \"broken\"\nsecret = \"do not print me\"\n",
    )
    .unwrap();
    rec["ruleset"]["spec"] = "broken.toml".into();
    std::fs::write(dir.join("broken.json"), rec.to_string()).unwrap();
    let out = yaku(&["replay", "broken.json"]).current_dir(&dir).expect(1);
    assert!(!out.stderr.contains("do not print me"), "{}", out.stderr);
    assert!(!out.stderr.contains("-->"), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("error: the ruleset `broken.toml` that `broken.json` was recorded with has"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("`yaku validate broken.toml` shows them"),
        "{}",
        out.stderr
    );
}

/// A record made with a house rule file and combined house rules, moved with the rule file to
/// another folder, replays from anywhere: relative paths resolve beside the record first.
#[test]
fn a_record_s_relative_rule_file_resolves_beside_the_record() {
    let dir = temp_dir("replay-beside");
    std::fs::write(
        dir.join("mine.toml"),
        "[ruleset]\nid = \"mine\"\nextends = \"koikoi\"\n[flow]\nrounds = 2\n",
    )
    .unwrap();
    let out = yaku(&[
        "play",
        "mine.toml",
        "--with",
        "house/no-seven-doubling",
        "--players",
        "greedy,random",
        "--seed",
        "3",
        "--record",
        "g.json",
    ])
    .current_dir(&dir)
    .expect(0);
    game_over(&out.stdout);
    let rec = read(&dir.join("g.json"));
    assert_eq!(rec["ruleset"]["spec"], "mine.toml+house/no-seven-doubling");
    assert_eq!(rec["ruleset"]["id"], "mine+koikoi-no-seven-doubling");
    // Replayed from the parent folder: `mine.toml` is found next to the record.
    let parent = dir.parent().unwrap();
    let name = dir.file_name().unwrap().to_str().unwrap();
    let out = yaku(&["replay", &format!("{name}/g.json"), "--json"])
        .current_dir(parent)
        .expect(0);
    assert!(
        out.stdout
            .contains("\"ruleset\": \"mine+koikoi-no-seven-doubling\""),
        "{}",
        out.stdout
    );
}

/// A game with stakes records its final stakes and whether one ran out.
#[test]
fn a_record_reports_the_stakes() {
    let dir = temp_dir("replay-stakes");
    std::fs::write(
        dir.join("stakes.toml"),
        "[ruleset]\nid = \"stakes\"\nextends = \"koikoi\"\n\n[flow]\nstake = 10\nrounds = 30\n",
    )
    .unwrap();
    record(&dir, "stakes.toml", 3, "game.json");
    let out = yaku(&["replay", "game.json", "--json"])
        .current_dir(&dir)
        .expect(0);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let scores: Vec<i64> = v["final_scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_i64().unwrap())
        .collect();
    assert_eq!(scores.iter().sum::<i64>(), 20, "transfers from 2 x 10");
    assert_eq!(v["stake_out"], scores.contains(&0));
    assert_eq!(v["stake_out"], true, "seed 3 ends when a stake runs out");
    let koikoi = dir.join("koikoi.json");
    record(&dir, "koikoi", 3, koikoi.to_str().unwrap());
    let plain = yaku(&["replay", "koikoi.json", "--json"])
        .current_dir(&dir)
        .expect(0);
    assert!(!plain.stdout.contains("stake_out"));
}

#[test]
fn a_rule_file_is_recorded_from_the_record_folder_and_replays_from_any_folder() {
    // Issue 29: the record kept `games/mine.toml` as typed in the folder `play` ran in, and
    // replay reads paths from the record's folder (`games/games/mine.toml`).
    let dir = temp_dir("replay-rule-file");
    std::fs::create_dir_all(dir.join("games")).unwrap();
    std::fs::write(
        dir.join("games/mine.toml"),
        "[ruleset]\nid = \"mine\"\nextends = \"baccarat\"\nname = \"Mine\"\n",
    )
    .unwrap();
    yaku(&[
        "play",
        "games/mine.toml",
        "--players",
        "greedy",
        "--seed",
        "3",
        "--rounds",
        "3",
        "--record",
        "games/g.json",
    ])
    .current_dir(&dir)
    .expect(0);
    let rec = read(&dir.join("games/g.json"));
    assert_eq!(rec["ruleset"]["spec"], "mine.toml");
    for (folder, file) in [
        (dir.join("."), "games/g.json"),
        (dir.join("games"), "g.json"),
    ] {
        let out = yaku(&["replay", file, "--to-end"])
            .current_dir(&folder)
            .expect(0);
        assert!(out.stdout.contains("round 3: showdown"), "{}", out.stdout);
    }
}

/// Records written by an earlier version of yaku (`tests/play/records/`: two hands of every
/// bundled game between bots, each beside the outcome that version replayed it to) replay to the
/// same scores, hand by hand. A bundled rule file edited since (a description, a rule written
/// another way) has another hash, so the replay is forced: the moves and the outcomes must still
/// be the same.
#[test]
fn records_of_an_earlier_version_replay_to_the_same_outcomes() {
    let folder = crate::common::root().join("tests/play/records");
    let mut records: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "json")
                && !p.to_string_lossy().ends_with(".outcome.json")
        })
        .collect();
    records.sort();
    assert!(records.len() >= 15, "{records:?}");
    for record in records {
        let replayed = yaku(&["replay", record.to_str().unwrap(), "--json", "--force"]).expect(0);
        let now: Value = serde_json::from_str(&replayed.stdout).unwrap();
        let points: Vec<&Value> = now["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| &r["points"])
            .collect();
        let outcome = read(&record.with_extension("outcome.json"));
        let name = record.file_name().unwrap().to_string_lossy();
        assert_eq!(now["final_scores"], outcome["final_scores"], "{name}");
        assert_eq!(now["finished"], outcome["finished"], "{name}");
        assert_eq!(now["actions"], outcome["actions"], "{name}");
        assert_eq!(
            serde_json::to_value(points).unwrap(),
            outcome["points"],
            "{name}"
        );
    }
}

/// The final scores `yaku replay FILE --json` prints, run in `dir` with `extra` arguments.
fn final_scores(dir: &std::path::Path, file: &str, extra: &[&str]) -> Value {
    let mut args = vec!["replay", file, "--json"];
    args.extend(extra);
    let out = yaku(&args).current_dir(dir).expect(0);
    serde_json::from_str::<Value>(&out.stdout).unwrap()["final_scores"].clone()
}

/// Issue 46: a record kept in another folder than its rule file no longer replayed (`games/rules/
/// my.toml`). A record embeds the rule files it was played with, named from its own folder, and
/// replays from their text: from any folder, and after the files are gone.
#[test]
fn a_record_embeds_its_rule_files_and_replays_without_them() {
    let dir = temp_dir("replay-embedded");
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::create_dir_all(dir.join("games")).unwrap();
    let base = "[ruleset]\nid = \"base\"\nextends = \"koikoi\"\n[flow]\nrounds = 2\n";
    let mine = "# mine\n[ruleset]\nid = \"my\"\nname = \"Mine\"\nextends = \"base\"\n";
    std::fs::write(dir.join("rules/base.toml"), base).unwrap();
    std::fs::write(dir.join("rules/my.toml"), mine).unwrap();
    let out = yaku(&[
        "play",
        "rules/my.toml",
        "--players",
        "greedy,random",
        "--seed",
        "4",
        "--record",
        "games/a.json",
    ])
    .current_dir(&dir)
    .expect(0);
    game_over(&out.stdout);
    // The record's folder needs no rule file: no warning that it lacks one.
    assert!(!out.stderr.contains("warning"), "{}", out.stderr);
    let rec = read(&dir.join("games/a.json"));
    assert_eq!(rec["ruleset"]["spec"], "../rules/my.toml");
    assert_eq!(rec["ruleset"]["files"]["../rules/my.toml"], mine);
    assert_eq!(rec["ruleset"]["files"]["../rules/base.toml"], base);
    assert_eq!(rec["ruleset"]["files"].as_object().unwrap().len(), 2);
    let scores = final_scores(&dir, "games/a.json", &[]);
    assert_eq!(final_scores(&dir.join("games"), "a.json", &[]), scores);
    std::fs::remove_dir_all(dir.join("rules")).unwrap();
    assert_eq!(final_scores(&dir, "games/a.json", &[]), scores);
    let parent = dir.parent().unwrap();
    let name = dir.file_name().unwrap().to_str().unwrap();
    assert_eq!(
        final_scores(parent, &format!("{name}/games/a.json"), &[]),
        scores
    );
    let out = yaku(&["replay", "games/a.json", "--to-end"])
        .current_dir(&dir)
        .expect(0);
    game_over(&out.stdout);
    assert!(out.stderr.is_empty(), "{}", out.stderr);
}

/// A bundled ruleset is not embedded: the record names it as before.
#[test]
fn a_record_of_a_bundled_ruleset_embeds_nothing() {
    let dir = temp_dir("replay-bundled-embeds-nothing");
    record(&dir, "koikoi", 2, "g.json");
    let rec = read(&dir.join("g.json"));
    assert_eq!(rec["ruleset"]["spec"], "koikoi");
    assert!(rec["ruleset"].get("files").is_none(), "{rec}");
}

/// A record written before records embedded their rules, kept away from its rule file, says how
/// to name the file; `--rules FILE` replays it with that file.
#[test]
fn an_older_record_away_from_its_rule_file_replays_with_rules() {
    let dir = temp_dir("replay-older-rules");
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::create_dir_all(dir.join("games")).unwrap();
    std::fs::write(
        dir.join("rules/my.toml"),
        "[ruleset]\nid = \"my\"\nextends = \"koikoi\"\n[flow]\nrounds = 1\n",
    )
    .unwrap();
    record(&dir, "rules/my.toml", 5, "games/a.json");
    let mut rec = read(&dir.join("games/a.json"));
    // As the records of the regression were written: no text, the spec as typed.
    rec["ruleset"].as_object_mut().unwrap().remove("files");
    rec["ruleset"]["spec"] = "rules/my.toml".into();
    std::fs::write(dir.join("games/a.json"), rec.to_string()).unwrap();
    let out = yaku(&["replay", "games/a.json", "--json"])
        .current_dir(&dir)
        .expect(1);
    assert!(
        out.stderr
            .contains("`yaku replay games/a.json --rules FILE`"),
        "{}",
        out.stderr
    );
    let out = yaku(&[
        "replay",
        "games/a.json",
        "--json",
        "--rules",
        "rules/my.toml",
    ])
    .current_dir(&dir)
    .expect(0);
    assert!(
        out.stderr
            .contains("note: `rules/my.toml` holds the rules `games/a.json` was played with"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("note: every recorded action is legal under `rules/my.toml`"),
        "{}",
        out.stderr
    );
}

/// `--rules FILE` replays an embedding record against another file: it says that the rules
/// differ, whether every action is still legal (and the final scores under both), or which
/// action is the first that is not.
#[test]
fn replay_with_other_rules_says_what_differs() {
    let dir = temp_dir("replay-other-rules");
    let mine = "[ruleset]\nid = \"my\"\nextends = \"koikoi\"\n[flow]\nrounds = 1\n";
    std::fs::write(dir.join("my.toml"), mine).unwrap();
    record(&dir, "my.toml", 7, "a.json");
    let played = final_scores(&dir, "a.json", &[]);
    // The same rules.
    let out = yaku(&["replay", "a.json", "--json", "--rules", "my.toml"])
        .current_dir(&dir)
        .expect(0);
    assert!(
        out.stderr
            .contains("note: `my.toml` holds the rules `a.json` was played with"),
        "{}",
        out.stderr
    );
    // Other rules under which every action is still legal.
    std::fs::write(
        dir.join("other.toml"),
        format!("{mine}[[yaku]]\nid = \"kasu\"\npoints = \"count(plain) - 9\"\n"),
    )
    .unwrap();
    let out = yaku(&["replay", "a.json", "--json", "--rules", "other.toml"])
        .current_dir(&dir)
        .expect(0);
    assert!(
        out.stderr
            .contains("note: the rules of `other.toml` differ from those `a.json` was played with"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("= note: text changed: `other.toml` (the record's `my.toml`)"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("note: every recorded action is legal under `other.toml`"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("note: the final scores "),
        "{}",
        out.stderr
    );
    assert_eq!(
        serde_json::from_str::<Value>(&out.stdout).unwrap()["ruleset"],
        "my"
    );
    // An action the file refuses: the first one is named.
    let mut rec = read(&dir.join("a.json"));
    let first = rec["actions"][0].clone();
    rec["actions"][3] = first;
    std::fs::write(dir.join("b.json"), rec.to_string()).unwrap();
    let out = yaku(&["replay", "b.json", "--json", "--rules", "other.toml"])
        .current_dir(&dir)
        .expect(1);
    assert!(
        out.stderr
            .contains("error: `b.json` under `other.toml`: action 3"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains(
            "it is the first recorded action that is not legal under `other.toml` (3 actions before it are)"
        ),
        "{}",
        out.stderr
    );
    assert_eq!(final_scores(&dir, "a.json", &[]), played);
}

/// A record's embedded rule files are all replay reads: names that lead out of them (`..`, an
/// absolute path) or to files beside the record find nothing on the disk, and text past the
/// bound is refused before it is loaded (a record is a file anyone may have written).
#[test]
fn embedded_rules_never_read_the_disk() {
    let dir = temp_dir("replay-embedded-disk");
    std::fs::create_dir_all(dir.join("games")).unwrap();
    std::fs::write(
        dir.join("my.toml"),
        "[ruleset]\nid = \"my\"\nextends = \"koikoi\"\n[flow]\nrounds = 1\n",
    )
    .unwrap();
    record(&dir, "my.toml", 8, "games/a.json");
    let rec = read(&dir.join("games/a.json"));
    assert_eq!(rec["ruleset"]["spec"], "../my.toml");
    // A valid rule file on the disk beside the record and above it: never read.
    std::fs::write(
        dir.join("games/disk.toml"),
        "[ruleset]\nid = \"my\"\nextends = \"koikoi\"\n",
    )
    .unwrap();
    std::fs::copy(dir.join("games/disk.toml"), dir.join("disk.toml")).unwrap();
    let abs = dir.join("disk.toml").display().to_string();
    for (spec, text) in [
        (
            "../my.toml",
            "[ruleset]\nid = \"my\"\nextends = \"disk.toml\"\n".to_string(),
        ),
        (
            "../my.toml",
            "[ruleset]\nid = \"my\"\nextends = \"../disk.toml\"\n".to_string(),
        ),
        (
            "../my.toml",
            format!("[ruleset]\nid = \"my\"\nextends = \"{abs}\"\n"),
        ),
        ("disk.toml", "[ruleset]\nid = \"my\"\n".to_string()),
        (abs.as_str(), "[ruleset]\nid = \"my\"\n".to_string()),
    ] {
        let mut tampered = rec.clone();
        tampered["ruleset"]["spec"] = spec.into();
        tampered["ruleset"]["files"] = serde_json::json!({ "../my.toml": text });
        std::fs::write(dir.join("games/t.json"), tampered.to_string()).unwrap();
        let out = yaku(&["replay", "games/t.json", "--json"])
            .current_dir(&dir)
            .expect(1);
        assert!(
            out.stderr
                .contains("error: `games/t.json` embeds the rules"),
            "{spec}, {text}: {}",
            out.stderr
        );
        assert!(out.stdout.is_empty());
    }
    let mut large = rec.clone();
    large["ruleset"]["files"]["../big.toml"] = "#".repeat(5 * 1024 * 1024).into();
    std::fs::write(dir.join("games/t.json"), large.to_string()).unwrap();
    let out = yaku(&["replay", "games/t.json", "--json"])
        .current_dir(&dir)
        .expect(1);
    assert!(
        out.stderr.contains("a record embeds at most 64 files of"),
        "{}",
        out.stderr
    );
}

/// Issue 46: `replay --json` shows each hand's carried values (`[[carry]]`), as the guide says;
/// a ruleset that carries nothing shows none.
#[test]
fn replay_json_shows_the_carried_values() {
    let dir = temp_dir("replay-carried");
    yaku(&[
        "play",
        "hachihachi",
        "--players",
        "greedy,greedy,greedy",
        "--seed",
        "3",
        "--rounds",
        "2",
        "--record",
        "h.json",
    ])
    .current_dir(&dir)
    .expect(0);
    let out = yaku(&["replay", "h.json", "--json"])
        .current_dir(&dir)
        .expect(0);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let rounds = v["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 2);
    for r in rounds {
        let field = r["carried"]["field"].as_array().unwrap();
        assert_eq!(field.len(), 1, "a table value: {r}");
        assert!([1, 2, 4].contains(&field[0].as_i64().unwrap()), "{r}");
    }
    record(&dir, "koikoi", 3, "k.json");
    let out = yaku(&["replay", "k.json", "--json"])
        .current_dir(&dir)
        .expect(0);
    assert!(!out.stdout.contains("carried"), "{}", out.stdout);
}

/// A rule file's script and deck files are embedded with it, named as the rule file names them,
/// and the record replays after all of them are deleted.
#[test]
fn a_record_embeds_the_script_and_deck_its_rules_read() {
    let dir = temp_dir("replay-embedded-script");
    std::fs::create_dir_all(dir.join("rules/scripts")).unwrap();
    let root = crate::common::root();
    let rules = std::fs::read_to_string(root.join("rulesets/koikoi.toml"))
        .unwrap()
        .replacen("deck = \"hanafuda\"", "deck = \"cards.toml\"", 1);
    assert!(rules.contains("deck = \"cards.toml\""));
    std::fs::write(dir.join("rules/k.toml"), rules).unwrap();
    std::fs::copy(
        root.join("rulesets/scripts/koikoi.rhai"),
        dir.join("rules/scripts/koikoi.rhai"),
    )
    .unwrap();
    std::fs::copy(
        root.join("rulesets/decks/hanafuda.toml"),
        dir.join("rules/cards.toml"),
    )
    .unwrap();
    record(&dir, "rules/k.toml", 5, "a.json");
    let rec = read(&dir.join("a.json"));
    let mut names: Vec<&String> = rec["ruleset"]["files"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "rules/cards.toml",
            "rules/k.toml",
            "rules/scripts/koikoi.rhai"
        ]
    );
    let scores = final_scores(&dir, "a.json", &[]);
    std::fs::remove_dir_all(dir.join("rules")).unwrap();
    assert_eq!(final_scores(&dir, "a.json", &[]), scores);
}

/// The content hash covers what plays: a rule file whose comments and layout were edited holds
/// the rules a record was played with, and a record written before (holding the hash of the
/// files' whole text, and naming its file instead of embedding it) still replays unforced.
#[test]
fn comments_and_layout_do_not_change_the_rules() {
    let dir = temp_dir("replay-comments");
    let mine = "[ruleset]\nid = \"my\"\nextends = \"koikoi\"\n[flow]\nrounds = 1\n";
    std::fs::write(dir.join("my.toml"), mine).unwrap();
    record(&dir, "my.toml", 7, "a.json");
    let edited = "# My house rules\n[ruleset]\n  id = \"my\"   # its id\n  extends = \"koikoi\"\n\n[flow]\nrounds = 1 # one hand\n";
    std::fs::write(dir.join("edited.toml"), edited).unwrap();
    let out = yaku(&["replay", "a.json", "--json", "--rules", "edited.toml"])
        .current_dir(&dir)
        .expect(0);
    assert!(
        out.stderr
            .contains("note: `edited.toml` holds the rules `a.json` was played with"),
        "{}",
        out.stderr
    );
    // A record as yaku wrote them before: the file named, not embedded, and the hash of the
    // whole text.
    let loaded = yaku::ruleset::load(dir.join("my.toml").to_str().unwrap())
        .value
        .unwrap();
    assert_ne!(loaded.text_hash, loaded.content_hash);
    let mut rec = read(&dir.join("a.json"));
    rec["ruleset"]
        .as_object_mut()
        .unwrap()
        .remove("files")
        .expect("the record embeds its files");
    rec["ruleset"]["content_hash"] = format!("{:016x}", loaded.text_hash).into();
    std::fs::write(dir.join("old.json"), rec.to_string()).unwrap();
    let out = yaku(&["replay", "old.json", "--json"])
        .current_dir(&dir)
        .expect(0);
    assert!(!out.stderr.contains("changed"), "{}", out.stderr);
}
