//! The scenario file as written: serde structs that mirror the TOML one to one.
//!
//! Nothing here is checked beyond TOML types; [`super::validate`] turns a [`RawScenario`] into a
//! typed [`super::Scenario`]. Every struct rejects unknown keys. The doc comments are the
//! reference text of `ddbsim schema`.

mod traffic;

use schemars::JsonSchema;
use serde::Deserialize;
use std::collections::BTreeMap;

pub use traffic::*;

/// A whole scenario file.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    /// Name, duration, seed and fidelity of the run.
    pub scenario: RawMeta,
    /// Region and price options (used for the bill).
    #[serde(default)]
    pub pricing: RawPricing,
    /// The base table.
    pub table: RawTable,
    /// Key spaces: the values one key attribute takes, by name.
    #[serde(default)]
    pub keys: BTreeMap<String, RawKeySpace>,
    /// Global secondary indexes.
    #[serde(default)]
    pub gsi: Vec<RawGsi>,
    /// Local secondary indexes.
    #[serde(default)]
    pub lsi: Vec<RawLsi>,
    /// Entity types stored in the table (a single-table design): their keys, item collections,
    /// sizes and the indexes they write.
    #[serde(default)]
    pub entity: Vec<RawEntity>,
    /// Access patterns: the traffic.
    #[serde(default)]
    pub pattern: Vec<RawPattern>,
    /// The client: retries and service time.
    #[serde(default)]
    pub client: RawClient,
    /// Operational changes during the run.
    #[serde(default)]
    pub at: Vec<RawAt>,
    /// The plan and thresholds of `ddbsim check`.
    #[serde(default)]
    pub check: RawCheck,
    /// A DynamoDB Accelerator (DAX) cluster in front of the table.
    pub dax: Option<RawDax>,
    /// Global tables: a replica of the table in another region.
    #[serde(default)]
    pub replica: Vec<RawReplica>,
}

/// `[[replica]]`: a replica of the table in another region (global tables, version 2019.11.21).
/// Every write to the table is replicated to it as a replicated write, which its own
/// partitions must admit; what they cannot admit waits, and replication lags.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawReplica {
    /// The replica's region, one with a built-in price catalog (its prices bill the replica).
    pub region: String,
    /// Provisioned tables: the replica's read capacity, RCU (AWS lets it differ per replica;
    /// write capacity and auto scaling are the table's); default the table's.
    pub read_capacity: Option<u64>,
}

/// `[dax]`: a DAX cluster in front of the table. Eventually consistent GetItem, BatchGetItem,
/// Query and Scan patterns on the table go through it; a cache hit never reaches the table.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDax {
    /// "dax.r5.large", "dax.r5.xlarge", "dax.r5.2xlarge", "dax.r5.4xlarge", "dax.r5.8xlarge",
    /// "dax.r5.12xlarge", "dax.r5.16xlarge" or "dax.r5.24xlarge".
    pub node_type: String,
    /// Nodes in the cluster, 1 to 11 (3 or more for production: one per Availability Zone).
    pub nodes: u32,
    /// How long an item stays in the item cache (GetItem, BatchGetItem); default "5m".
    pub item_ttl: Option<String>,
    /// How long a result stays in the query cache (Query, Scan); default "5m".
    pub query_ttl: Option<String>,
    /// A fixed share of cached reads that hit, 0-1;
    /// default computed from the key popularity and the TTL (a TTL cache's hit ratio, an estimate).
    pub hit_ratio: Option<f64>,
}

