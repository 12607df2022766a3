//! Worked hands of Schnapsen through the core, each from a hand-made deck order and a script of
//! moves, pinning every case of source 004 "Schnapsen": each row of the claim table, false
//! claims, a successful and a failed close, the last trick, marriages declared before and after
//! the first trick won, the trump exchange, and the follow obligations once the stock is closed
//! or gone. A property test plays random games of every trick-taking ruleset.

use super::*;
use crate::agent::{Agent, RandomAgent, agent_rng};
use crate::core::{Action, DeclId, Event, StartOptions};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{self, Ruleset};
use insta::assert_snapshot;
use std::fmt::Write as _;
use std::sync::Arc;

fn load(name: &str) -> Arc<Ruleset> {
    Arc::new(ruleset::load(name).value.expect("bundled ruleset loads"))
}

fn card(r: &Ruleset, id: &str) -> CardId {
    r.deck
        .card_by_id(id)
        .unwrap_or_else(|| panic!("no card `{id}`"))
}

/// A deck order starting with `ids` (the non-dealer's five, the dealer's five, the turned-up
/// trump, then the stock from the top), then every other card in deck order.
fn order(r: &Ruleset, ids: &[&str]) -> Vec<CardId> {
    let mut o: Vec<CardId> = ids.iter().map(|i| card(r, i)).collect();
    let used: CardSet = o.iter().copied().collect();
    assert_eq!(used.len() as usize, o.len(), "a card is dealt twice");
    o.extend((r.deck.all() - used).iter());
    o
}

/// The declaration with this effect, or this id (`marriage`: a meld declaration).
fn declaration(r: &Ruleset, effect: &str) -> DeclId {
    DeclId(
        r.declarations
            .iter()
            .position(|d| d.effect == effect || d.id == effect)
            .expect("the ruleset has the declaration") as u8,
    )
}

/// Seat 0 deals, so seat 1 leads first.
fn deal(r: &Arc<Ruleset>, ids: &[&str]) -> TricksGame {
    start(
        Arc::clone(r),
        StartOptions {
            seed: 1,
            rounds: Some(1),
            first_dealer: Some(0),
            deck_orders: vec![order(r, ids)],
            log_events: true,
            ..StartOptions::default()
        },
    )
    .unwrap()
}

/// A move of the script: `play ID`, `marriage ID`, `exchange`, `close`, `claim`.
fn action(r: &Ruleset, m: &str) -> Action {
    let (verb, rest) = m.split_once(' ').unwrap_or((m, ""));
    match verb {
        "play" => Action::Play {
            card: card(r, rest),
        },
        "marriage" => Action::Declare {
            decl: declaration(r, "marriage"),
            card: Some(card(r, rest)),
        },
        effect => Action::declare(declaration(r, effect)),
    }
}

/// Plays `moves` (each by the seat to act), rendering the events.
fn play(g: &mut TricksGame, moves: &[&str]) -> String {
    let r = Arc::clone(g.ruleset());
    let mut out = String::new();
    for m in moves {
        let seat = g.to_act().expect("the hand goes on");
        g.apply(action(&r, m))
            .unwrap_or_else(|e| panic!("seat {seat}: `{m}` refused: {e}"));
        out += &render(&r, &g.drain_events());
    }
    out
}

fn render(r: &Ruleset, events: &[Event]) -> String {
    let id = |c: &CardId| r.deck.id_of(*c).to_string();
    let mut out = String::new();
    for e in events {
        let _ = match e {
            Event::Deal { round, dealer } => {
                writeln!(out, "deal: hand {round}, dealer seat {dealer}")
            }
            Event::Played { player, card, .. } => writeln!(out, "seat {player} plays {}", id(card)),
            Event::TrickWon { player, cards } => {
                let ids: Vec<String> = cards.iter().map(id).collect();
                writeln!(out, "  seat {player} takes [{}]", ids.join(", "))
            }
            Event::Declared { player, decl, card } => writeln!(
                out,
                "seat {player} declares {}{}",
                r.declarations[decl.0 as usize].id,
                card.as_ref()
                    .map_or_else(String::new, |c| format!(" ({})", id(c)))
            ),
            Event::HandCount { points, tricks } => {
                writeln!(out, "count: points {points:?}, tricks {tricks:?}")
            }
            Event::HandEnded {
                winner,
                end,
                points,
                ..
            } => writeln!(
                out,
                "hand ends: {}, winner {winner:?}, game points {points:?}",
                end.0
            ),
            Event::GameEnded { scores } => writeln!(out, "game over: {scores:?}"),
            _ => Ok(()),
        };
    }
    out
}

