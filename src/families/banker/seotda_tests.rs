//! Seotda (`rulesets/seotda.toml`): each rank and special hand on a worked example with the
//! source the ruleset cites, a betting round with a fold, a redeal, the pot to the winner who
//! deals next, the rank probabilities checked by an enumeration written apart from the ruleset,
//! and random games that keep every card and every chip.

use super::ranking::{self, Ranked};
use super::tests::order;
use super::*;
use crate::core::{Action, Game, StartOptions};
use crate::deck::{CardId, CardSet};
use crate::families::banker::analysis::combinations;
use crate::ruleset::{self, Ruleset};
use std::cmp::Ordering;
use std::fmt::Write as _;
use std::sync::Arc;

fn rules() -> Arc<Ruleset> {
    Arc::new(ruleset::load("seotda").value.expect("it loads"))
}

fn pile(r: &Ruleset, ids: &[&str]) -> CardSet {
    ids.iter()
        .map(|i| r.deck.card_by_id(i).expect("card id"))
        .collect()
}

fn ranked(r: &Ruleset, ids: &[&str]) -> Ranked {
    ranking::rank_hand(r.banker().unwrap(), pile(r, ids))
}

fn words(r: &Ruleset, ids: &[&str]) -> String {
    ranking::words(r.banker().unwrap(), &ranked(r, ids)).unwrap()
}

/// `a` against `b`: `wins`, `loses` or `ties`.
fn versus(r: &Ruleset, a: &[&str], b: &[&str]) -> String {
    let flow = r.banker().unwrap();
    let o = ranking::compare(flow, &ranked(r, a), &ranked(r, b));
    let verb = match o {
        Ordering::Greater => "beats",
        Ordering::Less => "loses to",
        Ordering::Equal => "ties",
    };
    format!(
        "{} [{}] {verb} {} [{}]",
        a.join(" "),
        words(r, a),
        b.join(" "),
        words(r, b)
    )
}

#[test]
fn every_rank_best_first() {
    // naegiplay: "BRIGHT PAIR. Highest Hand", "1·3 BRIGHT PAIR (Gwang TTaeng)", "10 Pair (Jang
    // TTaeng)" ... "1 Pair"; reactiveworks: the six named kkeut combinations (알리, 독사 ...);
    // naegiplay: "8 Point > 1 Point", "2 + 8 = 10 is considered 0, which is called Mangtong".
    let r = rules();
    let hands: &[&[&str]] = &[
        &["cherry-curtain", "pampas-moon"],
        &["pine-crane", "cherry-curtain"],
        &["pine-crane", "pampas-moon"],
        &["maple-deer", "maple-ribbon"],
        &["chrysanthemum-sake", "chrysanthemum-ribbon"],
        &["pine-crane", "pine-ribbon"],
        &["pine-ribbon", "plum-bird"],
        &["pine-ribbon", "wisteria-ribbon"],
        &["pine-ribbon", "chrysanthemum-ribbon"],
        &["pine-ribbon", "maple-ribbon"],
        &["wisteria-ribbon", "maple-ribbon"],
        &["wisteria-ribbon", "peony-ribbon"],
        &["iris-bridge", "wisteria-ribbon"],
        &["plum-bird", "peony-ribbon"],
        &["plum-ribbon", "iris-ribbon"],
        &["plum-ribbon", "pampas-geese"],
    ];
    let mut s = String::new();
    for pair in hands.windows(2) {
        let _ = writeln!(s, "{}", versus(&r, pair[0], pair[1]));
    }
    insta::assert_snapshot!(s);
}

