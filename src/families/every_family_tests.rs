//! Every family through the one interface: random bots play every bundled ruleset (and a
//! three-seat matching table, and the trick-taking test ruleset of melds at every moment) to the
//! end for many seeds, every card stays in exactly one zone
//! after every action, the same seed gives the same game, and a recorded game replays to the
//! same outcomes.

use crate::agent::RandomAgent;
use crate::core::record::Record;
use crate::core::{Agent, Game, StartOptions, agent_rng, play_out};
use crate::deck::CardSet;
use crate::ruleset::{self, Ruleset};
use std::sync::Arc;

/// Plays up to `moves` actions of random agents seeded with `seed` (fewer when the game ends):
/// a game part-way through, for tests of copies and deals.
pub(crate) fn random_moves<G: Game>(game: &mut G, seed: u64, moves: usize) {
    let mut rng = agent_rng(seed);
    let mut legal = Vec::new();
    for _ in 0..moves {
        let Some(seat) = game.to_act() else { break };
        game.legal_actions(&mut legal);
        let action = RandomAgent.choose(game.as_dyn(), seat, &legal, &mut rng);
        game.apply(action).unwrap();
    }
}

/// A copy made in place ([`Game::copy_from`]) of `source` over `target` (a game of the same
/// family in another state) is the clone, and plays on as the clone does: the same events,
/// hands and scores under the same random agents. For each family's test of its `copy_from`.
pub(crate) fn assert_copy_is_clone<G: Game + Clone + std::fmt::Debug>(
    source: &G,
    mut target: G,
    label: &str,
) {
    assert!(target.copy_from(source), "{label}");
    let mut fresh = source.clone();
    assert_eq!(format!("{target:?}"), format!("{fresh:?}"), "{label}");
    let mut agents: Vec<Box<dyn Agent>> = (0..fresh.seats())
        .map(|_| Box::new(RandomAgent) as Box<dyn Agent>)
        .collect();
    play_out(&mut fresh, &mut agents, &mut agent_rng(5)).unwrap();
    play_out(&mut target, &mut agents, &mut agent_rng(5)).unwrap();
    assert_eq!(target.drain_events(), fresh.drain_events(), "{label}");
    assert_eq!(target.history(), fresh.history(), "{label}");
    assert_eq!(target.scores(), fresh.scores(), "{label}");
}

/// A deal made again in place ([`Game::determinize_from`]) over `target` (a game of the same
/// family in another state; the families' tests pass one with finished hands in its history)
/// is the world [`Game::determinize`] makes of `source` with the same draws, and leaves the
/// generator where it does. For each family's test of its `determinize_from`.
pub(crate) fn assert_deal_in_place_is_fresh<G: Game + std::fmt::Debug>(
    source: &G,
    mut target: G,
    label: &str,
) {
    let Some(seat) = source.to_act() else {
        return;
    };
    let (mut fresh_rng, mut reused_rng) = (agent_rng(11), agent_rng(11));
    let fresh = source
        .determinize(seat, &mut fresh_rng)
        .expect("the family deals worlds");
    let fresh = fresh
        .as_any()
        .downcast_ref::<G>()
        .expect("a world of its family");
    assert!(
        target.determinize_from(source.as_dyn(), seat, &mut reused_rng),
        "{label}"
    );
    assert_eq!(format!("{target:?}"), format!("{fresh:?}"), "{label}");
    assert_eq!(fresh_rng, reused_rng, "{label}");
}

/// A matching table of three seats (until Go-Stop brings a bundled one).
pub(crate) const THREE_SEATS: &str = r#"
[ruleset]
id = "three-seats"
extends = "koikoi"
name = "Koi-Koi for three (a test table)"

[flow]
players = 3
max_players = 3
hand_size = 7
table_size = 6
deal_packet = 7
deal_order = ["others", "dealer", "table"]
"#;

