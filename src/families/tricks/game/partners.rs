//! Partners found by cards: the seats holding `[flow] partner_cards`, or the declarer with the
//! holder of the card it called (a contract's `call`). The sides are worked out from where the
//! cards lie, so a search's imagined deal has its own; what a seat knows of them is apart from
//! what they are: a holder is known once it plays a marking card, every seat once all of them
//! are accounted for.

use super::*;
use crate::ruleset::Call;

impl TricksGame {
    /// The cards that mark a side this hand: the called card, or `[flow] partner_cards`
    /// (empty: sides are fixed by the rules or the auction).
    #[inline]
    pub fn partner_marks(&self) -> CardSet {
        match self.called {
            Some(c) => CardSet::single(c),
            None => self.flow.partner_cards,
        }
    }

    /// The card the declarer called, once called.
    pub fn called(&self) -> Option<CardId> {
        self.called
    }

    /// The seats of the side the marking cards make (a bit each): the declarer with the
    /// called card's holder, or the holders of `partner_cards`; 0 without such a rule.
    pub fn marked_side(&self) -> u8 {
        let marks = self.partner_marks();
        if marks.is_empty() {
            return 0;
        }
        let mut side = match (self.called, self.declarer) {
            (Some(_), Some(d)) => 1u8 << d,
            _ => 0,
        };
        for s in 0..self.hands.len() {
            if !((self.hands[s] | self.played[s]) & marks).is_empty() {
                side |= 1 << s;
            }
        }
        side
    }

    /// The side of `seat` where cards mark the sides: 0 for the marked side, 1 for the rest.
    #[inline]
    pub(super) fn marked_team_of(&self, seat: Seat) -> Option<usize> {
        if self.called.is_none() && self.flow.partner_cards.is_empty() {
            return None;
        }
        Some(usize::from(self.marked_side() >> seat & 1 == 0))
    }

    /// True when `viewer` knows which side `seat` is on: itself, the declarer, a seat that has
    /// played a marking card, and every seat once each marking card is in the viewer's hand or
    /// played (without marks, always).
    pub fn knows_side(&self, viewer: Seat, seat: Seat) -> bool {
        let marks = self.partner_marks();
        if marks.is_empty() || viewer == seat {
            return true;
        }
        if self.called.is_some() && self.declarer == Some(seat) {
            return true;
        }
        if !(self.played[seat] & marks).is_empty() {
            return true;
        }
        // An announcement only one side makes shows the announcer's side.
        if !self.announced.is_empty() && self.announced_side(seat) {
            return true;
        }
        let played = self.played.iter().fold(CardSet::EMPTY, |a, &p| a | p);
        (marks - played - self.hands[viewer]).is_empty()
    }

    /// The seats `viewer` knows play on its side this hand, itself left out (a bit each).
    pub fn known_partners(&self, viewer: Seat) -> u8 {
        let team = self.team_of(viewer);
        (0..self.hands.len())
            .filter(|&s| s != viewer && self.knows_side(viewer, s) && self.team_of(s) == team)
            .fold(0, |bits, s| bits | 1 << s)
    }

    /// The call of the contract in play, if it calls a partner.
    pub(super) fn contract_call(&self) -> Option<Call> {
        self.contract().and_then(|c| c.call)
    }

    /// The cards `seat` may call under `call` with trump order `order`: of the call's cards,
    /// no trump, none it holds, and (with `needs_suit`) of a suit it holds a card of, trumps
    /// apart.
    pub(super) fn callable_with(&self, seat: Seat, call: Call, order: &TrickOrder) -> CardSet {
        let hand = self.hands[seat];
        (call.cards - order.trumps - hand)
            .iter()
            .filter(|&c| {
                !call.needs_suit || !(hand & order.follows[order.suit(c) as usize]).is_empty()
            })
            .collect()
    }

    /// True when `seat` may bid `contract`: a contract that calls a partner only with a card to
    /// call (its trumps are fixed by the contract, as the loader requires).
    pub(super) fn may_bid(&self, seat: Seat, contract: &crate::ruleset::Contract) -> bool {
        let Some(call) = contract.call else {
            return true;
        };
        let suit = contract.trump_suit.unwrap_or(self.ruleset.deck.suits.len());
        let order = &self.flow.orders[self.flow.order_index(contract.orders, suit)];
        !self.callable_with(seat, call, order).is_empty()
    }

