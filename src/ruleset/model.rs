//! The loaded, checked form of a ruleset: what the game core, agents and CLI work with. Each
//! family's checked `[flow]` is a file of its own (`model/matching.rs`, `banker.rs`,
//! `tricks.rs`), re-exported here beside the [`Flow`] that holds one of them.

use super::yaku_table::YakuTable;
use crate::deck::{CardSet, Deck};
use crate::expr::Program;
use crate::script::ScoringScript;

mod banker;
mod climbing;
mod matching;
pub mod melds;
mod tricks;

pub use banker::*;
pub use climbing::*;
pub use matching::*;
pub use tricks::*;

/// The facts each place that evaluates expressions provides, in order: an expression naming a
/// fact its place does not list is a validate error.
pub mod scope {
    /// Yaku conditions and points: the pile is the holder's captures; `calls` the holder's
    /// calls to play on this hand.
    pub const YAKU: &[&str] = &["round", "rounds", "is_dealer", "calls"];
    /// Instant wins: the pile is a dealt hand; the facts are its holder's.
    pub const INSTANT_WIN: &[&str] = &["round", "rounds", "is_dealer"];
    /// Redeals and the table count: the pile is the dealt table.
    pub const TABLE: &[&str] = &["round", "rounds"];
    /// Declarations: the pile is the declarer's captures; `hand_cards` the cards in their hand,
    /// `calls` their calls to play on this hand, `base` their yaku points now, `last_base` their
    /// yaku points at their last call to play on (0 before one), `other_calls` the calls to play
    /// on the other seats have made this hand (a house rule that forbids calling once the
    /// opponent has: `other_calls == 0`), then the game's scores ([`SCORES`]).
    pub const DECLARATION: &[&str] = &[
        "round",
        "rounds",
        "is_dealer",
        "hand_cards",
        "calls",
        "base",
        "last_base",
        "other_calls",
        "game_score",
        "best_other_score",
        "target_score",
    ];
    /// The game's scores as facts, last in the scopes that read them: the side's score before
    /// this hand (partners share one; under `[flow] count_at_once`, with the points it has
    /// made this hand so far), the best score of another side (the same way), and the score
    /// that ends the game (0 for a game of a fixed number of hands). A bonus not allowed near the target
    /// reads `target_score - game_score > 2`. See [`super::Teams::score_facts`].
    pub const SCORES: [&str; 3] = ["game_score", "best_other_score", "target_score"];
    /// Turn events: the pile is the player's captures after the turn; `hand_cards` the cards
    /// left in their hand, `stacks` the stacks they have made this hand, `turn` their turns this
    /// hand counting this one, `cards_left` the cards still to play, then the game's scores
    /// ([`SCORES`]).
    pub const TURN_EVENT: &[&str] = &[
        "round",
        "rounds",
        "is_dealer",
        "hand_cards",
        "stacks",
        "turn",
        "cards_left",
        "game_score",
        "best_other_score",
        "target_score",
    ];
    /// Values and wins of tiles in a banker game: the pile is one hand's tiles, nothing else.
    pub const TILES: &[&str] = &[];
    /// A banker game's hand value: the pile is the hand's distinct cards; `hand_points` adds up
    /// each card's `card_value` (a card held twice, from a shoe of several packs, counts twice),
    /// `hand_cards` counts the cards.
    pub const HAND: &[&str] = &["hand_points", "hand_cards"];
    /// A banker game's drawing rules and bets: the pile is empty; the facts are both hands'
    /// values and card counts, and the value of the card each drew after the first cards
    /// (`-1` when none).
    pub const SHOWDOWN: &[&str] = &[
        "player_total",
        "player_cards",
        "player_drew",
        "banker_total",
        "banker_cards",
        "banker_drew",
    ];
    /// A banker game's hand played by actions (`[flow.play]`): its actions' `when`, the
    /// payouts, insurance, the peek and the drawing rules. The facts of [`SHOWDOWN`] (while the
    /// seats act, the banker's read only its shown cards), then: whether each hand is soft
    /// (`[flow] soft`, 0 or 1), whether the player's hand is two cards of equal `card_value`,
    /// its first card's `card_value`, whether it came from a split, how many hands the seat
    /// holds, and the `card_value` of the banker's first card.
    pub const PLAY: &[&str] = &[
        "player_total",
        "player_cards",
        "player_drew",
        "banker_total",
        "banker_cards",
        "banker_drew",
        "player_soft",
        "banker_soft",
        "player_pair",
        "player_first",
        "player_split",
        "player_hands",
        "banker_up",
    ];
    /// Sets named once at load (wild cards): no facts.
    pub const CONSTANT: &[&str] = &[];

