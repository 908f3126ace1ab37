//! `levelgen search SPEC.json`: search Marahel scripts, Heroes templates, Mario or zones
//! settings for maps that meet a spec (`docs/search.md`), and write the archive, the best
//! generators (ready to run), a log, a heat map and a contact sheet into an output folder.

use super::error::CliError;
use super::output::{Output, Target};
use crate::analyze::plot::{GridAxis, grid_heat_map};
use clap::Args as ClapArgs;
use grid_core::export::{encode_png, render_rgb};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use levelgen_search::{Check, EliteGrid, Outcome, Search, spec};
use serde_json::Value;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Arguments of `levelgen search`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The search spec (JSON; schema in docs/search.md).
    pub spec: PathBuf,
    /// Output folder (default: `search-<spec name>` in the current directory).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Search seed, instead of the spec's.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Evaluation budget (candidates), instead of the spec's; deterministic.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub budget: Option<u64>,
    /// Time budget in seconds, instead of the spec's (not deterministic).
    #[arg(long)]
    pub seconds: Option<f64>,
    /// The best generators are checked on map seeds 1..=N.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub check: u64,
    /// Print nothing but errors (no progress bar, no summary).
    #[arg(long, short)]
    pub quiet: bool,
    /// Make maps from the elite of MAP-Elites cell X,Y (column, row, from 0) of an archive
    /// instead of searching: the file argument is then the `archive.json` of a search,
    /// `--seed` the first map seed (default 1) and `--out` the map file (format by its
    /// extension: txt, json, png, tmx; text on stdout without it) or, with `--count`, a folder.
    #[arg(long, value_name = "X,Y")]
    pub run_cell: Option<String>,
    /// With `--run-cell`: how many maps (seeds `--seed`, `--seed` + 1, ...).
    #[arg(long, default_value_t = 1, requires = "run_cell", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub count: u64,
    /// With `--run-cell` and a folder: the maps' format.
    #[arg(long, default_value = "txt", requires = "run_cell", value_parser = ["txt", "json", "png", "tmx"])]
    pub format: String,
}

/// Seeds of the contact sheet's columns.
const SHEET_SEEDS: u64 = 8;

/// Writes one output file through the CLI's output layer (atomically, folders created).
/// Every file of a search goes through here.
pub(super) fn write_file(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    Output::new().write(&Target::File(path.to_path_buf()), bytes)
}

pub(super) fn json_bytes(value: &Value) -> Vec<u8> {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values serialise");
    text.push('\n');
    text.into_bytes()
}

/// Reads the spec and applies the command-line overrides.
fn read_spec(args: &Args) -> Result<spec::Spec, CliError> {
    let text = std::fs::read_to_string(&args.spec).map_err(|e| CliError::read(&args.spec, e))?;
    let at = |e: levelgen_search::SearchError| {
        CliError::input_msg(format!("{}: {e}", args.spec.display()))
    };
    let mut spec = spec::parse(&text).map_err(at)?;
    if let Some(seed) = args.seed {
        spec.seed = seed;
    }
    if args.budget.is_some() || args.seconds.is_some() {
        spec.budget.evaluations = args.budget;
        spec.budget.seconds = args.seconds;
    }
    spec.check().map_err(at)?;
    Ok(spec)
}

pub(super) fn progress_bar(total: Option<u64>, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr_with_hz(10));
    if let Ok(style) = ProgressStyle::with_template(
        "search [{bar:40}] {pos}/{len} candidates, {per_sec}, eta {eta} {msg}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// Runs `levelgen search`.
pub fn run(args: Args) -> Result<(), CliError> {
    if let Some(cell) = &args.run_cell {
        return super::search_cell::run(&args, cell);
    }
    let spec = read_spec(&args)?;
    let search = Search::new(&spec)
        .map_err(|e| CliError::input_msg(format!("{}: {e}", args.spec.display())))?;
    let name = args
        .spec
        .file_stem()
        .map_or("spec".to_string(), |s| s.to_string_lossy().to_string());
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("search-{name}")));
    if !spec.targets.is_empty() {
        return super::search_targets::run(&args, &spec, &search, &out);
    }

    let bar = progress_bar(spec.budget.evaluations, args.quiet);
    let started = std::time::Instant::now();
    let mut outcome = search.run(&mut |row| {
        bar.set_position(row.evaluations);
        bar.set_message(format!("best {:.3}", row.best_fitness));
    });
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();

    // The final check picks and orders the kept generators: best.json is its first.
    let checks = search
        .select(&mut outcome, 1..args.check + 1)
        .map_err(CliError::input_msg)?;
    write_outputs(&search, &outcome, &checks, &out, args.check)?;
    if !args.quiet {
        println!("{}", summary(&outcome, &checks, secs, args.check));
        if let Some(note) = selection_note(&spec, &checks) {
            println!("{note}");
        }
        eprintln!("wrote {}", out.display());
    }
    Ok(())
}

