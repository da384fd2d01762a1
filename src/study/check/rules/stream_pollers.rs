//! `stream-pollers-cost-more-than-writes`: stream pollers whose GetRecords calls cost more than the writes whose records they read.

use super::{numbers, Context, Evidence, Finding, Rule, Runs, Severity};
use crate::cost::{bill, BillComponent, BillOptions, Usage, HOURS_PER_MONTH};
use crate::format::{grouped, usd};
use crate::model::Dim;
use crate::scenario::{Scenario, StreamsSpec};
use crate::units::MILLI;

/// Stream pollers whose GetRecords calls cost more than the writes whose records they read.
pub(super) struct StreamPollers;

impl Rule for StreamPollers {
    fn ids(&self) -> &'static [&'static str] {
        &["stream-pollers-cost-more-than-writes"]
    }

    fn worst(&self) -> Severity {
        Severity::Warn
    }

    fn reads(&self) -> &'static [Evidence] {
        &[Evidence::Steady]
    }

    fn resimulates(&self) -> Option<&'static str> {
        Some("the steady hour's stream billed with pollers ten times slower")
    }

    fn review(&self, cx: &Context<'_>) -> Vec<Finding> {
        stream_pollers(cx.runs).into_iter().collect()
    }
}

/// Stream pollers whose GetRecords calls cost more than the writes whose records they read:
/// the steady hour's streams bill against the table's write bill, both at a month's rate.
fn stream_pollers(runs: &Runs<'_>) -> Option<Finding> {
    let sc = runs.sc;
    let spec = sc.table.streams.as_ref().filter(|s| !s.pollers_ms.is_empty())?;
    let r = &runs.steady;
    // The steady hour's bill of `table`'s stream or writes, at a month's rate.
    let month = |s: &Scenario, c: BillComponent| -> (f64, Usage) {
        let table = &s.table;
        let usage = Usage::of(r, s);
        let b = bill(&usage, runs.catalog, &BillOptions { extrapolate: false, ..BillOptions::of(&sc.pricing) });
        let window: f64 = b.lines.iter().filter(|l| l.component == c && l.resource == table.name).map(|l| l.cost_usd).sum();
        (window * HOURS_PER_MONTH / b.window_hours.max(1e-9), usage)
    };
    let (streams, usage) = month(sc, BillComponent::Streams);
    let (writes, _) = month(sc, BillComponent::Writes);
    if streams <= writes || streams <= 0.0 {
        return None;
    }
    let calls = usage.streams.as_ref().map_or(0.0, |s| s.read_units);
    let t = &r.resources[0];
    let records = t.minutes.iter().map(|m| m.consumed[Dim::Write as usize]).sum::<u64>() as f64 / MILLI as f64;
    let shards = t.minutes.last().map_or(1, |m| m.partitions);
    let mut slower = sc.clone();
    slower.table.streams = Some(StreamsSpec { pollers_ms: spec.pollers_ms.iter().map(|ms| ms * 10).collect(), ..spec.clone() });
    let (slower_month, _) = month(&slower, BillComponent::Streams);
    let intervals: Vec<String> = spec.pollers_ms.iter().map(|ms| format!("{ms} ms")).collect();
    Some(Finding {
        id: "stream-pollers-cost-more-than-writes".into(),
        severity: Severity::Warn,
        resource: Some(sc.table.name.clone()),
        title: format!(
            "the stream's pollers cost {} a month, more than the {} of the writes they read",
            usd(streams),
            usd(writes)
        ),
        evidence: vec![
            format!(
                "{} poller(s) every {} over {shards} shard(s): {} GetRecords calls in the steady hour for at most {} records ({:.2} a call)",
                spec.pollers_ms.len(),
                intervals.join(", "),
                grouped(calls.round() as u64),
                grouped(records.round() as u64),
                records / calls.max(1.0)
            ),
            "a poller calls every shard every interval, empty or not, and each call is a billed streams read".into(),
        ],
        numbers: numbers(&[
            ("streams_monthly_usd", streams),
            ("writes_monthly_usd", writes),
            ("calls", calls),
            ("records", records),
            ("shards", shards as f64),
        ]),
        source: "DynamoDB developer guide, streams cost optimisation (every GetRecords call is a read request unit; Lambda and global tables reads are free); docs/dynamodb-behaviour.md §10.2".into(),
        fix: "read the stream with a Lambda trigger (free), or poll each shard less often".into(),
        assumptions: Vec::new(),
        effect: Some(format!(
            "with a Lambda trigger instead: $0.00 a month of stream reads; polling 10 times less often: {} a month",
            usd(slower_month)
        )),
    })
}
