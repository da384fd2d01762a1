//! `fixed-provisioned-spiky`: a provisioned table or GSI without auto scaling whose demand peaks far above its mean.

use super::{numbers, throttled_share, units, Context, Evidence, Finding, Rule, Runs, Severity, SKILL};
use crate::engine::RunResult;
use crate::format::{percent, usd};
use crate::model::Dim;
use crate::scenario::{AutoscalingSpec, CapacitySpec, ResourceId, ScalingTargetSpec, Scenario};
use crate::units::MILLI;

/// A provisioned table without auto scaling whose demand peaks above this many times its mean.
pub const SPIKY_PEAK_OVER_MEAN: f64 = 4.0;

/// A provisioned table or GSI without auto scaling whose demand peaks far above its mean.
pub(super) struct FixedProvisioned;

impl Rule for FixedProvisioned {
    fn ids(&self) -> &'static [&'static str] {
        &["fixed-provisioned-spiky"]
    }

    fn worst(&self) -> Severity {
        Severity::Warn
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Scenario, Evidence::OwnShape]
    }

    fn resimulates(&self) -> Option<&'static str> {
        Some("the scenario's own traffic auto scaled at 70 % and on-demand, each billed for a month")
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        fixed_provisioned(cx.runs)
    }
}

/// A provisioned table or GSI without auto scaling whose demand peaks far above its mean.
fn fixed_provisioned(runs: &Runs<'_>) -> Vec<Finding> {
    let sc = runs.sc;
    let fixed = |res: &ResourceId| matches!(sc.capacity_of(*res), CapacitySpec::Provisioned { .. }) && sc.autoscaling_of(*res).is_none();
    if !sc.layout().table_and_gsis().any(|r| fixed(&r))
        || sc.actions.iter().any(|a| matches!(a.action, crate::scenario::Action::SetCapacity { .. }))
    {
        return Vec::new();
    }
    // Demand per minute from a run of the scenario's own shape (first attempts' units).
    let base = runs.own_run();
    let mut spiky = Vec::new();
    for res in sc.layout().table_and_gsis().filter(fixed) {
        for d in [Dim::Read, Dim::Write] {
            let m = &base.resource(res).minutes;
            let per: Vec<f64> = m.iter().enumerate().map(|(i, x)| x.offered[d as usize] as f64 / base.minute_seconds(i) as f64).collect();
            let mean = per.iter().sum::<f64>() / per.len().max(1) as f64;
            let peak = per.iter().copied().fold(0.0, f64::max);
            if mean > 0.0 && peak / mean > SPIKY_PEAK_OVER_MEAN {
                spiky.push((res, d, peak / MILLI as f64, mean / MILLI as f64));
            }
        }
    }
    if spiky.is_empty() {
        return Vec::new();
    }
    // The same traffic with auto scaling at 70 % on every fixed dimension.
    let (auto, unused) = autoscaled_at_70(sc, base, &fixed);
    let scaled = runs.simulate(&auto, false);
    let od = crate::study::compare::on_demand(sc);
    let on_demand = runs.simulate(&od, false);
    let (before, after, od_usd) = (runs.monthly(sc, base), runs.monthly(&auto, &scaled), runs.monthly(&od, &on_demand));
    let (as_share, od_share) = (throttled_share(&scaled), throttled_share(&on_demand));
    let unused_share = unused.iter().copied().fold(0.0, f64::max);
    let (res, d, peak, mean) = spiky[0];
    let name = sc.resource_name(res);
    let limit = sc.check.max_throttle;
    let fix = match (as_share <= limit, od_share <= limit) {
        (true, true) if after <= od_usd => "auto scale it (target 70 %, minimum the mean, maximum at least the peak over 0.7)",
        (true, false) => "auto scale it (target 70 %, minimum the mean, maximum at least the peak over 0.7)",
        (_, true) => "switch it to on-demand: auto scaling cannot follow demand this spiky",
        (false, false) => {
            "schedule capacity ahead of the peaks (`[[at]] set_autoscaling` floors) or pre-warm on-demand: neither plain mode holds"
        }
    };
    vec![Finding {
        id: "fixed-provisioned-spiky".into(),
        severity: Severity::Warn,
        resource: Some(name.clone()),
        title: format!(
            "{name} is provisioned without auto scaling and its {} demand peaks at {:.1} times its mean ({} vs {} units/s)",
            d.name(),
            peak / mean,
            units(peak),
            units(mean)
        ),
        evidence: vec![
            format!(
                "over the scenario's {}, {} of the provisioned unit-hours went unused",
                crate::format::elapsed(sc.duration.as_secs()),
                percent(unused_share)
            ),
            format!("monthly bill (estimate, extrapolated): {} fixed", usd(before)),
        ],
        numbers: numbers(&[
            ("peak_units_per_s", peak),
            ("mean_units_per_s", mean),
            ("peak_over_mean", peak / mean),
            ("unused_share", unused_share),
            ("monthly_usd", before),
            ("autoscaled_monthly_usd", after),
            ("autoscaled_throttled_share", as_share),
            ("on_demand_monthly_usd", od_usd),
            ("on_demand_throttled_share", od_share),
        ]),
        source: format!("{SKILL}, capacity smells (\"relying on burst capacity\", no right-sizing); docs/dynamodb-behaviour.md §5, §6.2"),
        fix: format!("{fix}; `ddbsim recommend` searches every mode"),
        assumptions: Vec::new(),
        effect: Some(format!(
            "fixed {}; auto scaled at 70 %: {}, {} of attempts throttled; on-demand: {}, {} throttled (monthly, estimates)",
            usd(before),
            usd(after),
            percent(as_share),
            usd(od_usd),
            percent(od_share)
        )),
    }]
}

