//! Dreierschnapsen through the core (rulesets/dreierschnapsen.toml): every contract made and set
//! on a worked deal (the talon taken and discarded, trumps named or none, the hand ended as soon
//! as the contract is decided), forehand's forced normal game, a contract that must take a given
//! number of tricks (a house rule), and random games of three seats that keep every card, obey
//! the contract's follow rules at every trick and score per the contract. Sources are the
//! ruleset's (wiki-en, ange-bauer, books-bauer, shram-bauer, 004, skat).

use super::*;
use crate::agent::{Agent, RandomAgent, agent_rng};
use crate::core::{Action, DeclId, Event, StartOptions};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{self, Ruleset, TrickCount};
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

fn decl(r: &Ruleset, effect: &str) -> DeclId {
    DeclId(
        r.declarations
            .iter()
            .position(|d| d.effect == effect)
            .expect("the ruleset has the declaration") as u8,
    )
}

/// Deal A: forehand (seat 1) holds every Heart and the Ace of Spades; the talon two Jacks.
const DEAL_A: [[&str; 6]; 3] = [
    [
        "spades-queen",
        "spades-jack",
        "diamonds-king",
        "diamonds-queen",
        "clubs-king",
        "clubs-queen",
    ],
    [
        "hearts-ace",
        "hearts-ten",
        "hearts-king",
        "hearts-queen",
        "hearts-jack",
        "spades-ace",
    ],
    [
        "spades-ten",
        "spades-king",
        "diamonds-ace",
        "diamonds-ten",
        "clubs-ace",
        "clubs-ten",
    ],
];
const TALON_A: [&str; 2] = ["diamonds-jack", "clubs-jack"];

/// Deal B: forehand (seat 1) holds the Queens and Jacks of three suits; seat 2 their Aces and
/// Tens; the talon the Queen and Jack of Hearts.
const DEAL_B: [[&str; 6]; 3] = [
    [
        "spades-king",
        "diamonds-king",
        "clubs-king",
        "hearts-ace",
        "hearts-ten",
        "hearts-king",
    ],
    [
        "spades-queen",
        "spades-jack",
        "diamonds-queen",
        "diamonds-jack",
        "clubs-queen",
        "clubs-jack",
    ],
    [
        "spades-ace",
        "spades-ten",
        "diamonds-ace",
        "diamonds-ten",
        "clubs-ace",
        "clubs-ten",
    ],
];
const TALON_B: [&str; 2] = ["hearts-queen", "hearts-jack"];

/// The deck order that deals `hands` with seat 0 dealing (packets of three from seat 1 round),
/// the talon last.
fn order(r: &Ruleset, hands: &[[&str; 6]; 3], talon: &[&str; 2]) -> Vec<CardId> {
    let mut o = Vec::new();
    for k in 0..2 {
        for seat in [1, 2, 0] {
            o.extend(hands[seat][3 * k..3 * k + 3].iter().map(|i| card(r, i)));
        }
    }
    o.extend(talon.iter().map(|i| card(r, i)));
    let all: CardSet = o.iter().copied().collect();
    assert_eq!(all, r.deck.all(), "the worked deal holds every card once");
    o
}

fn deal(r: &Arc<Ruleset>, hands: &[[&str; 6]; 3], talon: &[&str; 2]) -> TricksGame {
    start(
        Arc::clone(r),
        StartOptions {
            seed: 1,
            rounds: Some(1),
            first_dealer: Some(0),
            deck_orders: vec![order(r, hands, talon)],
            log_events: true,
            ..StartOptions::default()
        },
    )
    .unwrap()
}

/// A move: `pass`, `bid N`, `trump SUIT`, `marriage ID`, `play ID` (also a discard).
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
        "marriage" => Action::Declare {
            decl: decl(r, "marriage"),
            card: Some(card(r, rest)),
        },
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
            Event::Bid { player, amount } => writeln!(
                out,
                "seat {player} bids {}",
                r.tricks()
                    .and_then(|f| f.auction.as_ref())
                    .and_then(|a| a.contract(*amount))
                    .map_or_else(|| amount.to_string(), |c| c.id.clone())
            ),
            Event::Declared { player, decl, card } => writeln!(
                out,
                "seat {player} {}{}",
                r.declarations[decl.0 as usize].id,
                card.map_or_else(String::new, |c| format!(" ({})", id(&c)))
            ),
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
                "hand ends: {}, winner {winner:?}, game points {points:?}",
                end.0
            ),
            _ => Ok(()),
        };
    }
    out
}

