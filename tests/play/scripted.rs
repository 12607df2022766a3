//! Whole games and every prompt's error path through piped standard input. Positions are found
//! with the library on fixed seeds, so the scripts know what the screen will ask.

use super::run::{game_over, ones, temp_dir, yaku};
use std::sync::Arc;
use yaku::agent::{Agent, GreedyAgent, agent_rng};
use yaku::core::{Action, Game as _, StartOptions};
use yaku::families::matching::{MatchingGame as Game, Phase};

/// The game `yaku play RULESET --seed SEED` starts.
fn game(ruleset: &str, seed: u64) -> Game {
    let r = Arc::new(yaku::ruleset::load(ruleset).value.unwrap());
    yaku::families::matching::start(
        r,
        StartOptions {
            seed,
            ..StartOptions::default()
        },
    )
    .unwrap()
}

/// True when `action` is the ruleset's declaration with `effect`.
fn is(g: &Game, action: Action, effect: &str) -> bool {
    matches!(action, Action::Declare { decl, .. }
        if g.ruleset().declarations[decl.0 as usize].effect == effect)
}

#[test]
fn a_whole_game_against_greedy_from_piped_input() {
    let dir = temp_dir("whole");
    let out = yaku(&["play", "koikoi", "--seed", "7", "--rounds", "2"])
        .current_dir(&dir)
        .stdin(ones(400))
        .expect(0);
    assert!(
        out.stdout
            .contains("seed 7 (play this game again with --seed 7)")
    );
    assert!(out.stdout.contains("play a card from your hand"));
    assert!(out.stdout.contains("only one move is possible"));
    assert!(out.stdout.contains("your hand:"));
    assert!(out.stdout.contains("greedy's captures:"));
    assert!(
        !out.stdout.contains("\x1b["),
        "no colours when stdout is a pipe"
    );
    game_over(&out.stdout);
    // Nothing was saved: the game ended.
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
}

#[test]
fn every_play_prompt_error_gets_a_reason_and_the_same_prompt() {
    // A seed where seat 1 (the human) plays first and holds a card matching two table cards.
    let (seed, g, double) = (0..500u64)
        .find_map(|seed| {
            let g = game("koikoi", seed);
            if g.to_act() != Some(0) || g.phase() != Phase::Play || !g.history().is_empty() {
                return None;
            }
            let deck = &g.ruleset().deck;
            let card = g
                .hand(0)
                .iter()
                .find(|&c| (g.table() & deck.same_suit(c)).len() == 2)?;
            Some((seed, g, card))
        })
        .expect("some seed deals a double match");
    let deck = &g.ruleset().deck;
    let matches = g.table() & deck.same_suit(double);
    let other = (g.table() - matches).first_card().unwrap();
    let second = matches.nth(1).unwrap();
    let script = format!(
        "99\nno-such-card\nkoikoi\nfrobnicate\npine\n{other}\nhelp\nrules\nscore\n{double}\n7\nstop\n{other}\n2\nquit\n",
        other = deck.id_of(other),
        double = deck.id_of(double),
    );
    let dir = temp_dir("errors");
    let out = yaku(&[
        "play",
        "koikoi",
        "--seed",
        &seed.to_string(),
        "--save",
        "s.json",
    ])
    .current_dir(&dir)
    .stdin(script)
    .expect(0);
    let s = &out.stdout;
    let other_name = &deck.card(other).name;
    for expected in [
        "error: there is no card 99 in your hand: choose 1 to 8",
        "error: unknown card or command `no-such-card`",
        "error: `koikoi` is not possible now: the declarations after a yaku (Koi-koi, Stop) are offered only after making one",
        "error: unknown card or command `frobnicate`; type `help` for the commands",
        "error: `pine` is a month, not a card: name one of its cards as pine:1 to pine:4, or by id (pine-crane, pine-poetry, pine-1, pine-2)",
        &format!("error: `{other_name}` is not in your hand"),
        "at any prompt:",
        "Gokō (five brights)",
        "scores: you 0, greedy 0",
        "matches more than one table card; capture which?",
        "error: there is no option 7: choose 1 to 2",
        "error: `stop` is not possible now: the declarations after a yaku (Koi-koi, Stop) are offered only after making one",
        &format!("error: `{other_name}` is not a table card that"),
        &format!("capturing {}", deck.card(second).name),
        "game saved to s.json; resume it with: yaku play --resume s.json",
    ] {
        assert!(s.contains(expected), "missing `{expected}` in:\n{s}");
    }
    // The play prompt came back after each of the first nine lines, the capture prompt after
    // each of its three wrong answers.
    assert!(s.matches("play a card from your hand").count() >= 10, "{s}");
    assert!(s.matches("capture which?").count() >= 4, "{s}");
    assert!(dir.join("s.json").exists());
}

