//! Command-line checks that must fail before any play: `--rounds` out of range, `--record` and
//! `--save` paths that cannot be written.

use super::run::{temp_dir, yaku};

#[test]
fn rounds_outside_1_to_1000_is_a_usage_error() {
    for rounds in ["0", "1001", "999999999"] {
        for command in [
            &[
                "play",
                "koikoi",
                "--players",
                "greedy,greedy",
                "--seed",
                "1",
            ][..],
            &["sim", "koikoi", "--games", "3"][..],
        ] {
            let out = yaku(&[command, &["--rounds", rounds]].concat()).expect(2);
            assert!(
                out.stderr
                    .contains(&format!("invalid value '{rounds}' for '--rounds <N>'")),
                "{}",
                out.stderr
            );
            assert!(out.stderr.contains("1..=1000"), "{}", out.stderr);
            assert!(out.stdout.is_empty(), "nothing was played: {}", out.stdout);
        }
    }
    // The bounds themselves are accepted.
    let out = yaku(&["sim", "koikoi", "--games", "1", "--rounds", "1"]).expect(0);
    assert!(out.stdout.contains("1 games, 1 rounds"), "{}", out.stdout);
    let dir = temp_dir("rounds");
    let out = yaku(&["play", "koikoi", "--seed", "1", "--rounds", "1000"])
        .current_dir(&dir)
        .expect(0);
    assert!(out.stdout.contains("round 1 of 1000"), "{}", out.stdout);
}
