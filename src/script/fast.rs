//! A compiled form of the common scoring scripts: rhai's syntax tree translated once into a
//! small tree of this module's own, run on the hand's facts where they lie (no `hand` map is
//! built, `hand.seats[i].tallies.junk` is three look-ups).
//!
//! It covers what settlement scripts are made of: integers, booleans, strings, arrays and maps,
//! `let`, assignment (to a variable or an array element, with `+=` and the like), `if`, `for`
//! over a range or an array, `while`, `break`, `continue`, `return`, the script's own functions,
//! the arithmetic and comparison operators, template strings, and `len`, `contains` and `push`.
//! Anything else is not translated, and the script runs on rhai as before.
//!
//! The result is always rhai's: where rhai would fail (an overflow, an index out of range, a
//! missing property, a value too large, too many operations), or meets a value this module does
//! not model, the run gives up and the caller runs the script on rhai, which gives the result or
//! the error. Scripts are pure, so giving up half-way changes nothing.

use super::{Aliases, FactValue, HandFacts, ScoreOutcome, ScoreStep, fact};
use rhai::{AST, ASTFlags, ASTNode, Dynamic, Expr, Map, Stmt, StmtBlock};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Operations a run may take before it gives up (rhai's limit is far above: a run under this
/// never reaches it).
const MAX_STEPS: u32 = 10_000;
/// Sizes a run's values stay under (half of the sandbox's limits: rhai, which holds the same
/// values, never reaches its own).
const MAX_ARRAY: usize = 512;
const MAX_MAP: usize = 128;
const MAX_STRING: usize = 2_048;
/// Calls deep a run may go (the sandbox allows 32).
const MAX_DEPTH: u32 = 24;
/// Variables a run may hold at once (the sandbox allows 256).
const MAX_VARIABLES: usize = 128;

/// A compiled `score(hand)` with the script's functions.
pub(super) struct Program {
    fns: Vec<Func>,
    entry: usize,
    /// Every property name the program reads: a fact of another name cannot change a run.
    props: std::collections::BTreeSet<String>,
    /// A run met a value or an operation the translation does not model: the script runs on
    /// rhai from then on.
    disabled: AtomicBool,
}

struct Func {
    name: String,
    params: usize,
    /// The body's span in the source, (line, column) of its braces: its statements are found
    /// by position.
    span: ((usize, usize), (usize, usize)),
    body: Vec<S>,
}

/// A constant.
#[derive(Clone, Debug)]
enum C {
    Unit,
    Bool(bool),
    Int(i64),
    Str(Arc<str>),
    Arr(Vec<C>),
}

/// An expression.
#[derive(Debug)]
enum E {
    Const(C),
    /// A variable, by its place in the function's frame.
    Var(usize),
    ArrLit(Vec<E>),
    MapLit(Vec<(Arc<str>, E)>),
    Interp(Vec<E>),
    /// A value followed by properties, indexes and method calls.
    Chain(Box<E>, Vec<Step>),
    /// `v.push(x)` on a variable.
    Push(usize, Box<E>),
    Call(usize, Vec<E>),
    Op(Op, Box<E>, Box<E>),
    Neg(Box<E>),
    Not(Box<E>),
    And(Vec<E>),
    Or(Vec<E>),
    /// A block as an expression (`if` in an expression): its statements and how many
    /// variables it leaves behind to drop.
    Block(Vec<S>),
}

#[derive(Debug)]
enum Step {
    Prop(Arc<str>),
    Index(E),
    Len,
    Contains(E),
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A statement.
#[derive(Debug)]
enum S {
    Let(E),
    Assign(usize, Option<Op>, E),
    AssignIndex(usize, E, Option<Op>, E),
    If(E, Vec<S>, Vec<S>),
    /// `for v in a..b` (`..=` when inclusive): the variable takes the next place.
    ForRange(E, E, bool, Vec<S>),
    ForEach(E, Vec<S>),
    While(E, Vec<S>),
    Expr(E),
    Block(Vec<S>),
    Return(Option<E>),
    Break,
    Continue,
    /// `throw`: rhai's error.
    Fail,
    Noop,
}

/// The translation does not cover a construct.
struct Unsupported;

type T<X> = Result<X, Unsupported>;

/// What a function's body is translated with: its variables' names by place, and the script's
/// functions.
struct Ctx<'f> {
    names: Vec<String>,
    fns: &'f [(String, usize)],
    /// Calls that name a builtin this module implements may not reach a script function of
    /// that name.
    script_names: &'f std::collections::HashSet<String>,
    /// Every property name read (`x.name`).
    props: std::collections::BTreeSet<String>,
}

impl Ctx<'_> {
    fn var(&self, name: &str) -> T<usize> {
        self.names
            .iter()
            .rposition(|n| n == name)
            .ok_or(Unsupported)
    }

    fn block(&mut self, block: &StmtBlock) -> T<Vec<S>> {
        let depth = self.names.len();
        let out = block
            .statements()
            .iter()
            .map(|s| self.stmt(s))
            .collect::<T<Vec<_>>>();
        self.names.truncate(depth);
        out
    }

    fn stmt(&mut self, s: &Stmt) -> T<S> {
        Ok(match s {
            Stmt::Noop(..) => S::Noop,
            Stmt::Var(x, flags, _) => {
                if flags.intersects(ASTFlags::EXPORTED) {
                    return Err(Unsupported);
                }
                let value = self.expr(&x.1)?;
                self.names.push(x.0.name.to_string());
                S::Let(value)
            }
            Stmt::Assignment(x) => {
                let (op, bin) = &**x;
                let op = match op.get_op_assignment_info() {
                    None => None,
                    Some((.., syntax)) => Some(binary_op(syntax).ok_or(Unsupported)?),
                };
                let value = self.expr(&bin.rhs)?;
                match &bin.lhs {
                    Expr::Variable(v, ..) if v.2.is_empty() => {
                        S::Assign(self.var(v.1.as_str())?, op, value)
                    }
                    Expr::Index(ix, flags, _) if flags.intersects(ASTFlags::BREAK) => {
                        match &ix.lhs {
                            Expr::Variable(v, ..) if v.2.is_empty() => S::AssignIndex(
                                self.var(v.1.as_str())?,
                                self.expr(&ix.rhs)?,
                                op,
                                value,
                            ),
                            _ => return Err(Unsupported),
                        }
                    }
                    _ => return Err(Unsupported),
                }
            }
            Stmt::If(x, _) => {
                let cond = self.expr(&x.expr)?;
                S::If(cond, self.block(&x.body)?, self.block(&x.branch)?)
            }
            Stmt::While(x, _) => {
                let cond = match &x.expr {
                    // `loop`.
                    Expr::Unit(..) => E::Const(C::Bool(true)),
                    e => self.expr(e)?,
                };
                S::While(cond, self.block(&x.body)?)
            }
            Stmt::For(x, _) => {
                let (var, counter, flow) = &**x;
                if counter.is_some() {
                    return Err(Unsupported);
                }
                let range = match &flow.expr {
                    Expr::FnCall(f, _)
                        if f.is_operator_call()
                            && f.args.len() == 2
                            && matches!(f.name.as_str(), ".." | "..=") =>
                    {
                        Some((
                            self.expr(&f.args[0])?,
                            self.expr(&f.args[1])?,
                            f.name.as_str() == "..=",
                        ))
                    }
                    Expr::DynamicConstant(d, _) => {
                        if let Some(r) = d.read_lock::<std::ops::Range<i64>>() {
                            Some((E::Const(C::Int(r.start)), E::Const(C::Int(r.end)), false))
                        } else {
                            d.read_lock::<std::ops::RangeInclusive<i64>>().map(|r| {
                                (
                                    E::Const(C::Int(*r.start())),
                                    E::Const(C::Int(*r.end())),
                                    true,
                                )
                            })
                        }
                    }
                    _ => None,
                };
                let iterable = match range {
                    Some(r) => Ok(r),
                    None => Err(self.expr(&flow.expr)?),
                };
                let depth = self.names.len();
                self.names.push(var.name.to_string());
                let body = self.block(&flow.body);
                self.names.truncate(depth);
                let body = body?;
                match iterable {
                    Ok((from, to, inclusive)) => S::ForRange(from, to, inclusive, body),
                    Err(e) => S::ForEach(e, body),
                }
            }
            Stmt::FnCall(f, pos) => S::Expr(self.expr(&Expr::FnCall(f.clone(), *pos))?),
            Stmt::Block(b) => S::Block(self.block(b)?),
            Stmt::Expr(e) => S::Expr(self.expr(e)?),
            Stmt::BreakLoop(None, flags, _) => {
                if flags.intersects(ASTFlags::BREAK) {
                    S::Break
                } else {
                    S::Continue
                }
            }
            Stmt::Return(value, flags, _) => {
                if flags.intersects(ASTFlags::BREAK) {
                    S::Fail
                } else {
                    S::Return(value.as_ref().map(|e| self.expr(e)).transpose()?)
                }
            }
            _ => return Err(Unsupported),
        })
    }

    fn expr(&mut self, e: &Expr) -> T<E> {
        Ok(match e {
            Expr::Unit(..) => E::Const(C::Unit),
            Expr::BoolConstant(b, _) => E::Const(C::Bool(*b)),
            Expr::IntegerConstant(n, _) => E::Const(C::Int(*n)),
            Expr::StringConstant(s, _) => E::Const(C::Str(s.as_str().into())),
            Expr::DynamicConstant(d, _) => E::Const(constant(d).ok_or(Unsupported)?),
            Expr::InterpolatedString(parts, _) => {
                E::Interp(parts.iter().map(|p| self.expr(p)).collect::<T<_>>()?)
            }
            Expr::Array(items, _) => {
                E::ArrLit(items.iter().map(|p| self.expr(p)).collect::<T<_>>()?)
            }
            Expr::Map(x, _) => E::MapLit(
                x.0.iter()
                    .map(|(k, v)| Ok((k.name.as_str().into(), self.expr(v)?)))
                    .collect::<T<_>>()?,
            ),
            Expr::Variable(v, ..) if v.2.is_empty() => E::Var(self.var(v.1.as_str())?),
            Expr::Stmt(b) => E::Block(self.block(b)?),
            Expr::And(x, _) => E::And(x.iter().map(|p| self.expr(p)).collect::<T<_>>()?),
            Expr::Or(x, _) => E::Or(x.iter().map(|p| self.expr(p)).collect::<T<_>>()?),
            Expr::FnCall(f, _) => {
                if !f.namespace.is_empty() || f.capture_parent_scope {
                    return Err(Unsupported);
                }
                let name = f.name.as_str();
                if f.is_operator_call() {
                    match (name, f.args.len()) {
                        ("-", 1) => E::Neg(Box::new(self.expr(&f.args[0])?)),
                        ("!", 1) => E::Not(Box::new(self.expr(&f.args[0])?)),
                        (_, 2) => E::Op(
                            binary_op(name).ok_or(Unsupported)?,
                            Box::new(self.expr(&f.args[0])?),
                            Box::new(self.expr(&f.args[1])?),
                        ),
                        _ => return Err(Unsupported),
                    }
                } else if let Some(i) = self
                    .fns
                    .iter()
                    .position(|(n, p)| n == name && *p == f.args.len())
                {
                    E::Call(i, f.args.iter().map(|a| self.expr(a)).collect::<T<_>>()?)
                } else {
                    if self.script_names.contains(name) {
                        return Err(Unsupported);
                    }
                    match (name, f.args.len()) {
                        ("len", 1) => E::Chain(Box::new(self.expr(&f.args[0])?), vec![Step::Len]),
                        ("contains", 2) => {
                            let on = self.expr(&f.args[0])?;
                            E::Chain(Box::new(on), vec![Step::Contains(self.expr(&f.args[1])?)])
                        }
                        _ => return Err(Unsupported),
                    }
                }
            }
            Expr::Dot(x, flags, _) | Expr::Index(x, flags, _) => {
                if flags.intersects(ASTFlags::NEGATED) {
                    return Err(Unsupported);
                }
                let dot = matches!(e, Expr::Dot(..));
                // `v.push(x)` on a variable: the one mutating call.
                if let Expr::Variable(v, ..) = &x.lhs
                    && dot
                    && let Expr::MethodCall(m, _) = &x.rhs
                    && m.name.as_str() == "push"
                    && m.args.len() == 1
                    && v.2.is_empty()
                {
                    if self.script_names.contains("push") {
                        return Err(Unsupported);
                    }
                    let var = self.var(v.1.as_str())?;
                    return Ok(E::Push(var, Box::new(self.expr(&m.args[0])?)));
                }
                let mut steps = Vec::new();
                self.chain(dot, *flags, &x.rhs, &mut steps)?;
                E::Chain(Box::new(self.expr(&x.lhs)?), steps)
            }
            _ => return Err(Unsupported),
        })
    }

    /// The steps of a chain after its root: `rhs` of a `Dot` (`dot`) or an `Index` node with
    /// the node's `flags` (rhai nests the rest of a chain in the right side of each step).
    fn chain(&mut self, dot: bool, flags: ASTFlags, rhs: &Expr, steps: &mut Vec<Step>) -> T<()> {
        let continues = !flags.intersects(ASTFlags::BREAK);
        match rhs {
            Expr::Dot(x, f, _) | Expr::Index(x, f, _) if continues => {
                if f.intersects(ASTFlags::NEGATED) {
                    return Err(Unsupported);
                }
                steps.push(self.step(dot, &x.lhs)?);
                self.chain(matches!(rhs, Expr::Dot(..)), *f, &x.rhs, steps)
            }
            e => {
                steps.push(self.step(dot, e)?);
                Ok(())
            }
        }
    }

    fn step(&mut self, dot: bool, e: &Expr) -> T<Step> {
        if !dot {
            return Ok(Step::Index(self.expr(e)?));
        }
        match e {
            Expr::Property(p, _) => {
                self.props.insert(p.2.to_string());
                Ok(Step::Prop(p.2.as_str().into()))
            }
            Expr::MethodCall(m, _) => {
                let name = m.name.as_str();
                if self.script_names.contains(name) {
                    return Err(Unsupported);
                }
                match (name, m.args.len()) {
                    ("len", 0) => Ok(Step::Len),
                    ("contains", 1) => Ok(Step::Contains(self.expr(&m.args[0])?)),
                    _ => Err(Unsupported),
                }
            }
            _ => Err(Unsupported),
        }
    }
}

