//! The banker family's bots: strategy tables (first tile → bet and tiles to take), and the
//! family's rule-reading choice (the exact best bet and draw) that `greedy` and `expert` use.
//!
//! Strategies are data (`rulesets/strategies/*.toml`, or a user's file); `best` entries use the
//! exact odds from [`crate::families::banker::analysis`], computed once per ruleset and shared.

use super::game::{BankerGame, BankerPhase, BankerView};
use crate::agent::Agent;
use crate::core::{Action, Game, Seat};
use crate::families::banker::analysis::{self, BetChoice, FirstHandOdds, Strategy};
use crate::ruleset::Ruleset;
use rand::rngs::Xoshiro256PlusPlus;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// A bot that plays a strategy table.
#[derive(Clone, Debug)]
pub struct StrategyAgent {
    strategy: Strategy,
    odds: Option<Arc<Vec<FirstHandOdds>>>,
}

/// The exact odds of every first hand of a banker ruleset, computed once per ruleset and shared;
/// `None` for an enumeration beyond [`analysis::DEFAULT_MAX_DEALS`] (see [`check_odds_work`]).
///
/// Each thread keeps its own map of the odds it has used, so the process-wide map (and its lock)
/// is touched once per thread and ruleset, not on every decision: simulation workers share no
/// mutable state while they play.
pub fn shared_odds(ruleset: &Ruleset) -> Option<Arc<Vec<FirstHandOdds>>> {
    with_odds(ruleset, Arc::clone)
}

/// Calls `f` with this thread's copy of the ruleset's odds (no lock, no reference count).
fn with_odds<R>(ruleset: &Ruleset, f: impl FnOnce(&Arc<Vec<FirstHandOdds>>) -> R) -> Option<R> {
    thread_local! {
        static SEEN: RefCell<HashMap<u64, Arc<Vec<FirstHandOdds>>>> = RefCell::default();
    }
    let flow = ruleset.banker()?;
    // A table hand has no first hand of one's own: its bots read the bets' odds instead; a
    // pot game's bots read the strength of their hand.
    if flow.table_hand || flow.pot.is_some() {
        return None;
    }
    let key = ruleset.content_hash;
    if !SEEN.with(|s| s.borrow().contains_key(&key)) {
        check_odds_work(ruleset).ok()?;
        static COMPUTED: OnceLock<Mutex<HashMap<u64, Arc<Vec<FirstHandOdds>>>>> = OnceLock::new();
        let computed = COMPUTED.get_or_init(|| Mutex::new(HashMap::new()));
        let odds = Arc::clone(
            computed
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .entry(key)
                .or_insert_with(|| {
                    // Hands drawn by rules per seat: every first hand and every hand at a
                    // choice, looked up by the cards held.
                    Arc::new(if has_seat_rules(flow) {
                        analysis::seats::seat_odds(ruleset, flow)
                            .map(|o| o.all_hands())
                            .unwrap_or_default()
                    } else {
                        analysis::first_hand_odds(ruleset, flow)
                    })
                }),
        );
        SEEN.with(|s| s.borrow_mut().insert(key, odds));
    }
    SEEN.with(|s| s.borrow().get(&key).map(f))
}

/// True when drawing rules play the hands per seat (`[[flow.player_draw]]` or
/// `[[flow.banker_draw]]` without a table hand): the first-hand odds do not cover them.
pub fn has_seat_rules(flow: &crate::ruleset::BankerFlow) -> bool {
    !flow.table_hand && (!flow.player_draw.is_empty() || !flow.banker_draw.is_empty())
}

/// Whether bots may play from the exact odds of `ruleset`'s first hands: `Err` says why not when
/// computing them goes through more deals than `yaku analyze` runs without `--max-deals` (with
/// four first tiles and four for the banker, 220,884,300,000 deals: hours).
pub fn check_odds_work(ruleset: &Ruleset) -> Result<(), String> {
    let Some(flow) = ruleset.banker() else {
        return Ok(());
    };
    if flow.table_hand || flow.pot.is_some() {
        return Ok(());
    }
    if has_seat_rules(flow) {
        return analysis::seats::check(ruleset, flow).map_err(|why| {
            format!(
                "it plays from the exact odds of every hand, and those of `{}` cannot be enumerated: {why}\n  = help: bots that need no odds: random, or a strategy file whose entries all name a bet and a draw",
                ruleset.id
            )
        });
    }
    let cards = ruleset.deck.cards.len();
    let deals = analysis::deal_count(cards, flow);
    if deals <= u128::from(analysis::DEFAULT_MAX_DEALS) {
        return Ok(());
    }
    let cheap: Vec<&str> = std::iter::once("random")
        .chain(
            analysis::strategy::bundled_names()
                .filter(|n| Strategy::load(n, ruleset).is_ok_and(|s| !s.needs_odds())),
        )
        .collect();
    Err(format!(
        "it plays from the exact odds of every first hand, which for `{}` go through {deals} deals ({}): more than the {} a bot may take\n  = help: bots that need no odds: {}, or a strategy file whose entries all name a bet and a draw",
        ruleset.id,
        analysis::enumeration_words(cards, flow),
        analysis::DEFAULT_MAX_DEALS,
        cheap.join(", ")
    ))
}