/// `[check]`: the load-test plan and thresholds of `ddbsim check`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCheck {
    /// Expected peak, requests per second over all open-loop patterns (each pattern keeps its
    /// share); default: the sum of each pattern's highest rate.
    pub peak: Option<f64>,
    /// Length of the steady phase at the peak, whole minutes; default "1h".
    pub steady: Option<String>,
    /// Steady traffic before the burst, whole minutes; default "30m".
    pub warmup: Option<String>,
    /// Length of the burst, whole minutes; default "15m".
    pub burst: Option<String>,
    /// The burst's rate as a multiple of the peak; default 2.
    pub burst_factor: Option<f64>,
    /// Length of the soak phase (the scenario's own traffic shape), whole minutes; default "4h".
    pub soak: Option<String>,
    /// Largest share of attempts throttled, and of requests failed, in a phase (0.001 = 0.1 %); default 0.001.
    pub max_throttle: Option<f64>,
    /// Largest p99 latency of any minute of a phase, e.g. "100ms"; default "100ms".
    pub max_p99_latency: Option<String>,
    /// Largest excess of the busiest partition's consumption over the mean (0.2: within 20 %); default 0.2.
    pub max_partition_skew: Option<f64>,
}

/// An instant written as a string or as a TOML datetime (offset or local date-time), kept
/// as its text; a local date-time is read as UTC.
fn instant<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    match toml::Value::deserialize(d)? {
        toml::Value::String(s) => Ok(Some(s)),
        toml::Value::Datetime(t) => {
            let text = t.to_string();
            Ok(Some(match (t.date, t.time, t.offset) {
                (Some(_), Some(_), None) => format!("{text}Z"),
                _ => text,
            }))
        }
        // Through a buffering deserializer a datetime arrives as toml's private one-key table.
        toml::Value::Table(t) if t.len() == 1 && t.contains_key("$__toml_private_datetime") => match t.into_iter().next() {
            Some((_, toml::Value::String(s))) => {
                let local =
                    s.parse::<toml::value::Datetime>().ok().is_some_and(|t| t.date.is_some() && t.time.is_some() && t.offset.is_none());
                Ok(Some(if local { format!("{s}Z") } else { s }))
            }
            _ => Err(serde::de::Error::custom("expected an RFC 3339 instant or a TOML datetime")),
        },
        other => Err(serde::de::Error::custom(format!(
            "expected an RFC 3339 instant such as \"2026-03-02T00:00:00Z\" or a TOML datetime, not {other}"
        ))),
    }
}

/// `[scenario]`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawMeta {
    /// Output folder name; default: the file's stem.
    pub name: Option<String>,
    /// Free text.
    pub description: Option<String>,
    /// Simulated duration: "90s", "15m", "6h", "7d".
    pub duration: String,
    /// UTC instant the run starts, RFC 3339 as a string or a TOML datetime (`start =
    /// 2026-03-02T00:00:00Z`; one without an offset is UTC); anchors diurnal shapes and UTC
    /// days; default "2026-01-01T00:00:00Z".
    #[serde(default, deserialize_with = "instant")]
    #[schemars(with = "Option<String>")]
    pub start: Option<String>,
    /// Master seed: the same seed gives the same outputs, byte for byte; default 1.
    pub seed: Option<u64>,
    /// "fast" (hybrid) or "exact" (one event per request); default "fast".
    pub fidelity: Option<RawFidelity>,
}

/// Simulation fidelity.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawFidelity {
    /// Bulk-accept seconds that surely fit, replay the others request by request.
    Fast,
    /// Every request is an event.
    Exact,
}

/// `[pricing]`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPricing {
    /// AWS Region of the price catalog; default "us-east-1".
    pub region: Option<String>,
    /// Deduct the always-free 25 RCU / 25 WCU / 25 GB; default false.
    #[serde(default)]
    pub free_tier: bool,
    /// Price overrides by catalog item name (USD), e.g. `on_demand_write_per_million = 0.5`.
    #[serde(default)]
    pub overrides: BTreeMap<String, f64>,
    /// Whether the window's traffic is representative: "repeat" shows the window's cost
    /// extrapolated to a 730-hour month and a year, labelled as such; "none" shows the window's
    /// cost only; default "repeat" for a window of 24 h or more, "none" below.
    pub extrapolate: Option<RawExtrapolate>,
    /// A Savings Plan, `{ commitment_per_hour = 1.5, discount = 0.12 }`: USD an hour committed
    /// (after the discount) and the share off list it buys for on-demand and provisioned units;
    /// the discount is your assumption (AWS publishes rates per offering); default none.
    pub savings_plan: Option<RawSavingsPlan>,
}

