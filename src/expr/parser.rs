//! Text to syntax tree: the pest grammar in `grammar/expr.pest` plus a Pratt parser for precedence.

use super::ExprError;
use super::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use pest::Parser as _;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::sync::OnceLock;

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/expr.pest"]
    pub struct ExprParser;
}

use grammar::{ExprParser, Rule};

/// Longest expression accepted, in bytes: 16 KiB, room for a real rule written out in full
/// (one game needed 45 named definitions to fit in the 1,000 bytes this was).
pub const MAX_LEN: usize = 16 * 1024;
/// Deepest nesting of parentheses, calls and prefix operators accepted.
pub const MAX_DEPTH: usize = 32;
/// Most infix operators (`+`, `and`, `==`, ...) in one expression: a chain of them is a tree as
/// deep as it is long, which the checker and evaluator walk recursively, so this bounds the
/// stack they need (a thread of 2 MiB holds it, as the 1,000 bytes expressions were limited to
/// did; 6,400 overflowed 8 MiB).
pub const MAX_OPERATORS: usize = 500;

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::or, Assoc::Left))
            .op(Op::infix(Rule::and, Assoc::Left))
            .op(Op::infix(Rule::eq, Assoc::Left)
                | Op::infix(Rule::ne, Assoc::Left)
                | Op::infix(Rule::lt, Assoc::Left)
                | Op::infix(Rule::le, Assoc::Left)
                | Op::infix(Rule::gt, Assoc::Left)
                | Op::infix(Rule::ge, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left)
                | Op::infix(Rule::div, Assoc::Left)
                | Op::infix(Rule::rem, Assoc::Left)
                | Op::infix(Rule::inter, Assoc::Left))
            .op(Op::prefix(Rule::not) | Op::prefix(Rule::neg))
    })
}

/// Parses an expression. On failure, the error's span points into `text`.
pub fn parse(text: &str) -> Result<Expr, ExprError> {
    if text.len() > MAX_LEN {
        return Err(ExprError::new(
            format!(
                "expression is too long ({} bytes, at most {MAX_LEN})",
                text.len()
            ),
            0..text.len().min(1),
        ));
    }
    check_depth(text)?;
    let mut pairs = ExprParser::parse(Rule::expression, text).map_err(|e| syntax_error(text, e))?;
    let expression = pairs
        .next()
        .expect("grammar: `expression` always yields one pair");
    let expr = expression
        .into_inner()
        .next()
        .expect("grammar: `expression` holds one `expr`");
    Ok(build_expr(expr.into_inner()))
}

/// Rejects expressions nested deeper than [`MAX_DEPTH`] before the recursive parsers see them.
/// A level is an open parenthesis or a prefix operator (`-`, `not`): a chain of a thousand `-`
/// fits in [`MAX_LEN`] but would recurse a thousand times. Prefix operators count until the
/// next value, which over-counts a little (`-(-(a))` is four levels) and never under-counts.
fn check_depth(text: &str) -> Result<(), ExprError> {
    let bytes = text.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut parens = 0usize;
    let mut prefixes = 0usize;
    let mut operators = 0usize;
    // Whether the last token ends a value, which makes a following `-` infix.
    let mut after_value = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        if b.is_ascii_alphabetic() || b.is_ascii_digit() {
            // A word as the grammar reads names: words joined by single `-`.
            i += 1;
            while i < bytes.len()
                && (is_word(bytes[i])
                    || (bytes[i] == b'-' && bytes.get(i + 1).is_some_and(|&n| is_word(n))))
            {
                i += 1;
            }
            match &text[start..i] {
                "not" => {
                    prefixes += 1;
                    after_value = false;
                }
                "and" | "or" => {
                    operators += 1;
                    after_value = false;
                }
                "if" | "then" | "else" => after_value = false,
                _ => {
                    prefixes = 0;
                    after_value = true;
                }
            }
        } else {
            i += text[i..].chars().next().map_or(1, char::len_utf8);
            match b {
                b'(' => {
                    parens += 1;
                    after_value = false;
                }
                b')' => {
                    parens = parens.saturating_sub(1);
                    after_value = true;
                }
                b'-' if !after_value => prefixes += 1,
                b' ' | b'\t' | b'\r' | b'\n' => {}
                // An infix operator (the second byte of `==`, `<=` follows a first that
                // already counted it).
                b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'<' | b'>' | b'=' | b'!' => {
                    if after_value {
                        operators += 1;
                    }
                    after_value = false;
                }
                _ => after_value = false,
            }
        }
        if operators > MAX_OPERATORS {
            return Err(ExprError::new(
                format!(
                    "expression has too many operators (more than {MAX_OPERATORS}): a chain of them nests as deep as it is long"
                ),
                start..i,
            )
            .with_help(Some(
                "split it into named definitions, or use functions such as `count` and `sum` over sets"
                    .into(),
            )));
        }
        if parens + prefixes > MAX_DEPTH {
            return Err(ExprError::new(
                format!("expression is nested too deeply (at most {MAX_DEPTH} levels)"),
                start..i,
            ));
        }
    }
    Ok(())
}

