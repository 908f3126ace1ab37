//! Bad scripts give typed errors that name the place and what was expected.

use marahel::{MarahelError, Script};

fn script(explorers: &str) -> String {
    format!(
        r#"{{"metadata": {{"min": "20x20", "max": "20x20"}},
            "regions": {{"type": "equal", "number": 4, "parameters": {{"min": "2x2"}}}},
            "entities": ["solid", "empty"],
            "explorers": [{explorers}]}}"#
    )
}

fn explorer(rule: &str) -> String {
    script(&format!(
        r#"{{"type": "narrow_horz", "region": "map", "rules": [{rule:?}]}}"#
    ))
}

fn err(text: &str) -> MarahelError {
    match Script::parse(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e,
    }
}

#[track_caller]
fn expect(text: &str, path: &str, words: &[&str]) -> MarahelError {
    let e = err(text);
    assert_eq!(e.path(), path, "{e}");
    let msg = e.to_string();
    for w in words {
        assert!(msg.contains(w), "{msg:?} lacks {w:?}");
    }
    e
}

#[test]
fn good_scripts_parse() {
    for rule in [
        "self(any) -> self(solid)",
        "-> self(solid:3|empty)",
        "all(solid) >= 5, random < 0.5 -> plus(empty)",
        "cpercent < 0.5, percent > 0.1, rpercent == 0 -> self(empty)",
        "dist(empty) > 2, dist(out) <= 1 -> self(solid)",
        "noise3 > 0, noise < 1, solid|empty > 4 -> self(empty)",
        "self(solid) -> self(empty), left(solid)",
        "all(solid) -> self(empty)",
    ] {
        Script::parse(&explorer(rule)).unwrap_or_else(|e| panic!("{rule}: {e}"));
    }
}

