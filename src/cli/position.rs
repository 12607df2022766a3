//! `yaku position FILE`: one position of a game, written by hand or printed by
//! `yaku replay --position-at`: where every card lies, the moves on offer with what each one
//! takes, wins or scores, what a bot would play and why, and the position after a move.

use super::load_ruleset;
use crate::core::record::{RecordedEvent, StepAction};
use crate::core::{Action, Evaluation, Game, agent_rng};
use crate::diag::{Diagnostic, Loc, SourceMap};
use crate::families::position::{self, Position, PositionError};
use crate::front::prompt::Input;
use crate::front::table::Table;
use crate::ruleset::Ruleset;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The largest position file read: a whole game's moves fit many times over.
const MAX_POSITION_BYTES: u64 = 1 << 20;

/// Arguments of `yaku position`.
#[derive(clap::Args, Debug)]
pub struct PositionArgs {
    /// The position (TOML: the ruleset, where the hand's cards lie as dealt, the moves since;
    /// see the guide's page on positions). `-` reads standard input.
    file: PathBuf,
    /// Also say what this bot would play here, and why (`greedy`, `expert`, `expert@1s`, ...).
    #[arg(long, value_name = "BOT")]
    bot: Option<String>,
    /// Play this move (its number in the list, or as typed at the table) and print the new
    /// position file instead.
    #[arg(long = "play", value_name = "MOVE")]
    play: Option<String>,
    /// Print one JSON object: every zone, whose turn, the scores, and each move with its
    /// events.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: &PositionArgs) -> i32 {
    let name = args.file.display().to_string();
    let text = if args.file.as_os_str() == "-" {
        crate::fsio::read_limited_from(std::io::stdin(), MAX_POSITION_BYTES)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    } else {
        crate::fsio::read_text_limited(&args.file, MAX_POSITION_BYTES)
    };
    let text = match text {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read `{name}`: {e}");
            return super::EXIT_FAILURE;
        }
    };
    let report = |e: PositionError| {
        let mut sources = SourceMap::new();
        let file = sources.add(name.clone(), text.clone());
        let span = e.span.clone().unwrap_or(0..0);
        let found = Diagnostic::error(e.message, Loc::new(file, span)).with_help(e.help);
        super::print_diagnostics(&sources, &[found]);
        super::EXIT_FAILURE
    };
    let mut position = match Position::parse(&text) {
        Ok(p) => p,
        Err(e) => return report(e),
    };
    let spec = ruleset_spec(&args.file, position.ruleset.get_ref());
    let Some(ruleset) = load_ruleset(&spec) else {
        return super::EXIT_FAILURE;
    };
    let game = match position::start(&position, Arc::clone(&ruleset), true) {
        Ok(g) => g,
        Err(e) => return report(e),
    };
    let (players, table) = seated(&ruleset, game.seats());
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    if let Some(wanted) = &args.play {
        let action = match chosen(wanted, &*table, &*game, &legal) {
            Ok(a) => a,
            Err(why) => {
                eprintln!("error: `{wanted}`: {why}");
                return super::EXIT_USAGE;
            }
        };
        let step = StepAction::from_action(action, &ruleset);
        position.moves.push(toml::Spanned::new(0..0, step));
        print!("{}", position.to_text());
        return super::EXIT_OK;
    }
    let bot = match &args.bot {
        Some(name) => match bot_choice(name, &*game, &legal, &*table) {
            Ok(choice) => Some(choice),
            Err(e) => {
                eprintln!("error: {e}");
                return super::EXIT_USAGE;
            }
        },
        None => None,
    };
    let shown = Shown {
        game: &*game,
        ruleset: &ruleset,
        table: &*table,
        players: &players,
    };
    print!("{}", shown.report(&legal, bot.as_ref(), args.json));
    super::EXIT_OK
}

/// The seats of a position's table, named as the zones name them (`seat 0`), in the narration
/// too, and the family's table that tells each move.
fn seated(ruleset: &Ruleset, seats: usize) -> (Vec<String>, Box<dyn Table>) {
    let players: Vec<String> = (0..seats).map(|s| format!("seat {s}")).collect();
    let table = crate::front::fronts::for_ruleset(ruleset, &players, players.clone(), false, false);
    (players, table)
}

/// A position's game as `yaku position` shows it.
struct Shown<'a> {
    game: &'a dyn Game,
    ruleset: &'a Ruleset,
    table: &'a dyn Table,
    players: &'a [String],
}

