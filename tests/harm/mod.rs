//! Issue 34 through the real binary: what yaku writes (only regular files, atomically, never an
//! input nor another game, never more than it reads back), signals and file-size limits during
//! play, records that would read the replayer's files, text from files that would drive the
//! terminal, work that hostile files or input would make unbounded, and numbers out of range.
//!
//! Device nodes are never touched: named pipes made in a temporary folder stand for them, and a
//! link to `/dev/null` is used only where yaku refuses before writing anything.

use crate::common::{TempDir, Yaku, bin};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::FileTypeExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Makes a named pipe at `path`.
fn mkfifo(path: &std::path::Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a plain libc call on a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// The names in `dir` that look like temporary files of an atomic write.
fn temporaries(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

/// Runs `yaku ARGS` in `dir` with `stdin`, killed after `limit`, as `(exit code, stdout,
/// stderr, time taken)`.
fn run_bounded(
    dir: &std::path::Path,
    args: &[&str],
    stdin: &[u8],
    limit: Duration,
) -> (i32, String, String, Duration) {
    let started = Instant::now();
    let mut child = Command::new(bin())
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let pid = child.id() as i32;
    let watchdog = std::thread::spawn(move || {
        let until = Instant::now() + limit;
        while Instant::now() < until {
            std::thread::sleep(Duration::from_millis(50));
            // SAFETY: signal 0 only asks whether our child still exists.
            if unsafe { libc::kill(pid, 0) } != 0 {
                return;
            }
        }
        // SAFETY: killing our own child process, still running past its time.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    });
    let out = child.wait_with_output().unwrap();
    let took = started.elapsed();
    let _ = feeder.join();
    let _ = watchdog.join();
    assert!(took < limit, "yaku {args:?} did not finish in {limit:?}");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        took,
    )
}

#[test]
fn only_regular_files_are_written() {
    let dir = TempDir::new("harm-regular");
    let pipe = dir.join("pipe.json");
    mkfifo(&pipe);
    std::os::unix::fs::symlink("/dev/null", dir.join("null.json")).unwrap();
    for (args, what) in [
        (
            &["play", "koikoi", "--seed", "5", "--save", "pipe.json"][..],
            "named pipe",
        ),
        (
            &[
                "play",
                "koikoi",
                "--players",
                "greedy,greedy",
                "--record",
                "pipe.json",
            ][..],
            "named pipe",
        ),
        (
            &["play", "koikoi", "--seed", "5", "--save", "null.json"][..],
            "is a device",
        ),
        (&["rules", "koikoi", "-o", "pipe.json"][..], "named pipe"),
        (&["schema", "-o", "null.json"][..], "is a device"),
    ] {
        let (code, stdout, stderr, _) =
            run_bounded(&dir, args, b"1\nquit\n", Duration::from_secs(30));
        assert_eq!(code, 1, "{args:?}: {stderr}");
        assert!(stderr.contains(what), "{args:?}: {stderr}");
        assert!(!stdout.contains("your hand"), "{args:?}: played: {stdout}");
    }
    assert!(
        std::fs::symlink_metadata(&pipe)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    assert!(dir.join("null.json").is_symlink());
    assert!(temporaries(&dir).is_empty());
}

#[test]
fn an_output_is_never_one_of_the_inputs() {
    let dir = TempDir::new("harm-output");
    let rules = "[ruleset]\nid = \"mine\"\nextends = \"koikoi\"\n";
    dir.write("mine.toml", rules);
    std::os::unix::fs::symlink("mine.toml", dir.join("sheet.txt")).unwrap();
    for output in ["mine.toml", "./mine.toml", "sheet.txt"] {
        let out = Yaku::new(["rules", "mine.toml", "-o", output])
            .current_dir(&dir)
            .expect(1);
        assert!(
            out.stderr.contains("one of this command's inputs"),
            "{}",
            out.stderr
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("mine.toml")).unwrap(),
        rules
    );
    Yaku::new(["rules", "mine.toml", "-o", "out.txt"])
        .current_dir(&dir)
        .expect(0);
    assert!(
        std::fs::read_to_string(dir.join("out.txt"))
            .unwrap()
            .contains("mine")
    );
    assert!(temporaries(&dir).is_empty());
}

#[test]
fn a_file_size_limit_is_reported_and_the_game_kept() {
    let dir = TempDir::new("harm-fsize");
    // `quit` cannot save (the record is larger than the limit): the game is kept and asks for
    // another file; Enter goes back, `quit` fails again, then the input ends.
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 2; exec \"$0\" \"$@\"")
        .arg(bin())
        .args([
            "play", "koikoi", "--seed", "5", "--save", "s.json", "--line",
        ])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(b"quit\n\nquit\n")?;
            child.wait_with_output()
        })
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(1), "killed? {stderr}");
    assert!(
        stderr.contains("cannot keep the save `s.json` current"),
        "{stderr}"
    );
    assert!(stderr.contains("cannot save the game"), "{stderr}");
    assert!(stderr.contains("too large"), "{stderr}");
    assert!(stdout.contains("the game is kept"), "{stdout}");
    assert!(stdout.contains("back to the game"), "{stdout}");
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
}

