//! Compiled expressions: a tree of typed nodes over bitset card sets, constant-folded at load.
//!
//! Evaluation reads only the pile and the facts; it never parses, allocates or panics. Division
//! by zero gives 0.
//!
//! Arithmetic never wraps. Every number an expression computes has bounds known at load
//! ([`Program::bounds`]: counts are 0 to [`CardSet::CAPACITY`], card attributes are the deck's,
//! and each fact has a range the core keeps to, `crate::ruleset::scope::fact_range`), and an
//! expression with a part that could leave the 64-bit range is refused when it is compiled,
//! naming how far it could go. So evaluation cannot overflow; as a second line, for a fact given
//! outside its range, operations saturate at the largest or smallest number rather than wrap to
//! the other sign.
//!
//! The game core evaluates yaku conditions at nearly every turn, so speed matters here: the
//! commonest shapes also get a flat form (a card count in a range, and of those) evaluated
//! without walking the tree, and each program knows which cards and whether any facts it reads,
//! so that a yaku is evaluated again only when something it reads changed.

use super::Type;
use super::ast::BinaryOp;
use crate::deck::{CardBits, CardSet};

/// What an expression is evaluated against.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// The pile being scored (a player's captures, a hand, the table).
    pub pile: CardSet,
    /// The facts the core provides, in the order given to the checker.
    pub facts: &'a [i64],
}

/// A compiled, type-checked expression.
#[derive(Clone, Debug)]
pub struct Program {
    node: Node,
    ty: Type,
    /// See [`Program::cards_read`].
    reads: CardSet,
    /// See [`Program::facts_read`].
    facts_read: u64,
    /// The same expression in a flat form, when it has one.
    flat: Flat,
}

impl Program {
    pub(super) fn new(node: Node, ty: Type) -> Program {
        Program {
            ty,
            reads: node.reads(),
            facts_read: node.facts_read(),
            flat: Flat::of(&node),
            node,
        }
    }

    /// A number that is always `n` (a ruleset's option).
    pub fn int_constant(n: i64) -> Program {
        Program::new(Node::Int(n), Type::Int)
    }

    /// A card set that is always `cards` (a name bound by its place, such as a trick-taking
    /// hand's `trump_suit`).
    pub fn set_constant(cards: CardSet) -> Program {
        Program::new(Node::Set(cards), Type::Set)
    }

    /// A condition that is always `b` (a ruleset's switch).
    pub fn bool_constant(b: bool) -> Program {
        Program::new(Node::Bool(b), Type::Bool)
    }

    /// True when the value may depend on a fact (`round`, ...); otherwise the pile alone
    /// decides it.
    pub fn reads_facts(&self) -> bool {
        self.facts_read != 0
    }

    /// The facts the value may depend on: bit `i` for fact `i` (every bit for a fact beyond
    /// the 64th). Two sets of facts that agree on these give the same value.
    pub fn facts_read(&self) -> u64 {
        self.facts_read
    }

    /// The cards whose presence in the pile can change the value: for the same facts, two piles
    /// holding the same of these cards give the same value. Every card when the pile is used as
    /// a set of its own (`pile`). The game core re-evaluates a yaku only when its pile gained or
    /// lost one of these.
    pub fn cards_read(&self) -> CardSet {
        self.reads
    }

    /// A bound every pile that satisfies the condition meets: at least `n` cards of `set`, as
    /// `(set, n)`; `(EMPTY, 0)` when none is known. The yaku table skips a whole group at once
    /// when no member's bound is met.
    pub fn needs(&self) -> (CardSet, u32) {
        match &self.flat {
            // Either atom's lower bound is necessary: the larger says more.
            Flat::Counts([a, b]) => {
                let atom = if b.lo > a.lo { b } else { a };
                (atom.set, atom.lo)
            }
            _ => (CardSet::EMPTY, 0),
        }
    }

    /// The compiled tree (inlined where a name stands for this program).
    pub(super) fn node(&self) -> &Node {
        &self.node
    }

    /// The type of the value.
    pub fn ty(&self) -> Type {
        self.ty
    }

    /// The value of a number expression (0 for other types).
    #[inline]
    pub fn int(&self, cx: &Context) -> i64 {
        match self.flat {
            Flat::Count(set, k) => i64::from((set & cx.pile).len()).saturating_add(k),
            _ => self.node.int(cx),
        }
    }

    /// The value of a condition (false for other types).
    #[inline]
    pub fn truth(&self, cx: &Context) -> bool {
        match &self.flat {
            // `&`, not `&&`: both atoms are tested, without a branch.
            Flat::Counts([a, b]) => a.holds(cx.pile) & b.holds(cx.pile),
            _ => self.other_truth(cx),
        }
    }

    /// `truth` for the shapes that are not a few counts, out of line so that those inline small.
    #[inline(never)]
    fn other_truth(&self, cx: &Context) -> bool {
        match &self.flat {
            Flat::SuitsWith {
                suits,
                n,
                lo,
                hi,
                lanes,
            } => {
                let held = match lanes {
                    Some(lanes) => lanes.count_at_least(cx.pile, *n),
                    None => suits
                        .iter()
                        .filter(|s| i64::from((**s & cx.pile).len()) >= *n)
                        .count() as i64,
                };
                *lo <= held && held <= *hi
            }
            Flat::FactRange { fact, lo, hi } => {
                let v = cx.facts.get(*fact).copied().unwrap_or(0);
                *lo <= v && v <= *hi
            }
            _ => self.node.truth(cx),
        }
    }

    /// The value of a card-set expression (empty for other types).
    pub fn set(&self, cx: &Context) -> CardSet {
        self.node.set(cx)
    }

    /// The least and greatest values of a number expression (or of any number computed inside
    /// another expression) when each fact `i` lies in `facts[i]` (a fact without an entry may
    /// be any number): `Err` with the bounds of the first part found that could leave the
    /// 64-bit range, so that evaluating it could overflow.
    pub fn bounds(&self, facts: &[(i64, i64)]) -> Result<(i64, i64), (i128, i128)> {
        let b = self.node.bounds(facts)?;
        Ok((b.0 as i64, b.1 as i64))
    }

    /// The constant value of a number expression that reads neither pile nor facts.
    pub fn constant_int(&self) -> Option<i64> {
        match self.node {
            Node::Int(n) => Some(n),
            _ => None,
        }
    }

    /// The condition's value, when it is the same for every pile and fact (`false`, or an
    /// option switched off joined by `and`).
    pub fn constant_truth(&self) -> Option<bool> {
        match self.node {
            Node::Bool(b) => Some(b),
            _ => None,
        }
    }
}

/// The commonest shapes of conditions and point formulas in a flat form, evaluated without
/// walking the tree (a call per node costs more than the bit operations it does). Yaku
/// conditions are mostly conjunctions of a card count in a range (`count(S) == 4`, `all(S)`,
/// `has(a, b)`, `any(S)`, joined by `and`), point formulas `count(S) + k` or a constant, and
/// deal checks `suits_with(n) OP k`.
#[derive(Clone, Debug)]
enum Flat {
    /// No flat form: walk the tree.
    Tree,
    /// A number: `count(set) + k` (a constant when `set` is empty).
    Count(CardSet, i64),
    /// A condition: both atoms hold (conjunctions of fewer are padded with [`Atom::ALWAYS`]).
    Counts([Atom; 2]),
    /// A condition: `lo <= fact <= hi` (a declaration's `hand_cards > 0`).
    FactRange { fact: usize, lo: i64, hi: i64 },
    /// A condition: `lo <= suits_with(n) <= hi`.
    SuitsWith {
        suits: Box<[CardSet]>,
        n: i64,
        lo: i64,
        hi: i64,
        /// The suits as lanes of bits, when they are laid out so (a deck listed suit by suit).
        lanes: Option<Lanes>,
    },
}

