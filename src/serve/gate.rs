//! The one gate that decides who may sit at a server's table. Every seat holder a client names
//! (a new room's seats, a seat handed over) and every holder a stored room names when the server
//! starts again passes [`Gate::check`], and a room makes its bots only through [`Gate::agent`]:
//! a client can name yaku's own bots within the server's bounds and the programs the operator
//! listed (by their names), never a path, a strategy file or a program of its own.

use super::programs::Programs;
use crate::agent::Agent;
use crate::ruleset::Ruleset;
use std::time::Duration;

/// Who may sit: the operator's programs and the bounds on yaku's own bots.
#[derive(Clone, Debug)]
pub struct Gate {
    programs: Programs,
    /// The most playouts a room's `expert:N` may spend on a decision.
    playouts: usize,
    /// The most time a room's `expert@T` may spend on a decision.
    think: Duration,
}

impl Default for Gate {
    /// No programs, and the default bounds of [`super::config::Limits`].
    fn default() -> Gate {
        Gate::new(Programs::default(), &super::config::Limits::default())
    }
}

/// A room's seats as the gate let them in: each seat's holder as the room records it (`human`,
/// a bot's name, or `cmd:PROGRAM` for an operator's program). Only the gate makes one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seating {
    holders: Vec<String>,
    programs: bool,
}

impl Seating {
    /// Each seat's holder, as the room records it.
    pub fn holders(&self) -> &[String] {
        &self.holders
    }

    /// True when a seat is held by one of the operator's programs (each runs a process).
    pub fn runs_programs(&self) -> bool {
        self.programs
    }

    /// True when no seat is held by a person: the room's game plays itself.
    pub fn bots_only(&self) -> bool {
        !self.holders.iter().any(|h| h == HUMAN)
    }
}

/// The holder of a person's seat.
pub const HUMAN: &str = "human";

impl Gate {
    /// A gate seating the operator's `programs` and yaku's bots within `limits`.
    pub fn new(programs: Programs, limits: &super::config::Limits) -> Gate {
        Gate {
            programs,
            playouts: limits.bot_playouts,
            think: limits.bot_time,
        }
    }

    /// The names of the operator's programs, as the page offers them.
    pub fn program_names(&self) -> Vec<String> {
        self.programs.names()
    }

    /// Whether `holder`, as a room records it, may sit at a table of `ruleset`; `Err` says why
    /// not. The one decision: a person; `random`, `greedy`, `expert` and `expert:N` or
    /// `expert@T` within the server's bounds; a bot of the game's family by its bundled name
    /// (a banker game's strategies); `cmd:PROGRAM` only for a program the operator lists now.
    pub fn check(&self, holder: &str, ruleset: &Ruleset) -> Result<(), String> {
        if holder == HUMAN || matches!(holder, "random" | "greedy" | "expert") {
            return Ok(());
        }
        if let Some(command) = holder.strip_prefix("cmd:") {
            return match self.programs.named_for(command) {
                Some(_) => Ok(()),
                None => Err(format!(
                    "a room seats only the programs the server's operator lists{}",
                    self.offered()
                )),
            };
        }
        if let Some(n) = holder.strip_prefix("expert:") {
            return match n.parse::<usize>() {
                Ok(n) if (1..=self.playouts).contains(&n) => Ok(()),
                _ => Err(format!(
                    "`{holder}`: a room's expert spends 1 to {} playouts a decision",
                    self.playouts
                )),
            };
        }
        if let Some(t) = holder.strip_prefix("expert@") {
            return match think_time(t) {
                Some(t) if !t.is_zero() && t <= self.think => Ok(()),
                _ => Err(format!(
                    "`{holder}`: a room's expert spends 1 to {} ms a decision (`expert@500ms`)",
                    self.think.as_millis()
                )),
            };
        }
        let family = crate::families::bot_names(ruleset);
        if family.contains(&holder) {
            return Ok(());
        }
        let mut known = vec![HUMAN, "random", "greedy", "expert"];
        known.extend(family);
        let names = known.iter().copied().chain(self.programs.name_list());
        let hint =
            crate::diag::did_you_mean(holder, names).map_or(String::new(), |h| format!(" ({h})"));
        Err(format!(
            "`{holder}` is no seat a room offers: a person (`human`), {}{}, or one of the operator's programs{}{hint}",
            known[1..].join(", "),
            ", `expert:N` or `expert@T`",
            self.offered()
        ))
    }

