//! Fuzzing with proptest: arbitrary text, arbitrary JSON, and mutated fixture/example scripts
//! go through the parser and (on small maps) the engine. Nothing may panic or hang.

use marahel::Script;
use proptest::prelude::*;
use serde_json::Value;

mod common;

use common::EXAMPLES as SEEDS;

/// Pieces of the language that mutations splice in.
const WORDS: [&str; 40] = [
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
];

fn run(text: &str) {
    if let Ok(script) = Script::parse(text) {
        // Keep maps small so each case is fast.
        let ((w0, h0), _) = script.size_range();
        let (w, h) = (w0.clamp(1, 24), h0.clamp(1, 24));
        let _ = script.generate_sized(3, w, h);
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}") {
        run(&text);
    }

    #[test]
    fn mutated_scripts_never_panic(
        which in 0usize..SEEDS.len(),
        picks in proptest::collection::vec((0usize..64, 0usize..64), 1..6),
        rounds in 1usize..4,
    ) {
        let mut v: Value = serde_json::from_str(SEEDS[which]).unwrap();
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
