//! Announcements that raise the stake or set a target (Issue 42, wall 6), on the test ruleset
//! tests/rulesets/kontra-re.toml: Schafkopf's Kontra and Re over the call-ace game of
//! tests/rulesets/called-partner.toml, with Schneider and Schwarz announced as targets (a house
//! rule after Skat). Sources are the ruleset's (pagat.com).

use super::test_support::*;
use super::*;
use crate::agent::{Agent, GreedyAgent, RandomAgent, agent_rng};
use crate::core::{Action, DeclId, Event, StartOptions};
use crate::deck::CardSet;
use crate::ruleset::Ruleset;
use std::sync::Arc;

const KONTRA_RE: &str = "tests/rulesets/kontra-re.toml";

/// The declaration of id `id`.
fn decl(r: &Ruleset, id: &str) -> DeclId {
    DeclId(
        r.declarations
            .iter()
            .position(|d| d.id == id)
            .unwrap_or_else(|| panic!("no declaration `{id}`")) as u8,
    )
}

/// A move: `pass`, `bid N`, `call CARD`, `say ID` (an announcement), or a card id to play.
fn act(g: &mut TricksGame, m: &str) {
    let r = Arc::clone(g.ruleset());
    let (verb, rest) = m.split_once(' ').unwrap_or((m, ""));
    let action = match verb {
        "pass" => Action::declare(decl(&r, "pass")),
        "bid" => Action::Bet {
            amount: rest.parse().unwrap(),
        },
        "call" => Action::Declare {
            decl: decl(&r, "call"),
            card: Some(card(&r, rest)),
        },
        "say" => Action::declare(decl(&r, rest)),
        _ => Action::Play {
            card: card(&r, verb),
        },
    };
    let seat = g.to_act();
    g.apply(action)
        .unwrap_or_else(|e| panic!("seat {seat:?}: `{m}` refused: {e}"));
}

/// The ids of the announcements legal now.
fn offered(g: &TricksGame) -> Vec<String> {
    let r = g.ruleset();
    g.legal()
        .iter()
        .filter_map(|a| match a {
            Action::Declare { decl, card: None } => {
                Some(r.declarations[decl.0 as usize].id.clone())
            }
            _ => None,
        })
        .collect()
}

