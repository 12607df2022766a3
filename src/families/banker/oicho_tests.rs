//! Oicho-Kabu (`rulesets/oicho-kabu.toml`), each rule on a worked hand with the source the
//! ruleset cites for it, the exact analysis checked against a plain enumeration, and random
//! sessions that keep every card and every chip.
//!
//! A hand of one player is dealt in this order: the player's first card, the banker's two cards
//! (after the bet), the player's second and third cards, the banker's third card.

use super::tests::order;
use super::*;
use crate::core::{Action, StartOptions};
use crate::deck::{CardId, CardSet};
use crate::families::banker::analysis::{Rational, combinations, seats::seat_odds};
use crate::ruleset::{self, Ruleset};
use std::fmt::Write as _;
use std::sync::Arc;

fn rules() -> Arc<Ruleset> {
    Arc::new(
        ruleset::load("oicho-kabu")
            .value
            .expect("the bundled ruleset loads"),
    )
}

/// One player bets 5 and answers each choice with `choices`, in turn.
fn hand(ids: &[&str], choices: &[u32]) -> String {
    let r = rules();
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            // The banker is the second seat: the one player is seat 0.
            seats: Some(2),
            first_dealer: Some(1),
            rounds: Some(1),
            deck_orders: vec![order(&r, ids)],
            ..StartOptions::default()
        },
    )
    .unwrap();
    g.apply(Action::Bet { amount: 5 }).unwrap();
    let mut asked = 0;
    while !g.is_over() {
        g.apply(Action::Draw {
            count: choices[asked],
        })
        .unwrap();
        asked += 1;
    }
    assert_eq!(asked, choices.len(), "every choice was asked");
    let h = &g.hands_played()[0];
    let names = |ts: &[CardId]| {
        ts.iter()
            .map(|&t| r.deck.card(t).id.clone())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut s = String::new();
    let p = &h.players[0];
    let _ = writeln!(s, "player {} value {:?}", names(&p.tiles), p.value);
    let _ = writeln!(
        s,
        "banker {} value {:?}",
        names(&h.banker_tiles),
        h.banker_value
    );
    if let Some(w) = &h.banker_win {
        let _ = writeln!(s, "banker wins at once: {w}");
    }
    for rule in &h.rules {
        let _ = writeln!(s, "rule: {rule}");
    }
    let _ = writeln!(s, "result {:+}", p.result);
    s
}

#[test]
fn the_second_card_then_a_forced_draw_on_three() {
    // wikipedia, trumpgame: every player's card takes a second card; 1 + 2 = 3 "must" take a
    // third (trumpgame "3以下なら必ず配り"): 5, total 8. The banker's 7 + 10 = 7 stands (Choice:
    // the banker stands on 6-9). 8 beats 7.
    insta::assert_snapshot!(hand(&["one-a", "seven-a", "ten-a", "two-a", "five-a"], &[]));
}

#[test]
fn seven_stands_and_the_banker_draws_on_four_a_tie_is_a_push() {
    // trumpgame "7以上なら配れない": 3 + 4 = 7 stands. The banker's 2 + 2 = 4 draws (Choice: the
    // banker draws on 0-5) a 3: 7. Equal totals: the stake comes back (Choice, hanafubuki).
    insta::assert_snapshot!(hand(
        &["three-a", "two-a", "two-b", "four-a", "three-b"],
        &[]
    ));
}

#[test]
fn four_leaves_the_choice_and_the_player_takes_kabu() {
    // trumpgame: between 4 and 6 the player says whether a third card is needed. 2 + 2 = 4,
    // the player takes one, a 5: 9, kabu (wikipedia: "The goal of the game is to reach 9").
    // The banker's 6 + 10 = 6 stands.
    insta::assert_snapshot!(hand(&["two-a", "six-a", "ten-a", "two-b", "five-a"], &[1]));
}

#[test]
fn six_left_to_the_player_stands_against_oicho() {
    // 3 + 3 = 6, the player stands; the banker's 8 + 10 = 8 (oicho) wins.
    insta::assert_snapshot!(hand(&["three-a", "eight-a", "ten-a", "three-b"], &[0]));
}

#[test]
fn arashi_three_of_a_kind_beats_kabu() {
    // Choice (trumpgame names アラシ): three cards of one number, 20, above every total. The
    // player's 2 + 2 takes a third 2 (a total of 6); the banker's 9 + 10 is kabu, 9.
    insta::assert_snapshot!(hand(&["two-a", "nine-a", "ten-a", "two-b", "two-c"], &[1]));
}

