//! Arranged hands (`[flow.arrange]`, issue 47, wall 3) on `tests/rulesets/arrange.toml`: four
//! cards of the Seotda pack split into a high and a low hand of two (the high not below the
//! low), the banker's by the house way, each hand settled against the banker's of the same
//! name: both won pays less 5%, one each pushes, both lost loses, copies to the banker.

use super::tests::order;
use super::*;
use crate::core::{Action, Game, StartOptions};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{self, Ruleset};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::fmt::Write as _;
use std::sync::Arc;

fn rules() -> Arc<Ruleset> {
    Arc::new(
        ruleset::load("tests/rulesets/arrange.toml")
            .value
            .expect("the test ruleset loads"),
    )
}

fn set(r: &Ruleset, ids: &[&str]) -> CardSet {
    ids.iter()
        .map(|i| r.deck.card_by_id(i).expect("a card id"))
        .collect()
}

fn names(r: &Ruleset, ts: impl IntoIterator<Item = CardId>) -> String {
    ts.into_iter()
        .map(|t| r.deck.card(t).id.clone())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One hand of one player betting 20: the player's four cards, then the banker's four; the
/// player's high hand `high`. Says the arrangements offered, both arrangements and the result.
fn hand(player: [&str; 4], banker: [&str; 4], high: [&str; 2]) -> String {
    let r = rules();
    let mut ids = player.to_vec();
    ids.extend(banker);
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            seats: Some(1),
            rounds: Some(1),
            deck_orders: vec![order(&r, &ids)],
            ..StartOptions::default()
        },
    )
    .unwrap();
    g.apply(Action::Bet { amount: 20 }).unwrap();
    let mut s = String::new();
    let offered: Vec<String> = g
        .legal()
        .iter()
        .map(|a| match a {
            Action::PlaySet { cards } => format!("[{}]", names(&r, cards.iter())),
            other => format!("{other:?}"),
        })
        .collect();
    let _ = writeln!(s, "high hands offered: {}", offered.join(" "));
    g.apply(Action::PlaySet {
        cards: set(&r, &high),
    })
    .unwrap();
    let h = &g.hands_played()[0];
    let line = |who: &str, hands: &[HandArranged], s: &mut String| {
        for a in hands {
            let _ = writeln!(
                s,
                "{who} {}: {} = {}{}",
                a.hand,
                names(&r, a.cards.iter().copied()),
                a.rank.as_deref().unwrap_or("-"),
                match a.outcome {
                    1 => ", wins",
                    -1 => ", loses",
                    _ if who == "player" => ", neither",
                    _ => "",
                }
            );
        }
    };
    line("banker", &h.banker_arranged, &mut s);
    let p = &h.players[0];
    line("player", &p.arranged, &mut s);
    let _ = writeln!(
        s,
        "bet {}: {:+}; banker {:+}; house {}",
        p.bet,
        p.result,
        h.banker_result,
        g.ledger().history[0].house
    );
    s
}

#[test]
fn only_high_hands_not_below_the_low_are_offered() {
    let r = rules();
    let flow = r.banker().unwrap();
    let a = flow.arrange.as_ref().unwrap();
    // A pair of pines (1) with a peony (6) and a clover (7): of the six ways to take two
    // cards for the high hand, 6 + 7 high leaves the pair low, above it: refused; a pine and
    // the peony (7 points) high leave a pine and the clover (8 points) low: refused, with either
    // pine. Left: the pair high over 3 points, and a pine and the clover (8) over a pine and the
    // peony (7), with either pine.
    let dealt = set(
        &r,
        &[
            "pine-crane",
            "pine-ribbon",
            "peony-butterflies",
            "clover-boar",
        ],
    );
    let offered: Vec<String> = arrange::arrangements(flow, a, dealt)
        .iter()
        .map(|s| names(&r, s.iter()))
        .collect();
    insta::assert_snapshot!(offered.join("\n"));
    // The house way keeps the pair whole in the high hand.
    assert_eq!(
        arrange::house_way(flow, a, dealt),
        set(&r, &["pine-crane", "pine-ribbon"])
    );
    // Without a pair it makes the low hand as strong as the high allows: of a 2, 3, 4 and 9,
    // the lows 3 + 9 (2 points) under 2 + 4 (6), 2 + 9 (1) under 3 + 4 (7) and 4 + 9 (3)
    // under 2 + 3 (5) are legal; 3 points is the best low.
    let dealt = set(
        &r,
        &[
            "plum-bird",
            "cherry-curtain",
            "wisteria-cuckoo",
            "chrysanthemum-sake",
        ],
    );
    assert_eq!(
        arrange::house_way(flow, a, dealt),
        set(&r, &["plum-bird", "cherry-curtain"])
    );
}

#[test]
fn winning_both_hands_pays_less_the_commission() {
    // The player makes a pair of maples (10) high and 8 + 9 (7 points) low. The banker's pair of
    // irises (5) stays high by the house way, its 1 + 2 (3 points) low. Both hands win: the 20
    // is paid, less 5% (1): +19; the house keeps 1.
    insta::assert_snapshot!(hand(
        [
            "maple-deer",
            "maple-ribbon",
            "pampas-moon",
            "chrysanthemum-sake"
        ],
        ["iris-bridge", "iris-ribbon", "pine-crane", "plum-bird"],
        ["maple-deer", "maple-ribbon"],
    ));
}

