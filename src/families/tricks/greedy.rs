//! The trick-taking family's rule-reading policy (the `greedy` bot, and the playout policy of
//! `expert`): claims the target once it has it, exchanges the lowest trump and declares
//! marriages whenever it can, leads low, wins a trick when it gains card points cheaply, trumps
//! only for an Ace or a Ten, and otherwise throws its least valuable card.

use super::game::Phase;
use super::view::TricksView;
use crate::core::Action;
use crate::deck::CardId;

/// The policy's choice among `legal` (never empty) in the state `view` shows.
pub fn choose(view: &TricksView, legal: &[Action]) -> Action {
    if legal.len() == 1 {
        return legal[0];
    }
    match view.phase {
        Phase::Lead => lead(view, legal),
        _ => follow(view, legal),
    }
}

/// The legal declaration with `effect`, if any.
fn declaration(view: &TricksView, legal: &[Action], effect: &str) -> Option<Action> {
    legal.iter().copied().find(|a| match a {
        Action::Declare { decl, .. } => view.ruleset.declarations[decl.0 as usize].effect == effect,
        _ => false,
    })
}

/// How much the policy minds giving a card up: its points, and more for trumps.
fn cost(view: &TricksView, card: CardId) -> i64 {
    view.card_points(card)
        + if view.suit(card) == view.trump_suit {
            12
        } else {
            0
        }
}

fn plays(legal: &[Action]) -> impl Iterator<Item = CardId> + '_ {
    legal.iter().filter_map(|a| match a {
        Action::Play { card } => Some(*card),
        _ => None,
    })
}

fn lead(view: &TricksView, legal: &[Action]) -> Action {
    let me = view.seat;
    if let Some(claim) = declaration(view, legal, "claim")
        && view.points[me] >= view.flow.target
    {
        return claim;
    }
    if let Some(x) = declaration(view, legal, "exchange") {
        return x;
    }
    // The best marriage: in trumps if possible, leading its cheaper card.
    let marriage = legal
        .iter()
        .copied()
        .filter(|a| matches!(a, Action::Declare { card: Some(_), .. }))
        .filter(|a| declaration(view, std::slice::from_ref(a), "marriage").is_some())
        .max_by_key(|a| match a {
            Action::Declare { card: Some(c), .. } => (
                i64::from(view.suit(*c) == view.trump_suit),
                -view.card_points(*c),
            ),
            _ => (0, 0),
        });
    if let Some(m) = marriage {
        return m;
    }
    // Close with a strong hand: already close to the target, and three trumps or more.
    if let Some(close) = declaration(view, legal, "close") {
        let trumps = view
            .hand
            .iter()
            .filter(|&c| view.suit(c) == view.trump_suit)
            .count();
        if view.points[me] + view.pending_marriages() >= view.flow.target - 20 && trumps >= 3 {
            return close;
        }
    }
    // Once the follow rules apply, cash a card no unseen card can beat; else lead low.
    let cards: Vec<CardId> = plays(legal).collect();
    if view.strict {
        let sure = cards
            .iter()
            .copied()
            .filter(|&c| !view.unseen.iter().any(|u| view.beats(u, c)))
            .max_by_key(|&c| view.card_points(c));
        if let Some(c) = sure {
            return Action::Play { card: c };
        }
    }
    let low = cards
        .iter()
        .copied()
        .min_by_key(|&c| (cost(view, c), view.rank(c)))
        .unwrap_or_else(|| match legal[0] {
            Action::Play { card } => card,
            _ => unreachable!("a leader holds a card"),
        });
    Action::Play { card: low }
}

fn follow(view: &TricksView, legal: &[Action]) -> Action {
    let Some(led) = view.led else {
        return legal[0];
    };
    let cards: Vec<CardId> = plays(legal).collect();
    let winners: Vec<CardId> = cards
        .iter()
        .copied()
        .filter(|&c| view.beats(c, led))
        .collect();
    let same_suit_winner = winners
        .iter()
        .copied()
        .filter(|&c| view.suit(c) == view.suit(led))
        .min_by_key(|&c| view.rank(c));
    if let Some(c) = same_suit_winner {
        return Action::Play { card: c };
    }
    let trump_winner = winners.iter().copied().min_by_key(|&c| view.rank(c));
    if let Some(c) = trump_winner
        && (view.card_points(led) >= 10 || view.strict)
    {
        return Action::Play { card: c };
    }
    let low = cards
        .iter()
        .copied()
        .min_by_key(|&c| (cost(view, c), view.rank(c)))
        .unwrap_or(led);
    Action::Play { card: low }
}
