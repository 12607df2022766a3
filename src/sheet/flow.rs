//! The parts of a rule sheet that depend on the game's flow family: one function per family, so
//! a change to a family's flow model changes only its function here.

use super::{Rule, Section, in_words};
use crate::deck::Deck;
use crate::expr::{Lexicon, number_word};
use crate::ruleset::{
    BankerFlow, BothInstant, DealCheck, DealTarget, Exhausted, FirstDealer, GameLength,
    MatchingFlow, NextDealer,
};

/// The deal, the turn, declarations, instant wins, redeals and game length of a matching game.
pub(super) fn matching(flow: &MatchingFlow, deck: &Deck, lex: &Lexicon) -> Vec<Section> {
    let card = &lex.card_word;
    let order: Vec<&str> = flow
        .deal_order
        .iter()
        .map(|t| match t {
            DealTarget::Dealer => "the dealer",
            DealTarget::Opponent => "the opponent",
            DealTarget::Table => "the table",
        })
        .collect();
    let mut deal = vec![Rule::plain(format!(
        "{} {card}s to each hand and {} face up on the table, dealt {} at a time to {}.",
        capitalized(&number_word(flow.hand_size.into())),
        number_word(flow.table_size.into()),
        number_word(flow.deal_packet.into()),
        order.join(", ")
    ))];
    deal.push(Rule::plain(match flow.first_dealer {
        FirstDealer::First => "The first player deals first.",
        FirstDealer::Random => "The first dealer is drawn at random.",
    }));
    let next = |n: NextDealer| match n {
        NextDealer::Winner => "the winner deals",
        NextDealer::Same => "the same dealer deals again",
        NextDealer::Alternate => "the deal passes to the other player",
    };
    deal.push(Rule::plain(format!(
        "After a won hand {}; after a drawn hand {}.",
        next(flow.next_dealer),
        next(flow.draw_dealer)
    )));
    if flow.dealer_hand_swap {
        deal.push(Rule::plain(
            "After the deal the non-dealer may take the dealer's hand instead of their own.",
        ));
    }
    for check in &flow.instant_wins {
        deal.push(check_rule(check, lex, |when| {
            format!(
                "instant win of {} points for a hand dealt {when}.",
                check.points
            )
        }));
    }
    if !flow.instant_wins.is_empty() {
        deal.push(Rule::plain(match flow.both_instant {
            BothInstant::Draw => "When both hands hold an instant win, the hand is a draw.",
            BothInstant::Dealer => "When both hands hold an instant win, the dealer's counts.",
        }));
    }
    for check in &flow.redeals {
        deal.push(check_rule(check, lex, |when| {
            format!("redeal when the table is dealt {when}.")
        }));
    }
    let mut turn = vec![Rule::plain(format!(
        "Play a {card} from your hand onto a table {card} of the same {suit} to capture both (or \
         leave it on the table), then turn the top {card} of the stock and do the same.",
        suit = lex.suit_word
    ))];
    if !flow.wild.is_empty() {
        let names: Vec<String> = flow
            .wild
            .iter()
            .map(|c| format!("the {}", deck.card(c).name))
            .collect();
        turn.push(Rule::plain(format!(
            "Wild: {} matches any {card}.",
            names.join(" and ")
        )));
    }
    if flow.koikoi {
        turn.push(Rule::named(
            "Koi-koi",
            format!(
                "when a capture makes a new yaku, stop and score, or call koi-koi and play on for \
                 more{}.",
                if flow.koikoi_on_empty_hand {
                    ""
                } else {
                    " (not with an empty hand)"
                }
            ),
        ));
    } else {
        turn.push(Rule::plain("A hand ends as soon as a player makes a yaku."));
    }
    turn.push(Rule::plain(match flow.exhausted {
        Exhausted::Draw => {
            "When both hands run out with no one stopping, the hand is a draw.".to_string()
        }
        Exhausted::DealerScores(p) => {
            format!("When both hands run out with no one stopping, the dealer scores {p} points.")
        }
    }));
    let length = match flow.length {
        GameLength::Rounds(n) => format!("A game is {} hands; the higher total wins.", n),
        GameLength::Target { score, max_rounds } => format!(
            "A game ends when a player reaches {score} points (or after {max_rounds} hands)."
        ),
    };
    turn.push(Rule::plain(length));
    vec![
        Section {
            heading: "Deal".to_string(),
            rules: deal,
        },
        Section {
            heading: "Play".to_string(),
            rules: turn,
        },
    ]
}

/// Bets, draws, the banker's instant wins, hand values and session length of a banker game.
pub(super) fn banker(flow: &BankerFlow, lex: &Lexicon) -> Vec<Section> {
    let card = &lex.card_word;
    let draws: Vec<String> = flow
        .draw_options
        .iter()
        .map(|n| number_word((*n).into()))
        .collect();
    let mut rules = vec![
        Rule::plain(format!(
            "One to {} players bet against the banker; each starts with {} chips{}.",
            number_word(flow.max_players.into()),
            flow.bankroll,
            match flow.banker_bankroll {
                Some(b) => format!(", the banker with {b}"),
                None => ", the banker's purse is unlimited".to_string(),
            }
        )),
        Rule::plain(format!(
            "Each player receives {} {card} and bets {} to {} chips on it.",
            number_word(flow.first_tiles.into()),
            flow.min_bet,
            flow.max_bet
        )),
        Rule::plain(format!(
            "The banker takes {} {card}s.",
            number_word(flow.banker_tiles.into())
        )),
    ];
    for check in &flow.banker_wins {
        rules.push(check_rule(check, lex, |when| {
            format!("the banker wins every bet at once with {when}.")
        }));
    }
    rules.push(Rule::plain(format!(
        "Each player then takes {} more {card}s.",
        draws.join(" or ")
    )));
    rules.push(Rule::named(
        "Showdown",
        format!(
            "a hand's value is {}; the higher value wins the bet, equal values draw.",
            in_words(&flow.value_source, lex)
        ),
    ));
    rules.push(Rule::plain(format!("A session is {} hands.", flow.hands)));
    vec![Section {
        heading: "Play".to_string(),
        rules,
    }]
}

/// A deal check as a rule named after it: `sentence` given its condition in words.
fn check_rule(check: &DealCheck, lex: &Lexicon, sentence: impl Fn(&str) -> String) -> Rule {
    Rule::named(&check.name, sentence(&in_words(&check.when_source, lex)))
}

/// `word` with its first letter in capitals.
fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
