//! Compatibility with the reference data in `../shared/fixtures/jcatlos` and the framework's
//! levels in `../shared/fixtures/mario-levels` (skipped with a notice where absent).

use mario_rooms::{LevelConfig, Library, MarioLevel, Strictness, check, generate};
use std::path::{Path, PathBuf};

fn fixtures() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("skipping: ../shared/fixtures not found");
        None
    }
}

fn jcatlos(lenient: bool) -> Option<Result<Library, mario_rooms::MarioError>> {
    let f = fixtures()?.join("jcatlos");
    Some(Library::load(
        Some(&f.join("blocks")),
        Some(&f.join("sections")),
        Some(&f.join("macros")),
        if lenient {
            Strictness::Lenient
        } else {
            Strictness::Strict
        },
    ))
}

#[test]
fn every_reference_file_loads_leniently() {
    let Some(lib) = jcatlos(true) else { return };
    let lib = lib.unwrap();
    assert_eq!(lib.rooms.len(), 42);
    assert_eq!(lib.sections.len(), 7);
    assert_eq!(lib.macros.len(), 9);
    for d in &lib.diagnostics {
        eprintln!("{d}");
    }
    assert!(!lib.diagnostics.is_empty());
}

#[test]
fn framework_levels_are_playable() {
    let Some(f) = fixtures() else { return };
    let dir = f.join("mario-levels/original");
    let mut n = 0;
    for i in 1..=5 {
        let p = dir.join(format!("lvl-{i}.txt"));
        let text = std::fs::read_to_string(&p).unwrap();
        let level = MarioLevel::parse(&p.display().to_string(), &text).unwrap();
        assert_eq!(level.to_text(), text, "round trip of {}", p.display());
        let r = check(&level);
        eprintln!("lvl-{i}: {}", r.summary());
        assert!(r.playable, "lvl-{i}: {}", r.summary());
        n += 1;
    }
    assert_eq!(n, 5);
}

#[test]
fn reference_data_assembles_playable_levels() {
    let Some(lib) = jcatlos(true) else { return };
    let lib = lib.unwrap();
    let cfg = LevelConfig::reference();
    let mut attempts = 0;
    for seed in 0..50 {
        let g = generate(&lib, &cfg, seed).unwrap();
        assert!(g.report.as_ref().unwrap().playable);
        assert!(g.level.start().is_some() && g.level.exit().is_some());
        attempts += g.attempts;
    }
    eprintln!("50 levels from the reference data in {attempts} attempts");
}

/// `(a,b)(c,d)` or `(a,b)` → pairs.
fn pairs(s: &str) -> Vec<(i64, i64)> {
    s.split(')')
        .filter_map(|p| {
            let p = p.trim().trim_start_matches('[').trim_start_matches('(');
            let (a, b) = p.split_once(',')?;
            Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
        })
        .collect()
}

fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let i = line.find(key).unwrap_or_else(|| panic!("{key} in {line}")) + key.len();
    let rest = &line[i..];
    let end = if rest.starts_with('[') {
        rest.find(']').unwrap() + 1
    } else {
        rest.find(' ').unwrap_or(rest.len())
    };
    &rest[..end]
}

