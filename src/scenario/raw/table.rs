//! `[table]` as written: capacity mode, auto scaling, the model's knobs and the billed features.

use super::RawInsightsMode;
use schemars::JsonSchema;
use serde::Deserialize;

/// `[table]`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTable {
    /// Table name (reports only).
    pub name: Option<String>,
    /// The key space of the partition key.
    pub partition_key: String,
    /// The names of the table's key attributes, partition key then sort key
    /// (`["PK", "SK"]`): with items given by attributes or a sample item, they size the keys
    /// every index entry holds; default unnamed (an entry's keys at ddbsim's 100-byte allowance).
    pub key_attributes: Option<Vec<String>>,
    /// "standard" or "standard_ia"; default "standard".
    pub table_class: Option<RawTableClass>,
    /// Data already in the table at the start, in GB (decimal 10^9 bytes, as AWS bills); default 0.
    pub storage_gb: Option<f64>,
    /// Capacity mode and its settings.
    pub capacity: RawCapacity,
    /// Auto scaling of a provisioned table.
    pub autoscaling: Option<RawAutoscaling>,
    /// Burst credit at the start: "full" (the table was idle before the run) or "empty"; default "full".
    pub initial_burst: Option<RawInitialBurst>,
    /// Per-partition read/write coupling: "independent" or "linear" (r/3000 + w/1000 <= 1); default "independent".
    pub partition_limit_model: Option<RawPartitionLimitModel>,
    /// UpdateTable latency when the new capacity is within warm throughput; default "10s".
    pub update_latency: Option<String>,
    /// Time a capacity-mode switch takes; the old mode's limits (and bill) apply until it is
    /// done; default "5m".
    pub switch_duration: Option<String>,
    /// UpdateTable latency when partitions must be added; default "10m".
    pub partition_add_latency: Option<String>,
    /// Time a pre-warm takes to complete; default "10m".
    pub prewarm_delay: Option<String>,
    /// On-demand: time for instant capacity to double while demand asks for more; default "30m".
    pub on_demand_doubling: Option<String>,
    /// Split for heat: `false`, `true` or { threshold = 0.8, window = "5m", delay = "5m" }; default true.
    pub split_for_heat: Option<RawHeat>,
    /// Eventually consistent reads may be served by any replica: a partition serves this many
    /// times its read cap of them (1 to 3); default 1.5, AWS's measurement of one key.
    pub ec_read_fanout: Option<f64>,
    /// How a GSI short of write capacity holds back base-table writes: "absorb" (index writes
    /// are applied at once, up to a partition's 1,000 WU/s, and what they take beyond the
    /// index's capacity and burst credit is owed; once a partition owes `gsi_absorb_bound`
    /// units every base-table write is rejected until it pays down: AWS's measured runs),
    /// "sync" (a write is admitted only if every index it writes has the capacity now: the
    /// Developer Guide's sentence) or "buffered" (index writes queue in a buffer of
    /// `gsi_buffer` drained at the index's capacity); default "absorb".
    pub gsi_backpressure: Option<RawGsiBackpressure>,
    /// With buffered back-pressure: each index partition's buffer holds this many seconds of
    /// its write capacity (the index's, at most 1,000 WCU); default "5m".
    pub gsi_buffer: Option<String>,
    /// With absorbing back-pressure: the write units an index partition may owe beyond its
    /// capacity (and burst credit) before every base-table write is rejected; default 60000.
    pub gsi_absorb_bound: Option<u64>,
    /// Backups and exports, billed per GB (they do not use the table's capacity).
    pub backups: Option<RawBackups>,
    /// DynamoDB Streams on the table and the consumers that read it.
    pub streams: Option<RawStreams>,
    /// Time to live: a share of the items written expire and are deleted in the background.
    pub ttl: Option<RawTtl>,
    /// Global tables with multi-region strong consistency (MRSC): each write is acknowledged
    /// by another region before it succeeds, which adds `write_latency` to it, as a duration
    /// ("40ms"; yours to measure: AWS publishes none).
    pub multi_region_strong: Option<RawMrsc>,
    /// CloudWatch Contributor Insights on the table: "accessed_and_throttled_keys" or
    /// "throttled_keys" (billed per rule and per event).
    pub contributor_insights: Option<RawInsightsMode>,
    /// Vector indexes on the table (`[[table.vector_index]]`; on-demand tables only).
    #[serde(default)]
    pub vector_index: Vec<RawVectorIndex>,
}

