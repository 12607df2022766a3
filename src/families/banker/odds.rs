//! The banker family's exact odds and hand strengths, computed once per ruleset and shared by
//! its bots, its rule-reading choice ([`super::greedy`]) and the play table: the first hands'
//! odds from [`super::analysis`], the best bet of a table hand, and how often a pot game's hand
//! beats the others.

use crate::families::banker::analysis::{self, FirstHandOdds, Strategy};
use crate::ruleset::Ruleset;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The exact odds of every first hand of a banker ruleset, computed once per ruleset and shared;
/// `None` for an enumeration beyond [`analysis::DEFAULT_MAX_DEALS`] (see [`check_odds_work`]).
///
/// Each thread keeps its own map of the odds it has used, so the process-wide map (and its lock)
/// is touched once per thread and ruleset, not on every decision: simulation workers share no
/// mutable state while they play.
pub fn shared_odds(ruleset: &Ruleset) -> Option<Arc<Vec<FirstHandOdds>>> {
    with_odds(ruleset, Arc::clone)
}

/// Calls `f` with this thread's copy of the ruleset's odds (no lock, no reference count).
pub(super) fn with_odds<R>(
    ruleset: &Ruleset,
    f: impl FnOnce(&Arc<Vec<FirstHandOdds>>) -> R,
) -> Option<R> {
    thread_local! {
        static SEEN: RefCell<HashMap<u64, Arc<Vec<FirstHandOdds>>>> = RefCell::default();
    }
    let flow = ruleset.banker()?;
    // A table hand has no first hand of one's own: its bots read the bets' odds instead; a
    // pot game's bots read the strength of their hand.
    // Arranged hands are valued by the house way as they are dealt: no odds.
    if flow.table_hand || flow.pot.is_some() || flow.play.is_some() || flow.arrange.is_some() {
        return None;
    }
    let key = ruleset.content_hash;
    if !SEEN.with(|s| s.borrow().contains_key(&key)) {
        let odds = computed_odds(ruleset, &mut |_, _| {})?;
        SEEN.with(|s| s.borrow_mut().insert(key, odds));
    }
    SEEN.with(|s| s.borrow().get(&key).map(f))
}

/// The process-wide odds of `ruleset`'s hands, computed on first use (the others wait for
/// them), `progress(done, total)` called as the computation goes; `None` when
/// [`check_odds_work`] refuses them.
fn computed_odds(
    ruleset: &Ruleset,
    progress: &mut dyn FnMut(u64, u64),
) -> Option<Arc<Vec<FirstHandOdds>>> {
    static COMPUTED: OnceLock<Mutex<HashMap<u64, Arc<Vec<FirstHandOdds>>>>> = OnceLock::new();
    let flow = ruleset.banker()?;
    // Arranged hands are valued by the house way as they are dealt: no odds.
    if flow.table_hand || flow.pot.is_some() || flow.play.is_some() || flow.arrange.is_some() {
        return None;
    }
    check_odds_work(ruleset).ok()?;
    let computed = COMPUTED.get_or_init(|| Mutex::new(HashMap::new()));
    let odds = Arc::clone(
        computed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(ruleset.content_hash)
            .or_insert_with(|| {
                // Hands drawn by rules per seat: every first hand and every hand at a choice,
                // looked up by the cards held.
                Arc::new(if has_seat_rules(flow) {
                    let total =
                        analysis::seat_work::seat_work(ruleset, flow, u128::MAX).player_hands;
                    let mut done = 0;
                    analysis::seats::seat_odds_with_progress(ruleset, flow, &mut |n| {
                        done += n;
                        progress(done, total);
                    })
                    .map(|o| o.all_hands())
                    .unwrap_or_default()
                } else {
                    let total = u64::try_from(analysis::deal_count(ruleset.deck.cards.len(), flow))
                        .unwrap_or(u64::MAX);
                    let mut done = 0u64;
                    analysis::first_hand_odds_with_progress(ruleset, flow, |n| {
                        done = done.saturating_add(n);
                        progress(done, total);
                    })
                })
            }),
    );
    Some(odds)
}

