//! The trick-taking family's checked `[flow]`: follow rules, claims and trumps, the auction
//! and its contracts, melds.

use super::*;

/// What a player must play to a trick once the follow rules apply (the stock gone or closed,
/// or from the first trick where there is no stock): each obligation a flag, in the order a
/// player meets them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FollowRules {
    /// Follow the suit led when able.
    pub suit: bool,
    /// Following suit, beat the best card of the trick so far when able (head the trick); not
    /// owed once the trick has been trumped.
    pub head: bool,
    /// Void in the suit led, play a trump when able.
    pub trump: bool,
    /// Trumping a trick that already holds a trump, beat it when able.
    pub overtrump: bool,
}

impl FollowRules {
    /// No obligation (`follow = "free"`).
    pub const FREE: FollowRules = FollowRules {
        suit: false,
        head: false,
        trump: false,
        overtrump: false,
    };
    /// Follow suit; when void, trump (`follow = "follow-trump"`).
    pub const FOLLOW_TRUMP: FollowRules = FollowRules {
        suit: true,
        head: false,
        trump: true,
        overtrump: false,
    };
    /// Follow suit and win the trick if possible; when void, trump (`follow = "head"`).
    pub const HEAD: FollowRules = FollowRules {
        suit: true,
        head: true,
        trump: true,
        overtrump: false,
    };
    /// Follow suit and head the trick; when void, trump and beat a trump already played
    /// (`follow = "win"`).
    pub const WIN: FollowRules = FollowRules {
        suit: true,
        head: true,
        trump: true,
        overtrump: true,
    };
    /// The named rule sets, by the names `follow` takes.
    pub const NAMED: [(&'static str, FollowRules); 4] = [
        ("free", FollowRules::FREE),
        ("follow-trump", FollowRules::FOLLOW_TRUMP),
        ("head", FollowRules::HEAD),
        ("win", FollowRules::WIN),
    ];
    /// The flags' names, as `follow = [...]` lists them.
    pub const FLAGS: [&'static str; 4] = ["suit", "head", "trump", "overtrump"];
}

/// How a hand of a trick-taking game reaches its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimRule {
    /// A player must claim the target (a declaration), and a false claim loses.
    Declare,
    /// The hand ends as soon as a player's points reach the target.
    Automatic,
    /// No target within a hand: every trick is played and the scoring script settles the hand
    /// (`claim = "none"`).
    PlayOut,
}

/// Where a trick-taking hand's trump suit comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrumpRule {
    /// The card after the deal is turned up under the stock (Schnapsen).
    TurnedUp,
    /// The winner of the auction names it.
    Declarer,
    /// No trumps: every trick goes to the best card of the suit led (`trump = "none"`).
    None,
    /// A suit fixed by the rules, without an auction (`trump = "spades"`): an index into the
    /// deck's suits.
    Fixed(usize),
}

/// How the cards of one hand take tricks, for one contract and one trump suit (or none): which
/// cards are trumps, the suit each card follows as, and its strength within that suit. Built once
/// when the ruleset loads for every contract and trump suit (`[flow] trump_cards`,
/// `trump_order`, `card_order` and a contract's own), so that deciding a trick is two look-ups a
/// card, whatever the rules of trumps: the plain game of a trump suit costs no more than it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrickOrder {
    /// The cards that are trumps.
    pub trumps: crate::deck::CardSet,
    /// The suit index trumps follow as: one past the deck's suits (every trump, whatever its
    /// printed suit, follows as the trump suit).
    pub trump: u8,
    /// The cards that follow as each suit: each deck suit less its trumps, then the trumps.
    pub follows: Vec<crate::deck::CardSet>,
    /// Each card's suit for following (`trump` for a trump), by card index.
    pub suit_of: [u8; crate::deck::CardSet::CAPACITY],
    /// Each card's strength within the suit it follows as (higher wins), by card index: its
    /// rank (or its place in `card_order`); a trump listed in `trump_order` above every rank.
    pub strength: [i64; crate::deck::CardSet::CAPACITY],
}

impl TrickOrder {
    /// The suit `card` follows as (`self.trump` for a trump).
    #[inline]
    pub fn suit(&self, card: crate::deck::CardId) -> u8 {
        self.suit_of[card.index()]
    }

