//! Pinochle checked against an implementation no one here wrote: philhanna/pinochle (MIT, a
//! Python web game), its meld table (`detect_meld`) and its trick winner (`Trick.winner`).
//!
//! The peer's code is not kept here. Its answers on the hands below are, in
//! `peer_answers.json`, written by `peer_driver.py` from a checkout of the peer; every run
//! compares `yaku score pinochle` and the game with them. With `PINOCHLE_PEER` set to the folder
//! of a checkout (the one holding `pinochle/domain`), the test asks the peer itself as well, and
//! `YAKU_PEER_WRITE=1` rewrites the answers (after a change to the hands asked).
//!
//! One difference is expected and counted: the peer never counts a royal marriage beside a
//! flush, where the ruleset's source (webcasty) counts a second King and Queen of trumps as
//! one; such hands score 40 more in yaku.

use crate::common::{Yaku, root};
use rand::RngExt;
use serde_json::{Value, json};
use std::sync::Arc;
use yaku::core::{Action, Game as _, StartOptions, agent_rng};
use yaku::deck::{CardId, CardSet};
use yaku::families::agent_by_name;
use yaku::families::tricks::{Phase, TricksGame};
use yaku::ruleset::Ruleset;

/// Games played whose dealt hands and tricks are compared (four hands, twelve tricks each).
const GAMES: u64 = 20;
/// Hands made to hold the rarer melds (doubles, arounds), besides the dealt ones.
const RICH_HANDS: u64 = 40;

fn ruleset() -> Arc<Ruleset> {
    let loaded = yaku::ruleset::load("pinochle");
    Arc::new(loaded.value.expect("pinochle loads"))
}

/// One game's first hand, played by four random players.
struct Played {
    trump: usize,
    declarer: usize,
    bid: i64,
    /// Each seat's twelve cards once trumps are named.
    hands: Vec<CardSet>,
    /// Each trick's leader and cards in the order played, and its winner in the game.
    tricks: Vec<(usize, Vec<CardId>, usize)>,
    melds: Vec<i64>,
    won: Vec<CardSet>,
    last_trick: usize,
    /// The hand's points per seat, as the game settled it.
    settled: Vec<i64>,
}

fn play(r: &Arc<Ruleset>, seed: u64) -> Played {
    let options = StartOptions {
        seed,
        rounds: Some(1),
        ..StartOptions::default()
    };
    let mut game: TricksGame = yaku::families::tricks::start(Arc::clone(r), options).unwrap();
    let mut agents: Vec<_> = (0..4)
        .map(|_| agent_by_name("random", r).unwrap())
        .collect();
    let mut rng = agent_rng(seed);
    let (mut legal, mut hands, mut tricks) = (Vec::new(), Vec::new(), Vec::new());
    let mut current: Vec<CardId> = Vec::new();
    let mut leader = 0;
    let mut trump = 0;
    let mut melds = Vec::new();
    let mut won = vec![CardSet::EMPTY; 4];
    while let Some(seat) = game.to_act() {
        game.legal_actions(&mut legal);
        let a = agents[seat].choose(&game, seat, &legal, &mut rng);
        if let Action::Play { card } = a {
            if hands.is_empty() {
                hands = (0..4).map(|s| game.hand(s)).collect();
                trump = game.trump_suit();
                melds = (0..4).map(|s| game.meld_points(s)).collect();
            }
            if current.is_empty() {
                leader = seat;
            }
            current.push(card);
        }
        game.apply(a).unwrap();
        if current.len() == 4 {
            won = (0..4).map(|s| game.won(s)).collect();
            let winner = (0..4)
                .find(|&s| current.iter().all(|&c| game.won(s).contains(c)))
                .expect("a trick's cards go to one seat");
            tricks.push((leader, std::mem::take(&mut current), winner));
        }
        if game.phase() == Phase::GameOver {
            break;
        }
    }
    let declarer = game.declarer().expect("the dealer bids where all pass");
    Played {
        trump,
        declarer,
        bid: game.high_bid().map_or(0, |(_, b)| b),
        hands,
        melds,
        won,
        last_trick: game.last_trick_winner().expect("twelve tricks were played"),
        tricks,
        settled: game.history()[0].points.to_vec(),
    }
}

