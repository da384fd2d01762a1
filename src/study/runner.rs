//! Many runs at once: replications and sweep points on rayon, collected in index order and
//! reduced serially, so results do not depend on the thread count. The only module that
//! touches rayon; it never prints (progress goes to a [`Progress`]).

use super::sustain::OnCredit;
use crate::cost::{bill_of, Catalog};
use crate::engine::{simulate, Progress, RunOptions, RunResult};
use crate::scenario::Scenario;
use crate::stats::Stat;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};

/// The headline figures of one run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
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
    /// Cost of the window simulated, USD.
    #[serde(default)]
    pub window_usd: f64,
    /// The scenario extrapolates its window to a month (`[pricing] extrapolate = "repeat"`).
    #[serde(default)]
    pub extrapolated: bool,
    /// p99 latency of served requests, ms.
    pub p99_latency_ms: f64,
    /// Read units consumed per second (table and GSIs), average.
    pub read_units_per_s: f64,
    /// Read requests sent (attempts of read patterns).
    pub read_attempts: u64,
    /// The run ended with less burst credit or more GSI debt than it began with: whatever
    /// held, held partly on them (see [`super::sustain`]).
    #[serde(default)]
    pub spent_credit: bool,
}

impl Headline {
    /// The figures of a run.
    #[must_use]
    pub fn of(sc: &Scenario, r: &RunResult, catalog: &Catalog) -> Self {
        let t = r.totals();
        let read_units: u64 = r.resources.iter().flat_map(|s| s.minutes.iter().map(|m| m.consumed[0])).sum();
        let read_attempts = sc.patterns.iter().zip(&r.patterns).filter(|(p, _)| !p.op.is_write()).map(|(_, t)| t.attempts).sum();
        let bill = bill_of(sc, r, catalog);
        Self {
            offered: t.offered,
            throttled_share: t.throttled_share(),
            failed_share: t.failed_share(),
            failed: t.failed,
            monthly_usd: bill.monthly_rate_usd(),
            window_usd: bill.total_usd,
            extrapolated: bill.extrapolated,
            p99_latency_ms: r.latency.quantile(0.99) as f64 / 1_000.0,
            read_units_per_s: read_units as f64 / 1_000.0 / r.duration_s.max(1) as f64,
            read_attempts,
            spent_credit: OnCredit::of_run(r).is_some(),
        }
    }
}

/// Statistics of each headline figure over replications.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct HeadlineStats {
    /// Throttled share of attempts.
    pub throttled_share: Stat,
    /// Failed share of requests.
    pub failed_share: Stat,
    /// Failed requests.
    pub failed: Stat,
    /// Monthly cost, USD.
    pub monthly_usd: Stat,
    /// Cost of the window, USD.
    pub window_usd: Stat,
    /// The replications extrapolate their window to a month.
    #[serde(default)]
    pub extrapolated: bool,
    /// p99 latency, ms.
    pub p99_latency_ms: Stat,
    /// The share of replications that ended with less burst credit or more GSI debt than they
    /// began with (0: every one held its load sustained).
    #[serde(default)]
    pub spent_credit_share: f64,
}

/// What a study's cost figure covers: the window simulated or, when the scenario says its
/// window repeats, a month extrapolated from it (the rule `run` follows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostBasis {
    /// The window as simulated (`[pricing] extrapolate = "none"`).
    Window,
    /// A 730-hour month extrapolated from the window.
    Month,
}

impl CostBasis {
    /// The basis of figures that do (or do not) extrapolate.
    #[must_use]
    pub fn of(extrapolated: bool) -> Self {
        if extrapolated {
            Self::Month
        } else {
            Self::Window
        }
    }
    /// How the figure reads after a dollar amount: `for the window` or `/month (extrapolated)`.
    #[must_use]
    pub fn suffix(self) -> &'static str {
        match self {
            Self::Window => " for the window",
            Self::Month => "/month (extrapolated)",
        }
    }
    /// A column heading: `$/window` or `$/month`.
    #[must_use]
    pub fn column(self) -> &'static str {
        match self {
            Self::Window => "$/window",
            Self::Month => "$/month",
        }
    }
    /// A chart's axis: `USD for the window` or `USD per month (extrapolated estimate)`.
    #[must_use]
    pub fn axis(self) -> &'static str {
        match self {
            Self::Window => "USD for the window simulated",
            Self::Month => "USD per month (extrapolated estimate)",
        }
    }
}

