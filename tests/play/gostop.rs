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
    assert!(end.contains("you -30, greedy 2 0, greedy 3 30"), "{end}");
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
