//! What a played or drawn card may capture under a ruleset's `[[flow.capture]]` rules: one
//! table card equal to it, or a set of table cards whose values add up to a total. The game, the
//! bots and the play screen all ask here, so they always agree on the choices.

use crate::deck::{CardId, CardSet};
use crate::expr::Context;
use crate::ruleset::{
    CaptureChoice, CaptureGroups, CaptureKind, CaptureRule, MatchingFlow, MustCapture,
};

/// The most captures offered for one card: a table of many cards worth nothing would otherwise
/// offer every subset of it.
pub const MAX_OPTIONS: usize = 256;

/// Nodes a sum search visits at most for one rule (a table of 64 cards of value 0 has 2^64
/// subsets that add up to 0).
const MAX_VISITS: u32 = 1 << 16;

/// The captures `card`, played from the hand (`from_hand`) or drawn, may make from `table`
/// under `flow`'s capture rules, into `out` (cleared first), each a set of table cards, in rule
/// order and then by card order; empty when it captures nothing. Wild cards (where they come
/// from: `wild_from`) take any one table card.
pub fn options(
    flow: &MatchingFlow,
    table: CardSet,
    card: CardId,
    from_hand: bool,
    out: &mut Vec<CardSet>,
) {
    options_with(flow, table, &[], card, from_hand, out);
}

/// [`options`] with `whole`, groups of cards outside `table` taken only together (builds of the
/// card's value), offered after the rules' groups and joined with them as `capture_groups` says.
/// Inlined, so that [`options`] (no such groups) pays nothing for them.
#[inline(always)]
pub fn options_with(
    flow: &MatchingFlow,
    table: CardSet,
    whole: &[CardSet],
    card: CardId,
    from_hand: bool,
    out: &mut Vec<CardSet>,
) {
    out.clear();
    if table.is_empty() && whole.is_empty() {
        return;
    }
    if flow.is_wild(card, from_hand) {
        out.extend(table.iter().map(CardSet::single));
        return;
    }
    for rule in &flow.captures {
        if rule.fallback && !out.is_empty() {
            continue;
        }
        match rule.kind {
            CaptureKind::Equal => {
                let equal = rule.equals.get(card.index()).copied().unwrap_or_default();
                for t in (table & equal).iter() {
                    push(out, CardSet::single(t));
                }
            }
            CaptureKind::Sum => sums(rule, table, card, out),
        }
    }
    for &w in whole {
        push(out, w);
    }
    // Several groups at once (`capture_groups`): the unions of disjoint groups replace them.
    if flow.capture_groups != CaptureGroups::One && out.len() > 1 {
        unions(flow.capture_groups == CaptureGroups::Maximal, out);
    }
    if flow.capture_choice == CaptureChoice::MostCards
        && let Some(most) = out.iter().map(|s| s.len()).max()
    {
        out.retain(|s| s.len() == most);
    }
}

/// Replaces `groups` (the captures one card may make, each one group, at most
/// [`MAX_OPTIONS`]) by the unions of pairwise disjoint groups: every union of one or more, or
/// (`maximal`) those to which no other group could be added. Smaller unions first, each size in
/// card order, each once however many ways it is made. Bounded as the sum search is: at most
/// [`MAX_VISITS`] groups looked at and [`MAX_OPTIONS`] unions found, whatever the table (a
/// table of 52 cards offers at most [`MAX_OPTIONS`] groups to begin with); past the bound the
/// unions found so far are offered.
fn unions(maximal: bool, groups: &mut Vec<CardSet>) {
    let all = std::mem::take(groups);
    let mut search = UnionSearch {
        groups: &all,
        maximal,
        visits: 0,
        found: groups,
    };
    search.walk(0, CardSet::EMPTY);
    groups.sort_unstable_by_key(|s| (s.len(), s.0));
}

/// The search of [`unions`].
struct UnionSearch<'a> {
    groups: &'a [CardSet],
    maximal: bool,
    visits: u32,
    found: &'a mut Vec<CardSet>,
}

impl UnionSearch<'_> {
    /// Adds each group from `from` on that is disjoint from `union` in turn, going on with the
    /// groups after it; a union is found when it is made (or, `maximal`, when no group fits it).
    /// Every group looked at is a step: the search ends after [`MAX_VISITS`] of them.
    fn walk(&mut self, from: usize, union: CardSet) {
        for (i, &g) in self.groups.iter().enumerate().skip(from) {
            if !self.step() {
                return;
            }
            if !(g & union).is_empty() {
                continue;
            }
            let with = union | g;
            if !self.maximal {
                self.record(with);
            }
            self.walk(i + 1, with);
        }
        if self.maximal && !union.is_empty() {
            for &g in self.groups {
                if !self.step() || (g & union).is_empty() {
                    return;
                }
            }
            self.record(union);
        }
    }

    /// Counts a step; false once the search has taken too many or found enough.
    fn step(&mut self) -> bool {
        self.visits += 1;
        self.visits <= MAX_VISITS && self.found.len() < MAX_OPTIONS
    }

    fn record(&mut self, union: CardSet) {
        if self.found.len() < MAX_OPTIONS && !self.found.contains(&union) {
            self.found.push(union);
        }
    }
}

