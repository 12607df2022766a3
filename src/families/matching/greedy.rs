//! The matching family's rule-reading policy (the `greedy` bot, and the playout policy of
//! `expert`): takes the capture that adds most to its yaku and near-yaku, and stops early.
//!
//! A pile is valued with [`Progress::worth`]: the points of its yaku plus partial credit for
//! yaku in reach. A move's worth is what it adds to the bot's pile, plus half of what it takes
//! from the next player's prospects (cards captured are out of their reach), less part of what
//! a card left on the table would give the next player. Discards are weighed only when no card
//! in hand captures. A call to play on is made only with a
//! long hand, a yaku one card away, and no other player with a yaku or within one card of one.

use super::build::{self, Build};
use super::capture;
use super::phase::Phase;
use super::view::View;
use crate::core::{Action, DeclId};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{MatchingFlow, MustCapture, Ruleset, TallyAward, TurnPattern, YakuScore};
use crate::yaku::{PileState, Progress, UNITS_PER_POINT, ones};
use std::rc::Rc;

/// Weight of what a capture takes from the other player's prospects.
const DENIAL: f64 = 0.5;
/// Weight of what a card left on the table would give the other player.
const EXPOSURE: f64 = 0.3;
/// A small bonus per card captured, so that a capture beats an idle discard.
const PER_CARD: f64 = 0.05;
/// Weight of a sweep the next player could make of the table a move leaves.
const SWEEP_EXPOSURE: f64 = 0.6;
/// Weight of a build (`[flow.build]`): its capture next turn, less the chance that the next
/// player takes or raises it first.
const BUILD_HOPE: f64 = 0.7;

/// The policy (a unit type, so its helpers read as `Greedy::worth`).
struct Greedy;

/// One player's side as a decision weighs it: the pile, the cards it may still win and its
/// yaku.
struct Side<'v> {
    progress: Rc<Progress>,
    pile: CardSet,
    /// Cards the player may still win (the pile included).
    reach: CardSet,
    held: &'v YakuScore,
}

impl<'v> Side<'v> {
    /// `seat`'s side. Its yaku are the game's own evaluation when it is of the pile as it is
    /// now, else one made into `made` (kept by the caller: no allocation per decision).
    /// Inlined into [`Piles::of`], as the policy's figures were measured with it so.
    #[inline(always)]
    fn of(
        view: &'v View,
        seat: usize,
        (progress, reach): (Rc<Progress>, CardSet),
        made: &'v mut Option<YakuScore>,
    ) -> Self {
        let pile = view.captured[seat];
        let held = if view.evaluated[seat] == pile {
            let held = &view.yaku[seat];
            debug_assert_eq!(*held, view.ruleset.yaku.evaluate(pile, progress.facts()));
            held
        } else {
            made.insert(view.ruleset.yaku.evaluate(pile, progress.facts()))
        };
        Side {
            progress,
            pile,
            reach,
            held,
        }
    }

    fn state(&self) -> PileState<'_> {
        PileState {
            pile: self.pile,
            reach: self.reach,
            held: self.held,
        }
    }

    /// How much the side's worth (units) grows when `won` joins its pile: its yaku brought up
    /// to date for those cards only (in `scratch`, which holds the side's yaku before and
    /// after, copied on first use), and only the yaku they can change valued.
    // Inlined into each move's valuation, as `Greedy::worth` into `best_play`: left to itself,
    // the compiler makes calls of them that cost more than 1% of a hand.
    #[inline(always)]
    fn gain_with(&self, r: &Ruleset, won: CardSet, scratch: &mut Option<YakuScore>) -> i64 {
        let pile = self.pile | won;
        let rescored = r.yaku.touched(won);
        if !r.yaku.may_hold(rescored, pile) {
            // The yaku held stay as they are (the usual capture): nothing to evaluate.
            let after = PileState {
                pile,
                ..self.state()
            };
            return self.progress.change(self.state(), after, won, 0);
        }
        let scratch = scratch.get_or_insert_with(|| *self.held);
        r.yaku
            .update_touched(scratch, rescored, pile, self.progress.facts());
        let after = PileState {
            pile,
            reach: self.reach,
            held: scratch,
        };
        let gain = self.progress.change(self.state(), after, won, rescored);
        // Put back the yaku the update evaluated again (points are 0 outside a score's mask, so
        // only those held before or after can differ).
        for i in ones(rescored & (scratch.mask | self.held.mask)) {
            scratch.points[i] = self.held.points[i];
        }
        scratch.mask = self.held.mask;
        gain
    }

    /// How much the side's worth (units) falls once `gone` is out of its reach.
    fn loss_without(&self, gone: CardSet) -> i64 {
        self.progress.loss(self.state(), gone)
    }
}

