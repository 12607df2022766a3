//! Bundles every file under `rulesets/` into the binary: writes the list `src/ruleset/bundled.rs`
//! includes, so that adding a ruleset, deck, script or strategy file needs no change to the
//! program (and the program names no game).

use std::path::{Path, PathBuf};

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

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.join("rulesets");
    println!("cargo:rerun-if-changed=rulesets");
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
}
