//! Flags every generator subcommand shares, and how they become an output plan.
//!
//! A run is planned before anything is generated: its seeds (an empty range is an error),
//! where each map goes ([`Plan::target`]) and in which format. A format the generator cannot
//! write, or a `--format` that disagrees with the extension of a file `--out`, is bad input
//! found before any work. The flags are described for users in `docs/cli.md`.

use super::error::CliError;
use super::output::{Output, Target, note};
use crate::batch::{Batch, SeedRange};
use clap::Args;
use grid_core::TileMap;
use grid_core::export::{self, ExportOptions};
use grid_core::overrides::{Override, apply_all};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Flags shared by every generator subcommand.
#[derive(Args, Debug, Clone)]
pub struct CommonArgs {
    /// Seed of the first map; map `i` of a batch uses seed `seed + i`.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Number of maps to generate (seeds `seed..seed+count`), in parallel.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,
    /// Seeds as a range `A..B` (B excluded) or `A..=B` (B included), instead of --seed and
    /// --count: split a large run across machines or job arrays and concatenate the pieces.
    #[arg(long, conflicts_with_all = ["seed", "count"])]
    pub seeds: Option<SeedRange>,
    /// Where the maps go: `-` for stdout (the default); a file, its format from its
    /// extension (a batch writes `STEM_SEED.EXT`); a directory (`DIR/` or an existing one:
    /// one file per map, `NAME_SEED.EXT`, in the generator's own format unless --format); or
    /// a path containing `{seed}`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Output format, as an extension (`png`, `json`, ...): for a directory or stdout; with a
    /// file --out it must agree with the file's extension.
    #[arg(long)]
    pub format: Option<String>,
    /// Print no messages, only errors; never silences the output asked for.
    #[arg(long, short)]
    pub quiet: bool,
    /// Also print every map's summary and every file written (no progress bar).
    #[arg(long, short, conflicts_with = "quiet")]
    pub verbose: bool,
}

/// The formats one generator writes.
#[derive(Clone, Copy, Debug)]
pub struct Formats {
    /// The subcommand, for messages.
    pub generator: &'static str,
    /// The extensions it writes (lower case, no dot).
    pub known: &'static [&'static str],
    /// The format of a directory `--out` without `--format`: the generator's own.
    pub dir: &'static str,
    /// The format on stdout without `--format`.
    pub stdout: &'static str,
}

/// Formats that write more than one file (a TMX map and its tileset image), so never stdout.
const MULTI_FILE: [&str; 1] = ["tmx"];

/// Where a run's maps go.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Dest {
    Stdout,
    File(PathBuf),
    Pattern(String),
    Dir(PathBuf),
    /// An existing FIFO or device (`/dev/null`, a process substitution): every map is
    /// written into it, in the stdout format unless `--format`.
    Device(PathBuf),
}

/// A run's output, decided before generating: the seeds, the format and each map's target.
#[derive(Clone, Debug)]
pub struct Plan {
    dest: Dest,
    format: String,
    name: String,
    seeds: SeedRange,
}

impl CommonArgs {
    /// The seeds of this run: `--seeds A..B`, or `count` seeds from `seed` (stopping at
    /// `u64::MAX`; [`CommonArgs::checked_seeds`] rejects what that would cut).
    pub fn seed_range(&self) -> SeedRange {
        self.seeds
            .unwrap_or_else(|| SeedRange::from_count(self.seed, self.count))
    }

    /// The seeds of this run, or bad input when they are fewer than asked (an empty
    /// `--seeds A..A`, or `--seed S --count N` running past the last seed).
    pub fn checked_seeds(&self) -> Result<SeedRange, CliError> {
        let range = self.seed_range();
        if let Some(r) = self.seeds {
            if r.is_empty() {
                return Err(CliError::input_msg(format!(
                    "--seeds {r}: the range holds no seed (B is excluded)"
                )));
            }
        } else if range.len() < self.count {
            return Err(CliError::input_msg(format!(
                "--seed {} --count {}: the seeds would pass {}, the last seed (at most {} \
                 maps from this seed)",
                self.seed,
                self.count,
                u64::MAX,
                range.len()
            )));
        }
        Ok(range)
    }

