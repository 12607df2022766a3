//! Melds of a trick-taking hand (`[[meld]]`): the best way to count the melds shown before play
//! (within a class the instances share no card and the combination worth most counts: two
//! marriages of one suit in a double pack, a double meld instead of two single ones; across
//! classes a card serves again), from the instances the ruleset computed; the melds shown after
//! play are the ruleset's [`AfterPlay`]. No game is named here.

use crate::deck::{CardSet, Deck};
pub use crate::ruleset::melds::{AfterPlay, Melded, Shown};
use crate::ruleset::melds::{Instance, instances, take};
use crate::ruleset::{Meld, MeldMoment};

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

/// The melds shown before play (`moment = "before-play"`) that `hand` counts with trumps
/// `trump`, and their points: class by class, the combination of instances worth most that
/// shares no card within the class. Melds shown after play are left out.
pub fn best(
    deck: &Deck,
    melds: &[Meld],
    hand: CardSet,
    trump: Option<usize>,
) -> (i64, Vec<Melded>) {
    best_of(deck, melds, hand, trump, |m| {
        m.moment == MeldMoment::BeforePlay
    })
}

/// [`best`] over the melds `keep` keeps, whatever their moment (a bot's estimate of what a
/// hand would show in a whole hand).
pub fn best_of(
    deck: &Deck,
    melds: &[Meld],
    hand: CardSet,
    trump: Option<usize>,
    keep: impl Fn(&Meld) -> bool,
) -> (i64, Vec<Melded>) {
    let mut total = 0;
    let mut out = Vec::new();
    let mut classes: Vec<&str> = Vec::new();
    for m in melds.iter().filter(|m| keep(m)) {
        if !classes.contains(&m.class.as_str()) {
            classes.push(&m.class);
        }
    }
    let mut list = Vec::new();
    for class in classes {
        list.clear();
        for (i, m) in melds
            .iter()
            .enumerate()
            .filter(|(_, m)| m.class == class && keep(m))
        {
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
