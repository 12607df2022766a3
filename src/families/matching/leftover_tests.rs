//! Leftover cards by rule (issue 43, wall 6): `[[flow.leftover_to]]` gives the table's leftover
//! cards of a set to a seat (the captor of a card, the last capturer, the dealer) before the rest
//! follow `[flow] leftover`, on `tests/rulesets/leftover-to.toml` (one deal of Scopa whose
//! leftover coins go to whoever took the Seven of Coins).

use super::start;
use crate::core::record::Record;
use crate::core::{Agent, Event, Game as _, StartOptions, agent_rng, play_out};
use crate::deck::CardSet;
use crate::families::{agent_by_name, replay};
use crate::ruleset::{self, LeftoverSeat, Ruleset};
use std::sync::Arc;

const LEFTOVER: &str = "tests/rulesets/leftover-to.toml";

fn load(path: &str) -> Arc<Ruleset> {
    let loaded = ruleset::load(path);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

/// Random one-hand games: every card once in some zone; at the hand's end the coins left on
/// the table went to the seat that took the Seven of Coins, when one did.
#[test]
fn random_hands_give_the_leftover_coins_to_the_settebellos_taker() {
    let r = load(LEFTOVER);
    let coins = r
        .deck
        .card_by_id("coins-ace")
        .map(|c| r.deck.same_suit(c))
        .unwrap();
    let seven = r.deck.card_by_id("coins-7").unwrap();
    let mut given = 0;
    for seed in 0..60 {
        let options = StartOptions {
            seed,
            rounds: Some(1),
            log_events: true,
            ..StartOptions::default()
        };
        let mut game = start(Arc::clone(&r), options).unwrap();
        let mut agents: Vec<Box<dyn Agent>> = (0..2)
            .map(|_| agent_by_name("random", &r).unwrap())
            .collect();
        play_out(&mut game, &mut agents, &mut agent_rng(seed)).unwrap();
        let zones = game.zones();
        let all = zones.iter().fold(CardSet::EMPTY, |u, (_, c)| u | *c);
        let count: u32 = zones.iter().map(|(_, c)| c.len()).sum();
        assert_eq!(all, r.deck.all(), "seed {seed}");
        assert_eq!(count, r.deck.cards.len() as u32, "seed {seed}");
        let taker = (0..2).find(|&s| game.captured(s).contains(seven));
        for e in game.drain_events() {
            if let Event::TableTaken { player, cards } = e {
                let set: CardSet = cards.iter().copied().collect();
                if !(set & coins).is_empty() && taker.is_some() {
                    // The coins are given alone, to the taker.
                    if set - coins == CardSet::EMPTY {
                        assert_eq!(Some(player), taker, "seed {seed}");
                        given += 1;
                    }
                }
            }
        }
        // No coin stays on the table when someone took the Seven.
        if taker.is_some() {
            assert!((game.table() & coins).is_empty(), "seed {seed}");
        }
    }
    assert!(given > 2, "{given} hands gave leftover coins");
}

#[test]
fn records_replay_the_leftovers() {
    let r = load(LEFTOVER);
    for seed in 0..10 {
        let names = vec!["random".to_string(), "random".to_string()];
        let mut record = Record::new(&r, &r.id, Some(seed), &names, None);
        let options = StartOptions {
            seed,
            rounds: Some(3),
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
    }
}

#[test]
fn leftover_keys_are_checked_where_they_are_written() {
    let r = load(LEFTOVER);
    let rule = &r.matching().unwrap().leftover_rules[0];
    assert_eq!(
        rule.to,
        LeftoverSeat::Holder(r.deck.card_by_id("coins-7").unwrap())
    );
    let bad = |keys: &str| {
        let text = format!(
            "[ruleset]\nid = \"bad\"\nextends = \"scopa\"\n\n[[flow.leftover_to]]\n{keys}\n"
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
    let cases = [
        bad("cards = \"coins\""),
        bad("cards = \"coins\"\nholder = \"coins-77\""),
        bad("cards = \"coins\"\nto = \"dealer\"\nholder = \"coins-7\""),
        bad("cards = \"coinz\"\nto = \"dealer\""),
        bad("cards = \"coins\"\nto = \"winner\""),
        bad("to = \"dealer\""),
    ];
    insta::assert_snapshot!(cases.join("\n"), @r#"
    bad.toml:5:1: a leftover rule to a card's captor needs `holder`
    bad.toml:7:10: unknown card `coins-77`
    bad.toml:8:10: `holder` is read only with `to = "holder"`
    bad.toml:6:10: unknown name `coinz`
    bad.toml:7:6: unknown value `winner` for `to`
    bad.toml:5:1: a `[[flow.leftover_to]]` is missing the key `cards`
    "#);
}
