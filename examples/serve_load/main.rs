//! A load test of `yaku serve` on loopback, bounded in time and count: a server in this process,
//! `--rooms` rooms of bots played at once for `--secs` seconds, each room's person seats played
//! by clients over WebSockets that think `--think-ms` before each move (a random move). It reports
//! the clients' moves a second, the time from a move to the broadcast after it (the server's
//! check, the bots' replies, the seat's new state), and the process's memory. With `--server
//! YAKU` the server is that binary's `yaku serve`, in a process of its own, and the report adds
//! its CPU time per client move.
//!
//! ```sh
//! cargo run --release --example serve_load -- --rooms 1000 --secs 30
//! cargo run --release --example serve_load -- --rooms 200 --players human,human --think-ms 0
//! cargo build --release && cargo run --release --example serve_load -- \
//!     --rooms 200 --think-ms 0 --secs 20 --server target/release/yaku
//! ```

// The binary's allocator, so that the memory is what `yaku serve` takes.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod load;

use std::time::Duration;

fn main() {
    let mut options = load::Options::default();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .unwrap_or_else(|| usage(&format!("{flag} needs a value")));
        let number = || -> u64 {
            value
                .parse()
                .unwrap_or_else(|_| usage(&format!("{flag} takes a number")))
        };
        match flag.as_str() {
            "--rooms" => options.rooms = number() as usize,
            "--secs" => options.time = Duration::from_secs(number()),
            "--think-ms" => options.think = Duration::from_millis(number()),
            "--threads" => options.server_threads = number() as usize,
            "--seed" => options.seed = number(),
            "--server" => options.server_binary = Some(value.into()),
            "--db" => options.database = Some(value.into()),
            "--limit" => match value.split_once('=') {
                Some((name, v)) => options.limits.push((name.to_string(), v.to_string())),
                None => usage("--limit takes NAME=VALUE, as `yaku serve --limit` does"),
            },
            "--ruleset" => options.ruleset = value,
            "--players" => options.players = value.split(',').map(str::to_string).collect(),
            _ => usage(&format!("unknown option {flag}")),
        }
    }
    if !options.players.iter().any(|p| p == "human") {
        usage("--players needs a `human` seat for a client to play");
    }
    let report = load::run(&options);
    println!("{}", report.render(&options));
}

fn usage(why: &str) -> ! {
    eprintln!(
        "{why}\nusage: serve_load [--rooms N] [--secs S] [--think-ms MS] [--threads N] \
         [--ruleset ID] [--players human,greedy] [--seed N] [--server YAKU] [--limit NAME=VALUE] [--db FILE]"
    );
    std::process::exit(2)
}
