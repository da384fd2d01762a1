//! `too-many-gsis`: more than [`MAX_GSIS`] GSIs on one table.

use super::{numbers, Context, Evidence, Finding, Rule, Runs, Severity, SKILL};
use crate::model::Dim;
use crate::scenario::IndexRef;

/// More GSIs than this on one table is over-indexing (the design skill's "more than 5").
pub const MAX_GSIS: usize = 5;

/// More than [`MAX_GSIS`] GSIs on one table.
pub(super) struct TooManyGsis;

impl Rule for TooManyGsis {
    fn ids(&self) -> &'static [&'static str] {
        &["too-many-gsis"]
    }

    fn worst(&self) -> Severity {
        Severity::Warn
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Scenario, Evidence::Steady]
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        too_many_gsis(cx.runs).into_iter().collect()
    }
}

/// More than five GSIs.
fn too_many_gsis(runs: &Runs<'_>) -> Option<Finding> {
    let sc = runs.sc;
    if sc.gsis.len() <= MAX_GSIS {
        return None;
    }
    let r = &runs.steady;
    let sum = |res: usize| r.resources.get(res).map_or(0, |x| x.minutes.iter().map(|m| m.consumed[Dim::Write as usize]).sum::<u64>());
    let table = sum(0);
    let index: u64 = sc.layout().gsi_slots().map(sum).sum();
    let ratio = if table == 0 { 0.0 } else { index as f64 / table as f64 };
    let unqueried: Vec<&str> = sc
        .gsis
        .iter()
        .enumerate()
        .filter(|(g, _)| !sc.patterns.iter().any(|p| p.index == Some(IndexRef::Gsi(*g))))
        .map(|(_, g)| g.name.as_str())
        .collect();
    let mut evidence = vec![format!("the steady hour consumed {ratio:.2} index WCU for every table WCU")];
    if !unqueried.is_empty() {
        evidence.push(format!("no pattern queries {}", unqueried.join(", ")));
    }
    Some(Finding {
        id: "too-many-gsis".into(),
        severity: Severity::Warn,
        resource: Some(sc.table.name.clone()),
        title: format!("{} GSIs on {} (more than {MAX_GSIS}): every write is written {} times", sc.gsis.len(), sc.table.name, sc.gsis.len() + 1),
        evidence,
        numbers: numbers(&[("gsis", sc.gsis.len() as f64), ("index_wcu_per_table_wcu", ratio), ("unqueried", unqueried.len() as f64)]),
        source: format!("{SKILL}, CRITICAL PITFALL #5 \"Over-Indexing\" and index smell \"more than 5 GSIs on single table\"; docs/dynamodb-behaviour.md §1.3"),
        fix: "overload one GSI with several entity types' keys (generic GSI1PK/GSI1SK attributes) and drop indexes no access pattern queries".into(),
        assumptions: Vec::new(),
        effect: None,
    })
}
