//! The climbing family's `[flow]` (`style = "climbing"`): seats, the card order (`rank`,
//! `rank_order`, `suit_order`, `run_order`), the combinations (`[[flow.combination]]`), the
//! opening lead, passing, the penalty for cards left and the game's length.

use super::*;
use crate::deck::{CardSet, Deck};
use crate::diag::{Diagnostic, Loc, did_you_mean};
use crate::ruleset::combos::{CardOrder, Combination, CombinationTable, CompareBy, MAX_SIZE};
use crate::ruleset::keys;
use crate::ruleset::model::*;
use crate::ruleset::reader::TableReader;
use crate::ruleset::toml_tree::Table;
use crate::ruleset::vocab::*;

/// `[flow]` of a climbing game (`style = "climbing"`).
pub(super) fn flow(
    mut r: TableReader,
    t: &Table,
    loc: &Loc,
    vocab: &Vocab,
    sections: &Sections,
    errors: &mut Vec<Diagnostic>,
) -> Option<Flow> {
    let deck = vocab.deck;
    family_declarations(sections, "climbing", keys::CLIMBING_EFFECTS, errors);
    sections.no_melds("climbing", errors);
    for (at, what) in [
        (&sections.yaku, "`[[yaku]]`"),
        (&sections.scoring, "`[scoring]`"),
    ] {
        if let Some(at) = at {
            errors.push(
                Diagnostic::error(format!("a climbing game does not use {what}"), at.clone())
                    .with_help(Some(
                        "a climbing hand is scored by `[flow] penalty` on the cards each loser holds; remove this section".into(),
                    )),
            );
        }
    }
    let players = positive(&mut r, "players", 4, errors);
    let min_players = positive(&mut r, "min_players", players, errors);
    let max_players = positive(&mut r, "max_players", players, errors);
    if !(2 <= min_players && min_players <= players && players <= max_players)
        || max_players as usize > MAX_SEATS
    {
        errors.push(Diagnostic::error(
            format!(
                "seats must satisfy 2 <= min_players ({min_players}) <= players ({players}) <= max_players ({max_players}) <= {MAX_SEATS}"
            ),
            loc.clone(),
        ));
    }
    // The whole deck is dealt evenly, or `hand_size` each with the rest set aside, or the
    // cards left over go where `odd_cards` says.
    let cards = deck.cards.len() as u32;
    let hand_size_at = r.item("hand_size").map(|i| i.loc.clone());
    let hand_size = r.int("hand_size", errors).and_then(|(n, at)| {
        let most = cards / max_players.max(1);
        if n >= 1 && n as u32 <= most {
            Some(n as u32)
        } else {
            errors.push(
                Diagnostic::error(
                    format!(
                        "`hand_size` must be from 1 to {most}, the deck's {cards} cards over {max_players} players, found {n}"
                    ),
                    at.clone(),
                )
                .with_help(Some(
                    "leave `hand_size` out to deal the whole deck".into(),
                )),
            );
            None
        }
    });
    let odd_at = r.item("odd_cards").map(|i| i.loc.clone());
    let odd_cards = choice(
        &mut r,
        "odd_cards",
        &[
            ("dealt", OddCards::Dealt),
            ("opening_holder", OddCards::OpeningHolder),
        ],
        errors,
    )
    .unwrap_or(OddCards::Even);
    if let (Some(_), Some(_), Some(at)) = (&odd_at, hand_size, &hand_size_at) {
        errors.push(
            Diagnostic::error("`hand_size` with `odd_cards`", at.clone()).with_help(Some(
                "with `hand_size` the cards not dealt are set aside: leave out `odd_cards`, or `hand_size` to deal the whole deck".into(),
            )),
        );
    }
    for n in min_players..=max_players.min(MAX_SEATS as u32) {
        if odd_cards == OddCards::Even
            && hand_size.is_none()
            && !cards.is_multiple_of(n)
            && !deck.cards.is_empty()
        {
            errors.push(
                Diagnostic::error(
                    format!(
                        "a climbing game deals the whole deck evenly: the deck's {cards} cards do not deal evenly to {n} players"
                    ),
                    loc.clone(),
                )
                .with_help(Some(
                    "set `min_players` and `max_players` to seat counts the deck divides by, or say where the cards left over go (`odd_cards = \"opening_holder\"` or `\"dealt\"`), or deal fewer (`hand_size`)"
                        .into(),
                )),
            );
        }
    }
    let rank = attribute(&mut r, "rank", "rank", deck, loc, errors);
    let order = rank.and_then(|rank| card_order(&mut r, deck, rank, loc, errors));
    let (classes, class_locs) = combinations(&mut r, loc, errors);
    let opening = r.string("opening_lead", errors);
    let opening_card = opening
        .as_ref()
        .and_then(|s| match deck.parse_card(s.text) {
            Some(c) => Some(c),
            None => {
                errors.push(
                    Diagnostic::error(
                        format!("the deck `{}` has no card `{}`", deck.id, s.text),
                        s.loc.clone(),
                    )
                    .with_help(did_you_mean(s.text, deck.card_ids())),
                );
                None
            }
        });
    let must_include = r.boolean("opening_must_include", errors);
    if let (Some((true, at)), None) = (&must_include, &opening) {
        errors.push(
            Diagnostic::error(
                "`opening_must_include` without `opening_lead`",
                (*at).clone(),
            )
            .with_help(Some(
                "name the card the first play must hold: `opening_lead = \"diamonds-three\"`"
                    .into(),
            )),
        );
    }
    let opening_must_include = must_include.is_some_and(|(b, _)| b);
    let opening_every_hand = choice(
        &mut r,
        "opening_hands",
        &[("every", true), ("first", false)],
        errors,
    )
    .unwrap_or(true);
    let pass_rule = choice(
        &mut r,
        "after_pass",
        &[("again", PassRule::Again), ("out", PassRule::Out)],
        errors,
    )
    .unwrap_or(PassRule::Again);
    let names = vocab.names(crate::ruleset::scope::CONSTANT);
    let penalty_text = r.string("penalty", errors);
    let penalty = match &penalty_text {
        Some(s) => compile_expr(s, crate::expr::Type::Int, &names, errors),
        None => {
            r.missing("penalty", errors);
            None
        }
    };
    let pay_winner = choice(
        &mut r,
        "penalty_to",
        &[("winner", true), ("none", false)],
        errors,
    )
    .unwrap_or(true);
    let length = game_length(&mut r, t, errors);
    let first_dealer = choice(
        &mut r,
        "first_dealer",
        &[
            ("first", FirstDealer::First),
            ("random", FirstDealer::Random),
        ],
        errors,
    )
    .unwrap_or(FirstDealer::Random);
    let next_dealer = choice(
        &mut r,
        "next_dealer",
        &[
            ("winner", NextDealer::Winner),
            ("same", NextDealer::Same),
            ("alternate", NextDealer::Alternate),
        ],
        errors,
    )
    .unwrap_or(NextDealer::Alternate);
    r.finish(errors);
    let pass = declared(sections, &["pass"]).first().copied();
    if pass.is_none() {
        errors.push(
            Diagnostic::error(
                "a climbing game needs a `[[declaration]]` with `effect = \"pass\"`",
                loc.clone(),
            )
            .with_help(Some(
                "add one: a player who will not or cannot beat the last play passes with it".into(),
            )),
        );
    }
    if classes.is_empty() && !crate::diag::has_errors(errors) {
        errors.push(
            Diagnostic::error(
                "a climbing game needs at least one `[[flow.combination]]`",
                loc.clone(),
            )
            .with_help(Some(
                "add `[[flow.combination]]` with `id = \"single\"`, `cards = 1`, `groups = [1]`"
                    .into(),
            )),
        );
    }
    if let (Some(order), Some(card)) = (&order, opening_card)
        && opening_must_include
        && !classes.iter().any(|c| c.size == 1)
    {
        let _ = (order, card);
        errors.push(Diagnostic::error(
            "`opening_must_include` needs a class of one card, so that the opening card can always be played",
            loc.clone(),
        ));
    }
    let penalty_source = penalty_text.map(|s| s.text.to_string())?;
    let combos = CombinationTable::new(order?, classes);
    // The largest hand the deal gives: every card left over may go to one seat.
    let hand = hand_size.unwrap_or_else(|| {
        let even = cards / min_players.max(1);
        match odd_cards {
            OddCards::Even => even,
            OddCards::Dealt => cards.div_ceil(min_players.max(1)),
            OddCards::OpeningHolder => even + cards % min_players.max(1),
        }
    });
    check_plays(&combos, &class_locs, hand, errors);
    Some(Flow::Climbing(std::sync::Arc::new(ClimbingFlow {
        players,
        min_players,
        max_players,
        combos,
        hand_size,
        odd_cards,
        opening_card,
        opening_must_include,
        opening_every_hand,
        pass_rule,
        pass: pass?,
        penalty: penalty?,
        penalty_source,
        pay_winner,
        length: length?,
        first_dealer,
        next_dealer,
    })))
}

