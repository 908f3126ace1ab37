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
