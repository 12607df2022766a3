//! `yaku score RULESET --captured ...`: what a hand ending with that capture pile scores.

use super::load_ruleset;
use crate::deck::CardSet;
use crate::diag::did_you_mean;
use crate::families::banker;
use crate::ruleset::{BankerFlow, Exhausted, GameLength, Ruleset};
use crate::yaku::{self as scoring, Circumstances, Special};
use std::fmt::Write as _;

/// The most marriage points a flag may give: far above a hand's, so sums stay exact.
const MAX_FLAG_POINTS: i64 = 10_000;

/// The most calls to play on a flag may give: more than a hand has turns.
const MAX_CALLS: i64 = 20;

/// The most times `--made` may say a declaration was made in one hand (a hand has fewer
/// turns): each may double the score, and more would overflow inside the ruleset's script.
const MAX_MADE: i64 = 12;

/// Arguments of `yaku score`.
#[derive(clap::Args, Debug)]
pub struct ScoreArgs {
    /// The ruleset: a bundled name (`koikoi`) or a path.
    pub(crate) ruleset: String,
    #[command(flatten)]
    pub(crate) house: super::HouseArgs,
    /// The capture pile: card ids separated by commas. Table-hand banker games (Baccarat): the
    /// player's hand, in the order dealt.
    #[arg(
        long,
        value_delimiter = ',',
        required_unless_present_any = ["hand", "end"],
        value_name = "ID,ID,..."
    )]
    captured: Vec<String>,
    /// Matching games with `--end instant`: the scoring player's dealt hand, as card ids.
    /// Trick-taking games with melds: a hand whose melds to show (with `--trump`).
    #[arg(long, value_delimiter = ',', value_name = "ID,ID,...")]
    hand: Vec<String>,
    /// Calls to play on by the scoring player. The ruleset's own name for the call works too:
    /// `--ID N` for a declaration `ID` that plays on (`yaku score koikoi --koikoi 1`).
    #[arg(long, default_value_t = 0, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=MAX_CALLS))]
    calls: u32,
    /// Calls to play on by the other players; also `--opponent-ID M`.
    #[arg(long, default_value_t = 0, value_name = "M", value_parser = clap::value_parser!(u32).range(0..=MAX_CALLS))]
    opponent_calls: u32,
    /// Flags named after the ruleset's declarations, gathered before parsing (not typed).
    #[arg(skip)]
    pub(crate) declared: Vec<(String, String)>,
    /// The ruleset's `table_count` at the deal (the cards it counts face up on the table).
    #[arg(long, default_value_t = 0, value_name = "B")]
    table_count: i64,
    /// The round, 1-based (for month yaku).
    #[arg(long, default_value_t = 1, value_name = "R", value_parser = clap::value_parser!(u32).range(0..=10_000))]
    round: u32,
    /// Hands in the game (defaults to the ruleset's); at most 10,000, the most a game lasts.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=10_000))]
    rounds: Option<u32>,
    /// The scoring player is the dealer.
    #[arg(long)]
    dealer: bool,
    /// How the hand ended. Matching games: `stop` (the default), `instant` (an instant win at
    /// the deal, held by `--hand`), `exhausted` (the hands ran out: a draw, or the dealer's
    /// points by the ruleset). Trick-taking games: `claim`, `false_claim`, `failed_close`,
    /// `last_trick`, and `made`, `set` for a contract (`--contract`); `--captured` is then the
    /// winner's tricks (the declarer's, for a contract).
    #[arg(long, value_name = "END")]
    end: Option<String>,
    /// Trick-taking games: the winner's points from melds added to the card points (marriages)
    /// that count (0 to 10000).
    #[arg(long, default_value_t = 0, value_name = "P", value_parser = clap::value_parser!(i64).range(0..=MAX_FLAG_POINTS))]
    marriages: i64,
    /// Trick-taking games: the other player's tricks, as card ids. Table-hand banker games: the
    /// banker's hand, in the order dealt.
    #[arg(long, value_delimiter = ',', value_name = "ID,ID,...")]
    opponent_captured: Vec<String>,
    /// Trick-taking games: the other player's points from melds added to the card points
    /// (marriages) that count (0 to 10000).
    #[arg(long, default_value_t = 0, value_name = "P", value_parser = clap::value_parser!(i64).range(0..=MAX_FLAG_POINTS))]
    opponent_marriages: i64,
    /// Trick-taking games: who closed the stock (`self`, the winner; `opponent`; `none`).
    #[arg(long, default_value = "none", value_name = "WHO")]
    closer: String,
    /// Trick-taking games with melds: the trump suit (a suit id), for `--hand`'s melds.
    #[arg(long, value_name = "SUIT")]
    trump: Option<String>,
    /// Trick-taking games with melds: the meld points of the `--captured` side (0 to 10000).
    #[arg(long, default_value_t = 0, value_name = "P", value_parser = clap::value_parser!(i64).range(0..=MAX_FLAG_POINTS))]
    melds: i64,
    /// Trick-taking games with melds: the other side's meld points (0 to 10000).
    #[arg(long, default_value_t = 0, value_name = "P", value_parser = clap::value_parser!(i64).range(0..=MAX_FLAG_POINTS))]
    opponent_melds: i64,
    /// Trick-taking games with an auction: the winning bid (a value, or a named contract's id;
    /// also `--contract ID`), made by the `--captured` side.
    #[arg(long, alias = "contract", value_name = "BID")]
    bid: Option<String>,
    /// Trick-taking games: who took the last trick (`self`, the `--captured` side; `opponent`;
    /// `none`); by default the winner's side when `--end last_trick`, else no one.
    #[arg(long, value_name = "WHO")]
    last_trick: Option<String>,
    /// Trick-taking games whose scoring script reads `dealt_hands`: the `--captured` seat's
    /// hand as dealt (the other seats' are given empty).
    #[arg(long, value_delimiter = ',', value_name = "ID,ID,...")]
    dealt: Vec<String>,
    /// Trick-taking games whose scoring script reads `dealt_talon`: the talon as dealt.
    #[arg(long, value_delimiter = ',', value_name = "ID,ID,...")]
    talon: Vec<String>,
    /// Trick-taking games whose partners are found by cards (`partner_cards`, or a contract
    /// that calls a partner): the seat (1-based) that played with the `--captured` seat 1, or
    /// `none` where it played alone; seat 2 unless given.
    #[arg(long, value_name = "SEAT")]
    partner: Option<String>,
    /// Trick-taking games with `[[flow.announcement]]`: an announcement made this hand, by its
    /// id; by the `--captured` side unless only the defenders make it (`ID@opponent` or
    /// `ID@self` says which side). Give it once per announcement.
    #[arg(long = "announce", value_name = "ID")]
    announce: Vec<String>,
    /// Games that settle each loser (Go-Stop) or every seat (Scopa): another seat's capture
    /// pile; give it once per seat, in seat order after the seat of `--captured`.
    #[arg(long = "loser", value_name = "ID,ID,...")]
    losers: Vec<String>,
    /// Hands settled seat by seat: how often a seat earned a turn event (`--fired 1:scopa=2`:
    /// seat 1 swept twice; seat 0 is `--captured`, then each `--loser`), or made a declaration
    /// that earns points (`--fired 0:claim`).
    #[arg(long, value_name = "SEAT:ID=N")]
    fired: Vec<String>,
    /// Games that settle each loser: each loser's calls to play on, in the order of `--loser`.
    #[arg(long, value_delimiter = ',', value_name = "N,N,...", value_parser = clap::value_parser!(u32).range(0..=MAX_CALLS))]
    loser_calls: Vec<u32>,
    /// Games that settle each loser: a declaration the winner made, and how often
    /// (`--made shake=1`).
    #[arg(long, value_name = "ID=N")]
    made: Vec<String>,
    /// Games that settle each loser: hands in a row without a winner just before this one.
    #[arg(long, default_value_t = 0, value_name = "N")]
    drawn_before: u32,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: &ScoreArgs) -> i32 {
    let Some(ruleset) = load_ruleset(&args.ruleset) else {
        return super::EXIT_FAILURE;
    };
    if let Some(flow) = ruleset.banker()
        && flow.table_hand
    {
        return score_table(&ruleset, flow, args);
    }
    if let Some(flow) = ruleset.banker()
        && flow.play.is_some()
    {
        return score_play(&ruleset, flow, args);
    }
    let (Some(pile), Some(hand)) = (cards(&ruleset, &args.captured), cards(&ruleset, &args.hand))
    else {
        return super::EXIT_FAILURE;
    };
    let family = crate::families::of(&ruleset).name();
    let scorer = SCORERS
        .iter()
        .find(|(name, _)| *name == family)
        .unwrap_or_else(|| unreachable!("family `{family}` has a scorer"));
    (scorer.1)(&ruleset, args, pile, hand)
}

