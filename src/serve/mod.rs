//! `yaku serve`: a table in the browser. The server holds the rooms ([`rooms`]) and serves one
//! page, built into the binary (plain HTML, JavaScript modules and CSS, no build step); each
//! seat talks to its room over a WebSocket in the seat protocol ([`crate::core::protocol`]).
//! Built on axum and tokio, the Rust ecosystem's well-kept web server and runtime.

pub mod config;
pub mod gate;
pub mod limits;
pub mod origin;
pub mod pasted;
pub mod programs;
mod quick;
pub mod room;
mod room_api;
pub mod rooms;
#[cfg(test)]
mod seat_tests;
pub mod store;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use limits::{Guard, Limits};
use rooms::Rooms;
use std::net::SocketAddr;
use std::sync::Arc;

const INDEX: &str = include_str!("page/index.html");
const APP: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// A bound server, ready to serve.
pub struct Server {
    listener: std::net::TcpListener,
    rooms: Rooms,
    limits: Limits,
    origins: origin::Origins,
    threads: Option<usize>,
}

impl Server {
    /// Binds `addr` (port 0: a free port).
    pub fn bind(addr: SocketAddr) -> std::io::Result<Server> {
        let listener = std::net::TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        Ok(Server {
            listener,
            rooms: Rooms::default(),
            limits: Limits::default(),
            origins: origin::Origins::default(),
            threads: None,
        })
    }

    /// Serves these rooms (kept in a store, or seated through a gate with the operator's
    /// programs) instead of rooms in memory only with yaku's own bots.
    pub fn with_rooms(self, rooms: Rooms) -> Server {
        Server { rooms, ..self }
    }

    /// The same server holding its clients to `limits` instead of the default ones.
    pub fn with_limits(mut self, limits: Limits) -> Server {
        self.limits = limits;
        self
    }

    /// The same server answering to the names and believing the proxies of `origins`.
    pub fn with_origins(mut self, origins: origin::Origins) -> Server {
        self.origins = origins;
        self
    }

    /// The address bound.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The same server on `threads` threads (by default, half the cores and at least one: the
    /// moves are made on the game threads, [`Limits::game_threads`], and the serving threads
    /// only read, write and lay out a seat's view, so that more of them only wake each other).
    pub fn with_threads(mut self, threads: usize) -> Server {
        self.threads = Some(threads.max(1));
        self
    }

    /// Serves until the process is stopped.
    pub fn run(self) -> std::io::Result<()> {
        let mut runtime = tokio::runtime::Builder::new_multi_thread();
        let threads = self.threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
        });
        runtime.worker_threads(threads);

        let runtime = runtime
            .max_blocking_threads(self.limits.game_threads.max(1))
            .enable_io()
            .enable_time()
            .build()?;
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(self.listener)?;
            let origins = Arc::new(self.origins);
            let guard = Arc::new(Guard::new(self.limits).with_proxies(origins.proxies().to_vec()));
            let mut listener = limits::Bounded::new(listener, Arc::clone(&guard));
            let rooms = Arc::new(self.rooms);
            rooms.resume();
            tokio::spawn(sweep(Arc::clone(&rooms)));
            let programs = rooms.gate().program_names();
            let header_time = guard.limits().header_time;
            let app = guarded(router(rooms), guard, programs).layer(
                axum::middleware::from_fn_with_state(Arc::clone(&origins), origin::protect),
            );
            loop {
                let (io, from) = listener.accept().await;
                let origins = Arc::clone(&origins);
                tokio::spawn(serve_connection(
                    io,
                    from,
                    app.clone(),
                    origins,
                    header_time,
                ));
            }
        })
    }
}

/// Serves one connection's HTTP/1.1 requests (and its WebSocket, once upgraded) with `app`,
/// each request told the client's address (through a trusted proxy, the address it forwards:
/// [`origin::Origins::client`]). A request's head must come within `header_time`
/// (and, on a connection kept alive, the next request's), and the connection closes once it has
/// been silent for the limits' `idle_time` ([`limits::Counted`]): hyper's own server, which
/// axum's `serve` wraps without these timeouts.
async fn serve_connection(
    io: limits::Counted,
    from: SocketAddr,
    app: Router,
    origins: Arc<origin::Origins>,
    header_time: std::time::Duration,
) {
    let app = hyper_util::service::TowerToHyperService::new(app);
    let service =
        hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
            let client = origins.client(from, request.headers());
            request
                .extensions_mut()
                .insert(ConnectInfo(limits::Client(client)));
            hyper::service::Service::call(&app, request)
        });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(header_time);
    let connection = http
        .serve_connection(hyper_util::rt::TokioIo::new(io), service)
        .with_upgrades();
    let _ = connection.await;
}

