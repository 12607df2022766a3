//! The matching family's checked `[flow]`: the deal, dealers, captures, dropping out.

use super::*;

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
    /// Cards that match any card when played from the hand.
    pub wild: CardSet,
    /// The wild cards that match any card when turned from the stock too: all of `wild`, or
    /// none with `[flow] wild_from = "hand"` (drawn, a wild card is a plain card of its suit).
    pub wild_drawn: CardSet,
    /// Some card is wild (`wild` is not empty): games without wild cards skip the test.
    pub any_wild: bool,
    /// What happens when both hands run out.
    pub exhausted: Exhausted,
    /// Instant wins checked on each hand after the deal.
    pub instant_wins: Vec<DealCheck>,
    /// What happens when both hands hold an instant win.
    pub both_instant: BothInstant,
    /// Redeal conditions checked on the table after the deal.
    pub redeals: Vec<DealCheck>,
    /// What a dealt table gives a seat (`[[flow.deal_bonus]]`), in ruleset order: table cards
    /// captured, a turn event counted.
    pub deal_bonuses: Vec<DealBonus>,
    /// `[flow] deal_checks = "every"`: the dealt combinations (`dealt_yaku`) are checked on
    /// the hands of every deal of a hand, the refills too (`"first"`, the default: the first
    /// deal's alone).
    pub checks_every_deal: bool,
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
    /// `run_capture = ATTRIBUTE`: after a card from the hand captures, the player also takes
    /// the table cards that continue an unbroken ascending run of the attribute from the played
    /// card's value, one card a step (the deck's values of the attribute, by card).
    pub run_capture: Option<Box<[i64]>>,
    /// The cards another player hands over when a turn event takes from them: the lowest card
    /// of the first of these sets their pile holds.
    pub give: Vec<CardSet>,
    /// What turns can do and what it earns, in ruleset order.
    pub turn_events: Vec<TurnEvent>,
    /// Whether a declaration's `when` reads the other seats' calls or the game's scores, which
    /// are then worked out for it.
    pub declarations_read_table: bool,
    /// `count_at_once = true`: a side's points count as they are made, so that the game ends
    /// in the middle of a hand once a side's score with the points it has made this hand so far
    /// reaches the target (counting out). Needs a target and a hand settled seat by seat
    /// without a script; checked after each turn.
    pub count_at_once: bool,
    /// Whether anything is checked after a turn's cards are down: turn events or counting out
    /// (one test for a turn that has neither).
    pub after_turn: bool,
    /// `turn_events_combine = "best"`: of the turn events one turn fires, only the one worth
    /// most counts (`"all"`, the default: each counts).
    pub turn_events_best: bool,
    /// Whether a turn event watches for the capture of the card the last player laid down
    /// (`last_laid_taken`): only then is that card kept from turn to turn.
    pub watches_laid: bool,
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
    /// Whether a capture takes one group or a union of disjoint groups (`[flow]
    /// capture_groups`).
    pub capture_groups: CaptureGroups,
    /// When a card played from the hand that can capture must (`[flow] must_capture`); the
    /// other times it may be laid on the table instead (trailed).
    pub must_capture: MustCapture,
    /// `[flow.build]`: piles a player makes on the table with a declared value, owned until
    /// taken (Cassino); `None`: no builds.
    pub build: Option<BuildRule>,
    /// A card is drawn from the stock after the hand card (false in Scopa).
    pub draws: bool,
    /// When every hand is empty and the stock holds cards, the hands are dealt again from it.
    pub refill: bool,
    /// Who plays first in a hand.
    pub first_player: FirstPlayer,
    /// Where the table's cards go when the hands are played out.
    pub leftover: Leftover,
    /// `[[flow.leftover_to]]`: leftover cards of a set that go to a seat by rule, in ruleset
    /// order, before the rest follow `leftover`.
    pub leftover_rules: Vec<LeftoverRule>,
    /// A game to a target whose leaders are tied goes on until one leads alone.
    pub target_ties_play_on: bool,
    /// The Koi-Koi turn: capture by suit, draw after the hand card, no deal again, the table's
    /// last cards left on it. The core's turn is compiled for it apart (none of the other
    /// options' checks on its commonest path).
    pub classic_turn: bool,
    /// A play from the hand is any card of it, unless a seat has free draws: no declaration
    /// is offered before a play and no build binds its owner (the uniform move's fast path).
    pub plain_plays: bool,
}

