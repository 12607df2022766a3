//! Property tests of the matching family over random complete games in every bundled matching
//! ruleset, and a three-seat game.

use super::*;
use crate::agent::{Agent, RandomAgent, agent_rng};
use crate::core::{Action, PerSeat, StartOptions};
use crate::deck::CardSet;
use crate::ruleset::{self, Ruleset, bundled};
use crate::yaku as scoring;
use proptest::prelude::*;
use rand::RngExt;
use std::sync::Arc;

/// Every hand but nobody's (the viewer's hand is ignored by `from_view`'s check of the others).
fn others(game: &MatchingGame) -> PerSeat<CardSet> {
    let mut h: PerSeat<CardSet> = PerSeat::new(game.seats());
    let me = game.to_act().unwrap_or(0);
    for s in 0..game.seats() {
        if s != me {
            h[s] = game.hand(s);
        }
    }
    h
}

fn bundled_rulesets() -> Vec<Arc<Ruleset>> {
    bundled::ruleset_names()
        .filter_map(|n| ruleset::load(n).value)
        .filter(|r| matches!(r.flow, crate::ruleset::Flow::Matching(_)))
        .map(Arc::new)
        .collect()
}

/// Every card is in exactly one place: a hand, the table, the stock or a capture pile.
fn assert_accounted(game: &MatchingGame) {
    let mut places = vec![game.table()];
    for s in 0..game.seats() {
        places.push(game.hand(s));
        places.push(game.captured(s));
    }
    let mut seen = CardSet::EMPTY;
    let mut total = 0;
    for p in places {
        assert!((seen & p).is_empty(), "a card is in two places");
        seen |= p;
        total += p.len();
    }
    let stock: CardSet = game.stock().iter().copied().collect();
    assert!((seen & stock).is_empty(), "a stock card is also elsewhere");
    let resolving = match game.phase() {
        Phase::CaptureChoice { card, .. } => {
            1 - u32::from(seen.contains(card) || stock.contains(card))
        }
        _ => 0,
    };
    if !game.is_over() {
        assert_eq!(
            total + game.stock().len() as u32 + resolving,
            game.ruleset().deck.cards.len() as u32,
            "cards lost or duplicated"
        );
    }
}

/// Plays a random game, checking the invariants after every action and that every stop scores
/// exactly what settling the same pile and calls gives.
fn random_game(ruleset: Arc<Ruleset>, seed: u64) {
    let mut game = start(
        Arc::clone(&ruleset),
        StartOptions {
            seed,
            ..StartOptions::default()
        },
    )
    .expect("bundled scripts run");
    let mut rng = agent_rng(seed);
    let mut agent = RandomAgent;
    let mut legal = Vec::new();
    while let Some(seat) = game.to_act() {
        assert_accounted(&game);
        game.legal_actions(&mut legal);
        assert!(!legal.is_empty());
        let action = agent.choose(&game, seat, &legal, &mut rng);
        let stop = matches!(action, Action::Declare { decl, .. }
            if ruleset.declarations[decl.0 as usize].effect == "stop");
        let by_seat = ruleset.scoring.is_none()
            && ruleset
                .matching()
                .is_some_and(|f| f.exhausted == crate::ruleset::Exhausted::Settle);
        let expected = stop.then(|| {
            if scoring::reads_table(&ruleset) || by_seat {
                // Each loser settled separately: the core's own settlement, seen before the stop.
                return game.points_if_stopped(seat).unwrap();
            }
            let found = scoring::evaluate(&ruleset, game.captured(seat), &game.circumstances(seat));
            scoring::settle(&ruleset, &found, None, &game.circumstances(seat)).unwrap()
        });
        let hands_before = game.history().len();
        game.apply(action).unwrap();
        if let Some(expected) = expected {
            let record = &game.history()[hands_before];
            assert_eq!(record.winner, Some(seat));
            if !expected.seats.is_empty() {
                // Settled seat by seat: every seat's points as `yaku score` gives them.
                assert_eq!(record.points.to_vec(), expected.seats);
            } else if expected.payments.is_empty() {
                assert_eq!(record.points[seat], expected.total);
            } else {
                assert_eq!(record.points[seat], expected.payments.iter().sum::<i64>());
            }
            assert_eq!(record.outcome.as_deref(), Some(&expected));
        }
        // An illegal action is refused without changing anything.
        if game.to_act().is_some() && rng.random_range(0..8) == 0 {
            let before = format!("{:?}", game.view(game.to_act().unwrap()).hand);
            assert!(
                game.apply(Action::Take {
                    card: crate::deck::CardId(63)
                })
                .is_err()
            );
            assert_eq!(
                before,
                format!("{:?}", game.view(game.to_act().unwrap()).hand)
            );
        }
    }
    assert!(game.error().is_none());
    let mut total = vec![0; game.seats()];
    for h in game.history() {
        for (t, p) in total.iter_mut().zip(h.points.iter()) {
            *t += p;
        }
    }
    assert_eq!(total, game.scores());
    let paid_by_others = ruleset.matching().is_some_and(|f| f.yaku_paid_by_others);
    if scoring::reads_table(&ruleset) || paid_by_others {
        // Each loser pays the winner: every hand sums to zero across the seats (Go-Stop; and
        // Hachi-Hachi, whose yaku every other seat pays and whose card points meet a par).
        for h in game.history() {
            assert_eq!(
                h.points.iter().sum::<i64>(),
                0,
                "hand {} does not sum to zero",
                h.round
            );
        }
    }
    assert!(game.history().len() as u32 <= game.rounds());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_games_keep_every_card_and_score_like_yaku_score(seed in any::<u64>()) {
        for r in bundled_rulesets() {
            random_game(r, seed);
        }
    }
}

