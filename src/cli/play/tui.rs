//! The full-screen table of `yaku play` on a terminal (ratatui over crossterm): the family's
//! [`Board`] drawn in one frame that fits 80x24 and redraws on resize, the hand selected with
//! arrow keys, numbers or a typed card name (Tab completes), overlays for help, the rule sheet
//! and the score history, and a pause after every move so nothing happens unseen.

use super::board::{Board, Row, SeatPanel, Tile};
use super::prompt::Input;
use super::table::Table;
use super::{Frontend, Reply};
use crate::core::{Action, Game, Seat};
use crate::deck::CardSet;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::crossterm::{cursor, execute, terminal};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style as Look};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::{DefaultTerminal, Frame};
use std::collections::VecDeque;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// True while the terminal is in full-screen mode: an interrupt gives it back before saving.
pub(super) static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Colours of tiles, by the position of the card's first kind among the deck's kinds (the same
/// order as the line screen's palette).
const TONES: &[Color] = &[
    Color::Yellow,
    Color::Green,
    Color::Red,
    Color::Gray,
    Color::Blue,
    Color::Magenta,
    Color::Cyan,
    Color::LightBlue,
];

/// Width of a tile on screen, with the gap after it.
const TILE: usize = crate::deck::TILE_WIDTH + 2;

/// The smallest terminal the table is drawn on (columns, rows); the frame is laid out for 80x24.
const MIN_SIZE: (u16, u16) = (64, 20);

/// Lines of the move log kept.
const LOG_LINES: usize = 200;

/// The keys, for `?`.
const KEYS: &str = "\
keys:
  Left/Right      choose a card or an option (Up/Down too)
  Enter           take the chosen one (or what you typed)
  1-9             type an option's number, then Enter
  a name          type a card's id or name (Tab completes, Esc clears); start with / when
                  it begins with r, s or q
  ?               this help
  r               the rule sheet (Up/Down/PgUp/PgDn scroll, Esc closes)
  s               the scores and every finished hand
  q or Ctrl-C     save the game and leave (resume with yaku play --resume FILE)";

/// Whether the full-screen table can be used: both standard input and output are terminals
/// that can draw it.
pub fn available() -> bool {
    std::io::stdin().is_terminal()
        && std::io::stdout().is_terminal()
        && std::env::var("TERM").map_or(true, |t| t != "dumb")
}

/// Gives the terminal back: leaves raw mode and the alternate screen (also from the interrupt
/// handler, so the shell is usable after Ctrl-C or a hangup).
pub fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let _ = terminal::disable_raw_mode();
        let _ = execute!(
            std::io::stdout(),
            terminal::LeaveAlternateScreen,
            cursor::Show
        );
    }
}

/// An overlay over the table: help, rules, scores, the end of a hand.
struct Overlay {
    title: String,
    text: String,
    scroll: u16,
}

/// The full-screen front end.
pub struct FullScreen {
    terminal: DefaultTerminal,
    color: bool,
    /// The pause after a bot's move or a forced one.
    delay: Duration,
    /// Whose view the table shows between decisions (the last person who acted).
    viewer: Seat,
    /// Seats played by people.
    humans: Vec<bool>,
    /// The last seat a person decided at (hot seat: a change hides the table first).
    last_human: Option<Seat>,
    log: VecDeque<String>,
    overlay: Option<Overlay>,
    /// What is typed at the prompt.
    typed: String,
    /// A refusal or a note shown under the prompt.
    message: String,
    /// The last narration: printed on the normal screen when the game ends, so the result
    /// stays in the terminal.
    last_text: String,
}

/// What the frame shows besides the board.
struct Prompt<'a> {
    question: &'a str,
    legal: &'a [Action],
    cursor: usize,
    reaches: CardSet,
}

