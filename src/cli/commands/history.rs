//! The history an imported scenario came from, named in the scenario itself: `import` writes a
//! `# ddbsim-history: PATH` line for each metrics file (a live import keeps what it fetched
//! beside the scenario, `NAME.history.json` with the `NAME.queries.json` that fetched it), and
//! `backtest SCENARIO` reads them when no `--metrics` is given. Paths are relative to the
//! scenario's folder when the file is in it or below, absolute otherwise.

use super::super::CliError;
use std::path::{Path, PathBuf};

/// The comment that names a history file.
const MARK: &str = "# ddbsim-history: ";

/// `scenario` with one `MARK` line per file, after its first line (the import's own header).
pub(super) fn with_history(scenario: &str, files: &[String]) -> String {
    if files.is_empty() {
        return scenario.to_string();
    }
    let (first, rest) = scenario.split_once('\n').unwrap_or((scenario, ""));
    let lines: String = files.iter().map(|f| format!("{MARK}{f}\n")).collect();
    format!("{first}\n{lines}{rest}")
}

/// How `scenario_dir`'s scenario names `file`: relative when it lies in that folder or below,
/// absolute otherwise (a name that is no valid UTF-8 is not written: `None`).
pub(super) fn named_from(scenario_dir: &Path, file: &Path) -> Option<String> {
    let file = std::fs::canonicalize(file).ok()?;
    let dir = std::fs::canonicalize(scenario_dir).ok()?;
    let shown = file.strip_prefix(&dir).map_or(file.as_path(), |r| r);
    let s = shown.to_str()?;
    // A name the line could not hold as written (a line break) is not written.
    (!s.contains(['\n', '\r'])).then(|| s.to_string())
}

/// The history files `scenario`'s `MARK` lines name, resolved against its folder; a named
/// file that is gone is an error naming the scenario's line.
pub(super) fn recorded(scenario: &Path, text: &str) -> Result<Vec<PathBuf>, CliError> {
    // The scenario's folder as given ("" for the current one: names stay as written).
    let dir = scenario.parent().unwrap_or(Path::new(""));
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(name) = line.strip_prefix(MARK) else { continue };
        let path = dir.join(name.trim());
        if !path.exists() {
            return Err(CliError::Argument(format!(
                "{}:{}: ddbsim-history names {}, which is not there: give the history with --metrics FILE|DIR",
                scenario.display(),
                i + 1,
                path.display()
            )));
        }
        found.push(path);
    }
    Ok(found)
}

/// The names of `kept` files a scenario names as its history (the queries are kept for the
/// user, and are not a history).
pub(super) fn histories(kept: &[(String, String)]) -> impl Iterator<Item = String> + '_ {
    kept.iter().map(|(n, _)| n).filter(|n| n.ends_with(HISTORY)).cloned()
}

/// A kept history's suffix.
const HISTORY: &str = ".history.json";

/// A live import's history kept beside `stem`'s scenario: the `get-metric-data` answer and the
/// queries that asked for it (no credentials are in either).
pub(super) fn kept(stem: &str, metrics: &Path, queries: &Path) -> Result<Vec<(String, String)>, CliError> {
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| CliError::Argument(format!("{}: {e}", p.display())));
    Ok(vec![(format!("{stem}{HISTORY}"), read(metrics)?), (format!("{stem}.queries.json"), read(queries)?)])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines go after the header, one a file, and are read back relative to the folder.
    #[test]
    fn named_files_are_found_again() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("t.history.json"), "{}").unwrap();
        let text = with_history("# Imported by ddbsim\n[scenario]\n", &["t.history.json".into()]);
        assert_eq!(text, "# Imported by ddbsim\n# ddbsim-history: t.history.json\n[scenario]\n");
        let sc = dir.path().join("t.toml");
        assert_eq!(recorded(&sc, &text).unwrap(), [dir.path().join("t.history.json")]);
        assert_eq!(named_from(dir.path(), &dir.path().join("t.history.json")).as_deref(), Some("t.history.json"));
        let gone = with_history("# x\n", &["gone.json".into()]);
        let e = recorded(&sc, &gone).unwrap_err().to_string();
        assert!(e.contains("t.toml:2: ddbsim-history names") && e.contains("gone.json, which is not there"), "{e}");
    }
}