/// The game points and end of the one hand a game played, with its explanation.
fn result(g: &TricksGame) -> (i64, &'static str, Vec<String>) {
    let h = &g.history()[0];
    let w = h.winner.expect("a hand has a winner");
    let steps = h
        .outcome
        .as_ref()
        .map(|o| o.steps.iter().map(|s| s.reason.clone()).collect())
        .unwrap_or_default();
    (h.points[w], h.end.0, steps)
}

/// A hand for the closer who fails: seat 1 closes with two clubs; seat 0 holds three trumps.
const FAILED_CLOSE: [&str; 11] = [
    "clubs-ace",
    "clubs-ten",
    "diamonds-jack",
    "spades-jack",
    "spades-queen",
    "hearts-ace",
    "hearts-ten",
    "hearts-king",
    "clubs-king",
    "spades-ace",
    "hearts-jack",
];

const TRUMP_MARRIAGE: [&str; 11] = [
    // The non-dealer (seat 1): the Ace, Ten, King and Queen of trumps and the Ace of clubs.
    "hearts-ace",
    "hearts-ten",
    "hearts-king",
    "hearts-queen",
    "clubs-ace",
    // The dealer (seat 0): no trump.
    "diamonds-jack",
    "diamonds-queen",
    "clubs-jack",
    "spades-jack",
    "spades-queen",
    // Turned up: hearts are trumps.
    "hearts-jack",
];

/// 004: a trump marriage declared on the first lead counts 40 only once its holder wins a trick;
/// a claim with 66 against an opponent without a trick scores 3.
#[test]
fn claim_against_no_trick_scores_3_and_a_marriage_counts_after_the_first_trick() {
    let r = load("schnapsen");
    let mut g = deal(&r, &TRUMP_MARRIAGE);
    let mut s = String::from("# schnapsen: marriage before the first trick, then a claim\n");
    s += &render(&r, &g.drain_events());
    s += &play(&mut g, &["marriage hearts-king"]);
    assert_eq!(g.declared_points(1), 40);
    assert_eq!(g.points(1), 0, "the marriage waits for a trick");
    s += &play(&mut g, &["play diamonds-jack"]);
    assert_eq!(g.points(1), 40 + 4 + 2, "counted once a trick is won");
    s += &play(
        &mut g,
        &[
            "play hearts-ace",
            "play diamonds-queen",
            "play hearts-ten",
            "play clubs-jack",
        ],
    );
    assert_eq!(g.points(1), 72);
    s += &play(&mut g, &["claim"]);
    assert_eq!(result(&g).0, 3);
    assert_eq!(result(&g).1, "claim");
    assert_snapshot!("claim_3_no_trick_marriage_before_first_trick", s);
}

