//! Scenario files: TOML parsed into [`raw`] structs, then validated into the typed [`Scenario`].
//!
//! The engine sees only the typed structs: durations are [`SimDuration`], key spaces and indexes
//! are indexes into vectors, every number has been range-checked. Problems carry the file, line,
//! column and key path ([`ScenarioError`]).

pub mod defaults;
pub mod locate;
pub mod raw;
pub mod validate;

mod account;
mod action;
mod client;
mod entity;
mod error;
mod features;
mod indexes;
mod joint;
mod keys;
mod pattern;
mod price_item;
mod pricing;
mod rate_factors;
mod resource;
mod table;
mod transactions;
mod usage;

use crate::time::SimDuration;
use std::fmt;
use std::path::PathBuf;

pub use account::join_account;
pub use action::{Action, ActionSpec};
pub use client::{ClientSpec, Flush};
pub use entity::{EntityIndex, EntitySpec};
pub use error::{Note, NoteKind, Problem, ScenarioError};
pub use features::{BackupSpec, DaxNodeType, DaxSpec, InsightsMode, StreamsSpec, TtlSpec};
pub use indexes::{GsiSpec, LsiSpec, Projection};
pub use joint::{head_tail, joint_key_space, HeadTail, HEAD_KEYS};
pub use keys::{CardinalityFrom, KeyFact, KeySpaceSpec, Popularity, PopularityFrom, Shards, SortKeys};
pub use pattern::{AlsoSpec, BulkLoad, ClosedLoop, IndexRef, IndexWrite, ItemShape, Op, PatternSpec, RateShape, SizeSpec};
pub use price_item::{Meter, PriceItem};
pub use pricing::{OwnedReservation, PricingSpec, SavingsPlan};
pub use rate_factors::{RateFactor, RateFactors};
pub use resource::{Layout, ResourceId, ResourceKind};
pub use table::{
    AutoscalingSpec, CapacitySpec, GsiBackpressure, HeatSpec, ScalingChange, ScalingTargetSpec, TableClass, TableSpec, VectorIndexSpec,
    VectorSearches,
};
pub use usage::UnwrittenIndex;
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
    /// Throttle events in the history the scenario was imported from, if it says.
    pub recorded_throttle_events: Option<u64>,
    /// Master seed.
    pub seed: u64,
    /// Fidelity.
    pub fidelity: Fidelity,
    /// What the window is: whether a setting may hold it on burst credit and GSI absorption.
    pub window: Window,
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
    /// The client fleet it shares with other tables of its account (`[client] fleet`).
    pub client_fleet: Option<String>,
    /// Operational changes, sorted by time.
    pub actions: Vec<ActionSpec>,
    /// The plan and thresholds of `ddbsim check`.
    pub check: CheckSpec,
    /// A DAX cluster in front of the table, if any.
    pub dax: Option<DaxSpec>,
    /// Global tables: the table's replicas in other regions.
    pub replicas: Vec<ReplicaSpec>,
    /// What validation noted of a scenario that loads: warnings and the guesses it rests on.
    pub notes: Vec<Note>,
    /// The account's provisioned-capacity quotas in the Region.
    pub account: AccountSpec,
}

/// `[account]`: provisioned-capacity quotas, units per second by dimension (read, write).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccountSpec {
    /// The most the account may provision over every table and GSI in the Region.
    pub max: [u64; 2],
    /// The most one table may provision, its GSIs included.
    pub table_max: [u64; 2],
    /// The most tables the account may hold in the Region.
    pub tables: u64,
    /// The most table operations in flight at once in the Region.
    pub operations: u64,
}

impl Default for AccountSpec {
    /// AWS's default quotas.
    fn default() -> Self {
        Self {
            max: [defaults::ACCOUNT_MAX_UNITS; 2],
            table_max: [defaults::TABLE_MAX_UNITS; 2],
            tables: defaults::ACCOUNT_MAX_TABLES,
            operations: defaults::ACCOUNT_MAX_TABLE_OPERATIONS,
        }
    }
}

impl AccountSpec {
    /// The quota a table's provisioned sum must stay within in dimension `d`: the smaller of
    /// the table-level and the account-level (the scenario's one table is the account's
    /// only provisioned table).
    #[must_use]
    pub fn limit(&self, d: usize) -> u64 {
        self.table_max[d].min(self.max[d])
    }
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
    /// Cost guardrails, USD: the window's cost and the monthly rate of the scenario's own
    /// traffic (`None`: no `cost` phase).
    pub max_window_cost: Option<f64>,
    /// See `max_window_cost`.
    pub max_monthly_cost: Option<f64>,
    /// How much more this design may cost than the base `ddbsim diff` compares it with.
    pub max_cost_increase: Option<CostIncrease>,
}

/// `[check] max_cost_increase`: how much more a change may cost than its base (`ddbsim diff`),
/// a month when both scenarios extrapolate their window, else over the window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CostIncrease {
    /// US dollars.
    Usd(f64),
    /// A share of the base's cost (0.1 = 10 %).
    Share(f64),
}

impl CostIncrease {
    /// Reads `"10%"` (a share of the base's cost) or `"25"` / `"$25"` (US dollars).
    ///
    /// # Errors
    /// What the text should have been.
    pub fn parse(s: &str) -> Result<Self, String> {
        let t = s.trim();
        let bad = || format!("a percentage of the base's cost (\"10%\") or US dollars (25), at least 0, not {s:?}");
        let (v, share) = match t.strip_suffix('%') {
            Some(p) => (p.trim().parse::<f64>().map_err(|_| bad())? / 100.0, true),
            None => (t.trim_start_matches('$').trim().parse::<f64>().map_err(|_| bad())?, false),
        };
        if !v.is_finite() || v < 0.0 {
            return Err(bad());
        }
        Ok(if share { CostIncrease::Share(v) } else { CostIncrease::Usd(v) })
    }

    /// The increase allowed over a base costing `base` USD.
    #[must_use]
    pub fn allowed_usd(self, base: f64) -> f64 {
        match self {
            CostIncrease::Usd(x) => x,
            CostIncrease::Share(f) => f * base,
        }
    }
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
            max_window_cost: None,
            max_monthly_cost: None,
            max_cost_increase: None,
        }
    }
}

/// What the simulated window stands for (`[scenario] window`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Window {
    /// The load goes on past the window: a setting holds only if it leaves no resource with
    /// less burst credit or more GSI debt than it began with.
    #[default]
    Sustained,
    /// An event that starts from a rested table (a launch, a sale, a migration): a setting may
    /// spend burst credit and GSI absorption to hold it.
    Event,
}

impl Window {
    /// "sustained" or "event".
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Window::Sustained => "sustained",
            Window::Event => "event",
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
