//! The climbing family's part of a rule sheet: the deal, the card order, each combination in
//! words, the opening, passing, the penalty for cards left and the game's length.

use super::{Rule, Section, capitalized, hands, in_words, join_and};
use crate::deck::Deck;
use crate::expr::{Lexicon, number_word};
use crate::ruleset::GameLength;

/// The deal, the card order, the combinations, the play and the penalty of a climbing game.
pub(super) fn climbing(
    flow: &crate::ruleset::ClimbingFlow,
    pass: &str,
    deck: &Deck,
    lex: &Lexicon,
) -> Vec<Section> {
    let card = &lex.card_word;
    let mut deal = Vec::new();
    let players = if flow.min_players != flow.max_players {
        format!(
            "{} to {} players",
            capitalized(&number_word(flow.min_players.into())),
            number_word(flow.max_players.into())
        )
    } else {
        format!("{} players", capitalized(&number_word(flow.players.into())))
    };
    let dealt = match (flow.hand_size, flow.odd_cards) {
        (Some(n), _) => format!(
            "{} {card}s each are dealt, one at a time from the player after the dealer; the rest are set aside unseen",
            capitalized(&number_word(n.into()))
        ),
        (None, crate::ruleset::OddCards::Even) => format!(
            "The whole deck is dealt, one {card} at a time from the player after the dealer"
        ),
        (None, crate::ruleset::OddCards::Dealt) => format!(
            "The whole deck is dealt, one {card} at a time from the player after the dealer; where it does not deal evenly, the first players after the dealer hold one more"
        ),
        (None, crate::ruleset::OddCards::OpeningHolder) => {
            let to = flow.opening_card.map_or_else(
                || "the holder of the lowest card dealt".to_string(),
                |c| {
                    format!(
                        "the holder of the {} (where it is itself left over, the holder of the lowest card dealt)",
                        deck.card(c).name
                    )
                },
            );
            format!(
                "The whole deck is dealt evenly, one {card} at a time from the player after the dealer; the {card}s left over go to {to}"
            )
        }
    };
    deal.push(Rule::plain(format!(
        "{players}, each for themselves. {dealt}."
    )));
    let order = &flow.combos.order;
    let rank_names = |ranks: &mut dyn Iterator<Item = u8>| -> String {
        ranks
            .filter_map(|r| order.ranks.get(r as usize)?.first_card())
            .map(|c| deck.card(c).face.clone())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let suits: Vec<String> = order
        .suits
        .iter()
        .filter_map(|s| {
            let c = s.first_card()?;
            Some(deck.suit_of(c).name.clone())
        })
        .collect();
    deal.push(Rule::named(
        "Ranks",
        format!(
            "From the lowest: {}. Between {card}s of one rank the suit decides, from the lowest: {}.",
            rank_names(&mut (0..order.ranks.len() as u8)),
            suits.join(", ")
        ),
    ));
    deal.push(Rule::named(
        "Runs",
        format!(
            "A run follows the ranks {}.",
            rank_names(&mut order.run.iter().copied())
        ),
    ));
    let mut combos = Vec::new();
    for c in &flow.combos.classes {
        let mut what = Vec::new();
        if !c.groups.is_empty() {
            if c.run {
                what.push(format!(
                    "{} ranks in a run, {} of each",
                    number_word(c.groups.len() as i64),
                    number_word(c.groups[0].into())
                ));
            } else {
                let groups: Vec<String> = c
                    .groups
                    .iter()
                    .enumerate()
                    .map(|(i, g)| match (i, g) {
                        (_, 1) => "a single".to_string(),
                        (0, g) => format!("{} of one rank", number_word((*g).into())),
                        (_, g) => format!("{} of another", number_word((*g).into())),
                    })
                    .collect();
                what.push(join_and(&groups));
            }
        }
        if c.suited {
            what.push("all of one suit".to_string());
        }
        let compare = match c.compare {
            crate::ruleset::combos::CompareBy::Highest => "by the highest card",
            crate::ruleset::combos::CompareBy::Group => "by the rank of the largest group",
            crate::ruleset::combos::CompareBy::Cards => "card by card from the highest",
        };
        let beats: Vec<String> = c
            .beats
            .iter()
            .map(|&b| flow.combos.classes[b as usize].name.to_lowercase())
            .collect();
        let beats = if beats.is_empty() {
            String::new()
        } else {
            format!(" It beats any {}.", join_and(&beats))
        };
        combos.push(Rule::named(
            &c.name,
            format!(
                "{} {card}{}: {}; compared {compare}.{beats}",
                capitalized(&number_word(c.size.into())),
                if c.size == 1 { "" } else { "s" },
                what.join(", ")
            ),
        ));
    }
    let mut play = Vec::new();
    if let Some(open) = flow.opening_card {
        let every = if flow.opening_every_hand {
            "each hand"
        } else {
            "the first hand; later hands are led by the last winner"
        };
        let must = if flow.opening_must_include {
            ", and the first play must hold it".to_string()
        } else {
            String::new()
        };
        let undealt = if flow.hand_size.is_some() {
            format!(
                " (where it was not dealt, the holder of the lowest {card} dealt leads{})",
                if flow.opening_must_include {
                    ", and the first play must hold that card"
                } else {
                    ""
                }
            )
        } else {
            String::new()
        };
        play.push(Rule::plain(format!(
            "The holder of the {} leads {every}{must}{undealt}.",
            deck.card(open).name
        )));
    }
    play.push(Rule::plain(format!(
        "A lead is any combination. Each player in turn then beats the last play with a higher one of the same class (or a class that beats it) or passes ({pass}). {}",
        match flow.pass_rule {
            crate::ruleset::PassRule::Again => "A player who passed may play when the turn comes round again; when all the others pass in a row, the last player takes the trick and leads.",
            crate::ruleset::PassRule::Out => "A player who passed is out of the trick; when all the others are out, the last player takes the trick and leads.",
        }
    )));
    play.push(Rule::plain(format!(
        "The first player to empty their hand wins it. Each other player pays {}{}.",
        in_words(&flow.penalty_source, lex),
        if flow.pay_winner {
            ", to the winner"
        } else {
            ""
        }
    )));
    play.push(Rule::plain(match flow.length {
        GameLength::Rounds(n) => format!("A game is {}; the highest total wins.", hands(n)),
        GameLength::Target { score, max_rounds } => format!(
            "A game ends when a player reaches {score} points (or after {max_rounds} hands)."
        ),
    }));
    vec![
        Section {
            heading: "Deal".to_string(),
            rules: deal,
        },
        Section {
            heading: "Combinations".to_string(),
            rules: combos,
        },
        Section {
            heading: "Play".to_string(),
            rules: play,
        },
    ]
}
