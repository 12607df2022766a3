//! Go-Stop and Matgo pinned by worked examples: every yaku of `rulesets/gostop.toml` at its
//! threshold, each loser's settlement (go-bak, pi-bak, gwang-bak, meong-bak, shakes, nagari),
//! and every in-play event (bonus cards, kiss, stacks taken by another or by their maker, all
//! four taken, sweeps, shakes, bombs and their free draws, the sake cup's choice, three stacks)
//! played through the core on crafted deals. Each example names its rule's source, as the
//! ruleset's comments do (pagat "Go Stop", the encyclopedia article "Go-Stop", Hangame's Matgo
//! guide, sloperama).

use super::MatchingGame as Game;
use super::scoring_tests::render_events;
use crate::core::{Action, DeclId, Game as _, StartOptions};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{self, DealTarget, Ruleset};
use crate::yaku::{self as scoring, Circumstances, SeatFacts, TableFacts};
use insta::assert_snapshot;
use std::fmt::Write as _;
use std::sync::Arc;

fn load(name: &str) -> Arc<Ruleset> {
    Arc::new(
        ruleset::load(name)
            .value
            .expect("the bundled ruleset loads"),
    )
}

fn card(r: &Ruleset, id: &str) -> CardId {
    r.deck
        .card_by_id(id)
        .unwrap_or_else(|| panic!("no card `{id}`"))
}

fn pile(r: &Ruleset, ids: &[&str]) -> CardSet {
    ids.iter().map(|id| card(r, id)).collect()
}

// ----- scoring: piles

/// The yaku a pile holds, as `id points` lines.
fn yaku_of(r: &Ruleset, ids: &[&str], choices: u8) -> Vec<(String, i64)> {
    let c = Circumstances {
        round: 1,
        rounds: 10,
        choices,
        ..Circumstances::default()
    };
    let found = scoring::evaluate(r, pile(r, ids), &c);
    found
        .iter()
        .map(|i| (r.yaku.yaku[i].id.clone(), i64::from(found.points[i])))
        .collect()
}

const JUNK: [&str; 12] = [
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
];

#[test]
fn turn_patterns_index_their_list() {
    for (i, (_, p)) in crate::ruleset::TurnPattern::ALL.iter().enumerate() {
        assert_eq!(p.index(), i);
    }
}

