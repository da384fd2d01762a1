//! `ddbsim run DIR`: the scenarios of a folder run as one account.

use super::{memory, print_json, scenario_files, stopped, wrote};
use crate::cli::args::{catalog_arg, share_arg, RunArgs};
use crate::cli::progress::{Bar, Mode};
use crate::cli::CliError;
use crate::engine::{simulate_account, StopToken};
use crate::guard;
use crate::report::account::AccountRun;
use crate::report::Render;
use crate::report::{Output, RunReport};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// `ddbsim run DIR`: each table of the folder with its own keys, indexes, traffic and
/// capacity, on one clock, sharing the Region's account-level quota.
pub(in crate::cli) fn run_account(a: &RunArgs, dir: &Path, stop: &StopToken) -> Result<(), CliError> {
    if a.replications > 1 {
        return Err(CliError::Argument("--replications: runs one table's scenario; an account (a folder) runs once".into()));
    }
    let files = scenario_files(dir)?;
    let mut tables = Vec::new();
    for f in &files {
        let c = crate::cli::args::Common { scenario: f.clone(), shared: a.common.shared.clone() };
        tables.push(c.load_in_account()?);
    }
    let notes = crate::scenario::join_account(&mut tables).map_err(CliError::Argument)?;
    if !a.common.quiet {
        for n in &notes {
            eprintln!("{}: {n}", dir.display());
        }
    }
    let max_throttle = share_arg(&a.max_throttle)?;
    let catalogs = tables.iter().map(|sc| catalog_arg(a.prices.as_ref(), sc)).collect::<Result<Vec<_>, _>>()?;
    let bar = Arc::new(Bar::new(Mode::of(a.common.quiet || a.common.json, a.common.progress), "simulating"));
    let opts = super::run_options(a, stop, &bar)?;
    let mut estimate = None;
    for sc in &tables {
        let work = guard::Work::ONE.without_charts();
        let e = if a.force { guard::estimate_work(sc, &opts, work) } else { guard::check_work(sc, &opts, work)? };
        estimate = Some(e);
    }
    let name = dir.file_name().map_or_else(|| "account".to_string(), |n| n.to_string_lossy().into_owned());
    let out = Output::claim(&a.common.out.clone().unwrap_or_else(|| PathBuf::from("output").join(name)))?;
    let started = Instant::now();
    let results = simulate_account(&tables, &opts);
    let elapsed = started.elapsed();
    bar.finish();
    stopped(stop)?;
    let mut reports: Vec<(String, String, RunReport<'_>)> = files
        .iter()
        .zip(&tables)
        .zip(&results)
        .zip(&catalogs)
        .map(|(((f, sc), r), catalog)| {
            let mut report = RunReport::new(sc, r, catalog, false);
            report.summary.judge(max_throttle);
            let stem = f.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            (stem, sc.pricing.region.clone(), report)
        })
        .collect();
    crate::report::account::judge_crossings(&mut reports, &tables, &results);
    let account = AccountRun::new(reports, notes);
    let artifacts = account.artifacts()?;
    let written = out.write_all(&artifacts)?;
    if a.common.json {
        print_json(&artifacts, "account.json");
    } else if !a.common.quiet {
        print!("{}", account.text());
        let memory = estimate.map_or_else(String::new, |e| format!(", {}", memory(&e)));
        println!("simulated in {:.2} s{memory}; wrote {}", elapsed.as_secs_f64(), wrote(&written));
    }
    Ok(())
}
