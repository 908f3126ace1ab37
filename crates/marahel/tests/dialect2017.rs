//! The 2017 paper's distance estimators: `minDist`, `maxDist`, `avgDist`, with one argument
//! (Manhattan distance to the listed cells) and three (the shortest walk along a
//! neighbourhood through allowed cells). Each is checked cell by cell against a brute-force
//! search on the map the estimator read.

use marahel::{MarahelMap, Script};
use std::collections::VecDeque;

/// A random map of solid, empty and water, then one buffered pass that turns `empty` cells
/// into `gold` where `condition` holds: the map it read is the result with gold read as empty.
fn run(condition: &str, seed: u64) -> MarahelMap {
    let text = format!(
        r#"{{"metadata": {{"min": "13x11", "max": "13x11"}},
            "entities": ["solid", "empty", "water", "gold"],
            "explorers": [
              {{"type": "narrow_horz", "rules": ["random < 0.08 -> self(solid)",
                                                 "random < 0.25 -> self(water)", "-> self(empty)"]}},
              {{"type": "narrow_horz", "parameters": {{"replace": "buffer"}},
               "rules": ["self(empty), {condition} -> self(gold)"]}}]}}"#
    );
    Script::parse(&text)
        .unwrap_or_else(|e| panic!("{condition}: {e}"))
        .generate(seed)
        .unwrap()
}

/// The cells of the map read by the second pass: 0 solid, 1 empty, 2 water.
fn read(map: &MarahelMap) -> (Vec<u8>, usize, usize) {
    let (w, h) = (13, 11);
    let cells = (0..w * h)
        .map(|i| match map.name(i % w, i / w) {
            "solid" => 0,
            "water" => 2,
            _ => 1,
        })
        .collect();
    (cells, w, h)
}

/// Distances from `at` to every solid cell: Manhattan, or the shortest walk along `moves`
/// through `allowed` cells (the start is left whatever it holds).
fn distances(cells: &[u8], w: usize, h: usize, at: usize, walk: WalkSpec) -> Vec<f64> {
    let Some((moves, allowed)) = walk else {
        return (0..cells.len())
            .filter(|&i| cells[i] == 0)
            .map(|i| ((i % w).abs_diff(at % w) + (i / w).abs_diff(at / w)) as f64)
            .collect();
    };
    let mut seen = vec![usize::MAX; cells.len()];
    seen[at] = 0;
    let mut queue = VecDeque::from([at]);
    let mut found = Vec::new();
    while let Some(i) = queue.pop_front() {
        if cells[i] == 0 {
            found.push(seen[i] as f64);
        }
        if i != at && !allowed(cells[i]) {
            continue;
        }
        for &(dx, dy) in moves {
            let (x, y) = ((i % w) as i64 + dx, (i / w) as i64 + dy);
            if x >= 0 && y >= 0 && x < w as i64 && y < h as i64 {
                let j = y as usize * w + x as usize;
                if seen[j] == usize::MAX {
                    seen[j] = seen[i] + 1;
                    queue.push_back(j);
                }
            }
        }
    }
    found
}

/// Moves and the cells a walk may cross (`None`: Manhattan distance).
type WalkSpec<'a> = Option<(&'a [(i64, i64)], &'a dyn Fn(u8) -> bool)>;

