//! Units metered per request beside read and write units, that never throttle: what each
//! [`Meter`] meters, worked from the run's counts of served requests and the scenario, per
//! resource. The bill prices each at its own item ([`Meter::price_item`]), one line per
//! resource and unit.
//!
//! A vector index ([`crate::scenario::VectorIndexSpec`], §16, §17) meters vector write request
//! bytes: every item a served put, delete, BatchWriteItem or TransactWriteItems writes to the
//! table replicates its vector and what the index projects to each of the table's vector
//! indexes that holds it (`coverage` of them), at least 1 KB an item (an update is taken to
//! leave the vector alone: a model choice). Its storage is a resource of its own
//! ([`super::usage`]). Its `SearchVectors` calls
//! ([`crate::scenario::VectorSearches`]) meter vector search request bytes: the searches the
//! rate shape gives over the window (its expectation, second by second: searches never
//! throttle, so nothing the engine decides changes them) times the bytes one search meters.

use crate::engine::RunResult;
use crate::format::fmt_num;
use crate::model::request::{mean_bytes, vector_write_bytes};
use crate::scenario::{Meter, Op, RateShape, Scenario};
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
    /// How the quantity was worked when it is not counted from the run (searches: their count
    /// times the bytes of one, and whether those bytes are ddbsim's estimate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub basis: Option<String>,
}

impl MeteredUsage {
    /// What run `r` of `sc` metered, resource by resource.
    #[must_use]
    pub fn of(sc: &Scenario, r: &RunResult) -> Vec<Self> {
        let mut out: Vec<Self> = sc
            .table
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
                            Op::PutItem | Op::BatchWrite | Op::TransactWrite => vector_write_bytes(v, mean_bytes(p.size), false),
                            Op::DeleteItem => vector_write_bytes(v, mean_bytes(p.size), true),
                            _ => return None,
                        };
                        Some(t.served as f64 * p.items as f64 * v.coverage * per_item as f64)
                    })
                    .sum();
                MeteredUsage { resource: v.name.clone(), meter: Meter::VectorWriteBytes, quantity: bytes, basis: None }
            })
            .collect();
        for v in &sc.table.vector_indexes {
            if let Some(s) = &v.searches {
                let n = searches(&s.rate, sc.duration.as_secs(), sc.start_unix_s);
                let basis = format!(
                    "{} searches x {} bytes{}",
                    fmt_num(n.round()),
                    fmt_num(s.bytes as f64),
                    if s.bytes_estimated {
                        " (estimate: ddbsim's default bytes a search at TopK and dimensions; set search_bytes)"
                    } else {
                        ""
                    }
                );
                out.push(MeteredUsage {
                    resource: v.name.clone(),
                    meter: Meter::VectorSearchBytes,
                    quantity: n * s.bytes as f64,
                    basis: Some(basis),
                });
            }
        }
        out
    }
}

/// Searches a rate shape sends over `seconds` from `start_unix_s`: the sum of its rate in
/// each second.
#[must_use]
fn searches(rate: &RateShape, seconds: u64, start_unix_s: i64) -> f64 {
    let sod = start_unix_s.rem_euclid(86_400) as u64;
    (0..seconds).map(|s| rate.at(s, sod)).sum()
}
