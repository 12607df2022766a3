//! The trick-taking core: the deal for any number of seats (a trump card turned up under the
//! stock, or the whole deck dealt), an auction whose winner names trumps, melds shown before the
//! first lead, on one's lead or on winning a trick, tricks of one card a seat won by the best
//! card of the suit led or the best trump (the first or the last of two alike cards, as the
//! rules say), drawing from the stock after each trick, the follow rules once the stock is gone
//! or closed, and the declarations a leader may make (melds such as marriages, exchanging the
//! lowest trump, closing the stock, claiming the target).
//! Partners pool their tricks. Game points come from the ruleset's scoring script. No game is
//! named here.

use super::melds::{self, MeldTable, Melded, Reuse, Shown};
use super::phase::Phase;
use super::view::TricksView;
use crate::core::{
    Action, DeclId, Event, Game, HandEnd, HandResult, IllegalAction, Ledger, PerSeat, Seat,
    SeatSettlement, StartError, StartOptions, next_seat, same_family,
};
use crate::deck::{CardId, CardSet, shuffle};
use crate::ruleset::{
    ClaimRule, FirstDealer, FirstLead, Flow, FollowRules, GameLength, MAX_SEATS, MeldAddsTo,
    MeldMoment, PassedOut, Ruleset, TrickOrder, TricksFlow, TrumpRule,
};
use crate::script::HandFacts;
use crate::yaku::HandOutcome;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};
use std::sync::Arc;

mod alone;
mod announce;
mod auction;
mod conditions;
mod copy;
mod facts;
mod lead;
mod partners;
mod seat_view;
mod turned;
mod worlds;

pub use announce::{Announced, staked};
pub use facts::{SeatFacts, TrickFacts};

/// How the hands of a trick-taking game end.
pub mod ends {
    use crate::core::HandEnd;
    /// A player claimed the target and had it (or reached it, where that ends the hand).
    pub const CLAIM: HandEnd = HandEnd("claim");
    /// A player claimed the target without having it.
    pub const FALSE_CLAIM: HandEnd = HandEnd("false_claim");
    /// The player who closed the stock failed to reach the target first.
    pub const FAILED_CLOSE: HandEnd = HandEnd("failed_close");
    /// Neither closed nor went out: the last trick decides (or every trick was played, in
    /// rules without a target within the hand).
    pub const LAST_TRICK: HandEnd = HandEnd("last_trick");
    /// Every player passed in the auction and the hand was not played.
    pub const PASSED_OUT: HandEnd = HandEnd("passed_out");
    /// The declarer's side made its contract's goal.
    pub const MADE: HandEnd = HandEnd("made");
    /// The declarer's side can no longer make its contract's goal.
    pub const SET: HandEnd = HandEnd("set");
}

/// A trick-taking game in progress.
#[derive(Clone, Debug)]
pub struct TricksGame {
    /// Scores, hands, round, dealer, deals, events, error: the bookkeeping every game keeps.
    ledger: Ledger,
    ruleset: Arc<Ruleset>,
    flow: Arc<TricksFlow>,
    rng: Xoshiro256PlusPlus,
    orders: std::vec::IntoIter<Vec<CardId>>,
    /// The game ends with the hand in progress (a searching bot's playout reads that hand's
    /// result alone: the next deal would be dealt for nothing).
    ends_with_hand: bool,
    phase: Phase,
    turn: Seat,
    leader: Seat,
    hands: PerSeat<CardSet>,
    /// The stock, drawn from `stock_pos` on; while the trump card lies under it, it is the last.
    stock: Vec<CardId>,
    stock_pos: usize,
    /// The turned-up trump card, while it is under the stock.
    trump_card: Option<CardId>,
    /// Bidding on a turned-up card: the card turned up, while it lies face up or is turned down
    /// (`turned_down`, the second round).
    turned: Option<CardId>,
    turned_down: bool,
    trump_suit: usize,
    /// How the hand's cards take tricks (its contract's and trump suit's): an index into the
    /// flow's [`TricksFlow::orders`], set with the trump suit.
    trick_order: u16,
    closed_by: Option<Seat>,
    /// The card led to the trick in progress.
    led: Option<CardId>,
    /// The trick in progress, the lead first (`trick_len` cards).
    trick: [CardId; MAX_SEATS],
    trick_len: usize,
    /// The seat whose card is the trick's best so far, and the card.
    best: Seat,
    best_card: CardId,
    /// The follow rules of the hand (the contract's, or the flow's).
    follow: FollowRules,
    /// Seats that have passed in the auction (a bit each).
    passed: u8,
    /// The highest bid so far and its bidder.
    high_bid: Option<(Seat, i64)>,
    /// The auction's winner, once it is over.
    declarer: Option<Seat>,
    /// The card the declarer called (a contract with `call`): its holder is the partner.
    called: Option<CardId>,
    /// The seats every player knows do not hold the called card (a bit each): with
    /// `call_answer`, a seat that followed the called suit with another card.
    called_absent: u8,
    /// The seats that sit out the hand (a bit each): the declarer's partners under a contract
    /// played alone.
    sitting_out: u8,
    /// The talon (`deal = "talon"`): the cards left after the deal, face down, and once the
    /// declarer took it, the cards it discarded.
    talon: CardSet,
    /// The declarer took the talon (and so knows what lies there).
    talon_taken: bool,
    /// Cards the declarer has still to discard.
    to_discard: u32,
    /// The points of the melds each seat showed this hand.
    scored: PerSeat<MeldScore>,
    /// Every meld shown this hand, by seat.
    melded: Vec<(Seat, Melded)>,
    /// The leader showed a meld on this lead without leading (one meld a lead).
    lead_shown: bool,
    won: PerSeat<CardSet>,
    tricks: PerSeat<u32>,
    /// Meld cards shown and not yet played (public).
    shown: CardSet,
    last_trick: Option<Seat>,
    /// The auction of the hand so far, in order: each seat's bid or pass with the highest bid
    /// it was made over (a search deals worlds that agree with it).
    bidding: Vec<BidSeen>,
    /// The cards each seat has played to tricks this hand.
    played: PerSeat<CardSet>,
    /// A card of `broken_by` has been played this hand.
    broken: bool,
    /// Which of each seat's own facts (`SeatFacts::NAMES`, a bit each) the scoring script may
    /// read: asked once, as a search ends many hands.
    reads_seat_facts: u8,
    /// The hand's tricks as played, kept only where the scoring script reads `tricks_played`.
    pub(super) trick_log: Option<Vec<facts::PlayedTrick>>,
    /// The scoring script reads `trump_suit`.
    reads_trump_suit: bool,
    /// The hand's cards as dealt, kept only where the scoring script reads `dealt_hands` or
    /// `dealt_talon`.
    pub(super) dealt: Option<Box<facts::DealtCards>>,
    /// The cards each seat has set aside to pass (while passing), then the cards it passed
    /// (which it knows the receiver holds).
    gave: PerSeat<CardSet>,
    /// The announcements made this hand (`[[flow.announcement]]`), in order: empty, and never
    /// allocated, in a game without them.
    announced: Vec<Announced>,
}

/// One move of the auction as every seat saw it: who made it, the highest bid it was made
/// over, and the bid or the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BidSeen {
    seat: Seat,
    over: Option<(Seat, i64)>,
    action: Action,
}

/// The points of the melds a seat showed this hand, by where they go, those that count once the
/// seat has won a trick apart until it has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct MeldScore {
    /// Meld points (`melds_self`).
    melds: i64,
    /// Points added to the card points.
    points: i64,
    /// Meld points waiting for the seat's first trick.
    pending_melds: i64,
    /// Card points waiting for the seat's first trick.
    pending_points: i64,
}

/// Worlds a search deals to find one that agrees with the bidding, before it takes the one
/// that agrees best.
const WORLD_TRIES: usize = 24;

