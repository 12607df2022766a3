//! Pai Gow Poker dealt many times, the player and the banker both setting by the house way,
//! against the published frequencies:
//! - wizard-appendix-4: wizardofodds.com/games/pai-gow-poker/appendix/4/ (Michael Shackleford,
//!   "No-Push Pai Gow", mirrored at photoeditorx.com/games/pai-gow-poker/appendix/4/): "by
//!   random simulation assuming both player and banker used the Trump Plaza house way", the
//!   player wins both 28.55%, a push 41.47%, the banker wins both 29.98%;
//! - wizard-appendix-1: wizardofodds.com/games/pai-gow-poker/appendix/1/ ("Pai Gow Poker Power
//!   Ratings", mirrored at ourgyn.com/games/pai-gow-poker/appendix/1/): how often the banker sets
//!   each two-card hand by the Trump Plaza house way, of all 154,143,080 seven-card hands; 8-7 in
//!   front 842,290 times (0.5464%), 7-6 272,000 (0.1765%).
//!
//! The two-card hand 8-7 comes mostly from one pair with 8 and 7 the highest other cards: a
//! house way that split such a pair (K-K-8-7-5-3-2 set as K-7 in front) made it rarer (about
//! 0.32%), and the pushes 38%.

use super::*;
use crate::deck::{CardId, CardSet};
use crate::ruleset::{self, Ruleset};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use std::cmp::Ordering;

/// What `deals` random deals of a player's and the banker's seven cards give.
#[derive(Debug, Default)]
struct Tally {
    deals: u32,
    won: u32,
    pushed: u32,
    lost: u32,
    /// The five-card hands equal (a copy, the banker's).
    copies_high: u32,
    /// The two-card hands equal.
    copies_low: u32,
    /// The banker's two-card hand: 8-7, 7-6.
    eight_seven: u32,
    seven_six: u32,
}

impl Tally {
    fn percent(&self, n: u32) -> f64 {
        100.0 * f64::from(n) / f64::from(self.deals)
    }
}

/// The ranks (`high`: 2-14, the joker 14) of a hand, highest first.
fn ranks(r: &Ruleset, hand: CardSet) -> Vec<i64> {
    let high = r
        .deck
        .attributes
        .iter()
        .find(|a| a.id == "high")
        .expect("the 53-card pack has `high`");
    let mut v: Vec<i64> = hand.iter().map(|c| high.values[c.index()]).collect();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v
}

fn tally(deals: u32, seed: u64) -> Tally {
    let r = ruleset::load("pai-gow-poker")
        .value
        .expect("the bundled ruleset loads");
    let flow = r.banker().expect("a banker game");
    let a = flow.arrange.as_ref().expect("arranged hands");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut pack: Vec<CardId> = (0..r.deck.cards.len() as u8).map(CardId).collect();
    let mut t = Tally {
        deals,
        ..Tally::default()
    };
    for _ in 0..deals {
        pack.shuffle(&mut rng);
        let player: CardSet = pack[..7].iter().copied().collect();
        let banker: CardSet = pack[7..14].iter().copied().collect();
        let (p5, b5) = (
            arrange::house_way(flow, a, player),
            arrange::house_way(flow, a, banker),
        );
        if ranking::against_banker(flow, p5, b5) == Ordering::Equal {
            t.copies_high += 1;
        }
        if ranking::against_banker(flow, player - p5, banker - b5) == Ordering::Equal {
            t.copies_low += 1;
        }
        match ranks(&r, banker - b5).as_slice() {
            [8, 7] => t.eight_seven += 1,
            [7, 6] => t.seven_six += 1,
            _ => {}
        }
        let outcomes = arrange::outcomes(flow, a, (p5, player), (b5, banker));
        match arrange::settle(a, &outcomes, 100) {
            x if x > 0 => t.won += 1,
            x if x < 0 => t.lost += 1,
            _ => t.pushed += 1,
        }
    }
    t
}

/// `got` within `margin` percentage points of `published`.
fn near(what: &str, got: f64, published: f64, margin: f64) {
    assert!(
        (got - published).abs() <= margin,
        "{what}: {got:.3}%, published {published}% (margin {margin})"
    );
}

/// 20,000 deals: a push's frequency has a standard error of 0.35 points, the margins are about
/// three of them.
#[test]
fn house_way_against_house_way_matches_the_published_frequencies() {
    let t = tally(20_000, 47);
    near("push", t.percent(t.pushed), 41.47, 1.1);
    near("player wins both", t.percent(t.won), 28.55, 1.0);
    near("banker wins both", t.percent(t.lost), 29.98, 1.0);
    // wizard-appendix-1: standard errors 0.052 and 0.03 points.
    near(
        "banker's 8-7 in front",
        t.percent(t.eight_seven),
        0.5464,
        0.16,
    );
    near(
        "banker's 7-6 in front",
        t.percent(t.seven_six),
        0.1765,
        0.09,
    );
}

/// The table in the player's guide (docs/src/players/pai-gow-poker.md):
/// `cargo test --release --lib pai_gow_frequency -- --ignored --nocapture`.
#[test]
#[ignore = "200,000 deals: run in release for the guide's table"]
fn print_the_frequencies_of_200000_deals() {
    let t = tally(200_000, 47);
    println!(
        "deals {}: player wins both {:.2}%, push {:.2}%, banker wins both {:.2}%; \
         copies: five-card {:.3}%, two-card {:.3}%; banker's 8-7 in front {:.4}%, 7-6 {:.4}%",
        t.deals,
        t.percent(t.won),
        t.percent(t.pushed),
        t.percent(t.lost),
        t.percent(t.copies_high),
        t.percent(t.copies_low),
        t.percent(t.eight_seven),
        t.percent(t.seven_six),
    );
}
