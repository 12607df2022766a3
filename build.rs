//! Bundles every file under `rulesets/` into the binary: writes the list `src/ruleset/bundled.rs`
//! includes, so that adding a ruleset, deck, script or strategy file needs no change to the
//! program (and the program names no game). Also names the commit built, for `yaku --version`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn collect(dir: &Path, root: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, root, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("toml" | "rhai")
        ) {
            out.push(path.strip_prefix(root).unwrap_or(&path).to_path_buf());
        }
    }
}

/// The commit the sources are at (`b1da41b`), or
/// `None` outside a git work tree of this crate's own (a packaged crate, a tarball): the
/// version then names no commit rather than a parent folder's repository.
fn commit(manifest: &Path) -> Option<String> {
    let git_dir = manifest.join(".git");
    // Watched also when absent: a packaged copy of the crate that shares this target folder
    // (`cargo publish --dry-run`) must not leave its commit-less version to the work tree.
    println!("cargo:rerun-if-changed={}", git_dir.join("HEAD").display());
    if !git_dir.exists() {
        return None;
    }
    // Rebuild when HEAD moves: a new commit, a checkout, a fetch that rewrites packed refs.
    // (Uncommitted changes are not named: build scripts do not rerun on every edited source.)
    for watched in ["packed-refs", "refs/heads"] {
        let path = git_dir.join(watched);
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(manifest)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    git(&["rev-parse", "--short=7", "HEAD"]).filter(|h| !h.is_empty())
}

fn main() {
    let package = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    // The folder of the sources: this package's, or its parent's for the library's 128-bit
    // build in `wide/` (which builds `../src`).
    let manifest = package
        .ancestors()
        .find(|dir| dir.join("src/lib.rs").is_file() && dir.join("rulesets").is_dir())
        .unwrap_or(&package)
        .to_path_buf();
    println!("cargo:rustc-env=YAKU_SOURCE_DIR={}", manifest.display());
    let root = manifest.join("rulesets");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    collect(&root, &root, &mut files);
    files.sort();
    let mut code = String::from("&[\n");
    for f in &files {
        let rel = f.to_string_lossy().replace('\\', "/");
        let abs = root.join(f);
        code += &format!(
            "    ({rel:?}, include_str!({:?})),\n",
            abs.to_string_lossy()
        );
    }
    code += "]\n";
    let out =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("bundled_files.rs");
    std::fs::write(out, code).expect("OUT_DIR is writable");

    let version = match commit(&manifest) {
        Some(commit) => format!("{} ({commit})", env!("CARGO_PKG_VERSION")),
        None => env!("CARGO_PKG_VERSION").to_string(),
    };
    println!("cargo:rustc-env=YAKU_VERSION={version}");
}
