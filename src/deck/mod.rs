//! Decks as data: cards, suits, kinds and numeric attributes, loaded from `rulesets/decks/`.
//!
//! A `Deck` is immutable once a ruleset is loaded; every name in it maps to a [`CardSet`], which is
//! what the expression language and the game core work on.
//!
//! ```
//! let ruleset = yaku::ruleset::load("koikoi").value.unwrap();
//! let deck = &ruleset.deck;
//! let moon = deck.card_by_id("pampas-moon").unwrap();
//! assert_eq!(deck.id_of(moon), "pampas-moon");
//! assert_eq!(deck.all().len(), 48);
//! ```

mod card_set;
pub mod face;

pub use card_set::{CardBits, CardId, CardSet, CardSetIter};

use rand::distr::uniform::{UniformInt, UniformSampler};
use rand::rngs::Xoshiro256PlusPlus;

/// Shuffles `cards` in place, Fisher-Yates from the last card down, each card's partner drawn as
/// `rng.random_range(0..=i)`: the draws of [`shuffle`], for a list of any length (a shoe of
/// several packs, the cards a position leaves unwritten, the piles of a reach check).
pub fn shuffle_slice(cards: &mut [CardId], rng: &mut Xoshiro256PlusPlus) {
    use rand::RngExt;
    for i in (1..cards.len()).rev() {
        let j = rng.random_range(0..=i);
        cards.swap(i, j);
    }
}

/// Shuffles the first `n` cards of `order` (Fisher-Yates from the last card down, each card's
/// partner drawn as `rng.random_range(0..=i)`): every family's deal and every search's deal of
/// the hidden cards. These draws decide every seeded game and the later deals of every replayed
/// record: they must stay exactly as they are. Inlined into each caller: out of line, the
/// generator's state went through memory at the call (a random hand cost 66 instructions more).
#[inline(always)]
pub fn shuffle(order: &mut [CardId; CardSet::CAPACITY], n: usize, rng: &mut Xoshiro256PlusPlus) {
    // Shuffled in an array of the largest deck, every index kept inside it by a mask that
    // changes nothing (`j <= i < n <= CAPACITY`): the swaps need no bounds checks, 5 instructions of
    // the 31 each draw cost.
    const LAST: usize = CardSet::CAPACITY - 1;
    // The generator is copied in and out: a local state stays in registers, where the
    // generator inside the game was stored back after every draw (a write to the deck might
    // have changed it, for all the compiler knew).
    let mut local = rng.clone();
    for i in (1..n.min(CardSet::CAPACITY)).rev() {
        // `random_range(0..=i)`, called through the sampler it uses for a range within 32 bits
        // (a deck has at most CAPACITY cards) so that it inlines (`random_range` is not `#[inline]`):
        // the same draws.
        let j = UniformInt::<u32>::sample_single_inclusive(0, (i & LAST) as u32, &mut local)
            .expect("0..=i is not empty");
        order.swap(i & LAST, j as usize & LAST);
    }
    *rng = local;
}

/// One card (or tile) of a deck.
#[derive(Clone, Debug)]
pub struct Card {
    /// The canonical id users type and tools print (`pampas-moon`).
    pub id: String,
    /// The display name (`Moon`).
    pub name: String,
    /// What its tile shows under the suit's short name (`Light`, `A`): at most
    /// [`TILE_WIDTH`] characters.
    pub face: String,
    /// Index of the card's suit in [`Deck::suits`].
    pub suit: usize,
    /// Names of the kinds the card belongs to, in deck order.
    pub kinds: Vec<String>,
    /// What its drawn face shows in the deck's [`Deck::art`] (`bright`, `poem`): one of
    /// [`ArtStyle::card_marks`], when the deck file gives one. Display only.
    pub mark: Option<String>,
}

/// The most characters a tile's line shows (a suit's `short`, a card's `face`).
pub const TILE_WIDTH: usize = 6;

/// The colours a suit's mark may be drawn in (`colour` in a deck's `[[suit]]`): names every
/// table can show, the browser's and the terminal's.
pub const SUIT_COLOURS: &[&str] = &["red", "black", "blue", "green", "gold", "purple"];

