//! Expressions in words, for rule sheets: one description per construct of the language, so a
//! condition or point formula is explained by the language itself rather than written twice.
//! Too complex a tree gives `None`, and the caller shows the expression as written.

use super::ast::{BinaryOp, Expr, ExprKind, UnaryOp};

/// Longest description given; a longer one is harder to read than the expression itself.
const MAX_WORDS_LEN: usize = 120;

/// What the names of a ruleset mean, for describing its expressions.
#[derive(Clone, Debug, Default)]
pub struct Lexicon {
    /// The word for one card of the deck (`card`, `tile`).
    pub card_word: String,
    /// The word for a suit (`month`, `suit`).
    pub suit_word: String,
    /// What `pile` holds, as a plural noun (`cards captured`, `tiles in hand`).
    pub pile_words: String,
    /// Every set name (kind, suit, card id) with its words.
    pub sets: Vec<SetWords>,
    /// The names of the deck's suits, so that a formula over every suit reads as one.
    pub suits: Vec<String>,
    /// Values carried between hands: each name with its words (`the field carried to the next
    /// month`).
    pub values: Vec<(String, String)>,
    /// Names that stand for an expression: the ruleset's options (their values) and
    /// definitions (`[define]`), put in place before describing.
    pub substitutions: Vec<(String, Expr)>,
}

/// The words for a name that stands for a set of cards.
#[derive(Clone, Debug)]
pub struct SetWords {
    /// The name as written in expressions (`bright`, `pine`, `pampas-moon`).
    pub name: String,
    /// A plural noun for its cards (`bright cards`), or the card's name when it is one card.
    pub words: String,
    /// How many cards of the deck it holds.
    pub size: usize,
    /// True when the name is one card's id.
    pub is_card: bool,
}

impl Lexicon {
    fn set(&self, name: &str) -> Option<&SetWords> {
        self.sets.iter().find(|s| s.name == name)
    }
}

/// Describes a condition or formula in words, or `None` when it is too complex for words.
pub fn words(expr: &Expr, lex: &Lexicon) -> Option<String> {
    let expr = simplify(substitute(expr, lex, 0));
    let text = Describer { lex }.any(&expr)?;
    (text.len() <= MAX_WORDS_LEN).then_some(text)
}

/// `e` with the lexicon's substitutions in place (definitions may use earlier ones; `depth`
/// bounds the nesting).
fn substitute(e: &Expr, lex: &Lexicon, depth: usize) -> Expr {
    let sub = |x: &Expr| Box::new(substitute(x, lex, depth));
    let kind = match &e.kind {
        ExprKind::Name(n) if depth < 16 => match lex.substitutions.iter().find(|(s, _)| s == n) {
            Some((_, body)) => return substitute(body, lex, depth + 1),
            None => e.kind.clone(),
        },
        ExprKind::Call {
            name,
            name_span,
            args,
        } => ExprKind::Call {
            name: name.clone(),
            name_span: name_span.clone(),
            args: args.iter().map(|a| substitute(a, lex, depth)).collect(),
        },
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, sub(a)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, sub(a), sub(b)),
        ExprKind::If(c, a, b) => ExprKind::If(sub(c), sub(a), sub(b)),
        other => other.clone(),
    };
    Expr {
        kind,
        span: e.span.clone(),
    }
}