    /// The values the core gives each fact: a game lasts at most 10,000 hands (`max_rounds`;
    /// `--rounds` and a record's `rounds` allow fewer), a hand holds at most a deck's
    /// [`crate::deck::CardSet::CAPACITY`] cards and a player calls at most once a turn, and `base` sums at most 64 yaku of 32-bit points.
    /// Expressions are checked against these for overflow when they load.
    pub fn fact_range(fact: &str) -> (i64, i64) {
        const MOST_POINTS: i64 = 64 * i32::MAX as i64;
        // A banker card's value is at most a million either way, a hand at most 64 cards.
        const MOST_CARD: i64 = crate::ruleset::MAX_CARD_VALUE;
        const MOST_HAND: i64 = crate::deck::CardSet::CAPACITY as i64 * MOST_CARD;
        match fact {
            "round" | "rounds" => (0, 10_000),
            "is_dealer" => (0, 1),
            "hand_cards" | "calls" | "other_calls" | "stacks" | "turn" | "cards_left" => {
                (0, crate::deck::CardSet::CAPACITY as i64)
            }
            "base" | "last_base" => (-MOST_POINTS, MOST_POINTS),
            // A game's score is read within a quadrillion either way.
            "game_score" | "best_other_score" | "target_score" => {
                (-super::MOST_SCORE_FACT, super::MOST_SCORE_FACT)
            }
            "hand_points" | "player_total" | "banker_total" => (-MOST_HAND, MOST_HAND),
            "player_drew" | "banker_drew" | "player_first" | "banker_up" => (-MOST_CARD, MOST_CARD),
            "player_hands" => (0, 8),
            "player_cards" | "banker_cards" => (0, crate::deck::CardSet::CAPACITY as i64),
            // The other facts are a ruleset's card choices (`count_as`): made or not.
            _ => (0, 1),
        }
    }

    /// Every place and its facts, for messages.
    pub const ALL: &[(&str, &[&str])] = &[
        ("yaku conditions and points", YAKU),
        ("instant wins", INSTANT_WIN),
        ("redeals and the table count", TABLE),
        ("declarations", DECLARATION),
        ("turn events", TURN_EVENT),
        ("banker hand values", HAND),
        ("banker drawing rules and bets", SHOWDOWN),
        ("banker hands played by actions", PLAY),
    ];
}

/// The facts the core provides to yaku expressions, in this order; a ruleset's choices
/// (declarations with effect `count_as`) follow, one fact each.
pub const YAKU_FACTS: &[&str] = scope::YAKU;

/// The most `count_as` declarations (card choices) a ruleset may have.
pub const MAX_CHOICES: usize = 4;

/// The values of the yaku facts: [`YAKU_FACTS`], then one per choice (1 when made).
pub type YakuFacts = [i64; 4 + MAX_CHOICES];

/// A number counted on a pile and shown beside it (the junk cards, counting doubles twice):
/// yaku conditions and points may use it by its id, the play screen shows it for every seat, and
/// the scoring script sees each seat's.
#[derive(Clone, Debug)]
pub struct Tally {
    /// Its id, a name in yaku expressions and in the script's `tallies`.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// The count (yaku scope).
    pub count: Program,
    /// `count` as written.
    pub source: String,
    /// What the count is worth at the end of a hand settled seat by seat, against the other
    /// seats' counts (`most`, `par`).
    pub award: Option<TallyAward>,
}

