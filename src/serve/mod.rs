//! `yaku serve`: a table in the browser. The server holds the rooms ([`rooms`]) and serves one
//! page, built into the binary (plain HTML, JavaScript modules and CSS, no build step); each
//! seat talks to its room over a WebSocket in the seat protocol ([`crate::core::protocol`]).
//! Built on axum and tokio, the Rust ecosystem's well-kept web server and runtime.

pub mod pasted;
mod room_api;
pub mod rooms;
#[cfg(test)]
mod seat_tests;
pub mod store;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use rooms::Rooms;
use std::net::SocketAddr;
use std::sync::Arc;

/// The longest message a seat may send.
const MAX_MESSAGE: usize = 64 * 1024;

const INDEX: &str = include_str!("page/index.html");
const APP: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// A bound server, ready to serve.
pub struct Server {
    listener: std::net::TcpListener,
    rooms: Rooms,
}

impl Server {
    /// Binds `addr` (port 0: a free port).
    pub fn bind(addr: SocketAddr) -> std::io::Result<Server> {
        let listener = std::net::TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        Ok(Server {
            listener,
            rooms: Rooms::default(),
        })
    }

    /// Serves these rooms (kept in a store) instead of rooms in memory only.
    pub fn with_rooms(self, rooms: Rooms) -> Server {
        Server { rooms, ..self }
    }

    /// The address bound.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until the process is stopped.
    pub fn run(self) -> std::io::Result<()> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_io()
            .enable_time()
            .build()?;
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(self.listener)?;
            axum::serve(listener, router(Arc::new(self.rooms))).await
        })
    }
}

fn router(rooms: Arc<Rooms>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(INDEX) }))
        .route("/app.js", get(|| async { asset("text/javascript", APP) }))
        .route("/style.css", get(|| async { asset("text/css", STYLE) }))
        .route("/api/rulesets", get(rulesets))
        .route("/api/rules/{id}", get(rules))
        .route("/api/rooms", post(create_room))
        .route("/api/rooms/{code}/rules", get(room_rules))
        .route("/api/rooms/{code}/ws", get(connect))
        .route("/api/house-rules", get(pasted::list_house_rules))
        .route("/api/validate", post(pasted::validate))
        .route("/api/rules", post(pasted::sheet))
        .merge(room_api::routes())
        // A pasted rule file may be as large as `yaku validate` reads (JSON quoting aside).
        .layer(DefaultBodyLimit::max(2 * pasted::MAX_PASTED))
        .with_state(rooms)
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// A bundled ruleset as the page lists it.
#[derive(serde::Serialize)]
struct Listed {
    id: String,
    name: String,
    description: String,
    min: usize,
    max: usize,
    seats: usize,
}

