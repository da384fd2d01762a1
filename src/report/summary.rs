//! `summary.json`: what a run did, typed. The charts, `report.html` and `ddbsim plot` read it
//! back as this struct.

use super::tables::units;
use super::verdict::{Verdict, DEFAULT_MAX_THROTTLE};
use crate::cost::{bill_of, Bill, Catalog};
use crate::engine::{CapacityEvent, CollectionInfo, HotKey, ResourceKind, RunResult};
use crate::metrics::MinuteRecord;
use crate::model::{CapacityMode, Dim, Reason};
use crate::scenario::{Action, Scenario};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The whole summary.
#[derive(Debug, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Summary {
    /// ddbsim version.
    pub ddbsim_version: String,
    /// Scenario name.
    pub scenario: String,
    /// Scenario description.
    pub description: String,
    /// Master seed.
    pub seed: u64,
    /// "fast" or "exact".
    pub fidelity: String,
    /// Simulated seconds.
    pub duration_s: u64,
    /// The SDK clients assumed: retries and the retry quota depend on them.
    pub client: ClientSummary,
    /// All patterns together.
    pub requests: RequestSummary,
    /// Per pattern.
    pub patterns: Vec<PatternSummary>,
    /// Table and GSIs.
    pub resources: Vec<ResourceSummary>,
    /// Client-observed latency of successful requests (service time plus backoff), ms.
    pub latency_ms: LatencySummary,
    /// How the engine spent its seconds (fast mode: bulk vs replayed).
    pub engine: EngineSummary,
    /// The bill of the scenario's own capacity mode over the simulated window, extrapolated.
    pub cost: Bill,
    /// Region and date of the price catalog.
    pub prices: String,
    /// Capacity changes, partition splits and refused actions, in time order.
    pub capacity_events: Vec<CapacityEvent>,
    /// The scenario's `[[at]]` timeline: (second, action).
    pub timeline: Vec<(u64, String)>,
    /// The busiest keys.
    pub hot_keys: Vec<HotKey>,
    /// Item collections above 1 GB or with refused writes (LSI tables).
    pub item_collections: Vec<CollectionInfo>,
    /// The DAX cluster in front of the table, if any (its hits never reach the table: the
    /// patterns' offered requests are the misses).
    #[serde(default)]
    pub dax: Option<crate::engine::DaxOutcome>,
    /// The scenario file's text.
    pub scenario_text: String,
    /// The scenario file, as given on the command line (for the commands the verdict suggests).
    #[serde(default)]
    pub scenario_path: String,
    /// UTC instant of the scenario's `start`, seconds since the Unix epoch.
    #[serde(default = "default_start")]
    pub start_unix_s: i64,
    /// Did the design hold, where, when, why, what it cost, what to try next.
    #[serde(default)]
    pub verdict: Verdict,
    /// The share of hours [read, write] a provisioned unit must be held for 1-year reserved
    /// capacity to cost less (at this run's prices): the load-duration chart's line.
    #[serde(default = "default_break_even")]
    pub reserved_break_even: [f64; 2],
}

fn default_break_even() -> [f64; 2] {
    let c = crate::cost::Catalog::builtin();
    [c.reserved_break_even(false, 1), c.reserved_break_even(true, 1)]
}

fn default_start() -> i64 {
    crate::scenario::defaults::START_UNIX_S
}

/// The SDK clients the traffic was sent from.
#[derive(Debug, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ClientSummary {
    /// Retry preset (`client.retry`).
    pub retry: String,
    /// SDK client instances (`client.instances`); each has its own retry quota.
    pub instances: u64,
    /// Attempts per request, the first included.
    pub max_attempts: u32,
    /// Retry-quota tokens per instance (0: no quota).
    pub retry_quota: u64,
}

