//! The expected result of hands played by actions (`[flow.play]`, Blackjack) on an infinite
//! deck: every card is drawn with its share of the pack, whatever was dealt before. From the
//! ruleset alone (its actions and their `when`, the banker's drawing rules, the peek, the
//! payouts and the ranks) it finds the best action for each hand against each banker's shown
//! card, the expected result of that play (basic strategy) per chip staked, and the result of
//! a hand that plays by the banker's own drawing rules ("play like the dealer").
//!
//! Cards are taken as alike when they add the same `card_value` and, when `value`, `soft` or
//! a rank reads them by name or kind, belong to the same kinds (suits and attributes are not
//! told apart: a ruleset whose hands read them is valued as if they did not matter). Splits are valued as independent hands: each of the two hands plays
//! on its own, with the number of hands the seat then holds. Insurance is declined.

use crate::deck::{CardId, Deck};
use crate::families::banker::ranking::Ranked;
use crate::families::banker::{hand_outcome, outcome_of, play_facts};

/// The banker's facts among [`crate::ruleset::scope::PLAY`]'s: its total, cards, last card,
/// softness and shown card.
const BANKER_FACTS: [usize; 5] = [3, 4, 5, 7, 12];
use crate::ruleset::{BankerFlow, DrawAction, PayResult, PlayEffect};
use std::collections::HashMap;

/// A hand's classes in the order that keys the memos: the first card first (the actions may
/// read it: `player_first`), the others sorted.
fn canonical(hand: &mut [usize]) {
    if hand.len() > 2 {
        hand[1..].sort_unstable();
    }
}

/// How a hand is played in the analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The action with the best expected result, at every decision.
    Best,
    /// The banker's drawing rules, read on the player's hand: hit where they draw, else
    /// stand; never double, split or surrender.
    LikeBanker,
}

/// The banker's final hands (classes) with their chance given no peek, and the peek's chance.
type Finals = (Vec<(Vec<usize>, f64)>, f64);

/// A class of alike cards: one card to stand for them, and their share of the pack.
#[derive(Clone, Debug)]
struct Class {
    card: CardId,
    share: f64,
}

/// The infinite-deck model of a ruleset: its card classes and the memos of hands valued.
#[derive(Clone)]
pub struct PlayOdds {
    flow: std::sync::Arc<BankerFlow>,
    classes: Vec<Class>,
    /// Each deck card's class.
    class_of: Vec<usize>,
    /// For each shown card's class: the banker's final hands (classes) with their chance,
    /// given no peek, and the chance of a peek.
    banker: Vec<Option<Finals>>,
    /// For each shown card's class: the banker's final hands as their facts and rank, with
    /// their chance (alike hands merged).
    settled: Vec<Vec<([i64; 13], Ranked, f64)>>,
    /// (up class, hand classes ([`canonical`]), split, hands, policy) -> the hand's value.
    memo: HashMap<(usize, Vec<usize>, bool, usize, Policy), f64>,
    /// (up class, hand classes, split, hands) -> the result of standing.
    stand_memo: HashMap<(usize, [i64; 13], Ranked), f64>,
}

impl PlayOdds {
    /// The model of `flow` over `deck`.
    pub fn new(flow: &std::sync::Arc<BankerFlow>, deck: &Deck) -> PlayOdds {
        let flow = std::sync::Arc::clone(flow);
        let mut classes: Vec<Class> = Vec::new();
        let mut keys: Vec<(i64, Vec<String>)> = Vec::new();
        let mut class_of = Vec::new();
        let n = deck.cards.len() as f64;
        // The cards a hand's value, softness or rank reads by name or kind: the others count
        // only by their `card_value`.
        let mut read = flow.value.cards_read();
        let programs = flow
            .soft
            .iter()
            .chain(
                flow.ranks
                    .iter()
                    .flat_map(|r| std::iter::once(&r.when).chain(&r.within)),
            )
            .chain(flow.specials.iter().map(|s| &s.when));
        for p in programs {
            read |= p.cards_read();
        }
        for (i, card) in deck.cards.iter().enumerate() {
            let kinds = if read.contains(CardId(i as u8)) {
                card.kinds.clone()
            } else {
                Vec::new()
            };
            let key = (flow.card_points[i], kinds);
            let c = match keys.iter().position(|k| *k == key) {
                Some(c) => c,
                None => {
                    keys.push(key);
                    classes.push(Class {
                        card: CardId(i as u8),
                        share: 0.0,
                    });
                    classes.len() - 1
                }
            };
            classes[c].share += 1.0 / n;
            class_of.push(c);
        }
        let banker = vec![None; classes.len()];
        let settled = vec![Vec::new(); classes.len()];
        PlayOdds {
            settled,
            flow,
            classes,
            class_of,
            banker,
            memo: HashMap::new(),
            stand_memo: HashMap::new(),
        }
    }

