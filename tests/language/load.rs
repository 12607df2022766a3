//! `load_str` on hostile input: it returns a ruleset or located errors, and never panics.

use proptest::prelude::*;
use yaku::diag::{Severity, render_json, render_text};
use yaku::ruleset::{Loaded, bundled, load_str};

/// Checks what every load must give: a ruleset, or at least one error; every diagnostic inside
/// its file; and rendering that works.
fn check_outcome(loaded: &Loaded) -> Result<(), TestCaseError> {
    let errors = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    prop_assert!(
        loaded.value.is_some() != (errors > 0),
        "a ruleset exactly when there is no error: value {}, {errors} errors",
        loaded.value.is_some()
    );
    let files = loaded.sources.files();
    for d in &loaded.diagnostics {
        prop_assert!(d.loc.file.0 < files.len(), "{}: no such file", d.message);
        let text = &files[d.loc.file.0].text;
        let span = &d.loc.span;
        prop_assert!(
            span.start <= span.end && span.end <= text.len(),
            "{}: span {span:?} outside a file of {} bytes",
            d.message,
            text.len()
        );
        prop_assert!(!d.message.is_empty());
    }
    let text = render_text(&loaded.sources, &loaded.diagnostics);
    prop_assert_eq!(text.matches("error: ").count() >= errors, true);
    let json = render_json(&loaded.sources, &loaded.diagnostics);
    prop_assert_eq!(
        json.as_array().map(Vec::len),
        Some(loaded.diagnostics.len())
    );
    Ok(())
}

/// The bundled rulesets' texts, loadable with `load_str` from the crate root: references that
/// resolve next to a bundled file are given relative to the crate root instead.
fn bundled_rulesets() -> Vec<(&'static str, String)> {
    bundled::FILES
        .iter()
        .filter(|(p, _)| {
            p.ends_with(".toml") && !p.starts_with("decks/") && !p.starts_with("strategies/")
        })
        .map(|(p, text)| {
            let text = text
                .replace("script = \"scripts/", "script = \"rulesets/scripts/")
                .replace("script = \"../scripts/", "script = \"rulesets/scripts/");
            (*p, text)
        })
        .collect()
}

#[test]
fn every_bundled_ruleset_loads_from_text() {
    // The starting points of the mutation test are valid, so mutations test the error paths.
    let all = bundled_rulesets();
    assert!(all.len() >= 7, "{} bundled rulesets", all.len());
    for (path, text) in all {
        let loaded = load_str(path, &text);
        assert!(
            loaded.value.is_some() && loaded.diagnostics.is_empty(),
            "{path}:\n{}",
            render_text(&loaded.sources, &loaded.diagnostics)
        );
    }
}

/// One edit of a text, by line or by character.
#[derive(Clone, Debug)]
enum Mutation {
    DeleteChar(usize),
    InsertChar(usize, char),
    ReplaceChar(usize, char),
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
}

/// Characters that matter to TOML and to expressions, and a few that should not be there.
fn interesting_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::sample::select(vec![
            '"', '\'', '[', ']', '{', '}', '=', ',', '.', '#', '\n', '\\', '(', ')', '-', '+',
            '&', '<', '>', '!', ' ', '0', '9', 'a', 'z', '_',
        ]),
        1 => prop::sample::select(vec!['\0', '\t', '\r', 'é', '月', '\u{feff}', '\u{7f}']),
        1 => any::<char>(),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<prop::sample::Index>().prop_map(|i| i.index(usize::MAX));
    prop_oneof![
        at.clone().prop_map(Mutation::DeleteChar),
        (at.clone(), interesting_char()).prop_map(|(i, c)| Mutation::InsertChar(i, c)),
        (at.clone(), interesting_char()).prop_map(|(i, c)| Mutation::ReplaceChar(i, c)),
        at.clone().prop_map(Mutation::DeleteLine),
        at.clone().prop_map(Mutation::DuplicateLine),
        (at.clone(), at).prop_map(|(i, j)| Mutation::SwapLines(i, j)),
    ]
}

