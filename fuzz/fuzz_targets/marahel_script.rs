//! A Marahel script: parse, and when it parses, generate a small map (the engine's work
//! budgets must end every script in seconds).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(script) = marahel::Script::parse(text) {
        let _ = script.generate_sized(1, 12, 9);
    }
});