fn binary_op(syntax: &str) -> Option<Op> {
    Some(match syntax {
        "+" | "+=" => Op::Add,
        "-" | "-=" => Op::Sub,
        "*" | "*=" => Op::Mul,
        "/" | "/=" => Op::Div,
        "%" | "%=" => Op::Rem,
        "**" | "**=" => Op::Pow,
        "==" => Op::Eq,
        "!=" => Op::Ne,
        "<" => Op::Lt,
        "<=" => Op::Le,
        ">" => Op::Gt,
        ">=" => Op::Ge,
        _ => return None,
    })
}

fn constant(d: &Dynamic) -> Option<C> {
    if d.is_unit() {
        Some(C::Unit)
    } else if let Ok(b) = d.as_bool() {
        Some(C::Bool(b))
    } else if let Ok(n) = d.as_int() {
        Some(C::Int(n))
    } else if d.is_string() {
        Some(C::Str(d.clone().into_string().ok()?.as_str().into()))
    } else if d.is_array() {
        let a = d.read_lock::<rhai::Array>()?;
        a.iter().map(constant).collect::<Option<_>>().map(C::Arr)
    } else {
        None
    }
}

/// (line, column) of a position, for ordering.
fn at(p: rhai::Position) -> Option<(usize, usize)> {
    Some((p.line()?, p.position().unwrap_or(0)))
}

