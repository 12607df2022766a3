//! Hostile and mistaken input through the binary: endless and huge files are refused at a size
//! limit under a memory limit, scripts cannot wait, files that are not records are never
//! overwritten, and each problem is reported once, blaming the right thing.

mod flows;

use crate::common::{TempDir, Yaku, bin};
use std::process::Command;

/// Runs `yaku ARGS` under a 1 GB address-space limit, as `(exit code, stderr + stdout)`.
fn run_with_memory_limit(args: &[&str]) -> (i32, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1000000; exec \"$0\" \"$@\"")
        .arg(bin())
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr).into_owned()
        + String::from_utf8_lossy(&out.stdout).as_ref();
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn endless_inputs_are_refused_at_the_size_limit() {
    for args in [
        &["validate", "/dev/zero"][..],
        &["play", "--resume", "/dev/zero"],
        &["replay", "/dev/zero"],
        &["analyze", "kolyesi", "--strategy", "/dev/zero"],
    ] {
        let (code, text) = run_with_memory_limit(args);
        assert_eq!(code, 1, "{args:?}: {text}");
        assert!(text.contains("too large"), "{args:?}: {text}");
    }
}

#[test]
fn a_huge_file_is_refused_without_being_read() {
    // Sparse: 1 GiB long, no disk used. Telling its kind must not read it whole.
    let path = std::env::temp_dir().join(format!("yaku-huge-{}.toml", std::process::id()));
    std::fs::File::create(&path)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let (code, text) = run_with_memory_limit(&["validate", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("is too large"), "{text}");
}

#[test]
fn a_script_that_sleeps_fails_instead_of_hanging() {
    let dir = TempDir::new("sleep");
    std::fs::write(
        dir.join("sleepy.toml"),
        "[ruleset]\nid = \"sleepy\"\nextends = \"koikoi\"\n\n[scoring]\nsource = '''\nfn score(hand) {\n  sleep(100000);\n  hand.base\n}\n'''\n",
    )
    .unwrap();
    let out = Yaku::new([
        "score",
        "sleepy.toml",
        "--captured",
        "pine-crane,cherry-curtain,pampas-moon",
    ])
    .current_dir(&dir)
    .run();
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("may not wait or read the clock"),
        "{}",
        out.stderr
    );
}

#[test]
fn record_and_save_never_replace_a_file_that_is_not_a_record() {
    let dir = TempDir::new("own-rules");
    let rules = "[ruleset]\nid = \"mine\"\nextends = \"koikoi\"\n";
    std::fs::write(dir.join("mine.toml"), rules).unwrap();
    for (option, players) in [("--record", "random,random"), ("--save", "human,random")] {
        let out = Yaku::new([
            "play",
            "mine.toml",
            "--players",
            players,
            option,
            "mine.toml",
        ])
        .current_dir(&dir)
        .run();
        assert_eq!(out.code, 1, "{option}: {}", out.stderr);
        // The rules played are an input of the command, which no output replaces.
        assert!(
            out.stderr.contains("one of this command's inputs"),
            "{option}: {}",
            out.stderr
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("mine.toml")).unwrap(),
            rules
        );
    }
    // Nor a document that is no input.
    std::fs::write(dir.join("notes.txt"), "keep me\n").unwrap();
    let out = Yaku::new([
        "play",
        "mine.toml",
        "--players",
        "random,random",
        "--record",
        "notes.txt",
    ])
    .current_dir(&dir)
    .expect(1);
    assert!(
        out.stderr.contains("is not a yaku game record"),
        "{}",
        out.stderr
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "keep me\n"
    );
    // A record may be replaced by the next game's record.
    let out = Yaku::new([
        "play",
        "mine.toml",
        "--players",
        "random,random",
        "--rounds",
        "1",
        "--seed",
        "3",
        "--record",
        "game.json",
    ])
    .current_dir(&dir)
    .run();
    assert_eq!(out.code, 0, "{}", out.stderr);
    let again = Yaku::new([
        "play",
        "mine.toml",
        "--players",
        "random,random",
        "--rounds",
        "1",
        "--seed",
        "4",
        "--record",
        "game.json",
    ])
    .current_dir(&dir)
    .run();
    assert_eq!(again.code, 0, "{}", again.stderr);
}

