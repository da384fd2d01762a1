//! `ddbsim compare`.

use super::{memory, out_dir, print_json, stopped, wrote};
use crate::cli::args::{catalog_arg, duration_arg, replications_arg, share_arg, CompareArgs};
use crate::cli::CliError;
use crate::engine::{RunOptions, StopToken};
use crate::guard;
use crate::report::Output;
use crate::report::Render;
use crate::study;
use crate::study::{CompareOptions, ReplicatedComparison};

/// `ddbsim compare`.
pub(in crate::cli) fn compare(a: &CompareArgs, stop: &StopToken) -> Result<(), CliError> {
    let sc = a.common.load()?;
    let catalog = catalog_arg(a.prices.as_ref(), &sc)?;
    if !(20.0..=90.0).contains(&a.target) {
        return Err(CliError::Argument(format!("--target: between 20 and 90 percent, not {}", a.target)));
    }
    if a.reserved_term != 1 && a.reserved_term != 3 {
        return Err(CliError::Argument(format!("--reserved-term: 1 or 3 years, not {}", a.reserved_term)));
    }
    catalog.sells_reserved(a.reserved_term).map_err(|why| CliError::Argument(format!("--reserved-term {}: {why}", a.reserved_term)))?;
    if !(0.0..=100.0).contains(&a.reserved_percentile) {
        return Err(CliError::Argument(format!("--reserved-percentile: 0 to 100, not {}", a.reserved_percentile)));
    }
    let run = RunOptions {
        seed: a.common.seed,
        fidelity: a.fidelity.map(|f| f.fidelity()),
        duration: duration_arg(a.common.duration.as_ref())?,
        stop: Some(stop.clone()),
        ..RunOptions::default()
    };
    let o = CompareOptions {
        run,
        max_throttle: share_arg(&a.max_throttle)?,
        reserved_percentile: a.reserved_percentile,
        reserved_years: a.reserved_term,
        target: a.target / 100.0,
    };
    let reps = replications_arg(a.replications)?;
    let work = guard::Work::compare(reps).with_knobs(&[guard::Knob::Duration, guard::Knob::FidelityFast, guard::Knob::Replications]);
    let estimate = if a.force { guard::estimate_work(&sc, &o.run, work) } else { guard::check_work(&sc, &o.run, work)? };
    let out = Output::claim(&out_dir(a.common.out.as_ref(), &sc, "-compare"))?;
    let cs = study::compare_replications(&sc, &catalog, &o, reps);
    stopped(stop)?;
    let c = &cs[0];
    let replicated = (reps > 1).then(|| ReplicatedComparison::of(&cs));
    let mut artifacts = c.artifacts()?;
    if let Some(rc) = &replicated {
        artifacts.extend(rc.artifacts()?);
    }
    let written = out.write_all(&artifacts)?;
    if a.common.json {
        print_json(&artifacts, "compare.json");
    } else if !a.common.quiet {
        print!("{}", c.text());
        if let Some(rc) = &replicated {
            print!("{}", rc.text());
        }
        println!("{}; wrote {}", memory(&estimate), wrote(&written));
    }
    Ok(())
}