/// Explains what a hand ending with the pile (and the dealt hand) scores; the exit code.
type Scorer = fn(&Ruleset, &ScoreArgs, CardSet, CardSet) -> i32;

/// How `yaku score` explains a hand of each family, by the family's name
/// ([`crate::families::Family::name`]): the one place the command tells the families apart.
static SCORERS: [(&str, Scorer); 4] = [
    ("matching", score_matching),
    ("banker", score_showdown),
    ("tricks", score_tricks),
    ("climbing", score_climbing),
];

/// What a seat left holding `hand` pays when another goes out, by the ruleset's `penalty`
/// ([`SCORERS`]): `--hand` the cards left.
fn score_climbing(ruleset: &Ruleset, _args: &ScoreArgs, _pile: CardSet, hand: CardSet) -> i32 {
    let Some(flow) = ruleset.climbing() else {
        unreachable!("the climbing family's front scores climbing rulesets")
    };
    let paid = flow.penalty.int(&crate::expr::Context {
        pile: hand,
        facts: &[],
    });
    println!(
        "{} left in hand pay {paid} ({})",
        crate::front::plural(hand.len(), "card"),
        flow.penalty_source
    );
    super::EXIT_OK
}

/// What a matching hand ending with `pile` captured scores ([`SCORERS`]).
fn score_matching(ruleset: &Ruleset, args: &ScoreArgs, pile: CardSet, hand: CardSet) -> i32 {
    let Some(flow) = ruleset.matching() else {
        unreachable!("the matching family's front scores matching rulesets")
    };
    let rounds = args.rounds.unwrap_or(match flow.length {
        GameLength::Rounds(n) => n,
        GameLength::Target { .. } => 0,
    });
    if args.round == 0 || (rounds > 0 && args.round > rounds) {
        let range = if rounds > 0 {
            format!("1 to {rounds}")
        } else {
            "1 or more".into()
        };
        eprintln!(
            "error: `--round {}` is not a round of this game (rounds {range})",
            args.round
        );
        return super::EXIT_USAGE;
    }
    let (mut calls_self, mut calls_opponent) = (args.calls, args.opponent_calls);
    let names: Vec<String> = ruleset
        .declarations
        .iter()
        .filter(|d| d.effect == "continue")
        .flat_map(|d| [d.id.clone(), format!("opponent-{}", d.id)])
        .collect();
    for (flag, value) in &args.declared {
        let Some(i) = names.iter().position(|n| n == flag) else {
            let mut known = vec!["calls".to_string(), "opponent-calls".to_string()];
            known.extend(names.iter().cloned());
            let help = did_you_mean(flag, known.iter().map(String::as_str))
                .map_or_else(String::new, |h| format!("\n  = help: {h}"));
            eprintln!(
                "error: unexpected argument `--{flag}` for `{}`{help}",
                ruleset.id
            );
            return super::EXIT_USAGE;
        };
        let Some(n) = value
            .parse::<u32>()
            .ok()
            .filter(|n| i64::from(*n) <= MAX_CALLS)
        else {
            eprintln!(
                "error: `--{flag}` takes a number of calls from 0 to {MAX_CALLS}, found `{value}`"
            );
            return super::EXIT_USAGE;
        };
        if i % 2 == 0 {
            calls_self = n;
        } else {
            calls_opponent = n;
        }
    }
    let mut c = Circumstances {
        calls_self,
        calls_opponent,
        table_count: args.table_count,
        round: args.round,
        rounds,
        dealer: args.dealer,
        choices: 0,
    };
    let special = match matching_end(ruleset, flow, args, hand, &mut c) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let found = match special {
        None => scoring::evaluate(ruleset, pile, &c),
        // The instant win or the dealer's points replace the yaku, as in the game.
        Some(_) => crate::ruleset::YakuScore::default(),
    };
    // Settled seat by seat without a script: a hand played out, or a stop (without the
    // tallies' awards, as in the game).
    let own = ruleset.scoring.is_none()
        && (special == Some(Special::Settle)
            || (special.is_none() && flow.exhausted == Exhausted::Settle));
    if own {
        let tallies = special.is_some();
        return match own_settlement(ruleset, flow, pile, &c, args, tallies) {
            Ok(outcome) => print_matching(ruleset, args, special.as_ref(), pile, hand, &outcome),
            Err(e) => {
                eprintln!("error: {e}");
                super::EXIT_USAGE
            }
        };
    }
    let table = if scoring::reads_table(ruleset) {
        match table_facts(ruleset, flow, pile, &c, args) {
            Ok(t) => Some(t),
            Err(e) => {
                eprintln!("error: {e}");
                return super::EXIT_USAGE;
            }
        }
    } else {
        None
    };
    let mut outcome =
        match scoring::settle_at_table(ruleset, &found, special.as_ref(), &c, table.as_ref()) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("error: {e}");
                return super::EXIT_FAILURE;
            }
        };
    // Partners share one score, as in the game, whoever the script paid.
    if !outcome.seats.is_empty() {
        flow.teams.pool(&mut outcome.seats);
    }
    print_matching(ruleset, args, special.as_ref(), pile, hand, &outcome)
}

