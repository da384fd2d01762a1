//! What `run --replications N` adds: the headline figures of every replication and their
//! statistics (`replications.json`, `replications.csv`, one line on the terminal).

use super::{json, tables::to_csv, Artifact, Render, ReportError};
use crate::study::{Headline, HeadlineStats};
use serde::Serialize;

/// Replications of one scenario.
#[derive(Debug, Serialize)]
pub struct Replications {
    /// How many.
    pub replications: usize,
    /// Each replication's figures, in order.
    pub runs: Vec<Headline>,
    /// Statistics over them.
    pub stats: HeadlineStats,
}

impl Replications {
    /// The statistics of `runs`.
    #[must_use]
    pub fn new(runs: Vec<Headline>) -> Self {
        Self { replications: runs.len(), stats: HeadlineStats::of(&runs), runs }
    }
}

/// One row of `replications.csv`.
#[derive(Serialize)]
struct Row {
    replication: usize,
    offered: u64,
    throttled_share: f64,
    failed_share: f64,
    failed: u64,
    monthly_usd: f64,
    window_usd: f64,
    p99_latency_ms: f64,
    read_units_per_s: f64,
    read_attempts: u64,
}

impl Render for Replications {
    fn text(&self) -> String {
        let (t, s) = (&self.stats.throttled_share, &self.stats);
        format!(
            "{} replications: throttled share mean {:.4}% (95% CI {:.4}–{:.4}%), P50 {:.4}%, P95 {:.4}%, P99 {:.4}%; failed mean {:.1}; ${:.2}{}; p99 latency {:.1} ms\n",
            self.replications,
            t.mean * 100.0,
            t.ci95_low * 100.0,
            t.ci95_high * 100.0,
            t.p50 * 100.0,
            t.p95 * 100.0,
            t.p99 * 100.0,
            s.failed.mean,
            s.cost().0.mean,
            s.cost().1.suffix(),
            s.p99_latency_ms.mean
        )
    }

    fn artifacts(&self) -> Result<Vec<Artifact<'_>>, ReportError> {
        let rows: Vec<Row> = self
            .runs
            .iter()
            .enumerate()
            .map(|(i, h)| Row {
                replication: i,
                offered: h.offered,
                throttled_share: h.throttled_share,
                failed_share: h.failed_share,
                failed: h.failed,
                monthly_usd: h.monthly_usd,
                window_usd: h.window_usd,
                p99_latency_ms: h.p99_latency_ms,
                read_units_per_s: h.read_units_per_s,
                read_attempts: h.read_attempts,
            })
            .collect();
        let header =
            "replication,offered,throttled_share,failed_share,failed,monthly_usd,window_usd,p99_latency_ms,read_units_per_s,read_attempts";
        // Through a JSON value: keys sorted, as replications.json has always had them.
        let value = serde_json::to_value(self).expect("plain data");
        Ok(vec![Artifact::new("replications.json", json(&value)), Artifact::new("replications.csv", to_csv(&rows, header))])
    }
}
