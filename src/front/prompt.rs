//! The prompts of a matching game in `yaku play`: what is asked in each phase, and what a
//! typed line means. A line is a command (`help`, `rules`, `score`, `quit`), an option number, a
//! card (id, display name or `suit:n`) or a declaration (its id or name, or the start of one);
//! anything else gets a reason and the same prompt again.

use super::screen::Style;
use crate::core::{Action, DeclId, Game};
use crate::deck::{CardId, CardSet};
use crate::diag::did_you_mean;
use crate::families::matching::{MatchingGame, Phase};
use crate::ruleset::Ruleset;

/// What a line asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Take this action.
    Act(Action),
    /// Show the help.
    Help,
    /// Show the rules.
    Rules,
    /// Show the scores.
    Score,
    /// Save and leave.
    Quit,
    /// Take back moves to the player's last decision (against bots).
    Undo,
    /// The move a bot would make here, and why.
    Hint,
}

/// The help text.
pub const HELP: &str = "\
at any prompt:
  a number        the numbered option (a hand card, a table card, a declaration)
  a card          by id (pine-crane), name (Crane and Sun) or suit:n (pine:1, 1:1)
  a declaration   when offered, by its id or name, or their start (stop, s)
  rules           the rules: yaku with their conditions and points, declarations
  score           the scores and every finished hand
  hint            the move the greedy bot would make here, and why
  undo            take back your last move (against bots only); again for more
  help            this text
  quit            save the game to a file and leave (so does end of input, Ctrl-D)";

/// The spellings Tab completes, one list per option offered now: a card's name and id, a
/// declaration's name and id (name first).
pub fn completion_words(game: &dyn Game, legal: &[Action]) -> Vec<Vec<String>> {
    let r = game.ruleset();
    let deck = &r.deck;
    let mut words: Vec<Vec<String>> = Vec::new();
    for a in legal {
        let mut spellings = Vec::new();
        if let Some(c) = a.card() {
            spellings.push(deck.card(c).name.clone());
            spellings.push(deck.id_of(c).to_string());
        }
        if let Action::Declare { decl, .. } = a
            && let Some(d) = r.declarations.get(decl.0 as usize)
        {
            spellings.push(d.name.clone());
            spellings.push(d.id.clone());
        }
        if !spellings.is_empty() && !words.contains(&spellings) {
            words.push(spellings);
        }
    }
    words
}

/// What `typed` completes to: for each option with a spelling that starts with it (case
/// aside), the first such spelling, so that one card spelt two ways (`Cherry Curtain`,
/// `cherry-curtain`) is one completion. Sorted, without repeats.
pub fn completions(words: &[Vec<String>], typed: &str) -> Vec<String> {
    let typed = typed.to_lowercase();
    let mut fits: Vec<String> = words
        .iter()
        .filter_map(|spellings| {
            spellings
                .iter()
                .find(|w| w.to_lowercase().starts_with(&typed))
                .cloned()
        })
        .collect();
    fits.sort();
    fits.dedup();
    fits
}

/// A command every prompt understands, from a typed line.
pub fn command(lower: &str) -> Option<Result<Input, String>> {
    Some(match lower {
        "help" | "h" | "?" => Ok(Input::Help),
        "rules" => Ok(Input::Rules),
        "score" | "scores" => Ok(Input::Score),
        "quit" | "q" | "exit" => Ok(Input::Quit),
        "undo" => Ok(Input::Undo),
        "hint" => Ok(Input::Hint),
        "" => Err("type a choice, or `help`".into()),
        _ => return None,
    })
}

/// A declaration's words for the prompt: `Koi-koi (call koi-koi and play on for more)`.
fn declaration_text(ruleset: &Ruleset, decl: DeclId) -> String {
    let d = &ruleset.declarations[decl.0 as usize];
    if d.prompt.is_empty() {
        d.name.clone()
    } else {
        format!("{} ({})", d.name, d.prompt)
    }
}

/// What rides on a call to play on or stop, where `legal` offers one: the points stopping takes
/// now and what each other seat is closest to ("stopping takes 3 points; greedy needs 1 more
/// card for Akatan").
pub fn stakes(style: &Style, game: &MatchingGame, legal: &[Action]) -> Option<String> {
    let r = Game::ruleset(game);
    if game.phase() != Phase::Declare || !legal.iter().any(|a| is_stop(r, *a)) {
        return None;
    }
    let seat = game.to_act()?;
    let mut said = vec![format!("stopping takes {}", stop_points(game, seat))];
    said.extend(super::screen::opponents_nearest(style, game, seat));
    Some(said.join("; "))
}

