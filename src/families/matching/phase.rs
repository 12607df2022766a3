//! What a matching hand has marked beyond the cards ([`Marks`]) and what the game waits for
//! ([`Phase`]): the state the game, its view and its greedy policy all read.

use crate::core::{PerSeat, Seat};
use crate::deck::{CardId, CardSet};
use crate::ruleset::TurnPattern;

/// No seat: a suit without a stack.
pub(super) const NO_STACK: u8 = u8::MAX;

/// What a hand has marked beyond the cards, all of it face up: what each seat declared and
/// chose, the turn events it earned, the stacks on the table, and the turn in progress.
#[derive(Debug, PartialEq, Eq)]
pub struct Marks {
    /// Turns a seat may take by drawing without playing (after playing a suit at once).
    pub free_draws: PerSeat<u8>,
    /// Each seat's card choices: bit `i` for the ruleset's choice `i` (`count_as`).
    pub choices: PerSeat<u8>,
    /// Each seat's choices already offered (bit per choice), so each is asked once.
    pub decided: PerSeat<u8>,
    /// Each seat's yaku points at its last call to play on.
    pub last_base: PerSeat<i64>,
    /// The suits each seat has revealed (bit `s` for suit `s`).
    pub revealed: PerSeat<u32>,
    /// Stacks each seat made this hand.
    pub stacks: PerSeat<u8>,
    /// Turns each seat has begun this hand.
    pub turns: PerSeat<u8>,
    /// The seat that made the stack of each suit on the table, or [`NO_STACK`].
    pub stack_owner: [u8; 32],
    /// How many times each seat made each declaration: `declared[seat * decls + d]`.
    pub declared: Vec<u16>,
    /// How many times each turn event fired for each seat: `fired[seat * events + e]`.
    pub fired: Vec<u16>,
    /// The turn in progress.
    pub turn: TurnLog,
    /// The seat that captured last this hand, or [`NO_STACK`] before a capture.
    pub last_capturer: u8,
    /// The combination each seat's dealt hand holds (`[flow]`'s `dealt_yaku`, by index), or
    /// [`NO_STACK`].
    pub dealt: PerSeat<u8>,
    /// `[flow] deal_checks = "every"`: how many refills dealt each seat each combination,
    /// `dealt_again[seat * dealt_yaku + i]` (`None` when only the first deal is checked: a
    /// search copies the marks for every action it tries, and copies nothing here then).
    pub dealt_again: Option<Box<[u16]>>,
    /// The card the last turn's player laid on the table from the hand, still there, when a
    /// turn event watches for its capture (`last_laid_taken`).
    pub laid_before: Option<CardId>,
    /// The suits a declaration that `blocks` has shown this hand (bit `s` for suit `s`): only
    /// the seats that revealed a suit (`revealed`) may capture its cards.
    pub blocked: u32,
    /// `[flow.drop_out]`: the seats sitting this hand out (bit per seat).
    pub out: u16,
    /// The seats that chose to drop out (and pay what dropping costs), among `out`.
    pub dropped: u16,
    /// The seats that decided, or were made, to play this hand.
    pub playing: u16,
}

/// What the turn in progress has done, for the turn events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnLog {
    /// The hand card and what it took.
    pub played: Option<(CardId, CardSet)>,
    /// The (last) drawn card and what it took.
    pub drawn: Option<(CardId, CardSet)>,
    /// How often each pattern ([`TurnPattern::ALL`] order) happened.
    pub patterns: [u8; TurnPattern::ALL.len()],
    /// The player's pile when the turn began.
    pub pile_before: CardSet,
}

impl Clone for Marks {
    fn clone(&self) -> Marks {
        Marks {
            declared: self.declared.clone(),
            fired: self.fired.clone(),
            dealt_again: self.dealt_again.clone(),
            ..*self
        }
    }

    /// Field by field, so that the vectors keep their storage (a search copies a deal into the
    /// same game for every action it tries).
    fn clone_from(&mut self, other: &Marks) {
        let Marks {
            free_draws,
            choices,
            decided,
            last_base,
            revealed,
            stacks,
            turns,
            stack_owner,
            declared,
            fired,
            turn,
            last_capturer,
            dealt,
            dealt_again,
            laid_before,
            blocked,
            out,
            dropped,
            playing,
        } = self;
        *free_draws = other.free_draws;
        *choices = other.choices;
        *decided = other.decided;
        *last_base = other.last_base;
        *revealed = other.revealed;
        *stacks = other.stacks;
        *turns = other.turns;
        *stack_owner = other.stack_owner;
        declared.clone_from(&other.declared);
        fired.clone_from(&other.fired);
        *turn = other.turn;
        *last_capturer = other.last_capturer;
        *dealt = other.dealt;
        dealt_again.clone_from(&other.dealt_again);
        *laid_before = other.laid_before;
        *blocked = other.blocked;
        *out = other.out;
        *dropped = other.dropped;
        *playing = other.playing;
    }
}