/// Works out the odds the bots of `ruleset` play from before play starts (a no-op when they
/// are known, or when [`check_odds_work`] refuses them), calling `progress(done, total)` as it
/// goes: a game that draws until 17 takes seconds, which show as progress, not as a first move
/// that never comes.
pub fn prepare_odds(ruleset: &Ruleset, progress: &mut dyn FnMut(u64, u64)) {
    if ruleset.banker().is_some_and(|f| f.play.is_some()) {
        progress(0, 1);
        play_model(ruleset);
        progress(1, 1);
        return;
    }
    computed_odds(ruleset, progress);
}

/// Hands played by actions: the infinite-deck model of `ruleset`, every first hand against
/// every shown card valued once per process (the bots' threads each take a copy, and value
/// the rarer hands they meet as they come).
pub(super) fn play_model(ruleset: &Ruleset) -> Option<Arc<analysis::play::PlayOdds>> {
    static MODELS: OnceLock<Mutex<HashMap<u64, Arc<analysis::play::PlayOdds>>>> = OnceLock::new();
    let flow = ruleset.banker().filter(|f| f.play.is_some())?;
    let models = MODELS.get_or_init(|| Mutex::new(HashMap::new()));
    let model = Arc::clone(
        models
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(ruleset.content_hash)
            .or_insert_with(|| {
                let mut m = analysis::play::PlayOdds::new(flow, &ruleset.deck);
                m.edge(analysis::play::Policy::Best);
                Arc::new(m)
            }),
    );
    Some(model)
}

/// True when drawing rules play the hands per seat (`[[flow.player_draw]]` or
/// `[[flow.banker_draw]]` without a table hand): the first-hand odds do not cover them.
pub fn has_seat_rules(flow: &crate::ruleset::BankerFlow) -> bool {
    !flow.table_hand
        && flow.play.is_none()
        && (!flow.player_draw.is_empty() || !flow.banker_draw.is_empty())
}

/// Whether bots may play from the exact odds of `ruleset`'s first hands: `Err` says why not when
/// computing them goes through more deals than `yaku analyze` runs without `--max-deals` (with
/// four first tiles and four for the banker, 220,884,300,000 deals: hours).
///
/// Known once per ruleset: a bot is made for every game of a simulation.
pub fn check_odds_work(ruleset: &Ruleset) -> Result<(), String> {
    static CHECKED: OnceLock<Mutex<HashMap<u64, Result<(), String>>>> = OnceLock::new();
    let checked = CHECKED.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(known) = checked
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&ruleset.content_hash)
    {
        return known.clone();
    }
    let result = check_work(ruleset);
    checked
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(ruleset.content_hash, result.clone());
    result
}

fn check_work(ruleset: &Ruleset) -> Result<(), String> {
    let Some(flow) = ruleset.banker() else {
        return Ok(());
    };
    // Hands played by actions are valued on an infinite deck as they are played: seconds.
    if flow.table_hand || flow.pot.is_some() || flow.play.is_some() || flow.arrange.is_some() {
        return Ok(());
    }
    if has_seat_rules(flow) {
        let cheap = "bots that need no odds: random, or a strategy file whose entries all name a bet and a draw";
        analysis::seats::check(ruleset, flow).map_err(|why| {
            format!(
                "it plays from the exact odds of every hand, and those of `{}` cannot be enumerated: {why}\n  = help: {cheap}",
                ruleset.id
            )
        })?;
        let most = u128::from(analysis::DEFAULT_MAX_HANDS_PLAYED);
        let work = analysis::seat_work::seat_work(ruleset, flow, most);
        if work.more || work.total() > most {
            return Err(format!(
                "it plays from the exact odds of every hand, which for `{}` play out {}{} banker's hands ({}): more than the {} a bot may take\n  = help: {cheap}",
                ruleset.id,
                if work.more { "more than " } else { "up to " },
                work.total(),
                work.words(),
                analysis::DEFAULT_MAX_HANDS_PLAYED
            ));
        }
        return Ok(());
    }
    let cards = ruleset.deck.cards.len();
    let deals = analysis::deal_count(cards, flow);
    if deals <= u128::from(analysis::DEFAULT_MAX_DEALS) {
        return Ok(());
    }
    let cheap: Vec<&str> = std::iter::once("random")
        .chain(
            analysis::strategy::bundled_names()
                .filter(|n| Strategy::load(n, ruleset).is_ok_and(|s| !s.needs_odds())),
        )
        .collect();
    Err(format!(
        "it plays from the exact odds of every first hand, which for `{}` go through {deals} deals ({}): more than the {} a bot may take\n  = help: bots that need no odds: {}, or a strategy file whose entries all name a bet and a draw",
        ruleset.id,
        analysis::enumeration_words(cards, flow),
        analysis::DEFAULT_MAX_DEALS,
        cheap.join(", ")
    ))
}

