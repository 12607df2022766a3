//! Meld patterns (`alike`, `run`; issue 44) on the test ruleset `tests/rulesets/meld-patterns.toml`
//! (Pinochle's double pack with Bezique's any four Aces and Kings, Piquet's sequences and
//! quatorze, and both Aces of trumps): the melds worked hands count, with the cards each uses,
//! one hand per rule; the instances a pattern stands for; and random games that keep every
//! card. Sources are the ruleset's (pokerwiner-bezique, chambers-piquet).

use super::melds;
use super::*;
use crate::agent::{Agent, RandomAgent, agent_rng};
use crate::core::{Event, StartOptions};
use crate::deck::CardSet;
use crate::ruleset::{self, MeldPattern, Ruleset};
use insta::assert_snapshot;
use std::fmt::Write as _;
use std::sync::Arc;

const RULESET: &str = "tests/rulesets/meld-patterns.toml";

fn load() -> Arc<Ruleset> {
    let loaded = ruleset::load(RULESET);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

/// The cards of `ids`, separated by spaces.
fn set(r: &Ruleset, ids: &str) -> CardSet {
    ids.split_whitespace()
        .map(|i| {
            r.deck
                .card_by_id(i)
                .unwrap_or_else(|| panic!("no card `{i}`"))
        })
        .collect()
}

/// The melds `hand` counts with trumps `trump`, one a line with its cards, then the total.
fn melds_of(r: &Ruleset, hand: &str, trump: &str) -> String {
    let flow = r.tricks().unwrap();
    let suit = r.deck.suits.iter().position(|s| s.id == trump).unwrap();
    let (points, found) = melds::best(&flow.meld_table, &flow.melds, set(r, hand), Some(suit));
    let mut out = String::new();
    for m in &found {
        let meld = &flow.melds[usize::from(m.meld)];
        let cards: Vec<&str> = m.cards.iter().map(|c| r.deck.id_of(c)).collect();
        let _ = writeln!(out, "  {} {}: {}", meld.id, meld.points, cards.join(" "));
    }
    let _ = write!(out, "  = {points}");
    out
}

/// One worked hand per pattern rule.
#[test]
fn meld_patterns_on_worked_hands() {
    let r = load();
    let cases: [(&str, &str, &str); 9] = [
        (
            "pokerwiner-bezique: any four Aces 100, two of them of one suit (no Ace of Diamonds: no Aces around)",
            "spades",
            "hearts-ace hearts-ace-p2 clubs-ace spades-ace",
        ),
        (
            "four Aces of four suits: one group (Aces around or any four Aces: 100 either way, not both), and a quatorze (its own class)",
            "clubs",
            "hearts-ace diamonds-ace clubs-ace spades-ace",
        ),
        (
            "six Kings: Kings around 80, and the two left make no second four; a quatorze (one of each suit)",
            "clubs",
            "hearts-king hearts-king-p2 diamonds-king diamonds-king-p2 clubs-king spades-king",
        ),
        (
            "eight Kings: Pinochle's all eight Kings 800, not two of any four Kings (160); two quatorzes, one of each suit each (a meld counts again while the cards last)",
            "clubs",
            "hearts-king hearts-king-p2 diamonds-king diamonds-king-p2 clubs-king clubs-king-p2 spades-king spades-king-p2",
        ),
        (
            "chambers-piquet: four Nines are no quatorze (not lower than Tens); Pinochle's dix 10",
            "hearts",
            "hearts-nine diamonds-nine clubs-nine spades-nine",
        ),
        (
            "chambers-piquet: a quint of Clubs 15, not also a tierce (one class); Pinochle's marriage 20 (another class)",
            "hearts",
            "clubs-ace clubs-ten clubs-king clubs-queen clubs-jack",
        ),
        (
            "a run of six in Clubs: the highest quint 15, the Nine left over (a tierce and a tierce are only 6)",
            "hearts",
            "clubs-ace clubs-ten clubs-king clubs-queen clubs-jack clubs-nine",
        ),
        (
            "Ace, Ten, King of Clubs twice (a double pack): two tierces 6; the Queen and Jack of Spades are a run of two, too short",
            "hearts",
            "clubs-ace clubs-ten clubs-king clubs-ace-p2 clubs-ten-p2 clubs-king-p2 spades-queen spades-jack",
        ),
        (
            "both Aces of trumps 50, both Aces of Clubs nothing (not trumps); any four Aces 100 of the same cards (another class)",
            "hearts",
            "hearts-ace hearts-ace-p2 clubs-ace clubs-ace-p2",
        ),
    ];
    let mut s = String::new();
    for (source, trump, hand) in cases {
        let _ = writeln!(
            s,
            "# {source}\ntrumps {trump}: {hand}\n{}",
            melds_of(&r, hand, trump)
        );
    }
    assert_snapshot!("meld_patterns", s);
}

/// A pattern stands for a few instances, one a rank (and suit): any four Aces is one, a
/// quatorze five (Aces to Jacks), a tierce four a suit (A-10-K down to Q-J-9), a quint two a
/// suit, both Aces of trumps one with trumps and none without.
#[test]
fn a_pattern_stands_for_one_instance_a_rank_and_suit() {
    let r = load();
    let flow = r.tricks().unwrap();
    let count = |id: &str, trump: Option<usize>| {
        let index = flow.melds.iter().position(|m| m.id == id).unwrap();
        flow.meld_table
            .instances(trump)
            .iter()
            .filter(|i| usize::from(i.meld) == index)
            .count()
    };
    assert_eq!(count("any-four-aces", Some(0)), 1);
    assert_eq!(count("quatorze", Some(0)), 5);
    assert_eq!(count("tierce", Some(0)), 4 * 4);
    assert_eq!(count("quart", Some(0)), 3 * 4);
    assert_eq!(count("quint", Some(0)), 2 * 4);
    assert_eq!(count("both-trump-aces", Some(0)), 1);
    assert_eq!(count("both-trump-aces", None), 0);
    let patterns = flow
        .melds
        .iter()
        .filter(|m| m.pattern != MeldPattern::Listed)
        .count();
    assert_eq!(patterns, 7);
}

/// Random games of four seats with the patterns: every card kept, every meld shown made of
/// cards of its seat's hand as dealt.
#[test]
fn random_games_with_patterns_keep_every_card() {
    let r = load();
    let mut shown = 0;
    for seed in 0..10 {
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                rounds: Some(2),
                log_events: true,
                ..StartOptions::default()
            },
        )
        .unwrap();
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        while let Some(seat) = g.to_act() {
            let mut seen = CardSet::EMPTY;
            for (_, cards) in crate::core::Game::zones(&g) {
                assert!((seen & cards).is_empty(), "seed {seed}: a card twice");
                seen |= cards;
            }
            assert_eq!(seen, r.deck.all(), "seed {seed}: cards lost");
            g.legal_actions(&mut legal);
            let a = RandomAgent.choose(&g, seat, &legal, &mut rng);
            g.apply(a).unwrap();
            shown += g
                .drain_events()
                .iter()
                .filter(|e| matches!(e, Event::Melded { melds, .. } if melds.iter().any(|m| ["tierce", "quart", "quint", "any-four-aces", "any-four-kings", "quatorze", "both-trump-aces"].contains(&m.as_str()))))
                .count();
        }
        assert!(crate::core::Game::error(&g).is_none());
    }
    assert!(shown > 0, "no pattern meld was shown");
}

/// `alike = 5` with `suit = "each"`: an Ace of each suit and a fifth of any suit; five Aces
/// without a Diamond are not it, four of four suits are too few.
#[test]
fn alike_with_each_suit_takes_one_of_each_and_the_rest_from_any() {
    let text = "[ruleset]\nid = \"five-aces\"\nextends = \"tests/rulesets/meld-patterns.toml\"\n\n[[meld]]\nid = \"five-aces\"\nalike = 5\nsuit = \"each\"\nkinds = [\"ace\"]\npoints = 500\n";
    let loaded = ruleset::load_str("five-aces.toml", text);
    let r = loaded
        .value
        .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics));
    let has = |hand: &str| melds_of(&r, hand, "spades").contains("five-aces 500");
    assert!(has(
        "hearts-ace diamonds-ace clubs-ace spades-ace clubs-ace-p2"
    ));
    assert!(!has(
        "hearts-ace hearts-ace-p2 clubs-ace spades-ace clubs-ace-p2"
    ));
    assert!(!has("hearts-ace diamonds-ace clubs-ace spades-ace"));
}