/// Sweeps the rooms ([`Rooms::sweep`]) on a game thread, often enough for rooms nobody joins to
/// expire on time: a quarter of their time, from once a second to twice a minute.
async fn sweep(rooms: Arc<Rooms>) {
    let every = (rooms.limits().unjoined_time / 4).clamp(
        std::time::Duration::from_secs(1),
        std::time::Duration::from_secs(30),
    );
    let mut ticks = tokio::time::interval(every);
    loop {
        ticks.tick().await;
        let rooms = Arc::clone(&rooms);
        let _ = tokio::task::spawn_blocking(move || rooms.sweep()).await;
    }
}

fn router(rooms: Arc<Rooms>) -> Router {
    let pasted_bytes = rooms.limits().pasted_bytes;
    Router::new()
        .route("/", get(|| async { Html(INDEX) }))
        .route("/app.js", get(|| async { asset("text/javascript", APP) }))
        .route("/style.css", get(|| async { asset("text/css", STYLE) }))
        .route("/api/rulesets", get(rulesets))
        .route("/api/rules/{id}", get(rules))
        .route("/api/rooms/{code}/rules", get(room_rules))
        .route("/api/rooms/{code}/ws", get(connect))
        .route("/api/house-rules", get(pasted::list_house_rules))
        .merge(room_api::routes())
        // The requests that carry a pasted rule file may be twice its bound (JSON quoting), with
        // room for the request's other fields; every other body is held to the guard's limit.
        .merge(
            Router::new()
                .route("/api/rooms", post(create_room))
                .route("/api/validate", post(pasted::validate))
                .route("/api/rules", post(pasted::sheet))
                .layer(DefaultBodyLimit::max(2 * pasted_bytes + 16 * 1024)),
        )
        .with_state(rooms)
}

/// `router` held to the guard's limits ([`limits`]), listing the operator's programs' names.
fn guarded(router: Router, guard: Arc<Guard>, programs: Vec<String>) -> Router {
    router
        .route("/api/bots", get(move || async move { Json(programs) }))
        .layer(Extension(Arc::clone(&guard)))
        .layer(DefaultBodyLimit::max(guard.limits().body_bytes))
        .layer(axum::middleware::from_fn_with_state(guard, limits::rate))
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// A bundled ruleset as the page lists it.
#[derive(Clone, serde::Serialize)]
struct Listed {
    id: String,
    name: String,
    description: String,
    min: usize,
    max: usize,
    seats: usize,
}

/// The bundled rulesets, each loaded once and shared by every room that plays it (loading
/// parses and compiles the rule files, and a loaded ruleset takes about a megabyte), and their
/// rule sheets, each written once.
struct Bundled {
    rulesets: std::collections::HashMap<String, Arc<crate::ruleset::Ruleset>>,
    listed: Vec<Listed>,
    sheets: std::sync::Mutex<std::collections::HashMap<String, Arc<str>>>,
}

/// The bundled rulesets, loaded on a game thread at their first use.
async fn bundled_all() -> &'static Bundled {
    static BUNDLED: std::sync::OnceLock<Bundled> = std::sync::OnceLock::new();
    if let Some(b) = BUNDLED.get() {
        return b;
    }
    let load = || {
        BUNDLED.get_or_init(|| {
            let rulesets: std::collections::HashMap<_, _> =
                crate::ruleset::bundled::ruleset_names()
                    .filter_map(|n| Some((n.to_string(), Arc::new(crate::ruleset::load(n).value?))))
                    .collect();
            // The games, not the house rules (`house/...`), in the bundle's order.
            let listed: Vec<Listed> = crate::ruleset::bundled::ruleset_names()
                .filter(|n| !n.contains('/'))
                .filter_map(|n| rulesets.get(n))
                .map(|r| {
                    let range = crate::families::seat_range(r);
                    Listed {
                        id: r.id.clone(),
                        name: r.name.clone(),
                        description: r.description.clone(),
                        min: range.min,
                        max: range.max,
                        seats: range.default,
                    }
                })
                .collect();
            Bundled {
                rulesets,
                listed,
                sheets: Default::default(),
            }
        })
    };
    match tokio::task::spawn_blocking(load).await {
        Ok(b) => b,
        Err(_) => load(),
    }
}

