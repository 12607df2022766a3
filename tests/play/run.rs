//! Fixtures shared by the play tests; runs go through the shared builder in `tests/common`.

use crate::common::Yaku;
pub use crate::common::bin;
use std::path::PathBuf;

/// `yaku ARGS...`: the shared builder (`crate::common::Yaku`).
pub fn yaku<S: AsRef<str>>(args: &[S]) -> Yaku {
    Yaku::new(args)
}

/// A fresh empty directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yaku-play-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temp dir can be made");
    dir
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
