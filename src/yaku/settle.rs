//! Settling a hand: the yaku a pile holds, their base, and the scoring script's multipliers.
//!
//! `yaku score` and the game core both settle hands here, so a hand played through the core and
//! the same capture pile scored on the command line always agree.

use crate::deck::CardSet;
use crate::ruleset::{MAX_CHOICES, Ruleset, TallyAward, YakuFacts, YakuScore};
use crate::script::{
    FactValue, FactsKey, HandFacts, ScoreOutcome, ScoreStep, ScriptError, ScriptYaku,
};
use serde::Serialize;

/// One yaku in an outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FoundYaku {
    /// The yaku's id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// Its points.
    pub points: i64,
}

/// The circumstances of a hand's end, besides the pile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Circumstances {
    /// Calls to play on by the scoring player.
    pub calls_self: u32,
    /// Calls to play on by the other players.
    pub calls_opponent: u32,
    /// The ruleset's `table_count` at the deal (brights on the table).
    pub table_count: i64,
    /// The round, 1-based.
    pub round: u32,
    /// Rounds in the game (0 when played to a target).
    pub rounds: u32,
    /// The scoring player is the dealer.
    pub dealer: bool,
    /// The scoring player's card choices (`count_as` declarations): bit `i` for choice `i`.
    pub choices: u8,
}

/// What the scoring script sees of every seat when it settles each loser separately.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableFacts {
    /// Each seat, in seat order.
    pub seats: Vec<SeatFacts>,
    /// Each partnership, in team order, when the ruleset plays in partnerships (else empty).
    pub teams: Vec<TeamFacts>,
    /// The values carried from the last hand (`hand.carry`), when the ruleset carries any.
    pub carry: Option<FactValue>,
    /// Hands in a row just before this one that ended with nobody winning.
    pub draws_before: u32,
}

/// One partnership at a hand's end: its seats and the pile they took together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TeamFacts {
    /// Its seats, in seat order.
    pub seats: Vec<usize>,
    /// The tallies of the partners' piles taken together, by id.
    pub tallies: Vec<(String, i64)>,
    /// The partners' captured cards, by id, in deck order.
    pub captured: Vec<String>,
}

impl TeamFacts {
    /// Every partnership of `teams` at a table whose seats captured `piles`: its seats and
    /// their piles taken together, tallied with the facts `circumstances` gives a team by its
    /// first seat. None without partnerships.
    pub fn of_table(
        ruleset: &Ruleset,
        teams: &crate::ruleset::Teams,
        piles: &[CardSet],
        circumstances: impl Fn(usize) -> Circumstances,
    ) -> Vec<TeamFacts> {
        if !teams.any() {
            return Vec::new();
        }
        (0..teams.count(piles.len()))
            .map(|t| {
                let seats: Vec<usize> = teams.members(t, piles.len()).collect();
                let pile = seats.iter().fold(CardSet::EMPTY, |u, &s| u | piles[s]);
                TeamFacts {
                    tallies: tallies(ruleset, pile, &circumstances(seats[0])),
                    captured: ruleset
                        .deck
                        .ids(pile)
                        .into_iter()
                        .map(String::from)
                        .collect(),
                    seats,
                }
            })
            .collect()
    }
}

/// One seat at a hand's end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatFacts {
    /// This seat won the hand.
    pub winner: bool,
    /// Its calls to play on this hand.
    pub calls: u32,
    /// Its yaku points.
    pub base: i64,
    /// Its pile's tallies, by id.
    pub tallies: Vec<(String, i64)>,
    /// How many times it made each declaration this hand, by declaration id.
    pub declared: Vec<(String, i64)>,
    /// How many times each turn event fired for it this hand, by event id.
    pub events: Vec<(String, i64)>,
    /// Its yaku, by id.
    pub yaku: Vec<String>,
    /// Its captured cards, by id, in deck order.
    pub captured: Vec<String>,
    /// Its partnership, when the ruleset plays in partnerships.
    pub team: Option<usize>,
    /// The combination its dealt hand held that is scored at the hand's end (a teyaku), by id.
    pub dealt: Vec<String>,
}

