//! Captures beyond one group taken at once (issue 43): trailing, a card that could capture laid
//! on the table where `[flow] must_capture` allows it, on the test ruleset
//! `tests/rulesets/trail.toml` (Scopa that may trail, as Cassino does).

use super::scopa_tests::deal_order;
use super::{MatchingGame, Phase, capture, start};
use crate::agent::{ExpertAgent, GreedyAgent, RandomAgent};
use crate::core::record::StepAction;
use crate::core::{Action, Agent, Event, Game as _, StartOptions, agent_rng, play_out};
use crate::deck::CardSet;
use crate::ruleset::{self, Ruleset};
use std::sync::Arc;

const TRAIL: &str = "tests/rulesets/trail.toml";

fn load(path: &str) -> Arc<Ruleset> {
    let loaded = ruleset::load(path);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

/// The trail ruleset with `flow_keys` instead of its `[flow]`.
fn trail_with(flow_keys: &str) -> Arc<Ruleset> {
    let text =
        format!("[ruleset]\nid = \"trail-house\"\nextends = \"{TRAIL}\"\n\n[flow]\n{flow_keys}\n");
    let loaded = ruleset::load_str("trail-house.toml", &text);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

/// A one-hand game of `r` dealt as [`deal_order`] says, seat 0 dealing (seat 1 plays first).
fn dealt(r: &Arc<Ruleset>, seat1: &str, seat0: &str, table: &str) -> MatchingGame {
    let order = deal_order(r, seat1, seat0, table);
    let options = StartOptions {
        seed: 1,
        deck_orders: vec![order],
        first_dealer: Some(0),
        log_events: true,
        rounds: Some(1),
        ..StartOptions::default()
    };
    start(Arc::clone(r), options).unwrap()
}

fn card(r: &Ruleset, id: &str) -> crate::deck::CardId {
    r.deck.card_by_id(id).unwrap_or_else(|| panic!("{id}"))
}

/// The legal moves, one a line: each capture by its cards, the trail as `trail`.
fn offered(game: &MatchingGame) -> String {
    let deck = &game.ruleset().deck;
    game.legal()
        .iter()
        .map(|a| match a.taken() {
            Some(set) if set.is_empty() => "trail".to_string(),
            Some(set) => format!("capture {}", deck.ids(set).join(" + ")),
            None => format!("{a:?}"),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The cards played and what they took, from the game's events.
fn plays(game: &mut MatchingGame) -> String {
    let r = Arc::clone(game.ruleset());
    let deck = &r.deck;
    game.drain_events()
        .iter()
        .filter_map(|e| match e {
            Event::Played {
                player,
                card,
                captured,
            } if captured.is_empty() => Some(format!(
                "seat {player} plays {}, laid on the table",
                deck.id_of(*card)
            )),
            Event::Played {
                player,
                card,
                captured,
            } => Some(format!(
                "seat {player} plays {} taking {}",
                deck.id_of(*card),
                deck.ids(captured.iter().copied().collect()).join(" ")
            )),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_card_that_could_capture_may_be_trailed() {
    // The worked example of docs/src/authors/captures.md. The table holds 5, 2, 3 and a King;
    // seat 1 plays the Five of Coins. Scopa's rules offer the equal Five only (an equal card
    // before a sum); `must_capture = "never"` (pagat-cassino) adds the trail after it.
    let r = load(TRAIL);
    let mut game = dealt(
        &r,
        "coins-5 cups-king batons-6",
        "coins-7 cups-7 swords-7",
        "cups-5 swords-2 batons-3 batons-king",
    );
    game.apply(Action::Play {
        card: card(&r, "coins-5"),
    })
    .unwrap();
    assert!(matches!(game.phase(), Phase::CaptureChoice { .. }));
    insta::assert_snapshot!(offered(&game), @r"
    capture cups-5
    trail
    ");
    // The question the terminal asks (the guide shows it).
    let style = crate::front::screen::Style::for_players(&["human".into(), "greedy".into()], false);
    insta::assert_snapshot!(crate::front::prompt::question(&style, &game, &game.legal()), @r"
    Five of Coins can capture or be laid on the table; capture which? (number, or the cards' ids)
      1) Five of Cups (Cups, Coppe; number)
      2) trail: lay it on the table
    ");
    // Greedy takes the Five: a capture is worth its cards, the trail gives the next player a
    // card.
    assert_eq!(
        game.heuristic(1, &game.legal(), &mut agent_rng(1)),
        Action::Take {
            card: card(&r, "cups-5")
        }
    );
    // A record writes the trail as a capture of no cards, and reads it back.
    let trail = Action::TakeSet {
        cards: CardSet::EMPTY,
    };
    let step = StepAction::from_action(trail, &r);
    insta::assert_snapshot!(serde_json::to_string(&step).unwrap(), @"{\"action\":\"capture_set\",\"cards\":[]}");
    assert_eq!(step.to_action(&r).unwrap(), trail);
    game.apply(trail).unwrap();
    // Seat 0's Seven makes 7 with 5 + 2, either Five; or it is trailed too.
    game.apply(Action::Play {
        card: card(&r, "coins-7"),
    })
    .unwrap();
    insta::assert_snapshot!(offered(&game), @r"
    capture coins-5 + swords-2
    capture cups-5 + swords-2
    trail
    ");
    game.apply(trail).unwrap();
    insta::assert_snapshot!(plays(&mut game), @r"
    seat 1 plays coins-5, laid on the table
    seat 0 plays coins-7, laid on the table
    ");
    assert_eq!(
        game.table(),
        set(&r, "coins-5 coins-7 cups-5 swords-2 batons-3 batons-king")
    );
}

#[test]
fn greedy_trails_when_its_capture_would_leave_a_sweep() {
    // With 5, 2, 3 and 4 on the table, the Five of Coins taking the Five leaves 2 + 3 + 4 = 9,
    // which a Knight (9) sweeps; laid on the table, it leaves 19, which nothing sweeps. Greedy
    // weighs the sweep it would leave against the two cards: it trails.
    let r = load(TRAIL);
    let mut game = dealt(
        &r,
        "coins-5 cups-king batons-6",
        "coins-7 cups-7 swords-7",
        "cups-5 swords-2 batons-3 batons-4",
    );
    game.apply(Action::Play {
        card: card(&r, "coins-5"),
    })
    .unwrap();
    assert_eq!(
        game.heuristic(1, &game.legal(), &mut agent_rng(1)),
        Action::TakeSet {
            cards: CardSet::EMPTY
        }
    );
}

fn set(r: &Ruleset, ids: &str) -> CardSet {
    ids.split_whitespace().map(|id| card(r, id)).collect()
}

#[test]
fn a_card_that_captures_nothing_is_laid_without_a_choice() {
    let r = load(TRAIL);
    let mut game = dealt(
        &r,
        "coins-king cups-king batons-6",
        "coins-7 cups-7 swords-7",
        "cups-2 swords-3 batons-ace coins-3",
    );
    // A King (10): no King on the table, and 2, 3, 1 and 3 make only 9.
    game.apply(Action::Play {
        card: card(&r, "coins-king"),
    })
    .unwrap();
    assert_eq!(game.to_act(), Some(0));
    assert!(matches!(game.phase(), Phase::Play));
    insta::assert_snapshot!(plays(&mut game), @"seat 1 plays coins-king, laid on the table");
}

#[test]
fn must_capture_equal_forces_a_pair_but_not_a_sum() {
    // `must_capture = "equal"`: a card that finds an equal table card must take it, one that
    // can only take a sum may be trailed.
    let r = trail_with("must_capture = \"equal\"");
    let mut game = dealt(
        &r,
        "coins-5 coins-7 batons-6",
        "cups-7 swords-7 batons-7",
        "cups-5 swords-2 batons-3 batons-4",
    );
    game.apply(Action::Play {
        card: card(&r, "coins-5"),
    })
    .unwrap();
    // The one capture is made at once: no choice, no trail.
    assert!(matches!(game.phase(), Phase::Play));
    insta::assert_snapshot!(plays(&mut game), @"seat 1 plays coins-5 taking cups-5");
    game.apply(Action::Play {
        card: card(&r, "cups-7"),
    })
    .unwrap();
    insta::assert_snapshot!(offered(&game), @r"
    capture batons-3 + batons-4
    trail
    ");
}

#[test]
fn the_default_never_offers_the_trail() {
    // The same deal under Scopa's own rules: the equal Five is taken at once.
    let r = trail_with("must_capture = \"always\"");
    let mut game = dealt(
        &r,
        "coins-5 cups-king batons-6",
        "coins-7 cups-7 swords-7",
        "cups-5 swords-2 batons-3 batons-4",
    );
    game.apply(Action::Play {
        card: card(&r, "coins-5"),
    })
    .unwrap();
    assert!(matches!(game.phase(), Phase::Play));
    assert!(
        game.apply(Action::TakeSet {
            cards: CardSet::EMPTY
        })
        .is_err()
    );
}

/// Whole hands of the trail ruleset between `agents` (one per seat, by name): every card ends
/// in a pile, and every move the bots make is legal.
fn hands_keep_every_card(names: [&str; 2], seeds: std::ops::Range<u64>) {
    let r = load(TRAIL);
    for seed in seeds {
        let options = StartOptions {
            seed,
            rounds: Some(1),
            ..StartOptions::default()
        };
        let mut game = start(Arc::clone(&r), options).unwrap();
        let mut agents: Vec<Box<dyn Agent>> = names
            .iter()
            .map(|n| match *n {
                "greedy" => Box::new(GreedyAgent) as Box<dyn Agent>,
                "expert" => Box::new(ExpertAgent::new(8)),
                _ => Box::new(RandomAgent),
            })
            .collect();
        play_out(&mut game, &mut agents, &mut agent_rng(seed)).unwrap();
        assert!(game.is_over(), "seed {seed}");
        let piles = game.captured(0) | game.captured(1);
        assert_eq!(piles, r.deck.all(), "seed {seed}");
    }
}

#[test]
fn random_greedy_and_expert_hands_keep_every_card() {
    hands_keep_every_card(["random", "random"], 0..30);
    hands_keep_every_card(["greedy", "random"], 0..10);
    hands_keep_every_card(["expert", "greedy"], 0..2);
}

#[test]
fn random_hands_trail_and_greedy_seldom_does() {
    // Random play trails now and then; greedy, which values a capture by its cards, trails a
    // card that could capture far less often than it captures.
    let r = load(TRAIL);
    let (mut trails, mut captures) = ([0u32; 2], [0u32; 2]);
    for seed in 0..20 {
        let options = StartOptions {
            seed,
            rounds: Some(1),
            ..StartOptions::default()
        };
        let mut game = start(Arc::clone(&r), options).unwrap();
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        while let Some(seat) = game.to_act() {
            game.legal_actions(&mut legal);
            let greedy = seat == 0;
            let a = if greedy {
                game.heuristic(seat, &legal, &mut rng)
            } else {
                legal[crate::core::uniform_index(legal.len(), &mut rng)]
            };
            if legal.contains(&Action::TakeSet {
                cards: CardSet::EMPTY,
            }) {
                let k = usize::from(!greedy);
                match a.taken() {
                    Some(s) if s.is_empty() => trails[k] += 1,
                    _ => captures[k] += 1,
                }
            }
            game.apply(a).unwrap();
        }
    }
    insta::assert_snapshot!(format!("greedy: {} trails, {} captures; random: {} trails, {} captures", trails[0], captures[0], trails[1], captures[1]), @"greedy: 5 trails, 197 captures; random: 82 trails, 93 captures");
    assert!(trails[1] > 0);
    assert!(trails[0] * 4 < captures[0]);
}

// --- Several groups at once: `[flow] capture_groups` on `tests/rulesets/unions.toml`.

const UNIONS: &str = "tests/rulesets/unions.toml";

/// The unions ruleset with `flow_keys` added to its `[flow]`.
fn unions_with(flow_keys: &str) -> Arc<Ruleset> {
    let text = format!(
        "[ruleset]\nid = \"unions-house\"\nextends = \"{UNIONS}\"\n\n[flow]\n{flow_keys}\n"
    );
    let loaded = ruleset::load_str("unions-house.toml", &text);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

/// What `played` may take from `table` under `r`'s rules, one choice a line.
fn choices(r: &Ruleset, table: &str, played: &str) -> String {
    let flow = r.matching().unwrap();
    let mut out = Vec::new();
    capture::options(flow, set(r, table), card(r, played), true, &mut out);
    out.iter()
        .map(|s| r.deck.ids(*s).join(" + "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The worked example's table: a Five, Two and Three, Four, and two Aces.
const TABLE: &str = "hearts-five clubs-two clubs-three diamonds-four hearts-ace spades-ace";

#[test]
fn a_five_takes_several_groups_at_once() {
    // The worked example of docs/src/authors/captures.md. The Five of Diamonds finds five
    // groups: the Five, 2 + 3, 4 + A (either Ace) and A + A + 3. One group at a time (the
    // default) it offers those five.
    let one = unions_with("capture_groups = \"one\"");
    insta::assert_snapshot!(choices(&one, TABLE, "diamonds-five"), @r"
    hearts-five
    hearts-ace + diamonds-four
    clubs-two + clubs-three
    diamonds-four + spades-ace
    hearts-ace + clubs-three + spades-ace
    ");
    // `maximal`: the unions no other group can join: the Five, 2 + 3 and 4 + A with either Ace,
    // or the Five with A + A + 3 (the Two and the Four are left, which make no Five together).
    let maximal = unions_with("capture_groups = \"maximal\"");
    insta::assert_snapshot!(choices(&maximal, TABLE, "diamonds-five"), @r"
    hearts-ace + hearts-five + clubs-three + spades-ace
    hearts-ace + hearts-five + diamonds-four + clubs-two + clubs-three
    hearts-five + diamonds-four + clubs-two + clubs-three + spades-ace
    ");
    // `any` (the test ruleset, pagat-cassino): every union of disjoint groups.
    let any = load(UNIONS);
    insta::assert_snapshot!(choices(&any, TABLE, "diamonds-five"), @r"
    hearts-five
    hearts-ace + diamonds-four
    clubs-two + clubs-three
    diamonds-four + spades-ace
    hearts-ace + hearts-five + diamonds-four
    hearts-five + clubs-two + clubs-three
    hearts-five + diamonds-four + spades-ace
    hearts-ace + clubs-three + spades-ace
    hearts-ace + diamonds-four + clubs-two + clubs-three
    hearts-ace + hearts-five + clubs-three + spades-ace
    diamonds-four + clubs-two + clubs-three + spades-ace
    hearts-ace + hearts-five + diamonds-four + clubs-two + clubs-three
    hearts-five + diamonds-four + clubs-two + clubs-three + spades-ace
    ");
}

/// Every union of pairwise disjoint groups among `groups` (brute force), or the maximal ones.
fn brute_unions(groups: &[CardSet], maximal: bool) -> Vec<CardSet> {
    let mut out: Vec<CardSet> = Vec::new();
    for pick in 1u32..(1 << groups.len()) {
        let mut union = CardSet::EMPTY;
        let mut disjoint = true;
        for (i, &g) in groups.iter().enumerate() {
            if pick >> i & 1 == 1 {
                disjoint &= (union & g).is_empty();
                union |= g;
            }
        }
        let full = groups.iter().all(|&g| !(g & union).is_empty());
        if disjoint && (!maximal || full) && !out.contains(&union) {
            out.push(union);
        }
    }
    out.sort_unstable_by_key(|s| (s.len(), s.0));
    out
}

#[test]
fn the_unions_offered_are_every_union_of_disjoint_groups() {
    // Random tables of up to 10 cards: the unions offered are exactly those a brute force finds
    // from the single groups, every union or the maximal ones.
    let one = unions_with("capture_groups = \"one\"\nmust_capture = \"always\"");
    let any = unions_with("must_capture = \"always\"");
    let maximal = unions_with("capture_groups = \"maximal\"\nmust_capture = \"always\"");
    let mut rng = agent_rng(43);
    let all: Vec<crate::deck::CardId> = one.deck.all().iter().collect();
    let (mut tried, mut several) = (0, 0);
    for _ in 0..400 {
        let mut table = CardSet::EMPTY;
        let size = 2 + crate::core::uniform_index(9, &mut rng);
        while (table.len() as usize) < size {
            table.insert(all[crate::core::uniform_index(all.len(), &mut rng)]);
        }
        let rest: Vec<_> = (one.deck.all() - table).iter().collect();
        let played = rest[crate::core::uniform_index(rest.len(), &mut rng)];
        let mut groups = Vec::new();
        capture::options(one.matching().unwrap(), table, played, true, &mut groups);
        if groups.len() > 12 {
            continue;
        }
        tried += 1;
        several += usize::from(groups.len() > 1);
        for (r, maximal) in [(&any, false), (&maximal, true)] {
            let mut offered = Vec::new();
            capture::options(r.matching().unwrap(), table, played, true, &mut offered);
            let expected = if groups.len() > 1 {
                brute_unions(&groups, maximal)
            } else {
                groups.clone()
            };
            assert_eq!(offered, expected, "table {:?}", r.deck.ids(table));
        }
    }
    assert!(
        tried > 300 && several > 50,
        "{tried} tables, {several} with a choice"
    );
}

#[test]
fn unions_on_a_full_table_stay_bounded() {
    // Every other card of the pack on the table (51): the Ten finds many groups (each Ten, and
    // the sets of numerals adding up to 10, at most 256) and far more unions; at most 256 are
    // offered, each a union of disjoint groups that add up.
    for keys in ["", "capture_groups = \"maximal\""] {
        let r = unions_with(&format!("{keys}\nmust_capture = \"always\""));
        let flow = r.matching().unwrap();
        let ten = card(&r, "clubs-ten");
        let table = r.deck.all() - CardSet::single(ten);
        let mut offered = Vec::new();
        capture::options(flow, table, ten, true, &mut offered);
        assert!(!offered.is_empty() && offered.len() <= capture::MAX_OPTIONS);
        let rank = |c: crate::deck::CardId| flow.captures[0].values[c.index()];
        for u in &offered {
            // Tens alone or numerals adding up to a multiple of ten, no court card.
            let sum: i64 = u.iter().filter(|&c| rank(c) != 10).map(rank).sum();
            assert_eq!(sum % 10, 0, "{:?}", r.deck.ids(*u));
            assert!(u.iter().all(|c| rank(c) <= 10));
        }
    }
}

#[test]
fn random_greedy_and_expert_hands_of_unions_keep_every_card() {
    let r = load(UNIONS);
    for (names, seeds) in [
        (["random", "random"], 0..20),
        (["greedy", "random"], 0..8),
        (["expert", "greedy"], 0..2),
    ] {
        for seed in seeds {
            let options = StartOptions {
                seed,
                rounds: Some(1),
                ..StartOptions::default()
            };
            let mut game = start(Arc::clone(&r), options).unwrap();
            let mut agents: Vec<Box<dyn Agent>> = names
                .iter()
                .map(|n| match *n {
                    "greedy" => Box::new(GreedyAgent) as Box<dyn Agent>,
                    "expert" => Box::new(ExpertAgent::new(8)),
                    _ => Box::new(RandomAgent),
                })
                .collect();
            play_out(&mut game, &mut agents, &mut agent_rng(seed)).unwrap();
            assert!(game.is_over(), "seed {seed}");
            assert_eq!(game.captured(0) | game.captured(1), r.deck.all());
        }
    }
}

#[test]
fn greedy_takes_the_largest_union() {
    // Dealt: seat 1 holds the Five of Diamonds; the table the Five of Hearts, Two, Three and
    // Four of Clubs. Every union is offered; greedy takes the most cards: 5 + (2 + 3).
    let r = load(UNIONS);
    let seat1 = "diamonds-five spades-king hearts-king clubs-king";
    let seat0 = "diamonds-king spades-queen hearts-queen clubs-queen";
    let table = "hearts-five clubs-two clubs-three clubs-four";
    let (a, b, t) = (set(&r, seat1), set(&r, seat0), set(&r, table));
    // Two at a time to the other player, the table, the dealer.
    let (a, b, t): (Vec<_>, Vec<_>, Vec<_>) =
        (a.iter().collect(), b.iter().collect(), t.iter().collect());
    let mut order = Vec::new();
    for i in 0..2 {
        order.extend([
            a[2 * i],
            a[2 * i + 1],
            t[2 * i],
            t[2 * i + 1],
            b[2 * i],
            b[2 * i + 1],
        ]);
    }
    let dealt: CardSet = order.iter().copied().collect();
    order.extend((r.deck.all() - dealt).iter());
    let options = StartOptions {
        seed: 1,
        deck_orders: vec![order],
        first_dealer: Some(0),
        log_events: true,
        rounds: Some(1),
        ..StartOptions::default()
    };
    let mut game = start(Arc::clone(&r), options).unwrap();
    assert_eq!(game.table(), set(&r, table));
    game.apply(Action::Play {
        card: card(&r, "diamonds-five"),
    })
    .unwrap();
    insta::assert_snapshot!(offered(&game), @r"
    capture hearts-five
    capture clubs-two + clubs-three
    capture hearts-five + clubs-two + clubs-three
    trail
    ");
    let chosen = game.heuristic(1, &game.legal(), &mut agent_rng(1));
    game.apply(chosen).unwrap();
    insta::assert_snapshot!(plays(&mut game), @"seat 1 plays diamonds-five taking hearts-five clubs-two clubs-three");
}

/// The position of `text`'s deal under `ruleset` (a bundled name or a test ruleset's path).
fn position(ruleset: &str, deal: &str) -> Box<dyn crate::core::Game> {
    let text = format!("ruleset = \"{ruleset}\"\ndealer = 0\n[deal]\n{deal}");
    let p = crate::families::position::Position::parse(&text).unwrap();
    let r = load(ruleset);
    crate::families::position::start(&p, r, false).unwrap()
}

/// `[flow] wild_from` (issue 43, wall 5): the Lightning played from the hand takes any table
/// card, in both rulesets; turned from the stock it takes any card where wild cards are wild
/// anywhere (the house rule), and only a Willow card, here none, so it is laid on the table,
/// where they are wild from the hand only (tests/rulesets/wild-from-hand.toml).
#[test]
fn a_wild_card_is_wild_where_the_rules_say() {
    let table = "table = \"pine-1 plum-1 cherry-1 maple-1 iris-2 peony-1 clover-1 pampas-1\"\n";
    for ruleset in ["house/lightning-wild", "tests/rulesets/wild-from-hand.toml"] {
        let mut g = position(
            ruleset,
            &format!("\"hand 0\" = \"willow-lightning paulownia-1\"\n{table}stock = \"iris-1\"\n"),
        );
        let r = Arc::clone(g.ruleset());
        g.apply(Action::Play {
            card: card(&r, "willow-lightning"),
        })
        .unwrap();
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        assert_eq!(
            legal.len(),
            8,
            "{ruleset}: any of the eight table cards, from the hand"
        );

        let mut g = position(
            ruleset,
            &format!("\"hand 0\" = \"paulownia-1\"\n{table}stock = \"willow-lightning\"\n"),
        );
        g.apply(Action::Play {
            card: card(&r, "paulownia-1"),
        })
        .unwrap();
        g.legal_actions(&mut legal);
        let table_now: CardSet = g
            .zones()
            .into_iter()
            .find(|(n, _)| n == "table")
            .map(|(_, c)| c)
            .unwrap();
        if ruleset.ends_with("wild-from-hand.toml") {
            assert_eq!(
                g.to_act(),
                Some(1),
                "drawn, a plain Willow card with no match"
            );
            assert!(table_now.contains(card(&r, "willow-lightning")));
        } else {
            assert_eq!(g.to_act(), Some(0), "drawn and wild: a choice of nine");
            assert_eq!(legal.len(), 9);
        }
    }
}