/// Adds the trail, `card` laid on the table (an empty set, last), to `options` (the captures
/// `card` played from the hand may make from `table`) when the rules let it be trailed though
/// it can capture (`[flow] must_capture`). A card that captures nothing is laid on the table
/// without a choice, so an empty `options` stays empty.
pub fn offer_trail(flow: &MatchingFlow, table: CardSet, card: CardId, options: &mut Vec<CardSet>) {
    if options.is_empty() {
        return;
    }
    let may = match flow.must_capture {
        MustCapture::Always => false,
        MustCapture::Never => true,
        // A card that pairs with a table card (a wild card pairs with any) must take.
        MustCapture::Equal => {
            !flow.wild.contains(card)
                && flow.captures.iter().all(|rule| {
                    rule.kind != CaptureKind::Equal
                        || (table & rule.equals.get(card.index()).copied().unwrap_or_default())
                            .is_empty()
                })
        }
    };
    if may {
        options.push(CardSet::EMPTY);
    }
}

fn value(rule: &CaptureRule, card: CardId) -> i64 {
    rule.values.get(card.index()).copied().unwrap_or(0)
}

/// Adds `set` unless it is there already (an equal card may also be a sum of one) or the list
/// is full.
fn push(out: &mut Vec<CardSet>, set: CardSet) {
    if out.len() < MAX_OPTIONS && !out.contains(&set) {
        out.push(set);
    }
}

/// The sets of `rule.min_cards` or more table cards whose values add up to the rule's total,
/// appended to `out`, smaller captures first and each size in card order (the order the prompt
/// lists them in).
fn sums(rule: &CaptureRule, table: CardSet, card: CardId, out: &mut Vec<CardSet>) {
    let played = value(rule, card);
    let target = match &rule.total {
        Some(total) => total.int(&Context {
            pile: CardSet::EMPTY,
            facts: &[played],
        }),
        None => played,
    };
    // With every value above zero (the usual case), only cards worth at most the total can be
    // in a set, and nothing adds up when they all fall short together.
    let mut total = 0i64;
    let mut fits = CardSet::EMPTY;
    let mut positive = true;
    for c in table.iter() {
        let v = value(rule, c);
        positive &= v > 0;
        if v <= target {
            fits.insert(c);
            total = total.saturating_add(v);
        }
    }
    if positive && (total < target || fits.len() < rule.min_cards) {
        return;
    }
    let first = out.len();
    if positive {
        // Each set of the cards that fit, by the card added last: no set is visited twice.
        let mut search = FitSearch {
            rule,
            target,
            min_cards: rule.min_cards,
            visits: 0,
            found: out,
        };
        search.choose(fits, 0, CardSet::EMPTY);
    } else {
        let cards: Vec<(CardId, i64)> = table.iter().map(|c| (c, value(rule, c))).collect();
        let mut search = SumSearch {
            cards: &cards,
            target,
            min_cards: rule.min_cards,
            visits: 0,
            found: out,
        };
        search.walk(0, 0, CardSet::EMPTY);
    }
    let found = &mut out[first..];
    if found.len() > 1 {
        found.sort_unstable_by_key(|s| (s.len(), s.0));
    }
    // Each search finds a set once; one an earlier rule already offers stays once.
    if first == 0 {
        out.truncate(MAX_OPTIONS);
        return;
    }
    let mut i = first;
    while i < out.len() {
        if out[..i].contains(&out[i]) {
            out.remove(i);
        } else {
            i += 1;
        }
    }
    out.truncate(MAX_OPTIONS);
}

/// The sum search where every value is above zero, over a set of cards that each fit the total.
struct FitSearch<'a> {
    rule: &'a CaptureRule,
    target: i64,
    min_cards: u32,
    visits: u32,
    found: &'a mut Vec<CardSet>,
}

