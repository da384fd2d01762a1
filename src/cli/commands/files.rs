//! `ddbsim validate`, `ddbsim import` and `ddbsim schema`.

use crate::cli::CliError;
use crate::import::Imported;
use crate::scenario;
use std::path::{Path, PathBuf};

/// `ddbsim validate`.
/// A folder is validated as one account: each file as a table of it, then the checks that span
/// them (names, one clock, the quotas, transactions over its tables).
pub(in crate::cli) fn validate(paths: &[PathBuf], allow_outside: bool, as_json: bool, prices: Option<&PathBuf>) -> Result<(), CliError> {
    let mut bad = 0;
    let mut files = Vec::new();
    let mut count = 0;
    for given in paths {
        let in_account = given.is_dir();
        let members = if in_account { super::scenario_files(given)? } else { vec![given.clone()] };
        count += members.len();
        let mut tables = Vec::new();
        for p in &members {
            if let Some(sc) = validate_one(p, scenario::LoadOptions { allow_outside, in_account }, prices, as_json, &mut files) {
                tables.push(sc);
            } else {
                bad += 1;
            }
        }
        if in_account && tables.len() == members.len() {
            if let Err(e) = scenario::join_account(&mut tables) {
                bad += 1;
                let problems: Vec<serde_json::Value> = e
                    .lines()
                    .map(|m| serde_json::json!({ "file": given.display().to_string(), "line": null, "column": null, "key": null, "message": m }))
                    .collect();
                files.push(serde_json::json!({ "path": given.display().to_string(), "valid": false, "problems": problems }));
                if !as_json {
                    eprintln!("{e}");
                }
            } else if !as_json {
                println!("{}: ok, one account of {} tables", given.display(), tables.len());
            }
        }
    }
    if as_json {
        print!("{}", String::from_utf8(crate::report::json_bytes(&serde_json::json!({ "files": files }))).expect("JSON is UTF-8"));
    }
    if bad > 0 {
        return Err(CliError::Argument(format!("{bad} of {count} scenario files have problems")));
    }
    Ok(())
}

/// Validates one file (as `options` read it), printing what it found and adding its entry to
/// `files`; the scenario when valid.
fn validate_one(
    p: &Path,
    options: scenario::LoadOptions,
    prices: Option<&PathBuf>,
    as_json: bool,
    files: &mut Vec<serde_json::Value>,
) -> Option<scenario::Scenario> {
    // What a run would refuse before simulating (a price the region's catalog lacks) is a
    // problem here too.
    let loaded =
        scenario::load_with(p, &options).map_err(CliError::from).and_then(|sc| crate::cli::args::catalog_arg(prices, &sc).map(|_| sc));
    match loaded {
        Ok(sc) => {
            let file = p.display().to_string();
            let notes: Vec<serde_json::Value> = sc
                    .notes
                    .iter()
                    .map(|n| {
                        let q = &n.at;
                        serde_json::json!({ "kind": n.kind.label(), "file": file, "line": q.line, "column": q.column, "key": q.key, "message": q.message })
                    })
                    .collect();
            files.push(serde_json::json!({ "path": file, "valid": true, "problems": [], "notes": notes }));
            if !as_json {
                println!(
                    "{}: ok ({} patterns, {} key spaces, {} GSIs, {} LSIs)",
                    p.display(),
                    sc.patterns.len(),
                    sc.key_spaces.len(),
                    sc.gsis.len(),
                    sc.lsis.len()
                );
                for n in &sc.notes {
                    println!("{}", n.display(p));
                }
            }
            Some(sc)
        }
        Err(e) => {
            let file = p.display().to_string();
            // Each problem as {file, line, column, key, message}; a file that cannot be read
            // is one problem without a place.
            let problems: Vec<serde_json::Value> = match &e {
                CliError::Scenario(scenario::ScenarioError::Invalid { problems, .. }) => problems
                    .iter()
                    .map(|q| serde_json::json!({ "file": file, "line": q.line, "column": q.column, "key": q.key, "message": q.message }))
                    .collect(),
                other => {
                    vec![serde_json::json!({ "file": file, "line": null, "column": null, "key": null, "message": other.to_string() })]
                }
            };
            files.push(serde_json::json!({ "path": file, "valid": false, "problems": problems }));
            if !as_json {
                match &e {
                    CliError::Scenario(inner) => eprintln!("{inner}"),
                    other => eprintln!("{other}"),
                }
            }
            None
        }
    }
}

