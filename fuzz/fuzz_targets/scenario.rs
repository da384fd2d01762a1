//! Fuzzes the scenario loader: no input may panic, hang or allocate without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(sc) = ddbsim::scenario::parse_str(text, Path::new("fuzz.toml")) {
            // A valid scenario must also estimate without panicking.
            let _ = ddbsim::guard::estimate(&sc, &ddbsim::RunOptions::default());
        }
    }
});
