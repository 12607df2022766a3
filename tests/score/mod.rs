//! `yaku score` and `yaku analyze` through the real binary: the documented examples, JSON shapes,
//! errors, and hands played through the core scoring the same on the command line.

use crate::common::{TempDir, Yaku};
use std::sync::Arc;
use yaku::agent::{Agent, RandomAgent, agent_rng};
use yaku::core::{Action, Game as _, StartOptions};
use yaku::families::matching::ends;

const TWELVE_PLAINS_THREE_BLUE: &str = "pine-1,pine-2,plum-1,plum-2,cherry-1,cherry-2,wisteria-1,wisteria-2,iris-1,iris-2,peony-1,peony-2,peony-blue,chrysanthemum-blue,maple-blue";

#[test]
fn source_002_worked_example_scores_18() {
    let out = Yaku::new([
        "score",
        "koikoi-ktane",
        "--koikoi",
        "1",
        "--captured",
        TWELVE_PLAINS_THREE_BLUE,
    ])
    .run();
    out.expect_code(0);
    insta::assert_snapshot!(out.stdout);
    let json = Yaku::new([
        "score",
        "koikoi-ktane",
        "--koikoi",
        "1",
        "--json",
        "--captured",
        TWELVE_PLAINS_THREE_BLUE,
    ])
    .run();
    json.expect_code(0);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["base"], 9);
    assert_eq!(v["total"], 18);
    let ids: Vec<&str> = v["yaku"]
        .as_array()
        .unwrap()
        .iter()
        .map(|y| y["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["plains", "blue-ribbons"]);
    assert_eq!(v["yaku"][0]["points"], 3);
    assert!(v["yaku"][0]["name"].is_string());
}

#[test]
fn doublings_are_explained_step_by_step() {
    // Three brights and both viewing yaku: 15 points, x2 for 7 or more, x2 for the opponent's call.
    let out = Yaku::new([
        "score",
        "koikoi",
        "--opponent-koikoi",
        "1",
        "--captured",
        "pampas-moon,chrysanthemum-sake,cherry-curtain,pine-crane",
    ])
    .run();
    out.expect_code(0);
    insta::assert_snapshot!(out.stdout);
    let last = out.stdout.lines().last().unwrap();
    assert!(
        last.trim_start().starts_with("total") && last.ends_with(" 60"),
        "{}",
        out.stdout
    );
}

#[test]
fn classic_multipliers_on_the_command_line() {
    let out = Yaku::new([
        "score",
        "koikoi-classic",
        "--table-count",
        "2",
        "--koikoi",
        "1",
        "--json",
        "--captured",
        "pampas-moon,chrysanthemum-sake",
    ])
    .run();
    out.expect_code(0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    // Tsukimi-zake 5, x3 for two brights on the table, x2 for one koi-koi.
    assert_eq!(v["total"], 30);
    assert_eq!(v["multipliers"].as_array().unwrap().len(), 2);
}

#[test]
fn unknown_and_repeated_cards_are_errors_with_suggestions() {
    let out = Yaku::new(["score", "koikoi", "--captured", "pampas-mon,pine-1"]).run();
    out.expect_code(1);
    assert!(
        out.stderr.contains("unknown card `pampas-mon`"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("did you mean `pampas-moon`?"),
        "{}",
        out.stderr
    );
    let out = Yaku::new(["score", "koikoi", "--captured", "pine-1,pine-1"]).run();
    out.expect_code(1);
    assert!(out.stderr.contains("listed twice"), "{}", out.stderr);
    let out = Yaku::new(["score", "koikoi-kitane", "--captured", "pine-1"]).run();
    out.expect_code(1);
    assert!(
        out.stderr.contains("did you mean `koikoi-ktane`?"),
        "{}",
        out.stderr
    );
    Yaku::new(["score", "koikoi"]).run().expect_code(2);
    // A round outside the game is a usage error, not a silent score.
    for round in ["0", "13"] {
        let out = Yaku::new([
            "score",
            "koikoi-ktane",
            "--rounds",
            "12",
            "--round",
            round,
            "--captured",
            "pine-1",
        ])
        .run();
        out.expect_code(2);
        assert!(
            out.stderr.contains("is not a round of this game"),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn cards_may_be_given_by_name_or_month_and_index() {
    let by_id = Yaku::new([
        "score",
        "koikoi",
        "--json",
        "--captured",
        "pampas-moon,chrysanthemum-sake",
    ])
    .run();
    let by_name = Yaku::new(["score", "koikoi", "--json", "--captured", "Moon,9:1"]).run();
    by_name.expect_code(0);
    assert_eq!(by_id.stdout, by_name.stdout);
}

#[test]
fn a_banker_hand_shows_its_value() {
    let out = Yaku::new(["score", "kolyesi", "--captured", "[6:5],tiger-head-b"]).run();
    // `[6:5]` names two tiles, so it is not a single card: use ids.
    assert_eq!(out.code, 1, "{}", out.stdout);
    let out = Yaku::new([
        "score",
        "kolyesi",
        "--json",
        "--captured",
        "tiger-head-a,tiger-head-b",
    ])
    .run();
    out.expect_code(0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["value"], 2);
    assert_eq!(v["banker_wins_at_once"], "civil-pair");
}

/// A hand played by actions (Blackjack): the actions open against the banker's up card, the
/// banker's drawing rule and what settles the hand if both stand.
#[test]
fn a_blackjack_hand_shows_its_actions_and_payout() {
    let out = Yaku::new([
        "score",
        "blackjack",
        "--json",
        "--captured",
        "hearts-eight,spades-eight",
        "--opponent-captured",
        "hearts-ace,hearts-six",
    ])
    .run();
    out.expect_code(0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        v["player"]["actions"],
        serde_json::json!(["hit", "stand", "double", "split"])
    );
    assert_eq!(v["banker"]["soft"], true);
    assert_eq!(v["banker"]["draws"], false);
    assert_eq!(v["if_both_stand"]["outcome"], "loses the stake");
    let out = Yaku::new([
        "score",
        "blackjack",
        "--captured",
        "hearts-ace,hearts-king",
        "--opponent-captured",
        "hearts-nine,hearts-seven",
    ])
    .run();
    out.expect_code(0);
    assert!(
        out.stdout.contains("wins 3 to 2 (Blackjack pays 3 to 2)"),
        "{}",
        out.stdout
    );
}

/// Hands won in random games through the core score exactly what `yaku score` prints for the same
/// capture pile and calls (issue 3's property, through the binary on a sample of hands).
#[test]
fn hands_played_through_the_core_score_the_same_on_the_command_line() {
    for name in ["koikoi", "koikoi-ktane", "koikoi-classic"] {
        // A few stops per ruleset: each costs a run of the binary.
        let mut checked = 0;
        let ruleset = Arc::new(yaku::ruleset::load(name).value.unwrap());
        for seed in 0..40u64 {
            let mut game = yaku::families::matching::start(
                Arc::clone(&ruleset),
                StartOptions {
                    seed,
                    ..StartOptions::default()
                },
            )
            .unwrap();
            let mut rng = agent_rng(seed);
            let mut agent = RandomAgent;
            while let Some(seat) = game.to_act() {
                let legal = game.legal();
                let action = agent.choose(&game, seat, &legal, &mut rng);
                let stop = matches!(action, Action::Declare { decl, .. }
                    if ruleset.declarations[decl.0 as usize].effect == "stop");
                if !stop || checked >= 4 {
                    game.apply(action).unwrap();
                    continue;
                }
                let pile = ruleset.deck.ids(game.captured(seat)).join(",");
                let c = game.circumstances(seat);
                let hands = game.history().len();
                game.apply(action).unwrap();
                let record = &game.history()[hands];
                assert_eq!(record.end, ends::STOP);
                let out = Yaku::new(
                    [
                        "score".to_string(),
                        name.to_string(),
                        "--json".into(),
                        "--captured".into(),
                        pile,
                        "--koikoi".into(),
                        c.calls_self.to_string(),
                        "--opponent-koikoi".into(),
                        c.calls_opponent.to_string(),
                        "--table-count".into(),
                        c.table_count.to_string(),
                        "--round".into(),
                        c.round.to_string(),
                        "--rounds".into(),
                        c.rounds.to_string(),
                    ]
                    .into_iter()
                    .chain(c.dealer.then(|| "--dealer".to_string())),
                )
                .run();
                out.expect_code(0);
                let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
                assert_eq!(
                    v["total"], record.points[seat],
                    "{name} seed {seed}: {}",
                    out.stdout
                );
                checked += 1;
            }
        }
        assert_eq!(checked, 4, "{name}: too few stops in 40 random games");
    }
}

#[test]
fn analyze_reports_the_exact_expected_value() {
    let out = Yaku::new(["analyze", "kolyesi", "--strategy", "seed", "--json"]).run();
    out.expect_code(0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["ev_exact"], "3191/107880");
    assert!((v["ev"].as_f64().unwrap() - 3191.0 / 107880.0).abs() < 1e-12);
    assert_eq!(v["profitable"], true);
    // Fixed bets: the limits collapse to one chip and the seed's raise disappears.
    let out = Yaku::new([
        "analyze",
        "kolyesi",
        "--strategy",
        "seed",
        "--json",
        "--min-bet",
        "1",
        "--max-bet",
        "1",
    ])
    .run();
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["ev_exact"], "-1397/53940");
    Yaku::new(["analyze", "kolyesi", "--strategy", "nope"])
        .run()
        .expect_code(1);
    Yaku::new(["analyze", "koikoi"]).run().expect_code(1);
    Yaku::new(["analyze", "kolyesi", "--min-bet", "5", "--max-bet", "2"])
        .run()
        .expect_code(2);
}

/// A house rule written to a fresh temporary folder, for `yaku score` to read: the folder
/// (removed when dropped) and the file.
fn house_file(name: &str, text: &str) -> (TempDir, std::path::PathBuf) {
    let dir = TempDir::new(&format!("score-{name}"));
    let path = dir.write(&format!("{name}.toml"), text);
    (dir, path)
}

/// A yaku's points read its holder's calls; `--calls` (or `--koikoi`) gives them.
#[test]
fn yaku_points_read_the_calls_given() {
    let (_dir, path) = house_file(
        "hanami-after-koikoi",
        "[ruleset]\nid = \"hanami-after-koikoi\"\nname = \"Hanami-zake after a koi-koi\"\nextends = \"koikoi\"\n\n[[yaku]]\nid = \"hanami-zake\"\npoints = \"if calls > 0 then 3 else 1\"\n",
    );
    let score = |calls: &str| {
        let out = Yaku::new([
            "score",
            path.to_str().unwrap(),
            "--koikoi",
            calls,
            "--captured",
            "cherry-curtain,chrysanthemum-sake",
        ])
        .run();
        out.expect_code(0);
        out.stdout
    };
    insta::assert_snapshot!(format!(
        "--koikoi 0\n{}\n--koikoi 1\n{}",
        score("0"),
        score("1")
    ));
}

/// The scoring script sees every seat's captured cards and yaku (`hand.seats`), in any matching
/// ruleset: here a loser who captured no bright pays one point more, and one who holds a yaku
/// one point less.
#[test]
fn the_script_sees_each_losers_pile_and_yaku() {
    let (_dir, path) = house_file(
        "loser-piles",
        r#"[ruleset]
id = "loser-piles"
name = "Losers' piles"
extends = "koikoi"

[scoring]
source = '''
fn score(hand) {
    let total = hand.base;
    let steps = [];
    for s in hand.seats {
        if s.winner { continue; }
        let brights = 0;
        for c in s.captured {
            if c == "pine-crane" || c == "cherry-curtain" || c == "pampas-moon" { brights += 1; }
        }
        if brights == 0 {
            total += 1;
            steps.push(#{ reason: "+1: the loser captured no bright", total: total });
        }
        if s.yaku.len() > 0 {
            total -= 1;
            steps.push(#{ reason: "-1: the loser holds " + s.yaku[0], total: total });
        }
    }
    #{ total: total, steps: steps }
}
'''
"#,
    );
    let score = |loser: &str| {
        let out = Yaku::new([
            "score",
            path.to_str().unwrap(),
            "--captured",
            "pine-crane,pampas-moon,paulownia-phoenix",
            "--loser",
            loser,
        ])
        .run();
        out.expect_code(0);
        out.stdout
    };
    insta::assert_snapshot!(format!(
        "loser without brights\n{}\nloser with the curtain and a viewing yaku\n{}",
        score("plum-1,plum-2"),
        score("cherry-curtain,chrysanthemum-sake")
    ));
}

const TESHI_HAND: &str = "pine-crane,pine-poetry,pine-1,pine-2,plum-1,cherry-1,iris-1,maple-1";

/// `--end` scores every way a matching hand ends: a stop (the default), an instant win at the
/// deal (`--hand`: which one, its points through the script, with the calls given), the hands
/// running out (a draw, or the dealer's privilege); text and JSON, and the mistakes.
#[test]
fn every_way_a_hand_ends() {
    let run = |args: &[&str]| {
        let out = Yaku::new(["score"].iter().chain(args)).run();
        format!(
            "$ yaku score {}\n[exit {}]\n{}{}\n",
            args.join(" "),
            out.code,
            out.stdout,
            out.stderr
        )
    };
    let mut s = String::new();
    for args in [
        &["koikoi", "--end", "instant", "--hand", TESHI_HAND][..],
        &[
            "koikoi-ktane",
            "--end",
            "instant",
            "--koikoi",
            "1",
            "--hand",
            TESHI_HAND,
        ],
        &["koikoi", "--end", "instant", "--json", "--hand", TESHI_HAND],
        &["koikoi", "--end", "exhausted"],
        &["koikoi", "--end", "exhausted", "--json"],
        &["house/dealer-privilege", "--end", "exhausted"],
        &["house/dealer-privilege", "--end", "exhausted", "--json"],
        &[
            "koikoi",
            "--end",
            "instant",
            "--hand",
            "pine-crane,plum-1,cherry-1,iris-1,maple-1,pampas-1,clover-1,peony-1",
        ],
        &["koikoi", "--end", "instant"],
        &["koikoi", "--end", "exausted"],
    ] {
        s += &run(args);
    }
    insta::assert_snapshot!(s);
}

/// A hand played out and settled seat by seat (`exhausted = "settle"`): `yaku score --end
/// exhausted` shows each seat's points, seat 0 the `--captured` pile and the others each
/// `--loser` pile in order.
#[test]
fn a_hand_settled_seat_by_seat_shows_every_seat() {
    let dir = TempDir::new("score-settle");
    dir.write(
        "captures.toml",
        r#"
[ruleset]
id = "three-captures"
deck = "hanafuda"

[[tally]]
id = "card_points"
name = "Card points"
count = "sum(points)"

[flow]
style = "matching"
players = 3
min_players = 3
max_players = 3
hand_size = 7
table_size = 6
deal_packet = 1
deal_order = ["table", "others", "dealer"]
rounds = 3
exhausted = "settle"

[scoring]
zero_sum = true
source = '''
fn score(hand) {
    let total = 0;
    for s in hand.seats { total += s.tallies.card_points; }
    let seats = [];
    for s in hand.seats { seats.push(hand.seats.len() * s.tallies.card_points - total); }
    #{ seats: seats }
}
'''
"#,
    );
    let args = [
        "score",
        "captures.toml",
        "--end",
        "exhausted",
        "--captured",
        "pine-crane,cherry-curtain",
        "--loser",
        "plum-warbler",
        "--loser",
        "pine-1",
    ];
    let out = Yaku::new(args).current_dir(&dir).run();
    out.expect_code(0);
    // 40, 10 and 1 card points, 51 in all: 3 x 40 - 51 = +69, 30 - 51 = -21, 3 - 51 = -48.
    insta::assert_snapshot!(out.stdout);
    let json = Yaku::new(args.iter().copied().chain(["--json"]))
        .current_dir(&dir)
        .run();
    json.expect_code(0);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["seats"], serde_json::json!([69, -21, -48]));
    assert_eq!(v["end"], "settled");
}

/// `yaku score pinochle`: a hand's melds once trumps are named (the ruleset's worked hands:
/// webcasty's flush with a second royal marriage, bicycle-partner's double pinochle), and a
/// finished hand from the declarer's side, its contract made and set; and the mistakes.
#[test]
fn pinochle_melds_and_contracts() {
    let run = |args: &[&str]| {
        let out = Yaku::new(["score", "pinochle"].iter().chain(args)).run();
        format!(
            "$ yaku score pinochle {}\n[exit {}]\n{}{}\n",
            args.join(" "),
            out.code,
            out.stdout,
            out.stderr
        )
    };
    let flush = "hearts-ace,hearts-ten,hearts-king,hearts-queen,hearts-jack,hearts-king-p2,\
                 hearts-queen-p2,spades-queen,diamonds-jack,clubs-ace,spades-ace,diamonds-ace";
    let double = "spades-queen,spades-queen-p2,diamonds-jack,diamonds-jack-p2,clubs-nine";
    let ours = "hearts-ace,hearts-ten,spades-ace,clubs-ace,hearts-king,hearts-queen,spades-nine,\
                clubs-nine";
    let theirs = "diamonds-ace,diamonds-ten,clubs-ten,spades-ten";
    let mut s = String::new();
    for args in [
        &["--trump", "hearts", "--hand", flush][..],
        &["--trump", "clubs", "--hand", double, "--json"],
        &["--trump", "clubs", "--hand", "hearts-nine"],
        &[
            "--end",
            "last_trick",
            "--bid",
            "230",
            "--melds",
            "190",
            "--opponent-melds",
            "40",
            "--last-trick",
            "opponent",
            "--captured",
            ours,
            "--opponent-captured",
            theirs,
        ],
        &[
            "--end",
            "last_trick",
            "--bid",
            "250",
            "--melds",
            "190",
            "--opponent-melds",
            "40",
            "--last-trick",
            "opponent",
            "--captured",
            ours,
            "--opponent-captured",
            theirs,
            "--json",
        ],
        &["--hand", flush],
        &["--trump", "heart", "--hand", flush],
        &["--trump", "hearts", "--hand", flush, "--end", "last_trick"],
        &["--end", "last_trick", "--captured", ours],
        &["--end", "last_trick", "--captured", ours, "--bid", "255"],
        &[
            "--end",
            "last_trick",
            "--captured",
            ours,
            "--bid",
            "200",
            "--last-trick",
            "me",
        ],
    ] {
        s += &run(args);
    }
    insta::assert_snapshot!(s);
}

/// `yaku score` on melds shown after play: a Schnapsen hand's marriages (shown on one's lead by
/// leading one of their cards, 004's 20 and 40 in trumps, added to the card points once a trick
/// is won), the test ruleset's Bezique and Four Jacks (shown on winning a trick) beside its trump
/// run (on one's lead), and a hand won with marriage points counted (`--marriages`).
#[test]
fn melds_shown_after_play() {
    let run = |ruleset: &str, args: &[&str]| {
        let out = Yaku::new(["score", ruleset].iter().chain(args)).run();
        format!(
            "$ yaku score {ruleset} {}\n[exit {}]\n{}{}\n",
            args.join(" "),
            out.code,
            out.stdout,
            out.stderr
        )
    };
    let mut s = String::new();
    s += &run(
        "schnapsen",
        &[
            "--trump",
            "hearts",
            "--hand",
            "hearts-king,hearts-queen,clubs-king,clubs-queen,spades-ace",
        ],
    );
    s += &run(
        "tests/rulesets/meld-moments.toml",
        &[
            "--trump",
            "hearts",
            "--hand",
            "spades-queen,diamonds-jack,hearts-jack,clubs-jack,spades-jack,hearts-ace,hearts-ten,hearts-king",
            "--json",
        ],
    );
    s += &run(
        "schnapsen",
        &[
            "--end",
            "claim",
            "--captured",
            "hearts-ace,hearts-ten,clubs-ace,clubs-ten",
            "--marriages",
            "40",
            "--opponent-captured",
            "spades-jack,diamonds-jack",
        ],
    );
    insta::assert_snapshot!(s);
}

/// Cards alike by rank across suits (`alike(rank, 3)`): three Kings and three Queens captured
/// are two ranks held three times, worth 2 in the test ruleset; three Kings and two Queens one.
#[test]
fn three_cards_of_one_rank_are_counted_across_suits() {
    let run = |captured: &str| {
        let out = Yaku::new(["score", "tests/rulesets/alike.toml", "--captured", captured]).run();
        assert_eq!(out.code, 0, "{}", out.stderr);
        out.stdout
    };
    let two = run("hearts-king,spades-king,clubs-king,hearts-queen,diamonds-queen,spades-queen");
    assert!(two.contains("Three of a rank +2"), "{two}");
    let one = run("hearts-king,spades-king,clubs-king,hearts-queen,diamonds-queen");
    assert!(one.contains("Three of a rank +1"), "{one}");
    let none = run("hearts-king,spades-king,hearts-queen,diamonds-queen");
    assert!(!none.contains("Three of a rank"), "{none}");
}

/// Partners share one score when a scoring script settles the hand, on the command line as in
/// play: the test ruleset's script pays each partnership's cards to its first seat, and pooling
/// gives both partners the team's points (the command line left the second partner at +0).
#[test]
fn partners_are_pooled_after_a_script_as_in_play() {
    let out = Yaku::new([
        "score",
        "tests/rulesets/team-script.toml",
        "--captured",
        "coins-7,coins-ace,cups-7,swords-7,batons-7",
        "--loser",
        "cups-ace",
        "--loser",
        "coins-2,coins-3",
        "--loser",
        "cups-2",
        "--json",
    ])
    .run();
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    // Seats 0 and 2 hold 7 cards, seats 1 and 3 two: 7 - 2 to each partner.
    assert_eq!(doc["seats"], serde_json::json!([5, -5, 5, -5]), "{doc}");
    let ruleset = Arc::new(
        yaku::ruleset::load("tests/rulesets/team-script.toml")
            .value
            .unwrap(),
    );
    for seed in 0..4u64 {
        let mut game = yaku::families::matching::start(
            Arc::clone(&ruleset),
            StartOptions {
                seed,
                rounds: Some(1),
                ..StartOptions::default()
            },
        )
        .unwrap();
        let mut rng = agent_rng(seed);
        while let Some(seat) = game.to_act() {
            let legal = game.legal();
            let action = RandomAgent.choose(&game, seat, &legal, &mut rng);
            game.apply(action).unwrap();
        }
        let scores = game.scores();
        assert_eq!((scores[0], scores[1]), (scores[2], scores[3]), "{scores:?}");
        assert_eq!(scores[0], -scores[1], "{scores:?}");
    }
}

/// Partners found by cards (Issue 42): a call-ace hand scores the declarer (seat 1) with the
/// called card's holder (`--partner`, seat 2 unless given); Doppelkopf's holders of the Queens
/// of Clubs, one seat alone with both (`--partner none`), three times over.
#[test]
fn partners_found_by_cards_score_as_a_side() {
    let run = |ruleset: &str, args: &[&str]| {
        let mut all = vec!["score", ruleset, "--end", "last_trick"];
        all.extend_from_slice(args);
        let out = Yaku::new(all).run();
        (out.code, out.stdout, out.stderr)
    };
    let captured =
        "clubs-ace,clubs-ten,hearts-ace,hearts-ten,spades-ace,spades-ten,diamonds-ace,diamonds-ten";
    let called = "tests/rulesets/called-partner.toml";
    let (code, out, err) = run(called, &["--bid", "call-ace", "--captured", captured]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("game points: seat 1 +1, seat 2 +1, seat 3 -1, seat 4 -1"),
        "{out}"
    );
    let (_, out, _) = run(
        called,
        &[
            "--bid",
            "call-ace",
            "--captured",
            captured,
            "--partner",
            "4",
        ],
    );
    assert!(
        out.contains("game points: seat 1 +1, seat 2 -1, seat 3 -1, seat 4 +1"),
        "{out}"
    );
    let (code, _, err) = run(
        called,
        &["--bid", "wenz", "--captured", captured, "--partner", "2"],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("`--partner` is for games whose partners are found by cards"),
        "{err}"
    );
    let doko = "tests/rulesets/partner-cards.toml";
    let (code, out, err) = run(doko, &["--captured", captured, "--partner", "none"]);
    assert_eq!(code, 0, "{err}");
    // 84 card points, short of 121: the seat alone loses three times.
    assert!(
        out.contains("game points: seat 1 -3, seat 2 +1, seat 3 +1, seat 4 +1"),
        "{out}"
    );
    let (code, _, err) = run(doko, &["--captured", captured, "--partner", "5"]);
    assert_eq!(code, 2);
    assert!(err.contains("takes a seat from 2 to 4"), "{err}");
}

/// `yaku score` told the announcements of the worked Kontra and Re hand
/// (tests/rulesets/kontra-re.toml, src/families/tricks/announce_tests.rs): the declarer's side
/// took 91 card points in five tricks, Schneider and Schwarz announced, Kontra and Re said; the
/// missed Schwarz loses the game, 4 units ×4, as in play. Re without Kontra is refused.
#[test]
fn announcements_score_as_in_play() {
    let mine = "clubs-nine,clubs-ace,spades-nine,clubs-king,diamonds-nine,diamonds-ace,\
                diamonds-ten,hearts-ace,spades-queen,spades-jack,diamonds-queen,hearts-nine,\
                clubs-queen,hearts-ten,hearts-queen,diamonds-jack,clubs-jack,diamonds-king,\
                spades-ten,hearts-jack";
    let theirs = "spades-king,clubs-ten,spades-ace,hearts-king";
    let base = [
        "score",
        "tests/rulesets/kontra-re.toml",
        "--end",
        "last_trick",
        "--bid",
        "call-ace",
        "--captured",
        mine,
        "--opponent-captured",
        theirs,
        "--last-trick",
        "opponent",
    ];
    let all = ["kontra", "re", "schneider", "schwarz"]
        .iter()
        .flat_map(|a| ["--announce", a]);
    let out = Yaku::new(base.iter().copied().chain(all)).run();
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("schwarz announced and missed")
            && out.stdout.contains("Kontra, Re: the stake ×4")
            && out
                .stdout
                .contains("game points: seat 1 -16, seat 2 -16, seat 3 +16, seat 4 +16"),
        "{}",
        out.stdout
    );
    let out = Yaku::new(base.iter().copied().chain(["--announce", "re"])).run();
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("`--announce re` comes only after `kontra`: give `--announce kontra` too"),
        "{}",
        out.stderr
    );
}
