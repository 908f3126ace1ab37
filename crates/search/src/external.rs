//! Metrics measured outside the search's own code: a spec's external command, a caller's
//! function (the Python package's callables). One mechanism serves both: a [`MetricFn`]
//! computes the value of one map and may fail; [`External`] names it, caches its values per
//! map and turns its failures into the candidate's error, naming the metric.
//!
//! A failure (a command that cannot run, exits with an error, runs over time or prints
//! anything but one number; a function that raises or returns something else) makes the
//! candidate whose map it was invalid, with the message `metric NAME: ...`; the search goes
//! on. [`crate::Search::new`] calls every external metric once, on the skeleton's map of
//! seed 0, so one that cannot work at all is an error when the search is compiled. Values
//! are cached per map (by a 64-bit hash of the map's JSON, up to [`MAX_CACHED`] maps per
//! metric), so a map made twice is measured once; the value must be a function of the map
//! for the search to be reproducible.

use grid_core::TileMap;
use grid_core::export::{JsonTiles, to_json};
use grid_core::text::excerpt;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::process::{Command as Process, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Most maps whose values are cached (per metric).
pub const MAX_CACHED: usize = 1 << 20;
/// Most bytes read from a command's output or error stream.
const MAX_OUTPUT: u64 = 1 << 16;
/// Longest time limit per map of a command, in seconds.
pub const MAX_TIMEOUT: f64 = 600.0;

/// A measure of one map computed outside the search: it may fail. Implemented by
/// [`Command`] and by the Python package's callables; wrap one in an [`External`] to name
/// it and cache it.
pub trait MetricFn: Send + Sync + std::fmt::Debug {
    /// The value on `map`, whose JSON (as `levelgen ... --format json` writes it: `height`,
    /// `legend`, `rows` of tile names, `width`) is `json`. An error says what went wrong;
    /// [`External`] adds the metric's name.
    fn value(&self, map: &dyn TileMap, json: &str) -> Result<f64, String>;
}

/// A named external metric with its cache.
pub struct External {
    /// The name constraints, objectives, axes and targets use.
    pub name: String,
    /// Where an error found when the search is compiled points (`metrics.NAME.command`).
    pub path: String,
    function: Arc<dyn MetricFn>,
    cache: Mutex<HashMap<u64, f64>>,
}

impl std::fmt::Debug for External {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("External")
            .field("name", &self.name)
            .field("function", &self.function)
            .finish()
    }
}

fn hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

impl External {
    /// The metric `name` computed by `function`; `path` is where a compile-time error points.
    pub fn new(name: &str, path: &str, function: Arc<dyn MetricFn>) -> Self {
        Self {
            name: name.to_string(),
            path: path.to_string(),
            function,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The value on `map` (cached per map): a finite number, or an error naming the metric.
    pub fn measure(&self, map: &dyn TileMap) -> Result<f64, String> {
        let json = to_json(map, JsonTiles::Names);
        let key = hash(&json);
        let cached = self.cache.lock().map(|c| c.get(&key).copied());
        if let Ok(Some(v)) = cached {
            return Ok(v);
        }
        let v = match self.function.value(map, &json) {
            Ok(v) if v.is_finite() => v,
            Ok(v) => return Err(format!("metric {}: the value {v} is not finite", self.name)),
            Err(e) => return Err(format!("metric {}: {e}", self.name)),
        };
        if let Ok(mut c) = self.cache.lock()
            && c.len() < MAX_CACHED
        {
            c.insert(key, v);
        }
        Ok(v)
    }

    /// Maps whose values are cached.
    pub fn cached(&self) -> usize {
        self.cache.lock().map_or(0, |c| c.len())
    }
}

/// A program that reads one map as JSON on standard input and prints one number (a spec's
/// `command`), run without a shell from the current folder, stopped after its time limit.
#[derive(Clone, Debug)]
pub struct Command {
    argv: Vec<String>,
    timeout: Duration,
}

/// Reads up to [`MAX_OUTPUT`] bytes of a child's stream on a thread of its own.
fn drain(stream: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(s) = stream {
            let _ = s.take(MAX_OUTPUT).read_to_end(&mut bytes);
        }
        bytes
    })
}

impl Command {
    /// `argv` (the program, then its arguments), at most `timeout` seconds per map.
    pub fn new(argv: &[String], timeout: f64) -> Self {
        Self {
            argv: argv.to_vec(),
            timeout: Duration::from_secs_f64(timeout),
        }
    }
}

