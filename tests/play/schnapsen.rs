//! Schnapsen through the real binary: a person plays a whole game from piped input (with the
//! prompt's error paths and declarations), the record replays, and the simulation ranks the
//! bots.

use super::run::{game_over, temp_dir, yaku};

/// A whole game of Schnapsen against greedy: a wrong number, an unknown word, a declaration that
/// is not possible, a card not in hand, then the first option at every prompt to the end.
#[test]
fn a_whole_game_of_schnapsen_from_piped_input() {
    let dir = temp_dir("schnapsen");
    let mut input =
        String::from("99\nfrobnicate\nclose close\nhearts-ace\nclubs-jack\nhelp\nrules\n");
    input += &"1\n".repeat(600);
    let out = yaku(&["play", "schnapsen", "--seed", "4", "--record", "s.json"])
        .current_dir(&dir)
        .stdin(input)
        .expect(0);
    let s = &out.stdout;
    for expected in [
        "Schnapsen · seed 4 (play this game again with --seed 4) · human vs greedy",
        "trumps: ",
        "your hand:",
        "error: there is no option 99",
        "unknown card or command `frobnicate`",
        "`marriage hearts-king`",
    ] {
        assert!(s.contains(expected), "missing `{expected}` in:\n{s}");
    }
    assert!(s.contains("counted: card points"), "{s}");
    assert!(
        game_over(s).contains("greedy") && game_over(s).contains("you"),
        "{s}"
    );
    assert!(s.contains("record written to s.json"), "{s}");
    let replay = yaku(&["replay", "s.json", "--json"])
        .current_dir(&dir)
        .expect(0);
    let v: serde_json::Value = serde_json::from_str(&replay.stdout).unwrap();
    assert_eq!(v["finished"], true);
    let ends: Vec<&str> = v["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["end"].as_str().unwrap())
        .collect();
    assert!(
        ends.iter()
            .all(|e| ["claim", "false_claim", "failed_close", "last_trick"].contains(e)),
        "{ends:?}"
    );
}

/// The trick-taking prompt takes a declaration by name and refuses a card with the game's own
/// reason (the follow rules' reasons are pinned in the library's worked hands).
#[test]
fn declarations_by_name_and_refusals_with_the_game_reason() {
    let dir = temp_dir("schnapsen-follow");
    // Seed 3: greedy deals, so the person leads first. `close` makes the follow rules hold at once; then every
    // card of the deck is typed in turn, so some break the rule or are not in the hand.
    let mut input = String::from("close\n");
    for suit in ["hearts", "diamonds", "clubs", "spades"] {
        for rank in ["ace", "ten", "king", "queen", "jack"] {
            input += &format!("{suit}-{rank}\n");
        }
    }
    input += "quit\n";
    let out = yaku(&[
        "play",
        "schnapsen",
        "--seed",
        "3",
        "--players",
        "greedy,human",
    ])
    .current_dir(&dir)
    .stdin(input)
    .expect(0);
    let s = &out.stdout;
    assert!(s.contains("you: Close the stock"), "{s}");
    assert!(s.contains("is not in your hand"), "{s}");
    assert!(s.contains("game saved to"), "{s}");
}

/// `yaku sim` ranks the bots of the trick-taking family: expert above greedy above random.
#[test]
fn sim_ranks_expert_over_greedy_over_random() {
    let run = |players: &str, games: &str| {
        let out = yaku(&[
            "sim",
            "schnapsen",
            "--players",
            players,
            "--games",
            games,
            "--json",
            "--seed",
            "3",
        ])
        .expect(0);
        let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        v["seats"][0]["win_rate"]["low"].as_f64().unwrap()
    };
    assert!(run("greedy,random", "200") > 0.5);
    assert!(run("expert:8,greedy", "40") > 0.5);
}

/// A record written before the marriage became a meld (by the release of 2026-11-25, four
/// marriages among its moves, each `{"action": "declare", "id": "marriage", "card": ...}`)
/// replays to the same hands: the rules' text changed, so the hash check asks for `--force`.
#[test]
fn a_record_from_before_the_melds_replays_the_same() {
    let dir = temp_dir("schnapsen-old-record");
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/play/records/schnapsen-marriages-before-melds.json");
    std::fs::copy(&fixture, dir.join("old.json")).unwrap();
    let refused = yaku(&["replay", "old.json", "--json"])
        .current_dir(&dir)
        .expect(1);
    assert!(refused.stderr.contains("add --force"), "{}", refused.stderr);
    let out = yaku(&["replay", "old.json", "--json", "--force"])
        .current_dir(&dir)
        .expect(0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["finished"], true);
    assert_eq!(v["final_scores"], serde_json::json!([1, 8]));
    let rounds: Vec<(String, i64, Vec<i64>)> = v["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["end"].as_str().unwrap().to_string(),
                r["winner"].as_i64().unwrap(),
                serde_json::from_value(r["points"].clone()).unwrap(),
            )
        })
        .collect();
    // As the release that wrote it replays it.
    let expected = [
        ("last_trick", 1, vec![0, 1]),
        ("claim", 1, vec![0, 2]),
        ("last_trick", 0, vec![1, 0]),
        ("claim", 1, vec![0, 3]),
        ("claim", 1, vec![0, 2]),
    ];
    let expected: Vec<(String, i64, Vec<i64>)> = expected
        .into_iter()
        .map(|(e, w, p)| (e.to_string(), w, p))
        .collect();
    assert_eq!(rounds, expected);
}
