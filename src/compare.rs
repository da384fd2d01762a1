//! `ddbsim compare`: the same traffic under each capacity mode, billed and judged.
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

use crate::billing::usage_of;
use crate::cost::{bill, Bill, BillOptions, Catalog, Reservation, Usage, RESERVED_BLOCK};
use crate::engine::{simulate, RunOptions, RunResult};
use crate::scenario::{
    Action, AutoscalingSpec, CapacitySpec, Fidelity, ScalingTargetSpec, Scenario, TableClass, DEFAULT_TABLE_QUOTA,
    ON_DEMAND_DEFAULT_WARM_READ, ON_DEMAND_DEFAULT_WARM_WRITE,
};
use crate::time::SimDuration;
use crate::units::MILLI;
use serde::Serialize;

/// Options of a comparison.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// Seed override.
    pub seed: Option<u64>,
    /// Fidelity override.
    pub fidelity: Option<Fidelity>,
    /// Duration override.
    pub duration: Option<SimDuration>,
    /// Largest throttled share of attempts a mode may have to be picked (0.001 = 0.1 %).
    pub max_throttle: f64,
    /// Percentile of the auto-scaled capacity series that reserved capacity covers (0-100).
    pub reserved_percentile: f64,
    /// Reserved-capacity term, years (1 or 3).
    pub reserved_years: u32,
    /// Target utilization for fixed and auto-scaled capacity (0.2-0.9).
    pub target: f64,
    /// Replication number (0 for a single comparison).
    pub replication: u64,
}

impl Default for CompareOptions {
    fn default() -> Self {
        Self {
            seed: None,
            fidelity: None,
            duration: None,
            max_throttle: 0.001,
            reserved_percentile: 10.0,
            reserved_years: 1,
            target: 0.7,
            replication: 0,
        }
    }
}

/// One mode's result.
#[derive(Clone, Debug, Serialize)]
pub struct ModeRow {
    /// Mode key.
    pub mode: String,
    /// What was run.
    pub description: String,
    /// Monthly cost (730 h), extrapolated from the window, USD; reserved upfront amortised.
    pub monthly_usd: f64,
    /// Reserved-capacity upfront paid at purchase, USD.
    pub upfront_usd: f64,
    /// Cost over the simulated window, USD.
    pub window_usd: f64,
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
    /// The bill.
    #[serde(skip)]
    pub bill: Bill,
}

/// The comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// Scenario name.
    pub scenario: String,
    /// Seed.
    pub seed: u64,
    /// Simulated seconds.
    pub duration_s: u64,
    /// Largest throttled share allowed for the pick.
    pub max_throttle: f64,
    /// One row per mode.
    pub rows: Vec<ModeRow>,
    /// The cheapest mode within the throttle limit, if any.
    pub pick: Option<String>,
    /// Provisioned beats on-demand above this average utilization (reads, writes), Standard.
    pub break_even_utilization: [f64; 2],
    /// Bills of each mode, line by line.
    pub bills: Vec<(String, Bill)>,
    /// Price items used that are unverified.
    pub unverified_prices: Vec<String>,
    /// Region and date of the prices.
    pub prices: String,
}

fn run_with(sc: &Scenario, o: &CompareOptions) -> RunResult {
    simulate(
        sc,
        &RunOptions { seed: o.seed, fidelity: o.fidelity, duration: o.duration, replication: o.replication, ..RunOptions::default() },
    )
}

