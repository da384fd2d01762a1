//! Output folders, written as a whole: a command's files go into a fresh sibling folder, which
//! then replaces the previous one. A failed, killed or interrupted run leaves the previous
//! output as it was (never a mix of old and new files), and a lock keeps two runs from writing
//! one folder at the same time.
//!
//! Safety: an existing folder is replaced only when it holds ddbsim's marker and everything in
//! it is ddbsim's (the files its commands write): a folder without the marker, or holding
//! anything else, a sub-folder included, is refused, never deleted. On Linux the new folder
//! replaces the old in one atomic exchange (`renameat2`); elsewhere in two renames, with an
//! instant in which the folder is absent. Temporary folders and probes are created with the `tempfile` crate
//! (`O_EXCL`, unpredictable names).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The marker every output folder gets.
pub(crate) const MARKER: &str = ".ddbsim-output";

/// Files ddbsim's commands write: a folder holding only these (and sub-folders) may be replaced.
const KNOWN: &[&str] = &[
    MARKER,
    "account.json",
    "summary.json",
    "timeseries.csv",
    "partitions.csv",
    "capacity.svg",
    "capacity.png",
    "hot-partitions.svg",
    "hot-partitions.png",
    "latency.svg",
    "load-duration.svg",
    "load-duration.png",
    "latency.png",
    "report.html",
    "replications.json",
    "replications.csv",
    "compare.csv",
    "compare.json",
    "compare-replications.json",
    "recommend.csv",
    "recommend.json",
    "recommend.svg",
    "recommend.png",
    "recommend-tables.csv",
    "recommend-tables.json",
    "cost.svg",
    "cost.png",
    "sweep.csv",
    "sweep-summary.csv",
    "sweep.json",
    "sweep.svg",
    "sweep.png",
    "shards.csv",
    "shards.json",
    "shards.svg",
    "shards.png",
    "check.json",
    "backtest.json",
    "backtest.csv",
    "backtest.svg",
    "backtest.png",
];

/// A table's data file in an account's folder (`ddbsim run DIR`): `STEM-summary.json`,
/// `STEM-timeseries.csv` or `STEM-partitions.csv`.
fn is_account_table_file(name: &str) -> bool {
    ["-summary.json", "-timeseries.csv", "-partitions.csv"].iter().any(|s| name.len() > s.len() && name.ends_with(s))
}

/// A file of an output folder: its name and a writer of its contents.
pub(crate) trait OutputFile {
    /// File name.
    fn name(&self) -> &str;
    /// Writes the contents.
    fn write_to(&self, w: &mut dyn Write) -> std::io::Result<()>;
}

impl OutputFile for (&str, &[u8]) {
    fn name(&self) -> &str {
        self.0
    }

    fn write_to(&self, w: &mut dyn Write) -> std::io::Result<()> {
        w.write_all(self.1)
    }
}

/// An output folder that cannot be written. Fatal for the run.
#[derive(Debug, thiserror::Error)]
#[error("{path}: cannot write: {source}")]
pub struct OutputError {
    /// The file or folder.
    pub path: PathBuf,
    /// Why.
    pub source: std::io::Error,
}

fn err(path: &Path) -> impl Fn(std::io::Error) -> OutputError + '_ {
    move |source| OutputError { path: path.to_path_buf(), source }
}

fn other(path: &Path, message: String) -> OutputError {
    OutputError { path: path.to_path_buf(), source: std::io::Error::other(message) }
}

/// An output folder claimed for one command: locked against other ddbsim runs until dropped.
#[derive(Debug)]
pub(crate) struct OutputDir {
    dir: PathBuf,
    parent: PathBuf,
    name: String,
    lock_path: PathBuf,
    _lock: fs::File,
}

impl Drop for OutputDir {
    /// A run that ended leaves no lock file: it is removed while still held (a writer that
    /// opened it meanwhile finds, once it holds it, that the path is no longer its file, and
    /// opens the path again).
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.lock_path);
    }
}

/// The lock file open at `f` is still the one at `path` (not removed by a writer that ended).
fn still_linked(f: &fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (f.metadata(), fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (f, path);
        true
    }
}

/// Opens (or creates) the lock file at `path`, refusing anything but a regular file there: a
/// planted symlink is not followed (it could make ddbsim create a file anywhere it may write),
/// and a FIFO does not block the open.
fn open_lock(path: &Path) -> Result<fs::File, OutputError> {
    let mut o = fs::OpenOptions::new();
    o.create(true).truncate(false).write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let refuse = || other(path, "the lock file is a symlink or not a regular file; remove it (ddbsim never follows one)".into());
    if fs::symlink_metadata(path).is_ok_and(|m| !m.file_type().is_file()) {
        return Err(refuse());
    }
    let f = o.open(path).map_err(|e| if e.raw_os_error() == Some(libc::ELOOP) { refuse() } else { err(path)(e) })?;
    if !f.metadata().map_err(err(path))?.is_file() {
        return Err(refuse());
    }
    Ok(f)
}

