//! A pot game (`[flow.pot]`, as in Seotda): every seat antes, cards are dealt before each
//! betting round, the seats bet in turn from the dealer (check, call, raise, fold), and the best
//! hand still in at the showdown, by the ruleset's ranking, takes the pot.
//!
//! Chips put in leave the seat's bankroll at once, so the bankrolls and the pot always add up
//! to the chips the session started with. A raise may not take the bet beyond what any seat
//! still in can call (table stakes without side pots: the smallest stack caps the betting).

use super::{BankerGame, BankerHand, BankerPhase, PlayerResult, ends};
use crate::core::{Action, HandResult, IllegalAction, PerSeat};
use crate::deck::{CardId, CardSet, shuffle};
use crate::families::banker::ranking::{self, Ranked};
use crate::families::banker::value::hand_value;

/// The most redeals of one hand: beyond, the hands are compared as they are.
const MOST_REDEALS: usize = 10;

/// A pot hand in progress.
#[derive(Clone, Debug, Default)]
pub struct PotState {
    /// Chips in the pot.
    pub pot: i64,
    /// Chips each seat has put in this hand.
    pub committed: Vec<i64>,
    /// Chips each seat has put in this betting round.
    pub round_bet: Vec<i64>,
    /// Seats that folded this hand.
    pub folded: Vec<bool>,
    /// Seats that acted this betting round.
    pub acted: Vec<bool>,
    /// The betting round (index in `rounds`).
    pub deal_round: usize,
    /// Raises made this betting round.
    pub raises: u32,
    /// The special hands that made this hand be dealt again.
    pub redeals: Vec<String>,
    /// What each seat did, in order (`seat 2 raises 3`).
    pub betting: Vec<String>,
}

impl PotState {
    fn reset(&mut self, seats: usize) {
        self.pot = 0;
        for v in [&mut self.committed, &mut self.round_bet] {
            v.clear();
            v.resize(seats, 0);
        }
        for v in [&mut self.folded, &mut self.acted] {
            v.clear();
            v.resize(seats, false);
        }
        self.deal_round = 0;
        self.raises = 0;
        self.redeals.clear();
        self.betting.clear();
    }

    /// The round's bet to match.
    pub fn level(&self) -> i64 {
        self.round_bet.iter().copied().max().unwrap_or(0)
    }
}

impl BankerGame {
    /// The pot hand in progress.
    pub fn pot_state(&self) -> &PotState {
        &self.pot_state
    }

    /// Seats still in the pot hand, in turn from the dealer.
    fn live_from_dealer(&self) -> Vec<usize> {
        let n = self.players();
        let dealer = self.ledger.dealer;
        (0..n)
            .map(|i| (dealer + i) % n)
            .filter(|&s| self.in_hand[s] && !self.pot_state.folded[s])
            .collect()
    }

    pub(super) fn pot_start_hand(&mut self) {
        let pot = self.flow.pot.clone().expect("a pot game");
        let n = self.players();
        for s in 0..n {
            self.in_hand[s] = self.ledger.scores[s] > 0 && self.ledger.scores[s] >= pot.ante;
        }
        let playing = self.in_hand.iter().filter(|&&b| b).count();
        if self.ledger.round >= self.ledger.rounds || playing < 2 {
            self.phase = BankerPhase::GameOver;
            return;
        }
        self.ledger.round += 1;
        let dealer = self.ledger.dealer;
        if !self.in_hand[dealer] {
            self.ledger.dealer = (1..n)
                .map(|i| (dealer + i) % n)
                .find(|&s| self.in_hand[s])
                .expect("two seats play");
        }
        self.pot_state.reset(n);
        self.banker = CardSet::EMPTY;
        for s in 0..n {
            self.bets[s] = 0;
            if self.in_hand[s] {
                self.ledger.scores[s] -= pot.ante;
                self.pot_state.committed[s] += pot.ante;
                self.pot_state.pot += pot.ante;
                self.bets[s] = pot.ante;
            }
        }
        self.pot_new_deal();
    }

    /// A fresh pack (the next recorded order when one fits), dealt to the seats still in.
    fn pot_new_deal(&mut self) {
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
        for t in &mut self.tiles {
            *t = CardSet::EMPTY;
        }
        self.pot_state.deal_round = 0;
        self.pot_deal_cards();
    }

    /// Deals this betting round's cards, then opens the betting.
    fn pot_deal_cards(&mut self) {
        let count = self.flow.pot.as_ref().expect("a pot game").rounds[self.pot_state.deal_round];
        let live = self.live_from_dealer();
        for _ in 0..count {
            for &s in &live {
                let t = self.draw();
                self.tiles[s].insert(t);
            }
        }
        for s in 0..self.players() {
            self.pot_state.round_bet[s] = 0;
            self.pot_state.acted[s] = false;
        }
        self.pot_state.raises = 0;
        self.phase = BankerPhase::Pot { seat: live[0] };
    }

