//! The loaded, checked form of a ruleset: what the game core, agents and CLI work with.

use super::yaku_table::YakuTable;
use crate::deck::{CardSet, Deck};
use crate::expr::Program;
use crate::script::ScoringScript;

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
    /// yaku points at their last call to play on (0 before one).
    pub const DECLARATION: &[&str] = &[
        "round",
        "rounds",
        "is_dealer",
        "hand_cards",
        "calls",
        "base",
        "last_base",
    ];
    /// Turn events: the pile is the player's captures after the turn; `hand_cards` the cards
    /// left in their hand, `stacks` the stacks they have made this hand, `turn` their turns this
    /// hand counting this one.
    pub const TURN_EVENT: &[&str] = &[
        "round",
        "rounds",
        "is_dealer",
        "hand_cards",
        "stacks",
        "turn",
        "cards_left",
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
            "hand_cards" | "calls" | "stacks" | "turn" | "cards_left" => {
                (0, crate::deck::CardSet::CAPACITY as i64)
            }
            "base" | "last_base" => (-MOST_POINTS, MOST_POINTS),
            "hand_points" | "player_total" | "banker_total" => (-MOST_HAND, MOST_HAND),
            "player_drew" | "banker_drew" => (-MOST_CARD, MOST_CARD),
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
}

