//! The abuse limits of `yaku serve`: how large and how frequent a client's requests and seat
//! messages may be, and how many rooms and connections one client address and the whole server
//! may hold. What goes over a limit is told which limit, in words, and its connection is closed.

use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

pub use super::config::Limits;

/// A refusal: the HTTP status and the reason, sent as the body with `Connection: close`.
#[derive(Debug)]
pub struct Refused {
    /// 429 (too many), 503 (the server is full) or 413 (too large).
    pub status: StatusCode,
    /// Which limit, in words.
    pub message: String,
}

impl Refused {
    fn new(status: StatusCode, message: String) -> Refused {
        Refused { status, message }
    }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let mut response = (self.status, self.message).into_response();
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        response
    }
}

/// A token bucket: `burst` tokens at most, refilled at `rate` a second; each event takes one.
///
/// Written here rather than taken from governor: a bucket lives inside the record of what one
/// address holds (its connections and rooms beside its requests), which is forgotten once it
/// holds nothing and its bucket is full, all under one lock. governor's
/// keyed limiter keeps its own map beside that record, to be swept on its own, and brings five
/// crates for these thirty lines.
#[derive(Debug)]
pub struct Bucket {
    tokens: f64,
    last: Instant,
}

impl Bucket {
    /// A full bucket.
    pub fn full(burst: f64) -> Bucket {
        Bucket {
            tokens: burst,
            last: Instant::now(),
        }
    }

    /// Takes a token if there is one.
    pub fn take(&mut self, rate: f64, burst: f64) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * rate;
        self.tokens = (self.tokens + refill).min(burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// True once the bucket has refilled: nothing of its past is left to remember.
    fn is_full(&self, rate: f64, burst: f64) -> bool {
        self.tokens + self.last.elapsed().as_secs_f64() * rate >= burst
    }
}

/// What one client address holds.
struct Usage {
    requests: Bucket,
    connections: usize,
    /// The rooms it opened (finished and dropped ones are pruned as they are counted).
    rooms: Vec<Weak<dyn CountedRoom>>,
    /// Rooms it is opening now.
    opening: usize,
}

/// A room as the limits count it ([`super::rooms::RoomCell`] is the one a server holds): the
/// limits stand below the rooms and know only this of them.
pub trait CountedRoom: Send + Sync {
    /// True while the room counts against its maker.
    fn counts(&self) -> bool;
}

/// A room counts while the server holds it and its game is not over.
fn open(room: &Weak<dyn CountedRoom>) -> bool {
    room.upgrade().is_some_and(|r| r.counts())
}

/// Rooms of one costly kind (seating an operator's program, or playing a pasted rule file),
/// and those being opened.
#[derive(Default)]
struct KindRooms {
    rooms: Vec<Weak<dyn CountedRoom>>,
    opening: usize,
}

/// A costly kind of room, counted over all clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomKind {
    /// A room seating an operator's program: a process a seat.
    Program,
    /// A room playing a pasted rule file: its own loaded ruleset in memory.
    Pasted,
}

/// The server's side of the limits: what each address and the whole server hold now.
pub struct Guard {
    limits: Limits,
    addresses: Mutex<HashMap<IpAddr, Usage>>,
    connections: Mutex<usize>,
    kinds: [Mutex<KindRooms>; 2],
    starting: Arc<tokio::sync::Semaphore>,
    /// Places for checking a pasted rule file, each costing up to a few hundred times the
    /// file's size while it is parsed.
    checks: Arc<tokio::sync::Semaphore>,
    /// Trusted reverse proxies: every client comes through them, so their connections are held
    /// only to the server's total, not to one address's share.
    proxies: Vec<IpAddr>,
}

impl Guard {
    /// A guard holding clients to `limits`.
    pub fn new(limits: Limits) -> Guard {
        Guard {
            starting: Arc::new(tokio::sync::Semaphore::new(limits.rooms_starting.max(1))),
            checks: Arc::new(tokio::sync::Semaphore::new(limits.pasted_checks.max(1))),
            limits,
            addresses: Mutex::new(HashMap::new()),
            connections: Mutex::new(0),
            kinds: Default::default(),
            proxies: Vec::new(),
        }
    }

    /// The same guard holding the connections of the trusted `proxies` to the server's total
    /// only (the requests through them are held to each client's share by its forwarded
    /// address).
    pub fn with_proxies(mut self, proxies: Vec<IpAddr>) -> Guard {
        self.proxies = proxies;
        self
    }

