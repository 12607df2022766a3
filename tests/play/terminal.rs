//! `yaku play` and `yaku replay` under a real terminal (tmux): colours, prompts, keystrokes,
//! and stepping with Enter. CI installs tmux (.ci/run).

use super::run::{bin, temp_dir, yaku};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server of its own, killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn start(name: &str, dir: &Path, command: &str) -> Tmux {
        let found = Command::new("tmux")
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(found, "this test needs tmux (apt-get install tmux)");
        let t = Tmux {
            socket: format!("yaku-{name}-{}", std::process::id()),
        };
        let ok = t
            .tmux(&["new-session", "-d", "-x", "200", "-y", "60", "-c"])
            .arg(dir)
            .arg(command)
            .status()
            .unwrap()
            .success();
        assert!(ok, "tmux starts");
        t
    }

    fn tmux(&self, args: &[&str]) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.socket, "-f", "/dev/null"]).args(args);
        c
    }

    /// The screen, with colour escapes.
    fn screen(&self) -> String {
        let out = self
            .tmux(&["capture-pane", "-p", "-e", "-S", "-200"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(text) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "`{text}` never appeared; the screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn keys(&self, keys: &str) {
        self.tmux(&["send-keys", "-l", keys]).status().unwrap();
        self.tmux(&["send-keys", "Enter"]).status().unwrap();
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]).status();
    }
}

#[test]
fn play_and_replay_in_a_terminal() {
    let dir = temp_dir("tty");
    let t = Tmux::start(
        "play",
        &dir,
        &format!("{} play koikoi --seed 12 --save s.json; sleep 30", bin()),
    );
    // (capture-pane trims the space after the `>` prompt)
    let s = t.wait_for("play a card from your hand");
    assert!(
        s.contains("\x1b["),
        "cards are coloured on a terminal:\n{s}"
    );
    t.keys("help");
    t.wait_for("at any prompt:");
    t.keys("1");
    t.keys("quit");
    t.wait_for("game saved to s.json");
    assert!(dir.join("s.json").exists());
    drop(t);

    // `--no-color` on a terminal: plain text.
    let t = Tmux::start(
        "plain",
        &dir,
        &format!(
            "{} play koikoi --seed 12 --no-color --save p.json; sleep 30",
            bin()
        ),
    );
    let s = t.wait_for("play a card from your hand");
    let table = s.split("table (").nth(1).unwrap_or_default();
    assert!(
        !table.contains("\x1b[3"),
        "no colours with --no-color:\n{s}"
    );
    t.keys("quit");
    t.wait_for("game saved");
    drop(t);

    // Replay steps one action per Enter.
    yaku(&[
        "play",
        "koikoi",
        "--players",
        "greedy,greedy",
        "--seed",
        "3",
        "--rounds",
        "1",
        "--record",
        "g.json",
    ])
    .current_dir(&dir)
    .expect(0);
    let t = Tmux::start(
        "replay",
        &dir,
        &format!("{} replay g.json; sleep 30", bin()),
    );
    t.wait_for("[action 1/");
    t.keys("");
    t.wait_for("[action 2/");
    t.keys("q");
    let start = Instant::now();
    while t.screen().contains("[action 3/") && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!t.screen().contains("[action 3/"));
}