impl TurnPattern {
    /// Every pattern with its name in rule files.
    pub const ALL: [(&'static str, TurnPattern); 7] = [
        ("kiss", TurnPattern::Kiss),
        ("stack", TurnPattern::Stack),
        ("stack_taken", TurnPattern::StackTaken),
        ("own_stack_taken", TurnPattern::OwnStackTaken),
        ("four_taken", TurnPattern::FourTaken),
        ("sweep", TurnPattern::Sweep),
        ("suit_played", TurnPattern::SuitPlayed),
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
    /// A hash of every source text the ruleset was built from (for game records).
    pub content_hash: u64,
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

/// The flow of a matching game (Koi-Koi and its relatives).
#[derive(Clone, Debug)]
pub struct MatchingFlow {
    /// Seats at the table when the command line does not say.
    pub players: u32,
    /// The fewest seats the rules allow.
    pub min_players: u32,
    /// The most seats the rules allow.
    pub max_players: u32,
    /// Cards in each hand after the deal.
    pub hand_size: u32,
    /// Cards face up on the table after the deal.
    pub table_size: u32,
    /// Cards dealt at a time.
    pub deal_packet: u32,
    /// The order packets go in.
    pub deal_order: Vec<DealTarget>,
    /// Where each card of the shuffled deck goes at the deal, in deck order, for each seat count
    /// from 0 to `max_players` (empty below `min_players`): the seat counted from the dealer (0
    /// the dealer, 1 the seat after it) or, the seat count, the table. Worked out from the deal's
    /// sizes, `deal_packet` and `deal_order` once, when the rules load
    /// ([`MatchingFlow::plan_deal`]), so that each deal is one pass over the deck.
    pub deal_plans: Box<[Box<[u8]>]>,
    /// How long a game lasts.
    pub length: GameLength,
    /// Who deals first.
    pub first_dealer: FirstDealer,
    /// Who deals after a won hand.
    pub next_dealer: NextDealer,
    /// Who deals after a drawn hand.
    pub draw_dealer: NextDealer,
    /// Declarations offered after a turn that makes or improves a yaku (effects `continue` and
    /// `stop`), in ruleset order. Play goes on when none may be made.
    pub after_yaku: Vec<DeclId>,
    /// Declarations offered to the seat after the dealer once the hands are dealt (effects
    /// `swap`: take the dealer's hand, `keep`: keep one's own).
    pub after_deal: Vec<DeclId>,
    /// `[flow.drop_out]`: seats that decide to play or drop out after the deal.
    pub drop_out: Option<DropOut>,
    /// Cards that match any card when played or drawn.
    pub wild: CardSet,
    /// What happens when both hands run out.
    pub exhausted: Exhausted,
    /// Instant wins checked on each hand after the deal.
    pub instant_wins: Vec<DealCheck>,
    /// What happens when both hands hold an instant win.
    pub both_instant: BothInstant,
    /// Redeal conditions checked on the table after the deal.
    pub redeals: Vec<DealCheck>,
    /// Counted on the table at the deal and given to the scoring script as `table_count`.
    pub table_count: Option<Program>,
    /// `table_count` as written, for rule sheets.
    pub table_count_source: Option<String>,
    /// `table_multiplies = true`: every point of a hand settled without a script (seat by
    /// seat, a stop included) is multiplied by the table count (a field's x1, x2, x4).
    pub table_multiplies: bool,
    /// `yaku_paid_by = "others"`: in a hand settled seat by seat without a script, each side's
    /// yaku, dealt combinations and turn events are paid to it by every other side (it gains
    /// their points once per other side, each other side loses them), so the hand sums to zero.
    pub yaku_paid_by_others: bool,
    /// Bonus cards: never matched; played or drawn, they go straight to the player's pile and
    /// the player takes another card (from the stock into the hand after a hand card, or the
    /// next draw); dealt to the table, they go to the dealer and the table is filled again.
    pub bonus: CardSet,
    /// When the drawn card is of the suit of the pair the hand card has just taken, the three
    /// cards stay on the table as a stack until the suit's fourth card takes them (never on a
    /// player's last hand card).
    pub stacks: bool,
    /// The cards another player hands over when a turn event takes from them: the lowest card
    /// of the first of these sets their pile holds.
    pub give: Vec<CardSet>,
    /// What turns can do and what it earns, in ruleset order.
    pub turn_events: Vec<TurnEvent>,
    /// Declarations the player to act may make before playing a card (effects `reveal`: show
    /// `count` cards of a suit; `play_suit`: play them at once onto the suit's table card).
    pub before_play: Vec<DeclId>,
    /// Choices of how a captured card counts (effect `count_as`), offered when it is captured;
    /// the fact named after each is 1 for the seat that made it.
    pub choices: Vec<DeclId>,
    /// Each seat's starting stake, when scores are transfers: a hand's winner takes its points
    /// from each loser (a loser with less pays what it has), and the game ends when a stake
    /// runs out.
    pub stake: Option<i64>,
    /// Partnerships: a hand's points are pooled by team, so partners share one score.
    pub teams: Teams,
    /// Deal sizes for particular seat counts (`[[flow.deal_size]]`), instead of `hand_size` and
    /// `table_size`.
    pub deal_sizes: Vec<DealSize>,
    /// Combinations of a dealt hand scored at the hand's end while the hand is played on
    /// (`[[flow.instant_win]]` with `ends = false`), the most points first: a seat holds the
    /// first that its dealt hand satisfies.
    pub dealt_yaku: Vec<DealCheck>,
    /// How a played or drawn card captures (`[[flow.capture]]`), in precedence order; empty: a
    /// card takes a table card of its suit, the fourth of a suit the three (Koi-Koi).
    pub captures: Vec<CaptureRule>,
    /// Who settles a choice between captures.
    pub capture_choice: CaptureChoice,
    /// A card is drawn from the stock after the hand card (false in Scopa).
    pub draws: bool,
    /// When every hand is empty and the stock holds cards, the hands are dealt again from it.
    pub refill: bool,
    /// Who plays first in a hand.
    pub first_player: FirstPlayer,
    /// Where the table's cards go when the hands are played out.
    pub leftover: Leftover,
    /// A game to a target whose leaders are tied goes on until one leads alone.
    pub target_ties_play_on: bool,
    /// The Koi-Koi turn: capture by suit, draw after the hand card, no deal again, the table's
    /// last cards left on it. The core's turn is compiled for it apart (none of the other
    /// options' checks on its commonest path).
    pub classic_turn: bool,
}

/// One way a card captures (`[[flow.capture]]`).
#[derive(Clone, Debug)]
pub struct CaptureRule {
    /// Take one table card, or a set.
    pub kind: CaptureKind,
    /// What is compared or added: `suit`, or a deck attribute's id.
    pub by: String,
    /// Each card's value of `by`, by card index (its suit's index for `suit`).
    pub values: Box<[i64]>,
    /// For each card, by index, the cards of equal value (an equal capture's candidates).
    pub equals: Box<[CardSet]>,
    /// A sum capture's total the set must make, from the played card's value (`played`).
    pub total: Option<Program>,
    /// `total` as written.
    pub total_source: Option<String>,
    /// The fewest table cards a sum capture takes.
    pub min_cards: u32,
    /// Offered only when the rules listed before it capture nothing.
    pub fallback: bool,
}

/// What a capture rule takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureKind {
    /// One table card equal to the played card in `by`.
    Equal,
    /// A set of table cards whose `by` values add up to the rule's total.
    Sum,
}

/// Who settles a choice between captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureChoice {
    /// The player, among every capture the rules allow.
    Player,
    /// The player, among the captures that take the most cards.
    MostCards,
}

/// Who plays first in a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstPlayer {
    /// The dealer (Koi-Koi's oya).
    Dealer,
    /// The seat after the dealer (Scopa: the player at the dealer's right).
    AfterDealer,
}

