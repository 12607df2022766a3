//! The rule sheet's words for what a deal gives (`[[flow.deal_bonus]]`), for checks on every
//! deal of a hand, and for where leftover cards go by rule (`[[flow.leftover_to]]`): split from
//! `flow` by size.

use super::*;
use crate::ruleset::{DealBonus, DealSeat, LeftoverRule, LeftoverSeat};

/// A deal bonus as a rule: the table it needs, who receives it, the cards taken and the event
/// counted ("Sweep at the deal: when the table is dealt cards adding up to 15, the dealer takes the
/// table's cards and scores a Scopa.").
pub(super) fn deal_bonus_rule(
    bonus: &DealBonus,
    flow: &MatchingFlow,
    deck: &Deck,
    lex: &Lexicon,
) -> Rule {
    let card = &lex.card_word;
    let who = match bonus.to {
        DealSeat::Dealer => "the dealer".to_string(),
        DealSeat::FirstPlayer => "the player who plays first".to_string(),
        DealSeat::Holder(c) => format!("the player dealt the {}", deck.card(c).name),
    };
    let take = bonus.take_source.as_deref().map(|source| {
        if source.trim() == "pile" {
            format!("takes the table's {card}s")
        } else {
            let words = in_words(source, lex).replace(&lex.pile_words, &format!("{card}s"));
            format!("takes the table's {words}")
        }
    });
    let event = bonus.event.map(|(e, times)| {
        let name = &flow.turn_events[e].name;
        match times {
            1 => format!("scores a {name}"),
            2 => format!("scores a {name} twice"),
            n => format!("scores a {name} {} times", number_word(i64::from(n))),
        }
    });
    let does = join_and(&take.into_iter().chain(event).collect::<Vec<_>>());
    check_rule(&bonus.check, lex, |when| {
        format!("when the table is dealt {when}, {who} {does}.")
    })
}

/// `[flow] deal_checks = "every"`, in words.
pub(super) fn every_deal_rule(card: &str) -> Rule {
    Rule::plain(format!(
        "Dealt combinations count on every deal: each time the hands are dealt {card}s again, \
         each hand is checked as at the first deal."
    ))
}

/// A leftover rule in words: "When the hands are played out, the Rain cards left on the table go
/// to the player who took the Lightning."
pub(super) fn leftover_rule(rule: &LeftoverRule, deck: &Deck, lex: &Lexicon) -> Rule {
    let which = in_words(&rule.cards_source, lex);
    let who = match rule.to {
        LeftoverSeat::Holder(c) => format!("the player who took the {}", deck.card(c).name),
        LeftoverSeat::LastCapturer => "the last player who captured".to_string(),
        LeftoverSeat::Dealer => "the dealer".to_string(),
    };
    let rest = match rule.to {
        LeftoverSeat::Holder(_) => " (when nobody took it, they go as the other cards do)",
        _ => "",
    };
    Rule::plain(format!(
        "When the hands are played out, the {which} left on the table go first to {who}{rest}."
    ))
}
