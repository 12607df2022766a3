//! The language server's standard streams, framed by yaku rather than by `lsp-server`'s stdio
//! transport, which allocates whatever length a header claims (`Content-Length:
//! 100000000000000` aborted the process) and ends the session on the first body that is not
//! JSON-RPC.
//!
//! Here a header is read to a bounded length, a body of more than [`MAX_MESSAGE`] bytes is
//! answered with an error and skipped (read and dropped, never held), and a body that is not a
//! JSON-RPC message is answered with the JSON-RPC error for it (parse error or invalid
//! request, `id` null when none can be read); the session goes on. Only framing that cannot be
//! followed (a header without a length, a length that is no number) or an input that ends
//! within a message ends the session, with its reason.

use crossbeam_channel::{Receiver, Sender, bounded};
use lsp_server::{Connection, Message};
use std::io::{BufRead, Read, Write};
use std::sync::{Arc, Mutex, PoisonError};

/// The longest message body read: longer ones are answered with an error and skipped. A rule
/// file is at most [`crate::fsio::MAX_RULE_FILE_SIZE`], and a message carries one.
pub const MAX_MESSAGE: usize = 16 * 1024 * 1024;

/// The longest header line, and the most header bytes before a body.
const MAX_HEADER: usize = 8 * 1024;

/// JSON-RPC's code for a body that is not JSON.
const PARSE_ERROR: i32 = -32700;
/// JSON-RPC's code for JSON that is no request, response or notification.
const INVALID_REQUEST: i32 = -32600;

/// The running transport: what the reader found wrong, and the writer to wait for.
pub struct Transport {
    ended: Arc<Mutex<Option<String>>>,
    writer: std::thread::JoinHandle<std::io::Result<()>>,
}

impl Transport {
    /// Waits until every message the server sent is written (the server's connection must be
    /// dropped first); `Err` says why the session ended early: the input's framing could not
    /// be followed, or the output could not be written.
    pub fn finish(self) -> Result<(), String> {
        let written = match self.writer.join() {
            Ok(written) => written.map_err(|e| format!("cannot write to the client: {e}")),
            Err(_) => Err("the writer stopped".to_string()),
        };
        match self
            .ended
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            Some(why) => Err(why),
            None => written,
        }
    }
}

/// The server's connection over standard input and output, and the transport running it.
pub fn stdio() -> (Connection, Transport) {
    // Rendezvous channels, as lsp-server's own: the reader holds at most one message the
    // server has not taken.
    let (to_server, from_client) = bounded::<Message>(0);
    let (to_client, from_server) = bounded::<Message>(0);
    let ended = Arc::new(Mutex::new(None));
    let reader_ended = Arc::clone(&ended);
    // The reader is not joined: it may wait on an input the client never closes.
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let outcome = read_messages(&mut stdin.lock(), &to_server, &mut |text| {
            write_framed(&mut std::io::stdout().lock(), text)
        });
        if let Err(why) = outcome {
            *reader_ended.lock().unwrap_or_else(PoisonError::into_inner) = Some(why);
        }
        // Dropping `to_server` here tells the server the input ended.
    });
    let writer = std::thread::spawn(move || write_messages(&from_server));
    let connection = Connection {
        sender: to_client,
        receiver: from_client,
    };
    (connection, Transport { ended, writer })
}

/// Writes every message the server sends, each framed, until the server's side is dropped.
fn write_messages(from_server: &Receiver<Message>) -> std::io::Result<()> {
    for message in from_server {
        // Under the lock of standard output, so an error the reader writes never splits one.
        message.write(&mut std::io::stdout().lock())?;
    }
    Ok(())
}

