//! Sandboxed rhai scoring scripts: variant-specific multipliers and doublings, compiled once when
//! a ruleset loads and called once per hand end with the hand's facts.
//!
//! The engine has no file, module or network access, no `eval`, and limits on operations, call
//! depth, expression depth and string, array and map sizes, so a bad script cannot hang a
//! simulation: it fails with an error naming its file and line.
//!
//! A call costs microseconds, far more than the rest of a simulated hand, so results are cached
//! per thread. The cache key holds only the facts the script can observe: when `hand` is used
//! only to read properties by name (`hand.base`), the facts it never names cannot change its
//! result and are left out of the key (the standard rules' script reads `base`, `instant`,
//! `exhausted` and `calls_opponent`, so every count of calls, round and dealer share one entry).
//!
//! The calls to play on are counted under generic names (`calls_self`, `calls_opponent`,
//! `calls`) and also under the names of the ruleset's `continue` declarations (`go_self` for a
//! declaration `go`), so a script reads in its game's own words.
//! Finding those names needs rhai's syntax tree, hence its `internals` feature.
//!
//! ```
//! let ruleset = yaku::ruleset::load("koikoi").value.unwrap();
//! let script = ruleset.scoring.as_ref().expect("Koi-Koi scores with a script");
//! let facts = yaku::script::HandFacts { base: 8, ..Default::default() };
//! let outcome = script.score(&facts).unwrap();
//! assert_eq!(outcome.total, 16); // seven points or more count double
//! ```

use crate::diag::{Diagnostic, FileId, Loc, SourceMap};

mod fast;
use rhai::{AST, ASTNode, Dynamic, Engine, Expr, Map, Position, Scope, Stmt};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::rc::Rc;
use std::sync::Arc;

/// The largest scoring script compiled, in bytes.
pub const MAX_SCRIPT_SIZE: usize = 256 * 1024;

/// The most lines a scoring script may have: rhai's positions count lines in 16 bits.
pub const MAX_SCRIPT_LINES: usize = u16::MAX as usize;

/// The most points a script may return for a hand (a total, the opponent's, a seat's pay): far
/// above any real score, and low enough that a game's sums never leave the 64-bit range (a
/// script returning 2^63-1 made the totals saturate and the game read as a draw).
pub const MAX_SCRIPT_POINTS: i64 = 1_000_000_000;

/// The hook every scoring script defines.
pub const SCORE_HOOK: &str = "score";

/// Operations one call may perform before it is stopped.
pub const MAX_OPERATIONS: u64 = 200_000;

/// Wall-clock time one call may take before it is stopped. Some single operations are slow
/// (sorting a long array of long strings takes milliseconds), so the operation limit alone does
/// not bound a call's time; a well-behaved call takes microseconds.
pub const MAX_CALL_TIME: std::time::Duration = std::time::Duration::from_millis(500);

/// How many operations pass between two looks at the clock.
const CLOCK_CHECK_INTERVAL: u64 = 256;

/// The message of a call stopped at [`MAX_CALL_TIME`].
const TIME_LIMIT_MESSAGE: &str = "the call took too long (over 0.5 s)";

/// A compiled scoring script.
#[derive(Clone)]
pub struct ScoringScript {
    engine: Arc<Engine>,
    ast: Arc<AST>,
    /// `score(hand)` compiled to run on the facts where they lie ([`fast`]), when the script
    /// uses only what that covers; rhai runs it otherwise, and whenever the compiled run gives
    /// up.
    compiled: Option<Arc<fast::Program>>,
    /// A process-unique id, keying this script's entries in the per-thread result cache.
    id: u64,
    /// The facts of `hand` the script can observe.
    reads: FactReads,
    /// The cache key's mask for `reads`; `None` when results are not cached.
    key_mask: Option<KeyMask>,
    /// The family facts the script can observe by name; `None` when it may observe any.
    extra_reads: Option<Arc<ExtraReads>>,
    /// The script's file name, for errors.
    file_name: String,
    /// The ruleset's names for the call facts.
    aliases: Arc<Aliases>,
    /// The `reason` texts of the steps the script documents, in source order (for rule sheets).
    steps: Arc<[String]>,
    /// The ruleset's options, `hand.options`: the same for every hand, so not part of the
    /// cache key.
    options: Arc<Map>,
    /// House rules' adjustments, run in order after `score`.
    adjust: Arc<[Adjustment]>,
    /// The ruleset says every hand's points sum to zero across the seats (`zero_sum`).
    zero_sum: bool,
}

impl std::fmt::Debug for ScoringScript {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ScoringScript({})", self.file_name)
    }
}

/// Results remembered per thread before the cache is emptied.
const CACHE_CAPACITY: usize = 1 << 14;

/// An exact, compact identity of a [`HandFacts`] for the result cache: which yaku with which
/// points, and every other fact. [`ScoringScript::score_cached`] keeps only the facts its script
/// can observe.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FactsKey {
    /// The yaku that count: bit `i` for yaku `i` of the ruleset's table, and their points, 16
    /// bits each in table order. `None` when they do not fit (more than 8 yaku, points beyond
    /// `i16`) or are not table yaku (an instant win): then only a script that never reads
    /// `hand.yaku` can be cached.
    pub yaku: Option<(u64, u128)>,
    /// `base`.
    pub base: i64,
    /// Calls to play on by the scorer and by the other players.
    pub calls: (u32, u32),
    /// `table_count`.
    pub table_count: i64,
    /// Round and rounds.
    pub round: (u32, u32),
    /// The scorer is the dealer.
    pub dealer: bool,
    /// `instant` and `exhausted`.
    pub special: (bool, bool),
}

/// A [`FactsKey`] as eight words, with the facts its script cannot observe cleared: the
/// result cache's key. Narrowing is one mask per word, and hashing and comparing are word
/// operations (a cache hit is on every settlement of a simulation).
#[derive(Clone, Copy, Debug)]
struct PackedKey([u64; 8]);

impl PackedKey {
    /// Bits of the last word: the key holds the yaku, and the three flags.
    const HAS_YAKU: u64 = 1;
    const DEALER: u64 = 2;
    const INSTANT: u64 = 4;
    const EXHAUSTED: u64 = 8;

    /// `key` narrowed by `mask`, or `None` when the script reads the yaku and the key does not
    /// hold them. Distinct narrowed facts give distinct keys: each field has its own bits.
    #[inline]
    fn narrowed(key: &FactsKey, mask: &KeyMask) -> Option<PackedKey> {
        let flags = |on: bool, bit: u64| if on { bit } else { 0 };
        let (yaku, points) = match key.yaku {
            Some(y) => y,
            None if mask.words[7] & PackedKey::HAS_YAKU != 0 => return None,
            None => (0, 0),
        };
        let (own, other) = key.calls;
        let calls = if mask.calls_sum {
            u64::from(own.wrapping_add(other))
        } else {
            u64::from(own) | u64::from(other) << 32
        };
        let words = [
            yaku,
            points as u64,
            (points >> 64) as u64,
            key.base as u64,
            calls,
            key.table_count as u64,
            u64::from(key.round.0) | u64::from(key.round.1) << 32,
            flags(key.yaku.is_some(), PackedKey::HAS_YAKU)
                | flags(key.dealer, PackedKey::DEALER)
                | flags(key.special.0, PackedKey::INSTANT)
                | flags(key.special.1, PackedKey::EXHAUSTED),
        ];
        Some(PackedKey(std::array::from_fn(|i| words[i] & mask.words[i])))
    }
}

