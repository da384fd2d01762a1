//! The CSV files: CloudWatch-style one-minute series in long format (`timeseries.csv`), and
//! per-partition minutes (`partitions.csv`).

use super::metric::Metric;
use crate::engine::{ResourceKind, RunResult};
use crate::limits::{PARTITION_READ_CAP, PARTITION_WRITE_CAP};
use crate::model::{Dim, Reason};
use crate::units::MILLI;
use serde::{Deserialize, Serialize};

/// One row of `timeseries.csv`.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
pub struct SeriesRow {
    /// Start of the minute, seconds since the run started.
    pub time_s: u64,
    /// Table or index name, or `client`.
    pub resource: String,
    /// Metric.
    pub metric: Metric,
    /// Value.
    pub value: f64,
}

/// One row of `partitions.csv`.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
pub struct PartitionRow {
    /// Start of the minute, seconds since the run started.
    pub time_s: u64,
    /// Table or index name.
    pub resource: String,
    /// Partition number, in hash-key order.
    pub partition: u32,
    /// Read units consumed in the minute.
    pub consumed_rcu: f64,
    /// Write units consumed in the minute.
    pub consumed_wcu: f64,
    /// Read throttle events in the minute.
    pub read_throttle_events: u64,
    /// Write throttle events in the minute.
    pub write_throttle_events: u64,
    /// Consumed reads over the partition's 3,000 RU/s cap for the minute, 0-1.
    pub read_utilization: f64,
    /// Consumed writes over the partition's 1,000 WU/s cap for the minute, 0-1.
    pub write_utilization: f64,
    /// Single-table designs: each entity type's share of the units the partition served in
    /// the minute, largest first (`Order=0.618;Review=0.382`); empty without entity types.
    #[serde(default)]
    pub entities: String,
}

/// Milli-units as units.
#[must_use]
pub fn units(m: u64) -> f64 {
    m as f64 / MILLI as f64
}

/// The rows of `timeseries.csv`: per minute, per resource, per metric. The provisioned series
/// appear for the minutes the resource was provisioned.
#[must_use]
pub fn timeseries_rows(r: &RunResult) -> Vec<SeriesRow> {
    let mut rows = Vec::new();
    for_each_series(r, |row| rows.push(row));
    rows
}

/// Each row of `timeseries.csv`, in file order, without holding them all.
pub fn for_each_series(r: &RunResult, mut f: impl FnMut(SeriesRow)) {
    let minutes = r.resources.first().map_or(0, |t| t.minutes.len());
    for m in 0..minutes {
        let time_s = m as u64 * 60;
        for res in &r.resources {
            let x = &res.minutes[m];
            let mut push = |metric: Metric, value: f64| f(SeriesRow { time_s, resource: res.name.clone(), metric, value });
            for d in Dim::ALL {
                let i = d as usize;
                push(Metric::Consumed(d), units(x.consumed[i]));
                push(Metric::Requested(d), units(x.requested[i]));
                if x.was_provisioned() {
                    push(Metric::Provisioned(d), x.provisioned[i] as f64);
                }
                push(Metric::CapacityLimit(d), x.capacity[i] as f64);
                push(Metric::WarmThroughput(d), x.warm[i] as f64);
                push(Metric::ThrottleEvents(d), x.events(d) as f64);
                for reason in Reason::ALL {
                    push(Metric::ReasonThrottleEvents(d, reason), x.throttle_events[reason as usize][i] as f64);
                }
            }
            let index = res.kind() == ResourceKind::Gsi;
            if !index {
                push(Metric::ThrottledRequests, (x.throttled_requests[0] + x.throttled_requests[1]) as f64);
                if r.condition_writes {
                    push(Metric::ConditionalCheckFailedRequests, x.conditional_check_failed as f64);
                }
                if r.user_errors_reported {
                    push(Metric::UserErrors, x.user_errors as f64);
                }
                for op in crate::scenario::Op::ALL {
                    let i = op as usize;
                    if let Some(us) = r.operations[i] {
                        let n = x.op_ok[i];
                        push(Metric::SuccessfulRequests(op), n as f64);
                        push(Metric::SuccessfulRequestLatencyAvgMs(op), if n > 0 { us as f64 / 1_000.0 } else { 0.0 });
                    }
                }
            }
            push(Metric::PartitionCount, x.partitions as f64);
            if index {
                push(Metric::ReplicationLatencyP99Ms, x.lag_p99_us as f64 / 1_000.0);
            }
            if res.kind() == ResourceKind::Replica
                || (res.kind() == ResourceKind::Table && r.resources.iter().any(|o| o.kind() == ResourceKind::Replica))
            {
                push(Metric::ReplicationLagMaxMs, x.replication_lag_us as f64 / 1_000.0);
                push(Metric::PendingReplicationUnits, units(x.replication_backlog));
            }
            if index && res.minutes.iter().any(|m| m.online_progress_bp > 0) {
                push(Metric::OnlineIndexConsumedWriteCapacity, units(x.online_consumed));
                push(Metric::OnlineIndexPercentageProgress, f64::from(x.online_progress_bp) / 100.0);
            }
        }
        if let Some(l) = r.latency_by_minute.get(m) {
            for (metric, v) in [(Metric::LatencyP50Ms, l[0]), (Metric::LatencyP99Ms, l[1]), (Metric::LatencyMaxMs, l[2])] {
                f(SeriesRow { time_s, resource: super::metric::CLIENT.into(), metric, value: v as f64 / 1_000.0 });
            }
        }
    }
}