#[test]
fn the_special_hands_beat_only_the_ranks_they_name() {
    // hclw: the 4-7 "Secret Royal Inspector" beats the "1-3 Flush". Choice (notes): it beats
    // 13 and 18 gwang-ttaeng only, and is 1 kkeut otherwise; ttaeng-jabi (3-7) beats the pairs
    // 1 to 9, not jang-ttaeng, and is mangtong otherwise.
    let r = rules();
    let amhaeng = &["wisteria-cuckoo", "clover-boar"][..];
    let jabi = &["cherry-curtain", "clover-boar"][..];
    let mut s = String::new();
    for (a, b) in [
        (amhaeng, &["pine-crane", "cherry-curtain"][..]),
        (amhaeng, &["pine-crane", "pampas-moon"][..]),
        (amhaeng, &["cherry-curtain", "pampas-moon"][..]),
        (amhaeng, &["plum-bird", "iris-bridge"][..]),
        (amhaeng, &["maple-deer", "plum-ribbon"][..]),
        (jabi, &["chrysanthemum-sake", "chrysanthemum-ribbon"][..]),
        (jabi, &["pine-crane", "pine-ribbon"][..]),
        (jabi, &["maple-deer", "maple-ribbon"][..]),
        (jabi, &["pine-ribbon", "plum-bird"][..]),
        (jabi, &["plum-bird", "pampas-geese"][..]),
    ] {
        let _ = writeln!(s, "{}", versus(&r, a, b));
    }
    // Among three hands, the special hand wins when it beats the best (Choice, notes).
    let flow = r.banker().unwrap();
    let three = [
        (0, ranked(&r, jabi)),
        (
            1,
            ranked(&r, &["chrysanthemum-sake", "chrysanthemum-ribbon"]),
        ),
        (2, ranked(&r, &["pine-ribbon", "plum-bird"])),
    ];
    let _ = writeln!(
        s,
        "ttaeng-jabi, 9-ttaeng and ali: seat {:?} wins",
        ranking::winners(flow, &three)
    );
    insta::assert_snapshot!(s);
}

#[test]
fn the_four_nine_hands_call_for_a_redeal_unless_a_pair_is_out() {
    // Choice (notes): gusa (4-9) calls for a redeal when no other hand still in is a pair or
    // better; meongteongguri-gusa (the animals of April and September) unless jang-ttaeng or
    // better is out.
    let r = rules();
    let flow = r.banker().unwrap();
    let gusa = ranked(&r, &["wisteria-ribbon", "chrysanthemum-ribbon"]);
    let meong = ranked(&r, &["wisteria-cuckoo", "chrysanthemum-sake"]);
    let ali = ranked(&r, &["pine-ribbon", "plum-bird"]);
    let one_ttaeng = ranked(&r, &["pine-crane", "pine-ribbon"]);
    let nine_ttaeng = ranked(&r, &["chrysanthemum-sake", "chrysanthemum-ribbon"]);
    let jang = ranked(&r, &["maple-deer", "maple-ribbon"]);
    let name = |x: Option<(usize, usize)>| x.map(|(_, sp)| flow.specials[sp].name.clone());
    let mut s = String::new();
    for (what, other) in [
        ("ali", ali),
        ("1-ttaeng", one_ttaeng),
        ("9-ttaeng", nine_ttaeng),
        ("jang-ttaeng", jang),
    ] {
        let _ = writeln!(
            s,
            "gusa against {what}: {:?}; meongteongguri-gusa against {what}: {:?}",
            name(ranking::redeal(flow, &[(0, gusa), (1, other)])),
            name(ranking::redeal(flow, &[(0, meong), (1, other)]))
        );
    }
    let _ = writeln!(
        s,
        "gusa plays as {}",
        words(&r, &["wisteria-ribbon", "chrysanthemum-ribbon"])
    );
    insta::assert_snapshot!(s);
}

fn describe(g: &BankerGame) -> String {
    let r = g.ruleset();
    let mut s = String::new();
    for h in g.hands_played() {
        let _ = writeln!(
            s,
            "hand {} dealt by seat {:?}",
            h.hand,
            h.banker_seat.map(|d| d + 1)
        );
        for b in &h.betting {
            let _ = writeln!(s, "  {b}");
        }
        for note in &h.rules {
            let _ = writeln!(s, "  {note}");
        }
        for p in &h.players {
            let cards: Vec<&str> = p
                .tiles
                .iter()
                .map(|&t| r.deck.card(t).id.as_str())
                .collect();
            let _ = writeln!(
                s,
                "  seat {} {} {}put in {} result {:+}",
                p.seat + 1,
                cards.join(" "),
                match (&p.hand, p.folded) {
                    (_, true) => "folded, ".to_string(),
                    (Some(h), _) => format!("[{h}] "),
                    (None, _) => String::new(),
                },
                p.bet,
                p.result
            );
        }
        let _ = writeln!(
            s,
            "  pot {} to seat(s) {:?}; next dealer seat {:?}",
            h.pot,
            h.winners.iter().map(|w| w + 1).collect::<Vec<_>>(),
            h.bank_to.or(h.banker_seat).map(|d| d + 1)
        );
    }
    s
}