/// `rank_order`, `suit_order` and `run_order`: how cards rank, every card placed.
fn card_order(
    r: &mut TableReader,
    deck: &Deck,
    rank: usize,
    loc: &Loc,
    errors: &mut Vec<Diagnostic>,
) -> Option<CardOrder> {
    let values = &deck.attributes[rank].values;
    let at =
        |r: &mut TableReader, key: &str| r.item(key).map_or_else(|| loc.clone(), |i| i.loc.clone());
    let rank_at = at(r, "rank_order");
    let rank_order: Vec<i64> = match int_list(r, "rank_order", 0..=1000, errors) {
        Ok(Some(list)) => list.into_iter().map(i64::from).collect(),
        Ok(None) => {
            r.missing("rank_order", errors);
            return None;
        }
        Err(()) => return None,
    };
    let mut bad = false;
    for (i, v) in rank_order.iter().enumerate() {
        if rank_order[..i].contains(v) {
            errors.push(Diagnostic::error(
                format!("`rank_order` lists the rank {v} twice"),
                rank_at.clone(),
            ));
            bad = true;
        }
    }
    if rank_order.len() > 64 {
        errors.push(Diagnostic::error(
            "`rank_order` lists more than 64 ranks",
            rank_at.clone(),
        ));
        return None;
    }
    let mut order = CardOrder {
        rank: vec![0; deck.cards.len()],
        suit: vec![0; deck.cards.len()],
        ranks: vec![CardSet::EMPTY; rank_order.len()],
        suits: Vec::new(),
        run: Vec::new(),
    };
    for (i, v) in values.iter().enumerate() {
        match rank_order.iter().position(|x| x == v) {
            Some(p) => {
                order.rank[i] = p as u8;
                order.ranks[p].insert(crate::deck::CardId(i as u8));
            }
            None => {
                errors.push(
                    Diagnostic::error(
                        format!(
                            "`rank_order` does not list the rank {v} of `{}`",
                            deck.cards[i].id
                        ),
                        rank_at.clone(),
                    )
                    .with_help(Some(
                        "every card must rank: list each value of the `rank` attribute once".into(),
                    )),
                );
                bad = true;
                break;
            }
        }
    }
    let suit_at = at(r, "suit_order");
    let suit_order = r.strings("suit_order", errors);
    if suit_order.is_empty() {
        r.missing("suit_order", errors);
        return None;
    }
    for (p, s) in suit_order.iter().enumerate() {
        match deck.suits.iter().position(|x| x.id == s.text) {
            Some(suit) if !order.suits.contains(&deck.suits[suit].cards) => {
                for c in deck.suits[suit].cards.iter() {
                    order.suit[c.index()] = p as u8;
                }
                order.suits.push(deck.suits[suit].cards);
            }
            Some(_) => {
                errors.push(Diagnostic::error(
                    format!("`suit_order` lists `{}` twice", s.text),
                    s.loc.clone(),
                ));
                bad = true;
            }
            None => {
                errors.push(
                    Diagnostic::error(
                        format!("the deck `{}` has no suit `{}`", deck.id, s.text),
                        s.loc.clone(),
                    )
                    .with_help(did_you_mean(
                        s.text,
                        deck.suits.iter().map(|s| s.id.as_str()),
                    )),
                );
                bad = true;
            }
        }
    }
    if !bad && order.suits.len() != deck.suits.len() {
        errors.push(Diagnostic::error(
            format!(
                "`suit_order` lists {} of the deck's {} suits: every suit must rank",
                order.suits.len(),
                deck.suits.len()
            ),
            suit_at,
        ));
        bad = true;
    }
    let run_at = at(r, "run_order");
    order.run = match int_list(r, "run_order", 0..=1000, errors) {
        Ok(Some(list)) => list
            .into_iter()
            .filter_map(|v| {
                let p = rank_order.iter().position(|x| *x == i64::from(v));
                if p.is_none() {
                    errors.push(Diagnostic::error(
                        format!("`run_order` lists the rank {v}, which `rank_order` does not"),
                        run_at.clone(),
                    ));
                    bad = true;
                }
                p.map(|p| p as u8)
            })
            .collect(),
        Ok(None) => (0..rank_order.len() as u8).collect(),
        Err(()) => return None,
    };
    (!bad).then_some(order)
}