#[test]
fn recording_over_another_unfinished_game_is_refused() {
    let dir = TempDir::new("harm-record-over");
    // A game quit at once: its save is a game to resume.
    Yaku::new(["play", "koikoi", "--seed", "8", "--save", "mine.json"])
        .current_dir(&dir)
        .stdin("quit\n")
        .expect(0);
    let before = std::fs::read(dir.join("mine.json")).unwrap();
    let out = Yaku::new([
        "play",
        "koikoi",
        "--players",
        "greedy,greedy",
        "--record",
        "mine.json",
    ])
    .current_dir(&dir)
    .expect(1);
    assert!(
        out.stderr.contains("another game that is not over"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("yaku play --resume mine.json"),
        "{}",
        out.stderr
    );
    assert_eq!(std::fs::read(dir.join("mine.json")).unwrap(), before);
    // Nor is another game saved over it (it saves beside it).
    let out = Yaku::new(["play", "koikoi", "--seed", "9", "--save", "mine.json"])
        .current_dir(&dir)
        .stdin("quit\n")
        .expect(0);
    assert!(
        out.stdout.contains("saves to `mine-2.json`"),
        "{}",
        out.stdout
    );
    assert_eq!(std::fs::read(dir.join("mine.json")).unwrap(), before);
    // Resuming it with `--record` naming its own file is the same game.
    Yaku::new(["play", "--resume", "mine.json", "--record", "mine.json"])
        .current_dir(&dir)
        .stdin("quit\n")
        .expect(0);
}

/// Starts `play` on a pipe, as `(child, stdout lines, stdin)`.
fn start_play(
    dir: &std::path::Path,
    args: &[&str],
) -> (
    std::process::Child,
    BufReader<std::process::ChildStdout>,
    std::process::ChildStdin,
) {
    let mut child = Command::new(bin())
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(60));
        // SAFETY: killing our own child process, if it is still running.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    });
    let stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    (child, stdout, stdin)
}

/// A signal at once after the banner, or at once after a move (while the save is being
/// written), saves the game, says so truthfully, and leaves no temporary file.
#[test]
fn a_signal_at_any_moment_saves_the_game_and_says_so_truly() {
    let dir = TempDir::new("harm-signals");
    for round in 0..6 {
        let save = format!("s{round}.json");
        let (mut child, mut stdout, mut stdin) = start_play(
            &dir,
            &["play", "koikoi", "--seed", "11", "--save", &save, "--line"],
        );
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        assert!(line.contains("seed 11"), "{line}");
        if round % 2 == 1 {
            // After a move: answered, then killed while the save is written.
            stdin.write_all(b"1\n1\n").unwrap();
            stdin.flush().unwrap();
        }
        let signal = if round % 3 == 0 {
            libc::SIGINT
        } else {
            libc::SIGTERM
        };
        // SAFETY: sending a signal to our own child process.
        unsafe {
            libc::kill(child.id() as i32, signal);
        }
        let status = child.wait().unwrap();
        let mut rest = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut rest);
        let mut stderr = String::new();
        let _ = std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr);
        assert_eq!(status.code(), Some(128 + signal), "{rest}{stderr}");
        assert!(
            !stderr.contains("could not be saved"),
            "round {round}: {stderr}"
        );
        assert!(rest.contains(&format!("game saved to {save}")), "{rest}");
        assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
        Yaku::new(["play", "--resume", &save])
            .current_dir(&dir)
            .stdin("quit\n")
            .expect(0);
    }
}

