//! Name resolution and type checking: a syntax tree becomes a [`Program`] or a list of every error.

use super::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use super::eval::{Node, Program};
use super::hand::{self, HandFn};
use super::{ExprError, Type};
use crate::deck::{CardSet, Deck};
use crate::diag::did_you_mean;

/// What names mean in an expression: the deck's kinds, suits, cards and attributes, and the facts
/// the game core provides.
pub struct Names<'a> {
    /// The deck (after the ruleset's changes to card kinds).
    pub deck: &'a Deck,
    /// The facts the core fills in, by position (`round`, `rounds`, ...).
    pub facts: &'a [&'a str],
    /// Named expressions usable by name (a ruleset's options and tallies), compiled in the same
    /// scope.
    pub defs: &'a [(String, Program)],
    /// Named sub-expressions (`[define]`), compiled where they are used, in the scope of the use;
    /// sorted by name (looked up by binary search: a file may hold thousands).
    pub macros: &'a [(String, Expr)],
    /// The facts among `facts` that are values carried from the last hand (`[[carry]]`),
    /// each within [`crate::ruleset::CARRY_LIMIT`].
    pub carried: &'a [String],
}

impl<'a> Names<'a> {
    /// The values the core gives fact `f`, for the overflow check.
    pub fn fact_range(&self, f: &str) -> (i64, i64) {
        if self.carried.iter().any(|c| c == f) {
            (-crate::ruleset::CARRY_LIMIT, crate::ruleset::CARRY_LIMIT)
        } else {
            crate::ruleset::scope::fact_range(f)
        }
    }