    /// Whether this run makes more than one map.
    pub fn is_batch(&self) -> bool {
        self.seed_range().len() > 1
    }

    /// The parallel batch over this run's seeds: a progress bar on a terminal, unless quiet
    /// or verbose (whose per-map lines would break it).
    pub fn batch(&self, label: &str) -> Batch {
        Batch::new(self.seed_range())
            .quiet(self.quiet || self.verbose)
            .label(label)
    }

    /// The messages of this run.
    pub fn messages(&self) -> Messages {
        Messages {
            quiet: self.quiet,
            verbose: self.verbose,
            batch: self.is_batch(),
            written: Arc::default(),
        }
    }

    /// Plans the run's output: `name` names the files in a directory (the input's stem).
    pub fn plan(&self, name: &str, formats: &Formats) -> Result<Plan, CliError> {
        let seeds = self.checked_seeds()?;
        let batch = seeds.len() > 1;
        let chosen = match &self.format {
            Some(f) => Some(known_format(
                f.trim_start_matches('.'),
                formats,
                "--format",
            )?),
            None => None,
        };
        let (dest, format) = match self.out.as_deref().map(Target::from_arg) {
            None | Some(Target::Stdout) => (Dest::Stdout, chosen.unwrap_or(formats.stdout)),
            Some(Target::File(out)) if is_device(&out) => {
                if batch && is_fifo(&out) {
                    return Err(CliError::input_msg(format!(
                        "--out {}: a batch cannot go into one FIFO (its reader would stop at \
                         the first map's end); use stdout (`--out -`) and a pipe",
                        out.display()
                    )));
                }
                (Dest::Device(out), chosen.unwrap_or(formats.stdout))
            }
            Some(Target::File(out)) => {
                let text = out.to_string_lossy().into_owned();
                let dir = out.is_dir()
                    || text.ends_with('/')
                    || (!out.exists() && out.extension().is_none() && !text.contains("{seed}"));
                if dir {
                    (Dest::Dir(out), chosen.unwrap_or(formats.dir))
                } else {
                    let ext = extension(&out);
                    let format = known_format(&ext, formats, &out.display().to_string())?;
                    if let Some(c) = chosen
                        && c != format
                    {
                        return Err(CliError::input_msg(format!(
                            "--format {c} disagrees with --out {} (a .{format} file)",
                            out.display()
                        )));
                    }
                    if text.contains("{seed}") {
                        (Dest::Pattern(text), format)
                    } else {
                        (Dest::File(out), format)
                    }
                }
            }
        };
        if matches!(dest, Dest::Stdout | Dest::Device(_)) && MULTI_FILE.contains(&format) {
            return Err(CliError::input_msg(format!(
                "a .{format} map comes with a tileset image beside it, so it cannot go to \
                 stdout: give --out a file or directory"
            )));
        }
        Ok(Plan {
            dest,
            format: format.to_string(),
            name: name.to_string(),
            seeds,
        })
    }
}

/// `ext` if `formats` knows it, else bad input naming `what`.
fn known_format(ext: &str, formats: &Formats, what: &str) -> Result<&'static str, CliError> {
    let lower = ext.to_ascii_lowercase();
    formats
        .known
        .iter()
        .find(|k| **k == lower)
        .copied()
        .ok_or_else(|| {
            CliError::input_msg(format!(
                "{what}: {} does not write {} files (it writes .{})",
                formats.generator,
                if lower.is_empty() {
                    "extension-less".to_string()
                } else {
                    format!(".{}", grid_core::text::excerpt(&lower).trim_matches('"'))
                },
                formats.known.join(", .")
            ))
        })
}

impl Plan {
    /// The output format (an extension).
    pub fn format(&self) -> &str {
        &self.format
    }

    /// The seeds of the run.
    pub fn seeds(&self) -> SeedRange {
        self.seeds
    }

