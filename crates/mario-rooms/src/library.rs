//! [`Library`]: rooms, sections and macros loaded from directories or the embedded default.
//!
//! A directory is read like the reference reads its data folders: every file in it and in
//! its direct subdirectories, whatever the extension (hidden files and `*.md` are skipped),
//! but in sorted path order so loading is deterministic. The embedded default library
//! (`crates/mario-rooms/library/`) is the project's own, loaded strictly.

use crate::error::{Diagnostic, Hazards, MarioError, Strictness};
use crate::limits::MAX_FILE_BYTES;
use crate::macros::{Macro, parse_macro};
use crate::room::{MacroSource, Room, parse_room};
use crate::section::{Section, parse_section};
use grid_core::text::excerpt;
use std::path::{Path, PathBuf};

/// A loaded, validated set of rooms, sections and macros.
#[derive(Clone, Debug, Default)]
pub struct Library {
    /// Room templates.
    pub rooms: Vec<Room>,
    /// Section templates.
    pub sections: Vec<Section>,
    /// Named macros.
    pub macros: Vec<Macro>,
    /// Hazards accepted in lenient mode (empty in strict mode).
    pub diagnostics: Vec<Diagnostic>,
}

/// One source file: its name (stem), path for messages, and text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// Name: the file stem.
    pub name: String,
    /// Path for messages.
    pub file: String,
    /// Contents.
    pub text: String,
}

macro_rules! embed {
    ($($p:literal),* $(,)?) => {
        &[$(($p, include_str!(concat!("../library/", $p)))),*]
    };
}

/// The embedded library files, relative to `crates/mario-rooms/library/`.
pub const BUILTIN_FILES: &[(&str, &str)] = include!("builtin_files.rs");

fn builtin_sources(prefix: &str) -> Vec<Source> {
    BUILTIN_FILES
        .iter()
        .filter(|(p, _)| p.starts_with(prefix))
        .map(|(p, text)| Source {
            name: stem(Path::new(p)),
            file: format!("library/{p}"),
            text: text.to_string(),
        })
        .collect()
}

fn stem(p: &Path) -> String {
    let name = p
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match name.rfind('.') {
        Some(i) if i > 0 => name[..i].to_string(),
        _ => name,
    }
}

/// Reads every file of `dir` and of its direct subdirectories, sorted by path.
pub fn read_dir_sources(dir: &Path) -> Result<Vec<Source>, MarioError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| MarioError::Io { path, source }
    };
    let mut files: Vec<PathBuf> = Vec::new();
    let mut dirs = vec![(dir.to_path_buf(), 0)];
    while let Some((d, depth)) = dirs.pop() {
        for entry in std::fs::read_dir(&d).map_err(io(&d))? {
            let entry = entry.map_err(io(&d))?;
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let ft = entry.file_type().map_err(io(&path))?;
            if ft.is_dir() {
                if depth == 0 {
                    dirs.push((path, 1));
                }
            } else if !name.to_ascii_lowercase().ends_with(".md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let bytes = read_limited(&p).map_err(io(&p))?;
            let text = String::from_utf8(bytes).map_err(|e| {
                MarioError::parse(
                    &p.display().to_string(),
                    1,
                    1,
                    format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
                )
            })?;
            Ok(Source {
                name: stem(&p),
                file: p.display().to_string(),
                text,
            })
        })
        .collect()
}

/// Reads a file of at most [`MAX_FILE_BYTES`] bytes; a larger one is an I/O error naming
/// the limit, found before the file is read.
fn read_limited(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let too_large = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "larger than the limit of {MAX_FILE_BYTES} bytes for a library file (mario_rooms::limits::MAX_FILE_BYTES)"
            ),
        )
    };
    let file = std::fs::File::open(path)?;
    if file.metadata()?.len() > MAX_FILE_BYTES {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
}

/// The themes of the embedded library. `overground` is `library/rooms` and
/// `library/sections`; the others are `library/themes/<theme>/{rooms,sections}`. Every theme
/// uses `library/macros`.
pub const THEMES: [&str; 4] = ["overground", "underground", "athletic", "castle"];