impl MetricFn for Command {
    fn value(&self, _: &dyn TileMap, json: &str) -> Result<f64, String> {
        let mut child = Process::new(&self.argv[0])
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", excerpt(&self.argv[0])))?;
        let stdin = child.stdin.take();
        let input = json.to_string();
        let writer = std::thread::spawn(move || {
            if let Some(mut s) = stdin {
                let _ = s.write_all(input.as_bytes());
            }
        });
        let (out, err) = (drain(child.stdout.take()), drain(child.stderr.take()));
        let deadline = Instant::now() + self.timeout;
        let mut pause = Duration::from_micros(100);
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(5));
                }
                Ok(None) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "the command ran over its {} s on a map and was stopped",
                        self.timeout.as_secs_f64()
                    ));
                }
                Err(e) => return Err(format!("waiting for the command: {e}")),
            }
        };
        let _ = writer.join();
        let (out, err) = (
            out.join().unwrap_or_default(),
            err.join().unwrap_or_default(),
        );
        let out = String::from_utf8_lossy(&out);
        if !status.success() {
            return Err(format!(
                "the command failed ({status}): {}",
                excerpt(String::from_utf8_lossy(&err).trim())
            ));
        }
        match out.trim().parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(format!(
                "the command printed {}, not one number",
                excerpt(out.trim())
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> grid_core::TileGrid {
        let legend = grid_core::Legend::new(vec![
            grid_core::TileKind::new("empty", '.', [255; 3]),
            grid_core::TileKind::new("solid", '#', [0; 3]),
        ]);
        grid_core::TileGrid::from_text(".#\n..\n", legend).unwrap()
    }

    fn sh(script: &str, timeout: f64) -> External {
        let argv: Vec<String> = ["sh", "-c", script].map(String::from).to_vec();
        External::new(
            "m",
            "metrics.m.command",
            Arc::new(Command::new(&argv, timeout)),
        )
    }

    #[test]
    fn a_command_reads_the_map_and_prints_a_number() {
        // The number of "empty" tiles in the JSON on stdin.
        let count = sh("grep -o '\"empty\"' | wc -l", 5.0);
        // The legend names "empty" once, the rows three times.
        assert_eq!(count.measure(&map()), Ok(4.0));
        assert_eq!(count.measure(&map()), Ok(4.0), "cached");
        assert_eq!(count.cached(), 1);
    }

    #[test]
    fn failures_name_the_metric() {
        let m = map();
        assert_eq!(
            sh("cat > /dev/null; echo many", 5.0)
                .measure(&m)
                .unwrap_err(),
            "metric m: the command printed \"many\", not one number"
        );
        assert!(
            sh("cat > /dev/null; echo oops >&2; exit 3", 5.0)
                .measure(&m)
                .unwrap_err()
                .starts_with("metric m: the command failed (exit status: 3): \"oops\"")
        );
        let start = Instant::now();
        assert_eq!(
            sh("sleep 5", 0.2).measure(&m).unwrap_err(),
            "metric m: the command ran over its 0.2 s on a map and was stopped"
        );
        assert!(start.elapsed() < Duration::from_secs(4));
        let missing = Command::new(&["/no/such/program".to_string()], 1.0);
        let missing = External::new("m", "metrics.m.command", Arc::new(missing));
        assert!(
            missing
                .measure(&m)
                .unwrap_err()
                .starts_with("metric m: cannot run \"/no/such/program\": ")
        );
    }

    /// A caller's function: the share of empty tiles, failing on maps without any.
    #[derive(Debug)]
    struct EmptyShare;

    impl MetricFn for EmptyShare {
        fn value(&self, map: &dyn TileMap, json: &str) -> Result<f64, String> {
            assert!(json.contains("\"rows\""), "{json}");
            let cells = map.width() * map.height();
            let empty = (0..cells)
                .filter(|i| map.tile_name(i % map.width(), i / map.width()) == "empty")
                .count();
            match empty {
                0 => Err("no empty tile".into()),
                n => Ok(n as f64 / cells as f64),
            }
        }
    }

    #[test]
    fn a_function_is_cached_and_its_failures_and_non_finite_values_name_the_metric() {
        let f = External::new("share", "share", Arc::new(EmptyShare));
        assert_eq!(f.measure(&map()), Ok(0.75));
        assert_eq!(f.cached(), 1);
        let legend = grid_core::Legend::new(vec![grid_core::TileKind::new("solid", '#', [0; 3])]);
        let full = grid_core::TileGrid::from_text("##\n", legend).unwrap();
        assert_eq!(f.measure(&full), Err("metric share: no empty tile".into()));
        #[derive(Debug)]
        struct Nan;
        impl MetricFn for Nan {
            fn value(&self, _: &dyn TileMap, _: &str) -> Result<f64, String> {
                Ok(f64::NAN)
            }
        }
        let nan = External::new("nan", "nan", Arc::new(Nan));
        assert_eq!(
            nan.measure(&map()),
            Err("metric nan: the value NaN is not finite".into())
        );
    }
}