/// How a deck's card faces are drawn (`art` in a deck file's `[deck]`): each style reads the
/// suit's and the card's `mark` (and, for some, the tile's text) to draw its faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArtStyle {
    /// Flower cards (hanafuda, hwatu): the suit's plant, the card's bright, animal, ribbon or
    /// plain mark.
    Hanafuda,
    /// French cards: the suit's pips (`hearts`), the card's rank from its face (`A`, `7`, `K`).
    French,
    /// Italian cards: the suit's marks (`coins`), the card's rank from its face.
    Italian,
    /// Kabufuda: the card's numeral from its face.
    Kabufuda,
    /// Chinese domino tiles: the two halves' pips from the suit's short name (`6:6`).
    Domino,
}

impl ArtStyle {
    /// Every style with its name in a deck file.
    pub const ALL: &[(&str, ArtStyle)] = &[
        ("hanafuda", ArtStyle::Hanafuda),
        ("french", ArtStyle::French),
        ("italian", ArtStyle::Italian),
        ("kabufuda", ArtStyle::Kabufuda),
        ("domino", ArtStyle::Domino),
    ];

    /// The style's name in a deck file.
    pub fn name(self) -> &'static str {
        ArtStyle::ALL
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("", |(n, _)| n)
    }

    /// The marks a suit of this style may have.
    pub fn suit_marks(self) -> &'static [&'static str] {
        match self {
            ArtStyle::Hanafuda => &[
                "pine",
                "plum",
                "cherry",
                "wisteria",
                "iris",
                "peony",
                "clover",
                "pampas",
                "chrysanthemum",
                "maple",
                "willow",
                "paulownia",
                "bonus",
            ],
            ArtStyle::French => &["hearts", "diamonds", "spades", "clubs"],
            ArtStyle::Italian => &["coins", "cups", "swords", "batons"],
            ArtStyle::Kabufuda | ArtStyle::Domino => &[],
        }
    }

    /// The marks a card of this style may have.
    pub fn card_marks(self) -> &'static [&'static str] {
        match self {
            ArtStyle::Hanafuda => &[
                "bright", "rain", "animal", "poem", "blue", "ribbon", "plain", "double", "triple",
            ],
            _ => &[],
        }
    }
}

/// A suit: the month of a hanafuda card, the face of a domino tile.
#[derive(Clone, Debug)]
pub struct Suit {
    /// The suit's id, usable as a card set in expressions (`pine`).
    pub id: String,
    /// The display name (`Pine`).
    pub name: String,
    /// The suit on a card's tile (`Jan`, `6:6`): at most [`TILE_WIDTH`] characters.
    pub short: String,
    /// The colour its mark is drawn in (one of [`SUIT_COLOURS`]: `red` for hearts), when the
    /// deck gives one: display only.
    pub colour: Option<&'static str>,
    /// The colour its mark is drawn in by a four-colour pack (`blue` for diamonds, `green` for
    /// clubs), which a player may choose at the browser's table: display only.
    pub four_colour: Option<&'static str>,
    /// The suit's number, 1-based, in deck order (the month for hanafuda).
    pub number: u32,
    /// The cards of this suit.
    pub cards: CardSet,
    /// Other names players use for the suit (`bells` for diamonds), accepted as input: as the
    /// suit in `suit:n`, and in place of the suit's id at the start of a card id.
    pub aliases: Vec<String>,
    /// What its cards' drawn faces show of the suit in the deck's [`Deck::art`] (the plant
    /// `pine`, the French `hearts`): one of [`ArtStyle::suit_marks`], when the deck file gives
    /// one. Display only.
    pub mark: Option<String>,
}

/// A kind (tag) of card: `bright`, `animal`, `civil`, ...
#[derive(Clone, Debug)]
pub struct Kind {
    /// The kind's name, usable as a card set in expressions.
    pub id: String,
    /// The cards of this kind.
    pub cards: CardSet,
}

/// A numeric attribute of every card (`points`, `pips`), summed by `sum(...)` in expressions.
#[derive(Clone, Debug)]
pub struct Attribute {
    /// The attribute's name.
    pub id: String,
    /// The value for each card, indexed by [`CardId`].
    pub values: Vec<i64>,
}

