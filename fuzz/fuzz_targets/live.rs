//! Fuzzes the live import's saved AWS CLI responses (describe-table, the scalable targets,
//! scaling policies, backups, TTL and get-metric-data, split at NUL bytes): never a panic, and
//! whatever imports loads as a scenario (fuzz/common/responses.rs). Seeded from
//! tests/fixtures/import.
#![no_main]

#[allow(dead_code)] // each target uses its own part
#[path = "../common/responses.rs"]
mod responses;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let d = std::env::temp_dir().join(format!("ddbsim-fuzz-live-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&d);
    responses::live(data, &d);
});
