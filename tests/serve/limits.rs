//! The abuse limits of `yaku serve` over real connections, at their defaults
//! (`yaku::serve::limits::Limits`): each limit gone over is told, in words, to the connection
//! that went over it, and that connection is closed.

use super::Served;
use std::io::{Read, Write};
use tungstenite::Message;

use super::Socket;

/// A new Koi-Koi room with a person against `greedy`: its code and the person's token.
fn new_room(served: &Served) -> (String, String) {
    let (status, body) = served.request(
        "POST",
        "/api/rooms",
        r#"{"ruleset":"koikoi","players":["human","greedy"]}"#,
    );
    assert_eq!(status, 200, "{body}");
    let created: serde_json::Value = serde_json::from_str(&body).unwrap();
    let room = created["room"].as_str().unwrap().to_string();
    let token = created["people"][0][1].as_str().unwrap().to_string();
    (room, token)
}

fn connect(served: &Served, room: &str, token: &str) -> Socket {
    served.connect(room, token)
}

/// Reads until an `error` message whose text holds `limit`, then expects the close (or, after
/// a message too large, whose rest the server never reads, a reset).
fn expect_refusal_then_close(socket: &mut Socket, limit: &str) {
    loop {
        let message = socket.read().expect("the error comes before the close");
        let Message::Text(text) = message else {
            panic!("{message:?} before the error");
        };
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        if v["type"] == "error" && v["message"].as_str().unwrap().contains(limit) {
            break;
        }
    }
    match socket.read() {
        Ok(Message::Close(Some(frame))) => assert!(u16::from(frame.code) >= 1008, "{frame:?}"),
        Err(tungstenite::Error::Io(e)) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
        other => panic!("a close frame after the error: {other:?}"),
    }
}

#[test]
fn a_seat_message_over_the_size_limit_is_refused_and_the_connection_closed() {
    let served = Served::start();
    let (room, token) = new_room(&served);
    let mut socket = connect(&served, &room, &token);
    let long = format!(r#"{{"choose": 0, "padding": "{}"}}"#, "x".repeat(70_000));
    socket.send(Message::Text(long.into())).unwrap();
    expect_refusal_then_close(&mut socket, "a message longer than 65536 bytes");
}

#[test]
fn seat_messages_over_the_rate_are_refused_and_the_connection_closed() {
    let served = Served::start();
    let (room, token) = new_room(&served);
    let mut socket = connect(&served, &room, &token);
    // More than the burst of 40 refused answers (no such move) at once: the first are answered
    // with the reason, then the rate.
    for _ in 0..200 {
        socket
            .send(Message::Text(r#"{"choose": 99}"#.into()))
            .unwrap();
    }
    expect_refusal_then_close(&mut socket, "more than 20 refused messages a second");
}

#[test]
fn http_requests_over_the_rate_are_refused_and_the_connection_closed() {
    let served = Served::start();
    let refused = (0..300)
        .map(|_| served.request("GET", "/style.css", ""))
        .find(|(status, _)| *status == 429);
    let (_, body) = refused.expect("a request over the rate is refused");
    assert_eq!(
        body,
        "more than 20 requests a second from one address; slow down"
    );
    // The refusal closes its connection: the answer is read to its end. On a loaded machine the
    // bucket may have refilled by the time this request is sent (then it is answered and the
    // connection kept open): the burst is sent again, a few times at most.
    for attempt in 0..5 {
        let _ = (0..300)
            .map(|_| served.request("GET", "/style.css", ""))
            .find(|(status, _)| *status == 429);
        let mut stream = std::net::TcpStream::connect(served.host()).unwrap();
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(3)))
            .unwrap();
        write!(stream, "GET /style.css HTTP/1.1\r\nHost: localhost\r\n\r\n").unwrap();
        let mut answer = String::new();
        let read = stream.read_to_string(&mut answer);
        if !answer.starts_with("HTTP/1.1 429") {
            assert!(attempt < 4, "never refused: {answer}");
            continue;
        }
        read.expect("the server closes");
        assert!(
            answer.to_lowercase().contains("connection: close"),
            "{answer}"
        );
        return;
    }
}

#[test]
fn rooms_and_connections_per_address_are_bounded() {
    let served = Served::start();
    let rooms: Vec<_> = (0..20).map(|_| new_room(&served)).collect();
    let (status, body) = served.request(
        "POST",
        "/api/rooms",
        r#"{"ruleset":"koikoi","players":["human","greedy"]}"#,
    );
    assert_eq!(status, 429);
    assert_eq!(
        body,
        "one address may have 20 rooms with a game in progress; finish one first"
    );
    // 64 connections from one address (a seat may be open in several tabs), not 65; the
    // server has seen the requests' connections close.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let (room, token) = &rooms[0];
    let _open: Vec<Socket> = (0..64).map(|_| connect(&served, room, token)).collect();
    let upgrade = "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
                   Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    let path = format!("/api/rooms/{room}/ws");
    let (status, body) = served.request_with("GET", &path, upgrade, "");
    assert_eq!(
        (status, body.as_str()),
        (429, "one address may hold 64 connections open")
    );
}

#[test]
fn a_request_body_over_the_limit_is_refused() {
    let served = Served::start();
    let mut stream = std::net::TcpStream::connect(served.host()).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    // 3 MB to an endpoint held to the usual limit (those that take a pasted rule file allow
    // what `yaku validate` reads), written on a thread of its own: the server may answer
    // before reading them all.
    let mut writer = stream.try_clone().unwrap();
    std::thread::spawn(move || {
        let _ = write!(
            writer,
            "POST /api/rooms/x/bot HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
             Content-Length: 3000000\r\n\r\n{}",
            " ".repeat(3_000_000)
        );
    });
    let mut answer = [0; 12];
    stream.read_exact(&mut answer).unwrap();
    assert_eq!(&answer, b"HTTP/1.1 413");
}