impl ClientSummary {
    /// One line for the summary and the report: `1 SDK instance (sdk-2026 retries, up to 4
    /// attempts, a 500-token retry quota each) — all traffic shares one quota; …`.
    #[must_use]
    pub fn describe(&self) -> String {
        let retries = self.max_attempts > 1;
        let how = if !retries {
            "no retries".to_string()
        } else if self.retry_quota == 0 {
            format!("{} retries, up to {} attempts, no retry quota", self.retry, self.max_attempts)
        } else {
            format!("{} retries, up to {} attempts, a {}-token retry quota each", self.retry, self.max_attempts, self.retry_quota)
        };
        let shared = retries && self.instances == 1 && self.retry_quota > 0;
        format!(
            "{} SDK instance{} ({how}){}",
            self.instances,
            if self.instances == 1 { "" } else { "s" },
            if shared { " — all traffic shares one quota; set client.instances to your fleet size" } else { "" }
        )
    }
}

impl ClosedLoopSummary {
    /// `8 threads, 100000 requests: all answered in 125.300 s` and the like.
    #[must_use]
    pub fn describe(&self, duration_s: u64) -> String {
        let head = format!("closed loop of {} threads, {} requests", self.threads, self.total);
        match self.elapsed_s {
            Some(e) if self.stopped_on_failure => {
                format!("{head}: stopped at a failed request; {} answered, the last at {e:.3} s", self.answered)
            }
            Some(e) => format!("{head}: all answered in {e:.3} s"),
            None => format!("{head}: not finished, {} answered in the {duration_s} s simulated", self.answered),
        }
    }
}

/// Request counts.
#[derive(Debug, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RequestSummary {
    /// First attempts.
    pub offered: u64,
    /// Succeeded.
    pub served: u64,
    /// Gave up (attempts or retry quota exhausted).
    pub failed: u64,
    /// Waiting to retry at the end.
    pub pending_at_end: u64,
    /// Attempts, retries included.
    pub attempts: u64,
    /// Attempts throttled.
    pub throttled_attempts: u64,
    /// Requests throttled at least once.
    pub throttled_requests: u64,
    /// throttled_attempts / attempts.
    pub throttled_attempt_share: f64,
    /// failed / offered.
    pub failed_share: f64,
}

/// One pattern.
#[derive(Debug, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PatternSummary {
    /// Name.
    pub name: String,
    /// API operation.
    pub op: String,
    /// Counts.
    #[serde(flatten)]
    pub requests: RequestSummary,
    /// Failed because attempts ran out.
    pub failed_attempts_exhausted: u64,
    /// Failed because the retry quota was empty.
    pub failed_retry_quota: u64,
    /// Failed with ItemCollectionSizeLimitExceededException (LSI tables).
    pub failed_item_collection_limit: u64,
    /// Served writes whose condition failed (ConditionalCheckFailedException; a transaction
    /// cancelled on its condition): they consumed their table's write units and wrote nothing.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub condition_failed: u64,
    /// Reads of a GSI created during the run, sent before its backfill completed: failed with
    /// a ValidationException (the index cannot be read while it is being created).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub failed_index_not_ready: u64,
    /// For a GSI read with `after_write`: share of reads that miss the not yet propagated item.
    pub stale_read_share: Option<f64>,
    /// Latency of the pattern's successful requests, ms (`SuccessfulRequestLatency` as the
    /// client sees it, retries' waits included); `null` when none was served.
    #[serde(default)]
    pub latency_ms: Option<LatencySummary>,
    /// A closed loop's progress: how long it took, or how far it got.
    pub closed_loop: Option<ClosedLoopSummary>,
}

/// How a closed loop (threads that each wait for an answer) fared.
#[derive(Debug, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ClosedLoopSummary {
    /// Threads.
    pub threads: u64,
    /// Requests it was to make.
    pub total: u64,
    /// Requests answered (served or failed).
    pub answered: u64,
    /// Seconds from the start to the last answer, if it finished within the run.
    pub elapsed_s: Option<f64>,
    /// It stopped at a failed request (`stop_on_failure`).
    pub stopped_on_failure: bool,
}

