//! Melds of a trick-taking hand (`[[meld]]`): each meld's instances in a hand once trumps are
//! known (one per suit for melds of one suit, one for an around or for listed cards), and the
//! best way to count them: within a class the instances share no card and the combination worth
//! most counts (two marriages of one suit in a double pack, a double meld instead of two single
//! ones); across classes a card serves again. No game is named here.

use crate::deck::{CardSet, Deck};
use crate::ruleset::{Meld, MeldSuit};

/// One meld counted in a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Melded {
    /// The meld's index in the ruleset's `[[meld]]` list.
    pub meld: u8,
    /// The cards it uses.
    pub cards: CardSet,
}

/// The cards one instance of a meld needs: `count` cards of each set (a set is one card's alike
/// copies in a double pack).
#[derive(Clone, Debug)]
struct Instance {
    meld: u8,
    needs: Vec<(CardSet, u32)>,
    points: i64,
}

/// The instances of `meld` with trumps `trump` (`None`: no trumps, so no trump meld).
fn instances(
    deck: &Deck,
    index: usize,
    meld: &Meld,
    trump: Option<usize>,
    out: &mut Vec<Instance>,
) {
    let in_suit = |suit: usize| -> Option<Vec<(CardSet, u32)>> {
        meld.kinds
            .iter()
            .map(|&k| {
                let cards = deck.kinds[k].cards & deck.suits[suit].cards;
                (!cards.is_empty()).then_some((cards, meld.copies))
            })
            .collect()
    };
    let mut push = |needs: Option<Vec<(CardSet, u32)>>| {
        if let Some(needs) = needs.filter(|n| !n.is_empty()) {
            out.push(Instance {
                meld: index as u8,
                needs,
                points: meld.points,
            });
        }
    };
    match meld.suit {
        MeldSuit::Trump => {
            if let Some(t) = trump {
                push(in_suit(t));
            }
        }
        MeldSuit::Plain | MeldSuit::Any => {
            for s in 0..deck.suits.len() {
                if meld.suit == MeldSuit::Plain && Some(s) == trump {
                    continue;
                }
                push(in_suit(s));
            }
        }
        MeldSuit::Each => {
            let mut needs = Vec::new();
            for &k in &meld.kinds {
                for suit in &deck.suits {
                    let cards = deck.kinds[k].cards & suit.cards;
                    if !cards.is_empty() {
                        needs.push((cards, meld.copies));
                    }
                }
            }
            push(Some(needs));
        }
        MeldSuit::Cards => {
            let needs = meld
                .cards
                .iter()
                .map(|&c| {
                    let alike: CardSet = deck
                        .same_suit(c)
                        .iter()
                        .filter(|&o| deck.alike(o, c))
                        .collect();
                    (alike, meld.copies)
                })
                .collect();
            push(Some(needs));
        }
    }
}

/// Takes the cards `instance` needs from `avail`, or returns `None` when it lacks them.
fn take(instance: &Instance, avail: CardSet) -> Option<(CardSet, CardSet)> {
    let mut left = avail;
    let mut used = CardSet::EMPTY;
    for &(set, count) in &instance.needs {
        let have = left & set;
        if have.len() < count {
            return None;
        }
        for c in have.iter().take(count as usize) {
            left.remove(c);
            used.insert(c);
        }
    }
    Some((left, used))
}

/// The most points the instances from `from` on can make of `avail`, an instance counted again
/// while the cards last; the melds that make them are pushed onto `best`.
fn search(
    list: &[Instance],
    from: usize,
    avail: CardSet,
    chosen: &mut Vec<Melded>,
    best: &mut (i64, Vec<Melded>),
    points: i64,
) {
    if points > best.0 || (points == best.0 && chosen.len() < best.1.len()) {
        *best = (points, chosen.clone());
    }
    for i in from..list.len() {
        if let Some((left, used)) = take(&list[i], avail) {
            chosen.push(Melded {
                meld: list[i].meld,
                cards: used,
            });
            search(list, i, left, chosen, best, points + list[i].points);
            chosen.pop();
        }
    }
}

/// The melds `hand` counts with trumps `trump`, and their points: class by class, the
/// combination of instances worth most that shares no card within the class.
pub fn best(
    deck: &Deck,
    melds: &[Meld],
    hand: CardSet,
    trump: Option<usize>,
) -> (i64, Vec<Melded>) {
    let mut total = 0;
    let mut out = Vec::new();
    let mut classes: Vec<&str> = Vec::new();
    for m in melds {
        if !classes.contains(&m.class.as_str()) {
            classes.push(&m.class);
        }
    }
    let mut list = Vec::new();
    for class in classes {
        list.clear();
        for (i, m) in melds.iter().enumerate().filter(|(_, m)| m.class == class) {
            instances(deck, i, m, trump, &mut list);
        }
        // Instances the hand cannot make are left out before the search.
        list.retain(|inst| take(inst, hand).is_some());
        if list.is_empty() {
            continue;
        }
        let mut best = (0, Vec::new());
        search(&list, 0, hand, &mut Vec::new(), &mut best, 0);
        total += best.0;
        out.extend(best.1);
    }
    (total, out)
}
