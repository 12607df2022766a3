//! Go-Stop through the real binary: a person plays a whole hand against two bots from piped
//! input (a wrong word, then the first option at every prompt), and the record replays to the
//! same end, with each loser's payment.

use super::run::{game_over, temp_dir, yaku};

#[test]
fn a_whole_hand_of_gostop_against_two_bots_from_piped_input() {
    let dir = temp_dir("gostop");
    let mut input = String::from("frobnicate\n");
    input += &"1\n".repeat(300);
    let out = yaku(&[
        "play",
        "gostop",
        "--players",
        "human,greedy,greedy",
        "--seed",
        "7",
        "--rounds",
        "1",
        "--record",
        "g.json",
    ])
    .current_dir(&dir)
    .stdin(input)
    .expect(0);
    let s = &out.stdout;
    for expected in [
        "Go-Stop (three players) · seed 7",
        "unknown card or command `frobnicate`",
        "Junk (pi) 0 · Animals (yeol) 0",
        "Heundeulgi (shake)",
        "stay on the table as a stack",
        "Ja-ppeok (own stack taken back)",
        "you: Go",
        "pi-bak",
        "go-bak",
        "you pay",
    ] {
        assert!(s.contains(expected), "missing `{expected}` in:\n{s}");
    }
    let end = game_over(s);
    // Each loser pays the winner: the scores sum to zero.
    assert!(end.contains("you -30, greedy 1 0, greedy 2 30"), "{end}");
    let replay = yaku(&["replay", "g.json", "--json"])
        .current_dir(&dir)
        .expect(0);
    let v: serde_json::Value = serde_json::from_str(&replay.stdout).unwrap();
    assert_eq!(v["finished"], true);
    let points: Vec<i64> = v["rounds"][0]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_i64().unwrap())
        .collect();
    assert_eq!(points, vec![-30, 0, 30]);
}

/// `yaku score` settles a finished Go-Stop hand loser by loser: the go-bak example of the
/// library's worked examples (pagat "Settlement"), from the command line.
#[test]
fn score_explains_each_losers_payment() {
    let out = yaku(&[
        "score",
        "gostop",
        "--captured",
        "pine-1,pine-2,plum-1,plum-2,cherry-1,cherry-2,wisteria-1,wisteria-2,iris-1,iris-2,pine-crane,cherry-curtain,pampas-moon",
        "--go",
        "1",
        "--loser",
        "peony-1,rain-man",
        "--loser",
        "maple-1,maple-2,chrysanthemum-1,chrysanthemum-2,paulownia-1,paulownia-2",
        "--loser-calls",
        "1,0",
        "--json",
    ])
    .expect(0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["total"], 5);
    assert_eq!(v["payments"], serde_json::json!([0, 20, 0]));
    let text = yaku(&[
        "score",
        "matgo",
        "--captured",
        "pine-crane",
        "--loser",
        "rain-man",
        "--made",
        "shake=1",
    ])
    .expect(0);
    assert!(text.stdout.contains("seat 1 pays"), "{}", text.stdout);
    let bad = yaku(&[
        "score",
        "gostop",
        "--captured",
        "pine-crane",
        "--made",
        "shkae=1",
    ])
    .expect(2);
    assert!(
        bad.stderr.contains("no declaration `shkae`"),
        "{}",
        bad.stderr
    );
}
