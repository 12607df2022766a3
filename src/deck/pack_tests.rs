//! Decks of several packs (`packs = N` in a deck file) and the deck size limit; with the
//! `wide-decks` feature, a game with two 52-card packs dealt and played to the end.

use super::{CardId, CardSet, Deck};
use crate::ruleset::{Loaded, load_deck};
use std::path::PathBuf;

/// A file of this test's own, in a folder of this process's own.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yaku-pack-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A deck file of `ranks` suits (named by rank, as a fishing game by rank matches them) of the
/// four French suits' cards, `packs` times: `face` and `red` kinds, `points` 1 to 10.
fn ranked_deck(id: &str, ranks: usize, packs: u32) -> String {
    const RANKS: [&str; 13] = [
        "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
        "queen", "king",
    ];
    let mut text = format!(
        "[deck]\nid = \"{id}\"\nname = \"French packs by rank\"\npacks = {packs}\n\
         kinds = [\"face\", \"red\"]\nattributes = [\"points\"]\n"
    );
    for (i, rank) in RANKS.iter().take(ranks).enumerate() {
        text += &format!("\n[[suit]]\nid = \"{rank}s\"\ncards = [\n");
        for suit in ["hearts", "diamonds", "clubs", "spades"] {
            let mut kinds = Vec::new();
            if i >= 10 {
                kinds.push("\"face\"");
            }
            if suit == "hearts" || suit == "diamonds" {
                kinds.push("\"red\"");
            }
            text += &format!(
                "  {{ id = \"{suit}-{rank}\", name = \"{rank} of {suit}\", kinds = [{}], points = {} }},\n",
                kinds.join(", "),
                (i + 1).min(10)
            );
        }
        text += "]\n";
    }
    text
}

fn load(name: &str, text: &str) -> Loaded<Deck> {
    load_deck(temp_file(name, text).to_str().unwrap())
}

/// The errors of a deck that does not load, each with the text it points at.
fn errors(name: &str, text: &str) -> Vec<(String, String)> {
    let loaded = load(name, text);
    assert!(loaded.value.is_none(), "{name} loads");
    loaded
        .diagnostics
        .iter()
        .map(|d| {
            let file = &loaded.sources.get(d.loc.file).text;
            (d.message.clone(), file[d.loc.span.clone()].to_string())
        })
        .collect()
}

/// Two packs of six ranks: each suit holds its four listed cards, then their copies, named and
/// valued alike, with ids of their own.
#[test]
fn packs_copy_every_card_into_its_suit() {
    let loaded = load("two-packs.toml", &ranked_deck("two-packs", 6, 2));
    let messages: Vec<_> = loaded.diagnostics.iter().map(|d| &d.message).collect();
    let deck = loaded.value.unwrap_or_else(|| panic!("{messages:?}"));
    assert_eq!(deck.cards.len(), 48);
    let aces = deck.suits[0].cards;
    assert_eq!(
        aces,
        CardSet::first(8),
        "a suit's cards and copies lie together"
    );
    let ids: Vec<&str> = deck.ids(aces);
    assert_eq!(
        ids,
        [
            "hearts-ace",
            "diamonds-ace",
            "clubs-ace",
            "spades-ace",
            "hearts-ace-p2",
            "diamonds-ace-p2",
            "clubs-ace-p2",
            "spades-ace-p2"
        ]
    );
    for suit in &deck.suits {
        let cards: Vec<CardId> = suit.cards.iter().collect();
        let (first, second) = cards.split_at(4);
        for (&a, &b) in first.iter().zip(second) {
            assert!(deck.alike(a, b), "{} and {}", deck.id_of(a), deck.id_of(b));
            assert_eq!(deck.card(a).name, deck.card(b).name);
            assert_eq!(deck.card(b).id, format!("{}-p2", deck.card(a).id));
            assert_eq!(deck.same_suit(b), suit.cards);
        }
    }
    assert_eq!(deck.kind("red").unwrap().cards.len(), 24);
    assert_eq!(deck.kind("face").unwrap().cards.len(), 0);
    let points = &deck.attributes[0].values;
    assert_eq!(points.len(), 48);
    assert_eq!(points.iter().sum::<i64>(), 2 * 4 * (1..=6).sum::<i64>());
    let copy = deck.card_by_id("spades-six-p2").unwrap();
    assert_eq!(points[copy.index()], 6);
}

/// A rule naming a printed card means every copy of it: `with_copies` adds the other packs'
/// copies, from the original or from a copy, and leaves a deck of one pack's sets alone.
#[test]
fn a_card_named_stands_for_its_copies() {
    let deck = load("three-packs.toml", &ranked_deck("three-packs", 2, 3))
        .value
        .unwrap();
    let card = |id: &str| deck.card_by_id(id).unwrap();
    let ids = |set: CardSet| deck.ids(set).join(" ");
    assert_eq!(
        ids(deck.with_copies([card("hearts-two")].into_iter().collect::<CardSet>())),
        "hearts-two hearts-two-p2 hearts-two-p3"
    );
    assert_eq!(
        ids(deck.with_copies([card("clubs-ace-p3")].into_iter().collect::<CardSet>())),
        "clubs-ace clubs-ace-p2 clubs-ace-p3"
    );
    let one = load("one-pack.toml", &ranked_deck("one-pack", 2, 1))
        .value
        .unwrap();
    let set = [one.card_by_id("hearts-two").unwrap()]
        .into_iter()
        .collect::<CardSet>();
    assert_eq!(one.with_copies(set), set);
}