impl StrategyAgent {
    /// A bot playing `strategy` in `ruleset`.
    pub fn new(strategy: Strategy, ruleset: &Ruleset) -> StrategyAgent {
        let odds = if strategy.needs_odds() {
            shared_odds(ruleset)
        } else {
            None
        };
        StrategyAgent { strategy, odds }
    }

    /// The strategy played.
    pub fn strategy(&self) -> &Strategy {
        &self.strategy
    }

    /// The strategy's action among `legal` in the state `view` shows.
    fn decide(&self, view: &BankerView, legal: &[Action]) -> Action {
        // A strategy says how much to bet on a hand of one's own and how many tiles to take; on
        // a table hand there is neither: it stakes as `greedy` does.
        if let Some(kind) = view.bet_kind {
            return table_choice(view, kind, legal);
        }
        // A strategy keys bets and draws; a pot game has neither: it bets as `greedy` does.
        if view.to_call.is_some() {
            return pot_choice(view, legal);
        }
        let Some(flow) = view.ruleset.banker() else {
            return legal[0];
        };
        let odds = self
            .odds
            .as_ref()
            .and_then(|all| all.iter().find(|o| o.tiles == view.tiles));
        let (bet, draw) = match odds {
            Some(o) => self.strategy.decide(flow, o, view.limits),
            None => {
                let e = self.strategy.entry(flow, view.tiles);
                let bet = match e.bet {
                    BetChoice::Min | BetChoice::Best => view.limits.0,
                    BetChoice::Max => view.limits.1,
                    BetChoice::Chips(n) => n.clamp(view.limits.0, view.limits.1),
                };
                (
                    bet,
                    e.draw
                        .unwrap_or(view.draw_options.first().copied().unwrap_or(0)),
                )
            }
        };
        let wanted = match view.phase {
            BankerPhase::Bet { .. } => Action::Bet { amount: bet },
            _ => Action::Draw { count: draw },
        };
        if legal.contains(&wanted) {
            wanted
        } else {
            legal[0]
        }
    }
}

impl Agent for StrategyAgent {
    fn name(&self) -> &str {
        &self.strategy.name
    }

    fn choose(
        &mut self,
        game: &dyn Game,
        seat: Seat,
        legal: &[Action],
        _rng: &mut Xoshiro256PlusPlus,
    ) -> Action {
        match game.as_any().downcast_ref::<BankerGame>() {
            Some(g) => self.decide(&g.view(seat), legal),
            None => legal[0],
        }
    }

    fn uses_family_analysis(&self) -> bool {
        self.strategy.needs_odds()
    }
}

/// The bet of a table hand with the best expected result per chip from a full shoe (the first
/// on ties), computed once per ruleset and shared; `None` when the analysis cannot be made.
pub fn best_table_bet(ruleset: &Ruleset) -> Option<usize> {
    static COMPUTED: OnceLock<Mutex<HashMap<u64, Option<usize>>>> = OnceLock::new();
    let flow = ruleset.banker()?;
    let computed = COMPUTED.get_or_init(|| Mutex::new(HashMap::new()));
    *computed
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .entry(ruleset.content_hash)
        .or_insert_with(|| {
            let packs = flow.shoe.map_or(1, |s| s.packs);
            let odds = analysis::table::table_odds(flow, &ruleset.deck, packs).ok()?;
            let mut best: Option<(usize, analysis::Rational)> = None;
            for (i, b) in odds.bets.iter().enumerate() {
                if best.is_none_or(|(_, ev)| b.ev > ev) {
                    best = Some((i, b.ev));
                }
            }
            best.map(|(i, _)| i)
        })
}

/// On a table hand: the smallest stake on the bet with the best expected result, nothing on
/// the others.
fn table_choice(view: &BankerView, kind: usize, legal: &[Action]) -> Action {
    let wanted = Action::Bet {
        amount: if best_table_bet(view.ruleset) == Some(kind) {
            view.limits.0
        } else {
            0
        },
    };
    if legal.contains(&wanted) {
        wanted
    } else {
        legal[0]
    }
}

