//! The parts of `summary.json` about each table, GSI and replica: capacity, consumption,
//! throttling by reason, and where and when each dimension throttled.

use super::requests::LagSummary;
use crate::engine::{ResourceKind, RunResult};
use crate::metrics::MinuteRecord;
use crate::model::{CapacityMode, Dim, Reason, ThrottlingReason};
use crate::report::tables::units;
use crate::scenario::Scenario;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One table or GSI.
#[derive(Debug, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ResourceSummary {
    /// Name.
    pub name: String,
    /// Which of the table's resources (not in JSON: `name` and `kind` say it there).
    #[serde(skip)]
    pub id: crate::scenario::ResourceId,
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
    pub throttle_events_by_reason: BTreeMap<ThrottlingReason, u64>,
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
    /// Dimensions the history the scenario was imported from has no series for (a GSI's
    /// `no_history`): the charts show their panel empty, saying so.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub no_history: Vec<Dim>,
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
    /// Reads or writes.
    pub dimension: Dim,
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
    /// `reason` is of this span's dimension.
    #[must_use]
    pub fn is_reason(&self, reason: ThrottlingReason) -> bool {
        reason.dim == self.dimension
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
                dimension: d,
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

/// Each table, GSI and replica: capacity at the end, consumption, throttling by reason and
/// where and when each dimension throttled.
pub(super) fn resources_of(sc: &Scenario, r: &RunResult) -> Vec<ResourceSummary> {
    r.resources
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
            let is_index = res.kind() == ResourceKind::Gsi;
            let mut by_reason = BTreeMap::new();
            for reason in Reason::ALL {
                for d in Dim::ALL {
                    let n = sum.throttle_events[reason as usize][d as usize];
                    if n > 0 {
                        by_reason.insert(ThrottlingReason { on_index: is_index, dim: d, reason }, n);
                    }
                }
            }
            let spans = throttle_spans(r, ri, series);
            let gsi = res.id.gsi_number().map(|g| &sc.gsis[g]);
            let autoscaling = gsi.map_or(sc.table.autoscaling.is_some(), |g| g.autoscaling.is_some());
            let no_history = gsi.map_or_else(Vec::new, |g| Dim::ALL.into_iter().filter(|d| g.no_history[*d as usize]).collect());
            ResourceSummary {
                autoscaling,
                throttling: spans,
                no_history,
                name: res.name.clone(),
                id: res.id,
                kind: res.kind(),
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
                replica: match (&res.region, res.kind()) {
                    (Some(region), _) => Some(ReplicaSummary::of(region, series)),
                    (None, ResourceKind::Table) if !sc.replicas.is_empty() => Some(ReplicaSummary::of(&sc.pricing.region, series)),
                    _ => None,
                },
            }
        })
        .collect()
}
