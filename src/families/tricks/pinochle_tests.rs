//! Partnership Auction Pinochle through the core (rulesets/pinochle.toml): the meld table on
//! worked hands, an auction to its end with the trump named, a trick won between two alike
//! cards (the first played, or the last under a house rule), a contract made and one set, the
//! dealer's forced bid, and random games of four seats that keep every card, obey the follow
//! rules and score per the contract. Sources are the ruleset's (bicycle-auction,
//! bicycle-partner, webcasty, pokerwiner, gruntose, sbirnbaum).

use super::melds;
use super::*;
use crate::agent::{Agent, RandomAgent, agent_rng};
use crate::core::{Action, DeclId, Event, StartOptions};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{self, Ruleset};
use insta::assert_snapshot;
use std::fmt::Write as _;
use std::sync::Arc;

fn load(name: &str) -> Arc<Ruleset> {
    let loaded = ruleset::load(name);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{name}: {:?}", loaded.diagnostics)),
    )
}

fn card(r: &Ruleset, id: &str) -> CardId {
    r.deck
        .card_by_id(id)
        .unwrap_or_else(|| panic!("no card `{id}`"))
}

fn set(r: &Ruleset, ids: &[&str]) -> CardSet {
    ids.iter().map(|i| card(r, i)).collect()
}

fn decl(r: &Ruleset, effect: &str) -> DeclId {
    DeclId(
        r.declarations
            .iter()
            .position(|d| d.effect == effect)
            .expect("the ruleset has the declaration") as u8,
    )
}

/// The melds of `hand` with `trump` in words: each meld's name, then the total.
fn meld_line(r: &Ruleset, ids: &[&str], trump: &str) -> String {
    let flow = r.tricks().unwrap();
    let suit = r.deck.suits.iter().position(|s| s.id == trump).unwrap();
    let (points, found) = melds::best(&flow.meld_table, &flow.melds, set(r, ids), Some(suit));
    let names: Vec<&str> = found
        .iter()
        .map(|m| flow.melds[m.meld as usize].id.as_str())
        .collect();
    format!("{} = {points}", names.join(" + "))
}

/// The meld table, one worked hand per rule (the sources are those of the ruleset's
/// `[[meld]]` comments).
#[test]
fn the_meld_table_on_worked_hands() {
    let r = load("pinochle");
    let mut s = String::new();
    let cases: [(&str, &str, &[&str]); 10] = [
        (
            "webcasty: a flush, ace through 10 of trumps, 150; its King and Queen are not a royal marriage again (one class), the second King and Queen of trumps are (40)",
            "hearts",
            &[
                "hearts-ace",
                "hearts-ten",
                "hearts-king",
                "hearts-queen",
                "hearts-jack",
                "hearts-king-p2",
                "hearts-queen-p2",
            ],
        ),
        (
            "bicycle-partner: double flush 1,500 (not two flushes)",
            "clubs",
            &[
                "clubs-ace",
                "clubs-ten",
                "clubs-king",
                "clubs-queen",
                "clubs-jack",
                "clubs-ace-p2",
                "clubs-ten-p2",
                "clubs-king-p2",
                "clubs-queen-p2",
                "clubs-jack-p2",
            ],
        ),
        (
            "webcasty: a marriage in each plain suit 20, in trumps 40",
            "spades",
            &[
                "hearts-king",
                "hearts-queen",
                "diamonds-king",
                "diamonds-queen",
                "spades-king",
                "spades-queen",
            ],
        ),
        (
            "webcasty: pinochle, queen of spades and jack of diamonds, 40; bicycle-partner: double pinochle 300",
            "hearts",
            &[
                "spades-queen",
                "diamonds-jack",
                "spades-queen-p2",
                "diamonds-jack-p2",
            ],
        ),
        (
            "webcasty: 9 of trumps 10; bicycle-partner: each holder of a dix scores it (two dixes 20)",
            "diamonds",
            &["diamonds-nine", "diamonds-nine-p2", "hearts-nine"],
        ),
        (
            "webcasty: four aces 100, four kings 80, four jacks 40 (queens 60 alike)",
            "hearts",
            &[
                "hearts-ace",
                "diamonds-ace",
                "clubs-ace",
                "spades-ace",
                "hearts-king",
                "diamonds-king",
                "clubs-king",
                "spades-king",
                "hearts-jack",
                "diamonds-jack",
                "clubs-jack",
                "spades-jack",
            ],
        ),
        (
            "bicycle-partner: all 8 aces 1,000 (not two arounds)",
            "hearts",
            &[
                "hearts-ace",
                "diamonds-ace",
                "clubs-ace",
                "spades-ace",
                "hearts-ace-p2",
                "diamonds-ace-p2",
                "clubs-ace-p2",
                "spades-ace-p2",
            ],
        ),
        (
            "bicycle-partner: all 8 queens 600 (kings 800, jacks 400 alike)",
            "clubs",
            &[
                "hearts-queen",
                "diamonds-queen",
                "clubs-queen",
                "spades-queen",
                "hearts-queen-p2",
                "diamonds-queen-p2",
                "clubs-queen-p2",
                "spades-queen-p2",
            ],
        ),
        (
            "webcasty: a card used in one kind of meld may be used in others of different classes: the Queen of spades in a marriage, a pinochle and queens around; the Jack of diamonds in the pinochle and jacks around",
            "hearts",
            &[
                "spades-king",
                "spades-queen",
                "diamonds-jack",
                "hearts-queen",
                "diamonds-queen",
                "clubs-queen",
                "hearts-jack",
                "clubs-jack",
                "spades-jack",
            ],
        ),
        (
            "no meld: no two cards combine",
            "hearts",
            &["hearts-ace", "spades-ten", "clubs-nine", "diamonds-king"],
        ),
    ];
    for (source, trump, hand) in cases {
        let _ = writeln!(
            s,
            "# {source}\ntrumps {trump}: {}",
            meld_line(&r, hand, trump)
        );
    }
    assert_snapshot!("pinochle_meld_table", s);
}

