//! The trick-taking family's rule-reading policy (the `greedy` bot, and the playout policy of
//! `expert`): bids up to an estimate read from the rules (the melds its hand would show with
//! each suit as trumps, and a share of the card points by its cards and trump length), names
//! the suit worth most, claims the target once it has it, exchanges the lowest trump and
//! shows the meld worth most whenever it can (a marriage on its lead, a meld on winning a
//! trick), leads low, wins a trick when it gains card points
//! cheaply, trumps only for an Ace or a Ten, gives its partner points on a trick the partner
//! wins, and otherwise throws its least valuable card. Named contracts with a goal it reads
//! from the goal and the card values: the tricks its top cards should take, the points they
//! bring; it bids the highest contract it expects to make, discards what serves the goal least,
//! and under a contract that must take no trick it ducks (and its opponents let it win).

use super::melds;
use super::phase::Phase;
use super::view::TricksView;
use crate::core::Action;
use crate::deck::{CardId, CardSet};
use crate::ruleset::{Contract, MeldAddsTo, MeldMoment, TrickCount};

/// The policy's choice among `legal` (never empty) in the state `view` shows.
pub fn choose(view: &TricksView, legal: &[Action]) -> Action {
    choose_why(view, legal).0
}

/// Why the policy made a choice: the branch of its reading that decided, with the figures it
/// weighed, for a player's hint ([`Why::words`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The only legal move.
    Only,
    /// A bid within the hand's worth.
    Bid { worth: i64 },
    /// A pass: the lowest bid is over the hand's worth, or the partner holds the auction.
    PassBid { worth: i64, partner: bool },
    /// The highest named contract the hand expects to make.
    Contract,
    /// No named contract it expects to make.
    NoContract,
    /// Trumps named in the suit worth most.
    NameTrump { suit: usize, worth: i64 },
    /// Calls the card of the suit it holds fewest of (so that it can trump that suit, or its
    /// partner takes the trick with the called card).
    Call { card: CardId, held: u32 },
    /// Bidding on a turned-up card: trumps made in the suit of which it holds most trumps
    /// (`forced`: the dealer is stuck), or a pass with too few (`suit` none).
    TurnedUp {
        suit: Option<usize>,
        trumps: u32,
        forced: bool,
    },
    /// A discard under a contract that must take no trick: its highest card.
    DiscardHigh,
    /// A discard of the card worth least to it.
    DiscardLow,
    /// A card passed where points are penalties: the most dangerous.
    PassDangerous,
    /// A card passed: the one worth least to it.
    PassCheap,
    /// Claims the target with the points it has.
    Claim { points: i64 },
    /// Exchanges the lowest trump for the turned-up one.
    Exchange,
    /// Shows the meld worth most.
    Meld { points: i64 },
    /// Shows nothing: it holds no meld to show now.
    NoMeld,
    /// Closes the stock with points near the target and several trumps.
    Close { trumps: usize },
    /// Cashes a card no unseen card can beat.
    Sure,
    /// Leads its cheapest card.
    LeadLow,
    /// Gives its partner, who holds the trick as the last to play, points.
    Feed,
    /// Keeps its points under its partner's card (others still to play).
    UnderPartner,
    /// Wins with the lowest card of the suit that beats the trick.
    WinInSuit,
    /// Trumps a trick worth it (or the follow rules make it).
    Trump { points: i64, strict: bool },
    /// Cannot win cheaply: throws its cheapest card.
    Throw,
    /// Under a contract to take no trick: the declarer's low play, or an opponent's.
    Duck { declarer: bool },
    /// Where points are penalties: leads its lowest card.
    AvoidLead,
    /// Where points are penalties: the highest card that does not take the trick.
    AvoidUnder,
    /// Where points are penalties: every card takes the trick.
    AvoidForced,
    /// Where points are penalties and it cannot follow: throws its most dangerous card.
    AvoidThrow,
    /// Raises the stake (an announcement with a factor): its hand alone should take `points`
    /// of the `all` card points, half or more.
    Announce { points: i64, all: i64 },
}

