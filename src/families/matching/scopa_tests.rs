//! Scopa and Scopone (`rulesets/scopa.toml`, `rulesets/scopone.toml`): worked examples of each
//! scoring rule with its source, a sweep made in play, and random games that conserve every
//! card, settle each hand by its points, score partners as one and end as the rules say.

use super::{MatchingGame, start};
use crate::core::{Event, Game as _, StartOptions, agent_rng, uniform_index};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{self, Ruleset};
use crate::yaku::{Circumstances, OwnSettlement, OwnSide, settle_own};
use std::fmt::Write as _;
use std::sync::Arc;

fn scopa() -> Arc<Ruleset> {
    Arc::new(ruleset::load("scopa").value.expect("scopa loads"))
}

fn scopone() -> Arc<Ruleset> {
    Arc::new(ruleset::load("scopone").value.expect("scopone loads"))
}

fn set(r: &Ruleset, ids: &str) -> CardSet {
    ids.split_whitespace()
        .map(|id| r.deck.card_by_id(id).unwrap_or_else(|| panic!("{id}")))
        .collect()
}

/// Two players' piles and sweeps settled as the game settles a played-out hand, shown step by
/// step.
fn settled(r: &Ruleset, piles: [&str; 2], sweeps: [u32; 2]) -> String {
    let sides: Vec<OwnSide> = (0..2)
        .map(|s| OwnSide {
            seats: vec![s],
            pile: set(r, piles[s]),
            fired: vec![sweeps[s]],
            dealt: Vec::new(),
            declared: Vec::new(),
        })
        .collect();
    let o = settle_own(
        r,
        2,
        &sides[..],
        |_| Circumstances::default(),
        OwnSettlement {
            explain: true,
            tallies: true,
            unclaimed: None,
        },
    );
    let mut out = String::new();
    for step in &o.steps {
        let _ = writeln!(
            out,
            "seat {}: {:<36} {:>3}",
            step.seat.unwrap(),
            step.reason,
            step.total
        );
    }
    let _ = writeln!(out, "points: {:?}", o.seats);
    out
}

