//! `backtest --calibrate` of one table with two GSIs (issue 56's target for a day: at most 12×
//! the 24-hour headline): the truth of `bench_support::history::calibration_day` (a hot key at
//! 60 % of the writes) is simulated, exported as get-metric-data writes it, imported from its
//! describe-table definition and that history only — the import knows neither the hot key nor
//! the indexes' keys — and calibrated. The window is the day's first two hours: a calibration
//! is some 180 simulations of its window, so a day's takes a quarter of an hour here and ten
//! samples of it would take hours (the target is far off; the 2-hour figure measures progress
//! toward it). The fast 24-hour headline is in the same group, so the ratio is measured in one
//! run.

use criterion::{criterion_group, Criterion, SamplingMode};
use ddbsim::bench_support::history::{calibration_day, get_metric_data, DAY_START};
use ddbsim::import::read_history;
use ddbsim::study::backtest::{backtest, calibrate::calibrate};
use ddbsim::{Fidelity, RunOptions};
use std::path::Path;

fn bench_calibrate_day(c: &mut Criterion) {
    let (truth, definition) = calibration_day();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let truth = truth.replace("duration = \"24h\"", "duration = \"2h\"");
    let truth = ddbsim::parse_str(&truth, &dir.path().join("truth.toml")).expect("valid");
    let r = ddbsim::simulate(&truth, &RunOptions::default());
    let metrics = dir.path().join("metrics.json");
    std::fs::write(&metrics, get_metric_data(&truth, &r, DAY_START, true)).expect("written");
    let def = dir.path().join("orders.json");
    std::fs::write(&def, definition).expect("written");
    let imported = ddbsim::import::import(&[def], std::slice::from_ref(&metrics), None, "orders").expect("imports");
    for (name, text) in &imported.traces {
        std::fs::write(dir.path().join(name), text).expect("written");
    }
    let path = dir.path().join("orders.toml");
    std::fs::write(&path, &imported.scenario).expect("written");
    let sc = ddbsim::scenario::load(&path).expect("valid");
    let gsis: Vec<String> = sc.gsis.iter().map(|g| g.name.clone()).collect();
    let rec = read_history(&[metrics], &gsis).expect("a history");
    let before = backtest(&sc, &rec, &RunOptions::default()).expect("overlaps");
    let headline = ddbsim::scenario::load(Path::new("scenarios/headline.toml")).expect("valid");
    let mut g = c.benchmark_group("calibrate_day");
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    g.bench_function("2h_2_gsis_calibrate", |b| {
        b.iter(|| calibrate(&sc, &rec, &RunOptions::default(), &before).expect("fits something").1.parameters.len())
    });
    g.bench_function("headline_fast_24h", |b| {
        b.iter(|| ddbsim::simulate(&headline, &RunOptions { fidelity: Some(Fidelity::Fast), ..RunOptions::default() }))
    });
    g.finish();
}

criterion_group!(benches, bench_calibrate_day);
