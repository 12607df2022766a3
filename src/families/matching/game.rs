//! The matching-game core: deal, turns, captures, declarations after a yaku or after the deal,
//! hand ends and the game's end, for two or more seats, driven only by the ruleset's flow
//! options, declarations and yaku table. No game is named here.

use super::build::{self, Build, BuildMove};
use super::capture;
use super::phase::{Marks, NO_STACK, Phase, TurnLog};
use super::view::{HandSizes, View};
use crate::core::{
    Action, Carried, DeclId, Event, Game, HandEnd, HandResult, IllegalAction, Ledger, PerSeat,
    Seat, SeatSettlement, StartError, StartOptions, next_seat, same_family, uniform_index,
};
use crate::deck::{CardId, CardSet, shuffle};
use crate::expr::Context;
use crate::ruleset::{
    BothInstant, DealCheck, DealOn, Exhausted, FirstDealer, FirstPlayer, Flow, GameLength,
    Leftover, MatchingFlow, MustCapture, Ruleset, TurnPattern, YakuFacts, YakuScore,
};
use crate::script::ScriptError;
use crate::yaku::{
    self, Circumstances, FoundYaku, HandOutcome, SeatFacts, Special, TableFacts, TeamFacts,
};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};
use std::sync::Arc;

mod actions;
mod at_once;
mod dealt;
mod turn;

/// Redeals tried before a dealt table is accepted as it is.
const MAX_REDEALS: u32 = 100;

/// `MatchingGame::evaluated` when no pile has been evaluated under the hand's facts (no real
/// pile holds every card of a 64-bit set).
const UNEVALUATED: CardSet = CardSet(!0);

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
    /// The hands ran out and the scoring script settled every seat (`exhausted = "settle"`).
    pub const SETTLED: HandEnd = HandEnd("settled");
    /// A turn event that wins the hand at once (three stacks).
    pub const TURN_EVENT: HandEnd = HandEnd("turn_event");
    /// A side's score with the points it made this hand reached the target in the middle of
    /// the hand (`[flow] count_at_once`): the hand and the game end at once.
    pub const COUNTED_OUT: HandEnd = HandEnd("counted_out");
}

/// A matching game in progress.
#[derive(Clone, Debug)]
pub struct MatchingGame {
    /// Scores, hands, round, dealer, deals, events, error, carried values: the bookkeeping
    /// every game keeps.
    ledger: Ledger,
    ruleset: Arc<Ruleset>,
    flow: Arc<MatchingFlow>,
    rng: Xoshiro256PlusPlus,
    orders: std::vec::IntoIter<Vec<CardId>>,
    keep_deals: bool,
    /// The game ends with the hand in progress (a searching bot's playout reads that hand's
    /// result alone: the next deal would be dealt for nothing).
    ends_with_hand: bool,
    seats: usize,
    /// The pile each seat's yaku were last evaluated on.
    evaluated: PerSeat<CardSet>,
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
    marks: Marks,
    /// Hands in a row just ended with nobody winning.
    draws_before: u32,
    /// Under `[[flow.capture]]`: the captures offered while the player chooses one (phase
    /// `CaptureChoice`), empty otherwise; its storage serves every move.
    choices: Vec<CardSet>,
    /// Under `[flow.build]`: the builds on the table (their cards are in `table` too).
    builds: Vec<Build>,
    /// Under `[flow.build]`: the builds offered while the player chooses (after `choices`).
    build_choices: Vec<BuildMove>,
}

