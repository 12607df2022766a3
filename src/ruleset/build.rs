//! Checking a merged ruleset tree and building the [`Ruleset`]: deck, card kinds, yaku (with
//! their expressions compiled), flow options and the scoring script. Every error is collected.

use super::deck_file::{check_ident, unknown_kind};
use super::flow::{flow_options, tricks_sample_facts};
use super::keys;
use super::loader::{Loader, Origin, RefKind};
use super::model::*;
use super::reader::{Str, TableReader};
use super::toml_tree::{Item, Table, Value};
use super::vocab::*;
use super::yaku_table::{MAX_YAKU, Yaku, YakuTable};
use crate::deck::{CardSet, Deck};
use crate::diag::{Diagnostic, FileId, Loc, did_you_mean};
use crate::expr::{self, Names, Program, Type};
use crate::script::{FactValue, ScoringScript};
use std::collections::HashMap;

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
    for (key, _, noun) in super::loader::REMOVALS {
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
    // A banker game's declarations are the actions of a hand played by actions: their
    // conditions read the hands' facts.
    let banker = flow.is_some_and(|(t, _)| {
        t.get("style")
            .is_some_and(|i| matches!(&i.value, Value::Str(s, _) if s == "banker"))
    });
    let declaration_scope = if banker {
        scope::PLAY
    } else {
        scope::DECLARATION
    };
    let declarations = declarations(&declaration_tables, &vocab, declaration_scope, errors);
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
        content_hash: super::fingerprint::content_hash(&loader.sources),
        text_hash: super::fingerprint::text_hash(&loader.sources),
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

/// `[[declaration]]`: id, name, prompt, effect and an optional condition in the declaration
/// scope. The family checks the effects.
fn declarations(
    tables: &[(&Table, &Loc)],
    vocab: &Vocab,
    facts: &[&str],
    errors: &mut Vec<Diagnostic>,
) -> Vec<(Declaration, Loc, Option<Loc>)> {
    let deck = vocab.deck;
    let names = vocab.names(facts);
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
        let points = r.int("points", errors);
        let blocks = r.boolean("blocks", errors);
        r.finish(errors);
        let (Some(id), Some(effect)) = (id, effect) else {
            continue;
        };
        let (points, blocks) = before_play_effects(effect.text, points, blocks, errors);
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
        let Ok((when_source, compiled)) = condition(when.as_ref(), &names, errors) else {
            continue;
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
                points,
                blocks,
            },
            effect.loc.clone(),
            when.map(|w| w.loc.clone()),
        ));
    }
    out
}

/// The most points, either way, a declaration earns (`points`).
const MOST_DECLARATION_POINTS: i64 = 1_000_000;

/// A declaration's `points` and `blocks`, which only a declaration before a play (`reveal`,
/// `play_suit`) takes: the points it earns each time it is made in a hand settled seat by
/// seat, and whether the suit it shows may then be captured by the declarer alone.
fn before_play_effects(
    effect: &str,
    points: Option<(i64, &Loc)>,
    blocks: Option<(bool, &Loc)>,
    errors: &mut Vec<Diagnostic>,
) -> (i64, bool) {
    let before_play = matches!(effect, "reveal" | "play_suit");
    let refuse = |key: &str, at: &Loc, errors: &mut Vec<Diagnostic>| {
        errors.push(
            Diagnostic::error(
                format!("`{key}` needs a declaration before a play (`effect = \"reveal\"` or `\"play_suit\"`), not `{effect}`"),
                at.clone(),
            )
            .with_help(Some(format!("remove `{key}`"))),
        );
    };
    let points = match points {
        Some((_, at)) if !before_play => {
            refuse("points", at, errors);
            0
        }
        Some((p, at)) if p.abs() > MOST_DECLARATION_POINTS => {
            errors.push(Diagnostic::error(
                format!("`points` must be within {MOST_DECLARATION_POINTS} either way, found {p}"),
                at.clone(),
            ));
            0
        }
        Some((p, _)) => p,
        None => 0,
    };
    let blocks = match blocks {
        Some((true, at)) if !before_play => {
            refuse("blocks", at, errors);
            false
        }
        Some((b, _)) => b,
        None => false,
    };
    (points, blocks)
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

/// A script failure on a fact named after a declaration that a house rule removed (the base's
/// script reads `hand.koikoi_opponent`, and `remove_declaration = ["koikoi"]` took it away) is
/// the removal's fault: the error moves there, the script's line kept as the related place.
fn blame_removed_declaration(d: &mut Diagnostic, removed: &[super::loader::Removed]) {
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

/// The carried values at their initial values, as a sample hand's `hand.carry` holds them.
fn carry_sample(carry: &[Carry], seats: usize) -> FactValue {
    FactValue::Map(
        carry
            .iter()
            .map(|c| (c.id.clone(), c.fact(&vec![c.initial; seats])))
            .collect(),
    )
}
