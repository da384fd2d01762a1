//! Scenario files: TOML parsed into [`raw`] structs, then validated into the typed [`Scenario`].
//!
//! The engine sees only the typed structs: durations are [`SimDuration`], key spaces and indexes
//! are indexes into vectors, every number has been range-checked. Problems carry the file, line,
//! column and key path ([`ScenarioError`]).

pub mod defaults;
pub mod locate;
pub mod raw;
pub mod validate;

use crate::time::SimDuration;
use crate::units::Consistency;
use std::fmt;
use std::path::{Path, PathBuf};

pub use validate::{load, load_with, parse_str, parse_str_with, validate, LoadOptions};

/// A validated scenario.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Output folder name.
    pub name: String,
    /// Free text.
    pub description: String,
    /// Where it was read from.
    pub source_path: PathBuf,
    /// The file's text, kept for the report.
    pub source_text: String,
    /// Simulated duration.
    pub duration: SimDuration,
    /// UTC instant of the start, seconds since the Unix epoch.
    pub start_unix_s: i64,
    /// Master seed.
    pub seed: u64,
    /// Fidelity.
    pub fidelity: Fidelity,
    /// Pricing options.
    pub pricing: PricingSpec,
    /// The base table.
    pub table: TableSpec,
    /// Key spaces.
    pub key_spaces: Vec<KeySpaceSpec>,
    /// Global secondary indexes.
    pub gsis: Vec<GsiSpec>,
    /// Local secondary indexes.
    pub lsis: Vec<LsiSpec>,
    /// Entity types of a single-table design (empty when the scenario declares none).
    pub entities: Vec<EntitySpec>,
    /// Access patterns.
    pub patterns: Vec<PatternSpec>,
    /// The client.
    pub client: ClientSpec,
    /// Operational changes, sorted by time.
    pub actions: Vec<ActionSpec>,
    /// The plan and thresholds of `ddbsim check`.
    pub check: CheckSpec,
    /// A DAX cluster in front of the table, if any.
    pub dax: Option<DaxSpec>,
    /// Global tables: the table's replicas in other regions.
    pub replicas: Vec<ReplicaSpec>,
}

/// `[[replica]]`: a replica of the table in another region.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplicaSpec {
    /// Region.
    pub region: String,
    /// Provisioned read capacity of the replica, if it differs from the table's.
    pub read_capacity: Option<u64>,
}

impl ReplicaSpec {
    /// The replica's name in results and reports: `table@region`.
    #[must_use]
    pub fn name(&self, table: &str) -> String {
        format!("{table}@{}", self.region)
    }
}

/// `[check]`: the load-test plan and its thresholds.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckSpec {
    /// Expected peak, requests per second over the open-loop patterns (`None`: the sum of their
    /// highest rates).
    pub peak: Option<f64>,
    /// Steady phase length.
    pub steady: SimDuration,
    /// Steady traffic before the burst.
    pub warmup: SimDuration,
    /// Burst length.
    pub burst: SimDuration,
    /// Burst rate over the peak.
    pub burst_factor: f64,
    /// Soak phase length.
    pub soak: SimDuration,
    /// Largest throttled share of attempts (and failed share of requests).
    pub max_throttle: f64,
    /// Largest p99 latency of a minute.
    pub max_p99_latency: SimDuration,
    /// Largest excess of the busiest partition over the mean.
    pub max_partition_skew: f64,
}

impl Default for CheckSpec {
    fn default() -> Self {
        Self {
            peak: None,
            steady: defaults::CHECK_STEADY,
            warmup: defaults::CHECK_WARMUP,
            burst: defaults::CHECK_BURST,
            burst_factor: defaults::CHECK_BURST_FACTOR,
            soak: defaults::CHECK_SOAK,
            max_throttle: defaults::CHECK_MAX_THROTTLE,
            max_p99_latency: defaults::CHECK_MAX_P99,
            max_partition_skew: defaults::CHECK_MAX_SKEW,
        }
    }
}

/// Simulation fidelity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fidelity {
    /// Hybrid: seconds that surely fit are accepted in bulk, the others replayed request by request.
    Fast,
    /// Every request is an event.
    Exact,
}

