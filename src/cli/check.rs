//! `levelgen check FILE...`: validates input and output files without generating anything.
//!
//! Each file's kind comes from `--kind`, else its extension and content: `.hmm` is a Pocket
//! Heroes map (read and validated), a JSON file is a heroes JSON map (its `format` is
//! `levelgen-heroes/1`), a Marahel script (it has `explorers`), a heroes template (`zones`)
//! or a heroes config; a text file is a Mario room, section or
//! macro file (by its folder, `rooms`/`blocks`, `sections`, `macros`, or its first lines),
//! else a Mario AI Framework level, which must parse and be playable. Findings are printed
//! on stdout, one per line, `FILE[:LINE:COL]: error|warning: ...`, then one line per file;
//! exit 0 when no file has an error, 2 otherwise.

use super::error::CliError;
use super::output::print;
use clap::ValueEnum;
use std::path::{Path, PathBuf};

/// The kinds of file `check` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Kind {
    /// A Pocket Heroes `.hmm` map.
    Hmm,
    /// A Mario AI Framework level text.
    Level,
    /// A Marahel script (JSON).
    Marahel,
    /// A heroes template (JSON).
    Template,
    /// A heroes config (JSON).
    Config,
    /// A heroes map exported as JSON by `levelgen heroes --out map.json`.
    HeroesJson,
    /// A Mario room file.
    Room,
    /// A Mario section file.
    Section,
    /// A Mario macro file.
    Macro,
    /// A `levelgen search` spec (JSON).
    Search,
}

/// Arguments of `levelgen check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The files to check.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The kind of every file, instead of guessing it from the extension and content.
    #[arg(long, value_enum)]
    pub kind: Option<Kind>,
    /// Print only problems (no line for a file without any).
    #[arg(long, short)]
    pub quiet: bool,
}

/// What checking one file found.
#[derive(Debug, Default)]
struct Findings {
    errors: Vec<String>,
    warnings: Vec<String>,
    /// A one-line account when the file is fine.
    summary: String,
}

/// Runs `levelgen check`.
pub fn run(args: Args) -> Result<(), CliError> {
    let mut failed = 0;
    for file in &args.files {
        let (kind, f) = check_file(file, args.kind);
        let name = file.display();
        let mut out = String::new();
        for e in &f.errors {
            out.push_str(&located(&name.to_string(), "error", e));
        }
        for w in &f.warnings {
            out.push_str(&located(&name.to_string(), "warning", w));
        }
        let kind = kind.map_or("unknown kind".to_string(), kind_name);
        if f.errors.is_empty() {
            if !args.quiet {
                out.push_str(&format!("{name}: ok: {kind}, {}\n", f.summary));
            }
        } else {
            failed += 1;
            out.push_str(&format!(
                "{name}: {kind}: {} error(s), {} warning(s)\n",
                f.errors.len(),
                f.warnings.len()
            ));
        }
        print(&super::output::bounded(&out))?;
    }
    if failed > 0 {
        return Err(CliError::input_msg(format!(
            "{failed} of {} file(s) have errors",
            args.files.len()
        )));
    }
    Ok(())
}

/// `FILE: level: message`, unless the message already starts with the file's name (the
/// Mario parsers name `file:line:col` themselves).
fn located(name: &str, level: &str, message: &str) -> String {
    match message.strip_prefix(name) {
        Some(rest) if rest.starts_with(':') => {
            let rest = rest.trim_start_matches(':');
            let (place, msg) = split_place(rest);
            format!("{name}:{place}{level}: {msg}\n")
        }
        _ => format!("{name}: {level}: {message}\n"),
    }
}

/// `4:5: warning: text` -> (`4:5: `, `text`).
fn split_place(rest: &str) -> (String, &str) {
    let mut place = String::new();
    let mut s = rest;
    for _ in 0..2 {
        match s.split_once(':') {
            Some((n, tail)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                place.push_str(n);
                place.push(':');
                s = tail;
            }
            _ => break,
        }
    }
    let msg = s.trim_start();
    let msg = msg.strip_prefix("warning:").unwrap_or(msg).trim_start();
    if !place.is_empty() {
        place.push(' ');
    }
    (place, msg)
}

