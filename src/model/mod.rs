//! The DynamoDB model: what a request charges, what admits it and what throttles it, and how
//! capacity moves. Every rule here is DynamoDB's (with its section of the behavioural
//! specification); none of it knows files, output formats, the command line or the engine.
//!
//! * [`request`]: what one request of a pattern charges, and where (spec §1).
//! * [`resource`]: a table or GSI — its partitions, per-second admission windows, burst credit
//!   and per-partition caps (spec §2–§5).
//! * [`control`]: capacity decisions — `[[at]]` actions, UpdateTable latency, auto scaling,
//!   on-demand growth, pre-warming, mode switches and splits for heat — returned as commands.
//! * [`scaling`]: the auto scaling alarms, the decrease quota and on-demand growth (spec §5, §6).
//! * [`indexes`]: GSI propagation, backfill and LSI item collections (spec §7, §8).
//! * [`client`]: the SDK's retry behaviour (spec §9.3).
//! * [`dax`]: a DAX cluster's hit ratio, ceiling and load (issue 15).
//! * [`reserve`]: the burst credit and index absorption a resource holds beyond its capacity.

pub(crate) mod client;
pub(crate) mod control;
pub(crate) mod dax;
pub(crate) mod indexes;
pub(crate) mod replica;
pub(crate) mod request;
pub(crate) mod reserve;
pub(crate) mod resource;
pub(crate) mod scaling;

/// Read or write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dim {
    /// Read units.
    Read = 0,
    /// Write units.
    Write = 1,
}

impl Dim {
    /// Both dimensions, read first.
    pub const ALL: [Dim; 2] = [Dim::Read, Dim::Write];

    /// "read" or "write".
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Dim::Read => "read",
            Dim::Write => "write",
        }
    }
}

/// What a capacity event was (`capacity_events` in `summary.json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum CapacityAction {
    /// Auto scaling raised provisioned capacity.
    ScaleOut,
    /// Auto scaling lowered it.
    ScaleIn,
    /// A `set_capacity` action's UpdateTable completed.
    SetCapacity,
    /// A decrease beyond the daily quota was refused.
    RefusedDecrease,
    /// A `set_capacity` found the table on-demand.
    RefusedSetCapacity,
    /// A raise (`set_capacity`, auto scaling) past the table-level or account-level quota on
    /// provisioned capacity failed (LimitExceededException); the capacity stays.
    RefusedQuota,
    /// A scheduled scaling action changed a scalable target's min, max or target.
    SetAutoscaling,
    /// The capacity mode changed (`old` and `new`: 0 provisioned, 1 on-demand).
    SwitchMode,
    /// Warm throughput was raised.
    Prewarm,
    /// A partition that reached 10 GB split.
    SplitForSize,
    /// A hot partition split at the median of its traffic.
    SplitForHeat,
    /// A hot partition could not split (one key, or sequential keys).
    HeatSplitSkipped,
    /// Partitions doubled to serve more throughput.
    PartitionsAdded,
    /// A GSI was created; its backfill started.
    AddGsi,
    /// A GSI's backfill completed.
    GsiActive,
}

impl CapacityAction {
    /// The name used in `summary.json` and the charts.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            CapacityAction::ScaleOut => "scale_out",
            CapacityAction::ScaleIn => "scale_in",
            CapacityAction::SetCapacity => "set_capacity",
            CapacityAction::RefusedDecrease => "refused_decrease",
            CapacityAction::RefusedSetCapacity => "refused_set_capacity",
            CapacityAction::RefusedQuota => "refused_quota",
            CapacityAction::SetAutoscaling => "set_autoscaling",
            CapacityAction::SwitchMode => "switch_mode",
            CapacityAction::Prewarm => "prewarm",
            CapacityAction::SplitForSize => "split_for_size",
            CapacityAction::SplitForHeat => "split_for_heat",
            CapacityAction::HeatSplitSkipped => "heat_split_skipped",
            CapacityAction::PartitionsAdded => "partitions_added",
            CapacityAction::AddGsi => "add_gsi",
            CapacityAction::GsiActive => "gsi_active",
        }
    }
}

/// The capacity mode a table or GSI is in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CapacityMode {
    /// Provisioned capacity (with or without auto scaling).
    #[default]
    Provisioned,
    /// On-demand.
    OnDemand,
}

impl CapacityMode {
    /// `provisioned` or `on_demand`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            CapacityMode::Provisioned => "provisioned",
            CapacityMode::OnDemand => "on_demand",
        }
    }
}

