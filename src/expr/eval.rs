//! Compiled expressions: a tree of typed nodes over bitset card sets, constant-folded at load.
//!
//! Evaluation reads only the pile and the facts; it never parses, allocates or panics (division by
//! zero gives 0, arithmetic wraps).

use super::Type;
use super::ast::BinaryOp;
use crate::deck::CardSet;

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
}

impl Program {
    pub(super) fn new(node: Node, ty: Type) -> Program {
        Program { node, ty }
    }

    /// The expression's type.
    pub fn ty(&self) -> Type {
        self.ty
    }

    /// The value of a number expression (0 for other types).
    pub fn int(&self, cx: &Context) -> i64 {
        self.node.int(cx)
    }

    /// The value of a condition (false for other types).
    pub fn truth(&self, cx: &Context) -> bool {
        self.node.truth(cx)
    }

    /// The value of a card-set expression (empty for other types).
    pub fn set(&self, cx: &Context) -> CardSet {
        self.node.set(cx)
    }

    /// The constant value of a number expression that reads neither pile nor facts.
    pub fn constant_int(&self) -> Option<i64> {
        match self.node {
            Node::Int(n) => Some(n),
            _ => None,
        }
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
    Sum(Box<[i64]>, Box<Node>),
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
}

impl Node {
    /// True when the node reads neither the pile nor a fact.
    fn is_const(&self) -> bool {
        match self {
            Node::Int(_) | Node::Bool(_) | Node::Set(_) => true,
            Node::Pile | Node::Fact(_) => false,
            // Functions of the pile: constant only in what they are applied to.
            Node::Count(_) | Node::All(_) | Node::Any(_) | Node::Sum(..) | Node::SuitsWith(..) => {
                false
            }
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

    /// Replaces a constant subtree by its value, given the type the checker assigned.
    pub(super) fn fold(self) -> Node {
        if !self.is_const() || matches!(self, Node::Int(_) | Node::Bool(_) | Node::Set(_)) {
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

    fn type_of(&self) -> Type {
        match self {
            Node::Int(_)
            | Node::Fact(_)
            | Node::Count(_)
            | Node::Size(_)
            | Node::SuitsWith(..)
            | Node::Sum(..)
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
            | Node::Union(_)
            | Node::Difference(_)
            | Node::Intersection(_) => Type::Set,
            Node::If(p) => p[1].type_of(),
        }
    }

    fn int(&self, cx: &Context) -> i64 {
        match self {
            Node::Int(n) => *n,
            Node::Fact(i) => cx.facts.get(*i).copied().unwrap_or(0),
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
                .fold(0i64, i64::wrapping_add),
            Node::Min(p) => p[0].int(cx).min(p[1].int(cx)),
            Node::Max(p) => p[0].int(cx).max(p[1].int(cx)),
            Node::Neg(a) => a.int(cx).wrapping_neg(),
            Node::Arith(op, p) => {
                let (a, b) = (p[0].int(cx), p[1].int(cx));
                match op {
                    BinaryOp::Add => a.wrapping_add(b),
                    BinaryOp::Sub => a.wrapping_sub(b),
                    BinaryOp::Mul => a.wrapping_mul(b),
                    BinaryOp::Div => a.checked_div(b).unwrap_or(0),
                    BinaryOp::Rem => a.checked_rem(b).unwrap_or(0),
                    _ => 0,
                }
            }
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
            Node::Bool(b) => *b,
            Node::All(s) => cx.pile.contains_all(s.set(cx)),
            Node::Any(s) => !(s.set(cx) & cx.pile).is_empty(),
            Node::Not(a) => !a.truth(cx),
            Node::Or(p) => p[0].truth(cx) || p[1].truth(cx),
            Node::And(p) => p[0].truth(cx) && p[1].truth(cx),
            Node::Cmp(op, p) => {
                let (a, b) = (p[0].int(cx), p[1].int(cx));
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