    /// The limits held.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Runs `f` on `ip`'s usage, making room for a new address by forgetting idle ones.
    fn usage<T>(&self, ip: IpAddr, f: impl FnOnce(&mut Usage) -> T) -> Result<T, Refused> {
        let mut addresses = self.addresses.lock().map_err(|_| stopping())?;
        if !addresses.contains_key(&ip) && addresses.len() >= self.limits.addresses {
            let (rate, burst) = (self.limits.requests_per_second, self.limits.request_burst);
            addresses.retain(|_, u| {
                u.rooms.retain(open);
                u.connections > 0
                    || u.opening > 0
                    || !u.rooms.is_empty()
                    || !u.requests.is_full(rate, burst)
            });
            if addresses.len() >= self.limits.addresses {
                return Err(Refused::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "the server is serving {} client addresses already; try again later",
                        self.limits.addresses
                    ),
                ));
            }
        }
        let usage = addresses.entry(ip).or_insert_with(|| Usage {
            requests: Bucket::full(self.limits.request_burst),
            connections: 0,
            rooms: Vec::new(),
            opening: 0,
        });
        Ok(f(usage))
    }

    /// One HTTP request from `ip`, within its rate or refused.
    pub fn request(&self, ip: IpAddr) -> Result<(), Refused> {
        let (rate, burst) = (self.limits.requests_per_second, self.limits.request_burst);
        if self.usage(ip, |u| u.requests.take(rate, burst))? {
            Ok(())
        } else {
            Err(Refused::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("more than {rate} requests a second from one address; slow down"),
            ))
        }
    }

    /// Leave for `ip` to open a room of the costly `kinds` it is (none, a program's, a pasted
    /// file's), or why not. The leave is held while the room is set up; [`Opening::opened`]
    /// counts the room.
    pub fn open_room(&self, ip: IpAddr, kinds: &[RoomKind]) -> Result<Opening<'_>, Refused> {
        let most = self.limits.rooms_per_address;
        let counted = self.usage(ip, |u| {
            u.rooms.retain(open);
            if u.rooms.len() + u.opening >= most {
                return false;
            }
            u.opening += 1;
            true
        })?;
        if !counted {
            return Err(Refused::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "one address may have {most} rooms with a game in progress; finish one first"
                ),
            ));
        }
        let mut opening = Opening {
            guard: self,
            ip,
            kinds: Vec::new(),
            _permit: None,
        };
        for &kind in kinds {
            let (most, what) = match kind {
                RoomKind::Program => (self.limits.program_rooms, "run programs in"),
                RoomKind::Pasted => (self.limits.pasted_rooms, "play pasted rule files in"),
            };
            let mut rooms = self.kinds[kind as usize].lock().map_err(|_| stopping())?;
            rooms.rooms.retain(open);
            if rooms.rooms.len() + rooms.opening >= most {
                return Err(Refused::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!("the server's rooms {what} {most} rooms already; try again later"),
                ));
            }
            rooms.opening += 1;
            opening.kinds.push(kind);
        }
        let permit = Arc::clone(&self.starting)
            .try_acquire_owned()
            .map_err(|_| {
                Refused::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "the server is setting up {} rooms already; try again in a moment",
                        self.limits.rooms_starting
                    ),
                )
            })?;
        opening._permit = Some(permit);
        Ok(opening)
    }

    /// A place to check a pasted rule file, held while it is checked, or why not.
    pub fn pasted_check(&self) -> Result<tokio::sync::OwnedSemaphorePermit, Refused> {
        Arc::clone(&self.checks).try_acquire_owned().map_err(|_| {
            Refused::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the server is checking {} rule files already; try again in a moment",
                    self.limits.pasted_checks
                ),
            )
        })
    }

    /// A connection from `ip`, held until the slot is dropped, or why not.
    pub fn connect(self: &Arc<Guard>, ip: IpAddr) -> Result<Connection, Refused> {
        let most = self.limits.connections_per_address;
        {
            let mut all = self.connections.lock().map_err(|_| stopping())?;
            if *all >= self.limits.connections {
                return Err(Refused::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "the server holds {} connections already; try again later",
                        self.limits.connections
                    ),
                ));
            }
            let share = if self.proxies.contains(&ip) {
                usize::MAX
            } else {
                most
            };
            let counted = self.usage(ip, |u| {
                if u.connections >= share {
                    return false;
                }
                u.connections += 1;
                true
            })?;
            if !counted {
                return Err(Refused::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    format!("one address may hold {most} connections open"),
                ));
            }
            *all += 1;
        }
        Ok(Connection {
            guard: Arc::clone(self),
            ip,
        })
    }
}

fn stopping() -> Refused {
    Refused::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "the server is stopping".to_string(),
    )
}

/// Leave to open one room, from [`Guard::open_room`].
pub struct Opening<'a> {
    guard: &'a Guard,
    ip: IpAddr,
    kinds: Vec<RoomKind>,
    _permit: Option<tokio::sync::OwnedSemaphorePermit>,
}

