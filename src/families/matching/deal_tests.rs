//! What a deal gives (issue 43, walls 4 and 11): a dealt table's cards captured and a turn event
//! counted for a seat (`[[flow.deal_bonus]]`), and dealt combinations checked on every deal of a
//! hand (`[flow] deal_checks = "every"`), on `tests/rulesets/deal-sweep.toml` (Scopa where the
//! dealer takes a table dealt to 15 as a sweep, to 30 as two, and a hand of three adding up to
//! less than 10 scores 3 on every deal).

use super::{MatchingGame, start};
use crate::core::record::Record;
use crate::core::{Agent, Event, Game as _, StartOptions, agent_rng, play_out};
use crate::deck::{CardId, CardSet};
use crate::families::{agent_by_name, record_events, replay};
use crate::ruleset::{self, Ruleset};
use std::sync::Arc;

const SWEEP: &str = "tests/rulesets/deal-sweep.toml";
/// Matgo where the dealer takes a four of a month dealt to the table.
const FOUR: &str = "tests/rulesets/deal-four.toml";

fn load(path: &str) -> Arc<Ruleset> {
    let loaded = ruleset::load(path);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

/// `text`, a ruleset that extends the test ruleset.
fn extended(text: &str) -> Arc<Ruleset> {
    let text = format!(
        "[ruleset]\nid = \"more\"\nextends = \"{}/{SWEEP}\"\n\n{text}",
        env!("CARGO_MANIFEST_DIR")
    );
    let loaded = ruleset::load_str("more.toml", &text);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

fn set(r: &Ruleset, ids: &str) -> CardSet {
    ids.split_whitespace()
        .map(|id| r.deck.card_by_id(id).unwrap_or_else(|| panic!("{id}")))
        .collect()
}

/// A one-hand game of `r` whose deal gives the dealer (seat 0) `dealer`, seat 1 `other` and the
/// table `table`, as the deal plan says; then `stock` on top of the stock, the rest of the pack
/// after it in deck order. Events logged.
fn dealt(r: &Arc<Ruleset>, dealer: &str, other: &str, table: &str, stock: &str) -> MatchingGame {
    let flow = r.matching().unwrap();
    let mut lists: Vec<Vec<CardId>> = [dealer, other, table]
        .iter()
        .map(|s| {
            let mut l: Vec<CardId> = set(r, s).iter().collect();
            l.reverse();
            l
        })
        .collect();
    let mut order: Vec<CardId> = flow
        .deal_plan(2)
        .iter()
        .map(|&to| lists[usize::from(to)].pop().expect("a card for the plan"))
        .collect();
    order.extend(
        stock
            .split_whitespace()
            .map(|id| r.deck.card_by_id(id).unwrap()),
    );
    let placed: CardSet = order.iter().copied().collect();
    order.extend((r.deck.all() - placed).iter());
    let options = StartOptions {
        seed: 1,
        deck_orders: vec![order],
        first_dealer: Some(0),
        log_events: true,
        rounds: Some(1),
        ..StartOptions::default()
    };
    start(Arc::clone(r), options).unwrap()
}

/// The deal bonuses and dealt combinations announced, one a line.
fn story(game: &mut MatchingGame) -> String {
    let r = Arc::clone(game.ruleset());
    game.drain_events()
        .iter()
        .filter_map(|e| match e {
            Event::DealBonus(given) => Some(format!(
                "seat {} {}: takes {} ({} x{})",
                given.player,
                given.id,
                r.deck.ids(given.cards.iter().copied().collect()).join(" "),
                given.turn_event.as_deref().unwrap_or("no event"),
                given.times,
            )),
            Event::TurnEvent { player, id, .. } => Some(format!("seat {player} {id}")),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The index of turn event `id`.
fn event(r: &Ruleset, id: &str) -> usize {
    let flow = r.matching().unwrap();
    flow.turn_events.iter().position(|e| e.id == id).unwrap()
}

#[test]
fn a_table_dealt_to_15_is_the_dealers_sweep() {
    // The guide's worked example: the Ace of Coins, the Two of Cups, the Five of Swords and
    // the Seven of Batons add up to 15. The dealer takes them and scores a scopa before anyone
    // plays; the table is empty.
    let r = load(SWEEP);
    let mut game = dealt(
        &r,
        "cups-4 swords-7 batons-jack",
        "swords-4 swords-6 batons-king",
        "coins-ace cups-2 swords-5 batons-7",
        "",
    );
    assert_eq!(game.table(), CardSet::EMPTY);
    assert_eq!(
        game.captured(0),
        set(&r, "coins-ace cups-2 swords-5 batons-7")
    );
    assert_eq!(game.marks().fired(0, event(&r, "scopa")), 1);
    assert_eq!(game.marks().fired(1, event(&r, "scopa")), 0);
    insta::assert_snapshot!(story(&mut game), @"seat 0 deal-scopa: takes coins-ace cups-2 swords-5 batons-7 (scopa x1)");
    // The move log says it.
    let style = crate::front::screen::Style {
        color: false,
        labels: vec!["seat 0".into(), "seat 1".into()],
        brief: true,
    };
    let events = [Event::DealBonus(Box::new(crate::core::DealBonusGiven {
        player: 0,
        id: "deal-scopa".into(),
        name: "Sweep at the deal".into(),
        cards: set(&r, "coins-ace cups-2").iter().collect(),
        turn_event: Some("scopa".into()),
        times: 1,
    }))];
    let text = crate::front::screen::narrate(&style, &game, &events);
    insta::assert_snapshot!(text.trim(), @"seat 0 takes Ace of Coins, Two of Cups from the dealt table: Sweep at the deal");
}

#[test]
fn a_table_dealt_to_30_is_two_sweeps_and_14_is_none() {
    let r = load(SWEEP);
    let mut game = dealt(
        &r,
        "cups-4 swords-7 batons-jack",
        "swords-4 swords-6 batons-2",
        "coins-king cups-king swords-knight batons-ace",
        "",
    );
    assert_eq!(game.table(), CardSet::EMPTY);
    assert_eq!(game.marks().fired(0, event(&r, "scopa")), 2);
    insta::assert_snapshot!(story(&mut game), @"seat 0 deal-scopa-30: takes coins-king cups-king swords-knight batons-ace (scopa x2)");
    let game = dealt(
        &r,
        "cups-4 swords-7 batons-jack",
        "swords-4 swords-6 batons-2",
        "coins-ace cups-2 swords-5 batons-6",
        "",
    );
    assert_eq!(game.table().len(), 4);
    assert_eq!(game.captured(0), CardSet::EMPTY);
}

#[test]
fn the_holder_of_a_card_or_the_first_player_receives_it() {
    // The seat dealt the Seven of Coins takes the table's coins; the first player (seat 1,
    // after the dealer) scores a scopa for a table holding a King, taking nothing.
    let r = extended(
        "[[flow.deal_bonus]]\nid = \"coins\"\nwhen = \"any(coins)\"\ntake = \"coins\"\nto = \"holder\"\nholder = \"coins-7\"\n\n[[flow.deal_bonus]]\nid = \"king\"\nwhen = \"any(king)\"\nto = \"first_player\"\nevent = \"scopa\"\n",
    );
    let mut game = dealt(
        &r,
        "cups-4 swords-7 batons-jack",
        "coins-7 swords-6 batons-2",
        "coins-ace coins-2 cups-king batons-6",
        "",
    );
    assert_eq!(game.captured(1), set(&r, "coins-ace coins-2"));
    assert_eq!(game.table(), set(&r, "cups-king batons-6"));
    assert_eq!(game.marks().fired(1, event(&r, "scopa")), 1);
    insta::assert_snapshot!(story(&mut game), @r"
    seat 1 coins: takes coins-ace coins-2 (no event x0)
    seat 1 king: takes  (scopa x1)
    ");
    // Nobody holds the Seven of Coins (it is in the stock): nobody takes the coins.
    let game = dealt(
        &r,
        "cups-4 swords-7 batons-jack",
        "cups-7 swords-6 batons-2",
        "coins-ace coins-2 cups-king batons-6",
        "",
    );
    assert_eq!(
        game.table(),
        set(&r, "coins-ace coins-2 cups-king batons-6")
    );
}

#[test]
fn a_dealt_four_of_a_month_goes_to_the_dealer() {
    // The four Pines dealt to the table with four other cards: the dealer takes the Pines
    // (`take = "in_suits_with(4)"`), the rest stays.
    let r = load(FOUR);
    let mut game = dealt(
        &r,
        "clover-1 clover-2 pampas-1 pampas-2 chrysanthemum-1 chrysanthemum-2 maple-1 maple-2 paulownia-1 paulownia-2",
        "plum-bird plum-ribbon cherry-1 cherry-2 wisteria-1 wisteria-2 iris-1 iris-2 peony-1 peony-2",
        "pine-crane pine-ribbon pine-1 pine-2 plum-1 cherry-curtain iris-bridge rain-man",
        "",
    );
    assert_eq!(
        game.captured(0),
        set(&r, "pine-crane pine-ribbon pine-1 pine-2")
    );
    assert_eq!(
        game.table(),
        set(&r, "plum-1 cherry-curtain iris-bridge rain-man")
    );
    insta::assert_snapshot!(story(&mut game), @"seat 0 four-dealt: takes pine-crane pine-ribbon pine-1 pine-2 (no event x0)");
    // Three Pines and three Plums: no four, nothing taken.
    let game = dealt(
        &r,
        "clover-1 clover-2 pampas-1 pampas-2 chrysanthemum-1 chrysanthemum-2 maple-1 maple-2 paulownia-1 paulownia-2",
        "pine-2 plum-2 cherry-1 cherry-2 wisteria-1 wisteria-2 iris-1 iris-2 peony-1 peony-2",
        "pine-crane pine-ribbon pine-1 plum-bird plum-ribbon plum-1 iris-bridge rain-man",
        "",
    );
    assert_eq!(game.captured(0), CardSet::EMPTY);
    assert_eq!(game.table().len(), 8);
}

/// The dealt combinations seat 1 (the first to play) holds after the six plays that empty the
/// hands of the refill example, and what was announced.
fn refilled(r: &Arc<Ruleset>) -> (u16, String) {
    let mut game = dealt(
        r,
        "cups-king batons-king coins-king",
        "swords-ace swords-2 swords-3",
        "coins-ace cups-2 swords-5 batons-7",
        "coins-2 coins-7 cups-3 cups-7 batons-ace batons-6",
    );
    for id in [
        "swords-3",
        "cups-king",
        "swords-2",
        "batons-king",
        "swords-ace",
        "coins-king",
    ] {
        let card = r.deck.card_by_id(id).unwrap();
        game.apply(crate::core::Action::Play { card }).unwrap();
    }
    assert_eq!(game.hand(1), set(r, "coins-2 cups-3 batons-ace"));
    let per = r.matching().unwrap().dealt_yaku.len();
    let again = (game.marks().dealt_again.as_deref())
        .and_then(|again| again.get(per).copied())
        .unwrap_or(0);
    (again, story(&mut game))
}

#[test]
fn every_deal_of_a_hand_is_checked_when_the_rules_say() {
    // The refill deals seat 1 the Two of Coins, the Three of Cups and the Ace of Batons (6): a
    // second Low hand, as the first deal's Ace, Two and Three of Swords were.
    let r = load(SWEEP);
    let (again, told) = refilled(&r);
    assert_eq!(again, 1);
    insta::assert_snapshot!(told, @r"
    seat 0 deal-scopa: takes coins-ace cups-2 swords-5 batons-7 (scopa x1)
    seat 1 low-hand
    seat 1 low-hand
    ");
    // With the first deal alone (the default), the refill is not checked.
    let first = extended("[flow]\ndeal_checks = \"first\"\n");
    let (again, told) = refilled(&first);
    assert_eq!(again, 0);
    insta::assert_snapshot!(told, @r"
    seat 0 deal-scopa: takes coins-ace cups-2 swords-5 batons-7 (scopa x1)
    seat 1 low-hand
    ");
}

#[test]
fn deal_bonus_keys_are_checked_where_they_are_written() {
    let bad = |text: &str| {
        let text = format!(
            "[ruleset]\nid = \"bad\"\nextends = \"{}/{SWEEP}\"\n\n{text}\n",
            env!("CARGO_MANIFEST_DIR")
        );
        let loaded = ruleset::load_str("bad.toml", &text);
        assert!(loaded.value.is_none(), "{text}");
        loaded
            .diagnostics
            .iter()
            .filter(|d| d.severity == crate::diag::Severity::Error)
            .map(|d| format!("{}: {}", loaded.sources.describe(&d.loc), d.message))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let bonus = |keys: &str| bad(&format!("[[flow.deal_bonus]]\nid = \"x\"\n{keys}"));
    let cases = [
        bonus("when = \"true\"\nevent = \"sweep\""),
        bonus("when = \"true\"\ntake = \"pile\"\nholder = \"coins-7\""),
        bonus("when = \"true\"\ntake = \"pile\"\nto = \"holder\""),
        bonus("when = \"true\"\ntake = \"pile\"\nto = \"holder\"\nholder = \"coins-77\""),
        bonus("when = \"true\"\nevent = \"scopa\"\ntimes = 0"),
        bonus("when = \"true\"\ntake = \"pile\"\ntimes = 2"),
        bonus("when = \"true\""),
        bonus("when = \"true\"\ntake = \"3\""),
        bonus("when = \"true\"\ntake = \"pile\"\non = \"hands\""),
        bonus("when = \"true\"\ntake = \"pile\"\nto = \"winner\""),
        bad("[flow]\nrefill = false\ndeal_checks = \"every\""),
    ];
    insta::assert_snapshot!(cases.join("\n"), @r#"
    bad.toml:8:9: unknown turn event `sweep`
    bad.toml:9:10: `holder` is read only with `to = "holder"`
    bad.toml:5:1: `to = "holder"` needs `holder`
    bad.toml:10:10: unknown card `coins-77`
    bad.toml:9:9: `times` must be between 1 and 100, found 0
    bad.toml:5:1: `times` counts an `event`, and there is none
    bad.toml:5:1: a deal bonus does nothing without `take` or `event`
    bad.toml:8:9: expected a card set, found a number
    bad.toml:9:1: unknown key `on` in a `[[flow.deal_bonus]]`
    bad.toml:9:6: unknown value `winner` for `to`
    bad.toml:7:15: `deal_checks = "every"` needs `refill = true`: without it a hand has one deal
    "#);
}

/// Whole one-hand games of `r` between random bots: every card ends in a pile or on the table,
/// none twice; how many deal bonuses were given.
fn hands_keep_every_card(r: &Arc<Ruleset>, seeds: std::ops::Range<u64>) -> usize {
    let mut given = 0;
    for seed in seeds {
        let options = StartOptions {
            seed,
            rounds: Some(1),
            log_events: true,
            ..StartOptions::default()
        };
        let mut game = start(Arc::clone(r), options).unwrap();
        let mut agents: Vec<Box<dyn Agent>> = (0..2)
            .map(|_| agent_by_name("random", r).unwrap())
            .collect();
        play_out(&mut game, &mut agents, &mut agent_rng(seed)).unwrap();
        assert!(game.is_over(), "seed {seed}");
        // Every zone together (the piles, the table, and what a hand stopped early left in the
        // hands and the stock): each card once.
        let zones = game.zones();
        let all = zones.iter().fold(CardSet::EMPTY, |u, (_, c)| u | *c);
        let count: u32 = zones.iter().map(|(_, c)| c.len()).sum();
        assert_eq!(all, r.deck.all(), "seed {seed}");
        assert_eq!(count, r.deck.cards.len() as u32, "seed {seed}");
        given += game
            .drain_events()
            .iter()
            .filter(|e| matches!(e, Event::DealBonus(_)))
            .count();
    }
    given
}

/// A ruleset whose deal bonuses are given on most deals.
fn often() -> Arc<Ruleset> {
    extended(
        "[[flow.deal_bonus]]\nid = \"coins\"\nwhen = \"any(coins)\"\ntake = \"coins\"\nto = \"holder\"\nholder = \"coins-7\"\n\n[[flow.deal_bonus]]\nid = \"king\"\nwhen = \"any(king)\"\ntake = \"king\"\nto = \"first_player\"\nevent = \"scopa\"\n",
    )
}

#[test]
fn random_hands_keep_every_card() {
    hands_keep_every_card(&load(SWEEP), 0..40);
    hands_keep_every_card(&load(FOUR), 0..40);
    let given = hands_keep_every_card(&often(), 0..40);
    assert!(given > 10, "{given} deal bonuses in 40 hands");
}

#[test]
fn records_replay_and_tell_the_deal_bonuses() {
    let r = often();
    let mut told = 0;
    for seed in 0..10 {
        let names = vec!["random".to_string(), "random".to_string()];
        let mut record = Record::new(&r, &r.id, Some(seed), &names, None);
        let options = StartOptions {
            seed,
            rounds: Some(2),
            ..StartOptions::default()
        };
        let mut game = crate::families::start(Arc::clone(&r), options).unwrap();
        let mut agents: Vec<Box<dyn Agent>> = (0..2)
            .map(|_| agent_by_name("random", &r).unwrap())
            .collect();
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        while let Some(seat) = game.to_act() {
            game.legal_actions(&mut legal);
            let a = agents[seat].choose(&*game, seat, &legal, &mut rng);
            record.push(seat, a, &r);
            game.apply(a).unwrap();
        }
        record.sync(&*game);
        let back = Record::from_json(&record.to_json()).unwrap();
        let again = replay(&back, Arc::clone(&r)).unwrap();
        assert_eq!(again.history(), game.history(), "seed {seed}");
        assert_eq!(again.scores(), game.scores(), "seed {seed}");
        let events = record_events(&back, Arc::clone(&r)).unwrap();
        for e in events
            .iter()
            .filter(|e| e.event.get("event").and_then(|v| v.as_str()) == Some("deal_bonus"))
        {
            assert!(e.event.contains_key("cards"), "{:?}", e.event);
            assert!(e.event.contains_key("player"), "{:?}", e.event);
            told += 1;
        }
    }
    assert!(told > 5, "{told} deal bonuses told");
}
