//! Hachi-Hachi (`rulesets/hachihachi.toml`): worked examples of its settlement with their
//! sources (the 88 par between three seats, a dekiyaku stop, the field multiplier, a teyaku
//! paid and then played on), and random games that conserve every card, end, and settle every
//! hand to zero.

use super::{MatchingGame, start};
use crate::core::{Action, Event, Game as _, StartOptions, agent_rng, uniform_index};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{self, Ruleset};
use crate::yaku::{Circumstances, OwnSettlement, OwnSide, settle_own};
use std::fmt::Write as _;
use std::sync::Arc;

fn hachihachi() -> Arc<Ruleset> {
    Arc::new(ruleset::load("hachihachi").value.expect("hachihachi loads"))
}

fn set(r: &Ruleset, ids: &str) -> CardSet {
    ids.split_whitespace()
        .map(|id| r.deck.card_by_id(id).unwrap_or_else(|| panic!("{id}")))
        .collect()
}

/// Three seats' piles and teyaku (by id) settled as the game settles a hand on a field of
/// `field` (the table count), played out (`tallies`) or stopped, shown step by step.
fn settled(r: &Ruleset, piles: [&str; 3], dealt: [&str; 3], field: i64, tallies: bool) -> String {
    let flow = r.matching().unwrap();
    let sides: Vec<OwnSide> = (0..3)
        .map(|s| OwnSide {
            seats: vec![s],
            pile: set(r, piles[s]),
            fired: Vec::new(),
            declared: Vec::new(),
            dealt: flow
                .dealt_yaku
                .iter()
                .position(|d| d.id == dealt[s])
                .into_iter()
                .collect(),
        })
        .collect();
    let c = Circumstances {
        table_count: field,
        ..Circumstances::default()
    };
    let o = settle_own(
        r,
        3,
        &sides[..],
        |_| c,
        OwnSettlement {
            explain: true,
            tallies,
            unclaimed: None,
        },
    );
    let mut out = String::new();
    for step in &o.steps {
        let _ = writeln!(
            out,
            "seat {}: {:<48} {:>5}",
            step.seat.unwrap(),
            step.reason,
            step.total
        );
    }
    let _ = writeln!(out, "points: {:?}", o.seats);
    out
}

/// Seat 0 takes 96 card points, seat 1 88, seat 2 80 (no dekiyaku among them): 264 in all.
const PILES: [&str; 3] = [
    // Four brights (not Shikō: the Rain Man, not the Phoenix), three ribbons, one chaff.
    "pine-crane cherry-curtain pampas-moon willow-rainman \
     pine-poetry plum-poetry wisteria-ribbon plum-2",
    // A bright, five animals, three ribbons, three chaff.
    "paulownia-phoenix plum-warbler wisteria-cuckoo iris-bridge peony-butterflies clover-boar \
     cherry-poetry iris-ribbon peony-blue pine-1 pine-2 plum-1",
    // The rest: four animals, four ribbons, twenty chaff.
    "pampas-geese chrysanthemum-sake maple-deer willow-swallow \
     clover-ribbon chrysanthemum-blue maple-blue willow-ribbon \
     cherry-1 cherry-2 wisteria-1 wisteria-2 iris-1 iris-2 peony-1 peony-2 clover-1 clover-2 \
     pampas-1 pampas-2 chrysanthemum-1 chrysanthemum-2 maple-1 maple-2 willow-lightning \
     paulownia-1 paulownia-2 paulownia-3",
];

#[test]
fn the_piles_take_the_whole_pack_of_264_card_points() {
    let r = hachihachi();
    let all = PILES.iter().fold(CardSet::EMPTY, |u, p| u | set(&r, p));
    assert_eq!(all, r.deck.all());
    let points = |p: &str| -> i64 {
        set(&r, p)
            .iter()
            .map(|c| r.deck.attributes[0].values[c.index()])
            .sum()
    };
    assert_eq!(PILES.map(points), [96, 88, 80]);
}

