//! `yaku schema`: the JSON Schema generated from the loader's key definitions accepts every
//! bundled ruleset, house rule, deck and strategy, and rejects a misspelt key, a wrong type and
//! an unknown value, as the loader does; a real TOML validator (Taplo, npm `@taplo/cli`) names
//! each mistake's key on its line.
//!
//! Without Taplo the validator test says it was skipped, unless `CI` is set: there it fails, and
//! `.ci/run` installs it.

use crate::common::{TempDir, Yaku, root};

fn validator() -> jsonschema::Validator {
    let out = Yaku::new(["schema"]).expect(0);
    let schema: serde_json::Value = serde_json::from_str(&out.stdout).expect("the schema is JSON");
    jsonschema::validator_for(&schema).expect("the schema is a valid JSON Schema")
}

/// A TOML text as JSON, as Taplo sees it.
fn as_json(text: &str) -> serde_json::Value {
    let value: toml::Value = toml::from_str(text).expect("TOML");
    serde_json::to_value(value).expect("TOML converts to JSON")
}

/// Every `.toml` under `rulesets/`.
fn bundled_files() -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![root().join("rulesets")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "toml") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_bundled_file_validates_against_the_schema() {
    let validator = validator();
    let files = bundled_files();
    assert!(files.len() >= 15, "{files:?}");
    for path in files {
        let json = as_json(&std::fs::read_to_string(&path).unwrap());
        let errors: Vec<String> = validator
            .iter_errors(&json)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
    }
}

#[test]
fn the_schema_rejects_what_the_loader_rejects() {
    let validator = validator();
    for (mistake, text) in [
        (
            "a misspelt key",
            "[ruleset]\nid = \"x\"\nextends = \"koikoi\"\nnmae = \"x\"\n",
        ),
        (
            "a wrong type",
            "[ruleset]\nid = \"x\"\nextends = \"koikoi\"\n[flow]\nrounds = \"12\"\n",
        ),
        (
            "an unknown value",
            "[ruleset]\nid = \"x\"\nextends = \"koikoi\"\n[flow]\nnext_dealer = \"loser\"\n",
        ),
    ] {
        assert!(
            !validator.is_valid(&as_json(text)),
            "{mistake} passes the schema"
        );
    }
}

#[test]
fn the_schema_documents_every_key() {
    let out = Yaku::new(["schema"]).expect(0);
    let schema: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let flow = &schema["else"]["else"]["properties"]["flow"];
    assert_eq!(
        flow["properties"]["next_dealer"]["enum"],
        serde_json::json!(["winner", "same", "alternate"])
    );
    assert!(
        flow["properties"]["rounds"]["description"]
            .as_str()
            .is_some_and(|d| !d.is_empty())
    );
}

/// The Taplo binary, when one is installed.
fn taplo() -> Option<std::path::PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|dir| std::path::Path::new(dir).join("taplo"))
        .find(|p| p.is_file())
}

/// `taplo lint` on `file` (which names its schema in a `#:schema` line): exit status and output.
fn taplo_lint(taplo: &std::path::Path, dir: &std::path::Path, file: &str) -> (bool, String) {
    let out = std::process::Command::new(taplo)
        .args(["lint", "--colors", "never", file])
        .current_dir(dir)
        .env("RUST_LOG", "error")
        .env("NO_COLOR", "1")
        .output()
        .expect("taplo runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn taplo_names_each_mistaken_key_on_its_line() {
    let Some(taplo) = taplo() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but Taplo is not installed (npm install -g @taplo/cli)"
        );
        eprintln!("SKIPPED taplo_names_each_mistaken_key_on_its_line: Taplo is not installed");
        return;
    };
    let dir = TempDir::new("taplo");
    Yaku::new(["schema", "-o"])
        .arg(dir.join("yaku.schema.json").to_str().unwrap())
        .expect(0);
    let header = "#:schema ./yaku.schema.json\n";
    // A house rule with a new author's three mistakes, each on a line of its own.
    dir.write(
        "house.toml",
        format!(
            "{header}[ruleset]\nid = \"mine\"\nextends = \"koikoi\"\n\n[flow]\nroundz = 6\nnext_dealer = \"loser\"\n\n[[yaku]]\nid = \"x\"\npionts = \"5\"\n"
        ),
    );
    let (ok, out) = taplo_lint(&taplo, &dir, "house.toml");
    assert!(!ok, "taplo passes the mistakes:\n{out}");
    // Each mistake is reported once, on its own line (a misspelt key was once reported against
    // every key of its table).
    let errors: Vec<(&str, &str)> = out
        .lines()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[0].starts_with("error:") && w[1].contains("house.toml:"))
        .map(|w| (w[0], w[1]))
        .collect();
    for (line, expected) in [
        (7, "check its spelling"),
        (8, "\"loser\" is not one of"),
        (12, "check its spelling"),
    ] {
        let located = format!("house.toml:{line}:");
        assert!(
            errors
                .iter()
                .any(|(error, at)| error.contains(expected) && at.contains(&located)),
            "taplo does not say {expected:?} at {located}:\n{out}"
        );
    }
    assert_eq!(errors.len(), 3, "one report for each mistake:\n{out}");
    assert!(
        !out.contains("anyOf"),
        "taplo cannot tell the kind of file apart:\n{out}"
    );

    // A deck and a strategy are told apart by their top-level table.
    dir.write(
        "deck.toml",
        format!("{header}[deck]\nid = \"d\"\nkinds = []\ncolour = 1\n"),
    );
    let (_, out) = taplo_lint(&taplo, &dir, "deck.toml");
    assert!(
        out.contains("check its spelling") && out.contains("deck.toml:4:"),
        "{out}"
    );
    dir.write(
        "strategy.toml",
        format!("{header}[strategy]\ndeck = \"gupai\"\nname = \"s\"\nbet = \"most\"\ndraw = 1\n"),
    );
    let (_, out) = taplo_lint(&taplo, &dir, "strategy.toml");
    assert!(out.contains("\"most\""), "{out}");

    // Every bundled file passes, in one run (Taplo takes a second or two to start).
    let schema = format!("file://{}", dir.join("yaku.schema.json").display());
    let files: Vec<String> = bundled_files()
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let out = std::process::Command::new(&taplo)
        .args(["lint", "--colors", "never", "--schema", &schema])
        .args(&files)
        .env("RUST_LOG", "error")
        .output()
        .expect("taplo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn each_kind_has_a_schema_of_its_own() {
    for (kind, text, valid) in [
        ("deck", "[deck]\nid = \"d\"\n", false),
        (
            "strategy",
            "[strategy]\ndeck = \"gupai\"\nname = \"s\"\nbet = 1\ndraw = 1\n",
            true,
        ),
        (
            "ruleset",
            "[ruleset]\nid = \"x\"\nextends = \"koikoi\"\n",
            true,
        ),
        ("ruleset", "[strategy]\nname = \"s\"\n", false),
    ] {
        let out = Yaku::new(["schema", "--kind", kind]).expect(0);
        let schema: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
        assert_eq!(validator.is_valid(&as_json(text)), valid, "{kind}: {text}");
    }
}
