//! The load test's driver (`examples/serve_load`; a short run of it is an integration test): a
//! server on loopback in this process, and rooms of bots whose person seats are played by
//! clients over WebSockets, each move timed until the broadcast that follows it comes back.

use futures_util::{SinkExt, StreamExt};
use rand::RngExt;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Rooms played at once (at most the server's 1,000).
    pub rooms: usize,
    /// How long rooms are played; a game under way at the end is played out.
    pub time: Duration,
    /// The ruleset every room plays.
    pub ruleset: String,
    /// Each room's seats, `human` for a seat a client plays (at least one).
    pub players: Vec<String>,
    /// A client's mean time to think before a move (drawn from half to one and a half of it).
    pub think: Duration,
    /// Threads serving (the client has one more runtime of its own).
    pub server_threads: usize,
    /// Seeds the clients' choices and thinking times.
    pub seed: u64,
    /// A `yaku` binary to serve from, in a process of its own, whose CPU time and memory are
    /// then the server's alone; without it the server runs in this process (threads of its
    /// own beside the clients' runtime).
    pub server_binary: Option<std::path::PathBuf>,
    /// Limits of the server set by name (`yaku serve --limit`), after those the load needs.
    pub limits: Vec<(String, String)>,
    /// The database a server binary keeps its rooms in (`yaku serve --db`); without it, rooms
    /// are kept in memory.
    pub database: Option<std::path::PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            rooms: 1_000,
            time: Duration::from_secs(30),
            ruleset: "koikoi".to_string(),
            players: vec!["human".to_string(), "greedy".to_string()],
            think: Duration::from_millis(100),
            server_threads: 2,
            seed: 1,
            server_binary: None,
            limits: Vec::new(),
            database: None,
        }
    }
}

/// What a run measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Moves the clients made.
    pub moves: usize,
    /// Games played to the end.
    pub games: usize,
    /// Seconds from the first room's creation to the last game's end.
    pub seconds: f64,
    /// Times from a move sent to the broadcast after it received, sorted, in microseconds.
    pub latencies: Vec<u64>,
    /// Error messages and failed requests or connections, with the first few reasons.
    pub errors: usize,
    /// The first errors' texts.
    pub error_texts: Vec<String>,
    /// The process's resident memory before the rooms opened and at its peak, in KiB.
    pub rss_before: u64,
    /// See `rss_before`.
    pub rss_peak: u64,
    /// Rooms that were open at once at the peak.
    pub rooms_at_once: usize,
    /// The mean length of a `state` message, in bytes.
    pub state_bytes: usize,
    /// The server process's CPU time (user and system) over the run, in seconds, where the
    /// server ran apart.
    pub server_cpu: Option<f64>,
}

impl Report {
    /// The server's CPU time per client move, in microseconds, where the server ran apart.
    pub fn cpu_per_move(&self) -> Option<f64> {
        self.server_cpu
            .filter(|_| self.moves > 0)
            .map(|cpu| cpu * 1e6 / self.moves as f64)
    }

    /// Client moves a second.
    pub fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.seconds.max(1e-9)
    }

    /// The `p`th percentile of the latencies, in milliseconds.
    pub fn percentile(&self, p: f64) -> f64 {
        if self.latencies.is_empty() {
            return 0.0;
        }
        let at = ((p / 100.0) * (self.latencies.len() - 1) as f64).round() as usize;
        self.latencies[at] as f64 / 1000.0
    }

    /// The report as the example prints it.
    pub fn render(&self, options: &Options) -> String {
        format!(
            "{} rooms of {} ({}; {} open at once), {:.0} ms thinking, {:.1} s: \
             {} client moves ({:.0}/s), {} games\n\
             move to broadcast: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; \
             a state message {} bytes on average\n\
             memory (RSS, {}): {} MiB before the rooms, {} MiB at the peak\n\
             {}errors: {}{}",
            options.rooms,
            options.ruleset,
            options.players.join(","),
            self.rooms_at_once,
            options.think.as_secs_f64() * 1000.0,
            self.seconds,
            self.moves,
            self.moves_per_second(),
            self.games,
            self.percentile(50.0),
            self.percentile(99.0),
            self.latencies.last().copied().unwrap_or(0) as f64 / 1000.0,
            self.state_bytes,
            if self.server_cpu.is_some() {
                "the server's process"
            } else {
                "server and clients"
            },
            self.rss_before / 1024,
            self.rss_peak / 1024,
            match (self.server_cpu, self.cpu_per_move()) {
                (Some(cpu), Some(per)) =>
                    format!("server CPU time: {cpu:.2} s, {per:.1} µs a client move\n"),
                (Some(cpu), None) => format!("server CPU time: {cpu:.2} s\n"),
                _ => String::new(),
            },
            self.errors,
            if self.error_texts.is_empty() {
                String::new()
            } else {
                format!(" (first: {})", self.error_texts.join("; "))
            },
        )
    }
}

