//! Pinochle through the real binary: a person bids, names trumps (when the auction is theirs)
//! and plays a hand from piped input against three random players, and the record replays.

use super::run::{temp_dir, yaku};

/// A hand of Pinochle: a bid off the steps (refused with the reason), a bid by amount, then
/// the first option at every prompt; the record replays to the same end.
#[test]
fn a_person_bids_and_plays_a_hand_of_pinochle_from_piped_input() {
    let dir = temp_dir("pinochle");
    let mut input = String::from("bid 105\nbid 100\n");
    input += &"1\n".repeat(200);
    let out = yaku(&[
        "play",
        "pinochle",
        "--players",
        "human,random,random,random",
        "--seed",
        "1",
        "--rounds",
        "1",
        "--record",
        "p.json",
    ])
    .current_dir(&dir)
    .stdin(input)
    .expect(0);
    let s = &out.stdout;
    for expected in [
        "your bid:",
        "a bid of 105 is not possible: bid from 100 to 500 in steps of 10, or pass",
        "you bid 100",
        "auction: ",
        "melds",
        "every trick played",
        "=== game over: you & random 2 ",
        "record written to p.json",
    ] {
        assert!(s.contains(expected), "missing `{expected}` in:\n{s}");
    }
    let replay = yaku(&["replay", "p.json", "--json"])
        .current_dir(&dir)
        .expect(0);
    let v: serde_json::Value = serde_json::from_str(&replay.stdout).unwrap();
    assert_eq!(v["finished"], true, "{}", replay.stdout);
    let record = std::fs::read_to_string(dir.join("p.json")).unwrap();
    assert!(
        record.contains("\"action\": \"bet\""),
        "a bid is recorded: {record}"
    );
    assert!(record.contains("\"id\": \"pass\""), "a pass is recorded");
}
