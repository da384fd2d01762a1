//! Criterion benchmarks: `cargo bench`.

use criterion::criterion_main;

mod benchmarks;

criterion_main!(
    benchmarks::scenario_run::benches,
    benchmarks::micro::benches,
    benchmarks::sweep_scaling::benches,
    benchmarks::recommend::benches,
    benchmarks::check::benches
);
