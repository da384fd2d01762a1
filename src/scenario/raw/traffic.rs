//! The traffic sections as written: `[[pattern]]` with its rate shapes, `[client]` and `[[at]]`.

use schemars::JsonSchema;
use serde::Deserialize;
use std::collections::BTreeMap;

/// `[[pattern]]`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPattern {
    /// Pattern name (unique).
    pub name: String,
    /// The DynamoDB operation.
    pub op: RawOp,
    /// The entity type (`[[entity]]`) this pattern reads or writes: its key, item size and
    /// index writes become the pattern's defaults.
    pub entity: Option<String>,
    /// Key space of the partition-key values this pattern touches; default the table's (or index's) partition key.
    pub key: Option<String>,
    /// Query or scan a GSI or LSI instead of the table.
    pub index: Option<String>,
    /// Item size in bytes, or { mean, sigma } for a log-normal size; default 1024.
    pub item_bytes: Option<RawSize>,
    /// Items per request (query, scan, batch and transaction operations); default 1.
    pub items: Option<u64>,
    /// Query or scan: `Limit`, the items a page returns at most (each page a request of its
    /// own, as a user paging through results sends them); default none (1 MB pages).
    pub limit: Option<u64>,
    /// Scan: a parallel scan in this many segments (`TotalSegments`), each a request over its
    /// share of the hash range and of the items; default 1.
    pub segments: Option<u64>,
    /// A get or query of a write-sharded key: "one" (the suffix is calculated, one shard is
    /// read) or "all" (every shard is queried, e.g. a date-wide read); default by the key
    /// space's `shards.by`.
    pub fanout: Option<RawFanout>,
    /// "eventual", "strong" or "transactional"; default "eventual", as in DynamoDB and the SDKs
    /// (`transact_get` is always transactional).
    pub consistency: Option<RawConsistency>,
    /// Requests per second over time.
    pub rate: RawRate,
    /// Index writes each request causes, by index name: "insert", "key_change", "update" or "none";
    /// default by the operation: a put writes every GSI (its coverage of items), a delete removes
    /// the entries, an update rewrites ALL and INCLUDE entries (an assumption) and no KEYS_ONLY one;
    /// an entity's `gsi` narrows the indexes.
    #[serde(default)]
    pub index_writes: BTreeMap<String, RawIndexWrite>,
    /// For a query on a GSI: how long after the item's write the read comes ("50ms"); the
    /// report gives the share of such reads that miss the item because it has not propagated.
    pub after_write: Option<String>,
    /// Share of the writes whose condition expression fails (0-1): ConditionalCheckFailed
    /// for put/update/delete (the write units are still consumed), a cancelled transaction for
    /// `transact_write`; default 0.
    pub condition_fails: Option<f64>,
    /// Global tables: the region the requests are sent to, a `[[replica]]`'s; default the
    /// table's own. Writes there replicate to the table and every other replica.
    pub region: Option<String>,
    /// A `transact_write`'s items in other tables of the account (`[[pattern.also]]`), each
    /// charged on its own table; a throttle on any item cancels the whole transaction.
    #[serde(default)]
    pub also: Vec<RawAlso>,
    /// A `get_item` whose answer is followed by a write to another table of the account
    /// (`[pattern.then]`): the write is sent when the read is answered, retried on its own,
    /// and the request is served when both are.
    pub then: Option<RawAlso>,
}

/// `[[pattern.also]]`: items of a transaction in another table of the account (a folder run
/// as one account, `ddbsim run DIR`).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAlso {
    /// The other table, by its `[table] name`; in the same Region.
    pub table: String,
    /// What the transaction does to each of these items: "put_item", "update_item" or
    /// "delete_item"; default "put_item".
    pub op: Option<RawOp>,
    /// Key space of that table for the items' partition-key values;
    /// default that table's partition key.
    pub key: Option<String>,
    /// Item size in bytes, or { mean, sigma }; default 1024.
    pub item_bytes: Option<RawSize>,
    /// Items of the transaction in that table; default 1.
    pub items: Option<u64>,
    /// Index writes each item causes, by that table's GSI names: "insert", "key_change",
    /// "update" or "none"; default by the operation, as a pattern's.
    #[serde(default)]
    pub index_writes: BTreeMap<String, RawIndexWrite>,
}

