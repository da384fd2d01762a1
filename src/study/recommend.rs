//! `recommend`: the cheapest capacity settings whose throttled share stays within a limit,
//! found by simulating candidates on the same traffic (common random numbers: the same seed
//! draws the same requests whatever the capacity).
//!
//! The search uses what is monotone in the model instead of sampling at random:
//!
//! 1. **on-demand**, once; its run (or, screened, the rate shapes) gives the demand per
//!    resource and minute.
//! 2. **provisioned, fixed**: capacity `ceil(peak demand x s)` for every resource and dimension;
//!    more capacity never throttles more, so `s` is found by bisection (the smallest that keeps
//!    within the limit).
//! 3. **auto scaling** at targets 90, 80, 70, 60, 50 and 40 %: for each, the floor `min` as a
//!    share `f` of the peak's need at that target, bisected to the lowest floor within the
//!    limit (`max` is 4 x the peak's need, never binding).
//!    Where the demand repeats daily and jumps within an hour (a nightly batch), the best
//!    target again with **scheduled floors** raised every day before the jump
//!    ([`DailyFloor`]), the base floor bisected the same way.
//! 4. **reserved capacity** on the cheapest provisioned candidate within the limit: the
//!    reservation (blocks of 100, table and GSIs together) that minimises its bill, found by
//!    billing the recorded provisioned series at every block, without simulating again.
//!
//! The chains of 2 and 3 run in parallel. By default ([`RecommendOptions::screen`]) every
//! candidate is first evaluated by the per-minute model of [`super::screen`], and the engine
//! simulates on-demand and the cheapest screened candidate within the limit (the next dearer
//! while one ends above it): the pick is always simulated. Without the screen every candidate
//! is simulated, about 50 (`budget` caps them); a random search over the same auto-scaling
//! space needs 256 to do as well (a test checks it on a bundled scenario). There, a candidate
//! sure to end above the limit is given up early ([`crate::engine::GiveUp`]): most of a
//! search's slow runs are such, and nothing the recommendation says changes (a test checks it).

use super::compare::{on_demand, provisioned, traffic_only};
use super::runner::par_indexed;
use super::screen::Demand;
use crate::cost::{bill, Bill, BillComponent, BillOptions, Catalog, Reservation, Usage, RESERVED_BLOCK};
use crate::engine::{simulate, GiveUp, RunOptions, RunResult};
use crate::scenario::{Action, ActionSpec, AutoscalingSpec, RateShape, ScalingChange, ScalingTargetSpec, Scenario, TableClass};
use crate::time::SimDuration;
use crate::units::MILLI;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use std::fmt::Write as _;

/// Bisection steps of the fixed-capacity factor and of each target's floor.
const STEPS: usize = 6;
/// Screened candidates the engine confirms at most, on-demand aside.
const CONFIRMATIONS: usize = 4;

/// Options of a recommendation.
#[derive(Clone, Debug)]
pub struct RecommendOptions {
    /// Seed, fidelity, duration and stop token of every run.
    pub run: RunOptions,
    /// Largest throttled share of attempts allowed (0.001 = 0.1 %).
    pub max_throttle: f64,
    /// Reserved-capacity term, years (1 or 3).
    pub reserved_years: u32,
    /// Give up a candidate once its throttled share is sure to end above the limit (the
    /// recommendation is the same; the given-up candidates' figures are partial).
    pub give_up: bool,
    /// The modes searched and recommended.
    pub modes: Modes,
    /// At most this many simulations (at least 2); `None`: as many as the search takes.
    pub budget: Option<usize>,
    /// Screen the candidates with the per-minute model ([`super::screen`]) and simulate only
    /// on-demand and the best of them (the default); `false` simulates every candidate.
    pub screen: bool,
}

impl Default for RecommendOptions {
    fn default() -> Self {
        Self {
            run: RunOptions::default(),
            max_throttle: 0.001,
            reserved_years: 1,
            give_up: true,
            modes: Modes::ALL,
            budget: None,
            screen: true,
        }
    }
}

/// Which capacity modes a recommendation searches and may pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)]
pub struct Modes {
    /// On-demand (always simulated: its run gives the demand).
    pub on_demand: bool,
    /// Provisioned at fixed capacity.
    pub provisioned: bool,
    /// Provisioned with auto scaling (target tracking, with scheduled floors where the
    /// history repeats daily).
    pub autoscaling: bool,
    /// Reserved capacity on the best provisioned or auto-scaled candidate.
    pub reserved: bool,
}

impl Modes {
    /// Every mode.
    pub const ALL: Modes = Modes { on_demand: true, provisioned: true, autoscaling: true, reserved: true };

    /// Does the set include the mode named `mode` (as [`Settings::mode`] names it)?
    #[must_use]
    pub fn includes(&self, mode: &str) -> bool {
        match mode {
            "on_demand" => self.on_demand,
            "provisioned" => self.provisioned,
            "autoscaling" => self.autoscaling,
            "reserved" => self.reserved,
            _ => false,
        }
    }
}

/// Capacity settings of one candidate.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Settings {
    /// On-demand, table and GSIs.
    OnDemand,
    /// Provisioned at fixed RCU/WCU, per resource (table first).
    Provisioned {
        /// [RCU, WCU] per resource.
        units: Vec<[u64; 2]>,
    },
    /// Provisioned with target tracking, per resource.
    Autoscaling {
        /// Target utilisation, percent.
        target: f64,
        /// [read, write] minimum per resource.
        min: Vec<[u64; 2]>,
        /// [read, write] maximum per resource.
        max: Vec<[u64; 2]>,
        /// Scheduled floors raised every day (empty: none).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        daily: Vec<DailyFloor>,
    },
    /// A provisioned candidate's run with reserved capacity.
    Reserved {
        /// The candidate it reserves for (index into the candidates).
        of: usize,
        /// Reserved RCU (table and GSIs together).
        rcu: u64,
        /// Reserved WCU.
        wcu: u64,
        /// Term, years.
        years: u32,
    },
}

