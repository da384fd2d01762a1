//! `ddbsim check`'s default plan (1 h steady, 30 + 15 min burst, 4 h soak, the distribution) on
//! the headline scenario (50,000 requests/s, Zipf keys, 1,001 partitions) in fast fidelity.
//! Target (issue 14): at most 30 s on one core. Run with `RAYON_NUM_THREADS=1` for the
//! one-core figure.

use criterion::{criterion_group, Criterion, SamplingMode};
use ddbsim::study::check::{check, CheckOptions, Phase};
use ddbsim::{Catalog, RunOptions};
use std::path::Path;

fn bench_check(c: &mut Criterion) {
    let sc = ddbsim::scenario::load(Path::new("scenarios/headline.toml")).expect("the headline scenario loads");
    let catalog = Catalog::builtin();
    let o = CheckOptions { phases: Phase::ALL.to_vec(), base: RunOptions::default() };
    let mut g = c.benchmark_group("check");
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    g.bench_function("headline_default_plan", |b| b.iter(|| check(&sc, &o, &catalog).0.passed));
    g.finish();
}

criterion_group!(benches, bench_check);
