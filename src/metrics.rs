//! What a run records: CloudWatch-style one-minute series per resource and per partition,
//! per-pattern totals, and a latency histogram. Plain data; the report module formats it.
//!
//! [`Totals`] is the one place request counts are summed over patterns: the summary, `compare`,
//! replications, sweeps and the benches all read it.

use crate::model::{CapacityMode, Dim, Reason};
use crate::stats::Histogram;

/// One minute of one resource (table or GSI): what CloudWatch would show, and what the bill
/// and the charts need, including the capacity mode in force.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MinuteRecord {
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
    /// Bytes time to live deleted in the minute (no capacity used).
    pub ttl_deleted_bytes: u64,
    /// Milli write units the index backfill consumed (CloudWatch `OnlineIndexConsumedWriteCapacity`,
    /// not included in `consumed`).
    pub online_consumed: u64,
    /// Backfill progress at the end of the minute, basis points (10000 = done); 0 when none.
    pub online_progress_bp: u32,
    /// GSI propagation delay of the minute's index writes, 99th percentile, µs (0 if none).
    pub lag_p99_us: u64,
    /// Global tables: milli write units replicated from other regions applied in the minute
    /// (included in `consumed`).
    pub replicated_writes: u64,
    /// A replica's replication backlog at the end of the minute, milli write units.
    pub replication_backlog: u64,
    /// A replica's longest replication wait in the minute, µs (beyond the normal latency).
    pub replication_lag_us: u64,
    /// Partitions at the end of the minute.
    pub partitions: u64,
    /// Writes whose condition failed (`ConditionalCheckFailedRequests`; not in `UserErrors`).
    pub conditional_check_failed: u64,
    /// Per operation (`Op as usize`): successful requests (answered without throttling or a
    /// failed condition).
    pub op_ok: [u64; 10],
    /// Requests that failed with an HTTP 400 other than a failed condition (`UserErrors`):
    /// writes past the 10 GiB item-collection limit.
    pub user_errors: u64,
    /// Capacity mode at the end of the minute.
    pub mode: CapacityMode,
    /// Seconds of the minute the resource was provisioned (the rest it was on-demand).
    pub provisioned_seconds: u32,
    /// Milli-units consumed while the resource was on-demand, by [`Dim`] (what on-demand bills).
    pub on_demand_consumed: [u64; 2],
}

impl MinuteRecord {
    /// Throttle events of one dimension, all reasons.
    #[must_use]
    pub fn events(&self, d: Dim) -> u64 {
        self.throttle_events.iter().map(|r| r[d as usize]).sum()
    }

    /// Adds `other` (for totals).
    pub fn add(&mut self, other: &MinuteRecord) {
        self.conditional_check_failed += other.conditional_check_failed;
        self.user_errors += other.user_errors;
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

/// One partition in one minute (kept compact: a long run of a big table records many).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartitionMinute {
    /// Minute number.
    pub minute: u32,
    /// Partition index.
    pub partition: u32,
    /// Milli-units consumed, by [`Dim`] (at most 3,000 units a second for 60 seconds).
    pub consumed: [u32; 2],
    /// Throttle events, by [`Dim`] (saturating).
    pub throttles: [u32; 2],
    /// Resource index (0 = table, then GSIs).
    pub resource: u16,
    /// The entity types' shares of what it served (an index into the run's
    /// `entity_shares`; `u32::MAX`: none, or no entity types).
    pub entities: u32,
}

/// Totals of one access pattern.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PatternTotals {
    /// Requests the application made (first attempts).
    pub offered: u64,
    /// Attempts sent, retries included.
    pub attempts: u64,
    /// First attempts of each page (a request of one page sends one).
    pub pages_sent: u64,
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
    /// Reads of a GSI that was not readable yet (created during the run, its backfill not
    /// done): failed with a ValidationException, not retried.
    pub failed_index_not_ready: u64,
    /// Served requests whose condition failed (ConditionalCheckFailedException, or a
    /// transaction cancelled on its condition): answered, counted apart, not retried.
    pub condition_failed: u64,
    /// Attempts throttled.
    pub throttled_attempts: u64,
    /// Requests throttled at least once.
    pub throttled_requests: u64,
    /// A closed loop: when its last request was answered, µs (none if it did not finish).
    pub finished_us: Option<u64>,
    /// Latency of the pattern's successful requests, µs.
    pub latency: crate::stats::Histogram,
}

