//! A table hand (`[flow] table_hand = true`, as in punto banco): the seats stake on the
//! ruleset's bets, then one player hand and the banker's hand are dealt from the shoe and drawn
//! to by the drawing rules, and every bet is settled on the outcome.
//!
//! A shoe holds `shoe_packs` copies of every card of the deck; it cannot be a [`CardSet`] (a
//! set of distinct cards, at most 64), so it and the two hands are lists of card ids, and a
//! hand may hold the same card twice. Expressions still read a [`CardSet`]: a hand's distinct
//! cards, with the facts `hand_points` and `hand_cards` counting every copy.

use super::{BankerGame, BankerHand, BankerPhase, BetResult, PlayerResult, ends};
use crate::core::{Action, HandResult, IllegalAction, PerSeat};
use crate::deck::{CardId, CardSet};
use crate::expr::Context;
use crate::families::banker::value::cards_value;
use crate::ruleset::{BankerFlow, DrawAction, DrawRule};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// The most cards one hand takes: the drawing rules are read again after each card, and a rule
/// that always draws stops here.
const MOST_CARDS: usize = CardSet::CAPACITY;

/// The facts of [`crate::ruleset::scope::SHOWDOWN`] for the two hands: values, card counts and
/// the value of the card each drew after its first cards (`-1`: none).
pub fn showdown_facts(flow: &BankerFlow, punto: &[CardId], banco: &[CardId]) -> [i64; 6] {
    let drew = |cards: &[CardId], first: u32| match cards.len() > first as usize {
        true => cards.last().map_or(-1, |c| flow.card_points[c.index()]),
        false => -1,
    };
    [
        cards_value(flow, punto),
        punto.len() as i64,
        drew(punto, flow.first_tiles),
        cards_value(flow, banco),
        banco.len() as i64,
        drew(banco, flow.banker_tiles),
    ]
}

/// The first of `rules` that holds on these facts.
pub fn rule_for<'r>(rules: &'r [DrawRule], facts: &[i64; 6]) -> Option<&'r DrawRule> {
    let cx = Context {
        pile: CardSet::EMPTY,
        facts,
    };
    rules.iter().find(|r| r.when.truth(&cx))
}

impl BankerGame {
    /// The cards of a fresh shoe: `packs` copies of the deck (one without a shoe).
    fn shoe_size(&self) -> usize {
        let packs = self.flow.shoe.map_or(1, |s| s.packs) as usize;
        packs * self.ruleset.deck.cards.len()
    }

    /// A new shoe, from the next recorded order when one fits, else shuffled.
    pub(super) fn new_shoe(&mut self) {
        let size = self.shoe_size();
        match self.orders.next() {
            Some(o)
                if o.len() == size
                    && o.iter().all(|c| c.index() < self.ruleset.deck.cards.len()) =>
            {
                self.stock = o;
            }
            _ => {
                let n = self.ruleset.deck.cards.len();
                self.stock.clear();
                self.stock.extend((0..size).map(|i| CardId((i % n) as u8)));
                crate::deck::shuffle_slice(&mut self.stock, &mut self.rng);
            }
        }
        self.stock_pos = 0;
        self.ledger.dealt_orders.push(self.stock.clone());
    }

    /// The next card of the shoe (a new shoe when it is empty).
    pub(super) fn table_draw(&mut self) -> CardId {
        if self.stock_pos >= self.stock.len() {
            self.new_shoe();
        }
        self.draw()
    }

    /// The player's cards on the table hand, in the order dealt.
    pub fn table_player_cards(&self) -> &[CardId] {
        &self.punto
    }

    /// The banker's cards on the table hand, in the order dealt.
    pub fn table_banker_cards(&self) -> &[CardId] {
        &self.banco
    }

    /// What each seat has staked on each bet this hand (`seat * bets + bet`).
    pub fn stakes(&self) -> &[i64] {
        &self.stakes
    }

    /// Chips `seat` has staked this hand.
    fn staked(&self, seat: usize) -> i64 {
        let k = self.flow.bets.len();
        self.stakes[seat * k..(seat + 1) * k].iter().sum()
    }

    /// The largest stake `seat` may place on the next bet.
    fn table_top(&self, seat: usize) -> i64 {
        self.max_bet
            .min(self.ledger.scores[seat] - self.staked(seat))
    }