/// Suits that each lie within one aligned lane of `width` bits (2, 4 or 8), no two in the same
/// lane, as in a deck listed suit by suit with equal suits: then every suit's count is found at
/// once, with bit operations on the whole pile (SWAR), instead of suit by suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Lanes {
    width: u32,
    /// Every card of a suit.
    cards: CardBits,
    /// The top bit of each suit's lane.
    tops: CardBits,
    /// How many suits.
    suits: i64,
    /// The masks that add the pairs' counts into nibbles, then the nibbles' into bytes, as
    /// `(kept, shifted)`: all and none where the lanes are narrower, so that every width takes
    /// the same steps without a branch.
    nibbles: (CardBits, CardBits),
    bytes: (CardBits, CardBits),
    /// Half a lane's range (`1 << (width - 1)`), and 1 in every lane's lowest bit.
    half: CardBits,
    ones: CardBits,
}

impl Lanes {
    fn of(suits: &[CardSet]) -> Option<Lanes> {
        [2u32, 4, 8].into_iter().find_map(|width| {
            let lane: CardBits = (1 << width) - 1;
            let (all, none) = (CardBits::MAX, 0);
            let mut lanes = Lanes {
                width,
                cards: 0,
                tops: 0,
                suits: suits.len() as i64,
                nibbles: if width >= 4 {
                    (CardBits::MAX / 5, CardBits::MAX / 5)
                } else {
                    (all, none)
                },
                bytes: if width >= 8 {
                    (CardBits::MAX / 17, CardBits::MAX / 17)
                } else {
                    (all, none)
                },
                half: 1 << (width - 1),
                ones: CardBits::MAX / lane,
            };
            for suit in suits.iter().filter(|s| !s.is_empty()) {
                let start = suit.0.trailing_zeros() / width * width;
                let top: CardBits = 1 << (start + width - 1);
                if suit.0 & !(lane << start) != 0 || lanes.tops & top != 0 {
                    return None;
                }
                lanes.cards |= suit.0;
                lanes.tops |= top;
            }
            Some(lanes)
        })
    }

    /// How many suits `pile` holds `n` or more cards of.
    fn count_at_least(self, pile: CardSet, n: i64) -> i64 {
        if n <= 0 {
            return self.suits;
        }
        if n > i64::from(self.width) {
            return 0;
        }
        let x = pile.0 & self.cards;
        // Each lane's count, in the lane: pairs, then nibbles, then bytes (a step past the
        // lanes' width keeps the counts as they are).
        let pairs = x - ((x >> 1) & (CardBits::MAX / 3));
        let (kept, shifted) = self.nibbles;
        let nibbles = (pairs & kept) + ((pairs >> 2) & shifted);
        let (kept, shifted) = self.bytes;
        let counts = (nibbles & kept) + ((nibbles >> 4) & shifted);
        // A count of at most `width` plus `half - n` reaches the lane's top bit exactly when it is
        // `n` or more, and never carries into the next lane.
        let raised = counts + (self.half - n as CardBits) * self.ones;
        i64::from((raised & self.tops).count_ones())
    }
}

/// One condition on the pile: `count(set)` lies in `lo ..= lo + span`. Counts are 0 to the size
/// of `set`, so the bounds are clamped to that; a range no count reaches is `CAPACITY + 1 ..=
/// CAPACITY + 1`. One form for every shape (`all`, `any`, thresholds), tested without a branch:
/// random piles make branches on the shape mispredict more often than counting costs.
#[derive(Clone, Copy, Debug)]
struct Atom {
    set: CardSet,
    lo: u32,
    span: u32,
}

impl Atom {
    /// Holds for every pile.
    const ALWAYS: Atom = Atom {
        set: CardSet::EMPTY,
        lo: 0,
        span: 0,
    };

    /// `lo <= count(set) <= hi`.
    fn new(set: CardSet, lo: i64, hi: i64) -> Atom {
        let (lo, hi) = (lo.max(0), hi.min(i64::from(set.len())));
        if lo > hi {
            return Atom {
                set,
                lo: CardSet::CAPACITY as u32 + 1,
                span: 0,
            };
        }
        Atom {
            set,
            lo: lo as u32,
            span: (hi - lo) as u32,
        }
    }

    #[inline]
    fn holds(self, pile: CardSet) -> bool {
        (self.set & pile).len().wrapping_sub(self.lo) <= self.span
    }
}

/// The range `OP n` accepts, as `(lo, hi)`; `None` for `!=` (two ranges).
fn range_of(op: BinaryOp, n: i64) -> Option<(i64, i64)> {
    Some(match op {
        BinaryOp::Eq => (n, n),
        BinaryOp::Lt => (i64::MIN, n.saturating_sub(1)),
        BinaryOp::Le => (i64::MIN, n),
        BinaryOp::Gt => (n.saturating_add(1), i64::MAX),
        BinaryOp::Ge => (n, i64::MAX),
        _ => return None,
    })
}

/// `a OP b` for the operators other than `+`, `-` and `*` (division by zero is 0).
#[inline(never)]
fn arith_other(op: BinaryOp, a: i64, b: i64) -> i64 {
    match op {
        BinaryOp::Div if b == 0 => 0,
        BinaryOp::Div => a.saturating_div(b),
        // `i64::MIN % -1` is 0, which `checked_rem` declines to compute.
        BinaryOp::Rem => a.checked_rem(b).unwrap_or(0),
        _ => 0,
    }
}

/// The most distinct values a fused sum ([`Node::Weighted`]) keeps: past them the walk over
/// the pile's cards costs less than a popcount per value.
const WEIGHTS: usize = 6;

/// `sum(ATTR, S)` over a constant S as the value of each of its cards' distinct non-zero
/// values with the cards carrying it, or `None` when they are too many or too large for the
/// sum to be exact without saturating (more than 32 bits).
fn weighted(values: &[i64], set: CardSet) -> Option<Box<[(i64, CardSet)]>> {
    let mut w: Vec<(i64, CardSet)> = Vec::new();
    for card in set.iter() {
        let v = values.get(card.index()).copied().unwrap_or(0);
        if v == 0 {
            continue;
        }
        if v.unsigned_abs() > u64::from(u32::MAX) {
            return None;
        }
        match w.iter().position(|&(value, _)| value == v) {
            Some(i) => w[i].1.insert(card),
            None if w.len() < WEIGHTS => w.push((v, CardSet::single(card))),
            None => return None,
        }
    }
    Some(w.into_boxed_slice())
}

/// The most distinct values a fused highest value ([`Node::Ranked`]) keeps: past them the
/// walk over the pile's cards costs less than a test per value.
const RANKS: usize = 16;

/// `best(ATTR, S)` over a constant S as each distinct value of its cards (zero and negative
/// ones included) with the cards carrying it, highest first, or `None` when they are too many.
/// The first entry that meets the pile is the highest value among the pile's cards of S.
fn ranked(values: &[i64], set: CardSet) -> Option<Box<[(i64, CardSet)]>> {
    let mut r: Vec<(i64, CardSet)> = Vec::new();
    for card in set.iter() {
        let v = values.get(card.index()).copied().unwrap_or(0);
        match r.iter().position(|&(value, _)| value == v) {
            Some(i) => r[i].1.insert(card),
            None if r.len() < RANKS => r.push((v, CardSet::single(card))),
            None => return None,
        }
    }
    r.sort_unstable_by_key(|&(v, _)| std::cmp::Reverse(v));
    Some(r.into_boxed_slice())
}