impl Program {
    /// The compiled form of `fn score(hand)` in `ast`, or `None` when the script uses what the
    /// translation does not cover.
    pub(super) fn compile(ast: &AST) -> Option<Program> {
        if !ast.statements().is_empty() {
            // Statements outside functions run before every call.
            return None;
        }
        let mut fns: Vec<Func> = Vec::new();
        for f in ast.iter_fn_def() {
            if f.this_type.is_some() || f.params.iter().any(|p| p.as_str() == "this") {
                return None;
            }
            fns.push(Func {
                name: f.name.to_string(),
                params: f.params.len(),
                span: (
                    at(f.body.start_position())?,
                    at(f.body.end_position()).unwrap_or((usize::MAX, usize::MAX)),
                ),
                body: Vec::new(),
            });
        }
        let entry = fns
            .iter()
            .position(|f| f.name == super::SCORE_HOOK && f.params == 1)?;
        let table: Vec<(String, usize)> = fns.iter().map(|f| (f.name.clone(), f.params)).collect();
        let script_names: std::collections::HashSet<String> =
            fns.iter().map(|f| f.name.clone()).collect();
        let params: Vec<Vec<String>> = ast
            .iter_fn_def()
            .map(|f| f.params.iter().map(|p| p.to_string()).collect())
            .collect();
        // Each function's top-level statements come in order; the walk hands over every node,
        // so only the top of each path is translated (with its whole subtree).
        let mut ctxs: Vec<Ctx> = params
            .into_iter()
            .map(|names| Ctx {
                names,
                fns: &table,
                script_names: &script_names,
                props: std::collections::BTreeSet::new(),
            })
            .collect();
        let mut bodies: Vec<Vec<S>> = (0..fns.len()).map(|_| Vec::new()).collect();
        let mut current = 0usize;
        let mut ok = true;
        ast.walk(&mut |path: &[ASTNode]| {
            if path.len() != 1 {
                return true;
            }
            let ASTNode::Stmt(stmt) = path[0] else {
                ok = false;
                return false;
            };
            if let Some(p) = at(stmt.position()) {
                match fns.iter().position(|f| f.span.0 <= p && p <= f.span.1) {
                    Some(i) => current = i,
                    None => {
                        ok = false;
                        return false;
                    }
                }
            }
            match ctxs[current].stmt(stmt) {
                Ok(s) => {
                    bodies[current].push(s);
                    true
                }
                Err(Unsupported) => {
                    ok = false;
                    false
                }
            }
        });
        if !ok {
            return None;
        }
        for (f, body) in fns.iter_mut().zip(bodies) {
            f.body = body;
        }
        let props = ctxs.into_iter().flat_map(|c| c.props).collect();
        Some(Program {
            fns,
            entry,
            props,
            disabled: AtomicBool::new(false),
        })
    }