    /// Begins a hand the house deals to every seat with chips (a table hand, or hands played
    /// by actions): false, with the game over, when the hands are played, the bank is broke or
    /// no seat can bet; else the hand is counted and a new shoe started where one is due.
    pub(super) fn open_house_hand(&mut self) -> bool {
        let banker_broke = self.banker_bankroll.is_some_and(|b| b <= 0);
        for s in 0..self.players() {
            self.in_hand[s] = self.ledger.scores[s] >= self.min_bet;
        }
        if self.ledger.round >= self.ledger.rounds
            || banker_broke
            || !self.in_hand.iter().any(|&b| b)
        {
            self.phase = BankerPhase::GameOver;
            return false;
        }
        self.ledger.round += 1;
        let cut = self.flow.shoe.map_or(usize::MAX, |s| s.cut as usize);
        let left = self.stock.len() - self.stock_pos;
        // Without a shoe every hand is dealt from a new pack; with one, a new shoe starts when
        // the cut card has come out.
        if self.flow.shoe.is_none() || self.stock.is_empty() || left < cut.max(1) {
            self.new_shoe();
        }
        true
    }

    pub(super) fn table_start_hand(&mut self) {
        if !self.open_house_hand() {
            return;
        }
        self.punto.clear();
        self.banco.clear();
        self.rules_applied.clear();
        self.rule_seats.clear();
        self.stakes.iter_mut().for_each(|s| *s = 0);
        self.bets.iter_mut().for_each(|b| *b = 0);
        self.tiles.iter_mut().for_each(|t| *t = CardSet::EMPTY);
        self.banker = CardSet::EMPTY;
        self.bet_kind = 0;
        let first = (0..self.players())
            .find(|&s| self.in_hand[s])
            .expect("someone plays the hand");
        self.phase = BankerPhase::Bet { seat: first };
    }

    pub(super) fn table_legal_count(&self) -> usize {
        match self.phase {
            BankerPhase::Bet { seat } => {
                1 + (self.table_top(seat) - self.min_bet + 1).max(0) as usize
            }
            _ => 0,
        }
    }

    pub(super) fn table_legal_action(&self, index: usize) -> Option<Action> {
        let BankerPhase::Bet { seat } = self.phase else {
            return None;
        };
        if index == 0 {
            return Some(Action::Bet { amount: 0 });
        }
        let amount = self.min_bet.checked_add(i64::try_from(index - 1).ok()?)?;
        (amount <= self.table_top(seat)).then_some(Action::Bet { amount })
    }

