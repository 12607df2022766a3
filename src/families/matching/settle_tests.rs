//! What the core gives every matching ruleset beyond one winner a hand: per-seat settlement (a
//! scoring script that settles every seat itself, `seats` and `winner`; hands that run out
//! settled by the script, `exhausted = "settle"`; the zero-sum check), partnerships, values
//! carried between hands, and deal sizes by seat count.

use crate::core::record::Record;
use crate::core::{Agent, Game as _, StartOptions, agent_rng};
use crate::families::{agent_by_name, replay};
use crate::ruleset::{self, Ruleset};
use std::sync::Arc;

/// Three players with hanafuda, no yaku and no stop: the hands run out, and each player scores
/// their card points against each other player's (what they took over the other's, summed),
/// so the points of a hand add up to zero. The guide's example, read from the guide so that
/// what it shows is what is tested.
fn captures() -> String {
    let guide = include_str!("../../../docs/src/authors/settlement.md");
    let start = guide
        .find("```toml\n[ruleset]\nid = \"three-captures\"")
        .expect("the guide shows the three-player rule file");
    let text = &guide[start + "```toml\n".len()..];
    text[..text.find("```").expect("the block ends")].to_string()
}

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

/// One hand of `r` played by greedy bots at every seat, seeded with `seed`.
fn one_hand(r: &Arc<Ruleset>, seats: usize, seed: u64) -> super::MatchingGame {
    let mut game = super::start(
        Arc::clone(r),
        StartOptions {
            seed,
            rounds: Some(1),
            ..StartOptions::default()
        },
    )
    .unwrap();
    let mut agents: Vec<Box<dyn Agent>> = (0..seats)
        .map(|_| agent_by_name("greedy", r).unwrap())
        .collect();
    crate::core::play_out(&mut game, &mut agents, &mut agent_rng(seed)).unwrap();
    game
}

