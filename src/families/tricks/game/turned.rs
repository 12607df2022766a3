//! Bidding on a turned-up card (`[flow.auction] turned_up`, Euchre's): after the deal the
//! talon's first card is turned up; a first round may only order its suit up as trumps, a
//! second round names another suit, and all passing twice redeals or sticks the dealer. Kept
//! apart from the auction of bids, which it shares only the pass and the declarer with.
//!
//! The rules follow pagat.com/euchre/euchre.html ("Bidding"): "the dealer's left-hand
//! opponent ... may pass or order up ... If the dealer's opponents order up, the dealer picks
//! up the turned card and discards a card face down", "If all four players pass, the turned up
//! card is turned face down ... a second round of bidding ... naming any suit other than the
//! suit of the turned-down card", and the variation "stick the dealer".

use super::*;

impl TricksGame {
    /// After a deal with a talon: turns its first card up (`order`, the talon's cards in the
    /// order dealt), when the auction bids on a turned-up card.
    pub(super) fn turn_up(&mut self, order: &[CardId]) {
        self.turned = None;
        self.turned_down = false;
        if self.flow.auction.as_ref().is_some_and(|a| a.turned_up)
            && let Some(&card) = order.first()
        {
            self.talon.remove(card);
            self.turned = Some(card);
        }
    }

    /// The card turned up, and whether it has been turned down (the second round).
    pub fn turned(&self) -> Option<(CardId, bool)> {
        self.turned.map(|c| (c, self.turned_down))
    }

    /// The stuck dealer: the second round has come round to the dealer, every other seat having
    /// passed, under `passed_out = "dealer"`.
    fn dealer_stuck(&self) -> bool {
        let a = self.flow.auction.as_ref().expect("an auction is held");
        self.turned_down && self.turn == self.ledger.dealer && a.passed_out == PassedOut::Dealer
    }

    /// The moves of the bidding on a turned-up card: a pass (unless the dealer is stuck), then in
    /// the first round an order up naming the turned card, in the second a name for each suit
    /// but the turned card's (by a card the seat holds, else the suit's first).
    pub(super) fn turned_bids(&self, out: &mut Vec<Action>) {
        let (Some(a), Some(up)) = (self.flow.auction.as_ref(), self.turned) else {
            return;
        };
        if !self.dealer_stuck() {
            out.push(Action::declare(a.pass));
        }
        if !self.turned_down {
            out.extend(a.order_up.map(|decl| Action::Declare {
                decl,
                card: Some(up),
            }));
            return;
        }
        let Some(decl) = a.name_trump else { return };
        let hand = self.hands[self.turn];
        for s in (0..self.ruleset.deck.suits.len()).filter(|&s| s != self.suit(up)) {
            let suit = self.ruleset.deck.suits[s].cards;
            if let Some(card) = (suit & hand).first_card().or_else(|| self.suit_card(s)) {
                out.push(Action::Declare {
                    decl,
                    card: Some(card),
                });
            }
        }
    }

    /// Applies a move of the bidding on a turned-up card: a pass moves on (to the second round
    /// once every seat has passed, or, passed twice round, to a redeal); an order up makes trumps and gives the
    /// dealer the turned card to take up and discard for; a suit named makes trumps and play
    /// begins.
    pub(super) fn apply_turned(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        let a = Arc::clone(&self.flow);
        let a = a.auction.as_ref().expect("an auction is held");
        let Some(up) = self.turned else {
            return Err(IllegalAction::new("no card is turned up"));
        };
        let (decl, card) = match action {
            Action::Declare { decl, card } if decl == a.pass && !self.dealer_stuck() => {
                (decl, card)
            }
            Action::Declare { decl, card }
                if Some(decl) == a.order_up && !self.turned_down && card == Some(up) =>
            {
                (decl, card)
            }
            // Naming a suit shows any card of it.
            Action::Declare {
                decl,
                card: Some(c),
            } if Some(decl) == a.name_trump
                && self.turned_down
                && self.suit(c) != self.suit(up) =>
            {
                (decl, Some(c))
            }
            _ => return Err(IllegalAction::new(self.turned_refusal(action))),
        };
        self.emit(Event::Declared {
            player: seat,
            decl,
            card,
        });
        if decl == a.pass {
            self.passed |= 1 << seat;
            let seats = self.hands.len();
            if (0..seats).all(|s| self.has_passed(s)) {
                if self.turned_down {
                    self.end_hand(self.ledger.dealer, ends::PASSED_OUT);
                    return Ok(());
                }
                // All passed: the card is turned down and the second round begins.
                self.turned_down = true;
                self.passed = 0;
            }
            self.turn = next_seat(seat, seats);
            return Ok(());
        }
        // The maker bids the auction's first contract (or its lowest value) and makes trumps.
        let card = card.expect("an order up or a name shows a card");
        let bid = a.contracts.first().map_or(a.minimum, |c| c.bid);
        self.high_bid = Some((seat, bid));
        self.declarer = Some(seat);
        if let Some(f) = self.contract().and_then(|c| c.follow) {
            self.follow = f;
        }
        self.set_trumps(self.suit(card));
        if self.turned_down {
            self.start_play();
            return Ok(());
        }
        // Ordered up: the dealer takes the turned card and discards one face down.
        let dealer = self.ledger.dealer;
        self.hands[dealer].insert(card);
        self.turned = None;
        self.to_discard = 1;
        self.turn = dealer;
        self.phase = Phase::Discard;
        Ok(())
    }

    /// Why `action` is not a move of the bidding on a turned-up card now.
    fn turned_refusal(&self, action: Action) -> String {
        let a = self.flow.auction.as_ref().expect("an auction is held");
        let suit = |c: CardId| self.ruleset.deck.suits[self.suit(c)].name.clone();
        let up = self.turned.map(suit).unwrap_or_default();
        match action {
            Action::Declare { decl, .. } if decl == a.pass => {
                "every other seat passed twice: the dealer is stuck and must name a suit".into()
            }
            Action::Declare { decl, .. } if Some(decl) == a.order_up && self.turned_down => {
                format!("the {up} were turned down: name another suit as trumps, or pass")
            }
            Action::Declare {
                decl,
                card: Some(c),
            } if Some(decl) == a.name_trump && self.turned_down => {
                format!("the {} were turned down: name another suit", suit(c))
            }
            Action::Declare { decl, .. } if Some(decl) == a.name_trump => {
                format!("the first round may only order up the turned card's suit ({up}), or pass")
            }
            _ if self.turned_down => {
                format!("name a suit other than the turned card's ({up}), or pass")
            }
            _ => format!("order up the turned card's suit ({up}), or pass"),
        }
    }
}