impl Shown<'_> {
    /// The zones, the carried values, the hand as it stands and each of the `legal` moves with
    /// what follows it (and the bot's choice): as text, or as one JSON object.
    fn report(&self, legal: &[Action], bot: Option<&BotChoice>, as_json: bool) -> String {
        let moves: Vec<MoveResult> = legal
            .iter()
            .map(|&a| MoveResult::of(self.game, self.table, a, self.players))
            .collect();
        let standing = self.table.standing(self.game);
        if as_json {
            let value = json(self.game, self.ruleset, &moves, bot, &standing);
            format!(
                "{}\n",
                serde_json::to_string_pretty(&value).unwrap_or_default()
            )
        } else {
            text_of(self.game, self.ruleset, &moves, bot, &standing)
        }
    }
}

/// The ruleset a position names, a rule file's path taken from the position's own folder.
fn ruleset_spec(file: &Path, named: &str) -> String {
    let is_file = named.ends_with(".toml") && !named.contains('+');
    match file.parent() {
        Some(dir) if is_file && Path::new(named).is_relative() && file.as_os_str() != "-" => {
            dir.join(named).display().to_string()
        }
        _ => named.to_string(),
    }
}

/// The move `wanted` names: its 1-based number among `legal`, or what the table reads it as.
fn chosen(
    wanted: &str,
    table: &dyn Table,
    game: &dyn Game,
    legal: &[Action],
) -> Result<Action, String> {
    if game.to_act().is_none() {
        return Err("the game is over: no move is left".into());
    }
    if let Ok(n) = wanted.trim().parse::<usize>() {
        return (1..=legal.len())
            .contains(&n)
            .then(|| legal[n - 1])
            .ok_or_else(|| format!("moves are numbered 1 to {}", legal.len()));
    }
    match table.parse(wanted, game, legal)? {
        Input::Act(a) => Ok(a),
        _ => Err("not a move".into()),
    }
}

/// What one legal move does: its words, and what the game then tells until the next decision.
struct MoveResult {
    action: Action,
    words: String,
    told: String,
    events: Vec<RecordedEvent>,
}

impl MoveResult {
    /// `action` played on a copy of `game`, told by a table of its own (a table keeps what it
    /// told).
    fn of(game: &dyn Game, table: &dyn Table, action: Action, players: &[String]) -> MoveResult {
        let mut after = game.box_clone();
        let _ = after.drain_events();
        let result = after.apply(action);
        let drained = after.drain_events();
        let mut teller = crate::front::fronts::for_ruleset(
            game.ruleset(),
            players,
            players.to_vec(),
            false,
            false,
        );
        // The table tells the hands already over before the move once, to itself.
        let _ = teller.narrate(game, &[]);
        let mut told = match result {
            Ok(()) => teller.narrate(&*after, &drained),
            Err(e) => format!("(refused: {})", e.reason),
        };
        // Where the table tells nothing of it (a card dealt to a hand), the cards that moved.
        if told.trim().is_empty() {
            let before = game.zones();
            for (zone, now) in after.zones() {
                let was = before
                    .iter()
                    .find(|(n, _)| *n == zone)
                    .map_or(crate::deck::CardSet::EMPTY, |(_, c)| *c);
                if now - was != crate::deck::CardSet::EMPTY {
                    let deck = &game.ruleset().deck;
                    told.push_str(&format!("{zone} takes {}\n", deck.ids(now - was).join(" ")));
                }
            }
        }
        // A move that leaves its seat a second choice (which match to take) says what it is.
        if let Some(seat) = after.to_act()
            && game.to_act() == Some(seat)
            && after.history().len() == game.history().len()
        {
            let mut next = Vec::new();
            after.legal_actions(&mut next);
            let options: Vec<String> = next.iter().map(|&a| teller.describe(&*after, a)).collect();
            told.push_str(&format!(
                "\nthen seat {seat} chooses: {}\n",
                options.join(" | ")
            ));
        }
        MoveResult {
            action,
            words: table.describe(game, action),
            told,
            events: drained
                .iter()
                .map(|e| RecordedEvent::new(0, e, game.ruleset()))
                .collect(),
        }
    }
}

/// A bot's choice here: its name, the move, the table's reasons for it, and what a searching
/// bot found each move worth.
struct BotChoice {
    name: String,
    index: usize,
    why: Vec<String>,
    values: Option<Vec<Evaluation>>,
}

