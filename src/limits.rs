//! Every DynamoDB number ddbsim uses, with the section of the behavioural specification
//! (`docs/dynamodb-behaviour.md`) and the AWS page it comes from.
//!
//! This module is the ground floor: it imports nothing, and every other module reads its
//! limits from here, so a number DynamoDB changes is changed in one place. Model choices (what
//! the documentation leaves open) are not here; they are the scenario defaults of
//! [`crate::scenario::defaults`].

// ------------------------------------------------------------------ capacity units (§1)

/// Bytes covered by one read unit: 4 KB (§1.1; Developer Guide, "Read/write capacity mode").
pub const READ_BLOCK_BYTES: u64 = 4_096;
/// Bytes covered by one write unit: 1 KB (§1.1).
pub const WRITE_BLOCK_BYTES: u64 = 1_024;
/// Largest item: 400 KB of attribute names and values (§1.1; "Service quotas").
pub const MAX_ITEM_BYTES: u64 = 400 * 1_024;
/// Most data one Query or Scan page reads before filtering: 1 MB (§1.2; "Query" and "Scan").
pub const PAGE_BYTES: u64 = 1_024 * 1_024;
/// Storage overhead of every item and index entry, bytes (§1.1, §1.3; "Item sizes").
pub const ITEM_OVERHEAD_BYTES: u64 = 100;
/// Bytes of keys in an index entry (base-table key plus index key), before projected
/// attributes, when the scenario does not size them from its items: a model choice, stated in
/// README.
pub const INDEX_KEY_BYTES: u64 = 100;
/// Most non-key attributes projected into a table's secondary indexes, all together ("Service
/// quotas": projected secondary index attributes per table).
pub const MAX_PROJECTED_ATTRIBUTES: usize = 100;
/// Most items in a BatchGetItem (§1.2).
pub const MAX_BATCH_GET_ITEMS: u64 = 100;
/// Most items in a BatchWriteItem (§1.2).
pub const MAX_BATCH_WRITE_ITEMS: u64 = 25;
/// Most actions in a TransactWriteItems or TransactGetItems (§1.2).
pub const MAX_TRANSACT_ITEMS: u64 = 100;

// ------------------------------------------------------------------ partitions (§2)

/// Read units a partition serves in a second (§2; "Partition key design").
pub const PARTITION_READ_CAP: u64 = 3_000;
/// Write units a partition serves in a second (§2).
pub const PARTITION_WRITE_CAP: u64 = 1_000;
/// One binary gigabyte, 2^30 bytes: the "GB" of DynamoDB's partition size and item-collection
/// limit (§15, Developer Guide LSI and partition pages).
pub const GIB: u64 = 1 << 30;
/// One decimal gigabyte, 10^9 bytes: the "GB" of storage billing (GB-months) and of a
/// scenario's `storage_gb`, as AWS's own cost calculator for DynamoDB computes it (raw bytes
/// plus 100 bytes an item, divided by 10^9).
pub const GB: u64 = 1_000_000_000;
/// Data a partition holds before it splits for size: 10 GB of 2^30 bytes (§2, §15).
pub const PARTITION_BYTES: u64 = 10 * GIB;
/// Data per partition when a table starts with data (`storage_gb`): three quarters of the 10 GB
/// at which a partition splits, the middle of a partition's life between a split (two halves of
/// 5 GB) and its next one. A model choice: seeding partitions full made every one split in the
/// first minute, which a table grown by its writes never does.
pub const SEED_PARTITION_BYTES: u64 = PARTITION_BYTES / 4 * 3;
/// Largest item collection of a table with an LSI: 10 GB of 2^30 bytes (§8, §15).
pub const COLLECTION_LIMIT_BYTES: u64 = 10 * GIB;

// ------------------------------------------------------------------ burst capacity (§3)

/// Seconds of unused capacity kept as burst credit (§3; "Burst and adaptive capacity").
pub const BURST_SECONDS: u64 = 300;

// ------------------------------------------------------------------ on-demand (§5)