/// Where the table's cards go when the hands are played out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leftover {
    /// They stay on the table, nobody's.
    Stay,
    /// The last seat that captured takes them (Scopa).
    LastCapturer,
}

/// The deal at a table of a given size (`[[flow.deal_size]]`): Go-Stop deals ten cards each
/// and eight to the table with two players, seven and six with three.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealSize {
    /// The seat count it applies to.
    pub players: u32,
    /// Cards in each hand.
    pub hand_size: u32,
    /// Cards face up on the table.
    pub table_size: u32,
}

impl MatchingFlow {
    /// Where each card of the shuffled deck goes at a deal to `seats` seats (as in
    /// [`MatchingFlow::deal_plans`]): packets go round `deal_order` until every hand and the
    /// table are full, and a pass that gives nothing ends the deal (an order that leaves a target
    /// out cannot loop).
    pub fn plan_deal(&self, seats: usize) -> Vec<u8> {
        let seats = seats.min(MAX_SEATS);
        let (hand_size, table_size) = self.sizes(seats);
        let mut held = [0u32; MAX_SEATS + 1];
        let mut plan = Vec::new();
        loop {
            let before = plan.len();
            for &target in &self.deal_order {
                let mut give = |to: usize, want: u32| {
                    let k = self.deal_packet.min(want.saturating_sub(held[to]));
                    held[to] += k;
                    plan.extend(std::iter::repeat_n(to as u8, k as usize));
                };
                match target {
                    DealTarget::Dealer => give(0, hand_size),
                    DealTarget::Others => (1..seats).for_each(|s| give(s, hand_size)),
                    DealTarget::Table => give(seats, table_size),
                }
            }
            if plan.len() == before {
                return plan;
            }
        }
    }

    /// The deal's plan for `seats` seats ([`MatchingFlow::deal_plans`]), worked out now for a
    /// seat count the rules do not allow.
    pub fn deal_plan(&self, seats: usize) -> std::borrow::Cow<'_, [u8]> {
        match self.deal_plans.get(seats) {
            Some(plan) if !plan.is_empty() => std::borrow::Cow::Borrowed(plan),
            _ => std::borrow::Cow::Owned(self.plan_deal(seats)),
        }
    }

    /// The cards in each hand and on the table at a table of `seats`.
    #[inline]
    pub fn sizes(&self, seats: usize) -> (u32, u32) {
        match self.deal_sizes.iter().find(|d| d.players as usize == seats) {
            Some(d) => (d.hand_size, d.table_size),
            None => (self.hand_size, self.table_size),
        }
    }

    /// The instant win a dealt `hand` holds (its index), with its holder's facts (scope
    /// [`scope::INSTANT_WIN`]): the first in ruleset order whose condition holds. The game and
    /// `yaku score --end instant` choose by this one rule.
    pub fn instant_win(&self, hand: CardSet, facts: &[i64]) -> Option<usize> {
        let cx = crate::expr::Context { pile: hand, facts };
        self.instant_wins.iter().position(|w| w.when.truth(&cx))
    }

    /// The combination of [`MatchingFlow::dealt_yaku`] a dealt hand holds (the first, by
    /// points), if any.
    pub fn dealt_combination(&self, hand: CardSet, facts: &[i64]) -> Option<usize> {
        let cx = crate::expr::Context { pile: hand, facts };
        self.dealt_yaku.iter().position(|w| w.when.truth(&cx))
    }
}

/// `[flow.drop_out]`: a table larger than the hand needs. After the deal, seats decide in turn
/// to play (`play`) or drop out (`drop`) until `players` seats play; the rest sit the hand out,
/// and each dropped hand goes under the stock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DropOut {
    /// The seats that play each hand.
    pub players: u32,
    /// True when the seat after the dealer decides first (else the dealer).
    pub after_dealer: bool,
    /// Points a seat that drops pays each seat that plays (negative: it is paid).
    pub pays: i64,
    /// The `play` declaration.
    pub play: DeclId,
    /// The `drop` declaration.
    pub drop: DeclId,
}

/// Where a packet of the deal goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DealTarget {
    /// The dealer's hand.
    Dealer,
    /// Every other seat's hand, in turn order from the dealer (`opponent` in two-player files).
    Others,
    /// Face up on the table.
    Table,
}

/// The largest bet of a banker game, in a rule file (`min_bet`, `max_bet`) or on the command
/// line (`--min-bet`, `--max-bet`): each bet decision lists every amount between the limits.
pub const MAX_BET: i64 = 10_000;

