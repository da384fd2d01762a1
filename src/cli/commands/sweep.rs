//! `ddbsim sweep`, `ddbsim merge` and `ddbsim shards`.

use super::{memory, out_dir, print_json, read_text, stopped, wrote};
use crate::cli::args::{catalog_arg, duration_arg, replications_arg, share_arg, ShardsArgs, SweepArgs};
use crate::cli::progress::{Bar, Mode};
use crate::cli::CliError;
use crate::engine::{RunOptions, StopToken};
use crate::guard::{self, Knob};
use crate::report::Output;
use crate::report::Render;
use crate::study;
use crate::study::ShardsOptions;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `ddbsim sweep`.
pub(in crate::cli) fn sweep(a: &SweepArgs, stop: &StopToken) -> Result<(), CliError> {
    let sc = a.common.load()?;
    let text = read_text(&a.common.scenario)?;
    let sets = a.sets.iter().map(|s| study::parse_set(s)).collect::<Result<Vec<_>, _>>()?;
    let shard = crate::cli::args::shard_flag(a.shard.as_deref(), a.common.quiet || a.common.json)?;
    let reps = replications_arg(a.replications)?;
    study::sweep::check_size(&sets, shard, reps)?;
    let prepared = study::prepare(&text, &a.common.scenario, &sets, &a.common.load_options(), shard)?;
    let bar = Arc::new(Bar::new(Mode::of(a.common.quiet || a.common.json, a.common.progress), "sweep"));
    let base = RunOptions {
        seed: a.common.seed,
        fidelity: a.fidelity.map(|f| f.fidelity()),
        duration: duration_arg(a.common.duration.as_ref())?,
        stop: Some(stop.clone()),
        progress: Some(bar.clone()),
        ..RunOptions::default()
    };
    let runs = prepared.scenarios.len() as u64 * reps;
    let work = guard::Work::sweep(prepared.scenarios.len() as u64, runs).with_knobs(&[
        Knob::Duration,
        Knob::FidelityFast,
        Knob::Replications,
        Knob::Shard,
    ]);
    let mut estimate = guard::estimate_work(&sc, &base, work);
    for point in &prepared.scenarios {
        let e = if a.force { guard::estimate_work(point, &base, work) } else { guard::check_work(point, &base, work)? };
        if e.memory_bytes > estimate.memory_bytes {
            estimate = e;
        }
    }
    let out = Output::claim(&out_dir(a.common.out.as_ref(), &sc, "-sweep"))?;
    let catalog = catalog_arg(None, &sc)?.with_overrides(&sc.pricing.overrides);
    let result = study::sweep::run(&prepared, &sc.name, a.common.seed.unwrap_or(sc.seed), reps, shard, &base, &catalog);
    bar.finish();
    stopped(stop)?;
    let artifacts = result.artifacts()?;
    let written = out.write_all(&artifacts)?;
    if a.common.json {
        print_json(&artifacts, "sweep.json");
    } else if !a.common.quiet {
        print!("{}", result.text());
        println!("{}; wrote {}", memory(&estimate), wrote(&written));
    }
    Ok(())
}

/// The `sweep.json` of folder `dir` (`what` names it in a message), read within ddbsim's cap.
pub(super) fn read_sweep(dir: &Path, what: &str) -> Result<study::SweepOutput, CliError> {
    let p = dir.join("sweep.json");
    let text = crate::input::read_text_capped(&p, crate::input::OWN_OUTPUT_BYTES, what)
        .map_err(|e| CliError::Argument(format!("{}: {e}", p.display())))?;
    serde_json::from_str(&text).map_err(|e| CliError::Argument(format!("{}: not a sweep.json of ddbsim: {e}", p.display())))
}