fn kind_name(k: Kind) -> String {
    match k {
        Kind::Hmm => "Pocket Heroes map",
        Kind::Level => "Mario level",
        Kind::Marahel => "Marahel script",
        Kind::Template => "heroes template",
        Kind::Config => "heroes config",
        Kind::HeroesJson => "heroes JSON map",
        Kind::Room => "Mario room file",
        Kind::Section => "Mario section file",
        Kind::Macro => "Mario macro file",
        Kind::Search => "search spec",
    }
    .to_string()
}

fn error(message: impl Into<String>) -> Findings {
    Findings {
        errors: vec![message.into()],
        ..Findings::default()
    }
}

/// Reads and checks one file: its kind (if it could be told) and the findings.
fn check_file(path: &Path, kind: Option<Kind>) -> (Option<Kind>, Findings) {
    let bytes = match read_bounded(path) {
        Ok(b) => b,
        Err(e) => return (kind, error(e)),
    };
    let kind = match kind.map_or_else(|| guess_kind(path, &bytes), Ok) {
        Ok(k) => k,
        Err(e) => return (None, error(e)),
    };
    let findings = match kind {
        Kind::Hmm => check_hmm(&bytes),
        _ => match String::from_utf8(bytes) {
            Ok(text) => check_text(kind, path, text),
            Err(e) => error(format!(
                "not UTF-8 text (byte {})",
                e.utf8_error().valid_up_to()
            )),
        },
    };
    (Some(kind), findings)
}

/// Checks a text file of a kind other than `.hmm`.
fn check_text(kind: Kind, path: &Path, text: String) -> Findings {
    match kind {
        Kind::Level => check_level(&path.display().to_string(), &text),
        Kind::Marahel => check_marahel(&text),
        Kind::Template => check_template(&text),
        Kind::Config => check_config(&text),
        Kind::HeroesJson => check_heroes_json(&text),
        Kind::Search => check_search(&text),
        Kind::Hmm | Kind::Room | Kind::Section | Kind::Macro => {
            check_library_file(kind, path, text)
        }
    }
}

fn read_bounded(path: &Path) -> Result<Vec<u8>, String> {
    if path.is_dir() {
        return Err("is a directory (give the files in it)".into());
    }
    super::output::read_input(path)
}

/// Extensions a Mario level may have (the Mario AI Framework's `.txt` and `.lvl`, or none);
/// a text file of any other extension is a level only with `--kind level`.
const LEVEL_EXTENSIONS: [&str; 3] = ["txt", "lvl", ""];

/// The kind of a file from its extension, folder and content, or why it cannot be told.
fn guess_kind(path: &Path, bytes: &[u8]) -> Result<Kind, String> {
    let ext = super::common::extension(path);
    if ext == "hmm" {
        return Ok(Kind::Hmm);
    }
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(1 << 16)]);
    if ext == "json" || text.trim_start().starts_with('{') {
        return guess_json(bytes);
    }
    let folders: Vec<String> = path
        .parent()
        .into_iter()
        .flat_map(|p| p.components())
        .map(|c| c.as_os_str().to_string_lossy().to_ascii_lowercase())
        .collect();
    for f in folders.iter().rev() {
        match f.as_str() {
            "rooms" | "blocks" => return Ok(Kind::Room),
            "sections" => return Ok(Kind::Section),
            "macros" => return Ok(Kind::Macro),
            _ => {}
        }
    }
    if !LEVEL_EXTENSIONS.contains(&ext.as_str()) || text.trim_start().starts_with('<') {
        return Err(unknown_kind(&ext));
    }
    Ok(guess_text(&text))
}

/// Why a file's kind cannot be told: it is neither a `.hmm` map, JSON, a Mario text file
/// (`.txt`, `.lvl` or no extension) nor in a room, section or macro folder.
fn unknown_kind(ext: &str) -> String {
    let what = if ext.is_empty() {
        "markup (it starts with `<`)".to_string()
    } else {
        format!(".{}", grid_core::text::excerpt(ext).trim_matches('"'))
    };
    format!(
        "cannot tell what this {what} file is: check reads .hmm maps, JSON (Marahel scripts, \
         heroes templates and configs, search specs) and Mario text files (.txt or .lvl \
         levels; room, section and macro files); give --kind to check it as one of those"
    )
}

fn guess_json(bytes: &[u8]) -> Result<Kind, String> {
    let guessed = guess_strict_json(bytes);
    if guessed.is_err() && is_vcmi_file(bytes) {
        return Ok(Kind::Template);
    }
    guessed
}