/// The most chips a bankroll starts with, in a rule file (`bankroll`, `banker_bankroll`): far
/// more than any session moves at [`MAX_BET`] a bet, and far from overflowing a total.
pub const MAX_BANKROLL: i64 = 1_000_000_000;

/// The flow of a banker game (Kol-ye-si and its relatives): players bet against a banker,
/// draw more tiles, and compare hand values at a showdown.
#[derive(Clone, Debug)]
pub struct BankerFlow {
    /// Players against the banker when the command line does not say.
    pub players: u32,
    /// The most players a table seats.
    pub max_players: u32,
    /// Tiles each player receives before betting.
    pub first_tiles: u32,
    /// Tiles the banker draws after the bets.
    pub banker_tiles: u32,
    /// How many more tiles a player may choose to take (e.g. 1 or 2).
    pub draw_options: Vec<u32>,
    /// The smallest bet.
    pub min_bet: i64,
    /// The largest bet.
    pub max_bet: i64,
    /// Chips each player starts with.
    pub bankroll: i64,
    /// Chips the banker starts with (`None`: the banker's purse is unlimited).
    pub banker_bankroll: Option<i64>,
    /// The most all the players' bets of one hand may add up to (`table_limit`, Oicho-Kabu's
    /// domae), hands per seat; `None`: no limit but each player's.
    pub table_limit: Option<i64>,
    /// Hands in a session.
    pub hands: u32,
    /// Conditions on the banker's first tiles that win every bet at once.
    pub banker_wins: Vec<DealCheck>,
    /// A hand's value at the showdown; the higher value wins, equal values draw.
    pub value: Program,
    /// The value's formula as written, for rule listings.
    pub value_source: String,
    /// What each card adds to a hand's `hand_points` (`card_value`, read on the card alone), by
    /// card id; all zero without it.
    pub card_points: Vec<i64>,
    /// `card_value` as written, for rule sheets.
    pub card_value_source: Option<String>,
    /// One player hand for the whole table (`table_hand = true`, as in punto banco): the seats
    /// only bet, on the ruleset's `bets`, and the drawing rules play both hands.
    pub table_hand: bool,
    /// A shoe of several packs dealt across hands (`shoe_packs`, `cut_card`); `None`: every hand
    /// is dealt from a freshly shuffled pack.
    pub shoe: Option<Shoe>,
    /// When the player's hand takes a card (`[[flow.player_draw]]`), the first rule that holds
    /// deciding; none holding: the hand stands.
    pub player_draw: Vec<DrawRule>,
    /// When the banker's hand takes a card (`[[flow.banker_draw]]`).
    pub banker_draw: Vec<DrawRule>,
    /// The bets a seat may place on a table hand (`[[flow.bet]]`), each with its own stake.
    pub bets: Vec<BetKind>,
    /// Names of hand values (`[[flow.hand_name]]`: 9 is `Kabu`), in file order.
    pub hand_names: Vec<(i64, String)>,
    /// The bank as a seat (`[flow.bank]`); `None`: the house banks.
    pub bank: Option<Bank>,
    /// Named ranks, best first (`[[flow.hand_rank]]`); empty: hands compare by `value`.
    pub ranks: Vec<HandRank>,
    /// Hands that beat only certain ranks, or call for a redeal (`[[flow.special]]`).
    pub specials: Vec<SpecialHand>,
    /// A pot game (`[flow.pot]`): no banker's hand, the seats bet into a pot.
    pub pot: Option<Pot>,
}

/// How the first banker (or dealer) is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstBanker {
    /// The first seat.
    FirstSeat,
    /// The seat shown the card of highest value.
    HighCard,
    /// The seat shown the card of lowest value.
    LowCard,
}

/// The bank as one of the seats (`[flow.bank]`).
#[derive(Clone, Debug)]
pub struct Bank {
    /// How the first banker is chosen.
    pub first: FirstBanker,
    /// When the bank passes to a player after a showdown (over [`scope::SHOWDOWN`]).
    pub pass_when: Option<Program>,
    /// `pass_when` as written.
    pub pass_when_source: Option<String>,
    /// Hands one banker keeps the bank before it passes in turn (0: never in turn).
    pub pass_every: u32,
    /// Pot games: the pot's winner deals next.
    pub pass_to_winner: bool,
}

/// A named rank of hands (`[[flow.hand_rank]]`).
#[derive(Clone, Debug)]
pub struct HandRank {
    /// Its id.
    pub id: String,
    /// Its name, `{}` standing for the `within` value.
    pub name: String,
    /// When a hand has it (over [`scope::HAND`]).
    pub when: Program,
    /// `when` as written.
    pub when_source: String,
    /// Orders the rank's hands, higher better.
    pub within: Option<Program>,
    /// `within` as written.
    pub within_source: Option<String>,
}

