//! A set of indices `0..n` with the next and previous member of any index (within bounds) found in
//! O(log₆₄ n) word operations: a bitset with a summary bitset above it (bit `j` of a level says
//! whether word `j` of the level below is non-zero), up to a single word. `n` bits take
//! about `n / 8 · 64/63` bytes.

/// A set of indices with successor and predecessor queries.
#[derive(Clone, Debug, Default)]
pub struct Bits {
    /// `levels[0]`: one bit per index; `levels[k + 1]`: one bit per word of `levels[k]`.
    levels: Vec<Vec<u64>>,
}

impl Bits {
    /// The empty set of indices `0..n`.
    pub fn new(n: usize) -> Bits {
        let mut levels = Vec::new();
        let mut words = n.div_ceil(64).max(1);
        loop {
            levels.push(vec![0u64; words]);
            if words == 1 {
                break;
            }
            words = words.div_ceil(64);
        }
        Bits { levels }
    }

    /// Whether `i` is in the set.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.levels[0][i / 64] >> (i % 64) & 1 == 1
    }

    /// Adds (`on`) or removes `i`.
    pub fn set(&mut self, mut i: usize, on: bool) {
        for level in &mut self.levels {
            let word = &mut level[i / 64];
            let was_empty = *word == 0;
            if on {
                *word |= 1 << (i % 64);
                if !was_empty {
                    return;
                }
            } else {
                *word &= !(1 << (i % 64));
                if *word != 0 {
                    return;
                }
            }
            i /= 64;
        }
    }

    /// The least member in `i..end`.
    #[inline]
    pub fn next(&self, i: usize, end: usize) -> Option<usize> {
        if i >= end {
            return None;
        }
        let m = self.levels[0][i / 64] & (!0u64 << (i % 64));
        if m != 0 {
            let j = i / 64 * 64 + m.trailing_zeros() as usize;
            return (j < end).then_some(j);
        }
        if (i / 64 + 1) * 64 >= end {
            return None;
        }
        self.next_above(i).filter(|&j| j < end)
    }

    /// The least member `>= i` past the word of `i` (which holds none).
    fn next_above(&self, i: usize) -> Option<usize> {
        let (mut level, mut i) = (0, i);
        loop {
            let words = &self.levels[level];
            let w = i / 64;
            if w >= words.len() {
                return None;
            }
            let m = words[w] & (!0u64 << (i % 64));
            if m != 0 {
                i = w * 64 + m.trailing_zeros() as usize;
                break;
            }
            if level + 1 == self.levels.len() {
                return None;
            }
            (level, i) = (level + 1, w + 1);
        }
        while level > 0 {
            level -= 1;
            i = i * 64 + self.levels[level][i].trailing_zeros() as usize;
        }
        Some(i)
    }

    /// The greatest member in `start..=i`.
    #[inline]
    pub fn prev(&self, i: usize, start: usize) -> Option<usize> {
        if i < start {
            return None;
        }
        let m = self.levels[0][i / 64] & (!0u64 >> (63 - i % 64));
        if m != 0 {
            let j = i / 64 * 64 + 63 - m.leading_zeros() as usize;
            return (j >= start).then_some(j);
        }
        if i / 64 * 64 <= start {
            return None;
        }
        self.prev_below(i).filter(|&j| j >= start)
    }

    /// The greatest member `<= i` before the word of `i` (which holds none).
    fn prev_below(&self, i: usize) -> Option<usize> {
        let (mut level, mut i) = (0, i);
        loop {
            let words = &self.levels[level];
            let w = i / 64;
            let m = words[w] & (!0u64 >> (63 - i % 64));
            if m != 0 {
                i = w * 64 + 63 - m.leading_zeros() as usize;
                break;
            }
            if w == 0 || level + 1 == self.levels.len() {
                return None;
            }
            (level, i) = (level + 1, w - 1);
        }
        while level > 0 {
            level -= 1;
            i = i * 64 + 63 - self.levels[level][i].leading_zeros() as usize;
        }
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_and_prev_match_a_plain_scan() {
        let mut rng = grid_core::Seed(0x2545_f491_4f6c_dd1d).rng();
        let mut rand = move |n: usize| grid_core::below(&mut rng, n);
        for n in [1, 5, 63, 64, 65, 4095, 4097, 300_000] {
            let mut bits = Bits::new(n);
            let mut plain = vec![false; n];
            for round in 0..400 {
                // Dense at first, then mostly removals, so both long and short gaps occur.
                let i = rand(n);
                let on = rand(4) < if round < 200 { 3 } else { 1 };
                bits.set(i, on);
                plain[i] = on;
                let q = rand(n);
                let (lo, hi) = (rand(q + 1), q + 1 + rand(n - q));
                let next = (q..hi).find(|&j| plain[j]);
                assert_eq!(bits.next(q, hi), next, "n {n} next {q} before {hi}");
                let prev = (lo..=q).rev().find(|&j| plain[j]);
                assert_eq!(bits.prev(q, lo), prev, "n {n} prev {q} from {lo}");
                assert_eq!(bits.next(q, n), (q..n).find(|&j| plain[j]));
                assert_eq!(bits.prev(q, 0), (0..=q).rev().find(|&j| plain[j]));
                assert_eq!(bits.contains(q), plain[q]);
            }
        }
    }
}
