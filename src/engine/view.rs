//! What one player may see of a game: everything but the other hand and the stock's order.

use super::action::Phase;
use super::game::Game;
use crate::deck::CardSet;
use crate::ruleset::{Ruleset, YakuScore};
use std::sync::Arc;

/// One seat's view of a game. Agents decide from this and nothing else.
#[derive(Clone, Debug)]
pub struct View<'g> {
    /// The ruleset.
    pub ruleset: &'g Arc<Ruleset>,
    /// The viewer's seat.
    pub seat: usize,
    /// What the game waits for.
    pub phase: Phase,
    /// The seat that must act, or `None` when the game is over.
    pub to_act: Option<usize>,
    /// The viewer's hand.
    pub hand: CardSet,
    /// Cards in the other player's hand.
    pub opponent_hand_size: usize,
    /// The face-up table.
    pub table: CardSet,
    /// Each seat's captures.
    pub captured: [CardSet; 2],
    /// Cards left in the stock.
    pub stock_size: usize,
    /// Cards neither in the viewer's hand, on the table nor captured: the other hand and the stock.
    pub unseen: CardSet,
    /// Koi-koi calls of each seat in this hand.
    pub koikoi: [u32; 2],
    /// Each seat's yaku at the end of its last turn.
    pub yaku: [&'g YakuScore; 2],
    /// Scores so far.
    pub scores: [i64; 2],
    /// The round, 1-based.
    pub round: u32,
    /// Hands in the game.
    pub rounds: u32,
    /// The dealer's seat.
    pub dealer: usize,
    /// The table count at the deal.
    pub table_count: i64,
}

impl Game {
    /// What `seat` may see.
    pub fn view(&self, seat: usize) -> View<'_> {
        let ruleset = self.ruleset();
        let hand = self.hand(seat);
        let seen = hand | self.table() | self.captured(0) | self.captured(1);
        let mut unseen = ruleset.deck.all() - seen;
        // A card being resolved (played or drawn, waiting for a capture choice) is face up.
        if let Phase::CaptureChoice { card, .. } = self.phase() {
            unseen.remove(card);
        }
        View {
            seat,
            phase: self.phase(),
            to_act: self.to_act(),
            hand,
            opponent_hand_size: self.hand(1 - seat).len() as usize,
            table: self.table(),
            captured: [self.captured(0), self.captured(1)],
            stock_size: self.stock_len(),
            unseen,
            koikoi: self.koikoi(),
            yaku: [self.yaku(0), self.yaku(1)],
            scores: self.scores(),
            round: self.round(),
            rounds: self.rounds(),
            dealer: self.dealer(),
            table_count: self.table_count(),
            ruleset,
        }
    }
}
