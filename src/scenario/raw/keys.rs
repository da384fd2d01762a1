//! `[keys.NAME]` as written.

use schemars::JsonSchema;
use serde::Deserialize;
use std::collections::BTreeMap;

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
    /// Where the popularity comes from: "stated" (default), "assumption" (`ddbsim import`'s),
    /// "contributor_insights" or "calibration" (`ddbsim backtest --calibrate`).
    pub popularity_from: Option<crate::scenario::keys::PopularityFrom>,
    /// Where the cardinality comes from: "stated" (default), "assumption" or "item_count"
    /// (`ddbsim import`'s): `check` says when a finding rests on it.
    pub cardinality_from: Option<crate::scenario::keys::CardinalityFrom>,
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
