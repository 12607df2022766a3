//! How a trick-taking game's cards take tricks, read from `[flow]` and from each contract:
//! which cards are trumps (`trump_cards`, a card set that may name the hand's `trump_suit` and
//! its `partner_suit`), the order of the top trumps (`trump_order`), and the order within a
//! suit (`card_order`, else the `rank` attribute). Each set of rules becomes one
//! [`TrickOrder`] for each trump suit and one for none, built here once, so that play reads a
//! table instead of testing rules per card.

use super::*;
use crate::deck::{CardId, CardSet, Deck};
use crate::expr::{Context, Program};
use crate::ruleset::reader::Str;

/// The names a trump expression may use besides the deck's: the hand's trump suit and its
/// partner.
pub(super) const TRUMP_NAMES: [&str; 2] = ["trump_suit", "partner_suit"];

/// One set of rules of how cards take tricks, as written: the flow's, or a contract's.
#[derive(Default)]
pub(super) struct OrderRules<'a> {
    /// `trump_cards`: the cards that are trumps (none given: the trump suit's).
    pub trump_cards: Option<Str<'a>>,
    /// Played without trumps whatever the flow's `trump_cards` (a contract with
    /// `trumps = false` and no `trump_cards` of its own).
    pub no_trumps: bool,
    /// `trump_order`: the top trumps, highest first, above the other trumps.
    pub trump_order: Vec<Str<'a>>,
    /// `card_order`: the cards of every suit, highest first (none given: by `rank`).
    pub card_order: Vec<Str<'a>>,
    /// Where the rules are written (for errors about a key left out).
    pub at: Option<Loc>,
    /// The trumps and their order are the flow's, reported there: not again.
    pub inherits_trumps: bool,
}

impl OrderRules<'_> {
    /// True when the rules say nothing of their own (a contract played by the flow's).
    pub fn is_empty(&self) -> bool {
        self.trump_cards.is_none()
            && !self.no_trumps
            && self.trump_order.is_empty()
            && self.card_order.is_empty()
    }
}

