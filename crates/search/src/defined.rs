//! Metrics a spec defines under `metrics`, by name: a built-in metric read with its own
//! passable tiles, or an external command.
//!
//! ```json
//! "metrics": {
//!   "key_without_door": { "metric": "distance:player:key", "passable": ["empty", "player", "key", "enemy"] },
//!   "enemy_gap": { "command": ["python3", "examples/search/metrics/enemy_gap.py"], "timeout": 5 }
//! }
//! ```
//!
//! **Own passable tiles.** `passable` replaces the spec's `measure.passable` for this metric
//! only: "the player reaches the key without passing the door" is a distance whose walker
//! may not stand on the door. It applies to the registry's map metrics and to distances.
//!
//! **Commands.** The command (a program and its arguments, run from the current folder,
//! without a shell) reads one map on standard input, as `levelgen ... --format json` writes
//! it (`{"height", "legend", "rows", "width"}`, tiles by name), and prints one number. It
//! runs at most `timeout` seconds per map (default 5, at most 600), then it is killed. A
//! command that fails, runs over time or prints anything but one finite number makes the
//! candidate invalid, with a message naming the metric. Values are cached per map (by a
//! 64-bit hash of the map's JSON, up to [`MAX_CACHED`] maps), so a map made twice runs the
//! command once; the value must be a function of the map for the search to be reproducible.

use crate::error::SearchError;
use crate::metric::{Metric, MetricKind};
use grid_core::TileMap;
use grid_core::export::{JsonTiles, to_json};
use grid_core::text::excerpt;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Most maps whose command values are cached (per metric).
pub const MAX_CACHED: usize = 1 << 20;
/// Most bytes read from a command's output or error stream.
const MAX_OUTPUT: u64 = 1 << 16;
/// Longest time limit per map, in seconds.
pub const MAX_TIMEOUT: f64 = 600.0;

/// One entry of the spec's `metrics`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Defined {
    /// A built-in metric (read with `passable` when given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    /// The passable entities of this metric (instead of `measure.passable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passable: Option<Vec<String>>,
    /// A program and its arguments that read a map as JSON and print a number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<String>>,
    /// Seconds the command may run on one map.
    #[serde(default = "default_timeout")]
    pub timeout: f64,
}

fn default_timeout() -> f64 {
    5.0
}

/// Checks the spec's `metrics` (the built-in names they use are checked by
/// [`crate::Search::new`]).
pub fn check(defs: &std::collections::BTreeMap<String, Defined>) -> Result<(), SearchError> {
    for (name, d) in defs {
        let path = format!("metrics.{}", excerpt(name));
        let plain = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !plain {
            return Err(SearchError::value(
                path,
                "a metric's name is letters, digits, _ and -",
            ));
        }
        match (&d.metric, &d.command) {
            (Some(_), None) => {}
            (None, Some(argv)) => {
                if argv.is_empty() || argv[0].is_empty() {
                    return Err(SearchError::value(
                        path + ".command",
                        "give the program and its arguments, [\"python3\", \"my_metric.py\"]",
                    ));
                }
                if d.passable.is_some() {
                    return Err(SearchError::value(
                        path + ".passable",
                        "a command reads the whole map; passable is for a built-in metric",
                    ));
                }
            }
            _ => {
                return Err(SearchError::value(
                    path,
                    "give either metric (with passable) or command",
                ));
            }
        }
        if !(d.timeout.is_finite() && d.timeout > 0.0 && d.timeout <= MAX_TIMEOUT) {
            return Err(SearchError::value(
                path + ".timeout",
                format!("{}: expected seconds in (0, {MAX_TIMEOUT}]", d.timeout),
            ));
        }
    }
    Ok(())
}

/// The metric the spec's entry `name` defines (its built-in metric resolved against the
/// script's `entities`, the generator's `extras` and the user's `custom` metrics).
pub fn kind(
    name: &str,
    d: &Defined,
    entities: &[String],
    extras: &[&str],
    custom: &[Arc<dyn Metric>],
) -> Result<MetricKind, SearchError> {
    let path = format!("metrics.{}", excerpt(name));
    if let Some(argv) = &d.command {
        return Ok(MetricKind::Command(Arc::new(CommandMetric::new(
            name, argv, d.timeout,
        ))));
    }
    let inner_name = d.metric.as_deref().unwrap_or_default();
    let inner = MetricKind::parse(
        inner_name,
        entities,
        extras,
        custom,
        &(path.clone() + ".metric"),
    )?;
    let Some(passable) = &d.passable else {
        return Ok(inner);
    };
    if !matches!(inner, MetricKind::Map(_) | MetricKind::Distance(_)) {
        return Err(SearchError::value(
            path + ".passable",
            format!(
                "{} does not walk the map; passable is for the registry's map metrics and distance:A:B",
                excerpt(inner_name)
            ),
        ));
    }
    if let Some((i, p)) = passable
        .iter()
        .enumerate()
        .find(|(_, p)| !entities.contains(p))
    {
        return Err(SearchError::value(
            format!("{path}.passable[{i}]"),
            format!(
                "{} is not an entity of the script (known: {})",
                excerpt(p),
                entities.join(", ")
            ),
        ));
    }
    Ok(MetricKind::Passable(Box::new(inner), passable.clone()))
}

