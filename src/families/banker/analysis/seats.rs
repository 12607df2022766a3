//! The exact odds of hands per seat drawn by drawing rules (`[[flow.player_draw]]` and
//! `[[flow.banker_draw]]` without a table hand, as Oicho-Kabu plays): every way the pack can
//! deal one player's hand, its forced draws, each option where the rules leave the choice to the
//! player, and the banker's hand with its own draws, each weighed by its probability.
//!
//! One player's result depends only on their own cards and the banker's: the other players'
//! cards are a uniformly random part of the rest, so they do not change the odds. The player's
//! rules may not read the banker's hand (the player does not see it), so the player's cards can
//! be dealt first and the banker's after them without changing any probability.
//!
//! Cards alike in suit, kinds, attributes and `card_value` are dealt as one class with its count
//! (the kabufuda pack's ten numbers, four of each): the rules and the value see no difference
//! between them, provided no rule names a card by its id, which [`seat_odds`] refuses.

use super::seat_work::{banker_depth, classes};
use super::{FirstHandOdds, Rational, combinations};
use crate::deck::{CardId, CardSet};
use crate::families::banker::ranking::{against_banker, worth};
use crate::families::banker::{banker_instant_win, hand_value, rule_for};
use crate::ruleset::{BankerFlow, DrawAction, Ruleset};
use std::collections::HashMap;

/// The odds of the hands at one total where the rules leave the choice to the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TotalOdds {
    /// The hand's value when the player chooses.
    pub total: i64,
    /// The chance of choosing at this total, per hand dealt.
    pub chance: Rational,
    /// `(more cards, expected result of one chip)` for each draw option, over every hand of
    /// this total weighed by its chance.
    pub by_draw: Vec<(u32, Rational)>,
    /// Hands of this total whose own best option differs from the total's best.
    pub exceptions: usize,
}

impl TotalOdds {
    /// The option with the best expected result (the first on ties).
    pub fn best(&self) -> (u32, Rational) {
        best_of(&self.by_draw)
    }
}

/// The exact odds of a game of hands per seat with drawing rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatOdds {
    /// Each first hand (the cards dealt before the bet), in deck order, with the expected result
    /// of one chip when every choice after it is the best; a first hand at which the player
    /// chooses at once has one entry per option.
    pub first: Vec<FirstHandOdds>,
    /// Each hand at which the rules leave the choice to the player (beyond the first hands),
    /// with one entry per option: what bots look up when they choose.
    pub choices: Vec<FirstHandOdds>,
    /// The choices by total, lowest first.
    pub by_total: Vec<TotalOdds>,
    /// The expected result of one chip on every hand, with the best choices.
    pub player: Rational,
    /// The chance the banker's first cards win every bet at once.
    pub banker_wins: Rational,
    /// The banker's hands played out, over every player's hand: the work
    /// [`super::seat_work::seat_work`] estimates before it starts.
    pub work: u64,
}

impl SeatOdds {
    /// Every hand a bot may look up, first hands first.
    pub fn all_hands(&self) -> Vec<FirstHandOdds> {
        self.first.iter().chain(&self.choices).cloned().collect()
    }
}

fn best_of(by_draw: &[(u32, Rational)]) -> (u32, Rational) {
    let mut best = &by_draw[0];
    for entry in &by_draw[1..] {
        if entry.1 > best.1 {
            best = entry;
        }
    }
    best.clone()
}

/// `(more cards, expected result of one chip)` for each draw option.
type ByDraw = Vec<(u32, Rational)>;

/// Fact bits of the banker's hand (`banker_total`, `banker_cards`, `banker_drew`).
const BANKER_FACTS: u64 = 0b11_1000;

/// Whether [`seat_odds`] can analyse `flow` over the cards of `ruleset`: `Err` says why not.
pub fn check(ruleset: &Ruleset, flow: &BankerFlow) -> Result<(), String> {
    if let Some(r) = flow
        .player_draw
        .iter()
        .find(|r| r.when.facts_read() & BANKER_FACTS != 0)
    {
        return Err(format!(
            "the player's drawing rule `{}` reads the banker's hand, which the player does not see",
            r.id
        ));
    }
    let mut sources: Vec<&str> = vec![flow.value_source.as_str()];
    sources.extend(flow.player_draw.iter().map(|r| r.when_source.as_str()));
    sources.extend(flow.banker_draw.iter().map(|r| r.when_source.as_str()));
    sources.extend(flow.banker_wins.iter().map(|c| c.when_source.as_str()));
    for r in &flow.ranks {
        sources.push(r.when_source.as_str());
        sources.extend(r.within_source.as_deref());
    }
    sources.extend(flow.specials.iter().map(|s| s.when_source.as_str()));
    for s in sources {
        for word in s.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_')) {
            if !word.is_empty() && ruleset.deck.card_by_id(word).is_some() {
                return Err(format!(
                    "a rule names the card `{word}`: the exact analysis deals cards alike in suit, kinds and values as one"
                ));
            }
        }
    }
    if flow.first_tiles + flow.banker_tiles > ruleset.deck.cards.len() as u32 {
        return Err("the first cards take more than the pack".into());
    }
    Ok(())
}