impl fmt::Display for Fidelity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fidelity::Fast => "fast",
            Fidelity::Exact => "exact",
        })
    }
}

/// Pricing options (the catalog itself belongs to the cost model).
#[derive(Clone, Debug)]
pub struct PricingSpec {
    /// Region of the catalog.
    pub region: String,
    /// Deduct the always-free tier.
    pub free_tier: bool,
    /// Price overrides, by catalog item, USD.
    pub overrides: Vec<(crate::cost::item::PriceItem, f64)>,
    /// The window's traffic is taken as representative: bills show it extrapolated to a month
    /// and a year (`[pricing] extrapolate = "repeat"`); otherwise only the window's cost.
    pub extrapolate: bool,
    /// A Savings Plan on eligible usage.
    pub savings_plan: Option<crate::cost::SavingsPlan>,
}

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
    /// Buffered GSI back-pressure: each index partition buffers this many seconds of its write
    /// capacity (`None`: synchronous back-pressure).
    pub gsi_buffer: Option<SimDuration>,
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
}

/// A CloudWatch Contributor Insights mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InsightsMode {
    /// Every request (successful or throttled) is an event; the most accessed and most throttled
    /// keys are reported.
    AccessedAndThrottledKeys,
    /// Throttled requests only.
    ThrottledKeys,
}

impl InsightsMode {
    /// Of the raw mode.
    #[must_use]
    pub fn of(raw: raw::RawInsightsMode) -> Self {
        match raw {
            raw::RawInsightsMode::AccessedAndThrottledKeys => InsightsMode::AccessedAndThrottledKeys,
            raw::RawInsightsMode::ThrottledKeys => InsightsMode::ThrottledKeys,
        }
    }

    /// The rules it creates on a table or index: most accessed and most throttled partition
    /// keys (`PKC`, `PKT`), and the same for partition and sort key (`SKC`, `SKT`) when there
    /// is a sort key; the throttled-keys mode only the throttled ones.
    #[must_use]
    pub fn rules(self, sort_key: bool) -> u32 {
        let per_key = if self == InsightsMode::AccessedAndThrottledKeys { 2 } else { 1 };
        per_key * if sort_key { 2 } else { 1 }
    }
}

/// `[table.ttl]`: a share of the bytes written expire `after` their write and are deleted,
/// evenly spread, within `within` of expiring, using no capacity and billed nothing; their
/// index entries go with them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TtlSpec {
    /// Share of the bytes written that expire, 0-1.
    pub share: f64,
    /// Time from a write to its expiry.
    pub after: SimDuration,
    /// Deletes are spread evenly over this time after the expiry.
    pub within: SimDuration,
}

/// `[dax]`: a DAX cluster in front of the table (see [`crate::model::dax`]).
#[derive(Clone, Debug, PartialEq)]
pub struct DaxSpec {
    /// Node type.
    pub node_type: DaxNodeType,
    /// Nodes, 1-11.
    pub nodes: u32,
    /// Item cache TTL.
    pub item_ttl: SimDuration,
    /// Query cache TTL.
    pub query_ttl: SimDuration,
    /// A fixed hit ratio, or none to compute it from the key popularity and the TTL.
    pub hit_ratio: Option<f64>,
}

/// A DAX node type: its ceiling and its price item. The ceilings are the
/// per-node capacities of AWS's DAX sizing calculator (awslabs/amazon-dynamodb-tools,
/// `tools/dax_calculator`), in "normalized" requests a second (a 1 KB cache hit is 1, a miss
/// 10, a write 25 per node), an estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DaxNodeType {
    /// dax.r5.large.
    R5Large,
    /// dax.r5.xlarge.
    R5Xlarge,
    /// dax.r5.2xlarge.
    R5X2large,
    /// dax.r5.4xlarge.
    R5X4large,
    /// dax.r5.8xlarge.
    R5X8large,
    /// dax.r5.12xlarge.
    R5X12large,
    /// dax.r5.16xlarge.
    R5X16large,
    /// dax.r5.24xlarge.
    R5X24large,
}

impl DaxNodeType {
    /// Every node type, smallest first.
    pub const ALL: [DaxNodeType; 8] = [
        DaxNodeType::R5Large,
        DaxNodeType::R5Xlarge,
        DaxNodeType::R5X2large,
        DaxNodeType::R5X4large,
        DaxNodeType::R5X8large,
        DaxNodeType::R5X12large,
        DaxNodeType::R5X16large,
        DaxNodeType::R5X24large,
    ];

