//! A trick-taking hand's facts as the scoring script reads them: the sides' (pooled) and each
//! seat's own.

use super::TricksGame;
use crate::core::Seat;
use crate::deck::CardSet;
use crate::script::{FactValue, HandFacts};

/// A trick-taking hand's facts as the scoring script reads them, from one side (`self`, the
/// winner's or the declarer's) against the other: what the game builds when a hand ends and
/// `yaku score` builds from its flags, in one place.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrickFacts {
    /// How the hand ended (an id of [`super::ends`]).
    pub end: String,
    /// Card points (melds added to them and the last trick included): this side's, the other's.
    pub points: [i64; 2],
    /// Tricks won: this side's, the other's.
    pub tricks: [i64; 2],
    /// Who closed the stock: `self`, `opponent` or `none`.
    pub closer: String,
    /// Meld points that count: this side's, the other's.
    pub melds: [i64; 2],
    /// The winning bid (0 without one), the named contract's id (empty for a value bid) and
    /// its worth.
    pub bid: i64,
    /// The named contract's id.
    pub contract: String,
    /// The contract's worth.
    pub value: i64,
    /// This side's seat (the declarer's after an auction), and the first seat of the other.
    pub seat: usize,
    /// The first seat of the other side.
    pub opponent_seat: usize,
    /// The seats on this side, a bit each (seat 0 the lowest).
    pub side: u8,
    /// The seats at the table.
    pub seats: usize,
    /// The hand (1-based).
    pub round: i64,
    /// The game's hands.
    pub rounds: i64,
    /// This side's seat dealt.
    pub dealer: bool,
    /// Each seat's own card points, tricks and captured cards (by id), and the seat that took
    /// the last trick (-1 before it): given to the script as `points_by_seat`,
    /// `tricks_by_seat`, `won_by_seat` and `last_trick_seat` where it reads them (empty: not
    /// given).
    pub by_seat: Option<SeatFacts>,
    /// The hand's tricks in the order played, where the script reads `tricks_played`.
    pub played: Option<Vec<PlayedTrick>>,
    /// The hand's trump suit's id (empty without one), where the script reads `trump_suit`.
    pub trump_suit: Option<String>,
    /// Each seat's cards as dealt and the talon as dealt (by id), where the script reads
    /// `dealt_hands` or `dealt_talon`.
    pub dealt: Option<(Vec<Vec<String>>, Vec<String>)>,
    /// The announcements made (`hand.announcements`) and the stake they make (`hand.stake`),
    /// where the rules hold announcements.
    pub announcements: Option<(Vec<FactValue>, i64)>,
}

/// The cards of a hand as dealt, kept only where the scoring script reads them (`dealt_hands`,
/// `dealt_talon`): Skat's matadors count over the declarer's dealt hand and the skat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealtCards {
    /// Each seat's hand as dealt (before any passing, talon or exchange).
    pub hands: crate::core::PerSeat<CardSet>,
    /// The talon as dealt.
    pub talon: CardSet,
}

/// A trick as it was played, for the scoring script's `tricks_played`: who led it, who won
/// it, its cards by id from the leader's in turn, and its card points.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayedTrick {
    /// The seat that led.
    pub leader: usize,
    /// The seat that won it.
    pub winner: usize,
    /// The cards, the leader's first, by id.
    pub cards: Vec<String>,
    /// Its card points.
    pub points: i64,
    /// The seats that sat out the hand (a bit each), whom the turn passed over.
    pub sat_out: u8,
}

impl PlayedTrick {
    /// The trick as the script reads it: `#{ leader, winner, cards, seats, points }`, `seats`
    /// naming who played each card.
    fn fact(self, seats: usize) -> FactValue {
        let by: Vec<FactValue> = (0..seats.max(1))
            .map(|i| (self.leader + i) % seats.max(1))
            .filter(|&s| self.sat_out >> s & 1 == 0)
            .take(self.cards.len())
            .map(|s| FactValue::Int(s as i64))
            .collect();
        FactValue::Map(vec![
            ("leader".into(), FactValue::Int(self.leader as i64)),
            ("winner".into(), FactValue::Int(self.winner as i64)),
            (
                "cards".into(),
                FactValue::List(self.cards.into_iter().map(FactValue::Text).collect()),
            ),
            ("seats".into(), FactValue::List(by)),
            ("points".into(), FactValue::Int(self.points)),
        ])
    }
}

/// Each seat's own tricks, as the scoring script reads them (not pooled by sides).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatFacts {
    /// Each seat's card points (its melds added to them and the last trick included).
    pub points: Vec<i64>,
    /// Each seat's tricks.
    pub tricks: Vec<i64>,
    /// Each seat's captured cards, by id.
    pub won: Vec<Vec<String>>,
    /// The seat that took the last trick, or -1.
    pub last_trick: i64,
}