impl Settings {
    /// The mode's name: `on_demand`, `provisioned`, `autoscaling`, `reserved`.
    #[must_use]
    pub fn mode(&self) -> &'static str {
        match self {
            Settings::OnDemand => "on_demand",
            Settings::Provisioned { .. } => "provisioned",
            Settings::Autoscaling { .. } => "autoscaling",
            Settings::Reserved { .. } => "reserved",
        }
    }

    /// The settings in words, for the table's resource names `names`.
    #[must_use]
    pub fn describe(&self, names: &[String]) -> String {
        let per = |v: &[[u64; 2]], f: &dyn Fn(&[u64; 2]) -> String| -> String {
            v.iter().zip(names).map(|(x, n)| format!("{n} {}", f(x))).collect::<Vec<_>>().join("; ")
        };
        match self {
            Settings::OnDemand => "on-demand, table and GSIs".into(),
            Settings::Provisioned { units } => format!("provisioned: {}", per(units, &|x| format!("{} RCU / {} WCU", x[0], x[1]))),
            Settings::Autoscaling { target, min, max, daily } => {
                let both: Vec<[u64; 4]> = min.iter().zip(max).map(|(a, b)| [a[0], b[0], a[1], b[1]]).collect();
                let text: Vec<String> =
                    both.iter().zip(names).map(|(x, n)| format!("{n} read {}-{}, write {}-{}", x[0], x[1], x[2], x[3])).collect();
                let mut s = format!("auto scaling at {target:.0} %: {}", text.join("; "));
                for f in daily {
                    let hm = |m: u32| format!("{:02}:{:02}", m / 60 % 24, m % 60);
                    let floors: Vec<String> = f
                        .min
                        .iter()
                        .zip(names)
                        .filter(|(x, _)| x[0] > 0 || x[1] > 0)
                        .map(|(x, n)| {
                            let dims: Vec<String> =
                                [("read", x[0]), ("write", x[1])].iter().filter(|(_, u)| *u > 0).map(|(d, u)| format!("{d} {u}")).collect();
                            format!("{n} {}", dims.join(", "))
                        })
                        .collect();
                    let _ = write!(s, "; daily {}-{} UTC min {}", hm(f.from_min), hm(f.to_min), floors.join("; "));
                }
                s
            }
            Settings::Reserved { of, rcu, wcu, years } => {
                format!("candidate {of} with {rcu} RCU / {wcu} WCU reserved for {years} year(s)")
            }
        }
    }
}

/// A floor scheduled every day (Application Auto Scaling scheduled actions): from `from_min`
/// to `to_min` minutes after midnight UTC the scalable targets' `min` is raised to `min`
/// (0: unchanged), then set back. The raise is issued [`FLOOR_LEAD_S`] early, so capacity
/// is in place when the load arrives.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DailyFloor {
    /// Start, minutes after midnight UTC.
    pub from_min: u32,
    /// End, minutes after midnight UTC (after `from_min`; past 1,440 for a floor over
    /// midnight).
    pub to_min: u32,
    /// [read, write] minimum per resource while raised, 0 where not raised.
    pub min: Vec<[u64; 2]>,
}

/// How early a scheduled floor is raised: an UpdateTable that adds capacity takes minutes
/// (spec §3.4), longer when partitions are added.
pub const FLOOR_LEAD_S: u64 = 15 * 60;

/// One simulated (or billed) candidate.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Candidate {
    /// What it sets.
    pub settings: Settings,
    /// The settings in words.
    pub description: String,
    /// Monthly cost (730 h) extrapolated from the window, USD; reserved upfront amortised.
    pub monthly_usd: f64,
    /// Throttled attempts over attempts.
    pub throttled_share: f64,
    /// Requests that failed.
    pub failed_requests: u64,
    /// Within the throttle limit.
    pub within_limit: bool,
    /// Monthly cost of read and of write capacity (request units, provisioned capacity,
    /// reservation fees), USD; storage is the rest.
    pub by_dimension: [f64; 2],
    /// The simulation ran to its end. A candidate given up once its throttled share was sure
    /// to end above the limit is not: its throttled share is the least it could have ended
    /// with, and its cost and failures are of the part simulated.
    pub complete: bool,
    /// Its figures are the per-minute screen's estimate, not a simulation's.
    pub screened: bool,
}

/// The recommendation.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Recommendation {
    /// Scenario name.
    pub scenario: String,
    /// Seed.
    pub seed: u64,
    /// Simulated seconds of each run.
    pub duration_s: u64,
    /// The throttle limit.
    pub max_throttle: f64,
    /// Simulations run.
    pub simulations: usize,
    /// Every candidate, in the order tried.
    pub candidates: Vec<Candidate>,
    /// The cheapest within the limit.
    pub pick: Option<usize>,
    /// Per mode, the cheapest within the limit (the runner-up in each mode).
    pub best_by_mode: Vec<(String, usize)>,
    /// Complete candidates no other beats on both cost and throttling, cheapest first.
    pub front: Vec<usize>,
    /// Region and date of the prices.
    pub prices: String,
}

