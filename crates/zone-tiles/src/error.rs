//! The one error type of the crate.

use std::path::PathBuf;
use thiserror::Error;

/// Everything that can go wrong in `zone-tiles`, naming where and what was expected.
#[derive(Debug, Error)]
pub enum ZoneError {
    /// A zone is split into 3x3 cells, so its side in pixels must be a positive multiple of 3.
    #[error("zone size {size} is not a positive multiple of 3 (a zone is 3x3 cells)")]
    ZoneSizeNotDivisible {
        /// The requested zone side in pixels.
        size: u32,
    },
    /// A zone side too large for the atlas images (more than 1024 px).
    #[error("zone size {size} is too large (at most {max} px)")]
    ZoneSizeTooLarge {
        /// The requested zone side in pixels.
        size: u32,
        /// The largest accepted side.
        max: u32,
    },
    /// A fixed threshold outside [0, 1] (noise is normalised to [0, 1]).
    #[error("threshold {value} is out of range: expected a number in [0, 1]")]
    ThresholdOutOfRange {
        /// The value given.
        value: f64,
    },
    /// A fill fraction outside [0, 1].
    #[error("fill {value} is out of range: expected the fraction of cells on, in [0, 1]")]
    FillOutOfRange {
        /// The value given.
        value: f64,
    },
    /// A noise parameter out of its range.
    #[error("noise parameter `{name}` = {value} is out of range: expected {expected}")]
    NoiseParam {
        /// The parameter's name (`scale`, `octaves`, `persistence`, `n`, `points`).
        name: &'static str,
        /// The value given.
        value: f64,
        /// The accepted range, in words.
        expected: &'static str,
    },
    /// Two options that exclude each other, both given.
    #[error("`{first}` and `{second}` exclude each other: give one of them")]
    ConflictingOptions {
        /// The first option's name.
        first: &'static str,
        /// The second option's name.
        second: &'static str,
    },
    /// A sampling stride of 0 or larger than the cell.
    #[error("sampling stride {stride} is out of range: expected 1..={cell} (the cell side)")]
    Stride {
        /// The stride given.
        stride: u32,
        /// The cell side in pixels.
        cell: u32,
    },
    /// A window of zones that is empty or too large.
    #[error("world window {width}x{height} zones is out of range: expected 1..={max} per side")]
    WindowSize {
        /// Zones across.
        width: u64,
        /// Zones down.
        height: u64,
        /// The largest accepted side.
        max: u64,
    },
    /// A zone coordinate outside the supported plane.
    #[error("zone coordinate {value} is out of range: expected -{limit}..{limit}")]
    ZoneCoord {
        /// The coordinate given.
        value: i64,
        /// The bound.
        limit: i64,
    },
    /// An atlas image whose size does not match the layout.
    #[error(
        "{what} atlas image is {found_w}x{found_h} px, expected {expected_w}x{expected_h} px \
         ({cols}x{rows} tiles of {zone} px)"
    )]
    AtlasSize {
        /// `"full"` (512 tiles) or `"reduced"` (102 tiles).
        what: &'static str,
        /// Width found.
        found_w: u32,
        /// Height found.
        found_h: u32,
        /// Width expected.
        expected_w: u32,
        /// Height expected.
        expected_h: u32,
        /// Tiles across.
        cols: u32,
        /// Tiles down.
        rows: u32,
        /// Zone (tile) side in pixels.
        zone: u32,
    },
    /// An atlas image that is not a multiple of the layout, so no zone size fits.
    #[error(
        "atlas image {width}x{height} px fits no layout: expected 32N x 16N (512 tiles) \
         or 17N x 6N (102 tiles) with N a multiple of 3, or 4T x 4T (16 corner tiles)"
    )]
    AtlasLayout {
        /// Width found.
        width: u32,
        /// Height found.
        height: u32,
    },
    /// A corner atlas (a square image) that is not 4x4 tiles.
    #[error(
        "corner atlas image {width}x{height} px is not 4x4 square tiles: expected 4T x 4T px \
         (16 corner tiles of T px, in the order of the docs)"
    )]
    CornerAtlasSize {
        /// Width found.
        width: u32,
        /// Height found.
        height: u32,
    },
    /// A biome atlas that is not three atlases of one layout stacked top to bottom.
    #[error(
        "biome atlas image {width}x{height} px is not three atlases stacked top to bottom \
         (water, grass, rock): expected 32N x 48N (512 tiles each) or 17N x 18N (102 tiles \
         each) with N a multiple of 3"
    )]
    BiomeAtlasLayout {
        /// Width found.
        width: u32,
        /// Height found.
        height: u32,
    },
    /// An image that could not be decoded.
    #[error("{path}: cannot read image: {message}")]
    Image {
        /// The file.
        path: PathBuf,
        /// What the decoder said.
        message: String,
    },
    /// A parameter string that does not parse (`--zones 20x20`, `worley`, ...).
    #[error("cannot parse {what} {}: expected {expected}", grid_core::text::excerpt(.text))]
    Parse {
        /// What was being parsed.
        what: &'static str,
        /// The text given.
        text: String,
        /// What would have been accepted.
        expected: &'static str,
    },
    /// Work over a documented budget (see [`crate::limits`]).
    #[error(
        "{what} needs {needed} units of noise work, more than the limit of {limit} \
         (one unit = one noise sample of one octave); {hint}"
    )]
    Budget {
        /// What was measured (`one zone`, `the window`).
        what: &'static str,
        /// Units needed.
        needed: u64,
        /// The limit ([`crate::limits::MAX_ZONE_WORK`] or [`crate::limits::MAX_WINDOW_WORK`]).
        limit: u64,
        /// What to change.
        hint: &'static str,
    },
    /// A window with more zones than [`crate::limits::MAX_WINDOW_ZONES`].
    #[error(
        "a window of {width}x{height} zones holds {zones} zones, more than the limit of {limit}"
    )]
    TooManyZones {
        /// Zones across.
        width: u64,
        /// Zones down.
        height: u64,
        /// Their product.
        zones: u64,
        /// The limit.
        limit: u64,
    },
    /// A picture larger than [`crate::limits::MAX_IMAGE_PIXELS`].
    #[error(
        "the picture would be {width}x{height} px ({pixels} px), more than the limit of {limit} px; \
         ask for fewer zones or a smaller --zone-size"
    )]
    ImageTooLarge {
        /// Width in pixels.
        width: u64,
        /// Height in pixels.
        height: u64,
        /// Their product.
        pixels: u64,
        /// The limit.
        limit: u64,
    },
    /// An atlas image larger than [`crate::limits::MAX_ATLAS_PIXELS`].
    #[error(
        "an atlas of {zone} px tiles would have {pixels} px, more than the limit of {limit} px; \
         use a zone size of at most {max_zone}"
    )]
    AtlasTooLarge {
        /// The tile side asked for.
        zone: u32,
        /// Pixels the atlas would have.
        pixels: u64,
        /// The limit.
        limit: u64,
        /// The largest zone size (multiple of 3) that fits.
        max_zone: u64,
    },
    /// A state index of 512 or more.
    #[error("zone state {0} is out of range: expected 0..512")]
    State(u32),
    /// Corner tiles draw shared nodes, which only seamless worlds have.
    #[error(
        "corner tiles need a seamless world (in reference mode neighbouring zones disagree \
         at their borders); use the zone tiles or an atlas with reference mode"
    )]
    CornerTilesNeedSeamless,
    /// Writing a file failed.
    #[error("{path}: {message}")]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

/// A short, readable description of an image decoding failure: the decoder's category,
/// never its debug output (which names internal chunk structures).
pub fn image_error_message(e: &image::ImageError) -> String {
    use image::ImageError as E;
    match e {
        E::Decoding(_) => "not a valid image (corrupt or truncated data)".into(),
        E::Unsupported(_) => "unsupported image format or colour type".into(),
        E::Limits(_) => "image too large to decode".into(),
        E::IoError(io) => match io.kind() {
            std::io::ErrorKind::UnexpectedEof => "unexpected end of file".into(),
            _ => io.to_string(),
        },
        E::Encoding(_) => "cannot encode the image".into(),
        E::Parameter(_) => "invalid image parameters".into(),
    }
}

/// Shorthand for results of this crate.
pub type Result<T, E = ZoneError> = std::result::Result<T, E>;