/// Plays `moves` (each refused move a panic), rendering what happened.
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

/// One worked case: its title (the rule and its source), the deal, the moves; it checks the
/// hand ended as said with the declarer's and a defender's game points.
fn case(
    r: &Arc<Ruleset>,
    title: &str,
    deal_of: (&[[&str; 6]; 3], &[&str; 2]),
    moves: &[&str],
    end: &str,
    points: [i64; 3],
) -> String {
    let mut g = deal(r, deal_of.0, deal_of.1);
    let mut s = format!("# {title}\n");
    s += &play(&mut g, moves);
    assert_eq!(g.phase(), Phase::GameOver, "{title}: the hand is decided");
    let h = &g.history()[0];
    assert_eq!(h.end.0, end, "{title}\n{s}");
    assert_eq!(h.points.to_vec(), points.to_vec(), "{title}\n{s}");
    s
}

/// Every contract of the ruleset made and set on a worked deal, each with its source.
#[test]
fn every_contract_made_and_set() {
    let r = load("dreierschnapsen");
    let a = (&DEAL_A, &TALON_A);
    let b = (&DEAL_B, &TALON_B);
    let take_talon = ["play diamonds-jack", "play clubs-jack"];
    let mut s = String::new();
    // Normal game (shram-bauer; Choice: 66 points). Made as soon as the declarer reaches 66.
    let mut moves = vec!["bid 1", "pass", "pass"];
    moves.extend(take_talon);
    moves.extend([
        "trump hearts",
        "play hearts-ace",
        "play diamonds-ace",
        "play diamonds-king",
        "play hearts-ten",
        "play clubs-ace",
        "play clubs-king",
        "play spades-ace",
        "play spades-ten",
        "play spades-queen",
    ]);
    s += &case(
        &r,
        "normal game made: 26 + 25 + 24 = 75 card points after three tricks; the declarer scores 1 (wiki-en)",
        a,
        &moves,
        "made",
        [0, 1, 0],
    );
    // Set: the declarer of deal B takes nothing; every trick is played.
    s += &case(
        &r,
        "normal game set: no card point for the declarer after the last trick; each defender scores 1 (wiki-en)",
        b,
        &[
            "bid 1",
            "pass",
            "pass",
            "play hearts-queen",
            "play hearts-jack",
            "trump spades",
            "play spades-jack",
            "play spades-ace",
            "play spades-king",
            "play diamonds-ace",
            "play diamonds-king",
            "play diamonds-jack",
            "play clubs-ace",
            "play clubs-king",
            "play clubs-jack",
            "play spades-ten",
            "play hearts-ace",
            "play spades-queen",
            "play diamonds-ten",
            "play hearts-ten",
            "play diamonds-queen",
            "play clubs-ten",
            "play hearts-king",
            "play clubs-queen",
        ],
        "set",
        [1, 0, 1],
    );
    // Schnapser (ange-bauer: 66 in the first three tricks, the declarer leads, 6 points).
    let mut moves = vec!["bid 2", "pass", "pass"];
    moves.extend(take_talon);
    moves.extend([
        "trump hearts",
        "play hearts-ace",
        "play diamonds-ace",
        "play diamonds-king",
        "play hearts-ten",
        "play clubs-ace",
        "play clubs-king",
        "play spades-ace",
        "play spades-ten",
        "play spades-queen",
    ]);
    s += &case(
        &r,
        "Schnapser made: 75 card points within three tricks, the declarer leading; it scores 6 (ange-bauer)",
        a,
        &moves,
        "made",
        [0, 6, 0],
    );
    let mut moves = vec!["bid 2", "pass", "pass"];
    moves.extend(take_talon);
    moves.extend([
        "trump hearts",
        "play hearts-jack",
        "play diamonds-ten",
        "play diamonds-queen",
        "play hearts-queen",
        "play clubs-ten",
        "play clubs-queen",
        "play hearts-king",
        "play spades-king",
        "play spades-jack",
    ]);
    s += &case(
        &r,
        "Schnapser set: 15 + 16 + 10 = 41 card points after the third trick, short of 66: decided there, each defender scores 6 (ange-bauer)",
        a,
        &moves,
        "set",
        [6, 0, 6],
    );
    // Bettler (skat's Null: take no trick; Choice: no trumps, follow suit only, 9 points).
    s += &case(
        &r,
        "Bettler made: the declarer follows low and never wins a trick; it scores 9 (skat, Choice)",
        b,
        &[
            "bid 3",
            "pass",
            "pass",
            "play hearts-queen",
            "play hearts-jack",
            "play spades-jack",
            "play spades-ten",
            "play spades-king",
            "play diamonds-ace",
            "play diamonds-king",
            "play diamonds-jack",
            "play clubs-ace",
            "play clubs-king",
            "play clubs-jack",
            "play spades-ace",
            "play hearts-ace",
            "play spades-queen",
            "play diamonds-ten",
            "play hearts-ten",
            "play diamonds-queen",
            "play clubs-ten",
            "play hearts-king",
            "play clubs-queen",
        ],
        "made",
        [0, 9, 0],
    );
    let mut moves = vec!["bid 3", "pass", "pass"];
    moves.extend(take_talon);
    moves.extend(["play hearts-jack", "play spades-ten", "play spades-queen"]);
    s += &case(
        &r,
        "Bettler set: the declarer's Jack of Hearts takes the first trick (no one holds a Heart, and there are no trumps): decided at once, each defender scores 9",
        a,
        &moves,
        "set",
        [9, 0, 9],
    );
    // The declarer (seat 1) leads the five Hearts and the Ace of Spades and takes every trick:
    // the play of the Gang and the Bauernschnapser made.
    let mut every_trick: Vec<String> = Vec::new();
    for (lead, p0, p2) in [
        ("hearts-ace", "spades-queen", "spades-ten"),
        ("hearts-ten", "spades-jack", "spades-king"),
        ("hearts-king", "diamonds-king", "diamonds-ace"),
        ("hearts-queen", "diamonds-queen", "diamonds-ten"),
        ("hearts-jack", "clubs-king", "clubs-ace"),
        ("spades-ace", "clubs-queen", "clubs-ten"),
    ] {
        every_trick.extend([lead, p2, p0].map(|c| format!("play {c}")));
    }
    // Gang (ange-bauer: every trick, no trumps, the declarer leads, 9 points).
    let mut moves = vec!["bid 4", "pass", "pass"];
    moves.extend(take_talon);
    moves.extend(every_trick.iter().map(String::as_str));
    s += &case(
        &r,
        "Gang made: every trick without trumps; it scores 9 (ange-bauer)",
        a,
        &moves,
        "made",
        [0, 9, 0],
    );
    let mut moves = vec!["bid 4", "pass", "pass"];
    moves.extend(["play diamonds-jack", "play spades-ace"]);
    moves.extend(["play clubs-jack", "play clubs-ace", "play clubs-king"]);
    s += &case(
        &r,
        "Gang set: the declarer kept the Jack of Clubs and led it; the Ace of Clubs takes the first trick: decided at once, each defender scores 9 (ange-bauer)",
        a,
        &moves,
        "set",
        [9, 0, 9],
    );
    // Bauernschnapser (ange-bauer: every trick with trumps, the declarer leads, 12 points).
    let mut moves = vec!["bid 5", "pass", "pass"];
    moves.extend(take_talon);
    moves.push("trump hearts");
    moves.extend(every_trick.iter().map(String::as_str));
    s += &case(
        &r,
        "Bauernschnapser made: every trick with Hearts trumps; it scores 12 (ange-bauer)",
        a,
        &moves,
        "made",
        [0, 12, 0],
    );
    let mut moves = vec!["bid 5", "pass", "pass"];
    moves.extend(["play diamonds-jack", "play spades-ace", "trump hearts"]);
    moves.extend([
        "play hearts-ace",
        "play clubs-ten",
        "play clubs-queen",
        "play clubs-jack",
        "play clubs-ace",
        "play clubs-king",
    ]);
    s += &case(
        &r,
        "Bauernschnapser set: the second trick is lost to the Ace of Clubs: decided there, each defender scores 12 (ange-bauer)",
        a,
        &moves,
        "set",
        [12, 0, 12],
    );
    assert_snapshot!("dreierschnapsen_contracts_made_and_set", s);
}