#[test]
fn every_yaku_at_its_threshold() {
    let r = load("gostop");
    // (what, pile, sake as junk, expected yaku) — pagat "Scoring", sloperama.
    type Case<'a> = (&'a str, Vec<&'a str>, u8, Vec<(&'a str, i64)>);
    let cases: Vec<Case> = vec![
        (
            "three brights without rain: 3",
            vec!["pine-crane", "cherry-curtain", "pampas-moon"],
            0,
            vec![("samgwang", 3)],
        ),
        (
            "three brights with rain: 2",
            vec!["pine-crane", "cherry-curtain", "rain-man"],
            0,
            vec![("bi-samgwang", 2)],
        ),
        (
            "four brights: 4",
            vec!["pine-crane", "cherry-curtain", "rain-man", "pampas-moon"],
            0,
            vec![("sagwang", 4)],
        ),
        (
            "five brights: 15",
            vec![
                "pine-crane",
                "cherry-curtain",
                "rain-man",
                "pampas-moon",
                "paulownia-phoenix",
            ],
            0,
            vec![("ogwang", 15)],
        ),
        (
            "godori: 5",
            vec!["plum-bird", "wisteria-cuckoo", "pampas-geese"],
            0,
            vec![("godori", 5)],
        ),
        (
            "five animals 1, with godori 5",
            vec![
                "plum-bird",
                "wisteria-cuckoo",
                "pampas-geese",
                "iris-bridge",
                "maple-deer",
            ],
            0,
            vec![("godori", 5), ("yeol", 1)],
        ),
        (
            "six animals counting the sake cup: 2",
            vec![
                "iris-bridge",
                "maple-deer",
                "clover-boar",
                "peony-butterflies",
                "rain-swallow",
                "chrysanthemum-sake",
            ],
            0,
            vec![("yeol", 2)],
        ),
        (
            "the same with the sake cup as junk: five animals 1",
            vec![
                "iris-bridge",
                "maple-deer",
                "clover-boar",
                "peony-butterflies",
                "rain-swallow",
                "plum-bird",
                "chrysanthemum-sake",
            ],
            1 << 1,
            vec![("yeol", 2)],
        ),
        (
            "hongdan: 3",
            vec!["pine-ribbon", "plum-ribbon", "cherry-ribbon"],
            0,
            vec![("hongdan", 3)],
        ),
        (
            "cheongdan: 3",
            vec!["peony-ribbon", "chrysanthemum-ribbon", "maple-ribbon"],
            0,
            vec![("cheongdan", 3)],
        ),
        (
            "chodan: 3; the rain ribbon is in no set",
            vec![
                "wisteria-ribbon",
                "iris-ribbon",
                "clover-ribbon",
                "rain-ribbon",
            ],
            0,
            vec![("chodan", 3)],
        ),
        (
            "five ribbons 1, with hongdan 3",
            vec![
                "pine-ribbon",
                "plum-ribbon",
                "cherry-ribbon",
                "rain-ribbon",
                "maple-ribbon",
            ],
            0,
            vec![("hongdan", 3), ("tti", 1)],
        ),
        ("ten junk: 1", JUNK[..10].to_vec(), 0, vec![("pi", 1)]),
        (
            "eight junk and a double: 10 junk, 1",
            [&JUNK[..8], &["rain-lightning"]].concat(),
            0,
            vec![("pi", 1)],
        ),
        (
            "eight junk and the sake cup counted as a double: 1",
            [&JUNK[..8], &["chrysanthemum-sake"]].concat(),
            // Choice 1 is `sake-pi` (the ruleset's second `count_as`).
            1 << 1,
            vec![("pi", 1)],
        ),
        (
            "eight junk and the sake cup as an animal: no pi",
            [&JUNK[..8], &["chrysanthemum-sake"]].concat(),
            1 << 0,
            vec![],
        ),
        (
            "nine junk and the triple bonus: 12 junk, 3",
            [&JUNK[..9], &["bonus-triple"]].concat(),
            0,
            vec![("pi", 3)],
        ),
    ];
    let mut out = String::new();
    for (what, ids, choices, expected) in &cases {
        let got = yaku_of(&r, ids, *choices);
        let want: Vec<(String, i64)> = expected.iter().map(|(y, p)| (y.to_string(), *p)).collect();
        assert_eq!(got, want, "{what}");
        let _ = writeln!(out, "{what}: {got:?}");
    }
    assert_snapshot!(out);
}

// ----- settlement: each loser

/// A seat at a hand's end, from its pile, gos and shakes.
fn seat(r: &Ruleset, ids: &[&str], winner: bool, gos: u32, shakes: i64) -> SeatFacts {
    let c = Circumstances {
        round: 1,
        rounds: 10,
        ..Circumstances::default()
    };
    let p = pile(r, ids);
    let found = scoring::evaluate(r, p, &c);
    SeatFacts {
        calls: gos,
        declared: r
            .declarations
            .iter()
            .map(|d| (d.id.clone(), if d.id == "shake" { shakes } else { 0 }))
            .collect(),
        ..SeatFacts::of_pile(r, p, &found, &c, winner)
    }
}

/// Settles a hand won by seat 0 and renders it: base, steps, and what each seat pays.
fn settle(
    r: &Ruleset,
    seats: Vec<SeatFacts>,
    draws_before: u32,
    winner_pile: &[&str],
) -> (Vec<i64>, String) {
    let c = Circumstances {
        round: 1,
        rounds: 10,
        calls_self: seats[0].calls,
        ..Circumstances::default()
    };
    let found = scoring::evaluate(r, pile(r, winner_pile), &c);
    let table = TableFacts {
        seats,
        teams: Vec::new(),
        carry: None,
        draws_before,
    };
    let o = scoring::settle_at_table(r, &found, None, &c, Some(&table)).expect("the script runs");
    let mut out = String::new();
    for y in &o.yaku {
        let _ = writeln!(out, "{} {}", y.id, y.points);
    }
    let _ = writeln!(out, "base {}", o.base);
    for s in &o.steps {
        let who = s.seat.map_or_else(String::new, |s| format!("seat {s}: "));
        let _ = writeln!(out, "  {who}{} -> {}", s.reason, s.total);
    }
    let _ = writeln!(out, "pays {:?}", o.payments);
    (o.payments, out)
}