/// `e` with the conditions that are always true or false folded away (`true and x` is `x`).
fn simplify(e: Expr) -> Expr {
    let span = e.span.clone();
    let lit = |b: bool| Expr {
        kind: ExprKind::Bool(b),
        span: span.clone(),
    };
    match e.kind {
        ExprKind::Unary(UnaryOp::Not, a) => match simplify(*a) {
            Expr {
                kind: ExprKind::Bool(b),
                ..
            } => lit(!b),
            a => Expr {
                kind: ExprKind::Unary(UnaryOp::Not, Box::new(a)),
                span,
            },
        },
        ExprKind::Binary(op @ (BinaryOp::And | BinaryOp::Or), a, b) => {
            let (a, b) = (simplify(*a), simplify(*b));
            let and = op == BinaryOp::And;
            match (&a.kind, &b.kind) {
                (ExprKind::Bool(x), _) if *x == and => b,
                (_, ExprKind::Bool(y)) if *y == and => a,
                (ExprKind::Bool(_), _) | (_, ExprKind::Bool(_)) => lit(!and),
                _ => Expr {
                    kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
                    span,
                },
            }
        }
        ExprKind::If(c, a, b) => match simplify(*c) {
            Expr {
                kind: ExprKind::Bool(true),
                ..
            } => simplify(*a),
            Expr {
                kind: ExprKind::Bool(false),
                ..
            } => simplify(*b),
            c => Expr {
                kind: ExprKind::If(Box::new(c), Box::new(simplify(*a)), Box::new(simplify(*b))),
                span,
            },
        },
        ExprKind::Binary(op, a, b) => Expr {
            kind: ExprKind::Binary(op, Box::new(simplify(*a)), Box::new(simplify(*b))),
            span,
        },
        kind => Expr { kind, span },
    }
}

/// A small number in words (`five`), larger ones as digits.
pub fn number_word(n: i64) -> String {
    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    usize::try_from(n)
        .ok()
        .and_then(|i| WORDS.get(i))
        .map_or_else(|| n.to_string(), |w| (*w).to_string())
}

struct Describer<'a> {
    lex: &'a Lexicon,
}