/// Starts a trick-taking game; the first hand is dealt at once.
pub fn start(ruleset: Arc<Ruleset>, options: StartOptions) -> Result<TricksGame, StartError> {
    let Flow::Tricks(flow) = &ruleset.flow else {
        return Err(StartError::Options {
            message: format!("ruleset `{}` is not a trick-taking game", ruleset.id),
        });
    };
    let flow = Arc::clone(flow);
    let seats = options.seats.unwrap_or(flow.players as usize);
    if !(flow.min_players as usize..=flow.max_players as usize).contains(&seats) {
        let allowed = if flow.min_players == flow.max_players {
            format!("{}", flow.players)
        } else {
            format!("{} to {}", flow.min_players, flow.max_players)
        };
        return Err(StartError::Options {
            message: format!("`{}` seats {allowed} players, not {seats}", ruleset.id),
        });
    }
    let rounds = options.rounds.unwrap_or(match flow.length {
        GameLength::Rounds(n) => n,
        GameLength::Target { max_rounds, .. } => max_rounds,
    });
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(options.seed);
    let dealer = match flow.first_dealer {
        FirstDealer::First => 0,
        FirstDealer::Random => rng.random_range(0..seats),
    };
    let dealer = options.first_dealer.map_or(dealer, |d| d.min(seats - 1));
    let carried = options
        .carried
        .unwrap_or_else(|| crate::core::Carried::new(&ruleset.carry, seats));
    let mut game = TricksGame {
        ruleset,
        flow,
        rng,
        orders: options.deck_orders.into_iter(),
        ledger: Ledger {
            carried,
            ..Ledger::new(seats, 0, rounds, dealer, options.log_events)
        },
        ends_with_hand: false,
        phase: Phase::Lead,
        turn: 0,
        leader: 0,
        hands: PerSeat::new(seats),
        stock: Vec::new(),
        stock_pos: 0,
        trump_card: None,
        turned: None,
        turned_down: false,
        trump_suit: 0,
        trick_order: 0,
        closed_by: None,
        led: None,
        trick: [CardId(0); MAX_SEATS],
        trick_len: 0,
        best: 0,
        best_card: CardId(0),
        follow: FollowRules::FREE,
        passed: 0,
        high_bid: None,
        declarer: None,
        called: None,
        called_absent: 0,
        sitting_out: 0,
        talon: CardSet::EMPTY,
        talon_taken: false,
        to_discard: 0,
        scored: PerSeat::new(seats),
        melded: Vec::new(),
        lead_shown: false,
        won: PerSeat::new(seats),
        tricks: PerSeat::new(seats),
        shown: CardSet::EMPTY,
        last_trick: None,
        bidding: Vec::new(),
        played: PerSeat::new(seats),
        broken: false,
        reads_seat_facts: 0,
        trick_log: None,
        reads_trump_suit: false,
        dealt: None,
        gave: PerSeat::new(seats),
        announced: Vec::new(),
    };
    if let Some(script) = &game.ruleset.scoring {
        game.reads_seat_facts = (SeatFacts::NAMES.iter().enumerate())
            .filter(|(_, n)| script.may_read(n))
            .fold(0, |bits, (i, _)| bits | 1 << i);
        game.trick_log = script.may_read("tricks_played").then(Vec::new);
        game.reads_trump_suit = script.may_read("trump_suit");
        if script.may_read("dealt_hands") || script.may_read("dealt_talon") {
            game.dealt = Some(Box::new(facts::DealtCards {
                hands: PerSeat::new(seats),
                talon: CardSet::EMPTY,
            }));
        }
    }
    game.ledger.start_at(options.first_hand);
    game.start_hand();
    Ok(game)
}

impl TricksGame {
    /// The flow options.
    pub fn flow(&self) -> &TricksFlow {
        &self.flow
    }

    /// What the game waits for.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat that must act, or `None` when the game is over.
    pub fn to_act(&self) -> Option<Seat> {
        (self.phase != Phase::GameOver).then_some(self.turn)
    }