impl FitSearch<'_> {
    /// Adds each card of `rest` in turn (the lowest first) to `set`, going on with the cards
    /// above it while the sum stays under the total.
    fn choose(&mut self, rest: CardSet, sum: i64, set: CardSet) {
        let mut left = rest;
        while let Some(card) = left.first_card() {
            left.remove(card);
            let with_sum = sum.saturating_add(value(self.rule, card));
            if with_sum > self.target || self.visits > MAX_VISITS {
                continue;
            }
            self.visits += 1;
            let mut with = set;
            with.insert(card);
            if with_sum == self.target {
                if with.len() >= self.min_cards && self.found.len() < MAX_OPTIONS {
                    self.found.push(with);
                }
            } else if !left.is_empty() {
                self.choose(left, with_sum, with);
            }
        }
    }
}

/// The sum search where values may be zero or below: no partial sum says anything of the rest.
struct SumSearch<'a> {
    cards: &'a [(CardId, i64)],
    target: i64,
    min_cards: u32,
    visits: u32,
    /// Where the sets found go.
    found: &'a mut Vec<CardSet>,
}

impl SumSearch<'_> {
    /// Every subset, each card taken or left in turn (bounded), each set found at its leaf.
    fn walk(&mut self, next: usize, sum: i64, set: CardSet) {
        self.visits += 1;
        if self.visits > MAX_VISITS || self.found.len() >= MAX_OPTIONS {
            return;
        }
        let Some(&(card, v)) = self.cards.get(next) else {
            if sum == self.target && set.len() >= self.min_cards {
                self.found.push(set);
            }
            return;
        };
        let mut with = set;
        with.insert(card);
        self.walk(next + 1, sum.saturating_add(v), with);
        self.walk(next + 1, sum, set);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::{self, Ruleset};

    /// A matching ruleset with the Italian pack, `flow_keys` in its `[flow]` and `captures` after.
    fn flow(flow_keys: &str, captures: &str) -> (Ruleset, std::sync::Arc<MatchingFlow>) {
        let text = format!(
            r#"
[ruleset]
id = "captures"
deck = "italian-40"

[flow]
style = "matching"
hand_size = 3
table_size = 4
deal_packet = 1
deal_order = ["table", "others", "dealer"]
rounds = 1
draw = false
refill = true
exhausted = "settle"
{flow_keys}
{captures}
"#
        );
        let loaded = ruleset::load_str("captures.toml", &text);
        let r = loaded
            .value
            .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics));
        let f = std::sync::Arc::clone(r.matching().expect("a matching ruleset"));
        (r, f)
    }

    fn set(r: &Ruleset, ids: &[&str]) -> CardSet {
        ids.iter()
            .map(|id| r.deck.card_by_id(id).expect("a card"))
            .collect()
    }

    const SCOPA_CAPTURES: &str = r#"
[[flow.capture]]
kind = "equal"
by = "value"

[[flow.capture]]
kind = "sum"
by = "value"
fallback = true
"#;

    #[test]
    fn an_equal_card_is_taken_before_any_sum() {
        // viniciocoletti.it "Scopa": "If with the played card one can do both a single or a
        // multiple capture, the single capture is mandatory."
        let (r, f) = flow("", SCOPA_CAPTURES);
        let table = set(&r, &["cups-5", "swords-2", "batons-3"]);
        let five = r.deck.card_by_id("coins-5").unwrap();
        let mut out = Vec::new();
        options(&f, table, five, true, &mut out);
        assert_eq!(out, vec![set(&r, &["cups-5"])]);
    }

    #[test]
    fn without_an_equal_card_every_set_adding_up_is_offered() {
        // siciliansintheworld.com "Scopa (Scupa)": with the ace of coins, the 5 of cups and the
        // 6 of swords on the table, the 7 of clubs takes the 6 and the ace.
        let (r, f) = flow("", SCOPA_CAPTURES);
        let table = set(&r, &["coins-ace", "cups-5", "swords-6", "batons-2"]);
        let seven = r.deck.card_by_id("batons-7").unwrap();
        let mut out = Vec::new();
        options(&f, table, seven, true, &mut out);
        assert_eq!(
            out,
            vec![
                set(&r, &["coins-ace", "swords-6"]),
                set(&r, &["cups-5", "batons-2"]),
            ]
        );
    }

    #[test]
    fn a_total_other_than_the_played_card_and_the_most_cards_rule() {
        // Escoba: the played card and the cards taken make 15.
        let (r, f) = flow(
            r#"capture_choice = "most_cards""#,
            r#"
[[flow.capture]]
kind = "sum"
by = "value"
total = "15 - played"
min_cards = 1
"#,
        );
        let table = set(&r, &["coins-ace", "cups-4", "swords-5", "batons-king"]);
        let king = r.deck.card_by_id("coins-king").unwrap();
        let mut out = Vec::new();
        options(&f, table, king, true, &mut out);
        // 5 = 5 or 1 + 4: the two-card capture is the one offered.
        assert_eq!(out, vec![set(&r, &["coins-ace", "cups-4"])]);
    }
}
