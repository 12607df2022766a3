//! Kol-ye-si through the real binary: a human session driven by piped input with every prompt's
//! error path, bot sessions, `sim` against `analyze`, and the validator on the bundled rules.

use crate::common::{TempDir, Yaku};

#[test]
fn a_human_plays_a_session_from_piped_input() {
    // Hand 1: bet 10, take 1. Hand 2: Enter (the minimum), then `rules`, a word, a number out of
    // range, and 2 tiles. Hand 3: `score`, `help`, a bet of 0, 3, then 1 tile.
    let input = "10\n1\n\nrules\nabc\n9\n2\nscore\nhelp\n0\n3\n1\n";
    let out = Yaku::new([
        "play",
        "kolyesi",
        "--seed",
        "5",
        "--players",
        "human,seed",
        "--rounds",
        "3",
    ])
    .stdin(input)
    .run();
    out.expect_code(0);
    let s = &out.stdout;
    assert!(s.contains("── hand 3 of 3 ──"), "{s}");
    assert_eq!(
        s.matches("showdown: the banker has").count() + s.matches("the banker shows").count(),
        3,
        "{s}"
    );
    assert!(
        s.contains("a hand's value is the total pips of the tiles modulo 10"),
        "{s}"
    );
    assert!(s.contains("`abc` is not a number or a command"), "{s}");
    assert!(
        s.contains("that is not allowed now: choose one of the numbers offered"),
        "{s}"
    );
    assert!(
        s.contains("that is not allowed now: a bet is 1 to 10 chips"),
        "{s}"
    );
    assert!(s.contains("bankrolls: player 1 (you)"), "{s}");
    assert!(s.contains("the session is over after 3 hands"), "{s}");
    // The same seed and answers give the same session.
    let again = Yaku::new([
        "play",
        "kolyesi",
        "--seed",
        "5",
        "--players",
        "human,seed",
        "--rounds",
        "3",
    ])
    .stdin(input)
    .run();
    assert_eq!(again.stdout, out.stdout);
}

#[test]
fn end_of_input_stops_the_session_with_a_summary() {
    // In a directory of its own: the end of input saves the session there.
    let dir = TempDir::new("banker-eof");
    let out = Yaku::new([
        "play",
        "kolyesi",
        "--seed",
        "1",
        "--players",
        "human,seed,always-two",
    ])
    .current_dir(&dir)
    .stdin("2\n")
    .run();
    assert!(
        dir.join("yaku-save-1.json").exists(),
        "the session is saved"
    );
    out.expect_code(0);
    assert!(
        out.stdout
            .contains("session stopped after 0 finished hands"),
        "{}",
        out.stdout
    );
}

#[test]
fn bots_play_a_whole_session_and_a_human_may_bank() {
    let out = Yaku::new([
        "play",
        "kolyesi",
        "--seed",
        "3",
        "--players",
        "seed,best,always-two,random,best-fixed",
    ])
    .run();
    out.expect_code(0);
    assert!(
        out.stdout.contains("the session is over after 20 hands"),
        "{}",
        out.stdout
    );
    let out = Yaku::new([
        "play",
        "kolyesi",
        "--seed",
        "3",
        "--players",
        "seed",
        "--banker",
        "human",
        "--rounds",
        "2",
    ])
    .stdin("\nscore\n\n")
    .run();
    out.expect_code(0);
    assert_eq!(
        out.stdout.matches("you are the banker").count(),
        3,
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("the session is over after 2 hands"),
        "{}",
        out.stdout
    );
}

#[test]
fn table_limits_and_players_come_from_the_command_line() {
    let out = Yaku::new([
        "play",
        "kolyesi",
        "--seed",
        "2",
        "--players",
        "human",
        "--min-bet",
        "5",
        "--max-bet",
        "20",
        "--rounds",
        "1",
    ])
    .stdin("4\n21\n20\n1\n")
    .run();
    out.expect_code(0);
    assert!(out.stdout.contains("bets 5 to 20 chips"), "{}", out.stdout);
    assert_eq!(
        out.stdout.matches("a bet is 5 to 20 chips").count(),
        2,
        "{}",
        out.stdout
    );
    Yaku::new([
        "play",
        "kolyesi",
        "--players",
        "seed,seed,seed,seed,seed,seed",
    ])
    .run()
    .expect_code(2);
    let out = Yaku::new(["play", "kolyesi", "--players", "wizard"]).run();
    out.expect_code(2);
    assert!(
        out.stderr.contains("players: human, random"),
        "{}",
        out.stderr
    );
    Yaku::new([
        "play",
        "kolyesi",
        "--players",
        "seed",
        "--min-bet",
        "9",
        "--max-bet",
        "3",
    ])
    .run()
    .expect_code(2);
}

