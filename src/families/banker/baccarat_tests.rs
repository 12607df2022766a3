//! Worked hands of a table hand on the bundled Baccarat (punto banco) rules, each pinning a row
//! of the drawing tables (wikipedia "Baccarat", "Tableau of drawing rules") or a payout (wizard
//! "Basics"), dealt from hand-made shoes; and the exact analysis against the published house
//! edges and against an enumeration of its own written here.

use super::analysis::{Rational, table::table_odds};
use super::*;
use crate::core::{Action, StartOptions};
use crate::deck::CardId;
use crate::ruleset::{self, Ruleset};
use std::fmt::Write as _;
use std::sync::Arc;

fn rules(spec: &str) -> Arc<Ruleset> {
    Arc::new(ruleset::load(spec).value.expect("bundled ruleset loads"))
}

/// A shoe starting with `ids` (player, banker, player, banker, then the draws), then the rest
/// of the shoe's cards in deck order.
fn shoe(r: &Ruleset, ids: &[&str]) -> Vec<CardId> {
    let packs = r.banker().and_then(|f| f.shoe).map_or(1, |s| s.packs) as usize;
    let n = r.deck.cards.len();
    let mut left = vec![packs; n];
    let mut o: Vec<CardId> = Vec::new();
    for id in ids {
        let c = r.deck.card_by_id(id).expect("card id");
        left[c.index()] -= 1;
        o.push(c);
    }
    for (i, k) in left.iter().enumerate() {
        o.extend(std::iter::repeat_n(CardId(i as u8), *k));
    }
    o
}

/// Plays one hand: the one seat stakes `stakes` on the bets in ruleset order.
fn one_hand(r: &Arc<Ruleset>, ids: &[&str], stakes: &[i64]) -> BankerHand {
    let mut g = start(
        Arc::clone(r),
        StartOptions {
            seats: Some(1),
            rounds: Some(1),
            deck_orders: vec![shoe(r, ids)],
            ..StartOptions::default()
        },
    )
    .unwrap();
    for &amount in stakes {
        g.apply(Action::Bet { amount }).unwrap();
    }
    assert!(g.is_over());
    g.hands_played()[0].clone()
}

