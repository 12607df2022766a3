//! The parts of a rule sheet that depend on the game's flow family: one function per family, so
//! a change to a family's flow model changes only its function here.

use super::{Rule, Section, in_words};
use crate::deck::Deck;
use crate::expr::{Lexicon, number_word};
use crate::ruleset::{
    BankerFlow, BothInstant, ClaimRule, DealCheck, DealOn, DealTarget, Declaration, Exhausted,
    FirstDealer, FollowRule, GameLength, MatchingFlow, NextDealer, TricksFlow,
};

/// A declaration as a rule: its name, what it does, and when it may be made.
fn declaration_rule(d: &Declaration, lex: &Lexicon, what: &str) -> Rule {
    let when = d
        .when_source
        .as_deref()
        .map_or_else(String::new, |w| format!(" Only when {}.", in_words(w, lex)));
    let prompt = if d.prompt.is_empty() {
        what.to_string()
    } else {
        d.prompt.clone()
    };
    Rule::named(&d.name, format!("{}.{when}", capitalized(&prompt)))
}

/// The deal, the turn, declarations, instant wins, redeals and game length of a matching game.
pub(super) fn matching(
    flow: &MatchingFlow,
    declarations: &[Declaration],
    deck: &Deck,
    lex: &Lexicon,
) -> Vec<Section> {
    let card = &lex.card_word;
    let order: Vec<&str> = flow
        .deal_order
        .iter()
        .map(|t| match t {
            DealTarget::Dealer => "the dealer",
            DealTarget::Others if flow.players == 2 => "the opponent",
            DealTarget::Others => "each other player",
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
    for d in &flow.deal_sizes {
        deal.push(Rule::plain(format!(
            "With {} players: {} {card}s to each hand and {} on the table.",
            number_word(d.players.into()),
            number_word(d.hand_size.into()),
            number_word(d.table_size.into()),
        )));
    }
    deal.push(Rule::plain(match flow.first_dealer {
        FirstDealer::First => "The first player deals first.",
        FirstDealer::Random => "The first dealer is drawn at random.",
    }));
    let next = |n: NextDealer| match n {
        NextDealer::Winner => "the winner deals",
        NextDealer::Same => "the same dealer deals again",
        NextDealer::Alternate => "the deal passes to the next player",
    };
    deal.push(Rule::plain(format!(
        "After a won hand {}; after a drawn hand {}.",
        next(flow.next_dealer),
        next(flow.draw_dealer)
    )));
    if !flow.after_deal.is_empty() {
        deal.push(Rule::plain(
            "After the deal the player after the dealer chooses:",
        ));
        for d in &flow.after_deal {
            deal.push(declaration_rule(&declarations[d.0 as usize], lex, ""));
        }
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
            BothInstant::Play => {
                "When both hands hold an instant win, neither counts and the hand is played."
            }
        }));
    }
    for check in &flow.redeals {
        let place = match check.on {
            DealOn::Table => "the table is",
            DealOn::Hands => "a hand is",
            DealOn::Any => "a hand or the table is",
        };
        deal.push(check_rule(check, lex, |when| {
            format!("redeal when {place} dealt {when}.")
        }));
    }
    let mut turn = vec![Rule::plain(format!(
        "Play a {card} from your hand onto a table {card} of the same {suit} to capture both (or \
         leave it on the table), then turn the top {card} of the stock and do the same.",
        suit = lex.suit_word
    ))];
    if flow.teams.any() {
        let seats = flow.players as usize;
        let teams: Vec<String> = (0..flow.teams.count(seats))
            .map(|t| {
                let list: Vec<String> = flow
                    .teams
                    .members(t, seats)
                    .map(|s| format!("seat {}", s + 1))
                    .collect();
                list.join(" and ")
            })
            .collect();
        turn.push(Rule::plain(format!(
            "Partners: {}. Partners score together and share one score.",
            teams.join(" against ")
        )));
    }
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
    if flow.after_yaku.is_empty() {
        turn.push(Rule::plain("Making a yaku does not end the hand."));
    } else {
        turn.push(Rule::plain(
            "When a turn makes a new yaku or improves one, the player declares:",
        ));
        for d in &flow.after_yaku {
            let decl = &declarations[d.0 as usize];
            let what = match decl.effect.as_str() {
                "continue" => "play on for more",
                _ => "stop and score",
            };
            turn.push(declaration_rule(decl, lex, what));
        }
    }
    turn.push(Rule::plain(match flow.exhausted {
        Exhausted::Draw => {
            "When both hands run out with no one stopping, the hand is a draw.".to_string()
        }
        Exhausted::DealerScores(p) => {
            format!("When both hands run out with no one stopping, the dealer scores {p} points.")
        }
        Exhausted::Settle => "When the hands run out with no one stopping, every player is \
                              scored on their own captures, as the scoring steps below say."
            .to_string(),
    }));
    let length = match flow.length {
        GameLength::Rounds(n) => format!("A game is {} hands; the higher total wins.", n),
        GameLength::Target { score, max_rounds } => format!(
            "A game ends when a player reaches {score} points (or after {max_rounds} hands)."
        ),
    };
    turn.push(Rule::plain(length));
    if let Some(stake) = flow.stake {
        turn.push(Rule::plain(format!(
            "Each player starts with a stake of {stake} points: the winner of a hand takes its \
             points from each loser, who pays what it has left, and the game ends when a \
             player's stake runs out."
        )));
    }
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

