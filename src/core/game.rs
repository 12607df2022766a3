//! The one interface every game family implements, and what it reports of each hand.
//!
//! `play`, `replay`, records, save and resume, `sim`, `score` and the bots reach every family
//! through [`Game`]; a family adds its module under `families/` and its entry in the family
//! registry there.

use super::action::{Action, Event, IllegalAction};
use super::carry::Carried;
use super::ledger::{HandResult, Ledger};
use super::seat::Seat;
use crate::deck::{CardId, CardSet};
use crate::ruleset::Ruleset;
use crate::script::ScriptError;
use rand::distr::uniform::{UniformInt, UniformSampler};
use rand::rngs::Xoshiro256PlusPlus;
use std::any::Any;
use std::sync::Arc;

/// How to start a game of any family.
#[derive(Clone, Debug, Default)]
pub struct StartOptions {
    /// The seed every random choice flows from.
    pub seed: u64,
    /// Seats at the table instead of the ruleset's default.
    pub seats: Option<usize>,
    /// Hands to play instead of the ruleset's length.
    pub rounds: Option<u32>,
    /// Deck orders to deal from instead of shuffling (replaying a record), one per deal.
    pub deck_orders: Vec<Vec<CardId>>,
    /// Record events for display; off in simulations.
    pub log_events: bool,
    /// Skip what only records and displays need; for simulations.
    pub simulation: bool,
    /// The first hand's dealer instead of the ruleset's rule (replaying a record).
    pub first_dealer: Option<Seat>,
    /// The number of the game's first hand, when it starts part-way (a position of a later
    /// hand: rules that read the hand's number, such as Hearts' passing, play as they would
    /// there); 0 or 1 for a game from its start. The game still ends after hand `rounds`.
    pub first_hand: u32,
    /// Table limits on bets instead of the ruleset's (families with bets).
    pub bet_limits: (Option<i64>, Option<i64>),
    /// The values carried into the first hand instead of each `[[carry]]`'s `initial` (a
    /// position of a later hand); the first deal reads them, and counts again those it sets.
    /// Families that carry nothing ignore them.
    pub carried: Option<Carried>,
}