impl Hash for PackedKey {
    /// The words folded into one before hashing: most are cleared by the mask, and the fold
    /// (each word turned by its own amount) costs two operations a word where the hasher's
    /// step costs three and a dependent multiply. Equal keys still hash equal; the table
    /// compares whole keys.
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mut folded = 0u64;
        for (i, w) in self.0.iter().enumerate() {
            folded ^= w.rotate_left(9 * i as u32);
        }
        state.write_u64(folded);
    }
}

impl PartialEq for PackedKey {
    /// Word by word without a branch (the derived comparison calls `bcmp` on 64 bytes).
    #[inline]
    fn eq(&self, other: &PackedKey) -> bool {
        self.0
            .iter()
            .zip(&other.0)
            .fold(0, |differ, (a, b)| differ | (a ^ b))
            == 0
    }
}

impl Eq for PackedKey {}

/// Which bits of a [`PackedKey`] a script observes (see [`FactReads::key_mask`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct KeyMask {
    words: [u64; 8],
    /// The script sees only the calls' sum, kept in the calls word's low half.
    calls_sum: bool,
}

/// The facts `hand` holds, by name: bit `i` of [`FactReads`] stands for `FACT_NAMES[i]`.
pub const FACT_NAMES: [&str; 11] = [
    "yaku",
    "base",
    "calls_self",
    "calls_opponent",
    "calls",
    "table_count",
    "round",
    "rounds",
    "dealer",
    "instant",
    "exhausted",
];

/// The family's own facts (beyond [`FACT_NAMES`]) a script can observe, by name.
pub type ExtraReads = std::collections::BTreeSet<String>;

/// The facts of `hand` a script can observe, one bit per name of [`FACT_NAMES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FactReads(u16);

impl FactReads {
    /// Every fact of [`FACT_NAMES`].
    pub const ALL: FactReads = FactReads((1 << FACT_NAMES.len()) - 1);

    /// The bit for facts beyond [`FACT_NAMES`] (a family's own, as `seats`): a script that may
    /// read them is never cached, since the cache key does not hold them.
    const EXTRA: u16 = 1 << 15;

    /// The facts either may observe.
    fn or(self, other: FactReads) -> FactReads {
        FactReads(self.0 | other.0)
    }

    /// True when the script may read facts beyond [`FACT_NAMES`] (each seat's pile, ...).
    pub fn reads_extra(self) -> bool {
        self.0 & FactReads::EXTRA != 0
    }

    /// True when the script may observe `hand.yaku`.
    pub fn reads_yaku(self) -> bool {
        self.0 >> fact::YAKU & 1 == 1
    }

    /// True when the script may observe the fact `name`.
    pub fn reads(self, name: &str) -> bool {
        FACT_NAMES
            .iter()
            .position(|n| *n == name)
            .is_some_and(|i| self.0 >> i & 1 == 1)
    }

    /// The facts `fn score(hand)` in `ast` reads, and the family's own facts (beyond
    /// [`FACT_NAMES`]) by name: `None` when it may read any. Exact only in one direction: a fact
    /// not in the result cannot influence the script's result.
    ///
    /// Every mention of a variable with the hook parameter's name, in any function, must be the
    /// left side of a property access (`hand.base`, `hand.yaku.len()`, `hand.yaku[0]`), whose
    /// property is read, or an argument of a call to a function of the script (`table(hand)`),
    /// whose parameter is then followed the same way. Anything else (passing `hand` to a
    /// built-in function or a closure, indexing it with a string, calling a method on it,
    /// assigning it, printing it) may observe every fact, and gives [`FactReads::ALL`] with
    /// every family fact. A shadowing local of a followed name only adds reads.
    fn of(ast: &AST, aliases: &Aliases) -> (FactReads, Option<ExtraReads>) {
        FactReads::of_hook(ast, aliases, SCORE_HOOK, 1)
    }

    /// [`FactReads::of`] for the hook `name` with `arity` parameters, `hand` first.
    fn of_hook(
        ast: &AST,
        aliases: &Aliases,
        name: &str,
        arity: usize,
    ) -> (FactReads, Option<ExtraReads>) {
        let anything = (FactReads(FactReads::ALL.0 | FactReads::EXTRA), None);
        let Some(param) = ast
            .iter_functions()
            .find(|f| f.name == name && f.params.len() == arity)
            .map(|f| f.params[0].to_string())
        else {
            return anything;
        };
        // The names `hand` goes by: the hook's parameter, then each parameter of a function
        // of the script it is passed to. Walked again until no name is added.
        let mut followed = ExtraReads::from([param]);
        loop {
            let mut read = 0u16;
            let mut extra = ExtraReads::new();
            let mut added = Vec::new();
            let named_only = ast.walk(&mut |path: &[ASTNode]| {
                let Some(ASTNode::Expr(node @ Expr::Variable(var, ..))) = path.last() else {
                    return true;
                };
                if !followed.contains(var.1.as_str()) {
                    return true;
                }
                match path.len().checked_sub(2).map(|i| &path[i]) {
                    Some(ASTNode::Expr(Expr::Dot(dot, ..))) if std::ptr::eq(&dot.lhs, *node) => {
                        // A method call first (`hand.to_json()`) stops the walk: the script
                        // may observe anything.
                        let Some(name) = first_property(&dot.rhs) else {
                            return false;
                        };
                        match fact_index(name, aliases) {
                            Some(i) => read |= 1 << i,
                            // The ruleset's options: the same for every hand.
                            None if name == "options" => {}
                            None => {
                                extra.insert(name.to_string());
                            }
                        }
                        true
                    }
                    // Passed whole to a function of the script, in place of one of its
                    // parameters (not one that sees the caller's variables, `f!(hand)`).
                    Some(
                        ASTNode::Expr(Expr::FnCall(call, ..))
                        | ASTNode::Stmt(Stmt::FnCall(call, ..)),
                    ) if call.namespace.is_empty() && !call.capture_parent_scope => {
                        let at = call.args.iter().position(|a| std::ptr::eq(a, *node));
                        let callee = ast.iter_functions().find(|f| {
                            f.name == call.name.as_str() && f.params.len() == call.args.len()
                        });
                        match (at, callee) {
                            (Some(at), Some(f)) => {
                                if !followed.contains(f.params[at]) {
                                    added.push(f.params[at].to_string());
                                }
                                true
                            }
                            _ => false,
                        }
                    }
                    _ => false,
                }
            });
            if !named_only {
                return anything;
            }
            if added.is_empty() {
                if !extra.is_empty() {
                    read |= FactReads::EXTRA;
                }
                return (FactReads(read), Some(extra));
            }
            followed.extend(added);
        }
    }