    fn cards(&self, hand: &[usize]) -> Vec<CardId> {
        hand.iter().map(|&c| self.classes[c].card).collect()
    }

    fn peeks(&self, banker: &[usize]) -> bool {
        let play = self.flow.play.as_ref().expect("hands played by actions");
        let cards = self.cards(banker);
        let facts = play_facts(&self.flow, None, 0, &cards, cards.first().copied());
        play.peek.as_ref().is_some_and(|p| {
            p.truth(&crate::expr::Context {
                pile: crate::deck::CardSet::EMPTY,
                facts: &facts,
            })
        })
    }

    /// The banker's final hands from a shown card of class `up`, without the peek's hands.
    fn banker_finals(&mut self, up: usize) -> &Finals {
        if self.banker[up].is_none() {
            let mut finals = Vec::new();
            let mut peek = 0.0;
            let first = self.flow.banker_tiles.max(1) as usize;
            let mut starts: Vec<(Vec<usize>, f64)> = vec![(vec![up], 1.0)];
            for _ in 1..first {
                starts = starts
                    .into_iter()
                    .flat_map(|(h, w)| {
                        (0..self.classes.len()).map(move |c| {
                            let mut h = h.clone();
                            h.push(c);
                            (h, w)
                        })
                    })
                    .map(|(h, w)| {
                        let share = self.classes[*h.last().expect("a card")].share;
                        (h, w * share)
                    })
                    .collect();
            }
            for (h, w) in starts {
                if self.peeks(&h) {
                    peek += w;
                } else {
                    self.draw_banker(h, w, &mut finals);
                }
            }
            let kept = 1.0 - peek;
            // Hands alike in every fact a payout reads and in their rank settle alike: one
            // stands for them all, with their chances added.
            let mut merged: Vec<(Vec<usize>, f64)> = Vec::new();
            let mut seen: HashMap<([i64; 13], usize, i64, Option<usize>), usize> = HashMap::new();
            for (h, w) in finals {
                let cards = self.cards(&h);
                let facts = play_facts(&self.flow, None, 0, &cards, cards.first().copied());
                let r = crate::families::banker::ranking::rank_cards(&self.flow, &cards);
                match seen.entry((facts, r.rank, r.within, r.special)) {
                    std::collections::hash_map::Entry::Occupied(e) => merged[*e.get()].1 += w,
                    std::collections::hash_map::Entry::Vacant(e) => {
                        e.insert(merged.len());
                        merged.push((h, w));
                    }
                }
            }
            for f in &mut merged {
                f.1 /= kept.max(f64::MIN_POSITIVE);
            }
            self.settled[up] = merged
                .iter()
                .map(|(h, w)| {
                    let cards = self.cards(h);
                    let facts = play_facts(&self.flow, None, 0, &cards, cards.first().copied());
                    let r = crate::families::banker::ranking::rank_cards(&self.flow, &cards);
                    (facts, r, *w)
                })
                .collect();
            self.banker[up] = Some((merged, peek));
        }
        self.banker[up].as_ref().expect("computed")
    }

    fn draw_banker(&self, hand: Vec<usize>, weight: f64, out: &mut Vec<(Vec<usize>, f64)>) {
        let cards = self.cards(&hand);
        let facts = play_facts(&self.flow, None, 0, &cards, cards.first().copied());
        let cx = crate::expr::Context {
            pile: crate::deck::CardSet::EMPTY,
            facts: &facts,
        };
        let draws = hand.len() < 24
            && self
                .flow
                .banker_draw
                .iter()
                .find(|r| r.when.truth(&cx))
                .is_some_and(|r| r.action == DrawAction::Draw);
        if !draws {
            out.push((hand, weight));
            return;
        }
        for c in 0..self.classes.len() {
            let mut h = hand.clone();
            h.push(c);
            self.draw_banker(h, weight * self.classes[c].share, out);
        }
    }

