//! Line editing for the line mode on a terminal (`yaku play --line`): rustyline gives arrow keys,
//! history and Tab completion of the card and declaration names offered now, instead of escape
//! codes typed into the answer. Pipes read plain lines and never come here.

use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};

/// The words Tab completes: set before each prompt.
#[derive(Default)]
pub struct Words(pub Vec<Vec<String>>);

impl Completer for Words {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let fits = crate::front::prompt::completions(&self.0, &line[..pos]);
        Ok((0, fits))
    }
}

impl Hinter for Words {
    type Hint = String;
}
impl Highlighter for Words {}
impl Validator for Words {}
impl Helper for Words {}

/// What reading a line gave.
pub enum Read {
    /// A line.
    Line(String),
    /// Ctrl-C: the player asks to leave (saved like `quit`).
    Interrupted,
    /// Ctrl-D or a read error: no more input.
    Ended,
}

/// A line editor on the terminal.
pub struct LineEditor {
    editor: Editor<Words, DefaultHistory>,
}

impl LineEditor {
    /// An editor, if the terminal allows one.
    pub fn new() -> Option<LineEditor> {
        let mut editor = Editor::<Words, DefaultHistory>::new().ok()?;
        editor.set_helper(Some(Words::default()));
        Some(LineEditor { editor })
    }

    /// Reads one line after `prompt`, completing from `words`.
    pub fn read(&mut self, prompt: &str, words: Vec<Vec<String>>) -> Read {
        if let Some(h) = self.editor.helper_mut() {
            h.0 = words;
        }
        match self.editor.readline(prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = self.editor.add_history_entry(line.as_str());
                }
                Read::Line(line)
            }
            Err(ReadlineError::Interrupted) => Read::Interrupted,
            Err(_) => Read::Ended,
        }
    }
}
