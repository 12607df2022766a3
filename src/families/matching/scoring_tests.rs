//! Worked examples that pin every scoring rule of the bundled rulesets, each traced to its rule
//! source (`../shared/seeds/001..004`, listed in each ruleset's header).
//!
//! Every example asserts its yaku, points and total explicitly and is also rendered into an insta
//! snapshot (`snapshots/`), so a wrong snapshot cannot be accepted without a failing `assert_eq!`.
//! The first half scores capture piles with [`scoring::evaluate`] and [`scoring::settle`], as
//! `yaku score` does; the second half plays crafted deals through the core ([`Game`]) for the
//! rules that live in the flow: instant wins, redeals, the table triple, capture choices, the
//! wild lightning and the dealer's privilege.

use super::{MatchingGame as Game, Phase, ends};
use crate::core::{Action, Event, Game as _, HandEnd, StartOptions};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{self, DealTarget, Exhausted, GameLength, MatchingFlow, Ruleset};
use crate::yaku::{self as scoring, Circumstances, FoundYaku, HandOutcome, Special};
use insta::assert_snapshot;
use std::fmt::Write as _;
use std::sync::Arc;

mod standard;

// ----- cards

/// The 24 one-point cards other than the Sake Cup, in deck order.
const CHAFF: [&str; 24] = [
    "pine-1",
    "pine-2",
    "plum-1",
    "plum-2",
    "cherry-1",
    "cherry-2",
    "wisteria-1",
    "wisteria-2",
    "iris-1",
    "iris-2",
    "peony-1",
    "peony-2",
    "clover-1",
    "clover-2",
    "pampas-1",
    "pampas-2",
    "chrysanthemum-1",
    "chrysanthemum-2",
    "maple-1",
    "maple-2",
    "willow-lightning",
    "paulownia-1",
    "paulownia-2",
    "paulownia-3",
];
/// The four brights other than the Rain Man.
const BRIGHTS: [&str; 4] = [
    "pine-crane",
    "cherry-curtain",
    "pampas-moon",
    "paulownia-phoenix",
];
const RAIN: &str = "willow-rainman";
const SAKE: &str = "chrysanthemum-sake";
/// The boar, the deer and the butterflies (inoshikacho).
const INO: [&str; 3] = ["clover-boar", "maple-deer", "peony-butterflies"];
/// Animals in no animal yaku, the Sake Cup excepted.
const OTHER_ANIMALS: [&str; 5] = [
    "plum-warbler",
    "wisteria-cuckoo",
    "iris-bridge",
    "pampas-geese",
    "willow-swallow",
];
/// The red poetry ribbons (akatan).
const POETRY: [&str; 3] = ["pine-poetry", "plum-poetry", "cherry-poetry"];
/// The blue ribbons (aotan).
const BLUE: [&str; 3] = ["peony-blue", "chrysanthemum-blue", "maple-blue"];
/// The red ribbons without writing.
const PLAIN_RED: [&str; 4] = [
    "wisteria-ribbon",
    "iris-ribbon",
    "clover-ribbon",
    "willow-ribbon",
];

/// The cards of several lists, in order.
fn cat<'a>(parts: &[&[&'a str]]) -> Vec<&'a str> {
    parts.iter().flat_map(|p| p.iter().copied()).collect()
}

// ----- scoring a pile

fn load(name: &str) -> Ruleset {
    ruleset::load(name)
        .value
        .unwrap_or_else(|| panic!("the bundled ruleset `{name}` loads"))
}

fn flow(r: &Ruleset) -> &MatchingFlow {
    r.matching().expect("a matching game")
}

fn card(r: &Ruleset, id: &str) -> CardId {
    r.deck
        .card_by_id(id)
        .unwrap_or_else(|| panic!("`{id}` is a card of {}", r.deck.id))
}

fn pile(r: &Ruleset, ids: &[&str]) -> CardSet {
    let mut set = CardSet::EMPTY;
    for id in ids {
        let c = card(r, id);
        assert!(!set.contains(c), "`{id}` is listed twice");
        set.insert(c);
    }
    set
}

/// A hand's circumstances with nothing special: round 1 of the ruleset's game length, as
/// `yaku score` assumes.
fn plain(r: &Ruleset) -> Circumstances {
    Circumstances {
        round: 1,
        rounds: match flow(r).length {
            GameLength::Rounds(n) => n,
            GameLength::Target { .. } => 0,
        },
        ..Circumstances::default()
    }
}

fn score(r: &Ruleset, ids: &[&str], c: &Circumstances) -> HandOutcome {
    let found = scoring::evaluate(r, pile(r, ids), c);
    scoring::settle(r, &found, None, c).expect("the bundled scoring script runs")
}

fn render_outcome(out: &mut String, o: &HandOutcome) {
    if o.yaku.is_empty() {
        let _ = writeln!(out, "yaku: none");
    } else {
        let _ = writeln!(out, "yaku:");
    }
    for y in &o.yaku {
        let _ = writeln!(out, "  {:<24} {:>3}   {}", y.id, y.points, y.name);
    }
    let _ = writeln!(out, "base: {}", o.base);
    for s in &o.steps {
        let _ = writeln!(out, "  {} -> {}", s.reason, s.total);
    }
    let _ = writeln!(out, "total: {}", o.total);
    if o.opponent != 0 {
        let _ = writeln!(out, "opponent: {}", o.opponent);
    }
}

fn render_circumstances(out: &mut String, c: &Circumstances) {
    let rounds = if c.rounds == 0 {
        " (a game to a target score)".to_string()
    } else {
        format!(" of {}", c.rounds)
    };
    let _ = writeln!(
        out,
        "koi-koi calls: {} own, {} opponent's; table count {}; round {}{rounds}; dealer: {}",
        c.calls_self,
        c.calls_opponent,
        c.table_count,
        c.round,
        if c.dealer { "yes" } else { "no" }
    );
}

/// Scores `ids` in `r`, asserts the yaku that count (in table order) and the total, and renders
/// the example for a snapshot.
fn example(
    r: &Ruleset,
    what: &str,
    ids: &[&str],
    c: Circumstances,
    yaku: &[(&str, i64)],
    total: i64,
) -> String {
    let o = score(r, ids, &c);
    let found: Vec<(&str, i64)> = o.yaku.iter().map(|y| (y.id.as_str(), y.points)).collect();
    assert_eq!(found, yaku, "{}: {what}: the yaku", r.id);
    assert_eq!(o.total, total, "{}: {what}: the total", r.id);
    let mut out = String::new();
    let _ = writeln!(out, "## {what} ({})", r.id);
    let set = pile(r, ids);
    let _ = writeln!(out, "pile ({}): {}", set.len(), r.deck.ids(set).join(", "));
    render_circumstances(&mut out, &c);
    render_outcome(&mut out, &o);
    out.push('\n');
    out
}

// ----- source 002's worked example

/// 002 "Koi-Koi rules": "if they have 12 plain cards and all 3 blue ribbons with one Koi-Koi
/// having been called during the round, they get (3+6)·(1+1) = 18 points" — a call by either
/// player counts.
#[test]
fn ktane_worked_example_12_plains_3_blue_ribbons_one_koikoi_is_18() {
    let r = load("koikoi-ktane");
    let cards = cat(&[&CHAFF[..12], &BLUE]);
    let yaku = [("plains", 3), ("blue-ribbons", 6)];
    let mut s = example(
        &r,
        "12 plains, 3 blue ribbons, the winner called koi-koi once",
        &cards,
        Circumstances {
            calls_self: 1,
            ..plain(&r)
        },
        &yaku,
        18,
    );
    s += &example(
        &r,
        "the same pile, the other player called koi-koi once",
        &cards,
        Circumstances {
            calls_opponent: 1,
            ..plain(&r)
        },
        &yaku,
        18,
    );
    s += &example(&r, "the same pile, no koi-koi", &cards, plain(&r), &yaku, 9);
    assert_snapshot!("ktane_worked_example_12_plains_3_blue_one_koikoi_is_18", s);
}

