//! Pai Gow Poker (`rulesets/pai-gow-poker.toml`, issue 47): the house way on the sources' worked
//! cases (goldstar's general rules, the Trump Plaza two-pair rule of wizard-2pair), whole hands
//! settled as pagat and wizard say (both won paid less 5%, one each a push, a copy the
//! banker's), and random play that keeps every card and chip and replays.

use super::tests::order;
use super::*;
use crate::core::{Action, Game, StartOptions};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{self, Ruleset};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::fmt::Write as _;
use std::sync::Arc;

fn rules() -> Arc<Ruleset> {
    Arc::new(
        ruleset::load("pai-gow-poker")
            .value
            .expect("the bundled ruleset loads"),
    )
}

/// The card ids of short codes: `As` the Ace of Spades, `Th` the Ten of Hearts, `Jk` the joker.
fn ids(codes: &str) -> Vec<String> {
    codes
        .split_whitespace()
        .map(|c| {
            if c == "Jk" {
                return "joker".to_string();
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
            format!("{suit}-{rank}")
        })
        .collect()
}

fn set(r: &Ruleset, codes: &str) -> CardSet {
    ids(codes)
        .iter()
        .map(|i| r.deck.card_by_id(i).expect("a card id"))
        .collect()
}

/// A card's short code back.
fn code(r: &Ruleset, c: CardId) -> String {
    let id = &r.deck.card(c).id;
    if id == "joker" {
        return "Jk".into();
    }
    let (suit, rank) = id.split_once('-').expect("suit-rank");
    let rank = match rank {
        "ace" => "A",
        "two" => "2",
        "three" => "3",
        "four" => "4",
        "five" => "5",
        "six" => "6",
        "seven" => "7",
        "eight" => "8",
        "nine" => "9",
        "ten" => "T",
        "jack" => "J",
        "queen" => "Q",
        "king" => "K",
        other => other,
    };
    format!("{rank}{}", &suit[..1])
}

/// The two-card hand the house way sets of `dealt`, in codes, highest first.
fn front(codes: &str) -> String {
    let r = rules();
    let flow = r.banker().unwrap();
    let a = flow.arrange.as_ref().unwrap();
    let dealt = set(&r, codes);
    let high = arrange::house_way(flow, a, dealt);
    let mut low: Vec<CardId> = (dealt - high).iter().collect();
    let high_of = |c: &CardId| r.deck.attributes[1].values[c.index()];
    low.sort_by_key(|c| std::cmp::Reverse(high_of(c)));
    low.iter()
        .map(|&c| code(&r, c))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The house way on the sources' cases: what goes in front.
#[test]
fn the_banker_sets_by_the_house_way() {
    for (dealt, want, why) in [
        // goldstar "No pair": the highest card in the back, the next two in front.
        ("As Qh 9d 7c 5s 3h 2d", "Qh 9d", "no pair"),
        // goldstar "One pair": the pair in back, the next two highest in front.
        ("8s 8h Kd Jc 5s 3h 2d", "Kd Jc", "one pair"),
        // The same when the pair is above every other card: K-7 in front and K-8 behind would
        // be allowed (the five outranks the two) and a stronger two-card hand, but no house
        // way splits a lone pair (wizard-2pair's Trump Plaza, goldstar: "the pair in back").
        ("Ks Kh 8d 7c 5s 3h 2d", "8d 7c", "one pair above the rest"),
        (
            "Qs Qh Jk 9c 6s 4h 2d",
            "Jk 9c",
            "one pair, the joker an ace in front",
        ),
        ("As Ah Td 8c 6s 4h 2d", "Td 8c", "a pair of aces behind"),
        // wizard-2pair: medium and high pairs are always split, the lower pair in front.
        ("Ks Kh 9d 9c As 3h 2d", "9d 9c", "high and medium: split"),
        // Low and high: split unless an ace; with one, kept together, the ace in front.
        (
            "Ks Kh 5d 5c Qs 3h 2d",
            "5d 5c",
            "low and high, no ace: split",
        ),
        (
            "Ks Kh 5d 5c As 9h 2d",
            "As 9h",
            "low and high with an ace: together",
        ),
        // Low and low: split unless a king or better.
        (
            "6s 6h 5d 5c Ks 9h 2d",
            "Ks 9h",
            "low and low with a king: together",
        ),
        (
            "6s 6h 5d 5c Qs 9h 2d",
            "5d 5c",
            "low and low, no king: split",
        ),
        // Medium and medium: split unless an ace.
        (
            "Ts Th 8d 8c As 9h 2d",
            "As 9h",
            "medium and medium with an ace: together",
        ),
        // A pair of aces with any other pair: always split.
        ("As Ah 3d 3c Ks 9h 2d", "3d 3c", "aces and threes: split"),
        // The joker is an ace beside two pair: low and high with an ace, together.
        ("Ks Kh 5d 5c Jk 9h 2d", "Jk 9h", "the joker as the ace"),
        // goldstar "Three of a kind": in back, three aces split (a pair back, an ace in front).
        ("9s 9h 9d Kc 5s 3h 2d", "Kc 5s", "three of a kind"),
        ("As Ah Ad Kc 5s 3h 2d", "Ad Kc", "three aces split"),
        // goldstar "Full house": the three of a kind in back, the pair in front.
        ("9s 9h 9d 4c 4s Kh 2d", "4c 4s", "full house"),
        // goldstar "Three pair": the highest pair in front.
        ("9s 9h 4d 4c 3s 3h Kd", "9s 9h", "three pair"),
        // goldstar straights and flushes: with no pair, the highest two cards that leave the
        // straight in back; with a pair, the pair in front when the straight stays.
        ("Ks Qh Jc Td 9h Ac 2c", "Ac 2c", "a straight kept"),
        (
            "Ts 9h 8c 7d 6h 5c 5d",
            "5c 5d",
            "a six-card straight and a pair",
        ),
        (
            "9s 8h 7c 6d 5h 5c Ac",
            "Ac 5c",
            "the pair would break the straight",
        ),
        (
            "2h 7h 9h Kh Jk As Qc",
            "As Qc",
            "a flush with the joker kept",
        ),
        // goldstar "Four of a kind": 2-6 together; 7-10 split unless an ace can go in front;
        // J-A split.
        ("5s 5h 5d 5c Ks 9h 2d", "Ks 9h", "four fives together"),
        (
            "9s 9h 9d 9c As 7h 2d",
            "As 7h",
            "four nines with an ace together",
        ),
        (
            "9s 9h 9d 9c Ks 7h 2d",
            "9s 9h",
            "four nines without an ace split",
        ),
        ("Qs Qh Qd Qc As 7h 2d", "Qs Qh", "four queens split"),
        // goldstar "Five aces": three in back, two in front.
        ("As Ah Ad Ac Jk 7h 2d", "As Ah", "five aces split"),
    ] {
        let got = front(dealt);
        // Which two of equal cards go in front is the house way's own choice: compare ranks
        // (the joker's is an ace's).
        let ranks = |s: &str| -> Vec<String> {
            s.split_whitespace()
                .map(|c| if c == "Jk" { "A" } else { &c[..c.len() - 1] }.to_string())
                .collect()
        };
        assert_eq!(ranks(&got), ranks(want), "{dealt}: {why}");
    }
}

/// One hand of one player betting 20: the player's seven cards, then the banker's seven; the
/// player's two-card hand `low`. Says both arrangements and the result.
fn hand(player: &str, banker: &str, low: &str) -> String {
    let r = rules();
    let mut dealt = ids(player);
    dealt.extend(ids(banker));
    let dealt: Vec<&str> = dealt.iter().map(String::as_str).collect();
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            seats: Some(1),
            rounds: Some(1),
            deck_orders: vec![order(&r, &dealt)],
            ..StartOptions::default()
        },
    )
    .unwrap();
    g.apply(Action::Bet { amount: 20 }).unwrap();
    let high = set(&r, player) - set(&r, low);
    g.apply(Action::PlaySet { cards: high }).unwrap();
    let h = &g.hands_played()[0];
    let mut s = String::new();
    let line = |who: &str, hands: &[HandArranged], s: &mut String| {
        for a in hands {
            let _ = writeln!(
                s,
                "{who} {}: {} = {}{}",
                a.hand,
                a.cards
                    .iter()
                    .map(|&c| code(&r, c))
                    .collect::<Vec<_>>()
                    .join(" "),
                a.rank.as_deref().unwrap_or("-"),
                match a.outcome {
                    1 => ", wins",
                    -1 => ", loses",
                    _ if who == "player" => ", neither",
                    _ => "",
                }
            );
        }
    };
    line("banker", &h.banker_arranged, &mut s);
    let p = &h.players[0];
    line("player", &p.arranged, &mut s);
    let _ = writeln!(
        s,
        "bet {}: {:+}; banker {:+}; house {}",
        p.bet,
        p.result,
        h.banker_result,
        g.ledger().history[0].house
    );
    s
}

