//! The trick-taking family's `[flow]` (`style = "tricks"`): seats and teams, the deal, trumps
//! and following, the auction and contracts, melds and marriages, and the sample facts its
//! scoring script is tried on.

use super::*;
use crate::deck::{CardSet, Deck};
use crate::diag::{Diagnostic, Loc, did_you_mean};
use crate::ruleset::deck_file::check_ident;
use crate::ruleset::keys;
use crate::ruleset::model::*;
use crate::ruleset::reader::{Str, TableReader};
use crate::ruleset::toml_tree::Table;
use crate::ruleset::vocab::*;
use crate::script::FactValue;

/// `[flow]` of a trick-taking game (`style = "tricks"`).
pub(super) fn flow(
    mut r: TableReader,
    t: &Table,
    loc: &Loc,
    vocab: &Vocab,
    sections: &Sections,
    errors: &mut Vec<Diagnostic>,
) -> Option<Flow> {
    let deck = vocab.deck;
    family_declarations(sections, "trick-taking", keys::TRICKS_EFFECTS, errors);
    if let Some(at) = &sections.yaku {
        errors.push(
            Diagnostic::error("a trick-taking game does not use `[[yaku]]`", at.clone())
                .with_help(Some(
                    "its hands are won by card points from tricks; game points come from the `[scoring]` script".into(),
                )),
        );
    }
    let players = positive(&mut r, "players", 2, errors);
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
    let teams = teams(&mut r, (players, min_players, max_players), loc, errors);
    let deal_at = r.item("deal").map(|i| i.loc.clone());
    let deal = choice(
        &mut r,
        "deal",
        &[("stock", 0u8), ("all", 1u8), ("talon", 2u8)],
        errors,
    )
    .unwrap_or(0);
    let (deal_all, talon) = (deal == 1, deal == 2);
    let hand_size = if deal_all {
        if let Some((_, at)) = r.int("hand_size", errors) {
            errors.push(
                Diagnostic::error("`hand_size` with `deal = \"all\"`", at.clone())
                    .with_help(Some(
                        "the whole deck is dealt evenly: each hand holds the deck's cards divided by the seats; remove `hand_size`".into(),
                    )),
            );
        }
        let cards = deck.cards.len() as u32;
        for n in min_players..=max_players.min(MAX_SEATS as u32) {
            if !cards.is_multiple_of(n) && !deck.cards.is_empty() {
                errors.push(Diagnostic::error(
                    format!(
                        "`deal = \"all\"`: the deck's {cards} cards do not deal evenly to {n} players"
                    ),
                    loc.clone(),
                ));
            }
        }
        (cards / players.max(1)).max(1)
    } else {
        positive(&mut r, "hand_size", 5, errors)
    };
    let deal_packets = int_list(&mut r, "deal_packets", 1..=64, errors)
        .ok()
        .flatten()
        .unwrap_or_else(|| vec![hand_size]);
    // With the whole deck dealt the packets repeat until a hand is full (one at a time:
    // `deal_packets = [1]`); otherwise they add up to a hand.
    if !deal_all && deal_packets.iter().sum::<u32>() != hand_size && !deck.cards.is_empty() {
        errors.push(Diagnostic::error(
            format!(
                "`deal_packets` add up to {} cards, but each hand holds {hand_size}",
                deal_packets.iter().sum::<u32>()
            ),
            loc.clone(),
        ));
    }
    let trump_at = r.item("trump").map(|i| i.loc.clone());
    // An unknown `trump` is reported once: the deal's own default stands in for it.
    let trump = trump_rule(&mut r, deck, errors).unwrap_or(match (&trump_at, deal_all || talon) {
        (Some(_), true) => TrumpRule::None,
        _ => TrumpRule::TurnedUp,
    });
    if (deal_all || talon) && trump == TrumpRule::TurnedUp {
        errors.push(
            Diagnostic::error(
                "`deal = \"all\"` or `\"talon\"` leaves no card to turn up for trumps",
                trump_at.clone().unwrap_or_else(|| loc.clone()),
            )
            .with_help(Some(
                "write `trump = \"declarer\"` with a `[flow.auction]` (the auction's winner names trumps), `trump = \"none\"` (no trumps), or a suit's id (trumps fixed by the rules)".into(),
            )),
        );
    }
    if !(deal_all || talon)
        && let (TrumpRule::None | TrumpRule::Fixed(_), Some(at)) = (trump, &trump_at)
    {
        errors.push(
            Diagnostic::error(
                "trumps without a turned-up card need `deal = \"all\"` or `\"talon\"`",
                at.clone(),
            )
            .with_help(Some(
                "with a stock the card after the deal is turned up for trumps: write `deal = \"all\"` to deal the whole deck".into(),
            )),
        );
    }
    let names = vocab.names(crate::ruleset::scope::CONSTANT);
    let constant_set = |key: &str, r: &mut TableReader, errors: &mut Vec<Diagnostic>| {
        let s = r.string(key, errors)?;
        let p = compile_expr(&s, crate::expr::Type::Set, &names, errors)?;
        // A card named stands for its copies in the other packs too.
        Some((
            deck.with_copies(p.set(&crate::expr::Context {
                pile: CardSet::EMPTY,
                facts: &[],
            })),
            s.loc.clone(),
        ))
    };
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
    let opening_from = constant_set("opening_lead_from", &mut r, errors);
    let not_on_first_trick = constant_set("not_on_first_trick", &mut r, errors);
    let until_broken = constant_set("lead_when_broken", &mut r, errors);
    let broken_by = constant_set("broken_by", &mut r, errors);
    if let (Some((_, at)), None) = (&broken_by, &until_broken) {
        errors.push(
            Diagnostic::error("`broken_by` without `lead_when_broken`", at.clone()).with_help(
                Some("`broken_by` says which cards break `lead_when_broken`: give both".into()),
            ),
        );
    }
    for (set, key) in [
        (&not_on_first_trick, "not_on_first_trick"),
        (&until_broken, "lead_when_broken"),
    ] {
        if let Some((cards, at)) = set
            && *cards == deck.all()
        {
            errors.push(
                Diagnostic::error(format!("`{key}` holds every card of the deck"), at.clone())
                    .with_help(Some(
                    "name the cards the rule binds (`hearts + spades-queen`), not the whole deck"
                        .into(),
                )),
            );
        }
    }
    let until_broken = until_broken.map_or(CardSet::EMPTY, |(c, _)| c);
    let lead_rules = LeadRules {
        opening_card,
        opening_from: opening_from.map_or(CardSet::EMPTY, |(c, _)| c),
        not_on_first_trick: not_on_first_trick.map_or(CardSet::EMPTY, |(c, _)| c),
        until_broken,
        broken_by: broken_by.map_or(until_broken, |(c, _)| c),
    };
    let passing = r
        .table("pass", errors)
        .and_then(|(t, l)| passing(t, l, (min_players, max_players), hand_size, errors));
    let lowest_wins = r.boolean("lowest_wins", errors).is_some_and(|(b, _)| b);
    let rank = attribute(&mut r, "rank", "rank", deck, loc, errors);
    let card_order_at = r.item("card_order").map(|i| i.loc.clone());
    let flow_orders = super::trick_order::OrderRules {
        trump_cards: r.string("trump_cards", errors),
        no_trumps: false,
        trump_order: r.strings("trump_order", errors),
        card_order: r.strings("card_order", errors),
        at: card_order_at.or_else(|| Some(loc.clone())),
        inherits_trumps: false,
    };
    let partners =
        super::trick_order::partner_suits(&r.strings("partner_suits", errors), deck, errors);
    let partner_cards = constant_set("partner_cards", &mut r, errors);
    let card_points = attribute(&mut r, "card_points", "points", deck, loc, errors);
    let target = r.int("target", errors).map_or(66, |(n, _)| n);
    let follow = follow_rules(&mut r, errors).unwrap_or(FollowRules::FOLLOW_TRUMP);
    let equal_cards_at = r.item("equal_cards").map(|i| i.loc.clone());
    let later_equal = choice(
        &mut r,
        "equal_cards",
        &[("first", false), ("last", true)],
        errors,
    )
    .unwrap_or(false);
    let later_equal_wins = later_equal_cards(
        constant_set("equal_cards_last", &mut r, errors),
        later_equal.then_some(equal_cards_at).flatten(),
        deck,
        errors,
    );
    let claim = choice(
        &mut r,
        "claim",
        &[
            ("declare", ClaimRule::Declare),
            ("automatic", ClaimRule::Automatic),
            ("none", ClaimRule::PlayOut),
        ],
        errors,
    )
    .unwrap_or(ClaimRule::Declare);
    // The marriage shorthand: a declaration of `effect = "marriage"` and these keys stand for
    // two melds shown on one's lead (see `marriage_shorthand`).
    let shorthand_at = [
        "marriage",
        "marriage_points",
        "trump_marriage_points",
        "marriage_counts",
    ]
    .iter()
    .find_map(|k| r.item(k).map(|i| (*k, i.loc.clone())));
    let marriage_kinds = r.strings("marriage", errors);
    let mut marriage_kind_ids = Vec::new();
    let kinds: Vec<&str> = if marriage_kinds.is_empty() {
        vec!["king", "queen"]
    } else {
        marriage_kinds.iter().map(|k| k.text).collect()
    };
    let marriage_decl = declared(sections, &["marriage"]).first().copied();
    for (i, k) in kinds.iter().enumerate() {
        match deck.kinds.iter().position(|d| d.id == *k) {
            Some(kind) => marriage_kind_ids.push(kind),
            None if marriage_decl.is_some() => {
                let at = marriage_kinds
                    .get(i)
                    .map_or_else(|| loc.clone(), |s| s.loc.clone());
                errors.push(
                    Diagnostic::error(
                        format!("the deck `{}` has no kind `{k}` for marriages", deck.id),
                        at,
                    )
                    .with_help(did_you_mean(k, deck.kinds.iter().map(|k| k.id.as_str()))),
                );
            }
            None => {}
        }
    }
    let marriage_points = r.int("marriage_points", errors).map_or(20, |(n, _)| n);
    let trump_marriage_points = r
        .int("trump_marriage_points", errors)
        .map_or(40, |(n, _)| n);
    let marriage_needs_trick = choice(
        &mut r,
        "marriage_counts",
        &[("after-first-trick", true), ("at-once", false)],
        errors,
    )
    .unwrap_or(true);
    if let (None, Some((key, at))) = (marriage_decl, &shorthand_at) {
        errors.push(
            Diagnostic::error(
                format!(
                    "`{key}` belongs to the marriage shorthand, and no declaration has `effect = \"marriage\"`"
                ),
                at.clone(),
            )
            .with_help(Some(
                "this ruleset's marriages are `[[meld]]`s with `moment = \"lead\"`: change the meld itself (a house rule gives `[[meld]]` with its id and the new `points`, `kinds` or `counts`), or remove the key".into(),
            )),
        );
    }
    let exchange_needs_trick = choice(
        &mut r,
        "exchange",
        &[("any-lead", false), ("after-first-trick", true)],
        errors,
    )
    .unwrap_or(false);
    let last_trick_points = r.int("last_trick_points", errors).map_or(0, |(n, _)| n);
    let reuse_at = r.item("meld_reuse").map(|i| i.loc.clone());
    let reuse = choice(
        &mut r,
        "meld_reuse",
        &[
            ("other-class", MeldReuse::OtherClass),
            ("grow", MeldReuse::Grow),
            ("none", MeldReuse::Never),
        ],
        errors,
    );
    let new_card_at = r.item("meld_new_card").map(|i| i.loc.clone());
    let new_card = choice(
        &mut r,
        "meld_new_card",
        &[
            ("none", MeldNewCard::Nothing),
            ("class", MeldNewCard::InClass),
            ("hand", MeldNewCard::FromHand),
        ],
        errors,
    );
    let look_at_own_tricks = choice(
        &mut r,
        "look_at_own_tricks",
        &[("yes", true), ("no", false)],
        errors,
    )
    .unwrap_or(false);
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
    let mut contract_orders = Vec::new();
    let mut contract_calls = Vec::new();
    let mut alone_at = Vec::new();
    let mut auction = r.table("auction", errors).and_then(|(t, l)| {
        auction(
            t,
            l,
            deck,
            sections,
            (&mut contract_orders, &mut contract_calls, &mut alone_at),
            errors,
        )
    });
    let announcements = super::announcements::announcements(
        r.tables("announcement", errors),
        auction.is_some(),
        sections,
        loc,
        errors,
    );
    r.finish(errors);
    let call_at: Vec<Option<Loc>> = contract_calls
        .iter()
        .map(|k| k.as_ref().map(|k| k.cards.loc.clone()))
        .collect();
    if let Some(a) = &mut auction {
        for (c, keys) in a.contracts.iter_mut().zip(&contract_calls) {
            c.call = keys
                .as_ref()
                .and_then(|k| super::partners::compile_call(k, &names, errors));
        }
    }
    let one = |effect: &str| declared(sections, &[effect]).first().copied();
    if trump == TrumpRule::Declarer && auction.is_none() {
        errors.push(
            Diagnostic::error(
                "`trump = \"declarer\"` needs a `[flow.auction]`: the declarer is its winner",
                trump_at.unwrap_or_else(|| loc.clone()),
            )
            .with_help(Some(
                "add `[flow.auction]` with `minimum` and `step`".into(),
            )),
        );
    }
    if trump == TrumpRule::Declarer
        && let Some(a) = &auction
        && a.name_trump.is_none()
    {
        errors.push(
            Diagnostic::error(
                "`trump = \"declarer\"` needs a `[[declaration]]` with `effect = \"trump\"`",
                loc.clone(),
            )
            .with_help(Some(
                "add one: the declarer names trumps with it, showing a card of the suit".into(),
            )),
        );
    }
    let mut melds = melds(sections, deck, rank, errors);
    if let Some(d) = marriage_decl {
        marriage_shorthand(
            &mut melds,
            d,
            marriage_kind_ids,
            [marriage_points, trump_marriage_points],
            marriage_needs_trick,
            &sections.declarations[d.0 as usize].1,
            errors,
        );
    }
    let meld_rules = MeldRules {
        reuse: reuse.unwrap_or_default(),
        new_card: new_card.unwrap_or_default(),
    };
    meld_rules_apply(&melds, [reuse_at, new_card_at], errors);
    let mut meld_declarations = declared(sections, &["meld", "marriage"]);
    meld_declarations.retain(|&d| melds.iter().any(|m| m.declaration == Some(d)));
    let pass = declared(sections, &["pass"]).first().copied();
    let claim_declaration = one("claim");
    if claim == ClaimRule::Declare && claim_declaration.is_none() {
        errors.push(
            Diagnostic::error(
                "`claim = \"declare\"` needs a `[[declaration]]` with `effect = \"claim\"`",
                loc.clone(),
            )
            .with_help(Some(
                "add the declaration, or write `claim = \"automatic\"` to end a hand as soon as a player reaches the target".into(),
            )),
        );
    }
    if auction.as_ref().is_some_and(|a| a.turned_up) && !(talon && trump == TrumpRule::Declarer) {
        errors.push(
            Diagnostic::error(
                "`[flow.auction] turned_up = true` needs `deal = \"talon\"` (the card turned up is the talon's first) and `trump = \"declarer\"`",
                deal_at.unwrap_or_else(|| loc.clone()),
            )
            .with_help(Some(
                "deal `hand_size` cards each with `deal = \"talon\"`: the cards left lie face down, the first turned up".into(),
            )),
        );
    }
    let dealt = players * hand_size
        + u32::from(!deal_all && !talon)
        + u32::from(talon && auction.as_ref().is_some_and(|a| a.turned_up));
    if !deck_holds(deck, dealt, "the deal", loc, errors) {
        return None;
    }
    let card_points = card_points?;
    let rank = rank?;
    let ranks = &deck.attributes[rank].values;
    let order_of = |rules: &super::trick_order::OrderRules, errors: &mut Vec<Diagnostic>| {
        super::trick_order::card_order(&rules.card_order, rules.at.as_ref(), deck, vocab, errors)
    };
    let flow_base = order_of(&flow_orders, errors).unwrap_or_else(|| ranks.clone());
    let mut orders =
        super::trick_order::trick_orders(&flow_orders, deck, &flow_base, &partners, vocab, errors);
    if let Some(a) = &mut auction {
        for (c, own) in a.contracts.iter_mut().zip(contract_orders) {
            if own.is_empty() {
                continue;
            }
            // A contract's own keys stand in for the flow's; its own trumps bring no order of
            // the flow's top trumps.
            let inherits_trumps =
                own.trump_order.is_empty() && own.trump_cards.is_none() && !own.no_trumps;
            let base = order_of(&own, errors).unwrap_or_else(|| flow_base.clone());
            let rules = super::trick_order::OrderRules {
                trump_order: if inherits_trumps {
                    flow_orders.trump_order.clone()
                } else {
                    own.trump_order
                },
                trump_cards: own.trump_cards.or(flow_orders.trump_cards),
                no_trumps: own.no_trumps,
                inherits_trumps,
                ..super::trick_order::OrderRules::default()
            };
            c.orders = orders.len() / (deck.suits.len() + 1);
            orders.extend(super::trick_order::trick_orders(
                &rules, deck, &base, &partners, vocab, errors,
            ));
        }
    }
    super::partners::PartnerChecks {
        partner_cards: partner_cards.as_ref().map_or(CardSet::EMPTY, |(c, _)| *c),
        partner_at: partner_cards.as_ref().map(|(_, at)| at.clone()),
        deal_all,
        teams: teams.any(),
        auction: auction.as_ref(),
        call_at,
        alone_at,
        orders: &orders,
        suits: deck.suits.len(),
        loc,
    }
    .check(errors);
    let mut cards_by_points: Vec<(i64, CardSet)> = Vec::new();
    for (i, &points) in deck.attributes[card_points].values.iter().enumerate() {
        let card = crate::deck::CardId(i as u8);
        match cards_by_points.iter_mut().find(|(p, _)| *p == points) {
            Some((_, cards)) => cards.insert(card),
            None => cards_by_points.push((points, CardSet::single(card))),
        }
    }
    Some(Flow::Tricks(std::sync::Arc::new(TricksFlow {
        players,
        min_players,
        max_players,
        teams,
        partner_cards: partner_cards.map_or(CardSet::EMPTY, |(c, _)| c),
        hand_size,
        deal_all,
        talon,
        trump,
        orders,
        trump_cards: flow_orders
            .trump_cards
            .as_ref()
            .map_or_else(String::new, |s| s.text.to_string()),
        lead_rules,
        passing,
        lowest_wins,
        auction,
        meld_table: crate::ruleset::melds::MeldTable::new(deck, &melds, rank)
            .with_rules(meld_rules),
        melds,
        deal_packets,
        rank,
        card_points,
        cards_by_points,
        target,
        follow,
        later_equal_wins,
        claim,
        exchange_needs_trick,
        last_trick_points,
        look_at_own_tricks,
        length: length?,
        first_dealer,
        next_dealer,
        meld_declarations,
        pass,
        exchange: one("exchange"),
        close: one("close"),
        claim_declaration,
        announcements,
    })))
}