    /// True when no run reads a property named `name` (a run that gives up is run again by
    /// rhai, on the whole facts).
    pub(super) fn never_reads(&self, name: &str) -> bool {
        !self.disabled.load(Ordering::Relaxed) && !self.props.contains(name)
    }

    /// `score(hand)` on `facts`, as rhai would return it; `None` when the run gave up (rhai
    /// must run it).
    ///
    /// With `slim`, `facts` may lack entries whose names no run reads ([`Program::never_reads`]):
    /// the run then gives up on what could tell (a fact copied into a value, a result that is
    /// not a plain outcome), and returns only `Ok`.
    pub(super) fn run(
        &self,
        facts: &HandFacts,
        aliases: &Aliases,
        options: &Map,
        slim: bool,
    ) -> Option<Result<ScoreOutcome, Dynamic>> {
        if self.disabled.load(Ordering::Relaxed) {
            return None;
        }
        let mut run = Run {
            facts,
            aliases,
            options,
            fns: &self.fns,
            vars: Vec::with_capacity(32),
            base: 0,
            steps: std::cell::Cell::new(0),
            depth: 0,
            made: std::cell::Cell::new((0, 0, 0)),
            slim,
        };
        let result = run.call(self.entry, [V::Hand]);
        match result {
            Ok(v) => match outcome(&v) {
                Some(o) => Some(Ok(o)),
                None if slim => None,
                None => v.to_dynamic().map(Err),
            },
            Err(Stop::Unsupported) => {
                self.disabled.store(true, Ordering::Relaxed);
                None
            }
            Err(_) => None,
        }
    }
}

/// The outcome `ScoringScript::outcome` reads from `v`, read from `v` directly; `None` when `v`
/// is not a plain outcome (an error, a value of another type): `outcome` then reads it, and
/// says what is wrong.
fn outcome(v: &V) -> Option<ScoreOutcome> {
    let entries = match v {
        V::Int(n) if (0..=super::MAX_SCRIPT_POINTS).contains(n) => {
            return Some(ScoreOutcome::of_total(*n));
        }
        V::Map(entries) => entries,
        _ => return None,
    };
    let get = |k: &str| {
        entries
            .iter()
            .rev()
            .find(|(n, _)| n.as_ref() == k)
            .map(|(_, v)| v)
    };
    let int = |k: &str| match get(k) {
        None => Some(None),
        Some(V::Int(n)) => Some(Some(*n)),
        Some(_) => None,
    };
    let ints = |k: &str| match get(k) {
        None => Some(Vec::new()),
        Some(V::Arr(items)) => items
            .iter()
            .map(|i| match i {
                V::Int(n) => Some(*n),
                _ => None,
            })
            .collect::<Option<Vec<i64>>>(),
        Some(_) => None,
    };
    let seats = ints("seats")?;
    let winner = int("winner")?;
    let total = match int("total")? {
        Some(t) => t,
        None if !seats.is_empty() => 0,
        None => return None,
    };
    let opponent = int("opponent")?.unwrap_or(0);
    if total < 0 || opponent < 0 {
        return None;
    }
    let steps = match get("steps") {
        None => Vec::new(),
        Some(V::Arr(items)) => items
            .iter()
            .map(|step| {
                let V::Map(m) = step else {
                    return None;
                };
                let get = |k: &str| {
                    m.iter()
                        .rev()
                        .find(|(n, _)| n.as_ref() == k)
                        .map(|(_, v)| v)
                };
                Some(ScoreStep {
                    // Escaped for the terminal, as the checked path does: `score`, the play
                    // screen and replays show it.
                    reason: match get("reason") {
                        None => String::new(),
                        Some(r) => crate::diag::escape_control(r.str()?).into_owned(),
                    },
                    total: match get("total") {
                        Some(V::Int(n)) => *n,
                        None | Some(V::Unit | V::Bool(_) | V::Str(_) | V::Text(_)) => 0,
                        Some(_) => return None,
                    },
                    seat: match get("seat") {
                        Some(V::Int(n)) => usize::try_from(*n).ok(),
                        None | Some(V::Unit | V::Bool(_) | V::Str(_) | V::Text(_)) => None,
                        Some(_) => return None,
                    },
                })
            })
            .collect::<Option<Vec<_>>>()?,
        Some(_) => return None,
    };
    let pays = ints("pays")?;
    if pays.iter().any(|p| *p < 0) {
        return None;
    }
    // Carried values, and points past what a hand may be worth, are left to the checked path
    // (rhai's result read by `outcome`), which reports them.
    let limit = super::MAX_SCRIPT_POINTS;
    let too_many = total > limit
        || opponent > limit
        || pays.iter().any(|p| *p > limit)
        || seats.iter().any(|p| p.saturating_abs() > limit);
    if get("carry").is_some() || too_many {
        return None;
    }
    Some(ScoreOutcome {
        total,
        opponent,
        steps,
        pays,
        seats,
        winner,
        carry: Vec::new(),
    })
}

