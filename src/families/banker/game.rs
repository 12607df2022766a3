//! The banker-game core: players bet against a banker, draw more tiles, and compare hand values
//! at a showdown, with bankrolls kept across hands. Driven only by the ruleset's banker flow.
//!
//! Each hand: every player gets `first_tiles` and bets; the banker draws `banker_tiles` and wins
//! every bet at once when they meet a `banker_win` condition; otherwise each player chooses how
//! many more tiles to take (`draw_options`), and each hand is compared with the banker's, by
//! its rank when the ruleset declares `[[flow.hand_rank]]`, else by `value`: higher wins the
//! bet, lower loses it, equal keeps it.

use crate::core::{
    Action, Game, HandResult, IllegalAction, Ledger, PerSeat, Seat, StartError, StartOptions,
    same_family,
};
use crate::deck::{CardId, CardSet, shuffle};
use crate::expr::Context;
use crate::ruleset::{BankerFlow, DrawAction, Flow, Ruleset};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use serde::Serialize;
use std::sync::Arc;

mod play;
mod pot;
mod table;

pub use play::{HandPlayed, SeatHand, hand_outcome, is_soft, outcome_of, play_facts, settle_hand};
pub use pot::PotState;

use super::ranking::{self, against_banker, rank_hand};
use super::value::{banker_instant_win, hand_value};
pub use super::view::{BankerPhase, BankerView};

pub use table::{rule_for, showdown_facts};

/// How the hands of a banker game end.
pub mod ends {
    use crate::core::HandEnd;
    /// The hands were compared.
    pub const SHOWDOWN: HandEnd = HandEnd("showdown");
    /// The banker's first tiles won every bet at once.
    pub const BANKER_WIN: HandEnd = HandEnd("banker_win");
    /// Every other seat folded: the last one in took the pot.
    pub const FOLD: HandEnd = HandEnd("fold");
}

/// One player's part of a finished hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerResult {
    /// The player's seat.
    pub seat: usize,
    /// The tiles held at the end.
    pub tiles: Vec<CardId>,
    /// Their value (none when the banker won at once).
    pub value: Option<i64>,
    /// The bet.
    pub bet: i64,
    /// Chips won (positive) or lost (negative).
    pub result: i64,
    /// On a table hand, each bet placed: its id, the stake and what it brought.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bets: Vec<BetResult>,
    /// The hand's rank in words, when the ruleset ranks hands (`9-ttaeng`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<String>,
    /// A pot game: the seat folded.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub folded: bool,
    /// Hands played by actions: each of the seat's hands (several after a split).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hands: Vec<HandPlayed>,
    /// Hands played by actions: what the seat's insurance brought, when it took one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub insurance: Option<i64>,
    /// Arranged hands (`[flow.arrange]`): each of the seat's hands and how it fared.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub arranged: Vec<HandArranged>,
}

/// One arranged hand at the showdown (`[flow.arrange]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandArranged {
    /// The hand's id (`high`).
    pub hand: String,
    /// Its cards.
    pub cards: Vec<CardId>,
    /// Its value.
    pub value: i64,
    /// Its rank in words, when the ruleset ranks hands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<String>,
    /// A player's hand against the banker's of the same name: 1 won, 0 neither, -1 lost (a
    /// copy given to the banker is lost); 0 for the banker's own.
    pub outcome: i8,
}

/// One bet on a table hand, settled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BetResult {
    /// The bet's id (`banker`).
    pub bet: String,
    /// The stake.
    pub stake: i64,
    /// Chips won (positive), lost (negative) or 0 for a push.
    pub result: i64,
}

/// A finished hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BankerHand {
    /// The hand, 1-based.
    pub hand: u32,
    /// The banker's tiles.
    pub banker_tiles: Vec<CardId>,
    /// The banker's value (none when the banker won at once).
    pub banker_value: Option<i64>,
    /// The banker's hand by rank in words, when the ruleset ranks hands (`Bust`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub banker_hand: Option<String>,
    /// The banker-win condition met, if any.
    pub banker_win: Option<String>,
    /// Each player who played the hand.
    pub players: Vec<PlayerResult>,
    /// The banker's net chips.
    pub banker_result: i64,
    /// On a table hand, the drawing rules that applied, in order (`Player draws on 0-5`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
    /// Whose hand each of `rules` was read for: a seat, or `None` for the banker's (or a table
    /// hand's). Shown, not recorded: records keep the rules' names alone, as before.
    #[serde(skip)]
    pub rule_seats: Vec<Option<usize>>,
    /// The seat that banked (or dealt, in a pot game), when the bank is a seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub banker_seat: Option<usize>,
    /// The seat the bank passed to after this hand, if it passed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bank_to: Option<usize>,
    /// A pot game: the chips in the pot.
    #[serde(skip_serializing_if = "is_zero")]
    pub pot: i64,
    /// A pot game: the seats that took the pot.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub winners: Vec<usize>,
    /// A pot game: what each seat did, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub betting: Vec<String>,
    /// Arranged hands: the banker's, by the house way.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub banker_arranged: Vec<HandArranged>,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

