//! Rulesets with many melds (issue 44, fault 1): with more than 256 `[[meld]]`s every meld is
//! still the one declared, whether counted from a hand or shown in play (a meld's index once
//! wrapped at 256, so meld 286 was shown under meld 30's name and points), up to the bound
//! [`crate::ruleset::MAX_MELDS`]; one more is refused at validation where it is written.

use super::*;
use crate::agent::{Agent, RandomAgent, agent_rng};
use crate::core::{Action, Event, StartOptions};
use crate::deck::CardSet;
use crate::ruleset::{self, MAX_MELD_COMBINATIONS, MAX_MELDS, MeldMoment, Ruleset};
use std::fmt::Write as _;
use std::sync::Arc;

/// The test ruleset `tests/rulesets/meld-moments.toml` (Sechsundsechzig, 24 cards, melds shown
/// on winning a trick with the `show` declaration) with `count` more melds, each of its own
/// class: `m000` to `m275` every pair of the 24 cards, then triples of three cards in a row of
/// the deck; meld `mN` is worth `1000 + N`.
fn many_melds(count: usize) -> String {
    let deck = ruleset::load("tests/rulesets/meld-moments.toml")
        .value
        .expect("the test ruleset loads")
        .deck
        .clone();
    let ids: Vec<String> = deck.card_ids().map(str::to_string).collect();
    let mut sets: Vec<Vec<&str>> = Vec::new();
    for a in 0..ids.len() {
        for b in a + 1..ids.len() {
            sets.push(vec![&ids[a], &ids[b]]);
        }
    }
    for a in 0.. {
        if sets.len() >= count {
            break;
        }
        let n = ids.len();
        sets.push(vec![&ids[a % n], &ids[(a + 1) % n], &ids[(a + 2) % n]]);
    }
    let mut text = String::from(
        "[ruleset]\nid = \"many-melds\"\nextends = \"tests/rulesets/meld-moments.toml\"\n",
    );
    for (i, cards) in sets.iter().take(count).enumerate() {
        let list = cards
            .iter()
            .map(|c| format!("\"{c}\""))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = write!(
            text,
            "\n[[meld]]\nid = \"m{i:03}\"\nname = \"Meld {i}\"\ncards = [{list}]\npoints = {}\nmoment = \"won-trick\"\ndeclaration = \"show\"\n",
            1000 + i
        );
    }
    text
}

fn load_many(count: usize) -> Arc<Ruleset> {
    let loaded = ruleset::load_str("many-melds.toml", &many_melds(count));
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
    )
}

/// True for the melds [`many_melds`] writes (`m000`, not `marriage`).
fn generated(id: &str) -> bool {
    id.len() == 4 && id.starts_with('m') && id[1..].bytes().all(|b| b.is_ascii_digit())
}

/// The cards meld `id` was declared with, and its points.
fn declared(r: &Ruleset, id: &str) -> (CardSet, i64) {
    let m = r
        .tricks()
        .unwrap()
        .melds
        .iter()
        .find(|m| m.id == id)
        .unwrap_or_else(|| panic!("no meld `{id}`"));
    (m.cards.iter().copied().collect(), m.points)
}

/// 300 melds: a hand holding exactly one generated meld's cards counts that meld, under its own
/// name and points, and a declaration with any of its cards shows it (the meld worth most that
/// card makes).
#[test]
fn three_hundred_melds_count_and_show_as_declared() {
    let r = load_many(300);
    let flow = r.tricks().unwrap();
    assert_eq!(flow.melds.iter().filter(|m| generated(&m.id)).count(), 300);
    let show = *flow
        .meld_declarations
        .iter()
        .find(|d| r.declarations[d.0 as usize].id == "show")
        .unwrap();
    for (index, meld) in flow.melds.iter().enumerate() {
        if !generated(&meld.id) {
            continue;
        }
        let (hand, points) = declared(&r, &meld.id);
        let (_, found) = melds::best_of(&flow.meld_table, &flow.melds, hand, Some(0), |m| {
            generated(&m.id)
        });
        let whole: Vec<_> = found.iter().filter(|m| m.cards == hand).collect();
        assert_eq!(whole.len(), 1, "{}: {found:?}", meld.id);
        assert_eq!(usize::from(whole[0].meld), index, "{}", meld.id);
        let card = hand.iter().next().unwrap();
        let shown = flow
            .meld_table
            .shown(
                &flow.melds,
                show,
                MeldMoment::WonTrick,
                0,
                hand,
                card,
                |_| Default::default(),
            )
            .unwrap_or_else(|| panic!("{}: nothing shown", meld.id));
        // The meld worth most with `card` among those the hand makes: this one, the highest
        // index of them (a triple's pairs come before it).
        assert_eq!(usize::from(shown.melded.meld), index, "{}", meld.id);
        assert_eq!(
            (shown.melded.cards, shown.points),
            (hand, points),
            "{}",
            meld.id
        );
    }
}

