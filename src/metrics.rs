//! What a run records: CloudWatch-style one-minute series per resource and per partition,
//! per-pattern totals, and a latency histogram. Plain data; the report module formats it.

use crate::model::{Dim, Reason};
pub use crate::stats::Histogram;

/// One minute of one resource (table or GSI).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceMinute {
    /// Milli-units consumed, by [`Dim`] (CloudWatch `Consumed*CapacityUnits`, Sum).
    pub consumed: [u64; 2],
    /// Milli-units asked for by every attempt, admitted or not.
    pub requested: [u64; 2],
    /// Milli-units asked for by first attempts only: the demand, whatever the capacity.
    pub offered: [u64; 2],
    /// Throttle events by [`Reason`] and [`Dim`].
    pub throttle_events: [[u64; 2]; 4],
    /// Requests with a throttled event, by the request's [`Dim`] (`ThrottledRequests`).
    pub throttled_requests: [u64; 2],
    /// Provisioned units in force in the last provisioned second of the minute (0 when the
    /// resource was on-demand the whole minute).
    pub provisioned: [u64; 2],
    /// Table-level limit, units per second (provisioned, or on-demand instant capacity).
    pub capacity: [u64; 2],
    /// Warm throughput at the end of the minute, units per second.
    pub warm: [u64; 2],
    /// Provisioned unit-seconds in the minute (time-weighted provisioned capacity).
    pub provisioned_unit_seconds: [u64; 2],
    /// Bytes stored at the end of the minute.
    pub stored_bytes: u64,
    /// Milli write units the index backfill consumed (CloudWatch `OnlineIndexConsumedWriteCapacity`,
    /// not included in `consumed`).
    pub online_consumed: u64,
    /// Backfill progress at the end of the minute, basis points (10000 = done); 0 when none.
    pub online_progress_bp: u32,
    /// GSI propagation delay of the minute's index writes, 99th percentile, µs (0 if none).
    pub lag_p99_us: u64,
    /// Partitions at the end of the minute.
    pub partitions: u64,
    /// Capacity mode at the end of the minute.
    pub mode: crate::model::CapacityMode,
    /// Seconds of the minute the resource was provisioned (the rest it was on-demand).
    pub provisioned_seconds: u32,
    /// Milli-units consumed while the resource was on-demand, by [`Dim`] (what on-demand bills).
    pub on_demand_consumed: [u64; 2],
}

impl ResourceMinute {
    /// Throttle events of one dimension, all reasons.
    #[must_use]
    pub fn events(&self, d: Dim) -> u64 {
        self.throttle_events.iter().map(|r| r[d as usize]).sum()
    }

    /// Adds `other` (for totals).
    pub fn add(&mut self, other: &ResourceMinute) {
        for i in 0..2 {
            self.consumed[i] += other.consumed[i];
            self.requested[i] += other.requested[i];
            self.offered[i] += other.offered[i];
            self.throttled_requests[i] += other.throttled_requests[i];
            for r in 0..4 {
                self.throttle_events[r][i] += other.throttle_events[r][i];
            }
        }
    }
}

/// One partition in one minute.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartitionMinute {
    /// Minute number.
    pub minute: u32,
    /// Resource index (0 = table, then GSIs).
    pub resource: u16,
    /// Partition index.
    pub partition: u32,
    /// Milli-units consumed, by [`Dim`].
    pub consumed: [u64; 2],
    /// Throttle events, by [`Dim`].
    pub throttles: [u64; 2],
}

/// Totals of one access pattern.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatternTotals {
    /// Requests the application made (first attempts).
    pub offered: u64,
    /// Attempts sent, retries included.
    pub attempts: u64,
    /// Requests that eventually succeeded.
    pub served: u64,
    /// Requests that ran out of attempts.
    pub failed_exhausted: u64,
    /// Requests given up because the retry quota was empty.
    pub failed_quota: u64,
    /// Requests still waiting to retry when the run ended.
    pub pending_at_end: u64,
    /// Writes refused because their item collection would pass 10 GB (LSI tables).
    pub failed_collection: u64,
    /// Attempts throttled.
    pub throttled_attempts: u64,
    /// Requests throttled at least once.
    pub throttled_requests: u64,
}

impl PatternTotals {
    /// Requests that failed, for whatever reason.
    #[must_use]
    pub fn failed(&self) -> u64 {
        self.failed_exhausted + self.failed_quota + self.failed_collection
    }
}

/// Everything a run records.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    /// Per resource, per minute.
    pub resources: Vec<Vec<ResourceMinute>>,
    /// Per partition and minute (when partition recording is on).
    pub partitions: Vec<PartitionMinute>,
    /// Per pattern.
    pub patterns: Vec<PatternTotals>,
    /// Latency of successful requests, µs.
    pub latency: Histogram,
    /// Latency of successful requests per minute of completion: (p50, p99) µs are derived
    /// from these per-minute histograms in coarse form.
    pub latency_by_minute: Vec<[u64; 3]>,
}

impl Recorder {
    /// Adds a throttle event.
    #[inline]
    pub fn throttle_event(cur: &mut ResourceMinute, reason: Reason, d: Dim) {
        cur.throttle_events[reason as usize][d as usize] += 1;
    }
}
