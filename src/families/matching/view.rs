//! What one seat may see of a matching game: everything but the other hands and the stock's
//! order. The family's bot policy and the play screen read this and nothing else.

use super::phase::{Marks, Phase};
use crate::core::Seat;
use crate::deck::CardSet;
use crate::ruleset::{Ruleset, YakuScore};
use std::sync::Arc;

/// One seat's view of a matching game.
#[derive(Clone, Debug)]
pub struct View<'g> {
    /// The ruleset.
    pub ruleset: &'g Arc<Ruleset>,
    /// The viewer's seat.
    pub seat: Seat,
    /// What the game waits for.
    pub phase: Phase,
    /// The seat that must act, or `None` when the game is over.
    pub to_act: Option<Seat>,
    /// The declarations offered now: bit `i` for declaration `i` of the ruleset.
    pub offered: u64,
    /// The viewer's hand.
    pub hand: CardSet,
    /// How many cards each seat holds (see [`View::hand_size`]).
    pub(super) hands: HandSizes<'g>,
    /// The face-up table.
    pub table: CardSet,
    /// The builds on the table (`[flow.build]`), their cards among `table`'s.
    pub builds: &'g [super::build::Build],
    /// Each seat's captures.
    pub captured: &'g [CardSet],
    /// Cards left in the stock.
    pub stock_size: usize,
    /// Cards neither in the viewer's hand, on the table nor captured: the other hands and the
    /// stock.
    pub unseen: CardSet,
    /// Calls to play on by each seat in this hand.
    pub calls: &'g [u32],
    /// Each seat's yaku at the end of its last turn.
    pub yaku: &'g [YakuScore],
    /// The pile each seat's `yaku` were evaluated on, under the seat's facts now (a pile the
    /// seat does not hold when they are out of date): where it is the seat's captures, `yaku`
    /// is what evaluating them gives.
    pub evaluated: &'g [CardSet],
    /// Scores so far.
    pub scores: &'g [i64],
    /// The round, 1-based.
    pub round: u32,
    /// Hands in the game.
    pub rounds: u32,
    /// The dealer's seat.
    pub dealer: Seat,
    /// The table count at the deal.
    pub table_count: i64,
    /// What the hand has marked beyond the cards (declarations, choices, stacks, the turn).
    pub marks: &'g Marks,
    /// Hands in a row just ended with nobody winning.
    pub draws_before: u32,
    /// The values carried from the last hand.
    pub carried: &'g crate::core::Carried,
}

/// Every seat's hand, of which a view shows only the size: borrowed from the game, where a count
/// per seat was worked out and copied at every decision a bot makes. Private, and debug-printed
/// as sizes, so that nothing reading a view learns which cards another seat holds.
#[derive(Clone, Copy)]
pub(super) struct HandSizes<'g>(&'g [CardSet]);

impl<'g> HandSizes<'g> {
    /// The hands of every seat, for the game that makes a view (`MatchingGame::view`).
    pub(super) fn new(hands: &'g [CardSet]) -> HandSizes<'g> {
        HandSizes(hands)
    }
}

impl std::fmt::Debug for HandSizes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.0.iter().map(|h| h.len()))
            .finish()
    }
}

impl View<'_> {
    /// Seats at the table.
    pub fn seats(&self) -> usize {
        self.captured.len()
    }

    /// How many cards `seat` holds in hand.
    pub fn hand_size(&self, seat: Seat) -> usize {
        self.hands.0[seat].len() as usize
    }

    /// The yaku facts (`round`, `rounds`, `is_dealer`, `calls`) for `seat` in the state the view
    /// shows.
    pub fn yaku_facts(&self, seat: Seat) -> crate::ruleset::YakuFacts {
        let rounds = match self.ruleset.matching().map(|f| f.length) {
            Some(crate::ruleset::GameLength::Rounds(_)) | None => self.rounds,
            Some(crate::ruleset::GameLength::Target { .. }) => 0,
        };
        crate::yaku::yaku_facts(
            self.round,
            rounds,
            seat == self.dealer,
            self.calls[seat],
            self.marks.choices[seat],
        )
    }

    /// The seat that plays after the viewer: the one a card left on the table helps first.
    pub fn next_seat(&self) -> Seat {
        crate::core::next_seat(self.seat, self.seats())
    }

    /// Every other seat's captures together.
    pub fn others_captured(&self) -> CardSet {
        (0..self.seats())
            .filter(|&s| s != self.seat)
            .fold(CardSet::EMPTY, |a, s| a | self.captured[s])
    }
}
