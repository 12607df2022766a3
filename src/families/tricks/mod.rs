//! The trick-taking family (Schnapsen and its relatives): two players, a trump suit turned up
//! under the stock, tricks, follow rules once the stock is gone or closed, and declarations on
//! one's lead (marriage, exchange, close, claim); game points from the scoring script.

mod game;
mod greedy;
mod view;

pub use game::{Phase, TricksGame, ends, start};
pub use view::TricksView;

use crate::script::FactValue;

/// Sample facts of finished hands, one per way a hand ends, so that `yaku validate` runs a
/// trick-taking ruleset's scoring script on each.
pub fn sample_facts() -> Vec<Vec<(&'static str, FactValue)>> {
    let ends = ["claim", "false_claim", "failed_close", "last_trick"];
    let mut out = Vec::new();
    for end in ends {
        for (points_self, points_opponent, tricks_self, tricks_opponent, closer) in [
            (70, 40, 3, 2, "none"),
            (66, 20, 4, 1, "self"),
            (80, 0, 5, 0, "opponent"),
            (30, 66, 0, 4, "none"),
        ] {
            out.push(vec![
                ("end", FactValue::Text(end.into())),
                ("points_self", FactValue::Int(points_self)),
                ("points_opponent", FactValue::Int(points_opponent)),
                ("tricks_self", FactValue::Int(tricks_self)),
                ("tricks_opponent", FactValue::Int(tricks_opponent)),
                ("closer", FactValue::Text(closer.into())),
            ]);
        }
    }
    out
}

#[cfg(test)]
mod tests;
