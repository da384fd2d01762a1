//! `all-projection`: `ALL` projections on a write-heavy table, priced against `KEYS_ONLY`.

use super::{numbers, units, Context, Evidence, Finding, Rule, Runs, Severity, SKILL};
use crate::engine::RunResult;
use crate::format::{grouped, percent, usd};
use crate::limits::ITEM_OVERHEAD_BYTES;
use crate::model::request::{index_entry_bytes, mean_bytes};
use crate::model::Dim;
use crate::scenario::{Projection, ResourceId};
use crate::units::MILLI;

/// `ALL` projections on a write-heavy table, priced against `KEYS_ONLY`.
pub(super) struct AllProjection;

impl Rule for AllProjection {
    fn ids(&self) -> &'static [&'static str] {
        &["all-projection"]
    }

    fn worst(&self) -> Severity {
        Severity::Warn
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Scenario, Evidence::OwnShape]
    }

    fn resimulates(&self) -> Option<&'static str> {
        Some("the scenario's own traffic with KEYS_ONLY instead of ALL, billed for a month")
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        all_projection(cx.runs).into_iter().collect()
    }
}

/// `ALL` projections on a write-heavy table, priced against `KEYS_ONLY` over the scenario.
fn all_projection(runs: &Runs<'_>) -> Option<Finding> {
    let sc = runs.sc;
    let written: Vec<usize> = (0..sc.gsis.len())
        .filter(|&g| sc.gsis[g].projection == Projection::All && sc.patterns.iter().any(|p| p.index_writes.iter().any(|w| w.0 == g)))
        .collect();
    if written.is_empty() {
        return None;
    }
    let total: f64 = runs.peaks.iter().flatten().sum();
    let writes: f64 = sc.patterns.iter().zip(&runs.peaks).filter(|(p, _)| p.op.is_write()).filter_map(|(_, x)| *x).sum();
    let write_share = if total > 0.0 { writes / total } else { 0.0 };
    if write_share < 0.5 {
        return None;
    }
    let base = runs.own_run();
    let mut keys_only = sc.clone();
    for &g in &written {
        keys_only.gsis[g].projection = Projection::KeysOnly;
    }
    let lean = runs.simulate(&keys_only, false);
    let (before, after) = (runs.monthly(sc, base), runs.monthly(&keys_only, &lean));
    let wcu = |r: &RunResult| {
        written
            .iter()
            .map(|&g| r.resource(ResourceId::gsi(g)).minutes.iter().map(|m| m.consumed[Dim::Write as usize]).sum::<u64>())
            .sum::<u64>() as f64
            / MILLI as f64
            / r.duration_s.max(1) as f64
    };
    let item = sc.patterns.iter().find(|p| p.op.is_write()).map_or(crate::scenario::defaults::ITEM_BYTES, |p| mean_bytes(p.size));
    let names: Vec<&str> = written.iter().map(|&g| sc.gsis[g].name.as_str()).collect();
    Some(Finding {
        id: "all-projection".into(),
        severity: Severity::Warn,
        resource: Some(names.join(", ")),
        title: format!(
            "{} project ALL on a write-heavy table ({} of requests are writes): each index entry is the whole {}-byte item",
            names.join(", "),
            percent(write_share),
            grouped(item)
        ),
        evidence: vec![
            format!(
                "over the scenario's {} these indexes consume {} WCU/s; KEYS_ONLY entries ({} bytes) would consume {}",
                crate::format::elapsed(sc.duration.as_secs()),
                units(wcu(base)),
                index_entry_bytes(Projection::KeysOnly, item) + ITEM_OVERHEAD_BYTES,
                units(wcu(&lean))
            ),
            format!("monthly bill (estimate, extrapolated): {} with ALL, {} with KEYS_ONLY", usd(before), usd(after)),
        ],
        numbers: numbers(&[
            ("write_share", write_share),
            ("index_wcu_per_s", wcu(base)),
            ("keys_only_index_wcu_per_s", wcu(&lean)),
            ("monthly_usd", before),
            ("keys_only_monthly_usd", after),
            ("monthly_saving_usd", before - after),
        ]),
        source: format!("{SKILL}, CRITICAL PITFALL #6 \"GSI Projection Mistakes\" and index smell \"all indexes use ALL projection\"; docs/dynamodb-behaviour.md §1.3"),
        fix: "project KEYS_ONLY, or INCLUDE only the attributes the index's queries read (a query needing others then reads the table)".into(),
        assumptions: Vec::new(),
        effect: Some(format!("KEYS_ONLY saves {} a month (estimate) on this traffic", usd(before - after))),
    })
}
