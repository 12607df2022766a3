//! The banker family's bots: strategy tables (first tile → bet and tiles to take). The family's
//! rule-reading choice (the exact best bet and draw) that `greedy` and `expert` use is
//! [`super::greedy`].
//!
//! Strategies are data (`rulesets/strategies/*.toml`, or a user's file); `best` entries use the
//! exact odds from [`crate::families::banker::analysis`], computed once per ruleset and shared
//! ([`super::odds`]).

use super::game::BankerGame;
use super::greedy::{play_choice, pot_choice, table_choice};
use super::odds::shared_odds;
use super::view::{BankerPhase, BankerView};
use crate::agent::Agent;
use crate::core::{Action, Game, Seat};
use crate::families::banker::analysis::{BetChoice, FirstHandOdds, Strategy};
use crate::ruleset::Ruleset;
use rand::rngs::Xoshiro256PlusPlus;
use std::sync::Arc;

/// A bot that plays a strategy table.
#[derive(Clone, Debug)]
pub struct StrategyAgent {
    strategy: Strategy,
    odds: Option<Arc<Vec<FirstHandOdds>>>,
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
        // A strategy keys bets and draws; hands played by actions have actions: it plays as
        // `greedy` does.
        if view.play.is_some() {
            return play_choice(view, legal);
        }
        // A strategy keys bets and draws; a pot game has neither: it bets as `greedy` does.
        if view.to_call.is_some() {
            return pot_choice(view, legal);
        }
        let Some(flow) = view.ruleset.banker() else {
            return legal[0];
        };
        // Arranged hands: a strategy arranges its own cards by the house way.
        if let Some(a) = super::arrange::house_way_move(view, legal) {
            return a;
        }
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

    fn reasons(
        &mut self,
        game: &dyn Game,
        seat: Seat,
        legal: &[Action],
        action: Action,
    ) -> Vec<String> {
        let Some(g) = game.as_any().downcast_ref::<BankerGame>() else {
            return Vec::new();
        };
        let view = g.view(seat);
        // Where the strategy plays as `greedy` does, greedy's reasons; else what its table says
        // for the hand, with the exact odds when the strategy reads them.
        let own_hand = view.bet_kind.is_none() && view.play.is_none() && view.to_call.is_none();
        let Some(flow) = view.ruleset.banker().filter(|_| own_hand) else {
            return super::greedy::reasons(&view, legal, action);
        };
        let entry = self.strategy.entry(flow, view.tiles);
        let mut out = Vec::new();
        let told = match (view.phase, entry.draw) {
            (BankerPhase::Bet { .. }, _) => !matches!(entry.bet, BetChoice::Best),
            (_, draw) => draw.is_some(),
        };
        if told {
            out.push(format!(
                "the `{}` strategy's table says so for this hand",
                self.strategy.name
            ));
        }
        if self.odds.is_some() {
            out.extend(super::greedy::reasons(&view, legal, action));
        }
        out
    }
}

/// A banker-family bot by name: a bundled strategy (`seed`, `always-one`, `always-two`,
/// `best-fixed`, `best`) or a strategy file's path. `None` when `name` names no strategy (the
/// generic bots are asked first); `Err` when a strategy file has errors.
pub fn bot(name: &str, ruleset: &Ruleset) -> Result<Box<dyn Agent>, String> {
    let strategy = Strategy::load(name, ruleset)?;
    Ok(Box::new(StrategyAgent::new(strategy, ruleset)))
}
