//! Partnerships found by cards in a trick-taking game: `[flow] partner_cards` (the seats that
//! hold given cards play together) and a contract's `call` (the declarer names a card, whose
//! holder is its partner). Read apart from the rest of `[flow]` because both are card sets
//! checked against the deal, the auction and the contract's trumps once those are known.

use crate::deck::CardSet;
use crate::diag::{Diagnostic, Loc};
use crate::ruleset::model::*;
use crate::ruleset::reader::{Str, TableReader};
use crate::ruleset::vocab::*;

/// A contract's `call` keys as written, compiled once the deck's names are at hand.
pub(super) struct CallKeys<'a> {
    /// `call`: the cards that may be called.
    pub cards: Str<'a>,
    /// `call_needs_suit` (true unless set false).
    pub needs_suit: bool,
    /// `call_answer` (false unless set).
    pub answer: bool,
}

/// Reads a contract's `call`, `call_needs_suit` and `call_answer`; the last two without `call`
/// are refused where they are written.
pub(super) fn call_keys<'a>(
    c: &mut TableReader<'a>,
    errors: &mut Vec<Diagnostic>,
) -> Option<CallKeys<'a>> {
    let cards = c.string("call", errors);
    let needs_suit = c.boolean("call_needs_suit", errors);
    let answer = c.boolean("call_answer", errors);
    if cards.is_none() {
        for (key, at) in [("call_needs_suit", &needs_suit), ("call_answer", &answer)] {
            if let Some((_, at)) = at {
                errors.push(
                    Diagnostic::error(format!("`{key}` without `call`"), Loc::clone(at))
                        .with_help(Some(
                            "`call` names the cards the declarer may call (`call = \"ace\"`): give it, or remove the key".into(),
                        )),
                );
            }
        }
    }
    Some(CallKeys {
        cards: cards?,
        needs_suit: needs_suit.is_none_or(|(b, _)| b),
        answer: answer.is_some_and(|(b, _)| b),
    })
}

/// Compiles a contract's call: its card set (a constant set of the deck: `ace`); a set
/// naming no card is refused where it is written.
pub(super) fn compile_call(
    keys: &CallKeys,
    names: &crate::expr::Names,
    errors: &mut Vec<Diagnostic>,
) -> Option<Call> {
    let program = compile_expr(&keys.cards, crate::expr::Type::Set, names, errors)?;
    let cards = program.set(&crate::expr::Context {
        pile: CardSet::EMPTY,
        facts: &[],
    });
    if cards.is_empty() {
        errors.push(
            Diagnostic::error(
                format!("`call = \"{}\"` names no card of the deck", keys.cards.text),
                keys.cards.loc.clone(),
            )
            .with_help(Some(
                "name the cards the declarer may call: `ace` (any ace), `ace - hearts`".into(),
            )),
        );
        return None;
    }
    Some(Call {
        cards,
        needs_suit: keys.needs_suit,
        answer: keys.answer,
    })
}

/// The checks on partners by cards once the whole `[flow]` is read: `partner_cards` (at
/// `partner_at`) needs the whole deck dealt, no auction and no `teams`; a contract's `call`
/// needs the whole deck dealt, a `call` declaration, and a card left to call once its trumps
/// are known (`orders`: the rules' trick orders).
pub(super) struct PartnerChecks<'c> {
    pub partner_cards: CardSet,
    pub partner_at: Option<Loc>,
    pub deal_all: bool,
    pub teams: bool,
    pub auction: Option<&'c Auction>,
    pub call_at: Vec<Option<Loc>>,
    /// Where each contract's `alone = true` is written.
    pub alone_at: Vec<Option<Loc>>,
    pub orders: &'c [TrickOrder],
    pub suits: usize,
    pub loc: &'c Loc,
}

