//! The matching family's `[flow]` (`style = "matching"`, the default): seats and the deal,
//! dealers, the declarations after a yaku and after the deal, instant wins and redeals, the
//! table's count, captures, turn events and dropping out.

use super::*;
use crate::deck::{CardSet, Deck};
use crate::diag::{Diagnostic, Loc, did_you_mean};
use crate::expr::{self, Names, Program, Type};
use crate::ruleset::keys;
use crate::ruleset::model::*;
use crate::ruleset::reader::{Str, TableReader};
use crate::ruleset::toml_tree::Table;
use crate::ruleset::vocab::*;

/// `[flow]` of a matching game (`style = "matching"`, or no `style`).
pub(super) fn flow(
    mut r: TableReader,
    t: &Table,
    loc: &Loc,
    vocab: &Vocab,
    sections: &Sections,
    errors: &mut Vec<Diagnostic>,
) -> Option<Flow> {
    let deck = vocab.deck;
    let names = &vocab.names(scope::CONSTANT);
    sections.no_melds("matching", errors);
    family_declarations(sections, "matching", keys::MATCHING_EFFECTS, errors);
    for (d, at, _) in sections.declarations {
        match d.effect.as_str() {
            "reveal" | "play_suit" if d.count == 0 => errors.push(
                Diagnostic::error(
                    format!("a `{}` declaration needs `count`", d.effect),
                    at.clone(),
                )
                .with_help(Some(
                    "add `count = 3`: the cards of one suit the player must hold".into(),
                )),
            ),
            "count_as" if d.card.is_none() => errors.push(
                Diagnostic::error("a `count_as` declaration needs `card`", at.clone()).with_help(
                    Some("add `card = \"...\"`: the card counted another way".into()),
                ),
            ),
            _ => {}
        }
    }
    let players = positive(&mut r, "players", 2, errors);
    let min_players = positive(&mut r, "min_players", players.min(2), errors);
    let max_players = positive(&mut r, "max_players", players, errors);
    if !(min_players <= players && players <= max_players) || max_players as usize > MAX_SEATS {
        errors.push(Diagnostic::error(
            format!(
                "seats must satisfy 1 <= min_players ({min_players}) <= players ({players}) <= max_players ({max_players}) <= {MAX_SEATS}"
            ),
            loc.clone(),
        ));
    }
    let teams = teams(&mut r, (players, min_players, max_players), loc, errors);
    let hand_size = positive(&mut r, "hand_size", 8, errors);
    let table_size = table_cards(&mut r, 8, errors);
    let mut deal_sizes: Vec<DealSize> = Vec::new();
    for (t, l) in r.tables("deal_size", errors) {
        let mut d =
            TableReader::new(t, l.clone(), "a `[[flow.deal_size]]`").defined_by(&keys::DEAL_SIZE);
        let at = d
            .item("players")
            .map(|i| i.loc.clone())
            .unwrap_or_else(|| l.clone());
        let seats = positive(&mut d, "players", players, errors);
        let size = DealSize {
            players: seats,
            hand_size: positive(&mut d, "hand_size", hand_size, errors),
            table_size: table_cards(&mut d, table_size, errors),
        };
        d.finish(errors);
        if !(min_players..=max_players).contains(&seats) {
            errors.push(
                Diagnostic::error(
                    format!(
                        "a deal for {seats} players, but the table seats {min_players} to {max_players}"
                    ),
                    at,
                )
                .with_help(Some(
                    "a ruleset that extends one with deals for other table sizes drops them with `deal_size = []` under `[flow]` (a key written replaces the base's)".to_string(),
                )),
            );
        } else if deal_sizes.iter().any(|x| x.players == seats) {
            errors.push(Diagnostic::error(
                format!("a second deal for {seats} players"),
                at,
            ));
        } else {
            deal_sizes.push(size);
        }
    }
    let deal_packet = positive(&mut r, "deal_packet", 4, errors);
    let deal_order: Vec<DealTarget> = {
        let items = r.strings("deal_order", errors);
        let opts = [
            ("dealer", DealTarget::Dealer),
            ("opponent", DealTarget::Others),
            ("others", DealTarget::Others),
            ("table", DealTarget::Table),
        ];
        let mut order = Vec::new();
        for s in &items {
            match opts.iter().find(|(n, _)| *n == s.text) {
                Some((_, v)) => order.push(*v),
                None => errors.push(
                    Diagnostic::error(format!("unknown deal target `{}`", s.text), s.loc.clone())
                        .with_help(did_you_mean(s.text, opts.iter().map(|(n, _)| *n)).or(Some(
                            "use `dealer`, `others` (`opponent`) or `table`".into(),
                        ))),
                ),
            }
        }
        // Every hand receives cards (hand sizes are positive), and the table unless every deal
        // gives it none (`table_size = 0`, as in Scopone scientifico): an order that leaves out
        // a target that receives cards would never fill it.
        let others = if players == 2 { "opponent" } else { "others" };
        let table_gets_cards = table_size > 0 || deal_sizes.iter().any(|d| d.table_size > 0);
        let missing: Vec<&str> = [
            ("dealer", DealTarget::Dealer),
            (others, DealTarget::Others),
            ("table", DealTarget::Table),
        ]
        .iter()
        .filter(|(_, t)| !order.contains(t) && (*t != DealTarget::Table || table_gets_cards))
        .map(|(n, _)| *n)
        .collect();
        if let (Some(first), false) = (
            items.first(),
            missing.is_empty() || order.len() < items.len(),
        ) {
            let span =
                first.loc.span.start..items.last().map_or(first.loc.span.end, |l| l.loc.span.end);
            errors.push(
                Diagnostic::error(
                    format!(
                        "`deal_order` leaves out `{}`, which must receive cards",
                        missing.join("`, `")
                    ),
                    Loc::new(first.loc.file, span),
                )
                .with_help(Some(if table_gets_cards {
                    format!("name each of `dealer`, `{others}` and `table` at least once")
                } else {
                    format!(
                        "name each of `dealer` and `{others}` at least once (`table` only if the table is dealt cards)"
                    )
                })),
            );
        }
        if items.is_empty() {
            vec![DealTarget::Others, DealTarget::Table, DealTarget::Dealer]
        } else {
            order
        }
    };
    let length = game_length(&mut r, t, errors);
    let dealers = [
        ("winner", NextDealer::Winner),
        ("same", NextDealer::Same),
        ("alternate", NextDealer::Alternate),
    ];
    let first_dealer = choice(
        &mut r,
        "first_dealer",
        &[
            ("first", FirstDealer::First),
            ("random", FirstDealer::Random),
        ],
        errors,
    )
    .unwrap_or(FirstDealer::First);
    let next_dealer = choice(&mut r, "next_dealer", &dealers, errors).unwrap_or(NextDealer::Winner);
    let draw_dealer = choice(&mut r, "draw_dealer", &dealers, errors).unwrap_or(NextDealer::Same);
    let after_yaku = declared(sections, &["continue", "stop"]);
    // Whether a declaration's condition reads the other seats' calls or the game's scores
    // (the declaration scope's facts 7 on), worked out only then.
    let declarations_read_table = sections
        .declarations
        .iter()
        .any(|(d, _, _)| d.when.as_ref().is_some_and(|w| w.facts_read() >> 7 != 0));
    let after_deal = declared(sections, &["swap", "keep"]);
    // A choice must have a way out: `stop` always may be made, and a swap needs its `keep`.
    let unconditional = |effect: &str| {
        sections
            .declarations
            .iter()
            .any(|(d, ..)| d.effect == effect && d.when.is_none())
    };
    for (d, _, when) in sections.declarations {
        if matches!(d.effect.as_str(), "swap" | "keep")
            && let Some(at) = when
        {
            errors.push(
                Diagnostic::error(
                    format!("a `{}` declaration takes no `when`", d.effect),
                    at.clone(),
                )
                .with_help(Some(format!(
                    "a player can always `{}` here: the choice after the deal needs both ways out",
                    d.effect
                ))),
            );
        }
    }
    let conditioned = |effect: &str| {
        sections
            .declarations
            .iter()
            .any(|(d, ..)| d.effect == effect && d.when.is_some())
    };
    if !after_yaku.is_empty() && !unconditional("stop") && !conditioned("stop") {
        errors.push(
            Diagnostic::error(
                "the declarations after a yaku need a `stop` without a `when`",
                loc.clone(),
            )
            .with_help(Some(
                "add a `[[declaration]]` with `effect = \"stop\"`, so that a player can always stop"
                    .into(),
            )),
        );
    }
    let swap_complete = unconditional("keep") && unconditional("swap");
    if !after_deal.is_empty() && !swap_complete && !conditioned("swap") && !conditioned("keep") {
        errors.push(
            Diagnostic::error(
                "the declarations after the deal need a `swap` and a `keep`, neither with a `when`",
                loc.clone(),
            )
            .with_help(Some(
                "the seat after the dealer chooses between taking the dealer's hand (`swap`) and keeping its own (`keep`)".into(),
            )),
        );
    }
    let wild = r
        .string("wild", errors)
        .and_then(|s| {
            let p = compile_expr(&s, Type::Set, names, errors)?;
            Some(p.set(&expr::Context {
                pile: CardSet::EMPTY,
                facts: &[],
            }))
        })
        .unwrap_or(CardSet::EMPTY);
    // Where a wild card is wild: played from the hand only, or drawn from the stock too.
    let wild_from = choice(
        &mut r,
        "wild_from",
        &[("anywhere", true), ("hand", false)],
        errors,
    );
    if let (Some(_), true) = (wild_from, wild.is_empty()) {
        r.missing("wild", errors);
    }
    let wild_drawn = if wild_from.unwrap_or(true) {
        wild
    } else {
        CardSet::EMPTY
    };
    let exhausted = choice(
        &mut r,
        "exhausted",
        &[("draw", 0), ("dealer_scores", 1), ("settle", 2)],
        errors,
    );
    let exhausted_points = r.int("exhausted_points", errors);
    let exhausted = match (exhausted, exhausted_points) {
        // Without a script, each seat scores its own yaku, turn events and tally awards.
        (Some(2), None) => Exhausted::Settle,
        (Some(1), Some((p, _))) => Exhausted::DealerScores(p),
        (Some(1), None) => {
            r.missing("exhausted_points", errors);
            Exhausted::Draw
        }
        (_, Some((_, l))) => {
            errors.push(
                Diagnostic::error(
                    "`exhausted_points` needs `exhausted = \"dealer_scores\"`",
                    l.clone(),
                )
                .with_help(Some(
                    "add `exhausted = \"dealer_scores\"` to [flow], or remove `exhausted_points`"
                        .into(),
                )),
            );
            Exhausted::Draw
        }
        _ => Exhausted::Draw,
    };
    let both_instant = choice(
        &mut r,
        "both_instant",
        &[
            ("draw", BothInstant::Draw),
            ("dealer", BothInstant::Dealer),
            ("play", BothInstant::Play),
        ],
        errors,
    )
    .unwrap_or(BothInstant::Draw);
    let table_facts: Vec<&str> = scope::TABLE
        .iter()
        .copied()
        .chain(vocab.carried.iter().map(String::as_str))
        .collect();
    let table_scope = vocab.names(&table_facts);
    let table_count_source = r.string("table_count", errors);
    let table_count = table_count_source
        .as_ref()
        .and_then(|s| compile_expr(s, Type::Int, &table_scope, errors));
    let table_multiplies = match r.boolean("table_multiplies", errors) {
        Some((true, at)) if table_count.is_none() && table_count_source.is_none() => {
            errors.push(
                Diagnostic::error(
                    "`table_multiplies` needs `table_count`, the count that multiplies",
                    at.clone(),
                )
                .with_help(Some(
                    "add `table_count = \"...\"` to [flow], or remove `table_multiplies`".into(),
                )),
            );
            false
        }
        Some((b, _)) => b,
        None => false,
    };
    let yaku_paid_by_others = choice(
        &mut r,
        "yaku_paid_by",
        &[("none", false), ("others", true)],
        errors,
    )
    .unwrap_or(false);
    let (mut instant_wins, mut win_locs) = deal_checks(
        r.tables("instant_win", errors),
        "an `[[flow.instant_win]]`",
        true,
        false,
        &vocab.names(scope::INSTANT_WIN),
        errors,
    );
    // The instant win with the most points is the one a hand holds; among equal points, the
    // first listed (a base's entries before a house rule's new ones).
    let mut order: Vec<usize> = (0..instant_wins.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(instant_wins[i].points));
    instant_wins = order.iter().map(|&i| instant_wins[i].clone()).collect();
    win_locs = order.iter().map(|&i| win_locs[i].clone()).collect();
    never_decides(
        &instant_wins,
        &win_locs,
        deck,
        hand_size as usize,
        &[1, 12, 0],
        "instant win",
        errors,
    );
    // Those played on (`ends = false`) are scored at the hand's end: a list of their own.
    let dealt_yaku: Vec<DealCheck> = instant_wins.iter().filter(|w| !w.ends).cloned().collect();
    instant_wins.retain(|w| w.ends);
    let (redeals, redeal_locs) = deal_checks(
        r.tables("redeal", errors),
        "a `[[flow.redeal]]`",
        false,
        true,
        &table_scope,
        errors,
    );
    never_decides(
        &redeals,
        &redeal_locs,
        deck,
        table_size as usize,
        &[1, 12],
        "redeal",
        errors,
    );
    // A redeal that holds on any deal would redeal every hand until the game gives up.
    for (check, loc) in redeals.iter().zip(&redeal_locs) {
        let size = match check.on {
            DealOn::Hands => hand_size as usize,
            DealOn::Table | DealOn::Any => table_size as usize,
        };
        if crate::ruleset::reach::holds_on_random_piles(&check.when, deck, size, &[1, 12], 200) {
            errors.push(
                Diagnostic::warning(
                    format!("redeal `{}` holds on every deal tried", check.id),
                    loc.clone(),
                )
                .with_help(Some(
                    "it held on 200 random deals: every hand would be dealt again and again, \
                     and a hand redealt 100 times stops the game with an error"
                        .into(),
                )),
            );
        }
    }
    let constant_set = |s: &Str, errors: &mut Vec<Diagnostic>| {
        let p = compile_expr(s, Type::Set, names, errors)?;
        Some(p.set(&expr::Context {
            pile: CardSet::EMPTY,
            facts: &[],
        }))
    };
    let bonus = r
        .string("bonus", errors)
        .and_then(|s| constant_set(&s, errors))
        .unwrap_or(CardSet::EMPTY);
    let stacks = r.boolean("stacks", errors).is_some_and(|(b, _)| b);
    let run_capture = r.string("run_capture", errors).and_then(|by| {
        let found = deck.attributes.iter().find(|a| a.id == by.text);
        if found.is_none() {
            let names: Vec<&str> = deck.attributes.iter().map(|a| a.id.as_str()).collect();
            errors.push(
                Diagnostic::error(
                    format!("unknown card attribute `{}` for `run_capture`", by.text),
                    by.loc.clone(),
                )
                .with_help(did_you_mean(by.text, names.iter().copied()).or_else(
                    || {
                        Some(if names.is_empty() {
                            "the deck has no attributes".to_string()
                        } else {
                            format!("`run_capture` takes {}", names.join(", "))
                        })
                    },
                )),
            );
        }
        found.map(|a| a.values.clone().into_boxed_slice())
    });
    let give: Vec<CardSet> = r
        .strings("give", errors)
        .iter()
        .filter_map(|s| constant_set(s, errors))
        .collect();
    let turn_events = turn_events(r.tables("turn_event", errors), vocab, errors);
    let deal_bonuses = deal_bonus::deal_bonuses(
        r.tables("deal_bonus", errors),
        &table_scope,
        deck,
        &turn_events,
        errors,
    );
    let checks_every_deal = choice(
        &mut r,
        "deal_checks",
        &[("first", false), ("every", true)],
        errors,
    )
    .unwrap_or(false);
    let turn_events_best = choice(
        &mut r,
        "turn_events_combine",
        &[("all", false), ("best", true)],
        errors,
    )
    .unwrap_or(false);
    let watches_laid = turn_events
        .iter()
        .any(|e| e.on == TurnPattern::LastLaidTaken);
    if let Some(e) = turn_events.iter().find(|e| e.take > 0)
        && give.is_empty()
    {
        errors.push(
            Diagnostic::error(
                format!(
                    "turn event `{}` takes cards, but `[flow]` has no `give`",
                    e.id
                ),
                loc.clone(),
            )
            .with_help(Some(
                "add `give = [\"...\"]`: the sets other players hand over from, in order".into(),
            )),
        );
    }
    let before_play = declared(sections, &["reveal", "play_suit"]);
    let choices = declared(sections, &["count_as"]);
    let stake = r.int("stake", errors).and_then(|(n, at)| {
        if (1..=MAX_BANKROLL).contains(&n) {
            return Some(n);
        }
        errors.push(
            Diagnostic::error(
                format!("`stake` must be between 1 and {MAX_BANKROLL}, found {n}"),
                at.clone(),
            )
            .with_help(Some(
                "each seat starts with this many points and pays the winners from it".into(),
            )),
        );
        None
    });
    let drop_out = r
        .table("drop_out", errors)
        .and_then(|(t, l)| drop_out(t, l, sections, (min_players, max_players), errors));
    if drop_out.is_none() {
        for (d, at, _) in sections.declarations {
            if matches!(d.effect.as_str(), "play" | "drop") {
                errors.push(
                    Diagnostic::error(
                        format!("a `{}` declaration needs `[flow.drop_out]`", d.effect),
                        at.clone(),
                    )
                    .with_help(Some(
                        "add `[flow.drop_out]` with `players`, the seats that play each hand"
                            .into(),
                    )),
                );
            }
        }
    }
    if drop_out.is_some() && teams.any() {
        errors.push(Diagnostic::error(
            "`[flow.drop_out]` and `teams` do not go together: a partnership cannot sit out a hand",
            loc.clone(),
        ));
    }
    let captures = capture_rules(r.tables("capture", errors), deck, errors);
    let capture_choice = choice(
        &mut r,
        "capture_choice",
        &[
            ("player", CaptureChoice::Player),
            ("most_cards", CaptureChoice::MostCards),
        ],
        errors,
    )
    .unwrap_or(CaptureChoice::Player);
    let capture_groups = needs_rules(
        &mut r,
        "capture_groups",
        &[
            ("one", CaptureGroups::One),
            ("maximal", CaptureGroups::Maximal),
            ("any", CaptureGroups::Any),
        ],
        captures.is_empty(),
        errors,
    );
    let must_capture = needs_rules(
        &mut r,
        "must_capture",
        &[
            ("always", MustCapture::Always),
            ("equal", MustCapture::Equal),
            ("never", MustCapture::Never),
        ],
        captures.is_empty(),
        errors,
    );
    let build = r
        .table("build", errors)
        .and_then(|(t, l)| build_rule(t, l, deck, &captures, errors));
    let draws = r.boolean("draw", errors).is_none_or(|(b, _)| b);
    let refill = r.boolean("refill", errors).is_some_and(|(b, _)| b);
    if refill && drop_out.is_some() {
        errors.push(Diagnostic::error(
            "`refill` and `[flow.drop_out]` do not go together: hands dealt again would reach the seats sitting out",
            loc.clone(),
        ));
    }
    if checks_every_deal && !refill {
        let at = t.get("deal_checks").map_or(loc, |i| &i.loc);
        errors.push(
            Diagnostic::error(
                "`deal_checks = \"every\"` needs `refill = true`: without it a hand has one deal",
                at.clone(),
            )
            .with_help(Some("add `refill = true`, or remove `deal_checks`".into())),
        );
    }
    let first_player = choice(
        &mut r,
        "first_player",
        &[
            ("dealer", FirstPlayer::Dealer),
            ("after_dealer", FirstPlayer::AfterDealer),
        ],
        errors,
    )
    .unwrap_or(FirstPlayer::Dealer);
    let leftover = choice(
        &mut r,
        "leftover",
        &[
            ("stay", Leftover::Stay),
            ("last_capturer", Leftover::LastCapturer),
        ],
        errors,
    )
    .unwrap_or(Leftover::Stay);
    let leftover_rules =
        leftovers::leftover_rules(r.tables("leftover_to", errors), deck, names, errors);
    let target_ties_play_on = choice(
        &mut r,
        "target_tie",
        &[("end", false), ("play_on", true)],
        errors,
    )
    .unwrap_or(false);
    let count_at_once = count_at_once(&mut r, &length, exhausted, sections, errors);
    r.finish(errors);
    let deals_fit = (min_players..=max_players).all(|n| {
        let (hand, table) = deal_sizes
            .iter()
            .find(|d| d.players == n)
            .map_or((hand_size, table_size), |d| (d.hand_size, d.table_size));
        let what = if min_players == max_players {
            "the deal".to_string()
        } else {
            format!("the deal for {n} players")
        };
        deck_holds(deck, n * hand + table, &what, loc, errors)
    });
    if !deals_fit {
        return None;
    }
    let plain_plays = before_play.is_empty() && build.is_none();
    let after_turn = count_at_once || !turn_events.is_empty();
    let mut flow = MatchingFlow {
        players,
        min_players,
        max_players,
        hand_size,
        table_size,
        deal_packet,
        deal_order,
        deal_plans: Box::new([]),
        length: length?,
        first_dealer,
        next_dealer,
        draw_dealer,
        after_yaku,
        declarations_read_table,
        after_deal,
        drop_out,
        any_wild: !wild.is_empty(),
        wild,
        wild_drawn,
        exhausted,
        instant_wins,
        both_instant,
        redeals,
        deal_bonuses,
        checks_every_deal,
        table_count,
        table_count_source: table_count_source.map(|s| s.text.to_string()),
        table_multiplies,
        yaku_paid_by_others,
        bonus,
        stacks,
        run_capture,
        give,
        turn_events,
        turn_events_best,
        watches_laid,
        before_play,
        choices,
        stake,
        teams,
        deal_sizes,
        capture_choice,
        capture_groups,
        must_capture,
        build,
        draws,
        refill,
        first_player,
        leftover,
        leftover_rules,
        target_ties_play_on,
        count_at_once,
        after_turn,
        // A declaration that blocks a suit is checked in the other turn only.
        classic_turn: captures.is_empty()
            && draws
            && !refill
            && leftover == Leftover::Stay
            && !sections.declarations.iter().any(|(d, ..)| d.blocks),
        plain_plays,
        dealt_yaku,
        captures,
    };
    flow.deal_plans = (0..=max_players as usize)
        .map(|n| {
            if n < min_players as usize {
                Box::default()
            } else {
                flow.plan_deal(n).into_boxed_slice()
            }
        })
        .collect();
    Some(Flow::Matching(std::sync::Arc::new(flow)))
}