/// `meld_reuse` and `meld_new_card` (at `at`, where given) govern the melds shown after play: a
/// ruleset whose melds are all shown before play is told they change nothing.
fn meld_rules_apply(melds: &[Meld], at: [Option<Loc>; 2], errors: &mut Vec<Diagnostic>) {
    if melds.iter().any(|m| m.moment != MeldMoment::BeforePlay) {
        return;
    }
    for (key, at) in ["meld_reuse", "meld_new_card"].into_iter().zip(at) {
        if let Some(at) = at {
            errors.push(
                Diagnostic::error(
                    format!(
                        "`{key}` governs the melds shown after play, and this ruleset shows none"
                    ),
                    at,
                )
                .with_help(Some(
                    "give a `[[meld]]` `moment = \"lead\"` or `\"won-trick\"` (melds shown before play are counted once, class by class, the combination worth most), or remove the key".into(),
                )),
            );
        }
    }
}

/// `trump`: `turned-up`, `declarer`, `none`, or a suit's id (trumps fixed by the rules).
fn trump_rule(r: &mut TableReader, deck: &Deck, errors: &mut Vec<Diagnostic>) -> Option<TrumpRule> {
    let s = r.string("trump", errors)?;
    match s.text {
        "turned-up" => return Some(TrumpRule::TurnedUp),
        "declarer" => return Some(TrumpRule::Declarer),
        "none" => return Some(TrumpRule::None),
        _ => {}
    }
    if let Some(i) = deck.suits.iter().position(|x| x.id == s.text) {
        return Some(TrumpRule::Fixed(i));
    }
    let words = ["turned-up", "declarer", "none"]
        .into_iter()
        .chain(deck.suits.iter().map(|x| x.id.as_str()));
    errors.push(
        Diagnostic::error(
            format!("unknown value `{}` for `trump`", s.text),
            s.loc.clone(),
        )
        .with_help(did_you_mean(s.text, words).or_else(|| {
            Some(format!(
                "`trump` takes `turned-up`, `declarer`, `none` or a suit of the deck `{}`",
                deck.id
            ))
        })),
    );
    None
}

