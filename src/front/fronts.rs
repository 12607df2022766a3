//! Each family's front, registered once by the name the family registry gives it
//! ([`crate::families::Family::name`]): its play table, and what a spectator sees between moves.
//! Nothing else in the front ends tells the families apart (`yaku score`, which explains a
//! hand in each family's terms, keeps its own list beside the command).

use super::banker::BankerTable;
use super::climbing::ClimbingTable;
use super::matching::{MatchingTable, matching_watch};
use super::screen::Style;
use super::table::Table;
use super::tricks::TricksTable;
use crate::core::Game;
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
    /// `yaku replay --step`: the table as a spectator sees it between moves (empty for a family
    /// narrated by its moves alone).
    pub watch: fn(&Style, &dyn Game) -> String,
}

/// Nothing to show between moves: the narration says it all.
fn narrated_only(_style: &Style, _game: &dyn Game) -> String {
    String::new()
}

/// Every family's front.
pub static FRONTS: [Front; 4] = [
    Front {
        family: "matching",
        table: |players, _labels, color, _watcher| Box::new(MatchingTable::new(players, color)),
        watch: matching_watch,
    },
    Front {
        family: "banker",
        table: |players, labels, color, watcher| {
            Box::new(BankerTable::new(players, labels, color, watcher))
        },
        watch: narrated_only,
    },
    Front {
        family: "tricks",
        table: |players, _labels, color, _watcher| Box::new(TricksTable::new(players, color)),
        watch: narrated_only,
    },
    Front {
        family: "climbing",
        table: |players, _labels, color, _watcher| Box::new(ClimbingTable::new(players, color)),
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

/// The table of the family `ruleset` describes, for `players` (`human` or bot names, one per
/// seat); `watcher` is a person who watches a house that makes no decisions (a human banker).
pub fn for_ruleset(
    ruleset: &Ruleset,
    players: &[String],
    labels: Vec<String>,
    color: bool,
    watcher: bool,
) -> Box<dyn Table> {
    (of(ruleset).table)(players, labels, color, watcher)
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
