//! `yaku lsp`: a language server for rule files over standard input and output, so an editor
//! shows `yaku validate`'s findings as the author types, completes keys, ids and words, shows a
//! yaku's or a card's sheet text on hover, and jumps to what a house rule changes in its base.
//!
//! It runs the validator's own code on the buffer ([`crate::front::check_buffer`]), with
//! `extends`, `deck` and `script` resolved next to the file, so the editor and the command line
//! never disagree. The messages are `lsp-server`'s (rust-analyzer's, synchronous): one thread
//! answers requests in order, which is all a rule file needs, without an async runtime; the
//! framing on the streams is yaku's own (`transport.rs`: messages of at most [`MAX_MESSAGE`]
//! bytes), bounded and forgiving of bad messages.
//!
//! ```
//! use yaku::lsp::{offset_of, position_of};
//! let text = "[flow]\nrounds = 6\n";
//! let at = position_of(text, 7);
//! assert_eq!((at.line, at.character), (1, 0));
//! assert_eq!(offset_of(text, at), 7);
//! ```

mod complete;
mod transport;

pub use transport::MAX_MESSAGE;

use crate::diag::{FileId, Severity, SourceMap};
use crate::ruleset::Ruleset;
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::{
    CompletionOptions, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity,
    GotoDefinitionResponse, Hover, HoverContents, HoverProviderCapability, Location, MarkupContent,
    MarkupKind, OneOf, Position, PublishDiagnosticsParams, Range, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Runs the server on standard input and output until the client says `exit`; the process's
/// exit code.
pub fn run_stdio() -> i32 {
    let (connection, transport) = transport::stdio();
    let result = serve(&connection);
    drop(connection);
    // The transport's reason first: a session the input ended early shows why, not only that
    // the channel closed.
    match transport.finish().and(result) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: language server: {e}");
            1
        }
    }
}

/// What the server can do, as `initialize` answers it.
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(
                ["\"", "[", "(", ",", " ", "-", "."]
                    .map(String::from)
                    .to_vec(),
            ),
            ..CompletionOptions::default()
        }),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

/// One open file.
struct Document {
    path: PathBuf,
    text: String,
    /// The ruleset the buffer loads to, or its base while it has errors: where ids, cards and
    /// yaku for completion and hover come from.
    ruleset: Option<Ruleset>,
}

/// The open files, by URI.
#[derive(Default)]
struct Server {
    documents: HashMap<String, Document>,
}

