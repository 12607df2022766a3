//! `cmd:PROGRAM`: a program outside yaku that plays a seat over the seat protocol
//! ([`crate::core::protocol`]) on its standard input and output. A program that fails (it
//! cannot start, exits, does not take its input or answer in time, answers what is no legal
//! move, or sends what is no protocol answer) loses its seat to `greedy` for the rest of the
//! run, with a notice that says why; the game goes on.
//!
//! Each program runs in a process group of its own, which is killed whole (the program and
//! whatever it started) and reaped when it loses its seat, when the game ends, or when yaku
//! exits ([`end_programs`]). Its streams are read and written by the thread that asks for a
//! move, without blocking and against a deadline, so no thread of yaku waits for ever on a
//! program or on a pipe that something it started still holds.

use super::GreedyAgent;
use crate::core::protocol;
use crate::core::{Action, Agent, Game, Seat};
use rand::rngs::Xoshiro256PlusPlus;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a program may take over one answer, and over taking one message yaku sends it.
pub const ANSWER_TIME: Duration = Duration::from_secs(10);
/// How long a program may take to end after `game_over` and the close of its input, before
/// its group is killed.
const GRACE: Duration = Duration::from_secs(1);
/// The longest answer line read: a longer one is refused.
const MAX_LINE: usize = 64 * 1024;

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
    /// What the program has asked for (`{"options": ...}`).
    options: protocol::Options,
    /// The moves not yet told, the last [`protocol::MAX_MOVES`].
    moves: std::collections::VecDeque<protocol::Moved>,
    /// How many moves not yet told were let go of.
    dropped: usize,
    /// The program answered the last move asked of it: that move, when seen, is not told.
    answered: bool,
}