/// What a dealt table gives a seat (`[[flow.deal_bonus]]`): checked once the table is dealt
/// (after the redeals and the table count), it captures table cards for the seat and counts a
/// turn event for it, as Cirulla's dealer takes a table dealt to 15 as a sweep or a Matgo
/// dealer takes a dealt four of a month.
#[derive(Clone, Debug)]
pub struct DealBonus {
    /// Its id, name, description and `when` (read on the dealt table).
    pub check: DealCheck,
    /// The table cards the seat captures, read on the dealt table (`take`); none without it.
    pub take: Option<Program>,
    /// `take` as written, for rule sheets.
    pub take_source: Option<String>,
    /// Who receives it.
    pub to: DealSeat,
    /// The turn event counted for the seat (by index in `turn_events`), and how many times.
    pub event: Option<(usize, u16)>,
}

/// Where some of the table's leftover cards go when the hands are played out
/// (`[[flow.leftover_to]]`), before the rest follow `[flow] leftover`.
#[derive(Clone, Debug)]
pub struct LeftoverRule {
    /// The cards it gives (those of them left on the table).
    pub cards: CardSet,
    /// `cards` as written, for rule sheets.
    pub cards_source: String,
    /// Who takes them.
    pub to: LeftoverSeat,
}

/// The seat a [`LeftoverRule`] gives its cards to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeftoverSeat {
    /// The seat whose captured pile holds the card (none: the cards follow `leftover`).
    Holder(crate::deck::CardId),
    /// The seat that captured last (none before a capture).
    LastCapturer,
    /// The dealer.
    Dealer,
}

/// The seat a [`DealBonus`] goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DealSeat {
    /// The dealer (the default).
    Dealer,
    /// The seat that plays first.
    FirstPlayer,
    /// The seat whose dealt hand holds the card (none, when no hand holds it).
    Holder(crate::deck::CardId),
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

/// How builds are made and bound (`[flow.build]`): a card played from the hand is laid on table
/// cards (and builds) that together make `value`, for the player to take later with a card of
/// that value held in hand; the pile is captured whole, only by a card of its value.
#[derive(Clone, Debug)]
pub struct BuildRule {
    /// The deck attribute a build's value is counted in (`by`).
    pub by: String,
    /// Each card's value of `by`, by card index.
    pub values: Box<[i64]>,
    /// The highest value a build may have (`most`): cards worth more are never built.
    pub most: i64,
    /// Who may raise a single build, adding a card to change its value (`raise`).
    pub raise: BuildRaise,
    /// A build may hold several sets of its value (`multiple`): cards of the value added to it,
    /// or made of several groups at once.
    pub multiple: bool,
    /// The owner of a build may lay a card on the table without capturing or building
    /// (`owner_trails`); false in Cassino: a build binds its owner to take it or build.
    pub owner_trails: bool,
}

/// Who may raise a single build (`[flow.build] raise`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildRaise {
    /// Nobody: a build's value never changes.
    Never,
    /// Only a player who does not own it.
    Others,
    /// Anyone, its owner included.
    Any,
}

impl BuildRule {
    /// `card`'s value in builds.
    #[inline]
    pub fn value(&self, card: crate::deck::CardId) -> i64 {
        self.values.get(card.index()).copied().unwrap_or(0)
    }

    /// The cards of `cards` worth `value` in builds: those that take a build of that value.
    pub fn of_value(&self, cards: CardSet, value: u8) -> CardSet {
        cards
            .iter()
            .filter(|&c| self.value(c) == i64::from(value))
            .collect()
    }
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

/// What one capture takes (`[flow] capture_groups`): a group is what one capture rule finds (an
/// equal card, a set adding up to the total).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureGroups {
    /// One group (the default: Scopa, Escoba).
    One,
    /// A union of disjoint groups to which no other group found could be added; every such
    /// union is offered.
    Maximal,
    /// Any union of one or more disjoint groups (Cassino: several groups at once).
    Any,
}

/// When a card played from the hand that can capture must capture (`[flow] must_capture`); when
/// it need not, the player may instead lay it on the table (trail it), a choice offered after
/// the captures. A card drawn from the stock always captures when it can.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MustCapture {
    /// Always (the default: Koi-Koi, Scopa).
    Always,
    /// When an `equal` capture rule finds a table card for it (a card matching by rank must
    /// take it; one that could only take a sum may trail).
    Equal,
    /// Never: a card that can capture may always be trailed (Cassino).
    Never,
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
    /// The cards wild where a card comes from: played from the hand, or drawn.
    #[inline(always)]
    pub fn wild_for(&self, from_hand: bool) -> CardSet {
        if from_hand {
            self.wild
        } else {
            self.wild_drawn
        }
    }

    /// Whether `card`, played from the hand (`from_hand`) or drawn, is wild there.
    #[inline(always)]
    pub fn is_wild(&self, card: crate::deck::CardId, from_hand: bool) -> bool {
        self.any_wild && self.wild_for(from_hand).contains(card)
    }

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
