//! A trick-taking ruleset's melds (`[[meld]]`) as a game reads them: each meld's instances once
//! trumps are known (one per suit for melds of one suit, one for an around or for listed cards),
//! computed for every trump suit when the ruleset loads, and the one meld a declaration shows
//! after play (on one's lead, on winning a trick). The family's `melds` module counts the melds
//! shown before play from the same instances. No game is named here.

use super::{DeclId, Meld, MeldMoment, MeldNewCard, MeldPattern, MeldReuse, MeldRules, MeldSuit};
use crate::deck::{CardId, CardSet, Deck};

/// One meld counted in a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Melded {
    /// The meld's index in the ruleset's `[[meld]]` list.
    pub meld: u16,
    /// The cards it uses.
    pub cards: CardSet,
}

/// The cards one instance of a meld needs: `count` cards of each set (a set is one card's alike
/// copies in a double pack).
#[derive(Clone, Debug)]
pub struct Instance {
    /// The meld's index in the ruleset's `[[meld]]` list.
    pub meld: u16,
    /// The sets of alike cards it needs, with how many of each.
    pub needs: Vec<(CardSet, u32)>,
    /// Its points.
    pub points: i64,
    /// Every card that may serve in it.
    pub cards: CardSet,
    /// How many cards it takes.
    pub size: u32,
}

