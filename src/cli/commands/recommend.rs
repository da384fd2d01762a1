//! `ddbsim recommend`.

use super::{memory, out_dir, stopped, wrote};
use crate::cli::args::{catalog_arg, duration_arg, share_arg};
use crate::cli::progress::{Bar, Mode};
use crate::cli::CliError;
use crate::engine::{RunOptions, StopToken};
use crate::guard;
use crate::report::Output;
use crate::report::Render;
use crate::study;
use std::path::PathBuf;
use std::sync::Arc;

/// `ddbsim recommend`.
pub(in crate::cli) fn recommend(a: &crate::cli::args::RecommendArgs, stop: &StopToken) -> Result<(), CliError> {
    let mut files = Vec::new();
    for p in &a.scenarios {
        if p.is_dir() {
            files.extend(super::scenario_files(p)?);
        } else {
            files.push(p.clone());
        }
    }
    let many = files.len() > 1 || a.scenarios.iter().any(|p| p.is_dir());
    if a.emit.is_some() && many {
        return Err(CliError::Argument("--emit: one scenario (its table's change); give one file".into()));
    }
    if a.shard.is_some() && !many {
        return Err(CliError::Argument("--shard: shares tables among runs; give several scenarios or a folder".into()));
    }
    let common = |scenario: PathBuf| crate::cli::args::Common { scenario, shared: a.shared.clone() };
    let o = recommend_options(a, stop)?;
    if many {
        return recommend_tables(a, &files.into_iter().map(common).collect::<Vec<_>>(), &o, stop);
    }
    let c = &common(files.remove(0));
    let sc = c.load()?;
    if let Some(w) = study::backtest::uncalibrated_warning(&sc) {
        eprintln!("warning: {w}");
    }
    let catalog = catalog_arg(a.prices.as_ref(), &sc)?;
    let as_json = a.shared.json;
    let force = a.force;
    // About 50 simulations: as a compare of 10 replications (5 runs each).
    let work = guard::Work::compare(10).with_knobs(&[guard::Knob::Duration]);
    let estimate = if force { guard::estimate_work(&sc, &o.run, work) } else { guard::check_work(&sc, &o.run, work)? };
    let out = Output::claim(&out_dir(c.out.as_ref(), &sc, "-recommend"))?;
    let bar = Arc::new(Bar::new(Mode::of(c.quiet || as_json, c.progress), "recommend"));
    let o = study::recommend::RecommendOptions { run: RunOptions { progress: Some(bar.clone()), ..o.run.clone() }, ..o.clone() };
    let rec = study::recommend::recommend(&sc, &catalog, &o);
    bar.finish();
    stopped(stop)?;
    let written = out.write_all(&rec.artifacts()?)?;
    if a.emit.is_some() {
        print!("{}", crate::report::emit::aws_cli(&rec, &sc).map_err(|e| CliError::Argument(format!("--emit: {e}")))?);
    } else if as_json {
        print!("{}", String::from_utf8(crate::report::json_bytes(&rec)).expect("JSON is UTF-8"));
    } else if !c.quiet {
        print!("{}", rec.text());
        println!("{}; wrote {}", memory(&estimate), wrote(&written));
    }
    Ok(())
}