/// A value while a script runs. Facts are read where they lie.
#[derive(Clone, Debug)]
enum V<'a> {
    Unit,
    Bool(bool),
    Int(i64),
    Str(Arc<str>),
    Text(&'a str),
    Arr(Vec<V<'a>>),
    Map(Vec<(Arc<str>, V<'a>)>),
    /// A fact that is a list or a map.
    Fact(&'a FactValue),
    Hand,
    Options,
}

impl<'a> V<'a> {
    fn of_fact(f: &'a FactValue) -> V<'a> {
        match f {
            FactValue::Int(n) => V::Int(*n),
            FactValue::Bool(b) => V::Bool(*b),
            FactValue::Text(t) => V::Text(t),
            FactValue::List(_) | FactValue::Map(_) => V::Fact(f),
        }
    }

    fn of_const(c: &C) -> V<'a> {
        match c {
            C::Unit => V::Unit,
            C::Bool(b) => V::Bool(*b),
            C::Int(n) => V::Int(*n),
            C::Str(s) => V::Str(Arc::clone(s)),
            C::Arr(items) => V::Arr(items.iter().map(V::of_const).collect()),
        }
    }

    fn str(&self) -> Option<&str> {
        match self {
            V::Str(s) => Some(s),
            V::Text(t) => Some(t),
            _ => None,
        }
    }

    fn to_dynamic(&self) -> Option<Dynamic> {
        Some(match self {
            V::Unit => Dynamic::UNIT,
            V::Bool(b) => (*b).into(),
            V::Int(n) => (*n).into(),
            V::Str(s) => s.as_ref().into(),
            V::Text(t) => (*t).into(),
            V::Arr(items) => Dynamic::from_array(
                items
                    .iter()
                    .map(V::to_dynamic)
                    .collect::<Option<rhai::Array>>()?,
            ),
            V::Map(entries) => {
                let mut m = Map::new();
                for (k, v) in entries {
                    m.insert(k.as_ref().into(), v.to_dynamic()?);
                }
                Dynamic::from_map(m)
            }
            V::Fact(f) => f.to_dynamic(),
            V::Hand | V::Options => return None,
        })
    }

    /// Nested sizes as rhai counts them: array items, map entries, string bytes.
    fn sizes(&self) -> (usize, usize, usize) {
        match self {
            V::Str(s) => (0, 0, s.len()),
            V::Text(t) => (0, 0, t.len()),
            V::Arr(items) => items.iter().fold((items.len(), 0, 0), |a, v| {
                let s = v.sizes();
                (a.0 + s.0, a.1 + s.1, a.2 + s.2)
            }),
            V::Map(entries) => entries.iter().fold((0, entries.len(), 0), |a, (_, v)| {
                let s = v.sizes();
                (a.0 + s.0, a.1 + s.1, a.2 + s.2)
            }),
            _ => (0, 0, 0),
        }
    }
}

/// Why a run stopped early.
enum Stop<'a> {
    /// A construct or value the module does not model.
    Unsupported,
    /// rhai would fail, or a limit was near.
    Fallback,
    Return(V<'a>),
    Break,
    Continue,
}

type R<'a, X> = Result<X, Stop<'a>>;

struct Run<'a, 'p> {
    facts: &'a HandFacts,
    aliases: &'a Aliases,
    options: &'a Map,
    fns: &'p [Func],
    vars: Vec<V<'a>>,
    /// Where the running function's variables start in `vars`.
    base: usize,
    steps: std::cell::Cell<u32>,
    depth: u32,
    /// Array items, map entries and string bytes made or copied so far ([`Run::grow`]).
    made: std::cell::Cell<(usize, usize, usize)>,
    /// The facts may lack entries no run reads (see [`Program::run`]).
    slim: bool,
}

/// Nested sizes of a fact as rhai counts them (see [`V::sizes`]).
fn fact_sizes(f: &FactValue) -> (usize, usize, usize) {
    let add =
        |a: (usize, usize, usize), b: (usize, usize, usize)| (a.0 + b.0, a.1 + b.1, a.2 + b.2);
    match f {
        FactValue::Int(_) | FactValue::Bool(_) => (0, 0, 0),
        FactValue::Text(t) => (0, 0, t.len()),
        FactValue::List(items) => items
            .iter()
            .fold((items.len(), 0, 0), |a, i| add(a, fact_sizes(i))),
        FactValue::Map(entries) => entries
            .iter()
            .fold((0, entries.len(), 0), |a, (_, v)| add(a, fact_sizes(v))),
    }
}

impl<'a, 'p> Run<'a, 'p> {
    /// Counts data made or copied: every value of the run is at most what was made, so while
    /// the counts stay under [`MAX_ARRAY`], [`MAX_MAP`] and [`MAX_STRING`], no value rhai
    /// would hold reaches the sandbox's limits.
    #[inline]
    fn grow(&self, (a, m, s): (usize, usize, usize)) -> R<'a, ()> {
        let made = self.made.get();
        let made = (made.0 + a, made.1 + m, made.2 + s);
        self.made.set(made);
        if made.0 > MAX_ARRAY || made.1 > MAX_MAP || made.2 > MAX_STRING {
            return Err(Stop::Fallback);
        }
        Ok(())
    }

    /// Counts a fact's data when `v`, a fact, is copied into a variable or a value.
    #[inline]
    fn embed(&self, v: &V<'a>) -> R<'a, ()> {
        if let V::Fact(f) = v {
            if self.slim {
                // Facts with entries left out are smaller than rhai's: their size says
                // nothing of the whole facts'.
                return Err(Stop::Fallback);
            }
            self.grow(fact_sizes(f))?;
        }
        Ok(())
    }

    #[inline]
    fn tick(&self) -> R<'a, ()> {
        self.ticks(1)
    }

    /// Counts `n` operations (rhai counts one for each item a `contains` compares).
    #[inline]
    fn ticks(&self, n: usize) -> R<'a, ()> {
        let steps = self
            .steps
            .get()
            .saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
        self.steps.set(steps);
        if steps > MAX_STEPS {
            return Err(Stop::Fallback);
        }
        Ok(())
    }

    fn call(&mut self, f: usize, args: impl IntoIterator<Item = V<'a>>) -> R<'a, V<'a>> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Stop::Fallback);
        }
        // Each function sees only its own frame: the variables from `base` on.
        let (caller, base) = (self.base, self.vars.len());
        self.vars.extend(args);
        if self.vars.len() >= MAX_VARIABLES {
            return Err(Stop::Fallback);
        }
        self.base = base;
        let result = self.block(&self.fns[f].body);
        self.vars.truncate(base);
        self.base = caller;
        self.depth -= 1;
        match result {
            Ok(v) | Err(Stop::Return(v)) => Ok(v),
            // `break` or `continue` outside a loop: rhai's error.
            Err(Stop::Break | Stop::Continue) => Err(Stop::Fallback),
            Err(e) => Err(e),
        }
    }

    /// A block's value: its last statement's; its variables are dropped after it.
    fn block(&mut self, body: &'p [S]) -> R<'a, V<'a>> {
        let depth = self.vars.len();
        let mut value = V::Unit;
        let mut result = Ok(());
        for s in body {
            match self.stmt(s) {
                Ok(v) => value = v,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.vars.truncate(depth);
        result.map(|()| value)
    }

    fn stmt(&mut self, s: &'p S) -> R<'a, V<'a>> {
        self.tick()?;
        match s {
            S::Noop => Ok(V::Unit),
            S::Let(e) => {
                let v = self.expr(e)?;
                self.embed(&v)?;
                if self.vars.len() >= MAX_VARIABLES {
                    return Err(Stop::Fallback);
                }
                self.vars.push(v);
                Ok(V::Unit)
            }
            S::Assign(var, op, e) => {
                let v = self.expr(e)?;
                let v = match op {
                    None => v,
                    Some(op) => binary(*op, &self.vars[self.base + *var], &v)?,
                };
                self.embed(&v)?;
                self.vars[self.base + *var] = v;
                Ok(V::Unit)
            }
            S::AssignIndex(var, idx, op, e) => {
                let v = self.expr(e)?;
                self.embed(&v)?;
                let idx = self.expr(idx)?;
                let V::Int(i) = idx else {
                    return Err(Stop::Unsupported);
                };
                let V::Arr(items) = &mut self.vars[self.base + *var] else {
                    return Err(Stop::Unsupported);
                };
                let slot = usize::try_from(i)
                    .ok()
                    .and_then(|i| items.get_mut(i))
                    .ok_or(Stop::Fallback)?;
                let v = match op {
                    None => v,
                    Some(op) => binary(*op, slot, &v)?,
                };
                *slot = v;
                Ok(V::Unit)
            }
            S::If(cond, then, otherwise) => match self.expr(cond)? {
                V::Bool(true) => self.block(then),
                V::Bool(false) => self.block(otherwise),
                _ => Err(Stop::Fallback),
            },
            S::ForRange(from, to, inclusive, body) => {
                let (V::Int(from), V::Int(to)) = (self.expr(from)?, self.expr(to)?) else {
                    return Err(Stop::Unsupported);
                };
                let end = if *inclusive {
                    to.checked_add(1).ok_or(Stop::Unsupported)?
                } else {
                    to
                };
                let mut i = from;
                while i < end {
                    if self.iteration(V::Int(i), body)? {
                        break;
                    }
                    i += 1;
                }
                Ok(V::Unit)
            }
            S::ForEach(e, body) => {
                match self.expr(e)? {
                    V::Arr(items) => {
                        for v in items {
                            if self.iteration(v, body)? {
                                break;
                            }
                        }
                    }
                    V::Fact(FactValue::List(items)) => {
                        for f in items {
                            if self.iteration(V::of_fact(f), body)? {
                                break;
                            }
                        }
                    }
                    _ => return Err(Stop::Unsupported),
                }
                Ok(V::Unit)
            }
            S::While(cond, body) => {
                loop {
                    match self.expr(cond)? {
                        V::Bool(true) => {}
                        V::Bool(false) => break,
                        _ => return Err(Stop::Fallback),
                    }
                    self.tick()?;
                    match self.block(body) {
                        Ok(_) | Err(Stop::Continue) => {}
                        Err(Stop::Break) => break,
                        Err(e) => return Err(e),
                    }
                }
                Ok(V::Unit)
            }
            S::Expr(e) => self.expr(e),
            S::Block(b) => self.block(b),
            S::Return(e) => {
                let v = match e {
                    Some(e) => self.expr(e)?,
                    None => V::Unit,
                };
                Err(Stop::Return(v))
            }
            S::Break => Err(Stop::Break),
            S::Continue => Err(Stop::Continue),
            S::Fail => Err(Stop::Fallback),
        }
    }

    /// One pass of a `for` body with the loop variable `v`: true on `break`.
    fn iteration(&mut self, v: V<'a>, body: &'p [S]) -> R<'a, bool> {
        self.tick()?;
        if self.vars.len() >= MAX_VARIABLES {
            return Err(Stop::Fallback);
        }
        self.vars.push(v);
        let result = self.block(body);
        self.vars.pop();
        match result {
            Ok(_) | Err(Stop::Continue) => Ok(false),
            Err(Stop::Break) => Ok(true),
            Err(e) => Err(e),
        }
    }

    fn expr(&mut self, e: &'p E) -> R<'a, V<'a>> {
        self.tick()?;
        match e {
            E::Const(c @ C::Arr(_)) => {
                let v = V::of_const(c);
                self.grow(v.sizes())?;
                Ok(v)
            }
            E::Const(c) => Ok(V::of_const(c)),
            E::Var(i) => {
                let v = &self.vars[self.base + *i];
                if matches!(v, V::Arr(_) | V::Map(_)) {
                    self.grow(v.sizes())?;
                }
                Ok(v.clone())
            }
            E::ArrLit(items) => {
                let mut a = Vec::with_capacity(items.len());
                for i in items {
                    let v = self.expr(i)?;
                    self.embed(&v)?;
                    a.push(v);
                }
                self.grow((a.len(), 0, 0))?;
                Ok(V::Arr(a))
            }
            E::MapLit(entries) => {
                let mut m = Vec::with_capacity(entries.len());
                for (k, e) in entries {
                    let v = self.expr(e)?;
                    self.embed(&v)?;
                    m.push((Arc::clone(k), v));
                }
                self.grow((0, m.len(), 0))?;
                Ok(V::Map(m))
            }
            E::Interp(parts) => {
                let mut s = String::new();
                for p in parts {
                    match self.expr(p)? {
                        V::Str(t) => s.push_str(&t),
                        V::Text(t) => s.push_str(t),
                        V::Int(n) => {
                            use std::fmt::Write;
                            let _ = write!(s, "{n}");
                        }
                        V::Bool(b) => s.push_str(if b { "true" } else { "false" }),
                        _ => return Err(Stop::Unsupported),
                    }
                }
                self.grow((0, 0, s.len()))?;
                Ok(V::Str(s.into()))
            }
            E::Chain(root, steps) => {
                if let E::Var(i) = **root {
                    // Read in place: a variable's array is not copied to read one item. Indexes
                    // other than a variable or a constant are computed first.
                    let eager = eager(steps);
                    let mut idx = Vec::new();
                    for s in steps {
                        if let Step::Index(e) | Step::Contains(e) = s
                            && (eager || self.simple(e).is_none())
                        {
                            idx.push(self.expr(e)?);
                        }
                    }
                    let mut idx = idx.into_iter();
                    let mut cur = std::borrow::Cow::Borrowed(&self.vars[self.base + i]);
                    for s in steps {
                        cur = self.apply(cur, s, eager, &mut idx)?;
                    }
                    if let std::borrow::Cow::Borrowed(v @ (V::Arr(_) | V::Map(_))) = cur {
                        // A copy of part of a variable's value.
                        let (v, sizes) = (v.clone(), v.sizes());
                        self.grow(sizes)?;
                        return Ok(v);
                    }
                    Ok(cur.into_owned())
                } else {
                    let base = self.expr(root)?;
                    let eager = eager(steps);
                    let mut idx = Vec::new();
                    for s in steps {
                        if let Step::Index(e) | Step::Contains(e) = s
                            && (eager || self.simple(e).is_none())
                        {
                            idx.push(self.expr(e)?);
                        }
                    }
                    let mut idx = idx.into_iter();
                    let mut cur = std::borrow::Cow::Owned(base);
                    for s in steps {
                        cur = self.apply(cur, s, eager, &mut idx)?;
                    }
                    Ok(cur.into_owned())
                }
            }
            E::Push(var, e) => {
                let v = self.expr(e)?;
                self.embed(&v)?;
                self.grow((1, 0, 0))?;
                let V::Arr(items) = &mut self.vars[self.base + *var] else {
                    return Err(Stop::Unsupported);
                };
                items.push(v);
                Ok(V::Unit)
            }
            E::Call(f, args) => {
                let args = args
                    .iter()
                    .map(|a| self.expr(a))
                    .collect::<R<'a, Vec<_>>>()?;
                if args.len() != self.fns[*f].params {
                    return Err(Stop::Unsupported);
                }
                self.call(*f, args)
            }
            E::Op(op, a, b) => {
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                binary(*op, &a, &b)
            }
            E::Neg(a) => match self.expr(a)? {
                V::Int(n) => n.checked_neg().map(V::Int).ok_or(Stop::Fallback),
                _ => Err(Stop::Unsupported),
            },
            E::Not(a) => match self.expr(a)? {
                V::Bool(b) => Ok(V::Bool(!b)),
                _ => Err(Stop::Unsupported),
            },
            E::And(items) => {
                for i in items {
                    match self.expr(i)? {
                        V::Bool(true) => {}
                        V::Bool(false) => return Ok(V::Bool(false)),
                        _ => return Err(Stop::Fallback),
                    }
                }
                Ok(V::Bool(true))
            }
            E::Or(items) => {
                for i in items {
                    match self.expr(i)? {
                        V::Bool(false) => {}
                        V::Bool(true) => return Ok(V::Bool(true)),
                        _ => return Err(Stop::Fallback),
                    }
                }
                Ok(V::Bool(false))
            }
            E::Block(b) => self.block(b),
        }
    }

    /// The value of a variable or a scalar constant, read without a step of its own (an index
    /// or an argument in a chain); `None` for other expressions.
    #[inline]
    fn simple(&self, e: &E) -> Option<V<'a>> {
        match e {
            E::Var(i) => match &self.vars[self.base + *i] {
                v @ (V::Int(_) | V::Bool(_) | V::Text(_) | V::Str(_) | V::Unit) => Some(v.clone()),
                _ => None,
            },
            E::Const(c @ (C::Int(_) | C::Bool(_) | C::Str(_) | C::Unit)) => Some(V::of_const(c)),
            _ => None,
        }
    }

    /// An index or argument of a chain: computed before the chain was walked when `eager`
    /// or when it is not [`Run::simple`].
    #[inline]
    fn index_value(
        &self,
        e: &E,
        eager: bool,
        idx: &mut impl Iterator<Item = V<'a>>,
    ) -> Option<V<'a>> {
        if eager {
            idx.next()
        } else {
            self.simple(e).or_else(|| idx.next())
        }
    }

    /// One step of a chain on `cur`; index and argument values come from `idx`, in order.
    fn apply<'c>(
        &self,
        cur: std::borrow::Cow<'c, V<'a>>,
        step: &Step,
        eager: bool,
        idx: &mut impl Iterator<Item = V<'a>>,
    ) -> R<'a, std::borrow::Cow<'c, V<'a>>> {
        use std::borrow::Cow;
        match step {
            Step::Prop(name) => match cur {
                Cow::Borrowed(V::Map(entries)) => entries
                    .iter()
                    .rev()
                    .find(|(k, _)| k == name)
                    .map(|(_, v)| Cow::Borrowed(v))
                    .ok_or(Stop::Fallback),
                Cow::Owned(V::Map(entries)) => entries
                    .into_iter()
                    .rev()
                    .find(|(k, _)| k == name)
                    .map(|(_, v)| Cow::Owned(v))
                    .ok_or(Stop::Fallback),
                ref c => match &**c {
                    V::Fact(FactValue::Map(entries)) => entries
                        .iter()
                        .rev()
                        .find(|(k, _)| k.as_str() == name.as_ref())
                        .map(|(_, v)| Cow::Owned(V::of_fact(v)))
                        .ok_or(Stop::Fallback),
                    V::Hand => self.hand(name).map(Cow::Owned),
                    V::Options => match self.options.get(name.as_ref()) {
                        None => Err(Stop::Fallback),
                        Some(d) => {
                            if let Ok(n) = d.as_int() {
                                Ok(Cow::Owned(V::Int(n)))
                            } else if let Ok(b) = d.as_bool() {
                                Ok(Cow::Owned(V::Bool(b)))
                            } else {
                                Err(Stop::Unsupported)
                            }
                        }
                    },
                    _ => Err(Stop::Unsupported),
                },
            },
            Step::Index(e) => {
                let Some(V::Int(i)) = self.index_value(e, eager, idx) else {
                    return Err(Stop::Unsupported);
                };
                let i = usize::try_from(i).map_err(|_| Stop::Fallback)?;
                match cur {
                    Cow::Borrowed(V::Arr(items)) => {
                        items.get(i).map(Cow::Borrowed).ok_or(Stop::Fallback)
                    }
                    Cow::Owned(V::Arr(mut items)) => {
                        if i < items.len() {
                            Ok(Cow::Owned(items.swap_remove(i)))
                        } else {
                            Err(Stop::Fallback)
                        }
                    }
                    ref c => match &**c {
                        V::Fact(FactValue::List(items)) => items
                            .get(i)
                            .map(|f| Cow::Owned(V::of_fact(f)))
                            .ok_or(Stop::Fallback),
                        _ => Err(Stop::Unsupported),
                    },
                }
            }
            Step::Len => match &*cur {
                V::Arr(items) => Ok(Cow::Owned(V::Int(items.len() as i64))),
                V::Fact(FactValue::List(items)) => Ok(Cow::Owned(V::Int(items.len() as i64))),
                _ => Err(Stop::Unsupported),
            },
            Step::Contains(e) => {
                let x = self.index_value(e, eager, idx).ok_or(Stop::Unsupported)?;
                let found = match &*cur {
                    V::Arr(items) => {
                        self.ticks(items.len())?;
                        let mut found = false;
                        for v in items {
                            if equal(v, &x)? {
                                found = true;
                                break;
                            }
                        }
                        found
                    }
                    V::Fact(FactValue::List(items)) => {
                        self.ticks(items.len())?;
                        let mut found = false;
                        for f in items {
                            if equal(&V::of_fact(f), &x)? {
                                found = true;
                                break;
                            }
                        }
                        found
                    }
                    _ => return Err(Stop::Unsupported),
                };
                Ok(Cow::Owned(V::Bool(found)))
            }
        }
    }

    /// `hand.<name>`, as the map rhai is given holds it (see `facts_to_map`: later keys
    /// replace earlier ones).
    fn hand(&self, name: &str) -> R<'a, V<'a>> {
        let f = self.facts;
        Ok(match name {
            "options" => V::Options,
            "table_count" => V::Int(f.table_count),
            "round" => V::Int(f.round),
            "rounds" => V::Int(f.rounds),
            "dealer" => V::Bool(f.dealer),
            "instant" => V::Bool(f.instant),
            "exhausted" => V::Bool(f.exhausted),
            _ => {
                if let Some((_, v)) = f.extra.iter().rev().find(|(n, _)| *n == name) {
                    return Ok(V::of_fact(v));
                }
                let calls = [
                    f.calls_self,
                    f.calls_opponent,
                    f.calls_self + f.calls_opponent,
                ];
                if let Some((_, i)) = self.aliases.iter().rev().find(|(a, _)| a == name) {
                    return Ok(V::Int(calls[i - fact::CALLS_SELF]));
                }
                match name {
                    "calls_self" => V::Int(calls[0]),
                    "calls_opponent" => V::Int(calls[1]),
                    "calls" => V::Int(calls[2]),
                    "base" => V::Int(f.base),
                    "yaku" => {
                        let v = V::Arr(
                            f.yaku
                                .iter()
                                .map(|y| {
                                    V::Map(vec![
                                        ("id".into(), V::Str(y.id.as_str().into())),
                                        ("name".into(), V::Str(y.name.as_str().into())),
                                        ("points".into(), V::Int(y.points)),
                                    ])
                                })
                                .collect(),
                        );
                        self.grow(v.sizes())?;
                        v
                    }
                    _ => return Err(Stop::Fallback),
                }
            }
        })
    }
}