/// No seat's marks: storage for [`Clone::clone_from`] to fill.
impl Default for Marks {
    fn default() -> Marks {
        Marks::new(0, 0, 0, 0)
    }
}

/// `n` zeros, allocated with `malloc` and then written: `vec![0; n]` asks for zeroed memory,
/// and glibc's `calloc` of a few bytes costs about 280 instructions, once per game.
fn zeroed(n: usize) -> Vec<u16> {
    std::iter::repeat_n(0, n).collect()
}

impl Marks {
    /// Marks for `seats`, counting `decls` declarations, `events` turn events and `again`
    /// dealt combinations found on refilled hands (0 unless every deal is checked).
    pub(super) fn new(seats: usize, decls: usize, events: usize, again: usize) -> Marks {
        Marks {
            free_draws: PerSeat::new(seats),
            choices: PerSeat::new(seats),
            decided: PerSeat::new(seats),
            last_base: PerSeat::new(seats),
            revealed: PerSeat::new(seats),
            stacks: PerSeat::new(seats),
            turns: PerSeat::new(seats),
            stack_owner: [NO_STACK; 32],
            declared: zeroed(seats * decls),
            fired: zeroed(seats * events),
            turn: TurnLog::default(),
            last_capturer: NO_STACK,
            dealt: PerSeat::filled(seats, NO_STACK),
            dealt_again: (again > 0).then(|| zeroed(seats * again).into_boxed_slice()),
            laid_before: None,
            blocked: 0,
            out: 0,
            dropped: 0,
            playing: 0,
        }
    }

    pub(super) fn reset(&mut self) {
        for v in [
            &mut self.free_draws,
            &mut self.choices,
            &mut self.decided,
            &mut self.stacks,
            &mut self.turns,
        ] {
            v.fill(0);
        }
        self.last_base.fill(0);
        self.revealed.fill(0);
        self.stack_owner = [NO_STACK; 32];
        // A handful of counters, often none: a `memset` call costs more than the test.
        for v in [&mut self.declared[..], &mut self.fired[..]] {
            if v.iter().any(|&n| n != 0) {
                v.fill(0);
            }
        }
        if let Some(v) = &mut self.dealt_again {
            v.fill(0);
        }
        self.turn = TurnLog::default();
        self.last_capturer = NO_STACK;
        self.dealt.fill(NO_STACK);
        self.laid_before = None;
        self.blocked = 0;
        self.out = 0;
        self.dropped = 0;
        self.playing = 0;
    }

    /// True when `seat` sits this hand out.
    #[inline]
    pub fn sits_out(&self, seat: Seat) -> bool {
        self.out >> seat & 1 == 1
    }

    /// How many times `seat` made declaration `d` this hand.
    pub fn declared(&self, seat: Seat, d: usize) -> u16 {
        let per = self.declared.len() / self.free_draws.len().max(1);
        self.declared.get(seat * per + d).copied().unwrap_or(0)
    }

    /// How many times turn event `e` fired for `seat` this hand.
    pub fn fired(&self, seat: Seat, e: usize) -> u16 {
        let per = self.fired.len() / self.free_draws.len().max(1);
        self.fired.get(seat * per + e).copied().unwrap_or(0)
    }

    pub(super) fn pattern(&mut self, p: TurnPattern) {
        let i = p.index();
        self.turn.patterns[i] = self.turn.patterns[i].saturating_add(1);
    }
}

/// What a matching game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
// A tag of its own rather than one folded into the card's niche: every action matches on the
// phase, and a plain tag is one load and a jump.
#[repr(u8)]
pub enum Phase {
    /// The seat after the dealer makes one of the after-deal declarations (swap or keep).
    AfterDeal,
    /// `[flow.drop_out]`: the seat to act decides to play the hand or drop out.
    DropOut,
    /// The player to act plays a hand card.
    Play,
    /// The player chooses which table card `card` captures.
    CaptureChoice {
        /// The card played or drawn.
        card: CardId,
        /// True when `card` came from the hand (the draw follows).
        from_hand: bool,
    },
    /// The player made or improved a yaku: one of the offered declarations (play on, stop).
    Declare,
    /// The player captured a card that can count in more than one way: one of the offered
    /// `count_as` declarations.
    Choose,
    /// The game is over.
    GameOver,
}
