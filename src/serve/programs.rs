//! The outside programs a room may seat: only those the server's operator named when starting
//! it (`yaku serve --bot NAME=PROGRAM`), by their names ([`super::gate`] decides); a program
//! named by a remote client would run anything on the server's machine.

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

    /// The names, in order, borrowed.
    pub fn name_list(&self) -> impl Iterator<Item = &str> {
        self.by_name.keys().map(String::as_str)
    }

    /// The program (and its arguments) the operator named `name`.
    pub fn program(&self, name: &str) -> Option<&str> {
        self.by_name.get(name).map(String::as_str)
    }

    /// The name the operator gave `program` (as [`Programs::program`] returns it), if it is one
    /// of theirs.
    pub fn named_for(&self, program: &str) -> Option<&str> {
        self.by_name
            .iter()
            .find(|(_, p)| p.as_str() == program)
            .map(|(n, _)| n.as_str())
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
        assert_eq!(programs.program("pybot"), Some("python3 bot.py"));
        assert_eq!(programs.named_for("python3 bot.py"), Some("pybot"));
        assert_eq!(programs.program("greedy"), None);
        assert_eq!(programs.named_for("sh"), None);
    }
}