    /// True when `b`, played to a trick whose best card so far is `a`, beats it: a stronger
    /// card of the suit it follows as, or a trump over another suit; of two cards of equal
    /// strength the first stays best unless `b` is one of `later_equal_wins`.
    #[inline]
    pub fn beats(
        &self,
        b: crate::deck::CardId,
        a: crate::deck::CardId,
        later_equal_wins: crate::deck::CardSet,
    ) -> bool {
        let (sa, sb) = (self.suit_of[a.index()], self.suit_of[b.index()]);
        if sa == sb {
            let (ra, rb) = (self.strength[a.index()], self.strength[b.index()]);
            rb > ra || (rb == ra && later_equal_wins.contains(b))
        } else {
            sb == self.trump
        }
    }
}

/// Where passed cards go (`[flow.pass] directions`): a seat passes to the seat this many places
/// after it in the order of play, or keeps its cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassDirection {
    /// To the next seat in the order of play (`left`).
    Left,
    /// To the seat before it (`right`).
    Right,
    /// To the seat opposite, half the table on (`across`; only at tables of an even size).
    Across,
    /// No passing this hand (`none`).
    Keep,
}

impl PassDirection {
    /// The names `directions` takes, in order.
    pub const NAMES: [(&'static str, PassDirection); 4] = [
        ("left", PassDirection::Left),
        ("right", PassDirection::Right),
        ("across", PassDirection::Across),
        ("none", PassDirection::Keep),
    ];

    /// The seat `seat` passes to at a table of `seats`, or `None` when it keeps its cards.
    pub fn to(self, seat: usize, seats: usize) -> Option<usize> {
        match self {
            PassDirection::Left => Some((seat + 1) % seats),
            PassDirection::Right => Some((seat + seats - 1) % seats),
            PassDirection::Across => Some((seat + seats / 2) % seats),
            PassDirection::Keep => None,
        }
    }

    /// Its name, as `directions` writes it.
    pub fn name(self) -> &'static str {
        PassDirection::NAMES
            .iter()
            .find(|(_, d)| *d == self)
            .map_or("none", |(n, _)| n)
    }
}

/// Passing cards before play (`[flow.pass]`): each seat in turn, from the seat after the dealer,
/// sets aside `cards` cards of its dealt hand; once every seat has, each passes them on in the
/// hand's direction, the `directions` taken in turn by hand number (hand 1 the first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Passing {
    /// Cards each seat passes.
    pub cards: u32,
    /// The direction of hand k is `directions[(k - 1) % len]`.
    pub directions: Vec<PassDirection>,
}

impl Passing {
    /// The direction of hand `round` (1-based).
    pub fn direction(&self, round: u32) -> PassDirection {
        let n = self.directions.len().max(1);
        self.directions
            .get((round.max(1) as usize - 1) % n)
            .copied()
            .unwrap_or(PassDirection::Keep)
    }
}

/// The rules of the first trick and of leading (`opening_lead`, `not_on_first_trick`,
/// `lead_when_broken`): all empty, the lead is free.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LeadRules {
    /// The card that must lead the first trick: its holder leads it (where it was dealt).
    pub opening_card: Option<crate::deck::CardId>,
    /// Cards the first trick's leader must lead one of when holding any (`opening_lead_from`:
    /// an ace); empty when the lead is free.
    pub opening_from: crate::deck::CardSet,
    /// Cards that may not be played to the first trick (led or followed) unless the player holds
    /// nothing else it may play.
    pub not_on_first_trick: crate::deck::CardSet,
    /// Cards that may not be led until a card of `broken_by` has been played to a trick
    /// ("broken"), unless the leader holds nothing else.
    pub until_broken: crate::deck::CardSet,
    /// The cards whose play breaks them (`broken_by`; `until_broken` unless given).
    pub broken_by: crate::deck::CardSet,
}

impl LeadRules {
    /// True when no rule binds the lead or the first trick.
    pub fn is_free(&self) -> bool {
        *self == LeadRules::default()
    }
}

/// What happens when every player passes in an auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassedOut {
    /// The dealer must take the contract at the lowest bid.
    Dealer,
    /// The hand ends unplayed (end `passed_out`, settled by the scoring script) and the deal
    /// passes on.
    Redeal,
    /// The seat after the dealer (forehand) must take the contract at the lowest bid.
    Forehand,
}

/// Who leads the first trick after an auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstLead {
    /// The seat after the dealer.
    AfterDealer,
    /// The auction's winner.
    Declarer,
}

