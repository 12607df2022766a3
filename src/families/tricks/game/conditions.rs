//! A declaration's `when` read for a seat of a trick-taking hand: the facts of the declaration
//! scope as this family has them (no calls to play on), the game's scores among them.

use super::*;

impl TricksGame {
    /// True when declaration `decl`'s `when` holds for `seat` now (scope
    /// [`crate::ruleset::scope::DECLARATION`]: the pile is the tricks it has won, `hand_cards`
    /// the cards in its hand, `base` its points now; no calls to play on in this family, its
    /// own or the others').
    pub(super) fn when_holds(&self, decl: DeclId, seat: Seat) -> bool {
        let Some(when) = self
            .ruleset
            .declarations
            .get(decl.0 as usize)
            .and_then(|d| d.when.as_ref())
        else {
            return true;
        };
        let points = self.points(seat);
        // The game's scores (facts 8 on) are worked out only for a condition that reads them.
        let [score, best_other, target] = if when.facts_read() >> 8 == 0 {
            [0; 3]
        } else {
            self.flow
                .teams
                .score_facts(&self.ledger.scores, seat, self.ruleset.target_score())
        };
        let facts = [
            i64::from(self.ledger.round),
            i64::from(self.ledger.rounds),
            i64::from(seat == self.ledger.dealer),
            i64::from(self.hands[seat].len()),
            0,
            points,
            0,
            0,
            score,
            best_other,
            target,
        ];
        when.truth(&crate::expr::Context {
            pile: self.won[seat],
            facts: &facts,
        })
    }
}
