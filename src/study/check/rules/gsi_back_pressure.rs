//! `gsi-back-pressure`: a provisioned GSI with less write capacity than its base-table writes need.
//!
//! With absorbing back-pressure (the default, spec §16) a short shortfall is a warning with
//! the minutes the index's write buffer holds it; a shortfall that throttles is an error.

use super::key_load::index_write_units;
use super::{numbers, steady_scenario, throttled_share, units, Context, Evidence, Finding, Rule, Runs, Severity, SKILL};
use crate::engine::RunResult;
use crate::format::{grouped, percent};
use crate::model::{Dim, Reason};
use crate::scenario::{CapacitySpec, GsiBackpressure, ResourceId, Window};
use crate::study::sustain::OnCredit;

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
        &[Evidence::Scenario, Evidence::Steady, Evidence::Burst]
    }

    fn resimulates(&self) -> Option<&'static str> {
        Some("the steady hour with the index's write capacity at the peak's index units, then 25 % more each try (four tries), the first that holds the hour within the limit and, in a sustained window, without spending the index's burst credit or absorption")
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
        // A closed loop has no peak rate: what the index was offered in the steady hour's
        // busiest minute stands for it (an absorbing index applies what it is offered).
        let offered = runs.steady.resource(ResourceId::gsi(g)).minutes.iter().map(|m| m.offered[Dim::Write as usize]).max().unwrap_or(0);
        let need = index_write_units(sc, &runs.peaks, g);
        let need = if runs.peaks.iter().any(Option::is_none) { need.max(offered as f64 / 1_000.0 / 60.0) } else { need };
        let events: u64 = runs
            .steady
            .resource(ResourceId::gsi(g))
            .minutes
            .iter()
            .map(|m| m.throttle_events[Reason::Provisioned as usize][Dim::Write as usize])
            .sum();
        if need <= ceiling as f64 && events == 0 {
            out.extend(absorbed_burst(runs, g, write));
            continue;
        }
        let hold = holds_minutes(runs, g, write, need - ceiling as f64);
        if events == 0 {
            if let Some(minutes) = hold {
                out.push(absorbed_peak(runs, g, write, need, minutes));
                continue;
            }
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
            let r = runs.simulate(&s, false);
            let after = throttled_share(&r);
            // A sustained window's fix holds without spending the index's credit or absorption.
            if after <= sc.check.max_throttle && (sc.window == Window::Event || OnCredit::of_run(&r).is_none()) {
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
            evidence: [format!(
                "the steady hour: {} IndexWriteProvisionedThroughputExceeded events, {} of all attempts throttled",
                grouped(events),
                percent(before)
            )]
            .into_iter()
            .chain(hold.map(|m| format!("its write buffer absorbs the shortfall for about {m:.0} minutes at the peak, then every table write waits for it")))
            .collect(),
            numbers: numbers(&[
                ("write_capacity", write as f64),
                ("needed_units_per_s", need),
                ("throttle_events", events as f64),
                ("steady_throttled_share", before),
                ("fixed_write_capacity", found.map_or(-1.0, |f| f.0 as f64)),
            ]),
            source: format!("{SKILL}, CRITICAL PITFALL #1 \"GSI Throttling Cascade\", capacity smell \"GSI capacity < base table write capacity\"; docs/dynamodb-behaviour.md §7"),
            fix,
            assumptions: Vec::new(),
            effect,
        });
    }
    out
}

/// Minutes GSI `g`'s write buffer holds a shortfall of `short` units a second at the peak
/// (absorbing back-pressure only): the bound of each of its partitions, spread evenly, plus
/// 300 s of its `write` capacity in burst credit. A hot index partition fills sooner.
fn holds_minutes(runs: &Runs<'_>, g: usize, write: u64, short: f64) -> Option<f64> {
    let GsiBackpressure::Absorb { bound_units } = runs.sc.table.gsi_backpressure else { return None };
    let parts = runs.steady.resource(ResourceId::gsi(g)).minutes.first().map_or(1, |m| m.partitions.max(1));
    Some((bound_units as f64 * parts as f64 + 300.0 * write as f64) / short.max(1e-9) / 60.0)
}

/// The warning for a GSI short at the peak whose buffer absorbed the whole steady hour.
fn absorbed_peak(runs: &Runs<'_>, g: usize, write: u64, need: f64, minutes: f64) -> Finding {
    let gsi = &runs.sc.gsis[g];
    Finding {
        id: "gsi-back-pressure".into(),
        severity: Severity::Warn,
        resource: Some(gsi.name.clone()),
        title: format!(
            "{} has {} WCU but the table's writes need {} index WCU/s at the peak: its write buffer absorbs the shortfall for about {minutes:.0} minutes, then its back-pressure throttles every table write",
            gsi.name,
            grouped(write),
            units(need)
        ),
        evidence: vec!["the steady hour: no throttle event (the index applied its writes above its capacity and owed the rest)".into()],
        numbers: numbers(&[("write_capacity", write as f64), ("needed_units_per_s", need), ("holds_minutes", minutes)]),
        source: "AWS design-patterns workshop, ex1capacity Steps 5-7 (a GSI absorbs writes above its capacity for minutes); docs/dynamodb-behaviour.md §16".into(),
        fix: format!("provision {} with at least {} WCU if the peak can last longer than that", gsi.name, grouped(need.ceil() as u64)),
        assumptions: Vec::new(),
        effect: None,
    }
}

/// The warning for a GSI that took more than its capacity in the burst phase without
/// throttling: its buffer absorbed the burst (absorbing back-pressure only).
fn absorbed_burst(runs: &Runs<'_>, g: usize, write: u64) -> Option<Finding> {
    let burst: &RunResult = runs.burst.as_ref()?;
    let minutes = &burst.resource(ResourceId::gsi(g)).minutes;
    let over: Vec<f64> = minutes
        .iter()
        .filter(|m| m.provisioned[Dim::Write as usize] > 0 && m.events(Dim::Write) == 0)
        .map(|m| m.consumed[Dim::Write as usize] as f64 / 1_000.0 / 60.0 - m.provisioned[Dim::Write as usize] as f64)
        .filter(|&x| x > 0.0)
        .collect();
    if over.is_empty() || minutes.iter().any(|m| m.events(Dim::Write) > 0) {
        return None;
    }
    let short = over.iter().copied().fold(0.0, f64::max);
    let hold = holds_minutes(runs, g, write, short)?;
    let gsi = &runs.sc.gsis[g];
    Some(Finding {
        id: "gsi-back-pressure".into(),
        severity: Severity::Warn,
        resource: Some(gsi.name.clone()),
        title: format!(
            "{} took up to {} WU/s above its provisioned capacity for {} minutes of the burst phase without throttling: its burst credit and write buffer absorbed the burst, and hold that shortfall about {hold:.0} minutes",
            gsi.name,
            units(short),
            over.len()
        ),
        evidence: vec![format!("the burst phase: {} minutes with consumed index writes above provisioned, no throttle event", over.len())],
        numbers: numbers(&[("write_capacity", write as f64), ("shortfall_units_per_s", short), ("holds_minutes", hold)]),
        source: "AWS design-patterns workshop, ex1capacity Steps 5-7 (a GSI absorbs writes above its capacity for minutes); docs/dynamodb-behaviour.md §16".into(),
        fix: format!("keep bursts on {} shorter than that, or provision it for the burst", gsi.name),
        assumptions: Vec::new(),
        effect: None,
    })
}