impl SeatFacts {
    /// What a seat's pile says: its yaku `found` on `pile` (ids and base) and the pile's
    /// tallies; no calls, declarations or events (the caller adds those it knows).
    pub fn of_pile(
        ruleset: &Ruleset,
        pile: CardSet,
        found: &YakuScore,
        c: &Circumstances,
        winner: bool,
    ) -> SeatFacts {
        SeatFacts {
            winner,
            base: found.base(),
            tallies: tallies(ruleset, pile, c),
            yaku: found
                .iter()
                .map(|i| ruleset.yaku.yaku[i].id.clone())
                .collect(),
            captured: ruleset
                .deck
                .ids(pile)
                .into_iter()
                .map(String::from)
                .collect(),
            ..SeatFacts::default()
        }
    }
}

impl Circumstances {
    /// The scoring player's yaku facts: [`yaku_facts`] of these circumstances.
    pub fn yaku_facts(&self) -> YakuFacts {
        yaku_facts(
            self.round,
            self.rounds,
            self.dealer,
            self.calls_self,
            self.choices,
        )
    }
}

impl TableFacts {
    /// The facts as the script's `hand` holds them (`seats`, `draws_before`, `carry`, `teams`).
    pub fn extra(&self) -> Vec<(&'static str, FactValue)> {
        self.clone().into_extra()
    }

    /// [`TableFacts::extra`], moving the texts rather than copying them: a hand's facts are
    /// built for one settlement, and every seat's ids copied again cost a Matgo hand several
    /// thousand instructions.
    pub fn into_extra(self) -> Vec<(&'static str, FactValue)> {
        let pairs = |list: Vec<(String, i64)>| {
            FactValue::Map(
                list.into_iter()
                    .map(|(k, v)| (k, FactValue::Int(v)))
                    .collect(),
            )
        };
        let texts =
            |list: Vec<String>| FactValue::List(list.into_iter().map(FactValue::Text).collect());
        let seats = self
            .seats
            .into_iter()
            .map(|s| {
                let mut m = vec![
                    ("winner".into(), FactValue::Bool(s.winner)),
                    ("calls".into(), FactValue::Int(i64::from(s.calls))),
                    ("base".into(), FactValue::Int(s.base)),
                    ("tallies".into(), pairs(s.tallies)),
                    ("declared".into(), pairs(s.declared)),
                    ("events".into(), pairs(s.events)),
                    ("yaku".into(), texts(s.yaku)),
                    ("captured".into(), texts(s.captured)),
                    ("dealt".into(), texts(s.dealt)),
                ];
                if let Some(t) = s.team {
                    m.push(("team".into(), FactValue::Int(t as i64)));
                }
                FactValue::Map(m)
            })
            .collect();
        let mut out = vec![
            ("seats", FactValue::List(seats)),
            ("draws_before", FactValue::Int(i64::from(self.draws_before))),
        ];
        if let Some(carry) = self.carry {
            out.push(("carry", carry));
        }
        if !self.teams.is_empty() {
            let teams = self
                .teams
                .into_iter()
                .map(|t| {
                    FactValue::Map(vec![
                        (
                            "seats".into(),
                            FactValue::List(
                                t.seats.iter().map(|&s| FactValue::Int(s as i64)).collect(),
                            ),
                        ),
                        ("tallies".into(), pairs(t.tallies)),
                        ("captured".into(), texts(t.captured)),
                    ])
                })
                .collect();
            out.push(("teams", FactValue::List(teams)));
        }
        out
    }
}

/// How a hand was won, when it was not by a stop after a yaku.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Special {
    /// An instant win at the deal (teshi, kuttsuki): its yaku-like entry.
    Instant(FoundYaku),
    /// Both hands ran out and a house rule gives the dealer points.
    Exhausted(i64),
    /// The hands ran out and the scoring script settles every seat (`exhausted = "settle"`).
    Settle,
}

/// A settled hand: what the winner scored, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandOutcome {
    /// The yaku that count, in table order.
    pub yaku: Vec<FoundYaku>,
    /// Their points added up.
    pub base: i64,
    /// Each multiplier the scoring script applied, with its reason.
    pub steps: Vec<ScoreStep>,
    /// The winner's points.
    pub total: i64,
    /// The other player's points (0 in most rules).
    pub opponent: i64,
    /// What each seat pays the winner, by seat, when the script settles each loser
    /// separately (the winner receives the sum); empty otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub payments: Vec<i64>,
    /// Each seat's signed points, by seat, when the script settles every seat; empty
    /// otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<i64>,
    /// The winner the script named (-1: nobody), when it named one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<i64>,
    /// Values the script carries into the next hand, by id.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub carry: Vec<(String, crate::script::CarriedValue)>,
}

