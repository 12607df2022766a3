//! Two bots play whole games without input, in every bundled Koi-Koi ruleset.

use super::run::{game_over, temp_dir, yaku};

#[test]
fn two_bot_games_run_to_the_end_in_every_bundled_ruleset() {
    let dir = temp_dir("bots");
    for ruleset in [
        "koikoi",
        "koikoi-classic",
        "koikoi-ktane",
        "house/sake-two-plains",
        "house/lightning-wild",
        "house/dealer-privilege",
        "house/no-seven-doubling",
    ] {
        let out = yaku(&["play", ruleset, "--players", "greedy,random", "--seed", "1"])
            .current_dir(&dir)
            .expect(0);
        game_over(&out.stdout);
    }
    let out = yaku(&[
        "play",
        "koikoi",
        "--players",
        "expert:4,greedy",
        "--seed",
        "2",
        "--rounds",
        "1",
    ])
    .current_dir(&dir)
    .expect(0);
    assert!(out.stdout.contains("expert:4 vs greedy"));
    game_over(&out.stdout);
    // Nothing asked, nothing saved.
    assert!(!out.stdout.contains("> "));
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
}

#[test]
fn a_bot_game_transcript_from_a_fixed_seed() {
    let dir = temp_dir("transcript");
    let out = yaku(&[
        "play",
        "koikoi",
        "--players",
        "greedy,random",
        "--seed",
        "1",
        "--rounds",
        "2",
    ])
    .current_dir(&dir)
    .expect(0);
    insta::assert_snapshot!(out.stdout);
}