/// `[[flow.combination]]`: the classes of play, `beats` resolved to indices.
/// The most plays the combinations may offer at one move, over every class: each move lists
/// them all, so a ruleset (perhaps pasted into the server) may not make a move cost more.
pub const MAX_PLAYS: f64 = 200_000.0;

/// Refuses combinations whose plays, listed at every move, could run past [`MAX_PLAYS`] for a
/// hand of `hand` cards (an upper bound per class, named in the message, located at the class
/// that could offer the most; `locs` by class).
fn check_plays(combos: &CombinationTable, locs: &[Loc], hand: u32, errors: &mut Vec<Diagnostic>) {
    let each: Vec<(usize, f64)> = (0..combos.classes.len())
        .map(|k| (k, combos.most_plays(k, hand)))
        .collect();
    let total: f64 = each.iter().map(|&(_, n)| n).sum();
    if total <= MAX_PLAYS {
        return;
    }
    let mut worst = each;
    worst.sort_by(|a, b| b.1.total_cmp(&a.1));
    let named: Vec<String> = worst
        .iter()
        .take(3)
        .map(|&(k, n)| format!("`{}` up to {n:.0}", combos.classes[k].id))
        .collect();
    errors.push(
        Diagnostic::error(
            format!(
                "the combinations could offer up to {total:.0} plays at one move from a hand of {hand} cards, more than the {MAX_PLAYS:.0} yaku lists: {}",
                named.join(", ")
            ),
            locs[worst[0].0].clone(),
        )
        .with_help(Some(
            "a class of many groups of distinct ranks, or a long run of a rank with many copies, holds a product of choices; make such classes `run = true` or fewer groups, or deal smaller hands".into(),
        )),
    );
}

