//! A fixed workload of bot games for instruction counts: `N` games of `RULESET` between two bots,
//! 12 hands each (or the ruleset's length), on one thread, with a checksum of every result.
//!
//! ```sh
//! cargo build --release --example bot_hands
//! valgrind --tool=callgrind target/release/examples/bot_hands koikoi greedy,greedy 200
//! valgrind --tool=callgrind target/release/examples/bot_hands koikoi greedy,greedy 0
//! ```
//!
//! Instructions per hand: the difference between runs of N and 0 games, over the hands played.

// The binary's allocator, so that the counts are the ones `yaku sim` gets.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::sync::Arc;
use yaku::agent::agent_rng;
use yaku::core::StartOptions;
use yaku::families::agent_by_name;

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "koikoi".into());
    let bots = args.next().unwrap_or_else(|| "greedy,greedy".into());
    let games: u64 = args
        .next()
        .map_or(200, |n| n.parse().expect("a game count"));
    let ruleset = Arc::new(yaku::ruleset::load(&name).value.expect("a valid ruleset"));
    let names: Vec<&str> = bots.split(',').collect();
    let (mut hands, mut checksum) = (0usize, 0u64);
    for seed in 1..=games {
        let mut agents = names
            .iter()
            .map(|n| agent_by_name(n, &ruleset).expect("a bot"))
            .collect::<Vec<_>>();
        let options = StartOptions {
            seed,
            seats: Some(names.len()),
            rounds: ruleset.matching().map(|_| 12),
            simulation: true,
            ..StartOptions::default()
        };
        yaku::families::play_to_end(
            Arc::clone(&ruleset),
            options,
            &mut agents,
            &mut agent_rng(seed),
            |game| {
                hands += game.history().len();
                for &s in game.scores() {
                    checksum = (checksum ^ s as u64).wrapping_mul(0x100_0000_01b3);
                }
            },
        )
        .expect("scripts run");
    }
    println!("{name} {bots}: {games} games, {hands} hands, checksum {checksum:016x}");
}