/// The cards of which, of two alike cards that are the best of a trick, the later played wins:
/// every card with `equal_cards = "last"` (at `last_at`), the cards `equal_cards_last` names
/// with the cards alike to them (Doppelkopf's two Tens of Hearts), or none. Naming cards no
/// other card is alike to, or naming some where every card is already so, is an error.
fn later_equal_cards(
    named: Option<(CardSet, Loc)>,
    last_at: Option<Loc>,
    deck: &Deck,
    errors: &mut Vec<Diagnostic>,
) -> CardSet {
    let every = if last_at.is_some() {
        deck.all()
    } else {
        CardSet::EMPTY
    };
    let Some((named, at)) = named else {
        return every;
    };
    if last_at.is_some() {
        errors.push(
            Diagnostic::error(
                "`equal_cards_last` with `equal_cards = \"last\"`",
                at.clone(),
            )
            .with_help(Some(
                "`equal_cards = \"last\"` lets the later of any two alike cards win already: keep `equal_cards_last` for the cards that differ from the first-played rule".into(),
            )),
        );
        return every;
    }
    // With the cards alike to them: the rule decides between two of them, whichever is named.
    let alike: CardSet = deck
        .all()
        .iter()
        .filter(|&c| named.iter().any(|n| c != n && deck.alike(c, n)))
        .collect();
    if alike.is_empty() {
        errors.push(
            Diagnostic::error(
                "`equal_cards_last` names no card the deck holds twice",
                at,
            )
            .with_help(Some(
                "the rule decides between two alike cards, as a deck of several packs (`packs = 2` in its deck file) has them".into(),
            )),
        );
        return CardSet::EMPTY;
    }
    named | alike
}