fn serve(connection: &Connection) -> Result<(), String> {
    let capabilities = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    connection.initialize(capabilities).map_err(|e| {
        if e.channel_is_disconnected() {
            "the input ended before the session was initialized".to_string()
        } else {
            e.to_string()
        }
    })?;
    let mut server = Server::default();
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection
                    .handle_shutdown(&request)
                    .map_err(|e| e.to_string())?
                {
                    return Ok(());
                }
                let response = server.answer(request);
                send(connection, Message::Response(response))?;
            }
            Message::Notification(note) => {
                if let Some(uri) = server.note(note) {
                    let params = server.diagnostics(&uri);
                    let note =
                        Notification::new("textDocument/publishDiagnostics".to_string(), params);
                    send(connection, Message::Notification(note))?;
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

fn send(connection: &Connection, message: Message) -> Result<(), String> {
    connection.sender.send(message).map_err(|e| e.to_string())
}

impl Server {
    /// Takes a notification in; the URI of a document whose diagnostics changed.
    fn note(&mut self, note: Notification) -> Option<String> {
        match note.method.as_str() {
            "textDocument/didOpen" => {
                let p: lsp_types::DidOpenTextDocumentParams =
                    serde_json::from_value(note.params).ok()?;
                let uri = p.text_document.uri.as_str().to_string();
                self.set(&uri, p.text_document.text);
                Some(uri)
            }
            "textDocument/didChange" => {
                let p: lsp_types::DidChangeTextDocumentParams =
                    serde_json::from_value(note.params).ok()?;
                let uri = p.text_document.uri.as_str().to_string();
                // Full synchronization: the last change is the whole text.
                let text = p.content_changes.into_iter().last()?.text;
                self.set(&uri, text);
                Some(uri)
            }
            "textDocument/didClose" => {
                let p: lsp_types::DidCloseTextDocumentParams =
                    serde_json::from_value(note.params).ok()?;
                self.documents.remove(p.text_document.uri.as_str());
                None
            }
            _ => None,
        }
    }

    fn set(&mut self, uri: &str, text: String) {
        let path = uri_to_path(uri);
        let ruleset = crate::ruleset::load_buffer(&path, &text)
            .value
            .or_else(|| base_of(&path, &text));
        self.documents.insert(
            uri.to_string(),
            Document {
                path,
                text,
                ruleset,
            },
        );
    }

    /// The findings of `yaku validate` on a document, as the client shows them.
    fn diagnostics(&self, uri: &str) -> PublishDiagnosticsParams {
        let uri_value = Uri::from_str(uri).expect("a URI the client sent");
        let Some(doc) = self.documents.get(uri) else {
            return PublishDiagnosticsParams::new(uri_value, Vec::new(), None);
        };
        let (found, sources) = crate::front::check_buffer(&doc.path, &doc.text);
        let diagnostics = found
            .iter()
            .map(|d| to_lsp(d, &sources, &doc.text))
            .collect();
        PublishDiagnosticsParams::new(uri_value, diagnostics, None)
    }

    fn answer(&self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            "textDocument/completion" => {
                let p: Result<lsp_types::CompletionParams, _> =
                    serde_json::from_value(request.params);
                p.ok().and_then(|p| {
                    let at = p.text_document_position;
                    let doc = self.documents.get(at.text_document.uri.as_str())?;
                    let items = complete::items(doc, at.position);
                    serde_json::to_value(lsp_types::CompletionResponse::Array(items)).ok()
                })
            }
            "textDocument/hover" => {
                let p: Result<lsp_types::HoverParams, _> = serde_json::from_value(request.params);
                p.ok().and_then(|p| {
                    let at = p.text_document_position_params;
                    let doc = self.documents.get(at.text_document.uri.as_str())?;
                    let text = complete::hover(doc, at.position)?;
                    serde_json::to_value(Hover {
                        contents: HoverContents::Markup(MarkupContent {
                            kind: MarkupKind::Markdown,
                            value: text,
                        }),
                        range: None,
                    })
                    .ok()
                })
            }
            "textDocument/definition" => {
                let p: Result<lsp_types::GotoDefinitionParams, _> =
                    serde_json::from_value(request.params);
                p.ok().and_then(|p| {
                    let at = p.text_document_position_params;
                    let doc = self.documents.get(at.text_document.uri.as_str())?;
                    let location = definition(doc, at.position)?;
                    serde_json::to_value(GotoDefinitionResponse::Scalar(location)).ok()
                })
            }
            _ => {
                return Response::new_err(
                    id,
                    lsp_server::ErrorCode::MethodNotFound as i32,
                    format!(
                        "yaku's language server does not answer `{}`",
                        request.method
                    ),
                );
            }
        };
        Response::new_ok(id, result.unwrap_or(serde_json::Value::Null))
    }
}

/// The base a buffer with errors extends, loaded on its own, so that completion still knows the
/// deck and the yaku while the author is mid-edit.
fn base_of(path: &Path, text: &str) -> Option<Ruleset> {
    let table: toml::Table = text.parse().ok().or_else(|| {
        // A buffer that does not parse yet: its `extends = "..."` line alone.
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with("extends"))?;
        format!("{line}\n").parse().ok()
    })?;
    let extends = table
        .get("ruleset")
        .and_then(|r| r.get("extends"))
        .or_else(|| table.get("extends"))?;
    let spec = match extends {
        toml::Value::String(s) => toml::Value::String(s.clone()),
        toml::Value::Array(a) => a.first()?.clone(),
        _ => return None,
    };
    let stub = format!("[ruleset]\nid = \"base\"\nextends = {spec}\n");
    crate::ruleset::load_buffer(path, &stub).value
}

/// A finding as the client shows it: in the buffer at its place; in another file (a base, the
/// deck, the script) at the top of the buffer, naming the file, line and column.
fn to_lsp(d: &crate::diag::Diagnostic, sources: &SourceMap, text: &str) -> Diagnostic {
    let mut message = d.message.clone();
    if let Some(label) = &d.label {
        message += &format!(" ({label})");
    }
    if let Some(help) = &d.help {
        message += &format!("\nhelp: {help}");
    }
    let in_buffer = |loc: &crate::diag::Loc| loc.file == FileId(0);
    let range = if in_buffer(&d.loc) {
        Range::new(
            position_of(text, d.loc.span.start),
            position_of(text, d.loc.span.end),
        )
    } else {
        message = format!("{}: {message}", sources.describe(&d.loc));
        Range::default()
    };
    let related: Vec<DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter_map(|(loc, label)| {
            let file = &sources.get(loc.file);
            let path = if in_buffer(loc) {
                None
            } else {
                Some(PathBuf::from(&file.name)).filter(|p| p.is_file())
            };
            let uri = match path {
                Some(p) => path_to_uri(&p),
                None if in_buffer(loc) => return None,
                None => return None,
            };
            Some(DiagnosticRelatedInformation {
                location: Location::new(
                    uri,
                    Range::new(
                        position_of(&file.text, loc.span.start),
                        position_of(&file.text, loc.span.end),
                    ),
                ),
                message: label.clone(),
            })
        })
        .collect();
    Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        source: Some("yaku".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Diagnostic::default()
    }
}