impl Opening<'_> {
    /// Counts `room` against the address (and against its costly kinds).
    pub fn opened<R: CountedRoom + 'static>(self, room: &Arc<R>) {
        let room: Weak<R> = Arc::downgrade(room);
        let room: Weak<dyn CountedRoom> = room;
        let _ = self.guard.usage(self.ip, |u| u.rooms.push(room.clone()));
        for &kind in &self.kinds {
            if let Ok(mut rooms) = self.guard.kinds[kind as usize].lock() {
                rooms.rooms.push(room.clone());
            }
        }
    }
}

impl Drop for Opening<'_> {
    fn drop(&mut self) {
        let _ = self.guard.usage(self.ip, |u| u.opening -= 1);
        for &kind in &self.kinds {
            if let Ok(mut rooms) = self.guard.kinds[kind as usize].lock() {
                rooms.opening -= 1;
            }
        }
    }
}

/// One open connection, from [`Guard::connect`]; dropping it frees the place.
pub struct Connection {
    guard: Arc<Guard>,
    ip: IpAddr,
}

impl Drop for Connection {
    fn drop(&mut self) {
        if let Ok(mut all) = self.guard.connections.lock() {
            *all -= 1;
        }
        let _ = self.guard.usage(self.ip, |u| u.connections -= 1);
    }
}

/// A client's address, as the handlers are told it ([`axum::extract::ConnectInfo`]).
#[derive(Clone, Copy, Debug)]
pub struct Client(pub SocketAddr);

/// The server's TCP listener, held to the connection limits: a connection over them is
/// answered with the refusal (an HTTP response) and closed at once.
pub struct Bounded {
    listener: tokio::net::TcpListener,
    guard: Arc<Guard>,
    /// Refused connections being closed (each waits up to a second for its client to read).
    closing: Arc<std::sync::atomic::AtomicUsize>,
}

/// The most refused connections closed gently at once; more are closed without the answer.
const MAX_CLOSING: usize = 64;

impl Bounded {
    /// `listener` held to `guard`'s limits.
    pub fn new(listener: tokio::net::TcpListener, guard: Arc<Guard>) -> Bounded {
        Bounded {
            listener,
            guard,
            closing: Arc::default(),
        }
    }
}

impl Bounded {
    /// The next connection within the limits, with its address; those over the limits are
    /// answered with their refusal and closed meanwhile.
    pub async fn accept(&mut self) -> (Counted, SocketAddr) {
        loop {
            let (stream, from) = match self.listener.accept().await {
                Ok(accepted) => accepted,
                Err(_) => {
                    // Out of file descriptors and the like: wait for some to be freed.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            match self.guard.connect(from.ip()) {
                Ok(slot) => {
                    let _ = stream.set_nodelay(true);
                    let idle = self.guard.limits.idle_time;
                    let counted = Counted {
                        stream,
                        _slot: slot,
                        idle,
                        silent: Box::pin(tokio::time::sleep(idle)),
                    };
                    return (counted, from);
                }
                Err(refused) => {
                    use std::sync::atomic::Ordering;
                    if self.closing.fetch_add(1, Ordering::Relaxed) >= MAX_CLOSING {
                        self.closing.fetch_sub(1, Ordering::Relaxed);
                        continue;
                    }
                    let closing = Arc::clone(&self.closing);
                    tokio::spawn(async move {
                        let _ =
                            tokio::time::timeout(Duration::from_secs(1), refuse(stream, refused))
                                .await;
                        closing.fetch_sub(1, Ordering::Relaxed);
                    });
                }
            }
        }
    }
}

/// Answers a connection over the limits with the refusal, and closes it once the client has
/// read it: what the client sent is read and dropped, since closing with unread input would
/// reset the connection and lose the answer.
async fn refuse(mut stream: tokio::net::TcpStream, refused: Refused) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let answer = format!(
        "HTTP/1.1 {}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
        refused.status,
        refused.message.len(),
        refused.message
    );
    if stream.write_all(answer.as_bytes()).await.is_ok() && stream.shutdown().await.is_ok() {
        let mut sink = [0; 1024];
        while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {}
    }
}

/// An accepted connection, counted against its address until it closes, and closed once it
/// has sent nothing for the limits' `idle_time` (no request, no byte of a body, no WebSocket
/// message or pong).
pub struct Counted {
    stream: tokio::net::TcpStream,
    _slot: Connection,
    idle: Duration,
    /// Fires once the connection has been silent for `idle`.
    silent: std::pin::Pin<Box<tokio::time::Sleep>>,
}

