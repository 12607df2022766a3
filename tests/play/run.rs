//! A small builder for running the `yaku` binary with arguments, piped input and a working
//! directory, and fixtures shared by the play tests.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_yaku")
}

/// A command to run.
pub struct Run {
    args: Vec<String>,
    stdin: String,
    dir: Option<PathBuf>,
}

/// What a run gave.
#[derive(Debug)]
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// `yaku ARGS...`, with empty standard input.
pub fn yaku<S: AsRef<str>>(args: &[S]) -> Run {
    Run {
        args: args.iter().map(|a| a.as_ref().to_string()).collect(),
        stdin: String::new(),
        dir: None,
    }
}

impl Run {
    /// Standard input, then end of input.
    pub fn stdin(mut self, text: impl Into<String>) -> Run {
        self.stdin = text.into();
        self
    }

    /// The working directory.
    pub fn dir(mut self, dir: &Path) -> Run {
        self.dir = Some(dir.to_path_buf());
        self
    }

    /// Runs to the end.
    pub fn output(self) -> Output {
        let mut cmd = Command::new(bin());
        cmd.args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(d) = &self.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd.spawn().expect("the yaku binary runs");
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let text = self.stdin;
        let writer = std::thread::spawn(move || {
            // The game may end before reading everything: a closed pipe is fine.
            let _ = stdin.write_all(text.as_bytes());
        });
        let out = child.wait_with_output().expect("the yaku binary finishes");
        let _ = writer.join();
        Output {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Runs and checks the exit code, printing both streams when it differs.
    pub fn expect(self, code: i32) -> Output {
        let args = self.args.join(" ");
        let out = self.output();
        assert_eq!(
            out.code, code,
            "`yaku {args}` exited {}\n--- stdout\n{}\n--- stderr\n{}",
            out.code, out.stdout, out.stderr
        );
        out
    }
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
