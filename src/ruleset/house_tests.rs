//! What a house-rule author can say, TOML in and behaviour out: combining rulesets (`extends`
//! lists and `+` specs), options, definitions, `true`/`false`. Each test loads rule text and
//! checks what the ruleset then does: the yaku it scores, the flow it plays.

use super::{Loaded, OptionValue, Ruleset, load, load_str};
use crate::deck::CardSet;
use crate::yaku::{self as scoring, Circumstances};

fn ok(loaded: Loaded) -> Ruleset {
    let messages: Vec<String> = loaded
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect();
    loaded.value.unwrap_or_else(|| panic!("{messages:?}"))
}

fn errors(loaded: &Loaded) -> Vec<String> {
    assert!(loaded.value.is_none(), "expected errors");
    loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == crate::diag::Severity::Error)
        .map(|d| d.message.clone())
        .collect()
}

fn pile(r: &Ruleset, ids: &[&str]) -> CardSet {
    let mut set = CardSet::EMPTY;
    for id in ids {
        set.insert(r.deck.card_by_id(id).unwrap_or_else(|| panic!("{id}")));
    }
    set
}

/// The total a pile scores as the winner of round 1, and the ids of its yaku.
fn total(r: &Ruleset, ids: &[&str]) -> (i64, Vec<String>) {
    let c = Circumstances {
        round: 1,
        rounds: 12,
        ..Circumstances::default()
    };
    let found = scoring::evaluate(r, pile(r, ids), &c);
    let outcome = scoring::settle(r, &found, None, &c).expect("the script runs");
    (
        outcome.total,
        outcome.yaku.iter().map(|y| y.id.clone()).collect(),
    )
}

fn rounds(r: &Ruleset) -> u32 {
    match r.matching().unwrap().length {
        super::GameLength::Rounds(n) => n,
        super::GameLength::Target { max_rounds, .. } => max_rounds,
    }
}

/// Five brights: 10 points, doubled at 7 or more by the standard rules.
const FIVE_BRIGHTS: &[&str] = &[
    "pine-crane",
    "cherry-curtain",
    "pampas-moon",
    "willow-rainman",
    "paulownia-phoenix",
];

#[test]
fn a_spec_combines_a_base_house_rules_and_settings_in_order() {
    let base = ok(load("koikoi"));
    assert_eq!(total(&base, FIVE_BRIGHTS).0, 20);
    let r = ok(load("koikoi+house/no-seven-doubling+flow.rounds=3"));
    assert_eq!(total(&r, FIVE_BRIGHTS).0, 10, "no doubling at 7");
    assert_eq!(rounds(&r), 3);
    assert_eq!(r.id, "koikoi+koikoi-no-seven-doubling+flow.rounds=3");
    assert!(r.name.starts_with("Koi-Koi (standard) with "), "{}", r.name);
    // The same file twice is applied once; a spec naming a file whole is that file.
    let twice = ok(load("koikoi+house/dealer-privilege+house/dealer-privilege"));
    assert_eq!(
        twice.matching().unwrap().exhausted,
        super::Exhausted::DealerScores(6)
    );
}