    /// A seat's hand (hidden from the other).
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }

    /// The dealer of the hand in progress.
    pub fn dealer(&self) -> Seat {
        self.ledger.dealer
    }

    /// The seat leading the trick in progress.
    pub fn leader(&self) -> Seat {
        self.leader
    }

    /// The card led to the trick in progress.
    pub fn led(&self) -> Option<CardId> {
        self.led
    }

    /// The trump suit (an index into the deck's suits).
    pub fn trump_suit(&self) -> usize {
        self.trump_suit
    }

    /// The turned-up trump card, while it lies under the stock.
    pub fn trump_card(&self) -> Option<CardId> {
        self.trump_card
    }

    /// Cards left in the stock, the turned-up trump included.
    pub fn stock_len(&self) -> usize {
        self.stock.len() - self.stock_pos
    }

    /// The seat that closed the stock, if one did.
    pub fn closed_by(&self) -> Option<Seat> {
        self.closed_by
    }

    /// The cards a seat has won in tricks.
    pub fn won(&self, seat: Seat) -> CardSet {
        self.won[seat]
    }

    /// The cards and the number of tricks each seat has won this hand, for a view to borrow.
    pub fn won_and_tricks(&self) -> (&PerSeat<CardSet>, &PerSeat<u32>) {
        (&self.won, &self.tricks)
    }

    /// Tricks a seat has won this hand.
    pub fn tricks(&self, seat: Seat) -> u32 {
        self.tricks[seat]
    }

    /// The points a seat's melds added to its card points this hand, counted or pending (a
    /// marriage's, in Schnapsen).
    pub fn declared_points(&self, seat: Seat) -> i64 {
        self.scored[seat].points + self.scored[seat].pending_points
    }

    /// The points a seat's melds will add to its card points once it wins a trick.
    pub fn pending_points(&self, seat: Seat) -> i64 {
        self.scored[seat].pending_points
    }

    /// The meld points a seat will count once it wins a trick.
    pub fn pending_meld_points(&self, seat: Seat) -> i64 {
        self.scored[seat].pending_melds
    }

    /// The winner of the hand's last trick, once it is played.
    pub fn last_trick_winner(&self) -> Option<Seat> {
        self.last_trick
    }

    /// Meld cards shown and not yet played.
    pub fn shown(&self) -> CardSet {
        self.shown
    }

    /// The cards of the trick in progress, the lead first.
    pub fn trick(&self) -> &[CardId] {
        &self.trick[..self.trick_len]
    }

    /// The seat whose card is the best of the trick in progress so far, with the card.
    pub fn best(&self) -> Option<(Seat, CardId)> {
        (self.trick_len > 0).then_some((self.best, self.best_card))
    }

    /// The follow rules of the hand in progress (a contract's, or the flow's).
    pub fn follow_rules(&self) -> FollowRules {
        self.follow
    }

    /// True when the hand has trumps (a suit named or turned up, or the cards the rules or the
    /// contract make trumps).
    pub fn has_trumps(&self) -> bool {
        !self.trick_order().trumps.is_empty()
    }

    /// How the hand's cards take tricks: which are trumps, the suit each follows as, its
    /// strength.
    #[inline]
    pub fn trick_order(&self) -> &TrickOrder {
        &self.flow.orders[self.trick_order as usize]
    }

    /// Trumps are `suit` (the deck's suit count: no trump suit) under the hand's contract:
    /// the trump suit and the order of play with it.
    fn set_trumps(&mut self, suit: usize) {
        self.trump_suit = suit;
        let rules = self.contract().map_or(0, |c| c.orders);
        self.trick_order = self.flow.order_index(rules, suit) as u16;
    }

    /// The highest bid of the auction so far, with its bidder.
    pub fn high_bid(&self) -> Option<(Seat, i64)> {
        self.high_bid
    }

    /// True when `seat` has passed in this hand's auction.
    pub fn has_passed(&self, seat: Seat) -> bool {
        self.passed & (1 << seat) != 0
    }

    /// The auction's winner, once the auction is over.
    pub fn declarer(&self) -> Option<Seat> {
        self.declarer
    }

    /// The contract the auction's winner plays, once the auction is over.
    pub fn contract(&self) -> Option<&crate::ruleset::Contract> {
        let a = self.flow.auction.as_ref()?;
        self.declarer?;
        a.contract(self.high_bid?.1)
    }

    /// The talon: the cards left after the deal (or the declarer's discards), face down.
    pub fn talon(&self) -> CardSet {
        self.talon
    }

    /// True when the declarer took the talon.
    pub fn talon_taken(&self) -> bool {
        self.talon_taken
    }

    /// Tricks played so far this hand.
    pub fn tricks_played(&self) -> u32 {
        self.tricks.iter().sum()
    }

    /// The meld points `seat` showed this hand that count now (those added to its card points
    /// are in [`TricksGame::points`]).
    pub fn meld_points(&self, seat: Seat) -> i64 {
        self.scored[seat].melds
    }

    /// Every meld ready for play (its instances for every trump suit).
    pub fn meld_table(&self) -> &MeldTable {
        &self.flow.meld_table
    }

    /// Every meld shown this hand, by seat.
    pub fn melded(&self) -> &[(Seat, Melded)] {
        &self.melded
    }

    /// The side of `seat` for the hand in progress: its partnership (its own seat without
    /// partnerships), or, where the declarer plays alone, the declarer's side (0) against every
    /// other seat (1) once the auction is won.
    pub fn team_of(&self, seat: Seat) -> usize {
        if let Some(team) = self.marked_team_of(seat) {
            return team;
        }
        match (&self.flow.auction, self.declarer) {
            (Some(a), Some(d)) if a.declarer_alone => usize::from(seat != d),
            _ => self.flow.teams.team_of(seat),
        }
    }

    /// The card points of `seat`'s side: its own, or its partnership's pooled.
    pub fn side_points(&self, seat: Seat) -> i64 {
        let team = self.team_of(seat);
        (0..self.hands.len())
            .filter(|&s| self.team_of(s) == team)
            .map(|s| self.points(s))
            .sum()
    }

    /// A card's points.
    pub fn card_points(&self, card: CardId) -> i64 {
        self.ruleset.deck.attributes[self.flow.card_points].values[card.index()]
    }

    /// A card's rank within its suit (higher wins).
    pub fn rank(&self, card: CardId) -> i64 {
        self.ruleset.deck.attributes[self.flow.rank].values[card.index()]
    }

    /// The points `seat` has now: its tricks' card points, the melds added to them once they
    /// count (Schnapsen's marriages), and the last trick's points.
    pub fn points(&self, seat: Seat) -> i64 {
        let won = self.won[seat];
        let cards: i64 = (self.flow.cards_by_points.iter())
            .map(|&(points, cards)| points * i64::from((won & cards).len()))
            .sum();
        let last = if self.last_trick == Some(seat) {
            self.flow.last_trick_points
        } else {
            0
        };
        cards + self.scored[seat].points + last
    }

    /// True when the follow rules apply: the stock is gone or closed.
    pub fn strict(&self) -> bool {
        self.closed_by.is_some() || self.stock_len() == 0
    }

    fn suit(&self, card: CardId) -> usize {
        self.ruleset.deck.card(card).suit
    }

    /// The trump suit's cards, as printed (the lowest trump exchanged for the turned-up card is
    /// of them).
    fn trumps(&self) -> CardSet {
        self.ruleset
            .deck
            .suits
            .get(self.trump_suit)
            .map_or(CardSet::EMPTY, |s| s.cards)
    }

    /// The lowest trump of the deck: the card that may be exchanged for the turned-up trump.
    pub fn lowest_trump(&self) -> Option<CardId> {
        self.trumps().iter().min_by_key(|&c| self.rank(c))
    }

    /// True when `b`, played to a trick whose best card so far is `a`, beats it: a higher card
    /// of its suit, or a trump over another suit; of two alike cards the first stays best
    /// unless the rules say the last wins.
    #[inline]
    pub fn beats(&self, b: CardId, a: CardId) -> bool {
        self.trick_order().beats(b, a, self.flow.later_equal_wins)
    }

    /// The cards `seat` may play to the trick in progress: those the follow rules allow, less
    /// the cards barred from the first trick where that leaves any.
    pub fn playable(&self, seat: Seat) -> CardSet {
        if self.called.is_some()
            && let Some(card) = self.answer_call(seat)
        {
            return CardSet::single(card);
        }
        let cards = self.follow_set(seat);
        if self.flow.lead_rules.not_on_first_trick.is_empty() {
            return cards;
        }
        self.first_trick_filter(cards)
    }

    /// The cards the follow rules let `seat` play to the trick in progress.
    #[inline]
    fn follow_set(&self, seat: Seat) -> CardSet {
        let hand = self.hands[seat];
        let Some(led) = self.led else { return hand };
        if !self.strict() {
            return hand;
        }
        let rules = self.follow;
        // Every trump follows as the trump suit, whatever its printed suit.
        let order = self.trick_order();
        let led_suit = order.suit(led);
        let same = hand & order.follows[led_suit as usize];
        if rules.suit && !same.is_empty() {
            if rules.head && order.suit(self.best_card) == led_suit {
                let higher: CardSet = same
                    .iter()
                    .filter(|&c| self.beats(c, self.best_card))
                    .collect();
                if !higher.is_empty() {
                    return higher;
                }
            }
            return same;
        }
        let trumps = hand & order.trumps;
        if rules.trump && !trumps.is_empty() {
            if rules.overtrump && order.suit(self.best_card) == order.trump {
                let higher: CardSet = trumps
                    .iter()
                    .filter(|&c| self.beats(c, self.best_card))
                    .collect();
                if !higher.is_empty() {
                    return higher;
                }
            }
            return trumps;
        }
        hand
    }

    /// Why `card` may not be played to the trick in progress (it is not in `playable`).
    fn follow_refusal(&self, seat: Seat) -> String {
        let deck = &self.ruleset.deck;
        let led = self.led.expect("a trick is led");
        let order = self.trick_order();
        let led_suit = order.suit(led);
        let suit = deck
            .suits
            .get(led_suit as usize)
            .map_or("trumps", |s| s.name.as_str());
        let when = if self.flow.deal_all || self.flow.talon {
            String::new()
        } else {
            " now that the stock is gone or closed".to_string()
        };
        let same = self.hands[seat] & order.follows[led_suit as usize];
        if let Some(card) = self.answer_call(seat) {
            return format!(
                "the called card's suit is led: you hold {}, and must play it",
                deck.card(card).name
            );
        }
        let allowed = self.follow_set(seat);
        if allowed != self.playable(seat) {
            return format!(
                "the first trick takes none of {} while you hold another card you may play",
                (allowed - self.playable(seat))
                    .iter()
                    .map(|c| deck.card(c).name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        if self.follow.suit && !same.is_empty() {
            if self.follow.head && same.iter().any(|c| self.beats(c, self.best_card)) {
                return format!("you must follow {suit} with a card that wins the trick");
            }
            if led_suit == order.trump && order.follows.len() > 1 {
                return format!("you must follow trumps with a trump{when}");
            }
            return format!("you must follow suit ({suit}){when}");
        }
        let trump = deck
            .suits
            .get(self.trump_suit)
            .map_or("trumps", |s| s.name.as_str());
        if self.follow.overtrump
            && order.suit(self.best_card) == order.trump
            && (self.hands[seat] & order.trumps)
                .iter()
                .any(|c| self.beats(c, self.best_card))
        {
            return format!("you have no {suit}, so you must beat the trump played ({trump})");
        }
        format!("you have no {suit}, so you must trump ({trump}){when}")
    }

    /// What `seat`'s meld history this hand lets meld `meld` use (the rules over it:
    /// `[flow] meld_reuse` and `meld_new_card`).
    fn reuse(&self, seat: Seat, meld: u16) -> Reuse {
        self.flow.meld_table.reuse(
            &self.flow.melds,
            meld,
            self.melded
                .iter()
                .filter(|(s, _)| *s == seat)
                .map(|(_, m)| m),
        )
    }

    /// The meld declaration `decl` shows for `seat` with `card` at `moment`, if any.
    pub fn meld_shown(
        &self,
        seat: Seat,
        decl: DeclId,
        moment: MeldMoment,
        card: CardId,
    ) -> Option<Shown> {
        self.flow.meld_table.shown(
            &self.flow.melds,
            decl,
            moment,
            self.trump_suit,
            self.hands[seat],
            card,
            |meld| self.reuse(seat, meld),
        )
    }

    /// The moves that show a meld of `moment` for `seat`, appended to `out`: for a meld shown
    /// by leading one of its cards, one move a card it may lead; for any other, one move a
    /// meld, naming its first card that shows it.
    fn meld_moves(&self, seat: Seat, moment: MeldMoment, out: &mut Vec<Action>) {
        let hand = self.hands[seat];
        if !self.flow.meld_table.shown_at(moment)
            || (hand & self.flow.meld_table.cards(self.trump_suit)).is_empty()
        {
            return;
        }
        let mut offered: Vec<Melded> = Vec::new();
        for &decl in &self.flow.meld_declarations {
            let cards = self.flow.meld_table.usable_cards(
                &self.flow.melds,
                decl,
                moment,
                self.trump_suit,
                hand,
                |meld| self.reuse(seat, meld),
            );
            if cards.is_empty() || !self.when_holds(decl, seat) {
                continue;
            }
            // Where every meld of the declaration at this moment leads its card, each usable
            // card leads one (the meld worth most with it): one move a card.
            if moment == MeldMoment::Lead
                && self
                    .flow
                    .melds
                    .iter()
                    .filter(|m| m.declaration == Some(decl) && m.moment == moment)
                    .all(|m| m.leads_its_card)
            {
                out.extend(cards.iter().map(|card| Action::Declare {
                    decl,
                    card: Some(card),
                }));
                continue;
            }
            for card in cards.iter() {
                let Some(shown) = self.meld_shown(seat, decl, moment, card) else {
                    continue;
                };
                let meld = &self.flow.melds[shown.melded.meld as usize];
                if moment == MeldMoment::Lead && meld.leads_its_card {
                    out.push(Action::Declare {
                        decl,
                        card: Some(card),
                    });
                } else if !offered.contains(&shown.melded) {
                    offered.push(shown.melded);
                    out.push(Action::Declare {
                        decl,
                        card: Some(card),
                    });
                }
            }
        }
    }

    /// True when the winner of the trick just played may show a meld before the draw: the rules
    /// have melds shown on winning a trick, a stock is left to draw from (or there is none in
    /// these rules), and the winner holds one.
    fn may_meld_on_win(&self, winner: Seat) -> bool {
        if !self.flow.meld_table.on_won_trick() || self.flow.pass.is_none() {
            return false;
        }
        let stock_open =
            self.stock.is_empty() || (self.closed_by.is_none() && self.stock_len() > 0);
        if !stock_open {
            return false;
        }
        let mut moves = Vec::new();
        self.meld_moves(winner, MeldMoment::WonTrick, &mut moves);
        !moves.is_empty()
    }

    /// `seat` shows `shown` with declaration `decl`, naming `card`: its points count (at once,
    /// or once the seat wins a trick) and its cards stay public until played.
    fn show_meld(&mut self, seat: Seat, decl: DeclId, card: CardId, shown: Shown) {
        let flow = Arc::clone(&self.flow);
        let meld = &flow.melds[shown.melded.meld as usize];
        let (adds_to, needs_trick, id) = (meld.adds_to, meld.needs_trick, &meld.id);
        self.add_meld_points(seat, adds_to, needs_trick, shown.points);
        self.melded.push((seat, shown.melded));
        self.shown |= shown.melded.cards;
        if self.ledger.log {
            self.emit(Event::Declared {
                player: seat,
                decl,
                card: Some(card),
            });
            self.emit(Event::Melded {
                player: seat,
                melds: vec![id.clone()],
                cards: shown.melded.cards.iter().collect(),
                points: shown.points,
            });
        }
    }

    /// Adds a meld's `points` to `seat`'s meld points or card points, pending until its first
    /// trick where the meld says so.
    fn add_meld_points(&mut self, seat: Seat, adds_to: MeldAddsTo, needs_trick: bool, points: i64) {
        let pending = needs_trick && self.tricks[seat] == 0;
        let score = &mut self.scored[seat];
        match (adds_to, pending) {
            (MeldAddsTo::Melds, false) => score.melds += points,
            (MeldAddsTo::Melds, true) => score.pending_melds += points,
            (MeldAddsTo::Points, false) => score.points += points,
            (MeldAddsTo::Points, true) => score.pending_points += points,
        }
    }

    fn may_exchange(&self, seat: Seat) -> bool {
        self.flow.exchange.is_some()
            && (!self.flow.exchange_needs_trick || self.tricks[seat] > 0)
            && self.closed_by.is_none()
            && self.trump_card.is_some()
            && self.stock_len() >= 2
            && self.exchange_card(seat).is_some()
    }

    /// The card `seat` would exchange for the turned-up trump: the lowest trump, or in a double
    /// pack a trump of its rank, in its hand, unless the card turned up is of that rank.
    fn exchange_card(&self, seat: Seat) -> Option<CardId> {
        let low = self.lowest_trump()?;
        let up = self.trump_card?;
        let rank = self.rank(low);
        if self.rank(up) == rank {
            return None;
        }
        let hand = self.hands[seat];
        if hand.contains(low) {
            return Some(low);
        }
        (hand & self.trumps())
            .iter()
            .find(|&c| self.rank(c) == rank)
    }

    fn may_close(&self) -> bool {
        self.flow.close.is_some() && self.closed_by.is_none() && self.stock_len() >= 2
    }

    fn emit(&mut self, event: Event) {
        if self.ledger.log {
            self.ledger.events.push(event);
        }
    }

    // ----- the hand's flow

    fn start_hand(&mut self) {
        self.ledger.round += 1;
        let n = self.ruleset.deck.cards.len();
        let mut deck = CardId::ALL;
        shuffle(&mut deck, n, &mut self.rng);
        let mut order = deck[..n].to_vec();
        if let Some(given) = self.orders.next().filter(|o| o.len() == n) {
            order = given;
        }
        self.ledger.dealt_orders.push(order.clone());
        let seats = self.hands.len();
        self.hands.fill(CardSet::EMPTY);
        self.won.fill(CardSet::EMPTY);
        self.tricks.fill(0);
        self.scored.fill(MeldScore::default());
        self.lead_shown = false;
        self.shown = CardSet::EMPTY;
        if let Some(log) = &mut self.trick_log {
            log.clear();
        }
        self.last_trick = None;
        self.closed_by = None;
        self.led = None;
        let (round, dealer) = (self.ledger.round, self.ledger.dealer);
        self.emit(Event::Deal { round, dealer });
        // 004 "How to play": five cards each (in the ruleset's packets, the seat after the dealer
        // first), then the next card is turned up for trumps and the stock laid across it.
        // With the whole deck dealt, each hand holds its share at this table; the packets
        // repeat until it is full.
        let per = if self.flow.deal_all {
            (n / seats) as u32
        } else {
            self.flow.hand_size
        };
        let mut next = 0;
        let mut dealt = 0;
        let flow = Arc::clone(&self.flow);
        for &k in flow.deal_packets.iter().cycle() {
            if dealt >= per {
                break;
            }
            let k = k.min(per - dealt);
            let mut s = next_seat(self.ledger.dealer, seats);
            for _ in 0..seats {
                for _ in 0..k {
                    self.hands[s].insert(order[next]);
                    next += 1;
                }
                s = next_seat(s, seats);
            }
            dealt += k;
        }
        self.trick_len = 0;
        self.passed = 0;
        self.high_bid = None;
        self.bidding.clear();
        self.played.fill(CardSet::EMPTY);
        self.gave.fill(CardSet::EMPTY);
        self.broken = false;
        self.declarer = None;
        self.called = None;
        self.called_absent = 0;
        self.sitting_out = 0;
        self.announced.clear();
        self.melded.clear();
        self.follow = self.flow.follow;
        self.stock.clear();
        self.stock_pos = 0;
        self.talon = CardSet::EMPTY;
        self.talon_taken = false;
        self.to_discard = 0;
        // Without a card turned up, trumps are fixed by the rules, or none until an auction's
        // winner names them.
        let no_card_trump = match self.flow.trump {
            TrumpRule::Fixed(suit) => suit,
            _ => self.ruleset.deck.suits.len(),
        };
        if self.flow.talon {
            // The cards left after the deal lie face down as the talon.
            self.talon = order[next..].iter().copied().collect();
            self.turn_up(&order[next..]);
            self.trump_card = None;
            self.set_trumps(no_card_trump);
        } else if self.flow.deal_all {
            // Every card is dealt.
            self.trump_card = None;
            self.set_trumps(no_card_trump);
        } else {
            let trump = order[next];
            self.set_trumps(self.suit(trump));
            self.trump_card = Some(trump);
            self.stock.extend_from_slice(&order[next + 1..]);
            self.stock.push(trump);
        }
        if let Some(dealt) = &mut self.dealt {
            dealt.hands = self.hands;
            dealt.talon = self.talon;
        }
        let passes = self.flow.passing.as_ref().map(|p| p.direction(round));
        if passes.is_some_and(|d| d != crate::ruleset::PassDirection::Keep) {
            // Each seat sets aside the cards it passes, the seat after the dealer first.
            self.turn = next_seat(self.ledger.dealer, seats);
            self.phase = Phase::Pass;
            return;
        }
        self.after_deal();
    }

    /// After the deal (and the passing): the auction, or play.
    fn after_deal(&mut self) {
        let seats = self.hands.len();
        if self.flow.auction.is_some() {
            // The auction starts with the seat after the dealer.
            self.turn = next_seat(self.ledger.dealer, seats);
            self.phase = Phase::Bid;
            return;
        }
        self.start_play();
    }

    /// Shows the melds (once trumps are known) and gives the first lead: to the seat after
    /// the dealer (004: "The non-dealer leads to the first trick."), or to the declarer where
    /// the auction says so.
    fn start_play(&mut self) {
        let seats = self.hands.len();
        if self
            .flow
            .melds
            .iter()
            .any(|m| m.moment == MeldMoment::BeforePlay)
        {
            let trump =
                (self.trump_suit < self.ruleset.deck.suits.len()).then_some(self.trump_suit);
            for s in 0..seats {
                let (points, found) = melds::best(
                    &self.flow.meld_table,
                    &self.flow.melds,
                    self.hands[s],
                    trump,
                );
                let mut cards = CardSet::EMPTY;
                for m in &found {
                    let meld = &self.flow.melds[m.meld as usize];
                    let (adds_to, needs_trick, p) = (meld.adds_to, meld.needs_trick, meld.points);
                    self.add_meld_points(s, adds_to, needs_trick, p);
                    cards |= m.cards;
                    self.melded.push((s, *m));
                }
                if !found.is_empty() {
                    self.shown |= cards;
                    self.emit(Event::Melded {
                        player: s,
                        melds: found
                            .iter()
                            .map(|m| self.flow.melds[m.meld as usize].id.clone())
                            .collect(),
                        cards: cards.iter().collect(),
                        points,
                    });
                }
            }
        }
        let first_lead = |a: &crate::ruleset::Auction| {
            self.contract()
                .and_then(|c| c.first_lead)
                .unwrap_or(a.first_lead)
        };
        let opening = (self.flow.lead_rules.opening_card)
            .and_then(|c| (0..seats).find(|&s| self.hands[s].contains(c)));
        self.leader = match (&self.flow.auction, self.declarer, opening) {
            // The holder of the opening card leads it.
            (_, _, Some(holder)) => holder,
            (Some(a), Some(d), None) if first_lead(a) == FirstLead::Declarer => d,
            _ => next_seat(self.ledger.dealer, seats),
        };
        self.turn = self.leader;
        self.phase = Phase::Lead;
        self.sit_out_partners();
    }

    /// The card that names `suit` as trumps: its first in the deck.
    pub fn suit_card(&self, suit: usize) -> Option<CardId> {
        self.ruleset.deck.suits.get(suit)?.cards.first_card()
    }

    fn draw(&mut self, seat: Seat) {
        if self.stock_pos < self.stock.len() {
            let c = self.stock[self.stock_pos];
            self.stock_pos += 1;
            if Some(c) == self.trump_card {
                self.trump_card = None;
            }
            self.hands[seat].insert(c);
        }
    }

    fn lead(&mut self, card: CardId) {
        let seat = self.turn;
        self.lead_shown = false;
        self.hands[seat].remove(card);
        self.played[seat].insert(card);
        self.shown.remove(card);
        self.broken |= self.flow.lead_rules.broken_by.contains(card);
        self.led = Some(card);
        self.trick[0] = card;
        self.trick_len = 1;
        self.best = seat;
        self.best_card = card;
        self.emit(Event::Played {
            player: seat,
            card,
            captured: Vec::new(),
        });
        self.turn = self.next_in_play(seat);
        self.phase = Phase::Follow;
    }

    fn follow(&mut self, card: CardId) {
        let seat = self.turn;
        let seats = self.hands.len();
        self.hands[seat].remove(card);
        self.played[seat].insert(card);
        self.shown.remove(card);
        self.broken |= self.flow.lead_rules.broken_by.contains(card);
        // 004: "A trick is taken by the highest card of the suit led or the highest trump card
        // in the trick."
        if self.beats(card, self.best_card) {
            self.best = seat;
            self.best_card = card;
        }
        if self.called.is_some() {
            self.note_called_absent(seat, card);
        }
        self.trick[self.trick_len] = card;
        self.trick_len += 1;
        let size = self.trick_size();
        if self.trick_len < size {
            self.emit(Event::Played {
                player: seat,
                card,
                captured: Vec::new(),
            });
            self.turn = self.next_in_play(seat);
            return;
        }
        let winner = self.best;
        let trick: CardSet = self.trick().iter().copied().collect();
        if self.trick_log.is_some() {
            self.log_trick(self.next_in_play(seat), winner, trick);
        }
        self.won[winner] |= trick;
        self.tricks[winner] += 1;
        if self.tricks[winner] == 1 {
            // Melds that count once their holder has won a trick count now.
            let score = &mut self.scored[winner];
            score.melds += std::mem::take(&mut score.pending_melds);
            score.points += std::mem::take(&mut score.pending_points);
        }
        self.led = None;
        self.trick_len = 0;
        if self.ledger.log {
            let cards = self.trick[..size].to_vec();
            self.emit(Event::Played {
                player: seat,
                card,
                captured: if winner == seat {
                    cards.clone()
                } else {
                    Vec::new()
                },
            });
            self.emit(Event::TrickWon {
                player: winner,
                cards,
            });
        }
        let last = self.hands_played_out();
        if last {
            self.last_trick = Some(winner);
        }
        if let Some(end) = self.contract_decided(last) {
            let d = self.declarer.expect("a contract has a declarer");
            self.end_hand(d, end);
            return;
        }
        if self.flow.claim == ClaimRule::Automatic && self.points(winner) >= self.flow.target {
            self.settle_claim(winner);
            return;
        }
        if last {
            // 004: a closer who did not reach the target loses; otherwise "the player who takes
            // the last trick wins one game point". After an auction the declarer's side is
            // scored.
            match (self.closed_by, self.declarer) {
                (Some(closer), _) => {
                    let other = next_seat(closer, seats);
                    self.end_hand(other, ends::FAILED_CLOSE);
                }
                (None, Some(d)) => self.end_hand(d, ends::LAST_TRICK),
                // Sides marked by the deal: the holders' side is scored.
                (None, None) if !self.flow.partner_cards.is_empty() => {
                    let side = self.marked_side();
                    let holder = (0..seats).find(|&s| side >> s & 1 != 0).unwrap_or(winner);
                    self.end_hand(holder, ends::LAST_TRICK);
                }
                (None, None) => self.end_hand(winner, ends::LAST_TRICK),
            }
            return;
        }
        if self.may_meld_on_win(winner) {
            // The winner may show a meld before the draw.
            self.turn = winner;
            self.phase = Phase::Meld;
            return;
        }
        self.draw_and_lead(winner);
    }

    /// After a trick `winner` won: each seat draws from the stock, the winner first, and the
    /// winner leads.
    fn draw_and_lead(&mut self, winner: Seat) {
        let seats = self.hands.len();
        // 004: "the winner ... takes the top card of the stock followed [by] the loser".
        if self.closed_by.is_none() {
            let mut s = winner;
            for _ in 0..seats {
                self.draw(s);
                s = next_seat(s, seats);
            }
        }
        self.leader = winner;
        self.turn = winner;
        self.phase = Phase::Lead;
    }

    /// Whether the contract in play is decided after a trick (`last`: the hand's last): made
    /// once its points are reached with no trick count still open, set once a trick count is
    /// broken, its points are missing after its `by_trick`, or the last trick leaves the goal
    /// short. A contract without a goal is decided by the scoring script.
    fn contract_decided(&self, last: bool) -> Option<HandEnd> {
        use crate::ruleset::TrickCount;
        let goal = self.contract()?.goal;
        if goal.is_empty() {
            return None;
        }
        let d = self.declarer?;
        let team = self.team_of(d);
        let seats = self.hands.len();
        let (mut points, mut taken) = (0i64, 0u32);
        for s in (0..seats).filter(|&s| self.team_of(s) == team) {
            points += self.points(s);
            taken += self.tricks[s];
        }
        let played = self.tricks_played();
        let total = played + self.hands[d].len();
        let lost = played - taken;
        let need = match goal.min_tricks {
            Some(TrickCount::All) => Some(total),
            Some(TrickCount::Count(n)) => Some(n),
            None => None,
        };
        let broken = goal.max_tricks.is_some_and(|m| taken > m)
            || need.is_some_and(|n| lost > total.saturating_sub(n))
            || goal
                .by_trick
                .is_some_and(|k| played >= k && goal.points.is_some_and(|p| points < p));
        if broken {
            return Some(ends::SET);
        }
        let points_made = goal.points.is_none_or(|p| points >= p);
        let tricks_made = need.is_none_or(|n| taken >= n);
        if points_made && goal.points.is_some() && tricks_made && goal.max_tricks.is_none() {
            return Some(ends::MADE);
        }
        last.then_some(if points_made && tricks_made {
            ends::MADE
        } else {
            ends::SET
        })
    }

    /// `seat` claims the target (or reached it where that ends the hand).
    fn settle_claim(&mut self, seat: Seat) {
        let other = next_seat(seat, self.hands.len());
        if self.points(seat) < self.flow.target {
            // 004: "the opponent wins 2 game points, or 3 if that opponent has taken no tricks".
            self.end_hand(other, ends::FALSE_CLAIM);
        } else if self.closed_by == Some(other) {
            // 004: the closer's opponent reached 66 first.
            self.end_hand(seat, ends::FAILED_CLOSE);
        } else {
            self.end_hand(seat, ends::CLAIM);
        }
    }

    /// The facts the scoring script sees for a hand `winner` won by `end` (after an auction,
    /// `winner` is the declarer): `self` is the winner's side (its partnership, or itself),
    /// `opponent` every other seat.
    fn facts(&self, winner: Seat, end: HandEnd) -> HandFacts {
        let seats = self.hands.len();
        let other = next_seat(winner, seats);
        let closer = match self.closed_by {
            Some(c) if c == winner => "self",
            Some(_) => "opponent",
            None => "none",
        };
        let team = self.team_of(winner);
        let (mut points, mut tricks, mut melds) = ([0i64; 2], [0i64; 2], [0i64; 2]);
        let mut opponent_seat = other;
        for s in (0..seats).map(|k| (winner + k) % seats) {
            let i = usize::from(self.team_of(s) != team);
            if i == 1 && self.team_of(opponent_seat) == team {
                opponent_seat = s;
            }
            points[i] += self.points(s);
            tricks[i] += i64::from(self.tricks[s]);
            melds[i] += self.scored[s].melds;
        }
        let a = self.flow.auction.as_ref();
        let bid = self.high_bid.filter(|_| self.declarer.is_some());
        let contract = bid.and_then(|(_, b)| a.and_then(|a| a.contract(b)));
        let value = contract.map_or(0, |c| c.value);
        let contract = contract.map_or_else(String::new, |c| c.id.clone());
        let mut facts = TrickFacts {
            end: end.0.to_string(),
            points,
            tricks,
            closer: closer.to_string(),
            melds,
            bid: bid.map_or(0, |(_, b)| b),
            contract,
            value,
            seat: winner,
            opponent_seat,
            side: (0..seats)
                .filter(|&s| self.team_of(s) == team)
                .fold(0, |bits, s| bits | 1 << s),
            seats,
            round: i64::from(self.ledger.round),
            rounds: i64::from(self.ledger.rounds),
            dealer: winner == self.ledger.dealer,
            by_seat: self.seat_facts(),
            played: self.trick_log.clone(),
            trump_suit: self.trump_suit_fact(),
            dealt: self.dealt_fact(),
            announcements: (!self.flow.announcements.is_empty())
                .then(|| (self.announcement_facts(winner), self.stake())),
        }
        .hand_facts();
        if !self.ledger.carried.is_empty() {
            let carry = self.ledger.carried.fact(&self.ruleset.carry);
            facts.extra.push(("carry", carry));
        }
        facts
    }

    /// Each seat's own tricks, where the scoring script may read them (they are built only
    /// then: a search ends many hands).
    fn seat_facts(&self) -> Option<SeatFacts> {
        if self.reads_seat_facts == 0 {
            return None;
        }
        // The captured cards' ids are built only where the script reads them.
        let reads_won = self.reads_seat_facts & 1 << 2 != 0;
        let deck = &self.ruleset.deck;
        let seats = self.hands.len();
        Some(SeatFacts {
            points: (0..seats).map(|s| self.points(s)).collect(),
            tricks: (0..seats).map(|s| i64::from(self.tricks[s])).collect(),
            won: (0..seats)
                .map(|s| match reads_won {
                    true => self.won[s]
                        .iter()
                        .map(|c| deck.id_of(c).to_string())
                        .collect(),
                    false => Vec::new(),
                })
                .collect(),
            last_trick: self.last_trick.map_or(-1, |s| s as i64),
        })
    }

    fn end_hand(&mut self, winner: Seat, end: HandEnd) {
        let seats = self.hands.len();
        let facts = self.facts(winner, end);
        // The script's result is remembered for the facts it reads (Schnapsen's: the end, the
        // other side's card points and tricks, the winner's tricks), which repeat often: 83% of
        // a search's playouts find it, and 62% of the hands of 200 greedy games.
        let scored = match &self.ruleset.scoring {
            Some(script) => script.score_memo(&facts).map(|o| o.as_ref().clone()),
            None => Ok(crate::script::ScoreOutcome::of_total(1)),
        };
        let outcome = match scored {
            Ok(o) if self.announced.is_empty() => o,
            Ok(o) => self.staked(o),
            Err(e) => {
                self.ledger.error = Some(e);
                self.phase = Phase::GameOver;
                return;
            }
        };
        // The winner's side scores the total, every other seat the opponent's points.
        let team = self.team_of(winner);
        let mut points: PerSeat<i64> = PerSeat::new(seats);
        for (s, p) in points.iter_mut().enumerate() {
            *p = if self.team_of(s) == team {
                outcome.total
            } else {
                outcome.opponent
            };
        }
        // The one settlement shape of every family: a script may settle every seat itself,
        // name the winner, carry values into the next hand, and be held to a zero sum.
        let said = SeatSettlement {
            seats: &outcome.seats,
            named: outcome.winner,
        };
        let settled = said
            .resolve(seats, Some(winner))
            .and_then(|(w, by_seat)| {
                if let Some(by_seat) = by_seat {
                    points = by_seat;
                }
                if !outcome.carry.is_empty() {
                    self.ledger
                        .carried
                        .apply(&self.ruleset.carry, &outcome.carry)?;
                }
                Ok(w)
            })
            .map_err(|message| self.ruleset.script_failure(message))
            .and_then(|w| match &self.ruleset.scoring {
                Some(s) if s.is_zero_sum() => s.check_zero_sum(&points, "seat").map(|()| w),
                _ => Ok(w),
            });
        let hand_winner = match settled {
            Ok(w) => w,
            Err(e) => {
                self.ledger.fail(e);
                self.phase = Phase::GameOver;
                return;
            }
        };
        let count = Event::HandCount {
            points: (0..seats).map(|s| self.points(s)).collect(),
            tricks: self.tricks.to_vec(),
        };
        self.emit(count);
        self.ledger.close_hand(HandResult {
            // A trick-taking hand settles no payments between seats.
            outcome: Some(Box::new(HandOutcome {
                payments: Vec::new(),
                ..HandOutcome::of(Vec::new(), self.points(winner), outcome)
            })),
            ..self.ledger.result(hand_winner, end, points)
        });
        self.ledger
            .pass_deal(self.flow.next_dealer, hand_winner, seats);
        let target = match self.flow.length {
            GameLength::Target { score, .. } => Some(score),
            GameLength::Rounds(_) => None,
        };
        if self.ledger.last_hand_played(target) || self.ends_with_hand {
            self.phase = Phase::GameOver;
            self.ledger.end_game();
        } else {
            self.start_hand();
        }
    }

    // ----- moves

    /// The legal actions now, appended to `out` (cleared first).
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        let seat = self.turn;
        match self.phase {
            Phase::GameOver => {}
            Phase::Bid if self.turned.is_some() => self.turned_bids(out),
            Phase::Bid => {
                if let Some(a) = &self.flow.auction {
                    out.push(Action::declare(a.pass));
                }
                self.bids(out);
            }
            Phase::Discard => {
                out.extend(self.hands[seat].iter().map(|card| Action::Play { card }));
            }
            Phase::Pass => {
                out.extend(
                    (self.hands[seat] - self.gave[seat])
                        .iter()
                        .map(|card| Action::Play { card }),
                );
            }
            Phase::NameTrump => {
                if let Some(t) = self.flow.auction.as_ref().and_then(|a| a.name_trump) {
                    // Each suit is named by a card of it the seat holds, else one it has seen,
                    // so that a move names no card the seat may not see; only a suit it has
                    // seen nothing of is named by its first card, which then stands for the
                    // suit and says nothing of where that card is.
                    let hand = self.hands[seat];
                    let seen = self.ruleset.deck.all() - Game::unseen(self, seat);
                    out.extend(
                        (0..self.ruleset.deck.suits.len())
                            .filter_map(|s| {
                                let suit = self.ruleset.deck.suits[s].cards;
                                (suit & hand)
                                    .first_card()
                                    .or_else(|| (suit & seen).first_card())
                                    .or_else(|| self.suit_card(s))
                            })
                            .map(|c| Action::Declare {
                                decl: t,
                                card: Some(c),
                            }),
                    );
                }
            }
            Phase::Call => {
                if let Some(decl) = self.flow.auction.as_ref().and_then(|a| a.call) {
                    out.extend(self.callable().iter().map(|c| Action::Declare {
                        decl,
                        card: Some(c),
                    }));
                }
            }
            Phase::Lead => {
                out.extend(self.leadable(seat).iter().map(|card| Action::Play { card }));
                if !self.flow.announcements.is_empty() {
                    self.announcement_moves(seat, out);
                }
                let allowed = |d: &DeclId| self.when_holds(*d, seat);
                if !self.lead_shown {
                    self.meld_moves(seat, MeldMoment::Lead, out);
                }
                if let Some(x) = self
                    .flow
                    .exchange
                    .filter(|_| self.may_exchange(seat))
                    .filter(allowed)
                {
                    out.push(Action::declare(x));
                }
                if let Some(c) = self.flow.close.filter(|_| self.may_close()).filter(allowed) {
                    out.push(Action::declare(c));
                }
                if let Some(c) = self.flow.claim_declaration.filter(allowed) {
                    out.push(Action::declare(c));
                }
            }
            Phase::Meld => {
                self.meld_moves(seat, MeldMoment::WonTrick, out);
                if let Some(p) = self.flow.pass {
                    out.push(Action::declare(p));
                }
            }
            Phase::Follow => {
                out.extend(self.playable(seat).iter().map(|card| Action::Play { card }));
                if !self.flow.announcements.is_empty() {
                    self.announcement_moves(seat, out);
                }
            }
        }
    }

    /// The legal actions now.
    pub fn legal(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions(&mut v);
        v
    }

    fn declaration_name(&self, decl: DeclId) -> String {
        self.ruleset
            .declarations
            .get(decl.0 as usize)
            .map_or_else(|| format!("declaration {}", decl.0), |d| d.name.clone())
    }

    /// Applies the action of the seat to act.
    pub fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        let seat = self.turn;
        let deck = &self.ruleset.deck;
        if let Action::Play { card }
        | Action::Declare {
            card: Some(card), ..
        } = action
            && card.index() >= deck.cards.len()
        {
            return Err(IllegalAction::new(format!(
                "there is no card number {} in this deck",
                card.0
            )));
        }
        if let Action::Declare { decl, card: None } = action
            && matches!(self.phase, Phase::Lead | Phase::Follow)
            && let Some(i) = self.announcement_of(decl)
        {
            return self.announce(seat, i);
        }
        match (self.phase, action) {
            (Phase::GameOver, _) => return Err(IllegalAction::new("the game is over")),
            (Phase::Bid, _) => self.apply_bid(seat, action)?,
            (Phase::Discard, Action::Play { card }) => {
                if !self.hands[seat].contains(card) {
                    return Err(IllegalAction::new(format!(
                        "`{}` is not in your hand",
                        deck.id_of(card)
                    )));
                }
                // The discard lies face down with the talon, counted for no one.
                self.hands[seat].remove(card);
                self.talon.insert(card);
                self.to_discard -= 1;
                if self.to_discard == 0 {
                    self.after_talon();
                }
            }
            (Phase::Pass, Action::Play { card }) => {
                if !(self.hands[seat] - self.gave[seat]).contains(card) {
                    return Err(IllegalAction::new(format!(
                        "`{}` is not in your hand (or is set aside to pass already)",
                        deck.id_of(card)
                    )));
                }
                self.set_aside(card);
            }
            (Phase::Pass, _) => {
                let passing = self.flow.passing.as_ref().expect("the rules pass cards");
                return Err(IllegalAction::new(format!(
                    "pass {} more card{} {} (play a card from your hand)",
                    passing.cards - self.gave[seat].len(),
                    if passing.cards - self.gave[seat].len() == 1 {
                        ""
                    } else {
                        "s"
                    },
                    passing.direction(self.ledger.round).name()
                )));
            }
            (Phase::Discard, _) => {
                return Err(IllegalAction::new(format!(
                    "you took the {}: discard {} more card{} (play a card from your hand)",
                    if self.talon_taken {
                        "talon"
                    } else {
                        "turned card"
                    },
                    self.to_discard,
                    if self.to_discard == 1 { "" } else { "s" }
                )));
            }
            (
                Phase::NameTrump,
                Action::Declare {
                    decl,
                    card: Some(card),
                },
            ) if self.flow.auction.as_ref().and_then(|a| a.name_trump) == Some(decl) => {
                self.set_trumps(self.suit(card));
                self.emit(Event::Declared {
                    player: seat,
                    decl,
                    card: Some(card),
                });
                self.before_play();
            }
            (Phase::Call, _) => self.apply_call(seat, action)?,
            (Phase::NameTrump, _) => {
                return Err(IllegalAction::new(
                    "you won the auction: name trumps (a suit)",
                ));
            }
            (Phase::Lead, Action::Play { card }) => {
                if !self.hands[seat].contains(card) {
                    return Err(IllegalAction::new(format!(
                        "`{}` is not in your hand",
                        deck.id_of(card)
                    )));
                }
                if !self.leadable(seat).contains(card) {
                    return Err(IllegalAction::new(self.lead_refusal(seat, card)));
                }
                self.lead(card);
            }
            (Phase::Follow, Action::Play { card }) => {
                if !self.hands[seat].contains(card) {
                    return Err(IllegalAction::new(format!(
                        "`{}` is not in your hand",
                        deck.id_of(card)
                    )));
                }
                if !self.playable(seat).contains(card) {
                    return Err(IllegalAction::new(self.follow_refusal(seat)));
                }
                self.follow(card);
            }
            (Phase::Lead, Action::Declare { decl, card }) => {
                let name = self.declaration_name(decl);
                if !self.when_holds(decl, seat) {
                    let when = self
                        .ruleset
                        .declarations
                        .get(decl.0 as usize)
                        .and_then(|d| d.when_source.as_deref())
                        .unwrap_or("")
                        .trim();
                    return Err(IllegalAction::new(format!(
                        "{name} is not possible now: it needs `{when}`"
                    )));
                }
                if self.flow.meld_declarations.contains(&decl) {
                    let shown = match card {
                        Some(c) if !self.lead_shown => {
                            self.meld_shown(seat, decl, MeldMoment::Lead, c)
                        }
                        _ => None,
                    };
                    let (Some(card), Some(shown)) = (card, shown) else {
                        return Err(IllegalAction::new(self.meld_refusal(seat, decl, card)));
                    };
                    self.show_meld(seat, decl, card, shown);
                    if self.flow.melds[shown.melded.meld as usize].leads_its_card {
                        // 004: the player "leads the king or queen to the trick and shows the
                        // remaining card".
                        self.lead(card);
                    } else {
                        // Shown first; the lead follows.
                        self.lead_shown = true;
                    }
                } else if Some(decl) == self.flow.exchange && card.is_none() {
                    if !self.may_exchange(seat) {
                        return Err(IllegalAction::new(format!(
                            "{name} is not possible now: it needs the lowest trump in your hand and an open stock with the trump card under it"
                        )));
                    }
                    let low = self.exchange_card(seat).expect("checked by may_exchange");
                    let up = self.trump_card.expect("checked by may_exchange");
                    self.hands[seat].remove(low);
                    // A shown card (a dix shown as a meld) goes under the stock.
                    self.shown.remove(low);
                    self.hands[seat].insert(up);
                    let last = self.stock.len() - 1;
                    self.stock[last] = low;
                    self.trump_card = Some(low);
                    self.emit(Event::Declared {
                        player: seat,
                        decl,
                        card: Some(up),
                    });
                } else if Some(decl) == self.flow.close && card.is_none() {
                    if !self.may_close() {
                        return Err(IllegalAction::new(format!(
                            "{name} is not possible now: the stock is already gone or closed"
                        )));
                    }
                    self.closed_by = Some(seat);
                    self.emit(Event::Declared {
                        player: seat,
                        decl,
                        card: None,
                    });
                } else if Some(decl) == self.flow.claim_declaration && card.is_none() {
                    self.emit(Event::Declared {
                        player: seat,
                        decl,
                        card: None,
                    });
                    self.settle_claim(seat);
                } else {
                    return Err(IllegalAction::new(format!("{name} is not possible here")));
                }
            }
            (Phase::Meld, Action::Declare { decl, card }) => {
                if Some(decl) == self.flow.pass && card.is_none() {
                    self.emit(Event::Declared {
                        player: seat,
                        decl,
                        card: None,
                    });
                    self.draw_and_lead(seat);
                    return Ok(());
                }
                let shown = match card {
                    Some(c) if self.flow.meld_declarations.contains(&decl) => {
                        if !self.when_holds(decl, seat) {
                            None
                        } else {
                            self.meld_shown(seat, decl, MeldMoment::WonTrick, c)
                        }
                    }
                    _ => None,
                };
                let (Some(card), Some(shown)) = (card, shown) else {
                    return Err(IllegalAction::new(self.meld_refusal(seat, decl, card)));
                };
                self.show_meld(seat, decl, card, shown);
                // Points added to the card points may decide a contract or reach the target.
                if let Some(end) = self.contract_decided(false) {
                    let d = self.declarer.expect("a contract has a declarer");
                    self.end_hand(d, end);
                    return Ok(());
                }
                if self.flow.claim == ClaimRule::Automatic && self.points(seat) >= self.flow.target
                {
                    self.settle_claim(seat);
                    return Ok(());
                }
                self.draw_and_lead(seat);
            }
            (Phase::Meld, _) => {
                return Err(IllegalAction::new(
                    "you won the trick: show a meld with its declaration, or pass",
                ));
            }
            (Phase::Follow, Action::Declare { decl, .. }) => {
                return Err(IllegalAction::new(format!(
                    "{} is not possible now: declarations are made on one's lead (or in the auction)",
                    self.declaration_name(decl)
                )));
            }
            (_, _) => {
                return Err(IllegalAction::new(
                    "that is not a move of this game: play a card or make a declaration",
                ));
            }
        }
        Ok(())
    }

    /// Why declaration `decl` with `card` shows no meld for `seat` now.
    fn meld_refusal(&self, seat: Seat, decl: DeclId, card: Option<CardId>) -> String {
        let name = self.declaration_name(decl);
        let deck = &self.ruleset.deck;
        if !self.flow.meld_declarations.contains(&decl) {
            return match self.phase {
                Phase::Meld => {
                    format!("{name} is not possible now: you won the trick, so show a meld or pass")
                }
                _ => format!("{name} is not possible here"),
            };
        }
        if self.lead_shown && self.phase == Phase::Lead {
            return format!("{name}: you have shown a meld on this lead already; lead a card");
        }
        let moment = if self.phase == Phase::Meld {
            MeldMoment::WonTrick
        } else {
            MeldMoment::Lead
        };
        let mut moves = Vec::new();
        self.meld_moves(seat, moment, &mut moves);
        let cards: Vec<&str> = moves
            .iter()
            .filter(|a| matches!(a, Action::Declare { decl: d, .. } if *d == decl))
            .filter_map(|a| a.card())
            .map(|c| deck.id_of(c))
            .collect();
        let what = match card {
            Some(c) => format!("`{}` is in no meld you can show now", deck.id_of(c)),
            None => "name a card of the meld".to_string(),
        };
        if cards.is_empty() {
            format!("{name}: {what}, and you have none to show")
        } else {
            format!("{name}: {what}; you can show one with {}", cards.join(", "))
        }
    }
}