/// A game of `r` on `seed` that logs its events.
fn logged(r: &Arc<Ruleset>, seed: u64) -> MatchingGame {
    start(
        Arc::clone(r),
        StartOptions {
            seed,
            log_events: true,
            ..StartOptions::default()
        },
    )
    .unwrap()
}

#[test]
fn same_seed_same_game() {
    let r = Arc::new(ruleset::load("koikoi").value.unwrap());
    let run = |seed| {
        let mut g = logged(&r, seed);
        let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(RandomAgent), Box::new(RandomAgent)];
        crate::core::play_out(&mut g, &mut agents, &mut agent_rng(seed)).unwrap();
        (g.drain_events(), g.scores().to_vec())
    };
    assert_eq!(run(7), run(7));
    assert_ne!(run(7).0, run(8).0);
}

/// A logged game of `seed` after up to `moves` random moves (seeded from `seed` too).
fn begun(r: &Arc<Ruleset>, seed: u64, moves: usize) -> MatchingGame {
    let mut g = logged(r, seed);
    crate::families::every_family_tests::random_moves(&mut g, seed, moves);
    g
}

/// Copying a game into another in place (`Game::copy_from`, which keeps the target's storage)
/// gives what a fresh copy gives, whatever the target held: every field the same, and the same
/// game from there on. For every bundled matching ruleset, the target a game of another seed
/// and hand, part-way through.
#[test]
fn copy_from_is_a_clone() {
    for r in bundled_rulesets() {
        crate::families::every_family_tests::assert_copy_is_clone(
            &begun(&r, 3, 17),
            begun(&r, 9, 40),
            &r.id,
        );
    }
}

/// A deal made again in place ([`Game::determinize_from`]) is the deal `determinize` makes
/// with the same draws, whatever the target held before (here a game of another seed, part-way
/// through, with a finished hand in its history).
#[test]
fn a_deal_made_in_place_is_the_fresh_deal() {
    for r in bundled_rulesets() {
        let (source, target) = (begun(&r, 3, 17), begun(&r, 9, 60));
        crate::families::every_family_tests::assert_deal_in_place_is_fresh(&source, target, &r.id);
    }
}

/// A game rebuilt from a view and the true hidden cards plays on exactly like the original.
#[test]
fn from_view_with_the_true_hidden_cards_plays_like_the_game() {
    for r in bundled_rulesets() {
        for seed in 0..6u64 {
            let mut game = start(
                Arc::clone(&r),
                StartOptions {
                    seed,
                    ..StartOptions::default()
                },
            )
            .unwrap();
            let mut rng = agent_rng(seed);
            let mut legal = Vec::new();
            let mut steps = 0;
            while let Some(seat) = game.to_act() {
                steps += 1;
                if steps % 7 == 0 {
                    let view = game.view(seat);
                    let mut copy =
                        MatchingGame::from_view(&view, &others(&game), game.stock().to_vec(), seed)
                            .unwrap();
                    let mut original = game.clone();
                    let hands = original.history().len();
                    let mut inner = agent_rng(seed + steps);
                    while original.history().len() == hands && original.to_act().is_some() {
                        assert_eq!(original.to_act(), copy.to_act());
                        assert_eq!(original.phase(), copy.phase());
                        for s in 0..2 {
                            assert_eq!(original.hand(s), copy.hand(s));
                            assert_eq!(original.captured(s), copy.captured(s));
                        }
                        assert_eq!(original.table(), copy.table());
                        assert_eq!(original.stock(), copy.stock());
                        original.legal_actions(&mut legal);
                        let a = RandomAgent.choose(&original, seat, &legal, &mut inner);
                        original.apply(a).unwrap();
                        copy.apply(a).unwrap();
                    }
                    if original.history().len() > hands {
                        // (Later hands differ: the copy shuffles its own next deal.)
                        // The copy plays like a simulation: numbers only, no explanation kept.
                        let (o, c) = (&original.history()[hands], &copy.history()[0]);
                        assert_eq!(
                            (o.winner, o.end, o.points, o.yaku_mask),
                            (c.winner, c.end, c.points, c.yaku_mask)
                        );
                    }
                }
                game.legal_actions(&mut legal);
                let action = RandomAgent.choose(&game, seat, &legal, &mut rng);
                game.apply(action).unwrap();
            }
        }
    }
}

