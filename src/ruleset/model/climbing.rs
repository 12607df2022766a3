//! The climbing family's checked `[flow]`: the table, the card order and the combinations,
//! the opening lead, passing, and the penalty for cards left when a player goes out.

use super::*;
use crate::ruleset::combos::CombinationTable;

/// What a pass does for the rest of the trick (`pass`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassRule {
    /// A player who passed may play again when the turn comes back (`again`): the trick ends
    /// when every other seat has passed in a row.
    Again,
    /// A player who passed is out of the trick until it ends (`out`).
    Out,
}

/// Where the cards left over go when the whole deck does not deal evenly to the table
/// (`odd_cards`): 52 cards to three players leave one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OddCards {
    /// The deck must deal evenly to every table the game seats (the default).
    Even,
    /// The deal goes on round the table: the first seats after the dealer hold one more.
    Dealt,
    /// To the holder of the opening card; where the opening card is itself left over, to the
    /// holder of the lowest card dealt (`opening_holder`).
    OpeningHolder,
}

/// The flow of a climbing game (Big Two): the whole deck dealt, each play a combination that
/// beats the last, passes, the trick to the last unbeaten play, and the first to empty their
/// hand wins; the others pay for the cards they hold.
#[derive(Clone, Debug)]
pub struct ClimbingFlow {
    /// Seats when the command line does not say.
    pub players: u32,
    /// The fewest seats.
    pub min_players: u32,
    /// The most seats.
    pub max_players: u32,
    /// The combinations and the card order.
    pub combos: CombinationTable,
    /// Cards dealt to each hand, the rest set aside unseen (`hand_size`); `None`: the whole
    /// deck.
    pub hand_size: Option<u32>,
    /// Where the cards left over when the whole deck does not deal evenly go (`odd_cards`).
    pub odd_cards: OddCards,
    /// The card whose holder leads the first trick, if any (`opening_lead`); where it was not
    /// dealt, the holder of the lowest card dealt leads (and, with `opening_must_include`,
    /// plays it).
    pub opening_card: Option<crate::deck::CardId>,
    /// The first play must hold the opening card (`opening_must_include`).
    pub opening_must_include: bool,
    /// The opening card leads every hand (`true`) or only the game's first, the last hand's
    /// winner leading the others (`opening_hands`).
    pub opening_every_hand: bool,
    /// What a pass does.
    pub pass_rule: PassRule,
    /// The pass declaration.
    pub pass: DeclId,
    /// What a seat pays for the cards left in its hand (`penalty`, the hand as `pile`).
    pub penalty: crate::expr::Program,
    /// Its source, for the rule sheet.
    pub penalty_source: String,
    /// The winner takes what the others pay (`true`), or the others only lose it
    /// (`penalty_to`).
    pub pay_winner: bool,
    /// How long a game lasts.
    pub length: GameLength,
    /// Who deals first.
    pub first_dealer: FirstDealer,
    /// Who deals next.
    pub next_dealer: NextDealer,
}