/// What one simulation gave.
struct Eval {
    monthly: f64,
    throttled: f64,
    failed: u64,
    usage: Usage,
    complete: bool,
    by_dimension: [f64; 2],
    screened: bool,
}

/// Monthly cost of read and of write capacity in `b`.
fn by_dimension(b: &Bill) -> [f64; 2] {
    let monthly = if b.total_usd > 0.0 { b.monthly_rate_usd() / b.total_usd } else { 0.0 };
    let of = |c: BillComponent| b.lines.iter().filter(|l| l.component == c).map(|l| l.cost_usd).sum::<f64>() * monthly;
    [of(BillComponent::Reads), of(BillComponent::Writes)]
}

/// Simulates a candidate, giving up as `give_up` allows (a candidate sure to throttle more
/// than the limit need not be simulated to its end: most of a search's slow runs are such).
fn eval(sc: &Scenario, o: &RecommendOptions, catalog: &Catalog, give_up: Option<GiveUp>) -> (Eval, RunResult) {
    let r = simulate(sc, &RunOptions { progress: None, give_up, ..o.run.clone() });
    let usage = Usage::of(&r, sc);
    let b = bill(&usage, catalog, &BillOptions { extrapolate: false, ..BillOptions::of(&sc.pricing) });
    let t = r.totals();
    let throttled = r.given_up.map_or(t.throttled_share(), |g| g.least_share);
    let by_dimension = by_dimension(&b);
    (
        Eval {
            monthly: b.monthly_rate_usd(),
            throttled,
            failed: t.failed,
            usage,
            complete: r.given_up.is_none(),
            by_dimension,
            screened: false,
        },
        r,
    )
}

/// Screens a candidate with the per-minute model: no simulation.
fn screened(sc: &Scenario, demand: &Demand, catalog: &Catalog) -> Eval {
    let x = super::screen::screen(sc, demand);
    let b = bill(&x.usage, catalog, &BillOptions { extrapolate: false, ..BillOptions::of(&sc.pricing) });
    Eval {
        monthly: b.monthly_rate_usd(),
        throttled: x.throttled_share,
        failed: 0,
        by_dimension: by_dimension(&b),
        usage: x.usage,
        complete: true,
        screened: true,
    }
}

/// Per resource, per minute: the demand (first attempts' units) a second, [read, write].
fn minute_demand(r: &RunResult) -> Vec<Vec<[f64; 2]>> {
    r.resources
        .iter()
        .map(|res| {
            res.minutes
                .iter()
                .enumerate()
                .map(|(m, x)| {
                    let secs = r.minute_seconds(m) as f64;
                    [x.offered[0] as f64 / MILLI as f64 / secs, x.offered[1] as f64 / MILLI as f64 / secs]
                })
                .collect()
        })
        .collect()
}

/// When candidates may give up: the pages the on-demand run sent, if it failed no request
/// (so every page of the traffic was sent) and no pattern is a closed loop.
fn give_up(sc: &Scenario, o: &RecommendOptions, on_demand: &RunResult) -> Option<GiveUp> {
    let closed = sc.patterns.iter().any(|p| matches!(p.rate, RateShape::ClosedLoop(_)));
    (o.give_up && !closed && on_demand.totals().failed == 0).then(|| GiveUp {
        max_share: o.max_throttle,
        pages: on_demand.patterns.iter().map(|p| p.pages_sent).sum(),
        attempts: u64::from(sc.client.attempts),
    })
}

/// The scenario with auto scaling at `target` percent, floors `min` and ceilings `max`,
/// starting at the floor, with the `daily` floors as scheduled actions.
fn autoscaled(sc: &Scenario, target: f64, min: &[[u64; 2]], max: &[[u64; 2]], daily: &[DailyFloor]) -> Scenario {
    let mut s = provisioned(sc, min);
    let spec = |min: u64, max: u64| ScalingTargetSpec {
        min,
        max: max.max(min),
        target: target / 100.0,
        scale_in_cooldown: SimDuration::ZERO,
        scale_out_cooldown: SimDuration::ZERO,
    };
    let mk = |own: Option<&AutoscalingSpec>, lo: [u64; 2], hi: [u64; 2]| AutoscalingSpec {
        instant: false,
        read: Some(spec(lo[0], hi[0])),
        write: Some(spec(lo[1], hi[1])),
        alarm_delay: own.map_or(SimDuration::from_secs(90), |a| a.alarm_delay),
    };
    s.table.autoscaling = Some(mk(sc.table.autoscaling.as_ref(), min[0], max[0]));
    for (i, g) in s.gsis.iter_mut().enumerate() {
        g.autoscaling = Some(mk(sc.gsis[i].autoscaling.as_ref(), min[i + 1], max[i + 1]));
    }
    // Each day: the raise FLOOR_LEAD_S before the floor's start, the floor set back at its end.
    // A floor the run starts inside of is raised at once.
    let tod0 = sc.start_unix_s.rem_euclid(86_400);
    let duration = sc.duration.as_secs();
    for f in daily {
        for day in 0..=(duration / 86_400 + 1) as i64 {
            let lower = day * 86_400 + i64::from(f.to_min) * 60 - tod0;
            if lower <= 0 {
                continue;
            }
            let raise = (day * 86_400 + i64::from(f.from_min) * 60 - FLOOR_LEAD_S as i64 - tod0).max(0);
            for (t, floors) in [(raise as u64, f.min.as_slice()), (lower as u64, min)] {
                if t >= duration {
                    continue;
                }
                // Only the resources and dimensions the floor raises change.
                for (r, (x, raised)) in floors.iter().zip(&f.min).enumerate().filter(|(_, (_, raised))| raised.iter().any(|u| *u > 0)) {
                    let change = |d: usize| (raised[d] > 0).then_some(ScalingChange { min: Some(x[d]), max: None, target: None });
                    s.actions.push(ActionSpec {
                        time: SimDuration::from_secs(t),
                        action: Action::SetAutoscaling { index: r.checked_sub(1), changes: [change(0), change(1)] },
                    });
                }
            }
        }
    }
    s.actions.sort_by_key(|a| a.time);
    s
}

