//! `yaku serve` through the binary and a real browser: headless Chromium (Debian's `chromium`,
//! which `.ci/run` installs) opens the page, creates a room and plays whole games through the
//! WebSocket, one browser against bots and two browsers against each other in one room.
//!
//! Without Chromium the tests say they were skipped, unless `CI` is set: there they fail. The
//! server's limits, the operator's programs in rooms and a short load test are in submodules.

mod attacks;
mod limits;
mod load;
mod programs;
mod watch;

use crate::common::{TempDir, bin, chromium};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A running `yaku serve`, stopped when dropped.
pub(crate) struct Served {
    child: Child,
    url: String,
}

impl Served {
    fn start() -> Served {
        Served::start_with(&[], Stdio::inherit())
    }

    /// `yaku serve` with more arguments (rooms in memory unless they give `--db`), its
    /// standard error to `stderr`.
    pub(crate) fn start_with(args: &[&str], stderr: Stdio) -> Served {
        let memory = (!args.contains(&"--db")).then_some("--in-memory");
        let mut child = Command::new(bin())
            .args(["serve", "--no-open"])
            .args(memory)
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

    /// The server's `HOST:PORT`.
    pub(crate) fn host(&self) -> String {
        self.url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string()
    }

    /// A seat's (or a spectator's) connection to `room` with `token`, reads timed out after 30 s.
    fn connect(&self, room: &str, token: &str) -> Socket {
        connect(&self.host(), room, token)
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

/// A WebSocket to a server.
type Socket = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>;

/// A seat's (or a spectator's) connection to `room` on the server at `host` with `token` (its
/// first message, as the page sends it), reads timed out after 30 s.
fn connect(host: &str, room: &str, token: &str) -> Socket {
    let url = format!("ws://{host}/api/rooms/{room}/ws");
    let (mut socket, _) = tungstenite::connect(url).expect("the seat connects");
    let first = serde_json::json!({ "token": token }).to_string();
    socket.send(first.into()).expect("the token is sent");
    if let tungstenite::stream::MaybeTlsStream::Plain(stream) = socket.get_ref() {
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(30)))
            .unwrap();
    }
    socket
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
        let params = serde_json::json!({ "expression": expression, "returnByValue": true });
        self.call("Runtime.evaluate", params)["result"]["value"].clone()
    }

    /// A DevTools command's result (the events that come before it are dropped).
    fn call(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        let id = self.next_id;
        self.next_id += 1;
        let call = serde_json::json!({ "id": id, "method": method, "params": params });
        self.page.send(call.to_string().into()).unwrap();
        loop {
            let reply = self.page.read().unwrap();
            let Ok(text) = reply.to_text() else { continue };
            let v: serde_json::Value = serde_json::from_str(text).unwrap();
            if v["id"] == id {
                return v["result"].clone();
            }
        }
    }

