//! The play screen's widgets, one set per family behind one trait: the command line's play
//! loop and the browser's seat tables ask the family's [`Table`] what to show and what a typed
//! line means, and know no family themselves. A new family adds its table beside this file and
//! registers it in [`super::fronts`].

use super::board::Board;
use super::prompt::Input;
use super::screen::Style;
use crate::core::{Action, Event, Game, Seat};
use crate::deck::CardSet;

/// What one family shows at the table and how it reads a player's answers.
pub trait Table: Send {
    /// What happened since the last call: `events`, and for families without events the hands
    /// that ended.
    fn narrate(&mut self, game: &dyn Game, events: &[Event]) -> String;
    /// Before the next decision: a prompt to wait for Enter on (a human who watches), if any.
    fn pause(&mut self, _game: &dyn Game) -> Option<String> {
        None
    }
    /// A bot's move, announced before it is made (families whose events do not show it).
    fn announce(&self, _game: &dyn Game, _seat: Seat, _action: Action) -> Option<String> {
        None
    }
    /// The screen before `seat` decides.
    fn screen(&self, game: &dyn Game, seat: Seat) -> String;
    /// The full-screen table as `seat` sees it.
    fn board(&self, game: &dyn Game, seat: Seat) -> Board;
    /// The same with what the family keeps face down in the middle turned up (a replay: a
    /// finished record is public); the seats' hands are turned up by the replay itself.
    fn board_open(&self, game: &dyn Game, seat: Seat) -> Board {
        self.board(game, seat)
    }
    /// The cards `action` would take or reach (a played card's matches on the table), marked on
    /// the full-screen table while the action is selected.
    fn reaches(&self, _game: &dyn Game, _action: Action) -> CardSet {
        CardSet::EMPTY
    }
    /// The question, with the options.
    fn question(&self, game: &dyn Game, legal: &[Action]) -> String;
    /// The option chosen at first on the full-screen table: the safe one (stop rather than
    /// play on), else the first.
    fn default_choice(&self, _game: &dyn Game, _legal: &[Action]) -> usize {
        0
    }
    /// What a typed line means, or why it cannot be taken.
    fn parse(&self, line: &str, game: &dyn Game, legal: &[Action]) -> Result<Input, String>;
    /// An action in words, for "only one move" notes.
    fn describe(&self, game: &dyn Game, action: Action) -> String;
    /// The move made for the player without asking, if any: the only legal one (families that
    /// ask even then return `None`).
    fn forced(&self, _game: &dyn Game, legal: &[Action]) -> Option<Action> {
        match legal {
            [only] => Some(*only),
            _ => None,
        }
    }
    /// Why `action` helps `seat`, in the game's words, beyond what it visibly takes (the yaku a
    /// capture makes or brings nearer); empty when the family has nothing to add.
    fn why(&self, _game: &dyn Game, _seat: Seat, _action: Action) -> Vec<String> {
        Vec::new()
    }
    /// What rides on a decision among `legal`, in the game's words, where the family can say
    /// (what the safe choice takes now, what the other seats are close to): the browser's
    /// prompt; the terminal's question says it too.
    fn stakes(&self, _game: &dyn Game, _legal: &[Action]) -> Option<String> {
        None
    }
    /// The hand as it stands, a line per seat, in the game's words: what each seat's captures
    /// score now, its points and tricks, its hand's value (`yaku position --score`).
    fn standing(&self, _game: &dyn Game) -> Vec<String> {
        Vec::new()
    }
    /// The help text.
    fn help(&self) -> &'static str;
    /// The rules, for the `rules` command, wrapped to `width` columns.
    fn rules(&self, game: &dyn Game, width: usize) -> String;
    /// The scores, for the `score` command.
    fn score(&self, game: &dyn Game) -> String;
    /// The summary when the game is over.
    fn finished(&self, game: &dyn Game) -> String;
    /// The summary when a player stops before the end.
    fn stopped(&self, game: &dyn Game) -> String;
    /// How players are named at this table.
    fn style(&self) -> &Style;
    /// The same, to change (the full-screen table turns colour codes off in text: it colours
    /// tiles itself).
    fn style_mut(&mut self) -> &mut Style;
    /// A refused answer as printed.
    fn refusal(&self, reason: &str) -> String {
        format!("error: {reason}")
    }
}
