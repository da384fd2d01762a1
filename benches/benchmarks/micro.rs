//! Micro benchmarks of the hot-loop pieces: admission, key choice, Poisson counts, the queue.

use criterion::{criterion_group, Criterion, Throughput};
use ddbsim::engine::queue::{EventQueue, Keyed};
use ddbsim::model::resource::Resource;
use ddbsim::model::Dim;
use ddbsim::scenario::{CapacitySpec, KeySpaceSpec, Popularity};
use ddbsim::traffic::keys::{key_hash, KeyDist};
use ddbsim::traffic::poisson::poisson;
use rand::{RngCore, SeedableRng};
use std::hint::black_box;

const N: u64 = 100_000;

struct E(u64, u64);
impl Keyed for E {
    fn key(&self) -> (u64, u64) {
        (self.0, self.1)
    }
}

fn micro(c: &mut Criterion) {
    let mut g = c.benchmark_group("micro");
    g.throughput(Throughput::Elements(N));
    g.bench_function("admission_try_take", |b| {
        let mut r = Resource::new("t".into(), false, &CapacitySpec::Provisioned { read: 3_000_000, write: 1 }, 0, true, false);
        b.iter(|| {
            for i in 0..N {
                let _ = black_box(r.try_take((i % 1_000) as usize, Dim::Read, 1_000));
            }
            r.end_second();
        });
    });
    g.bench_function("zipf_key_and_partition", |b| {
        let ks = KeySpaceSpec {
            name: "k".into(),
            cardinality: 10_000_000,
            popularity: Popularity::Zipf(0.8),
            value_names: vec![],
            shards: None,
        };
        let d = KeyDist::new(&ks);
        let r = Resource::new("t".into(), false, &CapacitySpec::Provisioned { read: 3_000_000, write: 1 }, 0, true, false);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        b.iter(|| {
            let mut acc = 0;
            for _ in 0..N {
                let k = d.sample(rng.next_u64(), rng.next_u64(), 0);
                acc += r.partition_of(key_hash(7, 0, k, 0));
            }
            black_box(acc)
        });
    });
    g.bench_function("poisson_50", |b| {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        b.iter(|| (0..N).map(|_| poisson(&mut rng, 50.0)).sum::<u64>());
    });
    g.bench_function("queue_push_pop", |b| {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        b.iter(|| {
            let mut q = EventQueue::default();
            for i in 0..N {
                q.push(E(rng.next_u64() % 1_000_000, i));
            }
            let mut n = 0;
            while q.pop_before(u64::MAX).is_some() {
                n += 1;
            }
            black_box(n)
        });
    });
    g.finish();
}

criterion_group!(benches, micro);