/// A contract bid by name (`[[flow.auction.contract]]`): it stands in the bidding at its
/// `bid` value and may change the follow rules and the trump suit; the scoring script sees its
/// id as `hand.contract`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contract {
    /// Its id, as the scoring script sees it.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// What it means, for the rule sheet.
    pub description: String,
    /// Its place in the bidding: it outranks every bid below this value (a bid is an
    /// [`crate::core::Action::Bet`] of this amount).
    pub bid: i64,
    /// The follow rules while it is played, instead of `[flow] follow`.
    pub follow: Option<FollowRules>,
    /// The declarer names trumps (false: the hand is played without trumps).
    pub trumps: bool,
    /// The game points it is worth (`value`; its `bid` unless given): the scoring script sees
    /// them as `hand.value`.
    pub value: i64,
    /// What the declarer's side must do; the hand ends as soon as it is decided.
    pub goal: ContractGoal,
    /// The declarer takes the talon into its hand and discards as many cards (where the deal
    /// leaves a talon).
    pub talon: bool,
    /// Who leads the first trick under this contract, instead of `[flow.auction] first_lead`.
    pub first_lead: Option<FirstLead>,
    /// The trump suit the contract fixes (`trump_suit`): the declarer names none.
    pub trump_suit: Option<usize>,
    /// Its own trumps and orders (`trump_cards`, `trump_order`, `card_order`, or played without
    /// trumps): the rules' set of [`TricksFlow::orders`] it is played by (0: the flow's).
    pub orders: usize,
    /// The declarer calls a partner by naming a card (`call`), once trumps are known.
    pub call: Option<Call>,
    /// The declarer plays alone (`alone`): its partners (the other seats of its team) sit out
    /// the hand, their cards laid down unplayed, and each trick has one card fewer for each.
    pub alone: bool,
}

/// A contract that calls a partner (`call`, Schafkopf's Rufspiel): once trumps are known the
/// declarer names one of `cards` (not a trump, not one it holds, and with `needs_suit` of a suit
/// it holds a card of, trumps apart), and whoever holds it is its partner for the hand, the two
/// against the rest. The partnership is public once the called card is played; until then only
/// its holder knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call {
    /// The cards that may be called (`call`: `ace`).
    pub cards: crate::deck::CardSet,
    /// The declarer must hold a card of the called card's suit, trumps apart
    /// (`call_needs_suit`, true unless set false).
    pub needs_suit: bool,
    /// When the called card's suit is led, its holder must play it (`call_answer`, Schafkopf's
    /// "the called ace must be played when its suit is led").
    pub answer: bool,
}

/// What a contract's declarer must do (`points`, `by_trick`, `min_tricks`, `max_tricks`); an
/// empty goal leaves the hand to the scoring script. The hand ends as soon as the goal is made
/// or can no longer be made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContractGoal {
    /// Card points (with counted marriages) the declarer's side must reach.
    pub points: Option<i64>,
    /// ... by the end of this trick (1-based): a contract decided on the first tricks.
    pub by_trick: Option<u32>,
    /// Tricks the declarer's side must take at least (`min_tricks = "all"`: every trick).
    pub min_tricks: Option<TrickCount>,
    /// Tricks the declarer's side may take at most (0: a Bettler, which must take none).
    pub max_tricks: Option<u32>,
}

impl ContractGoal {
    /// True when the goal says nothing (the scoring script settles the hand).
    pub fn is_empty(&self) -> bool {
        *self == ContractGoal::default()
    }
}

/// A number of tricks: a count, or every trick of the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrickCount {
    /// This many.
    Count(u32),
    /// Every trick of the hand.
    All,
}