#[test]
fn every_end_of_hand_point_of_a_scopa_hand() {
    // Seat 0 takes 22 cards with 6 coins and the Seven of Coins (settebello: coletti, "the 7 of
    // Denari, which is named Settebello and alone is worth 1 point"); seat 1 takes 18 and
    // sweeps twice (coletti: a scopa "is worth 1 point in the final score"). Primiera (the
    // primiera page's table): seat 0 shows 7, 7, 6 and 7 = 21 + 21 + 18 + 21 = 81, seat 1 shows
    // 6, 6, 7 and 6 = 18 + 18 + 21 + 18 = 75.
    let r = scopa();
    let zero = "coins-7 coins-ace coins-2 coins-3 coins-4 coins-jack \
                cups-7 cups-ace cups-2 cups-3 cups-jack cups-knight \
                swords-6 swords-ace swords-2 swords-king swords-knight \
                batons-7 batons-ace batons-2 batons-3 batons-jack";
    let one = "coins-6 coins-5 coins-knight coins-king \
               cups-5 cups-4 cups-6 cups-king \
               swords-7 swords-3 swords-4 swords-5 swords-jack \
               batons-6 batons-4 batons-5 batons-knight batons-king";
    insta::assert_snapshot!(settled(&r, [zero, one], [0, 2]), @r"
    seat 0: Settebello +1                          1
    seat 1: Scopa x2 +2                            2
    seat 0: most cards (22 to 18) +1               2
    seat 0: most coins (6 to 4) +1                 3
    seat 0: most primiera (81 to 75) +1            4
    points: [4, 2]
    ");
}

#[test]
fn ties_score_nobody_and_a_missing_suit_loses_primiera() {
    // 20 cards and 5 coins each: nobody scores either (pagat, as mirrored: "If there is a tie
    // for any of these, nobody scores that point"). Seat 0 holds three Sevens (the Seven of
    // Coins among them: settebello) but no Baton, so it cannot win primiera (the primiera page:
    // "Se un giocatore manca di una qualsiasi carta in un seme perde la primiera"); seat 1 shows
    // three Aces and a Seven, 16 + 16 + 16 + 21 = 69, and wins it.
    let r = scopa();
    let zero = "coins-7 coins-6 coins-5 coins-4 coins-3 \
                cups-7 cups-6 cups-5 cups-4 cups-3 cups-king cups-knight cups-jack \
                swords-7 swords-6 swords-5 swords-4 swords-3 swords-king swords-knight";
    let one = "coins-ace coins-2 coins-jack coins-knight coins-king \
               cups-ace cups-2 swords-ace swords-2 swords-jack \
               batons-ace batons-2 batons-3 batons-4 batons-5 batons-6 batons-7 \
               batons-jack batons-knight batons-king";
    insta::assert_snapshot!(settled(&r, [zero, one], [0, 0]), @r"
    seat 0: Settebello +1                          1
    seat 1: most primiera (69 to 0) +1             1
    points: [1, 1]
    ");
}

/// A deal for two with the first dealer at seat 0: `seat1` and `seat0` the three cards of each
/// hand, `table` the four on the table, then the rest of the pack in deck order.
pub(super) fn deal_order(r: &Ruleset, seat1: &str, seat0: &str, table: &str) -> Vec<CardId> {
    let (a, b, t) = (set(r, seat1), set(r, seat0), set(r, table));
    let (a, b, t): (Vec<CardId>, Vec<CardId>, Vec<CardId>) =
        (a.iter().collect(), b.iter().collect(), t.iter().collect());
    // Dealt one at a time to the other player, the dealer, the table, until the hands are full;
    // the fourth table card last.
    let mut order = Vec::new();
    for i in 0..3 {
        order.extend([a[i], b[i], t[i]]);
    }
    order.push(t[3]);
    let dealt: CardSet = order.iter().copied().collect();
    order.extend((r.deck.all() - dealt).iter());
    order
}

#[test]
fn a_sum_capture_that_empties_the_table_is_a_scopa() {
    // The table holds 1, 2, 3 and 4; the player after the dealer plays a King (10): no King on
    // the table, and the only set adding up to 10 is all four (coletti: "the card played must
    // have a value equal to the sum of all captured cards"): the table is empty, a scopa.
    let r = scopa();
    let order = deal_order(
        &r,
        "swords-king cups-5 batons-6",
        "coins-7 cups-7 swords-7",
        "coins-ace cups-2 swords-3 batons-4",
    );
    let options = StartOptions {
        seed: 1,
        deck_orders: vec![order],
        first_dealer: Some(0),
        log_events: true,
        rounds: Some(1),
        ..StartOptions::default()
    };
    let mut game = start(Arc::clone(&r), options).unwrap();
    assert_eq!(
        game.to_act(),
        Some(1),
        "the player after the dealer plays first"
    );
    let king = r.deck.card_by_id("swords-king").unwrap();
    game.apply(crate::core::Action::Play { card: king })
        .unwrap();
    let deck = &r.deck;
    let log: Vec<String> = game
        .drain_events()
        .iter()
        .filter_map(|e| match e {
            Event::Played {
                player,
                card,
                captured,
            } => Some(format!(
                "seat {player} plays {} taking {}",
                deck.id_of(*card),
                deck.ids(captured.iter().copied().collect()).join(" ")
            )),
            Event::TurnEvent { player, id, .. } => Some(format!("seat {player}: {id}")),
            _ => None,
        })
        .collect();
    insta::assert_snapshot!(log.join("\n"), @r"
    seat 1 plays swords-king taking coins-ace cups-2 swords-3 batons-4
    seat 1: scopa
    ");
    assert!(game.table().is_empty());
}

/// Plays random moves to the game's end, checking after each move that a scopa is counted
/// exactly when a capture empties the table with cards still to play.
fn random_game(r: &Arc<Ruleset>, seed: u64, rounds: Option<u32>) -> MatchingGame {
    random_game_at(r, seed, rounds, None)
}

/// [`random_game`] at a table of `seats` (the ruleset's default when `None`).
fn random_game_at(
    r: &Arc<Ruleset>,
    seed: u64,
    rounds: Option<u32>,
    seats: Option<usize>,
) -> MatchingGame {
    let options = StartOptions {
        seed,
        rounds,
        seats,
        log_events: true,
        ..StartOptions::default()
    };
    let mut game = start(Arc::clone(r), options).unwrap();
    let mut rng = agent_rng(seed);
    let mut legal = Vec::new();
    while game.to_act().is_some() {
        game.legal_actions(&mut legal);
        let seat = game.to_act().unwrap();
        let a = legal[uniform_index(legal.len(), &mut rng)];
        let taking = game.table();
        game.apply(a).unwrap();
        let new = game.drain_events();
        let captured = new
            .iter()
            .any(|e| matches!(e, Event::Played { captured, .. } if !captured.is_empty()));
        let scopa = new
            .iter()
            .any(|e| matches!(e, Event::TurnEvent { id, player, .. } if id == "scopa" && *player == seat));
        let hand_over = new.iter().any(|e| matches!(e, Event::HandEnded { .. }));
        if captured && !taking.is_empty() && !hand_over {
            // Still in the hand: a capture that leaves the table empty is a scopa.
            assert_eq!(scopa, game.table().is_empty(), "seed {seed}");
        }
        if hand_over && scopa {
            // The hand's last play is never one (coletti).
            let left: u32 = (0..game.seats()).map(|s| game.hand(s).len()).sum();
            assert!(left > 0, "seed {seed}: a scopa on the last play");
        }
    }
    assert!(game.error().is_none(), "{:?}", game.error());
    game
}

#[test]
fn random_hands_conserve_every_card_and_settle_by_their_points() {
    for (r, seats) in [(scopa(), 2), (scopone(), 4)] {
        for seed in 0..40 {
            let game = random_game(&r, seed, Some(1));
            // Every card ends in a pile: the last capturer takes the table.
            let piles = (0..seats).fold(CardSet::EMPTY, |u, s| u | game.captured(s));
            assert_eq!(piles, r.deck.all(), "{} seed {seed}", r.id);
            assert!(game.table().is_empty());
            let hand = &game.history()[0];
            let o = hand
                .outcome
                .as_ref()
                .expect("a settled hand explains itself");
            // Each seat's points are its steps' last running total (partners pooled).
            let mut last = vec![0i64; seats];
            for step in &o.steps {
                last[step.seat.unwrap()] = step.total;
            }
            if seats == 4 {
                // Scopone: partners share one score.
                let teams = [last[0] + last[2], last[1] + last[3]];
                assert_eq!(hand.points.to_vec(), [0, 1, 0, 1].map(|t| teams[t]));
            } else {
                assert_eq!(hand.points.to_vec(), last, "seed {seed}");
            }
            // Most cards, most coins, settebello and primiera are at most 4 points in all.
            let awards: i64 = o
                .steps
                .iter()
                .filter(|s| !s.reason.starts_with("Scopa"))
                .count() as i64;
            assert!(awards <= 4, "{:?}", o.steps);
        }
    }
}

#[test]
fn a_game_ends_with_one_side_ahead_at_eleven_or_more() {
    // pagat, as mirrored: "If both are equal, play further hands until one side has more points
    // at the end of a hand."
    for (r, seats) in [(scopa(), 2), (scopone(), 4)] {
        for seed in 0..25 {
            let game = random_game(&r, seed, None);
            let scores = game.scores();
            let top = *scores.iter().max().unwrap();
            assert!(top >= 11, "{} seed {seed}: {scores:?}", r.id);
            let leaders: Vec<usize> = (0..seats).filter(|&s| scores[s] == top).collect();
            let teams = r.matching().unwrap().teams;
            let team = teams.team_of(leaders[0]);
            assert!(
                leaders.iter().all(|&s| teams.team_of(s) == team),
                "{} seed {seed}: tied leaders {scores:?}",
                r.id
            );
            if seats == 4 {
                assert_eq!(scores[0], scores[2]);
                assert_eq!(scores[1], scores[3]);
            }
        }
    }
}

#[test]
fn napola_scores_the_run_of_coins_from_the_ace() {
    // spazioinwind: "Chi prende un Asso, il Tre e il Due di ori, segna 3 punti a suo favore; se
    // prende anche il 4, ne segna 4 e così via": Ace to Five of Coins is 5, the Seven (after a
    // gap) adds nothing to the run but is settebello.
    let r = Arc::new(ruleset::load("house/scopa-napola").value.expect("loads"));
    let zero = "coins-ace coins-2 coins-3 coins-4 coins-5 coins-7";
    let one = "cups-ace";
    insta::assert_snapshot!(settled(&r, [zero, one], [0, 0]), @r"
    seat 0: Settebello +1                          1
    seat 0: Napola +5                              6
    seat 0: most cards (6 to 1) +1                 7
    seat 0: most coins (6 to 0) +1                 8
    points: [8, 0]
    ");
}

/// The guide's Escoba rule file, read from the guide so that what it shows is what is tested.
fn escoba() -> Arc<Ruleset> {
    let guide = include_str!("../../../docs/src/authors/captures.md");
    let start = guide
        .find("```toml\n[ruleset]\nid = \"escoba\"")
        .expect("the guide shows the Escoba rule file");
    let text = &guide[start + "```toml\n".len()..];
    let text = &text[..text.find("```").expect("the block ends")];
    let loaded = ruleset::load_str("escoba.toml", text);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

#[test]
fn the_guides_escoba_captures_cards_that_make_fifteen() {
    let r = escoba();
    let value = |c: CardId| r.deck.attributes[0].values[c.index()];
    for seed in 0..20 {
        let options = StartOptions {
            seed,
            rounds: Some(1),
            log_events: true,
            ..StartOptions::default()
        };
        let mut game = start(Arc::clone(&r), options).unwrap();
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        while game.to_act().is_some() {
            game.legal_actions(&mut legal);
            game.apply(legal[uniform_index(legal.len(), &mut rng)])
                .unwrap();
            for e in game.drain_events() {
                if let Event::Played { card, captured, .. } = e
                    && !captured.is_empty()
                {
                    let total: i64 = value(card) + captured.iter().map(|&c| value(c)).sum::<i64>();
                    assert_eq!(total, 15, "seed {seed}");
                }
            }
        }
        let piles = game.captured(0) | game.captured(1);
        assert_eq!(piles, r.deck.all(), "seed {seed}");
    }
}

#[test]
fn three_players_are_dealt_the_pack_in_four_rounds_of_three() {
    // spazioinwind: "I GIOCATORI. Due o Tre, ognuno per sè": three hands of three and four on the
    // table, then three more each until the 40 cards are used (36 = 4 x 9).
    let r = scopa();
    for seed in 0..20 {
        let game = random_game_at(&r, seed, Some(1), Some(3));
        let piles = (0..3).fold(CardSet::EMPTY, |u, s| u | game.captured(s));
        assert_eq!(piles, r.deck.all(), "seed {seed}");
        assert_eq!(game.history()[0].points.len(), 3);
    }
}