/// A metric measured by an external command.
pub struct CommandMetric {
    /// The name the spec gives it.
    pub name: String,
    argv: Vec<String>,
    timeout: Duration,
    cache: Mutex<HashMap<u64, f64>>,
}

impl std::fmt::Debug for CommandMetric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandMetric")
            .field("name", &self.name)
            .field("argv", &self.argv)
            .field("timeout", &self.timeout)
            .finish()
    }
}

fn hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
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

impl CommandMetric {
    /// The metric `name` running `argv` for at most `timeout` seconds per map.
    pub fn new(name: &str, argv: &[String], timeout: f64) -> Self {
        Self {
            name: name.to_string(),
            argv: argv.to_vec(),
            timeout: Duration::from_secs_f64(timeout),
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The command's value on `map` (cached per map).
    pub fn measure(&self, map: &dyn TileMap) -> Result<f64, String> {
        let json = to_json(map, JsonTiles::Names);
        let key = hash(&json);
        let cached = self.cache.lock().map(|c| c.get(&key).copied());
        if let Ok(Some(v)) = cached {
            return Ok(v);
        }
        let v = self.run(json)?;
        if let Ok(mut c) = self.cache.lock()
            && c.len() < MAX_CACHED
        {
            c.insert(key, v);
        }
        Ok(v)
    }

    fn run(&self, input: String) -> Result<f64, String> {
        let fail = |what: String| format!("metric {}: {what}", self.name);
        let mut child = Command::new(&self.argv[0])
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| fail(format!("cannot run {}: {e}", excerpt(&self.argv[0]))))?;
        let stdin = child.stdin.take();
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
                    return Err(fail(format!(
                        "the command ran over its {} s on a map and was stopped",
                        self.timeout.as_secs_f64()
                    )));
                }
                Err(e) => return Err(fail(format!("waiting for the command: {e}"))),
            }
        };
        let _ = writer.join();
        let (out, err) = (
            out.join().unwrap_or_default(),
            err.join().unwrap_or_default(),
        );
        let out = String::from_utf8_lossy(&out);
        if !status.success() {
            return Err(fail(format!(
                "the command failed ({status}): {}",
                excerpt(String::from_utf8_lossy(&err).trim())
            )));
        }
        match out.trim().parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(fail(format!(
                "the command printed {}, not one number",
                excerpt(out.trim())
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn defs(json: &str) -> Result<(), String> {
        let d: BTreeMap<String, Defined> = serde_json::from_str(json).map_err(|e| e.to_string())?;
        check(&d).map_err(|e| e.to_string())
    }

    #[test]
    fn definitions_are_checked() {
        assert!(defs(r#"{"a": {"metric": "regions", "passable": ["x"]}}"#).is_ok());
        assert!(defs(r#"{"a": {"command": ["sh", "-c", "echo 1"]}}"#).is_ok());
        assert_eq!(
            defs(r#"{"a": {"metric": "regions", "command": ["x"]}}"#).unwrap_err(),
            "metrics.\"a\": give either metric (with passable) or command"
        );
        assert_eq!(
            defs(r#"{"a": {"command": []}}"#).unwrap_err(),
            "metrics.\"a\".command: give the program and its arguments, [\"python3\", \"my_metric.py\"]"
        );
        assert_eq!(
            defs(r#"{"a b": {"metric": "regions"}}"#).unwrap_err(),
            "metrics.\"a b\": a metric's name is letters, digits, _ and -"
        );
        assert_eq!(
            defs(r#"{"a": {"command": ["x"], "timeout": 0}}"#).unwrap_err(),
            "metrics.\"a\".timeout: 0: expected seconds in (0, 600]"
        );
    }

    fn map() -> grid_core::TileGrid {
        let legend = grid_core::Legend::new(vec![
            grid_core::TileKind::new("empty", '.', [255; 3]),
            grid_core::TileKind::new("solid", '#', [0; 3]),
        ]);
        grid_core::TileGrid::from_text(".#\n..\n", legend).unwrap()
    }

    fn sh(script: &str, timeout: f64) -> CommandMetric {
        let argv: Vec<String> = ["sh", "-c", script].map(String::from).to_vec();
        CommandMetric::new("m", &argv, timeout)
    }

    #[test]
    fn a_command_reads_the_map_and_prints_a_number() {
        // The number of "empty" tiles in the JSON on stdin.
        let count = sh("grep -o '\"empty\"' | wc -l", 5.0);
        // The legend names "empty" once, the rows three times.
        assert_eq!(count.measure(&map()), Ok(4.0));
        assert_eq!(count.measure(&map()), Ok(4.0), "cached");
        assert_eq!(count.cache.lock().unwrap().len(), 1);
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
        let missing = CommandMetric::new("m", &["/no/such/program".to_string()], 1.0);
        assert!(
            missing
                .measure(&m)
                .unwrap_err()
                .starts_with("metric m: cannot run \"/no/such/program\": ")
        );
    }
}