/// What a tally is worth at the end of a hand settled seat by seat (`[flow] exhausted =
/// "settle"`): each seat's count (each partnership's, on the partners' piles together) is
/// compared with the others'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TallyAward {
    /// The one seat with the highest count scores these points; on a tie for the highest,
    /// nobody does (Scopa's most cards, most coins, primiera).
    Most(i64),
    /// Every seat scores its count minus the par (Hachi-Hachi's 88): the hand sums to zero when
    /// the counts add up to the par times the seats.
    Par(i64),
}

/// Something a turn can do that a ruleset rewards (fishing games' kiss, stack, sweep).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnPattern {
    /// The hand card matched nothing and the drawn card took it.
    Kiss,
    /// The drawn card matched the pair the hand card had just made: the three stay as a stack.
    Stack,
    /// A stack another player made was taken.
    StackTaken,
    /// A stack the player made was taken by the same player.
    OwnStackTaken,
    /// The hand card took one of two cards of its suit and the drawn card the other: all four.
    FourTaken,
    /// The turn left the table empty.
    Sweep,
    /// A whole suit was played from the hand at once (a `play_suit` declaration).
    SuitPlayed,
    /// The turn captured the card the previous turn's player laid on the table from the hand
    /// (a card that took nothing when played).
    LastLaidTaken,
}

impl TurnPattern {
    /// Every pattern with its name in rule files.
    pub const ALL: [(&'static str, TurnPattern); 8] = [
        ("kiss", TurnPattern::Kiss),
        ("stack", TurnPattern::Stack),
        ("stack_taken", TurnPattern::StackTaken),
        ("own_stack_taken", TurnPattern::OwnStackTaken),
        ("four_taken", TurnPattern::FourTaken),
        ("sweep", TurnPattern::Sweep),
        ("suit_played", TurnPattern::SuitPlayed),
        ("last_laid_taken", TurnPattern::LastLaidTaken),
    ];

    /// The pattern's position in [`TurnPattern::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The name in rule files.
    pub fn name(self) -> &'static str {
        TurnPattern::ALL
            .iter()
            .find(|(_, p)| *p == self)
            .map_or("", |(n, _)| n)
    }
}

/// A ruleset's reward for a turn pattern: cards from every other player's pile, or the hand.
#[derive(Clone, Debug)]
pub struct TurnEvent {
    /// Its id (`jjok`).
    pub id: String,
    /// Its display name.
    pub name: String,
    /// The pattern that fires it.
    pub on: TurnPattern,
    /// Cards each other player hands over from their pile ([`MatchingFlow::give`] says which).
    pub take: u32,
    /// When it fires (scope [`scope::TURN_EVENT`]); always when absent.
    pub when: Option<Program>,
    /// `when` as written.
    pub when_source: Option<String>,
    /// Points that end the hand at once, won by the player (an instant win during play).
    pub wins: Option<i64>,
    /// Points each firing is worth to the player at the end of a hand settled seat by seat (a
    /// sweep in Scopa).
    pub points: i64,
}

