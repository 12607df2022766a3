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
    choose_why(table, seen, legal).0
}

/// Why the bot made its choice: the branch of its reading that decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// One play empties the hand.
    GoOut,
    /// A lead: the lowest card, in the largest play that holds it.
    Lead,
    /// The cheapest play of the class to beat.
    Cheapest,
    /// A seat is close to going out: the cheapest play of any class that beats.
    Stop { left: u32 },
    /// Nothing of the class to beat, and no danger: a pass.
    Pass,
}

impl Why {
    /// The reason in words, as a hint says it.
    pub fn words(self) -> String {
        match self {
            Why::GoOut => "it empties the hand: going out wins the hand".to_string(),
            Why::Lead => "on a lead it sheds its lowest card in the largest combination that holds it, keeping its high cards to win tricks later".to_string(),
            Why::Cheapest => "it is the cheapest play of the same kind that beats the table, keeping stronger cards for later".to_string(),
            Why::Stop { left } => format!(
                "a seat has only {left} card{} left: it beats the table with whatever it can to stop them going out",
                if left == 1 { "" } else { "s" }
            ),
            Why::Pass => "no play of the same kind beats the table, and no one is close to going out: passing keeps its cards".to_string(),
        }
    }
}

/// The greedy choice, with why.
pub fn choose_why(table: &CombinationTable, seen: &Seen, legal: &[Action]) -> (Action, Why) {
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
        return (*a, Why::GoOut);
    }
    let order = &table.order;
    let Some(led) = seen.to_beat else {
        // A lead: the lowest card, in the largest play that holds it.
        let lowest = order.highest_by(hand, std::cmp::Reverse);
        let best = plays
            .iter()
            .filter(|(_, cards, _)| lowest.is_none_or(|c| cards.contains(c)))
            .max_by_key(|(_, cards, p)| (cards.len(), std::cmp::Reverse(p.key)));
        return (
            best.or(plays.first()).map_or(legal[0], |(a, ..)| *a),
            Why::Lead,
        );
    };
    // Someone close to going out: beat them with anything.
    let danger = seen.fewest_left <= 2;
    let same = plays
        .iter()
        .filter(|(_, _, p)| p.class == led.class)
        .min_by_key(|(_, _, p)| p.key);
    if let Some((a, ..)) = same {
        return (*a, Why::Cheapest);
    }
    if danger && let Some((a, ..)) = plays.iter().min_by_key(|(_, _, p)| (p.class, p.key)) {
        return (
            *a,
            Why::Stop {
                left: seen.fewest_left,
            },
        );
    }
    (pass.unwrap_or(legal[0]), Why::Pass)
}
