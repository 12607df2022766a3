//! The hint a front end gives a player who asks: the move a bot would make and its reasons,
//! shared by the terminal's `h` and lessons and the browser's hint button.

use super::table::Table;
use crate::agent::{Agent, agent_rng};
use crate::core::{Action, Game, Seat};
use crate::ruleset::Ruleset;

/// What gives a hint its bot: the bot of a name, if the front end may run it.
pub type MakeBot<'a> = dyn Fn(&str, &Ruleset) -> Option<Box<dyn Agent>> + 'a;

/// The move the greedy bot would make for `seat` now, and why, in the game's words (what it
/// takes, the yaku it makes or brings nearer, the trick it wins, what the bot weighed), and
/// the move it names. A game the greedy bot does not play (a banker game) gets the move of its
/// usual strategy bot. Only what the player can see is used: the game is tried on a copy up to
/// the first card drawn from the stock. `make` gives the bot of a name the front end may run.
pub fn hint(
    table: &dyn Table,
    game: &dyn Game,
    seat: Seat,
    legal: &[Action],
    make: &MakeBot<'_>,
) -> (String, Option<Action>) {
    let ruleset = game.ruleset();
    // A banker game's usual strategy bot plays from its odds; the others' greedy is the bot.
    let names = if ruleset.banker().is_some() {
        ["seed", "best", "greedy"]
    } else {
        ["greedy", "seed", "best"]
    };
    let found = names
        .into_iter()
        .find_map(|name| make(name, ruleset).map(|b| (name, b)));
    let Some((name, mut bot)) = found else {
        return ("no hint: no bot plays this game".to_string(), None);
    };
    let mut rng = agent_rng(crate::sim::game_seed(0, 0));
    let action = bot.choose(game, seat, legal, &mut rng);
    let number = legal
        .iter()
        .position(|a| *a == action)
        .map_or_else(String::new, |i| format!(" (option {})", i + 1));
    let mut reasons: Vec<String> = Vec::new();
    let mut trial = game.box_clone();
    trial.drain_events();
    if trial.apply(action).is_ok() {
        let r = game.ruleset();
        for e in trial.drain_events() {
            match e {
                crate::core::Event::Drew { .. } | crate::core::Event::Deal { .. } => break,
                crate::core::Event::Played {
                    player, captured, ..
                } if player == seat && !captured.is_empty() => {
                    let names: Vec<&str> = captured
                        .iter()
                        .map(|&c| r.deck.card(c).name.as_str())
                        .collect();
                    reasons.push(format!("it captures {}", names.join(", ")));
                }
                crate::core::Event::TrickWon { player, .. } if player == seat => {
                    reasons.push("it wins the trick".to_string());
                }
                crate::core::Event::YakuFormed { player, yaku, .. } if player == seat => {
                    let names: Vec<&str> = yaku
                        .iter()
                        .filter_map(|id| r.yaku.yaku.iter().find(|y| &y.id == id))
                        .map(|y| y.name.as_str())
                        .collect();
                    if !names.is_empty() {
                        reasons.push(format!("it makes {}", names.join(", ")));
                    }
                }
                _ => {}
            }
        }
    }
    let captures = reasons.iter().any(|r| r.starts_with("it captures"));
    for why in table.why(game, seat, action) {
        // What the card matches is said by what it captures.
        if captures && why.starts_with("it matches") {
            continue;
        }
        if !reasons.contains(&why) {
            reasons.push(why);
        }
    }
    // A trick's cards are said by the trick won.
    if reasons.iter().any(|r| r == "it wins the trick") {
        reasons.retain(|r| !r.starts_with("it captures"));
    }
    // What the bot itself weighed.
    for why in bot.reasons(game, seat, legal, action) {
        if !reasons.contains(&why) {
            reasons.push(why);
        }
    }
    let mut out = format!(
        "hint: the {name} bot would {}{number}",
        as_infinitive(&table.describe(game, action))
    );
    if !reasons.is_empty() {
        out.push_str(&format!(": {}", reasons.join("; ")));
    }
    (out, Some(action))
}

/// An action's description as it follows "would": `bets 10` is `bet 10`, and a declaration's
/// name (`Marriage: ...`) is chosen.
fn as_infinitive(description: &str) -> String {
    const VERBS: [(&str, &str); 7] = [
        ("bets ", "bet "),
        ("takes ", "take "),
        ("stakes ", "stake "),
        ("calls", "call"),
        ("raises", "raise"),
        ("folds", "fold"),
        ("checks", "check"),
    ];
    for (third, bare) in VERBS {
        if let Some(rest) = description.strip_prefix(third) {
            return format!("{bare}{rest}");
        }
    }
    if description.starts_with(|c: char| c.is_uppercase()) {
        return format!("choose {description}");
    }
    description.to_string()
}
