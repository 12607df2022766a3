//! The climbing family's rule-reading bot: go out when one play empties the hand; on a lead,
//! shed the lowest card in the largest combination that holds it; on a play to beat, the
//! cheapest play of the same class, a stronger class only when a seat is close to going out,
//! else pass.

use crate::core::Action;
use crate::deck::CardSet;
use crate::ruleset::combos::{CombinationTable, Play};

/// What the bot reads of the table: its hand, the play to beat (none on a lead) and the fewest
/// cards another seat holds.
pub struct Seen {
    /// The bot's hand.
    pub hand: CardSet,
    /// The play to beat.
    pub to_beat: Option<Play>,
    /// The fewest cards another seat holds.
    pub fewest_left: u32,
}

/// The greedy choice among `legal` from what the seat sees.
pub fn choose(table: &CombinationTable, seen: &Seen, legal: &[Action]) -> Action {
    let hand = seen.hand;
    let plays: Vec<(Action, CardSet, Play)> = legal
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
    let Some(led) = seen.to_beat else {
        // A lead: the lowest card, in the largest play that holds it.
        let lowest = order.highest_by(hand, std::cmp::Reverse);
        let best = plays
            .iter()
            .filter(|(_, cards, _)| lowest.is_none_or(|c| cards.contains(c)))
            .max_by_key(|(_, cards, p)| (cards.len(), std::cmp::Reverse(p.key)));
        return best.or(plays.first()).map_or(legal[0], |(a, ..)| *a);
    };
    // Someone close to going out: beat them with anything.
    let danger = seen.fewest_left <= 2;
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
