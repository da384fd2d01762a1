//! Many runs at once: replications and sweep points on rayon, collected in index order and
//! reduced serially, so results do not depend on the thread count. The only module that
//! touches rayon or indicatif.

use crate::billing::bill_of;
use crate::cost::Catalog;
use crate::engine::{simulate, RunOptions, RunResult};
use crate::scenario::Scenario;
use crate::stats::Stat;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The headline figures of one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Headline {
    /// Requests offered.
    pub offered: u64,
    /// Throttled attempts over attempts.
    pub throttled_share: f64,
    /// Failed requests over offered.
    pub failed_share: f64,
    /// Failed requests.
    pub failed: u64,
    /// Monthly cost of the scenario's own mode (extrapolated), USD.
    pub monthly_usd: f64,
    /// p99 latency of served requests, ms.
    pub p99_latency_ms: f64,
    /// Read units consumed per second (table and GSIs), average.
    pub read_units_per_s: f64,
    /// Read requests sent (attempts of read patterns).
    pub read_attempts: u64,
}

impl Headline {
    /// The figures of a run.
    #[must_use]
    pub fn of(sc: &Scenario, r: &RunResult, catalog: &Catalog) -> Self {
        let offered: u64 = r.rec.patterns.iter().map(|p| p.offered).sum();
        let attempts: u64 = r.rec.patterns.iter().map(|p| p.attempts).sum();
        let throttled: u64 = r.rec.patterns.iter().map(|p| p.throttled_attempts).sum();
        let failed: u64 = r.rec.patterns.iter().map(|p| p.failed()).sum();
        let read_units: u64 = r.rec.resources.iter().flat_map(|s| s.iter().map(|m| m.consumed[0])).sum();
        let read_attempts = sc.patterns.iter().zip(&r.rec.patterns).filter(|(p, _)| !p.op.is_write()).map(|(_, t)| t.attempts).sum();
        let share = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        Self {
            offered,
            throttled_share: share(throttled, attempts),
            failed_share: share(failed, offered),
            failed,
            monthly_usd: bill_of(sc, r, catalog).monthly_usd,
            p99_latency_ms: r.rec.latency.quantile(0.99) as f64 / 1_000.0,
            read_units_per_s: read_units as f64 / 1_000.0 / r.duration_s.max(1) as f64,
            read_attempts,
        }
    }
}

/// Statistics of each headline figure over replications.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadlineStats {
    /// Throttled share of attempts.
    pub throttled_share: Stat,
    /// Failed share of requests.
    pub failed_share: Stat,
    /// Failed requests.
    pub failed: Stat,
    /// Monthly cost, USD.
    pub monthly_usd: Stat,
    /// p99 latency, ms.
    pub p99_latency_ms: Stat,
}

impl HeadlineStats {
    /// Reduces replications, serially.
    #[must_use]
    pub fn of(hs: &[Headline]) -> Self {
        let col = |f: fn(&Headline) -> f64| Stat::of(&hs.iter().map(f).collect::<Vec<_>>());
        Self {
            throttled_share: col(|h| h.throttled_share),
            failed_share: col(|h| h.failed_share),
            failed: col(|h| h.failed as f64),
            monthly_usd: col(|h| h.monthly_usd),
            p99_latency_ms: col(|h| h.p99_latency_ms),
        }
    }
}

/// A progress bar on stderr, hidden when stderr is not a terminal or when `quiet`.
#[must_use]
pub fn progress(len: u64, quiet: bool, what: &str) -> ProgressBar {
    let pb = ProgressBar::with_draw_target(Some(len), if quiet { ProgressDrawTarget::hidden() } else { ProgressDrawTarget::stderr() });
    pb.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} runs, {elapsed} elapsed, ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    pb.set_message(what.to_string());
    pb
}

/// Runs `jobs` (scenario index, replication) in parallel and returns the headlines in job order.
#[must_use]
pub fn run_jobs(scenarios: &[Scenario], jobs: &[(usize, u64)], base: &RunOptions, catalog: &Catalog, pb: &ProgressBar) -> Vec<Headline> {
    let out: Vec<Headline> = jobs
        .par_iter()
        .with_max_len(1)
        .map(|&(i, rep)| {
            let sc = &scenarios[i];
            let r = simulate(sc, &RunOptions { replication: rep, record_partitions: false, ..base.clone() });
            let h = Headline::of(sc, &r, catalog);
            pb.inc(1);
            h
        })
        .collect();
    pb.finish_and_clear();
    out
}

/// Runs one simulation with a progress bar on stderr that appears only if the run lasts more
/// than a second (and stderr is a terminal and not `quiet`).
#[must_use]
pub fn simulate_with_progress(sc: &Scenario, opts: &RunOptions, quiet: bool) -> RunResult {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::Arc;
    let done = Arc::new(AtomicU64::new(0));
    let finished = Arc::new(AtomicBool::new(false));
    let total = opts.duration.unwrap_or(sc.duration).as_secs().max(1);
    let watcher = {
        let (done, finished) = (Arc::clone(&done), Arc::clone(&finished));
        std::thread::spawn(move || {
            let started = std::time::Instant::now();
            let mut bar: Option<ProgressBar> = None;
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(100));
                if bar.is_none() && !quiet && started.elapsed() > std::time::Duration::from_secs(1) {
                    let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
                    pb.set_style(
                        ProgressStyle::with_template("simulating [{bar:30}] {pos}/{len} s simulated, ETA {eta}")
                            .unwrap_or_else(|_| ProgressStyle::default_bar())
                            .progress_chars("=> "),
                    );
                    bar = Some(pb);
                }
                if let Some(pb) = &bar {
                    pb.set_position(done.load(Ordering::Relaxed));
                }
            }
            if let Some(pb) = bar {
                pb.finish_and_clear();
            }
        })
    };
    let r = simulate(sc, &RunOptions { progress: Some(done), ..opts.clone() });
    finished.store(true, Ordering::Relaxed);
    let _ = watcher.join();
    r
}

/// `f(0..n)` in parallel, results in index order (deterministic whatever the thread count).
pub fn par_indexed<T: Send>(n: u64, f: impl Fn(u64) -> T + Sync + Send) -> Vec<T> {
    (0..n).into_par_iter().map(f).collect()
}

/// `n` replications of one scenario: replication 0's full result and every headline.
#[must_use]
pub fn replicate(sc: &Scenario, n: u64, base: &RunOptions, catalog: &Catalog, quiet: bool) -> (RunResult, Vec<Headline>) {
    let pb = progress(n, quiet, "replications");
    let first = simulate(sc, &RunOptions { replication: 0, ..base.clone() });
    pb.inc(1);
    let mut hs = vec![Headline::of(sc, &first, catalog)];
    let jobs: Vec<(usize, u64)> = (1..n).map(|r| (0, r)).collect();
    hs.extend(run_jobs(std::slice::from_ref(sc), &jobs, base, catalog, &pb));
    (first, hs)
}