/// A declaration a player can make: a call to play on or to stop, a swap, ... Its id, name and
/// prompt are the ruleset's; its `effect` is one of the mechanisms its family offers.
#[derive(Clone, Debug)]
pub struct Declaration {
    /// Its id (`stop`), as records and the command line name it.
    pub id: String,
    /// The display name.
    pub name: String,
    /// What it does, in words, for the prompt.
    pub prompt: String,
    /// The family mechanism it triggers (`continue`, `stop`, `swap`, `keep`, `reveal`,
    /// `play_suit`, `count_as` for matching games).
    pub effect: String,
    /// The card it concerns (`count_as`: the card counted another way).
    pub card: Option<crate::deck::CardId>,
    /// How many cards of one suit it needs in hand (`reveal`, `play_suit`; 0 when not given).
    pub count: u32,
    /// The points it earns the declarer each time it is made, in a hand settled seat by seat
    /// without a script (`reveal`, `play_suit`; 0 when not given).
    pub points: i64,
    /// `reveal`, `play_suit`: the suit shown may be captured by the declarer alone for the rest
    /// of the hand (the others' cards pass it by as if it were not on the table).
    pub blocks: bool,
    /// When it may be made (scope [`scope::DECLARATION`]); always when absent.
    pub when: Option<Program>,
    /// `when` as written.
    pub when_source: Option<String>,
}

/// A loaded, valid ruleset.
#[derive(Clone, Debug)]
pub struct Ruleset {
    /// The ruleset's id (`koikoi`).
    pub id: String,
    /// The display name.
    pub name: String,
    /// What it is, for players.
    pub description: String,
    /// The rule sources it follows.
    pub sources: Vec<String>,
    /// Notes on interpretation and open questions.
    pub notes: Vec<String>,
    /// The deck, with the ruleset's changes to card kinds applied.
    pub deck: Deck,
    /// The yaku table.
    pub yaku: YakuTable,
    /// How a game flows.
    pub flow: Flow,
    /// The declarations players can make, in ruleset order (moves name them by index).
    pub declarations: Vec<Declaration>,
    /// The scoring script, if any; without one a hand scores its base points.
    pub scoring: Option<ScoringScript>,
    /// Numbers counted on every pile (`[[tally]]`), in ruleset order.
    pub tallies: Vec<Tally>,
    /// Named options of the rules (`[options]`), in file order: constants of every expression
    /// and the scoring script's `hand.options`.
    pub options: Vec<RuleOption>,
    /// Named sub-expressions (`[define]`), as written, in file order (for rule sheets).
    pub defines: Vec<(String, String)>,
    /// Values carried from hand to hand (`[[carry]]`), in ruleset order.
    pub carry: Vec<Carry>,
    /// A hash of what plays in every file the ruleset was built from, comments and layout
    /// left out (for game records: [`Ruleset::same_rules`]).
    pub content_hash: u64,
    /// The hash of the files' whole text, yaku's earlier content hash, which records written
    /// before `content_hash` hold.
    pub text_hash: u64,
}

/// A named option of the rules (`[options]`): a number or a switch that expressions read by name
/// and the scoring script as `hand.options.NAME`; a house rule or `--set` changes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleOption {
    /// Its name.
    pub id: String,
    /// Its value in this ruleset.
    pub value: OptionValue,
    /// What it does, for the rule sheet and `--set` help (may be empty).
    pub description: String,
}

/// The value of an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A number.
    Int(i64),
    /// A switch.
    Bool(bool),
}

impl std::fmt::Display for OptionValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionValue::Int(n) => write!(f, "{n}"),
            OptionValue::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// A check on a dealt hand or table: an instant win, or a redeal.
#[derive(Clone, Debug)]
pub struct DealCheck {
    /// Its id (`teshi`).
    pub id: String,
    /// Its display name.
    pub name: String,
    /// What qualifies, in words (`description`), for the rule sheet.
    pub description: Option<String>,
    /// When the hand (or table) qualifies.
    pub when: Program,
    /// The text of `when`, as written (for rule sheets).
    pub when_source: String,
    /// Points awarded (instant wins).
    pub points: i64,
    /// What a redeal reads: the table, each hand, or both.
    pub on: DealOn,
    /// Instant wins: the hand ends at once (true), or the combination is scored at the hand's
    /// end and the hand is played (a teyaku).
    pub ends: bool,
}

/// The dealt piles a redeal's condition is read on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DealOn {
    /// The table (the default).
    Table,
    /// Each hand, one at a time.
    Hands,
    /// The table and each hand.
    Any,
}