struct Running {
    child: Child,
    input: ChildStdin,
    output: ChildStdout,
    /// What the program has written and no answer has taken yet.
    unread: Vec<u8>,
    /// The program has closed its output (after `unread`).
    closed: bool,
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
            options: protocol::Options::default(),
            moves: std::collections::VecDeque::new(),
            dropped: 0,
            answered: false,
        })
    }

    /// The same agent with another time allowed for each answer (and for taking each
    /// message).
    pub fn with_answer_time(mut self, time: Duration) -> ProgramAgent {
        self.answer_time = time;
        self
    }

    fn start(&mut self, game: &dyn Game, seat: Seat) -> Result<(), String> {
        let mut command = Command::new(&self.command[0]);
        command
            .args(&self.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            // A group of its own, to be killed whole: the program and what it starts.
            .process_group(0);
        let mut child = groups::spawn(&mut command)
            .map_err(|e| format!("cannot start `{}`: {e}", self.command[0]))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            groups::end(&mut child);
            return Err("no input or output stream".to_string());
        };
        // yaku's ends of the pipes only: the program's own ends stay as they were.
        if let Err(e) = non_blocking(&input).and_then(|()| non_blocking(&output)) {
            groups::end(&mut child);
            return Err(format!("cannot set up the program's streams: {e}"));
        }
        self.running = Some(Running {
            child,
            input,
            output,
            unread: Vec::new(),
            closed: false,
            seat,
        });
        let hello = protocol::hello(game.ruleset(), seat, game.seats());
        let time = self.answer_time;
        let running = self.running.as_mut().expect("set above");
        running.send(&hello, time)
    }

    fn ask(&mut self, game: &dyn Game, seat: Seat, legal: &[Action]) -> Result<Action, String> {
        if self.running.as_ref().is_some_and(|r| r.seat != seat) {
            return Err("it was asked to play a second seat".to_string());
        }
        if self.running.is_none() {
            self.start(game, seat)?;
        }
        let time = self.answer_time;
        let mut turn = protocol::turn(game, seat, legal);
        (turn.moves, turn.moves_dropped) = self.untold();
        let running = self.running.as_mut().expect("started above");
        running.send(&turn, time)?;
        // Options lines come before the answer, all within the time of one answer.
        let deadline = Instant::now() + time;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(format!("no answer within {} s", time.as_secs_f64()));
            }
            let line = running.answer(left)?;
            match protocol::options_in(&line) {
                Some(options) => self.options = options?,
                None => return protocol::answered(&line, legal, game.ruleset()),
            }
        }
    }

    /// The moves not yet told, and how many were let go of; both start again.
    fn untold(&mut self) -> (Vec<protocol::Moved>, usize) {
        (
            self.moves.drain(..).collect(),
            std::mem::take(&mut self.dropped),
        )
    }

    /// Sends `game_over`, closes the program's input, lets it end on its own for at most
    /// [`GRACE`] (until it closes its output), then ends its group.
    fn finish(&mut self, game: &dyn Game) {
        let Some(mut running) = self.running.take() else {
            return;
        };
        let (moves, dropped) = self.untold();
        let message = protocol::game_over(game, running.seat, moves, dropped);
        if running.send(&message, self.answer_time).is_ok() {
            let Running {
                mut child,
                input,
                mut output,
                ..
            } = running;
            drop(input);
            let deadline = Instant::now() + GRACE;
            let mut chunk = [0; 8192];
            // What it writes now is read and let go of, until it closes its output.
            loop {
                match output.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        if !matches!(ready(&output, libc::POLLIN, deadline), Ok(true)) {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
            groups::end(&mut child);
        } else {
            groups::end(&mut running.child);
        }
    }

    fn stop(&mut self) {
        if let Some(mut r) = self.running.take() {
            groups::end(&mut r.child);
        }
    }
}

impl Running {
    /// Sends `message` as one line, within `time`: a program that does not take it in time
    /// (it does not read its input) fails.
    fn send(&mut self, message: &impl serde::Serialize, time: Duration) -> Result<(), String> {
        let mut text = serde_json::to_string(message).map_err(|e| e.to_string())?;
        text.push('\n');
        let deadline = Instant::now() + time;
        let mut rest = text.as_bytes();
        while !rest.is_empty() {
            match without_sigpipe(|| self.input.write(rest)) {
                Ok(0) => return Err("cannot write to the program: it takes no input".to_string()),
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if !ready(&self.input, libc::POLLOUT, deadline)? {
                        return Err(format!(
                            "it did not take its input within {} s (a program must read each message it is sent)",
                            time.as_secs_f64()
                        ));
                    }
                }
                Err(e) => return Err(format!("cannot write to the program: {e}")),
            }
        }
        Ok(())
    }

    /// The program's next line, within `time`.
    fn answer(&mut self, time: Duration) -> Result<String, String> {
        let deadline = Instant::now() + time;
        loop {
            if let Some(end) = self.unread.iter().position(|&b| b == b'\n') {
                if end >= MAX_LINE {
                    return Err(format!("an answer longer than {MAX_LINE} bytes"));
                }
                let line: Vec<u8> = self.unread.drain(..=end).collect();
                return text(line);
            }
            if self.unread.len() >= MAX_LINE {
                return Err(format!("an answer longer than {MAX_LINE} bytes"));
            }
            if self.closed {
                // A last line without its newline is still an answer.
                return match std::mem::take(&mut self.unread) {
                    last if !last.is_empty() => text(last),
                    _ => Err("the program closed its output".to_string()),
                };
            }
            let mut chunk = [0; 8192];
            match self.output.read(&mut chunk) {
                Ok(0) => self.closed = true,
                Ok(n) => self.unread.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if !ready(&self.output, libc::POLLIN, deadline)? {
                        return Err(format!("no answer within {} s", time.as_secs_f64()));
                    }
                }
                Err(e) => return Err(e.to_string()),
            }
        }
    }
}

/// A line read from a program, as text.
fn text(line: Vec<u8>) -> Result<String, String> {
    String::from_utf8(line).map_err(|_| "stream did not contain valid UTF-8".to_string())
}

/// Makes yaku's end of a pipe to a program non-blocking: reads and writes that cannot go on
/// at once fail with `WouldBlock`, and [`ready`] waits with a deadline instead.
fn non_blocking(stream: &impl AsRawFd) -> std::io::Result<()> {
    let fd = stream.as_raw_fd();
    // SAFETY: fcntl on a file descriptor this process owns (a pipe end held by `stream`).
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    // SAFETY: as above, adding O_NONBLOCK to the flags just read.
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Waits until `stream` can be read or written (`events`) or has been closed at the other
/// end, or `deadline` passes: `Ok(false)` when it passed.
fn ready(stream: &impl AsRawFd, events: libc::c_short, deadline: Instant) -> Result<bool, String> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(false);
        }
        let mut poll = libc::pollfd {
            fd: stream.as_raw_fd(),
            events,
            revents: 0,
        };
        // Whole milliseconds, rounded up, so the wait never ends before the deadline.
        let ms = left.as_micros().div_ceil(1000).min(i32::MAX as u128) as libc::c_int;
        // SAFETY: one pollfd, valid for the call, on a descriptor this process owns.
        match unsafe { libc::poll(&mut poll, 1, ms) } {
            n if n > 0 => return Ok(true),
            0 => {}
            _ => {
                let e = std::io::Error::last_os_error();
                if e.kind() != std::io::ErrorKind::Interrupted {
                    return Err(format!("cannot wait for the program: {e}"));
                }
            }
        }
    }
}

