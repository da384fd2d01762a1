//! What a table or GSI holds in reserve beyond its capacity (spec §3, §16): banked burst
//! credit, and an index's room to absorb writes its capacity cannot take. A run records both
//! at its start and its end, so a study can tell a setting that holds because the load fits
//! its capacity from one that holds because a reserve carried the window.

use serde::Serialize;

/// Burst credit of one dimension, summed over the resource's partitions, milli-units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CreditLevel {
    /// Credit banked.
    pub banked: u64,
    /// The most it may bank (300 s of the capacity it banks; 0 when it banks none).
    pub cap: u64,
    /// Credit banked on the partitions below their cap: those that spent and are refilling
    /// (what a load still drawing on credit has left).
    pub on_spending: u64,
}

/// An index's write back-pressure state: its fullest partition, milli write units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct IndexLevel {
    /// Owed (absorbing) or queued (buffered) by the fullest partition.
    pub level: u64,
    /// The most a partition may hold before base-table writes are rejected.
    pub bound: u64,
    /// Absorbing (`gsi_backpressure = "absorb"`: a debt) rather than buffered (a queue).
    pub absorbing: bool,
}

/// What a resource holds in reserve at one instant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Reserve {
    /// Burst credit, by dimension (read, write).
    pub credit: [CreditLevel; 2],
    /// A GSI's write buffer or absorption debt, when back-pressure is buffered or absorbing.
    pub index: Option<IndexLevel>,
}
