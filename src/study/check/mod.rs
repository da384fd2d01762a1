//! `ddbsim check`: the load-test plan of the design guides run before launch, and a design
//! review whose every finding carries the simulation's numbers.
//!
//! The plan ([`crate::scenario::CheckSpec`]) has four phases, each judged on its own window of
//! simulated minutes:
//!
//! * *steady*: every open-loop pattern at its peak rate (the highest of its shape times the
//!   highest `scale_rate` factor in force, or the share of `[check] peak`) for `steady` (1 h);
//! * *burst*: the peak for `warmup` (30 min, so auto scaling and on-demand capacity settle),
//!   then `burst_factor` (2) times the peak for `burst` (15 min); the burst minutes are judged;
//! * *soak*: the scenario's own traffic shape and actions for `soak` (4 h);
//! * *distribution*: each table's and GSI's consumed units per partition over the last 15
//!   minutes of the steady phase: the busiest partition's excess over the mean, and the
//!   coefficient of variation.
//!
//! Steady and burst replace each open-loop rate and drop `scale_rate` actions (the phase sets
//! the rates); the other actions stay. Closed loops keep their threads in every phase.

mod cost;
pub mod rules;
mod simulations;

pub use simulations::{simulations, Simulation};

use crate::cost::{bill_of, Catalog};
use crate::engine::{simulate, RunOptions, RunResult};
use crate::model::Dim;
use crate::scenario::{Action, CheckSpec, RateFactors, RateShape, Scenario};
use crate::time::SimDuration;
use crate::units::MILLI;
use serde::Serialize;

pub use rules::{account_past_quota, Finding, Severity};

/// A phase of the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The peak, held.
    Steady,
    /// Twice the peak for 15 minutes, from steady state.
    Burst,
    /// The scenario's own shape for hours.
    Soak,
    /// Traffic spread over partitions.
    Distribution,
    /// The scenario's own traffic for its own duration, billed against `[check]`'s cost
    /// guardrails (run when they are set).
    Cost,
}

impl Phase {
    /// Every phase, in plan order.
    pub const ALL: [Phase; 5] = [Phase::Steady, Phase::Burst, Phase::Soak, Phase::Distribution, Phase::Cost];

    /// The name used on the command line and in reports.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Steady => "steady",
            Phase::Burst => "burst",
            Phase::Soak => "soak",
            Phase::Distribution => "distribution",
            Phase::Cost => "cost",
        }
    }

    /// The phase named `s`.
    ///
    /// # Errors
    /// A message listing the phases.
    pub fn parse(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|p| p.name() == s.trim())
            .ok_or_else(|| format!("unknown phase \"{s}\"; phases: steady, burst, soak, distribution, cost"))
    }
}

/// What a threshold of a phase measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MeasureName {
    /// Throttled share of attempts.
    ThrottledShare,
    /// Failed share of requests.
    FailedShare,
    /// The worst minute's p99 latency, ms.
    P99LatencyMs,
    /// The busiest partition's excess over the mean.
    PartitionSkew,
    /// The window's cost, USD.
    WindowCostUsd,
    /// The monthly rate of the window's cost, USD.
    MonthlyCostUsd,
}

impl MeasureName {
    /// `throttled_share`, `failed_share`, `p99_latency_ms` or `partition_skew`, as serialised.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            MeasureName::ThrottledShare => "throttled_share",
            MeasureName::FailedShare => "failed_share",
            MeasureName::P99LatencyMs => "p99_latency_ms",
            MeasureName::PartitionSkew => "partition_skew",
            MeasureName::WindowCostUsd => "window_cost_usd",
            MeasureName::MonthlyCostUsd => "monthly_cost_usd",
        }
    }
}

/// One threshold of a phase, measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Measure {
    /// What is measured.
    pub name: MeasureName,
    /// The value.
    pub value: f64,
    /// The largest value that passes.
    pub limit: f64,
    /// Within the limit.
    pub passed: bool,
    /// Where, for a per-resource measure (table or index, and dimension).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
}

/// One resource and dimension of the distribution phase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spread {
    /// Table or index.
    pub resource: String,
    /// Reads or writes.
    pub dimension: Dim,
    /// Partitions at the end of the window.
    pub partitions: u64,
    /// Mean consumed units per second per partition.
    pub mean_units_per_s: f64,
    /// The busiest partition's consumed units per second.
    pub max_units_per_s: f64,
    /// The busiest partition.
    pub busiest: u32,
    /// Busiest over mean.
    pub max_over_mean: f64,
    /// Standard deviation over mean.
    pub cv: f64,
    /// Judged (at least 1 unit per second per partition on average; less is noise).
    pub judged: bool,
}