/// The four hands of the worked deal, seat 0 (the dealer) first: seat 1 holds hearts and
/// diamonds with the Ace of spades, seat 2 the same with the other copies, seat 3 the clubs,
/// seat 0 the spades.
const HANDS: [[&str; 12]; 4] = [
    [
        "spades-nine-p2",
        "spades-ten",
        "spades-ten-p2",
        "spades-king",
        "spades-king-p2",
        "spades-queen",
        "spades-queen-p2",
        "spades-jack",
        "spades-jack-p2",
        "clubs-queen-p2",
        "clubs-jack-p2",
        "clubs-nine-p2",
    ],
    [
        "spades-ace",
        "hearts-ace",
        "hearts-ten",
        "hearts-king",
        "hearts-queen",
        "hearts-jack",
        "hearts-nine",
        "diamonds-ace",
        "diamonds-ten",
        "diamonds-king",
        "diamonds-queen",
        "diamonds-jack",
    ],
    [
        "spades-ace-p2",
        "hearts-ace-p2",
        "hearts-ten-p2",
        "hearts-king-p2",
        "hearts-queen-p2",
        "hearts-jack-p2",
        "hearts-nine-p2",
        "diamonds-ace-p2",
        "diamonds-ten-p2",
        "diamonds-king-p2",
        "diamonds-queen-p2",
        "diamonds-jack-p2",
    ],
    [
        "spades-nine",
        "diamonds-nine",
        "diamonds-nine-p2",
        "clubs-ace",
        "clubs-ten",
        "clubs-king",
        "clubs-queen",
        "clubs-jack",
        "clubs-nine",
        "clubs-ace-p2",
        "clubs-ten-p2",
        "clubs-king-p2",
    ],
];

/// The deck order that deals `HANDS` with seat 0 dealing: packets of three from seat 1 round.
fn order(r: &Ruleset) -> Vec<CardId> {
    let mut o = Vec::new();
    for k in 0..4 {
        for seat in [1, 2, 3, 0] {
            o.extend(HANDS[seat][3 * k..3 * k + 3].iter().map(|i| card(r, i)));
        }
    }
    let all: CardSet = o.iter().copied().collect();
    assert_eq!(all, r.deck.all(), "the worked deal holds every card once");
    o
}

fn deal(r: &Arc<Ruleset>) -> TricksGame {
    start(
        Arc::clone(r),
        StartOptions {
            seed: 1,
            rounds: Some(1),
            first_dealer: Some(0),
            deck_orders: vec![order(r)],
            log_events: true,
            ..StartOptions::default()
        },
    )
    .unwrap()
}

