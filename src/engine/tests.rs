//! Property tests of the core over random complete games in every bundled ruleset.

use super::*;
use crate::agent::{Agent, RandomAgent, agent_rng};
use crate::deck::CardSet;
use crate::ruleset::{self, Ruleset, bundled};
use proptest::prelude::*;
use rand::RngExt;
use std::sync::Arc;

fn bundled_rulesets() -> Vec<Arc<Ruleset>> {
    bundled::ruleset_names()
        .filter_map(|n| ruleset::load(n).value)
        .filter(|r| matches!(r.flow, crate::ruleset::Flow::Matching(_)))
        .map(Arc::new)
        .collect()
}

/// Every card is in exactly one place: a hand, the table, the stock or a capture pile.
fn assert_accounted(game: &Game) {
    let places = [
        game.hand(0),
        game.hand(1),
        game.table(),
        game.captured(0),
        game.captured(1),
    ];
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
    let mut game = Game::new(
        Arc::clone(&ruleset),
        GameOptions {
            seed,
            ..GameOptions::default()
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
        let action = agent.choose(&game.view(seat), &legal, &mut rng);
        let expected = (action == Action::Stop).then(|| {
            let found = scoring::evaluate(&ruleset, game.captured(seat), &game.circumstances(seat));
            scoring::settle(&ruleset, &found, None, &game.circumstances(seat)).unwrap()
        });
        let hands_before = game.history().len();
        game.apply(action).unwrap();
        if let Some(expected) = expected {
            let record = &game.history()[hands_before];
            assert_eq!(record.winner, Some(seat));
            assert_eq!(record.points[seat], expected.total);
            assert_eq!(record.outcome.as_ref(), Some(&expected));
        }
        // An illegal action is refused without changing anything.
        if game.to_act().is_some() && rng.random_range(0..8) == 0 {
            let before = format!("{:?}", game.view(game.to_act().unwrap()).hand);
            assert!(
                game.apply(Action::Capture {
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
    assert!(game.script_error().is_none());
    let total: [i64; 2] = game
        .history()
        .iter()
        .fold([0, 0], |a, h| [a[0] + h.points[0], a[1] + h.points[1]]);
    assert_eq!(total, game.scores());
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

#[test]
fn same_seed_same_game() {
    let r = Arc::new(ruleset::load("koikoi").value.unwrap());
    let run = |seed| {
        let mut g = Game::new(
            Arc::clone(&r),
            GameOptions {
                seed,
                log_events: true,
                ..GameOptions::default()
            },
        )
        .unwrap();
        let mut agents: [Box<dyn Agent>; 2] = [Box::new(RandomAgent), Box::new(RandomAgent)];
        crate::agent::play_out(&mut g, &mut agents, &mut agent_rng(seed)).unwrap();
        (g.drain_events(), g.scores())
    };
    assert_eq!(run(7), run(7));
    assert_ne!(run(7).0, run(8).0);
}

/// A game rebuilt from a view and the true hidden cards plays on exactly like the original.
#[test]
fn from_view_with_the_true_hidden_cards_plays_like_the_game() {
    for r in bundled_rulesets() {
        for seed in 0..6u64 {
            let mut game = Game::new(
                Arc::clone(&r),
                GameOptions {
                    seed,
                    ..GameOptions::default()
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
                        Game::from_view(&view, game.hand(1 - seat), game.stock().to_vec(), seed)
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
                        let a = RandomAgent.choose(&original.view(seat), &legal, &mut inner);
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
                let action = RandomAgent.choose(&game.view(seat), &legal, &mut rng);
                game.apply(action).unwrap();
            }
        }
    }
}

#[test]
fn from_view_refuses_a_placement_that_does_not_fit() {
    let r = Arc::new(ruleset::load("koikoi").value.unwrap());
    let game = Game::new(Arc::clone(&r), GameOptions::default()).unwrap();
    let seat = game.to_act().unwrap();
    let view = game.view(seat);
    // The viewer's own hand is not hidden.
    assert!(Game::from_view(&view, game.hand(seat), game.stock().to_vec(), 1).is_err());
    // A stock one card short.
    let mut short = game.stock().to_vec();
    short.pop();
    assert!(Game::from_view(&view, game.hand(1 - seat), short, 1).is_err());
    assert!(Game::from_view(&view, game.hand(1 - seat), game.stock().to_vec(), 1).is_ok());
}

#[test]
fn first_dealer_option_overrides_the_rule_without_changing_the_deal() {
    let r = Arc::new(ruleset::load("koikoi").value.unwrap());
    for d in 0..2 {
        let g = Game::new(
            Arc::clone(&r),
            GameOptions {
                seed: 3,
                first_dealer: Some(d),
                ..GameOptions::default()
            },
        )
        .unwrap();
        let first = g.history().first().map_or(g.dealer(), |h| h.dealer);
        assert_eq!(first, d);
        let plain = Game::new(
            Arc::clone(&r),
            GameOptions {
                seed: 3,
                ..GameOptions::default()
            },
        )
        .unwrap();
        assert_eq!(g.dealt_orders[0], plain.dealt_orders[0]);
    }
}