fn bot_choice(
    name: &str,
    game: &dyn Game,
    legal: &[Action],
    table: &dyn Table,
) -> Result<BotChoice, String> {
    let Some(seat) = game.to_act() else {
        return Err("the game is over: no bot has a move to make".into());
    };
    let mut agent =
        crate::families::agent_by_name(name, game.ruleset()).map_err(|e| e.to_string())?;
    // Both from the same stream: a search deals the same worlds for its choice and its values.
    let action = agent.choose(game, seat, legal, &mut agent_rng(0));
    let values = agent.evaluate(game, seat, legal, &mut agent_rng(0));
    // What the move does for the seat, then what the bot itself weighed.
    let mut why = table.why(game, seat, action);
    for reason in agent.reasons(game, seat, legal, action) {
        if !why.contains(&reason) {
            why.push(reason);
        }
    }
    Ok(BotChoice {
        name: name.to_string(),
        index: legal.iter().position(|&a| a == action).unwrap_or(0),
        why,
        values,
    })
}

/// Cards by their ids (as a position writes them), in deck order.
fn ids(ruleset: &Ruleset, cards: crate::deck::CardSet) -> String {
    ruleset.deck.ids(cards).join(" ")
}

fn text_of(
    game: &dyn Game,
    ruleset: &Ruleset,
    moves: &[MoveResult],
    bot: Option<&BotChoice>,
    standing: &[String],
) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let scores: Vec<String> = game.scores().iter().map(i64::to_string).collect();
    // A game to a target says the score it plays to, not its cap on hands.
    let hand = match ruleset.target_score() {
        Some(target) => format!("hand {} (to {target})", game.round()),
        None => format!("hand {} of {}", game.round(), game.rounds()),
    };
    let _ = writeln!(
        out,
        "{} · {hand} · scores {}",
        ruleset.name,
        scores.join(", ")
    );
    if let Some(line) = carried_line(game, ruleset) {
        let _ = writeln!(out, "  {line}");
    }
    for (zone, cards) in game.zones() {
        if !cards.is_empty() {
            let _ = writeln!(out, "  {zone} ({}): {}", cards.len(), ids(ruleset, cards));
        }
    }
    // The hand scored as it stands.
    if !standing.is_empty() {
        let _ = writeln!(out, "as it stands:");
        for line in standing {
            let _ = writeln!(out, "  {line}");
        }
    }
    let Some(seat) = game.to_act() else {
        let _ = writeln!(out, "the game is over");
        return out;
    };
    let _ = writeln!(
        out,
        "seat {seat} to move; {}:",
        crate::front::plural(moves.len(), "move")
    );
    for (i, m) in moves.iter().enumerate() {
        let _ = writeln!(out, "  {}. {}", i + 1, m.words);
        for line in m.told.lines().filter(|l| !l.trim().is_empty()) {
            let _ = writeln!(out, "       {}", line.trim());
        }
    }
    if let Some(b) = bot {
        let _ = writeln!(
            out,
            "{} plays {}. {}",
            b.name,
            b.index + 1,
            moves.get(b.index).map_or("", |m| m.words.as_str())
        );
        for why in &b.why {
            let _ = writeln!(out, "  {why}");
        }
        if let Some(values) = &b.values {
            let _ = writeln!(
                out,
                "{}'s playouts on shared deals, each move's points over the hand against the others' average (it keeps greedy's move unless another beats it by two standard errors, deal by deal):",
                b.name
            );
            for (i, v) in values.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "  {}. {:+.2} ± {:.2} ({} playouts)",
                    i + 1,
                    v.mean,
                    v.error,
                    v.playouts
                );
            }
        }
    }
    out
}