/// Why a game could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// The options do not fit the ruleset (a seat count, table limits).
    Options {
        /// Why.
        message: String,
    },
    /// The scoring script failed on the first hand (an instant win at the deal).
    Script(ScriptError),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Options { message } => f.write_str(message),
            StartError::Script(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for StartError {}

/// An index drawn uniformly below `count` (at least 1): `rng.random_range(0..count)`, called
/// through the sampler it uses for a range within 32 bits so that it inlines (`random_range` is
/// not `#[inline]`), with the same draws. Every uniformly random choice of an agent goes
/// through it, so that [`Game::apply_uniform`] and a chosen action agree.
#[inline(always)]
pub fn uniform_index(count: usize, rng: &mut Xoshiro256PlusPlus) -> usize {
    let count = u32::try_from(count).expect("fewer than 2^32 legal actions");
    UniformInt::<u32>::sample_single(0, count, rng).expect("some action is legal") as usize
}

/// Points `to` where `from` points, touching the shared reference count only when it does not
/// already: `Arc::clone_from` is a clone and a drop, two atomic operations on a count that every
/// worker of a simulation shares, and a search copies its game for every playout (the count's
/// cache line then moves between cores on every copy: two threads of the Koi-Koi expert took
/// 15% more CPU time than one for the same instructions).
#[inline]
pub fn share<T: ?Sized>(to: &mut std::sync::Arc<T>, from: &std::sync::Arc<T>) {
    if !std::sync::Arc::ptr_eq(to, from) {
        *to = std::sync::Arc::clone(from);
    }
}

/// `f` of `game` as a game of the family `G`; false, with `f` not called, for a game of
/// another family. The body of a family's [`Game::copy_from`] and [`Game::determinize_from`].
pub fn same_family<G: Game>(game: &dyn Game, f: impl FnOnce(&G)) -> bool {
    game.as_any().downcast_ref::<G>().map(f).is_some()
}

/// A game of any family in progress.
///
/// The methods under "for bots" give a seat only what it may see: an agent calls them with its
/// own seat and never reads the other methods' hidden parts (hands, stock).
pub trait Game: Send + Sync + 'static {
    /// The ruleset being played.
    fn ruleset(&self) -> &Arc<Ruleset>;
    /// Seats at the table.
    fn seats(&self) -> usize;
    /// The seat that must act, or `None` when the game is over.
    fn to_act(&self) -> Option<Seat>;
    /// The legal actions now, appended to `out` (cleared first).
    fn legal_actions(&self, out: &mut Vec<Action>);
    /// How many legal actions there are: the length of [`Game::legal_actions`].
    fn legal_count(&self) -> usize {
        let mut v = Vec::new();
        self.legal_actions(&mut v);
        v.len()
    }
    /// The legal action at `index` in [`Game::legal_actions`]'s order.
    fn legal_action(&self, index: usize) -> Option<Action> {
        let mut v = Vec::new();
        self.legal_actions(&mut v);
        v.get(index).copied()
    }
    /// Applies the action of the seat to act.
    fn apply(&mut self, action: Action) -> Result<(), IllegalAction>;
    /// Applies the legal action at `index` in [`Game::legal_actions`]'s order, as
    /// `apply(legal_action(index))`; a family may skip building the action and checking it
    /// again. `Err` when there is no such action.
    fn apply_legal(&mut self, index: usize) -> Result<(), IllegalAction> {
        match self.legal_action(index) {
            Some(action) => self.apply(action),
            None => Err(IllegalAction::new(format!(
                "there is no legal action number {index} now"
            ))),
        }
    }
    /// Applies the legal action at [`uniform_index`]`(legal_count, rng)`: the move of an agent
    /// that plays uniformly at random ([`crate::core::Agent::plays_uniformly`]), with the same
    /// draw. A family may skip counting what the drawn index does not need.
    fn apply_uniform(&mut self, rng: &mut Xoshiro256PlusPlus) -> Result<(), IllegalAction> {
        let index = uniform_index(self.legal_count(), rng);
        self.apply_legal(index)
    }
    /// Applies uniform moves ([`Game::apply_uniform`]) while the seat to act is one of `seats`
    /// (bit `s` for seat `s`) and the game goes on: a family may keep its state in registers
    /// from one move to the next.
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
    /// True when the game has ended.
    fn is_over(&self) -> bool {
        self.to_act().is_none()
    }
    /// The game's bookkeeping: scores, finished hands, round, dealer, deals, events, error,
    /// carried values.
    fn ledger(&self) -> &Ledger;
    /// The game's bookkeeping, to take its events.
    fn ledger_mut(&mut self) -> &mut Ledger;
    /// Each seat's score (points, or chips) so far.
    fn scores(&self) -> &[i64] {
        &self.ledger().scores
    }
    /// Every finished hand.
    fn history(&self) -> &[HandResult] {
        &self.ledger().history
    }
    /// The round in progress (or the last), 1-based.
    fn round(&self) -> u32 {
        self.ledger().round
    }
    /// Hands in the game (the most, for games played to a target).
    fn rounds(&self) -> u32 {
        self.ledger().rounds
    }
    /// The dealer of the hand in progress (none when a house deals).
    fn dealer(&self) -> Option<Seat> {
        let l = self.ledger();
        (!l.house_deals).then_some(l.dealer)
    }
    /// The first hand's dealer, as records keep it.
    fn first_dealer(&self) -> Option<Seat> {
        let l = self.ledger();
        (!l.house_deals).then_some(l.first_dealer)
    }
    /// Every deal's deck order so far (records keep them).
    fn dealt_orders(&self) -> &[Vec<CardId>] {
        &self.ledger().dealt_orders
    }
    /// Takes the events logged since the last call.
    fn drain_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.ledger_mut().events)
    }
    /// A script error that ended the game early, if any.
    fn error(&self) -> Option<&ScriptError> {
        self.ledger().error.as_ref()
    }
    /// The values carried from the last hand.
    fn carried(&self) -> &Carried {
        &self.ledger().carried
    }
    /// Where every card of the deck is now, by zone (hands, table, stock, piles): each card in
    /// exactly one zone. Checked by the conservation tests of every family.
    fn zones(&self) -> Vec<(String, CardSet)>;
    /// The cards `seat` cannot see now: the stock, the other seats' hidden hands, anything
    /// dealt face down. Every card outside it is one the seat may know (its own hand, the
    /// table, cards shown or played face up). The seat protocol shows a seat the zones'
    /// cards outside this set and only the count of the rest.
    fn unseen(&self, seat: Seat) -> CardSet;

    // ----- for bots

    /// The family's rule-reading choice for `seat` among `legal`, from what `seat` may see.
    fn heuristic(&self, seat: Seat, legal: &[Action], rng: &mut Xoshiro256PlusPlus) -> Action;
    /// Why the rule-reading choice for `seat` among `legal` is `action`, in words, from the
    /// policy's own reading (what it weighed, with its figures): a hint's and a lesson's
    /// reason. Empty where the family has nothing to add to what the move visibly does.
    fn heuristic_reasons(&self, _seat: Seat, _legal: &[Action], _action: Action) -> Vec<String> {
        Vec::new()
    }
    /// A game in the state `seat` sees, with the cards it cannot see placed at random from
    /// `rng`; searching bots play out the hand in progress on it (a family may end the game
    /// with that hand). `None` when the family cannot make one.
    fn determinize(&self, seat: Seat, rng: &mut Xoshiro256PlusPlus) -> Option<Box<dyn Game>>;
    /// Makes this game what `source.determinize(seat, rng)` would make, with the same draws,
    /// reusing this game's storage, when both are games of one family (a search deals again
    /// for every round of playouts); false, with nothing drawn and this game unchanged, when
    /// the family does not (then [`Game::determinize`] makes a new one).
    fn determinize_from(
        &mut self,
        _source: &dyn Game,
        _seat: Seat,
        _rng: &mut Xoshiro256PlusPlus,
    ) -> bool {
        false
    }

    // ----- plumbing

    /// A copy of the game.
    fn box_clone(&self) -> Box<dyn Game>;
    /// Makes this game a copy of `other` in place, reusing its storage, when both are games of
    /// one family (a search copies one deal for every action it tries); false, and this game
    /// unchanged, when the family does not (then [`Game::box_clone`] makes the copy).
    fn copy_from(&mut self, _other: &dyn Game) -> bool {
        false
    }
    /// The game as `Any`, for a family's own screen widgets.
    fn as_any(&self) -> &dyn Any;
    /// The game as a trait object (for code generic over the family).
    fn as_dyn(&self) -> &dyn Game;
}

impl Clone for Box<dyn Game> {
    fn clone(&self) -> Self {
        self.box_clone()
    }
}
