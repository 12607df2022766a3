//! The rule sheet's words for a matching game's turn events (what a sweep, a kiss or taking the
//! card just laid earns): split from `flow` by size.

use super::*;

/// A turn event as a rule: the pattern that fires it, when, and what it earns (its points
/// counted `at_once` under counting out, else at the end of the hand).
pub(super) fn turn_event_rule(event: &TurnEvent, lex: &Lexicon, two: bool, at_once: bool) -> Rule {
    let counted = if at_once {
        "counted at once"
    } else {
        "at the end of the hand"
    };
    let card = &lex.card_word;
    let suit = &lex.suit_word;
    let pattern = match event.on {
        TurnPattern::Kiss => {
            format!("the hand {card} matched nothing and the {card} drawn takes it back")
        }
        TurnPattern::Stack => format!("the {card} drawn makes a stack"),
        TurnPattern::StackTaken => "a player takes a stack another player made".to_string(),
        TurnPattern::OwnStackTaken => "a player takes back a stack of their own".to_string(),
        TurnPattern::FourTaken => format!(
            "the hand {card} takes one of two table {card}s of its {suit} and the {card} drawn \
             the other, all four"
        ),
        TurnPattern::Sweep => "a turn leaves the table empty".to_string(),
        TurnPattern::SuitPlayed => format!("a player plays a whole {suit} from the hand at once"),
        TurnPattern::LastLaidTaken => {
            format!("a player captures the {card} the player before laid on the table")
        }
    };
    let when = event
        .when_source
        .as_deref()
        .map_or_else(String::new, |w| format!(", if {}", in_words(w, lex)));
    let others = if two {
        "the opponent gives"
    } else {
        "each other player gives"
    };
    let earns = match event.wins {
        Some(points) => format!("the player wins the hand at once with {points} points"),
        None if event.take > 0 => format!(
            "{others} the player {} {} from their pile",
            number_word(event.take.into()),
            if event.take == 1 {
                card.to_string()
            } else {
                format!("{card}s")
            },
        ),
        None if event.points < 0 => format!(
            "it costs the player {} {counted}",
            points_words(-event.points)
        ),
        None if event.points != 0 => {
            format!("it is worth {} {counted}", points_words(event.points))
        }
        None => "it is counted for the scoring".to_string(),
    };
    Rule::named(&event.name, format!("when {pattern}{when}, {earns}."))
}