impl Why {
    /// The reason in words, as a hint says it after "would play ...: ".
    pub fn words(self, view: &TricksView) -> String {
        let deck = &view.ruleset.deck;
        let target = view.flow.target;
        match self {
            Why::Only => "it is the only move".to_string(),
            Why::Bid { worth } => format!(
                "the hand looks worth about {worth} points (its melds with its best suit as trumps, and a share of the card points), enough for this bid"
            ),
            Why::PassBid { partner: true, .. } => {
                "its partner holds the auction: it does not bid over a partner".to_string()
            }
            Why::PassBid { worth, .. } => format!(
                "the hand looks worth about {worth} points (its melds with its best suit as trumps, and a share of the card points), less than the lowest bid"
            ),
            Why::Contract => {
                "its top cards and trumps should make this contract, the highest it expects to make"
                    .to_string()
            }
            Why::NoContract => {
                "it expects to make none of the contracts still open".to_string()
            }
            Why::TurnedUp {
                suit: Some(suit),
                trumps,
                forced,
            } => format!(
                "it holds {trumps} trump{} with {} as trumps{}",
                if trumps == 1 { "" } else { "s" },
                deck.suits[suit].name,
                if forced {
                    ", the most of any suit it may name (the dealer is stuck)".to_string()
                } else {
                    format!(", {TURNED_UP_TRUMPS} or more")
                }
            ),
            Why::TurnedUp { trumps, .. } => format!(
                "it would hold at most {trumps} trump{} in a suit it may make trumps, fewer than {TURNED_UP_TRUMPS}",
                if trumps == 1 { "" } else { "s" }
            ),
            Why::NameTrump { suit, worth } => format!(
                "{} as trumps makes the hand worth most (about {worth} points with its melds)",
                deck.suits[suit].name
            ),
            Why::Call { card, held } => format!(
                "it holds {held} card{} of the {}'s suit, the fewest of any it may call: it can trump that suit, or its partner wins it with the called card",
                if held == 1 { "" } else { "s" },
                deck.card(card).name
            ),
            Why::DiscardHigh => {
                "under a contract to take no trick, its highest cards are the danger".to_string()
            }
            Why::DiscardLow => {
                "it is the card worth least to the hand (fewest points, in a short suit)".to_string()
            }
            Why::PassDangerous => {
                "it is the card most likely to cost points (penalty points and a high rank)".to_string()
            }
            Why::PassCheap => "it is the card worth least to the hand".to_string(),
            Why::Claim { points } => {
                format!("it has {points} points, enough for the {target} it needs")
            }
            Why::Exchange => {
                "the turned-up trump is worth more than the lowest trump given for it".to_string()
            }
            Why::Meld { points } => format!("the meld worth most it can show now ({points} points)"),
            Why::NoMeld => "it holds no meld to show now".to_string(),
            Why::Close { trumps } => format!(
                "it is within 20 points of {target} and holds {trumps} trumps: with the follow rules the rest should be its"
            ),
            Why::Sure => "no card still unseen can beat it, so the trick is safe".to_string(),
            Why::LeadLow => {
                "it leads its cheapest card (fewest points, not a trump), keeping the high cards for tricks worth more"
                    .to_string()
            }
            Why::Feed => "its partner takes this trick, so it adds the most points it can".to_string(),
            Why::UnderPartner => {
                "its partner holds the trick with others still to play, so it keeps its points back"
                    .to_string()
            }
            Why::WinInSuit => "it is the lowest card of the suit that takes the trick".to_string(),
            Why::Trump { strict: true, .. } => {
                "once the follow rules apply it takes every trick it can, with its lowest winning card"
                    .to_string()
            }
            Why::Trump { points, .. } => format!(
                "the trick holds a card of {points} points, worth a trump"
            ),
            Why::Throw => {
                "it cannot take this trick cheaply, so it throws its cheapest card".to_string()
            }
            Why::Duck { declarer: true } => {
                "its contract is to take no trick: it plays the highest card that stays under"
                    .to_string()
            }
            Why::Duck { declarer: false } => {
                "the declarer must take no trick: it lets the declarer win".to_string()
            }
            Why::AvoidLead => "points are penalties here: it leads its lowest card".to_string(),
            Why::AvoidUnder => {
                "points are penalties: it plays its highest card that stays under the trick"
                    .to_string()
            }
            Why::AvoidForced => {
                "points are penalties, but every card it may play takes the trick".to_string()
            }
            Why::AvoidThrow => {
                "it cannot follow suit, so it gets rid of its most dangerous card".to_string()
            }
            Why::Announce { points, all } => format!(
                "its hand alone should take about {points} of the {all} card points, half or more, so it raises the stake"
            ),
        }
    }
}

