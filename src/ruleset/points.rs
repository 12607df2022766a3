//! Checks of a yaku's point formula against its condition and the deck: the points fit the
//! 32-bit scores a yaku table keeps, and they are never negative on a pile the condition holds
//! for. Found when the rules load (so by `yaku validate`), not at the first hand that scores a
//! yaku, where a negative total stops a simulation at game 0.

use super::model::scope;
use super::yaku_table::Yaku;
use crate::deck::{CardId, CardSet, Deck};
use crate::diag::{Diagnostic, Loc};
use crate::expr::Context;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// Random piles tried per set of facts, at each of the densities below.
const PILES_PER_DENSITY: usize = 8;
/// Piles holding the yaku that are walked down to lower points.
const DESCENTS: usize = 8;

/// Reports, at `at` (the `points` value), points that can exceed a yaku's 32-bit score or be
/// negative where the condition holds. The first is exact (the formula's bounds). The second
/// is exact when the bounds rule it out, as for most formulas; otherwise piles are tried: the
/// whole deck, random piles, and piles holding the yaku walked card by card to lower points,
/// which finds the least value of the usual shapes (`count(plain) - 9` under `count(plain) >=
/// 10`) and reports the pile that gives it.
pub(super) fn check(yaku: &Yaku, deck: &Deck, at: &Loc, errors: &mut Vec<Diagnostic>) {
    // The core's facts, then the card choices (0 or 1 each).
    let ranges: Vec<(i64, i64)> = scope::YAKU
        .iter()
        .map(|f| scope::fact_range(f))
        .chain(std::iter::repeat_n((0, 1), crate::ruleset::MAX_CHOICES))
        .collect();
    // Overflow was refused when the formula compiled, so its bounds are known.
    let Ok((lo, hi)) = yaku.points.bounds(&ranges) else {
        return;
    };
    if hi > i64::from(i32::MAX) {
        errors.push(
            Diagnostic::error(
                format!(
                    "yaku `{}` can score {hi} points, more than a yaku may score ({})",
                    yaku.id,
                    i32::MAX
                ),
                at.clone(),
            )
            .with_help(Some(
                "use smaller numbers, or bound the points with `min`".into(),
            )),
        );
    }
    if lo >= 0 {
        return;
    }
    if let Some((points, pile, facts)) = lowest_points(yaku, deck)
        && points < 0
    {
        let ids = deck.ids(pile);
        let shown = if ids.len() > 12 {
            format!("{}, ... ({} cards)", ids[..12].join(", "), ids.len())
        } else if ids.is_empty() {
            "no cards".to_string()
        } else {
            ids.join(", ")
        };
        let when = if yaku.points.reads_facts() || yaku.when.reads_facts() {
            format!(
                " in round {} of {}{}",
                facts[0],
                facts[1],
                if facts[2] == 1 {
                    ", for the dealer"
                } else {
                    ""
                }
            )
        } else {
            String::new()
        };
        errors.push(
            Diagnostic::error(
                format!(
                    "yaku `{}` can score negative points: {points} on a pile its condition holds for",
                    yaku.id
                ),
                at.clone(),
            )
            .with_help(Some(format!(
                "the pile: {shown}{when}; points are never negative: give the condition a higher \
                 threshold, or write the points as `max(0, ...)`"
            ))),
        );
    }
}

