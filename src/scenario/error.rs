//! A scenario that could not be loaded: every problem with its line, column and key path.

use std::path::{Path, PathBuf};

/// One problem in a scenario file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// Key path, e.g. `pattern[2].rate.spike.peak`.
    pub key: String,
    /// What is wrong.
    pub message: String,
}

/// A scenario that could not be loaded. Fatal for the run; `validate` lists every problem.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The file could not be read.
    #[error("{path}: cannot read the scenario: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file has problems.
    #[error("{}", fmt_problems(path, problems))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Every problem found.
        problems: Vec<Problem>,
    },
}

fn fmt_problems(path: &Path, problems: &[Problem]) -> String {
    problems.iter().map(|p| format!("{}:{}:{}: {}: {}", path.display(), p.line, p.column, p.key, p.message)).collect::<Vec<_>>().join("\n")
}
