//! The matching family's rule-reading policy (the `greedy` bot, and the playout policy of
//! `expert`): takes the capture that adds most to its yaku and near-yaku, and stops early.
//!
//! A pile is valued with [`Progress::value`]: the points of its yaku plus partial credit for
//! yaku in reach. A move's worth is what it adds to the bot's pile, plus half of what it takes
//! from the next player's prospects (cards captured are out of their reach), less part of what
//! a card left on the table would give the next player. A call to play on is made only with a
//! long hand, a yaku one card away, and no other player with a yaku or within one card of one.

use super::game::Phase;
use super::view::View;
use crate::core::{Action, DeclId};
use crate::deck::{CardId, CardSet};
use crate::ruleset::Ruleset;
use crate::yaku::{Progress, Valuation};

/// Weight of what a capture takes from the other player's prospects.
const DENIAL: f64 = 0.5;
/// Weight of what a card left on the table would give the other player.
const EXPOSURE: f64 = 0.3;
/// A small bonus per card captured, so that a capture beats an idle discard.
const PER_CARD: f64 = 0.05;

/// The policy (a unit type, so its helpers read as `Greedy::worth`).
struct Greedy;

/// What a seat knows of the piles, derived from its view, with what every move of one decision
/// is weighed against: both players' prospects and their piles' worth now.
struct Piles {
    mine_progress: std::rc::Rc<Progress>,
    their_progress: std::rc::Rc<Progress>,
    /// The yaku my pile holds, and its worth now.
    mine_held: crate::ruleset::YakuScore,
    mine_value: Valuation,
    /// The same for the next player.
    their_held: crate::ruleset::YakuScore,
    their_value: Valuation,
    me: usize,
    mine: CardSet,
    theirs: CardSet,
    /// Cards I may still win: my pile, hand, the table and the unseen cards.
    my_reach: CardSet,
    /// Cards the other player may still win.
    their_reach: CardSet,
}

impl Piles {
    fn of(view: &View) -> Piles {
        let me = view.seat;
        let them = view.next_seat();
        let mine = view.captured[me];
        let theirs = view.captured[them];
        let open = view.hand | view.table | view.unseen | resolving(view);
        let (my_reach, their_reach) = (mine | open, theirs | (open - view.hand));
        let r = view.ruleset;
        let mine_progress = Progress::of(r, view.yaku_facts(me));
        let their_progress = Progress::of(r, view.yaku_facts(them));
        let mine_held = held(view, me, &mine_progress);
        let their_held = held(view, them, &their_progress);
        Piles {
            mine_value: mine_progress.valuation(mine, my_reach, &mine_held),
            their_value: their_progress.valuation(theirs, their_reach, &their_held),
            mine_progress,
            their_progress,
            mine_held,
            their_held,
            me,
            mine,
            theirs,
            my_reach,
            their_reach,
        }
    }
}

/// The yaku `seat`'s pile holds: the game's own evaluation when it is of the pile as it is now
/// (the table is evaluated only when it is not).
fn held(view: &View, seat: usize, progress: &Progress) -> crate::ruleset::YakuScore {
    let pile = view.captured[seat];
    if view.evaluated[seat] == pile {
        let held = view.yaku[seat];
        debug_assert_eq!(held, view.ruleset.yaku.evaluate(pile, progress.facts()));
        held
    } else {
        view.ruleset.yaku.evaluate(pile, progress.facts())
    }
}

fn resolving(view: &View) -> CardSet {
    match view.phase {
        Phase::CaptureChoice { card, .. } => CardSet::single(card),
        _ => CardSet::EMPTY,
    }
}

/// The table cards `card` would take if played or drawn now (all of them when it has a choice).
pub fn matches(ruleset: &Ruleset, table: CardSet, card: CardId) -> CardSet {
    let Some(flow) = ruleset.matching() else {
        return CardSet::EMPTY;
    };
    if flow.wild.contains(card) {
        table
    } else {
        table & ruleset.deck.same_suit(card)
    }
}

/// True when playing `card` onto `matches` asks for a choice of one table card (two matches, or
/// a wild card with several), as the core rules; otherwise it takes them all.
pub fn chooses(ruleset: &Ruleset, card: CardId, matches: CardSet) -> bool {
    let wild = ruleset.matching().is_some_and(|f| f.wild.contains(card));
    matches.len() == 2 || (wild && matches.len() > 1)
}