/// The policy's choice, with why.
pub fn choose_why(view: &TricksView, legal: &[Action]) -> (Action, Why) {
    if legal.len() == 1 {
        return (legal[0], Why::Only);
    }
    if !view.flow.announcements.is_empty()
        && matches!(view.phase, Phase::Lead | Phase::Follow)
        && let Some(raise) = announce(view, legal)
    {
        return raise;
    }
    match view.phase {
        Phase::Bid => bid(view, legal),
        Phase::Discard => discard(view, legal),
        Phase::Pass => pass(view, legal),
        Phase::Lead | Phase::Follow if view.flow.lowest_wins => avoid(view, legal),
        Phase::NameTrump => name_trump(view, legal),
        Phase::Call => call(view, legal),
        Phase::Lead => lead(view, legal),
        Phase::Meld => match best_meld(view, legal, MeldMoment::WonTrick) {
            Some((a, points)) => (a, Why::Meld { points }),
            None => (
                legal
                    .iter()
                    .copied()
                    .find(|a| matches!(a, Action::Declare { card: None, .. }))
                    .unwrap_or(legal[0]),
                Why::NoMeld,
            ),
        },
        _ => follow(view, legal),
    }
}

/// Raises the stake where it may and its hand is strong: an announcement with a factor over 1
/// when the hand alone should take half the card points or more, by the estimate it bids
/// contracts by (its sure winners with the cards thrown on them, half the rest) under the
/// contract in play and its trumps. Never a target alone, never without a contract. Kept out
/// of line: the games without announcements never call it.
#[inline(never)]
fn announce(view: &TricksView, legal: &[Action]) -> Option<(Action, Why)> {
    let contract = view.contract?;
    let action = legal.iter().copied().find(|a| match a {
        Action::Declare { decl, card: None } => view
            .flow
            .announcements
            .iter()
            .any(|x| x.decl == *decl && x.factor > 1),
        _ => false,
    })?;
    let deck = &view.ruleset.deck;
    let trump = (view.trump_suit < deck.suits.len()).then_some(view.trump_suit);
    let (_, points) = estimate(view, contract, trump);
    let all =
        deck.all().iter().map(|c| view.card_points(c)).sum::<i64>() + view.flow.last_trick_points;
    (points * 2 >= all).then_some((action, Why::Announce { points, all }))
}