// ----- the standard yaku table: koikoi (003, 004) and koikoi-classic, which inherits it

use standard::{Std, standard_cases};

fn pin_standard(name: &str, total: impl Fn(&Std) -> i64) {
    let r = load(name);
    for (snapshot, cases) in standard_cases() {
        let mut s = String::new();
        for e in &cases {
            s += &example(&r, e.what, &e.cards, plain(&r), &e.yaku, total(e));
        }
        assert_snapshot!(format!("{}_{snapshot}", name.replace('-', "_")), s);
    }
}

/// 003 "Yaku Listing" and 004 "Yaku" in `koikoi`, with 003 "Play"'s doubling at 7 or more.
#[test]
fn koikoi_every_yaku_at_threshold_and_one_card_past() {
    pin_standard("koikoi", |e| e.koikoi);
}

/// The same table in `koikoi-classic` (001 gives no values; the ruleset inherits 003's), where
/// no 7-point doubling applies.
#[test]
fn classic_every_yaku_at_threshold_and_one_card_past() {
    pin_standard("koikoi-classic", |e| e.classic);
}

// ----- koikoi-ktane's yaku table (002 Appendix Y)

/// Renders a list of `(what, cards, circumstances, yaku, total)` examples in one ruleset.
type Case<'a> = (
    &'a str,
    Vec<&'a str>,
    Circumstances,
    Vec<(&'a str, i64)>,
    i64,
);

fn pin(name: &str, snapshot: &str, cases: impl FnOnce(&Ruleset) -> Vec<Case<'static>>) {
    let r = load(name);
    let mut s = String::new();
    for (what, cards, c, yaku, total) in cases(&r) {
        s += &example(&r, what, &cards, c, &yaku, total);
    }
    assert_snapshot!(snapshot, s);
}

/// 002 Appendix Y, "Bright yakus: This group is mutually exclusive": 6, 7, 8, 15.
#[test]
fn ktane_brights_group() {
    pin(
        "koikoi-ktane",
        "ktane_brights_group_three_6_with_rain_7_beats_three_four_8_five_15",
        |r| {
            vec![
                (
                    "two brights and Rain: no yaku",
                    cat(&[&BRIGHTS[..2], &[RAIN]]),
                    plain(r),
                    vec![],
                    0,
                ),
                (
                    "three brights without Rain: three brights 6",
                    cat(&[&BRIGHTS[..3]]),
                    plain(r),
                    vec![("three-brights", 6)],
                    6,
                ),
                (
                    "Rain + 3 other brights: four brights with rain 7 beats three brights 6; \
                     no 7-point doubling in 002",
                    cat(&[&BRIGHTS[..3], &[RAIN]]),
                    plain(r),
                    vec![("four-brights-with-rain", 7)],
                    7,
                ),
                (
                    "four brights without Rain: four brights 8",
                    cat(&[&BRIGHTS]),
                    plain(r),
                    vec![("four-brights", 8)],
                    8,
                ),
                (
                    "all five brights: five brights 15",
                    cat(&[&BRIGHTS, &[RAIN]]),
                    plain(r),
                    vec![("five-brights", 15)],
                    15,
                ),
            ]
        },
    );
}

/// 002 Appendix Y, "Other yakus": plains, ribbons and animals at their thresholds and one past;
/// 002 "Hanafuda cards": "The Sake Cup is both a plain and an animal".
#[test]
fn ktane_plains_ribbons_animals() {
    pin(
        "koikoi-ktane",
        "ktane_plains_10_is_1_ribbons_5_is_1_animals_5_is_1_plus_1_per_card_sake_cup_both",
        |r| {
            vec![
                (
                    "nine plains: no yaku",
                    cat(&[&CHAFF[..9]]),
                    plain(r),
                    vec![],
                    0,
                ),
                (
                    "ten plains: plains 1",
                    cat(&[&CHAFF[..10]]),
                    plain(r),
                    vec![("plains", 1)],
                    1,
                ),
                (
                    "eleven plains: plains 2",
                    cat(&[&CHAFF[..11]]),
                    plain(r),
                    vec![("plains", 2)],
                    2,
                ),
                (
                    "four ribbons: no yaku",
                    cat(&[&PLAIN_RED]),
                    plain(r),
                    vec![],
                    0,
                ),
                (
                    "five ribbons: ribbons 1",
                    cat(&[&PLAIN_RED, &POETRY[..1]]),
                    plain(r),
                    vec![("ribbons", 1)],
                    1,
                ),
                (
                    "six ribbons: ribbons 2",
                    cat(&[&PLAIN_RED, &POETRY[..2]]),
                    plain(r),
                    vec![("ribbons", 2)],
                    2,
                ),
                (
                    "four animals: no yaku",
                    cat(&[&OTHER_ANIMALS[..4]]),
                    plain(r),
                    vec![],
                    0,
                ),
                (
                    "five animals: animals 1",
                    cat(&[&OTHER_ANIMALS]),
                    plain(r),
                    vec![("animals", 1)],
                    1,
                ),
                (
                    "six animals: animals 2",
                    cat(&[&OTHER_ANIMALS, &["peony-butterflies"]]),
                    plain(r),
                    vec![("animals", 2)],
                    2,
                ),
                (
                    "four animals, the Sake Cup, nine plains: plains 1 and animals 1 at once",
                    cat(&[&OTHER_ANIMALS[..4], &[SAKE], &CHAFF[..9]]),
                    plain(r),
                    vec![("plains", 1), ("animals", 1)],
                    2,
                ),
            ]
        },
    );
}

/// 002 Appendix Y: poetry ribbons, blue ribbons and boar-deer-butterflies are a flat 6, with no
/// point per extra card and no group: they add up with ribbons, animals and each other.
#[test]
fn ktane_flat_six_point_yaku() {
    pin(
        "koikoi-ktane",
        "ktane_poetry_blue_boar_deer_butterflies_flat_6_and_cumulative",
        |r| {
            vec![
                (
                    "three poetry ribbons: poetry ribbons 6",
                    cat(&[&POETRY]),
                    plain(r),
                    vec![("poetry-ribbons", 6)],
                    6,
                ),
                (
                    "one more ribbon: still 6",
                    cat(&[&POETRY, &PLAIN_RED[..1]]),
                    plain(r),
                    vec![("poetry-ribbons", 6)],
                    6,
                ),
                (
                    "two more ribbons: ribbons 1 and poetry ribbons 6",
                    cat(&[&POETRY, &PLAIN_RED[..2]]),
                    plain(r),
                    vec![("ribbons", 1), ("poetry-ribbons", 6)],
                    7,
                ),
                (
                    "three blue ribbons: blue ribbons 6",
                    cat(&[&BLUE]),
                    plain(r),
                    vec![("blue-ribbons", 6)],
                    6,
                ),
                (
                    "one more ribbon: still 6",
                    cat(&[&BLUE, &PLAIN_RED[..1]]),
                    plain(r),
                    vec![("blue-ribbons", 6)],
                    6,
                ),
                (
                    "poetry and blue ribbons: ribbons 2, poetry 6, blue 6",
                    cat(&[&POETRY, &BLUE]),
                    plain(r),
                    vec![("ribbons", 2), ("poetry-ribbons", 6), ("blue-ribbons", 6)],
                    14,
                ),
                (
                    "boar, deer, butterflies: 6",
                    cat(&[&INO]),
                    plain(r),
                    vec![("boar-deer-butterflies", 6)],
                    6,
                ),
                (
                    "one more animal: still 6",
                    cat(&[&INO, &OTHER_ANIMALS[..1]]),
                    plain(r),
                    vec![("boar-deer-butterflies", 6)],
                    6,
                ),
                (
                    "two more animals: animals 1 and boar-deer-butterflies 6",
                    cat(&[&INO, &OTHER_ANIMALS[..2]]),
                    plain(r),
                    vec![("animals", 1), ("boar-deer-butterflies", 6)],
                    7,
                ),
            ]
        },
    );
}

