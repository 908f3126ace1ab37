//! Hostile input: limits checked before any work, wrong JSON types rejected with their
//! path, error messages of bounded size.

use heroes_zones::validate::{MAX_CONNECTIONS, MAX_PORTAL_PAIRS, MAX_ZONES};
use heroes_zones::{Config, HeroesError, Template, generate};

fn zone(i: usize) -> String {
    format!(r#"{{"surface":"GRASS","size":10,"index":{i}}}"#)
}

fn template(n: usize, edges: &[(usize, usize, &str)]) -> String {
    let zones: Vec<String> = (0..n).map(zone).collect();
    let conns: Vec<String> = edges
        .iter()
        .map(|(a, b, t)| format!(r#"{{"first":{a},"second":{b},"type":"{t}"}}"#))
        .collect();
    format!(
        r#"{{"name":"t","zones":[{}],"connections":[{}]}}"#,
        zones.join(","),
        conns.join(",")
    )
}

/// The error of generating `json`, which must be a validation error (so it came before the
/// layout ran).
fn validation_error(json: &str, size: u32) -> String {
    let t = Template::from_json(json).unwrap();
    match generate(&t, &Config::default(), size, 1) {
        Err(e @ (HeroesError::Invalid { .. } | HeroesError::Many(_))) => e.to_string(),
        other => panic!("expected a validation error, got {other:?}"),
    }
}

#[test]
fn too_many_zones_fail_before_layout_naming_the_limit() {
    let n = 255;
    let edges: Vec<(usize, usize, &str)> = (1..n).map(|i| (i - 1, i, "REGULAR")).collect();
    let e = validation_error(&template(n, &edges), 256);
    assert!(
        e.contains(&format!("255 zones, at most {MAX_ZONES}")),
        "{e}"
    );
    let edges: Vec<(usize, usize, &str)> = (0..MAX_CONNECTIONS + 1)
        .map(|i| (i % 5, 5, "REGULAR"))
        .collect();
    let e = validation_error(&template(6, &edges), 256);
    assert!(e.contains(&format!("at most {MAX_CONNECTIONS}")), "{e}");
}

#[test]
fn portal_budget_is_checked_before_layout() {
    // K7: 21 pairs, a planar map of 7 zones lets at most 15 share a border, so 6 would be
    // portals; with one PORTAL connection more that is 7 > 6.
    let mut edges = Vec::new();
    for a in 0..7 {
        for b in a + 1..7 {
            edges.push((a, b, "REGULAR"));
        }
    }
    let e = validation_error(
        &template(8, &[edges.clone(), vec![(6, 7, "PORTAL")]].concat()),
        256,
    );
    assert!(e.contains("6 would become portal pairs"), "{e}");
    assert!(
        e.contains(&format!("{MAX_PORTAL_PAIRS} portal pairs")),
        "{e}"
    );
    // K7 alone needs exactly 6: allowed by the check (the layout decides the rest).
    assert!(heroes_zones::validate::portal_shortfall(7, 21, 0).is_none());
    assert!(heroes_zones::validate::portal_shortfall(7, 21, 1).is_some());
    assert!(heroes_zones::validate::portal_shortfall(2, 1, 6).is_none());
}

#[test]
fn wrong_json_types_are_rejected_with_their_path() {
    for (text, at, found) in [
        ("[]", "$", "an array"),
        ("7", "$", "a number"),
        (
            r#"{"connectionGuardLevel":[1,3]}"#,
            "$.connectionGuardLevel",
            "an array",
        ),
        (r#"{"guardCount":[[1,2]]}"#, "$.guardCount[0]", "an array"),
    ] {
        match Config::from_json(text) {
            Err(HeroesError::WrongType {
                what,
                at: a,
                found: f,
                ..
            }) => {
                assert_eq!((what, a.as_str(), f), ("config", at, found), "{text}");
            }
            other => panic!("{text}: expected WrongType, got {other:?}"),
        }
    }
    let e = Template::from_json("[]").unwrap_err().to_string();
    assert_eq!(e, "template JSON at $: expected an object, found an array");
    // Well-typed documents still parse.
    assert!(Config::from_json("{}").is_ok());
    assert!(Config::from_json(r#"{"treasureCost":[1,2,3,4]}"#).is_ok());
}

#[test]
fn errors_quote_input_briefly() {
    let long = "x".repeat(20_000);
    let cases = [
        format!(r#"{{"name":"t","zones":[],"connections":[],"{long}":1}}"#),
        format!(
            r#"{{"name":"t","zones":[{{"surface":"{long}","size":1,"index":0}}],"connections":[]}}"#
        ),
        format!(r#"{{"name":"t","zones":[],"connections":[],"{long}":[1]}}"#),
        format!(
            r#"{{"name":"t","zones":[{{"surface":"GRASS","size":"{long}","index":0}}],"connections":[]}}"#
        ),
    ];
    for text in &cases {
        let e = Template::from_json(text).unwrap_err().to_string();
        assert!(
            e.len() < 400,
            "{} bytes: {}",
            e.len(),
            &e[..200.min(e.len())]
        );
    }
    // The JSON location is named once.
    let e = Template::from_json("{\n  \"name\": 1")
        .unwrap_err()
        .to_string();
    assert_eq!(e.matches("line").count(), 1, "{e}");
    // A template whose every zone is wrong lists a bounded number of problems.
    let zones: Vec<String> = (0..60)
        .map(|i| format!(r#"{{"surface":"GRASS","size":-1,"index":{i}}}"#))
        .collect();
    let json = format!(
        r#"{{"name":"{}","zones":[{}],"connections":[]}}"#,
        "n".repeat(5000),
        zones.join(",")
    );
    let e = validation_error(&json, 256);
    assert!(e.len() < 4000, "{} bytes", e.len());
    assert!(e.contains("more"), "{e}");
    assert!(e.contains("name: 5000 characters, at most 200"), "{e}");
}

#[test]
fn oversized_input_is_refused_before_parsing() {
    let text = format!(
        r#"{{"name":"{}"}}"#,
        " ".repeat(heroes_zones::template::MAX_INPUT_BYTES)
    );
    let e = Template::from_json(&text).unwrap_err().to_string();
    assert!(e.contains("at most"), "{e}");
}
