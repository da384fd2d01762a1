//! `scan-on-hot-path`: scans on a hot path.

use super::{numbers, units, Context, Evidence, Finding, Rule, Runs, Severity, SKILL};
use crate::format::percent;
use crate::model::request::CompiledPattern;
use crate::scenario::Op;
use crate::units::MILLI;

/// Scans on a hot path.
pub(super) struct Scans;

impl Rule for Scans {
    fn ids(&self) -> &'static [&'static str] {
        &["scan-on-hot-path"]
    }

    fn worst(&self) -> Severity {
        Severity::Error
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Scenario]
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        scans(cx.runs)
    }
}

/// Scans on a hot path.
fn scans(runs: &Runs<'_>) -> Vec<Finding> {
    let sc = runs.sc;
    let total: f64 = runs.peaks.iter().flatten().sum();
    let mut out = Vec::new();
    for (p, peak) in sc.patterns.iter().zip(&runs.peaks) {
        let Some(rate) = *peak else { continue };
        if p.op != Op::Scan || rate <= 0.0 {
            continue;
        }
        let share = if total > 0.0 { rate / total } else { 0.0 };
        let severity = if share > 0.01 || rate > 10.0 { Severity::Error } else { Severity::Warn };
        let cp = CompiledPattern::new(sc, p);
        let per = cp.mean_milli() as f64 / MILLI as f64;
        out.push(Finding {
            id: "scan-on-hot-path".into(),
            severity,
            resource: Some(sc.table.name.clone()),
            title: format!("pattern `{}` scans {} times a second at the peak ({} of requests)", p.name, units(rate), percent(share)),
            evidence: vec![format!("each scan page reads about {} RCU; together {} RCU/s", units(per), units(per * rate))],
            numbers: numbers(&[("scans_per_s", rate), ("share_of_requests", share), ("rcu_per_s", per * rate)]),
            source: format!("{SKILL}, query pattern smells: \"Scan operations in production code (frequency > 1% of operations)\", \"frequency > 10/sec using Scan\""),
            fix: "add a GSI keyed for this access pattern and query it".into(),
            assumptions: Vec::new(),
            effect: None,
        });
    }
    out
}
