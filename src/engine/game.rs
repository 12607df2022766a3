//! The matching-game core: deal, turns, captures, koi-koi, hand ends and the game's end, driven
//! only by the ruleset's flow options and yaku table. No game is named here.

use super::action::{Action, Event, HandEnd, IllegalAction, Phase};
use super::scoring::{self, Circumstances, FoundYaku, HandOutcome, Special};
use super::view::View;
use crate::deck::{CardId, CardSet};
use crate::ruleset::{
    BothInstant, DealTarget, Exhausted, FirstDealer, Flow, GameLength, MatchingFlow, NextDealer,
    Ruleset, YakuScore,
};
use crate::script::ScriptError;
use rand::distr::uniform::{UniformSampler, UniformUsize};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::sync::Arc;

/// Redeals tried before a dealt table is accepted as it is.
const MAX_REDEALS: u32 = 100;

/// `Game::evaluated` when no pile has been evaluated under the hand's facts (no real pile holds
/// every card of a 64-bit set).
const UNEVALUATED: CardSet = CardSet(u64::MAX);

/// How to start a game.
#[derive(Clone, Debug, Default)]
pub struct GameOptions {
    /// The seed every random choice flows from.
    pub seed: u64,
    /// Play this many hands instead of the ruleset's length.
    pub rounds: Option<u32>,
    /// Deck orders to deal from instead of shuffling (replaying a record): one per deal,
    /// redeals included; when they run out, shuffling resumes where the seed's stream would be.
    pub deck_orders: Vec<Vec<CardId>>,
    /// Record events (for display); off in simulations.
    pub log_events: bool,
    /// Skip what only records need (keeping every deal's deck order); for simulations.
    pub simulation: bool,
    /// The first hand's dealer, instead of the ruleset's rule (replaying a record).
    pub first_dealer: Option<usize>,
}

/// The result of one hand, kept for statistics and records.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HandRecord {
    /// The round, 1-based.
    pub round: u32,
    /// The dealer's seat.
    pub dealer: usize,
    /// The winner, if any.
    pub winner: Option<usize>,
    /// How the hand ended.
    pub end: HandEnd,
    /// The winner's settled outcome (simulations keep only the numbers).
    pub outcome: Option<HandOutcome>,
    /// The yaku that ended the hand by a stop: bit `i` for yaku `i` of the ruleset's table.
    pub yaku_mask: u64,
    /// Points for each seat.
    pub points: [i64; 2],
    /// Koi-koi calls by each seat.
    pub koikoi: [u32; 2],
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    ruleset: Arc<Ruleset>,
    flow: Arc<MatchingFlow>,
    rng: Xoshiro256PlusPlus,
    orders: std::vec::IntoIter<Vec<CardId>>,
    rounds: u32,
    log: bool,
    keep_deals: bool,
    /// The pile each seat's yaku were last evaluated on.
    evaluated: [CardSet; 2],
    // The hand in progress.
    /// Every deal's deck order, in order (records keep them).
    pub dealt_orders: Vec<Vec<CardId>>,
    round: u32,
    dealer: usize,
    turn: usize,
    phase: Phase,
    hands: [CardSet; 2],
    table: CardSet,
    stock: Vec<CardId>,
    stock_pos: usize,
    captured: [CardSet; 2],
    koikoi: [u32; 2],
    yaku: [YakuScore; 2],
    table_count: i64,
    scores: [i64; 2],
    history: Vec<HandRecord>,
    events: Vec<Event>,
    error: Option<ScriptError>,
}

impl Game {
    /// Starts a game; the first hand is dealt at once.
    pub fn new(ruleset: Arc<Ruleset>, options: GameOptions) -> Result<Game, StartError> {
        let Flow::Matching(flow) = &ruleset.flow else {
            return Err(StartError::NotAMatchingGame {
                ruleset: ruleset.id.clone(),
            });
        };
        let flow = Arc::clone(flow);
        let rounds = options.rounds.unwrap_or(match flow.length {
            GameLength::Rounds(n) => n,
            GameLength::Target { max_rounds, .. } => max_rounds,
        });
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(options.seed);
        let dealer = match flow.first_dealer {
            FirstDealer::First => 0,
            FirstDealer::Random => rng.random_range(0..2usize),
        };
        let dealer = options.first_dealer.map_or(dealer, |d| d.min(1));
        let deck_size = ruleset.deck.cards.len();
        let mut game = Game {
            ruleset,
            flow,
            rng,
            orders: options.deck_orders.into_iter(),
            rounds,
            log: options.log_events,
            keep_deals: !options.simulation,
            evaluated: [UNEVALUATED; 2],
            dealt_orders: Vec::new(),
            round: 0,
            dealer,
            turn: dealer,
            phase: Phase::Play,
            hands: [CardSet::EMPTY; 2],
            table: CardSet::EMPTY,
            stock: Vec::with_capacity(deck_size),
            stock_pos: 0,
            captured: [CardSet::EMPTY; 2],
            koikoi: [0; 2],
            yaku: [YakuScore::default(); 2],
            table_count: 0,
            scores: [0; 2],
            history: Vec::new(),
            events: Vec::new(),
            error: None,
        };
        game.start_hand().map_err(StartError::Script)?;
        Ok(game)
    }