/// What the hand is worth with `suit` as trumps: its melds, and a share of the card points
/// to win by its own card points and its length in trumps.
fn worth(view: &TricksView, suit: usize) -> i64 {
    let deck = &view.ruleset.deck;
    let (meld, _) = melds::best(
        &view.flow.meld_table,
        &view.flow.melds,
        view.hand,
        Some(suit),
    );
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

/// The suit worth most as trumps to the hand in `view`, with the worth the policy bids by (its
/// melds, and a share of the card points): what a player is told before bidding.
pub fn hand_worth(view: &TricksView) -> (usize, i64) {
    best_suit(view)
}

/// The suit worth most as trumps, with its worth.
fn best_suit(view: &TricksView) -> (usize, i64) {
    (0..view.ruleset.deck.suits.len())
        .map(|s| (s, worth(view, s)))
        .max_by_key(|&(s, w)| (w, std::cmp::Reverse(s)))
        .unwrap_or((0, 0))
}

/// The cards of `suit` in `hand` that should take tricks: its run of top cards (the Ace, then
/// the Ten with it, ...), and in trumps every card past the first two others could hold.
fn sure_winners(view: &TricksView, hand: CardSet, suit: usize, trumps: bool) -> Vec<CardId> {
    let deck = &view.ruleset.deck;
    let mut all: Vec<CardId> = deck.suits[suit].cards.iter().collect();
    all.sort_by_key(|&c| std::cmp::Reverse(view.rank(c)));
    let mut out: Vec<CardId> = all
        .iter()
        .copied()
        .take_while(|&c| hand.contains(c))
        .collect();
    if trumps {
        let mine: Vec<CardId> = all.iter().copied().filter(|&c| hand.contains(c)).collect();
        let long = mine.len().saturating_sub(2).max(out.len());
        out = mine.into_iter().take(long).collect();
    }
    out
}

/// What the hand should bring under `contract` (trumps in `trump`, if it has them): the tricks
/// its sure winners take, and the card points they bring with what the others throw on them
/// (a fair card a seat), and its marriages once it takes a trick.
fn estimate(view: &TricksView, contract: &Contract, trump: Option<usize>) -> (u32, i64) {
    let deck = &view.ruleset.deck;
    let mut winners = Vec::new();
    for suit in 0..deck.suits.len() {
        winners.extend(sure_winners(view, view.hand, suit, trump == Some(suit)));
    }
    let fair = deck.all().iter().map(|c| view.card_points(c)).sum::<i64>()
        / i64::from(deck.all().len().max(1));
    let by = contract.goal.by_trick.map_or(winners.len(), |k| k as usize);
    winners.sort_by_key(|&c| std::cmp::Reverse(view.card_points(c)));
    let taken = winners.len().min(by);
    let mut points: i64 = winners[..taken]
        .iter()
        .map(|&c| view.card_points(c) + fair * (view.seats as i64 - 1))
        .sum();
    if contract.goal.by_trick.is_none() {
        // The rest of the hand wins a share of the tricks it plays to.
        let rest: i64 = (view.hand - winners.iter().copied().collect::<CardSet>())
            .iter()
            .map(|c| view.card_points(c))
            .sum();
        points += rest / 2;
    }
    if taken > 0 {
        // The melds it would show on its leads, added to its card points (marriages).
        points += view.meld_table.held_points(
            &view.flow.melds,
            trump.unwrap_or(deck.suits.len()),
            view.hand,
            |m| m.moment == MeldMoment::Lead && m.adds_to == MeldAddsTo::Points,
        );
    }
    (winners.len() as u32, points)
}

/// Cards that could take a trick without trumps: a card with fewer than two higher cards of its
/// suit outside the hand.
fn risky(view: &TricksView, hand: CardSet) -> u32 {
    let deck = &view.ruleset.deck;
    hand.iter()
        .filter(|&c| {
            let suit = deck.suits[view.suit(c)].cards - hand;
            suit.iter().filter(|&o| view.rank(o) > view.rank(c)).count() < 2
        })
        .count() as u32
}

/// True when the hand should make `contract`'s goal (the talon unknown; with trumps, named
/// in its best suit).
fn makes(view: &TricksView, contract: &Contract) -> bool {
    let goal = &contract.goal;
    let size = view.hand.len();
    let suits = view.ruleset.deck.suits.len();
    let trumps: Vec<Option<usize>> = if contract.trumps {
        (0..suits).map(Some).collect()
    } else {
        vec![None]
    };
    if goal.max_tricks == Some(0) {
        return risky(view, view.hand) <= 1;
    }
    trumps.into_iter().any(|t| {
        let (tricks, points) = estimate(view, contract, t);
        let need = match goal.min_tricks {
            Some(TrickCount::All) => size,
            Some(TrickCount::Count(n)) => n,
            None => 0,
        };
        let by = goal.by_trick.unwrap_or(0);
        tricks >= need.max(by) && goal.points.is_none_or(|p| points >= p)
    })
}

/// Under named contracts with goals: the highest contract the hand should make, else a pass.
fn bid_contract(view: &TricksView, legal: &[Action]) -> Option<(Action, Why)> {
    let a = view.flow.auction.as_ref()?;
    let mut any_goal = false;
    let mut best = None;
    for &action in legal {
        if let Action::Bet { amount } = action
            && let Some(c) = a.contract(amount)
            && !c.goal.is_empty()
        {
            any_goal = true;
            if makes(view, c) && best.is_none_or(|(b, _)| amount > b) {
                best = Some((amount, action));
            }
        }
    }
    if !any_goal {
        return None;
    }
    let partner_high = view
        .high_bid
        .is_some_and(|(s, _)| view.partners(s, view.seat));
    match best {
        Some((_, action)) if !partner_high => Some((action, Why::Contract)),
        _ => legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Declare { .. }))
            .map(|a| {
                let why = if partner_high {
                    Why::PassBid {
                        worth: 0,
                        partner: true,
                    }
                } else {
                    Why::NoContract
                };
                (a, why)
            }),
    }
}

