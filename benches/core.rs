//! Core throughput: random-versus-random Koi-Koi hands per second on one core, with the full
//! data-driven yaku table and the rhai scoring script in the loop.
//!
//! `cargo bench --bench core`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::Arc;
use yaku::agent::{Agent, RandomAgent, agent_rng, play_out};
use yaku::engine::{Game, GameOptions};

fn hands(c: &mut Criterion) {
    let mut group = c.benchmark_group("core");
    for name in ["koikoi", "koikoi-ktane", "koikoi-classic"] {
        let ruleset = Arc::new(yaku::ruleset::load(name).value.expect("bundled ruleset"));
        // One game of 12 hands per iteration (the ruleset's own length is ignored).
        const HANDS: u32 = 12;
        group.throughput(Throughput::Elements(u64::from(HANDS)));
        let mut seed = 0u64;
        group.bench_function(format!("{name}/random-vs-random hands"), |b| {
            b.iter(|| {
                seed += 1;
                let options = GameOptions {
                    seed,
                    rounds: Some(HANDS),
                    simulation: true,
                    ..GameOptions::default()
                };
                let mut game = Game::new(Arc::clone(&ruleset), options).expect("scripts run");
                let mut agents: [Box<dyn Agent>; 2] =
                    [Box::new(RandomAgent), Box::new(RandomAgent)];
                play_out(&mut game, &mut agents, &mut agent_rng(seed)).expect("scripts run");
                black_box(game.scores())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, hands);
criterion_main!(benches);