impl HandRank {
    /// The rank's name for a hand whose `within` value is `within`.
    pub fn words(&self, within: i64) -> String {
        self.name.replace("{}", &within.to_string())
    }
}

/// A special hand (`[[flow.special]]`): it plays as its rank, and also beats the ranks `beats`.
#[derive(Clone, Debug)]
pub struct SpecialHand {
    /// Its id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// When a hand is this special hand (over [`scope::HAND`]).
    pub when: Program,
    /// `when` as written.
    pub when_source: String,
    /// The ranks it beats (indices into `ranks`).
    pub beats: Vec<usize>,
    /// Pot games: the hand is dealt again when every other hand still in ranks below this rank.
    pub redeal_below: Option<usize>,
}

/// A pot game (`[flow.pot]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pot {
    /// Chips each seat antes.
    pub ante: i64,
    /// Cards dealt to each seat before each betting round.
    pub rounds: Vec<u32>,
    /// The most raises in one betting round.
    pub raises: u32,
}

impl BankerFlow {
    /// True when a house banks, outside the seats: not when a seat banks (`[flow.bank]`) nor
    /// in a pot game (`[flow.pot]`), where the chips only pass between seats.
    pub fn has_house(&self) -> bool {
        self.bank.is_none() && self.pot.is_none()
    }

    /// A hand's value in words: its name and value (`Kabu (9)`) when `[[flow.hand_name]]` names
    /// it, else its points (`1 point`, `7 points`).
    pub fn value_words(&self, value: i64) -> String {
        match self.hand_names.iter().find(|(v, _)| *v == value) {
            Some((_, name)) => format!("{name} ({value})"),
            None if value == 1 => "1 point".to_string(),
            None => format!("{value} points"),
        }
    }
}

/// The largest value `card_value` may give one card, either way.
pub const MAX_CARD_VALUE: i64 = 1_000_000;

/// A shoe: `packs` copies of the deck's cards shuffled together and dealt across hands, so that a
/// hand may hold two equal cards; a new shoe is shuffled before a hand when fewer than `cut`
/// cards are left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shoe {
    /// Packs in the shoe.
    pub packs: u32,
    /// Cards left behind the cut card: a hand starting with fewer left starts a new shoe.
    pub cut: u32,
}

/// What a drawing rule makes a hand do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawAction {
    /// Take one more card (and read the rules again).
    Draw,
    /// Take no more cards.
    Stand,
    /// Hands per seat: the player chooses how many more cards to take, from `draw_options`.
    Choose,
}

/// A drawing rule of a banker game: when `when` holds (over [`scope::SHOWDOWN`]), the hand
/// draws or stands.
#[derive(Clone, Debug)]
pub struct DrawRule {
    /// Its id.
    pub id: String,
    /// Its display name (`Player draws on 0-5`).
    pub name: String,
    /// When it applies.
    pub when: Program,
    /// The text of `when`, as written.
    pub when_source: String,
    /// What the hand does.
    pub action: DrawAction,
}

/// A bet a seat may place on a table hand's outcome.
#[derive(Clone, Debug)]
pub struct BetKind {
    /// Its id (`banker`).
    pub id: String,
    /// Its display name.
    pub name: String,
    /// When it wins (over [`scope::SHOWDOWN`]).
    pub wins: Program,
    /// The text of `wins`.
    pub wins_source: String,
    /// When the stake comes back, neither won nor lost (`None`: never).
    pub pushes: Option<Program>,
    /// The text of `pushes`.
    pub pushes_source: Option<String>,
    /// What a won stake pays, `numerator` to `denominator` (8 to 1 is `(8, 1)`).
    pub pays: (i64, i64),
    /// The share of a win the house keeps, `numerator / denominator` (5% is `(5, 100)`).
    pub commission: (i64, i64),
}

impl BetKind {
    /// What a won `stake` brings in whole chips: the payout less the commission, rounded down.
    pub fn won(&self, stake: i64) -> i64 {
        let (pn, pd) = self.pays;
        let (cn, cd) = self.commission;
        let num = i128::from(stake) * i128::from(pn) * i128::from(cd - cn);
        let den = i128::from(pd) * i128::from(cd);
        i64::try_from(num.div_euclid(den)).unwrap_or(i64::MAX)
    }
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
}

impl Flow {
    /// The name of the family that plays this flow: the key of its entry in the family
    /// registry ([`crate::families`]), written in records and reports.
    pub fn family(&self) -> &'static str {
        match self {
            Flow::Matching(_) => "matching",
            Flow::Banker(_) => "banker",
            Flow::Tricks(_) => "tricks",
        }
    }
}