    /// The cache key's mask for a script that observes these facts: the words and bits of a
    /// [`PackedKey`] it can tell apart. `None` when the script may read facts the key does not
    /// hold.
    fn key_mask(self) -> Option<KeyMask> {
        if self.reads_extra() {
            return None;
        }
        let r = |fact: usize| self.0 >> fact & 1 == 1;
        let all = |fact: usize| if r(fact) { u64::MAX } else { 0 };
        let low = u64::from(u32::MAX);
        // Only the sum of the calls is seen: it is kept in the low half.
        let calls_sum = !r(fact::CALLS_SELF) && !r(fact::CALLS_OPPONENT) && r(fact::CALLS);
        let calls = if calls_sum {
            low
        } else {
            let sum = r(fact::CALLS);
            (if r(fact::CALLS_SELF) || sum { low } else { 0 })
                | (if r(fact::CALLS_OPPONENT) || sum {
                    low << 32
                } else {
                    0
                })
        };
        let flag = |fact: usize, bit: u64| if r(fact) { bit } else { 0 };
        Some(KeyMask {
            words: [
                all(fact::YAKU),
                all(fact::YAKU),
                all(fact::YAKU),
                all(fact::BASE),
                calls,
                all(fact::TABLE_COUNT),
                (if r(fact::ROUND) { low } else { 0 })
                    | (if r(fact::ROUNDS) { low << 32 } else { 0 }),
                flag(fact::YAKU, PackedKey::HAS_YAKU)
                    | flag(fact::DEALER, PackedKey::DEALER)
                    | flag(fact::INSTANT, PackedKey::INSTANT)
                    | flag(fact::EXHAUSTED, PackedKey::EXHAUSTED),
            ],
            calls_sum,
        })
    }
}

/// Other names of facts: the ruleset's words for the calls to play on, with the position in
/// [`FACT_NAMES`] of the fact each names.
pub type Aliases = Vec<(String, usize)>;

/// The aliases of the call facts for the ruleset's `continue` declarations (ids with `_` for
/// `-`): `go_self`, `go_opponent` and `go` for a declaration `go`.
pub fn call_aliases(calls: &[String]) -> Aliases {
    calls
        .iter()
        .flat_map(|c| {
            [
                (format!("{c}_self"), fact::CALLS_SELF),
                (format!("{c}_opponent"), fact::CALLS_OPPONENT),
                (c.clone(), fact::CALLS),
            ]
        })
        .filter(|(name, _)| !FACT_NAMES.contains(&name.as_str()))
        .collect()
}

/// The position in [`FACT_NAMES`] of the fact `name` names, directly or as an alias.
fn fact_index(name: &str, aliases: &Aliases) -> Option<usize> {
    FACT_NAMES
        .iter()
        .position(|n| *n == name)
        .or_else(|| aliases.iter().find(|(a, _)| a == name).map(|(_, i)| *i))
}

/// Positions in [`FACT_NAMES`].
mod fact {
    pub const YAKU: usize = 0;
    pub const BASE: usize = 1;
    pub const CALLS_SELF: usize = 2;
    pub const CALLS_OPPONENT: usize = 3;
    pub const CALLS: usize = 4;
    pub const TABLE_COUNT: usize = 5;
    pub const ROUND: usize = 6;
    pub const ROUNDS: usize = 7;
    pub const DEALER: usize = 8;
    pub const INSTANT: usize = 9;
    pub const EXHAUSTED: usize = 10;
}

/// The property read first in the right side of a property chain (`yaku` in `.yaku[0].id`), or
/// `None` when it starts with a method call.
fn first_property(e: &Expr) -> Option<&str> {
    match e {
        Expr::Property(p, ..) => Some(p.2.as_str()),
        Expr::Dot(x, ..) | Expr::Index(x, ..) => first_property(&x.lhs),
        _ => None,
    }
}

/// A fast hasher for the cache's small fixed-size keys (the Fx hash of rustc): SipHash cost
/// as much as the rest of a cache hit.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Results remembered on one thread, by script id and the facts' key.
type Results<K> =
    std::collections::HashMap<(u64, K), Rc<ScoreOutcome>, BuildHasherDefault<KeyHasher>>;

/// The result `cache` remembers for `key`, or else `run`'s on the key's facts, then
/// remembered (the cache is emptied when it holds [`CACHE_CAPACITY`] results).
#[inline]
fn remembered<K: Hash + Eq + 'static>(
    cache: &'static std::thread::LocalKey<std::cell::RefCell<Results<K>>>,
    key: (u64, K),
    run: impl FnOnce(&K) -> Result<ScoreOutcome, ScriptError>,
) -> Result<Rc<ScoreOutcome>, ScriptError> {
    if let Some(hit) = cache.with(|c| c.borrow().get(&key).cloned()) {
        return Ok(hit);
    }
    let outcome = Rc::new(run(&key.1)?);
    cache.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= CACHE_CAPACITY {
            c.clear();
        }
        c.insert(key, Rc::clone(&outcome));
    });
    Ok(outcome)
}

/// One yaku as the script sees it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScriptYaku {
    /// Yaku id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Points.
    pub points: i64,
}

/// What the scoring script is told about a finished hand.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct HandFacts {
    /// The yaku the winner holds (after group rules), with their points.
    pub yaku: Vec<ScriptYaku>,
    /// The sum of their points.
    pub base: i64,
    /// Calls to play on by the winner in this hand.
    pub calls_self: i64,
    /// Calls to play on by the other players in this hand.
    pub calls_opponent: i64,
    /// The ruleset's `table_count` (brights on the table at the deal, for the classic rules).
    pub table_count: i64,
    /// The round, 1-based.
    pub round: i64,
    /// Rounds in the game (0 when played to a target score).
    pub rounds: i64,
    /// The winner is the dealer.
    pub dealer: bool,
    /// The hand ended by an instant win at the deal (teshi, kuttsuki).
    pub instant: bool,
    /// The hand ended with both hands exhausted and a house rule awards points.
    pub exhausted: bool,
    /// Facts of the family beyond these, by name (a trick-taking hand's `end`, `points_self`,
    /// `tricks_opponent`, ...).
    pub extra: Vec<(&'static str, FactValue)>,
}

/// The value of a family's own fact.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FactValue {
    /// A number.
    Int(i64),
    /// A word.
    Text(String),
    /// A yes or no.
    Bool(bool),
    /// A list (one entry per seat).
    List(Vec<FactValue>),
    /// Named values.
    Map(Vec<(String, FactValue)>),
}

