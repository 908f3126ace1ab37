//! The studio under load and abuse, over loopback only (127.0.0.1): a burst of large PNG
//! requests, a small request in the middle of it, the memory of the server process before,
//! during and after, and requests from a rebound name. Bounded: [`BURST`] requests, each
//! client gives up after [`CLIENT_TIMEOUT`].

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

/// Concurrent large requests.
pub const BURST: usize = 200;
/// Longest a client waits for its answer.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(120);
/// Peak resident memory the studio may reach during the burst.
const RSS_LIMIT: u64 = 1 << 30;

/// The studio process, killed when the test ends (also on panic).
pub struct Studio {
    child: Child,
    /// Where it listens (127.0.0.1).
    pub addr: SocketAddr,
}

impl Drop for Studio {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Studio {
    /// Starts `levelgen studio --port 0` on loopback and reads the address it prints.
    pub fn start() -> Studio {
        let mut child = Command::new(env!("CARGO_BIN_EXE_levelgen"))
            .args(["studio", "--port", "0", "--bind", "127.0.0.1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("levelgen studio starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).expect("a line");
        let addr: SocketAddr = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("http://"))
            .and_then(|a| a.strip_suffix('/'))
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        assert!(addr.ip().is_loopback(), "{addr}");
        Studio { child, addr }
    }

    /// The server's resident memory in bytes (`VmRSS` of `/proc/PID/status`).
    pub fn rss(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("/proc status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map(|kb| kb * 1024)
            .expect("VmRSS")
    }
}

/// Sends one request with `host` as its `Host`; the status code (0 when the connection
/// failed or timed out) and the time to the answer.
pub fn request(addr: SocketAddr, host: &str, path: &str, body: &str) -> (u16, Duration) {
    let start = Instant::now();
    let status = (|| {
        let mut s = TcpStream::connect(addr).ok()?;
        s.set_read_timeout(Some(CLIENT_TIMEOUT)).ok()?;
        let (method, kind) = if body.is_empty() {
            ("GET", "")
        } else {
            ("POST", "Content-Type: application/json\r\n")
        };
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{kind}Content-Length: {}\r\n\
             Connection: close\r\n\r\n{body}",
            body.len()
        )
        .ok()?;
        let mut head = [0u8; 12];
        s.read_exact(&mut head).ok()?;
        let code = std::str::from_utf8(&head[9..12]).ok()?.parse().ok()?;
        // Read the rest, so the server's write completes.
        let mut rest = Vec::new();
        let _ = s.read_to_end(&mut rest);
        Some(code)
    })();
    (status.unwrap_or(0), start.elapsed())
}

/// What the burst measured.
#[derive(Debug)]
pub struct Burst {
    /// RSS before, after warming up (bytes).
    pub idle: u64,
    /// Highest RSS seen during the burst.
    pub peak: u64,
    /// RSS once the burst was over and memory settled (or the wait ran out).
    pub after: u64,
    /// Seconds from the burst's end until `after` was read.
    pub settle: f64,
    /// Answers by status code.
    pub statuses: std::collections::BTreeMap<u16, usize>,
    /// The small request's status and time to its answer.
    pub small: (u16, Duration),
    /// The burst's wall time.
    pub wall: Duration,
}

/// Runs the burst against a fresh studio and the rebinding probes; returns the figures.
pub fn burst() -> Burst {
    let studio = Studio::start();
    let addr = studio.addr;
    let host = addr.to_string();
    let cave = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/marahel/cave.json"),
    )
    .expect("cave.json");
    let small =
        serde_json::json!({"script": &cave, "seed": 1, "width": 40, "height": 30}).to_string();
    let large = serde_json::json!({
        "script": &cave, "seed": 2, "width": 512, "height": 512, "scale": 8, "format": "png"
    })
    .to_string();
    // Warm up: a small and a large request, so the idle figure includes what any first
    // request loads.
    assert_eq!(request(addr, &host, "/api/marahel", &small).0, 200);
    assert_eq!(request(addr, &host, "/api/marahel", &large).0, 200);
    std::thread::sleep(Duration::from_millis(500));
    let idle = studio.rss();