/// A banker game in progress.
#[derive(Clone, Debug)]
pub struct BankerGame {
    /// Bankrolls (the scores), hands, their results and deals: the bookkeeping every game
    /// keeps; a house deals.
    ledger: Ledger,
    ruleset: Arc<Ruleset>,
    flow: Arc<BankerFlow>,
    rng: Xoshiro256PlusPlus,
    orders: std::vec::IntoIter<Vec<CardId>>,
    min_bet: i64,
    max_bet: i64,
    phase: BankerPhase,
    banker_bankroll: Option<i64>,
    /// Seats playing the current hand.
    in_hand: Vec<bool>,
    tiles: Vec<CardSet>,
    bets: Vec<i64>,
    banker: CardSet,
    stock: Vec<CardId>,
    stock_pos: usize,
    history: Vec<BankerHand>,
    /// A table hand: the player's cards, in the order dealt (a card may come twice from a shoe).
    punto: Vec<CardId>,
    /// A table hand: the banker's cards, in the order dealt.
    banco: Vec<CardId>,
    /// A table hand: each seat's stake on each bet, `seat * bets + bet`.
    stakes: Vec<i64>,
    /// A table hand: the bet the seat to act stakes on now.
    bet_kind: usize,
    /// A table hand: the drawing rules that applied this hand.
    rules_applied: Vec<String>,
    /// Whose hand each of `rules_applied` was read for (`None`: the banker's).
    rule_seats: Vec<Option<usize>>,
    /// A pot game: the hand in progress.
    pot_state: PotState,
    /// A bank among the seats: hands the current banker has banked.
    bank_hands: u32,
    /// Hands played by actions: every hand this deal, in turn order.
    seat_hands: Vec<play::SeatHand>,
    /// Hands played by actions: the hand acting (an index in `seat_hands`).
    acting: usize,
    /// Hands played by actions: each seat's insurance this deal.
    insured: Vec<i64>,
    /// Arranged hands: each seat's first hand this deal (the rest of its cards make the
    /// second); empty until it arranges.
    arranged: Vec<CardSet>,
}

/// Starts a banker session; the first hand is dealt at once.
pub fn start(ruleset: Arc<Ruleset>, options: StartOptions) -> Result<BankerGame, StartError> {
    let fail = |message: String| Err(StartError::Options { message });
    let Flow::Banker(flow) = &ruleset.flow else {
        return fail(format!("ruleset `{}` is not a banker game", ruleset.id));
    };
    let flow = Arc::clone(flow);
    let players = options.seats.unwrap_or(flow.players as usize);
    if players == 0 || players > flow.max_players as usize {
        return fail(format!(
            "this table seats 1 to {} players, not {players}",
            flow.max_players
        ));
    }
    let min_bet = options.bet_limits.0.unwrap_or(flow.min_bet);
    let max_bet = options.bet_limits.1.unwrap_or(flow.max_bet);
    if min_bet < 1 || min_bet > max_bet {
        return fail(format!(
            "the table limits must satisfy 1 <= min ({min_bet}) <= max ({max_bet})"
        ));
    }
    BankerGame::new(ruleset, flow, options, players, (min_bet, max_bet))
}

impl BankerGame {
    fn new(
        ruleset: Arc<Ruleset>,
        flow: Arc<BankerFlow>,
        options: StartOptions,
        players: usize,
        (min_bet, max_bet): (i64, i64),
    ) -> Result<BankerGame, StartError> {
        let mut game = BankerGame {
            rng: Xoshiro256PlusPlus::seed_from_u64(options.seed),
            orders: options.deck_orders.into_iter(),
            ledger: Ledger {
                house_deals: true,
                ..Ledger::new(
                    players,
                    flow.bankroll,
                    options.rounds.unwrap_or(flow.hands),
                    0,
                    false,
                )
            },
            min_bet,
            max_bet,
            phase: BankerPhase::GameOver,
            banker_bankroll: flow.banker_bankroll,
            in_hand: vec![false; players],
            tiles: vec![CardSet::EMPTY; players],
            bets: vec![0; players],
            banker: CardSet::EMPTY,
            stock: Vec::new(),
            stock_pos: 0,
            history: Vec::new(),
            punto: Vec::new(),
            banco: Vec::new(),
            stakes: vec![0; players * flow.bets.len()],
            bet_kind: 0,
            rules_applied: Vec::new(),
            rule_seats: Vec::new(),
            pot_state: PotState::default(),
            bank_hands: 0,
            seat_hands: Vec::new(),
            acting: 0,
            insured: vec![0; players],
            arranged: vec![CardSet::EMPTY; players],
            flow,
            ruleset,
        };
        if let Some(bank) = &game.flow.bank {
            let first = match options.first_dealer {
                Some(d) if d < players => d,
                _ => game.choose_first_banker(bank.first),
            };
            game.ledger.house_deals = false;
            game.ledger.first_dealer = first;
            game.ledger.dealer = first;
        } else if game.flow.pot.is_some() {
            game.ledger.house_deals = false;
            let first = options.first_dealer.filter(|&d| d < players).unwrap_or(0);
            game.ledger.first_dealer = first;
            game.ledger.dealer = first;
        }
        game.ledger.start_at(options.first_hand);
        game.start_hand();
        Ok(game)
    }

    /// Every hand's deck order so far.
    pub fn dealt_orders(&self) -> &[Vec<CardId>] {
        &self.ledger.dealt_orders
    }

    /// The banker's tiles in the current hand (hidden until the banker draws).
    pub fn banker_tiles(&self) -> CardSet {
        self.banker
    }

    /// Cards left in the stock.
    pub fn stock_len(&self) -> usize {
        self.stock.len() - self.stock_pos
    }

    /// The largest bet `seat` may place now: the table's limit, the seat's chips, and what the
    /// other players' bets of this hand leave of `table_limit`.
    fn top_bet(&self, seat: Seat) -> i64 {
        let mut top = self.max_bet.min(self.ledger.scores[seat]);
        if let Some(banker) = self.banker_seat() {
            // The banker seat pays every winning bet from its own chips: the bets of a hand
            // together are at most what it holds.
            let others: i64 = (0..self.players())
                .filter(|&s| s != seat)
                .map(|s| self.bets[s])
                .sum();
            top = top.min(self.ledger.scores[banker] - others);
        }
        match self.flow.table_limit {
            Some(limit) if !self.flow.table_hand => {
                let others: i64 = (0..self.players())
                    .filter(|&s| s != seat)
                    .map(|s| self.bets[s])
                    .sum();
                top.min(limit - others)
            }
            _ => top,
        }
    }

