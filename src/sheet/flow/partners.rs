//! The rule sheet's words for partners found by cards (`[flow] partner_cards`, a contract's
//! `call`): split from `flow` by size.

use crate::deck::{CardSet, Deck};
use crate::ruleset::Call;

/// The cards of a set in words: "the Queen of Clubs", "any ace" (every card of a kind),
/// else the cards named.
fn cards_words(cards: CardSet, deck: &Deck) -> String {
    let mut names: Vec<String> = Vec::new();
    for c in cards.iter() {
        let name = &deck.card(c).name;
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    // Every card of one kind: "any ace".
    if let Some(kind) = deck
        .kinds
        .iter()
        .find(|k| k.cards == cards && !cards.is_empty())
    {
        return format!("any {}", kind.id);
    }
    match names.as_slice() {
        [one] if cards.len() > 1 => format!("a {one}"),
        [one] => format!("the {one}"),
        _ => format!("one of {}", names.join(", ")),
    }
}

/// `partner_cards` in words: who plays together, and how it becomes known.
pub(super) fn partner_cards_words(cards: CardSet, deck: &Deck) -> String {
    let what = cards_words(cards, deck);
    format!(
        "The players holding {what} play together against the others, and pool their tricks; a player dealt every such card plays alone against the rest. No one says who holds them: a player's side is known once it plays one (or once every such card is seen). The scoring sees the holders' side as its own."
    )
}

/// A contract's call in words.
pub(super) fn call_words(call: &Call, deck: &Deck) -> String {
    let what = cards_words(call.cards, deck);
    let mut text =
        format!("the declarer then calls {what} that is no trump and not in its own hand");
    if call.needs_suit {
        text.push_str(", of a suit it holds a card of (trumps apart)");
    }
    text.push_str(
        "; whoever holds the called card is the declarer's partner, the two against the others, pooling their tricks, and no one but the partner knows it until the called card is played; a player with no card to call may not bid it",
    );
    if call.answer {
        text.push_str("; when the called card's suit is led, its holder must play it");
    }
    text
}
