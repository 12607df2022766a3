//! The rule sheet's words for bidding on a turned-up card (`[flow.auction] turned_up`, Euchre's):
//! split from `flow` by size.

use crate::ruleset::{Auction, Declaration, PassedOut};

/// The two rounds of bidding on a turned-up card, and what happens when all pass twice.
pub(super) fn turned_up_words(a: &Auction, declarations: &[Declaration]) -> String {
    let name = |d: Option<crate::core::DeclId>, or: &str| {
        d.and_then(|d| declarations.get(d.0 as usize))
            .map_or(or.to_string(), |d| d.name.clone())
    };
    let (pass, order_up, name_trump) = (
        name(Some(a.pass), "Pass"),
        name(a.order_up, "Order up"),
        name(a.name_trump, "Name trumps"),
    );
    let stuck = match a.passed_out {
        PassedOut::Dealer => {
            "If all pass again, the dealer may not pass: the dealer must name a suit (stick the dealer)."
        }
        _ => "If all pass again, the hand is not played and the deal passes on.",
    };
    format!(
        "After the deal the first card left over is turned up. Starting with the player after the dealer, each in turn passes ({pass}) or orders up the turned card's suit as trumps ({order_up}); then the dealer takes the turned card into the hand and discards one card face down. If all pass, the card is turned down, and in a second round each in turn passes or names any other suit as trumps ({name_trump}). {stuck} The player who orders up or names trumps is the declarer, whose side must make the contract."
    )
}