    /// Waits (at most a minute) until `condition`, a JavaScript expression, is true.
    fn wait_until(&mut self, condition: &str) -> bool {
        for _ in 0..600 {
            if self.eval(&format!("Boolean({condition})")) == true {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        false
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
            let url = format!("{}?auto=first#room={room}&token={token}", served.url);
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
    let (status, body) = served.request_with("GET", "/api/rooms/0123/ws", upgrade, "");
    assert_eq!((status, body.as_str()), (404, "no such room"));
    let (status, body) = served.request(
        "POST",
        "/api/rooms",
        r#"{"ruleset":"koikoi","players":["human","greedy"]}"#,
    );
    assert_eq!(status, 200);
    let room: serde_json::Value = serde_json::from_str(&body).unwrap();
    // A token that holds no seat is told so, and the connection closed (code 4001).
    let mut socket = served.connect(room["room"].as_str().unwrap(), "guess");
    let said: serde_json::Value =
        serde_json::from_str(socket.read().unwrap().to_text().unwrap()).unwrap();
    assert_eq!(said["type"], "error", "{said}");
    assert_eq!(said["code"], "token", "{said}");
    assert!(
        said["message"]
            .as_str()
            .unwrap()
            .contains("holds no seat in this room"),
        "{said}"
    );
    match socket.read() {
        Ok(tungstenite::Message::Close(Some(frame))) => assert_eq!(u16::from(frame.code), 4001),
        other => panic!("a close after the error: {other:?}"),
    }
    let (status, body) = served.request("GET", "/api/rules/koikoi", "");
    assert_eq!(status, 200);
    assert!(body.contains("<html"), "{body}");
}

/// What overlaps or is out of view on the page, measured by the DOM's geometry: every pair of
/// the page's boxes (panels, piles, cards, buttons, lines of text; a box and what it holds
/// aside) that overlap where they are visible (inside the viewport and any scrolling box that
/// clips them), each card of the hand not wholly visible (the hand sits in the dock, which
/// never scrolls away), and a page wider than the screen (only the board scrolls, and only
/// up and down).
const LAYOUT_PROBLEMS: &str = r##"(() => {
  const problems = [];
  const vw = innerWidth, vh = innerHeight;
  const seen = (el) => {
    const r = el.getBoundingClientRect();
    let box = { l: r.left, t: r.top, r: r.right, b: r.bottom };
    for (let a = el.parentElement; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX !== "visible" || s.overflowY !== "visible") {
        const q = a.getBoundingClientRect();
        box = { l: Math.max(box.l, q.left), t: Math.max(box.t, q.top),
                r: Math.min(box.r, q.right), b: Math.min(box.b, q.bottom) };
      }
    }
    return { l: Math.max(box.l, 0), t: Math.max(box.t, 0), r: Math.min(box.r, vw), b: Math.min(box.b, vh) };
  };
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
    (e.className ? "." + String(e.className).split(" ").join(".") : "") +
    (e.dataset.card ? "[" + e.dataset.card + "]" : "") + (e.textContent ? " '" + e.textContent.slice(0, 30) + "'" : "");
  const selector = "header, main, #title, #scores, .panel, .panel h3, .pile, .pile h4, .lines li, #center, " +
    "#center h3, #notes li, #log-box, #history-box, #rules-box, #invites, #dock, #prompt, #hand h3, " +
    ".card, #moves button";
  const boxes = [...document.querySelectorAll(selector)]
    .map((e) => [e, seen(e)])
    .filter(([, b]) => b.r - b.l > 0.5 && b.b - b.t > 0.5);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i], [b, q] = boxes[j];
      if (a.contains(b) || b.contains(a)) continue;
      const w = Math.min(p.r, q.r) - Math.max(p.l, q.l), h = Math.min(p.b, q.b) - Math.max(p.t, q.t);
      if (w > 1 && h > 1) problems.push("overlap: " + name(a) + " and " + name(b));
    }
  }
  const hand = [...document.querySelectorAll("#hand .card")];
  for (const c of hand) {
    const r = c.getBoundingClientRect(), s = seen(c);
    if (r.left < 0 || r.top < 0 || r.right > vw || r.bottom > vh ||
        Math.abs(s.r - s.l - r.width) > 0.5 || Math.abs(s.b - s.t - r.height) > 0.5) {
      problems.push("hand card not wholly visible: " + name(c));
    }
  }
  if (document.documentElement.scrollWidth > vw) problems.push("the page is wider than the screen");
  return problems;
})()"##;

/// What is wrong with the cards' faces: every face-up card of the page drawn as an SVG face
/// (`deck::face`, sent in hello) that fills its tile, neither cut nor too small to read; a
/// bundled deck's card never in the text face of a deck without `art`; each flower card with
/// its month's plant (`.motif`). The number of faces of each style is returned with them.
const FACE_PROBLEMS: &str = r##"(() => {
  const problems = [], styles = {};
  for (const c of document.querySelectorAll(".card:not(.back)")) {
    const f = c.querySelector(":scope > svg.face");
    if (!f) { problems.push("no SVG face: " + c.dataset.card); continue; }
    const style = [...f.classList].find((k) => k.startsWith("art-")) || "none";
    styles[style] = (styles[style] || 0) + 1;
    const r = c.getBoundingClientRect(), s = f.getBoundingClientRect();
    if (s.width < 20 || s.height < 28 || s.left < r.left - 0.5 || s.right > r.right + 0.5 ||
        s.top < r.top - 0.5 || s.bottom > r.bottom + 0.5) {
      problems.push("face cut or too small: " + c.dataset.card + " " + s.width + "x" + s.height);
    }
    if (style === "art-text" || style === "none") problems.push("no drawn face: " + c.dataset.card);
    if (style === "art-hanafuda" && !f.querySelector(".motif[data-plant]")) {
      problems.push("no month motif: " + c.dataset.card);
    }
  }
  return { problems, styles };
})()"##;

