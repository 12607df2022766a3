//! Scopa through the real binary: a person plays a hand against the greedy bot from piped
//! input, choosing a sum capture by naming its cards (after a wrong choice and a wrong name),
//! and the record replays to the same end.

use super::run::{game_over, temp_dir, yaku};

#[test]
fn a_hand_of_scopa_with_a_sum_capture_from_piped_input() {
    let dir = temp_dir("scopa");
    // Seed 4: the person's Knight of Coins (9) finds no Knight on the table and two sets adding
    // up to 9 (Four of Coins + Five of Cups, Seven of Swords + Two of Batons). The first option
    // is played at every other prompt.
    let mut input = String::new();
    input += &"1\n".repeat(3);
    input += "9\n"; // no option 9
    input += "swords-7 coins-4\n"; // not one of the sums
    input += "swords-7 + batons-2\n"; // the second sum, by its cards
    input += &"1\n".repeat(60);
    let out = yaku(&[
        "play",
        "scopa",
        "--players",
        "human,greedy",
        "--seed",
        "4",
        "--rounds",
        "1",
        "--record",
        "s.json",
    ])
    .current_dir(&dir)
    .stdin(input)
    .expect(0);
    let s = &out.stdout;
    for expected in [
        "Scopa · seed 4",
        "Knight of Coins can capture in more than one way; capture which?",
        "1) Four of Coins (Coins, Denari; number) + Five of Cups (Cups, Coppe; number)",
        "Seven of Swords (Swords, Spade; number)  <- choice 2",
        "there is no option 9: choose 1 to 2",
        "cannot capture Four of Coins + Seven of Swords that way",
        "capturing Seven of Swords, Two of Batons",
        "most cards",
        "most primiera",
    ] {
        assert!(s.contains(expected), "missing `{expected}` in:\n{s}");
    }
    let end = game_over(s);
    let record = std::fs::read_to_string(dir.join("s.json")).unwrap();
    assert!(
        record
            .contains(r#"{"seat": 0, "action": "capture_set", "cards": ["swords-7", "batons-2"]}"#),
        "{record}"
    );
    let replay = yaku(&["replay", "s.json", "--json"])
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
    // The replay ends as the game did.
    assert!(
        end.contains(&format!("you {}, greedy {}", points[0], points[1])),
        "{end} vs {points:?}"
    );
}