/// `count_at_once = true` (counting out): points count when they are made, so it needs a
/// score that ends the game and a hand settled seat by seat without a script (the points made
/// so far are then each side's yaku, turn events and the tallies already won).
fn count_at_once(
    r: &mut TableReader,
    length: &Option<GameLength>,
    exhausted: Exhausted,
    sections: &Sections,
    errors: &mut Vec<Diagnostic>,
) -> bool {
    let Some((true, at)) = r.boolean("count_at_once", errors) else {
        return false;
    };
    let why = if matches!(length, Some(GameLength::Rounds(_))) {
        Some((
            "`count_at_once` needs a game to a target score",
            "add `target_score = ...` to [flow]: the score that ends the game at once",
        ))
    } else if exhausted != Exhausted::Settle || sections.scoring.is_some() {
        Some((
            "`count_at_once` needs a hand settled seat by seat without a scoring script",
            "set `exhausted = \"settle\"` in [flow] and remove `[scoring]`: the points made so far are each side's yaku, turn events and tallies already won",
        ))
    } else {
        None
    };
    if let Some((message, help)) = why {
        errors.push(Diagnostic::error(message, at.clone()).with_help(Some(help.into())));
        return false;
    }
    true
}

/// `[flow.drop_out]`: `players` fewer than the largest table and at least the smallest, one
/// `play` declaration (which takes no `when`: a seat may always play) and one `drop`.
pub(super) fn drop_out(
    t: &Table,
    loc: &Loc,
    sections: &Sections,
    (min_players, max_players): (u32, u32),
    errors: &mut Vec<Diagnostic>,
) -> Option<DropOut> {
    let mut r = TableReader::new(t, loc.clone(), "`[flow.drop_out]`").defined_by(&keys::DROP_OUT);
    let players = r.int("players", errors);
    let after_dealer = choice(
        &mut r,
        "first",
        &[("dealer", false), ("after_dealer", true)],
        errors,
    )
    .unwrap_or(false);
    let pays = match r.int("pays", errors) {
        Some((n, _)) if n.abs() <= MAX_BANKROLL => n,
        Some((n, at)) => {
            errors.push(Diagnostic::error(
                format!("`pays` must be between -{MAX_BANKROLL} and {MAX_BANKROLL}, found {n}"),
                at.clone(),
            ));
            0
        }
        None => 0,
    };
    r.finish(errors);
    let players = match players {
        Some((n, at)) if n < i64::from(min_players) || n >= i64::from(max_players) => {
            errors.push(
                Diagnostic::error(
                    format!(
                        "`players` must be at least `min_players` ({min_players}) and fewer than `max_players` ({max_players}), found {n}"
                    ),
                    at.clone(),
                )
                .with_help(Some(
                    "the seats that play each hand: the others at a larger table drop out".into(),
                )),
            );
            return None;
        }
        Some((n, _)) => n as u32,
        None => {
            errors.push(Diagnostic::error(
                "`[flow.drop_out]` needs `players`, the seats that play each hand",
                loc.clone(),
            ));
            return None;
        }
    };
    let one = |effect: &str, errors: &mut Vec<Diagnostic>| {
        let found = declared(sections, &[effect]);
        match found[..] {
            [d] => Some(d),
            _ => {
                errors.push(
                    Diagnostic::error(
                        format!(
                            "`[flow.drop_out]` needs one `{effect}` declaration, found {}",
                            found.len()
                        ),
                        loc.clone(),
                    )
                    .with_help(Some(format!(
                        "add a [[declaration]] with `effect = \"{effect}\"`"
                    ))),
                );
                None
            }
        }
    };
    let play = one("play", errors);
    let drop = one("drop", errors);
    for (d, _, when) in sections.declarations {
        if d.effect == "play"
            && let Some(at) = when
        {
            errors.push(
                Diagnostic::error("a `play` declaration takes no `when`", at.clone()).with_help(
                    Some("a seat may always play; say who may not drop in the `drop` declaration's `when`".into()),
                ),
            );
        }
    }
    Some(DropOut {
        players,
        after_dealer,
        pays,
        play: play?,
        drop: drop?,
    })
}

