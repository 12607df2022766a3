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
            .collect::<Vec<_>>(),
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