async fn rulesets() -> Json<Vec<Listed>> {
    let listed = crate::ruleset::bundled::ruleset_names()
        .filter(|n| !n.contains('/'))
        .filter_map(|n| crate::ruleset::load(n).value)
        .map(|r| {
            let range = crate::families::seat_range(&r);
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
    Json(listed)
}

/// A bundled ruleset by id, or a 404 saying so.
fn bundled(id: &str) -> Result<Arc<crate::ruleset::Ruleset>, (StatusCode, String)> {
    let known = crate::ruleset::bundled::ruleset_names().any(|n| n == id);
    let loaded = known.then(|| crate::ruleset::load(id).value).flatten();
    loaded
        .map(Arc::new)
        .ok_or_else(|| (StatusCode::NOT_FOUND, format!("no bundled ruleset `{id}`")))
}

/// A ruleset's rule sheet, as `yaku rules --format html` writes it.
fn sheet_html(ruleset: &crate::ruleset::Ruleset) -> String {
    let sheet = crate::sheet::build(ruleset, None);
    crate::sheet::render(&sheet, crate::sheet::Format::Html)
}

async fn rules(Path(id): Path<String>) -> Response {
    match bundled(&id) {
        Ok(r) => Html(sheet_html(&r)).into_response(),
        Err(e) => e.into_response(),
    }
}

/// The rule sheet of the ruleset a room plays (a pasted one too).
async fn room_rules(State(rooms): State<Arc<Rooms>>, Path(code): Path<String>) -> Response {
    let ruleset = rooms
        .get(&code)
        .and_then(|room| room.lock().ok().map(|r| Arc::clone(r.ruleset())));
    match ruleset {
        Some(r) => Html(sheet_html(&r)).into_response(),
        None => (StatusCode::NOT_FOUND, "no such room").into_response(),
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

async fn create_room(State(rooms): State<Arc<Rooms>>, Json(mut new): Json<NewRoom>) -> Response {
    let pasted = new.rules.take();
    let ruleset = match &pasted {
        Some(text) => pasted::ruleset(text.clone().into()).await,
        None => bundled(&new.ruleset),
    };
    let ruleset = match ruleset {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    if new.players.len() > crate::core::MAX_SEATS {
        return (StatusCode::BAD_REQUEST, "too many seats".to_string()).into_response();
    }
    // Starting a game may run bots (an expert's first moves): off the async threads.
    let made = tokio::task::spawn_blocking(move || match pasted {
        Some(text) => rooms.create_pasted(ruleset, text, &new.players, new.hands),
        None => rooms.create(ruleset, &new.players, new.hands),
    })
    .await;
    match made {
        Ok(Ok(created)) => Json(created).into_response(),
        Ok(Err(why)) => (StatusCode::BAD_REQUEST, why).into_response(),
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "the room failed").into_response(),
    }
}

#[derive(serde::Deserialize)]
struct Token {
    token: String,
}

async fn connect(
    State(rooms): State<Arc<Rooms>>,
    Path(code): Path<String>,
    Query(Token { token }): Query<Token>,
    upgrade: WebSocketUpgrade,
) -> Response {
    let Some(room) = rooms.get(&code) else {
        return (StatusCode::NOT_FOUND, "no such room").into_response();
    };
    let seat = room.lock().ok().and_then(|r| r.viewer_of(&token));
    let Some(seat) = seat else {
        return (StatusCode::FORBIDDEN, "this token holds no seat here").into_response();
    };
    upgrade
        .max_message_size(MAX_MESSAGE)
        .on_upgrade(move |socket| seat_session(socket, room, seat))
}

/// One connection of a seat: `hello`, then a `state` after every move; each message from the
/// seat is an answer, and a wrong one gets an `error` message with the reason.
async fn seat_session(
    mut socket: WebSocket,
    room: Arc<std::sync::Mutex<rooms::Room>>,
    seat: rooms::Viewer,
) {
    let _present = rooms::Presence::new(&room, seat);
    let (hello, mut changed) = match room.lock() {
        Ok(r) => (r.hello(seat), r.subscribe()),
        Err(_) => return,
    };
    if socket.send(Message::Text(hello.into())).await.is_err() {
        return;
    }
    changed.mark_changed();
    loop {
        tokio::select! {
            moved = changed.changed() => {
                if moved.is_err() {
                    return;
                }
                let state = match room.lock() {
                    Ok(r) => r.state(seat),
                    Err(_) => return,
                };
                if socket.send(Message::Text(state.into())).await.is_err() {
                    return;
                }
            }
            received = socket.recv() => {
                let text = match received {
                    Some(Ok(Message::Text(text))) => text.to_string(),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(_)) => continue,
                };
                let room = Arc::clone(&room);
                let answered = tokio::task::spawn_blocking(move || {
                    room.lock()
                        .map_err(|_| "the room failed".to_string())
                        .and_then(|mut r| r.answer(seat, &text))
                })
                .await
                .unwrap_or_else(|_| Err("the room failed".to_string()));
                if let Err(why) = answered {
                    let error = serde_json::json!({ "type": "error", "message": why });
                    if socket.send(Message::Text(error.to_string().into())).await.is_err() {
                        return;
                    }
                }
            }
        }
    }
}