/// What every move of one decision is weighed against: my side and the next player's.
struct Piles<'v> {
    mine: Side<'v>,
    theirs: Side<'v>,
}

impl<'v> Piles<'v> {
    fn of(view: &'v View, made: &'v mut [Option<YakuScore>; 2]) -> Piles<'v> {
        let me = view.seat;
        let them = view.next_seat();
        let open = view.hand | view.table | view.unseen | resolving(view);
        let r = view.ruleset;
        // One probe serves both sides when the yaku read no fact or the facts are the same.
        let (mine_progress, their_progress) = if r.yaku.reads_facts() {
            let mine = Progress::of(r, view.yaku_facts(me));
            // Compared as the probe holds them: without the facts no yaku reads.
            let their_facts = r.yaku.narrow_facts(view.yaku_facts(them));
            let theirs = if &their_facts == mine.facts() {
                Rc::clone(&mine)
            } else {
                Progress::of(r, their_facts)
            };
            (mine, theirs)
        } else {
            let both = Progress::of(r, crate::ruleset::YakuFacts::default());
            (Rc::clone(&both), both)
        };
        let [my_made, their_made] = made;
        let my_reach = view.captured[me] | open;
        let their_reach = view.captured[them] | (open - view.hand);
        Piles {
            mine: Side::of(view, me, (mine_progress, my_reach), my_made),
            theirs: Side::of(view, them, (their_progress, their_reach), their_made),
        }
    }
}

/// Each side's yaku for the moves of one decision to change and put back (one copy per
/// decision instead of one per move, made on the side's first move: a decision without a
/// discard never copies the other side's).
#[derive(Default)]
struct Scratch {
    mine: Option<YakuScore>,
    theirs: Option<YakuScore>,
}

fn resolving(view: &View) -> CardSet {
    match view.phase {
        Phase::CaptureChoice { card, .. } => CardSet::single(card),
        _ => CardSet::EMPTY,
    }
}

/// A worth in units of [`UNITS_PER_POINT`] as points.
fn points(units: i64) -> f64 {
    units as f64 / UNITS_PER_POINT as f64
}

/// The table cards `card` would take if played or drawn now (all of them when it has a choice).
pub fn matches(ruleset: &Ruleset, table: CardSet, card: CardId) -> CardSet {
    Taker::of(ruleset, table).takes(card)
}

/// True when playing `card` onto `matches` asks for a choice of one table card (two matches, or
/// a wild card with several), as the core rules; otherwise it takes them all.
pub fn chooses(ruleset: &Ruleset, card: CardId, matches: CardSet) -> bool {
    Taker::of(ruleset, CardSet::EMPTY).chooses(card, matches)
}

/// What each card would take from a table: the flow looked up once for all the moves of a
/// decision.
#[derive(Clone, Copy)]
struct Taker<'r> {
    /// The table (empty outside a matching flow: nothing is taken).
    table: CardSet,
    wild: CardSet,
    deck: &'r crate::deck::Deck,
    /// The flow, when it says how cards capture (`[[flow.capture]]`).
    ruled: Option<&'r MatchingFlow>,
    /// The builds on the table (`[flow.build]`).
    builds: &'r [Build],
}

impl<'r> Taker<'r> {
    fn of(ruleset: &'r Ruleset, table: CardSet) -> Self {
        let flow = ruleset.matching();
        Taker {
            table: flow.map_or(CardSet::EMPTY, |_| table),
            wild: flow.map_or(CardSet::EMPTY, |f| f.wild),
            deck: &ruleset.deck,
            ruled: flow.filter(|f| !f.captures.is_empty()).map(|f| &**f),
            builds: &[],
        }
    }

    /// The taker of a view: its table and builds.
    fn of_view(view: &'r View) -> Self {
        Taker {
            builds: view.builds,
            ..Taker::of(view.ruleset, view.table)
        }
    }

    /// The captures `card`, played from the hand, may make under the ruleset's capture rules,
    /// and the trail (an empty set) when the rules let it be laid on the table instead.
    fn options(self, card: CardId) -> Vec<CardSet> {
        let mut out = Vec::new();
        if let Some(flow) = self.ruled {
            build::capture_options(flow, self.table, self.builds, card, true, &mut out);
            if flow.must_capture != MustCapture::Always {
                let loose = self.table - build::in_builds(self.builds);
                capture::offer_trail(flow, loose, card, &mut out);
            }
        }
        out
    }

