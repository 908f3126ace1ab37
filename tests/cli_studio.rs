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

#[test]
fn studio_prints_its_address_and_serves_the_page() {
    let mut child = bin()
        .args(["studio", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("levelgen studio starts");
    let stdout = child.stdout.take().expect("stdout");
    let _server = Server(child);
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
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let mut s = std::net::TcpStream::connect(&addr).expect("connects");
    write!(
        s,
        "GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut page = String::new();
    s.read_to_string(&mut page).expect("a response");
    assert!(page.starts_with("HTTP/1.1 200"), "{page:.200}");
    assert!(page.contains("id=\"pane-marahel\""));
}