/// The instances of `meld` with trumps `trump` (`None`: no trumps, so no trump meld); `rank`
/// holds each card's rank (a pattern's), by card index.
pub(crate) fn instances(
    deck: &Deck,
    rank: &[i64],
    index: usize,
    meld: &Meld,
    trump: Option<usize>,
    out: &mut Vec<Instance>,
) {
    if meld.pattern != MeldPattern::Listed {
        return pattern_instances(deck, rank, index, meld, trump, out);
    }
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
                meld: index as u16,
                cards: needs.iter().fold(CardSet::EMPTY, |a, &(s, _)| a | s),
                size: needs.iter().map(|&(_, n)| n).sum(),
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
        // Only a pattern is of mixed suits.
        MeldSuit::Mixed => {}
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

/// The instances of a pattern (`alike`, `run`) with trumps `trump`: at most one a rank and suit,
/// each needing sets of alike-ranked cards, so that a hand is matched with a few bitset
/// operations an instance.
fn pattern_instances(
    deck: &Deck,
    rank: &[i64],
    index: usize,
    meld: &Meld,
    trump: Option<usize>,
    out: &mut Vec<Instance>,
) {
    let rank_of = |c: CardId| rank.get(c.index()).copied();
    // The cards it may use: of its kinds and ranks, when given.
    let pool: CardSet = deck
        .all()
        .iter()
        .filter(|&c| {
            (meld.kinds.is_empty() || meld.kinds.iter().any(|&k| deck.kinds[k].cards.contains(c)))
                && rank_of(c).is_some_and(|r| meld.ranks.is_empty() || meld.ranks.contains(&r))
        })
        .collect();
    let mut values: Vec<i64> = pool.iter().filter_map(rank_of).collect();
    // Highest first: of equal combinations, the highest is shown.
    values.sort_unstable_by(|a, b| b.cmp(a));
    values.dedup();
    let of_rank = |v: i64| -> CardSet { pool.iter().filter(|&c| rank_of(c) == Some(v)).collect() };
    let suits: Vec<CardSet> = (0..deck.suits.len())
        .filter(|&s| match meld.suit {
            MeldSuit::Trump => Some(s) == trump,
            MeldSuit::Plain => Some(s) != trump,
            _ => true,
        })
        .map(|s| deck.suits[s].cards)
        .collect();
    let mut push = |needs: Vec<(CardSet, u32)>| {
        // A need the deck cannot meet makes no instance.
        if needs.is_empty() || needs.iter().any(|&(set, n)| set.len() < n) {
            return;
        }
        out.push(Instance {
            meld: index as u16,
            cards: needs.iter().fold(CardSet::EMPTY, |a, &(s, _)| a | s),
            size: needs.iter().map(|&(_, n)| n).sum(),
            needs,
            points: meld.points,
        });
    };
    match meld.pattern {
        MeldPattern::Listed => {}
        MeldPattern::Alike(n) => {
            for &v in &values {
                let cards = of_rank(v);
                match meld.suit {
                    MeldSuit::Mixed => push(vec![(cards, n)]),
                    MeldSuit::Each => {
                        // One of each suit first, then the rest from any.
                        let mut needs: Vec<(CardSet, u32)> =
                            suits.iter().map(|&s| (cards & s, 1)).collect();
                        let each = needs.len() as u32;
                        if n > each {
                            needs.push((cards, n - each));
                        }
                        if n >= each {
                            push(needs);
                        }
                    }
                    _ => {
                        for &s in &suits {
                            push(vec![(cards & s, n)]);
                        }
                    }
                }
            }
        }
        MeldPattern::Run(n) => {
            for &s in &suits {
                for &high in &values {
                    let needs: Vec<(CardSet, u32)> = (0..i64::from(n))
                        .map(|i| (of_rank(high.saturating_sub(i)) & s, meld.copies))
                        .collect();
                    push(needs);
                }
            }
        }
    }
}

/// Takes the cards `instance` needs from `avail`, or returns `None` when it lacks them.
pub fn take(instance: &Instance, avail: CardSet) -> Option<(CardSet, CardSet)> {
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

/// The melds ready for play: each one's instances for every trump suit (the last entry: no
/// trumps), the class of each meld, and the cards a meld shown after play may use. Built once
/// when the ruleset loads.
#[derive(Clone, Debug, Default)]
pub struct MeldTable {
    /// By trump suit (`suits.len()`: none): the instances of every meld.
    by_trump: Vec<Vec<Instance>>,
    /// By trump suit: every card an instance of a meld shown after play may use.
    cards: Vec<CardSet>,
    /// Each meld's class, numbered.
    class: Vec<u16>,
    /// Some meld is shown on winning a trick.
    won_trick: bool,
    /// Some meld is shown on one's lead.
    lead: bool,
    /// The rules over a seat's meld history after play.
    rules: MeldRules,
}

/// What a seat's meld history lets a meld shown after play use: the cards it may not use, the
/// cards it uses again in its class (taken first, so that unshown copies stay free), and the
/// cards that do not count as new (it must hold a card outside them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reuse {
    /// The cards it may not use.
    pub blocked: CardSet,
    /// The cards shown before in its class that it may use again.
    pub again: CardSet,
    /// The cards that are not new.
    pub old: CardSet,
    /// It must hold a card outside `old`.
    pub needs_new: bool,
}

/// One meld a declaration may show now: which meld, the cards it uses, its points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    /// The meld and the cards it uses.
    pub melded: Melded,
    /// Its points.
    pub points: i64,
}

impl MeldTable {
    /// The melds of `melds` ready for play, for `deck`, with the ranks of its attribute `rank`
    /// (what patterns match by).
    pub fn new(deck: &Deck, melds: &[Meld], rank: usize) -> MeldTable {
        let rank = deck.attributes.get(rank).map_or(&[][..], |a| &a.values[..]);
        let mut classes: Vec<&str> = Vec::new();
        let class = melds
            .iter()
            .map(|m| {
                let at = classes
                    .iter()
                    .position(|c| *c == m.class)
                    .unwrap_or_else(|| {
                        classes.push(&m.class);
                        classes.len() - 1
                    });
                at as u16
            })
            .collect();
        let mut by_trump = Vec::new();
        let mut cards = Vec::new();
        for trump in (0..deck.suits.len()).map(Some).chain([None]) {
            let mut list = Vec::new();
            for (i, m) in melds.iter().enumerate() {
                instances(deck, rank, i, m, trump, &mut list);
            }
            cards.push(
                list.iter()
                    .filter(|i| melds[i.meld as usize].moment != MeldMoment::BeforePlay)
                    .fold(CardSet::EMPTY, |a, i| a | i.cards),
            );
            by_trump.push(list);
        }
        MeldTable {
            by_trump,
            cards,
            class,
            won_trick: melds.iter().any(|m| m.moment == MeldMoment::WonTrick),
            lead: melds.iter().any(|m| m.moment == MeldMoment::Lead),
            rules: MeldRules::default(),
        }
    }

