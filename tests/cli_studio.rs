//! `levelgen studio`: starts, prints its loopback address, and serves the page there.

mod common;
use common::bin;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Stdio};

/// The server process, stopped when the test ends (also on panic).
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `levelgen studio --port 0` and reads the address it prints.
fn start() -> (Server, String) {
    let mut child = bin()
        .args(["studio", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("levelgen studio starts");
    let stdout = child.stdout.take().expect("stdout");
    let server = Server(child);
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("a first line");
    let addr = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    (server, addr)
}

/// The whole HTTP/1.1 response to `GET path`.
fn get(addr: &str, path: &str) -> String {
    let mut s = std::net::TcpStream::connect(addr).expect("connects");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    s.read_to_string(&mut response).expect("a response");
    response
}

#[test]
fn studio_prints_its_address_and_serves_the_page() {
    let (_server, addr) = start();
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let page = get(&addr, "/");
    assert!(page.starts_with("HTTP/1.1 200"), "{page:.200}");
    assert!(page.contains("id=\"pane-marahel\""));
}

/// The CLI hands the studio the repository's examples: all six Marahel scripts and both Heroes
/// templates, byte for byte.
#[test]
fn studio_offers_the_repository_examples() {
    let (_server, addr) = start();
    let response = get(&addr, "/api/examples");
    assert!(response.starts_with("HTTP/1.1 200"), "{response:.200}");
    let body = &response[response.find("\r\n\r\n").expect("a body") + 4..];
    let listing: serde_json::Value = serde_json::from_str(body).expect("JSON");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let names = [
        (
            "marahel",
            &[
                "cave",
                "digger",
                "mine",
                "nonuniform",
                "roguelike",
                "uniform",
            ][..],
        ),
        ("heroes", &["duel", "four-kingdoms"][..]),
    ];
    for (kind, list) in names {
        assert_eq!(
            listing[kind].as_object().map(|m| m.len()),
            Some(list.len()),
            "{kind}"
        );
        for name in list {
            let want = std::fs::read_to_string(root.join(kind).join(format!("{name}.json")))
                .expect("the example file");
            assert_eq!(listing[kind][name], want, "{kind}/{name}");
        }
    }
}

/// A non-loopback `--bind` is refused without `--allow-remote`, before anything is bound,
/// with a message saying what it would expose.
#[test]
fn binding_beyond_loopback_needs_allow_remote() {
    for addr in ["0.0.0.0", "::", "192.0.2.7"] {
        let out = bin()
            .args(["studio", "--port", "0", "--bind", addr])
            .output()
            .expect("levelgen runs");
        assert_eq!(out.status.code(), Some(2), "--bind {addr}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--allow-remote"), "{err}");
        assert!(err.contains("anyone there can run the generators"), "{err}");
    }
}

/// `POST path` with a JSON body; the status line and the body.
fn post(addr: &str, path: &str, body: &str) -> (String, String) {
    let mut s = std::net::TcpStream::connect(addr).expect("connects");
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    s.read_to_string(&mut response).expect("a response");
    let (head, body) = response.split_once("\r\n\r\n").expect("a body");
    (
        head.lines().next().unwrap_or("").to_string(),
        body.to_string(),
    )
}

/// Every u64 is a seed: the CLI, the library and the studio make the same map from seed
/// u64::MAX, and a run or range that would pass it is refused, never wrapped.
#[test]
fn cli_library_and_studio_agree_at_the_last_seed() {
    let max = u64::MAX.to_string();
    let cave_path = common::example("marahel/cave.json");
    let out = bin()
        .args([
            "marahel", &cave_path, "--seed", &max, "--size", "30x20", "-q",
        ])
        .output()
        .expect("levelgen runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cli = String::from_utf8(out.stdout).unwrap();

    let cave = std::fs::read_to_string(&cave_path).unwrap();
    let script = marahel::Script::parse(&cave).unwrap();
    let map = script.generate_sized(u64::MAX, 30, 20).unwrap();
    let library = grid_core::export::to_text(&map);
    assert_eq!(cli, library);

    let (_server, addr) = start();
    let body = serde_json::json!({
        "script": cave, "seed": u64::MAX, "width": 30, "height": 20, "format": "text"
    });
    let (status, studio) = post(&addr, "/api/marahel", &body.to_string());
    assert!(status.contains("200"), "{status}: {studio}");
    assert_eq!(studio, library);

    // The last two seeds as a batch, and one past them refused.
    let out = bin()
        .args([
            "marahel",
            &cave_path,
            "--seeds",
            &format!("{}..={max}", u64::MAX - 1),
        ])
        .args(["--size", "30x20", "-q"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(&format!("seed {max}")), "{text:.300}");
    let out = bin()
        .args(["marahel", &cave_path, "--seed", &(u64::MAX - 1).to_string()])
        .args(["--count", "3", "-q"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("at most 2 maps"), "{err}");
    let range = serde_json::json!({
        "script": cave, "seed": u64::MAX - 1, "count": 3, "width": 30, "height": 20
    });
    let (status, answer) = post(&addr, "/api/marahel/range", &range.to_string());
    assert!(status.contains("400"), "{status}: {answer}");
}
