//! The full-screen table of `yaku play` on a terminal (ratatui over crossterm): the family's
//! [`Board`] drawn in one frame that fits 80x24 and redraws on resize, the hand selected with
//! arrow keys, numbers or a typed card name (Tab completes), overlays for help, the rule sheet
//! and the score history, and a pause after every move so nothing happens unseen.

use super::{Frontend, Reply};
use crate::core::{Action, Game, Seat};
use crate::deck::CardSet;
use crate::front::board::{Board, Row, SeatPanel, Tile};
use crate::front::prompt::Input;
use crate::front::table::Table;
use crate::front::wrap;
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
                  it begins with h, q, r, s or u
  h               a hint: the move the greedy bot would make here, and why
  u               undo: take back your last move (against bots only); again for more
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
    /// Undo is offered (one person against bots).
    undo: bool,
    /// Every seat's hand is shown face up (a replay: a finished record is public).
    open_hands: bool,
    /// The keys line, when it is not the play's (a replay's keys).
    keys: Option<String>,
    /// The option chosen first at the next decision (`yaku learn`'s suggestion).
    suggested: Option<Action>,
    /// A key pressed during a bot's move that is a command (`q`, `h`, ...): it ends the pause
    /// and is taken by the next prompt, not dropped as "skip".
    pending: Option<KeyEvent>,
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
        let undo = humans.iter().filter(|h| **h).count() == 1 && humans.len() > 1;
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
            undo,
            open_hands: false,
            keys: None,
            suggested: None,
            pending: None,
        })
    }

    /// A line for the move log (the seed at the start).
    pub fn note(&mut self, text: &str) {
        self.push_log(text);
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
        let mut board = if self.open_hands {
            table.board_open(game, self.viewer)
        } else {
            table.board(game, self.viewer)
        };
        // In a replay the other seats' hands are shown face up, in the panels' order.
        let mut open: Vec<Row> = Vec::new();
        if self.open_hands {
            let seats = game.seats();
            for k in 1..seats {
                let s = (self.viewer + k) % seats;
                let hand = table.board(game, s).hand;
                if !hand.tiles.is_empty() {
                    open.push(hand);
                }
            }
            for p in &mut board.others {
                p.hidden = 0;
            }
        }
        let keys = self.keys.clone();
        let selected = prompt.legal.get(prompt.cursor).copied();
        let chosen = selected.and_then(Action::card);
        let color = self.color;
        let log = &self.log;
        let overlay = &self.overlay;
        let typed = &self.typed;
        let message = &self.message;
        let selected_text = selected.map(|a| table.describe(game, a));
        let numbered = prompt.legal.iter().any(|a| {
            matches!(a, Action::Play { card } if board.hand.tiles.iter().any(|t| t.card == *card))
        });
        let undo = self.undo && !prompt.legal.is_empty();
        let _ = self.terminal.draw(|f| {
            let look = Looks { color };
            draw_frame(
                f,
                &board,
                &open,
                &look,
                &Marks {
                    chosen,
                    reaches: prompt.reaches,
                },
                log,
                &PromptText {
                    question: prompt.question,
                    numbered,
                    undo,
                    keys: keys.as_deref(),
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
        // A command pressed during a pause is the next prompt's first key.
        if timeout.is_none()
            && let Some(k) = self.pending.take()
        {
            return Some(k);
        }
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
        // With a command pressed, the pauses are skipped until a prompt takes it.
        if !self.delay.is_zero() && self.pending.is_none() {
            let delay = self.delay;
            let k = self.key(Some(delay), &mut |me| me.draw(table, game, &empty));
            self.keep_command(k);
        }
    }

    /// Keeps a key that ended a pause for the next prompt when it is a command (`q` quits,
    /// `h` asks for a hint, Ctrl-C leaves) rather than a key pressed to skip the pause.
    fn keep_command(&mut self, key: Option<KeyEvent>) {
        if let Some(k) = key
            && (ctrl_c(&k) || matches!(k.code, KeyCode::Char(c) if shortcut(c).is_some()))
        {
            self.pending = Some(k);
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
            Input::Rules => {
                // Wrapped to the overlay's inside, so that the box does not wrap it again.
                let area = self.terminal.size().map_or(Rect::new(0, 0, 80, 24), |s| {
                    Rect::new(0, 0, s.width, s.height)
                });
                let inner = usize::from(overlay_rect(area).width.saturating_sub(3));
                self.modal(table, game, "rules", table.rules(game, inner), false)
            }
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
        let words = crate::front::prompt::completion_words(game, legal);
        let fits = crate::front::prompt::completions(&words, &self.typed);
        match fits.as_slice() {
            [] => self.message = format!("nothing offered now starts with `{}`", self.typed),
            [one] => {
                self.typed = one.clone();
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
fn common_prefix(words: &[String]) -> String {
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
        'h' => Some(Input::Hint),
        'u' => Some(Input::Undo),
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
                    Some(Input::Undo | Input::Hint) | None => {
                        self.message = "press Enter to go on (q saves and leaves, ? helps)".into()
                    }
                    Some(what) => {
                        if self.show(table, game, what).is_err() {
                            return Reply::Quit;
                        }
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
        if self.pending.is_none() {
            let delay = self.delay.max(Duration::from_millis(800));
            let k = self.key(Some(delay), &mut |me| me.draw(table, game, &empty));
            self.keep_command(k);
        }
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
        let suggested = self
            .suggested
            .take()
            .and_then(|s| legal.iter().position(|a| *a == s));
        let mut cursor = suggested
            .unwrap_or_else(|| table.default_choice(game, legal))
            .min(legal.len().saturating_sub(1));
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
                        Ok(Input::Undo) if self.undo => return Reply::Undo,
                        Ok(Input::Undo) => {
                            self.message = "undo is for a game of one person against bots".into()
                        }
                        Ok(Input::Hint) => {
                            // Shown once, under the prompt (not in the log as well).
                            self.message = super::hint(table, game, seat, legal);
                        }
                        Err(reason) => self.message = reason,
                    }
                }
                KeyCode::Char(c) if !typing && shortcut(c).is_some() => {
                    self.message.clear();
                    match shortcut(c) {
                        Some(Input::Quit) | None => return Reply::Quit,
                        Some(Input::Undo) if self.undo => return Reply::Undo,
                        Some(Input::Undo) => {
                            self.message = "undo is for a game of one person against bots".into()
                        }
                        Some(Input::Hint) => {
                            // Shown once, under the prompt (not in the log as well).
                            self.message = super::hint(table, game, seat, legal);
                        }
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

    fn teach(&mut self, table: &dyn Table, game: &dyn Game, text: &str, suggested: Option<Action>) {
        let _ = self.modal(
            table,
            game,
            "lesson",
            format!("{text}\n\npress a key to decide"),
            false,
        );
        self.suggested = suggested;
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
    /// The hand's tiles can be chosen: numbers under them.
    numbered: bool,
    /// Undo is offered (`u` in the keys line).
    undo: bool,
    /// The keys line's items (` · ` between them) instead of the play's.
    keys: Option<&'a str>,
    selected: Option<&'a str>,
    typed: &'a str,
    message: &'a str,
}

/// The terminal colour of a suit's `colour` ([`crate::deck::SUIT_COLOURS`]).
fn suit_colour(name: &str) -> Color {
    match name {
        "red" => Color::Red,
        "blue" => Color::Blue,
        "green" => Color::Green,
        "gold" => Color::Yellow,
        "purple" => Color::Magenta,
        _ => Color::Black,
    }
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
            // A suit with a colour of its own (red hearts, black spades) on a light tile; other
            // cards on their kind's colour.
            let mut look = match t.colour {
                Some(colour) => Look::default().fg(suit_colour(colour)).bg(Color::White),
                None => Look::default()
                    .fg(Color::Black)
                    .bg(TONES[t.tone % TONES.len()]),
            };
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

    /// Tiles as three lines (top, face, the marks or numbers under them), each `TILE` wide.
    /// The third line is `None` when it would be blank.
    fn tiles(
        &self,
        tiles: &[&Tile],
        marks: &Marks,
        numbered: Option<usize>,
    ) -> (
        Vec<Span<'static>>,
        Vec<Span<'static>>,
        Vec<Span<'static>>,
        bool,
    ) {
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        let mut any_mark = false;
        for (i, t) in tiles.iter().enumerate() {
            let (top, face, mark) = self.tile(t, marks);
            a.push(top);
            b.push(face);
            if self.color {
                a.push(Span::raw(" "));
                b.push(Span::raw(" "));
            }
            if !mark.content.trim().is_empty() {
                any_mark = true;
                c.push(mark);
            } else if let Some(first) = numbered {
                any_mark = true;
                c.push(Span::raw(format!(" {:<w$}", first + i + 1, w = TILE - 1)));
            } else {
                c.push(mark);
            }
        }
        (a, b, c, any_mark)
    }

    /// A row of tiles wrapped to `width`, with numbers under the hand's tiles when they can be
    /// chosen (`numbered`), and the row's cards set aside drawn apart under their own label;
    /// `keep_marks` keeps the line under the tiles where marks may come.
    fn row(
        &self,
        row: &Row,
        marks: &Marks,
        width: u16,
        numbered: bool,
        keep_marks: bool,
    ) -> Vec<Line<'static>> {
        let width = usize::from(width);
        let aside_tiles = row.aside.as_ref().map_or(0, |(_, t)| t.len());
        let aside_width = if aside_tiles > 0 {
            aside_tiles * TILE + 3
        } else {
            0
        };
        let per_line = (width.saturating_sub(aside_width) / TILE).max(1);
        let title_look = Look::default().add_modifier(Modifier::BOLD);
        let mut out = Vec::new();
        let mut tiles: Vec<&Tile> = row.tiles.iter().collect();
        // The aside goes right of the first line of tiles, its label above it.
        let first_width = tiles.len().min(per_line) * TILE;
        let title_width = ratatui::text::Line::from(row.title.as_str()).width();
        let aside_at = match &row.aside {
            Some((label, _))
                if first_width.max(title_width + 3) + aside_width.max(label.len() + 3) <= width =>
            {
                Some(first_width.max(title_width + 3))
            }
            _ => None,
        };
        match (&row.aside, aside_at) {
            (Some((label, _)), Some(at)) => {
                out.push(Line::from(vec![
                    Span::styled(format!("{:<at$}", row.title), title_look),
                    Span::styled(format!("│ {label}"), Look::default()),
                ]));
            }
            _ => {
                for l in wrap(&row.title, width.saturating_sub(1)) {
                    out.push(Line::from(Span::styled(l, title_look)));
                }
            }
        }
        if tiles.is_empty() && row.hidden == 0 && row.title.is_empty() {
            out.push(Line::from("  (none)"));
        }
        let mut index = 0;
        let mut first = true;
        let aside: Vec<&Tile> = row
            .aside
            .as_ref()
            .map_or_else(Vec::new, |(_, t)| t.iter().collect());
        while !tiles.is_empty() || (first && aside_at.is_some()) {
            let rest = tiles.split_off(tiles.len().min(per_line));
            let (mut a, mut b, mut c, mut marked) =
                self.tiles(&tiles, marks, numbered.then_some(index));
            index += tiles.len();
            if first && let Some(at) = aside_at {
                let pad = at - tiles.len() * TILE;
                let gap = format!("{:pad$}", "");
                let (x, y, z, m) = self.tiles(&aside, marks, None);
                a.push(Span::raw(format!("{gap}│ ")));
                b.push(Span::raw(format!("{gap}│ ")));
                c.push(Span::raw(format!("{gap}  ")));
                a.extend(x);
                b.extend(y);
                c.extend(z);
                marked |= m;
            }
            out.push(Line::from(a));
            out.push(Line::from(b));
            // The line under the tiles: marks or numbers; blank only where marks may come
            // (the table), so the frame does not jump as the choice moves.
            if marked || numbered || keep_marks {
                out.push(Line::from(c));
            }
            first = false;
            tiles = rest;
        }
        if let (Some((label, _)), None) = (&row.aside, aside_at) {
            // No room beside: below, under its label.
            out.push(Line::from(Span::styled(label.clone(), title_look)));
            let (a, b, c, m) = self.tiles(&aside, marks, None);
            out.push(Line::from(a));
            out.push(Line::from(b));
            if m || keep_marks {
                out.push(Line::from(c));
            }
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
        // Piles taken only whole (builds): each under its label, wrapped as the row is.
        for (label, pile) in &row.piles {
            out.push(Line::from(Span::styled(label.clone(), Look::default())));
            for part in pile.chunks(per_line) {
                let part: Vec<&Tile> = part.iter().collect();
                let (a, b, c, m) = self.tiles(&part, marks, None);
                out.push(Line::from(a));
                out.push(Line::from(b));
                if m || keep_marks {
                    out.push(Line::from(c));
                }
            }
        }
        out
    }

    /// A seat's panel wrapped to `width`: its head (name and summary, captures by group), and
    /// its lines, each as the rows it takes, so that a line is shown whole or not at all.
    fn panel(&self, p: &SeatPanel, width: usize) -> PanelLines {
        let back = if self.color { "▒" } else { "#" };
        let bold = Look::default().add_modifier(Modifier::BOLD);
        let mut name: Vec<Vec<Span<'static>>> =
            vec![vec![Span::styled(p.name.clone(), bold), Span::raw(":")]];
        name.extend(p.summary.split(' ').map(|w| vec![Span::raw(w.to_string())]));
        if p.hidden > 0 {
            name.push(vec![Span::raw(format!(
                " {}",
                back.repeat(p.hidden.min(12))
            ))]);
        }
        // The name and summary, then the captures by group, packed into as few rows as fit.
        let mut tokens = name;
        for g in &p.groups {
            tokens.push(vec![Span::raw(format!("│ {}", g.label))]);
            // A long group is counted, not listed (its count is in the label).
            if g.tiles.len() <= 4 {
                for t in &g.tiles {
                    let label = format!("{}·{}", t.top, t.face.chars().take(3).collect::<String>());
                    tokens.push(vec![if self.color {
                        Span::styled(label, Look::default().fg(TONES[t.tone % TONES.len()]))
                    } else {
                        Span::raw(label)
                    }]);
                }
            }
        }
        let head = pack(tokens, width, "    ");
        let entries = p
            .lines
            .iter()
            .map(|l| {
                wrap(&format!("  {l}"), width)
                    .into_iter()
                    .map(Line::from)
                    .collect()
            })
            .collect();
        PanelLines { head, entries }
    }
}

/// A seat's panel as rows: the head always shown, the lines (yaku held first, then near ones)
/// as room allows.
struct PanelLines {
    head: Vec<Line<'static>>,
    entries: Vec<Vec<Line<'static>>>,
}

impl PanelLines {
    /// The head and the first `n` entries.
    fn take(self, n: usize) -> Vec<Line<'static>> {
        let mut out = self.head;
        out.extend(self.entries.into_iter().take(n).flatten());
        out
    }

    /// Rows of the head and the first entry (yaku held).
    fn base(&self) -> usize {
        self.head.len() + self.entries.first().map_or(0, Vec::len)
    }
}

/// Tokens (each a few styled spans that stay together) packed into lines of `width`
/// columns, a space between tokens; lines after the first start with `indent`.
fn pack(tokens: Vec<Vec<Span<'static>>>, width: usize, indent: &str) -> Vec<Line<'static>> {
    let width = width.max(10);
    let mut out: Vec<Line<'static>> = Vec::new();
    let mut line: Vec<Span<'static>> = Vec::new();
    let mut used = 0usize;
    // At the start of a line: no space before the next token.
    let mut fresh = true;
    for token in tokens {
        let w: usize = token.iter().map(Span::width).sum();
        if !fresh && used + 1 + w > width {
            out.push(Line::from(std::mem::take(&mut line)));
            line.push(Span::raw(indent.to_string()));
            used = indent.len();
        } else if !fresh {
            line.push(Span::raw(" "));
            used += 1;
        }
        fresh = false;
        used += w;
        line.extend(token);
    }
    if !line.is_empty() {
        out.push(Line::from(line));
    }
    out
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

/// The rectangle of an overlay: the frame less a margin of one cell.
fn overlay_rect(area: Rect) -> Rect {
    Rect {
        x: area.x + 1,
        y: area.y + 1,
        width: area.width.saturating_sub(2),
        height: area.height.saturating_sub(2),
    }
}

/// An overlay's text as the rows drawn in its box (wrapped to the box's inside).
fn overlay_lines(text: &str, area: Rect) -> Vec<String> {
    let inner = usize::from(overlay_rect(area).width.saturating_sub(3));
    wrap(text, inner)
}

fn draw_overlay(f: &mut Frame, o: &Overlay) {
    let area = f.area();
    let rect = overlay_rect(area);
    // The whole screen is cleared, so nothing of the table shows through or beside the box.
    f.render_widget(Clear, area);
    let lines: Vec<Line> = overlay_lines(&o.text, area)
        .into_iter()
        .skip(usize::from(o.scroll))
        .map(Line::from)
        .collect();
    f.render_widget(
        Paragraph::new(Text::from(lines)).block(
            Block::default()
                .borders(Borders::ALL)
                .title(format!(" {} ", o.title))
                .title_bottom(" Up/Down PgUp/PgDn scroll · any other key closes "),
        ),
        rect,
    );
}

/// The keys line under the prompt, as much of it as fits `width` (whole items only): the
/// play's, or `keys` (items separated by ` · `).
fn keys_line(width: usize, undo: bool, keys: Option<&str>) -> String {
    let mut items = vec![
        "←/→ choose",
        "Enter take",
        "? help",
        "r rules",
        "s scores",
        "h hint",
    ];
    if undo {
        items.push("u undo");
    }
    items.push("q save & leave");
    if let Some(keys) = keys {
        items = keys.split(" · ").collect();
    }
    let mut out = String::new();
    for item in items {
        let sep = if out.is_empty() { "" } else { " · " };
        if out.chars().count() + sep.len() + item.chars().count() >= width {
            break;
        }
        out.push_str(sep);
        out.push_str(item);
    }
    out
}

/// The rows under the table kept for the last moves on a narrow terminal, for two seats: the
/// player's own play and draw, and the bot's play and draw after them, stay on screen. Each
/// more seat keeps two rows more (its play and draw), so that after two bots moved in Go-Stop
/// the player's own move is still there.
const LOG_ROWS: usize = 5;

fn draw_frame(
    f: &mut Frame,
    board: &Board,
    open: &[Row],
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
    // A wide terminal keeps the log beside the table: the table keeps the 80 columns it is laid
    // out for and the log takes the rest (40 columns at 120, between 32 and 60); a narrow
    // terminal has the log below.
    let (main, side) = if area.width >= 110 {
        let log_width = area.width.saturating_sub(80).clamp(32, 60);
        let [m, s] =
            Layout::horizontal([Constraint::Min(70), Constraint::Length(log_width)]).areas(area);
        (m, Some(s))
    } else {
        (area, None)
    };
    let width = main.width;
    // Text is wrapped one column short of the edge: nothing reaches the last column but tiles.
    let text_width = usize::from(width).saturating_sub(1);
    let dim = Look::default().add_modifier(Modifier::DIM);
    let bold = Look::default().add_modifier(Modifier::BOLD);
    // The prompt: the question with its options packed side by side, the selection or what is
    // typed, a message, the keys.
    let mut ask: Vec<Line> = question_lines(prompt.question, text_width)
        .into_iter()
        .map(Line::from)
        .collect();
    if !prompt.question.is_empty() {
        let entry = if prompt.typed.is_empty() {
            prompt
                .selected
                .map_or_else(String::new, |s| format!("> {s}   (Enter)"))
        } else {
            format!("> {}_", prompt.typed)
        };
        ask.extend(
            wrap(&entry, text_width)
                .into_iter()
                .map(|l| Line::from(Span::styled(l, bold))),
        );
    }
    if !prompt.message.is_empty() {
        // A refusal is red; a hint is plain text.
        let red = if look.color && !prompt.message.starts_with("hint:") {
            Look::default().fg(Color::Red)
        } else {
            Look::default()
        };
        ask.extend(
            wrap(prompt.message, text_width)
                .into_iter()
                .map(|l| Line::from(Span::styled(l, red))),
        );
    }
    let keys = Line::from(Span::styled(
        keys_line(text_width, prompt.undo, prompt.keys),
        dim,
    ));
    let center = look.row(&board.center, marks, width, false, true);
    let hand = look.row(&board.hand, marks, width, prompt.numbered, false);
    let mut title: Vec<Line> = pack(
        std::iter::once(vec![Span::styled(board.title.clone(), bold)])
            .chain(std::iter::once(vec![Span::raw("·")]))
            .chain(board.scores.split(", ").enumerate().map(|(i, s)| {
                let comma = if i + 1 < board.scores.split(", ").count() {
                    ","
                } else {
                    ""
                };
                vec![Span::raw(format!("{s}{comma}"))]
            }))
            .collect(),
        text_width,
        "  ",
    );
    // A title longer than a line is broken at its own separators.
    if title.first().is_some_and(|l| l.width() > text_width) {
        title = wrap(&format!("{} · {}", board.title, board.scores), text_width)
            .into_iter()
            .map(Line::from)
            .collect();
    }
    let others: Vec<PanelLines> = board
        .others
        .iter()
        .map(|p| look.panel(p, text_width))
        .collect();
    let me = board.me.as_ref().map(|p| look.panel(p, text_width));
    // Other seats' hands face up (a replay), under their panels.
    let open: Vec<Line> = open
        .iter()
        .flat_map(|r| look.row(r, marks, width, false, false))
        .collect();
    let notes: Vec<Vec<Line>> = board
        .notes
        .iter()
        .map(|n| {
            wrap(n, text_width)
                .into_iter()
                .map(|l| Line::from(Span::styled(l, dim)))
                .collect()
        })
        .collect();
    // What is always shown: the title, each panel's head and yaku held, the first note, the
    // table, the hand and the prompt, and room for the last moves below a narrow table. The
    // rows left over go, whole lines at a time, to the near yaku (yours first, then the
    // others') and the other notes; what is still left to the log.
    let base = title.len()
        + open.len()
        + others.iter().map(PanelLines::base).sum::<usize>()
        + me.as_ref().map_or(0, PanelLines::base)
        + notes.first().map_or(0, Vec::len)
        + center.len()
        + hand.len()
        + ask.len();
    // Room for the log below a narrow table: `LOG_ROWS` (two more for each seat beyond two),
    // or fewer while it holds less.
    let log_most = LOG_ROWS + 2 * board.others.len().saturating_sub(1);
    let log_rows = if side.is_some() {
        0
    } else {
        let width = text_width.max(10);
        let mut rows = 0;
        for entry in log.iter().rev() {
            if rows >= log_most {
                break;
            }
            rows += wrap(entry, width).len();
        }
        rows.min(log_most)
    };
    let mut spare = usize::from(main.height).saturating_sub(base + log_rows);
    // The keys line next, when there is a row for it.
    if spare > 0 {
        spare -= 1;
        ask.push(keys);
    }
    let mut room = |entries: &[Vec<Line>], most: usize| {
        let mut n = 1;
        for e in entries.iter().skip(1).take(most) {
            if e.len() > spare {
                break;
            }
            spare -= e.len();
            n += 1;
        }
        n
    };
    let me_room = me.as_ref().map_or(0, |p| room(&p.entries, 3));
    let other_rooms: Vec<usize> = others.iter().map(|p| room(&p.entries, 3)).collect();
    let note_count = room(&notes, 5);
    let mut top: Vec<Line> = title;
    for (p, n) in others.into_iter().zip(other_rooms) {
        top.extend(p.take(n));
    }
    top.extend(open);
    top.extend(notes.into_iter().take(note_count).flatten());
    let mine: Vec<Line> = me.map_or_else(Vec::new, |p| p.take(me_room));
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
        let (rows, log_width) = if side.is_some() {
            (
                log_area.height.saturating_sub(2),
                log_area.width.saturating_sub(2),
            )
        } else {
            (log_area.height, log_area.width.saturating_sub(1))
        };
        // The newest moves, wrapped, as many rows as fit: the last row is the last move.
        let mut lines: Vec<Line> = Vec::new();
        for entry in log.iter().rev() {
            if lines.len() >= usize::from(rows) {
                break;
            }
            for l in wrap(entry, usize::from(log_width)).into_iter().rev() {
                lines.push(Line::from(l));
            }
        }
        lines.truncate(usize::from(rows));
        lines.reverse();
        let para = Paragraph::new(Text::from(lines));
        if side.is_some() {
            f.render_widget(
                para.block(Block::default().borders(Borders::LEFT).title(" moves ")),
                log_area,
            );
        } else {
            f.render_widget(para, log_area);
        }
    }
    f.render_widget(Paragraph::new(Text::from(ask)), g);
}

/// The question as rows of `width`: its first line wrapped, and its numbered options (lines
/// starting `N)`) packed side by side, each whole, so every option has a visible number.
fn question_lines(question: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut options: Vec<String> = Vec::new();
    let flush = |options: &mut Vec<String>, out: &mut Vec<String>| {
        let mut line = String::new();
        for o in options.drain(..) {
            let wide = line.chars().count() + 3 + o.chars().count() > width;
            if !line.is_empty() && wide {
                out.extend(wrap(&std::mem::take(&mut line), width));
            }
            if line.is_empty() {
                line = format!("  {o}");
            } else {
                line = format!("{line}   {o}");
            }
        }
        if !line.is_empty() {
            // An option longer than a line is wrapped like any text.
            out.extend(wrap(&line, width));
        }
    };
    for l in question.lines() {
        let t = l.trim_start();
        let numbered = t
            .split_once(") ")
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if numbered && l.starts_with(' ') {
            options.push(t.to_string());
        } else {
            flush(&mut options, &mut out);
            out.extend(wrap(l, width));
        }
    }
    flush(&mut options, &mut out);
    out
}

/// The keys of a replay on the table, for `?`.
const REPLAY_KEYS: &str = "\
keys:
  Right, Space, Enter   the next move
  Left, Backspace       the move before
  ] or PgDn             the next hand;  [ or PgUp  the hand before
  Home / End            the start / the end of the game
  a number, then Enter  that hand (g alone: the first)
  Tab                   see the table from the next seat
  s                     the scores and every finished hand so far
  r                     the rule sheet
  ?                     this help
  q, Esc or Ctrl-C      leave

Every hand is shown face up: a finished record is public.";

/// The keys line of a replay.
const REPLAY_KEYS_LINE: &str =
    "→ next · ← back · ]/[ hand · N Enter hand N · Tab seat · s scores · ? help · q leave";

/// A record read through once, for stepping on the table: the game at kept positions, what
/// happened on the way to each position, and where each hand starts. A position is the number
/// of the record's actions applied.
pub struct Replay<'r> {
    record: &'r crate::core::record::Record,
    /// Games at kept positions (each hand's start, and every [`Replay::EVERY`] actions), in
    /// order.
    kept: Vec<(usize, Box<dyn Game>)>,
    /// What happened on the way to each position (position 0: the deal), narrated.
    narration: Vec<String>,
    /// The position each hand starts at.
    hand_starts: Vec<usize>,
}

impl<'r> Replay<'r> {
    /// Positions between two kept games at most, so that stepping back replays few actions.
    const EVERY: usize = 32;

    /// Reads `record` through from `game` (its start), narrated by `table`; the record's first
    /// illegal action is an error.
    pub fn read(
        table: &mut dyn Table,
        mut game: Box<dyn Game>,
        record: &'r crate::core::record::Record,
    ) -> Result<Replay<'r>, crate::core::record::RecordError> {
        let events = game.drain_events();
        let mut narration = vec![table.narrate(&*game, &events)];
        let mut kept = vec![(0, game.box_clone())];
        let mut hand_starts = vec![0];
        let mut hands = game.history().len();
        for i in 0..record.actions.len() {
            record.apply(&mut *game, i)?;
            let events = game.drain_events();
            narration.push(table.narrate(&*game, &events));
            let pos = i + 1;
            let ended = game.history().len() > hands;
            hands = game.history().len();
            if ended && game.to_act().is_some() {
                hand_starts.push(pos);
            }
            if ended || pos % Self::EVERY == 0 {
                kept.push((pos, game.box_clone()));
            }
        }
        Ok(Replay {
            record,
            kept,
            narration,
            hand_starts,
        })
    }

    /// The last position.
    fn end(&self) -> usize {
        self.record.actions.len()
    }

    /// The game at `pos`: the kept game before it, played on.
    fn at(&self, pos: usize) -> Box<dyn Game> {
        let k = self
            .kept
            .partition_point(|(p, _)| *p <= pos)
            .saturating_sub(1);
        let (from, game) = &self.kept[k];
        let mut game = game.box_clone();
        for i in *from..pos {
            // Every action was applied once already, in `read`.
            let _ = self.record.apply(&mut *game, i);
        }
        game.drain_events();
        game
    }

    /// The hand being played at `pos`, 1-based.
    fn hand(&self, pos: usize) -> usize {
        self.hand_starts.partition_point(|s| *s <= pos)
    }

    /// The move log at `pos`: the newest lines narrated up to it.
    fn log(&self, pos: usize) -> VecDeque<String> {
        let mut log = VecDeque::new();
        for text in self.narration[..=pos].iter().rev() {
            for line in text
                .lines()
                .rev()
                .map(str::trim_end)
                .filter(|l| !l.trim().is_empty())
            {
                log.push_front(line.trim_start_matches("--- ").to_string());
            }
            if log.len() >= LOG_LINES {
                break;
            }
        }
        log
    }
}

impl FullScreen {
    /// Steps through `replay` on the table (every hand face up) until the viewer leaves.
    pub fn replay(&mut self, table: &dyn Table, replay: &Replay<'_>) {
        self.open_hands = true;
        self.keys = Some(REPLAY_KEYS_LINE.to_string());
        let end = replay.end();
        let hands = replay.hand_starts.len();
        let mut pos = 0;
        let mut game = replay.at(0);
        loop {
            self.log = replay.log(pos);
            let seats = game.seats().max(1);
            let finish = if pos < end {
                String::new()
            } else if game.is_over() {
                " · the game is over".to_string()
            } else {
                " · the record ends here: the game was not finished".to_string()
            };
            let question = format!(
                "replay · move {pos} of {end} · hand {} of {hands} · seen from {}{finish}",
                replay.hand(pos),
                table.style().who(self.viewer % seats)
            );
            let prompt = Prompt::only(&question);
            self.draw(table, &*game, &prompt);
            let Some(k) = self.key(None, &mut |me| me.draw(table, &*game, &prompt)) else {
                return;
            };
            if ctrl_c(&k) {
                return;
            }
            let typing = !self.typed.is_empty();
            let mut to = pos;
            match k.code {
                KeyCode::Char('q') | KeyCode::Esc if !typing => return,
                KeyCode::Esc => self.typed.clear(),
                KeyCode::Right | KeyCode::Char(' ') | KeyCode::Down => to = (pos + 1).min(end),
                KeyCode::Enter if !typing => to = (pos + 1).min(end),
                KeyCode::Left | KeyCode::Up => to = pos.saturating_sub(1),
                KeyCode::Backspace if !typing => to = pos.saturating_sub(1),
                KeyCode::Backspace => {
                    self.typed.pop();
                }
                KeyCode::Home | KeyCode::Char('g') => to = 0,
                KeyCode::End | KeyCode::Char('G') => to = end,
                KeyCode::Char(']') | KeyCode::PageDown => {
                    let h = replay.hand(pos);
                    to = replay.hand_starts.get(h).copied().unwrap_or(end);
                }
                KeyCode::Char('[') | KeyCode::PageUp => {
                    let h = replay.hand(pos);
                    let start = replay.hand_starts[h - 1];
                    to = if pos > start || h < 2 {
                        start
                    } else {
                        replay.hand_starts[h - 2]
                    };
                }
                KeyCode::Tab => self.viewer = (self.viewer + 1) % seats,
                KeyCode::Char(c) if c.is_ascii_digit() => {
                    self.typed.push(c);
                    self.message.clear();
                }
                KeyCode::Enter => {
                    let typed = std::mem::take(&mut self.typed);
                    match typed.parse::<usize>() {
                        Ok(n) if (1..=hands).contains(&n) => to = replay.hand_starts[n - 1],
                        _ => {
                            self.message = format!(
                                "there is no hand {typed}: the record has {}",
                                crate::front::plural(hands, "hand")
                            )
                        }
                    }
                }
                KeyCode::Char(c @ ('?' | 's' | 'r')) => {
                    let shown = match c {
                        '?' => self.modal(table, &*game, "help", REPLAY_KEYS.to_string(), false),
                        's' => self.show(table, &*game, Input::Score),
                        _ => self.show(table, &*game, Input::Rules),
                    };
                    // Ctrl-C in the box leaves.
                    if shown.is_err() {
                        return;
                    }
                }
                _ => {}
            }
            if to != pos {
                self.message.clear();
                let stepped = to == pos + 1;
                pos = to;
                game = replay.at(pos);
                // A step onto a hand's end shows how it ended, as at the table.
                let hand_end = replay.hand_starts.contains(&pos) || (pos == end && game.is_over());
                if stepped && hand_end {
                    self.log = replay.log(pos);
                    let text = replay.narration[pos].trim().to_string();
                    if !text.is_empty()
                        && self
                            .modal(
                                table,
                                &*game,
                                "the hand is over",
                                format!("{text}\n\npress a key to go on"),
                                false,
                            )
                            .is_err()
                    {
                        return;
                    }
                }
            }
        }
    }
}