impl tokio::io::AsyncRead for Counted {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        use std::task::Poll;
        let before = buf.filled().len();
        match std::pin::Pin::new(&mut self.stream).poll_read(cx, buf) {
            Poll::Ready(read) => {
                if buf.filled().len() > before {
                    let again = tokio::time::Instant::now() + self.idle;
                    self.silent.as_mut().reset(again);
                }
                Poll::Ready(read)
            }
            Poll::Pending => match self.silent.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "the connection was silent too long",
                ))),
                Poll::Pending => Poll::Pending,
            },
        }
    }
}

impl tokio::io::AsyncWrite for Counted {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// The middleware that holds every HTTP request to its address's rate.
pub async fn rate(
    axum::extract::State(guard): axum::extract::State<Arc<Guard>>,
    ConnectInfo(Client(from)): ConnectInfo<Client>,
    request: Request,
    next: Next,
) -> Response {
    match guard.request(from.ip()) {
        Ok(()) => next.run(request).await,
        Err(refused) => refused.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::rooms::{RoomCell, Rooms};

    fn ip(n: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, n])
    }

    /// Opens a Koi-Koi room with a person in it (its game waits for them) for `from`.
    fn open_one(guard: &Guard, rooms: &Rooms, from: IpAddr, program: bool) -> Arc<RoomCell> {
        let ruleset = Arc::new(crate::ruleset::load("koikoi").value.unwrap());
        let kinds: &[RoomKind] = if program { &[RoomKind::Program] } else { &[] };
        let opening = guard.open_room(from, kinds).unwrap();
        // Both seats held by the person (seat 0's token), so that the test can play it out.
        let players = ["human".to_string(), "human".to_string()];
        // A dealt hand that scores at once (Koi-Koi's teyaku) can end a one-hand game before
        // anyone moves: such a room no longer counts, so another is dealt.
        loop {
            let created = rooms
                .create(Arc::clone(&ruleset), &players, Some(1))
                .unwrap();
            let room = rooms.get(&created.room).unwrap();
            if !room.is_over() {
                opening.opened(&room);
                return room;
            }
        }
    }

    #[test]
    fn rooms_are_counted_per_address_while_their_game_goes_on() {
        let guard = Guard::new(Limits {
            rooms_per_address: 2,
            program_rooms: 1,
            ..Limits::default()
        });
        let rooms = Rooms::default();
        let first = open_one(&guard, &rooms, ip(1), false);
        let _second = open_one(&guard, &rooms, ip(1), true);
        let refused = guard.open_room(ip(1), &[]).err().unwrap();
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
        assert!(refused.message.contains("2 rooms"), "{}", refused.message);
        // Another address has rooms of its own, but the one program room is taken.
        assert!(guard.open_room(ip(2), &[]).is_ok());
        let refused = guard.open_room(ip(2), &[RoomKind::Program]).err().unwrap();
        assert!(
            refused.message.contains("run programs in 1 rooms"),
            "{}",
            refused.message
        );
        // A room whose game is over no longer counts.
        first.work_blocking(|first| {
            while !first.is_over() {
                if first
                    .answer(crate::serve::rooms::Viewer::Seat(0), r#"{"choose": 0}"#)
                    .is_err()
                {
                    first
                        .answer(crate::serve::rooms::Viewer::Seat(1), r#"{"choose": 0}"#)
                        .unwrap();
                }
            }
        });
        assert!(guard.open_room(ip(1), &[]).is_ok());
    }

    #[test]
    fn connections_addresses_and_requests_are_bounded() {
        let guard = Arc::new(Guard::new(Limits {
            connections_per_address: 2,
            connections: 10,
            addresses: 2,
            request_burst: 3.0,
            requests_per_second: 0.001,
            ..Limits::default()
        }));
        let a = guard.connect(ip(1)).unwrap();
        let _b = guard.connect(ip(1)).unwrap();
        let refused = guard.connect(ip(1)).err().unwrap();
        assert!(
            refused.message.contains("2 connections"),
            "{}",
            refused.message
        );
        let _c = guard.connect(ip(2)).unwrap();
        // Two addresses are followed, both busy: a third is turned away.
        let refused = guard.connect(ip(3)).err().unwrap();
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            refused.message.contains("2 client addresses"),
            "{}",
            refused.message
        );
        drop(a);
        assert!(guard.connect(ip(1)).is_ok());
        // The request rate: a burst of 3, then refusals.
        for _ in 0..3 {
            guard.request(ip(2)).unwrap();
        }
        let refused = guard.request(ip(2)).err().unwrap();
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
        let response = refused.into_response();
        assert_eq!(response.headers()[header::CONNECTION], "close");
    }
}
