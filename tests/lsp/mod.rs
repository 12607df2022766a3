//! `yaku lsp` driven over its standard streams as an editor drives it: the real binary, JSON-RPC
//! with `Content-Length` framing. Diagnostics are `yaku validate`'s for the buffer (with
//! `extends` resolved next to the file), completion offers keys, words, card ids, functions,
//! options and yaku ids, hover gives sheet text, and go-to-definition follows `extends`.

use crate::common::{TempDir, Yaku, bin};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A language-server session with the binary.
struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
    /// Notifications received while waiting for something else.
    notes: Vec<Value>,
}

impl Client {
    fn start(root: &std::path::Path) -> Client {
        let mut child = Command::new(bin())
            .arg("lsp")
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("yaku lsp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut client = Client {
            child,
            stdin,
            stdout,
            next_id: 1,
            notes: Vec::new(),
        };
        let init = client.request(
            "initialize",
            json!({ "processId": null, "rootUri": uri(root), "capabilities": {} }),
        );
        let caps = &init["capabilities"];
        assert_eq!(caps["hoverProvider"], json!(true), "{init}");
        assert_eq!(caps["definitionProvider"], json!(true), "{init}");
        assert!(caps["completionProvider"].is_object(), "{init}");
        client.notify("initialized", json!({}));
        client
    }

    fn send(&mut self, message: Value) {
        self.send_body(message.to_string().as_bytes());
    }

    /// Sends `body` framed as a message, whatever it holds.
    fn send_body(&mut self, body: &[u8]) {
        write!(self.stdin, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
        self.stdin.write_all(body).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next error response (keeping notifications received on the way).
    fn error(&mut self) -> Value {
        loop {
            let message = self.receive();
            if message.get("error").is_some() {
                return message;
            }
            self.notes.push(message);
        }
    }

    fn receive(&mut self) -> Value {
        let mut length = None;
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).unwrap();
            assert!(n > 0, "the server closed its output");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(v) = line.strip_prefix("Content-Length: ") {
                length = Some(v.parse::<usize>().unwrap());
            }
        }
        let mut body = vec![0; length.expect("a Content-Length header")];
        self.stdout.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).expect("JSON")
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and returns its result (failing on an error response).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let message = self.receive();
            if message.get("id") == Some(&json!(id)) {
                assert!(message.get("error").is_none(), "{method}: {message}");
                return message["result"].clone();
            }
            self.notes.push(message);
        }
    }

    /// The next diagnostics published for `file`.
    fn diagnostics(&mut self, file: &str) -> Vec<Value> {
        loop {
            let found = self.notes.iter().position(|n| {
                n["method"] == "textDocument/publishDiagnostics"
                    && n["params"]["uri"].as_str() == Some(file)
            });
            if let Some(i) = found {
                let note = self.notes.remove(i);
                return note["params"]["diagnostics"].as_array().unwrap().clone();
            }
            let message = self.receive();
            self.notes.push(message);
        }
    }

    fn open(&mut self, file: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": file, "languageId": "toml", "version": 1, "text": text } }),
        );
    }

    fn change(&mut self, file: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": file, "version": version },
                "contentChanges": [{ "text": text }]
            }),
        );
    }

    fn at(&mut self, method: &str, file: &str, line: usize, character: usize) -> Value {
        self.request(
            method,
            json!({
                "textDocument": { "uri": file },
                "position": { "line": line, "character": character }
            }),
        )
    }

    /// `shutdown`, `exit`, and the process's exit status.
    fn finish(mut self) -> std::process::ExitStatus {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        self.child.wait().unwrap()
    }
}

fn uri(path: &std::path::Path) -> String {
    format!("file://{}", path.display())
}

/// The labels of a completion result.
fn labels(result: &Value) -> Vec<String> {
    let items = result
        .as_array()
        .or_else(|| result["items"].as_array())
        .expect("completion items");
    items
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

/// The line and column of the first `needle` in `text` (0-based, ASCII text).
fn find(text: &str, needle: &str) -> (usize, usize) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} in the text"));
    let line = text[..at].matches('\n').count();
    let column = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    (line, column)
}

const BASE: &str = "[ruleset]
id = \"our-base\"
extends = \"koikoi\"

