//! `compare`: the same traffic under each capacity mode, billed and judged.
//!
//! Every mode runs the scenario with the same seed, so the traffic is the same draw (common
//! random numbers): arrivals, keys and sizes come from streams that the capacity settings do
//! not touch. Modes:
//!
//! * `on_demand`: the table and its GSIs on-demand (a provisioned table as a switch makes it:
//!   warm throughput at least its provisioned capacity);
//! * `provisioned_fixed`: provisioned at the capacity that serves the peak minute of demand
//!   (first attempts) at the target utilization;
//! * `autoscaling_aws` and `autoscaling_instant`: provisioned with target tracking, starting
//!   from the first minute's need;
//! * `reserved_Ny`: the `autoscaling_aws` run with reserved capacity covering a percentile of its
//!   provisioned series (blocks of 100), the rest at list price;
//! * the cheapest of these again with the other table class (Standard ↔ Standard-IA).

use super::runner::par_indexed;
use super::sustain::OnCredit;
use crate::cost::{bill, Bill, BillOptions, Catalog, Reservation, Usage, RESERVED_BLOCK};
use crate::engine::{simulate, RunOptions, RunResult};
use crate::limits::{ON_DEMAND_DEFAULT_WARM_READ, ON_DEMAND_DEFAULT_WARM_WRITE};
use crate::scenario::{Action, AutoscalingSpec, CapacitySpec, ScalingTargetSpec, Scenario, TableClass, Window};
use crate::stats::{quantile_sorted, Stat};
use crate::time::SimDuration;
use crate::units::MILLI;
use serde::Serialize;
use std::fmt;

/// A capacity mode `compare` runs.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CompareMode {
    /// On-demand, table and GSIs.
    OnDemand,
    /// Provisioned at the peak minute's need.
    ProvisionedFixed,
    /// Provisioned with auto scaling as AWS runs it.
    AutoscalingAws,
    /// Provisioned with auto scaling without delays.
    AutoscalingInstant,
    /// `AutoscalingAws` with reserved capacity of this many years.
    Reserved(u32),
    /// A mode with the other table class.
    WithClass(Box<CompareMode>, TableClass),
}

impl fmt::Display for CompareMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompareMode::OnDemand => f.write_str("on_demand"),
            CompareMode::ProvisionedFixed => f.write_str("provisioned_fixed"),
            CompareMode::AutoscalingAws => f.write_str("autoscaling_aws"),
            CompareMode::AutoscalingInstant => f.write_str("autoscaling_instant"),
            CompareMode::Reserved(y) => write!(f, "reserved_{y}y"),
            CompareMode::WithClass(m, TableClass::StandardIa) => write!(f, "{m}+standard_ia"),
            CompareMode::WithClass(m, TableClass::Standard) => write!(f, "{m}+standard"),
        }
    }
}

impl CompareMode {
    /// Whether the mode can be the pick: a setting an AWS user can configure. Auto scaling
    /// without delays is a reference row (how much the real policy's lag costs), never a pick.
    #[must_use]
    pub fn configurable(&self) -> bool {
        match self {
            CompareMode::AutoscalingInstant => false,
            CompareMode::WithClass(m, _) => m.configurable(),
            _ => true,
        }
    }
}

impl Serialize for CompareMode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Options of a comparison.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// Seed, fidelity, duration, stop token and progress of every run.
    pub run: RunOptions,
    /// Largest throttled share of attempts a mode may have to be picked (0.001 = 0.1 %).
    pub max_throttle: f64,
    /// Percentile of the auto-scaled capacity series that reserved capacity covers (0-100).
    pub reserved_percentile: f64,
    /// Reserved-capacity term, years (1 or 3).
    pub reserved_years: u32,
    /// Target utilization for fixed and auto-scaled capacity (0.2-0.9).
    pub target: f64,
}

impl Default for CompareOptions {
    fn default() -> Self {
        Self { run: RunOptions::default(), max_throttle: 0.001, reserved_percentile: 10.0, reserved_years: 1, target: 0.7 }
    }
}