/// The bisection chains of a search.
#[derive(Clone, Copy, Debug)]
enum Chain {
    /// Fixed capacity.
    Fixed,
    /// Auto scaling at a target, percent.
    Target(f64),
    /// Auto scaling with daily floors at a target (chosen after the targets).
    Daily(f64),
}

/// Auto-scaling targets in the order a small budget keeps them: the default first, then the
/// extremes.
const TARGET_PRIORITY: [f64; 6] = [70.0, 90.0, 50.0, 80.0, 60.0, 40.0];

/// The chains the modes ask for and the bisection steps each may take, within the budget:
/// each chain is one simulation and `steps` more; a small budget keeps fewer chains (fixed
/// capacity first, then the targets by [`TARGET_PRIORITY`], the daily floors last) and
/// fewer steps. Reserved capacity needs a provisioned series: without provisioned or
/// auto scaling in the modes, both are searched for it.
fn plan(o: &RecommendOptions, periodic: bool) -> (Vec<Chain>, usize) {
    let m = o.modes;
    let fixed = m.provisioned || (m.reserved && !m.autoscaling);
    let auto = m.autoscaling || (m.reserved && !m.provisioned);
    let mut chains = Vec::new();
    if fixed {
        chains.push(Chain::Fixed);
    }
    if auto {
        chains.extend(TARGET_PRIORITY.iter().map(|&t| Chain::Target(t)));
        if periodic {
            chains.push(Chain::Daily(70.0));
        }
    }
    let mut steps = STEPS;
    if let Some(budget) = o.budget {
        let left = budget.max(2) - 1;
        chains.truncate(left);
        if !chains.is_empty() {
            steps = (left / chains.len() - 1).min(STEPS);
        }
    }
    // Run in the order of the report: fixed, then targets from the highest.
    let rank = |c: &Chain| match c {
        Chain::Fixed => 0,
        Chain::Target(t) => 1000 - *t as i64,
        Chain::Daily(_) => 2000,
    };
    chains.sort_by_key(rank);
    (chains, steps)
}

/// Hours of the UTC day whose load jumps, every day: per resource and dimension, an hour
/// whose peak minute is more than twice the previous hour's, with the hour's peak on its
/// quietest day at least half its peak on its busiest (the jump recurs), and the hours after
/// it while its load stays above twice the hour before the jump. Target tracking follows a
/// load that grows over an hour; a jump arrives before its two alarm datapoints. Needs two
/// whole days. Returns (first hour, hour after the last, per resource and dimension the
/// block's peak units a second or 0 where it does not jump).
fn daily_blocks(units: &[Vec<[f64; 2]>], duration_s: u64, start_unix_s: i64) -> Vec<(u32, u32, Vec<[f64; 2]>)> {
    if duration_s < 2 * 86_400 {
        return Vec::new();
    }
    let tod0 = (start_unix_s.rem_euclid(86_400) / 60) as usize;
    let nres = units.len();
    // Per (resource, dimension) and hour of day: the peak minute of each whole (day, hour).
    let mut cells: Vec<[Vec<Vec<f64>>; 2]> = (0..nres).map(|_| [vec![Vec::new(); 24], vec![Vec::new(); 24]]).collect();
    for (res, cell) in units.iter().zip(&mut cells) {
        let minutes = res.len();
        let mut h = tod0.div_ceil(60);
        while (h + 1) * 60 <= tod0 + minutes {
            for (d, by_hour) in cell.iter_mut().enumerate() {
                let peak = (h * 60 - tod0..(h + 1) * 60 - tod0).map(|m| res[m][d]).fold(0.0, f64::max);
                by_hour[h % 24].push(peak);
            }
            h += 1;
        }
    }
    let mut raised = vec![[[false; 24]; 2]; nres];
    let mut peak_of = vec![[[0.0f64; 24]; 2]; nres];
    for ri in 0..nres {
        for d in 0..2 {
            let hi: Vec<f64> = (0..24).map(|h| cells[ri][d][h].iter().copied().fold(0.0, f64::max)).collect();
            let lo: Vec<f64> = (0..24).map(|h| cells[ri][d][h].iter().copied().fold(f64::INFINITY, f64::min)).collect();
            let days: Vec<usize> = (0..24).map(|h| cells[ri][d][h].len()).collect();
            let mut before = None;
            for h in 0..24 {
                let prev = hi[(h + 23) % 24];
                let recurs = days[h] >= 2 && lo[h] >= 0.5 * hi[h];
                let jumps = recurs && hi[h] >= 1.0 && hi[h] > 2.0 * prev;
                let holds = before.is_some_and(|b: f64| recurs && hi[h] > 2.0 * b);
                if jumps && before.is_none() {
                    before = Some(prev);
                }
                if jumps || holds {
                    raised[ri][d][h] = true;
                    peak_of[ri][d][h] = hi[h];
                } else {
                    before = None;
                }
            }
        }
    }
    let any = |h: usize| raised.iter().any(|x| x[0][h] || x[1][h]);
    let mut blocks = Vec::new();
    let mut h = 0;
    while h < 24 {
        if !any(h) {
            h += 1;
            continue;
        }
        let from = h;
        while h < 24 && any(h) {
            h += 1;
        }
        let peaks = (0..nres)
            .map(|ri| {
                let p = |d: usize| (from..h).filter(|&x| raised[ri][d][x]).map(|x| peak_of[ri][d][x]).fold(0.0, f64::max);
                [p(0), p(1)]
            })
            .collect();
        blocks.push((from as u32, h as u32, peaks));
    }
    blocks
}

