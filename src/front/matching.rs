//! The matching family's table (Koi-Koi, Go-Stop, Scopa and their relatives): the screen and
//! the reading of answers of [`super::screen`] and [`super::prompt`] behind [`Table`].

use super::board::Board;
use super::prompt::Input;
use super::screen::{self, Style};
use super::table::Table;
use crate::core::{Action, Event, Game, Seat};
use crate::deck::CardSet;
use crate::families::matching::MatchingGame;

/// Koi-Koi and the other matching games: cards by name, the table, piles, yaku and near yaku.
pub struct MatchingTable {
    style: Style,
}

impl MatchingTable {
    /// The table for `players` (`human` or bot names, one per seat).
    pub fn new(players: &[String], color: bool) -> MatchingTable {
        MatchingTable {
            style: Style::for_players(players, color),
        }
    }
}

/// The matching table as a spectator sees it: every seat's hand hidden ([`super::fronts`]).
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
    fn stakes(&self, game: &dyn Game, legal: &[Action]) -> Option<String> {
        super::prompt::stakes(&self.style, matching(game), legal)
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
            Action::TakeSet { cards } if cards.is_empty() => "trail: lay it on the table".into(),
            Action::TakeSet { cards } => format!("capture {}", self.style.names(deck, cards)),
            Action::PlaySet { cards } => format!("play {}", self.style.names(deck, cards)),
            Action::Build { cards, value } => {
                format!("build {value} on {}", self.style.names(deck, cards))
            }
            Action::Declare { decl, .. } => r
                .declarations
                .get(decl.0 as usize)
                .map_or_else(|| "a declaration".into(), |d| d.name.clone()),
            Action::Bet { amount } => format!("bet {amount}"),
            Action::Draw { count } => format!("take {count} more"),
        }
    }
    fn standing(&self, game: &dyn Game) -> Vec<String> {
        let g = matching(game);
        let r = game.ruleset();
        (0..game.seats())
            .map(|seat| {
                let held = g.yaku(seat);
                let names: Vec<String> = held
                    .iter()
                    .map(|i| format!("{} {}", r.yaku.yaku[i].name, held.points[i]))
                    .collect();
                let who = self.style.who(seat);
                if names.is_empty() {
                    // Without yaku a seat may still score (a sweep, a turn event's points).
                    let points = g
                        .points_if_stopped(seat)
                        .ok()
                        .map(|o| super::prompt::seat_points(&o, seat));
                    return match points {
                        Some((points, steps)) if !steps.is_empty() => format!(
                            "{who}: no yaku; {} if scored now ({})",
                            super::plural(points, "point"),
                            steps.join(", ")
                        ),
                        _ => format!("{who}: no yaku"),
                    };
                }
                let scored = g.points_if_stopped(seat).map_or_else(
                    |e| format!("scoring failed: {e}"),
                    |o| {
                        let (points, steps) = super::prompt::seat_points(&o, seat);
                        if steps.is_empty() {
                            format!("{} if scored now", super::plural(points, "point"))
                        } else {
                            format!(
                                "{} if scored now ({})",
                                super::plural(points, "point"),
                                steps.join(", ")
                            )
                        }
                    },
                );
                format!(
                    "{who}: {} (base {}); {scored}",
                    names.join(", "),
                    held.base()
                )
            })
            .collect()
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
    fn rules(&self, game: &dyn Game, width: usize) -> String {
        crate::sheet::text_sheet_width(game.ruleset(), width)
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
    use crate::front::fronts::for_ruleset;
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
