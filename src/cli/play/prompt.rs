//! The prompts of `yaku play`: what is asked in each phase, and what a typed line means. A line
//! is a command (`help`, `rules`, `score`, `quit`), an option number, or a card (id, display
//! name or `suit:n`); anything else gets a reason and the same prompt again.

use super::screen::Style;
use crate::deck::CardId;
use crate::diag::did_you_mean;
use crate::engine::{Action, Game, Phase};

/// What a line asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Take this action.
    Act(Action),
    /// Show the help.
    Help,
    /// Show the yaku table.
    Rules,
    /// Show the scores.
    Score,
    /// Save and leave.
    Quit,
}

/// The help text.
pub const HELP: &str = "\
at any prompt:
  a number        the numbered option (a hand card, a table card, koi-koi/stop, keep/swap)
  a card          by id (pine-crane), name (Crane and Sun) or suit:n (pine:1, 1:1)
  koikoi, stop    after making a yaku: play on for more, or take the points now
  keep, swap      when offered the dealer's hand
  rules           the yaku of these rules, with their conditions and points
  score           the scores and every finished hand
  help            this text
  quit            save the game to a file and leave (so does end of input, Ctrl-D)";

/// The question for the current phase, with its numbered options.
pub fn question(style: &Style, game: &Game, legal: &[Action]) -> String {
    let deck = &game.ruleset().deck;
    match game.phase() {
        Phase::Play => "play a card from your hand (number, id or name):".to_string(),
        Phase::CaptureChoice { card, .. } => {
            let options: Vec<String> = legal
                .iter()
                .enumerate()
                .filter_map(|(i, a)| match a {
                    Action::Capture { card } => {
                        Some(format!("{}) {}", i + 1, style.card(deck, *card)))
                    }
                    _ => None,
                })
                .collect();
            format!(
                "{} matches more than one table card; capture which?\n  {}",
                style.name(deck, card),
                options.join("\n  ")
            )
        }
        Phase::KoiKoiChoice => {
            let seat = game.to_act().unwrap_or(0);
            let now = game.points_if_stopped(seat).map_or_else(
                |e| format!("(scoring failed: {e})"),
                |o| crate::cli::plural(o.total, "point"),
            );
            if legal.contains(&Action::KoiKoi) {
                format!("you made a yaku: 1) koi-koi (play on)  2) stop and take {now}")
            } else {
                format!("you made a yaku: stop and take {now}")
            }
        }
        Phase::SwapChoice => {
            "you may take the dealer's hand: 1) keep your hand  2) swap for the dealer's"
                .to_string()
        }
        Phase::GameOver => "the game is over".to_string(),
    }
}

/// What `line` means now, or why it cannot be taken.
pub fn parse(line: &str, game: &Game, legal: &[Action]) -> Result<Input, String> {
    let text = line.trim();
    let lower = text.to_ascii_lowercase();
    match lower.as_str() {
        "help" | "h" | "?" => return Ok(Input::Help),
        "rules" => return Ok(Input::Rules),
        "score" | "scores" => return Ok(Input::Score),
        "quit" | "q" | "exit" => return Ok(Input::Quit),
        "" => return Err("type a choice, or `help`".into()),
        _ => {}
    }
    let number = text.parse::<usize>().ok();
    let deck = &game.ruleset().deck;
    let koikoi_word = matches!(lower.as_str(), "k" | "koi" | "koikoi" | "koi-koi");
    let stop_word = matches!(lower.as_str(), "s" | "stop");
    match game.phase() {
        Phase::Play => {
            let seat = game.to_act().unwrap_or(0);
            let hand = game.hand(seat);
            if let Some(n) = number {
                return hand
                    .nth(n.wrapping_sub(1))
                    .map(|card| Input::Act(Action::Play { card }))
                    .ok_or_else(|| {
                        format!(
                            "there is no card {n} in your hand: choose 1 to {}",
                            hand.len()
                        )
                    });
            }
            if koikoi_word || stop_word {
                return Err(not_now(text));
            }
            let card = card(text, game)?;
            if hand.contains(card) {
                Ok(Input::Act(Action::Play { card }))
            } else {
                Err(format!("`{}` is not in your hand", deck.card(card).name))
            }
        }
        Phase::CaptureChoice { card: played, .. } => {
            let options: Vec<CardId> = legal
                .iter()
                .filter_map(|a| match a {
                    Action::Capture { card } => Some(*card),
                    _ => None,
                })
                .collect();
            let names = options
                .iter()
                .map(|c| deck.card(*c).name.as_str())
                .collect::<Vec<_>>()
                .join(", ");
            if let Some(n) = number {
                return options
                    .get(n.wrapping_sub(1))
                    .map(|&card| Input::Act(Action::Capture { card }))
                    .ok_or_else(|| {
                        format!("there is no option {n}: choose 1 to {}", options.len())
                    });
            }
            if koikoi_word || stop_word {
                return Err(not_now(text));
            }
            let target = card(text, game)?;
            if options.contains(&target) {
                Ok(Input::Act(Action::Capture { card: target }))
            } else {
                Err(format!(
                    "`{}` is not a table card that {} can capture; choose one of: {names}",
                    deck.card(target).name,
                    deck.card(played).name
                ))
            }
        }
        Phase::KoiKoiChoice => {
            let pick = match number {
                Some(n) => legal.get(n.wrapping_sub(1)).copied().ok_or_else(|| {
                    format!("there is no option {n}: choose 1 to {}", legal.len())
                })?,
                None if koikoi_word => Action::KoiKoi,
                None if stop_word => Action::Stop,
                None => return Err(format!("`{text}`: answer `koikoi` or `stop` (or `help`)")),
            };
            if legal.contains(&pick) {
                Ok(Input::Act(pick))
            } else {
                Err("koi-koi is not allowed now in these rules: you must stop".into())
            }
        }
        Phase::SwapChoice => match (number, lower.as_str()) {
            (Some(1), _) | (None, "keep" | "n" | "no") => {
                Ok(Input::Act(Action::SwapHands { swap: false }))
            }
            (Some(2), _) | (None, "swap" | "take" | "y" | "yes") => {
                Ok(Input::Act(Action::SwapHands { swap: true }))
            }
            (Some(n), _) => Err(format!("there is no option {n}: choose 1 or 2")),
            _ => Err(format!("`{text}`: answer `keep` or `swap` (or `help`)")),
        },
        Phase::GameOver => Err("the game is over".into()),
    }
}

