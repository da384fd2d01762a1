//! Fuzzes the Cost and Usage Report reader (CSV or gzip): never a panic, and
//! whatever imports loads as a scenario (fuzz/common/responses.rs). Seeded from
//! tests/fixtures/import.
#![no_main]

#[allow(dead_code)] // each target uses its own part
#[path = "../common/responses.rs"]
mod responses;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let d = std::env::temp_dir().join(format!("ddbsim-fuzz-cur-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&d);
    responses::cur(data, &d);
});
