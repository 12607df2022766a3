//! Rule files pasted or uploaded on the page: checked by the server with the findings and
//! limits of `yaku validate` (the same loader, file size bound and script bounds), and, when
//! valid, played in a room. A pasted file reaches only the bundled rulesets, decks and scripts
//! ([`crate::ruleset::load_pasted`]), never the server's disk.

use super::limits::Guard;
use crate::diag::Loc;
use crate::diag::{Diagnostic, SourceMap, has_errors, render_json, render_text};
use crate::ruleset::{Loaded, Ruleset, load_pasted};
use axum::body::Bytes;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use std::sync::Arc;

/// The name a pasted file goes by in its findings.
pub const PASTED_NAME: &str = "<pasted>";

/// The most findings rendered with their quoted lines (all are listed).
const MAX_RENDERED: usize = 100;

/// Checks a pasted rule file: [`load_pasted`] on its text; bytes that are not UTF-8 text are one
/// finding at the first wrong byte, as `yaku validate` reports such a file.
pub fn check(bytes: &[u8]) -> Loaded {
    match std::str::from_utf8(bytes) {
        Ok(text) => load_pasted(PASTED_NAME, text),
        Err(e) => {
            let text = String::from_utf8_lossy(bytes).into_owned();
            let start = String::from_utf8_lossy(&bytes[..e.valid_up_to()]).len();
            let mut sources = SourceMap::new();
            let file = sources.add(PASTED_NAME, text);
            let at = Loc::new(file, start..start + 1);
            let d = Diagnostic::error("the file is not UTF-8 text", at)
                .with_label("this byte is not UTF-8")
                .with_help(Some("save the file as UTF-8".into()));
            Loaded {
                value: None,
                diagnostics: vec![d],
                sources,
                read: Vec::new(),
            }
        }
    }
}

/// [`check`] on a game thread (a file's scripts run on sample hands), once the file is within
/// the server's size and a place to check it is free (parsing costs up to a few hundred times
/// the file's size, so only a few are checked at once).
async fn load(bytes: Bytes, guard: &Guard) -> Result<Loaded, (StatusCode, String)> {
    let most = guard.limits().pasted_bytes;
    if bytes.len() > most {
        return Err((
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "a rule file pasted on this server may be {} KiB at most ({most} bytes); this one has {} bytes",
                most / 1024,
                bytes.len()
            ),
        ));
    }
    let place = guard.pasted_check().map_err(|r| (r.status, r.message))?;
    tokio::task::spawn_blocking(move || {
        let _place = place;
        check(&bytes)
    })
    .await
    .map_err(|_| {
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            "the check failed".to_string(),
        )
    })
}

/// What the page is told of a pasted file: `yaku validate --json`'s findings, each with its
/// text as `yaku validate` prints it (the line quoted, the caret), and when the file is valid
/// its summary and seats.
pub fn report(
    diagnostics: &[Diagnostic],
    sources: &SourceMap,
    ruleset: Option<&Ruleset>,
) -> serde_json::Value {
    let mut found = render_json(sources, diagnostics);
    if let Some(items) = found.as_array_mut() {
        for (item, d) in items.iter_mut().zip(diagnostics).take(MAX_RENDERED) {
            item["text"] = render_text(sources, std::slice::from_ref(d)).into();
        }
    }
    let mut out = serde_json::json!({
        "valid": !has_errors(diagnostics) && ruleset.is_some(),
        "diagnostics": found,
        "text": render_text(sources, &diagnostics[..diagnostics.len().min(MAX_RENDERED)]),
    });
    if let Some(r) = ruleset {
        let range = crate::families::seat_range(r);
        out["summary"] = crate::front::ruleset_summary(Some(r)).into();
        out["ruleset"] = serde_json::json!({
            "id": r.id,
            "name": r.name,
            "description": r.description,
            "min": range.min,
            "max": range.max,
            "seats": range.default,
        });
    }
    out
}

/// A bundled house rule, offered on the page as a file to paste and change.
#[derive(serde::Serialize)]
pub struct HouseRule {
    /// Its bundled name (`house/one-koikoi`).
    pub id: &'static str,
    /// Its display name.
    pub name: String,
    /// The ruleset it extends.
    pub extends: String,
    /// The file's text.
    pub text: &'static str,
}

/// The bundled house rules (rule files that extend another), by name.
pub fn house_rules() -> Vec<HouseRule> {
    crate::ruleset::bundled::ruleset_names()
        .filter_map(|id| {
            let text = crate::ruleset::bundled::file(&format!("{id}.toml"))?;
            let table: toml::Table = text.parse().ok()?;
            let header = table.get("ruleset")?;
            let extends = header.get("extends")?.as_str()?.to_string();
            let name = header.get("name")?.as_str()?.to_string();
            Some(HouseRule {
                id,
                name,
                extends,
                text,
            })
        })
        .collect()
}

/// `GET /api/house-rules`: [`house_rules`].
pub async fn list_house_rules() -> Json<Vec<HouseRule>> {
    Json(house_rules())
}

/// `POST /api/validate` with the rule file as the body: the findings ([`report`]).
pub async fn validate(Extension(guard): Extension<Arc<Guard>>, body: Bytes) -> Response {
    match load(body, &guard).await {
        Ok(loaded) => Json(report(
            &loaded.diagnostics,
            &loaded.sources,
            loaded.value.as_ref(),
        ))
        .into_response(),
        Err(e) => e.into_response(),
    }
}