/// Lines of `1` that bring the human (seat 1) to its first koi-koi decision with a choice, when
/// every answer is `1` and greedy plays seat 2, and the points for stopping there.
fn ones_to_koikoi(seed: u64) -> Option<(usize, i64)> {
    let mut g = game("koikoi", seed);
    let mut legal = Vec::new();
    let mut lines = 0;
    let mut index = 0u64;
    while let Some(seat) = g.to_act() {
        g.legal_actions(&mut legal);
        let action = if seat == 0 {
            if g.phase() == Phase::Declare
                && legal.iter().any(|&a| is(&g, a, "continue"))
                && g.round() < g.rounds()
            {
                return Some((lines, g.points_if_stopped(0).unwrap().total));
            }
            if legal.len() > 1 {
                lines += 1;
            }
            legal[0]
        } else {
            GreedyAgent.choose(&g, seat, &legal, &mut agent_rng(index))
        };
        g.apply(action).unwrap();
        index += 1;
    }
    None
}

#[test]
fn koikoi_prompt_errors_and_the_points_for_stopping() {
    // A seed where stopping is worth 1 point, to see it said in the singular.
    let (seed, lines) = (0..200u64)
        .find_map(|s| {
            ones_to_koikoi(s)
                .filter(|&(_, p)| p == 1)
                .map(|(n, _)| (s, n))
        })
        .expect("some seed reaches a koi-koi choice worth 1 point");
    // An empty answer stops.
    let script = format!("{}maybe\n5\n\nquit\n", ones(lines));
    let dir = temp_dir("koikoi");
    let out = yaku(&["play", "koikoi", "--seed", &seed.to_string()])
        .current_dir(&dir)
        .stdin(script)
        .expect(0);
    let s = &out.stdout;
    for expected in [
        "you made a yaku (greedy needs 1 more card for Tane (animals)): 1) Koi-koi (call koi-koi and play on for more)  2) Stop (stop and score): take 1 point (Enter: stop)\n",
        "error: `maybe`: answer `koikoi` or `stop` (or `help`)",
        "error: there is no option 5: choose 1 to 2",
        "won by you (stopped): 1 point\n",
    ] {
        assert!(s.contains(expected), "missing `{expected}` in:\n{s}");
    }
    assert!(dir.join(format!("yaku-save-{seed}.json")).exists(), "{s}");
}

#[test]
fn the_dealer_hand_swap_prompt() {
    let seed = (0..200u64)
        .find(|&s| {
            let g = game("koikoi-classic", s);
            g.phase() == Phase::AfterDeal && g.to_act() == Some(0)
        })
        .expect("some seed makes the human the non-dealer");
    let dir = temp_dir("swap");
    let out = yaku(&["play", "koikoi-classic", "--seed", &seed.to_string()])
        .current_dir(&dir)
        .stdin("maybe\n3\nswap\nquit\n")
        .expect(0);
    let s = &out.stdout;
    for expected in [
        "after the deal, choose: 1) Keep your hand  2) Take the dealer's hand (the dealer takes yours)",
        "error: `maybe`: answer `keep` or `swap` (or `help`)",
        "error: there is no option 3: choose 1 to 2",
        "you: Take the dealer's hand",
        "table count at the deal:",
    ] {
        assert!(s.contains(expected), "missing `{expected}` in:\n{s}");
    }
}

