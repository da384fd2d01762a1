//! `gsi-back-pressure`: a provisioned GSI with less write capacity than its base-table writes need.

use super::key_load::index_write_units;
use super::{numbers, steady_scenario, throttled_share, units, Context, Evidence, Finding, Rule, Runs, Severity, SKILL};
use crate::format::{grouped, percent};
use crate::model::{Dim, Reason};
use crate::scenario::CapacitySpec;

/// A provisioned GSI with less write capacity than its base-table writes need.
pub(super) struct GsiBackPressure;

impl Rule for GsiBackPressure {
    fn ids(&self) -> &'static [&'static str] {
        &["gsi-back-pressure"]
    }

    fn worst(&self) -> Severity {
        Severity::Error
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Scenario, Evidence::Steady]
    }

    fn resimulates(&self) -> Option<&'static str> {
        Some("the steady hour with the index's write capacity at the peak's index units, then 25 % more each try (four tries)")
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        gsi_back_pressure(cx.runs)
    }
}

/// A provisioned GSI with less write capacity than its base-table writes need: back-pressure
/// throttles the table's writes (spec §7).
fn gsi_back_pressure(runs: &Runs<'_>) -> Vec<Finding> {
    let sc = runs.sc;
    let mut out = Vec::new();
    for (g, gsi) in sc.gsis.iter().enumerate() {
        let CapacitySpec::Provisioned { read, write } = gsi.capacity else { continue };
        let ceiling = gsi.autoscaling.as_ref().and_then(|a| a.write).map_or(write, |t| t.max.max(write));
        let need = index_write_units(sc, &runs.peaks, g);
        let events: u64 =
            runs.steady.resources[g + 1].minutes.iter().map(|m| m.throttle_events[Reason::Provisioned as usize][Dim::Write as usize]).sum();
        if need <= ceiling as f64 && events == 0 {
            continue;
        }
        // The capacity that holds: the peak's index units, then 25 % more each try.
        let before = throttled_share(&runs.steady);
        let mut found = None;
        for step in 0..4 {
            let w = (need * (1.0 + 0.25 * f64::from(step))).ceil().max(1.0) as u64;
            let mut s = steady_scenario(sc, &runs.peaks);
            s.gsis[g].capacity = CapacitySpec::Provisioned { read, write: w };
            if let Some(a) = s.gsis[g].autoscaling.as_mut() {
                if let Some(t) = a.write.as_mut() {
                    t.min = w;
                    t.max = t.max.max(w);
                }
            }
            let after = throttled_share(&runs.simulate(&s, false));
            if after <= sc.check.max_throttle {
                found = Some((w, after));
                break;
            }
        }
        let (fix, effect) = match found {
            Some((w, after)) => (
                format!("provision {} with at least {} WCU (or auto scale it with that minimum)", gsi.name, grouped(w)),
                Some(format!("with {} WCU the steady hour throttles {} instead of {}", grouped(w), percent(after), percent(before))),
            ),
            None => {
                (format!("raise {}'s write capacity to at least {} WCU and look at its key", gsi.name, grouped(need.ceil() as u64)), None)
            }
        };
        out.push(Finding {
            id: "gsi-back-pressure".into(),
            severity: Severity::Error,
            resource: Some(gsi.name.clone()),
            title: format!(
                "{} has {} WCU{} but the table's writes need {} index WCU/s at the peak: its back-pressure throttles the table",
                gsi.name,
                grouped(write),
                if ceiling > write { format!(" (auto scaling to {})", grouped(ceiling)) } else { String::new() },
                units(need)
            ),
            evidence: vec![format!(
                "the steady hour: {} IndexWriteProvisionedThroughputExceeded events, {} of all attempts throttled",
                grouped(events),
                percent(before)
            )],
            numbers: numbers(&[
                ("write_capacity", write as f64),
                ("needed_units_per_s", need),
                ("throttle_events", events as f64),
                ("steady_throttled_share", before),
                ("fixed_write_capacity", found.map_or(-1.0, |f| f.0 as f64)),
            ]),
            source: format!("{SKILL}, CRITICAL PITFALL #1 \"GSI Throttling Cascade\", capacity smell \"GSI capacity < base table write capacity\"; docs/dynamodb-behaviour.md §7"),
            fix,
            effect,
        });
    }
    out
}