/// Why DynamoDB throttled a request (the `ThrottlingReasons` of 2025, without the table/index
/// and read/write parts, which come from where it is counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reason {
    /// A partition's 3,000 RU / 1,000 WU per second cap, or on-demand capacity not yet scaled.
    KeyRange = 0,
    /// Provisioned capacity (and burst credit) exhausted.
    Provisioned = 1,
    /// The on-demand maximum throughput set on the table or index.
    MaxOnDemand = 2,
    /// The per-table throughput quota.
    AccountLimit = 3,
}

impl Reason {
    /// Every reason, in counter order.
    pub const ALL: [Reason; 4] = [Reason::KeyRange, Reason::Provisioned, Reason::MaxOnDemand, Reason::AccountLimit];

    /// CloudWatch's throttle-event metric of this reason and `dim` (since August 2025; the
    /// Developer Guide's "CloudWatch throttling metrics"): `ReadKeyRangeThroughputThrottleEvents`,
    /// `ReadProvisionedThroughputThrottleEvents`, `ReadMaxOnDemandThroughputThrottleEvents`, and
    /// `ReadAccountLimitThrottleEvents` without "Throughput"; `Write...` alike.
    #[must_use]
    pub const fn events_metric(self, dim: Dim) -> &'static str {
        const NAMES: [[&str; 4]; 2] = [
            [
                "ReadKeyRangeThroughputThrottleEvents",
                "ReadProvisionedThroughputThrottleEvents",
                "ReadMaxOnDemandThroughputThrottleEvents",
                "ReadAccountLimitThrottleEvents",
            ],
            [
                "WriteKeyRangeThroughputThrottleEvents",
                "WriteProvisionedThroughputThrottleEvents",
                "WriteMaxOnDemandThroughputThrottleEvents",
                "WriteAccountLimitThrottleEvents",
            ],
        ];
        NAMES[dim as usize][self as usize]
    }

    /// The full `ThrottlingReasons` reason, e.g. `IndexWriteKeyRangeThroughputExceeded`.
    #[must_use]
    pub fn api_reason(self, index: bool, dim: Dim) -> String {
        ThrottlingReason { on_index: index, dim, reason: self }.name().to_string()
    }
}

/// A `ThrottlingReasons` reason whole: on the table or an index, reads or writes, and why.
/// It reads, compares, orders and serialises as its API name
/// (`TableWriteKeyRangeThroughputExceeded`), so a map keyed by it lists reasons as the names
/// sort and can be read with a name.
#[derive(Clone, Copy, Debug)]
pub struct ThrottlingReason {
    /// Counted on a GSI (`Index...`), else on the table (`Table...`).
    pub on_index: bool,
    /// Reads or writes.
    pub dim: Dim,
    /// Why.
    pub reason: Reason,
}

impl ThrottlingReason {
    /// The 16 API names, by `[on_index][dim][reason]`.
    const NAMES: [[[&'static str; 4]; 2]; 2] = [
        [
            [
                "TableReadKeyRangeThroughputExceeded",
                "TableReadProvisionedThroughputExceeded",
                "TableReadMaxOnDemandThroughputExceeded",
                "TableReadAccountLimitExceeded",
            ],
            [
                "TableWriteKeyRangeThroughputExceeded",
                "TableWriteProvisionedThroughputExceeded",
                "TableWriteMaxOnDemandThroughputExceeded",
                "TableWriteAccountLimitExceeded",
            ],
        ],
        [
            [
                "IndexReadKeyRangeThroughputExceeded",
                "IndexReadProvisionedThroughputExceeded",
                "IndexReadMaxOnDemandThroughputExceeded",
                "IndexReadAccountLimitExceeded",
            ],
            [
                "IndexWriteKeyRangeThroughputExceeded",
                "IndexWriteProvisionedThroughputExceeded",
                "IndexWriteMaxOnDemandThroughputExceeded",
                "IndexWriteAccountLimitExceeded",
            ],
        ],
    ];

    /// The API name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        Self::NAMES[self.on_index as usize][self.dim as usize][self.reason as usize]
    }

    /// The reason named `name`.
    #[must_use]
    pub fn parse(name: &str) -> Option<Self> {
        [false, true].into_iter().find_map(|on_index| {
            Dim::ALL
                .into_iter()
                .find_map(|dim| Reason::ALL.into_iter().map(|reason| Self { on_index, dim, reason }).find(|r| r.name() == name))
        })
    }
}

impl PartialEq for ThrottlingReason {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for ThrottlingReason {}

impl PartialOrd for ThrottlingReason {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ThrottlingReason {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.name().cmp(other.name())
    }
}

impl std::borrow::Borrow<str> for ThrottlingReason {
    fn borrow(&self) -> &str {
        self.name()
    }
}

impl std::fmt::Display for ThrottlingReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for ThrottlingReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for ThrottlingReason {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Self::parse(&name).ok_or_else(|| serde::de::Error::custom(format!("unknown ThrottlingReasons reason \"{name}\"")))
    }
}