    /// True when the rules may let a card that captures be trailed: every play is weighed.
    fn may_trail(self) -> bool {
        self.ruled
            .is_some_and(|f| f.must_capture != MustCapture::Always)
    }

    // Inline: the classic test is a few instructions, asked for every card of every decision.
    #[inline(always)]
    fn takes(self, card: CardId) -> CardSet {
        if self.ruled.is_some() {
            self.takes_by_rules(card)
        } else if self.wild.contains(card) {
            self.table
        } else {
            self.table & self.deck.same_suit(card)
        }
    }

    /// Every table card one of `card`'s captures under the capture rules takes.
    #[inline(never)]
    fn takes_by_rules(self, card: CardId) -> CardSet {
        self.options(card)
            .iter()
            .fold(CardSet::EMPTY, |all, set| all | *set)
    }

    fn chooses(self, card: CardId, matches: CardSet) -> bool {
        matches.len() == 2 || (self.wild.contains(card) && matches.len() > 1)
    }
}

impl Greedy {
    /// The worth of moving `card` and the `taken` table cards into my pile (or, with nothing
    /// taken, of leaving `card` on the table).
    ///
    /// A pile's yaku after the move are the pile's now, brought up to date for the cards the move
    /// adds (only the yaku those cards can change are evaluated again).
    #[inline(always)]
    fn worth(
        view: &View,
        piles: &Piles,
        scratch: &mut Scratch,
        card: CardId,
        taken: CardSet,
    ) -> f64 {
        let r = view.ruleset;
        let Piles { mine, theirs } = piles;
        if taken.is_empty() {
            // The card goes to the table, where the other player may take it.
            let gift = CardSet::single(card);
            return -EXPOSURE * points(theirs.gain_with(r, gift, &mut scratch.theirs));
        }
        let won = taken | CardSet::single(card);
        let gain = mine.gain_with(r, won, &mut scratch.mine);
        let denial = theirs.loss_without(won);
        points(gain) + DENIAL * points(denial) + PER_CARD * f64::from(won.len())
    }

    /// What a move is worth besides yaku in a game whose hands are settled seat by seat: the
    /// turn events' points for a sweep it makes, less part of a sweep it leaves the next player,
    /// and its share of the tallies' awards (`most`: the count it adds against a fair share of
    /// the deck's; `par`: the count it adds). Nothing in other games.
    fn settled_worth(view: &View, card: CardId, taken: CardSet) -> f64 {
        let r = view.ruleset;
        let Some(flow) = r.matching() else {
            return 0.0;
        };
        let sweep: i64 = flow
            .turn_events
            .iter()
            .filter(|e| e.on == TurnPattern::Sweep)
            .map(|e| e.points)
            .sum();
        let mut worth = 0.0;
        if sweep != 0 {
            let left = if taken.is_empty() {
                view.table | CardSet::single(card)
            } else {
                view.table - taken
            };
            if left.is_empty() {
                worth += sweep as f64;
            } else if could_sweep(flow, view.unseen, left) {
                worth -= SWEEP_EXPOSURE * sweep as f64;
            }
        }
        if taken.is_empty() {
            return worth;
        }
        let pile = view.captured[view.seat];
        let won = pile | taken | CardSet::single(card);
        let facts = view.yaku_facts(view.seat);
        let seats = view.seats().max(1) as i64;
        for tally in &r.tallies {
            let Some(award) = tally.award else { continue };
            let count = |pile: CardSet| {
                tally.count.int(&crate::expr::Context {
                    pile,
                    facts: &facts,
                })
            };
            let added = count(won) - count(pile);
            worth += match award {
                TallyAward::Most(p) => {
                    let share = (count(r.deck.all()) / seats).max(1);
                    (p as f64 * added as f64 / share as f64)
                        .clamp(-(p.abs() as f64), p.abs() as f64)
                }
                TallyAward::Par(_) => added as f64,
            };
        }
        worth
    }