/// Whether `bytes` hold VCMI random-map templates (JSON with comments, templates by name).
fn is_vcmi_file(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok_and(|t| {
        heroes_zones::vcmi::is_vcmi(t)
            && heroes_zones::vcmi::parse_file(t).is_ok_and(|all| !all.is_empty())
    })
}

fn guess_strict_json(bytes: &[u8]) -> Result<Kind, String> {
    let doc: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| {
        format!("not valid JSON ({e}); give --kind to check it as a particular kind")
    })?;
    let Some(obj) = doc.as_object() else {
        return Err(format!(
            "expected a JSON object {{...}}, found {}",
            grid_core::text::json_kind(&doc)
        ));
    };
    if obj.get("format").and_then(|f| f.as_str()) == Some(heroes_zones::document::FORMAT) {
        Ok(Kind::HeroesJson)
    } else if obj.contains_key("vary") {
        Ok(Kind::Search)
    } else if obj.contains_key("explorers") || obj.contains_key("entities") {
        Ok(Kind::Marahel)
    } else if obj.contains_key("zones") || obj.contains_key("connections") {
        Ok(Kind::Template)
    } else if obj.contains_key("mapSize") || obj.is_empty() {
        Ok(Kind::Config)
    } else {
        Err(
            "a JSON object that is neither a Marahel script (explorers), a heroes template \
             (zones), a heroes config (mapSize) nor a search spec (vary): give --kind"
                .into(),
        )
    }
}

/// A Mario text file by its first lines: a macro starts `NAME W H`, a room in the
/// documented format with its difficulty (a number); a file with a `---` line is a section
/// (its header has `key: value` lines) or a room in the reference format; else a level.
fn guess_text(text: &str) -> Kind {
    let mut lines = text.lines().map(str::trim_end);
    let first = lines.next().unwrap_or("").trim();
    let words: Vec<&str> = first.split_whitespace().collect();
    if words.len() == 3 && words[1..].iter().all(|w| w.parse::<usize>().is_ok()) {
        return Kind::Macro;
    }
    if !first.is_empty() && first.parse::<f64>().is_ok() {
        return Kind::Room;
    }
    if text.lines().take(200).any(|l| l.trim() == "---") {
        return if first.contains(':') {
            Kind::Section
        } else {
            Kind::Room
        };
    }
    Kind::Level
}

fn check_hmm(bytes: &[u8]) -> Findings {
    use heroes_zones::hmm::{Catalog, HmmFile, validate};
    let file = match HmmFile::parse(bytes) {
        Ok(f) => f,
        Err(e) => return error(e.to_string()),
    };
    let report = validate(&file, &Catalog::builtin());
    Findings {
        summary: format!(
            "{}x{} map {}, {} player(s)",
            file.side(),
            file.side(),
            grid_core::text::excerpt(file.map_name()),
            file.players.len()
        ),
        errors: report.errors,
        warnings: report.warnings,
    }
}

