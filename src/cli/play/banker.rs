//! `yaku play` for banker games: one or more players, human or bot, against the banker, hand
//! after hand with bankrolls kept. Humans answer on standard input, so a session can be piped
//! in; the end of input or `quit` stops the session with a summary. `--record` writes the
//! session's record (the same format as every family's), which `yaku replay` reads.

use super::HUMAN;
use crate::agent::{Agent, agent_by_name, agent_rng};
use crate::analysis::strategy::bundled_names;
use crate::cli::plural;
use crate::core::record::Record;
use crate::core::{Action, StartOptions};
use crate::deck::CardSet;
use crate::families::banker::{BankerGame, BankerHand, BankerPhase, hand_value};
use crate::ruleset::Ruleset;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// How a banker session is set up from the command line.
pub struct BankerSetup {
    /// The ruleset as named on the command line (records keep it).
    pub spec: String,
    /// Where to write the session's record, if anywhere.
    pub record: Option<PathBuf>,
    /// Who sits at each player seat: `human` or a bot.
    pub players: Vec<String>,
    /// True when a human sits as the banker (who makes no decisions, but watches each hand).
    pub human_banker: bool,
    /// The seed.
    pub seed: u64,
    /// Hands instead of the ruleset's.
    pub hands: Option<u32>,
    /// Table limits instead of the ruleset's.
    pub limits: (Option<i64>, Option<i64>),
}

const HELP: &str = "\
at any prompt:
  a number   your bet in chips (Enter: the minimum), or how many more tiles to take
  rules      the rules of this game: limits, tiles to take, how hands are valued
  score      the bankrolls and every finished hand
  help       this text
  quit       stop the session (so does end of input, Ctrl-D)";

/// Plays a session; returns the exit code.
pub fn run(ruleset: Arc<Ruleset>, setup: BankerSetup) -> i32 {
    let flow = ruleset.banker().expect("the caller checked the family");
    if setup.players.is_empty() || setup.players.len() > flow.max_players as usize {
        eprintln!(
            "error: this table seats 1 to {} players; `--players` gave {}",
            flow.max_players,
            setup.players.len()
        );
        return crate::cli::EXIT_USAGE;
    }
    let mut bots: Vec<Option<Box<dyn Agent>>> = Vec::new();
    // Each seat's label: a bot's name (a strategy file's own `name`), or the human.
    let mut labels: Vec<String> = Vec::new();
    for p in &setup.players {
        if p == HUMAN {
            bots.push(None);
            labels.push(HUMAN.into());
            continue;
        }
        match agent_by_name(p, &ruleset) {
            Ok(b) => {
                labels.push(b.name().to_string());
                bots.push(Some(b));
            }
            Err(e) => {
                let names: Vec<&str> = bundled_names().collect();
                eprintln!(
                    "error: unknown player `{p}`: {e}\n  = help: players: {HUMAN}, random, {}, or a strategy file",
                    names.join(", ")
                );
                return crate::cli::EXIT_USAGE;
            }
        }
    }
    let mut game = match crate::families::banker::start(
        Arc::clone(&ruleset),
        StartOptions {
            seed: setup.seed,
            seats: Some(setup.players.len()),
            rounds: setup.hands,
            bet_limits: setup.limits,
            ..StartOptions::default()
        },
    ) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return crate::cli::EXIT_USAGE;
        }
    };
    let humans = bots.iter().filter(|b| b.is_none()).count();
    let names: Vec<String> = labels
        .iter()
        .enumerate()
        .map(|(i, p)| match (p == HUMAN, humans) {
            (true, 1) => format!("player {} (you)", i + 1),
            (true, _) => format!("player {} (human)", i + 1),
            (false, _) => format!("player {} ({p})", i + 1),
        })
        .collect();
    let (min, max) = game.limits();
    let bankroll = ruleset.banker().map_or(0, |f| f.bankroll);
    if min > bankroll {
        eprintln!(
            "error: the minimum bet ({min}) is more than a player's starting chips ({bankroll}); nobody could play a hand"
        );
        return crate::cli::EXIT_USAGE;
    }
    println!(
        "{} · seed {} (play this session again with --seed {}) · {} against the banker · bets {min} to {max} chips · {}",
        ruleset.name,
        setup.seed,
        setup.seed,
        setup.players.len(),
        plural(game.hands_total(), "hand")
    );
    let mut record = Record::new(
        &ruleset,
        &setup.spec,
        Some(setup.seed),
        &setup.players,
        setup.hands,
    );
    (record.min_bet, record.max_bet) = setup.limits;
    let write_record = |record: &mut Record, game: &BankerGame| -> Result<(), i32> {
        let Some(path) = &setup.record else {
            return Ok(());
        };
        record.sync(game);
        std::fs::write(path, record.to_json() + "\n").map_err(|e| {
            eprintln!(
                "error: cannot write the record to `{}`: {e}",
                path.display()
            );
            crate::cli::EXIT_FAILURE
        })
    };
    if let Err(code) = write_record(&mut record, &game) {
        return code;
    }
    let mut rng = agent_rng(setup.seed);
    let stdin = std::io::stdin();
    let echo = !stdin.is_terminal();
    let mut input = Prompt {
        lines: stdin.lock().lines(),
        echo,
    };
    let mut shown_hand = 0;
    let mut seen_history = 0;
    loop {
        while seen_history < game.hands_played().len() {
            print!(
                "{}",
                showdown(&ruleset, &game.hands_played()[seen_history], &names)
            );
            println!("{}", bankrolls(&game, &names));
            seen_history += 1;
            if let Err(code) = write_record(&mut record, &game) {
                return code;
            }
        }
        let Some(seat) = game.to_act() else { break };
        if game.hand() != shown_hand {
            shown_hand = game.hand();
            println!("\n── hand {} of {} ──", game.hand(), game.hands_total());
            if setup.human_banker && !wait_for_enter(&mut input, &game, &names) {
                let _ = write_record(&mut record, &game);
                return stop(&game, &names);
            }
        }
        let legal = game.legal();
        let action = match &mut bots[seat] {
            Some(bot) => {
                let a = bot.choose(&game, seat, &legal, &mut rng);
                println!("{} {}", names[seat], describe(a));
                a
            }
            None => match ask(&mut input, &game, seat, &names, &legal) {
                Some(a) => a,
                None => {
                    let _ = write_record(&mut record, &game);
                    return stop(&game, &names);
                }
            },
        };
        let before = game.tiles(seat);
        if let Err(e) = game.apply(action) {
            // The prompt only returns legal actions; a bot's choice is legal by contract.
            eprintln!("error: {e}");
            return crate::cli::EXIT_FAILURE;
        }
        record.push(seat, action, &ruleset);
        if bots[seat].is_none()
            && matches!(action, Action::Draw { .. })
            && game.hands_played().len() == seen_history
        {
            let drawn = game.tiles(seat) - before;
            println!("you take {}", tiles(&ruleset, drawn));
        }
    }
    println!(
        "\nthe session is over after {}",
        plural(game.hands_played().len(), "hand")
    );
    println!("{}", bankrolls(&game, &names));
    if let Err(code) = write_record(&mut record, &game) {
        return code;
    }
    if let Some(path) = &setup.record {
        println!("record written to {}", path.display());
    }
    crate::cli::EXIT_OK
}

