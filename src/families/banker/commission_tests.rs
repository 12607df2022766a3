//! The commission on wins (`commission`, `banker_commission`) and the bank passing to the hand's
//! winner (`[flow.bank] pass_to_winner` with `winner_by`, `winner_ties`), on
//! `tests/rulesets/bank-commission.toml` (issue 47, wall 6): a seat banks, every hand stands on
//! two cards valued modulo 10, the house keeps 5% of every win, the banker's too.

use super::tests::order;
use super::*;
use crate::core::{Action, Game, StartOptions};
use crate::deck::CardId;
use crate::ruleset::{self, Ruleset};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::fmt::Write as _;
use std::sync::Arc;

fn rules() -> Arc<Ruleset> {
    Arc::new(
        ruleset::load("tests/rulesets/bank-commission.toml")
            .value
            .expect("the test ruleset loads"),
    )
}

/// Plays hands dealt from `deals` (each the players' cards, two rounds in seat order, then the
/// banker's two), the players betting `bets` in seat order;
/// says each hand's results, the house's commission and who banks next.
fn session(deals: &[&[&str]], bets: &[&[i64]]) -> String {
    let r = rules();
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            seats: Some(3),
            rounds: Some(deals.len() as u32),
            deck_orders: deals.iter().map(|d| order(&r, d)).collect(),
            ..StartOptions::default()
        },
    )
    .unwrap();
    let names = |ts: &[CardId]| {
        ts.iter()
            .map(|&t| r.deck.card(t).id.clone())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut s = String::new();
    for (i, hand_bets) in bets.iter().enumerate() {
        for &amount in *hand_bets {
            g.apply(Action::Bet { amount }).unwrap();
        }
        let h = &g.hands_played()[i];
        let _ = writeln!(
            s,
            "hand {}: banker seat {:?} {} = {:?}, result {:+}",
            h.hand,
            h.banker_seat,
            names(&h.banker_tiles),
            h.banker_value,
            h.banker_result
        );
        for p in &h.players {
            let _ = writeln!(
                s,
                "  seat {} {} = {:?}, bet {}: {:+}",
                p.seat,
                names(&p.tiles),
                p.value,
                p.bet,
                p.result
            );
        }
        let record = &g.ledger().history[i];
        let _ = writeln!(
            s,
            "  house keeps {}; the bank passes to {:?}",
            record.house, h.bank_to
        );
    }
    let _ = writeln!(s, "bankrolls {:?}", g.bankrolls());
    s
}

#[test]
fn the_house_keeps_five_percent_of_each_win_rounded_to_whole_chips() {
    // Hand 1, seat 0 banks. Seat 1's Four and Five are 9, seat 2's Two and Three 5, the
    // banker's Three and Four 7. Seat 1 wins its 25: the banker pays 25, the house keeps 5%
    // (1.25, rounded up to 2), seat 1 takes 23. Seat 2 loses 10. The banker is 15 down and
    // pays no commission. Seat 1 won the most: it banks next.
    // Hand 2, seat 1 banks. Seat 0's Ace and Two are 3, seat 2's Two and Four 6, the banker's
    // Ten and Eight 8: both lose 20. The banker wins 40 and pays 5% (2): it nets 38. No player
    // won: seat 1 keeps the bank.
    // Hand 3, seat 1 banks. Seat 0's Five and Four (9) and seat 2's Ten and Nine (9) each beat
    // the banker's Ace and Ace (2) for 20: each takes 19. They tie; the first of them in turn
    // after the banker, seat 2, banks next. The house kept 6 chips: 3,000 are 2,994 and 6.
    insta::assert_snapshot!(session(
        &[
            &[
                "hearts-four",
                "hearts-two",
                "hearts-five",
                "hearts-three",
                "clubs-three",
                "clubs-four",
            ],
            &[
                "hearts-ace",
                "hearts-two",
                "spades-two",
                "spades-four",
                "clubs-ten",
                "clubs-eight",
            ],
            &[
                "hearts-five",
                "hearts-ten",
                "hearts-four",
                "hearts-nine",
                "clubs-ace",
                "spades-ace",
            ],
        ],
        &[&[25, 10], &[20, 20], &[20, 20]],
    ));
}