#[test]
fn a_betting_round_with_a_fold_and_the_winner_deals_next() {
    // fudawiki: "Betting turns start from the dealer"; "players who have not folded proceed to
    // showdown"; "The winner of the hand collects the pot and becomes the dealer for the next
    // hand". Seat 1 deals; the first cards go to seats 1, 2, 3, then the second cards.
    let r = rules();
    let deal = order(
        &r,
        &[
            "plum-bird",
            "cherry-curtain",
            "iris-bridge", // first cards: seats 1, 2, 3
            "peony-ribbon",
            "pampas-moon",
            "iris-ribbon", // second cards
        ],
    );
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            seats: Some(3),
            first_dealer: Some(0),
            rounds: Some(1),
            deck_orders: vec![deal],
            ..StartOptions::default()
        },
    )
    .unwrap();
    // Round 1: seat 1 bets 2, seat 2 raises to 4, seat 3 folds, seat 1 calls.
    // Round 2: seat 1 checks, seat 2 bets 5, seat 1 calls.
    let mut s = String::new();
    for amount in [2, 4, 0, 2, 0, 5, 5] {
        let seat = g.to_act().unwrap();
        let _ = writeln!(
            s,
            "seat {} to call {}: {} {amount}",
            seat + 1,
            g.to_call(seat),
            g.pot_action_word(seat, amount)
        );
        g.apply(Action::Bet { amount }).unwrap();
    }
    assert!(g.is_over());
    s.push_str(&describe(&g));
    let _ = writeln!(s, "bankrolls {:?}", g.bankrolls());
    insta::assert_snapshot!(s);
}

#[test]
fn an_ante_only_hand_where_everyone_checks() {
    // fudawiki: each player antes before the deal; with no bet in either round (every seat
    // checks), the pot is the antes alone and the best hand takes it: seat 3's 8 kkeut (the
    // Red Clover ribbon 7 and the Pine ribbon 1) against 7 kkeut (2 + 5) and 4 kkeut (6 + 8).
    let r = rules();
    let deal = order(
        &r,
        &[
            "plum-bird",
            "peony-ribbon",
            "clover-ribbon", // first cards: seats 1, 2, 3
            "iris-ribbon",
            "pampas-moon",
            "pine-ribbon", // second cards
        ],
    );
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            seats: Some(3),
            first_dealer: Some(0),
            rounds: Some(1),
            deck_orders: vec![deal],
            ..StartOptions::default()
        },
    )
    .unwrap();
    let mut s = String::new();
    while let Some(seat) = g.to_act() {
        let _ = writeln!(
            s,
            "seat {} to call {}: {}",
            seat + 1,
            g.to_call(seat),
            g.pot_action_word(seat, 0)
        );
        g.apply(Action::Bet { amount: 0 }).unwrap();
    }
    assert!(g.is_over());
    s.push_str(&describe(&g));
    let _ = writeln!(s, "bankrolls {:?}", g.bankrolls());
    // The antes alone change hands: 3 chips in the pot, 2 won by the winner.
    assert_eq!(g.bankrolls().iter().sum::<i64>(), 300);
    insta::assert_snapshot!(s);
}

