//! Checking a merged ruleset tree and building the [`Ruleset`]: deck, card kinds, yaku (with
//! their expressions compiled), flow options and the scoring script. Every error is collected.

use super::deck_file::{check_ident, unknown_kind};
use super::keys;
use super::load::{Loader, Origin, RefKind};
use super::model::*;
use super::reader::{Str, TableReader};
use super::toml_tree::{Item, Table, Value};
use super::yaku_table::{MAX_YAKU, Yaku, YakuTable};
use crate::deck::{CardSet, Deck};
use crate::diag::{Diagnostic, FileId, Loc, did_you_mean};
use crate::expr::{self, Names, Program, Type};
use crate::script::{FactValue, ScoringScript};
use std::collections::HashMap;

mod banker;

/// Builds a ruleset from its merged tree.
pub(super) fn ruleset(
    loader: &mut Loader,
    tree: &Table,
    errors: &mut Vec<Diagnostic>,
) -> Option<Ruleset> {
    let before = errors.len();
    let top_loc = Loc::default();
    let mut top =
        TableReader::new(tree, top_loc.clone(), "a ruleset").defined_by(&keys::RULESET_FILE);
    let header = top.table("ruleset", errors);
    let card_kinds = top.table("card_kinds", errors);
    let new_kinds = top.strings("new_kinds", errors);
    let yaku_tables = top.tables("yaku", errors);
    let flow = top.table("flow", errors);
    let declaration_tables = top.tables("declaration", errors);
    let tally_tables = top.tables("tally", errors);
    let options = top.table("options", errors);
    let defines = top.table("define", errors);
    let scoring = top.table("scoring", errors);
    let carry_tables = top.tables("carry", errors);
    let meld_tables = top.tables("meld", errors);
    // Merging onto a base consumes the `remove_*` lists; one left here has no base to remove
    // from.
    for (key, _, noun) in super::load::REMOVALS {
        if let Some(item) = top.item(key) {
            errors.push(
                Diagnostic::error(format!("`{key}` without a base ruleset"), item.loc.clone())
                    .with_help(Some(format!(
                        "`{key}` drops {noun} entries of the ruleset named by `extends`; \
                         delete them here instead"
                    ))),
            );
        }
    }
    top.finish(errors);

    let Some((header, header_loc)) = header else {
        let file = tree
            .entries
            .first()
            .map(|(_, l, _)| l.file)
            .unwrap_or_default();
        let message = if tree.entries.is_empty() {
            "the file holds no rules: a ruleset needs a `[ruleset]` table"
        } else {
            "the ruleset has no `[ruleset]` table"
        };
        errors.push(
            Diagnostic::error(message, Loc::new(file, 0..0))
                .with_label("add `[ruleset]` with `id` and `deck`"),
        );
        return None;
    };
    let mut h =
        TableReader::new(header, header_loc.clone(), "`[ruleset]`").defined_by(&keys::RULESET);
    let id = h.required_string("id", errors);
    let name = h.string("name", errors);
    let description = h.string("description", errors);
    let sources = h.strings("sources", errors);
    let notes = h.strings("notes", errors);
    let deck_ref = h.required_string("deck", errors);
    let optional_cards = h.strings("optional_cards", errors);
    h.finish(errors);
    if let Some(id) = id {
        check_ident(&id, errors);
    }

    let deck = deck_ref.and_then(|d| {
        let file = loader.open_ref(d.loc.file, d.text, RefKind::Deck, d.loc, errors)?;
        loader.deck_in(file, errors)
    });
    // Without a deck (missing, or broken) the rest is still checked against an empty one, so
    // every other mistake shows now rather than after the deck is fixed; only the findings
    // about names, which need the deck, are left out.
    let deck_missing = deck.is_none();
    let after_deck = errors.len();
    let mut deck = deck.unwrap_or_else(Deck::empty);
    if !deck_missing {
        deck = with_optional_cards(&deck, &optional_cards, errors);
    }
    if !deck_missing {
        add_kinds(&mut deck, &new_kinds, errors);
    }
    if let Some((table, _)) = card_kinds
        && !deck_missing
    {
        apply_card_kinds(&mut deck, table, errors);
    }
    let options = options.map_or_else(Vec::new, |(t, l)| rule_options(t, l, &deck, errors));
    let mut vocab = Vocab {
        deck: &deck,
        options: options
            .iter()
            .map(|o| {
                let constant = match o.value {
                    OptionValue::Int(n) => Program::int_constant(n),
                    OptionValue::Bool(b) => Program::bool_constant(b),
                };
                (o.id.clone(), constant)
            })
            .collect(),
        defines: Vec::new(),
        carried: Vec::new(),
    };
    let (mut carry, carry_deals) = carry_values(&carry_tables, &vocab, errors);
    vocab.carried = carry
        .iter()
        .filter(|c| !c.per_seat)
        .map(|c| c.id.clone())
        .collect();
    carry_deal_values(&mut carry, carry_deals, &vocab, errors);
    let mut define_sources = Vec::new();
    if let Some((t, l)) = defines {
        vocab.defines = define_table(t, l, &vocab, errors);
        // In file order (the definitions themselves are sorted by name).
        define_sources = t
            .entries
            .iter()
            .filter(|(name, _, _)| {
                vocab
                    .defines
                    .binary_search_by(|(n, _)| n.as_str().cmp(name))
                    .is_ok()
            })
            .filter_map(|(name, _, item)| match &item.value {
                Value::Str(source, _) => Some((name.clone(), source.clone())),
                _ => None,
            })
            .collect();
    }
    let declarations = declarations(&declaration_tables, &vocab, errors);
    // The yaku scope: the core's facts, then one fact per card choice (`count_as`), named after
    // the declaration (`sake-pi` gives `sake_pi`), then the tallies by id.
    let choice_facts: Vec<String> = declarations
        .iter()
        .filter(|(d, ..)| d.effect == "count_as")
        .map(|(d, ..)| d.id.replace('-', "_"))
        .collect();
    if let Some((d, loc, _)) = declarations
        .iter()
        .filter(|(d, ..)| d.effect == "count_as")
        .nth(MAX_CHOICES)
    {
        errors.push(Diagnostic::error(
            format!(
                "`{}`: a ruleset holds at most {MAX_CHOICES} `count_as` declarations",
                d.id
            ),
            loc.clone(),
        ));
    }
    let yaku_facts: Vec<&str> = scope::YAKU
        .iter()
        .copied()
        .chain(choice_facts.iter().map(String::as_str).take(MAX_CHOICES))
        .collect();
    let tallies = tallies(&tally_tables, &vocab, &yaku_facts, errors);
    let defs: Vec<(String, Program)> = vocab
        .options
        .iter()
        .cloned()
        .chain(tallies.iter().map(|t| (t.id.clone(), t.count.clone())))
        .collect();
    let names = Names {
        deck: &deck,
        facts: &yaku_facts,
        defs: &defs,
        macros: &vocab.defines,
        carried: &[],
    };
    let yaku = yaku_table(&yaku_tables, &names, loader.entry_file(), errors);
    let flow = match flow {
        Some((t, l)) => {
            let used = Sections {
                yaku: yaku_tables.first().map(|(_, l)| (*l).clone()),
                scoring: scoring.as_ref().map(|(_, l)| (*l).clone()),
                declarations: &declarations,
                melds: &meld_tables,
            };
            flow_options(t, l, &vocab, &used, errors)
        }
        None => {
            errors.push(Diagnostic::error(
                "the ruleset has no `[flow]` table",
                header_loc.clone(),
            ));
            None
        }
    };
    // Only the matching family deals a table for `deal` to count.
    if !matches!(flow, Some(Flow::Matching(_)) | None)
        && let Some((t, l)) = carry_tables.iter().find(|(t, _)| t.get("deal").is_some())
    {
        let at = t
            .get("deal")
            .map_or_else(|| (*l).clone(), |i| i.loc.clone());
        errors.push(
            Diagnostic::error(
                "`deal` sets a carried value from the table dealt, which only matching games deal",
                at,
            )
            .with_help(Some("let the scoring script write it (`carry`)".into())),
        );
    }
    let calls: Vec<String> = declarations
        .iter()
        .filter(|(d, ..)| d.effect == "continue")
        .map(|(d, ..)| d.id.replace('-', "_"))
        .collect();
    let scoring = scoring.and_then(|(t, l)| scoring_script(loader, t, l, &calls, &options, errors));
    if let Some((script, at, place)) = &scoring
        && !crate::diag::has_errors(errors)
    {
        let extras = match &flow {
            Some(Flow::Tricks(t)) => {
                let mut samples = tricks_sample_facts(t);
                if !carry.is_empty() {
                    for sample in &mut samples {
                        sample.push(("carry", carry_sample(&carry, t.players as usize)));
                    }
                }
                samples
            }
            Some(Flow::Matching(m)) if script.reads().reads_extra() => {
                table_samples(m, &tallies, &declarations, &yaku, &carry)
            }
            _ => vec![Vec::new()],
        };
        let before = errors.len();
        try_script(script, &yaku, &extras, at, errors);
        for d in &mut errors[before..] {
            locate_script_failure(d, place, &loader.sources);
            blame_removed_declaration(d, &loader.removed);
        }
    }
    let scoring = scoring.map(|(s, _, _)| s);
    if deck_missing {
        let mut i = after_deck;
        while i < errors.len() {
            if needs_the_deck(&errors[i].message) {
                errors.remove(i);
            } else {
                i += 1;
            }
        }
        return None;
    }
    if errors[before..]
        .iter()
        .any(|d| d.severity == crate::diag::Severity::Error)
    {
        return None;
    }
    Some(Ruleset {
        id: id?.text.to_string(),
        name: name.map_or_else(|| deck.name.clone(), |n| n.text.to_string()),
        description: description.map_or_else(String::new, |d| d.text.to_string()),
        sources: sources.iter().map(|s| s.text.to_string()).collect(),
        notes: notes.iter().map(|s| s.text.to_string()).collect(),
        content_hash: content_hash(&loader.sources),
        deck,
        yaku,
        flow: flow?,
        declarations: declarations.into_iter().map(|(d, ..)| d).collect(),
        scoring,
        tallies,
        options,
        defines: define_sources,
        carry,
    })
}

