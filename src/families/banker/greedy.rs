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
            amount: if value.numer() > 0 {
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
    use crate::families::banker::analysis::play::PlayOdds;
    use crate::ruleset::PlayEffect;
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static MODELS: RefCell<HashMap<u64, PlayOdds>> = RefCell::default();
    }
    let wanted = match view.phase {
        BankerPhase::Bet { .. } => Action::Bet {
            amount: view.limits.0,
        },
        BankerPhase::Insure { .. } => Action::Bet { amount: 0 },
        _ => {
            let (Some(play), Some(flow)) = (view.play, view.ruleset.banker()) else {
                return legal[0];
            };
            let Some(&up) = play.banker.first() else {
                return legal[0];
            };
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
            let values = MODELS.with(|m| {
                let mut m = m.borrow_mut();
                let model = m.entry(view.ruleset.content_hash).or_insert_with(|| {
                    super::odds::play_model(view.ruleset)
                        .map_or_else(|| PlayOdds::new(flow, &view.ruleset.deck), |m| (*m).clone())
                });
                model.action_values(up, play.cards, play.split, play.hands, &effects)
            });
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
