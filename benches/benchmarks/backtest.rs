//! `backtest` on 14 days of one table (issue 40's targets: at most 30 s on this machine, and
//! `--calibrate` at most 5 minutes): the bundled import of the 14-day history
//! (`scenarios/imported/orders-14d.toml`) against the history itself
//! (`tests/fixtures/import/metric-data-14d.json`); and the fast 24-hour headline in the same
//! group, so the ratios are measured in one run. The calibration takes about a minute and a
//! half an iteration, so this group alone runs for about 20 minutes.

use criterion::{criterion_group, Criterion, SamplingMode};
use ddbsim::import::read_history;
use ddbsim::study::backtest::{backtest, calibrate::calibrate};
use ddbsim::{Fidelity, RunOptions};
use std::path::{Path, PathBuf};

fn bench_backtest(c: &mut Criterion) {
    let sc = ddbsim::scenario::load(Path::new("scenarios/imported/orders-14d.toml")).expect("valid");
    let rec = read_history(&[PathBuf::from("tests/fixtures/import/metric-data-14d.json")], &[]).expect("a history");
    let headline = ddbsim::scenario::load(Path::new("scenarios/headline.toml")).expect("valid");
    let mut g = c.benchmark_group("backtest");
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    g.bench_function("14_days_1_table", |b| b.iter(|| backtest(&sc, &rec, &RunOptions::default()).expect("overlaps")));
    let before = backtest(&sc, &rec, &RunOptions::default()).expect("overlaps");
    g.bench_function("14_days_1_table_calibrate", |b| {
        b.iter(|| calibrate(&sc, &rec, &RunOptions::default(), &before).expect("fits something").1.parameters.len())
    });
    g.bench_function("headline_fast_24h", |b| {
        b.iter(|| ddbsim::simulate(&headline, &RunOptions { fidelity: Some(Fidelity::Fast), ..RunOptions::default() }))
    });
    g.finish();
}

criterion_group!(benches, bench_backtest);