    pub(super) fn table_apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        let illegal = |reason: String| Err(IllegalAction { reason });
        let BankerPhase::Bet { seat } = self.phase else {
            return illegal("the session is over".into());
        };
        let Action::Bet { amount } = action else {
            return illegal("a bet is expected now".into());
        };
        let top = self.table_top(seat);
        if amount != 0 && (amount < self.min_bet || amount > top) {
            return illegal(if top < self.min_bet {
                "no chips are left for another bet: stake 0".to_string()
            } else {
                format!(
                    "a stake must be 0 or between {} and {top} chips",
                    self.min_bet
                )
            });
        }
        let k = self.flow.bets.len();
        self.stakes[seat * k + self.bet_kind] = amount;
        self.bets[seat] += amount;
        if self.bet_kind + 1 < k {
            self.bet_kind += 1;
            return Ok(());
        }
        self.bet_kind = 0;
        match self.next_in_hand(seat) {
            Some(next) => self.phase = BankerPhase::Bet { seat: next },
            None => self.play_table_hand(),
        }
        Ok(())
    }

    /// Deals the two hands, draws by the rules, and settles every bet.
    fn play_table_hand(&mut self) {
        let flow = std::sync::Arc::clone(&self.flow);
        for i in 0..flow.first_tiles.max(flow.banker_tiles) {
            if i < flow.first_tiles {
                let c = self.table_draw();
                self.punto.push(c);
            }
            if i < flow.banker_tiles {
                let c = self.table_draw();
                self.banco.push(c);
            }
        }
        for banker in [false, true] {
            let rules = if banker {
                &flow.banker_draw
            } else {
                &flow.player_draw
            };
            loop {
                let facts = showdown_facts(&flow, &self.punto, &self.banco);
                let Some(rule) = rule_for(rules, &facts) else {
                    break;
                };
                // Both hands' rules may name the same thing (a natural): said once.
                self.note_rule(None, &rule.name);
                let hand = if banker { &self.banco } else { &self.punto };
                if rule.action == DrawAction::Stand || hand.len() >= MOST_CARDS {
                    break;
                }
                let c = self.table_draw();
                if banker {
                    self.banco.push(c);
                } else {
                    self.punto.push(c);
                }
            }
        }
        self.settle_table();
    }

    fn settle_table(&mut self) {
        let flow = std::sync::Arc::clone(&self.flow);
        let facts = showdown_facts(&flow, &self.punto, &self.banco);
        let cx = Context {
            pile: CardSet::EMPTY,
            facts: &facts,
        };
        let outcomes: Vec<(bool, bool)> = flow
            .bets
            .iter()
            .map(|b| {
                let wins = b.wins.truth(&cx);
                (
                    wins,
                    !wins && b.pushes.as_ref().is_some_and(|p| p.truth(&cx)),
                )
            })
            .collect();
        let k = flow.bets.len();
        let mut players = Vec::new();
        let mut banker_result = 0;
        for s in 0..self.players() {
            if !self.in_hand[s] {
                continue;
            }
            let mut bets = Vec::new();
            for (i, kind) in flow.bets.iter().enumerate() {
                let stake = self.stakes[s * k + i];
                if stake == 0 {
                    continue;
                }
                let result = match outcomes[i] {
                    (true, _) => kind.won(stake),
                    (false, true) => 0,
                    (false, false) => -stake,
                };
                bets.push(BetResult {
                    bet: kind.id.clone(),
                    stake,
                    result,
                });
            }
            let result: i64 = bets.iter().map(|b| b.result).sum();
            self.ledger.scores[s] += result;
            banker_result -= result;
            players.push(PlayerResult {
                seat: s,
                tiles: self.punto.clone(),
                value: Some(facts[0]),
                bet: self.staked(s),
                result,
                bets,
                hand: None,
                folded: false,
                hands: Vec::new(),
                insurance: None,
                arranged: Vec::new(),
            });
        }
        self.close_house_hand(players, banker_result, facts[3], None);
        self.start_hand();
    }

    /// Ends a hand the house settled alone (a table hand, or hands played by actions): the
    /// bank's result, every seat's points and the hand's record (the caller deals the next).
    pub(super) fn close_house_hand(
        &mut self,
        players: Vec<PlayerResult>,
        banker_result: i64,
        banker_value: i64,
        banker_hand: Option<String>,
    ) {
        if let Some(b) = &mut self.banker_bankroll {
            *b += banker_result;
        }
        let mut points: PerSeat<i64> = PerSeat::new(self.players());
        for p in &players {
            points[p.seat] = p.result;
        }
        self.ledger.history.push(HandResult {
            round: self.ledger.round,
            dealer: None,
            winner: None,
            end: ends::SHOWDOWN,
            outcome: None,
            yaku_mask: 0,
            points,
            calls: PerSeat::new(self.players()),
            house: banker_result,
            carried: crate::core::Carried::default(),
        });
        self.history.push(BankerHand {
            hand: self.ledger.round,
            banker_tiles: self.banco.clone(),
            banker_value: Some(banker_value),
            banker_hand,
            banker_win: None,
            players,
            banker_result,
            rules: std::mem::take(&mut self.rules_applied),
            rule_seats: std::mem::take(&mut self.rule_seats),
            banker_seat: None,
            bank_to: None,
            pot: 0,
            winners: Vec::new(),
            betting: Vec::new(),
            banker_arranged: Vec::new(),
        });
    }

    /// A bettor sees nothing hidden but the shoe's order: it is shuffled again.
    pub(super) fn table_deal_hidden(&self, rng: &mut Xoshiro256PlusPlus, world: &mut Self) {
        crate::deck::shuffle_slice(&mut world.stock[self.stock_pos..], rng);
        world.orders = Vec::new().into_iter();
        world.rng = Xoshiro256PlusPlus::seed_from_u64(rng.random());
        world.history.clear();
        world.ledger.copy_from(&self.ledger, false);
    }
}
