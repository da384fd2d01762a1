//! The parts of `summary.json` about requests: the client assumed, each pattern's counts,
//! latency and closed loop, and the engine's statistics.

use super::{is_zero, share};
use crate::engine::RunResult;
use crate::metrics::Totals;
use crate::scenario::Scenario;
use serde::{Deserialize, Serialize};

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

impl BulkPutSummary {
    /// `1,200,000 sorted items written in 742 s; 300 s at its cap with no partition
    /// throttling` and the like.
    #[must_use]
    pub fn describe(&self) -> String {
        use crate::format::grouped;
        let head = format!("bulk put of {} {} items", grouped(self.items), self.order);
        match self.duration_s {
            Some(d) if d > self.planned_s => format!(
                "{head}: all written in {d} s, {:.1} times the {} s it takes at its cap when no partition throttles it",
                d as f64 / self.planned_s.max(1) as f64,
                self.planned_s
            ),
            Some(d) => format!("{head}: all written in {d} s, at its cap"),
            None => format!(
                "{head}: not done by the run's end, {} written ({} s at its cap when no partition throttles it)",
                grouped(self.written),
                self.planned_s
            ),
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

impl RequestSummary {
    /// The counts of `t`, with its shares.
    pub(super) fn of(t: &Totals) -> Self {
        RequestSummary {
            offered: t.offered,
            served: t.served,
            failed: t.failed,
            pending_at_end: t.pending_at_end,
            attempts: t.attempts,
            throttled_attempts: t.throttled_attempts,
            throttled_requests: t.throttled_requests,
            throttled_attempt_share: share(t.throttled_attempts, t.attempts),
            failed_share: share(t.failed, t.offered),
        }
    }
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
    /// A bulk put from S3 (`[[at]] bulk_put`): what it loaded, how, and what is not known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bulk_put: Option<BulkPutSummary>,
}

/// A bulk put from S3 (`StartBulkPutItems`).
#[derive(Debug, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BulkPutSummary {
    /// "sorted" (by partition key) or "shuffled".
    pub order: String,
    /// "standard" or "accelerated" (recorded; AWS publishes no difference ddbsim could model).
    pub tier: String,
    /// Items loaded.
    pub items: u64,
    /// Items written by the end of the run (all of them once the load is done).
    pub written: u64,
    /// Seconds the load takes at its cap when no partition throttles it (as shuffled input
    /// does on a table with room).
    pub planned_s: u64,
    /// Seconds from its start to its last item written, if it was done within the run.
    pub duration_s: Option<u64>,
    /// Write units a second it may use (`MaxWriteRequestUnits`).
    pub max_write_units: u64,
    /// Items of each partition-key value.
    pub items_per_value: u64,
    /// Sorted input: whole seconds one value's items keep one partition busy (0: under a
    /// second, so the load spreads as shuffled input would).
    pub seconds_per_value: u64,
    /// What AWS does not publish, and what ddbsim does instead.
    pub unknown: String,
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
    pub(super) fn of(h: &crate::stats::Histogram) -> Self {
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

/// Each pattern's counts, failures, latency and closed loop.
pub(super) fn patterns_of(sc: &Scenario, r: &RunResult) -> Vec<PatternSummary> {
    sc.patterns
        .iter()
        .zip(&r.patterns)
        .enumerate()
        .map(|(i, (p, t))| PatternSummary {
            name: p.name.clone(),
            op: p.op.api_name().to_string(),
            requests: RequestSummary::of(&Totals::of([t])),
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
            bulk_put: p.bulk.map(|b| BulkPutSummary {
                order: if b.sorted { "sorted" } else { "shuffled" }.into(),
                tier: if b.accelerated { "accelerated" } else { "standard" }.into(),
                items: b.items,
                written: t.served,
                max_write_units: b.max_write_units,
                items_per_value: b.items_per_key,
                seconds_per_value: if b.sorted { b.seconds_per_key } else { 0 },
                planned_s: b.seconds,
                duration_s: t.finished_us.map(|us| us / 1_000_000 - b.at.as_secs()),
                unknown: BULK_PUT_UNKNOWN.into(),
            }),
        })
        .collect()
}

/// What AWS does not say of a bulk put, and what ddbsim does instead (§16).
const BULK_PUT_UNKNOWN: &str = "AWS publishes no bulk-put price and does not say whether the load uses the table's write capacity: ddbsim sends it through the table's capacity and bills its writes as the table's (an assumption); the service paces the load, so no item fails for throughput: a throttled item is retried after 50 ms doubling to 1 s (how the service retries is not published: a model choice), and throttling lengthens the load; the tier changes nothing here";
