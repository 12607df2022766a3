//! The banker family's rule-reading choice, which `greedy` and `expert` play
//! ([`crate::core::Game::heuristic`]): the exact best bet and draw from what a seat sees.

use super::odds::{best_table_bet, hand_strength, with_odds};
use super::view::{BankerPhase, BankerView};
use crate::core::Action;

/// On a table hand: the smallest stake on the bet with the best expected result, nothing on
/// the others.
pub(super) fn table_choice(view: &BankerView, kind: usize, legal: &[Action]) -> Action {
    let wanted = Action::Bet {
        amount: if best_table_bet(view.ruleset) == Some(kind) {
            view.limits.0
        } else {
            0
        },
    };
    if legal.contains(&wanted) {
        wanted
    } else {
        legal[0]
    }
}

/// The exact best choice from what `view` shows: the largest bet when the first tiles are
/// favourable (else the smallest), and the number of tiles with the best expected result; on a
/// table hand, the smallest stake on the bet with the best expected result.
pub fn best_choice(view: &BankerView, legal: &[Action]) -> Action {
    // Arranged hands: by the house way.
    if let Some(a) = super::arrange::house_way_move(view, legal) {
        return a;
    }
    if view.play.is_some() {
        return play_choice(view, legal);
    }
    if let Some(kind) = view.bet_kind {
        return table_choice(view, kind, legal);
    }
    if view.to_call.is_some() {
        return pot_choice(view, legal);
    }
    let best = with_odds(view.ruleset, |odds| {
        odds.iter()
            .find(|o| o.tiles == view.tiles)
            .map(|o| o.best())
    });
    let Some(Some((draw, value))) = best else {
        return legal[0];
    };
    let wanted = match view.phase {
        BankerPhase::Bet { .. } => Action::Bet {
            amount: if value.is_positive() {
                view.limits.1
            } else {
                view.limits.0
            },
        },
        _ => Action::Draw { count: draw },
    };
    if legal.contains(&wanted) {
        wanted
    } else {
        legal[0]
    }
}

/// A pot game's bet by the strength of the hand: raise the most on a hand that beats nine in
/// ten others, the least on one that beats three in four, call (or check) on one that beats
/// half, else check or fold.
pub(super) fn pot_choice(view: &BankerView, legal: &[Action]) -> Action {
    let strength = hand_strength(view.ruleset, view.tiles);
    let owe = view.to_call.unwrap_or(0);
    let bets: Vec<i64> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Bet { amount } => Some(*amount),
            _ => None,
        })
        .collect();
    let raises: Vec<i64> = bets.iter().copied().filter(|&b| b > owe).collect();
    let wanted = if strength >= 0.9 && !raises.is_empty() {
        raises[raises.len() - 1]
    } else if strength >= 0.75 && !raises.is_empty() {
        raises[0]
    } else if strength >= 0.5 || owe == 0 {
        owe
    } else {
        0
    };
    let action = Action::Bet { amount: wanted };
    if legal.contains(&action) {
        action
    } else {
        legal[0]
    }
}

/// Hands played by actions: the smallest bet, no insurance, and the action with the best
/// expected result on an infinite deck ([`crate::families::banker::analysis::play`]), worked
/// out from the rules once per ruleset and thread and kept.
pub(super) fn play_choice(view: &BankerView, legal: &[Action]) -> Action {
    let wanted = match view.phase {
        BankerPhase::Bet { .. } => Action::Bet {
            amount: view.limits.0,
        },
        BankerPhase::Insure { .. } => Action::Bet { amount: 0 },
        _ => {
            let Some(values) = action_values(view, legal) else {
                return legal[0];
            };
            let best = values
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1))
                .map_or(0, |(i, _)| i);
            legal[best]
        }
    };
    if legal.contains(&wanted) {
        wanted
    } else {
        legal[0]
    }
}