/// The scenario with capacity-changing actions removed (they belong to one mode).
fn traffic_only(sc: &Scenario) -> Scenario {
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
fn on_demand(sc: &Scenario) -> Scenario {
    let mut s = traffic_only(sc);
    let od = |c: &CapacitySpec| match *c {
        CapacitySpec::OnDemand { .. } => *c,
        CapacitySpec::Provisioned { read, write } => CapacitySpec::OnDemand {
            warm_read: ON_DEMAND_DEFAULT_WARM_READ.max(read),
            warm_write: ON_DEMAND_DEFAULT_WARM_WRITE.max(write),
            max_read: None,
            max_write: None,
            table_quota: DEFAULT_TABLE_QUOTA,
        },
    };
    s.table.capacity = od(&s.table.capacity);
    for g in &mut s.gsis {
        g.capacity = od(&g.capacity);
    }
    s
}

/// Peak one-minute demand (first attempts' units) per resource, units per second:
/// [read, write]. The demand is the same draw in every mode.
fn peaks(r: &RunResult) -> Vec<[f64; 2]> {
    r.rec
        .resources
        .iter()
        .map(|series| {
            let mut p = [0.0f64; 2];
            for (m, x) in series.iter().enumerate() {
                let secs = (r.duration_s - m as u64 * 60).min(60) as f64;
                for (pd, c) in p.iter_mut().zip(x.offered) {
                    *pd = pd.max(c as f64 / MILLI as f64 / secs);
                }
            }
            p
        })
        .collect()
}

fn first_minute(r: &RunResult) -> Vec<[f64; 2]> {
    r.rec
        .resources
        .iter()
        .map(|series| {
            let x = &series[0];
            let secs = r.duration_s.min(60) as f64;
            [x.offered[0] as f64 / MILLI as f64 / secs, x.offered[1] as f64 / MILLI as f64 / secs]
        })
        .collect()
}

fn units_for(rate: f64, target: f64) -> u64 {
    ((rate / target).ceil() as u64).max(1)
}

fn provisioned(sc: &Scenario, caps: &[[u64; 2]]) -> Scenario {
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
        max: (peak * 4).max(40_000),
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
    if let CapacitySpec::Provisioned { read, write } = s.table.capacity {
        let a = s.table.autoscaling.as_ref().expect("just set");
        s.table.capacity =
            CapacitySpec::Provisioned { read: read.max(a.read.map_or(1, |t| t.min)), write: write.max(a.write.map_or(1, |t| t.min)) };
    }
    s
}

fn percentile(xs: &[f64], p: f64) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * (v.len() - 1) as f64).round() as usize;
    v[rank.min(v.len() - 1)]
}

fn row(mode: &str, description: String, r: &RunResult, b: Bill) -> ModeRow {
    let offered: u64 = r.rec.patterns.iter().map(|p| p.offered).sum();
    let served: u64 = r.rec.patterns.iter().map(|p| p.served).sum();
    let attempts: u64 = r.rec.patterns.iter().map(|p| p.attempts).sum();
    let throttled: u64 = r.rec.patterns.iter().map(|p| p.throttled_attempts).sum();
    let failed: u64 = r.rec.patterns.iter().map(|p| p.failed()).sum();
    ModeRow {
        mode: mode.to_string(),
        description,
        monthly_usd: b.monthly_usd,
        upfront_usd: b.upfront_usd,
        window_usd: b.total_usd,
        usd_per_million_requests: if served > 0 { b.total_usd / (served as f64 / 1e6) } else { 0.0 },
        offered_requests: offered,
        throttled_attempts: throttled,
        throttled_attempt_share: if attempts > 0 { throttled as f64 / attempts as f64 } else { 0.0 },
        failed_requests: failed,
        p99_latency_ms: r.rec.latency.quantile(0.99) as f64 / 1_000.0,
        bill: b,
    }
}

