//! A room's HTTP endpoints beyond playing it: its record and its positions once the game is
//! over (one rule, [`finished_record`], decides both), handing a seat
//! to a bot (by the seat itself, or by the creator when the seat has been away), which answers
//! the spectators' token so that the page goes on watching, and closing the room (by its
//! creator).

use super::room::{PASTED_FILE, Room};
use super::rooms::{HandOverError, Rooms};
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::sync::Arc;

/// The routes, for the server's router.
pub(super) fn routes() -> Router<Arc<Rooms>> {
    Router::new()
        .route("/api/rooms/{code}/record", get(record))
        .route("/api/rooms/{code}/position", get(position))
        .route("/api/rooms/{code}/bot", post(hand_over))
        .route("/api/rooms/{code}/close", post(close))
}

/// The record of a room's game, given to anyone only once the game is over: a record (and a
/// position, written as the deal of its hand) holds the deals, with the cards no seat may see
/// yet, so while the game is in progress neither is given to anyone.
fn finished_record(room: &Room) -> Option<crate::core::record::Record> {
    room.is_over().then(|| room.record())
}

/// Said of a game in progress, for the record and for a position.
const IN_PROGRESS: &str = "the game is in progress: its record and positions are given when it is over, since they hold the cards no seat may see yet";

/// The record of a finished game (JSON, yaku's record format).
async fn record(State(rooms): State<Arc<Rooms>>, Path(code): Path<String>) -> Response {
    let Some(room) = rooms.find(&code).await else {
        return (StatusCode::NOT_FOUND, "no such room").into_response();
    };
    let found = room
        .work(|room| finished_record(room).map(|r| r.to_json()))
        .await;
    match found {
        Err(busy) => (StatusCode::SERVICE_UNAVAILABLE, busy.to_string()).into_response(),
        Ok(None) => (StatusCode::CONFLICT, IN_PROGRESS).into_response(),
        Ok(Some(json)) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
    }
}

/// Which position of a finished game: after its first `at` actions (all of them when absent).
#[derive(serde::Deserialize)]
struct PositionAt {
    at: Option<usize>,
}

/// The position of a finished game after its first `at` actions, as `yaku replay
/// --position-at` writes it (JSON: `position`, the text `yaku position` reads; `at`; `actions`,
/// how many the record holds), worked out on the room's game thread like every other request
/// of the room.
async fn position(
    State(rooms): State<Arc<Rooms>>,
    Path(code): Path<String>,
    Query(ask): Query<PositionAt>,
) -> Response {
    let Some(room) = rooms.find(&code).await else {
        return (StatusCode::NOT_FOUND, "no such room").into_response();
    };
    let found = room
        .work(move |room| {
            let record = finished_record(room)?;
            Some(position_text(room, &record, ask.at))
        })
        .await;
    match found {
        Err(busy) => (StatusCode::SERVICE_UNAVAILABLE, busy.to_string()).into_response(),
        Ok(None) => (StatusCode::CONFLICT, IN_PROGRESS).into_response(),
        Ok(Some(Err(why))) => (StatusCode::BAD_REQUEST, why).into_response(),
        Ok(Some(Ok(json))) => Json(json).into_response(),
    }
}

/// The position of `room`'s finished game after `at` of `record`'s actions, with a heading
/// (TOML comments) saying where it comes from.
fn position_text(
    room: &Room,
    record: &crate::core::record::Record,
    at: Option<usize>,
) -> Result<serde_json::Value, String> {
    let actions = record.actions.len();
    let at = at.unwrap_or(actions);
    if at > actions {
        return Err(format!(
            "the record holds {}: a position is after 0 to {actions}",
            crate::front::plural(actions, "action")
        ));
    }
    let ruleset = Arc::clone(room.ruleset());
    let (position, _) =
        crate::families::position::of_record(record, ruleset, &record.ruleset.spec, at)
            .map_err(|e| e.to_string())?;
    let mut text = format!(
        "# A finished game of {}, after {at} of its {actions} actions: `yaku position FILE` shows it.\n",
        room.ruleset().name
    );
    if record.ruleset.spec == PASTED_FILE {
        text.push_str(&format!(
            "# Its rules were pasted: save them (the room's record holds them) as {PASTED_FILE} beside this file.\n"
        ));
    }
    text.push_str(&position.to_text());
    Ok(serde_json::json!({ "position": text, "at": at, "actions": actions }))
}

/// Who asks to hand which seat to which bot.
#[derive(serde::Deserialize)]
struct HandOver {
    token: String,
    seat: usize,
    #[serde(default = "default_bot")]
    bot: String,
}

fn default_bot() -> String {
    "greedy".to_string()
}

async fn hand_over(
    State(rooms): State<Arc<Rooms>>,
    Path(code): Path<String>,
    Json(ask): Json<HandOver>,
) -> Response {
    let Some(room) = rooms.find(&code).await else {
        return (StatusCode::NOT_FOUND, "no such room").into_response();
    };
    let away = rooms.limits().hand_over_after;
    let gone = room.away_for(ask.seat);
    let done = room
        .work_apart(move |room| {
            room.hand_over(&ask.token, ask.seat, &ask.bot, away, gone)
                .map(|()| room.watch_token().to_string())
        })
        .await;
    match done {
        // The token no longer holds the seat: the spectators' token lets the page watch on.
        Ok(Ok(watch)) => Json(serde_json::json!({ "watch": watch })).into_response(),
        Ok(Err(e)) => {
            let status = match e {
                HandOverError::NotYours => StatusCode::FORBIDDEN,
                HandOverError::NoPerson { .. } | HandOverError::Here { .. } => StatusCode::CONFLICT,
                HandOverError::Bot(_) => StatusCode::BAD_REQUEST,
                HandOverError::Failed(_) => StatusCode::INTERNAL_SERVER_ERROR,
            };
            (status, e.to_string()).into_response()
        }
        Err(busy) => (StatusCode::SERVICE_UNAVAILABLE, busy.to_string()).into_response(),
    }
}

/// Who asks to close a room.
#[derive(serde::Deserialize)]
struct Close {
    token: String,
}

/// Closes a room, asked by its creator: nobody moves in it again and every connection is told;
/// its record stays.
async fn close(
    State(rooms): State<Arc<Rooms>>,
    Path(code): Path<String>,
    Json(ask): Json<Close>,
) -> Response {
    let Some(room) = rooms.find(&code).await else {
        return (StatusCode::NOT_FOUND, "no such room").into_response();
    };
    match room.work(move |room| room.close(&ask.token)).await {
        Ok(Ok(())) => Json(serde_json::json!({ "closed": true })).into_response(),
        Ok(Err(why)) => (StatusCode::FORBIDDEN, why).into_response(),
        Err(busy) => (StatusCode::SERVICE_UNAVAILABLE, busy.to_string()).into_response(),
    }
}
