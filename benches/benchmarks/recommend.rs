//! `recommend` on 14 days of one table: a diurnal table (reads 100-800/s, writes 40-250/s)
//! with a nightly 30-minute batch of 1,500 writes/s, the shape of the import round-trip test.
//! Target (issue 13): one recommendation in at most 10 s on 2 cores.

use criterion::{criterion_group, Criterion, SamplingMode};
use ddbsim::study::recommend::{recommend, RecommendOptions};
use ddbsim::Catalog;
use std::path::Path;

fn fourteen_days() -> ddbsim::Scenario {
    ddbsim::scenario::parse_str(&ddbsim::bench_support::fourteen_day_table(false), Path::new("fourteen-days.toml")).expect("valid")
}

fn bench_recommend(c: &mut Criterion) {
    let sc = fourteen_days();
    let catalog = Catalog::builtin();
    let mut g = c.benchmark_group("recommend");
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    g.bench_function("14_days_1_table", |b| b.iter(|| recommend(&sc, &catalog, &RecommendOptions::default())));
    g.finish();
}

criterion_group!(benches, bench_recommend);