/// The embedded paths of a theme's rooms and sections, or an error naming the themes.
fn theme_prefixes(theme: &str) -> Result<(String, String), MarioError> {
    match theme {
        "overground" => Ok(("rooms/".into(), "sections/".into())),
        t if THEMES.contains(&t) => Ok((
            format!("themes/{t}/rooms/"),
            format!("themes/{t}/sections/"),
        )),
        other => Err(MarioError::Config(format!(
            "unknown theme {}: the embedded library has {}",
            excerpt(other),
            THEMES.join(", ")
        ))),
    }
}

impl Library {
    /// The embedded default library's overground theme (the project's own rooms, sections
    /// and macros).
    pub fn builtin() -> Result<Library, MarioError> {
        Self::builtin_theme("overground")
    }

    /// The embedded library's `theme`, one of [`THEMES`].
    pub fn builtin_theme(theme: &str) -> Result<Library, MarioError> {
        Self::load_theme(None, None, None, Strictness::Strict, theme)
    }

    /// Loads from directories; a component given as `None` comes from the embedded library
    /// (its overground theme).
    pub fn load(
        rooms: Option<&Path>,
        sections: Option<&Path>,
        macros: Option<&Path>,
        strictness: Strictness,
    ) -> Result<Library, MarioError> {
        Self::load_theme(rooms, sections, macros, strictness, "overground")
    }

    /// [`Library::load`] with the missing components from the embedded `theme`.
    pub fn load_theme(
        rooms: Option<&Path>,
        sections: Option<&Path>,
        macros: Option<&Path>,
        strictness: Strictness,
        theme: &str,
    ) -> Result<Library, MarioError> {
        let (room_prefix, section_prefix) = theme_prefixes(theme)?;
        let get = |dir: Option<&Path>, prefix: &str| match dir {
            Some(d) => read_dir_sources(d),
            None => Ok(builtin_sources(prefix)),
        };
        Self::from_sources(
            &get(rooms, &room_prefix)?,
            &get(sections, &section_prefix)?,
            &get(macros, "macros/")?,
            strictness,
        )
    }

    /// Parses and validates sources: macros first, then rooms (their named macros resolved),
    /// then sections.
    pub fn from_sources(
        rooms: &[Source],
        sections: &[Source],
        macros: &[Source],
        strictness: Strictness,
    ) -> Result<Library, MarioError> {
        let mut hz = Hazards::new(strictness);
        let mut lib = Library::default();
        for s in macros {
            let m = parse_macro(&s.file, &s.text, &mut hz)?;
            if let Some(prev) = lib.macros.iter().position(|p| p.name == m.name) {
                hz.report(
                    &s.file,
                    1,
                    1,
                    format!(
                        "macro {} defined twice: this one replaces the first",
                        excerpt(&m.name)
                    ),
                )?;
                lib.macros[prev] = m;
            } else {
                lib.macros.push(m);
            }
        }
        for s in rooms {
            let mut r = parse_room(&s.name, &s.file, &s.text, &mut hz)?;
            for slot in &mut r.slots {
                let MacroSource::Named { name, line, index } = &mut slot.source else {
                    continue;
                };
                match lib.macros.iter().position(|m| &m.name == name) {
                    Some(i) => {
                        *index = Some(i);
                        let m = &lib.macros[i];
                        if let Some((_, _, w, h)) = slot.area
                            && (w, h) != (m.width, m.height)
                        {
                            hz.report(
                                &s.file,
                                *line,
                                1,
                                format!(
                                    "placeholder `{}` is {w}x{h} but macro {} is {}x{}: the option is clipped to the placeholder",
                                    slot.placeholder.map_or('?', |c| c as char),
                                    excerpt(name),
                                    m.width,
                                    m.height
                                ),
                            )?;
                        }
                    }
                    None => hz.report(
                        &s.file,
                        *line,
                        1,
                        format!("unknown macro {}: no macro file defines it", excerpt(name)),
                    )?,
                }
            }
            lib.rooms.push(r);
        }
        for s in sections {
            lib.sections
                .push(parse_section(&s.name, &s.file, &s.text, &mut hz)?);
        }
        lib.diagnostics = hz.diagnostics;
        Ok(lib)
    }

    /// The room called `name`.
    pub fn room(&self, name: &str) -> Option<&Room> {
        self.rooms.iter().find(|r| r.name == name)
    }

    /// The section called `name`.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// The macro called `name`.
    pub fn macro_named(&self, name: &str) -> Option<&Macro> {
        self.macros.iter().find(|m| m.name == name)
    }
}
