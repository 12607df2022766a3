//! What a banker hand is worth under the ruleset's flow: its value at the showdown, and the
//! banker's instant wins. The game, its bots and the exact analysis all read hands this way.

use crate::deck::{CardId, CardSet};
use crate::expr::Context;
use crate::ruleset::{BankerFlow, DealCheck};

/// A hand's value at the showdown.
pub fn hand_value(flow: &BankerFlow, pile: CardSet) -> i64 {
    if flow.value.reads_facts() {
        let points = pile.iter().map(|c| flow.card_points[c.index()]).sum();
        let facts = [points, i64::from(pile.len())];
        return flow.value.int(&Context {
            pile,
            facts: &facts,
        });
    }
    flow.value.int(&Context { pile, facts: &[] })
}

/// The value of a hand that may hold a card twice (from a shoe of several packs).
pub fn cards_value(flow: &BankerFlow, cards: &[CardId]) -> i64 {
    let pile: CardSet = cards.iter().copied().collect();
    let points = cards.iter().map(|c| flow.card_points[c.index()]).sum();
    let facts = [points, cards.len() as i64];
    flow.value.int(&Context {
        pile,
        facts: &facts,
    })
}

/// The banker-win condition the banker's tiles meet, if any.
pub fn banker_instant_win(flow: &BankerFlow, pile: CardSet) -> Option<&DealCheck> {
    flow.banker_wins
        .iter()
        .find(|c| c.when.truth(&Context { pile, facts: &[] }))
}