    /// The bets `seat` may place now, smallest and largest: `(0, 0)` when `table_limit` leaves
    /// it less than the smallest bet (the seat bets nothing this hand).
    fn bet_range(&self, seat: Seat) -> (i64, i64) {
        let top = self.top_bet(seat);
        if top < self.min_bet {
            (0, 0)
        } else {
            (self.min_bet, top)
        }
    }

    /// The ruleset being played.
    pub fn ruleset(&self) -> &Arc<Ruleset> {
        &self.ruleset
    }

    /// The flow options.
    pub fn flow(&self) -> &BankerFlow {
        &self.flow
    }

    /// What the game waits for.
    pub fn phase(&self) -> BankerPhase {
        self.phase
    }

    /// The seat that must act, or `None` when the session is over.
    pub fn to_act(&self) -> Option<usize> {
        match self.phase {
            BankerPhase::Bet { seat }
            | BankerPhase::Draw { seat }
            | BankerPhase::Pot { seat }
            | BankerPhase::Insure { seat }
            | BankerPhase::Act { seat }
            | BankerPhase::Arrange { seat } => Some(seat),
            BankerPhase::GameOver => None,
        }
    }

    /// True when the session has ended.
    pub fn is_over(&self) -> bool {
        self.phase == BankerPhase::GameOver
    }

    /// Players at the table.
    pub fn players(&self) -> usize {
        self.ledger.scores.len()
    }

    /// Each player's chips.
    pub fn bankrolls(&self) -> &[i64] {
        &self.ledger.scores
    }

    /// The banker's chips (`None`: unlimited).
    pub fn banker_bankroll(&self) -> Option<i64> {
        self.banker_bankroll
    }

    /// The hand in progress (or the last), 1-based.
    pub fn hand(&self) -> u32 {
        self.ledger.round
    }

    /// Hands in the session.
    pub fn hands_total(&self) -> u32 {
        self.ledger.rounds
    }

    /// The table limits in force.
    pub fn limits(&self) -> (i64, i64) {
        (self.min_bet, self.max_bet)
    }

    /// Makes this game a copy of `other`, keeping this one's storage where it can (a search
    /// copies one deal for every action it tries; a fresh copy allocated each vector again).
    /// Field by field: a field added to the game must be added here, or this does not compile.
    pub fn copy_from(&mut self, other: &BankerGame) {
        self.copy_state(other, true);
    }

    /// [`BankerGame::copy_from`], the finished hands, their results and deal orders left out
    /// (and emptied) unless `record`: a search's world has no use for them.
    fn copy_state(&mut self, other: &BankerGame, record: bool) {
        let BankerGame {
            ruleset,
            ledger,
            flow,
            rng,
            orders,
            min_bet,
            max_bet,
            phase,
            banker_bankroll,
            in_hand,
            tiles,
            bets,
            banker,
            stock,
            stock_pos,
            history,
            punto,
            banco,
            stakes,
            bet_kind,
            rules_applied,
            rule_seats,
            pot_state,
            bank_hands,
            seat_hands,
            acting,
            insured,
            arranged,
        } = self;
        crate::core::share(ruleset, &other.ruleset);
        crate::core::share(flow, &other.flow);
        rng.clone_from(&other.rng);
        orders.clone_from(&other.orders);
        min_bet.clone_from(&other.min_bet);
        max_bet.clone_from(&other.max_bet);
        phase.clone_from(&other.phase);
        banker_bankroll.clone_from(&other.banker_bankroll);
        in_hand.clone_from(&other.in_hand);
        tiles.clone_from(&other.tiles);
        bets.clone_from(&other.bets);
        banker.clone_from(&other.banker);
        stock.clone_from(&other.stock);
        stock_pos.clone_from(&other.stock_pos);
        punto.clone_from(&other.punto);
        banco.clone_from(&other.banco);
        stakes.clone_from(&other.stakes);
        bet_kind.clone_from(&other.bet_kind);
        rules_applied.clone_from(&other.rules_applied);
        rule_seats.clone_from(&other.rule_seats);
        pot_state.clone_from(&other.pot_state);
        bank_hands.clone_from(&other.bank_hands);
        seat_hands.clone_from(&other.seat_hands);
        acting.clone_from(&other.acting);
        insured.clone_from(&other.insured);
        arranged.clone_from(&other.arranged);
        ledger.copy_from(&other.ledger, record);
        if record {
            history.clone_from(&other.history);
        } else {
            history.clear();
        }
    }

    /// A game in the state `seat` sees, with the other players' tiles and the stock dealt
    /// again at random from `rng`.
    pub fn determinized(&self, seat: Seat, rng: &mut Xoshiro256PlusPlus) -> BankerGame {
        let mut world = self.clone();
        self.deal_hidden(seat, rng, &mut world);
        world
    }

    /// [`BankerGame::determinized`] into `world`, whose vectors serve again: the same draws
    /// and the same game (a search deals again for every round of playouts).
    pub fn determinize_into(&self, seat: Seat, rng: &mut Xoshiro256PlusPlus, world: &mut Self) {
        world.copy_state(self, false);
        self.deal_hidden(seat, rng, world);
    }