/// Prints a matching hand's outcome, in words or as JSON.
fn print_matching(
    ruleset: &Ruleset,
    args: &ScoreArgs,
    special: Option<&Special>,
    pile: CardSet,
    hand: CardSet,
    outcome: &scoring::HandOutcome,
) -> i32 {
    let deck = &ruleset.deck;
    if args.json {
        let mut doc = serde_json::json!({
            "ruleset": ruleset.id,
            "end": end_name(special),
            "captured": deck.ids(pile),
            "hand": deck.ids(hand),
            "yaku": outcome.yaku,
            "base": outcome.base,
            "multipliers": outcome.steps,
            "total": outcome.total,
            "opponent": outcome.opponent,
            "payments": outcome.payments,
        });
        // What a script that settles every seat adds, only when it says it.
        if let Some(map) = doc.as_object_mut() {
            if !outcome.seats.is_empty() {
                map.insert("seats".into(), serde_json::json!(outcome.seats));
            }
            if let Some(w) = outcome.winner {
                map.insert("winner".into(), serde_json::json!(w));
            }
            if !outcome.carry.is_empty() {
                map.insert("carry".into(), serde_json::json!(outcome.carry));
            }
        }
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return super::EXIT_OK;
    }
    let mut out = String::new();
    let plural = |n: u32| if n == 1 { "" } else { "s" };
    let _ = match special {
        None => writeln!(
            out,
            "{} — {} card{} captured",
            ruleset.name,
            pile.len(),
            plural(pile.len())
        ),
        Some(Special::Instant(w)) => writeln!(
            out,
            "{} — an instant win at the deal: {} ({} card{} dealt)",
            ruleset.name,
            w.name,
            hand.len(),
            plural(hand.len())
        ),
        Some(Special::Exhausted(_)) => writeln!(
            out,
            "{} — the hands ran out: the dealer scores by the rules",
            ruleset.name
        ),
        Some(Special::Settle) => writeln!(
            out,
            "{} — the hands ran out: every seat is settled by the rules",
            ruleset.name
        ),
    };
    // A hand settled seat by seat says each seat's steps: no winner's yaku or base.
    let by_seat = !outcome.seats.is_empty() && outcome.yaku.is_empty() && outcome.base == 0;
    if outcome.yaku.is_empty() && !by_seat {
        let _ = writeln!(out, "  no yaku");
    }
    let width = outcome
        .yaku
        .iter()
        .map(|y| y.name.chars().count())
        .chain(outcome.steps.iter().map(|s| {
            s.reason.chars().count() + s.seat.map_or(0, |seat| format!("seat {seat}: ").len())
        }))
        .max()
        .unwrap_or(0)
        .max(28);
    for y in &outcome.yaku {
        let _ = writeln!(out, "  {:<width$} {:>4}", y.name, y.points);
    }
    if !by_seat {
        let _ = writeln!(out, "  {:<width$} {:>4}", "base", outcome.base);
    }
    for s in &outcome.steps {
        // Seat 0 is the pile of `--captured`, the others those of `--loser`, in order.
        let reason = match s.seat {
            Some(seat) => format!("seat {seat}: {}", s.reason),
            None => s.reason.clone(),
        };
        let _ = writeln!(out, "  {reason:<width$} {:>4}", s.total);
    }
    // A script that settles every seat says each seat's points instead of one total.
    if outcome.seats.is_empty() {
        let _ = writeln!(out, "  {:<width$} {:>4}", "total", outcome.total);
    }
    for (seat, pay) in outcome.payments.iter().enumerate().skip(1) {
        let _ = writeln!(out, "  {:<width$} {:>4}", format!("seat {seat} pays"), pay);
    }
    // A script that settles every seat: each seat's points (seat 0 is `--captured`, then each
    // `--loser` pile), the winner it names, and what it carries into the next hand.
    for (seat, points) in outcome.seats.iter().enumerate() {
        let _ = writeln!(out, "  {:<width$} {points:>+4}", format!("seat {seat}"));
    }
    match outcome.winner {
        Some(w) if w >= 0 => {
            let _ = writeln!(out, "  the script names seat {w} the winner");
        }
        Some(_) => {
            let _ = writeln!(out, "  the script names no winner");
        }
        None => {}
    }
    for (id, value) in &outcome.carry {
        let shown = match value {
            crate::script::CarriedValue::One(n) => n.to_string(),
            crate::script::CarriedValue::PerSeat(list) => format!("{list:?}"),
        };
        let _ = writeln!(out, "  carried into the next hand: {id} = {shown}");
    }
    if outcome.opponent != 0 {
        let _ = writeln!(
            out,
            "  {:<width$} {:>4}",
            "the other player", outcome.opponent
        );
    }
    print!("{out}");
    super::EXIT_OK
}

/// The name of how a matching hand ended, as records name it.
fn end_name(special: Option<&Special>) -> &'static str {
    match special {
        None => "stop",
        Some(Special::Instant(_)) => "instant",
        Some(Special::Exhausted(_)) => "exhausted_dealer",
        Some(Special::Settle) => "settled",
    }
}

/// The cards of a comma-separated list, each error printed; `None` when there was one.
fn cards(ruleset: &Ruleset, list: &[String]) -> Option<CardSet> {
    let deck = &ruleset.deck;
    let mut pile = CardSet::EMPTY;
    let mut bad = false;
    for raw in list {
        let name = raw.trim();
        if name.is_empty() {
            continue;
        }
        match deck.parse_card(name) {
            Some(card) if pile.contains(card) => {
                eprintln!("error: card `{}` is listed twice", deck.id_of(card));
                bad = true;
            }
            Some(card) => pile.insert(card),
            None => {
                let help = did_you_mean(name, deck.card_ids())
                    .map_or_else(String::new, |h| format!("\n  = help: {h}"));
                eprintln!("error: unknown card `{name}` in deck `{}`{help}", deck.id);
                bad = true;
            }
        }
    }
    (!bad).then_some(pile)
}

/// How a matching hand ended, from `--end` and `--hand`: `Ok(None)` for a stop, the special
/// win otherwise; `Err` with the exit code once the result or the reason is printed (hands run
/// out without a winner are a draw).
fn matching_end(
    ruleset: &Ruleset,
    flow: &crate::ruleset::MatchingFlow,
    args: &ScoreArgs,
    hand: CardSet,
    c: &mut Circumstances,
) -> Result<Option<Special>, i32> {
    match args.end.as_deref().unwrap_or("stop") {
        "stop" => Ok(None),
        "instant" => {
            if hand.is_empty() {
                eprintln!("error: `--end instant` needs the dealt hand: `--hand ID,ID,...`");
                return Err(super::EXIT_USAGE);
            }
            let facts = [i64::from(c.round), i64::from(c.rounds), i64::from(c.dealer)];
            let Some(i) = flow.instant_win(hand, &facts) else {
                let known: Vec<String> = flow
                    .instant_wins
                    .iter()
                    .map(|w| format!("{} (`{}`)", w.name, w.when_source.trim()))
                    .collect();
                eprintln!(
                    "error: the hand holds no instant win of `{}`{}",
                    ruleset.id,
                    if known.is_empty() {
                        " (it has none)".to_string()
                    } else {
                        format!("; its instant wins: {}", known.join(", "))
                    }
                );
                return Err(super::EXIT_FAILURE);
            };
            let w = &flow.instant_wins[i];
            Ok(Some(Special::Instant(scoring::FoundYaku {
                id: w.id.clone(),
                name: w.name.clone(),
                points: w.points,
            })))
        }
        "exhausted" => match flow.exhausted {
            Exhausted::Settle => Ok(Some(Special::Settle)),
            Exhausted::DealerScores(points) => {
                c.dealer = true;
                Ok(Some(Special::Exhausted(points)))
            }
            Exhausted::Draw => {
                if args.json {
                    let doc = serde_json::json!({
                        "ruleset": ruleset.id,
                        "end": "exhausted",
                        "draw": true,
                        "total": 0,
                    });
                    println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
                } else {
                    println!(
                        "{} — the hands ran out: a draw, nobody scores",
                        ruleset.name
                    );
                }
                Err(super::EXIT_OK)
            }
        },
        other => {
            let ends = ["stop", "instant", "exhausted"];
            let help = did_you_mean(other, ends).unwrap_or_else(|| {
                "a matching hand ends by `stop`, `instant` or `exhausted`".into()
            });
            eprintln!(
                "error: unknown hand end `{other}` for `{}`\n  = help: {help}",
                ruleset.id
            );
            Err(super::EXIT_USAGE)
        }
    }
}

/// Each seat's pile: `--captured` (seat 0), then one per `--loser` (empty piles for the
/// ruleset's other seats when none is given); a card in two piles and a table the ruleset does
/// not seat are errors.
fn seat_piles(
    ruleset: &Ruleset,
    flow: &crate::ruleset::MatchingFlow,
    pile: CardSet,
    args: &ScoreArgs,
) -> Result<Vec<CardSet>, String> {
    let deck = &ruleset.deck;
    let mut piles = vec![pile];
    for list in &args.losers {
        let mut p = CardSet::EMPTY;
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let card = deck
                .parse_card(name)
                .ok_or_else(|| format!("unknown card `{name}` in `--loser`"))?;
            if piles.iter().any(|q| q.contains(card)) || p.contains(card) {
                return Err(format!("card `{}` is in two piles", deck.id_of(card)));
            }
            p.insert(card);
        }
        piles.push(p);
    }
    if args.losers.is_empty() {
        piles.extend(std::iter::repeat_n(
            CardSet::EMPTY,
            flow.players as usize - 1,
        ));
    }
    let seats = piles.len();
    if !(flow.min_players as usize..=flow.max_players as usize).contains(&seats) {
        return Err(format!(
            "`{}` seats {} to {} players: give {} `--loser` piles, not {}",
            ruleset.id,
            flow.min_players,
            flow.max_players,
            flow.min_players as usize - 1,
            seats - 1
        ));
    }
    Ok(piles)
}