#[test]
fn syntax_and_shape_errors() {
    let e = expect("{\"metadata\": ", "1:13", &["JSON"]);
    assert!(matches!(e, MarahelError::Json { .. }), "{e:?}");
    expect("[]", "(script)", &["expected an object"]);
    expect(
        r#"{"entities": [], "explorers": []}"#,
        "metadata",
        &["missing"],
    );
    expect(
        r#"{"metadata": {"min": "5x5"}, "entities": "solid", "explorers": []}"#,
        "entities",
        &["array"],
    );
    expect(
        r#"{"metadata": {"min": "5x5"}, "entities": [], "explorers": [], "colour": 1}"#,
        "colour",
        &["unknown field", "metadata"],
    );
    expect(
        r#"{"metadata": {"min": "5y5"}, "entities": [], "explorers": []}"#,
        "metadata.min",
        &["WxH"],
    );
    expect(
        r#"{"metadata": {"min": "9x9", "max": "5x5"}, "entities": [], "explorers": []}"#,
        "metadata.max",
        &["smaller"],
    );
    expect(
        &script(r#"{"type": "narrow", "rules": ["-> self(solid)"], "parameters": {"repaets": 2}}"#),
        "explorers[0].parameters.repaets",
        &["unknown field", "repeats"],
    );
}

#[test]
fn rule_errors_name_the_rule() {
    let e = expect(
        &explorer("self(any) -> plsu(solid)"),
        "explorers[0].rules[0]",
        &["unknown neighbourhood \"plsu\"", "known: self, all, plus"],
    );
    assert!(matches!(e, MarahelError::BadRule { .. }));
    expect(
        &explorer("self(sollid) -> self(solid)"),
        "explorers[0].rules[0]",
        &["unknown entity \"sollid\"", "solid, empty"],
    );
    expect(
        &explorer("self(any) self(solid)"),
        "explorers[0].rules[0]",
        &["->"],
    );
    expect(
        &explorer("self(any) -> self(solid),"),
        "explorers[0].rules[0]",
        &["executer 2 is empty"],
    );
    expect(
        &explorer("self(any), -> self(solid)"),
        "explorers[0].rules[0]",
        &["condition 2 is empty"],
    );
    expect(
        &explorer("0 < random < 1 -> self(solid)"),
        "explorers[0].rules[0]",
        &["more than one comparison"],
    );
    expect(
        &explorer("random = 0.5 -> self(solid)"),
        "explorers[0].rules[0]",
        &["`=` is not an operator"],
    );
    expect(
        &explorer("foo > 1 -> self(solid)"),
        "explorers[0].rules[0]",
        &["unknown estimator \"foo\"", "random"],
    );
    expect(
        &explorer("-> self(solid:0|empty:0)"),
        "explorers[0].rules[0]",
        &["all weights", "zero"],
    );
    expect(
        &explorer("-> self(solid:-1)"),
        "explorers[0].rules[0]",
        &["weight"],
    );
    expect(
        &explorer("-> solid"),
        "explorers[0].rules[0]",
        &["neighbourhood(entities)"],
    );
    expect(
        &explorer("self(any) -> self(solid) -> x"),
        "explorers[0].rules[0]",
        &["more than one `->`"],
    );
}

#[test]
fn explorer_and_region_errors() {
    expect(
        &script(r#"{"type": "narow_horz", "rules": ["-> self(solid)"]}"#),
        "explorers[0].type",
        &["unknown explorer type", "narrow_horz"],
    );
    expect(
        &script(r#"{"type": "narrow", "region": "7", "rules": ["-> self(solid)"]}"#),
        "explorers[0].region",
        &["at most 4"],
    );
    expect(
        &script(r#"{"type": "narrow", "region": "everything", "rules": ["-> self(solid)"]}"#),
        "explorers[0].region",
        &["unknown region", "map", "all"],
    );
    expect(
        &script(r#"{"type": "narrow", "rules": []}"#),
        "explorers[0].rules",
        &["no rules"],
    );
    expect(
        &script(r#"{"type": "narrow"}"#),
        "explorers[0].rules",
        &["missing"],
    );
    expect(
        &script(r#"{"type": "narrow", "parameters": {"repeats": 0}, "rules": ["-> self(solid)"]}"#),
        "explorers[0].parameters.repeats",
        &["from 1"],
    );
    expect(
        &script(
            r#"{"type": "narrow", "parameters": {"repeats": "-1"}, "rules": ["-> self(solid)"]}"#,
        ),
        "explorers[0].parameters.repeats",
        &["whole number"],
    );
    expect(
        &script(
            r#"{"type": "narrow", "parameters": {"replace": "bufer"}, "rules": ["-> self(solid)"]}"#,
        ),
        "explorers[0].parameters.replace",
        &["same, buffer"],
    );
    expect(
        &script(r#"{"type": "greedy", "rules": ["-> self(solid)"]}"#),
        "explorers[0].parameters.heuristics",
        &["missing"],
    );
    // A parameter the explorer ignores is a warning; strict mode makes it an error.
    let ignored = script(
        r#"{"type": "narrow", "parameters": {"heuristics": "random"}, "rules": ["-> self(solid)"]}"#,
    );
    let e = Script::parse_strict(&ignored).unwrap_err();
    assert_eq!(e.path(), "explorers[0].parameters.heuristics", "{e}");
    assert!(matches!(e, MarahelError::Strict { .. }), "{e:?}");
    assert!(e.to_string().contains("no effect"), "{e}");
    expect(
        &script(r#"{"type": "drunk", "parameters": {"change": 2}, "rules": ["-> self(solid)"]}"#),
        "explorers[0].parameters.change",
        &["probability"],
    );
    expect(
        &script(
            r#"{"type": "connect", "parameters": {"directions": "horz"}, "rules": ["-> self(solid)"]}"#,
        ),
        "explorers[0].parameters.directions",
        &["left, right, up and down"],
    );
    expect(
        &script(
            r#"{"type": "drunk", "parameters": {"directions": "plsu"}, "rules": ["-> self(solid)"]}"#,
        ),
        "explorers[0].parameters.directions",
        &["unknown neighbourhood", "plus"],
    );
    expect(
        &script(r#"{"type": "drunk", "parameters": {"dirprob": 2}, "rules": ["-> self(solid)"]}"#),
        "explorers[0].parameters.dirprob",
        &["probability"],
    );
    expect(
        &script(
            r#"{"type": "greedy", "parameters": {"heuristics": "noise, bogus"}, "rules": ["-> self(solid)"]}"#,
        ),
        "explorers[0].parameters.heuristics",
        &["unknown estimator \"bogus\""],
    );
}

#[test]
fn divider_and_neighbourhood_errors() {
    let base = |regions: &str, nbh: &str| {
        format!(
            r#"{{"metadata": {{"min": "50x50"}}, "regions": {regions}, "neighborhoods": {nbh},
               "entities": ["a"], "explorers": [{{"rules": ["-> self(a)"]}}]}}"#
        )
    };
    expect(
        &base(r#"{"type": "bps"}"#, "{}"),
        "regions.type",
        &["unknown divider \"bps\"", "bsp"],
    );
    expect(
        &base(r#"{"number": 3}"#, "{}"),
        "regions.type",
        &["missing"],
    );
    expect(
        &base(
            r#"{"type": "bsp", "number": 30, "parameters": {"min": "10x10"}}"#,
            "{}",
        ),
        "regions.number",
        &["impossible", "at most 25"],
    );
    let e = expect(
        &base(
            r#"{"type": "sampling", "parameters": {"min": "60x10"}}"#,
            "{}",
        ),
        "regions.parameters.min",
        &["do not fit"],
    );
    assert!(matches!(e, MarahelError::Impossible { .. }));
    expect(
        &base(
            r#"{"type": "bsp", "parameters": {"min": "10x10", "max": "5x5"}}"#,
            "{}",
        ),
        "regions.parameters.max",
        &["smaller"],
    );
    expect(
        &base("null", r#"{"ring": "010,141,010"}"#),
        "neighborhoods.ring",
        &["'4'"],
    );
    expect(
        &base("null", r#"{"ring": ""}"#),
        "neighborhoods.ring",
        &["empty"],
    );
    expect(
        &base("null", r#"{"ring": "000,020,000"}"#),
        "neighborhoods.ring",
        &["selects no cell"],
    );
}

#[test]
fn entity_errors() {
    let e = |ents: &str| {
        format!(
            r#"{{"metadata": {{"min": "5x5"}}, "entities": {ents}, "explorers": [{{"rules": ["-> self(out)"]}}]}}"#
        )
    };
    expect(&e(r#"["a", "a"]"#), "entities[1]", &["duplicate"]);
    expect(&e(r#"["any"]"#), "entities[0]", &["reserved"]);
    expect(
        &e(r#"["1up"]"#),
        "entities[0]",
        &["not a usable entity name"],
    );
    expect(&e(r#"["a", 3]"#), "entities[1]", &["expected a string"]);
}

#[test]
fn size_override_is_checked() {
    let s = Script::parse(&explorer("-> self(solid)")).unwrap();
    assert!(s.generate_sized(1, 0, 5).is_err());
    assert!(
        s.generate_sized(1, 1, 1).is_err(),
        "2x2 divisions need 2x2 cells"
    );
    assert!(s.generate_sized(1, 2, 2).is_ok());
    assert_eq!(s.generate_sized(1, 30, 12).unwrap().count("solid"), 360);
}

/// A condition with characters of more than one byte is an error, not a panic.
#[test]
fn non_ascii_rule_text_is_an_error() {
    for rule in [
        "é > 1 -> self(solid)",
        "solid > é -> self(solid)",
        "ü -> self(solid)",
    ] {
        let e = expect(&explorer(rule), "explorers[0].rules[0]", &["in rule"]);
        assert!(matches!(e, MarahelError::BadRule { .. }), "{e}");
    }
}
