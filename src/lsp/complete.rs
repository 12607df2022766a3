//! Completion and hover: what the cursor is on (a key of the table it is in, or a value), read
//! from the line and the table headers above it, and the words that fit there, from the key
//! definitions (`ruleset::keys`) and the ruleset the buffer loads to.

use super::{Document, offset_of};
use crate::ruleset::keys::{DECK_FILE, KeyDef, KeyType, RULESET_FILE, STRATEGY_FILE, TableDef};
use lsp_types::{CompletionItem, CompletionItemKind, Documentation, Position};

/// The line of `text` that holds byte `offset`.
pub(super) fn line_at(text: &str, offset: usize) -> &str {
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    &text[start..end]
}

/// The key a line sets (`rounds` of `rounds = 6`), when it sets one.
pub(super) fn key_of_line(line: &str) -> Option<&str> {
    let (key, _) = line.split_once('=')?;
    let key = key.trim().trim_matches('"');
    (!key.is_empty() && !key.starts_with('[') && !key.starts_with('#')).then_some(key)
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '/' | '.')
}

/// The word under byte `offset`: an id, a key, a name (`pampas-moon`, `house/three-rounds`).
pub(super) fn word_at(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    let start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word_char(*c))
        .last()
        .map_or(offset, |(i, _)| i);
    let end = text[offset..]
        .char_indices()
        .find(|(_, c)| !is_word_char(*c))
        .map_or(text.len(), |(i, _)| offset + i);
    let word = text[start..end].trim_end_matches('.');
    (!word.is_empty()).then(|| word.to_string())
}

/// The kind of file the text is, by its top-level tables.
fn file_def(text: &str) -> &'static TableDef {
    let has = |header: &str| text.lines().any(|l| l.trim() == header);
    if has("[deck]") {
        &DECK_FILE
    } else if has("[strategy]") {
        &STRATEGY_FILE
    } else {
        &RULESET_FILE
    }
}

/// The table the line at `offset` is in: the last header above it (`[flow]`, `[[yaku]]`,
/// `[[flow.instant_win]]`), followed through the key definitions.
fn table_at(text: &str, offset: usize) -> &'static TableDef {
    let root = file_def(text);
    let header = text[..offset]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['));
    let Some(header) = header else {
        return root;
    };
    let path = header
        .trim_start_matches('[')
        .split(']')
        .next()
        .unwrap_or("");
    let mut def = root;
    for part in path.split('.') {
        match def.key(part.trim()).map(|k| k.ty) {
            Some(KeyType::Table(inner) | KeyType::Tables(inner)) => def = inner,
            _ => return def,
        }
    }
    def
}

/// The completion items at a position.
pub(super) fn items(doc: &Document, at: Position) -> Vec<CompletionItem> {
    let offset = offset_of(&doc.text, at);
    let line_start = doc.text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = &doc.text[line_start..offset];
    let table = table_at(&doc.text, line_start);
    if before.trim_start().starts_with('[') {
        return table_names(file_def(&doc.text));
    }
    let Some((key, _)) = before.split_once('=') else {
        return table.keys.iter().map(key_item).collect();
    };
    let key = table.key(key.trim());
    value_items(doc, key)
}

fn key_item(k: &KeyDef) -> CompletionItem {
    CompletionItem {
        label: k.name.to_string(),
        kind: Some(CompletionItemKind::PROPERTY),
        detail: Some(if k.required {
            "required".to_string()
        } else {
            "optional".to_string()
        }),
        documentation: Some(Documentation::String(k.description.to_string())),
        ..CompletionItem::default()
    }
}

