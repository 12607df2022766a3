//! Melds of a trick-taking hand (`[[meld]]`): the best way to count the melds shown before play
//! (within a class the instances share no card and the combination worth most counts: two
//! marriages of one suit in a double pack, a double meld instead of two single ones; across
//! classes a card serves again), from the instances the ruleset computed once (its
//! [`MeldTable`], which also shows the melds shown after play). No game is named here.

use crate::deck::CardSet;
use crate::ruleset::melds::{Instance, take};
pub use crate::ruleset::melds::{MeldTable, Melded, Reuse, Shown};
use crate::ruleset::{MAX_MELDS, Meld, MeldMoment};

/// The most points the instances from `from` on can make of `avail`, an instance counted again
/// while the cards last; the melds that make them are pushed onto `best`.
fn search(
    list: &[&Instance],
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
        if let Some((left, used)) = take(list[i], avail) {
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
    table: &MeldTable,
    melds: &[Meld],
    hand: CardSet,
    trump: Option<usize>,
) -> (i64, Vec<Melded>) {
    best_of(table, melds, hand, trump, |m| {
        m.moment == MeldMoment::BeforePlay
    })
}

/// [`best`] over the melds `keep` keeps, whatever their moment (`yaku score` lists the melds a
/// hand could show after play so).
pub fn best_of(
    table: &MeldTable,
    melds: &[Meld],
    hand: CardSet,
    trump: Option<usize>,
    keep: impl Fn(&Meld) -> bool,
) -> (i64, Vec<Melded>) {
    let mut total = 0;
    let mut out = Vec::new();
    // The classes in the order of their first meld kept, each marked once seen (a class is
    // numbered below `MAX_MELDS`).
    let mut classes: Vec<u16> = Vec::new();
    let mut seen = [0u64; MAX_MELDS.div_ceil(64)];
    for (i, m) in melds.iter().enumerate() {
        let class = table.class(i as u16);
        if !keep(m) {
            continue;
        }
        let (word, bit) = (usize::from(class) / 64, 1u64 << (class % 64));
        let fresh = match seen.get_mut(word) {
            Some(w) => std::mem::replace(w, *w | bit) & bit == 0,
            None => !classes.contains(&class),
        };
        if fresh {
            classes.push(class);
        }
    }
    // Instances the hand cannot make are left out once, before the classes (most hold too few
    // of its cards, which a count tells at once), so that many classes cost little.
    let made: Vec<&Instance> = table
        .instances(trump)
        .iter()
        .filter(|inst| {
            (inst.cards & hand).len() >= inst.size
                && keep(&melds[inst.meld as usize])
                && take(inst, hand).is_some()
        })
        .collect();
    let mut list: Vec<&Instance> = Vec::new();
    for class in classes {
        list.clear();
        list.extend(
            made.iter()
                .copied()
                .filter(|inst| table.class(inst.meld) == class),
        );
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
