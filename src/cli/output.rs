//! Where the CLI's output goes: one layer every subcommand writes through.
//!
//! - A file is written to a temporary directory beside it and renamed into place, so a write
//!   that fails half-way (disk full, a file-size limit) leaves the previous file intact and no
//!   partial file behind.
//! - A file that is one of the run's inputs (script, template, config, a room, section or
//!   macro file, an analysed input) is never overwritten: paths are compared canonically,
//!   and naming an input is bad input (exit 2).
//! - A target that is a FIFO or a device is written into, never replaced.
//! - `-` means stdout. A closed stdout (a pipe into `head`) ends the run quietly with exit 0;
//!   any other write error (a full device) is exit 1 with a message.
//! - Messages go to stderr and never fail the run: [`note`] ignores a closed stderr.

use super::error::CliError;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Most files listed from an input directory when guarding it (its files and those of its
/// direct subdirectories, as the room loader reads them).
const MAX_GUARDED_FILES: usize = 100_000;

/// Where one output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Standard output (`--out -`, or no `--out`).
    Stdout,
    /// A file, written atomically.
    File(PathBuf),
}

impl Target {
    /// `-` is stdout, anything else a file.
    pub fn from_arg(path: &Path) -> Target {
        if path.as_os_str() == "-" {
            Target::Stdout
        } else {
            Target::File(path.to_path_buf())
        }
    }

    /// How the target is named in messages.
    pub fn display(&self) -> String {
        match self {
            Target::Stdout => "stdout".to_string(),
            Target::File(p) => p.display().to_string(),
        }
    }
}

/// Writes a line to stderr, ignoring a closed or failing stderr: a message must never turn a
/// run that made its output into a failure.
pub fn note(text: impl AsRef<str>) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{}", bounded(text.as_ref()));
}

/// Largest input file the CLI reads (64 MiB): scripts, templates, configs and the files
/// `levelgen check` reads. A larger input (or an endless one, such as `/dev/zero`) is bad
/// input, found before it is held in memory.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Reads an input file of at most [`MAX_INPUT_BYTES`].
pub fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err("is a directory".into());
    }
    let mut bytes = Vec::new();
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!(
            "larger than the {MAX_INPUT_BYTES} bytes (64 MiB) an input may have"
        ));
    }
    Ok(bytes)
}

