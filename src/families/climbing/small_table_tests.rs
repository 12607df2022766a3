//! Big Two at three and two players (rulesets/big-two.toml, house/big-two-two-players): the
//! card left over from seventeen each goes to the holder of the three of diamonds, or of the
//! lowest card dealt where it is that card (Wikipedia's "Big Two", amarilloslim.com's "Big 2");
//! two players hold thirteen each with the rest set aside, and the lowest card dealt opens
//! where the three of diamonds was not dealt (pokerrule-online.com's "Big 2 Poker").

use super::*;
use crate::agent::agent_rng;
use crate::core::{Action, Game, StartOptions};
use crate::deck::{CardId, CardSet};
use crate::ruleset::{self, Ruleset};
use std::sync::Arc;

fn load(name: &str) -> Arc<Ruleset> {
    let loaded = ruleset::load(name);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{name}: {:?}", loaded.diagnostics)),
    )
}

fn card(r: &Ruleset, id: &str) -> CardId {
    r.deck.card_by_id(id).unwrap()
}

/// A game of `seats` dealt from the deck in its own order with `last` moved to position `at`,
/// seat 0 dealing (so seat 1 takes the first card).
fn dealt(r: &Arc<Ruleset>, seats: usize, last: &str, at: usize) -> ClimbingGame {
    let moved = card(r, last);
    let mut order: Vec<CardId> = r.deck.all().iter().filter(|&c| c != moved).collect();
    order.insert(at, moved);
    start(
        Arc::clone(r),
        StartOptions {
            seats: Some(seats),
            deck_orders: vec![order],
            first_dealer: Some(0),
            ..StartOptions::default()
        },
    )
    .unwrap()
}

/// Every play the seat to act may make holds `card`.
fn every_play_holds(g: &ClimbingGame, card: CardId) -> bool {
    let mut legal = Vec::new();
    Game::legal_actions(g, &mut legal);
    !legal.is_empty()
        && legal.iter().all(|a| match a {
            Action::PlaySet { cards } => cards.contains(card),
            _ => false,
        })
}

#[test]
fn with_three_the_card_left_over_goes_to_the_three_of_diamonds() {
    let r = load("big-two");
    // The Three of Diamonds dealt tenth (to seat 1), the King of Spades last, left over.
    let g = dealt(&r, 3, "diamonds-three", 9);
    let three = card(&r, "diamonds-three");
    let holder = (0..3).find(|&s| g.hand(s).contains(three)).unwrap();
    let sizes: Vec<u32> = (0..3).map(|s| g.hand(s).len()).collect();
    assert_eq!(sizes.iter().sum::<u32>(), 52);
    assert_eq!(g.hand(holder).len(), 18, "{sizes:?}");
    assert!(sizes.iter().filter(|&&n| n == 17).count() == 2, "{sizes:?}");
    let last = *r.deck.all().iter().collect::<Vec<_>>().last().unwrap();
    let last = if last == three {
        card(&r, "spades-king")
    } else {
        last
    };
    assert!(g.hand(holder).contains(last), "the 52nd card");
    assert_eq!(g.to_act(), Some(holder));
    assert!(every_play_holds(&g, three));
}

#[test]
fn where_the_card_left_over_is_the_three_of_diamonds_the_lowest_card_dealt_takes_it() {
    let r = load("big-two");
    let g = dealt(&r, 3, "diamonds-three", 51);
    let three = card(&r, "diamonds-three");
    let clubs = card(&r, "clubs-three");
    let holder = (0..3).find(|&s| g.hand(s).contains(clubs)).unwrap();
    assert!(
        g.hand(holder).contains(three),
        "to the Three of Clubs' holder"
    );
    assert_eq!(g.hand(holder).len(), 18);
    assert_eq!(g.to_act(), Some(holder));
    assert!(every_play_holds(&g, three));
}

