//! Records replayed through the family registry: every family's game comes back from its
//! record, and a damaged record is refused with its reason.

use super::*;
use crate::core::record::{HashCheck, Record, RecordErrorKind, StepAction, VERSION};
use crate::core::{Agent, agent_rng};
use crate::ruleset;

fn played(name: &str, players: &[&str], seed: u64) -> (Arc<Ruleset>, Record, Box<dyn Game>) {
    let r = Arc::new(ruleset::load(name).value.unwrap());
    let players: Vec<String> = players.iter().map(|p| p.to_string()).collect();
    let mut record = Record::new(&r, name, Some(seed), &players, None);
    let options = StartOptions {
        seed,
        seats: Some(players.len()),
        ..StartOptions::default()
    };
    let mut game = start(Arc::clone(&r), options).unwrap();
    let mut agents: Vec<Box<dyn Agent>> = players
        .iter()
        .map(|p| agent_by_name(p, &r).unwrap())
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
    (r, record, game)
}

#[test]
fn a_record_replays_to_the_same_outcomes_through_json() {
    let games: &[(&str, &[&str])] = &[
        ("koikoi", &["greedy", "random"]),
        ("koikoi-classic", &["greedy", "random"]),
        ("koikoi-ktane", &["greedy", "random"]),
        ("kolyesi", &["seed", "random", "best"]),
        // A called partner: the call is an action of the record.
        (
            "tests/rulesets/called-partner.toml",
            &["greedy", "random", "greedy", "random"],
        ),
        (
            "tests/rulesets/partner-cards.toml",
            &["greedy", "random", "random", "random"],
        ),
        // Announcements (Kontra, Re, targets): each is an action of the record.
        (
            "tests/rulesets/kontra-re.toml",
            &["random", "random", "greedy", "random"],
        ),
    ];
    for (name, players) in games {
        let (r, record, game) = played(name, players, 11);
        let back = Record::from_json(&record.to_json()).unwrap();
        assert_eq!(back, record);
        assert!(back.finished);
        let replayed = replay(&back, Arc::clone(&r)).unwrap();
        assert_eq!(replayed.history(), game.history());
        assert_eq!(replayed.scores(), game.scores());
        // Without the seed, the recorded deals and first dealer are enough.
        let mut seedless = back.clone();
        seedless.seed = None;
        let replayed = replay(&seedless, r).unwrap();
        assert_eq!(replayed.history(), game.history(), "{name}");
    }
}

#[test]
fn a_version_1_record_is_read_as_version_2() {
    let (r, record, game) = played("koikoi-classic", &["greedy", "greedy"], 4);
    let mut v1: serde_json::Value = serde_json::from_str(&record.to_json()).unwrap();
    v1["version"] = 1.into();
    let mut calls = 0;
    for step in v1["actions"].as_array_mut().unwrap() {
        if step["action"] == "declare" {
            let old = match step["id"].as_str().unwrap() {
                "koikoi" => serde_json::json!({"action": "koi_koi"}),
                "stop" => serde_json::json!({"action": "stop"}),
                "swap" => serde_json::json!({"action": "swap_hands", "swap": true}),
                "keep" => serde_json::json!({"action": "swap_hands", "swap": false}),
                other => panic!("unexpected declaration {other}"),
            };
            *step = old;
            calls += 1;
        }
    }
    assert!(calls > 0);
    let back = Record::from_json(&v1.to_string()).unwrap();
    assert_eq!(back.version, VERSION);
    assert_eq!(replay(&back, r).unwrap().history(), game.history());
}

#[test]
fn errors_name_the_action_and_the_reason() {
    let (r, mut record, _) = played("koikoi", &["greedy", "random"], 3);
    record.actions[5].action = StepAction::Play {
        card: "no-such-card".into(),
    };
    let e = replay(&record, Arc::clone(&r)).err().unwrap();
    assert_eq!(e.to_string(), "action 5: unknown card `no-such-card`");
    record.actions[5].action = StepAction::Declare {
        id: "stop".into(),
        card: None,
    };
    let e = replay(&record, Arc::clone(&r)).err().unwrap();
    assert!(
        matches!(e.kind, RecordErrorKind::Illegal { index: 5, .. }),
        "{e}"
    );
    record.actions[5].action = StepAction::Declare {
        id: "no-such".into(),
        card: None,
    };
    let e = replay(&record, Arc::clone(&r)).err().unwrap();
    assert!(matches!(
        e.kind,
        RecordErrorKind::UnknownDeclaration { index: 5, .. }
    ));
    let mut bad = record.clone();
    bad.deals[0].pop();
    let e = replay(&bad, Arc::clone(&r)).err().unwrap();
    assert!(matches!(e.kind, RecordErrorKind::BadDeal { deal: 0, .. }));
    let mut bad = record.clone();
    bad.first_dealer = Some(7);
    let e = replay(&bad, Arc::clone(&r)).err().unwrap();
    assert!(
        matches!(
            e.kind,
            RecordErrorKind::BadField {
                field: "first_dealer",
                ..
            }
        ),
        "{e}"
    );
    let mut bad = record.clone();
    bad.rounds = Some(u32::MAX);
    assert!(replay(&bad, Arc::clone(&r)).is_err());
    let mut bad = record.clone();
    bad.ruleset.id = "other".into();
    let e = replay(&bad, r).err().unwrap();
    assert!(
        matches!(e.kind, RecordErrorKind::OtherRuleset { .. }),
        "{e}"
    );
    assert!(matches!(
        Record::from_json("{\"format\":\"other\"}")
            .unwrap_err()
            .kind,
        RecordErrorKind::Format { .. }
    ));
}

