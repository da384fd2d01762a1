//! What a run takes and what it gives: [`RunOptions`] (with a [`StopToken`] and a [`Progress`]
//! sink) and [`RunResult`], typed per table or index ([`ResourceOutcome`]) with a per-minute
//! record that carries the capacity mode in force.

use crate::metrics::{MinuteRecord, PartitionMinute, PatternTotals, Totals};
use crate::model::reserve::Reserve;
use crate::model::{CapacityAction, CapacityMode, Dim};
use crate::scenario::{Fidelity, ResourceId, ResourceKind};
use crate::stats::Histogram;
use crate::time::SimDuration;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub use crate::model::indexes::CollectionInfo;

/// Asks runs to stop at their next simulated minute. Clones share one flag: hand one to a run
/// (or a whole study) and keep one to call [`StopToken::stop`] from elsewhere (a Ctrl-C
/// handler, another thread). A stopped run returns what it has, with
/// [`RunResult::stopped`] set.
#[derive(Clone, Debug, Default)]
pub struct StopToken(Arc<AtomicBool>);

impl StopToken {
    /// A token not yet stopped.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every run holding a clone to stop.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Has a stop been asked for?
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Where runs and studies report progress. Library calls never print: the command line
/// implements this with a progress bar, an embedding program as it likes. Both methods do
/// nothing by default.
pub trait Progress: Send + Sync {
    /// A run has simulated `done_s` of its `total_s` seconds (called once a simulated minute).
    fn simulated(&self, _done_s: u64, _total_s: u64) {}
    /// A study has finished `done` of its `total` runs.
    fn runs(&self, _done: u64, _total: u64) {}
    /// A calibration is fitting: what it tried and what came of it (`backtest --calibrate`).
    fn fitting(&self, _step: &str) {}
}

/// When a run may stop early: once its throttled attempts are more than `max_share` of the
/// most attempts it can still end with. That bound needs the pages the run's traffic sends
/// (`pages`, from a run of the same traffic and seed that throttled nothing: the same seed
/// draws the same requests whatever the capacity, and a request that fails sends no further
/// pages) and the attempts a page may take (`attempts`, the client's). The throttled share at
/// the end is then certain to exceed `max_share`; the run's totals are what it reached.
/// Closed loops send requests as they are answered, so their pages are not known: callers
/// give none for them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GiveUp {
    /// Largest throttled share of attempts.
    pub max_share: f64,
    /// Pages the whole run sends (first attempts).
    pub pages: u64,
    /// Attempts a page may take, the first included.
    pub attempts: u64,
}

/// Where a run gave up ([`RunOptions::give_up`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GivenUp {
    /// The second it stopped at.
    pub at_s: u64,
    /// The least throttled share it could have ended with: throttled attempts over the most
    /// attempts it could have ended with (above [`GiveUp::max_share`]).
    pub least_share: f64,
}

/// Options of one run that override the scenario.
#[derive(Clone, Default)]
pub struct RunOptions {
    /// Master seed instead of the scenario's.
    pub seed: Option<u64>,
    /// Fidelity instead of the scenario's.
    pub fidelity: Option<Fidelity>,
    /// Duration instead of the scenario's.
    pub duration: Option<SimDuration>,
    /// Replication number (0 for a single run).
    pub replication: u64,
    /// Record per-partition minutes (large for big tables).
    pub record_partitions: bool,
    /// Stops the run at its next simulated minute.
    pub stop: Option<StopToken>,
    /// Stops the run at the end of the first minute after which its throttled share is sure
    /// to end above a limit.
    pub give_up: Option<GiveUp>,
    /// Receives the run's progress.
    pub progress: Option<Arc<dyn Progress>>,
}

impl std::fmt::Debug for RunOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunOptions")
            .field("seed", &self.seed)
            .field("fidelity", &self.fidelity)
            .field("duration", &self.duration)
            .field("replication", &self.replication)
            .field("record_partitions", &self.record_partitions)
            .field("stop", &self.stop)
            .field("give_up", &self.give_up)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl RunOptions {
    /// Has a stop been asked for?
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(StopToken::is_stopped)
    }
}