/// A move: `pass`, `bid N`, `trump SUIT`, `play ID`.
fn action(r: &Ruleset, m: &str) -> Action {
    let (verb, rest) = m.split_once(' ').unwrap_or((m, ""));
    match verb {
        "pass" => Action::declare(decl(r, "pass")),
        "bid" => Action::Bet {
            amount: rest.parse().unwrap(),
        },
        "trump" => {
            let suit = r.deck.suits.iter().position(|s| s.id == rest).unwrap();
            Action::Declare {
                decl: decl(r, "trump"),
                card: r.deck.suits[suit].cards.first_card(),
            }
        }
        _ => Action::Play {
            card: card(r, rest),
        },
    }
}

fn render(r: &Ruleset, events: &[Event]) -> String {
    let id = |c: &CardId| r.deck.id_of(*c).to_string();
    let mut out = String::new();
    for e in events {
        let _ = match e {
            Event::Deal { round, dealer } => {
                writeln!(out, "deal: hand {round}, dealer seat {dealer}")
            }
            Event::Bid { player, amount } => writeln!(out, "seat {player} bids {amount}"),
            Event::Declared { player, decl, card } => writeln!(
                out,
                "seat {player} {}{}",
                r.declarations[decl.0 as usize].id,
                card.map_or_else(String::new, |c| format!(
                    " ({})",
                    r.deck.suits[r.deck.card(c).suit].id
                ))
            ),
            Event::Melded {
                player,
                melds,
                points,
                ..
            } => writeln!(out, "seat {player} melds {points}: {}", melds.join(" + ")),
            Event::Played { player, card, .. } => writeln!(out, "seat {player} plays {}", id(card)),
            Event::TrickWon { player, cards } => {
                let ids: Vec<String> = cards.iter().map(id).collect();
                writeln!(out, "  seat {player} takes [{}]", ids.join(", "))
            }
            Event::HandCount { points, tricks } => {
                writeln!(out, "count: card points {points:?}, tricks {tricks:?}")
            }
            Event::HandEnded {
                winner,
                end,
                points,
                ..
            } => writeln!(
                out,
                "hand ends: {}, winner {winner:?}, points {points:?}",
                end.0
            ),
            _ => Ok(()),
        };
    }
    out
}

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

/// bicycle-auction: bids from the dealer's left, at least 100 and in tens; a player who passed
/// bids no more; the highest bidder names trumps; then every player melds, and the player on
/// the dealer's left leads. bicycle-partner: of duplicate cards the one played first wins.
#[test]
fn an_auction_to_its_end_then_melds_and_a_trick_between_alike_aces() {
    let r = load("pinochle");
    let mut g = deal(&r);
    let mut s = String::from("# pinochle: an auction, the melds, and a trick of two alike Aces\n");
    s += &render(&r, &g.drain_events());
    assert_eq!(g.phase(), Phase::Bid);
    assert_eq!(g.to_act(), Some(1), "the dealer's left bids first");
    // Too low, off the steps, and a bid from a seat that passed are refused.
    assert!(g.apply(action(&r, "bid 90")).is_err());
    assert!(g.apply(action(&r, "bid 105")).is_err());
    s += &play(&mut g, &["bid 100", "bid 110", "pass", "bid 120", "pass"]);
    assert_eq!(g.to_act(), Some(2), "seat 1 passed: seat 2 bids next");
    let refused = g.apply(action(&r, "bid 120")).unwrap_err();
    s += &format!("seat 2 bid 120 refused: {}\n", refused.reason);
    s += &play(&mut g, &["bid 130", "pass"]);
    assert_eq!(g.declarer(), Some(2));
    assert_eq!(g.phase(), Phase::NameTrump);
    s += &play(&mut g, &["trump hearts"]);
    assert_eq!(g.phase(), Phase::Lead);
    assert_eq!(
        g.to_act(),
        Some(1),
        "the dealer's left leads, not the declarer"
    );
    assert_eq!(g.meld_points(1), 150 + 20 + 10);
    s += &play(
        &mut g,
        &[
            "play spades-ace",
            "play spades-ace-p2",
            "play spades-nine",
            "play spades-nine-p2",
        ],
    );
    assert_eq!(g.tricks(1), 1, "the first of the two Aces wins");
    assert_snapshot!("pinochle_auction_melds_alike_aces", s);

    // A house rule: the later of two alike cards wins.
    let loaded = ruleset::load_str(
        "later.toml",
        "[ruleset]\nid = \"later\"\nextends = \"pinochle\"\n\n[flow]\nequal_cards = \"last\"\n",
    );
    let later = Arc::new(loaded.value.expect("the house rule loads"));
    let mut g = deal(&later);
    play(
        &mut g,
        &[
            "bid 100",
            "pass",
            "pass",
            "pass",
            "trump hearts",
            "play spades-ace",
            "play spades-ace-p2",
            "play spades-nine",
            "play spades-nine-p2",
        ],
    );
    assert_eq!(g.tricks(2), 1, "equal_cards = last: the second Ace wins");
}