    /// The cards a player at `seat` cannot see, in a fixed order: the banker's tiles, the
    /// stock and the other players' tiles (on a table hand, the shoe only).
    fn unseen_cards(&self, seat: Seat) -> impl Iterator<Item = CardId> + '_ {
        let hands = !self.flow.table_hand && self.flow.play.is_none();
        let banker = self.banker.iter().filter(move |_| hands);
        let others = (0..self.players()).filter(move |&s| hands && s != seat);
        let hole = match &self.flow.play {
            Some(p) => &self.banco[(p.banker_shown as usize).min(self.banco.len())..],
            None => &[],
        };
        banker
            .chain(hole.iter().copied())
            .chain(self.stock[self.stock_pos..].iter().copied())
            .chain(others.flat_map(|s| self.tiles[s].iter()))
    }

    /// Deals what `seat` cannot see into `world`, a copy of this game.
    fn deal_hidden(&self, seat: Seat, rng: &mut Xoshiro256PlusPlus, world: &mut Self) {
        if self.flow.play.is_some() {
            self.play_deal_hidden(rng, world);
            return;
        }
        if self.flow.table_hand {
            self.table_deal_hidden(rng, world);
            return;
        }
        // The other players' tiles, the banker's (shown only at the showdown) and the stock
        // are hidden: shuffle them together and deal them back in the same numbers.
        let mut hidden = [CardId(0); CardSet::CAPACITY];
        let mut n = 0;
        for card in self.unseen_cards(seat) {
            hidden[n] = card;
            n += 1;
        }
        let banker = self.banker.len() as usize;
        // The banker's tiles are no instant win, or the hand would have ended: deal again
        // until they are not (a few tries; the real tiles are such a deal).
        for _ in 0..64 {
            shuffle(&mut hidden, n, rng);
            let tiles: CardSet = hidden[..banker].iter().copied().collect();
            if banker == 0 || banker_instant_win(&self.flow, tiles).is_none() {
                break;
            }
        }
        world.banker = hidden[..banker].iter().copied().collect();
        let mut next = banker;
        for s in 0..self.players() {
            if s != seat {
                let k = self.tiles[s].len() as usize;
                world.tiles[s] = hidden[next..next + k].iter().copied().collect();
                next += k;
                // Arranged hands: another seat's arrangement is hidden too; in this world it
                // arranged its new cards by the house way.
                if let Some(arrange) = &self.flow.arrange
                    && !self.arranged[s].is_empty()
                {
                    world.arranged[s] =
                        super::arrange::house_way(&self.flow, arrange, world.tiles[s]);
                }
            }
        }
        world.stock.truncate(self.stock_pos);
        world.stock.extend_from_slice(&hidden[next..n]);
        world.orders = Vec::new().into_iter();
        world.rng = Xoshiro256PlusPlus::seed_from_u64(rng.random());
        // A playout reads only the hand in progress (its result is the history's next entry):
        // the finished hands are not copied for every action tried.
        world.history.clear();
        world.ledger.copy_from(&self.ledger, false);
    }

    /// Finished hands, with every tile and value.
    pub fn hands_played(&self) -> &[BankerHand] {
        &self.history
    }

    /// A player's tiles in the current hand (hidden from the others).
    pub fn tiles(&self, seat: usize) -> CardSet {
        self.tiles[seat]
    }

    /// Bets placed in the current hand.
    pub fn bets(&self) -> &[i64] {
        &self.bets
    }

    /// True when `seat` plays the current hand.
    pub fn in_hand(&self, seat: usize) -> bool {
        self.in_hand[seat]
    }

    /// The legal actions now.
    pub fn legal(&self) -> Vec<Action> {
        let mut v = Vec::new();
        Game::legal_actions(self, &mut v);
        v
    }

    /// Applies a player's action.
    pub fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        if self.flow.play.is_some() {
            return self.play_apply(action);
        }
        if self.flow.table_hand {
            return self.table_apply(action);
        }
        if self.flow.pot.is_some() {
            return self.pot_apply(action);
        }
        let illegal = |reason: String| Err(IllegalAction { reason });
        match (self.phase, action) {
            (BankerPhase::Bet { seat }, Action::Bet { amount }) => {
                let (low, top) = self.bet_range(seat);
                if amount < low || amount > top {
                    return illegal(format!("a bet must be between {low} and {top} chips"));
                }
                self.bets[seat] = amount;
                match self.next_in_hand(seat) {
                    Some(next) => self.phase = BankerPhase::Bet { seat: next },
                    None => self.banker_draws(),
                }
            }
            (BankerPhase::Draw { seat }, Action::Draw { count }) => {
                if !self.legal().contains(&action) {
                    let options: Vec<String> =
                        self.flow.draw_options.iter().map(u32::to_string).collect();
                    return illegal(format!("you may take {} more tiles", options.join(" or ")));
                }
                for _ in 0..count {
                    let t = self.draw();
                    self.tiles[seat].insert(t);
                }
                if self.has_seat_rules() {
                    self.seat_draws(seat + 1);
                    return Ok(());
                }
                match self.next_in_hand(seat) {
                    Some(next) => self.phase = BankerPhase::Draw { seat: next },
                    None => self.showdown(),
                }
            }
            (BankerPhase::Arrange { seat }, Action::PlaySet { cards }) => {
                let arrange = self.flow.arrange.as_ref().expect("an arranging game");
                if !super::arrange::arrangements(&self.flow, arrange, self.tiles[seat])
                    .contains(&cards)
                {
                    return illegal(format!(
                        "arrange your cards: the first hand ({}) takes {} of them{}",
                        arrange.hands[0].name,
                        arrange.hands[0].cards,
                        if arrange.strictly_above {
                            ", ranking above the rest"
                        } else {
                            ", ranking at least as high as the rest"
                        }
                    ));
                }
                self.arranged[seat] = cards;
                match self.next_in_hand(seat) {
                    Some(next) => self.phase = BankerPhase::Arrange { seat: next },
                    None => self.showdown(),
                }
            }
            (BankerPhase::Arrange { .. }, _) => {
                return illegal("arrange your cards now".into());
            }
            (BankerPhase::GameOver, _) => return illegal("the session is over".into()),
            (BankerPhase::Bet { .. }, _) => return illegal("a bet is expected now".into()),
            (BankerPhase::Draw { .. }, _) => {
                return illegal("choose how many tiles to take now".into());
            }
            (BankerPhase::Pot { .. }, _) => return illegal("a pot game's bet is expected".into()),
            (BankerPhase::Insure { .. } | BankerPhase::Act { .. }, _) => {
                return illegal("an action of the hand is expected".into());
            }
        }
        Ok(())
    }

    fn next_in_hand(&self, seat: usize) -> Option<usize> {
        (seat + 1..self.players()).find(|&s| self.in_hand[s])
    }

    fn draw(&mut self) -> CardId {
        let t = self.stock[self.stock_pos];
        self.stock_pos += 1;
        t
    }

    fn start_hand(&mut self) {
        if self.flow.play.is_some() {
            self.play_start_hand();
            return;
        }
        if self.flow.table_hand {
            self.table_start_hand();
            return;
        }
        if self.flow.pot.is_some() {
            self.pot_start_hand();
            return;
        }
        let mut banker_broke = self.banker_bankroll.is_some_and(|b| b <= 0);
        if let Some(banker) = self.banker_seat() {
            // A banker seat that cannot cover the smallest bet passes the bank in turn to the
            // next seat that can; with none, the session is over.
            let n = self.players();
            match (0..n)
                .map(|i| (banker + i) % n)
                .find(|&s| self.ledger.scores[s] >= self.min_bet)
            {
                Some(s) if s != banker => {
                    self.ledger.dealer = s;
                    self.bank_hands = 0;
                }
                Some(_) => {}
                None => banker_broke = true,
            }
        }
        for s in 0..self.players() {
            self.in_hand[s] =
                self.ledger.scores[s] >= self.min_bet && Some(s) != self.banker_seat();
        }
        if self.ledger.round >= self.ledger.rounds
            || banker_broke
            || !self.in_hand.iter().any(|&b| b)
        {
            self.phase = BankerPhase::GameOver;
            return;
        }
        self.ledger.round += 1;
        let n = self.ruleset.deck.cards.len();
        let mut order = std::mem::take(&mut self.stock);
        match self.orders.next() {
            Some(o) if o.len() == n => order = o,
            _ => {
                let mut deck = CardId::ALL;
                shuffle(&mut deck, n, &mut self.rng);
                order.clear();
                order.extend_from_slice(&deck[..n]);
            }
        }
        self.ledger.dealt_orders.push(order.clone());
        self.stock = order;
        self.stock_pos = 0;
        self.banker = CardSet::EMPTY;
        for s in 0..self.players() {
            self.tiles[s] = CardSet::EMPTY;
            self.bets[s] = 0;
            self.arranged[s] = CardSet::EMPTY;
        }
        for _ in 0..self.flow.first_tiles {
            for s in 0..self.players() {
                if self.in_hand[s] {
                    let t = self.draw();
                    self.tiles[s].insert(t);
                }
            }
        }
        let first = (0..self.players())
            .find(|&s| self.in_hand[s])
            .expect("someone plays the hand");
        self.phase = BankerPhase::Bet { seat: first };
    }

    fn banker_draws(&mut self) {
        for _ in 0..self.flow.banker_tiles {
            let t = self.draw();
            self.banker.insert(t);
        }
        // 000 "Rules": "If the banker's two tiles are identical (a civil pair), the banker
        // immediately wins all bets."
        if let Some(win) = banker_instant_win(&self.flow, self.banker) {
            let name = win.name.clone();
            self.settle(Some(name));
            return;
        }
        if self.has_seat_rules() {
            self.seat_draws(0);
            return;
        }
        let first = (0..self.players())
            .find(|&s| self.in_hand[s])
            .expect("someone plays the hand");
        self.phase = if self.flow.arrange.is_some() {
            BankerPhase::Arrange { seat: first }
        } else {
            BankerPhase::Draw { seat: first }
        };
    }

    /// True when drawing rules decide the draws of hands per seat (`[[flow.player_draw]]`,
    /// `[[flow.banker_draw]]` without a table hand).
    fn has_seat_rules(&self) -> bool {
        !self.flow.player_draw.is_empty() || !self.flow.banker_draw.is_empty()
    }

    /// Notes that the drawing rule `name` applied to `seat`'s hand (`None`: the banker's), once
    /// while it applies again to the same hand.
    fn note_rule(&mut self, seat: Option<usize>, name: &str) {
        let last = self.rules_applied.last().zip(self.rule_seats.last());
        if last != Some((&name.to_string(), &seat)) {
            self.rules_applied.push(name.to_string());
            self.rule_seats.push(seat);
        }
    }

    /// The drawing rules per seat, from seat `from` on: each player's rules take or refuse
    /// tiles until one leaves the choice to the player (the game then waits for them), then
    /// the banker's rules draw to the banker's hand, then the showdown.
    fn seat_draws(&mut self, from: usize) {
        let flow = Arc::clone(&self.flow);
        let most = CardSet::CAPACITY as u32;
        for seat in from..self.players() {
            if !self.in_hand[seat] {
                continue;
            }
            loop {
                let facts = self.seat_facts(seat);
                let Some(rule) = rule_for(&flow.player_draw, &facts) else {
                    break;
                };
                self.note_rule(Some(seat), &rule.name);
                match rule.action {
                    DrawAction::Stand => break,
                    DrawAction::Choose => {
                        self.phase = BankerPhase::Draw { seat };
                        return;
                    }
                    DrawAction::Draw => {
                        if self.stock_len() == 0 || self.tiles[seat].len() >= most {
                            break;
                        }
                        let t = self.draw();
                        self.tiles[seat].insert(t);
                    }
                }
            }
        }
        loop {
            let facts = self.seat_facts(usize::MAX);
            let Some(rule) = rule_for(&flow.banker_draw, &facts) else {
                break;
            };
            self.note_rule(None, &rule.name);
            if rule.action != DrawAction::Draw || self.stock_len() == 0 || self.banker.len() >= most
            {
                break;
            }
            let t = self.draw();
            self.banker.insert(t);
        }
        self.showdown();
    }

    /// The facts of the drawing rules for `seat`'s hand against the banker's (`usize::MAX`:
    /// the banker's rules, which read no player's hand). Hands per seat are sets: which tile
    /// came last is not kept, so `player_drew` and `banker_drew` are -1.
    fn seat_facts(&self, seat: usize) -> [i64; 6] {
        let (total, cards) = match self.tiles.get(seat) {
            Some(&t) => (hand_value(&self.flow, t), i64::from(t.len())),
            None => (0, 0),
        };
        [
            total,
            cards,
            -1,
            hand_value(&self.flow, self.banker),
            i64::from(self.banker.len()),
            -1,
        ]
    }

    fn showdown(&mut self) {
        self.settle(None);
    }

    fn settle(&mut self, banker_win: Option<String>) {
        let banker_value = banker_win
            .is_none()
            .then(|| hand_value(&self.flow, self.banker));
        let mut players = Vec::new();
        // What the banker pays and collects, bet by bet; the commissions the house keeps.
        let mut banker_result = 0;
        let mut commissions = 0;
        for s in 0..self.players() {
            if !self.in_hand[s] {
                continue;
            }
            let value = banker_value.map(|_| hand_value(&self.flow, self.tiles[s]));
            let bet = self.bets[s];
            // By the ranks when the ruleset declares them (a bust ranked last loses to the
            // banker's 19 whatever its total), else by value.
            let mut arranged = Vec::new();
            let gross = match (banker_value, &self.flow.arrange) {
                (Some(_), Some(arrange)) => {
                    // Each hand against the banker's of the same name.
                    let banker_first = super::arrange::house_way(&self.flow, arrange, self.banker);
                    let outcomes = super::arrange::outcomes(
                        &self.flow,
                        arrange,
                        (self.arranged[s], self.tiles[s]),
                        (banker_first, self.banker),
                    );
                    arranged = self.arranged_words(self.arranged[s], self.tiles[s], &outcomes);
                    super::arrange::settle(arrange, &outcomes, bet)
                }
                (Some(_), None) => match against_banker(&self.flow, self.tiles[s], self.banker) {
                    std::cmp::Ordering::Greater => bet,
                    std::cmp::Ordering::Equal => 0,
                    std::cmp::Ordering::Less => -bet,
                },
                (None, _) => -bet,
            };
            // The banker pays a win whole; the house keeps `commission` of it from the player.
            let result = if gross > 0 {
                self.flow.player_win(gross)
            } else {
                gross
            };
            commissions += gross - result;
            // Arranged hands are ranked hand by hand (`arranged`), not all the cards together.
            let hand = banker_value
                .filter(|_| self.flow.arrange.is_none())
                .and_then(|_| ranking::words(&self.flow, &rank_hand(&self.flow, self.tiles[s])));
            self.ledger.scores[s] += result;
            banker_result -= gross;
            players.push(PlayerResult {
                seat: s,
                tiles: self.tiles[s].iter().collect(),
                value,
                bet,
                result,
                bets: Vec::new(),
                hand,
                folded: false,
                hands: Vec::new(),
                insurance: None,
                arranged,
            });
        }
        let banker_arranged = match (&self.flow.arrange, banker_value) {
            (Some(arrange), Some(_)) => {
                let first = super::arrange::house_way(&self.flow, arrange, self.banker);
                self.arranged_words(first, self.banker, &[])
            }
            _ => Vec::new(),
        };
        let banker_hand = banker_value
            .filter(|_| self.flow.arrange.is_none())
            .and_then(|_| ranking::words(&self.flow, &rank_hand(&self.flow, self.banker)));
        let banker_seat = self.banker_seat();
        if banker_seat.is_some() {
            // A banker seat's net win pays `banker_commission` to the house.
            let net = self.flow.banker_win(banker_result);
            commissions += banker_result - net;
            banker_result = net;
        } else {
            // The house banks: the commissions are its own.
            banker_result += commissions;
        }
        if let Some(b) = &mut self.banker_bankroll {
            *b += banker_result;
        }
        if let Some(b) = banker_seat {
            self.ledger.scores[b] += banker_result;
        }
        let mut points: PerSeat<i64> = PerSeat::new(self.players());
        for p in &players {
            points[p.seat] = p.result;
        }
        if let Some(b) = banker_seat {
            points[b] = banker_result;
        }
        let bank_to = self.bank_passes(banker_win.is_none(), &players);
        self.ledger.history.push(HandResult {
            round: self.ledger.round,
            dealer: banker_seat,
            winner: None,
            end: if banker_win.is_some() {
                ends::BANKER_WIN
            } else {
                ends::SHOWDOWN
            },
            outcome: None,
            yaku_mask: 0,
            points,
            calls: PerSeat::new(self.players()),
            house: if banker_seat.is_some() {
                commissions
            } else {
                banker_result
            },
            carried: crate::core::Carried::default(),
        });
        self.history.push(BankerHand {
            hand: self.ledger.round,
            banker_tiles: self.banker.iter().collect(),
            banker_value,
            banker_hand,
            banker_win,
            players,
            banker_result,
            rules: std::mem::take(&mut self.rules_applied),
            rule_seats: std::mem::take(&mut self.rule_seats),
            banker_seat,
            bank_to,
            pot: 0,
            winners: Vec::new(),
            betting: Vec::new(),
            banker_arranged,
        });
        if let Some(to) = bank_to {
            self.ledger.dealer = to;
            self.bank_hands = 0;
        }
        self.start_hand();
    }

    /// The arranged hands of `dealt` whose first hand is `first`, in words, with each hand's
    /// outcome (none: the banker's).
    fn arranged_words(
        &self,
        first: CardSet,
        dealt: CardSet,
        outcomes: &[std::cmp::Ordering],
    ) -> Vec<HandArranged> {
        let Some(arrange) = &self.flow.arrange else {
            return Vec::new();
        };
        arrange
            .hands
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let cards = super::arrange::hand_of(first, dealt, i);
                HandArranged {
                    hand: h.id.clone(),
                    cards: cards.iter().collect(),
                    value: hand_value(&self.flow, cards),
                    rank: ranking::words(&self.flow, &rank_hand(&self.flow, cards)),
                    outcome: outcomes.get(i).map_or(0, |&o| o as i8),
                }
            })
            .collect()
    }

    /// The seat that banks, when the bank is a seat (`[flow.bank]` without a pot).
    pub fn banker_seat(&self) -> Option<usize> {
        (self.flow.bank.is_some() && self.flow.pot.is_none()).then_some(self.ledger.dealer)
    }

    /// The seat that deals a pot game's hand.
    pub fn dealer_seat(&self) -> Option<usize> {
        self.flow.pot.is_some().then_some(self.ledger.dealer)
    }

    /// The first banker: the first seat, or the seat shown the highest (lowest) card's value
    /// when each seat in turn is shown one card of a freshly shuffled pack (ties to the earlier
    /// seat).
    fn choose_first_banker(&mut self, first: crate::ruleset::FirstBanker) -> usize {
        use crate::ruleset::FirstBanker;
        if first == FirstBanker::FirstSeat {
            return 0;
        }
        let n = self.ruleset.deck.cards.len();
        let mut deck = CardId::ALL;
        shuffle(&mut deck, n, &mut self.rng);
        let values: Vec<i64> = (0..self.players())
            .map(|s| hand_value(&self.flow, CardSet::single(deck[s % n])))
            .collect();
        let mut best = 0;
        for (s, &v) in values.iter().enumerate() {
            let better = match first {
                FirstBanker::HighCard => v > values[best],
                _ => v < values[best],
            };
            if better {
                best = s;
            }
        }
        best
    }

    /// Where the bank passes after a hand: with `pass_to_winner`, to the player who beat the
    /// banker by most (among those `pass_when` holds for, when given); else to the first player
    /// in turn after the banker for whom `pass_when` holds at a showdown; else in turn after
    /// `pass_every` hands.
    fn bank_passes(&mut self, showdown: bool, players: &[PlayerResult]) -> Option<usize> {
        let bank = self.flow.bank.as_ref()?;
        let banker = self.banker_seat()?;
        self.bank_hands += 1;
        let n = self.players();
        let in_turn = (1..n).map(|i| (banker + i) % n);
        if showdown && bank.pass_to_winner {
            let won: Vec<&PlayerResult> = in_turn
                .clone()
                .filter_map(|s| players.iter().find(|p| p.seat == s))
                .filter(|p| p.result > 0 && self.passes_for(p.seat))
                .collect();
            if let Some(to) = self.winner_of(bank, &won) {
                return Some(to);
            }
        } else if showdown
            && bank.pass_when.is_some()
            && let Some(s) = in_turn.clone().find(|&s| self.passes_for(s))
        {
            return Some(s);
        }
        (bank.pass_every > 0 && self.bank_hands >= bank.pass_every).then_some((banker + 1) % n)
    }

    /// The player among `won` (winners against the banker, in turn after it) who beat the
    /// banker by most: by chips won or by the best hand (`winner_by`); equal best by
    /// `winner_ties`: the banker keeps the bank, or the first of them in turn takes it.
    fn winner_of(&self, bank: &crate::ruleset::Bank, won: &[&PlayerResult]) -> Option<usize> {
        use crate::ruleset::{WinnerBy, WinnerTies};
        use std::cmp::Ordering;
        let better = |a: &PlayerResult, b: &PlayerResult| match bank.winner_by {
            WinnerBy::Chips => a.result.cmp(&b.result),
            WinnerBy::Hand => against_banker(&self.flow, self.tiles[a.seat], self.tiles[b.seat]),
        };
        let mut best: Vec<&PlayerResult> = Vec::new();
        for &p in won {
            match best.first().map(|b| better(p, b)) {
                None | Some(Ordering::Equal) => best.push(p),
                Some(Ordering::Greater) => best = vec![p],
                Some(Ordering::Less) => {}
            }
        }
        match (best.len(), bank.winner_ties) {
            (0, _) => None,
            (1, _) | (_, WinnerTies::FirstInTurn) => Some(best[0].seat),
            (_, WinnerTies::BankerKeeps) => None,
        }
    }

    /// True when `[flow.bank] pass_when` holds for `seat`'s hand against the banker's (always
    /// without it), facts as in a drawing rule.
    fn passes_for(&self, s: usize) -> bool {
        let Some(when) = self.flow.bank.as_ref().and_then(|b| b.pass_when.as_ref()) else {
            return true;
        };
        if !self.in_hand[s] {
            return false;
        }
        let facts = [
            hand_value(&self.flow, self.tiles[s]),
            i64::from(self.tiles[s].len()),
            -1,
            hand_value(&self.flow, self.banker),
            i64::from(self.banker.len()),
            -1,
        ];
        when.truth(&Context {
            pile: CardSet::EMPTY,
            facts: &facts,
        })
    }

    /// What `seat` may see.
    pub fn view(&self, seat: usize) -> BankerView<'_> {
        BankerView {
            ruleset: &self.ruleset,
            seat,
            phase: self.phase,
            tiles: self.tiles[seat],
            bankroll: self.ledger.scores[seat],
            bets: &self.bets,
            limits: self.bet_range(seat),
            draw_options: &self.flow.draw_options,
            hand: self.ledger.round,
            hands_total: self.ledger.rounds,
            bet_kind: self.flow.table_hand.then_some(self.bet_kind),
            to_call: match self.phase {
                BankerPhase::Pot { seat: s } if s == seat => Some(self.to_call(seat)),
                _ => None,
            },
            pot: self.pot_state.pot,
            play: self.flow.play.as_ref().map(|_| {
                let hand = match self.phase {
                    BankerPhase::Act { .. } => self.seat_hands.get(self.acting),
                    _ => None,
                };
                super::view::PlayView {
                    cards: hand.map_or(&[][..], |h| &h.cards[..]),
                    split: hand.is_some_and(|h| h.split),
                    hands: hand.map_or(1, |h| {
                        self.seat_hands.iter().filter(|o| o.seat == h.seat).count()
                    }),
                    banker: self.banker_seen(),
                }
            }),
        }
    }
}