/// Who deals the next hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextDealer {
    /// The winner of the hand deals.
    Winner,
    /// The same dealer deals again.
    Same,
    /// The deal passes to the other player.
    Alternate,
}

/// How long a game lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameLength {
    /// A fixed number of hands.
    Rounds(u32),
    /// Until a player reaches a score (with a cap on hands so a game always ends).
    Target {
        /// The score that ends the game.
        score: i64,
        /// Hands after which the game ends anyway.
        max_rounds: u32,
    },
}

impl GameLength {
    /// The most hands a game of this length plays.
    pub fn most_hands(self) -> u32 {
        match self {
            GameLength::Rounds(n) => n,
            GameLength::Target { max_rounds, .. } => max_rounds,
        }
    }
}

/// What happens when both hands run out with no one stopping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exhausted {
    /// No points; the hand is a draw.
    Draw,
    /// The dealer scores these points (oya-ken, the dealer's privilege).
    DealerScores(i64),
    /// The scoring script settles every seat from its facts (`hand.exhausted` is true and
    /// nobody stopped): games where each player scores their own captures.
    Settle,
}

/// What happens when both players hold an instant win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BothInstant {
    /// The hand is a draw.
    Draw,
    /// The dealer's instant win counts.
    Dealer,
    /// Neither counts: the hand is played (hanafubuki tables).
    Play,
}

/// Who deals first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstDealer {
    /// The first seat.
    First,
    /// Drawn by the seed.
    Random,
}

/// How a game flows: the family of game the core plays.
#[derive(Clone, Debug)]
pub enum Flow {
    /// Players match cards from hand and stock with the table (Koi-Koi).
    Matching(std::sync::Arc<MatchingFlow>),
    /// Players bet against a banker and compare hands at a showdown (Kol-ye-si).
    Banker(std::sync::Arc<BankerFlow>),
    /// Players win tricks with trumps, follow rules and declarations (Schnapsen).
    Tricks(std::sync::Arc<TricksFlow>),
    /// Players climb with combinations of several cards and go out first (Big Two).
    Climbing(std::sync::Arc<ClimbingFlow>),
}

impl Flow {
    /// The name of the family that plays this flow: the key of its entry in the family
    /// registry ([`crate::families`]), written in records and reports.
    pub fn family(&self) -> &'static str {
        match self {
            Flow::Matching(_) => "matching",
            Flow::Banker(_) => "banker",
            Flow::Tricks(_) => "tricks",
            Flow::Climbing(_) => "climbing",
        }
    }
}

impl Ruleset {
    /// Whether `hash`, a content hash in hex as a record or a stored room keeps it, names these
    /// rules: the hash of what plays, or the earlier hash of the whole text that records written
    /// before it hold.
    pub fn same_rules(&self, hash: &str) -> bool {
        [self.content_hash, self.text_hash]
            .iter()
            .any(|h| format!("{h:016x}").eq_ignore_ascii_case(hash))
    }

    /// A failure of what the scoring script returned (its file named), or of the ruleset's own
    /// scoring where it has no script: a `seats` list of the wrong length, a carried value it
    /// does not declare.
    pub fn script_failure(&self, message: String) -> crate::script::ScriptError {
        match &self.scoring {
            Some(s) => s.failure(&message),
            None => crate::script::ScriptError { message },
        }
    }

    /// The matching-game flow, when this is a matching game.
    pub fn matching(&self) -> Option<&std::sync::Arc<MatchingFlow>> {
        match &self.flow {
            Flow::Matching(f) => Some(f),
            _ => None,
        }
    }

    /// The trick-taking flow, when this is a trick-taking game.
    pub fn tricks(&self) -> Option<&std::sync::Arc<TricksFlow>> {
        match &self.flow {
            Flow::Tricks(f) => Some(f),
            _ => None,
        }
    }