/// Per resource, [read, write]: the peak minute's demand, units a second, outside the hours
/// of `blocks`.
fn peak_outside(units: &[Vec<[f64; 2]>], start_unix_s: i64, blocks: &[(u32, u32, Vec<[f64; 2]>)]) -> Vec<[f64; 2]> {
    let tod0 = (start_unix_s.rem_euclid(86_400) / 60) as usize;
    let inside = |m: usize| {
        let h = ((tod0 + m) % 1_440 / 60) as u32;
        blocks.iter().any(|b| (b.0..b.1).contains(&h))
    };
    peaks_in(units, |m| !inside(m))
}

/// Per resource: the peak [read, write] units a second of the minutes `keep` keeps.
fn peaks_in(units: &[Vec<[f64; 2]>], keep: impl Fn(usize) -> bool) -> Vec<[f64; 2]> {
    units
        .iter()
        .map(|r| r.iter().enumerate().filter(|(m, _)| keep(*m)).fold([0.0f64; 2], |a, (_, x)| [a[0].max(x[0]), a[1].max(x[1])]))
        .collect()
}

/// The daily floors of `blocks` at `target` percent: each block's peak at the target.
fn daily_floors(blocks: &[(u32, u32, Vec<[f64; 2]>)], target: f64) -> Vec<DailyFloor> {
    blocks
        .iter()
        .map(|(from, to, peaks)| DailyFloor {
            from_min: from * 60,
            to_min: to * 60,
            min: peaks.iter().map(|p| p.map(|x| if x > 0.0 { (x * 100.0 / target).ceil() as u64 } else { 0 })).collect(),
        })
        .collect()
}

fn scale(p: &[[f64; 2]], k: f64) -> Vec<[u64; 2]> {
    p.iter().map(|x| [((x[0] * k).ceil() as u64).max(1), ((x[1] * k).ceil() as u64).max(1)]).collect()
}

