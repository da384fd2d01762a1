//! Sweep speed-up: the same small sweep on a rayon pool of 1 thread and of 2 threads.

use criterion::{criterion_group, Criterion, SamplingMode, Throughput};
use ddbsim::study::sweep::{parse_set, prepare, run};
use ddbsim::{Catalog, RunOptions, SimDuration};
use std::path::Path;

fn bench_sweep(c: &mut Criterion) {
    let text = std::fs::read_to_string("scenarios/hot-date-sharding.toml").expect("bundled scenario");
    let sets = vec![parse_set("keys.day.shards.count=1,2,4,8").expect("set"), parse_set("keys.day.shards.by=random").expect("set")];
    let sweep = prepare(&text, Path::new("scenarios/hot-date-sharding.toml"), &sets, &Default::default(), None).expect("sweep");
    let base = RunOptions { duration: Some(SimDuration::from_secs(60)), ..RunOptions::default() };
    let catalog = Catalog::builtin();
    let mut g = c.benchmark_group("sweep");
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    // 4 points x 4 replications of one simulated minute at 3,000 writes/s.
    g.throughput(Throughput::Elements(16));
    for threads in [1usize, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool");
        g.bench_function(format!("16_runs_{threads}_threads"), |b| {
            b.iter(|| pool.install(|| run(&sweep, "bench", 1, 4, None, &base, &catalog)));
        });
    }
    g.finish();
}

criterion_group!(benches, bench_sweep);