impl HandOutcome {
    /// The outcome of the yaku that count (`base` their points) and the scoring script's
    /// answer for them.
    pub fn of(yaku: Vec<FoundYaku>, base: i64, script: ScoreOutcome) -> HandOutcome {
        let ScoreOutcome {
            total,
            opponent,
            steps,
            pays,
            seats,
            winner,
            carry,
        } = script;
        HandOutcome {
            yaku,
            base,
            steps,
            total,
            opponent,
            payments: pays,
            seats,
            winner,
            carry,
        }
    }
}

/// The packed identity of the yaku that count, for the cache key: `None` when more than 8 yaku
/// count or a point value does not fit 16 bits.
fn packed_yaku(found: &YakuScore) -> Option<(u64, u128)> {
    let mut points: u128 = 0;
    for (n, i) in found.iter().enumerate() {
        let p = i16::try_from(found.points[i]).ok()?;
        if n == 8 {
            return None;
        }
        points |= u128::from(p as u16) << (16 * n);
    }
    Some((found.mask, points))
}

/// The exact cache key of the facts [`facts`] builds from the same arguments, for `script`:
/// the yaku are left out, unpacked, when it never reads `hand.yaku`.
fn cache_key(
    script: &crate::script::ScoringScript,
    found: &YakuScore,
    special: Option<&Special>,
    c: &Circumstances,
) -> FactsKey {
    let (yaku, base) = match special {
        None => (
            script
                .reads()
                .reads_yaku()
                .then(|| packed_yaku(found))
                .flatten(),
            found.base(),
        ),
        Some(Special::Instant(y)) => (None, y.points),
        Some(Special::Exhausted(points)) => (None, *points),
        Some(Special::Settle) => (None, 0),
    };
    FactsKey {
        yaku,
        base,
        calls: (c.calls_self, c.calls_opponent),
        table_count: c.table_count,
        round: (c.round, c.rounds),
        dealer: c.dealer,
        special: (
            matches!(special, Some(Special::Instant(_))),
            matches!(special, Some(Special::Exhausted(_) | Special::Settle)),
        ),
    }
}

/// The yaku facts for the expression language, in [`crate::ruleset::scope::YAKU`] order, then
/// one per card choice (bit `i` of `choices` for choice `i`).
pub fn yaku_facts(round: u32, rounds: u32, dealer: bool, calls: u32, choices: u8) -> YakuFacts {
    let mut f = [0; 4 + MAX_CHOICES];
    f[0] = i64::from(round);
    f[1] = i64::from(rounds);
    f[2] = i64::from(dealer);
    f[3] = i64::from(calls);
    for (i, v) in f[4..].iter_mut().enumerate() {
        *v = i64::from(choices >> i & 1);
    }
    f
}

/// Evaluates the yaku table on a pile.
pub fn evaluate(ruleset: &Ruleset, pile: CardSet, c: &Circumstances) -> YakuScore {
    ruleset.yaku.evaluate(pile, &c.yaku_facts())
}

/// Each tally of the ruleset on a pile, by id.
pub fn tallies(ruleset: &Ruleset, pile: CardSet, c: &Circumstances) -> Vec<(String, i64)> {
    let facts = c.yaku_facts();
    let cx = crate::expr::Context {
        pile,
        facts: &facts,
    };
    ruleset
        .tallies
        .iter()
        .map(|t| (t.id.clone(), t.count.int(&cx)))
        .collect()
}

/// The winner's and the other player's points for an ordinary stop, without building the
/// explanation (simulations need only the numbers).
/// `None` when the script settled every seat itself (`seats`, `winner`): then the hand needs
/// [`settle`]'s whole outcome.
pub fn settle_points(
    ruleset: &Ruleset,
    found: &YakuScore,
    c: &Circumstances,
) -> Result<Option<[i64; 2]>, ScriptError> {
    let Some(script) = &ruleset.scoring else {
        return Ok(Some([found.base(), 0]));
    };
    let key = cache_key(script, found, None, c);
    let outcome = script.score_cached(key, || facts(&found_yaku(ruleset, found, None), c, None))?;
    if !outcome.seats.is_empty() || outcome.winner.is_some() || !outcome.carry.is_empty() {
        return Ok(None);
    }
    Ok(Some([outcome.total, outcome.opponent]))
}