impl SeatFacts {
    /// The names the scoring script reads them by.
    pub const NAMES: [&'static str; 4] = [
        "points_by_seat",
        "tricks_by_seat",
        "won_by_seat",
        "last_trick_seat",
    ];

    fn push(self, extra: &mut Vec<(&'static str, FactValue)>) {
        let ints = |v: Vec<i64>| FactValue::List(v.into_iter().map(FactValue::Int).collect());
        extra.push(("points_by_seat", ints(self.points)));
        extra.push(("tricks_by_seat", ints(self.tricks)));
        extra.push((
            "won_by_seat",
            FactValue::List(
                self.won
                    .into_iter()
                    .map(|w| FactValue::List(w.into_iter().map(FactValue::Text).collect()))
                    .collect(),
            ),
        ));
        extra.push(("last_trick_seat", FactValue::Int(self.last_trick)));
    }
}

impl TrickFacts {
    /// The facts for the scoring script, in the order it has always read them.
    pub fn hand_facts(self) -> HandFacts {
        let mut extra = Vec::new();
        if let Some(by_seat) = self.by_seat {
            by_seat.push(&mut extra);
        }
        if let Some(played) = self.played {
            let seats = self.seats;
            let list = played.into_iter().map(|t| t.fact(seats)).collect();
            extra.push(("tricks_played", FactValue::List(list)));
        }
        if let Some(suit) = self.trump_suit {
            extra.push(("trump_suit", FactValue::Text(suit)));
        }
        if let Some((hands, talon)) = self.dealt {
            let ids = |cards: Vec<String>| {
                FactValue::List(cards.into_iter().map(FactValue::Text).collect())
            };
            extra.push((
                "dealt_hands",
                FactValue::List(hands.into_iter().map(ids).collect()),
            ));
            extra.push(("dealt_talon", ids(talon)));
        }
        if let Some((made, stake)) = self.announcements {
            extra.push(("announcements", FactValue::List(made)));
            extra.push(("stake", FactValue::Int(stake)));
        }
        let mut facts = HandFacts {
            round: self.round,
            rounds: self.rounds,
            dealer: self.dealer,
            extra: vec![
                ("end", FactValue::Text(self.end)),
                ("points_self", FactValue::Int(self.points[0])),
                ("points_opponent", FactValue::Int(self.points[1])),
                ("tricks_self", FactValue::Int(self.tricks[0])),
                ("tricks_opponent", FactValue::Int(self.tricks[1])),
                ("closer", FactValue::Text(self.closer)),
                ("melds_self", FactValue::Int(self.melds[0])),
                ("melds_opponent", FactValue::Int(self.melds[1])),
                ("bid", FactValue::Int(self.bid)),
                ("contract", FactValue::Text(self.contract)),
                ("value", FactValue::Int(self.value)),
                ("seat", FactValue::Int(self.seat as i64)),
                ("opponent_seat", FactValue::Int(self.opponent_seat as i64)),
                (
                    "side",
                    FactValue::List(
                        (0..self.seats)
                            .map(|s| FactValue::Int(i64::from(self.side >> s & 1)))
                            .collect(),
                    ),
                ),
            ],
            ..HandFacts::default()
        };
        facts.extra.append(&mut extra);
        facts
    }
}

impl TricksGame {
    /// Keeps the trick `leader` led and `winner` won, for the scoring script's `tricks_played`.
    pub(super) fn log_trick(&mut self, leader: Seat, winner: Seat, cards: CardSet) {
        let deck = &self.ruleset.deck;
        let played = PlayedTrick {
            leader,
            winner,
            cards: self
                .trick()
                .iter()
                .map(|&c| deck.id_of(c).to_string())
                .collect(),
            points: cards.iter().map(|c| self.card_points(c)).sum(),
            sat_out: self.sitting_out,
        };
        if let Some(log) = &mut self.trick_log {
            log.push(played);
        }
    }

    /// Each seat's cards and the talon as dealt, by id, where the scoring script reads them.
    pub(super) fn dealt_fact(&self) -> Option<(Vec<Vec<String>>, Vec<String>)> {
        let dealt = self.dealt.as_deref()?;
        let deck = &self.ruleset.deck;
        let ids = |cards: CardSet| cards.iter().map(|c| deck.id_of(c).to_string()).collect();
        Some((
            dealt.hands.iter().map(|&h| ids(h)).collect(),
            ids(dealt.talon),
        ))
    }

    /// The hand's trump suit's id (empty without one), where the scoring script reads
    /// `trump_suit`.
    pub(super) fn trump_suit_fact(&self) -> Option<String> {
        self.reads_trump_suit.then(|| {
            self.ruleset
                .deck
                .suits
                .get(self.trump_suit)
                .map_or_else(String::new, |s| s.id.clone())
        })
    }
}