/// What a run recorded of one table or GSI.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ResourceOutcome {
    /// Table or index name.
    pub name: String,
    /// The table, which GSI or which replica.
    pub id: ResourceId,
    /// A replica's region.
    pub region: Option<String>,
    /// One record per simulated minute (the last may be partial).
    pub minutes: Vec<MinuteRecord>,
    /// Capacity mode at the end of the run.
    pub final_mode: CapacityMode,
    /// Bytes stored at the end (items plus 100 bytes each).
    pub stored_bytes: u64,
    /// GSI propagation delay of the index writes applied, ms: p50, p99, max.
    pub lag_ms: Option<[f64; 3]>,
    /// Burst credit and index back-pressure at the run's start and at its end.
    pub reserves: [Reserve; 2],
}

/// A change of capacity or partitions during a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CapacityEvent {
    /// Simulated second.
    pub time_s: u64,
    /// Table or index name.
    pub resource: String,
    /// Which of the table's resources (not in JSON: `resource` names it there).
    #[serde(skip)]
    pub id: ResourceId,
    /// What happened.
    pub action: CapacityAction,
    /// Read or write (empty in JSON when it concerns neither).
    #[serde(with = "dimension")]
    pub dimension: Option<Dim>,
    /// Value before (units per second, or partitions).
    pub old: f64,
    /// Value after.
    pub new: f64,
    /// A word of explanation.
    pub detail: String,
}

/// `dimension` as `"read"`, `"write"` or `""`.
mod dimension {
    use crate::model::Dim;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(d: &Option<Dim>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(d.map_or("", Dim::name))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Dim>, D::Error> {
        match String::deserialize(d)?.as_str() {
            "read" => Ok(Some(Dim::Read)),
            "write" => Ok(Some(Dim::Write)),
            "" => Ok(None),
            other => Err(serde::de::Error::custom(format!("unknown dimension \"{other}\""))),
        }
    }
}

/// A busy key: where it lives and how much traffic it draws.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct HotKey {
    /// Table or index name.
    pub resource: String,
    /// Key label: `space#rank` (1 = most popular) or the explicit value's name.
    pub key: String,
    /// The key space it belongs to.
    #[serde(default)]
    pub key_space: String,
    /// Partition holding it (its first shard) at the end of the run.
    pub partition: usize,
    /// Requests per second it received on average (all shards).
    pub requests_per_s: f64,
    /// The entity types whose reads and writes land on it (single-table designs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entities: Vec<String>,
}

impl HotKey {
    /// The key as reports show it: with the entity types that use it, when the scenario
    /// declares them (`GSI1#3 [Order, Review]`).
    #[must_use]
    pub fn label(&self) -> String {
        if self.entities.is_empty() {
            self.key.clone()
        } else {
            format!("{} [{}]", self.key, self.entities.join(", "))
        }
    }
}

/// A DAX cluster's minute (estimates: the hit ratio and the ceiling are models, see
/// `model::dax`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DaxMinute {
    /// Expected cache hits (requests DAX answered without the table).
    pub hits: f64,
    /// Expected misses (cached reads that went on to the table).
    pub misses: f64,
    /// The busiest second's load over the cluster's ceiling (1: at the ceiling).
    pub peak_load_share: f64,
}

/// What a DAX cluster in front of the table did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DaxOutcome {
    /// Node type.
    pub node_type: crate::scenario::DaxNodeType,
    /// Nodes.
    pub nodes: u32,
    /// Per minute.
    pub minutes: Vec<DaxMinute>,
}

impl DaxOutcome {
    /// Hits over all cached reads.
    #[must_use]
    pub fn hit_ratio(&self) -> f64 {
        let (h, m) = self.minutes.iter().fold((0.0, 0.0), |a, x| (a.0 + x.hits, a.1 + x.misses));
        if h + m > 0.0 {
            h / (h + m)
        } else {
            0.0
        }
    }

    /// The busiest second's load over the ceiling.
    #[must_use]
    pub fn peak_load_share(&self) -> f64 {
        self.minutes.iter().map(|m| m.peak_load_share).fold(0.0, f64::max)
    }

    /// Minutes with a second above the ceiling.
    #[must_use]
    pub fn minutes_over(&self) -> usize {
        self.minutes.iter().filter(|m| m.peak_load_share > 1.0).count()
    }
}