/// A heroes JSON map: it must read back ([`heroes_zones::document::read_json`]).
fn check_heroes_json(text: &str) -> Findings {
    match heroes_zones::document::read_json(text) {
        Ok(s) => Findings {
            summary: format!(
                "{}x{} map, {} zones, {} connections, objects: {}",
                s.size,
                s.size,
                s.zones,
                s.connections,
                s.objects
                    .iter()
                    .map(|(k, n)| format!("{n} {k}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            ..Findings::default()
        },
        Err(problems) => Findings {
            errors: problems,
            ..Findings::default()
        },
    }
}

fn check_level(file: &str, text: &str) -> Findings {
    let level = match mario_rooms::MarioLevel::parse(file, text) {
        Ok(l) => l,
        Err(e) => return error(e.to_string()),
    };
    let report = mario_rooms::check(&level);
    let summary = format!("{}x{}, {}", level.width(), level.height(), report.summary());
    if report.playable {
        Findings {
            summary,
            ..Findings::default()
        }
    } else {
        error(report.summary())
    }
}

/// A Marahel script: it must compile; its warnings, and the explorers whose work at the
/// script's largest size goes past their work budget, are warnings.
fn check_marahel(text: &str) -> Findings {
    let script = match marahel::Script::parse(text) {
        Ok(s) => s,
        Err(e) => return error(e.to_string()),
    };
    let (_, (w, h)) = script.size_range();
    let warnings = script.warnings().iter().cloned();
    let budget = script.budget_warnings(w, h);
    Findings {
        summary: "parses and compiles".into(),
        warnings: warnings.chain(budget).map(|w| w.to_string()).collect(),
        ..Findings::default()
    }
}

fn check_search(text: &str) -> Findings {
    let spec = match levelgen_search::spec::parse(text) {
        Ok(s) => s,
        Err(e) => return error(e.to_string()),
    };
    if let Err(e) = levelgen_search::Search::new(&spec) {
        return error(e.to_string());
    }
    let kind = spec.skeleton().map_or("?", |(k, _)| k.name());
    Findings {
        summary: format!(
            "searches {kind}: {} variation(s), {} map(s) per candidate",
            spec.vary.len(),
            spec.maps
        ),
        ..Findings::default()
    }
}

fn check_template(text: &str) -> Findings {
    use heroes_zones::{Config, Template};
    if heroes_zones::vcmi::is_vcmi(text) {
        return check_vcmi(text);
    }
    if let Err(e) = super::common::json_with_overrides(text, &[], "") {
        return error(e);
    }
    let template = match Template::from_json(text) {
        Ok(t) => t,
        Err(e) => return error(e.to_string()),
    };
    let config = Config::default();
    match heroes_zones::validate::validate(&template, &config, config.map_size) {
        Ok(()) => Findings {
            summary: format!(
                "{} zone(s), {} connection(s), valid for a {s}x{s} map",
                template.zones.len(),
                template.connections.len(),
                s = config.map_size
            ),
            ..Findings::default()
        },
        Err(e) => error(e.to_string()),
    }
}

/// A VCMI template file: every template in it converts and validates at its own map side;
/// what a `.hmm` map cannot hold is a warning.
fn check_vcmi(text: &str) -> Findings {
    use heroes_zones::vcmi;
    let all = match vcmi::parse_file(text) {
        Ok(all) => all,
        Err(e) => return error(e.to_string()),
    };
    let mut f = Findings::default();
    for t in &all {
        let c = match vcmi::load(text, Some(&t.id), &vcmi::Options::default()) {
            Ok(c) => c,
            Err(e) => {
                f.errors
                    .push(format!("{}: {e}", grid_core::text::excerpt(&t.id)));
                continue;
            }
        };
        let config = heroes_zones::Config::default();
        if let Err(e) = heroes_zones::validate::validate(&c.template, &config, c.side) {
            f.errors
                .push(format!("{}: {e}", grid_core::text::excerpt(&t.id)));
        }
        f.warnings
            .extend(c.warnings.iter().map(|w| format!("{}: {w}", t.id)));
    }
    f.summary = format!("{} VCMI template(s), each valid at its map size", all.len());
    f
}

fn check_config(text: &str) -> Findings {
    if let Err(e) = super::common::json_with_overrides(text, &[], "") {
        return error(e);
    }
    let config = match heroes_zones::Config::from_json(text) {
        Ok(c) => c,
        Err(e) => return error(e.to_string()),
    };
    let mut problems = Vec::new();
    heroes_zones::validate::validate_config(&config, &mut problems);
    Findings {
        summary: format!("map size {}", config.map_size),
        errors: problems,
        ..Findings::default()
    }
}

/// A room, section or macro file, read as a library of that one file (room files see no
/// macro files: a named macro is a warning).
fn check_library_file(kind: Kind, path: &Path, text: String) -> Findings {
    use mario_rooms::{Library, Source, Strictness};
    let source = vec![Source {
        name: path
            .file_stem()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned()),
        file: path.display().to_string(),
        text,
    }];
    let none: Vec<Source> = Vec::new();
    let (rooms, sections, macros) = match kind {
        Kind::Room => (&source, &none, &none),
        Kind::Section => (&none, &source, &none),
        _ => (&none, &none, &source),
    };
    match Library::from_sources(rooms, sections, macros, Strictness::Lenient) {
        Ok(lib) => Findings {
            summary: match kind {
                Kind::Room => format!("{} room(s)", lib.rooms.len()),
                Kind::Section => format!("{} section(s)", lib.sections.len()),
                _ => format!("{} macro(s)", lib.macros.len()),
            },
            warnings: lib.diagnostics.iter().map(|d| d.to_string()).collect(),
            ..Findings::default()
        },
        Err(e) => error(e.to_string()),
    }
}