/// Plays the hand out with the first legal move at every turn, rendering the last lines.
fn play_out(g: &mut TricksGame) -> String {
    let r = Arc::clone(g.ruleset());
    let mut legal = Vec::new();
    let mut out = String::new();
    while g.to_act().is_some() {
        g.legal_actions(&mut legal);
        g.apply(legal[0]).unwrap();
        out = render(&r, &g.drain_events());
    }
    out
}

/// The declarer's side's melds and the other side's, from the game.
fn sides(g: &TricksGame, declarer: usize) -> (i64, i64) {
    let (mut ours, mut theirs) = (0, 0);
    for s in 0..4 {
        if s % 2 == declarer % 2 {
            ours += g.meld_points(s);
        } else {
            theirs += g.meld_points(s);
        }
    }
    (ours, theirs)
}

/// bicycle-auction: "If the bidding side, in melds and cards, scores at least the amount of its
/// bid, it scores all the points it has made. If it scores less than its bid, the amount of the
/// bid is deducted from its score ... The non-bidding side always scores all the points it
/// makes."
#[test]
fn a_contract_made_and_one_set() {
    let r = load("pinochle");
    let mut s = String::new();
    // Made: seat 1 bids the minimum with a flush in hand.
    let mut g = deal(&r);
    play(&mut g, &["bid 100", "pass", "pass", "pass", "trump hearts"]);
    let (ours, theirs) = sides(&g, 1);
    assert_eq!((ours, theirs), (180 + 20, 180 + 40));
    s += "# made: seat 1 (with seat 3) bids 100, melds 200\n";
    s += &play_out(&mut g);
    let h = &g.history()[0];
    assert!(
        h.points[1] >= 100 && h.points[1] == h.points[3],
        "{:?}",
        h.points
    );
    assert_eq!(h.points[1], g.scores()[1]);
    // Set: seat 2 bids 500; its side melds 220 and the 250 in cards cannot make it up.
    let mut g = deal(&r);
    play(&mut g, &["pass", "bid 500", "pass", "pass", "trump hearts"]);
    s += "# set: seat 2 (with seat 0) bids 500, melds 220\n";
    s += &play_out(&mut g);
    let h = &g.history()[0];
    assert_eq!((h.points[0], h.points[2]), (-500, -500));
    assert!(h.points[1] > 0 && h.points[1] == h.points[3]);
    let steps: Vec<&str> = h
        .outcome
        .as_ref()
        .unwrap()
        .steps
        .iter()
        .map(|st| st.reason.as_str())
        .collect();
    s += &format!("steps: {steps:?}\n");
    assert_snapshot!("pinochle_contract_made_and_set", s);
}

/// When all four pass, the dealer takes the contract at 100 (the ruleset's choice, after
/// sbirnbaum).
#[test]
fn the_dealer_is_forced_to_bid_when_all_pass() {
    let r = load("pinochle");
    let mut g = deal(&r);
    let s = play(&mut g, &["pass", "pass", "pass", "pass"]);
    assert_eq!(g.declarer(), Some(0));
    assert_eq!(g.high_bid(), Some((0, 100)));
    assert_eq!(g.phase(), Phase::NameTrump);
    assert!(s.ends_with("seat 0 bids 100\n"), "{s}");
}

