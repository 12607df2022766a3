//! The rule sheet's words for how a trick-taking game's cards take tricks: the trumps highest
//! first where they are more than a suit, and the order within a suit where it is not the
//! rank's, for the rules of `[flow]` and of each contract.

use crate::deck::{CardSet, Deck};
use crate::ruleset::TricksFlow;

/// The trumps and orders of the rules' set `orders` (0: the flow's, else a contract's) with trump
/// suit `suit` (none known: the first suit, as an example; the deck's suit count: no trump
/// suit), when they are more than a trump suit ranked by `rank`: the trumps highest first and
/// the order within a suit, in lower case without a full stop.
pub(super) fn order_words(
    flow: &TricksFlow,
    deck: &Deck,
    orders: usize,
    suit: Option<usize>,
) -> Option<String> {
    let suits = deck.suits.len();
    let table = |s: usize| &flow.orders[flow.order_index(orders, s)];
    let o = table(suit.unwrap_or(0));
    let rank = &deck.attributes[flow.rank].values;
    let plain = (0..=suits)
        .all(|s| table(s).trumps == deck.suits.get(s).map_or(CardSet::EMPTY, |x| x.cards));
    let differs = |c: crate::deck::CardId| o.strength[c.index()] != rank[c.index()];
    let by_rank = !(deck.all() - o.trumps).iter().any(differs);
    let listed = o.trumps.iter().any(differs);
    if orders == 0 && plain && by_rank && !listed {
        return None;
    }
    let high_first = |cards: CardSet| {
        let mut cards: Vec<crate::deck::CardId> = cards.iter().collect();
        cards.sort_by_key(|&c| std::cmp::Reverse(o.strength[c.index()]));
        cards
            .iter()
            .map(|&c| deck.card(c).name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut words = Vec::new();
    let same_for_all = (0..=suits).all(|s| table(s).trumps == o.trumps);
    if o.trumps.is_empty() {
        if orders > 0 {
            words.push("played without trumps".to_string());
        }
    } else if !plain || listed {
        if suit.is_some() || same_for_all {
            words.push(format!(
                "the trumps, highest first: {}",
                high_first(o.trumps)
            ));
        } else {
            words.push(format!(
                "with {} as trumps, the trumps are, highest first: {}",
                deck.suits[0].name,
                high_first(o.trumps)
            ));
        }
    }
    if !by_rank
        && let Some(within) = (deck.suits.iter())
            .map(|x| x.cards - o.trumps)
            .min_by_key(|c| std::cmp::Reverse(c.len()))
            .filter(|c| !c.is_empty())
    {
        words.push(format!(
            "within a suit, highest first: {}",
            high_first(within)
        ));
    }
    (!words.is_empty()).then(|| words.join("; "))
}