/// Hands holding rarer melds: a template's cards (every copy of some kinds, a double flush, a
/// double pinochle, a flush with a second royal marriage) and random cards to twelve.
fn rich_hands(r: &Ruleset) -> Vec<(usize, CardSet)> {
    let deck = &r.deck;
    let kind = |k: &str| deck.kinds[deck.kinds.iter().position(|x| x.id == k).unwrap()].cards;
    let card = |id: &str| deck.card_by_id(id).unwrap();
    let mut out = Vec::new();
    let mut rng = agent_rng(2026);
    for n in 0..RICH_HANDS {
        let trump = rng.random_range(0..deck.suits.len());
        let trumps = deck.suits[trump].cards;
        let run =
            (kind("ace") | kind("ten") | kind("king") | kind("queen") | kind("jack")) & trumps;
        let mut hand = match n % 8 {
            0 => kind("ace"),
            1 => kind("king"),
            2 => kind("queen"),
            3 => kind("jack"),
            4 => run,
            5 => [
                "spades-queen",
                "spades-queen-p2",
                "diamonds-jack",
                "diamonds-jack-p2",
            ]
            .iter()
            .map(|id| card(id))
            .collect(),
            // A flush and a second King and Queen of trumps.
            6 => {
                run.iter().take(8).collect::<CardSet>()
                    | (run & kind("king"))
                    | (run & kind("queen"))
            }
            _ => (kind("king") | kind("queen")) - trumps,
        };
        let mut rest: Vec<CardId> = (deck.all() - hand).iter().collect();
        while hand.len() < 12 {
            let i = rng.random_range(0..rest.len());
            hand.insert(rest.swap_remove(i));
        }
        while hand.len() > 12 {
            let cards: Vec<CardId> = hand.iter().collect();
            hand.remove(cards[rng.random_range(0..cards.len())]);
        }
        out.push((trump, hand));
    }
    out
}

/// A flush (one of each of its cards in trumps) and both Kings and Queens of trumps: the one
/// hand where yaku's count is 40 over the peer's.
fn flush_and_royal_marriage(r: &Ruleset, trump: usize, hand: CardSet) -> bool {
    let deck = &r.deck;
    let of = |k: &str| {
        let k = deck.kinds.iter().position(|x| x.id == k).unwrap();
        (deck.kinds[k].cards & deck.suits[trump].cards & hand).len()
    };
    let flush = ["ace", "ten", "king", "queen", "jack"]
        .iter()
        .map(|k| of(k))
        .min()
        == Some(1);
    flush && of("king") == 2 && of("queen") == 2
}

fn ids(r: &Ruleset, cards: impl IntoIterator<Item = CardId>) -> Vec<String> {
    cards
        .into_iter()
        .map(|c| r.deck.id_of(c).to_string())
        .collect()
}

/// `yaku score pinochle --hand ... --trump ...`'s meld points.
fn cli_melds(r: &Ruleset, trump: usize, hand: CardSet) -> i64 {
    let out = Yaku::new([
        "score",
        "pinochle",
        "--json",
        "--trump",
        &r.deck.suits[trump].id,
        "--hand",
        &ids(r, hand.iter()).join(","),
    ])
    .expect(0);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    v["meld_points"].as_i64().unwrap()
}

