//! The pieces of the search: one candidate evaluated (simulated or screened), the scenario of
//! an auto-scaling candidate, the bisection chains and their plan.

use super::{DailyFloor, RecommendOptions, FLOOR_LEAD_S, STEPS};
use crate::cost::{bill, Bill, BillComponent, BillOptions, Catalog, Usage};
use crate::engine::{simulate, GiveUp, RunOptions, RunResult};
use crate::scenario::{Action, ActionSpec, AutoscalingSpec, RateShape, ScalingChange, ScalingTargetSpec, Scenario, Window};
use crate::study::compare::provisioned;
use crate::study::screen::Demand;
use crate::study::sustain::OnCredit;
use crate::time::SimDuration;
use crate::units::MILLI;

/// What one simulation gave.
pub(super) struct Eval {
    pub(super) monthly: f64,
    pub(super) throttled: f64,
    pub(super) failed: u64,
    /// Failed requests over requests.
    pub(super) failed_share: f64,
    /// Requests given up because the SDK's retry quota was empty.
    pub(super) failed_quota: u64,
    pub(super) usage: Usage,
    pub(super) complete: bool,
    pub(super) by_dimension: [f64; 2],
    pub(super) screened: bool,
    /// Where the run throttled most (none screened, or none throttled).
    pub(super) worst: Option<super::why::Worst>,
    /// The setting provisions past the account's quotas: AWS would refuse it.
    pub(super) past_quota: Option<String>,
    /// The burst credit and GSI absorption it spent on net (none: it holds sustained).
    pub(super) on_credit: Option<OnCredit>,
    /// Spending them is allowed: it holds sustained, or the window is an event.
    pub(super) credit_ok: bool,
}

/// Whether a setting that spent `on_credit` may hold `sc`'s window.
fn credit_ok(sc: &Scenario, on_credit: Option<&OnCredit>) -> bool {
    sc.window == Window::Event || on_credit.is_none()
}

/// Monthly cost of read and of write capacity in `b`.
pub(super) fn by_dimension(b: &Bill) -> [f64; 2] {
    let monthly = if b.total_usd > 0.0 { b.monthly_rate_usd() / b.total_usd } else { 0.0 };
    let of = |c: BillComponent| b.lines.iter().filter(|l| l.component == c).map(|l| l.cost_usd).sum::<f64>() * monthly;
    [of(BillComponent::Reads), of(BillComponent::Writes)]
}

/// Simulates a candidate, giving up as `give_up` allows (a candidate sure to throttle more
/// than the limit need not be simulated to its end: most of a search's slow runs are such).
pub(super) fn eval(sc: &Scenario, o: &RecommendOptions, catalog: &Catalog, give_up: Option<GiveUp>) -> (Eval, RunResult) {
    let r = simulate(sc, &RunOptions { progress: None, give_up, ..o.run.clone() });
    let usage = Usage::of(&r, sc);
    let b = bill(&usage, catalog, &BillOptions { extrapolate: false, ..BillOptions::of(&sc.pricing) });
    let t = r.totals();
    let throttled = r.given_up.map_or(t.throttled_share(), |g| g.least_share);
    let by_dimension = by_dimension(&b);
    let on_credit = OnCredit::of_run(&r);
    (
        Eval {
            credit_ok: credit_ok(sc, on_credit.as_ref()),
            on_credit,
            monthly: b.monthly_rate_usd(),
            throttled,
            failed: t.failed,
            failed_share: t.failed_share(),
            failed_quota: r.patterns.iter().map(|p| p.failed_quota).sum(),
            usage,
            complete: r.given_up.is_none(),
            by_dimension,
            screened: false,
            worst: super::why::worst(&r),
            past_quota: sc.past_quota_at_start(),
        },
        r,
    )
}

/// Screens a candidate with the per-minute model: no simulation.
pub(super) fn screened(sc: &Scenario, demand: &Demand, catalog: &Catalog) -> Eval {
    let x = crate::study::screen::screen(sc, demand);
    let b = bill(&x.usage, catalog, &BillOptions { extrapolate: false, ..BillOptions::of(&sc.pricing) });
    Eval {
        credit_ok: credit_ok(sc, x.on_credit.as_ref()),
        on_credit: x.on_credit,
        monthly: b.monthly_rate_usd(),
        throttled: x.throttled_share,
        failed: 0,
        failed_share: 0.0,
        failed_quota: 0,
        by_dimension: by_dimension(&b),
        usage: x.usage,
        complete: true,
        screened: true,
        worst: None,
        past_quota: sc.past_quota_at_start(),
    }
}

/// Per resource, per minute: the demand (first attempts' units) a second, [read, write].
pub(super) fn minute_demand(r: &RunResult) -> Vec<Vec<[f64; 2]>> {
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
pub(super) fn give_up(sc: &Scenario, o: &RecommendOptions, on_demand: &RunResult) -> Option<GiveUp> {
    let closed = sc.patterns.iter().any(|p| matches!(p.rate, RateShape::ClosedLoop(_)));
    (o.give_up && !closed && on_demand.totals().failed == 0).then(|| GiveUp {
        max_share: o.max_throttle,
        pages: on_demand.patterns.iter().map(|p| p.pages_sent).sum(),
        attempts: u64::from(sc.client.attempts),
    })
}

/// The scenario with auto scaling at `target` percent, floors `min` and ceilings `max`,
/// starting at the floor, with the `daily` floors as scheduled actions.
pub(super) fn autoscaled(sc: &Scenario, target: f64, min: &[[u64; 2]], max: &[[u64; 2]], daily: &[DailyFloor]) -> Scenario {
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
pub(super) enum Chain {
    /// Fixed capacity.
    Fixed,
    /// Auto scaling at a target, percent.
    Target(f64),
    /// Auto scaling with daily floors at a target (chosen after the targets).
    Daily(f64),
}

/// Auto-scaling targets in the order a small budget keeps them: the default first, then the
/// extremes.
pub(super) const TARGET_PRIORITY: [f64; 6] = [70.0, 90.0, 50.0, 80.0, 60.0, 40.0];

/// The chains the modes ask for and the bisection steps each may take, within the budget:
/// each chain is one simulation and `steps` more; a small budget keeps fewer chains (fixed
/// capacity first, then the targets by [`TARGET_PRIORITY`], the daily floors last) and
/// fewer steps. Reserved capacity needs a provisioned series: without provisioned or
/// auto scaling in the modes, both are searched for it.
pub(super) fn plan(o: &RecommendOptions, periodic: bool) -> (Vec<Chain>, usize) {
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

pub(super) fn scale(p: &[[f64; 2]], k: f64) -> Vec<[u64; 2]> {
    p.iter().map(|x| [((x[0] * k).ceil() as u64).max(1), ((x[1] * k).ceil() as u64).max(1)]).collect()
}

/// Bisection for the smallest `x` in `[lo, hi]` for which `ok(x)`, assuming `ok` is monotone
/// (false below a threshold, true above); `ok(hi)` is evaluated first. Returns every
/// evaluation.
pub(super) fn bisect<T>(mut lo: f64, mut hi: f64, steps: usize, mut ok: impl FnMut(f64) -> (bool, T)) -> Vec<(f64, bool, T)> {
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
