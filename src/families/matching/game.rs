//! The matching-game core: deal, turns, captures, declarations after a yaku or after the deal,
//! hand ends and the game's end, for two or more seats, driven only by the ruleset's flow
//! options, declarations and yaku table. No game is named here.

use super::view::View;
use crate::core::{
    Action, DeclId, Event, Game, HandEnd, HandResult, IllegalAction, PerSeat, Seat, StartError,
    StartOptions, next_seat,
};
use crate::deck::{CardId, CardSet};
use crate::expr::Context;
use crate::ruleset::{
    BothInstant, DealTarget, Exhausted, FirstDealer, Flow, GameLength, MatchingFlow, NextDealer,
    Ruleset, YakuScore,
};
use crate::script::ScriptError;
use crate::yaku::{self, Circumstances, FoundYaku, HandOutcome, Special};
use rand::distr::uniform::{UniformSampler, UniformUsize};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};
use std::sync::Arc;

/// Redeals tried before a dealt table is accepted as it is.
const MAX_REDEALS: u32 = 100;

/// `MatchingGame::evaluated` when no pile has been evaluated under the hand's facts (no real
/// pile holds every card of a 64-bit set).
const UNEVALUATED: CardSet = CardSet(u64::MAX);

/// How the hands of a matching game end.
pub mod ends {
    use crate::core::HandEnd;
    /// A player stopped after a yaku.
    pub const STOP: HandEnd = HandEnd("stop");
    /// An instant win at the deal.
    pub const INSTANT: HandEnd = HandEnd("instant");
    /// Two or more players held an instant win: no points.
    pub const BOTH_INSTANT: HandEnd = HandEnd("both_instant");
    /// The hands ran out: a draw.
    pub const EXHAUSTED: HandEnd = HandEnd("exhausted");
    /// The hands ran out and the dealer scored by house rule.
    pub const EXHAUSTED_DEALER: HandEnd = HandEnd("exhausted_dealer");
}

/// What a matching game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The seat after the dealer makes one of the after-deal declarations (swap or keep).
    AfterDeal,
    /// The player to act plays a hand card.
    Play,
    /// The player chooses which table card `card` captures.
    CaptureChoice {
        /// The card played or drawn.
        card: CardId,
        /// True when `card` came from the hand (the draw follows).
        from_hand: bool,
    },
    /// The player made or improved a yaku: one of the offered declarations (play on, stop).
    Declare,
    /// The game is over.
    GameOver,
}

/// A matching game in progress.
#[derive(Clone, Debug)]
pub struct MatchingGame {
    ruleset: Arc<Ruleset>,
    flow: Arc<MatchingFlow>,
    rng: Xoshiro256PlusPlus,
    orders: std::vec::IntoIter<Vec<CardId>>,
    rounds: u32,
    log: bool,
    keep_deals: bool,
    seats: usize,
    /// The pile each seat's yaku were last evaluated on.
    evaluated: PerSeat<CardSet>,
    /// Every deal's deck order, in order (records keep them).
    dealt_orders: Vec<Vec<CardId>>,
    first_dealer: Seat,
    round: u32,
    dealer: Seat,
    turn: Seat,
    phase: Phase,
    /// The declarations offered now: bit `i` for declaration `i` of the ruleset.
    offered: u64,
    hands: PerSeat<CardSet>,
    table: CardSet,
    stock: Vec<CardId>,
    stock_pos: usize,
    captured: PerSeat<CardSet>,
    calls: PerSeat<u32>,
    /// Each seat's yaku (a vector: a `YakuScore` is large, and only the seats in use are made).
    yaku: Vec<YakuScore>,
    table_count: i64,
    scores: PerSeat<i64>,
    history: Vec<HandResult>,
    events: Vec<Event>,
    error: Option<ScriptError>,
}