impl Describer<'_> {
    /// Any node: a condition, a number or a set.
    fn any(&self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Binary(BinaryOp::And, a, b) => {
                Some(format!("{} and {}", self.any(a)?, self.any(b)?))
            }
            ExprKind::Binary(BinaryOp::Or, a, b) => {
                Some(format!("either {} or {}", self.any(a)?, self.any(b)?))
            }
            ExprKind::Unary(UnaryOp::Not, a) => {
                let inner = self.any(a)?;
                Some(match &a.kind {
                    // `not has(willow-rainman)`: without the Rain Man.
                    ExprKind::Call { name, args, .. } if name == "has" && args.len() == 1 => {
                        format!("without {inner}")
                    }
                    _ => match inner.strip_prefix("any of ") {
                        Some(rest) => format!("none of {rest}"),
                        None => format!("not {inner}"),
                    },
                })
            }
            ExprKind::Binary(op, a, b) if is_comparison(*op) => self.comparison(*op, a, b),
            ExprKind::If(c, a, b) => Some(format!(
                "{} when {}, otherwise {}",
                self.any(a)?,
                self.any(c)?,
                self.any(b)?
            )),
            ExprKind::Call { name, args, .. } => self.call(name, args),
            ExprKind::Bool(true) => Some("always".to_string()),
            ExprKind::Bool(false) => Some("never".to_string()),
            _ if self.is_set(e) => self.set(e),
            _ => self.number(e),
        }
    }

    fn comparison(&self, op: BinaryOp, a: &Expr, b: &Expr) -> Option<String> {
        // `suits_with(n) op k`: how many suits hold n or more of the pile's cards.
        if let (ExprKind::Call { name, args, .. }, ExprKind::Number(k)) = (&a.kind, &b.kind)
            && name == "suits_with"
            && let [n] = args.as_slice()
        {
            let noun = format!(
                "{}s with {} or more {}s",
                self.lex.suit_word,
                self.count_word(n)?,
                self.lex.card_word
            );
            // `suits_with(1) == 4` with four suits: a card of every suit.
            if matches!(n.kind, ExprKind::Number(1))
                && matches!(op, BinaryOp::Eq | BinaryOp::Ge)
                && usize::try_from(*k).is_ok_and(|k| k > 1 && k == self.lex.suits.len())
            {
                return Some(format!(
                    "the {} include every {}",
                    self.lex.pile_words, self.lex.suit_word
                ));
            }
            return quantified(op, *k, &noun, None);
        }
        // `alike(attr, n) >= k`: k groups of n or more cards of one value.
        if let (ExprKind::Call { name, args, .. }, ExprKind::Number(k)) = (&a.kind, &b.kind)
            && name == "alike"
            && let [attr, n] = args.as_slice()
            && let ExprKind::Name(attr) = &attr.kind
        {
            let alike = format!(
                "{} or more {}s of one {attr}",
                self.count_word(n)?,
                self.lex.card_word
            );
            return match (op, *k) {
                (BinaryOp::Ge, 1) | (BinaryOp::Gt, 0) => Some(alike),
                (BinaryOp::Eq, 0) | (BinaryOp::Lt, 1) => Some(format!(
                    "no {} {}s of one {attr}",
                    self.count_word(n)?,
                    self.lex.card_word
                )),
                _ => quantified(
                    op,
                    *k,
                    &format!(
                        "{attr}s with {} or more {}s",
                        self.count_word(n)?,
                        self.lex.card_word
                    ),
                    None,
                ),
            };
        }
        // How far the player's game score is from the target (`target_score - game_score > 2`,
        // a bonus refused near the end of a game).
        if let (ExprKind::Binary(BinaryOp::Sub, t, g), ExprKind::Number(k)) = (&a.kind, &b.kind)
            && matches!(&t.kind, ExprKind::Name(t) if t == "target_score")
            && matches!(&g.kind, ExprKind::Name(g) if g == "game_score")
        {
            let (op, k) = match op {
                BinaryOp::Gt => (BinaryOp::Ge, *k + 1),
                _ => (op, *k),
            };
            let points = if k == 1 { "point" } else { "points" };
            let amount = quantified(op, k, points, None)?;
            return Some(format!(
                "the player's score in the game is {amount} short of the target"
            ));
        }
        // The points of the player's yaku, against a number or the last call's.
        if let ExprKind::Name(n) = &a.kind
            && n == "base"
        {
            match &b.kind {
                ExprKind::Number(k) => {
                    let points = if *k == 1 { "point" } else { "points" };
                    let (op, k) = match op {
                        BinaryOp::Gt => (BinaryOp::Ge, *k + 1),
                        _ => (op, *k),
                    };
                    let amount = quantified(op, k, points, None)?;
                    return Some(format!("the player's yaku score {amount}"));
                }
                ExprKind::Name(m) if m == "last_base" && op == BinaryOp::Gt => {
                    return Some("more than at the last call".to_string());
                }
                _ => {}
            }
        }
        // A count the game keeps of the player (`hand_cards > 0`): what the player has.
        if let (ExprKind::Name(n), ExprKind::Number(k)) = (&a.kind, &b.kind) {
            let noun = match n.as_str() {
                "hand_cards" => Some("cards in hand"),
                "stacks" => Some("stacks made this hand"),
                _ => None,
            };
            if n == "hand_cards" && op == BinaryOp::Gt && *k == 0 {
                return Some("the player still holds cards".to_string());
            }
            if n == "cards_left" && op == BinaryOp::Gt && *k == 0 {
                return Some("it is not the hand's last play".to_string());
            }
            // The calls to play on made this hand, the player's own or the others'.
            if (n == "calls" || n == "other_calls")
                && matches!((op, *k), (BinaryOp::Eq, 0) | (BinaryOp::Lt, 1))
            {
                return Some(if n == "calls" {
                    "the player has not called to play on this hand".to_string()
                } else {
                    "no other player has called to play on this hand".to_string()
                });
            }
            if let Some(noun) = noun {
                // `> k` reads as `k + 1 or more`.
                let (op, k) = match op {
                    BinaryOp::Gt => (BinaryOp::Ge, *k + 1),
                    _ => (op, *k),
                };
                return Some(format!("the player has {}", quantified(op, k, noun, None)?));
            }
        }
        // `count(S) op k`: how many of S the pile holds.
        if let (Some(set), ExprKind::Number(k)) = (count_arg(a), &b.kind) {
            let k = *k;
            let size = self.size_of(set);
            let noun = self.set(set)?;
            if size == Some(1) && k == 1 && op == BinaryOp::Eq {
                return Some(noun);
            }
            // Named cards (`count(willow-rainman + paulownia-phoenix) >= 2`): `both the Rain Man
            // and the Phoenix`, `two or more of the Crane, the Curtain and the Moon`.
            if noun.starts_with("the ") && size.is_some_and(|s| s > 1) {
                let all = size.and_then(|s| i64::try_from(s).ok()) == Some(k);
                return match op {
                    BinaryOp::Ge | BinaryOp::Eq if all && k == 2 => Some(format!("both {noun}")),
                    BinaryOp::Ge | BinaryOp::Eq if all => Some(format!("all of {noun}")),
                    _ => quantified(op, k, &format!("of {noun}"), None),
                };
            }
            return quantified(op, k, &noun, size);
        }
        let relation = match op {
            BinaryOp::Eq => "is",
            BinaryOp::Ne => "is not",
            BinaryOp::Lt => "is less than",
            BinaryOp::Le => "is at most",
            BinaryOp::Gt => "is more than",
            BinaryOp::Ge => "is at least",
            _ => return None,
        };
        Some(format!(
            "{} {relation} {}",
            self.number(a)?,
            self.number(b)?
        ))
    }

    fn call(&self, name: &str, args: &[Expr]) -> Option<String> {
        match (name, args) {
            ("has", cards) => {
                let names: Option<Vec<String>> = cards.iter().map(|c| self.set(c)).collect();
                Some(join_and(&names?))
            }
            ("all", [s]) => {
                let noun = self.set(s)?;
                Some(match self.size_of(s) {
                    Some(1) => noun,
                    Some(n) => format!("all {} {noun}", number_word(n as i64)),
                    None => format!("all {noun}"),
                })
            }
            ("any", [s]) => Some(match self.size_of(s) {
                Some(1) => self.set(s)?,
                _ => format!("any of the {}", self.set(s)?),
            }),
            _ => self.number_call(name, args),
        }
    }

    /// A number-valued call.
    fn number_call(&self, name: &str, args: &[Expr]) -> Option<String> {
        let card = &self.lex.card_word;
        match (name, args) {
            ("count", [s]) => Some(format!("the number of {}", self.set(s)?)),
            ("size", [s]) => Some(format!("the number of {} in the deck", self.set(s)?)),
            ("sum", [attr]) => Some(format!("the total {} of the {card}s", name_of(attr)?)),
            ("sum", [attr, s]) => Some(format!(
                "the total {} of the {}",
                name_of(attr)?,
                self.set(s)?
            )),
            ("best", [attr, s]) => Some(format!(
                "the highest {} among the {}",
                name_of(attr)?,
                self.set(s)?
            )),
            ("suits_with", [n]) => Some(format!(
                "the number of {}s with {} or more {card}s",
                self.lex.suit_word,
                self.count_word(n)?
            )),
            ("in_suits_with", [n]) => self.in_suits_with(n),
            ("suits_with", [n, wild]) => Some(format!(
                "the number of {}s with {} or more {card}s, the {} counting in each",
                self.lex.suit_word,
                self.count_word(n)?,
                self.set(wild)?
            )),
            ("run" | "suited_run", [attr, n, rest @ ..]) => Some(format!(
                "the highest {} ending {} {card}s of consecutive {}s{}{}",
                name_of(attr)?,
                self.count_word(n)?,
                name_of(attr)?,
                if name == "suited_run" {
                    format!(" of one {}", self.lex.suit_word)
                } else {
                    String::new()
                },
                match rest {
                    [wild] => format!(" (the {} standing for any)", self.set(wild)?),
                    _ => String::new(),
                }
            )),
            ("tiebreak", [attr, n]) => Some(format!(
                "the {} of the first {} {card}s, the {}s held most often first",
                name_of(attr)?,
                self.count_word(n)?,
                name_of(attr)?
            )),
            ("alike", [attr, n]) => Some(format!(
                "the number of {}s with {} or more {card}s",
                name_of(attr)?,
                self.count_word(n)?
            )),
            ("min", [a, b]) => Some(format!(
                "the lesser of {} and {}",
                self.number(a)?,
                self.number(b)?
            )),
            ("max", [a, b]) => Some(format!(
                "the greater of {} and {}",
                self.number(a)?,
                self.number(b)?
            )),
            _ => None,
        }
    }

    fn number(&self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Number(n) => Some(n.to_string()),
            ExprKind::Name(n) => Some(match n.as_str() {
                "round" => "the round number".to_string(),
                "rounds" => "the number of rounds".to_string(),
                "is_dealer" => "1 for the dealer (0 otherwise)".to_string(),
                "calls" => "the player's calls to play on this hand".to_string(),
                "hand_cards" => "the cards left in the player's hand".to_string(),
                "base" => "the points of the player's yaku".to_string(),
                "last_base" => "the points at the player's last call".to_string(),
                "stacks" => "the stacks the player has made this hand".to_string(),
                "turn" => "the player's turn number this hand".to_string(),
                "cards_left" => "the cards left to play in every hand and the stock".to_string(),
                "hand_points" => "the hand's card values added up".to_string(),
                "player_total" => "the player's total".to_string(),
                "banker_total" => "the banker's total".to_string(),
                "player_cards" => "the player's card count".to_string(),
                "banker_cards" => "the banker's card count".to_string(),
                "player_drew" => "the player's drawn card".to_string(),
                "banker_drew" => "the banker's drawn card".to_string(),
                other => self
                    .lex
                    .values
                    .iter()
                    .find(|(name, _)| name == other)
                    .map(|(_, words)| words.clone())?,
            }),
            ExprKind::Call { name, args, .. } => self.number_call(name, args),
            ExprKind::Unary(UnaryOp::Neg, a) => Some(format!("minus {}", self.number(a)?)),
            // `k + count(S) - m`: k points, one more for each card of S beyond the m needed.
            ExprKind::Binary(BinaryOp::Sub, a, m) => {
                let ExprKind::Number(m) = m.kind else {
                    return self.arithmetic(BinaryOp::Sub, a, m);
                };
                match &a.kind {
                    ExprKind::Binary(BinaryOp::Add, k, c) => {
                        if let (ExprKind::Number(k), Some(s)) = (&k.kind, count_arg(c)) {
                            return Some(format!(
                                "{k}, +1 for each {} beyond {}",
                                self.one_of(s)?,
                                number_word(m)
                            ));
                        }
                        self.arithmetic(BinaryOp::Sub, a, &number_expr(m))
                    }
                    _ => match count_arg(a) {
                        Some(s) => Some(format!(
                            "1 for each {} beyond {}",
                            self.one_of(s)?,
                            number_word(m)
                        )),
                        None => self.arithmetic(BinaryOp::Sub, a, &number_expr(m)),
                    },
                }
            }
            ExprKind::Binary(BinaryOp::Add, ..) if self.per_suit_best(e).is_some() => {
                self.per_suit_best(e)
            }
            ExprKind::Binary(op, a, b) => self.arithmetic(*op, a, b),
            ExprKind::If(c, a, b) => Some(format!(
                "{} when {}, otherwise {}",
                self.number(a)?,
                self.any(c)?,
                self.number(b)?
            )),
            ExprKind::Unary(UnaryOp::Not, _) | ExprKind::Bool(_) => None,
        }
    }

    /// `best(A, S1) + best(A, S2) + ...` over every suit of the deck, each once (Scopa's
    /// primiera): the highest `A` of each suit, added up.
    fn per_suit_best(&self, e: &Expr) -> Option<String> {
        fn leaves<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
            match &e.kind {
                ExprKind::Binary(BinaryOp::Add, a, b) => {
                    leaves(a, out);
                    leaves(b, out);
                }
                _ => out.push(e),
            }
        }
        let mut terms = Vec::new();
        leaves(e, &mut terms);
        let mut attribute = None;
        let mut suits = Vec::new();
        for term in terms {
            let ExprKind::Call { name, args, .. } = &term.kind else {
                return None;
            };
            let ([a, s], "best") = (args.as_slice(), name.as_str()) else {
                return None;
            };
            let (ExprKind::Name(a), ExprKind::Name(s)) = (&a.kind, &s.kind) else {
                return None;
            };
            if attribute.is_some_and(|seen: &String| seen != a) {
                return None;
            }
            attribute = Some(a);
            suits.push(s.as_str());
        }
        suits.sort_unstable();
        let mut every: Vec<&str> = self.lex.suits.iter().map(String::as_str).collect();
        every.sort_unstable();
        let attribute = attribute?;
        (suits.len() > 1 && suits == every).then(|| {
            format!(
                "each {}'s highest {attribute}, added up",
                self.lex.suit_word
            )
        })
    }

    /// A count: a literal in words (`four`), anything else as a number.
    fn count_word(&self, e: &Expr) -> Option<String> {
        match e.kind {
            ExprKind::Number(n) => Some(number_word(n)),
            _ => self.number(e),
        }
    }

    fn arithmetic(&self, op: BinaryOp, a: &Expr, b: &Expr) -> Option<String> {
        let (a, b) = (self.number(a)?, self.number(b)?);
        Some(match op {
            BinaryOp::Add => format!("{a} plus {b}"),
            BinaryOp::Sub => format!("{a} minus {b}"),
            BinaryOp::Mul => format!("{a} times {b}"),
            BinaryOp::Div => format!("{a} divided by {b}"),
            BinaryOp::Rem => format!("{a} modulo {b}"),
            _ => return None,
        })
    }

    /// `in_suits_with(n)`: "cards of each month held four or more times".
    fn in_suits_with(&self, n: &Expr) -> Option<String> {
        Some(format!(
            "{}s of each {} held {} or more times",
            self.lex.card_word,
            self.lex.suit_word,
            self.count_word(n)?
        ))
    }

    /// A set in words: a plural noun, or a card's name.
    fn set(&self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Name(n) if n == "pile" => Some(self.lex.pile_words.clone()),
            ExprKind::Name(n) => self.lex.set(n).map(|s| s.words.clone()),
            ExprKind::Call { name, args, .. }
                if (name == "month" || name == "suit") && args.len() == 1 =>
            {
                let suit = &self.lex.suit_word;
                let card = &self.lex.card_word;
                Some(match &args[0].kind {
                    ExprKind::Name(r) if r == "round" => format!("{card}s of the round's {suit}"),
                    _ => format!("{card}s of {suit} {}", self.number(&args[0])?),
                })
            }
            ExprKind::Call { name, args, .. } if name == "in_suits_with" && args.len() == 1 => {
                self.in_suits_with(&args[0])
            }
            ExprKind::Binary(BinaryOp::Add, a, b) => {
                Some(format!("{} and {}", self.set(a)?, self.set(b)?))
            }
            ExprKind::Binary(BinaryOp::Sub, a, b) => {
                Some(format!("{} other than {}", self.set(a)?, self.set(b)?))
            }
            ExprKind::Binary(BinaryOp::Inter, a, b) => {
                Some(format!("{} that are also {}", self.set(a)?, self.set(b)?))
            }
            _ => None,
        }
    }

    /// One card of a set, for "+1 for each ...": `bright card`, or the card's name.
    fn one_of(&self, e: &Expr) -> Option<String> {
        let s = self.lex.set(name_of(e)?)?;
        Some(if s.is_card {
            s.words.clone()
        } else {
            s.words.strip_suffix('s').unwrap_or(&s.words).to_string()
        })
    }

    fn size_of(&self, e: &Expr) -> Option<usize> {
        match &e.kind {
            ExprKind::Name(n) => self.lex.set(n).map(|s| s.size),
            // Named cards joined (`willow-rainman + paulownia-phoenix`): one each, when no card
            // is named twice.
            ExprKind::Binary(BinaryOp::Add, ..) => {
                fn cards<'e>(e: &'e Expr, out: &mut Vec<&'e str>) -> bool {
                    match &e.kind {
                        ExprKind::Binary(BinaryOp::Add, a, b) => cards(a, out) && cards(b, out),
                        ExprKind::Name(n) => {
                            out.push(n);
                            true
                        }
                        _ => false,
                    }
                }
                let mut names = Vec::new();
                if !cards(e, &mut names)
                    || !names
                        .iter()
                        .all(|n| self.lex.set(n).is_some_and(|s| s.is_card))
                {
                    return None;
                }
                names.sort_unstable();
                names.dedup();
                Some(names.len())
            }
            _ => None,
        }
    }

    fn is_set(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Name(n) => n == "pile" || self.lex.set(n).is_some(),
            ExprKind::Call { name, .. } => {
                name == "month" || name == "suit" || name == "in_suits_with"
            }
            ExprKind::Binary(BinaryOp::Inter, ..) => true,
            ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub, a, _) => self.is_set(a),
            _ => false,
        }
    }
}