/// `POST /api/rules` with the rule file as the body: its rule sheet, when it is valid (written
/// on a game thread).
pub async fn sheet(Extension(guard): Extension<Arc<Guard>>, body: Bytes) -> Response {
    let ruleset = match ruleset(body, &guard).await {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    match tokio::task::spawn_blocking(move || super::sheet_html(&ruleset)).await {
        Ok(html) => axum::response::Html(html).into_response(),
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "the rule sheet failed").into_response(),
    }
}

/// The ruleset a pasted file makes, or a 400 with its findings as `yaku validate` prints them
/// (the first hundred quoted).
pub async fn ruleset(text: Bytes, guard: &Guard) -> Result<Arc<Ruleset>, (StatusCode, String)> {
    let loaded = load(text, guard).await?;
    match loaded.value {
        Some(r) if !has_errors(&loaded.diagnostics) => Ok(Arc::new(r)),
        _ => {
            let shown = &loaded.diagnostics[..loaded.diagnostics.len().min(MAX_RENDERED)];
            let mut text = render_text(&loaded.sources, shown);
            if loaded.diagnostics.len() > shown.len() {
                text.push_str(&format!(
                    "\n... and {} more findings\n",
                    loaded.diagnostics.len() - shown.len()
                ));
            }
            Err((StatusCode::BAD_REQUEST, text))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pasted house rule extends a bundled ruleset; the findings of a wrong one are located
    /// in the pasted text, as `yaku validate` locates them.
    #[test]
    fn a_pasted_house_rule_extends_a_bundled_ruleset() {
        let good = "[ruleset]\nid = \"mine\"\nextends = \"koikoi\"\nname = \"Mine\"\n\n[flow]\nrounds = 3\n";
        let loaded = load_pasted(PASTED_NAME, good);
        let r = loaded.value.expect("valid");
        assert_eq!((r.id.as_str(), r.name.as_str()), ("mine", "Mine"));
        let shown = report(&loaded.diagnostics, &loaded.sources, Some(&r));
        assert_eq!(shown["valid"], true);
        assert_eq!(shown["ruleset"]["seats"], 2);
        // What the guide says a pasted file may name: bundled house rules, decks and scripts.
        for named in [
            "extends = \"house/one-koikoi\"\n",
            "extends = \"koikoi\"\n\n[scoring]\nscript = \"scripts/koikoi.rhai\"\n",
        ] {
            let text = format!("[ruleset]\nid = \"mine\"\nname = \"Mine\"\n{named}");
            let loaded = load_pasted(PASTED_NAME, &text);
            let findings = render_text(&loaded.sources, &loaded.diagnostics);
            assert!(loaded.value.is_some(), "{text}\n{findings}");
        }
        let wrong = good.replace("rounds", "roundz");
        let loaded = load_pasted(PASTED_NAME, &wrong);
        let report = report(&loaded.diagnostics, &loaded.sources, loaded.value.as_ref());
        assert_eq!(report["valid"], false);
        let d = &report["diagnostics"][0];
        assert_eq!(
            (d["file"].as_str(), d["line"].as_u64(), d["column"].as_u64()),
            (Some("<pasted>"), Some(7), Some(1))
        );
        assert!(
            d["text"]
                .as_str()
                .unwrap()
                .contains("7 | roundz = 3\n  | ^^^^^^"),
            "{d}"
        );
    }

    /// Every bundled house rule, pasted as it is, is valid: the page offers them to start from.
    #[test]
    fn every_bundled_house_rule_pasted_is_valid() {
        let offered = house_rules();
        assert!(offered.len() >= 20, "{}", offered.len());
        for h in offered {
            let loaded = check(h.text.as_bytes());
            let findings = render_text(&loaded.sources, &loaded.diagnostics);
            assert!(loaded.value.is_some(), "{}: {findings}", h.id);
            assert!(!h.extends.is_empty() && !h.name.is_empty(), "{}", h.id);
        }
    }

    /// Bytes that are not UTF-8 text are one finding, located at the first wrong byte.
    #[test]
    fn a_pasted_file_that_is_not_text_is_one_finding() {
        let loaded = check(b"[ruleset]\nid = \"x\xff\"\n");
        assert!(loaded.value.is_none());
        let shown = report(&loaded.diagnostics, &loaded.sources, None);
        let d = &shown["diagnostics"][0];
        assert_eq!(d["message"], "the file is not UTF-8 text");
        assert_eq!(
            (d["line"].as_u64(), d["column"].as_u64()),
            (Some(2), Some(8))
        );
    }

    /// What a pasted file names is looked for among the bundled files only: a path to a file on
    /// the server's disk is no ruleset, deck or script, and nothing of that file is read.
    #[test]
    fn a_pasted_file_reaches_no_file_on_the_server() {
        let dir = std::env::temp_dir().join(format!("yaku-pasted-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let secret = dir.join("secret.toml");
        std::fs::write(
            &secret,
            "[ruleset]\nid = \"secret\"\nextends = \"koikoi\"\nname = \"SECRET\"\n",
        )
        .unwrap();
        let stem = secret
            .display()
            .to_string()
            .trim_end_matches(".toml")
            .to_string();
        for text in [
            format!("[ruleset]\nid = \"x\"\nextends = \"{stem}\"\nname = \"X\"\n"),
            format!(
                "[ruleset]\nid = \"x\"\nextends = \"koikoi\"\nname = \"X\"\n\n[scoring]\nscript = \"{}\"\n",
                secret.display()
            ),
        ] {
            let loaded = load_pasted(PASTED_NAME, &text);
            assert!(loaded.value.is_none(), "{text}");
            let rendered = render_text(&loaded.sources, &loaded.diagnostics);
            assert!(!rendered.contains("SECRET"), "{rendered}");
            assert!(
                loaded
                    .sources
                    .files()
                    .iter()
                    .all(|s| !s.text.contains("SECRET")),
                "{rendered}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