/// 004: a claim against an opponent with a trick and under 33 card points scores 2; a marriage
/// declared after a trick is won counts at once.
#[test]
fn claim_against_under_33_scores_2_and_a_marriage_after_a_trick_counts_at_once() {
    let r = load("schnapsen");
    let mut g = deal(
        &r,
        &[
            "hearts-ace",
            "hearts-ten",
            "hearts-king",
            "hearts-queen",
            "clubs-jack",
            "spades-ace",
            "clubs-queen",
            "diamonds-jack",
            "diamonds-queen",
            "spades-queen",
            "hearts-jack",
            // The stock, top first: the winner of each trick draws first.
            "diamonds-king",
            "clubs-king",
            "spades-jack",
            "clubs-ten",
            "spades-ten",
            "diamonds-ten",
        ],
    );
    let mut s = String::from("# schnapsen: a marriage after a trick, then a claim\n");
    s += &render(&r, &g.drain_events());
    s += &play(
        &mut g,
        &[
            "play clubs-jack",
            "play clubs-queen",
            "play diamonds-jack",
            "play clubs-king",
            "play spades-queen",
            "play hearts-ten",
        ],
    );
    assert_eq!(g.tricks(1), 1);
    s += &play(&mut g, &["marriage hearts-king"]);
    assert_eq!(g.points(1), 13 + 40, "counted at once: seat 1 has a trick");
    s += &play(
        &mut g,
        &[
            "play diamonds-queen",
            "play hearts-ace",
            "play spades-jack",
            "claim",
        ],
    );
    assert_eq!((g.points(1), g.points(0)), (73, 11));
    assert_eq!(result(&g).0, 2);
    assert_snapshot!("claim_2_opponent_under_33_marriage_after_a_trick", s);
}

/// 004: a false claim gives the opponent 3 when the opponent has no trick, 2 when it has one.
#[test]
fn false_claims_score_3_or_2_for_the_opponent() {
    let r = load("schnapsen");
    let mut s = String::from("# schnapsen: a claim on the first lead, without points\n");
    let mut g = deal(&r, &TRUMP_MARRIAGE);
    g.drain_events();
    s += &play(&mut g, &["claim"]);
    assert_eq!(
        result(&g),
        (
            3,
            "false_claim",
            vec![
                "the other player claimed 66 without them, and the winner had no trick: 3"
                    .to_string()
            ]
        )
    );
    assert_eq!(g.history()[0].winner, Some(0));
    s += "\n# schnapsen: a false claim against an opponent with a trick\n";
    let mut g = deal(&r, &FAILED_CLOSE);
    g.drain_events();
    // Seat 0 trumps the led Jack and wins a trick; seat 1 wins the next and claims with 15.
    s += &play(
        &mut g,
        &[
            "play diamonds-jack",
            "play hearts-king",
            "play clubs-king",
            "play clubs-ace",
        ],
    );
    assert_eq!((g.tricks(0), g.points(1)), (1, 15));
    s += &play(&mut g, &["claim"]);
    assert_eq!(result(&g).1, "false_claim");
    assert_eq!(result(&g).0, 2, "seat 0 has a trick");
    assert_snapshot!("false_claims_2_and_3", s);
}

/// 004: closing, then reaching 66 first, scores by the claim table (3: no trick for the
/// opponent); failing, the opponent scores 2 (it has tricks). After the close the follow rules
/// hold at once: the opponent must follow suit, and trump when void.
#[test]
fn a_close_succeeds_or_fails_and_the_follow_rules_hold_after_it() {
    let r = load("schnapsen");
    let mut s = String::from("# schnapsen: a successful close\n");
    let mut g = deal(&r, &TRUMP_MARRIAGE);
    g.drain_events();
    s += &play(
        &mut g,
        &["close", "marriage hearts-king", "play diamonds-jack"],
    );
    assert_eq!(g.stock_len(), 10, "nothing is drawn once closed");
    s += &play(
        &mut g,
        &[
            "play hearts-ace",
            "play diamonds-queen",
            "play hearts-ten",
            "play clubs-jack",
            "claim",
        ],
    );
    assert_eq!(result(&g).0, 3);
    assert_eq!(result(&g).1, "claim");
    s += "\n# schnapsen: a failed close\n";
    let mut g = deal(&r, &FAILED_CLOSE);
    g.drain_events();
    s += &play(&mut g, &["close", "play clubs-ace"]);
    // Seat 0 must follow clubs with its King.
    let e = g.apply(action(&r, "play hearts-ace")).unwrap_err();
    assert!(e.reason.contains("you must follow suit"), "{e}");
    s += &format!("seat 0 tries hearts-ace: {e}\n");
    s += &play(&mut g, &["play clubs-king", "play clubs-ten"]);
    // Void in clubs, seat 0 must trump.
    let e = g.apply(action(&r, "play spades-ace")).unwrap_err();
    assert!(e.reason.contains("you must trump"), "{e}");
    s += &format!("seat 0 tries spades-ace: {e}\n");
    let e = g.apply(action(&r, "play diamonds-ace")).unwrap_err();
    assert!(e.reason.contains("not in your hand"), "{e}");
    s += &play(&mut g, &["play hearts-king"]);
    s += &play(
        &mut g,
        &[
            "play hearts-ace",
            "play diamonds-jack",
            "play hearts-ten",
            "play spades-jack",
            "play spades-ace",
            "play spades-queen",
        ],
    );
    assert_eq!((g.points(0), g.points(1)), (53, 15));
    assert_eq!(result(&g).1, "failed_close");
    assert_eq!(result(&g).0, 2);
    assert_eq!(g.history()[0].winner, Some(0));
    assert_snapshot!("close_successful_3_and_failed_2_follow_rules", s);
}