/// What a player must play to a trick once the follow rules apply (the stock gone or closed,
/// or from the first trick where there is no stock): each obligation a flag, in the order a
/// player meets them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FollowRules {
    /// Follow the suit led when able.
    pub suit: bool,
    /// Following suit, beat the best card of the trick so far when able (head the trick); not
    /// owed once the trick has been trumped.
    pub head: bool,
    /// Void in the suit led, play a trump when able.
    pub trump: bool,
    /// Trumping a trick that already holds a trump, beat it when able.
    pub overtrump: bool,
}

impl FollowRules {
    /// No obligation (`follow = "free"`).
    pub const FREE: FollowRules = FollowRules {
        suit: false,
        head: false,
        trump: false,
        overtrump: false,
    };
    /// Follow suit; when void, trump (`follow = "follow-trump"`).
    pub const FOLLOW_TRUMP: FollowRules = FollowRules {
        suit: true,
        head: false,
        trump: true,
        overtrump: false,
    };
    /// Follow suit and win the trick if possible; when void, trump (`follow = "head"`).
    pub const HEAD: FollowRules = FollowRules {
        suit: true,
        head: true,
        trump: true,
        overtrump: false,
    };
    /// Follow suit and head the trick; when void, trump and beat a trump already played
    /// (`follow = "win"`).
    pub const WIN: FollowRules = FollowRules {
        suit: true,
        head: true,
        trump: true,
        overtrump: true,
    };
    /// The named rule sets, by the names `follow` takes.
    pub const NAMED: [(&'static str, FollowRules); 4] = [
        ("free", FollowRules::FREE),
        ("follow-trump", FollowRules::FOLLOW_TRUMP),
        ("head", FollowRules::HEAD),
        ("win", FollowRules::WIN),
    ];
    /// The flags' names, as `follow = [...]` lists them.
    pub const FLAGS: [&'static str; 4] = ["suit", "head", "trump", "overtrump"];
}

/// How a hand of a trick-taking game reaches its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimRule {
    /// A player must claim the target (a declaration), and a false claim loses.
    Declare,
    /// The hand ends as soon as a player's points reach the target.
    Automatic,
    /// No target within a hand: every trick is played and the scoring script settles the hand
    /// (`claim = "none"`).
    PlayOut,
}

/// Where a trick-taking hand's trump suit comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrumpRule {
    /// The card after the deal is turned up under the stock (Schnapsen).
    TurnedUp,
    /// The winner of the auction names it.
    Declarer,
}

/// What happens when every player passes in an auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassedOut {
    /// The dealer must take the contract at the lowest bid.
    Dealer,
    /// The hand ends unplayed (end `passed_out`, settled by the scoring script) and the deal
    /// passes on.
    Redeal,
    /// The seat after the dealer (forehand) must take the contract at the lowest bid.
    Forehand,
}

/// Who leads the first trick after an auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstLead {
    /// The seat after the dealer.
    AfterDealer,
    /// The auction's winner.
    Declarer,
}

/// A contract bid by name (`[[flow.auction.contract]]`): it stands in the bidding at its
/// `bid` value and may change the follow rules and the trump suit; the scoring script sees its
/// id as `hand.contract`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contract {
    /// Its id, as the scoring script sees it.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// What it means, for the rule sheet.
    pub description: String,
    /// Its place in the bidding: it outranks every bid below this value (a bid is an
    /// [`crate::core::Action::Bet`] of this amount).
    pub bid: i64,
    /// The follow rules while it is played, instead of `[flow] follow`.
    pub follow: Option<FollowRules>,
    /// The declarer names trumps (false: the hand is played without trumps).
    pub trumps: bool,
    /// The game points it is worth (`value`; its `bid` unless given): the scoring script sees
    /// them as `hand.value`.
    pub value: i64,
    /// What the declarer's side must do; the hand ends as soon as it is decided.
    pub goal: ContractGoal,
    /// The declarer takes the talon into its hand and discards as many cards (where the deal
    /// leaves a talon).
    pub talon: bool,
    /// Who leads the first trick under this contract, instead of `[flow.auction] first_lead`.
    pub first_lead: Option<FirstLead>,
}