/// Read request units a second a new on-demand table (or GSI) serves at once (§5).
pub const ON_DEMAND_DEFAULT_WARM_READ: u64 = 12_000;
/// Write request units a second a new on-demand table (or GSI) serves at once (§5).
pub const ON_DEMAND_DEFAULT_WARM_WRITE: u64 = 4_000;
/// Default per-table throughput quota, units a second per dimension (§5, §6.1).
pub const DEFAULT_TABLE_QUOTA: u64 = 40_000;
/// Default account-level quota on provisioned capacity per Region, units a second per
/// dimension, summed over every provisioned table and GSI (Developer Guide, ServiceQuotas;
/// DescribeLimits' AccountMax{Read,Write}CapacityUnits).
pub const DEFAULT_ACCOUNT_QUOTA: u64 = 80_000;
/// Switches from provisioned to on-demand allowed in a rolling 24 hours (§5; "Considerations
/// when switching capacity modes").
pub const MAX_SWITCHES_TO_ON_DEMAND_PER_DAY: usize = 4;
/// Minutes of consumption the console looks at to propose provisioned capacity (§5).
pub const SWITCH_ESTIMATE_MINUTES: usize = 30;
/// Target utilization the console assumes when it proposes provisioned capacity (§5).
pub const SWITCH_ESTIMATE_TARGET: f64 = 0.7;
/// Smallest capacity the console proposes after a switch to provisioned (§5).
pub const SWITCH_ESTIMATE_MIN: u64 = 5;

// ------------------------------------------------------------------ provisioned and auto scaling (§6)

/// Smallest provisioned capacity of a table or GSI, units (§6.1).
pub const MIN_CAPACITY_UNITS: u64 = 1;
/// Capacity decreases allowed at any time of a UTC day before the hourly rule applies (§6.1).
pub const FREE_DECREASES_PER_DAY: u32 = 4;
/// After those, one more decrease when there was none in this many seconds (§6.1): 27 a day.
pub const DECREASE_INTERVAL_S: i64 = 3_600;
/// One-minute datapoints above the target that fire the scale-out alarm (§6.2).
pub const SCALE_OUT_DATAPOINTS: usize = 2;
/// One-minute datapoints below the target minus [`SCALE_IN_MARGIN`] that fire the scale-in
/// alarm (§6.2).
pub const SCALE_IN_DATAPOINTS: usize = 15;
/// Share below the target of the scale-in alarm's threshold: 20 points (§6.2).
pub const SCALE_IN_MARGIN: f64 = 0.20;
/// Lowest target utilization Application Auto Scaling accepts, percent (§6.2).
pub const MIN_TARGET_PERCENT: f64 = 20.0;
/// Highest target utilization, percent (§6.2).
pub const MAX_TARGET_PERCENT: f64 = 90.0;

// ------------------------------------------------------------------ indexes (§7, §8)

/// Most GSIs on a table (default quota, §7).
pub const MAX_GSIS: usize = 20;
/// Most LSIs on a table (§8).
pub const MAX_LSIS: usize = 5;

// ------------------------------------------------------------------ vector indexes (§16)

/// Most vector indexes on a table (§16; Developer Guide, "Quotas": vector indexes).
pub const MAX_VECTOR_INDEXES: usize = 5;
/// Most dimensions of a vector index's embeddings (§16).
pub const MAX_VECTOR_DIMENSIONS: u64 = 4_096;
/// Bytes a dimension takes in the index: embeddings are stored as 32-bit floats (§16;
/// Developer Guide, VectorSearch.Requirements).
pub const VECTOR_BYTES_PER_DIMENSION: u64 = 4;
/// Vector write request bytes metered at least, per item written to a vector index, and
/// vector search request bytes per search (§16: 1 KB minimum a request).
pub const MIN_VECTOR_WRITE_BYTES: u64 = 1_024;
/// Most results a vector search returns (`TopK`, §16).
pub const MAX_VECTOR_TOP_K: u64 = 100;

// ------------------------------------------------------------------ streams (§10.2)

/// Most GetRecords calls a stream shard serves in a second (Developer Guide, "DynamoDB Streams":
/// 5 a second per shard), so a poller's interval on a shard is at least 200 ms.
pub const MAX_GET_RECORDS_PER_SHARD_PER_S: u64 = 5;

