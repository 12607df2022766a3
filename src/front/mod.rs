//! What the front ends share: the command line (`cli`), the browser table's server (`serve`)
//! and the language server (`lsp`) stand on this layer and import nothing from each other.
//!
//! | file | what it owns |
//! |---|---|
//! | `check.rs` | what `yaku validate` finds in a file or an editor's buffer, and a ruleset's one-line summary |
//! | `fronts.rs` | each family's front, registered once by the family's name: its play table and what a spectator sees |
//! | `table.rs` | the `Table` trait every family's table implements |
//! | `matching.rs`, `banker.rs`, `tricks.rs`, `climbing.rs` | each family's table |
//! | `board.rs` | the family-neutral board the full-screen frame and the browser draw |
//! | `screen.rs`, `prompt.rs` | the matching family's screen and the reading of typed answers |
//! | `seat.rs` | one seat's table for a front outside the terminal (`SeatTable`) |
//! | `hint.rs` | the move a bot would make for a player who asks, with its reasons |
//! | `lesson.rs` | the lessons of `yaku learn` and the browser's Learn mode, each part said once |
//!
//! Nothing here prints: each front end shows what these give in its own way.

pub(crate) mod banker;
pub(crate) mod board;
mod check;
pub(crate) mod climbing;
pub(crate) mod fronts;
pub(crate) mod hint;
pub(crate) mod lesson;
pub(crate) mod matching;
pub(crate) mod prompt;
pub(crate) mod screen;
pub(crate) mod seat;
pub(crate) mod table;
pub(crate) mod tricks;

pub use check::check_buffer;
pub(crate) use check::{check, summary as ruleset_summary};

/// The player name that means a person at the keyboard (or at the browser's table).
pub const HUMAN: &str = "human";

/// A count and a regular noun, singular only for one: `1 point`, `2 points`, `0 cards`.
pub(crate) fn plural(n: impl std::fmt::Display, noun: &str) -> String {
    let n = n.to_string();
    if n == "1" {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `text` wrapped at spaces to `width` columns (so no word is cut), each line of it on its
/// own; a continued line is indented two columns more than the line it continues. Wrapping is
/// textwrap's: it measures display width (wide hangul, ·), which a char count gets wrong.
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(10);
    let mut out = Vec::new();
    for line in text.split('\n') {
        let line = line.replace('\t', "    ");
        let body = line.trim_start();
        let lead = &line[..line.len() - body.len()];
        if body.is_empty() {
            out.push(String::new());
            continue;
        }
        let more = format!("{lead}  ");
        let options = textwrap::Options::new(width)
            .initial_indent(lead)
            .subsequent_indent(&more)
            .word_splitter(textwrap::WordSplitter::NoHyphenation);
        out.extend(
            textwrap::wrap(body.trim_end(), options)
                .into_iter()
                .map(std::borrow::Cow::into_owned),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn plural_is_singular_only_for_one() {
        assert_eq!(super::plural(1, "point"), "1 point");
        assert_eq!(super::plural(0, "card"), "0 cards");
        assert_eq!(super::plural(2usize, "call"), "2 calls");
        assert_eq!(super::plural(-1, "point"), "-1 points");
    }
}
