//! What the exact analysis of hands per seat (`seats::seat_odds`) goes through,
//! counted before it starts, so that an enumeration too large to finish is refused with its
//! size rather than run for hours (issue 47: a game that draws until 17 kept `yaku sim` with the
//! `greedy` bot busy for over ten minutes with nothing shown).
//!
//! The analysis plays every player's hand it stands on against every banker's hand; both are
//! counted here by walking each side alone through its drawing rules, the cards classed as the
//! analysis classes them. The product bounds the work: against one player's hand the banker
//! reaches at most the hands it reaches from a full pack.

use crate::deck::{CardId, CardSet};
use crate::families::banker::{banker_instant_win, hand_value, rule_for};
use crate::ruleset::{BankerFlow, DrawAction, Ruleset};
use std::collections::HashSet;

/// The most steps each side's count walks through before it stops and reports "at least": well
/// under a second in a release build (a game that draws until 17 from a 52-card pack takes some
/// 50,000 a side).
pub const COUNT_CAP: u64 = 500_000;

/// The size of an exact analysis of hands per seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatWork {
    /// The player's hands the analysis stands on: each is played out against every banker's
    /// hand.
    pub player_hands: u64,
    /// The banker's hands (first cards and every draw) from a full pack.
    pub banker_hands: u64,
    /// True when a count stopped early: the work is at least this (and over the limit).
    pub more: bool,
    /// True when a count stopped at [`COUNT_CAP`] steps: beyond any limit worth asking for.
    pub capped: bool,
}

impl SeatWork {
    /// The banker's hands played out in all, at most: player's hands × banker's hands.
    pub fn total(&self) -> u128 {
        u128::from(self.player_hands) * u128::from(self.banker_hands)
    }

    /// The work in words: `1,234 player's hands against 567 banker's hands`.
    pub fn words(&self) -> String {
        format!(
            "{}{} player's hands against {} banker's hands",
            if self.more { "at least " } else { "" },
            self.player_hands,
            self.banker_hands
        )
    }
}

/// One side's hands, by the class counts of its cards.
struct Count<'a> {
    flow: &'a BankerFlow,
    /// The banker's side (else the player's).
    banker: bool,
    members: &'a [Vec<CardId>],
    /// Cards of each class not yet dealt.
    left: Vec<u32>,
    /// Hands already walked from (with the cards still to take, `u32::MAX` for the rules).
    seen: HashSet<(Vec<u8>, u32)>,
    /// The hands the side stands on.
    stands: HashSet<Vec<u8>>,
    steps: u64,
    capped: bool,
    /// The most hands to count (stood on by the player, played out by the banker) before the
    /// count stops.
    most: u64,
    more: bool,
    /// The most cards a hand reached.
    deepest: u32,
}

impl Count<'_> {
    fn cards(&self, counts: &[u8]) -> CardSet {
        let mut set = CardSet::EMPTY;
        for (k, &n) in counts.iter().enumerate() {
            for &c in &self.members[k][..n as usize] {
                set.insert(c);
            }
        }
        set
    }

    /// False once the count is over the cap, or over the hands wanted.
    fn step(&mut self) -> bool {
        self.steps += 1;
        if self.steps > COUNT_CAP {
            self.capped = true;
        }
        if self.capped || self.hands() > self.most {
            self.more = true;
        }
        !self.more
    }

    /// The hands counted: those the player stands on, or those the banker plays out.
    fn hands(&self) -> u64 {
        (if self.banker {
            self.seen.len()
        } else {
            self.stands.len()
        }) as u64
    }

    /// Calls `next` with one more card of each class left.
    fn each_card(&mut self, hand: &mut Vec<u8>, next: &mut dyn FnMut(&mut Self, &mut Vec<u8>)) {
        for k in 0..self.left.len() {
            if self.left[k] == 0 || self.more {
                continue;
            }
            self.left[k] -= 1;
            hand[k] += 1;
            next(self, hand);
            hand[k] -= 1;
            self.left[k] += 1;
        }
    }

    /// `n` first cards, then `rules`.
    fn first(&mut self, hand: &mut Vec<u8>, n: u32, banker: bool) {
        if !self.step() {
            return;
        }
        if n > 0 {
            self.each_card(hand, &mut |c, h| c.first(h, n - 1, banker));
            return;
        }
        if banker && banker_instant_win(self.flow, self.cards(hand)).is_some() {
            self.stands.insert(hand.clone());
            return;
        }
        self.rules(hand, banker);
    }

    /// The side's drawing rules on `hand`.
    fn rules(&mut self, hand: &mut Vec<u8>, banker: bool) {
        if !self.step() || !self.seen.insert((hand.clone(), u32::MAX)) {
            return;
        }
        let cards = self.cards(hand);
        self.deepest = self.deepest.max(cards.len());
        let (value, len) = (hand_value(self.flow, cards), i64::from(cards.len()));
        let (rules, facts) = if banker {
            (&self.flow.banker_draw, [0, 0, -1, value, len, -1])
        } else {
            (&self.flow.player_draw, [value, len, -1, 0, 0, -1])
        };
        let room = self.left.iter().any(|&n| n > 0) && cards.len() < CardSet::CAPACITY as u32;
        match rule_for(rules, &facts).map(|r| r.action) {
            Some(DrawAction::Draw) if room => {
                self.each_card(hand, &mut |c, h| c.rules(h, banker));
            }
            Some(DrawAction::Choose) if !banker => {
                for d in self.flow.draw_options.clone() {
                    self.take(hand, d);
                }
            }
            _ => {
                self.stands.insert(hand.clone());
            }
        }
    }

    /// `n` more cards at random, then the hand stands.
    fn take(&mut self, hand: &mut Vec<u8>, n: u32) {
        if !self.step() || !self.seen.insert((hand.clone(), n)) {
            return;
        }
        if n == 0 || self.left.iter().all(|&k| k == 0) {
            self.stands.insert(hand.clone());
            return;
        }
        self.each_card(hand, &mut |c, h| c.take(h, n - 1));
    }
}