    /// The most a seat may have put in this round: what every seat still in can match.
    fn pot_cap(&self) -> i64 {
        self.live_from_dealer()
            .iter()
            .map(|&s| self.pot_state.round_bet[s] + self.ledger.scores[s])
            .min()
            .unwrap_or(0)
    }

    /// The raises `seat` may make now: chips beyond the call, smallest and largest (`None`: no
    /// raise).
    fn pot_raises(&self, seat: usize) -> Option<(i64, i64)> {
        let pot = self.flow.pot.as_ref()?;
        if self.pot_state.raises >= pot.raises {
            return None;
        }
        let room = self.pot_cap() - self.pot_state.level();
        let top = self.max_bet.min(room);
        let _ = seat;
        (top >= self.min_bet).then_some((self.min_bet, top))
    }

    /// Chips `seat` must put in to call.
    pub fn to_call(&self, seat: usize) -> i64 {
        self.pot_state.level() - self.pot_state.round_bet[seat]
    }

    pub(super) fn pot_legal_count(&self) -> usize {
        let BankerPhase::Pot { seat } = self.phase else {
            return 0;
        };
        let base = if self.to_call(seat) > 0 { 2 } else { 1 };
        base + self
            .pot_raises(seat)
            .map_or(0, |(low, top)| (top - low + 1) as usize)
    }

    /// The actions in order: 0 chips (check, or fold when a bet is to call), the call, then
    /// each raise from the smallest.
    pub(super) fn pot_legal_action(&self, index: usize) -> Option<Action> {
        let BankerPhase::Pot { seat } = self.phase else {
            return None;
        };
        let owe = self.to_call(seat);
        if index == 0 {
            return Some(Action::Bet { amount: 0 });
        }
        let index = if owe > 0 {
            if index == 1 {
                return Some(Action::Bet { amount: owe });
            }
            index - 2
        } else {
            index - 1
        };
        let (low, top) = self.pot_raises(seat)?;
        let raise = low.checked_add(i64::try_from(index).ok()?)?;
        (raise <= top).then_some(Action::Bet {
            amount: owe + raise,
        })
    }

