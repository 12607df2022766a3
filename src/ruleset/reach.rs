//! Whether each rule can ever matter: a yaku that some pile of the deck satisfies, a group whose
//! yaku can hold together, an instant win or redeal that is ever the one that decides. A rule
//! that never matters validates (it is not wrong TOML) but is almost always a mistake, so
//! `yaku validate` warns with the reason. The search is cheap and deterministic: the whole deck,
//! the deck without each kind and each suit, and random piles from a fixed seed.

use crate::deck::{CardId, CardSet, Deck};
use crate::expr::{Context, Program};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// Random piles tried per condition, spread over densities.
const RANDOM_PILES: usize = 200;

/// Piles of `deck` on which `when` holds, at most `want`: the whole deck, the deck without each
/// kind and suit, then random piles. Empty when none was found.
pub(super) fn satisfying_piles(
    when: &Program,
    deck: &Deck,
    facts: &[i64],
    want: usize,
) -> Vec<CardSet> {
    let holds = |pile: CardSet| when.truth(&Context { pile, facts });
    let all = deck.all();
    let starts: Vec<CardSet> = std::iter::once(all)
        .chain(deck.kinds.iter().map(|k| all - k.cards))
        .chain(deck.suits.iter().map(|s| all - s.cards))
        .collect();
    let mut found: Vec<CardSet> = starts
        .iter()
        .copied()
        .filter(|&p| holds(p))
        .take(want)
        .collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x0007_eac4_ab1e);
    // From each start, drop cards in a random order until the condition holds (`count(bright)
    // == 3` holds on the way down from the whole deck).
    for start in starts {
        if found.len() >= want {
            break;
        }
        let mut cards: Vec<CardId> = start.iter().collect();
        crate::deck::shuffle_slice(&mut cards, &mut rng);
        let mut pile = start;
        for c in cards {
            pile.remove(c);
            if holds(pile) {
                found.push(pile);
                break;
            }
        }
    }
    let n = deck.cards.len();
    for k in 0..RANDOM_PILES {
        if found.len() >= want {
            break;
        }
        let density = [0.1, 0.25, 0.5, 0.75, 0.9][k % 5];
        let pile: CardSet = (0..n)
            .filter(|_| rng.random_bool(density))
            .map(|i| CardId(i as u8))
            .collect();
        if holds(pile) {
            found.push(pile);
        }
    }
    found
}

/// True when `when` holds on each of `count` random piles of `size` cards of `deck` (from a
/// fixed seed): a deal check that holds however the cards fall.
pub(super) fn holds_on_random_piles(
    when: &Program,
    deck: &Deck,
    size: usize,
    facts: &[i64],
    count: usize,
) -> bool {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x0a11_dea1);
    let mut cards: Vec<CardId> = deck.all().iter().collect();
    (0..count).all(|_| {
        crate::deck::shuffle_slice(&mut cards, &mut rng);
        let pile = cards.iter().take(size).fold(CardSet::EMPTY, |mut p, &c| {
            p.insert(c);
            p
        });
        when.truth(&Context { pile, facts })
    })
}

/// Piles of `size` cards of `deck` (dealt hands or tables) on which `when` holds, from a fixed
/// seed: piles that satisfy it shrunk to a minimal one, then filled up with other cards while
/// it still holds. Finds rare deals (four of a month in eight cards) that random deals miss.
pub(super) fn dealt_piles(
    when: &Program,
    deck: &Deck,
    size: usize,
    facts: &[i64],
    count: usize,
) -> Vec<CardSet> {
    let holds = |pile: CardSet| when.truth(&Context { pile, facts });
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x00de_a1ed);
    let mut out = Vec::new();
    let found = satisfying_piles(when, deck, facts, count);
    if found.is_empty() {
        return out;
    }
    for k in 0..count {
        let mut cards: Vec<CardId> = found[k % found.len()].iter().collect();
        crate::deck::shuffle_slice(&mut cards, &mut rng);
        let mut pile = found[k % found.len()];
        for c in cards {
            pile.remove(c);
            if !holds(pile) {
                pile.insert(c);
            }
        }
        let mut others: Vec<CardId> = (deck.all() - pile).iter().collect();
        crate::deck::shuffle_slice(&mut others, &mut rng);
        for c in others {
            if pile.len() as usize >= size {
                break;
            }
            pile.insert(c);
            if !holds(pile) {
                pile.remove(c);
            }
        }
        if pile.len() as usize == size {
            out.push(pile);
        }
    }
    out
}

/// For checks tried in order (the first that holds decides), the ones that never decide on
/// dealt piles of `size` cards: `(check, the earlier check that always held with it, how many
/// piles holding it were tried)`. A check is judged on piles that hold it (see
/// [`dealt_piles`]); one written the same as an earlier one is judged without piles.
pub(super) fn shadowed(
    checks: &[(&Program, &str)],
    deck: &Deck,
    size: usize,
    facts: &[i64],
) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for (i, (when, source)) in checks.iter().enumerate() {
        if when.constant_truth().is_some() {
            continue;
        }
        if let Some(j) = checks[..i]
            .iter()
            .position(|(_, earlier)| normalized(earlier) == normalized(source))
        {
            out.push((i, j, 0));
            continue;
        }
        let holds = |p: &Program, pile: CardSet| p.truth(&Context { pile, facts });
        let seen = dealt_piles(when, deck, size, facts, 24);
        if seen.is_empty() {
            continue;
        }
        if let Some(j) = (0..i).find(|&j| seen.iter().all(|&p| holds(checks[j].0, p))) {
            out.push((i, j, seen.len()));
        }
    }
    out
}

fn normalized(source: &str) -> String {
    source.split_whitespace().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{Names, Type, compile_str};

    #[test]
    fn a_pile_is_found_for_conditions_that_cards_spoil() {
        let deck = crate::ruleset::load_deck("hanafuda").value.unwrap();
        let names = Names::of(&deck, &[]);
        let c = |s| compile_str(s, Type::Bool, &names).unwrap();
        assert!(
            !satisfying_piles(&c("has(cherry-curtain) and not any(willow)"), &deck, &[], 4)
                .is_empty()
        );
        assert!(
            !satisfying_piles(
                &c("count(bright) == 3 and count(plain) == 0"),
                &deck,
                &[],
                4
            )
            .is_empty()
        );
        assert!(!satisfying_piles(&c("count(plain) == 10"), &deck, &[], 4).is_empty());
        assert!(satisfying_piles(&c("count(bright) > 5"), &deck, &[], 4).is_empty());
    }

    #[test]
    fn a_check_that_an_earlier_one_always_covers_is_shadowed() {
        let deck = crate::ruleset::load_deck("hanafuda").value.unwrap();
        let names = Names::of(&deck, &[]);
        let c = |s| compile_str(s, Type::Bool, &names).unwrap();
        let (four, pairs, four_pine) = (
            c("suits_with(4) >= 1"),
            c("suits_with(2) >= 4"),
            c("count(pine) == 4"),
        );
        let checks = [
            (&four, "suits_with(4) >= 1"),
            (&pairs, "suits_with(2) >= 4"),
            (&four_pine, "count(pine) == 4"),
            (&pairs, "suits_with(2)>=4"),
        ];
        let found = shadowed(&checks, &deck, 8, &[]);
        assert_eq!(
            found.iter().map(|(i, j, _)| (*i, *j)).collect::<Vec<_>>(),
            [(2, 0), (3, 1)]
        );
    }
}
