//! The bank as a seat (`[flow.bank]`), on Oicho-Kabu (`rulesets/oicho-kabu.toml`): the banker
//! banks with its own chips, and the bank passes to a player who beats it with kabu, or in turn.

use super::tests::order;
use super::*;
use crate::core::{Action, StartOptions};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{self, Ruleset};
use std::fmt::Write as _;
use std::sync::Arc;

fn rules() -> Arc<Ruleset> {
    Arc::new(ruleset::load("oicho-kabu").value.expect("it loads"))
}

fn names(r: &Ruleset, ts: &[CardId]) -> String {
    ts.iter()
        .map(|&t| r.deck.card(t).id.clone())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_bank_passes_to_a_player_who_beats_it_with_kabu() {
    // Choice in oicho-kabu.toml ([flow.bank], after wikipedia and 花札ゲーム.com: the bank
    // changes by the table's conditions): the first player in turn from the banker who beats
    // it with kabu takes the bank. Seat 2 banks; seat 0 is dealt five then four (kabu, it
    // stands), seat 1 two, one and one (4); the banker three and two (5: it draws) and six (1).
    let r = rules();
    let deal = order(
        &r,
        &[
            "five-a", "two-a", "three-a", "two-b", "four-a", "one-a", "one-b", "six-a",
        ],
    );
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            seats: Some(3),
            first_dealer: Some(2),
            rounds: Some(2),
            deck_orders: vec![deal],
            ..StartOptions::default()
        },
    )
    .unwrap();
    let mut s = String::new();
    let _ = writeln!(s, "banker: seat {:?}", g.banker_seat());
    g.apply(Action::Bet { amount: 5 }).unwrap();
    g.apply(Action::Bet { amount: 3 }).unwrap();
    let h = g.hands_played()[0].clone();
    for p in &h.players {
        let _ = writeln!(
            s,
            "seat {} {} value {:?} bet {} result {:+}",
            p.seat,
            names(&r, &p.tiles),
            p.value,
            p.bet,
            p.result
        );
    }
    let _ = writeln!(
        s,
        "banker seat {:?} {} value {:?} result {:+}",
        h.banker_seat,
        names(&r, &h.banker_tiles),
        h.banker_value,
        h.banker_result
    );
    let _ = writeln!(s, "the bank passes to seat {:?}", h.bank_to);
    let _ = writeln!(s, "bankrolls {:?}", g.bankrolls());
    let _ = writeln!(s, "next banker: seat {:?}", g.banker_seat());
    let _ = writeln!(s, "next to bet: seat {:?}", g.to_act());
    let record = &g.ledger().history[0];
    let _ = writeln!(
        s,
        "recorded dealer {:?}, points {:?}",
        record.dealer, record.points
    );
    insta::assert_snapshot!(s);
}

#[test]
fn the_bank_passes_in_turn_after_five_hands() {
    // Choice in oicho-kabu.toml: `pass_every = 5`. Seat 1 banks hands 1 to 5 unless a kabu
    // takes the bank first; whatever happens, no banker keeps it for more than five hands.
    let r = rules();
    for seed in 0..20 {
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
        while let Some(seat) = g.to_act() {
            let a = g.legal()[0];
            g.apply(a).unwrap_or_else(|e| panic!("{seat}: {e:?}"));
        }
        let mut run = 0;
        let mut last = None;
        for h in g.hands_played() {
            run = if h.banker_seat == last { run + 1 } else { 1 };
            last = h.banker_seat;
            assert!(run <= 5, "seed {seed}: a banker kept the bank {run} hands");
            if let Some(to) = h.bank_to {
                assert_ne!(Some(to), h.banker_seat);
            }
        }
        let total: i64 = g.bankrolls().iter().sum();
        assert_eq!(total, 300, "the banker's chips are a seat's");
    }
}