    /// The names of a deck and `facts` alone, without definitions or sub-expressions.
    pub fn of(deck: &'a Deck, facts: &'a [&'a str]) -> Names<'a> {
        Names {
            deck,
            facts,
            defs: &[],
            macros: &[],
            carried: &[],
        }
    }
}

/// The functions of the language, with their signatures, for messages and docs.
pub const FUNCTIONS: &[(&str, &str)] = &[
    ("count", "count(SET): how many cards of SET the pile holds"),
    ("has", "has(SET, ...): the pile holds every card given"),
    ("all", "all(SET): the pile holds every card of SET"),
    ("any", "any(SET): the pile holds at least one card of SET"),
    ("size", "size(SET): how many cards SET has in the deck"),
    ("suit", "suit(N): the cards of the N-th suit"),
    (
        "sum",
        "sum(ATTRIBUTE) or sum(ATTRIBUTE, SET): total of a card attribute over the pile",
    ),
    (
        "best",
        "best(ATTRIBUTE, SET): the highest value of a card attribute among the pile's cards of SET (0 when it holds none)",
    ),
    (
        "suits_with",
        "suits_with(N) or suits_with(N, WILD): how many suits the pile holds N or more cards of, the pile's cards of WILD counting in every suit (`suits_with(5, joker) >= 1`: a flush with the joker wild)",
    ),
    (
        "in_suits_with",
        "in_suits_with(N): the pile's cards of the suits it holds N or more cards of (`take = \"in_suits_with(4)\"`: a dealt four of a month)",
    ),
    (
        "alike",
        "alike(ATTRIBUTE, N): how many values of a card attribute the pile holds N or more cards of (`alike(rank, 3) >= 1`: three cards of one rank)",
    ),
    (
        "run",
        "run(ATTRIBUTE, N) or run(ATTRIBUTE, N, WILD): the highest value that ends N cards of consecutive values of a card attribute in the pile, the cards of WILD standing for any value; 0 when there is none (`run(high, 5, joker) > 0`: a straight)",
    ),
    (
        "suited_run",
        "suited_run(ATTRIBUTE, N) or suited_run(ATTRIBUTE, N, WILD): as `run`, among the pile's cards of one suit (a straight flush)",
    ),
    (
        "tiebreak",
        "tiebreak(ATTRIBUTE, N): the pile's values of a card attribute as one number to compare, the values held most often first and higher first among those held as often, the first N cards (two pair by the higher pair, then the lower, then the odd card)",
    ),
    ("min", "min(A, B): the smaller number"),
    ("max", "max(A, B): the larger number"),
];

/// The name of the pile being scored: a player's captures, a hand of tiles, the table.
pub const PILE: &str = "pile";

/// Checks `expr` against `names` and compiles it; `want` is the type the context needs.
pub fn compile(expr: &Expr, want: Type, names: &Names) -> Result<Program, Vec<ExprError>> {
    let mut errors = Vec::new();
    let checker = Checker {
        names,
        expanded: Default::default(),
    };
    let compiled = checker.expr(expr, &mut errors);
    if let Some((node, ty)) = compiled {
        if ty != want {
            errors.push(type_mismatch(expr, want, ty));
        } else if errors.is_empty() {
            let program = Program::new(node, ty);
            let facts: Vec<(i64, i64)> = names.facts.iter().map(|f| names.fact_range(f)).collect();
            match program.bounds(&facts) {
                Ok(_) => return Ok(program),
                Err(reach) => {
                    errors.push(overflow(expr, reach, names, program.reads_facts()));
                }
            }
        }
    }
    Err(errors)
}

/// Checks `expr` against `names` and returns its type (a definition, checked before any use).
pub fn check(expr: &Expr, names: &Names) -> Result<Type, Vec<ExprError>> {
    let mut errors = Vec::new();
    let checker = Checker {
        names,
        expanded: Default::default(),
    };
    match checker.expr(expr, &mut errors) {
        Some((_, ty)) if errors.is_empty() => Ok(ty),
        _ => Err(errors),
    }
}

/// The error for an expression with a part that could leave the 64-bit range (`reach` is how
/// far it could go): refused at load, so evaluation never overflows.
fn overflow(expr: &Expr, reach: (i128, i128), names: &Names, reads_facts: bool) -> ExprError {
    let far = if reach.1 > i128::from(i64::MAX) {
        reach.1
    } else {
        reach.0
    };
    let facts: Vec<String> = names
        .facts
        .iter()
        .filter(|_| reads_facts)
        .filter_map(|f| {
            let (lo, hi) = names.fact_range(f);
            (hi < i64::MAX).then(|| format!("`{f}` {lo} to {hi}"))
        })
        .collect();
    let with = if facts.is_empty() {
        String::new()
    } else {
        format!(" (with {})", facts.join(", "))
    };
    ExprError::new(
        format!(
            "this can overflow: a number computed in it can reach {far}{with}, beyond the \
             64-bit range of -9223372036854775808 to 9223372036854775807"
        ),
        expr.span.clone(),
    )
    .with_help(Some(
        "numbers are checked when the rules load so that they never wrap around to the other sign; use smaller numbers".into(),
    ))
}

fn type_mismatch(expr: &Expr, want: Type, got: Type) -> ExprError {
    let help = match (want, got) {
        (Type::Bool, Type::Set) => Some("use `all(...)` or `any(...)` to test a card set".into()),
        (Type::Int, Type::Set) => Some("use `count(...)` to count the cards of a set".into()),
        (Type::Bool, Type::Int) => Some("compare the number, as in `count(x) >= 5`".into()),
        _ => None,
    };
    ExprError::new(
        format!("expected {}, found {}", want.describe(), got.describe()),
        expr.span.clone(),
    )
    .with_help(help)
}

struct Checker<'a> {
    names: &'a Names<'a>,
    /// Each definition (`[define]`, by index) compiled once per expression, with its first
    /// error: a definition used many times is checked once and its tree copied.
    expanded: std::cell::RefCell<std::collections::HashMap<usize, Result<Typed, ExprError>>>,
}

type Typed = Option<(Node, Type)>;

impl Checker<'_> {
    fn expr(&self, e: &Expr, errors: &mut Vec<ExprError>) -> Typed {
        match &e.kind {
            ExprKind::Number(n) => {
                if *n == i64::MIN {
                    errors.push(ExprError::new("number is too large", e.span.clone()));
                    return None;
                }
                Some((Node::Int(*n), Type::Int))
            }
            ExprKind::Bool(b) => Some((Node::Bool(*b), Type::Bool)),
            ExprKind::Name(name) => self.name(name, e, errors),
            ExprKind::Call {
                name,
                name_span,
                args,
            } => self.call(name, name_span, args, e, errors),
            ExprKind::Unary(op, operand) => {
                let (node, ty) = self.expr(operand, errors)?;
                let want = match op {
                    UnaryOp::Not => Type::Bool,
                    UnaryOp::Neg => Type::Int,
                };
                if ty != want {
                    errors.push(type_mismatch(operand, want, ty));
                    return None;
                }
                let node = match op {
                    UnaryOp::Not => Node::Not(Box::new(node)),
                    UnaryOp::Neg => Node::Neg(Box::new(node)),
                };
                Some((node.fold(), want))
            }
            ExprKind::Binary(op, a, b) => {
                let left = self.expr(a, errors);
                let right = self.expr(b, errors);
                let (left, right) = (left?, right?);
                binary(*op, left, right, e, errors)
            }
            ExprKind::If(c, a, b) => {
                let cond = self.expr(c, errors);
                let then = self.expr(a, errors);
                let otherwise = self.expr(b, errors);
                let ((cn, ct), (an, at), (bn, bt)) = (cond?, then?, otherwise?);
                if ct != Type::Bool {
                    errors.push(type_mismatch(c, Type::Bool, ct));
                    return None;
                }
                if at != bt {
                    errors.push(
                        ExprError::new(
                            format!(
                                "the branches of `if` differ: {} and {}",
                                at.describe(),
                                bt.describe()
                            ),
                            e.span.clone(),
                        )
                        .with_help(Some(
                            "both branches must be numbers, or both conditions, or both card sets"
                                .into(),
                        )),
                    );
                    return None;
                }
                Some((Node::If(Box::new([cn, an, bn])).fold(), at))
            }
        }
    }