    /// The API name, "dax.r5.large".
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            DaxNodeType::R5Large => "dax.r5.large",
            DaxNodeType::R5Xlarge => "dax.r5.xlarge",
            DaxNodeType::R5X2large => "dax.r5.2xlarge",
            DaxNodeType::R5X4large => "dax.r5.4xlarge",
            DaxNodeType::R5X8large => "dax.r5.8xlarge",
            DaxNodeType::R5X12large => "dax.r5.12xlarge",
            DaxNodeType::R5X16large => "dax.r5.16xlarge",
            DaxNodeType::R5X24large => "dax.r5.24xlarge",
        }
    }

    /// The node type called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Normalized requests a second one node serves (the calculator's capacity for one node;
    /// its figures for 3, 5 and 11 nodes are these times the node count).
    #[must_use]
    pub const fn ceiling_per_node(self) -> u64 {
        match self {
            DaxNodeType::R5Large => 75_000,
            DaxNodeType::R5Xlarge => 150_000,
            DaxNodeType::R5X2large => 300_000,
            DaxNodeType::R5X4large => 600_000,
            _ => 1_000_000,
        }
    }

    /// The price item of a node-hour.
    #[must_use]
    pub const fn price_item(self) -> crate::cost::PriceItem {
        use crate::cost::PriceItem as P;
        match self {
            DaxNodeType::R5Large => P::DaxR5LargeHour,
            DaxNodeType::R5Xlarge => P::DaxR5XlargeHour,
            DaxNodeType::R5X2large => P::DaxR5X2largeHour,
            DaxNodeType::R5X4large => P::DaxR5X4largeHour,
            DaxNodeType::R5X8large => P::DaxR5X8largeHour,
            DaxNodeType::R5X12large => P::DaxR5X12largeHour,
            DaxNodeType::R5X16large => P::DaxR5X16largeHour,
            DaxNodeType::R5X24large => P::DaxR5X24largeHour,
        }
    }
}

/// `[table.streams]`: one shard per partition of the table (shards follow splits); each
/// poller calls GetRecords on every shard once per `poll_interval`, or more often when a call's
/// 1,000 records or 1 MB cannot carry what the shard wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamsSpec {
    /// KB a record carries per KB of item written: 0 keys only, 1 one image, 2 both.
    pub image_factor: f64,
    /// Each poller's interval between calls on a shard, ms.
    pub pollers_ms: Vec<u64>,
    /// Free consumers (Lambda triggers, global tables replication).
    pub free_consumers: u32,
}

/// `[table.backups]`: what is billed for backups, restores and exports. They run with no
/// impact on the table's performance (AWS developer guide, on-demand backup and restore).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BackupSpec {
    /// Point-in-time recovery on for the whole window.
    pub pitr: bool,
    /// Scheduled on-demand backups: (seconds between backups, backups kept).
    pub schedule: Option<(u64, u32)>,
    /// One-off on-demand backups, seconds from the start.
    pub backup_at: Vec<u64>,
    /// Full exports to S3, seconds from the start.
    pub export_at: Vec<u64>,
    /// Restores, seconds from the start.
    pub restore_at: Vec<u64>,
}

impl BackupSpec {
    /// Nothing to bill.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
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
        /// Per-table quota, per dimension.
        table_quota: u64,
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

/// A key space.
#[derive(Clone, Debug)]
pub struct KeySpaceSpec {
    /// Name.
    pub name: String,
    /// Number of distinct values.
    pub cardinality: u64,
    /// Popularity.
    pub popularity: Popularity,
    /// Names of explicit values, in weight order (for reports).
    pub value_names: Vec<String>,
    /// Write sharding.
    pub shards: Option<Shards>,
    /// A sort key: items per value and how traffic spreads over them.
    pub sort_keys: Option<SortKeys>,
}

/// The sort keys of each partition-key value: its item collection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortKeys {
    /// Items per partition-key value.
    pub items: u64,
    /// Every request goes to the newest item (an increasing sort key) rather than a uniform one.
    pub newest: bool,
}

