//! One generated map of any generator, and what can be made of it without the GIL: its
//! tiles, JSON, text, report and files, each through the code the CLI writes with.

use crate::error::{Class, Failure, Result};
use grid_core::TileMap;
use grid_core::export::{self, ExportOptions};
use heroes_zones::HeroesMap;
use levelgen::cli::common::write_generic;
use levelgen::cli::output::{Output, Target};
use marahel::MarahelMap;
use mario_rooms::GeneratedLevel;
use serde_json::{Value, json};
use std::path::Path;
use zone_tiles::{World, ZoneWorld};

/// A generated map.
#[derive(Debug)]
pub enum Made {
    /// A Marahel map.
    Marahel(MarahelMap),
    /// A Heroes zone map.
    Heroes(Box<HeroesMap>),
    /// A Mario level with its assembly record.
    Mario(Box<GeneratedLevel>),
    /// A zones world, with the streamer that paints it.
    Zones(Box<ZoneWorld>, Box<World>),
}

/// `$body` with `$m` bound to the map as its own type (not `&dyn TileMap`), so per-tile
/// work such as text and tile bytes is compiled for that type, as the CLI's is, instead of
/// making a virtual call per tile.
macro_rules! concrete {
    ($made:expr, |$m:ident| $body:expr) => {
        match $made {
            Made::Marahel($m) => $body,
            Made::Heroes(b) => {
                let $m = b.as_ref();
                $body
            }
            Made::Mario(g) => {
                let $m = &g.level;
                $body
            }
            Made::Zones(w, _) => {
                let $m = w.as_ref();
                $body
            }
        }
    };
}

/// The tile ids of `map`, row-major, as native-endian `u16` bytes.
fn tile_bytes_of(map: &impl TileMap) -> Vec<u8> {
    let (w, h) = (map.width(), map.height());
    let mut out = Vec::with_capacity(w * h * 2);
    for y in 0..h {
        for x in 0..w {
            out.extend_from_slice(&map.tile(x, y).to_ne_bytes());
        }
    }
    out
}

