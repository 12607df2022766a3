//! Core throughput: random-versus-random Koi-Koi hands per second on one core, with the full
//! data-driven yaku table and the rhai scoring script in the loop.
//!
//! `cargo bench --bench core`; criterion's `thrpt` is hands per second. For instruction counts
//! of the same workload, see `examples/core_hands.rs`.

// The binary's allocator, so that the figures are the ones `yaku sim` gets.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::Arc;
use yaku::agent::{Agent, RandomAgent, agent_rng};
use yaku::core::StartOptions;
use yaku::ruleset::Ruleset;

/// Hands per measured iteration.
const HANDS: u32 = 12;

/// Plays exactly `HANDS` hands from `seed`: games of at most the hands still wanted (the
/// ruleset's own length is ignored), a new game on the next seed when one ends early (a ruleset
/// played to a target score). Returns the next unused seed and a value to keep alive.
fn hands(ruleset: &Arc<Ruleset>, mut seed: u64) -> (u64, [i64; 2]) {
    let mut played = 0;
    let mut scores = [0; 2];
    while played < HANDS {
        let options = StartOptions {
            seed,
            rounds: Some(HANDS - played),
            simulation: true,
            ..StartOptions::default()
        };
        let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(RandomAgent), Box::new(RandomAgent)];
        let (hands, last) = yaku::families::play_to_end(
            Arc::clone(ruleset),
            options,
            &mut agents,
            &mut agent_rng(seed),
            |game| {
                (
                    game.history().len() as u32,
                    [game.scores()[0], game.scores()[1]],
                )
            },
        )
        .expect("scripts run");
        played += hands;
        scores = last;
        seed += 1;
    }
    (seed, scores)
}

fn core(c: &mut Criterion) {
    let mut group = c.benchmark_group("core");
    group.throughput(Throughput::Elements(u64::from(HANDS)));
    for name in ["koikoi", "koikoi-ktane", "koikoi-classic"] {
        let ruleset = Arc::new(yaku::ruleset::load(name).value.expect("bundled ruleset"));
        let mut seed = 1u64;
        group.bench_function(format!("{name}/random-vs-random hands"), |b| {
            b.iter(|| {
                let (next, scores) = hands(&ruleset, seed);
                seed = next;
                black_box(scores)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, core);
criterion_main!(benches);
