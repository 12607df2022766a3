//! The command line's side of each family, registered once per family by the name the family
//! registry gives it ([`crate::families::Family::name`]): its play table, and how `yaku score`
//! explains a hand. Nothing else in the command line tells the families apart.

use super::play::screen::Style;
use super::play::table::{Table, banker_table, matching_table, tricks_table};
use super::score::{ScoreArgs, score_matching, score_showdown, score_tricks};
use crate::core::Game;
use crate::deck::CardSet;
use crate::ruleset::Ruleset;

/// Makes a play table for `players` (`human` or bot names), their labels, colour, and a person
/// who watches a house that makes no decisions.
pub type MakeTable = fn(&[String], Vec<String>, bool, bool) -> Box<dyn Table>;

/// One family's front.
pub struct Front {
    /// The family's name.
    pub family: &'static str,
    /// The play table.
    pub table: MakeTable,
    /// `yaku score`: explains what a hand ending with the pile (and the dealt hand) scores;
    /// the exit code.
    pub score: fn(&Ruleset, &ScoreArgs, CardSet, CardSet) -> i32,
    /// `yaku replay --step`: the table as a spectator sees it between moves (empty for a family
    /// narrated by its moves alone).
    pub watch: fn(&Style, &dyn Game) -> String,
}

/// Nothing to show between moves: the narration says it all.
fn narrated_only(_style: &Style, _game: &dyn Game) -> String {
    String::new()
}

/// Every family's front.
pub static FRONTS: [Front; 3] = [
    Front {
        family: "matching",
        table: matching_table,
        score: score_matching,
        watch: super::play::table::matching_watch,
    },
    Front {
        family: "banker",
        table: banker_table,
        score: score_showdown,
        watch: narrated_only,
    },
    Front {
        family: "tricks",
        table: tricks_table,
        score: score_tricks,
        watch: narrated_only,
    },
];

/// The front of the family that plays `ruleset`.
pub fn of(ruleset: &Ruleset) -> &'static Front {
    let name = crate::families::of(ruleset).name();
    FRONTS
        .iter()
        .find(|f| f.family == name)
        .unwrap_or_else(|| unreachable!("family `{name}` has a front"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_family_has_one_front() {
        for family in crate::families::FAMILIES {
            let fronts = super::FRONTS
                .iter()
                .filter(|f| f.family == family.name())
                .count();
            assert_eq!(fronts, 1, "family `{}`", family.name());
        }
        assert_eq!(super::FRONTS.len(), crate::families::FAMILIES.len());
    }
}
