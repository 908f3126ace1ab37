//! The map under construction, shared by the pipeline steps.

use crate::map::{Cell, MapObject, ObjectKind, Realised, Stats, ZoneInfo};

/// Offsets of the 4 side neighbours.
pub(crate) const SIDES: [(i64, i64); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];

/// The map being generated.
#[derive(Debug)]
pub(crate) struct Work {
    pub side: usize,
    pub cells: Vec<u8>,
    pub zone_of: Vec<u8>,
    /// [`crate::map::Feature`] id of every cell (set on obstacles).
    pub feature: Vec<u8>,
    pub zones: Vec<ZoneInfo>,
    /// Cells of each zone, row-major.
    pub zone_cells: Vec<Vec<u32>>,
    pub objects: Vec<MapObject>,
    pub realised: Vec<Option<Realised>>,
    /// Road vertices per zone (flat indices).
    pub nodes: Vec<Vec<usize>>,
    pub stats: Stats,
}

impl Work {
    #[inline]
    pub fn cell(&self, i: usize) -> Cell {
        Cell::from_id(self.cells[i])
    }

    #[inline]
    pub fn set(&mut self, i: usize, c: Cell) {
        self.cells[i] = c as u8;
    }

    /// Flat index of `(x + dx, y + dy)` if on the map.
    #[inline]
    pub fn offset(&self, i: usize, dx: i64, dy: i64) -> Option<usize> {
        let (x, y) = ((i % self.side) as i64 + dx, (i / self.side) as i64 + dy);
        (x >= 0 && y >= 0 && x < self.side as i64 && y < self.side as i64)
            .then(|| y as usize * self.side + x as usize)
    }

    /// Walkable 4-neighbours of `i`.
    pub fn walkable_sides(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        SIDES
            .iter()
            .filter_map(move |&(dx, dy)| self.offset(i, dx, dy))
            .filter(|&n| self.cell(n).walkable())
    }

    /// Tries to put an object with footprint `fp` anchored at `anchor` in `zone`, with its
    /// approach cell at `anchor + approach`. Every footprint cell and the approach must be
    /// free cells of the zone, and nothing around the footprint may be a building, entrance or
    /// border (so objects never wall each other in). On success marks the cells.
    pub fn place(
        &mut self,
        anchor: usize,
        fp: &[(i8, i8)],
        approach: (i64, i64),
        zone: usize,
    ) -> Option<usize> {
        let ok_free = |w: &Work, i: usize| w.zone_of[i] as usize == zone && w.cell(i) == Cell::Free;
        let ap = self.offset(anchor, approach.0, approach.1)?;
        if !ok_free(self, ap) {
            return None;
        }
        let mut cells = [0usize; 16];
        for (k, &(dx, dy)) in fp.iter().enumerate().take(16) {
            let c = self.offset(anchor, dx as i64, dy as i64)?;
            if !ok_free(self, c) {
                return None;
            }
            for dy2 in -1..=1 {
                for dx2 in -1..=1 {
                    match self.offset(c, dx2, dy2) {
                        Some(n) if self.zone_of[n] as usize == zone => {
                            if matches!(
                                self.cell(n),
                                Cell::Building
                                    | Cell::Entrance
                                    | Cell::Edge
                                    | Cell::Passage
                                    | Cell::Approach
                            ) {
                                return None;
                            }
                        }
                        _ => return None,
                    }
                }
            }
            cells[k] = c;
        }
        for &c in &cells[..fp.len().min(16)] {
            self.set(c, Cell::Building);
        }
        self.set(anchor, Cell::Entrance);
        self.set(ap, Cell::Approach);
        Some(ap)
    }

    /// Adds an object.
    pub fn add(&mut self, kind: ObjectKind, at: usize, zone: usize) {
        self.objects.push(MapObject {
            kind,
            x: (at % self.side) as u16,
            y: (at / self.side) as u16,
            zone: zone as u16,
        });
    }

    /// Flat index of an object's anchor.
    pub fn anchor(&self, o: &MapObject) -> usize {
        o.y as usize * self.side + o.x as usize
    }

    /// Euclidean distance² between two flat indices.
    pub fn dist2(&self, a: usize, b: usize) -> i64 {
        let (ax, ay) = ((a % self.side) as i64, (a / self.side) as i64);
        let (bx, by) = ((b % self.side) as i64, (b / self.side) as i64);
        (ax - bx).pow(2) + (ay - by).pow(2)
    }
}