/// `sc` with auto scaling at 70 % on every fixed dimension (minimum the mean, maximum at least
/// the peak over 0.7), from the demand of `base` (a run of its own shape); and each fixed
/// dimension's share of provisioned unit-seconds unused in `base`.
fn autoscaled_at_70(sc: &Scenario, base: &RunResult, fixed: &dyn Fn(&ResourceId) -> bool) -> (Scenario, Vec<f64>) {
    let mut auto = sc.clone();
    let target = |min: f64, prov: u64, peak: f64| ScalingTargetSpec {
        min: (min.ceil() as u64).max(1),
        max: prov.max((peak / 0.7).ceil() as u64),
        target: 0.7,
        scale_in_cooldown: crate::scenario::defaults::COOLDOWN,
        scale_out_cooldown: crate::scenario::defaults::COOLDOWN,
    };
    let mut unused = Vec::new();
    for res in sc.layout().table_and_gsis().filter(fixed) {
        let m = &base.resource(res).minutes;
        let mut t = [None, None];
        for d in [Dim::Read, Dim::Write] {
            let prov: u64 = m.iter().map(|x| x.provisioned_unit_seconds[d as usize]).sum();
            let used: u64 = m.iter().map(|x| x.consumed[d as usize]).sum::<u64>() / MILLI;
            unused.push(if prov == 0 { 0.0 } else { 1.0 - used as f64 / prov as f64 });
            let per: Vec<f64> =
                m.iter().enumerate().map(|(i, x)| x.offered[d as usize] as f64 / MILLI as f64 / base.minute_seconds(i) as f64).collect();
            let mean = per.iter().sum::<f64>() / per.len().max(1) as f64;
            let peak = per.iter().copied().fold(0.0, f64::max);
            let CapacitySpec::Provisioned { read, write } = *sc.capacity_of(res) else { continue };
            t[d as usize] = Some(target(mean, if d == Dim::Read { read } else { write }, peak));
        }
        let spec = AutoscalingSpec { instant: false, read: t[0], write: t[1], alarm_delay: crate::scenario::defaults::ALARM_DELAY };
        *auto.autoscaling_mut(res) = Some(spec);
    }
    (auto, unused)
}