/// The rows of `partitions.csv`.
#[must_use]
pub fn partition_rows(r: &RunResult) -> Vec<PartitionRow> {
    let mut rows = Vec::new();
    for_each_partition(r, |row| rows.push(row));
    rows
}

/// Each row of `partitions.csv`, in file order, without holding them all.
pub fn for_each_partition(r: &RunResult, mut f: impl FnMut(PartitionRow)) {
    for p in &r.partitions {
        let secs = r.minute_seconds(p.minute as usize) as f64;
        f(PartitionRow {
            time_s: u64::from(p.minute) * 60,
            resource: r.resources[p.resource as usize].name.clone(),
            partition: p.partition,
            consumed_rcu: units(p.consumed[0].into()),
            consumed_wcu: units(p.consumed[1].into()),
            read_throttle_events: p.throttles[0].into(),
            write_throttle_events: p.throttles[1].into(),
            read_utilization: round6(units(p.consumed[0].into()) / (PARTITION_READ_CAP as f64 * secs)),
            write_utilization: round6(units(p.consumed[1].into()) / (PARTITION_WRITE_CAP as f64 * secs)),
            entities: r.entity_shares.get(p.entities as usize).cloned().unwrap_or_default(),
        });
    }
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// Rows as CSV, with a header row even when there are none.
pub(crate) fn to_csv<T: Serialize>(rows: &[T], header: &str) -> Vec<u8> {
    let mut out = Vec::new();
    // Into memory: cannot fail.
    let _ = write_csv(&mut out, header, |emit| rows.iter().try_for_each(emit));
    out
}

/// Writes CSV into `w`: the header, then every row `rows` emits (serde rows, no hand-kept
/// header lists beyond the empty file's).
///
/// # Errors
/// An I/O error of `w`.
pub(crate) fn write_csv<T: Serialize>(
    w: &mut dyn std::io::Write,
    header: &str,
    rows: impl FnOnce(&mut dyn FnMut(&T) -> std::io::Result<()>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut any = false;
    let mut cw = csv::Writer::from_writer(&mut *w);
    rows(&mut |row| {
        any = true;
        cw.serialize(row).map_err(std::io::Error::other)
    })?;
    cw.flush()?;
    drop(cw);
    if !any {
        writeln!(w, "{header}")?;
    }
    Ok(())
}

/// The header of `timeseries.csv`.
pub(crate) const TIMESERIES_HEADER: &str = "time_s,resource,metric,value";
/// The header of `partitions.csv`.
pub(crate) const PARTITIONS_HEADER: &str =
    "time_s,resource,partition,consumed_rcu,consumed_wcu,read_throttle_events,write_throttle_events,read_utilization,write_utilization,entities";

/// `timeseries.csv` as bytes.
#[must_use]
pub fn timeseries_csv(rows: &[SeriesRow]) -> Vec<u8> {
    to_csv(rows, TIMESERIES_HEADER)
}

/// `partitions.csv` as bytes.
#[must_use]
pub fn partitions_csv(rows: &[PartitionRow]) -> Vec<u8> {
    to_csv(rows, PARTITIONS_HEADER)
}