/// Bisection for the smallest `x` in `[lo, hi]` for which `ok(x)`, assuming `ok` is monotone
/// (false below a threshold, true above); `ok(hi)` is evaluated first. Returns every
/// evaluation.
fn bisect<T>(mut lo: f64, mut hi: f64, steps: usize, mut ok: impl FnMut(f64) -> (bool, T)) -> Vec<(f64, bool, T)> {
    let mut out = Vec::new();
    let (good, t) = ok(hi);
    out.push((hi, good, t));
    if !good {
        return out;
    }
    for _ in 0..steps {
        let mid = (lo + hi) / 2.0;
        let (good, t) = ok(mid);
        out.push((mid, good, t));
        if good {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    out
}

/// Searches the capacity settings of `sc` (see the module documentation).
#[must_use]
pub fn recommend(sc: &Scenario, catalog: &Catalog, o: &RecommendOptions) -> Recommendation {
    let catalog = catalog.clone().with_overrides(&sc.pricing.overrides);
    let names: Vec<String> = std::iter::once(sc.table.name.clone()).chain(sc.gsis.iter().map(|g| g.name.clone())).collect();
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut usages: Vec<Option<Usage>> = Vec::new();
    let mut simulations = 0;
    let push = |settings: Settings, e: Eval, candidates: &mut Vec<Candidate>, usages: &mut Vec<Option<Usage>>| {
        let within = e.throttled <= o.max_throttle;
        candidates.push(Candidate {
            description: settings.describe(&names),
            settings,
            monthly_usd: e.monthly,
            throttled_share: e.throttled,
            failed_requests: e.failed,
            within_limit: within,
            by_dimension: e.by_dimension,
            complete: e.complete,
            screened: e.screened,
        });
        usages.push(Some(e.usage));
        within
    };

    // 1. On-demand: the demand, from the rate shapes when screening (no simulation yet), else
    // from the on-demand run.
    let duration_s = o.run.duration.unwrap_or(sc.duration).as_secs();
    let screen = if o.screen { Demand::of(sc, duration_s) } else { None };
    let (units, give_up) = match &screen {
        Some(d) => {
            push(Settings::OnDemand, screened(&on_demand(sc), d, &catalog), &mut candidates, &mut usages);
            (d.units.clone(), None)
        }
        None => {
            let (e, r_od) = eval(&on_demand(sc), o, &catalog, None);
            simulations += 1;
            push(Settings::OnDemand, e, &mut candidates, &mut usages);
            (minute_demand(&r_od), give_up(sc, o, &r_od))
        }
    };
    let peak = peaks_in(&units, |_| true);
    // A candidate's figures: screened, or simulated.
    let evaluate = |s: &Scenario| match &screen {
        Some(d) => screened(s, d, &catalog),
        None => eval(s, o, &catalog, give_up).0,
    };

    // 2 and 3. The bisection chains the modes ask for and the budget allows, in parallel:
    // fixed capacity (the smallest multiple of the peak within the limit, in [0.25, 2]) and
    // auto scaling per target (the lowest floor within the limit).
    let base = traffic_only(sc);
    let daily_blocks = daily_blocks(&units, duration_s, sc.start_unix_s);
    let (chains, steps) = plan(o, !daily_blocks.is_empty());
    // Progress: simulations done of those planned (a chain may stop early).
    let planned = 1 + chains.len() as u64 * (steps as u64 + 1);
    let done = std::sync::atomic::AtomicU64::new(1);
    let tick = || {
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if let Some(p) = &o.run.progress {
            p.runs(n.min(planned), planned);
        }
    };
    let run_chain = |chain: Chain| -> Vec<(Settings, Eval)> {
        let evals = match chain {
            Chain::Fixed => bisect(0.25, 2.0, steps, |k| {
                let units = scale(&peak, k);
                let e = evaluate(&provisioned(&base, &units));
                tick();
                (e.throttled <= o.max_throttle, (Settings::Provisioned { units }, e))
            }),
            Chain::Target(target) | Chain::Daily(target) => {
                let need: Vec<[f64; 2]> = peak.iter().map(|p| [p[0] * 100.0 / target, p[1] * 100.0 / target]).collect();
                let max = scale(&need, 4.0);
                // With daily floors, the base floor carries the load outside them.
                let need = if matches!(chain, Chain::Daily(_)) {
                    peak_outside(&units, sc.start_unix_s, &daily_blocks)
                        .iter()
                        .map(|p| [p[0] * 100.0 / target, p[1] * 100.0 / target])
                        .collect()
                } else {
                    need
                };
                let daily = if matches!(chain, Chain::Daily(_)) { daily_floors(&daily_blocks, target) } else { Vec::new() };
                bisect(0.0, 1.0, steps, |f| {
                    let min = scale(&need, f);
                    let e = evaluate(&autoscaled(&base, target, &min, &max, &daily));
                    tick();
                    (e.throttled <= o.max_throttle, (Settings::Autoscaling { target, min, max: max.clone(), daily: daily.clone() }, e))
                })
            }
        };
        evals.into_iter().map(|(_, _, x)| x).collect()
    };
    let first: Vec<Chain> = chains.iter().copied().filter(|c| !matches!(c, Chain::Daily(_))).collect();
    for evals in par_indexed(first.len() as u64, |i| run_chain(first[i as usize])) {
        simulations += evals.iter().filter(|e| !e.1.screened).count();
        for (settings, e) in evals {
            push(settings, e, &mut candidates, &mut usages);
        }
    }
    // Scheduled floors, where the demand repeats daily: at the best target found (70 % when
    // none kept within the limit), the floors raised every day before the hours whose load
    // jumps, and the lowest base floor within the limit.
    if chains.iter().any(|c| matches!(c, Chain::Daily(_))) {
        let best = candidates
            .iter()
            .filter(|c| c.within_limit)
            .filter_map(|c| match c.settings {
                Settings::Autoscaling { target, .. } => Some((c.monthly_usd, target)),
                _ => None,
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map_or(70.0, |(_, t)| t);
        let evals = run_chain(Chain::Daily(best));
        simulations += evals.iter().filter(|e| !e.1.screened).count();
        for (settings, e) in evals {
            push(settings, e, &mut candidates, &mut usages);
        }
    }

    // Screened: the engine confirms on-demand and the cheapest other candidate within the
    // limit, in parallel; while a confirmed one ends above the limit, the next dearer one.
    if screen.is_some() {
        let mut confirm: Vec<usize> = vec![0];
        let mut others: Vec<usize> = (1..candidates.len()).filter(|&i| candidates[i].within_limit).collect();
        others.sort_by(|&a, &b| candidates[a].monthly_usd.total_cmp(&candidates[b].monthly_usd).then(a.cmp(&b)));
        let mut others = others.into_iter();
        confirm.extend(others.next());
        while !confirm.is_empty() {
            let runs = par_indexed(confirm.len() as u64, |k| {
                let i = confirm[k as usize];
                apply(sc, &candidates[i].settings).map(|s| eval(&s, o, &catalog, None).0)
            });
            let mut next = Vec::new();
            for (&i, e) in confirm.iter().zip(runs) {
                let Some(e) = e else { continue };
                simulations += 1;
                let c = &mut candidates[i];
                c.monthly_usd = e.monthly;
                c.throttled_share = e.throttled;
                c.failed_requests = e.failed;
                c.within_limit = e.throttled <= o.max_throttle;
                c.by_dimension = e.by_dimension;
                c.complete = e.complete;
                c.screened = false;
                usages[i] = Some(e.usage);
                if i != 0 && !c.within_limit && simulations < CONFIRMATIONS + 1 && o.budget.is_none_or(|b| simulations < b) {
                    next.extend(others.next());
                }
            }
            confirm = next;
        }
    }

    // 4. Reserved capacity on the cheapest provisioned candidate within the limit (Standard
    // class only, simulated): every block count up to the series' peak, billed.
    if o.modes.reserved && sc.table.table_class == TableClass::Standard {
        let best = candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| {
                c.within_limit && !c.screened && matches!(c.settings, Settings::Provisioned { .. } | Settings::Autoscaling { .. })
            })
            .min_by(|a, b| a.1.monthly_usd.total_cmp(&b.1.monthly_usd))
            .map(|(i, _)| i);
        if let Some(i) = best {
            let usage = usages[i].clone().expect("simulated candidates keep their usage");
            let total = |f: fn(&crate::cost::ResourceUsage) -> &Vec<f64>| {
                let n = usage.resources.iter().map(|r| f(r).len()).max().unwrap_or(0);
                (0..n).map(|m| usage.resources.iter().map(|r| f(r).get(m).copied().unwrap_or(0.0)).sum()).collect::<Vec<f64>>()
            };
            let top = |v: Vec<f64>| (v.into_iter().fold(0.0, f64::max) as u64) / RESERVED_BLOCK;
            let (rmax, wmax) = (top(total(|r| &r.provisioned_rcu_by_minute)), top(total(|r| &r.provisioned_wcu_by_minute)));
            let cost = |rcu: u64, wcu: u64| {
                let res = Reservation { rcu, wcu, years: o.reserved_years };
                bill(&usage, &catalog, &BillOptions { reservation: Some(res), extrapolate: false, ..BillOptions::of(&sc.pricing) })
                    .monthly_rate_usd()
            };
            // Reads and writes are billed apart: each dimension's best block count alone.
            let best_r = (0..=rmax).map(|k| k * RESERVED_BLOCK).min_by(|a, b| cost(*a, 0).total_cmp(&cost(*b, 0))).unwrap_or(0);
            let best_w = (0..=wmax).map(|k| k * RESERVED_BLOCK).min_by(|a, b| cost(0, *a).total_cmp(&cost(0, *b))).unwrap_or(0);
            if best_r + best_w > 0 {
                let c = &candidates[i];
                // Reads and writes are billed apart, so each dimension's share of the saving
                // is its own reservation's.
                let none = cost(0, 0);
                let by_dimension = [c.by_dimension[0] + cost(best_r, 0) - none, c.by_dimension[1] + cost(0, best_w) - none];
                let settings = Settings::Reserved { of: i, rcu: best_r, wcu: best_w, years: o.reserved_years };
                candidates.push(Candidate {
                    description: format!("{}, with {best_r} RCU / {best_w} WCU reserved for {} year(s)", c.description, o.reserved_years),
                    settings,
                    monthly_usd: cost(best_r, best_w),
                    throttled_share: c.throttled_share,
                    failed_requests: c.failed_requests,
                    within_limit: c.within_limit,
                    by_dimension,
                    complete: c.complete,
                    screened: false,
                });
                usages.push(None);
            }
        }
    }

    let cheapest = |filter: &dyn Fn(&Candidate) -> bool| {
        candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| c.within_limit && filter(c))
            .min_by(|a, b| a.1.monthly_usd.total_cmp(&b.1.monthly_usd))
            .map(|(i, _)| i)
    };
    // The pick is simulated; a mode's best is its cheapest simulated candidate, else its
    // cheapest screened one (marked so).
    let pick = cheapest(&|c| !c.screened && o.modes.includes(c.settings.mode()));
    let best_by_mode = ["on_demand", "provisioned", "autoscaling", "reserved"]
        .iter()
        .filter(|m| o.modes.includes(m))
        .filter_map(|m| {
            cheapest(&|c| !c.screened && c.settings.mode() == *m)
                .or_else(|| cheapest(&|c| c.settings.mode() == *m))
                .map(|i| ((*m).to_string(), i))
        })
        .collect();
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|&a, &b| candidates[a].monthly_usd.total_cmp(&candidates[b].monthly_usd).then(a.cmp(&b)));
    let mut front = Vec::new();
    let mut best_throttle = f64::INFINITY;
    for i in order.into_iter().filter(|&i| candidates[i].complete) {
        if candidates[i].throttled_share < best_throttle {
            best_throttle = candidates[i].throttled_share;
            front.push(i);
        }
    }
    Recommendation {
        scenario: sc.name.clone(),
        seed: o.run.seed.unwrap_or(sc.seed),
        duration_s,
        max_throttle: o.max_throttle,
        simulations,
        candidates,
        pick,
        best_by_mode,
        front,
        prices: format!("{} prices read on {}", catalog.region, catalog.prices_read_on),
    }
}

/// One table and dimension of a many-table recommendation: what its settings cost now, what
/// `recommend` picks, and the saving.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct TableRow {
    /// Position of the table among all the tables (shards keep it).
    pub index: usize,
    /// Scenario file.
    pub scenario: String,
    /// Table name.
    pub table: String,
    /// `read` or `write`.
    pub dimension: String,
    /// The table's own settings, in words.
    pub current_setting: String,
    /// What they cost a month for this dimension (table and GSIs), USD, estimated.
    pub current_monthly_usd: f64,
    /// Throttled share of attempts under them (whole table).
    pub current_throttled_share: f64,
    /// Mode of the pick (`none`: nothing within the limit).
    pub recommended_mode: String,
    /// The pick, in words.
    pub recommended_setting: String,
    /// What the pick costs a month for this dimension, USD, estimated.
    pub recommended_monthly_usd: Option<f64>,
    /// Current less recommended, USD a month.
    pub saving_usd: Option<f64>,
    /// The saving as a share of the current cost.
    pub saving_share: Option<f64>,
    /// Throttled share of attempts under the pick (whole table).
    pub throttled_share: Option<f64>,
}