impl FactValue {
    fn to_dynamic(&self) -> Dynamic {
        match self {
            FactValue::Int(n) => (*n).into(),
            FactValue::Text(t) => t.clone().into(),
            FactValue::Bool(b) => (*b).into(),
            FactValue::List(items) => {
                Dynamic::from_array(items.iter().map(FactValue::to_dynamic).collect())
            }
            FactValue::Map(entries) => {
                let mut m = Map::new();
                for (k, v) in entries {
                    m.insert(k.as_str().into(), v.to_dynamic());
                }
                Dynamic::from_map(m)
            }
        }
    }
}

/// One step of the script's calculation, for `yaku score` and the play screen.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ScoreStep {
    /// Why, in the player's words (a step's `source`, the rule it follows, is for rule sheets
    /// and is not shown with a hand's score).
    pub reason: String,
    /// The running total after this step.
    pub total: i64,
    /// The seat the step is about (one loser's payment), when the script says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<usize>,
}

/// The script's answer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ScoreOutcome {
    /// Points for the winner.
    pub total: i64,
    /// Points for the other player (0 in most rules).
    pub opponent: i64,
    /// The multipliers applied, in order.
    pub steps: Vec<ScoreStep>,
    /// What each seat pays the winner, by seat (the winner's own entry 0), when the script
    /// settles each loser separately; empty otherwise.
    pub pays: Vec<i64>,
    /// Each seat's signed points for the hand, by seat, when the script settles every seat
    /// itself (`seats`); empty otherwise. Taken as they are: negative points are allowed.
    pub seats: Vec<i64>,
    /// The hand's winner as the script says it (`winner`: a seat, or -1 for nobody), when it
    /// says; otherwise the game's own (the seat that stopped, or the best-placed seat).
    pub winner: Option<i64>,
    /// Values carried into the next hand (`carry`), by id, as the script wrote them.
    pub carry: Vec<(String, CarriedValue)>,
}

/// A value the script carries into the next hand: one number for the table, or an array of
/// one per seat.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum CarriedValue {
    /// The table's value.
    One(i64),
    /// Each seat's value.
    PerSeat(Vec<i64>),
}

impl ScoreOutcome {
    /// An outcome of `total` points for the winner and nothing else: a script that returned a
    /// number, or a ruleset without a script.
    pub fn of_total(total: i64) -> ScoreOutcome {
        ScoreOutcome {
            total,
            opponent: 0,
            steps: Vec::new(),
            pays: Vec::new(),
            seats: Vec::new(),
            winner: None,
            carry: Vec::new(),
        }
    }
}

/// A failure while running a script, located by file and line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    /// `file:line: message`.
    pub message: String,
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ScriptError {}

/// The limited engine every script runs on.
fn sandbox() -> Engine {
    let mut engine = Engine::new();
    engine.set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new());
    engine.disable_symbol("eval");
    engine.on_print(|_| {});
    engine.on_debug(|_, _, _| {});
    engine.set_max_operations(MAX_OPERATIONS);
    engine.on_progress(check_call_time);
    // Scripts are pure functions of `hand`: no waiting, no clock (the same seed must give the
    // same report, and results are cached). Engine-registered functions take precedence over
    // rhai's packages, so these replace the built-in `sleep` and `timestamp`.
    engine.register_fn(
        "sleep",
        |_: rhai::INT| -> Result<(), Box<rhai::EvalAltResult>> { Err(IMPURE_MESSAGE.into()) },
    );
    engine.register_fn(
        "sleep",
        |_: rhai::FLOAT| -> Result<(), Box<rhai::EvalAltResult>> { Err(IMPURE_MESSAGE.into()) },
    );
    engine.register_fn("timestamp", || -> Result<(), Box<rhai::EvalAltResult>> {
        Err(IMPURE_MESSAGE.into())
    });
    // No string interner: it is one lock in the engine, which every worker of a simulation
    // shares, and rhai waits 10 ms whenever it finds it taken (Matgo, whose script runs at every
    // hand's end, ran no faster on two threads than on one).
    engine.set_max_strings_interned(0);
    engine.set_max_call_levels(32);
    engine.set_max_expr_depths(64, 32);
    engine.set_max_string_size(4_096);
    engine.set_max_array_size(1_024);
    engine.set_max_map_size(256);
    engine.set_max_variables(256);
    engine.set_max_functions(64);
    engine.set_max_modules(0);
    // `hand.bse` is an error naming the field, not a silent `()` that fails later.
    engine.set_fail_on_invalid_map_property(true);
    engine
}

/// The string after each `reason:` in a script's text; in a template string each `${...}` is
/// shown as the expression it holds (`x${k + 1}` -> `x(k + 1)`). A `source: "..."` in the same
/// step follows in parentheses: the sheet cites the rule, while a hand's score lines show the
/// reason alone.
fn documented_steps(text: &str) -> Vec<String> {
    text.match_indices("reason:")
        .filter_map(|(at, key)| {
            let rest = text[at + key.len()..].trim_start();
            let quote = rest.chars().next().filter(|c| *c == '"' || *c == '`')?;
            let body = &rest[1..];
            let after_body = &body[body.find(quote)? + 1..];
            let body = &body[..body.find(quote)?];
            // The rest of this step's map: up to its closing brace.
            let step_rest = &after_body[..after_body.find('}').unwrap_or(after_body.len())];
            let source = step_rest.split_once("source:").and_then(|(_, s)| {
                let s = s.trim_start().strip_prefix('"')?;
                s.split_once('"').map(|(src, _)| src.to_string())
            });
            let mut out = String::new();
            let mut parts = body.split("${");
            out.push_str(parts.next().unwrap_or_default());
            for part in parts {
                let (expr, after) = part.split_once('}').unwrap_or((part, ""));
                let expr = expr.trim().replace("hand.", "");
                if expr.contains(' ') {
                    out.push_str(&format!("({expr})"));
                } else {
                    out.push_str(&expr);
                }
                out.push_str(after);
            }
            if let Some(source) = source {
                out.push_str(&format!(" ({source})"));
            }
            Some(out)
        })
        .collect()
}

/// Why `sleep` and `timestamp` fail.
const IMPURE_MESSAGE: &str =
    "scripts may not wait or read the clock: `score(hand)` must depend on `hand` only";

/// The progress hook: notes when a call starts (its first operation) and stops it once it has
/// run longer than [`MAX_CALL_TIME`]. Calls on one thread never overlap, so one start per
/// thread is enough.
fn check_call_time(operations: u64) -> Option<Dynamic> {
    thread_local! {
        static STARTED: std::cell::Cell<Option<std::time::Instant>> =
            const { std::cell::Cell::new(None) };
    }
    if operations <= 1 {
        STARTED.with(|s| s.set(Some(std::time::Instant::now())));
    } else if operations.is_multiple_of(CLOCK_CHECK_INTERVAL)
        && STARTED
            .with(|s| s.get())
            .is_some_and(|t| t.elapsed() > MAX_CALL_TIME)
    {
        return Some(Dynamic::from(TIME_LIMIT_MESSAGE));
    }
    None
}

