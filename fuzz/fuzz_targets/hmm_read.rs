//! A Pocket Heroes `.hmm` map: read, and when it reads, validate it and check reachability.
#![no_main]
use heroes_zones::hmm::{Catalog, HmmFile, reachability, validate};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = HmmFile::parse(data) {
        let catalog = Catalog::builtin();
        let _ = validate(&file, &catalog);
        let _ = reachability(&file, &catalog);
    }
});
