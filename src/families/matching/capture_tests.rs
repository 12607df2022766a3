//! Captures beyond one group taken at once (issue 43): trailing, a card that could capture laid
//! on the table where `[flow] must_capture` allows it, on the test ruleset
//! `tests/rulesets/trail.toml` (Scopa that may trail, as Cassino does).

use super::scopa_tests::deal_order;
use super::{MatchingGame, Phase, start};
use crate::agent::{ExpertAgent, GreedyAgent, RandomAgent};
use crate::core::record::StepAction;
use crate::core::{Action, Agent, Event, Game as _, StartOptions, agent_rng, play_out};
use crate::deck::CardSet;
use crate::ruleset::{self, Ruleset};
use std::sync::Arc;

const TRAIL: &str = "tests/rulesets/trail.toml";

fn load(path: &str) -> Arc<Ruleset> {
    let loaded = ruleset::load(path);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

/// The trail ruleset with `flow_keys` instead of its `[flow]`.
fn trail_with(flow_keys: &str) -> Arc<Ruleset> {
    let text =
        format!("[ruleset]\nid = \"trail-house\"\nextends = \"{TRAIL}\"\n\n[flow]\n{flow_keys}\n");
    let loaded = ruleset::load_str("trail-house.toml", &text);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

/// A one-hand game of `r` dealt as [`deal_order`] says, seat 0 dealing (seat 1 plays first).
fn dealt(r: &Arc<Ruleset>, seat1: &str, seat0: &str, table: &str) -> MatchingGame {
    let order = deal_order(r, seat1, seat0, table);
    let options = StartOptions {
        seed: 1,
        deck_orders: vec![order],
        first_dealer: Some(0),
        log_events: true,
        rounds: Some(1),
        ..StartOptions::default()
    };
    start(Arc::clone(r), options).unwrap()
}

fn card(r: &Ruleset, id: &str) -> crate::deck::CardId {
    r.deck.card_by_id(id).unwrap_or_else(|| panic!("{id}"))
}

/// The legal moves, one a line: each capture by its cards, the trail as `trail`.
fn offered(game: &MatchingGame) -> String {
    let deck = &game.ruleset().deck;
    game.legal()
        .iter()
        .map(|a| match a.taken() {
            Some(set) if set.is_empty() => "trail".to_string(),
            Some(set) => format!("capture {}", deck.ids(set).join(" + ")),
            None => format!("{a:?}"),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The cards played and what they took, from the game's events.
fn plays(game: &mut MatchingGame) -> String {
    let r = Arc::clone(game.ruleset());
    let deck = &r.deck;
    game.drain_events()
        .iter()
        .filter_map(|e| match e {
            Event::Played {
                player,
                card,
                captured,
            } if captured.is_empty() => Some(format!(
                "seat {player} plays {}, laid on the table",
                deck.id_of(*card)
            )),
            Event::Played {
                player,
                card,
                captured,
            } => Some(format!(
                "seat {player} plays {} taking {}",
                deck.id_of(*card),
                deck.ids(captured.iter().copied().collect()).join(" ")
            )),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_card_that_could_capture_may_be_trailed() {
    // The worked example of docs/src/authors/captures.md. The table holds 5, 2, 3 and a King;
    // seat 1 plays the Five of Coins. Scopa's rules offer the equal Five only (an equal card
    // before a sum); `must_capture = "never"` (pagat-cassino) adds the trail after it.
    let r = load(TRAIL);
    let mut game = dealt(
        &r,
        "coins-5 cups-king batons-6",
        "coins-7 cups-7 swords-7",
        "cups-5 swords-2 batons-3 batons-king",
    );
    game.apply(Action::Play {
        card: card(&r, "coins-5"),
    })
    .unwrap();
    assert!(matches!(game.phase(), Phase::CaptureChoice { .. }));
    insta::assert_snapshot!(offered(&game), @r"
    capture cups-5
    trail
    ");
    // Greedy takes the Five: a capture is worth its cards, the trail gives the next player a
    // card.
    assert_eq!(
        game.heuristic(1, &game.legal(), &mut agent_rng(1)),
        Action::Take {
            card: card(&r, "cups-5")
        }
    );
    // A record writes the trail as a capture of no cards, and reads it back.
    let trail = Action::TakeSet {
        cards: CardSet::EMPTY,
    };
    let step = StepAction::from_action(trail, &r);
    insta::assert_snapshot!(serde_json::to_string(&step).unwrap(), @"{\"action\":\"capture_set\",\"cards\":[]}");
    assert_eq!(step.to_action(&r).unwrap(), trail);
    game.apply(trail).unwrap();
    // Seat 0's Seven makes 7 with 5 + 2, either Five; or it is trailed too.
    game.apply(Action::Play {
        card: card(&r, "coins-7"),
    })
    .unwrap();
    insta::assert_snapshot!(offered(&game), @r"
    capture coins-5 + swords-2
    capture cups-5 + swords-2
    trail
    ");
    game.apply(trail).unwrap();
    insta::assert_snapshot!(plays(&mut game), @r"
    seat 1 plays coins-5, laid on the table
    seat 0 plays coins-7, laid on the table
    ");
    assert_eq!(
        game.table(),
        set(&r, "coins-5 coins-7 cups-5 swords-2 batons-3 batons-king")
    );
}

#[test]
fn greedy_trails_when_its_capture_would_leave_a_sweep() {
    // With 5, 2, 3 and 4 on the table, the Five of Coins taking the Five leaves 2 + 3 + 4 = 9,
    // which a Knight (9) sweeps; laid on the table, it leaves 19, which nothing sweeps. Greedy
    // weighs the sweep it would leave against the two cards: it trails.
    let r = load(TRAIL);
    let mut game = dealt(
        &r,
        "coins-5 cups-king batons-6",
        "coins-7 cups-7 swords-7",
        "cups-5 swords-2 batons-3 batons-4",
    );
    game.apply(Action::Play {
        card: card(&r, "coins-5"),
    })
    .unwrap();
    assert_eq!(
        game.heuristic(1, &game.legal(), &mut agent_rng(1)),
        Action::TakeSet {
            cards: CardSet::EMPTY
        }
    );
}

fn set(r: &Ruleset, ids: &str) -> CardSet {
    ids.split_whitespace().map(|id| card(r, id)).collect()
}

#[test]
fn a_card_that_captures_nothing_is_laid_without_a_choice() {
    let r = load(TRAIL);
    let mut game = dealt(
        &r,
        "coins-king cups-king batons-6",
        "coins-7 cups-7 swords-7",
        "cups-2 swords-3 batons-ace coins-3",
    );
    // A King (10): no King on the table, and 2, 3, 1 and 3 make only 9.
    game.apply(Action::Play {
        card: card(&r, "coins-king"),
    })
    .unwrap();
    assert_eq!(game.to_act(), Some(0));
    assert!(matches!(game.phase(), Phase::Play));
    insta::assert_snapshot!(plays(&mut game), @"seat 1 plays coins-king, laid on the table");
}

#[test]
fn must_capture_equal_forces_a_pair_but_not_a_sum() {
    // `must_capture = "equal"`: a card that finds an equal table card must take it, one that
    // can only take a sum may be trailed.
    let r = trail_with("must_capture = \"equal\"");
    let mut game = dealt(
        &r,
        "coins-5 coins-7 batons-6",
        "cups-7 swords-7 batons-7",
        "cups-5 swords-2 batons-3 batons-4",
    );
    game.apply(Action::Play {
        card: card(&r, "coins-5"),
    })
    .unwrap();
    // The one capture is made at once: no choice, no trail.
    assert!(matches!(game.phase(), Phase::Play));
    insta::assert_snapshot!(plays(&mut game), @"seat 1 plays coins-5 taking cups-5");
    game.apply(Action::Play {
        card: card(&r, "cups-7"),
    })
    .unwrap();
    insta::assert_snapshot!(offered(&game), @r"
    capture batons-3 + batons-4
    trail
    ");
}

#[test]
fn the_default_never_offers_the_trail() {
    // The same deal under Scopa's own rules: the equal Five is taken at once.
    let r = trail_with("must_capture = \"always\"");
    let mut game = dealt(
        &r,
        "coins-5 cups-king batons-6",
        "coins-7 cups-7 swords-7",
        "cups-5 swords-2 batons-3 batons-4",
    );
    game.apply(Action::Play {
        card: card(&r, "coins-5"),
    })
    .unwrap();
    assert!(matches!(game.phase(), Phase::Play));
    assert!(
        game.apply(Action::TakeSet {
            cards: CardSet::EMPTY
        })
        .is_err()
    );
}

/// Whole hands of the trail ruleset between `agents` (one per seat, by name): every card ends
/// in a pile, and every move the bots make is legal.
fn hands_keep_every_card(names: [&str; 2], seeds: std::ops::Range<u64>) {
    let r = load(TRAIL);
    for seed in seeds {
        let options = StartOptions {
            seed,
            rounds: Some(1),
            ..StartOptions::default()
        };
        let mut game = start(Arc::clone(&r), options).unwrap();
        let mut agents: Vec<Box<dyn Agent>> = names
            .iter()
            .map(|n| match *n {
                "greedy" => Box::new(GreedyAgent) as Box<dyn Agent>,
                "expert" => Box::new(ExpertAgent::new(8)),
                _ => Box::new(RandomAgent),
            })
            .collect();
        play_out(&mut game, &mut agents, &mut agent_rng(seed)).unwrap();
        assert!(game.is_over(), "seed {seed}");
        let piles = game.captured(0) | game.captured(1);
        assert_eq!(piles, r.deck.all(), "seed {seed}");
    }
}

#[test]
fn random_greedy_and_expert_hands_keep_every_card() {
    hands_keep_every_card(["random", "random"], 0..30);
    hands_keep_every_card(["greedy", "random"], 0..10);
    hands_keep_every_card(["expert", "greedy"], 0..2);
}

#[test]
fn random_hands_trail_and_greedy_seldom_does() {
    // Random play trails now and then; greedy, which values a capture by its cards, trails a
    // card that could capture far less often than it captures.
    let r = load(TRAIL);
    let (mut trails, mut captures) = ([0u32; 2], [0u32; 2]);
    for seed in 0..20 {
        let options = StartOptions {
            seed,
            rounds: Some(1),
            ..StartOptions::default()
        };
        let mut game = start(Arc::clone(&r), options).unwrap();
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        while let Some(seat) = game.to_act() {
            game.legal_actions(&mut legal);
            let greedy = seat == 0;
            let a = if greedy {
                game.heuristic(seat, &legal, &mut rng)
            } else {
                legal[crate::core::uniform_index(legal.len(), &mut rng)]
            };
            if legal.contains(&Action::TakeSet {
                cards: CardSet::EMPTY,
            }) {
                let k = usize::from(!greedy);
                match a.taken() {
                    Some(s) if s.is_empty() => trails[k] += 1,
                    _ => captures[k] += 1,
                }
            }
            game.apply(a).unwrap();
        }
    }
    insta::assert_snapshot!(format!("greedy: {} trails, {} captures; random: {} trails, {} captures", trails[0], captures[0], trails[1], captures[1]), @"greedy: 5 trails, 197 captures; random: 82 trails, 93 captures");
    assert!(trails[1] > 0);
    assert!(trails[0] * 4 < captures[0]);
}