impl PatternTotals {
    /// Requests that failed, for whatever reason.
    #[must_use]
    pub fn failed(&self) -> u64 {
        self.failed_exhausted + self.failed_quota + self.failed_collection + self.failed_index_not_ready
    }
}

/// Request counts summed over patterns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Totals {
    /// Requests the application made (first attempts).
    pub offered: u64,
    /// Attempts, retries included.
    pub attempts: u64,
    /// Requests that succeeded.
    pub served: u64,
    /// Requests that failed, for whatever reason.
    pub failed: u64,
    /// Requests still waiting to retry at the end.
    pub pending_at_end: u64,
    /// Attempts throttled.
    pub throttled_attempts: u64,
    /// Requests throttled at least once.
    pub throttled_requests: u64,
}

impl Totals {
    /// The sum over `patterns`.
    #[must_use]
    pub fn of<'a>(patterns: impl IntoIterator<Item = &'a PatternTotals>) -> Self {
        let mut t = Self::default();
        for p in patterns {
            t.offered += p.offered;
            t.attempts += p.attempts;
            t.served += p.served;
            t.failed += p.failed();
            t.pending_at_end += p.pending_at_end;
            t.throttled_attempts += p.throttled_attempts;
            t.throttled_requests += p.throttled_requests;
        }
        t
    }

    /// Throttled attempts over attempts (0 without attempts).
    #[must_use]
    pub fn throttled_share(&self) -> f64 {
        if self.attempts == 0 {
            0.0
        } else {
            self.throttled_attempts as f64 / self.attempts as f64
        }
    }

    /// Failed requests over offered (0 without requests).
    #[must_use]
    pub fn failed_share(&self) -> f64 {
        if self.offered == 0 {
            0.0
        } else {
            self.failed as f64 / self.offered as f64
        }
    }
}

/// Everything a run records, while it runs.
#[derive(Clone, Debug, Default)]
pub(crate) struct Recorder {
    /// Per resource, per minute.
    pub(crate) resources: Vec<Vec<MinuteRecord>>,
    /// Per resource, the minute being recorded.
    pub(crate) cur: Vec<MinuteRecord>,
    /// Per partition and minute (when partition recording is on).
    pub(crate) partitions: Vec<PartitionMinute>,
    /// Per pattern.
    pub(crate) patterns: Vec<PatternTotals>,
    /// Latency of successful requests, µs.
    pub(crate) latency: Histogram,
    /// The same, for the current minute.
    minute_latency: Histogram,
    /// Per minute: p50, p99 and max latency of the requests served in it, µs.
    pub(crate) latency_by_minute: Vec<[u64; 3]>,
    /// Attempts, throttled attempts, failed requests and requests offered of the current minute.
    pub(crate) minute_attempts: [u64; 4],
    /// Per minute: attempts sent, attempts throttled, requests failed, requests offered.
    pub(crate) attempts_by_minute: Vec<[u64; 4]>,
    /// Units each entity type used on each partition in the current minute (entity types only).
    pub(crate) entity_use: EntityUse,
    /// The entity shares of partition rows (`PartitionMinute::entities` indexes it).
    pub(crate) entity_shares: Vec<String>,
}

/// Milli-units admitted per resource, partition and entity type in the current minute: each
/// entity type's share of an overloaded index's partitions.
#[derive(Clone, Debug, Default)]
pub(crate) struct EntityUse {
    /// Entity types (0: off).
    n: usize,
    /// Per resource: partition `p`'s entity `e` at `p * n + e`.
    by_res: Vec<Vec<u64>>,
}