fn render(r: &Ruleset, h: &BankerHand) -> String {
    let names = |ts: &[CardId]| {
        ts.iter()
            .map(|&t| r.deck.card(t).name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut s = String::new();
    let p = &h.players[0];
    let _ = writeln!(s, "player: {} = {:?}", names(&p.tiles), p.value);
    let _ = writeln!(
        s,
        "banker: {} = {:?}",
        names(&h.banker_tiles),
        h.banker_value
    );
    for rule in &h.rules {
        let _ = writeln!(s, "rule: {rule}");
    }
    for b in &p.bets {
        let _ = writeln!(s, "bet {} stake {} result {:+}", b.bet, b.stake, b.result);
    }
    let _ = writeln!(
        s,
        "seat result {:+}, banker result {:+}",
        p.result, h.banker_result
    );
    s
}

/// Deals `ids` with stakes 20 on the player, 20 on the banker and 20 on a tie.
fn hand(ids: &[&str]) -> String {
    let r = rules("baccarat");
    render(&r, &one_hand(&r, ids, &[20, 20, 20]))
}

#[test]
fn a_natural_stops_both_hands() {
    // "If either the Player or Banker is dealt a total of eight or nine, both stand": the
    // player's 4 + 5 = 9 against the banker's King + 7 = 7; the player wins even money, the
    // banker bet and the tie lose.
    insta::assert_snapshot!(hand(&[
        "hearts-four",
        "spades-king",
        "hearts-five",
        "clubs-seven"
    ]));
}

#[test]
fn the_player_draws_on_five_and_the_banker_on_two() {
    // Player 2 + 3 = 5 draws a Ten (5); banker Ace + Ace = 2 draws on 0-2 whatever the
    // player's third card: a 6, total 8; the banker wins, paid 19 for 20 (5% commission).
    insta::assert_snapshot!(hand(&[
        "hearts-two",
        "hearts-ace",
        "hearts-three",
        "spades-ace",
        "hearts-ten",
        "clubs-six"
    ]));
}

#[test]
fn the_player_stands_on_six_and_the_banker_draws_on_five() {
    // Player 6 + King = 6 stands; the player stood, so the banker's 5 draws (as the player's
    // rule): a 2, total 7; the banker wins.
    insta::assert_snapshot!(hand(&[
        "hearts-six",
        "hearts-five",
        "hearts-king",
        "spades-queen",
        "clubs-two"
    ]));
}

#[test]
fn the_banker_on_three_stands_against_an_eight() {
    // Player Ace + 2 = 3 draws an 8: 1. Banker 3 stands against a third card of 8: 3 beats 1.
    insta::assert_snapshot!(hand(&[
        "hearts-ace",
        "hearts-three",
        "hearts-two",
        "spades-king",
        "clubs-eight"
    ]));
}

#[test]
fn the_banker_on_three_draws_against_a_nine() {
    // Player Ace + 2 = 3 draws a 9: 2. Banker 3 draws against anything but an 8: a 4, total 7.
    insta::assert_snapshot!(hand(&[
        "hearts-ace",
        "hearts-three",
        "hearts-two",
        "spades-king",
        "clubs-nine",
        "clubs-four"
    ]));
}

#[test]
fn the_banker_on_four_draws_against_two_to_seven_only() {
    // Banker 4 against a third card of 7 draws; against an Ace stands.
    let draws = hand(&[
        "hearts-ace",
        "hearts-four",
        "hearts-queen",
        "spades-king",
        "clubs-seven",
        "clubs-three",
    ]);
    let stands = hand(&[
        "hearts-ace",
        "hearts-four",
        "hearts-queen",
        "spades-king",
        "clubs-ace",
    ]);
    insta::assert_snapshot!(format!("{draws}\n{stands}"));
}

#[test]
fn the_banker_on_five_draws_against_four_to_seven_only() {
    let draws = hand(&[
        "hearts-ace",
        "hearts-five",
        "hearts-queen",
        "spades-king",
        "clubs-four",
        "clubs-ace",
    ]);
    let stands = hand(&[
        "hearts-ace",
        "hearts-five",
        "hearts-queen",
        "spades-king",
        "clubs-three",
    ]);
    insta::assert_snapshot!(format!("{draws}\n{stands}"));
}

#[test]
fn the_banker_on_six_draws_against_six_or_seven_only() {
    let draws = hand(&[
        "hearts-ace",
        "hearts-six",
        "hearts-queen",
        "spades-king",
        "clubs-six",
        "clubs-two",
    ]);
    let stands = hand(&[
        "hearts-ace",
        "hearts-six",
        "hearts-queen",
        "spades-king",
        "clubs-five",
    ]);
    insta::assert_snapshot!(format!("{draws}\n{stands}"));
}

#[test]
fn the_banker_on_seven_stands() {
    // Player Ace + Queen = 1 draws a 6: 7. Banker 7 stands: a tie. The player and banker bets
    // are pushes (the stakes come back); the tie pays 8 to 1.
    insta::assert_snapshot!(hand(&[
        "hearts-ace",
        "hearts-seven",
        "hearts-queen",
        "spades-king",
        "clubs-six"
    ]));
}

#[test]
fn the_commission_is_paid_in_whole_chips() {
    // Banker 9 (natural) against 0: a banker win of 25 chips pays 25 less 5% = 23.75, 23 paid.
    let r = rules("baccarat");
    let h = one_hand(
        &r,
        &["hearts-king", "hearts-four", "hearts-queen", "hearts-five"],
        &[0, 25, 0],
    );
    insta::assert_snapshot!(render(&r, &h));
    assert_eq!(h.players[0].result, 23);
}

#[test]
fn a_shoe_may_deal_the_same_card_twice() {
    // Two Fours of Hearts from an 8-pack shoe: the hand counts both (4 + 4 = 8, a natural).
    let r = rules("baccarat");
    let h = one_hand(
        &r,
        &["hearts-four", "spades-ace", "hearts-four", "spades-two"],
        &[20, 0, 0],
    );
    assert_eq!(h.players[0].value, Some(8));
    assert_eq!(h.players[0].result, 20);
}

#[test]
fn the_shoe_is_kept_across_hands_to_the_cut_card() {
    let r = rules("baccarat");
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            seats: Some(1),
            rounds: Some(60),
            seed: 3,
            ..StartOptions::default()
        },
    )
    .unwrap();
    let mut hands = 0;
    while !g.is_over() {
        g.apply(Action::Bet { amount: 0 }).unwrap();
        g.apply(Action::Bet { amount: 20 }).unwrap();
        g.apply(Action::Bet { amount: 0 }).unwrap();
        hands += 1;
        // Cards dealt so far plus cards left are one shoe, or the shoe turned over.
        assert!(g.stock_len() <= 416);
    }
    assert_eq!(hands, 60);
    // About 4.9 cards a hand: sixty hands need one shoe of 416 cards, less the 14 cut off.
    assert_eq!(g.dealt_orders().len(), 1);
    let dealt: usize = g
        .hands_played()
        .iter()
        .map(|h| h.banker_tiles.len() + h.players[0].tiles.len())
        .sum();
    assert_eq!(dealt + g.stock_len(), 416);
}

