//! Work charged by what rules cost: a visit reading a big neighbourhood counts as the reads it
//! makes, so scripts with big neighbourhoods end at the budget (with a warning) or at the
//! neighbourhood limit (with an error), the same under every acceleration strategy, and
//! [`Script::budget_warnings`] flags them before they run.

mod common;

use marahel::cost::{MAX_NBH_CELLS, READS_PER_VISIT};
use marahel::explorer::visit_budget;
use marahel::{MarahelError, Script};

/// A full `side` x `side` matrix with its centre counted (`3`).
fn square(side: usize) -> String {
    let c = side / 2;
    let row = |y: usize| -> String {
        (0..side)
            .map(|x| if (x, y) == (c, c) { '3' } else { '1' })
            .collect()
    };
    (0..side).map(row).collect::<Vec<_>>().join(",")
}

/// A `w` x `h` script with a `side` x `side` neighbourhood `big`: a fill, then `explorer`.
fn big_script(w: usize, h: usize, side: usize, explorer: &str) -> String {
    format!(
        r#"{{"metadata": {{"min": "{w}x{h}", "max": "{w}x{h}"}},
            "entities": ["solid", "empty"],
            "neighborhoods": {{"big": "{}"}},
            "explorers": [
              {{"type": "narrow_horz", "region": "map", "rules": ["self(any) -> self(solid)"]}},
              {explorer}]}}"#,
        square(side)
    )
}

/// A scan repeated a million times, reading the big neighbourhood at every cell.
const SCAN: &str = r#"{"type": "narrow_horz", "region": "map",
    "parameters": {"repeats": "1000000"}, "rules": ["big(solid) > 100 -> self(empty)"]}"#;

/// A drunk walker asking for 10^12 steps, reading and writing the big neighbourhood.
const WALK: &str = r#"{"type": "turtle_drunk", "region": "map",
    "parameters": {"tiles": "1000000000000"}, "rules": ["big(solid) > 100 -> big(empty)"]}"#;

#[test]
fn a_neighbourhood_past_the_limit_is_a_limit_error() {
    // 401x401 = 160,801 cells, the shape of the 161 KB script on a 512x512 map.
    let err = Script::parse(&big_script(512, 512, 401, SCAN)).unwrap_err();
    let MarahelError::Limit { path, message } = &err else {
        panic!("{err}");
    };
    assert_eq!(path, "neighborhoods.big");
    assert!(message.contains("160801 cells"), "{message}");
    assert!(message.contains(&MAX_NBH_CELLS.to_string()), "{message}");
    // 255x255 = 65,025 cells is within the limit.
    assert!(Script::parse(&big_script(12, 9, 255, SCAN)).is_ok());
}

#[test]
fn a_visit_is_charged_the_cells_it_reads() {
    let script = Script::parse(&big_script(12, 9, 255, SCAN)).unwrap();
    let ex = &script.program().explorers[1];
    let map = grid_core::Rect::new(0, 0, 12, 9);
    // The cell, the neighbourhood, the constant, the executer's cell.
    assert_eq!(ex.cost.reads(map), 1 + 255 * 255 + 1 + 1);
    assert_eq!(
        ex.cost.weight(map),
        (255 * 255 + 3u64).div_ceil(READS_PER_VISIT)
    );
    // The shipped examples and the fixtures read at most READS_PER_VISIT cells per visit:
    // charged as before.
    let mut scripts: Vec<(String, String)> = common::examples()
        .into_iter()
        .map(|(n, t)| (n.to_string(), t))
        .collect();
    if let Some(dir) = common::fixtures() {
        scripts.extend(common::scripts(&dir));
        scripts.extend(common::scripts(&dir.join("legacy-2017")));
    }
    for (name, text) in scripts {
        for ex in &Script::parse(&text).unwrap().program().explorers {
            assert_eq!(ex.cost.weight(map), 1, "{name} {}", ex.path);
        }
    }
}