/// Discards from a hand that took the talon: under a contract that must take no trick, its
/// highest cards; otherwise the cards worth least to it (fewest points, lowest, in its shortest
/// suits).
fn discard(view: &TricksView, legal: &[Action]) -> (Action, Why) {
    let deck = &view.ruleset.deck;
    let none = view.contract.is_some_and(|c| c.goal.max_tricks == Some(0));
    let length = |c: CardId| (view.hand & deck.suits[view.suit(c)].cards).len();
    let pick = if none {
        plays(legal).max_by_key(|&c| (view.rank(c), std::cmp::Reverse(length(c))))
    } else {
        plays(legal).min_by_key(|&c| (view.card_points(c), length(c), view.rank(c)))
    };
    let why = if none {
        Why::DiscardHigh
    } else {
        Why::DiscardLow
    };
    (pick.map_or(legal[0], |card| Action::Play { card }), why)
}

/// How much a card threatens a hand whose card points are penalties: its rank (a high card
/// takes tricks) and four ranks for each of its points, so that the Queen of Spades (13) comes
/// first, then high hearts, then Aces and Kings before low hearts.
fn danger(view: &TricksView, card: CardId) -> i64 {
    view.rank(card) + 4 * view.card_points(card)
}

/// Chooses a card to pass: where card points are penalties (`lowest_wins`), the most dangerous
/// card (most points, then highest); otherwise the card worth least to it (fewest points,
/// lowest, not a trump).
fn pass(view: &TricksView, legal: &[Action]) -> (Action, Why) {
    let (pick, why) = if view.flow.lowest_wins {
        (
            plays(legal).max_by_key(|&c| danger(view, c)),
            Why::PassDangerous,
        )
    } else {
        (
            plays(legal).min_by_key(|&c| (cost(view, c), view.rank(c))),
            Why::PassCheap,
        )
    };
    (pick.map_or(legal[0], |card| Action::Play { card }), why)
}

/// Where card points are penalties (`lowest_wins`): lead its lowest card; following suit, play
/// the highest card that does not take the trick, else (every card takes it) its highest
/// when it plays last and its lowest before; unable to follow, throw its most dangerous card.
fn avoid(view: &TricksView, legal: &[Action]) -> (Action, Why) {
    let cards: Vec<CardId> = plays(legal).collect();
    let Some(&first) = cards.first() else {
        return (legal[0], Why::Only);
    };
    let Some((_, best)) = view.best else {
        let low = cards
            .iter()
            .copied()
            .min_by_key(|&c| (view.rank(c), view.card_points(c)));
        let card = low.unwrap_or(first);
        return (Action::Play { card }, Why::AvoidLead);
    };
    let led = view
        .led
        .map_or(view.follows_as(best), |c| view.follows_as(c));
    let following = cards.iter().any(|&c| view.follows_as(c) == led);
    let (pick, why) = if following {
        let under = cards
            .iter()
            .copied()
            .filter(|&c| !view.beats(c, best))
            .max_by_key(|&c| view.rank(c));
        let last = view.trick_len + 1 == view.trick_size();
        match under {
            Some(c) => (Some(c), Why::AvoidUnder),
            None if last => (
                cards
                    .iter()
                    .copied()
                    .max_by_key(|&c| (-view.card_points(c), view.rank(c))),
                Why::AvoidForced,
            ),
            None => (
                cards.iter().copied().min_by_key(|&c| view.rank(c)),
                Why::AvoidForced,
            ),
        }
    } else {
        (
            cards.iter().copied().max_by_key(|&c| danger(view, c)),
            Why::AvoidThrow,
        )
    };
    let card = pick.unwrap_or(first);
    (Action::Play { card }, why)
}

