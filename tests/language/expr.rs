//! Expression round trip: a random syntax tree, printed with `Display`, parses to the same tree,
//! and every node's span in the parsed tree covers text that parses to that node.

use proptest::prelude::*;
use yaku::expr::{BinaryOp, Expr, ExprKind, MAX_DEPTH, MAX_LEN, UnaryOp, parse};

/// Names the grammar must read as one name: hyphenated words, and words that start with a
/// keyword (`orange` begins with `or`, `android` with `and`).
const NAMES: &[&str] = &[
    "bright",
    "plain",
    "pile",
    "round",
    "pampas-moon",
    "willow-rainman",
    "chrysanthemum-sake",
    "pine-1",
    "a_b",
    "x2",
    "orange",
    "android",
    "notes",
    "iffy",
    "thence",
    "elsewhere",
    "ORB",
];

const FUNCTIONS: &[&str] = &[
    "count", "has", "all", "any", "sum", "month", "min", "max", "f",
];

const BINARY: &[BinaryOp] = &[
    BinaryOp::Or,
    BinaryOp::And,
    BinaryOp::Eq,
    BinaryOp::Ne,
    BinaryOp::Lt,
    BinaryOp::Le,
    BinaryOp::Gt,
    BinaryOp::Ge,
    BinaryOp::Add,
    BinaryOp::Sub,
    BinaryOp::Mul,
    BinaryOp::Div,
    BinaryOp::Rem,
    BinaryOp::Inter,
];

fn node(kind: ExprKind) -> Expr {
    Expr { kind, span: 0..0 }
}

/// Random trees of every node kind; spans are left empty (`same_tree` ignores them).
fn expr_tree() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (0..=i64::MAX).prop_map(|n| node(ExprKind::Number(n))),
        prop::sample::select(NAMES).prop_map(|n| node(ExprKind::Name(n.to_string()))),
    ];
    leaf.prop_recursive(5, 48, 3, |inner| {
        prop_oneof![
            (
                prop::sample::select(FUNCTIONS),
                prop::collection::vec(inner.clone(), 0..=3)
            )
                .prop_map(|(name, args)| node(ExprKind::Call {
                    name: name.to_string(),
                    name_span: 0..0,
                    args,
                })),
            (
                prop::sample::select(&[UnaryOp::Not, UnaryOp::Neg][..]),
                inner.clone()
            )
                .prop_map(|(op, e)| node(ExprKind::Unary(op, Box::new(e)))),
            (prop::sample::select(BINARY), inner.clone(), inner.clone())
                .prop_map(|(op, a, b)| node(ExprKind::Binary(op, Box::new(a), Box::new(b)))),
            (inner.clone(), inner.clone(), inner).prop_map(|(c, a, b)| node(ExprKind::If(
                Box::new(c),
                Box::new(a),
                Box::new(b)
            ))),
        ]
    })
}

/// Every node of a tree, parents first.
fn nodes(e: &Expr) -> Vec<&Expr> {
    let mut out = vec![e];
    match &e.kind {
        ExprKind::Number(_) | ExprKind::Bool(_) | ExprKind::Name(_) => {}
        ExprKind::Call { args, .. } => out.extend(args.iter().flat_map(nodes)),
        ExprKind::Unary(_, a) => out.extend(nodes(a)),
        ExprKind::Binary(_, a, b) => {
            out.extend(nodes(a));
            out.extend(nodes(b));
        }
        ExprKind::If(c, a, b) => {
            out.extend(nodes(c));
            out.extend(nodes(a));
            out.extend(nodes(b));
        }
    }
    out
}

/// Parenthesis depth of a printed expression.
fn paren_depth(text: &str) -> usize {
    let mut depth = 0usize;
    let mut max = 0;
    for c in text.chars() {
        match c {
            '(' => {
                depth += 1;
                max = max.max(depth);
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

proptest! {
    #![proptest_config(super::config(500))]

    #[test]
    fn display_then_parse_gives_the_same_tree(tree in expr_tree()) {
        let printed = tree.to_string();
        if printed.len() > MAX_LEN || paren_depth(&printed) > MAX_DEPTH {
            // Beyond the limits the parser refuses, with an error rather than a tree.
            prop_assert!(parse(&printed).is_err(), "accepted beyond the limits: {printed}");
            return Ok(());
        }
        let parsed = parse(&printed)
            .map_err(|e| TestCaseError::fail(format!("{printed}: {} at {:?}", e.message, e.span)))?;
        prop_assert!(parsed.same_tree(&tree), "printed {printed}\nparsed back as {parsed}");
        // Printing is stable: the parsed tree prints the same text.
        prop_assert_eq!(parsed.to_string(), printed.clone());
        // Spans locate each node: the text under a node's span parses to that node.
        for n in nodes(&parsed) {
            let under = printed
                .get(n.span.clone())
                .ok_or_else(|| TestCaseError::fail(format!("span {:?} of {n} outside {printed}", n.span)))?;
            let again = parse(under)
                .map_err(|e| TestCaseError::fail(format!("`{under}` (span of {n}): {}", e.message)))?;
            prop_assert!(again.same_tree(n), "span {:?} holds `{under}`, not {n}", n.span);
        }
    }

    #[test]
    fn random_text_never_panics_the_parser(text in "([-+*/%&<>=!(), a-z0-9]|if |then |else |and |or |not ){0,80}") {
        if let Err(e) = parse(&text) {
            prop_assert!(e.span.start <= e.span.end && e.span.end <= text.len());
        }
    }
}
