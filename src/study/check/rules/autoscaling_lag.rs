//! `autoscaling-lag`: an auto-scaled table or GSI that throttles while target tracking catches up with a step.

use super::{
    burst_scenario, capacity_of, judged_effect, numbers, offered_per_s, set_units, steady_scenario, units, window, Context, Evidence,
    Finding, Phase, Rule, Runs, Severity,
};
use crate::format::{grouped, percent};
use crate::model::{Dim, Reason};
use crate::scenario::CapacitySpec;

/// An auto-scaled table or GSI that throttles while target tracking catches up with a step.
pub(super) struct AutoscalingLag;

impl Rule for AutoscalingLag {
    fn ids(&self) -> &'static [&'static str] {
        &["autoscaling-lag"]
    }

    fn worst(&self) -> Severity {
        Severity::Error
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Steady, Evidence::Burst]
    }

    fn resimulates(&self) -> Option<&'static str> {
        Some("the phase with the auto-scaling minimum raised to the peak at the target")
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        autoscaling_lag(cx.runs)
    }
}

/// An auto-scaled table or GSI that throttles while target tracking catches up with a step:
/// scale-out waits for two one-minute datapoints above the target, the alarm delay and the
/// UpdateTable (spec §6.2).
fn autoscaling_lag(runs: &Runs<'_>) -> Vec<Finding> {
    let sc = runs.sc;
    let mut out = Vec::new();
    let limit = sc.check.max_throttle;
    let from = (sc.check.warmup.as_secs() / 60) as usize;
    let phases = [(Phase::Steady, Some(&runs.steady), 0usize), (Phase::Burst, runs.burst.as_ref(), from)];
    for res in sc.layout().table_and_gsis() {
        let slot = sc.layout().slot(res);
        let (CapacitySpec::Provisioned { .. }, Some(auto)) = capacity_of(sc, res) else { continue };
        for d in [Dim::Read, Dim::Write] {
            let Some(t) = (if d == Dim::Read { auto.read } else { auto.write }) else { continue };
            for (ph, r, start) in phases {
                let Some(r) = r else { continue };
                let (a, th, _) = window(r, start, usize::MAX);
                let share = if a == 0 { 0.0 } else { th as f64 / a as f64 };
                let minutes = &r.resource(res).minutes;
                let events: u64 =
                    minutes[start.min(minutes.len())..].iter().map(|m| m.throttle_events[Reason::Provisioned as usize][d as usize]).sum();
                if share <= limit || events == 0 {
                    continue;
                }
                let peak = offered_per_s(r, start)[slot][d as usize];
                let need = (peak / t.target).ceil() as u64;
                let name = sc.resource_name(res);
                let unit = if d == Dim::Read { "RCU" } else { "WCU" };
                let mut s = if ph == Phase::Steady { steady_scenario(sc, &runs.peaks) } else { burst_scenario(sc, &runs.peaks) };
                let over_max = need > t.max;
                {
                    let a = s.autoscaling_mut(res).as_mut();
                    if let Some(tt) = a.and_then(|a| if d == Dim::Read { a.read.as_mut() } else { a.write.as_mut() }) {
                        tt.max = tt.max.max(need);
                        tt.min = need;
                    }
                }
                set_units(&mut s, res, d as usize, need);
                let rerun = runs.simulate(&s, false);
                let (a2, t2, _) = window(&rerun, start, usize::MAX);
                let after = if a2 == 0 { 0.0 } else { t2 as f64 / a2 as f64 };
                out.push(Finding {
                    id: "autoscaling-lag".into(),
                    severity: Severity::Error,
                    resource: Some(name.clone()),
                    title: if over_max {
                        format!(
                            "{name}'s auto-scaling maximum of {} {unit} is below what the {} phase's {} {unit}/s need at {:.0} % ({} < {} = {} ÷ {:.2})",
                            grouped(t.max),
                            ph.name(),
                            units(peak),
                            t.target * 100.0,
                            grouped(t.max),
                            grouped(need),
                            units(peak),
                            t.target
                        )
                    } else {
                        format!("{name}'s auto scaling (min {}, target {:.0} %) lags the {} phase's step to {} {unit}/s", grouped(t.min), t.target * 100.0, ph.name(), units(peak))
                    },
                    evidence: vec![format!(
                        "{} of the phase's attempts throttled ({} provisioned-capacity events): scale-out waits for two minutes above the target, the {} s alarm delay and the UpdateTable",
                        percent(share),
                        grouped(events),
                        auto.alarm_delay.as_secs()
                    )],
                    numbers: numbers(&[
                        ("min", t.min as f64),
                        ("max", t.max as f64),
                        ("target", t.target),
                        ("peak_units_per_s", peak),
                        ("phase_throttled_share", share),
                        ("needed_min", need as f64),
                        ("raised_throttled_share", after),
                    ]),
                    source: "docs/dynamodb-behaviour.md §6.2 (target tracking: 2 datapoints, alarm delay, UpdateTable latency)".into(),
                    fix: format!(
                        "raise {name}'s {} minimum to {} {unit} (the peak at the target){} before the traffic arrives — a scheduled action (`[[at]] set_autoscaling`) for a known launch — or go on-demand",
                        d.name(),
                        grouped(need),
                        if over_max { " and its maximum with it" } else { "" }
                    ),
                    assumptions: Vec::new(),
                    effect: Some(judged_effect(
                        sc,
                        format!("with a minimum of {} {unit} the {} phase throttles {}", grouped(need), ph.name(), percent(after)),
                        after,
                        &rerun,
                        start,
                    )),
                });
                break;
            }
        }
    }
    out
}
