//! `LevelConfig` as JSON: documented field names, defaults for missing fields, unknown
//! fields refused, and `grid_core::overrides` paths (what `--set` uses) reach every field.

use grid_core::overrides::{Override, apply_all};
use mario_rooms::{LevelConfig, Library, generate};

#[test]
fn field_names_are_the_documented_ones_and_round_trip() {
    let cfg = LevelConfig::default();
    let json = serde_json::to_value(&cfg).unwrap();
    let mut names: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "check_playability",
            "difficulty",
            "fill",
            "finish_tags",
            "height",
            "length",
            "max_attempts",
            "sequence",
            "start_tags",
            "substitution"
        ]
    );
    assert_eq!(json["difficulty"], serde_json::json!([1.0, 3.0]));
    assert_eq!(json["sequence"][2]["role"], "hard");
    let back: LevelConfig = serde_json::from_value(json).unwrap();
    assert_eq!(back, cfg);
    let reference = LevelConfig::reference();
    let back: LevelConfig =
        serde_json::from_str(&serde_json::to_string(&reference).unwrap()).unwrap();
    assert_eq!(back, reference);
}

#[test]
fn overrides_set_fields_and_typos_are_errors() {
    let mut json = serde_json::to_value(LevelConfig::default()).unwrap();
    let sets: Vec<Override> = ["difficulty=[4.5,4.5]", "length=500", "sequence.0.role=hard"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    apply_all(&mut json, &sets).unwrap();
    let cfg: LevelConfig = serde_json::from_value(json).unwrap();
    assert_eq!(cfg.difficulty, Some((4.5, 4.5)));
    assert_eq!(cfg.sequence[0].role, "hard");
    let g = generate(&Library::builtin().unwrap(), &cfg, 2).unwrap();
    assert!(g.level.width() >= 500);
    let typo = serde_json::from_str::<LevelConfig>(r#"{"min_lenght": 5}"#).unwrap_err();
    assert!(typo.to_string().contains("min_lenght"), "{typo}");
    let older: LevelConfig = serde_json::from_str(r#"{"min_length": 300}"#).unwrap();
    assert_eq!(
        older.length, 300,
        "settings files may still name the length min_length"
    );
    let partial: LevelConfig = serde_json::from_str(r#"{"height": 20}"#).unwrap();
    assert_eq!(partial.height, 20);
    assert_eq!(partial.sequence, LevelConfig::default().sequence);
}
