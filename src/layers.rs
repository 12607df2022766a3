//! The order of the layers, pinned: each top-level module may import only modules of its own
//! layer or of the layers below it, so the core stands on its own and families, agents and the
//! command line stand on it; the modules of a layer marked apart import nothing of each other
//! (the browser's server and the language server share only what the front-end layer below
//! them holds). The test reads every `crate::` path in the library's code (test modules and
//! test files aside, which may reach up to set games up).

/// The layers, lowest first. Modules of one layer may import each other.
const LAYERS: &[&[&str]] = &[
    // Files, diagnostics, cards: no game in them.
    &["diag", "fsio", "deck"],
    // The rules: rule files, the expression language, scoring scripts, the yaku table.
    &["expr", "script", "ruleset", "yaku"],
    // The game interface, seats, moves, the driver, records.
    &["core"],
    // Bots that play any game through the core.
    &["agent"],
    // The game families and their one registry.
    &["families"],
    // What reads games of every family: rule sheets, simulations.
    &["sheet", "sim"],
    // What the front ends share: each family's table, seat tables, the validator's findings.
    &["front"],
    // The front ends a command starts: the language server and the browser table's server.
    &["lsp", "serve"],
    // The command line, the only place that prints: it starts the other two.
    &["cli"],
];

/// Layers whose modules may not import each other: each stands on the layers below alone.
const APART: &[&[&str]] = &[&["lsp", "serve"]];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The top-level modules `text` reaches through `crate::` paths, outside comments and before
/// its test module.
fn reached(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        let code = code.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                // `use crate::{a, b::c}`: every name at the group's top level.
                let inner = group.split('}').next().unwrap_or("");
                for part in inner.split(',') {
                    let name: String = part
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        out.push((n + 1, name));
                    }
                }
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.push((n + 1, name));
            }
        }
    }
    out
}

/// The library's `src/` folder and every `.rs` file under it, for the tests that read the
/// code's shape (this one, `cycles`, `sizes`).
pub(crate) fn source_files() -> (std::path::PathBuf, Vec<std::path::PathBuf>) {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut dirs = vec![src.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    (src, files)
}

#[test]
fn every_import_goes_down_the_layers() {
    let (src, files) = source_files();
    let mut wrong = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        let name = rel.file_stem().unwrap().to_string_lossy();
        if name == "tests"
            || name.ends_with("_tests")
            || name == "layers"
            || name == "cycles"
            || name == "sizes"
        {
            continue;
        }
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if top == "lib" || top == "main" {
            continue;
        }
        let Some(own) = layer_of(&top) else {
            wrong.push(format!(
                "src/{}: module `{top}` is in no layer",
                rel.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(&file).unwrap();
        for (line, module) in reached(&text) {
            let apart = APART
                .iter()
                .any(|a| a.contains(&top.as_str()) && a.contains(&module.as_str()));
            match layer_of(&module) {
                Some(_) if apart && module != top => wrong.push(format!(
                    "src/{}:{line}: `{top}` imports `{module}`, a front end beside it",
                    rel.display()
                )),
                Some(l) if l <= own => {}
                Some(_) => wrong.push(format!(
                    "src/{}:{line}: `{top}` imports `{module}`, a layer above it",
                    rel.display()
                )),
                None => wrong.push(format!(
                    "src/{}:{line}: `{module}` is in no layer",
                    rel.display()
                )),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that run up the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_reader_sees_paths_and_groups() {
    let text = "use crate::core::Game;\nuse crate::{deck, ruleset::Flow};\n// crate::cli\nlet x = crate::agent::f(); // crate::sim\n#[cfg(test)]\nuse crate::cli;\n";
    let got: Vec<String> = reached(text).into_iter().map(|(_, m)| m).collect();
    assert_eq!(got, ["core", "deck", "ruleset", "agent"]);
}