type Stat = fn(&[f64]) -> f64;
const MIN: Stat = |d| d.iter().copied().fold(f64::MAX, f64::min);
const MAX: Stat = |d| d.iter().copied().fold(0.0, f64::max);
const AVG: Stat = |d| d.iter().sum::<f64>() / d.len() as f64;
const PLUS: [(i64, i64); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];
const ALL: [(i64, i64); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

#[track_caller]
fn check(estimator: &str, op: &str, t: f64, stat: Stat, walk: WalkSpec) {
    let mut golds = 0;
    for seed in 0..4 {
        let map = run(&format!("{estimator} {op} {t}"), seed);
        let (cells, w, h) = read(&map);
        for at in 0..w * h {
            if cells[at] != 1 {
                continue;
            }
            let d = distances(&cells, w, h, at, walk);
            let value = if d.is_empty() { -1.0 } else { stat(&d) };
            let want = match op {
                ">" => value > t,
                "<=" => value <= t,
                _ => value == t,
            };
            let gold = map.name(at % w, at / w) == "gold";
            assert_eq!(gold, want, "{estimator} at {at} seed {seed}: value {value}");
            golds += gold as usize;
        }
    }
    assert!(golds > 0, "{estimator} {op} {t} never held");
}

#[test]
fn manhattan_forms() {
    check("minDist(solid)", "<=", 2.0, MIN, None);
    check("maxDist(solid)", ">", 14.0, MAX, None);
    check("avgDist(solid)", "<=", 7.5, AVG, None);
}

#[test]
fn walking_forms() {
    let floor = |c: u8| c == 1;
    let not_water = |c: u8| c != 2;
    check(
        "minDist(plus, solid, empty)",
        "<=",
        3.0,
        MIN,
        Some((&PLUS, &floor)),
    );
    check(
        "minDist(plus, solid)",
        "<=",
        2.0,
        MIN,
        Some((&PLUS, &|_| true)),
    );
    check(
        "maxDist(all, solid, empty|solid)",
        ">",
        9.0,
        MAX,
        Some((&ALL, &not_water)),
    );
    check(
        "avgDist(plus, solid, empty)",
        "<=",
        6.0,
        AVG,
        Some((&PLUS, &floor)),
    );
    // No target reachable: -1.
    check(
        "minDist(plus, solid, gold)",
        "==",
        -1.0,
        MIN,
        Some((&PLUS, &|_| false)),
    );
}

#[test]
fn minimum_of_a_list_is_dist() {
    for seed in 0..3 {
        assert_eq!(
            run("minDist(solid|water) > 1", seed),
            run("dist(solid|water) > 1", seed)
        );
    }
}

#[test]
fn bad_arguments_are_errors() {
    for (estimator, words) in [
        ("maxDist(plus, solid, empty, water)", "4 arguments"),
        ("avgDist(plsu, solid)", "unknown neighbourhood"),
        ("minDist(plus, stone)", "unknown entity"),
    ] {
        let text = format!(
            r#"{{"metadata": {{"min": "9x9"}}, "entities": ["solid", "empty"],
                "explorers": [{{"rules": ["{estimator} > 1 -> self(solid)"]}}]}}"#
        );
        let e = Script::parse(&text).unwrap_err();
        assert_eq!(e.path(), "explorers[0].rules[0]", "{e}");
        assert!(e.to_string().contains(words), "{e}");
    }
}

#[test]
fn a_2017_script_with_distance_estimators_runs() {
    let text = r#"{
        "metadata": {"min": "20x20", "max": "20x20"},
        "entity": {"wall": {"color": "0x000000"}, "floor": {"color": "0xffffff"}},
        "neighborhood": {"plus": "010,121,010"},
        "rule": [
          {"type": "random", "region": {"name": "map"}, "parameters": {"numberOfTiles": "400"},
           "rules": ["random < 0.4 -> self(wall)", "-> self(floor)"]},
          {"type": "automata", "region": {"name": "map"}, "parameters": {"iterations": "1"},
           "rules": ["self(floor), maxDist(plus, wall, floor) > 6 -> self(wall)",
                     "self(floor), avgDist(wall) < 3 -> self(wall)"]}
        ]}"#;
    let script = Script::parse(text).unwrap();
    let map = script.generate(1).unwrap();
    assert_eq!(map, script.generate(1).unwrap());
    assert!(map.count("wall") > 0);
}

/// A 10x8 map of floor with a wall column at `x = 0`, then one automata pass with the given
/// border type and rule (the 2017 default, a buffered pass).
fn bordered(border: &str, rule: &str) -> MarahelMap {
    let text = format!(
        r#"{{"metadata": {{"minDimension": "10x8", "maxDimension": "10x8"}},
            "entities": {{"floor": {{}}, "wall": {{}}, "gold": {{}}, "stone": {{}}}},
            "neighborhoods": {{"west": "12", "east": "21", "plus": "010,121,010"}},
            "explorers": [
              {{"type": "sequential", "region": {{"name": "map"}}, "rules": ["-> self(floor)"]}},
              {{"type": "sequential", "region": {{"name": "map", "borderType": "wall"}},
               "rules": ["west(wall) > 0 -> self(wall)"]}},
              {{"type": "sequential", "region": {{"name": "map", "borderType": "{border}"}},
               "rules": ["{rule}"]}}]}}"#
    );
    Script::parse(&text)
        .unwrap_or_else(|e| panic!("{e}"))
        .generate(3)
        .unwrap()
}

