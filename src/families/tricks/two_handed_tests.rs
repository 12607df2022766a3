//! Two-handed Pinochle (`rulesets/pinochle-two-handed.toml`) through the core: a worked hand
//! whose melds grow as the sources' examples do (a royal marriage grown into the flush with
//! three new cards, a Queen of Spades shown again in other classes, a single pinochle grown into
//! a double, the dix shown and exchanged), random and greedy games that keep every card, and an
//! independent implementation's rule written as data.

use super::moments_tests::{action, card, decl, play};
use super::*;
use crate::agent::{Agent, GreedyAgent, RandomAgent, agent_rng};
use crate::core::{Action, Event, StartOptions};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{self, Ruleset};
use insta::assert_snapshot;
use std::sync::Arc;

fn load() -> Arc<Ruleset> {
    let loaded = ruleset::load("pinochle-two-handed");
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

/// The worked deal, dealer seat 0, four cards at a time, seat 1 first. Seat 1 holds the flush
/// in Hearts (trumps: the Ten of Hearts is turned up), both Queens of Spades and Jacks of
/// Diamonds, the Queens of Clubs and Diamonds and the Ace of Clubs; seat 0 nines, jacks and two
/// Tens of plain suits. Seat 1 draws an Ace for each of its next four leads and then the Nine of
/// Hearts (the dix); seat 0 draws the other cards in deck order.
fn deal(r: &Arc<Ruleset>) -> TricksGame {
    let seat1 = [
        "hearts-king",
        "hearts-queen",
        "hearts-ace",
        "hearts-ten",
        "hearts-jack",
        "spades-queen",
        "diamonds-jack",
        "spades-queen-p2",
        "diamonds-jack-p2",
        "clubs-queen",
        "diamonds-queen",
        "clubs-ace",
    ];
    let seat0 = [
        "clubs-nine",
        "spades-nine",
        "diamonds-nine",
        "clubs-nine-p2",
        "spades-nine-p2",
        "diamonds-nine-p2",
        "clubs-jack",
        "spades-jack",
        "clubs-jack-p2",
        "spades-jack-p2",
        "clubs-ten",
        "spades-ten",
    ];
    let draws1 = [
        "diamonds-ace",
        "spades-ace",
        "clubs-ace-p2",
        "diamonds-ace-p2",
        "hearts-nine",
    ];
    let up = card(r, "hearts-ten-p2");
    let ids = |list: &[&str]| -> Vec<CardId> { list.iter().map(|i| card(r, i)).collect() };
    let (s1, s0, d1) = (ids(&seat1), ids(&seat0), ids(&draws1));
    let named: CardSet = s1
        .iter()
        .chain(&s0)
        .chain(&d1)
        .chain([&up])
        .copied()
        .collect();
    let mut rest = (r.deck.all() - named).iter();
    let mut order = Vec::new();
    for packet in 0..3 {
        order.extend(&s1[packet * 4..packet * 4 + 4]);
        order.extend(&s0[packet * 4..packet * 4 + 4]);
    }
    order.push(up);
    for &c in &d1 {
        order.push(c);
        order.extend(rest.next());
    }
    order.extend(rest);
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

/// pokerwiner: "if hearts are trumps a player may meld ♥ K, Q and score for the royal marriage,
/// and later he may add ♥ A, 10, J and score for the sequence"; "A card already melded may be
/// melded again so long as it is in a different class, or in a higher-scoring meld of the same
/// class"; "at least one card must be taken from the hand". Seat 1 wins six tricks with Aces
/// (the sixth with the flush's Ace, a shown card led) and shows, one a trick: the royal marriage (40), the flush with the marriage's King and Queen
/// again (150; the royal marriage is offered no more), the pinochle (40), queens around with
/// the Queens of Hearts and Spades shown before in other classes (60), the double pinochle with
/// the first pinochle's cards and the second Queen and Jack (300; no single pinochle is offered
/// after it), and the dix (10), which it exchanges for the turned-up Ten of trumps on its lead.
#[test]
fn melds_grow_on_a_worked_hand() {
    let r = load();
    let mut g = deal(&r);
    let text = play(
        &mut g,
        &[
            "play clubs-ace",
            "play clubs-nine",
            "marriage hearts-king",
            "play diamonds-ace",
            "play spades-nine",
            "meld hearts-ten",
            "play spades-ace",
            "play diamonds-nine",
            "pinochle spades-queen",
            "play clubs-ace-p2",
            "play clubs-nine-p2",
            "meld clubs-queen",
            "play diamonds-ace-p2",
            "play diamonds-nine-p2",
            "meld spades-queen-p2",
            "play hearts-ace",
            "play spades-nine-p2",
            "meld hearts-nine",
            "exchange",
        ],
    );
    assert_snapshot!("two_handed_worked_hand", text);
    // The melds 40 + 150 + 40 + 60 + 300 + 10 and six tricks of an Ace and a Nine.
    assert_eq!(g.points(1), 600 + 6 * 11);
    assert!(g.hand(1).contains(card(&r, "hearts-ten-p2")));
    // A single pinochle after the double, or a royal marriage after the flush: refused.
    for m in ["pinochle spades-queen", "marriage hearts-queen"] {
        assert!(g.apply(action(&r, m)).is_err(), "{m}");
    }
}

/// Random and greedy bots play whole games: every card in exactly one zone after every move, a
/// meld asked for only with one to show, and the hand's points all counted: the 250 of the
/// cards and the last trick, and the melds the events show.
#[test]
fn random_and_greedy_games_keep_every_card() {
    let r = load();
    let pass = decl(&r, "pass");
    let mut melds = 0;
    for (bots, seeds) in [("random", 0..12u64), ("greedy", 0..6u64)] {
        for seed in seeds {
            let mut g = start(
                Arc::clone(&r),
                StartOptions {
                    seed,
                    rounds: Some(1),
                    log_events: true,
                    ..StartOptions::default()
                },
            )
            .unwrap();
            let mut rng = agent_rng(seed);
            let mut legal = Vec::new();
            let mut shown = [0i64; 2];
            let mut last = [0i64; 2];
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
                let a = match bots {
                    "random" => RandomAgent.choose(&g, seat, &legal, &mut rng),
                    _ => GreedyAgent.choose(&g, seat, &legal, &mut rng),
                };
                last = [g.points(0), g.points(1)];
                g.apply(a).unwrap();
                for e in g.drain_events() {
                    if let Event::Melded { player, points, .. } = e {
                        shown[player] += points;
                        melds += 1;
                    }
                }
            }
            assert!(crate::core::Game::error(&g).is_none());
            let h = &crate::core::Game::history(&g)[0];
            // Each seat's hand score: its melds and its card points; 250 of cards in all.
            assert_eq!(
                h.points[0] + h.points[1] - shown[0] - shown[1],
                250,
                "{bots} {seed}: {:?} {shown:?} {last:?}",
                h.points
            );
        }
    }
    assert!(melds > 40, "{melds} melds shown");
}

/// An independent implementation (biplab-t-magar/PinochleInProlog, `src/melds.pl`,
/// `is_a_playable_meld`) refuses a meld only when one of its cards was used before in a meld of
/// the same type, with no classes and no new card: written as data, each meld its own class
/// under `meld_reuse = "other-class"` with `meld_new_card = "none"`. There the royal marriage
/// after the flush from its King and Queen is shown (pokerwiner refuses it), and a pinochle of
/// a Queen from a marriage and a Jack from jacks around too.
#[test]
fn the_prolog_rule_as_data() {
    let mut text = std::fs::read_to_string("rulesets/pinochle-two-handed.toml").unwrap();
    for class in ["sequence", "pinochle", "around"] {
        text = text.replace(&format!("class = \"{class}\"\n"), "");
    }
    text = text
        .replace("meld_reuse = \"grow\"", "meld_reuse = \"other-class\"")
        .replace("meld_new_card = \"hand\"", "meld_new_card = \"none\"");
    let loaded = ruleset::load_str("rulesets/prolog.toml", &text);
    let r = Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    );
    let mut g = deal(&r);
    play(
        &mut g,
        &[
            "play clubs-ace",
            "play clubs-nine",
            "meld hearts-ten",
            "play diamonds-ace",
            "play spades-nine",
            "marriage hearts-king",
        ],
    );
    assert_eq!(g.points(1), 150 + 40 + 2 * 11);
}