/// Issue 41, fault 16: SIGTERM right after a move, with the input ended at the same moment,
/// left the signal handler's temporary file in about one run in twelve: the game saved at the
/// end of the input, the process exited while the handler was writing its own save. Now every
/// way out waits for a write in progress, so no run leaves one. The delay before the signal
/// grows from run to run, so the moment of the race is met whatever the machine's speed.
#[test]
fn a_signal_right_after_a_move_leaves_no_temporary_file() {
    let dir = TempDir::new("harm-signal-temporaries");
    for round in 0..100u64 {
        let mut child = Command::new(bin())
            .args([
                "play", "koikoi", "--seed", "11", "--save", "s.json", "--line",
            ])
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"1\n1\n").unwrap();
        drop(stdin);
        std::thread::sleep(Duration::from_micros(200 * round));
        // SAFETY: sending a signal to our own child process, not yet reaped.
        unsafe {
            libc::kill(child.id() as i32, libc::SIGTERM);
        }
        // Bounded: a run that has not ended 30 s after the signal is killed, and fails.
        let until = Instant::now() + Duration::from_secs(30);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > until {
                let _ = child.kill();
                panic!("round {round}: yaku did not end after SIGTERM");
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        assert!(
            matches!(status.code(), Some(0 | 143)),
            "round {round}: {status:?}"
        );
        assert_eq!(temporaries(&dir), Vec::<String>::new(), "round {round}");
        let saved = std::fs::read_to_string(dir.join("s.json")).unwrap();
        let saved: serde_json::Value = serde_json::from_str(&saved).unwrap();
        assert_eq!(saved["format"], "yaku-record", "round {round}");
        std::fs::remove_file(dir.join("s.json")).unwrap();
    }
}

/// Issue 41, fault 15: `sim --out` wrote its hands over the rule file it played (`rules -o` and
/// `--record` refused their inputs, `sim --out` did not). Every writer of the command line
/// asks one check now: a regular file or a new name, none of the command's inputs.
#[test]
fn every_writer_refuses_the_commands_inputs() {
    let dir = TempDir::new("harm-writers-inputs");
    let rules = "[ruleset]\nid = \"mine\"\nextends = \"koikoi\"\n";
    dir.write("mine.toml", rules);
    std::os::unix::fs::symlink("mine.toml", dir.join("link.jsonl")).unwrap();
    let bot = dir.write(
        "bot.sh",
        "while read line; do echo '{\"choose\":0}'; done\n",
    );
    let bot_text = std::fs::read(&bot).unwrap();
    for args in [
        &["sim", "mine.toml", "--games", "2", "--out", "mine.toml"][..],
        &["sim", "mine.toml", "--games", "2", "--out", "./link.jsonl"][..],
        &[
            "sim",
            "koikoi",
            "--with",
            "mine.toml",
            "--games",
            "2",
            "--out",
            "mine.toml",
        ][..],
        &[
            "sim",
            "koikoi",
            "--games",
            "2",
            "--players",
            "cmd:sh bot.sh,greedy",
            "--out",
            "bot.sh",
        ][..],
        &[
            "play",
            "mine.toml",
            "--players",
            "greedy,greedy",
            "--record",
            "mine.toml",
        ][..],
        &["play", "mine.toml", "--save", "link.jsonl"][..],
        &["rules", "mine.toml", "-o", "link.jsonl"][..],
    ] {
        let out = Yaku::new(args).current_dir(&dir).stdin("quit\n").expect(1);
        assert!(
            out.stderr.contains("one of this command's inputs"),
            "{args:?}: {}",
            out.stderr
        );
        assert!(!out.stdout.contains("game over"), "{args:?}: played");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("mine.toml")).unwrap(),
        rules
    );
    assert_eq!(std::fs::read(&bot).unwrap(), bot_text);
    assert!(dir.join("link.jsonl").is_symlink());
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
    // Another name is written.
    Yaku::new(["sim", "mine.toml", "--games", "2", "--out", "hands.jsonl"])
        .current_dir(&dir)
        .expect(0);
    assert!(
        std::fs::read_to_string(dir.join("hands.jsonl"))
            .unwrap()
            .contains("\"hand\":1")
    );
}

