//! `yaku schema`: the JSON Schema generated from the loader's key definitions accepts every
//! bundled ruleset, house rule, deck and strategy, and rejects a misspelt key, a wrong type and
//! an unknown value, as the loader does.

use crate::common::{Yaku, root};

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
    let flow = &schema["anyOf"][0]["properties"]["flow"];
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