    fn best_play(view: &View, legal: &[Action]) -> Action {
        let taker = Taker::of_view(view);
        // A discard is weighed only when no card in hand captures: a capture is worth at least
        // its per-card bonus, a discard at most nothing (it can only help the next player).
        // Where a capturing card may be trailed, every play is weighed with its trail.
        let mut capturing = CardSet::EMPTY;
        for &a in legal {
            if let Action::Play { card } = a
                && !taker.takes(card).is_empty()
            {
                capturing.insert(card);
            }
        }
        if taker.may_trail() {
            // Every play is weighed, as when nothing captures.
            capturing = CardSet::EMPTY;
        }
        let choosing = matches!(view.phase, Phase::CaptureChoice { .. });
        let weighed = |a: &&Action| match **a {
            Action::Play { card } => capturing.is_empty() || capturing.contains(card),
            Action::Take { .. } | Action::TakeSet { .. } | Action::Build { .. } => choosing,
            _ => false,
        };
        // A move alone in being weighed (the one capture in hand, say) is the choice, whatever
        // its worth.
        let mut moves = legal.iter().filter(weighed);
        match (moves.next(), moves.next()) {
            (None, _) => return legal[0],
            (Some(&only), None) => return only,
            _ => {}
        }
        let mut made = [None, None];
        let piles = Piles::of(view, &mut made);
        let mut scratch = Scratch::default();
        let mut best = (f64::NEG_INFINITY, legal[0]);
        if taker.ruled.is_some() || settles_seats(view.ruleset) {
            return Self::best_ruled_play(view, legal, weighed, taker, &piles, &mut scratch);
        }
        for &a in legal.iter().filter(weighed) {
            let v = match a {
                Action::Play { card } => {
                    let m = taker.takes(card);
                    if taker.chooses(card, m) {
                        // With a choice to make, the best one.
                        m.iter()
                            .map(|t| {
                                Self::worth(view, &piles, &mut scratch, card, CardSet::single(t))
                            })
                            .fold(f64::NEG_INFINITY, f64::max)
                    } else {
                        Self::worth(view, &piles, &mut scratch, card, m)
                    }
                }
                Action::Take { card: target } => {
                    let Phase::CaptureChoice { card, .. } = view.phase else {
                        continue;
                    };
                    Self::worth(view, &piles, &mut scratch, card, CardSet::single(target))
                }
                _ => continue,
            };
            if v > best.0 {
                best = (v, a);
            }
        }
        best.1
    }

    /// [`Greedy::best_play`] where the rules say how cards capture or settle each seat: each
    /// capture the rules allow is weighed, with what the hand's end makes of it.
    #[inline(never)]
    fn best_ruled_play(
        view: &View,
        legal: &[Action],
        weighed: impl Fn(&&Action) -> bool,
        taker: Taker,
        piles: &Piles,
        scratch: &mut Scratch,
    ) -> Action {
        let settled = settles_seats(view.ruleset);
        let value = |scratch: &mut Scratch, card: CardId, taken: CardSet| {
            let v = Self::worth(view, piles, scratch, card, taken);
            if settled {
                v + Self::settled_worth(view, card, taken)
            } else {
                v
            }
        };
        // A build is worth part of its capture by the card of its value the player keeps.
        let build_worth = |scratch: &mut Scratch, card: CardId, on: CardSet, v: u8| {
            build_keeper(view, card, v).map_or(f64::NEG_INFINITY, |h| {
                BUILD_HOPE * value(scratch, h, on | CardSet::single(card))
            })
        };
        let mut moves = Vec::new();
        let mut best = (f64::NEG_INFINITY, legal[0]);
        for &a in legal.iter().filter(weighed) {
            let v = match a {
                Action::Play { card } => {
                    let options = taker.options(card);
                    let mut built = f64::NEG_INFINITY;
                    if let Some(flow) = taker.ruled.filter(|f| f.build.is_some()) {
                        build::build_options(
                            flow,
                            taker.table,
                            taker.builds,
                            view.hand,
                            view.seat,
                            card,
                            &mut moves,
                        );
                        for m in &moves {
                            built = built.max(build_worth(scratch, card, m.cards, m.value));
                        }
                    }
                    if taker.ruled.is_none() {
                        let m = taker.takes(card);
                        if taker.chooses(card, m) {
                            m.iter()
                                .map(|t| value(scratch, card, CardSet::single(t)))
                                .fold(f64::NEG_INFINITY, f64::max)
                        } else {
                            value(scratch, card, m)
                        }
                    } else if options.is_empty() {
                        value(scratch, card, CardSet::EMPTY).max(built)
                    } else {
                        options
                            .iter()
                            .map(|&set| value(scratch, card, set))
                            .fold(built, f64::max)
                    }
                }
                Action::Build { cards, value: v } => {
                    let Phase::CaptureChoice { card, .. } = view.phase else {
                        continue;
                    };
                    build_worth(scratch, card, cards, v)
                }
                Action::TakeSet { cards } => {
                    let Phase::CaptureChoice { card, .. } = view.phase else {
                        continue;
                    };
                    value(scratch, card, cards)
                }
                Action::Take { card: target } => {
                    let Phase::CaptureChoice { card, .. } = view.phase else {
                        continue;
                    };
                    value(scratch, card, CardSet::single(target))
                }
                _ => continue,
            };
            if v > best.0 {
                best = (v, a);
            }
        }
        best.1
    }

