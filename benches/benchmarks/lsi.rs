//! A real table as its owner runs it (issue 44): an imported provisioned table of 42 million
//! items with two GSIs and an LSI, one day, run with and without its LSI, and `recommend` on it;
//! the fast 24 h headline in the same group for the ratio README reports. The LSI's item
//! collections are tracked only where the day's writes can bring one near 1 GB: here none.

use criterion::{criterion_group, Criterion, SamplingMode};
use ddbsim::study::recommend::{recommend, RecommendOptions};
use ddbsim::{parse_str, simulate, Catalog, RunOptions, Scenario, SimDuration};
use std::hint::black_box;
use std::path::Path;

const IMPORTED: &str = include_str!("../../scenarios/imported-lsi-day.toml");

fn scenario(text: &str) -> Scenario {
    parse_str(text, Path::new("imported-lsi-day.toml")).expect("valid")
}

fn bench_lsi(c: &mut Criterion) {
    let with = scenario(IMPORTED);
    let without = scenario(&IMPORTED.replace("[[lsi]]\nname = \"ByTotal\"\nprojection = \"keys_only\"\n", ""));
    assert!(!with.lsis.is_empty() && without.lsis.is_empty());
    let headline = scenario(super::scenario_run::HEADLINE);
    let catalog = Catalog::builtin();
    let mut g = c.benchmark_group("lsi");
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    let run = |sc: &Scenario| simulate(sc, &RunOptions::default()).totals().attempts;
    g.bench_function("imported_day_with_lsi", |b| b.iter(|| black_box(run(&with))));
    g.bench_function("imported_day_without_lsi", |b| b.iter(|| black_box(run(&without))));
    g.bench_function("imported_day_recommend", |b| b.iter(|| black_box(recommend(&with, &catalog, &RecommendOptions::default()).pick)));
    g.bench_function("headline_fast_24h", |b| {
        b.iter(|| black_box(simulate(&headline, &RunOptions { duration: Some(SimDuration::from_secs(86_400)), ..RunOptions::default() })))
    });
    g.finish();
}

criterion_group!(benches, bench_lsi);
