//! No source file over 2,000 lines: a file that grows past it is split along its seams (a
//! family's turn apart from its actions, a module's tests in `tests.rs`, data apart from the
//! tests that pin it), so that each file can be read whole. Every `.rs` file under `src/` counts,
//! test files included.

/// The most lines a source file may hold.
const MOST_LINES: usize = 2000;

#[test]
fn no_source_file_over_2000_lines() {
    let (src, paths) = crate::layers::source_files();
    let files = paths.len();
    let mut over = Vec::new();
    for path in paths {
        let lines = std::fs::read_to_string(&path).unwrap().lines().count();
        if lines > MOST_LINES {
            let rel = path.strip_prefix(&src).unwrap();
            over.push(format!("  src/{}: {lines} lines", rel.display()));
        }
    }
    assert!(files > 100, "only {files} source files found under src/");
    over.sort();
    assert!(
        over.is_empty(),
        "files over {MOST_LINES} lines (split them along their seams):\n{}",
        over.join("\n")
    );
}
