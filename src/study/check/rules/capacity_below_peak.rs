//! `capacity-below-peak`: a provisioned table or GSI without auto scaling whose fixed capacity is below the peak or the burst.

use super::{
    burst_scenario, capacity_of, judged_effect, numbers, offered_per_s, set_units, steady_scenario, throttled_share, units, window,
    Context, Evidence, Finding, Rule, Runs, Severity,
};
use crate::engine::RunResult;
use crate::format::{grouped, percent};
use crate::model::Dim;
use crate::scenario::{CapacitySpec, ResourceId};

/// A provisioned table or GSI without auto scaling whose fixed capacity is below the peak or the burst.
pub(super) struct CapacityBelowPeak;

impl Rule for CapacityBelowPeak {
    fn ids(&self) -> &'static [&'static str] {
        &["capacity-below-peak"]
    }

    fn worst(&self) -> Severity {
        Severity::Error
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Steady, Evidence::Burst]
    }

    fn resimulates(&self) -> Option<&'static str> {
        Some("the steady hour and the burst with every short fixed capacity raised to the phase's demand and 10 %")
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        capacity_below_peak(cx.runs)
    }
}

/// A provisioned table or GSI without auto scaling whose fixed capacity is below the peak (an
/// error: burst credit carries it for minutes at most) or below the burst (a warning). The fix
/// is simulated with every such capacity raised at once (the phase's demand and 10 % for the
/// seconds above its mean), so one dimension's fix is not hidden by another's shortfall.
fn capacity_below_peak(runs: &Runs<'_>) -> Vec<Finding> {
    let sc = runs.sc;
    let demand = offered_per_s(&runs.steady, 0);
    let factor = sc.check.burst_factor;
    // (resource, dimension, capacity, peak) of every fixed capacity below the burst.
    let mut short = Vec::new();
    // The table and its GSIs (a replica's capacity is the table's).
    for res in sc.layout().table_and_gsis() {
        let want = demand[sc.layout().slot(res)];
        let (CapacitySpec::Provisioned { read, write }, None) = capacity_of(sc, res) else { continue };
        for d in [Dim::Read, Dim::Write] {
            let (cap, peak) = ([read, write][d as usize] as f64, want[d as usize]);
            if peak > 0.0 && peak * factor > cap {
                short.push((res, d, cap, peak));
            }
        }
    }
    let fix_of = |peak: f64, below: bool| ((if below { peak } else { peak * factor }) * 1.1).ceil() as u64;
    let below: Vec<_> = short.iter().copied().filter(|x| x.3 > x.2).collect();
    let steady = (!below.is_empty()).then(|| {
        let mut s = steady_scenario(sc, &runs.peaks);
        for &(res, d, _, peak) in &below {
            set_units(&mut s, res, d as usize, fix_of(peak, true));
        }
        let r = runs.simulate(&s, false);
        (throttled_share(&runs.steady), throttled_share(&r), r, 0)
    });
    let burst = runs.burst.as_ref().map(|b| {
        let from = (sc.check.warmup.as_secs() / 60) as usize;
        let mut s = burst_scenario(sc, &runs.peaks);
        for &(res, d, _, peak) in &short {
            set_units(&mut s, res, d as usize, fix_of(peak, false));
        }
        let r = runs.simulate(&s, false);
        let share = |x: &RunResult| {
            let (a, t, _) = window(x, from, usize::MAX);
            if a == 0 {
                0.0
            } else {
                t as f64 / a as f64
            }
        };
        (share(b), share(&r), r, from)
    });
    let mut out = Vec::new();
    // A GSI's write capacity is `gsi-back-pressure`'s.
    for &(res, d, cap, peak) in short.iter().filter(|x| !(x.0 != ResourceId::Table && x.1 == Dim::Write)) {
        let is_below = peak > cap;
        let Some((phase_share, after, rerun, from)) = (if is_below { steady.as_ref() } else { burst.as_ref() }) else { continue };
        let (phase_share, after) = (*phase_share, *after);
        let fixed = fix_of(peak, is_below);
        let name = sc.resource_name(res);
        let unit = if d == Dim::Read { "RCU" } else { "WCU" };
        let phase = if is_below { "steady phase" } else { "burst" };
        let others = if is_below { below.len() } else { short.len() };
        let credit = if is_below {
            format!(
                "; burst credit (300 s of {} {unit}) carries the difference for {:.0} s at most",
                grouped(cap as u64),
                crate::limits::BURST_SECONDS as f64 * cap / (peak - cap)
            )
        } else {
            String::new()
        };
        out.push(Finding {
            id: "capacity-below-peak".into(),
            severity: if is_below { Severity::Error } else { Severity::Warn },
            resource: Some(name.clone()),
            title: if is_below {
                format!("{name} is provisioned at {} {unit} without auto scaling, below the peak's {} {unit}/s", grouped(cap as u64), units(peak))
            } else {
                format!(
                    "{name}'s {} {unit} (no auto scaling) hold the peak's {} {unit}/s but not the {factor}x burst's {}",
                    grouped(cap as u64),
                    units(peak),
                    units(peak * factor)
                )
            },
            evidence: vec![format!("the {phase} throttled {} of attempts{credit}", percent(phase_share))],
            numbers: numbers(&[
                ("capacity", cap),
                ("peak_units_per_s", peak),
                ("burst_units_per_s", peak * factor),
                ("phase_throttled_share", phase_share),
                ("fixed_capacity", fixed as f64),
                ("fixed_throttled_share", after),
            ]),
            source: "docs/dynamodb-behaviour.md §3 (burst credit: 300 s of unused capacity), §6.1; the design skill's capacity smell \"relying on burst capacity for normal traffic\"".into(),
            fix: format!(
                "provision {name} at {} {unit} (the {phase}'s demand and 10 %), auto scale it, or go on-demand; `ddbsim recommend` prices each",
                grouped(fixed)
            ),
            assumptions: Vec::new(),
            effect: Some(judged_effect(
                sc,
                format!(
                    "at {} {unit}{} the {phase} throttles {}",
                    grouped(fixed),
                    if others > 1 { format!(" (and the {} other short capacities raised alike)", others - 1) } else { String::new() },
                    percent(after)
                ),
                after,
                rerun,
                *from,
            )),
        });
    }
    out
}
