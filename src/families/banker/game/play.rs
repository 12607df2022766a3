//! Hands played by actions (`[flow.play]`, Blackjack): each seat bets, is dealt its first
//! cards from the shoe and the banker its own (the first `banker_shown` seen); insurance is
//! offered where `[flow.insurance]` says; when the banker's hand meets `peek` the hands are
//! settled at once; otherwise each seat plays each of its hands by the ruleset's actions
//! (declarations of effect `hit`, `stand`, `double`, `split`, `surrender`, each with its `when`)
//! until it stands, then the banker draws by its rules and each hand is settled by the first
//! `[[flow.payout]]` that holds, else by comparing the hands (a win pays 1 to 1, equal hands
//! push).
//!
//! A shoe may hold a card twice, so the hands are lists of cards, as on a table hand.

use super::{BankerGame, BankerPhase, PlayerResult};
use crate::core::{Action, IllegalAction};
use crate::deck::{CardId, CardSet};
use crate::expr::{Context, Program};
use crate::families::banker::ranking::{Ranked, compare, rank_cards, words};
use crate::families::banker::value::cards_value;
use crate::ruleset::{BankerFlow, DrawAction, PayResult, Play, PlayEffect};
use serde::Serialize;
use std::sync::Arc;

/// The most cards one hand takes.
const MOST_CARDS: usize = CardSet::CAPACITY;

/// One hand a seat plays by actions (several after a split).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatHand {
    /// The seat that holds it.
    pub seat: usize,
    /// Its cards, in the order dealt.
    pub cards: Vec<CardId>,
    /// The chips staked on it (doubled by `double`).
    pub stake: i64,
    /// It came from a split.
    pub split: bool,
    /// It takes no more actions.
    pub done: bool,
    /// It was doubled.
    pub doubled: bool,
    /// It was surrendered.
    pub surrendered: bool,
}

/// One hand played by actions, settled: part of a [`PlayerResult`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandPlayed {
    /// Its cards, in the order dealt.
    pub cards: Vec<CardId>,
    /// Its value.
    pub value: i64,
    /// Its rank in words, when the ruleset ranks hands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<String>,
    /// The stake, doubled included.
    pub stake: i64,
    /// What happened to it: `split`, `double`, `surrender`, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<&'static str>,
    /// The payout that settled it (its name), or `compared`, or `surrender`.
    pub settled_by: String,
    /// Chips won (positive) or lost (negative).
    pub result: i64,
}

/// The facts of [`crate::ruleset::scope::PLAY`] for `hand` (none: the banker's rules) against
/// the banker's `banker` cards (the shown ones while the seats act, else all), `hands` the
/// hands its seat holds.
pub fn play_facts(
    flow: &BankerFlow,
    hand: Option<(&[CardId], bool)>,
    hands: usize,
    banker: &[CardId],
    up: Option<CardId>,
) -> [i64; 13] {
    let points = |c: &CardId| flow.card_points[c.index()];
    let drew = |cards: &[CardId], first: u32| match cards.len() > first as usize {
        true => cards.last().map_or(-1, points),
        false => -1,
    };
    let (cards, split) = hand.unwrap_or((&[], false));
    let pair = cards.len() == 2 && points(&cards[0]) == points(&cards[1]);
    [
        cards_value(flow, cards),
        cards.len() as i64,
        drew(cards, flow.first_tiles),
        cards_value(flow, banker),
        banker.len() as i64,
        drew(banker, flow.banker_tiles),
        i64::from(is_soft(flow, cards)),
        i64::from(is_soft(flow, banker)),
        i64::from(pair),
        cards.first().map_or(-1, points),
        i64::from(split),
        hands as i64,
        up.as_ref().map_or(-1, points),
    ]
}

/// True when `[flow] soft` holds on `cards`.
pub fn is_soft(flow: &BankerFlow, cards: &[CardId]) -> bool {
    let Some(soft) = &flow.soft else {
        return false;
    };
    if cards.is_empty() {
        return false;
    }
    let pile: CardSet = cards.iter().copied().collect();
    let points = cards.iter().map(|c| flow.card_points[c.index()]).sum();
    soft.truth(&Context {
        pile,
        facts: &[points, cards.len() as i64],
    })
}

fn holds(program: &Program, facts: &[i64; 13]) -> bool {
    program.truth(&Context {
        pile: CardSet::EMPTY,
        facts,
    })
}