    /// The expected result per chip of standing on `hand` against the shown card `up`: hands
    /// alike in their facts and rank stand alike.
    fn stand(&mut self, up: usize, hand: &[usize], split: bool, hands: usize) -> f64 {
        let cards = self.cards(hand);
        let player = play_facts(&self.flow, Some((&cards, split)), hands, &[], None);
        let rank = crate::families::banker::ranking::rank_cards(&self.flow, &cards);
        let key = (up, player, rank);
        if let Some(&v) = self.stand_memo.get(&key) {
            return v;
        }
        self.banker_finals(up);
        let ranks = !self.flow.ranks.is_empty();
        let mut ev = 0.0;
        for (banker, b_rank, w) in &self.settled[up] {
            let mut facts = player;
            for i in BANKER_FACTS {
                facts[i] = banker[i];
            }
            let pair = ranks.then_some((rank, *b_rank));
            let (result, (n, d), _) = outcome_of(&self.flow, &facts, pair.as_ref());
            let r = n as f64 / d as f64;
            ev += w * match result {
                PayResult::Win => r,
                PayResult::Push => 0.0,
                PayResult::Lose => -r,
            };
        }
        self.stand_memo.insert(key, ev);
        ev
    }

    /// The open actions of `hand` against the shown card `up`, as the game offers them.
    fn open(&self, up: usize, hand: &[usize], split: bool, hands: usize) -> Vec<PlayEffect> {
        let play = self.flow.play.as_ref().expect("hands played by actions");
        let cards = self.cards(hand);
        let shown = [self.classes[up].card];
        let facts = play_facts(
            &self.flow,
            Some((&cards, split)),
            hands,
            &shown,
            Some(shown[0]),
        );
        let cx = crate::expr::Context {
            pile: crate::deck::CardSet::EMPTY,
            facts: &facts,
        };
        let mut out: Vec<PlayEffect> = play
            .actions
            .iter()
            .filter(|a| {
                let engine = match a.effect {
                    PlayEffect::Split => hand.len() == 2 && hands < play.split_hands as usize,
                    PlayEffect::Hit | PlayEffect::Double => hand.len() < 24,
                    _ => true,
                };
                engine && a.when.as_ref().is_none_or(|w| w.truth(&cx))
            })
            .map(|a| a.effect)
            .collect();
        out.dedup();
        out
    }

    /// The value of `effect` on `hand`, played by `policy` after.
    fn value_of(
        &mut self,
        effect: PlayEffect,
        up: usize,
        hand: &[usize],
        split: bool,
        hands: usize,
        policy: Policy,
    ) -> f64 {
        let k = self.classes.len();
        let with = |c: usize| {
            let mut h = hand.to_vec();
            h.push(c);
            canonical(&mut h);
            h
        };
        match effect {
            PlayEffect::Stand => self.stand(up, hand, split, hands),
            PlayEffect::Surrender => -0.5,
            PlayEffect::Hit => (0..k)
                .map(|c| self.classes[c].share * self.best(up, &with(c), split, hands, policy))
                .sum(),
            PlayEffect::Double => {
                2.0 * (0..k)
                    .map(|c| self.classes[c].share * self.stand(up, &with(c), split, hands))
                    .sum::<f64>()
            }
            PlayEffect::Split => {
                let one = hand[0];
                2.0 * (0..k)
                    .map(|c| {
                        let h = vec![one, c];
                        self.classes[c].share * self.best(up, &h, true, hands + 1, policy)
                    })
                    .sum::<f64>()
            }
        }
    }

    /// The expected result per chip of `hand` (classes, sorted) against the shown card `up`
    /// played by `policy`: a hand with no choice but standing stands.
    pub fn best(
        &mut self,
        up: usize,
        hand: &[usize],
        split: bool,
        hands: usize,
        policy: Policy,
    ) -> f64 {
        let key = (up, hand.to_vec(), split, hands, policy);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let open = self.open(up, hand, split, hands);
        let v = match policy {
            Policy::Best => {
                let mut best = f64::NEG_INFINITY;
                for e in open.iter().copied() {
                    best = best.max(self.value_of(e, up, hand, split, hands, policy));
                }
                if open.iter().all(|&e| e == PlayEffect::Stand) {
                    best = self.stand(up, hand, split, hands);
                }
                best
            }
            Policy::LikeBanker => {
                let cards = self.cards(hand);
                let facts = play_facts(&self.flow, None, 0, &cards, cards.first().copied());
                let cx = crate::expr::Context {
                    pile: crate::deck::CardSet::EMPTY,
                    facts: &facts,
                };
                let draws = self
                    .flow
                    .banker_draw
                    .iter()
                    .find(|r| r.when.truth(&cx))
                    .is_some_and(|r| r.action == DrawAction::Draw);
                if draws && open.contains(&PlayEffect::Hit) {
                    self.value_of(PlayEffect::Hit, up, hand, split, hands, policy)
                } else {
                    self.stand(up, hand, split, hands)
                }
            }
        };
        self.memo.insert(key, v);
        v
    }

