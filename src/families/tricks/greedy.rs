//! The trick-taking family's rule-reading policy (the `greedy` bot, and the playout policy of
//! `expert`): bids up to an estimate read from the rules (the melds its hand would show with
//! each suit as trumps, and a share of the card points by its cards and trump length), names
//! the suit worth most, claims the target once it has it, exchanges the lowest trump and
//! declares marriages whenever it can, leads low, wins a trick when it gains card points
//! cheaply, trumps only for an Ace or a Ten, gives its partner points on a trick the partner
//! wins, and otherwise throws its least valuable card.

use super::game::Phase;
use super::melds;
use super::view::TricksView;
use crate::core::Action;
use crate::deck::CardId;

/// The policy's choice among `legal` (never empty) in the state `view` shows.
pub fn choose(view: &TricksView, legal: &[Action]) -> Action {
    if legal.len() == 1 {
        return legal[0];
    }
    match view.phase {
        Phase::Bid => bid(view, legal),
        Phase::NameTrump => name_trump(view, legal),
        Phase::Lead => lead(view, legal),
        _ => follow(view, legal),
    }
}

/// What the hand is worth with `suit` as trumps: its melds, and a share of the card points
/// to win by its own card points and its length in trumps.
fn worth(view: &TricksView, suit: usize) -> i64 {
    let deck = &view.ruleset.deck;
    let (meld, _) = melds::best(deck, &view.flow.melds, view.hand, Some(suit));
    let all: i64 =
        deck.all().iter().map(|c| view.card_points(c)).sum::<i64>() + view.flow.last_trick_points;
    let mine: i64 = view.hand.iter().map(|c| view.card_points(c)).sum();
    let seats = view.seats.max(1) as i64;
    let sides = view.flow.teams.count(view.seats).max(1) as i64;
    let trumps = i64::from((view.hand & deck.suits[suit].cards).len());
    let fair = i64::from(view.hand.len()) / deck.suits.len().max(1) as i64;
    // A side's fair share, moved by how much better than an average hand this one is and by
    // each trump over a fair length.
    let average = (all / seats).max(1);
    let share = all / sides + (mine - average) * seats / sides / 2 + (trumps - fair) * all / 40;
    meld + share.clamp(0, all)
}

/// The suit worth most as trumps, with its worth.
fn best_suit(view: &TricksView) -> (usize, i64) {
    (0..view.ruleset.deck.suits.len())
        .map(|s| (s, worth(view, s)))
        .max_by_key(|&(s, w)| (w, std::cmp::Reverse(s)))
        .unwrap_or((0, 0))
}

/// Bids the lowest bid while it is within the hand's worth (never over its partner), else
/// passes.
fn bid(view: &TricksView, legal: &[Action]) -> Action {
    let pass = legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::Declare { .. }));
    let partner_high = view
        .high_bid
        .is_some_and(|(s, _)| view.partners(s, view.seat));
    let (_, worth) = best_suit(view);
    let lowest = legal.iter().copied().find_map(|a| match a {
        Action::Bet { amount } => Some((a, amount)),
        _ => None,
    });
    match (lowest, pass) {
        (Some((a, amount)), _) if amount <= worth && !partner_high => a,
        (_, Some(p)) => p,
        _ => legal[0],
    }
}

/// Names the suit worth most as trumps.
fn name_trump(view: &TricksView, legal: &[Action]) -> Action {
    let (suit, _) = best_suit(view);
    legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::Declare { card: Some(c), .. } if view.suit(*c) == suit))
        .unwrap_or(legal[0])
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
    let Some((best_seat, best)) = view.best else {
        return legal[0];
    };
    let cards: Vec<CardId> = plays(legal).collect();
    // The partner holds the trick: give it points when the trick is as good as won (the
    // last to play), else keep the points.
    if view.partners(best_seat, view.seat) {
        let last = view.trick_len + 1 == view.seats;
        let pick = if last {
            cards.iter().copied().max_by_key(|&c| {
                (
                    view.suit(c) != view.trump_suit,
                    view.card_points(c),
                    -view.rank(c),
                )
            })
        } else {
            cards
                .iter()
                .copied()
                .min_by_key(|&c| (cost(view, c), view.rank(c)))
        };
        return Action::Play {
            card: pick.unwrap_or(best),
        };
    }
    let winners: Vec<CardId> = cards
        .iter()
        .copied()
        .filter(|&c| view.beats(c, best))
        .collect();
    let same_suit_winner = winners
        .iter()
        .copied()
        .filter(|&c| view.suit(c) == view.suit(best))
        .min_by_key(|&c| view.rank(c));
    if let Some(c) = same_suit_winner {
        return Action::Play { card: c };
    }
    let trump_winner = winners.iter().copied().min_by_key(|&c| view.rank(c));
    if let Some(c) = trump_winner
        && (view.card_points(best) >= 10 || view.strict)
    {
        return Action::Play { card: c };
    }
    let low = cards
        .iter()
        .copied()
        .min_by_key(|&c| (cost(view, c), view.rank(c)))
        .unwrap_or(best);
    Action::Play { card: low }
}