/// One body with its header, flushed.
fn write_framed(out: &mut impl Write, text: &str) -> std::io::Result<()> {
    write!(out, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    out.flush()
}

/// Reads messages from `input` and gives each to the server, answering what is no message
/// through `reply` (a framed JSON-RPC error), until the input ends (`Ok`), an `exit`
/// notification has been given (`Ok`), the server stops taking messages (`Ok`), or the framing
/// cannot be followed (`Err`, why in words).
fn read_messages(
    input: &mut impl BufRead,
    to_server: &Sender<Message>,
    reply: &mut impl FnMut(&str) -> std::io::Result<()>,
) -> Result<(), String> {
    loop {
        let Some(length) = read_header(input)? else {
            return Ok(());
        };
        if length > MAX_MESSAGE {
            eprintln!(
                "warning: language server: a message of {length} bytes is longer than the {MAX_MESSAGE} read; it is answered with an error and skipped"
            );
            let message = format!(
                "the message is {length} bytes long, more than the {MAX_MESSAGE} that yaku reads; it was skipped"
            );
            reply(&error_text(
                serde_json::Value::Null,
                INVALID_REQUEST,
                &message,
            ))
            .map_err(|e| format!("cannot write to the client: {e}"))?;
            skip(input, length)?;
            continue;
        }
        let mut body = Vec::new();
        let read = input
            .by_ref()
            .take(length as u64)
            .read_to_end(&mut body)
            .map_err(|e| format!("cannot read the input: {e}"))?;
        if read < length {
            return Err(ended_within(length));
        }
        let message = match serde_json::from_slice::<Message>(&body) {
            Ok(message) => message,
            Err(e) => {
                reply(&not_a_message(&body, &e))
                    .map_err(|e| format!("cannot write to the client: {e}"))?;
                continue;
            }
        };
        let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
        if to_server.send(message).is_err() || exit {
            return Ok(());
        }
    }
}

/// Reads one header up to its blank line: the body's length, or `None` at the end of the
/// input before any header.
fn read_header(input: &mut impl BufRead) -> Result<Option<usize>, String> {
    let mut length = None;
    let mut read = 0;
    let mut first = true;
    loop {
        let mut line = Vec::new();
        let n = input
            .by_ref()
            .take((MAX_HEADER + 1) as u64)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("cannot read the input: {e}"))?;
        if n == 0 {
            return if first {
                Ok(None)
            } else {
                Err("the input ended within a message's header".to_string())
            };
        }
        first = false;
        read += n;
        if !line.ends_with(b"\n") || read > MAX_HEADER {
            return Err(format!(
                "a message's header is longer than {MAX_HEADER} bytes, so the messages cannot be told apart"
            ));
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            break;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!(
                "a message's header line `{}` is no `Name: value`, so the messages cannot be told apart",
                crate::diag::escape_control(line)
            ));
        };
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            let value = value.trim();
            length = Some(value.parse::<usize>().map_err(|_| {
                format!(
                    "a message's `Content-Length` is `{}`, not a number of bytes, so the messages cannot be told apart",
                    crate::diag::escape_control(value)
                )
            })?);
        }
    }
    length.map(Some).ok_or_else(|| {
        "a message's header has no `Content-Length`, so the messages cannot be told apart"
            .to_string()
    })
}

/// Reads and drops `length` bytes of a body, a piece at a time.
fn skip(input: &mut impl BufRead, length: usize) -> Result<(), String> {
    let skipped = std::io::copy(
        &mut input.by_ref().take(length as u64),
        &mut std::io::sink(),
    )
    .map_err(|e| format!("cannot read the input: {e}"))?;
    if skipped < length as u64 {
        return Err(ended_within(length));
    }
    Ok(())
}

fn ended_within(length: usize) -> String {
    format!("the input ended within a message (its header gave {length} bytes)")
}