    fn name(&self, name: &str, e: &Expr, errors: &mut Vec<ExprError>) -> Typed {
        let deck = self.names.deck;
        if name == PILE {
            return Some((Node::Pile, Type::Set));
        }
        if let Some(i) = self.names.facts.iter().position(|f| *f == name) {
            return Some((Node::Fact(i), Type::Int));
        }
        if let Some((_, p)) = self.names.defs.iter().find(|(n, _)| n == name) {
            return Some((p.node().clone(), p.ty()));
        }
        if let Ok(i) = self
            .names
            .macros
            .binary_search_by(|(n, _)| n.as_str().cmp(name))
        {
            let cached = self.expanded.borrow().get(&i).cloned();
            let outcome = match cached {
                Some(outcome) => outcome,
                None => {
                    let body = &self.names.macros[i].1;
                    let mut inner = Vec::new();
                    let compiled = self.expr(body, &mut inner);
                    let outcome = match inner.into_iter().next() {
                        None => Ok(compiled),
                        Some(first) => Err(first),
                    };
                    self.expanded.borrow_mut().insert(i, outcome.clone());
                    outcome
                }
            };
            return match outcome {
                Ok(typed) => typed,
                Err(first) => {
                    errors.push(
                        ExprError::new(
                            format!(
                                "`{name}` (from `[define]`) cannot be used here: {}",
                                first.message
                            ),
                            e.span.clone(),
                        )
                        .with_help(first.help),
                    );
                    None
                }
            };
        }
        if let Some(k) = deck.kind(name) {
            return Some((Node::Set(k.cards), Type::Set));
        }
        if let Some(s) = deck.suits.iter().find(|s| s.id == name) {
            return Some((Node::Set(s.cards), Type::Set));
        }
        if let Some(c) = deck.card_by_id(name) {
            return Some((Node::Set(CardSet::single(c)), Type::Set));
        }
        if deck.attributes.iter().any(|a| a.id == name) {
            errors.push(
                ExprError::new(
                    format!("`{name}` is a card attribute, not a value"),
                    e.span.clone(),
                )
                .with_help(Some(format!(
                    "use `sum({name})` to add it up over the pile"
                ))),
            );
            return None;
        }
        if self.is_function(name) {
            errors.push(
                ExprError::new(format!("`{name}` is a function"), e.span.clone())
                    .with_help(Some(format!("call it: `{name}(...)`"))),
            );
            return None;
        }
        let help = self
            .difference_hint(name)
            .or_else(|| did_you_mean(name, self.all_names()));
        // A fact that other places provide: say what this place knows instead.
        if crate::ruleset::scope::ALL
            .iter()
            .any(|(_, facts)| facts.contains(&name))
        {
            let here = if self.names.facts.is_empty() {
                "no facts are known here, only the pile's cards, kinds and suits".to_string()
            } else {
                let list: Vec<String> = self.names.facts.iter().map(|f| format!("`{f}`")).collect();
                format!("the facts known here are {}", list.join(", "))
            };
            let places: Vec<&str> = crate::ruleset::scope::ALL
                .iter()
                .filter(|(_, facts)| facts.contains(&name))
                .map(|(place, _)| *place)
                .collect();
            errors.push(
                ExprError::new(
                    format!("the fact `{name}` is not known here"),
                    e.span.clone(),
                )
                .with_help(Some(format!(
                    "{here}; `{name}` is known in {}",
                    places.join(", ")
                ))),
            );
            return None;
        }
        let help = help.or_else(|| Some(self.names_here()));
        errors
            .push(ExprError::new(format!("unknown name `{name}`"), e.span.clone()).with_help(help));
        None
    }