#[test]
fn from_view_refuses_a_placement_that_does_not_fit() {
    let r = Arc::new(ruleset::load("koikoi").value.unwrap());
    let game = start(Arc::clone(&r), StartOptions::default()).unwrap();
    let seat = game.to_act().unwrap();
    let view = game.view(seat);
    // The viewer's own hand is not hidden.
    let mut wrong = others(&game);
    wrong[1 - seat] = game.hand(seat);
    assert!(MatchingGame::from_view(&view, &wrong, game.stock().to_vec(), 1).is_err());
    // A stock one card short.
    let mut short = game.stock().to_vec();
    short.pop();
    assert!(MatchingGame::from_view(&view, &others(&game), short, 1).is_err());
    assert!(MatchingGame::from_view(&view, &others(&game), game.stock().to_vec(), 1).is_ok());
}

#[test]
fn first_dealer_option_overrides_the_rule_without_changing_the_deal() {
    let r = Arc::new(ruleset::load("koikoi").value.unwrap());
    for d in 0..2 {
        let g = start(
            Arc::clone(&r),
            StartOptions {
                seed: 3,
                first_dealer: Some(d),
                ..StartOptions::default()
            },
        )
        .unwrap();
        assert_eq!(g.first_dealer(), Some(d));
        let plain = start(
            Arc::clone(&r),
            StartOptions {
                seed: 3,
                ..StartOptions::default()
            },
        )
        .unwrap();
        assert_eq!(g.dealt_orders()[0], plain.dealt_orders()[0]);
    }
}

/// A three-seat matching game: seats deal in turn order, each seat's captures are its own, the
/// turn passes round the table, and the game plays to its end with every card accounted for.
#[test]
fn three_seats_play_in_turn_to_the_end() {
    let three = crate::families::every_family_tests::THREE_SEATS;
    let loaded = crate::ruleset::load_str("three.toml", three);
    let messages: Vec<_> = loaded.diagnostics.iter().map(|d| &d.message).collect();
    let r = Arc::new(loaded.value.unwrap_or_else(|| panic!("{messages:?}")));
    for seed in 0..20 {
        let mut game = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                rounds: Some(2),
                ..StartOptions::default()
            },
        )
        .unwrap();
        assert_eq!(game.seats(), 3);
        for s in 0..3 {
            assert_eq!(game.hand(s).len(), 7, "seat {s} holds seven cards");
        }
        assert_eq!(game.table().len(), 6);
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        let mut order = Vec::new();
        while let Some(seat) = game.to_act() {
            assert_accounted(&game);
            if game.phase() == Phase::Play && order.last() != Some(&seat) {
                order.push(seat);
            }
            game.legal_actions(&mut legal);
            let a = RandomAgent.choose(&game, seat, &legal, &mut rng);
            game.apply(a).unwrap();
        }
        // Within the first hand the turn goes 0 -> 1 -> 2 -> 0 from the dealer on.
        for w in order.windows(2).take(5) {
            if game.history().len() == 2 {
                assert!(w[1] == (w[0] + 1) % 3 || w[1] == w[0], "{order:?}");
            }
        }
        let total: i64 = game
            .history()
            .iter()
            .map(|h| h.points.iter().sum::<i64>())
            .sum();
        assert_eq!(total, game.scores().iter().sum::<i64>());
    }
}

/// The deal's plan, worked out when the rules load, sends each card where the packets going round
/// the deal order would. Scopa (`rulesets/scopa.toml`, siciliansintheworld.com: "three cards to
/// each player, one card at a time", and coletti's four on the table): `deal_order = ["others",
/// "dealer", "table"]` in packets of one, three rounds, then the table's fourth card alone; the
/// dealer is 0, the other seat 1, the table 2.
#[test]
fn the_deal_plan_follows_the_packets_round_the_deal_order() {
    let scopa = ruleset::load("scopa").value.expect("scopa loads");
    let flow = scopa.matching().expect("a matching ruleset");
    assert_eq!(&*flow.deal_plan(2), &[1, 0, 2, 1, 0, 2, 1, 0, 2, 2]);
    // Three seats: the two others before the dealer in each round of packets.
    assert_eq!(
        &*flow.deal_plan(3),
        &[1, 2, 0, 3, 1, 2, 0, 3, 1, 2, 0, 3, 3]
    );
    // Every seat count the rules allow is planned once, when they load.
    for seats in 2..=3 {
        assert_eq!(&*flow.deal_plans[seats], &flow.plan_deal(seats)[..]);
    }
}