#[test]
fn a_redeal_keeps_the_pot_for_the_seats_still_in() {
    // Choice (notes): gusa against ali: the seats still in are dealt again, the pot kept.
    let r = rules();
    let first = order(
        &r,
        &[
            "wisteria-ribbon",
            "pine-ribbon",
            "chrysanthemum-ribbon",
            "plum-bird",
        ],
    );
    let again = order(
        &r,
        &["maple-deer", "plum-ribbon", "maple-ribbon", "iris-ribbon"],
    );
    let mut g = start(
        Arc::clone(&r),
        StartOptions {
            seats: Some(2),
            first_dealer: Some(0),
            rounds: Some(1),
            deck_orders: vec![first, again],
            ..StartOptions::default()
        },
    )
    .unwrap();
    while g.to_act().is_some() {
        g.apply(Action::Bet { amount: 0 }).unwrap();
    }
    insta::assert_snapshot!(describe(&g));
}

/// The hand ranks of two cards, worked out from the months and kinds alone (not the ruleset's
/// expressions): Seotda's ranking as the sources state it.
fn independent_rank(a: (u32, &str), b: (u32, &str)) -> String {
    let (lo, hi) = if a.0 <= b.0 { (a, b) } else { (b, a) };
    let gwang = |c: (u32, &str)| c.1 == "gwang";
    match (lo.0, hi.0) {
        (3, 8) if gwang(lo) && gwang(hi) => "38 gwang-ttaeng".into(),
        (1, 3) | (1, 8) if gwang(lo) && gwang(hi) => "Gwang-ttaeng".into(),
        (10, 10) => "Jang-ttaeng".into(),
        (m, n) if m == n => format!("{m}-ttaeng"),
        (1, 2) => "Ali (1-2)".into(),
        (1, 4) => "Dok-sa (1-4)".into(),
        (1, 9) => "Gu-bbing (1-9)".into(),
        (1, 10) => "Jang-bbing (1-10)".into(),
        (4, 10) => "Jang-sa (4-10)".into(),
        (4, 6) => "Sae-ryuk (4-6)".into(),
        (m, n) if (m + n) % 10 == 0 => "Mangtong".into(),
        (m, n) => format!("{} kkeut", (m + n) % 10),
    }
}

#[test]
fn the_rank_of_every_two_cards_agrees_with_an_independent_reading() {
    let r = rules();
    let flow = r.banker().unwrap();
    let card = |c: CardId| {
        let d = r.deck.card(c);
        let kind = if d.id.ends_with("crane") || d.id.ends_with("curtain") || d.id.ends_with("moon")
        {
            "gwang"
        } else {
            "other"
        };
        (u32::from(c.0) / 2 + 1, kind)
    };
    let mut n = 0;
    combinations(CardSet::first(20), 2, |hand| {
        let cs: Vec<CardId> = hand.iter().collect();
        let h = ranking::rank_hand(flow, hand);
        let name = flow.ranks[h.rank].words(h.within);
        assert_eq!(name, independent_rank(card(cs[0]), card(cs[1])), "{cs:?}");
        n += 1;
    });
    assert_eq!(n, 190);
}

#[test]
fn random_games_conserve_every_card_and_every_chip() {
    use crate::agent::RandomAgent;
    use crate::core::{Agent, agent_rng};
    let r = rules();
    for (seats, seed) in (2..=8).flat_map(|s| (0..4).map(move |seed| (s, seed))) {
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                seats: Some(seats),
                ..StartOptions::default()
            },
        )
        .unwrap();
        let chips = seats as i64 * 100;
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        while let Some(seat) = g.to_act() {
            Game::legal_actions(&g, &mut legal);
            let a = RandomAgent.choose(&g, seat, &legal, &mut rng);
            g.apply(a).unwrap();
            let held: i64 = g.bankrolls().iter().sum::<i64>() + g.pot_state().pot;
            assert_eq!(held, chips, "{seats} seats, seed {seed}");
            assert!(g.bankrolls().iter().all(|&b| b >= 0));
            let mut seen = CardSet::EMPTY;
            for s in 0..seats {
                assert!((seen.0 & g.tiles(s).0) == 0, "a card in two hands");
                seen = CardSet(seen.0 | g.tiles(s).0);
            }
            assert_eq!(seen.len() as usize + g.stock_len(), 20);
        }
        for h in g.hands_played() {
            let net: i64 = h.players.iter().map(|p| p.result).sum();
            assert_eq!(net, 0, "a hand's results add up to nothing");
            let put: i64 = h.players.iter().map(|p| p.bet).sum();
            assert_eq!(put, h.pot);
        }
    }
}

