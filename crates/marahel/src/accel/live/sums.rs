//! Whole-plane sums of padded weight planes, for byte planes (`u8`) and paired planes (`u16`,
//! two byte counts per cell): the lanes add with wrapping, so a pair adds both its bytes.

/// A count lane of a padded plane.
pub trait WrappingSum: Copy + Default {
    /// Wrapping addition.
    fn add(self, other: Self) -> Self;
}

impl WrappingSum for u8 {
    #[inline(always)]
    fn add(self, other: u8) -> u8 {
        self.wrapping_add(other)
    }
}

impl WrappingSum for u16 {
    #[inline(always)]
    fn add(self, other: u16) -> u16 {
        self.wrapping_add(other)
    }
}

/// The 3x3 box sums of the weights `pad` at `dst`'s cells: `dst[j]` is the sum around padded
/// index `o + j` (pitch `p`); `rows` is scratch.
pub fn box_sums<T: WrappingSum>(dst: &mut [T], rows: &mut Vec<T>, pad: &[T], o: usize, p: usize) {
    let span = dst.len();
    if rows.len() < span + 2 * p {
        rows.resize(span + 2 * p, T::default());
    }
    // Row sums of three around `o - p + j`, then column sums of three row sums.
    let rows = &mut rows[..span + 2 * p];
    let pad = &pad[o - p - 1..o + span + p + 1];
    for (((h, &a), &b), &c) in rows.iter_mut().zip(pad).zip(&pad[1..]).zip(&pad[2..]) {
        *h = a.add(b).add(c);
    }
    for (((d, &a), &b), &c) in dst
        .iter_mut()
        .zip(&rows[..])
        .zip(&rows[p..])
        .zip(&rows[2 * p..])
    {
        *d = a.add(b).add(c);
    }
}

/// The sums of the weights `pad` over the padded index deltas `reads` at `dst`'s cells:
/// `dst[j]` is the sum around padded index `o + j`.
pub fn offset_sums<T: WrappingSum>(
    dst: &mut [T],
    pad: &[T],
    o: usize,
    reads: impl Iterator<Item = isize>,
) {
    let span = dst.len();
    dst.fill(T::default());
    for d in reads {
        let from = (o as isize + d) as usize;
        for (a, &v) in dst.iter_mut().zip(&pad[from..from + span]) {
            *a = a.add(v);
        }
    }
}