/// Runs every mode and compares them.
#[must_use]
#[allow(clippy::too_many_lines)]
pub fn compare(sc: &Scenario, catalog: &Catalog, o: &CompareOptions) -> Comparison {
    let catalog = catalog.clone().with_overrides(&sc.pricing.overrides);
    let plain = BillOptions { free_tier: sc.pricing.free_tier, reservation: None };
    let ia = sc.table.table_class == TableClass::StandardIa;
    let mut rows = Vec::new();
    let mut usages: Vec<(String, Usage, String, RunResult)> = Vec::new();

    let od_sc = on_demand(sc);
    let r_od = run_with(&od_sc, o);
    let u = usage_of(&od_sc, &r_od);
    rows.push(row("on_demand", "on-demand, table and GSIs".into(), &r_od, bill(&u, &catalog, &plain)));
    usages.push(("on_demand".into(), u, "on-demand, table and GSIs".into(), r_od.clone()));

    let peak_caps: Vec<[u64; 2]> = peaks(&r_od).iter().map(|p| [units_for(p[0], o.target), units_for(p[1], o.target)]).collect();
    let fixed_sc = provisioned(sc, &peak_caps);
    let r_fixed = run_with(&fixed_sc, o);
    let u = usage_of(&fixed_sc, &r_fixed);
    let desc =
        format!("provisioned {} RCU / {} WCU: the peak minute at {:.0} % utilization", peak_caps[0][0], peak_caps[0][1], o.target * 100.0);
    rows.push(row("provisioned_fixed", desc.clone(), &r_fixed, bill(&u, &catalog, &plain)));
    usages.push(("provisioned_fixed".into(), u, desc, r_fixed));

    let start: Vec<[u64; 2]> = first_minute(&r_od).iter().map(|p| [units_for(p[0], o.target), units_for(p[1], o.target)]).collect();
    let mut aws_usage = None;
    for (mode, instant) in [("autoscaling_aws", false), ("autoscaling_instant", true)] {
        let s = autoscaled(sc, &start, &peak_caps, o.target, instant);
        let r = run_with(&s, o);
        let u = usage_of(&s, &r);
        let desc =
            format!("provisioned with auto scaling at {:.0} % ({} policy)", o.target * 100.0, if instant { "instant" } else { "aws" });
        rows.push(row(mode, desc.clone(), &r, bill(&u, &catalog, &plain)));
        if !instant {
            aws_usage = Some((u.clone(), r.clone()));
        }
        usages.push((mode.into(), u, desc, r));
    }

    if !ia {
        if let Some((u, r)) = aws_usage {
            let t = &u.resources[0];
            let res = Reservation {
                rcu: (percentile(&t.provisioned_rcu_by_minute, o.reserved_percentile) as u64 / RESERVED_BLOCK) * RESERVED_BLOCK,
                wcu: (percentile(&t.provisioned_wcu_by_minute, o.reserved_percentile) as u64 / RESERVED_BLOCK) * RESERVED_BLOCK,
                years: o.reserved_years,
            };
            let mode = format!("reserved_{}y", o.reserved_years);
            let desc = format!(
                "auto scaling (aws) with {} RCU / {} WCU reserved for {} year(s): P{} of the provisioned series, in blocks of 100",
                res.rcu, res.wcu, o.reserved_years, o.reserved_percentile
            );
            rows.push(row(&mode, desc, &r, bill(&u, &catalog, &BillOptions { free_tier: sc.pricing.free_tier, reservation: Some(res) })));
        }
    }

    // The cheapest non-reserved mode again with the other table class.
    let cheapest = usages.iter().min_by(|a, b| {
        let ca = rows.iter().find(|r| r.mode == a.0).map_or(f64::INFINITY, |r| r.monthly_usd);
        let cb = rows.iter().find(|r| r.mode == b.0).map_or(f64::INFINITY, |r| r.monthly_usd);
        ca.total_cmp(&cb)
    });
    if let Some((mode, u, desc, r)) = cheapest {
        let mut u2 = u.clone();
        u2.standard_ia = !ia;
        let class = if ia { "standard" } else { "standard_ia" };
        let b = bill(&u2, &catalog, &plain);
        rows.push(row(&format!("{mode}+{class}"), format!("{desc}, table class {}", if ia { "Standard" } else { "Standard-IA" }), r, b));
    }

    let pick = rows
        .iter()
        .filter(|r| r.throttled_attempt_share <= o.max_throttle)
        .min_by(|a, b| a.monthly_usd.total_cmp(&b.monthly_usd))
        .map(|r| r.mode.clone());
    let mut unverified: Vec<String> = rows.iter().flat_map(|r| r.bill.unverified_items.clone()).collect();
    unverified.sort();
    unverified.dedup();
    Comparison {
        scenario: sc.name.clone(),
        seed: o.seed.unwrap_or(sc.seed),
        duration_s: r_od.duration_s,
        max_throttle: o.max_throttle,
        bills: rows.iter().map(|r| (r.mode.clone(), r.bill.clone())).collect(),
        rows,
        pick,
        break_even_utilization: [catalog.break_even(false, ia), catalog.break_even(true, ia)],
        unverified_prices: unverified,
        prices: format!("{} prices read on {}", catalog.region, catalog.prices_read_on),
    }
}

/// One mode over replications.
#[derive(Clone, Debug, Serialize)]
pub struct ModeStats {
    /// Mode key.
    pub mode: String,
    /// Monthly cost, USD.
    pub monthly_usd: crate::stats::Stat,
    /// Throttled share of attempts.
    pub throttled_attempt_share: crate::stats::Stat,
    /// Failed requests.
    pub failed_requests: crate::stats::Stat,
    /// p99 latency, ms.
    pub p99_latency_ms: crate::stats::Stat,
}