/// Starts a matching game; the first hand is dealt at once.
pub fn start(ruleset: Arc<Ruleset>, options: StartOptions) -> Result<MatchingGame, StartError> {
    let Flow::Matching(flow) = &ruleset.flow else {
        return Err(StartError::Options {
            message: format!("ruleset `{}` is not a matching game", ruleset.id),
        });
    };
    let flow = Arc::clone(flow);
    let seats = options.seats.unwrap_or(flow.players as usize);
    if !(flow.min_players as usize..=flow.max_players as usize).contains(&seats) {
        return Err(StartError::Options {
            message: format!(
                "`{}` seats {} to {} players, not {seats}",
                ruleset.id, flow.min_players, flow.max_players
            ),
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
    let deck_size = ruleset.deck.cards.len();
    let mut game = MatchingGame {
        ruleset,
        flow,
        rng,
        orders: options.deck_orders.into_iter(),
        rounds,
        log: options.log_events,
        keep_deals: !options.simulation,
        seats,
        evaluated: PerSeat::filled(seats, UNEVALUATED),
        dealt_orders: Vec::new(),
        first_dealer: dealer,
        round: 0,
        dealer,
        turn: dealer,
        phase: Phase::Play,
        offered: 0,
        hands: PerSeat::new(seats),
        table: CardSet::EMPTY,
        stock: Vec::with_capacity(deck_size),
        stock_pos: 0,
        captured: PerSeat::new(seats),
        calls: PerSeat::new(seats),
        yaku: vec![YakuScore::default(); seats],
        table_count: 0,
        scores: PerSeat::new(seats),
        history: Vec::new(),
        events: Vec::new(),
        error: None,
    };
    game.start_hand().map_err(StartError::Script)?;
    Ok(game)
}

impl MatchingGame {
    /// A game in the state `view` shows, with the cards the viewer cannot see placed: each
    /// other hand holds `other_hands[s]` and the stock is `stock`, next to be drawn first.
    /// Searching agents play out such guesses; the game keeps no history of earlier hands, and
    /// later deals are shuffled from `seed`. Fails when the placement does not fit the view.
    pub fn from_view(
        view: &View,
        other_hands: &PerSeat<CardSet>,
        stock: Vec<CardId>,
        seed: u64,
    ) -> Result<MatchingGame, IllegalAction> {
        let stock_set: CardSet = stock.iter().copied().collect();
        let mut placed = stock_set;
        let mut fits = stock.len() == view.stock_size && stock_set.len() as usize == stock.len();
        for s in 0..view.seats() {
            if s == view.seat {
                continue;
            }
            let h = other_hands[s];
            fits &= h.len() as usize == view.hand_sizes[s] && (placed & h).is_empty();
            placed |= h;
        }
        if !fits || placed != view.unseen {
            return Err(IllegalAction::new(format!(
                "the placement does not fit the view: {} hidden cards for the other hands and \
                 {} in the stock",
                view.unseen.len(),
                view.stock_size
            )));
        }
        let ruleset = Arc::clone(view.ruleset);
        let Some(flow) = ruleset.matching() else {
            return Err(IllegalAction::new(format!(
                "ruleset `{}` is not a matching game",
                ruleset.id
            )));
        };
        let flow = Arc::clone(flow);
        let mut hands = *other_hands;
        hands[view.seat] = view.hand;
        let seats = view.seats();
        let turn = match view.phase {
            Phase::AfterDeal => view.dealer,
            _ => view.to_act.unwrap_or(view.seat),
        };
        Ok(MatchingGame {
            ruleset,
            flow,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            orders: Vec::new().into_iter(),
            rounds: view.rounds,
            log: false,
            keep_deals: false,
            seats,
            // Unknown: the next turn's end evaluates the pile afresh against `view.yaku`.
            evaluated: PerSeat::filled(seats, UNEVALUATED),
            dealt_orders: Vec::new(),
            first_dealer: view.dealer,
            round: view.round,
            dealer: view.dealer,
            turn,
            phase: view.phase,
            offered: view.offered,
            hands,
            table: view.table,
            stock,
            stock_pos: 0,
            captured: view.captured,
            calls: view.calls,
            yaku: view.yaku.to_vec(),
            table_count: view.table_count,
            scores: view.scores,
            history: Vec::new(),
            events: Vec::new(),
            error: None,
        })
    }

    /// What the game waits for.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat that must act, or `None` when the game is over.
    pub fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::GameOver => None,
            Phase::AfterDeal => Some(next_seat(self.dealer, self.seats)),
            _ => Some(self.turn),
        }
    }

    /// Hands in the game.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// The dealer's seat.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }

    /// The face-up table.
    pub fn table(&self) -> CardSet {
        self.table
    }

    /// A seat's captures.
    pub fn captured(&self, seat: Seat) -> CardSet {
        self.captured[seat]
    }

    /// Calls to play on by each seat in this hand.
    pub fn calls(&self) -> &PerSeat<u32> {
        &self.calls
    }

    /// The yaku a seat held at the end of its last turn.
    pub fn yaku(&self, seat: Seat) -> &YakuScore {
        &self.yaku[seat]
    }

    /// Each seat's yaku at the end of its last turn.
    pub fn all_yaku(&self) -> &[YakuScore] {
        &self.yaku
    }

    /// The declarations offered now: bit `i` for declaration `i` of the ruleset.
    pub fn offered(&self) -> u64 {
        self.offered
    }

    /// Cards left in the stock.
    pub fn stock_len(&self) -> usize {
        self.stock.len() - self.stock_pos
    }

    /// The stock's cards, next to be drawn first (hidden information: not for agents).
    pub fn stock(&self) -> &[CardId] {
        &self.stock[self.stock_pos..]
    }

    /// The ruleset's `table_count` at this hand's deal.
    pub fn table_count(&self) -> i64 {
        self.table_count
    }

    /// The flow options.
    pub fn flow(&self) -> &MatchingFlow {
        &self.flow
    }

    /// The circumstances of the hand for `seat`, as scoring sees them.
    pub fn circumstances(&self, seat: Seat) -> Circumstances {
        let all: u32 = self.calls.iter().sum();
        Circumstances {
            calls_self: self.calls[seat],
            calls_opponent: all - self.calls[seat],
            table_count: self.table_count,
            round: self.round,
            rounds: self.facts_rounds(),
            dealer: seat == self.dealer,
        }
    }

    /// What `seat` would score by stopping now.
    pub fn points_if_stopped(&self, seat: Seat) -> Result<HandOutcome, ScriptError> {
        yaku::settle(
            &self.ruleset,
            &self.yaku[seat],
            None,
            &self.circumstances(seat),
        )
    }

    fn facts_rounds(&self) -> u32 {
        match self.flow.length {
            GameLength::Rounds(_) => self.rounds,
            GameLength::Target { .. } => 0,
        }
    }

    fn emit(&mut self, event: impl FnOnce(&MatchingGame) -> Event) {
        if self.log {
            let e = event(self);
            self.events.push(e);
        }
    }

    /// The declarations offered now, in ruleset order.
    fn offered_decls(&self) -> impl Iterator<Item = DeclId> + '_ {
        let mut rest = self.offered;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let i = rest.trailing_zeros();
                rest &= rest - 1;
                DeclId(i as u8)
            })
        })
    }

    /// Table cards `card` may capture: its suit's, or any card when it is wild.
    fn candidates(&self, card: CardId) -> CardSet {
        if self.flow.wild.contains(card) {
            self.table
        } else {
            self.table & self.ruleset.deck.same_suit(card)
        }
    }

    fn effect(&self, decl: DeclId) -> &str {
        &self.ruleset.declarations[decl.0 as usize].effect
    }

    /// The declarations of `list` that `seat` may make now.
    fn may_declare(&self, list: &[DeclId], seat: Seat) -> u64 {
        let facts = [
            i64::from(self.round),
            i64::from(self.facts_rounds()),
            i64::from(seat == self.dealer),
            i64::from(self.hands[seat].len()),
            i64::from(self.calls[seat]),
            self.yaku[seat].base(),
        ];
        let cx = Context {
            pile: self.captured[seat],
            facts: &facts,
        };
        list.iter()
            .filter(|d| {
                self.ruleset.declarations[d.0 as usize]
                    .when
                    .as_ref()
                    .is_none_or(|w| w.truth(&cx))
            })
            .fold(0, |m, d| m | 1 << d.0)
    }

    // ----- the hand's flow

    fn start_hand(&mut self) -> Result<(), ScriptError> {
        self.round += 1;
        self.captured.fill(CardSet::EMPTY);
        self.calls.fill(0);
        self.yaku.fill(YakuScore::default());
        // No pile is every card, so the first turn always evaluates.
        self.evaluated.fill(UNEVALUATED);
        self.turn = self.dealer;
        let (round, dealer) = (self.round, self.dealer);
        self.emit(|_| Event::Deal { round, dealer });
        let facts = [i64::from(self.round), i64::from(self.facts_rounds())];
        let mut redeals = 0;
        loop {
            self.deal();
            let cx = Context {
                pile: self.table,
                facts: &facts,
            };
            let redeal = self
                .flow
                .redeals
                .iter()
                .find(|r| r.when.truth(&cx))
                .map(|r| r.name.clone());
            match redeal {
                Some(reason) if redeals < MAX_REDEALS => {
                    redeals += 1;
                    self.emit(|_| Event::Redeal { reason });
                }
                _ => break,
            }
        }
        if !self.flow.after_deal.is_empty() {
            self.phase = Phase::AfterDeal;
            self.offered = self.flow.after_deal.iter().fold(0, |m, d| m | 1 << d.0);
            return Ok(());
        }
        self.after_deal();
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn deal(&mut self) {
        let n = self.ruleset.deck.cards.len();
        // The shuffle is drawn even when a given order replaces it, so that a game replayed from
        // its record's orders goes on, once they run out, exactly as the original did.
        let mut order = std::mem::take(&mut self.stock);
        order.clear();
        order.extend((0..n as u8).map(CardId));
        for i in (1..n).rev() {
            // `self.rng.random_range(0..=i)`, called through the sampler it uses so that it
            // inlines (`random_range` is not `#[inline]`): the same draws.
            let j = UniformUsize::sample_single_inclusive(0, i, &mut self.rng)
                .expect("0..=i is not empty");
            order.swap(i, j);
        }
        if let Some(given) = self.orders.next().filter(|o| o.len() == n) {
            order = given;
        }
        let flow = Arc::clone(&self.flow);
        let (hand_size, table_size) = (flow.hand_size, flow.table_size);
        let mut next = 0;
        let mut hands: PerSeat<CardSet> = PerSeat::new(self.seats);
        let mut table = CardSet::EMPTY;
        // Packets go round the deal order until every hand and the table are full; a pass that
        // gives nothing ends the deal (an order that leaves a target out cannot loop).
        loop {
            let before = next;
            for &target in &flow.deal_order {
                let mut give = |set: &mut CardSet, want: u32| {
                    let k = flow.deal_packet.min(want.saturating_sub(set.len()));
                    for _ in 0..k {
                        set.insert(order[next]);
                        next += 1;
                    }
                };
                match target {
                    DealTarget::Dealer => give(&mut hands[self.dealer], hand_size),
                    DealTarget::Others => {
                        let mut s = next_seat(self.dealer, self.seats);
                        while s != self.dealer {
                            give(&mut hands[s], hand_size);
                            s = next_seat(s, self.seats);
                        }
                    }
                    DealTarget::Table => give(&mut table, table_size),
                }
            }
            if next == before {
                break;
            }
        }
        self.hands = hands;
        self.table = table;
        if self.keep_deals {
            self.dealt_orders.push(order.clone());
        }
        // The stock is the rest of the order, drawn from `stock_pos` on.
        self.stock = order;
        self.stock_pos = next;
    }

    /// Instant wins and the table count, once the hands are final.
    fn after_deal(&mut self) {
        let table_facts = [i64::from(self.round), i64::from(self.facts_rounds())];
        self.table_count = self.flow.table_count.as_ref().map_or(0, |p| {
            p.int(&Context {
                pile: self.table,
                facts: &table_facts,
            })
        });
        self.turn = self.dealer;
        self.phase = Phase::Play;
        self.offered = 0;
        if self.flow.instant_wins.is_empty() {
            return;
        }
        // The first instant win each hand holds (by index), without allocating: most deals
        // hold none.
        let mut won: PerSeat<u8> = PerSeat::filled(self.seats, u8::MAX);
        let mut holders = 0usize;
        for seat in 0..self.seats {
            let facts = [
                i64::from(self.round),
                i64::from(self.facts_rounds()),
                i64::from(seat == self.dealer),
            ];
            let cx = Context {
                pile: self.hands[seat],
                facts: &facts,
            };
            if let Some(i) = self
                .flow
                .instant_wins
                .iter()
                .position(|w| w.when.truth(&cx))
            {
                won[seat] = i as u8;
                holders += 1;
            }
        }
        let first_holder = |from: Seat| {
            let mut s = from;
            for _ in 0..self.seats {
                if won[s] != u8::MAX {
                    return s;
                }
                s = next_seat(s, self.seats);
            }
            from
        };
        let winner = match holders {
            0 => return,
            1 => Some(first_holder(0)),
            _ => match self.flow.both_instant {
                BothInstant::Draw => None,
                // The dealer's, or the first holder after the dealer in turn order.
                BothInstant::Dealer => Some(first_holder(self.dealer)),
            },
        };
        match winner {
            Some(w) => {
                let win = &self.flow.instant_wins[usize::from(won[w])];
                let special = Special::Instant(FoundYaku {
                    id: win.id.clone(),
                    name: win.name.clone(),
                    points: win.points,
                });
                let outcome = yaku::settle(
                    &self.ruleset,
                    &YakuScore::default(),
                    Some(&special),
                    &self.circumstances(w),
                );
                self.end_hand(Some(w), ends::INSTANT, outcome.map(Settled::Full));
            }
            None => self.end_hand(None, ends::BOTH_INSTANT, Ok(Settled::Points([0, 0]))),
        }
    }

    /// Plays or draws `card`: capture, choose, or leave it on the table.
    fn resolve(&mut self, card: CardId, from_hand: bool) {
        let matches = self.candidates(card);
        let wild = self.flow.wild.contains(card);
        // How many matches: none, one, two or more (without counting every card).
        let after_one = matches.0 & matches.0.wrapping_sub(1);
        let after_two = after_one & after_one.wrapping_sub(1);
        if matches.is_empty() {
            self.table.insert(card);
            self.log_move(card, CardSet::EMPTY, from_hand);
            self.continue_turn(from_hand);
        } else if after_one != 0 && (after_two == 0 || wild) {
            // Two matches, or a wild card matching several: the player chooses one.
            self.phase = Phase::CaptureChoice { card, from_hand };
        } else {
            // One match: take the pair. Three of a suit: the fourth card takes all (004 "three
            // cards ... are collected when the player plays the fourth card"; 002 step 1; 001).
            self.take(card, matches, from_hand);
            self.continue_turn(from_hand);
        }
    }

    #[inline]
    fn take(&mut self, card: CardId, taken: CardSet, from_hand: bool) {
        self.table = self.table - taken;
        self.captured[self.turn] |= taken;
        self.captured[self.turn].insert(card);
        self.log_move(card, taken, from_hand);
    }

    #[inline]
    fn log_move(&mut self, card: CardId, taken: CardSet, from_hand: bool) {
        if !self.log {
            return;
        }
        let player = self.turn;
        let captured: Vec<CardId> = taken.iter().collect();
        self.events.push(if from_hand {
            Event::Played {
                player,
                card,
                captured,
            }
        } else {
            Event::Drew {
                player,
                card,
                captured,
            }
        });
    }

    /// After the hand card: draw. After the drawn card: the turn ends.
    fn continue_turn(&mut self, from_hand: bool) {
        if from_hand && self.stock_pos < self.stock.len() {
            let card = self.stock[self.stock_pos];
            self.stock_pos += 1;
            self.resolve(card, false);
        } else {
            self.phase = Phase::Play;
            self.end_turn();
        }
    }

    fn end_turn(&mut self) {
        let p = self.turn;
        // The yaku table is evaluated only when the pile changed (piles only grow).
        if self.captured[p] == self.evaluated[p] {
            self.next_player();
            return;
        }
        let pile = self.captured[p];
        let c = self.circumstances(p);
        let facts = yaku::yaku_facts(c.round, c.rounds, c.dealer);
        let table = &self.ruleset.yaku;
        let improved = if self.evaluated[p] == UNEVALUATED {
            let after = table.evaluate(pile, &facts);
            let improved = after.improves_on(&self.yaku[p]);
            self.yaku[p] = after;
            improved
        } else {
            // Same hand, same facts: only yaku reading a newly captured card can change.
            let before = self.evaluated[p];
            let changed = (pile - before) | (before - pile);
            table.update(&mut self.yaku[p], changed, pile, &facts)
        };
        self.evaluated[p] = pile;
        if !improved {
            self.next_player();
            return;
        }
        if self.log {
            let after = &self.yaku[p];
            let ids = after
                .iter()
                .map(|i| self.ruleset.yaku.yaku[i].id.clone())
                .collect();
            let base = after.base();
            self.events.push(Event::YakuFormed {
                player: p,
                yaku: ids,
                base,
            });
        }
        // The declarations after a yaku whose conditions hold are offered; with none, play
        // goes on (a threshold not reached yet).
        self.offered = self.may_declare(&self.flow.after_yaku, p);
        if self.offered == 0 {
            self.next_player();
        } else {
            self.phase = Phase::Declare;
        }
    }

    fn next_player(&mut self) {
        self.turn = next_seat(self.turn, self.seats);
        self.phase = Phase::Play;
        self.offered = 0;
        if self.hands[self.turn].is_empty() {
            // 002 "Koi-Koi rules", 003 "Play", 004: the hands ran out with no stop.
            match self.flow.exhausted {
                Exhausted::Draw => {
                    self.end_hand(None, ends::EXHAUSTED, Ok(Settled::Points([0, 0])))
                }
                Exhausted::DealerScores(points) => {
                    let d = self.dealer;
                    let outcome = yaku::settle(
                        &self.ruleset,
                        &YakuScore::default(),
                        Some(&Special::Exhausted(points)),
                        &self.circumstances(d),
                    );
                    self.end_hand(Some(d), ends::EXHAUSTED_DEALER, outcome.map(Settled::Full));
                }
            }
        }
    }

    fn stop(&mut self, winner: Seat) {
        let settled = if self.keep_deals {
            self.points_if_stopped(winner).map(Settled::Full)
        } else {
            let c = self.circumstances(winner);
            yaku::settle_points(&self.ruleset, &self.yaku[winner], &c).map(Settled::Points)
        };
        self.end_hand(Some(winner), ends::STOP, settled);
    }

    fn end_hand(
        &mut self,
        winner: Option<Seat>,
        end: HandEnd,
        settled: Result<Settled, ScriptError>,
    ) {
        let settled = match settled {
            Ok(s) => s,
            Err(e) => {
                self.error = Some(e);
                self.phase = Phase::GameOver;
                return;
            }
        };
        let (winner_points, outcome) = match settled {
            Settled::Full(o) => ([o.total, o.opponent], Some(o)),
            Settled::Points(p) => (p, None),
        };
        let mut points: PerSeat<i64> = PerSeat::new(self.seats);
        if let Some(w) = winner {
            for (s, p) in points.iter_mut().enumerate() {
                *p = if s == w {
                    winner_points[0]
                } else {
                    winner_points[1]
                };
            }
        }
        let yaku_mask = match winner {
            Some(w) if end == ends::STOP => self.yaku[w].mask,
            _ => 0,
        };
        for (score, p) in self.scores.iter_mut().zip(points.iter()) {
            *score = score.saturating_add(*p);
        }
        let round = self.round;
        self.emit(|_| Event::HandEnded {
            round,
            winner,
            end,
            points: points.to_vec(),
        });
        self.history.push(HandResult {
            round,
            dealer: Some(self.dealer),
            winner,
            end,
            outcome: winner.and(outcome),
            yaku_mask,
            points,
            calls: self.calls,
            house: 0,
        });
        let rule = if winner.is_some() {
            self.flow.next_dealer
        } else {
            self.flow.draw_dealer
        };
        self.dealer = match (rule, winner) {
            (NextDealer::Winner, Some(w)) => w,
            (NextDealer::Alternate, _) => next_seat(self.dealer, self.seats),
            _ => self.dealer,
        };
        let target_reached = match self.flow.length {
            GameLength::Target { score, .. } => self.scores.iter().any(|&s| s >= score),
            GameLength::Rounds(_) => false,
        };
        if self.round >= self.rounds || target_reached {
            self.phase = Phase::GameOver;
            self.offered = 0;
            let scores = self.scores.to_vec();
            self.emit(|_| Event::GameEnded { scores });
        } else if let Err(e) = self.start_hand() {
            self.error = Some(e);
            self.phase = Phase::GameOver;
        }
    }

    /// The legal actions now, appended to `out` (cleared first).
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::GameOver => {}
            Phase::AfterDeal | Phase::Declare => {
                out.extend(self.offered_decls().map(Action::declare))
            }
            Phase::Play => out.extend(
                self.hands[self.turn]
                    .iter()
                    .map(|card| Action::Play { card }),
            ),
            Phase::CaptureChoice { card, .. } => {
                out.extend(
                    self.candidates(card)
                        .iter()
                        .map(|card| Action::Take { card }),
                );
            }
        }
    }

    /// The legal actions now.
    pub fn legal(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions(&mut v);
        v
    }

    /// How many legal actions there are now.
    pub fn legal_count(&self) -> usize {
        match self.phase {
            Phase::GameOver => 0,
            Phase::AfterDeal | Phase::Declare => self.offered.count_ones() as usize,
            Phase::Play => self.hands[self.turn].len() as usize,
            Phase::CaptureChoice { card, .. } => self.candidates(card).len() as usize,
        }
    }

    /// The legal action at `index` in [`MatchingGame::legal_actions`]'s order.
    pub fn legal_action(&self, index: usize) -> Option<Action> {
        match self.phase {
            Phase::GameOver => None,
            Phase::AfterDeal | Phase::Declare => {
                self.offered_decls().nth(index).map(Action::declare)
            }
            Phase::Play => self.hands[self.turn]
                .nth(index)
                .map(|card| Action::Play { card }),
            Phase::CaptureChoice { card, .. } => self
                .candidates(card)
                .nth(index)
                .map(|card| Action::Take { card }),
        }
    }

    /// Applies the action of the seat to act.
    pub fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        let illegal = |reason: String| Err(IllegalAction { reason });
        if let Action::Play { card } | Action::Take { card } = action
            && card.index() >= self.ruleset.deck.cards.len()
        {
            return illegal(format!("there is no card number {} in this deck", card.0));
        }
        match (self.phase, action) {
            (Phase::GameOver, _) => return illegal("the game is over".into()),
            (Phase::AfterDeal | Phase::Declare, Action::Declare { decl, card: None }) => {
                if self.offered >> decl.0 & 1 == 0 {
                    return illegal(self.refused(decl));
                }
                let seat = self.to_act().expect("a seat acts while the game goes on");
                self.emit(|_| Event::Declared {
                    player: seat,
                    decl,
                    card: None,
                });
                match self.effect(decl) {
                    "swap" => {
                        let dealer = self.dealer;
                        let (a, b) = (self.hands[dealer], self.hands[seat]);
                        self.hands[dealer] = b;
                        self.hands[seat] = a;
                        self.after_deal();
                    }
                    "keep" => self.after_deal(),
                    "continue" => {
                        self.calls[seat] += 1;
                        self.next_player();
                    }
                    _ => self.stop(seat),
                }
            }
            (Phase::Play, Action::Play { card }) => {
                if !self.hands[self.turn].contains(card) {
                    let id = self.ruleset.deck.id_of(card).to_string();
                    return illegal(format!("`{id}` is not in your hand"));
                }
                self.hands[self.turn].remove(card);
                self.resolve(card, true);
            }
            (Phase::CaptureChoice { card, from_hand }, Action::Take { card: target }) => {
                if !self.candidates(card).contains(target) {
                    let deck = &self.ruleset.deck;
                    return illegal(format!(
                        "`{}` cannot capture `{}`; choose one of: {}",
                        deck.id_of(card),
                        deck.id_of(target),
                        deck.ids(self.candidates(card)).join(", ")
                    ));
                }
                self.take(card, CardSet::single(target), from_hand);
                self.continue_turn(from_hand);
            }
            (_, Action::Declare { decl, .. }) => return illegal(self.refused(decl)),
            (phase, action) => {
                return illegal(format!(
                    "{} is not possible now: {}",
                    describe_action(action),
                    self.describe_phase(phase)
                ));
            }
        }
        Ok(())
    }

    /// Why declaration `decl` cannot be made now.
    fn refused(&self, decl: DeclId) -> String {
        let Some(d) = self.ruleset.declarations.get(decl.0 as usize) else {
            return format!("there is no declaration number {}", decl.0);
        };
        let here = match self.phase {
            Phase::AfterDeal => &self.flow.after_deal,
            Phase::Declare => &self.flow.after_yaku,
            _ => &Vec::new(),
        };
        if !here.contains(&decl) {
            return format!(
                "{} is not possible now: {}",
                d.name,
                self.describe_phase(self.phase)
            );
        }
        match &d.when_source {
            Some(w) => format!("{} is not possible now: it needs `{}`", d.name, w.trim()),
            None => format!("{} is not possible now", d.name),
        }
    }

    fn describe_phase(&self, p: Phase) -> String {
        let names = || {
            let names: Vec<&str> = self
                .offered_decls()
                .map(|d| self.ruleset.declarations[d.0 as usize].name.as_str())
                .collect();
            names.join(" or ")
        };
        match p {
            Phase::AfterDeal => format!("the player after the dealer chooses: {}", names()),
            Phase::Play => "a card must be played from the hand".into(),
            Phase::CaptureChoice { .. } => "a table card to capture must be chosen".into(),
            Phase::Declare => format!("a declaration must be made: {}", names()),
            Phase::GameOver => "the game is over".into(),
        }
    }

    /// A game in the state `seat` sees, with its hidden cards dealt at random from `rng`.
    pub fn determinized(&self, seat: Seat, rng: &mut Xoshiro256PlusPlus) -> Option<MatchingGame> {
        let view = self.view(seat);
        let mut hidden: Vec<CardId> = view.unseen.iter().collect();
        for i in (1..hidden.len()).rev() {
            let j = rng.random_range(0..=i);
            hidden.swap(i, j);
        }
        let mut others: PerSeat<CardSet> = PerSeat::new(self.seats);
        let mut next = 0;
        for s in 0..self.seats {
            if s != seat {
                for &c in &hidden[next..next + view.hand_sizes[s]] {
                    others[s].insert(c);
                }
                next += view.hand_sizes[s];
            }
        }
        let stock = hidden[next..].to_vec();
        MatchingGame::from_view(&view, &others, stock, rng.next_u64()).ok()
    }
}