impl Flat {
    fn of(node: &Node) -> Flat {
        match node {
            Node::Int(k) => return Flat::Count(CardSet::EMPTY, *k),
            Node::CountPlus(set, k) => return Flat::Count(*set, *k),
            Node::Cmp(op, pair) => {
                let fact = match &**pair {
                    [Node::Fact(i), Node::Int(k)] => Some((*i, *op, *k)),
                    [Node::Int(k), Node::Fact(i)] => Some((*i, flip(*op), *k)),
                    _ => None,
                };
                if let Some((fact, op, k)) = fact
                    && let Some((lo, hi)) = range_of(op, k)
                {
                    return Flat::FactRange { fact, lo, hi };
                }
                let (op, suits, n, k) = match &**pair {
                    [Node::SuitsWith(suits, n), Node::Int(k)] => (*op, suits, n, *k),
                    [Node::Int(k), Node::SuitsWith(suits, n)] => (flip(*op), suits, n, *k),
                    _ => return Flat::Tree,
                };
                return match (&**n, range_of(op, k)) {
                    (Node::Int(n), Some((lo, hi))) => Flat::SuitsWith {
                        suits: suits.clone(),
                        n: *n,
                        lo,
                        hi,
                        lanes: Lanes::of(suits),
                    },
                    _ => Flat::Tree,
                };
            }
            _ => {}
        }
        let mut atoms = Vec::new();
        match Flat::atoms(node, &mut atoms) {
            Some(()) if atoms.len() <= 2 => Flat::Counts([
                atoms.first().copied().unwrap_or(Atom::ALWAYS),
                atoms.get(1).copied().unwrap_or(Atom::ALWAYS),
            ]),
            _ => Flat::Tree,
        }
    }

    /// The atoms of a conjunction of count ranges, or `None` when `node` is not one.
    fn atoms(node: &Node, out: &mut Vec<Atom>) -> Option<()> {
        match node {
            Node::CountCmp(op, set, n) => {
                let (lo, hi) = range_of(*op, *n)?;
                out.push(Atom::new(*set, lo, hi));
            }
            Node::AllOf(set) => out.push(Atom::new(*set, set.len().into(), i64::MAX)),
            Node::AnyOf(set) => out.push(Atom::new(*set, 1, i64::MAX)),
            Node::Bool(true) => {}
            Node::Bool(false) => out.push(Atom::new(CardSet::EMPTY, 1, 0)),
            Node::And(pair) => {
                Flat::atoms(&pair[0], out)?;
                Flat::atoms(&pair[1], out)?;
            }
            _ => return None,
        }
        Some(())
    }
}

/// A node of a compiled expression. Each node has one type, fixed by the checker.
#[derive(Clone, Debug)]
pub(super) enum Node {
    Int(i64),
    Bool(bool),
    Set(CardSet),
    Pile,
    Fact(usize),
    Count(Box<Node>),
    Size(Box<Node>),
    All(Box<Node>),
    Any(Box<Node>),
    Suit(Box<[CardSet]>, Box<Node>),
    SuitsWith(Box<[CardSet]>, Box<Node>),
    /// The pile's cards of the suits it holds n or more cards of.
    InSuitsWith(Box<[CardSet]>, Box<Node>),
    Sum(Box<[i64]>, Box<Node>),
    /// The highest attribute value among the pile's cards of the set (0 when it holds none).
    Best(Box<[i64]>, Box<Node>),
    Min(Box<[Node; 2]>),
    Max(Box<[Node; 2]>),
    Not(Box<Node>),
    Neg(Box<Node>),
    Or(Box<[Node; 2]>),
    And(Box<[Node; 2]>),
    Cmp(BinaryOp, Box<[Node; 2]>),
    SetEq(Box<[Node; 2]>),
    BoolEq(bool, Box<[Node; 2]>),
    Union(Box<[Node; 2]>),
    Difference(Box<[Node; 2]>),
    Intersection(Box<[Node; 2]>),
    Arith(BinaryOp, Box<[Node; 2]>),
    If(Box<[Node; 3]>),
    // Fused forms of the common shapes, made by `fold` (one node instead of three):
    /// `count(S) + k` with a constant S.
    CountPlus(CardSet, i64),
    /// `count(S) OP n` with a constant S.
    CountCmp(BinaryOp, CardSet, i64),
    /// `all(S)` with a constant S.
    AllOf(CardSet),
    /// `any(S)` with a constant S.
    AnyOf(CardSet),
    /// `sum(ATTR, S)` with a constant S and few distinct values: each value with the cards of S
    /// that carry it, so the sum is a popcount per value instead of a walk over the cards.
    Weighted(Box<[(i64, CardSet)]>),
    /// `best(ATTR, S)` with a constant S: each value with the cards of S that carry it, highest
    /// first, so the answer is the first value whose cards meet the pile (0 when none does).
    Ranked(Box<[(i64, CardSet)]>),
    /// A function that tells poker hands apart (`run`, `suited_run`, `suits_with(N, WILD)`,
    /// `tiebreak`): a number.
    Hand(Box<super::hand::HandFn<Node>>),
}

impl Node {
    /// True when the node reads neither the pile nor a fact.
    fn is_const(&self) -> bool {
        match self {
            Node::Int(_) | Node::Bool(_) | Node::Set(_) => true,
            Node::Pile
            | Node::Fact(_)
            | Node::CountPlus(..)
            | Node::CountCmp(..)
            | Node::AllOf(_)
            | Node::AnyOf(_)
            | Node::Weighted(_)
            | Node::Ranked(_) => false,
            // Functions of the pile: constant only in what they are applied to.
            Node::Count(_)
            | Node::All(_)
            | Node::Any(_)
            | Node::Sum(..)
            | Node::Best(..)
            | Node::SuitsWith(..)
            | Node::InSuitsWith(..)
            | Node::Hand(_) => false,
            Node::Size(a) | Node::Not(a) | Node::Neg(a) | Node::Suit(_, a) => a.is_const(),
            Node::Min(p)
            | Node::Max(p)
            | Node::Or(p)
            | Node::And(p)
            | Node::Cmp(_, p)
            | Node::SetEq(p)
            | Node::BoolEq(_, p)
            | Node::Union(p)
            | Node::Difference(p)
            | Node::Intersection(p)
            | Node::Arith(_, p) => p.iter().all(Node::is_const),
            Node::If(p) => p.iter().all(Node::is_const),
        }
    }

    /// See [`Program::cards_read`]. By induction: piles that agree on `reads()` give a node
    /// the same value.
    fn reads(&self) -> CardSet {
        const EVERY: CardSet = CardSet(CardBits::MAX);
        let pair = |p: &[Node]| p.iter().fold(CardSet::EMPTY, |r, n| r | n.reads());
        match self {
            Node::Int(_) | Node::Bool(_) | Node::Set(_) | Node::Fact(_) => CardSet::EMPTY,
            Node::Pile | Node::Hand(_) => EVERY,
            Node::CountPlus(s, _) | Node::CountCmp(_, s, _) | Node::AllOf(s) | Node::AnyOf(s) => *s,
            Node::Weighted(w) | Node::Ranked(w) => {
                w.iter().fold(CardSet::EMPTY, |r, (_, s)| r | *s)
            }
            // Functions of `S & pile`, for S one of the values `s` may take.
            Node::Count(s) | Node::All(s) | Node::Any(s) | Node::Sum(_, s) | Node::Best(_, s) => {
                s.reads() | s.bound()
            }
            Node::SuitsWith(suits, n) | Node::InSuitsWith(suits, n) => {
                suits.iter().fold(CardSet::EMPTY, |r, s| r | *s) | n.reads()
            }
            Node::Size(a) | Node::Not(a) | Node::Neg(a) | Node::Suit(_, a) => a.reads(),
            Node::Min(p)
            | Node::Max(p)
            | Node::Or(p)
            | Node::And(p)
            | Node::Cmp(_, p)
            | Node::SetEq(p)
            | Node::BoolEq(_, p)
            | Node::Union(p)
            | Node::Difference(p)
            | Node::Intersection(p)
            | Node::Arith(_, p) => pair(&p[..]),
            Node::If(p) => pair(&p[..]),
        }
    }