/// The play rules of a flow that has them.
fn play_of(flow: &BankerFlow) -> &Play {
    flow.play.as_ref().expect("hands played by actions")
}

/// How a hand that stood (not surrendered) settles against the banker's whole hand: the
/// first payout that holds, else the hands compared (a win 1 to 1, equal a push); with the
/// payout's name, or `compared`.
pub fn hand_outcome<'f>(
    flow: &'f BankerFlow,
    cards: &[CardId],
    split: bool,
    hands: usize,
    banker: &[CardId],
) -> (PayResult, (i64, i64), &'f str) {
    let facts = play_facts(
        flow,
        Some((cards, split)),
        hands,
        banker,
        banker.first().copied(),
    );
    let ranked =
        (!flow.ranks.is_empty()).then(|| (rank_cards(flow, cards), rank_cards(flow, banker)));
    outcome_of(flow, &facts, ranked.as_ref())
}

/// [`hand_outcome`] from the facts of both hands and, when the ruleset ranks hands, the ranks
/// of the player's hand and the banker's.
pub fn outcome_of<'f>(
    flow: &'f BankerFlow,
    facts: &[i64; 13],
    ranked: Option<&(Ranked, Ranked)>,
) -> (PayResult, (i64, i64), &'f str) {
    if let Some(p) = play_of(flow).payouts.iter().find(|p| holds(&p.when, facts)) {
        return (p.result, p.pays, &p.name);
    }
    let order = match ranked {
        Some((player, banker)) => compare(flow, player, banker),
        None => facts[0].cmp(&facts[3]),
    };
    let result = match order {
        std::cmp::Ordering::Greater => PayResult::Win,
        std::cmp::Ordering::Equal => PayResult::Push,
        std::cmp::Ordering::Less => PayResult::Lose,
    };
    (result, (1, 1), "compared")
}

/// A hand's result in chips at the showdown against the banker's whole hand, and what settled
/// it: half the stake lost (rounded up) on a surrender, else [`hand_outcome`] on the stake (a
/// win rounded down, a loss up, to whole chips).
pub fn settle_hand(
    flow: &BankerFlow,
    hand: &SeatHand,
    hands: usize,
    banker: &[CardId],
) -> (i64, String) {
    if hand.surrendered {
        return (-((hand.stake + 1) / 2), "surrender".to_string());
    }
    let (result, pays, name) = hand_outcome(flow, &hand.cards, hand.split, hands, banker);
    (result.chips(pays, hand.stake), name.to_string())
}

impl BankerGame {
    /// The hands played by actions this deal, in turn order (a split's second hand follows
    /// its first).
    pub fn seat_hands(&self) -> &[SeatHand] {
        &self.seat_hands
    }

    /// The hand to act, its index in [`BankerGame::seat_hands`], while the seats act.
    pub fn acting_hand(&self) -> Option<usize> {
        matches!(self.phase, BankerPhase::Act { .. }).then_some(self.acting)
    }

    /// The banker's cards a seat sees now: the shown ones while the seats act, all after.
    pub fn banker_seen(&self) -> &[CardId] {
        let play = play_of(&self.flow);
        match self.phase {
            BankerPhase::Act { .. } | BankerPhase::Insure { .. } | BankerPhase::Bet { .. } => {
                &self.banco[..(play.banker_shown as usize).min(self.banco.len())]
            }
            _ => &self.banco,
        }
    }

    /// Hands `seat` holds this deal.
    fn hands_of(&self, seat: usize) -> usize {
        self.seat_hands.iter().filter(|h| h.seat == seat).count()
    }

    /// Chips `seat` has staked this deal, insurance included.
    fn play_staked(&self, seat: usize) -> i64 {
        let hands: i64 = self
            .seat_hands
            .iter()
            .filter(|h| h.seat == seat)
            .map(|h| h.stake)
            .sum();
        hands + self.insured[seat]
    }

    /// The facts of hand `i` while the seats act.
    fn acting_facts(&self, i: usize) -> [i64; 13] {
        let h = &self.seat_hands[i];
        // The banker's first card is read only when the seats see it.
        let seen = self.banker_seen();
        play_facts(
            &self.flow,
            Some((&h.cards, h.split)),
            self.hands_of(h.seat),
            seen,
            seen.first().copied(),
        )
    }