#[test]
fn kuppin_nine_and_one_stands_and_beats_kabu() {
    // Choice: a Nine and a One (九一, kuppin) are 10, above kabu, and stand (a total of 0 would
    // have to draw). The banker's 4 + 5 is kabu, 9.
    insta::assert_snapshot!(hand(&["nine-a", "four-a", "five-a", "one-a"], &[]));
}

#[test]
fn shippin_four_and_one_wins_every_bet_at_once() {
    // fudawiki "Shippin [四一]"; Choice: the banker's Four and One win every bet before any
    // player draws.
    insta::assert_snapshot!(hand(&["nine-a", "four-a", "one-a"], &[]));
}

/// The expected result of one chip for the player holding `held` (two cards) and taking
/// `take` more, by going through every banker hand, every card taken and every banker draw
/// one card at a time: no classes, no memo, nothing shared with `analysis::seats`.
fn plain(r: &Ruleset, held: &[&str], take: u32) -> Rational {
    let flow = r.banker().unwrap();
    let mut player = CardSet::EMPTY;
    for id in held {
        player.insert(r.deck.card_by_id(id).unwrap());
    }
    let value = |s: CardSet| hand_value(flow, s);
    let sign = |p: CardSet, b: CardSet| i128::from((value(p) - value(b)).signum());
    let banker_result = |p: CardSet, b: CardSet| -> Rational {
        if banker_instant_win(flow, b).is_some() {
            return Rational::from(-1);
        }
        if value(b) > 5 {
            return Rational::from(sign(p, b));
        }
        let rest = r.deck.all() - p - b;
        let (mut sum, mut n) = (0i128, 0i128);
        for c in rest.iter() {
            let mut b3 = b;
            b3.insert(c);
            sum += sign(p, b3);
            n += 1;
        }
        Rational::new(sum, n)
    };
    let (mut total, mut hands) = (Rational::ZERO, 0i128);
    combinations(r.deck.all() - player, 2, |b| {
        hands += 1;
        if take == 0 {
            total += banker_result(player, b);
            return;
        }
        let rest = r.deck.all() - player - b;
        let (mut sum, mut n) = (Rational::ZERO, 0i128);
        for c in rest.iter() {
            let mut p3 = player;
            p3.insert(c);
            // The shippin check comes before the player's draw: the same whatever is taken.
            sum += banker_result(p3, b);
            n += 1;
        }
        total += sum / Rational::from(n);
    });
    total / Rational::from(hands)
}

#[test]
fn the_exact_analysis_agrees_with_a_plain_enumeration() {
    let r = rules();
    let odds = seat_odds(&r, r.banker().unwrap()).unwrap();
    // fudawiki's shippin: a Four and a One among the banker's two cards, 2 · 4/40 · 4/39.
    assert_eq!(odds.banker_wins, Rational::new(4, 195));
    // The average of the first hands is the player's result.
    let mean = odds
        .first
        .iter()
        .fold(Rational::ZERO, |s, o| s + o.best().1)
        / Rational::from(odds.first.len() as i128);
    assert_eq!(mean, odds.player);
    for (held, take) in [(["six-a", "ten-a"], 0), (["three-a", "one-b"], 1)] {
        let mut tiles = CardSet::EMPTY;
        for id in held {
            tiles.insert(r.deck.card_by_id(id).unwrap());
        }
        let entry = odds
            .choices
            .iter()
            .find(|o| o.tiles == tiles)
            .expect("a hand of 4 or 6 is a choice");
        assert_eq!(
            entry.with_draw(take),
            Some(plain(&r, &held, take)),
            "{held:?} taking {take}"
        );
    }
    // The best choice by total: take a card on 4 and 5, stand on 6.
    let best: Vec<(i64, u32)> = odds
        .by_total
        .iter()
        .map(|t| (t.total, t.best().0))
        .collect();
    assert_eq!(best, [(4, 1), (5, 1), (6, 0)]);
}