#[test]
fn hash_check() {
    let (r, mut record, _) = played("koikoi", &["greedy", "random"], 1);
    assert_eq!(record.check_hash(&r), HashCheck::Same);
    record.ruleset.content_hash = Some("0000000000000000".into());
    assert!(matches!(record.check_hash(&r), HashCheck::Differs { .. }));
    record.ruleset.content_hash = None;
    assert_eq!(record.check_hash(&r), HashCheck::Unrecorded);
}

#[test]
fn deals_and_actions_are_written_one_to_a_line_and_read_back() {
    let (_, mut record, _) = played("koikoi", &["greedy", "random"], 4);
    let json = record.to_json();
    let deals = record.deals.len();
    let actions = record.actions.len();
    // One line a deal and a step, plus the record's own fields: far fewer lines than one
    // card id a line.
    assert!(json.lines().count() < deals + actions + 40, "{json}");
    assert!(json.contains("\n  \"deals\": [\n    [\""), "{json}");
    assert!(json.contains("\n    {\"seat\": "), "{json}");
    assert_eq!(Record::from_json(&json).unwrap(), record);
    // An empty list stays on its line.
    record.actions.clear();
    assert!(record.to_json().contains("\"actions\": []"));
    // More players than any table: refused before they are read.
    let mut crowd: serde_json::Value = serde_json::from_str(&json).unwrap();
    crowd["players"] = serde_json::json!(vec!["greedy"; 100_000]);
    let err = Record::from_json(&crowd.to_string()).unwrap_err();
    assert!(err.to_string().contains("100000 players"), "{err}");
}

/// A record's events let a reader follow every card: starting from each `dealt` (every zone)
/// and applying each `moved` (cards added to and removed from zones), the zones at the end are
/// the game's, in every family; the events come in the order of the actions they follow.
#[test]
fn a_records_events_follow_every_card_to_the_end() {
    use std::collections::{BTreeMap, BTreeSet};
    let games: &[(&str, &[&str])] = &[
        ("koikoi", &["random", "random"]),
        ("gostop", &["random", "random", "random"]),
        ("scopa", &["random", "random"]),
        ("schnapsen", &["random", "random"]),
        ("pinochle", &["random", "random", "random", "random"]),
        ("oicho-kabu", &["random", "random"]),
        ("kolyesi", &["random", "random", "random"]),
    ];
    for &(name, players) in games {
        let (r, record, game) = played(name, players, 3);
        let events = super::record_events(&record, Arc::clone(&r)).unwrap();
        assert!(
            events.windows(2).all(|w| w[0].after <= w[1].after),
            "{name}: events in action order"
        );
        assert!(events.iter().all(|e| e.after <= record.actions.len()));
        let text = |v: &serde_json::Value| v.as_str().unwrap().to_string();
        let cards = |v: &serde_json::Value| -> BTreeSet<String> {
            v.as_array().unwrap().iter().map(text).collect()
        };
        let mut zones: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut deals = 0;
        for e in &events {
            let changes = e.event.get("zones").and_then(|v| v.as_array());
            let changes = changes.into_iter().flatten();
            match e.event.get("event").and_then(|v| v.as_str()) {
                Some("dealt") => {
                    deals += 1;
                    zones = changes
                        .map(|z| (text(&z["name"]), cards(&z["cards"])))
                        .collect();
                }
                Some("moved") => {
                    for z in changes {
                        let zone = zones.entry(text(&z["name"])).or_default();
                        for c in cards(&z["removed"]) {
                            assert!(
                                zone.remove(&c),
                                "{name}: {c} left {} it was not in",
                                z["name"]
                            );
                        }
                        zone.extend(cards(&z["added"]));
                    }
                }
                _ => {}
            }
        }
        assert!(deals >= 1, "{name}: a deal is told");
        zones.retain(|_, cards| !cards.is_empty());
        let end: BTreeMap<String, BTreeSet<String>> = game
            .zones()
            .into_iter()
            .filter(|(_, cards)| !cards.is_empty())
            .map(|(zone, cards)| {
                let ids = r.deck.ids(cards).into_iter().map(str::to_string).collect();
                (zone, ids)
            })
            .collect();
        assert_eq!(zones, end, "{name}");
        // Written with the record, one to a line, and passed over when it is read back.
        let mut written = record.clone();
        written.events = events.clone();
        let json = written.to_json();
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(
            value["events"],
            serde_json::to_value(&events).unwrap(),
            "{name}"
        );
        assert_eq!(
            json.lines().filter(|l| l.contains("\"after\"")).count(),
            events.len()
        );
        assert_eq!(Record::from_json(&json).unwrap(), record, "{name}");
    }
}