impl<'a> Prompt<'a> {
    /// A line of text and no choice (a pause, a note).
    fn only(question: &'a str) -> Prompt<'a> {
        Prompt {
            question,
            legal: &[],
            cursor: 0,
            reaches: CardSet::EMPTY,
        }
    }
}

impl FullScreen {
    /// Takes over the terminal. `humans` are the seats played by people; `delay` is the pause
    /// after each move made without them.
    pub fn new(humans: Vec<bool>, color: bool, delay: Duration) -> std::io::Result<FullScreen> {
        terminal::enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        if let Err(e) = execute!(std::io::stdout(), terminal::EnterAlternateScreen) {
            restore();
            return Err(e);
        }
        let backend = ratatui::backend::CrosstermBackend::new(std::io::stdout());
        let terminal = match ratatui::Terminal::new(backend) {
            Ok(t) => t,
            Err(e) => {
                restore();
                return Err(e);
            }
        };
        let viewer = humans.iter().position(|h| *h).unwrap_or(0);
        Ok(FullScreen {
            terminal,
            color,
            delay,
            viewer,
            humans,
            last_human: None,
            log: VecDeque::new(),
            overlay: None,
            typed: String::new(),
            message: String::new(),
            last_text: String::new(),
        })
    }

    fn any_human(&self) -> bool {
        self.humans.iter().any(|h| *h)
    }

    fn push_log(&mut self, text: &str) {
        for line in text
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.trim().is_empty())
        {
            self.log
                .push_back(line.trim_start_matches("--- ").to_string());
            if self.log.len() > LOG_LINES {
                self.log.pop_front();
            }
        }
    }

    /// Draws the table for `viewer` with `prompt`.
    fn draw(&mut self, table: &dyn Table, game: &dyn Game, prompt: &Prompt<'_>) {
        let board = table.board(game, self.viewer);
        let selected = prompt.legal.get(prompt.cursor).copied();
        let chosen = selected.and_then(Action::card);
        let color = self.color;
        let log = &self.log;
        let overlay = &self.overlay;
        let typed = &self.typed;
        let message = &self.message;
        let selected_text = selected.map(|a| table.describe(game, a));
        let _ = self.terminal.draw(|f| {
            let look = Looks { color };
            draw_frame(
                f,
                &board,
                &look,
                &Marks {
                    chosen,
                    reaches: prompt.reaches,
                },
                log,
                &PromptText {
                    question: prompt.question,
                    selected: selected_text.as_deref(),
                    typed,
                    message,
                },
            );
            if let Some(o) = overlay {
                draw_overlay(f, o);
            }
        });
    }