[[yaku]]
id = \"rainy-night\"
name = \"Rainy night\"
when = \"has(willow-rainman, willow-lightning)\"
points = \"3\"
";

const MISTAKES: &str = "[ruleset]
id = \"mine\"
extends = \"base.toml\"

[flow]
roundz = 6
next_dealer = \"loser\"

[[yaku]]
id = \"rainy-night\"
when = \"count(brigt) >= 3\"
";

#[test]
fn diagnostics_are_validates_findings_as_the_author_types() {
    let dir = TempDir::new("lsp-diagnostics");
    dir.write("base.toml", BASE);
    let house = dir.write("house.toml", MISTAKES);
    let file = uri(&house);
    let mut client = Client::start(&dir);
    client.open(&file, MISTAKES);
    let found = client.diagnostics(&file);
    let messages: Vec<&str> = found
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    for (needle, line) in [("roundz", 5), ("loser", 6), ("brigt", 10)] {
        let d = found
            .iter()
            .find(|d| d["message"].as_str().unwrap().contains(needle))
            .unwrap_or_else(|| panic!("no diagnostic names {needle}: {messages:?}"));
        assert_eq!(d["range"]["start"]["line"], json!(line), "{d}");
        assert_eq!(d["severity"], json!(1), "{d}");
    }
    assert!(
        messages.iter().any(|m| m.contains("help: did you mean")),
        "{messages:?}"
    );

    // The same findings as `yaku validate` on the file saved.
    let validate = Yaku::new(["validate", "house.toml"])
        .current_dir(&dir)
        .run();
    for m in &messages {
        let first = m.lines().next().unwrap();
        let first = first.split(" (").next().unwrap();
        assert!(
            validate.stderr.contains(first),
            "validate does not say {first:?}:\n{}",
            validate.stderr
        );
    }

    // Fixed as the author types: no findings left.
    let fixed = MISTAKES
        .replace("roundz", "rounds")
        .replace("loser", "winner")
        .replace("brigt", "bright");
    client.change(&file, 2, &fixed);
    assert_eq!(client.diagnostics(&file), Vec::<Value>::new());
    assert!(client.finish().success());
}

#[test]
fn completion_hover_and_definition() {
    let dir = TempDir::new("lsp-features");
    dir.write("base.toml", BASE);
    let text = "[ruleset]
id = \"mine\"
extends = \"base.toml\"
remove_yaku = [\"rainy-night\"]

[flow]
next_dealer = \"winner\"

[[yaku]]
id = \"kasu\"
when = \"has(pampas-moon) and count(plain) >= 3\"
points = \"count(plain) - 9\"
";
    let house = dir.write("house.toml", text);
    let file = uri(&house);
    let mut client = Client::start(&dir);
    client.open(&file, text);
    let _ = client.diagnostics(&file);

    // Keys of the table the cursor is in.
    let (line, _) = find(text, "next_dealer");
    let keys = labels(&client.at("textDocument/completion", &file, line, 0));
    assert!(keys.contains(&"rounds".to_string()), "{keys:?}");
    assert!(!keys.contains(&"when".to_string()), "{keys:?}");
    // A key's allowed words.
    let (line, column) = find(text, "\"winner\"");
    let words = labels(&client.at("textDocument/completion", &file, line, column + 1));
    assert!(words.contains(&"alternate".to_string()), "{words:?}");
    // Inside an expression: card ids, kinds, functions, options and yaku ids.
    let (line, column) = find(text, "pampas-moon");
    let names = labels(&client.at("textDocument/completion", &file, line, column));
    for expected in [
        "pampas-moon",
        "bright",
        "count",
        "seven_doubling",
        "tsukimi-zake",
    ] {
        assert!(
            names.contains(&expected.to_string()),
            "{expected}: {names:?}"
        );
    }
    // Bundled names for a base.
    let (line, column) = find(text, "base.toml");
    let bases = labels(&client.at("textDocument/completion", &file, line, column));
    assert!(bases.contains(&"koikoi".to_string()), "{bases:?}");

    // Hover: a yaku's sheet text, a card's, a key's description.
    let (line, column) = find(text, "kasu");
    let hover = client.at("textDocument/hover", &file, line, column + 1);
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.contains("Kasu") && shown.contains("plain"), "{shown}");
    let (line, column) = find(text, "pampas-moon");
    let hover = client.at("textDocument/hover", &file, line, column + 2);
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(
        shown.contains("Moon") && shown.contains("bright"),
        "{shown}"
    );
    let (line, column) = find(text, "next_dealer");
    let hover = client.at("textDocument/hover", &file, line, column + 2);
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("deal"),
        "{hover}"
    );

    // Definition across `extends`: the base file, and a yaku the base defines.
    let (line, column) = find(text, "base.toml");
    let target = client.at("textDocument/definition", &file, line, column + 1);
    assert_eq!(
        target["uri"],
        json!(uri(&dir.join("base.toml"))),
        "{target}"
    );
    let (line, column) = find(text, "rainy-night");
    let target = client.at("textDocument/definition", &file, line, column + 1);
    assert_eq!(
        target["uri"],
        json!(uri(&dir.join("base.toml"))),
        "{target}"
    );
    assert_eq!(target["range"]["start"]["line"], json!(5), "{target}");
    assert!(client.finish().success());
}

