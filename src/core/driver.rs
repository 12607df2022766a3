//! The seat's chooser and the loop that drives a game with one per seat: what a bot is to the
//! core, so that families and the command line seat bots and people alike without the core
//! knowing any of them.

use super::action::Action;
use super::game::Game;
use super::seat::Seat;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// What a searching agent found one move worth: the mean of its playouts (the seat's points over
/// the hand minus the other seats' average), the standard error of that mean, and how many.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// The mean result.
    pub mean: f64,
    /// Its standard error.
    pub error: f64,
    /// Playouts behind it.
    pub playouts: usize,
}

/// A player that is not a human.
pub trait Agent: Send {
    /// The agent's name (`random`, `greedy`, ...).
    fn name(&self) -> &str;
    /// Chooses one of `legal` (never empty) for `seat`, reading of `game` only what `seat` may
    /// see (the methods of [`Game`] for bots, and the family's view).
    fn choose(
        &mut self,
        game: &dyn Game,
        seat: Seat,
        legal: &[Action],
        rng: &mut Xoshiro256PlusPlus,
    ) -> Action;

    /// What each of `legal` is worth to `seat` by the agent's own search, in the order of
    /// `legal`, for an analyst (`yaku position --bot`); `None` for an agent that weighs no
    /// moves (it reads the rules and plays).
    fn evaluate(
        &mut self,
        _game: &dyn Game,
        _seat: Seat,
        _legal: &[Action],
        _rng: &mut Xoshiro256PlusPlus,
    ) -> Option<Vec<Evaluation>> {
        None
    }

    /// Why this agent chose `action` among `legal` for `seat`, in words, from its own
    /// reading or evaluation (a hint's and a lesson's reason); empty where it has none to give.
    fn reasons(
        &mut self,
        _game: &dyn Game,
        _seat: Seat,
        _legal: &[Action],
        _action: Action,
    ) -> Vec<String> {
        Vec::new()
    }

    /// True for an agent whose every choice is `legal[uniform_index(legal.len(), rng)]`
    /// ([`crate::core::uniform_index`]: `random`). [`crate::core::play_out`] then lets the
    /// game draw the move ([`Game::apply_uniform`]) without listing the actions or calling
    /// `choose`.
    fn plays_uniformly(&self) -> bool {
        false
    }

    /// Whether the agent plays from the family's rule-reading policy or exact analysis
    /// ([`Game::heuristic`], a strategy table's odds), whose cost the family's registration
    /// bounds before play; `random` and strategy tables that name every choice do not.
    fn uses_family_analysis(&self) -> bool {
        true
    }

    /// True for an agent whose every choice takes microseconds, one ply at most (`random`,
    /// `greedy`, whose family analysis is bounded before play and made once a ruleset): a
    /// server makes the moves of rooms of such agents on a few threads of their own, apart
    /// from those that wait for an expert's search or a program's answer.
    fn quick(&self) -> bool {
        false
    }

    /// What the front should tell the player about this agent since it last asked (a program
    /// that lost its seat), once.
    fn notice(&mut self) -> Option<String> {
        None
    }

    /// True for an agent told every move as it is made ([`Agent::saw`]): a seat program,
    /// whose `turn` lists the moves since its last. Asked once a game, so that a game of bots
    /// that do not watch pays nothing for it.
    fn watches(&self) -> bool {
        false
    }

    /// `seat` made `action`; `game` is the game just after it, and `watcher` the seat this
    /// agent plays. Called only on an agent that [watches](Agent::watches), for every move of
    /// every seat, its own included.
    fn saw(&mut self, _game: &dyn Game, _watcher: Seat, _seat: Seat, _action: Action) {}

    /// The game is over, as `game` ended: the agent's last word (a seat program is sent
    /// `game_over` and its input closed).
    fn game_over(&mut self, _game: &dyn Game) {}
}

/// The seats whose agents [watch](Agent::watches), as a mask.
fn watchers(agents: &[Box<dyn Agent>]) -> u64 {
    agents
        .iter()
        .enumerate()
        .fold(0u64, |m, (s, a)| m | u64::from(a.watches()) << s)
}

/// Tells every agent of `watching` (a mask from [`watchers`]) that `seat` made `action`, of
/// which `game` is the result.
fn tell_watchers(
    agents: &mut [Box<dyn Agent>],
    watching: u64,
    game: &dyn Game,
    seat: Seat,
    action: Action,
) {
    let mut rest = watching;
    while rest != 0 {
        let watcher = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if let Some(agent) = agents.get_mut(watcher) {
            agent.saw(game, watcher, seat, action);
        }
    }
}

/// The RNG agents draw from in a game played with `seed` (separate from the deal's stream).
pub fn agent_rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15)
}

/// Plays a game to its end with one agent per seat. Returns the script error that stopped it
/// early, if any. Generic so that a simulation of one family calls the family's methods
/// directly.
pub fn play_out<G: Game + ?Sized>(
    game: &mut G,
    agents: &mut [Box<dyn Agent>],
    rng: &mut Xoshiro256PlusPlus,
) -> Result<(), crate::script::ScriptError> {
    // Asked once: an agent that plays uniformly lets the game draw its move, without the
    // actions listed.
    let uniform = agents
        .iter()
        .enumerate()
        .fold(0u64, |m, (s, a)| m | u64::from(a.plays_uniformly()) << s);
    // Allocated at the first agent that reads the actions: a random agent never does.
    let mut legal = Vec::new();
    let watching = watchers(agents);
    // A game watched is played move by move, each move told; the second loop is the one every
    // simulation of yaku's own bots runs, with nothing to tell.
    if watching != 0 {
        while let Some(seat) = game.to_act() {
            game.legal_actions(&mut legal);
            let action = agents[seat].choose(game.as_dyn(), seat, &legal, rng);
            // An agent that chose outside the legal actions is a bug in the agent: the game
            // stops rather than loop.
            if game.apply(action).is_err() {
                break;
            }
            tell_watchers(agents, watching, game.as_dyn(), seat, action);
        }
    } else {
        while let Some(seat) = game.to_act() {
            let applied = if uniform >> seat & 1 != 0 {
                game.play_uniform(uniform, rng)
            } else {
                game.legal_actions(&mut legal);
                let action = agents[seat].choose(game.as_dyn(), seat, &legal, rng);
                game.apply(action)
            };
            if applied.is_err() {
                break;
            }
        }
    }
    if game.is_over() {
        for agent in agents.iter_mut() {
            agent.game_over(game.as_dyn());
        }
    }
    match game.error() {
        Some(e) => Err(e.clone()),
        None => Ok(()),
    }
}
