//! `lsi-collection-limit`: lSI item collections growing towards 10 GB.

use super::key_load::rank_share;
use super::{numbers, Context, Evidence, Finding, Rule, Runs, Severity, SKILL};
use crate::format::{grouped, percent};
use crate::limits::{COLLECTION_LIMIT_BYTES, GB};
use crate::model::request::CompiledPattern;
use crate::scenario::KeyFact;
use crate::scenario::{Op, Scenario};

/// LSI item collections growing towards 10 GB.
pub(super) struct LsiCollections;

impl Rule for LsiCollections {
    fn ids(&self) -> &'static [&'static str] {
        &["lsi-collection-limit"]
    }

    fn worst(&self) -> Severity {
        Severity::Error
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Scenario, Evidence::Steady, Evidence::Soak]
    }

    fn rests_on(&self) -> &'static [KeyFact] {
        &[KeyFact::Popularity, KeyFact::Cardinality]
    }
    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        lsi_collections(cx.runs).into_iter().collect()
    }
}

/// LSI item collections growing towards 10 GB.
fn lsi_collections(runs: &Runs<'_>) -> Option<Finding> {
    let sc = runs.sc;
    if sc.lsis.is_empty() {
        return None;
    }
    let pk = sc.table.partition_key;
    let ks = &sc.key_spaces[pk];
    // Bytes a day the whole key space's collections grow: the puts, each the item, its LSI
    // entries and their 100-byte overheads (spec §8), less the deletes.
    let mut growth = 0.0;
    for (j, p) in sc.patterns.iter().enumerate() {
        if !matches!(p.op, Op::PutItem | Op::DeleteItem) || p.key_space != Some(pk) || p.index.is_some() {
            continue;
        }
        let Some(g) = CompiledPattern::new(sc, p).collection_growth else { continue };
        growth += mean_rate(sc, j) * p.items as f64 * g as f64 * 86_400.0;
    }
    // The collection nearest the limit: the busiest value's, or one that starts large.
    let typical = crate::model::request::initial_collection_bytes(sc)[pk];
    let large = crate::model::request::initial_large_collections(sc);
    let candidates = std::iter::once((0, large.iter().find(|&&(k, _)| k == (pk, 0)).map_or(typical, |&(_, b)| b)))
        .chain(large.iter().filter(|&&((k, r), _)| k == pk && r > 0).map(|&((_, r), b)| (r, b)));
    let days_of = |rank: u64, start: u64| {
        let per_day = growth * rank_share(ks, rank);
        let left = COLLECTION_LIMIT_BYTES.saturating_sub(start) as f64;
        if per_day > 0.0 {
            left / per_day
        } else if left > 0.0 {
            f64::INFINITY
        } else {
            0.0
        }
    };
    let (rank, start) = candidates.min_by(|a, b| days_of(a.0, a.1).total_cmp(&days_of(b.0, b.1))).unwrap_or((0, typical));
    let per_day = growth * rank_share(ks, rank);
    let days = days_of(rank, start);
    let label = ks.value_names.get(rank as usize).cloned().unwrap_or_else(|| format!("{}#{}", ks.name, rank + 1));
    let refused: u64 = [Some(&runs.steady), runs.soak.as_ref()]
        .into_iter()
        .flatten()
        .flat_map(|r| r.item_collections.iter().map(|c| c.failed_writes))
        .max()
        .unwrap_or(0);
    let severity = if refused > 0 || days <= 30.0 {
        Severity::Error
    } else if days <= 365.0 {
        Severity::Warn
    } else {
        Severity::Info
    };
    let when = if days.is_finite() { format!("in {}", days_text(days)) } else { "never at this traffic".into() };
    let mut evidence = vec![format!(
        "{label} starts at {:.3} GB and grows {:.3} GB a day ({} of the puts, at the scenario's mean rate): it reaches 10 GiB (10,737,418,240 bytes) {when}",
        start as f64 / GB as f64,
        per_day / GB as f64,
        percent(rank_share(ks, rank))
    )];
    if refused > 0 {
        evidence.push(format!("the runs refused {} writes with ItemCollectionSizeLimitExceededException", grouped(refused)));
    }
    Some(Finding {
        id: "lsi-collection-limit".into(),
        severity,
        resource: Some(sc.table.name.clone()),
        title: format!("{} has an LSI: the item collection of {label} reaches the 10 GB limit {when}", sc.table.name),
        evidence,
        numbers: numbers(&[
            ("start_bytes", start as f64),
            ("growth_bytes_per_day", per_day),
            ("days_to_limit", if days.is_finite() { days } else { -1.0 }),
            ("refused_writes", refused as f64),
        ]),
        source: format!("{SKILL}, CRITICAL PITFALL #4 \"Exceeding 10GB LSI Partition Limit\"; docs/dynamodb-behaviour.md §8, §15 (GB is 2^30 bytes)"),
        fix: "use a GSI instead of the LSI (no collection limit), or bound the collection: archive old items, or put a period in the partition key (user#2026-12)".into(),
        assumptions: Vec::new(),
        effect: None,
    })
}
/// Mean rate of a pattern over the scenario's own duration (one sample a minute).
fn mean_rate(sc: &Scenario, j: usize) -> f64 {
    let mins = sc.duration.as_secs().div_ceil(60).max(1);
    let sod = sc.start_unix_s.rem_euclid(86_400) as u64;
    (0..mins).map(|m| sc.patterns[j].rate.at(m * 60 + 30, sod)).sum::<f64>() / mins as f64
}

fn days_text(days: f64) -> String {
    if days < 1.0 / 24.0 {
        format!("{:.0} seconds", days * 86_400.0)
    } else if days < 1.0 {
        format!("{:.1} hours", days * 24.0)
    } else {
        format!("{days:.0} days")
    }
}