#[test]
fn a_record_may_name_only_bundled_rulesets_and_files_beside_it() {
    let dir = TempDir::new("harm-record-leak");
    let sub = dir.join("games");
    std::fs::create_dir_all(&sub).unwrap();
    Yaku::new([
        "play",
        "koikoi",
        "--players",
        "greedy,greedy",
        "--rounds",
        "1",
        "--seed",
        "3",
        "--record",
        "games/g.json",
    ])
    .current_dir(&dir)
    .expect(0);
    let record = std::fs::read_to_string(sub.join("g.json")).unwrap();
    // A rule file outside the record's folder, which does not parse: never quoted.
    dir.write("secret.toml", "password = hunter2\n");
    let outside = dir.join("secret.toml").display().to_string();
    for spec in [outside.as_str(), "../secret.toml"] {
        let tampered = record.replacen("\"spec\": \"koikoi\"", &format!("\"spec\": \"{spec}\""), 1);
        std::fs::write(sub.join("t.json"), tampered).unwrap();
        let out = Yaku::new(["replay", "games/t.json", "--to-end"])
            .current_dir(&dir)
            .expect(1);
        assert!(out.stderr.contains("in its own folder"), "{}", out.stderr);
        assert!(!out.stderr.contains("hunter2"), "{}", out.stderr);
    }
    // Beside the record: read, but a file that does not parse is not quoted.
    std::fs::write(sub.join("broken.toml"), "password = hunter2\n").unwrap();
    let tampered = record.replacen("\"spec\": \"koikoi\"", "\"spec\": \"broken.toml\"", 1);
    std::fs::write(sub.join("t.json"), tampered).unwrap();
    let out = Yaku::new(["replay", "games/t.json", "--to-end"])
        .current_dir(&dir)
        .expect(1);
    assert!(!out.stderr.contains("hunter2"), "{}", out.stderr);
    assert!(out.stderr.contains("yaku validate"), "{}", out.stderr);
}

/// No byte of a terminal control or bidirectional override from a file reaches the output.
fn assert_clean(what: &str, text: &str) {
    for bad in [
        '\u{1b}', '\u{7}', '\u{9b}', '\u{202e}', '\u{2066}', '\u{200f}',
    ] {
        assert!(!text.contains(bad), "{what}: raw {bad:?} in\n{text}");
    }
}

#[test]
fn text_from_files_is_escaped_for_the_terminal() {
    let dir = TempDir::new("harm-escape");
    dir.write(
        "evil.toml",
        "[ruleset]\nid = \"evil\"\nname = \"Evil \u{202e}slur\u{2066}\"\nextends = \"koikoi\"\n\
         [scoring]\nsource = '''\nfn score(hand) {\n  #{ total: hand.base, steps: [#{ reason: \"boom\\x1b]52;c;aGk=\\x07\\u202e\", total: hand.base }] }\n}\n'''\n",
    );
    dir.write(
        "evil-strategy.toml",
        "[strategy]\ndeck = \"gupai\"\nname = \"evil\\u001b[2J\u{202e}\"\ndescription = \"clears\\u001b[2J the \u{2066}screen\"\nbet = \"min\"\ndraw = 1\n",
    );
    let score = Yaku::new([
        "score",
        "evil.toml",
        "--captured",
        "pine-crane,cherry-curtain,pampas-moon",
    ])
    .current_dir(&dir)
    .expect(0);
    assert!(score.stdout.contains("boom"), "{}", score.stdout);
    assert_clean("score", &format!("{}{}", score.stdout, score.stderr));
    let sheet = Yaku::new(["rules", "evil.toml"])
        .current_dir(&dir)
        .expect(0);
    assert_clean("rules", &sheet.stdout);
    let analyze = Yaku::new(["analyze", "kolyesi", "--strategy", "evil-strategy.toml"])
        .current_dir(&dir)
        .run();
    assert!(analyze.stdout.contains("evil") || analyze.stderr.contains("evil"));
    assert_clean("analyze", &format!("{}{}", analyze.stdout, analyze.stderr));
    let play = Yaku::new([
        "play",
        "evil.toml",
        "--players",
        "greedy,greedy",
        "--rounds",
        "1",
        "--seed",
        "2",
    ])
    .current_dir(&dir)
    .expect(0);
    assert_clean("play", &format!("{}{}", play.stdout, play.stderr));
}

