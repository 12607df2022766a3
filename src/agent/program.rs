//! `cmd:PROGRAM`: a program outside yaku that plays a seat over the seat protocol
//! ([`crate::core::protocol`]) on its standard input and output. A program that fails (it
//! cannot start, exits, answers late, answers what is no legal move, or sends what is no
//! protocol answer) loses its seat to `greedy` for the rest of the run, with a notice that says
//! why; the game goes on.

use super::GreedyAgent;
use crate::core::protocol;
use crate::core::{Action, Agent, Game, Seat};
use rand::rngs::Xoshiro256PlusPlus;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::Duration;

/// How long a program may take over one answer.
pub const ANSWER_TIME: Duration = Duration::from_secs(10);
/// The longest answer line read: a longer one is refused.
const MAX_LINE: u64 = 64 * 1024;

/// A seat played by an outside program.
pub struct ProgramAgent {
    name: String,
    command: Vec<String>,
    running: Option<Running>,
    /// Why the program lost its seat, once it has.
    failed: Option<String>,
    /// A notice not yet taken by the front ([`Agent::notice`]).
    notice: Option<String>,
    answer_time: Duration,
}

struct Running {
    child: Child,
    input: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
    /// The seat `hello` named.
    seat: Seat,
}

impl ProgramAgent {
    /// The agent for `spec`, the text after `cmd:`: a program and its arguments, split at
    /// spaces. The program starts at the first move it is asked for.
    pub fn new(spec: &str) -> Result<ProgramAgent, String> {
        let command: Vec<String> = spec.split_whitespace().map(str::to_string).collect();
        if command.is_empty() {
            return Err("`cmd:` needs a program to run (`cmd:python3 bot.py`)".to_string());
        }
        Ok(ProgramAgent {
            name: format!("cmd:{}", command.join(" ")),
            command,
            running: None,
            failed: None,
            notice: None,
            answer_time: ANSWER_TIME,
        })
    }

    /// The same agent with another time allowed for each answer.
    pub fn with_answer_time(mut self, time: Duration) -> ProgramAgent {
        self.answer_time = time;
        self
    }

    fn start(&mut self, game: &dyn Game, seat: Seat) -> Result<(), String> {
        let mut child = Command::new(&self.command[0])
            .args(&self.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", self.command[0]))?;
        let input = child.stdin.take().ok_or("no input stream")?;
        let output = child.stdout.take().ok_or("no output stream")?;
        // Lines are read on a thread of their own, so that a silent program can be timed out.
        let (send, lines) = sync_channel(1);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(output);
            loop {
                let mut line = String::new();
                let read = (&mut reader).take(MAX_LINE).read_line(&mut line);
                let done = !matches!(read, Ok(n) if n > 0);
                let line = match read {
                    Ok(_) if !line.ends_with('\n') && line.len() as u64 >= MAX_LINE => Err(
                        std::io::Error::other(format!("an answer longer than {MAX_LINE} bytes")),
                    ),
                    Ok(0) => Err(std::io::Error::other("the program closed its output")),
                    Ok(_) => Ok(line),
                    Err(e) => Err(e),
                };
                let failed = line.is_err();
                if send.send(line).is_err() || done || failed {
                    return;
                }
            }
        });
        let mut running = Running {
            child,
            input,
            lines,
            seat,
        };
        let hello = protocol::hello(game.ruleset(), seat, game.seats());
        send_line(&mut running.input, &hello)?;
        self.running = Some(running);
        Ok(())
    }

    fn ask(&mut self, game: &dyn Game, seat: Seat, legal: &[Action]) -> Result<Action, String> {
        if self.running.as_ref().is_some_and(|r| r.seat != seat) {
            return Err("it was asked to play a second seat".to_string());
        }
        if self.running.is_none() {
            self.start(game, seat)?;
        }
        let running = self.running.as_mut().expect("started above");
        send_line(&mut running.input, &protocol::turn(game, seat, legal))?;
        let line = match running.lines.recv_timeout(self.answer_time) {
            Ok(Ok(line)) => line,
            Ok(Err(e)) => return Err(e.to_string()),
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!(
                    "no answer within {} s",
                    self.answer_time.as_secs_f64()
                ));
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err("the program closed its output".to_string());
            }
        };
        protocol::answered(&line, legal, game.ruleset())
    }

    fn stop(&mut self) {
        if let Some(mut r) = self.running.take() {
            let _ = r.child.kill();
            let _ = r.child.wait();
        }
    }
}

fn send_line(input: &mut ChildStdin, message: &impl serde::Serialize) -> Result<(), String> {
    let mut text = serde_json::to_string(message).map_err(|e| e.to_string())?;
    text.push('\n');
    without_sigpipe(|| {
        input
            .write_all(text.as_bytes())
            .and_then(|()| input.flush())
    })
    .map_err(|e| format!("cannot write to the program: {e}"))
}