/// The points `seat` takes if it stops now, in words (a hand settled seat by seat: this seat's).
/// Where the scoring script changed the yaku's points, how: "14 points (7 from the yaku, x2 for
/// 7 or more points: 14)", so a player sees why 7 points became 14.
fn stop_points(game: &MatchingGame, seat: usize) -> String {
    game.points_if_stopped(seat).map_or_else(
        |e| format!("(scoring failed: {e})"),
        |o| {
            let (points, steps) = seat_points(&o, seat);
            let points = super::plural(points, "point");
            if steps.is_empty() || o.yaku.is_empty() {
                points
            } else {
                format!("{points} ({} from the yaku, {})", o.base, steps.join(", "))
            }
        },
    )
}

/// What a settled hand gives `seat` (its own points where the hand is settled seat by seat),
/// and the scoring's steps that apply to it, in words ("x2 for 7 or more points: 14").
pub(super) fn seat_points(o: &crate::yaku::HandOutcome, seat: usize) -> (i64, Vec<String>) {
    let steps = o
        .steps
        .iter()
        .filter(|s| s.seat.is_none_or(|s| s == seat))
        .map(|s| format!("{}: {}", s.reason, s.total))
        .collect();
    (o.seats.get(seat).copied().unwrap_or(o.total), steps)
}

/// The question for the current phase, with its numbered options.
pub fn question(style: &Style, game: &MatchingGame, legal: &[Action]) -> String {
    let r = Game::ruleset(game);
    let deck = &r.deck;
    let declarations = |lead: &str, stop_points: &str| {
        let options: Vec<String> = legal
            .iter()
            .enumerate()
            .filter_map(|(i, a)| match a {
                Action::Declare { decl, .. } => {
                    let mut text = declaration_text(r, *decl);
                    if r.declarations[decl.0 as usize].effect == "stop" {
                        text = format!("{text}: take {stop_points}");
                    }
                    Some(format!("{}) {text}", i + 1))
                }
                _ => None,
            })
            .collect();
        format!("{lead}: {}", options.join("  "))
    };
    match game.phase() {
        Phase::Play => {
            let hand = game.hand(game.to_act().unwrap_or(0)).len() as usize;
            let extras: Vec<String> = legal
                .iter()
                .enumerate()
                .skip(hand)
                .map(|(i, a)| match a {
                    Action::Declare {
                        decl,
                        card: Some(card),
                    } => format!(
                        "{}) {}: {}",
                        i + 1,
                        declaration_text(r, *decl),
                        deck.suit_of(*card).name
                    ),
                    Action::Draw { .. } => {
                        format!("{}) draw from the stock without playing (`draw`)", i + 1)
                    }
                    _ => String::new(),
                })
                .collect();
            if extras.is_empty() {
                "play a card from your hand (number, id or name):".to_string()
            } else if hand == 0 {
                format!("your turn: {}", extras.join("  "))
            } else {
                format!(
                    "play a card from your hand (number, id or name), or:\n  {}",
                    extras.join("\n  ")
                )
            }
        }
        Phase::Choose => declarations("how does the card you captured count?", ""),
        Phase::CaptureChoice { card, .. } => {
            let sets = capture_sets(legal);
            let options: Vec<String> = sets
                .iter()
                .enumerate()
                .map(|(i, set)| {
                    let cards: Vec<String> = set.iter().map(|c| style.card(deck, c)).collect();
                    if set.is_empty() {
                        // The rules let the card be laid on the table instead (`must_capture`).
                        return format!("{}) trail: lay it on the table", i + 1);
                    }
                    format!("{}) {}", i + 1, cards.join(" + "))
                })
                .collect();
            let builds = build_moves(legal);
            let mut options = options;
            for (j, (on, value)) in builds.iter().enumerate() {
                let cards: Vec<String> = on.iter().map(|c| style.card(deck, c)).collect();
                options.push(format!(
                    "{}) build {value}: lay it on {} (`build {value}`)",
                    sets.len() + j + 1,
                    cards.join(" + ")
                ));
            }
            let what = if !builds.is_empty() && sets.iter().any(|s| !s.is_empty()) {
                "can capture, build or be laid on the table; which? (number, the cards' ids, `trail` or `build` and the value)"
            } else if !builds.is_empty() {
                "can build or be laid on the table; which? (number, `trail` or `build` and the value)"
            } else if sets.contains(&CardSet::EMPTY) {
                "can capture or be laid on the table"
            } else if sets.iter().any(|s| s.len() > 1) {
                "can capture in more than one way"
            } else {
                "matches more than one table card"
            };
            let ask = if builds.is_empty() {
                "; capture which? (number, or the cards' ids)"
            } else {
                ""
            };
            format!(
                "{} {what}{ask}\n  {}",
                style.name(deck, card),
                options.join("\n  ")
            )
        }
        Phase::Declare => {
            let seat = game.to_act().unwrap_or(0);
            let now = stop_points(game, seat);
            // What the opponents need, so the risk of playing on is in the question.
            let risk = super::screen::opponents_nearest(style, game, seat);
            let lead = if risk.is_empty() {
                "you made a yaku".to_string()
            } else {
                format!("you made a yaku ({})", risk.join("; "))
            };
            let mut q = declarations(&lead, &now);
            if legal.iter().any(|a| is_stop(r, *a)) {
                q.push_str(" (Enter: stop)");
            }
            q
        }
        Phase::AfterDeal => declarations("after the deal, choose", ""),
        Phase::DropOut => {
            let cost = r
                .matching()
                .and_then(|f| f.drop_out.as_ref())
                .filter(|d| d.pays != 0)
                .map(|d| {
                    let times = if r.matching().is_some_and(|f| f.table_multiplies) {
                        game.table_count().max(1)
                    } else {
                        1
                    };
                    let each = d.pays.saturating_mul(times);
                    if each > 0 {
                        format!(
                            " (dropping out pays {} to each player)",
                            super::plural(each, "point")
                        )
                    } else {
                        format!(
                            " (dropping out is paid {} by each player)",
                            super::plural(-each, "point")
                        )
                    }
                })
                .unwrap_or_default();
            declarations(&format!("play this hand or drop out{cost}"), "")
        }
        Phase::GameOver => "the game is over".to_string(),
    }
}

