//! The ids a validator accepts, with footprints: the built-in table ([`Catalog::builtin`],
//! from [`super::ids`]) or the editor's full `hmm.xml` ([`Catalog::from_hmm_xml`]).

use super::ids;
use std::collections::BTreeMap;

/// Known ids by `hmm.xml` section, with blocked-cell footprints and teleport indices.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    /// Decoration avatar id → blocked cells.
    pub avatars: BTreeMap<String, Vec<(i16, i16)>>,
    /// Visitable id → blocked cells.
    pub visitables: BTreeMap<String, Vec<(i16, i16)>>,
    /// Ownerable id → blocked cells.
    pub ownerables: BTreeMap<String, Vec<(i16, i16)>>,
    /// Castle id → cells.
    pub castles: BTreeMap<String, Vec<(i16, i16)>>,
    /// Path element id → pass value.
    pub paths: BTreeMap<String, i32>,
    /// Artifact ids.
    pub artifacts: Vec<String>,
    /// Teleport visitable id → index.
    pub teleports: BTreeMap<String, i32>,
}

fn fp(f: ids::Footprint) -> Vec<(i16, i16)> {
    f.iter().map(|&(x, y)| (x as i16, y as i16)).collect()
}

impl Catalog {
    /// The ids this crate writes.
    pub fn builtin() -> Self {
        use crate::template::{Resource, Surface};
        let mut c = Catalog::default();
        for (id, f) in ids::CASTLES {
            c.castles.insert(id.into(), fp(f));
        }
        for r in Resource::REAL {
            for s in Surface::DECORATABLE {
                let (id, f) = ids::mine(r, s);
                c.ownerables.insert(id.into(), fp(f));
            }
        }
        for (id, f, _) in ids::VISITABLES {
            c.visitables.insert(id.into(), fp(f));
        }
        for (k, id) in ids::TWO_WAY_PORTALS.iter().enumerate() {
            c.visitables.insert(id.to_string(), vec![(0, 0)]);
            c.teleports.insert(id.to_string(), k as i32 + 1);
        }
        for (k, (a, b)) in ids::ONE_WAY_PORTALS.iter().enumerate() {
            for id in [a, b] {
                c.visitables.insert(id.to_string(), vec![(0, 0)]);
                c.teleports.insert(id.to_string(), k as i32 + 10);
            }
        }
        for s in Surface::DECORATABLE {
            let pieces = ids::pieces(s).iter().map(|(id, _)| id);
            for id in ids::singles(s).iter().chain(pieces).chain(ids::lakes(s)) {
                c.avatars.insert(
                    id.to_string(),
                    ids::footprint(id).map(fp).unwrap_or_default(),
                );
            }
        }
        for (id, pass) in [("dirt_road", 4), ("stone_road", 4), ("snow_road", 4)] {
            c.paths.insert(id.into(), pass);
        }
        c.artifacts = ids::artifacts().map(String::from).collect();
        c
    }

    /// Reads the editor's `hmm.xml` (comments skipped): avatars with their `-1`
    /// PassModifiers, and the objects of `<Visitables>`, `<Ownerables>` and `<Castles>` with
    /// the union of their avatars' offsets and modifiers (castles: their avatar cells).
    pub fn from_hmm_xml(xml: &str) -> Self {
        let text = strip_comments(xml);
        let mut c = Catalog::default();
        let mut avatar_pm: BTreeMap<String, Vec<(i16, i16)>> = BTreeMap::new();
        for item in items(section(&text, "Avatars")) {
            let id = attr(item, "id").unwrap_or_default();
            let mut cells = Vec::new();
            for tag in tags(item, "PassModifier") {
                if attr(tag, "value").and_then(|v| v.parse::<i32>().ok()) == Some(-1) {
                    cells.push(offset(tag));
                }
            }
            avatar_pm.insert(id.to_string(), cells);
        }
        c.avatars = avatar_pm.clone();
        for (name, map) in [
            ("Visitables", &mut c.visitables),
            ("Ownerables", &mut c.ownerables),
            ("Castles", &mut c.castles),
        ] {
            for item in items(section(&text, name)) {
                let id = attr(item, "id").unwrap_or_default().to_string();
                let mut cells = Vec::new();
                for tag in tags(item, "Avatar") {
                    let (ox, oy) = offset(tag);
                    if name == "Castles" {
                        cells.push((ox, oy));
                    }
                    if let Some(pm) = attr(tag, "id").and_then(|a| avatar_pm.get(a)) {
                        cells.extend(pm.iter().map(|&(dx, dy)| (ox + dx, oy + dy)));
                    }
                }
                cells.sort_unstable();
                cells.dedup();
                if name == "Visitables" && attr(item, "type") == Some("TELEPORT") {
                    c.teleports.insert(
                        id.clone(),
                        attr(item, "index")
                            .and_then(|v| v.parse().ok())
                            .unwrap_or(0),
                    );
                }
                map.insert(id, cells);
            }
        }
        for item in tags(section(&text, "PathElements"), "Item") {
            if let Some(id) = attr(item, "id") {
                c.paths.insert(
                    id.to_string(),
                    attr(item, "pass").and_then(|v| v.parse().ok()).unwrap_or(0),
                );
            }
        }
        c.artifacts = tags(section(&text, "Artifacts"), "Item")
            .filter_map(|t| attr(t, "id").map(String::from))
            .collect();
        c
    }
}

fn strip_comments(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("<!--") {
        out.push_str(&rest[..i]);
        rest = match rest[i..].find("-->") {
            Some(j) => &rest[i + j + 3..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

fn section<'a>(s: &'a str, name: &str) -> &'a str {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    match s.find(&open) {
        Some(i) => {
            let body = &s[i + open.len()..];
            &body[..body.find(&close).unwrap_or(body.len())]
        }
        None => "",
    }
}

/// `<Item ...>...</Item>` or `<Item .../>` blocks (the whole text of each).
fn items(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find("<Item") {
        let from = &rest[i..];
        let head_end = from.find('>').unwrap_or(from.len());
        let end = if from[..head_end].ends_with('/') {
            head_end + 1
        } else {
            from.find("</Item>").map_or(from.len(), |j| j + 7)
        };
        out.push(&from[..end.min(from.len())]);
        rest = &from[end.min(from.len())..];
    }
    out
}

/// Opening tags `<name ...>` in `s` (the attribute text).
fn tags<'a>(s: &'a str, name: &str) -> impl Iterator<Item = &'a str> + 'a {
    let pat = format!("<{name} ");
    let pat2 = format!("<{name}/");
    let mut rest = s;
    std::iter::from_fn(move || {
        let i = rest.find(&pat).or_else(|| rest.find(&pat2))?;
        let from = &rest[i..];
        let end = from.find('>').unwrap_or(from.len());
        let tag = &from[..end];
        rest = &from[end.min(from.len())..];
        Some(tag)
    })
}

fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let pat = format!(" {name}=\"");
    let i = tag.find(&pat)? + pat.len();
    let j = tag[i..].find('"')?;
    Some(&tag[i..i + j])
}

fn offset(tag: &str) -> (i16, i16) {
    attr(tag, "offset")
        .and_then(|o| o.split_once(','))
        .and_then(|(x, y)| Some((x.trim().parse().ok()?, y.trim().parse().ok()?)))
        .unwrap_or((0, 0))
}