    /// Plays on only with a long hand, a yaku one card away and no other player close.
    fn call(view: &View, legal: &[Action]) -> Action {
        let (Some(go), Some(stop)) = (find(view, legal, "continue"), find(view, legal, "stop"))
        else {
            return find(view, legal, "stop").unwrap_or(legal[0]);
        };
        let r = view.ruleset;
        let me = view.seat;
        let open = view.table | view.unseen | resolving(view);
        let near = |seat: usize, reach: CardSet| {
            Progress::of(r, view.yaku_facts(seat))
                .nearest(view.captured[seat], reach, &view.yaku[seat])
                .is_some_and(|d| d <= 1)
        };
        // Cheapest test first: each is a pure reading of the view.
        if view.hand.len() < 4 {
            return stop;
        }
        let they_are_close = (0..view.seats())
            .filter(|&s| s != me)
            .any(|s| view.yaku[s].mask != 0 || near(s, view.captured[s] | open));
        if !they_are_close && near(me, view.captured[me] | view.hand | open) {
            go
        } else {
            stop
        }
    }

    /// Takes the dealer's hand when its own matches the table less than an average hand would.
    fn swap(view: &View, legal: &[Action]) -> Action {
        let (mine, expected) = Self::matching_cards(view);
        let effect = if mine < expected { "swap" } else { "keep" };
        find(view, legal, effect).unwrap_or(legal[0])
    }

    /// The cards of the hand that match the table, and how many an average hand of as many
    /// unseen cards would match.
    fn matching_cards(view: &View) -> (f64, f64) {
        let r = view.ruleset;
        let matching = |hand: CardSet| {
            hand.iter()
                .filter(|&c| !matches(r, view.table, c).is_empty())
                .count() as f64
        };
        let unseen = view.unseen.len().max(1) as f64;
        let expected = matching(view.unseen) / unseen * f64::from(view.hand.len());
        (matching(view.hand), expected)
    }
}

/// The legal declaration with `effect`, if any.
fn find(view: &View, legal: &[Action], effect: &str) -> Option<Action> {
    legal.iter().copied().find(|a| match a {
        Action::Declare {
            decl: DeclId(i), ..
        } => view.ruleset.declarations[*i as usize].effect == effect,
        _ => false,
    })
}

/// The policy's choice among `legal` (never empty) in the state `view` shows. Inlined into the
/// game's heuristic, its one caller, which every playout of a search calls at every move.
#[inline]
pub fn choose(view: &View, legal: &[Action]) -> Action {
    if legal.len() == 1 {
        return legal[0];
    }
    match view.phase {
        Phase::Play => before_play(view, legal).unwrap_or_else(|| {
            let is_play = |a: &Action| matches!(a, Action::Play { .. });
            if legal.iter().all(is_play) {
                return Greedy::best_play(view, legal);
            }
            let plays: Vec<Action> = legal.iter().copied().filter(is_play).collect();
            match plays.len() {
                0 => legal[0],
                1 => plays[0],
                _ => Greedy::best_play(view, &plays),
            }
        }),
        Phase::CaptureChoice { .. } => Greedy::best_play(view, legal),
        Phase::Declare => Greedy::call(view, legal),
        Phase::AfterDeal => Greedy::swap(view, legal),
        Phase::DropOut => play_or_drop(view, legal),
        Phase::Choose => count_as(view, legal),
        Phase::GameOver => legal[0],
    }
}