/// Applies a mutation; positions wrap around the text's length.
fn apply(text: &str, m: &Mutation) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    let pick = |i: usize, n: usize| if n == 0 { 0 } else { i % n };
    match *m {
        Mutation::DeleteChar(i) if !chars.is_empty() => {
            chars.remove(pick(i, chars.len()));
        }
        Mutation::InsertChar(i, c) => {
            let at = pick(i, chars.len() + 1);
            chars.insert(at, c);
        }
        Mutation::ReplaceChar(i, c) if !chars.is_empty() => {
            let at = pick(i, chars.len());
            chars[at] = c;
        }
        Mutation::DeleteLine(i) if !lines.is_empty() => {
            lines.remove(pick(i, lines.len()));
            return lines.concat();
        }
        Mutation::DuplicateLine(i) if !lines.is_empty() => {
            let at = pick(i, lines.len());
            lines.insert(at, lines[at]);
            return lines.concat();
        }
        Mutation::SwapLines(i, j) if !lines.is_empty() => {
            let (a, b) = (pick(i, lines.len()), pick(j, lines.len()));
            lines.swap(a, b);
            return lines.concat();
        }
        _ => {}
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(super::config(250))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        let text = String::from_utf8_lossy(&bytes);
        check_outcome(&load_str("random.toml", &text))?;
    }

    #[test]
    fn toml_like_soup_never_panics(text in "([\\[\\]{}=,.#\"'\n a-z0-9_-]|ruleset|yaku|flow|deck|extends|when|points|count\\(|koikoi|hanafuda){0,150}") {
        check_outcome(&load_str("soup.toml", &text))?;
    }

    #[test]
    fn mutated_bundled_rulesets_load_or_explain(
        which in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let all = bundled_rulesets();
        let (path, original) = &all[which.index(all.len())];
        let mut text = original.clone();
        for m in &mutations {
            text = apply(&text, m);
        }
        check_outcome(&load_str(path, &text))?;
    }
}

/// A ruleset that extends `koikoi` with one yaku whose condition is `when`.
fn with_condition(when: &str) -> String {
    format!(
        "[ruleset]\nid = \"extreme\"\nextends = \"koikoi\"\n\n[[yaku]]\nid = \"x\"\nwhen = \"{when}\"\npoints = \"1\"\n"
    )
}

/// Loads text that must be rejected, and returns the error messages.
fn rejected(name: &str, text: &str) -> Vec<String> {
    let loaded = load_str(name, text);
    if let Err(e) = check_outcome(&loaded) {
        panic!("{name}: {e}");
    }
    assert!(loaded.value.is_none(), "{name} was accepted");
    loaded.diagnostics.into_iter().map(|d| d.message).collect()
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let n = 100_000;
    let arrays = format!("a = {}{}\n", "[".repeat(n), "]".repeat(n));
    let inline_tables = format!("a = {}1{}\n", "{b = ".repeat(n), "}".repeat(n));
    let dotted = format!("[{}]\nx = 1\n", vec!["a"; n].join("."));
    for (name, text) in [
        ("arrays", arrays),
        ("inline-tables", inline_tables),
        ("dotted", dotted),
    ] {
        let messages = rejected(name, &text);
        assert!(
            messages.iter().any(|m| m.starts_with("TOML syntax")),
            "{name}: {messages:?}"
        );
    }
    // Parentheses beyond the expression language's limit, inside and beyond its length limit.
    let deep = yaku::expr::MAX_DEPTH + 1;
    let parens = with_condition(&format!(
        "{}all(bright){}",
        "(".repeat(deep),
        ")".repeat(deep)
    ));
    assert!(rejected("parens", &parens)[0].contains("nested too deeply"));
    let long = with_condition(&format!("{}all(bright){}", "(".repeat(n), ")".repeat(n)));
    assert!(rejected("long", &long)[0].contains("too long"));
}

#[test]
fn long_prefix_chains_are_errors_not_stack_overflows() {
    // Chains of `-` and `not` that fit in the length limit once recursed a level each and
    // overflowed a test thread's stack; they are nesting, limited like parentheses.
    let limit = yaku::expr::MAX_DEPTH;
    let negs = |n: usize| format!("count(bright) >= {}1", "-".repeat(n));
    let nots = |n: usize| format!("{}all(bright)", "not ".repeat(n));
    for (name, text) in [
        ("negs", negs(yaku::expr::MAX_LEN - 20)),
        ("nots", nots((yaku::expr::MAX_LEN - 20) / 4)),
    ] {
        let messages = rejected(name, &with_condition(&text));
        assert!(
            messages[0].contains("nested too deeply"),
            "{name}: {messages:?}"
        );
    }
    for text in [negs(limit), nots(limit)] {
        let loaded = load_str("chain.toml", &with_condition(&text));
        assert!(
            loaded.value.is_some(),
            "{}",
            render_text(&loaded.sources, &loaded.diagnostics)
        );
    }
}

#[test]
fn a_ten_megabyte_file_gets_a_located_error() {
    // 10 MB of comments after valid rules, then one broken line: the error is on the last line.
    let mut text = with_condition("all(bright)");
    let comment = "# padding padding padding padding padding padding padding padding\n";
    while text.len() < 10 * 1024 * 1024 {
        text.push_str(comment);
    }
    text.push_str("[card_kinds]\npampas-mon = [\"bright\"]\n");
    let loaded = load_str("ten-megabytes.toml", &text);
    if let Err(e) = check_outcome(&loaded) {
        panic!("{e}");
    }
    let lines = text.lines().count();
    let located: Vec<String> = loaded
        .diagnostics
        .iter()
        .map(|d| {
            let (line, col) = loaded.sources.line_col(d.loc.file, d.loc.span.start);
            format!("{line}:{col} {}", d.message)
        })
        .collect();
    assert_eq!(
        located,
        [format!(
            "{lines}:1 unknown card `pampas-mon` in `[card_kinds]`"
        )]
    );
}

