//! `[[gsi]]` and `[[lsi]]`: secondary indexes and their projections.

use super::features::InsightsMode;
use super::table::{AutoscalingSpec, CapacitySpec};

/// Index projection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Projection {
    /// Keys only.
    KeysOnly,
    /// All attributes.
    All,
    /// Keys and this many bytes of attributes.
    IncludeBytes(u64),
}

impl Projection {
    /// Bytes of an index entry of an item of `item_bytes` (spec §1.3), its keys at the
    /// 100-byte allowance: the keys, plus the projected attributes (all of the item for
    /// `ALL`). Storage adds 100 bytes of overhead.
    #[must_use]
    pub const fn entry_bytes(self, item_bytes: u64) -> u64 {
        match self {
            Projection::KeysOnly => crate::limits::INDEX_KEY_BYTES,
            Projection::All => item_bytes,
            Projection::IncludeBytes(b) => crate::limits::INDEX_KEY_BYTES + b,
        }
    }
}

/// A GSI.
#[derive(Clone, Debug)]
pub struct GsiSpec {
    /// Name.
    pub name: String,
    /// Key space of its partition key (a multi-attribute key's: the tuple's own key space).
    pub partition_key: usize,
    /// A multi-attribute key's attributes are correlated (entities writing it default to it).
    pub correlated: bool,
    /// Projection.
    pub projection: Projection,
    /// The names of its key attributes, if the scenario gives them.
    pub key_attributes: Vec<String>,
    /// The non-key attributes an `INCLUDE` projection names, if it names them (its
    /// `IncludeBytes` is then 0 and each entry is sized from its item).
    pub projected: Vec<String>,
    /// Share of items carrying the index key.
    pub coverage: f64,
    /// Bytes in the index at the start when the scenario states them (`storage_gb`).
    pub storage_bytes: Option<u64>,
    /// Capacity (inherits the table's mode).
    pub capacity: CapacitySpec,
    /// Auto scaling.
    pub autoscaling: Option<AutoscalingSpec>,
    /// Created during the run by an `add_gsi` action, not at the start.
    pub added_during_run: bool,
    /// Median propagation delay, µs.
    pub propagation_median_us: u64,
    /// 99th-percentile propagation delay, µs.
    pub propagation_p99_us: u64,
    /// CloudWatch Contributor Insights on the index, if on.
    pub contributor_insights: Option<InsightsMode>,
    /// [read, write]: the history it was imported from has no series of that dimension.
    pub no_history: [bool; 2],
}

/// An LSI.
#[derive(Clone, Debug)]
pub struct LsiSpec {
    /// Name.
    pub name: String,
    /// Projection.
    pub projection: Projection,
    /// The name of its sort key attribute, if the scenario gives it.
    pub key_attributes: Vec<String>,
    /// The non-key attributes an `INCLUDE` projection names, if it names them.
    pub projected: Vec<String>,
}
