//! `yaku analyze RULESET --strategy S`: the exact expected result per hand of a banker-game
//! strategy, and the best strategies for fixed and for limited bets.

use super::load_ruleset;
use crate::families::banker::analysis::{self, Rational, Strategy};
use std::fmt::Write as _;
use std::io::IsTerminal;

/// Arguments of `yaku analyze`.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// The ruleset: a bundled name (`kolyesi`) or a path.
    pub(crate) ruleset: String,
    #[command(flatten)]
    pub(crate) house: super::HouseArgs,
    /// The strategy: a bundled name (seed, always-one, always-two, best-fixed, best) or a TOML
    /// file; `seed` when not given. Games whose draws the rules decide per seat are analysed
    /// for the best choice at each total and take none.
    #[arg(long, value_name = "NAME_OR_FILE")]
    strategy: Option<String>,
    /// Players at the table (does not change one player's odds; checked against the table).
    #[arg(long, value_name = "N")]
    players: Option<u32>,
    /// The smallest bet (defaults to the ruleset's).
    #[arg(long, value_name = "A", value_parser = clap::value_parser!(i64).range(1..=crate::ruleset::MAX_BET))]
    min_bet: Option<i64>,
    /// The largest bet (defaults to the ruleset's).
    #[arg(long, value_name = "B", value_parser = clap::value_parser!(i64).range(1..=crate::ruleset::MAX_BET))]
    max_bet: Option<i64>,
    /// Allow an enumeration of up to N deals (default 1,000,000,000; where drawing rules play
    /// each seat's hand, N banker's hands played out, default 100,000,000): a ruleset that deals
    /// more is refused with an estimate of how long it would take, unless this allows it.
    #[arg(long, value_name = "N")]
    max_deals: Option<u64>,
    /// Packs in the shoe of a table-hand game (Baccarat; defaults to the ruleset's `shoe_packs`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    packs: Option<u32>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// A percentage with four decimals: `-1.0579%`.
fn percent(r: &Rational) -> String {
    format!("{:+.4}%", r.to_f64() * 100.0)
}

/// `yaku analyze` on a table-hand game: the chance of each outcome and each bet's expected
/// result per chip staked, from a full shoe.
fn run_table(
    args: &AnalyzeArgs,
    ruleset: &crate::ruleset::Ruleset,
    flow: &crate::ruleset::BankerFlow,
) -> i32 {
    let packs = args
        .packs
        .unwrap_or_else(|| flow.shoe.map_or(1, |s| s.packs));
    let odds = match analysis::table::table_odds(flow, &ruleset.deck, packs) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: no exact analysis of `{}`: {e}", ruleset.id);
            return super::EXIT_FAILURE;
        }
    };
    if args.json {
        let bets: Vec<serde_json::Value> = odds
            .bets
            .iter()
            .map(|b| {
                serde_json::json!({
                    "id": b.id,
                    "name": b.name,
                    "win": b.win.to_f64(),
                    "push": b.push.to_f64(),
                    "lose": b.lose.to_f64(),
                    "win_exact": b.win.to_string(),
                    "push_exact": b.push.to_string(),
                    "ev": b.ev.to_f64(),
                    "ev_exact": b.ev.to_string(),
                })
            })
            .collect();
        let doc = serde_json::json!({
            "ruleset": ruleset.id,
            "packs": odds.packs,
            "cards": odds.cards,
            "player": fraction_of(&odds.player),
            "banker": fraction_of(&odds.banker),
            "tie": fraction_of(&odds.tie),
            "bets": bets,
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return super::EXIT_OK;
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} — exact, over every deal of one hand from a full shoe of {} pack(s) ({} cards)",
        ruleset.name, odds.packs, odds.cards
    );
    let _ = writeln!(out);
    let _ = writeln!(out, "{:<16} {:>12}   exact", "outcome", "probability");
    for (name, r) in [
        ("player higher", odds.player),
        ("banker higher", odds.banker),
        ("equal (tie)", odds.tie),
    ] {
        let _ = writeln!(out, "{name:<16} {:>11.4}%   {r}", r.to_f64() * 100.0);
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:<10} {:>10} {:>10} {:>10}   {:>10}   per chip staked, exact",
        "bet", "wins", "pushes", "loses", "edge"
    );
    for b in &odds.bets {
        let _ = writeln!(
            out,
            "{:<10} {:>9.4}% {:>9.4}% {:>9.4}%   {:>10}   {}",
            b.name,
            b.win.to_f64() * 100.0,
            b.push.to_f64() * 100.0,
            b.lose.to_f64() * 100.0,
            percent(&b.ev),
            b.ev
        );
    }
    print!("{out}");
    super::EXIT_OK
}