/// A hand settled seat by seat without a script: each seat's pile and the turn events
/// `--fired` says it earned, partners pooled, as the game settles it; the tallies' awards only
/// for a hand played out (`tallies`), not for a stop.
fn own_settlement(
    ruleset: &Ruleset,
    flow: &crate::ruleset::MatchingFlow,
    pile: CardSet,
    c: &Circumstances,
    args: &ScoreArgs,
    tallies: bool,
) -> Result<scoring::HandOutcome, String> {
    let piles = seat_piles(ruleset, flow, pile, args)?;
    let events = &flow.turn_events;
    let mut fired = vec![vec![0u32; events.len()]; piles.len()];
    let mut dealt: Vec<Vec<usize>> = vec![Vec::new(); piles.len()];
    let decls = &ruleset.declarations;
    let mut declared = vec![vec![0u32; decls.len()]; piles.len()];
    for f in &args.fired {
        let usage = || format!("`--fired {f}`: write SEAT:ID=N (`--fired 1:scopa=2`)");
        let (seat, rest) = f.split_once(':').ok_or_else(usage)?;
        let (id, n) = rest.split_once('=').unwrap_or((rest, "1"));
        let seat: usize = seat.trim().parse().map_err(|_| usage())?;
        if seat >= piles.len() {
            return Err(format!(
                "`--fired {f}`: there is no seat {seat} (seats 0 to {})",
                piles.len() - 1
            ));
        }
        // A combination of the dealt hand scored at the hand's end (a teyaku) is named alike.
        if let Some(d) = flow.dealt_yaku.iter().position(|d| d.id == id.trim()) {
            dealt[seat].push(d);
            continue;
        }
        // A declaration that earns points is named alike, with the times it was made.
        if let Some(d) = decls
            .iter()
            .position(|d| d.points != 0 && d.id == id.trim())
        {
            declared[seat][d] =
                n.trim().parse().ok().filter(|n| *n <= 64).ok_or_else(|| {
                    format!("`--fired {f}`: a count from 0 to 64 must follow `=`")
                })?;
            continue;
        }
        let e = events
            .iter()
            .position(|e| e.id == id.trim())
            .ok_or_else(|| {
                let names = events
                    .iter()
                    .map(|e| e.id.as_str())
                    .chain(flow.dealt_yaku.iter().map(|d| d.id.as_str()));
                let help = did_you_mean(id, names).unwrap_or_default();
                format!(
                    "`--fired {f}`: no turn event or dealt combination `{id}` in `{}` {help}",
                    ruleset.id
                )
            })?;
        let n: u32 = n
            .trim()
            .parse()
            .ok()
            .filter(|n| *n <= 64)
            .ok_or_else(|| format!("`--fired {f}`: a count from 0 to 64 must follow `=`"))?;
        fired[seat][e] = n;
    }
    let teams = &flow.teams;
    let seats = piles.len();
    let groups: Vec<Vec<usize>> = if teams.any() {
        (0..teams.count(seats))
            .map(|t| teams.members(t, seats).collect())
            .collect()
    } else {
        (0..seats).map(|s| vec![s]).collect()
    };
    let sides: Vec<scoring::OwnSide> = groups
        .into_iter()
        .map(|members| scoring::OwnSide {
            pile: members.iter().fold(CardSet::EMPTY, |u, &s| u | piles[s]),
            fired: (0..events.len())
                .map(|e| members.iter().map(|&s| fired[s][e]).sum())
                .collect(),
            dealt: members.iter().flat_map(|&s| dealt[s].clone()).collect(),
            declared: (0..decls.len())
                .map(|d| members.iter().map(|&s| declared[s][d]).sum())
                .collect(),
            seats: members,
        })
        .collect();
    let mut outcome = scoring::settle_own(
        ruleset,
        seats,
        &sides[..],
        |_| *c,
        scoring::OwnSettlement {
            explain: true,
            tallies,
            unclaimed: None,
        },
    );
    // Partners share one score, as in the game.
    teams.pool(&mut outcome.seats);
    Ok(outcome)
}

/// Every seat for a script that settles each loser: the winner (seat 0) with `--captured`,
/// its calls and `--made` declarations, then one seat per `--loser` pile (empty piles for the
/// ruleset's other seats when none is given).
fn table_facts(
    ruleset: &Ruleset,
    flow: &crate::ruleset::MatchingFlow,
    pile: CardSet,
    c: &scoring::Circumstances,
    args: &ScoreArgs,
) -> Result<scoring::TableFacts, String> {
    let piles = seat_piles(ruleset, flow, pile, args)?;
    let mut made: Vec<(String, i64)> = ruleset
        .declarations
        .iter()
        .map(|d| (d.id.clone(), 0))
        .collect();
    for m in &args.made {
        let (id, n) = m.split_once('=').unwrap_or((m.as_str(), "1"));
        let n: i64 = n
            .trim()
            .parse()
            .ok()
            .filter(|n| (0..=MAX_MADE).contains(n))
            .ok_or_else(|| format!("`--made {m}`: a count from 0 to {MAX_MADE} must follow `=`"))?;
        let entry = made
            .iter_mut()
            .find(|(d, _)| d == id.trim())
            .ok_or_else(|| {
                let help = did_you_mean(id, ruleset.declarations.iter().map(|d| d.id.as_str()))
                    .unwrap_or_default();
                format!(
                    "`--made {m}`: no declaration `{id}` in `{}` {help}",
                    ruleset.id
                )
            })?;
        entry.1 = n.clamp(0, 64);
    }
    let seat_facts = piles
        .iter()
        .enumerate()
        .map(|(s, &p)| {
            let calls = if s == 0 {
                c.calls_self
            } else {
                args.loser_calls.get(s - 1).copied().unwrap_or(0)
            };
            let sc = scoring::Circumstances {
                dealer: false,
                choices: 0,
                calls_self: calls,
                ..*c
            };
            let seat_c = if s == 0 { c } else { &sc };
            let found = scoring::evaluate(ruleset, p, seat_c);
            scoring::SeatFacts {
                calls,
                declared: if s == 0 {
                    made.clone()
                } else {
                    made.iter().map(|(d, _)| (d.clone(), 0)).collect()
                },
                events: flow.turn_events.iter().map(|e| (e.id.clone(), 0)).collect(),
                ..scoring::SeatFacts::of_pile(ruleset, p, &found, seat_c, s == 0)
            }
        })
        .collect();
    let seat_facts: Vec<scoring::SeatFacts> = seat_facts;
    let teams = &flow.teams;
    let team_facts = scoring::TeamFacts::of_table(ruleset, teams, &piles, |_| *c);
    let seat_facts = seat_facts
        .into_iter()
        .enumerate()
        .map(|(s, f)| scoring::SeatFacts {
            team: teams.any().then(|| teams.team_of(s)),
            ..f
        })
        .collect();
    let carried = crate::core::Carried::new(&ruleset.carry, piles.len());
    Ok(scoring::TableFacts {
        carry: (!carried.is_empty()).then(|| carried.fact(&ruleset.carry)),
        seats: seat_facts,
        teams: team_facts,
        draws_before: args.drawn_before,
    })
}