/// The table's own capacity settings in words.
fn current_setting(sc: &Scenario) -> String {
    use crate::scenario::CapacitySpec;
    let mut s = match sc.table.capacity {
        CapacitySpec::OnDemand { .. } => "on-demand".to_string(),
        CapacitySpec::Provisioned { read, write } => format!("provisioned {read} RCU / {write} WCU"),
    };
    if let Some(a) = &sc.table.autoscaling {
        for (d, t) in [("read", &a.read), ("write", &a.write)] {
            if let Some(t) = t {
                let _ = write!(s, ", {d} auto-scaled {}-{} at {:.0} %", t.min, t.max, t.target * 100.0);
            }
        }
    }
    if !sc.gsis.is_empty() {
        let _ = write!(s, " ({} GSI(s) as defined)", sc.gsis.len());
    }
    s
}

/// Recommends for table `index` (scenario file `file`): its own settings simulated and
/// billed, then [`recommend`]; a row per dimension.
#[must_use]
pub fn table_rows(index: usize, file: &str, sc: &Scenario, catalog: &Catalog, o: &RecommendOptions) -> (Recommendation, Vec<TableRow>) {
    let priced = catalog.clone().with_overrides(&sc.pricing.overrides);
    let (now, _) = eval(sc, o, &priced, None);
    let rec = recommend(sc, catalog, o);
    let pick = rec.pick.map(|i| &rec.candidates[i]);
    let rows = ["read", "write"]
        .iter()
        .enumerate()
        .map(|(d, dim)| {
            let cost = pick.map(|c| c.by_dimension[d]);
            let current = now.by_dimension[d];
            TableRow {
                index,
                scenario: file.to_string(),
                table: sc.table.name.clone(),
                dimension: (*dim).to_string(),
                current_setting: current_setting(sc),
                current_monthly_usd: current,
                current_throttled_share: now.throttled,
                recommended_mode: pick.map_or("none", |c| c.settings.mode()).to_string(),
                recommended_setting: pick.map_or_else(|| "nothing within the limit".to_string(), |c| c.description.clone()),
                recommended_monthly_usd: cost,
                saving_usd: cost.map(|c| current - c),
                saving_share: cost.filter(|_| current > 0.0).map(|c| (current - c) / current),
                throttled_share: pick.map(|c| c.throttled_share),
            }
        })
        .collect();
    (rec, rows)
}