impl ScoringScript {
    /// Compiles a script and checks that it defines `fn score(hand)`. `loc` is where the script
    /// is named in the ruleset; `file` is the script's own source file.
    pub fn compile(
        sources: &SourceMap,
        file: FileId,
        named_at: &Loc,
        calls: &[String],
        options: &[crate::ruleset::RuleOption],
        errors: &mut Vec<Diagnostic>,
    ) -> Option<ScoringScript> {
        let text = &sources.get(file).text;
        if let Some(d) = too_large(sources, file, named_at) {
            errors.push(d);
            return None;
        }
        let engine = sandbox();
        let aliases = call_aliases(calls);
        match engine.compile(text) {
            Ok(ast) => {
                let has_hook = ast
                    .iter_functions()
                    .any(|f| f.name == SCORE_HOOK && f.params.len() == 1);
                if !has_hook {
                    errors.push(
                        Diagnostic::error(
                            format!("the scoring script does not define `fn {SCORE_HOOK}(hand)`"),
                            named_at.clone(),
                        )
                        .with_help(Some(format!(
                            "the script is `{}`; see README.md for the facts `hand` holds",
                            sources.get(file).name
                        ))),
                    );
                    return None;
                }
                static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
                let (reads, extra_reads) = FactReads::of(&ast, &aliases);
                Some(ScoringScript {
                    compiled: fast::Program::compile(&ast).map(Arc::new),
                    id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
                    reads,
                    key_mask: reads.key_mask(),
                    extra_reads: extra_reads.map(Arc::new),
                    engine: Arc::new(engine),
                    ast: Arc::new(ast),
                    file_name: sources.get(file).name.clone(),
                    aliases: Arc::new(aliases),
                    steps: documented_steps(text).into(),
                    adjust: Arc::new([]),
                    zero_sum: false,
                    options: Arc::new(
                        options
                            .iter()
                            .map(|o| {
                                let value = match o.value {
                                    crate::ruleset::OptionValue::Int(n) => Dynamic::from(n),
                                    crate::ruleset::OptionValue::Bool(b) => Dynamic::from(b),
                                };
                                (o.id.as_str().into(), value)
                            })
                            .collect(),
                    ),
                })
            }
            Err(e) => {
                let span = position_span(text, e.position());
                errors.push(Diagnostic::error(
                    format!("scoring script does not compile: {}", e.err_type()),
                    Loc::new(file, span),
                ));
                None
            }
        }
    }

    /// This script with the ruleset's word on whether hands sum to zero (`[scoring] zero_sum`).
    pub fn zero_sum(mut self, zero_sum: bool) -> ScoringScript {
        self.zero_sum = zero_sum;
        self
    }

    /// Whether every hand's points must sum to zero across the seats.
    pub fn is_zero_sum(&self) -> bool {
        self.zero_sum
    }

    /// Checks that `points`, one per seat (or per team: `unit`), sum to zero when the ruleset
    /// says they must; `Err` names every seat with its points and what the sum is off by.
    pub fn check_zero_sum(&self, points: &[i64], unit: &str) -> Result<(), ScriptError> {
        if !self.zero_sum {
            return Ok(());
        }
        let sum = points.iter().fold(0i64, |a, p| a.saturating_add(*p));
        if sum == 0 {
            return Ok(());
        }
        let seats: Vec<String> = points
            .iter()
            .enumerate()
            .map(|(s, p)| format!("{unit} {s} {p:+}"))
            .collect();
        Err(self.error(
            &format!(
                "the ruleset is zero-sum (`zero_sum = true`) but this hand's points add up to {sum:+}: {}",
                seats.join(", ")
            ),
            Position::NONE,
        ))
    }

    /// The steps the script documents: the text of each `reason: "..."` it can return, in
    /// source order, for rule sheets.
    pub fn steps(&self) -> &[String] {
        &self.steps
    }

    /// The facts of `hand` the script can observe.
    pub fn reads(&self) -> FactReads {
        self.reads
    }

    /// Runs `score(hand)`, or returns the remembered result for facts that agree with `key` in
    /// everything the script can observe.
    ///
    /// Scripts are pure functions of the hand's facts (the sandbox gives them no state that
    /// survives a call), so a result can be reused for facts it cannot tell apart. `key` must
    /// identify `facts()` exactly; the cache is per thread, so results never depend on the
    /// thread count.
    #[inline]
    pub fn score_cached(
        &self,
        key: FactsKey,
        facts: impl FnOnce() -> HandFacts,
    ) -> Result<Rc<ScoreOutcome>, ScriptError> {
        thread_local! {
            // Initialized as a constant: no lazy-initialization check on every lookup.
            static CACHE: std::cell::RefCell<Results<PackedKey>> = const {
                std::cell::RefCell::new(std::collections::HashMap::with_hasher(
                    BuildHasherDefault::new(),
                ))
            };
        }
        let Some(key) = self
            .key_mask
            .as_ref()
            .and_then(|mask| PackedKey::narrowed(&key, mask))
        else {
            return self.score(&facts()).map(Rc::new);
        };
        remembered(&CACHE, (self.id, key), |_| self.score(&facts()))
    }

    /// Runs `score(hand)` on `facts`, or returns the result remembered on this thread for facts
    /// that agree in everything the script can observe (`ScoringScript::narrow_facts`): for a
    /// family whose facts hold more than a [`FactsKey`] can (a trick-taking hand's points and
    /// tricks) but repeat from hand to hand, as in a search's playouts. A script is a pure
    /// function of its facts (see [`ScoringScript::score_cached`]); a miss costs a hash and a
    /// copy of the facts it reads.
    pub fn score_memo(&self, facts: &HandFacts) -> Result<Rc<ScoreOutcome>, ScriptError> {
        thread_local! {
            static MEMO: std::cell::RefCell<Results<HandFacts>> = std::cell::RefCell::default();
        }
        // A miss runs the script on the narrowed facts: it sees the same (it cannot observe
        // what was left out), and the facts it does not read are not built into its `hand`.
        remembered(&MEMO, (self.id, self.narrow_facts(facts)), |narrowed| {
            self.score(narrowed)
        })
    }