    /// What names this place knows, for an unknown name without a close match.
    fn names_here(&self) -> String {
        let deck = self.names.deck;
        let list = |names: Vec<&str>| {
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut parts = vec![format!("`{PILE}`")];
        if !self.names.facts.is_empty() {
            parts.push(format!("facts {}", list(self.names.facts.to_vec())));
        }
        let defs: Vec<&str> = self
            .names
            .defs
            .iter()
            .map(|(n, _)| n.as_str())
            .chain(self.names.macros.iter().map(|(n, _)| n.as_str()))
            .collect();
        if !defs.is_empty() {
            parts.push(format!("the ruleset's names {}", list(defs)));
        }
        if !deck.kinds.is_empty() {
            parts.push(format!(
                "kinds {}",
                list(deck.kinds.iter().map(|k| k.id.as_str()).collect())
            ));
        }
        if !deck.suits.is_empty() {
            parts.push(format!(
                "suits {}",
                list(deck.suits.iter().map(|s| s.id.as_str()).collect())
            ));
        }
        format!(
            "the names known here: {}, and the deck's card ids (`yaku rules` lists them)",
            parts.join("; ")
        )
    }

    /// `bright-rain` where both halves are names: the author meant a difference.
    fn difference_hint(&self, name: &str) -> Option<String> {
        let known: Vec<&str> = self.all_names().collect();
        name.match_indices('-').find_map(|(i, _)| {
            let (a, b) = (&name[..i], &name[i + 1..]);
            (known.contains(&a) && known.contains(&b))
                .then(|| format!("write `{a} - {b}` with spaces for the difference of two sets"))
        })
    }

    fn all_names(&self) -> impl Iterator<Item = &str> {
        let deck = self.names.deck;
        std::iter::once(PILE)
            .chain(self.names.facts.iter().copied())
            .chain(self.names.defs.iter().map(|(n, _)| n.as_str()))
            .chain(self.names.macros.iter().map(|(n, _)| n.as_str()))
            .chain(deck.kinds.iter().map(|k| k.id.as_str()))
            .chain(deck.suits.iter().map(|s| s.id.as_str()))
            .chain(deck.card_ids())
    }

    fn is_function(&self, name: &str) -> bool {
        FUNCTIONS.iter().any(|(f, _)| *f == name)
            || self.names.deck.suit_word.as_deref() == Some(name)
    }

    /// An argument of `function` has the wrong type.
    fn argument_mismatch(&self, function: &str, arg: &Expr, want: Type, got: Type) -> ExprError {
        let deck = self.names.deck;
        let help = match (want, got) {
            (Type::Set, _) => {
                let examples: Vec<String> = [
                    deck.kinds.first().map(|k| k.id.as_str()),
                    deck.suits.first().map(|s| s.id.as_str()),
                    deck.card_ids().next(),
                ]
                .into_iter()
                .flatten()
                .map(|n| format!("`{n}`"))
                .collect();
                let examples = match examples.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} or {last}", rest.join(", "))
                    }
                    _ => examples.join(""),
                };
                Some(format!(
                    "a card set is a kind, a suit or a card of the deck, such as {examples}"
                ))
            }
            (Type::Int, Type::Set) => Some("use `count(...)` to count the cards of a set".into()),
            _ => None,
        };
        ExprError::new(
            format!(
                "`{function}` takes {}, found {}",
                want.describe(),
                got.describe()
            ),
            arg.span.clone(),
        )
        .with_help(help)
    }

    fn call(
        &self,
        name: &str,
        name_span: &std::ops::Range<usize>,
        args: &[Expr],
        e: &Expr,
        errors: &mut Vec<ExprError>,
    ) -> Typed {
        let deck = self.names.deck;
        let canonical = if deck.suit_word.as_deref() == Some(name) {
            "suit"
        } else {
            name
        };
        let Some((_, signature)) = FUNCTIONS.iter().find(|(f, _)| *f == canonical) else {
            let candidates = FUNCTIONS
                .iter()
                .map(|(f, _)| *f)
                .chain(deck.suit_word.as_deref());
            errors.push(
                ExprError::new(format!("unknown function `{name}`"), name_span.clone())
                    .with_help(did_you_mean(name, candidates)),
            );
            return None;
        };
        // `sum`'s first argument is an attribute name, not a value.
        if matches!(canonical, "sum" | "best" | "alike") {
            return self.sum(canonical, args, e, signature, errors);
        }
        if matches!(canonical, "run" | "suited_run" | "tiebreak") {
            return self.hand_function(canonical, args, e, signature, errors);
        }
        if canonical == "suits_with" && args.len() == 2 {
            let n = self.typed(name, &args[0], Type::Int, errors);
            let wild = self.typed(name, &args[1], Type::Set, errors);
            let suits = deck.suits.iter().map(|s| s.cards).collect();
            let f = HandFn::SuitsWild {
                suits,
                n: n?,
                wild: wild?,
            };
            return Some((Node::Hand(Box::new(f)), Type::Int));
        }
        let (min, max) = match canonical {
            "has" => (1, usize::MAX),
            "min" | "max" => (2, 2),
            _ => (1, 1),
        };
        if args.len() < min || args.len() > max {
            errors.push(arity_error(name, signature, args.len(), e));
            return None;
        }
        let want = match canonical {
            "suit" | "suits_with" | "in_suits_with" | "min" | "max" => Type::Int,
            _ => Type::Set,
        };
        let mut nodes = Vec::with_capacity(args.len());
        for a in args {
            if let Some((node, ty)) = self.expr(a, errors) {
                if ty == want {
                    nodes.push(node);
                } else {
                    errors.push(self.argument_mismatch(name, a, want, ty));
                }
            }
        }
        if nodes.len() != args.len() {
            return None;
        }
        let mut nodes = nodes.into_iter();
        let mut one = || Box::new(nodes.next().expect("arity checked above"));
        let suits = || {
            deck.suits
                .iter()
                .map(|s| s.cards)
                .collect::<Box<[CardSet]>>()
        };
        let (node, ty) = match canonical {
            "count" => (Node::Count(one()), Type::Int),
            "size" => (Node::Size(one()), Type::Int),
            "all" => (Node::All(one()), Type::Bool),
            "any" => (Node::Any(one()), Type::Bool),
            "has" => {
                let mut set = *one();
                for next in nodes.by_ref() {
                    set = Node::Union(Box::new([set, next])).fold();
                }
                (Node::All(Box::new(set)), Type::Bool)
            }
            "suit" => (Node::Suit(suits(), one()), Type::Set),
            "suits_with" => (Node::SuitsWith(suits(), one()), Type::Int),
            "in_suits_with" => (Node::InSuitsWith(suits(), one()), Type::Set),
            "min" => (Node::Min(Box::new([*one(), *one()])), Type::Int),
            "max" => (Node::Max(Box::new([*one(), *one()])), Type::Int),
            other => unreachable!("FUNCTIONS lists `{other}` but the checker does not"),
        };
        Some((node.fold(), ty))
    }

    /// `args[i]` compiled, when it has type `want`.
    fn typed(
        &self,
        function: &str,
        arg: &Expr,
        want: Type,
        errors: &mut Vec<ExprError>,
    ) -> Option<Node> {
        match self.expr(arg, errors) {
            Some((node, ty)) if ty == want => Some(node),
            Some((_, ty)) => {
                errors.push(self.argument_mismatch(function, arg, want, ty));
                None
            }
            None => None,
        }
    }

    /// `run(ATTRIBUTE, N[, WILD])`, `suited_run(...)` and `tiebreak(ATTRIBUTE, N)`: the
    /// attribute's values must lie in 0 to [`hand::MAX_VALUE`] and N must be written out.
    fn hand_function(
        &self,
        function: &str,
        args: &[Expr],
        e: &Expr,
        signature: &str,
        errors: &mut Vec<ExprError>,
    ) -> Typed {
        let deck = self.names.deck;
        let most = if function == "tiebreak" { 2 } else { 3 };
        if args.len() < 2 || args.len() > most {
            errors.push(arity_error(function, signature, args.len(), e));
            return None;
        }
        let values = self.attribute_values(function, &args[0], errors);
        let values = values.and_then(|values| {
            if values.iter().all(|v| (0..=hand::MAX_VALUE).contains(v)) {
                Some(values)
            } else {
                errors.push(ExprError::new(
                    format!(
                        "`{function}` reads values of 0 to {}; this attribute has others",
                        hand::MAX_VALUE
                    ),
                    args[0].span.clone(),
                ));
                None
            }
        });
        let n = match self.expr(&args[1], errors) {
            Some((Node::Int(n), Type::Int)) if (1..=16).contains(&n) => Some(n as u32),
            Some((Node::Int(_), Type::Int)) => {
                errors.push(ExprError::new(
                    format!("`{function}` counts 1 to 16 cards"),
                    args[1].span.clone(),
                ));
                None
            }
            Some((_, Type::Int)) => {
                errors.push(ExprError::new(
                    format!("the count of `{function}` must be a number written out, such as 5"),
                    args[1].span.clone(),
                ));
                None
            }
            Some((_, ty)) => {
                errors.push(self.argument_mismatch(function, &args[1], Type::Int, ty));
                None
            }
            None => None,
        };
        let wild = match args.get(2) {
            Some(a) => self.typed(function, a, Type::Set, errors),
            None => Some(Node::Set(CardSet::EMPTY)),
        };
        let (values, n, wild) = (values?, n?, wild?);
        let lo = values.iter().copied().min().unwrap_or(0);
        let hi = values.iter().copied().max().unwrap_or(0);
        let f = match function {
            "tiebreak" => {
                let base = hi + 1;
                if i128::from(base).pow(n) > i128::from(i64::MAX) {
                    errors.push(ExprError::new(
                        format!(
                            "`tiebreak` of {n} cards of values up to {hi} does not fit in the \
                             64-bit range of numbers; compare fewer cards"
                        ),
                        e.span.clone(),
                    ));
                    return None;
                }
                HandFn::Tiebreak { values, n, base }
            }
            _ => HandFn::Run {
                values,
                suits: (function == "suited_run")
                    .then(|| deck.suits.iter().map(|s| s.cards).collect()),
                n,
                wild,
                lo,
                hi,
            },
        };
        Some((Node::Hand(Box::new(f)), Type::Int))
    }

    /// The values of the attribute `arg` names, one a card of the deck.
    fn attribute_values(
        &self,
        function: &str,
        arg: &Expr,
        errors: &mut Vec<ExprError>,
    ) -> Option<Box<[i64]>> {
        let deck = self.names.deck;
        match &arg.kind {
            ExprKind::Name(n) => match deck.attributes.iter().find(|a| &a.id == n) {
                Some(a) => Some(a.values.clone().into_boxed_slice()),
                None => {
                    let names = deck.attributes.iter().map(|a| a.id.as_str());
                    let help = did_you_mean(n, names).or_else(|| {
                        let list: Vec<&str> =
                            deck.attributes.iter().map(|a| a.id.as_str()).collect();
                        Some(format!("the deck's attributes: {}", list.join(", ")))
                    });
                    errors.push(
                        ExprError::new(format!("unknown card attribute `{n}`"), arg.span.clone())
                            .with_help(help),
                    );
                    None
                }
            },
            _ => {
                errors.push(ExprError::new(
                    format!("the first argument of `{function}` must be an attribute name"),
                    arg.span.clone(),
                ));
                None
            }
        }
    }

    /// `sum(ATTRIBUTE[, SET])` and `best(ATTRIBUTE, SET)`, whose first argument is an attribute
    /// name, not a value.
    fn sum(
        &self,
        function: &str,
        args: &[Expr],
        e: &Expr,
        signature: &str,
        errors: &mut Vec<ExprError>,
    ) -> Typed {
        let deck = self.names.deck;
        let least = if matches!(function, "best" | "alike") {
            2
        } else {
            1
        };
        if args.len() < least || args.len() > 2 {
            errors.push(arity_error(function, signature, args.len(), e));
            return None;
        }
        let attribute = self.attribute_values(function, &args[0], errors);
        if function == "alike" {
            // The deck's cards grouped by the attribute's value: a rank's cards across suits.
            let count = match self.expr(&args[1], errors) {
                Some((node, Type::Int)) => Some(node),
                Some((_, ty)) => {
                    errors.push(self.argument_mismatch(function, &args[1], Type::Int, ty));
                    None
                }
                None => None,
            };
            let values = attribute?;
            let mut groups: Vec<(i64, CardSet)> = Vec::new();
            for (card, &value) in values.iter().enumerate() {
                let id = crate::deck::CardId(card as u8);
                match groups.iter_mut().find(|(v, _)| *v == value) {
                    Some((_, set)) => set.insert(id),
                    None => {
                        let mut set = CardSet::EMPTY;
                        set.insert(id);
                        groups.push((value, set));
                    }
                }
            }
            let groups: Box<[CardSet]> = groups.into_iter().map(|(_, set)| set).collect();
            return Some((Node::SuitsWith(groups, Box::new(count?)).fold(), Type::Int));
        }
        let set = match args.get(1) {
            None => Some(Node::Set(deck.all())),
            Some(a) => match self.expr(a, errors) {
                Some((node, Type::Set)) => Some(node),
                Some((_, ty)) => {
                    errors.push(self.argument_mismatch(function, a, Type::Set, ty));
                    None
                }
                None => None,
            },
        };
        let node = match function {
            "best" => Node::Best(attribute?, Box::new(set?)),
            _ => Node::Sum(attribute?, Box::new(set?)),
        };
        Some((node.fold(), Type::Int))
    }
}

