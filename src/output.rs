//! Atomic file output: write beside the target, then rename, so that a failed or interrupted
//! run never leaves a half-written file.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A file that could not be written. Fatal for the run.
#[derive(Debug, thiserror::Error)]
#[error("{path}: cannot write: {source}")]
pub struct OutputError {
    /// The file or folder.
    pub path: PathBuf,
    /// Why.
    pub source: std::io::Error,
}

/// Creates `dir` (and parents) if needed and checks it can be written.
///
/// # Errors
/// [`OutputError`] naming the folder.
pub(crate) fn prepare_dir(dir: &Path) -> Result<(), OutputError> {
    fs::create_dir_all(dir).map_err(|source| OutputError { path: dir.to_path_buf(), source })?;
    let probe = dir.join(format!(".ddbsim-probe-{}", std::process::id()));
    fs::write(&probe, b"").map_err(|source| OutputError { path: dir.to_path_buf(), source })?;
    let _ = fs::remove_file(&probe);
    Ok(())
}

/// Writes `bytes` to `path` atomically (temporary file in the same folder, then rename).
///
/// # Errors
/// [`OutputError`] naming the file; no temporary file is left behind.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    result.map_err(|source| {
        let _ = fs::remove_file(&tmp);
        OutputError { path: path.to_path_buf(), source }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_replaces() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a.txt");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        assert_eq!(fs::read_dir(d.path()).unwrap().count(), 1);
    }

    #[test]
    fn missing_folder_is_an_error_naming_the_file() {
        let e = write_atomic(Path::new("/nonexistent-ddbsim-dir/x.csv"), b"x").unwrap_err();
        assert!(e.to_string().contains("/nonexistent-ddbsim-dir/x.csv"));
    }
}
