//! The CSV files: CloudWatch-style one-minute series in long format, and per-partition minutes.

use crate::engine::RunResult;
use crate::model::{Dim, Reason};
use crate::scenario::{PARTITION_READ_CAP, PARTITION_WRITE_CAP};
use crate::units::MILLI;
use serde::Serialize;

/// One row of `timeseries.csv`.
#[derive(Debug, Serialize, serde::Deserialize, PartialEq)]
pub struct SeriesRow {
    /// Start of the minute, seconds since the run started.
    pub time_s: u64,
    /// Table or index name, or `client`.
    pub resource: String,
    /// Metric name (CloudWatch's where CloudWatch has one).
    pub metric: String,
    /// Value.
    pub value: f64,
}

/// One row of `partitions.csv`.
#[derive(Debug, Serialize, serde::Deserialize, PartialEq)]
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
}

/// Milli-units as units.
#[must_use]
pub fn units(m: u64) -> f64 {
    m as f64 / MILLI as f64
}

fn minute_secs(r: &RunResult, minute: usize) -> u64 {
    (r.duration_s - minute as u64 * 60).min(60)
}

/// The rows of `timeseries.csv`.
#[must_use]
pub fn timeseries_rows(r: &RunResult) -> Vec<SeriesRow> {
    let mut rows = Vec::new();
    let minutes = r.rec.resources.first().map_or(0, Vec::len);
    for m in 0..minutes {
        let time_s = m as u64 * 60;
        for (ri, series) in r.rec.resources.iter().enumerate() {
            let x = &series[m];
            let name = &r.resource_names[ri];
            let mut push = |metric: String, value: f64| rows.push(SeriesRow { time_s, resource: name.clone(), metric, value });
            for d in Dim::ALL {
                let w = if d == Dim::Read { "Read" } else { "Write" };
                let i = d as usize;
                push(format!("Consumed{w}CapacityUnits"), units(x.consumed[i]));
                push(format!("Requested{w}CapacityUnits"), units(x.requested[i]));
                if x.provisioned_seconds > 0 {
                    push(format!("Provisioned{w}CapacityUnits"), x.provisioned[i] as f64);
                }
                push(format!("{w}CapacityLimit"), x.capacity[i] as f64);
                push(format!("Warm{w}Throughput"), x.warm[i] as f64);
                push(format!("{w}ThrottleEvents"), x.events(d) as f64);
                for reason in Reason::ALL {
                    push(format!("{w}{}ThroughputThrottleEvents", reason.metric_word()), x.throttle_events[reason as usize][i] as f64);
                }
            }
            if ri == 0 {
                push("ThrottledRequests".into(), (x.throttled_requests[0] + x.throttled_requests[1]) as f64);
            }
            push("PartitionCount".into(), x.partitions as f64);
            if r.resource_is_index[ri] {
                push("ReplicationLatencyP99Ms".into(), x.lag_p99_us as f64 / 1_000.0);
            }
            if r.resource_is_index[ri] && series.iter().any(|m| m.online_progress_bp > 0) {
                push("OnlineIndexConsumedWriteCapacity".into(), units(x.online_consumed));
                push("OnlineIndexPercentageProgress".into(), f64::from(x.online_progress_bp) / 100.0);
            }
        }
        if let Some(l) = r.rec.latency_by_minute.get(m) {
            for (metric, v) in [("LatencyP50Ms", l[0]), ("LatencyP99Ms", l[1]), ("LatencyMaxMs", l[2])] {
                rows.push(SeriesRow { time_s, resource: "client".into(), metric: metric.into(), value: v as f64 / 1_000.0 });
            }
        }
    }
    rows
}

/// The rows of `partitions.csv`.
#[must_use]
pub fn partition_rows(r: &RunResult) -> Vec<PartitionRow> {
    r.rec
        .partitions
        .iter()
        .map(|p| {
            let secs = minute_secs(r, p.minute as usize) as f64;
            PartitionRow {
                time_s: u64::from(p.minute) * 60,
                resource: r.resource_names[p.resource as usize].clone(),
                partition: p.partition,
                consumed_rcu: units(p.consumed[0]),
                consumed_wcu: units(p.consumed[1]),
                read_throttle_events: p.throttles[0],
                write_throttle_events: p.throttles[1],
                read_utilization: round6(units(p.consumed[0]) / (PARTITION_READ_CAP as f64 * secs)),
                write_utilization: round6(units(p.consumed[1]) / (PARTITION_WRITE_CAP as f64 * secs)),
            }
        })
        .collect()
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

fn to_csv<T: Serialize>(rows: &[T]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in rows {
        // Serialising plain numbers and strings into memory cannot fail.
        w.serialize(row).expect("CSV row into memory");
    }
    w.into_inner().expect("CSV into memory")
}

/// `timeseries.csv` as bytes.
#[must_use]
pub fn timeseries_csv(r: &RunResult) -> Vec<u8> {
    to_csv(&timeseries_rows(r))
}

/// `partitions.csv` as bytes.
#[must_use]
pub fn partitions_csv(r: &RunResult) -> Vec<u8> {
    let rows = partition_rows(r);
    if rows.is_empty() {
        // Header only.
        return b"time_s,resource,partition,consumed_rcu,consumed_wcu,read_throttle_events,write_throttle_events,read_utilization,write_utilization\n".to_vec();
    }
    to_csv(&rows)
}
