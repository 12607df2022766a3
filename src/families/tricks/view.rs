//! What one player may see of a trick-taking game: the own hand, the turned-up trump, the
//! stock's size, the trick in progress, every card played so far (tricks are turned face down,
//! but a player may remember them), the melds shown, and the scores.

use super::melds::{MeldTable, Melded, Shown};
use super::phase::Phase;
use crate::core::{DeclId, PerSeat, Seat, next_seat};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{FollowRules, MeldMoment, Ruleset, TrickOrder, TricksFlow};
use std::sync::Arc;

/// One seat's view of a trick-taking game.
#[derive(Clone, Debug)]
pub struct TricksView<'g> {
    /// The ruleset.
    pub ruleset: &'g Arc<Ruleset>,
    /// Its trick-taking flow.
    pub flow: &'g TricksFlow,
    /// The viewer's seat.
    pub seat: Seat,
    /// What the game waits for.
    pub phase: Phase,
    /// The seat to act.
    pub to_act: Option<Seat>,
    /// The viewer's hand.
    pub hand: CardSet,
    /// Cards in the other hand.
    pub other_hand_size: usize,
    /// The trump suit.
    pub trump_suit: usize,
    /// How the hand's cards take tricks: the trumps, the suit each card follows as, its
    /// strength.
    pub order: &'g TrickOrder,
    /// The turned-up trump, while it lies under the stock.
    pub trump_card: Option<CardId>,
    /// Cards left in the stock, the turned-up trump included.
    pub stock_len: usize,
    /// Who closed the stock.
    pub closed_by: Option<Seat>,
    /// The follow rules apply (the stock is gone or closed).
    pub strict: bool,
    /// The card led to the trick in progress.
    pub led: Option<CardId>,
    /// The seat whose card is the best of the trick so far, with the card.
    pub best: Option<(Seat, CardId)>,
    /// Cards played to the trick so far (the lead included).
    pub trick_len: usize,
    /// The cards of the trick so far.
    pub trick: CardSet,
    /// Seats at the table.
    pub seats: usize,
    /// The follow rules of the hand.
    pub follow: FollowRules,
    /// The highest bid so far, with its bidder.
    pub high_bid: Option<(Seat, i64)>,
    /// The auction's winner.
    pub declarer: Option<Seat>,
    /// The contract it plays, once the auction is over.
    pub contract: Option<&'g crate::ruleset::Contract>,
    /// Meld points each seat showed.
    pub melds: PerSeat<i64>,
    /// The seat leading it.
    pub leader: Seat,
    /// The cards each seat has won.
    pub won: &'g PerSeat<CardSet>,
    /// Tricks each seat has won.
    pub tricks: &'g PerSeat<u32>,
    /// The points each seat's melds added to its card points (a marriage's), counted or
    /// pending.
    pub declared: PerSeat<i64>,
    /// The points the viewer's melds will add to its card points once it wins a trick.
    pub pending: i64,
    /// Meld cards shown and not yet played.
    pub shown: CardSet,
    /// Every meld shown this hand, by seat.
    pub melded: &'g [(Seat, Melded)],
    /// Every meld ready for play (its instances for every trump suit).
    pub meld_table: &'g MeldTable,
    /// Each seat's points now (tricks, counted melds added to them).
    pub points: PerSeat<i64>,
    /// Game points.
    pub scores: &'g [i64],
    /// The hand, 1-based.
    pub round: u32,
    /// The dealer.
    pub dealer: Seat,
    /// Cards the viewer has not seen: the other hand and the stock under the turned-up trump.
    pub unseen: CardSet,
    /// Cards mark the sides this hand (`partner_cards`, or a called card): the partners are
    /// then those the viewer knows (`known_partners`), never an unknown holder.
    pub marked_sides: bool,
    /// The seats the viewer knows play on its side (a bit each), where cards mark the sides.
    pub known_partners: u8,
    /// The seats that sit out the hand (a bit each): a contract played alone.
    pub sitting_out: u8,
    /// The card the declarer called, once called.
    pub called: Option<CardId>,
}

impl<'g> TricksView<'g> {
    /// The cards of a whole trick: one for each seat in play.
    pub fn trick_size(&self) -> usize {
        self.seats - self.sitting_out.count_ones() as usize
    }

    /// The other seat.
    pub fn other(&self) -> Seat {
        next_seat(self.seat, self.won.len())
    }

    /// A card's points.
    pub fn card_points(&self, card: CardId) -> i64 {
        self.ruleset.deck.attributes[self.flow.card_points].values[card.index()]
    }

    /// A card's strength within the suit it follows as this hand (its rank, unless the
    /// hand's orders place it otherwise: a top trump above every rank).
    pub fn rank(&self, card: CardId) -> i64 {
        self.order.strength[card.index()]
    }

    /// A card's suit.
    pub fn suit(&self, card: CardId) -> usize {
        self.ruleset.deck.card(card).suit
    }

    /// The suit a card follows as: its printed suit, or for a trump the trump suit (past the
    /// deck's suits).
    pub fn follows_as(&self, card: CardId) -> usize {
        self.order.suit(card) as usize
    }

    /// True when a card is a trump this hand.
    pub fn is_trump(&self, card: CardId) -> bool {
        self.order.trumps.contains(card)
    }

    /// The cards that follow as the suit `card` follows as (the trumps, for a trump).
    pub fn same_suit(&self, card: CardId) -> CardSet {
        self.order.follows[self.order.suit(card) as usize]
    }

    /// True when `b`, played to a trick whose best card is `a`, beats it.
    pub fn beats(&self, b: CardId, a: CardId) -> bool {
        self.order.beats(b, a, self.flow.later_equal_wins)
    }

    /// True when `a` and `b` play as partners as the viewer knows (one of them the viewer
    /// where cards mark the sides): by the partnerships of the table, or, where the declarer
    /// plays alone, as the declarer's two opponents (never without either).
    pub fn partners(&self, a: Seat, b: Seat) -> bool {
        if self.marked_sides {
            // Only a partner the viewer knows of: a hidden partner is not counted on.
            return match (a == self.seat, b == self.seat) {
                (true, false) => self.known_partners >> b & 1 != 0,
                (false, true) => self.known_partners >> a & 1 != 0,
                _ => false,
            };
        }
        if let (Some(au), Some(d)) = (&self.flow.auction, self.declarer)
            && au.declarer_alone
        {
            return a != b && a != d && b != d;
        }
        a != b && self.flow.teams.any() && self.flow.teams.team_of(a) == self.flow.teams.team_of(b)
    }

    /// The points the viewer's melds will add to its card points once it wins a trick.
    pub fn pending_points(&self) -> i64 {
        self.pending
    }

    /// The meld declaration `decl` shows for the viewer with `card` at `moment`, if any.
    pub fn meld_shown(&self, decl: DeclId, moment: MeldMoment, card: CardId) -> Option<Shown> {
        self.meld_table.shown(
            &self.flow.melds,
            decl,
            moment,
            self.trump_suit,
            self.hand,
            card,
            |meld| {
                self.meld_table.reuse(
                    &self.flow.melds,
                    meld,
                    self.melded
                        .iter()
                        .filter(|(s, _)| *s == self.seat)
                        .map(|(_, m)| m),
                )
            },
        )
    }
}