fn found_yaku(ruleset: &Ruleset, found: &YakuScore, special: Option<&Special>) -> Vec<FoundYaku> {
    match special {
        Some(Special::Instant(y)) => vec![y.clone()],
        Some(Special::Exhausted(points)) => vec![FoundYaku {
            id: "exhausted".into(),
            name: "Dealer's privilege (hands exhausted)".into(),
            points: *points,
        }],
        Some(Special::Settle) => Vec::new(),
        None => found
            .iter()
            .map(|i| {
                let y = &ruleset.yaku.yaku[i];
                FoundYaku {
                    id: y.id.clone(),
                    name: y.name.clone(),
                    points: i64::from(found.points[i]),
                }
            })
            .collect(),
    }
}

fn facts(yaku: &[FoundYaku], c: &Circumstances, special: Option<&Special>) -> HandFacts {
    HandFacts {
        yaku: yaku
            .iter()
            .map(|y| ScriptYaku {
                id: y.id.clone(),
                name: y.name.clone(),
                points: y.points,
            })
            .collect(),
        base: yaku.iter().map(|y| y.points).sum(),
        calls_self: i64::from(c.calls_self),
        calls_opponent: i64::from(c.calls_opponent),
        table_count: c.table_count,
        round: i64::from(c.round),
        rounds: i64::from(c.rounds),
        dealer: c.dealer,
        instant: matches!(special, Some(Special::Instant(_))),
        exhausted: matches!(special, Some(Special::Exhausted(_) | Special::Settle)),
        extra: Vec::new(),
    }
}

/// Settles a hand won with `found` (or by `special`): the base, then the script.
pub fn settle(
    ruleset: &Ruleset,
    found: &YakuScore,
    special: Option<&Special>,
    c: &Circumstances,
) -> Result<HandOutcome, ScriptError> {
    settle_at_table(ruleset, found, special, c, None)
}

/// True when the ruleset's script reads every seat's facts (`hand.seats`): hands are then
/// settled with [`settle_at_table`], each loser separately.
pub fn reads_table(ruleset: &Ruleset) -> bool {
    ruleset
        .scoring
        .as_ref()
        .is_some_and(|s| s.reads().reads_extra())
}

/// [`settle`], with every seat's facts for a script that settles each loser separately.
pub fn settle_at_table(
    ruleset: &Ruleset,
    found: &YakuScore,
    special: Option<&Special>,
    c: &Circumstances,
    table: Option<&TableFacts>,
) -> Result<HandOutcome, ScriptError> {
    settle_with(ruleset, found, special, c, table, false)
}

/// [`settle_at_table`] with every seat's facts from `table`: `table(false)` may leave out
/// what the script never reads ([`ScoringScript::never_reads`]), `table(true)` holds
/// everything and is built only when the script must see it all (run on rhai).
///
/// [`ScoringScript::never_reads`]: crate::script::ScoringScript::never_reads
pub fn settle_at_table_lazy(
    ruleset: &Ruleset,
    found: &YakuScore,
    special: Option<&Special>,
    c: &Circumstances,
    table: impl Fn(bool) -> TableFacts,
) -> Result<HandOutcome, ScriptError> {
    let Some(script) = &ruleset.scoring else {
        return settle_at_table(ruleset, found, special, c, Some(&table(true)));
    };
    let yaku = found_yaku(ruleset, found, special);
    let base = yaku.iter().map(|y| y.points).sum();
    let facts_of = |t: TableFacts| {
        let mut f = facts(&yaku, c, special);
        f.extra = t.into_extra();
        f
    };
    let scored = script.score_slim(&facts_of(table(false)), || facts_of(table(true)))?;
    Ok(HandOutcome::of(yaku, base, scored))
}