/// What a contract's declarer must do (`points`, `by_trick`, `min_tricks`, `max_tricks`); an
/// empty goal leaves the hand to the scoring script. The hand ends as soon as the goal is made
/// or can no longer be made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContractGoal {
    /// Card points (with counted marriages) the declarer's side must reach.
    pub points: Option<i64>,
    /// ... by the end of this trick (1-based): a contract decided on the first tricks.
    pub by_trick: Option<u32>,
    /// Tricks the declarer's side must take at least (`min_tricks = "all"`: every trick).
    pub min_tricks: Option<TrickCount>,
    /// Tricks the declarer's side may take at most (0: a Bettler, which must take none).
    pub max_tricks: Option<u32>,
}

impl ContractGoal {
    /// True when the goal says nothing (the scoring script settles the hand).
    pub fn is_empty(&self) -> bool {
        *self == ContractGoal::default()
    }
}

/// A number of tricks: a count, or every trick of the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrickCount {
    /// This many.
    Count(u32),
    /// Every trick of the hand.
    All,
}

/// The auction of a trick-taking hand (`[flow.auction]`): bids in turn order from the seat
/// after the dealer, each a pass, a value (`minimum`, then at least `step` over the last bid,
/// in steps of `step`) or a named contract; a player who passed bids no more, and the auction
/// ends when all but one have passed (or all have).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Auction {
    /// The lowest bid.
    pub minimum: i64,
    /// Bids rise in steps of this many.
    pub step: i64,
    /// The highest bid offered.
    pub maximum: i64,
    /// Value bids are offered (false: only named contracts).
    pub values: bool,
    /// Named contracts.
    pub contracts: Vec<Contract>,
    /// What happens when everyone passes.
    pub passed_out: PassedOut,
    /// Who leads the first trick.
    pub first_lead: FirstLead,
    /// The declaration that passes (`effect = "pass"`).
    pub pass: DeclId,
    /// The declaration that names trumps (`effect = "trump"`, with a card of the suit).
    pub name_trump: Option<DeclId>,
    /// The declarer plays alone against every other seat, who are partners for the hand
    /// (`sides = "declarer-alone"`; otherwise the partnerships of `[flow] teams`).
    pub declarer_alone: bool,
    /// A search (the `expert` bot) deals worlds that agree with the bids and passes it saw
    /// (`search_reads_bids`, true unless set false).
    pub search_reads_bids: bool,
}

impl Auction {
    /// The named contract bid with `amount`, if any.
    pub fn contract(&self, amount: i64) -> Option<&Contract> {
        self.contracts.iter().find(|c| c.bid == amount)
    }
}

/// Which suit a meld's cards come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeldSuit {
    /// The listed kinds all in trumps.
    Trump,
    /// The listed kinds all in one suit other than trumps (each such suit a meld of its own).
    Plain,
    /// The listed kinds all in one suit, any (each suit a meld of its own).
    Any,
    /// One card of each listed kind in every suit (an "around": an Ace of each suit).
    Each,
    /// Exactly the listed cards (`cards`), whatever the trumps.
    Cards,
}

/// When a meld is shown (`moment`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeldMoment {
    /// Every seat's melds, once trumps are known and before the first lead (Pinochle).
    BeforePlay,
    /// One meld, by the player on lead, with its declaration (Schnapsen's marriage).
    Lead,
    /// One meld, by the winner of a trick before the draw, with its declaration (Bezique).
    WonTrick,
}

/// Where a meld's points go (`adds_to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeldAddsTo {
    /// The seat's meld points (`melds_self` of the scoring script).
    Melds,
    /// The seat's card points (the target, a contract's goal, `points_self`).
    Points,
}

/// A meld (`[[meld]]`): a combination of cards shown from the hand at its moment and scored
/// from the table. `copies` asks for that many of each card (a double pinochle). A card may
/// serve in melds of different `class`es but only once within a class; before play the
/// combinations worth most are counted, and after it a card shown once in a class does not
/// count again in that class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meld {
    /// Its id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// Its class: melds of one class share no card.
    pub class: String,
    /// Where its cards come from.
    pub suit: MeldSuit,
    /// The kinds it needs (one card of each), unless `suit` is `Cards`.
    pub kinds: Vec<usize>,
    /// The cards it needs, for `suit = Cards` (one of each alike group).
    pub cards: Vec<crate::deck::CardId>,
    /// Copies of each card it needs (1; 2 for a double).
    pub copies: u32,
    /// Its points.
    pub points: i64,
    /// When it is shown.
    pub moment: MeldMoment,
    /// Shown on one's lead: the card led must be one of its cards, and showing it leads the
    /// card (`lead = "its-card"`; else it is shown first and any card is led).
    pub leads_its_card: bool,
    /// Its points count only once its holder has won a trick (`counts = "after-first-trick"`).
    pub needs_trick: bool,
    /// Where its points go.
    pub adds_to: MeldAddsTo,
    /// The declaration that shows it (a meld shown after play), by index.
    pub declaration: Option<DeclId>,
}

