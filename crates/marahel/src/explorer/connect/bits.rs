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