    /// Whether the run makes more than one map.
    pub fn is_batch(&self) -> bool {
        self.seeds.len() > 1
    }

    /// Whether the maps go to stdout.
    pub fn to_stdout(&self) -> bool {
        self.dest == Dest::Stdout
    }

    /// Where map `seed` goes.
    pub fn target(&self, seed: u64) -> Target {
        match &self.dest {
            Dest::Stdout => Target::Stdout,
            Dest::Dir(d) => Target::File(d.join(format!("{}_{seed}.{}", self.name, self.format))),
            Dest::Pattern(p) => Target::File(PathBuf::from(p.replace("{seed}", &seed.to_string()))),
            Dest::Device(d) => Target::File(d.clone()),
            Dest::File(f) if self.is_batch() => Target::File(numbered(f, seed)),
            Dest::File(f) => Target::File(f.clone()),
        }
    }

    /// Checks a preview flag (`--png`) before generating: a `.png` file, not the file the
    /// map itself goes to.
    pub fn check_preview(&self, flag: &str, path: &Path) -> Result<(), CliError> {
        if path.as_os_str() == "-" || extension(path) != "png" {
            return Err(CliError::input_msg(format!(
                "{flag} {}: expected a .png file",
                path.display()
            )));
        }
        let seed = self.seeds.start;
        if Target::File(self.preview(path, seed)) == self.target(seed) {
            return Err(CliError::input_msg(format!(
                "{flag} {}: is also --out; give the preview another name",
                path.display()
            )));
        }
        Ok(())
    }

    /// Where the preview of map `seed` goes: `path`, or in a batch `STEM_SEED.png` (a path
    /// containing `{seed}` is filled in instead).
    pub fn preview(&self, path: &Path, seed: u64) -> PathBuf {
        let text = path.to_string_lossy();
        if text.contains("{seed}") {
            PathBuf::from(text.replace("{seed}", &seed.to_string()))
        } else if self.is_batch() {
            numbered(path, seed)
        } else {
            path.to_path_buf()
        }
    }
}

/// Whether `path` exists and is neither a regular file nor a directory (a FIFO, a device).
fn is_device(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Whether `path` is a FIFO (a named pipe, a process substitution).
fn is_fifo(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo())
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// `dir/stem.ext` -> `dir/stem_SEED.ext`.
fn numbered(path: &Path, seed: u64) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or("map".into(), |s| s.to_string_lossy());
    let name = match path.extension() {
        Some(ext) => format!("{stem}_{seed}.{}", ext.to_string_lossy()),
        None => format!("{stem}_{seed}"),
    };
    path.with_file_name(name)
}

/// A run's messages on stderr: summaries, warnings and files written, by verbosity.
#[derive(Clone, Debug)]
pub struct Messages {
    quiet: bool,
    verbose: bool,
    batch: bool,
    written: Arc<Mutex<Written>>,
}

/// The files a run has written, for its closing `wrote ...` line.
#[derive(Debug, Default)]
struct Written {
    count: usize,
    first: Option<PathBuf>,
    /// The folder every file went into, while they all share one.
    dir: Option<PathBuf>,
    mixed: bool,
}

impl Messages {
    /// A map's summary: shown for a single map, or for every map with `-v`.
    pub fn summary(&self, text: impl AsRef<str>) {
        if !self.quiet && (self.verbose || !self.batch) {
            note(text);
        }
    }

    /// A warning or notice: shown unless quiet.
    pub fn warn(&self, text: impl AsRef<str>) {
        if !self.quiet {
            note(text);
        }
    }

    /// A file written: counted for [`Messages::finish`], and shown at once with `-v`.
    pub fn wrote(&self, target: &Target) {
        let Target::File(p) = target else { return };
        if self.verbose {
            note(format!("wrote {}", p.display()));
        }
        let mut w = self.written.lock().unwrap_or_else(|e| e.into_inner());
        w.count += 1;
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        match &w.dir {
            None if w.first.is_none() => w.dir = Some(dir),
            Some(d) if *d != dir => w.mixed = true,
            _ => {}
        }
        if w.first.is_none() {
            w.first = Some(p.clone());
        }
    }