#[test]
fn an_extends_list_applies_house_rules_of_one_base_and_reports_a_conflict() {
    let dir = std::env::temp_dir().join(format!("yaku-house-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write(
        "six.toml",
        "[ruleset]\nid = \"six\"\nextends = \"koikoi\"\n[flow]\nrounds = 6\n",
    );
    write(
        "three.toml",
        "[ruleset]\nid = \"three\"\nextends = \"koikoi\"\n[flow]\nrounds = 3\n",
    );
    write(
        "table.toml",
        "[ruleset]\nid = \"table\"\nextends = [\"koikoi\", \"house/no-seven-doubling\", \"six.toml\", \"three.toml\"]\n",
    );
    let loaded = load(dir.join("table.toml").to_str().unwrap());
    let warnings: Vec<String> = loaded
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect();
    let r = ok(loaded);
    assert_eq!(rounds(&r), 3, "the later house rule applies");
    assert_eq!(total(&r, FIVE_BRIGHTS).0, 10);
    assert_eq!(r.id, "table");
    assert_eq!(
        warnings,
        ["two house rules set `flow.rounds`: this one applies"]
    );
    // A second whole ruleset does not combine.
    write(
        "two.toml",
        "[ruleset]\nid = \"two\"\nextends = [\"koikoi\", \"kolyesi\"]\n",
    );
    let two = load(dir.join("two.toml").to_str().unwrap());
    assert_eq!(
        errors(&two),
        ["`kolyesi` is a whole ruleset, not a house rule of `koikoi`"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_house_rule_without_a_name_is_named_by_its_id() {
    let r = ok(load_str(
        "mine.toml",
        "[ruleset]\nid = \"our-koikoi\"\nextends = \"koikoi\"\n",
    ));
    assert_eq!(r.name, "our-koikoi");
}

const OPTIONS: &str = r#"
[ruleset]
id = "options"
extends = "koikoi"

[options]
viewing = { default = true, description = "The viewing yaku score" }
viewing_points = { default = 5, description = "What each viewing yaku is worth" }

[define]
viewing_allowed = "viewing and not has(willow-rainman)"

[[yaku]]
id = "hanami-zake"
when = "viewing_allowed and has(cherry-curtain, chrysanthemum-sake)"
points = "viewing_points"
"#;

#[test]
fn options_are_read_by_yaku_and_set_by_a_spec_or_a_house_rule() {
    let r = ok(load_str("options.toml", OPTIONS));
    let viewing = ["cherry-curtain", "chrysanthemum-sake"];
    assert_eq!(total(&r, &viewing), (5, vec!["hanami-zake".to_string()]));
    assert_eq!(
        r.options
            .iter()
            .map(|o| (o.id.as_str(), o.value))
            .collect::<Vec<_>>()[3..],
        [
            ("viewing", OptionValue::Bool(true)),
            ("viewing_points", OptionValue::Int(5))
        ]
    );
    // The definition reads the pile: rain spoils the viewing.
    let rainy = ["cherry-curtain", "chrysanthemum-sake", "willow-rainman"];
    assert_eq!(total(&r, &rainy).1, Vec::<String>::new());
    // A house rule of it changes an option in a line.
    let dir = std::env::temp_dir().join(format!("yaku-options-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("options.toml"), OPTIONS).unwrap();
    std::fs::write(
        dir.join("three.toml"),
        "[ruleset]\nid = \"three\"\nextends = \"options.toml\"\n[options]\nviewing_points = 3\n",
    )
    .unwrap();
    let three = ok(load(dir.join("three.toml").to_str().unwrap()));
    assert_eq!(total(&three, &viewing).0, 3);
    let off = ok(load(&format!(
        "{}+viewing=false",
        dir.join("options.toml").display()
    )));
    assert_eq!(total(&off, &viewing).0, 0);
    // The wrong kind of value, and a misspelt option, are errors.
    let wrong = load(&format!("{}+viewing=3", dir.join("options.toml").display()));
    assert_eq!(
        errors(&wrong),
        ["option `viewing` is a switch (`true` or `false`), not a number"]
    );
    let misspelt = load(&format!(
        "{}+viewng=false",
        dir.join("options.toml").display()
    ));
    assert_eq!(errors(&misspelt), ["unknown option `viewng`"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_definition_used_where_its_fact_is_unknown_names_the_definition() {
    let loaded = load_str(
        "define.toml",
        r#"
[ruleset]
id = "define"
extends = "koikoi"

[define]
late = "round > 6"
in_hand = "hand_cards > 2"

[[yaku]]
id = "kasu"
when = "count(plain) >= 10 and late and in_hand"
"#,
    );
    let messages = errors(&loaded);
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].starts_with("`in_hand` (from `[define]`) cannot be used here: the fact `hand_cards` is not known here"),
        "{messages:?}"
    );
    // A definition that names something unknown is found where it is written.
    let loaded = load_str(
        "define.toml",
        "[ruleset]\nid = \"d\"\nextends = \"koikoi\"\n[define]\nx = \"count(brigth) > 2\"\n",
    );
    assert_eq!(errors(&loaded), ["unknown name `brigth`"]);
}

#[test]
fn true_and_false_remove_an_instant_win_without_a_trick() {
    let r = ok(load_str(
        "no-teshi.toml",
        "[ruleset]\nid = \"no-teshi\"\nextends = \"koikoi\"\n[[flow.instant_win]]\nid = \"teshi\"\nwhen = \"false\"\n",
    ));
    let teshi = r
        .matching()
        .unwrap()
        .instant_wins
        .iter()
        .find(|w| w.id == "teshi")
        .unwrap();
    assert!(!teshi.when.truth(&crate::expr::Context {
        pile: r.deck.all(),
        facts: &[1, 12, 1]
    }));
}

/// A scored example: the pile, the opponent's calls, and what it is meant to show.
struct Example {
    cards: &'static [&'static str],
    opponent_calls: u32,
    /// Brights on the table at the deal.
    table_count: i64,
}

/// Every bundled Koi-Koi house rule, with a hand that shows its effect (none for rules of the
/// flow, which their own tests play): the rule sheet's changes from `koikoi`, and the hand
/// scored under `koikoi` and under the house rule.
#[test]
fn every_koikoi_house_rule_changes_what_its_sheet_says() {
    let viewing: &[&str] = &["cherry-curtain", "chrysanthemum-sake"];
    let rules: &[(&str, Option<Example>)] = &[
        (
            "house/bright-table-multiplier",
            Some(Example {
                cards: &["pine-crane", "cherry-curtain", "pampas-moon"],
                opponent_calls: 0,
                table_count: 2,
            }),
        ),
        ("house/dealer-privilege", None),
        ("house/lightning-wild", None),
        ("house/no-koikoi-after-opponent", None),
        (
            "house/no-koikoi-doubling",
            Some(Example {
                cards: FIVE_BRIGHTS,
                opponent_calls: 1,
                table_count: 0,
            }),
        ),
        (
            "house/no-seven-doubling",
            Some(Example {
                cards: FIVE_BRIGHTS,
                opponent_calls: 0,
                table_count: 0,
            }),
        ),
        (
            "house/no-viewing-yaku",
            Some(Example {
                cards: viewing,
                opponent_calls: 0,
                table_count: 0,
            }),
        ),
        ("house/one-koikoi", None),
        (
            "house/rain-spoils-viewing",
            Some(Example {
                cards: &["cherry-curtain", "chrysanthemum-sake", "willow-rainman"],
                opponent_calls: 0,
                table_count: 0,
            }),
        ),
        (
            "house/rainy-four-brights-8",
            Some(Example {
                cards: &[
                    "pine-crane",
                    "cherry-curtain",
                    "pampas-moon",
                    "willow-rainman",
                ],
                opponent_calls: 0,
                table_count: 0,
            }),
        ),
        (
            "house/sake-two-plains",
            Some(Example {
                cards: &[
                    "pine-1",
                    "pine-2",
                    "plum-1",
                    "plum-2",
                    "cherry-1",
                    "cherry-2",
                    "wisteria-1",
                    "wisteria-2",
                    "iris-1",
                    "chrysanthemum-sake",
                ],
                opponent_calls: 0,
                table_count: 0,
            }),
        ),
        ("house/six-rounds", None),
        ("house/three-rounds", None),
        (
            "house/willow-is-rain",
            Some(Example {
                cards: &["pampas-moon", "chrysanthemum-sake", "willow-swallow"],
                opponent_calls: 0,
                table_count: 0,
            }),
        ),
    ];
    let base = ok(load("koikoi"));
    let mut out = String::new();
    for (name, example) in rules {
        let r = ok(load(name));
        let sheet = crate::sheet::build(&r, Some(&base));
        out.push_str(&format!("== {name}: {}\n", r.name));
        let mut changed = 0;
        for section in &sheet.sections {
            for rule in section
                .rules
                .iter()
                .filter(|r| r.mark != crate::sheet::Mark::Same)
            {
                changed += 1;
                let label = rule
                    .name
                    .as_deref()
                    .map_or(String::new(), |n| format!("{n}: "));
                out.push_str(&format!("  [{}] {label}{}\n", section.heading, rule.text));
            }
        }
        assert!(changed > 0, "{name}: the sheet shows no change");
        if let Some(e) = example {
            let c = Circumstances {
                round: 1,
                rounds: 12,
                calls_opponent: e.opponent_calls,
                table_count: e.table_count,
                ..Circumstances::default()
            };
            let score = |r: &Ruleset| {
                let found = scoring::evaluate(r, pile(r, e.cards), &c);
                scoring::settle(r, &found, None, &c).unwrap()
            };
            let (before, after) = (score(&base), score(&r));
            assert_ne!(
                before.total, after.total,
                "{name}: the example scores the same"
            );
            let yaku = |o: &scoring::HandOutcome| {
                o.yaku
                    .iter()
                    .map(|y| format!("{} {}", y.id, y.points))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            out.push_str(&format!(
                "  {} (opponent calls {}, brights on the table {}):\n    koikoi: {} = {}\n    {name}: {} = {}\n",
                e.cards.join(", "),
                e.opponent_calls,
                e.table_count,
                yaku(&before),
                before.total,
                yaku(&after),
                after.total
            ));
        }
    }
    insta::assert_snapshot!(out);
}

/// Three house rules combined on the command line's spec: each keeps its effect.
#[test]
fn three_house_rules_combine() {
    let r = ok(load(
        "koikoi+house/rain-spoils-viewing+house/no-seven-doubling+house/three-rounds",
    ));
    assert_eq!(rounds(&r), 3);
    assert_eq!(total(&r, FIVE_BRIGHTS).0, 10, "no doubling at 7");
    let rainy = ["cherry-curtain", "chrysanthemum-sake", "willow-rainman"];
    assert_eq!(
        total(&r, &rainy).1,
        Vec::<String>::new(),
        "rain spoils the viewing"
    );
    assert_eq!(total(&r, &rainy[..2]).0, 5, "the viewing without rain");
    assert_eq!(
        r.id,
        "koikoi+koikoi-rain-spoils-viewing+koikoi-no-seven-doubling+koikoi-three-rounds"
    );
}

/// A house rule's adjustment receives the outcome so far and returns a new one; the base's
/// script is not copied.
#[test]
fn an_adjustment_changes_the_outcome_after_the_base_script() {
    let r = ok(load_str(
        "adjust.toml",
        r#"
[ruleset]
id = "plus-one"
extends = "koikoi"

[[scoring.adjust]]
id = "plus-one"
source = '''
fn adjust(hand, result) {
    if hand.base == 0 { return result; }
    result.total += 1;
    result.steps.push(#{ reason: "+1 for the house", total: result.total });
    result
}
'''
"#,
    ));
    assert_eq!(total(&r, FIVE_BRIGHTS).0, 21, "10, doubled at 7, plus one");
    let c = Circumstances {
        round: 1,
        rounds: 12,
        ..Circumstances::default()
    };
    let found = scoring::evaluate(&r, pile(&r, FIVE_BRIGHTS), &c);
    let outcome = scoring::settle(&r, &found, None, &c).unwrap();
    let steps: Vec<(&str, i64)> = outcome
        .steps
        .iter()
        .map(|s| (s.reason.as_str(), s.total))
        .collect();
    assert_eq!(steps[steps.len() - 1], ("+1 for the house", 21));
    // Without `fn adjust(hand, result)` it is an error naming what is missing.
    let missing = load_str(
        "adjust.toml",
        "[ruleset]\nid = \"a\"\nextends = \"koikoi\"\n[[scoring.adjust]]\nid = \"x\"\nsource = \"fn score(hand) { 1 }\"\n",
    );
    assert_eq!(
        errors(&missing),
        ["the adjustment does not define `fn adjust(hand, result)`"]
    );
}

/// `unset` takes an inherited key away: a yaku leaves its base's group and then counts beside
/// the others of that group.
#[test]
fn unset_takes_a_yaku_out_of_its_group() {
    let ribbons = ["pine-poetry", "plum-poetry", "cherry-poetry"];
    let base = ok(load("koikoi"));
    let (_, yaku) = total(&base, &ribbons);
    assert_eq!(yaku, ["akatan"]);
    let r = ok(load_str(
        "ungrouped.toml",
        "[ruleset]\nid = \"ungrouped\"\nextends = \"koikoi\"\n[[yaku]]\nid = \"akatan\"\nunset = [\"group\"]\n[[yaku]]\nid = \"tan\"\nwhen = \"count(ribbon) >= 3\"\npoints = \"1\"\nunset = [\"group\"]\n",
    ));
    let (points, yaku) = total(&r, &ribbons);
    assert_eq!(yaku, ["akatan", "tan"]);
    assert_eq!(points, 6);
    let typo = load_str(
        "typo.toml",
        "[ruleset]\nid = \"t\"\nextends = \"koikoi\"\n[[yaku]]\nid = \"akatan\"\nunset = [\"grop\"]\n",
    );
    assert_eq!(
        errors(&typo),
        ["cannot unset `grop`: the base gives `yaku.akatan` no `grop`"]
    );
}

/// `new_kinds` adds a kind to the deck that `[card_kinds]` gives cards and yaku count (a
/// Go-Stop style double junk card); an undeclared kind stays an error.
#[test]
fn a_house_rule_adds_a_card_kind() {
    let text = "new_kinds = [\"double-junk\"]\n[ruleset]\nid = \"dj\"\nextends = \"koikoi\"\n[card_kinds]\nwillow-lightning = [\"plain\", \"double-junk\"]\n[[yaku]]\nid = \"kasu\"\nwhen = \"count(plain) + count(double-junk) >= 10\"\npoints = \"count(plain) + count(double-junk) - 9\"\n";
    let r = ok(load_str("dj.toml", text));
    let nine = [
        "pine-1",
        "pine-2",
        "plum-1",
        "plum-2",
        "cherry-1",
        "cherry-2",
        "wisteria-1",
        "wisteria-2",
        "willow-lightning",
    ];
    assert_eq!(total(&r, &nine), (1, vec!["kasu".to_string()]));
    let undeclared = load_str(
        "dj.toml",
        &text.replace("new_kinds = [\"double-junk\"]\n", ""),
    );
    assert_eq!(errors(&undeclared)[0], "unknown kind `double-junk`");
}

#[test]
fn definitions_are_bounded_in_what_they_expand_to() {
    // Each uses the one before twice: 2^40 nodes written out. Refused where it grows too large,
    // at once, and each later one for using it.
    let mut text = String::from(
        "[ruleset]\nid = \"d\"\nextends = \"koikoi\"\n[define]\nd0 = \"count(pile)\"\n",
    );
    for i in 1..40 {
        text.push_str(&format!("d{i} = \"max(d{0}, d{0})\"\n", i - 1));
    }
    let started = std::time::Instant::now();
    let messages = errors(&load_str("bomb.toml", &text));
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert!(
        messages[0].starts_with("`d9` is too large: with the definitions it uses written out"),
        "{messages:?}"
    );
    assert_eq!(
        messages[1],
        "`d10` uses `d9`, which is too large to define (above)"
    );
    // Nested deeper than 32: refused at the 33rd.
    let mut text = String::from(
        "[ruleset]\nid = \"d\"\nextends = \"koikoi\"\n[define]\nd0 = \"count(pile)\"\n",
    );
    for i in 1..40 {
        text.push_str(&format!("d{i} = \"d{} + 1\"\n", i - 1));
    }
    let messages = errors(&load_str("chain.toml", &text));
    assert!(
        messages[0].starts_with("`d32` is too large: it nests definitions 33 deep"),
        "{messages:?}"
    );
    // Used many times in one expression, a definition is still one ruleset.
    let loaded = load_str(
        "many.toml",
        &format!(
            "[ruleset]\nid = \"d\"\nextends = \"koikoi\"\n[define]\nshiny = \"count(bright)\"\n\n[[yaku]]\nid = \"many\"\nname = \"Many\"\nwhen = \"{} > 4\"\npoints = \"1\"\n",
            vec!["shiny"; 40].join(" + ")
        ),
    );
    ok(loaded);
}

#[test]
fn changing_an_entry_an_earlier_house_rule_removed_says_so() {
    let dir = std::env::temp_dir().join(format!("yaku-removed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("h1.toml"),
        "remove_yaku = [\"inoshikacho\"]\n[ruleset]\nid = \"h1\"\nextends = \"koikoi\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("h2.toml"),
        "[ruleset]\nid = \"h2\"\nextends = \"h1\"\n[[yaku]]\nid = \"inoshikacho\"\npoints = \"9\"\n",
    )
    .unwrap();
    let loaded = load(&dir.join("h2.toml").display().to_string());
    assert_eq!(
        errors(&loaded),
        ["`inoshikacho` was removed by an earlier house rule, so there is nothing here to change"]
    );
    let removal = load_str(
        "h3.toml",
        "remove_declaration = [\"koikoi\"]\n[ruleset]\nid = \"h3\"\nextends = \"koikoi\"\n",
    );
    let messages = errors(&removal);
    assert!(
        messages[0].starts_with("removing the declaration `koikoi` breaks the scoring script"),
        "{messages:?}"
    );
    assert_eq!(
        removal.sources.get(removal.diagnostics[0].loc.file).name,
        "h3.toml"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A partnership variant of a game dealt by seat count: the base's deal for three players is
/// an error at a table of four, whose help says how to drop it, and `deal_size = []` does.
#[test]
fn a_variant_for_another_table_size_drops_the_bases_deals() {
    let dir = std::env::temp_dir().join(format!("yaku-deal-size-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("base.toml"),
        "[ruleset]\nid = \"by-size\"\nextends = \"koikoi\"\nname = \"Koi-Koi for two or three (test)\"\n\n\
         [flow]\nmin_players = 2\nmax_players = 3\n\n[[flow.deal_size]]\nplayers = 3\nhand_size = 7\ntable_size = 6\n",
    )
    .unwrap();
    let variant = |drop: &str| {
        let path = dir.join("four.toml");
        std::fs::write(
            &path,
            format!(
                "[ruleset]\nid = \"four\"\nextends = \"base.toml\"\nname = \"In partnerships (test)\"\n\n\
                 [flow]\nplayers = 4\nmin_players = 4\nmax_players = 4\nteams = [[0, 2], [1, 3]]\nhand_size = 5\ntable_size = 8\n{drop}"
            ),
        )
        .unwrap();
        load(path.to_str().unwrap())
    };
    assert!(
        load(dir.join("base.toml").to_str().unwrap())
            .value
            .is_some()
    );
    let loaded = variant("");
    let error = loaded
        .diagnostics
        .iter()
        .find(|d| {
            d.message
                .contains("a deal for 3 players, but the table seats 4 to 4")
        })
        .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics));
    assert!(
        error
            .help
            .as_deref()
            .is_some_and(|h| h.contains("deal_size = []")),
        "{error:?}"
    );
    let loaded = variant("deal_size = []\n");
    assert!(loaded.value.is_some(), "{:?}", loaded.diagnostics);
    let _ = std::fs::remove_dir_all(&dir);
}