/// The winner's pile in the settlement examples: ten junk (pi 1) and three brights (3): 4.
const WINNER: [&str; 13] = [
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
    "pine-crane",
    "cherry-curtain",
    "pampas-moon",
];

#[test]
fn three_players_pi_bak_and_gwang_bak_per_loser() {
    let r = load("gostop");
    // Seat 1: five junk (under 6: pi-bak) and a bright; seat 2: six junk, no bright (gwang-bak).
    // pagat "Settlement": the winner's 4 points; seat 1 pays 4 x2 = 8, seat 2 pays 4 x2 = 8.
    let seats = vec![
        seat(&r, &WINNER, true, 0, 0),
        seat(
            &r,
            &[
                "peony-1", "peony-2", "clover-1", "clover-2", "pampas-1", "rain-man",
            ],
            false,
            0,
            0,
        ),
        seat(
            &r,
            &[
                "maple-1",
                "maple-2",
                "chrysanthemum-1",
                "chrysanthemum-2",
                "paulownia-1",
                "paulownia-2",
            ],
            false,
            0,
            0,
        ),
    ];
    let (pays, out) = settle(&r, seats, 0, &WINNER);
    assert_eq!(pays, vec![0, 8, 8]);
    assert_snapshot!(out);
}

#[test]
fn three_players_go_bak_the_go_caller_pays_for_both() {
    let r = load("gostop");
    // Seat 1 had called go and lost: it pays its own 4 x2 (pi-bak) and seat 2's 4 x2
    // (gwang-bak): 16, seat 2 pays nothing (pagat "Settlement"). The winner stopped after one
    // go of its own: (4 + 1) = 5 a loser.
    let seats = vec![
        seat(&r, &WINNER, true, 1, 0),
        seat(&r, &["peony-1", "rain-man"], false, 1, 0),
        seat(
            &r,
            &[
                "maple-1",
                "maple-2",
                "chrysanthemum-1",
                "chrysanthemum-2",
                "paulownia-1",
                "paulownia-2",
            ],
            false,
            0,
            0,
        ),
    ];
    let (pays, out) = settle(&r, seats, 0, &WINNER);
    assert_eq!(pays, vec![0, 20, 0]);
    assert_snapshot!(out);
}

#[test]
fn gos_shakes_and_nagari_multiply_the_winner() {
    let r = load("gostop");
    // Three gos: 4 + 3 = 7, x2 for the third go = 14; one shake x2 = 28; after one nagari x2 =
    // 56 (pagat "Go and Stop", "Special events", "Nagari"). The losers hold six junk and a
    // bright each: no penalty.
    let loser = [
        "peony-1", "peony-2", "clover-1", "clover-2", "pampas-1", "pampas-2", "rain-man",
    ];
    let seats = vec![
        seat(&r, &WINNER, true, 3, 1),
        seat(&r, &loser, false, 0, 0),
        seat(&r, &loser, false, 0, 0),
    ];
    let (pays, out) = settle(&r, seats, 1, &WINNER);
    assert_eq!(pays, vec![0, 56, 56]);
    assert_snapshot!(out);
}

#[test]
fn matgo_pi_bak_below_eight_and_go_bak_doubles() {
    let r = load("matgo");
    // Matgo: pi-bak at seven junk or fewer (soul-photo), go-bak doubles the one loser: the
    // winner's 4 x2 pi-bak x2 go-bak = 16.
    let seats = vec![
        seat(&r, &WINNER, true, 0, 0),
        seat(
            &r,
            &[
                "peony-1", "peony-2", "clover-1", "clover-2", "pampas-1", "pampas-2", "maple-1",
                "rain-man",
            ],
            false,
            1,
            0,
        ),
    ];
    let (pays, out) = settle(&r, seats, 0, &WINNER);
    assert_eq!(pays, vec![0, 16]);
    assert_snapshot!(out);
}

// ----- in play: crafted deals through the core

/// Matgo with three cards each and two on the table: every mechanism is Matgo's, and a deal
/// is a few cards.
const SMALL_MATGO: &str = r#"
[ruleset]
id = "small-matgo"
extends = "matgo"

[flow]
hand_size = 3
table_size = 2
deal_packet = 3
"#;