fn list(s: &str) -> Vec<String> {
    s.trim()
        .trim_matches(|c| c == '[' || c == ']')
        .split(", ")
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

#[test]
fn parsed_form_matches_the_reference_parse() {
    let Some(f) = fixtures() else { return };
    let Some(lib) = jcatlos(true) else { return };
    let lib = lib.unwrap();
    let text = std::fs::read_to_string(f.join("jcatlos/REFERENCE_PARSE.txt")).unwrap();
    let (mut rooms, mut cells, mut candidate_lists) = (0, 0, 0);
    let mut section: Option<&mario_rooms::Section> = None;
    let mut cell: Option<&mario_rooms::Cell> = None;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with('[') && t.contains(".txt") {
            // A room: `[n] dir/name.txt  WxH start=(x,y) finish=[...] tags=[...] macros=...`
            let path = t.split_whitespace().nth(1).unwrap();
            let name = path.rsplit('/').next().unwrap().trim_end_matches(".txt");
            let room = lib.room(name).unwrap_or_else(|| panic!("room {name}"));
            let size = t.split_whitespace().nth(2).unwrap();
            assert_eq!(
                size,
                format!("{}x{}", room.width(), room.height()),
                "{name}"
            );
            let start = pairs(field(t, "start="))[0];
            let ours = room
                .entrance
                .map_or((-1, -1), |(x, y)| (x as i64, y as i64));
            assert_eq!(start, ours, "{name} entrance");
            let exits: Vec<(i64, i64)> = room
                .exits
                .iter()
                .map(|&(x, y)| (x as i64, y as i64))
                .collect();
            assert_eq!(pairs(field(t, "finish=")), exits, "{name} exits");
            let mut tags = list(field(t, "tags="));
            let mut our_tags = room.tags.clone();
            tags.sort();
            our_tags.sort();
            assert_eq!(tags, our_tags, "{name} tags");
            // Placeholder boxes: `c=macro(WxH placeholder WxH@x,y)` or `ABSENT`.
            for slot in &room.slots {
                let ch = slot.placeholder.unwrap() as char;
                let key = format!("{ch}=");
                let Some(i) = t
                    .find(&format!(" {key}"))
                    .or_else(|| t.find(&format!("={key}")))
                else {
                    continue;
                };
                let rest = &t[i..];
                let ph = rest.split("placeholder ").nth(1).unwrap();
                match slot.area {
                    None => assert!(ph.starts_with("ABSENT"), "{name} {ch}"),
                    Some((x, y, w, h)) => {
                        assert!(
                            ph.starts_with(&format!("{w}x{h}@{x},{y}")),
                            "{name} {ch}: {ph}"
                        )
                    }
                }
            }
            rooms += 1;
        } else if t.starts_with("premade/") && t.contains(" M=") {
            let name = t
                .split_whitespace()
                .next()
                .unwrap()
                .trim_start_matches("premade/")
                .trim_end_matches(".txt");
            let s = lib.section(name).unwrap();
            let size = t.split_whitespace().nth(1).unwrap();
            assert_eq!(size, format!("{}x{}", s.width(), s.height()));
            let m = pairs(field(t, "M="))[0];
            assert_eq!(m, (s.entrance.0 as i64, s.entrance.1 as i64), "{name} M");
            let fs: Vec<(i64, i64)> = s.exits.iter().map(|&(x, y)| (x as i64, y as i64)).collect();
            assert_eq!(pairs(field(t, "F=")), fs, "{name} F");
            section = Some(s);
        } else if t.starts_with("room '") {
            let ch = t.as_bytes()[6];
            let s = section.unwrap();
            let c = s.cells.iter().find(|c| c.ch == ch).unwrap();
            let space = field(t, "space ");
            assert_eq!(space, format!("{}x{}", c.rect.2, c.rect.3));
            assert_eq!(pairs(field(t, "@"))[0], (c.rect.0 as i64, c.rect.1 as i64));
            assert_eq!(
                pairs(field(t, "start="))[0],
                (c.entrance.0 as i64, c.entrance.1 as i64)
            );
            let ex: Vec<(i64, i64)> = c.exits.iter().map(|&(x, y)| (x as i64, y as i64)).collect();
            assert_eq!(pairs(field(t, "exits=")), ex);
            cell = Some(c);
            cells += 1;
        } else if t.contains(" candidates [") {
            // `HARD  p=0.7 [!easy, !twist, bullet]   -> 8 candidates [a, b]`
            let (ctx, cands) = t.split_once("->").unwrap();
            let asked = list(&ctx[ctx.find('[').unwrap()..]);
            let mut expected = list(&cands[cands.find('[').unwrap()..]);
            let (s, c) = (section.unwrap(), cell.unwrap());
            let mut ours: Vec<String> = lib
                .rooms
                .iter()
                .filter(|r| {
                    mario_rooms::fits(r, c, s.height()) && mario_rooms::tags_match(&r.tags, &asked)
                })
                .map(|r| r.name.clone())
                .collect();
            expected.sort();
            ours.sort();
            assert_eq!(ours, expected, "{} cell {} {asked:?}", s.name, c.ch as char);
            candidate_lists += 1;
        }
    }
    assert_eq!(rooms, 42);
    assert_eq!(cells, 24);
    assert!(candidate_lists >= 40, "{candidate_lists}");
}