/// True when `action` is a declaration that stops the hand.
fn is_stop(r: &Ruleset, action: Action) -> bool {
    matches!(action, Action::Declare { decl, .. }
        if r.declarations.get(decl.0 as usize).is_some_and(|d| d.effect == "stop"))
}

/// The option chosen at first: the safe one where there is one (stop after a yaku rather than
/// play on), else the first.
pub fn default_choice(game: &MatchingGame, legal: &[Action]) -> usize {
    let r = Game::ruleset(game);
    if !matches!(game.phase(), Phase::Declare) {
        return 0;
    }
    legal
        .iter()
        .position(|a| {
            matches!(a, Action::Declare { decl, .. }
                if r.declarations[decl.0 as usize].effect == "stop")
        })
        .unwrap_or(0)
}

/// The declaration among `legal` that `text` names (id or name, case and separators aside, or
/// the start of one), if exactly one.
fn named_declaration(ruleset: &Ruleset, legal: &[Action], lower: &str) -> Option<Action> {
    let plain = |s: &str| s.to_ascii_lowercase().replace(['-', '_', ' '], "");
    let typed = plain(lower);
    if typed.is_empty() {
        return None;
    }
    let offered: Vec<(Action, String, String)> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Declare { decl, .. } => {
                let d = &ruleset.declarations[decl.0 as usize];
                Some((*a, plain(&d.id), plain(&d.name)))
            }
            _ => None,
        })
        .collect();
    if let Some((a, ..)) = offered
        .iter()
        .find(|(_, id, name)| *id == typed || *name == typed)
    {
        return Some(*a);
    }
    let starts: Vec<&Action> = offered
        .iter()
        .filter(|(_, id, name)| id.starts_with(&typed) || name.starts_with(&typed))
        .map(|(a, ..)| a)
        .collect();
    match starts.as_slice() {
        [one] => Some(**one),
        _ => None,
    }
}

