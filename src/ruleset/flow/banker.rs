//! The banker family's `[flow]` (`style = "banker"`): seats, the deal, hand values and the
//! seat rules; the table-hand keys (card values, the shoe, drawing rules, bets) are read in
//! `table`.

mod arrange;
mod play;
mod table;

use super::*;
use crate::diag::{Diagnostic, Loc};
use crate::expr::Type;
use crate::ruleset::model::*;
use crate::ruleset::reader::TableReader;
use crate::ruleset::toml_tree::Table;
use crate::ruleset::vocab::*;

/// `[flow]` of a banker game (`style = "banker"`).
pub(super) fn flow(
    mut r: TableReader,
    t: &Table,
    loc: &Loc,
    vocab: &Vocab,
    sections: &Sections,
    errors: &mut Vec<Diagnostic>,
) -> Option<Flow> {
    let names = &vocab.names(scope::TILES);
    family_declarations(sections, "banker", keys::BANKER_EFFECTS, errors);
    // Hands played by actions read more facts: the drawing rules too.
    let plays = t.get("play").is_some();
    let showdown_scope = if plays { scope::PLAY } else { scope::SHOWDOWN };
    sections.no_melds("banker", errors);
    // A banker game compares hand values: yaku and a scoring script would never be used.
    for (loc, what) in [
        (&sections.yaku, "`[[yaku]]`"),
        (&sections.scoring, "`[scoring]`"),
    ] {
        if let Some(loc) = loc {
            errors.push(
                Diagnostic::error(format!("a banker game does not use {what}"), loc.clone())
                    .with_help(Some(
                        "a banker game's hands are compared by `[flow] value`; remove this section"
                            .into(),
                    )),
            );
        }
    }
    let max_players = positive(&mut r, "max_players", 5, errors);
    let players = positive(&mut r, "players", 1, errors);
    let first_tiles = positive(&mut r, "first_tiles", 1, errors);
    let banker_tiles = positive(&mut r, "banker_tiles", 2, errors);
    let hands = positive(&mut r, "hands", 20, errors);
    let draw_options = match int_list(&mut r, "draw_options", 0..=8, errors) {
        Ok(list) => list.unwrap_or_else(|| vec![1]),
        Err(()) => Vec::new(),
    };
    // Bounded like `--min-bet` and `--max-bet`: a bankroll of 10^10 with no table limit made
    // every bet decision list 10^10 amounts.
    let chips = |r: &mut TableReader, key: &str, most: i64, errors: &mut Vec<Diagnostic>| match r
        .int(key, errors)
    {
        Some((n, _)) if (1..=most).contains(&n) => Some(n),
        Some((n, l)) => {
            errors.push(
                Diagnostic::error(format!("`{key}` must be from 1 to {most}, found {n}"), l.clone())
                    .with_help(Some(format!(
                        "bets are at most {MAX_BET} chips (as with `--max-bet`), bankrolls at most {MAX_BANKROLL}"
                    ))),
            );
            None
        }
        None => None,
    };
    let min_bet = chips(&mut r, "min_bet", MAX_BET, errors).unwrap_or(1);
    let max_bet = chips(&mut r, "max_bet", MAX_BET, errors).unwrap_or(10);
    let bankroll = chips(&mut r, "bankroll", MAX_BANKROLL, errors).unwrap_or(100);
    let banker_bankroll = chips(&mut r, "banker_bankroll", MAX_BANKROLL, errors);
    let table_limit = chips(&mut r, "table_limit", MAX_BANKROLL, errors);
    let value_text = r.string("value", errors);
    let value = match value_text {
        Some(s) => compile_expr(&s, Type::Int, &vocab.names(scope::HAND), errors),
        None => {
            r.missing("value", errors);
            None
        }
    };
    let (banker_wins, _) = deal_checks(
        r.tables("banker_win", errors),
        "a `[[flow.banker_win]]`",
        false,
        false,
        names,
        errors,
    );
    let table = table::table_rules(
        &mut r,
        names.deck,
        names,
        &vocab.names(showdown_scope),
        plays,
        loc,
        errors,
    );
    // A share of the wins of hands per seat the house keeps (Pai Gow's 5%).
    let commission = table::ratio(&mut r, "commission", (0, 1), loc, errors);
    let banker_commission = table::ratio(&mut r, "banker_commission", (0, 1), loc, errors);
    for (key, (n, d)) in [
        ("commission", commission),
        ("banker_commission", banker_commission),
    ] {
        if n > d {
            errors.push(Diagnostic::error(
                format!("`{key}` must be at most the whole win"),
                t.get(key).map_or_else(|| loc.clone(), |i| i.loc.clone()),
            ));
        }
    }
    let arrange = arrange::arrange_rules(
        &mut r,
        (first_tiles, banker_tiles),
        &vocab.names(scope::HAND),
        errors,
    );
    let play = play::play_rules(&mut r, t, loc, sections, &vocab.names(scope::PLAY), errors);
    let soft_text = r.string("soft", errors);
    let soft = soft_text
        .as_ref()
        .and_then(|s| compile_expr(s, Type::Bool, &vocab.names(scope::HAND), errors));
    let seat_rules = table::seat_rules(
        &mut r,
        &vocab.names(scope::HAND),
        &vocab.names(scope::SHOWDOWN),
        errors,
    );
    let key_at = |key: &str| t.get(key).map_or_else(|| loc.clone(), |i| i.loc.clone());
    let conflicts = [
        (
            seat_rules.bank.is_some() && banker_bankroll.is_some(),
            "bank",
            "`[flow.bank]` makes the banker a seat, with the seat's chips: remove `banker_bankroll`",
        ),
        (
            seat_rules.bank.is_some() && table.table_hand,
            "bank",
            "a table hand is banked by the house: `[flow.bank]` needs a hand per seat",
        ),
        (
            play.is_some() && table.table_hand,
            "play",
            "hands played by actions are each seat's own: remove `table_hand`",
        ),
        (
            play.is_some() && seat_rules.pot.is_some(),
            "play",
            "a pot game's hands take no actions: remove `[flow.play]`",
        ),
        (
            play.is_some() && seat_rules.bank.is_some(),
            "play",
            "hands played by actions are banked by the house here: remove `[flow.bank]`",
        ),
        (
            play.is_some() && (t.get("player_draw").is_some() || t.get("draw_options").is_some()),
            "play",
            "hands played by actions draw by their actions: remove `[[flow.player_draw]]` and `draw_options`",
        ),
        (
            t.get("commission").is_some()
                && (table.table_hand || seat_rules.pot.is_some() || play.is_some()),
            "commission",
            "`commission` is taken from the wins of hands per seat against a banker: a table hand's bets take theirs in `[[flow.bet]]`; a pot game and hands played by actions have none",
        ),
        (
            t.get("banker_commission").is_some()
                && (seat_rules.bank.is_none() || seat_rules.pot.is_some()),
            "banker_commission",
            "`banker_commission` is taken from a banker seat's win: it needs `[flow.bank]` with hands per seat",
        ),
        (
            arrange.is_some() && (table.table_hand || seat_rules.pot.is_some() || play.is_some()),
            "arrange",
            "arranged hands are each seat's own, settled against the banker's: remove `table_hand`, `[flow.pot]` or `[flow.play]`",
        ),
        (
            arrange.is_some()
                && ["draw_options", "player_draw", "banker_draw"]
                    .iter()
                    .any(|k| t.get(k).is_some()),
            "arrange",
            "arranged hands take no more cards: remove `draw_options`, `[[flow.player_draw]]` and `[[flow.banker_draw]]`",
        ),
        (
            seat_rules.pot.is_some() && table.table_hand,
            "pot",
            "a pot game deals every seat a hand: remove `table_hand`",
        ),
        (
            seat_rules.pot.is_some() && banker_bankroll.is_some(),
            "pot",
            "a pot game has no banker: remove `banker_bankroll`",
        ),
        (
            !seat_rules.specials.is_empty() && seat_rules.ranks.is_empty(),
            "special",
            "special hands beat ranks: name them with `[[flow.hand_rank]]`",
        ),
        (
            seat_rules.pot.is_some() && players < 2,
            "pot",
            "a pot game needs at least 2 `players`",
        ),
        (
            seat_rules.bank.is_some() && players < 2,
            "bank",
            "a banker among the seats needs at least 2 `players`",
        ),
    ];
    for (_, key, message) in conflicts.iter().filter(|(c, _, _)| *c) {
        errors.push(Diagnostic::error(*message, key_at(key)));
    }
    // A pot game deals by `[flow.pot] rounds` and bets into the pot: the keys of the hands
    // played against a banker would be silently ignored.
    if seat_rules.pot.is_some() {
        for (key, why) in [
            ("first_tiles", "it deals by `[flow.pot] rounds`"),
            ("banker_tiles", "it has no banker's hand"),
            ("draw_options", "its hands take no more cards"),
            ("table_limit", "its bets are raises into the pot"),
            ("banker_win", "it has no banker's hand"),
            ("player_draw", "its hands take no more cards"),
            ("banker_draw", "it has no banker's hand"),
        ] {
            if t.get(key).is_some() {
                errors.push(
                    Diagnostic::error(
                        format!("a pot game does not use `{key}`: {why}"),
                        key_at(key),
                    )
                    .with_help(Some(format!("remove `{key}`"))),
                );
            }
        }
    }
    r.finish(errors);
    if min_bet > max_bet {
        errors.push(Diagnostic::error(
            format!("`min_bet` ({min_bet}) is larger than `max_bet` ({max_bet})"),
            loc.clone(),
        ));
    }
    if players > max_players {
        errors.push(Diagnostic::error(
            format!("`players` ({players}) is more than `max_players` ({max_players})"),
            loc.clone(),
        ));
    }
    if max_players as usize > MAX_SEATS {
        errors.push(Diagnostic::error(
            format!("`max_players` ({max_players}) is more than the {MAX_SEATS} seats a table has"),
            loc.clone(),
        ));
    }
    if draw_options.is_empty() && t.get("draw_options").is_some() {
        errors.push(Diagnostic::error(
            "`draw_options` needs at least one choice",
            loc.clone(),
        ));
    }
    let most_draw = if t.get("arrange").is_some() {
        0
    } else {
        draw_options.iter().copied().max().unwrap_or(0)
    };
    let needed = if play.is_some() {
        // A hand played by actions deals from the shoe, a new one when it runs out.
        0
    } else if table.table_hand {
        first_tiles + banker_tiles
    } else if let Some(pot) = &seat_rules.pot {
        max_players * pot.rounds.iter().sum::<u32>()
    } else {
        max_players * (first_tiles + most_draw) + banker_tiles
    };
    if table.shoe.is_none() && !deck_holds(names.deck, needed, "a full table", loc, errors) {
        return None;
    }
    Some(Flow::Banker(std::sync::Arc::new(BankerFlow {
        players,
        max_players,
        first_tiles,
        banker_tiles,
        draw_options,
        min_bet,
        max_bet,
        bankroll,
        banker_bankroll,
        table_limit,
        hands,
        banker_wins,
        value: value?,
        value_source: value_text.map_or_else(String::new, |s| s.text.trim().to_string()),
        card_points: table.card_points,
        card_value_source: table.card_value_source,
        table_hand: table.table_hand,
        shoe: table.shoe,
        player_draw: table.player_draw,
        banker_draw: table.banker_draw,
        bets: table.bets,
        hand_names: table.hand_names,
        bank: seat_rules.bank,
        ranks: seat_rules.ranks,
        specials: seat_rules.specials,
        pot: seat_rules.pot,
        soft,
        soft_source: soft_text.map(|s| s.text.trim().to_string()),
        play,
        commission,
        banker_commission,
        arrange,
    })))
}
