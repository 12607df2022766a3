//! Worked showdowns of the banker-game core on the bundled Kol-ye-si rules, dealt from hand-made
//! deck orders: the player's first tile, the banker's two tiles, then the tiles players take.

use super::*;
use crate::core::{Action, StartOptions};
use crate::deck::CardId;
use crate::ruleset::{self, Ruleset};
use std::fmt::Write as _;
use std::sync::Arc;

fn rules(name: &str) -> Arc<Ruleset> {
    Arc::new(ruleset::load(name).value.expect("bundled ruleset loads"))
}

/// A deck order starting with `ids`, then every other tile in deck order: the deal every
/// banker test file sets up.
pub(super) fn order(r: &Ruleset, ids: &[&str]) -> Vec<CardId> {
    let mut o: Vec<CardId> = ids
        .iter()
        .map(|i| r.deck.card_by_id(i).expect("a card or tile id"))
        .collect();
    let rest: Vec<CardId> = (0..r.deck.cards.len() as u8)
        .map(CardId)
        .filter(|c| !o.contains(c))
        .collect();
    o.extend(rest);
    o
}

/// Plays one hand: each player bets `bet` and takes `draws[seat]` more tiles.
fn one_hand(r: &Arc<Ruleset>, ids: &[&str], bets: &[i64], draws: &[u32]) -> BankerHand {
    let mut g = start(
        Arc::clone(r),
        StartOptions {
            seats: Some(bets.len()),
            rounds: Some(1),
            deck_orders: vec![order(r, ids)],
            ..StartOptions::default()
        },
    )
    .unwrap();
    for &amount in bets {
        g.apply(Action::Bet { amount }).unwrap();
    }
    for &tiles in draws {
        if g.is_over() {
            break;
        }
        g.apply(Action::Draw { count: tiles }).unwrap();
    }
    assert!(g.is_over());
    g.hands_played()[0].clone()
}

fn render(r: &Ruleset, h: &BankerHand) -> String {
    let names = |ts: &[CardId]| {
        ts.iter()
            .map(|&t| r.deck.card(t).name.clone())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "banker {} value {:?} win-at-once {:?}",
        names(&h.banker_tiles),
        h.banker_value,
        h.banker_win
    );
    for p in &h.players {
        let _ = writeln!(
            s,
            "player {} {} value {:?} bet {} result {:+}",
            p.seat,
            names(&p.tiles),
            p.value,
            p.bet,
            p.result
        );
    }
    let _ = writeln!(s, "banker result {:+}", h.banker_result);
    s
}

#[test]
fn civil_pair_for_the_banker_wins_every_bet_at_once() {
    let r = rules("kolyesi");
    // Players: [6:6] and [5:5]; banker: [6:5] [6:5], a civil pair.
    let h = one_hand(
        &r,
        &["heaven-a", "plum-flower-a", "tiger-head-a", "tiger-head-b"],
        &[3, 10],
        &[],
    );
    assert_eq!(h.banker_win.as_deref(), Some("Civil pair"));
    assert_eq!(h.banker_result, 13);
    insta::assert_snapshot!(render(&r, &h));
}

#[test]
fn a_military_pair_is_no_civil_pair() {
    let r = rules("kolyesi");
    // The two mixed nines are different tiles: no instant win, the showdown decides.
    let h = one_hand(
        &r,
        &["heaven-a", "nine-63-a", "nine-54-a", "man-a"],
        &[1],
        &[1],
    );
    assert_eq!(h.banker_win, None);
    assert_eq!(h.banker_value, Some(8)); // 9 + 9 = 18
    insta::assert_snapshot!(render(&r, &h));
}

#[test]
fn modulo_ten_with_two_and_three_tiles() {
    let r = rules("kolyesi");
    // Player 0: [6:6] + [4:4] = 20 -> 0 (two tiles); player 1: [5:5] + [3:3] + [1:1] = 18 -> 8
    // (three tiles); banker [6:4] + [5:1] = 16 -> 6.
    let h = one_hand(
        &r,
        &[
            "heaven-a",
            "plum-flower-a",
            "red-head-ten-a",
            "red-mallet-six-a",
            "man-a",
            "long-three-a",
            "earth-a",
        ],
        &[2, 5],
        &[1, 2],
    );
    assert_eq!(h.banker_value, Some(6));
    assert_eq!(h.players[0].value, Some(0));
    assert_eq!(h.players[0].result, -2);
    assert_eq!(h.players[1].value, Some(8));
    assert_eq!(h.players[1].result, 5);
    insta::assert_snapshot!(render(&r, &h));
}

#[test]
fn supreme_tiles_count_at_face_value() {
    let r = rules("kolyesi");
    // Player: [4:2] + [2:1] = 9; banker [6:6] + [1:1] = 14 -> 4. Face value: 6 and 3.
    let h = one_hand(
        &r,
        &["six-42-a", "heaven-a", "earth-a", "three-21-a"],
        &[4],
        &[1],
    );
    assert_eq!(h.players[0].value, Some(9));
    assert_eq!(h.players[0].result, 4);
    insta::assert_snapshot!(render(&r, &h));
}