/// Why `koikoi` or `stop` cannot be answered at a play or capture prompt.
fn not_now(text: &str) -> String {
    format!("`{text}` is not possible now: you can stop or call koi-koi only after making a yaku")
}

/// The card a player means, or why none.
fn card(text: &str, game: &Game) -> Result<CardId, String> {
    let deck = &game.ruleset().deck;
    let suit = deck.suits.iter().find(|s| {
        s.id.eq_ignore_ascii_case(text)
            || s.name.eq_ignore_ascii_case(text)
            || s.name
                .split_once(" (")
                .is_some_and(|(short, _)| short.eq_ignore_ascii_case(text))
    });
    if let Some(suit) = suit {
        let word = deck.suit_word.as_deref().unwrap_or("suit");
        let ids: Vec<&str> = suit.cards.iter().map(|c| deck.id_of(c)).collect();
        return Err(format!(
            "`{text}` is a {word}, not a card: name one of its cards as {id}:1 to {id}:{n}, or by id ({})",
            ids.join(", "),
            id = suit.id,
            n = ids.len()
        ));
    }
    deck.parse_card(text).ok_or_else(|| {
        let help =
            did_you_mean(text, deck.card_ids()).map_or_else(String::new, |h| format!(" ({h})"));
        format!("unknown card or command `{text}`{help}; type `help` for the commands")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GameOptions;
    use crate::ruleset;
    use std::sync::Arc;

    fn game() -> Game {
        let r = Arc::new(ruleset::load("koikoi").value.unwrap());
        Game::new(
            r,
            GameOptions {
                seed: 4,
                ..GameOptions::default()
            },
        )
        .unwrap()
    }

    #[test]
    fn play_prompt_takes_numbers_ids_and_names() {
        let g = game();
        let legal = g.legal();
        let seat = g.to_act().unwrap();
        let first = g.hand(seat).first_card().unwrap();
        let deck = &g.ruleset().deck;
        let play = Ok(Input::Act(Action::Play { card: first }));
        assert_eq!(parse("1", &g, &legal), play);
        assert_eq!(parse(deck.id_of(first), &g, &legal), play);
        assert_eq!(
            parse(&deck.card(first).name.to_uppercase(), &g, &legal),
            play
        );
        assert!(parse("9", &g, &legal).unwrap_err().contains("no card 9"));
        assert!(parse("0", &g, &legal).unwrap_err().contains("no card 0"));
        assert!(
            parse("koikoi", &g, &legal)
                .unwrap_err()
                .contains("you can stop or call koi-koi only after making a yaku")
        );
        assert!(
            parse("pine-cran", &g, &legal)
                .unwrap_err()
                .contains("did you mean `pine-crane`")
        );
        let elsewhere = (deck.all() - g.hand(seat)).first_card().unwrap();
        assert!(
            parse(deck.id_of(elsewhere), &g, &legal)
                .unwrap_err()
                .contains("not in your hand")
        );
        assert_eq!(
            parse("Pine", &g, &legal).unwrap_err(),
            "`Pine` is a month, not a card: name one of its cards as pine:1 to pine:4, or by id \
             (pine-crane, pine-poetry, pine-1, pine-2)"
        );
        assert!(
            parse("bush clover", &g, &legal)
                .unwrap_err()
                .contains("clover:1 to clover:4")
        );
        assert_eq!(parse(" Quit ", &g, &legal), Ok(Input::Quit));
        assert_eq!(parse("rules", &g, &legal), Ok(Input::Rules));
    }
}
