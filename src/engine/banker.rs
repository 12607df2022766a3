//! The banker-game core: players bet against a banker, draw more tiles, and compare hand values
//! at a showdown, with bankrolls kept across hands. Driven only by the ruleset's banker flow.
//!
//! Each hand: every player gets `first_tiles` and bets; the banker draws `banker_tiles` and wins
//! every bet at once when they meet a `banker_win` condition; otherwise each player chooses how
//! many more tiles to take (`draw_options`), and each hand's `value` is compared with the
//! banker's: higher wins the bet, lower loses it, equal keeps it.

use crate::deck::{CardId, CardSet};
use crate::expr::Context;
use crate::ruleset::{BankerFlow, DealCheck, Flow, Ruleset};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use serde::Serialize;
use std::sync::Arc;

/// A hand's value at the showdown.
pub fn hand_value(flow: &BankerFlow, pile: CardSet) -> i64 {
    flow.value.int(&Context { pile, facts: &[] })
}

/// The banker-win condition the banker's tiles meet, if any.
pub fn banker_instant_win(flow: &BankerFlow, pile: CardSet) -> Option<&DealCheck> {
    flow.banker_wins
        .iter()
        .find(|c| c.when.truth(&Context { pile, facts: &[] }))
}

/// A player's move in a banker game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum BankerAction {
    /// Bet this many chips.
    Bet {
        /// The chips.
        amount: i64,
    },
    /// Take this many more tiles.
    Draw {
        /// The tiles.
        tiles: u32,
    },
}

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
    /// The session is over.
    GameOver,
}

/// How to start a banker game.
#[derive(Clone, Debug, Default)]
pub struct BankerOptions {
    /// The seed every random choice flows from.
    pub seed: u64,
    /// Players against the banker (the ruleset's default when `None`).
    pub players: Option<usize>,
    /// Hands in the session (the ruleset's when `None`).
    pub hands: Option<u32>,
    /// Table limits overriding the ruleset's.
    pub min_bet: Option<i64>,
    /// Table limits overriding the ruleset's.
    pub max_bet: Option<i64>,
    /// Deck orders to deal from instead of shuffling, one per hand.
    pub deck_orders: Vec<Vec<CardId>>,
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
    /// The banker-win condition met, if any.
    pub banker_win: Option<String>,
    /// Each player who played the hand.
    pub players: Vec<PlayerResult>,
    /// The banker's net chips.
    pub banker_result: i64,
}

/// A banker game in progress.
#[derive(Clone, Debug)]
pub struct BankerGame {
    ruleset: Arc<Ruleset>,
    flow: Arc<BankerFlow>,
    rng: Xoshiro256PlusPlus,
    orders: std::vec::IntoIter<Vec<CardId>>,
    hands_total: u32,
    min_bet: i64,
    max_bet: i64,
    hand: u32,
    phase: BankerPhase,
    bankrolls: Vec<i64>,
    banker_bankroll: Option<i64>,
    /// Seats playing the current hand.
    in_hand: Vec<bool>,
    tiles: Vec<CardSet>,
    bets: Vec<i64>,
    banker: CardSet,
    stock: Vec<CardId>,
    stock_pos: usize,
    history: Vec<BankerHand>,
    /// Every hand's deck order, for records.
    pub dealt_orders: Vec<Vec<CardId>>,
}