/// Random games of Pinochle keep every card in one place, obey the follow rules at every trick
/// (checked here from the rules' words, not from the game's own list), and score each hand per
/// the contract, recounted from the events.
#[test]
fn random_games_keep_the_cards_the_follow_rules_and_the_contract() {
    let r = load("pinochle");
    let deck = &r.deck;
    let rank = |c: CardId| deck.attributes[r.tricks().unwrap().rank].values[c.index()];
    let points = |c: CardId| deck.attributes[r.tricks().unwrap().card_points].values[c.index()];
    for seed in 0..12 {
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                log_events: true,
                rounds: Some(3),
                ..StartOptions::default()
            },
        )
        .unwrap();
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        let (mut counters, mut melded) = ([0i64; 4], [0i64; 4]);
        let (mut tricks, mut bid) = ([0i64; 4], 0i64);
        let mut declarer = None;
        let mut hands_seen = 0;
        while let Some(seat) = g.to_act() {
            let mut seen = CardSet::EMPTY;
            for (_, cards) in g.zones() {
                assert!((seen & cards).is_empty(), "a card in two places");
                seen |= cards;
            }
            assert_eq!(seen, deck.all(), "cards lost");
            g.legal_actions(&mut legal);
            let a = RandomAgent.choose(&g, seat, &legal, &mut rng);
            if let (Phase::Follow, Action::Play { card }) = (g.phase(), a) {
                let led = g.led().unwrap();
                let (_, best) = g.best().unwrap();
                let hand = g.hand(seat);
                let suit = |c: CardId| deck.card(c).suit;
                let trump = g.trump_suit();
                let of = |s: usize| hand.iter().filter(|&c| suit(c) == s).collect::<Vec<_>>();
                let follows = of(suit(led));
                let beats = |c: CardId| {
                    if suit(c) == suit(best) {
                        rank(c) > rank(best)
                    } else {
                        suit(c) == trump
                    }
                };
                if !follows.is_empty() {
                    assert_eq!(suit(card), suit(led), "must follow suit");
                    if suit(best) == suit(led) && follows.iter().any(|&c| beats(c)) {
                        assert!(beats(card), "must head the trick");
                    }
                } else if !of(trump).is_empty() {
                    assert_eq!(suit(card), trump, "void: must trump");
                    if suit(best) == trump && of(trump).iter().any(|&c| beats(c)) {
                        assert!(beats(card), "must overtrump");
                    }
                }
            }
            g.apply(a).unwrap();
            for e in g.drain_events() {
                match e {
                    Event::Bid { player, amount } => {
                        bid = amount;
                        declarer = Some(player);
                    }
                    Event::Melded { player, points, .. } => melded[player] += points,
                    Event::TrickWon { player, cards } => {
                        tricks[player] += 1;
                        counters[player] += cards.iter().map(|&c| points(c)).sum::<i64>();
                        // webcasty: "The last trick won is 10."
                        if tricks.iter().sum::<i64>() == 12 {
                            counters[player] += 10;
                        }
                    }
                    Event::HandEnded { points: p, .. } => {
                        hands_seen += 1;
                        let d = declarer.expect("a hand has a declarer");
                        let side = |team: usize| {
                            let m: i64 = (0..4).filter(|s| s % 2 == team).map(|s| melded[s]).sum();
                            let t: i64 = (0..4).filter(|s| s % 2 == team).map(|s| tricks[s]).sum();
                            let c: i64 =
                                (0..4).filter(|s| s % 2 == team).map(|s| counters[s]).sum();
                            if t > 0 { m + c } else { c }
                        };
                        let (ours, theirs) = (side(d % 2), side(1 - d % 2));
                        let expected = if ours >= bid { ours } else { -bid };
                        assert_eq!(p[d], expected, "seed {seed}: the declarer's side");
                        assert_eq!(p[(d + 2) % 4], expected);
                        assert_eq!(p[(d + 1) % 4], theirs, "seed {seed}: the other side");
                        assert_eq!(p[(d + 3) % 4], theirs);
                        assert_eq!(counters.iter().sum::<i64>(), 250, "every counter taken");
                        counters = [0; 4];
                        melded = [0; 4];
                        tricks = [0; 4];
                        declarer = None;
                    }
                    _ => {}
                }
            }
        }
        assert!(hands_seen >= 1);
    }
}

/// A game copied in place is the clone, and a search's world dealt in place is the fresh one,
/// in the auction, after the melds and in the middle of a trick.
#[test]
fn copies_and_worlds_of_a_pinochle_game() {
    let r = load("pinochle");
    let begun = |seed: u64, moves: usize| {
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                log_events: true,
                ..StartOptions::default()
            },
        )
        .unwrap();
        crate::families::every_family_tests::random_moves(&mut g, seed, moves);
        g
    };
    for (seed, moves) in [(3, 2), (4, 9), (5, 15), (6, 30)] {
        crate::families::every_family_tests::assert_copy_is_clone(
            &begun(seed, moves),
            begun(9, 40),
            "pinochle",
        );
        crate::families::every_family_tests::assert_deal_in_place_is_fresh(
            &begun(seed, moves),
            begun(9, 40),
            "pinochle",
        );
    }
}
