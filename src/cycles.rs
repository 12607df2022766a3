//! No import circles across files: a file that imports another (through a `crate::`, `super::`
//! or `self::` path, or a child module's name) must not be imported back by it, directly or
//! through others. A file may use what the module files above it hold (`super::X` from a child
//! to its folder's `mod.rs`): a folder's `mod.rs` is the room its files share, so those arrows
//! are not counted. Two files that must import each other belong in one file, or what both need
//! belongs in a third below them. Test modules and test files are left out, as in
//! [`super::layers`]; a path reaches the deepest module file it names (a name that `mod.rs`
//! hands on with `pub use` counts as that `mod.rs`, which imports the file it comes from).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The circles still to be taken apart (issue 48), each as its files' module paths: the test
/// fails on any other circle, and on one of these that is gone (strike it then).
const NOT_YET: &[&[&str]] = &[];

/// A module's path from the crate root: `src/a/b.rs` and `src/a/b/mod.rs` are `["a", "b"]`.
type ModPath = Vec<String>;

fn module_of(rel: &Path) -> ModPath {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

fn ident(text: &str) -> (&str, &str) {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    (&text[..end], &text[end..])
}

/// The paths that start at `text` (just after `prefix::`), each as its segments after
/// `prefix`; a group `{a, b::{c, d}}` gives one path a member.
fn paths_after(prefix: &[String], text: &str, out: &mut Vec<ModPath>) {
    let mut path = prefix.to_vec();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            // The group's members, split at the top-level commas.
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        paths_after(&path, &group[start..i], out);
                        return;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        paths_after(&path, &group[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            paths_after(&path, &group[start..], out);
            return;
        }
        let (name, after) = ident(rest);
        if name.is_empty() {
            break;
        }
        path.push(name.to_string());
        match after.strip_prefix("::") {
            Some(more) => rest = more,
            None => break,
        }
    }
    out.push(path);
}

/// Every module path `text` (the code of the module at `own`) names, outside comments and
/// module declarations and before its test module, resolved from the crate root; `children`
/// are the names of `own`'s child modules.
fn named_paths(text: &str, own: &[String], children: &BTreeSet<String>) -> Vec<ModPath> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") || code.split_whitespace().any(|w| w == "mod") {
            continue;
        }
        let code = code.split("//").next().unwrap_or("");
        let mut at = 0;
        while at < code.len() {
            let rest = &code[at..];
            let before = code[..at].chars().next_back();
            let starts_path = before.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'));
            let (name, after) = ident(rest);
            if name.is_empty() {
                at += rest.chars().next().map_or(1, char::len_utf8);
                continue;
            }
            at += name.len();
            let Some(after) = after.strip_prefix("::") else {
                continue;
            };
            if !starts_path {
                continue;
            }
            let mut base: Vec<String> = match name {
                "crate" => Vec::new(),
                "self" => own.to_vec(),
                "super" => own[..own.len().saturating_sub(1)].to_vec(),
                child if children.contains(child) => {
                    let mut p = own.to_vec();
                    p.push(child.to_string());
                    p
                }
                _ => continue,
            };
            let mut after = after;
            while let Some(more) = after.strip_prefix("super::") {
                base.pop();
                after = more;
            }
            paths_after(&base, after, &mut out);
        }
    }
    out
}

/// The library's files, by module path (test files and these tests left out).
fn library() -> BTreeMap<ModPath, String> {
    let (src, paths) = crate::layers::source_files();
    let mut files = BTreeMap::new();
    for path in paths {
        let rel = path.strip_prefix(&src).unwrap();
        let name = rel.file_stem().unwrap().to_string_lossy();
        if name == "tests"
            || name.ends_with("_tests")
            || name == "layers"
            || name == "cycles"
            || name == "sizes"
            || name == "main"
        {
            continue;
        }
        files.insert(module_of(rel), std::fs::read_to_string(&path).unwrap());
    }
    files
}