/// Replicated comparisons: statistics per mode and a pick on the means.
#[derive(Clone, Debug, Serialize)]
pub struct ReplicatedComparison {
    /// Replications.
    pub replications: usize,
    /// Per mode, in the order of the first comparison.
    pub modes: Vec<ModeStats>,
    /// Cheapest mean cost among modes whose mean throttled share is within the limit.
    pub pick: Option<String>,
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
                let col = |f: fn(&ModeRow) -> f64| {
                    crate::stats::Stat::of(&cs.iter().filter_map(|c| c.rows.iter().find(|r| r.mode == r0.mode)).map(f).collect::<Vec<_>>())
                };
                ModeStats {
                    mode: r0.mode.clone(),
                    monthly_usd: col(|r| r.monthly_usd),
                    throttled_attempt_share: col(|r| r.throttled_attempt_share),
                    failed_requests: col(|r| r.failed_requests as f64),
                    p99_latency_ms: col(|r| r.p99_latency_ms),
                }
            })
            .collect();
        let pick = modes
            .iter()
            .filter(|m| m.throttled_attempt_share.mean <= first.max_throttle)
            .min_by(|a, b| a.monthly_usd.mean.total_cmp(&b.monthly_usd.mean))
            .map(|m| m.mode.clone());
        Self { replications: cs.len(), modes, pick }
    }

    /// The terminal table.
    #[must_use]
    pub fn to_table(&self) -> String {
        use std::fmt::Write as _;
        let mut o = format!("{} replications (mean, 95% CI):\n", self.replications);
        for m in &self.modes {
            let mark = if self.pick.as_deref() == Some(m.mode.as_str()) { " *" } else { "" };
            let _ = writeln!(
                o,
                "  {:<30} ${:>10.2}/month ({:.2}–{:.2})  throttled {:.3}% (P95 {:.3}%, P99 {:.3}%)",
                format!("{}{mark}", m.mode),
                m.monthly_usd.mean,
                m.monthly_usd.ci95_low,
                m.monthly_usd.ci95_high,
                m.throttled_attempt_share.mean * 100.0,
                m.throttled_attempt_share.p95 * 100.0,
                m.throttled_attempt_share.p99 * 100.0
            );
        }
        let _ = writeln!(o, "pick over replications: {}", self.pick.as_deref().unwrap_or("none"));
        o
    }
}

/// One row of `compare.csv`.
#[derive(Debug, Serialize)]
struct CsvRow<'a> {
    mode: &'a str,
    monthly_usd: f64,
    upfront_usd: f64,
    window_usd: f64,
    usd_per_million_requests: f64,
    offered_requests: u64,
    throttled_attempts: u64,
    throttled_attempt_share: f64,
    failed_requests: u64,
    p99_latency_ms: f64,
    picked: bool,
    description: &'a str,
}