/// Key popularity.
#[derive(Clone, Debug, PartialEq)]
pub enum Popularity {
    /// Equal weights.
    Uniform,
    /// Zipf exponent.
    Zipf(f64),
    /// `keys` hot values sharing `share` of the traffic.
    Hot {
        /// Hot values.
        keys: u64,
        /// Their share, 0-1.
        share: f64,
    },
    /// Time-ordered keys: all traffic on the current period's key.
    Sequential(SimDuration),
    /// Explicit weights, one per value (normalised).
    Weights(Vec<f64>),
}

/// Write sharding of a key space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shards {
    /// Suffixes.
    pub count: u64,
    /// Reads must query every shard (random suffix) rather than one (calculated suffix).
    pub random: bool,
}

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

/// A GSI.
#[derive(Clone, Debug)]
pub struct GsiSpec {
    /// Name.
    pub name: String,
    /// Key space of its partition key.
    pub partition_key: usize,
    /// Projection.
    pub projection: Projection,
    /// Share of items carrying the index key.
    pub coverage: f64,
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
}

/// An entity type of a single-table design.
#[derive(Clone, Debug, PartialEq)]
pub struct EntitySpec {
    /// Name.
    pub name: String,
    /// Key space of its partition-key values.
    pub key_space: usize,
    /// Items under each partition-key value.
    pub items: u64,
    /// Where its items start in each value's item collection: the items of the entity types
    /// declared before it on the same key space come first (their sort-key prefixes sort
    /// first: a model choice, declaration order).
    pub offset: u64,
    /// Traffic goes to the newest of its items rather than a uniform one.
    pub newest: bool,
    /// Item sizes.
    pub size: SizeSpec,
    /// The GSIs its items write: (GSI position, key space written, share of items carrying it).
    pub gsi: Vec<EntityIndex>,
    /// The LSIs (positions) its items carry the sort key of.
    pub lsi: Vec<usize>,
    /// Partition-key values (ranks) that start with another number of its items, in rank order.
    pub start_items: Vec<(u64, u64)>,
}

/// What an entity's items write into one GSI.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EntityIndex {
    /// GSI position.
    pub gsi: usize,
    /// Key space of the values written into the index partition key.
    pub key_space: usize,
    /// Share of the entity's items that carry the index key.
    pub share: f64,
}

impl EntitySpec {
    /// Items of this type in the table: one set per partition-key value.
    #[must_use]
    pub fn count(&self, key_spaces: &[KeySpaceSpec]) -> u64 {
        let mut n = key_spaces[self.key_space].cardinality.saturating_mul(self.items);
        for &(_, items) in &self.start_items {
            n = n.saturating_sub(self.items).saturating_add(items);
        }
        n
    }

    /// Items of this type under partition-key value `rank` at the start.
    #[must_use]
    pub fn items_at(&self, rank: u64) -> u64 {
        self.start_items.iter().find(|&&(r, _)| r == rank).map_or(self.items, |&(_, n)| n)
    }

    /// What it writes into GSI `g`, if its items carry that index's key.
    #[must_use]
    pub fn in_gsi(&self, g: usize) -> Option<EntityIndex> {
        self.gsi.iter().copied().find(|e| e.gsi == g)
    }
}

/// An LSI.
#[derive(Clone, Debug)]
pub struct LsiSpec {
    /// Name.
    pub name: String,
    /// Projection.
    pub projection: Projection,
}

/// DynamoDB operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// GetItem.
    GetItem,
    /// Query.
    Query,
    /// Scan.
    Scan,
    /// PutItem.
    PutItem,
    /// UpdateItem.
    UpdateItem,
    /// DeleteItem.
    DeleteItem,
    /// BatchGetItem.
    BatchGet,
    /// BatchWriteItem.
    BatchWrite,
    /// TransactGetItems.
    TransactGet,
    /// TransactWriteItems.
    TransactWrite,
}

impl Op {
    /// Every operation, in declaration order (`op as usize` indexes it).
    pub const ALL: [Op; 10] = [
        Op::GetItem,
        Op::Query,
        Op::Scan,
        Op::PutItem,
        Op::UpdateItem,
        Op::DeleteItem,
        Op::BatchGet,
        Op::BatchWrite,
        Op::TransactGet,
        Op::TransactWrite,
    ];