    /// The facts read in the tree: bit `i` for each `Fact(i)` node (every bit for `i` >= 64).
    fn facts_read(&self) -> u64 {
        match self {
            Node::Fact(i) => u32::try_from(*i)
                .ok()
                .and_then(|i| 1u64.checked_shl(i))
                .unwrap_or(u64::MAX),
            Node::Int(_)
            | Node::Bool(_)
            | Node::Set(_)
            | Node::Pile
            | Node::CountPlus(..)
            | Node::CountCmp(..)
            | Node::AllOf(_)
            | Node::AnyOf(_)
            | Node::Weighted(_)
            | Node::Ranked(_) => 0,
            Node::Count(a)
            | Node::Size(a)
            | Node::All(a)
            | Node::Any(a)
            | Node::Suit(_, a)
            | Node::SuitsWith(_, a)
            | Node::InSuitsWith(_, a)
            | Node::Sum(_, a)
            | Node::Best(_, a)
            | Node::Not(a)
            | Node::Neg(a) => a.facts_read(),
            Node::Min(p)
            | Node::Max(p)
            | Node::Or(p)
            | Node::And(p)
            | Node::Cmp(_, p)
            | Node::SetEq(p)
            | Node::BoolEq(_, p)
            | Node::Union(p)
            | Node::Difference(p)
            | Node::Intersection(p)
            | Node::Arith(_, p) => p.iter().fold(0, |m, n| m | n.facts_read()),
            Node::If(p) => p.iter().fold(0, |m, n| m | n.facts_read()),
            Node::Hand(f) => f.children().iter().fold(0, |m, n| m | n.facts_read()),
        }
    }

    /// Every card a set node's value may hold (every card for nodes of other types).
    fn bound(&self) -> CardSet {
        match self {
            Node::Set(s) => *s,
            Node::Suit(suits, _) | Node::InSuitsWith(suits, _) => {
                suits.iter().fold(CardSet::EMPTY, |r, s| r | *s)
            }
            Node::Union(p) => p[0].bound() | p[1].bound(),
            Node::Intersection(p) => p[0].bound() & p[1].bound(),
            Node::Difference(p) => p[0].bound(),
            Node::If(p) => p[1].bound() | p[2].bound(),
            _ => CardSet(CardBits::MAX),
        }
    }

    /// Replaces a constant subtree by its value, given the type the checker assigned, and fuses
    /// the common shapes of yaku conditions into single nodes.
    pub(super) fn fold(self) -> Node {
        if !self.is_const() {
            return self.fuse();
        }
        if matches!(self, Node::Int(_) | Node::Bool(_) | Node::Set(_)) {
            return self;
        }
        // A constant that overflows stays a tree, for its bounds to report.
        if self.bounds(&[]).is_err() {
            return self;
        }
        let cx = Context {
            pile: CardSet::EMPTY,
            facts: &[],
        };
        match self.type_of() {
            Type::Int => Node::Int(self.int(&cx)),
            Type::Bool => Node::Bool(self.truth(&cx)),
            Type::Set => Node::Set(self.set(&cx)),
        }
    }

    /// Peephole rewrites of a node whose children are already folded.
    fn fuse(self) -> Node {
        match self {
            Node::Count(s) => match *s {
                Node::Set(set) => Node::CountPlus(set, 0),
                other => Node::Count(Box::new(other)),
            },
            Node::All(s) => match *s {
                Node::Set(set) => Node::AllOf(set),
                other => Node::All(Box::new(other)),
            },
            Node::Any(s) => match *s {
                Node::Set(set) => Node::AnyOf(set),
                other => Node::Any(Box::new(other)),
            },
            Node::Sum(values, s) => match *s {
                Node::Set(set) => match weighted(&values, set) {
                    Some(w) => Node::Weighted(w),
                    None => Node::Sum(values, Box::new(Node::Set(set))),
                },
                other => Node::Sum(values, Box::new(other)),
            },
            Node::Best(values, s) => match *s {
                Node::Set(set) => match ranked(&values, set) {
                    Some(r) => Node::Ranked(r),
                    None => Node::Best(values, Box::new(Node::Set(set))),
                },
                other => Node::Best(values, Box::new(other)),
            },
            Node::Arith(op @ (BinaryOp::Add | BinaryOp::Sub), pair) => match *pair {
                // Fused only when the constant part fits: otherwise the tree stays, and its
                // bounds report the overflow.
                [Node::CountPlus(s, a), Node::Int(k)]
                    if let Some(k) = if op == BinaryOp::Add {
                        a.checked_add(k)
                    } else {
                        a.checked_sub(k)
                    } && k.checked_add(CardSet::CAPACITY as i64).is_some() =>
                {
                    Node::CountPlus(s, k)
                }
                [Node::Int(k), Node::CountPlus(s, a)]
                    if op == BinaryOp::Add
                        && let Some(k) = a.checked_add(k)
                        && k.checked_add(CardSet::CAPACITY as i64).is_some() =>
                {
                    Node::CountPlus(s, k)
                }
                pair => Node::Arith(op, Box::new(pair)),
            },
            Node::Cmp(op, pair) => match *pair {
                [Node::CountPlus(s, a), Node::Int(n)] if let Some(n) = n.checked_sub(a) => {
                    Node::CountCmp(op, s, n)
                }
                [Node::Int(n), Node::CountPlus(s, a)] if let Some(n) = n.checked_sub(a) => {
                    Node::CountCmp(flip(op), s, n)
                }
                pair => Node::Cmp(op, Box::new(pair)),
            },
            // A constant side decides or drops out (an option switched off or on): `false and
            // x` is false, `true and x` is x.
            Node::And(pair) => match *pair {
                [Node::Bool(false), _] | [_, Node::Bool(false)] => Node::Bool(false),
                [Node::Bool(true), x] | [x, Node::Bool(true)] => x,
                pair => Node::And(Box::new(pair)),
            },
            Node::Or(pair) => match *pair {
                [Node::Bool(true), _] | [_, Node::Bool(true)] => Node::Bool(true),
                [Node::Bool(false), x] | [x, Node::Bool(false)] => x,
                pair => Node::Or(Box::new(pair)),
            },
            other => other,
        }
    }

    fn type_of(&self) -> Type {
        match self {
            Node::CountPlus(..) | Node::Weighted(_) | Node::Ranked(_) => Type::Int,
            Node::CountCmp(..) | Node::AllOf(_) | Node::AnyOf(_) => Type::Bool,
            Node::Int(_)
            | Node::Fact(_)
            | Node::Count(_)
            | Node::Size(_)
            | Node::SuitsWith(..)
            | Node::Sum(..)
            | Node::Best(..)
            | Node::Hand(_)
            | Node::Min(_)
            | Node::Max(_)
            | Node::Neg(_)
            | Node::Arith(..) => Type::Int,
            Node::Bool(_)
            | Node::All(_)
            | Node::Any(_)
            | Node::Not(_)
            | Node::Or(_)
            | Node::And(_)
            | Node::Cmp(..)
            | Node::SetEq(_)
            | Node::BoolEq(..) => Type::Bool,
            Node::Set(_)
            | Node::Pile
            | Node::Suit(..)
            | Node::InSuitsWith(..)
            | Node::Union(_)
            | Node::Difference(_)
            | Node::Intersection(_) => Type::Set,
            Node::If(p) => p[1].type_of(),
        }
    }