/// `ddbsim import`: the scenario to stdout, or to `out` with its trace files beside it. The
/// files are staged in a temporary folder beside `out`, the scenario is validated there, and
/// only then are they moved into place, as one unit: all of them or none (a failed import
/// leaves nothing behind and what was there as it was). An existing file of those names is
/// refused unless `force`. The CloudWatch files are named in the scenario (`# ddbsim-history:`)
/// for `backtest`; a Cost and Usage Report is not a history it compares with.
pub(in crate::cli) fn import(
    sources: &[PathBuf],
    table: Option<&str>,
    metrics: &[PathBuf],
    cur: &[PathBuf],
    out: Option<&Path>,
    as_json: bool,
    force: bool,
) -> Result<(), CliError> {
    let stem = out.and_then(|o| o.file_stem()).map(|s| s.to_string_lossy().into_owned());
    let stem = stem.unwrap_or_else(|| "imported".into());
    let history: Vec<PathBuf> = metrics.iter().chain(cur).cloned().collect();
    let imported = crate::import::import(sources, &history, table, &stem)?;
    let say = if as_json { Say::Json } else { Say::Stdout };
    write_imported(&imported, &Written { stem: &stem, out, say, force, kept: Vec::new(), named: metrics })
}

/// Where an import says what it wrote.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::cli) enum Say {
    /// The scenario (or "wrote ...") on stdout.
    Stdout,
    /// `import --json` on stdout.
    Json,
    /// "wrote ..." on stderr: stdout is another command's (`backtest aws:TABLE`).
    Stderr,
}

/// How an import is written.
pub(super) struct Written<'a> {
    /// The scenario's file stem (its traces' prefix).
    pub stem: &'a str,
    /// The scenario file, or none for stdout.
    pub out: Option<&'a Path>,
    pub say: Say,
    /// Replace files of the same names.
    pub force: bool,
    /// Files kept beside the scenario (a live import's history and queries): (name, text).
    pub kept: Vec<(String, String)>,
    /// History files the user gave, named in the scenario where they are.
    pub named: &'a [PathBuf],
}

/// Writes an import: its notes on stderr, then the scenario on stdout, or into `w.out` with
/// its traces and kept history, all of them or none.
pub(super) fn write_imported(imported: &Imported, w: &Written<'_>) -> Result<(), CliError> {
    for n in &imported.notes {
        eprintln!("note: {n}");
    }
    let Some(out) = w.out else {
        if !imported.traces.is_empty() {
            return Err(CliError::Argument("the metrics become trace files written beside the scenario: give --out FILE.toml".into()));
        }
        crate::scenario::parse_str(&imported.scenario, Path::new(&format!("{}.toml", w.stem)))?;
        if w.say == Say::Json {
            print_import_json(imported, &imported.scenario, None);
        } else {
            print!("{}", imported.scenario);
        }
        return Ok(());
    };
    let dir = super::publish::folder_of(out);
    if !dir.is_dir() {
        let e = std::io::Error::new(std::io::ErrorKind::NotFound, "the folder does not exist");
        return Err(CliError::Output(crate::OutputError { path: dir, source: e }));
    }
    let names: Vec<String> =
        super::history::histories(&w.kept).chain(w.named.iter().filter_map(|p| super::history::named_from(&dir, p))).collect();
    let scenario = super::history::with_history(&imported.scenario, &names);
    let staging = super::publish::staging(&dir)?;
    let name = out.file_name().map_or_else(|| "imported.toml".into(), |n| n.to_string_lossy().into_owned());
    let mut files: Vec<(String, &str)> = imported.traces.iter().chain(&w.kept).map(|(n, t)| (n.clone(), t.as_str())).collect();
    files.push((name.clone(), &scenario));
    super::publish::stage(staging.path(), files.iter().map(|(n, t)| (n.as_str(), *t)))?;
    // The scenario must load as written, traces included.
    crate::scenario::load(&staging.path().join(&name))?;
    let placed: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    super::publish::place_all(staging.path(), &dir, &placed, w.force)?;
    let t = imported.traces.len();
    let kept = super::history::histories(&w.kept).next().map_or_else(String::new, |h| format!(", its history kept as {h}"));
    let line = format!("wrote {} and {t} trace file{}{kept}", out.display(), if t == 1 { "" } else { "s" });
    match w.say {
        Say::Json => print_import_json(imported, &scenario, Some(out)),
        Say::Stdout => println!("{line}"),
        Say::Stderr => eprintln!("{line}"),
    }
    Ok(())
}

/// `import --json`: the scenario's text, where it was written, its trace files and the notes.
fn print_import_json(imported: &crate::import::Imported, scenario: &str, out: Option<&Path>) {
    let doc = serde_json::json!({
        "scenario": scenario,
        "path": out.map(|p| p.display().to_string()),
        "traces": imported.traces.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>(),
        "notes": imported.notes,
    });
    println!("{}", serde_json::to_string_pretty(&doc).expect("plain data"));
}

/// `ddbsim schema`.
pub(in crate::cli) fn schema() -> Result<(), CliError> {
    let schema = schemars::schema_for!(scenario::raw::RawScenario);
    println!("{}", serde_json::to_string_pretty(&schema).expect("a schema serialises"));
    Ok(())
}
