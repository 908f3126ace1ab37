//! Mario room, section, macro and level files: the first byte picks the parser.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&kind, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match kind % 4 {
        0 => drop(mario_rooms::parse_room("fuzz", "fuzz.txt", text)),
        1 => drop(mario_rooms::parse_section("fuzz", "fuzz.txt", text)),
        2 => drop(mario_rooms::parse_macro("fuzz.txt", text)),
        _ => {
            if let Ok(level) = mario_rooms::MarioLevel::parse("fuzz.txt", text) {
                let _ = mario_rooms::playability::check(&level);
            }
        }
    }
});
