//! The hot-loop pieces the micro benchmarks time (`benches/benchmarks/micro.rs`). Hidden from
//! the documentation: not part of the library's interface.

pub mod history;

use crate::engine::queue::{EventQueue, Keyed};
use crate::model::resource::Resource;
use crate::model::Dim;
use crate::rng::SimRng;
use crate::scenario::{CapacitySpec, KeySpaceSpec, Popularity};
use crate::traffic::keys::{key_hash, KeyDist};
use rand::{RngCore, SeedableRng};

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
    rng: SimRng,
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
            popularity_from: crate::scenario::PopularityFrom::Stated,
            cardinality_from: crate::scenario::CardinalityFrom::Stated,
        };
        Self {
            dist: KeyDist::new(&ks, 0),
            res: Resource::new("t".into(), false, &CapacitySpec::Provisioned { read: 3_000_000, write: 1 }, 0, true, false),
            rng: SimRng::seed_from_u64(1),
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
    let mut rng = SimRng::seed_from_u64(seed);
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
    let mut rng = SimRng::seed_from_u64(seed);
    let mut q = EventQueue::default();
    for i in 0..n {
        q.push(E(rng.next_u64() % 1_000_000, i));
    }
    std::iter::from_fn(|| q.pop_before(u64::MAX)).count() as u64
}

/// Fourteen days of one table, the shape `ddbsim import`'s round trip and the `recommend`
/// bench use: reads 100-800 and writes 40-250 a second over a day peaking at 15:00 UTC, and a
/// 30-minute batch of 1,500 writes a second every night at 02:00; provisioned 800 / 300,
/// auto-scaled (min 100 / 50, max 4,000, target 70 %) when `autoscaled`.
#[must_use]
pub fn fourteen_day_table(autoscaled: bool) -> String {
    let mut steps = String::new();
    for d in 0..14 {
        steps.push_str(&format!("[\"{}m\", 1500], [\"{}m\", 0], ", (d * 24 + 2) * 60, (d * 24 + 2) * 60 + 30));
    }
    let scaling = if autoscaled {
        "autoscaling = { read = { min = 100, max = 4000, target = 70 }, write = { min = 50, max = 4000, target = 70 } }\n"
    } else {
        ""
    };
    format!(
        r#"[scenario]
duration = "14d"
start = "2026-11-01T00:00:00Z"
seed = 5
[table]
name = "Orders"
partition_key = "k"
capacity = {{ mode = "provisioned", read = 800, write = 300 }}
{scaling}[keys.k]
cardinality = 10000000
[[pattern]]
name = "read"
op = "get_item"
item_bytes = 1024
consistency = "strong"
rate = {{ diurnal = {{ min = 100, max = 800, peak = "15:00" }} }}
[[pattern]]
name = "write"
op = "put_item"
item_bytes = 1024
rate = {{ diurnal = {{ min = 40, max = 250, peak = "15:00" }} }}
[[pattern]]
name = "batch"
op = "put_item"
item_bytes = 1024
rate = {{ steps = [["0s", 0], {steps}] }}
"#
    )
}