/// The columns holding `name` on every row.
fn columns(map: &MarahelMap, name: &str) -> Vec<usize> {
    (0..10)
        .filter(|&x| (0..8).all(|y| map.name(x, y) == name))
        .collect()
}

#[test]
fn wrapping_borders_read_and_write_across_the_edge() {
    // Reads: the east neighbour of the last column is the wall column.
    let map = bordered("wrap", "east(wall) > 0 -> self(gold)");
    assert_eq!(columns(&map, "wall"), [0]);
    assert_eq!(columns(&map, "gold"), [9]);
    assert_eq!(map.count("gold"), 8);
    let map = bordered("none", "east(wall) > 0 -> self(gold)");
    assert_eq!(map.count("gold"), 0);
    // Writes: the last column writes its east neighbour, the first column.
    let map = bordered("wrap", "self(floor), east(wall) > 0 -> east(stone)");
    assert_eq!(columns(&map, "stone"), [0]);
    assert_eq!(map.count("stone"), 8);
    let map = bordered("none", "self(floor), east(wall) > 0 -> east(stone)");
    assert_eq!(map.count("stone"), 0);
    // Every cell of a wrapping region has four plus neighbours in it: no `out` is read.
    let map = bordered("wrap", "plus(floor|wall) == 4 -> self(gold)");
    assert_eq!(map.count("gold"), 80);
    let map = bordered("none", "plus(floor|wall) == 4 -> self(gold)");
    assert_eq!(map.count("gold"), 8 * 6);
}

#[test]
fn wrapping_walkers_cross_the_edge() {
    // An agent that keeps going right for 40 moves on a 40x1 map: with wrap it comes back
    // round to where it started, so it marks every cell; without, at the edge it has nowhere
    // to go and jumps to a random cell, so it marks fewer in some maps.
    let text = |border: &str| {
        format!(
            r#"{{"metadata": {{"minDimension": "40x1", "maxDimension": "40x1"}},
                "entities": {{"floor": {{}}, "gold": {{}}}},
                "neighborhoods": {{"right": "21"}},
                "explorers": [
                  {{"type": "sequential", "region": {{"name": "map"}}, "rules": ["-> self(floor)"]}},
                  {{"type": "agent", "region": {{"name": "map", "borderType": "{border}"}},
                   "parameters": {{"number": "1", "lifespan": "40", "change": "1000",
                                   "directions": "right"}},
                   "rules": ["-> self(gold)"]}}]}}"#
        )
    };
    let mut fewer = 0;
    for seed in 0..8 {
        let wrap = Script::parse(&text("wrap"))
            .unwrap()
            .generate(seed)
            .unwrap();
        assert_eq!(wrap.count("gold"), 40, "seed {seed}");
        let none = Script::parse(&text("none"))
            .unwrap()
            .generate(seed)
            .unwrap();
        fewer += (none.count("gold") < 40) as usize;
    }
    assert!(fewer > 0);
}