/// [`read_input`] for text: bad input (exit 2) naming the file when it cannot be read, is
/// too large or is not UTF-8.
pub fn read_text(path: &Path) -> Result<String, CliError> {
    let bytes =
        read_input(path).map_err(|e| CliError::input_msg(format!("{}: {e}", path.display())))?;
    String::from_utf8(bytes).map_err(|e| {
        CliError::input_msg(format!(
            "{}: not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Longest message line [`bounded`] lets through, in characters.
pub const MAX_LINE_CHARS: usize = 400;

/// `text` with every line longer than [`MAX_LINE_CHARS`] cut in the middle, keeping its
/// start (the file and place) and its end (what was expected) and naming what was cut. The
/// last guard on every message: errors quote input through `grid_core::text::excerpt`, and
/// this keeps a message that quotes more (a crate's, clap's) from filling a terminal.
pub fn bounded(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4 * MAX_LINE_CHARS));
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let n = line.chars().count();
        if n <= MAX_LINE_CHARS {
            out.push_str(line);
            continue;
        }
        let head = MAX_LINE_CHARS * 3 / 4;
        let tail = MAX_LINE_CHARS / 4;
        out.extend(line.chars().take(head));
        out.push_str(&format!(" [... {} characters cut ...] ", n - head - tail));
        out.extend(line.chars().skip(n - tail));
    }
    out
}

/// The output layer of one run: its inputs, guarded against being overwritten.
#[derive(Debug, Default)]
pub struct Output {
    inputs: HashSet<PathBuf>,
}

impl Output {
    /// An output layer guarding no input yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// An output layer guarding `inputs` (see [`Output::guard`]).
    pub fn guarding<'a>(inputs: impl IntoIterator<Item = &'a Path>) -> Self {
        let mut out = Self::new();
        for p in inputs {
            out.guard(p);
        }
        out
    }

    /// Guards an input: a file, or a directory's files and those of its direct
    /// subdirectories. Paths that do not exist (a built-in name such as `builtin`) are
    /// skipped.
    pub fn guard(&mut self, path: &Path) {
        let Ok(canon) = path.canonicalize() else {
            return;
        };
        if !canon.is_dir() {
            self.inputs.insert(canon);
            return;
        }
        let mut dirs = vec![(canon, 0)];
        while let Some((dir, depth)) = dirs.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                if self.inputs.len() >= MAX_GUARDED_FILES {
                    return;
                }
                let p = entry.path();
                if p.is_dir() {
                    if depth < 1 {
                        dirs.push((p, depth + 1));
                    }
                } else if let Ok(c) = p.canonicalize() {
                    self.inputs.insert(c);
                }
            }
        }
    }

    /// Bad input (exit 2) when writing `path` would overwrite one of the run's inputs.
    pub fn check(&self, path: &Path) -> Result<(), CliError> {
        if self.inputs.is_empty() {
            return Ok(());
        }
        if let Some(canon) = canonical_target(path)
            && self.inputs.contains(&canon)
        {
            return Err(CliError::input_msg(format!(
                "{}: is one of this run's inputs; refusing to overwrite it",
                path.display()
            )));
        }
        Ok(())
    }

    /// Writes `bytes` to `target`: a file atomically, or stdout.
    pub fn write(&self, target: &Target, bytes: &[u8]) -> Result<(), CliError> {
        match target {
            Target::Stdout => print_bytes(bytes),
            Target::File(path) if is_special(path) => {
                self.check(path)?;
                write_into(path, bytes)
            }
            Target::File(path) => self.write_files(path, |tmp| {
                std::fs::write(tmp, bytes).map_err(|e| write_error(path, e))
            }),
        }
    }

    /// Writes the file `path` (and any files written beside it, such as a TMX map's tileset
    /// image) through `write`, which is given a path of the same name inside a temporary
    /// directory beside `path`. Every file it makes there is then renamed into place; on
    /// failure nothing is moved and the temporary directory is removed.
    pub fn write_files(
        &self,
        path: &Path,
        write: impl FnOnce(&Path) -> Result<(), CliError>,
    ) -> Result<(), CliError> {
        self.check(path)?;
        let name = path
            .file_name()
            .ok_or_else(|| CliError::input_msg(format!("{}: not a file name", path.display())))?;
        let parent = parent_dir(path);
        create_dir(&parent)?;
        let tmp = TempDir::beside(&parent, name)?;
        write(&tmp.0.join(name))?;
        let made: Vec<_> = std::fs::read_dir(&tmp.0)
            .map_err(|e| write_error(&tmp.0, e))?
            .flatten()
            .map(|e| e.file_name())
            .collect();
        for file in &made {
            self.check(&parent.join(file))?;
        }
        for file in &made {
            let (from, to) = (tmp.0.join(file), parent.join(file));
            if is_special(&to) {
                // A FIFO or device (`/dev/stdout`, a process substitution) is written into,
                // never replaced.
                let bytes = std::fs::read(&from).map_err(|e| write_error(&from, e))?;
                write_into(&to, &bytes)?;
            } else {
                std::fs::rename(&from, &to).map_err(|e| write_error(&to, e))?;
            }
        }
        Ok(())
    }
}

/// Writes `bytes` into an existing FIFO or device (never replacing it).
fn write_into(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|mut f| f.write_all(bytes))
        .map_err(|e| write_error(path, e))
}

/// Writes `bytes` to stdout and flushes: a closed pipe is [`CliError::closed_pipe`] (the run
/// ends quietly), any other error exit 1.
pub fn print_bytes(bytes: &[u8]) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::BrokenPipe => CliError::closed_pipe(),
            _ => CliError::output_msg(format!("stdout: {e}")),
        })
}

/// [`print_bytes`] for text.
pub fn print(text: &str) -> Result<(), CliError> {
    print_bytes(text.as_bytes())
}

fn write_error(path: &Path, e: std::io::Error) -> CliError {
    CliError::output_msg(format!("{}: {e}", path.display()))
}