/// Operations.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawOp {
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

/// Which shards of a write-sharded key a read touches.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawFanout {
    /// One shard (a calculated suffix).
    One,
    /// Every shard.
    All,
}

/// Read consistency.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawConsistency {
    /// Eventually consistent.
    Eventual,
    /// Strongly consistent.
    Strong,
    /// Transactional.
    Transactional,
}

/// Index write kind.
#[derive(Clone, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawIndexWrite {
    /// The entry moves from one value of the index key to another (a status that changes):
    /// a delete on the old value's partition and a put on the new one's.
    Move(RawMove),
    /// A new entry under one value of the index key (a new order is `PENDING`): 1 index
    /// write, on that value's partition.
    InsertAt(String),
    /// A new entry: 1 index write.
    Insert,
    /// The index key changes: delete + put, 2 index writes.
    KeyChange,
    /// Projected attributes change: 1 index write.
    Update,
    /// The write removes the index key attribute (an update's REMOVE, or a put of the item
    /// without it): its entry is deleted, 1 index write.
    RemoveKey,
    /// The index is not touched.
    None,
}

/// `{ move = { from = "PENDING", to = "SHIPPED" } }`.
#[derive(Clone, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RawMove {
    /// The value the entry leaves (one of the index key space's explicit `values`).
    pub from: String,
    /// The value it moves to.
    pub to: String,
}

/// Item size.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawSize {
    /// A fixed size in bytes.
    Fixed(i64),
    /// A log-normal size.
    LogNormal {
        /// Mean size in bytes.
        mean: f64,
        /// Sigma of the underlying normal.
        sigma: f64,
    },
    /// The size of a sample item: a DynamoDB JSON file beside the scenario, or the item
    /// inline (`{ item = { PK = { S = "USER#1" }, total = { N = "129.95" } } }`).
    Item {
        /// The file, relative to the scenario's folder, or the item's attributes.
        item: RawSampleItem,
    },
    /// The size of an item given by its attributes' types and sizes:
    /// `{ attributes = { PK = "S:24", price = "N:6", tags = "SS:5x12", payload = "B:1000..3000" } }`
    /// (a range is uniform between its ends).
    Attributes {
        /// Each attribute's type and size, by name.
        attributes: serde_json::Map<String, serde_json::Value>,
    },
}

/// A sample item: a file or the item itself.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawSampleItem {
    /// A DynamoDB JSON file beside the scenario.
    File(String),
    /// The item's attributes in DynamoDB JSON.
    Inline(serde_json::Map<String, serde_json::Value>),
}

/// Request rate shapes (requests per second).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum RawRate {
    /// A steady rate.
    Constant(f64),
    /// A daily sine between min and max, highest at `peak` (UTC "HH:MM").
    Diurnal(RawDiurnal),
    /// `base`, then `peak` from `at` for `for`.
    Spike(RawSpike),
    /// A linear ramp from `from` to `to` over `over`, starting at `start` (default 0s), then holding `to`.
    Ramp(RawRamp),
    /// Piecewise constant: [["0s", 100], ["1h", 500]].
    Steps(Vec<(String, f64)>),
    /// A CSV file of `time_s,rate` rows (relative to the scenario file), piecewise constant.
    Trace(String),
    /// A closed loop: `threads` clients each send a request, wait for its answer (retries
    /// included), think, and send the next, until `total` requests are done.
    ClosedLoop(RawClosedLoop),
}