/// `[[flow.capture]]`: how a card captures, in precedence order: `kind` (`equal`: one table card
/// equal in `by`; `sum`: a set whose `by` values add up to `total`, an expression of the played
/// card's value `played`), `by` (`suit` or a deck attribute), `min_cards`, `fallback`.
pub(super) fn capture_rules(
    tables: Vec<(&Table, &Loc)>,
    deck: &Deck,
    errors: &mut Vec<Diagnostic>,
) -> Vec<CaptureRule> {
    let mut out = Vec::new();
    for (t, loc) in tables {
        let mut r =
            TableReader::new(t, loc.clone(), "a `[[flow.capture]]`").defined_by(&keys::CAPTURE);
        let kind = choice(
            &mut r,
            "kind",
            &[("equal", CaptureKind::Equal), ("sum", CaptureKind::Sum)],
            errors,
        );
        if t.get("kind").is_none() {
            r.missing("kind", errors);
        }
        let by = r.string("by", errors);
        let total = r.string("total", errors);
        let min_cards = r.int("min_cards", errors);
        let fallback = r.boolean("fallback", errors).is_some_and(|(b, _)| b);
        r.finish(errors);
        let Some(kind) = kind else { continue };
        let by_name = by.as_ref().map_or("suit", |b| b.text);
        let values: Box<[i64]> = if by_name == "suit" {
            deck.cards.iter().map(|c| c.suit as i64).collect()
        } else if let Some(a) = deck.attributes.iter().find(|a| a.id == by_name) {
            a.values.clone().into_boxed_slice()
        } else {
            let names: Vec<&str> = std::iter::once("suit")
                .chain(deck.attributes.iter().map(|a| a.id.as_str()))
                .collect();
            let at = by.as_ref().map_or_else(|| loc.clone(), |b| b.loc.clone());
            errors.push(
                Diagnostic::error(format!("unknown card attribute `{by_name}` for `by`"), at)
                    .with_help(
                        did_you_mean(by_name, names.iter().copied())
                            .or_else(|| Some(format!("`by` takes {}", names.join(", ")))),
                    ),
            );
            continue;
        };
        let min_cards = match (min_cards, kind) {
            (Some((n, _)), CaptureKind::Sum) if (1..=16).contains(&n) => n as u32,
            (Some((n, l)), CaptureKind::Sum) => {
                errors.push(Diagnostic::error(
                    format!("`min_cards` must be between 1 and 16, found {n}"),
                    l.clone(),
                ));
                0
            }
            (Some((_, l)), CaptureKind::Equal) => {
                errors.push(Diagnostic::error(
                    "`min_cards` is for a `sum` capture (an `equal` capture takes one card)",
                    l.clone(),
                ));
                0
            }
            (None, CaptureKind::Sum) => 2,
            (None, CaptureKind::Equal) => 1,
        };
        let equals = values
            .iter()
            .map(|v| {
                values
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| *w == v)
                    .map(|(i, _)| crate::deck::CardId(i as u8))
                    .collect()
            })
            .collect();
        let (total_program, total_source) = match (&total, kind) {
            (Some(t), CaptureKind::Sum) => {
                let names = Names {
                    deck,
                    facts: CAPTURE_FACTS,
                    defs: &[],
                    macros: &[],
                    carried: &[],
                };
                match compile_expr(t, Type::Int, &names, errors) {
                    Some(p) => (Some(p), Some(t.text.to_string())),
                    None => continue,
                }
            }
            (Some(t), CaptureKind::Equal) => {
                errors.push(
                    Diagnostic::error("`total` is for a `sum` capture", t.loc.clone()).with_help(
                        Some("an `equal` capture takes one table card equal to the played card; remove `total`".into()),
                    ),
                );
                continue;
            }
            (None, _) => (None, None),
        };
        if min_cards == 0 {
            continue;
        }
        out.push(CaptureRule {
            kind,
            by: by_name.to_string(),
            values,
            equals,
            total: total_program,
            total_source,
            min_cards,
            fallback,
        });
    }
    out
}

