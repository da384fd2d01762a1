//! A set of files placed into an existing folder all or none, even across a kill: `import`'s
//! scenario and its traces, `import --print-queries`'s files.
//!
//! The set is written into a staging folder beside its targets (`.ddbsim-import-*`, holding
//! the writer's process id), then placed one file at a time under a journal: each file is
//! linked in under a temporary name and renamed onto its target (a file it replaces is never
//! absent: it is linked into the staging folder's backups first, then replaced in one rename).
//! Removing the journal is the commit. A run that dies before the commit leaves its staging
//! folder with the journal; the next run into that folder finds it (its process gone), takes
//! back every file it placed (a target that is still the staged file) and restores what it
//! replaced, then removes the folder. So a reader may see part of a set only while the writer
//! runs, or until the next run after a kill.

use super::super::CliError;
use std::path::{Path, PathBuf};

/// The prefix of a staging folder.
pub(super) const STAGING: &str = ".ddbsim-import-";
/// The journal: the names being placed, one a line; present until the set is committed.
const JOURNAL: &str = ".journal";
/// The writer's process id.
const PID: &str = ".pid";
/// Files replaced, kept until the commit.
const BACKUP: &str = ".replaced";

fn fail(path: &Path, e: std::io::Error) -> CliError {
    CliError::Output(crate::OutputError { path: path.to_path_buf(), source: e })
}

/// A staging folder in `dir` for a set of files, marked with this process's id; dead runs'
/// staging folders in `dir` are rolled back and removed first.
pub(super) fn staging(dir: &Path) -> Result<tempfile::TempDir, CliError> {
    recover(dir);
    let staging = tempfile::Builder::new().prefix(STAGING).tempdir_in(dir).map_err(|e| fail(dir, e))?;
    let pid = staging.path().join(PID);
    std::fs::write(&pid, std::process::id().to_string()).map_err(|e| fail(&pid, e))?;
    Ok(staging)
}

/// Writes `files` (name, text) into `staging`, ready for [`place_all`].
pub(super) fn stage<'a>(staging: &Path, files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<(), CliError> {
    for (n, text) in files {
        let p = staging.join(n);
        std::fs::write(&p, text).map_err(|e| fail(&p, e))?;
    }
    Ok(())
}

/// The folder `path` is written into: its parent, or the current folder.
pub(super) fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Is process `pid` alive?
fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    pid > 0 && (unsafe { libc::kill(pid, 0) } == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM))
}

/// Rolls back and removes the staging folders in `dir` whose writer is gone.
pub(super) fn recover(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.filter_map(Result::ok) {
        let path = e.path();
        let is_staging = e.file_name().to_string_lossy().starts_with(STAGING) && path.is_dir();
        if !is_staging {
            continue;
        }
        let pid = std::fs::read_to_string(path.join(PID)).ok().and_then(|p| p.trim().parse::<i32>().ok());
        if pid.is_some_and(alive) {
            continue;
        }
        if let Ok(journal) = std::fs::read_to_string(path.join(JOURNAL)) {
            for n in journal.lines().filter(|n| !n.is_empty() && !n.contains('/')) {
                roll_back(&path, dir, n);
            }
        }
        let _ = std::fs::remove_dir_all(&path);
    }
}

/// Takes back `n` if the staged file is in place, restoring what it replaced.
fn roll_back(staging: &Path, dir: &Path, n: &str) {
    use std::os::unix::fs::MetadataExt;
    let target = dir.join(n);
    let same = match (std::fs::metadata(staging.join(n)), std::fs::metadata(&target)) {
        (Ok(a), Ok(b)) => a.ino() == b.ino() && a.dev() == b.dev(),
        _ => false,
    };
    let backup = staging.join(BACKUP).join(n);
    if same {
        if backup.exists() {
            let _ = std::fs::rename(&backup, &target);
        } else {
            let _ = std::fs::remove_file(&target);
        }
    }
    let _ = std::fs::remove_file(dir.join(format!(".{n}.ddbsim-new")));
}

/// Places the files `names` of `staging` into `dir` as one set. Without `force` an existing
/// target is refused before anything moves; with `force` the targets are replaced, never
/// absent. On a failure everything placed is taken back and everything replaced restored.
pub(super) fn place_all(staging: &Path, dir: &Path, names: &[&str], force: bool) -> Result<(), CliError> {
    if !force {
        let existing: Vec<String> =
            names.iter().map(|n| dir.join(n)).filter(|p| p.symlink_metadata().is_ok()).map(|p| p.display().to_string()).collect();
        if !existing.is_empty() {
            return Err(CliError::Argument(format!(
                "import would replace {}: give another --out, or --force to replace them",
                existing.join(", ")
            )));
        }
    }
    let backup = staging.join(BACKUP);
    std::fs::create_dir(&backup).map_err(|e| fail(&backup, e))?;
    let journal = staging.join(JOURNAL);
    write_synced(&journal, &names.join("\n")).map_err(|e| fail(&journal, e))?;
    let mut placed: Vec<&str> = Vec::new();
    for n in names {
        if let Err(e) = place(staging, dir, n, force) {
            for p in placed.iter().chain(std::iter::once(n)) {
                roll_back(staging, dir, p);
            }
            let _ = std::fs::remove_file(&journal);
            return Err(e);
        }
        placed.push(n);
    }
    // The commit.
    std::fs::remove_file(&journal).map_err(|e| fail(&journal, e))?;
    Ok(())
}

/// Places one file: linked in under a temporary name, then renamed onto its target (or linked
/// straight in when nothing may be replaced: a link never replaces a file).
fn place(staging: &Path, dir: &Path, n: &str, force: bool) -> Result<(), CliError> {
    let (from, target) = (staging.join(n), dir.join(n));
    if !force {
        return std::fs::hard_link(&from, &target).map_err(|e| fail(&target, e));
    }
    if target.symlink_metadata().is_ok() {
        let keep = staging.join(BACKUP).join(n);
        std::fs::hard_link(&target, &keep).or_else(|_| std::fs::copy(&target, &keep).map(|_| ())).map_err(|e| fail(&target, e))?;
    }
    let new: PathBuf = dir.join(format!(".{n}.ddbsim-new"));
    let _ = std::fs::remove_file(&new);
    std::fs::hard_link(&from, &new).and_then(|()| std::fs::rename(&new, &target)).map_err(|e| fail(&target, e))
}

/// Writes `text` to `path` and syncs it.
fn write_synced(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut f = std::fs::File::create(path)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()
}