/// The error answering `body`, which is no message: a parse error when it is not JSON, an
/// invalid request (with the request's id when it has one) when it is JSON of another shape.
fn not_a_message(body: &[u8], error: &serde_json::Error) -> String {
    match serde_json::from_slice::<serde_json::Value>(body) {
        Err(e) => error_text(
            serde_json::Value::Null,
            PARSE_ERROR,
            &format!("parse error: the message is not JSON: {e}"),
        ),
        Ok(value) => {
            let id = match value.get("id") {
                Some(id @ (serde_json::Value::Number(_) | serde_json::Value::String(_))) => {
                    id.clone()
                }
                _ => serde_json::Value::Null,
            };
            error_text(
                id,
                INVALID_REQUEST,
                &format!(
                    "invalid request: the message is no JSON-RPC request, response or notification: {error}"
                ),
            )
        }
    }
}

/// A JSON-RPC error response, as text.
fn error_text(id: serde_json::Value, code: i32, message: &str) -> String {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code, "message": message },
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    /// The messages the server is given and the replies written, for `input`; and how the
    /// reading ended.
    fn read_all(input: &[u8]) -> (Vec<Message>, Vec<serde_json::Value>, Result<(), String>) {
        let (to_server, from_client) = crossbeam_channel::unbounded();
        let mut replies = Vec::new();
        let outcome = read_messages(&mut &input[..], &to_server, &mut |text| {
            replies.push(serde_json::from_str(text).unwrap());
            Ok(())
        });
        drop(to_server);
        (from_client.into_iter().collect(), replies, outcome)
    }

    #[test]
    fn messages_pass_and_what_is_no_message_is_answered() {
        let note = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let input = [
            framed("{not json"),
            framed(r#"{"jsonrpc":"2.0","id":7,"params":[]}"#),
            framed(r#"[1, 2]"#),
            framed(note),
        ]
        .concat();
        let (messages, replies, outcome) = read_all(input.as_bytes());
        assert_eq!(outcome, Ok(()));
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert_eq!(replies.len(), 3, "{replies:?}");
        assert_eq!(replies[0]["error"]["code"], PARSE_ERROR);
        assert_eq!(replies[0]["id"], serde_json::Value::Null);
        assert_eq!(replies[1]["error"]["code"], INVALID_REQUEST);
        assert_eq!(replies[1]["id"], 7);
        assert_eq!(replies[2]["error"]["code"], INVALID_REQUEST);
    }

    #[test]
    fn a_message_too_long_is_answered_and_skipped_without_holding_it() {
        let note = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let long = MAX_MESSAGE + 1;
        let input = [
            format!("Content-Length: {long}\r\n\r\n").into_bytes(),
            vec![b' '; long],
            framed(note).into_bytes(),
        ]
        .concat();
        let (messages, replies, outcome) = read_all(&input);
        assert_eq!(outcome, Ok(()));
        assert_eq!(messages.len(), 1);
        assert_eq!(replies.len(), 1);
        assert!(
            replies[0]["error"]["message"]
                .as_str()
                .unwrap()
                .contains("skipped")
        );
        // A length no input holds: answered, and the end of the input ends the session.
        let input = b"Content-Length: 100000000000000\r\n\r\n{}";
        let (_, replies, outcome) = read_all(input);
        assert_eq!(replies.len(), 1);
        assert!(outcome.unwrap_err().contains("ended within a message"));
    }

    #[test]
    fn framing_that_cannot_be_followed_ends_with_its_reason() {
        for (input, why) in [
            ("Content-Type: x\r\n\r\n{}", "no `Content-Length`"),
            ("Content-Length: many\r\n\r\n", "not a number"),
            ("garbage\r\n\r\n", "no `Name: value`"),
            ("Content-Length: 10\r\n", "ended within a message's header"),
        ] {
            let (_, _, outcome) = read_all(input.as_bytes());
            let err = outcome.unwrap_err();
            assert!(err.contains(why), "{input:?}: {err}");
        }
        let long = format!("X-{}: y\r\n\r\n", "a".repeat(MAX_HEADER));
        assert!(
            read_all(long.as_bytes())
                .2
                .unwrap_err()
                .contains("longer than")
        );
        assert_eq!(read_all(b"").2, Ok(()));
    }
}
