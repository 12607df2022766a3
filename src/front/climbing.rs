//! The climbing family's table in `yaku play`: each seat's cards left, the play to beat and who
//! made it, the hand in rank order, and the plays on offer. Several cards are chosen at once by
//! naming them (`hearts-nine spades-nine`, `hearts:9 spades:9`) or by an option's number; a
//! wrong choice is refused with the game's reason and the prompt comes again.

use super::board::{Board, Row, SeatPanel, Tile};
use super::plural;
use super::prompt::{Input, command};
use super::screen::{self, Style};
use super::table::Table;
use crate::core::{Action, Event, Game, Seat};
use crate::deck::{CardId, CardSet};
use crate::families::climbing::ClimbingGame;
use std::fmt::Write as _;

const HELP: &str = "\
at any prompt:
  a number        the numbered option (a play, or pass)
  cards           several cards at once, by id, name or suit:n, separated by
                  spaces, commas or + (`hearts-nine spades-nine`, `hearts:9 + spades:9`)
  pass            play nothing to this trick (not on your lead)
  rules           the rules of this game
  score           the scores and every finished hand
  hint            the move the greedy bot would make here, and why
  undo            take back your last move (against bots only); again for more
  help            this text
  quit            save the game to a file and leave (so does end of input, Ctrl-D)";

/// The most options the question lists; the rest are chosen by naming the cards.
const LISTED: usize = 40;

/// The climbing family's table.
pub struct ClimbingTable {
    style: Style,
}

impl ClimbingTable {
    /// A table for `players`.
    pub fn new(players: &[String], color: bool) -> ClimbingTable {
        ClimbingTable {
            style: Style::for_players(players, color),
        }
    }
}

fn climbing(game: &dyn Game) -> &ClimbingGame {
    game.as_any()
        .downcast_ref::<ClimbingGame>()
        .expect("the climbing table is used for climbing games")
}

/// `cards` in rank order, lowest first.
fn ranked(g: &ClimbingGame, cards: CardSet) -> Vec<CardId> {
    let order = &g.flow().combos.order;
    let mut v: Vec<CardId> = cards.iter().collect();
    v.sort_by_key(|&c| order.value(c));
    v
}