/// One mode's result.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct ModeRow {
    /// Mode.
    pub mode: CompareMode,
    /// What was run.
    pub description: String,
    /// Cost over the simulated window, USD; reserved upfront amortised: the headline figure.
    pub window_usd: f64,
    /// Monthly cost (730 h), extrapolated from the window, USD, when the window repeats
    /// (`[pricing] extrapolate = "repeat"`).
    pub monthly_usd: Option<f64>,
    /// Reserved-capacity upfront paid at purchase, USD.
    pub upfront_usd: f64,
    /// USD per million requests served.
    pub usd_per_million_requests: f64,
    /// Requests offered.
    pub offered_requests: u64,
    /// Attempts throttled.
    pub throttled_attempts: u64,
    /// Throttled attempts over attempts.
    pub throttled_attempt_share: f64,
    /// Requests that failed.
    pub failed_requests: u64,
    /// p99 latency of served requests, ms.
    pub p99_latency_ms: f64,
    /// It ends the window with no less burst credit and no more GSI debt than it began with.
    pub sustained: bool,
    /// What it spent of them on net, and how long the same load would last past the window
    /// (none when sustained).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_credit: Option<OnCredit>,
    /// The bill.
    #[serde(skip)]
    pub bill: Bill,
}

/// The comparison.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Comparison {
    /// Scenario name.
    pub scenario: String,
    /// Seed.
    pub seed: u64,
    /// Simulated seconds.
    pub duration_s: u64,
    /// The window repeats: monthly figures are stated as extrapolations. Otherwise the window
    /// is an event, costs are the window's own, and reserved capacity is not compared (a year's
    /// commitment is not priced from an event).
    pub extrapolated: bool,
    /// Largest throttled share allowed for the pick.
    pub max_throttle: f64,
    /// What the window stands for: with `sustained`, the pick must hold it without spending
    /// burst credit or GSI absorption.
    pub window: Window,
    /// One row per mode.
    pub rows: Vec<ModeRow>,
    /// The cheapest mode within the throttle limit, if any.
    pub pick: Option<CompareMode>,
    /// Provisioned beats on-demand above this average utilization (reads, writes), Standard.
    pub break_even_utilization: [f64; 2],
    /// Bills of each mode, line by line.
    pub bills: Vec<(CompareMode, Bill)>,
    /// Price items used that are unverified.
    pub unverified_prices: Vec<String>,
    /// Region and date of the prices.
    pub prices: String,
}

/// The scenario with capacity-changing actions removed (they belong to one mode).
pub(crate) fn traffic_only(sc: &Scenario) -> Scenario {
    let mut s = sc.clone();
    s.actions.retain(|a| matches!(a.action, Action::ScaleRate { .. }));
    s.table.autoscaling = None;
    for g in &mut s.gsis {
        g.autoscaling = None;
    }
    s
}

/// The scenario on-demand. A provisioned table becomes what a switch to on-demand makes it:
/// warm throughput at least its provisioned capacity (spec §5).
pub(crate) fn on_demand(sc: &Scenario) -> Scenario {
    let mut s = traffic_only(sc);
    let od = |c: &CapacitySpec| match *c {
        CapacitySpec::OnDemand { .. } => *c,
        CapacitySpec::Provisioned { read, write } => CapacitySpec::OnDemand {
            warm_read: ON_DEMAND_DEFAULT_WARM_READ.max(read),
            warm_write: ON_DEMAND_DEFAULT_WARM_WRITE.max(write),
            max_read: None,
            max_write: None,
            // The table-level quota holds in both modes (a raised one too).
            table_quota: sc.account.table_max,
        },
    };
    s.table.capacity = od(&s.table.capacity);
    for g in &mut s.gsis {
        g.capacity = od(&g.capacity);
    }
    s
}

/// Demand per resource (first attempts' units), units per second, [read, write]: the peak
/// minute's, or the first minute's. The demand is the same draw in every mode.
pub(crate) fn demand(r: &RunResult, peak: bool) -> Vec<[f64; 2]> {
    demand_in(r, |m| peak || m == 0)
}

/// Demand per resource, units per second, [read, write]: the peak of the minutes `keep`
/// keeps (by index).
pub(crate) fn demand_in(r: &RunResult, keep: impl Fn(usize) -> bool) -> Vec<[f64; 2]> {
    r.resources
        .iter()
        .map(|res| {
            let mut p = [0.0f64; 2];
            for (m, x) in res.minutes.iter().enumerate().filter(|(m, _)| keep(*m)) {
                let secs = r.minute_seconds(m) as f64;
                for (pd, c) in p.iter_mut().zip(x.offered) {
                    *pd = pd.max(c as f64 / MILLI as f64 / secs);
                }
            }
            p
        })
        .collect()
}