/// What a run produced.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct RunResult {
    /// Seed used.
    pub seed: u64,
    /// Fidelity used.
    pub fidelity: Fidelity,
    /// Simulated seconds.
    pub duration_s: u64,
    /// The run was stopped before its end (by a [`StopToken`]).
    pub stopped: bool,
    /// The run gave up: its throttled share was sure to end above [`GiveUp::max_share`].
    pub given_up: Option<GivenUp>,
    /// The table, then its GSIs.
    pub resources: Vec<ResourceOutcome>,
    /// Some pattern's writes carry a condition that can fail (`ConditionalCheckFailedRequests`
    /// is reported).
    pub condition_writes: bool,
    /// Requests can fail with an HTTP 400 (writes at the item-collection limit of a table with
    /// LSIs, reads of a GSI still being created): `UserErrors` is reported.
    pub user_errors_reported: bool,
    /// Per operation (`Op as usize`), when some pattern sends it: the service's time of one
    /// request, µs (`SuccessfulRequestLatency`: the service time, plus the multi-region strong
    /// write latency for writes).
    pub operations: [Option<u64>; 10],
    /// Per access pattern, in scenario order.
    pub patterns: Vec<PatternTotals>,
    /// Per partition and minute (when recorded).
    pub partitions: Vec<PartitionMinute>,
    /// The entity types' shares of a partition's minute (`PartitionMinute::entities`).
    pub entity_shares: Vec<String>,
    /// Latency of successful requests, µs.
    pub latency: Histogram,
    /// Per minute: p50, p99 and max latency of requests served, µs.
    pub latency_by_minute: Vec<[u64; 3]>,
    /// Per minute: attempts sent, attempts throttled, requests failed (when they gave up) and
    /// requests offered (first attempts), all patterns.
    pub attempts_by_minute: Vec<[u64; 4]>,
    /// Capacity changes, splits and refused actions, in time order.
    pub events: Vec<CapacityEvent>,
    /// Seconds admitted in bulk (fast mode).
    pub bulk_seconds: u64,
    /// Seconds replayed request by request.
    pub replayed_seconds: u64,
    /// The busiest keys by requests per second, busiest first.
    pub hot_keys: Vec<HotKey>,
    /// Per pattern with `after_write`: share of its index reads that miss the item.
    pub stale_read_share: Vec<Option<f64>>,
    /// Item collections above 1 GB or with refused writes (LSI tables).
    pub item_collections: Vec<CollectionInfo>,
    /// The DAX cluster in front of the table, if any.
    pub dax: Option<DaxOutcome>,
    /// An account's run: the throttle events this table's transactions met on other tables'
    /// resources (`[[pattern.also]]`); empty otherwise.
    pub crossings: Vec<Crossing>,
}

/// Throttle events one table's transactions met on a resource of another table of the
/// account (counted there too, in that resource's minutes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crossing {
    /// The other table's position in the account.
    pub table: usize,
    /// The resource of that table.
    pub resource: ResourceId,
    /// Throttle events, by dimension.
    pub events: [u64; 2],
}

impl RunResult {
    /// What the run recorded of `id`.
    ///
    /// # Panics
    /// If the run's table has no such resource.
    #[must_use]
    pub fn resource(&self, id: ResourceId) -> &ResourceOutcome {
        self.resources.iter().find(|r| r.id == id).expect("a resource of the run's table")
    }
}

impl ResourceOutcome {
    /// Table, GSI or replica.
    #[must_use]
    pub const fn kind(&self) -> ResourceKind {
        self.id.kind()
    }
}

impl RunResult {
    /// Request counts over every pattern.
    #[must_use]
    pub fn totals(&self) -> Totals {
        Totals::of(&self.patterns)
    }

    /// Seconds simulated in minute `m` (60, or fewer for a partial last minute).
    #[must_use]
    pub fn minute_seconds(&self, m: usize) -> u64 {
        (self.duration_s - m as u64 * 60).min(60)
    }

    /// The table's minutes.
    #[must_use]
    pub fn table(&self) -> &ResourceOutcome {
        &self.resources[0]
    }
}