impl Game for TricksGame {
    fn ledger(&self) -> &Ledger {
        &self.ledger
    }
    fn ledger_mut(&mut self) -> &mut Ledger {
        &mut self.ledger
    }
    fn ruleset(&self) -> &Arc<Ruleset> {
        &self.ruleset
    }
    fn seats(&self) -> usize {
        self.hands.len()
    }
    fn to_act(&self) -> Option<Seat> {
        TricksGame::to_act(self)
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        TricksGame::legal_actions(self, out)
    }
    fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        TricksGame::apply(self, action)
    }
    fn zones(&self) -> Vec<(String, CardSet)> {
        // The turned-up trump lies face up under the stock: a zone of its own.
        let trump: CardSet = self.trump_card.into_iter().collect();
        let stock: CardSet = self.stock[self.stock_pos..].iter().copied().collect();
        let mut z = vec![("stock".to_string(), stock - trump)];
        if !(stock & trump).is_empty() {
            z.push(("trump".to_string(), stock & trump));
        }
        if !self.talon.is_empty() {
            z.push(("talon".to_string(), self.talon));
        }
        if let Some(up) = self.turned {
            z.push(("turned".to_string(), CardSet::single(up)));
        }
        if self.trick_len > 0 {
            z.push(("trick".to_string(), self.trick().iter().copied().collect()));
        }
        for s in 0..self.hands.len() {
            z.push((format!("hand {s}"), self.hands[s]));
            z.push((format!("won {s}"), self.won[s]));
        }
        z
    }
    fn unseen(&self, seat: Seat) -> CardSet {
        // As a search deals them: the other hands less the cards shown from them, and the
        // stock less the turned-up trump.
        let mut unseen = CardSet::EMPTY;
        for (s, hand) in self.hands.iter().enumerate() {
            if s != seat {
                unseen |= *hand - self.known_in(seat, s);
            }
        }
        for &c in &self.stock[self.stock_pos..] {
            if Some(c) != self.trump_card {
                unseen.insert(c);
            }
        }
        if !(self.talon_taken && self.declarer == Some(seat)) {
            unseen |= self.talon;
        }
        unseen
    }
    fn heuristic(&self, seat: Seat, legal: &[Action], _rng: &mut Xoshiro256PlusPlus) -> Action {
        super::greedy::choose(&self.view(seat), legal)
    }
    fn heuristic_reasons(&self, seat: Seat, legal: &[Action], action: Action) -> Vec<String> {
        let view = self.view(seat);
        match super::greedy::choose_why(&view, legal) {
            (chosen, why) if chosen == action && why != super::greedy::Why::Only => {
                vec![why.words(&view)]
            }
            _ => Vec::new(),
        }
    }
    fn determinize(&self, seat: Seat, rng: &mut Xoshiro256PlusPlus) -> Option<Box<dyn Game>> {
        Some(Box::new(self.determinized(seat, rng)))
    }
    fn determinize_from(
        &mut self,
        source: &dyn Game,
        seat: Seat,
        rng: &mut Xoshiro256PlusPlus,
    ) -> bool {
        same_family(source, |source: &TricksGame| {
            source.determinize_into(seat, rng, self)
        })
    }
    fn box_clone(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }
    fn copy_from(&mut self, other: &dyn Game) -> bool {
        same_family(other, |other| TricksGame::copy_from(self, other))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_dyn(&self) -> &dyn Game {
        self
    }
}