/// `[flow.pass]`: `cards` (1 to the hand's size) and `directions` (each `left`, `right`,
/// `across` or `none`; `across` only where every table allowed is of an even size).
fn passing(
    t: &Table,
    loc: &Loc,
    (min_players, max_players): (u32, u32),
    hand_size: u32,
    errors: &mut Vec<Diagnostic>,
) -> Option<Passing> {
    let mut r = TableReader::new(t, loc.clone(), "`[flow.pass]`").defined_by(&keys::PASS);
    let cards = r.int("cards", errors);
    let names = r.strings("directions", errors);
    r.finish(errors);
    let Some((cards, at)) = cards else {
        errors.push(
            Diagnostic::error("`[flow.pass]` needs `cards`", loc.clone())
                .with_help(Some("the cards each seat passes, e.g. `cards = 3`".into())),
        );
        return None;
    };
    let cards_ok = (1..=i64::from(hand_size)).contains(&cards);
    if !cards_ok {
        errors.push(Diagnostic::error(
            format!("`cards` must be between 1 and the hand's {hand_size} cards, found {cards}"),
            at.clone(),
        ));
    }
    if names.is_empty() {
        errors.push(
            Diagnostic::error("`[flow.pass]` needs `directions`", loc.clone()).with_help(Some(
                "one a hand, taken in turn: `directions = [\"left\", \"right\", \"across\", \"none\"]`".into(),
            )),
        );
        return None;
    }
    if names.len() > 64 {
        errors.push(Diagnostic::error(
            format!(
                "`directions` lists at most 64 hands' directions, found {}",
                names.len()
            ),
            names[64].loc.clone(),
        ));
        return None;
    }
    let mut directions = Vec::new();
    for n in &names {
        match PassDirection::NAMES.iter().find(|(w, _)| *w == n.text) {
            Some((_, d)) => {
                if *d == PassDirection::Across && (min_players..=max_players).any(|p| p % 2 == 1) {
                    errors.push(Diagnostic::error(
                        "`across` needs a table of an even size: no seat sits opposite at an odd one",
                        n.loc.clone(),
                    ).with_help(Some(format!(
                        "this ruleset seats {min_players} to {max_players}; set `min_players` and `max_players` to even sizes, or pass `left` and `right` only"
                    ))));
                }
                directions.push(*d);
            }
            None => errors.push(
                Diagnostic::error(
                    format!("unknown pass direction `{}`", n.text),
                    n.loc.clone(),
                )
                .with_help(
                    did_you_mean(n.text, PassDirection::NAMES.iter().map(|(w, _)| *w)).or_else(
                        || Some("a direction is `left`, `right`, `across` or `none`".into()),
                    ),
                ),
            ),
        }
    }
    (cards_ok && directions.len() == names.len()).then_some(Passing {
        cards: cards as u32,
        directions,
    })
}

/// `follow` (a named rule set) and `follow_rules` (the flags, which win), or `None` when neither
/// is given.
pub(super) fn follow_rules(
    r: &mut TableReader,
    errors: &mut Vec<Diagnostic>,
) -> Option<FollowRules> {
    let named = choice(r, "follow", &FollowRules::NAMED, errors);
    let flags = r.strings("follow_rules", errors);
    if flags.is_empty() {
        return named;
    }
    let mut rules = FollowRules::FREE;
    for f in &flags {
        match f.text {
            "suit" => rules.suit = true,
            "head" => rules.head = true,
            "trump" => rules.trump = true,
            "overtrump" => rules.overtrump = true,
            other => errors.push(
                Diagnostic::error(format!("unknown follow rule `{other}`"), f.loc.clone())
                    .with_help(
                        did_you_mean(other, FollowRules::FLAGS.iter().copied()).or_else(|| {
                            Some(
                                "the follow rules are `suit`, `head`, `trump` and `overtrump`"
                                    .into(),
                            )
                        }),
                    ),
            ),
        }
    }
    Some(rules)
}