/// A whole deck.
#[derive(Clone, Debug)]
pub struct Deck {
    /// The deck's id (`hanafuda`).
    pub id: String,
    /// The display name.
    pub name: String,
    /// Every card, in file order; a card's position is its [`CardId`].
    pub cards: Vec<Card>,
    /// The suits, in file order.
    pub suits: Vec<Suit>,
    /// The kinds the deck declares.
    pub kinds: Vec<Kind>,
    /// The numeric attributes the deck declares.
    pub attributes: Vec<Attribute>,
    /// Another name for `suit(n)` in expressions (`month` for hanafuda).
    pub suit_word: Option<String>,
    /// The optional cards (bonus cards) the deck file marks; a ruleset keeps those it names.
    pub optional: CardSet,
    /// How its cards' faces are drawn (the deck file's `art`); `None` draws each card's
    /// suit and face as text. Display only.
    pub art: Option<ArtStyle>,
    /// Each card's suit as a set, by card index: what [`Deck::same_suit`] answers with one
    /// load, as matching asks it several times a turn.
    pub(crate) suit_cards: Vec<CardSet>,
}

impl Deck {
    /// A deck without cards, names or attributes: what a ruleset is checked against when its
    /// own deck cannot be read, so its other mistakes still show.
    pub fn empty() -> Deck {
        Deck {
            id: String::new(),
            name: String::new(),
            cards: Vec::new(),
            suits: Vec::new(),
            kinds: Vec::new(),
            attributes: Vec::new(),
            suit_word: None,
            optional: CardSet::EMPTY,
            art: None,
            suit_cards: Vec::new(),
        }
    }

    /// The deck with each card's suit set worked out from its cards and suits: every
    /// constructor ends here, so [`Deck::same_suit`] is one load.
    pub(crate) fn with_suit_cards(mut self) -> Deck {
        self.suit_cards = self
            .cards
            .iter()
            .map(|c| self.suits[c.suit].cards)
            .collect();
        self
    }

    /// The deck with only the cards of `keep`, renumbered in deck order: every set, suit and
    /// attribute follows. A ruleset leaves out the optional cards it does not name this way.
    pub fn retain(&self, keep: CardSet) -> Deck {
        let old: Vec<CardId> = keep.iter().collect();
        let remap = |set: CardSet| -> CardSet {
            let mut out = CardSet::EMPTY;
            for (new, &c) in old.iter().enumerate() {
                if set.contains(c) {
                    out.insert(CardId(new as u8));
                }
            }
            out
        };
        Deck {
            id: self.id.clone(),
            name: self.name.clone(),
            cards: old.iter().map(|c| self.cards[c.index()].clone()).collect(),
            suits: self
                .suits
                .iter()
                .map(|s| Suit {
                    cards: remap(s.cards),
                    ..s.clone()
                })
                .collect(),
            kinds: self
                .kinds
                .iter()
                .map(|k| Kind {
                    id: k.id.clone(),
                    cards: remap(k.cards),
                })
                .collect(),
            attributes: self
                .attributes
                .iter()
                .map(|a| Attribute {
                    id: a.id.clone(),
                    values: old.iter().map(|c| a.values[c.index()]).collect(),
                })
                .collect(),
            suit_word: self.suit_word.clone(),
            optional: remap(self.optional),
            art: self.art,
            suit_cards: Vec::new(),
        }
        .with_suit_cards()
    }

    /// The position of `card`'s first kind among the deck's kinds (0 for a card of none): the
    /// colour of its tile on the terminal and of its text face, so that brights, animals,
    /// ribbons and plains differ.
    pub fn tone(&self, card: CardId) -> usize {
        self.card(card)
            .kinds
            .first()
            .and_then(|k| self.kinds.iter().position(|d| &d.id == k))
            .unwrap_or(0)
    }

    /// Every card of the deck.
    pub fn all(&self) -> CardSet {
        CardSet::first(self.cards.len())
    }

    /// The card with this canonical id.
    pub fn card_by_id(&self, id: &str) -> Option<CardId> {
        self.cards
            .iter()
            .position(|c| c.id == id)
            .map(|i| CardId(i as u8))
    }