#[test]
fn play_prints_each_diagnostic_once() {
    let dir = TempDir::new("diag-once");
    std::fs::write(
        dir.join("bad.toml"),
        "[ruleset]\nid = \"bad\"\nextends = \"koikoi\"\nfoo = 1\n",
    )
    .unwrap();
    let out = Yaku::new(["play", "bad.toml"]).current_dir(&dir).run();
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.stderr.matches("unknown key `foo`").count(),
        1,
        "{}",
        out.stderr
    );

    // A record with one player is the record's fault, not `--players`'.
    let record = Yaku::new([
        "play",
        "koikoi",
        "--players",
        "random,random",
        "--rounds",
        "1",
        "--seed",
        "3",
        "--record",
        "game.json",
    ])
    .current_dir(&dir)
    .run();
    assert_eq!(record.code, 0, "{}", record.stderr);
    let text = std::fs::read_to_string(dir.join("game.json")).unwrap();
    let one = text.replacen("\"random\",\n    \"random\"", "\"random\"", 1);
    assert_ne!(one, text);
    std::fs::write(dir.join("one.json"), one).unwrap();
    let out = Yaku::new(["play", "--resume", "one.json"])
        .current_dir(&dir)
        .run();
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(!out.stderr.contains("--players"), "{}", out.stderr);
    assert!(out.stderr.contains("names 1 player"), "{}", out.stderr);
}