    /// See [`Program::bounds`]: the least and greatest value of a number node, computed in 128
    /// bits (products and sums of 64-bit bounds cannot overflow them); other nodes give `(0, 0)`
    /// once the numbers inside them are checked.
    fn bounds(&self, facts: &[(i64, i64)]) -> Result<(i128, i128), (i128, i128)> {
        const ANY: (i128, i128) = (i64::MIN as i128, i64::MAX as i128);
        let fits = |b: (i128, i128)| {
            if b.0 >= ANY.0 && b.1 <= ANY.1 {
                Ok(b)
            } else {
                Err(b)
            }
        };
        let cards = |s: CardSet| i128::from(s.len());
        let b = match self {
            Node::Int(n) => (i128::from(*n), i128::from(*n)),
            Node::Fact(i) => facts
                .get(*i)
                .map_or(ANY, |&(lo, hi)| (i128::from(lo), i128::from(hi))),
            Node::CountPlus(s, k) => (i128::from(*k), i128::from(*k) + cards(*s)),
            Node::Weighted(w) => w.iter().fold((0, 0), |(lo, hi), &(v, s)| {
                let total = i128::from(v) * cards(s);
                (lo + total.min(0), hi + total.max(0))
            }),
            // 0 for a pile that meets none of the cards, as for `Best`.
            Node::Ranked(r) => r.iter().fold((0, 0), |(lo, hi), &(v, _)| {
                let v = i128::from(v);
                (lo.min(v), hi.max(v))
            }),
            Node::Count(s) => {
                s.bounds(facts)?;
                (0, cards(s.bound()))
            }
            Node::Size(s) => {
                s.bounds(facts)?;
                (0, cards(s.bound()))
            }
            Node::SuitsWith(suits, n) => {
                n.bounds(facts)?;
                (0, suits.len() as i128)
            }
            Node::Hand(f) => {
                for n in f.children() {
                    n.bounds(facts)?;
                }
                f.bounds()
            }
            Node::Sum(values, s) => {
                s.bounds(facts)?;
                let bound = s.bound();
                values
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i < CardSet::CAPACITY && bound.0 >> i & 1 != 0)
                    .fold((0, 0), |(lo, hi), (_, &v)| {
                        let v = i128::from(v);
                        (lo + v.min(0), hi + v.max(0))
                    })
            }
            Node::Best(values, s) => {
                s.bounds(facts)?;
                let bound = s.bound();
                values
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i < CardSet::CAPACITY && bound.0 >> i & 1 != 0)
                    .fold((0, 0), |(lo, hi), (_, &v)| {
                        let v = i128::from(v);
                        (lo.min(v), hi.max(v))
                    })
            }
            Node::Min(p) => {
                let (a, b) = (p[0].bounds(facts)?, p[1].bounds(facts)?);
                (a.0.min(b.0), a.1.min(b.1))
            }
            Node::Max(p) => {
                let (a, b) = (p[0].bounds(facts)?, p[1].bounds(facts)?);
                (a.0.max(b.0), a.1.max(b.1))
            }
            Node::Neg(a) => {
                let a = a.bounds(facts)?;
                (-a.1, -a.0)
            }
            Node::Arith(op, p) => {
                let (a, b) = (p[0].bounds(facts)?, p[1].bounds(facts)?);
                match op {
                    BinaryOp::Add => (a.0 + b.0, a.1 + b.1),
                    BinaryOp::Sub => (a.0 - b.1, a.1 - b.0),
                    BinaryOp::Mul => {
                        let products = [a.0 * b.0, a.0 * b.1, a.1 * b.0, a.1 * b.1];
                        (
                            products.into_iter().min().unwrap_or(0),
                            products.into_iter().max().unwrap_or(0),
                        )
                    }
                    BinaryOp::Div if (b.0, b.1) == (0, 0) => (0, 0),
                    BinaryOp::Div => {
                        // `|a / b| <= |a|`, and 0 for a zero divisor.
                        let m = a.0.abs().max(a.1.abs());
                        (if a.0 < 0 || b.0 < 0 { -m } else { 0 }, m)
                    }
                    BinaryOp::Rem => {
                        // `|a % b| < |b|` and `<= |a|`, with the sign of `a`.
                        let m = (b.0.abs().max(b.1.abs()) - 1)
                            .max(0)
                            .min(a.0.abs().max(a.1.abs()));
                        (if a.0 < 0 { -m } else { 0 }, if a.1 > 0 { m } else { 0 })
                    }
                    _ => (0, 0),
                }
            }
            Node::If(p) => {
                p[0].bounds(facts)?;
                let (a, b) = (p[1].bounds(facts)?, p[2].bounds(facts)?);
                (a.0.min(b.0), a.1.max(b.1))
            }
            // Not numbers: only the numbers inside them are checked.
            Node::Bool(_) | Node::Set(_) | Node::Pile | Node::AllOf(_) | Node::AnyOf(_) => (0, 0),
            Node::CountCmp(..) => (0, 0),
            Node::All(a)
            | Node::Any(a)
            | Node::Not(a)
            | Node::Suit(_, a)
            | Node::InSuitsWith(_, a) => {
                a.bounds(facts)?;
                (0, 0)
            }
            Node::Or(p)
            | Node::And(p)
            | Node::Cmp(_, p)
            | Node::SetEq(p)
            | Node::BoolEq(_, p)
            | Node::Union(p)
            | Node::Difference(p)
            | Node::Intersection(p) => {
                p[0].bounds(facts)?;
                p[1].bounds(facts)?;
                (0, 0)
            }
        };
        fits(b)
    }

    fn int(&self, cx: &Context) -> i64 {
        // The shapes of yaku conditions and tallies inline; the rest out of line, so that the
        // frame of this recursive function stays small.
        match self {
            Node::CountPlus(s, k) => i64::from((*s & cx.pile).len()).saturating_add(*k),
            // No overflow: `weighted` keeps values within 32 bits.
            Node::Weighted(w) => w
                .iter()
                .map(|&(v, s)| v * i64::from((s & cx.pile).len()))
                .sum(),
            Node::Ranked(r) => r
                .iter()
                .find(|(_, s)| !(*s & cx.pile).is_empty())
                .map_or(0, |&(v, _)| v),
            Node::Int(n) => *n,
            Node::Fact(i) => cx.facts.get(*i).copied().unwrap_or(0),
            Node::Arith(op, p) => {
                let (a, b) = (p[0].int(cx), p[1].int(cx));
                match op {
                    BinaryOp::Add => a.saturating_add(b),
                    BinaryOp::Sub => a.saturating_sub(b),
                    BinaryOp::Mul => a.saturating_mul(b),
                    _ => arith_other(*op, a, b),
                }
            }
            _ => self.int_other(cx),
        }
    }

    /// `int` for the shapes that are not counts, facts and arithmetic.
    #[inline(never)]
    fn int_other(&self, cx: &Context) -> i64 {
        match self {
            Node::Count(s) => i64::from((s.set(cx) & cx.pile).len()),
            Node::Size(s) => i64::from(s.set(cx).len()),
            Node::SuitsWith(suits, n) => {
                let pile = cx.pile;
                let n = n.int(cx);
                suits
                    .iter()
                    .filter(|s| i64::from((**s & pile).len()) >= n)
                    .count() as i64
            }
            Node::Sum(values, s) => (s.set(cx) & cx.pile)
                .iter()
                .map(|c| values.get(c.index()).copied().unwrap_or(0))
                .fold(0i64, i64::saturating_add),
            Node::Best(values, s) => (s.set(cx) & cx.pile)
                .iter()
                .map(|c| values.get(c.index()).copied().unwrap_or(0))
                .max()
                .unwrap_or(0),
            Node::Hand(f) => f.int(cx.pile, |n| n.int(cx), |n| n.set(cx)),
            Node::Min(p) => p[0].int(cx).min(p[1].int(cx)),
            Node::Max(p) => p[0].int(cx).max(p[1].int(cx)),
            Node::Neg(a) => a.int(cx).saturating_neg(),
            Node::If(p) => {
                if p[0].truth(cx) {
                    p[1].int(cx)
                } else {
                    p[2].int(cx)
                }
            }
            _ => 0,
        }
    }

    fn truth(&self, cx: &Context) -> bool {
        match self {
            Node::CountCmp(op, s, n) => compare(*op, i64::from((*s & cx.pile).len()), *n),
            Node::AllOf(s) => cx.pile.contains_all(*s),
            Node::AnyOf(s) => !(*s & cx.pile).is_empty(),
            Node::Bool(b) => *b,
            Node::All(s) => cx.pile.contains_all(s.set(cx)),
            Node::Any(s) => !(s.set(cx) & cx.pile).is_empty(),
            Node::Not(a) => !a.truth(cx),
            Node::Or(p) => p[0].truth(cx) || p[1].truth(cx),
            Node::And(p) => p[0].truth(cx) && p[1].truth(cx),
            Node::Cmp(op, p) => compare(*op, p[0].int(cx), p[1].int(cx)),
            Node::SetEq(p) => p[0].set(cx) == p[1].set(cx),
            Node::BoolEq(eq, p) => (p[0].truth(cx) == p[1].truth(cx)) == *eq,
            Node::If(p) => {
                if p[0].truth(cx) {
                    p[1].truth(cx)
                } else {
                    p[2].truth(cx)
                }
            }
            _ => false,
        }
    }

    fn set(&self, cx: &Context) -> CardSet {
        match self {
            Node::Set(s) => *s,
            Node::Pile => cx.pile,
            Node::Suit(suits, n) => {
                let n = n.int(cx);
                if n < 1 {
                    CardSet::EMPTY
                } else {
                    suits.get(n as usize - 1).copied().unwrap_or_default()
                }
            }
            Node::InSuitsWith(suits, n) => {
                let pile = cx.pile;
                let n = n.int(cx);
                suits
                    .iter()
                    .map(|s| *s & pile)
                    .filter(|held| i64::from(held.len()) >= n)
                    .fold(CardSet::EMPTY, |r, held| r | held)
            }
            Node::Union(p) => p[0].set(cx) | p[1].set(cx),
            Node::Difference(p) => p[0].set(cx) - p[1].set(cx),
            Node::Intersection(p) => p[0].set(cx) & p[1].set(cx),
            Node::If(p) => {
                if p[0].truth(cx) {
                    p[1].set(cx)
                } else {
                    p[2].set(cx)
                }
            }
            _ => CardSet::EMPTY,
        }
    }
}