/// [`settle_at_table`] in a search's world, where many playouts end with the same facts: the
/// script's result for every seat's facts is remembered ([`ScoringScript::score_memo`]). In
/// ordinary play they seldom repeat, and the memo would cost more than it saves.
///
/// [`ScoringScript::score_memo`]: crate::script::ScoringScript::score_memo
pub fn settle_in_search(
    ruleset: &Ruleset,
    found: &YakuScore,
    special: Option<&Special>,
    c: &Circumstances,
    table: Option<&TableFacts>,
) -> Result<HandOutcome, ScriptError> {
    settle_with(ruleset, found, special, c, table, true)
}

fn settle_with(
    ruleset: &Ruleset,
    found: &YakuScore,
    special: Option<&Special>,
    c: &Circumstances,
    table: Option<&TableFacts>,
    remember: bool,
) -> Result<HandOutcome, ScriptError> {
    let yaku = found_yaku(ruleset, found, special);
    let base = yaku.iter().map(|y| y.points).sum();
    let facts = || {
        let mut f = facts(&yaku, c, special);
        if let Some(t) = table {
            f.extra = t.extra();
        }
        f
    };
    let scored = match &ruleset.scoring {
        Some(script) if table.is_some() && remember => {
            ScoreOutcome::clone(&*script.score_memo(&facts())?)
        }
        Some(script) if table.is_some() => script.score(&facts())?,
        Some(script) => {
            let key = cache_key(script, found, special, c);
            let outcome = script.score_cached(key, facts)?;
            ScoreOutcome::clone(&outcome)
        }
        None => ScoreOutcome::of_total(base),
    };
    Ok(HandOutcome::of(yaku, base, scored))
}

/// One side of a hand settled seat by seat without a script: a seat, or the partners of a
/// team taken together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnSide {
    /// Its seats, the first of which is credited with its points.
    pub seats: Vec<usize>,
    /// The cards its seats took.
    pub pile: CardSet,
    /// How many times each turn event fired for its seats, in ruleset order.
    pub fired: Vec<u32>,
    /// How many times its seats made each declaration, in ruleset order (read for the
    /// declarations that earn `points`; may be empty).
    pub declared: Vec<u32>,
    /// The combinations its seats' dealt hands held (`[flow]` `dealt_yaku`, by index).
    pub dealt: Vec<usize>,
}

/// The sides of a hand settled seat by seat, as [`settle_own`] reads them: a list of
/// [`OwnSide`]s, or a game's seats read where they lie (no list built per hand).
pub trait OwnSides {
    /// How many sides.
    fn count(&self) -> usize;
    /// The seat credited with side `i`'s points.
    fn first_seat(&self, i: usize) -> usize;
    /// The cards side `i` took.
    fn pile(&self, i: usize) -> CardSet;
    /// How many times turn event `e` fired for side `i`'s seats.
    fn fired(&self, i: usize, e: usize) -> u32;
    /// How many times side `i`'s seats made declaration `d` (none unless said).
    fn declared(&self, _i: usize, _d: usize) -> u32 {
        0
    }
    /// Calls `each` with every dealt combination (by index) side `i`'s seats held.
    fn dealt(&self, i: usize, each: &mut dyn FnMut(usize));
}

impl OwnSides for [OwnSide] {
    fn count(&self) -> usize {
        self.len()
    }
    fn first_seat(&self, i: usize) -> usize {
        self[i].seats.first().copied().unwrap_or(0)
    }
    fn pile(&self, i: usize) -> CardSet {
        self[i].pile
    }
    fn fired(&self, i: usize, e: usize) -> u32 {
        self[i].fired.get(e).copied().unwrap_or(0)
    }
    fn declared(&self, i: usize, d: usize) -> u32 {
        self[i].declared.get(d).copied().unwrap_or(0)
    }
    fn dealt(&self, i: usize, each: &mut dyn FnMut(usize)) {
        for &d in &self[i].dealt {
            each(d);
        }
    }
}

/// How [`settle_own`] settles a hand.
#[derive(Clone, Copy, Debug)]
pub struct OwnSettlement {
    /// Keep every step with its seat (simulations need the points alone).
    pub explain: bool,
    /// Award the tallies (`most`, `par`): a hand played out does, a stop does not (the card
    /// points count only when the hands run out).
    pub tallies: bool,
    /// A hand counted as it stands, in the middle of play (`[flow] count_at_once`): the cards
    /// no side has taken yet. A `most` tally then counts only for a side whose count is above
    /// what every other side's count would be with all of these cards too (won for certain, as
    /// Cassino's cards once a side holds 27 of the 52: the counts must only grow as a pile
    /// grows), and a `par` tally only when the hand is played out.
    pub unclaimed: Option<CardSet>,
}