/// One table or GSI.
#[derive(Debug, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ResourceSummary {
    /// Name.
    pub name: String,
    /// Table or GSI.
    pub kind: ResourceKind,
    /// Capacity mode at the end of the run.
    pub mode: CapacityMode,
    /// Partitions at the end.
    pub partitions: u64,
    /// Provisioned RCU at the end (0 on-demand).
    pub provisioned_rcu: u64,
    /// Provisioned WCU at the end.
    pub provisioned_wcu: u64,
    /// Read units consumed.
    pub consumed_rcu: f64,
    /// Write units consumed.
    pub consumed_wcu: f64,
    /// Read units asked for by all attempts.
    pub requested_rcu: f64,
    /// Write units asked for by all attempts.
    pub requested_wcu: f64,
    /// Highest one-minute average consumption, RCU per second.
    pub peak_minute_rcu_per_s: f64,
    /// Highest one-minute average consumption, WCU per second.
    pub peak_minute_wcu_per_s: f64,
    /// Read throttle events.
    pub read_throttle_events: u64,
    /// Write throttle events.
    pub write_throttle_events: u64,
    /// Throttle events by `ThrottlingReasons` reason (non-zero only).
    pub throttle_events_by_reason: BTreeMap<String, u64>,
    /// Requests with a throttled event (table only; CloudWatch `ThrottledRequests`).
    pub throttled_requests: u64,
    /// Warm throughput at the end, read units per second.
    pub warm_read: u64,
    /// Warm throughput at the end, write units per second.
    pub warm_write: u64,
    /// Data stored at the end (items plus 100 bytes each), GB (10^9 bytes).
    pub storage_gb: f64,
    /// GSI propagation delay of the index writes applied, ms.
    pub replication_lag_ms: Option<LagSummary>,
    /// Global tables: this region's replication (the table's and each replica's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replica: Option<ReplicaSummary>,
    /// Auto scaling configured (at the start).
    #[serde(default)]
    pub autoscaling: bool,
    /// Where and when each dimension throttled (dimensions that never did are absent).
    #[serde(default)]
    pub throttling: Vec<ThrottleSpan>,
}

/// One region's replication over the run (global tables): the table's or a replica's.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[non_exhaustive]
pub struct ReplicaSummary {
    /// Region.
    pub region: String,
    /// Write units replicated from the other regions applied.
    pub replicated_write_units: f64,
    /// Longest replication wait beyond DynamoDB's normal latency, seconds (an estimate).
    pub max_lag_s: f64,
    /// Start of the minute it happened, seconds since the start.
    pub max_lag_at_s: u64,
    /// Replicated write units still queued at the end.
    pub backlog_at_end_units: f64,
    /// Minutes with a replication backlog at their end.
    pub minutes_behind: u64,
}

impl ReplicaSummary {
    fn of(region: &str, series: &[MinuteRecord]) -> Self {
        let (mut max_lag, mut at) = (0u64, 0u64);
        for (m, x) in series.iter().enumerate() {
            if x.replication_lag_us > max_lag {
                max_lag = x.replication_lag_us;
                at = m as u64 * 60;
            }
        }
        ReplicaSummary {
            region: region.to_string(),
            replicated_write_units: units(series.iter().map(|x| x.replicated_writes).sum()),
            max_lag_s: (max_lag as f64 / 1e3).round() / 1e3,
            max_lag_at_s: at,
            backlog_at_end_units: units(series.last().map_or(0, |x| x.replication_backlog)),
            minutes_behind: series.iter().filter(|x| x.replication_backlog > 0).count() as u64,
        }
    }
}