/// The game points of a finished trick-taking hand: its end, both sides' card points, tricks
/// and melds, and the bid, through the ruleset's scoring script; or, with `--hand`, the melds
/// of one hand.
fn score_tricks(ruleset: &Ruleset, args: &ScoreArgs, pile: CardSet, hand: CardSet) -> i32 {
    let Some(flow) = ruleset.tricks() else {
        unreachable!("the trick-taking family's front scores trick-taking rulesets")
    };
    if !args.hand.is_empty() {
        if flow.melds.is_empty() {
            eprintln!("error: `--hand` shows a hand's melds, and this ruleset has no `[[meld]]`");
            return super::EXIT_USAGE;
        }
        if args.end.is_some() {
            eprintln!(
                "error: `--hand` shows one hand's melds; a finished hand is scored with `--end` \
                 and each side's meld points (`--melds`, `--opponent-melds`)"
            );
            return super::EXIT_USAGE;
        }
        return show_melds(ruleset, flow, args, hand);
    }
    // The sides' meld points are told where some meld scores them (not only card points).
    let meld_points = flow
        .melds
        .iter()
        .any(|m| m.adds_to == crate::ruleset::MeldAddsTo::Melds);
    let ends = [
        "claim",
        "false_claim",
        "failed_close",
        "last_trick",
        "made",
        "set",
    ];
    let Some(end) = args.end.as_deref().filter(|e| ends.contains(e)) else {
        eprintln!(
            "error: a trick-taking hand needs `--end` with one of: {}",
            ends.join(", ")
        );
        return super::EXIT_USAGE;
    };
    let whos = ["self", "opponent", "none"];
    if !whos.contains(&args.closer.as_str()) {
        eprintln!("error: `--closer` takes `self`, `opponent` or `none`");
        return super::EXIT_USAGE;
    }
    let last_trick = match args.last_trick.as_deref() {
        Some(w) if whos.contains(&w) => w,
        Some(_) => {
            eprintln!("error: `--last-trick` takes `self`, `opponent` or `none`");
            return super::EXIT_USAGE;
        }
        None if end == "last_trick" => "self",
        None => "none",
    };
    let (bid, contract, value) = match trick_bid(flow, args.bid.as_deref()) {
        Ok(b) => b,
        Err(message) => {
            eprintln!("error: {message}");
            return super::EXIT_USAGE;
        }
    };
    let deck = &ruleset.deck;
    let mut theirs = CardSet::EMPTY;
    for id in args
        .opponent_captured
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
    {
        match deck.parse_card(id) {
            Some(c) if !pile.contains(c) && !theirs.contains(c) => theirs.insert(c),
            Some(c) => {
                eprintln!("error: card `{}` is listed twice", deck.id_of(c));
                return super::EXIT_FAILURE;
            }
            None => {
                let help = did_you_mean(id, deck.card_ids())
                    .map_or_else(String::new, |h| format!("\n  = help: {h}"));
                eprintln!("error: unknown card `{id}` in deck `{}`{help}", deck.id);
                return super::EXIT_FAILURE;
            }
        }
    }
    let points = |cards: CardSet, who: &str| -> i64 {
        let last = if last_trick == who {
            flow.last_trick_points
        } else {
            0
        };
        cards
            .iter()
            .map(|c| deck.attributes[flow.card_points].values[c.index()])
            .sum::<i64>()
            + last
    };
    // The dealt hand and talon, by id, checked against the deck (each copy of a double pack
    // has an id of its own).
    let ids_of = |list: &[String]| {
        card_list(ruleset, 1, list).map(|cards| {
            cards
                .iter()
                .map(|&c| deck.id_of(c).to_string())
                .collect::<Vec<_>>()
        })
    };
    let (Some(dealt), Some(talon)) = (ids_of(&args.dealt), ids_of(&args.talon)) else {
        return super::EXIT_FAILURE;
    };
    let (mine, other) = (
        points(pile, "self") + args.marriages,
        points(theirs, "opponent") + args.opponent_marriages,
    );
    // A trick holds one card from each seat; with partnerships a side's tricks are its seats'.
    let seats = flow.players.max(2) as usize;
    let (tricks, their_tricks) = (pile.len() as usize / seats, theirs.len() as usize / seats);
    // The `--captured` side is seat 0's; the first seat of another side is the opponent's.
    let teams = flow.teams;
    let marked = match marked_partner(flow, &contract, args.partner.as_deref(), seats) {
        Ok(m) => m,
        Err(message) => {
            eprintln!("error: {message}");
            return super::EXIT_USAGE;
        }
    };
    let team = |s: usize| match marked {
        // Partners found by cards: seat 0 and its partner (if any) against the rest.
        Some(partner) => usize::from(s != 0 && Some(s) != partner),
        None => teams.team_of(s),
    };
    let opponent_seat = (1..seats).find(|&s| team(s) != team(0)).unwrap_or(1);
    let announced = match announced(flow, &args.announce) {
        Ok(a) => a,
        Err(message) => {
            eprintln!("error: {message}");
            return super::EXIT_USAGE;
        }
    };
    // The facts the game itself gives the script when such a hand ends.
    let facts = crate::families::tricks::TrickFacts {
        end: end.to_string(),
        points: [mine, other],
        tricks: [tricks as i64, their_tricks as i64],
        closer: args.closer.clone(),
        melds: [args.melds, args.opponent_melds],
        bid,
        contract: contract.clone(),
        value,
        seat: 0,
        opponent_seat,
        side: (0..seats)
            .filter(|&s| team(s) == team(0))
            .fold(0, |bits, s| bits | 1 << s),
        seats,
        // The tricks one by one are not given on the command line; the trump suit by `--trump`.
        played: Some(Vec::new()),
        trump_suit: Some(
            args.trump
                .as_deref()
                .map_or_else(String::new, |t| t.trim().to_string()),
        ),
        // Each seat's own: the `--captured` seat (0) and the first seat of the other side
        // (`--opponent-captured`); the others took nothing.
        dealt: Some((
            (0..seats)
                .map(|s| if s == 0 { dealt.clone() } else { Vec::new() })
                .collect(),
            talon,
        )),
        by_seat: Some(crate::families::tricks::SeatFacts {
            points: (0..seats)
                .map(|s| match s {
                    0 => mine,
                    s if s == opponent_seat => other,
                    _ => 0,
                })
                .collect(),
            tricks: (0..seats)
                .map(|s| match s {
                    0 => tricks as i64,
                    s if s == opponent_seat => their_tricks as i64,
                    _ => 0,
                })
                .collect(),
            won: (0..seats)
                .map(|s| {
                    let cards = match s {
                        0 => pile,
                        s if s == opponent_seat => theirs,
                        _ => CardSet::EMPTY,
                    };
                    cards.iter().map(|c| deck.id_of(c).to_string()).collect()
                })
                .collect(),
            last_trick: match last_trick {
                "self" => 0,
                "opponent" => opponent_seat as i64,
                _ => -1,
            },
        }),
        announcements: announced.as_ref().map(|made| {
            let facts = made
                .iter()
                .map(|&(a, ours)| {
                    let (p, t) = if ours {
                        (mine, tricks as u32)
                    } else {
                        (other, their_tricks as u32)
                    };
                    let total = (tricks + their_tricks) as u32;
                    let seat = if ours { 0 } else { opponent_seat };
                    let reached = a.target.reached(p, t, total);
                    crate::ruleset::announcement_fact(a, seat, ours, reached)
                })
                .collect();
            (
                facts,
                crate::ruleset::stake_of(made.iter().map(|(a, _)| a.factor)),
            )
        }),
        ..Default::default()
    }
    .hand_facts();
    let outcome = match &ruleset.scoring {
        Some(script) => match script.score(&facts) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("error: {e}");
                return super::EXIT_FAILURE;
            }
        },
        None => crate::script::ScoreOutcome::of_total(1),
    };
    let outcome = match &announced {
        Some(made) => {
            let made: Vec<_> = made.iter().map(|&(a, _)| a).collect();
            crate::families::tricks::staked(outcome, &made)
        }
        None => outcome,
    };
    if args.json {
        let mut doc = serde_json::json!({
            "ruleset": ruleset.id,
            "end": end,
            "points": mine,
            "opponent_points": other,
            "tricks": tricks,
            "opponent_tricks": their_tricks,
            "steps": outcome.steps,
        });
        if flow.auction.is_some() {
            doc["bid"] = bid.into();
            if !contract.is_empty() {
                doc["contract"] = contract.into();
            }
        }
        if meld_points {
            doc["melds"] = args.melds.into();
            doc["opponent_melds"] = args.opponent_melds.into();
        }
        // A hand settled seat by seat gives each seat's points; otherwise the winner's.
        if outcome.seats.is_empty() {
            doc["game_points"] = outcome.total.into();
            if outcome.opponent != 0 {
                doc["opponent_game_points"] = outcome.opponent.into();
            }
        } else {
            doc["seats"] = serde_json::json!(outcome.seats);
        }
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return super::EXIT_OK;
    }
    let mut out = String::new();
    let (who, them) = if flow.auction.is_some() {
        ("the declarer's side", "the other side")
    } else {
        ("the winner", "the other player")
    };
    let _ = writeln!(
        out,
        "{} — the hand ended by {end}: {who} has {} in {}, {them} {} in {}",
        ruleset.name,
        crate::front::plural(mine, "card point"),
        crate::front::plural(tricks, "trick"),
        crate::front::plural(other, "card point"),
        crate::front::plural(their_tricks, "trick"),
    );
    if flow.auction.is_some() {
        let named = if contract.is_empty() {
            String::new()
        } else {
            format!(" ({contract})")
        };
        let _ = writeln!(out, "  bid: {bid}{named}");
    }
    if meld_points {
        let _ = writeln!(
            out,
            "  melds: {} for {who}, {} for {them}",
            args.melds, args.opponent_melds
        );
    }
    for step in &outcome.steps {
        let _ = writeln!(out, "  {}", step.reason);
    }
    if outcome.seats.is_empty() {
        let _ = writeln!(out, "  game points: {}", outcome.total);
        if outcome.opponent != 0 {
            let _ = writeln!(
                out,
                "  game points of each other player: {}",
                outcome.opponent
            );
        }
    } else {
        let list: Vec<String> = (outcome.seats.iter().enumerate())
            .map(|(s, p)| format!("seat {} {p:+}", s + 1))
            .collect();
        let _ = writeln!(out, "  game points: {}", list.join(", "));
    }
    print!("{out}");
    super::EXIT_OK
}