/// The expected result of each of `legal` (the actions of a hand played by actions) per chip
/// staked, played at its best after; `None` outside such a hand.
fn action_values(view: &BankerView, legal: &[Action]) -> Option<Vec<f64>> {
    use crate::families::banker::analysis::play::PlayOdds;
    use crate::ruleset::PlayEffect;
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static MODELS: RefCell<HashMap<u64, PlayOdds>> = RefCell::default();
    }
    let (Some(play), Some(flow)) = (view.play, view.ruleset.banker()) else {
        return None;
    };
    let &up = play.banker.first()?;
    let effects: Vec<PlayEffect> = legal
        .iter()
        .map(|a| match a {
            Action::Declare { decl, .. } => view
                .ruleset
                .declarations
                .get(decl.0 as usize)
                .and_then(|d| PlayEffect::named(&d.effect))
                .unwrap_or(PlayEffect::Stand),
            _ => PlayEffect::Stand,
        })
        .collect();
    Some(MODELS.with(|m| {
        let mut m = m.borrow_mut();
        let model = m.entry(view.ruleset.content_hash).or_insert_with(|| {
            super::odds::play_model(view.ruleset)
                .map_or_else(|| PlayOdds::new(flow, &view.ruleset.deck), |m| (*m).clone())
        });
        model.action_values(up, play.cards, play.split, play.hands, &effects)
    }))
}

/// An expected result per chip as a hint says it: "+0.125 a chip".
fn per_chip(value: f64) -> String {
    format!("{value:+.3} a chip")
}

/// Why [`best_choice`] chooses `action` among `legal`, in words, with the figures it chose by:
/// the expected result per chip of each option where the odds are exact, the hand's strength
/// in a pot game.
pub fn reasons(view: &BankerView, legal: &[Action], action: Action) -> Vec<String> {
    // An option by the ruleset's name for it (a declaration's), or by the draw it makes.
    let describe = |a: Action| match a {
        Action::Draw { count: 0 } => "standing".to_string(),
        Action::Draw { count } => format!("drawing {count}"),
        Action::Declare { decl, .. } => view
            .ruleset
            .declarations
            .get(decl.0 as usize)
            .map_or_else(|| "acting".to_string(), |d| d.name.clone()),
        _ => "betting".to_string(),
    };
    let options = |values: &[(Action, f64)]| {
        let listed: Vec<String> = values
            .iter()
            .map(|&(a, v)| format!("{} {}", describe(a), per_chip(v)))
            .collect();
        format!("the expected result of each choice: {}", listed.join(", "))
    };
    if view.play.is_some() {
        return match view.phase {
            BankerPhase::Bet { .. } => vec![
                "the odds of a hand are the same whatever the bet, and it is below even for the player: the smallest bet risks least".to_string(),
            ],
            BankerPhase::Insure { .. } => {
                vec!["it never takes insurance, a side bet it does not weigh".to_string()]
            }
            _ => action_values(view, legal).map_or_else(Vec::new, |values| {
                let pairs: Vec<(Action, f64)> = legal.iter().copied().zip(values).collect();
                vec![format!(
                    "played at its best afterwards, {}",
                    options(&pairs)
                )]
            }),
        };
    }
    if view.bet_kind.is_some() {
        let Some(bets) = super::odds::table_bets(view.ruleset) else {
            return Vec::new();
        };
        let listed: Vec<String> = bets
            .iter()
            .map(|(name, ev)| format!("{name} {}", per_chip(ev.to_f64())))
            .collect();
        let best = super::odds::best_table_bet(view.ruleset)
            .and_then(|i| bets.get(i))
            .map_or(String::new(), |(name, _)| name.clone());
        return vec![format!(
            "every bet loses on average, {best} least ({}): it stakes the least it may on {best} and nothing on the others",
            listed.join(", ")
        )];
    }
    if view.to_call.is_some() {
        let strength = super::odds::hand_strength(view.ruleset, view.tiles);
        return vec![format!(
            "the hand beats {:.0}% of the hands it could meet: it raises most above 90%, least above 75%, calls above 50%, else checks or folds",
            strength * 100.0
        )];
    }
    let odds = with_odds(view.ruleset, |odds| {
        odds.iter().find(|o| o.tiles == view.tiles).cloned()
    });
    let Some(Some(odds)) = odds else {
        return Vec::new();
    };
    let (draw, best) = odds.best();
    match (view.phase, action) {
        (BankerPhase::Bet { .. }, _) => vec![format!(
            "with these first cards the best play ({}) expects {}, {}",
            describe(Action::Draw { count: draw }),
            per_chip(best.to_f64()),
            if best.is_positive() {
                "above even: it bets the most"
            } else {
                "not above even: it bets the least"
            }
        )],
        _ => {
            let pairs: Vec<(Action, f64)> = odds
                .by_draw
                .iter()
                .map(|(count, v)| (Action::Draw { count: *count }, v.to_f64()))
                .filter(|(a, _)| legal.contains(a))
                .collect();
            vec![options(&pairs)]
        }
    }
}
