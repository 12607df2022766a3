//! The scoring script sandbox's tests: scoring and explaining, the limits on time and work,
//! what a script may not reach, the facts it reads and the results remembered for it.

use super::*;

fn compile(src: &str) -> Result<ScoringScript, Vec<Diagnostic>> {
    let mut sources = SourceMap::new();
    let file = sources.add("test.rhai", src);
    let mut errors = Vec::new();
    ScoringScript::compile(
        &sources,
        file,
        &Loc::new(file, 0..0),
        &["koikoi".to_string()],
        &[],
        &mut errors,
    )
    .ok_or(errors)
}

#[test]
fn scores_and_explains() {
    let s = compile(
        "fn score(hand) { let t = hand.base * (hand.koikoi + 1); \
         #{ total: t, steps: [#{ reason: \"koi-koi\", total: t }] } }",
    )
    .unwrap();
    let out = s
        .score(&HandFacts {
            base: 9,
            calls_self: 1,
            ..HandFacts::default()
        })
        .unwrap();
    assert_eq!(out.total, 18);
    assert_eq!(out.steps[0].reason, "koi-koi");
}

#[test]
fn runaway_script_is_stopped_with_file_and_line() {
    let s = compile("fn score(hand) {\n  let x = 0;\n  while x >= 0 { x += 1; }\n  x\n}").unwrap();
    let err = s.score(&HandFacts::default()).unwrap_err();
    assert!(err.message.starts_with("test.rhai:3:"), "{}", err.message);
    // The operation limit stops it; on a machine slow or busy enough (a debug build beside
    // other jobs) the time limit may come first, which stops it as well, at the same line.
    assert!(
        err.message.to_lowercase().contains("too many operations")
            || err.message.contains(TIME_LIMIT_MESSAGE),
        "{}",
        err.message
    );
}

#[test]
fn scripts_cannot_wait_or_read_the_clock() {
    for body in [
        "sleep(100000)",
        "sleep(1e300)",
        "sleep(0.5)",
        "timestamp().elapsed",
    ] {
        let s = compile(&format!("fn score(hand) {{\n  {body};\n  1\n}}")).unwrap();
        let err = s.score(&HandFacts::default()).unwrap_err();
        assert!(
            err.message.starts_with("test.rhai:2:"),
            "{body}: {}",
            err.message
        );
        assert!(err.message.contains("clock"), "{body}: {}", err.message);
    }
}

#[test]
fn slow_operations_are_stopped_by_the_clock() {
    // Each sort of 1,000 strings is a handful of operations but costs milliseconds:
    // the operation limit alone would let the call run for seconds.
    let s = compile(
        "fn score(hand) {\n  let a = [];\n  for i in 0..1000 { a.push(`${i * 7919 % 1000}`); }\n  \
         for j in 0..100000 { let b = a; b.sort(); }\n  1\n}",
    )
    .unwrap();
    let started = std::time::Instant::now();
    let err = s.score(&HandFacts::default()).unwrap_err();
    assert!(err.message.contains("took too long"), "{}", err.message);
    assert!(err.message.starts_with("test.rhai:"), "{}", err.message);
    // Generous: the limit is 0.5 s per run, and finding the line runs the call once more.
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}

#[test]
fn no_file_access_or_eval() {
    let s = compile("import \"x\" as y; fn score(hand) { 1 }");
    assert!(s.is_err() || s.unwrap().score(&HandFacts::default()).is_err());
    assert!(compile("fn score(hand) { eval(\"1\") }").is_err());
}

/// The facts a script reads, by name, or `None` for all of them.
fn reads(src: &str) -> Option<Vec<&'static str>> {
    let r = compile(src).unwrap().reads();
    let all = FACT_NAMES.iter().all(|n| r.reads(n)) && r.reads_extra();
    (!all).then(|| FACT_NAMES.into_iter().filter(|n| r.reads(n)).collect())
}

