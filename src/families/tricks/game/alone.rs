//! A contract played alone (`alone = true`: Five Hundred's misère in partnership, Euchre's
//! going alone): the declarer's partners sit out the hand with their cards laid down unplayed;
//! the turn passes over them and each trick has one card fewer for each.

use super::*;

impl TricksGame {
    /// The seats that sit out this hand (a bit each): the declarer's partners under a contract
    /// played alone, none otherwise.
    pub fn sitting_out(&self) -> u8 {
        self.sitting_out
    }

    /// The seat that played each card of the trick in progress, the leader's first.
    pub fn trick_seats(&self) -> Vec<Seat> {
        let mut seat = self.leader;
        (0..self.trick_len)
            .map(|_| {
                let s = seat;
                seat = self.next_in_play(seat);
                s
            })
            .collect()
    }

    /// The seat after `seat` that plays this hand.
    #[inline]
    pub(super) fn next_in_play(&self, seat: Seat) -> Seat {
        let seats = self.hands.len();
        let mut s = next_seat(seat, seats);
        while self.sitting_out >> s & 1 != 0 {
            s = next_seat(s, seats);
        }
        s
    }

    /// The cards in a whole trick: one for each seat in play.
    #[inline]
    pub(super) fn trick_size(&self) -> usize {
        self.hands.len() - self.sitting_out.count_ones() as usize
    }

    /// True once every seat in play has played its last card (the cards of a seat that sits
    /// out stay laid down).
    pub(super) fn hands_played_out(&self) -> bool {
        (self.hands.iter().enumerate()).all(|(s, h)| h.is_empty() || self.sitting_out >> s & 1 != 0)
    }

    /// Once the contract is known: under one played alone, the declarer's partners sit out
    /// (announced in the move log); a leader who sits out passes the lead on.
    pub(super) fn sit_out_partners(&mut self) {
        let (Some(d), true) = (self.declarer, self.contract().is_some_and(|c| c.alone)) else {
            return;
        };
        let team = self.flow.teams.team_of(d);
        for s in 0..self.hands.len() {
            if s != d && self.flow.teams.team_of(s) == team {
                self.sitting_out |= 1 << s;
                self.emit(Event::SatOut { player: s });
            }
        }
        if self.sitting_out >> self.leader & 1 != 0 {
            self.leader = self.next_in_play(self.leader);
            self.turn = self.leader;
        }
    }
}
