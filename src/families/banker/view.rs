//! What a seat sees of a banker game ([`BankerView`]) and what the game waits for
//! ([`BankerPhase`]): what the family's bots and its rule-reading choice decide from.

use crate::deck::CardSet;
use crate::ruleset::Ruleset;
use serde::Serialize;
use std::sync::Arc;

/// What a banker game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum BankerPhase {
    /// `seat` places a bet.
    Bet {
        /// The player.
        seat: usize,
    },
    /// `seat` chooses how many more tiles to take.
    Draw {
        /// The player.
        seat: usize,
    },
    /// A pot game: `seat` puts chips in the pot (0 to check, or to fold when a bet is to call;
    /// the call; or more, a raise).
    Pot {
        /// The player.
        seat: usize,
    },
    /// Hands played by actions: `seat` places insurance (0 for none).
    Insure {
        /// The player.
        seat: usize,
    },
    /// Hands played by actions: `seat` chooses an action for its hand.
    Act {
        /// The player.
        seat: usize,
    },
    /// Arranged hands (`[flow.arrange]`): `seat` splits its cards into the named hands.
    Arrange {
        /// The player.
        seat: usize,
    },
    /// The session is over.
    GameOver,
}

/// What one player may see of a banker game: their own tiles, the bets and the limits.
#[derive(Clone, Debug)]
pub struct BankerView<'g> {
    /// The ruleset.
    pub ruleset: &'g Arc<Ruleset>,
    /// The viewer's seat.
    pub seat: usize,
    /// What the game waits for.
    pub phase: BankerPhase,
    /// The viewer's tiles.
    pub tiles: CardSet,
    /// The viewer's chips.
    pub bankroll: i64,
    /// Bets placed so far this hand, by seat.
    pub bets: &'g [i64],
    /// The smallest and largest bet the viewer may place now.
    pub limits: (i64, i64),
    /// How many more tiles a player may take.
    pub draw_options: &'g [u32],
    /// The hand, 1-based.
    pub hand: u32,
    /// Hands in the session.
    pub hands_total: u32,
    /// On a table hand, the bet (index in the ruleset's `bets`) the viewer stakes on now.
    pub bet_kind: Option<usize>,
    /// A pot game, the viewer to act: the chips to call.
    pub to_call: Option<i64>,
    /// A pot game: the chips in the pot.
    pub pot: i64,
    /// Hands played by actions: the hand the viewer acts for and the banker's cards seen.
    pub play: Option<PlayView<'g>>,
}

/// What a seat sees of a hand played by actions.
#[derive(Clone, Copy, Debug)]
pub struct PlayView<'g> {
    /// The hand acting, in the order dealt (empty when no hand acts).
    pub cards: &'g [crate::deck::CardId],
    /// The hand came from a split.
    pub split: bool,
    /// Hands the seat holds.
    pub hands: usize,
    /// The banker's cards seen.
    pub banker: &'g [crate::deck::CardId],
}
