//! The studio's request parsing: media type, `Host` and `Origin` checks, one endpoint's body
//! and its cost, and the error locator (`levelgen_studio::probe::request`), never the work.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = levelgen_studio::probe::request(data);
});
