//! Bots for banker games: a strategy table (first tile → bet and tiles to take) or uniform random.
//!
//! Strategies are data (`rulesets/strategies/*.toml`, or a user's file); `best` entries use the
//! exact odds from [`crate::analysis`], computed once per ruleset and shared.

use crate::analysis::{self, BetChoice, FirstHandOdds, Strategy};
use crate::engine::{BankerAction, BankerGame, BankerPhase, BankerView};
use crate::ruleset::Ruleset;
use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// A player of a banker game that is not a human.
pub trait BankerAgent: Send {
    /// The agent's name.
    fn name(&self) -> &str;
    /// Chooses one of `legal` (never empty).
    fn choose(
        &mut self,
        view: &BankerView,
        legal: &[BankerAction],
        rng: &mut Xoshiro256PlusPlus,
    ) -> BankerAction;
}

/// Uniform over the legal actions.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBankerAgent;

impl BankerAgent for RandomBankerAgent {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(
        &mut self,
        _view: &BankerView,
        legal: &[BankerAction],
        rng: &mut Xoshiro256PlusPlus,
    ) -> BankerAction {
        legal[rng.random_range(0..legal.len())]
    }
}

/// Plays a strategy table.
#[derive(Clone, Debug)]
pub struct StrategyAgent {
    strategy: Strategy,
    odds: Option<Arc<Vec<FirstHandOdds>>>,
}

/// The exact odds of a ruleset's first hands, computed once per ruleset content.
pub fn shared_odds(ruleset: &Ruleset) -> Option<Arc<Vec<FirstHandOdds>>> {
    static CACHE: OnceLock<Mutex<HashMap<u64, Arc<Vec<FirstHandOdds>>>>> = OnceLock::new();
    let flow = ruleset.banker()?;
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = cache.lock().unwrap_or_else(|p| p.into_inner());
    Some(Arc::clone(
        cache
            .entry(ruleset.content_hash)
            .or_insert_with(|| Arc::new(analysis::first_hand_odds(ruleset, flow))),
    ))
}

impl StrategyAgent {
    /// An agent playing `strategy` in `ruleset`.
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
}

impl BankerAgent for StrategyAgent {
    fn name(&self) -> &str {
        &self.strategy.name
    }

    fn choose(
        &mut self,
        view: &BankerView,
        legal: &[BankerAction],
        _rng: &mut Xoshiro256PlusPlus,
    ) -> BankerAction {
        let deck = &view.ruleset.deck;
        let odds = self
            .odds
            .as_ref()
            .and_then(|all| all.iter().find(|o| o.tiles == view.tiles));
        let (bet, draw) = match odds {
            Some(o) => self.strategy.decide(o, view.limits),
            None => {
                let e = self.strategy.entry(deck, view.tiles);
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
            BankerPhase::Bet { .. } => BankerAction::Bet { amount: bet },
            _ => BankerAction::Draw { tiles: draw },
        };
        if legal.contains(&wanted) {
            wanted
        } else {
            legal[0]
        }
    }
}

/// A banker-game bot by name: `random`, a bundled strategy (`seed`, `always-one`, `always-two`,
/// `best-fixed`, `best`) or a strategy file's path.
pub fn banker_agent_by_name(name: &str, ruleset: &Ruleset) -> Result<Box<dyn BankerAgent>, String> {
    if name == "random" {
        return Ok(Box::new(RandomBankerAgent));
    }
    let strategy = Strategy::load(name, ruleset)?;
    Ok(Box::new(StrategyAgent::new(strategy, ruleset)))
}

/// Plays a banker session to its end, one agent per player.
pub fn play_banker(
    game: &mut BankerGame,
    agents: &mut [Box<dyn BankerAgent>],
    rng: &mut Xoshiro256PlusPlus,
) {
    while let Some(seat) = game.to_act() {
        let legal = game.legal();
        let action = agents[seat].choose(&game.view(seat), &legal, rng);
        game.apply(action)
            .expect("agents choose among the legal actions");
    }
}