/// 002 Appendix Y: cherry blossom viewing and moon viewing, 5 each, cumulative.
#[test]
fn ktane_viewing_yaku() {
    pin(
        "koikoi-ktane",
        "ktane_cherry_blossom_and_moon_viewing_5_each_cumulative",
        |r| {
            vec![
                (
                    "the Moon and the Sake Cup: moon viewing 5",
                    vec!["pampas-moon", SAKE],
                    plain(r),
                    vec![("moon-viewing", 5)],
                    5,
                ),
                (
                    "the Curtain and the Sake Cup: cherry blossom viewing 5",
                    vec!["cherry-curtain", SAKE],
                    plain(r),
                    vec![("cherry-blossom-viewing", 5)],
                    5,
                ),
                (
                    "both: 10",
                    vec!["cherry-curtain", "pampas-moon", SAKE],
                    plain(r),
                    vec![("cherry-blossom-viewing", 5), ("moon-viewing", 5)],
                    10,
                ),
            ]
        },
    );
}

/// 002 Appendix Y: "In a 12-round game ... collecting all 4 cards representing the current
/// round's month counts as a 4 point yaku" — not in the module's 3-round game.
#[test]
fn ktane_month_yaku() {
    let twelve = |round| Circumstances {
        round,
        rounds: 12,
        ..Circumstances::default()
    };
    let cherry = vec!["cherry-curtain", "cherry-poetry", "cherry-1", "cherry-2"];
    // The suit order is the month order of 002 Appendix H: willow is month 11, paulownia 12.
    let paulownia = vec![
        "paulownia-phoenix",
        "paulownia-1",
        "paulownia-2",
        "paulownia-3",
    ];
    pin(
        "koikoi-ktane",
        "ktane_month_yaku_4_for_all_four_of_the_rounds_month_only_in_12_round_games",
        |r| {
            vec![
                (
                    "round 3 of 12, three March cards: no yaku",
                    cherry[..3].to_vec(),
                    twelve(3),
                    vec![],
                    0,
                ),
                (
                    "round 3 of 12, all four March cards: month 4",
                    cherry.clone(),
                    twelve(3),
                    vec![("month", 4)],
                    4,
                ),
                (
                    "round 4 of 12, all four March cards: not April's month, no yaku",
                    cherry.clone(),
                    twelve(4),
                    vec![],
                    0,
                ),
                (
                    "round 3 of the module's 3, all four March cards: no yaku",
                    cherry.clone(),
                    Circumstances {
                        round: 3,
                        ..plain(r)
                    },
                    vec![],
                    0,
                ),
                (
                    "round 11 of 12, all four November (willow) cards: month 4",
                    vec![
                        "willow-rainman",
                        "willow-swallow",
                        "willow-ribbon",
                        "willow-lightning",
                    ],
                    twelve(11),
                    vec![("month", 4)],
                    4,
                ),
                (
                    "round 12 of 12, all four December (paulownia) cards: month 4",
                    paulownia.clone(),
                    twelve(12),
                    vec![("month", 4)],
                    4,
                ),
                (
                    "round 12 of 12, all four December cards, one koi-koi: (4)·(1+1)",
                    paulownia.clone(),
                    Circumstances {
                        calls_self: 1,
                        ..twelve(12)
                    },
                    vec![("month", 4)],
                    8,
                ),
            ]
        },
    );
}

// ----- multipliers

/// 003 "Play", 004: yaku totaling 7 or more score double; beating an opponent who called
/// koi-koi doubles; both together quadruple. The winner's own koi-koi calls multiply nothing.
#[test]
fn koikoi_doubling_at_7_and_for_opponents_koikoi() {
    let six = cat(&[&INO, &OTHER_ANIMALS[..1]]);
    let seven = cat(&[&INO, &OTHER_ANIMALS[..2]]);
    pin(
        "koikoi",
        "koikoi_doubling_x2_at_7_x2_opponent_koikoi_x4_both_own_koikoi_nothing",
        |r| {
            vec![
                (
                    "6 points: not doubled",
                    six.clone(),
                    plain(r),
                    vec![("inoshikacho", 6)],
                    6,
                ),
                (
                    "7 points: doubled",
                    seven.clone(),
                    plain(r),
                    vec![("inoshikacho", 7)],
                    14,
                ),
                (
                    "6 points, the opponent had called koi-koi: doubled",
                    six.clone(),
                    Circumstances {
                        calls_opponent: 1,
                        ..plain(r)
                    },
                    vec![("inoshikacho", 6)],
                    12,
                ),
                (
                    "7 points, the opponent had called koi-koi: quadrupled",
                    seven.clone(),
                    Circumstances {
                        calls_opponent: 1,
                        ..plain(r)
                    },
                    vec![("inoshikacho", 7)],
                    28,
                ),
                (
                    "7 points, the opponent had called koi-koi twice: still quadrupled",
                    seven.clone(),
                    Circumstances {
                        calls_opponent: 2,
                        ..plain(r)
                    },
                    vec![("inoshikacho", 7)],
                    28,
                ),
                (
                    "6 points after the winner's own two koi-koi calls: not multiplied",
                    six.clone(),
                    Circumstances {
                        calls_self: 2,
                        ..plain(r)
                    },
                    vec![("inoshikacho", 6)],
                    6,
                ),
                (
                    "002's example pile (12 plains, 3 blue) after one own koi-koi: \
                     kasu 3 + aotan 5 = 8, doubled for 7+ only",
                    cat(&[&CHAFF[..12], &BLUE]),
                    Circumstances {
                        calls_self: 1,
                        ..plain(r)
                    },
                    vec![("aotan", 5), ("kasu", 3)],
                    16,
                ),
            ]
        },
    );
}

/// 002 "Koi-Koi rules": p·(k+1), k the koi-koi calls of either player; no 7-point doubling.
#[test]
fn ktane_p_times_k_plus_1_counting_both_players_calls() {
    let six = cat(&[&BLUE]);
    let calls = |own, theirs| Circumstances {
        calls_self: own,
        calls_opponent: theirs,
        round: 1,
        rounds: 3,
        ..Circumstances::default()
    };
    pin(
        "koikoi-ktane",
        "ktane_score_p_times_k_plus_1_k_counts_both_players_calls",
        |_| {
            vec![
                (
                    "6 points, no calls",
                    six.clone(),
                    calls(0, 0),
                    vec![("blue-ribbons", 6)],
                    6,
                ),
                (
                    "6 points, one call by the other player: x2",
                    six.clone(),
                    calls(0, 1),
                    vec![("blue-ribbons", 6)],
                    12,
                ),
                (
                    "6 points, one call each: x3",
                    six.clone(),
                    calls(1, 1),
                    vec![("blue-ribbons", 6)],
                    18,
                ),
                (
                    "6 points, two own calls and one by the other player: x4",
                    six.clone(),
                    calls(2, 1),
                    vec![("blue-ribbons", 6)],
                    24,
                ),
            ]
        },
    );
}