    /// A game in the state `view` shows, with the cards the viewer cannot see placed: the other
    /// hand holds `opponent_hand` and the stock is `stock`, next to be drawn first. Searching
    /// agents play out such guesses; the game keeps no history of earlier hands, and later deals
    /// are shuffled from `seed`. Fails when the placement does not fit the view.
    pub fn from_view(
        view: &View,
        opponent_hand: CardSet,
        stock: Vec<CardId>,
        seed: u64,
    ) -> Result<Game, IllegalAction> {
        let stock_set: CardSet = stock.iter().copied().collect();
        if opponent_hand.len() as usize != view.opponent_hand_size
            || stock.len() != view.stock_size
            || stock_set.len() as usize != stock.len()
            || !(opponent_hand & stock_set).is_empty()
            || (opponent_hand | stock_set) != view.unseen
        {
            return Err(IllegalAction {
                reason: format!(
                    "the placement does not fit the view: {} hidden cards for {} in the other \
                     hand and {} in the stock",
                    view.unseen.len(),
                    view.opponent_hand_size,
                    view.stock_size
                ),
            });
        }
        let ruleset = Arc::clone(view.ruleset);
        let Some(flow) = ruleset.matching() else {
            return Err(IllegalAction {
                reason: format!("ruleset `{}` is not a matching game", ruleset.id),
            });
        };
        let flow = Arc::clone(flow);
        let mut hands = [CardSet::EMPTY; 2];
        hands[view.seat] = view.hand;
        hands[1 - view.seat] = opponent_hand;
        let turn = match view.phase {
            Phase::SwapChoice => view.dealer,
            _ => view.to_act.unwrap_or(view.seat),
        };
        Ok(Game {
            ruleset,
            flow,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            orders: Vec::new().into_iter(),
            rounds: view.rounds,
            log: false,
            keep_deals: false,
            // Unknown: the next turn's end evaluates the pile afresh against `view.yaku`.
            evaluated: [UNEVALUATED; 2],
            dealt_orders: Vec::new(),
            round: view.round,
            dealer: view.dealer,
            turn,
            phase: view.phase,
            hands,
            table: view.table,
            stock,
            stock_pos: 0,
            captured: view.captured,
            koikoi: view.koikoi,
            yaku: [*view.yaku[0], *view.yaku[1]],
            table_count: view.table_count,
            scores: view.scores,
            history: Vec::new(),
            events: Vec::new(),
            error: None,
        })
    }

    /// The ruleset being played.
    pub fn ruleset(&self) -> &Arc<Ruleset> {
        &self.ruleset
    }

    /// What the game waits for.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat that must act, or `None` when the game is over.
    pub fn to_act(&self) -> Option<usize> {
        match self.phase {
            Phase::GameOver => None,
            Phase::SwapChoice => Some(1 - self.dealer),
            _ => Some(self.turn),
        }
    }

    /// True when the game has ended.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }

    /// The scores so far.
    pub fn scores(&self) -> [i64; 2] {
        self.scores
    }

    /// The round in progress (or the last one), 1-based.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Hands in the game.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// The dealer's seat.
    pub fn dealer(&self) -> usize {
        self.dealer
    }

    /// A seat's hand.
    pub fn hand(&self, seat: usize) -> CardSet {
        self.hands[seat]
    }

    /// The face-up table.
    pub fn table(&self) -> CardSet {
        self.table
    }

    /// A seat's captures.
    pub fn captured(&self, seat: usize) -> CardSet {
        self.captured[seat]
    }

    /// Koi-koi calls of each seat in this hand.
    pub fn koikoi(&self) -> [u32; 2] {
        self.koikoi
    }