/// When one resource and dimension throttled, and on which partitions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ThrottleSpan {
    /// `read` or `write`.
    pub dimension: String,
    /// Throttle events.
    pub events: u64,
    /// Start of the first minute with throttle events, seconds since the start.
    pub first_s: u64,
    /// Start of the last minute with throttle events.
    pub last_s: u64,
    /// Minutes with throttle events.
    pub minutes: u64,
    /// Start of the minute with the most throttle events (the first such).
    pub worst_minute_s: u64,
    /// Throttle events in that minute.
    pub worst_minute_events: u64,
    /// Which partitions throttled (when partitions were recorded).
    pub partitions: Option<PartitionShare>,
}

impl ThrottleSpan {
    /// `reason` (a `ThrottlingReasons` name) is of this span's dimension.
    #[must_use]
    pub fn is_reason(&self, reason: &str) -> bool {
        reason.contains(if self.dimension == "read" { "Read" } else { "Write" })
    }
}

/// How throttle events spread over partitions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PartitionShare {
    /// Partitions with at least one throttle event.
    pub throttled: u64,
    /// The partition with the most throttle events (the lowest number of a tie).
    pub worst: u32,
    /// Its throttle events.
    pub worst_events: u64,
}

/// GSI propagation delay, ms.
#[derive(Debug, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LagSummary {
    /// Median.
    pub p50: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Largest.
    pub max: f64,
}

/// Latency percentiles, ms.
#[derive(Debug, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LatencySummary {
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// 99.9th percentile.
    pub p999: f64,
    /// Largest.
    pub max: f64,
}

impl LatencySummary {
    /// The percentiles of a histogram of µs, in ms.
    fn of(h: &crate::stats::Histogram) -> Self {
        let ms = |us: u64| us as f64 / 1_000.0;
        LatencySummary {
            p50: ms(h.quantile(0.5)),
            p90: ms(h.quantile(0.9)),
            p99: ms(h.quantile(0.99)),
            p999: ms(h.quantile(0.999)),
            max: ms(h.max()),
        }
    }
}

/// Engine statistics.
#[derive(Debug, Serialize, Deserialize)]
#[non_exhaustive]
pub struct EngineSummary {
    /// Seconds admitted in bulk.
    pub bulk_seconds: u64,
    /// Seconds replayed request by request.
    pub replayed_seconds: u64,
}

fn action_label(a: &Action) -> String {
    let units = |r: Option<u64>, w: Option<u64>| {
        [r.map(|x| format!("read {x}")), w.map(|x| format!("write {x}"))].into_iter().flatten().collect::<Vec<_>>().join(", ")
    };
    match a {
        Action::SetCapacity { read, write, .. } => format!("set_capacity {}", units(*read, *write)),
        Action::Prewarm { read, write, .. } => format!("prewarm {}", units(*read, *write)),
        Action::SwitchMode { on_demand: true, .. } => "switch_mode on_demand".to_string(),
        Action::SwitchMode { on_demand: false, units: None } => "switch_mode provisioned".to_string(),
        Action::SwitchMode { on_demand: false, units: Some([r, w]) } => format!("switch_mode provisioned read {r}, write {w}"),
        Action::AddGsi(g) => format!("add_gsi #{g}"),
        Action::ScaleRate { factor, .. } => format!("scale_rate x{factor}"),
        Action::SetAutoscaling { changes, .. } => {
            let part = |name: &str, c: &Option<crate::scenario::ScalingChange>| {
                c.map(|c| {
                    let f = [
                        c.min.map(|x| format!("min {x}")),
                        c.max.map(|x| format!("max {x}")),
                        c.target.map(|t| format!("target {:.0}%", t * 100.0)),
                    ];
                    format!("{name} {}", f.into_iter().flatten().collect::<Vec<_>>().join(" "))
                })
            };
            let parts: Vec<String> = [part("read", &changes[0]), part("write", &changes[1])].into_iter().flatten().collect();
            format!("set_autoscaling {}", parts.join(", "))
        }
    }
}

