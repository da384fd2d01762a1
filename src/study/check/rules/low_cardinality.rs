//! `low-cardinality-index-key`: a GSI keyed on a value with few distinct values (fewer than [`LOW_CARDINALITY`]; a constant one at worst).

use super::key_load::{top_label, top_share, KeyLoad};
use super::shards::shard_effect;
use super::{entities_phrase, numbers, steady_throttle_evidence, units, Context, Evidence, Finding, Rule, Runs, Severity, SKILL};
use crate::format::percent;
use crate::limits::PARTITION_WRITE_CAP;
use crate::model::Dim;
use crate::scenario::{CardinalityFrom, KeyFact, ResourceId};

/// GSI partition keys with fewer values than this are low-cardinality (the design skill's
/// "GSI partition key has < 100 unique values").
pub const LOW_CARDINALITY: u64 = 100;

/// A GSI keyed on a value with few distinct values (fewer than [`LOW_CARDINALITY`]; a constant one at worst).
pub(super) struct LowCardinality;

impl Rule for LowCardinality {
    fn ids(&self) -> &'static [&'static str] {
        &["low-cardinality-index-key"]
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

    fn rests_on(&self) -> &'static [KeyFact] {
        &[KeyFact::Cardinality]
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        let mut out: Vec<Finding> = cx.low_index_keys.iter().filter_map(|&(g, ks)| low_cardinality(cx.runs, &cx.loads, g, ks)).collect();
        out.extend(unjudged(cx.runs));
        out
    }
}

/// The index keys whose number of values `ddbsim import` assumed: the rule cannot judge them,
/// and says so rather than passing them in silence.
fn unjudged(runs: &Runs<'_>) -> Vec<Finding> {
    let sc = runs.sc;
    let mut out = Vec::new();
    for (g, gsi) in sc.gsis.iter().enumerate() {
        for ks in super::index_key_spaces(sc, g) {
            let k = &sc.key_spaces[ks];
            if k.cardinality_from != CardinalityFrom::Assumption || k.cardinality < LOW_CARDINALITY {
                continue;
            }
            out.push(Finding {
                id: "low-cardinality-index-key".into(),
                severity: Severity::Info,
                resource: Some(gsi.name.clone()),
                title: format!(
                    "{} is keyed on `{}`, whose {} values are import's assumption: whether it has fewer than {LOW_CARDINALITY} (a hot index partition) is not judged",
                    gsi.name, k.name, k.cardinality
                ),
                evidence: vec![format!(
                    "a definition states no attribute's distinct values; with {} values the busiest takes {} of the index's entries",
                    k.cardinality,
                    percent(top_share(k))
                )],
                numbers: numbers(&[("cardinality", k.cardinality as f64), ("top_share", top_share(k))]),
                source: format!("{SKILL}, CRITICAL PITFALL #2 \"Low Cardinality GSI Partition Key\"; docs/dynamodb-behaviour.md §2, §7"),
                fix: format!(
                    "state keys.{}.cardinality from your data (the application's set of values, or a count of them) and remove cardinality_from",
                    k.name
                ),
                assumptions: Vec::new(),
                effect: None,
            });
        }
    }
    out
}

/// A GSI keyed on a value with few distinct values (a constant one at worst).
fn low_cardinality(runs: &Runs<'_>, loads: &[KeyLoad], g: usize, key_space: usize) -> Option<Finding> {
    let sc = runs.sc;
    let gsi = &sc.gsis[g];
    let ks = &sc.key_spaces[key_space];
    let who = entities_phrase(sc, g + 1, key_space);
    let l = loads.iter().find(|l| l.res == sc.layout().slot(ResourceId::gsi(g)) && l.key_space == key_space && l.dim == Dim::Write);
    let (load, base) = l.map_or((0.0, 0.0), |l| (l.units_per_s, l.base_rate));
    let cap = PARTITION_WRITE_CAP as f64;
    let at_rate = if load > 0.0 { base * cap / load } else { f64::INFINITY };
    let severity = if load > cap { Severity::Error } else { Severity::Warn };
    let (throttle, share) = steady_throttle_evidence(runs, g + 1, Dim::Write);
    let (fix, effect, count) = if severity == Severity::Error {
        shard_effect(runs, key_space)
    } else {
        (
            format!(
                "give {}{who} a partition key with thousands of values (e.g. userId, with `{}` in the sort key), or shard `{}`",
                gsi.name, ks.name, ks.name
            ),
            None,
            None,
        )
    };
    let mut evidence = vec![match l.and_then(|l| l.busiest) {
        // Entries written under fixed values: the busiest is where they go, not the most
        // common value among the stored entries.
        Some(rank) => format!(
            "{} takes the most index writes{who}, new entries and entries moving from or to it: {} index WCU/s on one partition at the peak ({} base writes/s)",
            ks.value_names.get(rank as usize).cloned().unwrap_or_else(|| format!("{}#{}", ks.name, rank + 1)),
            units(load),
            units(base)
        ),
        None => format!(
            "{} of the index entries{who} carry {}: {} index WCU/s on one partition at the peak ({} base writes/s)",
            percent(top_share(ks)),
            top_label(ks),
            units(load),
            units(base)
        ),
    }];
    evidence.push(if at_rate.is_finite() {
        format!("the 1,000 WCU partition cap is reached at {} base writes/s", units(at_rate))
    } else {
        "nothing writes the index in this scenario".into()
    });
    evidence.push(throttle);
    let mut n = numbers(&[
        ("cardinality", ks.cardinality as f64),
        ("top_share", top_share(ks)),
        ("index_units_per_s", load),
        ("cap", cap),
        ("cap_at_base_writes_per_s", if at_rate.is_finite() { at_rate } else { -1.0 }),
        ("steady_throttled_share", share),
    ]);
    if let Some(c) = count {
        n.insert("shards".into(), c as f64);
    }
    Some(Finding {
        id: "low-cardinality-index-key".into(),
        severity,
        resource: Some(gsi.name.clone()),
        title: if ks.cardinality == 1 {
            format!("{} is keyed on `{}`{who}, a constant: every entry is on one partition, {} index WCU/s of its 1,000", gsi.name, ks.name, units(load))
        } else {
            format!(
                "{} is keyed on `{}`{who}, {} values: the busiest takes {} index WCU/s of one partition's 1,000",
                gsi.name,
                ks.name,
                ks.cardinality,
                units(load)
            )
        },
        evidence,
        numbers: n,
        source: format!("{SKILL}, CRITICAL PITFALL #2 \"Low Cardinality GSI Partition Key\" and index smells (< {LOW_CARDINALITY} unique values); docs/dynamodb-behaviour.md §2, §7"),
        fix,
        assumptions: Vec::new(),
        effect,
    })
}
