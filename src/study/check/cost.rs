//! The `cost` phase: cost guardrails (`[check] max_window_cost`, `max_monthly_cost`), judged on
//! the scenario's own traffic for its own duration, billed at the check's prices.

use super::{Measure, MeasureName, Phase, PhaseResult, Runs};
use crate::cost::bill_of;

/// The cost phase when `[check]` sets a guardrail: one run of the scenario as written, its
/// window's cost and that cost at a 730-hour month's rate, each against its limit.
pub(super) fn cost_phase(runs: &Runs<'_>) -> Option<PhaseResult> {
    let c = &runs.sc.check;
    if c.max_window_cost.is_none() && c.max_monthly_cost.is_none() {
        return None;
    }
    let r = runs.simulate(runs.sc, false);
    let bill = bill_of(runs.sc, &r, runs.catalog);
    let measure = |name: MeasureName, value: f64, limit: Option<f64>| {
        limit.map(|limit| Measure { name, value, limit, passed: value <= limit + 1e-9, resource: None })
    };
    let measures: Vec<Measure> = [
        measure(MeasureName::WindowCostUsd, bill.total_usd, c.max_window_cost),
        measure(MeasureName::MonthlyCostUsd, bill.monthly_rate_usd(), c.max_monthly_cost),
    ]
    .into_iter()
    .flatten()
    .collect();
    Some(PhaseResult {
        phase: Phase::Cost,
        passed: measures.iter().all(|m| m.passed),
        simulated_s: r.duration_s,
        window_s: [0, r.duration_s],
        requests_per_s: r.totals().offered as f64 / r.duration_s.max(1) as f64,
        measures,
        spread: Vec::new(),
        assumptions: Vec::new(),
    })
}