/// The points of a hand settled seat by seat as they are credited, with the explanation.
struct OwnBook<'a> {
    points: Vec<i64>,
    steps: Vec<ScoreStep>,
    explain: bool,
    /// What every amount is multiplied by (`[flow] table_multiplies`).
    times: i64,
    /// The sides' first seats when every other side pays a side's own points.
    payers: &'a [usize],
}

impl OwnBook<'_> {
    /// `amount` (times the table's multiplier) to `seat`, explained by `reason` of the amount.
    fn credit(&mut self, seat: usize, amount: i64, reason: &dyn Fn(i64) -> String) {
        let amount = amount.saturating_mul(self.times);
        if let Some(p) = self.points.get_mut(seat) {
            *p = p.saturating_add(amount);
            if self.explain {
                let mut why = reason(amount);
                if self.times != 1 {
                    why.push_str(&format!(" (x{})", self.times));
                }
                self.steps.push(ScoreStep {
                    reason: why,
                    total: *p,
                    seat: Some(seat),
                });
            }
        }
    }

    /// A side's own points (yaku, dealt combination, turn event): its own, or paid to it by
    /// every other side.
    fn own(&mut self, seat: usize, amount: i64, reason: &dyn Fn(i64) -> String) {
        if self.payers.is_empty() {
            self.credit(seat, amount, reason);
            return;
        }
        let payers = self.payers;
        for &payer in payers.iter().filter(|&&p| p != seat) {
            self.credit(payer, amount.saturating_neg(), &|p| {
                format!("{} to seat {seat}", reason(p))
            });
            self.credit(seat, amount, &|p| {
                format!("{} from seat {payer}", reason(p))
            });
        }
    }
}

/// A `most` tally in a hand counted as it stands ([`OwnSettlement::unclaimed`]): side `i`
/// scores it when its count is above each other side's count on that side's pile with every
/// unclaimed card added (what the other side could reach at most).
#[allow(clippy::too_many_arguments)]
fn won_for_certain(
    tally: &crate::ruleset::Tally,
    points: i64,
    counts: &[i64],
    facts: &[YakuFacts],
    sides: &(impl OwnSides + ?Sized),
    unclaimed: CardSet,
    firsts: &[usize],
    book: &mut OwnBook,
) {
    let reach: Vec<i64> = (0..counts.len())
        .map(|j| {
            tally.count.int(&crate::expr::Context {
                pile: sides.pile(j) | unclaimed,
                facts: &facts[j],
            })
        })
        .collect();
    for (i, &own) in counts.iter().enumerate() {
        let others = (0..counts.len()).filter(|&j| j != i);
        if others.clone().all(|j| own > reach[j]) {
            let at_most: Vec<String> = others.map(|j| reach[j].to_string()).collect();
            let reason = |p: i64| {
                format!(
                    "most {} ({own}, the others {} at most) {p:+}",
                    tally.name.to_lowercase(),
                    at_most.join(", ")
                )
            };
            book.credit(firsts[i], points, &reason);
        }
    }
}

