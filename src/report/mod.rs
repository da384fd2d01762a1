//! Outputs of a run: `summary.json`, `timeseries.csv`, `partitions.csv`, and the terminal
//! summary. Reads finished results only; every file is written atomically.

pub mod summary;
pub mod tables;

use crate::engine::RunResult;
use crate::output::{prepare_dir, write_atomic, OutputError};
use std::path::{Path, PathBuf};

pub use summary::Summary;

/// Writes the run's files into `dir`; returns their paths.
///
/// # Errors
/// [`OutputError`] naming the folder or file that could not be written.
pub fn write_run(dir: &Path, r: &RunResult, summary: &Summary) -> Result<Vec<PathBuf>, OutputError> {
    prepare_dir(dir)?;
    let mut written = Vec::new();
    let files: [(&str, Vec<u8>); 3] = [
        ("summary.json", summary.to_json().into_bytes()),
        ("timeseries.csv", tables::timeseries_csv(r)),
        ("partitions.csv", tables::partitions_csv(r)),
    ];
    for (name, bytes) in files {
        let p = dir.join(name);
        write_atomic(&p, &bytes)?;
        written.push(p);
    }
    Ok(written)
}
