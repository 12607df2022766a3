//! What players can do, what the game is waiting for, and what happened.

use crate::deck::CardId;
use serde::{Deserialize, Serialize};

/// A player's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Play this card from the hand.
    Play {
        /// The card.
        card: CardId,
    },
    /// Capture this table card with the card just played or drawn (when it matches two).
    Capture {
        /// The table card.
        card: CardId,
    },
    /// Call koi-koi: play on for more.
    KoiKoi,
    /// Stop and score.
    Stop,
    /// The non-dealer takes the dealer's hand (or keeps their own) after the deal.
    SwapHands {
        /// True to take the dealer's hand.
        swap: bool,
    },
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The non-dealer may take the dealer's hand.
    SwapChoice,
    /// The player to act plays a hand card.
    Play,
    /// The player chooses which of two table cards `card` captures.
    CaptureChoice {
        /// The card played or drawn.
        card: CardId,
        /// True when `card` came from the hand (the draw follows).
        from_hand: bool,
    },
    /// The player made or improved a yaku: koi-koi or stop.
    KoiKoiChoice,
    /// The game is over.
    GameOver,
}

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HandEnd {
    /// A player stopped after a yaku.
    Stop,
    /// An instant win at the deal.
    Instant,
    /// Both players held an instant win: no points.
    BothInstant,
    /// The hands ran out: a draw.
    Exhausted,
    /// The hands ran out and the dealer scored by house rule.
    ExhaustedDealer,
}

/// One state change, for display and logs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A hand was dealt.
    Deal {
        /// The round, 1-based.
        round: u32,
        /// The dealer's seat.
        dealer: usize,
    },
    /// The table was redealt.
    Redeal {
        /// The redeal rule's name.
        reason: String,
    },
    /// The non-dealer took the dealer's hand.
    HandsSwapped,
    /// A card was played from a hand.
    Played {
        /// The player.
        player: usize,
        /// The card.
        card: CardId,
        /// The table cards it captured (none: it stays on the table).
        captured: Vec<CardId>,
    },
    /// A card was drawn from the stock.
    Drew {
        /// The player.
        player: usize,
        /// The card.
        card: CardId,
        /// The table cards it captured.
        captured: Vec<CardId>,
    },
    /// A player's yaku are new or improved.
    YakuFormed {
        /// The player.
        player: usize,
        /// The yaku ids.
        yaku: Vec<String>,
        /// Their points added up.
        base: i64,
    },
    /// A player called koi-koi.
    KoiKoi {
        /// The player.
        player: usize,
    },
    /// A hand ended.
    HandEnded {
        /// The round.
        round: u32,
        /// The winner, if any.
        winner: Option<usize>,
        /// How it ended.
        end: HandEnd,
        /// Points scored by each seat this hand.
        points: [i64; 2],
    },
    /// The game ended.
    GameEnded {
        /// The final scores.
        scores: [i64; 2],
    },
}

/// An action that is not legal now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalAction {
    /// Why.
    pub reason: String,
}

impl std::fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for IllegalAction {}