/// `[flow.auction]` of a trick-taking game, with its `[[flow.auction.contract]]`s; it needs a
/// `pass` declaration.
pub(super) fn auction<'a>(
    t: &'a Table,
    loc: &Loc,
    deck: &Deck,
    sections: &Sections,
    (orders, calls, alone_at): (
        &mut Vec<super::trick_order::OrderRules<'a>>,
        &mut Vec<Option<super::partners::CallKeys<'a>>>,
        &mut Vec<Option<Loc>>,
    ),
    errors: &mut Vec<Diagnostic>,
) -> Option<Auction> {
    let mut r = TableReader::new(t, loc.clone(), "`[flow.auction]`").defined_by(&keys::AUCTION);
    let minimum = r.int("minimum", errors);
    let step = r.int("step", errors);
    let maximum = r.int("maximum", errors);
    let values = r.boolean("values", errors).is_none_or(|(b, _)| b);
    let listed_at = r.item("bids").map(|i| i.loc.clone());
    let listed = listed_bids(
        &mut r,
        listed_at.as_ref(),
        [minimum, step, maximum].map(|k| k.map(|(_, at)| at.clone())),
        errors,
    );
    let passed_out_at = r.item("passed_out").map(|i| i.loc.clone());
    let passed_out = choice(
        &mut r,
        "passed_out",
        &[
            ("dealer", PassedOut::Dealer),
            ("redeal", PassedOut::Redeal),
            ("forehand", PassedOut::Forehand),
        ],
        errors,
    )
    .unwrap_or(PassedOut::Redeal);
    let first_lead = choice(
        &mut r,
        "first_lead",
        &[
            ("after-dealer", FirstLead::AfterDealer),
            ("declarer", FirstLead::Declarer),
        ],
        errors,
    )
    .unwrap_or(FirstLead::AfterDealer);
    let declarer_alone = choice(
        &mut r,
        "sides",
        &[("teams", false), ("declarer-alone", true)],
        errors,
    )
    .unwrap_or(false);
    let turned_up_at = r
        .boolean("turned_up", errors)
        .and_then(|(b, at)| b.then_some(at));
    let search_reads_bids = r
        .boolean("search_reads_bids", errors)
        .is_none_or(|(b, _)| b);
    let mut contracts: Vec<Contract> = Vec::new();
    // Where each contract's `bid` is written, for the checks against the plain bids below.
    let mut bids_at: Vec<Loc> = Vec::new();
    for (ct, cl) in r.tables("contract", errors) {
        let mut c = TableReader::new(ct, cl.clone(), "a `[[flow.auction.contract]]`")
            .defined_by(&keys::CONTRACT);
        let id = c.required_string("id", errors);
        let name = c.string("name", errors);
        let description = c.string("description", errors);
        let bid = c.int("bid", errors);
        let follow = follow_rules(&mut c, errors);
        let trumps = c.boolean("trumps", errors).is_none_or(|(b, _)| b);
        let value = c.int("value", errors);
        let goal = contract_goal(&mut c, cl, errors);
        let takes_talon = c.boolean("talon", errors).is_some_and(|(b, _)| b);
        let trump_cards = c.string("trump_cards", errors);
        let own_order = super::trick_order::OrderRules {
            no_trumps: !trumps && trump_cards.is_none(),
            trump_cards,
            trump_order: c.strings("trump_order", errors),
            card_order: c.strings("card_order", errors),
            at: Some(cl.clone()),
            inherits_trumps: false,
        };
        let trump_suit = c.string("trump_suit", errors).and_then(|s| {
            let found = deck.suits.iter().position(|x| x.id == s.text);
            if found.is_none() {
                errors.push(
                    Diagnostic::error(
                        format!("the deck `{}` has no suit `{}`", deck.id, s.text),
                        s.loc.clone(),
                    )
                    .with_help(did_you_mean(s.text, deck.suits.iter().map(|x| x.id.as_str()))),
                );
            } else if !trumps {
                errors.push(
                    Diagnostic::error(
                        "a contract played without trumps (`trumps = false`) fixes no `trump_suit`",
                        s.loc.clone(),
                    )
                    .with_help(Some(
                        "remove `trumps = false` to play with this suit as trumps, or remove `trump_suit`".into(),
                    )),
                );
            }
            found.filter(|_| trumps)
        });
        let call = super::partners::call_keys(&mut c, errors);
        let alone = (c.boolean("alone", errors)).and_then(|(b, at)| b.then(|| at.clone()));
        let lead = choice(
            &mut c,
            "first_lead",
            &[
                ("after-dealer", FirstLead::AfterDealer),
                ("declarer", FirstLead::Declarer),
            ],
            errors,
        );
        if bid.is_none() && c.item("bid").is_none() {
            c.missing("bid", errors);
        }
        c.finish(errors);
        let (Some(id), Some((bid, bid_at))) = (id, bid) else {
            continue;
        };
        if !check_ident(&id, errors) {
            continue;
        }
        if bid < 1 {
            errors.push(Diagnostic::error(
                format!("a contract's `bid` must be positive, found {bid}"),
                bid_at.clone(),
            ));
            continue;
        }
        if let Some(other) = contracts.iter().find(|o| o.bid == bid || o.id == id.text) {
            errors.push(Diagnostic::error(
                format!(
                    "contract `{}` has the id or the bid ({bid}) of contract `{}`",
                    id.text, other.id
                ),
                id.loc.clone(),
            ));
            continue;
        }
        bids_at.push(bid_at.clone());
        contracts.push(Contract {
            id: id.text.to_string(),
            name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
            description: description.map_or_else(String::new, |d| d.text.to_string()),
            bid,
            follow,
            trumps,
            value: value.map_or(bid, |(v, _)| v),
            goal,
            talon: takes_talon,
            first_lead: lead,
            trump_suit,
            orders: 0,
            call: None,
            alone: alone.is_some(),
        });
        orders.push(own_order);
        calls.push(call);
        alone_at.push(alone);
    }
    r.finish(errors);
    // A list of bids gives the ladder itself: its lowest, its highest and its smallest step.
    let (minimum, step, maximum) = match listed.as_slice() {
        [] => (minimum, step, maximum),
        [first, .., last] | [first @ last] => {
            let at = listed_at.as_ref().unwrap_or(loc);
            let gap = listed.windows(2).map(|w| w[1] - w[0]).min().unwrap_or(1);
            (Some((*first, at)), Some((gap, at)), Some((*last, at)))
        }
    };
    let minimum = match minimum {
        Some((n, _)) if n >= 1 => n,
        Some((n, at)) => {
            errors.push(Diagnostic::error(
                format!("`minimum` must be positive, found {n}"),
                at.clone(),
            ));
            1
        }
        // A list of `bids` that could not be read is reported already.
        None if values && listed_at.is_some() => 1,
        None if values => {
            errors.push(
                Diagnostic::error("`[flow.auction]` needs `minimum`", loc.clone())
                    .with_help(Some("the lowest bid, e.g. `minimum = 100`".into())),
            );
            1
        }
        None => contracts.iter().map(|c| c.bid).min().unwrap_or(1),
    };
    let step = match step {
        Some((n, _)) if n >= 1 => n,
        Some((n, at)) => {
            errors.push(Diagnostic::error(
                format!("`step` must be positive, found {n}"),
                at.clone(),
            ));
            1
        }
        None => 1,
    };
    // The bids offered at once: at most 60 steps above the lowest unless `maximum` says.
    let maximum = match maximum {
        Some((n, _)) if !listed.is_empty() => n,
        Some((n, _)) if n >= minimum && (n - minimum) / step <= 200 => n,
        Some((n, at)) => {
            errors.push(Diagnostic::error(
                format!(
                    "`maximum` must be from `minimum` ({minimum}) to 200 steps above it, found {n}"
                ),
                at.clone(),
            ));
            minimum
        }
        None => minimum + 60 * step,
    };
    // A bid names one thing: a contract bid at a value the ladder of plain bids offers would
    // take that plain bid's place, and a record's or `yaku score`'s bid of that value could
    // mean either.
    if values {
        for (c, at) in contracts.iter().zip(&bids_at) {
            if on_ladder(&listed, (minimum, step, maximum), c.bid) {
                let between = if !listed.is_empty() {
                    "at a value the list of `bids` leaves out".to_string()
                } else if step > 1 {
                    format!(
                        "between two plain bids (`bid = {}` ranks above {} and below {})",
                        c.bid + step / 2,
                        c.bid,
                        c.bid + step
                    )
                } else {
                    "below `minimum`".to_string()
                };
                errors.push(
                    Diagnostic::error(
                        format!(
                            "contract `{}` is bid {}, which is also a plain bid of the auction ({})",
                            c.id,
                            c.bid,
                            if listed.is_empty() {
                                format!("{minimum} to {maximum} in steps of {step}")
                            } else {
                                "in its list of `bids`".to_string()
                            }
                        ),
                        at.clone(),
                    )
                    .with_help(Some(format!(
                        "a bid names one thing: place the contract {between} or above `maximum`"
                    ))),
                );
            }
        }
    }
    if !values && contracts.is_empty() {
        errors.push(Diagnostic::error(
            "an auction without value bids (`values = false`) needs a `[[flow.auction.contract]]`",
            loc.clone(),
        ));
    }
    let pass = declared(sections, &["pass"]).first().copied();
    if pass.is_none() {
        errors.push(
            Diagnostic::error(
                "`[flow.auction]` needs a `[[declaration]]` with `effect = \"pass\"`",
                loc.clone(),
            )
            .with_help(Some(
                "add `[[declaration]]` with `id = \"pass\"` and `effect = \"pass\"`: how a player passes".into(),
            )),
        );
    }
    let order_up = declared(sections, &["order_up"]).first().copied();
    if let Some(at) = &turned_up_at {
        turned_up_checks(order_up, sections, at, errors);
        if passed_out == PassedOut::Forehand {
            errors.push(
                Diagnostic::error(
                    "with `turned_up = true`, `passed_out` is `redeal` or `dealer` (stick the dealer), not `forehand`",
                    passed_out_at.clone().unwrap_or_else(|| Loc::clone(at)),
                )
                .with_help(Some(
                    "`passed_out = \"dealer\"`: the dealer may not pass in the second round".into(),
                )),
            );
        }
    }
    Some(Auction {
        minimum,
        step,
        maximum,
        listed,
        values,
        contracts,
        passed_out,
        first_lead,
        pass: pass?,
        name_trump: declared(sections, &["trump"]).first().copied(),
        declarer_alone,
        search_reads_bids,
        call: declared(sections, &["call"]).first().copied(),
        turned_up: turned_up_at.is_some(),
        order_up,
    })
}

/// The most bids a list of `bids` holds (every open bid is offered at once, as with a ladder of
/// `minimum` to `maximum`).
const MOST_LISTED_BIDS: usize = 200;

/// `bids` of `[flow.auction]` (at `at`): the plain bids allowed, ascending (Skat's 18, 20, 22,
/// 23, ...), in place of `minimum`, `step` and `maximum` (`ladder`, refused beside it); empty
/// when not given or wrong.
fn listed_bids(
    r: &mut TableReader,
    at: Option<&Loc>,
    ladder: [Option<Loc>; 3],
    errors: &mut Vec<Diagnostic>,
) -> Vec<i64> {
    let Some(at) = at else { return Vec::new() };
    let list = match int_list(r, "bids", 1..=1_000_000, errors) {
        Ok(Some(list)) => list.into_iter().map(i64::from).collect::<Vec<_>>(),
        _ => return Vec::new(),
    };
    let beside: Vec<String> = ["minimum", "step", "maximum"]
        .iter()
        .zip(&ladder)
        .filter(|(_, given)| given.is_some())
        .map(|(key, _)| format!("`{key}`"))
        .collect();
    if !beside.is_empty() {
        errors.push(
            Diagnostic::error(format!("`bids` with {}", beside.join(", ")), at.clone()).with_help(
                Some(format!(
                    "`bids` lists every plain bid: leave out {} (`unset = [\"minimum\", \"step\", \"maximum\"]` where a base gives them)",
                    beside.join(", ")
                )),
            ),
        );
    }
    if list.is_empty() || list.len() > MOST_LISTED_BIDS {
        errors.push(Diagnostic::error(
            format!(
                "`bids` must list from 1 to {MOST_LISTED_BIDS} bids, found {}",
                list.len()
            ),
            at.clone(),
        ));
        return Vec::new();
    }
    if let Some(w) = list.windows(2).find(|w| w[1] <= w[0]) {
        errors.push(
            Diagnostic::error(
                format!("`bids` must rise: {} comes after {}", w[1], w[0]),
                at.clone(),
            )
            .with_help(Some(
                "list the bids from the lowest, each once: `[18, 20, 22, 23, 24]`".into(),
            )),
        );
        return Vec::new();
    }
    list
}

