//! The DynamoDB model: what admits a request and what throttles it.
//!
//! * [`resource`]: a table or GSI — its partitions, per-second admission windows, burst credit and
//!   per-partition caps (spec §2–§5).
//! * [`client`]: the SDK's retry behaviour (spec §9.3).
//!
//! The model knows nothing of files, CSV or the command line; the engine drives it.

pub mod client;
pub mod resource;
pub mod scaling;

/// Read or write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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

    /// The word DynamoDB's metric and reason names use: `KeyRange`, `Provisioned`, ...
    #[must_use]
    pub const fn metric_word(self) -> &'static str {
        match self {
            Reason::KeyRange => "KeyRange",
            Reason::Provisioned => "Provisioned",
            Reason::MaxOnDemand => "MaxOnDemand",
            Reason::AccountLimit => "AccountLimit",
        }
    }

    /// The full `ThrottlingReasons` reason, e.g. `IndexWriteKeyRangeThroughputExceeded`.
    #[must_use]
    pub fn api_reason(self, index: bool, dim: Dim) -> String {
        let tail = match self {
            Reason::KeyRange => "KeyRangeThroughputExceeded",
            Reason::Provisioned => "ProvisionedThroughputExceeded",
            Reason::MaxOnDemand => "MaxOnDemandThroughputExceeded",
            Reason::AccountLimit => "AccountLimitExceeded",
        };
        format!("{}{}{}", if index { "Index" } else { "Table" }, if dim == Dim::Read { "Read" } else { "Write" }, tail)
    }
}