/// Before playing: a whole suit played at once takes the table's card of the suit and more
/// (`play_suit`), a revealed suit multiplies the winnings (`reveal`): both are taken when
/// offered, the first before the second. A bonus card in hand is played first: it costs nothing.
fn before_play(view: &View, legal: &[Action]) -> Option<Action> {
    let r = view.ruleset;
    let effect = |a: &Action| match a {
        Action::Declare { decl, .. } => r.declarations[decl.0 as usize].effect.as_str(),
        _ => "",
    };
    let bonus = r.matching().map_or(CardSet::EMPTY, |f| f.bonus);
    if bonus.is_empty() && !legal.iter().any(|a| matches!(a, Action::Declare { .. })) {
        return None;
    }
    legal
        .iter()
        .find(|a| matches!(a, Action::Play { card } if bonus.contains(*card)))
        .or_else(|| legal.iter().find(|a| effect(a) == "play_suit"))
        .or_else(|| legal.iter().find(|a| effect(a) == "reveal"))
        .copied()
}

/// `[flow.drop_out]`: play the hand when the dealt hand is worth playing as the rules score it:
/// the dealt combination it holds (paid by each other player), each tally of the hand against a
/// hand's share of the pack's (the card points against the par, in Hachi-Hachi), and what
/// dropping would pay; drop when the sum is below zero.
fn play_or_drop(view: &View, legal: &[Action]) -> Action {
    let r = view.ruleset;
    let (Some(flow), Some(play), Some(drop)) = (
        r.matching(),
        find(view, legal, "play"),
        find(view, legal, "drop"),
    ) else {
        return legal[0];
    };
    match drop_worth(view, flow) {
        Some(w) if w.dealt + w.tallies + w.cost < 0 => drop,
        _ => play,
    }
}

/// What playing a dealt hand is worth against dropping it, as [`play_or_drop`] weighs it.
struct DropWorth {
    /// The dealt combination held, paid by each other player.
    dealt: i64,
    /// Each tally of the hand against a hand's share of the pack's.
    tallies: i64,
    /// What dropping would pay to the seats that play, counted as a gain of playing.
    cost: i64,
}

fn drop_worth(view: &View, flow: &MatchingFlow) -> Option<DropWorth> {
    let r = view.ruleset;
    let d = flow.drop_out.as_ref()?;
    let others = i64::from(d.players) - 1;
    let facts = view.yaku_facts(view.seat);
    let dealt = flow
        .dealt_combination(view.hand, &facts[..3])
        .map_or(0, |i| flow.dealt_yaku[i].points.saturating_mul(others));
    let cards = r.deck.cards.len().max(1) as i64;
    let held = i64::from(view.hand.len());
    let on = |pile| crate::expr::Context {
        pile,
        facts: &facts,
    };
    let tallies: i64 = r
        .tallies
        .iter()
        .map(|t| {
            let whole = t.count.int(&on(r.deck.all()));
            t.count.int(&on(view.hand)) - whole * held / cards
        })
        .sum();
    // Dropping pays `pays` to each seat that plays.
    let cost = d.pays.saturating_mul(i64::from(d.players));
    Some(DropWorth {
        dealt,
        tallies,
        cost,
    })
}

/// How a captured card counts: the choice that gives the most yaku points now.
fn count_as(view: &View, legal: &[Action]) -> Action {
    let r = view.ruleset;
    let Some(flow) = r.matching() else {
        return legal[0];
    };
    let pile = view.captured[view.seat];
    let base_with = |a: &Action| {
        let Action::Declare { decl, .. } = a else {
            return i64::MIN;
        };
        let mut facts = view.yaku_facts(view.seat);
        let card = r.declarations[decl.0 as usize].card;
        for (i, d) in flow.choices.iter().enumerate() {
            if r.declarations[d.0 as usize].card == card {
                facts[3 + i] = i64::from(d == decl);
            }
        }
        r.yaku.evaluate(pile, &facts).base()
    };
    let mut best = legal[0];
    for a in &legal[1..] {
        if base_with(a) > base_with(&best) {
            best = *a;
        }
    }
    best
}

/// True when hands are settled seat by seat without a script, so that turn events' points and
/// tally awards count.
fn settles_seats(r: &Ruleset) -> bool {
    r.scoring.is_none()
        && r.matching()
            .is_some_and(|f| f.exhausted == crate::ruleset::Exhausted::Settle)
}

/// True when one of the `unseen` cards could take every card of `left` at once. Cards alike
/// under every capture rule (equal values, neither wild) capture alike: each kind is tried once.
fn could_sweep(flow: &MatchingFlow, unseen: CardSet, left: CardSet) -> bool {
    let mut options = Vec::new();
    let mut tried: Vec<(bool, [i64; 4])> = Vec::new();
    let alike = flow.captures.len() <= 4;
    unseen.iter().any(|c| {
        if alike {
            let mut key = (flow.wild.contains(c), [0i64; 4]);
            for (slot, rule) in key.1.iter_mut().zip(&flow.captures) {
                *slot = rule.values.get(c.index()).copied().unwrap_or(0);
            }
            if tried.contains(&key) {
                return false;
            }
            tried.push(key);
        }
        // A sweep by the next player's card, played from its hand.
        capture::options(flow, left, c, true, &mut options);
        options.contains(&left)
    })
}