/// True when an index or argument of `steps` is more than a variable or a constant: all are
/// then computed, in order, before the chain is walked (one may change a variable another
/// reads).
fn eager(steps: &[Step]) -> bool {
    steps.iter().any(|s| {
        matches!(s, Step::Index(e) | Step::Contains(e) if !matches!(e, E::Var(_) | E::Const(_)))
    })
}

/// `a == b` for the values rhai compares built in.
fn equal<'a>(a: &V<'a>, b: &V<'a>) -> R<'a, bool> {
    Ok(match (a, b) {
        (V::Int(x), V::Int(y)) => x == y,
        (V::Bool(x), V::Bool(y)) => x == y,
        _ => match (a.str(), b.str()) {
            (Some(x), Some(y)) => x == y,
            _ => return Err(Stop::Unsupported),
        },
    })
}

fn binary<'a>(op: Op, a: &V<'a>, b: &V<'a>) -> R<'a, V<'a>> {
    if let (V::Int(x), V::Int(y)) = (a, b) {
        let (x, y) = (*x, *y);
        let int = |r: Option<i64>| r.map(V::Int).ok_or(Stop::Fallback);
        return match op {
            Op::Add => int(x.checked_add(y)),
            Op::Sub => int(x.checked_sub(y)),
            Op::Mul => int(x.checked_mul(y)),
            Op::Div => int(x.checked_div(y)),
            Op::Rem => int(x.checked_rem(y)),
            Op::Pow => int(u32::try_from(y).ok().and_then(|y| x.checked_pow(y))),
            Op::Eq => Ok(V::Bool(x == y)),
            Op::Ne => Ok(V::Bool(x != y)),
            Op::Lt => Ok(V::Bool(x < y)),
            Op::Le => Ok(V::Bool(x <= y)),
            Op::Gt => Ok(V::Bool(x > y)),
            Op::Ge => Ok(V::Bool(x >= y)),
        };
    }
    match op {
        Op::Eq => equal(a, b).map(V::Bool),
        Op::Ne => equal(a, b).map(|e| V::Bool(!e)),
        _ => Err(Stop::Unsupported),
    }
}