/// The bet of a table hand with the best expected result per chip from a full shoe (the first
/// on ties); `None` when the analysis cannot be made.
pub fn best_table_bet(ruleset: &Ruleset) -> Option<usize> {
    let bets = table_bets(ruleset)?;
    let mut best: Option<(usize, &analysis::Rational)> = None;
    for (i, (_, ev)) in bets.iter().enumerate() {
        if best.is_none_or(|(_, b)| ev > b) {
            best = Some((i, ev));
        }
    }
    best.map(|(i, _)| i)
}

/// Each bet of a table hand by name, with its expected result per chip from a full shoe,
/// computed once per ruleset and shared; `None` when the analysis cannot be made.
pub fn table_bets(ruleset: &Ruleset) -> Option<Arc<Vec<(String, analysis::Rational)>>> {
    type Bets = Option<Arc<Vec<(String, analysis::Rational)>>>;
    static COMPUTED: OnceLock<Mutex<HashMap<u64, Bets>>> = OnceLock::new();
    let flow = ruleset.banker()?;
    let computed = COMPUTED.get_or_init(|| Mutex::new(HashMap::new()));
    computed
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .entry(ruleset.content_hash)
        .or_insert_with(|| {
            let packs = flow.shoe.map_or(1, |s| s.packs);
            let odds = analysis::table::table_odds(flow, &ruleset.deck, packs).ok()?;
            Some(Arc::new(
                odds.bets.into_iter().map(|b| (b.name, b.ev)).collect(),
            ))
        })
        .clone()
}

/// The share of the other hands a seat's cards beat, by the ruleset's ranking (a tie counts
/// half): for a full hand, against every hand of as many cards from the rest of the deck; for
/// a hand still to be completed, averaged over the cards it may yet receive. Computed once per
/// ruleset and hand on each thread.
pub fn hand_strength(ruleset: &Ruleset, tiles: crate::deck::CardSet) -> f64 {
    use crate::deck::CardSet;
    use crate::families::banker::ranking::{compare, rank_hand};
    thread_local! {
        static SEEN: RefCell<HashMap<(u64, CardSet), f64>> = RefCell::default();
    }
    let key = (ruleset.content_hash, tiles);
    if let Some(v) = SEEN.with(|s| s.borrow().get(&key).copied()) {
        return v;
    }
    let Some(flow) = ruleset.banker() else {
        return 0.5;
    };
    let size: u32 = flow.pot.as_ref().map_or(2, |p| p.rounds.iter().sum());
    let deck = CardSet::first(ruleset.deck.cards.len());
    let rest = CardSet(deck.0 & !tiles.0);
    let v = if tiles.len() < size {
        let mut sum = 0.0;
        let mut n = 0.0;
        for c in rest.iter() {
            let mut more = tiles;
            more.insert(c);
            sum += hand_strength(ruleset, more);
            n += 1.0;
        }
        if n > 0.0 { sum / n } else { 0.5 }
    } else {
        let mine = rank_hand(flow, tiles);
        let (mut score, mut n) = (0.0, 0.0);
        analysis::combinations(rest, size, |other| {
            score += match compare(flow, &mine, &rank_hand(flow, other)) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
            n += 1.0;
        });
        if n > 0.0 { score / n } else { 0.5 }
    };
    SEEN.with(|s| s.borrow_mut().insert(key, v));
    v
}
