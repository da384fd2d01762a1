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

/// What a note on a scenario that loads is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum NoteKind {
    /// Something the scenario most likely does not mean (an index nothing writes).
    Warning,
    /// A default the scenario rests on that is a guess, not a rule of DynamoDB's.
    Assumption,
}

impl NoteKind {
    /// The word printed before the note.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            NoteKind::Warning => "warning",
            NoteKind::Assumption => "assumption",
        }
    }
}

/// A note on a scenario that loads: where, and what it says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// Warning or assumption.
    pub kind: NoteKind,
    /// Where and what, as a problem is told.
    pub at: Problem,
}

impl Note {
    /// `path:line:column: key: kind: message`.
    #[must_use]
    pub fn display(&self, path: &Path) -> String {
        let p = &self.at;
        format!("{}:{}:{}: {}: {}: {}", path.display(), p.line, p.column, p.key, self.kind.label(), p.message)
    }
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
