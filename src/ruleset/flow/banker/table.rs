//! The banker family's table-hand keys of `[flow]`: card values, the shoe, the drawing rules
//! and the bets (punto banco and its relatives).

use crate::deck::{CardSet, Deck};
use crate::diag::{Diagnostic, Loc};
use crate::expr::{Context, Names, Type};
use crate::ruleset::keys;
use crate::ruleset::model::{BetKind, DrawAction, DrawRule, MAX_CARD_VALUE, Shoe};
use crate::ruleset::reader::TableReader;
use crate::ruleset::toml_tree::Table;
use crate::ruleset::vocab::{choice, compile_expr, int_list};

/// What `[flow]` says about card values, the shoe, drawing and bets.
pub(super) struct TableRules {
    pub card_points: Vec<i64>,
    pub card_value_source: Option<String>,
    pub table_hand: bool,
    pub shoe: Option<Shoe>,
    pub player_draw: Vec<DrawRule>,
    pub banker_draw: Vec<DrawRule>,
    pub bets: Vec<BetKind>,
    pub hand_names: Vec<(i64, String)>,
}

/// The most packs a shoe holds: 8 is the casinos' largest; 64 leaves room for house rules.
const MOST_PACKS: i64 = 64;

/// Reads the table-hand keys; `one_card` compiles `card_value` (the pile: one card, no facts),
/// `showdown` the drawing rules and bets.
pub(super) fn table_rules(
    r: &mut TableReader,
    deck: &Deck,
    one_card: &Names,
    showdown: &Names,
    plays: bool,
    loc: &Loc,
    errors: &mut Vec<Diagnostic>,
) -> TableRules {
    let card_value = r.string("card_value", errors);
    let card_value_source = card_value.as_ref().map(|s| s.text.trim().to_string());
    let card_points = match card_value {
        Some(s) => match compile_expr(&s, Type::Int, one_card, errors) {
            Some(p) => {
                let points: Vec<i64> = (0..deck.cards.len())
                    .map(|i| {
                        let pile = CardSet::single(crate::deck::CardId(i as u8));
                        p.int(&Context { pile, facts: &[] })
                    })
                    .collect();
                if let Some((i, v)) = points
                    .iter()
                    .enumerate()
                    .find(|(_, v)| v.abs() > MAX_CARD_VALUE)
                {
                    errors.push(Diagnostic::error(
                        format!(
                            "`card_value` gives `{}` {v}, beyond the {MAX_CARD_VALUE} a card may add either way",
                            deck.cards[i].id
                        ),
                        s.loc.clone(),
                    ));
                }
                points
            }
            None => Vec::new(),
        },
        None => vec![0; deck.cards.len()],
    };
    let table_hand = r.boolean("table_hand", errors).is_some_and(|(b, _)| b);
    let packs = match r.int("shoe_packs", errors) {
        Some((n, _)) if (1..=MOST_PACKS).contains(&n) => Some(n as u32),
        Some((n, l)) => {
            errors.push(Diagnostic::error(
                format!("`shoe_packs` must be from 1 to {MOST_PACKS}, found {n}"),
                l.clone(),
            ));
            None
        }
        None => None,
    };
    let cut = r.int("cut_card", errors);
    let shoe = match (packs, cut) {
        (Some(packs), cut) => {
            let size = i64::from(packs) * deck.cards.len() as i64;
            let cut = match cut {
                Some((n, _)) if (0..size).contains(&n) => n as u32,
                Some((n, l)) => {
                    errors.push(Diagnostic::error(
                        format!("`cut_card` must be from 0 to {}, the shoe's {size} cards less one, found {n}", size - 1),
                        l.clone(),
                    ));
                    0
                }
                None => 0,
            };
            Some(Shoe { packs, cut })
        }
        (None, Some((_, l))) => {
            errors.push(
                Diagnostic::error("`cut_card` needs a shoe", l.clone())
                    .with_help(Some("say how many packs it holds with `shoe_packs`".into())),
            );
            None
        }
        (None, None) => None,
    };
    let player_draw = draw_rules(r.tables("player_draw", errors), showdown, errors);
    let banker_draw = draw_rules(r.tables("banker_draw", errors), showdown, errors);
    let bets = bet_kinds(r.tables("bet", errors), showdown, errors);
    let mut hand_names = Vec::new();
    for (t, at) in r.tables("hand_name", errors) {
        let mut n = TableReader::new(t, at.clone(), "a hand's name").defined_by(&keys::HAND_NAME);
        let value = n.int("value", errors);
        let name = n.required_string("name", errors);
        if value.is_none() {
            n.missing("value", errors);
        }
        n.finish(errors);
        if let (Some((v, _)), Some(name)) = (value, name) {
            hand_names.push((v, name.text.to_string()));
        }
    }
    if !table_hand {
        let used = [
            (!bets.is_empty(), "`[[flow.bet]]`", "bet"),
            (
                shoe.is_some_and(|s| s.packs > 1) && !plays,
                "a shoe of several packs",
                "shoe_packs",
            ),
        ];
        for (_, what, key) in used.iter().filter(|(u, _, _)| *u) {
            let at = r.item(key).map_or_else(|| loc.clone(), |i| i.loc.clone());
            errors.push(
                Diagnostic::error(format!("{what} needs `table_hand = true`"), at)
                    .with_help(Some(
                        "bets and shoes of several packs are for one table hand (punto banco); with a hand per seat, each player bets on their own hand".into(),
                    )),
            );
        }
    }
    // A choice is made by a seat: not on the table's hand, nor on the banker's.
    let chooses = |rules: &[DrawRule]| rules.iter().any(|r| r.action == DrawAction::Choose);
    if chooses(&banker_draw) || (table_hand && chooses(&player_draw)) {
        let key = if chooses(&banker_draw) {
            "banker_draw"
        } else {
            "player_draw"
        };
        let at = r.item(key).map_or_else(|| loc.clone(), |i| i.loc.clone());
        errors.push(
            Diagnostic::error(
                format!("`action = \"choose\"` in `[[flow.{key}]]`: nobody chooses there"),
                at,
            )
            .with_help(Some(
                "a choice is a seat's, on its own hand (a hand per seat); the banker's hand and a table hand draw or stand by the rules".into(),
            )),
        );
    }
    if table_hand && bets.is_empty() {
        errors.push(
            Diagnostic::error("a table hand needs at least one `[[flow.bet]]`", loc.clone())
                .with_help(Some(
                    "the seats only bet on a table hand: say on what, for example `[[flow.bet]]` with `id = \"banker\"` and `wins = \"banker_total > player_total\"`".into(),
                )),
        );
    }
    TableRules {
        card_points,
        card_value_source,
        table_hand,
        shoe,
        player_draw,
        banker_draw,
        bets,
        hand_names,
    }
}