#[test]
fn with_two_the_rest_is_set_aside_and_the_lowest_card_dealt_opens() {
    let r = load("house/big-two-two-players");
    // The Three of Diamonds among the 26 set aside.
    let g = dealt(&r, 2, "diamonds-three", 40);
    assert_eq!((g.hand(0).len(), g.hand(1).len()), (13, 13));
    let zones = Game::zones(&g);
    let aside = zones.iter().find(|(n, _)| n == "set aside").unwrap().1;
    assert_eq!(aside.len(), 26);
    assert!(aside.contains(card(&r, "diamonds-three")));
    let order = &r.climbing().unwrap().combos.order;
    let in_hands = g.hand(0) | g.hand(1);
    let lowest = in_hands.iter().min_by_key(|&c| order.value(c)).unwrap();
    let seat = g.to_act().unwrap();
    assert!(g.hand(seat).contains(lowest));
    assert!(every_play_holds(&g, lowest));
    // What a seat cannot see holds the other hand and the cards set aside.
    assert_eq!(Game::unseen(&g, seat), g.hand(1 - seat) | aside);
    // With the Three of Diamonds dealt, it opens as in the four-player game.
    let g = dealt(&r, 2, "diamonds-three", 3);
    assert!(every_play_holds(&g, card(&r, "diamonds-three")));
}

/// Random hands at three and two keep every card in one place (the set-aside cards apart),
/// end with one seat out, and the payments sum to zero; a search's worlds keep the set-aside
/// count.
#[test]
fn random_games_at_three_and_two_keep_every_card() {
    for (name, seats) in [("big-two", 3), ("house/big-two-two-players", 2)] {
        let r = load(name);
        for seed in 0..20 {
            let mut g = start(
                Arc::clone(&r),
                StartOptions {
                    seed,
                    seats: Some(seats),
                    rounds: Some(2),
                    ..StartOptions::default()
                },
            )
            .unwrap();
            let mut rng = agent_rng(seed);
            while let Some(seat) = g.to_act() {
                let mut seen = CardSet::EMPTY;
                for (zone, z) in Game::zones(&g) {
                    assert!((seen & z).is_empty(), "{name} seed {seed}: {zone} overlaps");
                    seen |= z;
                }
                assert_eq!(seen, r.deck.all(), "{name} seed {seed}");
                let world = g.determinized(seat, &mut rng);
                assert_eq!(
                    Game::zones(&world)
                        .iter()
                        .fold(CardSet::EMPTY, |a, (_, z)| a | *z),
                    r.deck.all(),
                    "{name} seed {seed}: a world keeps every card"
                );
                g.apply_uniform(&mut rng).unwrap();
            }
            for h in g.history() {
                assert_eq!(h.points.iter().sum::<i64>(), 0, "{name} seed {seed}");
            }
        }
    }
}

#[test]
fn a_deal_that_cannot_be_made_is_refused_where_it_is_written() {
    let errors = |flow: &str| {
        let text = format!("[ruleset]\nid = \"bad\"\nextends = \"big-two\"\n[flow]\n{flow}");
        let loaded = ruleset::load_str("bad.toml", &text);
        loaded
            .diagnostics
            .iter()
            .map(|d| format!("{} {}", loaded.sources.describe(&d.loc), d.message))
            .collect::<Vec<_>>()
    };
    insta::assert_snapshot!(errors("hand_size = 18\n").join("\n"), @"bad.toml:5:13 `hand_size` must be from 1 to 13, the deck's 52 cards over 4 players, found 18");
    insta::assert_snapshot!(errors("hand_size = 13\n").join("\n"), @"bad.toml:5:13 `hand_size` with `odd_cards`");
    insta::assert_snapshot!(errors("unset = [\"odd_cards\"]\n").join("\n"), @"<bundled>/big-two.toml:26:1 a climbing game deals the whole deck evenly: the deck's 52 cards do not deal evenly to 3 players");
}