/// The exact best choice from what `view` shows: the largest bet when the first tiles are
/// favourable (else the smallest), and the number of tiles with the best expected result; on a
/// table hand, the smallest stake on the bet with the best expected result.
pub fn best_choice(view: &BankerView, legal: &[Action]) -> Action {
    if let Some(kind) = view.bet_kind {
        return table_choice(view, kind, legal);
    }
    if view.to_call.is_some() {
        return pot_choice(view, legal);
    }
    let best = with_odds(view.ruleset, |odds| {
        odds.iter()
            .find(|o| o.tiles == view.tiles)
            .map(|o| o.best())
    });
    let Some(Some((draw, value))) = best else {
        return legal[0];
    };
    let wanted = match view.phase {
        BankerPhase::Bet { .. } => Action::Bet {
            amount: if value.numer() > 0 {
                view.limits.1
            } else {
                view.limits.0
            },
        },
        _ => Action::Draw { count: draw },
    };
    if legal.contains(&wanted) {
        wanted
    } else {
        legal[0]
    }
}

/// A banker-family bot by name: a bundled strategy (`seed`, `always-one`, `always-two`,
/// `best-fixed`, `best`) or a strategy file's path. `None` when `name` names no strategy (the
/// generic bots are asked first); `Err` when a strategy file has errors.
pub fn bot(name: &str, ruleset: &Ruleset) -> Result<Box<dyn Agent>, String> {
    let strategy = Strategy::load(name, ruleset)?;
    Ok(Box::new(StrategyAgent::new(strategy, ruleset)))
}

/// The share of the other hands a seat's cards beat, by the ruleset's ranking (a tie counts
/// half): for a full hand, against every hand of as many cards from the rest of the deck; for
/// a hand still to be completed, averaged over the cards it may yet receive. Computed once per
/// ruleset and hand on each thread.
pub fn hand_strength(ruleset: &Ruleset, tiles: crate::deck::CardSet) -> f64 {
    use crate::deck::CardSet;
    use crate::families::banker::ranking::{compare, rank_hand};
    thread_local! {
        static SEEN: RefCell<HashMap<(u64, CardSet), f64>> = RefCell::default();
    }
    let key = (ruleset.content_hash, tiles);
    if let Some(v) = SEEN.with(|s| s.borrow().get(&key).copied()) {
        return v;
    }
    let Some(flow) = ruleset.banker() else {
        return 0.5;
    };
    let size: u32 = flow.pot.as_ref().map_or(2, |p| p.rounds.iter().sum());
    let deck = CardSet::first(ruleset.deck.cards.len());
    let rest = CardSet(deck.0 & !tiles.0);
    let v = if tiles.len() < size {
        let mut sum = 0.0;
        let mut n = 0.0;
        for c in rest.iter() {
            let mut more = tiles;
            more.insert(c);
            sum += hand_strength(ruleset, more);
            n += 1.0;
        }
        if n > 0.0 { sum / n } else { 0.5 }
    } else {
        let mine = rank_hand(flow, tiles);
        let (mut score, mut n) = (0.0, 0.0);
        analysis::combinations(rest, size, |other| {
            score += match compare(flow, &mine, &rank_hand(flow, other)) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
            n += 1.0;
        });
        if n > 0.0 { score / n } else { 0.5 }
    };
    SEEN.with(|s| s.borrow_mut().insert(key, v));
    v
}

/// A pot game's bet by the strength of the hand: raise the most on a hand that beats nine in
/// ten others, the least on one that beats three in four, call (or check) on one that beats
/// half, else check or fold.
fn pot_choice(view: &BankerView, legal: &[Action]) -> Action {
    let strength = hand_strength(view.ruleset, view.tiles);
    let owe = view.to_call.unwrap_or(0);
    let bets: Vec<i64> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Bet { amount } => Some(*amount),
            _ => None,
        })
        .collect();
    let raises: Vec<i64> = bets.iter().copied().filter(|&b| b > owe).collect();
    let wanted = if strength >= 0.9 && !raises.is_empty() {
        raises[raises.len() - 1]
    } else if strength >= 0.75 && !raises.is_empty() {
        raises[0]
    } else if strength >= 0.5 || owe == 0 {
        owe
    } else {
        0
    };
    let action = Action::Bet { amount: wanted };
    if legal.contains(&action) {
        action
    } else {
        legal[0]
    }
}