fn draw_rules(
    tables: Vec<(&Table, &Loc)>,
    names: &Names,
    errors: &mut Vec<Diagnostic>,
) -> Vec<DrawRule> {
    let mut out = Vec::new();
    for (t, loc) in tables {
        let mut r = TableReader::new(t, loc.clone(), "a drawing rule").defined_by(&keys::DRAW_RULE);
        let id = r.required_string("id", errors);
        let name = r.string("name", errors);
        let when = r.required_string("when", errors);
        let actions = [
            ("draw", DrawAction::Draw),
            ("stand", DrawAction::Stand),
            ("choose", DrawAction::Choose),
        ];
        let action = if t.get("action").is_some() {
            choice(&mut r, "action", &actions, errors)
        } else {
            Some(DrawAction::Draw)
        };
        r.finish(errors);
        let compiled = when
            .as_ref()
            .and_then(|w| compile_expr(w, Type::Bool, names, errors));
        if let (Some(id), Some(when), Some(compiled), Some(action)) = (id, when, compiled, action) {
            out.push(DrawRule {
                id: id.text.to_string(),
                name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
                when: compiled,
                when_source: when.text.trim().to_string(),
                action,
            });
        }
    }
    out
}

/// `[numerator, denominator]` with a positive denominator, or `default`.
pub(super) fn ratio(
    r: &mut TableReader,
    key: &str,
    default: (i64, i64),
    loc: &Loc,
    errors: &mut Vec<Diagnostic>,
) -> (i64, i64) {
    let at = r.item(key).map_or_else(|| loc.clone(), |i| i.loc.clone());
    match int_list(r, key, 0..=1_000_000, errors) {
        Ok(Some(v)) if v.len() == 2 && v[1] > 0 => (i64::from(v[0]), i64::from(v[1])),
        Ok(Some(_)) => {
            errors.push(
                Diagnostic::error(
                    format!("`{key}` must be [numerator, denominator] with a denominator above 0"),
                    at,
                )
                .with_help(Some("8 to 1 is `[8, 1]`, 5% is `[5, 100]`".into())),
            );
            default
        }
        _ => default,
    }
}