/// Each hostile script ends with one warning naming the budget and the weight of a visit, and
/// is flagged beforehand. With `all`, it also gives the same map with every strategy and with
/// none, and is an error in strict mode.
#[track_caller]
fn ends_at_the_budget(w: usize, h: usize, side: usize, explorer: &str, all: bool) {
    let text = big_script(w, h, side, explorer);
    let script = Script::parse(&text).unwrap();
    let flagged = script.budget_warnings(w, h);
    assert_eq!(flagged.len(), 1, "{flagged:?}");
    assert_eq!(flagged[0].path, "explorers[1]");
    assert!(
        flagged[0].message.contains("over its work budget"),
        "{flagged:?}"
    );
    let map = script.generate(1).unwrap();
    assert_eq!(map.warnings.len(), 1, "{:?}", map.warnings);
    let budget = visit_budget((w * h) as u64);
    let warning = &map.warnings[0];
    assert!(
        warning.starts_with(&format!(
            "explorers[1]: stopped at its work budget of {budget}"
        )),
        "{warning}"
    );
    assert!(warning.contains("counts as"), "{warning}");
    if all {
        #[cfg(feature = "accel")]
        {
            let plain = script
                .clone()
                .with_accel(marahel::Accel::none())
                .generate(1)
                .unwrap();
            assert_eq!(plain.cells, map.cells);
            assert_eq!(plain.warnings, map.warnings);
        }
        assert!(Script::parse_strict(&text).unwrap().generate(1).is_err());
    }
}

#[test]
fn a_big_neighbourhood_on_a_small_map_ends_at_the_budget() {
    // The 12x9 map of the 1 MB script, with the largest neighbourhood allowed: the budget
    // lets it read about 67 million cells (MIN_VISITS times READS_PER_VISIT), which take
    // seconds in a debug build, so it runs once here.
    ends_at_the_budget(12, 9, 255, SCAN, false);
    ends_at_the_budget(12, 9, 255, WALK, false);
}

#[test]
fn big_neighbourhoods_on_a_large_map_end_at_the_budget() {
    // A scan is skipped whole once its weighted visits pass what is left.
    ends_at_the_budget(512, 512, 255, SCAN, true);
    ends_at_the_budget(300, 200, 101, SCAN, true);
}

#[test]
fn ordinary_scripts_are_not_flagged() {
    for (name, text) in common::examples() {
        let script = Script::parse(&text).unwrap();
        let (_, (w, h)) = script.size_range();
        assert_eq!(script.budget_warnings(w, h), [], "{name}");
    }
    // A million repeats of a plain scan are flagged at any size.
    let text = big_script(50, 50, 3, SCAN);
    assert_eq!(
        Script::parse(&text).unwrap().budget_warnings(50, 50).len(),
        1
    );
}

/// A 64x64 map whose second explorer visits 100,000 random cells, reading `dist(solid)` at
/// each and writing it solid or empty at random: in the core, every change (about one visit
/// in two) makes the next reading compute the region's plane again (4,096 cells), about
/// 2 * 10^8 reads against a budget of 2^20 visits of 64 reads.
const DIST_AFTER_EVERY_WRITE: &str = r#"{"metadata": {"min": "64x64", "max": "64x64"},
    "entities": ["solid", "empty"],
    "explorers": [
      {"type": "narrow_horz", "rules": ["random < 0.02 -> self(solid)", "-> self(empty)"]},
      {"type": "narrow_rand", "parameters": {"tiles": "100000", "changes": "100000"},
       "rules": ["dist(solid) >= 0, random < 0.5 -> self(solid)", "-> self(empty)"]}]}"#;

#[test]
fn dist_computed_again_after_every_write_is_charged_and_ends_at_the_budget() {
    let script = Script::parse(DIST_AFTER_EVERY_WRITE).unwrap();
    // The core alone (without the acceleration layer, or with every strategy off).
    #[cfg(feature = "accel")]
    let (layer, script) = (script.clone(), script.with_accel(marahel::Accel::none()));
    let err = match script.generate(1) {
        Ok(map) => panic!("made, with warnings {:?}", map.warnings),
        Err(e) => e,
    };
    let MarahelError::Limit { path, message } = &err else {
        panic!("{err}");
    };
    assert_eq!(path, "explorers[1].rules[0]");
    let budget = visit_budget(64 * 64);
    assert_eq!(budget, 1 << 20);
    assert!(
        message.contains(&format!("work budget of {budget} visits")),
        "{message}"
    );
    assert!(message.contains("64x64 region (4096 cells)"), "{message}");
    // The layer keeps `dist` up to date through the writes (no plane computed again): the
    // same script is made within its budget.
    #[cfg(feature = "accel")]
    {
        let map = layer.generate(1).unwrap();
        assert!(map.warnings.is_empty(), "{:?}", map.warnings);
    }
    // Within the budget the charge changes nothing: fewer visits are made alike either way.
    let small = DIST_AFTER_EVERY_WRITE.replace("100000", "2000");
    let core = Script::parse(&small).unwrap();
    #[cfg(feature = "accel")]
    let core = core.with_accel(marahel::Accel::none());
    let map = core.generate(1).unwrap();
    assert!(map.warnings.is_empty(), "{:?}", map.warnings);
    #[cfg(feature = "accel")]
    assert!(Script::parse(&small).unwrap().generate(1).unwrap() == map);
}
