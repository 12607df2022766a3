//! Counting out (`[flow] count_at_once`, issue 43, wall 10) on the test ruleset
//! tests/rulesets/count-out.toml (Scopa played "a punti": points count when they are made, first
//! to 11): a worked position where a sweep brings a player to the target in the middle of a
//! hand, and random games checked against a reference written here of the points each seat has
//! made for good (sweeps, the Settebello, and most cards, coins or primiera once no other seat
//! could still reach them).

use super::{MatchingGame, ends, start};
use crate::core::{Action, Event, Game as _, StartOptions, agent_rng, uniform_index};
use crate::deck::CardSet;
use crate::ruleset::{self, Ruleset};
use std::fmt::Write as _;
use std::sync::Arc;

const TARGET: i64 = 11;

fn count_out() -> Arc<Ruleset> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/rulesets/count-out.toml");
    let loaded = ruleset::load(path);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

/// The whole outcome of the guide's worked example: at 9 points, the Seven of Coins sweeps the
/// Ace of Cups, the Ace of Swords, the Two and the Three of Batons (1 + 1 + 2 + 3 = 7). The
/// scopa (+1) and the Settebello (+1: a yaku the pile keeps) make 11, and the game ends with
/// two cards in the sweeper's hand and three in the other's. The sweep bonus is refused: 9
/// points plus the Settebello is 10, within two of the target. At 5 points the same play earns
/// the bonus too and the game goes on.
#[test]
fn a_sweep_that_reaches_the_target_ends_the_game_in_the_hand() {
    let r = count_out();
    let text = include_str!("../../../tests/positions/count-out.toml")
        .replace("../rulesets/count-out.toml", "count-out");
    let play = |scores: &str| {
        let p = crate::families::position::Position::parse(
            &text.replace("scores = [9, 3]", &format!("scores = {scores}")),
        )
        .unwrap();
        crate::families::position::start(&p, Arc::clone(&r), true).unwrap()
    };
    let game = play("[9, 3]");
    assert_eq!(game.to_act(), None, "the game is over");
    insta::assert_snapshot!(outcome(&*game), @r"
    hand 1 counted_out, winner Some(0), points [2, 0]
    seat 0: Settebello +1 (total 1)
    seat 0: Scopa +1 (total 2)
    scores [11, 3]
    ");
    let mut game = play("[5, 3]");
    assert_eq!(game.to_act(), Some(1), "7 + the bonus is 8: play goes on");
    let events = game.drain_events();
    let fired: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::TurnEvent { id, .. } => Some(id.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(fired, ["scopa", "sweep-bonus"]);
}

/// Every hand of the game in one line each, then its steps and the scores.
fn outcome(game: &dyn crate::core::Game) -> String {
    let mut out = String::new();
    for h in game.history() {
        let _ = writeln!(
            out,
            "hand {} {}, winner {:?}, points {:?}",
            h.round,
            h.end.0,
            h.winner,
            h.points.to_vec()
        );
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
    let _ = writeln!(out, "scores {:?}", game.scores());
    out
}

/// The reference: the points `seat` has made this hand for good, from the piles and the turn
/// events it fired (`fired[seat]`: scopa, sweep bonus).
fn made_for_good(r: &Ruleset, game: &MatchingGame, fired: &[[i64; 2]], seat: usize) -> i64 {
    let seats = game.seats();
    let piles: Vec<CardSet> = (0..seats).map(|s| game.captured(s)).collect();
    let unclaimed = r.deck.all() - piles.iter().fold(CardSet::EMPTY, |u, &p| u | p);
    let seven = r.deck.card_by_id("coins-7").unwrap();
    let coins = r.deck.same_suit(seven);
    let prime = &r
        .deck
        .attributes
        .iter()
        .find(|a| a.id == "primiera")
        .unwrap()
        .values;
    // The primiera page: the best card of each suit, and nothing without all four suits.
    let primiera = |pile: CardSet| -> i64 {
        let best: Vec<i64> = r
            .deck
            .suits
            .iter()
            .filter_map(|s| (pile & s.cards).iter().map(|c| prime[c.index()]).max())
            .collect();
        if best.len() == 4 {
            best.iter().sum()
        } else {
            0
        }
    };
    let counts: [&dyn Fn(CardSet) -> i64; 3] = [
        &|p: CardSet| i64::from(p.len()),
        &|p: CardSet| i64::from((p & coins).len()),
        &primiera,
    ];
    let mut points = fired[seat][0] + fired[seat][1] + i64::from(piles[seat].contains(seven));
    for count in counts {
        let own = count(piles[seat]);
        if (0..seats)
            .filter(|&o| o != seat)
            .all(|o| own > count(piles[o] | unclaimed))
        {
            points += 1;
        }
    }
    points
}

/// Random games of two and three players: while a hand goes on no seat's score with the points
/// it made for good reaches 11; a hand counted out scores exactly those points and ends the
/// game with the counting seat at 11 or more; the sweep bonus comes with a scopa exactly while
/// the sweeper (with its points so far) is more than two points from 11.
#[test]
fn random_games_count_out_at_the_target() {
    let r = count_out();
    let (mut counted, mut bonus, mut refused) = (0, 0, 0);
    for seats in [2usize, 3] {
        for seed in 0..60 {
            let options = StartOptions {
                seed,
                seats: Some(seats),
                log_events: true,
                ..StartOptions::default()
            };
            let mut game = start(Arc::clone(&r), options).unwrap();
            let mut rng = agent_rng(seed);
            let mut legal = Vec::new();
            let mut fired = vec![[0i64; 2]; seats];
            while let Some(seat) = game.to_act() {
                game.legal_actions(&mut legal);
                let before = game.scores().to_vec();
                let a: Action = legal[uniform_index(legal.len(), &mut rng)];
                game.apply(a).unwrap();
                let events = game.drain_events();
                let fired_before = fired.clone();
                let mut end = None;
                for e in &events {
                    match e {
                        Event::TurnEvent { player, id, .. } => {
                            fired[*player][usize::from(id == "sweep-bonus")] += 1;
                        }
                        Event::HandEnded { end: e, .. } => end = Some(*e),
                        _ => {}
                    }
                }
                let same_hand = end.is_none_or(|e| e == ends::COUNTED_OUT);
                let scopa = fired[seat][0] > fired_before[seat][0];
                if same_hand && scopa {
                    let so_far = before[seat] + made_for_good(&r, &game, &fired_before, seat);
                    let gets = fired[seat][1] > fired_before[seat][1];
                    assert_eq!(gets, TARGET - so_far > 2, "seats {seats}, seed {seed}");
                    if gets { bonus += 1 } else { refused += 1 }
                }
                match end {
                    None => {
                        for s in 0..seats {
                            let running = game.scores()[s] + made_for_good(&r, &game, &fired, s);
                            assert!(running < TARGET, "seats {seats}, seed {seed}: seat {s}");
                        }
                    }
                    Some(e) if e == ends::COUNTED_OUT => {
                        counted += 1;
                        assert_eq!(game.to_act(), None, "the game ends at once");
                        let hand = game.history().last().unwrap();
                        for (s, was) in before.iter().enumerate() {
                            let made = made_for_good(&r, &game, &fired, s);
                            assert_eq!(hand.points[s], made, "seats {seats}, seed {seed}");
                            assert_eq!(game.scores()[s], was + made);
                        }
                        assert!(game.scores()[hand.winner.unwrap()] >= TARGET);
                    }
                    Some(_) => fired = vec![[0; 2]; seats],
                }
            }
            assert!(game.error().is_none(), "{:?}", game.error());
            let piles = (0..seats).fold(CardSet::EMPTY, |u, s| u | game.captured(s));
            let held = (0..seats).fold(game.table(), |u, s| u | game.hand(s));
            let stock: CardSet = game.stock().iter().copied().collect();
            assert_eq!(
                piles | held | stock,
                r.deck.all(),
                "every card is somewhere"
            );
        }
    }
    assert!(counted > 60, "most games are counted out: {counted}");
    assert!(bonus > 0 && refused > 0, "bonus {bonus}, refused {refused}");
}

/// `count_at_once` needs a game to a target and a hand settled seat by seat without a script.
#[test]
fn counting_out_needs_a_target_and_a_hand_settled_seat_by_seat() {
    let errors = |base: &str, extra: &str| {
        let text = format!(
            "[ruleset]\nid = \"t\"\nextends = \"{base}\"\n[flow]\ncount_at_once = true\n{extra}"
        );
        let loaded = ruleset::load_str("t.toml", &text);
        loaded
            .diagnostics
            .iter()
            .map(|d| d.message.clone())
            .collect::<Vec<_>>()
    };
    assert!(errors("scopa", "").is_empty(), "{:?}", errors("scopa", ""));
    assert_eq!(
        errors("koikoi", ""),
        ["`count_at_once` needs a game to a target score"]
    );
    assert_eq!(
        errors("scopa", "exhausted = \"draw\"\n"),
        ["`count_at_once` needs a hand settled seat by seat without a scoring script"]
    );
}

/// A game counted out is kept by its record: replayed from the record (without its seed: from
/// the deals it holds), it ends at the same move with the same hands and scores.
#[test]
fn a_counted_out_game_replays_from_its_record() {
    use crate::agent::{Agent, GreedyAgent, RandomAgent};
    use crate::core::record::Record;
    let r = count_out();
    let mut counted = 0;
    for seed in 0..10 {
        let options = StartOptions {
            seed,
            ..StartOptions::default()
        };
        let mut game: Box<dyn crate::core::Game> =
            Box::new(start(Arc::clone(&r), options).unwrap());
        let players: Vec<String> = ["greedy", "random"].map(String::from).into();
        let mut record = Record::new(&r, &r.id, Some(seed), &players, None);
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        while let Some(seat) = game.to_act() {
            game.legal_actions(&mut legal);
            let a = if seat == 0 {
                GreedyAgent.choose(&*game, seat, &legal, &mut rng)
            } else {
                RandomAgent.choose(&*game, seat, &legal, &mut rng)
            };
            record.push(seat, a, &r);
            game.apply(a).unwrap();
        }
        counted += game
            .history()
            .iter()
            .filter(|h| h.end == ends::COUNTED_OUT)
            .count();
        record.sync(&*game);
        let mut back = Record::from_json(&record.to_json()).unwrap();
        back.seed = None;
        let replayed = crate::families::replay(&back, Arc::clone(&r)).unwrap();
        assert_eq!(replayed.history(), game.history(), "seed {seed}");
        assert_eq!(replayed.scores(), game.scores(), "seed {seed}");
    }
    assert!(counted > 0, "some game is counted out");
}