#[test]
fn hot_seat_shows_the_hand_of_the_player_to_act() {
    let dir = temp_dir("hotseat");
    let out = yaku(&[
        "play",
        "koikoi",
        "--players",
        "human,human",
        "--seed",
        "3",
        "--rounds",
        "1",
    ])
    .current_dir(&dir)
    .stdin(ones(200))
    .expect(0);
    assert!(out.stdout.contains("(human 1 to act)"));
    assert!(out.stdout.contains("(human 2 to act)"));
    assert!(out.stdout.contains("human 2's hand:"));
    game_over(&out.stdout);
}

#[test]
fn bad_players_are_usage_errors() {
    let out = yaku(&["play", "koikoi", "--players", "human,wizard"]).expect(2);
    assert!(
        out.stderr.contains("unknown player `wizard`"),
        "{}",
        out.stderr
    );
    let out = yaku(&["play", "koikoi", "--players", "human"]).expect(2);
    assert!(out.stderr.contains("two players"), "{}", out.stderr);
}

#[test]
fn capture_piles_list_as_many_cards_as_they_count() {
    // Seed 2: greedy takes the Sake Cup, an animal and a plain in these rules.
    let dir = temp_dir("piles");
    let out = yaku(&["play", "koikoi", "--seed", "2", "--rounds", "1"])
        .current_dir(&dir)
        .stdin(ones(400))
        .expect(0);
    let lines: Vec<&str> = out.stdout.lines().collect();
    let mut piles = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some((_, header)) = line.split_once(" captures: ") else {
            continue;
        };
        if header == "nothing" {
            continue;
        }
        piles += 1;
        // `12 cards (bright 2, animal 2, ...)`, then one indented line a kind.
        let (total, counts) = header.split_once(" (").unwrap();
        let total: usize = total.split(' ').next().unwrap().parse().unwrap();
        let counts: Vec<(&str, usize)> = counts
            .trim_end_matches(')')
            .split(", ")
            .map(|c| {
                let (kind, n) = c.split_once(' ').unwrap();
                (kind, n.parse().unwrap())
            })
            .collect();
        let mut listed = std::collections::BTreeSet::new();
        for group in lines[i + 1..]
            .iter()
            .take_while(|l| l.starts_with("      "))
        {
            let (head, names) = group.trim().split_once(": ").unwrap();
            let (kind, n) = head.split_once(' ').unwrap();
            let names: Vec<&str> = names.split(", ").collect();
            assert_eq!(names.len(), n.parse::<usize>().unwrap(), "{group}");
            assert!(counts.contains(&(kind, names.len())), "{line} / {group}");
            listed.extend(names.iter().map(|n| n.split(" (also ").next().unwrap()));
        }
        assert_eq!(listed.len(), total, "{line}");
    }
    assert!(piles > 0);
    assert!(out.stdout.contains("animal 2: Sake Cup (also plain), Deer"));
    assert!(out.stdout.contains(", Sake Cup (also animal)"));
}

#[test]
fn counts_and_verbs_agree_with_their_subjects() {
    // Human games answered with `1`, and a bot game: `you win`, `greedy wins`, `1 point`.
    let dir = temp_dir("wording");
    let mut all = String::new();
    for seed in ["2", "4"] {
        let out = yaku(&["play", "koikoi", "--seed", seed, "--rounds", "4"])
            .current_dir(&dir)
            .stdin(ones(600))
            .expect(0);
        all.push_str(&out.stdout);
    }
    for bad in [
        "you wins",
        "you holds",
        "you plays",
        "you draws",
        "if greedy win now",
        " 1 points",
        " 1 cards",
        "(1 cards",
    ] {
        assert!(!all.contains(bad), "`{bad}` in:\n{all}");
    }
    for good in [
        "if you win now",
        "if greedy wins now",
        "greedy holds ",
        "1 card ",
        ": 1 point\n",
    ] {
        assert!(all.contains(good), "no `{good}` in:\n{all}");
    }
    assert!(
        all.contains("· you win\n") && all.contains("· greedy wins\n"),
        "{all}"
    );
}