fn rulesets() -> Vec<(Arc<Ruleset>, usize)> {
    let mut v: Vec<(Arc<Ruleset>, usize)> = ruleset::bundled::ruleset_names()
        .map(|n| {
            let r = ruleset::load(n).value.unwrap();
            let seats = super::seat_range(&r).default;
            (Arc::new(r), seats)
        })
        .collect();
    let three = ruleset::load_str("three.toml", THREE_SEATS).value.unwrap();
    v.push((Arc::new(three), 3));
    // Melds shown on one's lead and on winning a trick (a phase of its own).
    let moments = ruleset::load("tests/rulesets/meld-moments.toml")
        .value
        .unwrap();
    v.push((Arc::new(moments), 2));
    v
}

fn start(r: &Arc<Ruleset>, seats: usize, seed: u64, log: bool) -> Box<dyn Game> {
    super::start(
        Arc::clone(r),
        StartOptions {
            seed,
            seats: Some(seats),
            rounds: Some(4),
            log_events: log,
            ..StartOptions::default()
        },
    )
    .unwrap()
}

/// Every card of the deck in exactly one zone.
fn assert_conserved(game: &dyn Game) {
    let mut seen = CardSet::EMPTY;
    for (zone, cards) in game.zones() {
        assert!(
            (seen & cards).is_empty(),
            "{}: a card of `{zone}` is also in another zone",
            game.ruleset().id
        );
        seen |= cards;
    }
    assert_eq!(
        seen,
        game.ruleset().deck.all(),
        "{}: cards lost",
        game.ruleset().id
    );
}

