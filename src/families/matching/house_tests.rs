//! The matching family's mechanisms for house rules, each shown TOML in, behaviour out: a house
//! rule is loaded from its text (`extends` a bundled ruleset) and played through the core, on
//! seeded games or crafted deals.

use super::scoring_tests::{
    DEALER_PLAIN, Deal, KUTTSUKI, OPPONENT_PLAIN, TABLE_PLAIN, TESHI, deck_order,
};
use super::{MatchingGame as Game, Phase, ends};
use crate::core::{Action, Game as _, StartOptions};
use crate::ruleset::{self, Ruleset};
use std::sync::Arc;

/// The ruleset a house rule's text makes; it must load without errors.
fn house(text: &str) -> Arc<Ruleset> {
    let loaded = ruleset::load_str("house.toml", text);
    let errors: Vec<&str> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == crate::diag::Severity::Error)
        .map(|d| d.message.as_str())
        .collect();
    assert!(errors.is_empty(), "the house rule loads: {errors:?}");
    Arc::new(loaded.value.expect("no errors, so a ruleset"))
}

fn start(r: &Arc<Ruleset>, seed: u64, orders: Vec<Vec<crate::deck::CardId>>) -> Game {
    super::start(
        Arc::clone(r),
        StartOptions {
            seed,
            rounds: Some(1),
            deck_orders: orders,
            log_events: true,
            ..StartOptions::default()
        },
    )
    .expect("the game starts")
}

/// The index of declaration `id`.
fn decl(r: &Ruleset, id: &str) -> u8 {
    r.declarations
        .iter()
        .position(|d| d.id == id)
        .unwrap_or_else(|| panic!("declaration `{id}`")) as u8
}

// ----- a limit on calls to play on

/// Plays one hand of `r` from `seed`, calling koi-koi whenever it is offered (the first legal
/// action otherwise); returns how often a player who had already called was offered the
/// declarations after a yaku, and how often koi-koi was among them then.
fn offers_after_a_call(r: &Arc<Ruleset>, seed: u64) -> (u32, u32) {
    let koikoi = decl(r, "koikoi");
    let mut g = start(r, seed, Vec::new());
    let (mut asked, mut offered) = (0, 0);
    while let Some(seat) = g.to_act() {
        let legal = g.legal();
        let call = Action::declare(crate::core::DeclId(koikoi));
        if g.phase() == Phase::Declare && g.calls()[seat] > 0 {
            asked += 1;
            offered += u32::from(legal.contains(&call));
        }
        let action = if legal.contains(&call) {
            call
        } else {
            legal[0]
        };
        g.apply(action).expect("a legal action");
    }
    (asked, offered)
}

/// Some tables allow a single koi-koi a hand: the declaration's `when` reads the declarer's
/// `calls`, keeping the base's condition (no call once the hand is empty).
#[test]
fn one_koikoi_a_hand_by_the_declarations_when() {
    let base = house("[ruleset]\nid = \"plain\"\nextends = \"koikoi\"\n");
    let one = house(
        r#"
[ruleset]
id = "one-koikoi"
extends = "koikoi"

[[declaration]]
id = "koikoi"
when = "calls < 1 and hand_cards > 0"
"#,
    );
    let (mut base_asked, mut base_offered, mut one_asked, mut one_offered) = (0, 0, 0, 0);
    for seed in 0..40 {
        let (a, o) = offers_after_a_call(&base, seed);
        base_asked += a;
        base_offered += o;
        let (a, o) = offers_after_a_call(&one, seed);
        one_asked += a;
        one_offered += o;
    }
    assert!(base_offered > 0, "the standard rules allow a second call");
    assert!(
        one_asked > 0,
        "players who called improved their yaku again"
    );
    assert_eq!(one_offered, 0, "a second call is never offered");
    assert!(base_asked >= base_offered);
}

// ----- both players dealt an instant win