/// Who may say what, and when: after seat 1's call, seat 1 (the declarer, leading) is offered
/// the targets and not Kontra or Re; Re is refused without Kontra (pagat: Re answers a Kontra);
/// the partner (seat 2) is offered nothing but Re once a defender said Kontra, and a defender
/// is offered Kontra only before its first card.
#[test]
fn re_is_refused_without_kontra() {
    let r = load(KONTRA_RE);
    let mut g = deal4(&r, &CALL_DEAL);
    for m in ["bid 1", "pass", "pass", "pass", "call clubs-ace"] {
        act(&mut g, m);
    }
    assert_eq!(g.to_act(), Some(1));
    assert_eq!(offered(&g), ["schneider"]);
    let e = g.apply(Action::declare(decl(&r, "re"))).unwrap_err();
    assert_eq!(e.reason, "Re is not possible now: it needs Kontra first");
    // Typed at the table, the game's reason comes back.
    let names: Vec<String> = ["P1", "P2", "P3", "P4"].map(String::from).to_vec();
    let table = crate::front::tricks::TricksTable::new(&names, false);
    let legal = g.legal();
    let typed = crate::front::table::Table::parse(&table, "re", &g, &legal);
    assert_eq!(
        typed.err().as_deref(),
        Some("Re is not possible now: it needs Kontra first")
    );
    let typed = crate::front::table::Table::parse(&table, "schneider", &g, &legal);
    assert!(
        matches!(typed, Ok(crate::front::prompt::Input::Act(a)) if a == Action::declare(decl(&r, "schneider")))
    );
    let e = g.apply(Action::declare(decl(&r, "kontra"))).unwrap_err();
    assert_eq!(
        e.reason,
        "Kontra is not possible now: only the defenders make it"
    );
    act(&mut g, "clubs-nine");
    // The partner, before Kontra: nothing (Re waits for Kontra; the targets are the
    // declarer's side's, and it may still say them).
    assert_eq!(g.to_act(), Some(2));
    assert_eq!(offered(&g), ["schneider"]);
    act(&mut g, "clubs-ace");
    // A defender before its first card: Kontra.
    assert_eq!(offered(&g), ["kontra"]);
    act(&mut g, "say kontra");
    // Said once a hand; the turn stays with the announcer.
    assert_eq!(g.to_act(), Some(3));
    assert!(offered(&g).is_empty());
    let e = g.apply(Action::declare(decl(&r, "kontra"))).unwrap_err();
    assert_eq!(
        e.reason,
        "Kontra is not possible now: it has been made this hand"
    );
    act(&mut g, "spades-nine");
    assert!(offered(&g).is_empty());
    act(&mut g, "clubs-king");
    // Seat 2 won the trick with the called Ace and leads: Re, before its second card.
    assert_eq!(g.to_act(), Some(2));
    assert_eq!(offered(&g), ["re"]);
    act(&mut g, "say re");
    assert_eq!(g.stake(), 4);
    // The table (and `yaku position`) says who announced what, and the stake.
    let names: Vec<String> = ["P1", "P2", "P3", "P4"].map(String::from).to_vec();
    let table = crate::front::tricks::TricksTable::new(&names, false);
    let screen = crate::front::table::Table::screen(&table, &g, 0);
    assert!(
        screen.contains("announced: Kontra (P4), Re (P3) · stake ×4"),
        "{screen}"
    );
    // Re shows the partner's side to every seat.
    assert!(g.knows_side(0, 2) && g.knows_side(3, 2));
}

/// The worked hand: seat 1 calls the Ace of Clubs (seat 2's); on the first trick seat 1
/// announces Schneider and Schwarz, defender seat 3 says Kontra and seat 2 answers Re on its
/// lead; greedy players play it out. The declarer's side takes 91 card points (schneider,
/// announced and reached) but seat 0 takes the last trick: the announced Schwarz is missed and
/// the game is lost. 1 for the game, 1 for schneider, 1 for each announced target: 4 units,
/// doubled twice: 16 to each defender.
#[test]
fn a_worked_kontra_re_hand() {
    use std::fmt::Write as _;
    let r = load(KONTRA_RE);
    let mut g = deal4(&r, &CALL_DEAL);
    for m in [
        "bid 1",
        "pass",
        "pass",
        "pass",
        "call clubs-ace",
        "say schneider",
        "say schwarz",
        "clubs-nine",
        "clubs-ace",
        "say kontra",
        "spades-nine",
        "clubs-king",
        "say re",
    ] {
        act(&mut g, m);
    }
    let mut rng = agent_rng(1);
    while let Some(seat) = g.to_act() {
        let legal = g.legal();
        let a = GreedyAgent.choose(&g, seat, &legal, &mut rng);
        g.apply(a).unwrap();
    }
    let mut out = String::new();
    for e in g.drain_events() {
        match e {
            Event::Declared { player, decl, card } => {
                let id = &r.declarations[decl.0 as usize].id;
                let c = card.map_or(String::new(), |c| format!(" {}", r.deck.id_of(c)));
                let _ = writeln!(out, "seat {player} declares {id}{c}");
            }
            Event::TrickWon { player, cards } => {
                let cards: Vec<&str> = cards.iter().map(|&c| r.deck.id_of(c)).collect();
                let _ = writeln!(out, "  seat {player} takes [{}]", cards.join(", "));
            }
            Event::HandCount { points, .. } => {
                let _ = writeln!(out, "card points by seat {points:?}");
            }
            Event::HandEnded { end, points, .. } => {
                let _ = writeln!(out, "hand ends: {}, game points {points:?}", end.0);
            }
            _ => {}
        }
    }
    let hand = &crate::core::Game::history(&g)[0];
    if let Some(o) = hand.outcome.as_ref() {
        for s in &o.steps {
            let _ = writeln!(out, "step: {} ({})", s.reason, s.total);
        }
    }
    insta::assert_snapshot!(out);
    assert_eq!(g.scores(), [16, -16, -16, 16]);
}