    /// True when the lowest total wins the game (a trick-taking game's `lowest_wins`): what
    /// every reader of scores (the search, the statistics, the table) turns around.
    pub fn lowest_wins(&self) -> bool {
        self.tricks().is_some_and(|f| f.lowest_wins)
    }

    /// The partnerships of the table (`[flow] teams`), whatever the family: every seat a team
    /// of its own without them.
    pub fn teams(&self) -> Teams {
        match &self.flow {
            Flow::Matching(f) => f.teams,
            Flow::Tricks(f) => f.teams,
            Flow::Banker(_) | Flow::Climbing(_) => Teams::default(),
        }
    }

    /// The climbing flow, when this is a climbing game.
    pub fn climbing(&self) -> Option<&std::sync::Arc<ClimbingFlow>> {
        match &self.flow {
            Flow::Climbing(f) => Some(f),
            _ => None,
        }
    }

    /// The banker-game flow, when this is a banker game.
    pub fn banker(&self) -> Option<&std::sync::Arc<BankerFlow>> {
        match &self.flow {
            Flow::Banker(f) => Some(f),
            _ => None,
        }
    }

    /// The score that ends a game played to a target, where the flow plays to one (a fixed
    /// number of hands, and a banker's session, have none).
    pub fn target_score(&self) -> Option<i64> {
        let length = match &self.flow {
            Flow::Matching(f) => f.length,
            Flow::Tricks(f) => f.length,
            _ => return None,
        };
        match length {
            GameLength::Target { score, .. } => Some(score),
            GameLength::Rounds(_) => None,
        }
    }
}

/// The index of a declaration in its ruleset's `[[declaration]]` list: moves name declarations
/// by it, so no game's words are in the core.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeclId(pub u8);

/// The most seats a ruleset may have (the core keeps per-seat values inline up to this many).
pub const MAX_SEATS: usize = 8;

/// The largest score, either way, that conditions read as the game's scores
/// ([`scope::SCORES`]): a score past it reads as it, so that sums of scores stay within 64 bits.
pub const MOST_SCORE_FACT: i64 = 1_000_000_000_000_000;

/// Seats grouped into partnerships (`[flow] teams`): each seat's team, in seat order. Without
/// partnerships every seat is a team of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Teams {
    /// The team of each seat (0-based, numbered by their first seat); unused past the table.
    of_seat: [u8; MAX_SEATS],
    /// Teams at the table; 0 when there are no partnerships.
    count: u8,
}

impl Teams {
    /// Partnerships of these seats, every seat of the table in exactly one (checked by the
    /// loader). Teams are numbered in the order given.
    pub fn of(groups: &[Vec<usize>]) -> Teams {
        let mut of_seat = [0u8; MAX_SEATS];
        for (t, group) in groups.iter().enumerate() {
            for &s in group {
                if s < MAX_SEATS {
                    of_seat[s] = t as u8;
                }
            }
        }
        Teams {
            of_seat,
            count: groups.len().min(MAX_SEATS) as u8,
        }
    }

    /// True when the ruleset plays in partnerships.
    pub fn any(&self) -> bool {
        self.count > 0
    }

    /// The team of `seat` (its own seat number without partnerships).
    pub fn team_of(&self, seat: usize) -> usize {
        if self.count == 0 {
            seat
        } else {
            self.of_seat[seat.min(MAX_SEATS - 1)] as usize
        }
    }

    /// Teams at a table of `seats`.
    pub fn count(&self, seats: usize) -> usize {
        if self.count == 0 {
            seats
        } else {
            self.count as usize
        }
    }

