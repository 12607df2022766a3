//! Poker hands as data (issue 47, Pai Gow Poker): the classes of `tests/rulesets/poker-hands.toml`
//! written with `run`, `suited_run`, `suits_with(N, WILD)` and `tiebreak`, each worked example
//! a comparison of two hands as the sources rank them (pagat.com/banking/paigow.html: five aces
//! best, A-2-3-4-5 the second-highest straight, the joker wild only in straights and flushes,
//! otherwise an ace).

use super::ranking::{against_banker, rank_hand, words};
use crate::deck::CardSet;
use crate::ruleset::{self, Ruleset};
use std::cmp::Ordering;

fn rules() -> Ruleset {
    ruleset::load("tests/rulesets/poker-hands.toml")
        .value
        .expect("the test ruleset loads")
}

/// The cards named by short codes: `As` the Ace of Spades, `Th` the Ten of Hearts, `Jk` the
/// joker.
fn hand(r: &Ruleset, codes: &str) -> CardSet {
    codes
        .split_whitespace()
        .map(|c| {
            if c == "Jk" {
                return r.deck.card_by_id("joker").expect("the joker");
            }
            let (rank, suit) = c.split_at(c.len() - 1);
            let rank = match rank {
                "A" => "ace",
                "2" => "two",
                "3" => "three",
                "4" => "four",
                "5" => "five",
                "6" => "six",
                "7" => "seven",
                "8" => "eight",
                "9" => "nine",
                "T" => "ten",
                "J" => "jack",
                "Q" => "queen",
                "K" => "king",
                other => panic!("rank {other}"),
            };
            let suit = match suit {
                "s" => "spades",
                "h" => "hearts",
                "d" => "diamonds",
                "c" => "clubs",
                other => panic!("suit {other}"),
            };
            r.deck
                .card_by_id(&format!("{suit}-{rank}"))
                .unwrap_or_else(|| panic!("{c}"))
        })
        .collect()
}

/// The class of a hand in words.
fn class(r: &Ruleset, codes: &str) -> String {
    let flow = r.banker().expect("a banker game");
    words(flow, &rank_hand(flow, hand(r, codes))).expect("ranks")
}

/// `a` against `b`: `Greater` when `a` is better.
fn versus(r: &Ruleset, a: &str, b: &str) -> Ordering {
    let flow = r.banker().expect("a banker game");
    against_banker(flow, hand(r, a), hand(r, b))
}

/// Every class, best first, and what the joker makes of a hand.
#[test]
fn each_hand_takes_its_class() {
    let r = rules();
    let table = [
        ("As Ah Ad Ac Jk", "Five aces"),
        ("Th Jh Qh Kh Ah", "Straight flush"),
        ("Th Jh Qh Kh Jk", "Straight flush"),
        ("9c 9d 9h 9s 2c", "Four of a kind"),
        ("9c 9d 9h 2s 2c", "Full house"),
        ("2h 7h 9h Kh Jk", "Flush"),
        ("As 2h 3c 4d 5s", "Straight"),
        ("2s 3h 4c 6d Jk", "Straight"),
        ("Ts Jh Qc Kd As", "Straight"),
        ("Kc Kd Kh 2s 7c", "Three of a kind"),
        ("As Ah Jk 2s 7c", "Three of a kind"),
        ("Kc Kd 5h 5s 9c", "Two pair"),
        ("As Jk 5h 8s 9c", "One pair"),
        ("Ks Kh Jk 3d 8c", "One pair"),
        ("As Kh 5h 8s 9c", "High card"),
        ("Jk Kh", "High card"),
        ("Jk Ah", "One pair"),
    ];
    let got: Vec<String> = table.iter().map(|(h, _)| class(&r, h)).collect();
    let want: Vec<&str> = table.iter().map(|(_, c)| *c).collect();
    assert_eq!(got, want);
}

