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
