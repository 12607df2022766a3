//! The rule sheet's words for counting out (`[flow] count_at_once`): points that count when they
//! are made, so that a game can end in the middle of a hand. Split from `flow` by size.

use super::*;

/// Counting out as a rule, for a game to a target that counts points at once; None otherwise.
pub(super) fn counting_out_rule(flow: &MatchingFlow) -> Option<Rule> {
    let GameLength::Target { score, .. } = flow.length else {
        return None;
    };
    if !flow.count_at_once {
        return None;
    }
    Some(Rule::named(
        "Counting out",
        format!(
            "points count when they are made: a combination or a turn's bonus at once, and an \
             award for the most of something as soon as no other player could still reach as \
             many with every card not yet taken. The moment a player's total reaches {score}, \
             the game ends, even in the middle of a hand, with the points made so far."
        ),
    ))
}