/// `yaku analyze` on hands played by actions (Blackjack): on an infinite deck, the expected
/// result per chip of the best play and of playing by the banker's drawing rules, and the best
/// action of each first hand against each shown card, all worked out from the rules.
fn run_play(
    args: &AnalyzeArgs,
    ruleset: &crate::ruleset::Ruleset,
    flow: &std::sync::Arc<crate::ruleset::BankerFlow>,
) -> i32 {
    use crate::families::banker::analysis::play::{PlayOdds, Policy};
    use crate::ruleset::PlayEffect;
    if args.strategy.is_some() || args.packs.is_some() {
        eprintln!(
            "error: `{}` is analysed on an infinite deck for the best play and for playing like the banker; it takes no `--strategy` or `--packs` (measure a strategy with `yaku sim`)",
            ruleset.id
        );
        return super::EXIT_USAGE;
    }
    let mut odds = PlayOdds::new(flow, &ruleset.deck);
    let best = odds.edge(Policy::Best);
    let like = odds.edge(Policy::LikeBanker);
    // The table: one column per shown card value, one row per first hand (pair, soft, total).
    let classes = odds.class_cards();
    let mut columns: Vec<(usize, i64)> = Vec::new();
    for (i, (card, _)) in classes.iter().enumerate() {
        let v = flow.card_points[card.index()];
        if !columns.iter().any(|&(_, w)| w == v) {
            columns.push((i, v));
        }
    }
    columns.sort_by_key(|&(_, v)| if v == 1 { i64::MAX } else { v });
    // (pair, soft, total), the hand's classes, its label.
    type Row = ((bool, bool, i64), Vec<usize>, String);
    let mut rows: Vec<Row> = Vec::new();
    for a in 0..classes.len() {
        for b in a..classes.len() {
            let cards = [classes[a].0, classes[b].0];
            let facts =
                crate::families::banker::play_facts(flow, Some((&cards, false)), 1, &[], None);
            let key = (facts[8] == 1, facts[6] == 1, facts[0]);
            if rows.iter().any(|(k, ..)| *k == key) {
                continue;
            }
            let face = |c: crate::deck::CardId| ruleset.deck.cards[c.index()].face.clone();
            let label = match key {
                (true, ..) => format!("pair {}", face(cards[0])),
                (false, true, t) => format!("soft {t}"),
                (false, false, t) => format!("hard {t}"),
            };
            rows.push((key, vec![a, b], label));
        }
    }
    rows.sort_by_key(|((pair, soft, total), ..)| (*pair, *soft, *total));
    let letter = |e: Option<PlayEffect>| match e {
        Some(PlayEffect::Hit) => "H",
        Some(PlayEffect::Stand) => "S",
        Some(PlayEffect::Double) => "D",
        Some(PlayEffect::Split) => "P",
        Some(PlayEffect::Surrender) => "R",
        None => "-",
    };
    let table: Vec<(String, Vec<&str>)> = rows
        .iter()
        .map(|(_, hand, label)| {
            let acts = columns
                .iter()
                .map(|&(up, _)| letter(odds.best_action(up, hand)))
                .collect();
            (label.clone(), acts)
        })
        .collect();
    if args.json {
        let doc = serde_json::json!({
            "ruleset": ruleset.id,
            "model": "infinite deck",
            "best_play_ev": best.ev,
            "like_banker_ev": like.ev,
            "up_cards": columns.iter().map(|&(_, v)| v).collect::<Vec<_>>(),
            "table": table.iter().map(|(l, a)| serde_json::json!({"hand": l, "actions": a})).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return super::EXIT_OK;
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} — on an infinite deck ({} kinds of card, each drawn with its share of a pack)",
        ruleset.name, best.classes
    );
    let _ = writeln!(out);
    let _ = writeln!(out, "{:<34} {:>10}", "play", "per chip");
    for (name, ev) in [
        ("best action at every decision", best.ev),
        ("by the banker's drawing rules", like.ev),
    ] {
        let _ = writeln!(out, "{name:<34} {:>+9.4}%", ev * 100.0);
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "best action of the first two cards against the banker's shown card (H hit, S stand, D double, P split, R surrender)"
    );
    let _ = write!(out, "{:<10}", "");
    for &(_, v) in &columns {
        let _ = write!(
            out,
            "{:>3}",
            if v == 1 {
                "A".to_string()
            } else {
                v.to_string()
            }
        );
    }
    let _ = writeln!(out);
    for (label, acts) in &table {
        let _ = write!(out, "{label:<10}");
        for a in acts {
            let _ = write!(out, "{a:>3}");
        }
        let _ = writeln!(out);
    }
    print!("{out}");
    super::EXIT_OK
}

/// `yaku analyze` on hands per seat drawn by rules (Oicho-Kabu): the best choice at each total
/// where the rules leave it to the player, and the banker's edge, exactly.
fn run_seats(
    args: &AnalyzeArgs,
    ruleset: &crate::ruleset::Ruleset,
    flow: &crate::ruleset::BankerFlow,
    limits: (i64, i64),
) -> i32 {
    if let Err(e) = analysis::seats::check(ruleset, flow) {
        eprintln!("error: no exact analysis of `{}`: {e}", ruleset.id);
        return super::EXIT_FAILURE;
    }
    // The size first, counted without computing any odds: a game that draws until 17 plays out
    // millions of banker's hands, one that deals from several packs far more.
    let allowed = args.max_deals.unwrap_or(analysis::DEFAULT_MAX_HANDS_PLAYED);
    let work = analysis::seat_work::seat_work(ruleset, flow, u128::from(allowed));
    let total = work.total();
    if work.more || total > u128::from(allowed) {
        if work.more {
            eprintln!(
                "error: the exact analysis of `{}` plays out more than {total} banker's hands ({}); more than the {allowed} allowed",
                ruleset.id,
                work.words(),
            );
            eprintln!(
                "  = help: {}",
                if work.capped {
                    "counting stopped there: no `--max-deals` makes an enumeration this large finish"
                } else {
                    "counting stopped past the limit: a larger `--max-deals` counts further"
                }
            );
        } else {
            eprintln!(
                "error: the exact analysis of `{}` plays out up to {total} banker's hands ({}), about {} in a release build; more than the {allowed} allowed",
                ruleset.id,
                work.words(),
                duration_words(total as f64 * SECONDS_PER_HAND_PLAYED)
            );
            eprintln!("  = help: `--max-deals {total}` runs it anyway");
        }
        return super::EXIT_USAGE;
    }
    let bar = (total >= PROGRESS_FROM / 10 && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(work.player_hands);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {human_pos}/{human_len} player's hands  ETA {eta}  elapsed {elapsed}",
        ) {
            bar.set_style(style);
        }
        bar
    });
    let odds = match analysis::seats::seat_odds_with_progress(ruleset, flow, &mut |n| {
        if let Some(bar) = &bar {
            bar.inc(n);
        }
    }) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: no exact analysis of `{}`: {e}", ruleset.id);
            return super::EXIT_FAILURE;
        }
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let (_, limited) = analysis::best_values(&odds.first, limits);
    let option_words = |d: u32| match d {
        0 => "stand".to_string(),
        1 => "take 1".to_string(),
        n => format!("take {n}"),
    };
    if args.json {
        let totals: Vec<serde_json::Value> = odds
            .by_total
            .iter()
            .map(|t| {
                let by_draw: Vec<serde_json::Value> = t
                    .by_draw
                    .iter()
                    .map(|(d, ev)| serde_json::json!({ "draw": d, "ev": ev.to_f64(), "ev_exact": ev.to_string() }))
                    .collect();
                serde_json::json!({
                    "total": t.total,
                    "chance": fraction_of(&t.chance),
                    "by_draw": by_draw,
                    "best": t.best().0,
                    "exceptions": t.exceptions,
                })
            })
            .collect();
        let doc = serde_json::json!({
            "ruleset": ruleset.id,
            "player": fraction(&odds.player),
            "banker_edge": fraction(&-&odds.player),
            "banker_wins_at_once": fraction_of(&odds.banker_wins),
            "best_with_limits": fraction(&limited),
            "limits": [limits.0, limits.1],
            "choices": totals,
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return super::EXIT_OK;
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} — exact, over every deal of one player's hand, its draws and the banker's",
        ruleset.name
    );
    let _ = writeln!(
        out,
        "(the other players' cards do not change one player's odds; draws by the drawing rules)"
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "the banker's first cards win every bet at once: {:.4}%   {}",
        odds.banker_wins.to_f64() * 100.0,
        odds.banker_wins
    );
    let _ = writeln!(
        out,
        "player, one chip a hand, best choices: {}   {}",
        percent(&odds.player),
        odds.player
    );
    let _ = writeln!(
        out,
        "the banker's edge: {}   {}",
        percent(&-&odds.player),
        -&odds.player
    );
    let _ = writeln!(
        out,
        "player with bets of {} to {} (the largest on a favourable first hand): {:+.4} chips a hand   {}",
        limits.0,
        limits.1,
        limited.to_f64(),
        limited
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "where the rules leave the choice to the player, per chip:"
    );
    let header: Vec<String> = flow.draw_options.iter().map(|&d| option_words(d)).collect();
    let _ = writeln!(
        out,
        "{:<7} {:>8}   {:<24}  best",
        "total",
        "chance",
        header.join(" / ")
    );
    for t in &odds.by_total {
        let evs: Vec<String> = t
            .by_draw
            .iter()
            .map(|(_, ev)| format!("{:+.4}", ev.to_f64()))
            .collect();
        let (best, _) = t.best();
        let exceptions = if t.exceptions > 0 {
            format!(
                " ({} hand(s) of this total do better otherwise)",
                t.exceptions
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{:<7} {:>7.4}%   {:<24}  {}{exceptions}",
            t.total,
            t.chance.to_f64() * 100.0,
            evs.join(" / "),
            option_words(best)
        );
    }
    let _ = writeln!(out);
    for t in &odds.by_total {
        let exact: Vec<String> = t
            .by_draw
            .iter()
            .map(|(d, ev)| format!("{} {ev}", option_words(*d)))
            .collect();
        let _ = writeln!(out, "total {}: {}", t.total, exact.join(", "));
    }
    print!("{out}");
    super::EXIT_OK
}

fn fraction_of(r: &Rational) -> serde_json::Value {
    serde_json::json!({ "probability": r.to_f64(), "exact": r.to_string() })
}

/// Enumerations this long show a progress bar on a terminal.
const PROGRESS_FROM: u128 = 50_000_000;

/// About how long one banker's hand counted for the analysis of hands per seat takes in a
/// release build, for the estimate of a refused run: a game that draws until 17 counts
/// 9,624,236 (and plays out 5,843,130 of them) in about 2 s of one core.
const SECONDS_PER_HAND_PLAYED: f64 = 0.22e-6;

/// Deals per second on this machine and build, measured for 50 ms on random hands (each deal of
/// the enumeration evaluates one hand): for the time an enumeration would take.
fn deals_per_second(ruleset: &crate::ruleset::Ruleset, flow: &crate::ruleset::BankerFlow) -> f64 {
    use rand::{RngExt, SeedableRng};
    let n = ruleset.deck.cards.len();
    let size = (flow.first_tiles + flow.draw_options.iter().copied().max().unwrap_or(0)) as usize;
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(1);
    let piles: Vec<crate::deck::CardSet> = (0..4096)
        .map(|_| {
            (0..size.min(n))
                .map(|_| crate::deck::CardId(rng.random_range(0..n) as u8))
                .collect()
        })
        .collect();
    let start = std::time::Instant::now();
    let (mut hands, mut sink) = (0u64, 0i64);
    while start.elapsed() < std::time::Duration::from_millis(50) {
        for &pile in &piles {
            sink = sink.wrapping_add(crate::families::banker::hand_value(flow, pile));
        }
        hands += piles.len() as u64;
    }
    std::hint::black_box(sink);
    hands as f64 / start.elapsed().as_secs_f64()
}

/// A duration in words: `3 s`, `12 min`, `5 h`, `40 days`, `2,000 years`.
fn duration_words(seconds: f64) -> String {
    let (value, unit) = if seconds < 120.0 {
        (seconds, "s")
    } else if seconds < 7200.0 {
        (seconds / 60.0, "min")
    } else if seconds < 172_800.0 {
        (seconds / 3600.0, "h")
    } else if seconds < 2.0 * 31_557_600.0 {
        (seconds / 86_400.0, "days")
    } else {
        (seconds / 31_557_600.0, "years")
    };
    format!("{value:.0} {unit}")
}

/// A strategy analysis as JSON: the ruleset, strategy, limits and expected values (the
/// strategy's, the best fixed bet's, the best limited bets'), and the per-hand table under its
/// name.
fn strategy_json(
    ruleset: &crate::ruleset::Ruleset,
    strategy: &Strategy,
    limits: (i64, i64),
    (ev, ev_fixed, ev_best): (Rational, Rational, Rational),
    (table, rows): (&str, serde_json::Value),
) -> serde_json::Value {
    let mut doc = serde_json::json!({
        "ruleset": ruleset.id,
        "strategy": strategy.name,
        "limits": { "min_bet": limits.0, "max_bet": limits.1 },
        "ev": ev.to_f64(),
        "ev_exact": ev.to_string(),
        "profitable": ev > Rational::ZERO,
        "best_fixed_bet": fraction(&ev_fixed),
        "best_limited_bets": fraction(&ev_best),
    });
    doc[table] = rows;
    doc
}

/// The heading of a strategy's per-hand table: `first` (what a row is keyed on), each draw
/// option per chip, and `last`.
fn draws_heading(out: &mut String, flow: &crate::ruleset::BankerFlow, first: &str, last: &str) {
    let draws: Vec<String> = flow
        .draw_options
        .iter()
        .map(|d| format!("take {d}"))
        .collect();
    let _ = writeln!(
        out,
        "{:<24} {:>22}   {:>10}",
        first,
        draws.join(" / ") + " (per chip)",
        last
    );
}

/// The heading and the expected results of a strategy's analysis.
fn summary(
    ruleset: &crate::ruleset::Ruleset,
    strategy: &Strategy,
    limits: (i64, i64),
    ev: Rational,
    ev_fixed: Rational,
    ev_best: Rational,
) -> String {
    let mut out = String::new();
    let description = if strategy.description.is_empty() {
        String::new()
    } else {
        format!(": {}", strategy.description)
    };
    let _ = writeln!(
        out,
        "{} — strategy `{}`{description}",
        ruleset.name, strategy.name
    );
    let _ = writeln!(
        out,
        "table limits {} to {} chips; exact, over every deal of the player's and the banker's tiles",
        limits.0, limits.1
    );
    let _ = writeln!(
        out,
        "(the other players' tiles do not change one player's odds)"
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "expected result per hand: {ev} chips ({:+.4}) — {}",
        ev.to_f64(),
        if ev > Rational::ZERO {
            "profitable for the player"
        } else if ev < Rational::ZERO {
            "the banker wins in the long run"
        } else {
            "even"
        }
    );
    let _ = writeln!(
        out,
        "best with a fixed bet of {} chip(s): {ev_fixed} ({:+.4})",
        limits.0,
        ev_fixed.to_f64()
    );
    let _ = writeln!(
        out,
        "best with bets of {} to {}: {ev_best} ({:+.4})",
        limits.0,
        limits.1,
        ev_best.to_f64()
    );
    let _ = writeln!(out);
    out
}

/// `tile`, `2 tiles`.
fn plural_tiles(n: u32) -> String {
    if n == 1 {
        "tile".into()
    } else {
        format!("{n} tiles")
    }
}

/// A value of the first tiles, how many first hands have it, and the mean result per chip of
/// each draw option over them.
type ValueRow = (i64, usize, Vec<(u32, Rational)>);

/// First hands of several tiles grouped by their value: the value, how many first hands have
/// it, and the mean expected result per chip of each draw option over them (each first hand is
/// as likely as any other).
fn by_value(flow: &crate::ruleset::BankerFlow, odds: &[analysis::FirstHandOdds]) -> Vec<ValueRow> {
    let mut groups: Vec<ValueRow> = Vec::new();
    for o in odds {
        let value = crate::families::banker::hand_value(flow, o.tiles);
        match groups.iter_mut().find(|g| g.0 == value) {
            Some(g) => {
                g.1 += 1;
                for (sum, (_, r)) in g.2.iter_mut().zip(&o.by_draw) {
                    sum.1 += r;
                }
            }
            None => groups.push((value, 1, o.by_draw.clone())),
        }
    }
    for g in &mut groups {
        let n = g.1 as i128;
        for d in &mut g.2 {
            d.1 /= Rational::from(n);
        }
    }
    groups.sort_by_key(|g| g.0);
    groups
}

fn fraction(r: &Rational) -> serde_json::Value {
    serde_json::json!({ "ev": r.to_f64(), "ev_exact": r.to_string() })
}

/// Runs the command.
pub fn run(args: &AnalyzeArgs) -> i32 {
    let Some(ruleset) = load_ruleset(&args.ruleset) else {
        return super::EXIT_FAILURE;
    };
    let Some(flow) = ruleset.banker() else {
        eprintln!(
            "error: `yaku analyze` works on banker games; `{}` is a matching game (try `yaku sim`)",
            ruleset.id
        );
        return super::EXIT_FAILURE;
    };
    if flow.table_hand {
        return run_table(args, &ruleset, flow);
    }
    if flow.play.is_some() {
        return run_play(args, &ruleset, flow);
    }
    if flow.pot.is_some() {
        return run_ranks(args, &ruleset, flow);
    }
    if flow.arrange.is_some() {
        eprintln!(
            "error: `yaku analyze` does not enumerate games whose hands are arranged (`[flow.arrange]`): \
             measure them with `yaku sim {}`",
            args.ruleset
        );
        return super::EXIT_FAILURE;
    }
    if args.packs.is_some() {
        eprintln!(
            "error: `--packs` is for a game dealt from a shoe to one table hand; `{}` deals each player a hand",
            ruleset.id
        );
        return super::EXIT_USAGE;
    }
    let limits = (
        args.min_bet.unwrap_or(flow.min_bet),
        args.max_bet.unwrap_or(flow.max_bet),
    );
    if limits.0 < 1 || limits.0 > limits.1 {
        eprintln!(
            "error: the table limits must satisfy 1 <= --min-bet ({}) <= --max-bet ({})",
            limits.0, limits.1
        );
        return super::EXIT_USAGE;
    }
    if let Some(n) = args.players
        && (n == 0 || n > flow.max_players)
    {
        eprintln!(
            "error: this table seats 1 to {} players, not {n}",
            flow.max_players
        );
        return super::EXIT_USAGE;
    }
    if crate::families::banker::has_seat_rules(flow) {
        if let Some(strategy) = &args.strategy {
            eprintln!(
                "error: `{}` is analysed for the best choice at each total, not for a strategy: \
                 leave out `--strategy {strategy}`, or measure the strategy with \
                 `yaku sim {} --players {strategy},...`",
                ruleset.id, args.ruleset
            );
            return super::EXIT_USAGE;
        }
        return run_seats(args, &ruleset, flow, limits);
    }
    let deck = &ruleset.deck;
    let strategy = match Strategy::load(args.strategy.as_deref().unwrap_or("seed"), &ruleset) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return super::EXIT_FAILURE;
        }
    };
    // The enumeration's size first: tile counts of 4 take hours, of 6 years.
    let deals = analysis::deal_count(deck.cards.len(), flow);
    let allowed = args.max_deals.unwrap_or(analysis::DEFAULT_MAX_DEALS);
    if deals > u128::from(allowed) {
        let time = deals as f64 / deals_per_second(&ruleset, flow);
        eprintln!(
            "error: the exact analysis of `{}` goes through {deals} deals ({}), about {} on this machine; more than the {allowed} allowed",
            ruleset.id,
            analysis::enumeration_words(deck.cards.len(), flow),
            duration_words(time)
        );
        eprintln!(
            "  = help: `--max-deals {deals}` runs it anyway{}",
            if deals > u128::from(u64::MAX) {
                " (it is beyond what --max-deals takes)"
            } else {
                ""
            }
        );
        return super::EXIT_USAGE;
    }
    let bar = (deals >= PROGRESS_FROM && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(deals as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {human_pos}/{human_len} deals  ETA {eta}  elapsed {elapsed}",
        ) {
            bar.set_style(style);
        }
        bar
    });
    let odds = analysis::first_hand_odds_with_progress(&ruleset, flow, |n| {
        if let Some(bar) = &bar {
            bar.inc(n);
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let ev = analysis::expected_value(flow, &odds, &strategy, limits);
    // The best strategies are computed from the odds, for any deck (the bundled strategy tables
    // name the Gu Pai tiles, so a ruleset with its own deck could not load them).
    let (ev_fixed, ev_best) = analysis::best_values(&odds, limits);

    if flow.first_tiles > 1 {
        let groups = by_value(flow, &odds);
        if args.json {
            let rows: Vec<serde_json::Value> = groups
                .iter()
                .map(|(value, hands, by_draw)| {
                    let per: serde_json::Map<String, serde_json::Value> = by_draw
                        .iter()
                        .map(|(d, r)| (d.to_string(), fraction(r)))
                        .collect();
                    serde_json::json!({ "value": value, "hands": hands, "per_chip_by_draw": per })
                })
                .collect();
            let doc = strategy_json(
                &ruleset,
                &strategy,
                limits,
                (ev, ev_fixed, ev_best),
                ("first_hands_by_value", rows.into()),
            );
            println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
            return super::EXIT_OK;
        }
        let mut out = summary(&ruleset, &strategy, limits, ev, ev_fixed, ev_best);
        draws_heading(
            &mut out,
            flow,
            &format!("first {} value", plural_tiles(flow.first_tiles)),
            "hands",
        );
        for (value, hands, by_draw) in &groups {
            let per: Vec<String> = by_draw
                .iter()
                .map(|(_, r)| format!("{:+.4}", r.to_f64()))
                .collect();
            let _ = writeln!(out, "{:<24} {:>22}   {hands:>10}", value, per.join(" / "));
        }
        let _ = writeln!(
            out,
            "(each row: the mean over the first hands of that value, each equally likely)"
        );
        print!("{out}");
        return super::EXIT_OK;
    }
    // One row per kind of tile (identical tiles have identical odds): a suit whose tiles are
    // identical (Gu Pai's) is one row under the suit's name, any other tile a row of its own.
    let mut rows = Vec::new();
    let mut seen: Vec<crate::deck::CardId> = Vec::new();
    for o in &odds {
        let Some(first) = o.tiles.first_card() else {
            continue;
        };
        if seen.iter().any(|&s| deck.alike(s, first)) {
            continue;
        }
        seen.push(first);
        let suit = deck.card(first).suit;
        let whole_suit = deck.same_suit(first).iter().all(|c| deck.alike(c, first));
        let card = (!whole_suit).then_some(first);
        let (bet, draw) = strategy.decide(flow, o, limits);
        let (best_draw, best_ev) = o.best();
        rows.push(((suit, card), o, bet, draw, best_draw, best_ev));
    }
    let label = |(suit, card): (usize, Option<crate::deck::CardId>)| match card {
        Some(c) => deck.card(c).name.clone(),
        None => deck.suits[suit].name.clone(),
    };

    if args.json {
        let tiles: Vec<serde_json::Value> = rows
            .iter()
            .map(|(key, o, bet, draw, best_draw, best_ev)| {
                let by_draw: serde_json::Map<String, serde_json::Value> = o
                    .by_draw
                    .iter()
                    .map(|(d, r)| (d.to_string(), fraction(r)))
                    .collect();
                let mut row = serde_json::json!({
                    "suit": deck.suits[key.0].id,
                    "name": label(*key),
                    "per_chip_by_draw": by_draw,
                    "strategy": { "bet": bet, "draw": draw },
                    "best_draw": best_draw,
                    "best_per_chip": fraction(best_ev),
                });
                if let Some(c) = key.1 {
                    row["card"] = deck.card(c).id.clone().into();
                }
                row
            })
            .collect();
        let doc = strategy_json(
            &ruleset,
            &strategy,
            limits,
            (ev, ev_fixed, ev_best),
            ("tiles", tiles.into()),
        );
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return super::EXIT_OK;
    }
    let mut out = summary(&ruleset, &strategy, limits, ev, ev_fixed, ev_best);
    draws_heading(&mut out, flow, "first tile", "strategy");
    for (key, o, bet, draw, best_draw, _) in &rows {
        let per: Vec<String> = o
            .by_draw
            .iter()
            .map(|(_, r)| format!("{:+.4}", r.to_f64()))
            .collect();
        let _ = writeln!(
            out,
            "{:<24} {:>22}   bet {bet:>2}, take {draw}{}",
            label(*key),
            per.join(" / "),
            if draw != best_draw {
                format!(" (best: take {best_draw})")
            } else {
                String::new()
            }
        );
    }
    print!("{out}");
    super::EXIT_OK
}

/// A pot game: the exact probability of each hand rank (and special hand) of the cards one
/// seat is dealt, over every hand of that many cards.
fn run_ranks(
    args: &AnalyzeArgs,
    ruleset: &crate::ruleset::Ruleset,
    flow: &crate::ruleset::BankerFlow,
) -> i32 {
    let odds = analysis::ranks::rank_odds(ruleset, flow);
    if args.json {
        let rows: Vec<serde_json::Value> = odds
            .rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "hand": r.name,
                    "special": r.special,
                    "hands": r.count,
                    "probability": r.probability.to_f64(),
                    "probability_exact": r.probability.to_string(),
                })
            })
            .collect();
        let out = serde_json::json!({
            "ruleset": ruleset.id,
            "cards": odds.cards,
            "hands": odds.total,
            "ranks": rows,
        });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        return super::EXIT_OK;
    }
    println!(
        "{} — exact, over every {} of {} cards a seat may be dealt ({} hands)",
        ruleset.name,
        plural_cards(odds.cards),
        ruleset.deck.cards.len(),
        odds.total
    );
    println!();
    println!("  {:<36} {:>6} {:>9}   exact", "hand", "hands", "chance");
    for r in &odds.rows {
        let name = if r.special {
            format!("  {} (special)", r.name)
        } else {
            r.name.clone()
        };
        println!(
            "  {:<36} {:>6} {:>8.4}%   {}",
            name,
            r.count,
            r.probability.to_f64() * 100.0,
            r.probability
        );
    }
    super::EXIT_OK
}

fn plural_cards(n: u32) -> String {
    if n == 1 {
        "hand of one".to_string()
    } else {
        format!("hand of {n}")
    }
}
