//! Dreierschnapsen through the real binary: a person bids a contract (one refused with the
//! reason), takes the talon and discards, names trumps and plays a hand from piped input against
//! two random players, and the record replays.

use super::run::{temp_dir, yaku};

/// A hand of Dreierschnapsen: a bid that is no contract (refused), the Bauernschnapser, then the
/// first option at every prompt (two discards, trumps, the cards); the record replays to the
/// same end.
#[test]
fn a_person_bids_and_plays_a_hand_of_dreierschnapsen_from_piped_input() {
    let dir = temp_dir("dreierschnapsen");
    let mut input = String::from("bid 7\nbid 5\n");
    input += &"1\n".repeat(60);
    let out = yaku(&[
        "play",
        "dreierschnapsen",
        "--players",
        "human,random,random",
        "--seed",
        "1",
        "--rounds",
        "1",
        "--record",
        "d.json",
    ])
    .current_dir(&dir)
    .stdin(input)
    .expect(0);
    let s = &out.stdout;
    for expected in [
        "your bid:",
        "a bid of 7 is not possible: bid a contract above the highest bid, or pass",
        "you bid Bauernschnapser (5)",
        "contract: Bauernschnapser (5) by you (Take every trick, with trumps, worth 12)",
        "sides: you 0 tricks against random 1 & random 2 0 tricks · you took the talon",
        "you took the talon: discard a card, face down:",
        "you won the auction: name trumps:",
        "set: each defender scores the contract's 12",
        "record written to d.json",
    ] {
        assert!(s.contains(expected), "missing `{expected}` in:\n{s}");
    }
    let replay = yaku(&["replay", "d.json", "--json"])
        .current_dir(&dir)
        .expect(0);
    let v: serde_json::Value = serde_json::from_str(&replay.stdout).unwrap();
    assert_eq!(v["finished"], true, "{}", replay.stdout);
    assert_eq!(v["final_scores"], serde_json::json!([0, 12, 12]));
    assert_eq!(v["rounds"][0]["end"], "set");
}