/// The `key=value` pairs of a link's fragment (`#room=...&token=...`).
fn url_fragment(link: &str) -> std::collections::HashMap<String, String> {
    let fragment = link.split_once('#').map_or("", |(_, f)| f);
    fragment
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The two screens the layout is checked on: a phone's (390x844) and a laptop's (1280x800).
const SCREENS: [(u32, u32, bool); 2] = [(390, 844, true), (1280, 800, false)];

impl Browser {
    /// Lays the page out on a screen of `width` by `height` CSS pixels.
    fn screen(&mut self, width: u32, height: u32, mobile: bool) {
        let params = serde_json::json!({
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile,
        });
        self.call("Emulation.setDeviceMetricsOverride", params);
    }

    /// Saves the page as a PNG file.
    fn screenshot(&mut self, path: &Path) {
        use base64::Engine;
        let shot = self.call(
            "Page.captureScreenshot",
            serde_json::json!({ "format": "png" }),
        );
        let data = shot["data"].as_str().expect("a screenshot");
        let png = base64::engine::general_purpose::STANDARD
            .decode(data)
            .unwrap();
        std::fs::write(path, png).unwrap();
    }

    /// Presses a key on the page (`text` is what it types).
    fn press(&mut self, key: &str, code: u32, text: &str) {
        for kind in ["keyDown", "keyUp"] {
            let mut params = serde_json::json!({
                "type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code,
            });
            if kind == "keyDown" && !text.is_empty() {
                params["text"] = text.into();
            }
            self.call("Input.dispatchKeyEvent", params);
        }
    }

    /// The number of states the page has drawn.
    fn states(&mut self) -> u64 {
        let n = self.eval("document.body.dataset.states || '0'");
        n.as_str().and_then(|n| n.parse().ok()).unwrap_or(0)
    }
}

/// One browser plays a few moves each of Koi-Koi, Go-Stop, Schnapsen, Oicho-Kabu and Kol-ye-si
/// (banker games) against bots; at each decision the page is laid out on a phone's screen and a
/// laptop's, checked for overlapping boxes, a hand out of view and every card drawn with its
/// deck's face (flower cards with their month's plant, French cards, kabufuda, Gu Pai tiles:
/// [`FACE_PROBLEMS`]), and saved as a screenshot (to a temporary folder only). Each move marks the cards it would take while it has the focus, and one move of each
/// game is played with the keyboard (Tab, Enter).
#[test]
fn the_table_is_laid_out_on_a_phone_and_a_laptop() {
    let Some(browser) = browser() else { return };
    let served = Served::start();
    let dir = TempDir::new("serve-layout");
    let shots = std::env::temp_dir().join("yaku-serve-layout");
    let _ = std::fs::create_dir_all(&shots);
    let mut page = Browser::open(&browser, &dir.join("profile"), "about:blank");
    // The page has the focus, as a window someone looks at does (moves are marked on focus).
    page.call(
        "Emulation.setFocusEmulationEnabled",
        serde_json::json!({ "enabled": true }),
    );
    let mut marked = 0;
    for (ruleset, players, style) in [
        ("koikoi", "human,greedy", "art-hanafuda"),
        ("gostop", "human,greedy,greedy", "art-hanafuda"),
        ("schnapsen", "human,greedy", "art-french"),
        ("oicho-kabu", "human,greedy,greedy", "art-kabufuda"),
        ("kolyesi", "human,greedy,greedy", "art-domino"),
    ] {
        let url = format!("{}?ruleset={ruleset}&players={players}&hands=1", served.url);
        // The old page is marked, so that the new one is told from it.
        page.eval(&format!(
            "window.left = true; location.href = {}",
            serde_json::json!(url)
        ));
        let mut drawn = 0;
        for decision in 0..3 {
            assert!(
                page.wait_until(
                    "!window.left && (document.querySelector('[data-move]') || \
                     document.title.includes('over'))"
                ),
                "{ruleset}: the page asks for a move"
            );
            for (width, height, mobile) in SCREENS {
                page.screen(width, height, mobile);
                let problems = page.eval(LAYOUT_PROBLEMS);
                if ruleset != "oicho-kabu" {
                    // (An Oicho-Kabu banker may hold no tile of its own when it has a move.)
                    let held = page.eval("document.querySelectorAll('#hand .card').length");
                    assert!(held.as_u64() > Some(0), "{ruleset}: cards in the hand");
                }
                page.screenshot(&shots.join(format!("{ruleset}-{decision}-{width}x{height}.png")));
                assert_eq!(
                    problems,
                    serde_json::json!([]),
                    "{ruleset}, decision {decision}, {width}x{height} (screenshots in {})",
                    shots.display()
                );
                let faces = page.eval(FACE_PROBLEMS);
                assert_eq!(
                    faces["problems"],
                    serde_json::json!([]),
                    "{ruleset}, decision {decision}, {width}x{height}: card faces"
                );
                let styles = faces["styles"].as_object().expect("the faces' styles");
                assert!(
                    styles.keys().all(|k| k == style),
                    "{ruleset}: every card drawn in {style}: {faces}"
                );
                drawn += styles.get(style).and_then(|n| n.as_u64()).unwrap_or(0);
            }
            if page.eval("document.querySelector('[data-move]') !== null") != true {
                break; // The game is over.
            }
            // When the turn comes, the first move has the focus.
            if decision > 0 {
                assert_eq!(
                    page.eval("document.activeElement === document.querySelector('[data-move]')"),
                    true,
                    "{ruleset}: the first move has the focus"
                );
            }
            // Each move marks, while it has the focus, the table cards it would take.
            marked += page
                .eval(
                    "[...document.querySelectorAll('[data-move]')].filter((b) => { b.focus(); \
                     return document.querySelector('#center .card.reached') !== null; }).length",
                )
                .as_u64()
                .unwrap_or(0);
            let before = page.states();
            if decision == 1 {
                // With the keyboard: the first move has the focus when the turn comes; Tab
                // goes to the next, Enter plays it.
                page.eval("document.querySelector('[data-move]').focus()");
                if page.eval("document.querySelectorAll('[data-move]').length > 1") == true {
                    page.press("Tab", 9, "");
                    assert_eq!(
                        page.eval(
                            "document.activeElement === document.querySelectorAll('[data-move]')[1]"
                        ),
                        true,
                        "{ruleset}: Tab moves to the next move"
                    );
                }
                page.press("Enter", 13, "\r");
            } else {
                page.eval("document.querySelector('[data-move=\"0\"]').click()");
            }
            assert!(
                page.wait_until(&format!("Number(document.body.dataset.states) > {before}")),
                "{ruleset}: the move is answered"
            );
        }
        // Every card of the deck comes with its face in hello (read here as a spectator, by the
        // page's watch link): a banker game's seat may see no card face up in three decisions.
        let watch = page.eval("document.getElementById('watch-link').href");
        let watch = url_fragment(watch.as_str().expect("a watch link"));
        let mut spectator = served.connect(&watch["room"], &watch["token"]);
        let hello: serde_json::Value =
            serde_json::from_str(&spectator.read().unwrap().into_text().unwrap()).unwrap();
        let cards = hello["cards"].as_array().expect("hello's cards");
        assert!(
            cards.iter().all(|c| c["svg"]
                .as_str()
                .is_some_and(|f| f.contains(&format!("class=\"face {style}\"")))),
            "{ruleset}: every card of hello is drawn in {style}"
        );
        assert!(
            drawn > 0 || ruleset == "oicho-kabu" || ruleset == "kolyesi",
            "{ruleset}: cards drawn in {style}"
        );
        let text = page.eval("document.getElementById('log').innerText");
        assert!(
            text.as_str().is_some_and(|t| !t.is_empty()),
            "{ruleset}: a move log"
        );
    }
    assert!(marked > 0, "some move marks what it would capture");
}

/// A hand's end is summed up by player (who won, with what, each seat's points and total) in a
/// dialog that waits: while it is open no move can be made, and "Next hand" goes back to the
/// table with the move offered first focused.
#[test]
fn a_hand_ends_with_a_summary_that_waits() {
    let Some(browser) = browser() else { return };
    let served = Served::start();
    let dir = TempDir::new("serve-hand-end");
    // Three hands: a hand can end at its deal (a dealt yaku) before the page connects, and the
    // game's last hand ends without the dialog (the table says the game is over), so two hands
    // could leave none to sum up.
    let url = format!("{}?ruleset=koikoi&players=human,greedy&hands=3", served.url);
    let mut page = Browser::open(&browser, &dir.join("profile"), &url);
    let mut summary = serde_json::Value::Null;
    for _ in 0..200 {
        assert!(
            page.wait_until(
                "document.getElementById('hand-end').open || document.querySelector('[data-move]')"
            ),
            "the page asks for a move or sums up a hand"
        );
        if page.eval("document.getElementById('hand-end').open") == true {
            summary = page.eval("document.getElementById('hand-end').innerText");
            break;
        }
        let before = page.states();
        page.eval("document.querySelector('[data-move=\"0\"]')?.click()");
        page.wait_until(&format!(
            "Number(document.body.dataset.states) > {before} || document.getElementById('hand-end').open"
        ));
    }
    let summary = summary
        .as_str()
        .expect("a hand ends with a summary")
        .to_string();
    assert!(
        summary.contains("Hand 1 of 3") || summary.contains("Hand 2 of 3"),
        "{summary}"
    );
    assert!(
        summary.contains("you") && summary.contains("greedy") && summary.contains("Total"),
        "{summary}"
    );
    assert!(
        summary.contains("wins the hand") || summary.contains("No one wins"),
        "{summary}"
    );
    // It waits: still open a moment later, and the table's moves cannot take the focus.
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(page.eval("document.getElementById('hand-end').open"), true);
    assert_eq!(
        page.eval("document.activeElement.id"),
        "hand-end-go",
        "the summary's button has the focus"
    );
    page.press("Enter", 13, "\r");
    assert!(page.wait_until("!document.getElementById('hand-end').open"));
    assert!(
        page.wait_until(
            "document.activeElement && document.activeElement.dataset.move !== undefined"
        ),
        "back at the table, a move has the focus"
    );
}

/// An auction's many bids are one stepper (a slider with − and +, and one bid button), not a
/// wall of buttons, and the player's panel says what the hand melds and what it looks worth.
#[test]
fn bids_are_chosen_with_a_stepper_beside_the_hands_melds() {
    let Some(browser) = browser() else { return };
    let served = Served::start();
    let dir = TempDir::new("serve-bids");
    let url = format!(
        "{}?ruleset=pinochle&players=human,greedy,greedy,greedy&hands=1",
        served.url
    );
    let mut page = Browser::open(&browser, &dir.join("profile"), &url);
    assert!(
        page.wait_until("document.getElementById('bet-range')"),
        "the auction offers a stepper"
    );
    let buttons = page.eval("document.querySelectorAll('#moves button').length");
    assert!(
        buttons.as_u64().is_some_and(|n| n <= 4),
        "a pass, − and +, and one bid, not a button per bid: {buttons}"
    );
    let panel = page.eval("document.body.innerText");
    let panel = panel.as_str().unwrap_or_default();
    assert!(
        panel.contains("the hand looks worth about") && panel.contains("meld"),
        "{panel}"
    );
    let first = page.eval("document.getElementById('bet-choose').textContent");
    page.eval("document.querySelector('#moves .stepper button.step:nth-of-type(2)').click()");
    let raised = page.eval("document.getElementById('bet-choose').textContent");
    assert_ne!(first, raised, "+ raises the bid shown");
    let chosen = page.eval("Number(document.getElementById('bet-choose').dataset.move)");
    let before = page.states();
    page.eval("document.getElementById('bet-choose').click()");
    assert!(page.wait_until(&format!("Number(document.body.dataset.states) > {before}")));
    assert!(chosen.as_u64().is_some(), "{chosen}");
}

/// Learning in the browser gives the terminal's lessons: the game and how a hand goes once (the
/// declarations listed under the rule that offers them), and every move with the bot's reason,
/// suggested on the table.
#[test]
fn learning_in_the_browser_explains_the_game_once_and_each_move_with_its_reason() {
    let Some(browser) = browser() else { return };
    let served = Served::start();
    let dir = TempDir::new("serve-learn");
    let url = format!(
        "{}?ruleset=koikoi&players=human,greedy&hands=1&learn=1",
        served.url
    );
    let mut page = Browser::open(&browser, &dir.join("profile"), &url);
    assert!(
        page.wait_until("!document.getElementById('lesson').hidden"),
        "a lesson opens at the first decision"
    );
    let lesson = page.eval("document.getElementById('lesson').innerText");
    let lesson = lesson.as_str().unwrap_or_default();
    assert!(lesson.contains("How a hand goes"), "{lesson}");
    assert!(lesson.contains("What scores"), "{lesson}");
    // Koi-koi and Stop are a list inside the rule that says when they are offered.
    let nested = page.eval("document.querySelectorAll('#lesson ul ul li').length");
    assert!(nested.as_u64().is_some_and(|n| n >= 2), "{nested}");
    assert!(
        page.wait_until("document.getElementById('hint-text').textContent.includes(' would ')"),
        "the suggestion comes with the lesson"
    );
    let hint = page.eval("document.getElementById('hint-text').textContent");
    assert!(
        hint.as_str().is_some_and(|h| h.contains(": ")),
        "a reason: {hint}"
    );
    assert!(
        page.wait_until("document.querySelector('.suggested')"),
        "the suggested move is outlined"
    );
    // Taking the suggestion: the next lesson does not explain the game again.
    let before = page.states();
    page.eval("document.querySelector('[data-move].suggested').click()");
    assert!(page.wait_until(&format!(
        "Number(document.body.dataset.states) > {before} && document.querySelector('[data-move]') \
         && document.getElementById('hint-text').textContent.includes(' would ')"
    )));
    let again = page.eval("document.getElementById('lesson').innerText");
    assert!(
        !again
            .as_str()
            .unwrap_or_default()
            .contains("How a hand goes"),
        "the game is explained once: {again}"
    );
}

/// A French pack may be drawn as a four-colour pack (blue diamonds, green clubs), a choice the
/// page offers only for decks that have one and keeps on the browser.
#[test]
fn a_french_pack_may_be_drawn_in_four_colours() {
    let Some(browser) = browser() else { return };
    let served = Served::start();
    let dir = TempDir::new("serve-four");
    let url = format!(
        "{}?ruleset=big-two&players=human,greedy,greedy,greedy&hands=1",
        served.url
    );
    let mut page = Browser::open(&browser, &dir.join("profile"), &url);
    assert!(page.wait_until("document.querySelector('.card svg[data-four]')"));
    assert_eq!(
        page.eval("document.getElementById('four-colour-row').hidden"),
        false,
        "the choice is offered"
    );
    // Whether a card whose suit has another ink is drawn in it.
    let drawn_four = "[...document.querySelectorAll('.card svg[data-four]')]\
        .some((s) => s.innerHTML.includes(s.dataset.four))";
    assert_eq!(page.eval(drawn_four), false, "two colours at first");
    page.eval("document.getElementById('four-colour').click()");
    assert!(page.wait_until(drawn_four), "four colours once chosen");
    assert_eq!(
        page.eval("localStorage.getItem('yaku-four-colour')"),
        "1",
        "kept on the browser"
    );
}

/// At a call to stop or play on, the safe choice comes first and has the focus (a stray Enter
/// or Space stops rather than plays on), and the prompt says what stopping takes.
#[test]
fn the_koikoi_decision_focuses_stop_and_says_what_it_takes() {
    let Some(browser) = browser() else { return };
    let served = Served::start();
    let dir = TempDir::new("serve-stop-focus");
    // The server seeds its rooms at random: a game of twelve hands, played by the move the
    // page offers first, reaches a yaku of the player's in all but a rare game; a second room
    // is opened if not.
    for room in 0..3 {
        let url = format!(
            "{}?ruleset=koikoi&players=human,greedy&hands=12",
            served.url
        );
        let mut page = Browser::open(&browser, &dir.join(format!("profile-{room}")), &url);
        for _ in 0..600 {
            assert!(page.wait_until(
                "document.getElementById('hand-end').open || document.querySelector('[data-move]') \
                 || document.getElementById('prompt').textContent === 'Game over'"
            ));
            if page.eval("document.getElementById('prompt').textContent") == "Game over" {
                break;
            }
            if page.eval("document.getElementById('hand-end').open") == true {
                page.eval("document.getElementById('hand-end-go').click()");
                page.wait_until("!document.getElementById('hand-end').open");
                continue;
            }
            let prompt = page.eval("document.getElementById('prompt').textContent");
            let prompt = prompt.as_str().unwrap_or_default().to_string();
            if prompt.contains("stopping takes") {
                let focused = page.eval("document.activeElement.textContent");
                assert!(
                    focused.as_str().is_some_and(|t| t.starts_with("Stop")),
                    "Stop has the focus: {focused} ({prompt})"
                );
                assert_eq!(
                    page.eval(
                        "document.activeElement === document.querySelector('#moves [data-move]')"
                    ),
                    true,
                    "Stop comes first"
                );
                return;
            }
            // The move offered first (the focused one), as a player pressing Enter takes it.
            let before = page.states();
            page.eval(
                "(document.activeElement?.dataset?.move !== undefined ? document.activeElement \
                 : document.querySelector('[data-move]')).click()",
            );
            page.wait_until(&format!(
                "Number(document.body.dataset.states) > {before} || document.getElementById('hand-end').open"
            ));
        }
    }
    panic!("three games of twelve hands without a call to stop or play on");
}

/// A rule file pasted on the page with a mistake shows the finding located (line and column,
/// the line marked, the caret under the mistake); fixed, it makes a room that plays a hand.
#[test]
fn a_pasted_ruleset_shows_its_error_and_once_fixed_plays() {
    let Some(browser) = browser() else { return };
    let served = Served::start();
    let dir = TempDir::new("serve-paste");
    let mut page = Browser::open(
        &browser,
        &dir.join("profile"),
        &format!("{}?auto=first", served.url),
    );
    assert!(page.wait_until(
        "document.getElementById('pasted') && !document.getElementById('lobby').hidden"
    ));
    let wrong = "[ruleset]\nid = \"short-koikoi\"\nextends = \"koikoi\"\nname = \"Short Koi-Koi\"\n\n[flow]\nroundz = 1\n";
    let paste = |page: &mut Browser, text: &str| {
        page.eval(&format!(
            "document.getElementById('pasted').value = {}; document.getElementById('check').click()",
            serde_json::json!(text)
        ));
    };
    paste(&mut page, wrong);
    assert!(
        page.wait_until("document.querySelector('.finding')"),
        "the finding is shown"
    );
    let finding = page.eval("document.querySelector('.finding').innerText");
    let finding = finding.as_str().unwrap_or_default();
    assert!(finding.starts_with("7:1 unknown key `roundz`"), "{finding}");
    assert!(
        finding.contains("7 | roundz = 1"),
        "the line quoted: {finding}"
    );
    assert!(finding.contains("^^^^^^"), "the caret: {finding}");
    assert!(finding.contains("did you mean `rounds`?"), "{finding}");
    let marked =
        page.eval("[...document.querySelectorAll('#gutter .marked')].map((m) => m.textContent)");
    assert_eq!(marked, serde_json::json!(["7"]), "line 7 is marked");
    let shots = std::env::temp_dir().join("yaku-serve-layout");
    let _ = std::fs::create_dir_all(&shots);
    for (width, height, mobile) in SCREENS {
        page.screen(width, height, mobile);
        page.screenshot(&shots.join(format!("pasted-{width}x{height}.png")));
    }
    // The page shows what `yaku validate` says of the same file.
    let mut validate = std::process::Command::new(bin())
        .args(["validate", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    validate
        .stdin
        .take()
        .unwrap()
        .write_all(wrong.as_bytes())
        .unwrap();
    let said = String::from_utf8(validate.wait_with_output().unwrap().stderr).unwrap();
    let shown = page.eval("document.querySelector('.finding pre').textContent");
    let shown = shown
        .as_str()
        .unwrap_or_default()
        .replace("<pasted>", "<stdin>");
    assert!(
        said.contains(shown.trim_end()),
        "yaku validate: {said}\nthe page: {shown}"
    );

    // A bundled house rule to start from fills the text and is checked at once.
    page.eval(
        "const s = document.getElementById('examples'); s.selectedIndex = 1; \
         s.dispatchEvent(new Event('change'))",
    );
    assert!(
        page.wait_until(
            "document.getElementById('pasted').value.includes('extends') && \
             document.querySelector('#findings .ok')"
        ),
        "a bundled house rule is valid"
    );
    paste(&mut page, &wrong.replace("roundz", "rounds"));
    assert!(
        page.wait_until(
            "document.querySelector('#findings .ok')?.textContent.includes('short-koikoi')"
        ),
        "the fixed file is valid"
    );
    assert_eq!(
        page.eval("document.getElementById('ruleset').value"),
        "@pasted"
    );
    page.eval("document.querySelector('#new-game button[type=submit]').click()");
    let text = page.wait_for_game_over();
    assert!(text.contains("Game over"), "{text}");
    assert!(
        text.contains("Short Koi-Koi"),
        "the room plays the pasted rules: {text}"
    );
}
mod store;