fn percent(r: Rational) -> String {
    format!("{:+.4}%", r.to_f64() * 100.0)
}

#[test]
fn eight_packs_give_the_published_house_edges() {
    // wizard "Appendix 1", 8 decks: banker -1.0579%, player -1.2351%, tie -14.3596%.
    let r = rules("baccarat");
    let odds = table_odds(r.banker().unwrap(), &r.deck, 8).unwrap();
    let edges: Vec<(String, String)> = odds
        .bets
        .iter()
        .map(|b| (b.id.clone(), percent(b.ev.clone())))
        .collect();
    assert_eq!(
        edges,
        [
            ("player".to_string(), "-1.2351%".to_string()),
            ("banker".to_string(), "-1.0579%".to_string()),
            ("tie".to_string(), "-14.3596%".to_string()),
        ]
    );
    assert_eq!(odds.player + odds.banker + odds.tie, Rational::ONE);
}

/// Punto banco written out directly, for one shoe of `packs` packs: the exact expected result
/// per chip of the player, banker and tie bets, by brute force over card values.
#[allow(clippy::needless_range_loop)] // values index the counts, as on paper
fn punto_banco(packs: u64) -> [Rational; 3] {
    // Values 0 (tens and courts, 16 a pack) and 1 to 9 (4 a pack).
    let mut count: [u64; 10] = [16, 4, 4, 4, 4, 4, 4, 4, 4, 4];
    for c in &mut count {
        *c *= packs;
    }
    let total = 52 * packs;
    // Sums of probabilities as exact fractions, one term per dealt sequence.
    let mut player = Rational::ZERO;
    let mut banker = Rational::ZERO;
    let mut tie = Rational::ZERO;
    fn take(count: &mut [u64; 10], left: &mut u64, v: usize) -> Rational {
        let p = Rational::new(count[v] as i128, *left as i128);
        count[v] -= 1;
        *left -= 1;
        p
    }
    fn put(count: &mut [u64; 10], left: &mut u64, v: usize) {
        count[v] += 1;
        *left += 1;
    }
    let mut left = total;
    for p1 in 0..10 {
        if count[p1] == 0 {
            continue;
        }
        let q1 = take(&mut count, &mut left, p1);
        for b1 in 0..10 {
            if count[b1] == 0 {
                continue;
            }
            let q2 = &q1 * take(&mut count, &mut left, b1);
            for p2 in 0..10 {
                if count[p2] == 0 {
                    continue;
                }
                let q3 = &q2 * take(&mut count, &mut left, p2);
                for b2 in 0..10 {
                    if count[b2] == 0 {
                        continue;
                    }
                    let q4 = &q3 * take(&mut count, &mut left, b2);
                    let pt = (p1 + p2) % 10;
                    let bt = (b1 + b2) % 10;
                    let mut finish = |pv: usize, bv: usize, q: Rational| match pv.cmp(&bv) {
                        std::cmp::Ordering::Greater => player += q,
                        std::cmp::Ordering::Less => banker += q,
                        std::cmp::Ordering::Equal => tie += q,
                    };
                    if pt >= 8 || bt >= 8 || (pt >= 6 && bt >= 6) {
                        finish(pt, bt, q4.clone());
                    } else if pt >= 6 {
                        // The player stands on 6 or 7; the banker draws on 0 to 5.
                        for b3 in 0..10 {
                            if count[b3] == 0 {
                                continue;
                            }
                            let q = &q4 * Rational::new(count[b3] as i128, left as i128);
                            finish(pt, (bt + b3) % 10, q);
                        }
                    } else {
                        for p3 in 0..10 {
                            if count[p3] == 0 {
                                continue;
                            }
                            let q5 = &q4 * take(&mut count, &mut left, p3);
                            let pv = (pt + p3) % 10;
                            let draws = match bt {
                                0..=2 => true,
                                3 => p3 != 8,
                                4 => (2..=7).contains(&p3),
                                5 => (4..=7).contains(&p3),
                                6 => (6..=7).contains(&p3),
                                _ => false,
                            };
                            if draws {
                                for b3 in 0..10 {
                                    if count[b3] == 0 {
                                        continue;
                                    }
                                    let q = &q5 * Rational::new(count[b3] as i128, left as i128);
                                    finish(pv, (bt + b3) % 10, q);
                                }
                            } else {
                                finish(pv, bt, q5.clone());
                            }
                            put(&mut count, &mut left, p3);
                        }
                    }
                    put(&mut count, &mut left, b2);
                }
                put(&mut count, &mut left, p2);
            }
            put(&mut count, &mut left, b1);
        }
        put(&mut count, &mut left, p1);
    }
    assert_eq!(&player + &banker + &tie, Rational::ONE);
    // Player: even money, a push on a tie. Banker: 0.95 for 1. Tie: 8 to 1.
    [
        &player - &banker,
        &banker * Rational::new(19, 20) - &player,
        tie * Rational::from(8) - &player - &banker,
    ]
}

