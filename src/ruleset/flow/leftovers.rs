//! `[[flow.leftover_to]]`: where the table's leftover cards of a set go when the hands are
//! played out, by rule, before the rest follow `[flow] leftover` (stay, or go to the last
//! capturer). Some fishing games give the leftover cards of one month to whoever took that
//! month's wild card, which neither of `leftover`'s two choices can say.

use super::*;
use crate::deck::{CardSet, Deck};
use crate::expr::{self, Type};

/// The leftover rules of `tables`; `names` are a constant set's (no facts).
pub(super) fn leftover_rules(
    tables: Vec<(&Table, &Loc)>,
    deck: &Deck,
    names: &Names,
    errors: &mut Vec<Diagnostic>,
) -> Vec<LeftoverRule> {
    let mut out = Vec::new();
    for (t, loc) in tables {
        let mut r = TableReader::new(t, loc.clone(), "a `[[flow.leftover_to]]`")
            .defined_by(&keys::LEFTOVER_TO);
        let cards_source = r.required_string("cards", errors);
        let cards = cards_source.as_ref().and_then(|s| {
            let p = compile_expr(s, Type::Set, names, errors)?;
            Some(p.set(&expr::Context {
                pile: CardSet::EMPTY,
                facts: &[],
            }))
        });
        let to = choice(
            &mut r,
            "to",
            &[("holder", 0u8), ("last_capturer", 1), ("dealer", 2)],
            errors,
        )
        // A `to` written wrong is reported by `choice`; the rule is then dropped.
        .or_else(|| t.get("to").is_none().then_some(0));
        let holder = r.string("holder", errors);
        r.finish(errors);
        let to = match (to, holder) {
            (None, _) => None,
            (Some(0), Some(h)) => match deck.card_by_id(h.text) {
                Some(card) => Some(LeftoverSeat::Holder(card)),
                None => {
                    errors.push(
                        Diagnostic::error(format!("unknown card `{}`", h.text), h.loc.clone())
                            .with_help(did_you_mean(h.text, deck.card_ids())),
                    );
                    None
                }
            },
            (Some(0), None) => {
                errors.push(
                    Diagnostic::error("a leftover rule to a card's captor needs `holder`", loc.clone())
                        .with_help(Some(
                            "add `holder = \"...\"` (the card whose captor takes the cards), or `to = \"last_capturer\"` or `\"dealer\"`".into(),
                        )),
                );
                None
            }
            (_, Some(h)) => {
                errors.push(
                    Diagnostic::error(
                        "`holder` is read only with `to = \"holder\"`",
                        h.loc.clone(),
                    )
                    .with_help(Some("remove `holder`, or `to`".into())),
                );
                None
            }
            (Some(1), None) => Some(LeftoverSeat::LastCapturer),
            _ => Some(LeftoverSeat::Dealer),
        };
        if let (Some(cards), Some(source), Some(to)) = (cards, cards_source, to) {
            out.push(LeftoverRule {
                cards,
                cards_source: source.text.to_string(),
                to,
            });
        }
    }
    out
}