/// Where and when resource `ri` throttled, per dimension.
fn throttle_spans(r: &RunResult, ri: usize, series: &[MinuteRecord]) -> Vec<ThrottleSpan> {
    let mut out = Vec::new();
    for d in Dim::ALL {
        let mut span: Option<ThrottleSpan> = None;
        for (m, x) in series.iter().enumerate() {
            let n = x.events(d);
            if n == 0 {
                continue;
            }
            let t = m as u64 * 60;
            let s = span.get_or_insert(ThrottleSpan {
                dimension: d.name().to_string(),
                events: 0,
                first_s: t,
                last_s: t,
                minutes: 0,
                worst_minute_s: t,
                worst_minute_events: 0,
                partitions: None,
            });
            s.events += n;
            s.last_s = t;
            s.minutes += 1;
            if n > s.worst_minute_events {
                s.worst_minute_s = t;
                s.worst_minute_events = n;
            }
        }
        let Some(mut s) = span else { continue };
        let mut by_partition: BTreeMap<u32, u64> = BTreeMap::new();
        for p in r.partitions.iter().filter(|p| usize::from(p.resource) == ri && p.throttles[d as usize] > 0) {
            *by_partition.entry(p.partition).or_default() += u64::from(p.throttles[d as usize]);
        }
        // The first of the largest: iterate in partition order, keep strictly larger.
        let mut best: Option<(u32, u64)> = None;
        for (&p, &n) in &by_partition {
            if best.is_none_or(|b| n > b.1) {
                best = Some((p, n));
            }
        }
        s.partitions = best.map(|(worst, worst_events)| PartitionShare { throttled: by_partition.len() as u64, worst, worst_events });
        out.push(s);
    }
    out
}

fn share(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        (a as f64 / b as f64 * 1e6).round() / 1e6
    }
}

impl ReplicaSummary {
    /// One line on a region of a global table: `Global table, eu-west-1: 1,234 replicated
    /// write units applied; at most 73 s behind (at +9 min, estimate), caught up`.
    #[must_use]
    pub fn describe(&self, name: &str) -> String {
        let behind = if self.max_lag_s > 0.0 {
            format!(
                "; at most {:.0} s behind (at +{} min, beyond the normal latency; estimate), {}",
                self.max_lag_s,
                self.max_lag_at_s / 60,
                if self.backlog_at_end_units > 0.0 {
                    format!("{:.0} units still to replicate at the end", self.backlog_at_end_units)
                } else {
                    format!("caught up ({} minute(s) with a backlog)", self.minutes_behind)
                }
            )
        } else {
            "; never behind".to_string()
        };
        format!(
            "Global table, {} ({name}): {} write units replicated in from the other regions{behind}",
            self.region,
            self.replicated_write_units.round() as u64
        )
    }
}

/// One line on a DAX cluster: its hits, its hit ratio and its busiest second, each an
/// estimate.
#[must_use]
pub fn describe_dax(d: &crate::engine::DaxOutcome) -> String {
    let hits: f64 = d.minutes.iter().map(|m| m.hits).sum();
    let over = d.minutes_over();
    format!(
        "DAX: {} x {}, {} cache hits never reached the table ({:.1} % of cached reads; estimate), busiest second at {:.0} % of the cluster's ceiling (estimate){}",
        d.nodes,
        d.node_type,
        hits.round() as u64,
        d.hit_ratio() * 100.0,
        d.peak_load_share() * 100.0,
        if over > 0 { format!("; above it in {over} minute(s): DAX would throttle, add nodes or a larger node type") } else { String::new() }
    )
}

