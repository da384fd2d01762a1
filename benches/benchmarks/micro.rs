//! Micro benchmarks of the hot-loop pieces: admission, key choice, Poisson counts, the queue.

use criterion::{criterion_group, Criterion, Throughput};
use ddbsim::bench_support::{poisson_draws, queue_push_pop, Admission, Keys};
use std::hint::black_box;

const N: u64 = 100_000;

fn micro(c: &mut Criterion) {
    let mut g = c.benchmark_group("micro");
    g.throughput(Throughput::Elements(N));
    g.bench_function("admission_try_take", |b| {
        let mut a = Admission::default();
        b.iter(|| black_box(a.run(N)));
    });
    g.bench_function("zipf_key_and_partition", |b| {
        let mut k = Keys::default();
        b.iter(|| black_box(k.run(N)));
    });
    g.bench_function("poisson_50", |b| b.iter(|| black_box(poisson_draws(2, N, 50.0))));
    g.bench_function("queue_push_pop", |b| b.iter(|| black_box(queue_push_pop(3, N))));
    g.finish();
}

criterion_group!(benches, micro);
