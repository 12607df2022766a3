//! The outside programs a room may seat: only those the server's operator named when starting
//! it (`yaku serve --bot NAME=PROGRAM`), by their names; a program named by a remote client
//! would run anything on the server's machine.

use std::collections::BTreeMap;

/// The operator's programs, by the name rooms and the page seat them under.
#[derive(Clone, Debug, Default)]
pub struct Programs {
    by_name: BTreeMap<String, String>,
}

/// Names a program may not take: the seat kinds and bots a room knows already.
const TAKEN: &[&str] = &["human", "random", "greedy", "expert"];

impl Programs {
    /// Adds `NAME=PROGRAM ARGS` (the program and its arguments split at spaces, as `cmd:` takes
    /// them), or says why not.
    pub fn add(&mut self, spec: &str) -> Result<(), String> {
        let Some((name, program)) = spec.split_once('=') else {
            return Err(format!(
                "`{spec}`: a bot is given as NAME=PROGRAM (`pybot=python3 bot.py`)"
            ));
        };
        let (name, program) = (name.trim(), program.trim());
        let well_formed = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        if !well_formed {
            return Err(format!(
                "`{name}`: a bot's name is lowercase letters, digits, `-` and `_`"
            ));
        }
        if TAKEN.contains(&name) || name.starts_with("expert") {
            return Err(format!("`{name}` is the name of one of yaku's own seats"));
        }
        if program.is_empty() {
            return Err(format!("`{name}` names no program to run"));
        }
        if self.by_name.contains_key(name) {
            return Err(format!("`{name}` is given twice"));
        }
        self.by_name.insert(name.to_string(), program.to_string());
        Ok(())
    }

    /// The names, in order.
    pub fn names(&self) -> Vec<String> {
        self.by_name.keys().cloned().collect()
    }

    /// `players` as a room seats them: each program's name as `cmd:PROGRAM`, and whether any
    /// was; a client's own `cmd:` is refused.
    pub fn resolve(&self, players: &[String]) -> Result<(Vec<String>, bool), String> {
        let mut any = false;
        let resolved = players
            .iter()
            .map(|p| {
                if p.starts_with("cmd:") {
                    return Err(format!(
                        "a room seats only the programs the server's operator named{}",
                        self.offered()
                    ));
                }
                Ok(match self.by_name.get(p) {
                    Some(program) => {
                        any = true;
                        format!("cmd:{program}")
                    }
                    None => p.clone(),
                })
            })
            .collect::<Result<_, _>>()?;
        Ok((resolved, any))
    }

    fn offered(&self) -> String {
        if self.by_name.is_empty() {
            " (`yaku serve --bot NAME=PROGRAM`), and it named none".to_string()
        } else {
            format!(": {}", self.names().join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_operators_programs_are_seated_by_their_names() {
        let mut programs = Programs::default();
        programs.add("pybot=python3 bot.py").unwrap();
        for (spec, why) in [
            ("pybot", "NAME=PROGRAM"),
            ("Py Bot=x", "lowercase"),
            ("greedy=x", "yaku's own"),
            ("expert:5=x", "lowercase"),
            ("expert2=x", "yaku's own"),
            ("other=", "no program"),
            ("pybot=x", "twice"),
        ] {
            let e = programs.add(spec).unwrap_err();
            assert!(e.contains(why), "{spec}: {e}");
        }
        let players = ["human".to_string(), "pybot".to_string()];
        let (resolved, any) = programs.resolve(&players).unwrap();
        assert_eq!(resolved, ["human", "cmd:python3 bot.py"]);
        assert!(any);
        let (_, any) = programs.resolve(&["greedy".to_string()]).unwrap();
        assert!(!any);
        let e = programs.resolve(&["cmd:rm -rf /".to_string()]).unwrap_err();
        assert!(e.contains("operator named: pybot"), "{e}");
        let e = Programs::default()
            .resolve(&["cmd:sh".to_string()])
            .unwrap_err();
        assert!(e.contains("--bot NAME=PROGRAM"), "{e}");
    }
}
