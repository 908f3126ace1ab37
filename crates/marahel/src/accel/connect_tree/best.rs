//! Stage 3's candidates: the shortest corridor of each pair of neighbouring areas. Kruskal
//! only ever takes the first candidate of a pair (the later ones join areas already joined),
//! so keeping one per pair gives the same tree as sorting them all, and only these few are
//! sorted.

use crate::explorer::connect::tree::Candidate;

/// An empty slot (no candidate is this long).
const EMPTY: Candidate = (u32::MAX, 0, 0, 0, 0);

/// The best candidate per pair of areas: a hash table with linear probing, keyed by the
/// pair's places `(lo, hi)`; of two candidates of a pair the lesser `(length, cell, cell)`
/// stays. Kept per thread between plans (cleared, not freed).
#[derive(Debug, Default)]
pub struct Best {
    /// A power of two of slots, at most half of them used.
    slots: Vec<Candidate>,
    used: usize,
    /// The slot of the last pair offered (the borders of two areas come a few cells in a
    /// row, so most offers are of the last pair: no hashing).
    last: usize,
}

impl Best {
    /// Forgets every pair, with room for about `pairs` of them before it grows.
    pub fn clear(&mut self, pairs: usize) {
        let len = (2 * pairs).next_power_of_two().max(64);
        self.slots.clear();
        self.slots.resize(len, EMPTY);
        self.used = 0;
        self.last = 0;
    }

    /// The slot of the pair `(lo, hi)`: its own, or the empty one where it goes.
    fn slot(&self, lo: u32, hi: u32) -> usize {
        // Multiplicative hashing: the high bits of the product mix both places.
        let h = (u64::from(lo) << 32 | u64::from(hi)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mask = self.slots.len() - 1;
        let mut s = (h >> 40) as usize & mask;
        // Ends: at most half of the slots are used, so an empty one comes.
        while self.slots[s].0 != u32::MAX && (self.slots[s].1, self.slots[s].2) != (lo, hi) {
            s = (s + 1) & mask;
        }
        s
    }

    /// Keeps `c` if it is its pair's first or shorter than the one kept.
    #[inline]
    pub fn offer(&mut self, c: Candidate) {
        let last = &self.slots[self.last];
        let s = if (last.1, last.2) == (c.1, c.2) && last.0 != u32::MAX {
            self.last
        } else {
            self.slot(c.1, c.2)
        };
        self.last = s;
        let kept = &mut self.slots[s];
        if kept.0 == u32::MAX {
            *kept = c;
            self.used += 1;
            if 2 * self.used > self.slots.len() {
                self.grow();
                self.last = 0;
            }
        } else if (c.0, c.3, c.4) < (kept.0, kept.3, kept.4) {
            *kept = c;
        }
    }

    /// Twice the slots, every pair moved to its new slot.
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        self.slots = vec![EMPTY; 2 * old.len()];
        for c in old.into_iter().filter(|c| c.0 != u32::MAX) {
            let s = self.slot(c.1, c.2);
            self.slots[s] = c;
        }
    }

    /// The kept candidates, shortest first (equal lengths by the pair's places), into `out`.
    pub fn sorted(&self, out: &mut Vec<Candidate>) {
        out.clear();
        out.extend(self.slots.iter().filter(|c| c.0 != u32::MAX));
        out.sort_unstable();
    }
}
