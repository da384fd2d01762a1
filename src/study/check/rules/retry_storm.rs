//! `retry-storm`: retries that multiply the load: attempts per request in a phase.

use super::{numbers, Context, Evidence, Finding, Phase, Rule, Runs, Severity};
use crate::engine::RunResult;
use crate::format::{grouped, percent};
use crate::model::{Dim, Reason};

/// Attempts per request from which retries are a storm.
pub const RETRY_STORM_ATTEMPTS: f64 = 1.5;

/// Retries that multiply the load: attempts per request in a phase.
pub(super) struct RetryStorm;

impl Rule for RetryStorm {
    fn ids(&self) -> &'static [&'static str] {
        &["retry-storm"]
    }

    fn worst(&self) -> Severity {
        Severity::Warn
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Steady, Evidence::Burst, Evidence::Soak]
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        retry_storm(cx.runs).into_iter().collect()
    }
}

/// Retries that multiply the load: attempts per request in a phase.
fn retry_storm(runs: &Runs<'_>) -> Option<Finding> {
    let sc = runs.sc;
    if sc.client.attempts <= 1 {
        return None;
    }
    let phases = [(Phase::Steady, Some(&runs.steady)), (Phase::Burst, runs.burst.as_ref()), (Phase::Soak, runs.soak.as_ref())];
    let mut worst: Option<(Phase, f64, &RunResult)> = None;
    for (ph, r) in phases {
        let Some(r) = r else { continue };
        let pages: u64 = r.patterns.iter().map(|p| p.pages_sent).sum();
        let attempts: u64 = r.patterns.iter().map(|p| p.attempts).sum();
        let per = if pages == 0 { 1.0 } else { attempts as f64 / pages as f64 };
        if worst.is_none_or(|w| per > w.1) {
            worst = Some((ph, per, r));
        }
    }
    let (ph, per, r) = worst?;
    if per < RETRY_STORM_ATTEMPTS {
        return None;
    }
    // The throttling the retries answer: the reason with the most events.
    let mut cause: Option<(u64, String)> = None;
    for res in &r.resources {
        for reason in Reason::ALL {
            for d in [Dim::Read, Dim::Write] {
                let e: u64 = res.minutes.iter().map(|m| m.throttle_events[reason as usize][d as usize]).sum();
                if e > 0 && cause.as_ref().is_none_or(|c| e > c.0) {
                    cause = Some((e, format!("{} on {}", reason.api_reason(res.kind() == crate::ResourceKind::Gsi, d), res.name)));
                }
            }
        }
    }
    let cause = cause.map_or_else(String::new, |c| format!("here mostly {}; ", c.1));
    let exhausted: u64 = r.patterns.iter().map(|p| p.failed_exhausted).sum();
    let quota: u64 = r.patterns.iter().map(|p| p.failed_quota).sum();
    Some(Finding {
        id: "retry-storm".into(),
        severity: Severity::Warn,
        resource: Some(sc.table.name.clone()),
        title: format!("retries multiply the load: {per:.2} attempts per request in the {} phase (client `{}`, up to {} attempts)", ph.name(), sc.client.preset, sc.client.attempts),
        evidence: vec![format!(
            "{} of attempts throttled; {} requests failed after their last attempt, {} when the retry quota ran out",
            percent(r.totals().throttled_share()),
            grouped(exhausted),
            grouped(quota)
        )],
        numbers: numbers(&[("attempts_per_request", per), ("failed_exhausted", exhausted as f64), ("failed_quota", quota as f64)]),
        source: "docs/dynamodb-behaviour.md §9.3 (client retries, the retry quota); the design skill's query pattern smells (exponential backoff)".into(),
        fix: format!(
            "remove the throttling's cause ({cause}see the other findings, or `ddbsim recommend` for capacity); keep the SDK's standard retry mode with its retry quota, or adaptive mode, so retries stop adding load"
        ),
        assumptions: Vec::new(),
        effect: None,
    })
}
