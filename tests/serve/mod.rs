//! `yaku serve` through the binary and a real browser: headless Chromium (Debian's `chromium`,
//! which `.ci/run` installs) opens the page, creates a room and plays whole games through the
//! WebSocket, one browser against bots and two browsers against each other in one room.
//!
//! Without Chromium the tests say they were skipped, unless `CI` is set: there they fail. The
//! server's limits, the operator's programs in rooms and a short load test are in submodules.

mod limits;
mod load;
mod programs;

use crate::common::{TempDir, bin, chromium};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A running `yaku serve`, stopped when dropped.
struct Served {
    child: Child,
    url: String,
}

impl Served {
    fn start() -> Served {
        Served::start_with(&[], Stdio::inherit())
    }

    /// `yaku serve` with more arguments, its standard error to `stderr`.
    fn start_with(args: &[&str], stderr: Stdio) -> Served {
        let mut child = Command::new(bin())
            .args(["serve", "--no-open"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("yaku serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Served { child, url }
    }

    /// A request to the server (`GET` or `POST` with a JSON body): the status and the body.
    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        self.request_with(method, path, "", body)
    }

    /// [`Served::request`] with more header lines (each ending in `\r\n`).
    fn request_with(&self, method: &str, path: &str, headers: &str, body: &str) -> (u16, String) {
        let host = self.url.trim_start_matches("http://").trim_end_matches('/');
        http(host, method, path, headers, body).expect("the server answers")
    }
}

/// One HTTP/1.1 request to `host`: the status and the body, read by the length the head gives
/// (a server may keep the connection open); `None` when the host does not answer.
fn http(host: &str, method: &str, path: &str, headers: &str, body: &str) -> Option<(u16, String)> {
    let mut stream = std::net::TcpStream::connect(host).ok()?;
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .ok()?;
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n{headers}\r\n{body}",
        body.len()
    )
    .ok()?;
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    while !head.ends_with("\r\n\r\n") {
        if reader.read_line(&mut head).ok()? == 0 {
            break;
        }
    }
    let status = head.get(9..12)?.parse().ok()?;
    let length = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse::<usize>().ok())?
        })
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some((status, String::from_utf8(body).ok()?))
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn browser() -> Option<std::path::PathBuf> {
    let found = chromium();
    assert!(
        found.is_some() || std::env::var_os("CI").is_none(),
        "CI is set but Chromium is not installed (apt-get install chromium)"
    );
    if found.is_none() {
        eprintln!("SKIPPED the browser table tests: Chromium is not installed");
    }
    found
}

/// Headless Chromium on a page, driven over the DevTools protocol: the page plays by itself
/// (`auto=first` answers every decision with its first legal move), and the test reads the
/// page's status until the game is over.
struct Browser {
    child: Child,
    page: tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>,
    next_id: u64,
}