/// The dealer dealt four pairs (kuttsuki), the other player four of a month (teshi).
fn both_instant_deal(r: &Ruleset) -> Vec<crate::deck::CardId> {
    deck_order(
        r,
        &Deal {
            dealer: &KUTTSUKI,
            opponent: &[
                "plum-warbler",
                "plum-poetry",
                "plum-1",
                "plum-2",
                "cherry-1",
                "wisteria-1",
                "iris-1",
                "peony-1",
            ],
            table: &[
                "cherry-curtain",
                "wisteria-cuckoo",
                "iris-bridge",
                "peony-butterflies",
                "clover-boar",
                "pampas-moon",
                "maple-deer",
                "willow-ribbon",
            ],
            stock: &[],
        },
    )
}

/// `both_instant`: a draw (the standard rules), the dealer's counts through the scoring script
/// (`hand.instant`), or neither counts and the hand is played (hanafubuki tables).
#[test]
fn both_instant_draw_dealer_or_play() {
    let with = |choice: &str| {
        house(&format!(
            "[ruleset]\nid = \"both-{choice}\"\nextends = \"koikoi\"\n\n[flow]\nboth_instant = \"{choice}\"\n"
        ))
    };
    let r = with("draw");
    let g = start(&r, 1, vec![both_instant_deal(&r)]);
    let h = &g.history()[0];
    assert_eq!((h.end, h.winner), (ends::BOTH_INSTANT, None));

    let r = with("dealer");
    let g = start(&r, 1, vec![both_instant_deal(&r)]);
    let h = &g.history()[0];
    assert_eq!((h.end, h.winner), (ends::INSTANT, h.dealer));
    let o = h.outcome.as_ref().expect("explained");
    assert_eq!(
        (o.yaku[0].id.as_str(), o.base, o.total),
        ("kuttsuki", 6, 6),
        "the dealer's four pairs, 6 points through the script"
    );

    let r = with("play");
    let g = start(&r, 1, vec![both_instant_deal(&r)]);
    assert!(g.history().is_empty(), "no hand ended at the deal");
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(
        g.hand(g.dealer()).len(),
        8,
        "the dealer plays first, as dealt"
    );
}

// ----- redeals that read the hands

/// `[[flow.redeal]] on`: a redeal reads the table (the default), each hand, or both (the
/// base's own table redeal removed); the first deck order deals four of a month to the other
/// player or to the table, the second plain hands.
#[test]
fn redeal_on_the_table_the_hands_or_any() {
    let with = |on: &str| {
        house(&format!(
            r#"remove_redeal = ["table-four-of-a-month"]

[ruleset]
id = "redeal-{on}"
extends = "koikoi"

[[flow.redeal]]
id = "four-of-a-month-dealt"
name = "Four of a month dealt"
on = "{on}"
when = "suits_with(4) >= 1"
"#
        ))
    };
    let orders = |r: &Ruleset, opponent: &[&str], table: &[&str]| {
        vec![
            deck_order(
                r,
                &Deal {
                    dealer: &DEALER_PLAIN,
                    opponent,
                    table,
                    stock: &[],
                },
            ),
            deck_order(
                r,
                &Deal {
                    dealer: &DEALER_PLAIN,
                    opponent: &OPPONENT_PLAIN,
                    table: &TABLE_PLAIN,
                    stock: &[],
                },
            ),
        ]
    };
    let redeals = |g: &mut Game| {
        g.drain_events()
            .iter()
            .filter(|e| matches!(e, crate::core::Event::Redeal { .. }))
            .count()
    };
    let table_four = [
        "pine-crane",
        "pine-poetry",
        "pine-1",
        "pine-2",
        "plum-1",
        "cherry-1",
        "wisteria-1",
        "iris-1",
    ];
    for (on, hand_redealt, table_redealt) in [
        ("table", false, true),
        ("hands", true, false),
        ("any", true, true),
    ] {
        let r = with(on);
        // A hand dealt four of a month: redealt, or its instant win counts.
        let mut g = start(&r, 1, orders(&r, &TESHI, &TABLE_PLAIN));
        assert_eq!(
            redeals(&mut g),
            usize::from(hand_redealt),
            "on = {on}: a hand"
        );
        if hand_redealt {
            assert!(
                g.history().is_empty(),
                "on = {on}: the second deal is played"
            );
        } else {
            assert_eq!(g.history()[0].end, ends::INSTANT, "on = {on}: teshi wins");
        }
        // The table dealt four of a month.
        let mut g = start(&r, 1, orders(&r, &OPPONENT_PLAIN, &table_four));
        assert_eq!(
            redeals(&mut g),
            usize::from(table_redealt),
            "on = {on}: the table"
        );
    }
}

