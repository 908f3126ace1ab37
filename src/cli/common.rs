//! Flags every generator subcommand shares, and writing maps where they ask.

use super::error::CliError;
use crate::batch::{Batch, SeedRange};
use clap::Args;
use grid_core::TileMap;
use grid_core::export::{self, ExportOptions, Format};
use std::path::{Path, PathBuf};

/// Flags shared by every generator subcommand.
#[derive(Args, Debug, Clone)]
pub struct CommonArgs {
    /// Seed of the first map; map `i` of a batch uses seed `seed + i`.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Number of maps to generate (seeds `seed..seed+count`), in parallel.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,
    /// Seeds as a half-open range `A..B`, instead of --seed and --count: split a large run
    /// across machines or job arrays and concatenate the pieces.
    #[arg(long, conflicts_with_all = ["seed", "count"])]
    pub seeds: Option<SeedRange>,
    /// Output file; the format follows the extension (.txt, .json, .png, .tmx, and the
    /// generator's own). With --count > 1: a directory, one file per map named by its seed,
    /// or a path containing `{seed}`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// File format when --out is a directory (an extension such as `png`).
    #[arg(long, default_value = "txt")]
    pub format: String,
    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
}

impl CommonArgs {
    /// The seeds of this run: `--seeds A..B`, or `seed..seed+count`.
    pub fn seed_range(&self) -> SeedRange {
        self.seeds
            .unwrap_or_else(|| SeedRange::from_count(self.seed, self.count))
    }

    /// The seeds of this run, in order.
    pub fn seeds(&self) -> std::ops::Range<u64> {
        self.seed_range().iter()
    }

    /// Whether this run makes more than one map.
    pub fn is_batch(&self) -> bool {
        self.seed_range().len() > 1
    }

    /// The parallel batch over this run's seeds (progress bar on a terminal unless quiet).
    pub fn batch(&self, label: &str) -> Batch {
        Batch::new(self.seed_range()).quiet(self.quiet).label(label)
    }

    /// Where map `seed` goes, or `None` to print it. `name` is the file stem used inside a
    /// directory (for example the script's name).
    pub fn out_path(&self, name: &str, seed: u64) -> Option<PathBuf> {
        let out = self.out.as_ref()?;
        let text = out.to_string_lossy();
        if text.contains("{seed}") {
            return Some(PathBuf::from(text.replace("{seed}", &seed.to_string())));
        }
        let is_dir =
            out.is_dir() || text.ends_with('/') || (self.is_batch() && out.extension().is_none());
        if is_dir {
            Some(out.join(format!(
                "{name}_{seed}.{}",
                self.format.trim_start_matches('.')
            )))
        } else if self.is_batch() {
            // Several maps, one file name: number them.
            let stem = out.file_stem().and_then(|s| s.to_str()).unwrap_or(name);
            let ext = out.extension().and_then(|s| s.to_str()).unwrap_or("txt");
            Some(out.with_file_name(format!("{stem}_{seed}.{ext}")))
        } else {
            Some(out.clone())
        }
    }

    /// Prints `text` unless quiet.
    pub fn say(&self, text: impl AsRef<str>) {
        if !self.quiet {
            println!("{}", text.as_ref());
        }
    }

    /// Tells on stderr (unless quiet) that a file was written.
    pub fn wrote(&self, path: &Path) {
        if !self.quiet {
            eprintln!("wrote {}", path.display());
        }
    }
}

/// The lower-case extension of `path` (empty if none): what picks an output format.
pub fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// Creates the parent directory of `path` if it is missing.
pub fn ensure_parent(path: &Path) -> Result<(), CliError> {
    if let Some(parent) = path.parent()
        && !parent.as_os_str().is_empty()
    {
        std::fs::create_dir_all(parent).map_err(|e| {
            CliError::output(std::io::Error::new(
                e.kind(),
                format!("{}: {e}", parent.display()),
            ))
        })?;
    }
    Ok(())
}

/// Writes any map in a generic format (.txt, .json, .png, .tmx), creating directories.
pub fn write_generic(map: &dyn TileMap, path: &Path, opts: &ExportOptions) -> Result<(), CliError> {
    if Format::from_path(path).is_none() {
        return Err(CliError::input_msg(format!(
            "{}: unknown output format (expected .txt, .json, .png or .tmx)",
            path.display()
        )));
    }
    ensure_parent(path)?;
    export::write_map(map, path, opts).map_err(CliError::output)
}