/// What `line` means now, or why it cannot be taken.
pub fn parse(line: &str, game: &MatchingGame, legal: &[Action]) -> Result<Input, String> {
    let text = line.trim();
    let lower = text.to_ascii_lowercase();
    // An empty answer to the call to play on is the safe one: stop.
    if text.is_empty()
        && matches!(game.phase(), Phase::Declare)
        && let Some(stop) = legal.iter().find(|a| is_stop(Game::ruleset(game), **a))
    {
        return Ok(Input::Act(*stop));
    }
    if let Some(c) = command(&lower) {
        return c;
    }
    let number = text.parse::<usize>().ok();
    let r = Game::ruleset(game);
    let deck = &r.deck;
    // A declaration's word where none is offered gets its own reason.
    let declaration_word = number.is_none()
        && r.declarations
            .iter()
            .any(|d| d.id.eq_ignore_ascii_case(&lower) || d.name.eq_ignore_ascii_case(&lower));
    match game.phase() {
        Phase::Play => {
            let seat = game.to_act().unwrap_or(0);
            let hand = game.hand(seat);
            if let Some(n) = number {
                return match hand.nth(n.wrapping_sub(1)) {
                    Some(card) => Ok(Input::Act(Action::Play { card })),
                    None if n >= 1 && n <= legal.len() => Ok(Input::Act(legal[n - 1])),
                    None if legal.len() > hand.len() as usize => Err(format!(
                        "there is no option {n}: choose 1 to {}",
                        legal.len()
                    )),
                    None => Err(format!(
                        "there is no card {n} in your hand: choose 1 to {}",
                        hand.len()
                    )),
                };
            }
            if matches!(lower.as_str(), "draw" | "pass")
                && let Some(a) = legal.iter().find(|a| matches!(a, Action::Draw { .. }))
            {
                return Ok(Input::Act(*a));
            }
            let extras = &legal[(hand.len() as usize).min(legal.len())..];
            if let Some(a) = named_declaration(r, extras, &lower) {
                let same = extras
                    .iter()
                    .filter(|b| matches!((b, a), (Action::Declare { decl: x, .. }, Action::Declare { decl: y, .. }) if *x == y))
                    .count();
                if same == 1 {
                    return Ok(Input::Act(a));
                }
                return Err(format!(
                    "`{text}` is possible for more than one suit: choose it by number (1 to {})",
                    legal.len()
                ));
            }
            if declaration_word {
                return Err(not_now(text, r));
            }
            let card = card(text, r)?;
            if hand.contains(card) {
                Ok(Input::Act(Action::Play { card }))
            } else {
                Err(format!("`{}` is not in your hand", deck.card(card).name))
            }
        }
        Phase::CaptureChoice { card: played, .. } => {
            let options = capture_sets(legal);
            let names = options
                .iter()
                .map(|s| {
                    if s.is_empty() {
                        return "trail".to_string();
                    }
                    s.iter()
                        .map(|c| deck.card(c).name.as_str())
                        .collect::<Vec<_>>()
                        .join(" + ")
                })
                .collect::<Vec<_>>()
                .join(", ");
            let act = |set: CardSet| {
                Input::Act(match set.iter().next() {
                    Some(card) if set.len() == 1 => Action::Take { card },
                    _ => Action::TakeSet { cards: set },
                })
            };
            let builds = build_moves(legal);
            if let Some(n) = number {
                let i = n.wrapping_sub(1);
                return options
                    .get(i)
                    .map(|&set| act(set))
                    .or_else(|| {
                        builds
                            .get(i.wrapping_sub(options.len()))
                            .map(|&(cards, value)| Input::Act(Action::Build { cards, value }))
                    })
                    .ok_or_else(|| {
                        format!(
                            "there is no option {n}: choose 1 to {}",
                            options.len() + builds.len()
                        )
                    });
            }
            if let Some(rest) = lower.strip_prefix("build") {
                return build_named(rest.trim(), &builds, r);
            }
            if declaration_word {
                return Err(not_now(text, r));
            }
            if text.eq_ignore_ascii_case("trail") && options.contains(&CardSet::EMPTY) {
                return Ok(act(CardSet::EMPTY));
            }
            let named = named_cards(text, r)?;
            // The set named, or the one capture that holds every card named.
            let mut holding = options.iter().filter(|s| (named - **s).is_empty());
            let chosen = options.iter().find(|s| **s == named).or_else(|| {
                match (holding.next(), holding.next()) {
                    (Some(only), None) => Some(only),
                    _ => None,
                }
            });
            match chosen {
                Some(&set) => Ok(act(set)),
                None if named.len() == 1 => Err(format!(
                    "`{}` is not a table card that {} can capture; choose one of: {names}",
                    named
                        .iter()
                        .next()
                        .map_or("", |c| deck.card(c).name.as_str()),
                    deck.card(played).name
                )),
                None => Err(format!(
                    "{} cannot capture {} that way; choose one of: {names}",
                    deck.card(played).name,
                    named
                        .iter()
                        .map(|c| deck.card(c).name.as_str())
                        .collect::<Vec<_>>()
                        .join(" + ")
                )),
            }
        }
        Phase::Declare | Phase::AfterDeal | Phase::DropOut | Phase::Choose => {
            if let Some(n) = number {
                return legal
                    .get(n.wrapping_sub(1))
                    .copied()
                    .map(Input::Act)
                    .ok_or_else(|| format!("there is no option {n}: choose 1 to {}", legal.len()));
            }
            if let Some(a) = named_declaration(r, legal, &lower) {
                return Ok(Input::Act(a));
            }
            let offered: Vec<String> = legal
                .iter()
                .filter_map(|a| match a {
                    Action::Declare { decl, .. } => {
                        Some(format!("`{}`", r.declarations[decl.0 as usize].id))
                    }
                    _ => None,
                })
                .collect();
            if declaration_word {
                Err(format!(
                    "`{text}` is not possible now in these rules: answer {}",
                    offered.join(" or ")
                ))
            } else {
                Err(format!(
                    "`{text}`: answer {} (or `help`)",
                    offered.join(" or ")
                ))
            }
        }
        Phase::GameOver => Err("the game is over".into()),
    }
}