/// Starts a matching game; the first hand is dealt at once.
pub fn start(ruleset: Arc<Ruleset>, options: StartOptions) -> Result<MatchingGame, StartError> {
    let Flow::Matching(flow) = &ruleset.flow else {
        return Err(StartError::Options {
            message: format!("ruleset `{}` is not a matching game", ruleset.id),
        });
    };
    let flow = Arc::clone(flow);
    let flow_stake = flow.stake.unwrap_or(0);
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
    let again = if flow.checks_every_deal {
        flow.dealt_yaku.len()
    } else {
        0
    };
    let marks = Marks::new(
        seats,
        ruleset.declarations.len(),
        flow.turn_events.len(),
        again,
    );
    let carried = options
        .carried
        .unwrap_or_else(|| Carried::new(&ruleset.carry, seats));
    let mut game = MatchingGame {
        ruleset,
        flow,
        rng,
        orders: options.deck_orders.into_iter(),
        ledger: Ledger {
            carried,
            ..Ledger::new(seats, flow_stake, rounds, dealer, options.log_events)
        },
        keep_deals: !options.simulation,
        ends_with_hand: false,
        seats,
        evaluated: PerSeat::filled(seats, UNEVALUATED),
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
        marks,
        draws_before: 0,
        choices: Vec::new(),
        builds: Vec::new(),
        build_choices: Vec::new(),
    };
    game.ledger.start_at(options.first_hand);
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
            fits &= h.len() as usize == view.hand_size(s) && (placed & h).is_empty();
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
        if view.ruleset.matching().is_none() {
            return Err(IllegalAction::new(format!(
                "ruleset `{}` is not a matching game",
                view.ruleset.id
            )));
        }
        let storage = Storage {
            stock,
            ..Storage::default()
        };
        Ok(MatchingGame::build(view, other_hands, storage, seed))
    }

    /// [`MatchingGame::from_view`] of a placement known to fit, its vectors taken from
    /// `storage` (a search makes one such game per deal: the last deal's storage serves again).
    /// `storage.stock` is the stock, next to be drawn first.
    fn build(
        view: &View,
        other_hands: &PerSeat<CardSet>,
        storage: Storage,
        seed: u64,
    ) -> MatchingGame {
        let ruleset = Arc::clone(view.ruleset);
        let flow = Arc::clone(ruleset.matching().expect("a matching ruleset's view"));
        let Storage {
            stock,
            mut yaku,
            mut marks,
            mut history,
            mut events,
        } = storage;
        yaku.clear();
        yaku.extend_from_slice(view.yaku);
        marks.clone_from(view.marks);
        history.clear();
        events.clear();
        let mut hands = *other_hands;
        hands[view.seat] = view.hand;
        let seats = view.seats();
        let turn = match view.phase {
            Phase::AfterDeal => view.dealer,
            _ => view.to_act.unwrap_or(view.seat),
        };
        let mut game = MatchingGame {
            ruleset,
            flow,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            orders: Vec::new().into_iter(),
            ledger: Ledger {
                scores: PerSeat::from_slice(view.scores),
                history,
                round: view.round,
                rounds: view.rounds,
                first_dealer: view.dealer,
                dealer: view.dealer,
                house_deals: false,
                dealt_orders: Vec::new(),
                events,
                log: false,
                error: None,
                carried: view.carried.clone(),
            },
            keep_deals: false,
            ends_with_hand: false,
            seats,
            // The view's yaku and the piles they are of: a seat's yaku are brought up to date
            // for the cards it captures next, and a bot takes them as they are, instead of
            // evaluating every yaku afresh in each world a search deals.
            evaluated: PerSeat::from_slice(view.evaluated),
            turn,
            phase: view.phase,
            offered: view.offered,
            hands,
            table: view.table,
            stock,
            stock_pos: 0,
            captured: PerSeat::from_slice(view.captured),
            calls: PerSeat::from_slice(view.calls),
            yaku,
            table_count: view.table_count,
            marks,
            draws_before: view.draws_before,
            choices: Vec::new(),
            builds: if view.builds.is_empty() {
                Vec::new()
            } else {
                view.builds.to_vec()
            },
            build_choices: Vec::new(),
        };
        // A choice between captures waits on the captures the played card may make.
        if let Phase::CaptureChoice { card, from_hand } = game.phase
            && game.ruled_captures()
        {
            let mut choices = std::mem::take(&mut game.choices);
            let mut moves = std::mem::take(&mut game.build_choices);
            game.choices_of(card, from_hand, &mut choices, &mut moves);
            game.choices = choices;
            game.build_choices = moves;
        }
        game
    }

    /// The vectors of this game, emptied, for [`MatchingGame::build`] to fill again.
    fn take_storage(&mut self) -> Storage {
        let mut stock = std::mem::take(&mut self.stock);
        stock.clear();
        Storage {
            stock,
            yaku: std::mem::take(&mut self.yaku),
            marks: std::mem::take(&mut self.marks),
            history: std::mem::take(&mut self.ledger.history),
            events: std::mem::take(&mut self.ledger.events),
        }
    }

    /// What the game waits for.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat that must act, or `None` when the game is over.
    #[inline]
    pub fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::GameOver => None,
            Phase::AfterDeal => Some(next_seat(self.ledger.dealer, self.seats)),
            _ => Some(self.turn),
        }
    }

    /// Hands in the game.
    pub fn rounds(&self) -> u32 {
        self.ledger.rounds
    }

    /// The dealer's seat.
    pub fn dealer(&self) -> Seat {
        self.ledger.dealer
    }

    /// Makes this game a copy of `other`, keeping this one's storage where it can (a search
    /// copies one deal for every action it tries; a fresh copy allocated each vector again).
    /// Field by field: a field added to the game must be added here, or this does not compile.
    pub fn copy_from(&mut self, other: &MatchingGame) {
        let MatchingGame {
            ruleset,
            ledger,
            flow,
            rng,
            orders,
            keep_deals,
            ends_with_hand,
            seats,
            evaluated,
            turn,
            phase,
            offered,
            hands,
            table,
            stock,
            stock_pos,
            captured,
            calls,
            yaku,
            table_count,
            marks,
            draws_before,
            choices,
            builds,
            build_choices,
        } = self;
        ledger.clone_from(&other.ledger);
        crate::core::share(ruleset, &other.ruleset);
        crate::core::share(flow, &other.flow);
        rng.clone_from(&other.rng);
        orders.clone_from(&other.orders);
        keep_deals.clone_from(&other.keep_deals);
        ends_with_hand.clone_from(&other.ends_with_hand);
        seats.clone_from(&other.seats);
        evaluated.clone_from(&other.evaluated);
        turn.clone_from(&other.turn);
        phase.clone_from(&other.phase);
        offered.clone_from(&other.offered);
        hands.clone_from(&other.hands);
        table.clone_from(&other.table);
        stock.clone_from(&other.stock);
        stock_pos.clone_from(&other.stock_pos);
        captured.clone_from(&other.captured);
        calls.clone_from(&other.calls);
        yaku.clone_from(&other.yaku);
        table_count.clone_from(&other.table_count);
        marks.clone_from(&other.marks);
        draws_before.clone_from(&other.draws_before);
        choices.clone_from(&other.choices);
        builds.clone_from(&other.builds);
        build_choices.clone_from(&other.build_choices);
    }

    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }

    /// The face-up table.
    pub fn table(&self) -> CardSet {
        self.table
    }

    /// The builds on the table (`[flow.build]`): their cards are among [`MatchingGame::table`]'s.
    pub fn builds(&self) -> &[Build] {
        &self.builds
    }

    /// A seat's captures.
    pub fn captured(&self, seat: Seat) -> CardSet {
        self.captured[seat]
    }

    /// Each seat's captures.
    pub fn all_captured(&self) -> &[CardSet] {
        &self.captured
    }

    /// Every seat's hand (what a seat may see of them is [`View::hand_size`]).
    pub(super) fn all_hands(&self) -> &[CardSet] {
        &self.hands
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

    /// The pile each seat's yaku ([`MatchingGame::all_yaku`]) were evaluated on under the seat's
    /// facts now; a pile no seat holds when they must be evaluated afresh.
    pub fn evaluated_piles(&self) -> &[CardSet] {
        &self.evaluated
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

    /// What the hand has marked beyond the cards.
    pub fn marks(&self) -> &Marks {
        &self.marks
    }

    /// Hands in a row just ended with nobody winning.
    pub fn draws_before(&self) -> u32 {
        self.draws_before
    }

    /// The values carried from the last hand.
    pub fn carried(&self) -> &Carried {
        &self.ledger.carried
    }

    /// The facts of the deal's expressions (table count, redeals): `round`, `rounds`, then the
    /// table's carried values. On the stack when nothing is carried (every deal makes them).
    fn deal_facts(&self) -> DealFacts {
        let base = [i64::from(self.ledger.round), i64::from(self.facts_rounds())];
        if self.ledger.carried.is_empty() {
            return DealFacts::Two(base);
        }
        let mut facts = [0i64; 2 + crate::ruleset::MAX_CARRIED];
        let mut n = 0;
        for (slot, v) in facts.iter_mut().zip(
            base.into_iter()
                .chain(self.ledger.carried.table_values(&self.ruleset.carry)),
        ) {
            *slot = v;
            n += 1;
        }
        DealFacts::More(facts, n)
    }

    /// The circumstances of the hand for `seat`, as scoring sees them.
    pub fn circumstances(&self, seat: Seat) -> Circumstances {
        let all: u32 = self.calls.iter().sum();
        Circumstances {
            calls_self: self.calls[seat],
            calls_opponent: all - self.calls[seat],
            table_count: self.table_count,
            round: self.ledger.round,
            rounds: self.facts_rounds(),
            dealer: seat == self.ledger.dealer,
            choices: self.marks.choices[seat],
        }
    }

    /// Every seat's facts at the hand's end, for a script that settles each loser separately;
    /// unless `whole`, without the lists the script never reads (left empty).
    fn table_facts(&self, winner: Option<Seat>, whole: bool) -> TableFacts {
        let r = &self.ruleset;
        let skip = |name: &str| !whole && r.scoring.as_ref().is_some_and(|s| s.never_reads(name));
        let (declared, events, captured) = (skip("declared"), skip("events"), skip("captured"));
        let seats = (0..self.seats)
            .map(|s| {
                let c = self.circumstances(s);
                let mut seat = if captured {
                    let found = &self.yaku[s];
                    SeatFacts {
                        winner: winner == Some(s),
                        base: found.base(),
                        tallies: yaku::tallies(r, self.captured[s], &c),
                        yaku: found.iter().map(|i| r.yaku.yaku[i].id.clone()).collect(),
                        ..SeatFacts::default()
                    }
                } else {
                    SeatFacts::of_pile(r, self.captured[s], &self.yaku[s], &c, winner == Some(s))
                };
                seat.calls = self.calls[s];
                if !declared {
                    seat.declared = r
                        .declarations
                        .iter()
                        .enumerate()
                        .map(|(i, d)| (d.id.clone(), i64::from(self.marks.declared(s, i))))
                        .collect();
                }
                if !events {
                    seat.events = self
                        .flow
                        .turn_events
                        .iter()
                        .enumerate()
                        .map(|(i, e)| (e.id.clone(), i64::from(self.marks.fired(s, i))))
                        .collect();
                }
                seat.team = self.flow.teams.any().then(|| self.flow.teams.team_of(s));
                self.dealt_combinations(s, &mut |i| {
                    seat.dealt.push(self.flow.dealt_yaku[i].id.clone());
                });
                seat
            })
            .collect();
        TableFacts {
            seats,
            teams: TeamFacts::of_table(r, &self.flow.teams, &self.captured, |s| {
                self.circumstances(s)
            }),
            carry: (!self.ledger.carried.is_empty()).then(|| self.ledger.carried.fact(&r.carry)),
            draws_before: self.draws_before,
        }
    }

    /// Settles a hand `winner` won: with every seat's facts when the script reads them.
    fn settle_for(
        &self,
        winner: Seat,
        special: Option<&Special>,
    ) -> Result<HandOutcome, ScriptError> {
        let found = if special.is_some() {
            YakuScore::default()
        } else {
            self.yaku[winner]
        };
        let won = match special {
            Some(Special::Settle) => None,
            _ => Some(winner),
        };
        if yaku::reads_table(&self.ruleset) && !self.ends_with_hand {
            return yaku::settle_at_table_lazy(
                &self.ruleset,
                &found,
                special,
                &self.circumstances(winner),
                |whole| self.table_facts(won, whole),
            );
        }
        let table = yaku::reads_table(&self.ruleset).then(|| self.table_facts(won, true));
        // A search's world ends with this hand, as do many of its playouts, often with the
        // same facts.
        let settle = if self.ends_with_hand {
            yaku::settle_in_search
        } else {
            yaku::settle_at_table
        };
        settle(
            &self.ruleset,
            &found,
            special,
            &self.circumstances(winner),
            table.as_ref(),
        )
    }

    /// What `seat` would score by stopping now.
    pub fn points_if_stopped(&self, seat: Seat) -> Result<HandOutcome, ScriptError> {
        if self.stops_seat_by_seat() {
            return Ok(self.settle_own(false));
        }
        self.settle_for(seat, None)
    }

    /// A stop is settled seat by seat, as a hand played out is, without the tallies: the hand
    /// is settled so and no script says otherwise.
    fn stops_seat_by_seat(&self) -> bool {
        self.flow.exhausted == Exhausted::Settle && self.ruleset.scoring.is_none()
    }

    /// The game's scores as `seat`'s facts (`scope::SCORES`).
    pub(super) fn score_facts(&self, seat: Seat) -> [i64; 3] {
        if self.flow.count_at_once {
            return self.running_score_facts(seat);
        }
        self.flow
            .teams
            .score_facts(&self.ledger.scores, seat, self.ruleset.target_score())
    }

    fn facts_rounds(&self) -> u32 {
        match self.flow.length {
            GameLength::Rounds(_) => self.ledger.rounds,
            GameLength::Target { .. } => 0,
        }
    }

    fn emit(&mut self, event: impl FnOnce(&MatchingGame) -> Event) {
        if self.ledger.log {
            let e = event(self);
            self.push_event(e);
        }
    }

    /// [`MatchingGame::emit`]'s push, out of line: simulations never log.
    #[cold]
    #[inline(never)]
    fn push_event(&mut self, event: Event) {
        self.ledger.events.push(event);
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

    /// Table cards `card`, played from the hand (`from_hand`) or drawn, may capture: its
    /// suit's, or any card when it is wild where it comes from.
    #[inline(always)]
    fn candidates(&self, card: CardId, from_hand: bool) -> CardSet {
        if self.flow.is_wild(card, from_hand) {
            self.table
        } else {
            self.table & self.ruleset.deck.same_suit(card)
        }
    }

    /// [`MatchingGame::candidates`] less the cards of a suit another player's declaration
    /// blocks: the choices offered when a card matches several. Inlined as `candidates` was
    /// before blocks came: it is on every turn's path.
    #[inline]
    fn open_candidates(&self, card: CardId, from_hand: bool) -> CardSet {
        let matches = self.candidates(card, from_hand);
        if self.marks.blocked == 0 {
            return matches;
        }
        matches - self.blocked_for(self.turn)
    }

    /// The seat that plays first in a hand.
    fn first_to_play(&self) -> Seat {
        match self.flow.first_player {
            FirstPlayer::Dealer => self.ledger.dealer,
            FirstPlayer::AfterDealer => next_seat(self.ledger.dealer, self.seats),
        }
    }

    /// True when the ruleset says how cards capture (`[[flow.capture]]`): a choice is then
    /// between sets of table cards, not single cards of the suit.
    #[inline]
    fn ruled_captures(&self) -> bool {
        !self.flow.captures.is_empty()
    }

    /// The captures offered in a choice under the ruleset's capture rules (phase
    /// `CaptureChoice`): found once, when the card was played or drawn.
    fn capture_options(&self) -> &[CardSet] {
        &self.choices
    }

    /// The move that takes `set` in a choice between captures.
    fn take_action(set: CardSet) -> Action {
        match set.iter().next() {
            Some(card) if set.len() == 1 => Action::Take { card },
            _ => Action::TakeSet { cards: set },
        }
    }

    /// Cards left to play this hand: every hand's and the stock's.
    fn cards_left(&self) -> u32 {
        let held: u32 = self.hands.iter().map(|h| h.len()).sum();
        held + (self.stock.len().saturating_sub(self.stock_pos)) as u32
    }

    fn effect(&self, decl: DeclId) -> &str {
        &self.ruleset.declarations[decl.0 as usize].effect
    }

    /// The declarations of `list` that `seat` may make now.
    fn may_declare(&self, list: &[DeclId], seat: Seat) -> u64 {
        // The other seats' calls and the game's scores (facts 7 on) are worked out only when a
        // condition reads them: Koi-Koi's read the hand alone.
        let (other_calls, [score, best_other, target]) = if !self.flow.declarations_read_table {
            (0, [0; 3])
        } else {
            let all: i64 = self.calls.iter().map(|&c| i64::from(c)).sum();
            (all - i64::from(self.calls[seat]), self.score_facts(seat))
        };
        let facts = [
            i64::from(self.ledger.round),
            i64::from(self.facts_rounds()),
            i64::from(seat == self.ledger.dealer),
            i64::from(self.hands[seat].len()),
            i64::from(self.calls[seat]),
            self.yaku[seat].base(),
            self.marks.last_base[seat],
            other_calls,
            score,
            best_other,
            target,
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
        self.ledger.round += 1;
        self.captured.fill(CardSet::EMPTY);
        self.calls.fill(0);
        for y in self.yaku.iter_mut() {
            y.clear();
        }
        self.marks.reset();
        // No pile is every card, so the first turn always evaluates.
        self.evaluated.fill(UNEVALUATED);
        self.turn = self.first_to_play();
        let (round, dealer) = (self.ledger.round, self.ledger.dealer);
        self.emit(|_| Event::Deal { round, dealer });
        let facts = self.deal_facts();
        let facts = facts.as_slice();
        let mut redeals = 0;
        loop {
            self.deal();
            let redeal = self
                .flow
                .redeals
                .iter()
                .find(|r| self.calls_for_redeal(r, facts))
                .map(|r| r.name.clone());
            match redeal {
                Some(reason) if redeals < MAX_REDEALS => {
                    redeals += 1;
                    self.emit(|_| Event::Redeal { reason });
                }
                // A condition that holds deal after deal is a mistake in the rules, not a deal
                // to play as if it had not held.
                Some(reason) => {
                    return Err(ScriptError {
                        message: format!(
                            "the redeal `{reason}` held on {} deals in a row; the hand cannot be dealt (check its `when`)",
                            MAX_REDEALS + 1
                        ),
                    });
                }
                None => break,
            }
        }
        if !self.ruleset.carry.is_empty() {
            self.carry_at_deal();
        }
        // Counted at the deal, before any declaration after it (the classic hand swap shows the
        // multipliers this table brings); nothing after the deal changes the table.
        self.count_table();
        // What the dealt table gives a seat, once it is counted (a carried value or the table
        // count reads the table as dealt).
        if !self.flow.deal_bonuses.is_empty() {
            self.give_deal_bonuses();
        }
        if let Some(d) = &self.flow.drop_out
            && self.seats > d.players as usize
        {
            self.begin_drop_out(d.after_dealer);
            return match self.ledger.error.take() {
                Some(e) => Err(e),
                None => Ok(()),
            };
        }
        self.after_decisions();
        match self.ledger.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The hand's players are known: the after-deal declarations, or the instant wins.
    fn after_decisions(&mut self) {
        if !self.flow.after_deal.is_empty() {
            self.phase = Phase::AfterDeal;
            self.offered = self.flow.after_deal.iter().fold(0, |m, d| m | 1 << d.0);
            return;
        }
        self.after_deal();
    }

    /// `[flow.drop_out]`: the decisions begin with the dealer, or the seat after it.
    #[cold]
    fn begin_drop_out(&mut self, after_dealer: bool) {
        self.phase = Phase::DropOut;
        self.turn = if after_dealer {
            next_seat(self.ledger.dealer, self.seats)
        } else {
            self.ledger.dealer
        };
        self.next_decision();
    }

    /// The decision of the seat in `turn`, or of none when the hand's players are found: a seat
    /// that may not drop (the places left are as many as the seats still to decide, or its
    /// `drop` declaration's `when` fails) plays without being asked, and once enough play the
    /// rest sit out without paying.
    fn next_decision(&mut self) {
        let Some(d) = self.flow.drop_out.clone() else {
            return;
        };
        loop {
            let decided = self.marks.out | self.marks.playing;
            let playing = self.marks.playing.count_ones();
            if playing >= d.players {
                let all = (1u16 << self.seats) - 1;
                self.marks.out |= all & !decided;
                return self.finish_drop_out(&d);
            }
            let seat = self.turn;
            let undecided = self.seats as u32 - decided.count_ones();
            let may_drop =
                undecided > d.players - playing && self.may_declare(&[d.drop], seat) != 0;
            if may_drop {
                self.offered = 1 << d.play.0 | 1 << d.drop.0;
                return;
            }
            self.emit(|_| Event::Declared {
                player: seat,
                decl: d.play,
                card: None,
            });
            self.count_declared(seat, d.play);
            self.marks.playing |= 1 << seat;
            self.turn = next_seat(seat, self.seats);
        }
    }

    /// The seat to act plays the hand (`play`) or drops out (`drop`).
    fn decide(&mut self, seat: Seat, decl: DeclId) {
        self.count_declared(seat, decl);
        if self.effect(decl) == "drop" {
            self.marks.out |= 1 << seat;
            self.marks.dropped |= 1 << seat;
        } else {
            self.marks.playing |= 1 << seat;
        }
        self.offered = 0;
        self.turn = next_seat(seat, self.seats);
        self.next_decision();
    }

    /// The players are found: each hand that sits out goes under the stock, in the order the
    /// seats decided, and the hand goes on as dealt to the seats that play.
    fn finish_drop_out(&mut self, d: &crate::ruleset::DropOut) {
        let first = if d.after_dealer {
            next_seat(self.ledger.dealer, self.seats)
        } else {
            self.ledger.dealer
        };
        let mut s = first;
        for _ in 0..self.seats {
            if self.marks.sits_out(s) {
                let hand = std::mem::take(&mut self.hands[s]);
                self.stock.extend(hand.iter());
            }
            s = next_seat(s, self.seats);
        }
        self.offered = 0;
        self.after_decisions();
    }

    /// True when redeal `r` holds on the piles it reads: the table, or any hand (`on`).
    fn calls_for_redeal(&self, r: &DealCheck, facts: &[i64]) -> bool {
        let holds = |pile: CardSet| r.when.truth(&Context { pile, facts });
        let table = r.on != DealOn::Hands && holds(self.table);
        table || r.on != DealOn::Table && self.hands.iter().any(|&h| holds(h))
    }

    fn deal(&mut self) {
        let n = self.ruleset.deck.cards.len();
        // The shuffle is drawn even when a given order replaces it, so that a game replayed from
        // its record's orders goes on, once they run out, exactly as the original did.
        let mut deck = CardId::ALL;
        shuffle(&mut deck, n, &mut self.rng);
        if let Some(given) = self.orders.next().filter(|o| o.len() == n) {
            deck[..n].copy_from_slice(&given);
        }
        // Dealt from the array, each position kept inside it by a mask that changes nothing
        // (the ruleset's check leaves `next < n <= CAPACITY`): no bounds checks per card.
        const LAST: usize = CardSet::CAPACITY - 1;
        // Borrowed, not cloned: a clone would touch the reference count every worker of a
        // simulation shares on every deal.
        let flow = &*self.flow;
        // Each card to where the ruleset's plan of the deal sends it: the seat counted from the
        // dealer, or the table (after the seats).
        let plan = flow.deal_plan(self.seats);
        let mut dealt = [CardSet::EMPTY; 16];
        for (next, &to) in plan.iter().enumerate() {
            dealt[usize::from(to) & 15].insert(deck[next & LAST]);
        }
        let mut next = plan.len();
        let mut hands: PerSeat<CardSet> = PerSeat::new(self.seats);
        let mut s = self.ledger.dealer;
        for from_dealer in dealt.iter().take(self.seats) {
            hands[s] = *from_dealer;
            s = next_seat(s, self.seats);
        }
        let mut table = dealt[self.seats.min(crate::ruleset::MAX_SEATS)];
        // Bonus cards dealt to the table go to the dealer, and the table is filled again from
        // the stock (pagat "Go Stop": "the dealer takes it and turns up another").
        let mut dealer_pile = CardSet::EMPTY;
        while !(table & flow.bonus).is_empty() && next < n {
            let b = table & flow.bonus;
            dealer_pile |= b;
            table = table - b;
            for _ in 0..b.len() {
                if next < n {
                    table.insert(deck[next & LAST]);
                    next += 1;
                }
            }
        }
        debug_assert!(next <= n, "the deal fits the deck");
        self.captured.fill(CardSet::EMPTY);
        self.captured[self.ledger.dealer] = dealer_pile;
        self.hands = hands;
        self.table = table;
        self.builds.clear();
        // The stock is the rest of the order, drawn from `stock_pos` on.
        self.stock.clear();
        self.stock.extend_from_slice(&deck[..n]);
        if self.keep_deals {
            self.ledger.dealt_orders.push(self.stock.clone());
        }
        self.stock_pos = next;
    }

    /// The carried values the deal sets (`[[carry]] deal`), in ruleset order, each counted on
    /// the table with the values as they stand (those before it already set).
    #[cold]
    #[inline(never)]
    fn carry_at_deal(&mut self) {
        for i in 0..self.ruleset.carry.len() {
            if let Some(p) = &self.ruleset.carry[i].deal {
                let value = p.int(&Context {
                    pile: self.table,
                    facts: self.deal_facts().as_slice(),
                });
                self.ledger.carried.set_table(i, value);
            }
        }
    }

    /// The ruleset's count of the table at the deal (`[flow] table_count`).
    fn count_table(&mut self) {
        self.table_count = self.flow.table_count.as_ref().map_or(0, |p| {
            p.int(&Context {
                pile: self.table,
                facts: self.deal_facts().as_slice(),
            })
        });
    }

    /// Instant wins, once the hands are final.
    fn after_deal(&mut self) {
        self.turn = self.first_to_play();
        if self.marks.out != 0 {
            self.pass_seats_out();
        }
        self.phase = Phase::Play;
        self.offered = 0;
        self.begin_turn();
        if !self.flow.dealt_yaku.is_empty() {
            self.find_dealt_combinations();
        }
        if self.flow.instant_wins.is_empty() {
            return;
        }
        // The first instant win each hand holds (by index), without allocating: most deals
        // hold none.
        let mut won: PerSeat<u8> = PerSeat::filled(self.seats, u8::MAX);
        let mut holders = 0usize;
        for seat in 0..self.seats {
            let facts = [
                i64::from(self.ledger.round),
                i64::from(self.facts_rounds()),
                i64::from(seat == self.ledger.dealer),
            ];
            if let Some(i) = self.flow.instant_win(self.hands[seat], &facts) {
                won[seat] = i as u8;
                holders += 1;
            }
        }
        // A seat sitting out holds no hand to win with (its hand went under the stock).
        if self.marks.out != 0 {
            holders -= self.forget_seats_out(&mut won);
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
                BothInstant::Dealer => Some(first_holder(self.ledger.dealer)),
                // Neither counts: the hand is played as dealt.
                BothInstant::Play => return,
            },
        };
        // The hands that decide are shown to the table before the hand ends.
        for seat in 0..self.seats {
            if won[seat] != u8::MAX && (winner.is_none() || winner == Some(seat)) {
                self.emit(|g| Event::Shown {
                    player: seat,
                    cards: g.hands[seat].iter().collect(),
                });
            }
        }
        match winner {
            Some(w) => {
                let win = &self.flow.instant_wins[usize::from(won[w])];
                let special = Special::Instant(FoundYaku {
                    id: win.id.clone(),
                    name: win.name.clone(),
                    points: win.points,
                });
                let outcome = self.settle_for(w, Some(&special));
                self.end_hand(Some(w), ends::INSTANT, outcome.map(Settled::Full));
            }
            None => self.end_hand(None, ends::BOTH_INSTANT, Ok(Settled::Points([0, 0]))),
        }
    }

    /// The combination each dealt hand holds among those scored at the hand's end (a teyaku),
    /// announced to the table.
    #[cold]
    fn find_dealt_combinations(&mut self) {
        let out = self.marks.out;
        for seat in (0..self.seats).filter(|&s| out >> s & 1 == 0) {
            let facts = [
                i64::from(self.ledger.round),
                i64::from(self.facts_rounds()),
                i64::from(seat == self.ledger.dealer),
            ];
            let found = self.flow.dealt_combination(self.hands[seat], &facts);
            self.marks.dealt[seat] = found.map_or(NO_STACK, |i| i.min(254) as u8);
            if let Some(i) = found {
                let check = &self.flow.dealt_yaku[i];
                let (id, name) = (check.id.clone(), check.name.clone());
                self.emit(|_| Event::TurnEvent {
                    player: seat,
                    id,
                    name,
                });
            }
        }
    }

    /// A hand played out and settled without a script: each seat (each partnership, on the
    /// partners' piles together) scores its yaku, turn events and tally awards.
    fn settle_own(&self, tallies: bool) -> HandOutcome {
        // A simulation keeps the points alone, as it does for a stop.
        let explain = self.keep_deals || self.ledger.log;
        yaku::settle_own(
            &self.ruleset,
            self.seats,
            &SeatSides::new(self),
            |s| self.circumstances(s),
            yaku::OwnSettlement {
                explain,
                tallies,
                unclaimed: None,
            },
        )
    }

    /// 002 "Koi-Koi rules", 003 "Play", 004: the hands ran out with no stop. Out of line, once
    /// a hand: inline, its settlement made every turn's change of player save and restore
    /// registers.
    #[cold]
    #[inline(never)]
    fn hands_ran_out(&mut self) {
        if !self.flow.leftover_rules.is_empty() {
            self.leftovers_by_rule();
        }
        self.leftover_to_last_capturer();
        match self.flow.exhausted {
            Exhausted::Draw => self.end_hand(None, ends::EXHAUSTED, Ok(Settled::Points([0, 0]))),
            Exhausted::DealerScores(points) => {
                let d = self.ledger.dealer;
                let outcome = self.settle_for(d, Some(&Special::Exhausted(points)));
                self.end_hand(Some(d), ends::EXHAUSTED_DEALER, outcome.map(Settled::Full));
            }
            Exhausted::Settle if self.ruleset.scoring.is_none() => {
                let outcome = self.settle_own(true);
                self.end_hand(None, ends::SETTLED, Ok(Settled::Full(outcome)));
            }
            Exhausted::Settle => {
                // Nobody stopped: the script reads every seat's facts (the dealer's are the
                // hand's own) and says each seat's points and who, if anyone, won.
                let outcome = self.settle_for(self.ledger.dealer, Some(&Special::Settle));
                self.end_hand(None, ends::SETTLED, outcome.map(Settled::Full));
            }
        }
    }

    /// A seat's turn begins: nothing played or drawn yet.
    fn begin_turn(&mut self) {
        let p = self.turn;
        if self.flow.watches_laid {
            // The last turn's hand card, if it took nothing and still lies on the table.
            self.marks.laid_before = match self.marks.turn.played {
                Some((card, took)) if took.is_empty() && self.table.contains(card) => Some(card),
                _ => None,
            };
        }
        self.marks.turn = TurnLog {
            pile_before: self.captured[p],
            ..TurnLog::default()
        };
        self.marks.turns[p] = self.marks.turns[p].saturating_add(1);
    }

    fn stop(&mut self, winner: Seat) {
        if self.stops_seat_by_seat() {
            // A hand settled seat by seat without a script is settled so when a seat stops
            // too: every side's yaku, dealt combinations and turn events, without the tallies
            // (they count when the hands run out).
            let outcome = self.settle_own(false);
            self.end_hand(Some(winner), ends::STOP, Ok(Settled::Full(outcome)));
            return;
        }
        let settled = if self.keep_deals || yaku::reads_table(&self.ruleset) {
            self.points_if_stopped(winner).map(Settled::Full)
        } else {
            let c = self.circumstances(winner);
            match yaku::settle_points(&self.ruleset, &self.yaku[winner], &c) {
                Ok(Some(points)) => Ok(Settled::Points(points)),
                // The script settled every seat: the whole outcome says how.
                Ok(None) => self.points_if_stopped(winner).map(Settled::Full),
                Err(e) => Err(e),
            }
        };
        self.end_hand(Some(winner), ends::STOP, settled);
    }

    /// The hand's winner and, when the scoring script settled every seat (`seats`), each
    /// seat's points: the winner the script names (-1: nobody), else the seat that ended the
    /// hand, else the one seat with the most points when they are above zero.
    #[allow(clippy::type_complexity)]
    fn settle_seats(
        &self,
        winner: Option<Seat>,
        settled: Settled,
    ) -> Result<(Option<Seat>, Settled, Option<PerSeat<i64>>), ScriptError> {
        let Settled::Full(o) = &settled else {
            return Ok((winner, settled, None));
        };
        if o.seats.is_empty() && o.winner.is_none() {
            return Ok((winner, settled, None));
        }
        let said = SeatSettlement {
            seats: &o.seats,
            named: o.winner,
        };
        let (winner, by_seat) = said
            .resolve(self.seats, winner)
            .map_err(|message| self.ruleset.script_failure(message))?;
        Ok((winner, settled, by_seat))
    }

    fn end_hand(
        &mut self,
        winner: Option<Seat>,
        end: HandEnd,
        settled: Result<Settled, ScriptError>,
    ) {
        let settled = settled.and_then(|s| self.settle_seats(winner, s));
        let (winner, settled, by_seat) = match settled {
            Ok(s) => s,
            Err(e) => {
                self.ledger.error = Some(e);
                self.phase = Phase::GameOver;
                return;
            }
        };
        let (winner_points, mut outcome) = match settled {
            Settled::Full(o) => ([o.total, o.opponent], Some(o)),
            Settled::Points(p) => (p, None),
        };
        let mut points: PerSeat<i64> = PerSeat::new(self.seats);
        let payments = outcome.as_ref().map_or(&[][..], |o| &o.payments[..]);
        if let Some(by_seat) = by_seat {
            // The script settled every seat itself: its points are the hand's, as they are.
            points = by_seat;
        } else if let Some(w) = winner {
            if payments.is_empty() {
                for (s, p) in points.iter_mut().enumerate() {
                    *p = if s == w {
                        winner_points[0]
                    } else {
                        winner_points[1]
                    };
                }
            } else {
                // Each loser pays the winner its own amount: the hand sums to zero.
                let mut won = 0i64;
                for s in (0..self.seats).filter(|&s| s != w) {
                    let pay = payments.get(s).copied().unwrap_or(0);
                    points[s] = -pay;
                    won = won.saturating_add(pay);
                }
                points[w] = won;
            }
        }
        if self.flow.stake.is_some()
            && by_seat.is_none()
            && let Some(w) = winner
        {
            // Stakes: each loser pays what it owes the winner, or what it has left.
            let mut won = 0i64;
            for s in (0..self.seats).filter(|&s| s != w) {
                let owed = if payments.is_empty() {
                    winner_points[0]
                } else {
                    payments.get(s).copied().unwrap_or(0)
                };
                let paid = owed.clamp(0, self.ledger.scores[s].max(0));
                points[s] = -paid;
                won = won.saturating_add(paid);
            }
            points[w] = won;
        }
        if self.marks.dropped != 0 {
            self.pay_for_dropping(&mut points, outcome.as_mut());
        }
        // Partners share one score: each seat scores its team's points, and the sum is the
        // teams' (each counted once).
        let totals = self.flow.teams.pool(&mut points);
        if let Some(o) = outcome.as_ref().filter(|o| !o.carry.is_empty())
            && let Err(why) = self.ledger.carried.apply(&self.ruleset.carry, &o.carry)
        {
            self.ledger.fail(self.ruleset.script_failure(why));
            self.phase = Phase::GameOver;
            return;
        }
        if let Some(script) = &self.ruleset.scoring
            && script.is_zero_sum()
            && let Err(e) = match &totals {
                Some(t) => script.check_zero_sum(t, "team"),
                None => script.check_zero_sum(&points, "seat"),
            }
        {
            self.ledger.error = Some(e);
            self.phase = Phase::GameOver;
            return;
        }
        self.draws_before = if winner.is_some() {
            0
        } else {
            self.draws_before.saturating_add(1)
        };
        let yaku_mask = match winner {
            Some(w) if end == ends::STOP => self.yaku[w].mask,
            _ => 0,
        };
        self.ledger.close_hand(HandResult {
            round: self.ledger.round,
            dealer: Some(self.ledger.dealer),
            winner,
            end,
            // A hand settled seat by seat keeps its explanation even with nobody winning.
            outcome: outcome
                .filter(|_| winner.is_some() || by_seat.is_some())
                .map(Box::new),
            yaku_mask,
            points,
            calls: self.calls,
            house: 0,
            carried: self.ledger.carried.clone(),
        });
        let rule = if winner.is_some() {
            self.flow.next_dealer
        } else {
            self.flow.draw_dealer
        };
        self.ledger.pass_deal(rule, winner, self.seats);
        let target = match self.flow.length {
            GameLength::Target { score, .. } => Some(score),
            GameLength::Rounds(_) => None,
        };
        let stake_gone = self.flow.stake.is_some() && self.ledger.scores.iter().any(|&s| s <= 0);
        // A game to a target whose leaders are tied plays on (within `max_rounds`) when the
        // rules say so (Scopa: "If both are equal, play further hands until one side has more
        // points at the end of a hand").
        let play_off = self.flow.target_ties_play_on
            && target.is_some()
            && self.ledger.round < self.ledger.rounds
            && self.leaders_tied();
        if (self.ledger.last_hand_played(target) && !play_off) || stake_gone || self.ends_with_hand
        {
            self.phase = Phase::GameOver;
            self.offered = 0;
            self.ledger.end_game();
        } else if let Err(e) = self.start_hand() {
            self.ledger.fail(e);
            self.phase = Phase::GameOver;
        }
    }

    /// `[flow.drop_out] pays`: each seat that dropped out pays each seat that played (times the
    /// table count under `table_multiplies`), explained in the outcome's steps.
    #[cold]
    fn pay_for_dropping(&self, points: &mut PerSeat<i64>, mut outcome: Option<&mut HandOutcome>) {
        let Some(d) = &self.flow.drop_out else {
            return;
        };
        let times = if self.flow.table_multiplies {
            self.table_count
        } else {
            1
        };
        let each = d.pays.saturating_mul(times);
        if each == 0 {
            return;
        }
        // A simulation keeps the points alone, as it does for the rest of the settlement.
        if !(self.keep_deals || self.ledger.log) {
            outcome = None;
        }
        let name = &self.ruleset.declarations[usize::from(d.drop.0)].name;
        let suffix = if times == 1 {
            String::new()
        } else {
            format!(" (x{times})")
        };
        for payer in (0..self.seats).filter(|&s| self.marks.dropped >> s & 1 == 1) {
            for player in (0..self.seats).filter(|&s| !self.marks.sits_out(s)) {
                points[payer] = points[payer].saturating_sub(each);
                points[player] = points[player].saturating_add(each);
                if let Some(o) = outcome.as_deref_mut() {
                    // The script's per-seat answer, where it gave one, says the hand's points.
                    if let (Some(paid), Some(_)) = (o.seats.get(payer), o.seats.get(player)) {
                        o.seats[payer] = paid.saturating_sub(each);
                        o.seats[player] = o.seats[player].saturating_add(each);
                    }
                    o.steps.push(crate::script::ScoreStep {
                        reason: format!("{name} {:+} to seat {player}{suffix}", -each),
                        total: points[payer],
                        seat: Some(payer),
                    });
                    o.steps.push(crate::script::ScoreStep {
                        reason: format!("{name} {each:+} from seat {payer}{suffix}"),
                        total: points[player],
                        seat: Some(player),
                    });
                }
            }
        }
    }

    /// True when two seats of different partnerships share the highest score.
    fn leaders_tied(&self) -> bool {
        let scores = &self.ledger.scores;
        let Some(&high) = scores.iter().max() else {
            return false;
        };
        let teams = self.flow.teams;
        let mut leaders = (0..self.seats).filter(|&s| scores[s] == high);
        let first = leaders.next().map(|s| teams.team_of(s));
        leaders.any(|s| Some(teams.team_of(s)) != first)
    }

    /// A game in the state `seat` sees, with its hidden cards dealt at random from `rng`, that
    /// ends with the hand in progress.
    pub fn determinized(&self, seat: Seat, rng: &mut Xoshiro256PlusPlus) -> MatchingGame {
        self.world(seat, rng, Storage::default())
    }

    /// [`MatchingGame::determinized`] into `world`, whose vectors serve again: the same draws
    /// and the same game, without allocating (a search makes one world per deal).
    pub fn determinize_into(&self, seat: Seat, rng: &mut Xoshiro256PlusPlus, world: &mut Self) {
        *world = self.world(seat, rng, world.take_storage());
    }

    /// The determinized game, its vectors taken from `storage`.
    fn world(&self, seat: Seat, rng: &mut Xoshiro256PlusPlus, storage: Storage) -> MatchingGame {
        let view = self.view(seat);
        let (others, storage, seed) = place_hidden(&view, rng, storage);
        let mut world = MatchingGame::build(&view, &others, storage, seed);
        world.ends_with_hand = true;
        world
    }
}

/// The cards the viewer of `view` cannot see, shuffled from `rng`: the other hands, and the
/// rest as the stock (into `storage.stock`), then the seed of the world's later deals.
fn place_hidden(
    view: &View,
    rng: &mut Xoshiro256PlusPlus,
    mut storage: Storage,
) -> (PerSeat<CardSet>, Storage, u64) {
    let mut hidden = [CardId(0); CardSet::CAPACITY];
    let n = view.unseen.len() as usize;
    for (slot, card) in hidden.iter_mut().zip(view.unseen.iter()) {
        *slot = card;
    }
    // `random_range(0..=i)` from the last card down, as the deal's shuffle draws.
    shuffle(&mut hidden, n, rng);
    let mut others: PerSeat<CardSet> = PerSeat::new(view.seats());
    let mut next = 0;
    for s in (0..view.seats()).filter(|&s| s != view.seat) {
        for &c in &hidden[next..next + view.hand_size(s)] {
            others[s].insert(c);
        }
        next += view.hand_size(s);
    }
    storage.stock.extend_from_slice(&hidden[next..n]);
    (others, storage, rng.next_u64())
}

/// The facts of a deal's expressions ([`MatchingGame::deal_facts`]).
enum DealFacts {
    /// `round` and `rounds`: nothing is carried.
    Two([i64; 2]),
    /// Those, then the table's carried values (the first `.1` of the array), on the stack: a
    /// deal that sets carried values makes these once for each.
    More([i64; 2 + crate::ruleset::MAX_CARRIED], usize),
}

impl DealFacts {
    fn as_slice(&self) -> &[i64] {
        match self {
            DealFacts::Two(f) => f,
            DealFacts::More(f, n) => &f[..*n],
        }
    }
}

/// The vectors a game made from a view fills ([`MatchingGame::build`]).
#[derive(Default)]
struct Storage {
    stock: Vec<CardId>,
    yaku: Vec<YakuScore>,
    marks: Marks,
    history: Vec<HandResult>,
    events: Vec<Event>,
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
        Action::TakeSet { .. } => "choosing table cards",
        Action::PlaySet { .. } => "playing several cards",
        Action::Build { .. } => "building",
        Action::Declare { card: Some(_), .. } => "a declaration with a card",
        Action::Declare { .. } => "a declaration",
        Action::Bet { .. } => "betting",
        Action::Draw { .. } => "taking more cards",
    }
}

impl Game for MatchingGame {
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
    fn apply_legal(&mut self, index: usize) -> Result<(), IllegalAction> {
        MatchingGame::apply_legal(self, index)
    }
    fn apply_uniform(&mut self, rng: &mut Xoshiro256PlusPlus) -> Result<(), IllegalAction> {
        MatchingGame::apply_uniform(self, rng)
    }
    // The trait's loop, written again on purpose: here `self.apply_uniform` is the inherent
    // method, inlined into the loop. The trait's default calls the trait's method out of line
    // (a random hand 9,436 instructions with this, 9,945 without, 9,580 with the trait method
    // forced inline).
    fn play_uniform(
        &mut self,
        seats: u64,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Result<(), IllegalAction> {
        while let Some(seat) = self.to_act() {
            if seats >> seat & 1 == 0 {
                break;
            }
            self.apply_uniform(rng)?;
        }
        Ok(())
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
    fn unseen(&self, seat: Seat) -> CardSet {
        self.view(seat).unseen
    }
    fn heuristic(&self, seat: Seat, legal: &[Action], _rng: &mut Xoshiro256PlusPlus) -> Action {
        // A forced move (the last card in hand) needs no view: the policy would take it.
        match legal {
            [only] => *only,
            _ => super::greedy::choose(&self.view(seat), legal),
        }
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
        same_family(source, |source: &MatchingGame| {
            source.determinize_into(seat, rng, self)
        })
    }
    fn box_clone(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }
    fn copy_from(&mut self, other: &dyn Game) -> bool {
        same_family(other, |other| MatchingGame::copy_from(self, other))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_dyn(&self) -> &dyn Game {
        self
    }
}

/// A game's seats as the sides of a hand settled seat by seat (each partnership one side), read
/// where they lie: each side's seats are found once, as a bit per seat.
struct SeatSides<'g> {
    game: &'g MatchingGame,
    /// Each side's seats (bit `s` for seat `s`); none past the sides at the table.
    members: [u16; crate::ruleset::MAX_SEATS],
    /// How many sides there are.
    count: usize,
}

impl<'g> SeatSides<'g> {
    fn new(game: &'g MatchingGame) -> SeatSides<'g> {
        let teams = &game.flow.teams;
        let out = game.marks.out;
        let mut members = [0u16; crate::ruleset::MAX_SEATS];
        // With seats sitting out (never with teams), side `i` is the `i`th seat that plays;
        // else each seat's side is its team, or the seat itself without partnerships.
        let playing = (0..game.seats).filter(|&s| out >> s & 1 == 0);
        for (i, s) in playing.enumerate() {
            let side = match (out, teams.any()) {
                (0, true) => teams.team_of(s),
                (0, false) => s,
                _ => i,
            };
            if let Some(m) = members.get_mut(side) {
                *m |= 1 << s;
            }
        }
        let count = if teams.any() {
            teams.count(game.seats)
        } else {
            game.seats - out.count_ones() as usize
        };
        SeatSides {
            game,
            members,
            count,
        }
    }

    /// The seats of side `side`, in seat order.
    fn members(&self, side: usize) -> impl Iterator<Item = Seat> + use<> {
        let mut rest = self.members.get(side).copied().unwrap_or(0);
        std::iter::from_fn(move || {
            let s = rest.trailing_zeros() as usize;
            rest &= rest.wrapping_sub(1);
            (s < 16).then_some(s)
        })
    }
}

impl yaku::OwnSides for SeatSides<'_> {
    fn count(&self) -> usize {
        self.count
    }
    fn first_seat(&self, i: usize) -> usize {
        self.members(i).next().unwrap_or(0)
    }
    fn pile(&self, i: usize) -> CardSet {
        self.members(i)
            .fold(CardSet::EMPTY, |u, s| u | self.game.captured[s])
    }
    fn fired(&self, i: usize, e: usize) -> u32 {
        self.members(i)
            .map(|s| u32::from(self.game.marks.fired(s, e)))
            .sum()
    }
    fn declared(&self, i: usize, d: usize) -> u32 {
        self.members(i)
            .map(|s| u32::from(self.game.marks.declared(s, d)))
            .sum()
    }
    fn dealt(&self, i: usize, each: &mut dyn FnMut(usize)) {
        for s in self.members(i) {
            self.game.dealt_combinations(s, each);
        }
    }
}

impl MatchingGame {
    /// What `seat` may see.
    pub fn view(&self, seat: Seat) -> View<'_> {
        let ruleset = crate::core::Game::ruleset(self);
        let hand = self.hand(seat);
        let seats = crate::core::Game::seats(self);
        let captured = self.all_captured();
        let mut seen = hand | self.table();
        for &pile in &captured[..seats] {
            seen |= pile;
        }
        let mut unseen = ruleset.deck.all() - seen;
        // A card being resolved (played or drawn, waiting for a capture choice) is face up.
        if let Phase::CaptureChoice { card, .. } = self.phase() {
            unseen.remove(card);
        }
        View {
            seat,
            phase: self.phase(),
            to_act: self.to_act(),
            offered: self.offered(),
            hand,
            hands: HandSizes::new(self.all_hands()),
            table: self.table(),
            builds: self.builds(),
            captured,
            stock_size: self.stock_len(),
            unseen,
            calls: self.calls(),
            yaku: self.all_yaku(),
            evaluated: self.evaluated_piles(),
            scores: crate::core::Game::scores(self),
            round: crate::core::Game::round(self),
            rounds: self.rounds(),
            dealer: self.dealer(),
            table_count: self.table_count(),
            marks: self.marks(),
            draws_before: self.draws_before(),
            carried: self.carried(),
            ruleset,
        }
    }
}