#[test]
fn analyze_counts_each_rank_as_the_independent_reading_does() {
    use std::collections::HashMap;
    let r = rules();
    let flow = r.banker().unwrap();
    let odds = crate::families::banker::analysis::ranks::rank_odds(&r, flow);
    let mut counted: HashMap<String, u64> = HashMap::new();
    let card = |c: CardId| {
        let id = &r.deck.card(c).id;
        let gwang = ["pine-crane", "cherry-curtain", "pampas-moon"].contains(&id.as_str());
        (
            u32::from(c.0) / 2 + 1,
            if gwang { "gwang" } else { "other" },
        )
    };
    combinations(CardSet::first(20), 2, |hand| {
        let cs: Vec<CardId> = hand.iter().collect();
        *counted
            .entry(independent_rank(card(cs[0]), card(cs[1])))
            .or_default() += 1;
    });
    assert_eq!(odds.total, 190);
    for row in odds.rows.iter().filter(|r| !r.special) {
        assert_eq!(Some(&row.count), counted.get(&row.name), "{}", row.name);
    }
    assert_eq!(
        odds.rows.iter().filter(|r| !r.special).count(),
        counted.len()
    );
}

#[test]
fn a_pot_game_refuses_the_keys_of_hands_against_a_banker_where_they_stand() {
    let text = ruleset::bundled::file("seotda.toml").unwrap().replace(
        "hands = 20",
        "hands = 20\nfirst_tiles = 2\nbanker_tiles = 2\ndraw_options = [0, 1]",
    );
    let loaded = ruleset::load_str("seotda-keys", &text);
    assert!(loaded.value.is_none());
    let found: Vec<(String, usize)> = loaded
        .diagnostics
        .iter()
        .map(|d| {
            let line = text[..d.loc.span.start].matches('\n').count() + 1;
            (d.message.clone(), line)
        })
        .collect();
    let line_of = |key: &str| {
        text.lines()
            .position(|l| l.starts_with(key))
            .expect("the key is there")
            + 1
    };
    assert_eq!(
        found,
        [
            (
                "a pot game does not use `first_tiles`: it deals by `[flow.pot] rounds`".into(),
                line_of("first_tiles")
            ),
            (
                "a pot game does not use `banker_tiles`: it has no banker's hand".into(),
                line_of("banker_tiles")
            ),
            (
                "a pot game does not use `draw_options`: its hands take no more cards".into(),
                line_of("draw_options")
            ),
        ]
    );
}

#[test]
fn a_split_pot_leaves_the_deal_or_gives_it_to_the_first_winner_in_turn() {
    // Seat 1 (dealer) has 4 kkeut (8 + 6); seats 2 and 3 have 7 kkeut each (3 + 4, 2 + 5):
    // they split the pot. Seotda's rule keeps the deal with the dealer (fudawiki, in the notes);
    // with `winner_ties = "first-in-turn"` the first winner after the dealer, seat 2, deals.
    let text = std::fs::read_to_string("rulesets/seotda.toml").unwrap();
    let next_dealer = |text: &str| {
        let r = Arc::new(ruleset::load_str("seotda-ties", text).value.unwrap());
        let deal = order(
            &r,
            &[
                "pampas-moon",
                "cherry-curtain",
                "plum-ribbon",
                "peony-butterflies",
                "wisteria-cuckoo",
                "iris-ribbon",
            ],
        );
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seats: Some(3),
                first_dealer: Some(0),
                rounds: Some(2),
                deck_orders: vec![deal],
                ..StartOptions::default()
            },
        )
        .unwrap();
        while g.hands_played().is_empty() {
            g.apply(Action::Bet { amount: 0 }).unwrap();
        }
        let h = &g.hands_played()[0];
        assert_eq!(h.winners, [1, 2]);
        h.bank_to
    };
    assert_eq!(next_dealer(&text), None);
    let ties = text.replace(
        "pass_to_winner = true",
        "pass_to_winner = true\nwinner_ties = \"first-in-turn\"",
    );
    assert_eq!(next_dealer(&ties), Some(1));
}