    /// Waits for a key (redrawing on resize with `redraw`); `None` after `timeout`.
    fn key(
        &mut self,
        timeout: Option<Duration>,
        redraw: &mut dyn FnMut(&mut Self),
    ) -> Option<KeyEvent> {
        let until = timeout.map(|t| Instant::now() + t);
        loop {
            let left = until.map(|u| u.saturating_duration_since(Instant::now()));
            if left == Some(Duration::ZERO) {
                return None;
            }
            let ready = match left {
                Some(l) => event::poll(l).unwrap_or(false),
                None => true,
            };
            if !ready {
                return None;
            }
            match event::read() {
                Ok(Event::Key(k)) if k.kind != KeyEventKind::Release => return Some(k),
                Ok(Event::Resize(..)) => {
                    let _ = self.terminal.autoresize();
                    redraw(self);
                }
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    }

    /// Shows `table` for a moment (or until a key) after something happened without the player.
    fn linger(&mut self, table: &dyn Table, game: &dyn Game) {
        if !self.any_human() && self.delay.is_zero() {
            return;
        }
        let empty = Prompt::only("");
        self.draw(table, game, &empty);
        if !self.delay.is_zero() {
            let delay = self.delay;
            let _ = self.key(Some(delay), &mut |me| me.draw(table, game, &empty));
        }
    }

    /// Shows an overlay and waits until it is closed (scrolling with the arrows). `Err` when the
    /// player asked to leave from it (Ctrl-C).
    fn modal(
        &mut self,
        table: &dyn Table,
        game: &dyn Game,
        title: &str,
        text: String,
        bottom: bool,
    ) -> Result<(), ()> {
        let lines = text.lines().count() as u16;
        let height = self
            .terminal
            .size()
            .map_or(24, |s| s.height)
            .saturating_sub(4);
        self.overlay = Some(Overlay {
            title: title.to_string(),
            scroll: if bottom {
                lines.saturating_sub(height)
            } else {
                0
            },
            text,
        });
        let empty = Prompt::only("");
        let result = loop {
            self.draw(table, game, &empty);
            let Some(k) = self.key(None, &mut |me| me.draw(table, game, &empty)) else {
                break Ok(());
            };
            let o = self.overlay.as_mut().expect("an overlay is shown");
            match k.code {
                KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => break Err(()),
                KeyCode::Up | KeyCode::Char('k') => o.scroll = o.scroll.saturating_sub(1),
                KeyCode::Down | KeyCode::Char('j') => o.scroll = (o.scroll + 1).min(lines),
                KeyCode::PageUp => o.scroll = o.scroll.saturating_sub(height),
                KeyCode::PageDown | KeyCode::Char(' ') => o.scroll = (o.scroll + height).min(lines),
                KeyCode::Home => o.scroll = 0,
                KeyCode::End => o.scroll = lines.saturating_sub(height),
                _ => break Ok(()),
            }
        };
        self.overlay = None;
        result
    }

    /// Shows help, the rule sheet or the scores in an overlay; `Err` when the player asked to
    /// leave from it.
    fn show(&mut self, table: &dyn Table, game: &dyn Game, what: Input) -> Result<(), ()> {
        match what {
            Input::Rules => self.modal(table, game, "rules", table.rules(game), false),
            Input::Score => self.modal(table, game, "scores", table.score(game), false),
            _ => self.modal(
                table,
                game,
                "help",
                format!("{KEYS}\n\n{}", table.help()),
                false,
            ),
        }
    }

    /// Before a person at `seat` sees the table: in hot seat, a screen that hides it until the
    /// right person has the keyboard.
    fn hand_over(&mut self, table: &dyn Table, _game: &dyn Game, seat: Seat) -> Result<(), ()> {
        let people = self.humans.iter().filter(|h| **h).count();
        let changed = self.last_human.is_some_and(|s| s != seat);
        self.last_human = Some(seat);
        self.viewer = seat;
        if people < 2 || !changed {
            return Ok(());
        }
        let who = table.style().who(seat).to_string();
        let _ = self.terminal.draw(|f| {
            let area = f.area();
            f.render_widget(Clear, area);
            let text =
                format!("pass the keyboard to {who}\n\npress a key when only {who} is looking");
            f.render_widget(
                Paragraph::new(text)
                    .alignment(ratatui::layout::Alignment::Center)
                    .block(Block::default().borders(Borders::ALL).title(" hot seat ")),
                centered(area, 50, 7),
            );
        });
        let k = self.key(None, &mut |_| {});
        match k {
            Some(k)
                if k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL) =>
            {
                Err(())
            }
            _ => Ok(()),
        }
    }

    /// Completes `typed` from the names and ids of the cards and declarations among `legal`.
    fn complete(&mut self, game: &dyn Game, legal: &[Action]) {
        let words = super::prompt::completion_words(game, legal);
        let fits = super::prompt::completions(&words, &self.typed);
        match fits.as_slice() {
            [] => self.message = format!("nothing offered now starts with `{}`", self.typed),
            [one] => {
                self.typed = (*one).clone();
                self.message.clear();
            }
            many => {
                let common = common_prefix(many);
                if common.chars().count() > self.typed.chars().count() {
                    self.typed = common;
                }
                self.message = many
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ");
            }
        }
    }
}

/// The longest common start of `words`, ignoring case (as the first word writes it).
fn common_prefix(words: &[&String]) -> String {
    let first: Vec<char> = words[0].chars().collect();
    let mut n = first.len();
    for w in &words[1..] {
        n = n.min(
            first
                .iter()
                .zip(w.chars())
                .take_while(|(a, b)| a.to_lowercase().eq(b.to_lowercase()))
                .count(),
        );
    }
    first[..n].iter().collect()
}

/// What a key means with nothing typed: `?` help, `r` rules, `s` scores, `q` save and leave.
fn shortcut(key: char) -> Option<Input> {
    match key {
        '?' => Some(Input::Help),
        'r' => Some(Input::Rules),
        's' => Some(Input::Score),
        'q' => Some(Input::Quit),
        _ => None,
    }
}

fn ctrl_c(k: &KeyEvent) -> bool {
    matches!(k.code, KeyCode::Char('c') | KeyCode::Char('d'))
        && k.modifiers.contains(KeyModifiers::CONTROL)
}

impl Frontend for FullScreen {
    fn events(&mut self, table: &dyn Table, game: &dyn Game, text: &str, hand_ended: bool) {
        self.push_log(text);
        if !text.trim().is_empty() {
            self.last_text = text.to_string();
        }
        if hand_ended && self.any_human() && game.to_act().is_some() {
            let _ = self.modal(
                table,
                game,
                "the hand is over",
                format!("{}\n\npress a key to go on", text.trim()),
                false,
            );
        } else if !text.trim().is_empty() {
            self.linger(table, game);
        }
    }