/// 004: the player to lead may exchange the Jack of trumps for the turned-up trump.
#[test]
fn the_jack_of_trumps_is_exchanged_for_the_turned_up_trump() {
    let r = load("schnapsen");
    let mut g = deal(
        &r,
        &[
            "hearts-jack",
            "clubs-ace",
            "clubs-ten",
            "diamonds-jack",
            "spades-jack",
            "diamonds-queen",
            "clubs-jack",
            "spades-queen",
            "diamonds-king",
            "clubs-king",
            "hearts-ace",
        ],
    );
    let mut s = String::from("# schnapsen: the trump exchange\n");
    g.drain_events();
    assert_eq!(g.trump_card(), Some(card(&r, "hearts-ace")));
    assert_eq!(g.to_act(), Some(1), "only the player to lead may exchange");
    s += &play(&mut g, &["exchange"]);
    assert!(g.hand(1).contains(card(&r, "hearts-ace")));
    assert_eq!(g.trump_card(), Some(card(&r, "hearts-jack")));
    assert!(!g.legal().contains(&action(&r, "exchange")), "once only");
    let _ = writeln!(
        s,
        "turned up now: {}",
        r.deck.id_of(g.trump_card().unwrap())
    );
    assert_snapshot!("exchange_the_jack_of_trumps", s);
}

/// 004: with the stock neither closed nor claimed out, the last trick wins 1 game point.
#[test]
fn the_last_trick_wins_one_game_point() {
    let r = load("schnapsen");
    // Both players play their first legal card and never declare: the hand runs to the end.
    for seed in 0..50 {
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                rounds: Some(1),
                ..StartOptions::default()
            },
        )
        .unwrap();
        while g.to_act().is_some() {
            let a = g
                .legal()
                .into_iter()
                .find(|a| matches!(a, Action::Play { .. }))
                .unwrap();
            g.apply(a).unwrap();
        }
        let h = &g.history()[0];
        assert_eq!(h.end, ends::LAST_TRICK, "seed {seed}");
        assert_eq!(h.points.iter().sum::<i64>(), 1);
        assert_eq!(h.winner, g.last_trick_winner());
    }
    assert_snapshot!(
        "last_trick_1",
        crate::script::ScoringScript::clone(r.scoring.as_ref().unwrap())
            .score(&crate::script::HandFacts {
                extra: vec![
                    ("end", crate::script::FactValue::Text("last_trick".into())),
                    ("points_self", crate::script::FactValue::Int(50)),
                    ("points_opponent", crate::script::FactValue::Int(60)),
                    ("tricks_self", crate::script::FactValue::Int(5)),
                    ("tricks_opponent", crate::script::FactValue::Int(5)),
                    ("closer", crate::script::FactValue::Text("none".into())),
                ],
                ..Default::default()
            })
            .map(|o| format!(
                "{}: {:?}",
                o.total,
                o.steps.iter().map(|s| &s.reason).collect::<Vec<_>>()
            ))
            .unwrap()
    );
}