/// The auction of a trick-taking hand (`[flow.auction]`): bids in turn order from the seat
/// after the dealer, each a pass, a value (`minimum`, then at least `step` over the last bid,
/// in steps of `step`) or a named contract; a player who passed bids no more, and the auction
/// ends when all but one have passed (or all have).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Auction {
    /// The lowest bid.
    pub minimum: i64,
    /// Bids rise in steps of this many.
    pub step: i64,
    /// The highest bid offered.
    pub maximum: i64,
    /// The plain bids allowed, ascending (`bids`), in place of the ladder of `minimum` to
    /// `maximum` in steps of `step` (then `minimum` is the first, `maximum` the last, `step` the
    /// smallest gap); empty: the ladder.
    pub listed: Vec<i64>,
    /// Value bids are offered (false: only named contracts).
    pub values: bool,
    /// Named contracts.
    pub contracts: Vec<Contract>,
    /// What happens when everyone passes.
    pub passed_out: PassedOut,
    /// Who leads the first trick.
    pub first_lead: FirstLead,
    /// The declaration that passes (`effect = "pass"`).
    pub pass: DeclId,
    /// The declaration that names trumps (`effect = "trump"`, with a card of the suit).
    pub name_trump: Option<DeclId>,
    /// Bidding on a turned-up card (`turned_up = true`, Euchre's): the first card left after
    /// the deal is turned up; in a first round each seat from the dealer's left may only pass or
    /// order up its suit as trumps (`order_up`, the dealer then takes the card and discards
    /// one), in a second round pass or name another suit (`name_trump`); all passing twice, the
    /// hand is redealt, or with `passed_out = "dealer"` the dealer may not pass the second time.
    pub turned_up: bool,
    /// The declaration that orders up the turned card's suit (`effect = "order_up"`).
    pub order_up: Option<DeclId>,
    /// The declarer plays alone against every other seat, who are partners for the hand
    /// (`sides = "declarer-alone"`; otherwise the partnerships of `[flow] teams`).
    pub declarer_alone: bool,
    /// A search (the `expert` bot) deals worlds that agree with the bids and passes it saw
    /// (`search_reads_bids`, true unless set false).
    pub search_reads_bids: bool,
    /// The declaration that calls a partner's card (`effect = "call"`), for contracts with
    /// `call`.
    pub call: Option<DeclId>,
}

impl TricksFlow {
    /// The index into [`TricksFlow::orders`] of the order of the rules' set `orders` (0: the
    /// flow's, else a contract's) with trump suit `suit` (the deck's suit count: none).
    #[inline]
    pub fn order_index(&self, orders: usize, suit: usize) -> usize {
        let per = self.orders.first().map_or(1, |o| o.follows.len());
        orders * per + suit.min(per - 1)
    }
}

/// True when `amount` is one of the plain bids `listed`, or, without a list, on the ladder of
/// `minimum` to `maximum` in steps of `step` (`ladder`).
pub fn on_ladder(listed: &[i64], ladder: (i64, i64, i64), amount: i64) -> bool {
    let (minimum, step, maximum) = ladder;
    if listed.is_empty() {
        (minimum..=maximum).contains(&amount) && (amount - minimum) % step.max(1) == 0
    } else {
        listed.contains(&amount)
    }
}

impl Auction {
    /// The plain (value) bids that outrank `high` (none yet: `None`), lowest first: on a ladder,
    /// those at least a step above it; from a list, those above it.
    pub fn plain_bids_over(&self, high: Option<i64>) -> Vec<i64> {
        if !self.values {
            return Vec::new();
        }
        if !self.listed.is_empty() {
            return self
                .listed
                .iter()
                .copied()
                .filter(|&b| high.is_none_or(|h| b > h))
                .collect();
        }
        let step = self.step.max(1);
        let first = match high {
            None => self.minimum,
            Some(h) => {
                // The first value on the ladder at least a step above the highest bid.
                let k = (h + step - self.minimum + step - 1).div_euclid(step).max(0);
                self.minimum + k * step
            }
        };
        (first..=self.maximum).step_by(step as usize).collect()
    }

    /// True when `amount` is a plain bid of the auction (whatever is bid before it).
    pub fn is_plain_bid(&self, amount: i64) -> bool {
        self.values
            && on_ladder(
                &self.listed,
                (self.minimum, self.step, self.maximum),
                amount,
            )
    }

    /// The plain bids in words: `from 100 to 500 in steps of 10`, `one of 18, 20, 22`.
    pub fn plain_bids_words(&self) -> String {
        if self.listed.is_empty() {
            format!(
                "from {} to {} in steps of {}",
                self.minimum, self.maximum, self.step
            )
        } else {
            let list: Vec<String> = self.listed.iter().map(i64::to_string).collect();
            format!("one of {}", list.join(", "))
        }
    }

    /// The named contract bid with `amount`, if any.
    pub fn contract(&self, amount: i64) -> Option<&Contract> {
        self.contracts.iter().find(|c| c.bid == amount)
    }
}

/// The most `[[meld]]`s a ruleset holds (a meld is numbered by a `u16`; the bound keeps counting
/// a hand's melds quick, each meld being tried against the hand). One more is refused where it is
/// written.
pub const MAX_MELDS: usize = 1024;