/// An announced target is reached by the card points and tricks its keys give: Schneider's 91
/// card points, Schwarz's every trick.
#[test]
fn announced_targets_are_reached_by_their_keys() {
    let r = load(KONTRA_RE);
    let flow = r.tricks().unwrap();
    let schneider = &flow.announcements[2];
    assert!(!schneider.target.reached(90, 6, 6));
    assert!(schneider.target.reached(91, 3, 6));
    let schwarz = &flow.announcements[3];
    assert!(!schwarz.target.reached(120, 5, 6));
    assert!(schwarz.target.reached(120, 6, 6));
}

/// Random play keeps every card with announcements among the moves (each made at most once a
/// hand, the turn kept), ends every hand, and some hands are doubled; every stake is a power of
/// two up to 4 (Kontra, then Re).
#[test]
fn random_games_keep_every_card_and_announce() {
    let r = load(KONTRA_RE);
    let mut doubled = 0;
    for seed in 1..=60u64 {
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                rounds: Some(1),
                ..StartOptions::default()
            },
        )
        .unwrap();
        let mut rng = agent_rng(seed);
        let mut moves = 0;
        let mut max_stake = 1;
        let mut won = CardSet::EMPTY;
        while let Some(seat) = g.to_act() {
            let legal = g.legal();
            for a in &legal {
                if let Action::Declare { decl, card: None } = a
                    && g.phase() == Phase::Follow
                {
                    assert!(r.declarations[decl.0 as usize].effect == "announce");
                }
            }
            let a = RandomAgent.choose(&g, seat, &legal, &mut rng);
            g.apply(a).unwrap();
            max_stake = max_stake.max(g.stake());
            won = (0..4).fold(CardSet::EMPTY, |w, s| w | g.won(s));
            moves += 1;
            assert!(moves < 1000, "the game ends");
        }
        assert!([1, 2, 4].contains(&max_stake), "seed {seed}: {max_stake}");
        doubled += usize::from(max_stake > 1);
        let held = (0..4).fold(CardSet::EMPTY, |w, s| w | g.hand(s));
        assert!(
            won == r.deck.all() || !held.is_empty() || g.tricks_played() == 0,
            "seed {seed}: every card is won"
        );
    }
    assert!(doubled > 0, "random players double some hands");
}

/// Greedy raises only on a strong hand: over greedy games, every Kontra or Re it says comes
/// from a hand whose estimate is half the card points or more (its reason says so), and it
/// never announces a target.
#[test]
fn greedy_raises_only_on_a_strong_hand() {
    let r = load(KONTRA_RE);
    let mut raised = 0;
    for seed in 1..=60u64 {
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                rounds: Some(1),
                ..StartOptions::default()
            },
        )
        .unwrap();
        while let Some(seat) = g.to_act() {
            let legal = g.legal();
            let view = g.view(seat);
            let (a, why) = super::greedy::choose_why(&view, &legal);
            if let Action::Declare { decl, card: None } = a {
                let id = &r.declarations[decl.0 as usize].id;
                if matches!(g.phase(), Phase::Lead | Phase::Follow) {
                    assert!(id == "kontra" || id == "re", "greedy says {id}");
                    let super::greedy::Why::Announce { points, all } = why else {
                        panic!("{why:?}");
                    };
                    assert!(points * 2 >= all);
                    raised += 1;
                }
            }
            g.apply(a).unwrap();
        }
    }
    assert!(raised > 0, "greedy raises on some strong hand");
}