/// `[pricing] savings_plan`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSavingsPlan {
    /// USD an hour, after the discount.
    pub commitment_per_hour: f64,
    /// Share off list price, between 0 and 1 (0.12 is 12 %).
    pub discount: f64,
}

/// `[pricing] extrapolate`.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawExtrapolate {
    /// The window repeats: monthly and yearly figures are shown as extrapolations.
    Repeat,
    /// The window is an event: only its own cost is shown.
    None,
}

/// `[table]`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTable {
    /// Table name (reports only).
    pub name: Option<String>,
    /// The key space of the partition key.
    pub partition_key: String,
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
    /// How a GSI short of write capacity holds back base-table writes: "sync" (a write is
    /// admitted only if every index it writes has the capacity now) or "buffered" (index writes
    /// queue in a bounded buffer drained at the index's capacity; once it is full every
    /// base-table write is rejected); default "sync".
    pub gsi_backpressure: Option<RawGsiBackpressure>,
    /// With buffered back-pressure: each index partition's buffer holds this many seconds of
    /// its write capacity (the index's, at most 1,000 WCU); default "5m".
    pub gsi_buffer: Option<String>,
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
    /// Index writes queue in a bounded buffer (AWS's design-patterns workshop).
    Buffered,
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
        /// Per-table throughput quota (table and its GSIs); default 40000.
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

/// `[keys.NAME]`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawKeySpace {
    /// Number of distinct values (not with `values`).
    pub cardinality: Option<u64>,
    /// Popularity of the values; default "uniform".
    pub popularity: Option<RawPopularity>,
    /// Explicit values with their weights (a low-cardinality key such as a status).
    pub values: Option<BTreeMap<String, f64>>,
    /// Write sharding: a suffix 0..count appended to the key.
    pub shards: Option<RawShards>,
    /// A sort key: each value's item collection holds `items` items, stored in sort-key order,
    /// so split for heat (and for size) can divide one value's collection across partitions
    /// (never on a table with an LSI).
    pub sort_keys: Option<RawSortKeys>,
}

/// `sort_keys = { items, spread }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSortKeys {
    /// Items per partition-key value.
    pub items: u64,
    /// How each value's traffic spreads over its items: "uniform" or "newest" (every request on
    /// the latest item, as with a timestamp sort key); default "uniform".
    pub spread: Option<RawSortSpread>,
}

/// How a value's traffic spreads over its sort keys.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawSortSpread {
    /// Every item equally likely.
    Uniform,
    /// Every request on the newest item (a timestamp or other increasing sort key).
    Newest,
}

/// Key popularity.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum RawPopularity {
    /// Every value equally likely.
    Uniform,
    /// Zipf with exponent s > 0: value of rank r has weight r^-s.
    Zipf(f64),
    /// A few hot values carry a share of the traffic; the rest is uniform.
    Hot(RawHot),
    /// Time-ordered keys (a date, a time bucket): all traffic on the current key, which changes every period.
    Sequential(String),
}

/// `{ hot = { keys, share } }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawHot {
    /// How many hot values.
    pub keys: u64,
    /// Share of the traffic they carry together, 0-1.
    pub share: f64,
}

/// `shards = { count, by }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawShards {
    /// Number of suffixes.
    pub count: u64,
    /// "random" suffix (reads query every shard) or "hash" (calculated suffix: a point read hits one shard); default "random".
    pub by: Option<RawShardBy>,
}

/// How the shard suffix is chosen.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawShardBy {
    /// A random suffix per write.
    Random,
    /// A suffix calculated from another attribute.
    Hash,
}

