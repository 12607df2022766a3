//! What the full-screen table shows, in no family's words: each family's [`super::table::Table`]
//! fills a [`Board`] (seats, the cards in the middle, the hand, notes), and the full-screen frame
//! (`cli::play::tui`) and the browser's page draw any board the same way. Cards are [`Tile`]s:
//! the suit's short name over the card's face, both from the deck file, coloured by the card's
//! first kind.

use crate::deck::{CardId, CardSet, Deck};

/// A card's colour, the same on the line screen and the full-screen table: the position of its
/// first kind among the deck's kinds (so brights, animals, ribbons and plains differ).
pub fn tone(deck: &Deck, card: CardId) -> usize {
    deck.tone(card)
}

/// A card drawn as a small tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tile {
    /// The card.
    pub card: CardId,
    /// The suit's short name (`Jan`, `6:6`, `♥`).
    pub top: String,
    /// The card's face (`Light`, `Civil`, `A`).
    pub face: String,
    /// The colour: see [`tone`].
    pub tone: usize,
    /// The colour of the suit's mark, where the deck gives one (`red` for hearts): a tile of
    /// such a suit is drawn light, its mark in that colour, rather than in its kind's colour.
    pub colour: Option<&'static str>,
}

impl Tile {
    /// The tile of `card`.
    pub fn of(deck: &Deck, card: CardId) -> Tile {
        Tile {
            card,
            top: deck.suit_of(card).short.clone(),
            face: deck.card(card).face.clone(),
            tone: tone(deck, card),
            colour: deck.suit_of(card).colour,
        }
    }

    /// The tiles of `cards`, in deck order.
    pub fn all(deck: &Deck, cards: CardSet) -> Vec<Tile> {
        cards.iter().map(|c| Tile::of(deck, c)).collect()
    }
}

/// A labelled row of tiles: the table, a hand, a trick.
#[derive(Clone, Debug, Default)]
pub struct Row {
    /// What the row is (`table (8)`).
    pub title: String,
    /// The face-up cards.
    pub tiles: Vec<Tile>,
    /// Face-down cards drawn after them (an opponent's hand, the banker's tiles).
    pub hidden: usize,
    /// Cards drawn apart to the right, under a label of their own (the trump turned up beside
    /// the trick), so they do not read as part of the row.
    pub aside: Option<(String, Vec<Tile>)>,
    /// Piles lying on the table that are taken only whole (builds), each under its label (its
    /// value and owner), drawn after the row; their cards are not among `tiles`.
    pub piles: Vec<(String, Vec<Tile>)>,
}

/// A group of a seat's cards (its captures of one kind, tricks won), shown compactly.
#[derive(Clone, Debug)]
pub struct Group {
    /// The group's name with its count (`bright 2`).
    pub label: String,
    /// The cards.
    pub tiles: Vec<Tile>,
}

/// One seat at the table: its name and score, its cards in groups, lines about it.
#[derive(Clone, Debug, Default)]
pub struct SeatPanel {
    /// The seat's label (`greedy`, `you`).
    pub name: String,
    /// What it has: score, cards in hand, chips (`12 points · 8 cards in hand`).
    pub summary: String,
    /// Its cards face down (an opponent's hand).
    pub hidden: usize,
    /// Its cards in groups (captures by kind).
    pub groups: Vec<Group>,
    /// Lines about it: yaku held and near, declarations, tallies.
    pub lines: Vec<String>,
}

/// A whole screen of the table for one seat.
#[derive(Clone, Debug, Default)]
pub struct Board {
    /// The top line: ruleset, round, dealer.
    pub title: String,
    /// The scores.
    pub scores: String,
    /// The other seats, in turn order after the viewer.
    pub others: Vec<SeatPanel>,
    /// The cards in the middle (the table, the trick, the banker's tiles).
    pub center: Row,
    /// Lines about the whole table (stock, calls, multipliers in force).
    pub notes: Vec<String>,
    /// The viewer's own panel (captures, yaku).
    pub me: Option<SeatPanel>,
    /// The viewer's hand.
    pub hand: Row,
}
