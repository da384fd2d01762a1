//! `on-demand-steady`: an on-demand table or GSI that throttles at the steady peak or in the burst.

use super::{
    burst_scenario, judged_effect, numbers, steady_scenario, units, window, Context, Evidence, Finding, Phase, Rule, Runs, Severity,
};
use crate::engine::RunResult;
use crate::format::{grouped, percent};
use crate::model::Dim;
use crate::scenario::CapacitySpec;
use crate::units::MILLI;

/// An on-demand table or GSI that throttles at the steady peak or in the burst.
pub(super) struct OnDemandBurst;

impl Rule for OnDemandBurst {
    fn ids(&self) -> &'static [&'static str] {
        &["on-demand-steady", "on-demand-burst"]
    }

    fn worst(&self) -> Severity {
        Severity::Error
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Steady, Evidence::Burst]
    }

    fn resimulates(&self) -> Option<&'static str> {
        Some("the phase with warm throughput at its peak and 10 %, pre-warmed before the traffic arrives")
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        on_demand_burst(cx.runs)
    }
}

/// An on-demand table or GSI that throttles at the steady peak or in the burst: the warm
/// throughput it needs.
fn on_demand_burst(runs: &Runs<'_>) -> Vec<Finding> {
    let sc = runs.sc;
    let mut out = on_demand_phase(runs, Phase::Steady, &runs.steady, 0);
    if let Some(b) = &runs.burst {
        out.extend(on_demand_phase(runs, Phase::Burst, b, (sc.check.warmup.as_secs() / 60) as usize));
    }
    out
}
/// The on-demand finding of one phase's run `run`, judged from minute `from`.
fn on_demand_phase(runs: &Runs<'_>, phase: Phase, run: &RunResult, from: usize) -> Vec<Finding> {
    let sc = runs.sc;
    let (a, t, _) = window(run, from, usize::MAX);
    let share = if a == 0 { 0.0 } else { t as f64 / a as f64 };
    if share <= sc.check.max_throttle {
        return Vec::new();
    }
    let (id, what) = if phase == Phase::Burst {
        ("on-demand-burst", format!("the {}x burst", sc.check.burst_factor))
    } else {
        ("on-demand-steady", "the steady peak from the first second".to_string())
    };
    let mut out = Vec::new();
    for res in sc.layout().table_and_gsis() {
        let r = run.resource(res);
        let cap = *sc.capacity_of(res);
        let CapacitySpec::OnDemand { warm_read, warm_write, max_read, max_write, table_quota } = cap else { continue };
        let events: u64 = r.minutes[from.min(r.minutes.len())..].iter().map(|m| m.events(Dim::Read) + m.events(Dim::Write)).sum();
        if events == 0 {
            continue;
        }
        // The phase's peak units per second, per dimension, with 10 % headroom for the
        // seconds above the minute's mean, rounded up to a thousand.
        let peak = |d: Dim| {
            r.minutes[from.min(r.minutes.len())..]
                .iter()
                .enumerate()
                .map(|(i, m)| m.offered[d as usize] as f64 / MILLI as f64 / run.minute_seconds(from + i) as f64)
                .fold(0.0, f64::max)
        };
        let want = |d: Dim, warm: u64| ((peak(d) * 1.1 / 1_000.0).ceil() as u64 * 1_000).max(warm);
        let (wr, ww) = (want(Dim::Read, warm_read), want(Dim::Write, warm_write));
        let mut s = if phase == Phase::Burst { burst_scenario(sc, &runs.peaks) } else { steady_scenario(sc, &runs.peaks) };
        // Warm from the start: a pre-warm finished before the traffic arrives.
        s.actions.retain(|x| !(matches!(x.action, crate::scenario::Action::Prewarm { .. }) && x.action.target() == Some(res)));
        let warmed = CapacitySpec::OnDemand { warm_read: wr, warm_write: ww, max_read, max_write, table_quota };
        *s.capacity_mut(res) = warmed;
        let rerun = runs.simulate(&s, false);
        let (a2, t2, _) = window(&rerun, from, usize::MAX);
        let after = if a2 == 0 { 0.0 } else { t2 as f64 / a2 as f64 };
        let name = sc.resource_name(res);
        out.push(Finding {
            id: id.into(),
            severity: Severity::Error,
            resource: Some(name.clone()),
            title: format!(
                "on-demand {name} throttles at {what}: {} of the phase's attempts, warm throughput {} RRU/s / {} WRU/s",
                percent(share),
                grouped(warm_read),
                grouped(warm_write)
            ),
            evidence: vec![format!(
                "the phase asks for up to {} RRU/s and {} WRU/s; on-demand serves up to twice the previous peak at once and doubles at most every 30 minutes; a pre-warm takes effect after `prewarm_delay`",
                units(peak(Dim::Read)),
                units(peak(Dim::Write))
            )],
            numbers: numbers(&[
                ("phase_throttled_share", share),
                ("warm_read", warm_read as f64),
                ("warm_write", warm_write as f64),
                ("prewarm_read", wr as f64),
                ("prewarm_write", ww as f64),
                ("prewarmed_throttled_share", after),
            ]),
            source: "docs/dynamodb-behaviour.md §5, §5.1 (on-demand doubling, warm throughput); the design skill's steady and burst tests (100 % and 200 % of peak)".into(),
            fix: format!(
                "pre-warm {name} to {} RRU/s and {} WRU/s, finished before the traffic arrives (UpdateTable --warm-throughput, or `[[at]] prewarm` at least `prewarm_delay` ahead)",
                grouped(wr),
                grouped(ww)
            ),
            assumptions: Vec::new(),
            effect: Some(judged_effect(sc, format!("warm from the start, the phase throttles {} of its attempts", percent(after)), after, &rerun, from)),
        });
    }
    out
}
