//! `owned-reservation-unused`: reserved capacity the team owns that the design's provisioned
//! capacity leaves unused, its fee paid all the same.

use super::{numbers, Context, Evidence, Finding, Rule, Runs, Severity};
use crate::format::percent;

/// Unused above this share of the reserved unit-hours is worth a finding.
const UNUSED: f64 = 0.10;

/// Reserved capacity owned (`[pricing] reserved`) that the provisioned capacity leaves unused.
pub(super) struct ReservedUnused;

impl Rule for ReservedUnused {
    fn ids(&self) -> &'static [&'static str] {
        &["owned-reservation-unused"]
    }

    fn worst(&self) -> Severity {
        Severity::Warn
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Scenario, Evidence::OwnShape]
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        reserved_unused(cx.runs).into_iter().collect()
    }
}

/// The scenario's own run billed with its reservations owned: a finding when more than a tenth
/// of their RCU- or WCU-hours covered no provisioned capacity.
fn reserved_unused(runs: &Runs<'_>) -> Option<Finding> {
    let sc = runs.sc;
    if sc.pricing.reserved.is_empty() {
        return None;
    }
    let run = runs.own_run();
    let bill = crate::cost::bill_of(sc, run, runs.catalog);
    let [r, w] = bill.reserved_unused_share;
    let worst = r.unwrap_or(0.0).max(w.unwrap_or(0.0));
    if worst <= UNUSED {
        return None;
    }
    let owned = |f: fn(&crate::scenario::OwnedReservation) -> u64| sc.pricing.reserved.iter().map(f).sum::<u64>();
    let said: Vec<String> = [("RCU", r), ("WCU", w)]
        .into_iter()
        .filter_map(|(label, s)| s.map(|s| format!("{} of the reserved {label}-hours", percent(s))))
        .collect();
    let fees: f64 = bill.lines.iter().filter(|l| l.arithmetic.starts_with("owned:")).map(|l| l.cost_usd).sum();
    Some(Finding {
        id: "owned-reservation-unused".into(),
        severity: Severity::Warn,
        resource: Some(sc.table.name.clone()),
        title: format!("reserved capacity owned is left unused: {} covered no provisioned capacity", said.join(" and ")),
        evidence: vec![
            format!(
                "{} RCU and {} WCU owned ([pricing] reserved); their fees over the window are {} whether used or not",
                owned(|o| o.rcu),
                owned(|o| o.wcu),
                crate::format::usd_window(fees)
            ),
            "reserved capacity covers only provisioned capacity of Standard-class tables and their GSIs in its region; on-demand and Standard-IA use none of it".into(),
        ],
        numbers: numbers(&[("unused_rcu_share", r.unwrap_or(0.0)), ("unused_wcu_share", w.unwrap_or(0.0)), ("owned_fees_usd", fees)]),
        source: "AWS reserved capacity (DynamoDB pricing, provisioned capacity): billed hourly for the term, applied to the Region's provisioned capacity".into(),
        fix: "provision up to the reservation where the traffic needs it, move another table of the region onto it, or let it lapse at the end of its term".into(),
        assumptions: Vec::new(),
        effect: None,
    })
}
