//! The banker family's keys of hands played by actions (`[flow.play]`, Blackjack): the
//! actions (declarations of banker effects), the peek, insurance, the payouts and `soft`.

use super::table::ratio;
use crate::diag::{Diagnostic, Loc};
use crate::expr::{Names, Type};
use crate::ruleset::keys;
use crate::ruleset::model::{DeclId, Insurance, PayResult, Payout, Play, PlayAction, PlayEffect};
use crate::ruleset::reader::TableReader;
use crate::ruleset::toml_tree::Table;
use crate::ruleset::vocab::{Sections, choice, compile_expr};

/// The most hands a seat may hold by splitting.
pub const MOST_SPLIT_HANDS: i64 = 8;

/// Reads `[flow.play]`, `[flow.insurance]` and `[[flow.payout]]` and gathers the banker
/// declarations; `None` when the ruleset plays no hand by actions (and then refuses the keys
/// that need it). `play` compiles over [`crate::ruleset::scope::PLAY`].
pub(super) fn play_rules(
    r: &mut TableReader,
    t: &Table,
    loc: &Loc,
    sections: &Sections,
    play: &Names,
    errors: &mut Vec<Diagnostic>,
) -> Option<Play> {
    let actions: Vec<PlayAction> = sections
        .declarations
        .iter()
        .enumerate()
        .filter_map(|(i, (d, ..))| {
            Some(PlayAction {
                decl: DeclId(i as u8),
                effect: PlayEffect::named(&d.effect)?,
                when: d.when.clone(),
            })
        })
        .collect();
    let table = r.table("play", errors);
    let insurance = r.table("insurance", errors);
    let payouts = r.tables("payout", errors);
    if table.is_none() {
        let at = |key: &str| t.get(key).map(|i| i.loc.clone());
        let stray = [
            (at("insurance"), "`[flow.insurance]`"),
            (at("payout"), "`[[flow.payout]]`"),
            (
                // A declaration of another effect is refused as unknown already.
                sections
                    .declarations
                    .iter()
                    .find(|(d, ..)| PlayEffect::named(&d.effect).is_some())
                    .map(|(_, l, _)| l.clone()),
                "a `[[declaration]]` of a banker effect",
            ),
        ];
        for (l, what) in stray.into_iter().filter_map(|(l, w)| Some((l?, w))) {
            errors.push(
                Diagnostic::error(format!("{what} needs `[flow.play]`"), l).with_help(Some(
                    "actions, insurance and payouts are for hands played by actions: add `[flow.play]`".into(),
                )),
            );
        }
        return None;
    }
    let (pt, at) = table?;
    let mut p = TableReader::new(pt, at.clone(), "`[flow.play]`").defined_by(&keys::PLAY);
    let split_hands = match p.int("split_hands", errors) {
        Some((n, _)) if (2..=MOST_SPLIT_HANDS).contains(&n) => n as u32,
        Some((n, l)) => {
            errors.push(Diagnostic::error(
                format!("`split_hands` must be from 2 to {MOST_SPLIT_HANDS}, found {n}"),
                l.clone(),
            ));
            4
        }
        None => 4,
    };
    let banker_shown = match p.int("banker_shown", errors) {
        Some((n, _)) if (0..=8).contains(&n) => n as u32,
        Some((n, l)) => {
            errors.push(Diagnostic::error(
                format!("`banker_shown` must be from 0 to 8, found {n}"),
                l.clone(),
            ));
            1
        }
        None => 1,
    };
    let peek = p.string("peek", errors);
    p.finish(errors);
    let peek_program = peek
        .as_ref()
        .and_then(|w| compile_expr(w, Type::Bool, play, errors));
    if !actions
        .iter()
        .any(|a| a.effect == PlayEffect::Stand && a.when.is_none())
    {
        errors.push(
            Diagnostic::error(
                "hands played by actions need a `[[declaration]]` with `effect = \"stand\"` and no `when`",
                at.clone(),
            )
            .with_help(Some(
                "a player must always be able to stand: add one, for example `id = \"stand\"`".into(),
            )),
        );
    }
    let insurance = insurance.and_then(|(it, iat)| {
        let mut i =
            TableReader::new(it, iat.clone(), "`[flow.insurance]`").defined_by(&keys::INSURANCE);
        let when = i.required_string("when", errors);
        let wins = i.required_string("wins", errors);
        let pays = ratio(&mut i, "pays", (2, 1), iat, errors);
        i.finish(errors);
        let (when, wins) = (when?, wins?);
        Some(Insurance {
            when: compile_expr(&when, Type::Bool, play, errors)?,
            when_source: when.text.trim().to_string(),
            wins: compile_expr(&wins, Type::Bool, play, errors)?,
            wins_source: wins.text.trim().to_string(),
            pays,
        })
    });
    let mut out = Vec::new();
    for (pt, pat) in payouts {
        let mut k = TableReader::new(pt, pat.clone(), "a payout").defined_by(&keys::PAYOUT);
        let id = k.required_string("id", errors);
        let name = k.string("name", errors);
        let when = k.required_string("when", errors);
        let results = [
            ("win", PayResult::Win),
            ("push", PayResult::Push),
            ("lose", PayResult::Lose),
        ];
        let result = if pt.get("result").is_some() {
            choice(&mut k, "result", &results, errors)
        } else {
            Some(PayResult::Win)
        };
        let pays = ratio(&mut k, "pays", (1, 1), pat, errors);
        k.finish(errors);
        let compiled = when
            .as_ref()
            .and_then(|w| compile_expr(w, Type::Bool, play, errors));
        if let (Some(id), Some(when), Some(compiled), Some(result)) = (id, when, compiled, result) {
            out.push(Payout {
                id: id.text.to_string(),
                name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
                when: compiled,
                when_source: when.text.trim().to_string(),
                result,
                pays,
            });
        }
    }
    let _ = loc;
    Some(Play {
        actions,
        split_hands,
        banker_shown,
        peek: peek_program,
        peek_source: peek.map(|s| s.text.trim().to_string()),
        insurance,
        payouts: out,
    })
}
