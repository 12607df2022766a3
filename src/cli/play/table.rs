//! The play screen's widgets, one set per family behind one trait: the play loop in
//! [`super`] asks the family's [`Table`] what to show and what a typed line means, and knows no
//! family itself. A new family adds its table here.

use super::banker::BankerTable;
use super::board::Board;
use super::prompt::Input;
use super::screen::{self, Style};
use crate::core::{Action, Event, Game, Seat};
use crate::deck::CardSet;
use crate::families::matching::MatchingGame;
use crate::ruleset::Ruleset;

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
    /// The help text.
    fn help(&self) -> &'static str;
    /// The rules, for the `rules` command.
    fn rules(&self, game: &dyn Game) -> String;
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

/// The table of the family `ruleset` describes, for `players` (`human` or bot names, one per
/// seat); `watcher` is a person who watches a house that makes no decisions (a human banker).
pub fn for_ruleset(
    ruleset: &Ruleset,
    players: &[String],
    labels: Vec<String>,
    color: bool,
    watcher: bool,
) -> Box<dyn Table> {
    (crate::cli::fronts::of(ruleset).table)(players, labels, color, watcher)
}

/// The matching family's table ([`crate::cli::fronts`]).
pub(in crate::cli) fn matching_table(
    players: &[String],
    _labels: Vec<String>,
    color: bool,
    _watcher: bool,
) -> Box<dyn Table> {
    Box::new(MatchingTable {
        style: Style::for_players(players, color),
    })
}

/// The banker family's table ([`crate::cli::fronts`]).
pub(in crate::cli) fn banker_table(
    players: &[String],
    labels: Vec<String>,
    color: bool,
    watcher: bool,
) -> Box<dyn Table> {
    Box::new(BankerTable::new(players, labels, color, watcher))
}

/// The trick-taking family's table ([`crate::cli::fronts`]).
pub(in crate::cli) fn tricks_table(
    players: &[String],
    _labels: Vec<String>,
    color: bool,
    _watcher: bool,
) -> Box<dyn Table> {
    Box::new(super::tricks::TricksTable::new(players, color))
}

/// Koi-Koi and the other matching games: cards by name, the table, piles, yaku and near yaku.
pub struct MatchingTable {
    style: Style,
}

/// The matching table as a spectator sees it: every seat's hand hidden ([`super::super::fronts`]).
pub fn matching_watch(style: &screen::Style, game: &dyn Game) -> String {
    screen::screen(style, matching(game), None)
}

fn matching(game: &dyn Game) -> &MatchingGame {
    game.as_any()
        .downcast_ref::<MatchingGame>()
        .expect("the matching table is used for matching games")
}

impl Table for MatchingTable {
    fn narrate(&mut self, game: &dyn Game, events: &[Event]) -> String {
        screen::narrate(&self.style, game, events)
    }
    fn screen(&self, game: &dyn Game, seat: Seat) -> String {
        screen::screen(&self.style, matching(game), Some(seat))
    }
    fn board(&self, game: &dyn Game, seat: Seat) -> Board {
        screen::board(&self.style, matching(game), seat)
    }
    fn reaches(&self, game: &dyn Game, action: Action) -> CardSet {
        let g = matching(game);
        match action {
            Action::Play { card } => {
                crate::families::matching::matches(game.ruleset(), g.table(), card)
            }
            _ => action.taken().unwrap_or_default(),
        }
    }
    fn question(&self, game: &dyn Game, legal: &[Action]) -> String {
        super::prompt::question(&self.style, matching(game), legal)
    }
    fn parse(&self, line: &str, game: &dyn Game, legal: &[Action]) -> Result<Input, String> {
        super::prompt::parse(line, matching(game), legal)
    }
    fn default_choice(&self, game: &dyn Game, legal: &[Action]) -> usize {
        super::prompt::default_choice(matching(game), legal)
    }
    fn describe(&self, game: &dyn Game, action: Action) -> String {
        let r = game.ruleset();
        let deck = &r.deck;
        match action {
            Action::Play { card } => format!("play {}", self.style.card(deck, card)),
            Action::Take { card } => format!("capture {}", self.style.card(deck, card)),
            Action::TakeSet { cards } => format!("capture {}", self.style.names(deck, cards)),
            Action::Declare { decl, .. } => r
                .declarations
                .get(decl.0 as usize)
                .map_or_else(|| "a declaration".into(), |d| d.name.clone()),
            Action::Bet { amount } => format!("bet {amount}"),
            Action::Draw { count } => format!("take {count} more"),
        }
    }
    fn why(&self, game: &dyn Game, seat: Seat, action: Action) -> Vec<String> {
        let g = matching(game);
        let taken = match action {
            Action::Play { card } => {
                let table = crate::families::matching::matches(game.ruleset(), g.table(), card);
                if table.is_empty() {
                    return Vec::new();
                }
                // A played card that matches takes (one of) its matches.
                let mut why = vec![format!(
                    "it matches {} on the table",
                    self.style.names(&game.ruleset().deck, table)
                )];
                why.extend(screen::advances(g, seat, CardSet::single(card) | table));
                return why;
            }
            _ => action.taken().unwrap_or_default(),
        };
        if taken.is_empty() {
            return Vec::new();
        }
        screen::advances(g, seat, taken)
    }
    fn forced(&self, game: &dyn Game, legal: &[Action]) -> Option<Action> {
        if let [only] = legal {
            return Some(*only);
        }
        // A capture between alike cards (two chaff of one month) is no choice: take the first.
        let deck = &game.ruleset().deck;
        let mut taken = legal.iter().map(|a| match a {
            Action::Take { card } => Some(*card),
            _ => None,
        });
        let first = taken.next()??;
        taken
            .all(|c| c.is_some_and(|c| deck.alike(first, c)))
            .then_some(legal[0])
    }
    fn help(&self) -> &'static str {
        super::prompt::HELP
    }
    fn rules(&self, game: &dyn Game) -> String {
        crate::sheet::text_sheet(game.ruleset())
    }
    fn score(&self, game: &dyn Game) -> String {
        screen::score(&self.style, game)
    }
    fn finished(&self, _game: &dyn Game) -> String {
        // The game's end is narrated from its events.
        String::new()
    }
    fn stopped(&self, _game: &dyn Game) -> String {
        String::new()
    }
    fn style(&self) -> &Style {
        &self.style
    }
    fn style_mut(&mut self) -> &mut Style {
        &mut self.style
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::StartOptions;
    use std::sync::Arc;

    #[test]
    fn a_capture_between_alike_cards_is_made_for_the_player() {
        let r = Arc::new(crate::ruleset::load("koikoi").value.unwrap());
        let game =
            crate::families::matching::start(Arc::clone(&r), StartOptions::default()).unwrap();
        let table = for_ruleset(&r, &["human".into(), "greedy".into()], vec![], false, false);
        let take = |id: &str| Action::Take {
            card: r.deck.card_by_id(id).unwrap(),
        };
        let chaff = [take("pine-1"), take("pine-2")];
        assert_eq!(table.forced(&game, &chaff), Some(chaff[0]));
        let different = [take("pine-1"), take("pine-poetry")];
        assert_eq!(table.forced(&game, &different), None);
        let one = [take("pine-poetry")];
        assert_eq!(table.forced(&game, &one), Some(one[0]));
    }
}