/// A hand played out and settled seat by seat without a scoring script (`[flow] exhausted =
/// "settle"`): each side scores the yaku its pile holds, its turn events' `points`, and the
/// tallies' awards against the other sides (`most`: the one side with the highest count; `par`:
/// the count minus the par). The points go to each side's first seat (partners then pool them),
/// and, when `explain`, every step is kept with its seat (simulations need the points alone).
pub fn settle_own(
    ruleset: &Ruleset,
    seats: usize,
    sides: &(impl OwnSides + ?Sized),
    circumstances: impl Fn(usize) -> Circumstances,
    how: OwnSettlement,
) -> HandOutcome {
    // Each side's first seat and yaku facts, on the stack (a side per seat at most).
    let mut firsts = [0usize; crate::ruleset::MAX_SEATS];
    let mut facts = [YakuFacts::default(); crate::ruleset::MAX_SEATS];
    let count = sides.count().min(crate::ruleset::MAX_SEATS);
    for i in 0..count {
        firsts[i] = sides.first_seat(i);
        facts[i] = circumstances(firsts[i]).yaku_facts();
    }
    let flow = ruleset.matching();
    let mut book = OwnBook {
        points: vec![0i64; seats],
        steps: Vec::new(),
        explain: how.explain,
        // `[flow] table_multiplies`: every point times the table count (the same for every
        // seat).
        times: match flow {
            Some(f) if f.table_multiplies && count > 0 => circumstances(firsts[0]).table_count,
            _ => 1,
        },
        // `[flow] yaku_paid_by = "others"`: a side's own points are paid by every other side.
        payers: if flow.is_some_and(|f| f.yaku_paid_by_others) {
            &firsts[..count]
        } else {
            &[]
        },
    };
    let dealt = flow.map_or(&[][..], |f| &f.dealt_yaku[..]);
    let events = flow.map_or(&[][..], |f| &f.turn_events[..]);
    for i in 0..count {
        let found = ruleset.yaku.evaluate(sides.pile(i), &facts[i]);
        for y in found.iter() {
            let p = i64::from(found.points[y]);
            let name = &ruleset.yaku.yaku[y].name;
            book.own(firsts[i], p, &|p| format!("{name} {p:+}"));
        }
        sides.dealt(i, &mut |d| {
            if let Some(check) = dealt.get(d) {
                book.own(firsts[i], check.points, &|p| {
                    format!("{} (dealt) {p:+}", check.name)
                });
            }
        });
        for (index, d) in ruleset.declarations.iter().enumerate() {
            let times = sides.declared(i, index);
            if d.points != 0 && times > 0 {
                let p = d.points.saturating_mul(i64::from(times));
                let reason = |p: i64| {
                    if times == 1 {
                        format!("{} {p:+}", d.name)
                    } else {
                        format!("{} x{times} {p:+}", d.name)
                    }
                };
                book.own(firsts[i], p, &reason);
            }
        }
        for (index, e) in events.iter().enumerate() {
            let times = sides.fired(i, index);
            if e.points != 0 && times > 0 {
                let p = e.points.saturating_mul(i64::from(times));
                let reason = |p: i64| {
                    if times == 1 {
                        format!("{} {p:+}", e.name)
                    } else {
                        format!("{} x{times} {p:+}", e.name)
                    }
                };
                book.own(firsts[i], p, &reason);
            }
        }
    }
    for tally in ruleset.tallies.iter().filter(|_| how.tallies) {
        let Some(award) = tally.award else { continue };
        let mut all = [0i64; crate::ruleset::MAX_SEATS];
        for i in 0..count {
            all[i] = tally.count.int(&crate::expr::Context {
                pile: sides.pile(i),
                facts: &facts[i],
            });
        }
        let counts = &all[..count];
        if let Some(unclaimed) = how.unclaimed {
            if let TallyAward::Most(p) = award {
                won_for_certain(
                    tally,
                    p,
                    counts,
                    &facts[..count],
                    sides,
                    unclaimed,
                    &firsts,
                    &mut book,
                );
            }
            continue;
        }
        match award {
            TallyAward::Most(p) => {
                let Some(&high) = counts.iter().max() else {
                    continue;
                };
                let mut leaders = counts.iter().enumerate().filter(|(_, c)| **c == high);
                if let (Some((i, _)), None) = (leaders.next(), leaders.next()) {
                    let reason = |p: i64| {
                        let others: Vec<String> = counts
                            .iter()
                            .enumerate()
                            .filter(|(j, _)| *j != i)
                            .map(|(_, c)| c.to_string())
                            .collect();
                        format!(
                            "most {} ({high} to {}) {p:+}",
                            tally.name.to_lowercase(),
                            others.join(", ")
                        )
                    };
                    book.credit(firsts[i], p, &reason);
                }
            }
            TallyAward::Par(par) => {
                for (i, &count) in counts.iter().enumerate() {
                    let p = count.saturating_sub(par);
                    let reason = |p: i64| format!("{} {count} against {par} {p:+}", tally.name);
                    book.credit(firsts[i], p, &reason);
                }
            }
        }
    }
    let OwnBook { points, steps, .. } = book;
    HandOutcome {
        yaku: Vec::new(),
        base: 0,
        steps,
        total: 0,
        opponent: 0,
        payments: Vec::new(),
        seats: points,
        winner: None,
        carry: Vec::new(),
    }
}