#[test]
fn a_ten_megabyte_line_is_quoted_in_part() {
    // One line of 10 MB: the error is located at its end, and the rendering quotes a window of
    // the line rather than all of it.
    let text = "x".repeat(10 * 1024 * 1024);
    let loaded = load_str("one-line.toml", &text);
    if let Err(e) = check_outcome(&loaded) {
        panic!("{e}");
    }
    assert!(loaded.value.is_none());
    let rendered = render_text(&loaded.sources, &loaded.diagnostics);
    assert!(rendered.len() < 2000, "{} bytes rendered", rendered.len());
    assert!(rendered.contains("one-line.toml:1:"), "{rendered}");
}

#[test]
fn empty_and_nul_files_are_errors() {
    assert_eq!(
        rejected("empty.toml", ""),
        ["the file holds no rules: a ruleset needs a `[ruleset]` table"]
    );
    let nul = "\0".repeat(4096);
    let messages = rejected("nul.toml", &nul);
    assert!(
        messages.iter().all(|m| m.starts_with("TOML syntax")),
        "{messages:?}"
    );
    let messages = rejected("nul-in-rules.toml", &with_condition("all(bright)\0"));
    assert!(!messages.is_empty());
}

/// Removing an inherited entry and giving it again in the same file keeps the new one (before,
/// the removal ran after the merge and the yaku silently disappeared); every id list can lose
/// entries, and an unknown id is an error with a did-you-mean.
#[test]
fn removals_run_before_the_file_s_own_entries() {
    let readded = load_str(
        "readd.toml",
        r#"
remove_yaku = ["kasu"]
remove_instant_win = ["teshi"]
remove_redeal = ["table-four-pairs"]

[ruleset]
id = "readd"
extends = "koikoi"

[[yaku]]
id = "kasu"
name = "Kasu (twelve plains)"
when = "count(plain) >= 12"
points = "1"
"#,
    );
    let messages: Vec<&str> = readded
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    let r = readded.value.unwrap_or_else(|| panic!("{messages:?}"));
    let kasu = r
        .yaku
        .yaku
        .iter()
        .find(|y| y.id == "kasu")
        .expect("kasu is given again");
    assert_eq!(kasu.when_source, "count(plain) >= 12");
    let flow = r.matching().unwrap();
    assert!(flow.instant_wins.iter().all(|w| w.id != "teshi"));
    assert!(flow.instant_wins.iter().any(|w| w.id == "kuttsuki"));
    assert!(flow.redeals.iter().all(|w| w.id != "table-four-pairs"));
    let unknown = load_str(
        "unknown.toml",
        "remove_declaration = [\"clsoe\"]\n[ruleset]\nid = \"x\"\nextends = \"schnapsen\"\n",
    );
    let d = &unknown.diagnostics[0];
    assert_eq!(d.message, "cannot remove unknown declaration `clsoe`");
    assert!(d.help.as_deref().unwrap_or("").contains("close"), "{d:?}");
}

/// A house rule that forbids closing the stock: the declaration is gone from every lead.
#[test]
fn a_house_rule_removes_the_close() {
    let loaded = load_str(
        "no-close.toml",
        "remove_declaration = [\"close\"]\n[ruleset]\nid = \"no-close\"\nextends = \"schnapsen\"\n",
    );
    let r = loaded.value.unwrap();
    assert!(r.declarations.iter().all(|d| d.effect != "close"));
    assert!(r.tricks().unwrap().close.is_none());
    assert!(!r.tricks().unwrap().meld_declarations.is_empty());
}

#[test]
fn long_operator_chains_are_errors_not_stack_overflows() {
    // A chain of infix operators is a tree as deep as it is long, which the checker walks
    // recursively: 6,400 of them overflowed 8 MiB once expressions could be 16 KiB (issue 47).
    // The longest chain allowed loads on a thread of 2 MiB, as simulation workers have.
    let most = yaku::expr::MAX_OPERATORS;
    let chain = |ops: usize| format!("count(bright){} >= 1", " + 1".repeat(ops - 1));
    let messages = rejected("chain", &with_condition(&chain(most + 1)));
    assert!(messages[0].contains("too many operators"), "{messages:?}");
    let longest = with_condition(&chain(most));
    let loaded = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || load_str("chain.toml", &longest).value.is_some())
        .unwrap()
        .join()
        .unwrap();
    assert!(loaded);
    // A rule as long as the limit with few operators loads too: the bound is on depth, not
    // length (one game needed 45 named definitions to fit in the 1,000 bytes this once was).
    let names = vec!["bright"; (yaku::expr::MAX_LEN - 40) / 8].join(", ");
    let long = format!("has({names}) or count(bright) >= 1");
    assert!(long.len() > 10_000 && long.len() <= yaku::expr::MAX_LEN);
    assert!(
        load_str("long.toml", &with_condition(&long))
            .value
            .is_some()
    );
}