#[test]
fn a_family_fact_is_never_cached() {
    // `hand.seats` is not in FACT_NAMES: the cache key cannot hold it.
    assert!(
        compile("fn score(hand) { hand.seats.len() }")
            .unwrap()
            .reads()
            .reads_extra()
    );
    assert!(
        !compile("fn score(hand) { hand.base }")
            .unwrap()
            .reads()
            .reads_extra()
    );
    // Passed to a built-in function, `hand` may be observed whole.
    assert!(
        compile("fn score(hand) { type_of(hand).len() }")
            .unwrap()
            .reads()
            .reads_extra()
    );
}

#[test]
fn a_function_hand_is_passed_to_is_followed() {
    assert_eq!(
        reads("fn score(hand) { f(hand) } fn f(x) { 1 }"),
        Some(vec![])
    );
    assert_eq!(
        reads(
            "fn score(hand) { f(hand, 2) + 1 } fn f(h, n) { h.base * n + g(h) } fn g(y) { y.round }"
        ),
        Some(vec!["base", "round"])
    );
    // Recursion ends; a followed parameter used any other way is still anything.
    assert_eq!(
        reads(
            "fn score(hand) { f(hand, 3) } fn f(h, n) { if n == 0 { h.base } else { f(h, n - 1) } }"
        ),
        Some(vec!["base"])
    );
    assert_eq!(
        reads("fn score(hand) { f(hand) } fn f(h) { let x = h; x.base }"),
        None
    );
    // A family's facts are read by name through the calls too (Schnapsen's helpers).
    let script = compile(
        "fn score(hand) { switch hand.end { \"claim\" => t(hand), _ => 1 } } \
         fn t(hand) { if hand.tricks_opponent == 0 { 3 } else { 1 } }",
    )
    .unwrap();
    let extra = script.extra_reads.as_deref().cloned();
    assert_eq!(
        extra,
        Some(["end", "tricks_opponent"].map(String::from).into())
    );
}

/// Regression: the engine's string interner is a lock that every worker of a simulation
/// shares, and rhai sleeps 10 ms when it finds it taken: `yaku sim matgo` ran no faster on
/// two threads than on one.
#[test]
fn the_engine_keeps_no_lock_the_workers_share() {
    assert_eq!(sandbox().max_strings_interned(), 0);
}

#[test]
fn remembered_results_are_the_scripts_results() {
    // A family's facts (as a trick-taking hand's): the memo keys on the whole facts.
    let script = compile(
        "fn score(hand) { #{ total: hand.points_opponent * 10 + hand.round, \
         steps: [#{ reason: hand.end, total: 1 }] } }",
    )
    .unwrap();
    let other = compile("fn score(hand) { hand.round * 1000 }").unwrap();
    for round in 1..=3 {
        for (points, end) in [(0, "claim"), (33, "claim"), (33, "last_trick")] {
            let facts = HandFacts {
                round,
                extra: vec![
                    ("points_opponent", FactValue::Int(points)),
                    ("end", FactValue::Text(end.into())),
                ],
                ..HandFacts::default()
            };
            let first = script.score_memo(&facts).unwrap();
            assert_eq!(*first, script.score(&facts).unwrap());
            // Asked again, the result is the one remembered, and another script's
            // results are its own.
            assert!(Rc::ptr_eq(&first, &script.score_memo(&facts).unwrap()));
            assert_eq!(other.score_memo(&facts).unwrap().total, round * 1000);
        }
    }
}

/// What the compiled form returns, when it runs to the end, and what rhai returns.
fn both_ways(
    s: &ScoringScript,
    facts: &HandFacts,
) -> (
    Option<Result<ScoreOutcome, ScriptError>>,
    Result<ScoreOutcome, ScriptError>,
) {
    let compiled = s
        .compiled
        .as_ref()
        .and_then(|p| p.run(facts, &s.aliases, &s.options, false))
        .map(|r| match r {
            Ok(o) => Ok(o),
            Err(d) => ScoringScript::outcome(d, &s.file_name),
        });
    let hand = || {
        let mut hand = facts_to_map(facts, &s.aliases);
        hand.insert("options".into(), Dynamic::from_map((*s.options).clone()));
        hand
    };
    let rhai = s
        .run_score(hand)
        .and_then(|d| ScoringScript::outcome(d, &s.file_name));
    (compiled, rhai)
}