/// The directory a file goes in (`.` for a bare file name).
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Whether `path` exists and is neither a regular file nor a directory (a FIFO, a device,
/// a socket): such a target is written into rather than replaced.
fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Creates `dir` and its parents if missing (exit 1 on failure).
pub fn create_dir(dir: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|e| write_error(dir, e))
}

/// The canonical path a write to `path` would replace: the file itself if it exists
/// (following symbolic links), else its canonical directory joined with its name.
fn canonical_target(path: &Path) -> Option<PathBuf> {
    if let Ok(c) = path.canonicalize() {
        return Some(c);
    }
    let dir = parent_dir(path).canonicalize().ok()?;
    Some(dir.join(path.file_name()?))
}

/// A temporary directory, removed with what is left in it when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn beside(parent: &Path, name: &std::ffi::OsStr) -> Result<Self, CliError> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = parent.join(format!(
            ".{}.levelgen-{}-{n}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ));
        std::fs::create_dir(&dir).map_err(|e| write_error(&dir, e))?;
        Ok(Self(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("levelgen-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn names(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn long_lines_are_cut_in_the_middle() {
        let line = format!("file.json:3:4: rule {} expected a number", "x".repeat(5000));
        let text = format!("short\n{line}\nend");
        let b = bounded(&text);
        let lines: Vec<&str> = b.lines().collect();
        assert_eq!(lines[0], "short");
        assert_eq!(lines[2], "end");
        assert!(lines[1].starts_with("file.json:3:4: rule xxx"));
        assert!(lines[1].ends_with("xxx expected a number"));
        assert!(lines[1].contains("characters cut"));
        assert!(lines[1].chars().count() < MAX_LINE_CHARS + 40);
        assert_eq!(bounded("é".repeat(10).as_str()), "é".repeat(10));
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let d = dir("fail");
        let f = d.join("map.txt");
        std::fs::write(&f, "old").unwrap();
        let out = Output::new();
        let r = out.write_files(&f, |tmp| {
            std::fs::write(tmp, "half").unwrap();
            Err(CliError::output_msg("disk full"))
        });
        assert_eq!(r.unwrap_err().code, 1);
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "old");
        assert_eq!(names(&d), vec!["map.txt"]);
        out.write(&Target::File(f.clone()), b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "new");
        assert_eq!(names(&d), vec!["map.txt"]);
    }

    #[test]
    fn files_written_beside_the_target_are_moved_too() {
        let d = dir("beside");
        let f = d.join("sub").join("m.tmx");
        Output::new()
            .write_files(&f, |tmp| {
                std::fs::write(tmp, "tmx").unwrap();
                std::fs::write(tmp.with_file_name("m_tiles.png"), "png").unwrap();
                Ok(())
            })
            .unwrap();
        assert_eq!(names(&d.join("sub")), vec!["m.tmx", "m_tiles.png"]);
    }

    #[test]
    fn inputs_are_never_overwritten_by_any_spelling_of_their_path() {
        let d = dir("guard");
        std::fs::create_dir_all(d.join("rooms/inner")).unwrap();
        std::fs::write(d.join("s.json"), "{}").unwrap();
        std::fs::write(d.join("rooms/a.txt"), "a").unwrap();
        std::fs::write(d.join("rooms/inner/b.txt"), "b").unwrap();
        let out = Output::guarding([d.join("s.json").as_path(), &d.join("rooms")]);
        for p in [
            d.join("s.json"),
            d.join("rooms/../s.json"),
            d.join("rooms/a.txt"),
            d.join("rooms/inner/b.txt"),
        ] {
            let e = out.write(&Target::File(p.clone()), b"x").unwrap_err();
            assert_eq!(e.code, 2, "{}", p.display());
        }
        // A tileset image written beside a map is checked too.
        let e = out
            .write_files(&d.join("rooms/x.tmx"), |tmp| {
                std::fs::write(tmp, "t").unwrap();
                std::fs::write(tmp.with_file_name("a.txt"), "t").unwrap();
                Ok(())
            })
            .unwrap_err();
        assert_eq!(e.code, 2);
        assert_eq!(std::fs::read_to_string(d.join("rooms/a.txt")).unwrap(), "a");
        assert_eq!(std::fs::read_to_string(d.join("s.json")).unwrap(), "{}");
        out.write(&Target::File(d.join("new.txt")), b"x").unwrap();
    }
}