    /// The seats of `team` at a table of `seats`, in seat order.
    pub fn members(&self, team: usize, seats: usize) -> impl Iterator<Item = usize> + '_ {
        (0..seats).filter(move |&s| self.team_of(s) == team)
    }

    /// The game's scores as a seat's facts ([`scope::SCORES`]): its side's score, the best score
    /// of a seat of another side (0 alone at the table), and `target` (0 without one), each
    /// within [`MOST_SCORE_FACT`] either way.
    pub fn score_facts(&self, scores: &[i64], seat: usize, target: Option<i64>) -> [i64; 3] {
        let clamp = |v: i64| v.clamp(-MOST_SCORE_FACT, MOST_SCORE_FACT);
        let mine = self.team_of(seat);
        let best_other = (0..scores.len())
            .filter(|&s| self.team_of(s) != mine)
            .map(|s| scores[s])
            .max()
            .unwrap_or(0);
        [
            clamp(scores.get(seat).copied().unwrap_or(0)),
            clamp(best_other),
            clamp(target.unwrap_or(0)),
        ]
    }

    /// Each team's total of per-seat `values`, by team.
    pub fn totals(&self, values: &[i64]) -> Vec<i64> {
        let mut out = vec![0i64; self.count(values.len())];
        for (s, v) in values.iter().enumerate() {
            let t = self.team_of(s);
            out[t] = out[t].saturating_add(*v);
        }
        out
    }

    /// Partners share one score: each seat's value becomes its team's total. The teams' totals,
    /// or `None` without partnerships (the values are left as they are).
    pub fn pool(&self, values: &mut [i64]) -> Option<TeamTotals> {
        if !self.any() {
            return None;
        }
        // Inline, not [`Teams::totals`]: every hand's end of a partnership game comes here.
        let mut totals = TeamTotals {
            totals: [0; MAX_SEATS],
            len: self.count(values.len()).min(MAX_SEATS),
        };
        for (s, v) in values.iter().enumerate() {
            if let Some(t) = totals.totals.get_mut(self.team_of(s)) {
                *t = t.saturating_add(*v);
            }
        }
        for (s, v) in values.iter_mut().enumerate() {
            *v = totals.totals.get(self.team_of(s)).copied().unwrap_or(0);
        }
        Some(totals)
    }
}

/// Each team's total of a hand's per-seat points, by team ([`Teams::pool`]), kept inline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TeamTotals {
    totals: [i64; MAX_SEATS],
    len: usize,
}

impl std::ops::Deref for TeamTotals {
    type Target = [i64];
    fn deref(&self) -> &[i64] {
        &self.totals[..self.len]
    }
}

/// The largest size of a carried value: every value a script writes is checked against it, so
/// expressions that read one cannot overflow.
pub const CARRY_LIMIT: i64 = 1_000_000_000;

/// The most carried values a ruleset declares.
pub const MAX_CARRIED: usize = 16;

/// A value carried from one hand to the next (`[[carry]]`): written by the scoring script's
/// `carry` or, with `deal`, at each deal; read by the next hand's deal (the table count and
/// redeals, by id) and its script (`hand.carry`).
#[derive(Clone, Debug)]
pub struct Carry {
    /// Its id: a name in deal-time expressions and in the script's `hand.carry`.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// What it means, for the rule sheet.
    pub description: String,
    /// One value per seat (a bankroll, who holds the bank) rather than one for the table.
    pub per_seat: bool,
    /// Its value before the first hand.
    pub initial: i64,
    /// `deal`: the value it takes at each deal, counted on the table just dealt (after any
    /// redeal, before the table count), reading the carried values as they stand (those
    /// before it in ruleset order already set by this deal). The hand reads the new value, and
    /// so does the next deal. `None`: only the scoring script writes it.
    pub deal: Option<crate::expr::Program>,
    /// `deal` as written, for the rule sheet.
    pub deal_source: Option<String>,
}

impl Carry {
    /// Its `values` (one, or one per seat) as the scoring script's `hand.carry` holds them: a
    /// number for the table, an array for the seats.
    pub fn fact(&self, values: &[i64]) -> crate::script::FactValue {
        use crate::script::FactValue;
        if self.per_seat {
            FactValue::List(values.iter().map(|&v| FactValue::Int(v)).collect())
        } else {
            FactValue::Int(values.first().copied().unwrap_or(self.initial))
        }
    }
}
