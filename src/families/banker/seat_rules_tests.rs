//! Drawing rules on hands per seat (issue 29: forced draw, forced stand and free choice for the
//! players, the banker's own rule), on a Kol-ye-si table written for the test: a first tile of 0
//! to 3 draws, 7 to 9 stands, 4 to 6 leaves the choice; the banker draws on 0 to 4.

use super::tests::order;
use super::*;
use crate::core::{Action, StartOptions};
use crate::deck::CardId;
use crate::ruleset::{self, Ruleset};
use std::fmt::Write as _;
use std::sync::Arc;

const RULES: &str = r#"
[ruleset]
id = "kolyesi-drawing-rules"
extends = "kolyesi"
name = "Kol-ye-si with drawing rules (a test table)"

[flow]
draw_options = [0, 1]

[[flow.player_draw]]
id = "low"
name = "Draw on 0-3"
when = "player_cards == 1 and player_total <= 3"
action = "draw"

[[flow.player_draw]]
id = "high"
name = "Stand on 7-9"
when = "player_total >= 7"
action = "stand"

[[flow.player_draw]]
id = "middle"
name = "Choose on 4-6"
when = "player_cards == 1"
action = "choose"

[[flow.banker_draw]]
id = "banker-low"
name = "Banker draws on 0-4"
when = "banker_cards == 2 and banker_total <= 4"
"#;

fn rules() -> Arc<Ruleset> {
    Arc::new(
        ruleset::load_str("drawing-rules.toml", RULES)
            .value
            .expect("the test table loads"),
    )
}

/// One player bets 5 and answers each choice with `choices`, in turn.
fn hand(ids: &[&str], choices: &[u32]) -> String {
    let r = rules();
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            seats: Some(1),
            rounds: Some(1),
            deck_orders: vec![order(&r, ids)],
            ..StartOptions::default()
        },
    )
    .unwrap();
    g.apply(Action::Bet { amount: 5 }).unwrap();
    let mut asked = 0;
    while !g.is_over() {
        g.apply(Action::Draw {
            count: choices[asked],
        })
        .unwrap();
        asked += 1;
    }
    assert_eq!(asked, choices.len(), "every choice was asked");
    let h = &g.hands_played()[0];
    let names = |ts: &[CardId]| {
        ts.iter()
            .map(|&t| r.deck.card(t).name.clone())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut s = String::new();
    let p = &h.players[0];
    let _ = writeln!(s, "player {} value {:?}", names(&p.tiles), p.value);
    let _ = writeln!(
        s,
        "banker {} value {:?}",
        names(&h.banker_tiles),
        h.banker_value
    );
    for rule in &h.rules {
        let _ = writeln!(s, "rule: {rule}");
    }
    let _ = writeln!(s, "result {:+}", p.result);
    s
}

#[test]
fn a_low_first_tile_must_draw_and_the_banker_draws_on_four_or_less() {
    // [2:1] is 3: the player draws [5:1], 9. The banker's [6:6] [4:4] is 0: it draws [3:1], 4.
    insta::assert_snapshot!(hand(
        &[
            "three-21-a",
            "heaven-a",
            "man-a",
            "red-mallet-six-a",
            "goose-a"
        ],
        &[]
    ));
}

#[test]
fn a_high_first_tile_must_stand() {
    // [6:1] is 7: it stands. The banker's [6:5] [4:3] is 8: above 4, it stands too.
    insta::assert_snapshot!(hand(
        &["long-leg-seven-a", "tiger-head-a", "seven-43-a"],
        &[]
    ));
}

#[test]
fn a_middle_first_tile_leaves_the_choice_to_the_player() {
    // [3:1] is 4: the player is asked, takes one, [5:5]: 4. The banker's [5:5] [5:4] is 9.
    insta::assert_snapshot!(hand(
        &["goose-a", "plum-flower-a", "nine-54-a", "plum-flower-b"],
        &[1]
    ));
}

#[test]
fn drawing_rules_per_seat_are_analysed_exactly() {
    let r = rules();
    assert!(check_odds_work(&r).is_ok());
    let odds =
        crate::families::banker::analysis::seats::seat_odds(&r, r.banker().unwrap()).unwrap();
    // The choice is left on a first tile of 4 to 6: the hands at a choice are first hands.
    assert!(odds.choices.is_empty());
    assert_eq!(
        odds.by_total.iter().map(|t| t.total).collect::<Vec<_>>(),
        [4, 5, 6]
    );
}