    /// The holder a client's `name` asks for, as the room records it (an operator's program by
    /// its name becomes `cmd:PROGRAM`), if the gate lets it in. A client never names a program
    /// itself: `cmd:` is refused.
    pub fn admit(&self, name: &str, ruleset: &Ruleset) -> Result<String, String> {
        if name.starts_with("cmd:") {
            return Err(format!(
                "a client cannot name a program: a room seats only the programs the server's operator lists, by their names{}",
                self.offered()
            ));
        }
        let holder = match self.programs.program(name) {
            Some(program) => format!("cmd:{program}"),
            None => name.to_string(),
        };
        self.check(&holder, ruleset)?;
        Ok(holder)
    }

    /// A new room's seats as a client named them, each admitted ([`Gate::admit`]).
    pub fn seat(&self, players: &[String], ruleset: &Ruleset) -> Result<Seating, String> {
        let holders = players
            .iter()
            .map(|p| self.admit(p, ruleset))
            .collect::<Result<Vec<_>, _>>()?;
        let programs = holders.iter().any(|h| h.starts_with("cmd:"));
        Ok(Seating { holders, programs })
    }

    /// A stored room's seats, checked again against the gate as it is now: a holder it no
    /// longer lets in (a program the operator stopped listing, a bot over today's bounds, a
    /// name from an older server) is replaced by `greedy`, and the notice says which and why.
    pub fn reseat(&self, stored: &[String], ruleset: &Ruleset) -> (Seating, Vec<String>) {
        let mut notices = Vec::new();
        let holders = stored
            .iter()
            .enumerate()
            .map(|(seat, holder)| match self.check(holder, ruleset) {
                Ok(()) => holder.clone(),
                Err(why) => {
                    notices.push(format!(
                        "seat {}: `{}` is not started again ({why}); greedy plays it from here",
                        seat + 1,
                        crate::diag::escape_control(holder)
                    ));
                    "greedy".to_string()
                }
            })
            .collect::<Vec<_>>();
        let programs = holders.iter().any(|h| h.starts_with("cmd:"));
        (Seating { holders, programs }, notices)
    }

    /// The bot a client asks a seat to be handed to: one of yaku's own bots (no program: a
    /// hand-over starts no process), as the room records it.
    pub fn hand_over(&self, name: &str, ruleset: &Ruleset) -> Result<String, String> {
        if name == HUMAN || self.programs.program(name).is_some() || name.starts_with("cmd:") {
            return Err(format!(
                "a seat is handed to one of yaku's own bots (random, greedy, expert{}), not `{}`",
                crate::families::bot_names(ruleset)
                    .iter()
                    .map(|b| format!(", {b}"))
                    .collect::<String>(),
                crate::diag::escape_control(name)
            ));
        }
        self.admit(name, ruleset)
    }

    /// The agent of a bot `holder`, checked by [`Gate::check`] first: the only way a room makes
    /// a bot.
    pub fn agent(&self, holder: &str, ruleset: &Ruleset) -> Result<Box<dyn Agent>, String> {
        self.check(holder, ruleset)?;
        if holder == HUMAN {
            return Err("a person's seat has no bot".to_string());
        }
        crate::families::agent_by_name(holder, ruleset).map_err(|e| e.to_string())
    }

    fn offered(&self) -> String {
        let names = self.programs.names();
        if names.is_empty() {
            " (`yaku serve --bot NAME=PROGRAM`), and it lists none".to_string()
        } else {
            format!(": {}", names.join(", "))
        }
    }
}