/// The resident memory of process `pid` (`self` for this one), in KiB (0 where `/proc` is
/// missing).
pub fn rss(pid: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// The CPU time (user and system) process `pid` has used, in seconds, from `/proc`.
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf only reads a constant of the system.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    (per_second > 0).then(|| ticks as f64 / per_second as f64)
}

/// A server in a process of its own, killed when dropped.
struct ServerProcess {
    child: std::process::Child,
    address: SocketAddr,
}

impl ServerProcess {
    /// Starts `binary serve` on a free loopback port with `limits` and waits for its address.
    fn start(
        binary: &std::path::Path,
        limits: &yaku::serve::limits::Limits,
        database: Option<&std::path::Path>,
    ) -> ServerProcess {
        use std::io::BufRead;
        let mut command = std::process::Command::new(binary);
        command.args(["serve", "--no-open", "--listen", "127.0.0.1:0"]);
        match database {
            Some(file) => command.arg("--db").arg(file),
            None => command.arg("--in-memory"),
        };
        for line in limits.to_config().lines().filter(|l| !l.starts_with('#')) {
            if let Some((name, value)) = line.split_once(" = ") {
                command.args(["--limit", &format!("{name}={}", value.trim_matches('"'))]);
            }
        }
        let mut child = command
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("{} serve: {e}", binary.display()));
        let mut line = String::new();
        let mut out = std::io::BufReader::new(child.stdout.take().expect("its output"));
        out.read_line(&mut line).expect("the server's first line");
        let address = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("http://"))
            .and_then(|a| a.trim_end_matches('/').parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        // The rest of its output is drained, so that it never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        ServerProcess { child, address }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the clients gather.
#[derive(Default)]
struct Tally {
    moves: usize,
    state_bytes: usize,
    states: usize,
    games: usize,
    latencies: Vec<u64>,
    errors: usize,
    error_texts: Vec<String>,
    open: usize,
    most_open: usize,
}

impl Tally {
    fn error(&mut self, why: String) {
        self.errors += 1;
        if self.error_texts.len() < 3 {
            self.error_texts.push(why);
        }
    }
}

/// Runs the load test: starts a server, plays, reports.
pub fn run(options: &Options) -> Report {
    // The server allows this one address all it asks: the load is the point.
    let mut limits = yaku::serve::limits::Limits {
        requests_per_second: 1e9,
        request_burst: 1e9,
        rooms_per_address: usize::MAX,
        connections_per_address: usize::MAX,
        connections: usize::MAX,
        messages_per_second: 1e9,
        message_burst: 1e9,
        ..Default::default()
    };
    for (name, value) in &options.limits {
        limits
            .set(name, value)
            .unwrap_or_else(|why| panic!("--limit {name}={value}: {why}"));
    }
    let process = options
        .server_binary
        .as_deref()
        .map(|binary| ServerProcess::start(binary, &limits, options.database.as_deref()));
    let (address, pid) = match &process {
        Some(process) => (process.address, process.child.id().to_string()),
        None => {
            let server = yaku::serve::Server::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
                .expect("a free port")
                .with_limits(limits)
                .with_threads(options.server_threads);
            let address = server.local_addr().expect("the address");
            std::thread::spawn(move || server.run());
            (address, "self".to_string())
        }
    };
    let rss_before = rss(&pid);
    let cpu_before = process.as_ref().and_then(|p| cpu_seconds(p.child.id()));

    // The peak memory, sampled while the rooms play.
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = {
        let done = Arc::clone(&done);
        let pid = pid.clone();
        std::thread::spawn(move || {
            let mut peak = rss(&pid);
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                peak = peak.max(rss(&pid));
                std::thread::sleep(Duration::from_millis(50));
            }
            peak
        })
    };

    let tally = Arc::new(Mutex::new(Tally::default()));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let start = Instant::now();
    runtime.block_on(async {
        let deadline = tokio::time::Instant::now() + options.time;
        let mut rooms = tokio::task::JoinSet::new();
        for n in 0..options.rooms {
            let options = options.clone();
            let tally = Arc::clone(&tally);
            rooms.spawn(async move {
                let mut rng = yaku::agent::agent_rng(options.seed.wrapping_add(n as u64));
                while tokio::time::Instant::now() < deadline {
                    match play_room(address, &options, &mut rng, &tally).await {
                        Ok(()) => tally.lock().unwrap().games += 1,
                        Err(why) => {
                            tally.lock().unwrap().error(why);
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        }
                    }
                }
            });
        }
        // Bounded in time: games under way when the time is up are given as long again.
        let grace = deadline + options.time + Duration::from_secs(10);
        while tokio::time::timeout_at(grace, rooms.join_next())
            .await
            .is_ok_and(|r| r.is_some())
        {}
    });
    let seconds = start.elapsed().as_secs_f64();
    let server_cpu = process
        .as_ref()
        .and_then(|p| Some(cpu_seconds(p.child.id())? - cpu_before?));
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let rss_peak = sampler.join().unwrap_or(0);
    runtime.shutdown_background();
    let mut tally = std::mem::take(&mut *tally.lock().unwrap());
    tally.latencies.sort_unstable();
    Report {
        moves: tally.moves,
        games: tally.games,
        seconds,
        latencies: tally.latencies,
        errors: tally.errors,
        error_texts: tally.error_texts,
        rss_before,
        rss_peak,
        rooms_at_once: tally.most_open,
        state_bytes: tally.state_bytes / tally.states.max(1),
        server_cpu,
    }
}