struct Walk<'a> {
    flow: &'a BankerFlow,
    /// Called with 1 after each player's hand played out against every banker's hand.
    progress: &'a mut dyn FnMut(u64),
    /// The cards of each class.
    members: Vec<Vec<CardId>>,
    /// The cards of each class not yet dealt.
    left: Vec<u32>,
    total_left: u32,
    showdowns: HashMap<Vec<u8>, Rational>,
    /// The banker's hands played out against the player's hand of the showdown in progress.
    banker_memo: HashMap<Vec<u8>, Rational>,
    /// The same in whole numbers ([`Walk::banker_int`]).
    banker_ints: HashMap<Vec<u8>, i128>,
    /// The most cards a banker's hand reaches from a full pack (`None`: not known).
    depth: Option<u32>,
    /// The ways to deal the banker's cards after each, for [`Walk::banker_int`].
    scale: Vec<i128>,
    /// Banker's hands played out so far.
    work: u64,
    /// Each hand at a choice (by class counts): its chance of being held there and the
    /// expected result of each option.
    choices: HashMap<Vec<u8>, (Rational, ByDraw)>,
    banker_wins: Rational,
}

impl Walk<'_> {
    /// The cards of a hand held as class counts, `skip[k]` cards into each class.
    fn cards(&self, counts: &[u8], skip: &[u8]) -> CardSet {
        let mut set = CardSet::EMPTY;
        for (k, (&n, &s)) in counts.iter().zip(skip).enumerate() {
            for &c in &self.members[k][s as usize..(s + n) as usize] {
                set.insert(c);
            }
        }
        set
    }

    /// Calls `next` for each class a card can come from, with the chance of that class.
    fn each_card(&mut self, next: &mut dyn FnMut(&mut Self, usize, Rational)) {
        let total = self.total_left;
        for k in 0..self.left.len() {
            let n = self.left[k];
            if n == 0 {
                continue;
            }
            self.left[k] -= 1;
            self.total_left -= 1;
            next(self, k, Rational::new(i128::from(n), i128::from(total)));
            self.left[k] += 1;
            self.total_left += 1;
        }
    }

    /// The banker's draws and the showdown, the banker holding `banker` (the player `player`).
    /// Kept by the banker's cards for the player's hand [`Walk::showdown`] is working on: the
    /// banker reaches one hand by many orders of its cards (a draw-until-17 game's banker, by
    /// hundreds of thousands).
    fn banker_play(&mut self, player: &[u8], banker: &mut Vec<u8>) -> Rational {
        if let Some(r) = self.banker_memo.get(banker.as_slice()) {
            return r.clone();
        }
        let r = self.banker_play_new(player, banker);
        self.banker_memo.insert(banker.clone(), r.clone());
        r
    }

    fn banker_play_new(&mut self, player: &[u8], banker: &mut Vec<u8>) -> Rational {
        self.work += 1;
        let b = self.cards(banker, player);
        let facts = [0, 0, -1, hand_value(self.flow, b), i64::from(b.len()), -1];
        let draws =
            rule_for(&self.flow.banker_draw, &facts).is_some_and(|r| r.action == DrawAction::Draw);
        if draws && self.total_left > 0 && b.len() < CardSet::CAPACITY as u32 {
            let mut sum = Rational::ZERO;
            self.each_card(&mut |w, k, p| {
                banker[k] += 1;
                sum += p * w.banker_play(player, banker);
                banker[k] -= 1;
            });
            return sum;
        }
        let p = self.cards(player, &vec![0; player.len()]);
        Rational::new(
            i128::from(worth(self.flow, against_banker(self.flow, p, b))),
            i128::from(self.flow.commission.1),
        )
    }

    /// The banker's first cards from what is left, dealt one by one, then its play.
    fn banker_deal(&mut self, player: &[u8], banker: &mut Vec<u8>, n: u32) -> Rational {
        if n == 0 {
            let b = self.cards(banker, player);
            if banker_instant_win(self.flow, b).is_some() {
                return Rational::from(-1);
            }
            return self.banker_play(player, banker);
        }
        let mut sum = Rational::ZERO;
        self.each_card(&mut |w, k, p| {
            banker[k] += 1;
            sum += p * w.banker_deal(player, banker, n - 1);
            banker[k] -= 1;
        });
        sum
    }

    /// [`Walk::banker_play`] in whole numbers: the expected result times `scale[j]`, the ways
    /// to deal the banker's cards after its `j`-th in order (`scale[j] = (L - j) · scale[j + 1]`,
    /// `L` the cards left after the player's): a sum over the next card's classes is then
    /// `Σ count · result`, with no fraction to reduce. `None` past the deepest hand `scale`
    /// allows for.
    fn banker_int(&mut self, player: &[u8], banker: &mut Vec<u8>, j: usize) -> Option<i128> {
        if let Some(&r) = self.banker_ints.get(banker.as_slice()) {
            return Some(r);
        }
        self.work += 1;
        let b = self.cards(banker, player);
        let facts = [0, 0, -1, hand_value(self.flow, b), i64::from(b.len()), -1];
        let draws =
            rule_for(&self.flow.banker_draw, &facts).is_some_and(|r| r.action == DrawAction::Draw);
        let r = if draws && self.total_left > 0 && b.len() < CardSet::CAPACITY as u32 {
            if j + 1 >= self.scale.len() {
                return None;
            }
            self.each_draw_int(banker, |walk, banker| {
                walk.banker_int(player, banker, j + 1)
            })?
        } else {
            let p = self.cards(player, &vec![0; player.len()]);
            i128::from(worth(self.flow, against_banker(self.flow, p, b))) * self.scale[j]
        };
        self.banker_ints.insert(banker.clone(), r);
        Some(r)
    }

    /// [`Walk::banker_deal`] in whole numbers, as [`Walk::banker_int`].
    fn banker_deal_int(
        &mut self,
        player: &[u8],
        banker: &mut Vec<u8>,
        n: u32,
        j: usize,
    ) -> Option<i128> {
        if n == 0 {
            let b = self.cards(banker, player);
            if banker_instant_win(self.flow, b).is_some() {
                return Some(-self.scale[j] * i128::from(self.flow.commission.1));
            }
            return self.banker_int(player, banker, j);
        }
        if j + 1 >= self.scale.len() {
            return None;
        }
        self.each_draw_int(banker, |walk, banker| {
            walk.banker_deal_int(player, banker, n - 1, j + 1)
        })
    }

    /// In whole numbers: the sum, over each class a card can come from, of the cards left of it
    /// times `next` with one of them drawn into `hand` (`None` as soon as one is).
    fn each_draw_int(
        &mut self,
        hand: &mut Vec<u8>,
        next: impl Fn(&mut Self, &mut Vec<u8>) -> Option<i128>,
    ) -> Option<i128> {
        let mut sum = 0i128;
        for k in 0..self.left.len() {
            let n = self.left[k];
            if n == 0 {
                continue;
            }
            self.left[k] -= 1;
            self.total_left -= 1;
            hand[k] += 1;
            let r = next(self, hand);
            hand[k] -= 1;
            self.left[k] += 1;
            self.total_left += 1;
            sum += i128::from(n) * r?;
        }
        Some(sum)
    }

    /// The banker's play against `player` in whole numbers when the deepest banker's hand
    /// (`depth` cards) allows it without overflow, else `None`.
    fn showdown_int(&mut self, player: &[u8]) -> Option<Rational> {
        let depth = (self.depth? as usize).min(self.total_left as usize);
        // scale[j] = (L - j)(L - j - 1)...(L - depth + 1), scale[depth] = 1.
        let mut scale = vec![1i128; depth + 1];
        for j in (0..depth).rev() {
            scale[j] = scale[j + 1].checked_mul(i128::from(self.total_left) - j as i128)?;
        }
        self.scale = scale;
        self.banker_ints.clear();
        let mut banker = vec![0; player.len()];
        // The results count in `commission.1`-ths of a chip (`worth`): the whole sum must fit.
        let den = self.scale[0].checked_mul(i128::from(self.flow.commission.1))?;
        let w = self.banker_deal_int(player, &mut banker, self.flow.banker_tiles, 0)?;
        Some(Rational::new(w, den))
    }

    /// The expected result of one chip when the player stands on `player`.
    fn showdown(&mut self, player: &[u8]) -> Rational {
        if let Some(r) = self.showdowns.get(player) {
            return r.clone();
        }
        if let Some(r) = self.showdown_int(player) {
            self.showdowns.insert(player.to_vec(), r.clone());
            (self.progress)(1);
            return r;
        }
        let mut banker = vec![0; player.len()];
        self.banker_memo.clear();
        let r = self.banker_deal(player, &mut banker, self.flow.banker_tiles);
        self.showdowns.insert(player.to_vec(), r.clone());
        (self.progress)(1);
        r
    }

    /// Takes `n` more cards at random, then stands.
    fn take(&mut self, player: &mut Vec<u8>, n: u32) -> Rational {
        if n == 0 || self.total_left == 0 {
            return self.showdown(player);
        }
        let mut sum = Rational::ZERO;
        self.each_card(&mut |w, k, p| {
            player[k] += 1;
            sum += p * w.take(player, n - 1);
            player[k] -= 1;
        });
        sum
    }

    /// The player's rules on `player`, held with chance `reach`: the expected result with the
    /// best choices.
    fn play(&mut self, player: &mut Vec<u8>, reach: Rational) -> Rational {
        let p = self.cards(player, &vec![0; player.len()]);
        let facts = [hand_value(self.flow, p), i64::from(p.len()), -1, 0, 0, -1];
        let action = rule_for(&self.flow.player_draw, &facts).map(|r| r.action);
        match action {
            Some(DrawAction::Draw) if self.total_left > 0 && p.len() < CardSet::CAPACITY as u32 => {
                let mut sum = Rational::ZERO;
                self.each_card(&mut |w, k, q| {
                    player[k] += 1;
                    sum += &q * w.play(player, &reach * &q);
                    player[k] -= 1;
                });
                sum
            }
            Some(DrawAction::Choose) => {
                let options = self.flow.draw_options.clone();
                let by_draw: Vec<(u32, Rational)> =
                    options.iter().map(|&d| (d, self.take(player, d))).collect();
                let entry = self
                    .choices
                    .entry(player.clone())
                    .or_insert_with(|| (Rational::ZERO, by_draw.clone()));
                entry.0 += reach;
                best_of(&by_draw).1
            }
            _ => self.showdown(player),
        }
    }

    /// The first `n` cards, then the player's rules.
    fn first(&mut self, player: &mut Vec<u8>, n: u32, reach: Rational) -> Rational {
        if n == 0 {
            return self.play(player, reach);
        }
        let mut sum = Rational::ZERO;
        self.each_card(&mut |w, k, p| {
            player[k] += 1;
            sum += &p * w.first(player, n - 1, &reach * &p);
            player[k] -= 1;
        });
        sum
    }
}