impl BankerGame {
    /// Starts a session; the first hand is dealt at once.
    pub fn new(ruleset: Arc<Ruleset>, options: BankerOptions) -> Result<BankerGame, String> {
        let Flow::Banker(flow) = &ruleset.flow else {
            return Err(format!("ruleset `{}` is not a banker game", ruleset.id));
        };
        let flow = Arc::clone(flow);
        let players = options.players.unwrap_or(flow.players as usize);
        if players == 0 || players > flow.max_players as usize {
            return Err(format!(
                "this table seats 1 to {} players, not {players}",
                flow.max_players
            ));
        }
        let min_bet = options.min_bet.unwrap_or(flow.min_bet);
        let max_bet = options.max_bet.unwrap_or(flow.max_bet);
        if min_bet < 1 || min_bet > max_bet {
            return Err(format!(
                "the table limits must satisfy 1 <= min ({min_bet}) <= max ({max_bet})"
            ));
        }
        let mut game = BankerGame {
            rng: Xoshiro256PlusPlus::seed_from_u64(options.seed),
            orders: options.deck_orders.into_iter(),
            hands_total: options.hands.unwrap_or(flow.hands),
            min_bet,
            max_bet,
            hand: 0,
            phase: BankerPhase::GameOver,
            bankrolls: vec![flow.bankroll; players],
            banker_bankroll: flow.banker_bankroll,
            in_hand: vec![false; players],
            tiles: vec![CardSet::EMPTY; players],
            bets: vec![0; players],
            banker: CardSet::EMPTY,
            stock: Vec::new(),
            stock_pos: 0,
            history: Vec::new(),
            dealt_orders: Vec::new(),
            flow,
            ruleset,
        };
        game.start_hand();
        Ok(game)
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
            BankerPhase::Bet { seat } | BankerPhase::Draw { seat } => Some(seat),
            BankerPhase::GameOver => None,
        }
    }

    /// True when the session has ended.
    pub fn is_over(&self) -> bool {
        self.phase == BankerPhase::GameOver
    }

    /// Players at the table.
    pub fn players(&self) -> usize {
        self.bankrolls.len()
    }

    /// Each player's chips.
    pub fn bankrolls(&self) -> &[i64] {
        &self.bankrolls
    }

    /// The banker's chips (`None`: unlimited).
    pub fn banker_bankroll(&self) -> Option<i64> {
        self.banker_bankroll
    }

    /// The hand in progress (or the last), 1-based.
    pub fn hand(&self) -> u32 {
        self.hand
    }

    /// Hands in the session.
    pub fn hands_total(&self) -> u32 {
        self.hands_total
    }

    /// The table limits in force.
    pub fn limits(&self) -> (i64, i64) {
        (self.min_bet, self.max_bet)
    }

    /// Finished hands.
    pub fn history(&self) -> &[BankerHand] {
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
    pub fn legal(&self) -> Vec<BankerAction> {
        match self.phase {
            BankerPhase::Bet { seat } => {
                let top = self.max_bet.min(self.bankrolls[seat]);
                (self.min_bet..=top)
                    .map(|amount| BankerAction::Bet { amount })
                    .collect()
            }
            BankerPhase::Draw { .. } => {
                let left = (self.stock.len() - self.stock_pos) as u32;
                self.flow
                    .draw_options
                    .iter()
                    .filter(|&&n| n <= left)
                    .map(|&tiles| BankerAction::Draw { tiles })
                    .collect()
            }
            BankerPhase::GameOver => Vec::new(),
        }
    }

    /// Applies a player's action.
    pub fn apply(&mut self, action: BankerAction) -> Result<(), String> {
        match (self.phase, action) {
            (BankerPhase::Bet { seat }, BankerAction::Bet { amount }) => {
                let top = self.max_bet.min(self.bankrolls[seat]);
                if amount < self.min_bet || amount > top {
                    return Err(format!(
                        "a bet must be between {} and {top} chips",
                        self.min_bet
                    ));
                }
                self.bets[seat] = amount;
                match self.next_in_hand(seat) {
                    Some(next) => self.phase = BankerPhase::Bet { seat: next },
                    None => self.banker_draws(),
                }
            }
            (BankerPhase::Draw { seat }, BankerAction::Draw { tiles }) => {
                if !self.legal().contains(&action) {
                    let options: Vec<String> =
                        self.flow.draw_options.iter().map(u32::to_string).collect();
                    return Err(format!("you may take {} more tiles", options.join(" or ")));
                }
                for _ in 0..tiles {
                    let t = self.draw();
                    self.tiles[seat].insert(t);
                }
                match self.next_in_hand(seat) {
                    Some(next) => self.phase = BankerPhase::Draw { seat: next },
                    None => self.showdown(),
                }
            }
            (BankerPhase::GameOver, _) => return Err("the session is over".into()),
            (BankerPhase::Bet { .. }, _) => return Err("a bet is expected now".into()),
            (BankerPhase::Draw { .. }, _) => return Err("choose how many tiles to take now".into()),
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
        let banker_broke = self.banker_bankroll.is_some_and(|b| b <= 0);
        for s in 0..self.players() {
            self.in_hand[s] = self.bankrolls[s] >= self.min_bet;
        }
        if self.hand >= self.hands_total || banker_broke || !self.in_hand.iter().any(|&b| b) {
            self.phase = BankerPhase::GameOver;
            return;
        }
        self.hand += 1;
        let n = self.ruleset.deck.cards.len();
        let mut order = std::mem::take(&mut self.stock);
        match self.orders.next() {
            Some(o) if o.len() == n => order = o,
            _ => {
                order.clear();
                order.extend((0..n as u8).map(CardId));
                for i in (1..n).rev() {
                    let j = self.rng.random_range(0..=i);
                    order.swap(i, j);
                }
            }
        }
        self.dealt_orders.push(order.clone());
        self.stock = order;
        self.stock_pos = 0;
        self.banker = CardSet::EMPTY;
        for s in 0..self.players() {
            self.tiles[s] = CardSet::EMPTY;
            self.bets[s] = 0;
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
        let first = (0..self.players())
            .find(|&s| self.in_hand[s])
            .expect("someone plays the hand");
        self.phase = BankerPhase::Draw { seat: first };
    }

    fn showdown(&mut self) {
        self.settle(None);
    }

    fn settle(&mut self, banker_win: Option<String>) {
        let banker_value = banker_win
            .is_none()
            .then(|| hand_value(&self.flow, self.banker));
        let mut players = Vec::new();
        let mut banker_result = 0;
        for s in 0..self.players() {
            if !self.in_hand[s] {
                continue;
            }
            let value = banker_value.map(|_| hand_value(&self.flow, self.tiles[s]));
            let bet = self.bets[s];
            let result = match (value, banker_value) {
                (Some(v), Some(b)) => bet * (v - b).signum(),
                _ => -bet,
            };
            self.bankrolls[s] += result;
            banker_result -= result;
            players.push(PlayerResult {
                seat: s,
                tiles: self.tiles[s].iter().collect(),
                value,
                bet,
                result,
            });
        }
        if let Some(b) = &mut self.banker_bankroll {
            *b += banker_result;
        }
        self.history.push(BankerHand {
            hand: self.hand,
            banker_tiles: self.banker.iter().collect(),
            banker_value,
            banker_win,
            players,
            banker_result,
        });
        self.start_hand();
    }

    /// What `seat` may see.
    pub fn view(&self, seat: usize) -> BankerView<'_> {
        BankerView {
            ruleset: &self.ruleset,
            seat,
            phase: self.phase,
            tiles: self.tiles[seat],
            bankroll: self.bankrolls[seat],
            bets: &self.bets,
            limits: (self.min_bet, self.max_bet.min(self.bankrolls[seat])),
            draw_options: &self.flow.draw_options,
            hand: self.hand,
            hands_total: self.hands_total,
        }
    }
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
}