/// The flow of a trick-taking game (Schnapsen and its relatives): hands of cards, a trump suit
/// from a card turned up under the stock, tricks won by the highest card of the suit led or the
/// highest trump, declarations (marriages, exchanging the lowest trump, closing the stock,
/// claiming the target), and game points from the scoring script.
#[derive(Clone, Debug)]
pub struct TricksFlow {
    /// Seats at the table by default.
    pub players: u32,
    /// The fewest seats the rules allow.
    pub min_players: u32,
    /// The most seats the rules allow.
    pub max_players: u32,
    /// Partnerships: partners' tricks and points are pooled and they share one score.
    pub teams: Teams,
    /// Cards in each hand after the deal and after each draw (with `deal_all`, at the default
    /// table).
    pub hand_size: u32,
    /// The whole deck is dealt, evenly, with no stock and no card turned up (`deal = "all"`).
    pub deal_all: bool,
    /// `hand_size` cards each; the cards left lie face down as a talon, with no stock and no
    /// card turned up (`deal = "talon"`): a contract may give it to the declarer.
    pub talon: bool,
    /// Where the trump suit comes from.
    pub trump: TrumpRule,
    /// The auction before play, if the rules hold one.
    pub auction: Option<Auction>,
    /// The melds, in ruleset order: those shown before the first lead (once trumps are known)
    /// and those shown with a declaration on one's lead or on winning a trick.
    pub melds: Vec<Meld>,
    /// Every meld ready for play: its instances for every trump suit, computed once.
    pub meld_table: super::melds::MeldTable,
    /// The packets each hand is dealt in, in order (each player gets each packet in turn,
    /// the seat after the dealer first).
    pub deal_packets: Vec<u32>,
    /// The attribute that orders cards within a suit (higher wins).
    pub rank: usize,
    /// The attribute that gives a card's points.
    pub card_points: usize,
    /// The deck's cards by their points (`card_points`), each value once: a pile's points are
    /// a popcount per value instead of a look-up per card (a search counts them at every view).
    pub cards_by_points: Vec<(i64, crate::deck::CardSet)>,
    /// The card points that win a hand.
    pub target: i64,
    /// What must be played to a trick once the stock is gone or closed (from the first trick
    /// where nothing is left in a stock).
    pub follow: FollowRules,
    /// When two alike cards (a double pack) are the best of a trick, the later one wins
    /// (false: the first played, `equal_cards = "first"`).
    pub later_equal_wins: bool,
    /// Whether the target must be claimed.
    pub claim: ClaimRule,
    /// Only a player who has won a trick may exchange the lowest trump.
    pub exchange_needs_trick: bool,
    /// Card points for winning the last trick (0: none).
    pub last_trick_points: i64,
    /// Whether a player may look at the tricks they have won (and so see their points).
    pub look_at_own_tricks: bool,
    /// How long a game lasts.
    pub length: GameLength,
    /// Who deals first.
    pub first_dealer: FirstDealer,
    /// Who deals after each hand.
    pub next_dealer: NextDealer,
    /// The declarations that show a meld after play (`effect = "meld"`, or the shorthand
    /// `"marriage"`), in ruleset order.
    pub meld_declarations: Vec<DeclId>,
    /// The declaration that shows no meld on winning a trick (`effect = "pass"`).
    pub pass: Option<DeclId>,
    /// The declarations by effect: exchange the lowest trump for the turned-up trump.
    pub exchange: Option<DeclId>,
    /// Close the stock.
    pub close: Option<DeclId>,
    /// Claim the target.
    pub claim_declaration: Option<DeclId>,
}
impl Ruleset {
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

    /// The partnerships of the table (`[flow] teams`), whatever the family: every seat a team
    /// of its own without them.
    pub fn teams(&self) -> Teams {
        match &self.flow {
            Flow::Matching(f) => f.teams,
            Flow::Tricks(f) => f.teams,
            Flow::Banker(_) => Teams::default(),
        }
    }

    /// The banker-game flow, when this is a banker game.
    pub fn banker(&self) -> Option<&std::sync::Arc<BankerFlow>> {
        match &self.flow {
            Flow::Banker(f) => Some(f),
            _ => None,
        }
    }
}

/// The index of a declaration in its ruleset's `[[declaration]]` list: moves name declarations
/// by it, so no game's words are in the core.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeclId(pub u8);

/// The most seats a ruleset may have (the core keeps per-seat values inline up to this many).
pub const MAX_SEATS: usize = 8;

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
