//! Helpers shared by the integration tests.

// Every area uses some of these helpers, none uses all of them.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_yaku")
}

/// The Chromium binary, when one is installed.
pub fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH")?
                .to_str()?
                .split(':')
                .map(|dir| Path::new(dir).join(name))
                .find(|p| p.is_file())
        })
}

/// The crate root (where `Cargo.toml` is), for finding test data.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A folder of one test's own under the system's temporary folder (`yaku-NAME-PID`): emptied
/// when made, removed when dropped (also when the test fails). It reads as the folder's path.
#[derive(Debug)]
pub struct TempDir(PathBuf);

impl TempDir {
    /// The folder `yaku-NAME-PID`, made empty.
    pub fn new(name: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!("yaku-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }

    /// Writes `contents` to `file` in the folder and gives the file's path.
    pub fn write(&self, file: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(file);
        std::fs::write(&path, contents).unwrap();
        path
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A run of the real `yaku` binary being built: `Yaku::new(["validate", "koikoi"]).run()`.
#[derive(Debug, Default)]
pub struct Yaku {
    args: Vec<String>,
    stdin: Option<Vec<u8>>,
    dir: Option<PathBuf>,
    env: Vec<(String, String)>,
    limit: Option<std::time::Duration>,
}

/// What a run printed and how it exited.
#[derive(Debug)]
pub struct Output {
    /// Standard output, as text (invalid UTF-8 replaced).
    pub stdout: String,
    /// Standard error, as text (invalid UTF-8 replaced).
    pub stderr: String,
    /// The exit code (-1 when the process was killed by a signal).
    pub code: i32,
}

impl Yaku {
    /// A run with these arguments (the program name is added).
    pub fn new<I, S>(args: I) -> Yaku
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        Yaku {
            args: args.into_iter().map(|a| a.as_ref().to_string()).collect(),
            ..Yaku::default()
        }
    }

    /// Adds one argument.
    pub fn arg(mut self, arg: impl AsRef<str>) -> Yaku {
        self.args.push(arg.as_ref().to_string());
        self
    }

    /// Feeds this to standard input (otherwise standard input is empty).
    pub fn stdin(mut self, input: impl Into<Vec<u8>>) -> Yaku {
        self.stdin = Some(input.into());
        self
    }

    /// Runs in this directory (otherwise in the crate root).
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Yaku {
        self.dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Sets an environment variable for the run.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Yaku {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Kills the run if it has not finished after `limit`, and fails the test then: for a run
    /// that would hang for ever where a fault is present.
    pub fn within(mut self, limit: std::time::Duration) -> Yaku {
        self.limit = Some(limit);
        self
    }

    /// Runs and checks the exit code, printing both streams when it differs.
    #[track_caller]
    pub fn expect(self, code: i32) -> Output {
        let out = self.run();
        out.expect_code(code);
        out
    }

    /// Runs the binary to completion.
    pub fn run(self) -> Output {
        let mut cmd = Command::new(bin());
        cmd.args(&self.args)
            .current_dir(self.dir.unwrap_or_else(root))
            // Plain output whatever the terminal or CI says.
            .env("NO_COLOR", "1")
            .env_remove("CLICOLOR_FORCE")
            .stdin(if self.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start yaku {:?}: {e}", self.args));
        // Feed stdin from a thread so that a large input cannot deadlock against a full stdout.
        let feeder = self.stdin.map(|input| {
            let mut pipe = child.stdin.take().expect("stdin is piped");
            std::thread::spawn(move || {
                // A program that exits without reading closes the pipe early; that is its business.
                let _ = pipe.write_all(&input);
            })
        });
        let (done, finished) = std::sync::mpsc::channel::<()>();
        let watchdog = self.limit.map(|limit| {
            let pid = child.id() as i32;
            std::thread::spawn(move || {
                let late = finished.recv_timeout(limit).is_err();
                if late {
                    // SAFETY: killing our own child, still running past its time (one that
                    // ended at the very instant the limit passed may be reaped already: a
                    // window too short to matter for a test).
                    unsafe {
                        libc::kill(pid, libc::SIGKILL);
                    }
                }
                late
            })
        });
        let out = child
            .wait_with_output()
            .unwrap_or_else(|e| panic!("yaku {:?} did not finish: {e}", self.args));
        let _ = done.send(());
        if let Some(f) = feeder {
            let _ = f.join();
        }
        if let Some(w) = watchdog {
            assert!(
                !w.join().unwrap_or(false),
                "yaku {:?} did not finish within {:?}",
                self.args,
                self.limit
            );
        }
        Output {
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            code: out.status.code().unwrap_or(-1),
        }
    }
}

impl Output {
    /// Panics with the whole output unless the run exited with `code`.
    #[track_caller]
    pub fn expect_code(&self, code: i32) -> &Output {
        assert_eq!(
            self.code, code,
            "expected exit code {code}\n--- stdout\n{}\n--- stderr\n{}",
            self.stdout, self.stderr
        );
        self
    }
}

/// True while process `pid` runs: it exists and is not a zombie waiting to be reaped (a
/// process whose parent exited may be reparented to a PID 1 that never reaps).
pub fn process_alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command's name, which is in parentheses and may hold spaces.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

/// The process ids of the children of `pid` that have exited and not been reaped (zombies).
pub fn unreaped_children(pid: i32) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|child| {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
                return false;
            };
            let fields: Vec<&str> = stat
                .rsplit_once(')')
                .map(|(_, rest)| rest.split_whitespace().collect())
                .unwrap_or_default();
            fields.first() == Some(&"Z") && fields.get(1) == Some(&pid.to_string().as_str())
        })
        .collect()
}

/// Waits up to `limit` for `path` to hold a process id (written by a test's seat program), and
/// gives it.
pub fn wait_for_pid_file(path: &Path, limit: std::time::Duration) -> i32 {
    let until = std::time::Instant::now() + limit;
    loop {
        if let Some(pid) = std::fs::read_to_string(path)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            return pid;
        }
        assert!(
            std::time::Instant::now() < until,
            "`{}` was not written in {limit:?}",
            path.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Kills process `pid` if it still runs (a test's leftover), and says whether it did.
pub fn kill_if_alive(pid: i32) -> bool {
    let alive = process_alive(pid);
    if alive {
        // SAFETY: SIGKILL to a process the test's own seat program started.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
    alive
}
