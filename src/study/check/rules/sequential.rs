//! `sequential-partition-key`: a date or other time-ordered partition key: all of a period's traffic on one value.

use super::hot_key::NEAR_CAP;
use super::key_load::{load_numbers, KeyLoad};
use super::shards::shard_effect;
use super::{steady_throttle_evidence, units, Context, Evidence, Finding, Rule, Runs, Severity, SKILL};
use crate::format::grouped;
use crate::model::Dim;
use crate::scenario::Popularity;

/// A date or other time-ordered partition key: all of a period's traffic on one value.
pub(super) struct Sequential;

impl Rule for Sequential {
    fn ids(&self) -> &'static [&'static str] {
        &["sequential-partition-key"]
    }

    fn worst(&self) -> Severity {
        Severity::Error
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Scenario, Evidence::Steady]
    }

    fn resimulates(&self) -> Option<&'static str> {
        Some("the write-sharding search (1, 2, 4 ... 64 shards, three 15-minute runs each at the peak) when the key is past the cap")
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        cx.loads
            .iter()
            .filter(|l| !cx.is_low_index_key(l) && matches!(cx.runs.sc.key_spaces[l.key_space].popularity, Popularity::Sequential(_)))
            // A sorted bulk load's values pass one after another: `bulk-load-sorted` says so.
            .filter(|l| !cx.runs.sc.patterns.iter().any(|p| p.bulk.is_some() && p.key_space == Some(l.key_space)))
            .filter_map(|l| sequential(cx.runs, l))
            .collect()
    }
}

/// A date or other time-ordered partition key: all of a period's traffic on one value.
fn sequential(runs: &Runs<'_>, l: &KeyLoad) -> Option<Finding> {
    let sc = runs.sc;
    let ks = &sc.key_spaces[l.key_space];
    let Popularity::Sequential(period) = ks.popularity else { return None };
    let res = sc.resource_name(sc.layout().id(l.res));
    let ratio = l.units_per_s / l.cap();
    // Writes on a time-ordered key are the smell (all of them go to the current period);
    // reads of the current period only when they near the cap.
    if l.dim == Dim::Read && ratio < NEAR_CAP {
        return None;
    }
    let severity = if ratio > 1.0 { Severity::Error } else { Severity::Warn };
    let (throttle, share) = steady_throttle_evidence(runs, l.res, l.dim);
    let (fix, effect, count) = if severity == Severity::Error {
        shard_effect(runs, l.key_space)
    } else {
        (
            format!(
                "the current {period} key holds only while its traffic stays under {} units/s; shard `{}` before then",
                grouped(l.cap() as u64),
                ks.name
            ),
            None,
            None,
        )
    };
    let n = load_numbers(l, share, count);
    Some(Finding {
        id: "sequential-partition-key".into(),
        severity,
        resource: Some(res.clone()),
        title: format!(
            "`{}` is time-ordered (one value per {period}): every {} of the period lands on one {res} partition, {} units/s of its {}",
            ks.name,
            l.dim.name(),
            units(l.units_per_s),
            grouped(l.cap() as u64)
        ),
        evidence: vec![format!("{} requests/s at the peak use the current value", units(l.base_rate)), throttle],
        numbers: n,
        source: format!("{SKILL}, partition key smells: \"partition key is timestamp or date (all writes go to current time)\"; docs/dynamodb-behaviour.md §2"),
        fix,
        assumptions: Vec::new(),
        effect,
    })
}