impl Summary {
    /// Summarises a run of `sc`.
    #[must_use]
    pub fn new(sc: &Scenario, r: &RunResult, catalog: &Catalog) -> Self {
        let t = r.totals();
        let patterns = sc
            .patterns
            .iter()
            .zip(&r.patterns)
            .enumerate()
            .map(|(i, (p, t))| {
                let req = RequestSummary {
                    offered: t.offered,
                    served: t.served,
                    failed: t.failed(),
                    pending_at_end: t.pending_at_end,
                    attempts: t.attempts,
                    throttled_attempts: t.throttled_attempts,
                    throttled_requests: t.throttled_requests,
                    throttled_attempt_share: share(t.throttled_attempts, t.attempts),
                    failed_share: share(t.failed(), t.offered),
                };
                PatternSummary {
                    name: p.name.clone(),
                    op: p.op.api_name().to_string(),
                    requests: req,
                    failed_attempts_exhausted: t.failed_exhausted,
                    failed_retry_quota: t.failed_quota,
                    failed_item_collection_limit: t.failed_collection,
                    condition_failed: t.condition_failed,
                    failed_index_not_ready: t.failed_index_not_ready,
                    stale_read_share: r.stale_read_share.get(i).copied().flatten(),
                    latency_ms: (t.latency.count() > 0).then(|| LatencySummary::of(&t.latency)),
                    closed_loop: match sc.patterns[i].rate {
                        crate::scenario::RateShape::ClosedLoop(c) => Some(ClosedLoopSummary {
                            threads: c.threads,
                            total: c.total,
                            answered: t.served + t.failed(),
                            elapsed_s: t.finished_us.map(|us| us as f64 / 1e6),
                            stopped_on_failure: c.stop_on_failure && t.failed() > 0 && t.served + t.failed() < c.total,
                        }),
                        _ => None,
                    },
                }
            })
            .collect();
        let total = RequestSummary {
            offered: t.offered,
            served: t.served,
            failed: t.failed,
            pending_at_end: t.pending_at_end,
            attempts: t.attempts,
            throttled_attempts: t.throttled_attempts,
            throttled_requests: t.throttled_requests,
            throttled_attempt_share: share(t.throttled_attempts, t.attempts),
            failed_share: share(t.failed, t.offered),
        };
        let resources = r
            .resources
            .iter()
            .enumerate()
            .map(|(ri, res)| {
                let series = &res.minutes;
                let mut sum = MinuteRecord::default();
                let mut peak = [0f64; 2];
                for (m, x) in series.iter().enumerate() {
                    sum.add(x);
                    let secs = r.minute_seconds(m) as f64;
                    for (p, c) in peak.iter_mut().zip(x.consumed) {
                        *p = p.max(units(c) / secs);
                    }
                }
                let last = series.last().cloned().unwrap_or_default();
                let is_index = res.kind == ResourceKind::Gsi;
                let mut by_reason = BTreeMap::new();
                for reason in Reason::ALL {
                    for d in Dim::ALL {
                        let n = sum.throttle_events[reason as usize][d as usize];
                        if n > 0 {
                            by_reason.insert(reason.api_reason(is_index, d), n);
                        }
                    }
                }
                let spans = throttle_spans(r, ri, series);
                let autoscaling = if ri == 0 || res.kind == ResourceKind::Replica {
                    sc.table.autoscaling.is_some()
                } else {
                    sc.gsis.iter().any(|g| g.name == res.name && g.autoscaling.is_some())
                };
                ResourceSummary {
                    autoscaling,
                    throttling: spans,
                    name: res.name.clone(),
                    kind: res.kind,
                    mode: res.final_mode,
                    partitions: last.partitions,
                    provisioned_rcu: last.provisioned[0],
                    provisioned_wcu: last.provisioned[1],
                    consumed_rcu: units(sum.consumed[0]),
                    consumed_wcu: units(sum.consumed[1]),
                    requested_rcu: units(sum.requested[0]),
                    requested_wcu: units(sum.requested[1]),
                    peak_minute_rcu_per_s: (peak[0] * 1e3).round() / 1e3,
                    peak_minute_wcu_per_s: (peak[1] * 1e3).round() / 1e3,
                    read_throttle_events: sum.events(Dim::Read),
                    write_throttle_events: sum.events(Dim::Write),
                    throttle_events_by_reason: by_reason,
                    throttled_requests: sum.throttled_requests[0] + sum.throttled_requests[1],
                    warm_read: last.warm[0],
                    warm_write: last.warm[1],
                    storage_gb: (res.stored_bytes as f64 / 1e6).round() / 1e3,
                    replication_lag_ms: res.lag_ms.map(|l| LagSummary { p50: l[0], p99: l[1], max: l[2] }),
                    replica: match (&res.region, res.kind) {
                        (Some(region), _) => Some(ReplicaSummary::of(region, series)),
                        (None, ResourceKind::Table) if !sc.replicas.is_empty() => Some(ReplicaSummary::of(&sc.pricing.region, series)),
                        _ => None,
                    },
                }
            })
            .collect();
        let h = &r.latency;
        let mut s = Self {
            ddbsim_version: env!("CARGO_PKG_VERSION").to_string(),
            scenario: sc.name.clone(),
            description: sc.description.clone(),
            seed: r.seed,
            fidelity: r.fidelity.to_string(),
            duration_s: r.duration_s,
            client: ClientSummary {
                retry: sc.client.preset.to_string(),
                instances: sc.client.instances,
                max_attempts: sc.client.attempts,
                retry_quota: sc.client.quota,
            },
            requests: total,
            patterns,
            resources,
            latency_ms: LatencySummary::of(h),
            engine: EngineSummary { bulk_seconds: r.bulk_seconds, replayed_seconds: r.replayed_seconds },
            cost: bill_of(sc, r, catalog),
            prices: format!("{} prices read on {}", catalog.region, catalog.prices_read_on),
            capacity_events: r.events.clone(),
            timeline: sc
                .actions
                .iter()
                .filter(|a| a.time.as_secs() < r.duration_s)
                .map(|a| (a.time.as_secs(), action_label(&a.action)))
                .collect(),
            hot_keys: r.hot_keys.clone(),
            item_collections: r.item_collections.clone(),
            dax: r.dax.clone(),
            scenario_text: sc.source_text.clone(),
            scenario_path: sc.source_path.display().to_string(),
            start_unix_s: sc.start_unix_s,
            verdict: Verdict::default(),
            reserved_break_even: [catalog.reserved_break_even(false, 1), catalog.reserved_break_even(true, 1)],
        };
        s.judge(DEFAULT_MAX_THROTTLE);
        s
    }