/// The announcements of `--announce` (`ID`, `ID@self`, `ID@opponent`), each with whether the
/// `--captured` side made it (by default unless only the defenders make it), where the rules
/// hold announcements (`None` otherwise); an unknown id, one given twice or one whose `after`
/// is not given is refused.
#[allow(clippy::type_complexity)]
fn announced<'f>(
    flow: &'f crate::ruleset::TricksFlow,
    given: &[String],
) -> Result<Option<Vec<(&'f crate::ruleset::Announcement, bool)>>, String> {
    if flow.announcements.is_empty() {
        return match given.first() {
            Some(_) => Err("`--announce` is for games with `[[flow.announcement]]`".into()),
            None => Ok(None),
        };
    }
    let mut made: Vec<(&crate::ruleset::Announcement, bool)> = Vec::new();
    for g in given {
        let (id, side) = g.trim().split_once('@').unwrap_or((g.trim(), ""));
        let Some(a) = flow.announcements.iter().find(|a| a.id == id) else {
            let ids: Vec<&str> = flow.announcements.iter().map(|a| a.id.as_str()).collect();
            return Err(format!(
                "`--announce {id}`: no announcement `{id}`; the rules have {}",
                ids.join(", ")
            ));
        };
        let ours = match side {
            "" => a.by != crate::ruleset::AnnounceBy::Defenders,
            "self" => true,
            "opponent" => false,
            other => {
                return Err(format!(
                    "`--announce {id}@{other}`: the side is `self` or `opponent`"
                ));
            }
        };
        if made.iter().any(|(m, _)| m.id == a.id) {
            return Err(format!("`--announce {id}` is given twice"));
        }
        made.push((a, ours));
    }
    for (a, _) in &made {
        if let Some(j) = a.after
            && !made.iter().any(|(m, _)| m.id == flow.announcements[j].id)
        {
            return Err(format!(
                "`--announce {}` comes only after `{}`: give `--announce {}` too",
                a.id, flow.announcements[j].id, flow.announcements[j].id
            ));
        }
    }
    Ok(Some(made))
}

/// The bid of `--bid`: a value the auction offers or a named contract's id, with that
/// contract's id and value (empty and 0 for a value bid); 0 where the ruleset has no auction.
/// Where partners are found by cards (`partner_cards`, or a contract with `call`): the
/// `--captured` seat's partner from `--partner` (seat 2 unless given; `none`: alone), as
/// `Some(partner)`; `None` where the rules fix the sides.
fn marked_partner(
    flow: &crate::ruleset::TricksFlow,
    contract: &str,
    partner: Option<&str>,
    seats: usize,
) -> Result<Option<Option<usize>>, String> {
    let calls = flow
        .auction
        .as_ref()
        .and_then(|a| a.contracts.iter().find(|c| c.id == contract))
        .is_some_and(|c| c.call.is_some());
    if !calls && flow.partner_cards.is_empty() {
        return match partner {
            Some(_) => Err("`--partner` is for games whose partners are found by cards (`partner_cards`, or a contract that calls a partner)".into()),
            None => Ok(None),
        };
    }
    match partner.map(str::trim) {
        None => Ok(Some(Some(1))),
        Some("none") => Ok(Some(None)),
        Some(p) => match p.parse::<usize>() {
            Ok(n) if (2..=seats).contains(&n) => Ok(Some(Some(n - 1))),
            _ => Err(format!(
                "`--partner` takes a seat from 2 to {seats} (the `--captured` side is seat 1), or `none`"
            )),
        },
    }
}

fn trick_bid(
    flow: &crate::ruleset::TricksFlow,
    bid: Option<&str>,
) -> Result<(i64, String, i64), String> {
    let Some(a) = &flow.auction else {
        return match bid {
            Some(_) => Err("`--bid` is for games with an auction, and this one has none".into()),
            None => Ok((0, String::new(), 0)),
        };
    };
    let Some(raw) = bid.map(str::trim) else {
        return Err(
            "this game's hands are played for a bid: give the winning bid with `--bid`".into(),
        );
    };
    if let Some(c) = a.contracts.iter().find(|c| c.id == raw) {
        return Ok((c.bid, c.id.clone(), c.value));
    }
    let value = raw.parse::<i64>().ok();
    if let Some(c) = value.and_then(|v| a.contract(v)) {
        return Ok((c.bid, c.id.clone(), c.value));
    }
    match value {
        Some(v) if a.is_plain_bid(v) => Ok((v, String::new(), 0)),
        _ => {
            let mut offered = Vec::new();
            if a.values {
                offered.push(format!("a value {}", a.plain_bids_words()));
            }
            if !a.contracts.is_empty() {
                let ids: Vec<&str> = a.contracts.iter().map(|c| c.id.as_str()).collect();
                offered.push(format!("a contract ({})", ids.join(", ")));
            }
            Err(format!(
                "`{raw}` is not a bid of this game: bid {}",
                offered.join(" or ")
            ))
        }
    }
}

