//! Stages 1 to 3 of connect's planner ([`crate::explorer::connect`]'s tree) for the 4 unit
//! steps and the 8 steps of the 3x3 square, in raster passes over the padded plane of keys
//! (chosen by [`diagonal`], [`Accel::connect_raster`]).
//!
//! 1. The areas: a union-find labelling a row at a time, each cell reading its left
//!    neighbour and the row above (`raster::label_row`). Its provisional areas, roots and
//!    numbers are the core's, which reads the same earlier neighbours in another order (a
//!    union of the same sets).
//! 2. The owners: a two-pass raster distance transform (city-block for the 4 steps,
//!    chessboard for the 8) of the keys, which hold the steps above the owner, so that one
//!    branch-free `min` compares both: forward, each cell takes the least of its key and its
//!    earlier neighbours' plus a step (an area cell, first mapped from its provisional area
//!    to its area's number, keeps its own); then backward with its later neighbours. Exact:
//!    from an area cell a shortest path to any cell can go first along the steps of one pass,
//!    then along those of the other, and a key only ever falls to a real one. So each cell
//!    ends with the least `(steps, owner)`: the core's nearest area of lowest number. A key
//!    is final once the backward pass has been there, so that pass also notes the pairs of
//!    neighbouring cells of two owners: the core's borders (in another order).
//! 3. The candidates: a hash table keeps the least `(length, cell, cell)` of each pair of
//!    areas as the pairs come (`best::Best`); sorted, they are the core's list (which
//!    sorts every pair and keeps the first of each pair of areas).
//!
//! The core's search visits each cell once per offset through a queue and sorts every
//! border pair; these passes stream the plane row by row and sort one candidate per pair of
//! areas. `connect_tree/tests.rs` compares whole plans with the core's.

mod best;
mod raster;
#[cfg(test)]
mod tests;

use super::Accel;
use crate::explorer::connect::tree::grid::{Grid, numbering};
use crate::explorer::connect::tree::{Stages, View, candidate};
use best::Best;
use raster::{Labels, Row, backward, forward, label_row};
use std::cell::Cell;

thread_local! {
    /// The candidate table of the last plan on this thread.
    static BEST: Cell<Option<Best>> = const { Cell::new(None) };
}

/// Stages 1 to 3 in raster passes, for the 4 unit steps or (`diagonal`) the 8 of the 3x3
/// square.
#[derive(Debug)]
pub struct Raster {
    diagonal: bool,
    /// Stage 1's area number of each provisional area, which the forward pass maps it to.
    number: Vec<u32>,
    best: Best,
}

impl Drop for Raster {
    fn drop(&mut self) {
        BEST.set(Some(std::mem::take(&mut self.best)));
    }
}

/// The raster passes for the 4 unit steps (`diagonal` false) or the 8 steps of the 3x3
/// square, as [`diagonal`] says.
pub fn raster(diagonal: bool) -> Raster {
    Raster {
        diagonal,
        number: Vec::new(),
        best: BEST.take().unwrap_or_default(),
    }
}

/// The raster passes for connect's symmetric offsets `adj`, when [`diagonal`] allows them.
pub fn choose(accel: &Accel, adj: &[(i64, i64)]) -> Option<Raster> {
    diagonal(accel, adj).map(raster)
}

/// Whether the raster passes run for connect's symmetric offsets `adj`: when `accel` allows
/// them and `adj` are the 4 unit steps (`Some(false)`) or the 8 steps of the 3x3 square
/// (`Some(true)`), in any order.
pub fn diagonal(accel: &Accel, adj: &[(i64, i64)]) -> Option<bool> {
    if !accel.connect_raster {
        return None;
    }
    let unit = |o: &(i64, i64)| o.0.abs() <= 1 && o.1.abs() <= 1 && *o != (0, 0);
    let distinct = adj.iter().enumerate().all(|(n, o)| !adj[..n].contains(o));
    match adj.len() {
        4 if distinct && adj.iter().all(|o| unit(o) && (o.0 == 0 || o.1 == 0)) => Some(false),
        8 if distinct && adj.iter().all(unit) => Some(true),
        _ => None,
    }
}

impl Stages for Raster {
    fn areas(&mut self, grid: &mut Grid, g: &View, entities: &[bool]) -> Vec<usize> {
        let mut up = std::mem::take(&mut grid.scratch.up);
        let mut starts = std::mem::take(&mut grid.scratch.starts);
        up.clear();
        starts.clear();
        let mut area = [false; 256];
        for (a, &e) in area.iter_mut().zip(entities) {
            *a = e;
        }
        let mut labels = Labels {
            up: &mut up,
            starts: &mut starts,
            area: &area,
        };
        let first = g.r.y as usize * g.w + g.r.x as usize;
        let (pw, rw) = (grid.pw, grid.rw);
        let rows: Vec<_> = grid.rows().collect();
        for (ly, row) in rows.into_iter().enumerate() {
            let cells = &g.cells[first + ly * g.w..][..rw];
            let (above, cur) = grid.keys.split_at_mut(row.start);
            let near = &above[row.start - pw - 1..][..rw + 2];
            let cur = &mut cur[..rw];
            if self.diagonal {
                label_row::<true>(cur, cells, near, row.start, &mut labels);
            } else {
                label_row::<false>(cur, cells, near, row.start, &mut labels);
            }
        }
        let (firsts, number) = numbering(&mut up, &starts);
        (grid.scratch.up, grid.scratch.starts) = (up, starts);
        self.number = number;
        firsts
    }

    fn nearest(&mut self, grid: &mut Grid) {
        let mut pairs = std::mem::take(&mut grid.scratch.pairs);
        pairs.clear();
        let (pw, rw) = (grid.pw, grid.rw);
        let starts: Vec<usize> = grid.rows().map(|r| r.start).collect();
        let keys = &mut grid.keys[..];
        for &s in &starts {
            let (above, cur) = keys.split_at_mut(s);
            let near = &above[s - pw - 1..][..rw + 2];
            if self.diagonal {
                forward::<true>(&mut cur[..rw], near, above[s - 1], &self.number);
            } else {
                forward::<false>(&mut cur[..rw], near, above[s - 1], &self.number);
            }
        }
        for &s in starts.iter().rev() {
            let (cur, below) = keys.split_at_mut(s + rw);
            let near = &below[pw - rw - 1..][..rw + 2];
            let row = Row { at: s, pw };
            if self.diagonal {
                backward::<true>(&mut cur[s..], near, below[0], row, &mut pairs);
            } else {
                backward::<false>(&mut cur[s..], near, below[0], row, &mut pairs);
            }
        }
        grid.scratch.pairs = pairs;
    }

    fn candidates(&mut self, grid: &mut Grid, place: &[u32]) {
        // Neighbouring areas of a plane: about three pairs per area.
        self.best.clear(3 * place.len());
        for &(i, j) in &grid.scratch.pairs {
            self.best.offer(candidate(grid, place, i, j));
        }
        self.best.sorted(&mut grid.scratch.cands);
    }
}
