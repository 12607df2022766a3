//! Bids from a list of allowed values (Issue 42, wall 3), on tests/rulesets/listed-bids.toml:
//! partnership Pinochle whose bids rise by tens to 300, then by fifties. The bids offered are the
//! listed ones above the highest bid, a bid off the list is refused with the bids open, and
//! `yaku score`'s reading of `--bid` and the rule sheet say the list.

use super::*;
use crate::agent::{Agent, RandomAgent, agent_rng};
use crate::core::{Action, StartOptions};
use crate::ruleset::{self, Ruleset};
use std::sync::Arc;

const LISTED: &str = "tests/rulesets/listed-bids.toml";

fn load(path: &str) -> Arc<Ruleset> {
    let loaded = ruleset::load(path);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{path}: {:?}", loaded.diagnostics)),
    )
}

fn started(r: &Arc<Ruleset>, seed: u64) -> TricksGame {
    start(
        Arc::clone(r),
        StartOptions {
            seed,
            rounds: Some(1),
            first_dealer: Some(0),
            ..StartOptions::default()
        },
    )
    .unwrap()
}

/// The value bids among the moves of the seat to act.
fn bids(g: &TricksGame) -> Vec<i64> {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    legal
        .iter()
        .filter_map(|a| match a {
            Action::Bet { amount } => Some(*amount),
            _ => None,
        })
        .collect()
}

#[test]
fn the_bids_offered_are_the_listed_ones_above_the_highest() {
    let r = load(LISTED);
    let mut g = started(&r, 1);
    let first = bids(&g);
    assert_eq!(first.len(), 25);
    assert_eq!((first[0], first[20], first[21]), (100, 300, 350));
    g.apply(Action::Bet { amount: 290 }).unwrap();
    assert_eq!(bids(&g), [300, 350, 400, 450, 500]);
    g.apply(Action::Bet { amount: 300 }).unwrap();
    assert_eq!(bids(&g), [350, 400, 450, 500]);
    let refused = g
        .apply(Action::Bet { amount: 310 })
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("a bid of 310 is not possible: bid one of 350, 400, 450, 500, or pass"),
        "{refused}"
    );
}

#[test]
fn the_sheet_and_the_score_command_read_the_list() {
    let r = load(LISTED);
    let sheet = crate::sheet::text_sheet(&r);
    let words = sheet.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("a bid is one of 100, 110, 120,")
            && words.contains("290, 300, 350, 400, 450, 500, each higher than the last bid"),
        "{sheet}"
    );
    let a = r.tricks().unwrap().auction.as_ref().unwrap();
    assert!(a.is_plain_bid(350) && a.is_plain_bid(120));
    assert!(!a.is_plain_bid(310) && !a.is_plain_bid(510) && !a.is_plain_bid(90));
    assert_eq!(a.plain_bids_over(Some(450)), [500]);
    assert!(a.plain_bids_over(Some(500)).is_empty());
}

/// A list that does not rise, beside `minimum`, or naming a contract's bid is refused where it
/// is written.
#[test]
fn a_list_of_bids_that_cannot_be_read_is_refused_where_it_is_written() {
    let errors = |auction: &str| {
        let text =
            format!("[ruleset]\nid = \"bad\"\nextends = \"pinochle\"\n[flow.auction]\n{auction}");
        let loaded = ruleset::load_str("bad.toml", &text);
        loaded
            .diagnostics
            .iter()
            .map(|d| format!("{} {}", loaded.sources.describe(&d.loc), d.message))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let unset = "unset = [\"minimum\", \"step\", \"maximum\"]\n";
    insta::assert_snapshot!(errors(&format!("{unset}bids = [100, 120, 110]\n")), @"bad.toml:6:8 `bids` must rise: 110 comes after 120");
    insta::assert_snapshot!(errors("bids = [100, 120]\n"), @"bad.toml:5:8 `bids` with `minimum`, `step`, `maximum`");
    insta::assert_snapshot!(errors(&format!("{unset}bids = []\n")), @"bad.toml:6:8 `bids` must list from 1 to 200 bids, found 0");
    insta::assert_snapshot!(
        errors(&format!(
            "{unset}bids = [100, 150, 200]\n[[flow.auction.contract]]\nid = \"solo\"\nbid = 150\n"
        )),
        @"bad.toml:9:7 contract `solo` is bid 150, which is also a plain bid of the auction (in its list of `bids`)"
    );
}

/// Random hands keep every card, and every bid made is a listed one.
#[test]
fn random_hands_bid_only_listed_values() {
    let r = load(LISTED);
    let a = r.tricks().unwrap().auction.clone().unwrap();
    for seed in 1..=10u64 {
        let mut g = started(&r, seed);
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        while let Some(seat) = g.to_act() {
            g.legal_actions(&mut legal);
            let action = RandomAgent.choose(&g, seat, &legal, &mut rng);
            if let Action::Bet { amount } = action {
                assert!(a.listed.contains(&amount), "seed {seed}: bid {amount}");
            }
            g.apply(action).unwrap();
        }
        let taken: u32 = (0..4).map(|s| g.won(s).len()).sum();
        assert_eq!(taken, 48, "seed {seed}");
    }
}
