//! `bulk-load-sorted`: a bulk put from S3 whose input is sorted by partition key, so each
//! value's items arrive together and one partition at a time takes the whole load (the
//! Developer Guide's BulkPutItems best practice: shuffle the input).

use super::{numbers, Context, Evidence, Finding, Rule, Runs, Severity};
use crate::format::{grouped, percent};
use crate::limits::PARTITION_WRITE_CAP;
use crate::scenario::BulkLoad;

/// A sorted bulk load.
pub(super) struct BulkSorted;

impl Rule for BulkSorted {
    fn ids(&self) -> &'static [&'static str] {
        &["bulk-load-sorted"]
    }

    fn worst(&self) -> Severity {
        Severity::Error
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Scenario, Evidence::OwnShape]
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        let sc = cx.runs.sc;
        let loads: Vec<(usize, BulkLoad)> =
            sc.patterns.iter().enumerate().filter_map(|(i, p)| p.bulk.filter(|b| b.sorted).map(|b| (i, b))).collect();
        if loads.is_empty() {
            return Vec::new();
        }
        let run = cx.runs.own_run();
        loads.into_iter().map(|(i, b)| sorted_load(cx.runs, b, run.patterns.get(i).map(|t| (t.offered, t.throttled_requests)))).collect()
    }
}

/// One sorted load: an error when a value's items at the load's rate outrun a partition's
/// 1,000 write units a second for a second or more; a note when the values go by faster
/// than a second (the load then spreads as shuffled input would).
fn sorted_load(runs: &Runs<'_>, b: BulkLoad, own: Option<(u64, u64)>) -> Finding {
    let sc = runs.sc;
    let key = &sc.key_spaces[b.key_space].name;
    let cap = PARTITION_WRITE_CAP as f64;
    let rolling = b.seconds_per_key >= 1;
    let over = b.max_write_units as f64 / cap;
    let severity = match (rolling, over > 1.0) {
        (true, true) => Severity::Error,
        (true, false) => Severity::Warn,
        (false, _) => Severity::Info,
    };
    let title = if rolling {
        format!(
            "the bulk load at {} is sorted by `{key}`: each value's {} items take {} s at {} WU/s, all on one partition ({} of its {} WCU cap), one partition after another",
            b.at,
            grouped(b.items_per_key),
            b.seconds_per_key,
            grouped(b.max_write_units),
            percent(over),
            grouped(PARTITION_WRITE_CAP)
        )
    } else {
        format!(
            "the bulk load is sorted by `{key}`, but each value's {} items pass in under a second at {} WU/s: the load spreads as shuffled input would",
            grouped(b.items_per_key),
            grouped(b.max_write_units)
        )
    };
    let mut evidence = vec![format!(
        "{} items over {} values of `{key}`: {} a value of {} WU each",
        grouped(b.items),
        grouped(sc.key_spaces[b.key_space].cardinality),
        grouped(b.items_per_key),
        b.item_units
    )];
    if let Some((offered, throttled)) = own {
        evidence.push(format!(
            "the scenario's own run: {} of the load's {} puts throttled at least once",
            grouped(throttled),
            grouped(offered)
        ));
    }
    Finding {
        id: "bulk-load-sorted".into(),
        severity,
        resource: Some(sc.table.name.clone()),
        title,
        evidence,
        numbers: numbers(&[
            ("write_units_per_s_on_one_value", b.max_write_units as f64),
            ("cap", cap),
            ("seconds_per_value", b.seconds_per_key as f64),
            ("items_per_value", b.items_per_key as f64),
        ]),
        source: "Developer Guide, BulkPutItems best practices (input sorted by partition key makes a rolling hot partition); docs/dynamodb-behaviour.md §2, §16".into(),
        fix: if rolling {
            format!(
                "shuffle the input (order = \"shuffled\"), or hold max_write_units at {} or below while it stays sorted",
                grouped(PARTITION_WRITE_CAP)
            )
        } else {
            "nothing needed at this rate; shuffling the input keeps it so at any rate".into()
        },
        assumptions: Vec::new(),
        effect: None,
    }
}