#[test]
fn hostile_files_and_input_take_bounded_work() {
    let dir = TempDir::new("harm-work");
    // 40 definitions that each use the one before twice; a chain of 4,000.
    let mut bomb = String::from(
        "[ruleset]\nid = \"b\"\nextends = \"koikoi\"\n[define]\nd0 = \"count(pile)\"\n",
    );
    let mut chain = bomb.clone();
    for i in 1..40 {
        bomb.push_str(&format!("d{i} = \"max(d{0}, d{0})\"\n", i - 1));
    }
    for i in 1..4000 {
        chain.push_str(&format!("d{i} = \"d{} + 1\"\n", i - 1));
    }
    dir.write("bomb.toml", bomb);
    dir.write("chain.toml", chain);
    for file in ["bomb.toml", "chain.toml"] {
        let (code, _, stderr, took) =
            run_bounded(&dir, &["validate", file], b"", Duration::from_secs(20));
        assert_eq!(code, 1, "{stderr}");
        assert!(stderr.contains("is too large"), "{stderr}");
        assert!(took < Duration::from_secs(10), "{file}: {took:?}");
    }
    // House rules in diamonds, one with an error: reported once.
    dir.write(
        "a0.toml",
        "[ruleset]\nid = \"a0\"\nextends = \"koikoi\"\n[flow\n",
    );
    dir.write("b0.toml", "[ruleset]\nid = \"b0\"\nextends = \"koikoi\"\n");
    for k in 1..12 {
        for side in ["a", "b"] {
            dir.write(
                &format!("{side}{k}.toml"),
                format!(
                    "[ruleset]\nid = \"{side}{k}\"\nextends = [\"a{0}\", \"b{0}\"]\n",
                    k - 1
                ),
            );
        }
    }
    let (code, _, stderr, _) = run_bounded(
        &dir,
        &["validate", "a11.toml"],
        b"",
        Duration::from_secs(20),
    );
    assert_eq!(code, 1);
    assert_eq!(stderr.matches("TOML syntax").count(), 1, "{stderr}");
    // A record with 100,000 players.
    let players = vec!["\"greedy\""; 100_000].join(",");
    dir.write(
        "crowd.json",
        format!(
            "{{\"format\": \"yaku-record\", \"version\": 2, \"ruleset\": {{\"id\": \"koikoi\", \"spec\": \"koikoi\"}}, \"players\": [{players}], \"deals\": [], \"actions\": []}}"
        ),
    );
    let (code, _, stderr, took) = run_bounded(
        &dir,
        &["replay", "crowd.json"],
        b"",
        Duration::from_secs(20),
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("100000 players"), "{stderr}");
    assert!(took < Duration::from_secs(5), "{took:?}");
    // Threads far beyond the cores and the games.
    let (code, _, stderr, _) = run_bounded(
        &dir,
        &["sim", "koikoi", "--games", "2", "--threads", "2000"],
        b"",
        Duration::from_secs(60),
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("more than four per core"), "{stderr}");
    // An input line with no end.
    let endless = vec![0u8; 1 << 20];
    let (code, _, stderr, _) = run_bounded(
        &dir,
        &[
            "play", "koikoi", "--seed", "4", "--save", "z.json", "--line",
        ],
        &endless,
        Duration::from_secs(30),
    );
    assert!(code == 0 || code == 1, "{stderr}");
    assert!(stderr.contains("longer than 4096 bytes"), "{stderr}");
    // Standard input with no end, for a rule file.
    let (code, _, stderr, _) = run_bounded(
        &dir,
        &["validate", "-"],
        &vec![b'#'; (16 << 20) + 2],
        Duration::from_secs(30),
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("too large"), "{stderr}");
    // A script far larger than any real one.
    let big = format!(
        "fn score(hand) {{ hand.base }}\n{}",
        "// padding\n".repeat(40_000)
    );
    dir.write("big.rhai", big);
    dir.write(
        "big.toml",
        "[ruleset]\nid = \"big\"\nextends = \"koikoi\"\n[scoring]\nscript = \"big.rhai\"\n",
    );
    let (code, _, stderr, _) = run_bounded(
        &dir,
        &["validate", "big.toml"],
        b"",
        Duration::from_secs(20),
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("the scoring script is too large"),
        "{stderr}"
    );
    assert!(stderr.contains("big.toml:5"), "{stderr}");
}

