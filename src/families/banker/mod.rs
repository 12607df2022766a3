//! The banker family (Kol-ye-si and its relatives): players bet against a banker who is not a
//! seat, take more tiles, and compare hand values at a showdown; bankrolls carry over.

mod bots;
mod game;

pub use bots::{StrategyAgent, best_choice, bot, check_odds_work, shared_odds};
pub use game::{
    BankerGame, BankerHand, BankerPhase, BankerView, PlayerResult, banker_instant_win, ends,
    hand_value, start,
};

#[cfg(test)]
mod tests;