fn build_expr(pairs: Pairs<Rule>) -> Expr {
    pratt()
        .map_primary(build_primary)
        .map_prefix(|op, operand| {
            let span = op.as_span().start()..operand.span.end;
            let op = match op.as_rule() {
                Rule::not => UnaryOp::Not,
                _ => UnaryOp::Neg,
            };
            Expr {
                kind: ExprKind::Unary(op, Box::new(operand)),
                span,
            }
        })
        .map_infix(|lhs, op, rhs| {
            let op = match op.as_rule() {
                Rule::or => BinaryOp::Or,
                Rule::and => BinaryOp::And,
                Rule::eq => BinaryOp::Eq,
                Rule::ne => BinaryOp::Ne,
                Rule::lt => BinaryOp::Lt,
                Rule::le => BinaryOp::Le,
                Rule::gt => BinaryOp::Gt,
                Rule::ge => BinaryOp::Ge,
                Rule::add => BinaryOp::Add,
                Rule::sub => BinaryOp::Sub,
                Rule::mul => BinaryOp::Mul,
                Rule::div => BinaryOp::Div,
                Rule::rem => BinaryOp::Rem,
                Rule::inter => BinaryOp::Inter,
                other => unreachable!("grammar: `{other:?}` is not an infix operator"),
            };
            let span = lhs.span.start..rhs.span.end;
            Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                span,
            }
        })
        .parse(pairs)
}

fn build_primary(pair: Pair<Rule>) -> Expr {
    let span = pair.as_span().start()..pair.as_span().end();
    let kind = match pair.as_rule() {
        // A literal is digits only, never negative: `i64::MIN` marks one too large for `i64`,
        // which the checker reports (`i64::MAX` itself is a valid literal).
        Rule::number => ExprKind::Number(pair.as_str().parse().unwrap_or(i64::MIN)),
        Rule::boolean => ExprKind::Bool(pair.as_str() == "true"),
        Rule::name => ExprKind::Name(pair.as_str().to_string()),
        Rule::paren => {
            // The node spans its parentheses, so that an operator applied to it (`-(a + b)`)
            // spans them too and errors underline whole operands.
            let inner = pair
                .into_inner()
                .next()
                .expect("grammar: `paren` holds one `expr`");
            let expr = build_expr(inner.into_inner());
            return Expr { span, ..expr };
        }
        Rule::call => {
            let mut inner = pair.into_inner();
            let name = inner.next().expect("grammar: `call` starts with a name");
            ExprKind::Call {
                name: name.as_str().to_string(),
                name_span: name.as_span().start()..name.as_span().end(),
                args: inner.map(|a| build_expr(a.into_inner())).collect(),
            }
        }
        Rule::conditional => {
            let mut inner = pair
                .into_inner()
                .filter(|p| p.as_rule() == Rule::expr)
                .map(|p| build_expr(p.into_inner()));
            let (c, a, b) = (
                inner.next().expect("grammar: `if` has a condition"),
                inner.next().expect("grammar: `if` has a `then` branch"),
                inner.next().expect("grammar: `if` has an `else` branch"),
            );
            ExprKind::If(Box::new(c), Box::new(a), Box::new(b))
        }
        other => unreachable!("grammar: `{other:?}` is not a primary"),
    };
    Expr { kind, span }
}

