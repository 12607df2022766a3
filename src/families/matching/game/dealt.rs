//! What a deal gives beyond the cards: the deal bonuses a dealt table holds (table cards
//! captured and a turn event counted for a seat, `[[flow.deal_bonus]]`), and the dealt
//! combinations found again on hands refilled from the stock (`[flow] deal_checks =
//! "every"`). Out of the way of the turn: both are checked only when the ruleset has them.

use super::*;
use crate::ruleset::DealSeat;

impl MatchingGame {
    /// `[[flow.deal_bonus]]`, in ruleset order, each read on the table as the bonuses before it
    /// left it: the seat it names captures its `take` and counts its `event`.
    #[cold]
    #[inline(never)]
    pub(super) fn give_deal_bonuses(&mut self) {
        let flow = Arc::clone(&self.flow);
        let facts = self.deal_facts();
        let per = flow.turn_events.len();
        for bonus in &flow.deal_bonuses {
            let cx = Context {
                pile: self.table,
                facts: facts.as_slice(),
            };
            if !bonus.check.when.truth(&cx) {
                continue;
            }
            let seat = match bonus.to {
                DealSeat::Dealer => Some(self.ledger.dealer),
                DealSeat::FirstPlayer => Some(self.first_to_play()),
                DealSeat::Holder(card) => (0..self.seats).find(|&s| self.hands[s].contains(card)),
            };
            let Some(p) = seat else { continue };
            let cards = bonus
                .take
                .as_ref()
                .map_or(CardSet::EMPTY, |t| t.set(&cx) & self.table);
            self.table = self.table - cards;
            self.captured[p] |= cards;
            let times = bonus.event.map_or(0, |(e, times)| {
                let count = &mut self.marks.fired[p * per + e];
                *count = count.saturating_add(times);
                times
            });
            self.emit(|_| {
                Event::DealBonus(Box::new(crate::core::DealBonusGiven {
                    player: p,
                    id: bonus.check.id.clone(),
                    name: bonus.check.name.clone(),
                    cards: cards.iter().collect(),
                    turn_event: bonus.event.map(|(e, _)| flow.turn_events[e].id.clone()),
                    times,
                }))
            });
        }
    }

    /// `[flow] deal_checks = "every"`: the hands just refilled from the stock are checked for
    /// a dealt combination as the first deal's are, each found counted again for its seat and
    /// announced.
    #[cold]
    #[inline(never)]
    pub(super) fn find_refilled_combinations(&mut self) {
        let per = self.flow.dealt_yaku.len();
        for seat in 0..self.seats {
            let facts = [
                i64::from(self.ledger.round),
                i64::from(self.facts_rounds()),
                i64::from(seat == self.ledger.dealer),
            ];
            let Some(i) = self.flow.dealt_combination(self.hands[seat], &facts) else {
                continue;
            };
            if let Some(count) = (self.marks.dealt_again.as_deref_mut())
                .and_then(|again| again.get_mut(seat * per + i))
            {
                *count = count.saturating_add(1);
            }
            let check = &self.flow.dealt_yaku[i];
            let (id, name) = (check.id.clone(), check.name.clone());
            self.emit(|_| Event::TurnEvent {
                player: seat,
                id,
                name,
            });
        }
    }

    /// Every dealt combination `seat` holds this hand (by index), each once per deal that
    /// dealt it: the first deal's, then the refills'.
    #[inline]
    pub(super) fn dealt_combinations(&self, seat: Seat, each: &mut dyn FnMut(usize)) {
        let d = self.marks.dealt[seat];
        if d != NO_STACK {
            each(usize::from(d));
        }
        let per = self.flow.dealt_yaku.len();
        let Some(again) = self.marks.dealt_again.as_deref() else {
            return;
        };
        for (i, &n) in again[seat * per..(seat + 1) * per].iter().enumerate() {
            for _ in 0..n {
                each(i);
            }
        }
    }
}