/// A 30x20 wall map with a 20x10 floor room in the middle (`border: 5,5`), then agents.
fn agents(params: &str) -> Script {
    let text = format!(
        r#"{{"metadata": {{"min": "30x20", "max": "30x20"}},
            "entity": {{"wall": {{}}, "floor": {{}}, "trail": {{}}}},
            "neighborhood": {{"plus": "010,121,010"}},
            "rule": [
              {{"type": "automata", "region": {{"name": "map"}}, "rules": ["-> self(wall)"]}},
              {{"type": "automata", "region": {{"name": "map", "border": "5,5"}},
               "rules": ["-> self(floor)"]}},
              {{"type": "agent", "region": {{"name": "map"}},
               "parameters": {{{params}}}, "rules": ["-> self(trail)"]}}]}}"#
    );
    Script::parse(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn trail_cells(map: &MarahelMap) -> Vec<(usize, usize)> {
    (0..20)
        .flat_map(|y| (0..30).map(move |x| (x, y)))
        .filter(|&(x, y)| map.name(x, y) == "trail")
        .collect()
}

#[test]
fn agents_stand_only_on_allowed_cells() {
    let inside = |&(x, y): &(usize, usize)| (5..25).contains(&x) && (5..15).contains(&y);
    let mut left_room = 0;
    for seed in 0..8 {
        let params = r#""number": "3", "lifespan": "80", "change": "2,6", "speed": "1,3""#;
        let kept = agents(&format!(r#"{params}, "allowed": "floor|trail""#));
        let map = kept.generate(seed).unwrap();
        let trail = trail_cells(&map);
        assert!(trail.len() >= 20, "seed {seed}: {}", trail.len());
        assert!(trail.iter().all(inside), "seed {seed}");
        // Allowed anywhere (the default), they start and walk on the walls too.
        let map = agents(params).generate(seed).unwrap();
        left_room += trail_cells(&map).iter().filter(|c| !inside(c)).count();
    }
    assert!(left_room > 0);
}

#[test]
fn agent_lifespan_counts_moves_and_speed_only_times_them() {
    for seed in 0..6 {
        let one = |speed: &str| {
            let p =
                format!(r#""number": "2", "lifespan": "15", "change": "4", "speed": "{speed}""#);
            agents(&format!(r#"{p}, "allowed": "floor|trail""#))
                .generate(seed)
                .unwrap()
        };
        let map = one("1");
        let trail = trail_cells(&map).len();
        assert!((1..=2 * 15).contains(&trail), "seed {seed}: {trail}");
        // Every agent slowed alike: the same moves in the same order.
        assert_eq!(map, one("4"), "seed {seed}");
    }
    // Turns count towards the work budget: 1000 turns per move for 2000 moves is cut.
    let slow = agents(r#""number": "1", "lifespan": "2000", "speed": "1000""#);
    let map = slow.generate(1).unwrap();
    assert!(
        map.warnings.iter().any(|w| w.contains("work budget")),
        "{:?}",
        map.warnings
    );
}

#[test]
fn hostile_agents_end_at_the_budget() {
    // A million agents of a million moves, allowed on no cell the map holds, then on every
    // cell: both end at the work budget with a warning.
    for allowed in ["trail", "any"] {
        let text = format!(
            r#"{{"metadata": {{"min": "40x40", "max": "40x40"}},
                "entity": {{"wall": {{}}, "trail": {{}}}},
                "rule": [
                  {{"type": "automata", "region": {{"name": "map"}}, "rules": ["-> self(wall)"]}},
                  {{"type": "agent", "region": {{"name": "map"}},
                   "parameters": {{"number": "1000000", "lifespan": "1000000", "allowed": "{allowed}"}},
                   "rules": ["-> self(wall)"]}}]}}"#
        );
        let map = Script::parse(&text).unwrap().generate(2).unwrap();
        assert!(
            map.warnings.iter().any(|w| w.contains("work budget")),
            "{allowed}: {:?}",
            map.warnings
        );
    }
}

/// A 12x9 wall map, then one automaton walking from `start` along `exploration`.
fn flood(start: &str, exploration: &str) -> MarahelMap {
    let text = format!(
        r#"{{"metadata": {{"min": "12x9", "max": "12x9"}},
            "entity": {{"wall": {{}}, "gold": {{}}}},
            "neighborhood": {{"right": "21", "left": "12", "plus": "010,121,010"}},
            "rule": [
              {{"type": "automata", "region": {{"name": "map"}}, "rules": ["-> self(wall)"]}},
              {{"type": "automata", "region": {{"name": "map"}},
               "parameters": {{"iterations": "1", "start": "{start}", "exploration": "{exploration}"}},
               "rules": ["-> self(gold)"]}}]}}"#
    );
    Script::parse(&text)
        .unwrap_or_else(|e| panic!("{e}"))
        .generate(1)
        .unwrap()
}

fn gold_cells(map: &MarahelMap) -> Vec<(usize, usize)> {
    (0..9)
        .flat_map(|y| (0..12).map(move |x| (x, y)))
        .filter(|&(x, y)| map.name(x, y) == "gold")
        .collect()
}

#[test]
fn automata_walk_from_their_start_along_their_exploration() {
    // From the top-left corner going right: the first row only.
    let row: Vec<_> = (0..12).map(|x| (x, 0)).collect();
    assert_eq!(gold_cells(&flood("0,0", "right")), row);
    // From the right edge, half-way down, going left: row 4 (9 * 0.5 = 4.5).
    let row: Vec<_> = (0..12).map(|x| (x, 4)).collect();
    assert_eq!(gold_cells(&flood("1,0.5", "left")), row);
    // From the middle going right: half of the row.
    let half: Vec<_> = (6..12).map(|x| (x, 4)).collect();
    assert_eq!(gold_cells(&flood("0.5", "right")), half);
    // The 2017 default `sequential` (right and down) from the corner, and `plus` from
    // anywhere, reach every cell.
    assert_eq!(gold_cells(&flood("0,0", "sequential")).len(), 108);
    assert_eq!(gold_cells(&flood("0.3,0.7", "plus")).len(), 108);
    let e = Script::parse(&flood_text_with_start("left")).unwrap_err();
    assert_eq!(e.path(), "rule[0].parameters.start", "{e}");
    assert!(e.to_string().contains("fractions"), "{e}");
}

fn flood_text_with_start(start: &str) -> String {
    format!(
        r#"{{"metadata": {{"min": "12x9"}}, "entity": {{"wall": {{}}}},
            "rule": [{{"type": "automata", "region": {{"name": "map"}},
                      "parameters": {{"start": "{start}"}}, "rules": ["-> self(wall)"]}}]}}"#
    )
}

/// A map painted `room` over every region of a digger divider; cells painted twice become
/// `overlap`.
fn dug(size: &str, params: &str, seed: u64) -> MarahelMap {
    let text = format!(
        r#"{{"metadata": {{"min": "{size}", "max": "{size}"}},
            "regions": {{"type": "digger", "number": 6,
                         "parameters": {{"min": "5x4", "max": "9x7", {params}}}}},
            "entities": ["wall", "room", "overlap"],
            "explorers": [
              {{"type": "narrow_horz", "rules": ["-> self(wall)"]}},
              {{"type": "narrow_horz", "region": "all",
               "rules": ["self(room) -> self(overlap)", "self(wall) -> self(room)"]}}]}}"#
    );
    Script::parse(&text)
        .unwrap_or_else(|e| panic!("{e}"))
        .generate(seed)
        .unwrap()
}