/// 004's claim table's first row: a claim against an opponent with 33 or more scores 1.
#[test]
fn claim_against_33_or_more_scores_1() {
    let r = load("schnapsen");
    let found = (0..400u64).find_map(|seed| {
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                rounds: Some(1),
                ..StartOptions::default()
            },
        )
        .unwrap();
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        let mut before = None;
        while let Some(seat) = g.to_act() {
            g.legal_actions(&mut legal);
            let a = g.heuristic(seat, &legal, &mut rng);
            before = Some((g.points(0), g.points(1)));
            g.apply(a).unwrap();
        }
        let h = &g.history()[0];
        let w = h.winner?;
        let (p0, p1) = before?;
        let other = if w == 0 { p1 } else { p0 };
        (h.end == ends::CLAIM && other >= 33).then(|| (h.points[w], other))
    });
    let (points, other) = found.expect("some greedy hand is claimed against 33 or more");
    assert_eq!(points, 1, "the opponent had {other}");
}

/// The stricter house rule: once the stock is gone or closed, a player who can win the trick in
/// the suit led must.
#[test]
fn the_house_rule_makes_the_follower_head_the_trick() {
    let r = load("house/schnapsen-must-head");
    let mut g = deal(
        &r,
        &[
            "clubs-queen",
            "clubs-ten",
            "diamonds-jack",
            "spades-jack",
            "spades-queen",
            "clubs-ace",
            "clubs-jack",
            "hearts-king",
            "hearts-queen",
            "diamonds-king",
            "hearts-jack",
        ],
    );
    g.drain_events();
    play(&mut g, &["close", "play clubs-queen"]);
    let e = g.apply(action(&r, "play clubs-jack")).unwrap_err();
    assert!(e.reason.contains("wins the trick"), "{e}");
    g.apply(action(&r, "play clubs-ace")).unwrap();
    // Under 004's own rule the Jack follows suit and is allowed.
    let plain = load("schnapsen");
    let mut g = deal(
        &plain,
        &[
            "clubs-queen",
            "clubs-ten",
            "diamonds-jack",
            "spades-jack",
            "spades-queen",
            "clubs-ace",
            "clubs-jack",
            "hearts-king",
            "hearts-queen",
            "diamonds-king",
            "hearts-jack",
        ],
    );
    play(&mut g, &["close", "play clubs-queen", "play clubs-jack"]);
}

/// Random games of every trick-taking ruleset keep every card in one place, obey the follow
/// rules at every trick, and end with the game points the rules give.
#[test]
fn random_games_keep_the_cards_and_the_rules() {
    for name in [
        "schnapsen",
        "house/schnapsen-must-head",
        "house/sechsundsechzig",
    ] {
        let r = load(name);
        for seed in 0..60 {
            let mut g = start(
                Arc::clone(&r),
                StartOptions {
                    seed,
                    ..StartOptions::default()
                },
            )
            .unwrap();
            let mut rng = agent_rng(seed);
            let mut legal = Vec::new();
            while let Some(seat) = g.to_act() {
                let mut seen = CardSet::EMPTY;
                for (_, cards) in g.zones() {
                    assert!((seen & cards).is_empty());
                    seen |= cards;
                }
                assert_eq!(seen, r.deck.all(), "{name}: cards lost");
                g.legal_actions(&mut legal);
                if g.phase() == Phase::Follow && g.strict() {
                    let led = g.led().unwrap();
                    let suit = r.deck.suits[r.deck.card(led).suit].cards;
                    let hand = g.hand(seat);
                    for a in &legal {
                        let Action::Play { card } = a else {
                            panic!("only cards follow")
                        };
                        if !(hand & suit).is_empty() {
                            assert!(suit.contains(*card), "{name}: must follow suit");
                        }
                    }
                }
                let a = RandomAgent.choose(&g, seat, &legal, &mut rng);
                g.apply(a).unwrap();
            }
            for h in g.history() {
                let w = h.winner.unwrap();
                let p = h.points[w];
                assert!((1..=3).contains(&p), "{name}: {p} game points");
                assert_eq!(h.points.iter().sum::<i64>(), p);
            }
            assert!(g.scores().iter().any(|&s| s >= 7) || g.history().len() == 100);
        }
    }
}

