//! The climbing family's rule-reading bot: go out when one play empties the hand; on a lead,
//! shed the lowest card in the largest combination that holds it; on a play to beat, the
//! cheapest play of the same class, a stronger class only when a seat is close to going out,
//! else pass.

use super::game::ClimbingGame;
use crate::core::{Action, Seat};
use crate::deck::CardSet;

/// The greedy choice for `seat` among `legal`.
pub fn choose(game: &ClimbingGame, seat: Seat, legal: &[Action]) -> Action {
    let table = &game.flow().combos;
    let hand = game.hand(seat);
    let plays: Vec<(Action, CardSet, crate::ruleset::combos::Play)> = legal
        .iter()
        .filter_map(|&a| match a {
            Action::PlaySet { cards } => table.classify(cards).map(|p| (a, cards, p)),
            _ => None,
        })
        .collect();
    let pass = legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::Declare { .. }));
    if let Some((a, ..)) = plays.iter().find(|(_, cards, _)| *cards == hand) {
        return *a;
    }
    let order = &table.order;
    let Some((_, led, _)) = game.to_beat() else {
        // A lead: the lowest card, in the largest play that holds it.
        let lowest = order.highest_by(hand, std::cmp::Reverse);
        let best = plays
            .iter()
            .filter(|(_, cards, _)| lowest.is_none_or(|c| cards.contains(c)))
            .max_by_key(|(_, cards, p)| (cards.len(), std::cmp::Reverse(p.key)));
        return best.or(plays.first()).map_or(legal[0], |(a, ..)| *a);
    };
    // Someone close to going out: beat them with anything.
    let danger = (0..game.seats_count())
        .filter(|&s| s != seat)
        .any(|s| game.hand(s).len() <= 2);
    let same = plays
        .iter()
        .filter(|(_, _, p)| p.class == led.class)
        .min_by_key(|(_, _, p)| p.key);
    if let Some((a, ..)) = same {
        return *a;
    }
    if danger && let Some((a, ..)) = plays.iter().min_by_key(|(_, _, p)| (p.class, p.key)) {
        return *a;
    }
    pass.unwrap_or(legal[0])
}