#[test]
fn every_seat_scores_its_own_captures_when_the_hands_run_out() {
    let r = load(&captures());
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
    let r = load(&captures());
    let game = one_hand(&r, 3, 7);
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
    let broken = captures().replace(
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
    let r = load(&captures().replace("#{ seats: seats }", "#{ seats: seats, winner: 3 }"));
    let (_, game) = played(&r, &["random", "random", "random"], 1);
    let e = game.error().expect("no seat 3").to_string();
    assert!(
        e.contains("`winner` 3") && e.contains("seats 0 to 2"),
        "{e}"
    );
    let r = load(&captures().replace("#{ seats: seats }", "#{ seats: [1, -1] }"));
    let (_, game) = played(&r, &["random", "random", "random"], 1);
    let e = game
        .error()
        .expect("two numbers for three seats")
        .to_string();
    assert!(e.contains("2 numbers for a table of 3 seats"), "{e}");
}

#[test]
fn without_a_script_every_seat_scores_its_count_against_a_par() {
    // The guide's game without its script: the card points tally has `par = 88` (Hachi-Hachi's
    // par: 264 card points in the deck, 88 for each of three players), and the table's last
    // cards go to the last player to capture, so every card is counted and each hand sums to 0.
    let whole = captures();
    let text = whole.split("[scoring]").next().unwrap().replace(
        "count = \"sum(points)\"          # brights 20, animals 10, ribbons 5, plains 1: 264 in all",
        "count = \"sum(points)\"\npar = 88",
    ).replace("exhausted = \"settle\"", "exhausted = \"settle\"\nleftover = \"last_capturer\"");
    assert!(text.contains("par = 88"), "{text}");
    let r = load(&text);
    let (record, game) = played(&r, &["greedy", "random", "random"], 5);
    assert!(game.error().is_none(), "{:?}", game.error());
    let history = game.history();
    assert_eq!(history.len(), 3);
    for hand in history {
        assert_eq!(hand.points.iter().sum::<i64>(), 0, "{:?}", hand.points);
        let steps = &hand
            .outcome
            .as_ref()
            .expect("a settled hand explains itself")
            .steps;
        assert_eq!(steps.len(), 3, "{steps:?}");
        for (seat, step) in steps.iter().enumerate() {
            assert_eq!(step.seat, Some(seat));
            assert_eq!(step.total, hand.points[seat], "{steps:?}");
            assert!(step.reason.starts_with("Card points "), "{}", step.reason);
            assert!(step.reason.contains(" against 88 "), "{}", step.reason);
        }
    }
    // The record replays to the same scores.
    let again = replay(&record, Arc::clone(&r)).unwrap();
    assert_eq!(again.scores(), game.scores());
}

/// Four players in two partnerships (seats 0 and 2 against 1 and 3): each partnership scores
/// its card points, taken together, against the other's.
const PARTNERS: &str = r#"
[ruleset]
id = "four-partners"
name = "Four in partnerships"
deck = "hanafuda"

[[tally]]
id = "card_points"
name = "Card points"
count = "sum(points)"

[flow]
style = "matching"
players = 4
min_players = 4
max_players = 4
teams = [[0, 2], [1, 3]]
hand_size = 5
table_size = 8
deal_packet = 1
deal_order = ["table", "others", "dealer"]
rounds = 2
first_dealer = "first"
next_dealer = "alternate"
draw_dealer = "alternate"
exhausted = "settle"
both_instant = "play"

[scoring]
zero_sum = true
source = '''
fn score(hand) {
    let seats = [];
    for i in 0..hand.seats.len() {
        let team = hand.seats[i].team;
        let mine = hand.teams[team].tallies.card_points;
        let theirs = hand.teams[1 - team].tallies.card_points;
        seats.push(if hand.teams[team].seats[0] == i { mine - theirs } else { 0 });
    }
    #{ seats: seats }
}
'''
"#;

#[test]
fn partners_share_one_score() {
    let r = load(PARTNERS);
    let mut decided = 0;
    for seed in 0..12 {
        let (record, game) = played(&r, &["greedy", "random", "greedy", "random"], seed);
        assert!(game.error().is_none(), "seed {seed}: {:?}", game.error());
        assert_eq!(game.history().len(), 2, "seed {seed}");
        for h in game.history() {
            let p = &h.points;
            assert_eq!(
                (p[0], p[1]),
                (p[2], p[3]),
                "seed {seed}: partners score alike"
            );
            assert_eq!(
                p[0], -p[1],
                "seed {seed}: the partnerships' points sum to zero"
            );
            decided += usize::from(p[0] != 0);
        }
        let s = game.scores();
        assert_eq!(
            (s[0], s[1]),
            (s[2], s[3]),
            "seed {seed}: one score per partnership"
        );
        let back = Record::from_json(&record.to_json()).unwrap();
        let again = replay(&back, Arc::clone(&r)).unwrap();
        assert_eq!(again.history(), game.history(), "seed {seed}");
    }
    assert!(decided > 0, "some hands are won");
}

#[test]
fn the_team_pile_is_what_the_partners_took_together() {
    let r = load(PARTNERS);
    let game = one_hand(&r, 4, 3);
    let value = r.deck.attributes.iter().find(|a| a.id == "points").unwrap();
    let points = |s: usize| -> i64 {
        game.captured(s)
            .iter()
            .map(|c| value.values[c.index()])
            .sum()
    };
    let (a, b) = (points(0) + points(2), points(1) + points(3));
    let h = &game.history()[0];
    assert_eq!(&*h.points, &[a - b, b - a, a - b, b - a]);
    insta::assert_snapshot!(format!(
        "seats 0 and 2 took {} + {} = {a}, seats 1 and 3 took {} + {} = {b}; points {:?}",
        points(0),
        points(2),
        points(1),
        points(3),
        &*h.points
    ));
}

#[test]
fn teams_must_seat_every_player_once_at_a_fixed_table() {
    for (teams, players, said) in [
        ("[[0, 2], [1, 2]]", "", "seat 2 is in two teams"),
        ("[[0, 2], [1]]", "", "seat 3 is in no team"),
        ("[[0, 4], [1, 3]]", "", "numbers from 0 to 3"),
        ("[0, 1]", "", "a team is an array of seats"),
        (
            "[[0, 2], [1, 3]]",
            "min_players = 2",
            "partnerships need a fixed table",
        ),
    ] {
        let mut text = PARTNERS.replace("teams = [[0, 2], [1, 3]]", &format!("teams = {teams}"));
        if !players.is_empty() {
            text = text.replace("min_players = 4", players);
        }
        let loaded = ruleset::load_str("partners.toml", &text);
        assert!(loaded.value.is_none(), "{teams}");
        let messages: Vec<String> = loaded
            .diagnostics
            .iter()
            .map(|d| d.message.clone())
            .collect();
        assert!(
            messages.iter().any(|m| m.contains(said)),
            "{teams}: {messages:?}"
        );
    }
}

/// [`captures`] with two carried values: the field, doubled every hand and read by the next
/// deal as its table count, and each seat's last result, read by the next hand's script.
fn carrying() -> String {
    captures()
        .replace(
            "[flow]\n",
            r#"[[carry]]
id = "field"
name = "Field"
initial = 1

[[carry]]
id = "last"
name = "Last hand's result"
per_seat = true

[flow]
table_count = "field"
"#,
        )
        .replace(
            "#{ seats: seats }",
            "#{ seats: seats, carry: #{ field: hand.table_count * 2, last: seats }, \
             steps: [#{ reason: `field ${hand.table_count}, last ${hand.carry.last}`, total: 0 }] }",
        )
}

#[test]
fn a_carried_value_is_read_by_the_next_deal_and_the_next_script() {
    let r = load(&carrying());
    let (record, game) = played(&r, &["greedy", "random", "random"], 5);
    assert!(game.error().is_none(), "{:?}", game.error());
    let mut last = vec![0i64; 3];
    for (k, h) in game.history().iter().enumerate() {
        let field = 1i64 << k;
        let o = h.outcome.as_ref().unwrap();
        assert_eq!(
            o.steps[0].reason,
            format!("field {field}, last {last:?}"),
            "hand {}: the deal counted the carried field, the script read the carried results",
            k + 1
        );
        assert_eq!(h.carried.get("field"), Some(&[field * 2][..]));
        assert_eq!(h.carried.get("last"), Some(&*h.points));
        last = h.points.to_vec();
    }
    let json = serde_json::to_value(&game.history()[0]).unwrap();
    assert_eq!(json["carried"]["field"], serde_json::json!([2]));
    let again = replay(
        &Record::from_json(&record.to_json()).unwrap(),
        Arc::clone(&r),
    )
    .unwrap();
    assert_eq!(again.history(), game.history());
}

#[test]
fn a_script_that_carries_what_the_ruleset_does_not_is_stopped() {
    for (write, said) in [
        ("fiedl: 2", "does not carry"),
        ("field: [1, 2, 3]", "for the table: one number"),
        ("last: 4", "per seat: an array of 3 numbers"),
        ("field: 2000000000", "stays between"),
    ] {
        let text = carrying().replace(
            "carry: #{ field: hand.table_count * 2, last: seats }",
            &format!("carry: #{{ {write} }}"),
        );
        let r = load(&text);
        let (_, game) = played(&r, &["random", "random", "random"], 1);
        let e = game.error().expect("the write is refused").to_string();
        assert!(e.contains(said), "{write}: {e}");
    }
    let loaded = ruleset::load_str(
        "carry.toml",
        &carrying().replace("id = \"last\"", "id = \"field\""),
    );
    assert!(loaded.value.is_none());
    assert!(
        loaded
            .diagnostics
            .iter()
            .any(|d| d.message.contains("`field` is already a name")),
        "{:?}",
        loaded.diagnostics
    );
}

#[test]
fn the_rule_sheet_says_who_partners_whom_what_is_carried_and_who_scores_a_played_out_hand() {
    let words = |r: &Ruleset| {
        let text = crate::sheet::text_sheet(r);
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let text = words(&load(PARTNERS));
    for said in [
        "Partners: seat 1 and seat 3 against seat 2 and seat 4.",
        "every player is scored on their own captures",
        "Every hand is zero-sum",
    ] {
        assert!(text.contains(said), "`{said}` in:\n{text}");
    }
    let text = words(&load(&carrying()));
    for said in [
        "Carried from one hand to the next",
        "Field: the table's, 1 at the start",
        "Last hand's result: each player's, 0 at the start",
    ] {
        assert!(text.contains(said), "`{said}` in:\n{text}");
    }
}

#[test]
fn the_deal_follows_the_seat_count() {
    // Go-Stop's deal (pagat "Deal"): seven each and six on the table with three players, ten
    // and eight with two.
    let text = r#"
[ruleset]
id = "two-or-three"
extends = "gostop"

[flow]
min_players = 2
max_players = 3

[[flow.deal_size]]
players = 2
hand_size = 10
table_size = 8
"#;
    let r = load(text);
    for (seats, hand, table) in [(2, 10, 8), (3, 7, 6)] {
        let game = super::start(
            Arc::clone(&r),
            StartOptions {
                seed: 4,
                seats: Some(seats),
                ..StartOptions::default()
            },
        )
        .unwrap();
        let dealt: Vec<u32> = (0..seats).map(|s| game.hand(s).len()).collect();
        assert_eq!(dealt, vec![hand; seats], "{seats} players");
        // Bonus cards dealt to the table go to the dealer and the table is filled again.
        assert_eq!(game.table().len(), table, "{seats} players");
    }
    let words = crate::sheet::text_sheet(&r);
    let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("With two players: ten cards to each hand and eight on the table."),
        "{words}"
    );
    for (extra, said) in [
        (
            "players = 4",
            "a deal for 4 players, but the table seats 2 to 3",
        ),
        ("players = 2", "a second deal for 2 players"),
    ] {
        let twice = format!("{text}\n[[flow.deal_size]]\n{extra}\nhand_size = 5\ntable_size = 4\n");
        let loaded = ruleset::load_str("two-or-three.toml", &twice);
        assert!(loaded.value.is_none(), "{extra}");
        assert!(
            loaded.diagnostics.iter().any(|d| d.message.contains(said)),
            "{extra}: {:?}",
            loaded.diagnostics
        );
    }
}

#[test]
fn a_combination_in_the_dealt_hand_is_scored_at_the_end_and_the_hand_played() {
    // The guide's game without its script, its card points against a par, and a dealt
    // combination played on (`ends = false`, a teyaku): here every dealt hand holds it.
    let whole = captures();
    let text = whole
        .split("[scoring]")
        .next()
        .unwrap()
        .replace(
            "count = \"sum(points)\"          # brights 20, animals 10, ribbons 5, plains 1: 264 in all",
            "count = \"sum(points)\"\npar = 88",
        )
        .replace(
            "exhausted = \"settle\"",
            "exhausted = \"settle\"\nleftover = \"last_capturer\"",
        )
        + "\n[[flow.instant_win]]\nid = \"dealt\"\nname = \"Any hand\"\nwhen = \"count(pile) == 7\"\npoints = 5\nends = false\n";
    let r = load(&text);
    assert!(r.matching().unwrap().instant_wins.is_empty());
    assert_eq!(r.matching().unwrap().dealt_yaku.len(), 1);
    let (_, game) = played(&r, &["random", "random", "random"], 3);
    assert!(game.error().is_none(), "{:?}", game.error());
    for hand in game.history() {
        // Played to the end, every seat credited with its dealt combination and its par.
        assert_eq!(hand.end, super::ends::SETTLED);
        assert_eq!(hand.points.iter().sum::<i64>(), 15, "{:?}", hand.points);
        let steps = &hand.outcome.as_ref().unwrap().steps;
        let dealt: Vec<_> = steps
            .iter()
            .filter(|s| s.reason == "Any hand (dealt) +5")
            .collect();
        assert_eq!(dealt.len(), 3, "{steps:?}");
    }
    let sheet = crate::sheet::text_sheet(&r);
    assert!(
        sheet.contains("5 points at the hand's end for a hand dealt"),
        "{sheet}"
    );
}

/// A ruleset of the authors' guide, read from it so that what it shows is what is tested: the
/// ```toml block that starts with `[ruleset]` and `id = "ID"` in `guide`.
fn guide_example(guide: &str, id: &str) -> String {
    let start = guide
        .find(&format!("```toml\n[ruleset]\nid = \"{id}\""))
        .unwrap_or_else(|| panic!("the guide shows `{id}`"));
    let text = &guide[start + "```toml\n".len()..];
    text[..text.find("```").expect("the block ends")].to_string()
}

#[test]
fn the_guides_field_set_at_the_deal_is_read_by_the_hand_and_carried_into_the_next() {
    let r = load(&guide_example(
        include_str!("../../../docs/src/authors/settlement.md"),
        "carried-field",
    ));
    for seed in 0..40 {
        let (_, game) = played(&r, &["random", "random", "random"], seed);
        assert!(game.error().is_none(), "{:?}", game.error());
        let mut next_before = 1;
        for hand in game.history() {
            let field = hand.carried.get("field").unwrap()[0];
            let next = hand.carried.get("next").unwrap()[0];
            // The hand's field is at least what the last hand carried into it.
            assert!(
                field >= next_before,
                "seed {seed}: {field} after {next_before}"
            );
            assert!((1..=2).contains(&field) && (1..=2).contains(&next));
            next_before = next;
        }
    }
    let sheet = crate::sheet::text_sheet(&r);
    assert!(sheet.contains("each deal sets it to"), "{sheet}");
}

#[test]
fn the_guides_four_at_the_table_drop_out_and_pay_and_the_dealer_always_plays() {
    let r = load(&guide_example(
        include_str!("../../../docs/src/authors/mechanisms.md"),
        "four-at-the-table",
    ));
    for seats in [3, 4, 5] {
        for seed in 0..10 {
            let players = vec!["greedy"; seats];
            let (record, game) = played(&r, &players, seed);
            assert!(game.error().is_none(), "{:?}", game.error());
            for hand in game.history() {
                assert_eq!(hand.points.iter().sum::<i64>(), 0, "seed {seed}");
            }
            // The record replays to the same scores.
            let again = replay(&record, Arc::clone(&r)).expect("the record replays");
            assert_eq!(again.scores(), game.scores(), "seed {seed}");
        }
    }
    // The dealer is never asked: its `drop` needs `is_dealer == 0`.
    let options = StartOptions {
        seed: 3,
        seats: Some(4),
        first_dealer: Some(1),
        rounds: Some(1),
        ..StartOptions::default()
    };
    let game = super::start(Arc::clone(&r), options).unwrap();
    assert_eq!(
        game.to_act(),
        Some(2),
        "the dealer played without being asked"
    );
    assert!(game.marks().playing >> 1 & 1 == 1);
}
