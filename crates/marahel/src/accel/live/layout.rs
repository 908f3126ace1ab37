//! The three layouts of a pass's counts (see the [`crate::accel::live`] module docs), for code
//! generic over them: the kernels' scans read counts through these.

use super::{LivePlanes, SLACK};

/// A layout of a pass's counts, for code generic over it: [`Words`], [`Bytes`] or [`Pairs`].
pub trait CountLayout {
    /// The counts as stored.
    type View<'a>: Copy;
    /// The counts of `live`, when they are stored in this layout.
    fn view(live: &LivePlanes) -> Option<Self::View<'_>>;
    /// Count of plane `k` at padded index `i`.
    fn count(v: Self::View<'_>, k: usize, i: usize) -> u32;
}

/// A layout of byte counts.
pub trait ByteLayout: CountLayout {
    /// The counts of plane `k` at padded indices `i..i + 16`, `i` a region cell.
    fn block(v: Self::View<'_>, k: usize, i: usize) -> [u8; SLACK];
}

/// Counts as words: plane `k` at `data[k * len..]`.
#[derive(Debug)]
pub struct Words;

/// Counts as bytes: plane `k` at `bytes[k * len..]`.
#[derive(Debug)]
pub struct Bytes;

/// Two byte planes of the same neighbourhood interleaved: cell `i` holds the first plane's
/// count plus 256 times the second's, wrapping (see the module docs).
#[derive(Debug)]
pub struct Pairs;

impl CountLayout for Words {
    type View<'a> = (&'a [u32], usize);
    #[inline(always)]
    fn view(live: &LivePlanes) -> Option<Self::View<'_>> {
        (!live.small).then_some((&live.store.data, live.len))
    }
    #[inline(always)]
    fn count((data, len): Self::View<'_>, k: usize, i: usize) -> u32 {
        data[k * len + i]
    }
}

impl CountLayout for Bytes {
    type View<'a> = (&'a [u8], usize);
    #[inline(always)]
    fn view(live: &LivePlanes) -> Option<Self::View<'_>> {
        (live.small && !live.paired).then_some((&live.store.bytes, live.len))
    }
    #[inline(always)]
    fn count((bytes, len): Self::View<'_>, k: usize, i: usize) -> u32 {
        bytes[k * len + i] as u32
    }
}

impl ByteLayout for Bytes {
    #[inline(always)]
    fn block((bytes, len): Self::View<'_>, k: usize, i: usize) -> [u8; SLACK] {
        let at = k * len + i;
        bytes[at..at + SLACK].try_into().expect("a block")
    }
}

impl CountLayout for Pairs {
    type View<'a> = &'a [u16];
    #[inline(always)]
    fn view(live: &LivePlanes) -> Option<Self::View<'_>> {
        live.paired.then_some(&live.store.pairs)
    }
    #[inline(always)]
    fn count(pairs: Self::View<'_>, k: usize, i: usize) -> u32 {
        (pairs[i] >> (8 * k)) as u8 as u32
    }
}

impl ByteLayout for Pairs {
    #[inline(always)]
    fn block(pairs: Self::View<'_>, k: usize, i: usize) -> [u8; SLACK] {
        let words: &[u16; SLACK] = pairs[i..i + SLACK].try_into().expect("a block");
        let shift = 8 * k as u32;
        words.map(|w| (w >> shift) as u8)
    }
}
