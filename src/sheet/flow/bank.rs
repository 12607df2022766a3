//! The rule sheet's words for a bank among the seats (how the first banker is chosen and how the
//! bank passes) and for arranged hands (`[flow.arrange]`): split from `flow` by size.

use super::super::{Rule, hands, in_words, join_and};
use crate::expr::{Lexicon, number_word};
use crate::ruleset::BankerFlow;

/// Arranged hands (`[flow.arrange]`): the hands, the order between them, the house way and the
/// settlement.
pub(super) fn arrange_rules(
    flow: &BankerFlow,
    arrange: &crate::ruleset::Arrange,
    lex: &Lexicon,
) -> Vec<Rule> {
    let card = &lex.card_word;
    let hands: Vec<String> = arrange
        .hands
        .iter()
        .map(|h| format!("a {} of {} {card}s", h.name, number_word(h.cards.into())))
        .collect();
    let by = if flow.ranks.is_empty() {
        "by value"
    } else {
        "by the ranks below"
    };
    let mut rules = vec![Rule::named(
        "Arranging",
        format!(
            "each player splits their {card}s into {}; the {} must rank {} the {} ({by}).",
            join_and(&hands),
            arrange.hands[0].name,
            if arrange.strictly_above {
                "above"
            } else {
                "at least as high as"
            },
            arrange.hands[1].name,
        ),
    )];
    let mut way: Vec<String> = arrange
        .house_way
        .iter()
        .map(|w| {
            let hand = &arrange.hands[w.maximise].name;
            let other = &arrange.hands[1 - w.maximise].name;
            // `keep`: what the other hand must hold, when an arrangement lets it.
            let keep = match &w.keep_source {
                Some(keep) => format!(" whose {other} keeps {} where it can", in_words(keep, lex)),
                None => String::new(),
            };
            match &w.when_source {
                Some(when) => format!(
                    "{} (when {}): the strongest {hand}{keep}",
                    w.name,
                    in_words(when, lex)
                ),
                None => format!("otherwise ({}) the strongest {hand}{keep}", w.name),
            }
        })
        .collect();
    if arrange.house_way.iter().all(|w| w.when.is_some()) {
        way.push(format!("otherwise the strongest {}", arrange.hands[0].name));
    }
    rules.push(Rule::named(
        "The house way",
        format!("the banker arranges its {card}s: {}.", way.join("; ")),
    ));
    let (n, d) = arrange.pays;
    rules.push(Rule::named(
        "Settling",
        format!(
            "each hand is compared with the banker's of the same name; equal hands {}. A player who wins every hand is paid {n} to {d}, one who loses every hand loses the bet, and anything else is a push.",
            if arrange.copies_to_banker {
                "go to the banker"
            } else {
                "go to neither"
            }
        ),
    ));
    rules
}

/// How the first banker (in a pot game, the first dealer) is chosen and how the bank passes:
/// `verb` is what the seat does (`banks`, `deals`), `role` what passes (`the bank`, `the deal`).
pub(super) fn bank_words(
    bank: &crate::ruleset::Bank,
    lex: &Lexicon,
    verb: &str,
    role: &str,
) -> String {
    use crate::ruleset::FirstBanker;
    let first = match bank.first {
        FirstBanker::FirstSeat => format!("the first seat {verb} first"),
        FirstBanker::HighCard => format!(
            "each seat is shown a {} and the highest value {verb} first",
            lex.card_word
        ),
        FirstBanker::LowCard => format!(
            "each seat is shown a {} and the lowest value {verb} first",
            lex.card_word
        ),
    };
    let mut passes = Vec::new();
    if let Some(w) = &bank.pass_when_source {
        passes.push(format!(
            "to the first player in turn for whom {} at a showdown",
            in_words(w, lex)
        ));
    }
    if bank.pass_every > 0 {
        passes.push(format!("in turn after {}", hands(bank.pass_every)));
    }
    if bank.pass_to_winner {
        use crate::ruleset::{WinnerBy, WinnerTies};
        let pot = verb == "deals";
        let winner = match (pot, bank.winner_by) {
            (true, _) => "to the winner of a pot",
            (false, WinnerBy::Chips) => "to the player who won the most chips from it in a hand",
            (false, WinnerBy::Hand) => "to the player whose hand beat it and is best",
        };
        passes.push(match (pot, bank.winner_ties) {
            (true, WinnerTies::BankerKeeps) => winner.to_string(),
            (true, WinnerTies::FirstInTurn) => {
                format!("{winner} (a split pot's first winner in turn)")
            }
            (false, WinnerTies::BankerKeeps) => format!("{winner} (on a tie it stays)"),
            (false, WinnerTies::FirstInTurn) => {
                format!("{winner} (on a tie to the first of them in turn)")
            }
        });
    }
    if passes.is_empty() {
        format!("{first}, and keeps {role}.")
    } else {
        format!("{first}; {role} passes {}.", passes.join(", or "))
    }
}
