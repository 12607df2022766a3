//! `yaku learn`: a first hand with a lesson before each decision, on the real binary, for every
//! bundled ruleset and for a rule file of one's own.

use super::run::{temp_dir, yaku};

/// Empty answers: each takes the move the lesson suggests.
fn enters(n: usize) -> String {
    "\n".repeat(n)
}

#[test]
fn every_bundled_ruleset_has_a_first_hand_with_lessons() {
    let dir = temp_dir("learn-all");
    for ruleset in [
        "koikoi",
        "koikoi-classic",
        "gostop",
        "matgo",
        "schnapsen",
        "scopa",
        "kolyesi",
        "seotda",
        "baccarat",
        "oicho-kabu",
        "koikoi-ktane",
        "hachihachi",
        "scopone",
        "dreierschnapsen",
        "pinochle",
        "hearts",
        "big-two",
        "cassino",
        "pinochle-two-handed",
    ] {
        let out = yaku(&["learn", ruleset])
            .current_dir(&dir)
            .stdin(enters(400))
            .expect(0);
        let s = &out.stdout;
        for expected in [
            "How a hand goes:\n- ",
            "Lesson 1: ",
            "bot would ",
            "Enter takes that move",
            &format!("that was one hand. A whole game: yaku play {ruleset}"),
        ] {
            assert!(
                s.contains(expected),
                "{ruleset}: missing `{expected}` in:\n{s}"
            );
        }
        // Every suggestion says why, from the bot's own reading: "... (option 2): it ...".
        for line in s.lines().filter(|l| l.contains("bot would ")) {
            let reason = line.split_once("): ").map(|(_, why)| why.trim());
            assert!(
                reason.is_some_and(|why| why.len() > 10),
                "{ruleset}: a suggestion without its reason: {line}"
            );
        }
    }
    // The hand was played to its end: nothing was saved.
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
}

#[test]
fn a_lesson_explains_the_game_its_yaku_and_each_declaration_once() {
    let dir = temp_dir("learn-koikoi");
    let out = yaku(&["learn", "schnapsen"])
        .current_dir(&dir)
        .stdin(enters(400))
        .expect(0);
    let s = &out.stdout;
    assert!(s.contains("Schnapsen: Two players take tricks"), "{s}");
    assert_eq!(s.matches("- Claim 66: stop the hand").count(), 1, "{s}");
    assert!(s.contains("Lesson 2: "), "{s}");
    let out = yaku(&["learn", "koikoi"])
        .current_dir(&dir)
        .stdin(enters(400))
        .expect(0);
    let s = &out.stdout;
    assert!(
        s.contains("- Sankō (three brights): Three 20-point cards other than the Rain Man."),
        "{s}"
    );
    // The lesson comes after the table and before the question it explains.
    let lesson = s.find("Lesson 1: play a card").unwrap();
    assert!(s[..lesson].contains("your hand:"), "{s}");
    assert!(
        s[lesson..].contains("\nplay a card from your hand (number, id or name):\n> "),
        "{s}"
    );
    // The suggested move is the one taken on Enter.
    assert!(s.contains("The greedy bot would play "), "{s}");
}

#[test]
fn a_rule_file_of_ones_own_gets_a_first_hand_too() {
    let dir = temp_dir("learn-file");
    std::fs::write(
        dir.join("home.toml"),
        r#"[ruleset]
id = "home"
extends = "koikoi"
name = "Koi-Koi at home"
description = "Koi-Koi as the family plays it, a hand at a time."
"#,
    )
    .unwrap();
    let out = yaku(&["learn", "home.toml"])
        .current_dir(&dir)
        .stdin(enters(400))
        .expect(0);
    let s = &out.stdout;
    assert!(
        s.contains("Koi-Koi at home: Koi-Koi as the family plays it, a hand at a time."),
        "{s}"
    );
    assert!(s.contains("Lesson 1: "), "{s}");
    assert!(s.contains("yaku play home.toml"), "{s}");
    // A ruleset that cannot be loaded is an error, not a lesson.
    let out = yaku(&["learn", "no-such-game"]).current_dir(&dir).run();
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("error"), "{}", out.stderr);
}

#[test]
fn the_koi_koi_lesson_says_why_seven_points_are_fourteen_and_what_playing_on_risks() {
    let dir = temp_dir("learn-stakes");
    // Seed 7: the player's yaku reach 7 points with two cards left in hand.
    let out = yaku(&["learn", "koikoi", "--seed", "7"])
        .current_dir(&dir)
        .stdin(enters(200))
        .expect(0);
    let s = &out.stdout;
    for expected in [
        "take 14 points (7 from the yaku, x2 for 7 or more points: 14)",
        "How the rules grow a hand's points (the same steps count against you if another player scores after you play on):",
        "- x2: the opponent had called koi-koi",
        "The greedy bot would choose Stop (option 2): with 2 cards left there is little time to add a yaku",
    ] {
        assert!(s.contains(expected), "missing `{expected}` in:\n{s}");
    }
    assert_eq!(
        s.matches("How the rules grow").count(),
        1,
        "the scoring is explained once"
    );
}

#[test]
fn the_first_bid_is_taught_with_the_auction_and_the_melds_it_leads_to() {
    let dir = temp_dir("learn-pinochle");
    let out = yaku(&["learn", "pinochle"])
        .current_dir(&dir)
        .stdin(enters(400))
        .expect(0);
    let s = &out.stdout;
    // Once, before the first bid: the auction's terms and the melds with their points.
    assert_eq!(
        s.matches("Before this decision, the deal").count(),
        1,
        "{s}"
    );
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in [
        "a bid is at least 100, then at least 10 over the last bid",
        "the last bidder is the declarer, whose side must make the bid",
        "Pinochle: Queen of Spades and Jack of Diamonds: 40 points",
        "Aces around: Ace of every suit: 100 points",
    ] {
        assert!(flat.contains(expected), "missing `{expected}` in:\n{s}");
    }
    let lesson = s
        .find("Lesson 1: your bid")
        .expect("the first lesson is the bid");
    assert!(s.find("Before this decision").unwrap() > lesson, "{s}");
}

/// Blackjack apart (its exact model takes some seconds to work out in a debug build): every
/// suggestion gives the expected result of each choice, or why it bets and insures as it does.
#[test]
fn blackjack_lessons_give_each_choice_its_reason() {
    let dir = temp_dir("learn-blackjack");
    let out = yaku(&["learn", "blackjack"])
        .current_dir(&dir)
        .stdin(enters(100))
        .expect(0);
    let s = &out.stdout;
    let suggestions: Vec<&str> = s.lines().filter(|l| l.contains("bot would ")).collect();
    assert!(!suggestions.is_empty(), "{s}");
    for line in suggestions {
        let reason = line.split_once("): ").map(|(_, why)| why.trim());
        assert!(
            reason.is_some_and(|why| why.len() > 10),
            "a suggestion without its reason: {line}"
        );
    }
    assert!(
        s.contains("the expected result of each choice: Hit "),
        "{s}"
    );
}
