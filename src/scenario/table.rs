//! `[table]`: the base table's class, capacity mode, auto scaling and the model's knobs.

use super::defaults;
use super::features::{BackupSpec, InsightsMode, StreamsSpec, TtlSpec};
use crate::time::SimDuration;

/// Table class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableClass {
    /// Standard.
    Standard,
    /// Standard-Infrequent Access.
    StandardIa,
}

/// The base table.
#[derive(Clone, Debug)]
pub struct TableSpec {
    /// Table name.
    pub name: String,
    /// Key space of the partition key.
    pub partition_key: usize,
    /// The names of its key attributes, if the scenario gives them.
    pub key_attributes: Vec<String>,
    /// Table class.
    pub table_class: TableClass,
    /// Bytes stored at the start.
    pub storage_bytes: u64,
    /// Capacity mode.
    pub capacity: CapacitySpec,
    /// Auto scaling (provisioned tables).
    pub autoscaling: Option<AutoscalingSpec>,
    /// Burst buckets start full.
    pub initial_burst_full: bool,
    /// Partition read and write limits are coupled linearly.
    pub linear_partition_limit: bool,
    /// A partition serves this many times its read cap of eventually consistent reads.
    pub ec_read_fanout: f64,
    /// UpdateTable latency within warm throughput.
    pub update_latency: SimDuration,
    /// Time a capacity-mode switch takes (the old mode applies meanwhile).
    pub switch_duration: SimDuration,
    /// How a GSI short of write capacity holds back base-table writes.
    pub gsi_backpressure: GsiBackpressure,
    /// UpdateTable latency when partitions must be added.
    pub partition_add_latency: SimDuration,
    /// Time a pre-warm takes.
    pub prewarm_delay: SimDuration,
    /// On-demand doubling time, minutes.
    pub on_demand_doubling_minutes: f64,
    /// Split for heat, if on.
    pub split_for_heat: Option<HeatSpec>,
    /// Backups, restores and exports (billed; they use no capacity).
    pub backups: BackupSpec,
    /// DynamoDB Streams, if on.
    pub streams: Option<StreamsSpec>,
    /// Time to live, if on.
    pub ttl: Option<TtlSpec>,
    /// Multi-region strong consistency: the latency it adds to each write.
    pub mrsc_write_latency: Option<SimDuration>,
    /// CloudWatch Contributor Insights on the table, if on.
    pub contributor_insights: Option<InsightsMode>,
    /// Vector indexes on the table.
    pub vector_indexes: Vec<VectorIndexSpec>,
}

/// A vector index: every item a put, delete or batch or transactional write writes to the
/// table replicates its vector to it, metered in vector write bytes (§16).
#[derive(Clone, Debug, PartialEq)]
pub struct VectorIndexSpec {
    /// Index name.
    pub name: String,
    /// Dimensions of the embeddings.
    pub dimensions: u64,
    /// What the index copies from the table beside the vector (its keys at least).
    pub projection: super::Projection,
    /// Share of the table's items that carry a vector.
    pub coverage: f64,
    /// `SearchVectors` calls on the index, if any.
    pub searches: Option<VectorSearches>,
}

/// The `SearchVectors` calls on a vector index: they meter vector search request bytes, use
/// none of the table's read units and never throttle (§16).
#[derive(Clone, Debug, PartialEq)]
pub struct VectorSearches {
    /// Searches per second over time.
    pub rate: super::RateShape,
    /// Results a search returns (`TopK`).
    pub top_k: u64,
    /// Vector search request bytes one search meters (at least 1 KB).
    pub bytes: u64,
    /// `bytes` is ddbsim's default (a measurement scaled to this index), not the scenario's.
    pub bytes_estimated: bool,
}

impl VectorSearches {
    /// The default bytes one search meters: a published measurement of `SearchVectors` on a
    /// 1,024-dimension index of 15,000 items, 60,560 + 565.5 x TopK bytes (TopK 1 to 100,
    /// R² 0.99997; another index of the same table metered 11 % more), scaled by
    /// `dimensions` / 1,024 (an assumption), at least 1 KB.
    #[must_use]
    pub fn default_bytes(dimensions: u64, top_k: u64) -> u64 {
        let at_1024 = 60_560.0 + 565.5 * top_k as f64;
        ((at_1024 * dimensions as f64 / 1_024.0).round() as u64).max(crate::limits::MIN_VECTOR_WRITE_BYTES)
    }
}