/// `turned_up = true` (at `at`) needs an `order_up` and a `trump` declaration.
fn turned_up_checks(
    order_up: Option<DeclId>,
    sections: &Sections,
    at: &Loc,
    errors: &mut Vec<Diagnostic>,
) {
    if order_up.is_none() {
        errors.push(
            Diagnostic::error(
                "`turned_up = true` needs a `[[declaration]]` with `effect = \"order_up\"`",
                at.clone(),
            )
            .with_help(Some(
                "add one: in the first round a seat orders up the turned card's suit with it"
                    .into(),
            )),
        );
    }
    if declared(sections, &["trump"]).is_empty() {
        errors.push(Diagnostic::error(
            "`turned_up = true` needs a `[[declaration]]` with `effect = \"trump\"`: in the second round a seat names a suit with it",
            at.clone(),
        ));
    }
}

/// A contract's goal: `points` (by the end of trick `by_trick`), `min_tricks` (a number or
/// `"all"`) and `max_tricks`.
pub(super) fn contract_goal(
    c: &mut TableReader,
    loc: &Loc,
    errors: &mut Vec<Diagnostic>,
) -> ContractGoal {
    super::goal::goal(c, true, loc, errors)
}

/// The marriage shorthand (a declaration of `effect = "marriage"`, with `[flow] marriage`,
/// `marriage_points`, `trump_marriage_points`, `marriage_counts`) as the two melds it stands
/// for: `marriage` in a plain suit and `trump-marriage` in trumps, of one class, shown on one's
/// lead by leading one of their cards, their points added to the card points.
pub(super) fn marriage_shorthand(
    melds: &mut Vec<Meld>,
    decl: DeclId,
    kinds: Vec<usize>,
    [plain, trump]: [i64; 2],
    needs_trick: bool,
    at: &Loc,
    errors: &mut Vec<Diagnostic>,
) {
    for (id, name, suit, points) in [
        ("marriage", "Marriage", MeldSuit::Plain, plain),
        (
            "trump-marriage",
            "Marriage in trumps",
            MeldSuit::Trump,
            trump,
        ),
    ] {
        if melds.iter().any(|m| m.id == id) {
            errors.push(
                Diagnostic::error(
                    format!("duplicate meld id `{id}`: the `marriage` declaration stands for melds `marriage` and `trump-marriage`"),
                    at.clone(),
                )
                .with_help(Some(
                    "write the marriage as `[[meld]]`s shown with a declaration of `effect = \"meld\"`, or give the other meld another id".into(),
                )),
            );
            continue;
        }
        melds.push(Meld {
            id: id.to_string(),
            name: name.to_string(),
            class: "marriage".to_string(),
            suit,
            kinds: kinds.clone(),
            cards: Vec::new(),
            copies: 1,
            pattern: MeldPattern::Listed,
            ranks: Vec::new(),
            points,
            moment: MeldMoment::Lead,
            leads_its_card: true,
            needs_trick,
            adds_to: MeldAddsTo::Points,
            declaration: Some(decl),
        });
    }
}