/// Runs `write` with SIGPIPE held back on this thread: a write to a program that has exited
/// fails with an error (and the program loses its seat) instead of ending yaku, whose command
/// line keeps SIGPIPE's default for `yaku ... | head`. The signal such a write raised is taken
/// before it is let through again.
#[cfg(unix)]
fn without_sigpipe(write: impl FnOnce() -> std::io::Result<()>) -> std::io::Result<()> {
    // SAFETY: the signal sets are initialised by sigemptyset before use; the mask changed is
    // this thread's own and is restored before returning; sigtimedwait with a zero timeout
    // only takes a pending SIGPIPE, which this thread's write raised.
    unsafe {
        let mut pipe: libc::sigset_t = std::mem::zeroed();
        let mut before: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pipe);
        libc::sigaddset(&mut pipe, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &pipe, &mut before);
        let written = write();
        if matches!(&written, Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe) {
            let now = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            while libc::sigtimedwait(&pipe, std::ptr::null_mut(), &now) == libc::SIGPIPE {}
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &before, std::ptr::null_mut());
        written
    }
}

#[cfg(not(unix))]
fn without_sigpipe(write: impl FnOnce() -> std::io::Result<()>) -> std::io::Result<()> {
    write()
}

impl Drop for ProgramAgent {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Agent for ProgramAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(
        &mut self,
        game: &dyn Game,
        seat: Seat,
        legal: &[Action],
        rng: &mut Xoshiro256PlusPlus,
    ) -> Action {
        if self.failed.is_none() {
            match self.ask(game, seat, legal) {
                Ok(action) => return action,
                Err(why) => {
                    self.stop();
                    let notice = format!(
                        "seat {}: `{}` lost its seat: {why}; greedy plays it from here",
                        seat + 1,
                        self.name
                    );
                    self.failed = Some(why);
                    self.notice = Some(notice);
                }
            }
        }
        GreedyAgent.choose(game, seat, legal, rng)
    }

    fn notice(&mut self) -> Option<String> {
        self.notice.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{StartOptions, agent_rng};
    use std::sync::Arc;

    fn koikoi() -> Arc<crate::ruleset::Ruleset> {
        Arc::new(crate::ruleset::load("koikoi").value.unwrap())
    }

    fn play(agent: ProgramAgent) -> (Vec<i64>, Option<String>) {
        let ruleset = koikoi();
        let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(agent), Box::new(GreedyAgent)];
        let options = StartOptions {
            seed: 3,
            rounds: Some(1),
            ..Default::default()
        };
        let mut scores = Vec::new();
        crate::families::play_to_end(ruleset, options, &mut agents, &mut agent_rng(3), |g| {
            scores = g.scores().to_vec();
        })
        .unwrap();
        (scores, agents[0].notice())
    }

    #[test]
    fn a_program_plays_a_hand_over_its_streams() {
        // Answers every turn with the first legal move.
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("first.sh");
        std::fs::write(&script, "while read line; do echo '{\"choose\":0}'; done\n").unwrap();
        let agent = ProgramAgent::new(&format!("sh {}", script.display())).unwrap();
        let (scores, notice) = play(agent);
        assert_eq!(notice, None);
        assert_eq!(scores.len(), 2);
    }

    #[test]
    fn a_program_that_fails_loses_its_seat_and_the_game_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        for (script, why) in [
            ("read line; echo 'not json'\n", "not a protocol answer"),
            (
                "while read line; do echo '{\"choose\":99}'; done\n",
                "numbered 0 to",
            ),
            ("read line; exit 0\n", "closed its output"),
            ("while read line; do sleep 5; done\n", "no answer within"),
            (
                "while read line; do echo '{\"action\":{\"action\":\"play\",\"card\":\"nope\"}}'; done\n",
                "unknown card `nope`",
            ),
        ] {
            let path = dir.path().join("bot.sh");
            std::fs::write(&path, script).unwrap();
            let agent = ProgramAgent::new(&format!("sh {}", path.display()))
                .unwrap()
                .with_answer_time(Duration::from_millis(300));
            let (scores, notice) = play(agent);
            assert_eq!(scores.len(), 2);
            let notice = notice.expect("a notice");
            assert!(notice.contains(why), "{script}: {notice}");
            assert!(notice.contains("greedy plays it from here"), "{notice}");
        }
        let missing = ProgramAgent::new("/nonexistent/bot").unwrap();
        let (_, notice) = play(missing);
        assert!(notice.unwrap().contains("cannot start `/nonexistent/bot`"));
    }
}