fn cents(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

impl Comparison {
    /// The bars of the cost chart: monthly USD by component (table reads, writes, storage,
    /// reserved fees, and everything billed to GSIs as "indexes").
    #[must_use]
    pub fn cost_bars(&self) -> Vec<crate::report::plot::CostBar> {
        self.rows
            .iter()
            .map(|r| {
                let scale = if r.bill.window_hours > 0.0 { crate::cost::HOURS_PER_MONTH / r.bill.window_hours } else { 0.0 };
                let table = r.bill.lines.first().map(|l| l.resource.clone()).unwrap_or_default();
                let mut parts: Vec<(String, f64)> = Vec::new();
                for l in &r.bill.lines {
                    let key = if l.resource != table {
                        "indexes"
                    } else {
                        match l.component {
                            "reserved_upfront" | "reserved_hourly" => "reserved",
                            other => other,
                        }
                    };
                    match parts.iter_mut().find(|p| p.0 == key) {
                        Some(p) => p.1 += l.cost_usd * scale,
                        None => parts.push((key.to_string(), l.cost_usd * scale)),
                    }
                }
                let order = ["reads", "writes", "storage", "reserved", "indexes"];
                parts.sort_by_key(|p| order.iter().position(|o| *o == p.0).unwrap_or(order.len()));
                crate::report::plot::CostBar {
                    mode: r.mode.clone(),
                    parts,
                    throttled_share: r.throttled_attempt_share,
                    picked: self.pick.as_deref() == Some(r.mode.as_str()),
                }
            })
            .collect()
    }

    /// `compare.csv`.
    #[must_use]
    pub fn to_csv(&self) -> Vec<u8> {
        let mut w = csv::Writer::from_writer(Vec::new());
        for r in &self.rows {
            w.serialize(CsvRow {
                mode: &r.mode,
                monthly_usd: cents(r.monthly_usd),
                upfront_usd: cents(r.upfront_usd),
                window_usd: (r.window_usd * 1e4).round() / 1e4,
                usd_per_million_requests: (r.usd_per_million_requests * 1e4).round() / 1e4,
                offered_requests: r.offered_requests,
                throttled_attempts: r.throttled_attempts,
                throttled_attempt_share: (r.throttled_attempt_share * 1e6).round() / 1e6,
                failed_requests: r.failed_requests,
                p99_latency_ms: r.p99_latency_ms,
                picked: self.pick.as_deref() == Some(r.mode.as_str()),
                description: &r.description,
            })
            .expect("CSV row into memory");
        }
        w.into_inner().expect("CSV into memory")
    }

    /// `compare.json`.
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("plain data");
        s.push('\n');
        s
    }

    /// The terminal table and the arithmetic of the pick.
    #[must_use]
    pub fn to_table(&self) -> String {
        use std::fmt::Write as _;
        let mut o = String::new();
        let _ = writeln!(
            o,
            "ddbsim compare · {} · seed {} · {} s simulated, costs extrapolated to a 730-hour month · {}",
            self.scenario, self.seed, self.duration_s, self.prices
        );
        let _ = writeln!(o);
        let mut rows = vec![[
            "mode".to_string(),
            "$/month".into(),
            "upfront $".into(),
            "$/M req".into(),
            "throttled".into(),
            "failed".into(),
            "p99 ms".into(),
        ]];
        for r in &self.rows {
            let mark = if self.pick.as_deref() == Some(r.mode.as_str()) { " *" } else { "" };
            rows.push([
                format!("{}{mark}", r.mode),
                format!("{:.2}", r.monthly_usd),
                format!("{:.2}", r.upfront_usd),
                format!("{:.4}", r.usd_per_million_requests),
                format!("{:.3}%", r.throttled_attempt_share * 100.0),
                r.failed_requests.to_string(),
                format!("{:.1}", r.p99_latency_ms),
            ]);
        }
        let mut widths = [0usize; 7];
        for r in &rows {
            for (i, c) in r.iter().enumerate() {
                widths[i] = widths[i].max(c.chars().count());
            }
        }
        for r in &rows {
            for (i, c) in r.iter().enumerate() {
                let pad = " ".repeat(widths[i] - c.chars().count());
                if i == 0 {
                    let _ = write!(o, "{c}{pad}");
                } else {
                    let _ = write!(o, "  {pad}{c}");
                }
            }
            let _ = writeln!(o);
        }
        let _ = writeln!(o);
        match &self.pick {
            Some(p) => {
                let _ = writeln!(o, "pick: {p} — the cheapest mode that throttles at most {:.3}% of attempts", self.max_throttle * 100.0);
                if let Some(r) = self.rows.iter().find(|r| &r.mode == p) {
                    let _ = writeln!(o, "  {}", r.description);
                    for l in r.bill.lines.iter().filter(|l| l.cost_usd > 0.0) {
                        let _ = writeln!(
                            o,
                            "  {} {}: {} = ${:.4}{}",
                            l.resource,
                            l.component,
                            l.arithmetic,
                            l.cost_usd,
                            if l.unverified { " (unverified price)" } else { "" }
                        );
                    }
                    let _ = writeln!(
                        o,
                        "  window ${:.4} x 730 h / {:.3} h = ${:.2} a month",
                        r.bill.total_usd, r.bill.window_hours, r.monthly_usd
                    );
                }
            }
            None => {
                let _ = writeln!(
                    o,
                    "pick: none — every mode throttles more than {:.3}% of attempts (raise --max-throttle or capacity)",
                    self.max_throttle * 100.0
                );
            }
        }
        let _ = writeln!(
            o,
            "break-even: provisioned is cheaper than on-demand above {:.1}% average utilization (reads {:.1}%, writes {:.1}%)",
            self.break_even_utilization[1] * 100.0,
            self.break_even_utilization[0] * 100.0,
            self.break_even_utilization[1] * 100.0
        );
        if !self.unverified_prices.is_empty() {
            let _ = writeln!(o, "unverified prices (third-party or tooling sources): {}", self.unverified_prices.join(", "));
        }
        o
    }
}