/// The values carried as the game stands, as a position writes them (`field = 2`, a list for a
/// value per seat); `None` when the ruleset carries nothing.
fn carried_line(game: &dyn Game, ruleset: &Ruleset) -> Option<String> {
    let carried = game.carried();
    if carried.is_empty() {
        return None;
    }
    let values: Vec<String> = carried
        .iter()
        .map(|(id, values)| {
            let per_seat = ruleset.carry.iter().any(|d| d.id == id && d.per_seat);
            match values {
                [one] if !per_seat => format!("{id} = {one}"),
                _ => format!(
                    "{id} = [{}]",
                    values
                        .iter()
                        .map(i64::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        })
        .collect();
    Some(format!("carried: {}", values.join(", ")))
}

/// The values carried as the game stands, by id: a number for a value of the table, a list for
/// a value per seat, as a position writes them.
fn carried_json(game: &dyn Game, ruleset: &Ruleset) -> serde_json::Value {
    game.carried()
        .iter()
        .map(|(id, values)| {
            let per_seat = ruleset.carry.iter().any(|d| d.id == id && d.per_seat);
            let value = match values {
                [one] if !per_seat => serde_json::json!(one),
                _ => serde_json::json!(values),
            };
            (id.to_string(), value)
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

fn json(
    game: &dyn Game,
    ruleset: &Ruleset,
    moves: &[MoveResult],
    bot: Option<&BotChoice>,
    standing: &[String],
) -> serde_json::Value {
    let deck = &ruleset.deck;
    let zones: serde_json::Map<String, serde_json::Value> = game
        .zones()
        .into_iter()
        .map(|(name, cards)| (name, deck.ids(cards).into()))
        .collect();
    serde_json::json!({
        "ruleset": ruleset.id,
        "hand": game.round(),
        "hands": game.rounds(),
        "scores": game.scores(),
        "carried": carried_json(game, ruleset),
        "to_act": game.to_act(),
        "zones": zones,
        "standing": standing,
        "moves": moves.iter().map(|m| serde_json::json!({
            "move": StepAction::from_action(m.action, ruleset),
            "words": m.words,
            "events": m.events,
        })).collect::<Vec<_>>(),
        "bot": bot.map(|b| serde_json::json!({
            "name": b.name,
            "move": b.index + 1,
            "why": b.why,
            "values": b.values.as_ref().map(|values| values.iter().map(|v| serde_json::json!({
                "mean": v.mean,
                "error": v.error,
                "playouts": v.playouts,
            })).collect::<Vec<_>>()),
        })),
    })
}

#[cfg(test)]
mod tests {
    use super::{Position, Shown, position, seated};
    use crate::agent::RandomAgent;
    use crate::core::record::Record;
    use crate::core::{Agent, StartOptions, agent_rng};
    use crate::ruleset;
    use std::sync::Arc;

    /// `yaku position` shows every bundled game: a random game's record gives positions (at its
    /// deal, half-way and at its end) that are shown as text, with whose move it is or that the
    /// game is over, and as JSON with every zone.
    #[test]
    fn every_bundled_game_is_shown() {
        for name in ruleset::bundled::ruleset_names() {
            let r = Arc::new(ruleset::load(name).value.unwrap());
            let seats = crate::families::seat_range(&r).default;
            let players: Vec<String> = (0..seats).map(|_| "random".to_string()).collect();
            let mut record = Record::new(&r, name, Some(6), &players, Some(2));
            let options = StartOptions {
                seed: 6,
                seats: Some(seats),
                rounds: Some(2),
                ..StartOptions::default()
            };
            let mut game = crate::families::start(Arc::clone(&r), options).unwrap();
            let (mut rng, mut legal) = (agent_rng(6), Vec::new());
            while let Some(seat) = game.to_act() {
                game.legal_actions(&mut legal);
                let a = RandomAgent.choose(&*game, seat, &legal, &mut rng);
                record.push(seat, a, &r);
                game.apply(a).unwrap();
            }
            record.sync(&*game);
            let n = record.actions.len();
            for at in [0, n / 2, n] {
                let (written, _) = position::of_record(&record, Arc::clone(&r), name, at).unwrap();
                let parsed = Position::parse(&written.to_text()).unwrap();
                let game = position::start(&parsed, Arc::clone(&r), true).unwrap();
                let (players, table) = seated(&r, game.seats());
                game.legal_actions(&mut legal);
                let shown = Shown {
                    game: &*game,
                    ruleset: &r,
                    table: &*table,
                    players: &players,
                };
                let text = shown.report(&legal, None, false);
                assert!(
                    text.starts_with(&r.name)
                        && (text.contains(" to move; ") || text.contains("the game is over")),
                    "{name} after {at}: {text}"
                );
                let json: serde_json::Value =
                    serde_json::from_str(&shown.report(&legal, None, true)).unwrap();
                assert!(json["zones"].is_object(), "{name} after {at}: {json}");
            }
        }
    }
}