// ----- yaku points that read the holder's calls

/// "Hanami-zake is 1, or 3 once its holder has called koi-koi": `calls` in a yaku's points is
/// the holder's calls to play on this hand. Seeded hands where each player calls once, then
/// stops: right after a call the caller's yaku are worth the new points (without the
/// declarations being offered again), and a stop scores them.
#[test]
fn yaku_points_read_the_holders_calls() {
    let r = house(
        r#"
[ruleset]
id = "hanami-after-koikoi"
extends = "koikoi"

[[yaku]]
id = "hanami-zake"
points = "if calls > 0 then 3 else 1"
"#,
    );
    let hanami = r
        .yaku
        .yaku
        .iter()
        .position(|y| y.id == "hanami-zake")
        .unwrap();
    let (koikoi, stop) = (decl(&r, "koikoi"), decl(&r, "stop"));
    let (mut after_call, mut scored) = ([0; 2], [0; 2]);
    for seed in 0..150 {
        let mut g = start(&r, seed, Vec::new());
        while let Some(seat) = g.to_act() {
            let legal = g.legal();
            let call = Action::declare(crate::core::DeclId(koikoi));
            let action = if g.calls()[seat] == 0 && legal.contains(&call) {
                call
            } else if legal.contains(&Action::declare(crate::core::DeclId(stop))) {
                Action::declare(crate::core::DeclId(stop))
            } else {
                legal[0]
            };
            g.apply(action).expect("a legal action");
            if action == call && g.yaku(seat).mask >> hanami & 1 == 1 {
                assert_eq!(
                    g.yaku(seat).points[hanami],
                    3,
                    "seed {seed}: after the call"
                );
                assert_ne!(g.phase(), Phase::Declare, "the call is no improvement");
                after_call[1] += 1;
            }
        }
        let h = &g.history()[0];
        if let (Some(w), Some(o)) = (h.winner, &h.outcome)
            && let Some(y) = o.yaku.iter().find(|y| y.id == "hanami-zake")
        {
            let called = h.calls[w] > 0;
            assert_eq!(y.points, if called { 3 } else { 1 }, "seed {seed}");
            scored[usize::from(called)] += 1;
        }
    }
    assert!(after_call[1] > 0, "a holder of hanami-zake called");
    assert!(
        scored[0] > 0 && scored[1] > 0,
        "hanami-zake scored with and without a call: {scored:?}"
    );
}

// ----- the rule sheet

/// The rule sheet says what each mechanism does, in words.
#[test]
fn the_rule_sheet_says_each_mechanism() {
    let r = house(
        r#"
[ruleset]
id = "sheet"
extends = "koikoi"

[[yaku]]
id = "hanami-zake"
points = "if calls > 0 then 3 else 1"

[flow]
both_instant = "play"

[[flow.redeal]]
id = "four-of-a-month-dealt"
on = "any"
when = "suits_with(4) >= 1"
"#,
    );
    let text = crate::sheet::text_sheet(&r);
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for said in [
        "3 when the player's calls to play on this hand is more than 0, otherwise 1",
        "When both hands hold an instant win, neither counts and the hand is played.",
        "redeal when a hand or the table is dealt",
    ] {
        assert!(text.contains(said), "the sheet says `{said}`:\n{text}");
    }
}

// ----- stakes

