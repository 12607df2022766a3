//! Random `[flow]` sections of the matching family on a bundled ruleset: every one `validate`
//! accepts plays to the end with random bots (issue 12: a `deal_order` that left out a target
//! validated and then dealt for ever).

use proptest::prelude::*;
use std::sync::Arc;
use yaku::agent::{Agent, RandomAgent, agent_rng};
use yaku::core::StartOptions;

/// Moves a game may take before it counts as one that never ends: the longest bundled games
/// take a few hundred.
const ACTION_CAP: usize = 20_000;

/// A rule file on `base` with these flow settings.
fn rule_file(base: &str, flow: &[(&str, String)]) -> String {
    let mut text = format!("[ruleset]\nid = \"flows\"\nextends = \"{base}\"\n\n[flow]\n");
    for (key, value) in flow {
        text.push_str(&format!("{key} = {value}\n"));
    }
    text
}

fn quoted(s: &str) -> String {
    format!("\"{s}\"")
}

fn flows() -> impl Strategy<Value = (String, Vec<(&'static str, String)>, u64)> {
    // Every target that receives cards, sometimes with `others` too (validate refuses an order
    // that leaves one out), in any order.
    let order = (any::<bool>(), Just(vec!["dealer", "opponent", "table"]))
        .prop_map(|(others, mut v)| {
            if others {
                v.push("others");
            }
            v
        })
        .prop_shuffle();
    let dealer = || proptest::sample::select(vec!["winner", "same", "alternate"]);
    (
        proptest::sample::select(vec!["koikoi", "matgo", "gostop"]),
        (1u32..11, 0u32..10, 1u32..6, order, 1u32..3),
        (
            proptest::sample::select(vec!["first", "random"]),
            dealer(),
            dealer(),
            proptest::sample::select(vec!["draw", "dealer_scores"]),
            proptest::sample::select(vec!["draw", "dealer", "play"]),
            any::<bool>(),
            proptest::option::of(2u32..5),
        ),
        any::<u64>(),
    )
        .prop_map(
            |(
                base,
                (hand, table, packet, order, rounds),
                (first, next, draw, exhausted, both, stacks, players),
                seed,
            )| {
                let order: Vec<String> = order.iter().map(|o| quoted(o)).collect();
                let mut flow = vec![
                    ("hand_size", hand.to_string()),
                    ("table_size", table.to_string()),
                    ("deal_packet", packet.to_string()),
                    ("deal_order", format!("[{}]", order.join(", "))),
                    ("rounds", rounds.to_string()),
                    ("first_dealer", quoted(first)),
                    ("next_dealer", quoted(next)),
                    ("draw_dealer", quoted(draw)),
                    ("exhausted", quoted(exhausted)),
                    ("both_instant", quoted(both)),
                    ("stacks", stacks.to_string()),
                ];
                if exhausted == "dealer_scores" {
                    flow.push(("exhausted_points", (seed % 6 + 1).to_string()));
                }
                if let Some(n) = players {
                    flow.push(("players", n.to_string()));
                    flow.push(("min_players", "2".to_string()));
                    flow.push(("max_players", n.to_string()));
                }
                (base.to_string(), flow, seed)
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn every_flow_that_validates_plays_to_the_end((base, flow, seed) in flows()) {
        let text = rule_file(&base, &flow);
        let loaded = yaku::ruleset::load_str("flows.toml", &text);
        let Some(ruleset) = loaded.value else {
            return Ok(());
        };
        let options = StartOptions { seed, ..StartOptions::default() };
        let mut game = yaku::families::start(Arc::new(ruleset), options)
            .map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        let mut actions = 0;
        while let Some(seat) = game.to_act() {
            prop_assert!(actions < ACTION_CAP, "no end after {ACTION_CAP} moves:\n{text}");
            game.legal_actions(&mut legal);
            prop_assert!(!legal.is_empty(), "a seat to act with no move:\n{text}");
            let action = RandomAgent.choose(&*game, seat, &legal, &mut rng);
            game.apply(action).map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
            actions += 1;
        }
        prop_assert!(game.error().is_none(), "{:?}\n{text}", game.error());
    }
}
