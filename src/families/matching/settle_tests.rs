//! Per-seat settlement: a scoring script that settles every seat itself (`seats`, `winner`),
//! hands that run out settled by the script (`exhausted = "settle"`), and the zero-sum check.

use crate::core::record::Record;
use crate::core::{Agent, Game as _, StartOptions, agent_rng};
use crate::families::{agent_by_name, replay};
use crate::ruleset::{self, Ruleset};
use std::sync::Arc;

/// Three players with hanafuda, no yaku and no stop: the hands run out, and each player scores
/// their card points against each other player's (what they took over the other's, summed),
/// so the points of a hand add up to zero.
const CAPTURES: &str = r#"
[ruleset]
id = "three-captures"
name = "Three-handed captures"
deck = "hanafuda"

[[tally]]
id = "card_points"
name = "Card points"
count = "sum(points)"

[flow]
style = "matching"
players = 3
min_players = 3
max_players = 3
hand_size = 7
table_size = 6
deal_packet = 1
deal_order = ["table", "others", "dealer"]
rounds = 3
first_dealer = "first"
next_dealer = "winner"
draw_dealer = "alternate"
exhausted = "settle"
both_instant = "play"

[scoring]
zero_sum = true
source = '''
fn score(hand) {
    let total = 0;
    for s in hand.seats { total += s.tallies.card_points; }
    let n = hand.seats.len();
    let seats = [];
    for s in hand.seats { seats.push(n * s.tallies.card_points - total); }
    #{ seats: seats }
}
'''
"#;

fn load(text: &str) -> Arc<Ruleset> {
    let loaded = ruleset::load_str("settle.toml", text);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

/// Plays a game with bots, recording every move.
fn played(r: &Arc<Ruleset>, players: &[&str], seed: u64) -> (Record, Box<dyn crate::core::Game>) {
    let names: Vec<String> = players.iter().map(|p| p.to_string()).collect();
    let mut record = Record::new(r, &r.id, Some(seed), &names, None);
    let options = StartOptions {
        seed,
        seats: Some(players.len()),
        ..StartOptions::default()
    };
    let mut game = crate::families::start(Arc::clone(r), options).unwrap();
    let mut agents: Vec<Box<dyn Agent>> = players
        .iter()
        .map(|p| agent_by_name(p, r).unwrap())
        .collect();
    let mut rng = agent_rng(seed);
    let mut legal = Vec::new();
    while let Some(seat) = game.to_act() {
        game.legal_actions(&mut legal);
        let a = agents[seat].choose(&*game, seat, &legal, &mut rng);
        record.push(seat, a, r);
        game.apply(a).unwrap();
    }
    record.sync(&*game);
    (record, game)
}

#[test]
fn every_seat_scores_its_own_captures_when_the_hands_run_out() {
    let r = load(CAPTURES);
    let mut won = 0;
    for seed in 0..20 {
        let (record, game) = played(&r, &["greedy", "random", "random"], seed);
        assert!(game.error().is_none(), "seed {seed}: {:?}", game.error());
        assert_eq!(game.history().len(), 3, "seed {seed}");
        for h in game.history() {
            assert_eq!(h.end.0, "settled", "seed {seed}");
            assert_eq!(h.points.iter().sum::<i64>(), 0, "seed {seed}: zero-sum");
            let o = h
                .outcome
                .as_ref()
                .expect("a settled hand keeps its outcome");
            assert_eq!(&o.seats[..], &*h.points, "seed {seed}");
            // The winner is the one seat with the most points, when there is one above zero.
            let best = *h.points.iter().max().unwrap();
            let top = h.points.iter().filter(|&&p| p == best).count();
            let expected =
                (best > 0 && top == 1).then(|| h.points.iter().position(|&p| p == best).unwrap());
            assert_eq!(h.winner, expected, "seed {seed}: {:?}", h.points);
            won += usize::from(h.winner.is_some());
        }
        // Recorded and replayed through JSON: the same hands.
        let back = Record::from_json(&record.to_json()).unwrap();
        let again = replay(&back, Arc::clone(&r)).unwrap();
        assert_eq!(again.history(), game.history(), "seed {seed}");
        assert_eq!(again.scores(), game.scores(), "seed {seed}");
    }
    assert!(won > 0, "some hands have a winner");
}

#[test]
fn a_settled_hand_pins_each_seat() {
    // One hand of seed 7, played by three greedy bots to the end of the stock: each seat's
    // card points (brights 20, animals 10, ribbons 5, plains 1), and its points, three times
    // its own less everything taken.
    let r = load(CAPTURES);
    let mut game = super::start(
        Arc::clone(&r),
        StartOptions {
            seed: 7,
            rounds: Some(1),
            ..StartOptions::default()
        },
    )
    .unwrap();
    let mut agents: Vec<Box<dyn Agent>> = (0..3)
        .map(|_| agent_by_name("greedy", &r).unwrap())
        .collect();
    crate::core::play_out(&mut game, &mut agents, &mut agent_rng(7)).unwrap();
    let h = &game.history()[0];
    let mut out = String::new();
    let mut total = 0;
    let value = r.deck.attributes.iter().find(|a| a.id == "points").unwrap();
    for seat in 0..3 {
        let pile = game.captured(seat);
        let points: i64 = pile.iter().map(|c| value.values[c.index()]).sum();
        total += points;
        out += &format!("seat {seat} took {} cards worth {points}\n", pile.len());
    }
    out += &format!("taken {total}, left on the table {}\n", game.table().len());
    out += &format!(
        "end {} winner {:?} points {:?}\n",
        h.end.0, h.winner, &*h.points
    );
    insta::assert_snapshot!(out);
}

#[test]
fn a_zero_sum_ruleset_whose_script_breaks_the_sum_is_stopped_naming_the_seats() {
    let broken = CAPTURES.replace(
        "seats.push(n * s.tallies.card_points - total);",
        "seats.push(s.tallies.card_points);",
    );
    let r = load(&broken);
    let (_, game) = played(&r, &["random", "random", "random"], 1);
    let e = game.error().expect("the hand breaks the sum").to_string();
    assert!(e.contains("zero-sum"), "{e}");
    for seat in ["seat 0 +", "seat 1 +", "seat 2 +"] {
        assert!(e.contains(seat), "{e}");
    }
    assert!(game.history().is_empty(), "the broken hand is not kept");
}

#[test]
fn a_script_that_names_a_seat_that_is_not_there_is_an_error() {
    let r = load(&CAPTURES.replace("#{ seats: seats }", "#{ seats: seats, winner: 3 }"));
    let (_, game) = played(&r, &["random", "random", "random"], 1);
    let e = game.error().expect("no seat 3").to_string();
    assert!(
        e.contains("`winner` 3") && e.contains("seats 0 to 2"),
        "{e}"
    );
    let r = load(&CAPTURES.replace("#{ seats: seats }", "#{ seats: [1, -1] }"));
    let (_, game) = played(&r, &["random", "random", "random"], 1);
    let e = game
        .error()
        .expect("two numbers for three seats")
        .to_string();
    assert!(e.contains("2 numbers for a table of 3 seats"), "{e}");
}

#[test]
fn settling_every_seat_needs_a_script() {
    let text = CAPTURES.split("[scoring]").next().unwrap();
    let loaded = ruleset::load_str("settle.toml", text);
    assert!(loaded.value.is_none());
    let messages: Vec<String> = loaded
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("needs a scoring script")),
        "{messages:?}"
    );
}