/// The most combinations a ruleset's melds stand for with one trump suit (each listed meld one,
/// or one a suit; a pattern one a rank and suit): every combination is tried against a hand when
/// melds are counted, so the bound keeps that quick. The meld past it is refused where it is
/// written.
pub const MAX_MELD_COMBINATIONS: usize = 8192;

/// Which suit a meld's cards come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeldSuit {
    /// The listed kinds all in trumps.
    Trump,
    /// The listed kinds all in one suit other than trumps (each such suit a meld of its own).
    Plain,
    /// The listed kinds all in one suit, any (each suit a meld of its own).
    Any,
    /// One card of each listed kind in every suit (an "around": an Ace of each suit).
    Each,
    /// Exactly the listed cards (`cards`), whatever the trumps.
    Cards,
    /// Any suits, mixed: an `alike` pattern without `suit` (copies count).
    Mixed,
}

/// How a meld's cards are found: listed (`kinds` with `suit`, or `cards`), or a pattern matched
/// against the hand by rank (the attribute tricks follow, `[flow] rank`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeldPattern {
    /// The kinds of `kinds` with `suit`, or the cards of `cards`.
    Listed,
    /// `alike = n`: n cards of one rank (of `kinds` and `ranks` when given), from the suits
    /// `suit` says: any (`Mixed`, copies count), at least one of each (`Each`), or all of one
    /// (`Trump`, `Plain`, `Any`: in a double pack `alike = 2` is both copies of a card). Each
    /// rank is a meld of its own.
    Alike(u32),
    /// `run = n`: n cards of one suit whose ranks follow one another (of `kinds` and `ranks`
    /// when given), `copies` of each. Each run and suit is a meld of its own.
    Run(u32),
}

/// When a meld is shown (`moment`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeldMoment {
    /// Every seat's melds, once trumps are known and before the first lead (Pinochle).
    BeforePlay,
    /// One meld, by the player on lead, with its declaration (Schnapsen's marriage).
    Lead,
    /// One meld, by the winner of a trick before the draw, with its declaration (Bezique).
    WonTrick,
}

/// How a card shown in a meld after play may serve again in a later meld of the same seat
/// (`[flow] meld_reuse`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MeldReuse {
    /// In a meld of another class, never again in its own class (`other-class`, the default).
    #[default]
    OtherClass,
    /// In a meld of another class, and in its own class in a meld worth more than every meld
    /// of the class it has served in, never twice in one meld (`grow`: a royal marriage grows
    /// into a flush, a pinochle into a double pinochle, never the lower after the higher).
    Grow,
    /// In no other meld (`none`).
    Never,
}

/// What a meld shown after play must hold that the seat has not shown before
/// (`[flow] meld_new_card`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MeldNewCard {
    /// Nothing: any cards the reuse rule allows (`none`, the default).
    #[default]
    Nothing,
    /// At least one card not shown before in a meld of its class (`class`).
    InClass,
    /// At least one card not shown before in any meld: laid out from the hand (`hand`).
    FromHand,
}

/// The rules over a seat's meld history after play: how a card shown may serve again, and
/// what a new meld must add.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MeldRules {
    /// How a card shown may serve again.
    pub reuse: MeldReuse,
    /// What counts as new, and must be in every meld.
    pub new_card: MeldNewCard,
}

/// Where a meld's points go (`adds_to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeldAddsTo {
    /// The seat's meld points (`melds_self` of the scoring script).
    Melds,
    /// The seat's card points (the target, a contract's goal, `points_self`).
    Points,
}

/// A meld (`[[meld]]`): a combination of cards shown from the hand at its moment and scored
/// from the table. `copies` asks for that many of each card (a double pinochle). A card may
/// serve in melds of different `class`es but only once within a class; before play the
/// combinations worth most are counted, and after it a card shown once serves again as the
/// rules over the seat's meld history say ([`MeldRules`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meld {
    /// Its id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// Its class: melds of one class share no card.
    pub class: String,
    /// Where its cards come from.
    pub suit: MeldSuit,
    /// The kinds it needs (one card of each), unless `suit` is `Cards`; for a pattern, the
    /// kinds its cards are of (empty: any).
    pub kinds: Vec<usize>,
    /// The cards it needs, for `suit = Cards` (one of each alike group).
    pub cards: Vec<crate::deck::CardId>,
    /// Copies of each card it needs (1; 2 for a double).
    pub copies: u32,
    /// Listed, or a pattern.
    pub pattern: MeldPattern,
    /// For a pattern: the ranks it may use (`ranks`; empty: every rank).
    pub ranks: Vec<i64>,
    /// Its points.
    pub points: i64,
    /// When it is shown.
    pub moment: MeldMoment,
    /// Shown on one's lead: the card led must be one of its cards, and showing it leads the
    /// card (`lead = "its-card"`; else it is shown first and any card is led).
    pub leads_its_card: bool,
    /// Its points count only once its holder has won a trick (`counts = "after-first-trick"`).
    pub needs_trick: bool,
    /// Where its points go.
    pub adds_to: MeldAddsTo,
    /// The declaration that shows it (a meld shown after play), by index.
    pub declaration: Option<DeclId>,
}

