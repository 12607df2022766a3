//! A declaration before a play that earns points and blocks a suit (issue 43, wall 7), on the
//! test ruleset tests/rulesets/declared-month.toml: three cards of a month held and declared
//! score 2 and keep the month's cards from the other player for the rest of the hand.

use super::start;
use crate::core::{Action, Event, Game, StartOptions, agent_rng, uniform_index};
use crate::deck::CardSet;
use crate::ruleset::{self, Ruleset};
use std::fmt::Write as _;
use std::sync::Arc;

const RULESET: &str = include_str!("../../../tests/rulesets/declared-month.toml");
const POSITION: &str = include_str!("../../../tests/positions/declared-month.toml");

fn loaded(text: &str) -> Arc<Ruleset> {
    let loaded = ruleset::load_str("declared-month.toml", text);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

fn position(r: &Arc<Ruleset>) -> Box<dyn Game> {
    let p = crate::families::position::Position::parse(
        &POSITION.replace("../rulesets/declared-month.toml", "declared-month"),
    )
    .unwrap();
    crate::families::position::start(&p, Arc::clone(r), true).unwrap()
}

fn table(game: &dyn Game) -> CardSet {
    game.zones()
        .into_iter()
        .find(|(n, _)| n == "table")
        .map(|(_, c)| c)
        .unwrap()
}

/// The guide's worked example: seat 0 declares its three Pine cards and lays the Pine Chaff 1;
/// seat 1's Pine Chaff 2 takes nothing and both wait on the table. Without `blocks` the Chaff 2
/// takes the Chaff 1. The hand played on (each seat's first legal move) scores the Claim's 2
/// points beside most cards.
#[test]
fn a_declared_month_is_the_declarers_alone() {
    let r = loaded(RULESET);
    let card = |id: &str| r.deck.card_by_id(id).unwrap();
    let pines = CardSet::single(card("pine-1")) | CardSet::single(card("pine-2"));
    let mut game = position(&r);
    assert_eq!(table(&*game) & pines, pines, "both Pine chaff on the table");
    let events = game.drain_events();
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Declared { player: 0, card: Some(c), .. } if *c == card("pine-crane")
    )));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Played { player: 1, card: c, captured } if *c == card("pine-2") && captured.is_empty()
    )));

    let open = loaded(&RULESET.replace("blocks = true", "blocks = false"));
    let unblocked = position(&open);
    assert!(
        (table(&*unblocked) & pines).is_empty(),
        "the Chaff 2 takes the Chaff 1"
    );

    // The hand played out: seat 0 takes the two Pine chaff with its next Pine card.
    let mut legal = Vec::new();
    while game.to_act().is_some() {
        game.legal_actions(&mut legal);
        game.apply(legal[0]).unwrap();
    }
    let mut out = String::new();
    for h in game.history() {
        let _ = writeln!(out, "{} points {:?}", h.end.0, h.points.to_vec());
        for step in h.outcome.iter().flat_map(|o| &o.steps) {
            let _ = writeln!(
                out,
                "seat {}: {} (total {})",
                step.seat.unwrap_or(0),
                step.reason,
                step.total
            );
        }
    }
    insta::assert_snapshot!(out, @r"
    settled points [3, 0]
    seat 0: Claim +2 (total 2)
    seat 0: most cards (20 to 14) +1 (total 3)
    ");
}

/// Random hands: a seat never captures a card of a month the other seat declared, a Claim is
/// offered only with three of a month in hand and none on the table, and each seat's Claims
/// score 2 points apiece at the hand's end.
#[test]
fn random_hands_keep_a_declared_month_for_its_declarer() {
    let r = loaded(RULESET);
    let (mut claims, mut passed_by) = (0, 0);
    for seed in 0..150 {
        let options = StartOptions {
            seed,
            log_events: true,
            ..StartOptions::default()
        };
        let mut game = start(Arc::clone(&r), options).unwrap();
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        // The suits each seat declared.
        let mut declared = [CardSet::EMPTY; 2];
        let mut made = [0i64; 2];
        while let Some(seat) = game.to_act() {
            game.legal_actions(&mut legal);
            for a in &legal {
                if let Action::Declare { card: Some(c), .. } = a {
                    let suit = r.deck.same_suit(*c);
                    assert!((game.hand(seat) & suit).len() >= 3, "seed {seed}");
                    assert!((game.table() & suit).is_empty(), "seed {seed}");
                }
            }
            // Declare whenever it may, to meet many blocks.
            let a = legal
                .iter()
                .copied()
                .find(|a| matches!(a, Action::Declare { .. }))
                .unwrap_or_else(|| legal[uniform_index(legal.len(), &mut rng)]);
            let table_before = game.table();
            game.apply(a).unwrap();
            for e in game.drain_events() {
                match e {
                    Event::Declared {
                        player,
                        card: Some(c),
                        ..
                    } => {
                        declared[player] |= r.deck.same_suit(c);
                        made[player] += 1;
                        claims += 1;
                    }
                    Event::Played {
                        player,
                        card,
                        captured,
                    }
                    | Event::Drew {
                        player,
                        card,
                        captured,
                    } => {
                        let other = declared[1 - player];
                        for c in &captured {
                            assert!(!other.contains(*c), "seed {seed}: a declared month taken");
                        }
                        if other.contains(card)
                            && captured.is_empty()
                            && !(table_before & other & r.deck.same_suit(card)).is_empty()
                        {
                            passed_by += 1;
                        }
                    }
                    Event::HandEnded { .. } => {
                        let hand = game.history().last().unwrap();
                        let o = hand.outcome.as_ref().unwrap();
                        for (s, &n) in made.iter().enumerate() {
                            let claimed: Vec<&str> = o
                                .steps
                                .iter()
                                .filter(|st| st.seat == Some(s) && st.reason.starts_with("Claim"))
                                .map(|st| st.reason.as_str())
                                .collect();
                            let expected = match n {
                                0 => vec![],
                                1 => vec!["Claim +2".to_string()],
                                n => vec![format!("Claim x{n} +{}", 2 * n)],
                            };
                            assert_eq!(claimed, expected, "seed {seed}");
                        }
                    }
                    _ => {}
                }
            }
        }
        let stock: CardSet = game.stock().iter().copied().collect();
        let all = game.captured(0) | game.captured(1) | game.hand(0) | game.hand(1);
        assert_eq!(
            all | game.table() | stock,
            r.deck.all(),
            "seed {seed}: every card kept"
        );
    }
    assert!(
        claims > 20 && passed_by > 0,
        "{claims} claims, {passed_by} passed by"
    );
}

/// `points` and `blocks` belong to declarations before a play.
#[test]
fn points_and_blocks_need_a_declaration_before_a_play() {
    let text = RULESET.replace("effect = \"reveal\"", "effect = \"stop\"");
    let loaded = ruleset::load_str("declared-month.toml", &text);
    let messages: Vec<String> = loaded
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("`points` needs a declaration before a play"))
            && messages
                .iter()
                .any(|m| m.starts_with("`blocks` needs a declaration before a play")),
        "{messages:?}"
    );
}
