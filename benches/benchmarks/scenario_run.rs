//! Whole-scenario benchmarks: the headline scenario of docs/performance.md (50,000 requests/s,
//! Zipf keys, 1,000 partitions) in both fidelities. Throughput is in simulated requests.

use criterion::{criterion_group, Criterion, SamplingMode, Throughput};
use ddbsim::engine::{simulate, RunOptions};
use ddbsim::scenario::{parse_str, Fidelity, Scenario};
use ddbsim::time::SimDuration;
use std::hint::black_box;
use std::path::Path;

/// The headline scenario of docs/performance.md, as bundled.
pub(crate) const HEADLINE: &str = include_str!("../../scenarios/headline.toml");

fn headline() -> Scenario {
    parse_str(HEADLINE, Path::new("headline.toml")).expect("headline scenario")
}

fn run(sc: &Scenario, f: Fidelity, secs: u64) -> u64 {
    let r = simulate(sc, &RunOptions { fidelity: Some(f), duration: Some(SimDuration::from_secs(secs)), ..RunOptions::default() });
    r.rec.patterns.iter().map(|p| p.attempts).sum()
}

fn bench_headline(c: &mut Criterion) {
    let sc = headline();
    let mut g = c.benchmark_group("headline");
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    // Fast: the whole 24 h (4.32 G requests).
    g.throughput(Throughput::Elements(50_000 * 86_400));
    g.bench_function("fast_24h", |b| b.iter(|| black_box(run(&sc, Fidelity::Fast, 86_400))));
    // Exact: 10 simulated minutes (30 M requests); the 24 h figure scales linearly.
    g.throughput(Throughput::Elements(50_000 * 600));
    g.bench_function("exact_10m", |b| b.iter(|| black_box(run(&sc, Fidelity::Exact, 600))));
    g.finish();
}

criterion_group!(benches, bench_headline);