/// `500ms` or `2s` as a duration.
fn think_time(spec: &str) -> Option<Duration> {
    match spec.strip_suffix("ms") {
        Some(ms) => ms.parse().ok().map(Duration::from_millis),
        None => spec
            .strip_suffix('s')
            .and_then(|s| s.parse().ok())
            .map(Duration::from_secs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn load(id: &str) -> Arc<Ruleset> {
        Arc::new(crate::ruleset::load(id).value.unwrap())
    }

    fn gate() -> Gate {
        let mut programs = Programs::default();
        programs.add("pybot=python3 bot.py").unwrap();
        Gate::new(programs, &super::super::limits::Limits::default())
    }

    #[test]
    fn clients_name_yakus_bots_within_bounds_and_the_operators_programs() {
        let (gate, koikoi) = (gate(), load("koikoi"));
        for ok in [
            "human",
            "random",
            "greedy",
            "expert",
            "expert:192",
            "expert@1s",
        ] {
            assert_eq!(gate.admit(ok, &koikoi).unwrap(), ok);
        }
        assert_eq!(gate.admit("expert@999ms", &koikoi).unwrap(), "expert@999ms");
        assert_eq!(gate.admit("pybot", &koikoi).unwrap(), "cmd:python3 bot.py");
        for (bad, why) in [
            ("cmd:/usr/bin/touch /tmp/x", "cannot name a program"),
            ("cmd:python3 bot.py", "cannot name a program"),
            ("expert:1000000", "1 to 192 playouts"),
            ("expert:0", "1 to 192 playouts"),
            ("expert@60s", "1 to 1000 ms"),
            ("expert@2000ms", "1 to 1000 ms"),
            ("expert@0ms", "1 to 1000 ms"),
            ("/dev/stdin", "no seat a room offers"),
            ("../rulesets/koikoi.toml", "no seat a room offers"),
            ("grredy", "did you mean `greedy`"),
        ] {
            let e = gate.admit(bad, &koikoi).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn banker_strategies_only_by_their_bundled_names() {
        let (gate, kabu) = (gate(), load("oicho-kabu"));
        let names = crate::families::bot_names(&kabu);
        for name in &names {
            assert_eq!(gate.admit(name, &kabu).unwrap(), *name);
        }
        // A bundled strategy may not fit the game (one that draws two tiles where one is
        // allowed): it is refused when its bot is made, in words.
        assert!(names.iter().any(|n| gate.agent(n, &kabu).is_ok()));
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("mine.toml");
        std::fs::write(&file, "[strategy]\nname = \"x\"\n").unwrap();
        for path in [file.to_str().unwrap(), "/dev/stdin", "/etc/passwd"] {
            let e = gate.admit(path, &kabu).unwrap_err();
            assert!(!e.contains("No such file"), "{e}");
            assert!(gate.agent(path, &kabu).is_err());
        }
    }

    #[test]
    fn a_hand_over_seats_only_yakus_own_bots() {
        let (gate, koikoi) = (gate(), load("koikoi"));
        assert_eq!(gate.hand_over("greedy", &koikoi).unwrap(), "greedy");
        for bad in ["pybot", "cmd:sh", "human", "expert:1000000", "expert@60s"] {
            assert!(gate.hand_over(bad, &koikoi).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_stored_room_is_seated_again_as_the_gate_stands_now() {
        let (gate, koikoi) = (gate(), load("koikoi"));
        let stored = [
            "human".to_string(),
            "cmd:python3 bot.py".to_string(),
            "cmd:touch /tmp/owned".to_string(),
            "expert:1000000".to_string(),
        ];
        let (seating, notices) = gate.reseat(&stored, &koikoi);
        assert_eq!(
            seating.holders(),
            ["human", "cmd:python3 bot.py", "greedy", "greedy"]
        );
        assert!(seating.runs_programs());
        assert_eq!(notices.len(), 2, "{notices:?}");
        assert!(notices[0].starts_with("seat 3: `cmd:touch /tmp/owned` is not started again"));
        // A server started without the program no longer runs it.
        let (seating, notices) = Gate::default().reseat(&stored, &koikoi);
        assert_eq!(seating.holders()[1], "greedy");
        assert!(!seating.runs_programs());
        assert_eq!(notices.len(), 3);
        assert!(
            Gate::default()
                .agent("cmd:python3 bot.py", &koikoi)
                .is_err()
        );
    }
}