/// The file name of the `i`-th kept generator (0 = `best`).
fn stem(i: usize) -> String {
    if i == 0 {
        "best".to_string()
    } else {
        format!("best-{}", i + 1)
    }
}

/// Writes every output file, the kept generators in the order of their `checks`.
fn write_outputs(
    search: &Search,
    outcome: &Outcome,
    checks: &[Check],
    out: &Path,
    check_seeds: u64,
) -> Result<(), CliError> {
    let archive = search.archive_json(outcome);
    write_file(&out.join("archive.json"), &json_bytes(&archive))?;
    write_file(&out.join("log.csv"), outcome.log_csv().as_bytes())?;
    let kind = search.evaluator().kind;
    for (i, (_, document)) in outcome.best.iter().enumerate() {
        let stem = stem(i);
        // The file its generator's command reads; flags it takes in a `.args` file.
        let (file, args) = kind.ready_to_run(document);
        write_file(&out.join(format!("{stem}.json")), &json_bytes(&file))?;
        if let Some(args) = args {
            write_file(&out.join(format!("{stem}.args")), args.as_bytes())?;
        }
    }
    let check_json: Vec<Value> = checks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let means: serde_json::Map<String, Value> = outcome
                .names
                .iter()
                .zip(&c.means)
                .map(|(n, v)| (n.clone(), serde_json::json!(v)))
                .collect();
            serde_json::json!({
                "file": format!("{}.json", stem(i)),
                "seeds": format!("1..={check_seeds}"),
                "maps": c.maps,
                "feasible": c.feasible,
                "distinct": c.distinct,
                "fitness": c.fitness,
                "nearest": c.nearest,
                "means": means,
            })
        })
        .collect();
    write_file(
        &out.join("check.json"),
        &json_bytes(&Value::Array(check_json)),
    )?;
    if let Some(grid) = &outcome.grid {
        heat_map(grid, &out.join("heatmap.png"))?;
    }
    let rows = sheet_scripts(search, outcome);
    if !rows.is_empty() {
        let png = contact_sheet(kind, &rows)?;
        write_file(&out.join("contact.png"), &png)?;
    }
    Ok(())
}

fn heat_map(grid: &EliteGrid, path: &Path) -> Result<(), CliError> {
    let values: Vec<Option<f64>> = grid
        .cells
        .iter()
        .map(|c| c.as_ref().map(|e| e.eval.fitness))
        .collect();
    let axis = |b: &levelgen_search::archive::Bins| GridAxis {
        label: b.metric.clone(),
        min: b.min,
        max: b.max,
        bins: b.bins,
    };
    let title = format!(
        "MAP-Elites: fitness per cell, {:.0}% of {} cells filled",
        100.0 * grid.coverage(),
        grid.cells.len()
    );
    Output::new().write_files(path, |tmp| {
        grid_heat_map(&values, &axis(&grid.x), &axis(&grid.y), &title, tmp)
            .map_err(|e| CliError::output(std::io::Error::other(e.to_string())))
    })
}

/// The contact sheet's generators: the best ones, or for MAP-Elites the elites of cells
/// spread evenly over the filled cells (in row-major order, so over the range it found).
fn sheet_scripts(search: &Search, outcome: &Outcome) -> Vec<(String, Value)> {
    const ROWS: usize = 6;
    match &outcome.grid {
        Some(grid) => {
            let filled: Vec<usize> = grid.filled().collect();
            let picks = ROWS.min(filled.len());
            (0..picks)
                .map(|i| filled[i * (filled.len() - 1) / (picks - 1).max(1)])
                .filter_map(|cell| {
                    let e = grid.cells[cell].as_ref()?;
                    let script = search.evaluator().space.decode(&e.genome).ok()?;
                    Some((format!("cell {cell}"), script))
                })
                .collect()
        }
        None => outcome
            .best
            .iter()
            .enumerate()
            .map(|(i, (_, s))| (format!("best {}", i + 1), s.clone()))
            .collect(),
    }
}

