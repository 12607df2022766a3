//! `yaku position` end to end: a position written by hand shows its moves with what each
//! takes; `--play` prints the next position, which reads back; `--bot` says what a bot plays and
//! why; a wrong card is pointed at with a caret; `yaku replay --position-at` prints a record's
//! position, which `yaku position` reads.

use crate::common::{TempDir, Yaku};

/// Koi-Koi, the guide's example: the Cherry curtain onto two Cherry cards asks which to take.
const CURTAIN: &str = include_str!("../positions/curtain.toml");

#[test]
fn a_written_position_shows_each_move_and_what_it_takes() {
    let dir = TempDir::new("position-show");
    let file = dir.write("curtain.toml", CURTAIN);
    let out = Yaku::new(["position", file.to_str().unwrap()]).expect(0);
    insta::assert_snapshot!("position_curtain", out.stdout);
    let out = Yaku::new(["position", file.to_str().unwrap(), "--bot", "greedy"]).expect(0);
    assert!(out.stdout.contains("greedy plays "), "{}", out.stdout);
    let out = Yaku::new(["position", file.to_str().unwrap(), "--bot", "expert:64"]).expect(0);
    assert_eq!(
        out.stdout.matches(" playouts)").count(),
        8,
        "{}",
        out.stdout
    );
    let json = Yaku::new(["position", file.to_str().unwrap(), "--json"]).expect(0);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["to_act"], 0);
    assert_eq!(v["zones"]["table"].as_array().unwrap().len(), 8);
    assert_eq!(v["moves"][2]["move"]["card"], "cherry-curtain");
}

/// The hand scored as it stands: the dealer's Hanami-zake, and what stopping now takes.
#[test]
fn a_position_scores_the_hand_as_it_stands() {
    let dir = TempDir::new("position-standing");
    let file = dir.write("hanami.toml", include_str!("../positions/hanami.toml"));
    let out = Yaku::new(["position", file.to_str().unwrap()]).expect(0);
    assert!(
        out.stdout.contains(
            "as it stands:\n  seat 0: Hanami-zake (flower viewing) 5 (base 5); 5 points if scored now\n  seat 1: no yaku\n"
        ),
        "{}",
        out.stdout
    );
    let json = Yaku::new(["position", file.to_str().unwrap(), "--json"]).expect(0);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["standing"][1], "seat 1: no yaku");
}