impl Greedy {
    /// The worth of moving `card` and the `taken` table cards into my pile (or, with nothing
    /// taken, of leaving `card` on the table).
    ///
    /// A pile's yaku after the move are the pile's now, brought up to date for the cards the move
    /// adds (only the yaku those cards can change are evaluated again).
    fn worth(view: &View, piles: &Piles, card: CardId, taken: CardSet) -> f64 {
        let r = view.ruleset;
        let (mine, theirs) = (&piles.mine_progress, &piles.their_progress);
        if taken.is_empty() {
            // The card goes to the table, where the other player may take it.
            let mut gift = piles.theirs;
            gift.insert(card);
            let gift_card = CardSet::single(card);
            let mut held = piles.their_held;
            r.yaku.update(&mut held, gift_card, gift, theirs.facts());
            let after = theirs.value_after(
                &piles.their_value,
                gift_card,
                r.yaku.touched(gift_card),
                (gift, piles.their_reach, &held),
            );
            return -EXPOSURE * (after - piles.their_value.value);
        }
        let won = taken | CardSet::single(card);
        let mut held = piles.mine_held;
        r.yaku
            .update(&mut held, won, piles.mine | won, mine.facts());
        let after = mine.value_after(
            &piles.mine_value,
            won,
            r.yaku.touched(won),
            (piles.mine | won, piles.my_reach, &held),
        );
        let gain = after - piles.mine_value.value;
        let denied = theirs.value_after(
            &piles.their_value,
            won,
            0,
            (piles.theirs, piles.their_reach - won, &piles.their_held),
        );
        let denial = piles.their_value.value - denied;
        gain + DENIAL * denial + PER_CARD * f64::from(won.len())
    }

    fn best_play(view: &View, legal: &[Action]) -> Action {
        let piles = Piles::of(view);
        let mut best = (f64::NEG_INFINITY, legal[0]);
        for &a in legal {
            let v = match a {
                Action::Play { card } => {
                    let m = matches(view.ruleset, view.table, card);
                    if chooses(view.ruleset, card, m) {
                        // With a choice to make, the best one.
                        m.iter()
                            .map(|t| Self::worth(view, &piles, card, CardSet::single(t)))
                            .fold(f64::NEG_INFINITY, f64::max)
                    } else {
                        Self::worth(view, &piles, card, m)
                    }
                }
                Action::Take { card: target } => {
                    let Phase::CaptureChoice { card, .. } = view.phase else {
                        continue;
                    };
                    Self::worth(view, &piles, card, CardSet::single(target))
                }
                _ => continue,
            };
            if v > best.0 {
                best = (v, a);
            }
        }
        best.1
    }

    /// Plays on only with a long hand, a yaku one card away and no other player close.
    fn call(view: &View, legal: &[Action]) -> Action {
        let (Some(go), Some(stop)) = (find(view, legal, "continue"), find(view, legal, "stop"))
        else {
            return find(view, legal, "stop").unwrap_or(legal[0]);
        };
        let piles = Piles::of(view);
        let r = view.ruleset;
        let mine = Progress::of(r, view.yaku_facts(piles.me));
        let they_are_close = (0..view.seats()).filter(|&s| s != piles.me).any(|s| {
            let their_yaku = &view.yaku[s];
            let theirs = Progress::of(r, view.yaku_facts(s));
            let reach = view.captured[s] | view.table | view.unseen | resolving(view);
            their_yaku.mask != 0
                || theirs
                    .nearest(view.captured[s], reach, their_yaku)
                    .is_some_and(|d| d <= 1)
        });
        let i_am_close = mine
            .nearest(piles.mine, piles.my_reach, &view.yaku[piles.me])
            .is_some_and(|d| d <= 1);
        if view.hand.len() >= 4 && i_am_close && !they_are_close {
            go
        } else {
            stop
        }
    }

    /// Takes the dealer's hand when its own matches the table less than an average hand would.
    fn swap(view: &View, legal: &[Action]) -> Action {
        let r = view.ruleset;
        let matching = |hand: CardSet| {
            hand.iter()
                .filter(|&c| !matches(r, view.table, c).is_empty())
                .count() as f64
        };
        let unseen = view.unseen.len().max(1) as f64;
        let expected = matching(view.unseen) / unseen * f64::from(view.hand.len());
        let effect = if matching(view.hand) < expected {
            "swap"
        } else {
            "keep"
        };
        find(view, legal, effect).unwrap_or(legal[0])
    }
}

/// The legal declaration with `effect`, if any.
fn find(view: &View, legal: &[Action], effect: &str) -> Option<Action> {
    legal.iter().copied().find(|a| match a {
        Action::Declare {
            decl: DeclId(i), ..
        } => view.ruleset.declarations[*i as usize].effect == effect,
        _ => false,
    })
}