/// The tables a header may name: each table and list of tables, nested ones by their dotted path.
fn table_names(root: &'static TableDef) -> Vec<CompletionItem> {
    let mut out = Vec::new();
    let mut stack: Vec<(String, &'static TableDef)> = vec![(String::new(), root)];
    while let Some((prefix, def)) = stack.pop() {
        for k in def.keys {
            if let KeyType::Table(inner) | KeyType::Tables(inner) = k.ty {
                let path = format!("{prefix}{}", k.name);
                out.push(CompletionItem {
                    label: path.clone(),
                    kind: Some(CompletionItemKind::MODULE),
                    documentation: Some(Documentation::String(k.description.to_string())),
                    ..CompletionItem::default()
                });
                if prefix.matches('.').count() < 3 {
                    stack.push((format!("{path}."), inner));
                }
            }
        }
    }
    out
}

fn item(label: &str, kind: CompletionItemKind, detail: &str) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: Some(detail.to_string()),
        ..CompletionItem::default()
    }
}

/// The words a value may hold: the key's allowed words, bundled names for a base or a deck,
/// otherwise the ruleset's ids (cards, kinds, suits, yaku, options, definitions, tallies,
/// declarations) and the expression language's functions.
fn value_items(doc: &Document, key: Option<&KeyDef>) -> Vec<CompletionItem> {
    use CompletionItemKind as K;
    if let Some(k) = key {
        if !k.values.is_empty() {
            return k
                .values
                .iter()
                .map(|v| item(v, K::ENUM_MEMBER, k.description))
                .collect();
        }
        match k.name {
            "extends" => {
                return crate::ruleset::bundled::ruleset_names()
                    .map(|n| item(n, K::FILE, "bundled ruleset"))
                    .collect();
            }
            "deck" => {
                return crate::ruleset::bundled::deck_names()
                    .map(|n| item(n, K::FILE, "bundled deck"))
                    .collect();
            }
            _ => {}
        }
        if matches!(k.ty, KeyType::Bool) {
            return ["true", "false"]
                .iter()
                .map(|v| item(v, K::VALUE, "boolean"))
                .collect();
        }
    }
    let Some(r) = &doc.ruleset else {
        return Vec::new();
    };
    let deck = &r.deck;
    let mut out: Vec<CompletionItem> = Vec::new();
    for y in &r.yaku.yaku {
        out.push(item(&y.id, K::CLASS, &format!("yaku: {}", y.name)));
    }
    for c in &deck.cards {
        out.push(item(&c.id, K::CONSTANT, &format!("card: {}", c.name)));
    }
    for k in &deck.kinds {
        out.push(item(&k.id, K::ENUM, "kind"));
    }
    for s in &deck.suits {
        out.push(item(&s.id, K::ENUM, &format!("suit: {}", s.name)));
    }
    for (name, doc) in crate::expr::FUNCTIONS {
        out.push(item(name, K::FUNCTION, doc));
    }
    for o in &r.options {
        out.push(item(&o.id, K::VARIABLE, "option"));
    }
    for (name, _) in &r.defines {
        out.push(item(name, K::VARIABLE, "definition"));
    }
    for t in &r.tallies {
        out.push(item(&t.id, K::VARIABLE, &format!("tally: {}", t.name)));
    }
    for d in &r.declarations {
        out.push(item(&d.id, K::EVENT, &format!("declaration: {}", d.name)));
    }
    out
}

/// The hover text at a position: a yaku's or a card's sheet text, a function's signature, or a
/// key's description.
pub(super) fn hover(doc: &Document, at: Position) -> Option<String> {
    let offset = offset_of(&doc.text, at);
    let word = word_at(&doc.text, offset)?;
    let line = line_at(&doc.text, offset);
    let line_start = doc.text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let on_key =
        key_of_line(line).is_some_and(|k| k == word) && !line[..offset - line_start].contains('=');
    if on_key {
        let table = table_at(&doc.text, line_start);
        let k = table.key(&word)?;
        return Some(format!(
            "**{}** ({})\n\n{}",
            k.name, table.name, k.description
        ));
    }
    if let Some(r) = &doc.ruleset {
        if let Some(text) = crate::sheet::yaku_text(r, &word) {
            return Some(format!("**yaku** {text}"));
        }
        if let Some(text) = crate::sheet::card_text(r, &word) {
            return Some(format!("**card** {text}"));
        }
    }
    crate::expr::FUNCTIONS
        .iter()
        .find(|(name, _)| *name == word)
        .map(|(_, doc)| format!("**function** {doc}"))
}
