//! `ddbsim check`: runs the plan on each scenario, prints PASS or FAIL, writes JUnit XML and the
//! report, and exits 3 when a design fails.

use super::args::{catalog_arg, CheckArgs, FailOn};
use super::CliError;
use crate::engine::{RunOptions, StopToken};
use crate::guard;
use crate::report::{check as render, Artifact, Output, RunReport};
use crate::study::check::{self, CheckOptions, CheckOutput, Phase, Severity};
use serde::Serialize;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// `--json`: every scenario's check.
#[derive(Serialize)]
struct Checks<'a> {
    passed: bool,
    checks: &'a [CheckOutput],
}

/// The folder a file `path` is written in.
fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Fails (exit 1) before any simulation when `--junit` cannot be written.
fn probe_junit(path: &Path) -> Result<(), CliError> {
    let dir = parent_of(path);
    if path.is_dir() {
        return Err(CliError::Argument(format!("--junit {}: is a folder; give a file name such as report.xml", path.display())));
    }
    tempfile::Builder::new()
        .prefix(".ddbsim-junit-")
        .tempfile_in(&dir)
        .map(drop)
        .map_err(|e| CliError::Argument(format!("--junit {}: cannot write in {}: {e}", path.display(), dir.display())))
}

/// Writes `text` to `path` whole or not at all (a temporary file renamed over it).
fn write_atomic(path: &Path, text: &str) -> Result<(), CliError> {
    let fail = |e: std::io::Error| CliError::Output(crate::OutputError { path: path.to_path_buf(), source: e });
    let mut f = tempfile::Builder::new().prefix(".ddbsim-junit-").tempfile_in(parent_of(path)).map_err(fail)?;
    f.write_all(text.as_bytes()).and_then(|()| f.as_file().sync_all()).map_err(fail)?;
    f.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// One rule of `check --rules`.
#[derive(Serialize)]
struct RuleRow {
    ids: &'static [&'static str],
    worst: Severity,
    reads: &'static [check::rules::Evidence],
    resimulates: Option<&'static str>,
}

/// `ddbsim check --rules`: the registry, as a table or (`--json`) a document.
fn print_rules(json: bool) {
    let rows: Vec<RuleRow> = check::rules::RULES
        .iter()
        .map(|r| RuleRow { ids: r.ids(), worst: r.worst(), reads: r.reads(), resimulates: r.resimulates() })
        .collect();
    if json {
        println!("{}", serde_json::to_string_pretty(&rows).expect("plain data"));
        return;
    }
    let mut table = vec![["rule".to_string(), "worst".into(), "reads".into(), "simulates the fix".into()]];
    for r in &rows {
        let reads: Vec<&str> = r.reads.iter().map(|e| e.name()).collect();
        table.push([r.ids.join(", "), r.worst.name().to_string(), reads.join(", "), r.resimulates.unwrap_or("-").to_string()]);
    }
    // Words, not numbers: every column left-aligned.
    let width = |c: usize| table.iter().map(|row| row[c].chars().count()).max().unwrap_or(0);
    let widths = [width(0), width(1), width(2)];
    for row in &table {
        println!("{:<w0$}  {:<w1$}  {:<w2$}  {}", row[0], row[1], row[2], row[3], w0 = widths[0], w1 = widths[1], w2 = widths[2]);
    }
}

