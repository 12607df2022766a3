//! The moves of every family, what happened (events, for display), and how a hand ended.
//!
//! One move vocabulary serves every family, as in general game systems: a family accepts the
//! moves its rules have and refuses the others with a reason. Declarations (calls such as
//! playing on or stopping, swaps, marriages) are the ruleset's: a move names one by its index
//! in the ruleset's `[[declaration]]` list, so no game's words are in the core.

use super::seat::Seat;
use crate::deck::{CardId, CardSet};
pub use crate::ruleset::DeclId;
use serde::Serialize;

/// A player's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Play this card from the hand.
    Play {
        /// The card.
        card: CardId,
    },
    /// Take this card of the table with the card being resolved (a choice between matches).
    Take {
        /// The table card.
        card: CardId,
    },
    /// Take these table cards together with the card being resolved (a choice between
    /// captures of several cards: a sum capture in Scopa).
    TakeSet {
        /// The table cards.
        cards: CardSet,
    },
    /// Play these hand cards together as one combination (climbing games: a pair, a straight).
    PlaySet {
        /// The cards.
        cards: CardSet,
    },
    /// Lay the card being resolved on these table cards (loose cards and whole builds) as a
    /// build of this value (a choice of a matching game with `[flow.build]`: Cassino).
    Build {
        /// The table cards.
        cards: CardSet,
        /// The value declared.
        value: u8,
    },
    /// Make a declaration of the ruleset, with the card it shows when it shows one.
    Declare {
        /// Which declaration.
        decl: DeclId,
        /// The card shown or played with it.
        card: Option<CardId>,
    },
    /// Bet this many chips.
    Bet {
        /// The chips.
        amount: i64,
    },
    /// Take this many more cards or tiles.
    Draw {
        /// How many.
        count: u32,
    },
}

impl Action {
    /// A declaration without a card.
    pub fn declare(decl: DeclId) -> Action {
        Action::Declare { decl, card: None }
    }

    /// The table cards a capture move takes: the one of `Take`, the set of `TakeSet`.
    pub fn taken(self) -> Option<CardSet> {
        match self {
            Action::Take { card } => Some(CardSet::single(card)),
            Action::TakeSet { cards } => Some(cards),
            _ => None,
        }
    }

    /// The card the action names (played, taken, or declared with), if any.
    pub fn card(self) -> Option<CardId> {
        match self {
            Action::Play { card } | Action::Take { card } => Some(card),
            Action::Declare { card, .. } => card,
            Action::TakeSet { cards } | Action::PlaySet { cards } | Action::Build { cards, .. } => {
                cards.iter().next()
            }
            Action::Bet { .. } | Action::Draw { .. } => None,
        }
    }
}

/// How a hand ended: a label the family defines (`stop`, `instant`, `showdown`, ...), counted
/// by simulations and shown in records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct HandEnd(pub &'static str);