/// `ddbsim recommend` on many tables: each table's own settings and its recommendation, a row
/// per table and dimension, tables in parallel; `--shard I/N` runs tables `I-1, I-1+N, …`.
fn recommend_tables(
    a: &crate::cli::args::RecommendArgs,
    tables: &[crate::cli::args::Common],
    o: &study::recommend::RecommendOptions,
    stop: &StopToken,
) -> Result<(), CliError> {
    let shard = crate::cli::args::shard_flag(a.shard.as_deref(), a.shared.quiet || a.shared.json)?;
    let mine: Vec<usize> = (0..tables.len()).filter(|i| shard.is_none_or(|(k, n)| i % n == k - 1)).collect();
    let mut loaded = Vec::new();
    for &i in &mine {
        let sc = tables[i].load()?;
        if let Some(w) = study::backtest::uncalibrated_warning(&sc) {
            eprintln!("warning: {w}");
        }
        let catalog = catalog_arg(a.prices.as_ref(), &sc)?;
        let work = guard::Work::compare(10).with_knobs(&[guard::Knob::Duration]);
        if !a.force {
            guard::check_work(&sc, &o.run, work)?;
        }
        loaded.push((i, sc, catalog));
    }
    let out = Output::claim(&a.shared.out.clone().unwrap_or_else(|| PathBuf::from("output").join("recommend-tables")))?;
    let per = study::par_indexed(loaded.len() as u64, |j| {
        let (i, sc, catalog) = &loaded[j as usize];
        let (rec, rows) = study::recommend::table_rows(*i, &tables[*i].scenario.display().to_string(), sc, catalog, o);
        let pool = study::recommend::pool::PoolInput {
            table: sc.table.name.clone(),
            region: sc.pricing.region.clone(),
            window: (sc.start_unix_s, o.run.duration.unwrap_or(sc.duration).as_secs()),
            not_reservable: crate::cost::no_reservation(
                sc.pricing.extrapolate,
                sc.table.table_class == crate::scenario::TableClass::Standard,
                o.run.duration.unwrap_or(sc.duration).as_secs(),
            ),
            usage: rec.pick_usage.clone(),
        };
        (rec, rows, pool)
    });
    stopped(stop)?;
    let (recs, mut rows, mut inputs) = per.into_iter().fold((Vec::new(), Vec::new(), Vec::new()), |mut acc, (r, w, p)| {
        acc.0.push(r);
        acc.1.push(w);
        acc.2.push(p);
        acc
    });
    // The picks of a Region's tables within its account-level quota together (every table of
    // the Region must be in this run: not with --shard).
    let quota = if shard.is_none() {
        let fit_in: Vec<study::recommend::quota_fit::FitInput<'_>> = loaded
            .iter()
            .zip(&recs)
            .map(|((_, sc, _), rec)| study::recommend::quota_fit::FitInput {
                region: &sc.pricing.region,
                table: &sc.table.name,
                quota: sc.account.max,
                limit: [sc.account.limit(0), sc.account.limit(1)],
                rec,
            })
            .collect();
        let (fits, picks) = study::recommend::quota_fit::fit(&fit_in);
        for (j, ((i, sc, _), rec)) in loaded.iter().zip(&recs).enumerate() {
            if picks[j] != rec.pick {
                rows[j] = study::recommend::rows_for(*i, &tables[*i].scenario.display().to_string(), sc, rec, picks[j]);
                inputs[j].usage = picks[j].and_then(|k| match rec.candidates[k].settings {
                    study::recommend::Settings::Reserved { of, .. } => rec.usages.get(of).cloned().flatten(),
                    _ => rec.usages.get(k).cloned().flatten(),
                });
            }
        }
        fits
    } else {
        Vec::new()
    };
    let (pools, pool_notes) = if !o.modes.reserved {
        (Vec::new(), Vec::new())
    } else if shard.is_some() {
        (Vec::new(), vec![crate::report::recommend::POOL_NEEDS_EVERY_TABLE.to_string()])
    } else {
        // Each region pooled at the catalog its tables were priced with (`--prices` or built in).
        let priced: std::collections::BTreeMap<&str, &crate::cost::Catalog> =
            loaded.iter().map(|(_, sc, c)| (sc.pricing.region.as_str(), c)).collect();
        study::recommend::pool::pools(&inputs, o.reserved_years, |r| {
            priced.get(r).map(|c| (*c).clone()).or_else(|| crate::cost::Catalog::for_region(r))
        })
    };
    let result = crate::report::recommend::Tables {
        shard: a.shard.clone(),
        tables: tables.len(),
        max_throttle: o.max_throttle,
        rows: rows.into_iter().flatten().collect(),
        pools,
        pool_notes,
        quota,
    };
    let written = out.write_all(&result.artifacts()?)?;
    if a.shared.json {
        print!("{}", String::from_utf8(crate::report::json_bytes(&result)).expect("JSON is UTF-8"));
    } else if !a.shared.quiet {
        print!("{}", result.text());
        println!("wrote {}", wrote(&written));
    }
    Ok(())
}

/// The library options of `ddbsim recommend`'s arguments.
fn recommend_options(a: &crate::cli::args::RecommendArgs, stop: &StopToken) -> Result<study::recommend::RecommendOptions, CliError> {
    let years = a.reserved_term;
    if years != 1 && years != 3 {
        return Err(CliError::Argument(format!("--reserved-term: 1 or 3 years, not {years}")));
    }
    if a.budget.is_some_and(|b| b < 2) {
        return Err(CliError::Argument("--budget: at least 2 simulations (the on-demand run and one candidate)".into()));
    }
    let modes = a.modes();
    if modes == (study::recommend::Modes { on_demand: false, provisioned: false, autoscaling: false, reserved: false }) {
        return Err(CliError::Argument("--modes: name at least one of on-demand, provisioned, autoscaling, reserved".into()));
    }
    let run = RunOptions {
        seed: a.shared.seed,
        duration: duration_arg(a.shared.duration.as_ref())?,
        stop: Some(stop.clone()),
        ..RunOptions::default()
    };
    let max_throttle = share_arg(&a.max_throttle)?;
    Ok(study::recommend::RecommendOptions {
        run,
        max_throttle,
        max_failed: a.max_failed.as_deref().map_or(Ok(max_throttle), share_arg)?,
        reserved_years: years,
        give_up: !a.simulate_all,
        modes,
        budget: a.budget,
        screen: !a.simulate_all,
    })
}