/// `ddbsim check`.
pub(super) fn check(a: &CheckArgs, stop: &StopToken) -> Result<(), CliError> {
    if a.rules {
        print_rules(a.json);
        return Ok(());
    }
    let mut phases = Vec::new();
    for p in &a.phases {
        let p = Phase::parse(p).map_err(|m| CliError::Argument(format!("--phases: {m}")))?;
        if !phases.contains(&p) {
            phases.push(p);
        }
    }
    phases.sort();
    let fail_on = if a.fail_on == FailOn::Warn { Severity::Warn } else { Severity::Error };
    let options = crate::scenario::LoadOptions { allow_outside: a.allow_outside, ..Default::default() };
    // A folder is its scenario files (an account's tables: their maxima share the Region's
    // account-level quota).
    let mut files = Vec::new();
    for p in &a.scenarios {
        if p.is_dir() {
            files.extend(super::commands::scenario_files(p)?);
        } else {
            files.push(p.clone());
        }
    }
    let scenarios = files.iter().map(|p| crate::scenario::load_with(p, &options)).collect::<Result<Vec<_>, _>>()?;
    let across = check::account_past_quota(&scenarios);
    let catalogs = scenarios.iter().map(|sc| catalog_arg(a.prices.as_ref(), sc)).collect::<Result<Vec<_>, _>>()?;
    if let Some(j) = &a.junit {
        probe_junit(j)?;
    }
    let out = a.out.as_ref().map(|d| Output::claim(d)).transpose()?;
    let base = RunOptions { seed: a.seed, fidelity: a.fidelity.map(|f| f.fidelity()), stop: Some(stop.clone()), ..RunOptions::default() };
    if !a.force {
        for sc in &scenarios {
            for s in check::simulations(sc, &phases) {
                guard::check_work(&s.scenario, &base, s.work).map_err(|e| {
                    guard::GuardError(format!(
                        "{} of {}: {} (check's lengths are [check] steady, warmup, burst and soak, and the review re-simulates [scenario] duration)",
                        s.label, sc.name, e.0
                    ))
                })?;
            }
        }
    }
    let mut results = Vec::new();
    for (i, (sc, catalog)) in scenarios.iter().zip(&catalogs).enumerate() {
        if !a.quiet && !a.json {
            let names: Vec<&str> = phases.iter().map(|p| p.name()).collect();
            eprintln!("checking {} ({}): {}", sc.name, sc.source_path.display(), names.join(", "));
        }
        let (mut c, runs) = check::check(sc, &CheckOptions { phases: phases.clone(), base: base.clone() }, catalog);
        if stop.is_stopped() {
            return Err(CliError::Interrupted);
        }
        let mine: Vec<check::Finding> = across.iter().filter(|x| x.0 == i).map(|x| x.1.clone()).collect();
        if !mine.is_empty() {
            // After the errors, with the warnings.
            let at = c.findings.iter().position(|f| f.severity < check::Severity::Error).unwrap_or(c.findings.len());
            c.findings.splice(at..at, mine);
        }
        c.judge(fail_on);
        let charts = if out.is_some() { phase_charts(sc, &runs, catalog)? } else { Vec::new() };
        if !a.quiet && !a.json {
            let text = render::text(&c, fail_on);
            let head = text.lines().next().unwrap_or_default().split("  ").next().unwrap_or_default().to_string();
            print!("{}", super::commands::colour_verdict(text, &head, c.passed));
        }
        results.push((c, charts));
    }
    let checks: Vec<CheckOutput> = results.iter().map(|(c, _)| c.clone()).collect();
    let passed = checks.iter().all(|c| c.passed);
    let doc = crate::report::json_bytes(&Checks { passed, checks: &checks });
    if let Some(j) = &a.junit {
        write_atomic(j, &render::junit(&checks, fail_on))?;
    }
    if let Some(out) = &out {
        out.write_all(&[Artifact::new("check.json", doc.clone()), Artifact::new("report.html", render::html(&results))])?;
    }
    if a.json {
        let _ = std::io::stdout().lock().write_all(&doc);
    }
    if passed {
        return Ok(());
    }
    let failed: Vec<&str> = checks.iter().filter(|c| !c.passed).map(|c| c.scenario.as_str()).collect();
    Err(CliError::CheckFailed(format!(
        "check failed: {} of {} scenarios ({}) have a failed phase or a finding at {} or above",
        failed.len(),
        checks.len(),
        failed.join(", "),
        fail_on.name()
    )))
}

/// Each phase's capacity chart (and the steady phase's hot partitions), for report.html.
fn phase_charts(
    sc: &crate::scenario::Scenario,
    runs: &check::Runs<'_>,
    catalog: &crate::cost::Catalog,
) -> Result<render::PhaseCharts, CliError> {
    let peaks = &runs.peaks;
    let phases = [
        ("steady", check::steady_scenario(sc, peaks), Some(&runs.steady)),
        ("burst", check::burst_scenario(sc, peaks), runs.burst.as_ref()),
        ("soak", check::soak_scenario(sc), runs.soak.as_ref()),
    ];
    let mut out = Vec::new();
    for (name, s, r) in phases {
        let Some(r) = r else { continue };
        let arts = RunReport::new(&s, r, catalog, true).chart_artifacts()?;
        let get = |n: &str| arts.iter().find(|x| x.name == n).and_then(|x| x.to_bytes().ok());
        let capacity = get("capacity.png").unwrap_or_default();
        let heat = if name == "steady" { get("hot-partitions.png") } else { None };
        out.push((name.to_string(), capacity, heat));
    }
    Ok(out)
}