#[test]
fn supreme_tiles_are_wild_in_the_house_rule() {
    let r = rules("house/kolyesi-wild-supreme");
    // [4:2] + [6:6] + [2:1] = 21 -> 1 at face value; reading [4:2] as 3 gives 18 -> 8.
    let h = one_hand(
        &r,
        &["six-42-a", "man-a", "earth-a", "heaven-a", "three-21-a"],
        &[2],
        &[2],
    );
    assert_eq!(h.players[0].value, Some(8));
    assert_eq!(h.banker_value, Some(0)); // [4:4] + [1:1] = 10 -> 0
    insta::assert_snapshot!(render(&r, &h));
}

#[test]
fn equal_values_are_a_tie() {
    let r = rules("kolyesi");
    // Player [6:5] + [5:1] = 17 -> 7; banker [6:1] + [6:4] = 17 -> 7: both keep their stakes.
    let h = one_hand(
        &r,
        &[
            "tiger-head-a",
            "long-leg-seven-a",
            "red-head-ten-a",
            "red-mallet-six-a",
        ],
        &[10],
        &[1],
    );
    assert_eq!(h.players[0].value, h.banker_value);
    assert_eq!(h.players[0].result, 0);
    assert_eq!(h.banker_result, 0);
    insta::assert_snapshot!(render(&r, &h));
}

#[test]
fn bets_outside_the_limits_and_wrong_draws_are_refused() {
    let r = rules("kolyesi");
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            seats: Some(1),
            ..StartOptions::default()
        },
    )
    .unwrap();
    assert!(g.apply(Action::Bet { amount: 11 }).is_err());
    assert!(g.apply(Action::Bet { amount: 0 }).is_err());
    assert!(g.apply(Action::Draw { count: 1 }).is_err());
    g.apply(Action::Bet { amount: 10 }).unwrap();
    if !g.is_over() && g.hands_played().is_empty() {
        assert!(g.apply(Action::Draw { count: 3 }).is_err());
    }
    assert!(
        start(
            Arc::clone(&r),
            StartOptions {
                seats: Some(6),
                ..StartOptions::default()
            }
        )
        .is_err()
    );
}

#[test]
fn a_player_out_of_chips_leaves_and_bankrolls_carry_over() {
    let r = rules("kolyesi");
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            seats: Some(2),
            rounds: Some(500),
            seed: 3,
            ..StartOptions::default()
        },
    )
    .unwrap();
    let mut agents: Vec<Box<dyn crate::agent::Agent>> = vec![
        crate::families::agent_by_name("random", &r).unwrap(),
        crate::families::agent_by_name("always-two", &r).unwrap(),
    ];
    crate::core::play_out(&mut g, &mut agents, &mut crate::agent::agent_rng(3)).unwrap();
    let start = r.banker().unwrap().bankroll;
    for seat in 0..2 {
        let net: i64 = g
            .hands_played()
            .iter()
            .flat_map(|h| &h.players)
            .filter(|p| p.seat == seat)
            .map(|p| p.result)
            .sum();
        assert_eq!(g.bankrolls()[seat], start + net);
        assert!(g.bankrolls()[seat] >= 0);
    }
    let banker_net: i64 = g.hands_played().iter().map(|h| h.banker_result).sum();
    let players_net: i64 = g.bankrolls().iter().map(|b| b - start).sum();
    assert_eq!(banker_net, -players_net);
    // Once out of chips, a player sits out every later hand.
    for seat in 0..2 {
        if let Some(i) = g.hands_played().iter().position(|h| {
            let before: i64 = start
                + g.hands_played()
                    .iter()
                    .take_while(|x| x.hand <= h.hand)
                    .flat_map(|x| &x.players)
                    .filter(|p| p.seat == seat)
                    .map(|p| p.result)
                    .sum::<i64>();
            before < r.banker().unwrap().min_bet
        }) {
            assert!(
                g.hands_played()[i + 1..]
                    .iter()
                    .all(|h| h.players.iter().all(|p| p.seat != seat))
            );
        }
    }
}

/// A game copied in place ([`crate::core::Game::copy_from`]) over a game of another seed, some
/// hands on, is the clone, and plays on as the clone does.
#[test]
fn copy_from_is_a_clone() {
    for name in ["kolyesi", "house/kolyesi-wild-supreme"] {
        let r = rules(name);
        crate::families::every_family_tests::assert_copy_is_clone(
            &begun(&r, 3, 7),
            begun(&r, 9, 30),
            name,
        );
    }
}

/// A two-seat game of `r` seeded with `seed`, `moves` random moves in.
fn begun(r: &Arc<Ruleset>, seed: u64, moves: usize) -> BankerGame {
    let options = StartOptions {
        seed,
        seats: Some(2),
        ..StartOptions::default()
    };
    let mut g = start(Arc::clone(r), options).unwrap();
    crate::families::every_family_tests::random_moves(&mut g, seed, moves);
    g
}

/// A search's world dealt in place ([`crate::core::Game::determinize_from`]) over a game of
/// another seed, some hands on, is the world `determinize` deals, draw for draw.
#[test]
fn a_deal_made_in_place_is_the_fresh_deal() {
    for name in ["kolyesi", "house/kolyesi-wild-supreme"] {
        let r = rules(name);
        for (seed, moves) in [(3, 7), (4, 2), (5, 12), (6, 5)] {
            let source = begun(&r, seed, moves);
            crate::families::every_family_tests::assert_deal_in_place_is_fresh(
                &source,
                begun(&r, 9, 30),
                name,
            );
        }
    }
}