/// A `[flow]` choice about captures under the rules (`must_capture`, `capture_groups`): its
/// first value, the default, unless it says otherwise; any other needs `[[flow.capture]]` rules
/// (the Koi-Koi capture by suit is always made, one card at a time).
fn needs_rules<T: Copy + PartialEq>(
    r: &mut TableReader,
    key: &str,
    options: &[(&str, T)],
    no_rules: bool,
    errors: &mut Vec<Diagnostic>,
) -> T {
    let default = options[0].1;
    let at = r.item(key).map(|i| i.loc.clone());
    let value = choice(r, key, options, errors).unwrap_or(default);
    if let (true, false, Some(at)) = (no_rules, value == default, at) {
        errors.push(
            Diagnostic::error(
                format!("`{key}` needs `[[flow.capture]]`: without capture rules a card always takes its match"),
                at,
            )
            .with_help(Some(format!(
                "add the `[[flow.capture]]` rules the game captures by, or remove `{key}`"
            ))),
        );
        return default;
    }
    value
}

/// `[flow.build]`: `by` (a deck attribute, by default that of the first `sum` capture rule),
/// `most`, `raise`, `multiple`, `owner_trails`. Needs `[[flow.capture]]` rules (a build is
/// taken by a card of its value under them).
fn build_rule(
    t: &Table,
    loc: &Loc,
    deck: &Deck,
    captures: &[CaptureRule],
    errors: &mut Vec<Diagnostic>,
) -> Option<BuildRule> {
    let mut r = TableReader::new(t, loc.clone(), "`[flow.build]`").defined_by(&keys::BUILD);
    let by = r.string("by", errors);
    let most = r.int("most", errors);
    let raise = choice(
        &mut r,
        "raise",
        &[
            ("any", BuildRaise::Any),
            ("others", BuildRaise::Others),
            ("never", BuildRaise::Never),
        ],
        errors,
    )
    .unwrap_or(BuildRaise::Any);
    let multiple = r.boolean("multiple", errors).is_none_or(|(b, _)| b);
    let owner_trails = r.boolean("owner_trails", errors).is_some_and(|(b, _)| b);
    r.finish(errors);
    if captures.is_empty() {
        errors.push(
            Diagnostic::error(
                "`[flow.build]` needs `[[flow.capture]]`: a build is taken by a card of its value under the capture rules",
                loc.clone(),
            )
            .with_help(Some("add the `[[flow.capture]]` rules the game captures by".into())),
        );
        return None;
    }
    let by_name = by.as_ref().map_or_else(
        || {
            captures
                .iter()
                .find(|c| c.kind == CaptureKind::Sum)
                .map_or("value", |c| c.by.as_str())
        },
        |b| b.text,
    );
    let Some(a) = deck.attributes.iter().find(|a| a.id == by_name) else {
        let names: Vec<&str> = deck.attributes.iter().map(|a| a.id.as_str()).collect();
        let at = by.as_ref().map_or_else(|| loc.clone(), |b| b.loc.clone());
        errors.push(
            Diagnostic::error(format!("unknown card attribute `{by_name}` for `by`"), at)
                .with_help(
                    did_you_mean(by_name, names.iter().copied())
                        .or_else(|| Some(format!("`by` takes {}", names.join(", ")))),
                ),
        );
        return None;
    };
    let values: Box<[i64]> = a.values.clone().into_boxed_slice();
    let highest = values.iter().copied().max().unwrap_or(0);
    let most = match most {
        Some((n, _)) if (1..=highest.max(1)).contains(&n) => n,
        Some((n, l)) => {
            errors.push(Diagnostic::error(
                format!("`most` must be between 1 and {}, the highest `{by_name}` of the deck, found {n}", highest.max(1)),
                l.clone(),
            ));
            return None;
        }
        None => highest,
    };
    Some(BuildRule {
        by: by_name.to_string(),
        values,
        most,
        raise,
        multiple,
        owner_trails,
    })
}

