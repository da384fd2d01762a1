//! Criterion benchmarks: `cargo bench`.

use criterion::criterion_main;

mod benchmarks;

/// The binary's allocator, so the benchmarks measure what `ddbsim` runs on.
#[global_allocator]
static ALLOCATOR: ddbsim::alloc::Allocator = ddbsim::alloc::Allocator;

criterion_main!(
    benchmarks::scenario_run::benches,
    benchmarks::micro::benches,
    benchmarks::sweep_scaling::benches,
    benchmarks::recommend::benches,
    benchmarks::check::benches,
    benchmarks::backtest::benches,
    benchmarks::calibrate_day::benches,
    benchmarks::lsi::benches,
    benchmarks::account::benches
);