    /// The cards the declarer may call now.
    pub fn callable(&self) -> CardSet {
        match (self.contract_call(), self.declarer) {
            (Some(call), Some(d)) => self.callable_with(d, call, self.trick_order()),
            _ => CardSet::EMPTY,
        }
    }

    /// After trumps are known: the declarer calls its partner where the contract says so, or
    /// play begins.
    pub(super) fn before_play(&mut self) {
        match self.declarer {
            Some(d) if self.contract_call().is_some() => {
                self.turn = d;
                self.phase = Phase::Call;
            }
            _ => self.start_play(),
        }
    }

    /// The declarer calls `card`: whoever holds it is its partner.
    pub(super) fn apply_call(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        let call_decl = self.flow.auction.as_ref().and_then(|a| a.call);
        let callable = self.callable();
        match action {
            Action::Declare {
                decl,
                card: Some(card),
            } if Some(decl) == call_decl && callable.contains(card) => {
                self.called = Some(card);
                self.emit(Event::Declared {
                    player: seat,
                    decl,
                    card: Some(card),
                });
                self.start_play();
                Ok(())
            }
            _ => {
                let deck = &self.ruleset.deck;
                let names: Vec<&str> = callable.iter().map(|c| deck.id_of(c)).collect();
                Err(IllegalAction::new(format!(
                    "you won the auction: call your partner's card, one of {}",
                    names.join(", ")
                )))
            }
        }
    }

    /// `seat` follows the called card's suit with `card`: with `call_answer` its holder would
    /// have had to play the called card, so every player now knows `seat` does not hold it.
    pub(super) fn note_called_absent(&mut self, seat: Seat, card: CardId) {
        let (Some(called), Some(led)) = (self.called, self.led) else {
            return;
        };
        if card == called || !self.contract_call().is_some_and(|c| c.answer) {
            return;
        }
        let order = self.trick_order();
        if order.suit(led) == order.suit(called) {
            self.called_absent |= 1 << seat;
        }
    }

    /// In a world `seat` imagines, the called card (hidden from it) is not where every player
    /// knows it is not: the declarer's hand (the declarer never calls its own card), nor a
    /// seat that followed the called suit with another card (`call_answer`). Dealt there, it
    /// changes places with a hidden card of another seat's hand, chosen from `rng`.
    pub(super) fn keep_called_from_declarer(
        &self,
        seat: Seat,
        hidden: CardSet,
        rng: &mut Xoshiro256PlusPlus,
        world: &mut Self,
    ) {
        let (Some(card), Some(d)) = (self.called, self.declarer) else {
            return;
        };
        let barred = 1u8 << d | self.called_absent;
        let seats = self.hands.len();
        let Some(holder) = (0..seats).find(|&s| world.hands[s].contains(card)) else {
            return;
        };
        if !hidden.contains(card) || barred >> holder & 1 == 0 {
            return;
        }
        let others: Vec<(Seat, CardId)> = (0..seats)
            .filter(|&s| s != seat && barred >> s & 1 == 0)
            .flat_map(|s| (world.hands[s] & hidden).iter().map(move |c| (s, c)))
            .collect();
        if others.is_empty() {
            return;
        }
        let (s, swap) = others[rng.random_range(0..others.len())];
        world.hands[holder].remove(card);
        world.hands[holder].insert(swap);
        world.hands[s].remove(swap);
        world.hands[s].insert(card);
    }

    /// The called card's holder, when the called card's suit is led, must play it
    /// (`call_answer`): the cards `seat` may play are then that card alone.
    #[inline]
    pub(super) fn answer_call(&self, seat: Seat) -> Option<CardId> {
        let card = self.called?;
        let led = self.led?;
        if !self.hands[seat].contains(card) || !self.contract_call().is_some_and(|c| c.answer) {
            return None;
        }
        let order = self.trick_order();
        (order.suit(led) == order.suit(card)).then_some(card)
    }
}