/// A POST of `body` to `path`: the status and the body of the answer.
async fn post(address: SocketAddr, path: &str, body: &str) -> Result<(u16, String), String> {
    let mut stream = tokio::net::TcpStream::connect(address)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| format!("write: {e}"))?;
    let mut answer = Vec::new();
    stream
        .read_to_end(&mut answer)
        .await
        .map_err(|e| format!("read: {e}"))?;
    let answer = String::from_utf8_lossy(&answer);
    let status = answer.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    Ok((status, body.to_string()))
}

/// Opens a room and plays its person seats to the end of its game.
async fn play_room(
    address: SocketAddr,
    options: &Options,
    rng: &mut rand::rngs::Xoshiro256PlusPlus,
    tally: &Mutex<Tally>,
) -> Result<(), String> {
    let body =
        serde_json::json!({ "ruleset": options.ruleset, "players": options.players }).to_string();
    let created = loop {
        let (status, answer) = post(address, "/api/rooms", &body).await?;
        match status {
            200 => break answer,
            // The server sets up a bounded number of rooms at once.
            503 => tokio::time::sleep(Duration::from_millis(rng.random_range(5..50))).await,
            _ => return Err(format!("POST /api/rooms: {status} {answer}")),
        }
    };
    let created: serde_json::Value =
        serde_json::from_str(&created).map_err(|e| format!("{e}: {created}"))?;
    let room = created["room"].as_str().unwrap_or_default().to_string();
    let people = created["people"].as_array().cloned().unwrap_or_default();
    {
        let mut t = tally.lock().unwrap();
        t.open += 1;
        t.most_open = t.most_open.max(t.open);
    }
    let seats = people.iter().map(|person| {
        let token = person[1].as_str().unwrap_or_default().to_string();
        let url = format!("ws://{address}/api/rooms/{room}/ws");
        let seed = rng.random::<u64>();
        play_seat(url, token, options.think, seed, tally)
    });
    let played = futures_util::future::join_all(seats).await;
    tally.lock().unwrap().open -= 1;
    played.into_iter().collect()
}

/// One client seat: waits for its turn, thinks, moves, and times the broadcast after the move.
async fn play_seat(
    url: String,
    token: String,
    think: Duration,
    seed: u64,
    tally: &Mutex<Tally>,
) -> Result<(), String> {
    let mut rng = yaku::agent::agent_rng(seed);
    // Small buffers, so that the memory measured is mostly the server's.
    let config = WebSocketConfig::default()
        .read_buffer_size(16 * 1024)
        .write_buffer_size(0);
    let (mut socket, _) = tokio_tungstenite::connect_async_with_config(&url, Some(config), false)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    // The first message is the seat's token.
    let first = serde_json::json!({ "token": token }).to_string();
    socket
        .send(Message::Text(first.into()))
        .await
        .map_err(|e| format!("send the token: {e}"))?;
    let mut sent: Option<Instant> = None;
    while let Some(message) = socket.next().await {
        let message = message.map_err(|e| format!("receive: {e}"))?;
        let Message::Text(text) = message else {
            continue;
        };
        let message: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
        match message["type"].as_str() {
            Some("state") => {
                let mut t = tally.lock().unwrap();
                t.states += 1;
                t.state_bytes += text.len();
            }
            Some("error") => return Err(format!("error: {}", message["message"])),
            _ => continue,
        }
        if let Some(at) = sent.take() {
            let mut t = tally.lock().unwrap();
            t.moves += 1;
            t.latencies.push(at.elapsed().as_micros() as u64);
        }
        if message["over"] == true {
            let _ = socket.close(None).await;
            return Ok(());
        }
        let legal = message["legal"].as_array().map_or(0, Vec::len);
        if legal == 0 {
            continue;
        }
        if !think.is_zero() {
            let half = think.as_micros() as u64 / 2;
            let pause = rng.random_range(half..=half * 3);
            tokio::time::sleep(Duration::from_micros(pause)).await;
        }
        let choice = serde_json::json!({ "choose": rng.random_range(0..legal) }).to_string();
        sent = Some(Instant::now());
        socket
            .send(Message::Text(choice.into()))
            .await
            .map_err(|e| format!("send: {e}"))?;
    }
    Err("the server closed the connection before the game was over".to_string())
}