fn units_for(rate: f64, target: f64) -> u64 {
    ((rate / target).ceil() as u64).max(1)
}

pub(crate) fn provisioned(sc: &Scenario, caps: &[[u64; 2]]) -> Scenario {
    let mut s = traffic_only(sc);
    s.table.capacity = CapacitySpec::Provisioned { read: caps[0][0], write: caps[0][1] };
    for (g, c) in s.gsis.iter_mut().zip(&caps[1..]) {
        g.capacity = CapacitySpec::Provisioned { read: c[0], write: c[1] };
    }
    s
}

fn autoscaled(sc: &Scenario, start: &[[u64; 2]], peak_caps: &[[u64; 2]], target: f64, instant: bool) -> Scenario {
    let mut s = provisioned(sc, start);
    let spec = |min: u64, peak: u64| ScalingTargetSpec {
        min,
        max: (peak * 4).max(crate::limits::DEFAULT_TABLE_QUOTA),
        target,
        scale_in_cooldown: SimDuration::ZERO,
        scale_out_cooldown: SimDuration::ZERO,
    };
    let min_of = |d: usize, own: Option<&AutoscalingSpec>| own.and_then(|a| if d == 0 { a.read } else { a.write }).map_or(5, |t| t.min);
    let mk = |own: Option<&AutoscalingSpec>, peak: [u64; 2]| AutoscalingSpec {
        instant,
        read: Some(spec(min_of(0, own), peak[0])),
        write: Some(spec(min_of(1, own), peak[1])),
        alarm_delay: own.map_or(SimDuration::from_secs(90), |a| a.alarm_delay),
    };
    s.table.autoscaling = Some(mk(sc.table.autoscaling.as_ref(), peak_caps[0]));
    for (i, g) in s.gsis.iter_mut().enumerate() {
        g.autoscaling = Some(mk(sc.gsis[i].autoscaling.as_ref(), peak_caps[i + 1]));
    }
    // Start no lower than the minimum.
    if let (CapacitySpec::Provisioned { read, write }, Some(a)) = (s.table.capacity, s.table.autoscaling.as_ref()) {
        s.table.capacity =
            CapacitySpec::Provisioned { read: read.max(a.read.map_or(1, |t| t.min)), write: write.max(a.write.map_or(1, |t| t.min)) };
    }
    s
}

/// The `p` percentile (0-100) of a series.
fn percentile(xs: &[f64], p: f64) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    quantile_sorted(&v, p / 100.0)
}

fn row(mode: CompareMode, description: String, r: &RunResult, b: Bill) -> ModeRow {
    let t = r.totals();
    let on_credit = OnCredit::of_run(r);
    ModeRow {
        sustained: on_credit.is_none(),
        on_credit,
        mode,
        description,
        monthly_usd: b.monthly_usd,
        upfront_usd: b.upfront_usd,
        window_usd: b.total_usd,
        usd_per_million_requests: if t.served > 0 { b.total_usd / (t.served as f64 / 1e6) } else { 0.0 },
        offered_requests: t.offered,
        throttled_attempts: t.throttled_attempts,
        throttled_attempt_share: t.throttled_share(),
        failed_requests: t.failed,
        p99_latency_ms: r.latency.quantile(0.99) as f64 / 1_000.0,
        bill: b,
    }
}

/// A mode run: its row, and its usage and run for the other table class.
struct Ran {
    mode: CompareMode,
    description: String,
    usage: Usage,
    run: RunResult,
}

