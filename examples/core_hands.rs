//! A fixed core workload for instruction counts: the kind of hands `benches/core.rs` plays (random
//! against random in simulation mode, games of 12 hands on seeds 1, 2, ...), without
//! criterion's adaptive iteration counts, so `valgrind --tool=callgrind` totals compare before
//! and after a change. It prints a checksum of every hand's record and every game's scores,
//! which must not change when the engine is only made faster.
//!
//! ```text
//! cargo build --profile bench --example core_hands
//! valgrind --tool=callgrind target/release/examples/core_hands koikoi 2000
//! valgrind --tool=callgrind target/release/examples/core_hands hachihachi 100 5
//! ```
//!
//! A third argument seats that many players instead of the ruleset's default table.
//!
//! Instructions per hand: the difference between runs of N and 0 games, over the hands played.

// The binary's allocator, so that the counts are the ones `yaku sim` gets.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::sync::Arc;
use yaku::agent::{Agent, RandomAgent, agent_rng};
use yaku::core::StartOptions;

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "koikoi".into());
    let games: u64 = args
        .next()
        .map_or(2000, |n| n.parse().expect("a game count"));
    let ruleset = Arc::new(yaku::ruleset::load(&name).value.expect("bundled ruleset"));
    // A table of this many seats, if asked; the ruleset's default table otherwise.
    let asked: Option<usize> = args.next().map(|n| n.parse().expect("a seat count"));
    // One agent per seat (Kol-ye-si seats three by default).
    let seats = asked.unwrap_or(yaku::families::seat_range(&ruleset).default);
    let (mut hands, mut checksum) = (0usize, 0u64);
    let mut mix = |x: u64| checksum = (checksum ^ x).wrapping_mul(0x100_0000_01b3);
    for seed in 1..=games {
        let options = StartOptions {
            seed,
            rounds: Some(12),
            seats: asked,
            simulation: true,
            ..StartOptions::default()
        };
        let mut agents: Vec<Box<dyn Agent>> = (0..seats)
            .map(|_| Box::new(RandomAgent) as Box<dyn Agent>)
            .collect();
        yaku::families::play_to_end(
            Arc::clone(&ruleset),
            options,
            &mut agents,
            &mut agent_rng(seed),
            |game| {
                hands += game.history().len();
                for h in game.history() {
                    for x in [
                        u64::from(h.round),
                        h.dealer.map_or(9, |d| d as u64),
                        h.winner.map_or(9, |w| w as u64),
                        h.end.0.len() as u64,
                        h.yaku_mask,
                        h.points[0] as u64,
                        h.points[1] as u64,
                        u64::from(h.calls[0]),
                        u64::from(h.calls[1]),
                    ] {
                        mix(x);
                    }
                }
                for &s in game.scores() {
                    mix(s as u64);
                }
            },
        )
        .expect("scripts run");
    }
    println!("{name}: {games} games, {hands} hands, checksum {checksum:016x}");
}
