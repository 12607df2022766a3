//! Hachi-Hachi at a table of four through the real binary: a person decides to drop out (after
//! a wrong answer) from piped input, the greedy bots play the hand, and the record replays to
//! the same end.

use super::run::{game_over, ones, temp_dir, yaku};

#[test]
fn a_person_drops_out_of_a_hand_of_hachi_hachi_and_the_record_replays() {
    let dir = temp_dir("hachihachi");
    // Seed 2: greedy 3 deals and plays; the person is asked next (two of the three places are
    // left for three seats), answers a word the prompt does not know, then drops out; greedy 1
    // and greedy 2 must play. The person has nothing more to decide.
    let mut input = String::from("maybe\n2\n");
    input += &ones(60);
    let out = yaku(&[
        "play",
        "hachihachi",
        "--players",
        "human,greedy,greedy,greedy",
        "--seed",
        "2",
        "--rounds",
        "1",
        "--record",
        "h.json",
    ])
    .current_dir(&dir)
    .stdin(input)
    .expect(0);
    let s = &out.stdout;
    for expected in [
        "greedy 3: Play (deru)",
        "play this hand or drop out (dropping out pays 4 points to each player): 1) Play (deru)",
        "2) Drop out (oriru)",
        "`maybe`: answer `play` or `drop`",
        "you: Drop out (oriru)",
        "greedy 1: Play (deru)",
        "greedy 2: Play (deru)",
        "you: Drop out (oriru) -4 to seat 1",
        "you this hand                                                -12",
    ] {
        assert!(s.contains(expected), "missing `{expected}` in:\n{s}");
    }
    let end = game_over(s);
    let record = std::fs::read_to_string(dir.join("h.json")).unwrap();
    assert!(
        record.contains(r#"{"seat": 0, "action": "declare", "id": "drop"}"#),
        "{record}"
    );
    let replay = yaku(&["replay", "h.json", "--json"])
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
    assert_eq!(
        points[0], -12,
        "the person paid 4 to each of the three who played"
    );
    assert_eq!(points.iter().sum::<i64>(), 0);
    assert!(
        end.contains(&format!(
            "you {}, greedy 1 {}, greedy 2 {}, greedy 3 {}",
            points[0], points[1], points[2], points[3]
        )),
        "{end} vs {points:?}"
    );
}