/// Runs every mode and compares them.
#[must_use]
pub fn compare(sc: &Scenario, catalog: &Catalog, o: &CompareOptions) -> Comparison {
    let catalog = catalog.clone().with_overrides(&sc.pricing.overrides);
    let plain = BillOptions::of(&sc.pricing);
    let ia = sc.table.table_class == TableClass::StandardIa;
    let run = |s: &Scenario| simulate(s, &RunOptions { progress: None, ..o.run.clone() });
    let mut ran: Vec<Ran> = Vec::new();
    let mut rows = Vec::new();
    let mut add = |mode: CompareMode, description: String, s: &Scenario, r: RunResult, rows: &mut Vec<ModeRow>| {
        let usage = Usage::of(&r, s);
        rows.push(row(mode.clone(), description.clone(), &r, bill(&usage, &catalog, &plain)));
        ran.push(Ran { mode, description, usage, run: r });
    };

    let od_sc = on_demand(sc);
    let r_od = run(&od_sc);
    let peak_caps: Vec<[u64; 2]> = demand(&r_od, true).iter().map(|p| [units_for(p[0], o.target), units_for(p[1], o.target)]).collect();
    let start: Vec<[u64; 2]> = demand(&r_od, false).iter().map(|p| [units_for(p[0], o.target), units_for(p[1], o.target)]).collect();
    let duration_s = r_od.duration_s;
    add(CompareMode::OnDemand, "on-demand, table and GSIs".into(), &od_sc, r_od, &mut rows);

    let fixed_sc = provisioned(sc, &peak_caps);
    let desc =
        format!("provisioned {} RCU / {} WCU: the peak minute at {:.0} % utilization", peak_caps[0][0], peak_caps[0][1], o.target * 100.0);
    add(CompareMode::ProvisionedFixed, desc, &fixed_sc, run(&fixed_sc), &mut rows);

    for (mode, instant) in [(CompareMode::AutoscalingAws, false), (CompareMode::AutoscalingInstant, true)] {
        let s = autoscaled(sc, &start, &peak_caps, o.target, instant);
        let desc =
            format!("provisioned with auto scaling at {:.0} % ({} policy)", o.target * 100.0, if instant { "instant" } else { "aws" });
        add(mode, desc, &s, run(&s), &mut rows);
    }

    if !ia && sc.pricing.extrapolate && catalog.sells_reserved(o.reserved_years).is_ok() {
        if let Some(aws) = ran.iter().find(|m| m.mode == CompareMode::AutoscalingAws) {
            // The reservation covers the table and its GSIs together: size it on their sum, less
            // what the reservations already owned cover that minute (buy only what is on top).
            let owned = |m: usize, write: bool| -> f64 {
                aws.usage
                    .owned
                    .iter()
                    .filter(|o| (o.minutes.0..o.minutes.1).contains(&m))
                    .map(|o| if write { o.wcu } else { o.rcu } as f64)
                    .sum()
            };
            let total = |f: fn(&crate::cost::ResourceUsage) -> &Vec<f64>, write: bool| {
                let n = aws.usage.resources.iter().map(|r| f(r).len()).max().unwrap_or(0);
                (0..n)
                    .map(|m| {
                        (aws.usage.resources.iter().map(|r| f(r).get(m).copied().unwrap_or(0.0)).sum::<f64>() - owned(m, write)).max(0.0)
                    })
                    .collect::<Vec<f64>>()
            };
            let reserve = |series: &[f64]| (percentile(series, o.reserved_percentile) as u64 / RESERVED_BLOCK) * RESERVED_BLOCK;
            let res = Reservation {
                rcu: reserve(&total(|r| &r.provisioned_rcu_by_minute, false)),
                wcu: reserve(&total(|r| &r.provisioned_wcu_by_minute, true)),
                years: o.reserved_years,
            };
            let desc = format!(
                "auto scaling (aws) with {} RCU / {} WCU reserved for {} year(s){}: P{} of the provisioned series of the table and its GSIs together, in blocks of 100",
                res.rcu,
                res.wcu,
                o.reserved_years,
                if aws.usage.owned.is_empty() { "" } else { " on top of those owned" },
                o.reserved_percentile
            );
            // A row that reserves nothing is not a reserved row: it would repeat autoscaling_aws.
            if res.rcu + res.wcu > 0 {
                let b = bill(&aws.usage, &catalog, &BillOptions { reservation: Some(res), ..plain });
                rows.push(row(CompareMode::Reserved(o.reserved_years), desc, &aws.run, b));
            }
        }
    }

    // The cheapest non-reserved mode again with the other table class.
    let window = |m: &CompareMode| rows.iter().find(|r| &r.mode == m).map_or(f64::INFINITY, |r| r.window_usd);
    if let Some(cheapest) = ran.iter().min_by(|a, b| window(&a.mode).total_cmp(&window(&b.mode))) {
        let mut u = cheapest.usage.clone();
        u.standard_ia = !ia;
        let other = if ia { TableClass::Standard } else { TableClass::StandardIa };
        let desc = format!("{}, table class {}", cheapest.description, if ia { "Standard" } else { "Standard-IA" });
        rows.push(row(CompareMode::WithClass(Box::new(cheapest.mode.clone()), other), desc, &cheapest.run, bill(&u, &catalog, &plain)));
    }

    let pick = rows
        .iter()
        .filter(|r| r.mode.configurable() && r.throttled_attempt_share <= o.max_throttle && (r.sustained || sc.window == Window::Event))
        .min_by(|a, b| a.window_usd.total_cmp(&b.window_usd))
        .map(|r| r.mode.clone());
    let mut unverified: Vec<String> = rows.iter().flat_map(|r| r.bill.unverified_items.iter().map(|i| i.name().to_string())).collect();
    unverified.sort();
    unverified.dedup();
    Comparison {
        scenario: sc.name.clone(),
        seed: o.run.seed.unwrap_or(sc.seed),
        duration_s,
        extrapolated: sc.pricing.extrapolate,
        max_throttle: o.max_throttle,
        window: sc.window,
        bills: rows.iter().map(|r| (r.mode.clone(), r.bill.clone())).collect(),
        rows,
        pick,
        break_even_utilization: [catalog.break_even(false, ia), catalog.break_even(true, ia)],
        unverified_prices: unverified,
        prices: catalog.label(sc.start_unix_s),
    }
}