/// The Monte Carlo of `sim` and the exact figure of `analyze` agree: the exact expected value of
/// each strategy lies within the simulation's 95% interval.
#[test]
fn sim_agrees_with_analyze_within_the_confidence_interval() {
    let sim = Yaku::new([
        "sim",
        "kolyesi",
        "--players",
        "seed,always-two,best",
        "--games",
        "500",
        "--seed",
        "11",
        "--json",
    ])
    .run();
    sim.expect_code(0);
    let report: serde_json::Value = serde_json::from_str(&sim.stdout).unwrap();
    assert_eq!(report["games"], 500);
    assert_eq!(report["rounds"], 500 * 20);
    for seat in report["seats"].as_array().unwrap() {
        let name = seat["player"].as_str().unwrap();
        let exact = Yaku::new(["analyze", "kolyesi", "--strategy", name, "--json"]).run();
        exact.expect_code(0);
        let exact: serde_json::Value = serde_json::from_str(&exact.stdout).unwrap();
        let ev = exact["ev"].as_f64().unwrap();
        let mean = seat["points_per_round"]["mean"].as_f64().unwrap();
        let ci = seat["points_per_round"]["ci95"].as_f64().unwrap();
        assert!(
            (mean - ev).abs() <= ci,
            "{name}: simulated {mean:.4} ± {ci:.4}, exact {ev:.4}"
        );
        for key in ["wins", "losses", "draws"] {
            assert!(seat[key].is_u64(), "{key}");
        }
    }
    assert!(report["house"]["mean"].is_f64());
}

#[test]
fn sim_is_the_same_on_any_number_of_threads() {
    let run = |t: &str| {
        Yaku::new([
            "sim",
            "kolyesi",
            "--players",
            "seed,random",
            "--games",
            "40",
            "--threads",
            t,
            "--json",
        ])
        .run()
        .stdout
    };
    assert_eq!(run("1"), run("2"));
}

/// The strategy example of the guide is a valid strategy table.
#[test]
fn the_guide_strategy_example_validates() {
    let readme =
        std::fs::read_to_string(crate::common::root().join("docs/src/analysts/kolyesi.md"))
            .unwrap();
    let start = readme
        .find("```toml\n[strategy]")
        .expect("the guide shows a strategy table")
        + "```toml\n".len();
    let text = &readme[start..start + readme[start..].find("```").unwrap()];
    let dir = TempDir::new("readme-strategy");
    let file = dir.join("cautious.toml");
    std::fs::write(&file, text).unwrap();
    let out = Yaku::new(["validate", file.to_str().unwrap()]).run();
    out.expect_code(0);
    Yaku::new(["analyze", "kolyesi", "--strategy", file.to_str().unwrap()])
        .run()
        .expect_code(0);
}