/// The `[[flow.combination]]` classes, and where each is written.
fn combinations(
    r: &mut TableReader,
    loc: &Loc,
    errors: &mut Vec<Diagnostic>,
) -> (Vec<Combination>, Vec<Loc>) {
    let tables = r.tables("combination", errors);
    if tables.len() > 64 {
        errors.push(Diagnostic::error(
            format!(
                "{} combinations: a climbing game has at most 64",
                tables.len()
            ),
            loc.clone(),
        ));
        return (Vec::new(), Vec::new());
    }
    let mut out = Vec::new();
    let mut locs = Vec::new();
    let mut beats_named = Vec::new();
    for (t, at) in tables {
        let mut c = TableReader::new(t, at.clone(), "`[[flow.combination]]`")
            .defined_by(&keys::COMBINATION);
        let id = c.required_string("id", errors);
        let name = c.string("name", errors);
        let size = c.int("cards", errors);
        if size.is_none() {
            c.missing("cards", errors);
        }
        let groups_at = c.item("groups").map(|i| i.loc.clone());
        let groups = int_list(&mut c, "groups", 1..=i64::from(MAX_SIZE), errors)
            .ok()
            .flatten()
            .unwrap_or_default();
        let run = c.boolean("run", errors);
        let suited = c.boolean("suited", errors).is_some_and(|(b, _)| b);
        let compare = choice(
            &mut c,
            "compare",
            &[
                ("highest", CompareBy::Highest),
                ("group", CompareBy::Group),
                ("cards", CompareBy::Cards),
            ],
            errors,
        )
        .unwrap_or(CompareBy::Highest);
        let beats: Vec<(String, Loc)> = c
            .strings("beats", errors)
            .iter()
            .map(|s| (s.text.to_string(), s.loc.clone()))
            .collect();
        c.finish(errors);
        let (Some(id), Some((size, size_at))) = (id, size) else {
            continue;
        };
        if !(1..=i64::from(MAX_SIZE)).contains(&size) {
            errors.push(Diagnostic::error(
                format!("`cards` must be between 1 and {MAX_SIZE}, found {size}"),
                size_at.clone(),
            ));
            continue;
        }
        let size = size as u32;
        let mut groups = groups;
        groups.sort_unstable_by(|a, b| b.cmp(a));
        let sum: u32 = groups.iter().sum();
        if !groups.is_empty() && sum != size {
            errors.push(Diagnostic::error(
                format!("`groups` add up to {sum} cards, but the combination takes {size}"),
                groups_at.clone().unwrap_or_else(|| at.clone()),
            ));
        }
        if groups.is_empty() && !suited {
            errors.push(
                Diagnostic::error(
                    format!("the combination `{}` says nothing of its cards", id.text),
                    at.clone(),
                )
                .with_help(Some(
                    "give `groups` (cards of one rank: `[2]` a pair, `[1, 1, 1, 1, 1]` with `run = true` a straight) or `suited = true` (a flush)".into(),
                )),
            );
        }
        let run = match run {
            Some((true, run_at)) if groups.is_empty() || groups.iter().any(|&g| g != groups[0]) => {
                errors.push(
                    Diagnostic::error(
                        "`run = true` needs `groups` all of one size",
                        run_at.clone(),
                    )
                    .with_help(Some(
                        "a run of single cards is `groups = [1, 1, 1, 1, 1]`; of pairs, `[2, 2, 2]`"
                            .into(),
                    )),
                );
                false
            }
            Some((b, _)) => b,
            None => false,
        };
        if compare == CompareBy::Cards && size > 8 {
            errors.push(Diagnostic::error(
                "`compare = \"cards\"` compares at most 8 cards",
                size_at.clone(),
            ));
        }
        if out.iter().any(|o: &Combination| o.id == id.text) {
            errors.push(Diagnostic::error(
                format!("two combinations have the id `{}`", id.text),
                id.loc.clone(),
            ));
            continue;
        }
        beats_named.push(beats);
        locs.push(at.clone());
        out.push(Combination {
            id: id.text.to_string(),
            name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
            size,
            groups,
            run,
            suited,
            compare,
            beats: Vec::new(),
        });
    }
    for (i, named) in beats_named.into_iter().enumerate() {
        for (id, at) in named {
            match out.iter().position(|c| c.id == id) {
                Some(j) if j == i => errors.push(Diagnostic::error(
                    format!(
                        "`{id}` beats itself already: a higher play of a class beats a lower one"
                    ),
                    at,
                )),
                Some(j) => out[i].beats.push(j as u16),
                None => errors.push(
                    Diagnostic::error(format!("no combination has the id `{id}`"), at)
                        .with_help(did_you_mean(&id, out.iter().map(|c| c.id.as_str()))),
                ),
            }
        }
    }
    (out, locs)
}