#[test]
fn compiled_scripts_return_what_rhai_returns() {
    use crate::yaku::{SeatFacts, TableFacts};
    let gostop = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/scripts/gostop.rhai"),
    )
    .unwrap();
    let scripts = [
        gostop.as_str(),
        "fn score(hand) { hand.base * (hand.koikoi + 1) + hand.table_count }",
        "fn score(hand) { if hand.dealer { hand.koikoi_self } else { hand.round * 10 } }",
        "fn score(hand) { let t = hand.base; while t < 1000 { t *= 3; if t % 2 == 0 { break; } } \
         let s = []; for i in 0..=hand.round { if i == 2 { continue; } s.push(#{ reason: `r${i} ${i > 1}`, total: i }); } \
         #{ total: t, steps: s, opponent: hand.calls_opponent } }",
        "fn score(hand) { f(hand, hand.round) } fn f(h, n) { if n <= 0 { return h.base; } 2 * f(h, n - 1) }",
        "fn score(hand) { let a = [1, 2, 3]; a[hand.round] = -a[0] * hand.base; #{ total: a[1] * a[1], pays: a } }",
        "fn score(hand) { #{ total: hand.base * 4611686018427387904 } }",
        "fn score(hand) { #{ total: 2 ** (hand.base - 2), seats: [hand.base, -hand.base], winner: hand.round - 2 } }",
        "fn score(hand) { let p = hand.seats[hand.round].tallies; #{ total: p.junk / hand.calls, pays: [p.brights, 0] } }",
        "fn score(hand) { let y = hand.seats[0].yaku; #{ total: y.len() + len(hand.seats), steps: [#{ reason: y[0] }] } }",
        "fn score(hand) { if hand.seats[0].yaku.contains(\"pi\") || !hand.instant && hand.draws_before > 1 { 1 } else { hand.no_such } }",
        "fn score(hand) { let s = \"\"; for i in 0..hand.base { s = `${s}${s}x`; } s.len() }",
    ];
    let seat = |winner, calls, junk, brights, yaku: &[&str]| SeatFacts {
        winner,
        calls,
        base: 3,
        tallies: vec![
            ("junk".into(), junk),
            ("animals".into(), 7 - junk.min(7)),
            ("brights".into(), brights),
        ],
        declared: vec![("shake".into(), i64::from(calls % 2)), ("bomb".into(), 0)],
        events: vec![("ppeok".into(), 1)],
        yaku: yaku.iter().map(|y| y.to_string()).collect(),
        captured: vec!["jan-crane".into()],
        team: None,
        dealt: Vec::new(),
    };
    let mut compared = 0;
    for src in scripts {
        let mut sources = SourceMap::new();
        let file = sources.add("test.rhai", src);
        let mut errors = Vec::new();
        let options = [
            crate::ruleset::RuleOption {
                id: "pi_bak_below".into(),
                value: crate::ruleset::OptionValue::Int(8),
                description: String::new(),
            },
            crate::ruleset::RuleOption {
                id: "meong_bak_from".into(),
                value: crate::ruleset::OptionValue::Int(7),
                description: String::new(),
            },
        ];
        let s = ScoringScript::compile(
            &sources,
            file,
            &Loc::new(file, 0..0),
            &["koikoi".to_string()],
            &options,
            &mut errors,
        )
        .unwrap();
        assert!(s.compiled.is_some(), "{src} is not compiled");
        for (base, round, calls, instant, draws) in [
            (0, 0, 0, false, 0),
            (7, 1, 1, false, 0),
            (9, 2, 3, false, 2),
            (12, 3, 5, true, 1),
            (66, 1, 0, false, 0),
        ] {
            let table = TableFacts {
                teams: Vec::new(),
                carry: None,
                seats: vec![
                    seat(
                        round != 1,
                        calls,
                        4 + base % 9,
                        base % 4,
                        &["pi", "samgwang"],
                    ),
                    seat(round == 1, calls / 2, 9, 0, &["godori"]),
                ],
                draws_before: draws,
            };
            let facts = HandFacts {
                base,
                round,
                calls_self: i64::from(calls),
                calls_opponent: 1,
                instant,
                extra: table.extra(),
                ..HandFacts::default()
            };
            let (compiled, rhai) = both_ways(&s, &facts);
            if let Some(compiled) = compiled {
                assert_eq!(compiled, rhai, "{src} on {facts:?}");
                compared += 1;
            }
        }
    }
    assert!(compared >= 40, "only {compared} runs compared");
}