    /// The table with the rules `rules` over a seat's meld history after play.
    pub fn with_rules(mut self, rules: MeldRules) -> MeldTable {
        self.rules = rules;
        self
    }

    /// The rules over a seat's meld history after play.
    pub fn rules(&self) -> MeldRules {
        self.rules
    }

    /// What a seat that has shown `history` (its melds after play this hand) may use in meld
    /// `meld`: by the reuse rule, a card shown in a meld of another class serves again (unless
    /// `none`), one shown in the same class not at all (`other-class`) or only in a meld worth
    /// more than every meld of the class it served in and never twice in one meld (`grow`);
    /// by the new-card rule, the cards that do not count as new.
    pub fn reuse<'a>(
        &self,
        melds: &[Meld],
        meld: u16,
        history: impl Iterator<Item = &'a Melded>,
    ) -> Reuse {
        let class = self.class[meld as usize];
        let points = melds[meld as usize].points;
        let mut r = Reuse {
            needs_new: self.rules.new_card != MeldNewCard::Nothing,
            ..Reuse::default()
        };
        for h in history {
            let same = self.class[h.meld as usize] == class;
            let lower = h.meld != meld && melds[h.meld as usize].points < points;
            match self.rules.reuse {
                MeldReuse::Never => r.blocked |= h.cards,
                MeldReuse::OtherClass if same => r.blocked |= h.cards,
                MeldReuse::Grow if same && lower => r.again |= h.cards,
                MeldReuse::Grow if same => r.blocked |= h.cards,
                _ => {}
            }
            match self.rules.new_card {
                MeldNewCard::Nothing => {}
                MeldNewCard::InClass if !same => {}
                MeldNewCard::InClass | MeldNewCard::FromHand => r.old |= h.cards,
            }
        }
        r.again = r.again - r.blocked;
        r
    }

    /// The instances of every meld with trump suit `trump` (`None`: no trumps), in ruleset
    /// order.
    pub fn instances(&self, trump: Option<usize>) -> &[Instance] {
        let at = trump.unwrap_or(self.by_trump.len().saturating_sub(1));
        self.by_trump.get(at).map_or(&[], Vec::as_slice)
    }

    /// True when some meld is shown on winning a trick.
    pub fn on_won_trick(&self) -> bool {
        self.won_trick
    }

    /// True when some meld is shown at `moment`.
    pub fn shown_at(&self, moment: MeldMoment) -> bool {
        match moment {
            MeldMoment::BeforePlay => true,
            MeldMoment::Lead => self.lead,
            MeldMoment::WonTrick => self.won_trick,
        }
    }

    /// The class number of meld `meld`.
    pub fn class(&self, meld: u16) -> u16 {
        self.class[meld as usize]
    }

    /// Every card a meld shown after play may use, with trump suit `trump` (`suits.len()`:
    /// none).
    pub fn cards(&self, trump: usize) -> CardSet {
        self.cards.get(trump).copied().unwrap_or(CardSet::EMPTY)
    }

    /// The cards of `hand` that serve in a meld declaration `decl` may show at `moment` with
    /// trump suit `trump`: of every instance of its melds of that moment that `hand` can make
    /// as the seat's meld history allows (`reuse`, by meld).
    pub fn usable_cards(
        &self,
        melds: &[Meld],
        decl: DeclId,
        moment: MeldMoment,
        trump: usize,
        hand: CardSet,
        reuse: impl Fn(u16) -> Reuse,
    ) -> CardSet {
        let mut usable = CardSet::EMPTY;
        for inst in self.by_trump.get(trump).into_iter().flatten() {
            // Most hands hold too few of its cards: a count tells at once.
            if (inst.cards & hand).len() < inst.size {
                continue;
            }
            let m = &melds[inst.meld as usize];
            if m.moment != moment || m.declaration != Some(decl) {
                continue;
            }
            let r = reuse(inst.meld);
            let avail = hand - r.blocked;
            if take_new(inst, avail, None, &r).is_some() {
                usable |= inst.cards & avail;
            }
        }
        usable
    }

    /// The meld declaration `decl` shows with `card` at `moment`, with trump suit `trump`: of the
    /// instances of its melds of that moment which use `card` and which `hand` can make as the
    /// seat's meld history allows (`reuse`, by meld), the one worth most (the first of equals).
    /// `card` is among the cards it uses.
    #[allow(clippy::too_many_arguments)]
    pub fn shown(
        &self,
        melds: &[Meld],
        decl: DeclId,
        moment: MeldMoment,
        trump: usize,
        hand: CardSet,
        card: CardId,
        reuse: impl Fn(u16) -> Reuse,
    ) -> Option<Shown> {
        let mut best: Option<Shown> = None;
        for inst in self.by_trump.get(trump)? {
            if !inst.cards.contains(card) || (inst.cards & hand).len() < inst.size {
                continue;
            }
            let m = &melds[inst.meld as usize];
            if m.moment != moment
                || m.declaration != Some(decl)
                || best.is_some_and(|b| b.points >= inst.points)
            {
                continue;
            }
            let r = reuse(inst.meld);
            if let Some(cards) = take_new(inst, hand - r.blocked, Some(card), &r) {
                best = Some(Shown {
                    melded: Melded {
                        meld: inst.meld,
                        cards,
                    },
                    points: inst.points,
                });
            }
        }
        best
    }
}