/// 001: one 20-point card face up after the deal doubles the score, two triple it, three
/// quadruple it; winning after koi-koi doubles, twice triples, three times quadruples. 001 has
/// no 7-point doubling and no doubling for the opponent's koi-koi.
#[test]
fn classic_table_brights_and_koikoi_multipliers() {
    let five = cat(&[&POETRY]);
    let seven = cat(&[&POETRY, &PLAIN_RED[..2]]);
    let at = |table_count, own, theirs| Circumstances {
        calls_self: own,
        calls_opponent: theirs,
        table_count,
        round: 1,
        ..Circumstances::default()
    };
    pin(
        "koikoi-classic",
        "classic_table_brights_x2_x3_x4_koikoi_x_n_plus_1_combined",
        |_| {
            vec![
                (
                    "5 points, nothing special",
                    five.clone(),
                    at(0, 0, 0),
                    vec![("akatan", 5)],
                    5,
                ),
                (
                    "7 points: not doubled in 001",
                    seven.clone(),
                    at(0, 0, 0),
                    vec![("akatan", 7)],
                    7,
                ),
                (
                    "one bright on the table: x2",
                    five.clone(),
                    at(1, 0, 0),
                    vec![("akatan", 5)],
                    10,
                ),
                (
                    "two brights on the table: x3",
                    five.clone(),
                    at(2, 0, 0),
                    vec![("akatan", 5)],
                    15,
                ),
                (
                    "three brights on the table: x4",
                    five.clone(),
                    at(3, 0, 0),
                    vec![("akatan", 5)],
                    20,
                ),
                (
                    "one own koi-koi: x2",
                    five.clone(),
                    at(0, 1, 0),
                    vec![("akatan", 5)],
                    10,
                ),
                (
                    "two own koi-koi: x3",
                    five.clone(),
                    at(0, 2, 0),
                    vec![("akatan", 5)],
                    15,
                ),
                (
                    "three own koi-koi: x4",
                    five.clone(),
                    at(0, 3, 0),
                    vec![("akatan", 5)],
                    20,
                ),
                (
                    "one bright on the table and two own koi-koi: x2 then x3",
                    five.clone(),
                    at(1, 2, 0),
                    vec![("akatan", 5)],
                    30,
                ),
                (
                    "the opponent had called koi-koi: no multiplier in 001",
                    five.clone(),
                    at(0, 0, 1),
                    vec![("akatan", 5)],
                    5,
                ),
            ]
        },
    );
}

// ----- instant wins and the dealer's privilege, settled directly

/// Settles each of the ruleset's instant wins as the core does, under `c`.
fn settle_instants(name: &str, c: Circumstances, out: &mut String) {
    let r = load(name);
    let wins = &flow(&r).instant_wins;
    assert_eq!(wins.len(), 2, "{name}: teshi and kuttsuki");
    for w in wins {
        let special = Special::Instant(FoundYaku {
            id: w.id.clone(),
            name: w.name.clone(),
            points: w.points,
        });
        let o = scoring::settle(&r, &Default::default(), Some(&special), &c).unwrap();
        assert_eq!(o.base, 6, "{name}: {}", w.id);
        assert_eq!(o.total, 6, "{name}: {}", w.id);
        assert!(o.steps.is_empty(), "{name}: {}: no multiplier", w.id);
        let _ = writeln!(out, "## {} ({name})", w.id);
        render_circumstances(out, &c);
        render_outcome(out, &o);
        out.push('\n');
    }
}

/// 003 "Instant Wins and Redeals", 004 "How to play", 002 "Lucky Hands", 001: four of a month
/// or four pairs dealt to a hand score 6, with no multiplier (not even 001's table brights).
#[test]
fn instant_wins_score_6_in_every_ruleset() {
    let mut s = String::new();
    for name in ["koikoi", "koikoi-ktane"] {
        let r = load(name);
        settle_instants(name, plain(&r), &mut s);
    }
    let classic = load("koikoi-classic");
    settle_instants("koikoi-classic", plain(&classic), &mut s);
    settle_instants(
        "koikoi-classic",
        Circumstances {
            table_count: 2,
            ..plain(&classic)
        },
        &mut s,
    );
    assert_snapshot!("instant_wins_teshi_kuttsuki_score_6_in_every_ruleset", s);
}

/// House rule oya-ken: exhausted hands give the dealer 6 (settled as the core does).
#[test]
fn house_dealer_privilege_exhausted_hand_scores_6() {
    let r = load("house/dealer-privilege");
    let Exhausted::DealerScores(points) = flow(&r).exhausted else {
        panic!("dealer-privilege makes the dealer score exhausted hands");
    };
    assert_eq!(points, 6);
    assert_eq!(flow(&load("koikoi")).exhausted, Exhausted::Draw);
    let c = Circumstances {
        dealer: true,
        ..plain(&r)
    };
    let o = scoring::settle(
        &r,
        &Default::default(),
        Some(&Special::Exhausted(points)),
        &c,
    )
    .unwrap();
    assert_eq!(o.total, 6);
    let mut s = String::new();
    render_circumstances(&mut s, &c);
    render_outcome(&mut s, &o);
    assert_snapshot!("house_dealer_privilege_exhausted_hand_dealer_scores_6", s);
}

// ----- house rules

/// 003 "Special Cards": "Some rules allow the Sake Cup to count as a 10-point card and two
/// 1-point cards at the same time."
#[test]
fn house_sake_two_plains() {
    let house = load("house/sake-two-plains");
    let standard = load("koikoi");
    let eight_and_sake = cat(&[&CHAFF[..8], &[SAKE]]);
    let nine_and_sake = cat(&[&CHAFF[..9], &[SAKE]]);
    let mut s = String::new();
    s += &example(
        &standard,
        "eight plains and the Sake Cup: nine plains, no yaku",
        &eight_and_sake,
        plain(&standard),
        &[],
        0,
    );
    s += &example(
        &house,
        "eight plains and the Sake Cup counting twice: ten, kasu 1",
        &eight_and_sake,
        plain(&house),
        &[("kasu", 1)],
        1,
    );
    s += &example(
        &standard,
        "nine plains and the Sake Cup: ten plains, kasu 1",
        &nine_and_sake,
        plain(&standard),
        &[("kasu", 1)],
        1,
    );
    s += &example(
        &house,
        "nine plains and the Sake Cup counting twice: eleven, kasu 2",
        &nine_and_sake,
        plain(&house),
        &[("kasu", 2)],
        2,
    );
    s += &example(
        &house,
        "nine plains alone: no yaku, only the Sake Cup counts twice",
        &CHAFF[..9],
        plain(&house),
        &[],
        0,
    );
    s += &example(
        &house,
        "four animals and the Sake Cup: still an animal, tane 1",
        &cat(&[&OTHER_ANIMALS[..4], &[SAKE]]),
        plain(&house),
        &[("tane", 1)],
        1,
    );
    assert_snapshot!("house_sake_two_plains_sake_cup_counts_as_two_plains", s);
}

