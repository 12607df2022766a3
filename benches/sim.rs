//! Simulation throughput: whole games of the standard rules per second on one core, for the
//! random and greedy bots. Run with `cargo bench --bench sim`; criterion's `thrpt` is games/s.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::sync::Arc;
use yaku::sim::{self, SimConfig};

/// Games per measured iteration.
const GAMES: usize = 50;

fn sim_throughput(c: &mut Criterion) {
    let ruleset = Arc::new(
        yaku::ruleset::load("koikoi")
            .value
            .expect("the bundled ruleset is valid"),
    );
    let mut group = c.benchmark_group("sim");
    group.throughput(Throughput::Elements(GAMES as u64));
    group.sample_size(10);
    for players in [
        ["random", "random"],
        ["greedy", "random"],
        ["greedy", "greedy"],
    ] {
        let config = SimConfig {
            ruleset: Arc::clone(&ruleset),
            players: players.map(String::from).to_vec(),
            bet_limits: (None, None),
            games: GAMES,
            seed: 1,
            rounds: None,
            shared_deals: false,
        };
        group.bench_function(players.join("-"), |b| {
            b.iter(|| sim::simulate(&config, 1, &|| {}).expect("bots play"))
        });
    }
    group.finish();
}

criterion_group!(benches, sim_throughput);
criterion_main!(benches);