/// FNV-1a over every text read, in load order.
fn content_hash(sources: &crate::diag::SourceMap) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    // The spec of a combination (`koikoi+house/a`) names files, which are hashed themselves: the
    // same rules named from another folder hash the same.
    for f in sources
        .files()
        .iter()
        .filter(|f| f.name != "<command line>")
    {
        for b in f.text.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The deck without the optional cards (bonus cards) the ruleset's `optional_cards` does not
/// name; naming a card that is not optional, or no card, is an error.
fn with_optional_cards(deck: &Deck, named: &[Str], errors: &mut Vec<Diagnostic>) -> Deck {
    let mut keep = deck.all() - deck.optional;
    for n in named {
        match deck.card_by_id(n.text) {
            Some(c) if deck.optional.contains(c) => keep.insert(c),
            Some(_) => errors.push(
                Diagnostic::error(
                    format!("`{}` is not an optional card of the deck", n.text),
                    n.loc.clone(),
                )
                .with_help(Some(format!(
                    "the deck's optional cards: {}",
                    or_none(&deck.ids(deck.optional))
                ))),
            ),
            None => errors.push(
                Diagnostic::error(format!("unknown card `{}`", n.text), n.loc.clone()).with_help(
                    did_you_mean(n.text, deck.ids(deck.optional)).or_else(|| {
                        Some(format!(
                            "the deck's optional cards: {}",
                            or_none(&deck.ids(deck.optional))
                        ))
                    }),
                ),
            ),
        }
    }
    if keep == deck.all() {
        deck.clone()
    } else {
        deck.retain(keep)
    }
}

fn or_none(ids: &[&str]) -> String {
    if ids.is_empty() {
        "none".into()
    } else {
        ids.join(", ")
    }
}

/// `new_kinds = ["double-plain"]`: kinds the ruleset adds to its deck, empty until `[card_kinds]`
/// gives them cards (a kind nobody declared stays an error there, so a misspelt kind is found).
fn add_kinds(deck: &mut Deck, new: &[Str], errors: &mut Vec<Diagnostic>) {
    for k in new {
        if !check_ident(k, errors) {
            continue;
        }
        let taken = deck.kind(k.text).is_some()
            || deck.suits.iter().any(|s| s.id == k.text)
            || deck.card_by_id(k.text).is_some()
            || deck.attributes.iter().any(|a| a.id == k.text);
        if taken {
            errors.push(Diagnostic::error(
                format!("`{}` is already a name of the deck", k.text),
                k.loc.clone(),
            ));
            continue;
        }
        deck.kinds.push(crate::deck::Kind {
            id: k.text.to_string(),
            cards: CardSet::EMPTY,
        });
    }
}

/// `[card_kinds]`: `card-id = ["kind", ...]` replaces a card's kinds.
fn apply_card_kinds(deck: &mut Deck, table: &Table, errors: &mut Vec<Diagnostic>) {
    for (card_id, key_loc, item) in &table.entries {
        let card = deck.card_by_id(card_id);
        if card.is_none() {
            errors.push(
                Diagnostic::error(
                    format!("unknown card `{card_id}` in `[card_kinds]`"),
                    key_loc.clone(),
                )
                .with_help(did_you_mean(card_id, deck.card_ids())),
            );
        }
        let kinds: Vec<Str> = match &item.value {
            Value::Array(items) => items
                .iter()
                .filter_map(|i| match &i.value {
                    Value::Str(s, raw) => Some(Str {
                        text: s,
                        loc: &i.loc,
                        raw_offset: *raw,
                    }),
                    other => {
                        errors.push(Diagnostic::error(
                            format!("card kinds must be strings, found {}", other.describe()),
                            i.loc.clone(),
                        ));
                        None
                    }
                })
                .collect(),
            other => {
                errors.push(Diagnostic::error(
                    format!(
                        "`{card_id}` must be an array of kinds, found {}",
                        other.describe()
                    ),
                    item.loc.clone(),
                ));
                continue;
            }
        };
        let unknown: Vec<&Str> = kinds
            .iter()
            .filter(|k| deck.kind(k.text).is_none())
            .collect();
        for k in &unknown {
            let d = unknown_kind(k, &deck.kinds);
            // Not a misspelling: say how to make a new kind.
            let d = if d
                .help
                .as_deref()
                .is_some_and(|h| h.starts_with("did you mean"))
            {
                d
            } else {
                d.with_help(Some(format!(
                    "a new kind is declared first, at the top of the file: `new_kinds = [\"{}\"]`",
                    k.text
                )))
            };
            errors.push(d);
        }
        let Some(card) = card.filter(|_| unknown.is_empty()) else {
            continue;
        };
        for kind in &mut deck.kinds {
            kind.cards.remove(card);
            if kinds.iter().any(|k| k.text == kind.id) {
                kind.cards.insert(card);
            }
        }
        deck.cards[card.index()].kinds = kinds.iter().map(|k| k.text.to_string()).collect();
    }
}

/// Compiles an expression string, mapping its errors into the rule file.
pub(super) fn compile_expr(
    s: &Str,
    want: Type,
    names: &Names,
    errors: &mut Vec<Diagnostic>,
) -> Option<Program> {
    match expr::compile_str(s.text, want, names) {
        Ok(p) => Some(p),
        Err(list) => {
            for e in list {
                errors.push(Diagnostic::error(e.message, s.inner(e.span)).with_help(e.help));
            }
            None
        }
    }
}

/// Checks and compiles the `[[yaku]]` tables; `entry` is the file being loaded (not a base).
fn yaku_table(
    tables: &[(&Table, &Loc)],
    names: &Names,
    entry: FileId,
    errors: &mut Vec<Diagnostic>,
) -> YakuTable {
    let mut table = YakuTable::default();
    let mut group_uses: Vec<(String, Vec<Loc>)> = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    // Where each id was first defined, for "first defined here".
    let mut id_locs: HashMap<String, Loc> = HashMap::new();
    // Each group's place in `group_uses`.
    let mut group_index: HashMap<String, usize> = HashMap::new();
    // The ids the bases give, which a new yaku's misspelt id may have meant.
    let base_ids: Vec<&str> = tables
        .iter()
        .filter(|(_, loc)| loc.file != entry)
        .filter_map(|(t, _)| match t.get("id").map(|i| &i.value) {
            Some(Value::Str(s, _)) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    for (t, loc) in tables {
        let mut r = TableReader::new(t, (*loc).clone(), "a `[[yaku]]`").defined_by(&keys::YAKU);
        let id = r.required_string("id", errors);
        let what = id.map_or_else(
            || "a `[[yaku]]`".to_string(),
            |i| format!("yaku `{}`", i.text),
        );
        let mut r = TableReader::new(t, (*loc).clone(), what).defined_by(&keys::YAKU);
        let _ = r.string("id", errors);
        let name = r.string("name", errors);
        let description = r.string("description", errors);
        let before_missing = errors.len();
        let when = r.required_string("when", errors);
        let points = r.required_string("points", errors);
        // A new yaku without a condition or points, named close to an existing one, is most
        // likely a change to that one with its id misspelt.
        if errors.len() > before_missing
            && let Some(id) = id
        {
            let others = base_ids.iter().copied().filter(|s| *s != id.text);
            if let Some(near) = crate::diag::suggest(id.text, others) {
                for d in &mut errors[before_missing..] {
                    d.help = Some(format!(
                        "an id the base does not have makes a new yaku; did you mean to change `{near}`?"
                    ));
                }
            }
        }
        let group = r.string("group", errors);
        r.finish(errors);
        let Some(id) = id else { continue };
        if !check_ident(&id, errors) {
            continue;
        }
        if let Some(first) = id_locs.get(id.text) {
            errors.push(
                Diagnostic::error(format!("duplicate yaku id `{}`", id.text), id.loc.clone())
                    .with_label("defined again here")
                    .with_related(Loc::clone(first), "first defined here"),
            );
            continue;
        }
        id_locs.insert(id.text.to_string(), id.loc.clone());
        ids.push(id.text.to_string());
        let sources = (
            when.as_ref()
                .map_or_else(String::new, |w| w.text.to_string()),
            points
                .as_ref()
                .map_or_else(String::new, |p| p.text.to_string()),
        );
        let when = when.and_then(|w| compile_expr(&w, Type::Bool, names, errors));
        let points_at = points.as_ref().map(|p| p.loc.clone());
        let points = points.and_then(|p| compile_expr(&p, Type::Int, names, errors));
        let group = group.and_then(|g| {
            if g.text.is_empty() {
                errors.push(
                    Diagnostic::error("a group needs a name", g.loc.clone()).with_help(Some(
                        "to take a yaku out of the group its base gives it, write \
                         `unset = [\"group\"]` in the yaku"
                            .into(),
                    )),
                );
                return None;
            }
            if !check_ident(&g, errors) {
                return None;
            }
            let index = *group_index.entry(g.text.to_string()).or_insert_with(|| {
                group_uses.push((g.text.to_string(), Vec::new()));
                group_uses.len() - 1
            });
            group_uses[index].1.push(g.loc.clone());
            Some(index)
        });
        if table.yaku.len() == MAX_YAKU {
            errors.push(Diagnostic::error(
                format!("a ruleset holds at most {MAX_YAKU} yaku"),
                id.loc.clone(),
            ));
            continue;
        }
        if let (Some(when), Some(points)) = (when, points) {
            table.yaku.push(Yaku {
                id: id.text.to_string(),
                name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
                description: description.map_or_else(String::new, |d| d.text.to_string()),
                when,
                points,
                when_source: sources.0,
                points_source: sources.1,
                group,
            });
            if let (Some(y), Some(at)) = (table.yaku.last(), &points_at) {
                super::points::check(y, names.deck, at, errors);
            }
        }
    }
    // A group of one yaku excludes nothing. Close to another group's name, it is a misspelling:
    // an error. Otherwise a warning, and nothing at all when the lone use is in a base file: the
    // file being loaded removed the others (`remove_yaku`), which is no mistake.
    for (name, locs) in &group_uses {
        if locs.len() == 1 {
            let others = group_uses
                .iter()
                .filter(|(n, _)| n != name)
                .map(|(n, _)| n.as_str());
            let message = format!("group `{name}` has only one yaku");
            let diagnostic = match did_you_mean(name, others) {
                Some(help) => Diagnostic::error(message, locs[0].clone()).with_help(Some(help)),
                None if locs[0].file == entry => Diagnostic::warning(message, locs[0].clone())
                    .with_help(Some(
                        "a group needs two or more yaku to exclude one another".into(),
                    )),
                None => continue,
            };
            errors.push(diagnostic);
        }
    }
    table.groups = group_uses.iter().map(|(n, _)| n.clone()).collect();
    never_scores(&table, &id_locs, &group_uses, names, errors);
    table
}

/// Warns about yaku no pile of the deck satisfies (a condition switched off by an option or
/// written `false` is meant, and left alone), and groups whose yaku never hold together (the
/// group then excludes nothing).
fn never_scores(
    table: &YakuTable,
    id_locs: &HashMap<String, Loc>,
    group_uses: &[(String, Vec<Loc>)],
    names: &Names,
    errors: &mut Vec<Diagnostic>,
) {
    let n = names.facts.len();
    // Round 1 of 12, not the dealer, no card choices; and round 12, the dealer, every choice.
    let fact_sets: [Vec<i64>; 2] = [
        [1, 12, 0]
            .into_iter()
            .chain(std::iter::repeat(0))
            .take(n)
            .collect(),
        [12, 12, 1]
            .into_iter()
            .chain(std::iter::repeat(1))
            .take(n)
            .collect(),
    ];
    let loc_of = |id: &str| id_locs.get(id).cloned();
    let mut piles: Vec<Vec<(CardSet, usize)>> = Vec::new();
    for y in &table.yaku {
        let found: Vec<(CardSet, usize)> = fact_sets
            .iter()
            .enumerate()
            .flat_map(|(f, facts)| {
                super::reach::satisfying_piles(&y.when, names.deck, facts, 4)
                    .into_iter()
                    .map(move |p| (p, f))
            })
            .collect();
        if found.is_empty()
            && y.when.constant_truth().is_none()
            && let Some(at) = loc_of(&y.id)
        {
            errors.push(
                Diagnostic::warning(format!("yaku `{}` never scores", y.id), at).with_help(Some(
                    format!(
                        "no pile of the deck was found that satisfies `{}`",
                        y.when_source
                    ),
                )),
            );
        }
        piles.push(found);
    }
    for (g, (name, locs)) in group_uses.iter().enumerate() {
        let members: Vec<usize> = (0..table.yaku.len())
            .filter(|&i| table.yaku[i].group == Some(g))
            .collect();
        if members.len() < 2 || members.iter().any(|&i| piles[i].is_empty()) {
            continue;
        }
        let holds = |i: usize, pile: CardSet, f: usize| {
            table.yaku[i].when.truth(&crate::expr::Context {
                pile,
                facts: &fact_sets[f],
            })
        };
        // Two members hold on a pile found for one of them, or on the union of two such piles.
        let together = members.iter().any(|&a| {
            members.iter().any(|&b| {
                a != b
                    && piles[a].iter().any(|&(pa, f)| {
                        holds(b, pa, f)
                            || piles[b]
                                .iter()
                                .any(|&(pb, _)| holds(a, pa | pb, f) && holds(b, pa | pb, f))
                    })
            })
        });
        if !together && !locs.is_empty() {
            errors.push(
                Diagnostic::warning(format!("group `{name}` excludes nothing"), locs[0].clone())
                    .with_help(Some(
                        "no pile was found on which two of its yaku hold together; a group only \
                         matters for yaku that can (the highest then counts)"
                            .into(),
                    )),
            );
        }
    }
}

/// Reads a string option among fixed choices.
fn choice<T: Copy>(
    r: &mut TableReader,
    key: &str,
    options: &[(&str, T)],
    errors: &mut Vec<Diagnostic>,
) -> Option<T> {
    let s = r.string(key, errors)?;
    match options.iter().find(|(n, _)| *n == s.text) {
        Some((_, v)) => Some(*v),
        None => {
            let list: Vec<String> = options.iter().map(|(n, _)| format!("`{n}`")).collect();
            let help = did_you_mean(s.text, options.iter().map(|(n, _)| *n))
                .or_else(|| Some(format!("`{key}` takes {}", list.join(", "))));
            errors.push(
                Diagnostic::error(
                    format!("unknown value `{}` for `{key}`", s.text),
                    s.loc.clone(),
                )
                .with_help(help),
            );
            None
        }
    }
}

/// `table_size`: 0 to 64 cards face up after the deal (Scopone scientifico deals none).
fn table_cards(r: &mut TableReader, default: u32, errors: &mut Vec<Diagnostic>) -> u32 {
    match r.int("table_size", errors) {
        Some((n, _)) if (0..=64).contains(&n) => n as u32,
        Some((n, loc)) => {
            errors.push(Diagnostic::error(
                format!("`table_size` must be between 0 and 64, found {n}"),
                loc.clone(),
            ));
            default
        }
        None => default,
    }
}

fn positive(r: &mut TableReader, key: &str, default: u32, errors: &mut Vec<Diagnostic>) -> u32 {
    match r.int(key, errors) {
        Some((n, _)) if (1..=64).contains(&n) => n as u32,
        Some((n, loc)) => {
            errors.push(Diagnostic::error(
                format!("`{key}` must be between 1 and 64, found {n}"),
                loc.clone(),
            ));
            default
        }
        None => default,
    }
}

/// The sections of a ruleset besides `[flow]` that only some families use, for the family to
/// accept or refuse.
struct Sections<'a> {
    /// Where the first `[[yaku]]` is, if any.
    yaku: Option<Loc>,
    /// Where `[scoring]` is, if any.
    scoring: Option<Loc>,
    /// The declarations, each with where its `effect` and its `when` are written.
    declarations: &'a [(Declaration, Loc, Option<Loc>)],
    /// The `[[meld]]` tables (trick-taking games only).
    melds: &'a [(&'a Table, &'a Loc)],
}

impl Sections<'_> {
    /// Reports `[[meld]]` in a family that has no melds.
    fn no_melds(&self, family: &str, errors: &mut Vec<Diagnostic>) {
        if let Some((_, at)) = self.melds.first() {
            errors.push(
                Diagnostic::error(
                    format!("a {family} game does not use `[[meld]]`"),
                    (*at).clone(),
                )
                .with_help(Some(
                    "melds are shown in trick-taking games; remove this section".into(),
                )),
            );
        }
    }
}

/// `[[declaration]]`: id, name, prompt, effect and an optional condition in the declaration
/// scope. The family checks the effects.
fn declarations(
    tables: &[(&Table, &Loc)],
    vocab: &Vocab,
    errors: &mut Vec<Diagnostic>,
) -> Vec<(Declaration, Loc, Option<Loc>)> {
    let deck = vocab.deck;
    let names = vocab.names(scope::DECLARATION);
    let mut out: Vec<(Declaration, Loc, Option<Loc>)> = Vec::new();
    for (t, loc) in tables {
        let mut r = TableReader::new(t, (*loc).clone(), "a `[[declaration]]`")
            .defined_by(&keys::DECLARATION);
        let id = r.required_string("id", errors);
        let name = r.string("name", errors);
        let prompt = r.string("prompt", errors);
        let effect = r.required_string("effect", errors);
        let when = r.string("when", errors);
        let card = r.string("card", errors).and_then(|c| {
            let found = deck.card_by_id(c.text);
            if found.is_none() {
                errors.push(
                    Diagnostic::error(format!("unknown card `{}`", c.text), c.loc.clone())
                        .with_help(did_you_mean(c.text, deck.card_ids())),
                );
            }
            found
        });
        let count = r.int("count", errors).and_then(|(n, l)| {
            if (2..=8).contains(&n) {
                Some(n as u32)
            } else {
                errors.push(Diagnostic::error(
                    format!("`count` must be between 2 and 8, found {n}"),
                    l.clone(),
                ));
                None
            }
        });
        r.finish(errors);
        let (Some(id), Some(effect)) = (id, effect) else {
            continue;
        };
        if !check_ident(&id, errors) {
            continue;
        }
        if out.iter().any(|(d, ..)| d.id == id.text) {
            errors.push(Diagnostic::error(
                format!("duplicate declaration id `{}`", id.text),
                id.loc.clone(),
            ));
            continue;
        }
        if out.len() == usize::from(u8::MAX) {
            errors.push(Diagnostic::error(
                "a ruleset holds at most 255 declarations",
                id.loc.clone(),
            ));
            continue;
        }
        let when_source = when.as_ref().map(|w| w.text.to_string());
        let compiled = match &when {
            Some(w) => match compile_expr(w, Type::Bool, &names, errors) {
                Some(p) => Some(p),
                None => continue,
            },
            None => None,
        };
        out.push((
            Declaration {
                id: id.text.to_string(),
                name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
                prompt: prompt.map_or_else(String::new, |p| p.text.to_string()),
                effect: effect.text.to_string(),
                when: compiled,
                when_source,
                card,
                count: count.unwrap_or(0),
            },
            effect.loc.clone(),
            when.map(|w| w.loc.clone()),
        ));
    }
    out
}

/// An array of whole numbers in `range` (`deal_packets`, `draw_options`): `Ok(None)` when
/// absent, `Err(())` when not an array; an entry out of range is reported and left out.
/// `[[carry]]`: values carried from hand to hand, each with a unique id that no option,
/// definition or fact of the core already names, and an initial value within
/// [`CARRY_LIMIT`].
/// Also returns each `deal` expression as written, by the index of its value, for
/// [`carry_deal_values`] to compile once every carried id is known.
fn carry_values<'t>(
    tables: &[(&'t Table, &'t Loc)],
    vocab: &Vocab,
    errors: &mut Vec<Diagnostic>,
) -> (Vec<Carry>, Vec<(usize, Str<'t>)>) {
    let mut out: Vec<Carry> = Vec::new();
    let mut deals = Vec::new();
    for (t, l) in tables {
        let mut r = TableReader::new(t, (*l).clone(), "a `[[carry]]`").defined_by(&keys::CARRY);
        let id = r.required_string("id", errors);
        let name = r.string("name", errors);
        let description = r.string("description", errors);
        let per_seat = r.boolean("per_seat", errors).is_some_and(|(b, _)| b);
        let deal = r.string("deal", errors);
        if let (Some(d), true) = (&deal, per_seat) {
            errors.push(
                Diagnostic::error(
                    "a value carried per seat has no `deal`: the deal counts one value, on the table",
                    d.loc.clone(),
                )
                .with_help(Some("remove `per_seat` or `deal`".into())),
            );
        }
        let initial = match r.int("initial", errors) {
            Some((n, _)) if (-CARRY_LIMIT..=CARRY_LIMIT).contains(&n) => n,
            Some((n, at)) => {
                errors.push(Diagnostic::error(
                    format!(
                        "`initial` must be between -{CARRY_LIMIT} and {CARRY_LIMIT}, found {n}"
                    ),
                    at.clone(),
                ));
                0
            }
            None => 0,
        };
        r.finish(errors);
        let Some(id) = id else { continue };
        if !check_ident(&id, errors) {
            continue;
        }
        let taken = scope::ALL.iter().any(|(_, facts)| facts.contains(&id.text));
        if out.iter().any(|c| c.id == id.text) || taken || vocab.knows(id.text) {
            errors.push(
                Diagnostic::error(
                    format!("`{}` is already a name of this ruleset", id.text),
                    id.loc.clone(),
                )
                .with_help(Some(
                    "a carried value needs an id no other carried value, option, definition or fact uses".into(),
                )),
            );
            continue;
        }
        if out.len() == MAX_CARRIED {
            errors.push(Diagnostic::error(
                format!("a ruleset carries at most {MAX_CARRIED} values"),
                id.loc.clone(),
            ));
            continue;
        }
        out.push(Carry {
            id: id.text.to_string(),
            name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
            description: description.map_or_else(String::new, |d| d.text.to_string()),
            per_seat,
            initial,
            deal: None,
            deal_source: None,
        });
        if let Some(d) = deal.filter(|_| !per_seat) {
            deals.push((out.len() - 1, d));
        }
    }
    (out, deals)
}

/// `[[carry]] deal`: each compiled as the table count is (the pile is the table just dealt;
/// `round`, `rounds` and the table's carried values are its facts).
fn carry_deal_values(
    carry: &mut [Carry],
    deals: Vec<(usize, Str)>,
    vocab: &Vocab,
    errors: &mut Vec<Diagnostic>,
) {
    let facts: Vec<&str> = scope::TABLE
        .iter()
        .copied()
        .chain(vocab.carried.iter().map(String::as_str))
        .collect();
    let names = vocab.names(&facts);
    for (i, source) in deals {
        carry[i].deal = compile_expr(&source, Type::Int, &names, errors);
        carry[i].deal_source = Some(source.text.to_string());
    }
}

/// `[flow.drop_out]`: `players` fewer than the largest table and at least the smallest, one
/// `play` declaration (which takes no `when`: a seat may always play) and one `drop`.
fn drop_out(
    t: &Table,
    loc: &Loc,
    sections: &Sections,
    (min_players, max_players): (u32, u32),
    errors: &mut Vec<Diagnostic>,
) -> Option<DropOut> {
    let mut r = TableReader::new(t, loc.clone(), "`[flow.drop_out]`").defined_by(&keys::DROP_OUT);
    let players = r.int("players", errors);
    let after_dealer = choice(
        &mut r,
        "first",
        &[("dealer", false), ("after_dealer", true)],
        errors,
    )
    .unwrap_or(false);
    let pays = match r.int("pays", errors) {
        Some((n, _)) if n.abs() <= MAX_BANKROLL => n,
        Some((n, at)) => {
            errors.push(Diagnostic::error(
                format!("`pays` must be between -{MAX_BANKROLL} and {MAX_BANKROLL}, found {n}"),
                at.clone(),
            ));
            0
        }
        None => 0,
    };
    r.finish(errors);
    let players = match players {
        Some((n, at)) if n < i64::from(min_players) || n >= i64::from(max_players) => {
            errors.push(
                Diagnostic::error(
                    format!(
                        "`players` must be at least `min_players` ({min_players}) and fewer than `max_players` ({max_players}), found {n}"
                    ),
                    at.clone(),
                )
                .with_help(Some(
                    "the seats that play each hand: the others at a larger table drop out".into(),
                )),
            );
            return None;
        }
        Some((n, _)) => n as u32,
        None => {
            errors.push(Diagnostic::error(
                "`[flow.drop_out]` needs `players`, the seats that play each hand",
                loc.clone(),
            ));
            return None;
        }
    };
    let one = |effect: &str, errors: &mut Vec<Diagnostic>| {
        let found = declared(sections, &[effect]);
        match found[..] {
            [d] => Some(d),
            _ => {
                errors.push(
                    Diagnostic::error(
                        format!(
                            "`[flow.drop_out]` needs one `{effect}` declaration, found {}",
                            found.len()
                        ),
                        loc.clone(),
                    )
                    .with_help(Some(format!(
                        "add a [[declaration]] with `effect = \"{effect}\"`"
                    ))),
                );
                None
            }
        }
    };
    let play = one("play", errors);
    let drop = one("drop", errors);
    for (d, _, when) in sections.declarations {
        if d.effect == "play"
            && let Some(at) = when
        {
            errors.push(
                Diagnostic::error("a `play` declaration takes no `when`", at.clone()).with_help(
                    Some("a seat may always play; say who may not drop in the `drop` declaration's `when`".into()),
                ),
            );
        }
    }
    Some(DropOut {
        players,
        after_dealer,
        pays,
        play: play?,
        drop: drop?,
    })
}

/// `teams = [[0, 2], [1, 3]]`: partnerships, every seat of a table of exactly `players` in
/// one of them; the table must then seat that many (`min_players = max_players = players`).
fn teams(
    r: &mut TableReader,
    seats: (u32, u32, u32),
    loc: &Loc,
    errors: &mut Vec<Diagnostic>,
) -> Teams {
    let Some(item) = r.item("teams") else {
        return Teams::default();
    };
    let (players, min_players, max_players) = seats;
    let Value::Array(groups) = &item.value else {
        errors.push(Diagnostic::error(
            format!(
                "`teams` must be an array of teams, each an array of seats (`[[0, 2], [1, 3]]`), found {}",
                item.value.describe()
            ),
            item.loc.clone(),
        ));
        return Teams::default();
    };
    let mut found: Vec<Vec<usize>> = Vec::new();
    let mut seen = vec![false; players as usize];
    let mut bad = false;
    for g in groups {
        let Value::Array(members) = &g.value else {
            errors.push(Diagnostic::error(
                format!("a team is an array of seats, found {}", g.value.describe()),
                g.loc.clone(),
            ));
            bad = true;
            continue;
        };
        if members.is_empty() {
            errors.push(Diagnostic::error(
                "a team needs at least one seat",
                g.loc.clone(),
            ));
            bad = true;
        }
        let mut team = Vec::new();
        for m in members {
            match m.value {
                Value::Int(n) if (0..i64::from(players)).contains(&n) => {
                    let s = n as usize;
                    if seen[s] {
                        errors.push(Diagnostic::error(
                            format!("seat {s} is in two teams"),
                            m.loc.clone(),
                        ));
                        bad = true;
                    }
                    seen[s] = true;
                    team.push(s);
                }
                _ => {
                    errors.push(
                        Diagnostic::error(
                            format!(
                                "a team's seats are numbers from 0 to {} (the table seats {players})",
                                players.saturating_sub(1)
                            ),
                            m.loc.clone(),
                        )
                        .with_help(Some("seats are numbered from 0 in turn order".into())),
                    );
                    bad = true;
                }
            }
        }
        found.push(team);
    }
    if let Some(s) = seen.iter().position(|&x| !x)
        && !bad
    {
        errors.push(Diagnostic::error(
            format!("seat {s} is in no team: every seat of the table plays in one"),
            item.loc.clone(),
        ));
        bad = true;
    }
    if min_players != players || max_players != players {
        errors.push(
            Diagnostic::error(
                format!(
                    "partnerships need a fixed table: `players` ({players}), `min_players` ({min_players}) and `max_players` ({max_players}) must be equal"
                ),
                loc.clone(),
            )
            .with_help(Some(format!(
                "set `min_players = {players}` and `max_players = {players}`"
            ))),
        );
        bad = true;
    }
    if bad {
        Teams::default()
    } else {
        Teams::of(&found)
    }
}

fn int_list(
    r: &mut TableReader,
    key: &str,
    range: std::ops::RangeInclusive<i64>,
    errors: &mut Vec<Diagnostic>,
) -> Result<Option<Vec<u32>>, ()> {
    let Some(item) = r.item(key) else {
        return Ok(None);
    };
    match &item.value {
        Value::Array(items) => Ok(Some(
            items
                .iter()
                .filter_map(|i| match i.value {
                    Value::Int(n) if range.contains(&n) => Some(n as u32),
                    _ => {
                        errors.push(Diagnostic::error(
                            format!(
                                "`{key}` entries must be whole numbers from {} to {}",
                                range.start(),
                                range.end()
                            ),
                            i.loc.clone(),
                        ));
                        None
                    }
                })
                .collect(),
        )),
        other => {
            errors.push(Diagnostic::error(
                format!(
                    "`{key}` must be an array of numbers, found {}",
                    other.describe()
                ),
                item.loc.clone(),
            ));
            Err(())
        }
    }
}

/// `[options]`: `name = integer` entries.
fn rule_options(
    t: &Table,
    loc: &Loc,
    deck: &Deck,
    errors: &mut Vec<Diagnostic>,
) -> Vec<RuleOption> {
    let mut r = TableReader::new(t, loc.clone(), "`[options]`").defined_by(&keys::OPTIONS);
    let mut out: Vec<RuleOption> = Vec::new();
    for (key, key_loc, _) in &t.entries {
        let Some(item) = r.item(key) else { continue };
        let value_of = |item: &Item, errors: &mut Vec<Diagnostic>| match item.value {
            Value::Int(n) => Some(OptionValue::Int(n)),
            Value::Bool(b) => Some(OptionValue::Bool(b)),
            _ => {
                errors.push(super::reader::wrong_type(
                    item,
                    key,
                    "a whole number or `true`/`false`",
                ));
                None
            }
        };
        let (value, description) = match &item.value {
            Value::Table(table) => {
                let mut d = TableReader::new(table, item.loc.clone(), format!("option `{key}`"))
                    .defined_by(&keys::OPTION);
                let default = d.item("default");
                let description = d.string("description", errors);
                if default.is_none() {
                    d.missing("default", errors);
                }
                d.finish(errors);
                (
                    default.and_then(|i| value_of(i, errors)),
                    description.map_or_else(String::new, |s| s.text.to_string()),
                )
            }
            _ => (value_of(item, errors), String::new()),
        };
        let Some(value) = value else { continue };
        let id = Str {
            text: key,
            loc: key_loc,
            raw_offset: None,
        };
        if !check_ident(&id, errors) {
            continue;
        }
        if deck_names(deck, key)
            || scope::ALL
                .iter()
                .any(|(_, facts)| facts.contains(&key.as_str()))
        {
            errors.push(
                Diagnostic::error(format!("the option `{key}` is already a name"), key_loc.clone())
                    .with_help(Some(
                        "expressions read an option by its name: pick one no kind, suit, card, attribute or fact has".into(),
                    )),
            );
            continue;
        }
        out.push(RuleOption {
            id: key.clone(),
            value,
            description,
        });
    }
    r.finish(errors);
    out
}

/// True when `name` names something of the deck: a kind, suit, card or attribute.
fn deck_names(deck: &Deck, name: &str) -> bool {
    deck.kind(name).is_some()
        || deck.suits.iter().any(|s| s.id == name)
        || deck.card_by_id(name).is_some()
        || deck.attributes.iter().any(|a| a.id == name)
}

/// The most nodes a definition may stand for once the definitions it uses are written out: each
/// use compiles the whole of it, so 40 definitions that each use the one before twice would
/// stand for 2^40 nodes and never finish loading.
pub const MAX_DEFINE_SIZE: usize = 2000;

/// The deepest a definition may nest other definitions (`a` uses `b`, which uses `c`, ...): each
/// level is a level of recursion when it is compiled.
pub const MAX_DEFINE_DEPTH: usize = 32;

/// `[define]`: named sub-expressions, each parsed and checked where it is written (it may use
/// the definitions before it and the facts of any place; a fact is checked where it is used).
/// Each is bounded in what it expands to ([`MAX_DEFINE_SIZE`], [`MAX_DEFINE_DEPTH`]), measured
/// once from the sizes of the definitions it uses, so checking stays linear in the file. The
/// result is sorted by name.
fn define_table(
    t: &Table,
    loc: &Loc,
    vocab: &Vocab,
    errors: &mut Vec<Diagnostic>,
) -> Vec<(String, expr::Expr)> {
    let mut r = TableReader::new(t, loc.clone(), "`[define]`").defined_by(&keys::DEFINE);
    let every_fact: Vec<&str> = scope::ALL
        .iter()
        .flat_map(|(_, facts)| facts.iter().copied())
        .chain(vocab.carried.iter().map(String::as_str))
        .fold(Vec::new(), |mut all, f| {
            if !all.contains(&f) {
                all.push(f);
            }
            all
        });
    let mut out: Vec<(String, expr::Expr)> = Vec::new();
    // Each definition's expanded size and depth; the names refused for their size.
    let mut measured: std::collections::HashMap<String, (usize, usize)> =
        std::collections::HashMap::new();
    let mut too_large: std::collections::HashSet<String> = std::collections::HashSet::new();
    for (key, key_loc, _) in &t.entries {
        let Some(text) = r.string(key, errors) else {
            continue;
        };
        let id = Str {
            text: key,
            loc: key_loc,
            raw_offset: None,
        };
        if !check_ident(&id, errors) {
            continue;
        }
        if deck_names(vocab.deck, key) || every_fact.contains(&key.as_str()) || vocab.knows(key) {
            errors.push(
                Diagnostic::error(format!("`{key}` is already a name"), key_loc.clone())
                    .with_help(Some(
                        "a definition is used by its name: pick one no kind, suit, card, attribute, fact or option has".into(),
                    )),
            );
            continue;
        }
        let parsed = match expr::parse(text.text) {
            Ok(e) => e,
            Err(e) => {
                errors.push(Diagnostic::error(e.message, text.inner(e.span)).with_help(e.help));
                continue;
            }
        };
        let (own, used) = parsed.size_and_names();
        if let Some(big) = used.iter().find(|n| too_large.contains(**n)) {
            errors.push(Diagnostic::error(
                format!("`{key}` uses `{big}`, which is too large to define (above)"),
                (*text.loc).clone(),
            ));
            too_large.insert(key.clone());
            continue;
        }
        let (size, depth) = used
            .iter()
            .filter_map(|n| measured.get(*n))
            .fold((own, 1), |(size, depth), (s, d)| {
                (size.saturating_add(*s), depth.max(d + 1))
            });
        if size > MAX_DEFINE_SIZE || depth > MAX_DEFINE_DEPTH {
            let why = if depth > MAX_DEFINE_DEPTH {
                format!("it nests definitions {depth} deep; at most {MAX_DEFINE_DEPTH} are allowed")
            } else {
                format!(
                    "with the definitions it uses written out it has more than {MAX_DEFINE_SIZE} parts"
                )
            };
            errors.push(
                Diagnostic::error(format!("`{key}` is too large: {why}"), (*text.loc).clone())
                    .with_help(Some(
                        "each use of a definition compiles all of it: use a `[[tally]]` or an \
                         option for a value needed many times"
                            .into(),
                    )),
            );
            too_large.insert(key.clone());
            continue;
        }
        // Checked now with every fact allowed, so that a misspelt name shows at the definition.
        let names = Names {
            deck: vocab.deck,
            facts: &every_fact,
            defs: &vocab.options,
            macros: &out,
            carried: &vocab.carried,
        };
        if let Err(list) = expr::check(&parsed, &names) {
            for e in list {
                errors.push(Diagnostic::error(e.message, text.inner(e.span)).with_help(e.help));
            }
            continue;
        }
        measured.insert(key.clone(), (size, depth));
        let at = out.partition_point(|(n, _)| n < key);
        out.insert(at, (key.clone(), parsed));
    }
    r.finish(errors);
    out
}

/// What expressions may name besides the pile and the facts of their place: the deck, the
/// ruleset's options (constants) and its definitions (`[define]`).
pub(super) struct Vocab<'a> {
    pub deck: &'a Deck,
    pub options: Vec<(String, Program)>,
    pub defines: Vec<(String, expr::Expr)>,
    /// The ids of the values carried for the table (`[[carry]]` without `per_seat`): facts
    /// of the deal's expressions.
    pub carried: Vec<String>,
}

