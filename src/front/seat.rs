//! One seat's table for a front outside the terminal (`yaku serve`'s page): the same family
//! table the terminal shows that seat, its board turned into the seat protocol's
//! [`TableView`] and its narration kept as the move log, so the browser shows what the
//! terminal would and nothing the seat may not see.

use super::board::{Board, Row, SeatPanel};
use super::fronts::for_ruleset;
use super::table::Table;
use crate::core::protocol::{self, GroupView, PanelView, RowView, TableView};
use crate::core::{Action, Event, Game, Seat};
use crate::deck::Deck;
use crate::ruleset::Ruleset;

/// One seat's table: its family's [`Table`], labelled for that seat, and its move log.
pub struct SeatTable {
    seat: Seat,
    table: Box<dyn Table>,
    log: std::collections::VecDeque<String>,
    /// Lines said since the game began, those dropped from `log` included.
    said: u64,
}

impl SeatTable {
    /// The seat's table, in its family's words.
    pub fn table(&self) -> &dyn Table {
        &*self.table
    }

    /// The table of `seat` in a game of `ruleset` whose seats are held by `players` (`human` or
    /// a bot's name): the seat is `you`, other people `friend`, bots go by their names.
    pub fn new(ruleset: &Ruleset, players: &[String], seat: Seat) -> SeatTable {
        let players: Vec<String> = players
            .iter()
            .enumerate()
            .map(|(s, p)| match (s == seat, p.as_str()) {
                (true, _) => super::HUMAN.to_string(),
                (false, super::HUMAN) => "friend".to_string(),
                (false, bot) => bot.to_string(),
            })
            .collect();
        SeatTable {
            seat,
            table: for_ruleset(ruleset, &players, players.clone(), false, false),
            log: std::collections::VecDeque::new(),
            said: 0,
        }
    }

    /// Tells the table what happened (every event since the last call; events are public), and
    /// keeps its narration as the move log.
    pub fn narrate(&mut self, game: &dyn Game, events: &[Event]) {
        let text = self.table.narrate(game, events);
        self.push(&text);
    }

    /// Tells the table of another seat's move before it is made: families whose events do not
    /// show a move (a bot's bet) say it in the log this way.
    pub fn announce(&mut self, game: &dyn Game, seat: Seat, action: Action) {
        if let Some(text) = self.table.announce(game, seat, action) {
            self.push(&text);
        }
    }

    /// Keeps the lines of `text` in the log, the oldest dropped past [`protocol::MAX_LOG`].
    /// Adds a notice of the table's host (a seat's holder replaced, say) to the move log.
    pub fn note(&mut self, text: &str) {
        self.push(text);
    }

    fn push(&mut self, text: &str) {
        for line in text
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.trim().is_empty())
        {
            if self.log.len() == protocol::MAX_LOG {
                self.log.pop_front();
            }
            self.log
                .push_back(line.trim_start_matches('-').trim().to_string());
            self.said += 1;
        }
    }

    /// Lines said since the game began (see [`SeatTable::state_since`]).
    pub fn said(&self) -> u64 {
        self.said
    }

    /// The `state` message for this seat, with the table laid out, each legal move in words and
    /// what it would take, and the move log's lines said after the first `since` (those a
    /// connection was sent already; what is no longer kept is not sent again) with where they
    /// begin: a state a move makes carries a line or two of log, not the whole of it.
    pub fn state_since(&self, game: &dyn Game, since: u64) -> protocol::Turn {
        let mut state = protocol::state(game, self.seat);
        let mut legal = Vec::new();
        if game.to_act() == Some(self.seat) {
            game.legal_actions(&mut legal);
        }
        let deck = &game.ruleset().deck;
        state.reaches = legal
            .iter()
            .map(|&a| ids(deck, self.table.reaches(game, a).iter()))
            .collect();
        if !legal.is_empty() {
            state.default = Some(self.table.default_choice(game, &legal));
            state.stakes = self.table.stakes(game, &legal);
        }
        state.described = legal
            .iter()
            .map(|&a: &Action| self.table.describe(game, a))
            .collect();
        state.table = Some(view(
            deck,
            self.table.board(game, self.seat),
            self.seat,
            game.seats(),
        ));
        let kept_from = self.said - self.log.len() as u64;
        let from = since.clamp(kept_from, self.said);
        state.log = self
            .log
            .iter()
            .skip((from - kept_from) as usize)
            .cloned()
            .collect();
        state.log_from = Some(from);
        state
    }
}

fn ids(deck: &Deck, cards: impl Iterator<Item = crate::deck::CardId>) -> Vec<String> {
    cards.map(|c| deck.card(c).id.clone()).collect()
}

fn row(deck: &Deck, row: Row) -> RowView {
    RowView {
        title: row.title,
        cards: ids(deck, row.tiles.iter().map(|t| t.card)),
        hidden: row.hidden,
        aside: row
            .aside
            .map(|(label, tiles)| (label, ids(deck, tiles.iter().map(|t| t.card)))),
        piles: row
            .piles
            .into_iter()
            .map(|(label, tiles)| GroupView {
                label,
                cards: ids(deck, tiles.iter().map(|t| t.card)),
            })
            .collect(),
    }
}

fn panel(deck: &Deck, panel: SeatPanel, seat: Seat) -> PanelView {
    PanelView {
        seat,
        name: panel.name,
        summary: panel.summary,
        hidden: panel.hidden,
        groups: panel
            .groups
            .into_iter()
            .map(|g| GroupView {
                label: g.label,
                cards: ids(deck, g.tiles.iter().map(|t| t.card)),
            })
            .collect(),
        lines: panel.lines,
    }
}

/// A board as the protocol sends it: the viewer's panel first, then the others, which a board
/// lists in turn order after the viewer.
fn view(deck: &Deck, board: Board, seat: Seat, seats: usize) -> TableView {
    let mut panels = Vec::new();
    if let Some(me) = board.me {
        panels.push(panel(deck, me, seat));
    }
    for (k, other) in board.others.into_iter().enumerate() {
        panels.push(panel(deck, other, (seat + 1 + k) % seats.max(1)));
    }
    TableView {
        title: board.title,
        center: row(deck, board.center),
        notes: board.notes,
        panels,
        hand: row(deck, board.hand),
    }
}
