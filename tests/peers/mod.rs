//! Scoring checked against an implementation no one here wrote: the end-of-hand scoring of
//! goblindegook/scopa (MIT, a TypeScript web game; its scoring module is vendored in
//! `tests/peers/scopa/vendor/` with its licence and run with Node by `peer_score.mjs`), against
//! `yaku score scopa` on hands played to their end by random players.
//!
//! The peer awards primiera to the higher sum of the suits a player holds; the `scopa` ruleset
//! follows the sources that say a player lacking a suit cannot win it. The two are compared on
//! primiera (and the hand's total) only where both players hold every suit; elsewhere every
//! other point is compared, and yaku's primiera must go to a player holding all four suits.

mod pinochle;

use crate::common::{Yaku, root};
use std::sync::Arc;
use yaku::core::{Game as _, StartOptions, agent_rng};
use yaku::families::agent_by_name;

/// Hands compared.
const HANDS: u64 = 200;

/// The Node binary, when one is installed.
fn node() -> Option<std::path::PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|dir| std::path::Path::new(dir).join("node"))
        .find(|p| p.is_file())
}

/// One finished hand: each seat's pile (card ids) and sweeps, and yaku's award per point.
struct Hand {
    piles: [Vec<String>; 2],
    sweeps: [u32; 2],
    /// `yaku score --json`'s steps, by the point they award: (seat, reason).
    steps: Vec<(usize, String)>,
    seats: Vec<i64>,
    every_suit: [bool; 2],
}

/// Plays hand `seed` of Scopa with two random players and scores it with `yaku score`.
fn played_hand(r: &Arc<yaku::ruleset::Ruleset>, seed: u64) -> Hand {
    let options = StartOptions {
        seed,
        rounds: Some(1),
        ..StartOptions::default()
    };
    let mut game = yaku::families::matching::start(Arc::clone(r), options).unwrap();
    let mut agents = [
        agent_by_name("random", r).unwrap(),
        agent_by_name("random", r).unwrap(),
    ];
    let mut rng = agent_rng(seed);
    let mut legal = Vec::new();
    while let Some(seat) = game.to_act() {
        game.legal_actions(&mut legal);
        let a = agents[seat].choose(&game, seat, &legal, &mut rng);
        game.apply(a).unwrap();
    }
    let deck = &r.deck;
    let scopa = r
        .matching()
        .unwrap()
        .turn_events
        .iter()
        .position(|e| e.id == "scopa")
        .unwrap();
    let piles = [0, 1].map(|s| {
        deck.ids(game.captured(s))
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>()
    });
    let sweeps = [0, 1].map(|s| u32::from(game.marks().fired(s, scopa)));
    let every_suit = [0, 1].map(|s| {
        deck.suits
            .iter()
            .all(|suit| !(suit.cards & game.captured(s)).is_empty())
    });
    // Every card is in a pile at the hand's end (the last capturer takes the table).
    assert_eq!(piles[0].len() + piles[1].len(), 40, "hand {seed}");
    let out = Yaku::new([
        "score",
        "scopa",
        "--end",
        "exhausted",
        "--json",
        "--captured",
        &piles[0].join(","),
        "--loser",
        &piles[1].join(","),
        "--fired",
        &format!("0:scopa={}", sweeps[0]),
        "--fired",
        &format!("1:scopa={}", sweeps[1]),
    ])
    .expect(0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let seats: Vec<i64> = serde_json::from_value(v["seats"].clone()).unwrap();
    // The binary scores the hand as the game did.
    assert_eq!(seats, game.history()[0].points.to_vec(), "hand {seed}");
    let steps = v["multipliers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["seat"].as_u64().unwrap() as usize,
                s["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    Hand {
        piles,
        sweeps,
        steps,
        seats,
        every_suit,
    }
}

/// yaku's points of one kind for each seat, from the steps whose reason starts with `prefix`.
fn awarded(hand: &Hand, prefix: &str) -> [i64; 2] {
    let mut out = [0, 0];
    for (seat, reason) in &hand.steps {
        if reason.starts_with(prefix) {
            let points: i64 = reason
                .rsplit(' ')
                .next()
                .and_then(|p| p.parse().ok())
                .unwrap_or_else(|| panic!("a step ends with its points: {reason}"));
            out[*seat] += points;
        }
    }
    out
}

#[test]
fn scopa_end_of_hand_scoring_agrees_with_an_independent_implementation() {
    let Some(node) = node() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but Node is not installed (apt-get install nodejs)"
        );
        eprintln!("SKIPPED the Scopa peer comparison: Node is not installed");
        return;
    };
    let r = Arc::new(yaku::ruleset::load("scopa").value.unwrap());
    let hands: Vec<Hand> = (0..HANDS).map(|seed| played_hand(&r, seed)).collect();
    let input: String = hands
        .iter()
        .map(|h| {
            format!(
                "{}\n",
                serde_json::json!({ "piles": h.piles, "sweeps": h.sweeps })
            )
        })
        .collect();
    let mut child = std::process::Command::new(node)
        .arg(root().join("tests/peers/scopa/peer_score.mjs"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("node runs");
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the peer failed");
    let peer: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(peer.len(), hands.len());
    let mut both_full = 0;
    for (i, (hand, p)) in hands.iter().zip(&peer).enumerate() {
        let theirs = |key: &str| -> [i64; 2] { serde_json::from_value(p[key].clone()).unwrap() };
        assert_eq!(
            awarded(hand, "most cards"),
            theirs("cards"),
            "hand {i}: cards"
        );
        assert_eq!(
            awarded(hand, "most coins"),
            theirs("coins"),
            "hand {i}: coins"
        );
        assert_eq!(
            awarded(hand, "Settebello"),
            theirs("settebello"),
            "hand {i}: settebello"
        );
        assert_eq!(awarded(hand, "Scopa"), theirs("scope"), "hand {i}: sweeps");
        let prime = awarded(hand, "most primiera");
        if hand.every_suit == [true, true] {
            both_full += 1;
            assert_eq!(prime, theirs("primiera"), "hand {i}: primiera");
            assert_eq!(hand.seats, theirs("points"), "hand {i}: the hand's points");
        } else {
            // Only a player holding every suit may win primiera here.
            for (won, full) in prime.iter().zip(hand.every_suit) {
                assert!(*won == 0 || full, "hand {i}: primiera");
            }
        }
    }
    // Most random hands leave both players every suit: the comparison covers primiera.
    assert!(both_full > HANDS / 2, "{both_full} of {HANDS} hands");
}