#[test]
fn the_digger_divider_drops_rooms_along_its_walk() {
    let mut overlapped = 0;
    for seed in 0..10 {
        let apart = dug("60x40", r#""probDir": "0.1", "probSpawn": "0.05""#, seed);
        assert!(apart.warnings.is_empty(), "{:?}", apart.warnings);
        assert_eq!(apart.count("overlap"), 0, "seed {seed}");
        // Six rooms of at least 5x4.
        assert!(apart.count("room") >= 6 * 20, "seed {seed}");
        let packed = dug(
            "16x12",
            r#""probDir": "0.1", "probSpawn": "0.2", "allowIntersection": true"#,
            seed,
        );
        overlapped += (packed.count("overlap") > 0) as usize;
        // Without intersections, rooms that do not fit are left out (the map warns).
        let tight = dug(
            "16x12",
            r#""probSpawn": "0.2", "allowIntersection": "false""#,
            seed,
        );
        assert_eq!(tight.count("overlap"), 0);
    }
    assert!(overlapped > 0);
}

#[test]
fn digger_parameters_are_checked() {
    let text = |params: &str, kind: &str| {
        format!(
            r#"{{"metadata": {{"min": "30x30"}},
                "regions": {{"type": "{kind}", "number": 2, "parameters": {{"min": "4x4", {params}}}}},
                "entities": ["wall"], "explorers": [{{"rules": ["-> self(wall)"]}}]}}"#
        )
    };
    for (params, kind, path) in [
        (r#""probDir": "2""#, "digger", "regions.parameters.probDir"),
        (
            r#""allowIntersection": "yes""#,
            "digger",
            "regions.parameters.allowIntersection",
        ),
        (r#""probSpawn": "0.1""#, "bsp", "regions.parameters"),
    ] {
        let e = Script::parse(&text(params, kind)).unwrap_err();
        assert_eq!(e.path(), path, "{e}");
    }
    // The 2017 form of the same divider.
    let legacy = r#"{"metadata": {"min": "40x40", "max": "40x40"},
        "region": {"type": "digger", "number": "3",
                   "parameters": {"min": "5x5", "max": "8x8", "probDir": "0.2", "probSpawn": "0.1",
                                  "allowIntersection": "false"}},
        "entity": {"wall": {}}, "rule": [{"type": "automata", "region": {"name": "all"},
                                          "rules": ["-> self(wall)"]}]}"#;
    Script::parse(legacy).unwrap().generate(4).unwrap();
}