/// shram-bauer: when everyone passes, forehand plays the lowest contract; ange-bauer: the
/// Schnapser's declarer leads; the talon is the declarer's, and the follow rules are the
/// contract's (books-bauer "Stichzwang": a defender must head the trick).
#[test]
fn forehand_takes_the_normal_game_and_the_contract_rules_the_play() {
    let r = load("dreierschnapsen");
    let mut g = deal(&r, &DEAL_A, &TALON_A);
    assert_eq!(g.to_act(), Some(1), "forehand bids first");
    assert!(g.apply(action(&r, "bid 7")).is_err(), "no such contract");
    let s = play(&mut g, &["pass", "pass", "pass"]);
    assert!(s.ends_with("seat 1 bids normal\n"), "{s}");
    assert_eq!(g.declarer(), Some(1));
    assert_eq!(g.phase(), Phase::Discard);
    assert_eq!(g.hand(1).len(), 8, "the talon is in the declarer's hand");
    let e = g.apply(action(&r, "trump hearts")).unwrap_err();
    assert!(e.reason.contains("discard 2 more cards"), "{}", e.reason);
    // A Schnapser: the declarer leads, and a defender must head the trick.
    let mut g = deal(&r, &DEAL_A, &TALON_A);
    play(
        &mut g,
        &[
            "bid 2",
            "pass",
            "pass",
            "play diamonds-jack",
            "play clubs-jack",
            "trump hearts",
        ],
    );
    assert_eq!(g.to_act(), Some(1), "the Schnapser's declarer leads");
    assert_eq!(g.talon().len(), 2, "the discards lie aside");
    assert!(g.follow_rules().head, "the Schnapser heads the trick");
    play(&mut g, &["play spades-ace"]);
    let e = g.apply(action(&r, "play clubs-ace")).unwrap_err();
    assert!(e.reason.contains("must follow"), "{}", e.reason);
    // Under the normal game, the flow's rules: follow suit, no heading.
    let mut g = deal(&r, &DEAL_A, &TALON_A);
    play(
        &mut g,
        &[
            "bid 1",
            "pass",
            "pass",
            "play diamonds-jack",
            "play clubs-jack",
            "trump hearts",
        ],
    );
    assert!(!g.follow_rules().head, "the normal game does not head");
    assert_eq!(
        g.to_act(),
        Some(1),
        "the normal game: the dealer's left leads"
    );
}