#[test]
fn random_play_keeps_every_card_and_chip_with_the_commission_counted() {
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
        while g.to_act().is_some() {
            let legal = g.legal();
            let a = legal[rng.random_range(0..legal.len())];
            g.apply(a).unwrap();
        }
        let chips: i64 = g.bankrolls().iter().sum();
        let house: i64 = g.ledger().history.iter().map(|h| h.house).sum();
        assert_eq!(chips + house, 3000, "seed {seed}");
        for h in g.hands_played() {
            let mut cards: Vec<CardId> = h.banker_tiles.clone();
            cards.extend(h.players.iter().flat_map(|p| p.tiles.iter().copied()));
            let n = cards.len();
            cards.sort();
            cards.dedup();
            assert_eq!(cards.len(), n, "seed {seed}: a card dealt twice");
            let paid: i64 = h.players.iter().map(|p| p.result).sum();
            let house = g.ledger().history[h.hand as usize - 1].house;
            assert_eq!(paid + h.banker_result + house, 0, "seed {seed}");
        }
    }
}

#[test]
fn the_exact_analysis_counts_the_commission_on_the_players_wins() {
    use crate::families::banker::analysis::{Rational, seats::seat_odds_with_progress};
    let r = rules();
    let flow = r.banker().unwrap();
    let edge = |commission| {
        let mut f: crate::ruleset::BankerFlow = (**flow).clone();
        f.commission = commission;
        seat_odds_with_progress(&r, &f, &mut |_| {}).unwrap().player
    };
    // Both hands stand on two cards from one pack: a win is as likely as a loss, `p` each.
    // Taking the whole win (100%) leaves `-p`; 5% leaves `0.95p - p = -p/20`, the figure
    // `yaku analyze` prints (-2.2525%: the player wins 45.05% of hands).
    let all = edge((100, 100));
    let five = edge((5, 100));
    assert_eq!(edge((0, 1)), Rational::ZERO);
    assert_eq!(five, all * Rational::new(1, 20));
    assert_eq!(five, Rational::new(-91_472, 4_060_875));
}

#[test]
fn the_best_hand_takes_the_bank_and_a_tie_leaves_it_with_the_banker() {
    // `winner_by = "hand"`, `winner_ties = "banker-keeps"`, no commission. Hand 1, seat 0
    // banks on a Three and a Four (7): seat 1 bets 5 on a 9, seat 2 bets 40 on an 8. By chips
    // seat 2 would bank next; by hand seat 1's 9 is the best, and it takes the bank. Hand 2,
    // seat 1 banks on two Aces (2): seats 0 and 2 both win on a 9, equal hands: the bank stays.
    let text = std::fs::read_to_string("tests/rulesets/bank-commission.toml")
        .unwrap()
        .replace("winner_by = \"chips\"", "winner_by = \"hand\"")
        .replace(
            "winner_ties = \"first-in-turn\"",
            "winner_ties = \"banker-keeps\"",
        )
        .replace("\ncommission = [5, 100]\n", "\n")
        .replace("\nbanker_commission = [5, 100]\n", "\n");
    let r = Arc::new(ruleset::load_str("by-hand", &text).value.unwrap());
    let deal = |ids: &[&str]| order(&r, ids);
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            seats: Some(3),
            rounds: Some(2),
            deck_orders: vec![
                // Seat 1: Four, Five (9); seat 2: Three, Five of Spades (8); banker 3 + 4.
                deal(&[
                    "hearts-four",
                    "hearts-three",
                    "hearts-five",
                    "spades-five",
                    "clubs-three",
                    "clubs-four",
                ]),
                // Seat 0: Four, Five (9); seat 2: Ten, Nine (9); banker two Aces.
                deal(&[
                    "hearts-four",
                    "hearts-ten",
                    "hearts-five",
                    "hearts-nine",
                    "clubs-ace",
                    "spades-ace",
                ]),
            ],
            ..StartOptions::default()
        },
    )
    .unwrap();
    g.apply(Action::Bet { amount: 5 }).unwrap();
    g.apply(Action::Bet { amount: 40 }).unwrap();
    let h = &g.hands_played()[0];
    assert_eq!(
        h.players.iter().map(|p| p.result).collect::<Vec<_>>(),
        [5, 40]
    );
    assert_eq!(h.bank_to, Some(1), "the best hand, not the most chips");
    g.apply(Action::Bet { amount: 10 }).unwrap();
    g.apply(Action::Bet { amount: 20 }).unwrap();
    let h = &g.hands_played()[1];
    assert_eq!(h.banker_seat, Some(1));
    assert_eq!(
        h.players.iter().map(|p| p.result).collect::<Vec<_>>(),
        [10, 20]
    );
    assert_eq!(h.bank_to, None, "equal winners: the banker keeps the bank");
}
