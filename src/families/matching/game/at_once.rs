//! Counting out (`[flow] count_at_once`): points count when they are made, so that a game to a
//! target ends in the middle of a hand once a side's score with the points it has made so far
//! reaches the target (Cassino's "first to 21" counted out, Scopa played "a punti"). The points
//! made so far are the hand settled as it stands: each side's yaku, dealt combinations and
//! turn events, and each `most` tally already won for certain (more than any other side could
//! still reach with every card not yet taken); a `par` tally counts only when the hand is
//! played out.

use super::{MatchingGame, SeatSides, Settled, ends};
use crate::core::{PerSeat, Seat};
use crate::deck::CardSet;
use crate::ruleset::GameLength;
use crate::yaku::{self, HandOutcome};

impl MatchingGame {
    /// This hand's points so far, settled as it stands (the cards no side has taken yet decide
    /// which `most` tallies are won for certain).
    fn points_so_far(&self, explain: bool) -> HandOutcome {
        let taken = self.captured.iter().fold(CardSet::EMPTY, |u, &p| u | p);
        let unclaimed = self.ruleset.deck.all() - taken;
        yaku::settle_own(
            &self.ruleset,
            self.seats,
            &SeatSides::new(self),
            |s| self.circumstances(s),
            yaku::OwnSettlement {
                explain,
                tallies: true,
                unclaimed: Some(unclaimed),
            },
        )
    }

    /// Each seat's score with its side's points so far this hand (partners share one).
    fn running_scores(&self, so_far: &HandOutcome) -> PerSeat<i64> {
        let mut points: PerSeat<i64> = PerSeat::new(self.seats);
        for (s, p) in points.iter_mut().enumerate() {
            *p = so_far.seats.get(s).copied().unwrap_or(0);
        }
        self.flow.teams.pool(&mut points);
        for (s, p) in points.iter_mut().enumerate() {
            *p = p.saturating_add(self.ledger.scores[s]);
        }
        points
    }

    /// The game's scores as `seat`'s facts under `count_at_once`: the scores with the points
    /// each side has made this hand so far.
    pub(super) fn running_score_facts(&self, seat: Seat) -> [i64; 3] {
        let running = self.running_scores(&self.points_so_far(false));
        self.flow
            .teams
            .score_facts(&running, seat, self.ruleset.target_score())
    }

    /// After a turn: when a side's score with its points so far reaches the target, the hand
    /// ends with those points (the player who just played first among the sides that reached
    /// it, as the one who counted out), and with it the game. True when it ended.
    #[cold]
    #[inline(never)]
    pub(super) fn counted_out(&mut self) -> bool {
        let GameLength::Target { score: target, .. } = self.flow.length else {
            return false;
        };
        let running = self.running_scores(&self.points_so_far(false));
        let p = self.turn;
        let Some(out) = (0..self.seats)
            .map(|k| (p + k) % self.seats)
            .find(|&s| running[s] >= target)
        else {
            return false;
        };
        let explain = self.keep_deals || self.ledger.log;
        let outcome = self.points_so_far(explain);
        self.end_hand(Some(out), ends::COUNTED_OUT, Ok(Settled::Full(outcome)));
        true
    }
}
