//! Every parser a request goes through before any work, from one byte string: what the fuzz
//! target `studio_request` (in `fuzz/`) feeds, and what the tests run on a few inputs so it
//! keeps compiling and holding.

use crate::api::{Endpoint, heroes, marahel, mario, range, search, zones};
use crate::{error, guard, locate};

/// Splits `data` into a pick byte and four lines (`Content-Type`, `Host`, `Origin`, body)
/// and runs them through the media-type parser, the `Host`/`Origin` checks, one endpoint's
/// body parser and cost (the pick chooses which), and the error locator. Never generates:
/// that is the generators' own fuzz targets' business. Returns whether the body parsed.
pub fn request(data: &[u8]) -> bool {
    let Some((&pick, rest)) = data.split_first() else {
        return false;
    };
    let text = String::from_utf8_lossy(rest);
    let mut lines = text.splitn(4, '\n');
    let (content_type, host, origin) = (
        lines.next().unwrap_or(""),
        lines.next().unwrap_or(""),
        lines.next().unwrap_or(""),
    );
    let body = lines.next().unwrap_or("");
    let _ = guard::is_json(content_type);
    let access = guard::Access::new(std::net::SocketAddr::from(([127, 0, 0, 1], 8450)));
    let _ = access.host_ok(host);
    let _ = access.origin_ok(origin);
    // The located line of a path named by the input, in the body.
    let _ = locate::line_of(body, origin);
    let bytes = body.as_bytes();
    match pick % 6 {
        0 => cost::<marahel::MarahelRequest>(bytes),
        1 => cost::<range::RangeRequest>(bytes),
        2 => cost::<heroes::HeroesRequest>(bytes),
        3 => cost::<zones::ZonesRequest>(bytes),
        4 => cost::<mario::MarioRequest>(bytes),
        _ => cost::<search::SearchRequest>(bytes),
    }
}

fn cost<T: Endpoint>(body: &[u8]) -> bool {
    match error::parse_body::<T>(body) {
        Ok(req) => {
            let _ = req.cost();
            true
        }
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::request;

    #[test]
    fn requests_parse_and_garbage_does_not_panic() {
        let ok = b"\x01application/json\n127.0.0.1:8450\nhttp://x\n{\"script\": \"{}\", \"seed\": 18446744073709551615, \"count\": 3}";
        assert!(request(ok));
        let zones =
            b"\x03a\nb\nc\n{\"zones\": [4294967295, 4294967295], \"zone_size\": 4294967295}";
        assert!(request(zones));
        for junk in [
            &b""[..],
            b"\x00",
            b"\x05\n\n\n",
            b"\x02\xff\xfe\n[\n]\n{\"template\": 1e999}",
            b"\x04x\n[::1\n:\n{\"length\": 18446744073709551615, \"height\": 18446744073709551615}",
            b"\x00x\ny\nexplorers[99999999999999999999].a\n{\"script\": \"\", \"width\": 18446744073709551615, \"height\": 18446744073709551615}",
        ] {
            let _ = request(junk);
        }
    }
}