/// The flow of a trick-taking game (Schnapsen and its relatives): hands of cards, a trump suit
/// from a card turned up under the stock, tricks won by the highest card of the suit led or the
/// highest trump, declarations (marriages, exchanging the lowest trump, closing the stock,
/// claiming the target), and game points from the scoring script.
#[derive(Clone, Debug)]
pub struct TricksFlow {
    /// Seats at the table by default.
    pub players: u32,
    /// The fewest seats the rules allow.
    pub min_players: u32,
    /// The most seats the rules allow.
    pub max_players: u32,
    /// Partnerships: partners' tricks and points are pooled and they share one score.
    pub teams: Teams,
    /// Partnerships fixed by the deal (`partner_cards`): the seats holding a card of this set
    /// play together against the others (empty: no such rule). A seat holding every one of
    /// them plays alone against the rest.
    pub partner_cards: crate::deck::CardSet,
    /// Cards in each hand after the deal and after each draw (with `deal_all`, at the default
    /// table).
    pub hand_size: u32,
    /// The whole deck is dealt, evenly, with no stock and no card turned up (`deal = "all"`).
    pub deal_all: bool,
    /// `hand_size` cards each; the cards left lie face down as a talon, with no stock and no
    /// card turned up (`deal = "talon"`): a contract may give it to the declarer.
    pub talon: bool,
    /// Where the trump suit comes from.
    pub trump: TrumpRule,
    /// How cards take tricks: for the flow's rules, then each contract with rules of its own,
    /// one [`TrickOrder`] for each trump suit and one for none (`suits + 1` a set; see
    /// [`TricksFlow::order_index`]).
    pub orders: Vec<TrickOrder>,
    /// The trumps as written (`trump_cards`), for the rule sheet: empty for the trump suit alone.
    pub trump_cards: String,
    /// The rules of the first trick and of leading.
    pub lead_rules: LeadRules,
    /// Passing cards before play, if the rules hold it.
    pub passing: Option<Passing>,
    /// The lowest total wins the game (`lowest_wins = true`), and the bots take card points as
    /// penalties: they pass, lead and throw to take as few as they can.
    pub lowest_wins: bool,
    /// The auction before play, if the rules hold one.
    pub auction: Option<Auction>,
    /// The melds, in ruleset order: those shown before the first lead (once trumps are known)
    /// and those shown with a declaration on one's lead or on winning a trick.
    pub melds: Vec<Meld>,
    /// Every meld ready for play: its instances for every trump suit, computed once.
    pub meld_table: super::melds::MeldTable,
    /// The packets each hand is dealt in, in order (each player gets each packet in turn,
    /// the seat after the dealer first).
    pub deal_packets: Vec<u32>,
    /// The attribute that orders cards within a suit (higher wins).
    pub rank: usize,
    /// The attribute that gives a card's points.
    pub card_points: usize,
    /// The deck's cards by their points (`card_points`), each value once: a pile's points are
    /// a popcount per value instead of a look-up per card (a search counts them at every view).
    pub cards_by_points: Vec<(i64, crate::deck::CardSet)>,
    /// The card points that win a hand.
    pub target: i64,
    /// What must be played to a trick once the stock is gone or closed (from the first trick
    /// where nothing is left in a stock).
    pub follow: FollowRules,
    /// The cards of which, when two alike ones (a double pack) are the best of a trick, the
    /// later played wins (`equal_cards = "last"`: every card; `equal_cards_last`: the cards it
    /// names with their copies; else none, the first played wins).
    pub later_equal_wins: crate::deck::CardSet,
    /// Whether the target must be claimed.
    pub claim: ClaimRule,
    /// Only a player who has won a trick may exchange the lowest trump.
    pub exchange_needs_trick: bool,
    /// Card points for winning the last trick (0: none).
    pub last_trick_points: i64,
    /// Whether a player may look at the tricks they have won (and so see their points).
    pub look_at_own_tricks: bool,
    /// How long a game lasts.
    pub length: GameLength,
    /// Who deals first.
    pub first_dealer: FirstDealer,
    /// Who deals after each hand.
    pub next_dealer: NextDealer,
    /// The declarations that show a meld after play (`effect = "meld"`, or the shorthand
    /// `"marriage"`), in ruleset order.
    pub meld_declarations: Vec<DeclId>,
    /// The declaration that shows no meld on winning a trick (`effect = "pass"`).
    pub pass: Option<DeclId>,
    /// The declarations by effect: exchange the lowest trump for the turned-up trump.
    pub exchange: Option<DeclId>,
    /// Close the stock.
    pub close: Option<DeclId>,
    /// Claim the target.
    pub claim_declaration: Option<DeclId>,
    /// The announcements that raise the stake or set a target (`[[flow.announcement]]`), in
    /// ruleset order; empty in most games, which then pay nothing for them.
    pub announcements: Vec<Announcement>,
}