/// The melds `hand` shows with `--trump` as trumps, counted as the game counts them.
fn show_melds(
    ruleset: &Ruleset,
    flow: &crate::ruleset::TricksFlow,
    args: &ScoreArgs,
    hand: CardSet,
) -> i32 {
    use crate::ruleset::MeldSuit;
    let deck = &ruleset.deck;
    let trump = match args.trump.as_deref().map(str::trim) {
        Some(id) => match deck.suits.iter().position(|s| s.id == id) {
            Some(t) => Some(t),
            None => {
                let help = did_you_mean(id, deck.suits.iter().map(|s| s.id.as_str()))
                    .map_or_else(String::new, |h| format!("\n  = help: {h}"));
                eprintln!("error: unknown suit `{id}` in deck `{}`{help}", deck.id);
                return super::EXIT_USAGE;
            }
        },
        None if flow.melds.iter().any(|m| m.suit == MeldSuit::Trump) => {
            let ids: Vec<&str> = deck.suits.iter().map(|s| s.id.as_str()).collect();
            eprintln!(
                "error: this game's melds depend on trumps: name them with `--trump` ({})",
                ids.join(", ")
            );
            return super::EXIT_USAGE;
        }
        None => None,
    };
    use crate::families::tricks::melds;
    use crate::ruleset::MeldMoment;
    let (total, found) = melds::best(&flow.meld_table, &flow.melds, hand, trump);
    // The melds shown after play, one at a time at their moment: those the hand holds, a card
    // once within a class.
    let (_, later) = melds::best_of(&flow.meld_table, &flow.melds, hand, trump, |m| {
        m.moment != MeldMoment::BeforePlay
    });
    let ids = |cards: CardSet| -> Vec<&str> { cards.iter().map(|c| deck.id_of(c)).collect() };
    if args.json {
        let json = |m: &melds::Melded| {
            let meld = &flow.melds[usize::from(m.meld)];
            serde_json::json!({
                "id": meld.id,
                "name": meld.name,
                "points": meld.points,
                "cards": ids(m.cards),
            })
        };
        let mut doc = serde_json::json!({
            "ruleset": ruleset.id,
            "trump": trump.map(|t| deck.suits[t].id.as_str()),
            "melds": found.iter().map(json).collect::<Vec<_>>(),
            "meld_points": total,
        });
        if !later.is_empty() {
            doc["after_play"] = later
                .iter()
                .map(|m| {
                    let mut v = json(m);
                    v["moment"] = moment_word(&flow.melds[usize::from(m.meld)]).into();
                    v
                })
                .collect::<Vec<_>>()
                .into();
        }
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return super::EXIT_OK;
    }
    let mut out = String::new();
    let trumps = trump.map_or_else(String::new, |t| {
        format!(" with {} as trumps", deck.suits[t].name)
    });
    let _ = writeln!(
        out,
        "{} — the melds of {}{trumps}:",
        ruleset.name,
        crate::front::plural(hand.len(), "card")
    );
    let before_play = flow
        .melds
        .iter()
        .any(|m| m.moment == MeldMoment::BeforePlay);
    if found.is_empty() && (before_play || later.is_empty()) {
        let _ = writeln!(out, "  no meld");
    }
    for m in &found {
        let meld = &flow.melds[usize::from(m.meld)];
        let _ = writeln!(
            out,
            "  {} ({}): {}",
            meld.name,
            meld.points,
            ids(m.cards).join(", ")
        );
    }
    if before_play {
        let _ = writeln!(out, "  meld points: {total}");
    }
    if !later.is_empty() {
        let _ = writeln!(
            out,
            "  shown after play, one at a time (a card once within a class):"
        );
    }
    for m in &later {
        let meld = &flow.melds[usize::from(m.meld)];
        let _ = writeln!(
            out,
            "  {} ({}, {}): {}",
            meld.name,
            meld.points,
            moment_word(meld),
            ids(m.cards).join(", ")
        );
    }
    print!("{out}");
    super::EXIT_OK
}

/// When a meld shown after play is shown, and where its points go, in a few words.
fn moment_word(meld: &crate::ruleset::Meld) -> String {
    use crate::ruleset::{MeldAddsTo, MeldMoment};
    let when = match (meld.moment, meld.leads_its_card) {
        (MeldMoment::Lead, true) => "on one's lead, leading one of its cards",
        (MeldMoment::Lead, false) => "on one's lead",
        (MeldMoment::WonTrick, _) => "on winning a trick",
        (MeldMoment::BeforePlay, _) => "before play",
    };
    let to = match meld.adds_to {
        MeldAddsTo::Points => "added to the card points",
        MeldAddsTo::Melds => "meld points",
    };
    let counts = if meld.needs_trick {
        ", once a trick is won"
    } else {
        ""
    };
    format!("{when}; {to}{counts}")
}

/// Card ids in the order given, a card as many times as the shoe holds it.
fn card_list(ruleset: &Ruleset, packs: usize, list: &[String]) -> Option<Vec<crate::deck::CardId>> {
    let deck = &ruleset.deck;
    let mut out = Vec::new();
    let mut bad = false;
    for raw in list.iter().map(|r| r.trim()).filter(|r| !r.is_empty()) {
        match deck.parse_card(raw) {
            Some(card) if out.iter().filter(|&&c| c == card).count() >= packs => {
                eprintln!(
                    "error: card `{}` is listed more often than the shoe's {packs} pack(s) hold it",
                    deck.id_of(card)
                );
                bad = true;
            }
            Some(card) => out.push(card),
            None => {
                let help = did_you_mean(raw, deck.card_ids())
                    .map_or_else(String::new, |h| format!("\n  = help: {h}"));
                eprintln!("error: unknown card `{raw}` in deck `{}`{help}", deck.id);
                bad = true;
            }
        }
    }
    (!bad).then_some(out)
}