/// Why [`choose`] chooses `action` among `legal`, in words, from what the policy weighed:
/// a discard laid down because nothing captures, a capture weighed above the others with its
/// worth, the conditions of a call to play on or stop. Asked for a hint, never in play: the
/// policy's own path stays as it is.
pub fn reasons(view: &View, legal: &[Action], action: Action) -> Vec<String> {
    match view.phase {
        Phase::Declare => call_reasons(view, legal, action),
        Phase::Play | Phase::CaptureChoice { .. } => play_reasons(view, legal, action),
        Phase::AfterDeal => {
            let (mine, expected) = Greedy::matching_cards(view);
            vec![format!(
                "{mine} of its cards match the table, where an average hand would match {expected:.1}: it {} when its own matches fewer",
                if mine < expected {
                    "swaps"
                } else {
                    "keeps its hand; it swaps only"
                }
            )]
        }
        Phase::DropOut => {
            let Some(w) = view.ruleset.matching().and_then(|f| drop_worth(view, f)) else {
                return Vec::new();
            };
            let sum = w.dealt + w.tallies + w.cost;
            vec![format!(
                "playing is worth about {sum} points against dropping: {} from a dealt combination, {} from its cards' counts against a fair share, {} that dropping would pay",
                w.dealt, w.tallies, w.cost
            )]
        }
        Phase::Choose => vec![
            "of the ways the card may count, this one gives its yaku the most points now"
                .to_string(),
        ],
        Phase::GameOver => Vec::new(),
    }
}

/// The card of the hand, besides `card` (the one built with), that would take a build of
/// `value` next turn (`[flow.build]`): the first of that value.
fn build_keeper(view: &View, card: CardId, value: u8) -> Option<CardId> {
    let rule = view.ruleset.matching()?.build.as_ref()?;
    rule.of_value(view.hand - CardSet::single(card), value)
        .first_card()
}

/// A build's reason (`[flow.build]`): the card of its value kept to take it, what the pile
/// holds, and the risk the policy discounts it by ([`BUILD_HOPE`]).
fn build_reasons(view: &View, on: CardSet, value: u8) -> Vec<String> {
    let Phase::CaptureChoice { card, .. } = view.phase else {
        return Vec::new();
    };
    let deck = &view.ruleset.deck;
    let keeper = build_keeper(view, card, value);
    let pile = on.len() + 1;
    match keeper {
        Some(k) => vec![format!(
            "it builds {value} with the {} on {}: the {} it keeps takes the {pile} cards next turn, counted at {:.0}% of their worth as the other player may take or raise the build first",
            deck.card(card).name,
            on.iter()
                .map(|c| deck.card(c).name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            deck.card(k).name,
            BUILD_HOPE * 100.0
        )],
        None => Vec::new(),
    }
}

/// A play's reason: what it is worth to the policy against the next best play.
fn play_reasons(view: &View, legal: &[Action], action: Action) -> Vec<String> {
    if let Action::Build { cards, value } = action {
        return build_reasons(view, cards, value);
    }
    let r = view.ruleset;
    let taker = Taker::of(r, view.table);
    let plays: Vec<CardId> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Play { card } => Some(*card),
            _ => None,
        })
        .collect();
    let Action::Play { card } = action else {
        return Vec::new();
    };
    if plays.len() < 2 || !view.phase.eq(&Phase::Play) {
        return Vec::new();
    }
    let mut made = [None, None];
    let piles = Piles::of(view, &mut made);
    let mut scratch = Scratch::default();
    // Each card at its best capture, as the policy weighs it (without the rules' settlement).
    let mut worth = |c: CardId| {
        let m = taker.takes(c);
        if taker.chooses(c, m) {
            m.iter()
                .map(|t| Greedy::worth(view, &piles, &mut scratch, c, CardSet::single(t)))
                .fold(f64::NEG_INFINITY, f64::max)
        } else {
            Greedy::worth(view, &piles, &mut scratch, c, m)
        }
    };
    let nothing_captures = plays.iter().all(|&c| taker.takes(c).is_empty());
    if taker.takes(card).is_empty() && nothing_captures {
        let values: Vec<(CardId, f64)> = plays.iter().map(|&c| (c, worth(c))).collect();
        let worst = values.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1));
        let mut why = "no card in hand captures, so it lays down the one that helps the other player's yaku least".to_string();
        if let Some((w, v)) = worst
            && v < worth(card) - 1e-9
        {
            why.push_str(&format!(
                " ({} would bring them nearer)",
                r.deck.card(w).name
            ));
        }
        return vec![why];
    }
    if !taker.takes(card).is_empty() {
        let mine = worth(card);
        let next = plays
            .iter()
            .filter(|&&c| c != card)
            .map(|&c| (c, worth(c)))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((other, v)) = next {
            // `-0.0` reads as 0.0.
            let shown = |v: f64| format!("{:.1}", v + 0.0).replace("-0.0", "0.0");
            return vec![format!(
                "it weighs this capture at {} points, the best other play at {} ({})",
                shown(mine),
                shown(v),
                r.deck.card(other).name
            )];
        }
    }
    Vec::new()
}