/// `[[table.vector_index]]`: a vector index. Every put, delete, BatchWriteItem and
/// TransactWriteItems item written to the table writes its vector to the index (an update is
/// taken to leave the vector alone), metered in vector write bytes.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawVectorIndex {
    /// Index name.
    pub name: String,
    /// Dimensions of the embeddings, 1 to 4,096 (stored as 32-bit floats).
    pub dimensions: u64,
    /// What the index copies from the table beside the vector: "keys_only", "all" or
    /// { include_bytes = N }; default "keys_only" (the least a vector index holds).
    pub projection: Option<RawProjection>,
    /// Share of the table's items that carry a vector (only they are in the index); default 1.
    pub coverage: Option<f64>,
    /// `SearchVectors` calls on the index: { rate, top_k, search_bytes }; default none.
    pub searches: Option<RawVectorSearches>,
}

/// `searches = { rate = { constant = 20 }, top_k = 10, search_bytes = 70000 }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawVectorSearches {
    /// Searches per second over time, as a pattern's `rate` (not a closed loop).
    pub rate: super::traffic::RawRate,
    /// Results a search returns (`TopK`), 1 to 100; default 10.
    pub top_k: Option<u64>,
    /// Vector search request bytes one search meters; default a published measurement's
    /// 60,560 + 565.5 x top_k bytes at 1,024 dimensions, scaled by the index's dimensions (an
    /// estimate: the share of the index a search examines varies with the data).
    pub search_bytes: Option<u64>,
}

/// `[table.multi_region_strong]`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawMrsc {
    /// What a write's cross-region acknowledgement adds to its latency ("40ms").
    pub write_latency: String,
}

/// `[table.ttl]`: items written with an expiry attribute.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTtl {
    /// Share of the bytes written whose items carry an expiry, 0-1; default 1.
    pub share: Option<f64>,
    /// Time from a write to its item's expiry ("30d").
    pub after: String,
    /// Expired items are deleted within this time of their expiry, evenly spread (DynamoDB:
    /// "typically within two days"); default "48h".
    pub within: Option<String>,
}

/// `[table.streams]`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawStreams {
    /// "keys_only", "new_image", "old_image" or "new_and_old_images" (what a record carries,
    /// hence how many fit in a GetRecords call's 1 MB); default "new_and_old_images".
    pub view: Option<RawStreamView>,
    /// The consumers: `{ kind = "lambda" }`, `{ kind = "poller", poll_interval = "1s" }` (KCL or
    /// an SDK loop) or `{ kind = "global_tables" }`.
    #[serde(default)]
    pub consumers: Vec<RawStreamConsumer>,
}

/// What a stream record carries.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawStreamView {
    /// Key attributes only.
    KeysOnly,
    /// The item after the change.
    NewImage,
    /// The item before the change.
    OldImage,
    /// Both.
    NewAndOldImages,
}

/// One stream consumer.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawStreamConsumer {
    /// "lambda" (free), "poller" (every GetRecords call billed) or "global_tables" (free).
    pub kind: RawConsumerKind,
    /// A poller's wait between GetRecords calls on each shard, at least "200ms" (5 calls a
    /// second per shard); default "1s", the KCL's idle time between reads.
    pub poll_interval: Option<String>,
}

/// Kind of stream consumer.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawConsumerKind {
    /// A Lambda trigger: its reads are free.
    Lambda,
    /// A KCL application or SDK loop: each GetRecords call is a streams read request unit.
    Poller,
    /// Global tables replication: free.
    GlobalTables,
}

/// `[table.backups]`: point-in-time recovery, on-demand backups, restores and exports to S3.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBackups {
    /// Point-in-time recovery (continuous backups) on: billed per GB-month of the table's size,
    /// items and LSI entries; default false.
    #[serde(default)]
    pub pitr: bool,
    /// Point-in-time recovery's recovery period, 1 to 35 days (settable since January 2025);
    /// it does not change PITR's price, which is per GB-month of the table's size; default 35.
    pub recovery_days: Option<u32>,
    /// Scheduled on-demand backups, `{ every = "24h", retain = 30 }`: one every `every` from the
    /// start (and, in steady state, before it), the newest `retain` kept; each billed per
    /// GB-month of the table's size when it was taken.
    pub on_demand: Option<RawBackupSchedule>,
    /// One-off on-demand backups at these times from the start (`["30m"]`), kept past the window.
    #[serde(default)]
    pub backup_at: Vec<String>,
    /// Full exports to S3 at these times from the start: billed per GB of the table's size then.
    #[serde(default)]
    pub export_at: Vec<String>,
    /// Restores of the table (from a backup or a point in time, into a new table) at these
    /// times from the start: billed per GB of the table's size then.
    #[serde(default)]
    pub restore_at: Vec<String>,
}