#[test]
fn validate_a_folder_skips_pipes_and_does_not_follow_links_to_folders() {
    let dir = TempDir::new("harm-validate-dir");
    let rules = dir.join("rules");
    std::fs::create_dir_all(rules.join("sub")).unwrap();
    std::fs::write(
        rules.join("mine.toml"),
        "[ruleset]\nid = \"mine\"\nextends = \"koikoi\"\n",
    )
    .unwrap();
    mkfifo(&rules.join("pipe.toml"));
    std::os::unix::fs::symlink("..", rules.join("sub").join("up")).unwrap();
    std::os::unix::fs::symlink(".", rules.join("here")).unwrap();
    std::os::unix::fs::symlink("mine.toml", rules.join("alias.toml")).unwrap();
    let (code, stdout, stderr, _) =
        run_bounded(&dir, &["validate", "rules"], b"", Duration::from_secs(20));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.matches(": ok").count(), 1, "{stdout}");
}

#[test]
fn numbers_from_files_and_flags_are_bounded_where_they_enter() {
    let dir = TempDir::new("harm-numbers");
    dir.write(
        "huge.toml",
        "[ruleset]\nid = \"huge\"\nextends = \"koikoi\"\n[scoring]\nsource = '''\nfn score(hand) { 9223372036854775807 }\n'''\n",
    );
    let out = Yaku::new(["validate", "huge.toml"])
        .current_dir(&dir)
        .expect(1);
    assert!(
        out.stderr.contains("a hand is worth at most"),
        "{}",
        out.stderr
    );
    // A card worth 2^63-1.
    let deck = std::fs::read_to_string(crate::common::root().join("rulesets/decks/french-20.toml"))
        .unwrap()
        .replacen("points = 11", "points = 9223372036854775807", 1);
    dir.write("rich.toml", deck);
    let out = Yaku::new(["validate", "rich.toml"])
        .current_dir(&dir)
        .expect(1);
    assert!(
        out.stderr.contains("a card's value is at most 1000000"),
        "{}",
        out.stderr
    );
    let out = Yaku::new(["score", "schnapsen", "--marriages", "9223372036854775807"])
        .current_dir(&dir)
        .expect(2);
    assert!(out.stderr.contains("0..=10000"), "{}", out.stderr);
    let out = Yaku::new([
        "score",
        "gostop",
        "--captured",
        "pine-crane",
        "--made",
        "shake=100",
    ])
    .current_dir(&dir)
    .expect(2);
    assert!(out.stderr.contains("a count from 0 to"), "{}", out.stderr);
    dir.write(
        "bet.toml",
        "[strategy]\ndeck = \"gupai\"\nname = \"all-in\"\ndescription = \"\"\nbet = 9223372036854775807\ndraw = 1\n",
    );
    let out = Yaku::new(["validate", "bet.toml"])
        .current_dir(&dir)
        .expect(1);
    assert!(
        out.stderr.contains("no table takes more than"),
        "{}",
        out.stderr
    );
    // A redeal that always holds: a warning, and the 101st deal an error.
    dir.write(
        "redeal.toml",
        "[ruleset]\nid = \"r\"\nextends = \"koikoi\"\n[[flow.redeal]]\nid = \"always\"\nwhen = \"count(pile) >= 0\"\n",
    );
    let out = Yaku::new(["validate", "redeal.toml"])
        .current_dir(&dir)
        .expect(0);
    assert!(
        out.stderr.contains("holds on every deal tried"),
        "{}",
        out.stderr
    );
    let out = Yaku::new([
        "play",
        "redeal.toml",
        "--players",
        "greedy,greedy",
        "--seed",
        "1",
    ])
    .current_dir(&dir)
    .expect(1);
    assert!(out.stderr.contains("held on 101 deals"), "{}", out.stderr);
}
