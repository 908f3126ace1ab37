//! Scripts written by others: parameters an explorer ignores are warnings (errors in strict
//! mode), the README's names are accepted, and silent mistakes are errors. The scripts here
//! are small ones of our own with the shapes found in evolved scripts (every explorer given
//! the same parameter list, neighbourhoods whose centre is excluded with `2`).

use marahel::{MarahelError, Script};

/// An evolved-style script: every explorer carries the whole parameter list, whether its
/// type reads a parameter or not.
const EVOLVED: &str = r#"{
    "metadata": {"min": "14x14", "max": "14x14"},
    "entities": ["empty", "solid", "key"],
    "neighborhoods": {"ring": "111,121,111", "cross5": "00100,00100,11311,00100,00100"},
    "explorers": [
        {"type": "horz", "region": "map", "rules": ["self(any) -> self(solid:1|empty:1)"]},
        {"type": "horz", "region": "map",
         "parameters": {"repeats": "1", "replace": "buffer", "dirprob": "0.8",
                        "directions": "plus", "entities": "empty", "heuristics": "dist(out)"},
         "rules": ["cross5(empty) > 6 -> self(empty)", "ring(solid) > 6 -> self(solid)"]},
        {"type": "connect", "region": "map",
         "parameters": {"replace": "same", "directions": "plus", "entities": "empty",
                        "out": "solid", "changes": "40"},
         "rules": ["self(solid) -> self(empty)"]},
        {"type": "greedy", "region": "map",
         "parameters": {"repeats": "3", "directions": "all", "heuristics": "dist(empty)"},
         "rules": ["noise > 0.3, random < 0.2 -> self(key)"]}
    ]
}"#;

#[test]
fn ignored_parameters_are_warnings() {
    let script = Script::parse(EVOLVED).unwrap();
    let paths: Vec<_> = script.warnings().iter().map(|w| w.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "explorers[1].parameters.dirprob",
            "explorers[1].parameters.heuristics",
            "explorers[1].parameters.entities",
            "explorers[1].parameters.directions",
        ]
    );
    for w in script.warnings() {
        assert!(
            w.message.contains("no effect on a \"horz\" explorer"),
            "{w}"
        );
    }
    // The maps are made, the same for a seed.
    let a = script.generate(4).unwrap();
    assert_eq!(a, script.generate(4).unwrap());
    assert!(a.count("key") + a.count("empty") > 0);
    // Strict mode refuses the first.
    let e = Script::parse_strict(EVOLVED).unwrap_err();
    assert!(matches!(e, MarahelError::Strict { .. }), "{e:?}");
    assert_eq!(e.path(), "explorers[1].parameters.dirprob");
    assert!(e.to_string().ends_with("(an error in strict mode)"), "{e}");
}

#[test]
fn unknown_fields_stay_errors() {
    let text = EVOLVED.replace("\"dirprob\"", "\"dirprb\"");
    let e = Script::parse(&text).unwrap_err();
    assert_eq!(e.path(), "explorers[1].parameters.dirprb", "{e}");
    assert!(e.to_string().contains("unknown field"), "{e}");
}

fn one_explorer(kind: &str, params: &str, rules: &str, nbhs: &str) -> String {
    format!(
        r#"{{"metadata": {{"min": "12x12"}}, "entities": ["solid", "empty"],
            "neighborhoods": {{{nbhs}}},
            "explorers": [{{"type": "{kind}", "parameters": {{{params}}}, "rules": {rules}}}]}}"#
    )
}

#[test]
fn narrow_drunk_is_the_drunk_walker() {
    let rules = r#"["random < 0.5 -> self(empty)"]"#;
    let a = Script::parse(&one_explorer("narrow_drunk", r#""tiles": "60""#, rules, "")).unwrap();
    let b = Script::parse(&one_explorer("turtle_drunk", r#""tiles": "60""#, rules, "")).unwrap();
    assert_eq!(a.generate(9).unwrap(), b.generate(9).unwrap());
    assert!(a.warnings().is_empty());
}

#[track_caller]
fn refused(text: &str, path: &str, words: &[&str]) {
    let e = Script::parse(text).unwrap_err();
    assert_eq!(e.path(), path, "{e}");
    for w in words {
        assert!(e.to_string().contains(w), "{e} lacks {w:?}");
    }
}

#[test]
fn silent_mistakes_are_errors() {
    let ok = r#"["-> self(solid)"]"#;
    refused(
        &one_explorer("horz", "", ok, r#""corner": "110,110""#),
        "neighborhoods.corner",
        &["no centre", "2", "3"],
    );
    Script::parse(&one_explorer("horz", "", ok, r#""corner": "110,120""#)).unwrap();
    refused(
        &one_explorer("horz", "", r#""-> self(solid)""#, ""),
        "explorers[0].rules",
        &["expected an array of rule strings, found a string"],
    );
    for (exec, word) in [
        ("self(out)", "`out`"),
        ("plus(any)", "`any`"),
        ("self(solid|out:2)", "`out`"),
    ] {
        refused(
            &one_explorer("horz", "", &format!(r#"["-> {exec}"]"#), ""),
            "explorers[0].rules[0]",
            &["cannot write", word],
        );
    }
    // `any` and `out` stay usable in conditions, and `entity` in executers.
    let rules = r#"["self(any) > 0, plus(out) == 0 -> self(entity)"]"#;
    Script::parse(&one_explorer("horz", "", rules, "")).unwrap();
    refused(
        &one_explorer("turtle_drunk", r#""change": "often""#, ok, ""),
        "explorers[0].parameters.change",
        &["not a probability"],
    );
}

#[test]
fn heuristics_limits() {
    let six = r#""heuristics": "noise, random, dist(solid), noise2, noise3, noise4""#;
    let greedy = Script::parse(&one_explorer(
        "turtle_heur",
        six,
        r#"["-> self(empty)"]"#,
        "",
    ));
    greedy.unwrap().generate(1).unwrap();
    refused(
        &one_explorer("wide_heur", six, r#"["-> self(empty)"]"#, ""),
        "explorers[0].parameters.heuristics",
        &["6 heuristics", "at most 4"],
    );
}

#[test]
fn strict_mode_refuses_maps_with_warnings() {
    let text = one_explorer(
        "turtle_drunk",
        r#""tiles": "100000000""#,
        r#"["self(empty) -> self(solid)"]"#,
        "",
    );
    let lenient = Script::parse(&text).unwrap();
    assert_eq!(lenient.generate(2).unwrap().warnings.len(), 1);
    let e = Script::parse_strict(&text)
        .unwrap()
        .generate(2)
        .unwrap_err();
    assert_eq!(e.path(), "seed 2");
    assert!(e.to_string().contains("work budget"), "{e}");
}