impl Browser {
    fn open(browser: &Path, profile: &Path, url: &str) -> Browser {
        let mut child = Command::new(browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--remote-debugging-port=0",
                "--window-size=1280,800",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(url)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium runs");
        // "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/ID"; the rest of what
        // Chromium logs is read and dropped, so that its writes never fail.
        let stderr = child.stderr.take().unwrap();
        let (send, receive) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(at) = line.find("ws://127.0.0.1:") {
                    let rest = &line[at + "ws://127.0.0.1:".len()..];
                    let _ = send.send(rest.split('/').next().unwrap_or("").to_string());
                }
            }
        });
        let port = receive
            .recv_timeout(std::time::Duration::from_secs(30))
            .ok();
        let port = port.expect("Chromium says where DevTools listen");
        let mut page_ws = None;
        for _ in 0..100 {
            let list = http(&format!("127.0.0.1:{port}"), "GET", "/json/list", "", "")
                .map(|(_, body)| body)
                .unwrap_or_default();
            let pages: serde_json::Value = serde_json::from_str(&list).unwrap_or_default();
            page_ws = pages.as_array().and_then(|pages| {
                let page = pages.iter().find(|p| p["type"] == "page")?;
                Some(page["webSocketDebuggerUrl"].as_str()?.to_string())
            });
            if page_ws.is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let page_ws = page_ws.expect("the page is listed");
        let (page, _) = tungstenite::connect(page_ws).expect("DevTools connect");
        if let tungstenite::stream::MaybeTlsStream::Plain(stream) = page.get_ref() {
            stream
                .set_read_timeout(Some(std::time::Duration::from_secs(30)))
                .unwrap();
        }
        Browser {
            child,
            page,
            next_id: 1,
        }
    }

    /// The value of a JavaScript expression on the page.
    fn eval(&mut self, expression: &str) -> serde_json::Value {
        let id = self.next_id;
        self.next_id += 1;
        let call = serde_json::json!({
            "id": id,
            "method": "Runtime.evaluate",
            "params": { "expression": expression, "returnByValue": true },
        });
        self.page.send(call.to_string().into()).unwrap();
        loop {
            let reply = self.page.read().unwrap();
            let Ok(text) = reply.to_text() else { continue };
            let v: serde_json::Value = serde_json::from_str(text).unwrap();
            if v["id"] == id {
                return v["result"]["result"]["value"].clone();
            }
        }
    }

    /// Waits (at most a minute) until the page says the game is over; the page's text then.
    fn wait_for_game_over(&mut self) -> String {
        for _ in 0..600 {
            if self.eval("document.getElementById('status').textContent") == "game over" {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        self.eval("document.body.innerText")
            .as_str()
            .unwrap_or_default()
            .to_string()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn one_browser_plays_whole_games_against_bots() {
    let Some(browser) = browser() else { return };
    let served = Served::start();
    let dir = TempDir::new("serve-bots");
    for (ruleset, players) in [
        ("koikoi", "human,greedy"),
        ("gostop", "human,greedy,random"),
        ("schnapsen", "human,greedy"),
    ] {
        let url = format!(
            "{}?ruleset={ruleset}&players={players}&hands=1&auto=first",
            served.url
        );
        let mut page = Browser::open(&browser, &dir.join(ruleset), &url);
        let text = page.wait_for_game_over();
        assert!(text.contains("Game over"), "{ruleset}: {text}");
    }
}

#[test]
fn two_browsers_play_a_hand_against_each_other_in_one_room() {
    let Some(browser) = browser() else { return };
    let served = Served::start();
    let (status, body) = served.request(
        "POST",
        "/api/rooms",
        r#"{"ruleset":"koikoi","players":["human","human"],"hands":1}"#,
    );
    assert_eq!(status, 200, "{body}");
    let created: serde_json::Value = serde_json::from_str(&body).unwrap();
    let room = created["room"].as_str().unwrap();
    assert_eq!(room.len(), 32, "a 128-bit code");
    let dir = TempDir::new("serve-two");
    let mut players: Vec<Browser> = created["people"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let (seat, token) = (p[0].as_u64().unwrap(), p[1].as_str().unwrap());
            let url = format!("{}?room={room}&token={token}&auto=first", served.url);
            Browser::open(&browser, &dir.join(format!("seat-{seat}")), &url)
        })
        .collect();
    for page in &mut players {
        let text = page.wait_for_game_over();
        assert!(text.contains("Game over"), "{text}");
    }
}

#[test]
fn the_server_refuses_what_it_cannot_do() {
    let served = Served::start();
    let (status, body) = served.request("GET", "/api/rulesets", "");
    assert_eq!(status, 200);
    assert!(body.contains("\"id\":\"koikoi\""), "{body}");
    let (status, body) = served.request(
        "POST",
        "/api/rooms",
        r#"{"ruleset":"nope","players":["human","greedy"]}"#,
    );
    assert_eq!((status, body.as_str()), (404, "no bundled ruleset `nope`"));
    let (status, body) = served.request(
        "POST",
        "/api/rooms",
        r#"{"ruleset":"koikoi","players":["human","grredy"]}"#,
    );
    assert_eq!(status, 400);
    assert!(body.contains("greedy"), "{body}");
    let upgrade = "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
                   Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    let (status, body) = served.request_with("GET", "/api/rooms/0123/ws?token=x", upgrade, "");
    assert_eq!((status, body.as_str()), (404, "no such room"));
    let (status, body) = served.request(
        "POST",
        "/api/rooms",
        r#"{"ruleset":"koikoi","players":["human","greedy"]}"#,
    );
    assert_eq!(status, 200);
    let room: serde_json::Value = serde_json::from_str(&body).unwrap();
    let path = format!(
        "/api/rooms/{}/ws?token=guess",
        room["room"].as_str().unwrap()
    );
    let (status, body) = served.request_with("GET", &path, upgrade, "");
    assert_eq!(
        (status, body.as_str()),
        (403, "this token holds no seat here")
    );
    let (status, body) = served.request("GET", "/api/rules/koikoi", "");
    assert_eq!(status, 200);
    assert!(body.contains("<html"), "{body}");
}