/// `partner_suits`: the deck's suits in pairs (`["hearts", "diamonds", "clubs", "spades"]`),
/// each the other's partner; each suit's partner by index (`None`: it has none).
pub(super) fn partner_suits(
    listed: &[Str],
    deck: &Deck,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Option<usize>> {
    let mut partners = vec![None; deck.suits.len()];
    let ids: Vec<Option<usize>> = listed
        .iter()
        .map(|s| {
            let found = deck.suits.iter().position(|x| x.id == s.text);
            if found.is_none() {
                errors.push(
                    Diagnostic::error(
                        format!("the deck `{}` has no suit `{}`", deck.id, s.text),
                        s.loc.clone(),
                    )
                    .with_help(did_you_mean(
                        s.text,
                        deck.suits.iter().map(|x| x.id.as_str()),
                    )),
                );
            }
            found
        })
        .collect();
    if listed.len() % 2 == 1 {
        errors.push(
            Diagnostic::error(
                "`partner_suits` lists the suits in pairs, and this list has an odd length",
                listed[listed.len() - 1].loc.clone(),
            )
            .with_help(Some(
                "pair each suit with its partner: `[\"hearts\", \"diamonds\", \"clubs\", \"spades\"]`"
                    .into(),
            )),
        );
    }
    for (pair, at) in ids.chunks_exact(2).zip(listed.chunks_exact(2)) {
        let (Some(a), Some(b)) = (pair[0], pair[1]) else {
            continue;
        };
        if a == b || partners[a].is_some() || partners[b].is_some() {
            errors.push(
                Diagnostic::error(
                    format!(
                        "`partner_suits` pairs `{}` twice or with itself",
                        if partners[a].is_some() || a == b {
                            at[0].text
                        } else {
                            at[1].text
                        }
                    ),
                    at[1].loc.clone(),
                )
                .with_help(Some("each suit has one partner, another suit".into())),
            );
            continue;
        }
        partners[a] = Some(b);
        partners[b] = Some(a);
    }
    partners
}

/// The strength of each card within its suit by `card_order` (the first entry highest), or
/// `None` when it is not given; every card of the deck must be in exactly one entry.
pub(super) fn card_order(
    listed: &[Str],
    at: Option<&Loc>,
    deck: &Deck,
    vocab: &Vocab,
    errors: &mut Vec<Diagnostic>,
) -> Option<Vec<i64>> {
    if listed.is_empty() {
        return None;
    }
    let names = vocab.names(crate::ruleset::scope::CONSTANT);
    let cx = Context {
        pile: CardSet::EMPTY,
        facts: &[],
    };
    let mut strength = vec![0i64; deck.cards.len()];
    let mut placed = CardSet::EMPTY;
    let mut failed = false;
    for (i, s) in listed.iter().enumerate() {
        let Some(p) = compile_expr(s, crate::expr::Type::Set, &names, errors) else {
            failed = true;
            continue;
        };
        let cards = deck.with_copies(p.set(&cx));
        if let Some(c) = (cards & placed).first_card() {
            errors.push(
                Diagnostic::error(
                    format!(
                        "`card_order` places `{}` twice: here and in an entry before",
                        deck.card(c).id
                    ),
                    s.loc.clone(),
                )
                .with_help(Some(
                    "each card has one place in the order: write each entry's cards apart from the others' (`queen - hearts`)".into(),
                )),
            );
            failed = true;
        }
        if cards.is_empty() {
            errors.push(
                Diagnostic::error("this `card_order` entry holds no card", s.loc.clone())
                    .with_help(Some(
                        "an entry is a card set: a kind (`ace`), a card (`hearts-ace`) or a union of them".into(),
                    )),
            );
            failed = true;
        }
        for c in (cards - placed).iter() {
            strength[c.index()] = (listed.len() - i) as i64;
        }
        placed |= cards;
    }
    let missing = deck.all() - placed;
    if !failed && !missing.is_empty() {
        let names: Vec<&str> = missing
            .iter()
            .take(4)
            .map(|c| deck.card(c).id.as_str())
            .collect();
        errors.push(
            Diagnostic::error(
                format!(
                    "`card_order` leaves out {} card(s) of the deck: {}{}",
                    missing.len(),
                    names.join(", "),
                    if missing.len() > 4 { ", ..." } else { "" }
                ),
                at.cloned().unwrap_or_else(|| listed[0].loc.clone()),
            )
            .with_help(Some(
                "give every card a place, highest first: `[\"ace\", \"king\", \"queen\", \"jack\", \"ten\", \"nine\"]`".into(),
            )),
        );
    }
    Some(strength)
}

/// The orders `rules` give, one for each trump suit of the deck and one for none (the deck's
/// suit count), with `base` each card's strength within its suit (by `card_order` or the rank).
pub(super) fn trick_orders(
    rules: &OrderRules,
    deck: &Deck,
    base: &[i64],
    partners: &[Option<usize>],
    vocab: &Vocab,
    errors: &mut Vec<Diagnostic>,
) -> Vec<TrickOrder> {
    let suits = deck.suits.len();
    let mut unreported = Vec::new();
    let errors = if rules.inherits_trumps {
        &mut unreported
    } else {
        errors
    };
    let top = base.iter().copied().max().unwrap_or(0);
    let cx = Context {
        pile: CardSet::EMPTY,
        facts: &[],
    };
    // An entry of `trump_order` is reported once, for the first trump suit it is wrong with.
    let mut reported = vec![false; rules.trump_order.len()];
    let mut strays = Vec::new();
    let mut orders = Vec::with_capacity(suits + 1);
    for named in 0..=suits {
        let suit_cards = deck.suits.get(named).map_or(CardSet::EMPTY, |s| s.cards);
        let partner = (partners.get(named).copied().flatten())
            .map_or(CardSet::EMPTY, |p| deck.suits[p].cards);
        let mut defs = vocab.options.clone();
        defs.push((TRUMP_NAMES[0].into(), Program::set_constant(suit_cards)));
        defs.push((TRUMP_NAMES[1].into(), Program::set_constant(partner)));
        let names = crate::expr::Names {
            deck,
            facts: crate::ruleset::scope::CONSTANT,
            defs: &defs,
            macros: &vocab.defines,
            carried: &vocab.carried,
        };
        // The expressions are the same for every suit: their errors are reported once.
        let mut again = Vec::new();
        let errs = if named == 0 { &mut *errors } else { &mut again };
        let trumps = match &rules.trump_cards {
            _ if rules.no_trumps => CardSet::EMPTY,
            None => suit_cards,
            Some(s) => compile_expr(s, crate::expr::Type::Set, &names, errs)
                .map_or(suit_cards, |p| deck.with_copies(p.set(&cx))),
        };
        let mut strength = [0i64; CardSet::CAPACITY];
        for (i, &r) in base.iter().enumerate() {
            strength[i] = r;
        }
        let mut listed = CardSet::EMPTY;
        let n = rules.trump_order.len();
        for (i, s) in rules.trump_order.iter().enumerate() {
            let Some(p) = compile_expr(s, crate::expr::Type::Set, &names, errs) else {
                reported[i] = true;
                continue;
            };
            let cards = deck.with_copies(p.set(&cx));
            let stray = (cards - trumps)
                .first_card()
                .or((cards & listed).first_card());
            if let Some(c) = stray {
                if !reported[i] && !trumps.is_empty() {
                    reported[i] = true;
                    let with = deck
                        .suits
                        .get(named)
                        .map_or("no trump suit".to_string(), |s| {
                            format!("{} as trumps", s.name)
                        });
                    let message = if listed.contains(c) {
                        format!(
                            "`trump_order` places `{}` twice: here and in an entry before (with {with})",
                            deck.card(c).id
                        )
                    } else {
                        format!(
                            "`trump_order` lists `{}`, which is not a trump (with {with})",
                            deck.card(c).id
                        )
                    };
                    strays.push(Diagnostic::error(message, s.loc.clone()).with_help(Some(
                        "list the top trumps, highest first, each a card set within `trump_cards`: `[\"clubs-queen\", \"jack & trump_suit\"]`".into(),
                    )));
                }
                continue;
            }
            for c in cards.iter() {
                strength[c.index()] = top + (n - i) as i64;
            }
            listed |= cards;
        }
        let mut suit_of = [0u8; CardSet::CAPACITY];
        for (i, card) in deck.cards.iter().enumerate() {
            suit_of[i] = if trumps.contains(CardId(i as u8)) {
                suits as u8
            } else {
                card.suit as u8
            };
        }
        let mut follows: Vec<CardSet> = deck.suits.iter().map(|s| s.cards - trumps).collect();
        follows.push(trumps);
        orders.push(TrickOrder {
            trumps,
            trump: suits as u8,
            follows,
            suit_of,
            strength,
        });
    }
    errors.append(&mut strays);
    if let Some(first) = rules.trump_order.first()
        && orders.iter().all(|o| o.trumps.is_empty())
    {
        errors.push(
            Diagnostic::error(
                "`trump_order` orders trumps, and these rules have none",
                first.loc.clone(),
            )
            .with_help(Some(
                "give `trump_cards`, or a trump suit (`trump`), or remove `trump_order`".into(),
            )),
        );
    }
    if partners.iter().all(Option::is_none) {
        let named = rules.trump_cards.iter().chain(&rules.trump_order);
        if let Some(s) = named.into_iter().find(|s| s.text.contains(TRUMP_NAMES[1])) {
            errors.push(
                Diagnostic::error(
                    "`partner_suit` names the trump suit's partner, and `partner_suits` pairs no suits",
                    s.loc.clone(),
                )
                .with_help(Some(
                    "pair the suits in `[flow]`: `partner_suits = [\"hearts\", \"diamonds\", \"clubs\", \"spades\"]`".into(),
                )),
            );
        }
    }
    orders
}