/// A phase's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhaseResult {
    /// Which phase.
    pub phase: Phase,
    /// Every measure within its limit.
    pub passed: bool,
    /// Seconds simulated for the phase.
    pub simulated_s: u64,
    /// The judged window, seconds from the phase's start: [from, to).
    pub window_s: [u64; 2],
    /// Requests per second offered in the window (open-loop patterns, at their rate).
    pub requests_per_s: f64,
    /// The thresholds, measured.
    pub measures: Vec<Measure>,
    /// Per resource and dimension (distribution only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spread: Vec<Spread>,
    /// The assumptions of `ddbsim import` a failure rests on, each with how to settle it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumptions: Vec<String>,
}

impl PhaseResult {
    /// One line: the phase, PASS or FAIL, and its measures.
    #[must_use]
    pub fn line(&self) -> String {
        let ms: Vec<String> = self.measures.iter().filter(|m| !m.passed || self.phase != Phase::Distribution).map(Measure::text).collect();
        let ms = if ms.is_empty() && self.phase == Phase::Distribution {
            let judged = self.spread.iter().filter(|s| s.judged).count();
            format!("{judged} resource dimensions within the skew limit")
        } else {
            ms.join(", ")
        };
        let rests: String = self.assumptions.iter().map(|a| format!("\n               rests on: {a}")).collect();
        format!("{:<12} {}  {ms}{rests}", self.phase.name(), if self.passed { "PASS" } else { "FAIL" })
    }
}

impl Measure {
    /// "throttled 33.3 % (limit 0.1 %)".
    #[must_use]
    pub fn text(&self) -> String {
        use crate::format::percent;
        let (v, l) = match self.name {
            MeasureName::P99LatencyMs => (format!("{:.1} ms", self.value), format!("{:.0} ms", self.limit)),
            MeasureName::PartitionSkew => (format!("+{}", percent(self.value)), format!("+{}", percent(self.limit))),
            MeasureName::ThrottledShare | MeasureName::FailedShare => (percent(self.value), percent(self.limit)),
            MeasureName::WindowCostUsd | MeasureName::MonthlyCostUsd => (crate::format::usd(self.value), crate::format::usd(self.limit)),
        };
        let what = match self.name {
            MeasureName::ThrottledShare => "throttled",
            MeasureName::FailedShare => "failed",
            MeasureName::P99LatencyMs => "worst minute's p99",
            MeasureName::PartitionSkew => "busiest partition",
            MeasureName::WindowCostUsd => "the window's cost",
            MeasureName::MonthlyCostUsd => "a month at the window's rate (estimate)",
        };
        let at = self.resource.as_ref().map_or(String::new(), |r| format!(" on {r}"));
        format!("{what}{at} {v} (limit {l})")
    }
}

/// What `check` was asked to do.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Phases to run and judge (the findings use whatever runs these need, plus the steady run).
    pub phases: Vec<Phase>,
    /// Master seed, fidelity (the runs' `duration` is the phase's own).
    pub base: RunOptions,
}

/// The plan as run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    /// Requests per second of each open-loop pattern at the peak, by pattern name.
    pub peak_by_pattern: Vec<(String, f64)>,
    /// Their sum.
    pub peak_requests_per_s: f64,
    /// Steady phase, s.
    pub steady_s: u64,
    /// Warm-up before the burst, s.
    pub warmup_s: u64,
    /// Burst, s.
    pub burst_s: u64,
    /// Burst rate over the peak.
    pub burst_factor: f64,
    /// Soak, s.
    pub soak_s: u64,
    /// Largest throttled (and failed) share.
    pub max_throttle: f64,
    /// Largest p99 latency of a minute, ms.
    pub max_p99_latency_ms: f64,
    /// Largest excess of the busiest partition over the mean.
    pub max_partition_skew: f64,
}