/// The facts of a sum capture's `total`: the played card's value.
pub(super) const CAPTURE_FACTS: &[&str] = &["played"];

/// `[[flow.turn_event]]`: id, name, the pattern `on`, cards to `take` from each other player,
/// an optional `when` (scope [`scope::TURN_EVENT`]) and points that `wins` the hand at once.
pub(super) fn turn_events(
    tables: Vec<(&Table, &Loc)>,
    vocab: &Vocab,
    errors: &mut Vec<Diagnostic>,
) -> Vec<TurnEvent> {
    let names = vocab.names(scope::TURN_EVENT);
    let mut out = Vec::new();
    for (t, loc) in tables {
        let mut r = TableReader::new(t, loc.clone(), "a `[[flow.turn_event]]`")
            .defined_by(&keys::TURN_EVENT);
        let id = r.required_string("id", errors);
        let name = r.string("name", errors);
        let on = choice(&mut r, "on", &TurnPattern::ALL, errors);
        if t.get("on").is_none() {
            r.missing("on", errors);
        }
        let take = r.int("take", errors).map_or(0, |(n, l)| {
            if (0..=10).contains(&n) {
                n as u32
            } else {
                errors.push(Diagnostic::error(
                    format!("`take` must be between 0 and 10, found {n}"),
                    l.clone(),
                ));
                0
            }
        });
        let wins = r.int("wins", errors).and_then(|(n, l)| {
            if n >= 0 {
                Some(n)
            } else {
                errors.push(Diagnostic::error(
                    format!("`wins` must not be negative, found {n}"),
                    l.clone(),
                ));
                None
            }
        });
        let points = r
            .int("points", errors)
            .and_then(|(n, l)| bounded(n, l, "points", errors))
            .unwrap_or(0);
        let when = r.string("when", errors);
        r.finish(errors);
        let Ok((when_source, compiled)) = condition(when.as_ref(), &names, errors) else {
            continue;
        };
        let (Some(id), Some(on)) = (id, on) else {
            continue;
        };
        out.push(TurnEvent {
            id: id.text.to_string(),
            name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
            on,
            take,
            when: compiled,
            when_source,
            wins,
            points,
        });
    }
    out
}