/// The line screen's fixes of issue 14, each on a fixed seed: the swap prompt's multiplier,
/// table cards that say which hand cards take them, near cards that say where they are, no
/// source ids in what players read, a misspelt card name's did-you-mean.
#[test]
fn the_line_screen_marks_matches_places_missing_cards_and_shows_no_source_ids() {
    // Classic rules, seed 2: two brights on the table while the swap is offered, so the
    // multiplier is x3 before anyone plays (it read the previous hand's count, 0, before).
    let seed = (0..200u64)
        .find(|&s| {
            let g = game("koikoi-classic", s);
            g.phase() == Phase::AfterDeal
                && g.to_act() == Some(0)
                && (g.table() & g.ruleset().deck.kind("bright").unwrap().cards).len() == 2
        })
        .expect("a seed offers the swap with two brights on the table");
    let dir = temp_dir("line-fixes");
    let out = yaku(&["play", "koikoi-classic", "--seed", &seed.to_string()])
        .current_dir(&dir)
        .stdin("quit\n")
        .expect(0);
    let s = &out.stdout;
    let before_prompt = &s[..s.find("after the deal, choose").unwrap()];
    assert!(
        before_prompt.contains("table count at the deal: 2")
            && before_prompt
                .contains("multipliers in force if you win now: x3: 2 bright(s) on the table"),
        "{s}"
    );
    // Standard rules: a table card lists the hand cards that take it; a near yaku's cards say
    // where they are; a misspelt name gets the name back.
    let out = yaku(&["play", "koikoi", "--seed", "1"])
        .current_dir(&dir)
        .stdin("Crane and Sn\nquit\n")
        .expect(0);
    let s = &out.stdout;
    assert!(s.contains("  <- your "), "{s}");
    assert!(s.contains(" (unseen)") && s.contains(" (your hand)"), "{s}");
    assert!(s.contains("did you mean `Crane and Sun`?"), "{s}");
    // A whole game of bots: no seed file id in any line a player reads.
    for ruleset in ["koikoi", "koikoi-classic", "koikoi-ktane", "matgo"] {
        let out = yaku(&["play", ruleset, "--players", "greedy,greedy", "--seed", "3"])
            .current_dir(&dir)
            .expect(0);
        let id = out.stdout.lines().find(|l| {
            l.split(|c: char| !c.is_ascii_digit())
                .any(|w| w.len() == 3 && w.starts_with("00"))
        });
        assert_eq!(id, None, "{ruleset} shows a source id");
    }
}

#[test]
fn the_score_history_has_each_hands_yaku_points_and_running_totals() {
    let dir = temp_dir("history");
    let input = ones(23) + "score\nquit\n";
    let out = yaku(&["play", "koikoi", "--seed", "3", "--save", "s.json"])
        .current_dir(&dir)
        .stdin(input)
        .expect(0);
    let s = &out.stdout;
    let at = s.rfind("> score").expect("the score command was read");
    let history = &s[at..];
    for expected in [
        "after 3 hands:",
        "round 1: greedy wins (stopped)",
        "yaku: Sankō (three brights) 5, Hanami-zake (flower viewing) 5, Kasu (plains) 1 = 11",
        "then: x2 for 7 or more points (22)",
        "calls: greedy called Koi-koi 1 time",
        "this hand: you 0, greedy +22",
        "total: you 0, greedy 22",
        "total: you 0, greedy 24",
    ] {
        assert!(
            history.contains(expected),
            "missing `{expected}` in:\n{history}"
        );
    }
    // The hand's end says what each yaku takes.
    assert!(
        s.contains("      Three 20-point cards other than the Rain Man."),
        "{s}"
    );
}

#[test]
fn the_kolyesi_draw_prompt_gives_the_exact_odds_of_each_choice() {
    let dir = temp_dir("kolyesi-odds");
    let out = yaku(&["play", "kolyesi", "--seed", "5", "--save", "k.json"])
        .current_dir(&dir)
        .stdin("1\nquit\n")
        .expect(0);
    let s = &out.stdout;
    // The first tile is [2:2] (Bench): `yaku analyze kolyesi` gives -0.1683 and -0.0355.
    assert!(s.contains("your tile [2:2]"), "{s}");
    assert!(
        s.contains(
            "take how many more tiles? (1 or 2)\nexact result of a 1-chip bet: take 1: -0.168 · take 2: -0.035\n"
        ),
        "{s}"
    );
}