impl Vocab<'_> {
    /// The names of a place with `facts`.
    pub fn names<'b>(&'b self, facts: &'b [&'b str]) -> Names<'b> {
        Names {
            deck: self.deck,
            facts,
            defs: &self.options,
            macros: &self.defines,
            carried: &self.carried,
        }
    }

    /// True when `name` is an option or a definition.
    fn knows(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name) || self.defines.iter().any(|(n, _)| n == name)
    }
}

/// `[[tally]]`: id, name and an int `count` in the yaku scope; each may use the tallies before it.
fn tallies(
    tables: &[(&Table, &Loc)],
    vocab: &Vocab,
    facts: &[&str],
    errors: &mut Vec<Diagnostic>,
) -> Vec<Tally> {
    let deck = vocab.deck;
    let mut out: Vec<Tally> = Vec::new();
    for (t, loc) in tables {
        let mut r = TableReader::new(t, (*loc).clone(), "a `[[tally]]`").defined_by(&keys::TALLY);
        let id = r.required_string("id", errors);
        let name = r.string("name", errors);
        let count = r.required_string("count", errors);
        let most = r.int("most", errors);
        let par = r.int("par", errors);
        r.finish(errors);
        let award = match (most, par) {
            (Some((_, l)), Some(_)) => {
                errors.push(
                    Diagnostic::error("a tally has `most` or `par`, not both", l.clone())
                        .with_help(Some(
                            "`most`: points for the one seat with the highest count; `par`: every seat scores its count minus the par".into(),
                        )),
                );
                None
            }
            (Some((n, l)), None) => bounded(n, l, "most", errors).map(TallyAward::Most),
            (None, Some((n, l))) => bounded(n, l, "par", errors).map(TallyAward::Par),
            (None, None) => None,
        };
        let (Some(id), Some(count)) = (id, count) else {
            continue;
        };
        if !check_ident(&id, errors) {
            continue;
        }
        let taken = deck.kind(id.text).is_some()
            || deck.suits.iter().any(|s| s.id == id.text)
            || deck.card_by_id(id.text).is_some()
            || deck.attributes.iter().any(|a| a.id == id.text)
            || facts.contains(&id.text)
            || vocab.knows(id.text)
            || out.iter().any(|t| t.id == id.text);
        if taken {
            errors.push(
                Diagnostic::error(
                    format!("the tally id `{}` is already a name", id.text),
                    id.loc.clone(),
                )
                .with_help(Some(
                    "a tally is used by its id in expressions: pick an id no kind, suit, card, attribute, fact, option, definition or other tally has".into(),
                )),
            );
            continue;
        }
        let defs: Vec<(String, Program)> = vocab
            .options
            .iter()
            .cloned()
            .chain(out.iter().map(|t| (t.id.clone(), t.count.clone())))
            .collect();
        let names = Names {
            deck,
            facts,
            defs: &defs,
            macros: &vocab.defines,
            carried: &[],
        };
        let Some(program) = compile_expr(&count, Type::Int, &names, errors) else {
            continue;
        };
        out.push(Tally {
            id: id.text.to_string(),
            name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
            count: program,
            source: count.text.to_string(),
            award,
        });
    }
    out
}

/// The declarations of `sections` whose effect is one of `effects`, by index; an effect the
/// family does not have is an error.
fn family_declarations(
    sections: &Sections,
    family: &str,
    effects: &[&str],
    errors: &mut Vec<Diagnostic>,
) {
    for (d, loc, _) in sections.declarations {
        if !effects.contains(&d.effect.as_str()) {
            let help = if effects.is_empty() {
                Some(format!("a {family} game has no declarations; remove it"))
            } else {
                did_you_mean(&d.effect, effects.iter().copied()).or_else(|| {
                    let list: Vec<String> = effects.iter().map(|e| format!("`{e}`")).collect();
                    Some(format!("a {family} game's effects are {}", list.join(", ")))
                })
            };
            errors.push(
                Diagnostic::error(
                    format!("unknown effect `{}` for a {family} game", d.effect),
                    loc.clone(),
                )
                .with_help(help),
            );
        }
    }
}