/// A hand's points: with the explanation, or (in simulations) the numbers alone: the winner's,
/// and each other seat's.
enum Settled {
    Full(HandOutcome),
    Points([i64; 2]),
}

fn describe_action(a: Action) -> &'static str {
    match a {
        Action::Play { .. } => "playing a card",
        Action::Take { .. } => "choosing a table card",
        Action::Declare { card: Some(_), .. } => "a declaration with a card",
        Action::Declare { .. } => "a declaration",
        Action::Bet { .. } => "betting",
        Action::Draw { .. } => "taking more cards",
    }
}

impl Game for MatchingGame {
    fn ruleset(&self) -> &Arc<Ruleset> {
        &self.ruleset
    }
    fn seats(&self) -> usize {
        self.seats
    }
    fn to_act(&self) -> Option<Seat> {
        MatchingGame::to_act(self)
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        MatchingGame::legal_actions(self, out)
    }
    fn legal_count(&self) -> usize {
        MatchingGame::legal_count(self)
    }
    fn legal_action(&self, index: usize) -> Option<Action> {
        MatchingGame::legal_action(self, index)
    }
    fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        MatchingGame::apply(self, action)
    }
    fn scores(&self) -> &[i64] {
        &self.scores
    }
    fn history(&self) -> &[HandResult] {
        &self.history
    }
    fn round(&self) -> u32 {
        self.round
    }
    fn rounds(&self) -> u32 {
        self.rounds
    }
    fn dealer(&self) -> Option<Seat> {
        Some(self.dealer)
    }
    fn first_dealer(&self) -> Option<Seat> {
        Some(self.first_dealer)
    }
    fn dealt_orders(&self) -> &[Vec<CardId>] {
        &self.dealt_orders
    }
    fn drain_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }
    fn error(&self) -> Option<&ScriptError> {
        self.error.as_ref()
    }
    fn zones(&self) -> Vec<(String, CardSet)> {
        let mut z = vec![
            ("table".to_string(), self.table),
            ("stock".to_string(), self.stock().iter().copied().collect()),
        ];
        if let Phase::CaptureChoice { card, .. } = self.phase {
            z.push(("resolving".to_string(), CardSet::single(card)));
        }
        for s in 0..self.seats {
            z.push((format!("hand {s}"), self.hands[s]));
            z.push((format!("captured {s}"), self.captured[s]));
        }
        z
    }
    fn heuristic(&self, seat: Seat, legal: &[Action], _rng: &mut Xoshiro256PlusPlus) -> Action {
        super::greedy::choose(&self.view(seat), legal)
    }
    fn determinize(&self, seat: Seat, rng: &mut Xoshiro256PlusPlus) -> Option<Box<dyn Game>> {
        self.determinized(seat, rng)
            .map(|g| Box::new(g) as Box<dyn Game>)
    }
    fn box_clone(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_dyn(&self) -> &dyn Game {
        self
    }
}
