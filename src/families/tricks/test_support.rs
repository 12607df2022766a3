//! What the trick family's tests share: loading a test ruleset, naming cards, dealing a worked
//! deal of four hands, and making moves written as words (`bid 2`, `trump hearts`, a card id).

use super::*;
use crate::core::{Action, DeclId, StartOptions};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{self, Ruleset};
use std::sync::Arc;

/// A ruleset by path, which must load.
pub fn load(path: &str) -> Arc<Ruleset> {
    let loaded = ruleset::load(path);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{path}: {:?}", loaded.diagnostics)),
    )
}

/// A card by id.
pub fn card(r: &Ruleset, id: &str) -> CardId {
    r.deck
        .card_by_id(id)
        .unwrap_or_else(|| panic!("no card `{id}`"))
}

/// The ids of a set's cards, in deck order.
pub fn ids(r: &Ruleset, cards: CardSet) -> Vec<String> {
    cards.iter().map(|c| r.deck.id_of(c).to_string()).collect()
}

/// The ruleset's declaration with this effect.
pub fn decl(r: &Ruleset, effect: &str) -> DeclId {
    DeclId(
        r.declarations
            .iter()
            .position(|d| d.effect == effect)
            .expect("the ruleset has the declaration") as u8,
    )
}

/// A one-hand game of four seats dealt as `hands` (seat 0 dealing, in the ruleset's packets,
/// seat 1 served first), its events logged.
pub fn deal4<'a>(r: &Arc<Ruleset>, hands: &[impl AsRef<[&'a str]>; 4]) -> TricksGame {
    let flow = r.tricks().expect("a trick-taking ruleset");
    let hands = hands.each_ref().map(|h| h.as_ref());
    let each = hands[0].len();
    let mut order = Vec::new();
    let mut taken = [0usize; 4];
    for &k in flow.deal_packets.iter().cycle() {
        if taken[0] >= each {
            break;
        }
        for seat in [1, 2, 3, 0] {
            let from = taken[seat];
            order.extend(
                hands[seat][from..from + k as usize]
                    .iter()
                    .map(|i| card(r, i)),
            );
            taken[seat] += k as usize;
        }
    }
    let all: CardSet = order.iter().copied().collect();
    assert_eq!(all, r.deck.all(), "the worked deal holds every card once");
    start(
        Arc::clone(r),
        StartOptions {
            seed: 1,
            rounds: Some(1),
            first_dealer: Some(0),
            deck_orders: vec![order],
            log_events: true,
            ..StartOptions::default()
        },
    )
    .unwrap()
}

/// A move: `pass`, `bid N`, `trump SUIT`, `call CARD`, or a card id to play; refused moves
/// fail the test.
pub fn act(g: &mut TricksGame, m: &str) {
    let r = Arc::clone(g.ruleset());
    let (verb, rest) = m.split_once(' ').unwrap_or((m, ""));
    let action = match verb {
        "pass" => Action::declare(decl(&r, "pass")),
        "bid" => Action::Bet {
            amount: rest.parse().unwrap(),
        },
        "trump" => {
            let suit = r.deck.suits.iter().position(|s| s.id == rest).unwrap();
            Action::Declare {
                decl: decl(&r, "trump"),
                card: r.deck.suits[suit].cards.first_card(),
            }
        }
        "call" => Action::Declare {
            decl: decl(&r, "call"),
            card: Some(card(&r, rest)),
        },
        _ => Action::Play {
            card: card(&r, verb),
        },
    };
    let seat = g.to_act();
    g.apply(action)
        .unwrap_or_else(|e| panic!("seat {seat:?}: `{m}` refused: {e}"));
}

/// The errors of a ruleset given as text, each as `file:line:column message`.
pub fn errors_of(text: &str) -> String {
    let loaded = ruleset::load_str("bad.toml", text);
    loaded
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", loaded.sources.describe(&d.loc), d.message))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The call-ace deal: seat 1 (forehand) holds Clubs and Spades outside trumps, seat 2 the Ace of
/// Clubs, seat 3 two Aces.
pub const CALL_DEAL: [[&str; 6]; 4] = [
    [
        "hearts-jack",
        "diamonds-jack",
        "hearts-king",
        "hearts-nine",
        "clubs-king",
        "diamonds-ten",
    ],
    [
        "clubs-queen",
        "spades-queen",
        "clubs-jack",
        "hearts-ace",
        "clubs-nine",
        "spades-king",
    ],
    [
        "clubs-ace",
        "clubs-ten",
        "hearts-ten",
        "spades-jack",
        "diamonds-nine",
        "diamonds-king",
    ],
    [
        "hearts-queen",
        "diamonds-queen",
        "spades-ace",
        "spades-ten",
        "diamonds-ace",
        "spades-nine",
    ],
];