/// The indices of the declarations with one of `effects`, in ruleset order.
fn declared(sections: &Sections, effects: &[&str]) -> Vec<DeclId> {
    sections
        .declarations
        .iter()
        .enumerate()
        .filter(|(_, (d, ..))| effects.contains(&d.effect.as_str()))
        .map(|(i, _)| DeclId(i as u8))
        .collect()
}

fn flow_options(
    t: &Table,
    loc: &Loc,
    vocab: &Vocab,
    sections: &Sections,
    errors: &mut Vec<Diagnostic>,
) -> Option<Flow> {
    let deck = vocab.deck;
    let names = &vocab.names(scope::CONSTANT);
    let mut r = TableReader::new(t, loc.clone(), "`[flow]`").defined_by(&keys::FLOW);
    // The family of game: it decides which options the table takes.
    #[derive(Clone, Copy, PartialEq)]
    enum Style {
        Matching,
        Banker,
        Tricks,
    }
    let styles = [
        ("matching", Style::Matching),
        ("banker", Style::Banker),
        ("tricks", Style::Tricks),
    ];
    match choice(&mut r, "style", &styles, errors) {
        Some(Style::Banker) => return banker_flow(r, t, loc, vocab, sections, errors),
        Some(Style::Tricks) => return tricks_flow(r, t, loc, vocab, sections, errors),
        _ => {}
    }
    sections.no_melds("matching", errors);
    family_declarations(
        sections,
        "matching",
        &[
            "continue",
            "stop",
            "swap",
            "keep",
            "reveal",
            "play_suit",
            "count_as",
            "play",
            "drop",
        ],
        errors,
    );
    for (d, at, _) in sections.declarations {
        match d.effect.as_str() {
            "reveal" | "play_suit" if d.count == 0 => errors.push(
                Diagnostic::error(
                    format!("a `{}` declaration needs `count`", d.effect),
                    at.clone(),
                )
                .with_help(Some(
                    "add `count = 3`: the cards of one suit the player must hold".into(),
                )),
            ),
            "count_as" if d.card.is_none() => errors.push(
                Diagnostic::error("a `count_as` declaration needs `card`", at.clone()).with_help(
                    Some("add `card = \"...\"`: the card counted another way".into()),
                ),
            ),
            _ => {}
        }
    }
    let players = positive(&mut r, "players", 2, errors);
    let min_players = positive(&mut r, "min_players", players.min(2), errors);
    let max_players = positive(&mut r, "max_players", players, errors);
    if !(min_players <= players && players <= max_players) || max_players as usize > MAX_SEATS {
        errors.push(Diagnostic::error(
            format!(
                "seats must satisfy 1 <= min_players ({min_players}) <= players ({players}) <= max_players ({max_players}) <= {MAX_SEATS}"
            ),
            loc.clone(),
        ));
    }
    let teams = teams(&mut r, (players, min_players, max_players), loc, errors);
    let hand_size = positive(&mut r, "hand_size", 8, errors);
    let table_size = table_cards(&mut r, 8, errors);
    let mut deal_sizes: Vec<DealSize> = Vec::new();
    for (t, l) in r.tables("deal_size", errors) {
        let mut d =
            TableReader::new(t, l.clone(), "a `[[flow.deal_size]]`").defined_by(&keys::DEAL_SIZE);
        let at = d
            .item("players")
            .map(|i| i.loc.clone())
            .unwrap_or_else(|| l.clone());
        let seats = positive(&mut d, "players", players, errors);
        let size = DealSize {
            players: seats,
            hand_size: positive(&mut d, "hand_size", hand_size, errors),
            table_size: table_cards(&mut d, table_size, errors),
        };
        d.finish(errors);
        if !(min_players..=max_players).contains(&seats) {
            errors.push(Diagnostic::error(
                format!(
                    "a deal for {seats} players, but the table seats {min_players} to {max_players}"
                ),
                at,
            ));
        } else if deal_sizes.iter().any(|x| x.players == seats) {
            errors.push(Diagnostic::error(
                format!("a second deal for {seats} players"),
                at,
            ));
        } else {
            deal_sizes.push(size);
        }
    }
    let deal_packet = positive(&mut r, "deal_packet", 4, errors);
    let deal_order: Vec<DealTarget> = {
        let items = r.strings("deal_order", errors);
        let opts = [
            ("dealer", DealTarget::Dealer),
            ("opponent", DealTarget::Others),
            ("others", DealTarget::Others),
            ("table", DealTarget::Table),
        ];
        let mut order = Vec::new();
        for s in &items {
            match opts.iter().find(|(n, _)| *n == s.text) {
                Some((_, v)) => order.push(*v),
                None => errors.push(
                    Diagnostic::error(format!("unknown deal target `{}`", s.text), s.loc.clone())
                        .with_help(did_you_mean(s.text, opts.iter().map(|(n, _)| *n)).or(Some(
                            "use `dealer`, `others` (`opponent`) or `table`".into(),
                        ))),
                ),
            }
        }
        // Every target receives cards (hand and table sizes are positive), so an order that
        // leaves one out would never finish dealing.
        let others = if players == 2 { "opponent" } else { "others" };
        let missing: Vec<&str> = [
            ("dealer", DealTarget::Dealer),
            (others, DealTarget::Others),
            ("table", DealTarget::Table),
        ]
        .iter()
        .filter(|(_, t)| !order.contains(t))
        .map(|(n, _)| *n)
        .collect();
        if let (Some(first), false) = (
            items.first(),
            missing.is_empty() || order.len() < items.len(),
        ) {
            let span =
                first.loc.span.start..items.last().map_or(first.loc.span.end, |l| l.loc.span.end);
            errors.push(
                Diagnostic::error(
                    format!(
                        "`deal_order` leaves out `{}`, which must receive cards",
                        missing.join("`, `")
                    ),
                    Loc::new(first.loc.file, span),
                )
                .with_help(Some(format!(
                    "name each of `dealer`, `{others}` and `table` at least once"
                ))),
            );
        }
        if items.is_empty() {
            vec![DealTarget::Others, DealTarget::Table, DealTarget::Dealer]
        } else {
            order
        }
    };
    let length = game_length(&mut r, t, errors);
    let dealers = [
        ("winner", NextDealer::Winner),
        ("same", NextDealer::Same),
        ("alternate", NextDealer::Alternate),
    ];
    let first_dealer = choice(
        &mut r,
        "first_dealer",
        &[
            ("first", FirstDealer::First),
            ("random", FirstDealer::Random),
        ],
        errors,
    )
    .unwrap_or(FirstDealer::First);
    let next_dealer = choice(&mut r, "next_dealer", &dealers, errors).unwrap_or(NextDealer::Winner);
    let draw_dealer = choice(&mut r, "draw_dealer", &dealers, errors).unwrap_or(NextDealer::Same);
    let after_yaku = declared(sections, &["continue", "stop"]);
    let after_deal = declared(sections, &["swap", "keep"]);
    // A choice must have a way out: `stop` always may be made, and a swap needs its `keep`.
    let unconditional = |effect: &str| {
        sections
            .declarations
            .iter()
            .any(|(d, ..)| d.effect == effect && d.when.is_none())
    };
    for (d, _, when) in sections.declarations {
        if matches!(d.effect.as_str(), "swap" | "keep")
            && let Some(at) = when
        {
            errors.push(
                Diagnostic::error(
                    format!("a `{}` declaration takes no `when`", d.effect),
                    at.clone(),
                )
                .with_help(Some(format!(
                    "a player can always `{}` here: the choice after the deal needs both ways out",
                    d.effect
                ))),
            );
        }
    }
    let conditioned = |effect: &str| {
        sections
            .declarations
            .iter()
            .any(|(d, ..)| d.effect == effect && d.when.is_some())
    };
    if !after_yaku.is_empty() && !unconditional("stop") && !conditioned("stop") {
        errors.push(
            Diagnostic::error(
                "the declarations after a yaku need a `stop` without a `when`",
                loc.clone(),
            )
            .with_help(Some(
                "add a `[[declaration]]` with `effect = \"stop\"`, so that a player can always stop"
                    .into(),
            )),
        );
    }
    let swap_complete = unconditional("keep") && unconditional("swap");
    if !after_deal.is_empty() && !swap_complete && !conditioned("swap") && !conditioned("keep") {
        errors.push(
            Diagnostic::error(
                "the declarations after the deal need a `swap` and a `keep`, neither with a `when`",
                loc.clone(),
            )
            .with_help(Some(
                "the seat after the dealer chooses between taking the dealer's hand (`swap`) and keeping its own (`keep`)".into(),
            )),
        );
    }
    let wild = r
        .string("wild", errors)
        .and_then(|s| {
            let p = compile_expr(&s, Type::Set, names, errors)?;
            Some(p.set(&expr::Context {
                pile: CardSet::EMPTY,
                facts: &[],
            }))
        })
        .unwrap_or(CardSet::EMPTY);
    let exhausted = choice(
        &mut r,
        "exhausted",
        &[("draw", 0), ("dealer_scores", 1), ("settle", 2)],
        errors,
    );
    let exhausted_points = r.int("exhausted_points", errors);
    let exhausted = match (exhausted, exhausted_points) {
        // Without a script, each seat scores its own yaku, turn events and tally awards.
        (Some(2), None) => Exhausted::Settle,
        (Some(1), Some((p, _))) => Exhausted::DealerScores(p),
        (Some(1), None) => {
            r.missing("exhausted_points", errors);
            Exhausted::Draw
        }
        (_, Some((_, l))) => {
            errors.push(
                Diagnostic::error(
                    "`exhausted_points` needs `exhausted = \"dealer_scores\"`",
                    l.clone(),
                )
                .with_help(Some(
                    "add `exhausted = \"dealer_scores\"` to [flow], or remove `exhausted_points`"
                        .into(),
                )),
            );
            Exhausted::Draw
        }
        _ => Exhausted::Draw,
    };
    let both_instant = choice(
        &mut r,
        "both_instant",
        &[
            ("draw", BothInstant::Draw),
            ("dealer", BothInstant::Dealer),
            ("play", BothInstant::Play),
        ],
        errors,
    )
    .unwrap_or(BothInstant::Draw);
    let table_facts: Vec<&str> = scope::TABLE
        .iter()
        .copied()
        .chain(vocab.carried.iter().map(String::as_str))
        .collect();
    let table_scope = vocab.names(&table_facts);
    let table_count_source = r.string("table_count", errors);
    let table_count = table_count_source
        .as_ref()
        .and_then(|s| compile_expr(s, Type::Int, &table_scope, errors));
    let table_multiplies = match r.boolean("table_multiplies", errors) {
        Some((true, at)) if table_count.is_none() && table_count_source.is_none() => {
            errors.push(
                Diagnostic::error(
                    "`table_multiplies` needs `table_count`, the count that multiplies",
                    at.clone(),
                )
                .with_help(Some(
                    "add `table_count = \"...\"` to [flow], or remove `table_multiplies`".into(),
                )),
            );
            false
        }
        Some((b, _)) => b,
        None => false,
    };
    let yaku_paid_by_others = choice(
        &mut r,
        "yaku_paid_by",
        &[("none", false), ("others", true)],
        errors,
    )
    .unwrap_or(false);
    let (mut instant_wins, mut win_locs) = deal_checks(
        r.tables("instant_win", errors),
        "an `[[flow.instant_win]]`",
        true,
        false,
        &vocab.names(scope::INSTANT_WIN),
        errors,
    );
    // The instant win with the most points is the one a hand holds; among equal points, the
    // first listed (a base's entries before a house rule's new ones).
    let mut order: Vec<usize> = (0..instant_wins.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(instant_wins[i].points));
    instant_wins = order.iter().map(|&i| instant_wins[i].clone()).collect();
    win_locs = order.iter().map(|&i| win_locs[i].clone()).collect();
    never_decides(
        &instant_wins,
        &win_locs,
        deck,
        hand_size as usize,
        &[1, 12, 0],
        "instant win",
        errors,
    );
    // Those played on (`ends = false`) are scored at the hand's end: a list of their own.
    let dealt_yaku: Vec<DealCheck> = instant_wins.iter().filter(|w| !w.ends).cloned().collect();
    instant_wins.retain(|w| w.ends);
    let (redeals, redeal_locs) = deal_checks(
        r.tables("redeal", errors),
        "a `[[flow.redeal]]`",
        false,
        true,
        &table_scope,
        errors,
    );
    never_decides(
        &redeals,
        &redeal_locs,
        deck,
        table_size as usize,
        &[1, 12],
        "redeal",
        errors,
    );
    // A redeal that holds on any deal would redeal every hand until the game gives up.
    for (check, loc) in redeals.iter().zip(&redeal_locs) {
        let size = match check.on {
            DealOn::Hands => hand_size as usize,
            DealOn::Table | DealOn::Any => table_size as usize,
        };
        if super::reach::holds_on_random_piles(&check.when, deck, size, &[1, 12], 200) {
            errors.push(
                Diagnostic::warning(
                    format!("redeal `{}` holds on every deal tried", check.id),
                    loc.clone(),
                )
                .with_help(Some(
                    "it held on 200 random deals: every hand would be dealt again and again, \
                     and a hand redealt 100 times stops the game with an error"
                        .into(),
                )),
            );
        }
    }
    let constant_set = |s: &Str, errors: &mut Vec<Diagnostic>| {
        let p = compile_expr(s, Type::Set, names, errors)?;
        Some(p.set(&expr::Context {
            pile: CardSet::EMPTY,
            facts: &[],
        }))
    };
    let bonus = r
        .string("bonus", errors)
        .and_then(|s| constant_set(&s, errors))
        .unwrap_or(CardSet::EMPTY);
    let stacks = r.boolean("stacks", errors).is_some_and(|(b, _)| b);
    let give: Vec<CardSet> = r
        .strings("give", errors)
        .iter()
        .filter_map(|s| constant_set(s, errors))
        .collect();
    let turn_events = turn_events(r.tables("turn_event", errors), vocab, errors);
    if let Some(e) = turn_events.iter().find(|e| e.take > 0)
        && give.is_empty()
    {
        errors.push(
            Diagnostic::error(
                format!(
                    "turn event `{}` takes cards, but `[flow]` has no `give`",
                    e.id
                ),
                loc.clone(),
            )
            .with_help(Some(
                "add `give = [\"...\"]`: the sets other players hand over from, in order".into(),
            )),
        );
    }
    let before_play = declared(sections, &["reveal", "play_suit"]);
    let choices = declared(sections, &["count_as"]);
    let stake = r.int("stake", errors).and_then(|(n, at)| {
        if (1..=MAX_BANKROLL).contains(&n) {
            return Some(n);
        }
        errors.push(
            Diagnostic::error(
                format!("`stake` must be between 1 and {MAX_BANKROLL}, found {n}"),
                at.clone(),
            )
            .with_help(Some(
                "each seat starts with this many points and pays the winners from it".into(),
            )),
        );
        None
    });
    let drop_out = r
        .table("drop_out", errors)
        .and_then(|(t, l)| drop_out(t, l, sections, (min_players, max_players), errors));
    if drop_out.is_none() {
        for (d, at, _) in sections.declarations {
            if matches!(d.effect.as_str(), "play" | "drop") {
                errors.push(
                    Diagnostic::error(
                        format!("a `{}` declaration needs `[flow.drop_out]`", d.effect),
                        at.clone(),
                    )
                    .with_help(Some(
                        "add `[flow.drop_out]` with `players`, the seats that play each hand"
                            .into(),
                    )),
                );
            }
        }
    }
    if drop_out.is_some() && teams.any() {
        errors.push(Diagnostic::error(
            "`[flow.drop_out]` and `teams` do not go together: a partnership cannot sit out a hand",
            loc.clone(),
        ));
    }
    let captures = capture_rules(r.tables("capture", errors), deck, errors);
    let capture_choice = choice(
        &mut r,
        "capture_choice",
        &[
            ("player", CaptureChoice::Player),
            ("most_cards", CaptureChoice::MostCards),
        ],
        errors,
    )
    .unwrap_or(CaptureChoice::Player);
    let draws = r.boolean("draw", errors).is_none_or(|(b, _)| b);
    let refill = r.boolean("refill", errors).is_some_and(|(b, _)| b);
    if refill && drop_out.is_some() {
        errors.push(Diagnostic::error(
            "`refill` and `[flow.drop_out]` do not go together: hands dealt again would reach the seats sitting out",
            loc.clone(),
        ));
    }
    let first_player = choice(
        &mut r,
        "first_player",
        &[
            ("dealer", FirstPlayer::Dealer),
            ("after_dealer", FirstPlayer::AfterDealer),
        ],
        errors,
    )
    .unwrap_or(FirstPlayer::Dealer);
    let leftover = choice(
        &mut r,
        "leftover",
        &[
            ("stay", Leftover::Stay),
            ("last_capturer", Leftover::LastCapturer),
        ],
        errors,
    )
    .unwrap_or(Leftover::Stay);
    let target_ties_play_on = choice(
        &mut r,
        "target_tie",
        &[("end", false), ("play_on", true)],
        errors,
    )
    .unwrap_or(false);
    r.finish(errors);
    let deals_fit = (min_players..=max_players).all(|n| {
        let (hand, table) = deal_sizes
            .iter()
            .find(|d| d.players == n)
            .map_or((hand_size, table_size), |d| (d.hand_size, d.table_size));
        let what = if min_players == max_players {
            "the deal".to_string()
        } else {
            format!("the deal for {n} players")
        };
        deck_holds(deck, n * hand + table, &what, loc, errors)
    });
    if !deals_fit {
        return None;
    }
    let mut flow = MatchingFlow {
        players,
        min_players,
        max_players,
        hand_size,
        table_size,
        deal_packet,
        deal_order,
        deal_plans: Box::new([]),
        length: length?,
        first_dealer,
        next_dealer,
        draw_dealer,
        after_yaku,
        after_deal,
        drop_out,
        wild,
        exhausted,
        instant_wins,
        both_instant,
        redeals,
        table_count,
        table_count_source: table_count_source.map(|s| s.text.to_string()),
        table_multiplies,
        yaku_paid_by_others,
        bonus,
        stacks,
        give,
        turn_events,
        before_play,
        choices,
        stake,
        teams,
        deal_sizes,
        capture_choice,
        draws,
        refill,
        first_player,
        leftover,
        target_ties_play_on,
        classic_turn: captures.is_empty() && draws && !refill && leftover == Leftover::Stay,
        dealt_yaku,
        captures,
    };
    flow.deal_plans = (0..=max_players as usize)
        .map(|n| {
            if n < min_players as usize {
                Box::default()
            } else {
                flow.plan_deal(n).into_boxed_slice()
            }
        })
        .collect();
    Some(Flow::Matching(std::sync::Arc::new(flow)))
}

