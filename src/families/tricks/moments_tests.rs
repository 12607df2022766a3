//! Melds shown after play, through the core, on the test ruleset
//! `tests/rulesets/meld-moments.toml` (Sechsundsechzig with Bezique's melds shown on winning a
//! trick and a run shown on one's lead): a worked hand that shows a meld at each moment (a run
//! before leading, Bezique on winning a trick, a marriage by leading one of its cards), a card
//! that does not count twice in one class, points that wait for the first trick, and random and
//! greedy games that keep every card.

use super::*;
use crate::agent::{Agent, GreedyAgent, RandomAgent, agent_rng};
use crate::core::{Action, DeclId, Event, StartOptions};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{self, Ruleset};
use insta::assert_snapshot;
use std::fmt::Write as _;
use std::sync::Arc;

const RULESET: &str = "tests/rulesets/meld-moments.toml";

fn load() -> Arc<Ruleset> {
    let loaded = ruleset::load(RULESET);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

pub(super) fn card(r: &Ruleset, id: &str) -> CardId {
    r.deck
        .card_by_id(id)
        .unwrap_or_else(|| panic!("no card `{id}`"))
}

pub(super) fn decl(r: &Ruleset, id: &str) -> DeclId {
    DeclId(
        r.declarations
            .iter()
            .position(|d| d.id == id)
            .expect("the ruleset has the declaration") as u8,
    )
}

/// A move: `play ID`, or a declaration's id with the card it names (`show hearts-ace`).
pub(super) fn action(r: &Ruleset, m: &str) -> Action {
    match m.split_once(' ') {
        Some(("play", c)) => Action::Play { card: card(r, c) },
        Some((d, c)) => Action::Declare {
            decl: decl(r, d),
            card: Some(card(r, c)),
        },
        None => Action::declare(decl(r, m)),
    }
}

/// The events in words: cards by id, melds with their cards and points.
pub(super) fn render(r: &Ruleset, events: &[Event]) -> String {
    let id = |c: &CardId| r.deck.id_of(*c).to_string();
    let ids = |cs: &[CardId]| cs.iter().map(id).collect::<Vec<_>>().join(", ");
    let mut out = String::new();
    for e in events {
        let _ = match e {
            Event::Played { player, card, .. } => writeln!(out, "seat {player} plays {}", id(card)),
            Event::TrickWon { player, cards } => {
                writeln!(out, "  seat {player} takes [{}]", ids(cards))
            }
            Event::Declared { player, decl, card } => writeln!(
                out,
                "seat {player} declares {}{}",
                r.declarations[decl.0 as usize].id,
                card.as_ref()
                    .map_or_else(String::new, |c| format!(" ({})", id(c)))
            ),
            Event::Melded {
                player,
                melds,
                cards,
                points,
            } => writeln!(
                out,
                "seat {player} melds {} [{}]: {points}",
                melds.join(", "),
                ids(cards)
            ),
            _ => Ok(()),
        };
    }
    out
}

/// Plays `moves`, each by the seat to act, and tells what happened after each: the events, the
/// phase, each seat's points and the points waiting for a first trick.
pub(super) fn play(g: &mut TricksGame, moves: &[&str]) -> String {
    let r = Arc::clone(crate::core::Game::ruleset(g));
    let mut out = String::new();
    for m in moves {
        let seat = g.to_act().expect("the hand goes on");
        let legal: Vec<String> = g
            .legal()
            .iter()
            .filter(|a| !matches!(a, Action::Play { .. }))
            .map(|a| match a {
                Action::Declare { decl, card } => format!(
                    "{}{}",
                    r.declarations[decl.0 as usize].id,
                    card.map_or_else(String::new, |c| format!(" {}", r.deck.id_of(c)))
                ),
                other => format!("{other:?}"),
            })
            .collect();
        let _ = writeln!(
            out,
            "> seat {seat} ({:?}; declarations offered: {})",
            g.phase(),
            if legal.is_empty() {
                "none".to_string()
            } else {
                legal.join(", ")
            }
        );
        g.apply(action(&r, m))
            .unwrap_or_else(|e| panic!("seat {seat}: `{m}` refused: {e}"));
        out += &render(&r, &g.drain_events());
        let _ = writeln!(
            out,
            "  points {:?}, waiting for a first trick {:?}",
            [g.points(0), g.points(1)],
            [g.pending_points(0), g.pending_points(1)]
        );
    }
    out
}

/// The worked deal: dealer seat 0, so seat 1 is dealt first and leads. In packets of three:
/// seat 1 the Ace, Ten and King of Hearts, seat 0 the Queen of Spades, Jack of Diamonds and Ace
/// of Clubs, seat 1 the King and Queen of Diamonds and the Nine of Clubs, seat 0 the Ten of
/// Clubs, Ace of Spades and Jack of Clubs; the Nine of Hearts turned up (Hearts are trumps); the
/// stock from the top: the Nines of Diamonds and Spades, the Queen and King of Clubs, then the
/// rest in deck order.
fn deal(r: &Arc<Ruleset>) -> TricksGame {
    let ids = [
        "hearts-ace",
        "hearts-ten",
        "hearts-king",
        "spades-queen",
        "diamonds-jack",
        "clubs-ace",
        "diamonds-king",
        "diamonds-queen",
        "clubs-nine",
        "clubs-ten",
        "spades-ace",
        "clubs-jack",
        "hearts-nine",
        "diamonds-nine",
        "spades-nine",
        "clubs-queen",
        "clubs-king",
    ];
    let mut order: Vec<CardId> = ids.iter().map(|i| card(r, i)).collect();
    let used: CardSet = order.iter().copied().collect();
    order.extend((r.deck.all() - used).iter());
    start(
        Arc::clone(r),
        StartOptions {
            seed: 1,
            rounds: Some(1),
            first_dealer: Some(0),
            deck_orders: vec![order],
            log_events: true,
            ..StartOptions::default()
        },
    )
    .unwrap()
}

/// Each moment on a worked hand. Seat 1 shows the trump run (Ace, Ten, King of trumps) on its
/// lead and then leads: its 30 points wait for its first trick. Seat 0 wins the trick and,
/// before the draw, shows Bezique (Pagat: "Immediately after winning a trick, and before drawing
/// from the stock, the winner ... may declare one combination"): 40 added at once. Winning the
/// next trick, seat 0 is not offered Bezique again (its cards were shown in that class) and
/// leads at once. Seat 1 wins a trick with a trump and its run counts; on its lead it shows the
/// marriage in Diamonds by leading the Queen (004: "leads the king or queen to the trick and
/// shows the remaining card"), 20 at once now that it has a trick.
#[test]
fn a_meld_at_each_moment_on_a_worked_hand() {
    let r = load();
    let mut g = deal(&r);
    let text = play(
        &mut g,
        &[
            "show hearts-ace",
            "play clubs-nine",
            "play clubs-ace",
            "show diamonds-jack",
            "play spades-ace",
            "play spades-nine",
            "play clubs-ten",
            "play hearts-king",
            "marriage diamonds-queen",
        ],
    );
    assert_snapshot!("meld_moments_worked_hand", text);
    // The run's 30 counted once seat 1 won a trick: 10 + 4 (its trick) + 30 + 20.
    assert_eq!(g.points(1), 10 + 4 + 30 + 20);
    // Seat 0: its two tricks (11 + 0, 11 + 0) and Bezique's 40.
    assert_eq!(g.points(0), 11 + 11 + 40);
}

/// A meld move that shows nothing is refused with the cards that would show one; a second meld
/// on one lead is refused; the winner of a trick must show a meld or pass.
#[test]
fn meld_moves_that_show_nothing_are_refused() {
    let r = load();
    let mut g = deal(&r);
    let e = g.apply(action(&r, "show clubs-nine")).unwrap_err();
    assert_eq!(
        e.reason,
        "Show a meld: `clubs-nine` is in no meld you can show now; you can show one with hearts-ace"
    );
    g.apply(action(&r, "show hearts-ace")).unwrap();
    let e = g.apply(action(&r, "show hearts-ten")).unwrap_err();
    assert_eq!(
        e.reason,
        "Show a meld: you have shown a meld on this lead already; lead a card"
    );
    g.apply(action(&r, "play clubs-nine")).unwrap();
    g.apply(action(&r, "play clubs-ace")).unwrap();
    assert_eq!(g.phase(), Phase::Meld);
    let e = g.apply(action(&r, "play spades-ace")).unwrap_err();
    assert_eq!(
        e.reason,
        "you won the trick: show a meld with its declaration, or pass"
    );
    // Passing shows nothing and the draw follows: seat 0 leads with six cards.
    g.apply(action(&r, "pass")).unwrap();
    assert_eq!((g.phase(), g.to_act()), (Phase::Lead, Some(0)));
    assert_eq!(g.hand(0).len(), 6);
    assert_eq!(g.points(0), 11);
}

/// Random and greedy bots play whole games of the test ruleset: every card in exactly one zone
/// after every move, the winner of a trick asked for a meld only with one to show and a `pass`,
/// a meld's cards in the hand that shows it, and every hand scored.
#[test]
fn random_and_greedy_games_keep_every_card() {
    let r = load();
    let pass = decl(&r, "pass");
    let mut melds_after_play = 0;
    for (bots, seeds) in [("random", 0..40u64), ("greedy", 0..20u64)] {
        for seed in seeds {
            let mut g = start(
                Arc::clone(&r),
                StartOptions {
                    seed,
                    log_events: true,
                    ..StartOptions::default()
                },
            )
            .unwrap();
            let mut rng = agent_rng(seed);
            let mut legal = Vec::new();
            while let Some(seat) = g.to_act() {
                let mut seen = CardSet::EMPTY;
                for (_, cards) in crate::core::Game::zones(&g) {
                    assert!((seen & cards).is_empty(), "{bots} {seed}: a card twice");
                    seen |= cards;
                }
                assert_eq!(seen, r.deck.all(), "{bots} {seed}: cards lost");
                g.legal_actions(&mut legal);
                if g.phase() == Phase::Meld {
                    assert!(legal.contains(&Action::declare(pass)));
                    assert!(legal.len() >= 2, "asked for a meld with none to show");
                }
                for a in &legal {
                    if let Action::Declare {
                        decl,
                        card: Some(c),
                    } = a
                        && r.tricks().unwrap().meld_declarations.contains(decl)
                    {
                        assert!(g.hand(seat).contains(*c), "a meld of cards not held");
                    }
                }
                let a = match bots {
                    "random" => RandomAgent.choose(&g, seat, &legal, &mut rng),
                    _ => GreedyAgent.choose(&g, seat, &legal, &mut rng),
                };
                g.apply(a).unwrap();
                melds_after_play += g
                    .drain_events()
                    .iter()
                    .filter(|e| matches!(e, Event::Melded { .. }))
                    .count();
            }
            assert!(crate::core::Game::error(&g).is_none());
            for h in crate::core::Game::history(&g) {
                let w = h.winner.unwrap();
                assert!((1..=3).contains(&h.points[w]), "{bots} {seed}");
            }
        }
    }
    assert!(melds_after_play > 100, "{melds_after_play} melds shown");
}

/// The marriage shorthand of older rule files (a declaration of `effect = "marriage"` with the
/// `[flow]` keys `marriage`, `marriage_points`, `trump_marriage_points`, `marriage_counts`)
/// loads as the two melds bundled Schnapsen writes out, and plays the same games; the keys on a
/// ruleset whose marriage is written as melds are an error that points to the melds.
#[test]
fn the_marriage_shorthand_is_the_two_melds() {
    let bundled = Arc::new(ruleset::load("schnapsen").value.unwrap());
    let text = std::fs::read_to_string("rulesets/schnapsen.toml").unwrap();
    // The file as it was written before the melds: the declaration's effect and the flow keys.
    let start_melds = text.find("[[meld]]").unwrap();
    let end_melds = text
        .find("# 004: \"A player with the jack of trumps")
        .unwrap();
    let old = format!(
        "{}{}",
        &text[..start_melds],
        &text[end_melds..]
    )
    .replace("effect = \"meld\"", "effect = \"marriage\"")
    .replace(
        "look_at_own_tricks = \"no\"",
        "look_at_own_tricks = \"no\"\nmarriage = [\"king\", \"queen\"]\nmarriage_points = 20\ntrump_marriage_points = 40\nmarriage_counts = \"after-first-trick\"",
    )
    .replace("script = \"scripts/schnapsen.rhai\"", "source = \"fn score(hand) { 1 }\"");
    let loaded = ruleset::load_str("old-schnapsen.toml", &old);
    let r = Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    );
    let (a, b) = (r.tricks().unwrap(), bundled.tricks().unwrap());
    assert_eq!(a.melds, b.melds);
    assert_eq!(a.meld_declarations, b.meld_declarations);
    // The same moves in the same games (the scripts differ, so the points are not compared).
    for seed in 0..20 {
        let play = |r: &Arc<Ruleset>| {
            let mut g = start(
                Arc::clone(r),
                StartOptions {
                    seed,
                    rounds: Some(3),
                    ..StartOptions::default()
                },
            )
            .unwrap();
            let mut rng = agent_rng(seed);
            let mut moves = Vec::new();
            let mut legal = Vec::new();
            while let Some(seat) = g.to_act() {
                g.legal_actions(&mut legal);
                let a = GreedyAgent.choose(&g, seat, &legal, &mut rng);
                moves.push(a);
                g.apply(a).unwrap();
            }
            moves
        };
        assert_eq!(play(&r), play(&bundled), "seed {seed}");
    }
    // A house rule of the older kind on today's Schnapsen: told to change the meld instead.
    let house =
        "[ruleset]\nid = \"thirty\"\nextends = \"schnapsen\"\n[flow]\nmarriage_points = 30\n";
    let loaded = ruleset::load_str("thirty.toml", house);
    assert!(loaded.value.is_none());
    let d = &loaded.diagnostics[0];
    assert_eq!(
        d.message,
        "`marriage_points` belongs to the marriage shorthand, and no declaration has `effect = \"marriage\"`"
    );
    assert!(d.help.as_deref().unwrap().contains("`[[meld]]`"), "{d:?}");
    // What it says to do works: the meld given again with its new points.
    let house = "[ruleset]\nid = \"thirty\"\nextends = \"schnapsen\"\n\n[[meld]]\nid = \"marriage\"\npoints = 30\n";
    let loaded = ruleset::load_str("thirty.toml", house);
    let r = loaded
        .value
        .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics));
    assert_eq!(r.tricks().unwrap().melds[0].points, 30);
}