#[test]
fn a_full_disk_is_an_error_not_a_panic() {
    let record = std::env::temp_dir().join(format!("yaku-full-{}.json", std::process::id()));
    let made = Yaku::new([
        "play",
        "koikoi",
        "--players",
        "random,random",
        "--rounds",
        "1",
        "--seed",
        "3",
        "--record",
        record.to_str().unwrap(),
    ])
    .run();
    assert_eq!(made.code, 0, "{}", made.stderr);
    let record = record.to_str().unwrap().to_string();
    for args in [
        vec!["validate", "koikoi"],
        vec!["validate", "koikoi", "--json"],
        vec!["score", "koikoi", "--captured", "pine-crane"],
        vec!["analyze", "kolyesi", "--strategy", "seed"],
        vec![
            "sim",
            "koikoi",
            "--games",
            "2",
            "--players",
            "random,random",
        ],
        vec!["replay", &record, "--to-end"],
        vec![
            "play",
            "koikoi",
            "--players",
            "random,random",
            "--rounds",
            "1",
        ],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(bin())
            .args(&args)
            .stdout(full)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("error: cannot write the output: No space left on device"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_file(&record);
}

#[test]
fn analyze_takes_a_banker_ruleset_with_its_own_deck() {
    // The best strategies it compares with were bundled files for `gupai` only: a panic.
    let dir = TempDir::new("own-deck");
    let gupai =
        std::fs::read_to_string(crate::common::root().join("rulesets/decks/gupai.toml")).unwrap();
    let mine = gupai.replacen("id = \"gupai\"", "id = \"mytiles\"", 1);
    assert_ne!(mine, gupai);
    std::fs::write(dir.join("mytiles.toml"), mine).unwrap();
    std::fs::write(
        dir.join("own.toml"),
        "[ruleset]\nid = \"own\"\nextends = \"kolyesi\"\ndeck = \"mytiles.toml\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("mine.toml"),
        "[strategy]\nname = \"mine\"\ndeck = \"mytiles\"\nbet = \"min\"\ndraw = 1\n",
    )
    .unwrap();
    let out = Yaku::new(["analyze", "own.toml", "--strategy", "mine.toml"])
        .current_dir(&dir)
        .run();
    assert_eq!(out.code, 0, "{}", out.stderr);
    // The same tiles as gupai: the same figures as the README's.
    assert!(
        out.stdout
            .contains("best with bets of 1 to 10: 1065691/6041280 (+0.1764)"),
        "{}",
        out.stdout
    );
}

#[test]
fn the_largest_number_is_a_valid_literal_and_one_more_is_too_large() {
    // In a condition: as points it would be more than a yaku may score (a 32-bit number).
    let dir = TempDir::new("literal");
    let rules = |n: &str| {
        format!(
            "[ruleset]\nid = \"big\"\nextends = \"koikoi\"\n\n[[yaku]]\nid = \"kasu\"\nwhen = \"count(plain) >= 10 and count(plain) < {n}\"\n"
        )
    };
    std::fs::write(dir.join("max.toml"), rules("9223372036854775807")).unwrap();
    std::fs::write(dir.join("over.toml"), rules("9223372036854775808")).unwrap();
    let max = Yaku::new(["validate", "max.toml"]).current_dir(&dir).run();
    let over = Yaku::new(["validate", "over.toml"]).current_dir(&dir).run();
    assert_eq!(max.code, 0, "{}", max.stderr);
    assert_eq!(over.code, 1, "{}", over.stderr);
    assert!(
        over.stderr.contains("number is too large"),
        "{}",
        over.stderr
    );
}

#[test]
fn control_characters_from_files_are_never_printed_raw() {
    // A raw ESC in a line quoted under a caret, and one inside a key named in a message (a
    // clipboard write, OSC 52): both reach the output as `?` or an escape, even when piped.
    let dir = TempDir::new("escape");
    std::fs::write(
        dir.join("raw.toml"),
        "[ruleset]\nid = \"raw\"\nextends = \"koikoi\"\n\x1b[2J = 1\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("key.toml"),
        "[ruleset]\nid = \"key\"\nextends = \"koikoi\"\n\"\\u001b]52;c;aGk=\\u0007\" = 1\n",
    )
    .unwrap();
    let raw = Yaku::new(["validate", "raw.toml"]).current_dir(&dir).run();
    let key = Yaku::new(["validate", "key.toml"]).current_dir(&dir).run();
    for out in [&raw, &key] {
        assert_eq!(out.code, 1, "{}", out.stderr);
        assert!(
            !out.stderr.chars().any(|c| c.is_control() && c != '\n'),
            "{:?}",
            out.stderr
        );
    }
    assert!(raw.stderr.contains("4 | ?[2J = 1"), "{}", raw.stderr);
    assert!(
        key.stderr.contains("\\u{1b}]52;c;aGk=\\u{7}"),
        "{}",
        key.stderr
    );
}

/// Runs `yaku ARGS` in `dir`, killed after 20 s (a FIFO opened by mistake would wait for ever),
/// as `(exit code, stderr)`.
fn run_in_with_deadline(dir: &std::path::Path, args: &[&str]) -> (i32, String) {
    let mut child = Command::new(bin())
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            panic!("yaku {args:?} did not finish in 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_file_named_by_another_is_read_only_as_a_rule_file() {
    // Issue 12: a rule file's `extends`/`deck`/`script` or a record's `ruleset.spec` naming
    // `/etc/passwd` or `/proc/self/environ` printed that file's lines back as errors; a FIFO
    // hung the load; a directory or a loop of links was "no ruleset named".
    let dir = TempDir::new("named");
    let w = |name: &str, text: &[u8]| std::fs::write(dir.join(name), text).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", dir.join("passwd.toml")).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", dir.join("environ.rhai")).unwrap();
    std::os::unix::fs::symlink("loop-b.toml", dir.join("loop-a.toml")).unwrap();
    std::os::unix::fs::symlink("loop-a.toml", dir.join("loop-b.toml")).unwrap();
    std::fs::create_dir_all(dir.join("folder.toml")).unwrap();
    let fifo = std::ffi::CString::new(dir.join("pipe.toml").to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    w(
        "binary.toml",
        b"[ruleset]\nid = \"binary\"\n\0\0\0\x7fELF\0",
    );
    w(
        "latin.toml",
        b"[deck]\nid = \"latin\"\nname = \"caf\xe9\"\n",
    );
    let script = |name: &str| {
        format!("[ruleset]\nid = \"s\"\nextends = \"koikoi\"\n\n[scoring]\nscript = \"{name}\"\n")
    };
    let cases: Vec<(String, &str)> = vec![
        (script("/etc/passwd"), "`/etc/passwd` is not a `.rhai` file"),
        (script("/proc/self/environ"), "is not a `.rhai` file"),
        (script("environ.rhai"), "`environ.rhai` leads to `/proc/"),
        (
            "[ruleset]\nid = \"e\"\nextends = \"passwd\"\n".into(),
            "`passwd.toml` leads to `/etc/passwd`, which is not a `.toml` file",
        ),
        (
            "[ruleset]\nid = \"e\"\nextends = \"folder\"\n".into(),
            "`folder.toml` is a directory",
        ),
        (
            "[ruleset]\nid = \"e\"\nextends = \"pipe\"\n".into(),
            "`pipe.toml` is a named pipe (FIFO)",
        ),
        (
            "[ruleset]\nid = \"e\"\nextends = \"loop-a\"\n".into(),
            "`loop-a.toml` is a loop of symbolic links",
        ),
        (
            "[ruleset]\nid = \"e\"\nextends = \"binary\"\n".into(),
            "`binary.toml` holds NUL bytes",
        ),
        (
            "[ruleset]\nid = \"e\"\nextends = \"koikoi\"\ndeck = \"latin\"\n".into(),
            "`latin.toml` is not UTF-8 text (line 3",
        ),
    ];
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    let first_passwd_line = passwd.lines().next().unwrap_or("root:x:0:0").to_string();
    for (k, (rules, expected)) in cases.iter().enumerate() {
        let name = format!("case{k}.toml");
        w(&name, rules.as_bytes());
        let (code, stderr) = run_in_with_deadline(&dir, &["validate", &name]);
        assert_eq!(code, 1, "{rules}\n{stderr}");
        assert!(stderr.contains(expected), "{rules}\n{stderr}");
        // The error points at the name in the rule file, and quotes nothing of the other file.
        assert!(stderr.contains(&format!("--> {name}:")), "{stderr}");
        assert!(!stderr.contains(&first_passwd_line), "{stderr}");
        assert!(!stderr.contains("PATH="), "{stderr}");
        assert!(!stderr.contains("ELF"), "{stderr}");
    }

    // A record naming such a file as its ruleset.
    let (code, stderr) = run_in_with_deadline(
        &dir,
        &[
            "play",
            "koikoi",
            "--players",
            "random,random",
            "--rounds",
            "1",
            "--seed",
            "3",
            "--record",
            "game.json",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let record = std::fs::read_to_string(dir.join("game.json")).unwrap();
    for (spec, expected) in [
        // Issue 34: an absolute path (or `..`) is refused before anything is looked at.
        ("/etc/passwd", "a record may name only bundled rulesets"),
        (
            "/proc/self/environ",
            "a record may name only bundled rulesets",
        ),
        ("../passwd.toml", "no absolute path, no `..`"),
        ("passwd.toml", "leads to `/etc/passwd`"),
        ("pipe.toml", "is a named pipe (FIFO)"),
        ("folder.toml", "is a directory"),
        ("binary.toml", "holds NUL bytes"),
    ] {
        let tampered = record.replacen("\"spec\": \"koikoi\"", &format!("\"spec\": \"{spec}\""), 1);
        assert_ne!(tampered, record);
        w("tampered.json", tampered.as_bytes());
        for command in ["replay", "play"] {
            let args: &[&str] = if command == "replay" {
                &["replay", "tampered.json", "--to-end"]
            } else {
                &["play", "--resume", "tampered.json"]
            };
            let (code, stderr) = run_in_with_deadline(&dir, args);
            assert_eq!(code, 1, "{spec}: {stderr}");
            assert!(stderr.contains(expected), "{spec}: {stderr}");
            assert!(!stderr.contains(&first_passwd_line), "{stderr}");
            assert!(!stderr.contains("PATH="), "{stderr}");
        }
    }
}

#[test]
fn arithmetic_that_could_overflow_or_go_negative_is_a_validate_error() {
    // Issue 12: formulas wrapped around (a total wrapped to a negative winner), and a yaku whose
    // points go negative validated clean and stopped `yaku sim` at game 0.
    let dir = TempDir::new("arith");
    let rules = |points: &str| {
        format!(
            "[ruleset]\nid = \"arith\"\nextends = \"koikoi\"\n\n[[yaku]]\nid = \"kasu\"\npoints = \"{points}\"\n"
        )
    };
    for (points, expected) in [
        (
            "count(plain) * 4611686018427387904",
            "this can overflow: a number computed in it can reach 115292150460684697600",
        ),
        (
            "round * round * round * round * round",
            "can reach 100000000000000000000 (with `round` 0 to 10000",
        ),
        (
            "count(plain) * 100000000",
            "yaku `kasu` can score 2500000000 points, more than a yaku may score (2147483647)",
        ),
        (
            "count(plain) - 15",
            "yaku `kasu` can score negative points: -5 on a pile its condition holds for",
        ),
    ] {
        std::fs::write(dir.join("arith.toml"), rules(points)).unwrap();
        let out = Yaku::new(["validate", "arith.toml"])
            .current_dir(&dir)
            .run();
        assert_eq!(out.code, 1, "{points}: {}", out.stderr);
        assert!(out.stderr.contains(expected), "{points}: {}", out.stderr);
        assert!(out.stderr.contains("--> arith.toml:7:"), "{}", out.stderr);
    }
    // The same negative formula, guarded, is fine, and the simulation plays.
    std::fs::write(dir.join("arith.toml"), rules("max(0, count(plain) - 15)")).unwrap();
    let out = Yaku::new(["validate", "arith.toml"])
        .current_dir(&dir)
        .run();
    assert_eq!(out.code, 0, "{}", out.stderr);
    let sim = Yaku::new([
        "sim",
        "arith.toml",
        "--games",
        "2",
        "--players",
        "random,random",
    ])
    .current_dir(&dir)
    .run();
    assert_eq!(sim.code, 0, "{}", sim.stderr);
}

#[test]
fn chips_from_a_rule_file_are_bounded_like_the_command_line() {
    // Issue 12: a bankroll of 10^10 validated, and then every bet decision listed 10^10
    // amounts (160 GB). Now it is a located validate error, as `--max-bet` is a usage error.
    let dir = TempDir::new("chips");
    std::fs::write(
        dir.join("rich.toml"),
        "[ruleset]\nid = \"rich\"\nextends = \"kolyesi\"\n\n[flow]\nbankroll = 10000000000\nmax_bet = 10000000000\nbanker_bankroll = 0\n",
    )
    .unwrap();
    let rich = dir.join("rich.toml");
    let rich = rich.to_str().unwrap();
    for args in [
        &["validate", rich][..],
        &["sim", rich, "--players", "seed", "--games", "1"],
        &["play", rich, "--players", "seed", "--rounds", "1"],
    ] {
        let (code, text) = run_with_memory_limit(args);
        assert_eq!(code, 1, "{args:?}: {text}");
        assert!(
            text.contains("`bankroll` must be from 1 to 1000000000, found 10000000000"),
            "{text}"
        );
        assert!(
            text.contains("`max_bet` must be from 1 to 10000, found 10000000000"),
            "{text}"
        );
        assert!(
            text.contains("`banker_bankroll` must be from 1 to 1000000000, found 0"),
            "{text}"
        );
        assert!(text.contains("rich.toml:6:12"), "{text}");
        assert!(!text.contains("panicked"), "{text}");
    }
    for command in ["sim", "play", "analyze"] {
        let mut args = vec![command, "kolyesi", "--max-bet", "10000000000"];
        if command == "analyze" {
            args.extend(["--strategy", "seed"]);
        }
        let out = Yaku::new(&args).run();
        assert_eq!(out.code, 2, "{command}: {}", out.stderr);
        assert!(out.stderr.contains("is not in 1..=10000"), "{}", out.stderr);
    }
    // The largest limits play.
    let out = Yaku::new([
        "sim",
        "kolyesi",
        "--players",
        "seed",
        "--games",
        "1",
        "--min-bet",
        "10000",
        "--max-bet",
        "10000",
    ])
    .run();
    assert_eq!(out.code, 0, "{}", out.stderr);
}

/// Waits until `out` (filled by a reader thread) holds `text` after byte `from`, for at most
/// 30 s; the position after it.
fn wait_for(out: &std::sync::Arc<std::sync::Mutex<String>>, text: &str, from: usize) -> usize {
    let start = std::time::Instant::now();
    loop {
        {
            let seen = out.lock().unwrap();
            if let Some(i) = seen.get(from..).and_then(|s| s.find(text)) {
                return from + i + text.len();
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(30),
                "no `{text}` in:\n{seen}"
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A `yaku play` with piped input and output in `dir`: the child, its stdin, its stdout as
/// read so far (filled by a thread) and that thread.
struct Playing {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    out: std::sync::Arc<std::sync::Mutex<String>>,
    reader: std::thread::JoinHandle<()>,
}

impl Playing {
    fn start(dir: &std::path::Path, args: &[&str]) -> Playing {
        use std::io::Read;
        let mut child = Command::new(bin())
            .arg("play")
            .args(args)
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let out = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let reader = {
            let out = std::sync::Arc::clone(&out);
            let mut stdout = child.stdout.take().unwrap();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = stdout.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    out.lock()
                        .unwrap()
                        .push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            })
        };
        let stdin = child.stdin.take().unwrap();
        Playing {
            child,
            stdin,
            out,
            reader,
        }
    }

    /// Waits for `text` after byte `from` of the output, then types `line`; the position after
    /// `text`.
    fn answer(&mut self, text: &str, from: usize, line: &str) -> usize {
        use std::io::Write;
        let at = wait_for(&self.out, text, from);
        self.stdin.write_all(line.as_bytes()).unwrap();
        at
    }

    /// Waits for the end (with the input still open), then: `(exit code, stderr)`.
    fn finish(mut self) -> (Option<i32>, String) {
        use std::io::Read;
        let status = self.child.wait().unwrap();
        drop(self.stdin);
        self.reader.join().unwrap();
        let mut stderr = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        (status.code(), stderr)
    }
}

/// A game saving to `gone/save.json` in a fresh folder named after `name`: once it has started
/// (its save path was checked) the folder goes away and the player types `quit`. The folder, the
/// running game, and where its output has been read to.
fn quit_after_the_save_folder_went(name: &str) -> (std::path::PathBuf, Playing, usize) {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("gone")).unwrap();
    let mut play = Playing::start(
        &dir,
        &[
            "koikoi",
            "--players",
            "human,random",
            "--seed",
            "3",
            "--save",
            "gone/save.json",
        ],
    );
    let at = wait_for(&play.out, "> ", 0);
    std::fs::remove_dir_all(dir.join("gone")).unwrap();
    play.stdin.write_all(b"quit\n").unwrap();
    (dir, play, at)
}

#[test]
fn a_failed_save_at_quit_keeps_the_game() {
    // Issue 12: a save that failed at `quit` (a full disk, a folder gone) ended the program and
    // the game was lost. Now the game is kept: Enter goes back to it, another path saves it.
    let (dir, mut play, at) = quit_after_the_save_folder_went("yaku-quit");
    let at = play.answer("the game is kept", at, "\n");
    // The same question again, and a move still works.
    let at = wait_for(&play.out, "back to the game", at);
    let at = play.answer("> ", at, "quit\n");
    let at = play.answer("the game is kept", at, "kept.json\n");
    wait_for(&play.out, "game saved to kept.json", at);
    let (code, stderr) = play.finish();
    let saved = std::fs::read_to_string(dir.join("kept.json")).unwrap_or_default();
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        stderr
            .matches("error: cannot save the game to `gone/save.json`")
            .count(),
        2,
        "{stderr}"
    );
    assert!(saved.contains("\"format\": \"yaku-record\""), "{saved}");
}

#[test]
fn an_interrupt_saves_where_the_player_last_chose() {
    // Issue 12: after a failed save at `quit` and another path typed, Ctrl-C or SIGTERM saved
    // to the `--save` path of the command line, not to the path the player had chosen.
    let (dir, mut play, at) = quit_after_the_save_folder_went("yaku-quit-signal");
    // The chosen path fails too (its folder does not exist yet): back to the game.
    let at = play.answer("the game is kept", at, "later/chosen.json\n");
    let at = play.answer("the game is kept", at, "\n");
    let at = wait_for(&play.out, "back to the game", at);
    // Both folders exist now; the interrupt saves to the chosen path.
    std::fs::create_dir_all(dir.join("gone")).unwrap();
    std::fs::create_dir_all(dir.join("later")).unwrap();
    wait_for(&play.out, "> ", at);
    std::thread::sleep(std::time::Duration::from_millis(200));
    // SAFETY: sending a signal to our own child process.
    unsafe {
        libc::kill(play.child.id() as i32, libc::SIGTERM);
    }
    let out = std::sync::Arc::clone(&play.out);
    let (code, stderr) = play.finish();
    let out = out.lock().unwrap().clone();
    let chosen = std::fs::read_to_string(dir.join("later/chosen.json")).unwrap_or_default();
    let first = dir.join("gone/save.json").exists();
    assert_eq!(code, Some(128 + libc::SIGTERM), "{stderr}");
    assert!(
        out.contains(
            "game saved to later/chosen.json; resume it with: yaku play --resume later/chosen.json"
        ),
        "{out}\n{stderr}"
    );
    assert!(chosen.contains("\"format\": \"yaku-record\""), "{chosen}");
    assert!(!first, "the interrupt saved to the --save path");
}

#[test]
fn play_and_replay_print_names_and_record_fields_escaped() {
    // Issue 12: card, yaku and ruleset names from a rule file and the players, ruleset and card
    // ids of a record reached the terminal raw (a screen clear, a window title) even when piped.
    let dir = TempDir::new("escape-play");
    let deck = std::fs::read_to_string(crate::common::root().join("rulesets/decks/hanafuda.toml"))
        .unwrap()
        .replacen("id = \"hanafuda\"", "id = \"escdeck\"", 1)
        .replace("name = \"Crane and Sun\"", "name = \"Crane\\u001b[2J\"");
    assert!(deck.contains("\\u001b[2J"));
    std::fs::write(dir.join("escdeck.toml"), deck).unwrap();
    std::fs::write(
        dir.join("esc.toml"),
        "[ruleset]\nid = \"esc\"\nname = \"Esc\\u001b]0;title\\u0007\"\nextends = \"koikoi\"\ndeck = \"escdeck\"\n\n[[yaku]]\nid = \"kasu\"\nname = \"Kasu\\u001b[2J\"\n",
    )
    .unwrap();
    let raw = |text: &str| text.chars().any(|c| c.is_control() && c != '\n');
    let mut outputs: Vec<String> = Vec::new();
    for seed in ["1", "2", "3"] {
        let played = Yaku::new([
            "play",
            "esc.toml",
            "--players",
            "random,random",
            "--rounds",
            "2",
            "--seed",
            seed,
            "--record",
            "esc.json",
        ])
        .current_dir(&dir)
        .run();
        assert_eq!(played.code, 0, "{}", played.stderr);
        let replayed = Yaku::new(["replay", "esc.json", "--to-end"])
            .current_dir(&dir)
            .run();
        assert_eq!(replayed.code, 0, "{}", replayed.stderr);
        outputs.push(format!("{}{}", played.stdout, played.stderr));
        outputs.push(format!("{}{}", replayed.stdout, replayed.stderr));
    }
    let all = outputs.concat();
    assert!(all.contains("Esc\\u{1b}]0;title\\u{7}"), "{all}");
    assert!(all.contains("Crane\\u{1b}[2J"), "{all}");
    // A tampered record: players, the ruleset's id and spec, a card id.
    let record = std::fs::read_to_string(dir.join("esc.json")).unwrap();
    let tampered = [
        record.replacen("\"random\"", "\"rand\\u001b[2Jom\"", 1),
        record.replacen(
            "\"spec\": \"esc.toml\"",
            "\"spec\": \"e\\u001b[2Jsc.toml\"",
            1,
        ),
        record.replacen("\"id\": \"esc\"", "\"id\": \"e\\u001b[2Jsc\"", 1),
        record.replacen("\"pine-crane\"", "\"pine\\u001b[2Jcrane\"", 1),
    ];
    for (k, text) in tampered.iter().enumerate() {
        assert_ne!(*text, record, "{k}");
        std::fs::write(dir.join("tampered.json"), text).unwrap();
        for args in [
            &["replay", "tampered.json", "--to-end"][..],
            &["replay", "tampered.json", "--json"],
            &["play", "--resume", "tampered.json"],
        ] {
            let out = Yaku::new(args).current_dir(&dir).run();
            let text = format!("{}{}", out.stdout, out.stderr);
            assert!(!raw(&text), "{k} {args:?}: {text:?}");
            assert!(text.contains("\\u{1b}[2J"), "{k} {args:?}: {text}");
        }
    }
    for out in &outputs {
        assert!(!raw(out), "{out:?}");
    }
}

#[test]
fn analyze_refuses_an_enumeration_it_cannot_finish() {
    // Issue 12: four tiles each ran for a day, six for years, silently. Now the size is
    // estimated first, and `--max-deals` decides.
    let dir = TempDir::new("deals");
    std::fs::write(
        dir.join("four.toml"),
        "[ruleset]\nid = \"four\"\nextends = \"kolyesi\"\n\n[flow]\nfirst_tiles = 4\nbanker_tiles = 4\nmax_players = 3\n",
    )
    .unwrap();
    let (code, stderr) = run_in_with_deadline(&dir, &["analyze", "four.toml"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("goes through 220884300000 deals (4 first tiles and 4 for the banker from 32 tiles, then draws of [1, 2]), about "),
        "{stderr}"
    );
    assert!(
        stderr.contains("more than the 1000000000 allowed"),
        "{stderr}"
    );
    assert!(
        stderr.contains("`--max-deals 220884300000` runs it anyway"),
        "{stderr}"
    );
    // The limit is the user's: lower than Kol-ye-si's 6,472,800 deals refuses it, equal runs it.
    let (code, stderr) = run_in_with_deadline(
        &crate::common::root(),
        &["analyze", "kolyesi", "--max-deals", "6472799"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("goes through 6472800 deals"), "{stderr}");
    let out = Yaku::new(["analyze", "kolyesi", "--max-deals", "6472800"]).run();
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("(+0.1764)"), "{}", out.stdout);
}

#[test]
fn bots_refuse_odds_they_cannot_compute() {
    // Issue 12: `best`, `greedy` and `expert` play a banker game from the exact odds of every
    // first hand, computed by the same enumeration as `yaku analyze`: with four first tiles
    // `yaku sim` and `yaku play` ran for hours before the first move. Now they are refused at
    // setup, like `yaku analyze`, and the bots that need no odds still play.
    let dir = TempDir::new("bot-deals");
    std::fs::write(
        dir.join("four.toml"),
        "[ruleset]\nid = \"four\"\nextends = \"kolyesi\"\n\n[flow]\nfirst_tiles = 4\nbanker_tiles = 4\nmax_players = 3\n",
    )
    .unwrap();
    for (args, bot) in [
        (&["sim", "four.toml", "--games", "2"][..], "greedy"),
        (&["sim", "four.toml", "--players", "seed,best"], "best"),
        (&["sim", "four.toml", "--players", "expert:2"], "expert:2"),
        (
            &["play", "four.toml", "--players", "human,best-fixed"],
            "best-fixed",
        ),
        (&["play", "four.toml", "--players", "greedy,seed"], "greedy"),
    ] {
        let (code, stderr) = run_in_with_deadline(&dir, args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!("error: bot `{bot}` cannot play: it plays from the exact odds of every first hand, which for `four` go through 220884300000 deals (4 first tiles and 4 for the banker from 32 tiles, then draws of [1, 2]): more than the 1000000000 a bot may take")),
            "{args:?}: {stderr}"
        );
        assert!(
            stderr
                .contains("= help: bots that need no odds: random, always-one, always-two, seed,"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("unknown player"), "{args:?}: {stderr}");
    }
    let (code, stderr) = run_in_with_deadline(
        &dir,
        &[
            "sim",
            "four.toml",
            "--players",
            "seed,random,always-two",
            "--games",
            "20",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
}

/// A rule file on Koi-Koi with `n` new `[[yaku]]` tables missing their condition and points:
/// two errors each, each one looking for the base yaku the id may have meant.
fn broken_yaku(n: usize) -> String {
    let mut text = String::from("[ruleset]\nid = \"big\"\nextends = \"koikoi\"\n\n");
    for i in 0..n {
        text.push_str(&format!("[[yaku]]\nid = \"y{i}\"\n\n"));
    }
    text
}

#[test]
fn validation_work_grows_linearly_with_the_file() {
    // Issue 12: 20,000 broken yaku tables (400 KB) took 102 s to validate: each looked for a
    // did-you-mean among every other id, and merges searched lists from the start. The work of
    // suggestions is now counted and bounded, and ids are looked up by hash; four times the
    // tables cost about four times the work, under a thousand units per table.
    let work = |n: usize| {
        let loaded = yaku::ruleset::load_str("big.toml", &broken_yaku(n));
        let errors = loaded
            .diagnostics
            .iter()
            .filter(|d| d.severity == yaku::diag::Severity::Error)
            .count();
        assert_eq!(errors, 2 * n);
        // Every diagnostic finds its line (by a search in the file's line starts).
        let json = yaku::diag::render_json(&loaded.sources, &loaded.diagnostics);
        assert_eq!(json[2 * n - 1]["line"], 4 + 3 * (n - 1) + 1);
        yaku::diag::suggestion_work()
    };
    let (small, large) = (work(2000), work(8000));
    assert!(large <= 1000 * 8000, "{large} units for 8,000 tables");
    assert!(
        large <= 5 * small,
        "{small} units for 2,000 tables, {large} for 8,000"
    );
}

#[test]
fn validate_prints_the_first_thousand_diagnostics_and_counts_the_rest() {
    // Issue 12: a 16 MiB file broken in a million places printed hundreds of megabytes. Text
    // shows the first 1,000 diagnostics (as clang's `-ferror-limit`), the count stays whole.
    let dir = TempDir::new("many-errors");
    std::fs::write(dir.join("broken.toml"), broken_yaku(600)).unwrap();
    let out = Yaku::new(["validate", "broken.toml"])
        .current_dir(&dir)
        .run();
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.stderr.matches("\nerror: ").count() + 1, 1000);
    assert!(
        out.stderr.contains(
            "note: 200 more diagnostics not shown (the first 1000 are; `yaku validate --json` lists every one)"
        ),
        "{}",
        &out.stderr[out.stderr.len().saturating_sub(500)..]
    );
    assert!(out.stderr.ends_with("broken.toml: 1200 errors\n"));
}