/// Regressions from a QA pass: a human banker plays against bots (not also at a seat), limits
/// above the chips a player starts with are refused, an empty line at the tiles prompt gets a
/// reason, a strategy file's player is shown by the strategy's name, and piped input is echoed.
#[test]
fn qa_regressions_of_the_banker_session() {
    let out = Yaku::new([
        "play", "kolyesi", "--banker", "human", "--seed", "4", "--rounds", "1",
    ])
    .stdin("\n")
    .run();
    out.expect_code(0);
    assert!(!out.stdout.contains("(you)"), "{}", out.stdout);
    assert!(out.stdout.contains("player 1 (seed)"), "{}", out.stdout);
    let out = Yaku::new([
        "play",
        "kolyesi",
        "--players",
        "human",
        "--min-bet",
        "1000",
        "--max-bet",
        "2000",
    ])
    .run();
    out.expect_code(2);
    assert!(
        out.stderr.contains("more than a player's starting chips"),
        "{}",
        out.stderr
    );
    let strategy = crate::common::root().join("rulesets/strategies/always-two.toml");
    let out = Yaku::new([
        "play",
        "kolyesi",
        "--seed",
        "2",
        "--rounds",
        "1",
        "--players",
    ])
    .arg(format!("human,{}", strategy.display()))
    .stdin("1\n\n2\n")
    .run();
    out.expect_code(0);
    assert!(
        out.stdout.contains("type how many more tiles to take"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("player 2 (always-two)"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("> 1\n"), "{}", out.stdout);
    assert!(
        out.stdout.contains("the session is over after 1 hand\n"),
        "{}",
        out.stdout
    );
}

/// A banker session is recorded, replayed, saved on quit and resumed, like every family's game
/// (issue 8: `yaku play kolyesi --record x.json` wrote nothing before).
#[test]
fn a_session_is_recorded_replayed_saved_and_resumed() {
    let dir = TempDir::new("banker-record");
    let out = Yaku::new([
        "play",
        "kolyesi",
        "--seed",
        "3",
        "--players",
        "human,seed",
        "--rounds",
        "3",
        "--record",
        "k.json",
    ])
    .current_dir(&dir)
    .stdin("2\n1\n\n2\n")
    .run();
    out.expect_code(0);
    assert!(
        out.stdout.contains("game saved to yaku-save-3.json"),
        "{}",
        out.stdout
    );
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("k.json")).unwrap()).unwrap();
    assert_eq!(record["version"], 2);
    assert_eq!(record["actions"][0]["action"], "bet");
    assert_eq!(record["actions"][0]["amount"], 2);
    let replay = Yaku::new(["replay", "k.json", "--json"])
        .current_dir(&dir)
        .run();
    replay.expect_code(0);
    let v: serde_json::Value = serde_json::from_str(&replay.stdout).unwrap();
    assert_eq!(
        v["rounds"][0]["end"]
            .as_str()
            .map(|e| e == "showdown" || e == "banker_win"),
        Some(true)
    );
    assert_eq!(v["finished"], false);
    // Resume where the input ran out and play the last hand to the end.
    let resumed = Yaku::new(["play", "--resume", "yaku-save-3.json"])
        .current_dir(&dir)
        .stdin("\n1\n\n1\n\n1\n")
        .run();
    resumed.expect_code(0);
    assert!(
        resumed.stdout.contains("resumed from"),
        "{}",
        resumed.stdout
    );
    assert!(
        resumed.stdout.contains("the session is over after 3 hands"),
        "{}",
        resumed.stdout
    );
}

