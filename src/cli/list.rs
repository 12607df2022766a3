//! `yaku list`: what ships in the binary (rulesets, house rules, decks, strategies), each with
//! its name and a one-line description, as text or JSON.

use crate::ruleset::bundled;

/// Arguments of `yaku list`.
#[derive(clap::Args, Debug)]
pub struct ListArgs {
    /// Print the list as JSON.
    #[arg(long)]
    json: bool,
}

/// One bundled file: its kind, the name that loads it, and a line about it.
struct Entry {
    kind: &'static str,
    name: &'static str,
    title: String,
    description: String,
}

/// Runs the command.
pub fn run(args: &ListArgs) -> i32 {
    let entries = entries();
    let text = if args.json {
        let items: Vec<serde_json::Value> = entries
            .iter()
            .map(|e| {
                serde_json::json!({
                    "kind": e.kind, "name": e.name, "title": e.title, "description": e.description,
                })
            })
            .collect();
        format!(
            "{}\n",
            serde_json::to_string_pretty(&items).unwrap_or_default()
        )
    } else {
        let mut out = String::new();
        let width = entries.iter().map(|e| e.name.len()).max().unwrap_or(0);
        for kind in ["ruleset", "house rule", "deck", "strategy"] {
            out.push_str(&format!("{}:\n", plural_kind(kind)));
            for e in entries.iter().filter(|e| e.kind == kind) {
                out.push_str(&format!("  {:width$}  {}\n", e.name, e.description));
            }
        }
        out
    };
    super::write_output(None, &text)
}

fn plural_kind(kind: &str) -> &'static str {
    match kind {
        "ruleset" => "Rulesets",
        "house rule" => "House rules",
        "deck" => "Decks",
        _ => "Strategies",
    }
}

/// Every bundled ruleset, house rule, deck and strategy, in that order, by name.
fn entries() -> Vec<Entry> {
    let mut out = Vec::new();
    for (path, text) in bundled::FILES {
        let Some(name) = path.strip_suffix(".toml") else {
            continue;
        };
        let (kind, table, name) = if let Some(n) = name.strip_prefix("decks/") {
            ("deck", "deck", n)
        } else if let Some(n) = name.strip_prefix("strategies/") {
            ("strategy", "strategy", n)
        } else if name.starts_with("house/") {
            ("house rule", "ruleset", name)
        } else {
            ("ruleset", "ruleset", name)
        };
        let tree: toml::Table = text.parse().unwrap_or_default();
        let field = |key: &str| {
            tree.get(table)
                .and_then(|t| t.get(key))
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_string()
        };
        let title = field("name");
        let mut description = crate::sheet::without_source_ids(&field("description"));
        if description.is_empty() {
            description = title.clone();
        }
        out.push(Entry {
            kind,
            name,
            title,
            description,
        });
    }
    let order = |k: &str| {
        ["ruleset", "house rule", "deck", "strategy"]
            .iter()
            .position(|x| *x == k)
    };
    out.sort_by_key(|e| (order(e.kind), e.name));
    out
}
