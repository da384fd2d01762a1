//! The live import's saved responses and a Cost and Usage Report as fuzz inputs (issue 59):
//! whatever bytes the AWS CLI or a bill delivers must never panic the import, and whatever
//! imports must load as a scenario with its trace files.
//!
//! Shared by the fuzz targets `live` and `cur` and by `tests/integration/fuzz_corpus.rs`.

use std::path::Path;

/// The files the live import saves for a table, in the order a `live` input holds them,
/// separated by NUL bytes: the definition's five, then `get-metric-data`'s answer.
pub const RESPONSES: [&str; 6] = [
    "describe-table.json",
    "scalable-targets.json",
    "scaling-policies.json",
    "continuous-backups.json",
    "time-to-live.json",
    "metrics.json",
];

/// Imports `data` as the live import's saved responses in `dir`; whether it imported.
pub fn live(data: &[u8], dir: &Path) -> bool {
    let mut defs = Vec::new();
    let mut metrics = Vec::new();
    for (i, part) in data.split(|&b| b == 0).take(RESPONSES.len()).enumerate() {
        if part.is_empty() {
            continue; // a response not saved
        }
        let path = dir.join(RESPONSES[i]);
        std::fs::write(&path, part).expect("a temporary file");
        if i + 1 == RESPONSES.len() {
            metrics.push(path);
        } else {
            defs.push(path);
        }
    }
    loads(ddbsim::import::import(&defs, &metrics, None, "f"), dir)
}

/// Imports `data` as an hourly Cost and Usage Report (CSV, or gzip of it) of table Orders in
/// `dir`; whether it imported.
pub fn cur(data: &[u8], dir: &Path) -> bool {
    let path = dir.join("cur.csv");
    std::fs::write(&path, data).expect("a temporary file");
    loads(ddbsim::import::import(&[], &[path], Some("Orders"), "f"), dir)
}

/// An import that succeeded must load, its traces beside it; whether it imported.
pub fn loads(r: Result<ddbsim::import::Imported, ddbsim::import::ImportError>, dir: &Path) -> bool {
    let Ok(i) = r else { return false };
    for (name, text) in &i.traces {
        std::fs::write(dir.join(name), text).expect("a temporary file");
    }
    let sc = dir.join("f.toml");
    std::fs::write(&sc, &i.scenario).expect("a temporary file");
    if let Err(e) = ddbsim::scenario::load(&sc) {
        panic!("an import that does not load:\n{e}\n{}", i.scenario);
    }
    true
}