/// `noun` counted against `k` with `op`: `all five bright cards`, `four or more months ...`.
fn quantified(op: BinaryOp, k: i64, noun: &str, size: Option<usize>) -> Option<String> {
    let n = number_word(k);
    let singular;
    let noun = if k == 1 && op != BinaryOp::Ge {
        singular = singular_noun(noun);
        &singular
    } else {
        noun
    };
    Some(match op {
        BinaryOp::Eq if k == 0 => format!("no {noun}"),
        BinaryOp::Eq if size.is_some_and(|s| i64::try_from(s) == Ok(k)) => {
            format!("all {n} {noun}")
        }
        BinaryOp::Eq => format!("exactly {n} {noun}"),
        BinaryOp::Ge => format!("{n} or more {noun}"),
        BinaryOp::Gt => format!("more than {n} {noun}"),
        BinaryOp::Le => format!("at most {n} {noun}"),
        BinaryOp::Lt => format!("fewer than {n} {noun}"),
        BinaryOp::Ne => format!("not exactly {n} {noun}"),
        _ => return None,
    })
}

/// `months with ...` -> `month with ...`, `Nine cards` -> `Nine card`: the plural word (the first
/// when it is one, otherwise the last) without its `s`.
fn singular_noun(noun: &str) -> String {
    let (first, rest) = noun.split_once(' ').unwrap_or((noun, ""));
    if let Some(first) = first.strip_suffix('s') {
        return if rest.is_empty() {
            first.to_string()
        } else {
            format!("{first} {rest}")
        };
    }
    match noun.rsplit_once(' ') {
        Some((head, last)) => format!("{head} {}", last.strip_suffix('s').unwrap_or(last)),
        None => noun.to_string(),
    }
}

fn is_comparison(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
    )
}

/// `S` when `e` is `count(S)`.
fn count_arg(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Call { name, args, .. } if name == "count" && args.len() == 1 => Some(&args[0]),
        _ => None,
    }
}

fn name_of(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Name(n) => Some(n),
        _ => None,
    }
}

fn number_expr(n: i64) -> Expr {
    Expr {
        kind: ExprKind::Number(n),
        span: 0..0,
    }
}

/// `a`, `a and b`, `a, b and c`.
fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
