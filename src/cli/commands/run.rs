//! `ddbsim run` and `ddbsim plot`.

use super::{colour_verdict, memory, out_dir, print_json, stopped, wrote};
use crate::cli::args::{catalog_arg, replications_arg, share_arg, RunArgs};
use crate::cli::progress::{Bar, Mode};
use crate::cli::CliError;
use crate::engine::{simulate, StopToken};
use crate::guard;
use crate::report::replications::Replications;
use crate::report::Render;
use crate::report::{Output, RunReport};
use crate::study;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// `ddbsim run`.
pub(in crate::cli) fn run(a: &RunArgs, stop: &StopToken) -> Result<(), CliError> {
    if a.common.scenario.is_dir() {
        return super::account::run_account(a, &a.common.scenario, stop);
    }
    let sc = a.common.load()?;
    let catalog = catalog_arg(a.prices.as_ref(), &sc)?;
    let reps = replications_arg(a.replications)?;
    let max_throttle = share_arg(&a.max_throttle)?;
    let bar = Arc::new(Bar::new(
        Mode::of(a.common.quiet || a.common.json, a.common.progress),
        if reps > 1 { "replications" } else { "simulating" },
    ));
    let opts = super::run_options(a, stop, &bar)?;
    let work = if reps > 1 { guard::Work::replications(reps) } else { guard::Work::ONE };
    let work = if a.no_charts { work.without_charts() } else { work };
    let estimate = if a.force { guard::estimate_work(&sc, &opts, work) } else { guard::check_work(&sc, &opts, work)? };
    // Fail on an unwritable or busy folder before spending time on the run.
    let out = Output::claim(&out_dir(a.common.out.as_ref(), &sc, ""))?;
    let started = Instant::now();
    let (result, replications) = if reps > 1 {
        let (r, hs) = study::replicate(&sc, reps, &opts, &catalog);
        (r, Some(Replications::new(hs)))
    } else {
        (simulate(&sc, &opts), None)
    };
    let elapsed = started.elapsed();
    bar.finish();
    stopped(stop)?;
    let mut report = RunReport::new(&sc, &result, &catalog, !a.no_charts);
    report.summary.judge(max_throttle);
    let mut artifacts = report.artifacts()?;
    if let Some(r) = &replications {
        artifacts.extend(r.artifacts()?);
    }
    let written = out.write_all(&artifacts)?;
    if a.common.json {
        print_json(&artifacts, "summary.json");
    } else if !a.common.quiet {
        if let Some(r) = &replications {
            print!("{}", r.text());
        }
        print!("{}", colour_verdict(report.text(), &report.summary.verdict.headline, report.summary.verdict.held));
        println!("simulated in {:.2} s, {}; wrote {}", elapsed.as_secs_f64(), memory(&estimate), wrote(&written));
    }
    Ok(())
}

/// `ddbsim plot`.
pub(in crate::cli) fn plot(dir: &Path, as_json: bool) -> Result<(), CliError> {
    let out = Output::claim(dir)?;
    let written = if !dir.join("summary.json").exists() && dir.join("sweep.json").is_file() {
        // A sweep's folder (or a merge's): its chart from its sweep.json.
        let sweep = super::sweep::read_sweep(dir, "sweep.json")?;
        let charts: Vec<_> = sweep.artifacts()?.into_iter().filter(|a| a.name.ends_with(".svg") || a.name.ends_with(".png")).collect();
        out.update(&charts)?
    } else {
        out.update(&RunReport::read(dir)?.chart_artifacts()?)?
    };
    if as_json {
        let files: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        let doc = serde_json::json!({ "dir": dir.display().to_string(), "written": files });
        println!("{}", serde_json::to_string_pretty(&doc).expect("plain data"));
    } else {
        println!("wrote {}", wrote(&written));
    }
    Ok(())
}
