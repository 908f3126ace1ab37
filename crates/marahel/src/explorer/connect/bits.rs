//! Cells to bits for the run scan (module `runs`): which cells of a row, or of a whole
//! region read as one stream, hold one of the chosen entities, eight cells per word
//! compare.

/// Bit `i` set iff byte `i` of `word` equals the byte repeated in `pat` (exact: no carries
/// between bytes), for `i` in `0..8`.
#[inline(always)]
pub fn eq_bits(word: u64, pat: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let x = word ^ pat;
    // 0x80 in each byte of x that is zero.
    let z = !(((x & LOW7) + LOW7) | x | LOW7);
    // Bits 7, 15, ..., 63 to bits 56..64 (the products land on distinct bits: no carries).
    (z >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The hits of up to 64 cells as bits; `bits8` gives the hits of eight cells read as a
/// little-endian word, as bits 0..8.
#[inline(always)]
pub fn hit_bits(chunk: &[u8], bits8: impl Fn(u64) -> u64, hit: impl Fn(u8) -> bool) -> u64 {
    let word8 = |c8: &[u8]| bits8(u64::from_le_bytes(c8.try_into().expect("eight cells")));
    // Each group of eight cells enters at the top (a shift recurrence, which the compiler
    // keeps scalar: its vector form of the 64-bit multiply costs more).
    let mut word = 0u64;
    let mut eights = chunk.chunks_exact(8);
    for c8 in &mut eights {
        word = (word >> 8) | (word8(c8) << 56);
    }
    let done = chunk.len() & !7;
    word = word.checked_shr(64 - done as u32).unwrap_or(0);
    let rest = eights.remainder();
    if rest.is_empty() {
        word
    } else if done > 0 {
        // The last eight cells, overlapping the groups already read.
        word | (word8(&chunk[chunk.len() - 8..]) << (chunk.len() - 8))
    } else {
        rest.iter()
            .enumerate()
            .fold(0, |w, (i, &c)| w | u64::from(hit(c)) << i)
    }
}

/// The hits of `cells` as a bitset (cell `i` at bit `i % 64` of word `i / 64`), and one
/// more zero word.
#[inline(always)]
pub fn bitset(
    cells: &[u8],
    bits8: impl Fn(u64) -> u64 + Copy,
    hit: impl Fn(u8) -> bool + Copy,
    out: &mut Vec<u64>,
) {
    out.clear();
    let mut c64 = cells.chunks_exact(64);
    for chunk in &mut c64 {
        let mut word = 0u64;
        for c8 in chunk.chunks_exact(8) {
            let v = u64::from_le_bytes(c8.try_into().expect("eight cells"));
            word = (word >> 8) | (bits8(v) << 56);
        }
        out.push(word);
    }
    if !c64.remainder().is_empty() {
        out.push(hit_bits(c64.remainder(), bits8, hit));
    }
    out.push(0);
}

/// The 8x8 bit matrix `x` (row `i` in byte `i`, column `j` at bit `j` of it) transposed:
/// bit `8i + j` to bit `8j + i` (three delta swaps).
#[inline(always)]
fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00aa_00aa_00aa_00aa;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_cccc_0000_cccc;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_f0f0_f0f0;
    x ^ t ^ (t << 28)
}

/// [`bitset`] for cells that all hold code 0 or 1, the hits being the cells holding 1:
/// the bits are the cells' low bits (bit 0 of eight bytes at a time, transposed), or
/// `false` (and `out` unspecified) when some cell holds another code.
pub fn bitset01(cells: &[u8], out: &mut Vec<u64>) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let words = cells.len().div_ceil(64);
    out.clear();
    out.resize(words + 1, 0);
    let mut seen = 0u64;
    let c64 = cells.chunks_exact(64);
    let rest = c64.remainder();
    for (chunk, o) in c64.zip(out.iter_mut()) {
        // Byte `i` of `t` gets cell `8j + i` at bit `j` (when every cell is 0 or 1, no other
        // bit is set): transposed, bit `8j + i`.
        let mut t = 0u64;
        for (j, c8) in chunk.chunks_exact(8).enumerate() {
            let v = u64::from_le_bytes(c8.try_into().expect("eight cells"));
            seen |= v;
            t |= v << j;
        }
        *o = transpose8(t);
    }
    if !rest.is_empty() {
        let mut word = 0u64;
        for (i, &c) in rest.iter().enumerate() {
            seen |= u64::from(c);
            word |= u64::from(c & 1) << i;
        }
        out[words - 1] = word;
    }
    seen & !ONES == 0
}

#[cfg(test)]
mod tests {
    use super::{bitset, bitset01, eq_bits, transpose8};
    use grid_core::Seed;
    use grid_core::rand::Rng;

    /// [`transpose8`] moves bit `8i + j` to `8j + i`.
    #[test]
    fn transpose8_transposes() {
        let mut rng = Seed(1).rng();
        for _ in 0..10_000 {
            let s = rng.next_u64();
            let mut t = 0u64;
            for i in 0..8 {
                for j in 0..8 {
                    t |= (s >> (8 * i + j) & 1) << (8 * j + i);
                }
            }
            assert_eq!(transpose8(s), t);
        }
    }

    /// [`bitset01`] is [`bitset`] for the code 1 on cells of codes 0 and 1, and refuses
    /// other cells.
    #[test]
    fn bitset01_is_bitset_of_ones() {
        let mut rng = Seed(2).rng();
        for len in 0..300 {
            let s = rng.next_u64();
            let cells: Vec<u8> = (0..len)
                .map(|i| (s.rotate_left(i as u32 % 64) & 1) as u8)
                .collect();
            let (mut a, mut b) = (Vec::new(), Vec::new());
            assert!(bitset01(&cells, &mut a));
            let pat = 0x0101_0101_0101_0101;
            bitset(&cells, |v| eq_bits(v, pat), |c| c == 1, &mut b);
            assert_eq!(a, b, "len {len}");
            if len > 0 {
                let mut bad = cells.clone();
                bad[(s % len as u64) as usize] = 2 + (s >> 60) as u8;
                assert!(!bitset01(&bad, &mut a));
            }
        }
    }
}
