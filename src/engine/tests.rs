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