/// A number read from a rule file for points or a par, kept within the bound of card values.
fn bounded(n: i64, at: &Loc, key: &str, errors: &mut Vec<Diagnostic>) -> Option<i64> {
    let most = crate::ruleset::deck_file::MAX_CARD_VALUE;
    if (-most..=most).contains(&n) {
        return Some(n);
    }
    errors.push(Diagnostic::error(
        format!("`{key}` must be between -{most} and {most}, found {n}"),
        at.clone(),
    ));
    None
}

/// `[[flow.capture]]`: how a card captures, in precedence order: `kind` (`equal`: one table card
/// equal in `by`; `sum`: a set whose `by` values add up to `total`, an expression of the played
/// card's value `played`), `by` (`suit` or a deck attribute), `min_cards`, `fallback`.
fn capture_rules(
    tables: Vec<(&Table, &Loc)>,
    deck: &Deck,
    errors: &mut Vec<Diagnostic>,
) -> Vec<CaptureRule> {
    let mut out = Vec::new();
    for (t, loc) in tables {
        let mut r =
            TableReader::new(t, loc.clone(), "a `[[flow.capture]]`").defined_by(&keys::CAPTURE);
        let kind = choice(
            &mut r,
            "kind",
            &[("equal", CaptureKind::Equal), ("sum", CaptureKind::Sum)],
            errors,
        );
        if t.get("kind").is_none() {
            r.missing("kind", errors);
        }
        let by = r.string("by", errors);
        let total = r.string("total", errors);
        let min_cards = r.int("min_cards", errors);
        let fallback = r.boolean("fallback", errors).is_some_and(|(b, _)| b);
        r.finish(errors);
        let Some(kind) = kind else { continue };
        let by_name = by.as_ref().map_or("suit", |b| b.text);
        let values: Box<[i64]> = if by_name == "suit" {
            deck.cards.iter().map(|c| c.suit as i64).collect()
        } else if let Some(a) = deck.attributes.iter().find(|a| a.id == by_name) {
            a.values.clone().into_boxed_slice()
        } else {
            let names: Vec<&str> = std::iter::once("suit")
                .chain(deck.attributes.iter().map(|a| a.id.as_str()))
                .collect();
            let at = by.as_ref().map_or_else(|| loc.clone(), |b| b.loc.clone());
            errors.push(
                Diagnostic::error(format!("unknown card attribute `{by_name}` for `by`"), at)
                    .with_help(
                        did_you_mean(by_name, names.iter().copied())
                            .or_else(|| Some(format!("`by` takes {}", names.join(", ")))),
                    ),
            );
            continue;
        };
        let min_cards = match (min_cards, kind) {
            (Some((n, _)), CaptureKind::Sum) if (1..=16).contains(&n) => n as u32,
            (Some((n, l)), CaptureKind::Sum) => {
                errors.push(Diagnostic::error(
                    format!("`min_cards` must be between 1 and 16, found {n}"),
                    l.clone(),
                ));
                0
            }
            (Some((_, l)), CaptureKind::Equal) => {
                errors.push(Diagnostic::error(
                    "`min_cards` is for a `sum` capture (an `equal` capture takes one card)",
                    l.clone(),
                ));
                0
            }
            (None, CaptureKind::Sum) => 2,
            (None, CaptureKind::Equal) => 1,
        };
        let equals = values
            .iter()
            .map(|v| {
                values
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| *w == v)
                    .map(|(i, _)| crate::deck::CardId(i as u8))
                    .collect()
            })
            .collect();
        let (total_program, total_source) = match (&total, kind) {
            (Some(t), CaptureKind::Sum) => {
                let names = Names {
                    deck,
                    facts: CAPTURE_FACTS,
                    defs: &[],
                    macros: &[],
                    carried: &[],
                };
                match compile_expr(t, Type::Int, &names, errors) {
                    Some(p) => (Some(p), Some(t.text.to_string())),
                    None => continue,
                }
            }
            (Some(t), CaptureKind::Equal) => {
                errors.push(
                    Diagnostic::error("`total` is for a `sum` capture", t.loc.clone()).with_help(
                        Some("an `equal` capture takes one table card equal to the played card; remove `total`".into()),
                    ),
                );
                continue;
            }
            (None, _) => (None, None),
        };
        if min_cards == 0 {
            continue;
        }
        out.push(CaptureRule {
            kind,
            by: by_name.to_string(),
            values,
            equals,
            total: total_program,
            total_source,
            min_cards,
            fallback,
        });
    }
    out
}

/// The facts of a sum capture's `total`: the played card's value.
pub const CAPTURE_FACTS: &[&str] = &["played"];

/// `[[flow.turn_event]]`: id, name, the pattern `on`, cards to `take` from each other player,
/// an optional `when` (scope [`scope::TURN_EVENT`]) and points that `wins` the hand at once.
fn turn_events(
    tables: Vec<(&Table, &Loc)>,
    vocab: &Vocab,
    errors: &mut Vec<Diagnostic>,
) -> Vec<TurnEvent> {
    let names = vocab.names(scope::TURN_EVENT);
    let mut out = Vec::new();
    for (t, loc) in tables {
        let mut r = TableReader::new(t, loc.clone(), "a `[[flow.turn_event]]`")
            .defined_by(&keys::TURN_EVENT);
        let id = r.required_string("id", errors);
        let name = r.string("name", errors);
        let on = choice(&mut r, "on", &TurnPattern::ALL, errors);
        if t.get("on").is_none() {
            r.missing("on", errors);
        }
        let take = r.int("take", errors).map_or(0, |(n, l)| {
            if (0..=10).contains(&n) {
                n as u32
            } else {
                errors.push(Diagnostic::error(
                    format!("`take` must be between 0 and 10, found {n}"),
                    l.clone(),
                ));
                0
            }
        });
        let wins = r.int("wins", errors).and_then(|(n, l)| {
            if n >= 0 {
                Some(n)
            } else {
                errors.push(Diagnostic::error(
                    format!("`wins` must not be negative, found {n}"),
                    l.clone(),
                ));
                None
            }
        });
        let points = r
            .int("points", errors)
            .and_then(|(n, l)| bounded(n, l, "points", errors))
            .unwrap_or(0);
        let when = r.string("when", errors);
        r.finish(errors);
        let when_source = when.as_ref().map(|w| w.text.to_string());
        let compiled = match &when {
            Some(w) => match compile_expr(w, Type::Bool, &names, errors) {
                Some(p) => Some(p),
                None => continue,
            },
            None => None,
        };
        let (Some(id), Some(on)) = (id, on) else {
            continue;
        };
        out.push(TurnEvent {
            id: id.text.to_string(),
            name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
            on,
            take,
            when: compiled,
            when_source,
            wins,
            points,
        });
    }
    out
}

/// `rounds`, or `target_score` with `max_rounds`: how long a game lasts.
fn game_length(r: &mut TableReader, t: &Table, errors: &mut Vec<Diagnostic>) -> Option<GameLength> {
    let rounds = r.int("rounds", errors);
    let target = r.int("target_score", errors);
    let max_rounds = r.int("max_rounds", errors);
    // `rounds = 0` means no fixed number of hands, so a file extending a 12-hand ruleset can
    // play to `target_score` instead.
    let rounds = rounds.filter(|(n, _)| *n != 0);
    match (rounds, target) {
        (Some((n, l)), None) => {
            if !(1..=1000).contains(&n) {
                errors.push(Diagnostic::error(
                    format!("`rounds` must be between 1 and 1000, found {n}"),
                    l.clone(),
                ));
            }
            Some(GameLength::Rounds(n.clamp(1, 1000) as u32))
        }
        (None, Some((n, l))) => {
            if n < 1 {
                errors.push(Diagnostic::error(
                    format!("`target_score` must be positive, found {n}"),
                    l.clone(),
                ));
            }
            Some(GameLength::Target {
                score: n,
                max_rounds: max_rounds.map_or(100, |(m, _)| m.clamp(1, 10_000) as u32),
            })
        }
        (Some(_), Some((_, l))) => {
            errors.push(
                Diagnostic::error("give `rounds` or `target_score`, not both", l.clone())
                    .with_help(Some(
                        "a game lasts a number of hands or until a score; to play to a score in \
                         a file that extends a ruleset with `rounds`, write `rounds = 0`"
                            .into(),
                    )),
            );
            None
        }
        (None, None) => {
            match (t.get("rounds"), t.get("target_score")) {
                (None, None) => r.missing("rounds", errors),
                (
                    Some(Item {
                        value: Value::Int(0),
                        loc,
                    }),
                    None,
                ) => errors.push(
                    Diagnostic::error("`rounds = 0` needs a `target_score`", loc.clone())
                        .with_help(Some("or give the number of hands, 1 to 1000".into())),
                ),
                // A value of the wrong type, reported by `int` already.
                _ => {}
            }
            None
        }
    }
}

/// True when the deck has the `needed` cards `what` takes; otherwise reports it at `loc`.
fn deck_holds(
    deck: &Deck,
    needed: u32,
    what: &str,
    loc: &Loc,
    errors: &mut Vec<Diagnostic>,
) -> bool {
    if needed as usize <= deck.cards.len() {
        return true;
    }
    errors.push(Diagnostic::error(
        format!(
            "{what} needs {needed} cards but the deck has {}",
            deck.cards.len()
        ),
        loc.clone(),
    ));
    false
}

/// An attribute of the deck named by `key` (default `default`), by index.
fn attribute(
    r: &mut TableReader,
    key: &str,
    default: &str,
    deck: &Deck,
    loc: &Loc,
    errors: &mut Vec<Diagnostic>,
) -> Option<usize> {
    let named = r.string(key, errors);
    let (name, at) = match &named {
        Some(s) => (s.text, s.loc.clone()),
        None => (default, loc.clone()),
    };
    let found = deck.attributes.iter().position(|a| a.id == name);
    if found.is_none() {
        errors.push(
            Diagnostic::error(
                format!(
                    "the deck `{}` has no attribute `{name}` for `{key}`",
                    deck.id
                ),
                at,
            )
            .with_help(
                did_you_mean(name, deck.attributes.iter().map(|a| a.id.as_str())).or_else(|| {
                    let list: Vec<String> = deck
                        .attributes
                        .iter()
                        .map(|a| format!("`{}`", a.id))
                        .collect();
                    Some(format!("its attributes: {}", list.join(", ")))
                }),
            ),
        );
    }
    found
}

