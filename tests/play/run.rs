//! Fixtures shared by the play tests; runs go through the shared builder in `tests/common`.

pub use crate::common::bin;
use crate::common::{TempDir, Yaku};

/// `yaku ARGS...`: the shared builder (`crate::common::Yaku`).
pub fn yaku<S: AsRef<str>>(args: &[S]) -> Yaku {
    Yaku::new(args)
}

/// A fresh empty directory for one test, removed when the test ends.
pub fn temp_dir(name: &str) -> TempDir {
    TempDir::new(&format!("play-{name}"))
}

/// `n` lines of `1`: the first option at every prompt.
pub fn ones(n: usize) -> String {
    "1\n".repeat(n)
}

/// The `=== game over: ...` line of a transcript.
pub fn game_over(stdout: &str) -> &str {
    stdout
        .lines()
        .find(|l| l.starts_with("=== game over"))
        .unwrap_or_else(|| panic!("no game over line in:\n{stdout}"))
}