/// Under a contract that must take no trick: the declarer leads its lowest card and plays the
/// highest card that does not win; its opponents let it win (the highest card below its card)
/// and otherwise play low.
fn duck(view: &TricksView, legal: &[Action], declarer: usize) -> (Action, Why) {
    let cards: Vec<CardId> = plays(legal).collect();
    let low = cards.iter().copied().min_by_key(|&c| view.rank(c));
    let pick = match view.best {
        None => low,
        Some((seat, best)) if view.seat == declarer || seat == declarer => cards
            .iter()
            .copied()
            .filter(|&c| !view.beats(c, best))
            .max_by_key(|&c| view.rank(c))
            .or(if view.seat == declarer {
                low
            } else {
                cards.iter().copied().max_by_key(|&c| view.rank(c))
            }),
        Some(_) => low,
    };
    let why = Why::Duck {
        declarer: view.seat == declarer,
    };
    (pick.map_or(legal[0], |card| Action::Play { card }), why)
}

/// Bids the lowest bid while it is within the hand's worth (never over its partner), else
/// passes.
fn bid(view: &TricksView, legal: &[Action]) -> (Action, Why) {
    if view.flow.auction.as_ref().is_some_and(|a| a.turned_up) {
        return turned_up_bid(view, legal);
    }
    if let Some(a) = bid_contract(view, legal) {
        return a;
    }
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
        (Some((a, amount)), _) if amount <= worth && !partner_high => (a, Why::Bid { worth }),
        (_, Some(p)) => (
            p,
            Why::PassBid {
                worth,
                partner: partner_high,
            },
        ),
        _ => (legal[0], Why::Bid { worth }),
    }
}

/// How far the hand in `view` is from making `action` in the auction, where `legal` were the
/// moves then (0: this policy would have made it, or a move like it): a value bid the hand is
/// not worth (in bidding steps short), a contract it would not expect to make, a pass with a
/// hand worth the lowest value bid (in steps over) or one that would make a contract offered.
/// A seat bidding over its partner, or passing with its partner ahead, is taken at its word.
/// A search reads the others' bidding with it, to deal worlds that agree with what they did;
/// `worth` keeps the hand's worth between its calls on one hand.
pub fn bid_misfit(
    view: &TricksView,
    legal: &[Action],
    action: Action,
    worth: &mut Option<i64>,
) -> i64 {
    let Some(a) = view.flow.auction.as_ref() else {
        return 0;
    };
    if view
        .high_bid
        .is_some_and(|(s, _)| view.partners(s, view.seat))
    {
        return 0;
    }
    let step = a.step.max(1);
    let steps = |points: i64| (points.max(0) + step - 1) / step;
    let mut worth = || *worth.get_or_insert_with(|| best_suit(view).1);
    match action {
        Action::Bet { amount } => match a.contract(amount) {
            Some(c) if !c.goal.is_empty() => i64::from(!makes(view, c)),
            _ => steps(amount - worth()),
        },
        _ => {
            let mut misfit = 0;
            let mut lowest_value = None;
            for &b in legal {
                if let Action::Bet { amount } = b {
                    match a.contract(amount) {
                        Some(c) if !c.goal.is_empty() => misfit += i64::from(makes(view, c)),
                        _ => {
                            lowest_value.get_or_insert(amount);
                        }
                    }
                }
            }
            if let Some(low) = lowest_value {
                misfit += steps(worth() - low + 1);
            }
            misfit
        }
    }
}