/// `1 point`, `7 points`.
fn points(n: i64) -> String {
    plural(n, "point")
}

fn describe(a: Action) -> String {
    match a {
        Action::Bet { amount } => format!("bets {amount}"),
        Action::Draw { count } => format!(
            "takes {count} more tile{}",
            if count == 1 { "" } else { "s" }
        ),
        _ => "acts".to_string(),
    }
}

/// Tiles as players read them: `[6:5] [3:3]`.
fn tiles(ruleset: &Ruleset, set: CardSet) -> String {
    set.iter()
        .map(|t| ruleset.deck.card(t).name.clone())
        .collect::<Vec<_>>()
        .join(" ")
}

fn bankrolls(game: &BankerGame, names: &[String]) -> String {
    let mut parts: Vec<String> = names
        .iter()
        .zip(game.bankrolls())
        .map(|(n, b)| format!("{n} {b}"))
        .collect();
    match game.banker_bankroll() {
        Some(b) => parts.push(format!("banker {b}")),
        None => parts.push("banker (unlimited)".into()),
    }
    format!("bankrolls: {}", parts.join(", "))
}

fn showdown(ruleset: &Ruleset, h: &BankerHand, names: &[String]) -> String {
    let set = |ts: &[crate::deck::CardId]| ts.iter().copied().collect::<CardSet>();
    let mut out = String::new();
    match &h.banker_win {
        Some(win) => out.push_str(&format!(
            "the banker shows {}: {win}, and wins every bet at once\n",
            tiles(ruleset, set(&h.banker_tiles))
        )),
        None => out.push_str(&format!(
            "showdown: the banker has {} = {}\n",
            tiles(ruleset, set(&h.banker_tiles)),
            points(h.banker_value.unwrap_or(0))
        )),
    }
    for p in &h.players {
        let outcome = match p.result {
            r if r > 0 => format!("wins {r}"),
            r if r < 0 => format!("loses {}", -r),
            _ => "draw, keeps the stake".into(),
        };
        let value = p
            .value
            .map_or_else(String::new, |v| format!(" = {}", points(v)));
        out.push_str(&format!(
            "  {:<22} {}{value}, bet {}: {outcome}\n",
            names[p.seat],
            tiles(ruleset, set(&p.tiles)),
            p.bet
        ));
    }
    out
}

