//! The hot-loop pieces the micro benchmarks time (`benches/benchmarks/micro.rs`). Hidden from
//! the documentation: not part of the library's interface.

use crate::engine::queue::{EventQueue, Keyed};
use crate::model::resource::Resource;
use crate::model::Dim;
use crate::scenario::{CapacitySpec, KeySpaceSpec, Popularity};
use crate::traffic::keys::{key_hash, KeyDist};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Admission of one-unit reads on a provisioned table of 1,000 partitions.
pub struct Admission(Resource);

impl Default for Admission {
    fn default() -> Self {
        Self(Resource::new("t".into(), false, &CapacitySpec::Provisioned { read: 3_000_000, write: 1 }, 0, true, false))
    }
}

impl Admission {
    /// `n` attempts spread over the partitions, then the second closes; returns those admitted.
    pub fn run(&mut self, n: u64) -> u64 {
        let ok = (0..n).filter(|i| self.0.try_take((i % 1_000) as usize, Dim::Read, 1_000).is_ok()).count() as u64;
        self.0.end_second();
        ok
    }
}

/// Zipf(0.8) keys over 10 million values, hashed to a partition of 1,000.
pub struct Keys {
    dist: KeyDist,
    res: Resource,
    rng: ChaCha8Rng,
}

impl Default for Keys {
    fn default() -> Self {
        let ks = KeySpaceSpec {
            name: "k".into(),
            cardinality: 10_000_000,
            popularity: Popularity::Zipf(0.8),
            value_names: vec![],
            shards: None,
            sort_keys: None,
        };
        Self {
            dist: KeyDist::new(&ks, 0),
            res: Resource::new("t".into(), false, &CapacitySpec::Provisioned { read: 3_000_000, write: 1 }, 0, true, false),
            rng: ChaCha8Rng::seed_from_u64(1),
        }
    }
}

impl Keys {
    /// `n` key draws; returns the sum of their partitions.
    pub fn run(&mut self, n: u64) -> usize {
        (0..n).map(|_| self.res.partition_of(key_hash(7, 0, self.dist.sample(self.rng.next_u64(), self.rng.next_u64(), 0), 0))).sum()
    }
}

/// `n` Poisson counts of mean `lambda` from a seeded stream; returns their sum.
#[must_use]
pub fn poisson_draws(seed: u64, n: u64, lambda: f64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| crate::traffic::poisson::poisson(&mut rng, lambda)).sum()
}

struct E(u64, u64);

impl Keyed for E {
    fn key(&self) -> (u64, u64) {
        (self.0, self.1)
    }
}

/// Pushes `n` items at random times on the retry queue and pops them all; returns how many.
#[must_use]
pub fn queue_push_pop(seed: u64, n: u64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut q = EventQueue::default();
    for i in 0..n {
        q.push(E(rng.next_u64() % 1_000_000, i));
    }
    std::iter::from_fn(|| q.pop_before(u64::MAX)).count() as u64
}