/// A table hand (Baccarat): the player's hand (`--captured`) and the banker's
/// (`--opponent-captured`), each in the order dealt: their values, the drawing rule each hand's
/// rules apply now, and what every bet would do if both stood.
fn score_table(ruleset: &Ruleset, flow: &BankerFlow, args: &ScoreArgs) -> i32 {
    let packs = flow.shoe.map_or(1, |s| s.packs) as usize;
    let (Some(punto), Some(banco)) = (
        card_list(ruleset, packs, &args.captured),
        card_list(ruleset, packs, &args.opponent_captured),
    ) else {
        return super::EXIT_FAILURE;
    };
    let facts = banker::showdown_facts(flow, &punto, &banco);
    let player_rule = banker::rule_for(&flow.player_draw, &facts);
    let banker_rule = banker::rule_for(&flow.banker_draw, &facts);
    let cx = crate::expr::Context {
        pile: CardSet::EMPTY,
        facts: &facts,
    };
    let bets: Vec<(&str, &str)> = flow
        .bets
        .iter()
        .map(|b| {
            let outcome = if b.wins.truth(&cx) {
                "wins"
            } else if b.pushes.as_ref().is_some_and(|p| p.truth(&cx)) {
                "pushes"
            } else {
                "loses"
            };
            (b.id.as_str(), outcome)
        })
        .collect();
    let deck = &ruleset.deck;
    let rule_json = |r: Option<&crate::ruleset::DrawRule>| {
        r.map(|r| {
            serde_json::json!({
                "id": r.id,
                "name": r.name,
                "action": match r.action {
                    crate::ruleset::DrawAction::Draw => "draw",
                    crate::ruleset::DrawAction::Stand => "stand",
                    crate::ruleset::DrawAction::Choose => "choose",
                },
            })
        })
    };
    if args.json {
        let doc = serde_json::json!({
            "ruleset": ruleset.id,
            "player": { "cards": punto.iter().map(|&c| deck.id_of(c)).collect::<Vec<_>>(), "value": facts[0], "rule": rule_json(player_rule) },
            "banker": { "cards": banco.iter().map(|&c| deck.id_of(c)).collect::<Vec<_>>(), "value": facts[3], "rule": rule_json(banker_rule) },
            "bets": bets.iter().map(|(id, o)| serde_json::json!({ "bet": id, "outcome": o })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return super::EXIT_OK;
    }
    let names = |cards: &[crate::deck::CardId]| {
        cards
            .iter()
            .map(|&c| deck.card(c).name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let rule_words = |r: Option<&crate::ruleset::DrawRule>| match r {
        Some(r) if r.action == crate::ruleset::DrawAction::Draw => {
            format!("takes a card ({})", r.name)
        }
        Some(r) => format!("stands ({})", r.name),
        None => "stands (no drawing rule holds)".to_string(),
    };
    println!("{}", ruleset.name);
    println!(
        "  player: {} = {}; by the rules it {}",
        names(&punto),
        facts[0],
        rule_words(player_rule)
    );
    println!(
        "  banker: {} = {}; by the rules it {}",
        names(&banco),
        facts[3],
        rule_words(banker_rule)
    );
    let outcomes: Vec<String> = bets.iter().map(|(id, o)| format!("{id} {o}")).collect();
    println!("  if both stand: {}", outcomes.join(", "));
    super::EXIT_OK
}

/// Hands played by actions (`[flow.play]`): the player's hand (`--captured`, in the order dealt)
/// against the banker's (`--opponent-captured`, its shown cards first): the actions open
/// against the banker's shown cards, the banker's drawing rule, and what settles the hand if
/// both stand.
fn score_play(ruleset: &Ruleset, flow: &BankerFlow, args: &ScoreArgs) -> i32 {
    let packs = flow.shoe.map_or(1, |s| s.packs) as usize;
    let (Some(player), Some(bank)) = (
        card_list(ruleset, packs, &args.captured),
        card_list(ruleset, packs, &args.opponent_captured),
    ) else {
        return super::EXIT_FAILURE;
    };
    let play = flow.play.as_ref().expect("hands played by actions");
    let shown = &bank[..(play.banker_shown as usize).min(bank.len())];
    let seen = banker::play_facts(
        flow,
        Some((&player, false)),
        1,
        shown,
        shown.first().copied(),
    );
    let cx = crate::expr::Context {
        pile: CardSet::EMPTY,
        facts: &seen,
    };
    let open: Vec<&str> = play
        .actions
        .iter()
        .filter(|a| a.when.as_ref().is_none_or(|w| w.truth(&cx)))
        .map(|a| ruleset.declarations[a.decl.0 as usize].id.as_str())
        .collect();
    let whole = banker::play_facts(flow, None, 0, &bank, bank.first().copied());
    let whole_cx = crate::expr::Context {
        pile: CardSet::EMPTY,
        facts: &whole,
    };
    let banker_rule = flow.banker_draw.iter().find(|r| r.when.truth(&whole_cx));
    let (result, (n, d), by) = banker::hand_outcome(flow, &player, false, 1, &bank);
    let result = match result {
        crate::ruleset::PayResult::Win => format!("wins {n} to {d}"),
        crate::ruleset::PayResult::Push => "pushes".to_string(),
        crate::ruleset::PayResult::Lose if (n, d) == (1, 1) => "loses the stake".to_string(),
        crate::ruleset::PayResult::Lose => format!("loses {n}/{d} of the stake"),
    };
    let deck = &ruleset.deck;
    let soft = |cards: &[crate::deck::CardId]| banker::is_soft(flow, cards);
    let draws = banker_rule.is_some_and(|r| r.action == crate::ruleset::DrawAction::Draw);
    if args.json {
        let doc = serde_json::json!({
            "ruleset": ruleset.id,
            "player": { "cards": player.iter().map(|&c| deck.id_of(c)).collect::<Vec<_>>(), "value": seen[0], "soft": soft(&player), "actions": open },
            "banker": { "cards": bank.iter().map(|&c| deck.id_of(c)).collect::<Vec<_>>(), "value": whole[3], "soft": soft(&bank), "draws": draws },
            "if_both_stand": { "outcome": result, "settled_by": by },
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return super::EXIT_OK;
    }
    let names = |cards: &[crate::deck::CardId]| {
        cards
            .iter()
            .map(|&c| deck.card(c).name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let soft_word = |cards: &[crate::deck::CardId]| if soft(cards) { " (soft)" } else { "" };
    println!("{}", ruleset.name);
    println!(
        "  player: {} = {}{}; against {} it may: {}",
        names(&player),
        seen[0],
        soft_word(&player),
        if shown.is_empty() {
            "no shown card".to_string()
        } else {
            names(shown)
        },
        if open.is_empty() {
            "nothing (it stands)".to_string()
        } else {
            open.join(", ")
        }
    );
    println!(
        "  banker: {} = {}{}; by the rules it {}",
        names(&bank),
        whole[3],
        soft_word(&bank),
        match banker_rule {
            Some(r) if draws => format!("takes a card ({})", r.name),
            Some(r) => format!("stands ({})", r.name),
            None => "stands (no drawing rule holds)".to_string(),
        }
    );
    println!("  if both stand: the player {result} ({by})");
    super::EXIT_OK
}

/// A banker game's hand: its value at the showdown, and whether it wins every bet at once when
/// it is the banker's first tiles.
fn score_showdown(ruleset: &Ruleset, args: &ScoreArgs, pile: CardSet, _hand: CardSet) -> i32 {
    let json = args.json;
    let Some(flow) = ruleset.banker() else {
        unreachable!("the banker family's front scores banker rulesets")
    };
    let flow: &BankerFlow = flow;
    let value = banker::hand_value(flow, pile);
    let instant = banker::banker_instant_win(flow, pile);
    let deck = &ruleset.deck;
    let tiles: Vec<String> = pile
        .iter()
        .map(|t| format!("{} {}", deck.card(t).name, deck.id_of(t)))
        .collect();
    if json {
        let doc = serde_json::json!({
            "ruleset": ruleset.id,
            "tiles": deck.ids(pile),
            "value": value,
            "banker_wins_at_once": instant.map(|c| &c.id),
        });
        let mut doc = doc;
        if let Some(words) = crate::families::banker::ranking::words(
            flow,
            &crate::families::banker::ranking::rank_hand(flow, pile),
        ) {
            doc["hand"] = serde_json::json!(words);
        }
        if let Some(ways) = arrangements(ruleset, flow, pile) {
            let ways: Vec<serde_json::Value> = ways
                .iter()
                .map(|(hands, house)| {
                    let hands: Vec<serde_json::Value> = hands
                        .iter()
                        .map(|(id, cards, rank)| {
                            serde_json::json!({ "hand": id, "cards": deck.ids(*cards), "rank": rank })
                        })
                        .collect();
                    serde_json::json!({ "hands": hands, "house_way": house })
                })
                .collect();
            doc["arrangements"] = serde_json::json!(ways);
        }
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return super::EXIT_OK;
    }
    println!("{} — {}", ruleset.name, tiles.join(", "));
    // Named as the screen names it when the rules name the value (`Kabu (9)`).
    if flow.hand_names.is_empty() {
        println!("  value {value}");
    } else {
        println!("  value {}", flow.value_words(value));
    }
    // With ranks, the hand's rank (and special hand) as the screen names it.
    let ranked = crate::families::banker::ranking::rank_hand(flow, pile);
    if let Some(words) = crate::families::banker::ranking::words(flow, &ranked) {
        println!("  hand {words}");
    }
    if let Some(c) = instant {
        println!(
            "  as the banker's first tiles: {} (wins every bet at once)",
            c.name
        );
    }
    if let Some(ways) = arrangements(ruleset, flow, pile) {
        println!("  arrangements allowed ({}):", ways.len());
        for (hands, house) in ways {
            let words: Vec<String> = hands
                .iter()
                .map(|(id, cards, rank)| {
                    let names: Vec<&str> =
                        cards.iter().map(|t| deck.card(t).name.as_str()).collect();
                    format!("{id} {} = {rank}", names.join(", "))
                })
                .collect();
            let mark = if house { "  (the house way)" } else { "" };
            println!("    {}{mark}", words.join(" · "));
        }
    }
    super::EXIT_OK
}

/// Arranged hands (`[flow.arrange]`): every arrangement of `pile` a seat may make, each hand's
/// id, cards and rank in words, and whether it is the house way's; `None` when the game
/// arranges no hands or `pile` is not a whole dealt hand.
#[allow(clippy::type_complexity)]
fn arrangements(
    _ruleset: &Ruleset,
    flow: &BankerFlow,
    pile: CardSet,
) -> Option<Vec<(Vec<(String, CardSet, String)>, bool)>> {
    use crate::families::banker::{arrange, hand_value, ranking};
    let a = flow.arrange.as_ref()?;
    if pile.len() != a.hands.iter().map(|h| h.cards).sum::<u32>() {
        return None;
    }
    let house = arrange::house_way(flow, a, pile);
    Some(
        arrange::arrangements(flow, a, pile)
            .into_iter()
            .map(|first| {
                let hands = a
                    .hands
                    .iter()
                    .enumerate()
                    .map(|(i, h)| {
                        let cards = arrange::hand_of(first, pile, i);
                        let rank = ranking::words(flow, &ranking::rank_hand(flow, cards))
                            .unwrap_or_else(|| flow.value_words(hand_value(flow, cards)));
                        (h.id.clone(), cards, rank)
                    })
                    .collect();
                (hands, first == house)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_family_has_one_scorer() {
        for family in crate::families::FAMILIES {
            let scorers = super::SCORERS
                .iter()
                .filter(|(name, _)| *name == family.name())
                .count();
            assert_eq!(scorers, 1, "family `{}`", family.name());
        }
        assert_eq!(super::SCORERS.len(), crate::families::FAMILIES.len());
    }
}