/// A contract that must take a given number of tricks (a house rule on top of the ruleset:
/// `min_tricks = 4`): set as soon as three tricks are lost, made at the last trick otherwise.
#[test]
fn a_contract_of_a_given_number_of_tricks() {
    let loaded = ruleset::load_str(
        "four.toml",
        "[ruleset]\nid = \"four\"\nextends = \"dreierschnapsen\"\n\n[[flow.auction.contract]]\nid = \"four\"\nname = \"Four tricks\"\nbid = 6\nvalue = 4\nmin_tricks = 4\ntalon = true\nfirst_lead = \"declarer\"\n",
    );
    let r = Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    );
    let a = r.tricks().unwrap().auction.as_ref().unwrap();
    let four = a.contract(6).expect("the house contract");
    assert_eq!(four.goal.min_tricks, Some(TrickCount::Count(4)));
    let mut g = deal(&r, &DEAL_B, &TALON_B);
    let s = play(
        &mut g,
        &[
            "bid 6",
            "pass",
            "pass",
            "play hearts-queen",
            "play hearts-jack",
            "trump spades",
            "play spades-jack",
            "play spades-ace",
            "play spades-king",
            "play diamonds-ace",
            "play diamonds-king",
            "play diamonds-jack",
            "play clubs-ace",
            "play clubs-king",
            "play clubs-jack",
        ],
    );
    assert_eq!(g.phase(), Phase::GameOver, "three tricks lost: set\n{s}");
    assert_eq!(g.history()[0].end.0, "set");
    assert_eq!(g.history()[0].points.to_vec(), vec![4, 0, 4]);
}

