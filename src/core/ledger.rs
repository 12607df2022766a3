//! A game's bookkeeping, the same in every family: scores, the finished hands, the round, the
//! dealer and how the deal passes, the deck orders dealt, the events logged for display, the
//! script error that ended a game, and the values carried between hands. A family keeps one
//! [`Ledger`] and [`crate::core::Game`] reads it, so none writes these out again.

use super::action::{Event, HandEnd};
use super::carry::Carried;
use super::game::HandResult;
use super::seat::{PerSeat, Seat, next_seat};
use crate::deck::CardId;
use crate::ruleset::NextDealer;
use crate::script::ScriptError;

/// What every game records, hand after hand.
#[derive(Debug, Default)]
pub struct Ledger {
    /// Each seat's score (points, or chips).
    pub scores: PerSeat<i64>,
    /// Every finished hand.
    pub history: Vec<HandResult>,
    /// The round in progress (or the last), 1-based.
    pub round: u32,
    /// Hands in the game (the most, for games played to a target).
    pub rounds: u32,
    /// The first hand's dealer.
    pub first_dealer: Seat,
    /// The dealer of the hand in progress.
    pub dealer: Seat,
    /// A house deals, not a seat: the game has no dealer to report.
    pub house_deals: bool,
    /// Every deal's deck order so far (records keep them), when kept.
    pub dealt_orders: Vec<Vec<CardId>>,
    /// Events logged since they were last taken, when logging.
    pub events: Vec<Event>,
    /// Events are logged (for display; off in simulations).
    pub log: bool,
    /// A script error that ended the game early.
    pub error: Option<ScriptError>,
    /// Values carried from the last hand.
    pub carried: Carried,
}

impl Clone for Ledger {
    fn clone(&self) -> Ledger {
        let mut l = Ledger::default();
        l.clone_from(self);
        l
    }

    /// Field by field, keeping this ledger's vectors (a search copies a game for every action
    /// it tries). A field added here must be added to the pattern, or this does not compile.
    fn clone_from(&mut self, other: &Ledger) {
        let Ledger {
            scores,
            history,
            round,
            rounds,
            first_dealer,
            dealer,
            house_deals,
            dealt_orders,
            events,
            log,
            error,
            carried,
        } = self;
        scores.clone_from(&other.scores);
        history.clone_from(&other.history);
        round.clone_from(&other.round);
        rounds.clone_from(&other.rounds);
        first_dealer.clone_from(&other.first_dealer);
        dealer.clone_from(&other.dealer);
        house_deals.clone_from(&other.house_deals);
        dealt_orders.clone_from(&other.dealt_orders);
        events.clone_from(&other.events);
        log.clone_from(&other.log);
        error.clone_from(&other.error);
        carried.clone_from(&other.carried);
    }
}

impl Ledger {
    /// Makes this ledger a copy of `other`, keeping its vectors; without `record`, the
    /// finished hands, deals and events are left empty (a search's playout reads only the hand
    /// in progress).
    pub fn copy_from(&mut self, other: &Ledger, record: bool) {
        if record {
            self.clone_from(other);
            return;
        }
        let Ledger {
            scores,
            history,
            round,
            rounds,
            first_dealer,
            dealer,
            house_deals,
            dealt_orders,
            events,
            log,
            error,
            carried,
        } = self;
        scores.clone_from(&other.scores);
        history.clear();
        round.clone_from(&other.round);
        rounds.clone_from(&other.rounds);
        first_dealer.clone_from(&other.first_dealer);
        dealer.clone_from(&other.dealer);
        house_deals.clone_from(&other.house_deals);
        dealt_orders.clear();
        events.clear();
        log.clone_from(&other.log);
        error.clone_from(&other.error);
        carried.clone_from(&other.carried);
    }

    /// The ledger of a new game: every seat's score at `stake`, `rounds` hands at most, the
    /// first dealer.
    pub fn new(seats: usize, stake: i64, rounds: u32, dealer: Seat, log: bool) -> Ledger {
        Ledger {
            scores: PerSeat::filled(seats, stake),
            // Room for the hands of a usual game at once, rather than regrowing as they end (a
            // game played to a target may have far more rounds at most than it plays).
            history: Vec::with_capacity(rounds.min(32) as usize),
            round: 0,
            rounds,
            first_dealer: dealer,
            dealer,
            house_deals: false,
            dealt_orders: Vec::new(),
            events: Vec::new(),
            log,
            error: None,
            carried: Carried::default(),
        }
    }

    /// Logs the event `make` builds, when logging (out of line: simulations never log).
    #[inline]
    pub fn emit(&mut self, make: impl FnOnce() -> Event) {
        if self.log {
            self.push_event(make());
        }
    }

    #[cold]
    #[inline(never)]
    fn push_event(&mut self, event: Event) {
        self.events.push(event);
    }

    /// Closes a hand: adds each seat's points to its score, logs the hand's end and keeps its
    /// result.
    pub fn close_hand(&mut self, result: HandResult) {
        for (score, p) in self.scores.iter_mut().zip(result.points.iter()) {
            *score = score.saturating_add(*p);
        }
        let (round, winner, end) = (result.round, result.winner, result.end);
        let points = &result.points;
        if self.log {
            self.push_event(Event::HandEnded {
                round,
                winner,
                end,
                points: points.to_vec(),
            });
        }
        self.history.push(result);
    }

    /// Passes the deal by `rule` after a hand `winner` won (or nobody), at a table of `seats`.
    pub fn pass_deal(&mut self, rule: NextDealer, winner: Option<Seat>, seats: usize) {
        self.dealer = match (rule, winner) {
            (NextDealer::Winner, Some(w)) => w,
            (NextDealer::Alternate, _) => next_seat(self.dealer, seats),
            _ => self.dealer,
        };
    }

    /// True when the game ends after the hand just closed: its last round is played, or a
    /// score reached `target`.
    pub fn last_hand_played(&self, target: Option<i64>) -> bool {
        self.round >= self.rounds || target.is_some_and(|t| self.scores.iter().any(|&s| s >= t))
    }

    /// Logs the game's end with the final scores.
    pub fn end_game(&mut self) {
        if self.log {
            let scores = self.scores.to_vec();
            self.push_event(Event::GameEnded { scores });
        }
    }

    /// Ends the game with a script error.
    pub fn fail(&mut self, error: ScriptError) {
        self.error = Some(error);
    }

    /// A hand's result with nothing but the round, dealer, winner, end and points: the parts
    /// every family fills in; the rest empty.
    pub fn result(&self, winner: Option<Seat>, end: HandEnd, points: PerSeat<i64>) -> HandResult {
        HandResult {
            round: self.round,
            dealer: (!self.house_deals).then_some(self.dealer),
            winner,
            end,
            outcome: None,
            yaku_mask: 0,
            calls: PerSeat::new(points.len()),
            points,
            house: 0,
            carried: self.carried.clone(),
        }
    }
}