/// Walks one side's hands from a full pack, at most `most` of them: the hands it stands on (the
/// player) or plays out (the banker), whether the count stopped early, and the most cards a
/// hand reached.
fn count(ruleset: &Ruleset, flow: &BankerFlow, banker: bool, most: u64) -> (u64, bool, bool, u32) {
    let (members, _) = classes(ruleset, flow);
    let mut c = Count {
        flow,
        banker,
        members: &members,
        left: members.iter().map(|m| m.len() as u32).collect(),
        seen: HashSet::new(),
        stands: HashSet::new(),
        steps: 0,
        most,
        more: false,
        capped: false,
        deepest: 0,
    };
    let mut hand = vec![0u8; members.len()];
    let n = if banker {
        flow.banker_tiles
    } else {
        flow.first_tiles
    };
    c.first(&mut hand, n, banker);
    c.deepest = c.deepest.max(n);
    (c.hands(), c.more, c.capped, c.deepest)
}

/// Counts what `seats::seat_odds` goes through for `flow` over the cards of `ruleset`,
/// without computing any odds; the count stops early (`more`) at [`COUNT_CAP`] steps a side, or
/// once the work is known to be over `limit`.
pub fn seat_work(ruleset: &Ruleset, flow: &BankerFlow, limit: u128) -> SeatWork {
    let (banker_hands, more_banker, capped_banker, _) = count(ruleset, flow, true, u64::MAX);
    // Past the limit the player's hands are counted no further, but never fewer than a tenth
    // of the cap: a refused run still learns its size when that is cheap to count.
    let most = u64::try_from(limit / u128::from(banker_hands.max(1)))
        .unwrap_or(u64::MAX)
        .max(COUNT_CAP / 10);
    let (player_hands, more_player, capped_player, _) = count(ruleset, flow, false, most);
    SeatWork {
        player_hands,
        banker_hands,
        more: more_player || more_banker,
        capped: capped_player || capped_banker,
    }
}

/// The most cards the banker's hand reaches from a full pack, by its drawing rules (with fewer
/// cards in the pack it reaches no more); `None` when the count stopped at [`COUNT_CAP`].
pub(super) fn banker_depth(ruleset: &Ruleset, flow: &BankerFlow) -> Option<u32> {
    let (_, more, _, deepest) = count(ruleset, flow, true, u64::MAX);
    (!more).then_some(deepest)
}

/// True when no expression of the showdown or the draws reads the cards themselves: the hand's
/// value, ranks and special hands, the drawing rules and the banker's instant wins read only
/// `hand_points` and `hand_cards` (or the drawing rules' facts).
fn reads_no_card(flow: &BankerFlow) -> bool {
    let mut programs: Vec<&crate::expr::Program> = vec![&flow.value];
    programs.extend(flow.player_draw.iter().map(|r| &r.when));
    programs.extend(flow.banker_draw.iter().map(|r| &r.when));
    programs.extend(flow.banker_wins.iter().map(|c| &c.when));
    for r in &flow.ranks {
        programs.push(&r.when);
        programs.extend(&r.within);
    }
    programs.extend(flow.specials.iter().map(|s| &s.when));
    programs.iter().all(|p| p.cards_read().is_empty())
}

/// The cards of `ruleset` in classes the rules cannot tell apart, and each card's class (by
/// card id): cards alike in suit, kinds, attributes and card value; alike in card value alone
/// when no rule reads the cards themselves (only `hand_points` and `hand_cards`), as in a game
/// that counts to 21, where a 52-card pack is 10 classes, not 52.
pub(super) fn classes(ruleset: &Ruleset, flow: &BankerFlow) -> (Vec<Vec<CardId>>, Vec<usize>) {
    let deck = &ruleset.deck;
    let by_value = reads_no_card(flow);
    let key = |c: CardId| {
        let card = deck.card(c);
        let attrs: Vec<i64> = deck
            .attributes
            .iter()
            .map(|a| a.values[c.index()])
            .collect();
        if by_value {
            (0, Vec::new(), Vec::new(), flow.card_points[c.index()])
        } else {
            (
                card.suit,
                card.kinds.clone(),
                attrs,
                flow.card_points[c.index()],
            )
        }
    };
    let mut keys = Vec::new();
    let mut members: Vec<Vec<CardId>> = Vec::new();
    let mut class_of = vec![0usize; deck.cards.len()];
    for c in deck.all().iter() {
        let k = key(c);
        let i = match keys.iter().position(|x| *x == k) {
            Some(i) => i,
            None => {
                keys.push(k);
                members.push(Vec::new());
                keys.len() - 1
            }
        };
        members[i].push(c);
        class_of[c.index()] = i;
    }
    (members, class_of)
}
