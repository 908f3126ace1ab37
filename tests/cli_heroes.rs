//! `levelgen heroes`: writes a valid .hmm and a PNG; bad templates exit 2 naming the zone.

mod common;
use common::bin;

#[test]
fn writes_hmm_and_png() {
    let dir = std::env::temp_dir().join(format!("levelgen_heroes_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("duel.hmm");
    let png = dir.join("duel.png");
    let st = bin()
        .args([
            "heroes",
            "examples/heroes/duel.json",
            "--config",
            "examples/heroes/config.json",
            "--size",
            "64",
            "--seed",
            "3",
            "--quiet",
        ])
        .arg("--out")
        .arg(&out)
        .arg("--png")
        .arg(&png)
        .status()
        .unwrap();
    assert!(st.success());
    let bytes = std::fs::read(&out).unwrap();
    let file = heroes_zones::hmm::HmmFile::parse(&bytes).unwrap();
    assert_eq!(file.side(), 64);
    assert_eq!(file.players.len(), 2);
    assert!(heroes_zones::hmm::validate(&file, &heroes_zones::hmm::Catalog::builtin()).ok());
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
}

#[test]
fn bad_template_exits_2_naming_the_zone() {
    let dir = std::env::temp_dir().join(format!("levelgen_heroes_bad_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let t = dir.join("bad.json");
    std::fs::write(
        &t,
        r#"{"name":"bad","zones":[{"surface":"GRASS","size":10,"index":0},{"surface":"WATER","size":10,"index":1}],
        "connections":[{"first":0,"second":1}]}"#,
    )
    .unwrap();
    let o = bin().args(["heroes"]).arg(&t).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("zones[1].surface"), "{err}");
    let o = bin()
        .args(["heroes", "/nonexistent/t.json"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn config_of_the_wrong_type_and_vcmi_choices_exit_2() {
    let dir = std::env::temp_dir().join(format!("levelgen_heroes_cfg_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("cfg.json");
    std::fs::write(&cfg, "[]").unwrap();
    let out = bin()
        .args(["heroes", "examples/heroes/duel.json", "--config"])
        .arg(&cfg)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cfg.json") && err.contains("object") && err.contains("found an array"),
        "{err}"
    );
    // A VCMI file with two templates: --template chooses, --players must be in range.
    let one = r#"{"minSize": "m", "maxSize": "xl", "players": "2", "zones": {"1": {"type": "playerStart", "owner": 1}, "2": {"type": "playerStart", "owner": 2}}, "connections": [{"a": "1", "b": "2", "guard": 5000}]}"#;
    let file = dir.join("two.json");
    std::fs::write(
        &file,
        format!("{{ \"A\": {one}, // first\n \"B\": {one} }}"),
    )
    .unwrap();
    let out = bin().arg("heroes").arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("choose one: \"A\", \"B\""));
    let out = bin()
        .arg("heroes")
        .arg(&file)
        .args(["--template", "B", "--players", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the template allows 2"));
    let hmm = dir.join("b.hmm");
    let st = bin()
        .arg("heroes")
        .arg(&file)
        .args(["--template", "B", "--quiet", "--out"])
        .arg(&hmm)
        .status()
        .unwrap();
    assert!(st.success());
    let f = heroes_zones::hmm::HmmFile::parse(&std::fs::read(&hmm).unwrap()).unwrap();
    assert_eq!((f.side(), f.players.len()), (128, 2));
}

/// The JSON map holds zones, objects (obstacles included) and connections, and `levelgen
/// check` reads it back; the TMX map's object layer, read by the `tiled` crate, holds the
/// same objects.
#[test]
fn json_and_tmx_carry_zones_and_objects() {
    let dir = common::fresh_dir("heroes", "exports");
    let json = dir.join("duel.json");
    let tmx = dir.join("duel.tmx");
    for out in [&json, &tmx] {
        let st = bin()
            .args(["heroes", "examples/heroes/duel.json", "--size", "64"])
            .args(["--seed", "3", "--quiet", "--out"])
            .arg(out)
            .status()
            .unwrap();
        assert!(st.success());
    }
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(doc["format"], "levelgen-heroes/1");
    assert_eq!(doc["zones"].as_array().unwrap().len(), 5);
    assert_eq!(doc["zoneOf"].as_array().unwrap().len(), 64);
    let objects = doc["objects"].as_array().unwrap();
    let count = |k: &str| objects.iter().filter(|o| o["kind"] == k).count();
    assert!(count("castle") >= 2);
    assert!(count("obstacle") > 100 && count("treasure") > 5 && count("guard") > 2);
    // A castle has its owner and 5x3 footprint; a guard its level and count.
    let castle = objects.iter().find(|o| o["kind"] == "castle").unwrap();
    assert!(castle["owner"].as_i64().unwrap() >= 0);
    assert_eq!(castle["footprint"].as_array().unwrap().len(), 15);
    let guard = objects.iter().find(|o| o["kind"] == "guard").unwrap();
    assert!(guard["level"].is_u64() && guard["count"].is_u64());
    let o = bin().arg("check").arg(&json).output().unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{said}");
    assert!(
        said.contains("ok: heroes JSON map, 64x64 map, 5 zones"),
        "{said}"
    );
    // A broken copy fails the check, naming the object.
    let mut bad = doc.clone();
    bad["objects"][0]["zone"] = serde_json::json!(99);
    let bad_path = dir.join("bad.json");
    std::fs::write(&bad_path, bad.to_string()).unwrap();
    let o = bin().arg("check").arg(&bad_path).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stdout).contains("objects[0]: zone 99 is not a zone"));
    let map = tiled::Loader::new().load_tmx_map(&tmx).unwrap();
    let layer = map.get_layer(1).unwrap().as_object_layer().unwrap();
    assert_eq!(layer.objects().len(), objects.len());
    let first = layer.objects().next().unwrap();
    assert_eq!(first.user_type, objects[0]["kind"].as_str().unwrap());
}