/// The policy's choice among `legal` (never empty) in the state `view` shows.
pub fn choose(view: &View, legal: &[Action]) -> Action {
    if legal.len() == 1 {
        return legal[0];
    }
    match view.phase {
        Phase::Play => before_play(view, legal).unwrap_or_else(|| {
            let is_play = |a: &Action| matches!(a, Action::Play { .. });
            if legal.iter().all(is_play) {
                return Greedy::best_play(view, legal);
            }
            let plays: Vec<Action> = legal.iter().copied().filter(is_play).collect();
            match plays.len() {
                0 => legal[0],
                1 => plays[0],
                _ => Greedy::best_play(view, &plays),
            }
        }),
        Phase::CaptureChoice { .. } => Greedy::best_play(view, legal),
        Phase::Declare => Greedy::call(view, legal),
        Phase::AfterDeal => Greedy::swap(view, legal),
        Phase::Choose => count_as(view, legal),
        Phase::GameOver => legal[0],
    }
}

/// Before playing: a whole suit played at once takes the table's card of the suit and more
/// (`play_suit`), a revealed suit multiplies the winnings (`reveal`): both are taken when
/// offered, the first before the second. A bonus card in hand is played first: it costs nothing.
fn before_play(view: &View, legal: &[Action]) -> Option<Action> {
    let r = view.ruleset;
    let effect = |a: &Action| match a {
        Action::Declare { decl, .. } => r.declarations[decl.0 as usize].effect.as_str(),
        _ => "",
    };
    let bonus = r.matching().map_or(CardSet::EMPTY, |f| f.bonus);
    if bonus.is_empty() && !legal.iter().any(|a| matches!(a, Action::Declare { .. })) {
        return None;
    }
    legal
        .iter()
        .find(|a| matches!(a, Action::Play { card } if bonus.contains(*card)))
        .or_else(|| legal.iter().find(|a| effect(a) == "play_suit"))
        .or_else(|| legal.iter().find(|a| effect(a) == "reveal"))
        .copied()
}

/// How a captured card counts: the choice that gives the most yaku points now.
fn count_as(view: &View, legal: &[Action]) -> Action {
    let r = view.ruleset;
    let Some(flow) = r.matching() else {
        return legal[0];
    };
    let pile = view.captured[view.seat];
    let base_with = |a: &Action| {
        let Action::Declare { decl, .. } = a else {
            return i64::MIN;
        };
        let mut facts = view.yaku_facts(view.seat);
        let card = r.declarations[decl.0 as usize].card;
        for (i, d) in flow.choices.iter().enumerate() {
            if r.declarations[d.0 as usize].card == card {
                facts[3 + i] = i64::from(d == decl);
            }
        }
        r.yaku.evaluate(pile, &facts).base()
    };
    let mut best = legal[0];
    for a in &legal[1..] {
        if base_with(a) > base_with(&best) {
            best = *a;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, StartOptions};
    use crate::ruleset;
    use std::sync::Arc;

    #[test]
    fn greedy_plays_the_move_it_values_most() {
        for name in ["koikoi", "house/lightning-wild", "koikoi-classic"] {
            plays_the_move_it_values_most(name);
        }
    }

    fn plays_the_move_it_values_most(name: &str) {
        let r = Arc::new(ruleset::load(name).value.unwrap());
        let mut game = super::super::start(Arc::clone(&r), StartOptions::default()).unwrap();
        let mut legal = Vec::new();
        while let Some(seat) = game.to_act() {
            game.legal_actions(&mut legal);
            let view = game.view(seat);
            let a = choose(&view, &legal);
            assert!(legal.contains(&a));
            if view.phase == Phase::Play {
                let piles = Piles::of(&view);
                let worth = |a: Action| {
                    let Action::Play { card } = a else {
                        unreachable!("only plays are legal in the play phase")
                    };
                    let m = matches(&r, view.table, card);
                    if chooses(&r, card, m) {
                        m.iter()
                            .map(|t| Greedy::worth(&view, &piles, card, CardSet::single(t)))
                            .fold(f64::NEG_INFINITY, f64::max)
                    } else {
                        Greedy::worth(&view, &piles, card, m)
                    }
                };
                let chosen = worth(a);
                assert!(legal.iter().all(|&b| worth(b) <= chosen));
            }
            Game::apply(&mut game, a).unwrap();
        }
    }
}