/// Warns about deal checks (tried in order, the first that holds decides) that never decide:
/// written like an earlier one, or holding only on deals where an earlier one holds too.
pub(super) fn never_decides(
    checks: &[DealCheck],
    locs: &[Loc],
    deck: &Deck,
    size: usize,
    facts: &[i64],
    noun: &str,
    errors: &mut Vec<Diagnostic>,
) {
    let list: Vec<(&Program, &str)> = checks
        .iter()
        .map(|c| (&c.when, c.when_source.as_str()))
        .collect();
    // Checks that read different piles (a redeal on the table, one on the hands) do not
    // cover each other; only those read on piles of `size` cards are judged.
    let judged = |c: &DealCheck| noun != "redeal" || c.on == DealOn::Table;
    for (i, j, tried) in crate::ruleset::reach::shadowed(&list, deck, size, facts)
        .into_iter()
        .filter(|&(i, j, _)| judged(&checks[i]) && checks[i].on == checks[j].on)
    {
        let (this, earlier) = (&checks[i], &checks[j]);
        let why = if tried == 0 {
            format!("`{}` has the same condition", earlier.id)
        } else {
            format!(
                "every deal tried that holds it ({tried}) holds `{}` too",
                earlier.id
            )
        };
        let chosen = match noun {
            "instant win" if earlier.points > this.points => format!(
                ", which is chosen for its {} points (the instant win with the most points is chosen)",
                earlier.points
            ),
            "instant win" => ", which is chosen: it is listed first at the same points".to_string(),
            _ => ", and any redeal that holds redeals".to_string(),
        };
        errors.push(
            Diagnostic::warning(
                format!("{noun} `{}` never decides a deal", this.id),
                locs[i].clone(),
            )
            .with_help(Some(format!("{why}{chosen}"))),
        );
    }
}