/// The lowest points found for `yaku` on piles its condition holds for, with the pile and the
/// facts (`round`, `rounds`, `is_dealer`, `calls`); `None` when no pile tried holds it. Deterministic.
fn lowest_points(yaku: &Yaku, deck: &Deck) -> Option<(i64, CardSet, crate::ruleset::YakuFacts)> {
    let reads_facts = yaku.points.reads_facts() || yaku.when.reads_facts();
    let fact_samples: &[crate::ruleset::YakuFacts] = if reads_facts {
        &[
            [1, 12, 0, 0, 0, 0, 0, 0],
            [1, 12, 1, 0, 0, 0, 0, 0],
            [12, 12, 0, 0, 0, 0, 0, 0],
            [6, 12, 1, 0, 0, 0, 0, 0],
            [1, 1, 0, 0, 0, 0, 0, 0],
            // After one call, and after several.
            [1, 12, 0, 1, 0, 0, 0, 0],
            [1, 12, 1, 3, 0, 0, 0, 0],
            // Every card choice made.
            [1, 12, 0, 0, 1, 1, 1, 1],
        ]
    } else {
        &[[1, 12, 0, 0, 0, 0, 0, 0]]
    };
    let all = deck.all();
    let n = deck.cards.len();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x9017_5e7c);
    let mut lowest: Option<(i64, CardSet, crate::ruleset::YakuFacts)> = None;
    for &facts in fact_samples {
        let holds = |pile: CardSet| {
            yaku.when.truth(&Context {
                pile,
                facts: &facts,
            })
        };
        let points = |pile: CardSet| {
            yaku.points.int(&Context {
                pile,
                facts: &facts,
            })
        };
        let mut found: Vec<CardSet> = [all, CardSet::EMPTY]
            .into_iter()
            .filter(|p| holds(*p))
            .collect();
        for density in [0.15, 0.3, 0.5, 0.7, 0.85] {
            for _ in 0..PILES_PER_DENSITY {
                let pile: CardSet = (0..n)
                    .filter(|_| rng.random_bool(density))
                    .map(|i| CardId(i as u8))
                    .collect();
                if holds(pile) {
                    found.push(pile);
                }
            }
        }
        let mut consider = |pile: CardSet| {
            let p = points(pile);
            if lowest.is_none_or(|(l, _, _)| p < l) {
                lowest = Some((p, pile, facts));
            }
        };
        for &pile in &found {
            consider(pile);
        }
        for &start in found.iter().take(DESCENTS) {
            // Walk down: drop cards, then add cards, while the yaku holds and points fall.
            let mut pile = start;
            let mut value = points(pile);
            let mut order: Vec<CardId> = (0..n).map(|i| CardId(i as u8)).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.random_range(0..=i));
            }
            for adding in [false, true] {
                for &c in &order {
                    if pile.contains(c) == adding {
                        continue;
                    }
                    let mut next = pile;
                    if adding {
                        next.insert(c);
                    } else {
                        next.remove(c);
                    }
                    let v = points(next);
                    if (v < value || (v == value && !adding)) && holds(next) {
                        pile = next;
                        value = v;
                    }
                }
            }
            consider(pile);
        }
    }
    lowest
}

#[cfg(test)]
mod tests {
    fn findings(points: &str, when: &str) -> Vec<String> {
        let text = format!(
            "[ruleset]\nid = \"t\"\nextends = \"koikoi\"\n\n[[yaku]]\nid = \"kasu\"\ndescription = \"Plains.\"\nwhen = \"{when}\"\npoints = \"{points}\"\n"
        );
        crate::ruleset::load_str("t.toml", &text)
            .diagnostics
            .into_iter()
            .map(|d| format!("{} | {}", d.message, d.help.unwrap_or_default()))
            .collect()
    }

    #[test]
    fn negative_points_are_found_with_the_pile() {
        let f = findings("count(plain) - 15", "count(plain) >= 10");
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].starts_with("yaku `kasu` can score negative points: -5 on a pile"),
            "{f:?}"
        );
        // The pile that gives it: ten plains, no more.
        assert_eq!(
            f[0].split(" | the pile: ").nth(1).map(|p| p
                .split(';')
                .next()
                .unwrap()
                .split(", ")
                .count()),
            Some(10),
            "{f:?}"
        );
        let f = findings("20 - count(pile)", "any(plain)");
        assert!(f[0].contains("-28"), "{f:?}");
        let f = findings("count(plain) - 9 - round", "count(plain) >= 10");
        assert!(f[0].contains("in round 12 of 12"), "{f:?}");
    }

    #[test]
    fn points_that_cannot_go_negative_pass() {
        for (points, when) in [
            ("count(plain) - 9", "count(plain) >= 10"),
            ("max(0, count(plain) - 15)", "count(plain) >= 10"),
            ("5 + count(animal) - 3", "count(animal) >= 3"),
            ("1", "any(plain)"),
        ] {
            assert_eq!(findings(points, when), Vec::<String>::new(), "{points}");
        }
    }

    #[test]
    fn points_beyond_a_yaku_score_are_refused() {
        let f = findings("count(plain) * 1000000000", "any(plain)");
        assert!(
            f[0].starts_with(
                "yaku `kasu` can score 25000000000 points, more than a yaku may score (2147483647)"
            ),
            "{f:?}"
        );
    }
}
