//! Micro benchmarks: placeholder until written.
use criterion::{criterion_group, Criterion};
fn noop(_c: &mut Criterion) {}
criterion_group!(benches, noop);