#[test]
fn reads_are_the_properties_named_on_hand() {
    let cases: &[(&str, Option<&[&str]>)] = &[
        ("fn score(hand) { hand.base * 2 }", Some(&["base"])),
        (
            "fn score(h) { h.base + h.koikoi }",
            Some(&["base", "calls"]),
        ),
        (
            "fn score(hand) { hand.yaku.len() + hand.yaku[0].points }",
            Some(&["yaku"]),
        ),
        ("fn score(hand) { hand?.round }", Some(&["round"])),
        (
            "fn score(hand) { hand.base = 3; hand.base }",
            Some(&["base"]),
        ),
        ("fn score(hand) { hand.no_such_fact; 1 }", Some(&[])),
        ("fn score(hand) { 7 }", Some(&[])),
        // A helper with a parameter of the same name only adds reads.
        (
            "fn f(hand) { hand.dealer } fn score(hand) { hand.base + f(#{}) }",
            Some(&["base", "dealer"]),
        ),
        (
            "fn f(hand) { hand.dealer } fn score(x) { x.base + f(#{}) }",
            Some(&["base"]),
        ),
        // Passed to a function of the script: what it reads of its parameter.
        (
            "fn score(hand) { f(hand) } fn f(x) { x.base }",
            Some(&["base"]),
        ),
        // Anything else may observe every fact.
        ("fn score(hand) { hand[\"base\"] }", None),
        ("fn score(hand) { let h = hand; h.base }", None),
        ("fn score(hand) { hand.keys().len() }", None),
        ("fn score(hand) { for v in hand.values() {} 1 }", None),
        ("fn score(hand) { `${hand}`.len() }", None),
        (
            "fn score(hand) { if \"base\" in hand { 1 } else { 0 } }",
            None,
        ),
        (
            "fn score(hand) { let f = |x| hand.base + x; f.call(1) }",
            None,
        ),
        ("fn score(hand) { hand = #{}; 1 }", None),
        ("fn score(hand) { type_of(hand).len() }", None),
        ("fn score(hand) { switch hand { _ => 1 } }", None),
    ];
    for (src, expected) in cases {
        assert_eq!(reads(src).as_deref(), *expected, "{src}");
    }
}

#[test]
fn fact_positions_name_the_facts() {
    let positions = [
        (fact::YAKU, "yaku"),
        (fact::BASE, "base"),
        (fact::CALLS_SELF, "calls_self"),
        (fact::CALLS_OPPONENT, "calls_opponent"),
        (fact::CALLS, "calls"),
        (fact::TABLE_COUNT, "table_count"),
        (fact::ROUND, "round"),
        (fact::ROUNDS, "rounds"),
        (fact::DEALER, "dealer"),
        (fact::INSTANT, "instant"),
        (fact::EXHAUSTED, "exhausted"),
    ];
    assert_eq!(positions.len(), FACT_NAMES.len());
    for (i, name) in positions {
        assert_eq!(FACT_NAMES[i], name);
    }
}

