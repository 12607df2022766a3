//! The `yaku` binary: parse the command line, run it, map the outcome to an exit code.

// mimalloc rather than the system's: the scoring scripts (rhai values, maps and strings) and a
// simulation's per-game records allocate all the time, and glibc's malloc spends hundreds of
// instructions on a medium block or one freed by another thread. Matgo and Schnapsen hands cost
// about 10% fewer instructions with it, every game the same (see the guide's performance notes, docs/src/project/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // The library twice: with 64-bit card sets (every bundled game), and with 128-bit ones
    // (`wide/`) for a deck of more than 64 cards, which the first hands its command to.
    std::process::exit(yaku::cli::run_with_wider(wider));
}

/// The command line in the wider build, which ends its seat programs and writes before it
/// gives the exit code back, as the first build does (`yaku::cli::before_exit`).
fn wider(argv: Vec<String>) -> i32 {
    let code = yaku_wide::cli::run_from(argv);
    yaku_wide::cli::before_exit();
    code
}