/// The trumps a hand must hold in a suit before the policy makes it trumps when bidding on a
/// turned-up card: three of five, the bowers counting (a rule of thumb of Euchre players:
/// a hand that can expect to take three tricks with its partner's help).
const TURNED_UP_TRUMPS: u32 = 3;

/// Bidding on a turned-up card: makes trumps in the suit of which the hand holds most trumps (by
/// the trumps of that suit, so that the bowers count; the dealer ordering up counts the card it
/// takes) when that is `TURNED_UP_TRUMPS` or more, or when it may not pass; else passes.
fn turned_up_bid(view: &TricksView, legal: &[Action]) -> (Action, Why) {
    let Some(a) = view.flow.auction.as_ref() else {
        return (legal[0], Why::Only);
    };
    let orders = a.contracts.first().map_or(0, |c| c.orders);
    let mut best: Option<(Action, u32, usize)> = None;
    for &action in legal {
        if let Action::Declare {
            decl,
            card: Some(c),
        } = action
        {
            let suit = view.suit(c);
            let mut hand = view.hand;
            if Some(decl) == a.order_up && view.seat == view.dealer {
                hand.insert(c);
            }
            let trumps =
                (view.flow.orders[view.flow.order_index(orders, suit)].trumps & hand).len();
            if best.is_none_or(|(_, n, _)| trumps > n) {
                best = Some((action, trumps, suit));
            }
        }
    }
    let pass = legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::Declare { card: None, .. }));
    match (best, pass) {
        (Some((action, trumps, suit)), pass) if trumps >= TURNED_UP_TRUMPS || pass.is_none() => (
            action,
            Why::TurnedUp {
                suit: Some(suit),
                trumps,
                forced: pass.is_none(),
            },
        ),
        (best, Some(pass)) => (
            pass,
            Why::TurnedUp {
                suit: None,
                trumps: best.map_or(0, |(_, n, _)| n),
                forced: false,
            },
        ),
        _ => (legal[0], Why::Only),
    }
}

/// Names the suit worth most as trumps.
fn name_trump(view: &TricksView, legal: &[Action]) -> (Action, Why) {
    let (suit, worth) = best_suit(view);
    let action = legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::Declare { card: Some(c), .. } if view.suit(*c) == suit))
        .unwrap_or(legal[0]);
    (action, Why::NameTrump { suit, worth })
}

/// Calls the card whose suit (as it follows) it holds fewest of, the lowest-pointed of those.
fn call(view: &TricksView, legal: &[Action]) -> (Action, Why) {
    let held = |c: CardId| (view.hand & view.same_suit(c)).len();
    legal
        .iter()
        .copied()
        .filter_map(|a| match a {
            Action::Declare { card: Some(c), .. } => Some((a, c)),
            _ => None,
        })
        .min_by_key(|&(_, c)| (held(c), c.index()))
        .map_or((legal[0], Why::Only), |(a, card)| {
            (
                a,
                Why::Call {
                    card,
                    held: held(card),
                },
            )
        })
}

/// The legal declaration with `effect`, if any.
fn declaration(view: &TricksView, legal: &[Action], effect: &str) -> Option<Action> {
    legal.iter().copied().find(|a| match a {
        Action::Declare { decl, .. } => view.ruleset.declarations[decl.0 as usize].effect == effect,
        _ => false,
    })
}

/// The legal move showing the meld of `moment` worth most, naming its cheaper card (the last of
/// equals), if any.
fn best_meld(view: &TricksView, legal: &[Action], moment: MeldMoment) -> Option<(Action, i64)> {
    legal
        .iter()
        .copied()
        .filter_map(|a| match a {
            Action::Declare {
                decl,
                card: Some(c),
            } if view.flow.meld_declarations.contains(&decl) => view
                .meld_shown(decl, moment, c)
                .map(|shown| (a, (shown.points, -view.card_points(c)))),
            _ => None,
        })
        .max_by_key(|&(_, key)| key)
        .map(|(a, (points, _))| (a, points))
}