// ------------------------------------------------------------------ DAX (§10.2)

/// A DAX node's "normalized" cost of one cache hit of 1 KB, of one miss of 1 KB, and of one
/// write of 1 KB per node, as AWS's DAX sizing calculator counts them
/// (awslabs/amazon-dynamodb-tools `tools/dax_calculator`; an estimate).
pub const DAX_HIT_COST: f64 = 1.0;
/// A miss of 1 KB, normalized (see [`DAX_HIT_COST`]).
pub const DAX_MISS_COST: f64 = 10.0;
/// A write of 1 KB on each node, normalized (see [`DAX_HIT_COST`]).
pub const DAX_WRITE_COST: f64 = 25.0;

// ------------------------------------------------------------------ billing conventions (§10)

/// Hours in a billing month, as AWS's calculator counts them (§10.3).
pub const HOURS_PER_MONTH: f64 = 730.0;
/// Hours in a year (§10.1, reserved capacity's term).
pub const HOURS_PER_YEAR: f64 = 8_760.0;
/// DynamoDB Streams read request units free each month with the free tier (§10.2).
pub const STREAMS_FREE_PER_MONTH: f64 = 2_500_000.0;
/// Units in a reserved-capacity block (§10.1).
pub const RESERVED_BLOCK: u64 = 100;

// ------------------------------------------------------------------ ddbsim's own ceilings

/// Most provisioned, warm or maximum throughput of a table or GSI, units a second. AWS
/// publishes no maximum (the per-table quota of 40,000 is adjustable); ddbsim refuses more than
/// a billion, 25,000 times the default quota, so that its arithmetic cannot overflow.
pub const MAX_CAPACITY_UNITS: u64 = 1_000_000_000;
/// Most data in a table at the start, GB (10 PB: a million partitions).
pub const MAX_STORAGE_GB: f64 = 1e7;
/// Most requests a second of one pattern, scale factors included.
pub const MAX_REQUEST_RATE: f64 = 1e9;
/// Most bytes a second one pattern may read or write at its peak (rate x items x item size).
pub const MAX_PATTERN_BYTES_PER_SECOND: f64 = 1e15;
/// Longest simulated duration, seconds (366 days).
pub const MAX_DURATION_S: u64 = 366 * 86_400;
/// Longest scenario name, characters (it names the output folder).
pub const MAX_NAME_CHARS: usize = 100;
/// Largest scenario file read (long series belong in trace files, which have their own cap).
pub const MAX_SCENARIO_BYTES: u64 = 4 << 20;

/// The AWS Regions, commercial and GovCloud, a scenario may price (those without a built-in
/// catalog need `--prices`: `ddbsim prices update --region R`); China's are priced in yuan and
/// listed apart ([`CHINA_REGIONS`]). AWS's Region list as of December 2026.
pub const AWS_REGIONS: &[&str] = &[
    "us-east-1",
    "us-east-2",
    "us-west-1",
    "us-west-2",
    "af-south-1",
    "ap-east-1",
    "ap-east-2",
    "ap-south-1",
    "ap-south-2",
    "ap-southeast-1",
    "ap-southeast-2",
    "ap-southeast-3",
    "ap-southeast-4",
    "ap-southeast-5",
    "ap-southeast-6",
    "ap-southeast-7",
    "ap-northeast-1",
    "ap-northeast-2",
    "ap-northeast-3",
    "ca-central-1",
    "ca-west-1",
    "eu-central-1",
    "eu-central-2",
    "eu-west-1",
    "eu-west-2",
    "eu-west-3",
    "eu-south-1",
    "eu-south-2",
    "eu-north-1",
    "il-central-1",
    "me-south-1",
    "me-central-1",
    "mx-central-1",
    "sa-east-1",
    "us-gov-east-1",
    "us-gov-west-1",
];

/// AWS's China Regions (a separate partition, priced in yuan).
pub const CHINA_REGIONS: [&str; 2] = ["cn-north-1", "cn-northwest-1"];