/// Random sessions keep every card and every chip: each hand's cards are distinct cards of its
/// deal, the player's two or three (one when shippin ends the hand at once), the banker's two or
/// three, and the players' bankrolls with the banker's add up after every action.
#[test]
fn random_sessions_conserve_every_card_and_every_chip() {
    use crate::agent::RandomAgent;
    use crate::core::{Agent, Game, agent_rng};
    let r = rules();
    let flow = r.banker().unwrap();
    for (seats, seed) in (2..=7).flat_map(|s| (0..3).map(move |seed| (s, seed))) {
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                seats: Some(seats),
                ..StartOptions::default()
            },
        )
        .unwrap();
        // The banker is a seat: its chips are among the bankrolls.
        let start_chips = seats as i64 * flow.bankroll;
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        while let Some(seat) = g.to_act() {
            Game::legal_actions(&g, &mut legal);
            let a = RandomAgent.choose(&g, seat, &legal, &mut rng);
            g.apply(a).unwrap();
            let chips = g.bankrolls().iter().sum::<i64>();
            assert_eq!(chips, start_chips, "{seats} seats, seed {seed}");
        }
        for (h, deal) in g.hands_played().iter().zip(g.dealt_orders()) {
            let mut seen = CardSet::EMPTY;
            let at_once = h.banker_win.is_some();
            let b = &h.banker_tiles;
            assert!(b.len() == 2 || (!at_once && b.len() == 3), "{b:?}");
            for p in &h.players {
                let n = p.tiles.len();
                assert!(if at_once { n == 1 } else { n == 2 || n == 3 });
                for &c in &p.tiles {
                    assert!(!seen.contains(c));
                    seen.insert(c);
                }
            }
            for &c in b {
                assert!(!seen.contains(c));
                seen.insert(c);
            }
            let dealt: CardSet = deal[..seen.len() as usize].iter().copied().collect();
            assert_eq!(seen, dealt, "the hand's cards are the first of its deal");
            let net: i64 = h.players.iter().map(|p| p.result).sum();
            assert_eq!(net, -h.banker_result);
            let banker = h.banker_seat.expect("a seat banks");
            assert!(h.players.iter().all(|p| p.seat != banker));
        }
    }
}

#[test]
fn the_domae_limits_the_bets_of_a_hand_together() {
    // wikipedia "Gameplay": the domae is "the maximum limit for the total bets of all the
    // players ... then player D is not allowed to bet". Choice: 25 chips. Three players bet in
    // seat order: 10, then 10 of the 15 left, then the third may bet 1 to 5, and a fourth
    // nothing.
    let r = rules();
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            // Four players and the banker, the last seat.
            seats: Some(5),
            first_dealer: Some(4),
            rounds: Some(1),
            ..StartOptions::default()
        },
    )
    .unwrap();
    let mut s = String::new();
    for amount in [10, 10, 5, 0] {
        let seat = g.to_act().unwrap();
        let _ = writeln!(
            s,
            "seat {seat} may bet {:?}, bets {amount}",
            g.view(seat).limits
        );
        g.apply(Action::Bet { amount }).unwrap();
    }
    while let Some(seat) = g.to_act() {
        g.apply(Action::Draw { count: 0 })
            .unwrap_or_else(|e| panic!("{seat}: {e:?}"));
    }
    for p in &g.hands_played()[0].players {
        let _ = writeln!(s, "seat {} bet {} result {:+}", p.seat, p.bet, p.result);
    }
    insta::assert_snapshot!(s);
}

#[test]
fn a_strategy_keyed_on_the_total_chooses_at_the_players_choice() {
    // A strategy file's `[[strategy.total]]` entry reads the hand's value when the player may
    // choose (4 to 6): it stands on 5 and 6, takes a card on 4 (its default).
    use crate::agent::Agent;
    use rand::SeedableRng;
    let r = rules();
    let text = "[strategy]\nname = \"t\"\ndeck = \"kabufuda\"\nbet = \"min\"\ndraw = 1\n\
                [[strategy.total]]\ntotal = [5, 6]\ndraw = 0\n";
    let strategy = analysis::Strategy::parse(text, &r.deck).expect("parses");
    let mut agent = StrategyAgent::new(strategy, &r);
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(1);
    for (second, wanted) in [("three-b", 0), ("four-b", 0), ("two-b", 1)] {
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seats: Some(2),
                first_dealer: Some(1),
                rounds: Some(1),
                deck_orders: vec![order(&r, &["two-a", "six-a", "ten-a", second])],
                ..StartOptions::default()
            },
        )
        .unwrap();
        g.apply(Action::Bet { amount: 1 }).unwrap();
        let legal = g.legal();
        assert_eq!(legal.len(), 2, "the player chooses with {second}");
        let chosen = agent.choose(&g, 0, &legal, &mut rng);
        assert_eq!(chosen, Action::Draw { count: wanted }, "2 and {second}");
    }
}