    /// `facts` with what the script cannot observe left out: the facts of [`FACT_NAMES`] it
    /// does not read set to defaults, and the family facts it does not read dropped (one named
    /// as a standard fact or an alias is kept: in `hand` it stands for that name).
    fn narrow_facts(&self, facts: &HandFacts) -> HandFacts {
        let Some(extra_reads) = &self.extra_reads else {
            return facts.clone();
        };
        let r = |fact: usize| self.reads.0 >> fact & 1 == 1;
        let calls = r(fact::CALLS_SELF) || r(fact::CALLS_OPPONENT) || r(fact::CALLS);
        HandFacts {
            yaku: if r(fact::YAKU) {
                facts.yaku.clone()
            } else {
                Vec::new()
            },
            base: if r(fact::BASE) { facts.base } else { 0 },
            calls_self: if calls { facts.calls_self } else { 0 },
            calls_opponent: if calls { facts.calls_opponent } else { 0 },
            table_count: if r(fact::TABLE_COUNT) {
                facts.table_count
            } else {
                0
            },
            round: if r(fact::ROUND) { facts.round } else { 0 },
            rounds: if r(fact::ROUNDS) { facts.rounds } else { 0 },
            dealer: r(fact::DEALER) && facts.dealer,
            instant: r(fact::INSTANT) && facts.instant,
            exhausted: r(fact::EXHAUSTED) && facts.exhausted,
            extra: facts
                .extra
                .iter()
                .filter(|(name, _)| {
                    extra_reads.contains(*name) || fact_index(name, &self.aliases).is_some()
                })
                .cloned()
                .collect(),
        }
    }

    /// True when the script may read the family fact `name` (it reads it, or what it reads
    /// could not be told): a fact costly to build is built only then.
    pub fn may_read(&self, name: &str) -> bool {
        self.extra_reads.as_ref().is_none_or(|r| r.contains(name))
    }

    /// True when `score(hand)` runs compiled, without adjustments, and never reads a property
    /// named `name`: facts of that name, and entries of that name in a fact's map (a seat's
    /// `declared.shake`), may be left out of those given to [`ScoringScript::score_slim`].
    pub fn never_reads(&self, name: &str) -> bool {
        self.adjust.is_empty() && self.compiled.as_ref().is_some_and(|p| p.never_reads(name))
    }

    /// [`ScoringScript::score`] on `slim`, facts with some left out that the script never reads
    /// ([`ScoringScript::never_reads`]); on `full()`, the whole facts, when the compiled run
    /// gives up (rhai sees everything).
    pub fn score_slim(
        &self,
        slim: &HandFacts,
        full: impl FnOnce() -> HandFacts,
    ) -> Result<ScoreOutcome, ScriptError> {
        if self.adjust.is_empty()
            && let Some(p) = &self.compiled
            && let Some(Ok(outcome)) = p.run(slim, &self.aliases, &self.options, true)
        {
            return Ok(outcome);
        }
        self.score(&full())
    }

    /// Runs `score(hand)` on the facts of a finished hand, then each adjustment.
    pub fn score(&self, facts: &HandFacts) -> Result<ScoreOutcome, ScriptError> {
        let hand = || {
            let mut hand = facts_to_map(facts, &self.aliases);
            hand.insert("options".into(), Dynamic::from_map((*self.options).clone()));
            hand
        };
        let compiled = self
            .compiled
            .as_ref()
            .and_then(|p| p.run(facts, &self.aliases, &self.options, false));
        let mut outcome = match compiled {
            Some(Ok(outcome)) => outcome,
            Some(Err(result)) => Self::outcome(result, &self.file_name)?,
            None => Self::outcome(self.run_score(hand)?, &self.file_name)?,
        };
        for a in self.adjust.iter() {
            let result: Dynamic = self
                .engine
                .call_fn(
                    &mut Scope::new(),
                    &a.ast,
                    ADJUST_HOOK,
                    (hand(), outcome_to_map(&outcome)),
                )
                .map_err(|e| {
                    let (inner, pos) = innermost(&e);
                    match inner {
                        rhai::EvalAltResult::ErrorTerminated(why, _) => {
                            error_in(&a.file_name, &why.to_string(), pos)
                        }
                        _ => error_in(&a.file_name, &inner.to_string(), pos),
                    }
                })?;
            outcome = Self::outcome(result, &a.file_name)?;
        }
        Ok(outcome)
    }

    /// `score(hand)` run on rhai, with the map `hand` builds.
    fn run_score(&self, hand: impl Fn() -> Map) -> Result<Dynamic, ScriptError> {
        let mut scope = Scope::new();
        // The map is handed over, not copied: a failure, the rare case, builds it again.
        self.engine
            .call_fn(&mut scope, &self.ast, SCORE_HOOK, (hand(),))
            .map_err(|e| {
                let (inner, mut pos) = innermost(&e);
                if pos.is_none() {
                    pos = self.locate_failure(hand());
                }
                match inner {
                    rhai::EvalAltResult::ErrorTerminated(why, _) => {
                        self.error(&why.to_string(), pos)
                    }
                    _ => self.error(&inner.to_string(), pos),
                }
            })
    }

    /// Where a failing call fails, for errors rhai reports without a position (running out of
    /// operations inside a function called from Rust). Scripts are pure, so the call is run once
    /// more, stepping under a debugger that records the last position reached. Only failures pay.
    fn locate_failure(&self, hand: Map) -> Position {
        thread_local! {
            static LAST: std::cell::Cell<Position> = const { std::cell::Cell::new(Position::NONE) };
        }
        let mut engine = sandbox();
        // The debugger API is marked volatile (deprecated as a warning), not going away.
        #[allow(deprecated)]
        engine.register_debugger(
            |_, debugger| debugger,
            |_, event, _, _, pos| {
                if matches!(event, rhai::debugger::DebuggerEvent::Step) && !pos.is_none() {
                    LAST.with(|l| l.set(pos));
                }
                Ok(rhai::debugger::DebuggerCommand::StepInto)
            },
        );
        LAST.with(|l| l.set(Position::NONE));
        let _ = engine.call_fn::<Dynamic>(&mut Scope::new(), &self.ast, SCORE_HOOK, (hand,));
        LAST.with(|l| l.get())
    }

