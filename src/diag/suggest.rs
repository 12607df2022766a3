//! Did-you-mean suggestions for misspelled names (keys, cards, kinds, yaku), by edit distance.
//!
//! A file with thousands of misspelt names against thousands of candidates would cost their
//! product (issue 12: 20,000 broken yaku took 102 s to validate): the work of one load is
//! bounded ([`WorkBudget`]), and past the bound errors come without suggestions.

use std::cell::Cell;

/// Work units (candidates looked at, plus character pairs compared) one load may spend on
/// suggestions: a few tens of milliseconds, far above what any hand-written file needs.
const BUDGET: u64 = 20_000_000;

/// Names longer than this are not compared: a suggestion is for a typo, not for a paragraph.
const MAX_NAME: usize = 64;

thread_local! {
    /// Work spent on suggestions in this thread since the outermost [`WorkBudget`] began.
    static SPENT: Cell<u64> = const { Cell::new(0) };
    /// How many [`WorkBudget`]s are alive in this thread (loads nest: a base, a deck).
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// One load's allowance of suggestion work, while the value lives: the outermost one starts the
/// count at zero.
pub struct WorkBudget(());

impl WorkBudget {
    /// Starts a load's budget (or joins the enclosing load's).
    pub fn begin() -> WorkBudget {
        if DEPTH.replace(DEPTH.get() + 1) == 0 {
            SPENT.set(0);
        }
        WorkBudget(())
    }
}

impl Drop for WorkBudget {
    fn drop(&mut self) {
        DEPTH.set(DEPTH.get().saturating_sub(1));
    }
}

/// The work spent on suggestions in this thread by the last load (or the current one): for
/// tests that pin how it grows with the input.
#[doc(hidden)]
pub fn suggestion_work() -> u64 {
    SPENT.get()
}

/// Takes `units` from the budget; false when it is spent.
fn spend(units: usize) -> bool {
    let spent = SPENT.get().saturating_add(units as u64);
    SPENT.set(spent);
    spent <= BUDGET
}

/// The closest candidate to `wrong`, if one is close enough to be a likely typo.
///
/// Failing that, an abbreviation: a name of three or more letters that starts a candidate and
/// whose letters all appear in it in order (`cnt` for `count`). `None` too once the load's
/// budget of suggestion work is spent.
pub fn suggest<'a>(wrong: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let length = wrong.chars().count();
    if length > MAX_NAME || !spend(1) {
        return None;
    }
    let limit = (length / 3).clamp(1, 3);
    let wrong = wrong.to_lowercase();
    let mut close: Option<(usize, &str)> = None;
    let mut short: Option<&str> = None;
    for c in candidates {
        if !spend(1) {
            return None;
        }
        let c_length = c.chars().count();
        // An edit distance is at least the difference in length: most candidates stop here.
        let near = length.abs_diff(c_length) <= limit;
        let longer = length >= 3 && c_length > length;
        if c_length > MAX_NAME || !(near || longer) {
            continue;
        }
        if !spend(c_length) {
            return None;
        }
        let lower = c.to_lowercase();
        if near {
            if !spend(length * c_length) {
                return None;
            }
            let d = distance(&wrong, &lower);
            if d <= limit && close.is_none_or(|(bd, bc)| (d, c.len()) < (bd, bc.len())) {
                close = Some((d, c));
            }
        }
        if longer && short.is_none_or(|s| c.len() < s.len()) && abbreviates(&wrong, &lower) {
            short = Some(c);
        }
    }
    close.map(|(_, c)| c).or(short)
}

/// True when `short` starts like `long` and its letters appear in `long` in order.
fn abbreviates(short: &str, long: &str) -> bool {
    if short.chars().next() != long.chars().next() || short.len() >= long.len() {
        return false;
    }
    let mut rest = long.chars();
    short.chars().all(|c| rest.any(|l| l == c))
}

/// `did you mean `x`?` for the closest candidate, as a help line.
pub fn did_you_mean<'a>(
    wrong: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    suggest(wrong, candidates).map(|c| format!("did you mean `{c}`?"))
}

/// Edit distance counting an adjacent transposition (`nmae` for `name`) as one edit: the
/// optimal string alignment distance, from strsim (already built for clap's own suggestions).
fn distance(a: &str, b: &str) -> usize {
    strsim::osa_distance(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let names = ["bright", "animal", "ribbon", "plain"];
        assert_eq!(suggest("brigth", names), Some("bright"));
        assert_eq!(suggest("plan", names), Some("plain"));
        assert_eq!(suggest("xyzzy", names), None);
        assert_eq!(suggest("nmae", ["name", "notes"]), Some("name"));
        assert_eq!(suggest("cnt", ["count", "any", "all"]), Some("count"));
        assert_eq!(suggest("xyz", ["count"]), None);
        assert_eq!(
            did_you_mean("ribon", names).as_deref(),
            Some("did you mean `ribbon`?")
        );
    }
}