/// Random games with 300 melds: every meld shown in play is shown with its own cards and
/// points, and the melds offered are of cards held.
#[test]
fn three_hundred_melds_play_as_declared() {
    let r = load_many(300);
    let flow = r.tricks().unwrap();
    let mut shown_past_256 = 0;
    for seed in 0..20 {
        let mut g = start(
            Arc::clone(&r),
            StartOptions {
                seed,
                rounds: Some(1),
                log_events: true,
                ..StartOptions::default()
            },
        )
        .unwrap();
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        while let Some(seat) = g.to_act() {
            g.legal_actions(&mut legal);
            let a = RandomAgent.choose(&g, seat, &legal, &mut rng);
            if let Action::Declare { card: Some(c), .. } = a {
                assert!(
                    g.hand(seat).contains(c),
                    "seed {seed}: a meld of cards not held"
                );
            }
            g.apply(a).unwrap();
            for e in g.drain_events() {
                if let Event::Melded {
                    melds,
                    cards,
                    points,
                    ..
                } = e
                {
                    let id = &melds[0];
                    if !generated(id) {
                        continue;
                    }
                    let (want, want_points) = declared(&r, id);
                    let got: CardSet = cards.iter().copied().collect();
                    assert_eq!((got, points), (want, want_points), "seed {seed}: {id}");
                    let index = flow.melds.iter().position(|m| &m.id == id).unwrap();
                    shown_past_256 += usize::from(index >= 256);
                }
            }
        }
        assert!(crate::core::Game::error(&g).is_none());
    }
    assert!(shown_past_256 > 0, "no meld past the 256th was shown");
}

/// [`MAX_MELDS`] melds load; one more is refused where it is written, naming the bound.
#[test]
fn one_meld_past_the_bound_is_refused_where_it_is_written() {
    let base = ruleset::load("tests/rulesets/meld-moments.toml")
        .value
        .unwrap();
    let own = base.tricks().unwrap().melds.len();
    let r = load_many(MAX_MELDS - own);
    assert_eq!(r.tricks().unwrap().melds.len(), MAX_MELDS);
    let text = many_melds(MAX_MELDS - own + 1);
    let loaded = ruleset::load_str("many-melds.toml", &text);
    assert!(loaded.value.is_none());
    let errors: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == crate::diag::Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let last = format!("m{:03}", MAX_MELDS - own);
    assert_eq!(
        errors[0].message,
        format!("a ruleset holds at most {MAX_MELDS} melds: `{last}` is one more")
    );
    let (line, col) = loaded
        .sources
        .line_col(errors[0].loc.file, errors[0].loc.span.start);
    let want = text
        .lines()
        .position(|l| l == format!("id = \"{last}\""))
        .unwrap();
    assert_eq!((line, col), (want + 1, 6), "{:?}", errors[0]);
    let shown = crate::diag::render_text(&loaded.sources, &loaded.diagnostics);
    assert!(
        shown.contains(&format!("many-melds.toml:{line}:6")) && shown.contains('^'),
        "{shown}"
    );
}

/// Melds that stand for more than [`MAX_MELD_COMBINATIONS`] combinations with one trump suit are
/// refused at the meld that passes the bound: a run of two in any suit stands for 20 in the
/// 24-card pack (five runs in each of four suits), so the 410th such meld is one too many.
#[test]
fn melds_past_the_combination_bound_are_refused() {
    let mut text = String::from(
        "[ruleset]\nid = \"many-runs\"\nextends = \"tests/rulesets/meld-moments.toml\"\n",
    );
    for i in 0..420 {
        let _ = write!(text, "\n[[meld]]\nid = \"r{i:03}\"\nrun = 2\npoints = 1\n");
    }
    let loaded = ruleset::load_str("many-runs.toml", &text);
    assert!(loaded.value.is_none());
    let errors: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == crate::diag::Severity::Error)
        .collect();
    // Every meld past the bound is refused, the first at its id.
    let base = ruleset::load("tests/rulesets/meld-moments.toml")
        .value
        .unwrap();
    let own: usize = base.tricks().unwrap().meld_table.instances(Some(0)).len();
    let first = (MAX_MELD_COMBINATIONS - own) / 20;
    assert_eq!(errors.len(), 420 - first, "{:?}", errors.first());
    assert!(
        errors[0].message.starts_with(&format!(
            "the melds stand for at most {MAX_MELD_COMBINATIONS} combinations with one trump suit: with `r{first:03}`"
        )),
        "{}",
        errors[0].message
    );
}