    fn outcome(result: Dynamic, file: &str) -> Result<ScoreOutcome, ScriptError> {
        if let Some(total) = result.clone().try_cast::<i64>() {
            if total < 0 {
                return Err(error_in(
                    file,
                    &format!("`score` returned {total} points; points are never negative"),
                    Position::NONE,
                ));
            }
            too_many_points(file, "total", total)?;
            return Ok(ScoreOutcome::of_total(total));
        }
        let Some(map) = result.try_cast::<Map>() else {
            return Err(error_in(
                file,
                "`score` must return a number or a map with `total`",
                Position::NONE,
            ));
        };
        let int = |key: &str| -> Result<Option<i64>, ScriptError> {
            match map.get(key) {
                None => Ok(None),
                Some(v) => v.as_int().map(Some).map_err(|t| {
                    error_in(
                        file,
                        &format!("`{key}` must be a number, found {t}"),
                        Position::NONE,
                    )
                }),
            }
        };
        let seats = match map.get("seats") {
            None => Vec::new(),
            Some(list) => {
                let list = list.clone().try_cast::<rhai::Array>().ok_or_else(|| {
                    error_in(
                        file,
                        "`seats` must be an array of numbers, each seat's points",
                        Position::NONE,
                    )
                })?;
                let mut seats = Vec::with_capacity(list.len());
                for p in list {
                    let p = p.as_int().map_err(|t| {
                        error_in(
                            file,
                            &format!("each entry of `seats` must be a number, found {t}"),
                            Position::NONE,
                        )
                    })?;
                    // Signed: a seat may lose as much as one may win.
                    too_many_points(file, "seats", p.saturating_abs())?;
                    seats.push(p);
                }
                seats
            }
        };
        let winner = int("winner")?;
        let mut carry = Vec::new();
        if let Some(written) = map.get("carry") {
            let written = written.clone().try_cast::<Map>().ok_or_else(|| {
                error_in(
                    file,
                    "`carry` must be a map from carried ids to numbers (or arrays of numbers, one per seat)",
                    Position::NONE,
                )
            })?;
            for (id, v) in written {
                let value = if let Ok(n) = v.as_int() {
                    CarriedValue::One(n)
                } else if let Some(list) = v.clone().try_cast::<rhai::Array>() {
                    let mut seats = Vec::with_capacity(list.len());
                    for x in list {
                        seats.push(x.as_int().map_err(|t| {
                            error_in(
                                file,
                                &format!("`carry.{id}` holds {t}; carried values are numbers"),
                                Position::NONE,
                            )
                        })?);
                    }
                    CarriedValue::PerSeat(seats)
                } else {
                    return Err(error_in(
                        file,
                        &format!(
                            "`carry.{id}` must be a number or an array of numbers, found {}",
                            v.type_name()
                        ),
                        Position::NONE,
                    ));
                };
                carry.push((id.to_string(), value));
            }
        }
        // A script that settles every seat need not name a winner's total.
        let total = match int("total")? {
            Some(t) => t,
            None if !seats.is_empty() => 0,
            None => {
                return Err(error_in(
                    file,
                    "the map returned by `score` has no `total` (nor `seats`)",
                    Position::NONE,
                ));
            }
        };
        let opponent = int("opponent")?.unwrap_or(0);
        if total < 0 || opponent < 0 {
            return Err(error_in(
                file,
                &format!(
                    "`score` returned negative points (total {total}, opponent {opponent}); points are never negative"
                ),
                Position::NONE,
            ));
        }
        too_many_points(file, "total", total)?;
        too_many_points(file, "opponent", opponent)?;
        let mut steps = Vec::new();
        if let Some(list) = map.get("steps") {
            let list = list.clone().try_cast::<rhai::Array>().ok_or_else(|| {
                error_in(file, "`steps` must be an array of maps", Position::NONE)
            })?;
            for step in list {
                let step = step.try_cast::<Map>().ok_or_else(|| {
                    error_in(
                        file,
                        "each step must be a map with `reason` and `total`",
                        Position::NONE,
                    )
                })?;
                // Shown by `score`, the play screen and replays: escaped for the terminal here,
                // where the text leaves the script.
                let reason = step
                    .get("reason")
                    .map(|r| crate::diag::escape_control(&r.to_string()).into_owned())
                    .unwrap_or_default();
                let total = step.get("total").and_then(|t| t.as_int().ok()).unwrap_or(0);
                let seat = step
                    .get("seat")
                    .and_then(|t| t.as_int().ok())
                    .and_then(|s| usize::try_from(s).ok());
                steps.push(ScoreStep {
                    reason,
                    total,
                    seat,
                });
            }
        }
        let mut pays = Vec::new();
        if let Some(list) = map.get("pays") {
            let list = list.clone().try_cast::<rhai::Array>().ok_or_else(|| {
                error_in(
                    file,
                    "`pays` must be an array of numbers, one per seat",
                    Position::NONE,
                )
            })?;
            for p in list {
                let p = p.as_int().map_err(|t| {
                    error_in(
                        file,
                        &format!("each entry of `pays` must be a number, found {t}"),
                        Position::NONE,
                    )
                })?;
                if p < 0 {
                    return Err(error_in(
                        file,
                        &format!("`pays` holds {p}; a seat never pays a negative amount"),
                        Position::NONE,
                    ));
                }
                too_many_points(file, "pays", p)?;
                pays.push(p);
            }
        }
        Ok(ScoreOutcome {
            total,
            opponent,
            steps,
            pays,
            seats,
            winner,
            carry,
        })
    }

    fn error(&self, message: &str, pos: Position) -> ScriptError {
        error_in(&self.file_name, message, pos)
    }

    /// A failure of what this script returned, named by its file (no line: the whole result
    /// is at fault).
    pub fn failure(&self, message: &str) -> ScriptError {
        self.error(message, Position::NONE)
    }

    /// Adds a house rule's adjustment: a script defining `fn adjust(hand, result)`, run after
    /// the script and the adjustments before it, with the outcome so far as `result`
    /// (`#{ total, opponent, steps, pays }`); it returns the new outcome, a number or a map as
    /// `score` does. `None` after an error.
    pub fn with_adjustment(
        mut self,
        sources: &SourceMap,
        file: FileId,
        named_at: &Loc,
        errors: &mut Vec<Diagnostic>,
    ) -> Option<ScoringScript> {
        if let Some(d) = too_large(sources, file, named_at) {
            errors.push(d);
            return None;
        }
        let text = &sources.get(file).text;
        let ast = match self.engine.compile(text) {
            Ok(ast) => ast,
            Err(e) => {
                let span = position_span(text, e.position());
                errors.push(Diagnostic::error(
                    format!("scoring adjustment does not compile: {}", e.err_type()),
                    Loc::new(file, span),
                ));
                return None;
            }
        };
        if !ast
            .iter_functions()
            .any(|f| f.name == ADJUST_HOOK && f.params.len() == 2)
        {
            errors.push(
                Diagnostic::error(
                    format!("the adjustment does not define `fn {ADJUST_HOOK}(hand, result)`"),
                    named_at.clone(),
                )
                .with_help(Some(format!(
                    "the script is `{}`; it receives the outcome so far as `result` and returns the new one",
                    sources.get(file).name
                ))),
            );
            return None;
        }
        let (reads, extra_reads) = FactReads::of_hook(&ast, &self.aliases, ADJUST_HOOK, 2);
        self.reads = self.reads.or(reads);
        self.key_mask = self.reads.key_mask();
        self.extra_reads = match (self.extra_reads.take(), extra_reads) {
            (Some(mine), Some(theirs)) => Some(Arc::new(mine.union(&theirs).cloned().collect())),
            _ => None,
        };
        self.steps = self
            .steps
            .iter()
            .cloned()
            .chain(documented_steps(text))
            .collect();
        let mut adjust = self.adjust.to_vec();
        adjust.push(Adjustment {
            ast: Arc::new(ast),
            file_name: sources.get(file).name.clone(),
        });
        self.adjust = adjust.into();
        Some(self)
    }
}