    /// The class of a deck card.
    pub fn class(&self, card: CardId) -> usize {
        self.class_of[card.index()]
    }

    /// The value of each of `effects` for a hand of `cards` against the shown card `up`, played
    /// at its best after: what the bots choose by.
    pub fn action_values(
        &mut self,
        up: CardId,
        cards: &[CardId],
        split: bool,
        hands: usize,
        effects: &[PlayEffect],
    ) -> Vec<f64> {
        let up = self.class(up);
        let mut hand: Vec<usize> = cards.iter().map(|&c| self.class(c)).collect();
        canonical(&mut hand);
        effects
            .iter()
            .map(|&e| self.value_of(e, up, &hand, split, hands, Policy::Best))
            .collect()
    }

    /// The expected result per chip staked of a whole hand played by `policy`, over every
    /// first hand and shown card (the peek's hands settled on the first cards), and the best
    /// action of each two-card hand against each shown card.
    pub fn edge(&mut self, policy: Policy) -> PlayEdge {
        let k = self.classes.len();
        let first = self.flow.first_tiles as usize;
        let mut starts: Vec<(Vec<usize>, f64)> = vec![(Vec::new(), 1.0)];
        for _ in 0..first {
            let mut next = Vec::new();
            for (h, w) in &starts {
                for c in 0..k {
                    let mut h = h.clone();
                    h.push(c);
                    canonical(&mut h);
                    next.push((h, w * self.classes[c].share));
                }
            }
            starts = next;
        }
        let mut ev = 0.0;
        for up in 0..k {
            let pu = self.classes[up].share;
            let peek = self.banker_finals(up).1;
            // The peek's hands: the player's first cards against the banker's.
            if peek > 0.0 {
                for hole in 0..k {
                    let banker = vec![up, hole];
                    if self.flow.banker_tiles != 2 || !self.peeks(&banker) {
                        continue;
                    }
                    let bc = self.cards(&banker);
                    for (h, w) in &starts {
                        let cards = self.cards(h);
                        let (result, (n, d), _) = hand_outcome(&self.flow, &cards, false, 1, &bc);
                        let r = n as f64 / d as f64;
                        let v = match result {
                            PayResult::Win => r,
                            PayResult::Push => 0.0,
                            PayResult::Lose => -r,
                        };
                        ev += pu * self.classes[hole].share * w * v;
                    }
                }
            }
            for (h, w) in &starts {
                ev += pu * (1.0 - peek) * w * self.best(up, h, false, 1, policy);
            }
        }
        PlayEdge { ev, classes: k }
    }

    /// The best action of a two-card hand of `cards` (classes) against the shown card `up`.
    pub fn best_action(&mut self, up: usize, hand: &[usize]) -> Option<PlayEffect> {
        let mut hand = hand.to_vec();
        canonical(&mut hand);
        let open = self.open(up, &hand, false, 1);
        let mut best: Option<(PlayEffect, f64)> = None;
        for e in open {
            let v = self.value_of(e, up, &hand, false, 1, Policy::Best);
            if best.is_none_or(|(_, b)| v > b + 1e-12) {
                best = Some((e, v));
            }
        }
        best.map(|(e, _)| e)
    }

    /// The classes: a card standing for each, and its share of the pack.
    pub fn class_cards(&self) -> Vec<(CardId, f64)> {
        self.classes.iter().map(|c| (c.card, c.share)).collect()
    }
}

/// The expected result of a whole hand per chip staked.
#[derive(Clone, Copy, Debug)]
pub struct PlayEdge {
    /// The player's expected result per chip of the first stake (negative: the house's edge).
    pub ev: f64,
    /// Classes of alike cards.
    pub classes: usize,
}