    /// Does it consume write capacity?
    #[must_use]
    pub const fn is_write(self) -> bool {
        matches!(self, Op::PutItem | Op::UpdateItem | Op::DeleteItem | Op::BatchWrite | Op::TransactWrite)
    }

    /// The API name.
    #[must_use]
    pub const fn api_name(self) -> &'static str {
        match self {
            Op::GetItem => "GetItem",
            Op::Query => "Query",
            Op::Scan => "Scan",
            Op::PutItem => "PutItem",
            Op::UpdateItem => "UpdateItem",
            Op::DeleteItem => "DeleteItem",
            Op::BatchGet => "BatchGetItem",
            Op::BatchWrite => "BatchWriteItem",
            Op::TransactGet => "TransactGetItems",
            Op::TransactWrite => "TransactWriteItems",
        }
    }
}

/// Which resource a pattern reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexRef {
    /// A GSI, by position.
    Gsi(usize),
    /// An LSI, by position (charged to the table).
    Lsi(usize),
}

/// Item sizes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SizeSpec {
    /// Every item this many bytes.
    Fixed(u64),
    /// Log-normal with this mean (bytes) and sigma, clamped to 1..=400 KB.
    LogNormal {
        /// Mean bytes.
        mean: f64,
        /// Sigma of the underlying normal.
        sigma: f64,
    },
}

impl SizeSpec {
    /// Mean bytes.
    #[must_use]
    pub fn mean(&self) -> f64 {
        match *self {
            SizeSpec::Fixed(b) => b as f64,
            SizeSpec::LogNormal { mean, .. } => mean,
        }
    }
}

/// Index write kind (spec §1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexWrite {
    /// 1 write.
    Insert,
    /// 2 writes.
    KeyChange,
    /// 1 write.
    Update,
    /// 1 write: a new entry under value `value` (rank in the index key space).
    InsertAt {
        /// Rank of the value.
        value: u64,
    },
    /// 2 writes: the entry leaves value `from` (a delete on its partition) for value `to` (a
    /// put on its), by rank in the index key space.
    Move {
        /// Rank of the value left.
        from: u64,
        /// Rank of the value reached.
        to: u64,
    },
}

impl IndexWrite {
    /// Index writes per base write.
    #[must_use]
    pub const fn writes(self) -> u64 {
        match self {
            IndexWrite::Insert | IndexWrite::InsertAt { .. } | IndexWrite::Update => 1,
            IndexWrite::KeyChange | IndexWrite::Move { .. } => 2,
        }
    }
}

/// A rate shape: requests per second as a function of time.
#[derive(Clone, Debug, PartialEq)]
pub enum RateShape {
    /// Constant.
    Constant(f64),
    /// Daily sine.
    Diurnal {
        /// Lowest.
        min: f64,
        /// Highest.
        max: f64,
        /// Second of the UTC day of the highest rate.
        peak_s_of_day: u64,
    },
    /// A spike.
    Spike {
        /// Outside.
        base: f64,
        /// During.
        peak: f64,
        /// Start, s.
        at_s: u64,
        /// Length, s.
        len_s: u64,
    },
    /// A ramp.
    Ramp {
        /// Rate before and at the start.
        from: f64,
        /// Rate at the end and after.
        to: f64,
        /// Start, s.
        start_s: u64,
        /// Length, s.
        over_s: u64,
    },
    /// Piecewise constant steps (start second, rate), sorted, first at 0.
    Steps(Vec<(u64, f64)>),
    /// A closed loop of client threads (no open-loop arrivals).
    ClosedLoop(ClosedLoop),
}

/// Client threads that each wait for an answer before sending the next request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosedLoop {
    /// Threads.
    pub threads: u64,
    /// Requests in all.
    pub total: u64,
    /// Pause after an answer, µs.
    pub think_us: u64,
    /// Stop at the first failed request.
    pub stop_on_failure: bool,
}