/// What `check` found on one scenario.
#[derive(Clone, Debug, Serialize)]
pub struct CheckOutput {
    /// Scenario name.
    pub scenario: String,
    /// Scenario file.
    pub path: String,
    /// Seed of the runs.
    pub seed: u64,
    /// No phase failed and no finding is an error (or, with `fail_on` warn, a warning).
    pub passed: bool,
    /// The plan.
    pub plan: Plan,
    /// The phases, in plan order.
    pub phases: Vec<PhaseResult>,
    /// The findings, errors first.
    pub findings: Vec<Finding>,
}

impl CheckOutput {
    /// Decides `passed`: every phase passed and no finding reaches `fail_on`.
    pub fn judge(&mut self, fail_on: Severity) {
        self.passed = self.phases.iter().all(|p| p.passed) && self.findings.iter().all(|f| f.severity < fail_on);
    }
}

/// Per pattern, its rate at the plan's peak (`None` for a closed loop).
#[must_use]
pub fn peaks(sc: &Scenario) -> Vec<Option<f64>> {
    let own: Vec<Option<f64>> = sc
        .patterns
        .iter()
        .enumerate()
        .map(|(j, p)| {
            if matches!(p.rate, RateShape::ClosedLoop(_)) {
                return None;
            }
            // The highest `scale_rate` factor in force over the run, as the engine applies it.
            Some(p.rate.peak() * RateFactors::of(sc, j).peak(sc.duration.as_secs()))
        })
        .collect();
    let Some(total) = sc.check.peak else { return own };
    let sum: f64 = own.iter().flatten().sum();
    let count = own.iter().flatten().count().max(1) as f64;
    own.into_iter().map(|r| r.map(|r| if sum > 0.0 { r * total / sum } else { total / count })).collect()
}

/// The scenario with every open-loop pattern at `rate(peak)` and no `scale_rate` actions.
fn at_rates(sc: &Scenario, peaks: &[Option<f64>], duration: SimDuration, rate: impl Fn(f64) -> RateShape) -> Scenario {
    let mut s = sc.clone();
    s.duration = duration;
    s.actions.retain(|a| !matches!(a.action, Action::ScaleRate { .. }));
    for (p, peak) in s.patterns.iter_mut().zip(peaks) {
        if let Some(x) = peak {
            p.rate = rate(*x);
        }
    }
    s
}

/// The steady phase's scenario.
#[must_use]
pub fn steady_scenario(sc: &Scenario, peaks: &[Option<f64>]) -> Scenario {
    at_rates(sc, peaks, sc.check.steady, RateShape::Constant)
}

/// The burst phase's scenario: the peak for the warm-up, then the burst.
#[must_use]
pub fn burst_scenario(sc: &Scenario, peaks: &[Option<f64>]) -> Scenario {
    let c = &sc.check;
    let (w, b) = (c.warmup.as_secs(), c.burst.as_secs());
    at_rates(sc, peaks, SimDuration::from_secs(w + b), |x| RateShape::Steps(vec![(0, x), (w, x * c.burst_factor)]))
}

/// The soak phase's scenario: its own shape and actions for the soak's length.
#[must_use]
pub fn soak_scenario(sc: &Scenario) -> Scenario {
    let mut s = sc.clone();
    s.duration = sc.check.soak;
    s
}

/// Attempts, throttled attempts and the worst minute's p99 latency (µs) of minutes
/// `[from, to)` of `r`.
#[must_use]
pub fn window(r: &RunResult, from: usize, to: usize) -> (u64, u64, u64) {
    let to = to.min(r.attempts_by_minute.len());
    let (mut a, mut t) = (0, 0);
    for m in &r.attempts_by_minute[from.min(to)..to] {
        a += m[0];
        t += m[1];
    }
    let p99 =
        r.latency_by_minute.get(from.min(to)..to.min(r.latency_by_minute.len())).map_or(0, |x| x.iter().map(|l| l[1]).max().unwrap_or(0));
    (a, t, p99)
}

/// Requests that failed in minutes from `from` over the requests offered in them.
fn failed_share_in(r: &RunResult, from: usize) -> f64 {
    let (mut failed, mut offered) = (0, 0);
    for m in r.attempts_by_minute.iter().skip(from) {
        failed += m[2];
        offered += m[3];
    }
    share(failed, offered)
}

fn share(n: u64, d: u64) -> f64 {
    if d == 0 {
        0.0
    } else {
        n as f64 / d as f64
    }
}