fn small() -> Arc<Ruleset> {
    Arc::new(
        ruleset::load_str("small-matgo.toml", SMALL_MATGO)
            .value
            .expect("the small ruleset loads"),
    )
}

/// The deck order that deals `hands` (seat 0 the dealer, then in turn order) and `table`, with
/// `stock` drawn first and the rest of the deck after it in deck order.
fn deck_order(r: &Ruleset, hands: &[&[&str]], table: &[&str], stock: &[&str]) -> Vec<CardId> {
    let f = r.matching().expect("a matching game");
    let mut order = Vec::new();
    let mut next = vec![0usize; hands.len() + 1];
    let packet = f.deal_packet as usize;
    loop {
        let before = order.len();
        for t in &f.deal_order {
            let mut give = |i: usize, cards: &[&str]| {
                let k = packet.min(cards.len() - next[i]);
                order.extend(cards[next[i]..next[i] + k].iter().map(|id| card(r, id)));
                next[i] += k;
            };
            match t {
                DealTarget::Dealer => give(0, hands[0]),
                DealTarget::Others => {
                    for (s, h) in hands.iter().enumerate().skip(1) {
                        give(s, h);
                    }
                }
                DealTarget::Table => give(hands.len(), table),
            }
        }
        if order.len() == before {
            break;
        }
    }
    order.extend(stock.iter().map(|id| card(r, id)));
    let used: CardSet = order.iter().copied().collect();
    assert_eq!(used.len() as usize, order.len(), "a card is dealt twice");
    order.extend((r.deck.all() - used).iter());
    order
}

fn start(r: Arc<Ruleset>, order: Vec<CardId>, seats: usize) -> Game {
    super::start(
        r,
        StartOptions {
            seed: 1,
            seats: Some(seats),
            rounds: Some(1),
            first_dealer: Some(0),
            deck_orders: vec![order],
            log_events: true,
            ..StartOptions::default()
        },
    )
    .expect("the game starts")
}

/// Applies moves written as `play ID`, `take ID`, `draw`, `DECLARATION` or `DECLARATION ID`.
fn act(g: &mut Game, moves: &[&str]) {
    for m in moves {
        let r = Arc::clone(g.ruleset());
        let (word, rest) = m.split_once(' ').unwrap_or((m, ""));
        let a = match word {
            "play" => Action::Play {
                card: card(&r, rest),
            },
            "take" => Action::Take {
                card: card(&r, rest),
            },
            "draw" => Action::Draw { count: 1 },
            id => {
                let d = r
                    .declarations
                    .iter()
                    .position(|d| d.id == id)
                    .unwrap_or_else(|| panic!("no declaration `{id}`"));
                Action::Declare {
                    decl: DeclId(d as u8),
                    card: (!rest.is_empty()).then(|| card(&r, rest)),
                }
            }
        };
        g.apply(a).unwrap_or_else(|e| panic!("`{m}`: {e}"));
    }
}

/// The events so far, each seat's pile, and the hand's result once it ended.
fn render(g: &mut Game) -> String {
    let events = g.drain_events();
    let mut out = render_events(g, &events);
    for s in 0..g.seats() {
        let _ = writeln!(
            out,
            "pile {s}: {}",
            g.ruleset().deck.ids(g.captured(s)).join(", ")
        );
    }
    out
}

fn all_cards(g: &Game) -> CardSet {
    g.zones().iter().fold(CardSet::EMPTY, |a, (_, z)| {
        assert!((a & *z).is_empty(), "a card is in two places");
        a | *z
    })
}