/// A call's reason: the conditions [`Greedy::call`] plays on by, and which decided.
fn call_reasons(view: &View, legal: &[Action], action: Action) -> Vec<String> {
    let (Some(go), Some(_)) = (find(view, legal, "continue"), find(view, legal, "stop")) else {
        return Vec::new();
    };
    let r = view.ruleset;
    let me = view.seat;
    let open = view.table | view.unseen | resolving(view);
    let near = |seat: usize, reach: CardSet| {
        Progress::of(r, view.yaku_facts(seat))
            .nearest(view.captured[seat], reach, &view.yaku[seat])
            .is_some_and(|d| d <= 1)
    };
    let risk =
        "playing on can add more, but a hand another player then makes a yaku in first is theirs";
    let why = if action == go {
        format!(
            "it holds {} cards and a yaku one card away, and no other player has a yaku or is one card from one: {risk}, and that looks unlikely here",
            view.hand.len()
        )
    } else if view.hand.len() < 4 {
        format!(
            "with {} cards left there is little time to add a yaku: {risk}",
            view.hand.len()
        )
    } else if (0..view.seats())
        .filter(|&s| s != me)
        .any(|s| view.yaku[s].mask != 0 || near(s, view.captured[s] | open))
    {
        format!("another player has a yaku or is one card from one: {risk}")
    } else {
        format!("no further yaku is one card away: {risk}")
    };
    vec![why]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, StartOptions};
    use crate::ruleset;
    use std::sync::Arc;

    #[test]
    fn greedy_plays_the_move_it_values_most() {
        for name in ["koikoi", "house/lightning-wild", "koikoi-classic"] {
            plays_the_move_it_values_most(name);
        }
    }

    fn plays_the_move_it_values_most(name: &str) {
        let r = Arc::new(ruleset::load(name).value.unwrap());
        let mut game = super::super::start(Arc::clone(&r), StartOptions::default()).unwrap();
        let mut legal = Vec::new();
        while let Some(seat) = game.to_act() {
            game.legal_actions(&mut legal);
            let view = game.view(seat);
            let a = choose(&view, &legal);
            assert!(legal.contains(&a));
            if view.phase == Phase::Play {
                let mut made = [None, None];
                let piles = Piles::of(&view, &mut made);
                let mut scratch = Scratch::default();
                let mut worth = |a: Action| {
                    let Action::Play { card } = a else {
                        unreachable!("only plays are legal in the play phase")
                    };
                    let m = matches(&r, view.table, card);
                    if chooses(&r, card, m) {
                        m.iter()
                            .map(|t| {
                                Greedy::worth(&view, &piles, &mut scratch, card, CardSet::single(t))
                            })
                            .fold(f64::NEG_INFINITY, f64::max)
                    } else {
                        Greedy::worth(&view, &piles, &mut scratch, card, m)
                    }
                };
                // Discards are weighed only when nothing captures.
                let captures = |b: &Action| match *b {
                    Action::Play { card } => !matches(&r, view.table, card).is_empty(),
                    _ => false,
                };
                let can_capture = legal.iter().any(captures);
                assert!(
                    !can_capture || captures(&a),
                    "a discard while a capture was legal"
                );
                let chosen = worth(a);
                assert!(
                    legal
                        .iter()
                        .filter(|b| !can_capture || captures(b))
                        .all(|&b| worth(b) <= chosen)
                );
            }
            Game::apply(&mut game, a).unwrap();
        }
    }
}