/// Judges the minutes `[from, to)` of a phase's run `r` against the plan.
fn judge_window(phase: Phase, r: &RunResult, from_s: u64, plan: &CheckSpec, requests_per_s: f64) -> PhaseResult {
    let (from, to) = ((from_s / 60) as usize, r.duration_s.div_ceil(60) as usize);
    let (attempts, throttled, p99_us) = window(r, from, to);
    let limit = plan.max_throttle;
    let max_p99_ms = plan.max_p99_latency.as_micros() as f64 / 1_000.0;
    let m = |name: MeasureName, value: f64, limit: f64| Measure { name, value, limit, passed: value <= limit, resource: None };
    let measures = vec![
        m(MeasureName::ThrottledShare, share(throttled, attempts), limit),
        m(MeasureName::FailedShare, failed_share_in(r, from), limit),
        m(MeasureName::P99LatencyMs, p99_us as f64 / 1_000.0, max_p99_ms),
    ];
    PhaseResult {
        phase,
        passed: measures.iter().all(|m| m.passed),
        simulated_s: r.duration_s,
        window_s: [from_s, r.duration_s],
        requests_per_s,
        measures,
        spread: Vec::new(),
        assumptions: Vec::new(),
    }
}

/// The last minutes of the steady phase the distribution phase reads.
pub const SPREAD_MINUTES: usize = 15;

/// The distribution phase, from the steady run (with partition minutes recorded).
#[must_use]
pub fn distribution(r: &RunResult, plan: &CheckSpec) -> PhaseResult {
    let minutes = r.duration_s.div_ceil(60) as usize;
    let from = minutes.saturating_sub(SPREAD_MINUTES);
    let secs: u64 = (from..minutes).map(|m| r.minute_seconds(m)).sum::<u64>().max(1);
    let mut spread = Vec::new();
    for (ri, res) in r.resources.iter().enumerate() {
        let Some(last) = res.minutes.last() else { continue };
        let n = last.partitions.max(1) as usize;
        for d in [Dim::Read, Dim::Write] {
            let mut per = vec![0u64; n];
            for pm in r.partitions.iter().filter(|p| p.resource as usize == ri && p.minute as usize >= from) {
                if let Some(x) = per.get_mut(pm.partition as usize) {
                    *x += u64::from(pm.consumed[d as usize]);
                }
            }
            let total: u64 = per.iter().sum();
            if total == 0 {
                continue;
            }
            let ups = |m: u64| m as f64 / MILLI as f64 / secs as f64;
            let mean = ups(total) / n as f64;
            let (busiest, &max) = per.iter().enumerate().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0))).unwrap_or((0, &0));
            let var = per.iter().map(|&x| (ups(x) - mean).powi(2)).sum::<f64>() / n as f64;
            spread.push(Spread {
                resource: res.name.clone(),
                dimension: d,
                partitions: n as u64,
                mean_units_per_s: mean,
                max_units_per_s: ups(max),
                busiest: busiest as u32,
                max_over_mean: ups(max) / mean,
                cv: var.sqrt() / mean,
                judged: mean >= 1.0,
            });
        }
    }
    let measures: Vec<Measure> = spread
        .iter()
        .filter(|s| s.judged)
        .map(|s| {
            let value = s.max_over_mean - 1.0;
            Measure {
                name: MeasureName::PartitionSkew,
                value,
                limit: plan.max_partition_skew,
                passed: value <= plan.max_partition_skew + 1e-12,
                resource: Some(format!("{} {}", s.resource, s.dimension.name())),
            }
        })
        .collect();
    PhaseResult {
        phase: Phase::Distribution,
        passed: measures.iter().all(|m| m.passed),
        simulated_s: r.duration_s,
        window_s: [from as u64 * 60, r.duration_s],
        requests_per_s: 0.0,
        measures,
        spread,
        assumptions: Vec::new(),
    }
}

/// The runs of a check, shared with the findings.
pub struct Runs<'a> {
    /// The scenario.
    pub sc: &'a Scenario,
    /// Per pattern, its peak rate (`None`: closed loop).
    pub peaks: Vec<Option<f64>>,
    /// The steady phase's run (always made: findings and the distribution read it).
    pub steady: RunResult,
    /// The burst phase's run, when the burst phase is judged.
    pub burst: Option<RunResult>,
    /// The soak phase's run, when the soak phase is judged.
    pub soak: Option<RunResult>,
    /// Seed and fidelity of every run.
    pub base: RunOptions,
    /// Prices.
    pub catalog: &'a Catalog,
    /// The scenario's own run (its shape and duration), made once for the rules that read it.
    own: std::sync::OnceLock<RunResult>,
}