/// A game of `r` seeded with `seed`, `moves` random moves in (events logged).
fn begun(r: &Arc<Ruleset>, seed: u64, moves: usize) -> TricksGame {
    let options = StartOptions {
        seed,
        log_events: true,
        ..StartOptions::default()
    };
    let mut g = start(Arc::clone(r), options).unwrap();
    crate::families::every_family_tests::random_moves(&mut g, seed, moves);
    g
}

/// A game copied in place ([`crate::core::Game::copy_from`]) over a game of another seed, part
/// of the way through, is the clone, and plays on as the clone does.
#[test]
fn copy_from_is_a_clone() {
    for name in ["schnapsen", "house/sechsundsechzig"] {
        let r = load(name);
        crate::families::every_family_tests::assert_copy_is_clone(
            &begun(&r, 3, 17),
            begun(&r, 9, 40),
            name,
        );
    }
}

/// A search's world dealt in place ([`crate::core::Game::determinize_from`]) over a game of
/// another seed, with finished hands, is the world `determinize` deals, draw for draw: early in
/// a hand, with the stock closed or run out, and after marriages are shown.
#[test]
fn a_deal_made_in_place_is_the_fresh_deal() {
    for name in ["schnapsen", "house/sechsundsechzig"] {
        let r = load(name);
        for (seed, moves) in [(3, 17), (4, 3), (5, 25), (6, 11)] {
            let source = begun(&r, seed, moves);
            crate::families::every_family_tests::assert_deal_in_place_is_fresh(
                &source,
                begun(&r, 9, 40),
                name,
            );
        }
    }
}

/// The trick-taking family settles in the one shape of every family: a script may settle each
/// seat (`seats`), name the winner, and carry values into the next hand.
#[test]
fn a_trick_taking_script_settles_every_seat_and_carries_a_value() {
    let text = r#"
[ruleset]
id = "schnapsen-streak"
extends = "schnapsen"

[[carry]]
id = "hands"
name = "Hands played"

[scoring]
zero_sum = true
source = '''
fn score(hand) {
    #{ seats: [2, -2], winner: 0, carry: #{ hands: hand.carry.hands + 1 } }
}
'''
"#;
    let loaded = ruleset::load_str("streak.toml", text);
    let r = Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    );
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            seed: 2,
            rounds: Some(3),
            ..StartOptions::default()
        },
    )
    .unwrap();
    let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(RandomAgent), Box::new(RandomAgent)];
    crate::core::play_out(&mut g, &mut agents, &mut agent_rng(2)).unwrap();
    let hands = g.history();
    assert_eq!(hands.len(), 3);
    for (k, h) in hands.iter().enumerate() {
        assert_eq!(&*h.points, &[2, -2]);
        assert_eq!(h.winner, Some(0));
        assert_eq!(h.carried.get("hands"), Some(&[k as i64 + 1][..]));
    }
    assert_eq!(g.scores(), &[6, -6]);
}