/// `[[meld]]`: the melds of a trick-taking game. A meld shown after play is shown with a
/// `meld` declaration (its `declaration`, else the first), and one shown on winning a trick
/// needs a `pass` declaration to show none.
pub(super) fn melds(
    sections: &Sections,
    deck: &Deck,
    rank: Option<usize>,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Meld> {
    let tables = sections.melds;
    let meld_declarations = declared(sections, &["meld"]);
    let mut out: Vec<Meld> = Vec::new();
    // The combinations the melds kept so far stand for, with one trump suit at most.
    let mut combined = 0;
    for (t, l) in tables {
        let mut r = TableReader::new(t, (*l).clone(), "a `[[meld]]`").defined_by(&keys::MELD);
        let id = r.required_string("id", errors);
        let name = r.string("name", errors);
        let class = r.string("class", errors);
        let suit_at = r.item("suit").map(|i| i.loc.clone());
        let suit = choice(
            &mut r,
            "suit",
            &[
                ("trump", MeldSuit::Trump),
                ("plain", MeldSuit::Plain),
                ("any", MeldSuit::Any),
                ("each", MeldSuit::Each),
            ],
            errors,
        );
        let kinds = r.strings("kinds", errors);
        let cards = r.strings("cards", errors);
        let copies_at = r.item("copies").map(|i| i.loc.clone());
        let copies = match r.int("copies", errors) {
            Some((n, _)) if (1..=8).contains(&n) => n as u32,
            Some((n, at)) => {
                errors.push(Diagnostic::error(
                    format!("`copies` must be from 1 to 8, found {n}"),
                    at.clone(),
                ));
                1
            }
            None => 1,
        };
        let pattern = pattern(&mut r, errors);
        let ranks_at = r.item("ranks").map(|i| i.loc.clone());
        let ranks: Vec<i64> = int_list(&mut r, "ranks", 0..=1_000_000, errors)
            .ok()
            .flatten()
            .unwrap_or_default()
            .into_iter()
            .map(i64::from)
            .collect();
        let points = r.int("points", errors);
        if points.is_none() && r.item("points").is_none() {
            r.missing("points", errors);
        }
        let moment = choice(
            &mut r,
            "moment",
            &[
                ("before-play", MeldMoment::BeforePlay),
                ("lead", MeldMoment::Lead),
                ("won-trick", MeldMoment::WonTrick),
            ],
            errors,
        )
        .unwrap_or(MeldMoment::BeforePlay);
        let lead_at = r.item("lead").map(|i| i.loc.clone());
        let leads_its_card = choice(
            &mut r,
            "lead",
            &[("its-card", true), ("any", false)],
            errors,
        )
        .unwrap_or(false);
        let needs_trick = choice(
            &mut r,
            "counts",
            &[("at-once", false), ("after-first-trick", true)],
            errors,
        )
        .unwrap_or(false);
        let adds_to = choice(
            &mut r,
            "adds_to",
            &[("melds", MeldAddsTo::Melds), ("points", MeldAddsTo::Points)],
            errors,
        )
        .unwrap_or(MeldAddsTo::Melds);
        let declaration_id = r.string("declaration", errors);
        r.finish(errors);
        let Some(id) = id else { continue };
        if let Some(at) = lead_at.filter(|_| moment != MeldMoment::Lead) {
            errors.push(
                Diagnostic::error(
                    format!(
                        "meld `{}`: `lead` is for a meld shown on one's lead",
                        id.text
                    ),
                    at,
                )
                .with_help(Some("add `moment = \"lead\"`, or remove `lead`".into())),
            );
        }
        let declaration = match (moment, &declaration_id) {
            (MeldMoment::BeforePlay, Some(d)) => {
                errors.push(
                    Diagnostic::error(
                        format!(
                            "meld `{}` is shown before play by every seat: it has no `declaration`",
                            id.text
                        ),
                        d.loc.clone(),
                    )
                    .with_help(Some(
                        "give it `moment = \"lead\"` or `\"won-trick\"`, or remove `declaration`"
                            .into(),
                    )),
                );
                None
            }
            (MeldMoment::BeforePlay, None) => None,
            (_, Some(d)) => {
                let found = meld_declarations
                    .iter()
                    .copied()
                    .find(|&i| sections.declarations[i.0 as usize].0.id == d.text);
                if found.is_none() {
                    let ids = meld_declarations
                        .iter()
                        .map(|i| sections.declarations[i.0 as usize].0.id.as_str());
                    errors.push(
                        Diagnostic::error(
                            format!("no declaration `{}` with `effect = \"meld\"`", d.text),
                            d.loc.clone(),
                        )
                        .with_help(did_you_mean(d.text, ids).or_else(|| {
                            Some(
                                "add a `[[declaration]]` with this id and `effect = \"meld\"`: the move that shows the meld".into(),
                            )
                        })),
                    );
                }
                found
            }
            (_, None) => {
                let first = meld_declarations.first().copied();
                if first.is_none() {
                    errors.push(
                        Diagnostic::error(
                            format!(
                                "meld `{}` is shown after play, but no declaration shows it",
                                id.text
                            ),
                            id.loc.clone(),
                        )
                        .with_help(Some(
                            "add a `[[declaration]]` with `effect = \"meld\"`: the move that shows it (its id names the move in records)".into(),
                        )),
                    );
                }
                first
            }
        };
        if moment == MeldMoment::WonTrick && declared(sections, &["pass"]).is_empty() {
            errors.push(
                Diagnostic::error(
                    format!(
                        "meld `{}` is shown on winning a trick: the winner needs a `pass` declaration to show none",
                        id.text
                    ),
                    id.loc.clone(),
                )
                .with_help(Some(
                    "add `[[declaration]]` with `id = \"pass\"` and `effect = \"pass\"`".into(),
                )),
            );
        }
        if !check_ident(&id, errors) {
            continue;
        }
        if out.iter().any(|m| m.id == id.text) {
            errors.push(Diagnostic::error(
                format!("duplicate meld id `{}`", id.text),
                id.loc.clone(),
            ));
            continue;
        }
        if out.len() == MAX_MELDS {
            errors.push(
                Diagnostic::error(
                    format!(
                        "a ruleset holds at most {MAX_MELDS} melds: `{}` is one more",
                        id.text
                    ),
                    id.loc.clone(),
                )
                .with_help(Some(
                    "write one meld for many combinations: a pattern (`alike`: n cards of one rank; `run`: n in a row in a suit), or `kinds` with `suit`".into(),
                )),
            );
            continue;
        }
        let mut kind_ids = Vec::new();
        for k in &kinds {
            match deck.kinds.iter().position(|d| d.id == k.text) {
                Some(i) => kind_ids.push(i),
                None => errors.push(
                    Diagnostic::error(
                        format!("the deck `{}` has no kind `{}`", deck.id, k.text),
                        k.loc.clone(),
                    )
                    .with_help(did_you_mean(
                        k.text,
                        deck.kinds.iter().map(|k| k.id.as_str()),
                    )),
                ),
            }
        }
        let mut card_ids = Vec::new();
        for c in &cards {
            match deck.card_by_id(c.text) {
                Some(card) => card_ids.push(card),
                None => errors.push(
                    Diagnostic::error(format!("unknown card `{}`", c.text), c.loc.clone())
                        .with_help(did_you_mean(c.text, deck.card_ids())),
                ),
            }
        }
        let Ok(pattern) = pattern else { continue };
        let listed = pattern.is_none();
        let suit = match (pattern.clone(), suit, kinds.is_empty(), cards.is_empty()) {
            (Some(p), suit, _, true) => {
                let Some(suit) = pattern_suit(
                    &id,
                    p,
                    suit,
                    [suit_at.as_ref(), copies_at.as_ref()],
                    deck,
                    errors,
                ) else {
                    continue;
                };
                suit
            }
            (Some((_, at)), ..) => {
                errors.push(
                    Diagnostic::error(
                        format!("meld `{}`: a pattern has no `cards`", id.text),
                        at.clone(),
                    )
                    .with_help(Some(
                        "a pattern finds its cards by rank: give `kinds` or `ranks` to narrow them, or write the meld with `cards` and no pattern".into(),
                    )),
                );
                continue;
            }
            (None, Some(s), false, true) => s,
            (None, None, true, false) => MeldSuit::Cards,
            _ => {
                errors.push(
                    Diagnostic::error(
                        format!("meld `{}` needs `kinds` with `suit`, or `cards`", id.text),
                        suit_at.unwrap_or_else(|| id.loc.clone()),
                    )
                    .with_help(Some(
                        "`kinds = [\"king\", \"queen\"]` with `suit = \"trump\"` (or `plain`, `any`, `each`), or `cards = [\"spades-queen\", \"diamonds-jack\"]` for exactly those cards".into(),
                    )),
                );
                continue;
            }
        };
        if let (true, Some(at)) = (listed, &ranks_at) {
            errors.push(
                Diagnostic::error(
                    format!("meld `{}`: `ranks` narrows a pattern", id.text),
                    at.clone(),
                )
                .with_help(Some("add `alike` or `run`, or remove `ranks`".into())),
            );
            continue;
        }
        let Some((points, _)) = points else { continue };
        let (pattern, pattern_at) = match pattern {
            Some((p, at)) => (p, Some(at)),
            None => (MeldPattern::Listed, None),
        };
        let meld = Meld {
            id: id.text.to_string(),
            name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
            class: class.map_or_else(|| id.text.to_string(), |c| c.text.to_string()),
            suit,
            kinds: kind_ids,
            cards: card_ids,
            copies,
            pattern,
            ranks,
            points,
            moment,
            leads_its_card,
            needs_trick,
            adds_to,
            declaration,
        };
        let count = combinations(deck, rank, &meld);
        if let Some(at) = pattern_at
            && count == Some(0)
        {
            errors.push(
                Diagnostic::error(
                    format!("meld `{}`: no cards of the deck `{}` make it", id.text, deck.id),
                    at,
                )
                .with_help(Some(
                    "a pattern matches by the rank tricks follow (`[flow] rank`): check its count, `suit`, `kinds` and `ranks` against the deck".into(),
                )),
            );
            continue;
        }
        combined += count.unwrap_or(0);
        if combined > MAX_MELD_COMBINATIONS {
            errors.push(
                Diagnostic::error(
                    format!(
                        "the melds stand for at most {MAX_MELD_COMBINATIONS} combinations with one trump suit: with `{}` they stand for {combined}",
                        id.text
                    ),
                    id.loc.clone(),
                )
                .with_help(Some(
                    "narrow the patterns with `kinds`, `ranks` or `suit`, or write fewer melds".into(),
                )),
            );
            continue;
        }
        out.push(meld);
    }
    for &d in &meld_declarations {
        if !out.iter().any(|m| m.declaration == Some(d)) {
            let (decl, at, _) = &sections.declarations[d.0 as usize];
            errors.push(
                Diagnostic::error(
                    format!("declaration `{}` shows melds, but no meld is shown with it", decl.id),
                    at.clone(),
                )
                .with_help(Some(
                    "give a `[[meld]]` `moment = \"lead\"` or `\"won-trick\"` (and `declaration` with this id where there are several), or remove the declaration".into(),
                )),
            );
        }
    }
    out
}

/// `alike` or `run`, if given: the pattern and where it is written (`Err` when written wrong,
/// said in `errors`).
fn pattern(
    r: &mut TableReader,
    errors: &mut Vec<Diagnostic>,
) -> Result<Option<(MeldPattern, Loc)>, ()> {
    let alike = r.int("alike", errors).map(|(n, at)| (n, at.clone()));
    let run = r.int("run", errors).map(|(n, at)| (n, at.clone()));
    let (key, n, at) = match (alike, run) {
        (Some(_), Some((_, at))) => {
            errors.push(
                Diagnostic::error("a meld has `alike` or `run`, not both", at)
                    .with_help(Some("write two melds".into())),
            );
            return Err(());
        }
        (Some((n, at)), None) => ("alike", n, at),
        (None, Some((n, at))) => ("run", n, at),
        (None, None) => return Ok(None),
    };
    if !(2..=64).contains(&n) {
        errors.push(Diagnostic::error(
            format!("`{key}` must be from 2 to 64, found {n}"),
            at,
        ));
        return Err(());
    }
    let n = n as u32;
    Ok(Some((
        if key == "alike" {
            MeldPattern::Alike(n)
        } else {
            MeldPattern::Run(n)
        },
        at,
    )))
}

/// The suit rule of a pattern meld `id`, checked: `alike` takes no `copies` (it counts copies
/// itself) and any `suit` (none: any suits, mixed), `run` no `each` (`any` unless given).
/// `at` holds where `suit` and `copies` are written.
fn pattern_suit(
    id: &Str,
    pattern: (MeldPattern, Loc),
    suit: Option<MeldSuit>,
    at: [Option<&Loc>; 2],
    deck: &Deck,
    errors: &mut Vec<Diagnostic>,
) -> Option<MeldSuit> {
    match (pattern.0, suit) {
        (MeldPattern::Alike(_), _) if at[1].is_some() => {
            errors.push(
                Diagnostic::error(
                    format!(
                        "meld `{}`: `alike` counts copies itself: it has no `copies`",
                        id.text
                    ),
                    at[1].cloned().unwrap_or(pattern.1),
                )
                .with_help(Some(
                    "`alike = 2` with `suit = \"any\"` is both copies of a card; remove `copies`"
                        .into(),
                )),
            );
            None
        }
        (MeldPattern::Alike(n), Some(MeldSuit::Each)) if (n as usize) < deck.suits.len() => {
            errors.push(
                Diagnostic::error(
                    format!(
                        "meld `{}`: `alike = {n}` with `suit = \"each\"` needs at least {} cards, one of each suit of the deck `{}`",
                        id.text,
                        deck.suits.len(),
                        deck.id
                    ),
                    pattern.1,
                )
                .with_help(Some(
                    "raise `alike`, or remove `suit` to take the cards from any suits".into(),
                )),
            );
            None
        }
        (MeldPattern::Alike(_), None) => Some(MeldSuit::Mixed),
        (MeldPattern::Run(_), Some(MeldSuit::Each)) => {
            errors.push(
                Diagnostic::error(
                    format!("meld `{}`: a run is all of one suit", id.text),
                    at[0].cloned().unwrap_or(pattern.1),
                )
                .with_help(Some(
                    "write `suit = \"trump\"`, `\"plain\"` or `\"any\"`".into(),
                )),
            );
            None
        }
        (MeldPattern::Run(_), None) => Some(MeldSuit::Any),
        (_, Some(s)) => Some(s),
        (MeldPattern::Listed, None) => None,
    }
}

/// The most combinations (instances) meld `meld` stands for with any one trump suit or none (a
/// pattern's found by the ranks of the attribute `rank`; `None` when that is not known).
fn combinations(deck: &Deck, rank: Option<usize>, meld: &Meld) -> Option<usize> {
    let rank = rank.and_then(|r| deck.attributes.get(r))?;
    let mut found = Vec::new();
    (0..deck.suits.len())
        .map(Some)
        .chain([None])
        .map(|trump| {
            found.clear();
            crate::ruleset::melds::instances(deck, &rank.values, 0, meld, trump, &mut found);
            found.len()
        })
        .max()
}

/// Sample facts of finished hands, one per way a hand ends, so that `yaku validate` runs a
/// trick-taking ruleset's scoring script on each (with the flow's seats, bids and contracts).
pub(in crate::ruleset) fn tricks_sample_facts(
    flow: &TricksFlow,
) -> Vec<Vec<(&'static str, FactValue)>> {
    let ends = [
        "claim",
        "false_claim",
        "failed_close",
        "last_trick",
        "passed_out",
        "made",
        "set",
    ];
    let seats = flow.players as usize;
    let side: Vec<FactValue> = (0..seats)
        .map(|s| FactValue::Int(i64::from(flow.teams.team_of(s) == flow.teams.team_of(0))))
        .collect();
    let opponent_seat = (1..seats)
        .find(|&s| flow.teams.team_of(s) != flow.teams.team_of(0))
        .unwrap_or(1);
    let mut bids: Vec<(i64, String, i64)> = vec![(0, String::new(), 0)];
    if let Some(a) = &flow.auction {
        bids.push((a.minimum, String::new(), 0));
        bids.push((a.maximum, String::new(), 0));
        bids.extend(a.contracts.iter().map(|c| (c.bid, c.id.clone(), c.value)));
    }
    let mut out = Vec::new();
    for end in ends {
        for (points_self, points_opponent, tricks_self, tricks_opponent, closer, melds) in [
            (70, 40, 3, 2, "none", 0),
            (66, 20, 4, 1, "self", 60),
            (80, 0, 5, 0, "opponent", 150),
            (30, 66, 0, 4, "none", 40),
        ] {
            // Each seat's own: this side's first seat and the other's hold the points and
            // tricks, the rest none.
            let by_seat = |v_self: i64, v_opp: i64| -> FactValue {
                FactValue::List(
                    (0..seats)
                        .map(|s| {
                            FactValue::Int(if s == 0 {
                                v_self
                            } else if s == opponent_seat {
                                v_opp
                            } else {
                                0
                            })
                        })
                        .collect(),
                )
            };
            for (bid, contract, value) in &bids {
                out.push(vec![
                    ("points_by_seat", by_seat(points_self, points_opponent)),
                    ("tricks_by_seat", by_seat(tricks_self, tricks_opponent)),
                    (
                        "won_by_seat",
                        FactValue::List(vec![FactValue::List(Vec::new()); seats]),
                    ),
                    ("last_trick_seat", FactValue::Int(0)),
                    ("tricks_played", FactValue::List(Vec::new())),
                    ("trump_suit", FactValue::Text(String::new())),
                    (
                        "dealt_hands",
                        FactValue::List(vec![FactValue::List(Vec::new()); seats]),
                    ),
                    ("dealt_talon", FactValue::List(Vec::new())),
                    ("end", FactValue::Text(end.into())),
                    ("points_self", FactValue::Int(points_self)),
                    ("points_opponent", FactValue::Int(points_opponent)),
                    ("tricks_self", FactValue::Int(tricks_self)),
                    ("tricks_opponent", FactValue::Int(tricks_opponent)),
                    ("closer", FactValue::Text(closer.into())),
                    ("melds_self", FactValue::Int(melds)),
                    ("melds_opponent", FactValue::Int(melds / 2)),
                    ("bid", FactValue::Int(*bid)),
                    ("contract", FactValue::Text(contract.clone())),
                    ("value", FactValue::Int(*value)),
                    ("seat", FactValue::Int(0)),
                    ("opponent_seat", FactValue::Int(opponent_seat as i64)),
                    ("side", FactValue::List(side.clone())),
                ]);
                if !flow.announcements.is_empty() {
                    // Every announcement made by this side, reached where it won.
                    let made = (flow.announcements.iter())
                        .map(|a| {
                            crate::ruleset::announcement_fact(
                                a,
                                0,
                                true,
                                points_self > points_opponent,
                            )
                        })
                        .collect();
                    let stake =
                        crate::ruleset::stake_of(flow.announcements.iter().map(|a| a.factor));
                    let last = out.last_mut().expect("pushed above");
                    last.push(("announcements", FactValue::List(made)));
                    last.push(("stake", FactValue::Int(stake)));
                }
            }
        }
    }
    out
}
