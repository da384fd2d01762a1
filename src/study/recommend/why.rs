//! Why a candidate lost: the minute, resource and throttle reason that put it over the limit,
//! or the dollars by which the pick, holding too, beat it. One line per candidate, in the
//! text, `recommend.csv` and `recommend.json`.

use super::Candidate;
use crate::engine::{ResourceKind, RunResult};
use crate::format::{clock, grouped, percent, usd};
use crate::model::{Dim, Reason, ThrottlingReason};
use serde::Serialize;

/// Where a run throttled most: the minute, the resource and the reason with the most events.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Worst {
    /// The minute's first second, from the start.
    pub second: u64,
    /// Table or index.
    pub resource: String,
    /// The `ThrottlingReasons` reason, e.g. `TableWriteProvisionedThroughputExceeded`.
    pub reason: &'static str,
    /// Its throttle events in that minute.
    pub events: u64,
}

/// The minute, resource and reason of `r` with the most throttle events, if any throttled.
pub(super) fn worst(r: &RunResult) -> Option<Worst> {
    let mut best: Option<Worst> = None;
    for res in &r.resources {
        let on_index = res.kind() == ResourceKind::Gsi;
        for (m, minute) in res.minutes.iter().enumerate() {
            for reason in Reason::ALL {
                for dim in Dim::ALL {
                    let events = minute.throttle_events[reason as usize][dim as usize];
                    if events > best.as_ref().map_or(0, |b| b.events) {
                        let name = ThrottlingReason { on_index, dim, reason }.name();
                        best = Some(Worst { second: 60 * m as u64, resource: res.name.clone(), reason: name, events });
                    }
                }
            }
        }
    }
    best
}

/// Why candidate `c` was not picked, given the pick (if any), the limits and the run's start.
pub(super) fn why_not(c: &Candidate, pick: Option<&Candidate>, max_throttle: f64, max_failed: f64, start_unix_s: i64) -> String {
    if let Some(q) = &c.past_quota {
        return format!("refused by a quota: {q}; state a raised quota in [account] to consider it");
    }
    if let (false, Some(credit)) = (c.within_limit, &c.on_credit) {
        let how = if c.screened { "by the per-minute screen's estimate, " } else { "" };
        return format!("holds the window only on credit ({how}the window is sustained): {}", credit.describe());
    }
    if !c.within_limit {
        let throttled = format!(
            "{}{} of attempts throttled (limit {})",
            if c.complete { "" } else { "at least " },
            percent(c.throttled_share),
            percent(max_throttle)
        );
        if c.screened {
            return format!("over the limit by the per-minute screen's estimate: {throttled} (failed requests are not screened)");
        }
        let shares = format!(
            "{throttled}, {} requests failed, {} (limit {})",
            grouped(c.failed_requests),
            percent(c.failed_share),
            percent(max_failed)
        );
        return match &c.worst {
            Some(w) => format!(
                "over the limit: {shares}; most in the minute from {} on {}: {} {} events",
                clock(start_unix_s, w.second),
                w.resource,
                grouped(w.events),
                w.reason
            ),
            None => format!("over the limit: {shares}"),
        };
    }
    match pick {
        Some(p) if c.screened && c.monthly_usd < p.monthly_usd => format!(
            "screened only (the per-minute estimate, {} a month): no simulation confirmed it, and the pick is simulated",
            usd(c.monthly_usd)
        ),
        Some(p) if (c.monthly_usd - p.monthly_usd).abs() < 0.005 => {
            format!("holds, at the pick's cost ({} a month): the pick came first in the search", usd(p.monthly_usd))
        }
        Some(p) => format!(
            "holds, but {} a month dearer than the pick ({} against {}){}",
            usd(c.monthly_usd - p.monthly_usd),
            usd(c.monthly_usd),
            usd(p.monthly_usd),
            if c.screened { "; a screened estimate" } else { "" }
        ),
        None => "holds by the per-minute screen's estimate only: no simulation confirmed it".into(),
    }
}