    /// What putting `amount` chips in means for `seat` now: `check`, `fold`, `call` or `raise`.
    pub fn pot_action_word(&self, seat: usize, amount: i64) -> &'static str {
        let owe = self.to_call(seat);
        match (amount, owe) {
            (0, 0) => "check",
            (0, _) => "fold",
            (a, o) if a == o => "call",
            (_, 0) => "bet",
            _ => "raise",
        }
    }

    pub(super) fn pot_apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        let illegal = |reason: String| Err(IllegalAction { reason });
        let BankerPhase::Pot { seat } = self.phase else {
            return illegal("the session is over".into());
        };
        let Action::Bet { amount } = action else {
            return illegal("put chips in the pot (0 to check or fold)".into());
        };
        let legal = (0..self.pot_legal_count()).any(|i| self.pot_legal_action(i) == Some(action));
        if !legal {
            let owe = self.to_call(seat);
            let raises = match self.pot_raises(seat) {
                Some((low, top)) => format!(", or raise with {} to {}", owe + low, owe + top),
                None => String::new(),
            };
            return illegal(if owe > 0 {
                format!("put in 0 (fold) or {owe} (call){raises}")
            } else {
                format!("put in 0 (check){raises}")
            });
        }
        let word = self.pot_action_word(seat, amount);
        self.pot_state.betting.push(if amount > 0 {
            format!("seat {} {word}s {amount}", seat + 1)
        } else {
            format!("seat {} {word}s", seat + 1)
        });
        let owe = self.to_call(seat);
        if amount == 0 && owe > 0 {
            self.pot_state.folded[seat] = true;
        } else {
            if amount > owe {
                self.pot_state.raises += 1;
            }
            self.ledger.scores[seat] -= amount;
            self.pot_state.round_bet[seat] += amount;
            self.pot_state.committed[seat] += amount;
            self.bets[seat] += amount;
            self.pot_state.pot += amount;
        }
        self.pot_state.acted[seat] = true;
        let live = self.live_from_dealer();
        if live.len() == 1 {
            self.pot_settle(&[live[0]], ends::FOLD);
            return Ok(());
        }
        let n = self.players();
        let level = self.pot_state.level();
        let next = (1..n).map(|i| (seat + i) % n).find(|&s| {
            live.contains(&s) && (!self.pot_state.acted[s] || self.pot_state.round_bet[s] < level)
        });
        match next {
            Some(s) => self.phase = BankerPhase::Pot { seat: s },
            None => {
                self.pot_state.deal_round += 1;
                let rounds = self.flow.pot.as_ref().expect("a pot game").rounds.len();
                if self.pot_state.deal_round < rounds {
                    self.pot_deal_cards();
                } else {
                    self.pot_showdown();
                }
            }
        }
        Ok(())
    }

    /// The hands still in compared: a redeal when a special hand calls for one, else the pot to
    /// the best.
    fn pot_showdown(&mut self) {
        let flow = std::sync::Arc::clone(&self.flow);
        let hands: Vec<(usize, Ranked)> = self
            .live_from_dealer()
            .into_iter()
            .map(|s| (s, ranking::rank_hand(&flow, self.tiles[s])))
            .collect();
        if self.pot_state.redeals.len() < MOST_REDEALS
            && let Some((seat, special)) = ranking::redeal(&flow, &hands)
        {
            self.pot_state.redeals.push(format!(
                "{} (seat {}): dealt again",
                flow.specials[special].name,
                seat + 1
            ));
            self.pot_new_deal();
            return;
        }
        let winners = ranking::winners(&flow, &hands);
        self.pot_settle(&winners, ends::SHOWDOWN);
    }

    /// The pot shared among `winners` (in turn order; an odd chip to the first), the hand
    /// recorded, and the next hand dealt.
    fn pot_settle(&mut self, winners: &[usize], end: crate::core::HandEnd) {
        let flow = std::sync::Arc::clone(&self.flow);
        let n = self.players();
        let pot = std::mem::take(&mut self.pot_state.pot);
        let share = pot / winners.len() as i64;
        let mut won = vec![0; n];
        for (i, &w) in winners.iter().enumerate() {
            won[w] = share
                + if i == 0 {
                    pot - share * winners.len() as i64
                } else {
                    0
                };
            self.ledger.scores[w] += won[w];
        }
        let shown = end == ends::SHOWDOWN;
        let mut players = Vec::new();
        let mut points: PerSeat<i64> = PerSeat::new(n);
        for s in 0..n {
            if !self.in_hand[s] {
                continue;
            }
            let result = won[s] - self.pot_state.committed[s];
            points[s] = result;
            let folded = self.pot_state.folded[s];
            let ranked = ranking::rank_hand(&flow, self.tiles[s]);
            players.push(PlayerResult {
                seat: s,
                tiles: self.tiles[s].iter().collect(),
                value: (shown && !folded).then(|| hand_value(&flow, self.tiles[s])),
                bet: self.pot_state.committed[s],
                result,
                bets: Vec::new(),
                hand: (shown && !folded)
                    .then(|| ranking::words(&flow, &ranked))
                    .flatten(),
                folded,
                hands: Vec::new(),
                insurance: None,
                arranged: Vec::new(),
            });
        }
        let dealer = self.ledger.dealer;
        let winner = (winners.len() == 1).then(|| winners[0]);
        self.ledger.history.push(HandResult {
            round: self.ledger.round,
            dealer: Some(dealer),
            winner,
            end,
            outcome: None,
            yaku_mask: 0,
            points,
            calls: PerSeat::new(n),
            house: 0,
            carried: crate::core::Carried::default(),
        });
        // `winner_ties = "first-in-turn"`: a split pot's deal goes to the first of its winners
        // in turn after the dealer.
        let next_dealer = match flow.bank.as_ref() {
            Some(b) if b.pass_to_winner => match winner {
                Some(w) => w,
                None if b.winner_ties == crate::ruleset::WinnerTies::FirstInTurn => (1..n)
                    .map(|i| (dealer + i) % n)
                    .find(|s| winners.contains(s))
                    .unwrap_or(dealer),
                None => dealer,
            },
            _ => dealer,
        };
        self.history.push(BankerHand {
            hand: self.ledger.round,
            banker_tiles: Vec::new(),
            banker_value: None,
            banker_hand: None,
            banker_win: None,
            players,
            banker_result: 0,
            rules: std::mem::take(&mut self.pot_state.redeals),
            rule_seats: Vec::new(),
            banker_seat: Some(dealer),
            bank_to: (next_dealer != dealer).then_some(next_dealer),
            pot,
            winners: winners.to_vec(),
            betting: std::mem::take(&mut self.pot_state.betting),
            banker_arranged: Vec::new(),
        });
        self.ledger.dealer = next_dealer;
        self.pot_start_hand();
    }
}