/// Lines typed at the prompts, echoed when they come from a pipe (as the Koi-Koi prompts do).
struct Prompt<L> {
    lines: L,
    echo: bool,
}

impl<L: Iterator<Item = std::io::Result<String>>> Iterator for Prompt<L> {
    type Item = std::io::Result<String>;

    fn next(&mut self) -> Option<Self::Item> {
        print!("> ");
        let _ = std::io::stdout().flush();
        let line = self.lines.next();
        match &line {
            Some(Ok(l)) if self.echo => println!("{}", l.trim_end()),
            None => println!(),
            _ => {}
        }
        line
    }
}

fn wait_for_enter(
    input: &mut impl Iterator<Item = std::io::Result<String>>,
    game: &BankerGame,
    names: &[String],
) -> bool {
    loop {
        println!("you are the banker: press Enter to deal (or type quit, score, help)");
        match input.next() {
            Some(Ok(line)) => match line.trim() {
                "" => return true,
                "quit" => return false,
                "score" => println!("{}", bankrolls(game, names)),
                "help" => println!("{HELP}"),
                other => println!("`{other}` is not a command here; press Enter to deal"),
            },
            _ => return false,
        }
    }
}

/// Asks a human for an action until a legal one is given; `None` to stop.
fn ask(
    input: &mut impl Iterator<Item = std::io::Result<String>>,
    game: &BankerGame,
    seat: usize,
    names: &[String],
    legal: &[Action],
) -> Option<Action> {
    let ruleset = game.ruleset();
    let flow = game.flow();
    let view = game.view(seat);
    let mine = view.tiles;
    println!(
        "{}: your tile{} {} = {}; you have {} chips",
        names[seat],
        if mine.len() == 1 { "" } else { "s" },
        tiles(ruleset, mine),
        points(hand_value(flow, mine)),
        view.bankroll
    );
    loop {
        let question = match game.phase() {
            BankerPhase::Bet { .. } => format!(
                "bet how many chips? ({} to {}, Enter for {})",
                view.limits.0, view.limits.1, view.limits.0
            ),
            _ => {
                let options: Vec<String> = legal
                    .iter()
                    .filter_map(|a| match a {
                        Action::Draw { count } => Some(count.to_string()),
                        _ => None,
                    })
                    .collect();
                format!("take how many more tiles? ({})", options.join(" or "))
            }
        };
        println!("{question}");
        let line = match input.next() {
            Some(Ok(l)) => l,
            _ => return None,
        };
        let line = line.trim();
        match line {
            "quit" => return None,
            "help" => {
                println!("{HELP}");
                continue;
            }
            "rules" => {
                println!("{}", rules(ruleset, game));
                continue;
            }
            "score" => {
                println!("{}", bankrolls(game, names));
                continue;
            }
            _ => {}
        }
        let wanted = match game.phase() {
            BankerPhase::Bet { .. } if line.is_empty() => Some(Action::Bet {
                amount: view.limits.0,
            }),
            BankerPhase::Bet { .. } => line.parse().ok().map(|amount| Action::Bet { amount }),
            _ if line.is_empty() => {
                println!("type how many more tiles to take");
                continue;
            }
            _ => line.parse().ok().map(|count| Action::Draw { count }),
        };
        match wanted {
            Some(a) if legal.contains(&a) => return Some(a),
            Some(_) => println!(
                "that is not allowed now: {}",
                match game.phase() {
                    BankerPhase::Bet { .. } =>
                        format!("a bet is {} to {} chips", view.limits.0, view.limits.1),
                    _ => "choose one of the numbers offered".to_string(),
                }
            ),
            None => println!("`{line}` is not a number or a command (type help)"),
        }
    }
}

fn rules(ruleset: &Ruleset, game: &BankerGame) -> String {
    let flow = game.flow();
    let (min, max) = game.limits();
    let mut out = format!("{}: {}\n", ruleset.name, ruleset.description);
    out.push_str(&format!(
        "  each player gets {} tile(s) and bets {min} to {max} chips; the banker draws {}\n",
        flow.first_tiles, flow.banker_tiles
    ));
    for w in &flow.banker_wins {
        out.push_str(&format!(
            "  the banker wins every bet at once with: {}\n",
            w.name
        ));
    }
    let options: Vec<String> = flow.draw_options.iter().map(u32::to_string).collect();
    out.push_str(&format!(
        "  then each player takes {} more tile(s); higher value wins the bet, equal is a draw\n",
        options.join(" or ")
    ));
    out.push_str(&format!("  a hand's value: {}", flow.value_source));
    out
}

fn stop(game: &BankerGame, names: &[String]) -> i32 {
    println!(
        "\nsession stopped after {}",
        plural(game.hands_played().len(), "finished hand")
    );
    println!("{}", bankrolls(game, names));
    crate::cli::EXIT_OK
}