/// Who may make an announcement (`by`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnnounceBy {
    /// The declarer and its partners (`"declarer"`).
    Declarer,
    /// The seats against the declarer (`"defenders"`).
    Defenders,
    /// Any seat (`"any"`).
    Any,
}

/// An announcement that raises the stake or sets a target (`[[flow.announcement]]`: Schafkopf's
/// Kontra and Re, a Schneider announced): made with its `[[declaration]]` (`effect =
/// "announce"`) by a seat of `by` on its turn during play, while it has played fewer than
/// `until_card` cards this hand, once a hand, and only after `after` was made. The hand's
/// settlement is multiplied by the `factor` of each announcement made; the scoring script reads
/// them (`hand.announcements`, `hand.stake`) with whether the announcing side reached its
/// target (`points`, `min_tricks`, `max_tricks`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Announcement {
    /// Its id: the declaration's, as records and the scoring script name it.
    pub id: String,
    /// Its display name (the declaration's).
    pub name: String,
    /// The declaration it is made with.
    pub decl: DeclId,
    /// Who may make it.
    pub by: AnnounceBy,
    /// It may be made while the announcer has played fewer cards than this to tricks this hand
    /// (1: before its first card).
    pub until_card: u32,
    /// The announcement (an index of [`TricksFlow::announcements`]) that must have been made
    /// first this hand.
    pub after: Option<usize>,
    /// What it multiplies the hand's settlement by (1: it only sets a target).
    pub factor: i64,
    /// The target the announcing side then must reach (empty: none), judged at the hand's end.
    pub target: ContractGoal,
}

impl ContractGoal {
    /// Whether a side with `points` and `tricks` of a hand of `total` tricks reached this goal
    /// as an announced target, judged at the hand's end (an empty goal is reached).
    pub fn reached(&self, points: i64, tricks: u32, total: u32) -> bool {
        let need = match self.min_tricks {
            Some(TrickCount::All) => total,
            Some(TrickCount::Count(n)) => n,
            None => 0,
        };
        self.points.is_none_or(|p| points >= p)
            && tricks >= need
            && self.max_tricks.is_none_or(|m| tricks <= m)
    }
}

/// The product of `factors`, held at `i64::MAX` (many large factors cannot overflow it): the
/// stake a hand's announcements make.
pub fn stake_of(factors: impl Iterator<Item = i64>) -> i64 {
    factors.fold(1i64, |p, f| p.saturating_mul(f))
}

/// One announcement made by `seat` as the scoring script reads it: `#{ id, seat, side, factor,
/// reached }` (`side`: `"self"` when made by the scored side, else `"opponent"`).
pub fn announcement_fact(
    a: &Announcement,
    seat: usize,
    ours: bool,
    reached: bool,
) -> crate::script::FactValue {
    use crate::script::FactValue;
    FactValue::Map(vec![
        ("id".into(), FactValue::Text(a.id.clone())),
        ("seat".into(), FactValue::Int(seat as i64)),
        (
            "side".into(),
            FactValue::Text(if ours { "self" } else { "opponent" }.into()),
        ),
        ("factor".into(), FactValue::Int(a.factor)),
        ("reached".into(), FactValue::Bool(reached)),
    ])
}