/// The baseline `recommend` is measured against: `n` auto-scaling settings drawn at random
/// (target 20-90 %, floor 0-1 and ceiling 1-4 times the peak's need, as the community
/// simulator searches), each simulated; the cheapest monthly cost within the limit, if any.
#[must_use]
pub fn random_search(sc: &Scenario, catalog: &Catalog, o: &RecommendOptions, n: u64, seed: u64) -> Option<f64> {
    let catalog = catalog.clone().with_overrides(&sc.pricing.overrides);
    let (_, r_od) = eval(&on_demand(sc), o, &catalog, None);
    let peak = peaks_in(&minute_demand(&r_od), |_| true);
    let give_up = give_up(sc, o, &r_od);
    let base = traffic_only(sc);
    let mut rng = crate::rng::SimRng::seed_from_u64(seed);
    let draws: Vec<(f64, f64, f64)> =
        (0..n).map(|_| (rng.random_range(20.0..=90.0), rng.random_range(0.0..=1.0), rng.random_range(1.0..=4.0))).collect();
    let costs = par_indexed(n, |i| {
        let (target, f, m) = draws[i as usize];
        let need: Vec<[f64; 2]> = peak.iter().map(|p| [p[0] * 100.0 / target, p[1] * 100.0 / target]).collect();
        let (e, _) = eval(&autoscaled(&base, target, &scale(&need, f), &scale(&need, m), &[]), o, &catalog, give_up);
        (e.throttled <= o.max_throttle).then_some(e.monthly)
    });
    costs.into_iter().flatten().min_by(f64::total_cmp)
}

/// The scenario a candidate describes (for `--write`-style exports and tests).
#[must_use]
pub fn apply(sc: &Scenario, s: &Settings) -> Option<Scenario> {
    let base = traffic_only(sc);
    match s {
        Settings::OnDemand => Some(on_demand(sc)),
        Settings::Provisioned { units } => Some(provisioned(&base, units)),
        Settings::Autoscaling { target, min, max, daily } => Some(autoscaled(&base, *target, min, max, daily)),
        Settings::Reserved { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::CapacitySpec;

    /// Bisection keeps the smallest passing value: a threshold at 0.3 in [0, 1] with 6 steps
    /// ends within 1/64 above it, after 7 evaluations.
    #[test]
    fn bisection_finds_the_threshold() {
        let evals = bisect(0.0, 1.0, 6, |x| (x >= 0.3, ()));
        assert_eq!(evals.len(), 7);
        let best = evals.iter().filter(|e| e.1).map(|e| e.0).fold(f64::INFINITY, f64::min);
        assert!((0.3..0.3 + 1.0 / 64.0).contains(&best), "{best}");
        assert_eq!(bisect(0.0, 1.0, 6, |_| (false, ())).len(), 1, "nothing passes: one evaluation");
    }

    /// The capacity a candidate carries is what its scenario runs with.
    #[test]
    fn settings_apply_to_the_scenario() {
        let sc = crate::scenario::parse_str(
            "[scenario]\nduration = \"1m\"\n[table]\npartition_key = \"k\"\ncapacity = { mode = \"provisioned\", read = 5, write = 5 }\n[keys.k]\ncardinality = 10\n[[pattern]]\nname = \"w\"\nop = \"put_item\"\nrate = { constant = 1 }\n",
            std::path::Path::new("t.toml"),
        )
        .unwrap();
        let s = apply(&sc, &Settings::Autoscaling { target: 70.0, min: vec![[10, 20]], max: vec![[100, 200]], daily: Vec::new() }).unwrap();
        assert!(matches!(s.table.capacity, CapacitySpec::Provisioned { read: 10, write: 20 }));
        let a = s.table.autoscaling.unwrap();
        assert_eq!((a.write.unwrap().min, a.write.unwrap().max), (20, 200));
        assert!((a.read.unwrap().target - 0.7).abs() < 1e-12);
    }
}
