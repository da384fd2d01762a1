//! The scenario file as written: serde structs that mirror the TOML one to one.
//!
//! Nothing here is checked beyond TOML types; [`super::validate`] turns a [`RawScenario`] into a
//! typed [`super::Scenario`]. Every struct rejects unknown keys. The doc comments are the
//! reference text of `ddbsim schema`.

mod indexes;
mod keys;
mod pricing;
mod table;
mod traffic;

use schemars::JsonSchema;
use serde::Deserialize;
use std::collections::BTreeMap;

pub use indexes::*;
pub use keys::*;
pub use pricing::*;
pub use table::*;
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
    /// The account's provisioned-capacity quotas in the table's Region.
    #[serde(default)]
    pub account: RawAccount,
}

/// `[account]`: the provisioned-capacity quotas of the account in the table's Region, named
/// as DescribeLimits names them. An UpdateTable (a `set_capacity` action, an auto-scaling
/// raise) that would take the table and its GSIs past either quota fails with
/// LimitExceededException: the resource keeps its capacity. Defaults are AWS's, raised to what
/// the scenario provisions at the start when that is more (a table so provisioned has a
/// raised quota).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAccount {
    /// The most RCU the account may provision over every table and GSI in the Region; default 80000 (or the table's provisioned sum at the start, if more).
    pub max_read_capacity_units: Option<i64>,
    /// The most WCU the account may provision over every table and GSI in the Region; default 80000 (or the table's provisioned sum at the start, if more).
    pub max_write_capacity_units: Option<i64>,
    /// The most RCU one table may provision, its GSIs included; default 40000 (or the table's provisioned sum at the start, if more).
    pub table_max_read_capacity_units: Option<i64>,
    /// The most WCU one table may provision, its GSIs included; default 40000 (or the table's provisioned sum at the start, if more).
    pub table_max_write_capacity_units: Option<i64>,
    /// The most tables the account may hold in the Region (CreateTable past it fails); default 2500.
    pub max_tables: Option<i64>,
    /// The most table operations (UpdateTable calls: capacity, mode switches, GSI creation; pre-warms) in flight at once in the Region; default 500.
    pub max_table_operations: Option<i64>,
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
    /// Cost guardrail: the most the scenario's own window may cost, USD (the `cost` phase).
    pub max_window_cost: Option<f64>,
    /// Cost guardrail: the most the scenario's own traffic may cost a 730-hour month at the
    /// window's rate, USD (the `cost` phase).
    pub max_monthly_cost: Option<f64>,
    /// Cost guardrail of `ddbsim diff`: how much more this design may cost than the base it
    /// is compared with, "10%" of the base's cost or US dollars (25); a month when both
    /// extrapolate their window, else over the window.
    pub max_cost_increase: Option<RawCostIncrease>,
}

/// `max_cost_increase`: US dollars, or a text ("10%", "$25").
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawCostIncrease {
    /// US dollars.
    Usd(f64),
    /// "10%" or "$25".
    Text(String),
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
    /// Throttle events in the CloudWatch history this scenario was imported from (`ddbsim
    /// import` writes it): `ddbsim recommend` warns when they are priced on an assumed skew.
    pub recorded_throttle_events: Option<u64>,
    /// What the window is: "sustained" (the load goes on: a setting must hold it without
    /// ending with less burst credit or more GSI debt than it began with) or "event" (a
    /// launch, a sale, a migration from a rested table: a setting may spend them);
    /// default "sustained".
    pub window: Option<RawWindow>,
}

/// `[scenario] window`.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawWindow {
    /// The load goes on past the window.
    Sustained,
    /// An event that starts from a rested table.
    Event,
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