impl MeldTable {
    /// The points of the melds shown after play that `keep` keeps and that `hand` holds with
    /// trump suit `trump` (`suits.len()`: none), each instance counted (a bot's estimate).
    pub fn held_points(
        &self,
        melds: &[Meld],
        trump: usize,
        hand: CardSet,
        keep: impl Fn(&Meld) -> bool,
    ) -> i64 {
        self.by_trump.get(trump).map_or(0, |list| {
            list.iter()
                .filter(|i| keep(&melds[i.meld as usize]) && take(i, hand).is_some())
                .map(|i| i.points)
                .sum()
        })
    }
}

/// The cards `instance` takes from `avail`, `card` among them when named, as `reuse` says: the
/// cards used again in their class first (so that unshown copies stay free for later melds),
/// and, where a new card is needed, with one; `None` when it cannot.
pub fn take_new(
    instance: &Instance,
    avail: CardSet,
    card: Option<CardId>,
    reuse: &Reuse,
) -> Option<CardSet> {
    let used = take_preferring(instance, avail, card, reuse.again)?;
    if !reuse.needs_new || !(used - reuse.old).is_empty() {
        return Some(used);
    }
    // Taken again with the new cards first: a card outside `old` if any will serve.
    let used = take_preferring(instance, avail, card, avail - reuse.old)?;
    (!(used - reuse.old).is_empty()).then_some(used)
}

/// The cards `instance` takes from `avail`: of each set the named `card` first, then the cards
/// of `prefer`, then the others in deck order; `None` when it cannot (or `card` is not among
/// them).
fn take_preferring(
    instance: &Instance,
    avail: CardSet,
    card: Option<CardId>,
    prefer: CardSet,
) -> Option<CardSet> {
    let named = card.map_or(CardSet::EMPTY, CardSet::single);
    if !named.is_empty() && (avail & named).is_empty() {
        return None;
    }
    let mut used = CardSet::EMPTY;
    for &(set, count) in &instance.needs {
        let have = avail & set;
        if have.len() < count {
            return None;
        }
        let first = have & named;
        let then = (have - first) & prefer;
        for c in first
            .iter()
            .chain(then.iter())
            .chain((have - first - then).iter())
            .take(count as usize)
        {
            used.insert(c);
        }
    }
    (named - used).is_empty().then_some(used)
}
