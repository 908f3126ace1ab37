//! Fuzzing with proptest: arbitrary text, arbitrary JSON built from the language's own keys
//! and words, and mutated scripts (the examples, and every v0.3.0 and 2017 fixture script when
//! `../shared/fixtures` is present) go through the parser and (on small maps) the engine.
//! Nothing may panic or hang.

use marahel::Script;
use proptest::prelude::*;
use serde_json::Value;
use std::sync::LazyLock;

mod common;

/// The scripts mutations start from: the examples, then the fixture scripts (v0.3.0 and
/// 2017) when the fixtures are present.
static SEEDS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let mut v: Vec<String> = common::examples().into_iter().map(|(_, t)| t).collect();
    if let Some(dir) = common::fixtures() {
        for d in [dir.clone(), dir.join("legacy-2017")] {
            v.extend(common::scripts(&d).into_iter().map(|(_, text)| text));
        }
    }
    v
});

/// Object keys of both dialects, for arbitrary JSON that reaches past the first key check.
const KEYS: [&str; 36] = [
    "metadata",
    "min",
    "max",
    "entities",
    "neighborhoods",
    "regions",
    "type",
    "number",
    "parameters",
    "explorers",
    "region",
    "rules",
    "replace",
    "out",
    "repeats",
    "tiles",
    "changes",
    "directions",
    "heuristics",
    "dirprob",
    "change",
    "neighborhood",
    "trials",
    "minDimension",
    "maxDimension",
    "numberOfRegions",
    "numberOfTiles",
    "iterations",
    "lifespan",
    "name",
    "border",
    "color",
    "minNumber",
    "maxNumber",
    "solid",
    "empty",
];

/// Pieces of the language that mutations splice in.
const WORDS: [&str; 43] = [
    "self(any)",
    "all(solid)",
    "plus(out)",
    "dist(empty)",
    "dist(out)",
    "random",
    "noise2",
    "percent",
    "cpercent",
    "rpercent",
    "->",
    ",",
    "|",
    ":",
    ">=",
    "==",
    "<",
    "0",
    "-1",
    "3.5",
    "1e9",
    "solid:0",
    "bogus",
    "self(",
    ")",
    "narrow_rand",
    "turtle_drunk",
    "greedy",
    "connect",
    "wide_heur",
    "wide_rand",
    "bsp",
    "sampling",
    "equal",
    "1x1",
    "0x0",
    "3000x1",
    "all",
    "map",
    "5",
    // Characters of more than one byte, where text is cut by bytes.
    "é",
    "≥ ∞",
    "🌋",
];

fn run(text: &str) {
    if let Ok(script) = Script::parse(text) {
        // Keep maps small so each case is fast.
        let ((w0, h0), _) = script.size_range();
        let (w, h) = (w0.clamp(1, 24), h0.clamp(1, 24));
        // On a fresh thread: the engine's per-thread buffers are then sized for this map
        // alone (a buffer left larger by an earlier case would hide an overrun).
        std::thread::scope(|sc| {
            sc.spawn(|| {
                let _ = script.generate_sized(3, w, h);
            })
            .join()
            .expect("no panic")
        });
    }
}

/// Replaces a random string value (rules, names, parameters) in the JSON tree.
fn mutate(v: &mut Value, picks: &[(usize, usize)], depth: usize) {
    let Some(&(a, b)) = picks.get(depth) else {
        return;
    };
    match v {
        Value::Object(m) if !m.is_empty() => {
            let key = m.keys().nth(a % m.len()).unwrap().clone();
            mutate(m.get_mut(&key).unwrap(), picks, depth + 1);
        }
        Value::Array(items) if !items.is_empty() => {
            let n = items.len();
            if b % 7 == 0 {
                items.remove(a % n);
            } else {
                mutate(&mut items[a % n], picks, depth + 1);
            }
        }
        Value::String(s) => {
            let word = WORDS[b % WORDS.len()];
            let at = s
                .char_indices()
                .map(|(i, _)| i)
                .nth(a % (s.chars().count() + 1))
                .unwrap_or(s.len());
            match b % 3 {
                0 => s.insert_str(at, word),
                1 => *s = word.to_string(),
                _ => s.truncate(at),
            }
        }
        other => *other = Value::from(WORDS[b % WORDS.len()]),
    }
}

/// Cases per test: `PROPTEST_CASES`, else 192.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(192)
}

/// Arbitrary JSON: scalars from the language's words and numbers, arrays, and objects keyed
/// by the language's keys (and some others), nested a few levels.
fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        (0usize..WORDS.len()).prop_map(|i| Value::from(WORDS[i])),
        (-3i64..300).prop_map(Value::from),
        (-1.5f64..2.5).prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
        Just(Value::Null),
        "[a-z0-9|:,()<>=.x -]{0,24}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        let key = prop_oneof![
            4 => (0usize..KEYS.len()).prop_map(|i| KEYS[i].to_string()),
            1 => "[a-zA-Z]{1,8}",
        ];
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            proptest::collection::vec((key, inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

proptest! {
    // 192 cases per test; `PROPTEST_CASES=N` for a longer run.
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}") {
        run(&text);
    }

    #[test]
    fn arbitrary_json_never_panics(v in json()) {
        run(&v.to_string());
    }

    #[test]
    fn arbitrary_json_under_a_valid_head_never_panics(explorers in json(), regions in json()) {
        // A valid head, so the explorers and regions are what gets checked.
        let text = format!(
            r#"{{"metadata": {{"min": "9x7", "max": "16x12"}}, "entities": ["solid", "empty"],
                "regions": {regions}, "explorers": {explorers}}}"#
        );
        run(&text);
    }

    #[test]
    fn mutated_scripts_never_panic(
        which in 0usize..64,
        picks in proptest::collection::vec((0usize..64, 0usize..64), 1..6),
        rounds in 1usize..4,
    ) {
        let mut v: Value = serde_json::from_str(&SEEDS[which % SEEDS.len()]).unwrap();
        for r in 0..rounds {
            let shifted: Vec<_> = picks.iter().map(|&(a, b)| (a + r, b + 3 * r)).collect();
            mutate(&mut v, &shifted, 0);
        }
        run(&v.to_string());
    }

    #[test]
    fn arbitrary_rules_never_panic(
        rules in proptest::collection::vec(
            proptest::collection::vec(0usize..WORDS.len(), 1..8), 1..4),
        kind in 0usize..8,
    ) {
        let kinds = ["narrow_horz", "narrow_vert", "narrow_rand", "turtle_drunk", "greedy",
                     "connect", "wide_heur", "wide_rand"];
        let rules: Vec<String> = rules.iter()
            .map(|w| w.iter().map(|&i| WORDS[i]).collect::<Vec<_>>().join(" "))
            .collect();
        let heur = if kind == 4 || kind == 6 { r#""parameters": {"heuristics": "random"},"# } else { "" };
        let text = format!(
            r#"{{"metadata": {{"min": "12x9"}}, "entities": ["solid", "empty"],
                "explorers": [{{"type": "{}", {heur} "rules": {}}}]}}"#,
            kinds[kind], serde_json::to_string(&rules).unwrap());
        run(&text);
    }
}