/// Runs `write` with SIGPIPE held back on this thread: a write to a program that has exited
/// fails with an error (and the program loses its seat) instead of ending yaku, whose command
/// line keeps SIGPIPE's default for `yaku ... | head`. The signal such a write raised is taken
/// before it is let through again.
fn without_sigpipe<T>(write: impl FnOnce() -> std::io::Result<T>) -> std::io::Result<T> {
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

/// Ends the process groups of every program still running, and lets no other start: for a
/// process about to exit (the end of a command, or a signal), since a program's group does not
/// get the terminal's Ctrl-C and would otherwise outlive yaku.
pub fn end_programs() {
    groups::end_all();
}

/// The process groups of the programs running now. A group is listed from its start (under
/// the list's lock, so [`end_all`](groups::end_all) never misses one being started) until it
/// is killed, which is before its leader is reaped: a listed group's number cannot have been
/// given to another process.
mod groups {
    use std::process::{Child, Command};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Mutex, MutexGuard, PoisonError};

    static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

    fn running() -> MutexGuard<'static, Vec<u32>> {
        RUNNING.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts `command` (a group leader) and lists its group.
    pub(super) fn spawn(command: &mut Command) -> std::io::Result<Child> {
        let mut list = running();
        let child = command.spawn()?;
        list.push(child.id());
        Ok(child)
    }

    /// Kills the group of `child` (the program and everything it started that stayed in its
    /// group) and reaps the program.
    pub(super) fn end(child: &mut Child) {
        let id = child.id();
        {
            let mut list = running();
            list.retain(|&g| g != id);
            kill(id);
        }
        let _ = child.kill();
        let _ = child.wait();
    }

    /// Set once [`end_all`] holds the list for good.
    static ENDED: AtomicBool = AtomicBool::new(false);

    /// Kills every listed group and holds the list for good, so that no program starts after
    /// (a thread that tries waits until the process exits). Called again, it does nothing.
    pub(super) fn end_all() {
        if ENDED.load(Ordering::SeqCst) {
            return;
        }
        let list = running();
        for &g in list.iter() {
            kill(g);
        }
        ENDED.store(true, Ordering::SeqCst);
        std::mem::forget(list);
    }

    fn kill(group: u32) {
        if let Ok(group) = libc::pid_t::try_from(group) {
            // SAFETY: SIGKILL to a process group this process started and has not reaped the
            // leader of, so the number is still that group's.
            unsafe {
                libc::killpg(group, libc::SIGKILL);
            }
        }
    }
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
            // A program that asked not to be sent forced moves is told them in its next turn.
            if legal.len() == 1 && !self.options.forced && self.running.is_some() {
                return legal[0];
            }
            match self.ask(game, seat, legal) {
                Ok(action) => {
                    self.answered = true;
                    return action;
                }
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

    fn watches(&self) -> bool {
        true
    }

    fn saw(&mut self, game: &dyn Game, watcher: Seat, seat: Seat, action: Action) {
        if self.failed.is_some() {
            return;
        }
        // The move it answered itself is not told back.
        if seat == watcher && std::mem::take(&mut self.answered) {
            return;
        }
        if self.moves.len() == protocol::MAX_MOVES {
            self.moves.pop_front();
            self.dropped += 1;
        }
        self.moves
            .push_back(protocol::moved(game, watcher, seat, action));
    }

    fn game_over(&mut self, game: &dyn Game) {
        if self.failed.is_none() {
            self.finish(game);
        }
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
        play_rounds(agent, Some(1))
    }

    fn play_rounds(agent: ProgramAgent, rounds: Option<u32>) -> (Vec<i64>, Option<String>) {
        let ruleset = koikoi();
        let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(agent), Box::new(GreedyAgent)];
        let options = StartOptions {
            seed: 3,
            rounds,
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

    #[test]
    fn a_program_that_does_not_take_its_input_loses_its_seat() {
        // Answers at once, never reads: the pipe to it fills within a few hands.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deaf.sh");
        std::fs::write(&path, "while true; do echo '{\"choose\":0}'; done\n").unwrap();
        let agent = ProgramAgent::new(&format!("sh {}", path.display()))
            .unwrap()
            .with_answer_time(Duration::from_millis(300));
        let (_, notice) = play_rounds(agent, None);
        let notice = notice.expect("a notice");
        assert!(
            notice.contains("it did not take its input within 0.3 s"),
            "{notice}"
        );
    }
}