    /// The yaku a seat held at the end of its last turn.
    pub fn yaku(&self, seat: usize) -> &YakuScore {
        &self.yaku[seat]
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

    /// Every finished hand.
    pub fn history(&self) -> &[HandRecord] {
        &self.history
    }

    /// Takes the events logged since the last call.
    pub fn drain_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// The circumstances of the hand for `seat`, as scoring sees them.
    pub fn circumstances(&self, seat: usize) -> Circumstances {
        Circumstances {
            koikoi_self: self.koikoi[seat],
            koikoi_opponent: self.koikoi[1 - seat],
            table_count: self.table_count,
            round: self.round,
            rounds: self.facts_rounds(),
            dealer: seat == self.dealer,
        }
    }

    /// What `seat` would score by stopping now.
    pub fn points_if_stopped(&self, seat: usize) -> Result<HandOutcome, ScriptError> {
        scoring::settle(
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

    fn emit(&mut self, event: impl FnOnce(&Game) -> Event) {
        if self.log {
            let e = event(self);
            self.events.push(e);
        }
    }

    /// The legal actions now, appended to `out` (cleared first).
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::GameOver => {}
            Phase::SwapChoice => {
                out.push(Action::SwapHands { swap: false });
                out.push(Action::SwapHands { swap: true });
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
                        .map(|card| Action::Capture { card }),
                );
            }
            Phase::KoiKoiChoice => {
                if self.may_koikoi() {
                    out.push(Action::KoiKoi);
                }
                out.push(Action::Stop);
            }
        }
    }

    /// How many legal actions there are now: the length of [`Game::legal_actions`].
    pub fn legal_count(&self) -> usize {
        match self.phase {
            Phase::GameOver => 0,
            Phase::SwapChoice => 2,
            Phase::Play => self.hands[self.turn].len() as usize,
            Phase::CaptureChoice { card, .. } => self.candidates(card).len() as usize,
            Phase::KoiKoiChoice => 1 + usize::from(self.may_koikoi()),
        }
    }

    /// The legal action at `index` in [`Game::legal_actions`]'s order, without listing them all.
    pub fn legal_action(&self, index: usize) -> Option<Action> {
        match self.phase {
            Phase::GameOver => None,
            Phase::SwapChoice => (index < 2).then_some(Action::SwapHands { swap: index == 1 }),
            Phase::Play => self.hands[self.turn]
                .nth(index)
                .map(|card| Action::Play { card }),
            Phase::CaptureChoice { card, .. } => self
                .candidates(card)
                .nth(index)
                .map(|card| Action::Capture { card }),
            Phase::KoiKoiChoice => match (self.may_koikoi(), index) {
                (true, 0) => Some(Action::KoiKoi),
                (true, 1) | (false, 0) => Some(Action::Stop),
                _ => None,
            },
        }
    }

    /// The legal actions now.
    pub fn legal(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions(&mut v);
        v
    }

    fn may_koikoi(&self) -> bool {
        self.flow.koikoi && (self.flow.koikoi_on_empty_hand || !self.hands[self.turn].is_empty())
    }

    /// Table cards `card` may capture: its suit's, or any card when it is wild.
    fn candidates(&self, card: CardId) -> CardSet {
        if self.flow.wild.contains(card) {
            self.table
        } else {
            self.table & self.ruleset.deck.same_suit(card)
        }
    }

    /// Applies a player's action.
    pub fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        let illegal = |reason: String| Err(IllegalAction { reason });
        if let Action::Play { card } | Action::Capture { card } = action
            && card.index() >= self.ruleset.deck.cards.len()
        {
            return illegal(format!("there is no card number {} in this deck", card.0));
        }
        match (self.phase, action) {
            (Phase::GameOver, _) => return illegal("the game is over".into()),
            (Phase::SwapChoice, Action::SwapHands { swap }) => {
                if swap {
                    self.hands.swap(0, 1);
                    self.emit(|_| Event::HandsSwapped);
                }
                self.after_deal();
            }
            (Phase::Play, Action::Play { card }) => {
                if !self.hands[self.turn].contains(card) {
                    let id = self.ruleset.deck.id_of(card).to_string();
                    return illegal(format!("`{id}` is not in your hand"));
                }
                self.hands[self.turn].remove(card);
                self.resolve(card, true);
            }
            (Phase::CaptureChoice { card, from_hand }, Action::Capture { card: target }) => {
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
            (Phase::KoiKoiChoice, Action::KoiKoi) => {
                if !self.may_koikoi() {
                    return illegal(if self.flow.koikoi {
                        "koi-koi cannot be called with an empty hand in these rules".into()
                    } else {
                        "these rules have no koi-koi".into()
                    });
                }
                self.koikoi[self.turn] += 1;
                let player = self.turn;
                self.emit(|_| Event::KoiKoi { player });
                self.next_player();
            }
            (Phase::KoiKoiChoice, Action::Stop) => {
                let winner = self.turn;
                let settled = if self.keep_deals {
                    self.points_if_stopped(winner).map(Settled::Full)
                } else {
                    let c = self.circumstances(winner);
                    scoring::settle_points(&self.ruleset, &self.yaku[winner], &c)
                        .map(Settled::Points)
                };
                self.end_hand(Some(winner), HandEnd::Stop, settled);
            }
            (phase, action) => {
                return illegal(format!(
                    "{} is not possible now: {}",
                    describe_action(action),
                    describe_phase(phase)
                ));
            }
        }
        Ok(())
    }