#[test]
fn one_hand_each_is_a_push_and_a_copy_goes_to_the_banker() {
    // One each: the player's pair of maples beats the banker's pair of irises, but its 1 + 2 (3
    // points) low loses to the banker's 8 + 9 (7): a push.
    let one_each = hand(
        ["maple-deer", "maple-ribbon", "pine-crane", "plum-bird"],
        [
            "iris-bridge",
            "iris-ribbon",
            "pampas-moon",
            "chrysanthemum-sake",
        ],
        ["maple-deer", "maple-ribbon"],
    );
    // A copy: the player's pair of maples wins high, but its low 1 + 6 (7 points) equals the
    // banker's 3 + 4 (7): the copy is the banker's, so the hands are one each, a push. Losing
    // the high as well would lose the bet.
    let copy = hand(
        [
            "maple-deer",
            "maple-ribbon",
            "pine-crane",
            "peony-butterflies",
        ],
        [
            "iris-bridge",
            "iris-ribbon",
            "cherry-curtain",
            "wisteria-cuckoo",
        ],
        ["maple-deer", "maple-ribbon"],
    );
    // Both lost: a pair of pines high under the banker's pair of irises, 2 + 3 (5) low under
    // its 8 + 9 (7).
    let both = hand(
        ["pine-crane", "pine-ribbon", "plum-bird", "cherry-curtain"],
        [
            "iris-bridge",
            "iris-ribbon",
            "pampas-moon",
            "chrysanthemum-sake",
        ],
        ["pine-crane", "pine-ribbon"],
    );
    insta::assert_snapshot!(format!("{one_each}\n{copy}\n{both}"));
}

#[test]
fn an_arrangement_not_offered_is_refused() {
    let r = rules();
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            seats: Some(1),
            rounds: Some(1),
            deck_orders: vec![order(
                &r,
                &[
                    "pine-crane",
                    "pine-ribbon",
                    "peony-butterflies",
                    "clover-boar",
                ],
            )],
            ..StartOptions::default()
        },
    )
    .unwrap();
    g.apply(Action::Bet { amount: 5 }).unwrap();
    // The pair low under 6 + 7 (3 points) high: the low would outrank the high.
    let e = g
        .apply(Action::PlaySet {
            cards: set(&r, &["peony-butterflies", "clover-boar"]),
        })
        .unwrap_err();
    insta::assert_snapshot!(e.reason);
    assert!(matches!(g.phase(), BankerPhase::Arrange { seat: 0 }));
}

#[test]
fn random_play_keeps_every_card_and_chip_and_replays() {
    let r = rules();
    for seed in 0..30 {
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                seats: Some(3),
                rounds: Some(20),
                ..StartOptions::default()
            },
        )
        .unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut moves = Vec::new();
        while g.to_act().is_some() {
            let legal = g.legal();
            let a = legal[rng.random_range(0..legal.len())];
            moves.push(a);
            g.apply(a).unwrap();
        }
        let chips: i64 = g.bankrolls().iter().sum();
        let house: i64 = g.ledger().history.iter().map(|h| h.house).sum();
        assert_eq!(
            chips + house,
            600,
            "seed {seed}: every chip is a seat's or the house's"
        );
        for h in g.hands_played() {
            let mut cards: Vec<CardId> = h.banker_tiles.clone();
            for p in &h.players {
                let mut arranged: Vec<CardId> =
                    p.arranged.iter().flat_map(|a| a.cards.clone()).collect();
                arranged.sort();
                assert_eq!(
                    arranged, p.tiles,
                    "seed {seed}: the hands hold the cards dealt"
                );
                cards.extend(p.tiles.iter().copied());
            }
            let mut banker: Vec<CardId> = h
                .banker_arranged
                .iter()
                .flat_map(|a| a.cards.clone())
                .collect();
            banker.sort();
            assert_eq!(banker, h.banker_tiles);
            let n = cards.len();
            cards.sort();
            cards.dedup();
            assert_eq!(cards.len(), n, "seed {seed}: a card dealt twice");
        }
        // The same deals and moves play the same session again (what a record replays).
        let mut again = start(
            Arc::clone(&r),
            StartOptions {
                seats: Some(3),
                rounds: Some(20),
                deck_orders: g.ledger().dealt_orders.clone(),
                ..StartOptions::default()
            },
        )
        .unwrap();
        for a in moves {
            again.apply(a).unwrap();
        }
        assert_eq!(again.hands_played(), g.hands_played());
    }
}

#[test]
fn too_many_arrangements_are_refused_with_the_count() {
    // Thirteen cards into six and seven would be 1,716 moves to weigh, over the bound of 1,000.
    let text = std::fs::read_to_string("tests/rulesets/arrange.toml")
        .unwrap()
        .replace("first_tiles = 4", "first_tiles = 13")
        .replace("banker_tiles = 4", "banker_tiles = 13")
        .replace("max_players = 3", "max_players = 1")
        .replace("players = 2", "players = 1")
        .replace(
            "cards = 2\n\n[[flow.arrange.hand]]",
            "cards = 6\n\n[[flow.arrange.hand]]",
        )
        .replace(
            "name = \"Low hand\"\ncards = 2",
            "name = \"Low hand\"\ncards = 7",
        );
    let loaded = ruleset::load_str("arrange-13", &text);
    let messages: Vec<String> = loaded
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert!(
        messages.iter().any(|m| m.contains("arranged 1716 ways")),
        "{messages:?}"
    );
    // Hands that do not hold the cards dealt are refused too.
    let text = std::fs::read_to_string("tests/rulesets/arrange.toml")
        .unwrap()
        .replace("first_tiles = 4", "first_tiles = 5");
    let loaded = ruleset::load_str("arrange-5", &text);
    let messages: Vec<String> = loaded
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("hold 4 cards, but `first_tiles` is 5")),
        "{messages:?}"
    );
}