#[test]
fn the_analysis_agrees_with_punto_banco_written_out() {
    let r = rules("baccarat");
    for packs in [1, 6] {
        let odds = table_odds(r.banker().unwrap(), &r.deck, packs).unwrap();
        let evs: Vec<Rational> = odds.bets.iter().map(|b| b.ev.clone()).collect();
        assert_eq!(evs, punto_banco(u64::from(packs)), "{packs} packs");
    }
}

/// Random sessions keep every card and every chip: each hand's cards are the next cards of the
/// shoe in the order dealt (player, banker, player, banker, then the draws), no shoe holds a
/// card more than its packs, and the seats' bankrolls and the banker's results add up to the
/// chips the seats started with, after every hand.
#[test]
fn random_sessions_conserve_every_card_and_every_chip() {
    use crate::agent::RandomAgent;
    use crate::core::{Agent, Game, agent_rng};
    for (spec, seats) in [("baccarat", 3), ("baccarat+flow.shoe_packs=1", 2)] {
        let r = rules(spec);
        let flow = r.banker().unwrap();
        let packs = flow.shoe.map_or(1, |s| s.packs) as usize;
        let cut = flow.shoe.map_or(0, |s| s.cut) as usize;
        for seed in 0..6 {
            let mut g = start(
                Arc::clone(&r),
                StartOptions {
                    seed,
                    seats: Some(seats),
                    rounds: Some(60),
                    ..StartOptions::default()
                },
            )
            .unwrap();
            let mut rng = agent_rng(seed);
            let mut legal = Vec::new();
            while let Some(seat) = g.to_act() {
                Game::legal_actions(&g, &mut legal);
                let a = RandomAgent.choose(&g, seat, &legal, &mut rng);
                g.apply(a).unwrap();
                let paid: i64 = g.hands_played().iter().map(|h| h.banker_result).sum();
                let chips: i64 = g.bankrolls().iter().sum::<i64>() + paid;
                assert_eq!(chips, seats as i64 * flow.bankroll, "{spec} seed {seed}");
            }
            for order in g.dealt_orders() {
                let mut count = vec![0; r.deck.cards.len()];
                for c in order {
                    count[c.index()] += 1;
                }
                assert!(count.iter().all(|&n| n == packs), "{spec} seed {seed}");
            }
            let (mut shoe, mut at) = (0, 0);
            for h in g.hands_played() {
                let shoe_len = g.dealt_orders()[shoe].len();
                if shoe_len - at < cut.max(1) {
                    (shoe, at) = (shoe + 1, 0);
                }
                let (p, b) = (&h.players[0].tiles, &h.banker_tiles);
                let dealt: Vec<CardId> = [p[0], b[0], p[1], b[1]]
                    .into_iter()
                    .chain(p[2..].iter().copied())
                    .chain(b[2..].iter().copied())
                    .collect();
                let order = &g.dealt_orders()[shoe];
                assert_eq!(dealt[..], order[at..at + dealt.len()], "{spec} seed {seed}");
                for p in &h.players {
                    let staked: i64 = p.bets.iter().map(|b| b.stake).sum();
                    assert_eq!(staked, p.bet);
                    assert_eq!(p.bets.iter().map(|b| b.result).sum::<i64>(), p.result);
                }
                at += dealt.len();
            }
        }
    }
}
