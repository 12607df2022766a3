//! A game's bookkeeping, the same in every family: scores, the finished hands, the round, the
//! dealer and how the deal passes, the deck orders dealt, the events logged for display, the
//! script error that ended a game, and the values carried between hands. A family keeps one
//! [`Ledger`] and [`crate::core::Game`] reads it, so none writes these out again.

use super::action::{Event, HandEnd};
use super::carry::Carried;
use super::seat::{PerSeat, Seat, next_seat};
use crate::deck::CardId;
use crate::ruleset::NextDealer;
use crate::script::ScriptError;
use crate::yaku::HandOutcome;

/// The result of one hand, in every family's terms: who won, how, and each seat's points
/// (for games settled between players and a house: each seat's net transfer).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HandResult {
    /// The round, 1-based.
    pub round: u32,
    /// The dealer's seat (none when a house deals).
    pub dealer: Option<Seat>,
    /// The winner, if one seat won the hand.
    pub winner: Option<Seat>,
    /// How the hand ended.
    pub end: HandEnd,
    /// The winner's settled outcome, explained (simulations keep only the numbers).
    pub outcome: Option<Box<HandOutcome>>,
    /// The yaku the winner scored: bit `i` for yaku `i` of the ruleset's table.
    pub yaku_mask: u64,
    /// Points for each seat.
    pub points: PerSeat<i64>,
    /// Calls to play on (declarations that count as calls) by each seat.
    pub calls: PerSeat<u32>,
    /// What the house (a banker who is not a seat) won; 0 where there is none.
    pub house: i64,
    /// The values carried into the next hand, as this hand left them (none when the ruleset
    /// carries nothing).
    #[serde(skip_serializing_if = "Carried::is_empty")]
    pub carried: Carried,
}

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

    fn clone_from(&mut self, other: &Ledger) {
        self.copy_from(other, true);
    }
}

impl Ledger {
    /// Makes this ledger a copy of `other` field by field, keeping its vectors (a search copies
    /// a game for every action it tries); without `record`, the finished hands, deals and
    /// events are left empty (a search's playout reads only the hand in progress). A field
    /// added here must be added to the pattern, or this does not compile.
    pub fn copy_from(&mut self, other: &Ledger, record: bool) {
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
        round.clone_from(&other.round);
        rounds.clone_from(&other.rounds);
        first_dealer.clone_from(&other.first_dealer);
        dealer.clone_from(&other.dealer);
        house_deals.clone_from(&other.house_deals);
        log.clone_from(&other.log);
        error.clone_from(&other.error);
        carried.clone_from(&other.carried);
        if record {
            history.clone_from(&other.history);
            dealt_orders.clone_from(&other.dealt_orders);
            events.clone_from(&other.events);
        } else {
            history.clear();
            dealt_orders.clear();
            events.clear();
        }
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

    /// Starts the game at hand `first` (0 or 1: the first hand) of at most `rounds`: the next
    /// deal counts from there ([`crate::core::StartOptions::first_hand`]).
    pub fn start_at(&mut self, first: u32) {
        self.round = first.saturating_sub(1).min(self.rounds.saturating_sub(1));
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

/// What a scoring script said of every seat, in the one settlement shape of every family:
/// each seat's points (`seats`, empty when it did not say) and the winner it named (`winner`,
/// -1 for nobody).
#[derive(Clone, Copy, Debug)]
pub struct SeatSettlement<'a> {
    /// Each seat's signed points, by seat; empty when the script did not settle every seat.
    pub seats: &'a [i64],
    /// The winner the script named, if it named one.
    pub named: Option<i64>,
}

impl SeatSettlement<'_> {
    /// The hand's winner and, when the script settled every seat, each seat's points at a table
    /// of `table` seats: the winner the script named (-1: nobody), else `winner` (the seat that
    /// ended the hand), else the one seat with the most points when they are above zero. `Err`
    /// says what the script got wrong.
    pub fn resolve(
        &self,
        table: usize,
        winner: Option<Seat>,
    ) -> Result<(Option<Seat>, Option<PerSeat<i64>>), String> {
        let by_seat = if self.seats.is_empty() {
            None
        } else if self.seats.len() != table {
            return Err(format!(
                "`score` returned `seats` with {} numbers for a table of {table} seats",
                self.seats.len()
            ));
        } else {
            Some(PerSeat::from_slice(self.seats))
        };
        let winner = match self.named {
            Some(w) if w < 0 => None,
            Some(w) => match usize::try_from(w).ok().filter(|&w| w < table) {
                Some(w) => Some(w),
                None => {
                    return Err(format!(
                        "`score` returned `winner` {w}; a table of {table} seats has seats 0 to {} (-1 for nobody)",
                        table - 1
                    ));
                }
            },
            None => winner.or_else(|| {
                let points = by_seat.as_ref()?;
                let best = *points.iter().max()?;
                (best > 0 && points.iter().filter(|&&p| p == best).count() == 1)
                    .then(|| points.iter().position(|&p| p == best))
                    .flatten()
            }),
        };
        Ok((winner, by_seat))
    }
}