/// A backup schedule.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBackupSchedule {
    /// Time between backups, e.g. "24h" (at least 1m).
    pub every: String,
    /// Backups kept (the newest), at least 1.
    pub retain: u32,
}

/// Split-for-heat settings.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawHeat {
    /// On with defaults, or off.
    Switch(bool),
    /// On with these settings.
    Settings(RawHeatSettings),
}

/// Split-for-heat settings.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawHeatSettings {
    /// Share of a partition cap (read or write) sustained to count as hot; default 0.8.
    pub threshold: Option<f64>,
    /// How long it must be sustained; default "5m" (whole minutes).
    pub window: Option<String>,
    /// How long the split takes once decided; default "5m".
    pub delay: Option<String>,
}

/// Table class.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawTableClass {
    /// DynamoDB Standard.
    Standard,
    /// DynamoDB Standard-Infrequent Access.
    StandardIa,
}

/// Burst credit at the start of the run.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawInitialBurst {
    /// 300 s of allocated capacity banked.
    Full,
    /// Nothing banked.
    Empty,
}

/// How a GSI short of write capacity holds back base-table writes.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawGsiBackpressure {
    /// The base write needs the index's capacity at once (the Developer Guide's rule).
    Sync,
    /// Index writes queue in a bounded buffer drained at the index's capacity.
    Buffered,
    /// Index writes are applied at once, above the index's capacity if need be, and what they
    /// take beyond it is owed, up to a bound in units (AWS's design-patterns workshop,
    /// measured).
    Absorb,
}

/// How a partition's read and write limits interact.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawPartitionLimitModel {
    /// 3,000 RU/s and 1,000 WU/s, each on its own.
    Independent,
    /// r/3000 + w/1000 <= 1 in each second.
    Linear,
}

/// `capacity = { mode = ..., ... }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "mode", rename_all = "snake_case", deny_unknown_fields)]
pub enum RawCapacity {
    /// Provisioned read and write capacity units.
    Provisioned {
        /// Read capacity units (RCU).
        read: i64,
        /// Write capacity units (WCU).
        write: i64,
    },
    /// On-demand.
    OnDemand {
        /// Warm read throughput (RRU/s the table serves instantly); default 12000.
        warm_read: Option<i64>,
        /// Warm write throughput (WRU/s); default 4000.
        warm_write: Option<i64>,
        /// Maximum read request units per second (OnDemandThroughput).
        max_read: Option<i64>,
        /// Maximum write request units per second (OnDemandThroughput).
        max_write: Option<i64>,
        /// The table's throughput quota, both dimensions; default 40000, or [account]'s table-level quotas when stated.
        table_quota: Option<i64>,
    },
}

/// `autoscaling = { policy, read, write }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAutoscaling {
    /// "aws" (CloudWatch alarms and delays, default) or "instant".
    pub policy: Option<RawScalingPolicy>,
    /// Read-capacity scalable target.
    pub read: Option<RawScalingTarget>,
    /// Write-capacity scalable target.
    pub write: Option<RawScalingTarget>,
    /// Delay between an alarm's last datapoint and the scaling action; default "90s".
    pub alarm_delay: Option<String>,
}

/// Scaling policy.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawScalingPolicy {
    /// Application Auto Scaling target tracking as DynamoDB runs it.
    Aws,
    /// The same thresholds with no delays (what metric-replay tools assume).
    Instant,
}

/// One scalable target.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawScalingTarget {
    /// Minimum capacity units.
    pub min: i64,
    /// Maximum capacity units.
    pub max: i64,
    /// Target utilization in percent, 20-90.
    pub target: f64,
    /// Scale-in cooldown; default "0s".
    pub scale_in_cooldown: Option<String>,
    /// Scale-out cooldown; default "0s".
    pub scale_out_cooldown: Option<String>,
}

impl Default for RawCapacity {
    /// On-demand with every setting at its default.
    fn default() -> Self {
        RawCapacity::OnDemand { warm_read: None, warm_write: None, max_read: None, max_write: None, table_quota: None }
    }
}

/// Index projection.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum RawProjection {
    /// Keys only.
    KeysOnly,
    /// Every attribute.
    All,
    /// Keys plus projected attributes of this many bytes.
    IncludeBytes(u64),
    /// Keys plus the attributes named (`{ include = ["total", "status"] }`), sized from the
    /// items of the patterns that write the index (given by attributes or a sample item).
    Include(Vec<String>),
}
