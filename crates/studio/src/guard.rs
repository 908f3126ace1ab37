//! Who may talk to the studio, and in what form: the `Host` and `Origin` checks that defeat
//! DNS rebinding and other sites' pages, and the media type of a request body.
//!
//! A page on another site can make the browser send requests to this machine's ports. It
//! cannot read the answers, unless it rebinds its own name to 127.0.0.1: then the browser
//! sends `Host: evil.example`. So every request must name the studio itself in `Host` (the
//! bound address or `localhost`, with the bound port), and a request that carries an `Origin`
//! (browsers send one with every cross-site request and every `POST`) must come from a page
//! of that same host. Anything else is 403, on every route, before any other answer.

use crate::error::StudioError;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, SocketAddr};

/// The hosts a request may name: the bound address's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    bound: SocketAddr,
}

impl Access {
    /// Requests to a server bound at `bound`. Bound to a loopback address, the studio accepts
    /// that address and `localhost`; bound to a wildcard address (`0.0.0.0`, `::`, what
    /// `--allow-remote` serves), any IP address literal and `localhost`; bound to another
    /// address, that address and `localhost`. The port must be the bound one.
    pub fn new(bound: SocketAddr) -> Self {
        Access { bound }
    }

    /// Whether a `Host` value (`127.0.0.1:8450`, `localhost:8450`, `[::1]:8450`) names this
    /// server.
    pub fn host_ok(&self, host: &str) -> bool {
        let Some((name, port)) = split_host(host) else {
            return false;
        };
        if port != self.bound.port() {
            return false;
        }
        if name.eq_ignore_ascii_case("localhost") {
            return true;
        }
        match name.parse::<IpAddr>() {
            Ok(_) if self.bound.ip().is_unspecified() => true,
            Ok(ip) => ip == self.bound.ip(),
            Err(_) => false,
        }
    }

    /// Whether an `Origin` value is a page of this server (`http://` and a [`Access::host_ok`]
    /// host, nothing after it).
    pub fn origin_ok(&self, origin: &str) -> bool {
        origin
            .strip_prefix("http://")
            .is_some_and(|host| !host.contains('/') && self.host_ok(host))
    }

    /// The request's `Host` and `Origin` checked: 403 naming what was wrong.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), StudioError> {
        let text = |name| {
            headers
                .get(name)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        };
        let quoted = |v: &str| grid_core::text::excerpt(v);
        match text(header::HOST) {
            None => {
                return Err(StudioError::Forbidden(
                    "the request names no Host; the studio answers requests for itself only".into(),
                ));
            }
            Some(h) if !self.host_ok(&h) => {
                return Err(StudioError::Forbidden(format!(
                    "Host {} is not this studio ({}, or localhost:{})",
                    quoted(&h),
                    self.bound,
                    self.bound.port()
                )));
            }
            Some(_) => {}
        }
        if headers.get_all(header::ORIGIN).iter().count() > 1 {
            return Err(StudioError::Forbidden("more than one Origin".into()));
        }
        match text(header::ORIGIN) {
            Some(o) if !self.origin_ok(&o) => Err(StudioError::Forbidden(format!(
                "Origin {} is another site; the studio answers its own page only",
                quoted(&o)
            ))),
            _ => Ok(()),
        }
    }
}

/// `name` and port of a `Host` value; the port is 80 when absent. `None` when malformed.
fn split_host(host: &str) -> Option<(&str, u16)> {
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        let (ip, after) = rest.split_once(']')?;
        match after {
            "" => (ip, None),
            _ => (ip, Some(after.strip_prefix(':')?)),
        }
    } else {
        match host.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (host, None),
        }
    };
    let port = match port {
        None => 80,
        Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => p.parse().ok()?,
        Some(_) => return None,
    };
    (!name.is_empty()).then_some((name, port))
}

/// The middleware: [`Access::check`] on every request.
pub async fn guard(State(access): State<Access>, request: Request, next: Next) -> Response {
    match access.check(request.headers()) {
        Ok(()) => next.run(request).await,
        Err(e) => e.into_response(),
    }
}

