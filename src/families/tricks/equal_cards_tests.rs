//! Which of two alike cards of a double pack takes a trick (Issue 42, wall 7), on the test
//! ruleset tests/rulesets/dulle.toml: Doppelkopf's trumps, where of two alike cards the first
//! played wins except the Ten of Hearts, the second of which beats the first (DDV rules, as the
//! ruleset cites).

use super::*;
use crate::agent::{Agent, RandomAgent, agent_rng};
use crate::core::StartOptions;
use crate::deck::CardId;
use crate::ruleset::{self, Ruleset};
use std::sync::Arc;

const DULLE: &str = "tests/rulesets/dulle.toml";

fn load(path: &str) -> Arc<Ruleset> {
    let loaded = ruleset::load(path);
    Arc::new(
        loaded
            .value
            .unwrap_or_else(|| panic!("{path}: {:?}", loaded.diagnostics)),
    )
}

fn card(r: &Ruleset, id: &str) -> CardId {
    r.deck
        .card_by_id(id)
        .unwrap_or_else(|| panic!("no card `{id}`"))
}

fn started(r: &Arc<Ruleset>, seed: u64) -> TricksGame {
    start(
        Arc::clone(r),
        StartOptions {
            seed,
            ..StartOptions::default()
        },
    )
    .unwrap()
}

/// The card that takes a trick of `cards` (the first led), as its id.
fn winner(g: &TricksGame, cards: &[&str]) -> String {
    let r = g.ruleset();
    let mut best = card(r, cards[0]);
    for id in &cards[1..] {
        let c = card(r, id);
        if g.beats(c, best) {
            best = c;
        }
    }
    r.deck.id_of(best).to_string()
}

/// The worked tricks: the second Ten of Hearts takes a trick from the first (led or not), two
/// alike Aces, Queens or Diamonds go to the first played, and a Queen of Clubs played between
/// two Dullen loses to the second of them.
#[test]
fn the_second_ten_of_hearts_beats_the_first_and_other_alike_cards_do_not() {
    let r = load(DULLE);
    let g = started(&r, 1);
    let flow = r.tricks().unwrap();
    assert_eq!(
        flow.later_equal_wins.len(),
        2,
        "both copies of the Ten of Hearts"
    );
    let cases: [(&[&str], &str); 6] = [
        (&["hearts-ten", "hearts-ten-p2"], "hearts-ten-p2"),
        (&["hearts-ten-p2", "hearts-ten"], "hearts-ten"),
        (
            &["clubs-queen", "hearts-ten", "clubs-nine", "hearts-ten-p2"],
            "hearts-ten-p2",
        ),
        // The brettspielwelt example: of two Aces of Spades, the first played takes the trick.
        (
            &["spades-ace", "spades-ten", "spades-king", "spades-ace-p2"],
            "spades-ace",
        ),
        (&["clubs-queen-p2", "clubs-queen"], "clubs-queen-p2"),
        (
            &[
                "diamonds-nine",
                "diamonds-ace",
                "diamonds-ace-p2",
                "hearts-ace",
            ],
            "diamonds-ace",
        ),
    ];
    for (trick, expected) in cases {
        assert_eq!(winner(&g, trick), expected, "{trick:?}");
    }
}

/// The rule sheet says the exception in words, each card once (not its copy).
#[test]
fn the_sheet_names_the_exception_once() {
    let r = load(DULLE);
    let sheet = crate::sheet::text_sheet(&r);
    let words = sheet.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(
            "Of two alike cards that are the best of a trick, the first played wins, except the Ten of Hearts: of two of them, the later played wins."
        ),
        "{sheet}"
    );
}

/// `equal_cards_last` beside `equal_cards = "last"`, or naming only cards no other card is
/// alike to, is refused at its key.
#[test]
fn a_later_card_rule_that_cannot_apply_is_refused_where_it_is_written() {
    let text = std::fs::read_to_string(DULLE).unwrap();
    let refused = |text: &str, said: &str| {
        let loaded = ruleset::load_str("dulle.toml", text);
        let d = loaded
            .diagnostics
            .iter()
            .find(|d| d.message.contains(said))
            .unwrap_or_else(|| panic!("no `{said}` in {:?}", loaded.diagnostics));
        let at = &text[d.loc.span.clone()];
        assert!(at.contains("hearts-ten"), "located at {at:?}");
    };
    refused(
        &text.replace("equal_cards = \"first\"", "equal_cards = \"last\""),
        "`equal_cards_last` with `equal_cards = \"last\"`",
    );
    refused(
        &text.replace("\"pinochle-48\"", "\"french-24\""),
        "`equal_cards_last` names no card the deck holds twice",
    );
}

/// Random play keeps every card: every trick's winner holds a card no other card of the trick
/// beats, and every hand ends with all 48 cards taken.
#[test]
fn random_games_keep_every_card() {
    let r = load(DULLE);
    for seed in 1..=20u64 {
        let mut g = started(&r, seed);
        let mut rng = agent_rng(seed);
        let mut legal = Vec::new();
        let mut moves = 0;
        while let Some(seat) = g.to_act() {
            g.legal_actions(&mut legal);
            let a = RandomAgent.choose(&g, seat, &legal, &mut rng);
            g.apply(a).unwrap();
            moves += 1;
            assert!(moves < 1_000, "seed {seed}: the hand does not end");
        }
        assert!(g.is_over());
        let taken: u32 = (0..4).map(|s| g.won(s).len()).sum();
        assert_eq!(taken, 48, "seed {seed}");
    }
}