/// House rule: no doubling at 7 or more, but the opponent's koi-koi still doubles (003 "Play").
#[test]
fn house_no_seven_doubling() {
    let seven = cat(&[&INO, &OTHER_ANIMALS[..2]]);
    let six = cat(&[&INO, &OTHER_ANIMALS[..1]]);
    pin(
        "house/no-seven-doubling",
        "house_no_seven_doubling_7_not_doubled_opponent_koikoi_still_doubles",
        |r| {
            vec![
                (
                    "7 points: not doubled",
                    seven.clone(),
                    plain(r),
                    vec![("inoshikacho", 7)],
                    7,
                ),
                (
                    "goko 10: not doubled",
                    cat(&[&BRIGHTS, &[RAIN]]),
                    plain(r),
                    vec![("goko", 10)],
                    10,
                ),
                (
                    "7 points, the opponent had called koi-koi: x2",
                    seven.clone(),
                    Circumstances {
                        calls_opponent: 1,
                        ..plain(r)
                    },
                    vec![("inoshikacho", 7)],
                    14,
                ),
                (
                    "6 points, the opponent had called koi-koi: x2",
                    six.clone(),
                    Circumstances {
                        calls_opponent: 1,
                        ..plain(r)
                    },
                    vec![("inoshikacho", 6)],
                    12,
                ),
                (
                    "7 points after an own koi-koi: not multiplied",
                    seven.clone(),
                    Circumstances {
                        calls_self: 1,
                        ..plain(r)
                    },
                    vec![("inoshikacho", 7)],
                    7,
                ),
            ]
        },
    );
}

// ----- through the core: crafted deals

/// A deal by role: each list in the order its cards are dealt; `stock` goes on top of the stock
/// (drawn first), the rest of the deck follows in deck order.
pub(super) struct Deal<'a> {
    pub(super) dealer: &'a [&'a str],
    pub(super) opponent: &'a [&'a str],
    pub(super) table: &'a [&'a str],
    pub(super) stock: &'a [&'a str],
}

/// The deck order that deals `d` in `r`, following the flow's `deal_order` and `deal_packet` as
/// `Game::deal` does (the order is consumed from the front; the stock is the rest).
pub(super) fn deck_order(r: &Ruleset, d: &Deal) -> Vec<CardId> {
    let f = flow(r);
    assert_eq!(d.dealer.len(), f.hand_size as usize);
    assert_eq!(d.opponent.len(), f.hand_size as usize);
    assert_eq!(d.table.len(), f.table_size as usize);
    let mut order = Vec::new();
    let mut next = [0usize; 3];
    let list = |t: DealTarget| match t {
        DealTarget::Dealer => (0, d.dealer),
        DealTarget::Others => (1, d.opponent),
        DealTarget::Table => (2, d.table),
    };
    while next[0] < d.dealer.len() || next[1] < d.opponent.len() || next[2] < d.table.len() {
        for &t in &f.deal_order {
            let (i, cards) = list(t);
            let k = (f.deal_packet as usize).min(cards.len() - next[i]);
            order.extend(cards[next[i]..next[i] + k].iter().map(|id| card(r, id)));
            next[i] += k;
        }
    }
    order.extend(d.stock.iter().map(|id| card(r, id)));
    let used: CardSet = order.iter().copied().collect();
    assert_eq!(used.len() as usize, order.len(), "a card is dealt twice");
    order.extend((r.deck.all() - used).iter());
    assert_eq!(order.len(), r.deck.cards.len());
    order
}

/// Starts a one-hand game of `name` dealt from `orders` (in order, redeals included).
fn start(name: &str, orders: Vec<Vec<CardId>>) -> Game {
    let r = Arc::new(load(name));
    super::start(
        r,
        StartOptions {
            seed: 1,
            rounds: Some(1),
            deck_orders: orders,
            log_events: true,
            ..StartOptions::default()
        },
    )
    .expect("the bundled scripts run")
}

pub(super) fn ids(g: &Game, set: CardSet) -> String {
    if set.is_empty() {
        return "none".into();
    }
    g.ruleset().deck.ids(set).join(", ")
}