    fn pause(&mut self, table: &dyn Table, game: &dyn Game, question: &str) -> Reply {
        loop {
            let prompt = Prompt::only(question);
            self.draw(table, game, &prompt);
            let Some(k) = self.key(None, &mut |me| me.draw(table, game, &prompt)) else {
                return Reply::Ended;
            };
            if ctrl_c(&k) {
                return Reply::Quit;
            }
            match k.code {
                KeyCode::Enter => return Reply::Go,
                KeyCode::Char(c) => match shortcut(c) {
                    Some(Input::Quit) => return Reply::Quit,
                    Some(what) => {
                        if self.show(table, game, what).is_err() {
                            return Reply::Quit;
                        }
                    }
                    None => {
                        self.message = "press Enter to go on (q saves and leaves, ? helps)".into()
                    }
                },
                _ => self.message = "press Enter to go on (q saves and leaves, ? helps)".into(),
            }
        }
    }

    fn bot_move(&mut self, announce: Option<&str>) {
        if let Some(line) = announce {
            self.push_log(line);
        }
    }

    fn forced(&mut self, table: &dyn Table, game: &dyn Game, seat: Seat, note: &str) {
        let _ = self.hand_over(table, game, seat);
        self.push_log(note);
        self.message = note.to_string();
        let empty = Prompt::only(note);
        self.draw(table, game, &empty);
        let delay = self.delay.max(Duration::from_millis(800));
        let _ = self.key(Some(delay), &mut |me| me.draw(table, game, &empty));
        self.message.clear();
    }

    fn decide(
        &mut self,
        table: &dyn Table,
        game: &dyn Game,
        seat: Seat,
        legal: &[Action],
        fresh: bool,
    ) -> Reply {
        if fresh && self.hand_over(table, game, seat).is_err() {
            return Reply::Quit;
        }
        let question = table.question(game, legal);
        let mut cursor = 0usize;
        loop {
            let reaches = legal
                .get(cursor)
                .map_or(CardSet::EMPTY, |&a| table.reaches(game, a));
            let prompt = Prompt {
                question: &question,
                legal,
                cursor,
                reaches,
            };
            self.draw(table, game, &prompt);
            let Some(k) = self.key(None, &mut |me| me.draw(table, game, &prompt)) else {
                return Reply::Ended;
            };
            if ctrl_c(&k) {
                return Reply::Quit;
            }
            let typing = !self.typed.is_empty();
            match k.code {
                KeyCode::Left | KeyCode::Up | KeyCode::BackTab => {
                    cursor = (cursor + legal.len() - 1) % legal.len().max(1);
                    self.message.clear();
                }
                KeyCode::Right | KeyCode::Down => {
                    cursor = (cursor + 1) % legal.len().max(1);
                    self.message.clear();
                }
                KeyCode::Tab if typing => self.complete(game, legal),
                KeyCode::Tab => cursor = (cursor + 1) % legal.len().max(1),
                KeyCode::Esc => {
                    self.typed.clear();
                    self.message.clear();
                }
                KeyCode::Backspace => {
                    self.typed.pop();
                }
                KeyCode::Enter if !typing => {
                    self.message.clear();
                    if let Some(&a) = legal.get(cursor) {
                        return Reply::Act(a);
                    }
                }
                KeyCode::Enter => {
                    let line = std::mem::take(&mut self.typed);
                    let line = line.strip_prefix('/').unwrap_or(&line).to_string();
                    match table.parse(&line, game, legal) {
                        Ok(Input::Act(a)) => {
                            self.message.clear();
                            return Reply::Act(a);
                        }
                        Ok(what @ (Input::Help | Input::Rules | Input::Score)) => {
                            if self.show(table, game, what).is_err() {
                                return Reply::Quit;
                            }
                        }
                        Ok(Input::Quit) => return Reply::Quit,
                        Err(reason) => self.message = reason,
                    }
                }
                KeyCode::Char(c) if !typing && shortcut(c).is_some() => {
                    self.message.clear();
                    match shortcut(c) {
                        Some(Input::Quit) | None => return Reply::Quit,
                        Some(what) => {
                            if self.show(table, game, what).is_err() {
                                return Reply::Quit;
                            }
                        }
                    }
                }
                KeyCode::Char(c) if !c.is_control() => {
                    self.typed.push(c);
                    self.message.clear();
                }
                _ => {}
            }
        }
    }

