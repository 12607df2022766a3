//! Big Two through the real binary: a person chooses several cards at once by naming them, a
//! wrong choice is refused with the game's reason and the prompt comes again, and the record of
//! the hand replays.

use super::run::{temp_dir, yaku};

/// Seed 6 deals the person the three of diamonds: a play without it, a set that is no
/// combination, then the triple of threes; then the first option at every prompt.
#[test]
fn a_person_plays_several_cards_at_once_and_wrong_choices_are_refused() {
    let dir = temp_dir("bigtwo");
    let mut input = String::from(
        "hearts-three spades-three\ndiamonds-three hearts-four\ndiamonds-three, hearts-three + spades-three\n",
    );
    input += &"1\n".repeat(80);
    let out = yaku(&[
        "play",
        "big-two",
        "--players",
        "human,greedy,greedy,greedy",
        "--seed",
        "6",
        "--rounds",
        "1",
        "--record",
        "b.json",
    ])
    .current_dir(&dir)
    .stdin(input)
    .expect(0);
    let s = &out.stdout;
    for expected in [
        "your lead:",
        "error: the first play of the hand must hold Three of Diamonds",
        "error: those 2 cards form no combination of the game",
        "you play Three of Hearts, Three of Diamonds, Three of Spades (Triple)",
        "record written to b.json",
    ] {
        assert!(s.contains(expected), "missing `{expected}` in:\n{s}");
    }
    let replay = yaku(&["replay", "b.json", "--json"])
        .current_dir(&dir)
        .expect(0);
    let v: serde_json::Value = serde_json::from_str(&replay.stdout).unwrap();
    assert_eq!(v["finished"], true, "{}", replay.stdout);
    assert_eq!(v["rounds"][0]["end"], "out");
}