#[test]
fn bonus_card_kiss_stack_and_stack_taken() {
    let r = small();
    let order = deck_order(
        &r,
        &[
            &["pine-1", "iris-1", "cherry-2"],
            &["plum-1", "cherry-curtain", "maple-1"],
        ],
        &["plum-2", "pine-2"],
        &[
            "bonus-double",
            "paulownia-1",
            "cherry-1",
            "iris-2",
            "cherry-ribbon",
            "maple-2",
        ],
    );
    let mut g = start(r, order, 2);
    act(
        &mut g,
        &[
            // Seat 0 takes the pine pair; the drawn bonus card goes to its pile and the next card
            // is drawn (pagat "Players and cards").
            "play pine-1",
            // Seat 1 takes the plum pair.
            "play plum-1",
            // Seat 0's iris matches nothing; the drawn iris takes it: a kiss, and seat 1 hands
            // over a junk card (pagat "Special events", Hangame).
            "play iris-1",
            // Seat 1's bright takes the cherry junk, the drawn cherry ribbon matches the pair
            // just made: the three stay as a stack (Hangame "뻑").
            "play cherry-curtain",
            // Seat 0's cherry takes the stack, and seat 1 hands over a junk card.
            "play cherry-2",
        ],
    );
    let out = render(&mut g);
    assert!(
        out.contains("seat 0 takes bonus card bonus-double"),
        "{out}"
    );
    assert!(out.contains("seat 0: jjok"), "{out}");
    assert!(
        out.contains("seat 1 leaves a stack [cherry-curtain, cherry-ribbon, cherry-1]"),
        "{out}"
    );
    assert!(out.contains("seat 0: ppeok-taken"), "{out}");
    assert!(out.contains("seat 1 gives [plum-1] to seat 0"), "{out}");
    assert!(out.contains("seat 1 gives [plum-2] to seat 0"), "{out}");
    assert_eq!(all_cards(&g), g.ruleset().deck.all());
    assert_snapshot!(out);
}

#[test]
fn four_taken_and_sweep_in_one_turn_then_own_stack_taken_back() {
    let r = small();
    let order = deck_order(
        &r,
        &[
            &["maple-deer", "cherry-curtain", "cherry-2"],
            &["pine-1", "plum-1", "iris-1"],
        ],
        &["maple-1", "maple-2"],
        &[
            "maple-ribbon",
            "cherry-1",
            "cherry-ribbon",
            "plum-2",
            "paulownia-1",
        ],
    );
    let mut g = start(r, order, 2);
    act(
        &mut g,
        &[
            // The deer matches two maples: it takes one, the drawn ribbon the other: all four
            // (ttadak), and the table is empty (sseul) (Hangame "따닥", "판쓸").
            "play maple-deer",
            "take maple-1",
            // Seat 1's pine and the drawn cherry stay on the table.
            "play pine-1",
            // Seat 0's bright takes the cherry junk, the drawn cherry ribbon makes a stack ...
            "play cherry-curtain",
            // ... seat 1's plum matches nothing and the drawn plum takes it: a kiss, paid with
            // seat 0's single junk card ...
            "play plum-1",
            // ... and seat 0 takes its own stack back: two junk cards from seat 1 (Hangame
            // "자뻑").
            "play cherry-2",
        ],
    );
    let out = render(&mut g);
    assert!(out.contains("seat 0: ttadak"), "{out}");
    assert!(out.contains("seat 0: sseul"), "{out}");
    assert!(out.contains("seat 0 leaves a stack"), "{out}");
    assert!(out.contains("seat 1: jjok"), "{out}");
    assert!(out.contains("seat 0 gives [maple-1] to seat 1"), "{out}");
    assert!(out.contains("seat 0: ja-ppeok"), "{out}");
    assert!(out.contains("seat 1 gives [plum-1] to seat 0"), "{out}");
    assert!(out.contains("seat 1 gives [plum-2] to seat 0"), "{out}");
    assert_eq!(all_cards(&g), g.ruleset().deck.all());
    assert_snapshot!(out);
}

#[test]
fn bomb_with_free_draws_and_shake() {
    let r = small();
    let order = deck_order(
        &r,
        &[
            &["clover-1", "clover-2", "clover-boar"],
            &["peony-1", "peony-2", "peony-butterflies"],
        ],
        &["clover-ribbon", "pine-1"],
        &["plum-1", "iris-1", "iris-2", "maple-1", "maple-2"],
    );
    let mut g = start(r, order, 2);
    act(
        &mut g,
        &[
            // Seat 0 bombs: three clovers at once onto the table's clover, all four taken, a
            // junk card from the other player, and two turns to draw without playing (pagat
            // "Special events", Hangame "폭탄").
            "bomb clover-1",
            // Seat 1 shakes its three peonies (none on the table), then plays one.
            "shake peony-1",
            "play peony-1",
            // Seat 0's hand is empty: it draws.
            "draw",
        ],
    );
    let out = render(&mut g);
    // The declaration names the suit by its lowest card in hand.
    assert!(
        out.contains("seat 0 declares bomb with clover-boar"),
        "{out}"
    );
    assert!(out.contains("seat 0: bomb-taken"), "{out}");
    assert!(
        out.contains("seat 1 declares shake with peony-butterflies"),
        "{out}"
    );
    assert_eq!(g.marks().free_draws[0], 1);
    assert_eq!(g.marks().declared(1, 2), 1, "one shake");
    assert_eq!(all_cards(&g), g.ruleset().deck.all());
    assert_snapshot!(out);
}