/// One state change, for display and logs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A hand was dealt.
    Deal {
        /// The round, 1-based.
        round: u32,
        /// The dealer's seat.
        dealer: Seat,
    },
    /// The deal was made again.
    Redeal {
        /// The redeal rule's name.
        reason: String,
    },
    /// A player made a declaration.
    Declared {
        /// The player.
        player: Seat,
        /// The declaration's index in the ruleset.
        #[serde(skip)]
        decl: DeclId,
        /// The card shown with it, if any.
        card: Option<CardId>,
    },
    /// A player sits out the hand, its cards laid down unplayed (its partner plays alone).
    SatOut {
        /// The player.
        player: Seat,
    },
    /// A card was played from a hand.
    Played {
        /// The player.
        player: Seat,
        /// The card.
        card: CardId,
        /// The table cards it captured (none: it stays on the table).
        captured: Vec<CardId>,
    },
    /// Cards were played from a hand together as one combination (climbing games).
    PlayedSet {
        /// The player.
        player: Seat,
        /// The cards, in deck order.
        cards: Vec<CardId>,
        /// The combination's display name (`Pair`, `Full house`).
        combination: String,
    },
    /// A card was drawn from the stock.
    Drew {
        /// The player.
        player: Seat,
        /// The card.
        card: CardId,
        /// The table cards it captured.
        captured: Vec<CardId>,
    },
    /// A trick was won.
    TrickWon {
        /// The winner.
        player: Seat,
        /// The trick's cards, the lead first.
        cards: Vec<CardId>,
    },
    /// A player's yaku are new or improved.
    YakuFormed {
        /// The player.
        player: Seat,
        /// The yaku ids.
        yaku: Vec<String>,
        /// Their points added up.
        base: i64,
    },
    /// A bonus card went straight to its player's pile.
    BonusTaken {
        /// Who took it.
        player: Seat,
        /// The card.
        card: CardId,
    },
    /// Three cards of a suit were left on the table as a stack.
    Stacked {
        /// Who made it.
        player: Seat,
        /// The three cards.
        cards: Vec<CardId>,
    },
    /// A turn pattern the ruleset rewards (its `[[flow.turn_event]]`).
    TurnEvent {
        /// Whose turn.
        player: Seat,
        /// The event's id.
        id: String,
        /// Its display name.
        name: String,
    },
    /// A card laid on table cards as a build of a declared value (`[flow.build]`).
    Built {
        /// Who built.
        player: Seat,
        /// The card played.
        card: CardId,
        /// The table cards it was laid on.
        cards: Vec<CardId>,
        /// The value declared.
        value: u8,
    },
    /// What a dealt table gave a seat (a `[[flow.deal_bonus]]`): table cards captured at the
    /// deal, a turn event counted. Boxed: the events of every game are as large as their
    /// largest kind, and a trick game builds one at every card.
    DealBonus(Box<DealBonusGiven>),
    /// The table's last cards, taken by the seat that captured last when the hands are
    /// played out.
    TableTaken {
        /// Who took them.
        player: Seat,
        /// The cards.
        cards: Vec<CardId>,
    },
    /// Cards handed from one pile to another.
    Given {
        /// Who gave.
        from: Seat,
        /// Who received.
        to: Seat,
        /// The cards.
        cards: Vec<CardId>,
    },
    /// Cards shown to every seat: the hand that holds an instant win at the deal, the partner
    /// of a marriage.
    Shown {
        /// Whose hand.
        player: Seat,
        /// Its cards.
        cards: Vec<CardId>,
    },
    /// A player bid in an auction (a pass is a declaration).
    Bid {
        /// The player.
        player: Seat,
        /// The bid.
        amount: i64,
    },
    /// A player showed melds (trick-taking games), scored from the ruleset's `[[meld]]`.
    Melded {
        /// The player.
        player: Seat,
        /// The melds' ids, each once per time it counts.
        melds: Vec<String>,
        /// The cards shown.
        cards: Vec<CardId>,
        /// Their points.
        points: i64,
    },
    /// A hand was counted before it ended: each seat's points in it and tricks won (families
    /// that count tricks).
    HandCount {
        /// Each seat's points in the hand.
        points: Vec<i64>,
        /// Each seat's tricks.
        tricks: Vec<u32>,
    },
    /// A hand ended.
    HandEnded {
        /// The round.
        round: u32,
        /// The winner, if any.
        winner: Option<Seat>,
        /// How it ended.
        end: HandEnd,
        /// Points scored by each seat this hand.
        points: Vec<i64>,
    },
    /// The game ended.
    GameEnded {
        /// The final scores.
        scores: Vec<i64>,
    },
}

/// What a dealt table gave a seat ([`Event::DealBonus`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DealBonusGiven {
    /// Who received it.
    pub player: Seat,
    /// The deal bonus's id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// The table cards captured (none when it only counts an event).
    pub cards: Vec<CardId>,
    /// The turn event counted (its id).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_event: Option<String>,
    /// How many times the event counted (0 without one).
    pub times: u16,
}

/// An action that is not legal now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalAction {
    /// Why.
    pub reason: String,
}

impl IllegalAction {
    /// An illegal action with this reason.
    pub fn new(reason: impl Into<String>) -> IllegalAction {
        IllegalAction {
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for IllegalAction {}
