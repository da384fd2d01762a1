//! The table's billed features: Contributor Insights, TTL, DAX, Streams, backups.

use super::price_item::PriceItem;
use super::raw;
use crate::time::SimDuration;

/// A CloudWatch Contributor Insights mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
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

    /// `accessed_and_throttled_keys` or `throttled_keys`, as the scenario names it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            InsightsMode::AccessedAndThrottledKeys => "accessed_and_throttled_keys",
            InsightsMode::ThrottledKeys => "throttled_keys",
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
    pub const fn price_item(self) -> PriceItem {
        use PriceItem as P;
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

impl std::fmt::Display for DaxNodeType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for DaxNodeType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for DaxNodeType {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Self::from_name(&name).ok_or_else(|| serde::de::Error::custom(format!("unknown DAX node type \"{name}\"")))
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
    /// PITR's recovery period, days (1 to 35; no effect on the price).
    pub recovery_days: u32,
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