/// An access pattern.
#[derive(Clone, Debug)]
pub struct PatternSpec {
    /// Name.
    pub name: String,
    /// Operation.
    pub op: Op,
    /// The entity type it reads or writes (a position in `Scenario::entities`).
    pub entity: Option<usize>,
    /// Key space of the partition-key values touched (`None` for a scan).
    pub key_space: Option<usize>,
    /// Index read instead of the table.
    pub index: Option<IndexRef>,
    /// Global tables: the replica (number in `Scenario::replicas`) the requests are sent to;
    /// `None`: the table in its own region.
    pub replica: Option<usize>,
    /// Item sizes.
    pub size: SizeSpec,
    /// Items per request.
    pub items: u64,
    /// Read consistency (reads only).
    pub consistency: Consistency,
    /// Rate shape.
    pub rate: RateShape,
    /// Index writes per request: (GSI position, kind).
    pub index_writes: Vec<(usize, IndexWrite)>,
    /// Read-after-write delay for stale-read reporting (GSI queries only).
    pub after_write: Option<SimDuration>,
    /// Share of its writes whose condition fails (0 without a condition).
    pub condition_fails: f64,
    /// Query or scan: the most items a page returns (`Limit`).
    pub limit: Option<u64>,
    /// Scan: parallel scan segments (1: a plain scan).
    pub segments: u64,
    /// A read of a write-sharded key: every shard (`Some(true)`), one (`Some(false)`), or as
    /// the key space's `shards.by` says (`None`).
    pub fanout_all: Option<bool>,
}

/// The client: retries and latency.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClientSpec {
    /// Attempts in all, the first included.
    pub attempts: u32,
    /// Backoff base for throttling errors.
    pub throttle_base: SimDuration,
    /// Largest backoff.
    pub cap: SimDuration,
    /// Retry quota tokens per client instance (0 = none).
    pub quota: u64,
    /// Tokens a throttling retry costs.
    pub throttle_cost: u64,
    /// Full jitter (a uniform draw up to the backoff) or none (the whole backoff, as older
    /// SDKs waited).
    pub jitter: bool,
    /// Service time of a successful attempt.
    pub service_time: SimDuration,
    /// SDK client instances.
    pub instances: u64,
    /// Preset name, for reports.
    pub preset: &'static str,
}

/// An operational change.
#[derive(Clone, Debug)]
pub struct ActionSpec {
    /// When.
    pub time: SimDuration,
    /// What.
    pub action: Action,
}

/// Operational changes.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Set provisioned capacity of the table (`index = None`) or a GSI.
    SetCapacity {
        /// GSI position.
        index: Option<usize>,
        /// New RCU.
        read: Option<u64>,
        /// New WCU.
        write: Option<u64>,
    },
    /// Switch capacity mode.
    SwitchMode {
        /// To on-demand (else to provisioned).
        on_demand: bool,
        /// Provisioned RCU and WCU given with a switch to provisioned (as UpdateTable takes
        /// them); without them, the console's estimate from the last 30 minutes.
        units: Option<[u64; 2]>,
    },
    /// Raise warm throughput.
    Prewarm {
        /// GSI position.
        index: Option<usize>,
        /// Read units.
        read: Option<u64>,
        /// Write units.
        write: Option<u64>,
    },
    /// A scheduled scaling action: new settings of the table's (`index = None`) or a GSI's
    /// scalable targets, read and write.
    SetAutoscaling {
        /// GSI position.
        index: Option<usize>,
        /// Read and write changes.
        changes: [Option<ScalingChange>; 2],
    },
    /// Create a GSI.
    AddGsi(usize),
    /// Multiply a pattern's rate.
    ScaleRate {
        /// Pattern position.
        pattern: usize,
        /// Factor.
        factor: f64,
    },
}

/// One problem in a scenario file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// Key path, e.g. `pattern[2].rate.spike.peak`.
    pub key: String,
    /// What is wrong.
    pub message: String,
}

/// A scenario that could not be loaded. Fatal for the run; `validate` lists every problem.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The file could not be read.
    #[error("{path}: cannot read the scenario: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file has problems.
    #[error("{}", fmt_problems(path, problems))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Every problem found.
        problems: Vec<Problem>,
    },
}

fn fmt_problems(path: &Path, problems: &[Problem]) -> String {
    problems.iter().map(|p| format!("{}:{}:{}: {}: {}", path.display(), p.line, p.column, p.key, p.message)).collect::<Vec<_>>().join("\n")
}