    /// A script error that ended the game early (a broken scoring script), if any.
    pub fn script_error(&self) -> Option<&ScriptError> {
        self.error.as_ref()
    }

    // ----- the hand's flow

    fn start_hand(&mut self) -> Result<(), ScriptError> {
        self.round += 1;
        self.captured = [CardSet::EMPTY; 2];
        self.koikoi = [0; 2];
        self.yaku = [YakuScore::default(); 2];
        // No pile is every card, so the first turn always evaluates.
        self.evaluated = [UNEVALUATED; 2];
        self.turn = self.dealer;
        let (round, dealer) = (self.round, self.dealer);
        self.emit(|_| Event::Deal { round, dealer });
        let mut redeals = 0;
        loop {
            self.deal();
            let table = self.table;
            let redeal = self
                .flow
                .redeals
                .iter()
                .find(|r| {
                    r.when.truth(&crate::expr::Context {
                        pile: table,
                        facts: &[],
                    })
                })
                .map(|r| r.name.clone());
            match redeal {
                Some(reason) if redeals < MAX_REDEALS => {
                    redeals += 1;
                    self.emit(|_| Event::Redeal { reason });
                }
                _ => break,
            }
        }
        if self.flow.dealer_hand_swap {
            self.phase = Phase::SwapChoice;
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
        let mut next = 0;
        let (mut dealer_hand, mut opponent_hand, mut table) =
            (CardSet::EMPTY, CardSet::EMPTY, CardSet::EMPTY);
        let want = |t: DealTarget| match t {
            DealTarget::Table => flow.table_size,
            _ => flow.hand_size,
        };
        let mut given = [0u32; 3];
        while given
            .iter()
            .zip([DealTarget::Dealer, DealTarget::Opponent, DealTarget::Table])
            .any(|(g, t)| *g < want(t))
        {
            for &target in &flow.deal_order {
                let slot = target as usize;
                let k = flow.deal_packet.min(want(target) - given[slot]);
                for _ in 0..k {
                    let card = order[next];
                    next += 1;
                    match target {
                        DealTarget::Dealer => dealer_hand.insert(card),
                        DealTarget::Opponent => opponent_hand.insert(card),
                        DealTarget::Table => table.insert(card),
                    }
                }
                given[slot] += k;
            }
        }
        self.hands[self.dealer] = dealer_hand;
        self.hands[1 - self.dealer] = opponent_hand;
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
        let table = self.table;
        self.table_count = self.flow.table_count.as_ref().map_or(0, |p| {
            p.int(&crate::expr::Context {
                pile: table,
                facts: &[],
            })
        });
        self.turn = self.dealer;
        self.phase = Phase::Play;
        let instant = |hand: CardSet| {
            self.flow
                .instant_wins
                .iter()
                .find(|w| {
                    w.when.truth(&crate::expr::Context {
                        pile: hand,
                        facts: &[],
                    })
                })
                .map(|w| FoundYaku {
                    id: w.id.clone(),
                    name: w.name.clone(),
                    points: w.points,
                })
        };
        let wins = [instant(self.hands[0]), instant(self.hands[1])];
        let winner = match (&wins[0], &wins[1]) {
            (None, None) => return,
            (Some(_), None) => Some(0),
            (None, Some(_)) => Some(1),
            (Some(_), Some(_)) => match self.flow.both_instant {
                BothInstant::Draw => None,
                BothInstant::Dealer => Some(self.dealer),
            },
        };
        match winner {
            Some(w) => {
                let special =
                    Special::Instant(wins[w].clone().expect("the winner holds an instant win"));
                let outcome = scoring::settle(
                    &self.ruleset,
                    &YakuScore::default(),
                    Some(&special),
                    &self.circumstances(w),
                );
                self.end_hand(Some(w), HandEnd::Instant, outcome.map(Settled::Full));
            }
            None => self.end_hand(None, HandEnd::BothInstant, Ok(Settled::Points([0, 0]))),
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

    fn take(&mut self, card: CardId, taken: CardSet, from_hand: bool) {
        self.table = self.table - taken;
        self.captured[self.turn] |= taken;
        self.captured[self.turn].insert(card);
        self.log_move(card, taken, from_hand);
    }

    fn log_move(&mut self, card: CardId, taken: CardSet, from_hand: bool) {
        let player = self.turn;
        let captured: Vec<CardId> = if self.log {
            taken.iter().collect()
        } else {
            Vec::new()
        };
        self.emit(|_| {
            if from_hand {
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
        let facts = scoring::yaku_facts(c.round, c.rounds, c.dealer);
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
        if improved {
            self.phase = Phase::KoiKoiChoice;
            if self.log {
                let after = &self.yaku[p];
                let ids = after
                    .iter()
                    .map(|i| self.ruleset.yaku.yaku[i].id.clone())
                    .collect();
                let base = after.base();
                self.emit(|_| Event::YakuFormed {
                    player: p,
                    yaku: ids,
                    base,
                });
            }
        } else {
            self.next_player();
        }
    }

    fn next_player(&mut self) {
        self.turn = 1 - self.turn;
        self.phase = Phase::Play;
        if self.hands[self.turn].is_empty() {
            // 002 "Koi-Koi rules", 003 "Play", 004: the hands ran out with no stop.
            match self.flow.exhausted {
                Exhausted::Draw => {
                    self.end_hand(None, HandEnd::Exhausted, Ok(Settled::Points([0, 0])))
                }
                Exhausted::DealerScores(points) => {
                    let d = self.dealer;
                    let outcome = scoring::settle(
                        &self.ruleset,
                        &YakuScore::default(),
                        Some(&Special::Exhausted(points)),
                        &self.circumstances(d),
                    );
                    self.end_hand(
                        Some(d),
                        HandEnd::ExhaustedDealer,
                        outcome.map(Settled::Full),
                    );
                }
            }
        }
    }

    fn end_hand(
        &mut self,
        winner: Option<usize>,
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
        let mut points = [0i64; 2];
        if let Some(w) = winner {
            points[w] = winner_points[0];
            points[1 - w] = winner_points[1];
        }
        let yaku_mask = match (end, winner) {
            (HandEnd::Stop, Some(w)) => self.yaku[w].mask,
            _ => 0,
        };
        self.scores[0] += points[0];
        self.scores[1] += points[1];
        let round = self.round;
        self.emit(|_| Event::HandEnded {
            round,
            winner,
            end,
            points,
        });
        self.history.push(HandRecord {
            round,
            dealer: self.dealer,
            winner,
            end,
            outcome: winner.and(outcome),
            yaku_mask,
            points,
            koikoi: self.koikoi,
        });
        let rule = if winner.is_some() {
            self.flow.next_dealer
        } else {
            self.flow.draw_dealer
        };
        self.dealer = match (rule, winner) {
            (NextDealer::Winner, Some(w)) => w,
            (NextDealer::Alternate, _) => 1 - self.dealer,
            _ => self.dealer,
        };
        let target_reached = match self.flow.length {
            GameLength::Target { score, .. } => self.scores.iter().any(|&s| s >= score),
            GameLength::Rounds(_) => false,
        };
        if self.round >= self.rounds || target_reached {
            self.phase = Phase::GameOver;
            let scores = self.scores;
            self.emit(|_| Event::GameEnded { scores });
        } else if let Err(e) = self.start_hand() {
            self.error = Some(e);
            self.phase = Phase::GameOver;
        }
    }
}

/// Why a game could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// The ruleset describes another family of game (a banker game).
    NotAMatchingGame {
        /// The ruleset's id.
        ruleset: String,
    },
    /// The scoring script failed on the first hand (an instant win at the deal).
    Script(ScriptError),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::NotAMatchingGame { ruleset } => {
                write!(f, "ruleset `{ruleset}` is not a matching game")
            }
            StartError::Script(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for StartError {}

/// A hand's points: with the explanation, or (in simulations) the numbers alone.
enum Settled {
    Full(HandOutcome),
    Points([i64; 2]),
}

fn describe_action(a: Action) -> &'static str {
    match a {
        Action::Play { .. } => "playing a card",
        Action::Capture { .. } => "choosing a table card",
        Action::KoiKoi => "koi-koi",
        Action::Stop => "stopping",
        Action::SwapHands { .. } => "taking the dealer's hand",
    }
}

fn describe_phase(p: Phase) -> &'static str {
    match p {
        Phase::SwapChoice => "the non-dealer must decide whether to take the dealer's hand",
        Phase::Play => "a card must be played from the hand",
        Phase::CaptureChoice { .. } => "a table card to capture must be chosen",
        Phase::KoiKoiChoice => "koi-koi or stop must be chosen",
        Phase::GameOver => "the game is over",
    }
}
