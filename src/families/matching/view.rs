//! What one seat may see of a matching game: everything but the other hands and the stock's
//! order. The family's bot policy and the play screen read this and nothing else.

use super::game::{MatchingGame, Phase};
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
    hands: HandSizes<'g>,
    /// The face-up table.
    pub table: CardSet,
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
    pub marks: &'g super::game::Marks,
    /// Hands in a row just ended with nobody winning.
    pub draws_before: u32,
    /// The values carried from the last hand.
    pub carried: &'g crate::core::Carried,
}

/// Every seat's hand, of which a view shows only the size: borrowed from the game, where a count
/// per seat was worked out and copied at every decision a bot makes. Private, and debug-printed
/// as sizes, so that nothing reading a view learns which cards another seat holds.
#[derive(Clone, Copy)]
struct HandSizes<'g>(&'g [CardSet]);

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

impl MatchingGame {
    /// What `seat` may see.
    pub fn view(&self, seat: Seat) -> View<'_> {
        let ruleset = crate::core::Game::ruleset(self);
        let hand = self.hand(seat);
        let seats = crate::core::Game::seats(self);
        let captured = self.all_captured();
        let mut seen = hand | self.table();
        for &pile in &captured[..seats] {
            seen |= pile;
        }
        let mut unseen = ruleset.deck.all() - seen;
        // A card being resolved (played or drawn, waiting for a capture choice) is face up.
        if let Phase::CaptureChoice { card, .. } = self.phase() {
            unseen.remove(card);
        }
        View {
            seat,
            phase: self.phase(),
            to_act: self.to_act(),
            offered: self.offered(),
            hand,
            hands: HandSizes(self.all_hands()),
            table: self.table(),
            captured,
            stock_size: self.stock_len(),
            unseen,
            calls: self.calls(),
            yaku: self.all_yaku(),
            evaluated: self.evaluated_piles(),
            scores: crate::core::Game::scores(self),
            round: crate::core::Game::round(self),
            rounds: self.rounds(),
            dealer: self.dealer(),
            table_count: self.table_count(),
            marks: self.marks(),
            draws_before: self.draws_before(),
            carried: self.carried(),
            ruleset,
        }
    }
}