/// `[flow]` of a trick-taking game (`style = "tricks"`).
fn tricks_flow(
    mut r: TableReader,
    t: &Table,
    loc: &Loc,
    vocab: &Vocab,
    sections: &Sections,
    errors: &mut Vec<Diagnostic>,
) -> Option<Flow> {
    let deck = vocab.deck;
    family_declarations(
        sections,
        "trick-taking",
        &[
            "meld", "marriage", "exchange", "close", "claim", "pass", "trump",
        ],
        errors,
    );
    if let Some(at) = &sections.yaku {
        errors.push(
            Diagnostic::error("a trick-taking game does not use `[[yaku]]`", at.clone())
                .with_help(Some(
                    "its hands are won by card points from tricks; game points come from the `[scoring]` script".into(),
                )),
        );
    }
    let players = positive(&mut r, "players", 2, errors);
    let min_players = positive(&mut r, "min_players", players, errors);
    let max_players = positive(&mut r, "max_players", players, errors);
    if !(2 <= min_players && min_players <= players && players <= max_players)
        || max_players as usize > MAX_SEATS
    {
        errors.push(Diagnostic::error(
            format!(
                "seats must satisfy 2 <= min_players ({min_players}) <= players ({players}) <= max_players ({max_players}) <= {MAX_SEATS}"
            ),
            loc.clone(),
        ));
    }
    let teams = teams(&mut r, (players, min_players, max_players), loc, errors);
    let deal = choice(
        &mut r,
        "deal",
        &[("stock", 0u8), ("all", 1u8), ("talon", 2u8)],
        errors,
    )
    .unwrap_or(0);
    let (deal_all, talon) = (deal == 1, deal == 2);
    let hand_size = if deal_all {
        if let Some((_, at)) = r.int("hand_size", errors) {
            errors.push(
                Diagnostic::error("`hand_size` with `deal = \"all\"`", at.clone())
                    .with_help(Some(
                        "the whole deck is dealt evenly: each hand holds the deck's cards divided by the seats; remove `hand_size`".into(),
                    )),
            );
        }
        let cards = deck.cards.len() as u32;
        for n in min_players..=max_players.min(MAX_SEATS as u32) {
            if !cards.is_multiple_of(n) && !deck.cards.is_empty() {
                errors.push(Diagnostic::error(
                    format!(
                        "`deal = \"all\"`: the deck's {cards} cards do not deal evenly to {n} players"
                    ),
                    loc.clone(),
                ));
            }
        }
        (cards / players.max(1)).max(1)
    } else {
        positive(&mut r, "hand_size", 5, errors)
    };
    let deal_packets = int_list(&mut r, "deal_packets", 1..=64, errors)
        .ok()
        .flatten()
        .unwrap_or_else(|| vec![hand_size]);
    if deal_packets.iter().sum::<u32>() != hand_size && !deck.cards.is_empty() {
        errors.push(Diagnostic::error(
            format!(
                "`deal_packets` add up to {} cards, but each hand holds {hand_size}",
                deal_packets.iter().sum::<u32>()
            ),
            loc.clone(),
        ));
    }
    let trump_at = r.item("trump").map(|i| i.loc.clone());
    let trump = choice(
        &mut r,
        "trump",
        &[
            ("turned-up", TrumpRule::TurnedUp),
            ("declarer", TrumpRule::Declarer),
        ],
        errors,
    )
    .unwrap_or(TrumpRule::TurnedUp);
    if (deal_all || talon) && trump == TrumpRule::TurnedUp {
        errors.push(
            Diagnostic::error(
                "`deal = \"all\"` or `\"talon\"` leaves no card to turn up for trumps",
                trump_at.clone().unwrap_or_else(|| loc.clone()),
            )
            .with_help(Some(
                "write `trump = \"declarer\"` with a `[flow.auction]`: the auction's winner names trumps".into(),
            )),
        );
    }
    let rank = attribute(&mut r, "rank", "rank", deck, loc, errors);
    let card_points = attribute(&mut r, "card_points", "points", deck, loc, errors);
    let target = r.int("target", errors).map_or(66, |(n, _)| n);
    let follow = follow_rules(&mut r, errors).unwrap_or(FollowRules::FOLLOW_TRUMP);
    let later_equal_wins = choice(
        &mut r,
        "equal_cards",
        &[("first", false), ("last", true)],
        errors,
    )
    .unwrap_or(false);
    let claim = choice(
        &mut r,
        "claim",
        &[
            ("declare", ClaimRule::Declare),
            ("automatic", ClaimRule::Automatic),
            ("none", ClaimRule::PlayOut),
        ],
        errors,
    )
    .unwrap_or(ClaimRule::Declare);
    // The marriage shorthand: a declaration of `effect = "marriage"` and these keys stand for
    // two melds shown on one's lead (see `marriage_shorthand`).
    let shorthand_at = [
        "marriage",
        "marriage_points",
        "trump_marriage_points",
        "marriage_counts",
    ]
    .iter()
    .find_map(|k| r.item(k).map(|i| (*k, i.loc.clone())));
    let marriage_kinds = r.strings("marriage", errors);
    let mut marriage_kind_ids = Vec::new();
    let kinds: Vec<&str> = if marriage_kinds.is_empty() {
        vec!["king", "queen"]
    } else {
        marriage_kinds.iter().map(|k| k.text).collect()
    };
    let marriage_decl = declared(sections, &["marriage"]).first().copied();
    for (i, k) in kinds.iter().enumerate() {
        match deck.kinds.iter().position(|d| d.id == *k) {
            Some(kind) => marriage_kind_ids.push(kind),
            None if marriage_decl.is_some() => {
                let at = marriage_kinds
                    .get(i)
                    .map_or_else(|| loc.clone(), |s| s.loc.clone());
                errors.push(
                    Diagnostic::error(
                        format!("the deck `{}` has no kind `{k}` for marriages", deck.id),
                        at,
                    )
                    .with_help(did_you_mean(k, deck.kinds.iter().map(|k| k.id.as_str()))),
                );
            }
            None => {}
        }
    }
    let marriage_points = r.int("marriage_points", errors).map_or(20, |(n, _)| n);
    let trump_marriage_points = r
        .int("trump_marriage_points", errors)
        .map_or(40, |(n, _)| n);
    let marriage_needs_trick = choice(
        &mut r,
        "marriage_counts",
        &[("after-first-trick", true), ("at-once", false)],
        errors,
    )
    .unwrap_or(true);
    if let (None, Some((key, at))) = (marriage_decl, &shorthand_at) {
        errors.push(
            Diagnostic::error(
                format!(
                    "`{key}` belongs to the marriage shorthand, and no declaration has `effect = \"marriage\"`"
                ),
                at.clone(),
            )
            .with_help(Some(
                "this ruleset's marriages are `[[meld]]`s with `moment = \"lead\"`: change the meld itself (a house rule gives `[[meld]]` with its id and the new `points`, `kinds` or `counts`), or remove the key".into(),
            )),
        );
    }
    let exchange_needs_trick = choice(
        &mut r,
        "exchange",
        &[("any-lead", false), ("after-first-trick", true)],
        errors,
    )
    .unwrap_or(false);
    let last_trick_points = r.int("last_trick_points", errors).map_or(0, |(n, _)| n);
    let look_at_own_tricks = choice(
        &mut r,
        "look_at_own_tricks",
        &[("yes", true), ("no", false)],
        errors,
    )
    .unwrap_or(false);
    let length = game_length(&mut r, t, errors);
    let first_dealer = choice(
        &mut r,
        "first_dealer",
        &[
            ("first", FirstDealer::First),
            ("random", FirstDealer::Random),
        ],
        errors,
    )
    .unwrap_or(FirstDealer::Random);
    let next_dealer = choice(
        &mut r,
        "next_dealer",
        &[
            ("winner", NextDealer::Winner),
            ("same", NextDealer::Same),
            ("alternate", NextDealer::Alternate),
        ],
        errors,
    )
    .unwrap_or(NextDealer::Alternate);
    let auction = r
        .table("auction", errors)
        .and_then(|(t, l)| auction(t, l, sections, errors));
    r.finish(errors);
    let one = |effect: &str| declared(sections, &[effect]).first().copied();
    if trump == TrumpRule::Declarer && auction.is_none() {
        errors.push(
            Diagnostic::error(
                "`trump = \"declarer\"` needs a `[flow.auction]`: the declarer is its winner",
                trump_at.unwrap_or_else(|| loc.clone()),
            )
            .with_help(Some(
                "add `[flow.auction]` with `minimum` and `step`".into(),
            )),
        );
    }
    if trump == TrumpRule::Declarer
        && let Some(a) = &auction
        && a.name_trump.is_none()
    {
        errors.push(
            Diagnostic::error(
                "`trump = \"declarer\"` needs a `[[declaration]]` with `effect = \"trump\"`",
                loc.clone(),
            )
            .with_help(Some(
                "add one: the declarer names trumps with it, showing a card of the suit".into(),
            )),
        );
    }
    let mut melds = melds(sections, deck, errors);
    if let Some(d) = marriage_decl {
        marriage_shorthand(
            &mut melds,
            d,
            marriage_kind_ids,
            [marriage_points, trump_marriage_points],
            marriage_needs_trick,
            &sections.declarations[d.0 as usize].1,
            errors,
        );
    }
    let mut meld_declarations = declared(sections, &["meld", "marriage"]);
    meld_declarations.retain(|&d| melds.iter().any(|m| m.declaration == Some(d)));
    let pass = declared(sections, &["pass"]).first().copied();
    let claim_declaration = one("claim");
    if claim == ClaimRule::Declare && claim_declaration.is_none() {
        errors.push(
            Diagnostic::error(
                "`claim = \"declare\"` needs a `[[declaration]]` with `effect = \"claim\"`",
                loc.clone(),
            )
            .with_help(Some(
                "add the declaration, or write `claim = \"automatic\"` to end a hand as soon as a player reaches the target".into(),
            )),
        );
    }
    let dealt = players * hand_size + u32::from(!deal_all && !talon);
    if !deck_holds(deck, dealt, "the deal", loc, errors) {
        return None;
    }
    let card_points = card_points?;
    let mut cards_by_points: Vec<(i64, CardSet)> = Vec::new();
    for (i, &points) in deck.attributes[card_points].values.iter().enumerate() {
        let card = crate::deck::CardId(i as u8);
        match cards_by_points.iter_mut().find(|(p, _)| *p == points) {
            Some((_, cards)) => cards.insert(card),
            None => cards_by_points.push((points, CardSet::single(card))),
        }
    }
    Some(Flow::Tricks(std::sync::Arc::new(TricksFlow {
        players,
        min_players,
        max_players,
        teams,
        hand_size,
        deal_all,
        talon,
        trump,
        auction,
        meld_table: super::melds::MeldTable::new(deck, &melds),
        melds,
        deal_packets,
        rank: rank?,
        card_points,
        cards_by_points,
        target,
        follow,
        later_equal_wins,
        claim,
        exchange_needs_trick,
        last_trick_points,
        look_at_own_tricks,
        length: length?,
        first_dealer,
        next_dealer,
        meld_declarations,
        pass,
        exchange: one("exchange"),
        close: one("close"),
        claim_declaration,
    })))
}

/// `follow` (a named rule set) and `follow_rules` (the flags, which win), or `None` when neither
/// is given.
fn follow_rules(r: &mut TableReader, errors: &mut Vec<Diagnostic>) -> Option<FollowRules> {
    let named = choice(r, "follow", &FollowRules::NAMED, errors);
    let flags = r.strings("follow_rules", errors);
    if flags.is_empty() {
        return named;
    }
    let mut rules = FollowRules::FREE;
    for f in &flags {
        match f.text {
            "suit" => rules.suit = true,
            "head" => rules.head = true,
            "trump" => rules.trump = true,
            "overtrump" => rules.overtrump = true,
            other => errors.push(
                Diagnostic::error(format!("unknown follow rule `{other}`"), f.loc.clone())
                    .with_help(
                        did_you_mean(other, FollowRules::FLAGS.iter().copied()).or_else(|| {
                            Some(
                                "the follow rules are `suit`, `head`, `trump` and `overtrump`"
                                    .into(),
                            )
                        }),
                    ),
            ),
        }
    }
    Some(rules)
}

/// `[flow.auction]` of a trick-taking game, with its `[[flow.auction.contract]]`s; it needs a
/// `pass` declaration.
fn auction(
    t: &Table,
    loc: &Loc,
    sections: &Sections,
    errors: &mut Vec<Diagnostic>,
) -> Option<Auction> {
    let mut r = TableReader::new(t, loc.clone(), "`[flow.auction]`").defined_by(&keys::AUCTION);
    let minimum = r.int("minimum", errors);
    let step = r.int("step", errors);
    let maximum = r.int("maximum", errors);
    let values = r.boolean("values", errors).is_none_or(|(b, _)| b);
    let passed_out = choice(
        &mut r,
        "passed_out",
        &[
            ("dealer", PassedOut::Dealer),
            ("redeal", PassedOut::Redeal),
            ("forehand", PassedOut::Forehand),
        ],
        errors,
    )
    .unwrap_or(PassedOut::Redeal);
    let first_lead = choice(
        &mut r,
        "first_lead",
        &[
            ("after-dealer", FirstLead::AfterDealer),
            ("declarer", FirstLead::Declarer),
        ],
        errors,
    )
    .unwrap_or(FirstLead::AfterDealer);
    let declarer_alone = choice(
        &mut r,
        "sides",
        &[("teams", false), ("declarer-alone", true)],
        errors,
    )
    .unwrap_or(false);
    let search_reads_bids = r
        .boolean("search_reads_bids", errors)
        .is_none_or(|(b, _)| b);
    let mut contracts: Vec<Contract> = Vec::new();
    for (ct, cl) in r.tables("contract", errors) {
        let mut c = TableReader::new(ct, cl.clone(), "a `[[flow.auction.contract]]`")
            .defined_by(&keys::CONTRACT);
        let id = c.required_string("id", errors);
        let name = c.string("name", errors);
        let description = c.string("description", errors);
        let bid = c.int("bid", errors);
        let follow = follow_rules(&mut c, errors);
        let trumps = c.boolean("trumps", errors).is_none_or(|(b, _)| b);
        let value = c.int("value", errors);
        let goal = contract_goal(&mut c, cl, errors);
        let takes_talon = c.boolean("talon", errors).is_some_and(|(b, _)| b);
        let lead = choice(
            &mut c,
            "first_lead",
            &[
                ("after-dealer", FirstLead::AfterDealer),
                ("declarer", FirstLead::Declarer),
            ],
            errors,
        );
        if bid.is_none() && c.item("bid").is_none() {
            c.missing("bid", errors);
        }
        c.finish(errors);
        let (Some(id), Some((bid, bid_at))) = (id, bid) else {
            continue;
        };
        if !check_ident(&id, errors) {
            continue;
        }
        if bid < 1 {
            errors.push(Diagnostic::error(
                format!("a contract's `bid` must be positive, found {bid}"),
                bid_at.clone(),
            ));
            continue;
        }
        if let Some(other) = contracts.iter().find(|o| o.bid == bid || o.id == id.text) {
            errors.push(Diagnostic::error(
                format!(
                    "contract `{}` has the id or the bid ({bid}) of contract `{}`",
                    id.text, other.id
                ),
                id.loc.clone(),
            ));
            continue;
        }
        contracts.push(Contract {
            id: id.text.to_string(),
            name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
            description: description.map_or_else(String::new, |d| d.text.to_string()),
            bid,
            follow,
            trumps,
            value: value.map_or(bid, |(v, _)| v),
            goal,
            talon: takes_talon,
            first_lead: lead,
        });
    }
    r.finish(errors);
    let minimum = match minimum {
        Some((n, _)) if n >= 1 => n,
        Some((n, at)) => {
            errors.push(Diagnostic::error(
                format!("`minimum` must be positive, found {n}"),
                at.clone(),
            ));
            1
        }
        None if values => {
            errors.push(
                Diagnostic::error("`[flow.auction]` needs `minimum`", loc.clone())
                    .with_help(Some("the lowest bid, e.g. `minimum = 100`".into())),
            );
            1
        }
        None => contracts.iter().map(|c| c.bid).min().unwrap_or(1),
    };
    let step = match step {
        Some((n, _)) if n >= 1 => n,
        Some((n, at)) => {
            errors.push(Diagnostic::error(
                format!("`step` must be positive, found {n}"),
                at.clone(),
            ));
            1
        }
        None => 1,
    };
    // The bids offered at once: at most 60 steps above the lowest unless `maximum` says.
    let maximum = match maximum {
        Some((n, _)) if n >= minimum && (n - minimum) / step <= 200 => n,
        Some((n, at)) => {
            errors.push(Diagnostic::error(
                format!(
                    "`maximum` must be from `minimum` ({minimum}) to 200 steps above it, found {n}"
                ),
                at.clone(),
            ));
            minimum
        }
        None => minimum + 60 * step,
    };
    if !values && contracts.is_empty() {
        errors.push(Diagnostic::error(
            "an auction without value bids (`values = false`) needs a `[[flow.auction.contract]]`",
            loc.clone(),
        ));
    }
    let pass = declared(sections, &["pass"]).first().copied();
    if pass.is_none() {
        errors.push(
            Diagnostic::error(
                "`[flow.auction]` needs a `[[declaration]]` with `effect = \"pass\"`",
                loc.clone(),
            )
            .with_help(Some(
                "add `[[declaration]]` with `id = \"pass\"` and `effect = \"pass\"`: how a player passes".into(),
            )),
        );
    }
    Some(Auction {
        minimum,
        step,
        maximum,
        values,
        contracts,
        passed_out,
        first_lead,
        pass: pass?,
        name_trump: declared(sections, &["trump"]).first().copied(),
        declarer_alone,
        search_reads_bids,
    })
}

/// A contract's goal: `points` (by the end of trick `by_trick`), `min_tricks` (a number or
/// `"all"`) and `max_tricks`.
fn contract_goal(c: &mut TableReader, loc: &Loc, errors: &mut Vec<Diagnostic>) -> ContractGoal {
    let count = |n: i64, at: &Loc, key: &str, errors: &mut Vec<Diagnostic>| {
        if (0..=64).contains(&n) {
            Some(n as u32)
        } else {
            errors.push(Diagnostic::error(
                format!("`{key}` must be from 0 to 64 tricks, found {n}"),
                at.clone(),
            ));
            None
        }
    };
    let points = c.int("points", errors).map(|(n, _)| n);
    let by_trick = c
        .int("by_trick", errors)
        .and_then(|(n, at)| count(n, at, "by_trick", errors))
        .filter(|&n| n > 0);
    let max_tricks = c
        .int("max_tricks", errors)
        .and_then(|(n, at)| count(n, at, "max_tricks", errors));
    let min_tricks = match c.item("min_tricks") {
        None => None,
        Some(item) => match &item.value {
            Value::Int(n) => count(*n, &item.loc, "min_tricks", errors).map(TrickCount::Count),
            Value::Str(w, _) if w == "all" => Some(TrickCount::All),
            _ => {
                errors.push(Diagnostic::error(
                    "`min_tricks` takes a number of tricks or \"all\"",
                    item.loc.clone(),
                ));
                None
            }
        },
    };
    if by_trick.is_some() && points.is_none() {
        errors.push(Diagnostic::error(
            "a contract's `by_trick` needs `points`: the points to reach by that trick",
            loc.clone(),
        ));
    }
    ContractGoal {
        points,
        by_trick,
        min_tricks,
        max_tricks,
    }
}

/// The marriage shorthand (a declaration of `effect = "marriage"`, with `[flow] marriage`,
/// `marriage_points`, `trump_marriage_points`, `marriage_counts`) as the two melds it stands
/// for: `marriage` in a plain suit and `trump-marriage` in trumps, of one class, shown on one's
/// lead by leading one of their cards, their points added to the card points.
fn marriage_shorthand(
    melds: &mut Vec<Meld>,
    decl: DeclId,
    kinds: Vec<usize>,
    [plain, trump]: [i64; 2],
    needs_trick: bool,
    at: &Loc,
    errors: &mut Vec<Diagnostic>,
) {
    for (id, name, suit, points) in [
        ("marriage", "Marriage", MeldSuit::Plain, plain),
        (
            "trump-marriage",
            "Marriage in trumps",
            MeldSuit::Trump,
            trump,
        ),
    ] {
        if melds.iter().any(|m| m.id == id) {
            errors.push(
                Diagnostic::error(
                    format!("duplicate meld id `{id}`: the `marriage` declaration stands for melds `marriage` and `trump-marriage`"),
                    at.clone(),
                )
                .with_help(Some(
                    "write the marriage as `[[meld]]`s shown with a declaration of `effect = \"meld\"`, or give the other meld another id".into(),
                )),
            );
            continue;
        }
        melds.push(Meld {
            id: id.to_string(),
            name: name.to_string(),
            class: "marriage".to_string(),
            suit,
            kinds: kinds.clone(),
            cards: Vec::new(),
            copies: 1,
            points,
            moment: MeldMoment::Lead,
            leads_its_card: true,
            needs_trick,
            adds_to: MeldAddsTo::Points,
            declaration: Some(decl),
        });
    }
}