/// The deal, tricks, follow rules, declarations and game length of a trick-taking game.
pub(super) fn tricks(
    flow: &TricksFlow,
    declarations: &[Declaration],
    deck: &Deck,
    lex: &Lexicon,
) -> Vec<Section> {
    let card = &lex.card_word;
    let packets: Vec<String> = flow
        .deal_packets
        .iter()
        .map(|n| number_word((*n).into()))
        .collect();
    let mut deal = vec![Rule::plain(format!(
        "{} {card}s to each player, dealt {} at a time, the player after the dealer first; the \
         next {card} is turned up for trumps and the stock laid across it.",
        capitalized(&number_word(flow.hand_size.into())),
        packets.join(" then ")
    ))];
    deal.push(Rule::plain(match flow.next_dealer {
        NextDealer::Alternate => "The deal alternates.",
        NextDealer::Winner => "The winner of a hand deals the next.",
        NextDealer::Same => "The same player deals every hand.",
    }));
    let rank = &deck.attributes[flow.rank];
    let points = &deck.attributes[flow.card_points];
    let mut order: Vec<usize> = (0..deck.cards.len())
        .filter(|&i| deck.cards[i].suit == 0)
        .collect();
    order.sort_by_key(|&i| -rank.values[i]);
    let ranks: Vec<String> = order
        .iter()
        .map(|&i| {
            let name = deck.cards[i].kinds.first().cloned().unwrap_or_default();
            format!("{name} {}", points.values[i])
        })
        .collect();
    let mut play = vec![
        Rule::plain(format!(
            "The player after the dealer leads first. A trick goes to the higher {card} of the \
             suit led or the higher trump; its winner draws first from the stock, then the other \
             player, and leads the next. Ranks and {card} points: {}.",
            ranks.join(", ")
        )),
        Rule::plain(match flow.follow {
            FollowRule::Free => "No one ever has to follow suit.".to_string(),
            FollowRule::FollowTrump => "While the stock lasts no one has to follow suit; once it is gone or closed, follow suit, and trump when void.".to_string(),
            FollowRule::Head => "While the stock lasts no one has to follow suit; once it is gone or closed, follow suit and win the trick when able, and trump when void.".to_string(),
        }),
    ];
    for decl in declarations {
        let what = match decl.effect.as_str() {
            "marriage" => format!(
                "on one's lead, show a King and Queen of one suit and lead one: {} points, {} in \
                 trumps{}",
                flow.marriage_points,
                flow.trump_marriage_points,
                if flow.marriage_needs_trick {
                    ", counted once the player has won a trick"
                } else {
                    ""
                }
            ),
            "exchange" => {
                "on one's lead, exchange the lowest trump for the turned-up trump".to_string()
            }
            "close" => {
                "on one's lead, close the stock: no more drawing, follow rules at once".to_string()
            }
            _ => format!("on one's lead, claim {} and count", flow.target),
        };
        play.push(Rule::named(&decl.name, format!("{}.", capitalized(&what))));
    }
    play.push(Rule::plain(match flow.claim {
        ClaimRule::Declare => format!(
            "A hand is won by claiming {} {card} points with them; the scoring script gives the game points.",
            flow.target
        ),
        ClaimRule::Automatic => format!(
            "A hand is won as soon as a player's tricks bring them to {} {card} points.",
            flow.target
        ),
    }));
    if flow.last_trick_points > 0 {
        play.push(Rule::plain(format!(
            "The last trick counts {} more points.",
            flow.last_trick_points
        )));
    }
    play.push(Rule::plain(match flow.length {
        GameLength::Rounds(n) => format!("A game is {n} hands; the higher total wins."),
        GameLength::Target { score, max_rounds } => format!(
            "A game ends when a player reaches {score} game points (or after {max_rounds} hands)."
        ),
    }));
    vec![
        Section {
            heading: "Deal".to_string(),
            rules: deal,
        },
        Section {
            heading: "Play".to_string(),
            rules: play,
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