/// How much the policy minds giving a card up: its points, and more for trumps.
fn cost(view: &TricksView, card: CardId) -> i64 {
    view.card_points(card) + if view.is_trump(card) { 12 } else { 0 }
}

fn plays(legal: &[Action]) -> impl Iterator<Item = CardId> + '_ {
    legal.iter().filter_map(|a| match a {
        Action::Play { card } => Some(*card),
        _ => None,
    })
}

fn lead(view: &TricksView, legal: &[Action]) -> (Action, Why) {
    let me = view.seat;
    if let (Some(c), Some(d)) = (view.contract, view.declarer)
        && c.goal.max_tricks == Some(0)
    {
        return duck(view, legal, d);
    }
    if let Some(claim) = declaration(view, legal, "claim")
        && view.points[me] >= view.flow.target
    {
        return (
            claim,
            Why::Claim {
                points: view.points[me],
            },
        );
    }
    if let Some(x) = declaration(view, legal, "exchange") {
        return (x, Why::Exchange);
    }
    // The meld worth most (a marriage in trumps before one in another suit), leading its
    // cheaper card.
    if let Some((m, points)) = best_meld(view, legal, MeldMoment::Lead) {
        return (m, Why::Meld { points });
    }
    // Close with a strong hand: already close to the target, and three trumps or more.
    if let Some(close) = declaration(view, legal, "close") {
        let trumps = view.hand.iter().filter(|&c| view.is_trump(c)).count();
        if view.points[me] + view.pending_points() >= view.flow.target - 20 && trumps >= 3 {
            return (close, Why::Close { trumps });
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
            return (Action::Play { card: c }, Why::Sure);
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
    (Action::Play { card: low }, Why::LeadLow)
}

fn follow(view: &TricksView, legal: &[Action]) -> (Action, Why) {
    let Some((best_seat, best)) = view.best else {
        return (legal[0], Why::Only);
    };
    if let (Some(c), Some(d)) = (view.contract, view.declarer)
        && c.goal.max_tricks == Some(0)
    {
        return duck(view, legal, d);
    }
    let cards: Vec<CardId> = plays(legal).collect();
    // The partner holds the trick: give it points when the trick is as good as won (the
    // last to play), else keep the points.
    if view.partners(best_seat, view.seat) {
        let last = view.trick_len + 1 == view.trick_size();
        let pick = if last {
            cards
                .iter()
                .copied()
                .max_by_key(|&c| (!view.is_trump(c), view.card_points(c), -view.rank(c)))
        } else {
            cards
                .iter()
                .copied()
                .min_by_key(|&c| (cost(view, c), view.rank(c)))
        };
        let why = if last { Why::Feed } else { Why::UnderPartner };
        return (
            Action::Play {
                card: pick.unwrap_or(best),
            },
            why,
        );
    }
    let winners: Vec<CardId> = cards
        .iter()
        .copied()
        .filter(|&c| view.beats(c, best))
        .collect();
    let same_suit_winner = winners
        .iter()
        .copied()
        .filter(|&c| view.follows_as(c) == view.follows_as(best))
        .min_by_key(|&c| view.rank(c));
    if let Some(c) = same_suit_winner {
        return (Action::Play { card: c }, Why::WinInSuit);
    }
    let trump_winner = winners.iter().copied().min_by_key(|&c| view.rank(c));
    if let Some(c) = trump_winner
        && (view.card_points(best) >= 10 || view.strict)
    {
        let why = Why::Trump {
            points: view.card_points(best),
            strict: view.card_points(best) < 10,
        };
        return (Action::Play { card: c }, why);
    }
    let low = cards
        .iter()
        .copied()
        .min_by_key(|&c| (cost(view, c), view.rank(c)))
        .unwrap_or(best);
    (Action::Play { card: low }, Why::Throw)
}
