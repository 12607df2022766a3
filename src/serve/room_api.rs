//! A room's HTTP endpoints beyond playing it: its record once the game is over, handing a seat
//! to a bot (by the seat itself, or by the creator when the seat has been away), which answers
//! the spectators' token so that the page goes on watching, and closing the room (by its
//! creator).

use super::rooms::{HandOverError, Rooms};
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::sync::Arc;

/// The routes, for the server's router.
pub(super) fn routes() -> Router<Arc<Rooms>> {
    Router::new()
        .route("/api/rooms/{code}/record", get(record))
        .route("/api/rooms/{code}/bot", post(hand_over))
        .route("/api/rooms/{code}/close", post(close))
}

/// The record of a finished game (JSON, yaku's record format). A game in progress has none:
/// its record holds the deals, which no seat may see yet.
async fn record(State(rooms): State<Arc<Rooms>>, Path(code): Path<String>) -> Response {
    let Some(room) = rooms.find(&code).await else {
        return (StatusCode::NOT_FOUND, "no such room").into_response();
    };
    let found = room
        .work(|room| room.is_over().then(|| room.record().to_json()))
        .await;
    match found {
        Err(busy) => (StatusCode::SERVICE_UNAVAILABLE, busy.to_string()).into_response(),
        Ok(None) => (
            StatusCode::CONFLICT,
            "the game is in progress: its record is given when it is over",
        )
            .into_response(),
        Ok(Some(json)) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
    }
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