/// `yaku analyze` on a user's banker ruleset with a deck of its own: the best strategies are
/// computed from the odds (before, loading the bundled Gu Pai tables panicked, exit 101).
#[test]
fn analyze_a_ruleset_with_its_own_deck() {
    let dir = TempDir::new("analyze-deck");
    let deck = std::fs::read_to_string(crate::common::root().join("rulesets/decks/gupai.toml"))
        .unwrap()
        .replace("id = \"gupai\"", "id = \"mytiles\"");
    std::fs::write(dir.join("mydeck.toml"), deck).unwrap();
    std::fs::write(
        dir.join("mybank.toml"),
        "[ruleset]\nid = \"mybank\"\nextends = \"kolyesi\"\ndeck = \"mydeck.toml\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("mine.toml"),
        "[strategy]\nname = \"mine\"\ndeck = \"mytiles\"\nbet = \"min\"\ndraw = 1\n",
    )
    .unwrap();
    let out = Yaku::new([
        "analyze",
        "mybank.toml",
        "--strategy",
        "mine.toml",
        "--json",
    ])
    .current_dir(&dir)
    .run();
    out.expect_code(0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    // The same tiles as Kol-ye-si's, so the same exact values.
    assert_eq!(v["best_fixed_bet"]["ev_exact"], "5591/1208256");
    assert_eq!(v["best_limited_bets"]["ev_exact"], "1065691/6041280");
}

/// Issue 29: a seat was counted a winner when its bankroll ended above zero. Wins, losses and
/// pushes are hands, and add up to the hands played.
#[test]
fn sim_counts_hands_won_lost_and_pushed() {
    let sim = Yaku::new([
        "sim",
        "kolyesi",
        "--players",
        "always-two",
        "--games",
        "50",
        "--json",
    ])
    .run();
    sim.expect_code(0);
    let report: serde_json::Value = serde_json::from_str(&sim.stdout).unwrap();
    let seat = &report["seats"][0];
    let count = |k: &str| seat[k].as_u64().unwrap();
    assert_eq!(count("wins") + count("losses") + count("draws"), 50 * 20);
    assert!(count("losses") > 0 && count("draws") > 0);
    // The bankroll is reported apart: the mean final score.
    assert!(seat["score_per_game"]["mean"].as_f64().unwrap() > 0.0);
    let text = Yaku::new(["sim", "kolyesi", "--players", "always-two", "--games", "5"]).run();
    assert!(text.stdout.contains("hands won"), "{}", text.stdout);
    assert!(
        text.stdout.contains("bankroll at the end"),
        "{}",
        text.stdout
    );
}

/// Issue 29: with two first tiles, the per-first-tile table had one row per suit, picked from
/// any first hand of that suit. It is now one row per value of the first tiles.
#[test]
fn analyze_groups_two_first_tiles_by_their_value() {
    let out = Yaku::new([
        "analyze",
        "kolyesi",
        "--set",
        "flow.first_tiles=2",
        "--json",
    ])
    .run();
    out.expect_code(0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let rows = v["first_hands_by_value"].as_array().unwrap();
    let values: Vec<i64> = rows.iter().map(|r| r["value"].as_i64().unwrap()).collect();
    assert_eq!(values, (0..10).collect::<Vec<_>>());
    let hands: u64 = rows.iter().map(|r| r["hands"].as_u64().unwrap()).sum();
    assert_eq!(hands, 32 * 31 / 2);
}

/// Baccarat through the binary: the published house edges as `analyze` prints them, another
/// shoe by `--packs`, a session of bots, and the rule sheet's drawing rules.
#[test]
fn baccarat_is_analysed_played_and_described() {
    let out = Yaku::new(["analyze", "baccarat"]).run();
    out.expect_code(0);
    for edge in ["-1.2351%", "-1.0579%", "-14.3596%"] {
        assert!(out.stdout.contains(edge), "{edge}:\n{}", out.stdout);
    }
    let six = Yaku::new(["analyze", "baccarat", "--packs", "6", "--json"]).run();
    six.expect_code(0);
    let v: serde_json::Value = serde_json::from_str(&six.stdout).unwrap();
    assert_eq!(v["cards"], 312);
    assert_eq!(v["bets"][1]["ev_exact"], "-460294100/43594702723");
    let play = Yaku::new([
        "play",
        "baccarat",
        "--players",
        "greedy,random",
        "--seed",
        "4",
        "--rounds",
        "5",
    ])
    .run();
    play.expect_code(0);
    assert!(
        play.stdout.contains("stakes 20 on Banker"),
        "{}",
        play.stdout
    );
    assert!(play.stdout.contains("drawing: "), "{}", play.stdout);
    let rules = Yaku::new(["rules", "baccarat"]).run();
    rules.expect_code(0);
    assert!(
        rules
            .stdout
            .contains("Banker draws on 3 unless the player's third card is 8")
    );
    let bad = Yaku::new(["analyze", "kolyesi", "--packs", "6"]).run();
    bad.expect_code(2);
    // The banker's 3 against the player's third card of 8 stands (wikipedia "Banker's rule").
    let score = Yaku::new([
        "score",
        "baccarat",
        "--captured",
        "hearts-ace,hearts-two,clubs-eight",
        "--opponent-captured",
        "hearts-three,spades-king",
    ])
    .run();
    score.expect_code(0);
    assert!(
        score.stdout.contains(
            "banker: Three of Hearts, King of Spades = 3; by the rules it stands (Banker stands)"
        ),
        "{}",
        score.stdout
    );
    assert!(
        score
            .stdout
            .contains("player loses, banker wins, tie loses")
    );
    // A card twice is two packs' copies; more copies than the shoe holds is an error.
    let twice = Yaku::new([
        "score",
        "baccarat",
        "--set",
        "flow.shoe_packs=1",
        "--captured",
        "hearts-four,hearts-four",
        "--opponent-captured",
        "spades-king,clubs-seven",
    ])
    .run();
    twice.expect_code(1);
    assert!(
        twice
            .stderr
            .contains("listed more often than the shoe's 1 pack(s) hold it")
    );
}

/// Oicho-Kabu through the binary: the exact analysis of its drawing rules (the best choice at
/// each total left to the player, the banker's edge), a session of the bots that play from it,
/// a record replayed, the special hands scored and the rule sheet.
#[test]
fn oicho_kabu_is_analysed_played_and_described() {
    let out = Yaku::new(["analyze", "oicho-kabu"]).run();
    out.expect_code(0);
    for line in [
        "the banker's first cards win every bet at once: 2.0513%   4/195",
        "the banker's edge: +2.6515%   20087/757575",
        "total 4: stand -6670/13357, take 1 -1162264/4207455",
        "total 5: stand -9839/25308, take 1 -64114/221445",
        "total 6: stand -21631/120213, take 1 -236609/841491",
    ] {
        assert!(out.stdout.contains(line), "{line}:\n{}", out.stdout);
    }
    let json = Yaku::new(["analyze", "oicho-kabu", "--json"]).run();
    json.expect_code(0);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let best: Vec<(i64, u64)> = v["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["total"].as_i64().unwrap(), t["best"].as_u64().unwrap()))
        .collect();
    assert_eq!(best, [(4, 1), (5, 1), (6, 0)]);
    // The analysis gives the best choices: a strategy asked of it is refused, not ignored.
    let refused = Yaku::new(["analyze", "oicho-kabu", "--strategy", "best"]).run();
    refused.expect_code(2);
    assert!(
        refused
            .stderr
            .contains("is analysed for the best choice at each total, not for a strategy"),
        "{}",
        refused.stderr
    );
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("oicho.json");
    let play = Yaku::new([
        "play",
        "oicho-kabu",
        "--players",
        "greedy,random,best",
        "--seed",
        "3",
        "--rounds",
        "2",
        "--record",
        record.to_str().unwrap(),
    ])
    .run();
    play.expect_code(0);
    // Each rule with whose hand it was read for, a hand's rules together.
    for expected in [
        "drawing: player 1 (greedy): The second card, Choose on 4-6; player 3 (best): The second card, Choose on 4-6\n",
        "drawing: player 2 (random): The second card, Choose on 4-6; player 3 (best): The second card, Draw on 0-3; banker: Banker draws on 0-5\n",
    ] {
        assert!(play.stdout.contains(expected), "{}", play.stdout);
    }
    let replay = Yaku::new(["replay", record.to_str().unwrap()]).run();
    replay.expect_code(0);
    let kuppin = Yaku::new(["score", "oicho-kabu", "--captured", "nine-a,one-a"]).run();
    kuppin.expect_code(0);
    // Named as the screen names it.
    assert!(
        kuppin.stdout.contains("value Kuppin (10)"),
        "{}",
        kuppin.stdout
    );
    let arashi = Yaku::new(["score", "oicho-kabu", "--captured", "two-a,two-b,two-c"]).run();
    arashi.expect_code(0);
    assert!(
        arashi.stdout.contains("value Arashi (20)"),
        "{}",
        arashi.stdout
    );
    let rules = Yaku::new(["rules", "oicho-kabu"]).run();
    rules.expect_code(0);
    assert!(rules.stdout.contains("Shippin (4-1)"));
    assert!(rules.stdout.contains("9 is Kabu"), "{}", rules.stdout);
    // The showdown names each hand by `[[flow.hand_name]]`: `Kabu (9)`, not `9 points`.
    assert!(!play.stdout.contains(" points"), "{}", play.stdout);
}

/// Issue 29: `yaku sim` on a banker game seated two players whatever `[flow] players` said.
/// Without `--players` it seats the ruleset's number: greedy, then random.
#[test]
fn sim_seats_the_rulesets_players() {
    for (ruleset, seats) in [("kolyesi", 3), ("baccarat", 1), ("oicho-kabu", 3)] {
        let sim = Yaku::new(["sim", ruleset, "--games", "2", "--json"]).run();
        sim.expect_code(0);
        let report: serde_json::Value = serde_json::from_str(&sim.stdout).unwrap();
        assert_eq!(
            report["seats"].as_array().unwrap().len(),
            seats,
            "{ruleset}"
        );
    }
}

/// The guide's strategy by total and by hand validates and plays Oicho-Kabu.
#[test]
fn the_guide_strategy_by_total_validates_and_plays() {
    let page = std::fs::read_to_string(crate::common::root().join("docs/src/analysts/kolyesi.md"))
        .unwrap();
    let start = page
        .find("```toml\n[strategy]\nname = \"stand-on-six\"")
        .expect("the guide shows a strategy by total")
        + "```toml\n".len();
    let text = &page[start..start + page[start..].find("```").unwrap()];
    let dir = TempDir::new("guide-strategy-total");
    dir.write("stand-on-six.toml", text);
    Yaku::new(["validate", "stand-on-six.toml"])
        .current_dir(&dir)
        .run()
        .expect_code(0);
    let sim = Yaku::new([
        "sim",
        "oicho-kabu",
        "--players",
        "stand-on-six.toml,best,always-one",
        "--games",
        "3",
        "--json",
    ])
    .current_dir(&dir)
    .run();
    sim.expect_code(0);
    let report: serde_json::Value = serde_json::from_str(&sim.stdout).unwrap();
    assert_eq!(report["seats"].as_array().unwrap().len(), 3);
}

/// Oicho-Kabu's bank passes among the seats, through the binary: to a player who beats the
/// banker with kabu, and in turn after five hands with one banker (`[flow.bank]`); the header
/// says who banks first, each showdown who banked, and a recorded session replays.
#[test]
fn oicho_kabu_passes_the_bank_in_play() {
    let dir = TempDir::new("oicho-bank");
    let out = Yaku::new([
        "play",
        "oicho-kabu",
        "--players",
        "greedy,random,random",
        "--seed",
        "4",
        "--rounds",
        "7",
        "--record",
        "bank.json",
    ])
    .current_dir(&dir)
    .run();
    out.expect_code(0);
    let text = &out.stdout;
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains("3 players, one of them banking (player 1 first; the bank passes)"),
        "{text}"
    );
    // Who banked each hand, and where the bank went after it.
    let mut bankers = Vec::new();
    let mut passes = Vec::new();
    for hand in text.split("── hand ").skip(1) {
        let banker = hand
            .lines()
            .filter(|l| l.contains(" banks: "))
            .find_map(|l| {
                l.trim()
                    .strip_prefix("player ")?
                    .split_once(' ')?
                    .0
                    .parse::<u32>()
                    .ok()
            })
            .expect("each showdown names the banker");
        bankers.push(banker);
        passes.push(hand.lines().find_map(|l| {
            l.strip_prefix("the bank passes to player ")?
                .split_once(' ')?
                .0
                .parse::<u32>()
                .ok()
        }));
        // A pass to a player for kabu: that player's hand is kabu, and the banker's is not.
        if let Some(to) = passes.last().copied().flatten()
            && banker != to
            && bankers.iter().filter(|&&b| b == banker).count() < 5
        {
            let line = hand
                .lines()
                .find(|l| l.starts_with(&format!("  player {to} (")) && l.contains(", bet "))
                .expect("the new banker's hand");
            assert!(line.contains("= Kabu (9)"), "{line}");
        }
    }
    // Player 3's kabu takes the bank from player 1, player 2's from player 3; player 2 then
    // banks five hands and passes the bank in turn, to player 3.
    assert_eq!(bankers, [1, 3, 2, 2, 2, 2, 2], "{text}");
    assert_eq!(
        passes,
        [Some(3), Some(2), None, None, None, None, Some(3)],
        "{text}"
    );
    Yaku::new(["replay", "bank.json", "--to-end"])
        .current_dir(&dir)
        .run()
        .expect_code(0);
}

/// `yaku sim` reports the house's result only where a house banks: not in a pot game, nor
/// where a seat banks (the house's row was always 0 there).
#[test]
fn sim_reports_a_house_only_where_one_banks() {
    for (ruleset, house) in [
        ("kolyesi", true),
        ("baccarat", true),
        ("oicho-kabu", false),
        ("seotda", false),
    ] {
        let text = Yaku::new(["sim", ruleset, "--games", "2"]).run();
        text.expect_code(0);
        assert_eq!(
            text.stdout.contains("house (banker)"),
            house,
            "{}",
            text.stdout
        );
        assert!(text.stdout.contains("chips per hand"), "{}", text.stdout);
        let json = Yaku::new(["sim", ruleset, "--games", "2", "--json"]).run();
        let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
        assert_eq!(report.get("house").is_some(), house, "{ruleset}");
    }
}

/// The test game that draws to 17 and ranks a bust below every other hand (issue 47).
fn draw_to_17() -> String {
    crate::common::root()
        .join("tests/rulesets/draw-to-17.toml")
        .to_string_lossy()
        .into_owned()
}

/// Issue 47, fault 1: the per-seat showdown ranks by `[[flow.hand_rank]]`. In a session of bots,
/// `yaku play` shows each hand's rank, a bust never wins, and a hand that stands always beats a
/// banker who busts.
#[test]
fn play_ranks_every_showdown_a_bust_never_wins() {
    let out = Yaku::new([
        "play",
        &draw_to_17(),
        "--players",
        "random,random",
        "--seed",
        "3",
        "--rounds",
        "40",
    ])
    .run();
    out.expect_code(0);
    let (mut banker_busts, mut busts) = (false, 0);
    for line in out.stdout.lines() {
        if line.starts_with("showdown: the banker has") {
            banker_busts = line.ends_with("(Bust)");
            assert!(banker_busts || line.ends_with("(Stands)"), "{line}");
        } else if line.contains("(Bust), bet") {
            busts += 1;
            assert!(!line.contains(": wins"), "{line}");
        } else if line.contains("(Stands), bet") && banker_busts {
            assert!(line.contains(": wins"), "{line}");
        }
    }
    assert!(busts > 0, "{}", out.stdout);
}

/// Issue 47, fault 2: `greedy` plays a game that draws to 17 from the exact odds, worked out
/// once before the first game: 10,000 hands finish, and what each seat wins agrees with the
/// exact figure of `yaku analyze` (the largest bet on a favourable first hand).
#[test]
fn a_greedy_simulation_of_a_game_that_draws_to_17_agrees_with_analyze() {
    let sim = Yaku::new([
        "sim",
        &draw_to_17(),
        "--players",
        "greedy,greedy",
        "--games",
        "500",
        "--json",
    ])
    .run();
    sim.expect_code(0);
    let report: serde_json::Value = serde_json::from_str(&sim.stdout).unwrap();
    assert_eq!(report["rounds"], 10_000);
    let exact = Yaku::new(["analyze", &draw_to_17(), "--json"]).run();
    exact.expect_code(0);
    let exact: serde_json::Value = serde_json::from_str(&exact.stdout).unwrap();
    // Both hands play one rule from one pack, and two busts are equal: a fair game.
    assert_eq!(exact["player"]["ev_exact"], "0");
    let ev = exact["best_with_limits"]["ev"].as_f64().unwrap();
    for seat in report["seats"].as_array().unwrap() {
        let mean = seat["points_per_round"]["mean"].as_f64().unwrap();
        let ci = seat["points_per_round"]["ci95"].as_f64().unwrap();
        assert!(
            (mean - ev).abs() <= ci,
            "simulated {mean:.4} ± {ci:.4}, exact {ev:.4}"
        );
    }
}

/// Issue 47, fault 2: the size of an analysis of hands per seat is counted before it starts, and
/// one over `--max-deals` is refused at once with its size and the flag that allows it.
#[test]
fn analyze_refuses_a_draw_to_17_over_max_deals_before_it_starts() {
    let out = Yaku::new(["analyze", &draw_to_17(), "--max-deals", "10"]).run();
    out.expect_code(2);
    assert!(
        out.stderr.contains(
            "plays out up to 9624236 banker's hands (2801 player's hands against 3436 banker's hands)"
        ),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("`--max-deals 9624236` runs it anyway"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty());
}

/// Issue 47, fault 2: a bot that plays from the exact odds is refused, before any game, on a
/// game whose odds are out of reach (drawing to 40 on a value that reads the cards' suits, so
/// that no two cards are alike), with the bots that need none.
#[test]
fn a_bot_whose_odds_are_out_of_reach_is_refused_before_play() {
    let dir = TempDir::new("draw-to-40");
    let text = std::fs::read_to_string(draw_to_17())
        .unwrap()
        .replace("id = \"draw-to-17\"", "id = \"draw-to-40\"")
        .replace("< 17\"", "< 40\"")
        .replace(
            "value = \"hand_points\"",
            "value = \"hand_points + count(hearts)\"",
        );
    let path = dir.write("draw-to-40.toml", text);
    let out = Yaku::new([
        "sim",
        path.to_str().unwrap(),
        "--players",
        "greedy,random",
        "--games",
        "1",
    ])
    .run();
    out.expect_code(2);
    assert!(
        out.stderr
            .contains("bot `greedy` cannot play: it plays from the exact odds of every hand"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("bots that need no odds: random"));
    let analyze = Yaku::new(["analyze", path.to_str().unwrap()]).run();
    analyze.expect_code(2);
    assert!(
        analyze.stderr.contains("plays out more than"),
        "{}",
        analyze.stderr
    );
}

/// A strategy that takes more tiles than its game allows is refused by `yaku analyze` at the
/// `draw` that says so, with the file's line and column (issue 47, item 8), as `yaku validate`
/// does against the bundled games of its deck.
#[test]
fn a_strategy_drawing_more_than_the_game_allows_is_located() {
    let dir = TempDir::new("strategy-draw");
    let path = dir.write(
        "three.toml",
        "[strategy]\nname = \"three\"\ndeck = \"gupai\"\nbet = \"min\"\n# one tile too many\ndraw = 3\n",
    );
    let out = Yaku::new(["analyze", "kolyesi", "--strategy", path.to_str().unwrap()]).run();
    out.expect_code(1);
    assert!(
        out.stderr.contains(
            "three.toml:6:1: strategy `three` takes 3 more tile(s), but `kolyesi` allows 1 or 2"
        ),
        "{}",
        out.stderr
    );
}

/// Arranged hands (`[flow.arrange]`, `tests/rulesets/arrange.toml`) through the binary: a human
/// arranges by number and by the house way (Enter), a wrong number is refused, the record
/// replays, and `yaku score` lists a hand's arrangements (issue 47, wall 3).
#[test]
fn arranged_hands_are_played_recorded_replayed_and_scored() {
    let dir = TempDir::new("banker-arrange");
    let rules = crate::common::root().join("tests/rulesets/arrange.toml");
    let rules = rules.to_str().unwrap();
    // Hand 1: bet 5, a number out of range, then the first arrangement. Hand 2: the minimum,
    // then the house way.
    let out = Yaku::new([
        "play",
        rules,
        "--seed",
        "3",
        "--players",
        "human,greedy",
        "--rounds",
        "2",
        "--record",
        "a.json",
    ])
    .current_dir(&dir)
    .stdin("5\n99\n1\n\n\n")
    .run();
    out.expect_code(0);
    let s = &out.stdout;
    assert!(s.contains("arrange them: which? (1 to"), "{s}");
    assert!(s.contains("type the number of an arrangement, 1 to"), "{s}");
    assert!(s.contains("player 2 (greedy) arranges their hands"), "{s}");
    assert_eq!(
        s.matches("showdown: the banker arranges by the house way High hand")
            .count(),
        2,
        "{s}"
    );
    assert!(s.contains("the session is over after 2 hands"), "{s}");
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("a.json")).unwrap()).unwrap();
    let actions = record["actions"].as_array().unwrap();
    assert_eq!(
        actions.iter().filter(|a| a["action"] == "play_set").count(),
        4
    );
    let replay = Yaku::new(["replay", "a.json", "--json"])
        .current_dir(&dir)
        .run();
    replay.expect_code(0);
    let v: serde_json::Value = serde_json::from_str(&replay.stdout).unwrap();
    assert_eq!(v["finished"], true);
    let score = Yaku::new([
        "score",
        rules,
        "--captured",
        "pine-crane,pine-ribbon,peony-butterflies,clover-boar",
        "--json",
    ])
    .run();
    score.expect_code(0);
    let v: serde_json::Value = serde_json::from_str(&score.stdout).unwrap();
    let ways = v["arrangements"].as_array().unwrap();
    assert_eq!(ways.len(), 3);
    assert_eq!(ways[0]["house_way"], true);
    assert_eq!(ways[0]["hands"][0]["rank"], "Pair of 1");
    // `yaku analyze` says it does not enumerate them.
    let analyze = Yaku::new(["analyze", rules]).run();
    assert_ne!(analyze.code, 0);
    assert!(analyze.stderr.contains("arranged"), "{}", analyze.stderr);
}