    /// The run's closing line, unless quiet or verbose (which named every file): `wrote
    /// PATH` for one file, `wrote N files to DIR` for more (`wrote N files` when they went
    /// to several folders); nothing when the output went to stdout.
    pub fn finish(&self) {
        if self.quiet || self.verbose {
            return;
        }
        let w = self.written.lock().unwrap_or_else(|e| e.into_inner());
        match (w.count, &w.first, &w.dir) {
            (0, _, _) => {}
            (1, Some(p), _) => note(format!("wrote {}", p.display())),
            (n, _, Some(d)) if !w.mixed => note(format!("wrote {n} files to {}", d.display())),
            (n, _, _) => note(format!("wrote {n} files")),
        }
    }
}

/// Writes any map in a generic format (`txt`, `json`, `png`, `tmx`) to `target`. On stdout,
/// text is the map alone; a `.txt` file adds the legend.
pub fn write_generic(
    out: &Output,
    map: &dyn TileMap,
    target: &Target,
    format: &str,
    opts: &ExportOptions,
) -> Result<(), CliError> {
    let bytes = match format {
        "txt" if *target == Target::Stdout => export::to_text(map).into_bytes(),
        "txt" => {
            let mut s = export::to_text(map);
            s.push('\n');
            s.push_str(&export::legend_text(map.legend()));
            s.into_bytes()
        }
        "json" => export::to_json(map, opts.json_tiles).into_bytes(),
        "png" => {
            let (w, h, rgb) = export::render_rgb(map, opts.png_scale);
            export::encode_png(w, h, &rgb).map_err(CliError::output_msg)?
        }
        "tmx" => {
            let Target::File(path) = target else {
                return Err(CliError::input_msg("a .tmx map cannot go to stdout"));
            };
            return out.write_files(path, |tmp| {
                export::write_tmx(map, tmp, opts.tmx_tile_size).map_err(CliError::output)
            });
        }
        other => {
            return Err(CliError::input_msg(format!(
                "unknown output format .{other} (expected .txt, .json, .png or .tmx)"
            )));
        }
    };
    out.write(target, &bytes)
}

/// Writes a `.json` or `.tmx` map with `objects` as well: a JSON `objects` list or a TMX
/// object group beside the tile layer (`grid_core::export::objects`).
pub fn write_with_objects(
    out: &Output,
    map: &dyn TileMap,
    target: &Target,
    format: &str,
    objects: &[export::MapObject],
    opts: &ExportOptions,
) -> Result<(), CliError> {
    match (format, target) {
        ("json", _) => out.write(
            target,
            export::to_json_with_objects(map, opts.json_tiles, objects).as_bytes(),
        ),
        (_, Target::File(path)) => out.write_files(path, |tmp| {
            let image = export::tileset_file_name(tmp);
            let (w, h, px) = export::tileset_image(map.legend(), opts.tmx_tile_size);
            export::write_rgb_png(&tmp.with_file_name(&image), w, h, &px)
                .map_err(CliError::output)?;
            let doc = export::to_tmx_with_objects(map, opts.tmx_tile_size, &image, objects);
            std::fs::write(tmp, doc).map_err(|e| CliError::output_msg(e.to_string()))
        }),
        _ => Err(CliError::input_msg("a .tmx map cannot go to stdout")),
    }
}

/// The generic formats, written by [`write_generic`].
pub const GENERIC: [&str; 4] = ["txt", "json", "png", "tmx"];

/// Reads the JSON input `path` and applies the `--set` overrides (flag `flag`) to it,
/// returning the text for the crate's parser. An input that is valid JSON but not an object
/// is rejected here; a syntax error is left to the crate's parser, which names its place.
pub fn json_input(path: &Path, sets: &[Override], flag: &str) -> Result<String, CliError> {
    let text = super::output::read_text(path)?;
    json_with_overrides(&text, sets, flag)
        .map_err(|e| CliError::input_msg(format!("{}: {e}", path.display())))
}