/// `[[meld]]`: the melds of a trick-taking game. A meld shown after play is shown with a
/// `meld` declaration (its `declaration`, else the first), and one shown on winning a trick
/// needs a `pass` declaration to show none.
fn melds(sections: &Sections, deck: &Deck, errors: &mut Vec<Diagnostic>) -> Vec<Meld> {
    let tables = sections.melds;
    let meld_declarations = declared(sections, &["meld"]);
    let mut out: Vec<Meld> = Vec::new();
    for (t, l) in tables {
        let mut r = TableReader::new(t, (*l).clone(), "a `[[meld]]`").defined_by(&keys::MELD);
        let id = r.required_string("id", errors);
        let name = r.string("name", errors);
        let class = r.string("class", errors);
        let suit_at = r.item("suit").map(|i| i.loc.clone());
        let suit = choice(
            &mut r,
            "suit",
            &[
                ("trump", MeldSuit::Trump),
                ("plain", MeldSuit::Plain),
                ("any", MeldSuit::Any),
                ("each", MeldSuit::Each),
            ],
            errors,
        );
        let kinds = r.strings("kinds", errors);
        let cards = r.strings("cards", errors);
        let copies = match r.int("copies", errors) {
            Some((n, _)) if (1..=8).contains(&n) => n as u32,
            Some((n, at)) => {
                errors.push(Diagnostic::error(
                    format!("`copies` must be from 1 to 8, found {n}"),
                    at.clone(),
                ));
                1
            }
            None => 1,
        };
        let points = r.int("points", errors);
        if points.is_none() && r.item("points").is_none() {
            r.missing("points", errors);
        }
        let moment = choice(
            &mut r,
            "moment",
            &[
                ("before-play", MeldMoment::BeforePlay),
                ("lead", MeldMoment::Lead),
                ("won-trick", MeldMoment::WonTrick),
            ],
            errors,
        )
        .unwrap_or(MeldMoment::BeforePlay);
        let lead_at = r.item("lead").map(|i| i.loc.clone());
        let leads_its_card = choice(
            &mut r,
            "lead",
            &[("its-card", true), ("any", false)],
            errors,
        )
        .unwrap_or(false);
        let needs_trick = choice(
            &mut r,
            "counts",
            &[("at-once", false), ("after-first-trick", true)],
            errors,
        )
        .unwrap_or(false);
        let adds_to = choice(
            &mut r,
            "adds_to",
            &[("melds", MeldAddsTo::Melds), ("points", MeldAddsTo::Points)],
            errors,
        )
        .unwrap_or(MeldAddsTo::Melds);
        let declaration_id = r.string("declaration", errors);
        r.finish(errors);
        let Some(id) = id else { continue };
        if let Some(at) = lead_at.filter(|_| moment != MeldMoment::Lead) {
            errors.push(
                Diagnostic::error(
                    format!(
                        "meld `{}`: `lead` is for a meld shown on one's lead",
                        id.text
                    ),
                    at,
                )
                .with_help(Some("add `moment = \"lead\"`, or remove `lead`".into())),
            );
        }
        let declaration = match (moment, &declaration_id) {
            (MeldMoment::BeforePlay, Some(d)) => {
                errors.push(
                    Diagnostic::error(
                        format!(
                            "meld `{}` is shown before play by every seat: it has no `declaration`",
                            id.text
                        ),
                        d.loc.clone(),
                    )
                    .with_help(Some(
                        "give it `moment = \"lead\"` or `\"won-trick\"`, or remove `declaration`"
                            .into(),
                    )),
                );
                None
            }
            (MeldMoment::BeforePlay, None) => None,
            (_, Some(d)) => {
                let found = meld_declarations
                    .iter()
                    .copied()
                    .find(|&i| sections.declarations[i.0 as usize].0.id == d.text);
                if found.is_none() {
                    let ids = meld_declarations
                        .iter()
                        .map(|i| sections.declarations[i.0 as usize].0.id.as_str());
                    errors.push(
                        Diagnostic::error(
                            format!("no declaration `{}` with `effect = \"meld\"`", d.text),
                            d.loc.clone(),
                        )
                        .with_help(did_you_mean(d.text, ids).or_else(|| {
                            Some(
                                "add a `[[declaration]]` with this id and `effect = \"meld\"`: the move that shows the meld".into(),
                            )
                        })),
                    );
                }
                found
            }
            (_, None) => {
                let first = meld_declarations.first().copied();
                if first.is_none() {
                    errors.push(
                        Diagnostic::error(
                            format!(
                                "meld `{}` is shown after play, but no declaration shows it",
                                id.text
                            ),
                            id.loc.clone(),
                        )
                        .with_help(Some(
                            "add a `[[declaration]]` with `effect = \"meld\"`: the move that shows it (its id names the move in records)".into(),
                        )),
                    );
                }
                first
            }
        };
        if moment == MeldMoment::WonTrick && declared(sections, &["pass"]).is_empty() {
            errors.push(
                Diagnostic::error(
                    format!(
                        "meld `{}` is shown on winning a trick: the winner needs a `pass` declaration to show none",
                        id.text
                    ),
                    id.loc.clone(),
                )
                .with_help(Some(
                    "add `[[declaration]]` with `id = \"pass\"` and `effect = \"pass\"`".into(),
                )),
            );
        }
        if !check_ident(&id, errors) {
            continue;
        }
        if out.iter().any(|m| m.id == id.text) {
            errors.push(Diagnostic::error(
                format!("duplicate meld id `{}`", id.text),
                id.loc.clone(),
            ));
            continue;
        }
        let mut kind_ids = Vec::new();
        for k in &kinds {
            match deck.kinds.iter().position(|d| d.id == k.text) {
                Some(i) => kind_ids.push(i),
                None => errors.push(
                    Diagnostic::error(
                        format!("the deck `{}` has no kind `{}`", deck.id, k.text),
                        k.loc.clone(),
                    )
                    .with_help(did_you_mean(
                        k.text,
                        deck.kinds.iter().map(|k| k.id.as_str()),
                    )),
                ),
            }
        }
        let mut card_ids = Vec::new();
        for c in &cards {
            match deck.card_by_id(c.text) {
                Some(card) => card_ids.push(card),
                None => errors.push(
                    Diagnostic::error(format!("unknown card `{}`", c.text), c.loc.clone())
                        .with_help(did_you_mean(c.text, deck.card_ids())),
                ),
            }
        }
        let suit = match (suit, kinds.is_empty(), cards.is_empty()) {
            (Some(s), false, true) => s,
            (None, true, false) => MeldSuit::Cards,
            _ => {
                errors.push(
                    Diagnostic::error(
                        format!("meld `{}` needs `kinds` with `suit`, or `cards`", id.text),
                        suit_at.unwrap_or_else(|| id.loc.clone()),
                    )
                    .with_help(Some(
                        "`kinds = [\"king\", \"queen\"]` with `suit = \"trump\"` (or `plain`, `any`, `each`), or `cards = [\"spades-queen\", \"diamonds-jack\"]` for exactly those cards".into(),
                    )),
                );
                continue;
            }
        };
        let Some((points, _)) = points else { continue };
        out.push(Meld {
            id: id.text.to_string(),
            name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
            class: class.map_or_else(|| id.text.to_string(), |c| c.text.to_string()),
            suit,
            kinds: kind_ids,
            cards: card_ids,
            copies,
            points,
            moment,
            leads_its_card,
            needs_trick,
            adds_to,
            declaration,
        });
    }
    for &d in &meld_declarations {
        if !out.iter().any(|m| m.declaration == Some(d)) {
            let (decl, at, _) = &sections.declarations[d.0 as usize];
            errors.push(
                Diagnostic::error(
                    format!("declaration `{}` shows melds, but no meld is shown with it", decl.id),
                    at.clone(),
                )
                .with_help(Some(
                    "give a `[[meld]]` `moment = \"lead\"` or `\"won-trick\"` (and `declaration` with this id where there are several), or remove the declaration".into(),
                )),
            );
        }
    }
    out
}

/// `[flow]` of a banker game (`style = "banker"`).
fn banker_flow(
    mut r: TableReader,
    t: &Table,
    loc: &Loc,
    vocab: &Vocab,
    sections: &Sections,
    errors: &mut Vec<Diagnostic>,
) -> Option<Flow> {
    let names = &vocab.names(scope::TILES);
    family_declarations(sections, "banker", &[], errors);
    sections.no_melds("banker", errors);
    // A banker game compares hand values: yaku and a scoring script would never be used.
    for (loc, what) in [
        (&sections.yaku, "`[[yaku]]`"),
        (&sections.scoring, "`[scoring]`"),
    ] {
        if let Some(loc) = loc {
            errors.push(
                Diagnostic::error(format!("a banker game does not use {what}"), loc.clone())
                    .with_help(Some(
                        "a banker game's hands are compared by `[flow] value`; remove this section"
                            .into(),
                    )),
            );
        }
    }
    let max_players = positive(&mut r, "max_players", 5, errors);
    let players = positive(&mut r, "players", 1, errors);
    let first_tiles = positive(&mut r, "first_tiles", 1, errors);
    let banker_tiles = positive(&mut r, "banker_tiles", 2, errors);
    let hands = positive(&mut r, "hands", 20, errors);
    let draw_options = match int_list(&mut r, "draw_options", 0..=8, errors) {
        Ok(list) => list.unwrap_or_else(|| vec![1]),
        Err(()) => Vec::new(),
    };
    // Bounded like `--min-bet` and `--max-bet`: a bankroll of 10^10 with no table limit made
    // every bet decision list 10^10 amounts.
    let chips = |r: &mut TableReader, key: &str, most: i64, errors: &mut Vec<Diagnostic>| match r
        .int(key, errors)
    {
        Some((n, _)) if (1..=most).contains(&n) => Some(n),
        Some((n, l)) => {
            errors.push(
                Diagnostic::error(format!("`{key}` must be from 1 to {most}, found {n}"), l.clone())
                    .with_help(Some(format!(
                        "bets are at most {MAX_BET} chips (as with `--max-bet`), bankrolls at most {MAX_BANKROLL}"
                    ))),
            );
            None
        }
        None => None,
    };
    let min_bet = chips(&mut r, "min_bet", MAX_BET, errors).unwrap_or(1);
    let max_bet = chips(&mut r, "max_bet", MAX_BET, errors).unwrap_or(10);
    let bankroll = chips(&mut r, "bankroll", MAX_BANKROLL, errors).unwrap_or(100);
    let banker_bankroll = chips(&mut r, "banker_bankroll", MAX_BANKROLL, errors);
    let table_limit = chips(&mut r, "table_limit", MAX_BANKROLL, errors);
    let value_text = r.string("value", errors);
    let value = match value_text {
        Some(s) => compile_expr(&s, Type::Int, &vocab.names(scope::HAND), errors),
        None => {
            r.missing("value", errors);
            None
        }
    };
    let (banker_wins, _) = deal_checks(
        r.tables("banker_win", errors),
        "a `[[flow.banker_win]]`",
        false,
        false,
        names,
        errors,
    );
    let table = banker::table_rules(
        &mut r,
        names.deck,
        names,
        &vocab.names(scope::SHOWDOWN),
        loc,
        errors,
    );
    let seat_rules = banker::seat_rules(
        &mut r,
        &vocab.names(scope::HAND),
        &vocab.names(scope::SHOWDOWN),
        errors,
    );
    let key_at = |key: &str| t.get(key).map_or_else(|| loc.clone(), |i| i.loc.clone());
    let conflicts = [
        (
            seat_rules.bank.is_some() && banker_bankroll.is_some(),
            "bank",
            "`[flow.bank]` makes the banker a seat, with the seat's chips: remove `banker_bankroll`",
        ),
        (
            seat_rules.bank.is_some() && table.table_hand,
            "bank",
            "a table hand is banked by the house: `[flow.bank]` needs a hand per seat",
        ),
        (
            seat_rules.pot.is_some() && table.table_hand,
            "pot",
            "a pot game deals every seat a hand: remove `table_hand`",
        ),
        (
            seat_rules.pot.is_some() && banker_bankroll.is_some(),
            "pot",
            "a pot game has no banker: remove `banker_bankroll`",
        ),
        (
            !seat_rules.specials.is_empty() && seat_rules.ranks.is_empty(),
            "special",
            "special hands beat ranks: name them with `[[flow.hand_rank]]`",
        ),
        (
            seat_rules.pot.is_some() && players < 2,
            "pot",
            "a pot game needs at least 2 `players`",
        ),
        (
            seat_rules.bank.is_some() && players < 2,
            "bank",
            "a banker among the seats needs at least 2 `players`",
        ),
    ];
    for (_, key, message) in conflicts.iter().filter(|(c, _, _)| *c) {
        errors.push(Diagnostic::error(*message, key_at(key)));
    }
    // A pot game deals by `[flow.pot] rounds` and bets into the pot: the keys of the hands
    // played against a banker would be silently ignored.
    if seat_rules.pot.is_some() {
        for (key, why) in [
            ("first_tiles", "it deals by `[flow.pot] rounds`"),
            ("banker_tiles", "it has no banker's hand"),
            ("draw_options", "its hands take no more cards"),
            ("table_limit", "its bets are raises into the pot"),
            ("banker_win", "it has no banker's hand"),
            ("player_draw", "its hands take no more cards"),
            ("banker_draw", "it has no banker's hand"),
        ] {
            if t.get(key).is_some() {
                errors.push(
                    Diagnostic::error(
                        format!("a pot game does not use `{key}`: {why}"),
                        key_at(key),
                    )
                    .with_help(Some(format!("remove `{key}`"))),
                );
            }
        }
    }
    r.finish(errors);
    if min_bet > max_bet {
        errors.push(Diagnostic::error(
            format!("`min_bet` ({min_bet}) is larger than `max_bet` ({max_bet})"),
            loc.clone(),
        ));
    }
    if players > max_players {
        errors.push(Diagnostic::error(
            format!("`players` ({players}) is more than `max_players` ({max_players})"),
            loc.clone(),
        ));
    }
    if max_players as usize > MAX_SEATS {
        errors.push(Diagnostic::error(
            format!("`max_players` ({max_players}) is more than the {MAX_SEATS} seats a table has"),
            loc.clone(),
        ));
    }
    if draw_options.is_empty() && t.get("draw_options").is_some() {
        errors.push(Diagnostic::error(
            "`draw_options` needs at least one choice",
            loc.clone(),
        ));
    }
    let most_draw = draw_options.iter().copied().max().unwrap_or(0);
    let needed = if table.table_hand {
        first_tiles + banker_tiles
    } else if let Some(pot) = &seat_rules.pot {
        max_players * pot.rounds.iter().sum::<u32>()
    } else {
        max_players * (first_tiles + most_draw) + banker_tiles
    };
    if table.shoe.is_none() && !deck_holds(names.deck, needed, "a full table", loc, errors) {
        return None;
    }
    Some(Flow::Banker(std::sync::Arc::new(BankerFlow {
        players,
        max_players,
        first_tiles,
        banker_tiles,
        draw_options,
        min_bet,
        max_bet,
        bankroll,
        banker_bankroll,
        table_limit,
        hands,
        banker_wins,
        value: value?,
        value_source: value_text.map_or_else(String::new, |s| s.text.trim().to_string()),
        card_points: table.card_points,
        card_value_source: table.card_value_source,
        table_hand: table.table_hand,
        shoe: table.shoe,
        player_draw: table.player_draw,
        banker_draw: table.banker_draw,
        bets: table.bets,
        hand_names: table.hand_names,
        bank: seat_rules.bank,
        ranks: seat_rules.ranks,
        specials: seat_rules.specials,
        pot: seat_rules.pot,
    })))
}

fn deal_checks(
    tables: Vec<(&Table, &Loc)>,
    what: &str,
    with_points: bool,
    redeal: bool,
    names: &Names,
    errors: &mut Vec<Diagnostic>,
) -> (Vec<DealCheck>, Vec<Loc>) {
    let mut out = Vec::new();
    let mut locs = Vec::new();
    for (t, loc) in tables {
        let mut r = TableReader::new(t, loc.clone(), what).defined_by(&keys::DEAL_CHECK);
        let id = r.required_string("id", errors);
        let name = r.string("name", errors);
        let description = r.string("description", errors);
        let when = r.required_string("when", errors);
        let points = if with_points {
            if t.get("points").is_none() {
                r.missing("points", errors);
            }
            r.int("points", errors).map(|(p, _)| p)
        } else {
            Some(0)
        };
        let on = if redeal {
            let places = [
                ("table", DealOn::Table),
                ("hands", DealOn::Hands),
                ("any", DealOn::Any),
            ];
            choice(&mut r, "on", &places, errors).unwrap_or(DealOn::Table)
        } else {
            if let Some(on) = r.string("on", errors) {
                errors.push(
                    Diagnostic::error(format!("{what} takes no `on`"), on.loc.clone()).with_help(
                        Some(
                            "`on` says where a `[[flow.redeal]]` looks (`table`, `hands`, `any`); \
                             this check always reads each dealt hand"
                                .into(),
                        ),
                    ),
                );
            }
            DealOn::Table
        };
        let ends = if with_points {
            r.boolean("ends", errors).is_none_or(|(b, _)| b)
        } else {
            if let Some((_, l)) = r.boolean("ends", errors) {
                errors.push(Diagnostic::error(
                    format!("{what} takes no `ends`: only an instant win may be played on"),
                    l.clone(),
                ));
            }
            true
        };
        r.finish(errors);
        let when_source = when.as_ref().map(|w| w.text.to_string());
        let when = when.and_then(|w| compile_expr(&w, Type::Bool, names, errors));
        if let (Some(id), Some(when), Some(points), Some(when_source)) =
            (id, when, points, when_source)
        {
            locs.push(id.loc.clone());
            out.push(DealCheck {
                id: id.text.to_string(),
                name: name.map_or_else(|| id.text.to_string(), |n| n.text.to_string()),
                description: description.map(|d| d.text.to_string()),
                when,
                when_source,
                points,
                on,
                ends,
            });
        }
    }
    (out, locs)
}