/// A deck past the limit is one error, at the first card that does not fit; copies that do not
/// fit are one error at `packs`; `packs` out of its range is an error at it.
#[test]
fn a_deck_too_large_is_one_error_where_it_outgrows_the_limit() {
    // Suits of four cards, listed once, past the limit by a few cards.
    let suits = CardSet::CAPACITY / 4 + 2;
    let mut text = "[deck]\nid = \"listed\"\n".to_string();
    for i in 0..suits {
        text += &format!("\n[[suit]]\nid = \"s{i}\"\ncards = [\n");
        for j in 0..4 {
            text += &format!("  {{ id = \"c{i}-{j}\" }},\n");
        }
        text += "]\n";
    }
    let found = errors("listed.toml", &text);
    assert_eq!(found.len(), 1, "{found:?}");
    let (message, at) = &found[0];
    assert!(
        message.contains(&format!("{} cards", suits * 4))
            && message.contains(&format!("at most {}", CardSet::CAPACITY)),
        "{message}"
    );
    assert_eq!(at, &format!("\"c{}-0\"", CardSet::CAPACITY / 4));
    // Thirteen ranks, listed once (52 cards), fit; three packs of them do not.
    let found = errors("packs.toml", &ranked_deck("packs", 13, 3));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].0.contains("156 cards"), "{found:?}");
    assert_eq!(found[0].1, "3");
    let found = errors("none.toml", &ranked_deck("none", 2, 0));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].0.contains("`packs` is 0"), "{found:?}");
}

/// A fishing game by rank for four with two 52-card packs: every card in exactly one zone at
/// every step, every game played to its end, and a recorded game replays.
#[cfg(feature = "wide-decks")]
#[test]
fn two_french_packs_deal_and_play_to_the_end_keeping_every_card() {
    use crate::agent::{Agent, GreedyAgent, RandomAgent, agent_rng};
    use crate::core::StartOptions;
    use crate::core::record::Record;
    use std::sync::Arc;

    let deck = temp_file("ranks-104.toml", &ranked_deck("ranks-104", 13, 2));
    let rules = format!(
        r#"
[ruleset]
id = "double-pack-fishing"
name = "Fishing by rank with two French packs (a test table)"
deck = "{}"

[[yaku]]
id = "faces"
name = "Faces"
description = "Four face cards; +1 for every other."
when = "count(face) >= 4"
points = "1 + count(face) - 4"

[[yaku]]
id = "reds"
name = "Reds"
description = "Eight red cards."
when = "count(red) >= 8"
points = "1"

[[declaration]]
id = "stop"
name = "Stop"
effect = "stop"

[flow]
style = "matching"
players = 4
min_players = 4
max_players = 4
hand_size = 8
table_size = 4
deal_packet = 2
deal_order = ["others", "dealer", "table"]
rounds = 2
first_dealer = "random"
next_dealer = "winner"
draw_dealer = "same"
exhausted = "draw"
"#,
        deck.display()
    );
    let loaded = crate::ruleset::load_str("double-pack-fishing.toml", &rules);
    let messages: Vec<_> = loaded.diagnostics.iter().map(|d| &d.message).collect();
    let r = Arc::new(loaded.value.unwrap_or_else(|| panic!("{messages:?}")));
    assert_eq!(r.deck.cards.len(), 104);
    assert_eq!(r.deck.all().len(), 104);
    let conserved = |game: &dyn crate::core::Game| {
        let mut seen = CardSet::EMPTY;
        for (zone, cards) in game.zones() {
            assert!(
                (seen & cards).is_empty(),
                "a card of `{zone}` is elsewhere too"
            );
            seen |= cards;
        }
        assert_eq!(seen, r.deck.all(), "cards lost");
    };
    let (mut stops, mut past_64) = (0, false);
    for seed in 0..12 {
        let mut game = crate::families::start(
            Arc::clone(&r),
            StartOptions {
                seed,
                ..StartOptions::default()
            },
        )
        .unwrap();
        assert_eq!(game.seats(), 4);
        let players: Vec<String> = ["greedy", "random", "greedy", "random"]
            .map(String::from)
            .into();
        let mut record = Record::new(&r, &r.id, Some(seed), &players, None);
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        let mut actions = 0;
        while let Some(seat) = game.to_act() {
            conserved(&*game);
            for (_, cards) in game.zones() {
                past_64 |= cards.iter().any(|c| c.index() >= 64);
            }
            game.legal_actions(&mut legal);
            assert!(!legal.is_empty());
            let a = if seat % 2 == 0 {
                GreedyAgent.choose(&*game, seat, &legal, &mut rng)
            } else {
                RandomAgent.choose(&*game, seat, &legal, &mut rng)
            };
            record.push(seat, a, &r);
            game.apply(a).unwrap();
            actions += 1;
            assert!(actions < 10_000, "the game does not end");
        }
        conserved(&*game);
        assert!(game.error().is_none());
        assert_eq!(game.history().len(), 2);
        stops += game.history().iter().filter(|h| h.winner.is_some()).count();
        record.sync(&*game);
        let back = Record::from_json(&record.to_json()).unwrap();
        let mut seedless = back.clone();
        seedless.seed = None;
        let replayed = crate::families::replay(&seedless, Arc::clone(&r)).unwrap();
        assert_eq!(replayed.history(), game.history(), "seed {seed}");
        assert_eq!(replayed.scores(), game.scores(), "seed {seed}");
    }
    assert!(past_64, "cards past the 64th were in play");
    assert!(stops > 0, "some hand was won");
}