fn bet_kinds(
    tables: Vec<(&Table, &Loc)>,
    names: &Names,
    errors: &mut Vec<Diagnostic>,
) -> Vec<BetKind> {
    let mut out = Vec::new();
    for (t, loc) in tables {
        let mut r = TableReader::new(t, loc.clone(), "a bet").defined_by(&keys::BET);
        let id = r.required_string("id", errors);
        let name = r.string("name", errors);
        let wins = r.required_string("wins", errors);
        let pushes = r.string("pushes", errors);
        let pays = ratio(&mut r, "pays", (1, 1), loc, errors);
        let commission = ratio(&mut r, "commission", (0, 1), loc, errors);
        r.finish(errors);
        if commission.0 > commission.1 {
            let at = t
                .get("commission")
                .map_or_else(|| loc.clone(), |i| i.loc.clone());
            errors.push(Diagnostic::error(
                "`commission` must be at most the whole win",
                at,
            ));
        }
        let wins_program = wins
            .as_ref()
            .and_then(|w| compile_expr(w, Type::Bool, names, errors));
        let pushes_program = match &pushes {
            Some(p) => compile_expr(p, Type::Bool, names, errors).map(Some),
            None => Some(None),
        };
        if let (Some(id), Some(wins), Some(wins_program), Some(pushes_program)) =
            (id, wins, wins_program, pushes_program)
        {
            out.push(BetKind {
                id: id.text.to_string(),
                name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
                wins: wins_program,
                wins_source: wins.text.trim().to_string(),
                pushes: pushes_program,
                pushes_source: pushes.map(|p| p.text.trim().to_string()),
                pays,
                commission,
            });
        }
    }
    out
}

/// What `[flow]` says about the bank as a seat, ranks, special hands and the pot.
pub(super) struct SeatRules {
    pub bank: Option<crate::ruleset::model::Bank>,
    pub ranks: Vec<crate::ruleset::model::HandRank>,
    pub specials: Vec<crate::ruleset::model::SpecialHand>,
    pub pot: Option<crate::ruleset::model::Pot>,
}