/// The arrows between files: each file's module path to those of the files it imports, less
/// its own and those of the modules above it.
fn arrows(files: &BTreeMap<ModPath, String>) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let mut out = BTreeMap::new();
    for (own, text) in files {
        let children: BTreeSet<String> = files
            .keys()
            .filter(|m| m.len() == own.len() + 1 && m.starts_with(own))
            .map(|m| m[own.len()].clone())
            .collect();
        let mut to = BTreeSet::new();
        for path in named_paths(text, own, &children) {
            // The deepest module file the path names.
            let target = (0..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|m| files.contains_key(m))
                .unwrap_or_default();
            if !own.starts_with(&target) {
                to.insert(target);
            }
        }
        out.insert(own.clone(), to);
    }
    out
}

fn shown(m: &[String]) -> String {
    if m.is_empty() {
        "lib".to_string()
    } else {
        m.join("::")
    }
}

/// The circles of `arrows`: the strongly connected sets of more than one file (Tarjan's).
fn circles(arrows: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    struct State<'a> {
        arrows: &'a BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<&'a ModPath, usize>,
        low: BTreeMap<&'a ModPath, usize>,
        stack: Vec<&'a ModPath>,
        on_stack: BTreeSet<&'a ModPath>,
        found: Vec<Vec<ModPath>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a ModPath) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        let arrows = s.arrows;
        for w in arrows.get(v).into_iter().flatten() {
            let Some((w, _)) = arrows.get_key_value(w) else {
                continue;
            };
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut set = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                set.push(w.clone());
                if w == v {
                    break;
                }
            }
            if set.len() > 1 {
                set.sort();
                s.found.push(set);
            }
        }
    }
    let mut s = State {
        arrows,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in arrows.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.found
}

#[test]
fn no_import_circles_across_files() {
    let arrows = arrows(&library());
    let found = circles(&arrows);
    let shown_set = |set: &[ModPath]| set.iter().map(|m| shown(m)).collect::<Vec<_>>();
    let gone: Vec<String> = NOT_YET
        .iter()
        .filter(|known| !found.iter().any(|set| shown_set(set) == **known))
        .map(|known| format!("  {}", known.join(", ")))
        .collect();
    assert!(
        gone.is_empty(),
        "circles listed in NOT_YET that are gone (strike them):\n{}",
        gone.join("\n")
    );
    let found: Vec<String> = found
        .iter()
        .filter(|set| {
            !NOT_YET.contains(
                &shown_set(set)
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .as_slice(),
            )
        })
        .map(|set| {
            let members: BTreeSet<&ModPath> = set.iter().collect();
            let ties: Vec<String> = set
                .iter()
                .flat_map(|a| {
                    arrows[a]
                        .iter()
                        .filter(|b| members.contains(b))
                        .map(move |b| format!("{} -> {}", shown(a), shown(b)))
                })
                .collect();
            format!("  {}", ties.join(", "))
        })
        .collect();
    assert!(
        found.is_empty(),
        "import circles across files:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_reader_resolves_paths_groups_and_children() {
    let own: ModPath = vec!["families".into(), "matching".into(), "game".into()];
    let text = "use super::view::{View, hand_size};\nuse crate::{core::Game, deck};\n// crate::cli\nlet x = super::super::agent_by_name();\nmod view;\n#[cfg(test)]\nuse crate::cli;\n";
    let got: Vec<String> = named_paths(text, &own, &BTreeSet::new())
        .iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(
        got,
        [
            "families::matching::view::View",
            "families::matching::view::hand_size",
            "core::Game",
            "deck",
            "families::agent_by_name",
        ]
    );
    let children = BTreeSet::from(["view".to_string()]);
    let own: ModPath = vec!["families".into(), "matching".into()];
    let got = named_paths("pub use view::View;\n", &own, &children);
    assert_eq!(
        got,
        [["families", "matching", "view", "View"].map(String::from)]
    );
}

#[test]
fn a_circle_is_found() {
    let m = |s: &str| -> ModPath { s.split("::").map(String::from).collect() };
    let arrows = BTreeMap::from([
        (m("a::x"), BTreeSet::from([m("a::y")])),
        (m("a::y"), BTreeSet::from([m("a::z")])),
        (m("a::z"), BTreeSet::from([m("a::x")])),
        (m("b"), BTreeSet::from([m("a::x")])),
    ]);
    assert_eq!(circles(&arrows), [vec![m("a::x"), m("a::y"), m("a::z")]]);
}