impl Made {
    /// The generator's name.
    pub fn kind(&self) -> &'static str {
        match self {
            Made::Marahel(_) => "marahel",
            Made::Heroes(_) => "heroes",
            Made::Mario(_) => "mario",
            Made::Zones(..) => "zones",
        }
    }

    /// The map as a [`TileMap`].
    pub fn tile_map(&self) -> &dyn TileMap {
        match self {
            Made::Marahel(m) => m,
            Made::Heroes(m) => m.as_ref(),
            Made::Mario(g) => &g.level,
            Made::Zones(w, _) => w.as_ref(),
        }
    }

    /// The tile ids, row-major, as native-endian `u16` bytes.
    pub fn tile_bytes(&self) -> Vec<u8> {
        concrete!(self, |m| tile_bytes_of(m))
    }

    /// What `levelgen <kind> ... --format json` writes.
    pub fn to_json(&self) -> String {
        match self {
            Made::Zones(w, _) => zone_tiles::export::state_grid_json(w),
            Made::Heroes(m) => heroes_zones::document::to_json(m),
            Made::Mario(g) => export::to_json_with_objects(
                &g.level,
                ExportOptions::default().json_tiles,
                &mario_rooms::objects::objects(&g.level),
            ),
            made => concrete!(made, |m| export::to_json(
                m,
                ExportOptions::default().json_tiles
            )),
        }
    }

    /// The map as text, one character per tile (what the CLI prints for one map).
    pub fn to_text(&self) -> String {
        match self {
            Made::Mario(g) => g.level.to_text(),
            Made::Zones(w, _) => export::to_text(w.as_ref()).trim_end().to_string(),
            made => concrete!(made, |m| export::to_text(m)),
        }
    }

    /// The generator's own format: `.hmm` bytes, Mario AI level text; `None` for the others.
    pub fn native(&self) -> Option<Vec<u8>> {
        match self {
            Made::Heroes(m) => Some(heroes_zones::hmm::export(m).to_bytes()),
            Made::Mario(g) => Some(g.level.to_text().into_bytes()),
            _ => None,
        }
    }

    /// The run's warnings and figures, as JSON.
    pub fn report(&self) -> Value {
        match self {
            Made::Marahel(m) => json!({
                "warnings": m.warnings,
                "regions": m.regions.iter().map(|r| [r.x, r.y, r.w, r.h]).collect::<Vec<_>>(),
            }),
            Made::Heroes(m) => json!({
                "warnings": [],
                "zones": m.zones.len(),
                "objects": m.objects.len(),
                "max_area_error": m.stats.max_area_error,
                "forced_portals": m.stats.forced_portals,
                "planar_portals": m.stats.planar_portals,
                "carved_cells": m.stats.carved_cells,
                "repaired": m.stats.repaired,
                "removed": m.stats.removed,
                "left_out": m.stats.left_out,
            }),
            Made::Mario(g) => json!({
                "warnings": [],
                "rooms": g.rooms,
                "sections": g.sections,
                "difficulty": g.difficulty,
                "attempts": g.attempts,
                "playable": g.report.as_ref().map(|r| r.playable),
                "playability": g.report.as_ref().map(|r| r.summary()),
            }),
            Made::Zones(w, _) => {
                let m = zone_tiles::seamless::border_mismatch(&w.states);
                let mut distinct = [false; 512];
                for s in w.states.as_slice() {
                    distinct[s.index() as usize] = true;
                }
                json!({
                    "warnings": [],
                    "distinct_states": distinct.iter().filter(|&&d| d).count(),
                    "border_mismatch": m.rate(),
                    "origin": [w.origin.0, w.origin.1],
                    "zone_size": w.zone_size,
                })
            }
        }
    }

    /// The zone states of a zones world, row-major (width, height, states).
    pub fn zone_states(&self) -> Option<(usize, usize, Vec<u16>)> {
        match self {
            Made::Zones(w, _) => Some((
                w.states.width(),
                w.states.height(),
                w.states.as_slice().iter().map(|s| s.index()).collect(),
            )),
            _ => None,
        }
    }

    /// Writes the map to `path` in `format` (an extension) as `levelgen <kind> --out` does,
    /// atomically: the generic formats (`txt`, `json`, `png`, `tmx`) and the generator's own.
    pub fn save(&self, path: &Path, format: &str) -> Result<()> {
        let out = Output::new();
        let target = Target::File(path.to_path_buf());
        let class = self.class();
        let wrap = |e| Failure::cli(class, e);
        match (self, format) {
            (Made::Heroes(m), "hmm") => {
                out.write(&target, &heroes_zones::hmm::export(m).to_bytes())
            }
            (Made::Heroes(m), "json" | "tmx") => {
                levelgen::cli::heroes::write_map(&out, m, &target, format, Default::default())
            }
            (Made::Mario(g), "json" | "tmx") => levelgen::cli::common::write_with_objects(
                &out,
                &g.level,
                &target,
                format,
                &mario_rooms::objects::objects(&g.level),
                &ExportOptions::default(),
            ),
            (Made::Heroes(m), "png") => {
                let png = heroes_zones::preview::png(m)
                    .map_err(|e| Failure::new(Class::File, e.to_string()))?;
                out.write(&target, &png)
            }
            (Made::Mario(g), "txt" | "lvl") => out.write(&target, g.level.to_text().as_bytes()),
            (Made::Mario(g), "png") => {
                let (w, h, rgb) = mario_rooms::preview::render(&g.level, 8);
                let png = export::encode_png(w, h, &rgb)
                    .map_err(|e| Failure::new(Class::File, e.to_string()))?;
                out.write(&target, &png)
            }
            (Made::Zones(w, _), "json") => {
                out.write(&target, zone_tiles::export::state_grid_json(w).as_bytes())
            }
            (Made::Zones(w, streamer), "png") => {
                let img = if corners(streamer) {
                    streamer.paint_corners(w)
                } else {
                    streamer.paint(w)
                }
                .map_err(|e| crate::error::zones(&e))?;
                let png = export::encode_png(img.width(), img.height(), img.as_raw())
                    .map_err(|e| Failure::new(Class::File, e.to_string()))?;
                out.write(&target, &png)
            }
            (Made::Zones(w, streamer), "tmx") if corners(streamer) => {
                out.write_files(path, |tmp| {
                    let grid = zone_tiles::corner::world_keys(w, streamer.biomes()).and_then(|g| {
                        zone_tiles::corner::export::write_tmx(&g, streamer.corner_tiles(), tmp)
                    });
                    grid.map_err(levelgen::cli::error::CliError::output)
                })
            }
            (Made::Zones(w, _), "tmx") => out.write_files(path, |tmp| {
                zone_tiles::export::write_tmx(w, tmp, None)
                    .map_err(levelgen::cli::error::CliError::output)
            }),
            (_, "txt" | "json" | "png" | "tmx") => write_generic(
                &out,
                self.tile_map(),
                &target,
                format,
                &self.export_options(),
            ),
            _ => {
                return Err(Failure::argument(format!(
                    "{}: a {} map is not written as .{format}",
                    path.display(),
                    self.kind()
                )));
            }
        }
        .map_err(wrap)
    }

    /// The export options of `levelgen <kind>`: the defaults, and for Marahel fewer PNG
    /// pixels per tile on big maps (as `levelgen marahel` does: 8, down to 1 at 2048 tiles).
    fn export_options(&self) -> ExportOptions {
        let map = self.tile_map();
        match self {
            Made::Marahel(_) => ExportOptions {
                png_scale: (2048 / map.width().max(map.height()).max(1)).clamp(1, 8) as u32,
                ..ExportOptions::default()
            },
            _ => ExportOptions::default(),
        }
    }

    fn class(&self) -> Class {
        match self {
            Made::Marahel(_) => Class::Marahel,
            Made::Heroes(_) => Class::Heroes,
            Made::Mario(_) => Class::Mario,
            Made::Zones(..) => Class::Zones,
        }
    }
}

/// Whether `levelgen zones` draws this world with the corner tiles (its default look): a
/// seamless world; a reference world is drawn one tile per zone.
fn corners(streamer: &World) -> bool {
    streamer.generator().config().mode == zone_tiles::Mode::Seamless
}