    let peak = Arc::new(AtomicU64::new(idle));
    let done = Arc::new(AtomicBool::new(false));
    let watcher = {
        let (peak, done) = (peak.clone(), done.clone());
        let path = format!("/proc/{}/status", studio.child.id());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                if let Some(rss) = std::fs::read_to_string(&path).ok().and_then(|s| {
                    s.lines()
                        .find_map(|l| l.strip_prefix("VmRSS:"))
                        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                }) {
                    peak.fetch_max(rss * 1024, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    let start = Instant::now();
    let gate = Arc::new(Barrier::new(BURST + 1));
    let clients: Vec<_> = (0..BURST)
        .map(|_| {
            let (gate, host, large) = (gate.clone(), host.clone(), large.clone());
            std::thread::spawn(move || {
                gate.wait();
                request(addr, &host, "/api/marahel", &large).0
            })
        })
        .collect();
    gate.wait();
    std::thread::sleep(Duration::from_millis(300));
    let small_answer = request(addr, &host, "/api/marahel", &small);
    let mut statuses = std::collections::BTreeMap::new();
    for c in clients {
        *statuses.entry(c.join().expect("client")).or_insert(0) += 1;
    }
    let wall = start.elapsed();
    done.store(true, Ordering::Relaxed);
    watcher.join().expect("watcher");

    // Memory settles: wait up to 10 s for the RSS to come back within 10% of idle (idle
    // worker threads end after 1 s).
    let settled = Instant::now();
    let mut after = studio.rss();
    while after > idle + idle / 10 && settled.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(200));
        after = studio.rss();
    }
    Burst {
        idle,
        peak: peak.load(Ordering::Relaxed),
        after,
        settle: settled.elapsed().as_secs_f64(),
        statuses,
        small: small_answer,
        wall,
    }
}

/// The rebinding probes: a foreign `Host` or `Origin` is refused (403) on a page and an
/// endpoint; the studio's own names are served.
pub fn rebinding(addr: SocketAddr) -> Vec<(String, u16)> {
    let own = addr.to_string();
    let body = "{\"seed\": 1, \"length\": 50}";
    let mut out = Vec::new();
    for host in [
        "evil.example",
        "evil.example:80",
        &format!("evil.example:{}", addr.port()),
    ] {
        out.push((format!("GET / Host {host}"), request(addr, host, "/", "").0));
        let code = request(addr, host, "/api/mario", body).0;
        out.push((format!("POST /api/mario Host {host}"), code));
    }
    out.push((
        "GET /api/examples own host".into(),
        request(addr, &own, "/api/examples", "").0,
    ));
    out
}

/// A request from another site's page: `Origin` set to that site.
pub fn foreign_origin(addr: SocketAddr) -> u16 {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(CLIENT_TIMEOUT)).unwrap();
    write!(
        s,
        "GET /api/examples HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://evil.example\r\n\
         Connection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    text.get(9..12).and_then(|c| c.parse().ok()).unwrap_or(0)
}

/// The figures and checks of the burst, for the hostile run's report.
pub fn check_burst(b: &Burst) -> Vec<String> {
    let mut failures = Vec::new();
    let answered: usize = b
        .statuses
        .iter()
        .filter(|(c, _)| [200, 503].contains(c))
        .map(|(_, n)| n)
        .sum();
    if answered != BURST {
        failures.push(format!("answers other than 200 or 503: {:?}", b.statuses));
    }
    if b.peak >= RSS_LIMIT {
        failures.push(format!("peak RSS {} MiB is over 1 GiB", b.peak >> 20));
    }
    if b.small.0 != 200 {
        failures.push(format!("the small request got {}", b.small.0));
    }
    // Within 10% of idle: the studio caps malloc's arenas and hands freed pages back once
    // idle after heavy work (levelgen_studio::work).
    if b.after > b.idle + b.idle / 10 {
        failures.push(format!(
            "RSS {:.1} MiB after the burst is not within 10% of idle ({:.1} MiB)",
            b.after as f64 / f64::from(1 << 20),
            b.idle as f64 / f64::from(1 << 20)
        ));
    }
    failures
}

/// One line of figures.
pub fn report(b: &Burst) -> String {
    format!(
        "studio burst: {BURST} x 512x512 PNG at scale 8 in {:.1} s, answers {:?}; RSS idle {:.1} MiB, \
         peak {:.1} MiB, after {:.1} MiB ({:.1} s later); a 40x30 map meanwhile: {} in {} ms",
        b.wall.as_secs_f64(),
        b.statuses,
        b.idle as f64 / 1048576.0,
        b.peak as f64 / 1048576.0,
        b.after as f64 / 1048576.0,
        b.settle,
        b.small.0,
        b.small.1.as_millis()
    )
}