    /// Judges the run against `max_throttle` (the throttled share of attempts, and of requests
    /// failed, the design may reach).
    pub fn judge(&mut self, max_throttle: f64) {
        self.verdict = Verdict::of(self, max_throttle);
    }

    /// Pretty JSON with a trailing newline.
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("summary is plain data");
        s.push('\n');
        s
    }
}

/// Serde: leave a zero count out.
#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
fn is_zero(x: &u64) -> bool {
    *x == 0
}

#[cfg(test)]
mod client_line_tests {
    use super::ClientSummary;

    /// The clients line warns about one shared quota only when there are retries and a quota.
    #[test]
    fn the_clients_line_says_what_was_assumed() {
        let one = ClientSummary { retry: "sdk-2026".into(), instances: 1, max_attempts: 4, retry_quota: 500 };
        assert_eq!(
            one.describe(),
            "1 SDK instance (sdk-2026 retries, up to 4 attempts, a 500-token retry quota each) — all traffic shares one quota; set client.instances to your fleet size"
        );
        let fleet = ClientSummary { instances: 40, ..one };
        assert_eq!(fleet.describe(), "40 SDK instances (sdk-2026 retries, up to 4 attempts, a 500-token retry quota each)");
        let none = ClientSummary { retry: "none".into(), instances: 1, max_attempts: 1, retry_quota: 500 };
        assert_eq!(none.describe(), "1 SDK instance (no retries)");
    }
}
