//! `[[gsi]]`, `[[lsi]]` and `[[entity]]` as written.

use super::keys::RawSortKeys;
use super::table::{RawAutoscaling, RawProjection};
use super::traffic::RawSize;
use schemars::JsonSchema;
use serde::Deserialize;
use std::collections::BTreeMap;

/// `[[gsi]]`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGsi {
    /// Index name.
    pub name: String,
    /// Key space of the index partition key, or a list of up to four for a multi-attribute
    /// key (`["tenant", "status"]`): its values are the tuples of theirs.
    pub partition_key: RawKeyRef,
    /// The attributes of a multi-attribute key are correlated: the finest (largest cardinality)
    /// determines the others, so the tuple takes its values; default false (independent: a
    /// tuple's share is the product of its attributes' shares).
    pub correlated: Option<bool>,
    /// "keys_only", "all", { include_bytes = N } or { include = ["total", "status"] };
    /// default "all".
    pub projection: Option<RawProjection>,
    /// The names of the index's key attributes (`["GSI1PK", "GSI1SK"]`; a multi-attribute
    /// key's every attribute): with items given by attributes or a sample item, an item that
    /// lacks one is not in the index, and an entry's keys are sized from the item.
    pub key_attributes: Option<Vec<String>>,
    /// Share of items that carry the index key (sparse index < 1); default 1. For a
    /// multi-attribute key, a list of each attribute's share: an item is in the index only when
    /// it carries every key attribute, so the index holds their product (independently).
    pub coverage: Option<RawCoverage>,
    /// Data in the index at the start, GB (describe-table's `IndexSizeBytes`);
    /// default the table's storage_gb x coverage, by projection (each entry sized by it).
    pub storage_gb: Option<f64>,
    /// Provisioned capacity of the index (provisioned tables), or on-demand settings.
    pub capacity: Option<RawGsiCapacity>,
    /// Auto scaling of the index.
    pub autoscaling: Option<RawAutoscaling>,
    /// Propagation delay from the table to the index: { median = "100ms", p99 = "1s" } (log-normal).
    pub propagation: Option<RawPropagation>,
    /// CloudWatch Contributor Insights on the index: "accessed_and_throttled_keys" or
    /// "throttled_keys".
    pub contributor_insights: Option<RawInsightsMode>,
    /// Dimensions ("read", "write") the history the scenario was imported from has no series
    /// for (`ddbsim import` writes it): `recommend` keeps their capacity and says so.
    pub no_history: Option<Vec<RawDimension>>,
}

/// A key space, or the key spaces of a multi-attribute key.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawKeyRef {
    /// One key space.
    One(String),
    /// Up to four key spaces, in key-schema order.
    Tuple(Vec<String>),
}

impl Default for RawKeyRef {
    fn default() -> Self {
        RawKeyRef::One(String::new())
    }
}

impl From<&str> for RawKeyRef {
    fn from(s: &str) -> Self {
        RawKeyRef::One(s.to_string())
    }
}

/// A share of items, or one per attribute of a multi-attribute key.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawCoverage {
    /// Share of items carrying the index key.
    One(f64),
    /// Share of items carrying each key attribute.
    Each(Vec<f64>),
}

/// A capacity dimension.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawDimension {
    /// Read capacity.
    Read,
    /// Write capacity.
    Write,
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
    /// Key space name, or the key spaces of a multi-attribute key: every item carries the
    /// index key.
    Key(RawKeyRef),
    /// `{ key, share }`.
    Sparse(RawEntityIndexSparse),
}

/// `{ key, share }`: a sparse index entry.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawEntityIndexSparse {
    /// Key space of the values written into the index partition key, or a list for a
    /// multi-attribute key.
    pub key: RawKeyRef,
    /// Share of the entity's items that carry the index key, 0-1; default 1.
    pub share: Option<f64>,
    /// The attributes of a multi-attribute key are correlated (the finest determines the
    /// others); default the index's `correlated`.
    pub correlated: Option<bool>,
}

/// `[[lsi]]`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawLsi {
    /// Index name.
    pub name: String,
    /// "keys_only", "all", { include_bytes = N } or { include = ["total"] }.
    pub projection: Option<RawProjection>,
    /// The name of its sort key attribute (`["LSI1SK"]`): with items given by attributes or a
    /// sample item, an item without it is not in the index, and an entry's keys are sized from
    /// the item.
    pub key_attributes: Option<Vec<String>>,
}