impl HeadlineStats {
    /// The cost figure to lead with, and what it covers: the window unless the scenario
    /// extrapolates.
    #[must_use]
    pub fn cost(&self) -> (&Stat, CostBasis) {
        if self.extrapolated {
            (&self.monthly_usd, CostBasis::Month)
        } else {
            (&self.window_usd, CostBasis::Window)
        }
    }
}

impl HeadlineStats {
    /// Reduces replications, serially.
    #[must_use]
    pub fn of(hs: &[Headline]) -> Self {
        let col = |f: fn(&Headline) -> f64| Stat::bounded(&hs.iter().map(f).collect::<Vec<_>>(), 0.0, f64::INFINITY);
        let share = |f: fn(&Headline) -> f64| Stat::bounded(&hs.iter().map(f).collect::<Vec<_>>(), 0.0, 1.0);
        Self {
            throttled_share: share(|h| h.throttled_share),
            failed_share: share(|h| h.failed_share),
            failed: col(|h| h.failed as f64),
            monthly_usd: col(|h| h.monthly_usd),
            window_usd: col(|h| h.window_usd),
            extrapolated: hs.first().is_some_and(|h| h.extrapolated),
            p99_latency_ms: col(|h| h.p99_latency_ms),
            spent_credit_share: hs.iter().filter(|h| h.spent_credit).count() as f64 / hs.len().max(1) as f64,
        }
    }
}

/// Counts finished runs for a [`Progress`] (from any thread).
pub(crate) struct RunCounter<'a> {
    progress: Option<&'a dyn Progress>,
    done: AtomicU64,
    total: u64,
}

impl<'a> RunCounter<'a> {
    /// A counter of `total` runs.
    pub(crate) fn new(progress: Option<&'a dyn Progress>, total: u64) -> Self {
        Self { progress, done: AtomicU64::new(0), total }
    }

    /// One more run is done.
    pub(crate) fn done(&self) {
        let n = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(p) = self.progress {
            p.runs(n, self.total);
        }
    }
}

/// `f(0..n)` in parallel, results in index order (deterministic whatever the thread count).
pub fn par_indexed<T: Send>(n: u64, f: impl Fn(u64) -> T + Sync + Send) -> Vec<T> {
    (0..n).into_par_iter().map(f).collect()
}

/// Runs `jobs` (scenario index, replication) in parallel and returns the headlines in job order.
#[must_use]
pub fn run_jobs(scenarios: &[Scenario], jobs: &[(usize, u64)], base: &RunOptions, catalog: &Catalog) -> Vec<Headline> {
    counted_jobs(scenarios, jobs, base, catalog, &RunCounter::new(base.progress.as_deref(), jobs.len() as u64))
}

fn counted_jobs(
    scenarios: &[Scenario],
    jobs: &[(usize, u64)],
    base: &RunOptions,
    catalog: &Catalog,
    counter: &RunCounter<'_>,
) -> Vec<Headline> {
    // A study reports runs, not the seconds of each run.
    let opts = RunOptions { record_partitions: false, progress: None, ..base.clone() };
    jobs.par_iter()
        .with_max_len(1)
        .map(|&(i, rep)| {
            if opts.stopped() {
                // Stopped: what remains is not run (the study's result is discarded).
                return Headline::default();
            }
            let sc = &scenarios[i];
            let r = simulate(sc, &RunOptions { replication: rep, ..opts.clone() });
            counter.done();
            Headline::of(sc, &r, catalog)
        })
        .collect()
}

/// `n` replications of one scenario: replication 0's full result and every headline.
#[must_use]
pub fn replicate(sc: &Scenario, n: u64, base: &RunOptions, catalog: &Catalog) -> (RunResult, Vec<Headline>) {
    let counter = RunCounter::new(base.progress.as_deref(), n);
    let first = simulate(sc, &RunOptions { replication: 0, progress: None, ..base.clone() });
    counter.done();
    let mut hs = vec![Headline::of(sc, &first, catalog)];
    let jobs: Vec<(usize, u64)> = (1..n).map(|r| (0, r)).collect();
    hs.extend(counted_jobs(std::slice::from_ref(sc), &jobs, base, catalog, &counter));
    (first, hs)
}