/// `{ closed_loop = { threads, total, think = "0ms", stop_on_failure = false } }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawClosedLoop {
    /// Client threads, each with one request in flight.
    pub threads: u64,
    /// Requests to make in all (items to load, rows to migrate).
    pub total: u64,
    /// Pause between an answer and a thread's next request; default "0ms".
    pub think: Option<String>,
    /// Stop sending at the first failed request (as most loaders do); default false.
    pub stop_on_failure: Option<bool>,
}

/// Diurnal shape.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDiurnal {
    /// Lowest rate.
    pub min: f64,
    /// Highest rate.
    pub max: f64,
    /// UTC time of the highest rate, "HH:MM"; default "14:00".
    pub peak: Option<String>,
}

/// Spike shape.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSpike {
    /// Rate outside the spike.
    pub base: f64,
    /// Rate during the spike.
    pub peak: f64,
    /// When the spike starts.
    pub at: String,
    /// How long it lasts.
    #[serde(rename = "for")]
    pub length: String,
}

/// Ramp shape.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRamp {
    /// Rate at the start of the ramp.
    pub from: f64,
    /// Rate at the end of the ramp, held afterwards.
    pub to: f64,
    /// Length of the ramp.
    pub over: String,
    /// When the ramp starts (rate `from` before it); default "0s".
    pub start: Option<String>,
}

/// `[client]`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawClient {
    /// "sdk-2026", "legacy", "none", or explicit settings; default "sdk-2026".
    pub retry: Option<RawRetry>,
    /// Service time of a successful request, added to every latency; default "5ms".
    pub service_time: Option<String>,
    /// SDK client instances sharing the traffic (each has its own retry quota); default 1: one
    /// quota for all the traffic, which makes retries stop early under heavy throttling.
    pub instances: Option<u64>,
    /// The application's client fleet: the tables of an account (a folder) that name the same
    /// fleet share one client (its instances and their retry quotas), as one application
    /// calling several tables does; default none, each table its own.
    pub fleet: Option<String>,
    /// The client buffers its requests and sends each period's in a flush: `{ every = "30s",
    /// for = "2s" }` sends the requests of every 30 seconds in their first 2 (15 times the mean
    /// rate, then none); default none, requests sent as they come.
    pub flush: Option<RawFlush>,
}

/// `[client] flush`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFlush {
    /// Time between flushes, whole seconds, at most an hour.
    pub every: String,
    /// How long a flush lasts, whole seconds, shorter than `every`.
    #[serde(rename = "for")]
    pub length: String,
}

/// Retry settings.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawRetry {
    /// A preset name.
    Preset(String),
    /// Explicit settings.
    Explicit(RawRetryExplicit),
}

/// Explicit retry settings (full jitter: delay = random(0, min(cap, base * 2^(attempt-1)))).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRetryExplicit {
    /// Attempts in all, the first included.
    pub attempts: u64,
    /// Base delay for transient errors.
    pub base: Option<String>,
    /// Base delay for throttling errors; default = base.
    pub throttle_base: Option<String>,
    /// Largest delay.
    pub cap: Option<String>,
    /// Retry quota tokens per client (0 = no quota); default 500.
    pub quota: Option<u64>,
    /// Tokens a throttling retry costs; default 5.
    pub throttle_cost: Option<u64>,
    /// "full" (a uniform draw up to the backoff) or "none" (the whole backoff); default "full".
    pub jitter: Option<String>,
}

/// `[[at]]`: one operational change.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAt {
    /// When, from the start of the run.
    pub time: String,
    /// New provisioned capacity of the table (or of `index`).
    pub set_capacity: Option<RawSetCapacity>,
    /// "on_demand", "provisioned", or { to = "provisioned", read = RCU, write = WCU }.
    pub switch_mode: Option<RawSwitchMode>,
    /// Raise warm throughput.
    pub prewarm: Option<RawSetCapacity>,
    /// Create a GSI declared in [[gsi]] at this time instead of at the start (backfill).
    pub add_gsi: Option<String>,
    /// Multiply a pattern's rate from now on.
    pub scale_rate: Option<RawScaleRate>,
    /// A scheduled scaling action: new min, max (and target) of the auto-scaled table (or
    /// `index`); capacity outside the new range moves into it at once.
    pub set_autoscaling: Option<RawSetAutoscaling>,
    /// The index the action applies to (set_capacity, prewarm, set_autoscaling).
    pub index: Option<String>,
    /// Bulk put items from S3 into the table (`StartBulkPutItems`): a background load at up
    /// to `max_write_units` a second, through the table's partitions and its GSIs.
    pub bulk_put: Option<RawBulkPut>,
}