/// Why a declaration's word cannot be answered at a play or capture prompt.
fn not_now(text: &str, ruleset: &Ruleset) -> String {
    let names: Vec<&str> = ruleset
        .matching()
        .map(|f| {
            f.after_yaku
                .iter()
                .map(|d| ruleset.declarations[d.0 as usize].name.as_str())
                .collect()
        })
        .unwrap_or_default();
    format!(
        "`{text}` is not possible now: the declarations after a yaku ({}) are offered only after making one",
        names.join(", ")
    )
}

/// The card a player means, or why none.
pub fn card(text: &str, ruleset: &Ruleset) -> Result<CardId, String> {
    let deck = &ruleset.deck;
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
        // Ids and display names alike: a misspelt name gets its name back.
        let names = deck.cards.iter().map(|c| c.name.as_str());
        let help = did_you_mean(text, deck.card_ids().chain(names))
            .map_or_else(String::new, |h| format!(" ({h})"));
        format!("unknown card or command `{text}`{help}; type `help` for the commands")
    })
}

/// The builds a choice offers (`[flow.build]`), in the order of the legal moves: the table cards
/// the card is laid on and the value.
fn build_moves(legal: &[Action]) -> Vec<(CardSet, u8)> {
    legal
        .iter()
        .filter_map(|a| match *a {
            Action::Build { cards, value } => Some((cards, value)),
            _ => None,
        })
        .collect()
}