/// [`json_input`] for text in hand (`text` is returned as it is when there is nothing to
/// change, so the crate's error locations stay true).
pub fn json_with_overrides(text: &str, sets: &[Override], flag: &str) -> Result<String, String> {
    let Ok(mut doc) = serde_json::from_str::<serde_json::Value>(text) else {
        return Ok(text.to_string());
    };
    if !doc.is_object() {
        return Err(format!(
            "expected a JSON object {{...}}, found {}",
            grid_core::text::json_kind(&doc)
        ));
    }
    if sets.is_empty() {
        return Ok(text.to_string());
    }
    apply_all(&mut doc, sets).map_err(|e| format!("{flag}: {e}"))?;
    serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())
}

/// A map size `WxH` (the `--size` of every generator): two whole numbers of at least 1
/// written in ASCII digits, joined by `x` or `X`, and nothing else: no spaces, signs or
/// other characters anywhere (`' 64x64'`, `'64x 64'` and `'+64x64'` are refused alike).
pub fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let bad = || {
        format!(
            "{}: expected WxH, two whole numbers >= 1 joined by x with no spaces, e.g. 80x50",
            grid_core::text::excerpt(text)
        )
    };
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    match (whole(w), whole(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(bad()),
    }
}

/// A whole number >= 1 in ASCII digits and nothing else (no spaces, no sign); `None` for
/// anything else, or one past `usize::MAX`.
fn whole(text: &str) -> Option<usize> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|&n| n > 0)
}

/// A square map size: `NxN`, or `N` as its shorthand, read as [`parse_size`] reads sizes.
pub fn parse_square(text: &str) -> Result<u32, String> {
    let side = if text.contains(['x', 'X']) {
        match parse_size(text)? {
            (w, h) if w == h => w,
            _ => {
                return Err(format!(
                    "{}: this map is square (NxN, or N)",
                    grid_core::text::excerpt(text)
                ));
            }
        }
    } else {
        whole(text).ok_or_else(|| {
            format!(
                "{}: expected a side N >= 1 or NxN, with no spaces",
                grid_core::text::excerpt(text)
            )
        })?
    };
    u32::try_from(side).map_err(|_| format!("{side}: too large a side"))
}

/// The lower-case extension of `path` (empty if none): what picks an output format.
pub fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// `settings` with the `--set PATH=VALUE` overrides applied through its JSON form (for the
/// generators whose settings are a serde type rather than an input file: mario, zones).
pub fn settings_with_overrides<T>(settings: T, sets: &[Override]) -> Result<T, CliError>
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    if sets.is_empty() {
        return Ok(settings);
    }
    let mut doc =
        serde_json::to_value(settings).map_err(|e| CliError::output_msg(e.to_string()))?;
    apply_all(&mut doc, sets).map_err(|e| CliError::input_msg(format!("--set: {e}")))?;
    serde_json::from_value(doc).map_err(|e| {
        CliError::input_msg(format!(
            "--set: {}",
            grid_core::text::excerpt_with(&e.to_string(), 160)
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::{parse_size, parse_square};

    #[test]
    fn one_strict_size_rule() {
        assert_eq!(parse_size("80x50"), Ok((80, 50)));
        assert_eq!(parse_size("80X50"), Ok((80, 50)));
        assert_eq!(parse_square("64"), Ok(64));
        assert_eq!(parse_square("64x64"), Ok(64));
        for bad in [
            " 64x64", "64x64 ", "64x 64", " 64x 64", "64 x64", "+64x64", "0x5", "5x0", "x5", "5x",
            "5x5x5", "", "64", "1e3x5", "٣x5",
        ] {
            assert!(parse_size(bad).is_err(), "{bad:?}");
        }
        for bad in [
            " 64",
            "64 ",
            " 64x 64",
            "+64",
            "0",
            "64x32",
            "",
            "99999999999",
        ] {
            assert!(parse_square(bad).is_err(), "{bad:?}");
        }
    }
}