impl PartnerChecks<'_> {
    /// A contract played `alone` needs partners to sit out (`teams`), every card dealt (a seat
    /// that sits out draws nothing), and no partner called or found by cards.
    fn check_alone(&self, a: &Auction, errors: &mut Vec<Diagnostic>) {
        for (c, at) in a.contracts.iter().zip(&self.alone_at) {
            let Some(at) = at else { continue };
            let whys = [
                (
                    !self.teams,
                    "`alone` needs partnerships (`[flow] teams`): the declarer's partners sit out",
                ),
                (
                    a.declarer_alone,
                    "with `sides = \"declarer-alone\"` every declarer plays alone already: no partner sits out",
                ),
                (
                    !self.deal_all,
                    "`alone` needs every card dealt (`deal = \"all\"`): a seat that sits out draws no card",
                ),
                (
                    c.call.is_some(),
                    "a contract that calls a partner (`call`) cannot also be played `alone`",
                ),
            ];
            for (_, why) in whys.into_iter().filter(|(bad, _)| *bad) {
                errors.push(
                    Diagnostic::error(format!("contract `{}`: {why}", c.id), at.clone()).with_help(
                        Some(
                            "`alone = true`: the declarer plays alone, its partners lay their cards down unplayed (Five Hundred's misère, Euchre's going alone)".into(),
                        ),
                    ),
                );
            }
        }
    }

    pub(super) fn check(&self, errors: &mut Vec<Diagnostic>) {
        if let Some(at) = &self.partner_at {
            let whys = [
                (
                    !self.deal_all,
                    "`partner_cards` needs `deal = \"all\"`: every card of the set is held by a seat",
                ),
                (
                    self.auction.is_some(),
                    "`partner_cards` fixes the sides by the deal, so it takes no `[flow.auction]` (a contract that calls a partner has `call`)",
                ),
                (
                    self.teams,
                    "`partner_cards` and `teams` both say who plays together: keep one",
                ),
                (
                    self.partner_cards.is_empty(),
                    "`partner_cards` names no card of the deck",
                ),
            ];
            for (_, why) in whys.into_iter().filter(|(bad, _)| *bad) {
                errors.push(Diagnostic::error(why, at.clone()).with_help(Some(
                    "the seats holding a card of `partner_cards` (`clubs-queen`) play together against the others".into(),
                )));
            }
        }
        let Some(a) = self.auction else { return };
        self.check_alone(a, errors);
        let calls = a.contracts.iter().zip(&self.call_at);
        let mut any_call = false;
        for (c, at) in calls {
            let (Some(call), Some(at)) = (c.call, at) else {
                continue;
            };
            any_call = true;
            if !self.deal_all {
                errors.push(
                    Diagnostic::error(
                        format!(
                            "contract `{}` calls a partner, but not every card is dealt",
                            c.id
                        ),
                        at.clone(),
                    )
                    .with_help(Some(
                        "a called card must be in a seat's hand: write `[flow] deal = \"all\"`"
                            .into(),
                    )),
                );
            }
            if c.trump_suit.is_none() && c.trumps {
                errors.push(
                    Diagnostic::error(
                        format!(
                            "contract `{}` calls a partner, and its trumps are named after the auction",
                            c.id
                        ),
                        at.clone(),
                    )
                    .with_help(Some(
                        "a seat may bid a calling contract only with a card to call, which needs the trumps known: give the contract a `trump_suit` (or `trumps = false` with its own `trump_cards`)".into(),
                    )),
                );
                continue;
            }
            // The trump suit the contract is played with (none past the deck's suits).
            let per = self.suits + 1;
            let suits: Vec<usize> = vec![c.trump_suit.unwrap_or(self.suits)];
            let callable = suits.iter().any(|&s| {
                self.orders
                    .get(c.orders * per + s)
                    .is_some_and(|o| !(call.cards - o.trumps).is_empty())
            });
            if !callable {
                errors.push(
                    Diagnostic::error(
                        format!(
                            "contract `{}` has no card to call: every card of its `call` is a trump",
                            c.id
                        ),
                        at.clone(),
                    )
                    .with_help(Some(
                        "a trump is never called; name cards of the plain suits (`ace`)".into(),
                    )),
                );
            }
        }
        if any_call && a.call.is_none() {
            errors.push(
                Diagnostic::error(
                    "a contract calls a partner, and no `[[declaration]]` has `effect = \"call\"`",
                    self.loc.clone(),
                )
                .with_help(Some(
                    "add one: the declarer names the called card with it (`id = \"call\"`, `effect = \"call\"`)".into(),
                )),
            );
        }
        if !any_call && a.call.is_some() {
            errors.push(
                Diagnostic::error(
                    "a `[[declaration]]` has `effect = \"call\"`, and no contract has `call`",
                    self.loc.clone(),
                )
                .with_help(Some(
                    "give the contract that calls a partner `call = \"ace\"`, or remove the declaration".into(),
                )),
            );
        }
    }
}
