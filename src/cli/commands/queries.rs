//! `ddbsim import --print-queries`: the `queries.json` a user would otherwise write by hand
//! for `aws cloudwatch get-metric-data`, per table, from a table name or a definition.

use super::super::CliError;
use crate::import::queries::{queries, MAX_QUERIES, PERIODS_S};
use std::path::{Path, PathBuf};

/// A table and its GSIs, named on the command line or read from a definition.
struct Table {
    name: String,
    gsis: Vec<String>,
}

/// AWS's rule for table and index names: 3 to 255 of `a-z A-Z 0-9 _ - .`.
fn valid_name(n: &str) -> bool {
    (3..=255).contains(&n.len()) && n.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// The tables of `sources`: a file is a definition (all its tables, or `table`), anything else
/// a table name, whose GSIs are `gsis`.
fn tables(sources: &[PathBuf], table: Option<&str>, gsis: &[String]) -> Result<Vec<Table>, CliError> {
    let mut out = Vec::new();
    for s in sources {
        if s.is_file() {
            let defs = crate::import::tables(std::slice::from_ref(s))?;
            let named: Vec<_> = defs.into_iter().filter(|t| table.is_none_or(|n| t.name == n)).collect();
            if named.is_empty() {
                return Err(CliError::Argument(format!(
                    "{}: no table{} in this definition",
                    s.display(),
                    table.map_or(String::new(), |t| format!(" named {t}"))
                )));
            }
            out.extend(named.into_iter().map(|t| Table { gsis: t.gsis.iter().map(|g| g.name.clone()).collect(), name: t.name }));
        } else {
            let name = s.to_string_lossy().into_owned();
            if !valid_name(&name) {
                return Err(CliError::Argument(format!(
                    "{name}: neither a file nor a table name (3 to 255 letters, digits, '_', '-' or '.')"
                )));
            }
            out.push(Table { name, gsis: gsis.to_vec() });
        }
    }
    if !gsis.is_empty() && (out.len() != 1 || sources.iter().any(|s| s.is_file())) {
        return Err(CliError::Argument("--gsi: names the GSIs of one table given by name; a definition lists its own".into()));
    }
    if let Some(g) = gsis.iter().find(|g| !valid_name(g)) {
        return Err(CliError::Argument(format!("--gsi {g}: an index name is 3 to 255 letters, digits, '_', '-' or '.'")));
    }
    Ok(out)
}

/// Prints (one table) or writes into folder `out` (one `TABLE.queries.json` each, all or none)
/// the queries, and on stderr the command that runs them.
pub(in crate::cli) fn print_queries(
    sources: &[PathBuf],
    table: Option<&str>,
    gsis: &[String],
    period_s: u32,
    out: Option<&Path>,
    force: bool,
) -> Result<(), CliError> {
    if !PERIODS_S.contains(&period_s) {
        return Err(CliError::Argument(format!("--period: 60 or 300 seconds, not {period_s}")));
    }
    let tables = tables(sources, table, gsis)?;
    let docs: Vec<(String, String)> = tables
        .iter()
        .map(|t| {
            let q = queries(&t.name, &t.gsis, period_s);
            debug_assert!(q.len() <= MAX_QUERIES, "20 GSIs at most: 24 + 20 x 14 queries");
            (format!("{}.queries.json", t.name), serde_json::to_string_pretty(&q).expect("JSON values serialise") + "\n")
        })
        .collect();
    let days = if period_s == 60 { 15 } else { 63 };
    let how = |file: &str| {
        format!(
            "aws cloudwatch get-metric-data --metric-data-queries file://{file} --start-time START --end-time END > metrics.json\n  \
             (at most {days} days back at {period_s}-second periods; when the output has a NextToken, run again with --next-token and give import every page)"
        )
    };
    match out {
        None if docs.len() == 1 => {
            print!("{}", docs[0].1);
            eprintln!("with these queries saved as queries.json, fetch the history:\n  {}", how("queries.json"));
            Ok(())
        }
        None => Err(CliError::Argument(format!(
            "{} tables ({}): give --out DIR for one queries file each",
            docs.len(),
            tables.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ")
        ))),
        Some(dir) => {
            let fail = |p: &Path, e: std::io::Error| CliError::Output(crate::OutputError { path: p.to_path_buf(), source: e });
            if !dir.is_dir() {
                return Err(fail(dir, std::io::Error::new(std::io::ErrorKind::NotFound, "--out: the folder does not exist")));
            }
            let staging = super::publish::staging(dir)?;
            super::publish::stage(staging.path(), docs.iter().map(|(n, t)| (n.as_str(), t.as_str())))?;
            let names: Vec<&str> = docs.iter().map(|(n, _)| n.as_str()).collect();
            super::publish::place_all(staging.path(), dir, &names, force)?;
            for (n, _) in &docs {
                eprintln!("wrote {}; then:\n  {}", dir.join(n).display(), how(&dir.join(n).display().to_string()));
            }
            Ok(())
        }
    }
}