async fn rulesets() -> Json<Vec<Listed>> {
    Json(bundled_all().await.listed.clone())
}

/// A bundled ruleset by id, or a 404 saying so.
async fn bundled(id: &str) -> Result<Arc<crate::ruleset::Ruleset>, (StatusCode, String)> {
    let found = bundled_all().await.rulesets.get(id).cloned();
    found.ok_or_else(|| (StatusCode::NOT_FOUND, format!("no bundled ruleset `{id}`")))
}

/// A ruleset's rule sheet, as `yaku rules --format html` writes it.
fn sheet_html(ruleset: &crate::ruleset::Ruleset) -> String {
    let sheet = crate::sheet::build(ruleset, None);
    crate::sheet::render(&sheet, crate::sheet::Format::Html)
}

/// A bundled ruleset's rule sheet, written on a game thread once.
async fn rules(Path(id): Path<String>) -> Response {
    let all = bundled_all().await;
    let ruleset = match bundled(&id).await {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    let kept = all.sheets.lock().ok().and_then(|s| s.get(&id).cloned());
    let html = match kept {
        Some(html) => html,
        None => match tokio::task::spawn_blocking(move || sheet_html(&ruleset)).await {
            Ok(html) => {
                let html: Arc<str> = html.into();
                if let Ok(mut sheets) = all.sheets.lock() {
                    sheets.insert(id, Arc::clone(&html));
                }
                html
            }
            Err(_) => {
                return (StatusCode::INTERNAL_SERVER_ERROR, "the rule sheet failed")
                    .into_response();
            }
        },
    };
    Html(html.to_string()).into_response()
}

/// The rule sheet of the ruleset a room plays (a pasted one too), written on a game thread.
async fn room_rules(State(rooms): State<Arc<Rooms>>, Path(code): Path<String>) -> Response {
    let Some(room) = rooms.find(&code).await else {
        return (StatusCode::NOT_FOUND, "no such room").into_response();
    };
    let ruleset = Arc::clone(room.ruleset());
    match tokio::task::spawn_blocking(move || sheet_html(&ruleset)).await {
        Ok(html) => Html(html).into_response(),
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "the rule sheet failed").into_response(),
    }
}

#[derive(serde::Deserialize)]
struct NewRoom {
    /// A bundled ruleset's id; ignored when `rules` is given.
    #[serde(default)]
    ruleset: String,
    /// A pasted rule file, checked as `yaku validate` checks it.
    #[serde(default)]
    rules: Option<String>,
    players: Vec<String>,
    #[serde(default)]
    hands: Option<u32>,
}

async fn create_room(
    State(rooms): State<Arc<Rooms>>,
    Extension(guard): Extension<Arc<Guard>>,
    ConnectInfo(limits::Client(from)): ConnectInfo<limits::Client>,
    Json(mut new): Json<NewRoom>,
) -> Response {
    let pasted = new.rules.take();
    let ruleset = match &pasted {
        Some(text) => pasted::ruleset(text.clone().into(), &guard).await,
        None => bundled(&new.ruleset).await,
    };
    let ruleset = match ruleset {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    if new.players.len() > crate::core::MAX_SEATS {
        return (StatusCode::BAD_REQUEST, "too many seats".to_string()).into_response();
    }
    let seating = match rooms.gate().seat(&new.players, &ruleset) {
        Ok(s) => s,
        Err(why) => return (StatusCode::BAD_REQUEST, why).into_response(),
    };
    let mut kinds = Vec::new();
    if seating.runs_programs() {
        kinds.push(limits::RoomKind::Program);
    }
    if pasted.is_some() {
        kinds.push(limits::RoomKind::Pasted);
    }
    let opening = match guard.open_room(from.ip(), &kinds) {
        Ok(o) => o,
        Err(refused) => return refused.into_response(),
    };
    // Starting a game may run bots (an expert's first moves): off the async threads.
    let made = {
        let rooms = Arc::clone(&rooms);
        tokio::task::spawn_blocking(move || {
            rooms.create_seated(ruleset, pasted, seating, new.hands)
        })
        .await
    };
    match made {
        Ok(Ok((created, room))) => {
            opening.opened(&room);
            Json(created).into_response()
        }
        Ok(Err(rooms::NotMade { full: true, reason })) => {
            (StatusCode::SERVICE_UNAVAILABLE, reason).into_response()
        }
        Ok(Err(not_made)) => (StatusCode::BAD_REQUEST, not_made.reason).into_response(),
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "the room failed").into_response(),
    }
}

