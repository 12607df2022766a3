//! Shell conventions: completions and the man page generate from the command-line definition,
//! `yaku list` names what ships, `--help` documents the exit codes, and colour follows
//! NO_COLOR, CLICOLOR_FORCE and not-a-terminal.

use crate::common::{TempDir, Yaku};

#[test]
fn completions_generate_for_every_shell() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef yaku"),
        ("fish", "complete -c yaku"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let out = Yaku::new(["completions", shell]).expect(0);
        assert!(out.stdout.contains(marker), "{shell}: {}", out.stdout);
        // Every subcommand is completed, the new ones included.
        for command in ["validate", "rules", "list", "sim"] {
            assert!(out.stdout.contains(command), "{shell} lacks {command}");
        }
    }
    Yaku::new(["completions", "tcsh"]).expect(2);
}

#[test]
fn the_man_page_generates() {
    let out = Yaku::new(["man"]).expect(0);
    assert!(
        out.stdout.starts_with(".ie") || out.stdout.contains(".TH yaku"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("Exit codes"),
        "the man page documents the exit codes"
    );
    for command in ["validate", "rules", "completions"] {
        assert!(out.stdout.contains(command), "the man page lacks {command}");
    }
}

#[test]
fn man_writes_the_page_of_every_subcommand_with_its_options() {
    let dir = TempDir::new("man");
    Yaku::new(["man", "--dir"])
        .arg(dir.to_str().unwrap())
        .expect(0);
    let main = std::fs::read_to_string(dir.join("yaku.1")).unwrap();
    for sub in yaku::cli::command().get_subcommands() {
        let name = sub.get_name();
        assert!(
            main.contains(&format!("yaku\\-{name}(1)")),
            "yaku(1) does not list yaku-{name}(1)"
        );
        let page = std::fs::read_to_string(dir.join(format!("yaku-{name}.1")))
            .unwrap_or_else(|e| panic!("no page for yaku-{name}: {e}"));
        for arg in sub.get_arguments().filter_map(|a| a.get_long()) {
            assert!(
                page.contains(&format!("\\-\\-{}", arg.replace('-', "\\-"))),
                "yaku-{name}(1) lacks --{arg}"
            );
        }
    }
}

#[test]
fn list_names_every_bundled_file() {
    let out = Yaku::new(["list"]).expect(0);
    insta::with_settings!({ omit_expression => true, prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("list", out.stdout);
    });
    let out = Yaku::new(["list", "--json"]).expect(0);
    let items: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    let items = items.as_array().expect("an array");
    for (kind, name) in [
        ("ruleset", "koikoi"),
        ("house rule", "house/lightning-wild"),
        ("deck", "gupai"),
        ("strategy", "seed"),
    ] {
        let item = items
            .iter()
            .find(|i| i["name"] == name)
            .unwrap_or_else(|| panic!("{name} is not listed"));
        assert_eq!(item["kind"], kind);
        assert!(!item["description"].as_str().unwrap().is_empty());
        // Every listed name loads by that name.
        Yaku::new(["validate", name]).expect(0);
    }
}

#[test]
fn help_documents_the_exit_codes() {
    let out = Yaku::new(["--help"]).expect(0);
    assert!(out.stdout.contains("Exit codes:"), "{}", out.stdout);
    assert!(out.stdout.contains("2  the command line is wrong"));
}

/// A broken rule file's diagnostics: coloured only when forced, never with NO_COLOR or on a
/// pipe. (The test builder sets NO_COLOR; an empty NO_COLOR counts as unset.)
#[test]
fn colour_follows_the_conventions() {
    let broken = "[ruleset]\nid = \"x\"\nextends = \"koikoi\"\nnmae = \"typo\"\n";
    let dir = TempDir::new("colour");
    std::fs::write(dir.join("broken.toml"), broken).unwrap();
    let run = |env: &[(&str, &str)]| {
        let mut y = Yaku::new(["validate", "broken.toml"]).current_dir(&dir);
        for (k, v) in env {
            y = y.env(*k, *v);
        }
        y.expect(1)
    };
    let piped = run(&[]);
    assert!(piped.stderr.contains("error"), "{}", piped.stderr);
    assert!(!piped.stderr.contains('\u{1b}'), "no colour on a pipe");
    let forced = run(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "")]);
    assert!(
        forced.stderr.contains('\u{1b}'),
        "CLICOLOR_FORCE colours: {}",
        forced.stderr
    );
    let off = run(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
    assert!(!off.stderr.contains('\u{1b}'), "NO_COLOR wins");
}

#[test]
fn version_names_the_commit() {
    let out = Yaku::new(["--version"]).expect(0);
    assert!(
        out.stdout
            .starts_with(&format!("yaku {}", env!("CARGO_PKG_VERSION"))),
        "{}",
        out.stdout
    );
    let head = std::process::Command::new("git")
        .args(["rev-parse", "--short=7", "HEAD"])
        .current_dir(crate::common::root())
        .output();
    match head {
        Ok(head) if head.status.success() && crate::common::root().join(".git").exists() => {
            let hash = String::from_utf8_lossy(&head.stdout).trim().to_string();
            assert!(
                out.stdout.contains(&format!("({hash})")),
                "--version does not name {hash}: {}",
                out.stdout
            );
        }
        _ => eprintln!("SKIPPED version_names_the_commit: not a git work tree"),
    }
}