    fn ask_path(&mut self, problem: &str) -> Option<String> {
        // Asked on the normal screen, where a file name is typed with the usual line editing.
        restore();
        eprintln!("error: {problem}");
        println!(
            "the game is kept: type another file to save it to, or press Enter to go back to the game"
        );
        print!("> ");
        let _ = std::io::Write::flush(&mut std::io::stdout());
        let mut line = String::new();
        let read = std::io::stdin().read_line(&mut line);
        let answer = match read {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim().to_string()),
        };
        if answer.as_deref() == Some("") {
            // Back to the game: take the terminal again.
            if terminal::enable_raw_mode().is_ok() {
                ACTIVE.store(true, Ordering::SeqCst);
                let _ = execute!(std::io::stdout(), terminal::EnterAlternateScreen);
                let _ = self.terminal.clear();
            }
        }
        answer
    }

    fn say(&mut self, text: &str) {
        self.message = text.to_string();
    }

    fn finished(&mut self, table: &dyn Table, game: &dyn Game) {
        if self.any_human() {
            let history = table.score(game);
            let _ = self.modal(
                table,
                game,
                "the game is over",
                format!(
                    "{}\n\n{history}\npress a key to leave",
                    self.last_text.trim()
                ),
                true,
            );
        }
        self.leave();
        print!("{}", self.last_text);
    }

    fn leave(&mut self) {
        restore();
    }
}

impl Drop for FullScreen {
    fn drop(&mut self) {
        restore();
    }
}

/// Colours on or off (`--no-color`, `NO_COLOR`).
struct Looks {
    color: bool,
}

/// What is marked on the table: the card under the cursor and the cards it would reach.
struct Marks {
    chosen: Option<crate::deck::CardId>,
    reaches: CardSet,
}

/// The prompt's texts.
struct PromptText<'a> {
    question: &'a str,
    selected: Option<&'a str>,
    typed: &'a str,
    message: &'a str,
}

impl Looks {
    fn tile(&self, t: &Tile, marks: &Marks) -> (Span<'static>, Span<'static>, Span<'static>) {
        let w = crate::deck::TILE_WIDTH;
        let chosen = marks.chosen == Some(t.card);
        let reached = marks.reaches.contains(t.card);
        let top = format!("{:<w$}", t.top);
        let face = format!("{:<w$}", t.face);
        let mark = if chosen {
            "^".repeat(w)
        } else if reached {
            "*".repeat(w)
        } else {
            " ".repeat(w)
        };
        if self.color {
            let mut look = Look::default()
                .fg(Color::Black)
                .bg(TONES[t.tone % TONES.len()]);
            if chosen || reached {
                look = look.add_modifier(Modifier::BOLD | Modifier::REVERSED);
            }
            (
                Span::styled(format!(" {top}"), look),
                Span::styled(format!(" {face}"), look),
                Span::raw(format!(" {mark} ")),
            )
        } else {
            let (l, r) = if chosen {
                ('>', '<')
            } else if reached {
                ('*', '*')
            } else {
                ('[', ']')
            };
            (
                Span::raw(format!("{l}{top}{r}")),
                Span::raw(format!("{l}{face}{r}")),
                Span::raw(format!(" {mark} ")),
            )
        }
    }

