//! The banker family's `[flow.arrange]`: hands the seats arrange (Pai Gow's high and low
//! hands), the order between them, who takes copies, the payout and the house way.

use super::table::ratio;
use crate::diag::{Diagnostic, Loc};
use crate::expr::{Names, Type};
use crate::ruleset::keys;
use crate::ruleset::model::{Arrange, ArrangedHand, HouseWay, MAX_ARRANGEMENTS};
use crate::ruleset::reader::TableReader;
use crate::ruleset::vocab::{choice, compile_expr};

/// `n` choose `k`, saturating.
pub fn arrangements(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..u64::from(k)).fold(1u64, |acc, i| {
        acc.saturating_mul(u64::from(n) - i) / (i + 1)
    })
}

/// Reads `[flow.arrange]`; `dealt` is `first_tiles` and `banker_tiles`, which the hands' cards
/// must add up to; `hand` compiles the house way's conditions.
pub(super) fn arrange_rules(
    r: &mut TableReader,
    dealt: (u32, u32),
    hand: &Names,
    errors: &mut Vec<Diagnostic>,
) -> Option<Arrange> {
    let (t, at) = r.table("arrange", errors)?;
    let at: Loc = at.clone();
    let mut a = TableReader::new(t, at.clone(), "`[flow.arrange]`").defined_by(&keys::ARRANGE);
    let mut hands: Vec<ArrangedHand> = Vec::new();
    for (h, hat) in a.tables("hand", errors) {
        let mut k =
            TableReader::new(h, hat.clone(), "an arranged hand").defined_by(&keys::ARRANGED_HAND);
        let id = k.required_string("id", errors);
        let name = k.string("name", errors);
        let cards = match k.int("cards", errors) {
            Some((n, _)) if (1..=64).contains(&n) => Some(n as u32),
            Some((n, l)) => {
                errors.push(Diagnostic::error(
                    format!("`cards` must be from 1 to 64, found {n}"),
                    l.clone(),
                ));
                None
            }
            None => {
                k.missing("cards", errors);
                None
            }
        };
        k.finish(errors);
        if let Some(id) = &id
            && hands.iter().any(|h| h.id == id.text)
        {
            errors.push(Diagnostic::error(
                format!("a second hand `{}`", id.text),
                id.loc.clone(),
            ));
        }
        if let (Some(id), Some(cards)) = (id, cards) {
            hands.push(ArrangedHand {
                id: id.text.to_string(),
                name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
                cards,
            });
        }
    }
    let strictly_above = if t.get("order").is_some() {
        choice(
            &mut a,
            "order",
            &[("not-below", false), ("above", true)],
            errors,
        )
        .unwrap_or(false)
    } else {
        false
    };
    let copies_to_banker = if t.get("copies").is_some() {
        choice(
            &mut a,
            "copies",
            &[("banker", true), ("push", false)],
            errors,
        )
        .unwrap_or(true)
    } else {
        true
    };
    let pays = ratio(&mut a, "pays", (1, 1), &at, errors);
    let mut house_way = Vec::new();
    for (w, wat) in a.tables("house_way", errors) {
        let mut k =
            TableReader::new(w, wat.clone(), "a house way rule").defined_by(&keys::HOUSE_WAY);
        let id = k.required_string("id", errors);
        let name = k.string("name", errors);
        let when = k.string("when", errors);
        let maximise = k.required_string("maximise", errors);
        let keep = k.string("keep", errors);
        k.finish(errors);
        let keep_source = keep.as_ref().map(|k| k.text.trim().to_string());
        let keep = match &keep {
            Some(w) => compile_expr(w, Type::Bool, hand, errors).map(Some),
            None => Some(None),
        };
        let program = match &when {
            Some(w) => compile_expr(w, Type::Bool, hand, errors).map(Some),
            None => Some(None),
        };
        let index = maximise.as_ref().and_then(|m| {
            let found = hands.iter().position(|h| h.id == m.text);
            if found.is_none() {
                let known: Vec<String> = hands.iter().map(|h| format!("`{}`", h.id)).collect();
                errors.push(
                    Diagnostic::error(format!("no hand `{}`", m.text), m.loc.clone())
                        .with_help(Some(format!("the hands are {}", known.join(", ")))),
                );
            }
            found
        });
        if let (Some(id), Some(program), Some(maximise), Some(keep)) = (id, program, index, keep) {
            house_way.push(HouseWay {
                id: id.text.to_string(),
                name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
                when: program,
                when_source: when.map(|w| w.text.trim().to_string()),
                maximise,
                keep,
                keep_source,
            });
        }
    }
    a.finish(errors);
    if hands.len() != 2 {
        errors.push(
            Diagnostic::error(
                format!(
                    "`[flow.arrange]` needs two `[[flow.arrange.hand]]`, found {}",
                    hands.len()
                ),
                at.clone(),
            )
            .with_help(Some(
                "a seat arranges its cards into two hands, strongest first (a move names the first hand's cards)".into(),
            )),
        );
        return None;
    }
    let total: u32 = hands.iter().map(|h| h.cards).sum();
    if dealt != (total, total) {
        errors.push(
            Diagnostic::error(
                format!(
                    "the arranged hands hold {total} cards, but `first_tiles` is {} and `banker_tiles` {}",
                    dealt.0, dealt.1
                ),
                at.clone(),
            )
            .with_help(Some(format!(
                "deal each seat and the banker the cards it arranges: `first_tiles = {total}`, `banker_tiles = {total}`"
            ))),
        );
    }
    let ways = arrangements(total, hands[0].cards);
    if ways > MAX_ARRANGEMENTS {
        errors.push(
            Diagnostic::error(
                format!(
                    "{total} cards split into {} and {} can be arranged {ways} ways, more than the {MAX_ARRANGEMENTS} a move may choose from",
                    hands[0].cards, hands[1].cards
                ),
                at.clone(),
            )
            .with_help(Some(
                "each arrangement is a legal move the house way and the bots weigh: deal fewer cards".into(),
            )),
        );
    }
    Some(Arrange {
        hands,
        strictly_above,
        copies_to_banker,
        pays,
        house_way,
    })
}