#[test]
fn the_sake_cups_holder_chooses_how_it_counts() {
    let r = small();
    let order = deck_order(
        &r,
        &[
            &["chrysanthemum-1", "pine-1", "plum-1"],
            &["iris-1", "peony-1", "maple-1"],
        ],
        &["chrysanthemum-sake", "clover-1"],
        &["wisteria-1"],
    );
    let mut g = start(r, order, 2);
    act(&mut g, &["play chrysanthemum-1"]);
    // pagat "Scoring": the sake cup counts as an animal or as a double junk, its holder's choice.
    assert_eq!(g.phase(), super::Phase::Choose);
    act(&mut g, &["sake-pi"]);
    let c = g.circumstances(0);
    let tallies = scoring::tallies(g.ruleset(), g.captured(0), &c);
    assert!(tallies.contains(&("junk".to_string(), 3)), "{tallies:?}");
    assert!(tallies.contains(&("animals".to_string(), 0)), "{tallies:?}");
    assert_snapshot!(render(&mut g));
}

#[test]
fn chongtong_four_of_a_month_dealt_wins_ten_from_each_loser() {
    // pagat "Special events": four cards of a month in a dealt hand win at once (Choice: 10).
    let r = Arc::new(
        ruleset::load_str(
            "chongtong.toml",
            "[ruleset]\nid = \"four-cards\"\nextends = \"gostop\"\n[flow]\nhand_size = 4\ntable_size = 2\ndeal_packet = 4\n",
        )
        .value
        .expect("the small ruleset loads"),
    );
    let order = deck_order(
        &r,
        &[
            &["pine-1", "plum-1", "cherry-1", "iris-1"],
            &["maple-deer", "maple-ribbon", "maple-1", "maple-2"],
            &["pine-2", "plum-2", "cherry-2", "iris-2"],
        ],
        &["peony-1", "peony-2"],
        &[],
    );
    let mut g = start(r, order, 3);
    let out = render(&mut g);
    let h = &g.history()[0];
    assert_eq!(h.winner, Some(1));
    assert_eq!(h.points.to_vec(), vec![-10, 20, -10], "{out}");
    assert_snapshot!(out);
}

#[test]
fn three_stacks_in_a_hand_win_at_once() {
    // pagat "Special events": a player who makes three stacks in one hand wins it at once
    // (Choice: 10 points).
    let r = Arc::new(
        ruleset::load_str(
            "three-stacks.toml",
            "[ruleset]\nid = \"four-card-matgo\"\nextends = \"matgo\"\n[flow]\nhand_size = 4\ntable_size = 2\ndeal_packet = 4\n",
        )
        .value
        .expect("the small ruleset loads"),
    );
    let order = deck_order(
        &r,
        &[
            &["pine-1", "plum-1", "cherry-1", "paulownia-1"],
            &["maple-1", "iris-1", "peony-1", "clover-1"],
        ],
        &["pine-2", "plum-2"],
        &[
            "pine-crane",
            "wisteria-1",
            "plum-bird",
            "cherry-2",
            "cherry-curtain",
        ],
    );
    let mut g = start(r, order, 2);
    act(
        &mut g,
        &[
            "play pine-1",
            "play maple-1",
            "play plum-1",
            "play iris-1",
            "play cherry-1",
        ],
    );
    let out = render(&mut g);
    assert_eq!(out.matches("seat 0 leaves a stack").count(), 3, "{out}");
    assert!(out.contains("seat 0: three-ppeok"), "{out}");
    let h = &g.history()[0];
    assert_eq!(h.winner, Some(0));
    assert_eq!(h.points.to_vec(), vec![10, -10], "{out}");
    assert_snapshot!(out);
}
