//! The rule sheet's words for points that count as they are made and for what a declaration
//! earns: counting out (`[flow] count_at_once`), so that a game can end in the middle of a
//! hand, and a declaration before a play's `points` and `blocks`. Split from `flow` by size.

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

/// What a declaration before a play earns and keeps from the others, after its prompt: its
/// `points` (in a hand settled seat by seat) and, when it `blocks`, that the suit it shows is
/// the declarer's alone to capture.
pub(super) fn before_play_effects(rule: &mut Rule, d: &Declaration, lex: &Lexicon) {
    if d.points != 0 {
        let verb = if d.points > 0 { "Worth" } else { "It costs" };
        rule.text.push_str(&format!(
            " {verb} {} each time.",
            points_words(d.points.abs())
        ));
    }
    if d.blocks {
        rule.text.push_str(&format!(
            " From then on, this hand, only the declarer may capture {}s of that {}: another \
             player's {} of it takes none and stays on the table.",
            lex.card_word, lex.suit_word, lex.card_word
        ));
    }
}