    /// The card a user means: its id, its display name (any case), or `suit:index` with a
    /// 1-based index within the suit (`pine:1` or `1:1`).
    pub fn parse_card(&self, input: &str) -> Option<CardId> {
        let input = input.trim();
        if let Some(card) = self.card_by_id(input) {
            return Some(card);
        }
        // A card id written with a suit's other name (`bells-ace` for `diamonds-ace`).
        for s in &self.suits {
            for a in &s.aliases {
                if let Some(rest) = input
                    .strip_prefix(a.as_str())
                    .and_then(|r| r.strip_prefix('-'))
                    && let Some(card) = self.card_by_id(&format!("{}-{rest}", s.id))
                {
                    return Some(card);
                }
            }
        }
        if let Some((suit, index)) = input.split_once(':') {
            let suit = self.suits.iter().find(|s| {
                s.id.eq_ignore_ascii_case(suit)
                    || s.number.to_string() == suit.trim()
                    || s.aliases.iter().any(|a| a.eq_ignore_ascii_case(suit))
            });
            if let (Some(suit), Ok(index)) = (suit, index.trim().parse::<usize>())
                && let Some(card) = index.checked_sub(1).and_then(|i| suit.cards.nth(i))
            {
                return Some(card);
            }
        }
        let named: Vec<usize> = (0..self.cards.len())
            .filter(|&i| self.cards[i].name.eq_ignore_ascii_case(input))
            .collect();
        match named.as_slice() {
            [one] => Some(CardId(*one as u8)),
            _ => None,
        }
    }

    /// The card's canonical id.
    pub fn id_of(&self, card: CardId) -> &str {
        &self.cards[card.index()].id
    }

    /// The card's entry.
    pub fn card(&self, card: CardId) -> &Card {
        &self.cards[card.index()]
    }

    /// The suit of a card.
    pub fn suit_of(&self, card: CardId) -> &Suit {
        &self.suits[self.cards[card.index()].suit]
    }

    /// The kind with this name.
    pub fn kind(&self, id: &str) -> Option<&Kind> {
        self.kinds.iter().find(|k| k.id == id)
    }

    /// `set` with every card's copies from the deck's other packs (`hearts-ten` and
    /// `hearts-ten-p2` of a deck of `packs = 2`): what a rule naming a printed card means,
    /// whichever copy is dealt. A deck of one pack gives `set` back.
    pub fn with_copies(&self, set: CardSet) -> CardSet {
        let printed = |c: &Card| -> String {
            match c.id.rsplit_once("-p") {
                Some((id, pack))
                    if !pack.is_empty() && pack.bytes().all(|b| b.is_ascii_digit()) =>
                {
                    id.to_string()
                }
                _ => c.id.clone(),
            }
        };
        if set.is_empty() || self.cards.iter().all(|c| printed(c) == c.id) {
            return set;
        }
        let named: Vec<String> = set.iter().map(|c| printed(self.card(c))).collect();
        (0..self.cards.len())
            .map(|i| CardId(i as u8))
            .filter(|&c| named.contains(&printed(self.card(c))))
            .collect()
    }

    /// True when `a` and `b` differ only by id and name: same suit, kinds and attribute values
    /// (two chaff cards of one month), so no rule that reads suits, kinds or attributes tells
    /// them apart.
    pub fn alike(&self, a: CardId, b: CardId) -> bool {
        let (ca, cb) = (self.card(a), self.card(b));
        ca.suit == cb.suit
            && ca.kinds == cb.kinds
            && self
                .attributes
                .iter()
                .all(|at| at.values.get(a.index()) == at.values.get(b.index()))
    }

    /// The set of cards that share a suit with `card`.
    pub fn same_suit(&self, card: CardId) -> CardSet {
        self.suit_cards[card.index()]
    }

    /// The suit with this 1-based number, as a set (empty when out of range).
    pub fn suit_by_number(&self, number: i64) -> CardSet {
        if number < 1 {
            return CardSet::EMPTY;
        }
        self.suits
            .get(number as usize - 1)
            .map_or(CardSet::EMPTY, |s| s.cards)
    }

    /// How many suits hold at least `n` cards of `pile`.
    pub fn suits_with(&self, pile: CardSet, n: i64) -> i64 {
        self.suits
            .iter()
            .filter(|s| i64::from((s.cards & pile).len()) >= n)
            .count() as i64
    }

    /// The ids of every card in the set, in deck order.
    pub fn ids(&self, set: CardSet) -> Vec<&str> {
        set.iter().map(|c| self.id_of(c)).collect()
    }

    /// Every name a user may type for a card, for did-you-mean suggestions.
    pub fn card_ids(&self) -> impl Iterator<Item = &str> {
        self.cards.iter().map(|c| c.id.as_str())
    }
}

#[cfg(test)]
mod pack_tests;
