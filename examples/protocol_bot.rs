//! A bot for yaku's seat protocol in Rust: the guide's Python bot in a second language, using
//! what version 2 adds. It asks not to be sent forced moves, follows every seat's moves from
//! each `turn`'s `moves`, and reads the results from `game_over`. Its play: take the most
//! valuable cards it can, play the card that captures most, otherwise give away its least
//! valuable card.
//!
//! ```console
//! $ cargo build --release --example protocol_bot
//! $ yaku play koikoi --players "cmd:target/release/examples/protocol_bot,greedy"
//! ```

use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, Write};

/// What the bot knows of the deck: each card's suit and worth (its largest attribute).
struct Deck {
    suit: HashMap<String, String>,
    worth: HashMap<String, i64>,
}

impl Deck {
    fn from_hello(hello: &Value) -> Deck {
        let mut deck = Deck {
            suit: HashMap::new(),
            worth: HashMap::new(),
        };
        for card in hello["cards"].as_array().into_iter().flatten() {
            let id = card["id"].as_str().unwrap_or_default().to_string();
            let values = card["values"].as_object();
            let worth = values
                .and_then(|v| v.values().filter_map(Value::as_i64).max())
                .unwrap_or(0);
            deck.suit
                .insert(id.clone(), card["suit"].as_str().unwrap_or_default().into());
            deck.worth.insert(id, worth);
        }
        deck
    }

    fn worth(&self, card: &str) -> i64 {
        self.worth.get(card).copied().unwrap_or(0)
    }

    /// How good a move of `legal` looks with `table` on the table.
    fn weigh(&self, action: &Value, table: &[&str]) -> i64 {
        let card = action["card"].as_str().unwrap_or_default();
        match action["action"].as_str() {
            Some("capture") => 1000 + self.worth(card),
            Some("capture_set") => {
                let cards = action["cards"].as_array().into_iter().flatten();
                1000 + cards
                    .filter_map(Value::as_str)
                    .map(|c| self.worth(c))
                    .sum::<i64>()
            }
            Some("play") => {
                let suit = self.suit.get(card);
                let matches: Vec<_> = table
                    .iter()
                    .filter(|c| self.suit.get(**c) == suit)
                    .collect();
                if matches.is_empty() {
                    -self.worth(card)
                } else {
                    500 + self.worth(card) + matches.iter().map(|c| self.worth(c)).sum::<i64>()
                }
            }
            // Declarations, bets and draws: the first offered is as good as any here.
            _ => 0,
        }
    }
}

/// The cards of a zone this seat sees.
fn seen<'a>(zones: &'a Value, name: &str) -> Vec<&'a str> {
    zones
        .as_array()
        .into_iter()
        .flatten()
        .filter(|z| z["name"] == name)
        .flat_map(|z| z["cards"].as_array().into_iter().flatten())
        .filter_map(Value::as_str)
        .collect()
}

fn main() {
    let mut deck = Deck {
        suit: HashMap::new(),
        worth: HashMap::new(),
    };
    // Every seat's moves so far, as the turns told them.
    let mut moves_seen = 0usize;
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        match message["type"].as_str() {
            Some("hello") => {
                deck = Deck::from_hello(&message);
                // Forced moves are made for it and told in the next turn's `moves`.
                let _ = writeln!(out, "{}", json!({"options": {"forced": false}}));
            }
            Some("turn") => {
                moves_seen += message["moves"].as_array().map_or(0, Vec::len);
                let legal = message["legal"].as_array().cloned().unwrap_or_default();
                let table = seen(&message["zones"], "table");
                let best = (0..legal.len())
                    .max_by_key(|&i| deck.weigh(&legal[i], &table))
                    .unwrap_or(0);
                let _ = writeln!(out, "{}", json!({"choose": best}));
            }
            Some("game_over") => {
                moves_seen += message["moves"].as_array().map_or(0, Vec::len);
                eprintln!(
                    "protocol_bot: game over, seat {} of scores {}, {moves_seen} moves told",
                    message["seat"], message["scores"]
                );
            }
            _ => {}
        }
        let _ = out.flush();
    }
}