    /// A row of tiles wrapped to `width`, with numbers under the hand's tiles.
    fn row(&self, row: &Row, marks: &Marks, width: u16, numbered: bool) -> Vec<Line<'static>> {
        let per_line = (usize::from(width) / TILE).max(1);
        let mut out = vec![Line::from(Span::styled(
            row.title.clone(),
            Look::default().add_modifier(Modifier::BOLD),
        ))];
        let mut tiles: Vec<&Tile> = row.tiles.iter().collect();
        if tiles.is_empty() && row.hidden == 0 && row.title.is_empty() {
            out.push(Line::from("  (none)"));
        }
        let mut index = 0;
        while !tiles.is_empty() {
            let rest = tiles.split_off(tiles.len().min(per_line));
            let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
            for t in &tiles {
                index += 1;
                let (top, face, mark) = self.tile(t, marks);
                a.push(top);
                b.push(face);
                if self.color {
                    a.push(Span::raw(" "));
                    b.push(Span::raw(" "));
                }
                if numbered && mark.content.trim().is_empty() {
                    c.push(Span::raw(format!(" {:<w$}", index, w = TILE - 1)));
                } else {
                    c.push(mark);
                }
            }
            out.push(Line::from(a));
            out.push(Line::from(b));
            out.push(Line::from(c));
            tiles = rest;
        }
        if row.hidden > 0 {
            out.push(Line::from(format!(
                "{} ({} face down)",
                if self.color {
                    "▒".repeat(row.hidden.min(20))
                } else {
                    "#".repeat(row.hidden.min(20))
                },
                row.hidden
            )));
        }
        out
    }

    /// A seat's panel: name and summary, captures by group, its lines (at most `room`).
    fn panel(&self, p: &SeatPanel, room: usize) -> Vec<Line<'static>> {
        let back = if self.color { "▒" } else { "#" };
        let mut out = vec![Line::from(vec![
            Span::styled(p.name.clone(), Look::default().add_modifier(Modifier::BOLD)),
            Span::raw(format!(": {}", p.summary)),
            Span::raw(if p.hidden > 0 {
                format!("  {}", back.repeat(p.hidden.min(12)))
            } else {
                String::new()
            }),
        ])];
        if !p.groups.is_empty() {
            let mut spans = vec![Span::raw("  ")];
            for g in &p.groups {
                spans.push(Span::raw(format!("{} ", g.label)));
                if g.tiles.len() <= 5 {
                    for t in &g.tiles {
                        let label =
                            format!("{}·{}", t.top, t.face.chars().take(3).collect::<String>());
                        if self.color {
                            spans.push(Span::styled(
                                label,
                                Look::default().fg(TONES[t.tone % TONES.len()]),
                            ));
                        } else {
                            spans.push(Span::raw(label));
                        }
                        spans.push(Span::raw(" "));
                    }
                }
                spans.push(Span::raw("│ "));
            }
            spans.pop();
            out.push(Line::from(spans));
        }
        out.extend(
            p.lines
                .iter()
                .take(room)
                .map(|l| Line::from(format!("  {l}"))),
        );
        out
    }
}

/// A `w` by `h` rectangle in the middle of `area`.
fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

fn draw_overlay(f: &mut Frame, o: &Overlay) {
    let area = f.area();
    let rect = Rect {
        x: area.x + 1,
        y: area.y + 1,
        width: area.width.saturating_sub(2),
        height: area.height.saturating_sub(2),
    };
    f.render_widget(Clear, rect);
    f.render_widget(
        Paragraph::new(o.text.clone())
            .wrap(Wrap { trim: false })
            .scroll((o.scroll, 0))
            .block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(format!(" {} ", o.title))
                    .title_bottom(" Up/Down PgUp/PgDn scroll · any other key closes "),
            ),
        rect,
    );
}