/// Random games of Dreierschnapsen keep every card in one place (hands, tricks, the talon),
/// obey the follow rules of the contract in force at every trick (checked from the rules'
/// flags, not from the game's own list), and score each hand per its contract: made, the
/// declarer scores its value; set, each defender does; and made exactly when the goal, counted
/// here, is reached.
#[test]
fn random_games_keep_the_cards_the_follow_rules_and_the_contract() {
    let r = load("dreierschnapsen");
    let deck = &r.deck;
    let flow = r.tricks().unwrap();
    let rank = |c: CardId| deck.attributes[flow.rank].values[c.index()];
    let mut ends = std::collections::BTreeMap::new();
    for seed in 0..150 {
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                log_events: true,
                rounds: Some(1),
                ..StartOptions::default()
            },
        )
        .unwrap();
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        while let Some(seat) = g.to_act() {
            let mut seen = CardSet::EMPTY;
            for (_, cards) in g.zones() {
                assert!((seen & cards).is_empty(), "a card in two places");
                seen |= cards;
            }
            assert_eq!(seen, deck.all(), "seed {seed}: cards lost");
            g.legal_actions(&mut legal);
            let a = RandomAgent.choose(&g, seat, &legal, &mut rng);
            if let (Phase::Follow, Action::Play { card }) = (g.phase(), a) {
                let rules = g.contract().and_then(|c| c.follow).unwrap_or(flow.follow);
                assert_eq!(rules, g.follow_rules(), "the contract's follow rules");
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
                    if rules.head && suit(best) == suit(led) && follows.iter().any(|&c| beats(c)) {
                        assert!(beats(card), "must head the trick");
                    }
                } else if rules.trump && !of(trump).is_empty() {
                    assert_eq!(suit(card), trump, "void: must trump");
                    if rules.overtrump && suit(best) == trump && of(trump).iter().any(|&c| beats(c))
                    {
                        assert!(beats(card), "must overtrump");
                    }
                }
                if !g.contract().is_some_and(|c| c.trumps) {
                    assert!(!g.has_trumps(), "a contract without trumps has none");
                }
            }
            g.apply(a).unwrap();
            g.drain_events();
        }
        let h = &g.history()[0];
        let d = g.declarer().expect("every hand has a declarer");
        let c = g.contract().expect("a contract");
        let goal = c.goal;
        let taken = g.tricks(d);
        let lost: u32 = (0..3).filter(|&s| s != d).map(|s| g.tricks(s)).sum();
        let made = h.end.0 == "made";
        if goal.max_tricks == Some(0) {
            assert_eq!(made, taken == 0, "seed {seed}: the Bettler");
        }
        if goal.min_tricks == Some(TrickCount::All) {
            assert_eq!(made, lost == 0, "seed {seed}: every trick");
        }
        if let Some(p) = goal.points {
            assert_eq!(made, g.points(d) >= p, "seed {seed}: {p} points");
            if let Some(k) = goal.by_trick {
                assert!(taken + lost <= k, "seed {seed}: decided by trick {k}");
            }
        }
        for s in 0..3 {
            let expected = match (made, s == d) {
                (true, true) | (false, false) => c.value,
                _ => 0,
            };
            assert_eq!(h.points[s], expected, "seed {seed}: seat {s}");
        }
        *ends.entry((c.id.clone(), made)).or_insert(0) += 1;
    }
    // Random play reaches every contract, made and set (but a random Bettler or Gang is rare).
    assert!(ends.len() >= 6, "{ends:?}");
}

/// A game copied in place is the clone, and a search's world dealt in place is the fresh one,
/// in the auction, at the discard and in the middle of a trick.
#[test]
fn copies_and_worlds_of_a_dreierschnapsen_game() {
    let r = load("dreierschnapsen");
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
    for (seed, moves) in [(3, 1), (4, 3), (5, 6), (6, 12)] {
        crate::families::every_family_tests::assert_copy_is_clone(
            &begun(seed, moves),
            begun(9, 20),
            "dreierschnapsen",
        );
        crate::families::every_family_tests::assert_deal_in_place_is_fresh(
            &begun(seed, moves),
            begun(9, 20),
            "dreierschnapsen",
        );
    }
}