#[test]
fn a_hand_played_out_pays_the_card_points_against_88_between_the_three() {
    // vingel8: the par is 88, "a third of 264, the number of card points available in a pack";
    // pagat: "Each active player will pay or receive according to the difference of their
    // score from 88". 96, 88 and 80 card points on a small field (no bright on the table:
    // kirisame "Points are as normal") settle as +8, 0 and -8: zero in all.
    let r = hachihachi();
    insta::assert_snapshot!(settled(&r, PILES, ["", "", ""], 1, true), @r"
    seat 0: Card points 96 against 88 +8                         8
    seat 1: Card points 88 against 88 +0                         0
    seat 2: Card points 80 against 88 -8                        -8
    points: [8, 0, -8]
    ");
}

#[test]
fn the_field_multiplies_every_payment_and_a_teyaku_is_paid_by_each_other_seat() {
    // The same piles on a great field (kirisame: "Grand Field 絶場: The Rain or Phoenix cards are
    // in the field: Points are quadrupled"; "This change in scoring affects all point values"),
    // and seat 2 was dealt Sanbon, three of a month (kirisame: "24 points"; "the points listed
    // above are the amount they receive from each other player"): 24 x 4 = 96 from each of the
    // two others, then the card points x 4: +32, 0 and -32.
    let r = hachihachi();
    insta::assert_snapshot!(settled(&r, PILES, ["", "", "sanbon"], 4, true), @r"
    seat 0: Sanbon (three of a month) (dealt) -96 to seat 2 (x4)   -96
    seat 2: Sanbon (three of a month) (dealt) +96 from seat 0 (x4)    96
    seat 1: Sanbon (three of a month) (dealt) -96 to seat 2 (x4)   -96
    seat 2: Sanbon (three of a month) (dealt) +96 from seat 1 (x4)   192
    seat 0: Card points 96 against 88 +32 (x4)                 -64
    seat 1: Card points 88 against 88 +0 (x4)                  -96
    seat 2: Card points 80 against 88 -32 (x4)                 160
    points: [-64, -96, 160]
    ");
}

#[test]
fn a_dekiyaku_stop_is_paid_by_each_other_seat_without_card_points() {
    // shiragiku 四光: "四光を完成させた場合も、その時点で他の二人は十貫(120点)ずつ完成させた者
    // に支払います(三人打ちで小場の場合)": the two others pay 120 each on a small field; a stop
    // settles no card points (porges: "no payments are made for card points"). Seat 1 took the
    // Crane, the Curtain, the Moon and the Phoenix.
    let r = hachihachi();
    let piles = [
        "willow-rainman pine-1",
        "pine-crane cherry-curtain pampas-moon paulownia-phoenix plum-1",
        "maple-1",
    ];
    insta::assert_snapshot!(settled(&r, piles, ["", "", ""], 1, false), @r"
    seat 0: Shikō (four brights) -120 to seat 1               -120
    seat 1: Shikō (four brights) +120 from seat 0              120
    seat 2: Shikō (four brights) -120 to seat 1               -120
    seat 1: Shikō (four brights) +120 from seat 2              240
    points: [-120, 240, -120]
    ");
    // shiragiku 五光: after Shikō, playing on (sage) and taking the Rain Man, "双方で両者から二十二
    // 貫(264点)を受け取れる": Gokō (144) and Shikō (120) from each.
    let piles = [
        "pine-1",
        "pine-crane cherry-curtain pampas-moon paulownia-phoenix willow-rainman",
        "maple-1",
    ];
    let text = settled(&r, piles, ["", "", ""], 1, false);
    assert!(text.ends_with("points: [-264, 528, -264]\n"), "{text}");
}

/// The deal of a hand with seat 0 dealing: seat 0's seven cards, seat 1's, seat 2's, the six
/// on the table, then the stock's first cards, then the rest of the pack in deck order.
fn deal_order(r: &Ruleset, parts: [&str; 5]) -> Vec<CardId> {
    let mut order: Vec<CardId> = Vec::new();
    for part in parts {
        for id in part.split_whitespace() {
            order.push(r.deck.card_by_id(id).unwrap_or_else(|| panic!("{id}")));
        }
    }
    let dealt: CardSet = order.iter().copied().collect();
    order.extend((r.deck.all() - dealt).iter());
    order
}

#[test]
fn a_teyaku_is_announced_the_hand_played_on_and_a_dekiyaku_stop_ends_it() {
    // The dealer holds seven chaff (Karasu, jawiki "手札がすべてカス札", 4 kan = 48), seat 1 one
    // animal and six chaff (Toichi, kirisame "One Ten", 36), seat 2 three Paulownia chaff
    // (Tatesanbon, kirisame "the 3 dregs from December", 36). The Moon on the table makes a big
    // field (kirisame: "Points are doubled"). The dealer plays first (vingel8), takes the Pine
    // and the Plum poetry ribbons, and in its second turn the Cherry one: Akatan (porges: 7
    // kan, 84), and stops (shōbu). Each other seat pays it 84 x 2; the teyaku are paid as well,
    // x 2; no card points are settled.
    let r = hachihachi();
    let order = deal_order(
        &r,
        [
            "pine-1 cherry-1 wisteria-1 wisteria-2 iris-1 iris-2 peony-1",
            "clover-1 clover-2 pampas-1 pampas-2 chrysanthemum-1 chrysanthemum-2 maple-deer",
            "maple-2 maple-blue paulownia-1 paulownia-2 paulownia-3 willow-swallow willow-lightning",
            "pine-poetry plum-poetry cherry-poetry peony-2 clover-boar pampas-moon",
            "plum-1 iris-bridge willow-ribbon peony-butterflies",
        ],
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
    let card = |id: &str| r.deck.card_by_id(id).unwrap();
    let mut legal = Vec::new();
    let mut log = Vec::new();
    // The dealer's two plays are chosen; the others play their first legal move.
    let mut plays = vec!["pine-1", "cherry-1"].into_iter();
    while let Some(seat) = game.to_act() {
        game.legal_actions(&mut legal);
        let action = if seat == 0 {
            let shobu = legal.iter().find(|a| {
                matches!(a, Action::Declare { decl, .. } if r.declarations[usize::from(decl.0)].id == "shobu")
            });
            match shobu {
                Some(a) => *a,
                None => Action::Play {
                    card: card(plays.next().expect("the dealer's plays")),
                },
            }
        } else {
            legal[0]
        };
        game.apply(action).unwrap();
    }
    let deck = &r.deck;
    for e in game.drain_events() {
        match e {
            Event::TurnEvent { player, name, .. } => log.push(format!("seat {player}: {name}")),
            Event::Played {
                player,
                card,
                captured,
            } => log.push(format!(
                "seat {player} plays {} taking [{}]",
                deck.id_of(card),
                deck.ids(captured.iter().copied().collect()).join(" ")
            )),
            Event::Drew {
                player,
                card,
                captured,
            } => log.push(format!(
                "seat {player} draws {} taking [{}]",
                deck.id_of(card),
                deck.ids(captured.iter().copied().collect()).join(" ")
            )),
            Event::Declared { player, decl, .. } => log.push(format!(
                "seat {player} declares {}",
                r.declarations[usize::from(decl.0)].name
            )),
            _ => {}
        }
    }
    let hand = &game.history()[0];
    let o = hand
        .outcome
        .as_ref()
        .expect("a settled hand explains itself");
    for step in &o.steps {
        log.push(format!(
            "seat {}: {} = {}",
            step.seat.unwrap(),
            step.reason,
            step.total
        ));
    }
    log.push(format!(
        "winner {:?}, points {:?}",
        hand.winner,
        hand.points.to_vec()
    ));
    insta::assert_snapshot!(log.join("\n"));
    assert_eq!(hand.points.iter().sum::<i64>(), 0);
}

/// True when the seat to act begins a turn (every legal move plays a hand card): no card is
/// between the stock and the table.
fn legal_plays_only(game: &MatchingGame, legal: &mut Vec<Action>) -> bool {
    if game.to_act().is_none() {
        return false;
    }
    game.legal_actions(legal);
    legal.iter().all(|a| matches!(a, Action::Play { .. }))
}

/// Plays random moves to the game's end (`rounds` hands) at a table of `seats`, checking after
/// every hand that each card is in exactly one place and that the hand's points sum to zero.
fn random_game(r: &Arc<Ruleset>, seed: u64, rounds: Option<u32>, seats: usize) -> MatchingGame {
    let options = StartOptions {
        seed,
        rounds,
        seats: Some(seats),
        log_events: true,
        ..StartOptions::default()
    };
    let mut game = start(Arc::clone(r), options).unwrap();
    let mut rng = agent_rng(seed);
    let mut legal = Vec::new();
    let mut moves = 0;
    while game.to_act().is_some() {
        game.legal_actions(&mut legal);
        game.apply(legal[uniform_index(legal.len(), &mut rng)])
            .unwrap();
        moves += 1;
        assert!(moves < 10_000, "seed {seed}: the game does not end");
        for e in game.drain_events() {
            if let Event::HandEnded { points, .. } = e {
                assert_eq!(points.iter().sum::<i64>(), 0, "seed {seed}: {points:?}");
            }
        }
        if legal_plays_only(&game, &mut legal) {
            // At a turn's start every card is in one place: the hands, the table, the piles or the stock.
            let mut seen = game.table();
            let mut count = game.table().len() as usize + game.stock_len();
            for s in 0..seats {
                seen = seen | game.hand(s) | game.captured(s);
                count += (game.hand(s).len() + game.captured(s).len()) as usize;
            }
            assert_eq!(count, 48, "seed {seed}");
            assert_eq!(
                seen.len() as usize + game.stock_len(),
                48,
                "seed {seed}: a card twice"
            );
        }
    }
    assert!(game.error().is_none(), "{:?}", game.error());
    game
}

#[test]
fn random_games_conserve_every_card_end_and_settle_to_zero() {
    // Three to six at the table: with more than three, three play each hand and the others
    // drop out or sit out (bga: "each playing phase is played with only three players").
    let r = hachihachi();
    for seats in 3..=6 {
        let mut sat_out = 0;
        for seed in 0..12 {
            let game = random_game(&r, seed, None, seats);
            assert_eq!(game.history().len(), 12, "seed {seed}: twelve hands");
            assert_eq!(game.scores().iter().sum::<i64>(), 0, "seed {seed}");
            for hand in game.history() {
                assert_eq!(hand.points.iter().sum::<i64>(), 0, "seed {seed}");
            }
            sat_out += game.marks().out.count_ones();
        }
        // The last hand of each game leaves seats - 3 seats out.
        assert_eq!(sat_out as usize, 12 * (seats - 3), "{seats} seats");
    }
}

#[test]
fn a_hand_played_out_captures_the_whole_pack() {
    // All 48 cards end in the piles when nobody stops: a month's fourth card always finds the
    // others (japanplayingcardmuseum: "四十八枚の札はすべて必ず誰かが合せ取ることになる").
    let r = hachihachi();
    let mut played_out = 0;
    for seed in 0..40 {
        let game = random_game(&r, seed, Some(1), 3);
        let hand = &game.history()[0];
        if hand.end == super::ends::SETTLED {
            played_out += 1;
            let piles = (0..3).fold(CardSet::EMPTY, |u, s| u | game.captured(s));
            assert_eq!(piles, r.deck.all(), "seed {seed}");
        }
    }
    assert!(played_out > 10);
}

#[test]
fn a_second_bright_on_the_table_carries_its_field_into_the_next_month() {
    // bga: "If more than one Bright card appears in the table, the second and subsequent big
    // deal or great deal will be carried over to the next month. If both big deal and great
    // deal are issued, great deal takes precedence for the month." Month 1's table holds the
    // Phoenix (a great field, x4) and the Crane (a big field, x2): month 1 is great, and the
    // big field carries into month 2, whose own table has no bright. Both values are carried
    // (`[[carry]] deal`), shown with the hand and kept in its record.
    let r = hachihachi();
    let month_1 = deal_order(
        &r,
        [
            "pine-1 pine-2 plum-2 cherry-2 wisteria-2 iris-2 peony-1",
            "clover-1 clover-2 pampas-1 pampas-2 chrysanthemum-1 chrysanthemum-2 maple-deer",
            "maple-2 maple-blue paulownia-1 paulownia-2 paulownia-3 willow-swallow willow-lightning",
            "pine-crane paulownia-phoenix plum-1 cherry-1 wisteria-1 iris-1",
            "",
        ],
    );
    let month_2 = deal_order(
        &r,
        [
            "pine-1 pine-crane plum-1 cherry-1 wisteria-1 iris-1 peony-1",
            "clover-2 pampas-1 pampas-2 chrysanthemum-1 chrysanthemum-2 maple-deer maple-1",
            "maple-2 maple-blue paulownia-1 paulownia-2 paulownia-phoenix willow-swallow willow-lightning",
            "plum-2 cherry-2 wisteria-2 iris-2 peony-2 clover-1",
            "",
        ],
    );
    let options = StartOptions {
        seed: 3,
        deck_orders: vec![month_1, month_2],
        first_dealer: Some(0),
        rounds: Some(2),
        ..StartOptions::default()
    };
    let mut game = start(Arc::clone(&r), options).unwrap();
    let mut log = Vec::new();
    let month = |game: &MatchingGame, log: &mut Vec<String>| {
        log.push(format!(
            "month {}: table [{}], table count {}, carried {}",
            game.round(),
            r.deck.ids(game.table()).join(" "),
            game.table_count(),
            serde_json::to_string(game.carried()).unwrap()
        ));
    };
    month(&game, &mut log);
    let mut legal = Vec::new();
    while game.to_act().is_some() {
        let before = game.history().len();
        game.legal_actions(&mut legal);
        game.apply(legal[0]).unwrap();
        if game.history().len() > before && game.to_act().is_some() {
            month(&game, &mut log);
        }
    }
    for (i, hand) in game.history().iter().enumerate() {
        log.push(format!(
            "record of month {}: carried {}",
            i + 1,
            serde_json::to_string(&hand.carried).unwrap()
        ));
    }
    insta::assert_snapshot!(log.join("\n"));
}

/// A five-seat deal with seat 0 dealing: five hands of seven, the table's six, then the rest of
/// the pack in deck order.
fn five_seat_deal(r: &Ruleset, hands: [&str; 5], table: &str) -> Vec<CardId> {
    let mut order: Vec<CardId> = Vec::new();
    for part in hands.iter().chain([&table]) {
        for id in part.split_whitespace() {
            order.push(r.deck.card_by_id(id).unwrap_or_else(|| panic!("{id}")));
        }
    }
    let dealt: CardSet = order.iter().copied().collect();
    order.extend((r.deck.all() - dealt).iter());
    order
}

#[test]
fn at_five_seats_two_drop_out_and_pay_each_of_the_three_who_play() {
    // bga: "Hachi-hachi can be played with 3 to 6 players, but each playing phase is played with
    // only three players. In the bidding phase, players will determine whether they will join
    // the playing phase or sit out that round", from the dealer. Seat 0 deals and drops, seat 1
    // plays, seat 2 drops; seats 3 and 4 must play (two places for two seats). The Moon on the
    // table makes a large field, x2 (kirisame: the field "affects all point values (including
    // the cost of folding)"). Choice: a seat that drops pays 4 points to each player, so seats 0
    // and 2 pay 8 to each of seats 1, 3 and 4: -24 each, and nothing else (they sit the hand
    // out). Their hands go under the stock: the three who play draw from 21 cards.
    let r = hachihachi();
    let order = five_seat_deal(
        &r,
        [
            "pine-1 cherry-1 wisteria-1 wisteria-2 iris-1 iris-2 peony-1",
            "clover-1 clover-2 pampas-1 pampas-2 chrysanthemum-1 chrysanthemum-2 maple-deer",
            "maple-2 maple-blue paulownia-1 paulownia-2 paulownia-3 willow-swallow willow-lightning",
            "pine-crane plum-1 plum-2 cherry-2 wisteria-cuckoo iris-bridge peony-2",
            "pine-2 plum-warbler cherry-curtain clover-boar chrysanthemum-sake maple-1 willow-rainman",
        ],
        "pine-poetry plum-poetry cherry-poetry peony-blue clover-ribbon pampas-moon",
    );
    let options = StartOptions {
        seed: 1,
        seats: Some(5),
        deck_orders: vec![order],
        first_dealer: Some(0),
        log_events: true,
        rounds: Some(1),
        ..StartOptions::default()
    };
    let mut game = start(Arc::clone(&r), options).unwrap();
    let decl = |id: &str| {
        let i = r.declarations.iter().position(|d| d.id == id).unwrap();
        Action::declare(crate::ruleset::DeclId(i as u8))
    };
    let mut log = Vec::new();
    // The decisions: seat 0 drops, seat 1 plays, seat 2 drops; nobody else is asked.
    for (seat, choice) in [(0, "drop"), (1, "play"), (2, "drop")] {
        assert_eq!(game.to_act(), Some(seat));
        assert_eq!(game.phase(), super::Phase::DropOut);
        assert_eq!(game.legal(), vec![decl("play"), decl("drop")]);
        game.apply(decl(choice)).unwrap();
    }
    assert_eq!(game.phase(), super::Phase::Play);
    log.push(format!(
        "after the decisions: sitting out {:05b}, stock {} cards (under it: {}), seat {:?} to play, field {}",
        game.marks().out,
        game.stock_len(),
        r.deck
            .ids(game.stock()[game.stock_len() - 14..].iter().copied().collect())
            .join(" "),
        game.to_act(),
        game.table_count()
    ));
    let mut legal = Vec::new();
    while game.to_act().is_some() {
        let seat = game.to_act().unwrap();
        assert!(!game.marks().sits_out(seat), "seat {seat} sits out");
        game.legal_actions(&mut legal);
        game.apply(legal[0]).unwrap();
    }
    for e in game.drain_events() {
        match e {
            Event::Declared { player, decl, .. } => log.push(format!(
                "seat {player}: {}",
                r.declarations[usize::from(decl.0)].name
            )),
            Event::TurnEvent { player, name, .. } => log.push(format!("seat {player}: {name}")),
            _ => {}
        }
    }
    let hand = &game.history()[0];
    let o = hand
        .outcome
        .as_ref()
        .expect("a settled hand explains itself");
    for step in &o.steps {
        log.push(format!(
            "seat {}: {} = {}",
            step.seat.unwrap(),
            step.reason,
            step.total
        ));
    }
    log.push(format!("points {:?}", hand.points.to_vec()));
    insta::assert_snapshot!(log.join("\n"));
    assert_eq!(hand.points.iter().sum::<i64>(), 0);
    assert_eq!((hand.points[0], hand.points[2]), (-24, -24));
    // The script's per-seat answer says the same points, the payments included.
    assert_eq!(o.seats, hand.points.to_vec());
}

#[test]
fn the_seat_protocol_offers_play_or_drop_out_and_takes_either_by_name() {
    // A program in a seat is asked the decision as any other: the two declarations are its
    // legal actions, and it may answer with either by id.
    let r = hachihachi();
    let options = StartOptions {
        seed: 5,
        seats: Some(4),
        first_dealer: Some(0),
        rounds: Some(1),
        ..StartOptions::default()
    };
    let mut game = start(Arc::clone(&r), options).unwrap();
    assert_eq!(game.phase(), super::Phase::DropOut);
    let legal = game.legal();
    let turn = crate::core::protocol::turn(&game, 0, &legal);
    let json = serde_json::to_value(&turn).unwrap();
    assert_eq!(
        json["legal"],
        serde_json::json!([
            {"action": "declare", "id": "play"},
            {"action": "declare", "id": "drop"}
        ]),
        "{json}"
    );
    let answer = r#"{"action": {"action": "declare", "id": "drop"}}"#;
    let action = crate::core::protocol::answered(answer, &legal, &r).unwrap();
    game.apply(action).unwrap();
    assert!(game.marks().sits_out(0));
}
