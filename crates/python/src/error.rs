//! Errors: a crate's error, turned into a `levelgen.Error` subclass with the CLI's message.
//!
//! Errors are built without the GIL (inside a batch, on rayon's threads) as a [`Failure`],
//! and become Python exceptions (`levelgen.errors`) once the GIL is held again.

use levelgen::cli::error::CliError;
use pyo3::prelude::*;

/// Which `levelgen.errors` class a failure raises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A file could not be read (`levelgen.FileError`, also an `OSError`).
    File,
    /// A Marahel script or its generation (`levelgen.MarahelError`).
    Marahel,
    /// A Heroes template, config or generation (`levelgen.HeroesError`).
    Heroes,
    /// A Mario library, setting or generation (`levelgen.MarioError`).
    Mario,
    /// A zones setting or generation (`levelgen.ZonesError`).
    Zones,
    /// A search spec (`levelgen.SearchError`).
    Search,
    /// An argument of a binding function (`levelgen.ArgumentError`, also a `ValueError`).
    Argument,
}

impl Class {
    fn name(self) -> &'static str {
        match self {
            Class::File => "FileError",
            Class::Marahel => "MarahelError",
            Class::Heroes => "HeroesError",
            Class::Mario => "MarioError",
            Class::Zones => "ZonesError",
            Class::Search => "SearchError",
            Class::Argument => "ArgumentError",
        }
    }
}

/// An error on its way to Python: the class, the CLI's message (without `error: `), the
/// place inside the input (a JSON path, `line:column`, `file:line:col`) and the input file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The exception class.
    pub class: Class,
    /// The message, as the CLI prints it after `error: `.
    pub message: String,
    /// Where in the input, when the crate says.
    pub location: Option<String>,
    /// The input file, when the input was read from one.
    pub source: Option<String>,
}

/// A binding result.
pub type Result<T> = std::result::Result<T, Failure>;

impl Failure {
    /// A failure with no location.
    pub fn new(class: Class, message: impl Into<String>) -> Self {
        Self {
            class,
            message: message.into(),
            location: None,
            source: None,
        }
    }

    /// A bad argument.
    pub fn argument(message: impl Into<String>) -> Self {
        Self::new(Class::Argument, message)
    }

    /// A CLI-layer error (reading a file, applying overrides): its message as it is.
    pub fn cli(class: Class, e: CliError) -> Self {
        let class = if e.code == levelgen::cli::error::EXIT_FAILURE {
            Class::File
        } else {
            class
        };
        Self::new(class, e.message)
    }

    /// Sets the location.
    pub fn at(mut self, location: Option<String>) -> Self {
        self.location = location.filter(|l| !l.is_empty());
        self
    }

    /// Names the input file: the message is prefixed with it, as the CLI does.
    pub fn in_file(mut self, path: Option<&str>) -> Self {
        if let Some(p) = path {
            self.message = format!("{p}: {}", self.message);
            self.source = Some(p.to_string());
        }
        self
    }

    /// Records the input file without changing the message (which already names it).
    pub fn with_source(mut self, path: &str) -> Self {
        self.source = Some(path.to_string());
        self
    }

    /// The Python exception.
    pub fn into_py(self, py: Python<'_>) -> PyErr {
        let made = py
            .import("levelgen.errors")
            .and_then(|m| m.getattr(self.class.name()))
            .and_then(|c| c.call1((self.message, self.location, self.source)));
        match made {
            Ok(instance) => PyErr::from_value(instance),
            Err(e) => e,
        }
    }
}

/// A Marahel error, located by its JSON path (or `line:column` for bad JSON).
pub fn marahel(e: &marahel::MarahelError) -> Failure {
    Failure::new(Class::Marahel, e.to_string()).at(Some(e.path()))
}

/// A Heroes error, located where the crate says.
pub fn heroes(e: &heroes_zones::HeroesError) -> Failure {
    use heroes_zones::HeroesError as E;
    let location = match e {
        E::Json { line, column, .. } => Some(format!("{line}:{column}")),
        E::Invalid { at, .. } | E::WrongType { at, .. } => Some(at.clone()),
        E::Hmm { offset, .. } => Some(format!("byte {offset}")),
        E::Io { path, .. } => Some(path.clone()),
        _ => None,
    };
    Failure::new(Class::Heroes, e.to_string()).at(location)
}

/// A Mario error, located at `file:line:col` for a parse error.
pub fn mario(e: &mario_rooms::MarioError) -> Failure {
    use mario_rooms::MarioError as E;
    let location = match e {
        E::Parse {
            file, line, col, ..
        } => Some(format!("{file}:{line}:{col}")),
        E::Io { path, .. } => Some(path.display().to_string()),
        _ => None,
    };
    Failure::new(Class::Mario, e.to_string()).at(location)
}

/// A zones error (settings are checked as a whole; an image error names its file).
pub fn zones(e: &zone_tiles::ZoneError) -> Failure {
    use zone_tiles::ZoneError as E;
    let location = match e {
        E::Image { path, .. } => Some(path.display().to_string()),
        _ => None,
    };
    Failure::new(Class::Zones, e.to_string()).at(location)
}

/// A search error, located by its spec path (or `line:column` for bad JSON).
pub fn search(e: &levelgen_search::SearchError) -> Failure {
    use levelgen_search::SearchError as E;
    let location = match e {
        E::Json { line, column, .. } => Some(format!("{line}:{column}")),
        E::BadValue { path, .. } | E::UnknownMetric { path, .. } => Some(path.clone()),
        E::Path { index, .. } => Some(format!("vary[{index}]")),
        _ => None,
    };
    Failure::new(Class::Search, e.to_string()).at(location)
}