fn draw_frame(
    f: &mut Frame,
    board: &Board,
    look: &Looks,
    marks: &Marks,
    log: &VecDeque<String>,
    prompt: &PromptText<'_>,
) {
    let area = f.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        // Too small for the table: say so, and keep the question answerable.
        let text = format!(
            "the table needs a terminal of at least {}x{} (this one is {}x{}): enlarge it, or play with --line\n\n{}\n> {}",
            MIN_SIZE.0,
            MIN_SIZE.1,
            area.width,
            area.height,
            prompt.question,
            if prompt.typed.is_empty() {
                prompt.selected.unwrap_or_default()
            } else {
                prompt.typed
            }
        );
        f.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }), area);
        return;
    }
    // A wide terminal keeps the log beside the table; a narrow one below it.
    let (main, side) = if area.width >= 110 {
        let [m, s] = Layout::horizontal([Constraint::Min(70), Constraint::Length(40)]).areas(area);
        (m, Some(s))
    } else {
        (area, None)
    };
    let width = main.width;
    // The prompt: the question (wrapped), the selection or what is typed, a message.
    let mut ask: Vec<Line> = prompt
        .question
        .lines()
        .take(3)
        .map(|l| Line::from(l.to_string()))
        .collect();
    if !prompt.question.is_empty() {
        let entry = if prompt.typed.is_empty() {
            prompt
                .selected
                .map_or_else(String::new, |s| format!("> {s}   (Enter)"))
        } else {
            format!("> {}_", prompt.typed)
        };
        ask.push(Line::from(Span::styled(
            entry,
            Look::default().add_modifier(Modifier::BOLD),
        )));
    }
    if !prompt.message.is_empty() {
        ask.push(Line::from(Span::styled(
            prompt.message.to_string(),
            if look.color {
                Look::default().fg(Color::Red)
            } else {
                Look::default()
            },
        )));
    }
    ask.push(Line::from(Span::styled(
        "←/→ choose · Enter take · type a number or name · ? help · r rules · s scores · q save & leave",
        Look::default().add_modifier(Modifier::DIM),
    )));
    let center = look.row(&board.center, marks, width, false);
    let hand = look.row(&board.hand, marks, width, true);
    // Each panel shows its first line (yaku held); the rows left over, keeping a few for the
    // log below a narrow table, go to the near yaku: yours first, then the others', then notes.
    let first = |p: &SeatPanel| look.panel(p, 1).len();
    let base = 1
        + board.others.iter().map(first).sum::<usize>()
        + board.me.as_ref().map_or(0, first)
        + board.notes.len().min(1)
        + center.len()
        + hand.len()
        + ask.len();
    let keep_for_log = if side.is_some() { 0 } else { 3 };
    let mut spare = usize::from(main.height).saturating_sub(base + keep_for_log);
    let mut take = |wanted: usize| {
        let n = wanted.min(spare);
        spare -= n;
        n
    };
    let extra = |p: &SeatPanel| p.lines.len().saturating_sub(1).min(3);
    let me_room = 1 + board.me.as_ref().map_or(0, |p| take(extra(p)));
    let other_rooms: Vec<usize> = board.others.iter().map(|p| 1 + take(extra(p))).collect();
    let note_lines = board.notes.len().min(1) + take(board.notes.len().saturating_sub(1).min(5));
    let mut top: Vec<Line> = vec![Line::from(vec![
        Span::styled(
            board.title.clone(),
            Look::default().add_modifier(Modifier::BOLD),
        ),
        Span::raw(format!(" · {}", board.scores)),
    ])];
    for (p, room) in board.others.iter().zip(other_rooms) {
        top.extend(look.panel(p, room));
    }
    top.extend(board.notes.iter().take(note_lines).map(|n| {
        Line::from(Span::styled(
            n.clone(),
            Look::default().add_modifier(Modifier::DIM),
        ))
    }));
    let mine: Vec<Line> = board
        .me
        .as_ref()
        .map_or_else(Vec::new, |p| look.panel(p, me_room));
    let heights = [
        top.len() as u16,
        center.len() as u16,
        mine.len() as u16,
        hand.len() as u16,
        ask.len() as u16,
    ];
    // The log (or, beside a wide one, empty space) takes what is left, so the prompt stays at
    // the bottom.
    let [a, b, c, d, e, g] = Layout::vertical([
        Constraint::Length(heights[0]),
        Constraint::Length(heights[1]),
        Constraint::Length(heights[2]),
        Constraint::Length(heights[3]),
        Constraint::Min(0),
        Constraint::Length(heights[4]),
    ])
    .areas(main);
    f.render_widget(Paragraph::new(Text::from(top)), a);
    f.render_widget(Paragraph::new(Text::from(center)), b);
    f.render_widget(Paragraph::new(Text::from(mine)), c);
    f.render_widget(Paragraph::new(Text::from(hand)), d);
    let log_area = side.unwrap_or(e);
    if log_area.height > 0 {
        let inner = if side.is_some() {
            log_area.height.saturating_sub(2)
        } else {
            log_area.height
        };
        let lines: Vec<Line> = log
            .iter()
            .skip(log.len().saturating_sub(usize::from(inner)))
            .map(|l| Line::from(l.clone()))
            .collect();
        let para = Paragraph::new(Text::from(lines));
        if side.is_some() {
            f.render_widget(
                para.wrap(Wrap { trim: false })
                    .block(Block::default().borders(Borders::LEFT).title(" moves ")),
                log_area,
            );
        } else {
            f.render_widget(para, log_area);
        }
    }
    f.render_widget(
        Paragraph::new(Text::from(ask)).wrap(Wrap { trim: false }),
        g,
    );
}
