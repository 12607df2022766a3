//! The lessons of `yaku learn` and of the browser's Learn mode: before each decision, what the
//! game is and how a hand goes (the first time), each choice in the ruleset's own words (the
//! first time it is offered), the deal before a first bid, the scoring before a first call to
//! stop or play on, and the move a bot would make with its reasons. Shared by the terminal and
//! the server, so a player learns the same things in both; each says each part once.

use super::hint::{MakeBot, hint};
use super::table::Table;
use crate::core::{Action, Game, Seat};

/// One part of a lesson, named by what it explains (`game`, `declaration 2`, `deal`,
/// `scoring`), so that a front end which has said it leaves it out.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Part {
    /// What the part explains; the same key is the same explanation.
    pub key: String,
    /// The explanation: lines, bullets starting `- ` (indented under the line before them
    /// where they belong to it), unwrapped, for the front end to wrap to its width.
    pub text: String,
}

/// How many yaku the first lesson lists before "and N more".
const YAKU_LISTED: usize = 6;

/// What may be explained before a decision among `legal`, whether or not it was said before:
/// the game (its description, the rule sheet's play and the first yaku), each declaration
/// offered, the rule sheet's deal when a bid or bet is asked, and its scoring when the table
/// weighs stopping against playing on.
pub fn parts(table: &dyn Table, game: &dyn Game, legal: &[Action]) -> Vec<Part> {
    let r = game.ruleset();
    let sheet = crate::sheet::build(r, None);
    let section = |title| crate::sheet::text_section(&sheet, title);
    let mut parts = Vec::new();
    let mut intro = format!("{}: {}\n", r.name, r.description.trim());
    if let Some(play) = section("Play") {
        intro.push_str(&format!("\nHow a hand goes:\n{play}\n"));
    }
    if !r.yaku.yaku.is_empty() {
        intro.push_str("\nWhat scores (the yaku; the rule sheet has them all):\n");
        for y in r.yaku.yaku.iter().take(YAKU_LISTED) {
            intro.push_str(&format!("- {}: {}\n", y.name, y.description.trim()));
        }
        if r.yaku.yaku.len() > YAKU_LISTED {
            intro.push_str(&format!("- and {} more\n", r.yaku.yaku.len() - YAKU_LISTED));
        }
    }
    parts.push(Part {
        key: "game".to_string(),
        text: intro,
    });
    for a in legal {
        if let Action::Declare { decl, .. } = a
            && let Some(d) = r.declarations.get(decl.0 as usize)
        {
            let key = format!("declaration {}", decl.0);
            if !parts.iter().any(|p| p.key == key) {
                parts.push(Part {
                    key,
                    text: format!("- {}: {}\n", d.name, d.prompt.trim()),
                });
            }
        }
    }
    // The first bid or bet: the rule sheet's deal, where the auction (what a bid commits its
    // side to, who names trumps) and the melds shown after it with their points are.
    if legal.iter().any(|a| matches!(a, Action::Bet { .. }))
        && let Some(deal) = section("Deal")
    {
        parts.push(Part {
            key: "deal".to_string(),
            text: format!(
                "Before this decision, the deal as the rule sheet gives it (what a bid or bet commits you to, and what is shown after it):\n{deal}\n"
            ),
        });
    }
    // The first decision to stop or play on: how the rules grow a hand's points, so that "14
    // points" for a yaku of 7, and what playing on risks, read with their rule.
    if table.stakes(game, legal).is_some()
        && let Some(scoring) = section("Scoring")
    {
        parts.push(Part {
            key: "scoring".to_string(),
            text: format!(
                "How the rules grow a hand's points (the same steps count against you if another player scores after you play on):\n{scoring}\n"
            ),
        });
    }
    parts
}

/// A front end's lessons so far: how many, and which parts were said.
#[derive(Default)]
pub struct Teacher {
    /// Lessons given.
    lessons: usize,
    /// The keys of the parts said.
    said: Vec<String>,
}

impl Teacher {
    /// The lesson before a decision of `seat` among `legal`, and the move it suggests: the
    /// parts not said yet, what is asked (with what the question says besides its options),
    /// and the move a bot would make and why. `make` gives the bot of a name the front end may
    /// run.
    pub fn lesson(
        &mut self,
        table: &dyn Table,
        game: &dyn Game,
        seat: Seat,
        legal: &[Action],
        make: &MakeBot<'_>,
    ) -> (String, Option<Action>) {
        self.lessons += 1;
        let mut before = String::new();
        let mut after = String::new();
        for part in parts(table, game, legal) {
            if self.said.contains(&part.key) {
                continue;
            }
            // The game comes before the question; the choices, the deal and the scoring after.
            if part.key == "game" {
                before.push_str(&part.text);
                before.push('\n');
            } else {
                after.push_str(&part.text);
            }
            self.said.push(part.key);
        }
        let question = table.question(game, legal);
        let asked = question
            .lines()
            .next()
            .unwrap_or_default()
            .trim_end_matches(':');
        let mut out = before;
        out.push_str(&format!("Lesson {}: {asked}.\n", self.lessons));
        // What the question says besides its options (the exact odds of a draw).
        for line in question.lines().skip(1) {
            if !line.starts_with(char::is_whitespace) && !line.trim().is_empty() {
                out.push_str(&format!("{line}\n"));
            }
        }
        out.push_str(&after);
        let (text, suggested) = hint(table, game, seat, legal, make);
        out.push_str(&lesson_hint(&text));
        if suggested.is_some() {
            out.push_str("\nEnter takes that move; any other option is yours to choose.");
        }
        (out, suggested)
    }
}

/// A hint as a lesson says it: "The greedy bot would ..." rather than "hint: the greedy bot
/// would ...".
pub fn lesson_hint(text: &str) -> String {
    text.strip_prefix("hint: the")
        .map_or_else(|| text.to_string(), |t| format!("The{t}"))
}