/// Turns pest's error into a located message in the language's own words.
fn syntax_error(text: &str, err: pest::error::Error<Rule>) -> ExprError {
    let pos = match err.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let found = text[pos.min(text.len())..]
        .chars()
        .next()
        .map_or("end of expression".to_string(), |c| format!("`{c}`"));
    let expected = match &err.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = positives.iter().filter_map(|r| describe(*r)).collect();
            names.sort_unstable();
            names.dedup();
            names
        }
        pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
    };
    let (open, unmatched_close) = unbalanced(text);
    let at_end = pos >= text.trim_end().len();
    if let (Some(open), true) = (open, at_end) {
        return ExprError::new("unclosed `(` in expression", open..open + 1)
            .with_help(Some("add the `)` that closes it".into()));
    }
    if unmatched_close == Some(pos) {
        return ExprError::new("unmatched `)` in expression", pos..pos + 1)
            .with_help(Some("remove it, or add the `(` it closes".into()));
    }
    let message = if expected.is_empty() {
        format!("unexpected {found} in expression")
    } else {
        format!(
            "expected {} in expression, found {found}",
            expected.join(" or ")
        )
    };
    let end = (pos + 1).min(text.len()).max(pos);
    ExprError::new(message, pos..end).with_help(typo_hint(text, pos))
}

/// The innermost `(` left open at the end of `text`, and the first `)` that closes nothing.
fn unbalanced(text: &str) -> (Option<usize>, Option<usize>) {
    let mut open = Vec::new();
    let mut unmatched_close = None;
    for (i, ch) in text.char_indices() {
        match ch {
            '(' => open.push(i),
            // The guard pops the `(` this `)` closes, if any.
            ')' if open.pop().is_none() && unmatched_close.is_none() => {
                unmatched_close = Some(i);
            }
            _ => {}
        }
    }
    (open.pop(), unmatched_close)
}

/// Operators of other languages that authors type by habit, and what this language writes.
const TYPOS: &[(&str, &str)] = &[
    ("=>", ">="),
    ("=<", "<="),
    ("&&", "and"),
    ("||", "or"),
    ("<>", "!="),
];

/// A help line when the syntax error sits on an operator from another language.
fn typo_hint(text: &str, pos: usize) -> Option<String> {
    for (typo, fix) in TYPOS {
        let hit = text
            .match_indices(typo)
            .any(|(i, _)| i <= pos && pos <= i + typo.len());
        if hit {
            return Some(format!("write `{fix}` instead of `{typo}`"));
        }
    }
    // A lone `=` after a value: comparison is `==`.
    let bytes = text.as_bytes();
    let is_op = |b: Option<&u8>| b.is_some_and(|b| b"=<>!".contains(b));
    let before = text[..pos.min(text.len())].trim_end().as_bytes().last();
    if bytes.get(pos) == Some(&b'=') && !is_op(bytes.get(pos + 1)) && !is_op(before) {
        return Some("compare with `==`".into());
    }
    // `!` alone: negation is `not`.
    if bytes.get(pos) == Some(&b'!') && bytes.get(pos + 1) != Some(&b'=') {
        return Some("write `not` for negation".into());
    }
    None
}

fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::expr
        | Rule::paren
        | Rule::call
        | Rule::conditional
        | Rule::number
        | Rule::boolean
        | Rule::name => "a value",
        Rule::EOI => "the end",
        Rule::or
        | Rule::and
        | Rule::eq
        | Rule::ne
        | Rule::le
        | Rule::ge
        | Rule::lt
        | Rule::gt
        | Rule::add
        | Rule::sub
        | Rule::mul
        | Rule::div
        | Rule::rem
        | Rule::inter => "an operator",
        Rule::not | Rule::neg => "a value",
        Rule::kw_then => "`then`",
        Rule::kw_else => "`else`",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(src: &str) -> String {
        let e = parse(src).unwrap_or_else(|e| panic!("{src}: {}", e.message));
        let printed = e.to_string();
        let again = parse(&printed).unwrap();
        assert!(e.same_tree(&again), "{src} -> {printed}");
        printed
    }

    #[test]
    fn precedence_and_roundtrip() {
        assert_eq!(roundtrip("count(plain) >= 10"), "(count(plain) >= 10)");
        assert_eq!(
            roundtrip("5 + count(ribbon) - 3"),
            "((5 + count(ribbon)) - 3)"
        );
        assert_eq!(roundtrip("bright - rain"), "(bright - rain)");
        assert_eq!(roundtrip("pampas-moon"), "pampas-moon");
        assert_eq!(
            roundtrip("has(pampas-moon, chrysanthemum-sake)"),
            "has(pampas-moon, chrysanthemum-sake)"
        );
        assert_eq!(roundtrip("sum(pips) % 10"), "(sum(pips) % 10)");
        assert_eq!(roundtrip("a and b or not c"), "((a and b) or (not c))");
        assert_eq!(roundtrip("1 + 2 * 3"), "(1 + (2 * 3))");
        assert_eq!(roundtrip("-count(x) - -1"), "((-count(x)) - (-1))");
        assert_eq!(
            roundtrip("if count(bright) == 5 then 10 else 8"),
            "(if (count(bright) == 5) then 10 else 8)"
        );
        assert_eq!(
            roundtrip("count(month(round)) == 4"),
            "(count(month(round)) == 4)"
        );
        assert_eq!(roundtrip("a & (b + c)"), "(a & (b + c))");
        assert_eq!(roundtrip("orange + android"), "(orange + android)");
    }

    #[test]
    fn spans_point_into_the_text() {
        let e = parse("count(plain) >= 10").unwrap();
        let ExprKind::Binary(_, lhs, rhs) = &e.kind else {
            panic!()
        };
        assert_eq!(lhs.span, 0..12);
        assert_eq!(rhs.span, 16..18);
        // Parenthesized operands span their parentheses, and so do operators applied to them.
        let e = parse("(a + b) * -(c)").unwrap();
        assert_eq!(e.span, 0..14);
        let ExprKind::Binary(_, lhs, rhs) = &e.kind else {
            panic!()
        };
        assert_eq!((lhs.span.clone(), rhs.span.clone()), (0..7, 10..14));
    }

    #[test]
    fn syntax_errors_are_located() {
        let e = parse("count(plain) >= ").unwrap_err();
        assert_eq!(e.span.start, 16);
        assert!(e.message.contains("expected a value"), "{}", e.message);
        let e = parse("count(plain)) ").unwrap_err();
        assert_eq!(e.span.start, 12);
        let e = parse(&"(".repeat(100)).unwrap_err();
        assert!(e.message.contains("nested too deeply"));
        let e = parse(&format!("{}1", "-".repeat(900))).unwrap_err();
        assert!(e.message.contains("nested too deeply"), "{}", e.message);
        assert_eq!(e.span, MAX_DEPTH..MAX_DEPTH + 1);
        let e = parse(&format!("{}all(x)", "not ".repeat(100))).unwrap_err();
        assert!(e.message.contains("nested too deeply"), "{}", e.message);
        // Infix `-` is no nesting, however many; nor are names with hyphens.
        assert!(parse(&vec!["pampas-moon"; 60].join(" - ")).is_ok());
        assert!(parse(&format!("1{}", "-1".repeat(400))).is_ok());
        assert!(parse("not not all(x) and - -count(x) > 1").is_ok());
        assert!(parse(&"x".repeat(2000)).is_ok());
        let e = parse(&"x".repeat(MAX_LEN + 1)).unwrap_err();
        assert!(e.message.contains("too long"), "{}", e.message);
        // Infix operators are counted: a chain is as deep as it is long.
        assert!(parse(&format!("1{}", "+1".repeat(MAX_OPERATORS))).is_ok());
        let e = parse(&format!("1{}", "+1".repeat(MAX_OPERATORS + 1))).unwrap_err();
        assert!(e.message.contains("too many operators"), "{}", e.message);
        assert!(parse(&format!("x{}", " and y".repeat(MAX_OPERATORS + 1))).is_err());
        assert!(parse(&format!("1{}", " <= 1".repeat(MAX_OPERATORS))).is_ok());
        assert!(parse("").is_err());
    }

    #[test]
    fn unbalanced_parentheses_point_at_the_culprit() {
        let e = parse("count(bright >= 3").unwrap_err();
        assert_eq!(
            (e.message.as_str(), e.span),
            ("unclosed `(` in expression", 5..6)
        );
        let e = parse("max(1, (2)").unwrap_err();
        assert_eq!(e.span, 3..4);
        let e = parse("count(plain)) >= 1").unwrap_err();
        assert_eq!(
            (e.message.as_str(), e.span),
            ("unmatched `)` in expression", 12..13)
        );
    }

    #[test]
    fn operators_of_other_languages_get_a_hint() {
        let hint = |src: &str| parse(src).unwrap_err().help;
        assert_eq!(
            hint("count(x) => 3").as_deref(),
            Some("write `>=` instead of `=>`")
        );
        assert_eq!(
            hint("all(x) && all(y)").as_deref(),
            Some("write `and` instead of `&&`")
        );
        assert_eq!(hint("count(x) = 3").as_deref(), Some("compare with `==`"));
        assert_eq!(hint("!all(x)").as_deref(), Some("write `not` for negation"));
        assert_eq!(hint("count(x) >= = 3"), None);
        let e = parse("if all(rain) then 1").unwrap_err();
        assert!(e.message.contains("`else`"), "{}", e.message);
    }
}
