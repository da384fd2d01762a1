//! Fuzzes `ddbsim import`: definition bytes and metric bytes (split at the first NUL) must
//! never panic, and whatever imports must load as a valid scenario with its trace files.
//! Seeded from tests/fixtures/import: the committed corpus holds them as `seed-*` (a definition,
//! or a definition, a NUL and a metrics file), with the 200 smallest inputs of a minimised run.
#![no_main]

#[allow(dead_code)] // each target uses its own part
#[path = "../common/responses.rs"]
mod responses;

use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("ddbsim-fuzz-import-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&d);
    d
}

fuzz_target!(|data: &[u8]| {
    let (def, met) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let d = dir();
    let def_path = d.join("def.in");
    let met_path = d.join("met.in");
    std::fs::write(&def_path, def).expect("temp file");
    std::fs::write(&met_path, met).expect("temp file");
    let metrics = if met.is_empty() { vec![] } else { vec![met_path] };
    responses::loads(ddbsim::import::import(&[def_path], &metrics, None, "f"), &d);
});
