//! End-to-end tests of `yaku play`, `yaku replay` and `yaku sim`, driving the real binary.

mod args;
mod bots;
mod dreierschnapsen;
mod gostop;
mod hachihachi;
mod learn;
mod pinochle;
mod position;
mod replay;
mod run;
mod save;
mod schnapsen;
mod scopa;
mod scripted;
mod sim;
mod terminal;
mod two_packs;