/// Warns about deal checks (tried in order, the first that holds decides) that never decide:
/// written like an earlier one, or holding only on deals where an earlier one holds too.
fn never_decides(
    checks: &[DealCheck],
    locs: &[Loc],
    deck: &Deck,
    size: usize,
    facts: &[i64],
    noun: &str,
    errors: &mut Vec<Diagnostic>,
) {
    let list: Vec<(&Program, &str)> = checks
        .iter()
        .map(|c| (&c.when, c.when_source.as_str()))
        .collect();
    // Checks that read different piles (a redeal on the table, one on the hands) do not
    // cover each other; only those read on piles of `size` cards are judged.
    let judged = |c: &DealCheck| noun != "redeal" || c.on == DealOn::Table;
    for (i, j, tried) in super::reach::shadowed(&list, deck, size, facts)
        .into_iter()
        .filter(|&(i, j, _)| judged(&checks[i]) && checks[i].on == checks[j].on)
    {
        let (this, earlier) = (&checks[i], &checks[j]);
        let why = if tried == 0 {
            format!("`{}` has the same condition", earlier.id)
        } else {
            format!(
                "every deal tried that holds it ({tried}) holds `{}` too",
                earlier.id
            )
        };
        let chosen = match noun {
            "instant win" if earlier.points > this.points => format!(
                ", which is chosen for its {} points (the instant win with the most points is chosen)",
                earlier.points
            ),
            "instant win" => ", which is chosen: it is listed first at the same points".to_string(),
            _ => ", and any redeal that holds redeals".to_string(),
        };
        errors.push(
            Diagnostic::warning(
                format!("{noun} `{}` never decides a deal", this.id),
                locs[i].clone(),
            )
            .with_help(Some(format!("{why}{chosen}"))),
        );
    }
}

/// A script failure on a fact named after a declaration that a house rule removed (the base's
/// script reads `hand.koikoi_opponent`, and `remove_declaration = ["koikoi"]` took it away) is
/// the removal's fault: the error moves there, the script's line kept as the related place.
fn blame_removed_declaration(d: &mut Diagnostic, removed: &[super::load::Removed]) {
    let Some(rest) = d.message.split("Property not found: ").nth(1) else {
        return;
    };
    let property: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let Some(gone) = removed.iter().find(|r| {
        let id = r.id.replace('-', "_");
        r.path == "declaration" && (property == id || property == format!("{id}_opponent"))
    }) else {
        return;
    };
    let script_at = std::mem::replace(&mut d.loc, gone.loc.clone());
    d.message = format!(
        "removing the declaration `{}` breaks the scoring script, which reads `hand.{property}`",
        gone.id
    );
    d.help = Some(
        "keep the declaration, or give a scoring script (`[scoring] script`) that does not read it"
            .into(),
    );
    d.related
        .push((script_at, "the script reads it here".into()));
}

/// Runs a compiled scoring script on sample hands (each yaku alone and all together, with and
/// without koi-koi calls, table counts and the deal), so that a script that fails at run time
/// (a misspelt `hand` field, negative points, a runaway loop) is found by `yaku validate`, not in
/// the middle of a game.
fn try_script(
    script: &ScoringScript,
    yaku: &YakuTable,
    extras: &[Vec<(&'static str, crate::script::FactValue)>],
    at: &Loc,
    errors: &mut Vec<Diagnostic>,
) {
    use crate::script::{HandFacts, ScriptYaku};
    let one = |y: &Yaku| ScriptYaku {
        id: y.id.clone(),
        name: y.name.clone(),
        points: 1,
    };
    let mut piles: Vec<Vec<ScriptYaku>> = yaku.yaku.iter().map(|y| vec![one(y)]).collect();
    piles.push(yaku.yaku.iter().map(one).collect());
    let samples = [
        (0, 0, 0, true, false),
        (1, 0, 1, false, false),
        (0, 2, 2, true, false),
        (3, 3, 0, false, false),
        (0, 0, 0, false, true),
    ];
    for pile in &piles {
        for ((calls_self, calls_opponent, table_count, dealer, instant), extra) in samples
            .iter()
            .copied()
            .flat_map(|s| extras.iter().map(move |e| (s, e)))
        {
            let facts = HandFacts {
                base: pile.iter().map(|y| y.points).sum(),
                yaku: pile.clone(),
                calls_self,
                calls_opponent,
                table_count,
                round: 1,
                rounds: 12,
                dealer,
                instant,
                exhausted: false,
                extra: extra.clone(),
            };
            if let Err(e) = script.score(&facts) {
                let names: Vec<&str> = facts.yaku.iter().map(|y| y.id.as_str()).collect();
                errors.push(
                    Diagnostic::error(
                        format!("the scoring script fails on a sample hand: {}", e.message),
                        at.clone(),
                    )
                    .with_help(Some(format!(
                        "the sample: yaku [{}] at 1 point each, calls {calls_self} and {calls_opponent}, table count {table_count}, dealer {dealer}, instant win {instant}{}",
                        names.join(", "),
                        extra
                            .iter()
                            .map(|(k, v)| match v {
                                crate::script::FactValue::Int(n) => format!(", {k} {n}"),
                                crate::script::FactValue::Text(t) => format!(", {k} \"{t}\""),
                                crate::script::FactValue::Bool(b) => format!(", {k} {b}"),
                                crate::script::FactValue::List(l) => format!(", {} {k}", l.len()),
                                crate::script::FactValue::Map(_) => format!(", {k}"),
                            })
                            .collect::<String>()
                    ))),
                );
                return;
            }
        }
    }
}

/// Sample tables for a matching script that settles each loser: every seat count the flow
/// allows, the first seat winning, the others with empty piles or full ones, with and without
/// calls, declarations and turn events.
fn table_samples(
    flow: &MatchingFlow,
    tallies: &[Tally],
    declarations: &[(Declaration, Loc, Option<Loc>)],
    yaku: &YakuTable,
    carry: &[Carry],
) -> Vec<Vec<(&'static str, crate::script::FactValue)>> {
    use crate::yaku::{SeatFacts, TableFacts};
    let mut out = Vec::new();
    for seats in flow.min_players..=flow.max_players {
        for (value, calls, draws) in [(0, 0, 0), (10, 1, 1), (3, 3, 0)] {
            let seat = |winner: bool| SeatFacts {
                winner,
                calls,
                base: value,
                tallies: tallies.iter().map(|t| (t.id.clone(), value)).collect(),
                declared: declarations
                    .iter()
                    .map(|(d, ..)| (d.id.clone(), i64::from(calls)))
                    .collect(),
                events: flow
                    .turn_events
                    .iter()
                    .map(|e| (e.id.clone(), i64::from(calls)))
                    .collect(),
                yaku: if value > 0 {
                    yaku.yaku.iter().map(|y| y.id.clone()).collect()
                } else {
                    Vec::new()
                },
                captured: Vec::new(),
                team: None,
                // The first dealt combination, so that a script reading `dealt` is tried with one.
                dealt: flow
                    .dealt_yaku
                    .first()
                    .map(|d| vec![d.id.clone()])
                    .unwrap_or_default(),
            };
            let teams = &flow.teams;
            let t = TableFacts {
                seats: (0..seats as usize)
                    .map(|s| SeatFacts {
                        team: teams.any().then(|| teams.team_of(s)),
                        ..seat(s == 0)
                    })
                    .collect(),
                teams: if teams.any() {
                    (0..teams.count(seats as usize))
                        .map(|t| crate::yaku::TeamFacts {
                            seats: teams.members(t, seats as usize).collect(),
                            tallies: tallies.iter().map(|t| (t.id.clone(), value)).collect(),
                            captured: Vec::new(),
                        })
                        .collect()
                } else {
                    Vec::new()
                },
                carry: (!carry.is_empty()).then(|| carry_sample(carry, seats as usize)),
                draws_before: draws,
            };
            out.push(t.extra());
        }
    }
    out
}

/// True for a finding that only holds because the deck is unknown (a name it would define).
fn needs_the_deck(message: &str) -> bool {
    [
        "unknown name",
        "unknown card",
        "unknown kind",
        "unknown suit",
        "unknown attribute",
        "unknown set",
    ]
    .iter()
    .any(|p| message.starts_with(p))
        || message.contains("not in the deck")
        || message.contains("the deck has")
}

/// Where a scoring script's text is: its source file, and for an inline script where that text
/// starts in the rule file.
struct ScriptPlace {
    file: crate::diag::FileId,
    inline_at: Option<Loc>,
}

/// Moves a sample-hand failure (`name:line[:column]: message`) from the `[scoring]` key to the
/// script line that failed: in the `.rhai` file, or in the rule file for an inline script. A
/// missing `hand` field gets a did-you-mean.
fn locate_script_failure(
    d: &mut Diagnostic,
    place: &ScriptPlace,
    sources: &crate::diag::SourceMap,
) {
    let name = &sources.get(place.file).name;
    let Some(at) = d.message.find(&format!("{name}:")) else {
        return;
    };
    let rest = &d.message[at + name.len() + 1..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let Ok(line) = digits.parse::<usize>() else {
        return;
    };
    let text = &sources.get(place.file).text;
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let line_text = text[line_start.min(text.len())..]
        .lines()
        .next()
        .unwrap_or("");
    let indent = line_text.len() - line_text.trim_start().len();
    let span = line_start + indent..line_start + line_text.trim_end().len();
    let loc = match &place.inline_at {
        Some(start) => start.sub(span.start, span.len()),
        None => Loc::new(place.file, span),
    };
    // The message without its `name:line:` prefix, which the location now shows.
    let detail = rest[digits.len()..]
        .trim_start_matches(|c: char| c == ':' || c.is_ascii_digit())
        .trim_start();
    let detail = detail
        .strip_prefix("scoring script failed: ")
        .unwrap_or(detail);
    if let Some(field) = detail
        .split("Property not found: ")
        .nth(1)
        .map(|f| f.split_whitespace().next().unwrap_or(""))
        && let Some(help) =
            crate::diag::did_you_mean(field, crate::script::FACT_NAMES.iter().copied())
    {
        d.help = Some(format!(
            "{help} (`hand` holds: {})",
            crate::script::FACT_NAMES.join(", ")
        ));
    }
    d.message = format!("the scoring script fails on a sample hand: {detail}");
    d.loc = loc;
}

fn scoring_script(
    loader: &mut Loader,
    t: &Table,
    loc: &Loc,
    calls: &[String],
    options: &[RuleOption],
    errors: &mut Vec<Diagnostic>,
) -> Option<(ScoringScript, Loc, ScriptPlace)> {
    let mut r = TableReader::new(t, loc.clone(), "`[scoring]`").defined_by(&keys::SCORING);
    let script = r.string("script", errors);
    let source = r.string("source", errors);
    let adjust = r.tables("adjust", errors);
    let zero_sum = r.boolean("zero_sum", errors).is_some_and(|(z, _)| z);
    r.finish(errors);
    let (file, named_at, inline_at) =
        script_file(loader, script, source, loc, "`[scoring]`", errors)?;
    let before = errors.len();
    let place = ScriptPlace {
        file,
        inline_at: inline_at.as_ref().map(|(_, start)| start.clone()),
    };
    let mut compiled =
        ScoringScript::compile(&loader.sources, file, &named_at, calls, options, errors);
    relocate_inline(inline_at, &mut errors[before..]);
    for (t, l) in adjust {
        let mut r =
            TableReader::new(t, l.clone(), "a `[[scoring.adjust]]`").defined_by(&keys::ADJUST);
        let _ = r.required_string("id", errors);
        let script = r.string("script", errors);
        let source = r.string("source", errors);
        r.finish(errors);
        let Some((file, at, inline_at)) =
            script_file(loader, script, source, l, "a `[[scoring.adjust]]`", errors)
        else {
            compiled = None;
            continue;
        };
        let before = errors.len();
        compiled = compiled.and_then(|s| s.with_adjustment(&loader.sources, file, &at, errors));
        relocate_inline(inline_at, &mut errors[before..]);
    }
    compiled.map(|s| (s.zero_sum(zero_sum), named_at, place))
}

/// The script file a `script` (a path) or `source` (inline text) names, where it is named, and
/// for inline text where its first character sits in the rule file.
#[allow(clippy::type_complexity)]
fn script_file(
    loader: &mut Loader,
    script: Option<Str>,
    source: Option<Str>,
    loc: &Loc,
    what: &str,
    errors: &mut Vec<Diagnostic>,
) -> Option<(FileId, Loc, Option<(FileId, Loc)>)> {
    match (script, source) {
        (Some(path), None) => Some((
            loader.open_ref(path.loc.file, path.text, RefKind::Script, path.loc, errors)?,
            path.loc.clone(),
            None,
        )),
        (None, Some(src)) => {
            let name = format!("{} [scoring.source]", loader.sources.get(src.loc.file).name);
            let file = loader.add(&name, src.text.to_string(), Origin::Inline);
            let inline_at = src.raw_offset.map(|off| (file, src.loc.sub(off, 0)));
            // Point at the literal's first line, not at a multi-line block.
            let text = &loader.sources.get(src.loc.file).text;
            let first_line = text
                .get(src.loc.span.clone())
                .and_then(|t| t.find('\n'))
                .unwrap_or(src.loc.span.len());
            Some((file, src.loc.sub(0, first_line), inline_at))
        }
        (Some(_), Some(src)) => {
            errors.push(
                Diagnostic::error("give `script` or `source`, not both", src.loc.clone())
                    .with_help(Some(
                        "`script` names a .rhai file, `source` holds the script itself; keep one"
                            .into(),
                    )),
            );
            None
        }
        (None, None) => {
            errors.push(Diagnostic::error(
                format!("{what} needs `script` (a file) or `source` (inline rhai)"),
                loc.clone(),
            ));
            None
        }
    }
}

/// Errors in an inline script point into the rule file, at the script's own line and column.
fn relocate_inline(inline_at: Option<(FileId, Loc)>, errors: &mut [Diagnostic]) {
    if let Some((file, start)) = inline_at {
        for d in errors {
            if d.loc.file == file {
                let span = d.loc.span.clone();
                d.loc = start.sub(span.start, span.len());
            }
        }
    }
}

/// Sample facts of finished hands, one per way a hand ends, so that `yaku validate` runs a
/// trick-taking ruleset's scoring script on each (with the flow's seats, bids and contracts).
fn tricks_sample_facts(flow: &TricksFlow) -> Vec<Vec<(&'static str, FactValue)>> {
    let ends = [
        "claim",
        "false_claim",
        "failed_close",
        "last_trick",
        "passed_out",
        "made",
        "set",
    ];
    let seats = flow.players as usize;
    let side: Vec<FactValue> = (0..seats)
        .map(|s| FactValue::Int(i64::from(flow.teams.team_of(s) == flow.teams.team_of(0))))
        .collect();
    let opponent_seat = (1..seats)
        .find(|&s| flow.teams.team_of(s) != flow.teams.team_of(0))
        .unwrap_or(1);
    let mut bids: Vec<(i64, String, i64)> = vec![(0, String::new(), 0)];
    if let Some(a) = &flow.auction {
        bids.push((a.minimum, String::new(), 0));
        bids.push((a.maximum, String::new(), 0));
        bids.extend(a.contracts.iter().map(|c| (c.bid, c.id.clone(), c.value)));
    }
    let mut out = Vec::new();
    for end in ends {
        for (points_self, points_opponent, tricks_self, tricks_opponent, closer, melds) in [
            (70, 40, 3, 2, "none", 0),
            (66, 20, 4, 1, "self", 60),
            (80, 0, 5, 0, "opponent", 150),
            (30, 66, 0, 4, "none", 40),
        ] {
            for (bid, contract, value) in &bids {
                out.push(vec![
                    ("end", FactValue::Text(end.into())),
                    ("points_self", FactValue::Int(points_self)),
                    ("points_opponent", FactValue::Int(points_opponent)),
                    ("tricks_self", FactValue::Int(tricks_self)),
                    ("tricks_opponent", FactValue::Int(tricks_opponent)),
                    ("closer", FactValue::Text(closer.into())),
                    ("melds_self", FactValue::Int(melds)),
                    ("melds_opponent", FactValue::Int(melds / 2)),
                    ("bid", FactValue::Int(*bid)),
                    ("contract", FactValue::Text(contract.clone())),
                    ("value", FactValue::Int(*value)),
                    ("seat", FactValue::Int(0)),
                    ("opponent_seat", FactValue::Int(opponent_seat as i64)),
                    ("side", FactValue::List(side.clone())),
                ]);
            }
        }
    }
    out
}

/// The carried values at their initial values, as a sample hand's `hand.carry` holds them.
fn carry_sample(carry: &[Carry], seats: usize) -> FactValue {
    FactValue::Map(
        carry
            .iter()
            .map(|c| (c.id.clone(), c.fact(&vec![c.initial; seats])))
            .collect(),
    )
}