/// The order of hands, within and across classes, from the sources' rankings.
#[test]
fn hands_compare_as_the_sources_rank_them() {
    let r = rules();
    use Ordering::*;
    for (a, b, want, why) in [
        (
            "As Ah Ad Ac Jk",
            "Th Jh Qh Kh Ah",
            Greater,
            "five aces beat a royal flush",
        ),
        (
            "Th Jh Qh Kh Ah",
            "Ah 2h 3h 4h 5h",
            Greater,
            "a royal flush beats A-2-3-4-5 suited",
        ),
        (
            "Ah 2h 3h 4h 5h",
            "9s Ts Js Qs Ks",
            Greater,
            "A-2-3-4-5 is the second-highest",
        ),
        (
            "Ts Jh Qc Kd As",
            "As 2h 3c 4d 5s",
            Greater,
            "A-K-Q-J-10 beats A-2-3-4-5",
        ),
        (
            "As 2h 3c 4d 5s",
            "9s Th Jc Qd Ks",
            Greater,
            "A-2-3-4-5 beats K-Q-J-10-9",
        ),
        (
            "2s 3h 4c 5d 6s",
            "As 2h 3c 4d 5s",
            Less,
            "6-high below A-2-3-4-5",
        ),
        (
            "Ts Jh Qc Kd Jk",
            "9s Th Jc Qd Ks",
            Greater,
            "the joker makes the ace, not the nine",
        ),
        (
            "2h 7h 9h Kh Jk",
            "3s 7s 9s Ks Qs",
            Greater,
            "the joker in a flush counts as an ace",
        ),
        (
            "9c 9d 9h 2s 2c",
            "2h 7h 9h Kh Ah",
            Greater,
            "a full house beats a flush",
        ),
        (
            "Kc Kd 5h 5s 9c",
            "Qc Qd Jh Js Ac",
            Greater,
            "two pair by the higher pair",
        ),
        (
            "Kc Kd 6h 6s 2c",
            "Ks Kh 5c 5d Ac",
            Greater,
            "then the lower pair",
        ),
        (
            "Kc Kd 5h 5s 9c",
            "Ks Kh 5c 5d 8c",
            Greater,
            "then the odd card",
        ),
        (
            "Kc Kd 5h 5s 9c",
            "Ks Kh 5c 5d 9d",
            Equal,
            "suits do not break ties",
        ),
        (
            "8c 8d Ah 7s 2c",
            "8s 8h Kc Qd Jc",
            Greater,
            "a pair by its kickers",
        ),
        (
            "As Jk 2h 3s 7c",
            "Ks Kh Qd Jc 9c",
            Greater,
            "the joker pairs an ace",
        ),
        (
            "Ks Kh Jk 3d 8c",
            "Ks Kh Ac 3d 7c",
            Greater,
            "with a pair of kings the joker is an ace kicker",
        ),
        (
            "As Kh",
            "Ac 9h 7d 4c 3c",
            Greater,
            "two cards against the first two of five",
        ),
        (
            "2s 2h",
            "As Kd",
            Greater,
            "any pair beats no pair in two cards",
        ),
        (
            "Jk Kh",
            "As Qh",
            Greater,
            "the joker is an ace in two cards",
        ),
    ] {
        assert_eq!(versus(&r, a, b), want, "{a} against {b}: {why}");
        assert_eq!(versus(&r, b, a), want.reverse(), "{b} against {a}");
    }
}

/// The classes on seven cards, as the Wizard of Odds counts them for Pai Gow Poker's 53-card
/// pack (wizardofodds.com/games/pai-gow-poker/appendix/5/, "Pai Gow Mania - Seven Card Hand":
/// the best hand in seven cards, of 154,143,080 deals): 200,000 random deals each within five
/// standard errors of the published share. The conditions read seven cards as they read five
/// (a straight among seven is `run` over seven), so this checks them, the joker with them.
#[test]
fn seven_card_classes_match_the_published_counts() {
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::seq::SliceRandom;
    let r = rules();
    let flow = r.banker().expect("a banker game");
    let total = 154_143_080f64;
    let published: [(&str, f64); 8] = [
        ("royal", 26_132.0),
        ("straight-flush", 184_832.0),
        ("four-of-a-kind", 307_472.0),
        ("full-house", 4_188_528.0),
        ("flush", 6_172_088.0),
        ("three-of-a-kind", 7_672_500.0),
        ("straight", 11_034_204.0),
        ("five-aces", 1_128.0),
    ];
    let n = 200_000;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(47);
    let mut cards: Vec<_> = r.deck.all().iter().collect();
    let mut counts = std::collections::HashMap::<&str, u32>::new();
    for _ in 0..n {
        cards.shuffle(&mut rng);
        let pile: CardSet = cards[..7].iter().copied().collect();
        let h = rank_hand(flow, pile);
        let id = flow.ranks[h.rank].id.as_str();
        // A straight flush to the ace (2 * 14) is a royal flush.
        let id = if id == "straight-flush" && h.within == 28 {
            "royal"
        } else {
            id
        };
        *counts.entry(id).or_default() += 1;
    }
    for (id, combos) in published {
        let p = combos / total;
        let seen = f64::from(counts.get(id).copied().unwrap_or(0)) / f64::from(n);
        let se = (p * (1.0 - p) / f64::from(n)).sqrt();
        assert!(
            (seen - p).abs() <= 5.0 * se + 1.0 / f64::from(n),
            "{id}: {seen:.5} seen, {p:.5} published"
        );
    }
}
