//! The `.hmm` validator: the layout rules of specs/heroes.md c.3/c.8 and the editor's
//! `iMapHandler::ValidateMap` errors and warnings (c.9).

use super::*;
use std::collections::BTreeMap;

/// What the validator found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Problems that block the editor's export (and layout violations).
    pub errors: Vec<String>,
    /// Editor warnings (overlapping decorations, objects partly outside the map).
    pub warnings: Vec<String>,
}

impl Report {
    /// No errors.
    pub fn ok(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Validates a parsed file against `catalog`.
pub fn validate(f: &HmmFile, catalog: &Catalog) -> Report {
    let mut r = Report::default();
    let n = f.side() as i32;
    let inb = |p: Pos| p.0 >= 0 && p.1 >= 0 && (p.0 as i32) < n && (p.1 as i32) < n;
    let idx = |p: Pos| (p.1 as i32 * n + p.0 as i32) as usize;
    let mut e = |m: String| r.errors.push(m);
    // Surfaces.
    if let Some((i, s)) = f.nodes.iter().enumerate().find(|(_, s)| s.0 > 11) {
        e(format!("surface node {i}: surface {} > 11", s.0));
    }
    // Players.
    let mut declared = [false; 6];
    for p in &f.players {
        if !(0..=5).contains(&p.id) {
            e(format!("player id {} not in 0..5", p.id));
            continue;
        }
        if declared[p.id as usize] {
            e(format!("player {} declared twice", p.id));
        }
        declared[p.id as usize] = true;
        if !(0..=2).contains(&p.type_mask) {
            e(format!(
                "player {} type mask {} not in 0..2",
                p.id, p.type_mask
            ));
        }
        match p.main_castle {
            Some((pos, _)) => {
                if !f.castles.iter().any(|c| c.pos == pos && c.owner == p.id) {
                    e(format!(
                        "player {} main castle at {pos:?} is not a castle it owns",
                        p.id
                    ));
                }
            }
            None => {
                if !f.heroes.iter().any(|h| h.owner == p.id) {
                    e(format!("player {} has no main castle and no hero", p.id));
                }
            }
        }
    }
    let owner_ok = |o: i8| o == -1 || (0..=5).contains(&o) && declared[o as usize];
    for c in &f.castles {
        if !owner_ok(c.owner) {
            e(format!(
                "castle owner {} at {:?} is not a declared player",
                c.owner, c.pos
            ));
        }
        if c.ctype > 6 {
            e(format!(
                "castle at {:?}: type {} not in 0..6",
                c.pos, c.ctype
            ));
        }
    }
    for o in &f.ownerables {
        if !owner_ok(o.owner) {
            e(format!(
                "ownerable owner {} at {:?} is not a declared player",
                o.owner, o.pos
            ));
        }
    }
    // Ids and bounds; the pass map (0 free, 2 object/decoration).
    // What blocks each cell (empty = free), for the editor's pass map (0 free, 2 blocked).
    let mut pass: Vec<String> = vec![String::new(); (n * n) as usize];
    let mut has_deco = vec![false; (n * n) as usize];
    let mut warn = Vec::new();
    let stamp = |p: Pos,
                 id: &str,
                 cells: &[(i16, i16)],
                 pass: &mut Vec<String>,
                 warn: &mut Vec<String>,
                 what: &str| {
        for &(dx, dy) in cells {
            let q = (p.0 + dx, p.1 + dy);
            if inb(q) {
                pass[idx(q)] = format!("{what} {id} at {p:?}");
            } else {
                warn.push(format!("{what} at {p:?} is partly out of the map"));
            }
        }
    };
    type Table = BTreeMap<String, Vec<(i16, i16)>>;
    type Placed<'a> = Vec<(&'a String, Pos)>;
    let objects: [(&str, Placed, &Table); 3] = [
        (
            "castle",
            f.castles.iter().map(|c| (&c.id, c.pos)).collect(),
            &catalog.castles,
        ),
        (
            "ownerable",
            f.ownerables.iter().map(|c| (&c.id, c.pos)).collect(),
            &catalog.ownerables,
        ),
        (
            "visitable",
            f.visitables.iter().map(|c| (&c.id, c.pos)).collect(),
            &catalog.visitables,
        ),
    ];
    for (what, list, table) in &objects {
        for (id, p) in list {
            if !inb(*p) {
                e(format!("{what} {id} anchor {p:?} outside the map"));
            }
            match table.get(*id) {
                Some(cells) => stamp(*p, id, cells, &mut pass, &mut warn, what),
                None => e(format!("{what} id {id:?} at {p:?} is not in the catalog")),
            }
        }
    }
    let mut deco_seen = vec![false; (n * n) as usize];
    for (p, id) in &f.decorations {
        if !inb(*p) {
            e(format!("decoration {id} anchor {p:?} outside the map"));
            continue;
        }
        match catalog.avatars.get(id) {
            Some(cells) => {
                has_deco[idx(*p)] = true;
                for &(dx, dy) in cells {
                    let q = (p.0 + dx, p.1 + dy);
                    if inb(q) {
                        if deco_seen[idx(q)] {
                            warn.push(format!("overlapping decorations at {q:?}"));
                        }
                        deco_seen[idx(q)] = true;
                        pass[idx(q)] = format!("decoration {id} at {p:?}");
                    } else {
                        warn.push(format!("decoration {id} at {p:?} is partly out of the map"));
                    }
                }
            }
            None => e(format!(
                "decoration id {id:?} at {p:?} is not in the catalog"
            )),
        }
    }
    for (p, id) in &f.paths {
        if !inb(*p) {
            e(format!("path element {id} at {p:?} outside the map"));
            continue;
        }
        match catalog.paths.get(id) {
            Some(&pv) if pv > 0 && has_deco[idx(*p)] => {
                e(format!("road {id} at {p:?} on a cell with a decoration"))
            }
            Some(_) => {}
            None => e(format!(
                "path element id {id:?} at {p:?} is not in the catalog"
            )),
        }
    }
    // Teleport indices.
    let mut tele: BTreeMap<i32, usize> = BTreeMap::new();
    for v in &f.visitables {
        if let Some(&k) = catalog.teleports.get(&v.id) {
            *tele.entry(k).or_default() += 1;
        }
    }
    for (k, c) in tele {
        if c < 2 {
            e(format!("teleport index {k} has no partner"));
        }
    }
    // Map items and guards.
    let mut taken = vec![false; (n * n) as usize];
    let spots = f
        .items
        .iter()
        .map(|i| ("map item", i.pos))
        .chain(f.guards.iter().map(|g| ("guard", g.pos)));
    for (what, p) in spots {
        if !inb(p) {
            e(format!("{what} at {p:?} outside the map"));
            continue;
        }
        if taken[idx(p)] {
            e(format!("two map items or guards at {p:?}"));
        }
        taken[idx(p)] = true;
        if !pass[idx(p)].is_empty() {
            e(format!(
                "{what} at {p:?} on a cell with an obstacle ({})",
                pass[idx(p)]
            ));
        }
    }
    for it in &f.items {
        if let ItemTail::Artifact(a) = &it.tail
            && !catalog.artifacts.iter().any(|x| x == a)
            // The editor's random artifacts (`RandomArtifact`, `RandomArtifactN` by level).
            && !(a.starts_with("RandomArtifact") && a[14..].chars().all(|c| c.is_ascii_digit()))
        {
            e(format!(
                "artifact {a:?} at {:?} is not in the catalog",
                it.pos
            ));
        }
    }
    warn.sort();
    warn.dedup();
    r.warnings = warn;
    r
}

/// Cells blocked by objects and decorations (footprints from `catalog`), row-major.
pub fn blocked_cells(f: &HmmFile, catalog: &Catalog) -> Vec<bool> {
    let n = f.side() as i32;
    let mut b = vec![false; (n * n) as usize];
    let mut mark = |p: Pos, cells: Option<&Vec<(i16, i16)>>| {
        for &(dx, dy) in cells.map_or(&[][..], |c| c.as_slice()) {
            let (x, y) = (p.0 as i32 + dx as i32, p.1 as i32 + dy as i32);
            if x >= 0 && y >= 0 && x < n && y < n {
                b[(y * n + x) as usize] = true;
            }
        }
    };
    for c in &f.castles {
        mark(c.pos, catalog.castles.get(&c.id));
    }
    for o in &f.ownerables {
        mark(o.pos, catalog.ownerables.get(&o.id));
    }
    for v in &f.visitables {
        mark(v.pos, catalog.visitables.get(&v.id));
    }
    for (p, id) in &f.decorations {
        mark(*p, catalog.avatars.get(id));
    }
    b
}

/// The reachability check neither PH nor the reference performs: every castle, ownerable and
/// visitable entrance must be reachable (8-connected hero moves over unblocked cells, through
/// teleports: same index, two-way unless the id ends in `_ent`/`_ext`) from the first castle.
/// Returns the unreachable objects.
pub fn reachability(f: &HmmFile, catalog: &Catalog) -> Vec<String> {
    let n = f.side() as i32;
    let blocked = blocked_cells(f, catalog);
    let inb = |x: i32, y: i32| x >= 0 && y >= 0 && x < n && y < n;
    let free_around = |p: Pos| -> Vec<usize> {
        let mut v = Vec::new();
        for dy in -1..=1 {
            for dx in -1..=1 {
                let (x, y) = (p.0 as i32 + dx, p.1 as i32 + dy);
                if (dx, dy) != (0, 0) && inb(x, y) && !blocked[(y * n + x) as usize] {
                    v.push((y * n + x) as usize);
                }
            }
        }
        v
    };
    let Some(start) = f.castles.first() else {
        return Vec::new();
    };
    let mut seen = vec![false; (n * n) as usize];
    let mut queue: std::collections::VecDeque<usize> = free_around(start.pos).into_iter().collect();
    for &i in &queue {
        seen[i] = true;
    }
    let teleports: Vec<(&Visitable, i32)> = f
        .visitables
        .iter()
        .filter_map(|v| catalog.teleports.get(&v.id).map(|&k| (v, k)))
        .collect();
    let mut used = vec![false; teleports.len()];
    loop {
        while let Some(i) = queue.pop_front() {
            let (x, y) = ((i as i32) % n, (i as i32) / n);
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let (a, b) = (x + dx, y + dy);
                    if inb(a, b) {
                        let j = (b * n + a) as usize;
                        if !seen[j] && !blocked[j] {
                            seen[j] = true;
                            queue.push_back(j);
                        }
                    }
                }
            }
        }
        let mut opened = false;
        for k in 0..teleports.len() {
            let (v, idx) = teleports[k];
            if used[k] || v.id.ends_with("_ext") || !free_around(v.pos).iter().any(|&i| seen[i]) {
                continue;
            }
            used[k] = true;
            for (m, &(w, widx)) in teleports.iter().enumerate() {
                if m != k && widx == idx && !w.id.ends_with("_ent") {
                    for i in free_around(w.pos) {
                        if !seen[i] {
                            seen[i] = true;
                            queue.push_back(i);
                            opened = true;
                        }
                    }
                }
            }
        }
        if !opened {
            break;
        }
    }
    let reached = |p: Pos| free_around(p).iter().any(|&i| seen[i]);
    let mut out = Vec::new();
    for c in &f.castles {
        if !reached(c.pos) {
            out.push(format!("castle {} at {:?} unreachable", c.id, c.pos));
        }
    }
    for o in &f.ownerables {
        if !reached(o.pos) {
            out.push(format!("ownerable {} at {:?} unreachable", o.id, o.pos));
        }
    }
    for v in &f.visitables {
        if !reached(v.pos) {
            out.push(format!("visitable {} at {:?} unreachable", v.id, v.pos));
        }
    }
    out
}