/// `[flow] stake`: every seat starts with the stake, a hand's winner takes its points from the
/// loser (who pays what it has left), and the game ends early when a stake runs out.
#[test]
fn stakes_are_transfers_and_end_the_game_when_one_runs_out() {
    let r = house(
        r#"
[ruleset]
id = "stakes"
extends = "koikoi"

[flow]
stake = 8
rounds = 12
"#,
    );
    let (mut early, mut short) = (0, 0);
    for seed in 0..30 {
        let mut g = super::start(
            Arc::clone(&r),
            StartOptions {
                seed,
                ..StartOptions::default()
            },
        )
        .expect("the game starts");
        let mut stakes = [8i64, 8];
        while let Some(_seat) = g.to_act() {
            let legal = g.legal();
            g.apply(legal[0]).expect("a legal action");
        }
        for h in g.history() {
            assert_eq!(h.points.iter().sum::<i64>(), 0, "seed {seed}: a transfer");
            if let Some(w) = h.winner {
                let loser = 1 - w;
                let owed = h.outcome.as_ref().map_or(h.points[w], |o| o.total);
                assert_eq!(-h.points[loser], owed.min(stakes[loser]), "seed {seed}");
                short += usize::from(owed > stakes[loser]);
            }
            stakes[0] += h.points[0];
            stakes[1] += h.points[1];
            assert!(
                stakes.iter().all(|&s| s >= 0),
                "seed {seed}: no stake below 0"
            );
        }
        assert_eq!(
            g.scores(),
            &stakes[..],
            "seed {seed}: the scores are the stakes"
        );
        if g.history().len() < 12 {
            assert!(
                stakes.contains(&0),
                "seed {seed}: ended early only by a stake"
            );
            early += 1;
        }
    }
    assert!(early > 0, "some games end when a stake runs out");
    assert!(short > 0, "some losers could not pay all they owed");
}

/// The call to play on, offered or not by what the seats have called this hand: the bundled
/// `house/one-koikoi` (`calls < 1`, a seat's own calls) and `house/no-koikoi-after-opponent`
/// (`other_calls == 0`, the other seat's), at every stop-or-play-on decision of random games.
/// Both kinds of decision, with and without a call before it, are met.
#[test]
fn a_call_to_play_on_reads_the_calls_made_this_hand() {
    use crate::agent::{Agent, RandomAgent, agent_rng};
    for (name, offered) in [
        (
            "house/one-koikoi",
            (|own: u32, _other: u32| own < 1) as fn(u32, u32) -> bool,
        ),
        ("house/no-koikoi-after-opponent", |_own, other| other == 0),
    ] {
        let r = Arc::new(ruleset::load(name).value.expect("bundled"));
        let koikoi = r
            .declarations
            .iter()
            .position(|d| d.id == "koikoi")
            .unwrap();
        let (mut refused, mut allowed) = (0, 0);
        for seed in 0..300 {
            let mut game = super::start(
                Arc::clone(&r),
                StartOptions {
                    seed,
                    rounds: Some(2),
                    ..StartOptions::default()
                },
            )
            .unwrap();
            let mut rng = agent_rng(seed);
            let mut legal = Vec::new();
            while let Some(seat) = game.to_act() {
                legal.clear();
                game.legal_actions(&mut legal);
                let deciding = legal.iter().any(
                    |a| matches!(a, Action::Declare { decl, .. } if r.declarations[decl.0 as usize].effect == "stop"),
                );
                if deciding {
                    let view = game.view(seat);
                    let own = view.calls[seat];
                    let other: u32 = view.calls.iter().sum::<u32>() - own;
                    let may = legal.iter().any(
                        |a| matches!(a, Action::Declare { decl, .. } if decl.0 as usize == koikoi),
                    );
                    let holds = !view.hand.is_empty();
                    assert_eq!(
                        may,
                        holds && offered(own, other),
                        "{name}, seed {seed}: own calls {own}, the other's {other}"
                    );
                    if holds && !offered(own, other) {
                        refused += 1;
                    } else if holds {
                        allowed += 1;
                    }
                }
                let action = RandomAgent.choose(&game, seat, &legal, &mut rng);
                game.apply(action).unwrap();
            }
        }
        assert!(
            refused > 0 && allowed > 0,
            "{name}: {refused} refused, {allowed} allowed"
        );
    }
}