/// The exact odds of `flow`'s hands per seat over the cards of `ruleset` (see the module).
pub fn seat_odds(ruleset: &Ruleset, flow: &BankerFlow) -> Result<SeatOdds, String> {
    seat_odds_with_progress(ruleset, flow, &mut |_| {})
}

/// [`seat_odds`], calling `progress` with 1 after each player's hand played out against every
/// banker's hand: the calls add up to [`super::seat_work::SeatWork::player_hands`].
pub fn seat_odds_with_progress(
    ruleset: &Ruleset,
    flow: &BankerFlow,
    progress: &mut dyn FnMut(u64),
) -> Result<SeatOdds, String> {
    check(ruleset, flow)?;
    let deck = &ruleset.deck;
    let all = deck.all();
    let (members, class_of) = classes(ruleset, flow);
    let classes = members.len();
    let depth = banker_depth(ruleset, flow);
    let mut walk = Walk {
        flow,
        progress,
        left: members.iter().map(|m| m.len() as u32).collect(),
        total_left: all.len(),
        members,
        showdowns: HashMap::new(),
        banker_memo: HashMap::new(),
        banker_ints: HashMap::new(),
        depth,
        scale: Vec::new(),
        work: 0,
        choices: HashMap::new(),
        banker_wins: Rational::ZERO,
    };
    let mut hand = vec![0u8; classes];
    let player = walk.first(&mut hand, flow.first_tiles, Rational::ONE);
    // The chance of the banker's instant win, over a hand of first cards.
    let mut banker = vec![0u8; classes];
    walk.banker_wins = instant_chance(&mut walk, &mut banker, flow.banker_tiles);
    let counts_of = |set: CardSet| {
        let mut v = vec![0u8; classes];
        for c in set.iter() {
            v[class_of[c.index()]] += 1;
        }
        v
    };
    // Each first hand's value with the best choices after it.
    let mut first = Vec::new();
    combinations(all, flow.first_tiles, |tiles| {
        let counts = counts_of(tiles);
        let by_draw = match walk.choices.get(&counts) {
            Some((_, by_draw)) => by_draw.clone(),
            None => {
                let mut w = Walk {
                    flow,
                    progress: &mut *walk.progress,
                    members: walk.members.clone(),
                    left: walk.left.clone(),
                    total_left: walk.total_left,
                    showdowns: std::mem::take(&mut walk.showdowns),
                    banker_memo: HashMap::new(),
                    banker_ints: HashMap::new(),
                    depth: walk.depth,
                    scale: Vec::new(),
                    work: 0,
                    choices: HashMap::new(),
                    banker_wins: Rational::ZERO,
                };
                for (k, &n) in counts.iter().enumerate() {
                    w.left[k] -= u32::from(n);
                    w.total_left -= u32::from(n);
                }
                let mut h = counts.clone();
                let ev = w.play(&mut h, Rational::ONE);
                walk.showdowns = w.showdowns;
                walk.work += w.work;
                vec![(flow.draw_options.first().copied().unwrap_or(0), ev)]
            }
        };
        first.push(FirstHandOdds {
            tiles,
            suit: tiles.first_card().map(|c| deck.card(c).suit),
            by_draw,
        });
    });
    // Each hand at a choice, beyond the first hands, and the choices by total.
    let mut sizes: Vec<u32> = walk
        .choices
        .keys()
        .map(|k| k.iter().map(|&n| u32::from(n)).sum())
        .filter(|&n| n != flow.first_tiles)
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    let mut choices = Vec::new();
    for n in sizes {
        combinations(all, n, |tiles| {
            if let Some((_, by_draw)) = walk.choices.get(&counts_of(tiles)) {
                choices.push(FirstHandOdds {
                    tiles,
                    suit: tiles.first_card().map(|c| deck.card(c).suit),
                    by_draw: by_draw.clone(),
                });
            }
        });
    }
    let mut totals: Vec<(i64, Rational, ByDraw, Vec<u32>)> = Vec::new();
    let mut keys: Vec<&Vec<u8>> = walk.choices.keys().collect();
    keys.sort();
    for counts in keys {
        let (reach, by_draw) = &walk.choices[counts];
        let total = hand_value(flow, walk.cards(counts, &vec![0; classes]));
        let i = match totals.iter().position(|t| t.0 == total) {
            Some(i) => i,
            None => {
                totals.push((
                    total,
                    Rational::ZERO,
                    by_draw.iter().map(|&(d, _)| (d, Rational::ZERO)).collect(),
                    Vec::new(),
                ));
                totals.len() - 1
            }
        };
        let t = &mut totals[i];
        t.1 += reach;
        for (acc, (_, ev)) in t.2.iter_mut().zip(by_draw) {
            acc.1 += reach * ev;
        }
        t.3.push(best_of(by_draw).0);
    }
    let mut by_total: Vec<TotalOdds> = totals
        .into_iter()
        .map(|(total, chance, sums, bests)| {
            let by_draw: Vec<(u32, Rational)> =
                sums.into_iter().map(|(d, s)| (d, s / &chance)).collect();
            let best = best_of(&by_draw).0;
            TotalOdds {
                total,
                chance,
                exceptions: bests.iter().filter(|&&b| b != best).count(),
                by_draw,
            }
        })
        .collect();
    by_total.sort_by_key(|t| t.total);
    Ok(SeatOdds {
        first,
        choices,
        by_total,
        player,
        banker_wins: walk.banker_wins,
        work: walk.work,
    })
}

/// The chance that the banker's first `n` cards, from a full pack less nothing the player holds
/// in particular, win every bet at once (dealt before any player's card: the same chance).
fn instant_chance(walk: &mut Walk, banker: &mut Vec<u8>, n: u32) -> Rational {
    if n == 0 {
        let zero = vec![0; banker.len()];
        let b = walk.cards(banker, &zero);
        return if banker_instant_win(walk.flow, b).is_some() {
            Rational::ONE
        } else {
            Rational::ZERO
        };
    }
    let mut sum = Rational::ZERO;
    walk.each_card(&mut |w, k, p| {
        banker[k] += 1;
        sum += p * instant_chance(w, banker, n - 1);
        banker[k] -= 1;
    });
    sum
}