/// A deck of two French packs (104 cards) and a ruleset on it: the language server checks them
/// as `yaku validate` does, so the editor shows no finding, and a deck past 128 cards its one.
#[test]
fn a_deck_of_two_packs_has_no_finding_in_the_editor() {
    let dir = TempDir::new("lsp-two-packs");
    let deck_text = include_str!("../play/two_packs/french-ranks-104.toml");
    let rules_text = include_str!("../play/two_packs/double-pack-fishing.toml");
    let deck = dir.write("french-ranks-104.toml", deck_text);
    let rules = dir.write("double-pack-fishing.toml", rules_text);
    let mut client = Client::start(&dir);
    for (path, text) in [(&deck, deck_text), (&rules, rules_text)] {
        let file = uri(path);
        client.open(&file, text);
        assert_eq!(client.diagnostics(&file), Vec::<Value>::new(), "{file}");
    }
    let file = uri(&deck);
    client.change(&file, 2, &deck_text.replace("packs = 2", "packs = 3"));
    let found = client.diagnostics(&file);
    assert_eq!(found.len(), 1, "{found:?}");
    let message = found[0]["message"].as_str().unwrap();
    assert!(
        message.contains("156 cards") && message.contains("at most 128"),
        "{message}"
    );
    assert!(client.finish().success());
}

/// Issue 41, fault 14: a body that is no JSON-RPC message is answered with JSON-RPC's error (a
/// parse error, id null) and the session goes on; so does a message longer than the server
/// reads (answered, skipped without being held); a length no input holds is answered and the
/// end of the input ends the server with its reason, never an abort.
#[test]
fn bad_and_oversized_messages_are_answered_and_the_server_stays_up() {
    let dir = TempDir::new("lsp-bad-messages");
    let house = dir.write("house.toml", BASE);
    let file = uri(&house);
    let mut client = Client::start(&dir);
    for (body, code) in [
        (b"{not json".to_vec(), -32700),
        (vec![0xff, 0xfe], -32700),
        (br#"{"jsonrpc":"2.0","params":[]}"#.to_vec(), -32600),
    ] {
        client.send_body(&body);
        let error = client.error();
        assert_eq!(error["error"]["code"], json!(code), "{error}");
        assert_eq!(error["id"], Value::Null, "{error}");
    }
    // One byte over the limit: answered, skipped, and the next message is read as one.
    let long = vec![b' '; 16 * 1024 * 1024 + 1];
    client.send_body(&long);
    let error = client.error();
    assert!(
        error["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("skipped")),
        "{error}"
    );
    client.open(&file, BASE);
    assert_eq!(client.diagnostics(&file), Vec::<Value>::new());
    assert!(client.finish().success());

    let out = Yaku::new(["lsp"])
        .stdin("Content-Length: 100000000000000\r\n\r\n{}")
        .within(std::time::Duration::from_secs(60))
        .expect(1);
    assert!(out.stdout.contains("-32600"), "{}", out.stdout);
    assert!(
        out.stderr
            .contains("error: language server: the input ended within a message"),
        "{}",
        out.stderr
    );
}