fn compare(op: BinaryOp, a: i64, b: i64) -> bool {
    match op {
        BinaryOp::Eq => a == b,
        BinaryOp::Ne => a != b,
        BinaryOp::Lt => a < b,
        BinaryOp::Le => a <= b,
        BinaryOp::Gt => a > b,
        BinaryOp::Ge => a >= b,
        _ => false,
    }
}

/// The comparison with its operands swapped: `n < x` is `x > n`.
fn flip(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Ge => BinaryOp::Le,
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{Names, compile_str};

    /// A random well-typed expression of type `ty` over the hanafuda deck, at most `depth` deep.
    fn random_expr(rng: &mut impl rand::Rng, ty: Type, depth: u32) -> String {
        use rand::RngExt;
        const SETS: &[&str] = &[
            "bright",
            "animal",
            "ribbon",
            "plain",
            "rain",
            "poetry",
            "pine",
            "cherry",
            "pampas-moon",
            "chrysanthemum-sake",
            "maple-deer",
        ];
        let leaf = depth == 0 || rng.random_range(0..4) == 0;
        let sub = |rng: &mut _, ty| random_expr(rng, ty, depth.saturating_sub(1));
        match ty {
            Type::Set if leaf => match rng.random_range(0..6) {
                0 => "pile".into(),
                _ => SETS[rng.random_range(0..SETS.len())].into(),
            },
            Type::Set => match rng.random_range(0..5) {
                0 => format!("({} + {})", sub(rng, Type::Set), sub(rng, Type::Set)),
                1 => format!("({} - {})", sub(rng, Type::Set), sub(rng, Type::Set)),
                2 => format!("({} & {})", sub(rng, Type::Set), sub(rng, Type::Set)),
                3 => format!("month({})", sub(rng, Type::Int)),
                _ => format!(
                    "(if {} then {} else {})",
                    sub(rng, Type::Bool),
                    sub(rng, Type::Set),
                    sub(rng, Type::Set)
                ),
            },
            Type::Int if leaf => match rng.random_range(0..5) {
                0 => rng.random_range(0..13).to_string(),
                1 => "sum(points)".into(),
                2 => "round".into(),
                _ => format!("count({})", sub(rng, Type::Set)),
            },
            Type::Int => match rng.random_range(0..9) {
                0 => format!("size({})", sub(rng, Type::Set)),
                1 => format!("sum(points, {})", sub(rng, Type::Set)),
                2 => format!("suits_with({})", sub(rng, Type::Int)),
                3 => format!("min({}, {})", sub(rng, Type::Int), sub(rng, Type::Int)),
                4 => format!("max({}, {})", sub(rng, Type::Int), sub(rng, Type::Int)),
                5 => format!("(-{})", sub(rng, Type::Int)),
                6 => format!(
                    "(if {} then {} else {})",
                    sub(rng, Type::Bool),
                    sub(rng, Type::Int),
                    sub(rng, Type::Int)
                ),
                _ => {
                    let op = ["+", "-", "*", "/", "%"][rng.random_range(0..5)];
                    format!("({} {op} {})", sub(rng, Type::Int), sub(rng, Type::Int))
                }
            },
            Type::Bool => match rng.random_range(0..if leaf { 4 } else { 8 }) {
                0 => format!("all({})", sub(rng, Type::Set)),
                7 | 3 if leaf => ["true", "false"][rng.random_range(0..2)].into(),
                1 => format!("any({})", sub(rng, Type::Set)),
                2 => {
                    let op = ["==", "!=", "<", "<=", ">", ">="][rng.random_range(0..6)];
                    format!("({} {op} {})", sub(rng, Type::Int), sub(rng, Type::Int))
                }
                3 => format!("(not {})", sub(rng, Type::Bool)),
                4 => format!("({} and {})", sub(rng, Type::Bool), sub(rng, Type::Bool)),
                5 => format!("({} or {})", sub(rng, Type::Bool), sub(rng, Type::Bool)),
                _ => format!("({} == {})", sub(rng, Type::Set), sub(rng, Type::Set)),
            },
        }
    }

    proptest::proptest! {
        /// Piles that hold the same of an expression's `cards_read` give it the same value, and
        /// so do different facts when it does not read them.
        #[test]
        fn cards_read_are_all_the_value_depends_on(seed in proptest::prelude::any::<u64>()) {
            use rand::{RngExt, SeedableRng};
            let deck = crate::ruleset::load_deck("hanafuda").value.unwrap();
            let names = Names::of(&deck, &["round"]);
            let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
            let all = deck.all();
            for ty in [Type::Int, Type::Bool, Type::Set] {
                let src = random_expr(&mut rng, ty, 4);
                let program = match compile_str(&src, ty, &names) {
                    Ok(p) => p,
                    // Products of many `round`s may overflow: refused, and that is all.
                    Err(e) if e.iter().all(|e| e.message.starts_with("this can overflow")) => {
                        continue;
                    }
                    Err(e) => panic!("{src}: {e:?}"),
                };
                let reads = program.cards_read();
                for _ in 0..16 {
                    let a = CardSet::low(rng.random::<u64>()) & all;
                    let b = (a & reads) | (CardSet::low(rng.random::<u64>()) & (all - reads));
                    let facts = [rng.random_range(0..14)];
                    let other = if program.reads_facts() { facts } else { [rng.random_range(0..14)] };
                    let (x, y) = (Context { pile: a, facts: &facts }, Context { pile: b, facts: &other });
                    proptest::prop_assert_eq!(program.int(&x), program.int(&y), "{}", src);
                    proptest::prop_assert_eq!(program.truth(&x), program.truth(&y), "{}", src);
                    proptest::prop_assert_eq!(program.set(&x), program.set(&y), "{}", src);
                }
            }
        }
    }

    proptest::proptest! {
        /// Every value a number expression takes, for facts in their ranges, lies within its
        /// bounds; and every number computed inside any expression fits, so nothing saturates.
        #[test]
        fn values_lie_within_their_bounds(seed in proptest::prelude::any::<u64>()) {
            use rand::{RngExt, SeedableRng};
            let deck = crate::ruleset::load_deck("hanafuda").value.unwrap();
            let names = Names::of(&deck, &["round"]);
            let (lo_round, hi_round) = crate::ruleset::scope::fact_range("round");
            let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
            for _ in 0..8 {
                let src = random_expr(&mut rng, Type::Int, 4);
                let Ok(program) = compile_str(&src, Type::Int, &names) else { continue };
                let (lo, hi) = program.bounds(&[(lo_round, hi_round)]).unwrap();
                for k in 0..16 {
                    let round = [lo_round, hi_round, rng.random_range(lo_round..=hi_round)][k % 3];
                    let pile = CardSet::low(rng.random::<u64>() & rng.random::<u64>()) & deck.all();
                    let v = program.int(&Context { pile, facts: &[round] });
                    proptest::prop_assert!(lo <= v && v <= hi, "{} = {} not in {}..={}", src, v, lo, hi);
                }
            }
        }
    }

    /// A sum over a constant set is a popcount per distinct value ([`Node::Weighted`]) and
    /// gives what the walk over the pile's cards gives.
    #[test]
    fn a_fused_sum_is_the_walk_over_the_cards() {
        use rand::{RngExt, SeedableRng};
        let deck = crate::ruleset::load_deck("hanafuda").value.unwrap();
        let names = Names::of(&deck, &[]);
        let fused = compile_str("sum(points, ribbon + bright + plain)", Type::Int, &names).unwrap();
        assert!(
            matches!(fused.node, Node::Weighted(ref w) if w.len() == 3),
            "{fused:?}"
        );
        let walked = compile_str(
            "sum(points, pile & (ribbon + bright + plain))",
            Type::Int,
            &names,
        )
        .unwrap();
        assert!(matches!(walked.node, Node::Sum(..)), "{walked:?}");
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..200 {
            let pile = CardSet::low(rng.random::<u64>()) & deck.all();
            let cx = Context { pile, facts: &[] };
            assert_eq!(fused.int(&cx), walked.int(&cx));
        }
        let every = Context {
            pile: deck.all(),
            facts: &[],
        };
        // 5 brights of 20, 10 ribbons of 5, 24 plains of 1.
        assert_eq!(fused.int(&every), 100 + 50 + 24);
    }

    /// The highest value over a constant set is the first of its values, highest first, whose
    /// cards meet the pile ([`Node::Ranked`]), and gives what the walk over the pile's cards
    /// gives, negative values and the empty pile included.
    #[test]
    fn a_fused_best_is_the_walk_over_the_cards() {
        use rand::{RngExt, SeedableRng};
        let deck = crate::ruleset::load_deck("italian-40").value.unwrap();
        let names = Names::of(&deck, &[]);
        let walk = |src: &str| {
            let p = compile_str(src, Type::Int, &names).unwrap();
            assert!(matches!(p.node, Node::Best(..)), "{p:?}");
            p
        };
        let fuse = |src: &str| {
            let p = compile_str(src, Type::Int, &names).unwrap();
            assert!(matches!(p.node, Node::Ranked(..)), "{p:?}");
            p
        };
        let pairs = [
            (
                fuse("best(primiera, coins)"),
                walk("best(primiera, pile & coins)"),
            ),
            (
                fuse("best(primiera, coins + cups)"),
                walk("best(primiera, pile & (coins + cups))"),
            ),
            (
                fuse("best(value, swords)"),
                walk("best(value, pile & swords)"),
            ),
        ];
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(7);
        for k in 0..400 {
            // Sparse and dense piles, and the empty one.
            let bits = match k % 3 {
                0 => rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>(),
                1 => rng.random::<u64>(),
                _ => 0,
            };
            let pile = CardSet::low(bits) & deck.all();
            let cx = Context { pile, facts: &[] };
            for (fused, walked) in &pairs {
                assert_eq!(fused.int(&cx), walked.int(&cx), "{pile:?}");
            }
        }
        // Negative values: the highest of them, not the 0 of an empty pile. Past `RANKS`
        // distinct values the walk stays.
        let set = deck.all();
        let values: Box<[i64]> = (0..set.len() as i64).map(|i| -1 - i).collect();
        let many = Node::Best(values, Box::new(Node::Set(set))).fuse();
        assert!(matches!(many, Node::Best(..)), "{many:?}");
        let values: Box<[i64]> = (0..set.len() as i64).map(|i| -1 - i % 5).collect();
        let fused = Node::Best(values.clone(), Box::new(Node::Set(set))).fuse();
        assert!(matches!(fused, Node::Ranked(..)), "{fused:?}");
        let walked = Node::Best(
            values,
            Box::new(Node::Intersection(Box::new([Node::Pile, Node::Set(set)]))),
        );
        for _ in 0..100 {
            let pile = CardSet::low(rng.random::<u64>() & rng.random::<u64>()) & deck.all();
            let cx = Context { pile, facts: &[] };
            assert_eq!(fused.int(&cx), walked.int(&cx));
        }
    }

    /// `true` and `false` are conditions, and not numbers.
    #[test]
    fn true_and_false_are_conditions() {
        let deck = crate::ruleset::load_deck("hanafuda").value.unwrap();
        let names = Names::of(&deck, &[]);
        let pile = CardSet::EMPTY;
        for (src, want) in [
            ("true", true),
            ("false", false),
            ("not false and true", true),
            ("true == (count(pile) == 0)", true),
            ("if false then true else count(plain) > 0", false),
        ] {
            let p = compile_str(src, Type::Bool, &names).unwrap();
            assert_eq!(p.truth(&Context { pile, facts: &[] }), want, "{src}");
        }
        let err = compile_str("true + 1", Type::Int, &names).unwrap_err();
        assert!(
            err[0].message.contains("a condition and a number"),
            "{err:?}"
        );
    }

    /// Arithmetic that could leave the 64-bit range is refused at compile time, with how far it
    /// could go; the largest numbers themselves are fine.
    #[test]
    fn overflow_is_refused_when_compiled() {
        let deck = crate::ruleset::load_deck("hanafuda").value.unwrap();
        let names = Names::of(&deck, &["round"]);
        for ok in [
            "9223372036854775807",
            "-9223372036854775807 - 1",
            "count(plain) + 9223372036854775783",
            "round * round * round * round",
            "9223372036854775807 / 0 + count(plain) % 0",
        ] {
            let program = compile_str(ok, Type::Int, &names);
            assert!(program.is_ok(), "{ok}: {program:?}");
        }
        let max = compile_str("count(plain) + 9223372036854775783", Type::Int, &names).unwrap();
        let all = Context {
            pile: deck.all(),
            facts: &[1],
        };
        assert_eq!(max.int(&all), i64::MAX);
        for (bad, reach) in [
            ("9223372036854775807 + 1", "9223372036854775808"),
            ("count(plain) + 9223372036854775784", "9223372036854775808"),
            ("-9223372036854775807 - 2", "-9223372036854775809"),
            ("-(-9223372036854775807 - 1)", "9223372036854775808"),
            (
                "round * round * round * round * round",
                "100000000000000000000",
            ),
            (
                "(-9223372036854775807 - 1) / (round - 1)",
                "9223372036854775808",
            ),
            (
                "count(plain) >= 4611686018427387904 * 2",
                "9223372036854775808",
            ),
        ] {
            let ty = if bad.contains(">=") {
                Type::Bool
            } else {
                Type::Int
            };
            let errors = compile_str(bad, ty, &names).unwrap_err();
            assert!(
                errors[0].message.contains(&format!("can reach {reach}")),
                "{bad}: {errors:?}"
            );
            assert_eq!(errors[0].span, 0..bad.len());
        }
    }

    /// The flat forms give the tree's values, at the edges of every comparison.
    /// `alike(ATTRIBUTE, N)`: the values of an attribute the pile holds N or more cards of,
    /// across suits (three kings of a French pack are three cards of one rank), as a count and
    /// in a condition's flat form; a wrong attribute or a set for N is an error at it.
    #[test]
    fn alike_counts_the_values_held_n_times() {
        let deck = crate::ruleset::load_deck("french-52").value.unwrap();
        let names = Names::of(&deck, &[]);
        let mut pile = CardSet::EMPTY;
        for id in [
            "hearts-king",
            "spades-king",
            "clubs-king",
            "hearts-queen",
            "diamonds-queen",
            "spades-ace",
        ] {
            pile.insert(deck.card_by_id(id).unwrap());
        }
        let cx = Context { pile, facts: &[] };
        for (n, held) in [(1, 3), (2, 2), (3, 1), (4, 0)] {
            let p = compile_str(&format!("alike(rank, {n})"), Type::Int, &names).unwrap();
            assert_eq!(p.int(&cx), held, "alike(rank, {n})");
        }
        let three = compile_str("alike(rank, 3) >= 1", Type::Bool, &names).unwrap();
        assert!(three.truth(&cx));
        let four = compile_str("alike(rank, 4) >= 1", Type::Bool, &names).unwrap();
        assert!(!four.truth(&cx));
        let err = compile_str("alike(colour, 3) >= 1", Type::Bool, &names).unwrap_err();
        assert!(
            err[0].message.contains("unknown card attribute `colour`"),
            "{err:?}"
        );
        let err = compile_str("alike(rank, hearts) >= 1", Type::Bool, &names).unwrap_err();
        assert!(err[0].message.contains("alike"), "{err:?}");
    }

    #[test]
    fn flat_forms_match_the_tree() {
        use rand::{RngExt, SeedableRng};
        let deck = crate::ruleset::load_deck("hanafuda").value.unwrap();
        let names = Names::of(&deck, &[]);
        let mut sources: Vec<(String, Type)> = [
            "all(poetry) and all(blue)",
            "count(bright) == 4 and all(rain)",
            "has(clover-boar, maple-deer, peony-butterflies)",
            "any(plain) and count(ribbon) < 3",
            "1 == 1",
            "1 == 2",
            "1 == 1 and any(plain)",
            "all(rain) and all(bright) and any(plain)",
            "count(plain) != 3",
        ]
        .map(|s| (s.to_string(), Type::Bool))
        .into_iter()
        .chain(["5 + count(animal) - 3", "7"].map(|s| (s.to_string(), Type::Int)))
        .collect();
        let bounds = ["(0 - 9223372036854775806 - 2)", "(9223372036854775806 + 1)"];
        for op in ["==", "!=", "<", "<=", ">", ">="] {
            for n in (-2..=14)
                .map(|n| format!("({n})"))
                .chain(bounds.map(String::from))
            {
                for src in [
                    format!("count(ribbon) {op} {n}"),
                    format!("{n} {op} count(ribbon)"),
                    format!("suits_with(2) {op} {n}"),
                    format!("{n} {op} suits_with(3)"),
                    format!("suits_with({}) {op} {n}", op.len() % 6),
                ] {
                    sources.push((src, Type::Bool));
                }
            }
        }
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut flat = 0;
        for (src, ty) in &sources {
            let program = compile_str(src, *ty, &names).unwrap();
            flat += usize::from(!matches!(program.flat, Flat::Tree));
            for _ in 0..200 {
                // Piles of every size: random bits thinned by a random mask.
                let keep = rng.random::<u64>() & rng.random::<u64>() | rng.random::<u64>() & 1;
                let cx = Context {
                    pile: CardSet::low(rng.random::<u64>() & keep) & deck.all(),
                    facts: &[],
                };
                assert_eq!(program.truth(&cx), program.node.truth(&cx), "{src}");
                assert_eq!(program.int(&cx), program.node.int(&cx), "{src}");
            }
        }
        // Most shapes are flat (`!=` and three atoms are not).
        assert!(flat > sources.len() * 3 / 4, "{flat} of {}", sources.len());
    }

    /// Suit counts found lane by lane agree with counting suit by suit, for lanes of every
    /// width, suits not filling their lanes, empty suits and cards outside every suit.
    #[test]
    fn lanes_count_like_suits() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(11);
        for width in [2u32, 4, 8] {
            for _ in 0..50 {
                let lanes = CardSet::CAPACITY as u32 / width;
                let mut suits = vec![CardSet::EMPTY];
                for k in 0..lanes {
                    if rng.random_range(0..4) > 0 {
                        let lane: CardBits = ((1 << width) - 1) << (k * width);
                        suits.push(CardSet(lane & rng.random::<CardBits>()));
                    }
                }
                let Some(found) = Lanes::of(&suits) else {
                    panic!("width {width}: {suits:?}");
                };
                assert!(found.width <= width);
                for _ in 0..20 {
                    let pile = CardSet(rng.random::<CardBits>());
                    for n in -1..=9 {
                        let expected = suits
                            .iter()
                            .filter(|s| i64::from((**s & pile).len()) >= n)
                            .count() as i64;
                        assert_eq!(found.count_at_least(pile, n), expected, "{suits:?} {n}");
                    }
                }
            }
        }
        // The hanafuda deck is listed month by month: nibbles.
        let deck = crate::ruleset::load_deck("hanafuda").value.unwrap();
        let months: Vec<CardSet> = deck.suits.iter().map(|s| s.cards).collect();
        assert_eq!(Lanes::of(&months).map(|l| l.width), Some(4));
        // Suits that straddle lanes, or share one, are counted suit by suit.
        assert_eq!(Lanes::of(&[CardSet(0b0110_0000)]).map(|l| l.width), Some(4));
        assert_eq!(Lanes::of(&[CardSet(0b1_1000_0000)]), None);
        assert_eq!(
            Lanes::of(&[CardSet(0b01), CardSet(0b10)]).map(|l| l.width),
            None
        );
    }

    #[test]
    fn cards_read_of_yaku_shapes() {
        let deck = crate::ruleset::load_deck("hanafuda").value.unwrap();
        let names = Names::of(&deck, &["round"]);
        let kind = |k| deck.kind(k).unwrap().cards;
        let reads = |src, ty| compile_str(src, ty, &names).unwrap().cards_read();
        assert_eq!(
            reads("count(bright - rain) == 4", Type::Bool),
            kind("bright") - kind("rain")
        );
        assert_eq!(
            reads("all(poetry) and all(blue)", Type::Bool),
            kind("poetry") | kind("blue")
        );
        assert_eq!(reads("10 + count(ribbon) - 6", Type::Int), kind("ribbon"));
        assert_eq!(reads("5", Type::Int), CardSet::EMPTY);
        assert_eq!(reads("round == 12", Type::Bool), CardSet::EMPTY);
        // The round's month may be any month.
        assert_eq!(reads("count(month(round)) == 4", Type::Bool), deck.all());
        assert_eq!(reads("count(pile) >= 1", Type::Bool).0, CardBits::MAX);
    }

    /// The fused nodes give the same values as the plain tree, for every pile size.
    #[test]
    fn fused_forms_match_the_plain_meaning() {
        let deck = crate::ruleset::load_deck("hanafuda").value.unwrap();
        let names = Names::of(&deck, &[]);
        let plain = deck.kind("plain").unwrap().cards;
        let cases = [
            ("count(plain) - 9", Type::Int),
            ("5 + count(plain) - 3", Type::Int),
            ("count(plain) >= 10", Type::Bool),
            ("10 <= count(plain)", Type::Bool),
            ("3 > count(plain) - 1", Type::Bool),
            ("count(plain) + 1 == 11", Type::Bool),
            ("all(plain)", Type::Bool),
            ("any(plain)", Type::Bool),
        ];
        for (src, ty) in cases {
            let program = compile_str(src, ty, &names).unwrap();
            for n in 0..=plain.len() as usize {
                let pile: CardSet = plain.iter().take(n).collect();
                let cx = Context { pile, facts: &[] };
                let c = n as i64;
                let expected = match src {
                    "count(plain) - 9" => c - 9,
                    "5 + count(plain) - 3" => c + 2,
                    "count(plain) >= 10" | "10 <= count(plain)" => i64::from(c >= 10),
                    "3 > count(plain) - 1" => i64::from(3 > c - 1),
                    "count(plain) + 1 == 11" => i64::from(c + 1 == 11),
                    "all(plain)" => i64::from(n == plain.len() as usize),
                    _ => i64::from(n > 0),
                };
                let got = match ty {
                    Type::Int => program.int(&cx),
                    _ => i64::from(program.truth(&cx)),
                };
                assert_eq!(got, expected, "{src} with {n} plains");
            }
        }
    }
}