/// `ddbsim merge`.
pub(in crate::cli) fn merge(dirs: &[PathBuf], out: Option<&PathBuf>, allow_partial: bool, as_json: bool) -> Result<(), CliError> {
    let out = out.cloned().unwrap_or_else(|| dirs[0].parent().unwrap_or(Path::new(".")).join("merged"));
    if dirs[0].join("recommend-tables.json").is_file() {
        let mut parts = Vec::new();
        for d in dirs {
            let p = d.join("recommend-tables.json");
            let text = crate::input::read_text_capped(&p, crate::input::OWN_OUTPUT_BYTES, "merge part")
                .map_err(|e| CliError::Argument(format!("{}: {e}", p.display())))?;
            parts.push(
                serde_json::from_str(&text)
                    .map_err(|e| CliError::Argument(format!("{}: not a recommend-tables.json of ddbsim: {e}", p.display())))?,
            );
        }
        let merged = crate::report::recommend::Tables::merge(parts, allow_partial).map_err(CliError::Argument)?;
        let artifacts = merged.artifacts()?;
        let written = Output::claim(&out)?.write_all(&artifacts)?;
        if as_json {
            print_json(&artifacts, "recommend-tables.json");
        } else {
            println!("merged {} rows of {} tables; wrote {}", merged.rows.len(), merged.tables, wrote(&written));
        }
        return Ok(());
    }
    let parts = dirs.iter().map(|d| read_sweep(d, "merge part")).collect::<Result<Vec<_>, _>>()?;
    let merged = study::merge(parts, allow_partial)?;
    // The files and charts an unsharded sweep writes.
    let artifacts = merged.artifacts()?;
    let written = Output::claim(&out)?.write_all(&artifacts)?;
    if as_json {
        print_json(&artifacts, "sweep.json");
    } else {
        println!("merged {} points of {}; wrote {}", merged.points.len(), merged.total_points, wrote(&written));
    }
    Ok(())
}

/// `ddbsim shards`.
pub(in crate::cli) fn shards(a: &ShardsArgs, stop: &StopToken) -> Result<(), CliError> {
    let sc = a.common.load()?;
    if a.by != "random" && a.by != "hash" {
        return Err(CliError::Argument(format!("--by: \"random\" or \"hash\", not \"{}\"", a.by)));
    }
    if a.max == 0 || a.max > 10_000 {
        return Err(CliError::Argument(format!("--max: 1 to 10000, not {}", a.max)));
    }
    if ![50.0, 95.0, 99.0].contains(&a.percentile) {
        return Err(CliError::Argument(format!("--percentile: 50, 95 or 99, not {}", a.percentile)));
    }
    let o = ShardsOptions {
        key: a.key.clone(),
        max: a.max,
        random: a.by == "random",
        replications: replications_arg(a.replications)?,
        percentile: a.percentile,
        max_throttle: share_arg(&a.max_throttle)?,
    };
    let text = read_text(&a.common.scenario)?;
    let bar = Arc::new(Bar::new(Mode::of(a.common.quiet || a.common.json, a.common.progress), "shards"));
    let base = RunOptions {
        seed: a.common.seed,
        duration: duration_arg(a.common.duration.as_ref())?,
        stop: Some(stop.clone()),
        progress: Some(bar.clone()),
        ..RunOptions::default()
    };
    let counts = study::shard_counts(o.max).len() as u64;
    let work = guard::Work::sweep(counts, counts * o.replications).with_knobs(&[Knob::Duration, Knob::Replications]);
    let estimate = if a.force { guard::estimate_work(&sc, &base, work) } else { guard::check_work(&sc, &base, work)? };
    let out = Output::claim(&out_dir(a.common.out.as_ref(), &sc, "-shards"))?;
    let catalog = catalog_arg(None, &sc)?.with_overrides(&sc.pricing.overrides);
    let result = study::explore(&sc, &text, &a.common.scenario, &o, &base, &catalog, &a.common.load_options())?;
    bar.finish();
    stopped(stop)?;
    let artifacts = result.artifacts()?;
    let written = out.write_all(&artifacts)?;
    if a.common.json {
        print_json(&artifacts, "shards.json");
    } else if !a.common.quiet {
        print!("{}", result.text());
        println!("{}; wrote {}", memory(&estimate), wrote(&written));
    }
    Ok(())
}
