//! A deck of two French packs (104 cards, past the 64 of the 64-bit card sets): `yaku` hands the
//! command to its 128-bit build, and validate, rules, sim, play, replay and resume all work on it
//! as on any deck, the same game for the same seed.

use super::run::{game_over, temp_dir, yaku};
use crate::common::TempDir;

const DECK: &str = include_str!("two_packs/french-ranks-104.toml");
const RULES: &str = include_str!("two_packs/double-pack-fishing.toml");

fn table(name: &str) -> TempDir {
    let dir = temp_dir(name);
    dir.write("french-ranks-104.toml", DECK);
    dir.write("double-pack-fishing.toml", RULES);
    dir
}

#[test]
fn a_104_card_deck_validates_and_its_rule_sheet_lists_every_card() {
    let dir = table("two-packs-validate");
    let out = yaku(&[
        "validate",
        "koikoi",
        "double-pack-fishing.toml",
        "french-ranks-104.toml",
    ])
    .current_dir(&*dir)
    .expect(0);
    assert_eq!(
        out.stdout,
        "koikoi: ok (ruleset `koikoi`: 13 yaku, deck `hanafuda`)\n\
         double-pack-fishing.toml: ok (ruleset `double-pack-fishing`: 2 yaku, deck `french-ranks-104`)\n\
         french-ranks-104.toml: ok (deck `french-ranks-104`: 104 cards in 13 suits)\n"
    );
    let json = yaku(&["validate", "--json", "double-pack-fishing.toml", "koikoi"])
        .current_dir(&*dir)
        .expect(0);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["files"][0]["ruleset"]["id"], "double-pack-fishing");

    let sheet = yaku(&["rules", "double-pack-fishing.toml"])
        .current_dir(&*dir)
        .expect(0);
    assert!(
        sheet.stdout.contains("104 cards in 13 suits"),
        "{}",
        sheet.stdout
    );
    assert!(
        sheet.stdout.contains("2 × king of spades"),
        "{}",
        sheet.stdout
    );

    // A deck past 128 cards is still one error, with its place.
    let three = DECK.replace("packs = 2", "packs = 3");
    dir.write("french-ranks-156.toml", three);
    let out = yaku(&["validate", "french-ranks-156.toml"])
        .current_dir(&*dir)
        .expect(1);
    assert!(
        out.stderr
            .contains("the deck has 156 cards, but a deck holds at most 128"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_104_card_game_plays_records_replays_and_simulates_the_same_for_a_seed() {
    let dir = table("two-packs-play");
    let play = |record: &str| {
        yaku(&[
            "play",
            "double-pack-fishing.toml",
            "--players",
            "greedy,random,greedy,random",
            "--seed",
            "5",
            "--record",
            record,
        ])
        .current_dir(&*dir)
        .expect(0)
        .stdout
    };
    let first = play("first.json");
    assert_eq!(game_over(&first), game_over(&play("second.json")));
    assert_eq!(
        std::fs::read_to_string(dir.join("first.json")).unwrap(),
        std::fs::read_to_string(dir.join("second.json")).unwrap()
    );
    let replayed = yaku(&["replay", "first.json", "--json"])
        .current_dir(&*dir)
        .expect(0);
    let outcomes: serde_json::Value = serde_json::from_str(&replayed.stdout).unwrap();
    assert_eq!(outcomes["finished"], true, "{outcomes}");
    assert_eq!(
        outcomes["rounds"].as_array().unwrap().len(),
        2,
        "{outcomes}"
    );

    let sim = |threads: &str| {
        yaku(&[
            "sim",
            "double-pack-fishing.toml",
            "--games",
            "12",
            "--seed",
            "3",
            "--threads",
            threads,
            "--json",
        ])
        .current_dir(&*dir)
        .expect(0)
        .stdout
    };
    let one = sim("1");
    assert_eq!(one, sim("2"));
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["games"], 12, "{v}");
}