#[test]
fn a_move_played_gives_the_next_position() {
    let dir = TempDir::new("position-play");
    let file = dir.write("curtain.toml", CURTAIN);
    let next = Yaku::new([
        "position",
        file.to_str().unwrap(),
        "--play",
        "cherry curtain",
    ])
    .expect(0);
    assert!(
        next.stdout
            .contains("moves = [\n    { action = \"play\", card = \"cherry-curtain\" },\n]"),
        "{}",
        next.stdout
    );
    let next_file = dir.write("next.toml", &next.stdout);
    let out = Yaku::new(["position", next_file.to_str().unwrap()]).expect(0);
    assert!(
        out.stdout.contains("1. capture Cherry Poetry Ribbon")
            && out.stdout.contains("2. capture Cherry Chaff 1"),
        "{}",
        out.stdout
    );
    let out = Yaku::new(["position", file.to_str().unwrap(), "--play", "12"]).expect(2);
    assert!(
        out.stderr.contains("moves are numbered 1 to 8"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_wrong_card_is_pointed_at() {
    let dir = TempDir::new("position-wrong");
    let file = dir.write("wrong.toml", CURTAIN.replace("\"maple-1\"", "\"maple-9\""));
    let out = Yaku::new(["position", "wrong.toml"])
        .current_dir(&dir)
        .expect(1);
    insta::assert_snapshot!("position_wrong_card", out.stderr);
    drop(file);
}

#[test]
fn a_records_position_reads_back() {
    let dir = TempDir::new("position-record");
    Yaku::new([
        "play",
        "scopa",
        "--players",
        "greedy,greedy",
        "--seed",
        "5",
        "--rounds",
        "2",
        "--record",
        "game.json",
    ])
    .current_dir(&dir)
    .expect(0);
    let printed = Yaku::new(["replay", "game.json", "--position-at", "9"])
        .current_dir(&dir)
        .expect(0);
    assert!(printed.stderr.is_empty(), "{}", printed.stderr);
    assert!(
        printed.stdout.starts_with("ruleset = \"scopa\""),
        "{}",
        printed.stdout
    );
    dir.write("at9.toml", &printed.stdout);
    let out = Yaku::new(["position", "at9.toml"])
        .current_dir(&dir)
        .expect(0);
    assert!(out.stdout.contains(" to move; "), "{}", out.stdout);
    let out = Yaku::new(["replay", "game.json", "--position-at", "100000"])
        .current_dir(&dir)
        .expect(2);
    assert!(out.stderr.contains("the record holds"), "{}", out.stderr);
}

/// Hachi-Hachi: a large field carried into the month (`field_next = 2`) doubles the dealer's
/// Akatan, 84 by each other seat on a small field, to 168 by each: 336 in all, not 168. The
/// carried values are printed as the game stands, in the text and in `--json`.
#[test]
fn a_carried_field_doubles_what_the_hand_scores() {
    let text = include_str!("../positions/field.toml");
    let dir = TempDir::new("position-carried");
    let file = dir.write("field.toml", text);
    let out = Yaku::new(["position", file.to_str().unwrap()]).expect(0);
    assert!(
        out.stdout
            .contains("  carried: field = 2, field_next = 1\n")
            && out.stdout.contains(
                "seat 0: Akatan (red poetry ribbons) 84 (base 84); 336 points if scored now"
            ),
        "{}",
        out.stdout
    );
    let json = Yaku::new(["position", file.to_str().unwrap(), "--json"]).expect(0);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(
        v["carried"],
        serde_json::json!({"field": 2, "field_next": 1})
    );
    // Nothing carried: a small field, 84 by each.
    let small = dir.write("small.toml", text.replace("field_next = 2", ""));
    let out = Yaku::new(["position", small.to_str().unwrap()]).expect(0);
    assert!(
        out.stdout
            .contains("  carried: field = 1, field_next = 1\n")
            && out.stdout.contains("168 points if scored now"),
        "{}",
        out.stdout
    );
    // A misspelt value is pointed at, with the value meant.
    let wrong = dir.write(
        "wrong.toml",
        text.replace("field_next = 2", "feild_next = 2"),
    );
    let out = Yaku::new(["position", wrong.to_str().unwrap()]).expect(1);
    assert!(
        out.stderr
            .contains("error: `feild_next` is no value `hachihachi` carries")
            && out.stderr.contains("wrong.toml:19:1")
            && out.stderr.contains("help: did you mean `field_next`?"),
        "{}",
        out.stderr
    );
}

/// A condition on the game's score: the test ruleset's sweep scores a scopa at 9 points of 11
/// and none at 10 (`target_score - game_score > 1`); the title says the score a game plays to.
#[test]
fn a_sweep_near_the_target_scores_no_scopa() {
    let dir = TempDir::new("position-near-target");
    let text = include_str!("../positions/near-target.toml").replace(
        "../rulesets/near-target.toml",
        &format!(
            "{}/tests/rulesets/near-target.toml",
            env!("CARGO_MANIFEST_DIR")
        ),
    );
    let at = |scores: &str| {
        let file = dir.write(
            "near.toml",
            text.replace("scores = [9, 3]", &format!("scores = {scores}")),
        );
        Yaku::new(["position", file.to_str().unwrap()])
            .expect(0)
            .stdout
    };
    let nine = at("[9, 3]");
    assert!(nine.contains("hand 1 (to 11) · scores 9, 3"), "{nine}");
    assert!(nine.contains("Scopa +1"), "{nine}");
    let ten = at("[10, 3]");
    assert!(!ten.contains("Scopa +1"), "{ten}");
}

/// Counting out (`[flow] count_at_once`): at 9 points a sweep with the Seven of Coins brings
/// the player to 11 (the scopa and the Settebello) and the game ends in the middle of the hand.
#[test]
fn a_sweep_that_reaches_the_target_ends_the_game() {
    let dir = TempDir::new("position-count-out");
    let text = include_str!("../positions/count-out.toml").replace(
        "../rulesets/count-out.toml",
        &format!(
            "{}/tests/rulesets/count-out.toml",
            env!("CARGO_MANIFEST_DIR")
        ),
    );
    let file = dir.write("count-out.toml", &text);
    let out = Yaku::new(["position", file.to_str().unwrap()])
        .expect(0)
        .stdout;
    assert!(out.contains("hand 1 (to 11) · scores 11, 3"), "{out}");
    assert!(out.contains("Settebello +1: 1, Scopa +1: 2"), "{out}");
    assert!(out.contains("the game is over"), "{out}");
}

/// A turn that sweeps the table and takes the card the player before laid down: with
/// `turn_events_combine = "best"` only the bonus for the card just laid (2) counts, not the
/// sweep as well; counted all, both do.
#[test]
fn taking_the_card_just_laid_scores_and_only_the_best_event_counts() {
    let dir = TempDir::new("position-last-laid");
    let ruleset = format!(
        "{}/tests/rulesets/last-laid.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text =
        include_str!("../positions/last-laid.toml").replace("../rulesets/last-laid.toml", &ruleset);
    let file = dir.write("last-laid.toml", &text);
    let best = Yaku::new(["position", file.to_str().unwrap()])
        .expect(0)
        .stdout;
    assert!(best.contains("Last laid taken +2"), "{best}");
    assert!(!best.contains("Scopa +1"), "{best}");
    // The same turn with every event counting: the sweep too.
    let all = dir.write(
        "all.toml",
        format!(
            "[ruleset]\nid = \"all\"\nextends = \"{ruleset}\"\nname = \"All count (test)\"\n\n[flow]\nturn_events_combine = \"all\"\n"
        ),
    );
    let file = dir.write(
        "last-laid-all.toml",
        text.replace(&ruleset, all.to_str().unwrap()),
    );
    let every = Yaku::new(["position", file.to_str().unwrap()])
        .expect(0)
        .stdout;
    assert!(
        every.contains("Last laid taken +2") && every.contains("Scopa +1"),
        "{every}"
    );
}

/// A capture from the hand goes on up a run (`run_capture = "value"`): the Five takes the Five,
/// then the Six and the Seven; the King stays, with no 8 or 9 between.
#[test]
fn a_capture_goes_on_up_an_unbroken_run() {
    let dir = TempDir::new("position-run");
    let ruleset = format!(
        "{}/tests/rulesets/run-capture.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = include_str!("../positions/run-capture.toml")
        .replace("../rulesets/run-capture.toml", &ruleset);
    let file = dir.write("run.toml", text);
    let out = Yaku::new(["position", file.to_str().unwrap()])
        .expect(0)
        .stdout;
    assert!(
        out.contains("captured 0 (4): coins-5 cups-5 swords-6 batons-7"),
        "{out}"
    );
    assert!(out.contains("table (1): cups-king"), "{out}");
}

/// A table dealt to 15 goes to the dealer as a sweep (`[[flow.deal_bonus]]`), before anyone
/// plays; the rule sheet says so.
#[test]
fn a_table_dealt_to_the_target_is_the_dealers_sweep() {
    let dir = TempDir::new("position-deal-sweep");
    let ruleset = format!(
        "{}/tests/rulesets/deal-sweep.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = include_str!("../positions/deal-sweep.toml")
        .replace("../rulesets/deal-sweep.toml", &ruleset);
    let file = dir.write("deal-sweep.toml", text);
    let out = Yaku::new(["position", file.to_str().unwrap()])
        .expect(0)
        .stdout;
    assert!(
        out.contains("captured 1 (4): coins-ace cups-2 swords-5 batons-7"),
        "{out}"
    );
    assert!(
        out.contains("seat 1: no yaku; 1 point if scored now (Scopa +1: 1)"),
        "{out}"
    );
    assert!(out.contains("Low hand (dealt) +3"), "{out}");
    let sheet = Yaku::new(["rules", &ruleset]).expect(0).stdout;
    assert!(
        sheet.contains("Sweep at the deal: when the table is dealt cards adding up to 15, the"),
        "{sheet}"
    );
    assert!(
        sheet.contains("Dealt combinations count on every deal"),
        "{sheet}"
    );
}

/// Dealt combinations are checked on every deal of the hand (`deal_checks = "every"`): the
/// refill deals seat 0 a second Low hand, 3 more points.
#[test]
fn a_refilled_hand_is_checked_as_the_first() {
    let dir = TempDir::new("position-deal-refill");
    let ruleset = format!(
        "{}/tests/rulesets/deal-sweep.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = include_str!("../positions/deal-refill.toml")
        .replace("../rulesets/deal-sweep.toml", &ruleset);
    let file = dir.write("deal-refill.toml", &text);
    let out = Yaku::new(["position", file.to_str().unwrap()])
        .expect(0)
        .stdout;
    assert!(
        out.contains("hand 0 (3): coins-2 cups-3 batons-ace"),
        "{out}"
    );
    assert!(
        out.contains("6 points if scored now (Low hand (dealt) +3: 3, Low hand (dealt) +3: 6)"),
        "{out}"
    );
    // The first deal alone: one Low hand.
    let first = dir.write(
        "first.toml",
        format!(
            "[ruleset]\nid = \"first\"\nextends = \"{ruleset}\"\nname = \"First deal (test)\"\n\n[flow]\ndeal_checks = \"first\"\n"
        ),
    );
    let file = dir.write(
        "deal-refill-first.toml",
        text.replace(&ruleset, first.to_str().unwrap()),
    );
    let once = Yaku::new(["position", file.to_str().unwrap()])
        .expect(0)
        .stdout;
    assert!(
        once.contains("3 points if scored now (Low hand (dealt) +3: 3)"),
        "{once}"
    );
}

/// A four of a month dealt to the table goes to the dealer (`take = "in_suits_with(4)"`); the
/// rest of the table stays.
#[test]
fn a_dealt_four_of_a_month_goes_to_the_dealer() {
    let dir = TempDir::new("position-deal-four");
    let ruleset = format!(
        "{}/tests/rulesets/deal-four.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text =
        include_str!("../positions/deal-four.toml").replace("../rulesets/deal-four.toml", &ruleset);
    let file = dir.write("deal-four.toml", text);
    let out = Yaku::new(["position", file.to_str().unwrap()])
        .expect(0)
        .stdout;
    assert!(
        out.contains("captured 1 (4): pine-crane pine-ribbon pine-1 pine-2"),
        "{out}"
    );
    assert!(
        out.contains("table (4): plum-1 cherry-curtain iris-bridge rain-man"),
        "{out}"
    );
    let sheet = Yaku::new(["rules", &ruleset]).expect(0).stdout;
    assert!(
        sheet.contains("the table's cards of each month held four or more times"),
        "{sheet}"
    );
}

/// The coins left on the table at the hand's end go to the seat that took the Seven of Coins
/// (`[[flow.leftover_to]]`), the rest to the last capturer; the rule sheet says so.
#[test]
fn leftover_coins_go_to_the_settebellos_taker() {
    let dir = TempDir::new("position-leftover-to");
    let ruleset = format!(
        "{}/tests/rulesets/leftover-to.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = include_str!("../positions/leftover-to.toml")
        .replace("../rulesets/leftover-to.toml", &ruleset);
    let file = dir.write("leftover-to.toml", text);
    let out = Yaku::new(["position", file.to_str().unwrap()])
        .expect(0)
        .stdout;
    assert!(
        out.contains("seat 0 takes the table's last cards: Ace of Coins, Two of Coins\n"),
        "{out}"
    );
    assert!(
        out.contains("seat 1 takes the table's last cards: Knight of Cups, Jack of Batons\n"),
        "{out}"
    );
    let sheet = Yaku::new(["rules", &ruleset]).expect(0).stdout;
    assert!(
        sheet.contains("the player who took the Seven of Coins"),
        "{sheet}"
    );
}

/// A called partner (Issue 42): after seat 1 calls the Ace of Clubs and leads the Nine of
/// Clubs, seat 2 may only answer with the called Ace, and until it is played only seat 2 knows
/// the sides; the position after it shows every side known to all.
#[test]
fn the_called_ace_is_answered_and_the_sides_become_known() {
    let dir = TempDir::new("position-called-ace");
    let ruleset = format!(
        "{}/tests/rulesets/called-partner.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = include_str!("../positions/called-ace.toml")
        .replace("../rulesets/called-partner.toml", &ruleset);
    let file = dir.write("called-ace.toml", &text);
    let before = Yaku::new(["position", file.to_str().unwrap(), "--bot", "greedy"])
        .expect(0)
        .stdout;
    assert!(
        before.contains("seat 2 to move; 1 move:\n  1. play Ace of Clubs"),
        "{before}"
    );
    assert!(
        before.contains("seat 2: 0 points (0 from melds), 0 tricks won, on the declarer's side (known to no other seat)"),
        "{before}"
    );
    assert!(
        before.contains(
            "seat 3: 0 points (0 from melds), 0 tricks won, on the other side (known to seat 2)"
        ),
        "{before}"
    );
    let next = Yaku::new(["position", file.to_str().unwrap(), "--play", "1"])
        .expect(0)
        .stdout;
    let after_file = dir.write("after.toml", &next);
    let after = Yaku::new(["position", after_file.to_str().unwrap()])
        .expect(0)
        .stdout;
    for seat in 0..4 {
        assert!(
            after.lines().any(|l| l.starts_with(&format!("  seat {seat}:")) && l.ends_with("(known to all)")),
            "{after}"
        );
    }
}

/// Announcements (Issue 42, wall 6): after a defender's Kontra the position says who announced
/// it and the doubled stake; the declarer's partner, on its turn, is offered Re.
#[test]
fn a_position_shows_the_announcements_and_the_stake() {
    let dir = TempDir::new("position-kontra-re");
    let ruleset = format!(
        "{}/tests/rulesets/kontra-re.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text =
        include_str!("../positions/kontra-re.toml").replace("../rulesets/kontra-re.toml", &ruleset);
    let file = dir.write("kontra-re.toml", &text);
    let out = Yaku::new(["position", file.to_str().unwrap()])
        .expect(0)
        .stdout;
    assert!(
        out.contains("  announced: Kontra (seat 3) · stake ×2"),
        "{out}"
    );
    assert!(out.contains("seat 3 to move; 6 moves:"), "{out}");
}