#[test]
fn the_first_banker_is_shown_the_card_nearest_nine() {
    // wikipedia "Gameplay": "The person closest to 9 will be the dealer". Every seed picks a
    // seat; the record keeps it, so a replay starts with the same banker.
    let r = rules();
    let mut seen = [false; 4];
    for seed in 0..40 {
        let g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                seats: Some(4),
                ..StartOptions::default()
            },
        )
        .unwrap();
        let b = g.banker_seat().unwrap();
        seen[b] = true;
        assert_eq!(crate::core::Game::first_dealer(&g), Some(b));
    }
    assert!(
        seen.iter().all(|&s| s),
        "every seat banks first on some seed"
    );
}

#[test]
fn a_bank_with_its_own_purse_is_refused() {
    let text = ruleset::bundled::file("oicho-kabu.toml")
        .unwrap()
        .replace("hands = 20", "hands = 20\nbanker_bankroll = 50");
    let loaded = ruleset::load_str("oicho-kabu-purse", &text);
    let errors: Vec<String> = loaded
        .diagnostics
        .iter()
        .map(|e| e.message.clone())
        .collect();
    assert!(
        errors
            .iter()
            .any(|e| e.contains("remove `banker_bankroll`")),
        "{errors:?}"
    );
}

/// After every action of a random game, Oicho-Kabu's (a seat banks) or Seotda's (a pot): every
/// card is in one hand or the stock, the chips of the bankrolls and the pot add up to what the
/// seats brought, no bankroll is negative, the bets of a hand stay within the limits; and after
/// each hand its results add up to nothing (what the players win the banker loses; a pot goes
/// whole to its winners).
mod conservation {
    use super::*;
    use crate::agent::RandomAgent;
    use crate::core::{Agent, Game, agent_rng};
    use proptest::prelude::*;

    fn play(ruleset: &str, seats: usize, seed: u64) -> Result<(), TestCaseError> {
        let r = Arc::new(ruleset::load(ruleset).value.expect("bundled ruleset"));
        let flow = r.banker().expect("banker");
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                seats: Some(seats),
                rounds: Some(6),
                ..StartOptions::default()
            },
        )
        .unwrap();
        let chips = seats as i64 * flow.bankroll;
        let cards = r.deck.cards.len();
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        while let Some(seat) = g.to_act() {
            Game::legal_actions(&g, &mut legal);
            let a = RandomAgent.choose(&g, seat, &legal, &mut rng);
            g.apply(a).unwrap();
            let held = g.bankrolls().iter().sum::<i64>() + g.pot_state().pot;
            prop_assert_eq!(held, chips);
            prop_assert!(g.bankrolls().iter().all(|&b| b >= 0));
            let mut seen = g.banker_tiles();
            for s in 0..seats {
                prop_assert!((seen.0 & g.tiles(s).0) == 0, "a card in two hands");
                seen = CardSet(seen.0 | g.tiles(s).0);
            }
            prop_assert_eq!(seen.len() as usize + g.stock_len(), cards);
            if flow.pot.is_none() {
                let bets: i64 = g.bets().iter().sum();
                prop_assert!(
                    g.bets()
                        .iter()
                        .all(|&b| b == 0 || (flow.min_bet..=flow.max_bet).contains(&b))
                );
                prop_assert!(flow.table_limit.is_none_or(|t| bets <= t));
            }
        }
        for h in g.hands_played() {
            let net: i64 = h.players.iter().map(|p| p.result).sum();
            if flow.pot.is_some() {
                prop_assert_eq!(net, 0);
                prop_assert_eq!(h.players.iter().map(|p| p.bet).sum::<i64>(), h.pot);
            } else {
                prop_assert_eq!(net, -h.banker_result);
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn a_seat_banking_keeps_every_card_and_chip(seats in 2usize..=7, seed in any::<u64>()) {
            play("oicho-kabu", seats, seed)?;
        }

        #[test]
        fn a_pot_game_keeps_every_card_and_chip(seats in 2usize..=8, seed in any::<u64>()) {
            play("seotda", seats, seed)?;
        }
    }
}
