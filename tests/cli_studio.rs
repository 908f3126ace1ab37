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