/// Schnapsen with the marriage's `when` changed by a house rule: `false` offers it never and
/// refuses it with the reason; `count(pile) > 0` (only after winning a trick) offers it once the
/// player holds a trick.
fn marriage_when(when: &str) -> Arc<Ruleset> {
    let text = format!(
        "[ruleset]\nid = \"marriage-when\"\nextends = \"schnapsen\"\n\n[[declaration]]\nid = \"marriage\"\nwhen = \"{when}\"\n"
    );
    let loaded = ruleset::load_str("marriage-when.toml", &text);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

#[test]
fn a_declarations_when_is_honoured_in_play() {
    let never = marriage_when("false");
    let mut g = deal(&never, &TRUMP_MARRIAGE);
    let m = declaration(&never, "marriage");
    let offered = |g: &TricksGame| {
        g.legal()
            .iter()
            .any(|a| matches!(a, Action::Declare { decl, .. } if *decl == m))
    };
    assert!(
        !offered(&g),
        "a marriage whose `when` is false is never offered"
    );
    let refused = g
        .apply(action(&never, "marriage hearts-king"))
        .expect_err("refused");
    assert_eq!(
        refused.reason,
        "Marriage is not possible now: it needs `false`"
    );
    // The same deal under the bundled rules offers it at once.
    let bundled = load("schnapsen");
    assert!(offered(&deal(&bundled, &TRUMP_MARRIAGE)));
    // Only after a trick: not on the first lead, then again once a trick is won.
    let after = marriage_when("count(pile) > 0");
    let mut g = deal(&after, &TRUMP_MARRIAGE);
    assert!(!offered(&g));
    play(&mut g, &["play hearts-ace", "play diamonds-jack"]);
    assert_eq!(
        g.to_act(),
        Some(1),
        "the Ace took the trick: seat 1 leads again"
    );
    assert!(offered(&g), "a trick won: the marriage may be declared");
}

/// `ruleset` with the search's reading of the bidding switched off (`search_reads_bids`).
fn bids_unread(r: &Ruleset) -> Arc<Ruleset> {
    let mut r = r.clone();
    if let crate::ruleset::Flow::Tricks(f) = &mut r.flow {
        Arc::make_mut(f)
            .auction
            .as_mut()
            .expect("an auction")
            .search_reads_bids = false;
    }
    Arc::new(r)
}

/// Worlds a search deals agree with the bidding it saw: after a greedy auction, the worlds
/// dealt for one seat hold hands that would have bid and passed as the others did far more
/// often than worlds dealt by the cards alone; with the reading off the worlds are the cards'
/// alone, and both are the same from the same seed.
#[test]
fn worlds_agree_with_the_bidding() {
    for name in ["pinochle", "dreierschnapsen"] {
        let read = load(name);
        let unread = bids_unread(&read);
        let (mut misfit_read, mut misfit_unread, mut agree_read, mut agree_unread) = (0, 0, 0, 0);
        let mut worlds = 0;
        for seed in 0..12u64 {
            let begun = |r: &Arc<Ruleset>| {
                let mut g = start(
                    Arc::clone(r),
                    StartOptions {
                        seed,
                        ..StartOptions::default()
                    },
                )
                .unwrap();
                let mut legal = Vec::new();
                // The auction (and a talon's discards, trumps) by the greedy policy.
                while matches!(g.phase(), Phase::Bid | Phase::Discard | Phase::NameTrump) {
                    g.legal_actions(&mut legal);
                    let seat = g.to_act().unwrap();
                    g.apply(greedy::choose(&g.view(seat), &legal)).unwrap();
                }
                g
            };
            let (g, u) = (begun(&read), begun(&unread));
            if g.phase() == Phase::GameOver {
                continue;
            }
            let seat = g.to_act().unwrap();
            for k in 0..8u64 {
                let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(
                    seed * 100 + k,
                );
                let world = g.determinized(seat, &mut rng);
                let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(
                    seed * 100 + k,
                );
                let again = g.determinized(seat, &mut rng);
                let hands = |w: &TricksGame| (0..w.seats()).map(|s| w.hand(s)).collect::<Vec<_>>();
                assert_eq!(hands(&world), hands(&again), "{name}: one seed, one world");
                let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(
                    seed * 100 + k,
                );
                let plain = u.determinized(seat, &mut rng);
                let (m, p) = (
                    g.bidding_misfit(seat, &world),
                    g.bidding_misfit(seat, &plain),
                );
                misfit_read += m;
                misfit_unread += p;
                agree_read += i32::from(m == 0);
                agree_unread += i32::from(p == 0);
                worlds += 1;
            }
        }
        assert!(worlds > 40, "{name}: {worlds} worlds");
        assert!(
            misfit_read * 3 < misfit_unread && agree_read > agree_unread,
            "{name}: read {misfit_read} ({agree_read} of {worlds} agree), unread {misfit_unread} ({agree_unread} agree)"
        );
        eprintln!(
            "{name}: read {misfit_read} ({agree_read} of {worlds} agree), unread {misfit_unread} ({agree_unread} agree)"
        );
    }
}
