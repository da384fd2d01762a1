//! `hot-key`: a key value past (or near) its partition's cap at the plan's peak or burst.

use super::key_load::{load_numbers, top_label, top_share, KeyLoad};
use super::shards::shard_effect;
use super::{entities_phrase, steady_throttle_evidence, units, Context, Evidence, Finding, Rule, Runs, Severity, SKILL};
use crate::format::{grouped, percent};
use crate::model::Dim;
use crate::scenario::KeyFact;
use crate::scenario::Popularity;

/// A key at this share of a partition's cap is a warning.
pub const NEAR_CAP: f64 = 0.8;

/// A key value past (or near) its partition's cap at the plan's peak or burst.
pub(super) struct HotKey;

impl Rule for HotKey {
    fn ids(&self) -> &'static [&'static str] {
        &["hot-key"]
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
        &[KeyFact::Popularity, KeyFact::Cardinality]
    }
    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        cx.loads
            .iter()
            .filter(|l| !cx.is_low_index_key(l) && !matches!(cx.runs.sc.key_spaces[l.key_space].popularity, Popularity::Sequential(_)))
            .filter_map(|l| hot_key(cx.runs, l))
            .collect()
    }
}

/// A key value past (or near) its partition's cap.
fn hot_key(runs: &Runs<'_>, l: &KeyLoad) -> Option<Finding> {
    let sc = runs.sc;
    let ratio = l.units_per_s / l.cap();
    // Near the cap at the peak, or past it in the burst.
    if ratio < NEAR_CAP && ratio * sc.check.burst_factor <= 1.0 {
        return None;
    }
    let ks = &sc.key_spaces[l.key_space];
    let res = sc.resource_name(sc.layout().id(l.res));
    let severity = if ratio > 1.0 { Severity::Error } else { Severity::Warn };
    let unit = if l.dim == Dim::Write { "WCU" } else { "RCU" };
    let (throttle, share) = steady_throttle_evidence(runs, l.res, l.dim);
    let (fix, effect, count) = if severity == Severity::Error {
        shard_effect(runs, l.key_space)
    } else {
        (
            format!(
                "shard `{}` before the traffic grows {} (the {}x burst takes it to {} of the cap)",
                ks.name,
                percent(1.0 / ratio - 1.0),
                sc.check.burst_factor,
                percent(ratio * sc.check.burst_factor)
            ),
            None,
            None,
        )
    };
    let n = load_numbers(l, share, count);
    Some(Finding {
        id: "hot-key".into(),
        severity,
        resource: Some(res.clone()),
        title: format!(
            "key {} of `{}`{} takes {} {unit}/s on one {res} partition: {} of its {} {unit} cap",
            top_label(ks),
            ks.name,
            entities_phrase(sc, l.res, l.key_space),
            units(l.units_per_s),
            percent(ratio),
            grouped(l.cap() as u64)
        ),
        evidence: vec![
            format!("{} of `{}`'s traffic is on {} at the peak ({} requests/s)", percent(top_share(ks)), ks.name, top_label(ks), units(l.base_rate)),
            throttle,
        ],
        numbers: n,
        source: format!(
            "{SKILL}, capacity smells; a partition serves at most 3,000 RCU and 1,000 WCU whatever the table's capacity (docs/dynamodb-behaviour.md §2)"
        ),
        fix,
        assumptions: Vec::new(),
        effect,
    })
}