#[test]
fn every_family_plays_to_the_end_keeping_every_card() {
    for (r, seats) in rulesets() {
        for seed in 0..12 {
            let mut game = start(&r, seats, seed, false);
            let mut rng = agent_rng(seed);
            let mut legal = Vec::new();
            let mut actions = 0;
            while let Some(seat) = game.to_act() {
                assert_conserved(&*game);
                game.legal_actions(&mut legal);
                assert!(!legal.is_empty(), "{}: a seat to act with no move", r.id);
                let a = RandomAgent.choose(&*game, seat, &legal, &mut rng);
                game.apply(a).unwrap();
                actions += 1;
                assert!(actions < 100_000, "{}: the game does not end", r.id);
            }
            assert_conserved(&*game);
            assert!(game.error().is_none());
            assert!(game.history().len() as u32 <= game.rounds());
            assert_eq!(game.scores().len(), seats);
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_game_in_every_family() {
    for (r, seats) in rulesets() {
        let run = |seed: u64| {
            let mut game = start(&r, seats, seed, true);
            let mut agents: Vec<Box<dyn Agent>> = (0..seats)
                .map(|_| Box::new(RandomAgent) as Box<dyn Agent>)
                .collect();
            play_out(&mut *game, &mut agents, &mut agent_rng(seed)).unwrap();
            (
                game.history().to_vec(),
                game.scores().to_vec(),
                game.dealt_orders().to_vec(),
            )
        };
        assert_eq!(run(5), run(5), "{}", r.id);
        assert_ne!(run(5).2, run(6).2, "{}", r.id);
    }
}

#[test]
fn a_recorded_game_of_every_family_replays_to_the_same_outcomes() {
    for (r, seats) in rulesets() {
        let players: Vec<String> = (0..seats).map(|_| "random".to_string()).collect();
        let mut record = Record::new(&r, &r.id, Some(9), &players, Some(4));
        let mut game = start(&r, seats, 9, false);
        let mut rng = agent_rng(9);
        let mut legal = Vec::new();
        while let Some(seat) = game.to_act() {
            game.legal_actions(&mut legal);
            let a = RandomAgent.choose(&*game, seat, &legal, &mut rng);
            record.push(seat, a, &r);
            game.apply(a).unwrap();
        }
        record.sync(&*game);
        let back = Record::from_json(&record.to_json()).unwrap();
        let mut seedless = back.clone();
        seedless.seed = None;
        let replayed = super::replay(&seedless, Arc::clone(&r)).unwrap();
        assert_eq!(replayed.history(), game.history(), "{}", r.id);
        assert_eq!(replayed.scores(), game.scores(), "{}", r.id);
    }
}

/// The cards an event shows every seat: played, drawn, declared with a card, shown, melded.
fn shown_by(event: &crate::core::Event) -> CardSet {
    use crate::core::Event;
    match event {
        Event::Declared { card, .. } => card.iter().copied().collect(),
        Event::Played { card, .. } | Event::Drew { card, .. } => CardSet::single(*card),
        Event::Shown { cards, .. } | Event::Stacked { cards, .. } | Event::Melded { cards, .. } => {
            cards.iter().copied().collect()
        }
        _ => CardSet::EMPTY,
    }
}

/// The seat protocol tells a seat nothing of another seat's hidden hand or of the stock: every
/// message a seat receives in whole games of every bundled ruleset names no card that lies in
/// the stock or in another seat's hand (`hand N`, `tiles N`, the banker's tiles) and that no
/// event has shown to every seat. A table hand (cards dealt face up to bet on) is public.
/// Checked are the zones, the cards the legal moves play or take, and every other seat's move
/// as the seat is told it (protocol 2's `moves`).
#[test]
fn a_seat_is_told_nothing_of_hidden_cards() {
    use crate::core::protocol;
    for (r, seats) in rulesets() {
        let table_hand = r.banker().is_some_and(|f| f.table_hand);
        for seed in 0..4 {
            let mut game = start(&r, seats, seed, true);
            let mut rng = agent_rng(seed);
            let mut legal = Vec::new();
            let mut shown = CardSet::EMPTY;
            let mut messages = 0;
            // The cards each seat has held this hand: one it passed on (Hearts) it may be told
            // of in the hand it went to.
            let mut held = vec![CardSet::EMPTY; game.seats()];
            let mut round = game.round();
            while let Some(seat) = game.to_act() {
                shown = game
                    .drain_events()
                    .iter()
                    .fold(shown, |s, e| s | shown_by(e));
                if game.round() != round {
                    round = game.round();
                    held.fill(CardSet::EMPTY);
                }
                for (zone, cards) in game.zones() {
                    if zone == format!("hand {seat}") {
                        held[seat] |= cards;
                    }
                }
                let private = |zone: &str| {
                    let owner = zone
                        .strip_prefix("hand ")
                        .or_else(|| zone.strip_prefix("tiles "))
                        .and_then(|n| n.parse::<usize>().ok());
                    match owner {
                        Some(owner) => owner != seat && !table_hand,
                        None => zone == "stock" || (zone == "banker" && !table_hand),
                    }
                };
                let hidden = game
                    .zones()
                    .into_iter()
                    .filter(|(zone, _)| private(zone))
                    .fold(CardSet::EMPTY, |h, (_, cards)| h | cards);
                game.legal_actions(&mut legal);
                let turn = protocol::turn(&*game, seat, &legal);
                let message = serde_json::to_string(&turn).unwrap();
                // The zones, and the cards the legal moves move: a declaration may name a card
                // only as a choice (a suit named for trumps by one of its cards), the same in
                // every deal.
                let moved: Vec<_> = turn
                    .legal
                    .iter()
                    .filter(|m| !matches!(m, crate::core::record::StepAction::Declare { .. }))
                    .collect();
                let told = serde_json::to_string(&(&turn.zones, moved)).unwrap();
                let named = protocol::cards_named(&told, &r.deck);
                let leaked = named & (hidden - shown - held[seat]);
                assert!(
                    leaked.is_empty(),
                    "{} seed {seed}: seat {seat} is told {:?}: {message}",
                    r.id,
                    r.deck.ids(leaked)
                );
                messages += 1;
                let a = RandomAgent.choose(&*game, seat, &legal, &mut rng);
                game.apply(a).unwrap();
                // The move as each other seat is told it in its next turn's `moves`.
                shown = game
                    .drain_events()
                    .iter()
                    .fold(shown, |s, e| s | shown_by(e));
                for observer in (0..game.seats()).filter(|&o| o != seat) {
                    let hidden = game
                        .zones()
                        .into_iter()
                        .filter(|(zone, _)| {
                            let owner = zone
                                .strip_prefix("hand ")
                                .or_else(|| zone.strip_prefix("tiles "))
                                .and_then(|n| n.parse::<usize>().ok());
                            match owner {
                                Some(owner) => owner != observer && !table_hand,
                                None => zone == "stock" || (zone == "banker" && !table_hand),
                            }
                        })
                        .fold(CardSet::EMPTY, |h, (_, cards)| h | cards);
                    let told = protocol::moved(&*game, observer, seat, a);
                    let named =
                        protocol::cards_named(&serde_json::to_string(&told).unwrap(), &r.deck);
                    let leaked = named & (hidden - shown);
                    assert!(
                        leaked.is_empty(),
                        "{} seed {seed}: seat {observer} is told {:?} of seat {seat}'s move",
                        r.id,
                        r.deck.ids(leaked)
                    );
                }
            }
            assert!(messages > 0, "{}", r.id);
        }
    }
}

/// A spectator (a room's watcher, `yaku serve`) is told nothing that is not public: in whole
/// games of every bundled ruleset, no state it is sent names a card of any hand (`hand N`,
/// `tiles N`, the banker's tiles, unless dealt face up to bet on) or of the stock that no event
/// has shown to every seat, and it is offered no move.
#[test]
fn a_spectator_is_told_nothing_of_hidden_cards() {
    use crate::core::protocol;
    for (r, seats) in rulesets() {
        let table_hand = r.banker().is_some_and(|f| f.table_hand);
        for seed in 0..4 {
            let mut game = start(&r, seats, seed, true);
            let mut rng = agent_rng(seed);
            let mut legal = Vec::new();
            let mut shown = CardSet::EMPTY;
            loop {
                shown = game
                    .drain_events()
                    .iter()
                    .fold(shown, |s, e| s | shown_by(e));
                let private = |zone: &str| {
                    let held = zone.starts_with("hand ") || zone.starts_with("tiles ");
                    (held && !table_hand) || zone == "stock" || (zone == "banker" && !table_hand)
                };
                let hidden = game
                    .zones()
                    .into_iter()
                    .filter(|(zone, _)| private(zone))
                    .fold(CardSet::EMPTY, |h, (_, cards)| h | cards);
                let state = protocol::watched(&*game);
                let message = serde_json::to_string(&state).unwrap();
                assert!(state.legal.is_empty() && state.seat.is_none(), "{message}");
                let named = protocol::cards_named(&message, &r.deck);
                let leaked = named & (hidden - shown);
                assert!(
                    leaked.is_empty(),
                    "{} seed {seed}: a spectator is told {:?}: {message}",
                    r.id,
                    r.deck.ids(leaked)
                );
                let Some(seat) = game.to_act() else { break };
                game.legal_actions(&mut legal);
                let a = RandomAgent.choose(&*game, seat, &legal, &mut rng);
                game.apply(a).unwrap();
            }
        }
    }
}

/// A move is told without the cards the seat told may not see: a card still in another seat's
/// hand is not named (`"hidden": true`), and the same move told to the seat that holds the card
/// names it.
#[test]
fn a_move_of_a_card_a_seat_may_not_see_is_told_hidden() {
    use crate::core::protocol;
    let r = Arc::new(crate::ruleset::load("koikoi").value.unwrap());
    let game = start(&r, 2, 1, false);
    let seat = game.to_act().unwrap();
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let other = protocol::moved(&*game, 1 - seat, seat, legal[0]);
    assert_eq!(
        serde_json::to_value(&other).unwrap(),
        serde_json::json!({"seat": seat, "action": "play", "hidden": true})
    );
    let own = protocol::moved(&*game, seat, seat, legal[0]);
    assert!(own.action["card"].is_string(), "{own:?}");
}