/// `bulk_put = { items, item_bytes, max_write_units, order, tier, entity, key }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBulkPut {
    /// Items in the S3 input.
    pub items: u64,
    /// Item size in bytes, or { mean, sigma }; default the entity's, else 1024.
    pub item_bytes: Option<RawSize>,
    /// The load's cap on write request units a second (`MaxWriteRequestUnits`).
    pub max_write_units: i64,
    /// Order of the input: "sorted" (by partition key, so each value's items come together)
    /// or "shuffled"; default "shuffled".
    pub order: Option<RawBulkOrder>,
    /// "standard" or "accelerated" (the API's tiers); default "standard".
    pub tier: Option<RawBulkTier>,
    /// The entity type loaded (`[[entity]]`): its key space, item size and index writes.
    pub entity: Option<String>,
    /// Key space of the loaded items' partition keys; default the entity's, else the table's.
    pub key: Option<String>,
}

/// The order of a bulk load's input.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawBulkOrder {
    /// Sorted by partition key: each value's items are written together.
    Sorted,
    /// In no order: the writes spread over the key space.
    Shuffled,
}

/// `StartBulkPutItems`' tier.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawBulkTier {
    /// STANDARD.
    Standard,
    /// ACCELERATED.
    Accelerated,
}

/// `set_autoscaling = { read = { min, max, target }, write = { ... } }`: each field optional.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSetAutoscaling {
    /// New settings of the read-capacity scalable target.
    pub read: Option<RawScalingChange>,
    /// New settings of the write-capacity scalable target.
    pub write: Option<RawScalingChange>,
}

/// New settings of one scalable target; what is left out stays as it was.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawScalingChange {
    /// New minimum capacity units.
    pub min: Option<i64>,
    /// New maximum capacity units.
    pub max: Option<i64>,
    /// New target utilization in percent, 20-90.
    pub target: Option<f64>,
}

/// A capacity-mode switch.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawSwitchMode {
    /// "on_demand" or "provisioned" (provisioned at the console's estimate: the peak minute of
    /// the last 30 minutes at 70 % utilization, at least 5 units).
    Mode(String),
    /// A switch with the provisioned capacity UpdateTable is given.
    To(RawSwitchTo),
}

impl RawSwitchMode {
    /// The mode switched to, as written.
    #[must_use]
    pub fn target(&self) -> &str {
        match self {
            RawSwitchMode::Mode(m) => m,
            RawSwitchMode::To(t) => &t.to,
        }
    }
}

/// `{ to = "provisioned", read = RCU, write = WCU }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSwitchTo {
    /// "provisioned" or "on_demand".
    pub to: String,
    /// Provisioned read capacity units after the switch.
    pub read: Option<i64>,
    /// Provisioned write capacity units after the switch.
    pub write: Option<i64>,
}

/// Read and write units.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSetCapacity {
    /// Read units.
    pub read: Option<i64>,
    /// Write units.
    pub write: Option<i64>,
}

/// `scale_rate = { pattern, factor }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawScaleRate {
    /// Pattern name.
    pub pattern: String,
    /// Multiplier of its rate, >= 0.
    pub factor: f64,
}

impl Default for RawOp {
    /// GetItem.
    fn default() -> Self {
        RawOp::GetItem
    }
}

impl Default for RawRate {
    /// No traffic.
    fn default() -> Self {
        RawRate::Constant(0.0)
    }
}