pub(super) fn render_events(g: &Game, events: &[Event]) -> String {
    let deck = &g.ruleset().deck;
    let list = |cards: &[CardId]| {
        cards
            .iter()
            .map(|&c| deck.id_of(c))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = String::new();
    for e in events {
        let _ = match e {
            Event::Deal { round, dealer } => {
                writeln!(out, "deal: round {round}, dealer seat {dealer}")
            }
            Event::Redeal { reason } => writeln!(out, "redeal: {reason}"),
            Event::SatOut { player } => writeln!(out, "seat {player} sits out"),
            Event::Declared { player, decl, card } => {
                let d = &g.ruleset().declarations[decl.0 as usize];
                match d.effect.as_str() {
                    "swap" => writeln!(out, "the non-dealer takes the dealer's hand"),
                    "continue" => writeln!(out, "seat {player} calls koi-koi"),
                    "reveal" | "play_suit" | "count_as" => writeln!(
                        out,
                        "seat {player} declares {}{}",
                        d.id,
                        card.map_or_else(String::new, |c| format!(" with {}", deck.id_of(c)))
                    ),
                    _ => Ok(()),
                }
            }
            Event::BonusTaken { player, card } => {
                writeln!(out, "seat {player} takes bonus card {}", deck.id_of(*card))
            }
            Event::Stacked { player, cards } => {
                writeln!(out, "seat {player} leaves a stack [{}]", list(cards))
            }
            Event::PlayedSet { player, cards, .. } => {
                writeln!(out, "seat {player} plays [{}]", list(cards))
            }
            Event::Built {
                player,
                card,
                cards,
                value,
            } => writeln!(
                out,
                "seat {player} plays {} on [{}], building {value}",
                deck.id_of(*card),
                list(cards)
            ),
            Event::TurnEvent { player, id, .. } => writeln!(out, "seat {player}: {id}"),
            Event::Given { from, to, cards } => {
                writeln!(out, "seat {from} gives [{}] to seat {to}", list(cards))
            }
            Event::TableTaken { player, cards } => {
                writeln!(out, "seat {player} takes the table [{}]", list(cards))
            }
            Event::DealBonus(given) => writeln!(
                out,
                "seat {} is given {}: [{}]",
                given.player,
                given.id,
                list(&given.cards)
            ),
            Event::Played {
                player,
                card,
                captured,
            } => writeln!(
                out,
                "seat {player} plays {}, captures [{}]",
                deck.id_of(*card),
                list(captured)
            ),
            Event::Drew {
                player,
                card,
                captured,
            } => writeln!(
                out,
                "seat {player} draws {}, captures [{}]",
                deck.id_of(*card),
                list(captured)
            ),
            Event::YakuFormed { player, yaku, base } => {
                writeln!(out, "seat {player} forms {} (base {base})", yaku.join(", "))
            }
            Event::HandEnded {
                round,
                winner,
                end,
                points,
            } => writeln!(
                out,
                "hand {round} ends: {}, winner {winner:?}, points {points:?}",
                end_name(*end)
            ),
            Event::GameEnded { scores } => writeln!(out, "game over: {scores:?}"),
            Event::Shown { player, cards } => {
                writeln!(out, "seat {player} shows [{}]", list(cards))
            }
            Event::TrickWon { .. }
            | Event::HandCount { .. }
            | Event::Bid { .. }
            | Event::Melded { .. } => Ok(()),
        };
    }
    out
}

/// The declaration with `effect` in the game's ruleset, as an action.
fn declaration(g: &Game, effect: &str) -> Action {
    let i = g
        .ruleset()
        .declarations
        .iter()
        .position(|d| d.effect == effect)
        .expect("the ruleset has the declaration");
    Action::declare(crate::core::DeclId(i as u8))
}

/// How a hand ended, as the snapshots name it.
fn end_name(end: HandEnd) -> String {
    end.0
        .split('_')
        .map(|w| w[..1].to_uppercase() + &w[1..])
        .collect()
}

/// The hands by seat (the `deal` event says which seat dealt) and the table.
fn render_hands(g: &Game) -> String {
    format!(
        "seat 0 holds: {}\nseat 1 holds: {}\ntable: {}\n",
        ids(g, g.hand(0)),
        ids(g, g.hand(1)),
        ids(g, g.table())
    )
}

/// Hands with no instant win, and a table with no redeal, for the tests that need one of them
/// to be special.
pub(super) const DEALER_PLAIN: [&str; 8] = [
    "plum-poetry",
    "cherry-poetry",
    "wisteria-ribbon",
    "iris-ribbon",
    "peony-blue",
    "clover-ribbon",
    "pampas-geese",
    "chrysanthemum-blue",
];
pub(super) const OPPONENT_PLAIN: [&str; 8] = [
    "plum-warbler",
    "cherry-curtain",
    "wisteria-cuckoo",
    "iris-bridge",
    "peony-butterflies",
    "clover-boar",
    "pampas-moon",
    "maple-blue",
];
pub(super) const TABLE_PLAIN: [&str; 8] = [
    "plum-1",
    "cherry-1",
    "wisteria-1",
    "iris-1",
    "peony-1",
    "clover-1",
    "pampas-1",
    "maple-1",
];
pub(super) const TESHI: [&str; 8] = [
    "pine-crane",
    "pine-poetry",
    "pine-1",
    "pine-2",
    "willow-swallow",
    "paulownia-1",
    "chrysanthemum-1",
    "maple-2",
];
pub(super) const KUTTSUKI: [&str; 8] = [
    "pine-crane",
    "pine-1",
    "willow-rainman",
    "willow-swallow",
    "paulownia-phoenix",
    "paulownia-1",
    "chrysanthemum-1",
    "chrysanthemum-2",
];

/// Deals `d` in `name`; for the classic rules the non-dealer answers the swap offer with `swap`.
/// Returns the game and a rendering of the deal and its events.
fn deal_and_settle(name: &str, what: &str, d: &Deal, swap: bool) -> (Game, String) {
    let r = load(name);
    let order = deck_order(&r, d);
    let mut g = start(name, vec![order.clone()]);
    assert_eq!(g.dealt_orders()[0], order);
    let mut s = format!("# {name}: {what}\n{}", render_hands(&g));
    if g.phase() == Phase::AfterDeal {
        g.apply(declaration(&g, if swap { "swap" } else { "keep" }))
            .unwrap();
    }
    let events = g.drain_events();
    s += &render_events(&g, &events);
    (g, s)
}

/// When a dealt hand holds two instant wins, the one with the most points is chosen, whatever
/// the order they are listed in: a house rule's four pines worth 10 wins over the inherited
/// teshi (6) it is listed after.
#[test]
fn core_instant_win_with_the_most_points_is_chosen() {
    let dir = std::env::temp_dir().join(format!("yaku-instant-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("four-pines.toml");
    std::fs::write(
        &path,
        "[ruleset]\nid = \"four-pines\"\nextends = \"koikoi\"\n\n[[flow.instant_win]]\nid = \"four-pines\"\nname = \"Four pines\"\nwhen = \"count(pine) == 4\"\npoints = 10\n",
    )
    .unwrap();
    let (g, _) = deal_and_settle(
        path.to_str().unwrap(),
        "the opponent is dealt the four pines",
        &Deal {
            dealer: &DEALER_PLAIN,
            opponent: &TESHI,
            table: &TABLE_PLAIN,
            stock: &[],
        },
        false,
    );
    let _ = std::fs::remove_dir_all(&dir);
    let h = &g.history()[0];
    assert_eq!(h.end, ends::INSTANT);
    let o = h.outcome.as_ref().unwrap();
    assert_eq!(o.yaku[0].id, "four-pines");
    assert_eq!(h.points[1 - h.dealer.unwrap()], 10);
}

/// 003 "Instant Wins and Redeals", 004, 002 "Lucky Hands", 001: a player dealt four of a month
/// (teshi) or four pairs (kuttsuki) wins 6 at once; both holding one is a draw (002).
#[test]
fn core_instant_wins_teshi_kuttsuki_and_both_draw() {
    let mut s = String::new();
    for name in ["koikoi", "koikoi-ktane", "koikoi-classic"] {
        // The opponent holds teshi.
        let (g, text) = deal_and_settle(
            name,
            "the opponent is dealt four of a month",
            &Deal {
                dealer: &DEALER_PLAIN,
                opponent: &TESHI,
                table: &TABLE_PLAIN,
                stock: &[],
            },
            false,
        );
        let h = &g.history()[0];
        assert_eq!(h.end, ends::INSTANT, "{name}");
        assert_eq!(
            h.winner,
            Some(1 - h.dealer.unwrap()),
            "{name}: the opponent wins"
        );
        assert_eq!(h.points[1 - h.dealer.unwrap()], 6, "{name}");
        assert_eq!(h.points[h.dealer.unwrap()], 0, "{name}");
        let o = h.outcome.as_ref().unwrap();
        assert_eq!(o.yaku.len(), 1);
        assert_eq!(o.yaku[0].points, 6);
        s += &text;
        s += "\n";

        // The dealer holds kuttsuki.
        let (g, text) = deal_and_settle(
            name,
            "the dealer is dealt four pairs",
            &Deal {
                dealer: &KUTTSUKI,
                opponent: &OPPONENT_PLAIN,
                table: &TABLE_PLAIN,
                stock: &[],
            },
            false,
        );
        let h = &g.history()[0];
        assert_eq!(h.end, ends::INSTANT, "{name}");
        assert_eq!(h.winner, Some(h.dealer.unwrap()), "{name}: the dealer wins");
        assert_eq!(h.points[h.dealer.unwrap()], 6, "{name}");
        s += &text;
        s += "\n";

        // Both hold one: a draw.
        let (g, text) = deal_and_settle(
            name,
            "the dealer is dealt four pairs, the opponent four of a month",
            &Deal {
                dealer: &KUTTSUKI,
                opponent: &[
                    "plum-warbler",
                    "plum-poetry",
                    "plum-1",
                    "plum-2",
                    "cherry-1",
                    "wisteria-1",
                    "iris-1",
                    "peony-1",
                ],
                table: &[
                    "cherry-curtain",
                    "wisteria-cuckoo",
                    "iris-bridge",
                    "peony-butterflies",
                    "clover-boar",
                    "pampas-moon",
                    "maple-deer",
                    "willow-ribbon",
                ],
                stock: &[],
            },
            false,
        );
        let h = &g.history()[0];
        assert_eq!(h.end, ends::BOTH_INSTANT, "{name}");
        assert_eq!(h.winner, None, "{name}");
        assert_eq!(&*h.points, &[0, 0], "{name}");
        s += &text;
        s += "\n";
    }
    assert_snapshot!(
        "core_instant_wins_teshi_kuttsuki_6_points_both_players_draw",
        s
    );
}

/// 001: the non-dealer may take the dealer's hand before instant wins are checked, so the
/// instant win goes with the hand; and its six points are not multiplied by table brights.
#[test]
fn core_classic_instant_win_follows_the_swapped_hand_and_ignores_table_brights() {
    let table = [
        "pampas-moon",
        "cherry-curtain",
        "wisteria-1",
        "iris-1",
        "peony-1",
        "clover-1",
        "plum-1",
        "maple-1",
    ];
    let d = Deal {
        dealer: &DEALER_PLAIN,
        opponent: &TESHI,
        table: &table,
        stock: &[],
    };
    let (g, mut s) = deal_and_settle(
        "koikoi-classic",
        "the opponent is dealt four of a month, two brights on the table, and swaps",
        &d,
        true,
    );
    assert_eq!(g.table_count(), 2);
    let h = &g.history()[0];
    assert_eq!(h.end, ends::INSTANT);
    assert_eq!(
        h.winner,
        Some(h.dealer.unwrap()),
        "the dealer now holds the teshi hand"
    );
    assert_eq!(
        h.points[h.dealer.unwrap()],
        6,
        "two brights on the table do not triple it"
    );
    let o = h.outcome.as_ref().unwrap();
    s += "outcome:\n";
    render_outcome(&mut s, o);
    assert_snapshot!(
        "core_classic_swap_gives_teshi_to_dealer_6_points_despite_2_table_brights",
        s
    );
}

/// 001, 002 "Lucky Hands", 003's heading: a table dealt four of a month, or four pairs, is
/// redealt; the next deck order is dealt instead.
#[test]
fn core_table_four_of_a_month_or_four_pairs_is_redealt() {
    let four_of_a_month = [
        "pine-crane",
        "pine-poetry",
        "pine-1",
        "pine-2",
        "plum-1",
        "cherry-1",
        "wisteria-1",
        "iris-1",
    ];
    let four_pairs = [
        "pine-crane",
        "pine-poetry",
        "plum-1",
        "plum-2",
        "cherry-1",
        "cherry-2",
        "wisteria-1",
        "wisteria-2",
    ];
    let mut s = String::new();
    for name in ["koikoi", "koikoi-ktane", "koikoi-classic"] {
        for (what, bad_table, rule) in [
            ("four of a month", &four_of_a_month, "table-four-of-a-month"),
            ("four pairs", &four_pairs, "table-four-pairs"),
        ] {
            let r = load(name);
            let reason = &flow(&r)
                .redeals
                .iter()
                .find(|d| d.id == rule)
                .unwrap_or_else(|| panic!("{name} has the redeal `{rule}`"))
                .name;
            let bad = deck_order(
                &r,
                &Deal {
                    dealer: &DEALER_PLAIN,
                    opponent: &OPPONENT_PLAIN,
                    table: bad_table,
                    stock: &[],
                },
            );
            let good = deck_order(
                &r,
                &Deal {
                    dealer: &DEALER_PLAIN,
                    opponent: &OPPONENT_PLAIN,
                    table: &TABLE_PLAIN,
                    stock: &[],
                },
            );
            let mut g = start(name, vec![bad.clone(), good.clone()]);
            assert_eq!(g.dealt_orders(), vec![bad, good], "{name}: {what}");
            assert_eq!(g.table(), pile(&r, &TABLE_PLAIN), "{name}: {what}");
            let events = g.drain_events();
            let redeals: Vec<&str> = events
                .iter()
                .filter_map(|e| match e {
                    Event::Redeal { reason } => Some(reason.as_str()),
                    _ => None,
                })
                .collect();
            assert_eq!(redeals, vec![reason.as_str()], "{name}: {what}");
            let _ = writeln!(s, "# {name}, table dealt {what}");
            s += &render_events(&g, &events);
            s += &render_hands(&g);
            s += "\n";
        }
    }
    assert_snapshot!(
        "core_table_dealt_four_of_a_month_or_four_pairs_redeal_event",
        s
    );
}

/// 004 "How to play", 002 "Koi-Koi rules" step 1, 001: three cards of a month on the table are
/// taken together by the fourth, whether played from the hand or drawn. (003 "Play" does not
/// cover this case.)
#[test]
fn core_table_triple_taken_by_the_fourth_card() {
    let table = [
        "pine-crane",
        "pine-poetry",
        "pine-1",
        "plum-1",
        "cherry-1",
        "wisteria-1",
        "iris-1",
        "peony-1",
    ];
    let opponent = [
        "plum-poetry",
        "cherry-poetry",
        "wisteria-ribbon",
        "iris-ribbon",
        "peony-blue",
        "pampas-1",
        "chrysanthemum-1",
        "maple-1",
    ];
    let dealer = [
        "pine-2",
        "clover-boar",
        "pampas-geese",
        "chrysanthemum-blue",
        "maple-blue",
        "willow-swallow",
        "paulownia-1",
        "clover-ribbon",
    ];
    let pines = ["pine-crane", "pine-poetry", "pine-1", "pine-2"];
    let mut s = String::new();
    for name in ["koikoi", "koikoi-ktane", "koikoi-classic"] {
        for from_hand in [true, false] {
            let r = load(name);
            // Played: the dealer plays pine-2 and draws willow-ribbon, which matches nothing.
            // Drawn: the dealer plays paulownia-1 (no match) and draws pine-2.
            let mut dealer = dealer;
            let stock = if from_hand {
                ["willow-ribbon"]
            } else {
                dealer[0] = "paulownia-2";
                ["pine-2"]
            };
            let order = deck_order(
                &r,
                &Deal {
                    dealer: &dealer,
                    opponent: &opponent,
                    table: &table,
                    stock: &stock,
                },
            );
            let mut g = start(name, vec![order]);
            if g.phase() == Phase::AfterDeal {
                g.apply(declaration(&g, "keep")).unwrap();
            }
            let seat = g.dealer();
            assert_eq!(g.to_act(), Some(seat));
            let play = if from_hand { "pine-2" } else { "paulownia-1" };
            g.apply(Action::Play {
                card: card(&r, play),
            })
            .unwrap();
            assert_eq!(g.captured(seat), pile(&r, &pines), "{name}");
            assert!((g.table() & pile(&r, &pines)).is_empty(), "{name}");
            let events = g.drain_events();
            let taken = events.iter().find_map(|e| match e {
                Event::Played { card, captured, .. } | Event::Drew { card, captured, .. }
                    if r.deck.id_of(*card) == "pine-2" =>
                {
                    Some(captured.len())
                }
                _ => None,
            });
            assert_eq!(taken, Some(3), "{name}: pine-2 takes the three pine cards");
            let _ = writeln!(
                s,
                "# {name}, the fourth pine {}",
                if from_hand { "played" } else { "drawn" }
            );
            s += &render_events(&g, &events);
            let _ = writeln!(s, "dealer's captures: {}", ids(&g, g.captured(seat)));
            let _ = writeln!(s, "table: {}\n", ids(&g, g.table()));
        }
    }
    assert_snapshot!("core_table_triple_fourth_card_captures_all_four", s);
}

/// 003 "Play", 004, 002 step 1: a card matching two table cards lets the player choose which to
/// take — for the played card and for the drawn one — and only those two are legal.
#[test]
fn core_capture_choice_between_exactly_the_two_matching_cards() {
    let r = load("koikoi");
    let order = deck_order(
        &r,
        &Deal {
            dealer: &[
                "plum-1",
                "pine-1",
                "pampas-1",
                "chrysanthemum-1",
                "maple-1",
                "willow-swallow",
                "paulownia-1",
                "pine-crane",
            ],
            opponent: &[
                "pine-poetry",
                "pampas-2",
                "chrysanthemum-2",
                "maple-2",
                "willow-ribbon",
                "paulownia-2",
                "wisteria-2",
                "iris-2",
            ],
            table: &[
                "plum-warbler",
                "plum-poetry",
                "cherry-curtain",
                "cherry-poetry",
                "wisteria-1",
                "iris-1",
                "peony-1",
                "clover-1",
            ],
            stock: &["cherry-1"],
        },
    );
    let mut g = start("koikoi", vec![order]);
    let seat = g.dealer();
    let c = |id| card(&r, id);
    g.apply(Action::Play { card: c("plum-1") }).unwrap();
    assert_eq!(
        g.phase(),
        Phase::CaptureChoice {
            card: c("plum-1"),
            from_hand: true
        }
    );
    assert_eq!(
        g.legal(),
        vec![
            Action::Take {
                card: c("plum-warbler")
            },
            Action::Take {
                card: c("plum-poetry")
            },
        ]
    );
    let refused = g
        .apply(Action::Take {
            card: c("cherry-curtain"),
        })
        .unwrap_err();
    assert_eq!(
        refused.reason,
        "`plum-1` cannot capture `cherry-curtain`; choose one of: plum-warbler, plum-poetry"
    );
    g.apply(Action::Take {
        card: c("plum-poetry"),
    })
    .unwrap();
    // The draw, cherry-1, matches two table cards too.
    assert_eq!(
        g.phase(),
        Phase::CaptureChoice {
            card: c("cherry-1"),
            from_hand: false
        }
    );
    assert_eq!(
        g.legal(),
        vec![
            Action::Take {
                card: c("cherry-curtain")
            },
            Action::Take {
                card: c("cherry-poetry")
            },
        ]
    );
    g.apply(Action::Take {
        card: c("cherry-curtain"),
    })
    .unwrap();
    assert_eq!(
        g.captured(seat),
        pile(&r, &["plum-1", "plum-poetry", "cherry-1", "cherry-curtain"])
    );
    assert!(g.table().contains(c("plum-warbler")));
    assert!(g.table().contains(c("cherry-poetry")));
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.to_act(), Some(1 - seat));
    let events = g.drain_events();
    let mut s = render_events(&g, &events);
    let _ = writeln!(s, "dealer's captures: {}", ids(&g, g.captured(seat)));
    let _ = writeln!(s, "table: {}", ids(&g, g.table()));
    assert_snapshot!("core_capture_choice_played_and_drawn_card_two_matches", s);
}

/// House rule (003 "Special Cards"): the Lightning is wild and may capture any table card; in
/// the standard rules the same play captures nothing.
#[test]
fn core_house_lightning_wild_captures_any_card() {
    let table = [
        "pine-crane",
        "plum-warbler",
        "cherry-curtain",
        "wisteria-cuckoo",
        "iris-bridge",
        "peony-butterflies",
        "clover-boar",
        "pampas-moon",
    ];
    let dealer = [
        "willow-lightning",
        "chrysanthemum-1",
        "chrysanthemum-2",
        "maple-1",
        "paulownia-1",
        "paulownia-2",
        "paulownia-3",
        "maple-deer",
    ];
    let opponent = [
        "pine-1",
        "plum-1",
        "cherry-1",
        "wisteria-1",
        "iris-1",
        "peony-1",
        "clover-1",
        "pampas-1",
    ];
    let deal = Deal {
        dealer: &dealer,
        opponent: &opponent,
        table: &table,
        // Drawn after the lightning: matches nothing left on the table in either ruleset.
        stock: &["chrysanthemum-blue"],
    };
    let mut s = String::new();

    let r = load("house/lightning-wild");
    let mut g = start("house/lightning-wild", vec![deck_order(&r, &deal)]);
    let seat = g.dealer();
    let lightning = card(&r, "willow-lightning");
    g.apply(Action::Play { card: lightning }).unwrap();
    assert_eq!(
        g.phase(),
        Phase::CaptureChoice {
            card: lightning,
            from_hand: true
        }
    );
    let every_table_card: Vec<Action> = pile(&r, &table)
        .iter()
        .map(|card| Action::Take { card })
        .collect();
    assert_eq!(g.legal(), every_table_card);
    g.apply(Action::Take {
        card: card(&r, "pine-crane"),
    })
    .unwrap();
    assert_eq!(
        g.captured(seat),
        pile(&r, &["pine-crane", "willow-lightning"])
    );
    s += "# house/lightning-wild\n";
    let events = g.drain_events();
    s += &render_events(&g, &events);
    let _ = writeln!(s, "dealer's captures: {}\n", ids(&g, g.captured(seat)));

    let standard = load("koikoi");
    let mut g = start("koikoi", vec![deck_order(&standard, &deal)]);
    let seat = g.dealer();
    g.apply(Action::Play {
        card: card(&standard, "willow-lightning"),
    })
    .unwrap();
    assert!(g.captured(seat).is_empty());
    assert!(g.table().contains(card(&standard, "willow-lightning")));
    s += "# koikoi\n";
    let events = g.drain_events();
    s += &render_events(&g, &events);
    let _ = writeln!(s, "dealer's captures: {}", ids(&g, g.captured(seat)));
    assert_snapshot!("core_house_lightning_wild_captures_a_non_willow_card", s);
}

/// Plays one hand with a fixed policy: koi-koi whenever allowed, otherwise the first legal
/// action. Only an empty hand stops, so hands often run out.
fn play_out_calling_koikoi(g: &mut Game) {
    while !g.is_over() {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        let go = declaration(g, "continue");
        let action = if legal.contains(&go) { go } else { legal[0] };
        g.apply(action).unwrap();
    }
}

/// House rule oya-ken through the core: the first seed whose hand runs out scores 6 for the
/// dealer under `house/dealer-privilege`, and nothing under `koikoi` (003 "Play": a draw).
#[test]
fn core_house_dealer_privilege_exhausted_hand_gives_dealer_6() {
    let house = Arc::new(load("house/dealer-privilege"));
    let standard = Arc::new(load("koikoi"));
    let game = |r: &Arc<Ruleset>, seed| {
        let mut g = super::start(
            Arc::clone(r),
            StartOptions {
                seed,
                rounds: Some(1),
                ..StartOptions::default()
            },
        )
        .unwrap();
        play_out_calling_koikoi(&mut g);
        g
    };
    let (seed, g) = (0..200)
        .map(|seed| (seed, game(&house, seed)))
        .find(|(_, g)| g.history()[0].end == ends::EXHAUSTED_DEALER)
        .expect("some hand of 200 runs out");
    let h = &g.history()[0];
    assert_eq!(h.winner, Some(h.dealer.unwrap()));
    assert_eq!(h.points[h.dealer.unwrap()], 6);
    assert_eq!(h.points[1 - h.dealer.unwrap()], 0);
    let o = h.outcome.as_ref().unwrap();
    assert_eq!(o.yaku[0].id, "exhausted");
    assert_eq!(o.total, 6);
    // The same deal and play in the standard rules: a draw.
    let g = game(&standard, seed);
    let h = &g.history()[0];
    assert_eq!(h.end, ends::EXHAUSTED);
    assert_eq!((h.winner, h.points.to_vec()), (None, vec![0, 0]));
}