impl Runs<'_> {
    /// The scenario's own run, with the check's seed and fidelity, for its own duration: made
    /// the first time a rule asks, then shared.
    pub fn own_run(&self) -> &RunResult {
        self.own.get_or_init(|| self.simulate(self.sc, false))
    }

    /// Runs `sc` with the check's seed and fidelity for its own duration.
    #[must_use]
    pub fn simulate(&self, sc: &Scenario, partitions: bool) -> RunResult {
        simulate(sc, &RunOptions { duration: None, record_partitions: partitions, give_up: None, ..self.base.clone() })
    }

    /// The monthly bill of run `r` of `sc`, USD (extrapolated from the window).
    #[must_use]
    pub fn monthly(&self, sc: &Scenario, r: &RunResult) -> f64 {
        bill_of(sc, r, self.catalog).monthly_rate_usd()
    }
}

/// Runs the plan on `sc` and reviews the design; returns the result and the phases' runs.
/// Deterministic: the phases run in parallel and are collected in plan order; every run draws
/// from the seed.
#[must_use]
pub fn check<'a>(sc: &'a Scenario, o: &CheckOptions, catalog: &'a Catalog) -> (CheckOutput, Runs<'a>) {
    let peaks = peaks(sc);
    let plan_peak: f64 = peaks.iter().flatten().sum();
    let wants = |p: Phase| o.phases.contains(&p);
    let base = RunOptions { duration: None, give_up: None, ..o.base.clone() };
    let jobs: Vec<(Phase, Scenario)> = [
        Some((Phase::Steady, steady_scenario(sc, &peaks))),
        wants(Phase::Burst).then(|| (Phase::Burst, burst_scenario(sc, &peaks))),
        wants(Phase::Soak).then(|| (Phase::Soak, soak_scenario(sc))),
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut results = super::par_indexed(jobs.len() as u64, |i| {
        let (phase, s) = &jobs[i as usize];
        simulate(s, &RunOptions { record_partitions: *phase == Phase::Steady, ..base.clone() })
    })
    .into_iter();
    let steady = results.next().expect("the steady run is always made");
    let burst = wants(Phase::Burst).then(|| results.next()).flatten();
    let soak = wants(Phase::Soak).then(|| results.next()).flatten();
    let c = &sc.check;
    let mut phases = Vec::new();
    for p in Phase::ALL.into_iter().filter(|p| wants(*p)) {
        phases.push(match p {
            Phase::Steady => judge_window(p, &steady, 0, c, plan_peak),
            Phase::Burst => judge_window(p, burst.as_ref().expect("run above"), c.warmup.as_secs(), c, plan_peak * c.burst_factor),
            Phase::Soak => {
                let r = soak.as_ref().expect("run above");
                let rate = r.totals().offered as f64 / r.duration_s.max(1) as f64;
                judge_window(p, r, 0, c, rate)
            }
            Phase::Distribution => {
                let mut d = distribution(&steady, c);
                d.assumptions = rules::failure_assumptions(sc, &d);
                d
            }
            Phase::Cost => continue,
        });
    }
    let runs = Runs { sc, peaks: peaks.clone(), steady, burst, soak, base, catalog, own: std::sync::OnceLock::new() };
    phases.extend(cost::cost_phase(&runs));
    let findings = rules::review(&runs);
    let plan = Plan {
        peak_by_pattern: sc.patterns.iter().zip(&peaks).filter_map(|(p, x)| x.map(|x| (p.name.clone(), x))).collect(),
        peak_requests_per_s: plan_peak,
        steady_s: c.steady.as_secs(),
        warmup_s: c.warmup.as_secs(),
        burst_s: c.burst.as_secs(),
        burst_factor: c.burst_factor,
        soak_s: c.soak.as_secs(),
        max_throttle: c.max_throttle,
        max_p99_latency_ms: c.max_p99_latency.as_micros() as f64 / 1_000.0,
        max_partition_skew: c.max_partition_skew,
    };
    let mut out = CheckOutput {
        scenario: sc.name.clone(),
        path: sc.source_path.display().to_string(),
        seed: o.base.seed.unwrap_or(sc.seed),
        passed: false,
        plan,
        phases,
        findings,
    };
    out.judge(Severity::Error);
    (out, runs)
}