/// `[[gsi]]`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGsi {
    /// Index name.
    pub name: String,
    /// Key space of the index partition key.
    pub partition_key: String,
    /// "keys_only", "all" or { include_bytes = N }; default "all".
    pub projection: Option<RawProjection>,
    /// Share of items that carry the index key (sparse index < 1); default 1.
    pub coverage: Option<f64>,
    /// Provisioned capacity of the index (provisioned tables), or on-demand settings.
    pub capacity: Option<RawGsiCapacity>,
    /// Auto scaling of the index.
    pub autoscaling: Option<RawAutoscaling>,
    /// Propagation delay from the table to the index: { median = "100ms", p99 = "1s" } (log-normal).
    pub propagation: Option<RawPropagation>,
    /// CloudWatch Contributor Insights on the index: "accessed_and_throttled_keys" or
    /// "throttled_keys".
    pub contributor_insights: Option<RawInsightsMode>,
}

/// A CloudWatch Contributor Insights mode (AWS's `ContributorInsightsMode`).
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawInsightsMode {
    /// Every request, successful or throttled: the most accessed and most throttled keys.
    AccessedAndThrottledKeys,
    /// Throttled requests only: the most throttled keys.
    ThrottledKeys,
}

/// GSI propagation delay.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPropagation {
    /// Median delay; default "100ms".
    pub median: Option<String>,
    /// 99th-percentile delay; default "1s".
    pub p99: Option<String>,
}

/// GSI capacity: read/write units for a provisioned table, warm/max for an on-demand one.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGsiCapacity {
    /// Provisioned RCU.
    pub read: Option<i64>,
    /// Provisioned WCU.
    pub write: Option<i64>,
    /// On-demand warm read throughput.
    pub warm_read: Option<i64>,
    /// On-demand warm write throughput.
    pub warm_write: Option<i64>,
    /// On-demand maximum read request units per second.
    pub max_read: Option<i64>,
    /// On-demand maximum write request units per second.
    pub max_write: Option<i64>,
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
}

/// `[[entity]]`: one entity type of a single-table design.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawEntity {
    /// Entity type name (`User`, `Order`).
    pub name: String,
    /// Key space of its partition-key values; default the table's partition key. Entity types
    /// that share a key space share its item collections (`USER#id` holding a profile and
    /// its orders).
    pub partition_key: Option<String>,
    /// Items of this type under each partition-key value (its sort-key values), and how the
    /// traffic spreads over them: { items = 20, spread = "newest" }; default one item.
    pub sort_keys: Option<RawSortKeys>,
    /// Item size in bytes, or { mean, sigma }; default 1024. A pattern naming the entity
    /// takes it unless it gives its own.
    pub item_bytes: Option<RawSize>,
    /// The GSIs whose key attributes this entity's items carry, by index name: the key space of
    /// the values it writes there (`{ Inverted = "product" }`), or `{ key, share }` when only a
    /// share of its items carry the attribute (a sparse index). Several entity types writing
    /// different key spaces into one GSI overload it.
    #[serde(default)]
    pub gsi: BTreeMap<String, RawEntityIndex>,
    /// The LSIs whose sort-key attribute this entity's items carry; default every LSI.
    pub lsi: Option<Vec<String>>,
    /// Items of this type under particular partition-key values at the start, by value
    /// (`{ power_user = 2_300_000 }`, or `{ "user#1" = ... }` for the busiest value of a key
    /// space without named values): a collection already large. Other values hold
    /// `sort_keys.items`.
    #[serde(default)]
    pub start_items: BTreeMap<String, u64>,
}

/// The values an entity writes into one GSI.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawEntityIndex {
    /// Key space name: every item carries the index key.
    Key(String),
    /// `{ key, share }`.
    Sparse(RawEntityIndexSparse),
}

/// `{ key, share }`: a sparse index entry.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawEntityIndexSparse {
    /// Key space of the values written into the index partition key.
    pub key: String,
    /// Share of the entity's items that carry the index key, 0-1; default 1.
    pub share: Option<f64>,
}

/// `[[lsi]]`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawLsi {
    /// Index name.
    pub name: String,
    /// "keys_only", "all" or { include_bytes = N }.
    pub projection: Option<RawProjection>,
}

impl Default for RawCapacity {
    /// On-demand with every setting at its default.
    fn default() -> Self {
        RawCapacity::OnDemand { warm_read: None, warm_write: None, max_read: None, max_write: None, table_quota: None }
    }
}