/// A house rule's adjustment of a scoring script's outcome (`fn adjust(hand, result)`).
#[derive(Clone)]
struct Adjustment {
    ast: Arc<AST>,
    /// The script's file name, for errors.
    file_name: String,
}

/// The hook an adjustment defines.
pub const ADJUST_HOOK: &str = "adjust";

/// An outcome as an adjustment's `result`.
fn outcome_to_map(o: &ScoreOutcome) -> Map {
    let mut m = Map::new();
    m.insert("total".into(), o.total.into());
    m.insert("opponent".into(), o.opponent.into());
    let steps: rhai::Array = o
        .steps
        .iter()
        .map(|s| {
            let mut step = Map::new();
            step.insert("reason".into(), s.reason.clone().into());
            step.insert("total".into(), s.total.into());
            if let Some(seat) = s.seat {
                step.insert("seat".into(), (seat as i64).into());
            }
            Dynamic::from_map(step)
        })
        .collect();
    m.insert("steps".into(), Dynamic::from_array(steps));
    let pays: rhai::Array = o.pays.iter().map(|p| Dynamic::from(*p)).collect();
    m.insert("pays".into(), Dynamic::from_array(pays));
    if !o.seats.is_empty() {
        let seats: rhai::Array = o.seats.iter().map(|p| Dynamic::from(*p)).collect();
        m.insert("seats".into(), Dynamic::from_array(seats));
    }
    if let Some(w) = o.winner {
        m.insert("winner".into(), w.into());
    }
    if !o.carry.is_empty() {
        let mut carry = Map::new();
        for (id, v) in &o.carry {
            let value = match v {
                CarriedValue::One(n) => Dynamic::from(*n),
                CarriedValue::PerSeat(list) => {
                    Dynamic::from_array(list.iter().map(|x| Dynamic::from(*x)).collect())
                }
            };
            carry.insert(id.as_str().into(), value);
        }
        m.insert("carry".into(), Dynamic::from_map(carry));
    }
    m
}

/// A script failure in `file` at `pos`.
/// The error for a script too large to compile: more than [`MAX_SCRIPT_SIZE`] bytes (far below
/// the 16 MiB a rule file may be: rhai's syntax tree takes some 60 times a script's size, and a
/// 13.5 MB script took 820 MB to compile; the bundled ones are under 5 KB), or more than
/// [`MAX_SCRIPT_LINES`] lines (rhai counts lines in 16 bits, so an error past line 65,535 would
/// be reported there). Located where the script is named.
fn too_large(sources: &SourceMap, file: FileId, named_at: &Loc) -> Option<Diagnostic> {
    let text = &sources.get(file).text;
    let problem = if text.len() > MAX_SCRIPT_SIZE {
        format!(
            "the scoring script is too large ({} bytes, at most {MAX_SCRIPT_SIZE})",
            text.len()
        )
    } else {
        let lines = text.lines().count();
        if lines <= MAX_SCRIPT_LINES {
            return None;
        }
        format!(
            "the scoring script has {lines} lines, more than {MAX_SCRIPT_LINES} (its errors could not be located)"
        )
    };
    Some(
        Diagnostic::error(problem, named_at.clone())
            .with_help(Some(format!("the script is `{}`", sources.get(file).name))),
    )
}

/// An error when a script's `what` is above [`MAX_SCRIPT_POINTS`].
fn too_many_points(file: &str, what: &str, points: i64) -> Result<(), ScriptError> {
    if points > MAX_SCRIPT_POINTS {
        return Err(error_in(
            file,
            &format!(
                "`score` returned {points} points in `{what}`; a hand is worth at most {MAX_SCRIPT_POINTS}"
            ),
            Position::NONE,
        ));
    }
    Ok(())
}

fn error_in(file: &str, message: &str, pos: Position) -> ScriptError {
    let message = message.split(" (line ").next().unwrap_or(message);
    let location = match pos.line() {
        Some(line) => format!("{file}:{line}"),
        None => file.to_string(),
    };
    // A script's own text (a `throw "..."`, a string in an error) reaches the terminal through
    // this message: escaped here, where every script error is made.
    ScriptError {
        message: crate::diag::escape_control(&format!(
            "{location}: scoring script failed: {message}"
        ))
        .into_owned(),
    }
}

/// The innermost error of a chain of function calls, and the first known position in it.
fn innermost(e: &rhai::EvalAltResult) -> (&rhai::EvalAltResult, Position) {
    let mut err = e;
    let mut pos = e.position();
    while let rhai::EvalAltResult::ErrorInFunctionCall(_, _, inner, _) = err {
        err = inner;
        if !err.position().is_none() {
            pos = err.position();
        }
    }
    (err, pos)
}

fn facts_to_map(f: &HandFacts, aliases: &Aliases) -> Map {
    let yaku: rhai::Array = f
        .yaku
        .iter()
        .map(|y| {
            let mut m = Map::new();
            m.insert("id".into(), y.id.clone().into());
            m.insert("name".into(), y.name.clone().into());
            m.insert("points".into(), y.points.into());
            Dynamic::from_map(m)
        })
        .collect();
    let mut m = Map::new();
    m.insert("yaku".into(), Dynamic::from_array(yaku));
    m.insert("base".into(), f.base.into());
    let calls = [
        f.calls_self,
        f.calls_opponent,
        f.calls_self + f.calls_opponent,
    ];
    m.insert("calls_self".into(), calls[0].into());
    m.insert("calls_opponent".into(), calls[1].into());
    m.insert("calls".into(), calls[2].into());
    for (name, i) in aliases {
        m.insert(name.as_str().into(), calls[i - fact::CALLS_SELF].into());
    }
    for (name, value) in &f.extra {
        m.insert((*name).into(), value.to_dynamic());
    }
    m.insert("table_count".into(), f.table_count.into());
    m.insert("round".into(), f.round.into());
    m.insert("rounds".into(), f.rounds.into());
    m.insert("dealer".into(), f.dealer.into());
    m.insert("instant".into(), f.instant.into());
    m.insert("exhausted".into(), f.exhausted.into());
    m
}

/// The byte span of a rhai position (line and column, 1-based) in `text`.
fn position_span(text: &str, pos: Position) -> std::ops::Range<usize> {
    let (Some(line), col) = (pos.line(), pos.position().unwrap_or(1)) else {
        return 0..0;
    };
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let col_off: usize = l
                .chars()
                .take(col.saturating_sub(1))
                .map(char::len_utf8)
                .sum();
            let start = offset + col_off;
            return start..(start + 1).min(offset + l.trim_end().len()).max(start);
        }
        offset += l.len();
    }
    text.len()..text.len()
}

#[cfg(test)]
mod tests;