#[test]
fn bundled_scripts_read_few_facts() {
    let read = |name| {
        let r = crate::ruleset::load(name).value.unwrap();
        let r = r.scoring.unwrap().reads();
        FACT_NAMES
            .into_iter()
            .filter(|n| r.reads(n))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        read("koikoi"),
        ["base", "calls_opponent", "instant", "exhausted"]
    );
    assert_eq!(
        read("koikoi-ktane"),
        [
            "base",
            "calls_self",
            "calls_opponent",
            "instant",
            "exhausted"
        ]
    );
    assert_eq!(
        read("koikoi-classic"),
        ["base", "calls_self", "table_count", "instant", "exhausted"]
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
    /// A cached or remembered result is the result of running the script on the facts
    /// themselves, for scripts that read some facts (directly or through their own
    /// functions) and scripts that read all of them.
    #[test]
    fn cached_results_are_the_scripts_results(
        calls in proptest::collection::vec(
            (0i64..4, 0u32..3, 0u32..3, 0i64..3, 1u32..4, 0u32..2, proptest::bool::ANY, 0u8..3),
            1..40,
        )
    ) {
        let scripts = [
            "fn score(hand) { hand.base * (hand.koikoi + 1) + hand.table_count }",
            "fn score(hand) { if hand.dealer { hand.koikoi_self } else { hand.round * 10 } }",
            "fn score(hand) { #{ total: hand.base, opponent: hand.koikoi_opponent, \
             steps: [#{ reason: `${hand.rounds} ${hand.instant} ${hand.exhausted}`, total: 1 }] } }",
            "fn score(hand) { hand.to_json().len() }",
            "fn score(hand) { hand.yaku.len() * 100 + hand.base }",
            "fn score(hand) { pts(hand, 2) * (hand.koikoi + 1) } \
             fn pts(h, n) { h.base * n + h.table_count }",
            "fn score(hand) { if hand.dealer { side(hand) } else { 1 } } \
             fn side(hand) { hand.points_opponent + hand.round }",
        ];
        for src in scripts {
            let script = compile(src).unwrap();
            for &(base, own, other, table_count, round, rounds, dealer, special) in &calls {
                let (instant, exhausted) = (special == 1, special == 2);
                let yaku = (0..base.min(2)).map(|i| ScriptYaku {
                    id: format!("y{i}"),
                    name: format!("Y{i}"),
                    points: 1,
                });
                let facts = HandFacts {
                    yaku: yaku.collect(),
                    base,
                    calls_self: i64::from(own),
                    calls_opponent: i64::from(other),
                    table_count,
                    round: i64::from(round),
                    rounds: i64::from(rounds),
                    dealer,
                    instant,
                    exhausted,
                    // Family facts (as a trick-taking hand's), one read by a script, one not.
                    extra: vec![
                        ("points_opponent", FactValue::Int(i64::from(other) * 10)),
                        ("closer", FactValue::Text(format!("seat {own}"))),
                    ],
                };
                let key = FactsKey {
                    yaku: (!instant && !exhausted).then_some((
                        (1 << base.min(2)) - 1,
                        u128::from(base >= 1) | u128::from(base >= 2) << 16,
                    )),
                    base,
                    calls: (own, other),
                    table_count,
                    round: (round, rounds),
                    dealer,
                    special: (instant, exhausted),
                };
                let cached = script.score_cached(key, || facts.clone()).unwrap();
                let run = script.score(&facts).unwrap();
                proptest::prop_assert_eq!(&*cached, &run, "{}", src);
                let remembered = script.score_memo(&facts).unwrap();
                proptest::prop_assert_eq!(&*remembered, &run, "{}", src);
            }
        }
    }
}

#[test]
fn missing_hook_and_syntax_errors_are_reported() {
    let errs = compile("fn scor(hand) { 1 }").unwrap_err();
    assert!(errs[0].message.contains("fn score(hand)"));
    let errs = compile("fn score(hand) {\n  1 +\n}").unwrap_err();
    assert!(errs[0].message.contains("does not compile"));
}
