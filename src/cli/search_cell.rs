//! `levelgen search DIR/archive.json --run-cell X,Y`: maps from the elite of one cell of a
//! MAP-Elites archive that `levelgen search` wrote.

use super::common::{GENERIC, extension, write_generic};
use super::error::CliError;
use super::output::{Output, Target, note, read_text};
use super::search::Args;
use grid_core::export::ExportOptions;
use levelgen_search::Kind;
use serde_json::Value;

/// `X,Y`: a cell's column and row, from 0.
fn parse_cell(text: &str) -> Result<(u64, u64), CliError> {
    let bad = || {
        CliError::input_msg(format!(
            "--run-cell {}: expected X,Y (the cell's column and row, from 0)",
            grid_core::text::excerpt(text)
        ))
    };
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    Ok((
        x.trim().parse().map_err(|_| bad())?,
        y.trim().parse().map_err(|_| bad())?,
    ))
}

/// The generator and the document of cell `(x, y)` of `archive`.
fn cell_document(archive: &Value, (x, y): (u64, u64)) -> Result<(Kind, Value), String> {
    let kind = archive["generator"]
        .as_str()
        .and_then(Kind::from_name)
        .ok_or("not an archive written by levelgen search (no \"generator\")")?;
    let grid = &archive["grid"];
    if grid.is_null() {
        return Err(
            "the archive has no MAP-Elites grid (an es or nsga2 search: run its best.json)".into(),
        );
    }
    let bins = |axis: &str| grid[axis]["bins"].as_u64().unwrap_or(0);
    let (cols, rows) = (bins("x"), bins("y"));
    if x >= cols || y >= rows {
        return Err(format!(
            "cell {x},{y} is outside the {cols}x{rows} grid (columns 0..{cols}, rows 0..{rows})"
        ));
    }
    let cells = grid["cells"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let found = cells
        .iter()
        .find(|c| c["x"].as_u64() == Some(x) && c["y"].as_u64() == Some(y));
    match found.map(|c| &c["script"]) {
        Some(script) if !script.is_null() => Ok((kind, script.clone())),
        _ => {
            let filled: Vec<String> = cells
                .iter()
                .take(20)
                .map(|c| format!("{},{}", c["x"], c["y"]))
                .collect();
            Err(format!(
                "cell {x},{y} holds no elite (filled: {}{})",
                filled.join(" "),
                if cells.len() > 20 { " ..." } else { "" }
            ))
        }
    }
}

/// Runs `--run-cell`: `--count` maps from seed `--seed` (default 1), to `--out` (a file
/// for one map, a folder for several; text on stdout without it).
pub fn run(args: &Args, cell: &str) -> Result<(), CliError> {
    let xy = parse_cell(cell)?;
    let text = read_text(&args.spec)?;
    let at = |e: String| CliError::input_msg(format!("{}: {e}", args.spec.display()));
    let archive: Value = serde_json::from_str(&text).map_err(|e| at(format!("not JSON: {e}")))?;
    let (kind, document) = cell_document(&archive, xy).map_err(at)?;
    let generator = kind.build(&document).map_err(at)?;
    let first = args.seed.unwrap_or(1);
    let out = Output::new();
    let opts = ExportOptions::default();
    let several = args.count > 1;
    let format = match (&args.out, several) {
        (Some(path), false) if path.as_os_str() != "-" => extension(path),
        _ => args.format.clone(),
    };
    if !GENERIC.contains(&format.as_str()) {
        return Err(CliError::input_msg(format!(
            "unknown output format .{format} (expected .txt, .json, .png or .tmx)"
        )));
    }
    for i in 0..args.count {
        let seed = first.saturating_add(i);
        let made = generator.generate(seed).map_err(at)?;
        let target = match &args.out {
            Some(dir) if several => {
                Target::File(dir.join(format!("cell-{}-{}-seed-{seed}.{format}", xy.0, xy.1)))
            }
            Some(path) => Target::from_arg(path),
            None if several => {
                return Err(CliError::input_msg(
                    "--count above 1 needs --out DIR for the maps",
                ));
            }
            None => Target::Stdout,
        };
        write_generic(&out, made.map.as_ref(), &target, &format, &opts)?;
    }
    if !args.quiet
        && let Some(path) = &args.out
    {
        note(format!(
            "wrote {} map(s) of cell {},{} to {}",
            args.count,
            xy.0,
            xy.1,
            path.display()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cells_are_found_or_named() {
        let archive = json!({"generator": "marahel", "grid": {
            "x": {"bins": 3}, "y": {"bins": 2},
            "cells": [{"x": 1, "y": 0, "script": {"a": 1}}]}});
        let (kind, doc) = cell_document(&archive, (1, 0)).unwrap();
        assert_eq!((kind, doc), (Kind::Marahel, json!({"a": 1})));
        assert_eq!(
            cell_document(&archive, (0, 0)).unwrap_err(),
            "cell 0,0 holds no elite (filled: 1,0)"
        );
        assert_eq!(
            cell_document(&archive, (3, 0)).unwrap_err(),
            "cell 3,0 is outside the 3x2 grid (columns 0..3, rows 0..2)"
        );
        assert!(cell_document(&json!({"grid": null}), (0, 0)).is_err());
        assert!(parse_cell("1,x").is_err());
        assert_eq!(parse_cell(" 2, 3").unwrap(), (2, 3));
    }
}