/// Reads `[flow.bank]`, `[[flow.hand_rank]]`, `[[flow.special]]` and `[flow.pot]`; `hand` compiles
/// the ranks' expressions (as `value`), `showdown` the bank's `pass_when`.
pub(super) fn seat_rules(
    r: &mut TableReader,
    hand: &Names,
    showdown: &Names,
    errors: &mut Vec<Diagnostic>,
) -> SeatRules {
    use crate::ruleset::model::{
        Bank, FirstBanker, HandRank, Pot, SpecialHand, WinnerBy, WinnerTies,
    };
    let bank = r.table("bank", errors).map(|(t, at)| {
        let mut b = TableReader::new(t, at.clone(), "`[flow.bank]`").defined_by(&keys::BANK);
        let firsts = [
            ("first-seat", FirstBanker::FirstSeat),
            ("high-card", FirstBanker::HighCard),
            ("low-card", FirstBanker::LowCard),
        ];
        let first = if t.get("first").is_some() {
            choice(&mut b, "first", &firsts, errors).unwrap_or(FirstBanker::FirstSeat)
        } else {
            FirstBanker::FirstSeat
        };
        let pass_when = b.string("pass_when", errors);
        let pass_every = match b.int("pass_every", errors) {
            Some((n, _)) if (0..=10_000).contains(&n) => n as u32,
            Some((n, l)) => {
                errors.push(Diagnostic::error(
                    format!("`pass_every` must be from 0 to 10000 hands, found {n}"),
                    l.clone(),
                ));
                0
            }
            None => 0,
        };
        let pass_to_winner = b.boolean("pass_to_winner", errors).is_some_and(|(v, _)| v);
        let bys = [("chips", WinnerBy::Chips), ("hand", WinnerBy::Hand)];
        let winner_by = if t.get("winner_by").is_some() {
            choice(&mut b, "winner_by", &bys, errors).unwrap_or(WinnerBy::Chips)
        } else {
            WinnerBy::Chips
        };
        let ties = [
            ("banker-keeps", WinnerTies::BankerKeeps),
            ("first-in-turn", WinnerTies::FirstInTurn),
        ];
        let winner_ties = if t.get("winner_ties").is_some() {
            choice(&mut b, "winner_ties", &ties, errors).unwrap_or(WinnerTies::BankerKeeps)
        } else {
            WinnerTies::BankerKeeps
        };
        for key in ["winner_by", "winner_ties"] {
            if !pass_to_winner && let Some(i) = t.get(key) {
                errors.push(
                    Diagnostic::error(
                        format!("`{key}` says who wins the bank: it needs `pass_to_winner = true`"),
                        i.loc.clone(),
                    )
                    .with_help(Some(format!(
                        "add `pass_to_winner = true` or remove `{key}`"
                    ))),
                );
            }
        }
        b.finish(errors);
        let program = pass_when
            .as_ref()
            .and_then(|w| compile_expr(w, Type::Bool, showdown, errors));
        Bank {
            first,
            pass_when: program,
            pass_when_source: pass_when.map(|w| w.text.trim().to_string()),
            pass_every,
            pass_to_winner,
            winner_by,
            winner_ties,
        }
    });
    let mut ranks = Vec::new();
    for (t, at) in r.tables("hand_rank", errors) {
        let mut k = TableReader::new(t, at.clone(), "a hand rank").defined_by(&keys::RANK);
        let id = k.required_string("id", errors);
        let name = k.required_string("name", errors);
        let when = k.required_string("when", errors);
        let within = k.string("within", errors);
        k.finish(errors);
        if let Some(id) = &id
            && ranks.iter().any(|r: &HandRank| r.id == id.text)
        {
            errors.push(Diagnostic::error(
                format!("a second rank `{}`", id.text),
                id.loc.clone(),
            ));
        }
        let when_p = when
            .as_ref()
            .and_then(|w| compile_expr(w, Type::Bool, hand, errors));
        let within_p = match &within {
            Some(w) => compile_expr(w, Type::Int, hand, errors).map(Some),
            None => Some(None),
        };
        if let (Some(id), Some(name), Some(when), Some(when_p), Some(within_p)) =
            (id, name, when, when_p, within_p)
        {
            ranks.push(HandRank {
                id: id.text.to_string(),
                name: name.text.to_string(),
                when: when_p,
                when_source: when.text.trim().to_string(),
                within: within_p,
                within_source: within.map(|w| w.text.trim().to_string()),
            });
        }
    }
    let rank_of = |s: &crate::ruleset::reader::Str, errors: &mut Vec<Diagnostic>| {
        let found = ranks.iter().position(|r| r.id == s.text);
        if found.is_none() {
            let known: Vec<String> = ranks.iter().map(|r| format!("`{}`", r.id)).collect();
            errors.push(
                Diagnostic::error(format!("no rank `{}`", s.text), s.loc.clone()).with_help(Some(
                    if known.is_empty() {
                        "name the ranks first, with `[[flow.hand_rank]]`".to_string()
                    } else {
                        format!("the ranks are {}", known.join(", "))
                    },
                )),
            );
        }
        found
    };
    let mut specials = Vec::new();
    for (t, at) in r.tables("special", errors) {
        let mut k = TableReader::new(t, at.clone(), "a special hand").defined_by(&keys::SPECIAL);
        let id = k.required_string("id", errors);
        let name = k.string("name", errors);
        let when = k.required_string("when", errors);
        let beats: Vec<Option<usize>> = k
            .strings("beats", errors)
            .iter()
            .map(|s| rank_of(s, errors))
            .collect();
        let below = k.string("redeal_below", errors);
        let redeal_below = below.as_ref().map(|s| rank_of(s, errors));
        k.finish(errors);
        let when_p = when
            .as_ref()
            .and_then(|w| compile_expr(w, Type::Bool, hand, errors));
        if let (Some(id), Some(when), Some(when_p)) = (id, when, when_p)
            && beats.iter().all(Option::is_some)
            && redeal_below.is_none_or(|b| b.is_some())
        {
            specials.push(SpecialHand {
                id: id.text.to_string(),
                name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
                when: when_p,
                when_source: when.text.trim().to_string(),
                beats: beats.into_iter().flatten().collect(),
                redeal_below: redeal_below.flatten(),
            });
        }
    }
    let pot = r.table("pot", errors).and_then(|(t, at)| {
        let mut p = TableReader::new(t, at.clone(), "`[flow.pot]`").defined_by(&keys::POT);
        let ante = match p.int("ante", errors) {
            Some((n, _)) if (0..=crate::ruleset::model::MAX_BET).contains(&n) => n,
            Some((n, l)) => {
                errors.push(Diagnostic::error(
                    format!(
                        "`ante` must be from 0 to {}, found {n}",
                        crate::ruleset::model::MAX_BET
                    ),
                    l.clone(),
                ));
                1
            }
            None => 1,
        };
        let rounds_at = t.get("rounds").map(|i| i.loc.clone());
        let rounds = int_list(&mut p, "rounds", 1..=8, errors).ok().flatten();
        if t.get("rounds").is_none() {
            p.missing("rounds", errors);
        }
        let raises = match p.int("raises", errors) {
            Some((n, _)) if (0..=100).contains(&n) => n as u32,
            Some((n, l)) => {
                errors.push(Diagnostic::error(
                    format!("`raises` must be from 0 to 100, found {n}"),
                    l.clone(),
                ));
                3
            }
            None => 3,
        };
        p.finish(errors);
        let rounds = rounds?;
        if rounds.is_empty() {
            errors.push(Diagnostic::error(
                "`rounds` needs at least one betting round",
                rounds_at.unwrap_or_else(|| at.clone()),
            ));
            return None;
        }
        Some(Pot {
            ante,
            rounds,
            raises,
        })
    });
    SeatRules {
        bank,
        ranks,
        specials,
        pot,
    }
}