/// How a GSI short of write capacity holds back base-table writes (spec §7, §15, §16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GsiBackpressure {
    /// A base-table write is admitted only if every index it writes has the capacity at that
    /// moment (the Developer Guide's rule).
    Sync,
    /// Index writes queue in a buffer per index partition holding `seconds` of what it can
    /// apply, drained each second at the index's capacity; a full buffer rejects every
    /// base-table write.
    Buffered {
        /// Seconds of the partition's write rate a buffer holds.
        seconds: SimDuration,
    },
    /// Index writes are applied at once (reported as consumed), at most a partition's 1,000
    /// WU/s; what they take beyond the index's capacity and burst credit is owed, paid down
    /// each second at the index's capacity, and a partition owing `bound_units` rejects every
    /// base-table write until it pays (AWS's design-patterns workshop, measured).
    Absorb {
        /// Write units an index partition may owe.
        bound_units: u64,
    },
}

/// Split-for-heat settings (spec §2; thresholds are [UNKNOWN] in the docs, so configurable).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeatSpec {
    /// Share of a partition cap sustained to count as hot.
    pub threshold: f64,
    /// Minutes it must be sustained.
    pub window_minutes: u64,
    /// Seconds the split takes once decided.
    pub delay_s: u64,
}

impl Default for HeatSpec {
    fn default() -> Self {
        Self {
            threshold: defaults::HEAT_THRESHOLD,
            window_minutes: defaults::HEAT_WINDOW.as_secs() / 60,
            delay_s: defaults::HEAT_DELAY.as_secs(),
        }
    }
}

/// Capacity mode and settings of a table or GSI.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CapacitySpec {
    /// Provisioned capacity units per second.
    Provisioned {
        /// RCU.
        read: u64,
        /// WCU.
        write: u64,
    },
    /// On-demand.
    OnDemand {
        /// Warm read throughput, RRU/s.
        warm_read: u64,
        /// Warm write throughput, WRU/s.
        warm_write: u64,
        /// Maximum read request units per second, if set.
        max_read: Option<u64>,
        /// Maximum write request units per second, if set.
        max_write: Option<u64>,
        /// The table-level quota, [read, write] units per second: `table_quota` when stated
        /// (both), else `[account]`'s table-level quotas.
        table_quota: [u64; 2],
    },
}

/// Auto scaling settings.
#[derive(Clone, Debug)]
pub struct AutoscalingSpec {
    /// `aws` or `instant`.
    pub instant: bool,
    /// Read target, if scaled.
    pub read: Option<ScalingTargetSpec>,
    /// Write target, if scaled.
    pub write: Option<ScalingTargetSpec>,
    /// Alarm-to-action delay.
    pub alarm_delay: SimDuration,
}

/// One scalable target.
#[derive(Clone, Copy, Debug)]
pub struct ScalingTargetSpec {
    /// Minimum units.
    pub min: u64,
    /// Maximum units.
    pub max: u64,
    /// Target utilization, 0.2-0.9.
    pub target: f64,
    /// Scale-in cooldown.
    pub scale_in_cooldown: SimDuration,
    /// Scale-out cooldown.
    pub scale_out_cooldown: SimDuration,
}

/// New settings of one scalable target (`None`: unchanged).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScalingChange {
    /// New minimum units.
    pub min: Option<u64>,
    /// New maximum units.
    pub max: Option<u64>,
    /// New target utilization, 0.2-0.9.
    pub target: Option<f64>,
}

impl ScalingTargetSpec {
    /// These settings after `c`.
    #[must_use]
    pub fn with(mut self, c: &ScalingChange) -> Self {
        self.min = c.min.unwrap_or(self.min);
        self.max = c.max.unwrap_or(self.max);
        self.target = c.target.unwrap_or(self.target);
        self
    }
}
