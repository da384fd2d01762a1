//! Structure-aware fuzzing of the whole engine: bytes become a scenario that is valid most of
//! the time (`common/gen.rs`); it is validated, estimated, guarded, run for a short budget and
//! checked for the model's invariants, its bill, its report and determinism (`common/check.rs`).
#![no_main]

#[path = "../common/check.rs"]
mod check;
#[path = "../common/gen.rs"]
mod gen;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(doc) = gen::Doc::from_bytes(data) {
        check::exercise(&doc.text());
    }
});
