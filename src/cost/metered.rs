//! Units metered per request beside read and write units, that never throttle: what each
//! [`Meter`] meters, worked from the run's counts of served requests and the scenario, per
//! resource. The bill prices each at its own item ([`Meter::price_item`]), one line per
//! resource and unit.
//!
//! A vector index ([`crate::scenario::VectorIndexSpec`], §16) meters vector write request
//! bytes: every item a served put, delete, BatchWriteItem or TransactWriteItems writes to the
//! table replicates its vector to each of the table's vector indexes, at least 1 KB an item
//! (an update is taken to leave the vector alone: a model choice).

use crate::engine::RunResult;
use crate::scenario::{Meter, Op, Scenario};
use serde::Serialize;

/// One resource's use of one metered unit over the window.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeteredUsage {
    /// The resource billed (a vector index's name).
    pub resource: String,
    /// The unit.
    pub meter: Meter,
    /// Metered units (bytes of vector writes).
    pub quantity: f64,
}

impl MeteredUsage {
    /// What run `r` of `sc` metered, resource by resource.
    #[must_use]
    pub fn of(sc: &Scenario, r: &RunResult) -> Vec<Self> {
        sc.table
            .vector_indexes
            .iter()
            .map(|v| {
                let bytes: f64 = sc
                    .patterns
                    .iter()
                    .zip(&r.patterns)
                    .filter(|(p, _)| p.index.is_none())
                    .filter_map(|(p, t)| {
                        let per_item = match p.op {
                            Op::PutItem | Op::BatchWrite | Op::TransactWrite => v.write_bytes(false),
                            Op::DeleteItem => v.write_bytes(true),
                            _ => return None,
                        };
                        Some(t.served as f64 * p.items as f64 * per_item as f64)
                    })
                    .sum();
                MeteredUsage { resource: v.name.clone(), meter: Meter::VectorWriteBytes, quantity: bytes }
            })
            .collect()
    }
}
