//! `yaku play` and `yaku replay` in a real terminal: the binary runs in a pseudo-terminal
//! (portable-pty) and its output is read by a terminal-screen parser (vt100), so these tests need
//! nothing outside cargo. They check the full-screen table at 80x24 and 120x40: the table and the
//! hand at every decision, marked matches, the end of a hand, resizing, Ctrl-C saving, hot seat,
//! and the line mode kept for `--line`.

use super::run::{bin, temp_dir, yaku};
use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Rows kept after they scroll off the top of the screen, for [`Term::all_text`].
const SCROLLBACK: usize = 1000;

/// A program running in a pseudo-terminal, with the screen it has drawn.
struct Term {
    screen: Arc<Mutex<vt100::Parser>>,
    writer: Box<dyn Write + Send>,
    master: Box<dyn MasterPty + Send>,
    child: Box<dyn Child + Send + Sync>,
}

impl Term {
    fn start(dir: &Path, args: &[&str], cols: u16, rows: u16) -> Term {
        Term::start_with(dir, args, cols, rows, &[])
    }

    /// [`Term::start`] with more environment variables set.
    fn start_with(dir: &Path, args: &[&str], cols: u16, rows: u16, env: &[(&str, &str)]) -> Term {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal opens");
        let mut cmd = CommandBuilder::new(bin());
        cmd.args(args);
        cmd.cwd(dir);
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
        for (name, value) in env {
            cmd.env(name, value);
        }
        let child = pty.slave.spawn_command(cmd).expect("yaku starts");
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().unwrap();
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            nz(rows),
            nz(cols),
            SCROLLBACK,
        )));
        let parser = Arc::clone(&screen);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                parser.lock().unwrap().process(&buf[..n]);
            }
        });
        let writer = pty.master.take_writer().unwrap();
        Term {
            screen,
            writer,
            master: pty.master,
            child,
        }
    }

    /// Everything the screen has shown that is still held, the rows scrolled off the top
    /// first (a page at a time, so a row may be read twice).
    fn all_text(&self) -> String {
        let mut parser = self.screen.lock().unwrap();
        parser.screen_mut().set_scrollback(usize::MAX);
        let mut offset = parser.screen().scrollback();
        let rows = usize::from(parser.screen().size().0.get());
        let mut out = String::new();
        loop {
            parser.screen_mut().set_scrollback(offset);
            out.push_str(&parser.screen().contents());
            out.push('\n');
            if offset == 0 {
                break;
            }
            offset = offset.saturating_sub(rows);
        }
        out
    }

    /// The screen's text, one line per row.
    fn text(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    /// Waits until the screen shows `text` (or one of `a|b`); the screen then.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.text();
            if text.split('|').any(|t| s.contains(t)) {
                // Let the frame finish drawing.
                std::thread::sleep(Duration::from_millis(100));
                return self.text();
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "`{text}` never appeared; the screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
        std::thread::sleep(Duration::from_millis(60));
    }

    /// Resizes the terminal. The screen parser takes the new size first, and holds it while the
    /// pseudo-terminal changes: everything the program draws for the new size is then read at
    /// that size. Resized the other way round, a busy machine let the reader thread parse the
    /// program's redraw at the old size between the two steps, and the program, which draws only
    /// what changed, never drew the lost text again.
    fn resize(&mut self, cols: u16, rows: u16) {
        let mut screen = self.screen.lock().unwrap();
        screen.set_size(nz(rows), nz(cols));
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
    }

    /// Waits for the program to end; its exit code.
    fn exit_code(&mut self) -> u32 {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.exit_code();
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "yaku did not end; the screen:\n{}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// The bold, reversed or underlined cells' text (the marked tiles), row by row.
    fn marked(&self) -> Vec<String> {
        let p = self.screen.lock().unwrap();
        let screen = p.screen();
        let (rows, cols) = screen.size();
        (0..rows.get())
            .map(|r| {
                (0..cols.get())
                    .filter_map(|c| screen.cell(r, c))
                    .filter(|cell| cell.inverse())
                    .map(|cell| cell.contents().to_string())
                    .collect::<String>()
            })
            .filter(|s| !s.trim().is_empty())
            .collect()
    }
}

impl Term {
    /// The rows whose last column holds a character, as text: on the table only a tile's edge
    /// may reach it (text is wrapped a column short), so anything else there was cut.
    fn full_rows(&self) -> Vec<String> {
        let p = self.screen.lock().unwrap();
        let screen = p.screen();
        let (rows, cols) = screen.size();
        (0..rows.get())
            .filter(|&r| {
                screen
                    .cell(r, cols.get() - 1)
                    .is_some_and(|c| !c.contents().trim().is_empty())
            })
            .map(|r| {
                (0..cols.get())
                    .filter_map(|c| screen.cell(r, c))
                    .map(|c| c.contents().to_string())
                    .collect()
            })
            .collect()
    }

    /// Checks that an overlay's box is whole: corners at the second row and column and at the
    /// second-last ones, sides on every row between, nothing outside it.
    fn assert_box_intact(&self) {
        let p = self.screen.lock().unwrap();
        let screen = p.screen();
        let (rows, cols) = (screen.size().0.get(), screen.size().1.get());
        let at = |r: u16, c: u16| {
            screen
                .cell(r, c)
                .map_or(String::new(), |c| c.contents().to_string())
        };
        let text = screen.contents();
        assert_eq!(at(1, 1), "┌", "{text}");
        assert_eq!(at(1, cols - 2), "┐", "{text}");
        assert_eq!(at(rows - 2, 1), "└", "{text}");
        assert_eq!(at(rows - 2, cols - 2), "┘", "{text}");
        for r in 2..rows - 2 {
            assert_eq!(at(r, 1), "│", "left border, row {r}:\n{text}");
            assert_eq!(at(r, cols - 2), "│", "right border, row {r}:\n{text}");
        }
        for r in 0..rows {
            for c in [0, cols - 1] {
                assert!(
                    at(r, c).trim().is_empty(),
                    "nothing beside the box, row {r}:\n{text}"
                );
            }
        }
    }
}

/// Asserts that no row of the screen ends in a cut word: only tiles reach the last column.
fn assert_nothing_cut(t: &Term, what: &str) {
    for row in t.full_rows() {
        let row = row.trim_end();
        assert!(
            row.ends_with(']') || row.ends_with('<') || row.ends_with('*') || row.ends_with('│'),
            "{what}: a line reaches the edge and is cut:\n{row}\nthe screen:\n{}",
            t.text()
        );
    }
}

fn nz(n: u16) -> std::num::NonZero<u16> {
    std::num::NonZero::new(n).expect("a terminal has rows and columns")
}

impl Drop for Term {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// The screen with trailing spaces removed (for snapshots).
/// The two terminal sizes every fault of the table is checked at: the smallest usual terminal
/// and a roomy one.
const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

/// Lines of text wrapped once: no line ends where the next line's first word would still have
/// fitted (as when text wrapped for one width is wrapped again for a narrower one, "(or leave
/// it on" / "the table)"). `lines` are a box's inside, `width` its columns.
fn assert_wrapped_once(lines: &[String], width: usize, what: &str) {
    for pair in lines.windows(2) {
        let (line, next) = (pair[0].trim_end(), pair[1].trim_end());
        let body = next.trim_start();
        // A continuation is indented deeper than a new line or bullet starts.
        let continues = next.len() - body.len() >= 2 && !body.starts_with("- ") && !line.is_empty();
        let Some(word) = body.split(' ').next().filter(|w| !w.is_empty()) else {
            continue;
        };
        // The screen wraps a column or two short of the box's edge.
        if continues {
            assert!(
                line.chars().count() + 1 + word.chars().count() > width.saturating_sub(2),
                "{what}: \"{word}\" would have fitted on the line before (wrapped twice):\n{line}\n{next}"
            );
        }
    }
}

/// The inside of the box drawn on the screen (between its `│` borders), a line a row.
fn box_inside(screen: &str) -> (Vec<String>, usize) {
    let mut width = 0;
    let lines = screen
        .lines()
        .filter_map(|row| {
            let start = row.find('│')? + '│'.len_utf8();
            let end = row.rfind('│')?;
            (end > start).then(|| {
                width = row[start..end].chars().count();
                row[start..end].to_string()
            })
        })
        .collect();
    (lines, width)
}

fn trimmed(screen: &str) -> String {
    screen
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        .trim_end()
        .to_string()
}

#[test]
fn the_table_fits_80x24_with_hand_table_scores_and_marks() {
    let dir = temp_dir("tty-80");
    let mut t = Term::start(
        &dir,
        &["play", "koikoi", "--seed", "12", "--save", "s.json"],
        80,
        24,
    );
    let s = t.wait_for("play a card from your hand");
    for part in ["Koi-Koi", "round 1 of 12", "table (", "your hand", "greedy"] {
        assert!(s.contains(part), "`{part}` on the first screen:\n{s}");
    }
    assert_eq!(s.lines().count(), 24, "the frame fits 24 rows:\n{s}");
    // The first hand card is chosen: it and the table cards it would take are marked.
    assert!(!t.marked().is_empty(), "the chosen card is marked:\n{s}");
    insta::assert_snapshot!("tty_80x24_first_decision", trimmed(&s));
    // The arrows move the choice: the second hand card (a February chaff) marks the two
    // February cards on the table it would capture, besides itself.
    t.send("\x1b[C");
    let s = t.wait_for("play Plum Chaff");
    let marked = t.marked();
    assert_eq!(
        marked.len(),
        4,
        "two table rows and two hand rows are marked:\n{s}\n{marked:?}"
    );
    assert!(marked[0].matches("Feb").count() == 2, "{marked:?}");
    // Enter plays it. Two February cards lie on the table, so the player is asked which to
    // take (waited for by name: the question it replaces, still on the screen until the next
    // frame, also reads "play a card"); Enter takes the first. The bot answers; we are asked
    // again.
    t.send("\r");
    t.wait_for("capture which?");
    t.send("\r");
    let s = t.wait_for("play a card from your hand");
    assert!(
        s.contains("ribbon 2 Feb·Poe") && s.contains("greedy draws"),
        "your captures and the bot's answer are shown:\n{s}"
    );
    // Help and the rule sheet are overlays; any key closes them.
    t.send("?");
    t.wait_for("Left/Right");
    t.send("x");
    t.send("r");
    t.wait_for("Deck");
    t.send("\x1b");
    t.wait_for("play a card from your hand");
    // Resizing redraws the whole table at the new size.
    t.resize(120, 40);
    t.send("\x1b");
    let s = t.wait_for("moves");
    assert!(s.contains("your hand") && s.contains("table ("), "{s}");
    // Ctrl-C saves and says how to resume.
    t.send("\x03");
    let s = t.wait_for("resume it with");
    assert!(s.contains("game saved to s.json"), "{s}");
    assert_eq!(t.exit_code(), 0);
    assert!(dir.join("s.json").exists());

    // The saved game resumes on the full-screen table.
    let mut t = Term::start(&dir, &["play", "--resume", "s.json"], 80, 24);
    t.wait_for("play a card from your hand");
    t.send("q");
    t.wait_for("resume it with");
    assert_eq!(t.exit_code(), 0);
}

#[test]
fn a_typed_name_with_completion_and_a_wrong_name_gets_a_reason() {
    let dir = temp_dir("tty-typed");
    let mut t = Term::start(
        &dir,
        &[
            "play",
            "koikoi",
            "--seed",
            "12",
            "--save",
            "s.json",
            "--no-color",
        ],
        120,
        40,
    );
    let s = t.wait_for("play a card from your hand");
    insta::assert_snapshot!("tty_120x40_first_decision_plain", trimmed(&s));
    assert!(!s.contains('\u{1b}'));
    // Without colour, the chosen card is in > < and the cards it would capture in * *.
    t.send("\x1b[C");
    let s = t.wait_for(">Feb");
    assert_eq!(s.matches("*Feb   *").count(), 2, "{s}");
    t.send("\x1b[D");
    t.send("/pine-cran\r");
    let s = t.wait_for("did you mean");
    assert!(s.contains("`pine-crane`"), "{s}");
    t.send("9\r");
    t.wait_for("no card 9");
    // Too small a terminal says so and keeps the question; enlarged, the table is back.
    t.resize(40, 10);
    t.wait_for("the table needs a terminal");
    t.resize(120, 40);
    t.wait_for("your hand");
    t.send("\x03");
    t.wait_for("game saved");
}

#[test]
fn a_whole_hand_against_the_bot_ends_with_its_summary() {
    let dir = temp_dir("tty-hand");
    let mut t = Term::start(
        &dir,
        &[
            "play", "koikoi", "--seed", "5", "--rounds", "1", "--speed", "instant", "--save",
            "s.json", "--record", "r.json",
        ],
        80,
        24,
    );
    // Enter takes the chosen option at every decision (a card, then stop after a yaku) and
    // closes the end-of-game summary. One key at a time: Enter is pressed only when the program
    // waits for it (a chosen option or a "press a key" box on the screen), on a screen that is
    // not the one the last Enter answered and has stayed the same for a moment (drawn whole).
    // Pressed blindly, a key that waited in the input could close the summary before it was
    // ever seen on a busy machine.
    let start = Instant::now();
    let mut summary = String::new();
    let mut answered = String::new();
    let code = loop {
        if let Some(status) = t.child.try_wait().unwrap() {
            break status.exit_code();
        }
        let s = t.text();
        if s.contains("the game is over") || s.contains("the hand is over") {
            summary = s.clone();
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the hand never ended:\n{s}"
        );
        std::thread::sleep(Duration::from_millis(100));
        let waits = s.contains("(Enter)") || s.contains("press a key");
        if waits && s != answered && t.text() == s {
            t.send("\r");
            answered = s;
        }
    };
    assert_eq!(code, 0);
    assert!(
        summary.contains("round 1"),
        "the summary shows the hand:\n{summary}"
    );
    // The result stays on the normal screen after the table closes.
    let after = t.text();
    assert!(after.contains("game over"), "{after}");
    assert!(dir.join("r.json").exists());
}

#[test]
fn hot_seat_hides_the_table_until_the_next_player_is_ready() {
    let dir = temp_dir("tty-hot");
    let mut t = Term::start(
        &dir,
        &[
            "play",
            "koikoi",
            "--seed",
            "3",
            "--players",
            "human,human",
            "--save",
            "s.json",
        ],
        80,
        24,
    );
    t.wait_for("play a card from your hand");
    t.send("\r");
    let s = t.wait_for("pass the keyboard to human 2");
    assert!(!s.contains("hand"), "no hand shows while passing:\n{s}");
    t.send(" ");
    let s = t.wait_for("play a card from your hand");
    assert!(s.contains("human 2's hand"), "{s}");
    t.send("q");
    t.wait_for("game saved");
}

#[test]
fn line_mode_on_a_terminal_and_replay_stepping() {
    let dir = temp_dir("tty-line");
    let mut t = Term::start(
        &dir,
        &[
            "play", "koikoi", "--seed", "12", "--line", "--save", "s.json",
        ],
        200,
        60,
    );
    t.wait_for("play a card from your hand");
    // Line editing: an arrow key moves the cursor instead of typing an escape code.
    t.send("hlp\x1b[D\x1b[De\r");
    let s = t.wait_for("at any prompt:");
    assert!(!s.contains("^[["), "{s}");
    // Tab completes the card names offered now.
    t.send("pine-p\t\r");
    t.wait_for("you play Pine Poetry Ribbon");
    t.send("quit\r");
    t.wait_for("game saved to s.json");
    drop(t);

    // Replay steps one action per Enter.
    yaku(&[
        "play",
        "koikoi",
        "--players",
        "greedy,greedy",
        "--seed",
        "3",
        "--rounds",
        "1",
        "--record",
        "g.json",
    ])
    .current_dir(&dir)
    .expect(0);
    let mut t = Term::start(&dir, &["replay", "g.json", "--line"], 200, 60);
    t.wait_for("[action 1/");
    t.send("\r");
    t.wait_for("[action 2/");
    t.send("q\r");
    assert_eq!(t.exit_code(), 0);
    assert!(!t.text().contains("[action 3/"));
}

#[test]
fn every_family_plays_on_the_same_table() {
    let dir = temp_dir("tty-families");
    for (ruleset, players, asks) in [
        ("koikoi", "human,greedy", "play a card from your hand"),
        ("scopa", "human,greedy", "play a card from your hand"),
        ("baccarat", "human,best", "stake how many chips"),
        ("oicho-kabu", "human,best,best", "bet how many chips"),
        ("kolyesi", "human,seed,seed", "bet how many chips"),
        (
            "schnapsen",
            "human,greedy",
            "your lead|your card to the trick",
        ),
        (
            "gostop",
            "human,greedy,greedy",
            "play a card from your hand",
        ),
        ("matgo", "human,greedy", "play a card from your hand"),
    ] {
        let save = format!("{ruleset}.json");
        let mut t = Term::start(
            &dir,
            &[
                "play",
                ruleset,
                "--players",
                players,
                "--seed",
                "7",
                "--no-color",
                "--save",
                &save,
            ],
            80,
            24,
        );
        let s = t.wait_for(asks);
        assert_eq!(s.lines().count(), 24, "{ruleset} fits 24 rows:\n{s}");
        assert_nothing_cut(&t, ruleset);
        insta::assert_snapshot!(format!("tty_80x24_{ruleset}"), trimmed(&s));
        // The pop-ups wrap inside their box, with its borders whole and nothing of the table
        // showing.
        for key in ["?", "r", "s"] {
            t.send(key);
            t.wait_for("any other key closes");
            std::thread::sleep(Duration::from_millis(200));
            t.assert_box_intact();
            t.send("\x1b");
            t.wait_for(asks);
        }
        t.send("q");
        t.wait_for("resume it with");
        assert_eq!(t.exit_code(), 0, "{ruleset}");
        assert!(dir.join(&save).exists(), "{ruleset} saved");
    }
}

#[test]
fn a_hangup_or_term_signal_gives_the_terminal_back_and_saves() {
    let dir = temp_dir("tty-term");
    let mut t = Term::start(
        &dir,
        &["play", "koikoi", "--seed", "12", "--save", "s.json"],
        80,
        24,
    );
    t.wait_for("play a card from your hand");
    let pid = t.child.process_id().expect("the child has a pid");
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let s = t.wait_for("interrupted: game saved to s.json");
    // Back on the normal screen: the table is gone, the header line is there.
    assert!(s.contains("play this game again with --seed 12"), "{s}");
    assert!(!s.contains("your hand"), "{s}");
    assert_eq!(t.exit_code(), 128 + 15);
    let out = yaku(&["play", "--resume", "s.json", "--line"])
        .current_dir(&dir)
        .stdin("quit\n")
        .expect(0);
    assert!(
        out.stdout.contains("resumed from `s.json`"),
        "{}",
        out.stdout
    );
}

#[test]
fn every_schnapsen_declaration_has_a_number_and_the_trump_lies_apart() {
    let dir = temp_dir("tty-schnapsen-lead");
    let mut t = Term::start(
        &dir,
        &[
            "play",
            "schnapsen",
            "--seed",
            "6",
            "--no-color",
            "--save",
            "s.json",
        ],
        80,
        24,
    );
    let s = t.wait_for("your lead");
    for option in [
        "5) play",
        "6) Exchange",
        "7) Close the stock",
        "8) Claim 66",
    ] {
        assert!(s.contains(option), "`{option}` on the screen:\n{s}");
    }
    assert!(
        s.contains("│ turned up"),
        "the trump apart from the trick:\n{s}"
    );
    assert_nothing_cut(&t, "schnapsen lead");
    t.send("q");
    t.wait_for("resume it with");
}

#[test]
fn after_a_bots_play_and_draw_your_own_move_and_its_capture_are_on_screen() {
    let dir = temp_dir("tty-log");
    let mut t = Term::start(
        &dir,
        &[
            "play",
            "matgo",
            "--seed",
            "7",
            "--no-color",
            "--speed",
            "instant",
            "--save",
            "s.json",
        ],
        80,
        24,
    );
    t.wait_for("play a card from your hand");
    t.send("\r");
    // Any capture choice takes its first option.
    let s = t.wait_for("play a card from your hand|capture which?");
    if s.contains("capture which?") {
        t.send("\r");
    }
    let s = t.wait_for("greedy draws");
    let s = if s.contains("play a card from your hand") {
        s
    } else {
        t.wait_for("play a card from your hand")
    };
    assert!(s.contains("you play "), "your own move:\n{s}");
    assert!(s.contains("greedy plays "), "the bot's play:\n{s}");
    assert!(s.contains("greedy draws "), "the bot's draw:\n{s}");
    assert_nothing_cut(&t, "matgo after a turn");
    t.send("q");
    t.wait_for("resume it with");
}

#[test]
fn undo_and_hint_on_the_table_and_in_lines() {
    for (cols, rows) in SIZES {
        undo_and_hint_on_the_table(cols, rows);
    }
    let dir = temp_dir("tty-undo-lines");
    // Piped: `hint` and `undo` as commands; hot seat refuses undo.
    let out = yaku(&["play", "koikoi", "--seed", "12", "--save", "p.json"])
        .current_dir(&dir)
        .stdin("hint\n1\nundo\nundo\nquit\n")
        .expect(0);
    assert!(
        out.stdout
            .contains("hint: the greedy bot would play Plum Chaff 2"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("your last move is taken back"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("there is no move of yours to take back yet"),
        "{}",
        out.stdout
    );
    let out = yaku(&[
        "play",
        "koikoi",
        "--seed",
        "12",
        "--players",
        "human,human",
        "--save",
        "h.json",
    ])
    .current_dir(&dir)
    .stdin("1\nundo\nquit\n")
    .expect(0);
    assert!(
        out.stdout
            .contains("undo is for a game of one person against bots"),
        "{}",
        out.stdout
    );
}

/// The hint shown once and undo giving back the card, on the full-screen table at a size.
fn undo_and_hint_on_the_table(cols: u16, rows: u16) {
    let dir = temp_dir("tty-undo");
    let mut t = Term::start(
        &dir,
        &[
            "play",
            "koikoi",
            "--seed",
            "12",
            "--no-color",
            "--speed",
            "instant",
            "--save",
            "s.json",
        ],
        cols,
        rows,
    );
    t.wait_for("play a card from your hand");
    // The hint names the move and why, in the game's words.
    t.send("h");
    let s = t.wait_for("hint: the greedy bot would");
    assert!(s.contains("play Plum Chaff 2"), "{s}");
    assert_eq!(
        s.matches("hint: the greedy bot would").count(),
        1,
        "the hint is shown once, under the prompt:\n{s}"
    );
    assert!(s.contains("matches"), "{s}");
    // A move, then undo: the hand is whole again and the record keeps the move taken back.
    t.send("\r");
    t.wait_for("you play Pine Poetry Ribbon");
    t.wait_for("play a card from your hand");
    t.send("u");
    let s = t.wait_for("taken back");
    assert!(
        s.contains(">Jan"),
        "the Pine card is back in the hand:\n{s}"
    );
    t.send("q");
    t.wait_for("resume it with");
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("s.json")).unwrap()).unwrap();
    // The bot's first move stays; yours and its answer were taken back.
    assert_eq!(record["actions"].as_array().unwrap().len(), 1, "{record}");
    assert_eq!(record["undone"][0]["at"], 1, "{record}");
    assert_eq!(record["undone"][0]["actions"][0]["card"], "pine-poetry");
    // Its events are the game's as it stands, the moves taken back gone.
    super::records_events_are_the_games(&dir.join("s.json"));
    // The record replays, and resumes.
    yaku(&["replay", "s.json", "--json"])
        .current_dir(&dir)
        .expect(0);
}

#[test]
fn the_call_to_play_on_says_what_stopping_scores_and_what_the_opponent_needs_and_stop_is_chosen() {
    let dir = temp_dir("tty-decide");
    let mut t = Term::start(
        &dir,
        &[
            "play",
            "koikoi",
            "--seed",
            "7",
            "--rounds",
            "1",
            "--no-color",
            "--speed",
            "instant",
            "--save",
            "s.json",
        ],
        80,
        24,
    );
    // Enter takes the first card at every play until the yaku is made.
    let start = Instant::now();
    let mut answered = String::new();
    let s = loop {
        let s = t.text();
        if s.contains("you made a yaku") {
            std::thread::sleep(Duration::from_millis(200));
            break t.text();
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no yaku was made:\n{s}"
        );
        std::thread::sleep(Duration::from_millis(100));
        if s.contains("(Enter)") && s != answered && t.text() == s {
            t.send("\r");
            answered = s;
        }
    };
    // The question wraps: read it as words.
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("greedy needs 2 more cards for Tsukimi-zake"),
        "{s}"
    );
    assert!(flat.contains("Stop (stop and score): take 6 points"), "{s}");
    assert!(
        s.contains("> Stop   (Enter)"),
        "stop is the option chosen first:\n{s}"
    );
    assert_nothing_cut(&t, "the call to play on");
    t.send("q");
    t.wait_for("resume it with");
}

#[test]
fn replay_on_the_table_steps_back_and_forth_jumps_to_a_hand_and_shows_every_hand() {
    let dir = temp_dir("tty-replay");
    yaku(&[
        "play",
        "koikoi",
        "--players",
        "greedy,greedy",
        "--seed",
        "3",
        "--rounds",
        "2",
        "--record",
        "g.json",
    ])
    .current_dir(&dir)
    .expect(0);
    let mut t = Term::start(&dir, &["replay", "g.json"], 80, 24);
    let s = t.wait_for("move 0 of");
    // Both hands face up: the viewer's and the other seat's.
    assert!(s.contains("greedy 1's hand"), "{s}");
    assert!(s.contains("greedy 2's hand"), "{s}");
    assert!(!s.contains("in hand #"), "no hand face down:\n{s}");
    assert!(s.contains("hand 1 of 2"), "{s}");
    assert_nothing_cut(&t, "replay at the start");
    // Forward and back.
    t.send("\x1b[C");
    let s = t.wait_for("move 1 of");
    assert!(s.contains("greedy 1 plays"), "{s}");
    t.send("\x1b[C");
    t.wait_for("move 2 of");
    t.send("\x1b[D");
    t.wait_for("move 1 of");
    // A jump to the second hand, and back to the first.
    t.send("2\r");
    let s = t.wait_for("hand 2 of 2");
    assert!(s.contains("round 2 of 2 ·"), "{s}");
    t.send("[");
    t.wait_for("hand 1 of 2");
    t.send("9\r");
    t.wait_for("there is no hand 9: the record has 2 hands");
    // Another seat's view, the scores, the end.
    t.send("\t");
    t.wait_for("seen from greedy 2");
    t.send("\x1b[F");
    let s = t.wait_for("the game is over");
    assert!(s.contains("move "), "{s}");
    t.send("s");
    let s = t.wait_for("after 2 hands");
    assert!(s.contains("total:"), "{s}");
    t.assert_box_intact();
    t.send("x");
    t.wait_for("the game is over");
    // Stepping onto a hand's end shows how it ended.
    t.send("1\r");
    t.wait_for("hand 1 of 2");
    t.send("]");
    t.wait_for("hand 2 of 2");
    t.send("\x1b[D");
    t.wait_for("hand 1 of 2");
    t.send("\x1b[C");
    let s = t.wait_for("the hand is over");
    assert!(s.contains("won by"), "{s}");
    t.send("x");
    t.send("q");
    assert_eq!(t.exit_code(), 0);
}

#[test]
fn replay_on_the_table_in_every_family() {
    let dir = temp_dir("tty-replay-all");
    for (ruleset, players) in [
        ("gostop", "greedy,greedy,greedy"),
        ("schnapsen", "greedy,greedy"),
        ("scopa", "greedy,greedy"),
        ("kolyesi", "seed,seed"),
        ("seotda", "greedy,greedy,greedy"),
    ] {
        let file = format!("{ruleset}.json");
        yaku(&[
            "play",
            ruleset,
            "--players",
            players,
            "--seed",
            "5",
            "--rounds",
            "2",
            "--record",
            &file,
        ])
        .current_dir(&dir)
        .expect(0);
        let mut t = Term::start(&dir, &["replay", &file], 80, 24);
        t.wait_for("move 0 of");
        assert_nothing_cut(&t, ruleset);
        t.send("\x1b[C\x1b[C");
        let s = t.wait_for("move 2 of");
        if ruleset == "kolyesi" {
            // After the bets the banker's tiles are dealt, and a replay shows them.
            assert!(s.contains("the banker's tiles"), "{s}");
            assert!(!s.contains("face down"), "{s}");
        }
        t.send("\x1b[F");
        t.wait_for("the game is over");
        assert_nothing_cut(&t, ruleset);
        t.send("\x1b[H");
        t.wait_for("move 0 of");
        t.send("q");
        assert_eq!(t.exit_code(), 0, "{ruleset}");
    }
}

#[test]
fn learn_on_the_table_shows_a_lesson_box_and_enter_takes_the_suggested_move() {
    for (cols, rows) in SIZES {
        learn_on_the_table(cols, rows);
    }
}

/// The lesson box at a size: the rule sheet's play quoted wrapped once, the choices a rule
/// offers listed under it, then the suggestion taken by Enter.
fn learn_on_the_table(cols: u16, rows: u16) {
    let dir = temp_dir("tty-learn");
    let mut t = Term::start(&dir, &["learn", "koikoi"], cols, rows);
    let s = t.wait_for(" lesson ");
    assert!(s.contains("Koi-Koi (standard): Two players"), "{s}");
    t.assert_box_intact();
    let (inside, width) = box_inside(&s);
    assert_wrapped_once(&inside, width, &format!("the lesson at {cols}x{rows}"));
    // Koi-koi and Stop are bullets of their own under the rule that offers them.
    let declares = inside
        .iter()
        .position(|l| l.contains("the player declares:"))
        .unwrap_or_else(|| panic!("{s}"));
    assert!(
        inside[declares + 1].starts_with("  - Koi-koi: "),
        "{}",
        inside[declares + 1]
    );
    // The lesson is long: on a small screen it scrolls, and any other key closes it.
    let s = if s.contains("Lesson 1:") && s.contains("Enter takes that move") {
        s
    } else {
        t.send("\x1b[6~");
        t.wait_for("Lesson 1:")
    };
    assert!(s.contains("Enter takes that move"), "{s}");
    t.send("x");
    let s = t.wait_for("play a card from your hand");
    // The suggested card is chosen first.
    assert!(s.contains("> play Cherry Poetry Ribbon   (Enter)"), "{s}");
    assert_nothing_cut(&t, "learn");
    t.send("\r");
    t.wait_for("Lesson 2:| lesson ");
    t.send("q");
    t.send("q");
    let _ = t.exit_code();
}

#[test]
fn after_two_bots_moved_in_go_stop_your_own_move_is_still_on_screen() {
    let dir = temp_dir("tty-log-3");
    let mut t = Term::start(
        &dir,
        &[
            "play",
            "gostop",
            "--seed",
            "7",
            "--no-color",
            "--speed",
            "instant",
            "--save",
            "s.json",
        ],
        80,
        24,
    );
    t.wait_for("play a card from your hand");
    t.send("\r");
    // Every choice on the way takes its first option, until the next card to play.
    let s = loop {
        let s = t.wait_for("play a card from your hand|capture which?|choose");
        if s.contains("greedy 2 draws") && s.contains("play a card from your hand") {
            break s;
        }
        if !s.contains("play a card from your hand") {
            t.send("\r");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    // Your own turn (its draw at least: here a bot's shake takes a row of the log too).
    assert!(s.contains("you draw "), "your own move:\n{s}");
    assert!(s.contains("greedy 1 plays "), "the first bot's play:\n{s}");
    assert!(s.contains("greedy 2 draws "), "the second bot's draw:\n{s}");
    assert_nothing_cut(&t, "gostop after a turn");
    t.send("q");
    t.wait_for("resume it with");
}

/// `yaku man` on a terminal shows the page through `man -l -` instead of printing roff; where
/// `man` cannot run, it says so and prints the page.
#[test]
fn the_man_page_is_shown_through_man_on_a_terminal() {
    for (cols, rows) in SIZES {
        the_man_page_through_man(cols, rows);
    }
}

fn the_man_page_through_man(cols: u16, rows: u16) {
    let dir = temp_dir("man-terminal");
    // A `man` of the test's own: it says what it was given.
    let bin_dir = dir.join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let man = bin_dir.join("man");
    std::fs::write(
        &man,
        "#!/bin/sh\necho \"man was given $* and $(wc -l) lines\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&man, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!("{}:/usr/bin:/bin", bin_dir.display());
    let mut term = Term::start_with(&dir, &["man"], cols, rows, &[("PATH", &path)]);
    let screen = term.wait_for("man was given");
    assert!(screen.contains("man was given -l - and"), "{screen}");
    assert!(!screen.contains(".TH"), "{screen}");
    assert_eq!(term.exit_code(), 0);
    // No `man` to be found: the roff, with a note.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let mut term = Term::start_with(
        &dir,
        &["man"],
        cols,
        rows,
        &[("PATH", empty.to_str().unwrap())],
    );
    let screen = term.wait_for("printed in roff");
    assert!(screen.contains("`man` cannot be run"), "{screen}");
    assert_eq!(term.exit_code(), 0);
}

/// `yaku rules` on a terminal narrower than the sheet wraps its text to the terminal's width:
/// no line is broken again by the terminal (which broke words: "sco/re").
#[test]
fn the_rule_sheet_fits_a_narrow_terminal() {
    // As tall as the sheet, so that every row stays on the screen to be read.
    for cols in [60, 80, 120] {
        rule_sheet_fits(cols);
    }
}

fn rule_sheet_fits(cols: u16) {
    let dir = temp_dir("rules-narrow");
    let mut term = Term::start(&dir, &["rules", "koikoi"], cols, 300);
    term.wait_for("Sources and notes");
    assert_eq!(term.exit_code(), 0);
    let screen = term.screen.lock().unwrap();
    let screen = screen.screen();
    let wrapped: Vec<u16> = (0..300).filter(|&row| screen.row_wrapped(row)).collect();
    assert!(
        wrapped.is_empty(),
        "rows broken by the terminal: {wrapped:?}\n{}",
        screen.contents()
    );
}

/// Ctrl-C during `yaku sim` stops it early and reports the games played, instead of throwing
/// them away; its exit code is 130, as for a command Ctrl-C ended.
#[test]
fn an_interrupted_simulation_reports_the_games_played() {
    for (cols, rows) in SIZES {
        interrupted_simulation(cols, rows);
    }
}

fn interrupted_simulation(cols: u16, rows: u16) {
    let dir = temp_dir("sim-interrupt");
    let mut term = Term::start(
        &dir,
        &["sim", "koikoi", "--games", "10000000", "--threads", "2"],
        cols,
        rows,
    );
    let screen = term.wait_for("games/s");
    // The rate is a whole number of games, its thousands grouped (it changed precision).
    let rate = screen
        .split(" games/s")
        .next()
        .and_then(|before| before.rsplit(' ').next())
        .unwrap_or_default();
    assert!(
        !rate.is_empty() && rate.chars().all(|c| c.is_ascii_digit() || c == ','),
        "{rate:?} in {screen}"
    );
    term.send("\u{3}");
    // The report may be taller than the screen: it is read with the rows scrolled away.
    assert_eq!(term.exit_code(), 130);
    let start = Instant::now();
    let mut screen = term.all_text();
    while !screen.contains("win rate") && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
        screen = term.all_text();
    }
    assert!(screen.contains("interrupted after"), "{screen}");
    assert!(screen.contains("of 10000000 games"), "{screen}");
    assert!(screen.contains("win rate"), "{screen}");
}

#[test]
fn q_pressed_while_a_bot_moves_leaves_instead_of_skipping_the_pause() {
    for (cols, rows) in SIZES {
        q_pressed_while_a_bot_moves(cols, rows);
    }
}

fn q_pressed_while_a_bot_moves(cols: u16, rows: u16) {
    let dir = temp_dir("tty-q-pause");
    // The bot plays first (seat 0) and the table pauses a long while on what happens without
    // the player: `q` then saves and leaves, where it only cut the pause short and was lost.
    let mut t = Term::start(
        &dir,
        &[
            "play",
            "koikoi",
            "--players",
            "greedy,human",
            "--seed",
            "3",
            "--no-color",
            "--speed",
            "60000",
            "--save",
            "s.json",
        ],
        cols,
        rows,
    );
    // The table lingers on the deal before the bot's first move.
    t.wait_for("greedy deals");
    t.send("q");
    t.wait_for("resume it with");
    assert!(dir.join("s.json").is_file(), "the game was saved");
}

#[test]
fn undo_into_a_finished_hand_says_that_hand_is_taken_back() {
    let dir = temp_dir("undo-hand");
    // Seed 3: seven moves of the person's, then greedy stops and wins hand 1; undo at hand 2's
    // first decision goes back into hand 1.
    let out = yaku(&[
        "play", "koikoi", "--seed", "3", "--rounds", "2", "--save", "s.json",
    ])
    .current_dir(&dir)
    .stdin(format!("{}undo\nquit\n", "1\n".repeat(7)))
    .expect(0);
    let s = &out.stdout;
    let said = "your last move is taken back: it was made in hand 1, so the end of that hand is taken back too";
    assert!(s.contains(said), "{s}");
    let after = &s[s.find(said).unwrap()..];
    assert!(after.contains("round 1 of 2"), "{after}");
    assert!(after.contains("scores: you 0, greedy 0"), "{after}");
}

#[test]
fn hachi_hachi_keeps_another_seats_teyaku_and_the_field_on_the_table_at_the_first_play() {
    // Seed 29: greedy 2 deals; you play (greedy 3 drops out); greedy 2's dealt hand is a Pikaichi (a teyaku scored
    // at the hand's end), announced before anyone plays, and greedy 2 plays first. By your
    // first play the narration has scrolled on: the teyaku stays in greedy 2's panel and the
    // field's multiplier in the table's notes, at 80x24 and 120x40.
    for (cols, rows) in [(80, 24), (120, 40)] {
        let dir = temp_dir("tty-hachihachi");
        let mut t = Term::start(
            &dir,
            &[
                "play",
                "hachihachi",
                "--players",
                "human,greedy,greedy,greedy",
                "--seed",
                "29",
                "--no-color",
                "--speed",
                "instant",
                "--save",
                "s.json",
            ],
            cols,
            rows,
        );
        // greedy 3 drops out, so the three others must play: no question before the play.
        let s = t.wait_for("play a card from your hand");
        let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("Pikaichi (one bright, six chaff) (dealt)"),
            "{cols}x{rows}:\n{s}"
        );
        assert!(
            flat.contains("table count at the deal: 1 (every point x1)"),
            "{cols}x{rows}:\n{s}"
        );
        assert_nothing_cut(&t, "Hachi-Hachi's first play");
        t.send("q");
        t.wait_for("resume it with");
    }
}

/// The rule sheet opened at the table is wrapped once, to the box's inside (it was wrapped for
/// a wider sheet and again for the box: "(or leave it on" / "the table)").
#[test]
fn the_rule_sheet_at_the_table_is_wrapped_once() {
    for (cols, rows) in SIZES {
        let dir = temp_dir("tty-rules");
        let mut t = Term::start(
            &dir,
            &[
                "play",
                "koikoi",
                "--seed",
                "3",
                "--no-color",
                "--speed",
                "instant",
            ],
            cols,
            rows,
        );
        t.wait_for("play a card from your hand");
        t.send("r");
        let s = t.wait_for(" rules ");
        t.assert_box_intact();
        let (inside, width) = box_inside(&s);
        assert!(inside.len() > 5, "{s}");
        // A sheet is never wider than its own measure, 96 columns, however wide the box.
        assert_wrapped_once(
            &inside,
            width.min(96),
            &format!("the rule sheet at {cols}x{rows}"),
        );
        t.send("x");
        t.send("q");
        let _ = t.exit_code();
    }
}

/// Undo at the next hand's first decision, on the full-screen table: it says the hand the bot
/// won is taken back with the move, and the table is that hand's again.
#[test]
fn undo_into_a_finished_hand_on_the_table_says_so() {
    for (cols, rows) in SIZES {
        let dir = temp_dir("tty-undo-hand");
        // Seed 3: seven moves of the person's, then greedy stops and wins hand 1.
        let mut t = Term::start(
            &dir,
            &[
                "play",
                "koikoi",
                "--seed",
                "3",
                "--rounds",
                "2",
                "--no-color",
                "--speed",
                "instant",
                "--save",
                "s.json",
            ],
            cols,
            rows,
        );
        let mut reached = false;
        for _ in 0..30 {
            let s = t.wait_for("play a card from your hand|press a key");
            if s.contains("round 2 of 2") && s.contains("play a card from your hand") {
                reached = true;
                break;
            }
            t.send("\r");
            std::thread::sleep(Duration::from_millis(150));
        }
        assert!(reached, "hand 2 at {cols}x{rows}:\n{}", t.text());
        t.send("u");
        // The message may be wrapped in the log beside the table: its start is on one row.
        let s = t.wait_for("taken back: it was made in hand 1");
        assert!(s.contains("round 1 of 2"), "{cols}x{rows}:\n{s}");
        assert_nothing_cut(&t, "undo into a finished hand");
        t.send("q");
        t.wait_for("resume it with");
    }
}

/// A trick game to a score on the table: the title counts hands without "of 100", and the trick
/// row says who led which card.
#[test]
fn a_trick_game_to_a_score_names_the_hand_and_who_led() {
    for (cols, rows) in SIZES {
        let dir = temp_dir("tty-pinochle");
        let mut t = Term::start(
            &dir,
            &[
                "play",
                "pinochle-two-handed",
                "--seed",
                "5",
                "--no-color",
                "--speed",
                "instant",
            ],
            cols,
            rows,
        );
        // Seed 5: the first choices taken (a card, a meld), greedy soon leads a trick.
        let mut led = None;
        for _ in 0..12 {
            let s = t.wait_for("(Enter)");
            if s.contains("greedy led") {
                led = Some(s);
                break;
            }
            t.send("\r");
            std::thread::sleep(Duration::from_millis(150));
        }
        let s = led.unwrap_or_else(|| panic!("greedy never led at {cols}x{rows}:\n{}", t.text()));
        let title = s.lines().next().unwrap_or_default();
        assert!(title.contains("hand 1"), "{title}");
        assert!(!title.contains(" of 100"), "{title}");
        assert_nothing_cut(&t, "Pinochle's trick");
        t.send("q");
        let _ = t.exit_code();
    }
}
