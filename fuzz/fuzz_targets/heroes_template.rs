//! A heroes template or config (JSON): parse both ways, and when a template parses, generate
//! the smallest map from it.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = heroes_zones::Config::from_json(text);
    if let Ok(template) = heroes_zones::Template::from_json(text) {
        let _ = heroes_zones::generate(&template, &heroes_zones::Config::default(), 32, 1);
    }
});