impl OutputDir {
    /// Claims `dir`: its parent exists and is writable, no other ddbsim run holds it, and if it
    /// exists it is a folder of ddbsim's outputs. Leftovers of killed runs are cleaned up.
    ///
    /// # Errors
    /// [`OutputError`] naming the folder and why.
    pub(crate) fn claim(dir: &Path) -> Result<Self, OutputError> {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| n != "." && n != "..")
            .ok_or_else(|| other(dir, "an output folder needs a name of its own (not the current folder or the root)".into()))?;
        let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        fs::create_dir_all(&parent).map_err(err(dir))?;
        // Is the parent writable? A probe with an unpredictable name, created exclusively.
        tempfile::Builder::new().prefix(".ddbsim-probe-").tempfile_in(&parent).map_err(err(dir))?;
        let lock_path = parent.join(format!(".{name}.ddbsim-lock"));
        let mut attempts = 0;
        let lock = loop {
            let lock = open_lock(&lock_path)?;
            if lock.try_lock().is_err() {
                let holder = fs::read_to_string(&lock_path).ok().and_then(|t| t.trim().parse::<u32>().ok());
                let who = holder.map_or_else(|| "another ddbsim run".to_string(), |pid| format!("another ddbsim run (process {pid})"));
                return Err(other(dir, format!("{who} is writing this folder; wait for it or choose another --out")));
            }
            // A writer that ended removed the file between our open and our lock: the lock is
            // on a file no one else will find; open the path again.
            if still_linked(&lock, &lock_path) {
                break lock;
            }
            attempts += 1;
            if attempts == 8 {
                return Err(other(
                    dir,
                    "the folder's lock file keeps changing: another ddbsim run is starting and ending on it; try again".into(),
                ));
            }
        };
        // Whoever holds the lock says so: the holder's process id, for the message above and
        // for a person looking at a stale folder.
        let mut lock = lock;
        let _ = lock.set_len(0).and_then(|()| writeln!(lock, "{}", std::process::id()));
        let claimed = Self { dir: dir.to_path_buf(), parent, name, lock_path, _lock: lock };
        // No live writer holds the folder now: whatever staging or backup folder is beside it
        // was left by a killed run, and goes first, even if this run is refused below.
        claimed.clean_leftovers();
        claimed.check_existing()?;
        Ok(claimed)
    }

    /// The folder.
    pub(crate) fn path(&self) -> &Path {
        &self.dir
    }

    fn check_existing(&self) -> Result<(), OutputError> {
        let Ok(meta) = fs::symlink_metadata(&self.dir) else { return Ok(()) };
        if !meta.is_dir() {
            return Err(other(
                &self.dir,
                "exists and is not a folder: --out names the folder the command writes its files into (it is created if absent); choose another name".into(),
            ));
        }
        let mut entries = fs::read_dir(&self.dir).map_err(err(&self.dir))?.peekable();
        // Only a folder ddbsim made (it holds the marker) is ever replaced; an empty one is used.
        let marked = fs::symlink_metadata(self.dir.join(MARKER)).is_ok_and(|m| m.is_file());
        if let (false, Some(Ok(first))) = (marked, entries.peek()) {
            return Err(other(
                &self.dir,
                format!(
                    "holds \"{}\", which ddbsim did not write: the folder has no {MARKER} marker, and ddbsim replaces only the output folders it made; choose another --out",
                    first.file_name().to_string_lossy()
                ),
            ));
        }
        for entry in entries {
            let entry = entry.map_err(err(&self.dir))?;
            let kind = entry.file_type().map_err(err(&self.dir))?;
            let file = entry.file_name().to_string_lossy().into_owned();
            if !kind.is_file() || !(KNOWN.contains(&file.as_str()) || is_account_table_file(&file)) {
                return Err(other(
                    &self.dir,
                    format!("holds \"{file}\", which ddbsim did not write; ddbsim replaces its output folders whole: choose another --out"),
                ));
            }
        }
        Ok(())
    }

    /// Removes the staging and backup folders a killed run left beside the output folder.
    fn clean_leftovers(&self) {
        let Ok(entries) = fs::read_dir(&self.parent) else { return };
        let prefixes = [format!(".{}.ddbsim-new-", self.name), format!(".{}.ddbsim-old-", self.name)];
        for e in entries.flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if prefixes.iter().any(|p| n.starts_with(p.as_str())) {
                let _ = fs::remove_dir_all(e.path());
            }
        }
    }

    /// Writes `files` as the folder's whole contents (with the marker); the files of the
    /// previous output that `files` does not name are kept when `carry_over`. Returns the paths.
    ///
    /// # Errors
    /// [`OutputError`]; the previous output is then left as it was.
    pub(crate) fn write<F: OutputFile>(&self, files: &[F], carry_over: bool) -> Result<Vec<PathBuf>, OutputError> {
        let staging =
            tempfile::Builder::new().prefix(&format!(".{}.ddbsim-new-", self.name)).tempdir_in(&self.parent).map_err(err(&self.dir))?;
        let marker = format!("ddbsim {}\n", env!("CARGO_PKG_VERSION"));
        write_new(&staging.path().join(MARKER), &(MARKER, marker.as_bytes()))?;
        for f in files {
            write_new(&staging.path().join(f.name()), f)?;
        }
        let all: Vec<&str> = files.iter().map(OutputFile::name).chain(std::iter::once(MARKER)).collect();
        let existed = self.dir.is_dir();
        if existed && carry_over {
            // The files of the previous output that are not rewritten come along.
            for entry in fs::read_dir(&self.dir).map_err(err(&self.dir))?.flatten() {
                let n = entry.file_name();
                if !all.iter().any(|a| std::ffi::OsStr::new(a) == n) {
                    let target = staging.path().join(&n);
                    fs::copy(entry.path(), &target).map_err(err(&target))?;
                }
            }
        }
        sync_dir(staging.path())?;
        let staged = staging.keep();
        if existed && exchange(&staged, &self.dir) {
            // One atomic step: the new folder is in place and the old one is at `staged`.
            let _ = fs::remove_dir_all(&staged);
        } else if existed {
            // Where the platform has no atomic exchange: two renames, with an instant in which
            // the folder is absent (never a mix of old and new files).
            let backup = tempfile::Builder::new()
                .prefix(&format!(".{}.ddbsim-old-", self.name))
                .tempdir_in(&self.parent)
                .map_err(err(&self.dir))?
                .keep();
            fs::rename(&self.dir, &backup).map_err(err(&self.dir))?;
            if let Err(e) = fs::rename(&staged, &self.dir) {
                let _ = fs::rename(&backup, &self.dir);
                let _ = fs::remove_dir_all(&staged);
                return Err(err(&self.dir)(e));
            }
            let _ = fs::remove_dir_all(&backup);
        } else if let Err(e) = fs::rename(&staged, &self.dir) {
            let _ = fs::remove_dir_all(&staged);
            return Err(err(&self.dir)(e));
        }
        sync_dir(&self.parent)?;
        Ok(files.iter().map(|f| self.dir.join(f.name())).collect())
    }
}