#[test]
fn winning_both_hands_pays_even_money_less_five_percent() {
    // The player sets a flush behind and a pair of queens in front; the banker's two pair are
    // split by the house way (kings behind, fives in front). Both hands win: 20 less 5%, +19.
    insta::assert_snapshot!(hand(
        "2h 7h 9h Kh Jk Qs Qc",
        "Ks Kd 5d 5c 8s 4c 3d",
        "Qs Qc"
    ));
}

#[test]
fn one_hand_each_is_a_push_and_copies_go_to_the_banker() {
    // One each: the player's straight beats the banker's two pair, but its A-2 front loses to
    // the banker's pair of fives.
    let one_each = hand("Ks Qh Jc Td 9h Ac 2c", "Kd Kc 5d 5c 8s 4c 3d", "Ac 2c");
    // Copies: the same five-card hand (a straight to the king, of other suits) and the same
    // two-card hand (A-K): both are the banker's, and the player loses the bet.
    let copies = hand("Ks Qh Jc Td 9h Ac Kc", "Kd Qs Jd Th 9s Ah Kh", "Ac Kc");
    insta::assert_snapshot!(format!("{one_each}\n{copies}"));
}

#[test]
fn random_play_keeps_every_card_and_chip_and_replays() {
    let r = rules();
    for seed in 0..10 {
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                seats: Some(6),
                rounds: Some(10),
                ..StartOptions::default()
            },
        )
        .unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut moves = Vec::new();
        while g.to_act().is_some() {
            let legal = g.legal();
            let a = legal[rng.random_range(0..legal.len())];
            moves.push(a);
            g.apply(a).unwrap();
        }
        let chips: i64 = g.bankrolls().iter().sum();
        let house: i64 = g.ledger().history.iter().map(|h| h.house).sum();
        assert_eq!(
            chips + house,
            6 * 1000,
            "seed {seed}: every chip is a seat's or the house's (which banks)"
        );
        for h in g.hands_played() {
            let mut cards: Vec<CardId> = h.banker_tiles.clone();
            for p in &h.players {
                let mut arranged: Vec<CardId> =
                    p.arranged.iter().flat_map(|a| a.cards.clone()).collect();
                arranged.sort();
                assert_eq!(
                    arranged, p.tiles,
                    "seed {seed}: the hands hold the cards dealt"
                );
                assert_eq!(p.tiles.len(), 7);
                cards.extend(p.tiles.iter().copied());
            }
            let n = cards.len();
            cards.sort();
            cards.dedup();
            assert_eq!(cards.len(), n, "seed {seed}: a card dealt twice");
        }
        let mut again = start(
            Arc::clone(&r),
            StartOptions {
                seats: Some(6),
                rounds: Some(10),
                deck_orders: g.ledger().dealt_orders.clone(),
                ..StartOptions::default()
            },
        )
        .unwrap();
        for a in moves {
            again.apply(a).unwrap();
        }
        assert_eq!(again.hands_played(), g.hands_played());
    }
}
