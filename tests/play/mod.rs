//! End-to-end tests of `yaku play`, `yaku replay` and `yaku sim`, driving the real binary.

mod args;
mod bigtwo;
mod bots;
mod dreierschnapsen;
mod gostop;
mod hachihachi;
mod learn;
mod pinochle;
mod position;
mod replay;
mod run;
mod save;
mod schnapsen;
mod scopa;
mod scripted;
mod sim;
mod terminal;
mod two_packs;

/// The events a record written during play holds (told as the game was played) are those its
/// game gives when replayed from the start.
pub(crate) fn records_events_are_the_games(path: &std::path::Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let record = yaku::core::record::Record::from_json(&text).unwrap();
    let written: serde_json::Value = serde_json::from_str(&text).unwrap();
    let ruleset = std::sync::Arc::new(
        yaku::ruleset::load(&record.ruleset.spec)
            .value
            .expect("a bundled ruleset"),
    );
    let replayed = yaku::families::record_events(&record, ruleset).unwrap();
    assert_eq!(
        written["events"],
        serde_json::to_value(&replayed).unwrap(),
        "{}",
        path.display()
    );
}

/// Records written during bot games of each family hold the events a replay gives.
#[test]
fn a_records_events_are_those_of_its_game_replayed() {
    let dir = crate::common::TempDir::new("record-events");
    for (ruleset, players) in [
        ("koikoi", "greedy,expert:8"),
        ("oicho-kabu", "greedy,greedy"),
        ("schnapsen", "greedy,random"),
        ("gostop", "greedy,random,random"),
    ] {
        let file = format!("{ruleset}.json");
        crate::common::Yaku::new([
            "play",
            ruleset,
            "--players",
            players,
            "--rounds",
            "3",
            "--seed",
            "11",
            "--record",
            &file,
        ])
        .current_dir(&dir)
        .expect(0);
        records_events_are_the_games(&dir.join(&file));
    }
    // A game saved part-way and resumed: the events before the save come from one replay, the
    // rest as it is played.
    crate::common::Yaku::new([
        "play", "koikoi", "--seed", "4", "--rounds", "1", "--save", "s.json",
    ])
    .current_dir(&dir)
    .stdin("1\n1\nquit\n")
    .expect(0);
    crate::common::Yaku::new(["play", "--resume", "s.json", "--record", "r.json"])
        .current_dir(&dir)
        .stdin("1\n".repeat(300))
        .expect(0);
    records_events_are_the_games(&dir.join("r.json"));
}