impl Game for BankerGame {
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
        self.players()
    }
    fn to_act(&self) -> Option<Seat> {
        BankerGame::to_act(self)
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        out.extend((0..self.legal_count()).filter_map(|i| self.legal_action(i)));
    }
    fn legal_count(&self) -> usize {
        if self.flow.play.is_some() {
            return self.play_legal_count();
        }
        if self.flow.table_hand {
            return self.table_legal_count();
        }
        if self.flow.pot.is_some() {
            return self.pot_legal_count();
        }
        match self.phase {
            BankerPhase::Bet { seat } => {
                let (low, top) = self.bet_range(seat);
                (top - low + 1).max(0) as usize
            }
            BankerPhase::Draw { .. } => {
                let left = self.stock_len() as u32;
                self.flow
                    .draw_options
                    .iter()
                    .filter(|&&n| n <= left)
                    .count()
            }
            BankerPhase::Arrange { seat } => self.flow.arrange.as_ref().map_or(0, |a| {
                super::arrange::arrangements(&self.flow, a, self.tiles[seat]).len()
            }),
            _ => 0,
        }
    }
    fn legal_action(&self, index: usize) -> Option<Action> {
        if self.flow.play.is_some() {
            return self.play_legal_action(index);
        }
        if self.flow.table_hand {
            return self.table_legal_action(index);
        }
        if self.flow.pot.is_some() {
            return self.pot_legal_action(index);
        }
        match self.phase {
            BankerPhase::Bet { seat } => {
                let (low, top) = self.bet_range(seat);
                let amount = low.checked_add(i64::try_from(index).ok()?)?;
                (amount <= top).then_some(Action::Bet { amount })
            }
            BankerPhase::Draw { .. } => {
                let left = self.stock_len() as u32;
                self.flow
                    .draw_options
                    .iter()
                    .filter(|&&n| n <= left)
                    .nth(index)
                    .map(|&count| Action::Draw { count })
            }
            BankerPhase::Arrange { seat } => {
                let a = self.flow.arrange.as_ref()?;
                super::arrange::arrangements(&self.flow, a, self.tiles[seat])
                    .get(index)
                    .map(|&cards| Action::PlaySet { cards })
            }
            _ => None,
        }
    }
    fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        BankerGame::apply(self, action)
    }
    fn zones(&self) -> Vec<(String, CardSet)> {
        if self.flow.play.is_some() {
            // A shoe of several packs holds each card several times: its cards, dealt or not,
            // are one zone (as a table hand's); the hands' copies are counted by the tests.
            if self.flow.shoe.is_some_and(|s| s.packs > 1) {
                return vec![("shoe".to_string(), self.stock.iter().copied().collect())];
            }
            let mut z = vec![
                (
                    "stock".to_string(),
                    self.stock[self.stock_pos..].iter().copied().collect(),
                ),
                ("banker".to_string(), self.banco.iter().copied().collect()),
            ];
            for s in 0..self.players() {
                let cards = self.seat_hands.iter().filter(|h| h.seat == s);
                z.push((
                    format!("tiles {s}"),
                    cards.flat_map(|h| h.cards.iter().copied()).collect(),
                ));
            }
            return z;
        }
        let mut z = vec![
            (
                "stock".to_string(),
                self.stock[self.stock_pos..].iter().copied().collect(),
            ),
            ("banker".to_string(), self.banker),
        ];
        for s in 0..self.players() {
            z.push((format!("tiles {s}"), self.tiles[s]));
        }
        z
    }
    fn unseen(&self, seat: Seat) -> CardSet {
        self.unseen_cards(seat).collect()
    }
    fn heuristic(&self, seat: Seat, legal: &[Action], _rng: &mut Xoshiro256PlusPlus) -> Action {
        super::greedy::best_choice(&self.view(seat), legal)
    }
    fn heuristic_reasons(&self, seat: Seat, legal: &[Action], action: Action) -> Vec<String> {
        super::greedy::reasons(&self.view(seat), legal, action)
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
        same_family(source, |source: &BankerGame| {
            source.determinize_into(seat, rng, self)
        })
    }
    fn box_clone(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }
    fn copy_from(&mut self, other: &dyn Game) -> bool {
        same_family(other, |other| BankerGame::copy_from(self, other))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_dyn(&self) -> &dyn Game {
        self
    }
}
