//! A short run of the load test (`examples/serve_load`), so that it keeps working: 20 rooms of
//! Koi-Koi against `greedy` for 3 seconds, each person's seat played by a client over a
//! WebSocket, the server being the built `yaku serve` in a process of its own; every move is
//! answered by its broadcast, no error is seen, and the server's CPU time is read.

#[path = "../../examples/serve_load/load.rs"]
mod driver;

#[test]
fn a_short_load_test_plays_rooms_without_errors() {
    let options = driver::Options {
        rooms: 20,
        time: std::time::Duration::from_secs(3),
        think: std::time::Duration::from_millis(10),
        server_binary: Some(env!("CARGO_BIN_EXE_yaku").into()),
        ..driver::Options::default()
    };
    let report = driver::run(&options);
    eprintln!("{}", report.render(&options));
    assert_eq!(report.errors, 0, "{:?}", report.error_texts);
    assert_eq!(report.rooms_at_once, 20);
    assert!(report.games >= 20, "every room plays a game to its end");
    assert_eq!(report.latencies.len(), report.moves);
    assert!(report.rss_peak > 0);
    assert!(report.server_cpu.is_some_and(|cpu| cpu > 0.0));
}
