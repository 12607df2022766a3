//! The expression syntax tree, with byte spans relative to the expression text.

use std::fmt;
use std::ops::Range;

/// A parsed expression node.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What the node is.
    pub kind: ExprKind,
    /// Where it is in the expression text.
    pub span: Range<usize>,
}

impl Expr {
    /// How many nodes the tree has, and the names it uses (each once per use), for the bound on
    /// what a `[define]` expands to.
    pub fn size_and_names(&self) -> (usize, Vec<&str>) {
        let mut names = Vec::new();
        let mut size = 0;
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            size += 1;
            match &e.kind {
                ExprKind::Number(_) | ExprKind::Bool(_) => {}
                ExprKind::Name(n) => names.push(n.as_str()),
                ExprKind::Call { args, .. } => stack.extend(args),
                ExprKind::Unary(_, a) => stack.push(a),
                ExprKind::Binary(_, a, b) => stack.extend([&**a, &**b]),
                ExprKind::If(c, a, b) => stack.extend([&**c, &**a, &**b]),
            }
        }
        (size, names)
    }
}

/// The kinds of expression node.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer literal.
    Number(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A name: kind, suit, card, fact or attribute.
    Name(String),
    /// A function call.
    Call {
        /// The function's name.
        name: String,
        /// The span of the name.
        name_span: Range<usize>,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// A prefix operator.
    Unary(UnaryOp, Box<Expr>),
    /// An infix operator.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
}

/// Prefix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `not`
    Not,
    /// `-`
    Neg,
}

/// Infix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `or`
    Or,
    /// `and`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `&`
    Inter,
}

impl BinaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Inter => "&",
        }
    }
}

/// Prints the expression back as source, fully parenthesized, so that it parses to the same tree.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Number(n) => write!(f, "{n}"),
            ExprKind::Bool(b) => write!(f, "{b}"),
            ExprKind::Name(n) => write!(f, "{n}"),
            ExprKind::Call { name, args, .. } => {
                write!(f, "{name}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{a}")?;
                }
                write!(f, ")")
            }
            ExprKind::Unary(UnaryOp::Not, e) => write!(f, "(not {e})"),
            ExprKind::Unary(UnaryOp::Neg, e) => write!(f, "(-{e})"),
            ExprKind::Binary(op, a, b) => write!(f, "({a} {} {b})", op.symbol()),
            ExprKind::If(c, a, b) => write!(f, "(if {c} then {a} else {b})"),
        }
    }
}

impl Expr {
    /// True when both trees are the same, ignoring spans.
    pub fn same_tree(&self, other: &Expr) -> bool {
        use ExprKind::*;
        match (&self.kind, &other.kind) {
            (Number(a), Number(b)) => a == b,
            (Name(a), Name(b)) => a == b,
            (
                Call {
                    name: a, args: x, ..
                },
                Call {
                    name: b, args: y, ..
                },
            ) => a == b && x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.same_tree(q)),
            (Unary(o, a), Unary(p, b)) => o == p && a.same_tree(b),
            (Binary(o, a, b), Binary(p, c, d)) => o == p && a.same_tree(c) && b.same_tree(d),
            (If(a, b, c), If(d, e, g)) => a.same_tree(d) && b.same_tree(e) && c.same_tree(g),
            _ => false,
        }
    }
}