    /// True when hand `i` may take `action` now: its `when`, and what the engine needs (chips
    /// to stake again, two cards and room for another hand to split, room for a card).
    fn open(
        &self,
        i: usize,
        effect: PlayEffect,
        when: Option<&Program>,
        facts: &[i64; 13],
    ) -> bool {
        let h = &self.seat_hands[i];
        let free = self.ledger.scores[h.seat] - self.play_staked(h.seat);
        let engine = match effect {
            PlayEffect::Hit => h.cards.len() < MOST_CARDS,
            PlayEffect::Stand | PlayEffect::Surrender => true,
            PlayEffect::Double => free >= h.stake && h.cards.len() < MOST_CARDS,
            PlayEffect::Split => {
                h.cards.len() == 2
                    && free >= h.stake
                    && self.hands_of(h.seat) < play_of(&self.flow).split_hands as usize
            }
        };
        engine && when.is_none_or(|w| holds(w, facts))
    }

    /// The actions open to hand `i` now, as moves.
    fn open_actions(&self, i: usize) -> impl Iterator<Item = (Action, PlayEffect)> + '_ {
        let facts = self.acting_facts(i);
        play_of(&self.flow)
            .actions
            .iter()
            .filter(move |a| self.open(i, a.effect, a.when.as_ref(), &facts))
            .map(|a| (Action::declare(a.decl), a.effect))
    }

    pub(super) fn play_start_hand(&mut self) {
        if !self.open_house_hand() {
            return;
        }
        self.banco.clear();
        self.seat_hands.clear();
        self.acting = 0;
        self.rules_applied.clear();
        self.rule_seats.clear();
        self.bets.iter_mut().for_each(|b| *b = 0);
        self.insured.iter_mut().for_each(|b| *b = 0);
        self.tiles.iter_mut().for_each(|t| *t = CardSet::EMPTY);
        self.banker = CardSet::EMPTY;
        let first = (0..self.players())
            .find(|&s| self.in_hand[s])
            .expect("someone plays the hand");
        self.phase = BankerPhase::Bet { seat: first };
    }

    /// The insurance a seat may place: 0 to half its stake, within its chips.
    fn insurance_top(&self, seat: usize) -> i64 {
        (self.bets[seat] / 2).min(self.ledger.scores[seat] - self.play_staked(seat))
    }

    pub(super) fn play_legal_count(&self) -> usize {
        match self.phase {
            BankerPhase::Bet { seat } => {
                let (low, top) = self.bet_range(seat);
                (top - low + 1).max(0) as usize
            }
            BankerPhase::Insure { seat } => (self.insurance_top(seat) + 1).max(1) as usize,
            BankerPhase::Act { .. } => self.open_actions(self.acting).count(),
            _ => 0,
        }
    }

    pub(super) fn play_legal_action(&self, index: usize) -> Option<Action> {
        match self.phase {
            BankerPhase::Bet { seat } => {
                let (low, top) = self.bet_range(seat);
                let amount = low.checked_add(i64::try_from(index).ok()?)?;
                (amount <= top).then_some(Action::Bet { amount })
            }
            BankerPhase::Insure { seat } => {
                let amount = i64::try_from(index).ok()?;
                (amount <= self.insurance_top(seat).max(0)).then_some(Action::Bet { amount })
            }
            BankerPhase::Act { .. } => self.open_actions(self.acting).nth(index).map(|(a, _)| a),
            _ => None,
        }
    }

    pub(super) fn play_apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        let illegal = |reason: String| Err(IllegalAction { reason });
        match (self.phase, action) {
            (BankerPhase::Bet { seat }, Action::Bet { amount }) => {
                let (low, top) = self.bet_range(seat);
                if amount < low || amount > top {
                    return illegal(format!("a bet must be between {low} and {top} chips"));
                }
                self.bets[seat] = amount;
                match self.next_in_hand(seat) {
                    Some(next) => self.phase = BankerPhase::Bet { seat: next },
                    None => self.play_deal(),
                }
                Ok(())
            }
            (BankerPhase::Insure { seat }, Action::Bet { amount }) => {
                let top = self.insurance_top(seat).max(0);
                if amount < 0 || amount > top {
                    return illegal(format!("insurance must be between 0 and {top} chips"));
                }
                self.insured[seat] = amount;
                self.offer_insurance(seat + 1);
                Ok(())
            }
            (BankerPhase::Act { .. }, Action::Declare { decl, .. }) => {
                let Some((_, effect)) = self
                    .open_actions(self.acting)
                    .find(|(a, _)| matches!(a, Action::Declare { decl: d, .. } if *d == decl))
                else {
                    let open: Vec<String> = self
                        .open_actions(self.acting)
                        .filter_map(|(a, _)| match a {
                            Action::Declare { decl, .. } => {
                                Some(self.ruleset.declarations[decl.0 as usize].id.clone())
                            }
                            _ => None,
                        })
                        .collect();
                    return illegal(format!("this hand may {} now", open.join(", ")));
                };
                self.act(effect);
                Ok(())
            }
            (BankerPhase::GameOver, _) => illegal("the session is over".into()),
            (BankerPhase::Bet { .. } | BankerPhase::Insure { .. }, _) => {
                illegal("a bet is expected now".into())
            }
            _ => illegal("an action of the hand is expected now".into()),
        }
    }

    /// The first cards of every seat's hand and the banker's, a card at a time round the
    /// table; then insurance, the peek, and the first hand to act.
    fn play_deal(&mut self) {
        let flow = Arc::clone(&self.flow);
        for s in 0..self.players() {
            if self.in_hand[s] {
                self.seat_hands.push(SeatHand {
                    seat: s,
                    stake: self.bets[s],
                    ..SeatHand::default()
                });
            }
        }
        for i in 0..flow.first_tiles.max(flow.banker_tiles) {
            if i < flow.first_tiles {
                for h in 0..self.seat_hands.len() {
                    let c = self.table_draw();
                    self.seat_hands[h].cards.push(c);
                }
            }
            if i < flow.banker_tiles {
                let c = self.table_draw();
                self.banco.push(c);
            }
        }
        self.offer_insurance(0);
    }

    /// Offers insurance to the seats from `from` on where `[flow.insurance] when` holds; then
    /// the peek.
    fn offer_insurance(&mut self, from: usize) {
        let flow = Arc::clone(&self.flow);
        if let Some(ins) = &play_of(&flow).insurance {
            for h in 0..self.seat_hands.len() {
                let seat = self.seat_hands[h].seat;
                if seat < from {
                    continue;
                }
                // Shown cards only: the phase is not yet `Act`, so look at them by hand.
                self.phase = BankerPhase::Insure { seat };
                let facts = self.acting_facts(h);
                if holds(&ins.when, &facts) && self.insurance_top(seat) > 0 {
                    return;
                }
            }
        }
        let whole = play_facts(&flow, None, 0, &self.banco, self.banco.first().copied());
        if play_of(&flow)
            .peek
            .as_ref()
            .is_some_and(|p| holds(p, &whole))
        {
            self.note_rule(None, "peek");
            self.play_settle();
            return;
        }
        self.acting = 0;
        self.phase = BankerPhase::Act { seat: 0 };
        self.next_to_act();
    }

    /// Applies `effect` to the hand acting.
    fn act(&mut self, effect: PlayEffect) {
        let i = self.acting;
        match effect {
            PlayEffect::Hit => {
                let c = self.table_draw();
                self.seat_hands[i].cards.push(c);
            }
            PlayEffect::Stand => self.seat_hands[i].done = true,
            PlayEffect::Double => {
                let c = self.table_draw();
                let h = &mut self.seat_hands[i];
                h.cards.push(c);
                h.stake *= 2;
                h.doubled = true;
                h.done = true;
            }
            PlayEffect::Split => {
                let moved = self.seat_hands[i].cards.pop().expect("two cards");
                let mut second = SeatHand {
                    seat: self.seat_hands[i].seat,
                    cards: vec![moved],
                    stake: self.seat_hands[i].stake,
                    split: true,
                    ..SeatHand::default()
                };
                self.seat_hands[i].split = true;
                let c = self.table_draw();
                self.seat_hands[i].cards.push(c);
                let c = self.table_draw();
                second.cards.push(c);
                self.seat_hands.insert(i + 1, second);
            }
            PlayEffect::Surrender => {
                let h = &mut self.seat_hands[i];
                h.surrendered = true;
                h.done = true;
            }
        }
        self.next_to_act();
    }

    /// Moves to the next hand that has a choice: a hand whose only open actions stand (or
    /// none) stands by itself. With none left, the banker plays and the hands are settled.
    fn next_to_act(&mut self) {
        while self.acting < self.seat_hands.len() {
            let i = self.acting;
            if !self.seat_hands[i].done {
                let choice = self.open_actions(i).any(|(_, e)| e != PlayEffect::Stand);
                if choice {
                    self.phase = BankerPhase::Act {
                        seat: self.seat_hands[i].seat,
                    };
                    return;
                }
                self.seat_hands[i].done = true;
            }
            self.acting += 1;
        }
        self.banker_plays();
    }

    /// The banker's hand draws by its rules, then the showdown.
    fn banker_plays(&mut self) {
        let flow = Arc::clone(&self.flow);
        loop {
            let facts = play_facts(&flow, None, 0, &self.banco, self.banco.first().copied());
            let cx = Context {
                pile: CardSet::EMPTY,
                facts: &facts,
            };
            let Some(rule) = flow.banker_draw.iter().find(|r| r.when.truth(&cx)) else {
                break;
            };
            self.note_rule(None, &rule.name);
            if rule.action != DrawAction::Draw || self.banco.len() >= MOST_CARDS {
                break;
            }
            let c = self.table_draw();
            self.banco.push(c);
        }
        self.play_settle();
    }

    /// Settles every hand and the insurance, records the hand, and deals the next.
    fn play_settle(&mut self) {
        let flow = Arc::clone(&self.flow);
        self.phase = BankerPhase::GameOver;
        let whole = play_facts(&flow, None, 0, &self.banco, self.banco.first().copied());
        let insurance_wins = play_of(&flow)
            .insurance
            .as_ref()
            .map(|ins| (holds(&ins.wins, &whole), ins.pays));
        let mut players = Vec::new();
        let mut banker_result = 0;
        for s in 0..self.players() {
            if !self.in_hand[s] {
                continue;
            }
            let hands_held = self.hands_of(s);
            let mut played = Vec::new();
            for h in self.seat_hands.iter().filter(|h| h.seat == s) {
                let (result, settled_by) = settle_hand(&flow, h, hands_held, &self.banco);
                let mut actions = Vec::new();
                if h.split {
                    actions.push("split");
                }
                if h.doubled {
                    actions.push("double");
                }
                if h.surrendered {
                    actions.push("surrender");
                }
                played.push(HandPlayed {
                    cards: h.cards.clone(),
                    value: cards_value(&flow, &h.cards),
                    rank: words(&flow, &rank_cards(&flow, &h.cards)),
                    stake: h.stake,
                    actions,
                    settled_by,
                    result,
                });
            }
            let insured = self.insured[s];
            let insurance = match insurance_wins {
                Some((true, (n, d))) if insured > 0 => insured * n / d,
                _ => -insured,
            };
            let result: i64 = played.iter().map(|p| p.result).sum::<i64>() + insurance;
            self.ledger.scores[s] += result;
            banker_result -= result;
            players.push(PlayerResult {
                seat: s,
                tiles: played.first().map_or_else(Vec::new, |p| p.cards.clone()),
                value: played.first().map(|p| p.value),
                bet: self.bets[s],
                result,
                bets: Vec::new(),
                hand: played.first().and_then(|p| p.rank.clone()),
                folded: false,
                hands: played,
                insurance: (insured > 0).then_some(insurance),
                arranged: Vec::new(),
            });
        }
        let banker_hand = words(&flow, &rank_cards(&flow, &self.banco));
        self.close_house_hand(players, banker_result, whole[3], banker_hand);
        self.start_hand();
    }

    /// What a seat cannot see: the banker's cards beyond the shown ones and the shoe's order,
    /// dealt again at random into `world`.
    pub(super) fn play_deal_hidden(
        &self,
        rng: &mut rand::rngs::Xoshiro256PlusPlus,
        world: &mut Self,
    ) {
        use rand::{RngExt, SeedableRng};
        let shown = (play_of(&self.flow).banker_shown as usize).min(self.banco.len());
        let mut hidden: Vec<CardId> = self.banco[shown..].to_vec();
        let k = hidden.len();
        hidden.extend_from_slice(&self.stock[self.stock_pos..]);
        for i in (1..hidden.len()).rev() {
            let j = rng.random_range(0..=i);
            hidden.swap(i, j);
        }
        world.banco.truncate(shown);
        world.banco.extend_from_slice(&hidden[..k]);
        world.stock.truncate(self.stock_pos);
        world.stock.extend_from_slice(&hidden[k..]);
        world.orders = Vec::new().into_iter();
        world.rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(rng.random());
        world.history.clear();
        world.ledger.copy_from(&self.ledger, false);
    }
}
