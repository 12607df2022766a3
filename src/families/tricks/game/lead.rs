//! The rules of the first trick and of leading (the opening card, the cards barred from the
//! first trick, cards led only once broken), and passing cards before play.

use super::*;

impl TricksGame {
    /// `cards` less those barred from the first trick while it is played, unless that leaves
    /// none.
    pub(super) fn first_trick_filter(&self, cards: CardSet) -> CardSet {
        let barred = self.flow.lead_rules.not_on_first_trick;
        if barred.is_empty() || self.tricks_played() > 0 {
            return cards;
        }
        let kept = cards - barred;
        if kept.is_empty() { cards } else { kept }
    }

    /// The cards `seat` may lead: its hand, but the opening card alone where it holds it on
    /// the first trick; then, where that leaves any, not a card barred from the first trick,
    /// and not a card of `lead_when_broken` before one has been played.
    #[inline]
    pub fn leadable(&self, seat: Seat) -> CardSet {
        let hand = self.hands[seat];
        let rules = &self.flow.lead_rules;
        if rules.is_free() {
            return hand;
        }
        let first = self.tricks_played() == 0;
        if first && let Some(c) = rules.opening_card.filter(|&c| hand.contains(c)) {
            return CardSet::single(c);
        }
        // The first trick is led with a card of `opening_lead_from` by a leader holding one.
        if first && !(hand & rules.opening_from).is_empty() {
            return hand & rules.opening_from;
        }
        let hand = self.first_trick_filter(hand);
        if !self.broken && !rules.until_broken.is_empty() {
            let kept = hand - rules.until_broken;
            if !kept.is_empty() {
                return kept;
            }
        }
        hand
    }

    /// Why `seat` may not lead `card` (it is not in `leadable`).
    pub(super) fn lead_refusal(&self, seat: Seat, card: CardId) -> String {
        let deck = &self.ruleset.deck;
        let rules = &self.flow.lead_rules;
        if let Some(c) = rules.opening_card.filter(|&c| self.hands[seat].contains(c)) {
            return format!("the first trick is led with {}", deck.card(c).name);
        }
        let bound = self.hands[seat] & rules.opening_from;
        if self.tricks_played() == 0 && !bound.is_empty() {
            let names: Vec<&str> = bound.iter().map(|c| deck.card(c).name.as_str()).collect();
            return format!(
                "the first trick is led with one of these while you hold them: {}",
                names.join(", ")
            );
        }
        if self.tricks_played() == 0 && rules.not_on_first_trick.contains(card) {
            return format!(
                "{} may not be played to the first trick while you hold another card",
                deck.card(card).name
            );
        }
        format!(
            "{} may not be led until {} has been played to a trick (broken), while you hold another card",
            deck.card(card).name,
            if rules.broken_by == rules.until_broken {
                "a card of its kind"
            } else {
                "a card that breaks it"
            }
        )
    }

    /// `card` is set aside to pass by the seat to act; once every seat has set aside its
    /// cards, they are passed on and the hand goes on.
    pub(super) fn set_aside(&mut self, card: CardId) {
        let seat = self.turn;
        let seats = self.hands.len();
        let passing = self.flow.passing.as_ref().expect("the rules pass cards");
        let (want, direction) = (passing.cards, passing.direction(self.ledger.round));
        self.gave[seat].insert(card);
        if self.gave[seat].len() < want {
            return;
        }
        if seat != self.ledger.dealer {
            self.turn = next_seat(seat, seats);
            return;
        }
        // Every seat has set its cards aside: each passes them on.
        for s in 0..seats {
            self.hands[s] = self.hands[s] - self.gave[s];
        }
        for s in 0..seats {
            if let Some(to) = direction.to(s, seats) {
                self.hands[to] |= self.gave[s];
                if self.ledger.log {
                    self.emit(Event::Given {
                        from: s,
                        to,
                        cards: Vec::new(),
                    });
                }
            }
        }
        self.after_deal();
    }
}