#[test]
fn pinochle_melds_and_tricks_agree_with_an_independent_implementation() {
    let r = ruleset();
    let suit_id = |s: usize| r.deck.suits[s].id.clone();
    let games: Vec<Played> = (0..GAMES).map(|seed| play(&r, seed)).collect();
    let mut meld_hands: Vec<(usize, CardSet)> = Vec::new();
    for g in &games {
        meld_hands.extend(g.hands.iter().map(|&h| (g.trump, h)));
    }
    meld_hands.extend(rich_hands(&r));
    let asked = json!({
        "melds": meld_hands.iter().map(|&(t, h)| json!({
            "trump": suit_id(t), "cards": ids(&r, h.iter()),
        })).collect::<Vec<_>>(),
        "tricks": games.iter().flat_map(|g| g.tricks.iter().map(|(leader, cards, _)| json!({
            "trump": suit_id(g.trump), "leader": leader, "cards": ids(&r, cards.iter().copied()),
        }))).collect::<Vec<_>>(),
    });
    let path = root().join("tests/peers/pinochle/peer_answers.json");
    let answers = peer_answers(&asked, &path);
    let peer_melds: Vec<i64> = serde_json::from_value(answers["melds"].clone()).unwrap();
    let peer_winners: Vec<usize> = serde_json::from_value(answers["winners"].clone()).unwrap();

    // Melds: every hand, through `yaku score`; the game counted the dealt hands the same.
    let mut expected_differences = 0;
    for (i, &(trump, hand)) in meld_hands.iter().enumerate() {
        let ours = cli_melds(&r, trump, hand);
        let extra = if flush_and_royal_marriage(&r, trump, hand) {
            expected_differences += 1;
            40
        } else {
            0
        };
        assert_eq!(
            ours,
            peer_melds[i] + extra,
            "hand {i} with {} trumps: {:?}",
            suit_id(trump),
            ids(&r, hand.iter())
        );
    }
    for g in &games {
        for s in 0..4 {
            assert_eq!(g.melds[s], cli_melds(&r, g.trump, g.hands[s]));
        }
    }
    assert!(
        expected_differences > 0,
        "the rich hands hold a flush and a royal marriage"
    );
    eprintln!(
        "pinochle peer: {} hands' melds agree ({expected_differences} a flush and a royal \
         marriage, 40 more in yaku)",
        meld_hands.len()
    );

    // Tricks: the peer gives every trick to the seat the game gave it to.
    let ours: Vec<usize> = games
        .iter()
        .flat_map(|g| g.tricks.iter().map(|t| t.2))
        .collect();
    assert_eq!(ours, peer_winners);
    eprintln!("pinochle peer: {} tricks agree", ours.len());

    // The count and the contract: each side's tricks by the peer's winners, scored by
    // `yaku score`, settle as the game did.
    let mut k = 0;
    for (n, g) in games.iter().enumerate() {
        let mut side = [CardSet::EMPTY; 2];
        for (_, cards, _) in &g.tricks {
            let winner = peer_winners[k];
            k += 1;
            side[usize::from(winner % 2 != g.declarer % 2)] |= cards.iter().copied().collect();
        }
        let declarers = g.won[g.declarer] | g.won[(g.declarer + 2) % 4];
        assert_eq!(side[0], declarers, "game {n}");
        let melds = |s: usize| g.melds[s] + g.melds[(s + 2) % 4];
        let last = if g.last_trick % 2 == g.declarer % 2 {
            "self"
        } else {
            "opponent"
        };
        let out = Yaku::new([
            "score",
            "pinochle",
            "--json",
            "--end",
            "last_trick",
            "--bid",
            &g.bid.to_string(),
            "--captured",
            &ids(&r, side[0].iter()).join(","),
            "--opponent-captured",
            &ids(&r, side[1].iter()).join(","),
            "--last-trick",
            last,
            "--melds",
            &melds(g.declarer).to_string(),
            "--opponent-melds",
            &melds((g.declarer + 1) % 4).to_string(),
        ])
        .expect(0);
        let v: Value = serde_json::from_str(&out.stdout).unwrap();
        let count = |cards: CardSet| -> i64 {
            let points = &r.deck.attributes[r.tricks().unwrap().card_points].values;
            cards.iter().map(|c| points[c.index()]).sum()
        };
        let bonus = r.tricks().unwrap().last_trick_points;
        let (mine, theirs) = (
            count(side[0]) + if last == "self" { bonus } else { 0 },
            count(side[1]) + if last == "opponent" { bonus } else { 0 },
        );
        assert_eq!(v["points"].as_i64(), Some(mine), "game {n}");
        assert_eq!(v["opponent_points"].as_i64(), Some(theirs), "game {n}");
        assert_eq!(
            mine + theirs,
            250,
            "the count is 240 and 10 for the last trick"
        );
        // `yaku score` puts the declarer in seat 1; the game seats them where they sat.
        let seats: Vec<i64> = serde_json::from_value(v["seats"].clone()).unwrap();
        for (k, points) in seats.iter().enumerate() {
            assert_eq!(
                *points,
                g.settled[(g.declarer + k) % 4],
                "game {n}, seat {k}"
            );
        }
    }
}

/// The peer's answers on `asked`: from the file, checked against the peer itself where
/// `PINOCHLE_PEER` names a checkout (and written to the file with `YAKU_PEER_WRITE=1`).
fn peer_answers(asked: &Value, path: &std::path::Path) -> Value {
    let live = std::env::var_os("PINOCHLE_PEER").map(|peer| {
        let out = std::process::Command::new("python3")
            .arg(root().join("tests/peers/pinochle/peer_driver.py"))
            .arg(&peer)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write as _;
                child
                    .stdin
                    .take()
                    .unwrap()
                    .write_all(asked.to_string().as_bytes())?;
                child.wait_with_output()
            })
            .expect("python3 runs the peer");
        assert!(out.status.success(), "the peer failed");
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    });
    if let Some(answers) = &live
        && std::env::var_os("YAKU_PEER_WRITE").is_some()
    {
        let doc = json!({
            "peer": "https://github.com/philhanna/pinochle at 01ae4a46db668f96a7ee216cac98f333de05e552 (MIT)",
            "asked": asked,
            "answers": answers,
        });
        std::fs::write(path, serde_json::to_string(&doc).unwrap() + "\n").unwrap();
    }
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(
        &stored["asked"], asked,
        "the hands asked changed: run the test with PINOCHLE_PEER=<checkout of the peer> and \
         YAKU_PEER_WRITE=1 to ask the peer again"
    );
    if let Some(answers) = live {
        assert_eq!(stored["answers"], answers, "the peer answers otherwise now");
    }
    stored["answers"].clone()
}