fn binary(
    op: BinaryOp,
    (ln, lt): (Node, Type),
    (rn, rt): (Node, Type),
    e: &Expr,
    errors: &mut Vec<ExprError>,
) -> Typed {
    use BinaryOp::*;
    let pair = Box::new([ln, rn]);
    let result = match (op, lt, rt) {
        (Or, Type::Bool, Type::Bool) => (Node::Or(pair), Type::Bool),
        (And, Type::Bool, Type::Bool) => (Node::And(pair), Type::Bool),
        (Eq | Ne, Type::Set, Type::Set) => {
            let node = Node::SetEq(pair);
            let node = if op == Ne {
                Node::Not(Box::new(node))
            } else {
                node
            };
            (node, Type::Bool)
        }
        (Eq | Ne | Lt | Le | Gt | Ge, Type::Int, Type::Int) => (Node::Cmp(op, pair), Type::Bool),
        (Eq | Ne, Type::Bool, Type::Bool) => (Node::BoolEq(op == Eq, pair), Type::Bool),
        (Add, Type::Set, Type::Set) => (Node::Union(pair), Type::Set),
        (Sub, Type::Set, Type::Set) => (Node::Difference(pair), Type::Set),
        (Inter, Type::Set, Type::Set) => (Node::Intersection(pair), Type::Set),
        (Add | Sub | Mul | Div | Rem, Type::Int, Type::Int) => (Node::Arith(op, pair), Type::Int),
        _ => {
            let help = if matches!(op, Or | And) {
                Some(format!(
                    "`{}` joins conditions: compare a number, as in `count(x) >= 3`, or test a set \
                     with `all(...)` or `any(...)`",
                    op.symbol()
                ))
            } else if lt == Type::Set || rt == Type::Set {
                Some("use `count(...)` to turn a card set into a number".to_string())
            } else {
                None
            };
            errors.push(
                ExprError::new(
                    format!(
                        "`{}` cannot combine {} and {}",
                        op.symbol(),
                        lt.describe(),
                        rt.describe()
                    ),
                    e.span.clone(),
                )
                .with_help(help),
            );
            return None;
        }
    };
    Some((result.0.fold(), result.1))
}

fn arity_error(name: &str, signature: &str, got: usize, e: &Expr) -> ExprError {
    ExprError::new(
        format!(
            "`{name}` does not take {got} argument{}",
            if got == 1 { "" } else { "s" }
        ),
        e.span.clone(),
    )
    .with_help(Some(format!("usage: {signature}")))
}
