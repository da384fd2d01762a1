//! `recommend`: the cheapest capacity settings whose throttled share stays within a limit,
//! found by simulating candidates on the same traffic (common random numbers: the same seed
//! draws the same requests whatever the capacity).
//!
//! The search uses what is monotone in the model instead of sampling at random:
//!
//! 1. **on-demand**, once; its run gives the demand per resource and minute.
//! 2. **provisioned, fixed**: capacity `ceil(peak demand x s)` for every resource and dimension;
//!    more capacity never throttles more, so `s` is found by bisection (the smallest that keeps
//!    within the limit).
//! 3. **auto scaling** at targets 90, 80, 70, 60, 50 and 40 %: for each, the floor `min` as a
//!    share `f` of the peak's need at that target, bisected to the lowest floor within the
//!    limit (`max` is 4 x the peak's need, never binding).
//! 4. **reserved capacity** on the cheapest provisioned candidate within the limit: the
//!    reservation (blocks of 100, table and GSIs together) that minimises its bill, found by
//!    billing the recorded provisioned series at every block, without simulating again.
//!
//! About 45 simulations; a random search over the same auto-scaling space needs 256 to do as
//! well (a test checks it on a bundled scenario).

use super::compare::{demand, on_demand, provisioned, traffic_only};
use super::runner::par_indexed;
use crate::cost::{bill, BillOptions, Catalog, Reservation, Usage, RESERVED_BLOCK};
use crate::engine::{simulate, RunOptions, RunResult};
use crate::scenario::{AutoscalingSpec, ScalingTargetSpec, Scenario, TableClass};
use crate::time::SimDuration;
use rand::{Rng, SeedableRng};
use serde::Serialize;

/// Targets the auto-scaling search tries, percent.
const TARGETS: [f64; 6] = [90.0, 80.0, 70.0, 60.0, 50.0, 40.0];
/// Bisection steps of the fixed-capacity factor and of each target's floor.
const STEPS: usize = 6;

/// Options of a recommendation.
#[derive(Clone, Debug)]
pub struct RecommendOptions {
    /// Seed, fidelity, duration and stop token of every run.
    pub run: RunOptions,
    /// Largest throttled share of attempts allowed (0.001 = 0.1 %).
    pub max_throttle: f64,
    /// Reserved-capacity term, years (1 or 3).
    pub reserved_years: u32,
}

impl Default for RecommendOptions {
    fn default() -> Self {
        Self { run: RunOptions::default(), max_throttle: 0.001, reserved_years: 1 }
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
            Settings::Autoscaling { target, min, max } => {
                let both: Vec<[u64; 4]> = min.iter().zip(max).map(|(a, b)| [a[0], b[0], a[1], b[1]]).collect();
                let text: Vec<String> =
                    both.iter().zip(names).map(|(x, n)| format!("{n} read {}-{}, write {}-{}", x[0], x[1], x[2], x[3])).collect();
                format!("auto scaling at {target:.0} %: {}", text.join("; "))
            }
            Settings::Reserved { of, rcu, wcu, years } => {
                format!("candidate {of} with {rcu} RCU / {wcu} WCU reserved for {years} year(s)")
            }
        }
    }
}

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
    /// Candidates no other beats on both cost and throttling, cheapest first.
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
}

fn eval(sc: &Scenario, o: &RecommendOptions, catalog: &Catalog) -> (Eval, RunResult) {
    let r = simulate(sc, &RunOptions { progress: None, ..o.run.clone() });
    let usage = Usage::of(&r, sc.table.table_class);
    let b = bill(&usage, catalog, &BillOptions { free_tier: sc.pricing.free_tier, reservation: None });
    let t = r.totals();
    (Eval { monthly: b.monthly_usd, throttled: t.throttled_share(), failed: t.failed, usage }, r)
}

/// The scenario with auto scaling at `target` percent, floors `min` and ceilings `max`,
/// starting at the floor.
fn autoscaled(sc: &Scenario, target: f64, min: &[[u64; 2]], max: &[[u64; 2]]) -> Scenario {
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
    s
}