/// `n` comparisons, replication by replication, in parallel (index order).
#[must_use]
pub fn compare_replications(sc: &Scenario, catalog: &Catalog, o: &CompareOptions, n: u64) -> Vec<Comparison> {
    par_indexed(n, |rep| compare(sc, catalog, &CompareOptions { run: RunOptions { replication: rep, ..o.run.clone() }, ..o.clone() }))
}

/// One mode over replications.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct ModeStats {
    /// Mode.
    pub mode: CompareMode,
    /// Cost of the window, USD.
    pub window_usd: Stat,
    /// Monthly cost, USD, extrapolated, when the window repeats.
    pub monthly_usd: Option<Stat>,
    /// Throttled share of attempts.
    pub throttled_attempt_share: Stat,
    /// Failed requests.
    pub failed_requests: Stat,
    /// p99 latency, ms.
    pub p99_latency_ms: Stat,
    /// The share of replications that held sustained (no burst credit or GSI absorption spent
    /// on net).
    pub sustained_share: f64,
}

/// Replicated comparisons: statistics per mode and a pick on the means.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct ReplicatedComparison {
    /// Replications.
    pub replications: usize,
    /// Per mode, in the order of the first comparison.
    pub modes: Vec<ModeStats>,
    /// Cheapest mean cost among modes whose mean throttled share is within the limit (and, in
    /// a sustained window, that held sustained in every replication).
    pub pick: Option<CompareMode>,
}

impl ReplicatedComparison {
    /// Reduces comparisons of replications 0..n (serially, in order).
    #[must_use]
    pub fn of(cs: &[Comparison]) -> Self {
        let first = &cs[0];
        let modes: Vec<ModeStats> = first
            .rows
            .iter()
            .map(|r0| {
                // Every figure is a count, a cost, a latency (none below 0) or a share (in [0, 1]).
                let bounded = |f: fn(&ModeRow) -> f64, hi: f64| {
                    Stat::bounded(&cs.iter().filter_map(|c| c.rows.iter().find(|r| r.mode == r0.mode)).map(f).collect::<Vec<_>>(), 0.0, hi)
                };
                let col = |f: fn(&ModeRow) -> f64| bounded(f, f64::INFINITY);
                ModeStats {
                    mode: r0.mode.clone(),
                    window_usd: col(|r| r.window_usd),
                    monthly_usd: first.extrapolated.then(|| col(|r| r.monthly_usd.unwrap_or(0.0))),
                    throttled_attempt_share: bounded(|r| r.throttled_attempt_share, 1.0),
                    failed_requests: col(|r| r.failed_requests as f64),
                    p99_latency_ms: col(|r| r.p99_latency_ms),
                    sustained_share: cs
                        .iter()
                        .filter_map(|c| c.rows.iter().find(|r| r.mode == r0.mode))
                        .map(|r| f64::from(u8::from(r.sustained)))
                        .sum::<f64>()
                        / cs.len() as f64,
                }
            })
            .collect();
        let pick = modes
            .iter()
            .filter(|m| {
                m.mode.configurable()
                    && m.throttled_attempt_share.mean <= first.max_throttle
                    && (m.sustained_share >= 1.0 || first.window == Window::Event)
            })
            .min_by(|a, b| a.window_usd.mean.total_cmp(&b.window_usd.mean))
            .map(|m| m.mode.clone());
        Self { replications: cs.len(), modes, pick }
    }
}