impl EntityUse {
    /// Tallies for `n` entity types over `resources` resources.
    pub(crate) fn new(n: usize, resources: usize) -> Self {
        Self { n, by_res: vec![Vec::new(); if n > 0 { resources } else { 0 }] }
    }

    /// `milli` units of entity `e` admitted on partition `part` of resource `r`.
    #[inline]
    pub(crate) fn add(&mut self, r: usize, part: usize, e: usize, milli: u64) {
        let v = &mut self.by_res[r];
        let i = part * self.n + e;
        if v.len() <= i {
            v.resize((part + 1) * self.n, 0);
        }
        v[i] += milli;
    }

    /// Is anything tallied (the scenario has entity types)?
    #[inline]
    pub(crate) fn on(&self) -> bool {
        self.n > 0
    }

    /// Partition `i` of resource `r` split in two, the lower keeping `frac` of what it holds.
    pub(crate) fn split(&mut self, r: usize, i: usize, frac: f64) {
        if self.n == 0 {
            return;
        }
        let n = self.n;
        let v = &mut self.by_res[r];
        if v.len() < (i + 1) * n {
            v.resize((i + 1) * n, 0);
        }
        let upper: Vec<u64> = v[i * n..(i + 1) * n].iter().map(|&x| x - (x as f64 * frac).round() as u64).collect();
        for x in &mut v[i * n..(i + 1) * n] {
            *x = (*x as f64 * frac).round() as u64;
        }
        let at = (i + 1) * n;
        v.splice(at..at, upper);
    }

    /// Resource `r` grew from `old` to `new` partitions, each doubling (`Resource::grow_to`).
    pub(crate) fn grow(&mut self, r: usize, old: usize, new: usize) {
        let mut len = old;
        while len < new {
            for i in (0..len).rev() {
                self.split(r, i, 0.5);
            }
            len *= 2;
        }
    }

    /// Partition `part` of resource `r`'s shares by entity for the minute, named by `names`
    /// (`Order=0.618;Review=0.382`, largest first), and clears them; empty when it served none.
    pub(crate) fn take_shares(&mut self, r: usize, part: usize, names: &[String]) -> String {
        let n = self.n;
        let Some(v) = self.by_res.get_mut(r).and_then(|v| v.get_mut(part * n..(part + 1) * n)) else { return String::new() };
        let total: u64 = v.iter().sum();
        if total == 0 {
            return String::new();
        }
        let mut shares: Vec<(usize, u64)> = v.iter().copied().enumerate().filter(|x| x.1 > 0).collect();
        shares.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v.iter_mut().for_each(|x| *x = 0);
        shares.iter().map(|&(e, x)| format!("{}={:.3}", names[e], x as f64 / total as f64)).collect::<Vec<_>>().join(";")
    }
}

impl Recorder {
    /// A recorder for `resources` tables and indexes and `patterns` patterns.
    pub(crate) fn new(resources: usize, patterns: usize, entities: usize) -> Self {
        Self {
            entity_use: EntityUse::new(entities, resources),
            resources: vec![Vec::new(); resources],
            cur: vec![MinuteRecord::default(); resources],
            patterns: vec![PatternTotals::default(); patterns],
            ..Self::default()
        }
    }

    /// A throttle event on resource `r`.
    #[inline]
    pub(crate) fn throttle_event(&mut self, r: usize, reason: Reason, d: Dim) {
        self.cur[r].throttle_events[reason as usize][d as usize] += 1;
    }

    /// `n` requests served with latency `us`.
    #[inline]
    pub(crate) fn latency(&mut self, us: u64, n: u64) {
        self.latency.record(us, n);
        self.minute_latency.record(us, n);
    }

    /// Closes the minute's latency and attempt counts.
    pub(crate) fn close_minute(&mut self) {
        let h = &self.minute_latency;
        self.latency_by_minute.push([h.quantile(0.5), h.quantile(0.99), h.max()]);
        self.minute_latency = Histogram::default();
        self.attempts_by_minute.push(std::mem::take(&mut self.minute_attempts));
    }
}