/// Whether a `Content-Type` value is JSON: the media type `application/json` in any case,
/// with or without parameters (`; charset=utf-8`), and nothing else (`application/jsonx`,
/// `application/json-patch+json` and `text/plain` are not).
pub fn is_json(content_type: &str) -> bool {
    let mut parts = content_type.split(';');
    let essence = parts.next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("application/json")
        && parts.all(|p| {
            p.split_once('=').is_some_and(|(name, _)| {
                let name = name.trim();
                !name.is_empty()
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-_.+!#$&^`|~'*%".contains(&b))
            })
        })
}

/// The request's `Content-Type` checked: 415 unless [`is_json`].
pub fn require_json(headers: &HeaderMap) -> Result<(), StudioError> {
    let mut values = headers.get_all(header::CONTENT_TYPE).iter();
    match (values.next(), values.next()) {
        (Some(v), None) if is_json(&String::from_utf8_lossy(v.as_bytes())) => Ok(()),
        _ => Err(StudioError::NotJson),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(addr: &str) -> Access {
        Access::new(addr.parse().unwrap())
    }

    #[test]
    fn only_this_host_and_port() {
        let a = access("127.0.0.1:8450");
        for ok in ["127.0.0.1:8450", "localhost:8450", "LOCALHOST:8450"] {
            assert!(a.host_ok(ok), "{ok}");
        }
        for bad in [
            "evil.example",
            "evil.example:8450",
            "127.0.0.1",
            "127.0.0.1:8451",
            "127.0.0.2:8450",
            "192.168.1.4:8450",
            "localhost.evil.example:8450",
            "[::1]:8450",
            "127.0.0.1:+8450",
            "127.0.0.1:8450:1",
            ":8450",
            "",
        ] {
            assert!(!a.host_ok(bad), "{bad}");
        }
        assert!(access("127.0.0.1:80").host_ok("localhost"));
        let v6 = access("[::1]:9000");
        assert!(v6.host_ok("[::1]:9000") && v6.host_ok("localhost:9000"));
        assert!(!v6.host_ok("127.0.0.1:9000") && !v6.host_ok("[::1"));
        let any = access("0.0.0.0:8450");
        assert!(any.host_ok("192.168.1.4:8450") && any.host_ok("127.0.0.1:8450"));
        assert!(!any.host_ok("evil.example:8450"));
    }

    #[test]
    fn binding_beyond_loopback_needs_a_yes_and_says_what_it_exposes() {
        let at = |s: &str| s.parse::<SocketAddr>().unwrap();
        assert!(crate::check_bind(at("127.0.0.1:8450"), false).is_ok());
        assert!(crate::check_bind(at("[::1]:8450"), false).is_ok());
        let e = crate::check_bind(at("0.0.0.0:8450"), false).unwrap_err();
        assert!(e.contains("every network this machine is on"), "{e}");
        let e = crate::check_bind(at("192.0.2.7:8450"), false).unwrap_err();
        assert!(e.contains("every machine that can reach 192.0.2.7"), "{e}");
        assert!(crate::check_bind(at("0.0.0.0:8450"), true).is_ok());
    }

    #[test]
    fn origins_are_pages_of_this_host() {
        let a = access("127.0.0.1:8450");
        assert!(a.origin_ok("http://127.0.0.1:8450"));
        assert!(a.origin_ok("http://localhost:8450"));
        for bad in [
            "null",
            "https://127.0.0.1:8450",
            "http://evil.example",
            "http://evil.example:8450",
            "http://127.0.0.1:8450/x",
            "http://127.0.0.1:8451",
        ] {
            assert!(!a.origin_ok(bad), "{bad}");
        }
    }

    #[test]
    fn media_types_are_parsed_not_prefix_matched() {
        for ok in [
            "application/json",
            "APPLICATION/JSON; charset=utf-8",
            " application/json ;charset=UTF-8",
            "Application/Json; a=1; b=\"x\"",
        ] {
            assert!(is_json(ok), "{ok}");
        }
        for bad in [
            "application/jsonx",
            "application/json-patch+json",
            "text/plain",
            "application/json; garbage",
            "application/json;=x",
            "",
            "application/ json",
        ] {
            assert!(!is_json(bad), "{bad}");
        }
    }
}