/// Where the word under the cursor is defined: a base named by `extends`, or the entry (yaku,
/// declaration, tally, ...) of that id in the buffer or, following `extends`, in a base.
fn definition(doc: &Document, at: Position) -> Option<Location> {
    let offset = offset_of(&doc.text, at);
    let word = complete::word_at(&doc.text, offset)?;
    let line = complete::line_at(&doc.text, offset);
    let dir = doc.path.parent().unwrap_or(Path::new("."));
    if complete::key_of_line(line) == Some("extends") {
        let path = resolve(dir, &word)?;
        return Some(Location::new(path_to_uri(&path), Range::default()));
    }
    // The entry of that id: first in the buffer (not on the cursor's own line), then in each
    // base, nearest first.
    let mut files = vec![(doc.path.clone(), doc.text.clone())];
    let mut seen = 0;
    while seen < files.len() && seen < 16 {
        let (path, text) = files[seen].clone();
        seen += 1;
        let skip = (seen == 1).then_some(offset);
        if let Some(range) = id_definition(&text, &word, skip) {
            return Some(Location::new(path_to_uri(&path), range));
        }
        for base in extends_of(&text) {
            let base_dir = path.parent().unwrap_or(Path::new("."));
            if let Some(base_path) = resolve(base_dir, &base)
                && let Ok(base_text) = std::fs::read_to_string(&base_path)
            {
                files.push((base_path, base_text));
            }
        }
    }
    None
}

/// The range of `id = "WORD"` in `text`, except on the line holding `skip`.
fn id_definition(text: &str, word: &str, skip: Option<usize>) -> Option<Range> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let here = offset..offset + line.len();
        offset += line.len();
        if skip.is_some_and(|s| here.contains(&s)) {
            continue;
        }
        if complete::key_of_line(line) == Some("id")
            && let Some(value) = line.split_once('=').map(|(_, v)| v)
            && value
                .split('#')
                .next()
                .unwrap_or("")
                .trim()
                .trim_matches('"')
                == word
        {
            let start = here.start + line.len() - line.trim_start().len();
            return Some(Range::new(
                position_of(text, start),
                position_of(text, here.start + line.trim_end().len()),
            ));
        }
    }
    None
}

/// The bases a rule file's text names in `extends` (a string or a list).
fn extends_of(text: &str) -> Vec<String> {
    let Ok(table) = text.parse::<toml::Table>() else {
        return Vec::new();
    };
    match table.get("ruleset").and_then(|r| r.get("extends")) {
        Some(toml::Value::String(s)) => vec![s.clone()],
        Some(toml::Value::Array(a)) => a
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

/// The file a base spec names: a path next to the file, or a bundled ruleset's source in this
/// build's `rulesets/` folder when it is still there (a bundled base has no file otherwise).
fn resolve(dir: &Path, spec: &str) -> Option<PathBuf> {
    let local = dir.join(spec);
    if local.is_file() {
        return Some(local);
    }
    let stem = spec.trim_end_matches(".toml");
    let bundled = Path::new(env!("YAKU_SOURCE_DIR"))
        .join("rulesets")
        .join(format!("{stem}.toml"));
    (crate::ruleset::bundled::file(&format!("{stem}.toml")).is_some() && bundled.is_file())
        .then_some(bundled)
}

/// The position of byte `offset` in `text`: a line, and a column in UTF-16 code units as the
/// protocol counts them.
pub fn position_of(text: &str, offset: usize) -> Position {
    let offset = offset.min(text.len());
    let before = &text[..floor_char_boundary(text, offset)];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character = before[line_start..].encode_utf16().count();
    Position::new(line as u32, character as u32)
}

/// The byte offset of a protocol position in `text` (the end of the line when past it).
pub fn offset_of(text: &str, at: Position) -> usize {
    let mut offset = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if n == at.line as usize {
            let mut units = 0;
            for (i, c) in line.char_indices() {
                if units >= at.character as usize || c == '\n' {
                    return offset + i;
                }
                units += c.len_utf16();
            }
            return offset + line.len();
        }
        offset += line.len();
    }
    text.len()
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The path of a `file:` URI (percent-escapes decoded).
fn uri_to_path(uri: &str) -> PathBuf {
    let rest = uri.strip_prefix("file://").unwrap_or(uri);
    let mut bytes = Vec::with_capacity(rest.len());
    let raw = rest.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'%'
            && let Some(hex) = rest.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            bytes.push(b);
            i += 3;
            continue;
        }
        bytes.push(raw[i]);
        i += 1;
    }
    PathBuf::from(String::from_utf8_lossy(&bytes).into_owned())
}

/// The `file:` URI of a path (absolute), with what URIs do not allow percent-escaped.
fn path_to_uri(path: &Path) -> Uri {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut uri = String::from("file://");
    for b in absolute.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(b as char);
        } else {
            uri += &format!("%{b:02X}");
        }
    }
    Uri::from_str(&uri).expect("an escaped file URI parses")
}
