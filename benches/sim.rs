//! Simulation throughput: whole games per second on one core for the random, greedy and expert
//! bots in every family (Koi-Koi, Matgo and Go-Stop of the matching family, Kol-ye-si against
//! the house, Schnapsen). Run with `cargo bench --bench sim`; criterion's `thrpt` is games/s.

// The binary's allocator, so that the figures are the ones `yaku sim` gets.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::sync::Arc;
use yaku::sim::{self, SimConfig};

/// Games per measured iteration: fewer for the expert, whose games cost a thousand times more.
const GAMES: usize = 50;
const EXPERT_GAMES: usize = 2;

fn sim_throughput(c: &mut Criterion) {
    let mut group = c.benchmark_group("sim");
    group.sample_size(10);
    let cases: &[(&str, &[&str])] = &[
        ("koikoi", &["random", "random"]),
        ("koikoi", &["greedy", "random"]),
        ("koikoi", &["greedy", "greedy"]),
        ("koikoi", &["expert:8", "greedy"]),
        ("matgo", &["random", "random"]),
        ("matgo", &["greedy", "greedy"]),
        ("matgo", &["expert:8", "greedy"]),
        ("gostop", &["greedy", "greedy", "greedy"]),
        ("kolyesi", &["random"]),
        ("kolyesi", &["greedy"]),
        ("kolyesi", &["expert:8"]),
        ("schnapsen", &["random", "random"]),
        ("schnapsen", &["greedy", "greedy"]),
        ("schnapsen", &["expert:8", "greedy"]),
    ];
    for &(name, players) in cases {
        let ruleset = Arc::new(
            yaku::ruleset::load(name)
                .value
                .expect("the bundled ruleset is valid"),
        );
        let games = if players[0].starts_with("expert") {
            EXPERT_GAMES
        } else {
            GAMES
        };
        group.throughput(Throughput::Elements(games as u64));
        let config = SimConfig {
            ruleset,
            players: players.iter().map(|p| p.to_string()).collect(),
            bet_limits: (None, None),
            games,
            seed: 1,
            rounds: None,
            shared_deals: false,
        };
        group.bench_function(format!("{name}/{}", players.join("-")), |b| {
            b.iter(|| sim::simulate(&config, 1, &|| {}).expect("bots play"))
        });
    }
    group.finish();
}

criterion_group!(benches, sim_throughput);
criterion_main!(benches);