fn names(style: &Style, g: &ClimbingGame, cards: CardSet) -> String {
    let deck = &Game::ruleset(g).deck;
    ranked(g, cards)
        .into_iter()
        .map(|c| style.name(deck, c))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A legal action in words.
fn action_text(style: &Style, g: &ClimbingGame, action: Action) -> String {
    let r = Game::ruleset(g);
    match action {
        Action::PlaySet { cards } => {
            let class = g.flow().combos.classify(cards).map_or("?", |p| {
                g.flow().combos.classes[p.class as usize].name.as_str()
            });
            format!("{class}: {}", names(style, g, cards))
        }
        Action::Declare { decl, .. } => r
            .declarations
            .get(decl.0 as usize)
            .map_or_else(|| "pass".into(), |d| format!("{} ({})", d.name, d.prompt)),
        other => format!("{other:?}"),
    }
}

impl Table for ClimbingTable {
    fn narrate(&mut self, game: &dyn Game, events: &[Event]) -> String {
        screen::narrate(&self.style, game, events)
    }

    fn screen(&self, game: &dyn Game, seat: Seat) -> String {
        let g = climbing(game);
        let r = game.ruleset();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "\n=== {} · hand {} · scores: {}",
            r.name,
            game.round(),
            self.style.each(game.scores())
        );
        let left: Vec<i64> = (0..game.seats())
            .map(|s| i64::from(g.hand(s).len()))
            .collect();
        let _ = writeln!(out, "cards left: {}", self.style.each(&left));
        match g.to_beat() {
            Some((who, play, cards)) => {
                let _ = writeln!(
                    out,
                    "to beat: {} by {}",
                    action_text(&self.style, g, Action::PlaySet { cards }),
                    self.style.who(who)
                );
                let _ = play;
            }
            None => {
                let _ = writeln!(out, "your lead: play any combination");
            }
        }
        let _ = writeln!(
            out,
            "{} hand: {}",
            self.style.whose(seat),
            ranked(g, g.hand(seat))
                .into_iter()
                .map(|c| format!("{} [{}]", self.style.name(&r.deck, c), r.deck.id_of(c)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        out
    }

    fn board(&self, game: &dyn Game, seat: Seat) -> Board {
        let g = climbing(game);
        let r = game.ruleset();
        let deck = &r.deck;
        let seats = game.seats();
        let panel = |s: usize| SeatPanel {
            name: self.style.who(s).to_string(),
            summary: format!(
                "{} points · {} in hand",
                game.scores()[s],
                plural(g.hand(s).len() as usize, "card")
            ),
            hidden: if s == seat {
                0
            } else {
                g.hand(s).len() as usize
            },
            groups: Vec::new(),
            lines: Vec::new(),
        };
        let center = match g.to_beat() {
            Some((who, _, cards)) => Row {
                title: format!("to beat: {}", self.style.who(who)),
                tiles: ranked(g, cards)
                    .into_iter()
                    .map(|c| Tile::of(deck, c))
                    .collect(),
                hidden: 0,
                aside: None,
                piles: Vec::new(),
            },
            None => Row {
                title: "a new trick".to_string(),
                ..Row::default()
            },
        };
        Board {
            title: format!("{} · hand {}", r.name, game.round()),
            scores: self.style.each(game.scores()),
            others: (1..seats).map(|k| panel((seat + k) % seats)).collect(),
            center,
            notes: Vec::new(),
            me: Some(panel(seat)),
            hand: Row {
                title: format!("{} hand", self.style.whose(seat)),
                tiles: ranked(g, g.hand(seat))
                    .into_iter()
                    .map(|c| Tile::of(deck, c))
                    .collect(),
                hidden: 0,
                aside: None,
                piles: Vec::new(),
            },
        }
    }

    fn question(&self, game: &dyn Game, legal: &[Action]) -> String {
        let g = climbing(game);
        let lead = if g.to_beat().is_some() {
            "beat the play, or pass"
        } else {
            "your lead"
        };
        let mut options: Vec<String> = legal
            .iter()
            .enumerate()
            .take(LISTED)
            .map(|(i, &a)| format!("  {}) {}", i + 1, action_text(&self.style, g, a)))
            .collect();
        if legal.len() > LISTED {
            options.push(format!(
                "  ... {} more: name the cards to play them",
                legal.len() - LISTED
            ));
        }
        format!("{lead}:\n{}", options.join("\n"))
    }

    fn parse(&self, line: &str, game: &dyn Game, legal: &[Action]) -> Result<Input, String> {
        let r = game.ruleset();
        let text = line.trim();
        let lower = text.to_ascii_lowercase();
        if let Some(c) = command(&lower) {
            return c;
        }
        if let Ok(n) = text.parse::<usize>() {
            return legal
                .get(n.wrapping_sub(1))
                .copied()
                .map(Input::Act)
                .ok_or_else(|| format!("there is no option {n}: choose 1 to {}", legal.len()));
        }
        let plain = |s: &str| s.to_ascii_lowercase().replace(['-', '_', ' '], "");
        if let Some(i) = r
            .declarations
            .iter()
            .position(|d| plain(&d.id) == plain(&lower) || plain(&d.name) == plain(&lower))
        {
            return legal
                .iter()
                .copied()
                .find(|a| matches!(a, Action::Declare { decl, .. } if decl.0 as usize == i))
                .map(Input::Act)
                .ok_or_else(|| {
                    format!(
                        "{} is not possible now: you lead this trick",
                        r.declarations[i].name
                    )
                });
        }
        let mut cards = CardSet::EMPTY;
        for word in text
            .split(|c: char| c.is_whitespace() || c == ',' || c == '+')
            .filter(|w| !w.is_empty())
        {
            let card = super::prompt::card(word, r)?;
            if cards.contains(card) {
                return Err(format!("{} is named twice", r.deck.card(card).name));
            }
            cards.insert(card);
        }
        let action = Action::PlaySet { cards };
        if legal.contains(&action) {
            return Ok(Input::Act(action));
        }
        // The game says why.
        let mut trial = game.box_clone();
        Err(trial.apply(action).err().map_or_else(
            || "those cards cannot be played now".to_string(),
            |e| e.reason,
        ))
    }

    fn describe(&self, game: &dyn Game, action: Action) -> String {
        action_text(&self.style, climbing(game), action)
    }

    fn help(&self) -> &'static str {
        HELP
    }

    fn rules(&self, game: &dyn Game, width: usize) -> String {
        crate::sheet::text_sheet_width(game.ruleset(), width)
    }

    fn score(&self, game: &dyn Game) -> String {
        screen::score(&self.style, game)
    }

    fn finished(&self, _game: &dyn Game) -> String {
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