/// Swaps the folders `a` and `b` in one atomic step (Linux `renameat2(RENAME_EXCHANGE)`);
/// false when the platform or the file system cannot, and nothing was changed.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let (Ok(ca), Ok(cb)) = (std::ffi::CString::new(a.as_os_str().as_bytes()), std::ffi::CString::new(b.as_os_str().as_bytes())) else {
        return false;
    };
    // SAFETY: two valid NUL-terminated paths, relative to the current folder.
    unsafe { libc::renameat2(libc::AT_FDCWD, ca.as_ptr(), libc::AT_FDCWD, cb.as_ptr(), libc::RENAME_EXCHANGE) == 0 }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> bool {
    false
}

/// Creates `path` (it must not exist) with `file`'s contents, synced to disk.
fn write_new(path: &Path, file: &(impl OutputFile + ?Sized)) -> Result<(), OutputError> {
    let f = fs::OpenOptions::new().write(true).create_new(true).open(path).map_err(err(path))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 16, f);
    file.write_to(&mut w).map_err(err(path))?;
    let f = w.into_inner().map_err(|e| err(path)(e.into_error()))?;
    f.sync_all().map_err(err(path))
}

fn sync_dir(dir: &Path) -> Result<(), OutputError> {
    fs::File::open(dir).and_then(|d| d.sync_all()).map_err(err(dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file a command writes is one an output folder may hold, so a second run into the
    /// same folder replaces it (recommend's chart and its many-table files were missing, and a
    /// second `recommend --out DIR` refused its own folder).
    #[test]
    fn every_artifact_written_is_known() {
        fn walk(dir: &Path, names: &mut Vec<String>) {
            for e in fs::read_dir(dir).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, names);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    let text = fs::read_to_string(&p).unwrap();
                    for pat in ["Artifact::new(\"", "Artifact::stream(\""] {
                        for (i, _) in text.match_indices(pat) {
                            let rest = &text[i + pat.len()..];
                            names.push(rest[..rest.find('"').unwrap()].to_string());
                        }
                    }
                }
            }
        }
        let mut names = Vec::new();
        walk(Path::new(env!("CARGO_MANIFEST_DIR")).join("src").as_path(), &mut names);
        assert!(names.len() > 30, "{names:?}");
        let unknown: Vec<&String> = names.iter().filter(|n| !KNOWN.contains(&n.as_str())).collect();
        assert!(unknown.is_empty(), "written but not in KNOWN: {unknown:?}");
    }

    /// A symlink planted where the lock file goes is refused, and nothing is created at its
    /// target (issue 45: a run as root created an empty file wherever the link pointed).
    #[cfg(unix)]
    #[test]
    fn a_symlinked_lock_file_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let victim = d.path().join("victim");
        std::os::unix::fs::symlink(&victim, d.path().join(".run.ddbsim-lock")).unwrap();
        let e = OutputDir::claim(&d.path().join("run")).map(drop).unwrap_err().to_string();
        assert!(e.contains("symlink"), "{e}");
        assert!(!victim.exists(), "the link's target was created");
        // A FIFO there is refused too, without blocking.
        let d = tempfile::tempdir().unwrap();
        let fifo = d.path().join(".run.ddbsim-lock");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid C string and mode.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = OutputDir::claim(&d.path().join("run")).map(drop).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
    }

    #[test]
    fn writes_replaces_and_drops_stale_files() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("run");
        let o = OutputDir::claim(&out).unwrap();
        o.write(&[("summary.json", &b"one"[..]), ("report.html", &b"r"[..])], false).unwrap();
        o.write(&[("summary.json", &b"two"[..])], false).unwrap();
        assert_eq!(fs::read(out.join("summary.json")).unwrap(), b"two");
        assert!(!out.join("report.html").exists(), "a rerun without charts drops the old report");
        o.write(&[("report.html", &b"r2"[..])], true).unwrap();
        assert_eq!(fs::read(out.join("summary.json")).unwrap(), b"two", "carried over");
        // Only the folder and, while it is claimed, its lock file: no staging or backup folders
        // left; once the run ends, no lock file either (#46).
        let names = || {
            let mut v: Vec<String> =
                fs::read_dir(d.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
            v.sort();
            v
        };
        assert_eq!(names(), vec![".run.ddbsim-lock", "run"]);
        drop(o);
        assert_eq!(names(), vec!["run"]);
    }

    #[test]
    fn a_second_claim_is_refused_while_the_first_holds_the_folder() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("run");
        let first = OutputDir::claim(&out).unwrap();
        assert!(OutputDir::claim(&out).unwrap_err().to_string().contains("another ddbsim run"));
        drop(first);
        assert!(OutputDir::claim(&out).is_ok());
    }

    #[test]
    fn a_folder_of_someone_else_s_files_is_never_replaced() {
        let d = tempfile::tempdir().unwrap();
        fs::write(d.path().join("thesis.tex"), "precious").unwrap();
        let e = OutputDir::claim(d.path()).unwrap_err().to_string();
        assert!(e.contains("thesis.tex") && e.contains("did not write"), "{e}");
        assert!(OutputDir::claim(Path::new(".")).is_err());
    }

    /// The swap is one atomic exchange where the platform has one: after it, each folder
    /// holds what the other held.
    #[cfg(target_os = "linux")]
    #[test]
    fn folders_are_exchanged_in_one_step() {
        let d = tempfile::tempdir().unwrap();
        let (a, b) = (d.path().join("a"), d.path().join("b"));
        fs::create_dir(&a).unwrap();
        fs::create_dir(&b).unwrap();
        fs::write(a.join("x"), "from a").unwrap();
        assert!(exchange(&a, &b), "renameat2(RENAME_EXCHANGE) on this file system");
        assert_eq!(fs::read_to_string(b.join("x")).unwrap(), "from a");
        assert!(!a.join("x").exists());
    }

    #[test]
    fn a_folder_with_a_sub_folder_is_never_replaced() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("run");
        fs::create_dir_all(out.join("notes")).unwrap();
        assert!(OutputDir::claim(&out).unwrap_err().to_string().contains("\"notes\""));
    }
}