/// A connection's first message: the token of the seat (or the spectators') it connects as.
/// The token travels inside the WebSocket, never in a URL, so that no log or referrer holds it.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Token {
    token: String,
}

/// What a connection whose first message holds no seat's token is told (`code`: `token`, for
/// the page to say so and offer the way back).
const NO_SEAT: &str = "this link's token holds no seat in this room: it may be mistyped, or its seat was handed to a bot";

/// A seat's (or a spectator's) WebSocket to room `code`: its first message names its token
/// (`{"token": "..."}`), within the limits' `header_time`; then [`seat_session`].
async fn connect(
    State(rooms): State<Arc<Rooms>>,
    Extension(guard): Extension<Arc<Guard>>,
    Path(code): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Response {
    let Some(room) = rooms.find(&code).await else {
        return (StatusCode::NOT_FOUND, "no such room").into_response();
    };
    let most = guard.limits().message_bytes;
    // A seat's answers are short: a small read buffer (the default is 128 KiB a connection),
    // and each message to the seat written as it is sent, its buffer bounded.
    upgrade
        .max_message_size(most)
        .max_frame_size(most)
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(1024 * 1024)
        .on_upgrade(move |socket| async move { admit(socket, room, &guard).await })
}

/// Reads a new connection's token and starts its session, or tells it why not and closes it.
async fn admit(mut socket: WebSocket, room: Arc<rooms::RoomCell>, guard: &Guard) {
    let first = tokio::time::timeout(guard.limits().header_time, socket.recv()).await;
    let token = match first {
        Ok(Some(Ok(Message::Text(text)))) => serde_json::from_str::<Token>(&text).ok(),
        _ => None,
    };
    let seat = match &token {
        Some(Token { token }) => room.read(|r| r.viewer_of(token)).await,
        None => Ok(None),
    };
    match seat {
        Ok(Some(seat)) => seat_session(socket, room, seat, guard).await,
        Ok(None) if token.is_none() => {
            let why = "a connection's first message is its token: {\"token\": \"...\"}";
            refuse_with(socket, 1008, why.to_string(), "token", guard).await;
        }
        Ok(None) => refuse_with(socket, 4001, NO_SEAT.to_string(), "token", guard).await,
        Err(busy) => refuse_with(socket, 1013, busy.to_string(), "busy", guard).await,
    }
}

/// Sends `message` within the guard's time; false when the seat is gone or too slow to read.
async fn send(socket: &mut WebSocket, message: Message, guard: &Guard) -> bool {
    let sent = tokio::time::timeout(guard.limits().send_time, socket.send(message)).await;
    matches!(sent, Ok(Ok(())))
}

fn too_many(limits: &Limits) -> String {
    format!(
        "more than {} refused messages a second: the connection is closed",
        limits.messages_per_second
    )
}

/// Whether a seat's message asks for a hint (`{"hint": true}`) rather than answering.
fn is_hint_request(text: &str) -> bool {
    serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(text)
        .is_ok_and(|m| m.len() == 1 && m.get("hint") == Some(&serde_json::Value::Bool(true)))
}

/// Tells the seat which limit it went over, then closes its connection (`code`: the WebSocket
/// close code, 1008 for a policy, 1009 for a message too large).
async fn refuse(socket: WebSocket, code: u16, why: String, guard: &Guard) {
    refuse_with(socket, code, why, "limit", guard).await;
}

/// [`refuse`], the error naming its `kind` (`limit`, `token`, `busy`).
async fn refuse_with(mut socket: WebSocket, code: u16, why: String, kind: &str, guard: &Guard) {
    let error = serde_json::json!({ "type": "error", "message": why, "code": kind });
    if send(&mut socket, Message::Text(error.to_string().into()), guard).await {
        let reason = match kind {
            "token" => "no seat for this token",
            "busy" => "the room is busy",
            _ => "over a limit of the server",
        };
        let frame = axum::extract::ws::CloseFrame {
            code,
            reason: reason.into(),
        };
        if send(&mut socket, Message::Close(Some(frame)), guard).await {
            // The closing handshake: what the seat still sends is read and dropped until its
            // close, for a second at most, so that the error is not lost to a reset.
            // After a message too large, whose rest is never read, the second is waited out
            // whole: closing then resets the connection, and the seat has had time to read.
            let drain = async {
                while let Some(Ok(_)) = socket.recv().await {}
                if code == 1009 {
                    std::future::pending::<()>().await;
                }
            };
            let _ = tokio::time::timeout(std::time::Duration::from_secs(1), drain).await;
        }
    }
}

/// One connection of a seat: `hello`, then a `state` after every move; each message from the
/// seat is an answer, and a wrong one gets an `error` message with the reason. A message over
/// the size of the [`limits`], or refused messages over their rate, get an `error` saying so,
/// and the connection closes.
async fn seat_session(
    mut socket: WebSocket,
    room: Arc<rooms::RoomCell>,
    seat: rooms::Viewer,
    guard: &Guard,
) {
    let _present = room.attend(seat);
    let limits = guard.limits();
    // The rate of the seat's messages that are refused (a move can only be made once, so a
    // client that plays fast never reaches it).
    let mut refused = limits::Bucket::full(limits.message_burst);
    let (hello, mut changed) = match room.read(|r| (r.hello(seat), r.subscribe())).await {
        Ok(said) => said,
        Err(_) => return,
    };
    if !send(&mut socket, Message::Text(hello.into()), guard).await {
        return;
    }
    changed.mark_changed();
    // The lines of the seat's move log this connection was sent: each state adds the new ones.
    let mut said = 0;
    // Pinged now and then: the seat's pong (a browser answers by itself) keeps a quiet
    // connection open past the idle limit, and a connection that answers nothing is closed.
    let mut pings = tokio::time::interval(limits.ping_every);
    pings.tick().await;
    loop {
        tokio::select! {
            _ = pings.tick() => {
                if !send(&mut socket, Message::Ping(Default::default()), guard).await {
                    return;
                }
            }
            moved = changed.changed() => {
                if moved.is_err() {
                    return;
                }
                let read = room.read(|r| (r.state_since(seat, said), r.is_closed())).await;
                let ((state, now_said), closed) = match read {
                    Ok(read) => read,
                    Err(_) => return,
                };
                said = now_said;
                if closed {
                    let said = serde_json::json!({ "type": "closed", "message": room::CLOSED });
                    if send(&mut socket, Message::Text(said.to_string().into()), guard).await {
                        let _ = send(&mut socket, Message::Close(None), guard).await;
                    }
                    return;
                }
                if !send(&mut socket, Message::Text(state.into()), guard).await {
                    return;
                }
            }
            received = socket.recv() => {
                let text = match received {
                    Some(Ok(Message::Close(_))) | None => return,
                    Some(Err(e)) if e.to_string().contains("Space limit exceeded") => {
                        let why = format!(
                            "a message longer than {} bytes: the connection is closed",
                            limits.message_bytes
                        );
                        return refuse(socket, 1009, why, guard).await;
                    }
                    Some(Err(_)) => return,
                    Some(Ok(Message::Text(text))) => text.to_string(),
                    // A pong answers the server's ping; a ping is answered by the WebSocket
                    // layer itself.
                    Some(Ok(Message::Pong(_) | Message::Ping(_))) => continue,
                    // No answer (a ping, binary data): counted as a refused message.
                    Some(Ok(_)) if refused.take(limits.messages_per_second, limits.message_burst) => {
                        continue;
                    }
                    Some(Ok(_)) => return refuse(socket, 1008, too_many(limits), guard).await,
                };
                if is_hint_request(&text) {
                    // A hint is worked out once a move and sent again after; each request
                    // still takes from the seat's allowance of refused messages.
                    if !refused.take(limits.messages_per_second, limits.message_burst) {
                        return refuse(socket, 1008, too_many(limits), guard).await;
                    }
                    let hinted = room
                        .work(move |r| r.hint(seat))
                        .await
                        .unwrap_or_else(|busy| Err(busy.to_string()));
                    let message = hinted.unwrap_or_else(|why| {
                        serde_json::json!({ "type": "error", "message": why }).to_string()
                    });
                    if !send(&mut socket, Message::Text(message.into()), guard).await {
                        return;
                    }
                    continue;
                }
                let answered = room
                    .work(move |r| r.answer(seat, &text))
                    .await
                    .unwrap_or_else(|busy| Err(busy.to_string()));
                if let Err(why) = answered {
                    if !refused.take(limits.messages_per_second, limits.message_burst) {
                        return refuse(socket, 1008, too_many(limits), guard).await;
                    }
                    let error = serde_json::json!({ "type": "error", "message": why });
                    if !send(&mut socket, Message::Text(error.to_string().into()), guard).await {
                        return;
                    }
                }
            }
        }
    }
}
