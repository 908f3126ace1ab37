//! `turtle_connect`'s walk for rules that only read and write the visited cell (a table from
//! the cell's code to the value written, `explorer/connect/walk.rs`) must give the maps of
//! the interpreter (`Script::without_compiled_rules`, which always takes the general walk):
//! same cells, same warnings. Checked on scripts that take the table walk (several rules,
//! weighted lists, constant conditions, a firing limit, longer steps and every direction) and on
//! scripts that miss it (draws, choice lists, other neighbourhoods, `percent`).

use marahel::Script;

/// A script: a random fill, then `turtle_connect` with `params` and `rules`.
fn script(params: &str, rules: &[&str]) -> String {
    let rules: Vec<String> = rules.iter().map(|r| format!("{r:?}")).collect();
    format!(
        r#"{{
  "metadata": {{ "min": "12x12", "max": "45x38" }},
  "regions": {{ "type": "bsp", "number": "4", "parameters": {{ "min": "6x6", "max": "20x20" }} }},
  "entities": ["a", "b", "c", "d"],
  "neighborhoods": {{ "plus": "010,131,010", "diamond": "00100,01110,11311,01110,00100", "far": "0001000,0000000,0001000,1113111,0001000,0000000,0001000" }},
  "explorers": [
    {{ "type": "narrow_horz", "region": "map", "rules": ["self(any) -> self(a:5|b:3|c:1|d:1)"] }},
    {{ "type": "turtle_connect", "region": "map", "parameters": {{ {params} }}, "rules": [{}] }},
    {{ "type": "turtle_connect", "region": "all", "parameters": {{ {params} }}, "rules": [{}] }}
  ]
}}"#,
        rules.join(", "),
        rules.join(", ")
    )
}

/// Asserts that `text` gives the same maps compiled and interpreted.
fn same_maps(text: &str) {
    let compiled = Script::parse(text).unwrap_or_else(|e| panic!("{e:?}: {text}"));
    let interpreted = compiled.clone().without_compiled_rules();
    for seed in 0..40 {
        let sizes = [None, Some((12, 12)), Some((64, 50)), Some((70, 9))];
        for size in sizes {
            let (a, b) = match size {
                None => (compiled.generate(seed), interpreted.generate(seed)),
                Some((w, h)) => (
                    compiled.generate_sized(seed, w, h),
                    interpreted.generate_sized(seed, w, h),
                ),
            };
            let (a, b) = (a.unwrap(), b.unwrap());
            assert_eq!(a.cells, b.cells, "seed {seed} size {size:?}: {text}");
            assert_eq!(a.warnings, b.warnings, "seed {seed} size {size:?}: {text}");
        }
    }
}

const PARAMS: [&str; 6] = [
    r#""entities": "b""#,
    r#""entities": "b|c", "neighborhood": "plus""#,
    r#""entities": "a", "directions": "diamond""#,
    r#""entities": "b", "changes": "7", "repeats": "2""#,
    r#""entities": "c|d", "directions": "far", "changes": "1""#,
    r#""entities": "d", "directions": "all""#,
];

#[test]
fn table_walk_rules_match_the_interpreter() {
    let rule_sets: [&[&str]; 6] = [
        &["self(a) -> self(b)"],
        &["self(a)->self(b)", "self(c) -> self(d)"],
        &["self(any) -> self(b)"],
        &[
            "self(b:2|c) >= 2 -> self(a)",
            "3 > self(a:2|d), self(b)==0 -> self(c)",
        ],
        &["1 < 2, self(d) != 1 -> self(d)", "self(d) -> self(a)"],
        &["2 < 1 -> self(c)", "self(a) <= 0 -> self(a)"],
    ];
    for params in PARAMS {
        for rules in rule_sets {
            same_maps(&script(params, rules));
        }
    }
}

#[test]
fn other_rules_match_the_interpreter() {
    let rule_sets: [&[&str]; 6] = [
        &["self(a), random < 0.5 -> self(b)"],
        &["self(a) -> self(b:1|c:1)"],
        &["self(a) -> plus(b)"],
        &["self(a), percent < 0.5 -> self(b)", "self(c) -> self(d)"],
        &["plus(a) > 1 -> self(b)"],
        &[
            "self(c), cpercent < 0.3 -> self(a)",
            "self(a) -> self(b), self(c)",
        ],
    ];
    for params in PARAMS {
        for rules in rule_sets {
            same_maps(&script(params, rules));
        }
    }
}