/// One row per generator, one column per seed 1..=8, 4 white pixels between maps.
pub(super) fn contact_sheet(
    kind: levelgen_search::Kind,
    documents: &[(String, Value)],
) -> Result<Vec<u8>, CliError> {
    const GAP: u32 = 4;
    let mut rows: Vec<Vec<(u32, u32, Vec<u8>)>> = Vec::new();
    for (_, document) in documents {
        let generator = kind.build(document).map_err(CliError::input_msg)?;
        let mut row = Vec::new();
        for seed in 1..=SHEET_SEEDS {
            let map = generator.generate(seed).map_err(CliError::input_msg)?.map;
            let side = map.width().max(map.height()).max(1) as u32;
            row.push(render_rgb(map.as_ref(), (160 / side).clamp(1, 12)));
        }
        rows.push(row);
    }
    let cell_w = rows.iter().flatten().map(|m| m.0).max().unwrap_or(1);
    let cell_h = rows.iter().flatten().map(|m| m.1).max().unwrap_or(1);
    let (w, h) = (
        SHEET_SEEDS as u32 * (cell_w + GAP) + GAP,
        rows.len() as u32 * (cell_h + GAP) + GAP,
    );
    let mut rgb = vec![255u8; (w * h * 3) as usize];
    for (r, row) in rows.iter().enumerate() {
        for (c, (mw, mh, pixels)) in row.iter().enumerate() {
            let (x0, y0) = (
                GAP + c as u32 * (cell_w + GAP),
                GAP + r as u32 * (cell_h + GAP),
            );
            for y in 0..*mh {
                let src = (y * mw * 3) as usize..((y + 1) * mw * 3) as usize;
                let dst = (((y0 + y) * w + x0) * 3) as usize;
                rgb[dst..dst + (mw * 3) as usize].copy_from_slice(&pixels[src]);
            }
        }
    }
    encode_png(w, h, &rgb).map_err(|e| CliError::output(std::io::Error::other(e)))
}

/// Why the final selection kept fewer generators than `keep`, if it did.
fn selection_note(spec: &levelgen_search::Spec, checks: &[Check]) -> Option<String> {
    let s = &spec.selection;
    if checks.len() >= spec.keep {
        return None;
    }
    if checks.is_empty() {
        return Some("no candidate was valid: no generator was kept".to_string());
    }
    let floor = checks.first().is_some_and(|c| c.nearest < s.nearest);
    Some(if floor {
        format!(
            "no candidate's maps were {:.0}% apart (selection.nearest): best.json is the best by the check alone",
            100.0 * s.nearest
        )
    } else {
        let floor = if s.nearest > 0.0 {
            format!("met selection.nearest {} and ", s.nearest)
        } else {
            String::new()
        };
        format!(
            "kept {} of {}: no other candidate {floor}differed from the kept ones on {:.0}% of the seeds (selection.differing)",
            checks.len(),
            spec.keep,
            100.0 * s.differing
        )
    })
}

/// The text printed after a search.
fn summary(outcome: &Outcome, checks: &[Check], secs: f64, seeds: u64) -> String {
    let mut s = format!("{} candidates in {secs:.1} s", outcome.evaluations);
    if let Some(g) = &outcome.grid {
        s.push_str(&format!(
            "; MAP-Elites filled {:.0}% of {} cells",
            100.0 * g.coverage(),
            g.cells.len()
        ));
    }
    if let Some(e) = &outcome.first_error {
        s.push_str(&format!(
            "\nsome candidates were invalid (log.csv counts them in batch_invalid); the first: {e}"
        ));
    }
    s.push_str(&format!(
        "\nbest generators on seeds 1..={seeds}:\n  file          fitness  feasible  distinct  nearest"
    ));
    for (i, c) in checks.iter().enumerate() {
        let file = format!("{}.json", stem(i));
        s.push_str(&format!(
            "\n  {file:<12} {:>8.3} {:>8.0}% {:>8.0}% {:>7.0}%",
            c.fitness,
            100.0 * c.feasible,
            100.0 * c.distinct,
            100.0 * c.nearest
        ));
    }
    s
}