/// Per resource and dimension: the units a second of the peak minute's demand.
fn peaks(r: &RunResult) -> Vec<[f64; 2]> {
    demand(r, true)
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
        });
        usages.push(Some(e.usage));
        within
    };

    // 1. On-demand: the demand.
    let (e, r_od) = eval(&on_demand(sc), o, &catalog);
    simulations += 1;
    let duration_s = r_od.duration_s;
    let peak = peaks(&r_od);
    push(Settings::OnDemand, e, &mut candidates, &mut usages);

    // 2. Fixed capacity: the smallest multiple of the peak within the limit, in [0.25, 2].
    let base = traffic_only(sc);
    let fixed = bisect(0.25, 2.0, STEPS, |k| {
        let units = scale(&peak, k);
        let (e, _) = eval(&provisioned(&base, &units), o, &catalog);
        (e.throttled <= o.max_throttle, (units, e))
    });
    simulations += fixed.len();
    for (_, _, (units, e)) in fixed {
        push(Settings::Provisioned { units }, e, &mut candidates, &mut usages);
    }

    // 3. Auto scaling: per target, the lowest floor within the limit; targets in parallel.
    let runs = par_indexed(TARGETS.len() as u64, |i| {
        let target = TARGETS[i as usize];
        let need: Vec<[f64; 2]> = peak.iter().map(|p| [p[0] * 100.0 / target, p[1] * 100.0 / target]).collect();
        let max = scale(&need, 4.0);
        bisect(0.0, 1.0, STEPS, |f| {
            let min = scale(&need, f);
            let (e, _) = eval(&autoscaled(&base, target, &min, &max), o, &catalog);
            (e.throttled <= o.max_throttle, (Settings::Autoscaling { target, min, max: max.clone() }, e))
        })
    });
    for evals in runs {
        simulations += evals.len();
        for (_, _, (settings, e)) in evals {
            push(settings, e, &mut candidates, &mut usages);
        }
    }

    // 4. Reserved capacity on the cheapest provisioned candidate within the limit (Standard
    // class only): every block count up to the series' peak, billed.
    if sc.table.table_class == TableClass::Standard {
        let best = candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| c.within_limit && matches!(c.settings, Settings::Provisioned { .. } | Settings::Autoscaling { .. }))
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
                bill(&usage, &catalog, &BillOptions { free_tier: sc.pricing.free_tier, reservation: Some(res) }).monthly_usd
            };
            // Reads and writes are billed apart: each dimension's best block count alone.
            let best_r = (0..=rmax).map(|k| k * RESERVED_BLOCK).min_by(|a, b| cost(*a, 0).total_cmp(&cost(*b, 0))).unwrap_or(0);
            let best_w = (0..=wmax).map(|k| k * RESERVED_BLOCK).min_by(|a, b| cost(0, *a).total_cmp(&cost(0, *b))).unwrap_or(0);
            if best_r + best_w > 0 {
                let c = &candidates[i];
                let settings = Settings::Reserved { of: i, rcu: best_r, wcu: best_w, years: o.reserved_years };
                candidates.push(Candidate {
                    description: format!("{}, with {best_r} RCU / {best_w} WCU reserved for {} year(s)", c.description, o.reserved_years),
                    settings,
                    monthly_usd: cost(best_r, best_w),
                    throttled_share: c.throttled_share,
                    failed_requests: c.failed_requests,
                    within_limit: c.within_limit,
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
    let pick = cheapest(&|_| true);
    let best_by_mode = ["on_demand", "provisioned", "autoscaling", "reserved"]
        .iter()
        .filter_map(|m| cheapest(&|c| c.settings.mode() == *m).map(|i| ((*m).to_string(), i)))
        .collect();
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|&a, &b| candidates[a].monthly_usd.total_cmp(&candidates[b].monthly_usd).then(a.cmp(&b)));
    let mut front = Vec::new();
    let mut best_throttle = f64::INFINITY;
    for i in order {
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

/// The baseline `recommend` is measured against: `n` auto-scaling settings drawn at random
/// (target 20-90 %, floor 0-1 and ceiling 1-4 times the peak's need, as the community
/// simulator searches), each simulated; the cheapest monthly cost within the limit, if any.
#[must_use]
pub fn random_search(sc: &Scenario, catalog: &Catalog, o: &RecommendOptions, n: u64, seed: u64) -> Option<f64> {
    let catalog = catalog.clone().with_overrides(&sc.pricing.overrides);
    let (_, r_od) = eval(&on_demand(sc), o, &catalog);
    let peak = peaks(&r_od);
    let base = traffic_only(sc);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let draws: Vec<(f64, f64, f64)> =
        (0..n).map(|_| (rng.random_range(20.0..=90.0), rng.random_range(0.0..=1.0), rng.random_range(1.0..=4.0))).collect();
    let costs = par_indexed(n, |i| {
        let (target, f, m) = draws[i as usize];
        let need: Vec<[f64; 2]> = peak.iter().map(|p| [p[0] * 100.0 / target, p[1] * 100.0 / target]).collect();
        let (e, _) = eval(&autoscaled(&base, target, &scale(&need, f), &scale(&need, m)), o, &catalog);
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
        Settings::Autoscaling { target, min, max } => Some(autoscaled(&base, *target, min, max)),
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
        let s = apply(&sc, &Settings::Autoscaling { target: 70.0, min: vec![[10, 20]], max: vec![[100, 200]] }).unwrap();
        assert!(matches!(s.table.capacity, CapacitySpec::Provisioned { read: 10, write: 20 }));
        let a = s.table.autoscaling.unwrap();
        assert_eq!((a.write.unwrap().min, a.write.unwrap().max), (20, 200));
        assert!((a.read.unwrap().target - 0.7).abs() < 1e-12);
    }
}