/// The build a line after `build` names: its value, and the cards it is laid on when several
/// builds of the value are offered (`build 10 on 3c 7h`).
fn build_named(text: &str, builds: &[(CardSet, u8)], r: &Ruleset) -> Result<Input, String> {
    let listed = || {
        builds
            .iter()
            .map(|(on, v)| format!("build {v} on {}", r.deck.ids(*on).join(" + ")))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if builds.is_empty() {
        return Err("the card played makes no build here".into());
    }
    let (value, on) = text.split_once(" on ").unwrap_or((text, ""));
    let Ok(value) = value.trim().parse::<u8>() else {
        return Err(format!("say which build: {}", listed()));
    };
    let named = if on.trim().is_empty() {
        None
    } else {
        Some(named_cards(on.trim(), r)?)
    };
    let mut fit = builds
        .iter()
        .filter(|(cards, v)| *v == value && named.is_none_or(|n| n == *cards));
    match (fit.next(), fit.next()) {
        (Some(&(cards, value)), None) => Ok(Input::Act(Action::Build { cards, value })),
        (Some(_), Some(_)) => Err(format!(
            "more than one build of {value}: say the cards too ({})",
            listed()
        )),
        _ => Err(format!(
            "no build of {value} that way; choose one of: {}",
            listed()
        )),
    }
}

/// The captures a choice offers, in the order of the legal moves: each a set of table cards.
fn capture_sets(legal: &[Action]) -> Vec<CardSet> {
    legal.iter().filter_map(|a| a.taken()).collect()
}

/// The cards a line names: one card, or several joined by `+`, `,` or spaces (ids).
fn named_cards(text: &str, r: &Ruleset) -> Result<CardSet, String> {
    if let Ok(one) = card(text, r) {
        return Ok(CardSet::single(one));
    }
    let parts: Vec<&str> = if text.contains(['+', ',']) {
        text.split(['+', ','])
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect()
    } else {
        text.split_whitespace().collect()
    };
    let mut set = CardSet::EMPTY;
    for p in parts {
        set.insert(card(p, r)?);
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::StartOptions;
    use crate::ruleset;
    use std::sync::Arc;

    fn game() -> MatchingGame {
        let r = Arc::new(ruleset::load("koikoi").value.unwrap());
        crate::families::matching::start(
            r,
            StartOptions {
                seed: 4,
                ..StartOptions::default()
            },
        )
        .unwrap()
    }

    #[test]
    fn play_prompt_takes_numbers_ids_and_names() {
        let g = game();
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        let seat = g.to_act().unwrap();
        let first = g.hand(seat).first_card().unwrap();
        let deck = &Game::ruleset(&g).deck;
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
                .contains("are offered only after making one")
        );
        assert!(
            parse("pine-cran", &g, &legal)
                .unwrap_err()
                .contains("did you mean `pine-crane`")
        );
        assert!(
            parse("Crane and Sn", &g, &legal)
                .unwrap_err()
                .contains("did you mean `Crane and Sun`"),
            "a misspelt display name gets the name"
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

    #[test]
    fn the_trail_is_offered_last_and_taken_by_name_or_number() {
        // `tests/rulesets/trail.toml`: Scopa whose cards may be trailed (`must_capture`). The
        // first deal, by seed, whose first card played can capture.
        let r = Arc::new(ruleset::load("tests/rulesets/trail.toml").value.unwrap());
        let trail = Action::TakeSet {
            cards: CardSet::EMPTY,
        };
        let mut legal = Vec::new();
        for seed in 0..50 {
            let mut g = crate::families::matching::start(
                Arc::clone(&r),
                StartOptions {
                    seed,
                    ..StartOptions::default()
                },
            )
            .unwrap();
            let seat = g.to_act().unwrap();
            let Some(card) = g
                .hand(seat)
                .iter()
                .find(|&c| !crate::families::matching::matches(&r, g.table(), c).is_empty())
            else {
                continue;
            };
            g.apply(Action::Play { card }).unwrap();
            g.legal_actions(&mut legal);
            assert_eq!(legal.last(), Some(&trail), "seed {seed}");
            let style = Style::for_players(&["human".into(), "greedy".into()], false);
            let q = question(&style, &g, &legal);
            assert!(q.contains("can capture or be laid on the table"), "{q}");
            assert!(
                q.ends_with(&format!("{}) trail: lay it on the table", legal.len())),
                "{q}"
            );
            assert_eq!(parse("trail", &g, &legal), Ok(Input::Act(trail)));
            assert_eq!(
                parse(&legal.len().to_string(), &g, &legal),
                Ok(Input::Act(trail))
            );
            return;
        }
        panic!("no deal of 50 offers a capture at once");
    }
}

#[cfg(test)]
mod completion_tests {
    use super::completions;

    fn words(options: &[[&str; 2]]) -> Vec<Vec<String>> {
        options
            .iter()
            .map(|o| o.iter().map(|w| w.to_string()).collect())
            .collect()
    }

    #[test]
    fn one_card_spelt_two_ways_is_one_completion() {
        let one = words(&[
            ["Cherry Curtain", "cherry-curtain"],
            ["Moon", "pampas-moon"],
        ]);
        assert_eq!(completions(&one, "cher"), ["Cherry Curtain"]);
        assert_eq!(completions(&one, "cherry-"), ["cherry-curtain"]);
        assert_eq!(completions(&one, "pam"), ["pampas-moon"]);
        let two = words(&[
            ["Cherry Curtain", "cherry-curtain"],
            ["Cherry Poetry Ribbon", "cherry-poetry"],
        ]);
        assert_eq!(
            completions(&two, "CHER"),
            ["Cherry Curtain", "Cherry Poetry Ribbon"]
        );
        assert!(completions(&two, "x").is_empty());
    }
}
